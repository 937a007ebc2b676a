// SPDX-License-Identifier: GPL-2.0-only
/*
 * dma_migrate.ko's controls, for the tool's migrate mode and the guest
 * tests' programs alike (migrate_ctl.h says how they are driven). Every file is opened, written or read whole, and closed:
 * a refused write fails with the module's errno, and its last_error says
 * which parameter and why.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "migrate_ctl.h"

static char last_error[256];

const char *migrate_ctl_last_error(void)
{
	return last_error;
}

/* ctl_path() - @dir/@name under @root into @buf */
static const char *ctl_path(char *buf, size_t len, const char *root,
			    const char *dir, const char *name)
{
	snprintf(buf, len, "%s%s/%s", root, dir, name);
	return buf;
}

/* ctl_read() - the file's text into @buf (NUL-terminated); 0 or -errno */
static int ctl_read(const char *root, const char *dir, const char *name,
		    char *buf, size_t len)
{
	char path[512];
	size_t got = 0;
	ssize_t n;
	int fd;

	fd = open(ctl_path(path, sizeof(path), root, dir, name), O_RDONLY);
	if (fd < 0)
		return -errno;
	while (got + 1 < len && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += n;
	n = n < 0 ? -errno : 0;
	close(fd);
	buf[got] = '\0';
	return n;
}

/* ctl_write() - @val written to the file in one write(); 0 or -errno */
static int ctl_write(const char *root, const char *dir, const char *name,
		     const char *val)
{
	char path[512];
	size_t len = strlen(val);
	ssize_t n;
	int fd, ret = 0;

	fd = open(ctl_path(path, sizeof(path), root, dir, name), O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, val, len);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* the parameter's write, and on a refusal the module's reason kept */
static int param_write(const char *root, const char *name, const char *val)
{
	int ret = ctl_write(root, DMA_MIGRATE_PARAMS, name, val);

	if (ret) {
		last_error[0] = '\0';
		ctl_read(root, DMA_MIGRATE_SYSFS, "last_error", last_error,
			 sizeof(last_error));
		last_error[strcspn(last_error, "\n")] = '\0';
		if (!last_error[0])
			snprintf(last_error, sizeof(last_error),
				 "%s: %s", name, strerror(-ret));
	}
	return ret;
}

static unsigned int hook_of(const char *name)
{
	if (!strncmp(name, "project", 7))
		return DMA_MIGRATE_HOOK_PROJECT;
	if (!strncmp(name, "rfc", 3))
		return DMA_MIGRATE_HOOK_RFC;
	return DMA_MIGRATE_HOOK_NONE;
}

enum migrate_ctl_state migrate_ctl_state(const char *root, unsigned int *hook)
{
	char path[512], buf[64];
	struct stat st;

	*hook = DMA_MIGRATE_HOOK_NONE;
	if (stat(ctl_path(path, sizeof(path), root, "/sys/module",
			  "dma_migrate"), &st))
		return MIGRATE_CTL_NOT_LOADED;
	if (ctl_read(root, DMA_MIGRATE_SYSFS, "hook", buf, sizeof(buf)))
		return MIGRATE_CTL_NO_SYSFS;
	*hook = hook_of(buf);
	if (!ctl_read(root, DMA_MIGRATE_PARAMS, "offloading", buf,
		      sizeof(buf)) && (buf[0] == '1' || buf[0] == 'Y'))
		return MIGRATE_CTL_ON;
	return MIGRATE_CTL_READY;
}

/* prep_form's value of a DMAENGINE_BENCH_MODE_* */
static const char *form_of(unsigned int prep_mode)
{
	switch (prep_mode) {
	case DMAENGINE_BENCH_MODE_MEMCPY:
		return "memcpy";
	case DMAENGINE_BENCH_MODE_MEMCPY_SG:
		return "memcpy_sg";
	case DMAENGINE_BENCH_MODE_MEMCPY_VEC:
		return "memcpy_vec";
	default:
		return "cpu";
	}
}

/*
 * the uapi's error of a refused start, by the write's errno (and
 * last_error: a device whose mappings would bounce is a limit)
 */
static unsigned int error_of(int err)
{
	if (err == -EOPNOTSUPP && strstr(last_error, "swiotlb"))
		return DMAENGINE_BENCH_ERR_LIMIT;
	switch (err) {
	case -ENODEV:
		return DMAENGINE_BENCH_ERR_NO_CHANNEL;
	case -EOPNOTSUPP:
		return DMAENGINE_BENCH_ERR_NO_API;
	case -ENOMEM:
		return DMAENGINE_BENCH_ERR_NOMEM;
	case -EBUSY:
		return DMAENGINE_BENCH_OK;
	default:
		return DMAENGINE_BENCH_ERR_INVAL;
	}
}

/* reason_mask's value: the names of @reasons' DMA_MIGRATE_R_* bits */
static void reasons_of(unsigned int reasons, char *buf, size_t len)
{
	static const struct {
		unsigned int bit;
		const char *name;
	} names[] = {
		{ DMA_MIGRATE_R_SYSCALL, "syscall" },
		{ DMA_MIGRATE_R_NUMA_MISPLACED, "numa_misplaced" },
		{ DMA_MIGRATE_R_DEMOTION, "demotion" },
		{ DMA_MIGRATE_R_COMPACTION, "compaction" },
	};
	size_t i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (reasons & names[i].bit)
			at += snprintf(buf + at, at < len ? len - at : 0, "%s%s",
				       at ? "," : "", names[i].name);
	if (!at)
		snprintf(buf, len, "none");
}

static int ctl_start(const char *root, const struct dma_migrate_offload *req,
		     struct dma_migrate_offload *a)
{
	char num[32], reasons[64], chan[DMAENGINE_BENCH_NAME_LEN + 2];
	char dev[DMAENGINE_BENCH_NAME_LEN + 2], text[4096];
	int ret;

	a->prep_mode = req->prep_mode;
	a->channels = req->channels;
	a->reasons = req->reasons;
	a->timeout_ms = req->timeout_ms;
	a->min_folios = req->min_folios;
	memcpy(a->channel, req->channel, sizeof(a->channel));
	memcpy(a->device, req->device, sizeof(a->device));
	snprintf(chan, sizeof(chan), "%.*s\n", DMAENGINE_BENCH_NAME_LEN,
		 req->channel);
	snprintf(dev, sizeof(dev), "%.*s\n", DMAENGINE_BENCH_NAME_LEN,
		 req->device);
	reasons_of(req->reasons, reasons, sizeof(reasons));
	ret = param_write(root, "prep_form", form_of(req->prep_mode));
	if (!ret) {
		snprintf(num, sizeof(num), "%u\n", req->channels);
		ret = param_write(root, "nr_dma_chan", num);
	}
	if (!ret) {
		snprintf(num, sizeof(num), "%u\n", req->timeout_ms);
		ret = param_write(root, "timeout_ms", num);
	}
	if (!ret)
		ret = param_write(root, "allow_fewer",
				  a->flags & DMA_MIGRATE_F_ALLOW_FEWER ? "1" : "0");
	if (!ret)
		ret = param_write(root, "reason_mask", reasons);
	if (!ret) {
		snprintf(num, sizeof(num), "%u\n", req->min_folios);
		ret = param_write(root, "min_folios", num);
	}
	if (!ret)
		ret = param_write(root, "channel", chan);
	if (!ret)
		ret = param_write(root, "device", dev);
	if (!ret)
		ret = param_write(root, "offloading", "1");
	if (ret) {
		a->error = error_of(ret);
		return ret;
	}
	a->active = 1;
	a->channels_used = req->channels;
	a->prep_mode_used = req->prep_mode;
	/* fewer with allow_fewer: the module says how many it took */
	if (!ctl_read(root, DMA_MIGRATE_SYSFS, "stats", text, sizeof(text)))
		sscanf(text, "channels_used %u", &a->channels_used);
	return 0;
}

#define CTR(name, field)	\
	{ name, offsetof(struct dma_migrate_offload, field), 0 },
#define PHASE_LINE(id, name, field, owner) \
	{ "phase." #name, offsetof(struct dma_migrate_offload, field), \
	  DMAENGINE_BENCH_PHASE_BIT(DMAENGINE_BENCH_PH_##id) },
/*
 * the stats file's lines, where the answer has them, and for a phase its
 * bit in the answer's ->phases: the phases the module said
 */
static const struct {
	const char *name;
	size_t off;
	__u64 phase_bit;
} stat_lines[] = {
	CTR("batches", batches)
	CTR("batches_declined", batches_declined)
	CTR("errors", errors)
	CTR("folios", folios)
	CTR("folios_offloaded", folios_offloaded)
	CTR("folios_fallback", folios_fallback)
	CTR("folios_declined", folios_declined)
	CTR("folios_lost", folios_lost)
	CTR("folios_released", folios_released)
	CTR("bytes", bytes)
	CTR("descriptors", descriptors)
	CTR("async_batches", async_batches)
	CTR("async_max_ns", async_max_ns)
	MIGRATE_STATS_PHASES(PHASE_LINE)
};
#undef PHASE_LINE
#undef CTR

/*
 * parse_stats() - the stats file's "name value unit" lines into @a; a line
 * of a name this tool does not know (a newer module's) is skipped
 */
static void parse_stats(char *text, struct dma_migrate_offload *a)
{
	char *line, *save = NULL;
	size_t i;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[64];
		uint64_t v;

		if (sscanf(line, "%63s %" SCNu64, name, &v) != 2)
			continue;
		if (!strcmp(name, "channels_used")) {
			a->channels_used = (unsigned int)v;
			continue;
		}
		for (i = 0; i < sizeof(stat_lines) / sizeof(stat_lines[0]); i++)
			if (!strcmp(name, stat_lines[i].name)) {
				*(__u64 *)((char *)a + stat_lines[i].off) = v;
				a->phases |= stat_lines[i].phase_bit;
				break;
			}
	}
}

static int ctl_stats(const char *root, struct dma_migrate_offload *a)
{
	char text[4096];
	int ret;

	ret = ctl_read(root, DMA_MIGRATE_SYSFS, "stats", text, sizeof(text));
	if (ret)
		return ret;
	parse_stats(text, a);
	if (a->flags & DMA_MIGRATE_F_RESET)
		ret = ctl_write(root, DMA_MIGRATE_SYSFS, "reset", "1");
	return ret;
}

int migrate_ctl_param(const char *root, const char *name, const char *val)
{
	last_error[0] = '\0';
	return param_write(root, name, val);
}

int migrate_ctl_op(const char *root, unsigned int op, unsigned int flags,
		   const struct dma_migrate_offload *req,
		   struct dma_migrate_offload *a)
{
	char buf[64];
	int ret;

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->op = op;
	a->flags = flags;
	last_error[0] = '\0';
	if (ctl_read(root, DMA_MIGRATE_SYSFS, "hook", buf, sizeof(buf)))
		return -ENODEV;
	a->hook = hook_of(buf);
	switch (op) {
	case DMA_MIGRATE_OP_START:
		return ctl_start(root, req, a);
	case DMA_MIGRATE_OP_STATS:
		ret = ctl_stats(root, a);
		a->active = !ret;
		return ret;
	case DMA_MIGRATE_OP_STOP: {
		/* the counters a last time; stopped whatever they say */
		int stop;

		ret = ctl_stats(root, a);
		stop = param_write(root, "offloading", "0");
		return stop ? stop : ret;
	}
	}
	return -EINVAL;
}
