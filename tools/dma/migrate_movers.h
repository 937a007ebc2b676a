/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Inside the migrate mode: its buffers and movers (migrate_movers.c), as
 * the run (migrate.c) drives them.
 */
#ifndef MIGRATE_MOVERS_H
#define MIGRATE_MOVERS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "migrate.h"
#include "options.h"

/**
 * struct migrate_buf - the memory moved and the arrays move_pages() takes
 * @map, @map_len: the mapping (--bytes and a folio, for the alignment)
 * @base: the folio-aligned start of the --bytes moved
 * @pages: one address per folio: the entries of a move
 * @all: the address of every page, to ask each one's node
 * @nodes: a move's target node for each entry
 * @status: move_pages()' answer, an entry each (@npages of room)
 * @seed: the pattern's (each mover's its own)
 */
struct migrate_buf {
	const char *root;
	uint64_t seed;
	void *map;
	size_t map_len;
	char *base;
	size_t nentries, npages;
	void **pages, **all;
	int *nodes, *status;
};

/*
 * A move is made by every mover at once: the process itself (mover 1, or
 * the only one) and, with --movers N, N - 1 processes forked before any
 * buffer is mapped, each with a buffer of its own (a buffer shared with a
 * child would be mapped twice: move_pages() leaves such pages where they
 * are). The parent sends each child a command down its pipe; each answers
 * that it is ready, waits on one start pipe, which the parent fills with
 * a byte for each, so that they start together; then moves, verifies and
 * answers with its times. A child ignores the stop signals (the parent
 * ends the run between two moves) and exits at the end of its pipe.
 */
enum mover_op { MOVER_SETUP, MOVER_TO_DST, MOVER_BACK, MOVER_QUIT };

struct mover_cmd {
	uint32_t op;		/* enum mover_op */
	uint32_t run;
	uint32_t prep_mode;	/* the row's: for the messages */
	uint32_t data;		/* check the pattern; with MOVER_BACK, fill
				 * it again after */
};

/* a mover's answer: its move_pages() call's start and time, its entries */
struct mover_done {
	uint32_t ok;
	uint32_t pad;
	uint64_t t0, ns, entries;
};

/**
 * struct movers - the movers of a run
 * @n: the children: --movers - 1
 * @pid, @cmd, @done: each child's, its command pipe's write end and its
 *	answers' read end
 * @go: the start pipe's write end
 * @mb: the process's own buffer (mover 1)
 * @tagged: --movers above 1: the messages name the mover
 */
struct movers {
	unsigned int n;
	pid_t pid[MOVERS_MAX];
	int cmd[MOVERS_MAX], done[MOVERS_MAX];
	int go;
	struct migrate_buf *mb;
	bool tagged;
};

/* the sum of a step of every mover */
struct movers_result {
	uint64_t wall_ns, busy_ns, entries;
};

int migrate_buf_setup(const char *root, const struct bench_opts *o,
		      struct migrate_result *r, struct migrate_buf *mb,
		      unsigned int mover, FILE *err);
void migrate_buf_free(struct migrate_buf *mb);
int migrate_movers_start(const char *root, const struct bench_opts *o,
			 struct migrate_result *r, int fd, struct movers *mv,
			 FILE *err);
int migrate_movers_step(struct movers *mv, const struct bench_opts *o,
			struct migrate_result *r, const struct mover_cmd *c,
			struct movers_result *res, FILE *err);
int migrate_movers_stop(struct movers *mv, bool failed, FILE *err);

#endif /* MIGRATE_MOVERS_H */
