// SPDX-License-Identifier: GPL-2.0-only
/*
 * migrate mode. A run: the nodes checked, the THP controls set, --bytes of
 * anonymous memory mapped, bound to --src-node (mbind()), faulted in by
 * writing the pattern, its folios counted; then, row after row in rotating
 * order, move_pages() to --dst-node timed (with the offload started for
 * an offload row through dma_migrate.ko's controls, migrate_ctl.c, its
 * counters cleared before and read after), verified
 * (move_pages()' status, the node of every page, the pattern), and moved
 * back untimed, verified the same. With --movers N, N processes make
 * every move at once, each with a buffer of its own, each verifying its
 * own (migrate_movers.c). Everything set is undone on every way out,
 * SIGINT and SIGTERM included (they end the run between two moves).
 *
 * The system calls are made through syscall(), with no libnuma: the host
 * tests take the place of syscall(), open() and write()
 * (test_migrate_run.c).
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

#include "diag.h"
#include "migrate.h"
#include "migrate_ctl.h"
#include "migrate_movers.h"
#include "units.h"

_Static_assert(sizeof(struct dma_migrate_offload) ==
	       DMA_MIGRATE_OFFLOAD_SIZE_VER4,
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

#define PHASE_OFF(e, name, field, owner) \
	[MPH_##e] = offsetof(struct dma_migrate_offload, field),
/* the fields of struct dma_migrate_offload of the phases STATS has */
static const size_t phase_off[MPH_NR] = {
	MIGRATE_STATS_PHASES(PHASE_OFF)
};
#undef PHASE_OFF

#define PHASE_OWNER(e, name, field, owner)	[MPH_##e] = owner,
static const enum migrate_owner phase_owner[MPH_NR] = {
	MIGRATE_PHASES(PHASE_OWNER)
};
#undef PHASE_OWNER

#define PHASE_ID(e, name, field, owner)	[MPH_##e] = DMAENGINE_BENCH_PH_##e,
static const unsigned int phase_id[MPH_NR] = {
	MIGRATE_STATS_PHASES(PHASE_ID)
};
#undef PHASE_ID

unsigned int migrate_phase_id(int p)
{
	return phase_id[p];
}

void migrate_phases_known(const struct dma_migrate_offload *st, bool *known)
{
	uint64_t mask = st->phases ? st->phases : DMA_MIGRATE_PHASES_VER3;
	int p;

	known[MPH_OTHER] = true;
	for (p = 0; p < MPH_OTHER; p++) {
		known[p] = mask & DMAENGINE_BENCH_PHASE_BIT(phase_id[p]);
		known[MPH_OTHER] = known[MPH_OTHER] && known[p];
	}
}

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
	double per[MSC_NR], ns[MPH_NR], owned[MOW_NR] = { 0 };
	bool known[MPH_NR];
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
	migrate_phases_known(st, known);
	/* known in every run: a run of a kernel that did not fill it is not */
	for (p = 0; p < MPH_NR; p++)
		row->phase_known[p] = known[p] &&
			(row->phase_known[p] || !row->phase[MSC_MOVE][p].n);
	per[MSC_MOVE] = NS_PER_MS;
	per[MSC_BATCH] = st->batches * NS_PER_US;
	per[MSC_FOLIO] = st->folios * NS_PER_US;
	/* no batch (no folio): 0 a batch, as 0 a move */
	for (sc = 0; sc < MSC_NR; sc++)
		for (p = 0; p < MPH_NR; p++)
			stat_add(&row->phase[sc][p], per[sc] ? ns[p] / per[sc] : 0);
	stat_add(&row->copy_share, mv->busy_ns ?
		 (double)st->ph.batch_ns / mv->busy_ns : 0);
	for (p = 0; p < MPH_NR; p++)
		owned[phase_owner[p]] += ns[p];
	for (p = MOW_NONE + 1; p < MOW_NR; p++)
		stat_add(&row->share[p], mv->busy_ns ? owned[p] / mv->busy_ns : 0);
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
		return "offload: not run: dma_migrate is not loaded (insmod dma_migrate.ko, after dmacopy.ko); the offload also needs a kernel with the project's kernel/patches/v7.3-migrate/ series";
	case OFFLOAD_NO_IOCTL:
		return "offload: not run: the loaded dma_migrate module has no " DMA_MIGRATE_SYSFS " (load the module built from this tree); the offload also needs a kernel with the project's kernel/patches/v7.3-migrate/ series";
	case OFFLOAD_NO_HOOK:
		return "offload: not run: this kernel has no migration copy-offload hook; offload needs the project's kernel/patches/v7.3-migrate/ series";
	case OFFLOAD_READY:
	case OFFLOAD_NOT_ASKED:
		break;
	}
	return NULL;
}

/* ---------------------------------------------------------------- */
/* The offload: dma_migrate.ko's controls (migrate_ctl.c)           */
/* ---------------------------------------------------------------- */

static int offload_op(const char *root, unsigned int op, unsigned int flags,
		      const struct bench_opts *o, unsigned int prep_mode,
		      struct dma_migrate_offload *a)
{
	struct dma_migrate_offload req = {
		.prep_mode = prep_mode,
		.channels = o->channels,
		.reasons = DMA_MIGRATE_R_SYSCALL,
		.timeout_ms = o->timeout_ms,
	};

	memcpy(req.channel, o->channel, sizeof(req.channel));
	memcpy(req.device, o->device, sizeof(req.device));
	if (op == DMA_MIGRATE_OP_START &&
	    (o->flags & DMAENGINE_BENCH_F_ALLOW_FEWER))
		flags |= DMA_MIGRATE_F_ALLOW_FEWER;
	return migrate_ctl_op(root, op, flags, &req, a);
}

static const char *op_name(unsigned int op)
{
	return op == DMA_MIGRATE_OP_START ? "start (offloading=1)" :
	       op == DMA_MIGRATE_OP_STOP ? "stop (offloading=0)" :
	       "stats";
}

/* print_offload_error() - the offload's @op failed with -@err */
static void print_offload_error(FILE *f, unsigned int op, int err,
				const struct dma_migrate_offload *a,
				const struct bench_opts *o,
				unsigned int prep_mode)
{
	fprintf(f, PROG_NAME ": dma_migrate %s (prep mode %s) failed: %s: ",
		op_name(op), prep_mode_name(prep_mode), strerror(-err));
	if (migrate_ctl_last_error()[0])
		fprintf(f, "%s: ", migrate_ctl_last_error());
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
		fprintf(f, "a parameter is out of range; " DMA_MIGRATE_SYSFS "/last_error names it\n");
		break;
	case DMAENGINE_BENCH_ERR_TIMEOUT:
		fprintf(f, "a batch did not complete in time; raise --timeout-ms\n");
		break;
	case DMAENGINE_BENCH_ERR_UNBOUND:
		fprintf(f, "the DMA provider was unbound\n");
		break;
	case DMAENGINE_BENCH_OK:
		fprintf(f, "%s\n", err == -EBUSY ?
			"the offload is on already, or another offload is registered with the hook (another process?)" :
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
static int probe_offload(const char *root, const struct bench_opts *o,
			 struct migrate_result *r, FILE *err)
{
	struct dma_migrate_offload a;
	unsigned int i, mode, hook;
	int ret;

	switch (migrate_ctl_state(root, &hook)) {
	case MIGRATE_CTL_NOT_LOADED:
		r->offload = OFFLOAD_NO_FILE;
		if (!prep_modes_given(o))
			return 0;
		fprintf(err, PROG_NAME ": --prep-modes asks for the offload, and dma_migrate is not loaded: insmod dma_migrate.ko (after dmacopy.ko), or run without --prep-modes for the cpu row alone\n");
		return -1;
	case MIGRATE_CTL_NO_SYSFS:
		r->offload = OFFLOAD_NO_IOCTL;
		return 0;
	case MIGRATE_CTL_ON:
		fprintf(err, PROG_NAME ": dma_migrate's offload is on already (" DMA_MIGRATE_PARAMS "/offloading is 1): its counters would mix with another user's; write 0 to it first\n");
		return -1;
	case MIGRATE_CTL_READY:
		break;
	}
	r->hook = hook;
	for (i = 0; i < DMAENGINE_BENCH_NR_MODES; i++) {
		mode = prep_mode_order[i];
		if (!(r->prep_modes & (1U << mode)))
			continue;
		ret = offload_op(root, DMA_MIGRATE_OP_START, 0, o, mode, &a);
		r->hook = a.hook;
		if ((ret && no_hook(ret, &a)) ||
		    (!ret && a.hook == DMA_MIGRATE_HOOK_NONE)) {
			if (!ret)
				offload_op(root, DMA_MIGRATE_OP_STOP, 0, o, mode,
					   &a);
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
		ret = offload_op(root, DMA_MIGRATE_OP_STOP, 0, o, mode, &a);
		if (ret) {
			print_offload_error(err, DMA_MIGRATE_OP_STOP, ret, &a, o,
					    mode);
			return -1;
		}
	}
	r->offload = OFFLOAD_READY;
	return 0;
}

static int run_row(const char *root, const struct bench_opts *o, struct migrate_result *r,
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
		ret = offload_op(root, DMA_MIGRATE_OP_START, 0, o,
				 row->prep_mode, &a);
		if (ret) {
			print_offload_error(err, DMA_MIGRATE_OP_START, ret, &a,
					    o, row->prep_mode);
			return -1;
		}
		/* the counters of this move alone */
		ret = offload_op(root, DMA_MIGRATE_OP_STATS,
				 DMA_MIGRATE_F_RESET, o, 0, &a);
		if (ret)
			goto stats_failed;
	}
	ret = migrate_movers_step(mv, o, r, &c, &res, err);
	if (dma) {
		int stop;

		if (!ret) {
			ret = offload_op(root, DMA_MIGRATE_OP_STATS,
					 DMA_MIGRATE_F_RESET, o, 0, &st);
			if (ret) {
				a = st;
				goto stats_failed;
			}
		}
		stop = offload_op(root, DMA_MIGRATE_OP_STOP, 0, o, 0, &a);
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
	return migrate_movers_step(mv, o, r, &c, &res, err);

stats_failed:
	print_offload_error(err, DMA_MIGRATE_OP_STATS, ret, &a, o,
			    row->prep_mode);
	offload_op(root, DMA_MIGRATE_OP_STOP, 0, o, 0, &a);
	return -1;
}

static int run_rows(const char *root, const struct bench_opts *o,
		    struct migrate_result *r, struct movers *mv, FILE *err)
{
	unsigned int total = o->warmup_runs + o->runs, run, k;

	for (run = 0; run < total; run++) {
		for (k = 0; k < r->nrows; k++) {
			struct migrate_row *row =
				&r->rows[rotation_index(run, k, r->nrows)];

			if (run_row(root, o, r, mv, row, run >= o->warmup_runs,
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
	int ret = 1;
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

	if (!r->prep_modes)
		r->offload = OFFLOAD_NOT_ASKED;
	else if (probe_offload(root, o, r, stderr))
		goto out;
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
	if (migrate_movers_start(root, o, r, -1, &mv, stderr) ||
	    migrate_buf_setup(root, o, r, &mb, mv.tagged ? 1 : 0, stderr) ||
	    migrate_movers_step(&mv, o, r,
				&(struct mover_cmd){ .op = MOVER_SETUP },
				&(struct movers_result){ 0 }, stderr) ||
	    run_rows(root, o, r, &mv, stderr))
		goto out_movers;
	ret = 0;
out_movers:
	if (migrate_movers_stop(&mv, ret, stderr))
		ret = 1;
	migrate_buf_free(&mb);
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
	free(r);
	return ret;
}

int migrate_run(const struct bench_opts *o, const struct report_ctx *ctx)
{
	return migrate_run_in("", o, ctx);
}
