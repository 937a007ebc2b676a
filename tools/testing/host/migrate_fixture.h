/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The migrate mode's made-up kernel (test_migrate_run.c,
 * test_migrate_phases.c): a program that includes this defines open(),
 * ioctl() and syscall(), which take the place of the C library's for the
 * tool's objects linked into it. Its move_pages() keeps a node per page
 * and moves whole folios; its DMA_MIGRATE_OFFLOAD answers as the ABI's
 * comments say a provider does (or as a kernel without the hook, a module
 * without the ioctl, a kernel without memcpy_sg), STATS with a fixed
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

static inline void fake_log(const char *s)
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
	if (a->size != DMA_MIGRATE_OFFLOAD_SIZE_VER4) {
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
