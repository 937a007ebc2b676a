#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Fetch a Debian kernel of another architecture (image, headers, the host's
# linux-kbuild of the same version), a static busybox of that architecture
# and the few kernel sources the test bed builds out of tree, and unpack
# them into the cache. Nothing is installed: the packages are downloaded
# with apt-get download and unpacked with dpkg-deb -x.
#
# usage: scripts/vm/foreign-kernel.sh DEB_ARCH FLAVOUR
#   e.g. armhf armmp, arm64 arm64
# Prints the directory on the last line:
#   $DMA_BENCH_CACHE/debian/DEB_ARCH/VERSION/
#     release        the kernel release, e.g. 6.1.0-50-armmp
#     version        the Debian package version, e.g. 6.1.176-1
#     vmlinuz        the kernel image
#     kdir/          a build tree: make -C kdir M=... ARCH=... CROSS_COMPILE=...
#     dtbs/          the image package's device trees
#     modules/       the image package's lib/modules/RELEASE (drivers/dma only)
#     busybox        busybox-static of DEB_ARCH
#     src/           drivers/dma/{dmatest.c,dmaengine.h,xilinx/zynqmp_dma.c}
#                    and the Makefile of linux-source-X.Y of the same version
#
# The version is the candidate of Debian's linux-headers-FLAVOUR metapackage
# for DEB_ARCH; DMA_BENCH_FOREIGN_VERSION=VERSION picks another one. The
# first run as root adds DEB_ARCH to dpkg's architectures and updates apt's
# lists; later runs need no network.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ $# -eq 2 ] || die "usage: $0 DEB_ARCH FLAVOUR"
arch=$1
flavour=$2
host_arch=$(dpkg --print-architecture)
base=$DMA_BENCH_CACHE/debian/$arch

# one at a time: apt's lists and dpkg's architectures are the machine's,
# and two boards may be set up at once (prove -j)
mkdir -p "$DMA_BENCH_CACHE/debian"
exec 7>"$DMA_BENCH_CACHE/debian/.lock"
flock 7

# newest_cached: the newest complete unpacked version, if any
newest_cached() {
	ls -1d "$base"/*/.complete 2>/dev/null | sed 's|/\.complete$||' |
		sort -V | tail -n 1
}

# apt's binary cache is off in some images (docker-clean): without one,
# each apt-cache call parses every list again. Keep one for this run.
apt_tmp=$(mktemp -d "${TMPDIR:-/tmp}/foreign-kernel-apt.XXXXXX")
trap 'rm -rf "$apt_tmp"' EXIT
apt_opts=(-o "Dir::Cache::pkgcache=$apt_tmp/pkgcache.bin"
	  -o "Dir::Cache::srcpkgcache=$apt_tmp/srcpkgcache.bin")
[ "$(id -u)" = 0 ] && apt_opts+=(-o APT::Sandbox::User=root)

# madison_version PKG: the newest version apt knows of PKG (arch-qualified)
madison_version() {
	apt-cache "${apt_opts[@]}" madison "$1" 2>/dev/null |
		awk -F'|' 'NR == 1 { gsub(/ /, "", $2); print $2 }'
}

# What apt resolved is kept with a signature of its lists: while they do
# not change, the answer does not either, and apt is not asked again.
lists_sig() {
	stat -c '%n %Y %s' /var/lib/apt/lists/*_Packages* 2>/dev/null | cksum |
		cut -d' ' -f1
}

# resolve: set abi (6.1.0-50) and version (6.1.176-1), or fail
resolve() {
	local meta=linux-headers-$flavour:$arch hdr
	if [ -n "${DMA_BENCH_FOREIGN_VERSION:-}" ]; then
		version=$DMA_BENCH_FOREIGN_VERSION
		meta=$meta=$version
	else
		version=
	fi
	hdr=$(apt-cache "${apt_opts[@]}" show --no-all-versions "$meta" 2>/dev/null |
	      sed -n "s/^Depends:.*\(linux-headers-[0-9.]*-[0-9]*-$flavour\).*/\1/p" |
	      head -n 1) || true
	[ -n "$hdr" ] || return 1
	[ -n "$version" ] || version=$(madison_version "$hdr:$arch")
	[ -n "$version" ] || return 1
	abi=${hdr#linux-headers-}
	abi=${abi%-"$flavour"}
}

# a pinned version already unpacked needs no apt at all
if [ -n "${DMA_BENCH_FOREIGN_VERSION:-}" ] &&
   [ -f "$base/$DMA_BENCH_FOREIGN_VERSION/.complete" ]; then
	echo "$base/$DMA_BENCH_FOREIGN_VERSION"
	exit 0
fi

# apt must know DEB_ARCH's packages: add the architecture once, as root
add_arch() {
	[ "$(id -u)" = 0 ] ||
		die "apt knows no $arch packages. As root, run: dpkg --add-architecture $arch && apt-get update"
	say "adding the $arch architecture to dpkg and updating apt's lists"
	dpkg --add-architecture "$arch"
	# a list that fails (a mirror mid-sync) must not stop us when the
	# packages resolve from the others
	apt-get update -qq >/dev/null 2>&1 || true
}

sig() {
	echo "$(lists_sig) ${DMA_BENCH_FOREIGN_VERSION:-candidate}"
}
if [ -f "$base/.resolved" ] && [ "$(sed -n 1p "$base/.resolved")" = "$(sig)" ]; then
	read -r abi version < <(sed -n 2p "$base/.resolved")
else
	[ "$arch" = "$host_arch" ] ||
		dpkg --print-foreign-architectures | grep -qx "$arch" || add_arch
	# lists older than the architecture: update them once
	if ! resolve && [ "$(id -u)" = 0 ]; then
		say "apt cannot resolve linux-headers-$flavour:$arch: updating its lists"
		apt-get update -qq >/dev/null 2>&1 || true
	fi
	if [ -n "${abi:-}" ] || resolve; then
		mkdir -p "$base"
		printf '%s\n%s %s\n' "$(sig)" "$abi" "$version" > "$base/.resolved"
	else
		dir=$(newest_cached)
		[ -n "$dir" ] || die "apt cannot resolve linux-headers-$flavour:$arch (try: apt-get update)"
		say "apt cannot resolve linux-headers-$flavour:$arch; using the cached $(basename "$dir")"
		echo "$dir"
		exit 0
	fi
fi
release=$abi-$flavour
kver=${abi%%-*}			# 6.1.0
series=${kver%.*}		# 6.1
dir=$base/$version
if [ -f "$dir/.complete" ]; then
	echo "$dir"
	exit 0
fi

say "fetching Debian's $release ($version) for $arch"
mkdir -p "$base"
tmp=$(mktemp -d "$base/.fetch.XXXXXX")
trap 'rm -rf "$tmp" "$apt_tmp"' EXIT
mkdir -p "$tmp/debs" "$tmp/root"

# arm64 and amd64 split signed and unsigned images; the unsigned one is the
# plain image, identical but for the signature
image=linux-image-$release-unsigned
[ -n "$(madison_version "$image:$arch")" ] || image=linux-image-$release
pkgs=("$image:$arch=$version" "linux-headers-$release:$arch=$version"
      "linux-headers-$abi-common=$version"
      "linux-kbuild-$series:$host_arch=$version" "busybox-static:$arch")

# fetch_sources: set $src to the sources of linux-source-X.Y of this
# version, shared by every architecture and extracted once (this
# decompresses the whole tarball)
fetch_sources() {
	local tarball stmp
	src=$DMA_BENCH_CACHE/debian/linux-source/$version
	if [ ! -f "$src/.complete" ]; then
		stmp=$(mktemp -d "$DMA_BENCH_CACHE/debian/.source.XXXXXX")
		tarball=/usr/src/linux-source-$series.tar.xz
		if [ "$(dpkg-query -W -f='${Version}' "linux-source-$series" 2>/dev/null)" != "$version" ]; then
			(cd "$stmp" && apt-get download -q "${apt_opts[@]}" \
				"linux-source-$series=$version") >"$stmp/log" 2>&1 || {
				cat "$stmp/log" >&2
				rm -rf "$stmp"
				die "apt-get download linux-source-$series=$version failed"
			}
			dpkg-deb --fsys-tarfile "$stmp"/linux-source-*.deb |
				tar -xf - -C "$stmp" "./usr/src/linux-source-$series.tar.xz"
			tarball=$stmp/usr/src/linux-source-$series.tar.xz
		fi
		say "extracting the sources the test bed builds from linux-source-$series $version"
		mkdir -p "$stmp/src" "$(dirname "$src")"
		tar -xJf "$tarball" -C "$stmp/src" --strip-components=1 --wildcards \
			"linux-source-$series/Makefile" \
			"linux-source-$series/drivers/dma/dmatest.c" \
			"linux-source-$series/drivers/dma/dmaengine.h" \
			"linux-source-$series/drivers/dma/xilinx/zynqmp_dma.c"
		rm -rf "$src"
		mv "$stmp/src" "$src"
		rm -rf "$stmp"
		touch "$src/.complete"
	fi
}

(cd "$tmp/debs" && apt-get download -q "${apt_opts[@]}" "${pkgs[@]}") >"$tmp/log" 2>&1 || {
	cat "$tmp/log" >&2
	die "apt-get download failed for: ${pkgs[*]}"
}
for deb in "$tmp"/debs/*.deb; do
	dpkg-deb -x "$deb" "$tmp/root"
done
rm -rf "$tmp/debs"

out=$tmp/out
mkdir -p "$out"
echo "$release" > "$out/release"
echo "$version" > "$out/version"
mv "$tmp/root/boot/vmlinuz-$release" "$out/vmlinuz"
mv "$tmp/root/boot/config-$release" "$out/config"
mv "$tmp/root/usr/lib/linux-image-$release" "$out/dtbs"
mv "$tmp/root/bin/busybox" "$out/busybox"

# only the DMA drivers of the image's modules: the rest is not needed
mkdir -p "$out/modules/kernel/drivers"
mv "$tmp/root/lib/modules/$release/kernel/drivers/dma" "$out/modules/kernel/drivers/"

# the build tree: the arch headers, the common headers and the host's
# kbuild, as dpkg would install them, relative to each other
mkdir -p "$out/kdir-root/usr/src" "$out/kdir-root/usr/lib"
mv "$tmp/root/usr/src/linux-headers-$release" "$tmp/root/usr/src/linux-headers-$abi-common" \
	"$out/kdir-root/usr/src/"
mv "$tmp/root/usr/lib/linux-kbuild-$series" "$out/kdir-root/usr/lib/"
ln -s "kdir-root/usr/src/linux-headers-$release" "$out/kdir"
# the arch headers' Makefile includes the common one by absolute path
echo "include $dir/kdir-root/usr/src/linux-headers-$abi-common/Makefile" \
	> "$out/kdir-root/usr/src/linux-headers-$release/Makefile"

fetch_sources
ln -s "$src" "$out/src"

rm -rf "$dir"
mv "$out" "$dir"
touch "$dir/.complete"
echo "$dir"
