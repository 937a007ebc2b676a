#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the kernel's Xilinx ZynqMP DMA driver (GDMA/ADMA, "ZDMA"),
# drivers/dma/xilinx/zynqmp_dma.c, as an out-of-tree module for a kernel
# that does not enable it (Debian's arm64 kernels: CONFIG_XILINX_ZYNQMP_DMA
# is not set).
#
# usage: build-zynqmp-dma.sh KDIR SRCDIR OUTDIR
#   KDIR    the kernel build tree to build against
#   SRCDIR  a Linux source tree of the same version as KDIR with
#           drivers/dma/xilinx/zynqmp_dma.c and drivers/dma/dmaengine.h
#           (the driver's one private header); it is only read
#   OUTDIR  receives zynqmp_dma.ko
# ARCH, CROSS_COMPILE and MAKE are honoured.
set -euo pipefail

die() {
	echo "build-zynqmp-dma: $*" >&2
	exit 1
}

[ $# -eq 3 ] || die "usage: $0 KDIR SRCDIR OUTDIR"
kdir=$1
srcdir=$2
outdir=$3
make=${MAKE:-make}
src=$srcdir/drivers/dma/xilinx/zynqmp_dma.c

[ -f "$kdir/Makefile" ] || die "$kdir is not a kernel build tree"
[ -f "$src" ] || die "$src does not exist"
[ -f "$srcdir/drivers/dma/dmaengine.h" ] || die "$srcdir/drivers/dma/dmaengine.h does not exist"

# Only "../dmaengine.h" may come from the source tree.
others=$(grep '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$src" |
	 grep -v '"\.\./dmaengine\.h"' || true)
[ -z "$others" ] || die "$src includes private headers: $others"

# A kernel that has the driver already must not get a second one.
if grep -q '^CONFIG_XILINX_ZYNQMP_DMA=[ym]' "$kdir/.config" 2>/dev/null; then
	die "$kdir has the driver already (CONFIG_XILINX_ZYNQMP_DMA)"
fi

release=$(cat "$kdir/include/config/kernel.release" 2>/dev/null || true)
if [ -f "$srcdir/Makefile" ] && [ -n "$release" ]; then
	srcver=$(sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p' "$srcdir/Makefile" |
		 paste -sd.)
	case $release in
	"$srcver".*|"$srcver"-*|"$srcver") ;;
	*) echo "build-zynqmp-dma: warning: $srcdir is $srcver, $kdir is $release" >&2 ;;
	esac
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/build-zynqmp-dma.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# the driver's layout: xilinx/zynqmp_dma.c next to ../dmaengine.h
mkdir -p "$tmp/xilinx"
cp "$src" "$tmp/xilinx/zynqmp_dma.c"
cp "$srcdir/drivers/dma/dmaengine.h" "$tmp/dmaengine.h"
echo 'obj-m := zynqmp_dma.o' > "$tmp/xilinx/Kbuild"

if ! $make -C "$kdir" M="$tmp/xilinx" ${ARCH:+ARCH=$ARCH} \
	${CROSS_COMPILE:+CROSS_COMPILE=$CROSS_COMPILE} modules \
	>"$tmp/build.log" 2>&1; then
	cat "$tmp/build.log" >&2
	die "building $src against $kdir failed"
fi
grep -E 'warning:|error:' "$tmp/build.log" >&2 || true

mkdir -p "$outdir"
cp "$tmp/xilinx/zynqmp_dma.ko" "$outdir/zynqmp_dma.ko"
echo "$outdir/zynqmp_dma.ko"
