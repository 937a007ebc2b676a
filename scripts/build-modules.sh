#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the project's modules for one kernel tree in a directory of their
# own, so that builds for several kernels (stock, debug, arm) never share
# objects with each other or with the checkout.
#
# usage: build-modules.sh KDIR OUTDIR   (ARCH, CROSS_COMPILE honoured)
# Leaves OUTDIR/*.ko and OUTDIR/probes.h.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kdir=$1
out=$2
[ -f "$kdir/Makefile" ] || die "$kdir is not a kernel build tree"
# .ko files need the symbols of a built kernel (`make KDIR=` alone compiles
# the modules against a tree that is only prepared)
[ -f "$kdir/Module.symvers" ] ||
	die "$kdir has no Module.symvers: it was prepared, never built; build the kernel in it first"

src=$out/src
mkdir -p "$src"
# Copy only what changed, keeping timestamps: incremental rebuilds.
for p in Kbuild Makefile kernel uapi scripts/kbuild-probes.sh scripts/lib.sh; do
	mkdir -p "$src/$(dirname "$p")"
	cp -a -u "$DMA_BENCH_TOP/$p" "$src/$(dirname "$p")/"
done
# Sources and Kbuild files deleted or moved in the checkout must not
# linger in the copy.
(cd "$src/kernel" && find . \( -name '*.[ch]' -o -name Kbuild \) ! -path './generated/*') |
while read -r f; do
	[ -e "$DMA_BENCH_TOP/kernel/$f" ] || rm -f "$src/kernel/$f"
done

make -s -C "$src" KDIR="$kdir" modules >"$out/build.log" 2>&1 ||
	{ cat "$out/build.log" >&2; die "module build failed for $kdir"; }
grep -E 'warning|error' "$out/build.log" >&2 || true

# the modules of this build (modules.order: .o from 6.3, .ko before), not
# a stale one left by a module that moved
sed 's/\.o$/.ko/' "$src/modules.order" | while read -r ko; do
	case $ko in /*) ;; *) ko=$src/$ko ;; esac
	cp "$ko" "$out/"
done
cp "$src/kernel/generated/probes.h" "$out/probes.h"
