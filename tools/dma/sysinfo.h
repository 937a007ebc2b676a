/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the reports say about where they ran: tool version, kernel release,
 * the CPU frequency state, and (--system) the machine.
 */
#ifndef DMABENCH_SYSINFO_H
#define DMABENCH_SYSINFO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The tool's version: the VERSION macro (git describe), else "unknown". */
extern const char tool_version[];

/*
 * read_root_file() - the file @path under @root ("" for the real one) up
 * to its first NUL, malloc()ed and NUL-terminated; NULL when it cannot be
 * opened
 */
char *read_root_file(const char *root, const char *path);

/* kernel_release() - uname -r, or "unknown" */
const char *kernel_release(void);

/*
 * The CPU frequency state of the CPUs a run uses, as cpufreq exposes it
 * (/sys/devices/system/cpu/cpuN/cpufreq/, .../cpu/cpufreq/boost,
 * .../cpu/intel_pstate/no_turbo). Two result files are comparable only if
 * this matches.
 */
struct cpufreq_info {
	unsigned int cpus;	/* CPUs with a cpufreq directory; 0: none */
	char driver[32];	/* scaling_driver of the first such CPU, or "" */
	char governor[64];	/* scaling_governor; "a,b" when CPUs differ */
	unsigned long cur_khz_min;	/* scaling_cur_freq, lowest; 0: unknown */
	unsigned long cur_khz_max;	/* scaling_cur_freq, highest */
	unsigned long max_khz;	/* cpuinfo_max_freq, highest; 0: unknown */
	int boost;		/* 1 on, 0 off, -1 not exposed */
	const char *boost_source;	/* the file boost came from, or NULL */
};

/*
 * read_cpufreq() - @fi for CPUs @cpus (@nr_cpus of them: --cpus), or for
 * every CPU when @nr_cpus is 0, from the sysfs tree under @root ("" for
 * the real one). What is not exposed is left unknown, never an error.
 */
void read_cpufreq(const char *root, const uint32_t *cpus, unsigned int nr_cpus,
		  struct cpufreq_info *fi);

/*
 * cpu_model() - the CPU's name from /proc/cpuinfo's text @cpuinfo: x86's
 * "model name" (else "Model", "Hardware", "cpu model", "cpu"), else the
 * device tree's model @dt_model (NULL: none), else arm64's implementer,
 * part and variant numbers; into @buf, false when none is known.
 */
bool cpu_model(const char *cpuinfo, const char *dt_model, char *buf,
	       size_t len);

/*
 * report_system_json() - the machine as one line of JSON: {"tool",
 * "version", "system": {hostname, kernel, machine, cpu_model, cpus (online),
 * numa: [{node, cpulist, mem_total_kb, distance: [...]}], page_size,
 * cmdline, dmi_product, iommus: [...]}}. Files are read under @root ("" for
 * the real /proc and /sys); what is not there is null (numa, iommus: []).
 * uname() and sysconf() give hostname, kernel, machine, cpus and page_size.
 */
void report_system_json(FILE *f, const char *root);

#endif
