/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dma_migrate.ko's controls (Documentation/dma-migrate.rst) for the guest
 * checks (migrate_check.c, migrate_async.c): dmc_op() starts, reads and
 * stops the offload through the module parameters and
 * /sys/kernel/mm/dma_migrate/, answering in a struct dma_migrate_offload
 * as the benchmark's DMA_MIGRATE_OFFLOAD ioctl does: a refused write
 * returns -1 with the module's errno, ->error said as the ioctl says it,
 * and dmc_last_error the module's last_error.
 */
#ifndef DMA_MIGRATE_CTL_H
#define DMA_MIGRATE_CTL_H

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <linux/map_benchmark.h>

#define DMC_PARAMS	"/sys/module/dma_migrate/parameters/"
#define DMC_SYSFS	"/sys/kernel/mm/dma_migrate/"

static char dmc_last_error[256];

/* dmc_read() - @path's text into @buf; 0, or -1 with errno */
static inline int dmc_read(const char *path, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while (got + 1 < len && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += n;
	buf[got] = '\0';
	close(fd);
	return n < 0 ? -1 : 0;
}

/* dmc_write() - @val to @path in one write(); 0, or -1 with errno */
static inline int dmc_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), err = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, val, strlen(val));
	if (n < 0)
		err = errno;
	close(fd);
	if (err) {
		if (dmc_read(DMC_SYSFS "last_error", dmc_last_error,
			     sizeof(dmc_last_error)))
			dmc_last_error[0] = '\0';
		errno = err;
		return -1;
	}
	return 0;
}

static inline int dmc_param(const char *name, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), DMC_PARAMS "%s", name);
	return dmc_write(path, val);
}

/* the stats file's "name value unit" lines into @a */
static inline void dmc_parse(char *text, struct dma_migrate_offload *a)
{
	static const struct {
		const char *name;
		size_t off;
	} lines[] = {
#define DMC_LINE(n, f)	{ n, offsetof(struct dma_migrate_offload, f) }
		DMC_LINE("batches", batches),
		DMC_LINE("batches_declined", batches_declined),
		DMC_LINE("errors", errors),
		DMC_LINE("folios", folios),
		DMC_LINE("folios_offloaded", folios_offloaded),
		DMC_LINE("folios_fallback", folios_fallback),
		DMC_LINE("folios_declined", folios_declined),
		DMC_LINE("folios_lost", folios_lost),
		DMC_LINE("folios_released", folios_released),
		DMC_LINE("bytes", bytes),
		DMC_LINE("descriptors", descriptors),
		DMC_LINE("async_batches", async_batches),
		DMC_LINE("async_max_ns", async_max_ns),
		DMC_LINE("phase.batch", ph.batch_ns),
		DMC_LINE("phase.map", ph.map_ns),
		DMC_LINE("phase.prep", ph.prep_ns),
		DMC_LINE("phase.submit", ph.submit_ns),
		DMC_LINE("phase.issue", ph.issue_ns),
		DMC_LINE("phase.wait", ph.wait_ns),
		DMC_LINE("phase.unmap", ph.unmap_ns),
		DMC_LINE("phase.build", build_ns),
		DMC_LINE("phase.mark", mark_ns),
#undef DMC_LINE
	};
	char *line, *save = NULL, name[64];
	unsigned long long v;
	size_t i;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%63s %llu", name, &v) != 2)
			continue;
		if (!strcmp(name, "channels_used"))
			a->channels_used = v;
		for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
			if (!strcmp(name, lines[i].name))
				*(__u64 *)((char *)a + lines[i].off) = v;
	}
}

static inline unsigned int dmc_hook(void)
{
	char buf[32];

	if (dmc_read(DMC_SYSFS "hook", buf, sizeof(buf)))
		return DMA_MIGRATE_HOOK_NONE;
	return !strncmp(buf, "project", 7) ? DMA_MIGRATE_HOOK_PROJECT :
	       !strncmp(buf, "rfc", 3) ? DMA_MIGRATE_HOOK_RFC :
	       DMA_MIGRATE_HOOK_NONE;
}

static inline int dmc_active(void)
{
	char buf[8];

	return !dmc_read(DMC_PARAMS "offloading", buf, sizeof(buf)) &&
	       (buf[0] == '1' || buf[0] == 'Y');
}

static inline int dmc_start(struct dma_migrate_offload *a)
{
	static const char *const forms[] = {
		[DMAENGINE_BENCH_MODE_MEMCPY] = "memcpy",
		[DMAENGINE_BENCH_MODE_MEMCPY_SG] = "memcpy_sg",
		[DMAENGINE_BENCH_MODE_MEMCPY_VEC] = "memcpy_vec",
	};
	char v[96];
	int err;

	if (a->prep_mode >= sizeof(forms) / sizeof(forms[0]) ||
	    !forms[a->prep_mode]) {
		errno = EINVAL;
		return -1;
	}
	v[0] = '\0';
	if (a->reasons & DMA_MIGRATE_R_SYSCALL)
		strcat(v, "syscall,");
	if (a->reasons & DMA_MIGRATE_R_NUMA_MISPLACED)
		strcat(v, "numa_misplaced,");
	if (a->reasons & DMA_MIGRATE_R_DEMOTION)
		strcat(v, "demotion,");
	if (a->reasons & DMA_MIGRATE_R_COMPACTION)
		strcat(v, "compaction,");
	if (v[0])
		v[strlen(v) - 1] = '\0';
	if (dmc_param("reason_mask", v[0] ? v : "none") ||
	    dmc_param("prep_form", forms[a->prep_mode]))
		goto refused;
	snprintf(v, sizeof(v), "%u", a->channels);
	if (dmc_param("nr_dma_chan", v))
		goto refused;
	snprintf(v, sizeof(v), "%u", a->timeout_ms);
	if (dmc_param("timeout_ms", v))
		goto refused;
	snprintf(v, sizeof(v), "%u", a->min_folios);
	if (dmc_param("min_folios", v) ||
	    dmc_param("allow_fewer",
		      a->flags & DMA_MIGRATE_F_ALLOW_FEWER ? "1" : "0") ||
	    dmc_param("offloading", "1"))
		goto refused;
	a->active = 1;
	a->channels_used = a->channels;
	a->prep_mode_used = a->prep_mode;
	if (!dmc_read(DMC_SYSFS "stats", v, sizeof(v)))
		sscanf(v, "channels_used %u", &a->channels_used);
	return 0;
refused:
	err = errno;
	a->error = err == ENODEV ? DMAENGINE_BENCH_ERR_NO_CHANNEL :
		   err == EOPNOTSUPP && strstr(dmc_last_error, "swiotlb") ?
		   DMAENGINE_BENCH_ERR_LIMIT :
		   err == EOPNOTSUPP ? DMAENGINE_BENCH_ERR_NO_API :
		   DMAENGINE_BENCH_ERR_INVAL;
	a->active = dmc_active();
	printf("dma_migrate refused: %s: %s", strerror(err), dmc_last_error);
	errno = err;
	return -1;
}

/*
 * dmc_op() - DMA_MIGRATE_OP_START (@a's prep_mode, channels, reasons,
 * timeout_ms, min_folios; DMA_MIGRATE_F_ALLOW_FEWER), _STATS (with
 * DMA_MIGRATE_F_RESET: the counters cleared after) or _STOP, through the
 * controls; @a the answer
 */
static inline int dmc_op(struct dma_migrate_offload *a, unsigned int op,
			 unsigned int flags)
{
	char text[4096];

	a->flags = flags;
	a->hook = dmc_hook();
	if (op == DMA_MIGRATE_OP_START)
		return dmc_start(a);
	if (dmc_read(DMC_SYSFS "stats", text, sizeof(text)))
		return -1;
	dmc_parse(text, a);
	if (op == DMA_MIGRATE_OP_STATS) {
		a->active = dmc_active();
		if ((flags & DMA_MIGRATE_F_RESET) &&
		    dmc_write(DMC_SYSFS "reset", "1"))
			return -1;
		return 0;
	}
	if (dmc_param("offloading", "0"))
		return -1;
	a->active = dmc_active();
	return 0;
}

#endif
