#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the kernel's own DMA engine test, drivers/dma/dmatest.c, as an
# out-of-tree module for a kernel tree that does not ship it (Debian does
# not build CONFIG_DMATEST).
#
# usage: build-dmatest.sh KDIR SRCDIR OUTDIR
#   KDIR    the kernel build tree to build against
#   SRCDIR  a Linux source tree with drivers/dma/dmatest.c, of the same
#           version as KDIR; it is only read
#   OUTDIR  receives dmatest.ko
# ARCH, CROSS_COMPILE and MAKE are honoured.
set -euo pipefail

die() {
	echo "build-dmatest: $*" >&2
	exit 1
}

[ $# -eq 3 ] || die "usage: $0 KDIR SRCDIR OUTDIR"
kdir=$1
srcdir=$2
outdir=$3
make=${MAKE:-make}
src=$srcdir/drivers/dma/dmatest.c

[ -f "$kdir/Makefile" ] || die "$kdir is not a kernel build tree"
[ -f "$src" ] || die "$src does not exist"

# dmatest.c must build from public headers alone: a private include
# ("dmaengine.h", "virt-dma.h") would need more of the source tree.
if grep -q '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$src"; then
	die "$src includes private headers: $(grep '#[[:space:]]*include[[:space:]]*"' "$src" | tr '\n' ' ')"
fi

# The source should be the kernel's own version; warn when the major and
# minor versions differ (the module is built against KDIR regardless).
release=$(cat "$kdir/include/config/kernel.release" 2>/dev/null || true)
if [ -f "$srcdir/Makefile" ] && [ -n "$release" ]; then
	srcver=$(sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p' "$srcdir/Makefile" |
		 paste -sd.)
	case $release in
	"$srcver".*|"$srcver"-*|"$srcver") ;;
	*) echo "build-dmatest: warning: $srcdir is $srcver, $kdir is $release" >&2 ;;
	esac
fi

# A kernel that already has dmatest built in must not get a second one.
if grep -q '^CONFIG_DMATEST=y' "$kdir/.config" 2>/dev/null; then
	die "$kdir has dmatest built in (CONFIG_DMATEST=y)"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/build-dmatest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

cp "$src" "$tmp/dmatest.c"
echo 'obj-m := dmatest.o' > "$tmp/Kbuild"

if ! $make -C "$kdir" M="$tmp" ${ARCH:+ARCH=$ARCH} \
	${CROSS_COMPILE:+CROSS_COMPILE=$CROSS_COMPILE} modules \
	>"$tmp/build.log" 2>&1; then
	cat "$tmp/build.log" >&2
	die "building $src against $kdir failed"
fi
grep -E 'warning:|error:' "$tmp/build.log" >&2 || true

mkdir -p "$outdir"
cp "$tmp/dmatest.ko" "$outdir/dmatest.ko"
echo "$outdir/dmatest.ko"
