#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Cross-build, for the arm64 7.3 guest (busybox-static: static binaries),
# the kernel's own mm selftests that move pages between nodes:
# tools/testing/selftests/mm/migration.c and rmap.c of the kernel's
# source tree, unchanged, and print the directory that holds them
# (migration, rmap) as the last line on stdout.
#
# They need libnuma: its source comes from Debian 12's numactl source
# package (the project's apt sources, scripts/apt/sources-qemu.list,
# deb-src only: nothing is installed), with Debian's patches, compiled
# into a static libnuma.a with the cross compiler (the library's six
# files; config.h as its configure would write it for gcc 12). The
# kernel's uapi headers are the tree's own (make headers). All
# of it is kept in the cache, $DMA_BENCH_CACHE/mm-selftests/KEY/, KEY a
# hash of this script, the source package's .dsc, the kernel tree and
# the compiler: a second call prints the same directory at once.
#
# usage: scripts/build-mm-selftests.sh [KERNEL_DIR]
#   KERNEL_DIR  a kernel cache directory of scripts/kernel/build-debug-kernel.sh
#               (default: its --arch arm64 one, built when missing)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
# shellcheck disable=SC2034 # lib.sh's say() prefixes its lines with it
SAY_AS=mm-selftests

cc=aarch64-linux-gnu-gcc
command -v "$cc" >/dev/null || die "$cc is not installed: scripts/setup.sh installs it"
kdir=${1:-$("$DMA_BENCH_TOP/scripts/kernel/build-debug-kernel.sh" --arch arm64 | tail -n 1)}
ksrc=$kdir/src
sel=$ksrc/tools/testing/selftests/mm
for f in migration.c rmap.c vm_util.c hugepage_settings.c; do
	[ -f "$sel/$f" ] || die "no $f in $sel"
done

export PROJECT_APT_LIST=sources-qemu.list
dsc=$(project_apt apt-cache showsrc numactl 2>/dev/null |
	awk '/^Checksums-Sha256:/ { s = 1; next } /^[^ ]/ { s = 0 }
	     s && $3 ~ /\.dsc$/ { print $1, $3; exit }')
[ -n "$dsc" ] || die "no numactl source package in scripts/apt/sources-qemu.list"
key=$({ cat "$0"; echo "$dsc"; basename "$kdir"; cat "$kdir/stamp" 2>/dev/null
	"$cc" --version | head -n 1; } | sha256sum | cut -c 1-16)
out=$DMA_BENCH_CACHE/mm-selftests/$key
if [ -x "$out/migration" ] && [ -x "$out/rmap" ]; then
	echo "$out"
	exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mm-selftests.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
say "numactl's source (${dsc#* }) for a static libnuma"
(cd "$tmp" && project_apt apt-get source --download-only -qq numactl) \
	>"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; die "apt-get source numactl failed"; }
orig=$(ls "$tmp"/numactl_*.orig.tar.* | head -n 1)
tar -xf "$orig" -C "$tmp"
src=$(ls -d "$tmp"/numactl-*/ | head -n 1)
deb=$(ls "$tmp"/numactl_*.debian.tar.* 2>/dev/null | head -n 1)
if [ -n "$deb" ]; then
	tar -xf "$deb" -C "$src"
	if [ -f "$src/debian/patches/series" ]; then
		grep -v '^#' "$src/debian/patches/series" | while read -r p _; do
			[ -z "$p" ] || patch -s -p1 -d "$src" < "$src/debian/patches/$p"
		done
	fi
fi
# what configure writes there for gcc 12 (AX_TLS, the symver attribute)
printf '#define TLS __thread\n#define HAVE_ATTRIBUTE_SYMVER 1\n' > "$src/config.h"
lib=$tmp/libnuma
mkdir -p "$lib"
for f in libnuma syscall distance affinity sysfs rtnetlink; do
	"$cc" -O2 -g0 -Wall -D_GNU_SOURCE -I"$src" -c "$src/$f.c" -o "$lib/$f.o"
done
aarch64-linux-gnu-ar rcs "$lib/libnuma.a" "$lib"/*.o
mkdir -p "$lib/include"
cp "$src/numa.h" "$src/numaif.h" "$src/numacompat1.h" "$lib/include/"

say "the 7.3 tree's uapi headers"
make -s -C "$ksrc" O="$tmp/hdr" ARCH=arm64 headers >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log" >&2; die "make headers failed"; }

say "migration and rmap (static, arm64)"
mkdir -p "$tmp/out"
for t in migration rmap; do
	"$cc" -static -Wall -O2 -U_FORTIFY_SOURCE -D_GNU_SOURCE \
		-I"$ksrc/tools/testing/selftests" -isystem "$tmp/hdr/usr/include" \
		-I"$lib/include" -I"$ksrc/tools/include" \
		-o "$tmp/out/$t" "$sel/$t.c" "$sel/vm_util.c" \
		"$sel/hugepage_settings.c" "$lib/libnuma.a" -lrt -lpthread -lm \
		>"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; die "$t did not build"; }
done
cp "$lib/libnuma.a" "$tmp/out/"
echo "numactl ${dsc#* }, $(basename "$kdir"), $("$cc" --version | head -n 1)" > "$tmp/out/SOURCE"
mkdir -p "$(dirname "$out")"
rm -rf "$out.tmp"
mv "$tmp/out" "$out.tmp"
mv "$out.tmp" "$out"
echo "$out"
