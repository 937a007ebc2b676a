#!/bin/bash
# The DMA_MEMCPY_SG series, and after it the dma-debug fix of the debug
# kernel, apply to Debian's linux-source-6.12 on every run (not only when
# the debug kernel is rebuilt), in git-am format with a sign-off, and
# checkpatch finds no error in them.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib.sh"
root=$TOP/kernel/patches
tarball=/usr/src/linux-source-6.12.tar.xz

# the series in the order build-debug-kernel.sh applies them; a patch
# is named DIR/FILE from here on
patches=()
for dir in v6.12 v6.12-dma-debug; do
	mapfile -t list < <(grep -v '^#' "$root/$dir/series" | sed '/^$/d')
	[ ${#list[@]} -gt 0 ]
	tap_result $? "$dir/series lists patches"
	patches+=("${list[@]/#/$dir/}")
done

for p in "${patches[@]}"; do
	f=$root/$p
	grep -q '^From [0-9a-f]\{40\} ' "$f" && grep -q '^Subject: \[PATCH' "$f" &&
		grep -q '^Signed-off-by: ' "$f"
	tap_result $? "$p: git format-patch output with a Signed-off-by"
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mapfile -t files < <(cat "${patches[@]/#/$root/}" |
	sed -n 's|^diff --git a/\([^ ]*\) b/.*|linux-source-6.12/\1|p' | sort -u)
tar -xJf "$tarball" -C "$tmp" "${files[@]}" 2>"$tmp/tar.err"
tap_result $? "the files the series touches are in $tarball"

for p in "${patches[@]}"; do
	patch -d "$tmp/linux-source-6.12" -p1 -F0 -N -s --no-backup-if-mismatch \
		< "$root/$p" > "$tmp/patch.out" 2>&1
	rc=$?
	[ $rc = 0 ] || sed 's/^/# /' "$tmp/patch.out"
	tap_result $rc "$p applies with no fuzz to linux-source-6.12 $(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null)"
done

grep -q 'DMA_MEMCPY_SG,' "$tmp/linux-source-6.12/include/linux/dmaengine.h" &&
	grep -q 'dmaengine_prep_dma_memcpy_sg' "$tmp/linux-source-6.12/include/linux/dmaengine.h"
tap_result $? "the patched dmaengine.h has DMA_MEMCPY_SG and its prep wrapper"

# dma_unmap_page_attrs() tells dma-debug before it unmaps
awk '/^void dma_unmap_page_attrs\(/ { f = 1 }
     f && /debug_dma_unmap_page\(/ { d = NR }
     f && /iommu_dma_unmap_page\(/ { u = NR }
     f && /^}/ { exit !(d && u && d < u) }' "$tmp/linux-source-6.12/kernel/dma/mapping.c"
tap_result $? "the patched dma_unmap_page_attrs calls debug_dma_unmap_page before the unmap"

src=$(linux_source_dir 6.12)
checkpatch=$src/scripts/checkpatch.pl
[ -f "$checkpatch" ]
tap_result $? "checkpatch.pl is there to check the series ($checkpatch)"
for p in "${patches[@]}"; do
	# from outside the checkout: checkpatch.pl checks a file that git
	# tracks in the current directory's repository as source, not as a
	# patch (git_is_single_file())
	(cd "$tmp" && perl "$checkpatch" --strict --no-tree "$root/$p") \
		> "$tmp/cp.out" 2>&1
	cprc=$?
	# it exits 1 on warnings too: pass on its summary, which it prints
	# only when it ran to the end, saying 0 errors
	[ $cprc -le 1 ] && grep -q '^total: 0 errors, ' "$tmp/cp.out"
	rc=$?
	[ $rc = 0 ] || { echo "# checkpatch.pl exited $cprc"; sed 's/^/# /' "$tmp/cp.out"; }
	tap_result $rc "$p: no checkpatch error"
done

tap_end
