// SPDX-License-Identifier: GPL-2.0-only
/*
 * migrate mode. A run: the nodes checked, the THP controls set, --bytes of
 * anonymous memory mapped, bound to --src-node (mbind()), faulted in by
 * writing the pattern, its folios counted; then, row after row in rotating
 * order, move_pages() to --dst-node timed (with the offload START'ed for
 * an offload row, its STATS cleared before and read after), verified
 * (move_pages()' status, the node of every page, the pattern), and moved
 * back untimed, verified the same. With --movers N, N processes make
 * every move at once, each with a buffer of its own, each verifying its
 * own (the movers, below). Everything set is undone on every way out,
 * SIGINT and SIGTERM included (they end the run between two moves).
 *
 * The system calls are made through syscall(), with no libnuma: the host
 * tests take the place of syscall(), open() and ioctl() (test_migrate_run.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/mempolicy.h>

#include "diag.h"
#include "migrate.h"
#include "units.h"

_Static_assert(sizeof(struct dma_migrate_offload) ==
	       DMA_MIGRATE_OFFLOAD_SIZE_VER2,
	       "struct dma_migrate_offload changed size: bump the ABI version");

#define PREP_OFFLOAD	(DMAENGINE_BENCH_PREP_MEMCPY | \
			 DMAENGINE_BENCH_PREP_MEMCPY_SG | \
			 DMAENGINE_BENCH_PREP_MEMCPY_VEC)
#define NS_PER_MS	1e6
#define NS_PER_US	1e3

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

uint64_t migrate_folio_bytes(const struct migrate_result *r, long page_size)
{
	return (uint64_t)page_size << r->folio_order;
}

#define PHASE_OFF(e, name, field) \
	[MPH_##e] = offsetof(struct dma_migrate_offload, field),
/* the fields of struct dma_migrate_offload of the phases STATS has */
static const size_t phase_off[MPH_NR] = {
	MIGRATE_STATS_PHASES(PHASE_OFF)
};
#undef PHASE_OFF

void migrate_phases_ns(const struct dma_migrate_offload *st, double *ns)
{
	int p;

	/* MIGRATE_PHASES: the batch first, other last */
	for (p = 0; p < MPH_OTHER; p++)
		ns[p] = *(const __u64 *)((const char *)st + phase_off[p]);
	ns[MPH_OTHER] = ns[MPH_BATCH];
	for (p = MPH_BATCH + 1; p < MPH_OTHER; p++)
		ns[MPH_OTHER] -= ns[p];
}

void migrate_row_add(struct migrate_row *row, const struct migrate_move *mv,
		     const struct dma_migrate_offload *st)
{
	/* each scale's divisor, and its unit: ns to ms a move, to us */
	double per[MSC_NR], ns[MPH_NR];
	int p, sc;

	stat_add(&row->move_ms, mv->wall_ns / NS_PER_MS);
	stat_add(&row->gbps, mv->wall_ns ? (double)mv->bytes / mv->wall_ns : 0);
	if (!st)
		return;
	row->channels_used = st->channels_used;
	stat_add(&row->offloaded, st->folios_offloaded);
	stat_add(&row->fallback, st->folios_fallback);
	stat_add(&row->declined, st->folios_declined);
	stat_add(&row->batches, st->batches);
	stat_add(&row->declined_batches, st->batches_declined);
	stat_add(&row->errors, st->errors);
	migrate_phases_ns(st, ns);
	per[MSC_MOVE] = NS_PER_MS;
	per[MSC_BATCH] = st->batches * NS_PER_US;
	per[MSC_FOLIO] = st->folios * NS_PER_US;
	/* no batch (no folio): 0 a batch, as 0 a move */
	for (sc = 0; sc < MSC_NR; sc++)
		for (p = 0; p < MPH_NR; p++)
			stat_add(&row->phase[sc][p], per[sc] ? ns[p] / per[sc] : 0);
	stat_add(&row->copy_share, mv->busy_ns ?
		 (double)st->ph.batch_ns / mv->busy_ns : 0);
}

bool migrate_fell_back(const struct migrate_result *r, long page_size)
{
	uint64_t folio = migrate_folio_bytes(r, page_size);

	if (r->fault_stats && r->fault_fallback)
		return true;
	if (r->census.known)
		return r->census.count[r->folio_order] != r->census.folios;
	/* smaps counts only PMD-mapped THP */
	return r->folio_order && folio == (2ULL << 20) && r->smaps.found &&
	       r->smaps.anon_huge_kb < r->bytes >> 10;
}

const char *migrate_offload_line(const struct migrate_result *r)
{
	switch (r->offload) {
	case OFFLOAD_NO_FILE:
		return "offload: not run: no " DMAENGINE_BENCH_PATH " (load the project's dma_map_benchmark.ko); the offload also needs a kernel with the project's kernel/patches/v7.3-migrate/ series";
	case OFFLOAD_NO_IOCTL:
		return "offload: not run: the loaded dma_map_benchmark module has no DMA_MIGRATE_OFFLOAD (load the module built from this tree); the offload also needs a kernel with the project's kernel/patches/v7.3-migrate/ series";
	case OFFLOAD_NO_HOOK:
		return "offload: not run: this kernel has no migration copy-offload hook; offload needs the project's kernel/patches/v7.3-migrate/ series";
	case OFFLOAD_READY:
	case OFFLOAD_NOT_ASKED:
		break;
	}
	return NULL;
}

/* ---------------------------------------------------------------- */
/* The offload: DMA_MIGRATE_OFFLOAD                                 */
/* ---------------------------------------------------------------- */

static int offload_op(int fd, unsigned int op, unsigned int flags,
		      const struct bench_opts *o, unsigned int prep_mode,
		      struct dma_migrate_offload *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->op = op;
	a->flags = flags;
	if (op == DMA_MIGRATE_OP_START) {
		a->prep_mode = prep_mode;
		a->channels = o->channels;
		a->reasons = DMA_MIGRATE_R_SYSCALL;
		a->timeout_ms = o->timeout_ms;
		memcpy(a->channel, o->channel, sizeof(a->channel));
		memcpy(a->device, o->device, sizeof(a->device));
		if (o->flags & DMAENGINE_BENCH_F_ALLOW_FEWER)
			a->flags |= DMA_MIGRATE_F_ALLOW_FEWER;
	}
	return ioctl(fd, DMA_MIGRATE_OFFLOAD, a) ? -errno : 0;
}

static const char *op_name(unsigned int op)
{
	return op == DMA_MIGRATE_OP_START ? "START" :
	       op == DMA_MIGRATE_OP_STOP ? "STOP" : "STATS";
}

/* print_offload_error() - DMA_MIGRATE_OFFLOAD @op failed with -@err */
static void print_offload_error(FILE *f, unsigned int op, int err,
				const struct dma_migrate_offload *a,
				const struct bench_opts *o,
				unsigned int prep_mode)
{
	fprintf(f, PROG_NAME ": DMA_MIGRATE_OFFLOAD %s (prep mode %s) failed: %s: ",
		op_name(op), prep_mode_name(prep_mode), strerror(-err));
	switch (a->error) {
	case DMAENGINE_BENCH_ERR_NO_CHANNEL:
		fprintf(f, "found fewer DMA_MEMCPY channels%s%.*s%s%.*s than --channels %u; --allow-fewer runs on those found; list them with ls /sys/class/dma\n",
			o->channel[0] ? " named " : "", DMAENGINE_BENCH_NAME_LEN,
			o->channel, o->device[0] ? " of device " : "",
			DMAENGINE_BENCH_NAME_LEN, o->device, o->channels);
		break;
	case DMAENGINE_BENCH_ERR_NO_API:
	case DMAENGINE_BENCH_ERR_NO_CAP:
		fprintf(f, "the kernel or the channel lacks prep mode %s; run without --prep-modes to leave out the modes missing here\n",
			prep_mode_name(prep_mode));
		break;
	case DMAENGINE_BENCH_ERR_INVAL:
		fprintf(f, "a field is out of range; see dmesg for the field the kernel refused\n");
		break;
	case DMAENGINE_BENCH_ERR_TIMEOUT:
		fprintf(f, "a batch did not complete in time; raise --timeout-ms\n");
		break;
	case DMAENGINE_BENCH_ERR_UNBOUND:
		fprintf(f, "the DMA provider was unbound\n");
		break;
	case DMAENGINE_BENCH_OK:
		fprintf(f, "%s\n", err == -EBUSY ?
			"another offload is registered with the hook (another process?)" :
			"see dmesg");
		break;
	default:
		fprintf(f, "error %u from the kernel; see dmesg\n", a->error);
		break;
	}
}

/*
 * no_hook() - START's answer says the kernel has no copy-offload hook:
 * ->hook NONE (every op sets it), or EOPNOTSUPP for no prep mode's reason.
 * EOPNOTSUPP with DMAENGINE_BENCH_ERR_NO_API or _NO_CAP and a hook is the
 * prep mode missing, as in the dmaengine mode.
 */
static bool no_hook(int err, const struct dma_migrate_offload *a)
{
	return a->hook == DMA_MIGRATE_HOOK_NONE ||
	       (err == -EOPNOTSUPP && a->error != DMAENGINE_BENCH_ERR_NO_API &&
		a->error != DMAENGINE_BENCH_ERR_NO_CAP);
}

/*
 * probe_offload() - START and STOP each offload mode asked for once: which
 * can run. @r->offload, ->hook, ->missing set; 0, or -1 after an error.
 */
static int probe_offload(int fd, const struct bench_opts *o,
			 struct migrate_result *r, FILE *err)
{
	struct dma_migrate_offload a;
	unsigned int i, mode;
	int ret;

	for (i = 0; i < DMAENGINE_BENCH_NR_MODES; i++) {
		mode = prep_mode_order[i];
		if (!(r->prep_modes & (1U << mode)))
			continue;
		ret = offload_op(fd, DMA_MIGRATE_OP_START, 0, o, mode, &a);
		r->hook = a.hook;
		if (ret == -ENOTTY) {
			r->offload = OFFLOAD_NO_IOCTL;
			return 0;
		}
		if ((ret && no_hook(ret, &a)) ||
		    (!ret && a.hook == DMA_MIGRATE_HOOK_NONE)) {
			if (!ret)
				offload_op(fd, DMA_MIGRATE_OP_STOP, 0, o, mode, &a);
			r->offload = OFFLOAD_NO_HOOK;
			return 0;
		}
		if (ret && !prep_modes_given(o) &&
		    (a.error == DMAENGINE_BENCH_ERR_NO_API ||
		     a.error == DMAENGINE_BENCH_ERR_NO_CAP)) {
			r->missing |= 1U << mode;
			r->missing_error[mode] = a.error;
			continue;
		}
		if (ret) {
			print_offload_error(err, DMA_MIGRATE_OP_START, ret, &a, o,
					    mode);
			return -1;
		}
		ret = offload_op(fd, DMA_MIGRATE_OP_STOP, 0, o, mode, &a);
		if (ret) {
			print_offload_error(err, DMA_MIGRATE_OP_STOP, ret, &a, o,
					    mode);
			return -1;
		}
	}
	r->offload = OFFLOAD_READY;
	return 0;
}

/* ---------------------------------------------------------------- */
/* The run                                                          */
/* ---------------------------------------------------------------- */

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

static void buf_free(struct migrate_buf *mb)
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
 * buf_setup() - map, advise, bind to @src, fill; count the folios into
 * @r; the move entries one per folio found (one per folio asked for when
 * the census cannot be read). @mover: which of --movers (from 1), 0 when
 * alone: its pattern its own, the first's MIGRATE_SEED.
 */
static int buf_setup(const char *root, const struct bench_opts *o,
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
			d.ok = !buf_setup(root, o, r, &mb, mover, stderr);
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
	buf_free(&mb);
	folio_census_free(&r->census);
	_exit(status);
}

/*
 * movers_start() - fork the movers beyond the first (none without
 * --movers), before any buffer is mapped; @fd, the debugfs file, is the
 * parent's alone. 0, or -1 after saying why.
 */
static int movers_start(const char *root, const struct bench_opts *o,
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
 * movers_step() - command @c by every mover at once: the children started
 * with the process's own move (none for MOVER_SETUP: the process set its
 * buffer up before). Their sum in @res; 0, or -1 when a mover failed
 * (having said why) or did not answer.
 */
static int movers_step(struct movers *mv, const struct bench_opts *o,
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
 * movers_stop() - the children told to quit and waited for; 0, or -1
 * after saying which one ended otherwise than it should
 */
static int movers_stop(struct movers *mv, bool failed, FILE *err)
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
static int run_row(int fd, const struct bench_opts *o, struct migrate_result *r,
		   struct movers *mv, struct migrate_row *row, bool timed,
		   unsigned int run, FILE *err)
{
	bool dma = row->prep_mode != DMAENGINE_BENCH_MODE_CPU;
	struct mover_cmd c = {
		.op = MOVER_TO_DST, .run = run, .prep_mode = row->prep_mode,
		/* --no-pattern-check: an offload row's data is not the pattern */
		.data = !dma || !o->no_pattern_check,
	};
	struct dma_migrate_offload a, st;
	struct movers_result res;
	int ret;

	if (dma) {
		ret = offload_op(fd, DMA_MIGRATE_OP_START, 0, o, row->prep_mode,
				 &a);
		if (ret) {
			print_offload_error(err, DMA_MIGRATE_OP_START, ret, &a,
					    o, row->prep_mode);
			return -1;
		}
		/* the counters of this move alone */
		ret = offload_op(fd, DMA_MIGRATE_OP_STATS, DMA_MIGRATE_F_RESET,
				 o, 0, &a);
		if (ret)
			goto stats_failed;
	}
	ret = movers_step(mv, o, r, &c, &res, err);
	if (dma) {
		int stop;

		if (!ret) {
			ret = offload_op(fd, DMA_MIGRATE_OP_STATS,
					 DMA_MIGRATE_F_RESET, o, 0, &st);
			if (ret) {
				a = st;
				goto stats_failed;
			}
		}
		stop = offload_op(fd, DMA_MIGRATE_OP_STOP, 0, o, 0, &a);
		if (stop) {
			print_offload_error(err, DMA_MIGRATE_OP_STOP, stop, &a,
					    o, row->prep_mode);
			return -1;
		}
	}
	if (ret)
		return -1;
	if (timed) {
		struct migrate_move m = {
			.bytes = o->bytes * (mv->n + 1),
			.wall_ns = res.wall_ns, .busy_ns = res.busy_ns,
		};

		row->folios = res.entries;
		migrate_row_add(row, &m, dma ? &st : NULL);
	}
	c.op = MOVER_BACK;
	return movers_step(mv, o, r, &c, &res, err);

stats_failed:
	print_offload_error(err, DMA_MIGRATE_OP_STATS, ret, &a, o,
			    row->prep_mode);
	offload_op(fd, DMA_MIGRATE_OP_STOP, 0, o, 0, &a);
	return -1;
}

static int run_rows(int fd, const struct bench_opts *o,
		    struct migrate_result *r, struct movers *mv, FILE *err)
{
	unsigned int total = o->warmup_runs + o->runs, run, k;

	for (run = 0; run < total; run++) {
		for (k = 0; k < r->nrows; k++) {
			struct migrate_row *row =
				&r->rows[rotation_index(run, k, r->nrows)];

			if (run_row(fd, o, r, mv, row, run >= o->warmup_runs,
				    run, err))
				return -1;
			if (stop_signal) {
				fprintf(err, PROG_NAME ": stopped by signal %d (%s); the folios are back on --src-node, the THP controls restored\n",
					(int)stop_signal,
					strsignal(stop_signal));
				return -1;
			}
		}
	}
	return 0;
}

unsigned int migrate_row_modes(unsigned int prep_modes, unsigned int *modes)
{
	unsigned int i, mode, n = 0;

	modes[n++] = DMAENGINE_BENCH_MODE_CPU;
	for (i = 0; i < DMAENGINE_BENCH_NR_MODES; i++) {
		mode = prep_mode_order[i];
		if (prep_modes & PREP_OFFLOAD & (1U << mode))
			modes[n++] = mode;
	}
	return n;
}

static void setup_rows(struct migrate_result *r)
{
	unsigned int modes[DMAENGINE_BENCH_NR_MODES], i, n;

	n = migrate_row_modes(r->offload == OFFLOAD_READY ?
			      r->prep_modes & ~r->missing : 0, modes);
	for (r->nrows = 0, i = 0; i < n; i++)
		r->rows[r->nrows++].prep_mode = modes[i];
}

int migrate_run_in(const char *root, const struct bench_opts *o,
		   const struct report_ctx *ctx)
{
	static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_stop_signal }, old[3];
	struct migrate_result *r = calloc(1, sizeof(*r));
	struct report_ctx rctx = *ctx;
	struct migrate_buf mb = { 0 };
	struct movers mv = { .mb = &mb, .go = -1 };
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_pipe;
	struct cpufreq_info freq;
	struct thp_controls thp;
	const char *folio_opt = "folio-order";
	int fd = -1, ret = 1;
	size_t i;

	if (!r) {
		perror(PROG_NAME ": the result");
		return 1;
	}
	memset(&thp, 0, sizeof(thp));
	if (migrate_check_nodes(root, o, &r->src_node, &r->dst_node, stderr)) {
		free(r);
		return 2;
	}
	r->bytes = o->bytes;
	r->folio_order = o->folio_order;
	r->runs = o->runs;
	r->warmup_runs = o->warmup_runs;
	r->channels = o->channels;
	r->timeout_ms = o->timeout_ms;
	r->movers = o->movers;
	r->prep_modes = o->prep_modes & PREP_OFFLOAD;

	if (!r->prep_modes) {
		r->offload = OFFLOAD_NOT_ASKED;
	} else {
		fd = open(DMAENGINE_BENCH_PATH, O_RDWR);
		if (fd < 0)
			r->offload = OFFLOAD_NO_FILE;
		else if (probe_offload(fd, o, r, stderr))
			goto out;
	}
	setup_rows(r);
	read_cpufreq(root, NULL, 0, &freq);
	rctx.cpufreq = &freq;

	stop_signal = 0;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < 3; i++)
		sigaction(stop_signals[i], &sa, &old[i]);
	/* a mover gone: an error from write(), not the end of the run */
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &old_pipe);
	/* a kernel without madvise(): the THP controls and prctl() instead */
	r->no_madvise = madvise(NULL, 0, MADV_NORMAL) && errno == ENOSYS;
	if (thp_controls_set(&thp, root, folio_bytes(o), o->page_size,
			     !r->no_madvise, folio_opt, stderr)) {
		ret = 2;
		goto out_signals;
	}
	snprintf(r->thp_set, sizeof(r->thp_set), "%s", thp.set);
	r->have_size_control = thp.have_size_control;
	/* the other movers first, before this one maps its buffer */
	if (movers_start(root, o, r, fd, &mv, stderr) ||
	    buf_setup(root, o, r, &mb, mv.tagged ? 1 : 0, stderr) ||
	    movers_step(&mv, o, r, &(struct mover_cmd){ .op = MOVER_SETUP },
			&(struct movers_result){ 0 }, stderr) ||
	    run_rows(fd, o, r, &mv, stderr))
		goto out_movers;
	ret = 0;
out_movers:
	if (movers_stop(&mv, ret, stderr))
		ret = 1;
	buf_free(&mb);
	if (thp_controls_restore(&thp, stderr))
		ret = 1;
out_signals:
	for (i = 0; i < 3; i++)
		sigaction(stop_signals[i], &old[i], NULL);
	sigaction(SIGPIPE, &old_pipe, NULL);
	if (!ret)
		report_migrate(stdout, &rctx, o, r);
out:
	folio_census_free(&r->census);
	if (fd >= 0)
		close(fd);
	free(r);
	return ret;
}

int migrate_run(const struct bench_opts *o, const struct report_ctx *ctx)
{
	return migrate_run_in("", o, ctx);
}
