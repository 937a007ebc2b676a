// SPDX-License-Identifier: GPL-2.0-only
/*
 * migrate_run_in() end to end against a made-up kernel: this program
 * defines open(), ioctl() and syscall(), which take the place of the C
 * library's for the tool's objects linked into it. Its move_pages() keeps
 * a node per page and moves whole folios; its DMA_MIGRATE_OFFLOAD answers
 * as the ABI's comments say a provider does (or as a kernel without the
 * hook, a module without the ioctl, a kernel without memcpy_sg); the
 * /sys files are a made-up tree. Checked: the ioctl sequence (START,
 * STATS with F_RESET around each timed move, STOP; rows in rotating
 * order), the START request's fields, the report's rows and '#' lines,
 * the one line without the offload, the THP controls set during the run
 * and restored after it (also after an error and a SIGINT), and the
 * verification failing, naming the page, on a wrong node or corrupt data.
 * The offload's phases from a fixed STATS answer: in the text, JSON and
 * CSV, at each scale (a move, a batch, a folio) the phases and "other"
 * add up to the batch time within the rounding, other is what the answer
 * leaves outside the phases, and the figures a batch and a folio are a
 * move's over STATS' batches and folios.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "migrate.h"
#include "options.h"
#include "tap.h"
#include "tool_words.h"

enum fake_kind { K_HOOK, K_NO_HOOK, K_NO_IOCTL, K_NO_FILE, K_NO_SG };

#define PAGE		4096
#define MAX_PAGES	1024

static struct {
	enum fake_kind kind;
	char *base;
	size_t pages;
	int node[MAX_PAGES];
	unsigned int folio_pages;	/* a move moves this many pages */
	unsigned int moves;
	int wrong_on_move;		/* after this move, page 2 on node 7 */
	int corrupt_on_move;		/* after this move, a byte flipped */
	int signal_on_move;		/* during this move, SIGINT */
	bool only_children;		/* the two above: in a forked mover */
	pid_t parent;			/* the process the test runs in */
	char log[4096];			/* each process its own */
	struct dma_migrate_offload start;	/* the last START */
	char thp_during[64];		/* the 64 KB control at mbind() */
} fake;

/*
 * What every mover's moves change, in memory the forked movers share:
 * the offload's state and counters; for --movers, the movers inside
 * move_pages() at once at each of their moves
 */
#define MAX_STEPS	64
static struct fake_shared {
	bool started;
	uint64_t pending;		/* folios moved since the last RESET */
	unsigned int child_moves;	/* moves by forked movers */
	unsigned int together;		/* --movers: at once, to wait for */
	unsigned int arrived[MAX_STEPS];	/* in move_pages() at step k */
	unsigned int apart;		/* steps a mover waited for in vain */
} *shared;

static void fake_log(const char *s)
{
	snprintf(fake.log + strlen(fake.log), sizeof(fake.log) - strlen(fake.log),
		 "%s%s", fake.log[0] ? " " : "", s);
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	int fd;

	if (!strcmp(path, "/sys/kernel/debug/dmaengine_benchmark")) {
		if (fake.kind == K_NO_FILE) {
			errno = ENOENT;
			return -1;
		}
		return openat(AT_FDCWD, "/dev/null", O_RDWR);
	}
	va_start(ap, flags);
	fd = tap_open_through(path, flags, ap);
	va_end(ap);
	return fd;
}

/*
 * The phases of a move's STATS: 3 batches of 2 ms in all, 1.89 ms of them
 * in the phases STATS times, 0.11 ms in none ("other")
 */
#define FAKE_BATCHES	3
#define FAKE_BATCH_NS	2000000
#define FAKE_OTHER_NS	110000

static void fake_phases(struct dma_migrate_offload *a)
{
	a->batches = FAKE_BATCHES;
	a->ph.batch_ns = FAKE_BATCH_NS;
	a->build_ns = 50000;
	a->ph.map_ns = 100000;
	a->ph.prep_ns = 120000;
	a->ph.submit_ns = 30000;
	a->ph.issue_ns = 10000;
	a->ph.wait_ns = 1500000;
	a->ph.unmap_ns = 60000;
	a->mark_ns = 20000;
}

int ioctl(int fd, unsigned long req, ...)
{
	struct dma_migrate_offload *a;
	char word[16];
	va_list ap;

	(void)fd;
	va_start(ap, req);
	a = va_arg(ap, struct dma_migrate_offload *);
	va_end(ap);
	if (_IOC_TYPE(req) != 'd' || _IOC_NR(req) != 4 ||
	    fake.kind == K_NO_IOCTL) {
		errno = ENOTTY;
		return -1;
	}
	if (a->size != DMA_MIGRATE_OFFLOAD_SIZE_VER2) {
		errno = EINVAL;
		return -1;
	}
	a->hook = fake.kind == K_NO_HOOK ? DMA_MIGRATE_HOOK_NONE :
					    DMA_MIGRATE_HOOK_PROJECT;
	switch (a->op) {
	case DMA_MIGRATE_OP_START:
		snprintf(word, sizeof(word), "S%u", a->prep_mode);
		fake_log(word);
		if (fake.kind == K_NO_HOOK) {
			errno = EOPNOTSUPP;
			return -1;
		}
		if (fake.kind == K_NO_SG &&
		    a->prep_mode == DMAENGINE_BENCH_MODE_MEMCPY_SG) {
			a->error = DMAENGINE_BENCH_ERR_NO_API;
			errno = EOPNOTSUPP;
			return -1;
		}
		if (shared->started) {
			errno = EBUSY;
			return -1;
		}
		fake.start = *a;
		shared->started = true;
		a->active = 1;
		a->channels_used = a->channels;
		a->prep_mode_used = a->prep_mode;
		return 0;
	case DMA_MIGRATE_OP_STATS:
		fake_log(a->flags & DMA_MIGRATE_F_RESET ? "R" : "Q");
		a->active = shared->started;
		a->channels_used = fake.start.channels;
		a->folios = shared->pending;
		/* one folio a move left to the CPU */
		a->folios_offloaded = shared->pending ? shared->pending - 1 : 0;
		a->folios_fallback = shared->pending ? 1 : 0;
		if (shared->pending)
			fake_phases(a);
		if (a->flags & DMA_MIGRATE_F_RESET)
			shared->pending = 0;
		return 0;
	case DMA_MIGRATE_OP_STOP:
		fake_log("T");
		shared->started = false;
		return 0;
	}
	errno = EINVAL;
	return -1;
}

/*
 * wait_together() - at its move @step, a mover waits (up to 2 s) for the
 * others to be in move_pages() too; counted in ->apart when they are not
 */
static void wait_together(unsigned int step)
{
	unsigned int ms;

	__atomic_add_fetch(&shared->arrived[step], 1, __ATOMIC_SEQ_CST);
	for (ms = 0; ms < 2000; ms++) {
		if (__atomic_load_n(&shared->arrived[step], __ATOMIC_SEQ_CST) >=
		    shared->together)
			return;
		usleep(1000);
	}
	__atomic_add_fetch(&shared->apart, 1, __ATOMIC_SEQ_CST);
}

/* fake_inject() - after a move, what the test asked to go wrong */
static void fake_inject(void)
{
	if ((int)fake.moves == fake.wrong_on_move)
		fake.node[2] = 7;
	if ((int)fake.moves == fake.corrupt_on_move)
		fake.base[PAGE + 9] ^= 1;
	if ((int)fake.moves == fake.signal_on_move)
		raise(SIGINT);
}

static int *page_node(void *addr)
{
	size_t i = ((char *)addr - fake.base) / PAGE;

	return i < fake.pages ? &fake.node[i] : NULL;
}

long syscall(long nr, ...)
{
	va_list ap;
	long ret = 0;

	va_start(ap, nr);
	if (nr == SYS_mbind) {
		char *addr = va_arg(ap, char *);
		size_t len = va_arg(ap, size_t), i;
		int mode = va_arg(ap, int);
		unsigned long *mask = va_arg(ap, unsigned long *);

		(void)mode;
		fake.base = addr;
		fake.pages = len / PAGE < MAX_PAGES ? len / PAGE : MAX_PAGES;
		for (i = 0; i < fake.pages; i++)
			fake.node[i] = __builtin_ctzl(*mask);
		snprintf(fake.thp_during, sizeof(fake.thp_during), "%s",
			 tree_read_line(THP_DIR "/hugepages-64kB/enabled"));
	} else if (nr == SYS_move_pages) {
		long pid = va_arg(ap, long);
		unsigned long n = va_arg(ap, unsigned long), i, p;
		void **pages = va_arg(ap, void **);
		const int *nodes = va_arg(ap, const int *);
		int *status = va_arg(ap, int *);

		(void)pid;
		for (i = 0; i < n; i++) {
			int *pn = page_node(pages[i]);

			if (!pn) {
				status[i] = -EFAULT;
				continue;
			}
			if (!nodes) {
				status[i] = *pn;
				continue;
			}
			for (p = 0; p < fake.folio_pages && pn + p <
			     fake.node + fake.pages; p++)
				pn[p] = nodes[i];
			status[i] = nodes[i];
		}
		if (nodes) {
			bool child = getpid() != fake.parent;

			fake.moves++;
			fake_log(nodes[0] ? "M1" : "M0");
			if (shared->started)
				__atomic_add_fetch(&shared->pending, n,
						   __ATOMIC_SEQ_CST);
			if (child)
				__atomic_add_fetch(&shared->child_moves, 1,
						   __ATOMIC_SEQ_CST);
			if (shared->together && fake.moves < MAX_STEPS)
				wait_together(fake.moves);
			if (!fake.only_children || child)
				fake_inject();
		}
	} else {
		errno = ENOSYS;
		ret = -1;
	}
	va_end(ap);
	return ret;
}

#define THP_64K		THP_DIR "/hugepages-64kB/enabled"
#define THP_2M		THP_DIR "/hugepages-2048kB/enabled"

static void make_tree(int nodes)
{
	char path[128], text[256];
	int n;

	tree_new();
	for (n = 0; n < nodes; n++) {
		snprintf(path, sizeof(path), NODE_DIR "/node%d/meminfo", n);
		snprintf(text, sizeof(text),
			 "Node %d MemTotal:  1000000 kB\nNode %d MemFree:  800000 kB\n",
			 n, n);
		tree_write(path, text);
	}
	tree_write(THP_DIR "/enabled", "always madvise [never]\n");
	tree_write(THP_64K, "always inherit madvise [never]\n");
	tree_write(THP_2M, "always [inherit] madvise never\n");
}

/* tree_line() - the selected word of the control @path of the tree */
static const char *tree_line(const char *path)
{
	static char word[THP_WORD_LEN];

	return thp_selected(tree_read_line(path), word, sizeof(word)) ? word :
									 "?";
}

static bool thp_restored(void)
{
	return !strcmp(tree_line(THP_DIR "/enabled"), "never") &&
	       !strcmp(tree_line(THP_64K), "never") &&
	       !strcmp(tree_line(THP_2M), "inherit");
}

static char out_text[65536], err_text[8192];

/* what the fake kernel does wrong, at which move_pages() of a process */
struct inject {
	int wrong_on_move, corrupt_on_move, signal_on_move;
	bool only_children;	/* in the forked movers only */
	unsigned int together;	/* the movers must move at once */
};

/*
 * run_injected() - migrate_run_in() of -m migrate @words in the tree, the
 * fake kernel of @kind going wrong as @inj says
 */
static int run_injected(enum fake_kind kind, const char *words,
			struct inject inj)
{
	struct report_ctx ctx = { .version = "v", .kernel = "k" };
	struct std_capture cap;
	struct bench_opts o;
	int ret;

	memset(&fake, 0, sizeof(fake));
	memset(shared, 0, sizeof(*shared));
	fake.kind = kind;
	fake.parent = getpid();
	fake.wrong_on_move = inj.wrong_on_move;
	fake.corrupt_on_move = inj.corrupt_on_move;
	fake.signal_on_move = inj.signal_on_move;
	fake.only_children = inj.only_children;
	shared->together = inj.together;
	parse_mode_words(&o, "migrate", words, PAGE);
	fake.folio_pages = folio_bytes(&o) / PAGE;
	std_capture_begin(&cap);
	ret = migrate_run_in(tree_root, &o, &ctx);
	std_capture_end(&cap, out_text, sizeof(out_text), err_text,
			sizeof(err_text));
	return ret;
}

static int run(enum fake_kind kind, const char *words)
{
	return run_injected(kind, words, (struct inject){ 0 });
}

#define SMALL	"--bytes 256K --folio 64K -r 2 -w 1 -c 4 --timeout-ms 500"
#define INJECT	"--bytes 256K --folio 64K -r 2 -w 0 -p memcpy"

static void test_offload(void)
{
	make_tree(2);
	is_int(run(K_HOOK, SMALL " -p memcpy,memcpy_sg"), 0,
	       "a kernel with the hook: exit status 0");
	is_str(fake.log,
	       /* the probe: each mode started and stopped once */
	       "S0 T S1 T "
	       /* warm-up run 0: cpu, memcpy, memcpy_sg */
	       "M1 M0 S0 R M1 R T M0 S1 R M1 R T M0 "
	       /* run 1, rotated: memcpy, memcpy_sg, cpu */
	       "S0 R M1 R T M0 S1 R M1 R T M0 M1 M0 "
	       /* run 2: memcpy_sg, cpu, memcpy */
	       "S1 R M1 R T M0 M1 M0 S0 R M1 R T M0",
	       "START, STATS reset, the timed move, STATS reset, STOP, the move back; rows rotating from run to run");
	ok(fake.start.channels == 4 && fake.start.reasons == DMA_MIGRATE_R_SYSCALL &&
	   fake.start.timeout_ms == 500 && !fake.start.flags,
	   "START: --channels, reasons syscall, --timeout-ms, no flags");
	is_str(fake.thp_during, "madvise",
	       "during the run: the 64 KB THP control madvise");
	ok(thp_restored(), "after the run: the THP controls as they were");
	has_str(out_text, "# migrate: 256KB in 64KB folios (order 4), move_pages() node 0 -> node 1 and back; 2 runs after 1 warm-up; offload prep both, 4 channels, timeout 500 ms",
		"the parameters' '#' line");
	has_str(out_text, "# thp: set enabled=madvise hugepages-2048kB=never hugepages-64kB=madvise\n",
		"the THP controls' '#' line");
	has_str(out_text, "# folios: sizes unknown", "no pagemap in the tree: the folio sizes unknown");
	has_str(out_text, "# offload: hook project\n", "the hook named");
	has_str(out_text, "\nmode           chan folio folios GB/s ", "the table's heading");
	has_str(out_text, "\ncpu            -    64KB  4      ", "the cpu row: 4 folios of 64 KB");
	has_str(out_text, "\nprep_memcpy_sg 4    64KB  4      ", "the memcpy_sg row: 4 channels");
	has_str(strstr(out_text, "\nprep_memcpy "), " 3           1           0\n",
		"offloaded 3, fallback 1 and declined 0 a run, from STATS");
	ok(strstr(out_text, "\ncpu ") < strstr(out_text, "\nprep_memcpy ") &&
	   strstr(out_text, "\nprep_memcpy ") < strstr(out_text, "\nprep_memcpy_sg "),
	   "rows: cpu, memcpy, memcpy_sg");
	ok(!strstr(out_text, "batch_ms"), "no -v: no phase columns");
	ok(!err_text[0], "nothing on stderr");

	is_int(run(K_HOOK, SMALL " -p memcpy -v"), 0, "-v: exit status 0");
	has_str(out_text, " batch_ms ", "-v: the phase columns");
	has_str(strstr(out_text, "\nprep_memcpy "), "2.00 \u00b1 0.00 ",
		"-v: batch_ms 2 ms from STATS' ph.batch_ns");
	has_str(strstr(out_text, "\ncpu "), "-", "-v: the cpu row has no phases");

	is_int(run(K_HOOK, SMALL " -p memcpy --json"), 0, "--json: exit status 0");
	has_str(out_text, "\"mode\":\"migrate\",\"params\":{\"bytes\":262144,\"folio_order\":4,\"folio_bytes\":65536,",
		"JSON: mode and params");
	has_str(out_text, "\"offload\":{\"state\":\"ready\",\"hook\":\"project\",\"message\":null}",
		"JSON: the offload's state");
	has_str(out_text, "\"prep_modes_run\":[\"cpu\",\"prep_memcpy\"]", "JSON: the rows run");
	has_str(out_text, "{\"prep_mode\":\"prep_memcpy\",\"chan\":4,\"folio_order\":4,\"folio_bytes\":65536,\"bytes\":262144,\"runs\":2,\"folios\":4,\"gbps\":{\"mean\":",
		"JSON: a result row as the dmaengine mode's");
	has_str(out_text, "\"folios_offloaded\":{\"mean\":3.000000,\"stddev\":0.000000}",
		"JSON: folios_offloaded from STATS");
	has_str(out_text, "\"figures\":[{\"key\":\"gbps\",\"unit\":\"GB/s\",\"kind\":\"mean_stddev\"",
		"JSON: the figures described");
	tap_out_file("migrate.json", out_text);

	is_int(run(K_HOOK, SMALL " -p memcpy --csv"), 0, "--csv: exit status 0");
	has_str(out_text, "mode,chan,folio_order,folio_bytes,bytes,src_node,dst_node,runs,folios,gbps_mean,gbps_stddev,move_ms_mean,",
		"CSV: the header");
	has_str(out_text, "\nprep_memcpy,4,4,65536,262144,0,1,2,4,", "CSV: the memcpy row");
	has_str(out_text, ",ready,1\n", "CSV: the offload state, then the movers, last");
	tap_out_file("migrate.csv", out_text);
	tree_free();
}

/* csv_folios() - the folios column (the 9th) of a CSV line */
static double csv_folios(const char *line)
{
	int col;

	for (col = 1; line && col < 9; col++) {
		line = strchr(line, ',');
		line = line ? line + 1 : NULL;
	}
	return line ? strtod(line, NULL) : NAN;
}

/* the phases STATS times (all but the batch's own time), and the rest */
static const char *const phases[] = {
	"build", "map", "prep", "submit", "issue", "wait", "unmap", "mark",
	"other",
};
#define NR_PHASES	(sizeof(phases) / sizeof(phases[0]))

/* the scales: a move's (ms), a batch's and a folio's (us) */
static const char *const scales[] = { "_ms", "_us_per_batch", "_us_per_folio" };

/* within the rounding of the tool's six decimals, a term each */
#define ROUNDING	(NR_PHASES * 0.5e-6 + 1e-9)

/* json_mean() - the mean of figure @key in the JSON row @row; NAN if none */
static double json_mean(const char *row, const char *key)
{
	char pat[96];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\":{\"mean\":", key);
	p = strstr(row, pat);
	return p ? strtod(p + strlen(pat), NULL) : NAN;
}

/* csv_mean() - the KEY_mean column of the CSV line @line under @header */
static double csv_mean(const char *header, const char *line, const char *key)
{
	char want[96];
	const char *h = header, *l = line;
	size_t len;

	snprintf(want, sizeof(want), "%s_mean", key);
	len = strlen(want);
	while (h && l) {
		if (!strncmp(h, want, len) && (h[len] == ',' || h[len] == '\n'))
			return strtod(l, NULL);
		h = strchr(h, ',');
		l = strchr(l, ',');
		h = h ? h + 1 : NULL;
		l = l ? l + 1 : NULL;
	}
	return NAN;
}

/* the figure @phase at @scale of a row: from JSON or from CSV */
struct row_src {
	const char *json_row, *csv_header, *csv_line;
};

static double figure(const struct row_src *src, const char *phase,
		     const char *scale)
{
	char key[64];

	snprintf(key, sizeof(key), "%s%s", phase, scale);
	return src->json_row ? json_mean(src->json_row, key) :
			       csv_mean(src->csv_header, src->csv_line, key);
}

/*
 * phases_add_up() - in the prep_memcpy row of @src: at each scale, the
 * phases and other add up to the batch time, within the rounding; other
 * is what the fixed STATS answer leaves (independent of the sum); the
 * figures a batch and a folio are those of a move over STATS' batches
 * and folios. @what: the format.
 */
static void phases_add_up(const struct row_src *src, const char *what)
{
	double batches = figure(src, "batches", ""), folios, sum;
	double div[3], batch[3];
	char key[64];
	size_t sc, p;
	bool all;

	folios = src->json_row ? strtod(strstr(src->json_row, "\"folios\":") +
					strlen("\"folios\":"), NULL) :
				 csv_folios(src->csv_line);
	is_int((long long)batches, FAKE_BATCHES, "%s: batches from STATS", what);
	is_int((long long)folios, 4, "%s: 4 folios a move", what);
	div[0] = 1;
	div[1] = batches;
	div[2] = folios;
	for (sc = 0; sc < 3; sc++) {
		batch[sc] = figure(src, "batch", scales[sc]);
		for (sum = 0, all = true, p = 0; p < NR_PHASES; p++) {
			double v = figure(src, phases[p], scales[sc]);

			if (isnan(v)) {
				printf("# %s: no %s%s\n", what, phases[p],
				       scales[sc]);
				all = false;
			}
			sum += v;
		}
		ok(all && fabs(sum - batch[sc]) <= ROUNDING,
		   "%s: the phases and other%s add up to batch%s (%.6f = %.6f)",
		   what, scales[sc], scales[sc], sum, batch[sc]);
		snprintf(key, sizeof(key), "other%s", scales[sc]);
		ok(fabs(figure(src, "other", scales[sc]) -
			FAKE_OTHER_NS / (sc ? 1e3 : 1e6) / div[sc]) <= 0.5e-6,
		   "%s: %s is the batch time outside the phases STATS has",
		   what, key);
	}
	ok(fabs(batch[0] - FAKE_BATCH_NS / 1e6) <= 0.5e-6,
	   "%s: batch_ms from STATS' ph.batch_ns", what);
	for (p = 0; p < NR_PHASES; p++) {
		double move = figure(src, phases[p], "_ms");

		ok(fabs(figure(src, phases[p], "_us_per_batch") -
			move * 1e3 / batches) <= 1e-6 * batches &&
		   fabs(figure(src, phases[p], "_us_per_folio") -
			move * 1e3 / folios) <= 1e-6 * folios,
		   "%s: %s a batch and a folio: %s_ms over the batches, over the folios",
		   what, phases[p], phases[p]);
	}
}

/*
 * The offload's time in the hook split phase by phase, a move, a batch
 * and a folio, in the three formats, from a fixed STATS answer
 */
static void test_phases(void)
{
	static char json[sizeof(out_text)];
	struct row_src src = { 0 };
	const char *row, *end, *head;
	char *csv_row;

	make_tree(2);
	is_int(run(K_HOOK, SMALL " -p memcpy -v"), 0, "phases, -v: exit status 0");
	has_str(out_text, " mark_ms     other_ms    copy_share ",
		"-v: other_ms after the phases STATS has, then copy_share");
	head = strstr(out_text, " copy_share ");
	ok(head && (head = strstr(head, " client ")) &&
	   (head = strstr(head, " dma_api ")) &&
	   (head = strstr(head, " dmaengine ")) &&
	   (end = strchr(head, '\n')) && !strncmp(end - 7, " engine", 7),
	   "-v: copy_share split after it: client, dma_api, dmaengine, engine, last");
	has_str(strstr(out_text, "\nprep_memcpy "), " 0.02 \u00b1 0.00 0.11 \u00b1 0.00 ",
		"-v: mark_ms 0.02, other_ms 0.11 of the batch's 2 ms");
	has_str(out_text, "\n# the offload's phases a batch (us): STATS' phase times over its batches\n"
		"mode           chan folio folios batch_us      build_us     map_us ",
		"-v: the table a batch, its title and columns");
	has_str(out_text, "\n# the offload's phases a folio (us): STATS' phase times over its folios\n"
		"mode           chan folio folios batch_us      build_us     map_us ",
		"-v: the table a folio");
	has_str(strstr(out_text, "a batch (us)"), "\nprep_memcpy    4    64KB  4      666.67 \u00b1 0.00 16.67 \u00b1 0.00 ",
		"-v: a batch: 2 ms over 3 batches, build 50 us over 3");
	has_str(strstr(out_text, "a folio (us)"), "\nprep_memcpy    4    64KB  4      500.00 \u00b1 0.00 12.50 \u00b1 0.00 ",
		"-v: a folio: 2 ms over 4 folios");
	ok(!strstr(strstr(out_text, "a batch (us)"), "\ncpu "),
	   "-v: the cpu row has no table a batch or a folio");
	is_int(run(K_HOOK, SMALL " -p memcpy"), 0, "phases, no -v: exit status 0");
	ok(!strstr(out_text, "other_ms") && !strstr(out_text, "a batch (us)"),
	   "no -v: neither other_ms nor the tables a batch and a folio");

	is_int(run(K_HOOK, SMALL " -p memcpy --json -v"), 0,
	       "phases, --json: exit status 0");
	snprintf(json, sizeof(json), "%s", out_text);
	row = strstr(json, "{\"prep_mode\":\"prep_memcpy\",");
	end = row ? strstr(row, "}]") : NULL;
	ok(row && end, "--json: the prep_memcpy row");
	if (row && end) {
		json[end - json] = '\0';
		src.json_row = row;
		phases_add_up(&src, "JSON");
	}
	has_str(out_text, "{\"key\":\"other_us_per_folio\",\"heading\":\"other_us\",\"width\":11,\"verbose\":true,\"group\":\"folio\"}",
		"--json: the table says which text table a figure is in");

	is_int(run(K_HOOK, SMALL " -p memcpy --csv"), 0,
	       "phases, --csv: exit status 0");
	csv_row = strstr(out_text, "\nprep_memcpy,");
	ok(csv_row != NULL, "--csv: the prep_memcpy row");
	if (csv_row) {
		*csv_row++ = '\0';
		src.json_row = NULL;
		src.csv_header = out_text;
		src.csv_line = csv_row;
		phases_add_up(&src, "CSV");
	}
	tree_free();
}

/* no_child_left() - every forked mover waited for */
static bool no_child_left(void)
{
	return waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD;
}

/* --movers: processes moving at once, each its own buffer, each verified */
static void test_movers(void)
{
	/* 2 children x (1 + 2 runs) x 2 rows x there and back */
	const unsigned int child_moves = 2 * 3 * 2 * 2;

	make_tree(2);
	is_int(run_injected(K_HOOK, SMALL " -p memcpy --movers 3 -v",
			    (struct inject){ .together = 3 }), 0,
	       "--movers 3: exit status 0");
	is_str(fake.log,
	       "S0 T M1 M0 S0 R M1 R T M0 S0 R M1 R T M0 M1 M0 M1 M0 S0 R M1 R T M0",
	       "--movers 3: the process's own moves and the ioctls as with one mover");
	is_int(shared->child_moves, child_moves,
	       "--movers 3: the two forked movers moved as often as the process");
	is_int(shared->apart, 0,
	       "--movers 3: at every move, the three inside move_pages() at once");
	has_str(out_text, "# movers: 3 processes at once, each moving 256KB of its own, started together every move: GB/s their 768KB over the time from the first start to the last end",
		"--movers 3: a '#' line says what GB/s and move_ms are");
	has_str(out_text, "\nprep_memcpy    4    64KB  12     ",
		"--movers 3: the folios every mover moved, 3 x 4");
	has_str(strstr(out_text, "\nprep_memcpy "), " 11          1           0 ",
		"--movers 3: offloaded 11, fallback 1, declined 0: STATS over the whole move");
	ok(no_child_left(), "--movers 3: every mover waited for");
	ok(thp_restored(), "--movers 3: the THP controls restored");

	is_int(run(K_HOOK, SMALL " -p memcpy --movers 2 --json"), 0,
	       "--movers 2 --json: exit status 0");
	has_str(out_text, ",\"pattern_check\":true,\"movers\":2},",
		"--json: params.movers");
	has_str(out_text, "\"prep_mode\":\"prep_memcpy\",\"chan\":4,\"folio_order\":4,\"folio_bytes\":65536,\"bytes\":262144,\"runs\":2,\"folios\":8,",
		"--json: the row's folios every mover's, bytes a mover's");
	has_str(out_text, "\"folios_offloaded\":{\"mean\":7.000000,",
		"--json: STATS' folios_offloaded over both movers' move");
	is_int(run(K_HOOK, SMALL " -p memcpy --movers 2 --csv"), 0,
	       "--movers 2 --csv: exit status 0");
	has_str(out_text, ",ready,2\n", "--csv: the movers last");
	ok(no_child_left(), "--json, --csv: every mover waited for");

	is_int(run_injected(K_HOOK, INJECT " --movers 3",
			    (struct inject){ .corrupt_on_move = 3,
					     .only_children = true }),
	       1, "--movers 3, a corrupt byte in a forked mover's buffer: exit status 1");
	ok(strstr(err_text, "run 0, prep_memcpy, to --dst-node 1, mover 2: the data is corrupt at offset 0x1008") ||
	   strstr(err_text, "run 0, prep_memcpy, to --dst-node 1, mover 3: the data is corrupt at offset 0x1008"),
	   "... naming the run, the row, the move and the mover");
	ok(!strstr(err_text, "mover 1:"), "... the process's own buffer intact");
	ok(!shared->started, "... the offload stopped");
	ok(thp_restored(), "... the THP controls restored");
	ok(no_child_left(), "... every mover waited for");
	ok(!out_text[0], "... and no report");

	is_int(run_injected(K_HOOK, INJECT " --movers 2",
			    (struct inject){ .signal_on_move = 2 }),
	       1, "--movers 2, SIGINT during a move: exit status 1");
	has_str(err_text, "stopped by signal 2 (Interrupt)",
		"... the process says so after the move");
	ok(!strstr(err_text, "mover 2"), "... the forked mover ignored it");
	ok(thp_restored() && no_child_left(),
	   "... the THP controls restored, every mover waited for");

	is_int(run(K_HOOK, "--bytes 256M --folio 64K -p memcpy --movers 4"), 2,
	       "--bytes x --movers above a node's free memory: exit status 2");
	has_str(err_text, "invalid --bytes 256MB x --movers 4: more than node 0's free memory (MemFree 800000KB in ",
		"... naming both options and the node's free memory");
	has_str(err_text, "; lower --bytes or --movers\n", "... and what to lower");
	ok(!fake.log[0] && no_child_left(), "... before any ioctl or fork");
	tree_free();
}

static void test_no_offload(void)
{
	make_tree(2);
	is_int(run(K_NO_HOOK, SMALL), 0, "a kernel without the hook: exit status 0");
	has_str(out_text, "# offload: not run: this kernel has no migration copy-offload hook; offload needs the project's kernel/patches/v7.3-migrate/ series\n",
		"... one line saying so and where the series is");
	ok(strstr(out_text, "\ncpu ") && !strstr(out_text, "\nprep_memcpy"),
	   "... the cpu row alone");
	is_str(fake.log, "S0 M1 M0 M1 M0 M1 M0",
	       "... one START refused, then the cpu row's moves only");
	ok(!strstr(out_text, "offloaded"), "... no offload columns");

	is_int(run(K_NO_FILE, SMALL " --json"), 0, "no debugfs file: exit status 0");
	has_str(out_text, "\"state\":\"no_file\"", "... JSON: state no_file");
	has_str(out_text, "not run: no /sys/kernel/debug/dmaengine_benchmark (load the project's dma_map_benchmark.ko)",
		"... the one line in JSON's message");
	is_int(run(K_NO_IOCTL, SMALL), 0, "a module without DMA_MIGRATE_OFFLOAD: exit status 0");
	has_str(out_text, "# offload: not run: the loaded dma_map_benchmark module has no DMA_MIGRATE_OFFLOAD",
		"... one line saying so");

	is_int(run(K_NO_SG, SMALL), 0, "no --prep-modes, a kernel without memcpy_sg: exit status 0");
	has_str(out_text, "# not run: prep_memcpy_sg: this kernel lacks its prep call\n",
		"... memcpy_sg left out, a '#' line says why");
	ok(strstr(out_text, "\nprep_memcpy ") && strstr(out_text, "\nprep_memcpy_vec "),
	   "... the other modes' rows");
	is_int(run(K_NO_SG, SMALL " -p memcpy_sg"), 1,
	       "--prep-modes memcpy_sg on that kernel: an error");
	has_str(err_text, "DMA_MIGRATE_OFFLOAD START (prep mode prep_memcpy_sg) failed: ",
		"... naming the op and the mode");
	ok(thp_restored(), "... and the THP controls restored");

	is_int(run(K_HOOK, SMALL " -p cpu"), 0, "--prep-modes cpu: the cpu row alone");
	ok(!strstr(fake.log, "S"), "... no START at all");
	tree_free();
}

static void test_failures(void)
{
	make_tree(2);
	is_int(run_injected(K_HOOK, INJECT, (struct inject){ .wrong_on_move = 3 }),
	       1, "a page on a wrong node after a move: exit status 1");
	has_str(err_text, "run 0, prep_memcpy, to --dst-node 1, page by page: entry 2 (offset 0x2000 in the buffer) is on node 7, not on node 1",
		"... naming the run, the row, the page and the node seen");
	ok(thp_restored(), "... the THP controls restored");
	ok(!out_text[0], "... and no report");

	is_int(run_injected(K_HOOK, INJECT, (struct inject){ .corrupt_on_move = 2 }),
	       1, "a corrupt byte after a move: exit status 1");
	has_str(err_text, "run 0, cpu, back to --src-node 0: the data is corrupt at offset 0x1008 (page 1): read 0x6d69677261747426, wrote 0x6d69677261747526",
		"... naming the move, the offset and the page");
	ok(thp_restored(), "... the THP controls restored");

	is_int(run_injected(K_HOOK, INJECT, (struct inject){ .signal_on_move = 2 }),
	       1, "SIGINT during a move: exit status 1");
	has_str(err_text, "stopped by signal 2 (Interrupt)",
		"... saying so after the move");
	ok(thp_restored(), "... the THP controls restored");
	ok(!shared->started, "... the offload stopped");

	is_int(run(K_HOOK, "--bytes 1G --folio 64K -p memcpy"), 2,
	       "--bytes above the node's free memory: exit status 2");
	has_str(err_text, "invalid --bytes 1GB: more than node 0's free memory (MemFree 800000KB in ",
		"... naming --bytes and the node's free memory");
	is_int(run(K_HOOK, SMALL " --dst-node 3"), 2, "--dst-node 3, no such node: exit status 2");
	has_str(err_text, "invalid --dst-node 3: there is no NUMA node 3", "... saying so");
	ok(!fake.log[0], "... before any ioctl");
	tree_free();

	make_tree(1);
	is_int(run(K_HOOK, SMALL), 2, "one node: exit status 2");
	has_str(err_text, "--dst-node: node 0 is the only NUMA node with memory here",
		"... saying migrate needs two");
	tree_free();

	/* a THP control that cannot be set: exit 2, nothing left changed */
	make_tree(2);
	{
		char path[4096];

		snprintf(path, sizeof(path), "%s" THP_2M, tree_root);
		unlink(path);
		mkdir(path, 0755);
	}
	is_int(run(K_HOOK, SMALL " -p memcpy"), 2, "a THP control that cannot be read: exit status 2");
	has_str(err_text, "--folio-order: cannot read ", "... naming the option and the file");
	is_str(tree_line(THP_DIR "/enabled"), "never",
	       "... the top-level control set before it restored");
	ok(!strstr(fake.log, "M"), "... and nothing moved");
	tree_free();
}

int main(int argc, char **argv)
{
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		printf("Bail out! mmap of the shared state failed\n");
		return 1;
	}
	tap_init(argc, argv);
	test_offload();
	test_phases();
	test_no_offload();
	test_failures();
	test_movers();
	return tap_done();
}
