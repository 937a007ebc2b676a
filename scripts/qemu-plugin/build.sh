#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the cache-maintenance counter, a QEMU TCG plugin
# (scripts/qemu-plugin/dcount.c), for the machine's QEMU, and print the
# path of dcount.so as the last line on stdout.
#
# The plugin API header, include/qemu/qemu-plugin.h, is not in any of
# Debian 12's binary packages: it comes from the source package of the
# qemu-system-arm installed (its version, without a binNMU suffix),
# downloaded once with the project's apt sources
# (scripts/apt/sources-qemu.list, deb-src only) into the cache. Nothing
# is installed. A version the sources no longer have falls back to the
# newest 7.2 they do, with a line saying so: the API is version 1 in every
# 7.2.
#
# usage: scripts/qemu-plugin/build.sh
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
# shellcheck disable=SC2034 # lib.sh's say() prefixes its lines with it
SAY_AS=qemu-plugin

src=$DMA_BENCH_TOP/scripts/qemu-plugin/dcount.c
ver=$(dpkg-query -W -f='${Version}' qemu-system-arm 2>/dev/null) ||
	die "qemu-system-arm is not installed: scripts/setup.sh installs it"
[ -n "$ver" ] || die "qemu-system-arm is not installed: scripts/setup.sh installs it"
srcver=${ver%+b[0-9]*}
case $srcver in
*:7.2+*) ;;
*) die "qemu-system-arm $ver: the counter is written for QEMU 7.2's plugin API" ;;
esac
hdir=$DMA_BENCH_CACHE/qemu-plugin/qemu-${srcver#*:}
header=$hdir/qemu-plugin.h
if [ ! -f "$header" ]; then
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/dcount-src.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	export PROJECT_APT_LIST=sources-qemu.list
	if ! (cd "$tmp" && project_apt apt-get source --download-only -qq "qemu=$srcver") \
		>"$tmp/log" 2>&1; then
		newest=$(project_apt apt-cache showsrc qemu 2>/dev/null |
			sed -n 's/^Version: //p' | grep -F ':7.2+' | sort -V | tail -n 1)
		[ -n "$newest" ] || { cat "$tmp/log" >&2; die "no qemu 7.2 source package in scripts/apt/sources-qemu.list"; }
		say "qemu $srcver's source is gone from the archive; taking $newest's header"
		(cd "$tmp" && project_apt apt-get source --download-only -qq "qemu=$newest") \
			>"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; die "apt-get source qemu=$newest failed"; }
	fi
	orig=$(ls "$tmp"/qemu_*.orig.tar.* 2>/dev/null | head -n 1)
	[ -n "$orig" ] || die "the qemu source package has no orig tarball"
	tar -xf "$orig" -C "$tmp" --wildcards '*/include/qemu/qemu-plugin.h' ||
		die "no include/qemu/qemu-plugin.h in $orig"
	mkdir -p "$hdir"
	cp "$tmp"/*/include/qemu/qemu-plugin.h "$header.tmp"
	mv "$header.tmp" "$header"
fi
grep -q '^#define QEMU_PLUGIN_VERSION 1$' "$header" ||
	die "$header is not plugin API version 1 (QEMU 7.2's)"

out=$DMA_BENCH_BUILD/qemu-plugin
mkdir -p "$out"
so=$out/dcount.so
if [ ! -f "$so" ] || [ "$src" -nt "$so" ] || [ "$header" -nt "$so" ]; then
	gcc -std=gnu11 -O2 -Wall -Wextra -Werror -fPIC -shared -I"$hdir" \
		-o "$so.tmp" "$src" -lpthread
	mv "$so.tmp" "$so"
fi
echo "$so"
