#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build upstream's own map benchmark tools, unchanged and static, from
# Debian's linux-source trees (linux_source_dir), each against the ABI
# header of its own series, for the guest to run against the module:
#
#   OUTDIR/upstream_dma_map_benchmark       Linux 6.12's
#       tools/testing/selftests/dma/dma_map_benchmark.c, with
#       include/linux/map_benchmark.h
#   OUTDIR/upstream_7.3_dma_map_benchmark   Linux 7.3's
#       tools/dma/dma_map_benchmark.c (the sg series' tool, merged), with
#       include/uapi/linux/map_benchmark.h
#
# Both include <linux/map_benchmark.h>: the header is laid out as
# linux/map_benchmark.h in a directory of its own (7.3's tools/dma/Makefile
# does the same with a link), which -I names; the flags are 7.3's
# Makefile's. A missing source file is an error.
#
# usage: build-upstream-tools.sh CC OUTDIR   (CC: e.g. gcc, aarch64-linux-gnu-gcc)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -eq 2 ] || die "usage: $0 CC OUTDIR"
cc=$1
out=$2
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# build NAME SERIES HEADER TOOL: OUTDIR/NAME from SERIES' TOOL with its
# HEADER as <linux/map_benchmark.h> (paths in that series' source)
build() {
	local name=$1 src f
	src=$(linux_source_dir "$2")
	for f in "$3" "$4"; do
		[ -f "$src/$f" ] || die "Linux $2's $f is missing (in $src)"
	done
	mkdir -p "$tmp/$name/linux"
	cp "$src/$3" "$tmp/$name/linux/map_benchmark.h"
	# shellcheck disable=SC2086
	$cc -static -O2 -Wall -g -D_GNU_SOURCE -I"$tmp/$name" -o "$out/$name" "$src/$4" ||
		die "Linux $2's $4 does not build with $cc"
}

build upstream_dma_map_benchmark 6.12 include/linux/map_benchmark.h \
	tools/testing/selftests/dma/dma_map_benchmark.c
build upstream_7.3_dma_map_benchmark 7.3 include/uapi/linux/map_benchmark.h \
	tools/dma/dma_map_benchmark.c
