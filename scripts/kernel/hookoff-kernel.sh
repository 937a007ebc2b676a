#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The bench kernel with the page-migration copy-offload hook compiled out:
# the same source tree and configuration as the bench kernel of
# build-debug-kernel.sh --flavor bench, but CONFIG_MIGRATION_COPY_OFFLOAD=n,
# for scripts/bench-hook-off.sh. The four patches of the hook
# (kernel/patches/v7.3-migrate/) put all of their code under that option;
# the v7.3-mm fix that its series lists first does not, and stays.
#
# usage: scripts/kernel/hookoff-kernel.sh [BENCH_KERNEL_DIR]
#   BENCH_KERNEL_DIR  a complete bench kernel cache dir K (default: the one
#                     build-debug-kernel.sh --flavor bench returns, built
#                     if need be)
#
# It makes K-hookoff/ beside K, with K's layout (build-debug-kernel.sh's
# top): src/ hardlinked to K's (kbuild writes nothing into the source tree
# of an O= build; checked after the build), build/ a copy of K's, its .cmd
# and .d files' absolute source path rewritten to the new one so that make
# sees the same commands (else it would rebuild everything), the option
# switched off with scripts/config, olddefconfig, and an incremental
# `make bzImage modules` under nice: only what depends on the option
# rebuilds (mm/migrate.o, the users of mm/internal.h, the link), a few
# minutes. It checks that the two .config files differ in that one line
# and that the kernel release is K's (the same LOCALVERSION: the guest
# tells the two kernels apart by /sys/kernel/mm/migrate_copy_offload/).
# A stamp is written last; a complete K-hookoff/ is reused. The key of K
# names it, so a new bench kernel gets a new one.
# The last line on stdout is the absolute path of K-hookoff/.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
# shellcheck disable=SC2034 # lib.sh's say() prefixes its lines with it
SAY_AS=hookoff-kernel

readonly OPTION=MIGRATION_COPY_OFFLOAD

case ${1:-} in
-h|--help) sed -n '4,29p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
base=${1:-$("$DMA_BENCH_TOP/scripts/kernel/build-debug-kernel.sh" --flavor bench | tail -n 1)}
[ -d "$base" ] || die "no kernel cache dir $base"
base=$(cd "$base" && pwd -P)
for f in stamp bzImage release build/.config build/Module.symvers src/Makefile; do
	[ -e "$base/$f" ] || die "$base is not a complete kernel cache dir (no $f)"
done
grep -qx "CONFIG_$OPTION=y" "$base/build/.config" ||
	die "$base has no CONFIG_$OPTION=y: not a bench kernel with the hook"

out=$base-hookoff
complete() {
	[ -f "$out/stamp" ] && [ -f "$out/bzImage" ] && [ -s "$out/release" ] &&
		[ -f "$out/build/Module.symvers" ] && [ -d "$out/modules/lib/modules" ]
}
if complete; then
	echo "$out"
	exit 0
fi
# one builder at a time; a second waits, then finds the result
exec 9>"$(dirname "$base")/.$(basename "$base")-hookoff.lock"
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
say "deriving $out from $(basename "$base") ($release) with CONFIG_$OPTION=n"
cp -al "$base/src" "$out/src"
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
cc=(CC=gcc)
if grep -q '^savedcmd_init/main.o := ccache ' "$out/build/init/.main.o.cmd"; then
	command -v ccache >/dev/null || die "$base was built with ccache, which is not installed"
	export CCACHE_DIR=$DMA_BENCH_CACHE/ccache CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
	cc=(CC="ccache gcc")
fi
kmake() {
	printf '\n### make %s\n' "$*" >> "$log"
	nice make -C "$out/src" O="$out/build" ARCH=x86_64 "${cc[@]}" "$@" >> "$log" 2>&1 ||
		{ tail -n 30 "$log" >&2; die "make $* failed"; }
}

"$out/src/scripts/config" --file "$out/build/.config" -d "$OPTION"
kmake olddefconfig
grep -qx "# CONFIG_$OPTION is not set" "$out/build/.config" ||
	die "CONFIG_$OPTION is not off after olddefconfig"
# the one difference: that line (nothing in Kconfig depends on the option)
diffs=$(diff "$base/build/.config" "$out/build/.config" | grep '^[<>]' || true)
want=$(printf '< CONFIG_%s=y\n> # CONFIG_%s is not set' "$OPTION" "$OPTION")
[ "$diffs" = "$want" ] ||
	die "the .config files differ in more than CONFIG_$OPTION:"$'\n'"$diffs"
say "the .config differs from $(basename "$base")'s in CONFIG_$OPTION only"

# kbuild must write nothing into the (hardlinked) source tree
marker=$out/.before-build
touch "$marker"
sleep 1
say "building bzImage and modules (incremental, nice; the log: $log)"
kmake -j"$(nproc)" bzImage modules
objects=$(grep -cE '^  (CC|AS|LD|AR)( \[M\])? ' "$log" || true)
kmake modules_install INSTALL_MOD_PATH="$out/modules"
make -s -C "$out/src" O="$out/build" ARCH=x86_64 "${cc[@]}" kernelrelease > "$out/release"
[ "$(cat "$out/release")" = "$release" ] ||
	die "kernel release $(cat "$out/release"), not $release"
changed=$(find "$out/src" -newer "$marker" -print -quit)
[ -z "$changed" ] || die "the build wrote into the source tree ($changed), which is $base's too"
rm -f "$marker"
# the hook is gone: its registration is in the bench kernel's symbols only
grep -qw migrate_offload_register "$base/build/System.map" ||
	die "$base's System.map has no migrate_offload_register"
! grep -qw migrate_offload_register "$out/build/System.map" ||
	die "migrate_offload_register is still in $out's System.map"
cp "$out/build/arch/x86/boot/bzImage" "$out/bzImage"
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
	echo "config=CONFIG_$OPTION off, else the base's"
	echo "objects_built=$objects"
	echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "build_seconds=$((SECONDS - t0))"
} > "$out/stamp.tmp"
cp "$log" "$out/build.log"
mv "$out/stamp.tmp" "$out/stamp"
rm -f "$log"
say "done in $((SECONDS - t0)) s: $objects objects built"
echo "$out"
