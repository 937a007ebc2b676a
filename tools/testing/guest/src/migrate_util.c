// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the guest's migration programs share (migrate_util.h).
 */
#define _GNU_SOURCE
#define __SANE_USERSPACE_TYPES__
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "migrate_util.h"
#include "migrate_ctl.h"

/* <linux/mempolicy.h>'s, which not every libc's headers pull in */
#define MU_MPOL_MF_MOVE	(1 << 1)

int mu_offload(int fd, struct dma_migrate_offload *a, unsigned int op,
	       unsigned int flags)
{
	struct dma_migrate_offload in = *a;
	int ret;

	if (fd < 0) {
		ret = migrate_ctl_op("", op, flags, &in, a);
		if (ret && op == DMA_MIGRATE_OP_START)
			printf("dma_migrate refused: %s: %s\n", strerror(-ret),
			       migrate_ctl_last_error());
		if (ret)
			errno = -ret;
		return ret ? -1 : 0;
	}
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->op = op;
	a->flags = flags;
	a->prep_mode = in.prep_mode;
	a->channels = in.channels;
	a->reasons = in.reasons;
	a->timeout_ms = in.timeout_ms;
	a->min_folios = in.min_folios;
	return ioctl(fd, DMA_MIGRATE_OFFLOAD, a);
}

uint64_t mu_pattern(unsigned long page, size_t word, unsigned int gen)
{
	return ((uint64_t)page << 20) ^ word ^ 0xa5a5a5a500000000ULL ^
	       ((uint64_t)gen << 56);
}

void mu_fill(char *buf, unsigned long n, long psize, unsigned int gen)
{
	size_t words = psize / sizeof(uint64_t), w;
	unsigned long p;

	for (p = 0; p < n; p++)
		for (w = 0; w < words; w++)
			((uint64_t *)(buf + p * psize))[w] = mu_pattern(p, w, gen);
}

bool mu_verify(const char *buf, unsigned long n, long psize, unsigned int gen,
	       unsigned long from)
{
	size_t words = psize / sizeof(uint64_t), w;
	unsigned long p;

	for (p = from; p < n; p++) {
		const uint64_t *v = (const uint64_t *)(buf + p * psize);

		for (w = 0; w < words; w++) {
			if (v[w] != mu_pattern(p, w, gen)) {
				printf("data differs: page %lu word %zu (generation %u)\n",
				       p, w, gen);
				return false;
			}
		}
	}
	return true;
}

long mu_move(char *buf, unsigned long n, long psize, int node)
{
	void **pages = calloc(n, sizeof(*pages));
	int *nodes = calloc(n, sizeof(*nodes));
	int *status = calloc(n, sizeof(*status));
	unsigned long i, left = n, busy;
	long moved = -1;
	int pass;

	if (!pages || !nodes || !status)
		goto out;
	for (i = 0; i < n; i++) {
		pages[i] = buf + i * psize;
		nodes[i] = node;
	}
	moved = 0;
	for (pass = 0; pass < MU_MOVE_PASSES && left; pass++) {
		if (pass)
			usleep(10000 << pass);
		if (syscall(SYS_move_pages, 0, left, pages, nodes, status,
			    MU_MPOL_MF_MOVE) < 0) {
			fprintf(stderr, "move_pages to node %d: %s\n", node,
				strerror(errno));
			moved = -1;
			goto out;
		}
		busy = 0;
		for (i = 0; i < left; i++) {
			if (status[i] == node)
				moved++;
			else if (status[i] == -EBUSY || status[i] == -EAGAIN)
				pages[busy++] = pages[i];
		}
		left = busy;
	}
out:
	free(pages);
	free(nodes);
	free(status);
	return moved;
}

long mu_pages_on(char *buf, unsigned long n, long psize, int node)
{
	void **pages = calloc(n, sizeof(*pages));
	int *status = calloc(n, sizeof(*status));
	unsigned long i;
	long there = -1;

	if (!pages || !status)
		goto out;
	for (i = 0; i < n; i++)
		pages[i] = buf + i * psize;
	/* no nodes: move_pages() only says where each page is */
	if (syscall(SYS_move_pages, 0, n, pages, NULL, status, 0) < 0) {
		perror("move_pages");
		goto out;
	}
	there = 0;
	for (i = 0; i < n; i++)
		there += status[i] == node;
out:
	free(pages);
	free(status);
	return there;
}
