# SPDX-License-Identifier: GPL-2.0-only
# Shared helpers of the host-side scripts. Source it; do not run it.
#
# say MESSAGE, die MESSAGE: a line on stderr, "[dma-bench] MESSAGE" (die:
# "[dma-bench] error: MESSAGE", then exit 1); a script that wants its own
# name in the brackets sets SAY_AS after sourcing this. Packages come from
# one place: scripts/setup.sh installs them (or says what to install).

DMA_BENCH_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DMA_BENCH_CACHE=${DMA_BENCH_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/dma-bench}
DMA_BENCH_BUILD=${DMA_BENCH_BUILD:-$DMA_BENCH_TOP/build}
SAY_AS=dma-bench

say() {
	echo "[$SAY_AS] $*" >&2
}

die() {
	echo "[$SAY_AS] error: $*" >&2
	exit 1
}

# The newest installed Debian 6.12 kernel release, e.g. 6.12.117+deb12-amd64.
stock_kernel_release() {
	local v
	v=$(ls -1 /boot/vmlinuz-6.12*-amd64 2>/dev/null | sed 's|/boot/vmlinuz-||' |
		sort -V | tail -n 1)
	[ -n "$v" ] || return 1
	echo "$v"
}

# linux_source_dir: a directory holding the files of Debian's
# linux-source-6.12 tarball that the test bed needs (dmatest.c, upstream's
# benchmark tool and header, checkpatch), extracted once and cached.
linux_source_dir() {
	local tarball=/usr/src/linux-source-6.12.tar.xz ver dir
	[ -f "$tarball" ] || die "$tarball is missing: scripts/setup.sh installs linux-source-6.12"
	ver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || stat -c %Y "$tarball")
	dir=$DMA_BENCH_CACHE/linux-source/$ver
	if [ ! -f "$dir/.complete" ]; then
		say "extracting the files the test bed needs from $tarball"
		rm -rf "$dir"
		mkdir -p "$dir"
		tar -xJf "$tarball" -C "$dir" --strip-components=1 \
			--wildcards \
			'linux-source-6.12/drivers/dma/dmatest.c' \
			'linux-source-6.12/include/linux/map_benchmark.h' \
			'linux-source-6.12/tools/testing/selftests/dma/*' \
			'linux-source-6.12/scripts/checkpatch.pl' \
			'linux-source-6.12/scripts/spelling.txt' \
			'linux-source-6.12/scripts/const_structs.checkpatch' \
			'linux-source-6.12/Documentation/dev-tools/checkpatch.rst'
		touch "$dir/.complete"
	fi
	echo "$dir"
}
