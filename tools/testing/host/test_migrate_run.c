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
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
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
	bool started;
	uint64_t pending;		/* folios moved since the last RESET */
	char log[4096];
	struct dma_migrate_offload start;	/* the last START */
	char thp_during[64];		/* the 64 KB control at mbind() */
} fake;

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
		if (fake.started) {
			errno = EBUSY;
			return -1;
		}
		fake.start = *a;
		fake.started = true;
		a->active = 1;
		a->channels_used = a->channels;
		a->prep_mode_used = a->prep_mode;
		return 0;
	case DMA_MIGRATE_OP_STATS:
		fake_log(a->flags & DMA_MIGRATE_F_RESET ? "R" : "Q");
		a->active = fake.started;
		a->channels_used = fake.start.channels;
		a->folios = fake.pending;
		/* one folio a move left to the CPU */
		a->folios_offloaded = fake.pending ? fake.pending - 1 : 0;
		a->folios_fallback = fake.pending ? 1 : 0;
		a->batches = fake.pending ? 1 : 0;
		a->ph.batch_ns = fake.pending ? 2000000 : 0;
		a->ph.wait_ns = fake.pending ? 1500000 : 0;
		if (a->flags & DMA_MIGRATE_F_RESET)
			fake.pending = 0;
		return 0;
	case DMA_MIGRATE_OP_STOP:
		fake_log("T");
		fake.started = false;
		return 0;
	}
	errno = EINVAL;
	return -1;
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
			fake.moves++;
			fake_log(nodes[0] ? "M1" : "M0");
			if (fake.started)
				fake.pending += n;
			if ((int)fake.moves == fake.wrong_on_move)
				fake.node[2] = 7;
			if ((int)fake.moves == fake.corrupt_on_move)
				fake.base[PAGE + 9] ^= 1;
			if ((int)fake.moves == fake.signal_on_move)
				raise(SIGINT);
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

/* what the fake kernel does wrong, at which move_pages() */
struct inject {
	int wrong_on_move, corrupt_on_move, signal_on_move;
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
	fake.kind = kind;
	fake.wrong_on_move = inj.wrong_on_move;
	fake.corrupt_on_move = inj.corrupt_on_move;
	fake.signal_on_move = inj.signal_on_move;
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
	has_str(out_text, ",ready\n", "CSV: the offload state last");
	tap_out_file("migrate.csv", out_text);
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
#define INJECT	"--bytes 256K --folio 64K -r 2 -w 0 -p memcpy"
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
	ok(!fake.started, "... the offload stopped");

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
	tap_init(argc, argv);
	test_offload();
	test_no_offload();
	test_failures();
	return tap_done();
}
