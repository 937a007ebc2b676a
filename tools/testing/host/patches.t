#!/bin/bash
# The kernel patch series, on every run (not only when a kernel is built):
#
# - v7.3 (DMA_MEMCPY_SG, DMA_MEMCPY_VEC and their providers) and, after it,
#   v7.3-dma-debug and v7.3-migrate (page migration's copy offload hook,
#   whose series file lists v7.3-mm's fix first: ../v7.3-mm/PATCH)
#   apply with no fuzz to Debian's linux-source-7.3, with patch -F0 and
#   with git am, and so does v7.3-mm (the mm fix for linux-mm) on its
#   own; each patch is git format-patch output with a
#   Signed-off-by and checkpatch.pl --strict (7.3's) finds no error and no
#   check in it, and no warning but the ones kernel/patches/README.rst
#   explains; the cover letters announce the series they head;
# - v6.12 and v6.12-dma-debug, the backport, apply the same way to
#   linux-source-6.12, and 6.12's checkpatch.pl finds no error in them;
# - both patched trees have the API the project's module and its probes
#   use, with the same prototypes, and the dma-debug fix's order; the 7.3
#   tree has the copy offload interface the migration provider uses;
# - the C files each version's patches touch compile, W=1 and without a
#   warning, in an allnoconfig tree with the DMA options (and, for 7.3,
#   COMPACTION and MIGRATION_COPY_OFFLOAD) on, for x86_64 and arm64
#   (pl330 needs ARM_AMBA, which x86 never selects, so arm64 builds it). The extracted, patched and configured trees are cached
#   under $DMA_BENCH_CACHE/patches-build/, named by a hash of the version,
#   the configuration and the patches' diffs, so a warm run only asks make
#   whether the objects are up to date. A missing tool or a failed build
#   is a failed test.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib.sh"
root=$TOP/kernel/patches
export LC_ALL=C

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The warnings checkpatch.pl --strict may give a v7.3 patch: PATTERN of the
# warning's line (an ERE), and the patches (a glob) that may have it. The
# README's "Checkpatch" section says why each is there.
allowed_warnings=(
	"^WARNING: Unknown commit id '0cae04373b77', maybe rebased or not pulled\?$|v7.3/*"
	"^WARNING: Unknown commit id '8a8ca142a488', maybe rebased or not pulled\?$|v7.3-mm/0001-*"
	"^WARNING: Prefer a maximum 75 chars per line \(possible unwrapped commit description\?\)$|v7.3-dma-debug/0001-*"
)

# Bumped when the way the compile trees are made changes, so that the
# cached ones are made again.
compile_recipe=2

# series_patches DIR: DIR/FILE for each patch DIR/series lists, in order,
# relative to kernel/patches: an entry ../OTHER/FILE, a patch of another
# series that this one is carried on top of, is given as OTHER/FILE. As
# scripts/kernel/build-debug-kernel.sh reads it: a # starts a comment, and
# white space does not count.
series_patches() {
	sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$root/$1/series" |
		sed -e "s|^|$1/|" -e 's|^[^/]*/\.\./||'
}

# own_patches DIR: those of series_patches DIR that are in DIR
own_patches() {
	series_patches "$1" | grep "^$1/"
}

# touched_files PATCH...: the files the patches change that the tree
# has (not those one of them creates, which a later one may change),
# relative to the tree's top
touched_files() {
	local p
	for p; do cat "$root/$p"; done |
		awk '/^diff --git / { f = $3; sub(/^a\//, "", f) }
		     /^--- \/dev\/null/ { created[f] = 1; f = "" }
		     /^\+\+\+ / && f != "" { seen[f] = 1; f = "" }
		     END { for (f in seen) if (!(f in created)) print f }' |
		sort -u
}

# compiled_files PATCH...: the files the patches change or create
compiled_files() {
	local p
	for p; do
		awk '/^\+\+\+ b\// { f = $2; sub(/^b\//, "", f); print f }' "$root/$p"
	done | sort -u
}

# pristine_files SERIES DEST PATCH...: copies the unpatched files the
# patches touch, from linux-source-SERIES, into DEST/linux-source-SERIES.
# Extracted once per tarball version and file list (xz is the slow part)
# into $DMA_BENCH_CACHE/linux-source/touched-SERIES-VERSION-HASH.
pristine_files() {
	local series=$1 dest=$2 tarball ver files hash dir
	shift 2
	tarball=$(linux_source_tarball "$series") || return 1
	ver=$(linux_source_version "$series") || return 1
	mapfile -t files < <(touched_files "$@")
	hash=$(printf '%s\n' "$tarball" "${files[@]}" | sha256sum | cut -c1-16)
	dir=$DMA_BENCH_CACHE/linux-source/touched-$series-$ver-$hash
	if [ ! -f "$dir/.complete" ]; then
		rm -rf "$dir"
		mkdir -p "$dir"
		tar -xJf "$tarball" -C "$dir" "${files[@]/#/linux-source-$series/}" \
			2>"$tmp/tar.err" || { cat "$tmp/tar.err"; return 1; }
		touch "$dir/.complete"
	fi
	mkdir -p "$dest"
	cp -a "$dir/linux-source-$series" "$dest/"
}

# apply_checks NAME SERIES PATCH...: the patches (NAME's) apply in order
# with patch -F0, and with git am, to the pristine files of
# linux-source-SERIES; leaves the patched files in
# $tmp/NAME/linux-source-SERIES.
apply_checks() {
	local name=$1 series=$2 tree p rc ver
	shift 2
	tree=$tmp/$name/linux-source-$series
	ver=$(linux_source_version "$series" 2>/dev/null)
	pristine_files "$series" "$tmp/$name" "$@" >"$tmp/pristine.out" 2>&1
	rc=$?
	[ $rc = 0 ] || tap_diag "$tmp/pristine.out"
	tap_result $rc "the files the $name patches touch are in linux-source-$series $ver"
	[ $rc = 0 ] || return 1

	# git am, in a repository of just those files
	cp -a "$tree" "$tmp/$name/am"
	(cd "$tmp/$name/am" && git init -q && git add . &&
	 git -c user.name=patches.t -c user.email=patches.t@invalid \
		commit -q -m base && git -c user.name=patches.t \
		-c user.email=patches.t@invalid am -q "${@/#/$root/}") \
		>"$tmp/am.out" 2>&1
	rc=$?
	[ $rc = 0 ] || tap_diag "$tmp/am.out"
	tap_result $rc "the $name patches apply in order with git am"

	for p; do
		patch -d "$tree" -p1 -F0 -N -s --no-backup-if-mismatch \
			< "$root/$p" > "$tmp/patch.out" 2>&1
		rc=$?
		[ $rc = 0 ] || tap_diag "$tmp/patch.out"
		tap_result $rc "$p applies with no fuzz to linux-source-$series $ver"
	done
}

# checkpatch_checks SERIES strict|errors PATCH...: checkpatch.pl --strict
# of linux-source-SERIES on each patch, from outside the checkout
# (checkpatch.pl checks a file that git tracks in the current directory's
# repository as source, not as a patch: git_is_single_file()). "errors":
# no error. "strict": no error, no check, and only the allowed warnings.
checkpatch_checks() {
	local series=$1 mode=$2 src checkpatch p cprc rc w entry pat glob ok desc
	shift 2
	src=$(linux_source_dir "$series" 2>"$tmp/src.err")
	checkpatch=$src/scripts/checkpatch.pl
	[ -n "$src" ] && [ -f "$checkpatch" ]
	rc=$?
	[ $rc = 0 ] || tap_diag "$tmp/src.err"
	tap_result $rc "linux-source-$series's checkpatch.pl is there to check the series"
	[ $rc = 0 ] || return 1
	for p; do
		(cd "$tmp" && perl "$checkpatch" --strict --no-tree "$root/$p") \
			> "$tmp/cp.out" 2>&1
		cprc=$?
		# it exits 1 on warnings too: its summary, which it prints only
		# when it ran to the end, says what it found
		if [ "$mode" = strict ]; then
			[ $cprc -le 1 ] && grep -q '^total: 0 errors, [0-9]* warnings, 0 checks, ' "$tmp/cp.out"
			rc=$?
			while [ $rc = 0 ] && IFS= read -r w; do
				ok=
				for entry in "${allowed_warnings[@]}"; do
					pat=${entry%|*}
					glob=${entry##*|}
					# shellcheck disable=SC2053
					if [[ $p == $glob ]] && grep -Eq "$pat" <<<"$w"; then
						ok=1
					fi
				done
				[ -n "$ok" ] || { echo "# warning not in the README: $w"; rc=1; }
			done < <(grep '^WARNING:' "$tmp/cp.out")
			desc="$p: checkpatch --strict: no error, no check, no unexplained warning"
		else
			[ $cprc -le 1 ] && grep -q '^total: 0 errors, ' "$tmp/cp.out"
			rc=$?
			desc="$p: no checkpatch error"
		fi
		[ $rc = 0 ] || { echo "# checkpatch.pl exited $cprc"; tap_diag "$tmp/cp.out"; }
		tap_result $rc "$desc"
	done
}

# format_checks PATCH...: git format-patch output with a sign-off
format_checks() {
	local p f
	for p; do
		f=$root/$p
		grep -q '^From [0-9a-f]\{40\} ' "$f" && grep -q '^Subject: \[PATCH' "$f" &&
			grep -q '^Signed-off-by: ' "$f" && grep -q '^diff --git ' "$f"
		tap_result $? "$p: git format-patch output with a Signed-off-by"
	done
}

# --- compile checks --------------------------------------------------------

compile_arches=(x86_64 arm64)

# arch_options ARCH SERIES: the options turned on after allnoconfig
# (7.3's: COMPACTION selects MIGRATION, which v7.3-migrate's option needs)
arch_options() {
	case $1 in
	x86_64) echo DMADEVICES DMA_ENGINE COMPILE_TEST XILINX_ZYNQMP_DMA DMA_API_DEBUG ;;
	arm64) echo DMADEVICES DMA_ENGINE COMPILE_TEST XILINX_ZYNQMP_DMA PL330_DMA DMA_API_DEBUG ;;
	esac
	[ "$2" != 7.3 ] || echo COMPACTION MIGRATION_COPY_OFFLOAD
}

# arch_srcdir ARCH: ARCH's directory under arch/
arch_srcdir() {
	case $1 in
	x86_64) echo x86 ;;
	*) echo "$1" ;;
	esac
}

# arch_cross ARCH: the CROSS_COMPILE prefix for ARCH on this machine
arch_cross() {
	case $1-$(uname -m) in
	x86_64-x86_64 | arm64-aarch64) echo "" ;;
	x86_64-*) echo x86_64-linux-gnu- ;;
	arm64-*) echo aarch64-linux-gnu- ;;
	esac
}

# kmake DIR ARCH ARGS...: make in the source tree DIR for ARCH, with the
# caller's kbuild settings kept out
kmake() {
	local dir=$1 arch=$2 cross
	shift 2
	cross=$(arch_cross "$arch")
	env -u O -u KBUILD_OUTPUT -u KBUILD_EXTMOD -u M -u KCONFIG_CONFIG \
		-u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CC -u LD -u KCFLAGS \
		-u KCPPFLAGS -u LOCALVERSION \
		KBUILD_BUILD_USER=dma-bench KBUILD_BUILD_HOST=dma-bench \
		make -C "$dir/src" O="$dir/obj-$arch" ARCH="$arch" \
		CROSS_COMPILE="$cross" "$@"
}

# make_tree DIR SERIES PATCH...: DIR/src, linux-source-SERIES with the
# patches, and DIR/obj-ARCH, configured, for each of compile_arches
make_tree() {
	local dir=$1 series=$2 tarball p arch opt
	shift 2
	tarball=$(linux_source_tarball "$series") || return 1
	mkdir -p "$dir/src" || return 1
	echo "extracting $tarball"
	tar -xJf "$tarball" -C "$dir/src" --strip-components=1 || return 1
	for p; do
		echo "applying $p"
		patch -d "$dir/src" -p1 -F0 -N -s --no-backup-if-mismatch \
			< "$root/$p" || return 1
	done
	for arch in "${compile_arches[@]}"; do
		kmake "$dir" "$arch" -s allnoconfig || return 1
		# shellcheck disable=SC2046
		"$dir/src/scripts/config" --file "$dir/obj-$arch/.config" \
			$(printf -- '-e %s ' $(arch_options "$arch" "$series")) || return 1
		kmake "$dir" "$arch" -s olddefconfig || return 1
		for opt in $(arch_options "$arch" "$series"); do
			grep -qx "CONFIG_$opt=y" "$dir/obj-$arch/.config" ||
				{ echo "$arch: CONFIG_$opt is not set after olddefconfig"; return 1; }
		done
	done
}

# arch_objects DIR ARCH FILE...: the objects of the C files among FILE
# that DIR/obj-ARCH's configuration builds (by their Makefile line)
arch_objects() {
	local dir=$1 arch=$2 f o sym
	shift 2
	for f; do
		case $f in *.c) ;; *) continue ;; esac
		# another architecture's code is not this one's to build
		case $f in
		arch/*) [[ $f == arch/$(arch_srcdir "$arch")/* ]] || continue ;;
		esac
		o=$(basename "${f%.c}.o")
		sym=$(awk -v o="$o" '/^obj-\$\(CONFIG_[A-Za-z0-9_]+\)[ \t]*\+=/ {
			for (i = 2; i <= NF; i++)
				if ($i == o) {
					s = $1; sub(/^obj-\$\(/, "", s); sub(/\).*/, "", s)
					print s; exit
				}
		}' "$dir/src/$(dirname "$f")/Makefile")
		if [ -z "$sym" ] || grep -qx "$sym=y" "$dir/obj-$arch/.config"; then
			echo "${f%.c}.o"
		fi
	done
}

# compile_checks SERIES PATCH...: the C files the patches touch compile
# W=1 without a warning for each of compile_arches, each at least once
compile_checks() {
	local series=$1 ver key dir cache lockfd rc arch tool cross objs built o
	shift
	local -a files missing=()
	mapfile -t files < <(compiled_files "$@")

	for tool in make gcc flex bison bc perl xz tar patch; do
		command -v "$tool" >/dev/null || missing+=("$tool")
	done
	for arch in "${compile_arches[@]}"; do
		cross=$(arch_cross "$arch")
		[ -z "$cross" ] || command -v "${cross}gcc" >/dev/null ||
			missing+=("${cross}gcc")
	done
	[ ${#missing[@]} = 0 ]
	rc=$?
	tap_result $rc "the tools to compile the $series patches are there${missing[*]:+ (missing: ${missing[*]}; scripts/setup.sh installs them)}"
	[ $rc = 0 ] || return 1

	ver=$(linux_source_version "$series") || { tap_not_ok "linux-source-$series's version"; return 1; }
	key=$({
		echo "recipe $compile_recipe"
		echo "linux-source-$series $ver"
		for arch in "${compile_arches[@]}"; do
			echo "$arch $(arch_cross "$arch"): $(arch_options "$arch" "$series")"
		done
		for p; do
			echo "== $p"
			sed -n '/^diff --git /,$p' "$root/$p"
		done
	} | sha256sum | cut -c1-16)
	cache=$DMA_BENCH_CACHE/patches-build
	dir=$cache/$series-$key
	mkdir -p "$cache"
	exec {lockfd}>"$cache/.lock-$series"
	flock "$lockfd"
	if [ ! -f "$dir/.complete" ]; then
		# one tree a version: the ones of older patches go
		rm -rf "$cache/$series-"*
		echo "# making the $series compile tree $dir (once for these patches)"
		make_tree "$dir" "$series" "$@" >"$tmp/tree.log" 2>&1
		rc=$?
		[ $rc = 0 ] && touch "$dir/.complete"
		[ $rc = 0 ] || { tail -n 40 "$tmp/tree.log" | tap_diag; cp "$tmp/tree.log" "$cache/$series-failed.log"; }
	else
		rc=0
	fi
	tap_result $rc "linux-source-$series with the patches, configured for ${compile_arches[*]} (allnoconfig + DMA options)"
	if [ $rc != 0 ]; then
		rm -rf "$dir"
		flock -u "$lockfd"
		return 1
	fi

	built=" "
	for arch in "${compile_arches[@]}"; do
		mapfile -t objs < <(arch_objects "$dir" "$arch" "${files[@]}")
		if [ ${#objs[@]} = 0 ]; then
			tap_not_ok "$series, $arch: no object of the touched files is configured"
			continue
		fi
		kmake "$dir" "$arch" -s -j"$(nproc)" W=1 "${objs[@]}" >"$tmp/build.log" 2>&1
		rc=$?
		if [ $rc = 0 ] && grep -Eq '(warning|error):' "$tmp/build.log"; then
			rc=1
		fi
		for o in "${objs[@]}"; do
			[ -f "$dir/obj-$arch/$o" ] || rc=1
		done
		if [ $rc != 0 ]; then
			tap_diag "$tmp/build.log"
			# built again next time, so it fails again
			for o in "${objs[@]}"; do rm -f "$dir/obj-$arch/$o"; done
		else
			for o in "${objs[@]}"; do built="$built$o "; done
		fi
		tap_result $rc "$series, $arch: ${objs[*]} compile with W=1 and no warning"
	done
	flock -u "$lockfd"

	rc=0
	for f in "${files[@]}"; do
		case $f in *.c) ;; *) continue ;; esac
		case $built in *" ${f%.c}.o "*) ;; *) echo "# $f: compiled for no architecture"; rc=1 ;; esac
	done
	tap_result $rc "$series: every C file the patches touch is compiled"
}

# --- the series --------------------------------------------------------------

# series_checks DIR: DIR/series lists patches, every patch of DIR among
# them, and each it lists is there
series_checks() {
	local dir=$1 f b p rc=0
	local -a l
	mapfile -t l < <(series_patches "$dir")
	[ ${#l[@]} -gt 0 ]
	tap_result $? "$dir/series lists patches"
	for f in "$root/$dir"/[0-9]*.patch; do
		b=$(basename "$f")
		[ "$b" = 0000-cover-letter.patch ] && continue
		printf '%s\n' "${l[@]}" | grep -qx "$dir/$b" ||
			{ echo "# $dir/$b is not in $dir/series"; rc=1; }
	done
	for p in "${l[@]}"; do
		[ -f "$root/$p" ] || { echo "# $p is missing"; rc=1; }
	done
	tap_result $rc "$dir/series and the directory's patches agree"
}

declare -A version_patches
for series in 7.3 6.12; do
	list=()
	dirs=("v$series" "v$series-dma-debug")
	[ "$series" != 7.3 ] || dirs+=("v$series-migrate")
	for dir in "${dirs[@]}"; do
		series_checks "$dir"
		mapfile -t l < <(series_patches "$dir")
		list+=("${l[@]}")
	done
	version_patches[$series]="${list[*]}"
done
series_checks v7.3-mm

# The kernels get v7.3-mm through v7.3-migrate/series, whose first
# entries are v7.3-mm's series (../v7.3-mm/PATCH), in its order
mapfile -t pmm < <(series_patches v7.3-mm)
mapfile -t l < <(series_patches v7.3-migrate)
[ ${#pmm[@]} -gt 0 ] && [ "${l[*]:0:${#pmm[@]}}" = "${pmm[*]}" ]
tap_result $? "v7.3-migrate/series lists v7.3-mm's patches first, in its order"

read -ra p73 <<<"${version_patches[7.3]}"
read -ra p612 <<<"${version_patches[6.12]}"

format_checks "${p73[@]}" "${p612[@]}"

# cover_check DIR PREFIX: DIR/0000-cover-letter.patch heads DIR's series,
# its subject starting PREFIX, with the series' shortlog and diffstat
cover_check() {
	local dir=$1 prefix=$2 cover=$root/$1/0000-cover-letter.patch rc=0 p s
	local -a l
	# the directory's own: not those of a series it is carried on top of
	mapfile -t l < <(own_patches "$dir")
	[ -f "$cover" ] || rc=1
	if [ $rc = 0 ]; then
		grep -q "^Subject: \[PATCH 0/${#l[@]}\] $prefix" "$cover" || { echo "# no 'Subject: [PATCH 0/${#l[@]}] $prefix'"; rc=1; }
		for p in "${l[@]}"; do
			s=$(sed -n 's/^Subject: \[PATCH [0-9]*\/[0-9]*\] //p' "$root/$p")
			# the shortlog's line, at most as long as git shortlog wraps it
			grep -qF "  ${s:0:60}" "$cover" || { echo "# the shortlog lacks: $s"; rc=1; }
		done
		grep -Eq '^ [0-9]+ files? changed' "$cover" || { echo "# no diffstat"; rc=1; }
	fi
	tap_result $rc "$dir/0000-cover-letter.patch: [PATCH 0/${#l[@]}], with the shortlog and diffstat of the series"
}

cover_check v7.3 "dmaengine: "
cover_check v7.3-migrate "mm/migrate: "
cover_check v7.3-mm "mm/migrate: "

apply_checks 7.3 7.3 "${p73[@]}"
apply_checks 6.12 6.12 "${p612[@]}"
# the mm fix on its own, as posted to linux-mm
apply_checks 7.3-mm 7.3 "${pmm[@]}"

for series in 7.3 6.12; do
	h=$tmp/$series/linux-source-$series/include/linux/dmaengine.h
	grep -q 'DMA_MEMCPY_SG,' "$h" && grep -q 'DMA_MEMCPY_VEC,' "$h" &&
		grep -q 'dmaengine_prep_dma_memcpy_sg(' "$h" &&
		grep -q 'dmaengine_prep_dma_memcpy_vec(' "$h"
	tap_result $? "$series: the patched dmaengine.h has DMA_MEMCPY_SG, DMA_MEMCPY_VEC and their prep wrappers"
	[ "$(grep -c '^struct dma_vec {' "$h")" = 1 ]
	tap_result $? "$series: the patched dmaengine.h defines struct dma_vec once"
	for d in drivers/dma/pl330.c drivers/dma/xilinx/zynqmp_dma.c; do
		f=$tmp/$series/linux-source-$series/$d
		grep -q 'dma_cap_set(DMA_MEMCPY_SG,' "$f" && grep -q 'dma_cap_set(DMA_MEMCPY_VEC,' "$f"
		tap_result $? "$series: the patched $(basename "$d") advertises DMA_MEMCPY_SG and DMA_MEMCPY_VEC"
	done
done

# py_check DESC ARG...: the Python program on stdin, run with ARGs, is a
# test named DESC that passes when it exits 0; its output is the diagnosis
py_check() {
	local desc=$1 rc
	shift
	python3 - "$@" >"$tmp/py.out" 2>&1
	rc=$?
	[ $rc = 0 ] || tap_diag "$tmp/py.out"
	tap_result $rc "$desc"
}

# The API the project's module and its probes use is the same in both
py_check "the memcpy_sg/memcpy_vec API is the same in the 6.12 and 7.3 series (wrappers, operations, enum)" \
	"$tmp/6.12/linux-source-6.12/include/linux/dmaengine.h" \
	"$tmp/7.3/linux-source-7.3/include/linux/dmaengine.h" <<'EOF'
import re, sys

def api(path):
    s = open(path).read()
    out = {}
    for name in ("dmaengine_prep_dma_memcpy_sg", "dmaengine_prep_dma_memcpy_vec"):
        m = re.search(r"static inline struct dma_async_tx_descriptor \*\s*"
                      + name + r"\((.*?)\)\s*\{", s, re.S)
        out[name] = " ".join(m.group(1).split()) if m else None
    for name in ("device_prep_dma_memcpy_sg", "device_prep_dma_memcpy_vec"):
        m = re.search(r"struct dma_async_tx_descriptor \*\s*\(\*" + name
                      + r"\)\s*\((.*?)\);", s, re.S)
        out[name] = " ".join(m.group(1).split()).replace("( ", "(") if m else None
    m = re.search(r"enum dma_transaction_type \{\s*(\w+),\s*(\w+),\s*(\w+),", s)
    out["enum"] = m.groups() if m else None
    return out

a, b = api(sys.argv[1]), api(sys.argv[2])
bad = 0
for k in a:
    if a[k] is None or a[k] != b[k]:
        print("%s: 6.12 %r, 7.3 %r" % (k, a[k], b[k]))
        bad = 1
if a["enum"] != ("DMA_MEMCPY", "DMA_MEMCPY_SG", "DMA_MEMCPY_VEC"):
    print("enum dma_transaction_type starts %r" % (a["enum"],))
    bad = 1
sys.exit(bad)
EOF

# The copy offload interface the migration provider (kernel/dma/) builds
# against, as kernel/patches/v7.3-migrate's cover letter gives it
py_check "7.3: the patched migrate_copy_offload.h has struct migrator, struct migrate_offload_batch, migrate_offload_register/unregister and the per-pair reports as the provider uses them" \
	"$tmp/7.3/linux-source-7.3/include/linux/migrate_copy_offload.h" <<'EOF'
import re, sys

try:
    s = " ".join(open(sys.argv[1]).read().replace("\\\n", " ").split())
except OSError as e:
    print(e)
    sys.exit(1)
want = [
    r"struct migrator \{ char name\[MIGRATOR_NAME_LEN\]; int \(\*offload_copy\)"
    r"\(struct migrate_offload_batch \*batch\); \};",
    r"struct migrate_offload_batch \{ struct list_head \*src_list; "
    r"struct list_head \*dst_list; unsigned int nr; enum migrate_mode mode; "
    r"enum migrate_reason reason;",
    r"int migrate_offload_register\(struct migrator \*m, unsigned long reason_mask\);",
    r"int migrate_offload_unregister\(struct migrator \*m\);",
    r"void migrate_offload_copied\(struct migrate_offload_batch \*batch, "
    r"struct folio \*src, struct folio \*dst\);",
    r"void migrate_offload_lost\(struct migrate_offload_batch \*batch, "
    r"struct folio \*src, struct folio \*dst\);",
    r"void migrate_offload_release\(struct folio \*dst\);",
    r"#define MIGRATE_OFFLOAD_REASONS \(BIT\(MR_COMPACTION\) \| BIT\(MR_SYSCALL\) \| "
    r"BIT\(MR_NUMA_MISPLACED\) \| BIT\(MR_DEMOTION\)\)",
]
bad = 0
for w in want:
    if not re.search(w, s):
        print("migrate_copy_offload.h lacks: " + w)
        bad = 1
sys.exit(bad)
EOF

# dma-debug hears of an unmap before the address is freed: 6.12's
# dma_unmap_page_attrs(), 7.3's dma_unmap_phys() (which
# dma_unmap_page_attrs() and dma_unmap_resource() call)
awk '/^void dma_unmap_page_attrs\(/ { f = 1 }
     f && /debug_dma_unmap_page\(/ { d = NR }
     f && /iommu_dma_unmap_page\(/ { u = NR }
     f && /^}/ { exit !(d && u && d < u) }' "$tmp/6.12/linux-source-6.12/kernel/dma/mapping.c"
tap_result $? "6.12: the patched dma_unmap_page_attrs calls debug_dma_unmap_page before the unmap"
awk '/^void dma_unmap_phys\(/ { f = 1 }
     f && /debug_dma_unmap_phys\(/ { d = NR }
     f && /(iommu_dma_unmap_phys|dma_direct_unmap_phys)\(/ && !u { u = NR }
     f && /^}/ { exit !(d && u && d < u) }' "$tmp/7.3/linux-source-7.3/kernel/dma/mapping.c"
tap_result $? "7.3: the patched dma_unmap_phys calls debug_dma_unmap_phys before the unmap"

checkpatch_checks 7.3 strict "${p73[@]}"
checkpatch_checks 6.12 errors "${p612[@]}"

compile_checks 7.3 "${p73[@]}"
compile_checks 6.12 "${p612[@]}"

# v7.3-nobatch, the "before" kernel of the cache-sync comparison (the
# batched cache sync reverted: kernel/patches/README.rst): a series like
# the others, which applies to 7.3 alone and after the arm64 kernel's
# series (scripts/kernel/nobatch-kernel.sh puts it on that kernel)
series_checks v7.3-nobatch
mapfile -t pnb < <(series_patches v7.3-nobatch)
format_checks "${pnb[@]}"
checkpatch_checks 7.3 strict "${pnb[@]}"
apply_checks 7.3-nobatch 7.3 "${pnb[@]}"
apply_checks 7.3-arm64-nobatch 7.3 "${p73[@]}" "${pnb[@]}"

tap_end
