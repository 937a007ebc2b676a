// SPDX-License-Identifier: GPL-2.0-only
/*
 * mbioctl: issue the benchmark's ioctls with raw field values, bypassing
 * the tool's own validation, so tests can prove what the kernel refuses.
 *
 *   mbioctl map [field=value]...        DMA_MAP_BENCHMARK
 *   mbioctl mapext [field=value]...     DMA_MAP_BENCHMARK_EXT (cpus=0,1,...)
 *   mbioctl dmaengine [field=value]...  DMAENGINE_BENCHMARK
 *   mbioctl fuzz SECONDS SEED [contend] random and boundary structures;
 *                                       contend: a SIGALRM every 1.5 s
 *                                       interrupts calls, and dmaengine
 *                                       timeouts are short enough to expire
 *
 * Prints "rc=0" and the result fields, or "errno=NAME" (and for the
 * dmaengine ioctl "error=N channel=N run=N"). Exit status 0 when the
 * ioctl succeeded, 1 when it failed, 2 on a usage error.
 *
 * fail_nth=N (either command) makes the Nth allocation of the ioctl fail
 * through /proc/thread-self/fail-nth (CONFIG_FAULT_INJECTION), and prints
 * "injected=1" when the fault was consumed, "injected=0" when the ioctl
 * made fewer than N fault-capable calls.
 *
 * uid=N opens the file as root, then becomes user N (no capability left)
 * before the ioctl; repeat=N issues the ioctl N times (the last one's
 * result is printed).
 *
 * dmaengine: a "modeN" line per prep mode (DMAENGINE_BENCH_NR_MODES of
 * them with version 2, copy_ns and convert_ns among the figures);
 * list_channels=1 passes a channel array (channels_ptr, ->channels
 * entries) and prints a "chanN" line per channel the kernel filled, with
 * has_memcpy_sg and has_memcpy_vec.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <linux/map_benchmark.h>

#define MAP_PATH	"/sys/kernel/debug/dma_map_benchmark"
#define DMAENGINE_PATH	"/sys/kernel/debug/dmaengine_benchmark"

struct field {
	const char *name;
	size_t offset;
	size_t size;
	int is_string;
};

#define F(type, member) \
	{ #member, offsetof(type, member), sizeof(((type *)0)->member), 0 }
#define S(type, member) \
	{ #member, offsetof(type, member), sizeof(((type *)0)->member), 1 }

static const struct field map_fields[] = {
	F(struct map_benchmark, threads),
	F(struct map_benchmark, seconds),
	F(struct map_benchmark, node),
	F(struct map_benchmark, dma_bits),
	F(struct map_benchmark, dma_dir),
	F(struct map_benchmark, dma_trans_ns),
	F(struct map_benchmark, granule),
	F(struct map_benchmark, map_mode),
	F(struct map_benchmark, avg_map_100ns),
	{ NULL, 0, 0, 0 }
};

static const struct field mapext_fields[] = {
	F(struct map_benchmark_ext, size),
	F(struct map_benchmark_ext, flags),
	F(struct map_benchmark_ext, map_mode),
	F(struct map_benchmark_ext, threads),
	F(struct map_benchmark_ext, seconds),
	F(struct map_benchmark_ext, iterations),
	F(struct map_benchmark_ext, node),
	F(struct map_benchmark_ext, dma_bits),
	F(struct map_benchmark_ext, dma_dir),
	F(struct map_benchmark_ext, dma_trans_ns),
	F(struct map_benchmark_ext, entries),
	F(struct map_benchmark_ext, entry_size),
	F(struct map_benchmark_ext, cpus_ptr),
	F(struct map_benchmark_ext, nr_cpus),
	F(struct map_benchmark_ext, reserved0),
	{ NULL, 0, 0, 0 }
};

static const struct field dmaengine_fields[] = {
	F(struct dmaengine_benchmark, size),
	F(struct dmaengine_benchmark, flags),
	F(struct dmaengine_benchmark, prep_modes),
	F(struct dmaengine_benchmark, channels),
	F(struct dmaengine_benchmark, folio_order),
	F(struct dmaengine_benchmark, sge),
	F(struct dmaengine_benchmark, bytes_per_channel),
	F(struct dmaengine_benchmark, runs),
	F(struct dmaengine_benchmark, warmup_runs),
	F(struct dmaengine_benchmark, src_node),
	F(struct dmaengine_benchmark, dst_node),
	F(struct dmaengine_benchmark, timeout_ms),
	F(struct dmaengine_benchmark, reserved0),
	S(struct dmaengine_benchmark, channel),
	S(struct dmaengine_benchmark, device),
	F(struct dmaengine_benchmark, samples_ptr),
	F(struct dmaengine_benchmark, samples_len),
	F(struct dmaengine_benchmark, reserved1),
	F(struct dmaengine_benchmark, channels_ptr),
	F(struct dmaengine_benchmark, error),
	F(struct dmaengine_benchmark, depth),
	F(struct dmaengine_benchmark, sample_size),
	F(struct dmaengine_benchmark, cpus_ptr),
	F(struct dmaengine_benchmark, nr_cpus),
	F(struct dmaengine_benchmark, dst_folio_order),
	{ NULL, 0, 0, 0 }
};

static long fail_nth;
static long list_channels;
static long as_uid = -1;
static long repeat = 1;

/* The ioctl, as user as_uid if given, repeat times. */
static int bench_ioctl(int fd, unsigned long cmd, void *arg)
{
	int ret = 0;
	long i;

	if (as_uid >= 0 && (setgid(as_uid) || setuid(as_uid))) {
		printf("setuid=%s\n", strerrorname_np(errno));
		exit(1);
	}
	for (i = 0; i < repeat; i++)
		ret = ioctl(fd, cmd, arg);
	return ret;
}

/* Arm fail-nth for this thread just before the ioctl. */
static int fail_nth_arm(void)
{
	char buf[32];
	int fd, n;

	if (!fail_nth)
		return -1;
	fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (fd < 0) {
		printf("fail-nth=%s\n", strerrorname_np(errno));
		exit(1);
	}
	n = snprintf(buf, sizeof(buf), "%ld", fail_nth);
	if (write(fd, buf, n) != n) {
		printf("fail-nth write=%s\n", strerrorname_np(errno));
		exit(1);
	}
	return fd;
}

/* Report whether the armed fault was injected, and disarm it. */
static void fail_nth_report(int fd)
{
	char buf[32] = "";

	if (fd < 0)
		return;
	if (pread(fd, buf, sizeof(buf) - 1, 0) < 0)
		buf[0] = 0;
	printf("injected=%d\n", atoi(buf) == 0);
	if (write(fd, "0", 1) != 1)
		perror("fail-nth");
	close(fd);
}

static void put_field(void *base, const struct field *f, uint64_t v)
{
	char *p = (char *)base + f->offset;

	switch (f->size) {
	case 1: { uint8_t x = v; memcpy(p, &x, 1); break; }
	case 2: { uint16_t x = v; memcpy(p, &x, 2); break; }
	case 4: { uint32_t x = v; memcpy(p, &x, 4); break; }
	default: memcpy(p, &v, 8); break;
	}
}

/*
 * name=value, or name[index]=value for a byte of an array (expansion,
 * reserved_in), or tail=N for a nonzero byte N bytes past the structure
 * with ->size grown to hold it.
 */
static int set_field(void *base, size_t base_size, const struct field *fields,
		     const char *arg, size_t *tail)
{
	const char *eq = strchr(arg, '=');
	char name[64];
	uint64_t v;
	char *end;
	size_t n;

	if (!eq || (size_t)(eq - arg) >= sizeof(name))
		return -1;
	n = eq - arg;
	memcpy(name, arg, n);
	name[n] = 0;

	if (!strcmp(name, "fail_nth")) {
		fail_nth = strtol(eq + 1, NULL, 0);
		return 0;
	}
	if (!strcmp(name, "uid")) {
		as_uid = strtol(eq + 1, NULL, 0);
		return 0;
	}
	if (!strcmp(name, "list_channels")) {
		list_channels = strtol(eq + 1, NULL, 0);
		return 0;
	}
	if (!strcmp(name, "repeat")) {
		repeat = strtol(eq + 1, NULL, 0);
		return repeat > 0 ? 0 : -1;
	}
	if (!strcmp(name, "tail")) {
		*tail = strtoull(eq + 1, NULL, 0);
		return 0;
	}
	if (strchr(name, '[')) {
		size_t off = strtoull(strchr(name, '[') + 1, NULL, 0);
		size_t at;

		if (!strncmp(name, "expansion[", 10))
			at = offsetof(struct map_benchmark, expansion) + off;
		else if (!strncmp(name, "reserved_in[", 12))
			at = offsetof(struct dmaengine_benchmark, reserved_in) + off;
		else if (!strncmp(name, "reserved_out[", 13))
			at = offsetof(struct dmaengine_benchmark, reserved_out) + off;
		else
			return -1;
		if (at >= base_size)
			return -1;
		((unsigned char *)base)[at] = strtoul(eq + 1, NULL, 0);
		return 0;
	}
	for (; fields->name; fields++) {
		if (strcmp(fields->name, name))
			continue;
		if (fields->is_string) {
			memset((char *)base + fields->offset, 0, fields->size);
			/* "!" fills the field without a terminating NUL */
			if (!strcmp(eq + 1, "!"))
				memset((char *)base + fields->offset, 'x',
				       fields->size);
			else
				strncpy((char *)base + fields->offset, eq + 1,
					fields->size - 1);
			return 0;
		}
		errno = 0;
		v = strtoull(eq + 1, &end, 0);
		if (eq[1] == '-')
			v = (uint64_t)strtoll(eq + 1, &end, 0);
		if (*end || errno)
			return -1;
		put_field(base, fields, v);
		return 0;
	}
	return -1;
}

/*
 * cpus=0,1,...: a CPU list at @cpus (room for 1024), pointed to by @ptr.
 * Returns whether @arg was one.
 */
static int parse_cpus(char *arg, __u32 *cpus, __u32 *nr, __u64 *ptr)
{
	char *tok, *save = NULL;

	if (strncmp(arg, "cpus=", 5))
		return 0;
	*nr = 0;
	for (tok = strtok_r(arg + 5, ",", &save); tok && *nr < 1024;
	     tok = strtok_r(NULL, ",", &save))
		cpus[(*nr)++] = strtoul(tok, NULL, 0);
	*ptr = (uintptr_t)cpus;
	return 1;
}

static void map_defaults(struct map_benchmark *m)
{
	memset(m, 0, sizeof(*m));
	m->threads = 1;
	m->seconds = 1;
	m->node = -1;
	m->dma_bits = 32;
	m->granule = 1;
}

static void dmaengine_defaults(struct dmaengine_benchmark *d)
{
	memset(d, 0, sizeof(*d));
	d->size = sizeof(*d);
	d->prep_modes = DMAENGINE_BENCH_PREP_MEMCPY;
	d->channels = 1;
	d->sge = 8;
	d->bytes_per_channel = 1 << 20;
	d->runs = 1;
	d->src_node = -1;
	d->dst_node = -1;
}

static int do_map(struct map_benchmark *m, int quiet)
{
	int fd = open(MAP_PATH, O_RDWR), ret, nth;

	if (fd < 0) {
		printf("open=%s\n", strerrorname_np(errno));
		return 1;
	}
	nth = fail_nth_arm();
	ret = bench_ioctl(fd, DMA_MAP_BENCHMARK, m);
	fail_nth_report(nth);
	if (ret)
		printf("errno=%s\n", strerrorname_np(errno));
	else if (!quiet)
		printf("rc=0 avg_map_100ns=%llu map_stddev=%llu avg_unmap_100ns=%llu unmap_stddev=%llu\n",
		       (unsigned long long)m->avg_map_100ns,
		       (unsigned long long)m->map_stddev,
		       (unsigned long long)m->avg_unmap_100ns,
		       (unsigned long long)m->unmap_stddev);
	close(fd);
	return ret ? 1 : 0;
}

static void mapext_defaults(struct map_benchmark_ext *m)
{
	memset(m, 0, sizeof(*m));
	m->size = sizeof(*m);
	m->threads = 1;
	m->seconds = 1;
	m->node = -1;
	m->dma_bits = 32;
	m->entries = 1;
}

static const char *const op_names[DMA_MAP_BENCH_NR_OPS] = {
	"map", "unmap", "sync_cpu", "sync_device"
};

static int do_mapext(void *buf)
{
	struct map_benchmark_ext *m = buf;
	int fd = open(MAP_PATH, O_RDWR), ret, i, nth;

	if (fd < 0) {
		printf("open=%s\n", strerrorname_np(errno));
		return 1;
	}
	nth = fail_nth_arm();
	ret = bench_ioctl(fd, DMA_MAP_BENCHMARK_EXT, buf);
	fail_nth_report(nth);
	if (ret) {
		printf("errno=%s\n", strerrorname_np(errno));
	} else {
		printf("rc=0\n");
		for (i = 0; i < DMA_MAP_BENCH_NR_OPS; i++) {
			const struct map_benchmark_op_stat *o = &m->op[i];

			printf("%s count=%llu mean=%llu stddev=%llu min=%llu p50=%llu p90=%llu p99=%llu max=%llu\n",
			       op_names[i], (unsigned long long)o->count,
			       (unsigned long long)o->mean_ns,
			       (unsigned long long)o->stddev_ns,
			       (unsigned long long)o->min_ns,
			       (unsigned long long)o->p50_ns,
			       (unsigned long long)o->p90_ns,
			       (unsigned long long)o->p99_ns,
			       (unsigned long long)o->max_ns);
		}
	}
	close(fd);
	return ret ? 1 : 0;
}

/* list_channels=1: the channel array the kernel filled, a line each */
static void print_channels(const struct dmaengine_benchmark *d)
{
	const struct dmaengine_bench_channel *ch =
		(const void *)(uintptr_t)d->channels_ptr;
	unsigned int i;

	if (!list_channels || !ch)
		return;
	for (i = 0; i < d->channels && i < d->channels_used; i++)
		printf("chan%u name=%.*s device=%.*s driver=%.*s max_seg_size=%u copy_align=%u has_memcpy_sg=%u has_memcpy_vec=%u no_order=%u\n",
		       i, DMAENGINE_BENCH_NAME_LEN, ch[i].name,
		       DMAENGINE_BENCH_NAME_LEN, ch[i].device,
		       DMAENGINE_BENCH_NAME_LEN, ch[i].driver,
		       ch[i].max_seg_size, ch[i].copy_align,
		       ch[i].has_memcpy_sg, ch[i].has_memcpy_vec,
		       ch[i].no_order);
}

static int do_dmaengine(void *buf, int quiet)
{
	struct dmaengine_benchmark *d = buf;
	int fd = open(DMAENGINE_PATH, O_RDWR), ret, i, nth;

	if (fd < 0) {
		printf("open=%s\n", strerrorname_np(errno));
		return 1;
	}
	nth = fail_nth_arm();
	ret = bench_ioctl(fd, DMAENGINE_BENCHMARK, buf);
	fail_nth_report(nth);
	if (ret) {
		printf("errno=%s error=%u channel=%u run=%u prep_mode=%u channels_used=%u\n",
		       strerrorname_np(errno), d->error, d->error_channel,
		       d->error_run, d->error_prep_mode, d->channels_used);
	} else if (!quiet) {
		bool v2 = d->size >= DMAENGINE_BENCH_SIZE_VER2;
		int modes = v2 ? DMAENGINE_BENCH_NR_MODES :
				 DMAENGINE_BENCH_NR_PREP_MODES;

		printf("rc=0 channels_used=%u samples_written=%u prep_modes_run=%u\n",
		       d->channels_used, d->samples_written,
		       v2 ? d->prep_modes_run : d->prep_modes);
		for (i = 0; i < modes; i++) {
			const struct dmaengine_bench_result2 *x = &d->results[i];
			const struct dmaengine_bench_result *r =
				v2 ? &x->r : &d->result[i];

			printf("mode%d runs=%u run_ns=%llu prep_ns=%llu submit_ns=%llu issue_ns=%llu wait_ns=%llu map_ns=%llu unmap_ns=%llu bytes=%llu prep_calls=%llu submits=%llu batches=%llu segments=%llu bps=%llu",
			       i, r->runs,
			       (unsigned long long)r->run_ns.mean,
			       (unsigned long long)r->prep_ns.mean,
			       (unsigned long long)r->submit_ns.mean,
			       (unsigned long long)r->issue_ns.mean,
			       (unsigned long long)r->wait_ns.mean,
			       (unsigned long long)r->map_ns.mean,
			       (unsigned long long)r->unmap_ns.mean,
			       (unsigned long long)r->bytes,
			       (unsigned long long)r->prep_calls,
			       (unsigned long long)r->submits,
			       (unsigned long long)r->batches,
			       (unsigned long long)r->segments,
			       (unsigned long long)r->bytes_per_sec.mean);
			if (v2)
				printf(" copy_ns=%llu prep_stalls=%llu missing=%u convert_ns=%llu",
				       (unsigned long long)x->copy_ns.mean,
				       (unsigned long long)x->prep_stalls.mean,
				       x->missing,
				       (unsigned long long)x->convert_ns.mean);
			printf("\n");
		}
		print_channels(d);
	}
	close(fd);
	return ret ? 1 : 0;
}

/* ---- fuzzing: boundary values, random values, bounded run time ---- */

static uint64_t rnd(void)
{
	return ((uint64_t)random() << 33) ^ ((uint64_t)random() << 11) ^
	       (uint64_t)random();
}

static uint64_t pick(uint64_t lo, uint64_t hi)
{
	static const int64_t specials[] = { 0, 1, -1, 2, 0x7fffffff,
					    0x80000000LL, 0xffffffffLL };

	switch (random() % 6) {
	case 0:
		return lo;
	case 1:
		return hi;
	case 2:
		return hi + 1;
	case 3:
		return lo - 1;
	case 4:
		return specials[random() % (sizeof(specials) / sizeof(specials[0]))];
	default:
		return rnd();
	}
}

static char last_call[512];
static int contend;
static unsigned long interrupted;

static void fuzz_map(int quiet)
{
	struct map_benchmark m;

	map_defaults(&m);
	if (random() % 2) m.threads = pick(1, 4);
	if (random() % 2) m.seconds = pick(1, 1);
	if (random() % 2) m.node = pick(0, 1);
	if (random() % 2) m.dma_bits = pick(20, 64);
	if (random() % 2) m.dma_dir = pick(0, 2);
	if (random() % 2) m.dma_trans_ns = pick(0, 1000);
	if (random() % 2) m.granule = pick(1, DMA_MAP_MAX_GRANULE);
	if (random() % 2) m.map_mode = pick(0, DMA_MAP_BENCH_MODE_MAX - 1);
	if (random() % 8 == 0)
		m.expansion[random() % sizeof(m.expansion)] = random();
	/* keep valid runs short: the fuzzer tests refusal, not endurance */
	if (m.seconds >= 1 && m.seconds <= DMA_MAP_MAX_SECONDS)
		m.seconds = 1;
	if (m.threads > 4 && m.threads <= DMA_MAP_MAX_THREADS)
		m.threads = 4;
	if (m.dma_trans_ns > 1000 && m.dma_trans_ns <= DMA_MAP_MAX_TRANS_DELAY)
		m.dma_trans_ns = 1000;
	snprintf(last_call, sizeof(last_call),
		 "map threads=%u seconds=%u node=%d dma_bits=%u dma_dir=%u dma_trans_ns=%u granule=%u map_mode=%u",
		 m.threads, m.seconds, m.node, m.dma_bits, m.dma_dir,
		 m.dma_trans_ns, m.granule, m.map_mode);
	do_map(&m, quiet);
}

static void fuzz_dmaengine(int quiet)
{
	union {
		struct dmaengine_benchmark d;
		unsigned char raw[sizeof(struct dmaengine_benchmark) + 64];
	} u;
	struct dmaengine_benchmark *d = &u.d;

	memset(&u, 0, sizeof(u));
	dmaengine_defaults(d);
	if (random() % 4 == 0) d->size = pick(DMAENGINE_BENCH_SIZE_VER1, sizeof(u));
	if (random() % 4 == 0) d->flags = pick(0, DMAENGINE_BENCH_F_ALL);
	if (random() % 2) d->prep_modes = pick(1, DMAENGINE_BENCH_PREP_ALL);
	if (random() % 2) d->channels = pick(1, 4);
	if (random() % 2) d->folio_order = pick(0, 4);
	if (random() % 2) d->sge = pick(1, 64);
	if (random() % 2) d->bytes_per_channel = pick(1, 1 << 20);
	if (random() % 2) d->runs = pick(1, 2);
	if (random() % 2) d->warmup_runs = pick(0, 1);
	if (random() % 3 == 0) d->src_node = pick(0, 1);
	if (random() % 3 == 0) d->dst_node = pick(0, 1);
	if (random() % 3 == 0) d->timeout_ms = pick(0, 1000);
	if (random() % 4 == 0) d->dst_folio_order = pick(0, 4);
	if (random() % 8 == 0) d->reserved0 = rnd();
	if (random() % 8 == 0) d->reserved_in[random() % 4] = rnd();
	if (random() % 8 == 0) d->samples_len = pick(0, 16);
	if (random() % 8 == 0) d->samples_ptr = rnd();
	if (random() % 8 == 0) d->channels_ptr = rnd();
	if (random() % 8 == 0) memset(d->channel, 'x', sizeof(d->channel));
	if (random() % 8 == 0) u.raw[sizeof(*d) + random() % 64] = 1;
	/* bound the work of valid requests so the fuzzer keeps moving */
	if (d->channels > 4 && d->channels <= DMAENGINE_BENCH_MAX_CHANNELS)
		d->channels = 4;
	if (d->folio_order > 4 && d->folio_order < 64)
		d->folio_order = 4;
	if (d->dst_folio_order > 4 && d->dst_folio_order < 64)
		d->dst_folio_order = 4;
	if (d->sge > 64 && d->sge <= DMAENGINE_BENCH_MAX_SGE)
		d->sge = 64;
	if (d->bytes_per_channel > (1 << 20) &&
	    d->bytes_per_channel <= (1ULL << 40))
		d->bytes_per_channel = 1 << 20;
	if (d->runs > 2 && d->runs <= DMAENGINE_BENCH_MAX_RUNS)
		d->runs = 2;
	if (d->warmup_runs > 1 && d->warmup_runs <= DMAENGINE_BENCH_MAX_WARMUP)
		d->warmup_runs = 1;
	if (d->timeout_ms > 1000)
		d->timeout_ms = 1000;
	/* under contention, timeouts that expire on a slowed provider */
	if (contend && random() % 2)
		d->timeout_ms = pick(1, 20);
	snprintf(last_call, sizeof(last_call),
		 "dmaengine size=%u flags=%u prep_modes=%u channels=%u folio_order=%u dst_folio_order=%u sge=%u bytes_per_channel=%llu runs=%u warmup_runs=%u src_node=%d dst_node=%d timeout_ms=%u",
		 d->size, d->flags, d->prep_modes, d->channels, d->folio_order,
		 d->dst_folio_order, d->sge, (unsigned long long)d->bytes_per_channel, d->runs,
		 d->warmup_runs, d->src_node, d->dst_node, d->timeout_ms);
	do_dmaengine(&u, quiet);
}

/* The DMA-API debug error count, or -1 without CONFIG_DMA_API_DEBUG. */
static long dma_api_errors(void)
{
	FILE *f = fopen("/sys/kernel/debug/dma-api/error_count", "r");
	long n = -1;

	if (f) {
		if (fscanf(f, "%ld", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

static void on_alarm(int sig)
{
	(void)sig;
	interrupted++;
}

/* A SIGALRM every 1.5 s, without SA_RESTART: it interrupts the ioctls. */
static void start_alarms(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval it = {
		.it_interval = { .tv_sec = 1, .tv_usec = 500000 },
		.it_value = { .tv_sec = 1, .tv_usec = 500000 },
	};

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) || setitimer(ITIMER_REAL, &it, NULL)) {
		perror("mbioctl: alarms");
		exit(2);
	}
}

static int fuzz(int seconds, unsigned int seed)
{
	time_t until = time(NULL) + seconds;
	long errors = dma_api_errors(), now;
	unsigned long n = 0;

	srandom(seed);
	if (contend)
		start_alarms();
	while (time(NULL) < until) {
		if (random() % 2)
			fuzz_map(1);
		else
			fuzz_dmaengine(1);
		n++;
		/* name the call after which DMA-API debugging complained */
		now = dma_api_errors();
		if (now > errors)
			printf("fuzz: call %lu raised the DMA-API error count to %ld: %s\n",
			       n, now, last_call);
		errors = now;
	}
	printf("fuzz: %lu calls in %d s, seed %u%s\n", n, seconds, seed,
	       contend ? ", contended" : "");
	if (contend)
		printf("fuzz: %lu signals\n", interrupted);
	return 0;
}

int main(int argc, char **argv)
{
	union {
		struct dmaengine_benchmark d;
		unsigned char raw[sizeof(struct dmaengine_benchmark) + 256];
	} u;
	struct map_benchmark m;
	size_t tail = 0;
	int i;

	if (argc >= 4 && !strcmp(argv[1], "fuzz")) {
		contend = argc >= 5 && !strcmp(argv[4], "contend");
		return fuzz(atoi(argv[2]), strtoul(argv[3], NULL, 0));
	}
	if (argc < 2)
		goto usage;

	if (!strcmp(argv[1], "map")) {
		map_defaults(&m);
		for (i = 2; i < argc; i++)
			if (set_field(&m, sizeof(m), map_fields, argv[i], &tail))
				goto bad;
		return do_map(&m, 0);
	}
	if (!strcmp(argv[1], "mapext")) {
		static uint32_t cpus[DMA_MAP_MAX_CPUS];
		union {
			struct map_benchmark_ext m;
			unsigned char raw[sizeof(struct map_benchmark_ext) + 256];
		} x;

		memset(&x, 0, sizeof(x));
		mapext_defaults(&x.m);
		for (i = 2; i < argc; i++) {
			if (parse_cpus(argv[i], cpus, &x.m.nr_cpus,
				       &x.m.cpus_ptr))
				continue;
			if (set_field(&x, sizeof(x.m), mapext_fields, argv[i],
				      &tail))
				goto bad;
		}
		if (tail) {
			if (tail > sizeof(x) - sizeof(x.m))
				goto bad;
			x.raw[sizeof(x.m) + tail - 1] = 1;
			x.m.size = sizeof(x.m) + tail;
		}
		return do_mapext(&x);
	}
	if (!strcmp(argv[1], "dmaengine")) {
		memset(&u, 0, sizeof(u));
		static uint32_t cpus[DMAENGINE_BENCH_MAX_CPUS];
		static struct dmaengine_bench_channel
			chans[DMAENGINE_BENCH_MAX_CHANNELS];

		dmaengine_defaults(&u.d);
		for (i = 2; i < argc; i++) {
			if (parse_cpus(argv[i], cpus, &u.d.nr_cpus,
				       &u.d.cpus_ptr))
				continue;
			if (set_field(&u, sizeof(u.d), dmaengine_fields, argv[i],
				      &tail))
				goto bad;
		}
		if (tail) {
			if (tail > sizeof(u) - sizeof(u.d))
				goto bad;
			u.raw[sizeof(u.d) + tail - 1] = 1;
			u.d.size = sizeof(u.d) + tail;
		}
		if (list_channels && !u.d.channels_ptr &&
		    u.d.channels <= DMAENGINE_BENCH_MAX_CHANNELS)
			u.d.channels_ptr = (uintptr_t)chans;
		return do_dmaengine(&u, 0);
	}
usage:
	fprintf(stderr, "usage: mbioctl map|mapext|dmaengine [field=value]... | fuzz SECONDS SEED [contend]\n");
	return 2;
bad:
	fprintf(stderr, "mbioctl: bad argument '%s'\n", argv[i]);
	return 2;
}
