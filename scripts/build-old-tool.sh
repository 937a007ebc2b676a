#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the project's tool as it was at an earlier commit, unchanged and
# static, against that commit's uapi header: the guest's ABI suite
# (tools/testing/guest/abi.sh) runs it against this tree's module, which
# must answer it as the module of its own time did.
#
#   OUTFILE, e.g. the guest's bin/dma_map_benchmark_ver1
#
# The sources come from git (git archive COMMIT tools/dma uapi); the
# binary is kept in $DMA_BENCH_BUILD/old-tool/ by commit and compiler, and
# built once.
#
# usage: build-old-tool.sh COMMIT CC OUTFILE   (CC: e.g. gcc)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -eq 3 ] || die "usage: $0 COMMIT CC OUTFILE"
commit=$1
cc=$2
out=$3
cache=$DMA_BENCH_BUILD/old-tool/$commit-$(basename "$cc")
if [ ! -x "$cache/dma_map_benchmark" ]; then
	have_commit "$commit" ||
		die "commit $commit is not in $DMA_BENCH_TOP's history (a shallow clone: git fetch --unshallow)"
	rm -rf "$cache.tmp"
	mkdir -p "$cache.tmp"
	git -C "$DMA_BENCH_TOP" archive "$commit" tools/dma uapi |
		tar -x -C "$cache.tmp"
	make -s -C "$cache.tmp/tools/dma" STATIC=1 CC="$cc" VERSION="$commit" >&2 ||
		die "the tool of $commit does not build with $cc"
	rm -rf "$cache"
	mkdir -p "$cache"
	cp "$cache.tmp/tools/dma/dma_map_benchmark" "$cache/"
	rm -rf "$cache.tmp"
fi
mkdir -p "$(dirname "$out")"
cp "$cache/dma_map_benchmark" "$out"
