// SPDX-License-Identifier: GPL-2.0-only
/*
 * migrate mode's buffers and movers: a mover's buffer mapped, bound,
 * filled and counted; one move_pages() of it, timed and verified; and
 * with --movers N, the N - 1 forked movers that move their own buffers at
 * the same time as the process (migrate.c runs the rows over them).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/mempolicy.h>

#include "migrate_movers.h"
#include "units.h"

/* ---------------------------------------------------------------- */
/* Buffers and moves                                                */
/* ---------------------------------------------------------------- */

static long sys_move_pages(size_t n, void **pages, const int *nodes,
			   int *status)
{
	return syscall(SYS_move_pages, 0, n, pages, nodes, status,
		       MPOL_MF_MOVE);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * verify_on() - after a move to @node: its status array, then every page's
 * node as move_pages() reports it, then the pattern, with @data
 */
static int verify_on(struct migrate_buf *mb, uint64_t bytes, int node,
		     bool data, const char *what, FILE *err)
{
	char where[96];
	long ret;

	if (migrate_check_status(mb->status, mb->pages, mb->nentries, node,
				 mb->base, what, err))
		return -1;
	ret = sys_move_pages(mb->npages, mb->all, NULL, mb->status);
	if (ret) {
		fprintf(err, PROG_NAME ": %s: asking the pages' nodes: move_pages(): %s\n",
			what, strerror(errno));
		return -1;
	}
	snprintf(where, sizeof(where), "%s, page by page", what);
	if (migrate_check_status(mb->status, mb->all, mb->npages, node,
				 mb->base, where, err))
		return -1;
	return data ? migrate_check_pattern(mb->base, bytes, mb->seed, what,
					    err) : 0;
}

/* move() calls for a list whose entries answer -EBUSY */
#define MOVE_TRIES	3

static bool entries_busy(const struct migrate_buf *mb)
{
	size_t i;

	for (i = 0; i < mb->nentries; i++)
		if (mb->status[i] == -EBUSY)
			return true;
	return false;
}

/*
 * move() - every entry to @node: when move_pages() was called in *@t0,
 * how long it took in *@ns; 0 or -1
 */
static int move(struct migrate_buf *mb, int node, uint64_t *t0, uint64_t *ns,
		const char *what, FILE *err)
{
	unsigned int try;
	size_t i;
	long ret;

	for (i = 0; i < mb->nentries; i++)
		mb->nodes[i] = node;
	*t0 = now_ns();
	/*
	 * -EBUSY for an entry is move_pages()' "try again later" (a folio
	 * the kernel is splitting, say): the list again, a bounded number
	 * of times; the entries already there cost a lookup each
	 */
	for (try = 0; try < MOVE_TRIES; try++) {
		ret = sys_move_pages(mb->nentries, mb->pages, mb->nodes,
				     mb->status);
		if (ret <= 0 || !entries_busy(mb))
			break;
	}
	*ns = now_ns() - *t0;
	if (ret < 0) {
		fprintf(err, PROG_NAME ": %s: move_pages() to node %d failed: %s\n",
			what, node, strerror(errno));
		return -1;
	}
	/* ret > 0: entries not moved; their status says which and why */
	return 0;
}

void migrate_buf_free(struct migrate_buf *mb)
{
	if (mb->map)
		munmap(mb->map, mb->map_len);
	free(mb->pages);
	free(mb->all);
	free(mb->nodes);
	free(mb->status);
	memset(mb, 0, sizeof(*mb));
}

/* entries_of() - a move entry for the first page of each folio of @c */
static void entries_of(struct migrate_buf *mb, const struct folio_census *c)
{
	size_t i;

	mb->nentries = c->folios;
	for (i = 0; i < mb->nentries; i++)
		mb->pages[i] = mb->all[c->first[i]];
}

/*
 * mover_tag() - ", mover N" after what a message says happened, with
 * --movers (@mover counts from 1); "" without
 */
static const char *mover_tag(unsigned int mover, char *buf, size_t len)
{
	if (!mover)
		return "";
	snprintf(buf, len, ", mover %u", mover);
	return buf;
}

/*
 * migrate_buf_setup() - map, advise, bind to @src, fill; count the folios into
 * @r; the move entries one per folio found (one per folio asked for when
 * the census cannot be read). @mover: which of --movers (from 1), 0 when
 * alone: its pattern its own, the first's MIGRATE_SEED.
 */
int migrate_buf_setup(const char *root, const struct bench_opts *o,
		      struct migrate_result *r, struct migrate_buf *mb,
		      unsigned int mover, FILE *err)
{
	uint64_t folio = folio_bytes(o), alloc0 = 0, fb0 = 0;
	unsigned long mask[1024 / (8 * sizeof(unsigned long))] = { 0 };
	char tag[32], what[96];
	size_t i;

	mb->root = root;
	mb->seed = MIGRATE_SEED ^ ((uint64_t)(mover ? mover - 1 : 0) << 32);
	mb->map_len = o->bytes + folio;
	mb->map = mmap(NULL, mb->map_len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (mb->map == MAP_FAILED) {
		mb->map = NULL;
		fprintf(err, PROG_NAME ": cannot map --bytes %" PRIu64 ": %s\n",
			o->bytes, strerror(errno));
		return -1;
	}
	mb->base = (char *)(((uintptr_t)mb->map + (uintptr_t)folio - 1) &
			    ~((uintptr_t)folio - 1));
	/*
	 * order 0 on a kernel without THP: nothing to keep away; without
	 * madvise(), large folios come from the controls ("always") and
	 * order 0 keeps them away with PR_SET_THP_DISABLE, for the process
	 */
	if (r->no_madvise) {
		if (!o->folio_order && prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) &&
		    errno != EINVAL) {
			fprintf(err, PROG_NAME ": prctl(PR_SET_THP_DISABLE): %s\n",
				strerror(errno));
			return -1;
		}
	} else if (madvise(mb->base, o->bytes, o->folio_order ?
			   MADV_HUGEPAGE : MADV_NOHUGEPAGE) &&
		   (o->folio_order || errno != EINVAL)) {
		fprintf(err, PROG_NAME ": madvise(%s): %s\n", o->folio_order ?
			"MADV_HUGEPAGE" : "MADV_NOHUGEPAGE", strerror(errno));
		return -1;
	}
	mask[r->src_node / (8 * sizeof(unsigned long))] |=
		1UL << (r->src_node % (8 * sizeof(unsigned long)));
	if (syscall(SYS_mbind, mb->base, o->bytes, MPOL_BIND, mask,
		    8 * sizeof(mask), 0)) {
		fprintf(err, PROG_NAME ": --src-node %d: mbind(MPOL_BIND): %s\n",
			r->src_node, strerror(errno));
		return -1;
	}
	mb->npages = o->bytes / o->page_size;
	mb->all = calloc(mb->npages, sizeof(*mb->all));
	mb->pages = calloc(mb->npages, sizeof(*mb->pages));
	mb->nodes = calloc(mb->npages, sizeof(*mb->nodes));
	mb->status = calloc(mb->npages, sizeof(*mb->status));
	if (!mb->all || !mb->pages || !mb->nodes || !mb->status) {
		fprintf(err, PROG_NAME ": out of memory for %zu pages' arrays\n",
			mb->npages);
		return -1;
	}
	for (i = 0; i < mb->npages; i++)
		mb->all[i] = mb->base + i * o->page_size;

	r->fault_stats = o->folio_order &&
			 thp_fault_stats(root, folio, &alloc0, &fb0);
	migrate_fill(mb->base, o->bytes, mb->seed);
	if (r->fault_stats &&
	    thp_fault_stats(root, folio, &r->fault_alloc, &r->fault_fallback)) {
		r->fault_alloc -= alloc0;
		r->fault_fallback -= fb0;
	}
	smaps_read(root, (uintptr_t)mb->base, &r->smaps);
	if (folio_census_read(root, mb->base, mb->npages, o->page_size,
			      &r->census)) {
		fprintf(err, PROG_NAME ": out of memory for the folio census\n");
		return -1;
	}
	if (r->census.known) {
		entries_of(mb, &r->census);
	} else {
		mb->nentries = o->bytes / folio;
		for (i = 0; i < mb->nentries; i++)
			mb->pages[i] = mb->base + i * folio;
	}
	/* mbind() held: every page on the source node */
	for (i = 0; i < mb->nentries; i++)
		mb->status[i] = r->src_node;
	snprintf(what, sizeof(what), "after the fill, on --src-node%s",
		 mover_tag(mover, tag, sizeof(tag)));
	return verify_on(mb, o->bytes, r->src_node, true, what, err);
}

/*
 * refresh_entries() - the next move's entries, one a folio, from a new
 * census after each move: the kernel may split a large folio it migrates
 * (7.3 does with 64 KB and 1 MB ones here), an entry for the head alone
 * would then leave the other pages behind, and the folios a row moved are
 * those that arrived. The folios at the start stay in @r->census;
 * @r->folios_end has the latest count. 0, or -1 when out of memory.
 */
static int refresh_entries(const struct bench_opts *o,
			   struct migrate_result *r, struct migrate_buf *mb,
			   FILE *err)
{
	struct folio_census c = { 0 };

	if (!r->census.known)
		return 0;
	if (folio_census_read(mb->root, mb->base, mb->npages, o->page_size,
			      &c)) {
		fprintf(err, PROG_NAME ": out of memory for the folio census\n");
		return -1;
	}
	if (c.known) {
		r->folios_end = c.folios;
		entries_of(mb, &c);
	}
	folio_census_free(&c);
	return 0;
}

/* ---------------------------------------------------------------- */
/* The movers                                                       */
/* ---------------------------------------------------------------- */


static int write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

/* read_full() - @len bytes; -1 at an error or the end of the pipe */
static int read_full(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

/*
 * mover_do() - a mover's part of a move: every entry to the target node,
 * verified (move_pages()' status, every page's node, the pattern with
 * ->data), the entries counted again; back on --src-node, the pattern
 * written again when it was not checked. Its answer in @d.
 */
static int mover_do(const struct bench_opts *o, struct migrate_result *r,
		    struct migrate_buf *mb, const struct mover_cmd *c,
		    unsigned int mover, struct mover_done *d, FILE *err)
{
	bool back = c->op == MOVER_BACK;
	int node = back ? r->src_node : r->dst_node;
	char tag[32], what[128];

	memset(d, 0, sizeof(*d));
	snprintf(what, sizeof(what), "run %u, %s, %s %d%s", c->run,
		 prep_mode_name(c->prep_mode),
		 back ? "back to --src-node" : "to --dst-node", node,
		 mover_tag(mover, tag, sizeof(tag)));
	if (move(mb, node, &d->t0, &d->ns, what, err) ||
	    verify_on(mb, o->bytes, node, c->data, what, err) ||
	    /* the folios moved: those on the node, split ones each counted */
	    refresh_entries(o, r, mb, err))
		return -1;
	d->entries = mb->nentries;
	/* the pattern again for the next row, after one that did not copy */
	if (back && !c->data)
		migrate_fill(mb->base, o->bytes, mb->seed);
	d->ok = 1;
	return 0;
}

/*
 * mover_child() - a forked mover @mover of @parent: its commands until the
 * end of its pipe or MOVER_QUIT
 */
static _Noreturn void mover_child(const char *root, const struct bench_opts *o,
				  struct migrate_result *r, pid_t parent,
				  unsigned int mover, int cmd, int done, int go)
{
	static const int ignored[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	struct migrate_buf mb = { 0 };
	struct mover_cmd c;
	struct mover_done d;
	int status = 0;
	size_t i;
	char b;

	for (i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++)
		signal(ignored[i], SIG_IGN);
	/* the parent gone, nothing would end this one */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	while (!read_full(cmd, &c, sizeof(c)) && c.op != MOVER_QUIT) {
		if (write_full(done, "r", 1) || read_full(go, &b, 1)) {
			status = 1;
			break;
		}
		if (c.op == MOVER_SETUP) {
			memset(&d, 0, sizeof(d));
			d.ok = !migrate_buf_setup(root, o, r, &mb, mover, stderr);
			if (!d.ok)
				fprintf(stderr, PROG_NAME ": mover %u of --movers %u: its buffer could not be set up\n",
					mover, o->movers);
		} else {
			mover_do(o, r, &mb, &c, mover, &d, stderr);
		}
		if (!d.ok)
			status = 1;
		if (write_full(done, &d, sizeof(d))) {
			status = 1;
			break;
		}
	}
	migrate_buf_free(&mb);
	folio_census_free(&r->census);
	_exit(status);
}

/*
 * migrate_movers_start() - fork the movers beyond the first (none without
 * --movers), before any buffer is mapped; @fd, the debugfs file, is the
 * parent's alone. 0, or -1 after saying why.
 */
int migrate_movers_start(const char *root, const struct bench_opts *o,
			 struct migrate_result *r, int fd, struct movers *mv,
			 FILE *err)
{
	int go[2], cmd[2], done[2];
	pid_t pid, parent = getpid();
	unsigned int i, k;

	mv->tagged = o->movers > 1;
	if (o->movers < 2)
		return 0;
	if (pipe(go)) {
		fprintf(err, PROG_NAME ": --movers: pipe(): %s\n",
			strerror(errno));
		return -1;
	}
	mv->go = go[1];
	fflush(stdout);
	fflush(err);
	for (i = 2; i <= o->movers; i++) {
		if (pipe(cmd)) {
			fprintf(err, PROG_NAME ": --movers: pipe(): %s\n",
				strerror(errno));
			break;
		}
		if (pipe(done)) {
			fprintf(err, PROG_NAME ": --movers: pipe(): %s\n",
				strerror(errno));
			close(cmd[0]);
			close(cmd[1]);
			break;
		}
		pid = fork();
		if (!pid) {
			/* the child: its own ends and the start pipe's */
			close(cmd[1]);
			close(done[0]);
			close(go[1]);
			for (k = 0; k < mv->n; k++) {
				close(mv->cmd[k]);
				close(mv->done[k]);
			}
			if (fd >= 0)
				close(fd);
			mover_child(root, o, r, parent, i, cmd[0], done[1],
				    go[0]);
		}
		close(cmd[0]);
		close(done[1]);
		if (pid < 0) {
			fprintf(err, PROG_NAME ": --movers %u: fork() of mover %u: %s\n",
				o->movers, i, strerror(errno));
			close(cmd[1]);
			close(done[0]);
			break;
		}
		mv->pid[mv->n] = pid;
		mv->cmd[mv->n] = cmd[1];
		mv->done[mv->n++] = done[0];
	}
	close(go[0]);
	return mv->n == o->movers - 1 ? 0 : -1;
}

/* mover_lost() - child @k did not answer; -1 */
static int mover_lost(const struct movers *mv, unsigned int k, FILE *err)
{
	fprintf(err, PROG_NAME ": mover %u of --movers %u stopped answering (did it die? see above)\n",
		k + 2, mv->n + 1);
	return -1;
}

/*
 * migrate_movers_step() - command @c by every mover at once: the children started
 * with the process's own move (none for MOVER_SETUP: the process set its
 * buffer up before). Their sum in @res; 0, or -1 when a mover failed
 * (having said why) or did not answer.
 */
int migrate_movers_step(struct movers *mv, const struct bench_opts *o,
			struct migrate_result *r, const struct mover_cmd *c,
			struct movers_result *res, FILE *err)
{
	struct mover_done d[MOVERS_MAX];
	uint64_t first = UINT64_MAX, last = 0;
	char go[MOVERS_MAX];
	unsigned int k;
	int ret = 0;

	memset(res, 0, sizeof(*res));
	for (k = 0; k < mv->n; k++)
		if (write_full(mv->cmd[k], c, sizeof(*c)) ||
		    read_full(mv->done[k], go, 1))
			return mover_lost(mv, k, err);
	memset(go, 'g', sizeof(go));
	if (mv->n && write_full(mv->go, go, mv->n))
		return mover_lost(mv, 0, err);
	if (c->op == MOVER_SETUP) {
		memset(&d[0], 0, sizeof(d[0]));
		d[0].ok = 1;
	} else {
		mover_do(o, r, mv->mb, c, mv->tagged ? 1 : 0, &d[0], err);
	}
	for (k = 0; k < mv->n; k++)
		if (read_full(mv->done[k], &d[k + 1], sizeof(d[0])))
			return mover_lost(mv, k, err);
	for (k = 0; k <= mv->n; k++) {
		if (!d[k].ok) {
			ret = -1;
			continue;
		}
		if (d[k].t0 < first)
			first = d[k].t0;
		if (d[k].t0 + d[k].ns > last)
			last = d[k].t0 + d[k].ns;
		res->busy_ns += d[k].ns;
		res->entries += d[k].entries;
	}
	if (!ret && c->op != MOVER_SETUP)
		res->wall_ns = last - first;
	return ret;
}

/*
 * migrate_movers_stop() - the children told to quit and waited for; 0, or -1
 * after saying which one ended otherwise than it should
 */
int migrate_movers_stop(struct movers *mv, bool failed, FILE *err)
{
	struct mover_cmd c = { .op = MOVER_QUIT };
	unsigned int k;
	int ret = 0, status;

	for (k = 0; k < mv->n; k++) {
		write_full(mv->cmd[k], &c, sizeof(c));
		close(mv->cmd[k]);
		close(mv->done[k]);
	}
	if (mv->go >= 0)
		close(mv->go);
	mv->go = -1;
	for (k = 0; k < mv->n; k++) {
		while (waitpid(mv->pid[k], &status, 0) < 0 && errno == EINTR)
			;
		if (WIFSIGNALED(status)) {
			fprintf(err, PROG_NAME ": mover %u of --movers %u was killed by signal %d (%s)\n",
				k + 2, mv->n + 1, WTERMSIG(status),
				strsignal(WTERMSIG(status)));
			ret = -1;
		} else if (!failed && WEXITSTATUS(status)) {
			fprintf(err, PROG_NAME ": mover %u of --movers %u exited with status %d\n",
				k + 2, mv->n + 1, WEXITSTATUS(status));
			ret = -1;
		}
	}
	mv->n = 0;
	return ret;
}

/* one row's move there and back; the timed figures into @row past warm-up */
