#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The "before" kernel of the cache-sync comparison (scripts/bench-cachesync.sh):
# the arm64 debug kernel of build-debug-kernel.sh --arch arm64, the same
# source tree and configuration, with kernel/patches/v7.3-nobatch/ applied
# on top: Barry Song's "dma-mapping: arm64: support batched cache sync"
# reverted, so that every buffer's cache maintenance waits for its own
# dsb sy again.
#
# usage: scripts/kernel/nobatch-kernel.sh [BASE_KERNEL_DIR]
#   BASE_KERNEL_DIR  a complete arm64 kernel cache dir K (default: the one
#                    build-debug-kernel.sh --arch arm64 returns, built if
#                    need be)
#
# It makes K-nobatch-H/ beside K (H: a hash of the series and of this
# script), with K's layout (build-debug-kernel.sh's top): src/ hardlinked
# to K's but for the files the series changes, which are copies; build/ a
# copy of K's, its .cmd and .d files' absolute source path rewritten to
# the new one; the series applied with patch -F0; olddefconfig (the
# .config may differ from K's in CONFIG_ARCH_HAS_BATCHED_DMA_SYNC only);
# an incremental `make Image modules` under nice. The series changes
# asm/cache.h, which nearly every object includes: about as long as K's
# own build. It checks that the release is K's, that the series took
# (K's System.map has dcache_clean_poc_nosync, the new one has not) and
# that kbuild wrote nothing into the shared source tree. The test command
# never builds it: only the benchmark does. A stamp is written last; a
# complete directory is reused.
# The last line on stdout is the absolute path of K-nobatch-H/.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
# shellcheck disable=SC2034 # lib.sh's say() prefixes its lines with it
SAY_AS=nobatch-kernel

series_dir=$DMA_BENCH_TOP/kernel/patches/v$KERNEL_SERIES-nobatch
cross=aarch64-linux-gnu-

case ${1:-} in
-h|--help) sed -n '4,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
base=${1:-$("$DMA_BENCH_TOP/scripts/kernel/build-debug-kernel.sh" --arch arm64 | tail -n 1)}
[ -d "$base" ] || die "no kernel cache dir $base"
base=$(cd "$base" && pwd -P)
for f in stamp Image release build/.config build/Module.symvers build/System.map src/Makefile; do
	[ -e "$base/$f" ] || die "$base is not a complete arm64 kernel cache dir (no $f)"
done
grep -qx 'CONFIG_ARCH_HAS_BATCHED_DMA_SYNC=y' "$base/build/.config" ||
	die "$base has no CONFIG_ARCH_HAS_BATCHED_DMA_SYNC=y: not an arm64 kernel with the batched cache sync"

patches=()
while IFS= read -r line; do
	line=${line%%#*}
	line=${line//[[:space:]]/}
	[ -n "$line" ] || continue
	[ -f "$series_dir/$line" ] || die "$series_dir/series lists $line, which is not there"
	patches+=("$series_dir/$line")
done < "$series_dir/series"
[ ${#patches[@]} -gt 0 ] || die "$series_dir/series lists no patch"
hash=$({ sha256sum < "$0"; for p in "${patches[@]}"; do
	sed -n '/^diff --git /,$p' "$p" | sha256sum; done; } | sha256sum | cut -c1-8)
out=$base-nobatch-$hash

complete() {
	[ -f "$out/stamp" ] && [ -f "$out/Image" ] && [ -s "$out/release" ] &&
		[ -f "$out/build/Module.symvers" ] && [ -d "$out/modules/lib/modules" ]
}
if complete; then
	echo "$out"
	exit 0
fi
# one builder at a time; a second waits, then finds the result
exec 9>"$(dirname "$base")/.$(basename "$out").lock"
if ! flock -n 9; then
	say "another build of $out is running; waiting for it"
	flock 9
fi
if complete; then
	echo "$out"
	exit 0
fi

t0=$SECONDS
release=$(cat "$base/release")
log=$out.log
rm -rf "$out"
on_exit() {
	[ "$1" = 0 ] || { say "failed; the log: $log"; rm -rf "$out"; }
}
trap 'on_exit $?' EXIT
mkdir -p "$out"
: > "$log"
say "deriving $out from $(basename "$base") ($release) with kernel/patches/$(basename "$series_dir")"
cp -al "$base/src" "$out/src"
# the files the series changes: copies of their own, not K's
while IFS= read -r f; do
	[ -f "$out/src/$f" ] || die "the series changes $f, which $base's source lacks"
	cp --remove-destination "$base/src/$f" "$out/src/$f"
done < <(sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "${patches[@]}" | sort -u)
for p in "${patches[@]}"; do
	say "    $(basename "$p")"
	patch -d "$out/src" -p1 -F0 -N -s --no-backup-if-mismatch < "$p" >> "$log" 2>&1 ||
		die "$(basename "$p") does not apply to $base's source"
done
cp -a "$base/build" "$out/build"

# The absolute path of the source tree K was built in (build-debug-kernel.sh
# builds in a scratch tree, then renames it): in every command kbuild saved.
old=$(grep -o -- '-fmacro-prefix-map=[^ ]*/=' "$base/build/init/.main.o.cmd" |
	sed 's/^-fmacro-prefix-map=//; s|/=$||')
[ -n "$old" ] || die "cannot tell the source path $base was built in"
new=$out/src
say "rewriting $old to $new in build/'s .cmd and .d files"
python3 - "$out/build" "$old" "$new" <<'PY'
import os, sys
top, old, new = sys.argv[1], sys.argv[2].encode(), sys.argv[3].encode()
n = 0
for d, _, files in os.walk(top):
    for f in files:
        if not (f.endswith(".cmd") or f.endswith(".d")):
            continue
        p = os.path.join(d, f)
        if os.path.islink(p):
            continue
        with open(p, "rb") as fh:
            data = fh.read()
        if old not in data:
            continue
        st = os.stat(p)
        with open(p, "wb") as fh:
            fh.write(data.replace(old, new))
        os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))	# as before
        n += 1
print(f"{n} files rewritten", file=sys.stderr)
PY

# As build-debug-kernel.sh runs make: the same compiler command (ccache
# gcc: another would change every saved command), environment and cache.
unset ARCH CROSS_COMPILE O KBUILD_OUTPUT KBUILD_EXTMOD M KCONFIG_CONFIG \
	LOCALVERSION MAKEFLAGS MFLAGS MAKELEVEL CC LD KCFLAGS KCPPFLAGS \
	INSTALL_MOD_PATH INSTALL_MOD_STRIP
export LC_ALL=C KBUILD_BUILD_USER=dma-bench KBUILD_BUILD_HOST=dma-bench
cc=(CC="${cross}gcc")
if grep -q "^savedcmd_init/main.o := ccache " "$base/build/init/.main.o.cmd"; then
	command -v ccache >/dev/null || die "$base was built with ccache, which is not installed"
	export CCACHE_DIR=$DMA_BENCH_CACHE/ccache CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
	cc=(CC="ccache ${cross}gcc")
fi
kmake() {
	printf '\n### make %s\n' "$*" >> "$log"
	nice make -C "$out/src" O="$out/build" ARCH=arm64 CROSS_COMPILE="$cross" \
		"${cc[@]}" "$@" >> "$log" 2>&1 ||
		{ tail -n 30 "$log" >&2; die "make $* failed"; }
}

kmake olddefconfig
diffs=$(diff "$base/build/.config" "$out/build/.config" | grep '^[<>]' || true)
[ "$diffs" = "< CONFIG_ARCH_HAS_BATCHED_DMA_SYNC=y" ] ||
	die "the .config differs from $(basename "$base")'s in more than CONFIG_ARCH_HAS_BATCHED_DMA_SYNC:"$'\n'"$diffs"
say "the .config differs from $(basename "$base")'s in CONFIG_ARCH_HAS_BATCHED_DMA_SYNC only"

# kbuild must write nothing into the (hardlinked) source tree
marker=$out/.before-build
touch "$marker"
sleep 1
say "building Image and modules (nice; the log: $log); most objects include asm/cache.h"
kmake -j"$(nproc)" Image modules
objects=$(grep -cE '^  (CC|AS|LD|AR)( \[M\])? ' "$log" || true)
kmake modules_install INSTALL_MOD_PATH="$out/modules"
make -s -C "$out/src" O="$out/build" ARCH=arm64 CROSS_COMPILE="$cross" "${cc[@]}" \
	kernelrelease > "$out/release"
[ "$(cat "$out/release")" = "$release" ] ||
	die "kernel release $(cat "$out/release"), not $release"
changed=$(find "$out/src" -newer "$marker" -print -quit)
[ -z "$changed" ] || die "the build wrote into the source tree ($changed), which is $base's too"
rm -f "$marker"
# the series took: the _nosync helpers are in K's symbols only
grep -qw dcache_clean_poc_nosync "$base/build/System.map" ||
	die "$base's System.map has no dcache_clean_poc_nosync"
! grep -qw dcache_clean_poc_nosync "$out/build/System.map" ||
	die "dcache_clean_poc_nosync is still in $out's System.map"
cp "$out/build/arch/arm64/boot/Image" "$out/Image"
cp -a "$base/dtbs" "$out/dtbs"
# kbuild rewrote build/Makefile and build/source with absolute paths: the
# layout's relative ones again
cp "$base/build/Makefile" "$out/build/Makefile"
ln -sfn ../src "$out/build/source"
for rel in "$out"/modules/lib/modules/*; do
	[[ -e $rel/build || -L $rel/build ]] && ln -sfn ../../../../build "$rel/build"
done

{
	echo "base=$base"
	echo "base_key=$(basename "$base")"
	echo "release=$release"
	echo "patches=kernel/patches/$(basename "$series_dir") (${#patches[@]})"
	echo "objects_built=$objects"
	echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "build_seconds=$((SECONDS - t0))"
} > "$out/stamp.tmp"
cp "$log" "$out/build.log"
mv "$out/stamp.tmp" "$out/stamp"
rm -f "$log"
say "done in $((SECONDS - t0)) s: $objects objects built"
echo "$out"
