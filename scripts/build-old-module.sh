#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the benchmark module (dma_map_benchmark.ko) as it was at an
# earlier commit, unchanged, for one kernel tree: the guest's ABI suite
# (tools/testing/guest/abi.sh) runs this tree's tool against it, which must
# read a module of the older layout. The sources come from git (git archive
# COMMIT), built by that commit's own scripts/build-modules.sh in OUTDIR
# (incremental: its objects stay there).
#
# usage: build-old-module.sh COMMIT KDIR OUTDIR   (ARCH, CROSS_COMPILE honoured)
# Leaves OUTDIR/dma_map_benchmark.ko.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -eq 3 ] || die "usage: $0 COMMIT KDIR OUTDIR"
commit=$1
kdir=$2
out=$3
have_commit "$commit" ||
	die "commit $commit is not in $DMA_BENCH_TOP's history (a shallow clone: git fetch --unshallow)"
tree=$out/tree-$commit
if [ ! -f "$tree/.done" ]; then
	rm -rf "$tree"
	mkdir -p "$tree"
	git -C "$DMA_BENCH_TOP" archive "$commit" Kbuild Makefile kernel uapi scripts |
		tar -x -C "$tree"
	touch "$tree/.done"
fi
DMA_BENCH_BUILD=$out "$tree/scripts/build-modules.sh" "$kdir" "$out/build" >&2
cp "$out/build/dma_map_benchmark.ko" "$out/dma_map_benchmark.ko"
