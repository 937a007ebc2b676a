// SPDX-License-Identifier: GPL-2.0-only
/*
 * dcount_mark: execute one of the cache-maintenance counter's markers
 * (scripts/qemu-plugin/dcount.c), a HINT the architecture leaves
 * unallocated, so a NOP unless the counter's plugin watches:
 *   dcount_mark dump    every count so far to the plugin's output, reset
 *   dcount_mark empty   open and close an empty window (kind "test")
 * The benchmark's guest side (tests/bench/cachesync.sh) dumps after each
 * cell. Only arm64 guests have the markers: elsewhere it says so and exits
 * with 2, and nothing is counted.
 */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc != 2 || (strcmp(argv[1], "dump") && strcmp(argv[1], "empty"))) {
		fprintf(stderr, "usage: dcount_mark dump|empty\n");
		return 2;
	}
#ifdef __aarch64__
	if (!strcmp(argv[1], "dump"))
		asm volatile("hint #0x6f" ::: "memory");
	else
		asm volatile("hint #0x6d\n\thint #0x6e" ::: "memory");
	return 0;
#else
	fprintf(stderr, "dcount_mark: the counter counts AArch64 cache maintenance and barriers; this guest is not arm64, so it has no markers and nothing is counted\n");
	return 2;
#endif
}
