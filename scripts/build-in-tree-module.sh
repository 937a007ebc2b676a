#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build one in-tree kernel module, from a Linux source tree, out of tree
# against a kernel build tree whose configuration does not enable it
# (Debian does not build dmatest, nor on arm64 the ZynqMP DMA driver).
#
# usage: build-in-tree-module.sh KDIR SRCDIR OUTDIR SOURCE CONFIG [HEADER...]
#   KDIR    the kernel build tree to build against
#   SRCDIR  a Linux source tree of the same version as KDIR; only read
#   OUTDIR  receives the module (its path is printed on stdout)
#   SOURCE  the module's one C file, relative to SRCDIR
#           (drivers/dma/dmatest.c)
#   CONFIG  its Kconfig symbol (CONFIG_DMATEST); a KDIR that has it set
#           already must not get a second copy
#   HEADER  private headers the source includes, relative to SRCDIR
#           (drivers/dma/dmaengine.h); any other "..." include is refused
# ARCH, CROSS_COMPILE and MAKE are honoured.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

name=$(basename "${4:-module}" .c)
SAY_AS=build-$name

[ $# -ge 5 ] || die "usage: $0 KDIR SRCDIR OUTDIR SOURCE CONFIG [HEADER...]"
kdir=$1
srcdir=$2
outdir=$3
rel=$4
config=$5
shift 5
make=${MAKE:-make}
src=$srcdir/$rel

[ -f "$kdir/Makefile" ] || die "$kdir is not a kernel build tree"
[ -f "$src" ] || die "$src does not exist"
for header in "$@"; do
	[ -f "$srcdir/$header" ] || die "$srcdir/$header does not exist"
done

# Every private include must be one of the headers given: anything more
# would need more of the source tree than is copied.
while read -r inc; do
	[ -n "$inc" ] || continue
	resolved=$(realpath -m --relative-to="$srcdir" "$(dirname "$src")/$inc")
	case " $* " in
	*" $resolved "*) ;;
	*) die "$src includes a private header that is not given: \"$inc\"" ;;
	esac
done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$src")

if grep -q "^$config=[ym]" "$kdir/.config" 2>/dev/null; then
	die "$kdir has $config set already"
fi

# The source should be the kernel's own version; warn when the major and
# minor versions differ (the module is built against KDIR regardless).
release=$(cat "$kdir/include/config/kernel.release" 2>/dev/null || true)
if [ -f "$srcdir/Makefile" ] && [ -n "$release" ]; then
	srcver=$(sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p' "$srcdir/Makefile" |
		 paste -sd.)
	case $release in
	"$srcver".*|"$srcver"-*|"$srcver") ;;
	*) say "warning: $srcdir is $srcver, $kdir is $release" ;;
	esac
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/build-$name.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# the source tree's layout, so that relative includes resolve
for file in "$rel" "$@"; do
	mkdir -p "$tmp/$(dirname "$file")"
	cp "$srcdir/$file" "$tmp/$file"
done
mdir=$tmp/$(dirname "$rel")
echo "obj-m := $name.o" > "$mdir/Kbuild"

if ! $make -C "$kdir" M="$mdir" ${ARCH:+ARCH=$ARCH} \
	${CROSS_COMPILE:+CROSS_COMPILE=$CROSS_COMPILE} modules \
	>"$tmp/build.log" 2>&1; then
	cat "$tmp/build.log" >&2
	die "building $src against $kdir failed"
fi
grep -E 'warning:|error:' "$tmp/build.log" >&2 || true

mkdir -p "$outdir"
cp "$mdir/$name.ko" "$outdir/$name.ko"
echo "$outdir/$name.ko"
