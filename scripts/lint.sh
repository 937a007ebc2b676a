#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The project's static checks, as TAP: checkpatch --strict on every kernel
# source and the ABI header, sparse (C=1) and W=1 on the modules against
# the stock 6.12 headers, -Wall -Wextra on the userspace code.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

n=0
failed=0
result() {	# result DESCRIPTION LOGFILE: ok when LOGFILE is empty
	n=$((n + 1))
	if [ -s "$2" ]; then
		failed=$((failed + 1))
		echo "not ok $n - $1"
		sed 's/^/# /' "$2" | head -40
	else
		echo "ok $n - $1"
	fi
}

log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
src=$(linux_source_dir)

cd "$DMA_BENCH_TOP"
files=$(git ls-files 'kernel/*.c' 'kernel/*.h' 'uapi/*.h' 2>/dev/null ||
	find kernel uapi -name '*.[ch]' ! -path '*/generated/*')
# shellcheck disable=SC2086
perl "$src/scripts/checkpatch.pl" --strict --no-tree --terse --show-types \
	--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f $files 2>&1 |
	grep -E '^[^ ]+:[0-9]+: (ERROR|WARNING|CHECK)' > "$log/checkpatch"
result "checkpatch --strict: kernel/ and uapi/ are clean" "$log/checkpatch"

release=$(stock_kernel_release) || die "no 6.12 kernel: scripts/setup.sh"
kdir=/lib/modules/$release/build
out=$DMA_BENCH_BUILD/lint
rm -rf "$out"
if "$DMA_BENCH_TOP/scripts/build-modules.sh" "$kdir" "$out" >/dev/null 2>&1; then
	make -C "$out/src" KDIR="$kdir" clean >/dev/null 2>&1
	make -C "$out/src" KDIR="$kdir" W=1 C=1 modules 2>&1 |
		grep -E 'warning|error|: note:' > "$log/w1"
else
	echo "the modules do not build against $kdir" > "$log/w1"
fi
result "W=1 and sparse (C=1) against $release: no warning" "$log/w1"

tmp=$log/tool
mkdir -p "$tmp"
{
	make -s -B -C tools/dma CFLAGS="-O2 -g -Wall -Wextra" >/dev/null 2>"$tmp/w" ||
		echo "tools/dma does not build"
	cat "$tmp/w"
	for f in tools/testing/guest/src/*.c; do
		gcc -std=gnu11 -O2 -Wall -Wextra -Iuapi -c -o "$tmp/x.o" "$f" 2>&1
	done
} > "$log/user"
result "userspace code is clean under -Wall -Wextra" "$log/user"

echo "1..$n"
[ "$failed" = 0 ]
