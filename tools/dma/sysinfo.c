// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the reports say about where they ran: tool version, kernel release,
 * the CPU frequency state.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "sysinfo.h"

#ifndef VERSION
#define VERSION "unknown"
#endif

#define CPU_DIR		"/sys/devices/system/cpu"

const char tool_version[] = VERSION;

const char *kernel_release(void)
{
	static struct utsname uts;

	if (!uts.release[0] && uname(&uts))
		strcpy(uts.release, "unknown");
	return uts.release;
}

/* read_word() - the first line of @root@path in @buf; false if none */
static bool read_word(const char *root, const char *path, char *buf,
		      size_t len)
{
	char full[4096];
	FILE *f;
	bool ok;

	snprintf(full, sizeof(full), "%s%s", root, path);
	f = fopen(full, "r");
	if (!f)
		return false;
	ok = fgets(buf, len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok && buf[0];
}

static unsigned long read_khz(const char *root, const char *path)
{
	char buf[64], *end;
	unsigned long v;

	if (!read_word(root, path, buf, sizeof(buf)))
		return 0;
	v = strtoul(buf, &end, 10);
	return *end ? 0 : v;
}

/* add_governor() - @gov into the comma list @fi->governor, once */
static void add_governor(struct cpufreq_info *fi, const char *gov)
{
	size_t len = strlen(fi->governor), glen = strlen(gov);
	const char *p = fi->governor;

	while (*p) {
		size_t n = strcspn(p, ",");

		if (n == glen && !strncmp(p, gov, n))
			return;
		p += n + !!p[n];
	}
	if (len + !!len + glen >= sizeof(fi->governor))
		return;		/* no room: the ones so far */
	if (len)
		fi->governor[len++] = ',';
	memcpy(fi->governor + len, gov, glen + 1);
}

static void read_cpu(const char *root, unsigned int cpu,
		     struct cpufreq_info *fi)
{
	char path[128], buf[64];
	unsigned long khz;

	snprintf(path, sizeof(path), CPU_DIR "/cpu%u/cpufreq/scaling_governor",
		 cpu);
	if (!read_word(root, path, buf, sizeof(buf))) {
		/* no governor: a cpufreq directory still gives frequencies */
		snprintf(path, sizeof(path),
			 CPU_DIR "/cpu%u/cpufreq/cpuinfo_max_freq", cpu);
		if (!read_khz(root, path))
			return;
	} else {
		add_governor(fi, buf);
	}
	fi->cpus++;
	snprintf(path, sizeof(path), CPU_DIR "/cpu%u/cpufreq/scaling_driver",
		 cpu);
	if (!fi->driver[0] && read_word(root, path, buf, sizeof(buf)))
		snprintf(fi->driver, sizeof(fi->driver), "%s", buf);
	snprintf(path, sizeof(path), CPU_DIR "/cpu%u/cpufreq/scaling_cur_freq",
		 cpu);
	khz = read_khz(root, path);
	if (khz && (!fi->cur_khz_min || khz < fi->cur_khz_min))
		fi->cur_khz_min = khz;
	if (khz > fi->cur_khz_max)
		fi->cur_khz_max = khz;
	snprintf(path, sizeof(path), CPU_DIR "/cpu%u/cpufreq/cpuinfo_max_freq",
		 cpu);
	khz = read_khz(root, path);
	if (khz > fi->max_khz)
		fi->max_khz = khz;
}

static void read_boost(const char *root, struct cpufreq_info *fi)
{
	char buf[16];

	if (read_word(root, CPU_DIR "/cpufreq/boost", buf, sizeof(buf)) &&
	    (!strcmp(buf, "0") || !strcmp(buf, "1"))) {
		fi->boost = buf[0] == '1';
		fi->boost_source = "cpufreq/boost";
	} else if (read_word(root, CPU_DIR "/intel_pstate/no_turbo", buf,
			     sizeof(buf)) &&
		   (!strcmp(buf, "0") || !strcmp(buf, "1"))) {
		fi->boost = buf[0] == '0';
		fi->boost_source = "intel_pstate/no_turbo";
	}
}

void read_cpufreq(const char *root, const uint32_t *cpus, unsigned int nr_cpus,
		  struct cpufreq_info *fi)
{
	char path[4096];
	struct dirent *de;
	unsigned int i, cpu;
	char tail;
	DIR *d;

	memset(fi, 0, sizeof(*fi));
	fi->boost = -1;
	read_boost(root, fi);
	if (nr_cpus) {
		for (i = 0; i < nr_cpus; i++) {
			unsigned int k;

			for (k = 0; k < i && cpus[k] != cpus[i]; k++)
				;
			if (k == i)	/* once each: --cpus 0,0 is one CPU */
				read_cpu(root, cpus[i], fi);
		}
		return;
	}
	snprintf(path, sizeof(path), "%s" CPU_DIR, root);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d)))
		if (sscanf(de->d_name, "cpu%u%c", &cpu, &tail) == 1)
			read_cpu(root, cpu, fi);
	closedir(d);
}
