// SPDX-License-Identifier: GPL-2.0-only
/*
 * migrate mode's checks: the nodes and --bytes against the system before
 * a run, and after every move move_pages()' status, the node of every
 * page and the pattern written before (migrate.c makes the moves).
 */
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "migrate.h"
#include "units.h"

/* ---------------------------------------------------------------- */
/* Input checks against the system                                  */
/* ---------------------------------------------------------------- */

static int check_node(const char *root, const char *opt, int node,
		      struct node_mem *m, FILE *err)
{
	node_mem_read(root, node, m);
	if (!m->exists) {
		fprintf(err, PROG_NAME ": invalid --%s %d: there is no NUMA node %d (%s" NODE_DIR "/node%d)\n",
			opt, node, node, root, node);
		return -1;
	}
	if (!m->total_kb) {
		fprintf(err, PROG_NAME ": invalid --%s %d: node %d has no memory (MemTotal 0 or unreadable in %s" NODE_DIR "/node%d/meminfo)\n",
			opt, node, node, root, node);
		return -1;
	}
	return 0;
}

int migrate_check_nodes(const char *root, const struct bench_opts *o,
			int *src, int *dst, FILE *err)
{
	uint64_t need = o->bytes * (o->movers ? o->movers : 1);
	struct node_mem sm, dm;
	char bytes[32], free_s[32];

	*src = o->src_node >= 0 ? o->src_node : first_memory_node(root, -1);
	if (*src < 0) {
		fprintf(err, PROG_NAME ": --src-node: no NUMA node with memory found in %s" NODE_DIR "\n",
			root);
		return -1;
	}
	*dst = o->dst_node >= 0 ? o->dst_node : first_memory_node(root, *src);
	if (*dst < 0) {
		fprintf(err, PROG_NAME ": --dst-node: node %d is the only NUMA node with memory here: -m migrate moves folios between two nodes (a VM: numa=fake=2 on the kernel command line)\n",
			*src);
		return -1;
	}
	if (check_node(root, "src-node", *src, &sm, err) ||
	    check_node(root, "dst-node", *dst, &dm, err))
		return -1;
	if (*src == *dst) {
		fprintf(err, PROG_NAME ": --dst-node %d is --src-node's: move_pages() must move the folios to another node\n",
			*dst);
		return -1;
	}
	/* every mover's buffer on each node in turn */
	if (need > sm.free_kb << 10 || need > dm.free_kb << 10) {
		bool on_src = need > sm.free_kb << 10;
		char movers[32] = "";

		format_size(o->bytes, bytes, sizeof(bytes));
		format_size((on_src ? sm.free_kb : dm.free_kb) << 10, free_s,
			    sizeof(free_s));
		if (o->movers > 1)
			snprintf(movers, sizeof(movers), " x --movers %u",
				 o->movers);
		fprintf(err, PROG_NAME ": invalid --bytes %s%s: more than node %d's free memory (MemFree %s in %s" NODE_DIR "/node%d/meminfo); lower --bytes%s\n",
			bytes, movers, on_src ? *src : *dst, free_s, root,
			on_src ? *src : *dst, o->movers > 1 ? " or --movers" : "");
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- */
/* Verification                                                     */
/* ---------------------------------------------------------------- */

int migrate_check_status(const int *status, void *const *pages, size_t n,
			 int node, const void *base, const char *what,
			 FILE *err)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (status[i] == node)
			continue;
		fprintf(err, PROG_NAME ": %s: entry %zu (offset %#tx in the buffer) is ",
			what, i, (const char *)pages[i] - (const char *)base);
		if (status[i] < 0)
			fprintf(err, "not moved: move_pages() status %d (%s)",
				status[i], strerror(-status[i]));
		else
			fprintf(err, "on node %d", status[i]);
		fprintf(err, ", not on node %d\n", node);
		return -1;
	}
	return 0;
}

void migrate_fill(void *buf, uint64_t bytes, uint64_t seed)
{
	uint64_t *w = buf, i;

	for (i = 0; i < bytes / sizeof(*w); i++)
		w[i] = (i * sizeof(*w)) ^ seed;
}

int migrate_check_pattern(const void *buf, uint64_t bytes, uint64_t seed,
			  const char *what, FILE *err)
{
	const uint64_t *w = buf;
	uint64_t i;

	for (i = 0; i < bytes / sizeof(*w); i++) {
		uint64_t want = (i * sizeof(*w)) ^ seed;

		if (w[i] == want)
			continue;
		fprintf(err, PROG_NAME ": %s: the data is corrupt at offset %#" PRIx64 " (page %" PRIu64 "): read %#018" PRIx64 ", wrote %#018" PRIx64 "\n",
			what, i * sizeof(*w),
			i * sizeof(*w) / (uint64_t)sysconf(_SC_PAGESIZE),
			w[i], want);
		return -1;
	}
	return 0;
}
