// SPDX-License-Identifier: GPL-2.0-only
/*
 * move_pages_offload: page migration through dma_migrate.ko's copy
 * offload, checked end to end: START (the module's parameters, then
 * offloading=1), move_pages() of an anonymous buffer from node 0 to node
 * 1, the data compared, STATS (its stats file) against the pages moved,
 * STOP (offloading=0). ctl=ioctl drives it through the benchmark's
 * DMA_MIGRATE_OFFLOAD instead, which forwards to dma_migrate
 * (kernel/dma/migrate_compat.c), as the project's older tools do.
 *
 *   move_pages_offload [prep=MODE] [channels=N] [pages=N] [min_folios=N]
 *                 [expect=offload|fallback|any|nohook|busy|unbind|bounce]
 *                 [stop=0|1] [unbind=DEVICE [during=0|1]]
 *                 [timeout_ms=N] [rewrite=MS] [movers=N] [reasons=MASK]
 *                 [poison=1] [offload=0|1] [settle=MS] [ctl=sysfs|ioctl]
 *                 [start=0|1]
 *
 * expect=offload: every folio moved was offloaded, none fell back, no
 * error (the default); expect=fallback: some folios fell back and batches
 * failed (a provider injecting errors), every folio counted once;
 * expect=any: every folio counted once, offloaded or not;
 * expect=unbind (with unbind=DEVICE): the first half of the pages moved
 * with the offload, DEVICE unbound from its driver (the offload still
 * started), the second half moved: some folios offloaded, the later ones
 * fallen back to the CPU, every folio counted once; with during=1, one
 * move_pages() of every page, and a thread unbinds DEVICE while it runs,
 * once the offload has copied a batch (a provider slowed down with
 * soft_dma's delay_us makes the move last): the same counts, the move not
 * over at the unbind;
 * expect=nohook: START fails with EOPNOTSUPP, DMAENGINE_BENCH_ERR_NO_API
 * and DMA_MIGRATE_HOOK_NONE; expect=busy: a second START, on another file
 * (ctl=ioctl), or a parameter's change (nr_dma_chan, the controls), fails
 * with EBUSY while the first is active; expect=bounce: START fails
 * with EOPNOTSUPP and DMAENGINE_BENCH_ERR_LIMIT, nothing active (a device
 * whose mappings would bounce through swiotlb). stop=0 leaves the offload
 * on: to the file's release (ctl=ioctl), or to the caller. start=0: the
 * caller started the offload (offloading=1): no START and no STOP, the
 * counters reset before the move and read after it. In every case the
 * data must be intact.
 *
 * timeout_ms: START's (default 5000). rewrite=MS: after each move the
 * buffer gets a new pattern, and MS ms later it must still hold it: a copy
 * that timed out must not go on writing into memory the user owns again
 * (an engine that cannot stop its work, soft_dma's no_terminate). movers=N:
 * N processes at once (N - 1 forked after START), each moving and checking
 * a buffer of its own; every folio counted once over all of them.
 * reasons: START's DMA_MIGRATE_R_* mask (default DMA_MIGRATE_R_SYSCALL):
 * with compaction and demotion, migration the kernel starts on its own
 * (in reclaim, in compaction of the movers' allocations) comes through
 * the offload too, and may nest in a move of the same task. poison=1:
 * the first page of each buffer is poisoned (MADV_HWPOISON) before the
 * move; it must stay where it was, as migration without an offload leaves
 * it, and every other page move, its data intact. expect=hugetlb: the
 * buffer is of anonymous private hugetlb pages (MAP_HUGETLB, the default
 * huge page size), pages=N of them: they must all move, their data
 * intact, and none may reach the offload (STATS counts no folio: mm never
 * hands hugetlb folios over). expect=mte (arm64 with MTE): the buffer is
 * mapped PROT_MTE, every 16-byte granule given its own allocation tag
 * after the fill, and tag checks are synchronous: after the move every
 * granule's tag must read back (ldg) as it was set and its data must read
 * through a pointer with that tag (a lost tag faults), and no folio may
 * reach the offload (mm leaves tagged folios to the CPU, whose copy
 * carries the tags; /sys/kernel/mm/migrate_copy_offload/folios_kept
 * counts them); a machine whose tags do not read back as set before any
 * move can check nothing: exit status 4 says so. offload=0: no START, the
 * kernel's own migration alone
 * (expect=hugetlb and expect=mte only). expect=lost (a provider whose
 * first descriptor on each channel stalls and cannot be stopped:
 * soft_dma's stall_ms with no_terminate): the move must return within a
 * second of timeout_ms plus the offload's drain bound
 * (DMAENGINE_MIGRATE_DRAIN_MIN_MS, or the timeout if longer), some folios
 * must be lost (their destinations quarantined), every page's data
 * intact wherever it is; settle=MS waits that long before STOP, for the
 * engine to end, so that STOP releases the quarantine.
 *
 * The counters count folios, the pages are moved one by one: a folio
 * larger than a page (THP, should MADV_NOHUGEPAGE not hold) is one folio
 * and several pages, so the folios moved are at most the pages moved, and
 * the bytes the engines copied are the pages' bytes when every folio was
 * offloaded.
 *
 * Exit status 4: expect=mte on a machine that does not keep MTE tags.
 *
 * Prints "moved=N folios=N offloaded=N fallback=N declined=N errors=N
 * batches=N declined_batches=N bytes=N descriptors=N batch_ns=N lost=N
 * released=N async_batches=N async_max_ns=N" and why
 * a check failed. Exit status
 * 0 when every check held, 1 when one failed, 2 on a usage error.
 */
#define _GNU_SOURCE
#define __SANE_USERSPACE_TYPES__
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "migrate_ctl.h"
#include "migrate_mte.h"
#include "migrate_util.h"

struct mpo_args {
	unsigned int prep;
	unsigned int channels;
	unsigned long pages;
	unsigned int min_folios;
	const char *expect;
	const char *unbind;
	bool during;
	bool stop;
	unsigned int timeout_ms;
	unsigned int rewrite_ms;
	unsigned int movers;
	unsigned int reasons;
	bool poison;
	bool hugetlb;
	bool mte;
	bool offload;
	unsigned int settle_ms;
	bool ioctl;
	bool start;
};

static int mpo_parse(int argc, char **argv, struct mpo_args *m)
{
	int i;

	m->prep = DMAENGINE_BENCH_MODE_MEMCPY;
	m->channels = 2;
	m->pages = 1024;
	m->min_folios = 0;
	m->expect = "offload";
	m->unbind = NULL;
	m->during = false;
	m->stop = true;
	m->timeout_ms = 5000;
	m->rewrite_ms = 0;
	m->movers = 1;
	m->reasons = DMA_MIGRATE_R_SYSCALL;
	m->offload = true;
	m->start = true;
	for (i = 1; i < argc; i++) {
		char *eq = strchr(argv[i], '='), *end;
		unsigned long v;

		if (!eq)
			goto usage;
		*eq++ = '\0';
		if (!strcmp(argv[i], "expect")) {
			m->expect = eq;
			continue;
		}
		if (!strcmp(argv[i], "unbind")) {
			m->unbind = eq;
			continue;
		}
		if (!strcmp(argv[i], "ctl")) {
			if (strcmp(eq, "sysfs") && strcmp(eq, "ioctl"))
				goto usage;
			m->ioctl = !strcmp(eq, "ioctl");
			continue;
		}
		errno = 0;
		v = strtoul(eq, &end, 0);
		if (errno || *end || end == eq)
			goto usage;
		if (!strcmp(argv[i], "prep"))
			m->prep = v;
		else if (!strcmp(argv[i], "channels"))
			m->channels = v;
		else if (!strcmp(argv[i], "pages") && v)
			m->pages = v;
		else if (!strcmp(argv[i], "min_folios"))
			m->min_folios = v;
		else if (!strcmp(argv[i], "stop"))
			m->stop = v;
		else if (!strcmp(argv[i], "during"))
			m->during = v;
		else if (!strcmp(argv[i], "timeout_ms"))
			m->timeout_ms = v;
		else if (!strcmp(argv[i], "rewrite"))
			m->rewrite_ms = v;
		else if (!strcmp(argv[i], "movers") && v && v <= 64)
			m->movers = v;
		else if (!strcmp(argv[i], "reasons") && v)
			m->reasons = v;
		else if (!strcmp(argv[i], "poison"))
			m->poison = v;
		else if (!strcmp(argv[i], "offload"))
			m->offload = v;
		else if (!strcmp(argv[i], "settle"))
			m->settle_ms = v;
		else if (!strcmp(argv[i], "start"))
			m->start = v;
		else
			goto usage;
	}
	if (strcmp(m->expect, "offload") && strcmp(m->expect, "fallback") &&
	    strcmp(m->expect, "any") && strcmp(m->expect, "nohook") &&
	    strcmp(m->expect, "busy") && strcmp(m->expect, "unbind") &&
	    strcmp(m->expect, "bounce") && strcmp(m->expect, "hugetlb") &&
	    strcmp(m->expect, "mte") && strcmp(m->expect, "lost"))
		goto usage;
	m->hugetlb = !strcmp(m->expect, "hugetlb");
	m->mte = !strcmp(m->expect, "mte");
	if (!strcmp(m->expect, "unbind") != (m->unbind != NULL) ||
	    (m->during && !m->unbind) || (m->movers > 1 && m->unbind) ||
	    (m->poison && m->rewrite_ms) ||
	    (!m->offload && !m->hugetlb && !m->mte) ||
	    ((m->hugetlb || m->mte) &&
	     (m->poison || m->unbind || m->movers > 1 || m->rewrite_ms)))
		goto usage;
	return 0;
usage:
	fprintf(stderr, "usage: move_pages_offload [prep=MODE] [channels=N] [pages=N] [min_folios=N] [expect=offload|fallback|any|nohook|busy|unbind|bounce|hugetlb|mte|lost] [stop=0|1] [unbind=DEVICE [during=0|1]] [timeout_ms=N] [rewrite=MS] [movers=N] [reasons=MASK] [poison=1] [offload=0|1] [settle=MS] [ctl=sysfs|ioctl] [start=0|1]\n");
	return -1;
}

/*
 * START on a second file while the first's offload is active: EBUSY; over
 * the controls, a parameter's change: EBUSY, last_error naming it.
 */
static bool mpo_second_start_busy(const struct dma_migrate_offload *req,
				  bool ioctl)
{
	struct dma_migrate_offload a = *req;
	int fd;
	bool ok;

	if (!ioctl) {
		unsigned int hook;
		int ret = migrate_ctl_param("", "nr_dma_chan", "1");

		ok = ret == -EBUSY &&
		     strstr(migrate_ctl_last_error(), "nr_dma_chan") &&
		     migrate_ctl_state("", &hook) == MIGRATE_CTL_ON;
		if (!ok)
			printf("nr_dma_chan=1 while on: %s, last_error %s\n",
			       strerror(-ret), migrate_ctl_last_error());
		return ok;
	}
	fd = open(MU_DMAENGINE_PATH, O_RDWR);
	if (fd < 0)
		return false;
	ok = mu_offload(fd, &a, DMA_MIGRATE_OP_START,
			DMA_MIGRATE_F_ALLOW_FEWER) < 0 && errno == EBUSY &&
	     !a.active;
	if (!ok)
		printf("a second START: %s, active=%u\n",
		       errno == EBUSY ? "EBUSY" : strerror(errno), a.active);
	close(fd);
	return ok;
}

/* Unbind platform device @dev from its driver, as `echo dev > unbind`. */
static bool mpo_unbind(const char *dev)
{
	char path[256];
	bool ok;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/bus/platform/devices/%s/driver/unbind",
		 dev);
	f = fopen(path, "w");
	if (!f) {
		printf("%s: %s\n", path, strerror(errno));
		return false;
	}
	ok = fputs(dev, f) >= 0;
	ok = !fclose(f) && ok;
	if (!ok)
		printf("unbind %s: %s\n", dev, strerror(errno));
	return ok;
}

/* The unbinder thread of mpo_move_unbinding() and what it shares. */
struct mpo_unbinder {
	int fd;
	const char *dev;
	atomic_bool done;	/* the move is over */
	bool ok;		/* the unbind was done while the move ran */
};

/*
 * Wait until the offload on u->fd has copied a batch, then unbind u->dev
 * while the move goes on.
 */
static void *mpo_unbinder(void *arg)
{
	struct mpo_unbinder *u = arg;
	struct dma_migrate_offload a;
	int tries;

	for (tries = 0; tries < 60000; tries++) {
		memset(&a, 0, sizeof(a));
		if (mu_offload(u->fd, &a, DMA_MIGRATE_OP_STATS, 0) < 0) {
			printf("unbinder: STATS: %s\n", strerror(errno));
			return NULL;
		}
		if (a.batches)
			break;
		if (atomic_load(&u->done)) {
			printf("unbinder: the move ended before a batch was offloaded\n");
			return NULL;
		}
		usleep(1000);
	}
	if (!a.batches) {
		printf("unbinder: no batch offloaded in 60 s\n");
		return NULL;
	}
	if (atomic_load(&u->done)) {
		printf("unbinder: the move ended before the unbind\n");
		return NULL;
	}
	printf("unbinder: unbinding %s after %llu batches, %llu folios\n",
	       u->dev, a.batches, a.folios);
	if (!mpo_unbind(u->dev))
		return NULL;
	if (atomic_load(&u->done)) {
		printf("unbinder: the move ended while %s was unbound: too fast to tell\n",
		       u->dev);
		return NULL;
	}
	u->ok = true;
	return NULL;
}

/*
 * Move every page of @buf to @node in one move_pages() while a thread
 * unbinds @dev (a thread: a forked child would share the pages, which
 * move_pages() then refuses to move); false when the unbind was not done
 * while the move ran.
 */
static bool mpo_move_unbinding(int fd, char *buf, unsigned long n, long psize,
			      int node, const char *dev, long *moved)
{
	struct mpo_unbinder u = { .fd = fd, .dev = dev };
	pthread_t t;
	int err;

	*moved = -1;
	atomic_init(&u.done, false);
	err = pthread_create(&t, NULL, mpo_unbinder, &u);
	if (err) {
		printf("pthread_create: %s\n", strerror(err));
		return false;
	}
	*moved = mu_move(buf, n, psize, node);
	atomic_store(&u.done, true);
	pthread_join(t, NULL);
	return u.ok;
}

static volatile sig_atomic_t mpo_sigbus;

static void mpo_on_sigbus(int sig)
{
	mpo_sigbus = sig;
}

/*
 * Poison the first page of @buf as memory failure would. The kernel
 * treats the injection as an action-required error of the caller and
 * sends it SIGBUS (BUS_MCEERR_AR) at once: caught here, the page is never
 * touched again.
 */
static bool mpo_poison(char *buf, long psize)
{
	struct sigaction sa = { .sa_handler = mpo_on_sigbus }, old;
	bool ok;

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, &old)) {
		perror("sigaction(SIGBUS)");
		return false;
	}
	ok = !madvise(buf, psize, MADV_HWPOISON);
	if (!ok)
		perror("madvise(MADV_HWPOISON)");
	sigaction(SIGBUS, &old, NULL);
	return ok;
}


/* How long the last move to node 1 took, in ms */
static long mpo_move_ms;
/*
 * expect=mte: the machine did not keep the tags as set; every other check
 * passed: exit status 4
 */
static bool mpo_mte_unkept;

/* The offload's drain bound after a deadline (migrate_copy.h) */
#define MPO_DRAIN_MIN_MS	1000

/*
 * One mover: a buffer of its own, filled, moved to node 0, then to node 1
 * (with the unbinding of @m->unbind where asked, which needs @fd), the
 * data checked; with @m->rewrite_ms, a new pattern after the move, checked
 * again that much later. @id tells the movers' output apart.
 */
static bool mpo_mover(const struct mpo_args *m, long psize, int fd,
		     unsigned int id, long *moved)
{
	unsigned long n = m->pages;
	bool ok = true;
	char *buf;

	*moved = -1;
	if (m->mte && !mte_enable())
		return false;
	buf = mmap(NULL, n * psize,
		   PROT_READ | PROT_WRITE | (m->mte ? MTE_PROT : 0),
		   MAP_PRIVATE | MAP_ANONYMOUS | (m->hugetlb ? MAP_HUGETLB : 0),
		   -1, 0);
	if (buf == MAP_FAILED) {
		perror(m->hugetlb ? "mmap(MAP_HUGETLB)" : "mmap");
		return false;
	}
	/*
	 * no THP: a kernel without it refuses the advice with EINVAL; one
	 * without madvise() (tinyconfig's, the bench kernel) has ENOSYS, and
	 * the process's PR_SET_THP_DISABLE keeps THP away instead
	 */
	if (!m->hugetlb &&
	    madvise(buf, n * psize, MADV_NOHUGEPAGE) && errno != EINVAL &&
	    (errno != ENOSYS || prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0))) {
		perror("madvise(MADV_NOHUGEPAGE), prctl(PR_SET_THP_DISABLE)");
		return false;
	}
	mu_fill(buf, n, psize, 0);
	if (m->mte) {
		mte_set_tags(buf, n * psize);
		/*
		 * A machine that does not keep them can check no tag: the
		 * data is checked without tag checks then, the rest as ever
		 */
		if (!mte_verify(buf, n, psize)) {
			printf("mover %u: the tags do not read back as set, before any move: this machine does not keep MTE tags\n",
			       id);
			mpo_mte_unkept = true;
			mte_unchecked();
		}
	}
	/* all on node 0 first */
	if (mu_move(buf, n, psize, 0) != (long)n) {
		printf("mover %u: not every page is on node 0\n", id);
		/*
		 * with compaction beside, the kernel's own migrations may
		 * hold a page longer than the retries: the move to node 1,
		 * which is checked, is what the offload copies
		 */
		if (m->reasons == DMA_MIGRATE_R_SYSCALL)
			ok = false;
	}
	if (m->poison && !mpo_poison(buf, psize))
		return false;
	if (m->during) {
		if (!mpo_move_unbinding(fd, buf, n, psize, 1, m->unbind, moved))
			ok = false;
	} else if (m->unbind) {
		unsigned long half = n / 2;

		*moved = mu_move(buf, half, psize, 1);
		if (!mpo_unbind(m->unbind))
			ok = false;
		*moved += mu_move(buf + half * psize, n - half, psize, 1);
	} else {
		struct timespec t0, t1;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		*moved = mu_move(buf, n, psize, 1);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		mpo_move_ms = (t1.tv_sec - t0.tv_sec) * 1000 +
			     (t1.tv_nsec - t0.tv_nsec) / 1000000;
	}
	if (*moved != (long)(n - m->poison) && strcmp(m->expect, "lost")) {
		printf("mover %u: moved %ld of %lu pages to node 1%s\n", id,
		       *moved, n, m->poison ? ", one of them poisoned" : "");
		/*
		 * compaction in a loop beside may keep a page isolated
		 * through every retry (the bench kernel, once in 4096): there
		 * the checks are no hang, every page's data, the counters
		 */
		if (m->reasons == DMA_MIGRATE_R_SYSCALL)
			ok = false;
	}
	if (m->mte && !mpo_mte_unkept ? !mte_verify(buf, n, psize) :
		     !mu_verify(buf, n, psize, 0, m->poison))
		ok = false;
	if (m->rewrite_ms) {
		mu_fill(buf, n, psize, 1);
		usleep(m->rewrite_ms * 1000UL);
		if (!mu_verify(buf, n, psize, 1, 0)) {
			printf("mover %u: the buffer changed after the move\n",
			       id);
			ok = false;
		}
	}
	munmap(buf, n * psize);
	return ok;
}

/* The default huge page size, from /proc/meminfo's Hugepagesize; -1 */
static long mpo_huge_page_size(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long kb = -1;

	if (!f) {
		perror("/proc/meminfo");
		return -1;
	}
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Hugepagesize: %ld kB", &kb) == 1)
			break;
	fclose(f);
	if (kb <= 0) {
		printf("no Hugepagesize in /proc/meminfo: no hugetlb pages\n");
		return -1;
	}
	return kb * 1024;
}

int main(int argc, char **argv)
{
	struct dma_migrate_offload a = { 0 }, req;
	long psize = sysconf(_SC_PAGESIZE), moved;
	struct mpo_args m;
	bool ok = true;
	unsigned int i;
	int fd;

	if (mpo_parse(argc, argv, &m))
		return 2;
	if (m.hugetlb)
		psize = mpo_huge_page_size();
	if (psize <= 0)
		return 1;
	if (!m.offload) {
		if (!mpo_mover(&m, psize, -1, 0, &moved))
			return 1;
		return mpo_mte_unkept ? 4 : 0;
	}
	fd = m.ioctl ? open(MU_DMAENGINE_PATH, O_RDWR) : -1;
	if (m.ioctl && fd < 0) {
		perror(MU_DMAENGINE_PATH);
		return 1;
	}
	a.prep_mode = m.prep;
	a.channels = m.channels;
	a.reasons = m.reasons;
	a.timeout_ms = m.timeout_ms;
	a.min_folios = m.min_folios;
	req = a;
	if (!m.start) {
		a.active = 1;
		a.prep_mode_used = m.prep;
		m.stop = false;
	} else if (mu_offload(fd, &a, DMA_MIGRATE_OP_START,
			      DMA_MIGRATE_F_ALLOW_FEWER) < 0) {
		int err = errno;

		printf("START: %s error=%u hook=%u active=%u\n", strerror(err),
		       a.error, a.hook, a.active);
		if (!strcmp(m.expect, "bounce"))
			return err == EOPNOTSUPP &&
			       a.error == DMAENGINE_BENCH_ERR_LIMIT &&
			       !a.active ? 0 : 1;
		return !strcmp(m.expect, "nohook") && err == EOPNOTSUPP &&
		       a.error == DMAENGINE_BENCH_ERR_NO_API &&
		       a.hook == DMA_MIGRATE_HOOK_NONE && !a.active ? 0 : 1;
	}
	printf("START: channels_used=%u prep_mode_used=%u hook=%u\n",
	       a.channels_used, a.prep_mode_used, a.hook);
	if (!strcmp(m.expect, "nohook") || !strcmp(m.expect, "bounce")) {
		printf("START succeeded where it must be refused (expect=%s)\n",
		       m.expect);
		return 1;
	}
	if (!a.active || a.prep_mode_used != m.prep)
		ok = false;
	if (!strcmp(m.expect, "busy")) {
		ok = mpo_second_start_busy(&req, m.ioctl) && ok;
		if (!m.ioctl) {
			a = req;
			if (mu_offload(fd, &a, DMA_MIGRATE_OP_STOP, 0) < 0)
				ok = false;
		}
		return ok ? 0 : 1;
	}

	/* the counters from the moves to node 1 on */
	a = req;
	mu_offload(fd, &a, DMA_MIGRATE_OP_STATS, DMA_MIGRATE_F_RESET);
	fflush(stdout);
	for (i = 1; i < m.movers; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (!pid) {
			bool mover_ok;

			if (fd >= 0)
				close(fd);
			mover_ok = mpo_mover(&m, psize, -1, i, &moved);
			/* _exit() flushes no stdio: say why before */
			fflush(stdout);
			_exit(mover_ok ? 0 : 1);
		}
	}
	if (!mpo_mover(&m, psize, fd, 0, &moved))
		ok = false;
	for (i = 1; i < m.movers; i++) {
		int status;

		if (wait(&status) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			printf("a mover process failed\n");
			ok = false;
		}
	}
	moved *= m.movers;
	a = req;
	if (mu_offload(fd, &a, DMA_MIGRATE_OP_STATS, 0) < 0) {
		printf("STATS: %s error=%u\n", strerror(errno), a.error);
		ok = false;
	}
	printf("moved=%ld folios=%llu offloaded=%llu fallback=%llu declined=%llu errors=%llu batches=%llu declined_batches=%llu bytes=%llu descriptors=%llu batch_ns=%llu lost=%llu released=%llu async_batches=%llu async_max_ns=%llu\n",
	       moved, a.folios, a.folios_offloaded, a.folios_fallback,
	       a.folios_declined, a.errors, a.batches, a.batches_declined,
	       a.bytes, a.descriptors, a.ph.batch_ns, a.folios_lost,
	       a.folios_released, a.async_batches, a.async_max_ns);
	/* other reasons than move_pages() bring other folios */
	/* a lost folio's move is retried: counted again */
	if ((!a.folios && !m.hugetlb && !m.mte) ||
	    (m.reasons == DMA_MIGRATE_R_SYSCALL &&
	     a.folios > (unsigned long long)moved + a.folios_lost) ||
	    a.folios_offloaded + a.folios_fallback + a.folios_declined +
	    a.folios_lost != a.folios || a.batches_declined > a.batches ||
	    !a.batches_declined != !a.folios_declined) {
		printf("the counters do not add up to the folios moved\n");
		ok = false;
	}
	if (!strcmp(m.expect, "offload") &&
	    (a.folios_offloaded != a.folios || a.errors || a.batches_declined ||
	     a.bytes != (unsigned long long)moved * psize || !a.descriptors ||
	     !a.ph.batch_ns)) {
		printf("not every folio was offloaded\n");
		ok = false;
	}
	if ((m.hugetlb || m.mte) && a.folios) {
		printf("%s folios reached the offload\n",
		       m.hugetlb ? "hugetlb" : "MTE-tagged");
		ok = false;
	}
	if (!strcmp(m.expect, "lost")) {
		long bound = m.timeout_ms +
			     (m.timeout_ms > MPO_DRAIN_MIN_MS ? m.timeout_ms :
			      MPO_DRAIN_MIN_MS) + 1000;

		printf("the move took %ld ms, the bound is %ld ms\n",
		       mpo_move_ms, bound);
		if (mpo_move_ms > bound || !a.folios_lost || !a.errors) {
			printf("expected folios lost, within the bound\n");
			ok = false;
		}
		if (m.settle_ms)
			usleep(m.settle_ms * 1000UL);
	}
	if (!strcmp(m.expect, "fallback") && (!a.folios_fallback || !a.errors)) {
		printf("no folio fell back to the CPU\n");
		ok = false;
	}
	if (!strcmp(m.expect, "unbind") &&
	    (!a.folios_offloaded || !(a.folios_fallback + a.folios_declined))) {
		printf("expected folios offloaded before the unbind and fallen back after\n");
		ok = false;
	}
	if (m.stop) {
		a = req;
		int stop = mu_offload(fd, &a, DMA_MIGRATE_OP_STOP, 0);

		if (stop < 0 || a.active) {
			printf("STOP: %s active=%u\n", stop < 0 ? strerror(errno) :
			       "returned 0", a.active);
			ok = false;
		}
	}
	if (fd >= 0)
		close(fd);
	if (ok && mpo_mte_unkept)
		return 4;
	return ok ? 0 : 1;
}
