/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The migrate mode's made-up kernel (test_migrate_run.c,
 * test_migrate_phases.c): a program that includes this defines open(),
 * write(), close() and syscall(), which take the place of the C library's
 * for the tool's objects linked into it. Its move_pages() keeps a node
 * per page and moves whole folios; its dma_migrate controls (module
 * parameters, /sys/kernel/mm/dma_migrate/) answer as
 * Documentation/dma-migrate.rst says the module does (or as a kernel
 * without the hook, a module without its sysfs directory, a kernel
 * without memcpy_sg, no module at all), the stats file with a fixed
 * answer of phases; the /sys files are a made-up tree. run() and
 * run_injected() run migrate_run_in() on it, what it prints in out_text
 * and err_text; fake_init() maps the state the forked movers share.
 */
#ifndef DMABENCH_MIGRATE_FIXTURE_H
#define DMABENCH_MIGRATE_FIXTURE_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "migrate.h"
#include "options.h"
#include "tap.h"
#include "tool_words.h"

enum fake_kind { K_HOOK, K_NO_HOOK, K_NO_IOCTL, K_NO_FILE, K_NO_SG, K_ON };

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
	struct dma_migrate_offload start;	/* the last start's parameters */
	unsigned int prep_mode;		/* prep_form, as a mode */
	int ctl_fd[16];			/* open control files, for write() */
	char ctl_name[16][32];		/* ... and their names */
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

static inline void fake_log(const char *s)
{
	snprintf(fake.log + strlen(fake.log), sizeof(fake.log) - strlen(fake.log),
		 "%s%s", fake.log[0] ? " " : "", s);
}

#define PARAMS_DIR	"/sys/module/dma_migrate/parameters/"
#define SYSFS_DIR	"/sys/kernel/mm/dma_migrate/"

/* ctl_name() - the control @path names under the tree, or NULL */
static inline const char *ctl_name(const char *path)
{
	size_t n = strlen(tree_root);

	if (!tree_root[0] || strncmp(path, tree_root, n))
		return NULL;
	path += n;
	if (!strncmp(path, PARAMS_DIR, strlen(PARAMS_DIR)))
		return path + strlen(PARAMS_DIR);
	if (!strncmp(path, SYSFS_DIR, strlen(SYSFS_DIR)))
		return path + strlen(SYSFS_DIR);
	return NULL;
}

static inline void fake_stats_file(void);

int open(const char *path, int flags, ...)
{
	const char *name = ctl_name(path);
	va_list ap;
	int fd, i;

	if (name && (flags & O_ACCMODE) == O_WRONLY) {
		fd = openat(AT_FDCWD, "/dev/null", O_WRONLY);
		for (i = 0; fd >= 0 && i < 16; i++)
			if (!fake.ctl_fd[i]) {
				fake.ctl_fd[i] = fd + 1;
				snprintf(fake.ctl_name[i], sizeof(fake.ctl_name[i]),
					 "%s", name);
				break;
			}
		return fd;
	}
	if (name && !strcmp(name, "stats"))
		fake_stats_file();
	va_start(ap, flags);
	fd = tap_open_through(path, flags, ap);
	va_end(ap);
	return fd;
}

extern int __close(int fd);
extern ssize_t __write(int fd, const void *buf, size_t n);

int close(int fd)
{
	int i;

	for (i = 0; i < 16; i++)
		if (fake.ctl_fd[i] == fd + 1)
			fake.ctl_fd[i] = 0;
	return __close(fd);
}

/*
 * The phases of a move's STATS: 3 batches of 2 ms in all, 1.89 ms of them
 * in the phases STATS times, 0.11 ms in none ("other")
 */
#define FAKE_BATCHES	3
#define FAKE_BATCH_NS	2000000
#define FAKE_OTHER_NS	110000

static inline void fake_phases(struct dma_migrate_offload *a)
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

/* the stats file of the offload, as the module prints it */
static inline void fake_stats_file(void)
{
	struct dma_migrate_offload a = { 0 };
	char text[2048];

	a.folios = shared->pending;
	/* one folio a move left to the CPU */
	a.folios_offloaded = shared->pending ? shared->pending - 1 : 0;
	a.folios_fallback = shared->pending ? 1 : 0;
	if (shared->pending)
		fake_phases(&a);
	snprintf(text, sizeof(text),
		 "channels_used %u channels\nbatches %llu batches\n"
		 "folios %llu folios\nfolios_offloaded %llu folios\n"
		 "folios_fallback %llu folios\nfolios_declined 0 folios\n"
		 "phase.prep %llu ns\nphase.submit %llu ns\n"
		 "phase.issue %llu ns\nphase.wait %llu ns\nphase.map %llu ns\n"
		 "phase.unmap %llu ns\nphase.batch %llu ns\n"
		 "phase.build %llu ns\nphase.mark %llu ns\n"
		 "phase.newer 7 ns\n",
		 shared->started ? fake.start.channels : 0,
		 (unsigned long long)a.batches, (unsigned long long)a.folios,
		 (unsigned long long)a.folios_offloaded,
		 (unsigned long long)a.folios_fallback,
		 (unsigned long long)a.ph.prep_ns,
		 (unsigned long long)a.ph.submit_ns,
		 (unsigned long long)a.ph.issue_ns,
		 (unsigned long long)a.ph.wait_ns,
		 (unsigned long long)a.ph.map_ns,
		 (unsigned long long)a.ph.unmap_ns,
		 (unsigned long long)a.ph.batch_ns,
		 (unsigned long long)a.build_ns, (unsigned long long)a.mark_ns);
	tree_write(SYSFS_DIR "stats", text);
}

/* fake_refuse() - a write refused with @err, last_error @msg */
static inline ssize_t fake_refuse(int err, const char *msg)
{
	tree_write(SYSFS_DIR "last_error", msg);
	errno = err;
	return -1;
}

/* fake_ctl_write() - the module's answer to @val written to @name */
static inline ssize_t fake_ctl_write(const char *name, const char *val,
				     size_t n)
{
	char word[16];
	unsigned int v = (unsigned int)strtoul(val, NULL, 0);

	if (!strcmp(name, "reset")) {
		fake_log("R");
		shared->pending = 0;
		return n;
	}
	if (!strcmp(name, "offloading")) {
		if (val[0] == '0') {
			fake_log("T");
			shared->started = false;
			return n;
		}
		snprintf(word, sizeof(word), "S%u", fake.prep_mode);
		fake_log(word);
		if (fake.kind == K_NO_HOOK)
			return fake_refuse(EOPNOTSUPP, "offloading: this kernel has no migration copy-offload hook\n");
		if (fake.kind == K_NO_SG &&
		    fake.prep_mode == DMAENGINE_BENCH_MODE_MEMCPY_SG)
			return fake_refuse(EOPNOTSUPP, "prep_form: memcpy_sg: this kernel has no DMA_MEMCPY_SG\n");
		shared->started = true;
		return n;
	}
	if (shared->started)
		return fake_refuse(EBUSY, "a parameter: cannot change while the offload runs\n");
	if (!strcmp(name, "prep_form")) {
		fake.prep_mode = !strncmp(val, "memcpy_sg", 9) ?
				 DMAENGINE_BENCH_MODE_MEMCPY_SG :
				 !strncmp(val, "memcpy_vec", 10) ?
				 DMAENGINE_BENCH_MODE_MEMCPY_VEC :
				 DMAENGINE_BENCH_MODE_MEMCPY;
		fake.start.prep_mode = fake.prep_mode;
	} else if (!strcmp(name, "nr_dma_chan")) {
		fake.start.channels = v;
	} else if (!strcmp(name, "timeout_ms")) {
		fake.start.timeout_ms = v;
	} else if (!strcmp(name, "allow_fewer")) {
		fake.start.flags = v ? DMA_MIGRATE_F_ALLOW_FEWER : 0;
	} else if (!strcmp(name, "reason_mask")) {
		fake.start.reasons = !strncmp(val, "syscall", 7) ?
				     DMA_MIGRATE_R_SYSCALL : 0;
	}
	return n;
}

ssize_t write(int fd, const void *buf, size_t n)
{
	char val[64];
	int i;

	for (i = 0; i < 16; i++)
		if (fake.ctl_fd[i] == fd + 1) {
			snprintf(val, sizeof(val), "%.*s",
				 (int)(n < sizeof(val) ? n : sizeof(val) - 1),
				 (const char *)buf);
			return fake_ctl_write(fake.ctl_name[i], val, n);
		}
	return __write(fd, buf, n);
}

static inline void tree_rm(const char *path)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s%s", tree_root, path);
	nftw(buf, tree_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* the module's files for @kind: none without the module */
static inline void fake_module_files(enum fake_kind kind)
{
	tree_rm("/sys/module/dma_migrate");
	tree_rm("/sys/kernel/mm/dma_migrate");
	if (kind == K_NO_FILE)
		return;
	tree_write(PARAMS_DIR "offloading", kind == K_ON ? "1\n" : "0\n");
	if (kind == K_NO_IOCTL)
		return;
	tree_write(SYSFS_DIR "hook", kind == K_NO_HOOK ? "none\n" : "project\n");
	tree_write(SYSFS_DIR "last_error", "\n");
}

/*
 * wait_together() - at its move @step, a mover waits (up to 2 s) for the
 * others to be in move_pages() too; counted in ->apart when they are not
 */
static inline void wait_together(unsigned int step)
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
static inline void fake_inject(void)
{
	if ((int)fake.moves == fake.wrong_on_move)
		fake.node[2] = 7;
	if ((int)fake.moves == fake.corrupt_on_move)
		fake.base[PAGE + 9] ^= 1;
	if ((int)fake.moves == fake.signal_on_move)
		raise(SIGINT);
}

static inline int *page_node(void *addr)
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

static inline void make_tree(int nodes)
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
static inline const char *tree_line(const char *path)
{
	static char word[THP_WORD_LEN];

	return thp_selected(tree_read_line(path), word, sizeof(word)) ? word :
									 "?";
}

static inline bool thp_restored(void)
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
static inline int run_injected(enum fake_kind kind, const char *words,
			       struct inject inj)
{
	struct report_ctx ctx = { .version = "v", .kernel = "k" };
	struct std_capture cap;
	struct bench_opts o;
	int ret;

	memset(&fake, 0, sizeof(fake));
	memset(shared, 0, sizeof(*shared));
	fake.kind = kind;
	fake_module_files(kind);
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

static inline int run(enum fake_kind kind, const char *words)
{
	return run_injected(kind, words, (struct inject){ 0 });
}

#define SMALL	"--bytes 256K --folio 64K -r 2 -w 1 -c 4 --timeout-ms 500"
#define INJECT	"--bytes 256K --folio 64K -r 2 -w 0 -p memcpy"

/* fake_init() - the shared state, then tap_init(); false: bailed out */
static inline bool fake_init(int argc, char **argv)
{
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		printf("Bail out! mmap of the shared state failed\n");
		return false;
	}
	tap_init(argc, argv);
	return true;
}

#endif
