// SPDX-License-Identifier: GPL-2.0-only
/*
 * mbioctl: issue the benchmark's ioctls with raw field values, bypassing
 * the tool's own validation, so tests can prove what the kernel refuses.
 *
 *   mbioctl map [field=value]...        DMA_MAP_BENCHMARK
 *   mbioctl mapext [field=value]...     DMA_MAP_BENCHMARK_EXT (cpus=0,1,...)
 *   mbioctl dmaengine [field=value]...  DMAENGINE_BENCHMARK
 *   mbioctl fuzz SECONDS SEED [contend|map]
 *                                       random and boundary structures;
 *                                       contend: a SIGALRM every 1.5 s
 *                                       interrupts calls, and dmaengine
 *                                       timeouts are short enough to expire;
 *                                       map: the two map ioctls only
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
 * result is printed); nr=N issues it with ioctl number N instead of the
 * header's (type and size bits kept): an earlier layout's number.
 *
 * dmaengine: a "modeN" line per prep mode (DMAENGINE_BENCH_NR_MODES of
 * them, copy_ns and convert_ns among the figures);
 * list_channels=1 passes a channel array (channels_ptr, ->channels
 * entries) and prints a "chanN" line per channel the kernel filled, with
 * has_memcpy_sg and has_memcpy_vec.
 */
#define _GNU_SOURCE
/* __u64 is unsigned long long on every architecture: printed with %llu */
#define __SANE_USERSPACE_TYPES__
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
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

/*
 * A field of an ioctl's structure that an argument can set: a number
 * (name=value), a string ('s', name=text, or "!" to fill it without a NUL)
 * or an array of bytes ('b', name[index]=value, for reserved bytes).
 * def is its value before any argument.
 */
struct field {
	const char *name;
	size_t offset;
	size_t size;
	char kind;
	long long def;
};

#define FIELD(type, member, kind, def) \
	{ #member, offsetof(type, member), sizeof(((type *)0)->member), kind, def }
#define MAP(member, def)	FIELD(struct map_benchmark, member, 'n', def)
#define EXT(member, def)	FIELD(struct map_benchmark_ext, member, 'n', def)
#define DE(member, def)		FIELD(struct dmaengine_benchmark, member, 'n', def)

static const struct field map_fields[] = {
	MAP(threads, 1),
	MAP(seconds, 1),
	MAP(node, -1),
	MAP(dma_bits, 32),
	MAP(dma_dir, 0),
	MAP(dma_trans_ns, 0),
	MAP(granule, 1),
	MAP(map_mode, 0),
	MAP(avg_map_100ns, 0),
	FIELD(struct map_benchmark, expansion, 'b', 0),
	{ NULL }
};

static const struct field mapext_fields[] = {
	EXT(size, sizeof(struct map_benchmark_ext)),
	EXT(flags, 0),
	EXT(map_mode, 0),
	EXT(threads, 1),
	EXT(seconds, 1),
	EXT(iterations, 0),
	EXT(node, -1),
	EXT(dma_bits, 32),
	EXT(dma_dir, 0),
	EXT(dma_trans_ns, 0),
	EXT(entries, 1),
	EXT(entry_size, 0),
	EXT(cpus_ptr, 0),
	EXT(nr_cpus, 0),
	EXT(reserved0, 0),
	{ NULL }
};

static const struct field dmaengine_fields[] = {
	DE(size, sizeof(struct dmaengine_benchmark)),
	DE(flags, 0),
	DE(prep_modes, DMAENGINE_BENCH_PREP_MEMCPY),
	DE(channels, 1),
	DE(folio_order, 0),
	DE(dst_folio_order, 0),
	DE(sge, 8),
	DE(depth, 0),
	DE(bytes_per_channel, 1 << 20),
	DE(runs, 1),
	DE(warmup_runs, 0),
	DE(src_node, -1),
	DE(dst_node, -1),
	DE(timeout_ms, 0),
	DE(sample_size, 0),
	FIELD(struct dmaengine_benchmark, channel, 's', 0),
	FIELD(struct dmaengine_benchmark, device, 's', 0),
	DE(samples_ptr, 0),
	DE(samples_len, 0),
	DE(nr_cpus, 0),
	DE(cpus_ptr, 0),
	DE(channels_ptr, 0),
	FIELD(struct dmaengine_benchmark, reserved_in, 'b', 0),
	DE(error, 0),
	DE(result_size, 0),
	FIELD(struct dmaengine_benchmark, reserved_out, 'b', 0),
	{ NULL }
};

/* The arguments that are no field: how to issue the ioctl. */
static long fail_nth;
static long list_channels;
static long as_uid = -1;
static long repeat = 1;
static long tail;
static long ioctl_nr = -1;

static const struct setting {
	const char *name;
	long *value;
	long min;
} settings[] = {
	{ "fail_nth", &fail_nth, LONG_MIN },
	{ "uid", &as_uid, LONG_MIN },
	{ "list_channels", &list_channels, LONG_MIN },
	{ "repeat", &repeat, 1 },
	{ "tail", &tail, 0 },
	{ "nr", &ioctl_nr, 0 },
	{ NULL }
};

/* One ioctl: its file, its structure and how its results are printed. */
struct bench_ioctl {
	const char *name;
	const char *path;
	unsigned long cmd;
	const struct field *fields;
	size_t size;
	/* the results; more on the errno line; after the arguments */
	void (*report)(const void *buf);
	void (*report_error)(const void *buf);
	void (*prepare)(void *buf);
};

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

/* The structure as it is before any argument: every field's default. */
static void set_defaults(void *base, size_t size, const struct field *f)
{
	memset(base, 0, size);
	for (; f->name; f++)
		if (f->def)
			put_field(base, f, f->def);
}

/* whether @arg begins with @name, @n characters long */
static bool is_name(const char *name, const char *arg, size_t n)
{
	return strlen(name) == n && !strncmp(name, arg, n);
}

/* the field called @name (its first @n characters), or NULL */
static const struct field *find_field(const struct field *f,
				      const char *name, size_t n)
{
	while (f->name && !is_name(f->name, name, n))
		f++;
	return f->name ? f : NULL;
}

/* name=value for a setting, a number, a string or a byte of an array */
static int set_field(void *base, const struct field *f, const char *arg)
{
	size_t n = strcspn(arg, "[="), index;
	const char *val = strchr(arg, '=');
	const struct setting *s;
	char *p, *end;
	uint64_t v;

	if (!val++)
		return -1;
	for (s = settings; s->name && arg[n] == '='; s++) {
		if (!is_name(s->name, arg, n))
			continue;
		*s->value = strtol(val, NULL, 0);
		return *s->value >= s->min ? 0 : -1;
	}
	f = find_field(f, arg, n);
	if (!f || (arg[n] == '[') != (f->kind == 'b'))
		return -1;
	p = (char *)base + f->offset;
	if (f->kind == 'b') {
		index = strtoull(arg + n + 1, NULL, 0);
		if (index >= f->size)
			return -1;
		p[index] = strtoul(val, NULL, 0);
	} else if (f->kind == 's') {
		memset(p, 0, f->size);
		/* "!" fills the field without a terminating NUL */
		if (!strcmp(val, "!"))
			memset(p, 'x', f->size);
		else
			strncpy(p, val, f->size - 1);
	} else {
		errno = 0;
		v = strtoull(val, &end, 0);
		if (*val == '-')
			v = (uint64_t)strtoll(val, &end, 0);
		if (*end || errno)
			return -1;
		put_field(base, f, v);
	}
	return 0;
}

/*
 * cpus=0,1,...: a CPU list (room for 1024) in the structure's cpus_ptr and
 * nr_cpus, for a structure that has them. Returns whether @arg was one.
 */
static int parse_cpus(const struct field *fields, void *base, char *arg)
{
	const struct field *ptr = find_field(fields, "cpus_ptr", 8);
	const struct field *nr = find_field(fields, "nr_cpus", 7);
	static __u32 cpus[1024];
	char *tok, *save = NULL;
	unsigned int n = 0;

	if (!ptr || !nr || strncmp(arg, "cpus=", 5))
		return 0;
	for (tok = strtok_r(arg + 5, ",", &save); tok && n < 1024;
	     tok = strtok_r(NULL, ",", &save))
		cpus[n++] = strtoul(tok, NULL, 0);
	put_field(base, nr, n);
	put_field(base, ptr, (uintptr_t)cpus);
	return 1;
}

/*
 * Issue the ioctl, as user as_uid if given, repeat times, and print its
 * results: 0 when it succeeded, else 1.
 */
static int run(const struct bench_ioctl *b, void *buf, int quiet)
{
	int fd = open(b->path, O_RDWR), ret = 0, err, nth;
	unsigned long cmd = b->cmd;
	long i;

	if (fd < 0) {
		printf("open=%s\n", strerrorname_np(errno));
		return 1;
	}
	nth = fail_nth_arm();
	if (as_uid >= 0 && (setgid(as_uid) || setuid(as_uid))) {
		printf("setuid=%s\n", strerrorname_np(errno));
		exit(1);
	}
	if (ioctl_nr >= 0)
		cmd = (cmd & ~(_IOC_NRMASK << _IOC_NRSHIFT)) |
		      (ioctl_nr & _IOC_NRMASK) << _IOC_NRSHIFT;
	for (i = 0; i < repeat; i++)
		ret = ioctl(fd, cmd, buf);
	err = errno;
	fail_nth_report(nth);
	if (ret) {
		printf("errno=%s", strerrorname_np(err));
		if (b->report_error)
			b->report_error(buf);
		printf("\n");
	} else if (!quiet) {
		b->report(buf);
	}
	close(fd);
	return ret ? 1 : 0;
}

static void map_report(const void *buf)
{
	const struct map_benchmark *m = buf;

	printf("rc=0 avg_map_100ns=%llu map_stddev=%llu avg_unmap_100ns=%llu unmap_stddev=%llu\n",
	       m->avg_map_100ns, m->map_stddev, m->avg_unmap_100ns,
	       m->unmap_stddev);
}

static const char *const op_names[DMA_MAP_BENCH_NR_OPS] = {
	"map", "unmap", "sync_cpu", "sync_device"
};

static void mapext_report(const void *buf)
{
	const struct map_benchmark_ext *m = buf;
	int i;

	printf("rc=0\n");
	printf("segments=%u max_segment=%u\n", m->segments, m->max_segment);
	for (i = 0; i < DMA_MAP_BENCH_NR_OPS; i++) {
		const struct map_benchmark_op_stat *o = &m->op[i];

		printf("%s count=%llu mean=%llu stddev=%llu min=%llu p50=%llu p90=%llu p99=%llu max=%llu\n",
		       op_names[i], o->count, o->mean_ns, o->stddev_ns,
		       o->min_ns, o->p50_ns, o->p90_ns, o->p99_ns, o->max_ns);
	}
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

static void dmaengine_report(const void *buf)
{
	const struct dmaengine_benchmark *d = buf;
	int i;

	printf("rc=0 channels_used=%u samples_written=%u prep_modes_run=%u result_size=%u batches_per_channel=%llu buffer_bytes=%llu\n",
	       d->channels_used, d->samples_written, d->prep_modes_run,
	       d->result_size, d->batches_per_channel, d->buffer_bytes);
	for (i = 0; i < DMAENGINE_BENCH_NR_MODES; i++) {
		const struct dmaengine_bench_result *r = &d->results[i];

		printf("mode%d runs=%u run_ns=%llu prep_ns=%llu submit_ns=%llu issue_ns=%llu wait_ns=%llu map_ns=%llu unmap_ns=%llu bytes=%llu prep_calls=%llu submits=%llu batches=%llu segments=%llu bps=%llu",
		       i, r->runs, r->run_ns.mean, r->prep_ns.mean,
		       r->submit_ns.mean, r->issue_ns.mean, r->wait_ns.mean,
		       r->map_ns.mean, r->unmap_ns.mean, r->bytes,
		       r->prep_calls, r->submits, r->batches, r->segments,
		       r->bytes_per_sec.mean);
		printf(" copy_ns=%llu prep_stalls=%llu missing=%u convert_ns=%llu phases=%llu\n",
		       r->copy_ns.mean, r->prep_stalls.mean, r->missing,
		       r->convert_ns.mean, r->phases);
	}
	print_channels(d);
}

/* the ABI's error fields, on the errno line */
static void dmaengine_report_error(const void *buf)
{
	const struct dmaengine_benchmark *d = buf;

	printf(" error=%u channel=%u run=%u prep_mode=%u batches_per_channel=%llu buffer_bytes=%llu channels_used=%u",
	       d->error, d->error_channel, d->error_run, d->error_prep_mode,
	       d->batches_per_channel, d->buffer_bytes, d->channels_used);
}

/* list_channels=1 without channels_ptr: an array the kernel fills */
static void dmaengine_prepare(void *buf)
{
	static struct dmaengine_bench_channel chans[DMAENGINE_BENCH_MAX_CHANNELS];
	struct dmaengine_benchmark *d = buf;

	if (list_channels && !d->channels_ptr &&
	    d->channels <= DMAENGINE_BENCH_MAX_CHANNELS)
		d->channels_ptr = (uintptr_t)chans;
}

/* name, path, cmd, fields, size, report, report_error, prepare */
enum { MAP, MAPEXT, DMAENGINE };
static const struct bench_ioctl ioctls[] = {
	[MAP] = { "map", MAP_PATH, DMA_MAP_BENCHMARK, map_fields,
		  sizeof(struct map_benchmark), map_report, NULL, NULL },
	[MAPEXT] = { "mapext", MAP_PATH, DMA_MAP_BENCHMARK_EXT, mapext_fields,
		     sizeof(struct map_benchmark_ext), mapext_report, NULL,
		     NULL },
	[DMAENGINE] = { "dmaengine", DMAENGINE_PATH, DMAENGINE_BENCHMARK,
			dmaengine_fields, sizeof(struct dmaengine_benchmark),
			dmaengine_report, dmaengine_report_error,
			dmaengine_prepare },
	{ NULL }
};

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

/* @v, when above @cap and still valid (at most @max), cut down to @cap */
static uint64_t cut(uint64_t v, uint64_t cap, uint64_t max)
{
	return v > cap && v <= max ? cap : v;
}

static char last_call[512];
static int contend, map_only;
static unsigned long interrupted;

static void fuzz_map(int quiet)
{
	struct map_benchmark m;

	set_defaults(&m, sizeof(m), map_fields);
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
	m.seconds = cut(m.seconds, 1, DMA_MAP_MAX_SECONDS);
	m.threads = cut(m.threads, 4, DMA_MAP_MAX_THREADS);
	m.dma_trans_ns = cut(m.dma_trans_ns, 1000, DMA_MAP_MAX_TRANS_DELAY);
	snprintf(last_call, sizeof(last_call),
		 "map threads=%u seconds=%u node=%d dma_bits=%u dma_dir=%u dma_trans_ns=%u granule=%u map_mode=%u",
		 m.threads, m.seconds, m.node, m.dma_bits, m.dma_dir,
		 m.dma_trans_ns, m.granule, m.map_mode);
	run(&ioctls[MAP], &m, quiet);
}

/*
 * Entry sizes around the limits devices have: the default max_seg_size
 * (64 KiB), swiotlb's largest mapping (256 KiB), sizes that are no page
 * multiple, the largest entry and beyond.
 */
static uint32_t pick_entry_size(void)
{
	static const uint32_t sizes[] = {
		65535, 65536, 65537, 131072, 262143, 262144, 262145, 470339,
		1048576, 4194304, 4194305, 100000, 4097, 512,
	};

	if (random() % 3)
		return sizes[random() % (sizeof(sizes) / sizeof(sizes[0]))];
	return pick(1, 4194304);
}

/* the extended map ioctl: entry sizes across the device's limits */
static void fuzz_mapext(int quiet)
{
	struct map_benchmark_ext m;

	set_defaults(&m, sizeof(m), mapext_fields);
	m.iterations = 4;
	if (random() % 2) m.map_mode = pick(0, DMA_MAP_BENCH_MODE_MAX - 1);
	if (random() % 2) m.threads = pick(1, 2);
	if (random() % 2) m.dma_dir = pick(0, 2);
	if (random() % 2) m.entries = pick(1, 16);
	if (random() % 4) m.entry_size = pick_entry_size();
	if (random() % 4 == 0) m.flags = pick(0, DMA_MAP_BENCH_F_ALL);
	if (random() % 8 == 0) m.iterations = pick(0, 8);
	/* keep valid runs short: a few small mappings each */
	m.threads = cut(m.threads, 2, DMA_MAP_MAX_THREADS);
	m.entries = cut(m.entries, 16, DMA_MAP_MAX_ENTRIES);
	m.iterations = cut(m.iterations, 8, DMA_MAP_MAX_ITERATIONS);
	snprintf(last_call, sizeof(last_call),
		 "mapext map_mode=%u threads=%u dma_dir=%u entries=%u entry_size=%u flags=%u iterations=%u",
		 m.map_mode, m.threads, m.dma_dir, m.entries, m.entry_size,
		 m.flags, m.iterations);
	run(&ioctls[MAPEXT], &m, quiet);
}

static void fuzz_dmaengine(int quiet)
{
	union {
		struct dmaengine_benchmark d;
		unsigned char raw[sizeof(struct dmaengine_benchmark) + 64];
	} u;
	struct dmaengine_benchmark *d = &u.d;

	set_defaults(&u, sizeof(u), dmaengine_fields);
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
	if (random() % 8 == 0) d->reserved_in[random() % 4] = rnd();
	if (random() % 8 == 0) d->samples_len = pick(0, 16);
	if (random() % 8 == 0) d->samples_ptr = rnd();
	if (random() % 8 == 0) d->channels_ptr = rnd();
	if (random() % 8 == 0) memset(d->channel, 'x', sizeof(d->channel));
	if (random() % 8 == 0) u.raw[sizeof(*d) + random() % 64] = 1;
	/* bound the work of valid requests so the fuzzer keeps moving */
	d->channels = cut(d->channels, 4, DMAENGINE_BENCH_MAX_CHANNELS);
	d->folio_order = cut(d->folio_order, 4, 63);
	d->dst_folio_order = cut(d->dst_folio_order, 4, 63);
	d->sge = cut(d->sge, 64, DMAENGINE_BENCH_MAX_SGE);
	d->bytes_per_channel = cut(d->bytes_per_channel, 1 << 20, 1ULL << 40);
	d->runs = cut(d->runs, 2, DMAENGINE_BENCH_MAX_RUNS);
	d->warmup_runs = cut(d->warmup_runs, 1, DMAENGINE_BENCH_MAX_WARMUP);
	d->timeout_ms = cut(d->timeout_ms, 1000, UINT64_MAX);
	/* under contention, timeouts that expire on a slowed provider */
	if (contend && random() % 2)
		d->timeout_ms = pick(1, 20);
	snprintf(last_call, sizeof(last_call),
		 "dmaengine size=%u flags=%u prep_modes=%u channels=%u folio_order=%u dst_folio_order=%u sge=%u bytes_per_channel=%llu runs=%u warmup_runs=%u src_node=%d dst_node=%d timeout_ms=%u",
		 d->size, d->flags, d->prep_modes, d->channels, d->folio_order,
		 d->dst_folio_order, d->sge, d->bytes_per_channel, d->runs,
		 d->warmup_runs, d->src_node, d->dst_node, d->timeout_ms);
	run(&ioctls[DMAENGINE], &u, quiet);
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
		switch (random() % (map_only ? 2 : 3)) {
		case 0:
			fuzz_map(1);
			break;
		case 1:
			fuzz_mapext(1);
			break;
		default:
			fuzz_dmaengine(1);
		}
		n++;
		/* name the call after which DMA-API debugging complained */
		now = dma_api_errors();
		if (now > errors)
			printf("fuzz: call %lu raised the DMA-API error count to %ld: %s\n",
			       n, now, last_call);
		errors = now;
	}
	printf("fuzz: %lu calls in %d s, seed %u%s%s\n", n, seconds, seed,
	       contend ? ", contended" : "", map_only ? ", map ioctls only" : "");
	if (contend)
		printf("fuzz: %lu signals\n", interrupted);
	return 0;
}

/* the largest structure, with room for a tail */
#define TAIL_MAX 256
static union {
	struct map_benchmark m;
	struct map_benchmark_ext x;
	struct dmaengine_benchmark d;
	unsigned char raw[sizeof(struct dmaengine_benchmark) + TAIL_MAX];
} u;

int main(int argc, char **argv)
{
	const struct bench_ioctl *b = ioctls;
	const struct field *size;
	int i;

	if (argc >= 4 && !strcmp(argv[1], "fuzz")) {
		contend = argc >= 5 && !strcmp(argv[4], "contend");
		map_only = argc >= 5 && !strcmp(argv[4], "map");
		if (argc >= 5 && !contend && !map_only) {
			fprintf(stderr, "mbioctl: fuzz: '%s': contend or map\n", argv[4]);
			return 2;
		}
		return fuzz(atoi(argv[2]), strtoul(argv[3], NULL, 0));
	}
	while (argc >= 2 && b->name && strcmp(b->name, argv[1]))
		b++;
	if (argc < 2 || !b->name) {
		fprintf(stderr, "usage: mbioctl map|mapext|dmaengine [field=value]... | fuzz SECONDS SEED [contend|map]\n");
		return 2;
	}
	set_defaults(&u, sizeof(u), b->fields);
	for (i = 2; i < argc; i++) {
		if (parse_cpus(b->fields, &u, argv[i]))
			continue;
		if (set_field(&u, b->fields, argv[i])) {
			fprintf(stderr, "mbioctl: bad argument '%s'\n", argv[i]);
			return 2;
		}
	}
	/* a nonzero byte @tail bytes past the structure, ->size grown to it */
	if (tail) {
		size = find_field(b->fields, "size", 4);
		if (!size || tail > TAIL_MAX) {
			fprintf(stderr, "mbioctl: tail=%ld: %s\n", tail,
				size ? "more than 256 bytes" : "no size field");
			return 2;
		}
		u.raw[b->size + tail - 1] = 1;
		put_field(&u, size, b->size + tail);
	}
	if (b->prepare)
		b->prepare(&u);
	return run(b, &u, 0);
}
