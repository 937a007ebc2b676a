#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Fetch a Debian kernel of the host's architecture from the project's apt
# sources (scripts/apt/sources.list: trixie-backports' 7.3), its image, its
# headers and the linux-kbuild of the same version, and unpack them into
# the cache. Nothing is installed: the packages are downloaded with
# project_apt apt-get download and unpacked with dpkg-deb -x. (Debian's
# linux-kbuild binaries need glibc 2.34: they run on Debian 12.)
#
# usage: scripts/vm/debian-kernel.sh RELEASE VERSION
#   e.g. 7.3.4+deb13-amd64 7.3.4-1~bpo13+1
# Prints the directory on the last line:
#   $DMA_BENCH_CACHE/debian/host/RELEASE-VERSION/
#     release        the kernel release, e.g. 7.3.4+deb13-amd64
#     vmlinuz        the kernel image
#     kdir/          a build tree: make -C kdir M=...
#     modules/       an empty lib/modules/RELEASE (the guest loads none of
#                    Debian's modules)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ $# -eq 2 ] || die "usage: $0 RELEASE VERSION"
release=$1
version=$2
abi=${release%-*}		# 7.3.4+deb13
flavour=${release##*-}		# amd64
dir=$DMA_BENCH_CACHE/debian/host/$release-$version
if [ -f "$dir/.complete" ]; then
	echo "$dir"
	exit 0
fi

mkdir -p "$DMA_BENCH_CACHE/debian/host"
exec 7>"$DMA_BENCH_CACHE/debian/host/.lock"
flock 7
if [ -f "$dir/.complete" ]; then
	echo "$dir"
	exit 0
fi

say "fetching Debian's $release ($version)"
tmp=$(mktemp -d "$DMA_BENCH_CACHE/debian/host/.fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/debs" "$tmp/root"
# linux-image-RELEASE is a metapackage in 7.3: the image is in linux-binary
pkgs=("linux-binary-$release=$version" "linux-headers-$release=$version"
      "linux-headers-$abi-common=$version" "linux-kbuild-$abi=$version")
(cd "$tmp/debs" && project_apt apt-get download -q "${pkgs[@]}") >"$tmp/log" 2>&1 || {
	cat "$tmp/log" >&2
	die "apt-get download failed for: ${pkgs[*]}"
}
for deb in "$tmp"/debs/*.deb; do
	dpkg-deb -x "$deb" "$tmp/root"
done

out=$tmp/out
mkdir -p "$out/modules"
echo "$release" > "$out/release"
echo "$version" > "$out/version"
for img in "$tmp/root/usr/lib/modules/$release/vmlinuz" "$tmp/root/boot/vmlinuz-$release"; do
	[ ! -f "$img" ] || break
done
[ -f "$img" ] || die "no kernel image in the packages of $release"
mv "$img" "$out/vmlinuz"

# the build tree as dpkg would install it, relative to itself; the arch
# headers' Makefile names the common one and itself by absolute path
mkdir -p "$out/kdir-root/usr/src" "$out/kdir-root/usr/lib"
mv "$tmp/root/usr/src/linux-headers-$release" "$tmp/root/usr/src/linux-headers-$abi-common" \
	"$out/kdir-root/usr/src/"
mv "$tmp/root/usr/lib/linux-kbuild-$abi" "$out/kdir-root/usr/lib/"
ln -s "kdir-root/usr/src/linux-headers-$release" "$out/kdir"
printf 'KBUILD_OUTPUT=%s\ninclude %s\n' \
	"$dir/kdir-root/usr/src/linux-headers-$release" \
	"$dir/kdir-root/usr/src/linux-headers-$abi-common/Makefile" \
	> "$out/kdir-root/usr/src/linux-headers-$release/Makefile"

rm -rf "$dir"
mv "$out" "$dir"
touch "$dir/.complete"
echo "$dir"
