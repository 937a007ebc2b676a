#!/bin/bash
# The DMA_MEMCPY_SG series applies to Debian's linux-source-6.12 on every
# run (not only when the debug kernel is rebuilt), in git-am format with
# a sign-off, and checkpatch finds no error in it.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && cd .. && pwd)
. "$top/scripts/lib.sh"
series=$top/kernel/patches/v6.12
tarball=/usr/src/linux-source-6.12.tar.xz

n=0
failed=0
result() {	# result OK DESCRIPTION
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2"
	fi
}

mapfile -t patches < <(grep -v '^#' "$series/series" | sed '/^$/d')
[ ${#patches[@]} -gt 0 ]
result $? "the series lists patches"

for p in "${patches[@]}"; do
	f=$series/$p
	grep -q '^From [0-9a-f]\{40\} ' "$f" && grep -q '^Subject: \[PATCH' "$f" &&
		grep -q '^Signed-off-by: ' "$f"
	result $? "$p: git format-patch output with a Signed-off-by"
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mapfile -t files < <(cat "${patches[@]/#/$series/}" |
	sed -n 's|^diff --git a/\([^ ]*\) b/.*|linux-source-6.12/\1|p' | sort -u)
tar -xJf "$tarball" -C "$tmp" "${files[@]}" 2>"$tmp/tar.err"
result $? "the files the series touches are in $tarball"

for p in "${patches[@]}"; do
	patch -d "$tmp/linux-source-6.12" -p1 -F0 -N -s --no-backup-if-mismatch \
		< "$series/$p" > "$tmp/patch.out" 2>&1
	rc=$?
	[ $rc = 0 ] || sed 's/^/# /' "$tmp/patch.out"
	result $rc "$p applies with no fuzz to linux-source-6.12 $(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null)"
done

grep -q 'DMA_MEMCPY_SG,' "$tmp/linux-source-6.12/include/linux/dmaengine.h" &&
	grep -q 'dmaengine_prep_dma_memcpy_sg' "$tmp/linux-source-6.12/include/linux/dmaengine.h"
result $? "the patched dmaengine.h has DMA_MEMCPY_SG and its prep wrapper"

src=$(linux_source_dir)
for p in "${patches[@]}"; do
	perl "$src/scripts/checkpatch.pl" --strict --no-tree --terse "$series/$p" \
		> "$tmp/cp.out" 2>&1
	! grep -q ': ERROR:' "$tmp/cp.out"
	rc=$?
	[ $rc = 0 ] || sed 's/^/# /' "$tmp/cp.out"
	result $rc "$p: no checkpatch error"
done

echo "1..$n"
[ "$failed" = 0 ]
