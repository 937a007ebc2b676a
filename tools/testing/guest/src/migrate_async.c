// SPDX-License-Identifier: GPL-2.0-only
/*
 * migrate_async: NUMA balancing through the migration copy offload: its
 * migrations (migrate_misplaced_folio(), MIGRATE_ASYNC, MR_NUMA_MISPLACED)
 * must never wait in the offload beyond the bound it states for a
 * MIGRATE_ASYNC caller (DMA_MIGRATE_ASYNC_WAIT_MS and a jiffy of
 * drain), whatever its engine does.
 *
 *   migrate_async [pages=N] [seconds=S] [bound_ms=B] [prep=MODE]
 *                 [channels=N] [settle=MS]
 *
 * Pinned to CPU 0, it places an anonymous buffer on the other node of
 * two (move_pages(), before the offload starts), starts the offload for
 * NUMA balancing only, and reads the buffer over and over until NUMA
 * balancing (the caller enables it: /proc/sys/kernel/numa_balancing) has
 * brought pages to CPU 0's node through the offload, at most S seconds.
 * STATS must then count batches of MIGRATE_ASYNC callers, the longest of
 * which took at most B ms in the hook; the data must be intact wherever
 * it is. With soft_dma's stall_ms and no_terminate, the first batch on
 * each channel meets an engine that neither completes nor stops: the
 * bound is what a NUMA-balancing fault then waits. settle=MS waits that
 * long before STOP, for a stalled engine to end, so that STOP releases
 * what it lost.
 *
 * Exit status 0 when every check held, 1 when one failed, 2 on a usage
 * error.
 */
#define _GNU_SOURCE
#define __SANE_USERSPACE_TYPES__
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "migrate_util.h"

/* The node of CPU 0, from sysfs; -1 when it says none */
static int ma_cpu0_node(void)
{
	DIR *d = opendir("/sys/devices/system/cpu/cpu0");
	struct dirent *e;
	int node = -1;

	if (!d) {
		perror("/sys/devices/system/cpu/cpu0");
		return -1;
	}
	while ((e = readdir(d)))
		if (sscanf(e->d_name, "node%d", &node) == 1)
			break;
	closedir(d);
	return node;
}

int main(int argc, char **argv)
{
	unsigned long n = 256, seconds = 30, bound_ms = 50, prep = 0;
	unsigned long channels = 2, settle_ms = 0, p;
	long psize = sysconf(_SC_PAGESIZE), local = 0;
	struct dma_migrate_offload a = { 0 }, req;
	volatile uint64_t sum = 0;
	int here, other, k;
	struct timespec t0, t;
	bool ok = true;
	cpu_set_t cpus;
	char *buf;

	for (k = 1; k < argc; k++) {
		char *eq = strchr(argv[k], '='), *end;
		unsigned long v;

		if (!eq)
			goto usage;
		*eq++ = '\0';
		errno = 0;
		v = strtoul(eq, &end, 0);
		if (errno || *end || end == eq)
			goto usage;
		if (!strcmp(argv[k], "pages") && v)
			n = v;
		else if (!strcmp(argv[k], "seconds") && v)
			seconds = v;
		else if (!strcmp(argv[k], "bound_ms") && v)
			bound_ms = v;
		else if (!strcmp(argv[k], "prep"))
			prep = v;
		else if (!strcmp(argv[k], "channels") && v)
			channels = v;
		else if (!strcmp(argv[k], "settle"))
			settle_ms = v;
		else
			goto usage;
	}

	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus)) {
		perror("sched_setaffinity(CPU 0)");
		return 1;
	}
	here = ma_cpu0_node();
	if (here < 0 || here > 1) {
		printf("CPU 0 is on node %d: two nodes wanted (numa=fake=2)\n",
		       here);
		return 1;
	}
	other = !here;

	buf = mmap(NULL, n * psize, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	/* no THP: one folio a page, as the counts expect */
	madvise(buf, n * psize, MADV_NOHUGEPAGE);
	mu_fill(buf, n, psize, 0);
	/* on the other node, before the offload starts: its engine untouched */
	if (mu_move(buf, n, psize, other) != (long)n) {
		printf("not every page went to node %d\n", other);
		return 1;
	}

	a.prep_mode = prep;
	a.channels = channels;
	a.reasons = DMA_MIGRATE_R_NUMA_MISPLACED;
	a.timeout_ms = 5000;
	req = a;
	if (mu_offload(-1, &a, DMA_MIGRATE_OP_START,
		       DMA_MIGRATE_F_ALLOW_FEWER) < 0) {
		printf("START: %s error=%u hook=%u\n", strerror(errno), a.error,
		       a.hook);
		return 1;
	}

	/* read it from CPU 0 until NUMA balancing brought pages here */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		for (p = 0; p < n; p++)
			sum += *(volatile uint64_t *)(buf + p * psize);
		a = req;
		if (mu_offload(-1, &a, DMA_MIGRATE_OP_STATS, 0) < 0) {
			printf("STATS: %s\n", strerror(errno));
			return 1;
		}
		local = mu_pages_on(buf, n, psize, here);
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((a.async_batches && local > 0) ||
		    t.tv_sec - t0.tv_sec >= (time_t)seconds)
			break;
		usleep(50000);
	}
	printf("pages on node %d: %ld of %lu, batches=%llu async_batches=%llu async_max_ns=%llu offloaded=%llu fallback=%llu declined=%llu lost=%llu after %ld s\n",
	       here, local, n, a.batches, a.async_batches, a.async_max_ns,
	       a.folios_offloaded, a.folios_fallback, a.folios_declined,
	       a.folios_lost, (long)(t.tv_sec - t0.tv_sec));
	if (!a.async_batches || local <= 0) {
		printf("NUMA balancing brought no page through the offload in %lu s\n",
		       seconds);
		ok = false;
	}
	if (a.async_max_ns > bound_ms * 1000000ULL) {
		printf("a MIGRATE_ASYNC caller waited %llu ns in the offload, over %lu ms\n",
		       a.async_max_ns, bound_ms);
		ok = false;
	}
	if (!mu_verify(buf, n, psize, 0, 0))
		ok = false;
	if (settle_ms)
		usleep(settle_ms * 1000UL);
	a = req;
	if (mu_offload(-1, &a, DMA_MIGRATE_OP_STOP, 0) < 0) {
		printf("STOP: %s\n", strerror(errno));
		ok = false;
	}
	munmap(buf, n * psize);
	return ok ? 0 : 1;
usage:
	fprintf(stderr, "usage: migrate_async [pages=N] [seconds=S] [bound_ms=B] [prep=MODE] [channels=N] [settle=MS]\n");
	return 2;
}
