// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "json.h"
#include "options.h"
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

/* read_root_file() - @root@path up to its first NUL, malloc'ed; NULL if none */
char *read_root_file(const char *root, const char *path)
{
	char full[4096], *buf = NULL;
	size_t len = 0;
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	f = fopen(full, "r");
	if (!f)
		return NULL;
	if (getdelim(&buf, &len, '\0', f) < 0) {
		free(buf);
		buf = strdup("");
	}
	fclose(f);
	return buf;
}

/* read_word() - the first line of @root@path in @buf; false if none */
static bool read_word(const char *root, const char *path, char *buf,
		      size_t len)
{
	char *text = read_root_file(root, path);
	bool ok = text;

	if (ok)
		snprintf(buf, len, "%.*s", (int)strcspn(text, "\n"), text);
	free(text);
	return ok && buf[0];
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

/* cpu_word() - read_word() of CPU @cpu's cpufreq file @name */
static bool cpu_word(const char *root, unsigned int cpu, const char *name,
		     char *buf, size_t len)
{
	char path[128];

	snprintf(path, sizeof(path), CPU_DIR "/cpu%u/cpufreq/%s", cpu, name);
	return read_word(root, path, buf, len);
}

static unsigned long read_khz(const char *root, unsigned int cpu,
			      const char *name)
{
	char buf[64], *end;
	unsigned long v;

	if (!cpu_word(root, cpu, name, buf, sizeof(buf)))
		return 0;
	v = strtoul(buf, &end, 10);
	return *end ? 0 : v;
}

static void read_cpu(const char *root, unsigned int cpu,
		     struct cpufreq_info *fi)
{
	unsigned long khz;
	char buf[64];

	/* no governor: a cpufreq directory still gives frequencies */
	if (cpu_word(root, cpu, "scaling_governor", buf, sizeof(buf)))
		add_governor(fi, buf);
	else if (!read_khz(root, cpu, "cpuinfo_max_freq"))
		return;
	fi->cpus++;
	if (!fi->driver[0] &&
	    cpu_word(root, cpu, "scaling_driver", buf, sizeof(buf)))
		snprintf(fi->driver, sizeof(fi->driver), "%s", buf);
	khz = read_khz(root, cpu, "scaling_cur_freq");
	if (khz && (!fi->cur_khz_min || khz < fi->cur_khz_min))
		fi->cur_khz_min = khz;
	if (khz > fi->cur_khz_max)
		fi->cur_khz_max = khz;
	khz = read_khz(root, cpu, "cpuinfo_max_freq");
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

/* strip() - @s without leading and trailing blanks and newlines */
static char *strip(char *s)
{
	size_t n;

	s += strspn(s, " \t\n");
	n = strlen(s);
	while (n && strchr(" \t\n", s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* cpuinfo_field() - the value of the first line "@key<blanks>: value" */
static bool cpuinfo_field(const char *text, const char *key, char *buf,
			  size_t len)
{
	size_t klen = strlen(key);
	const char *line;

	for (line = text; *line; line += strcspn(line, "\n"), line += !!*line) {
		const char *p = line + klen, *end;

		if (strncmp(line, key, klen))
			continue;
		p += strspn(p, " \t");
		if (*p != ':')
			continue;
		p++;
		p += strspn(p, " \t");
		end = p + strcspn(p, "\n");
		while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		if (end == p)
			return false;
		snprintf(buf, len, "%.*s", (int)(end - p), p);
		return true;
	}
	return false;
}

bool cpu_model(const char *cpuinfo, const char *dt_model, char *buf,
	       size_t len)
{
	static const char *const keys[] = {
		"model name", "Model", "Hardware", "cpu model", "cpu",
	};
	char impl[32], part[32] = "?", var[32] = "?";
	size_t i;

	for (i = 0; cpuinfo && i < sizeof(keys) / sizeof(keys[0]); i++)
		if (cpuinfo_field(cpuinfo, keys[i], buf, len))
			return true;
	if (dt_model && *dt_model) {
		snprintf(buf, len, "%s", dt_model);
		return true;
	}
	if (!cpuinfo || !cpuinfo_field(cpuinfo, "CPU implementer", impl,
				       sizeof(impl)))
		return false;
	cpuinfo_field(cpuinfo, "CPU part", part, sizeof(part));
	cpuinfo_field(cpuinfo, "CPU variant", var, sizeof(var));
	snprintf(buf, len, "implementer %s part %s variant %s", impl, part, var);
	return true;
}

/* member @key: the stripped contents of @root@path, or null */
static void json_key_file(struct json *j, const char *key, const char *root,
			  const char *path)
{
	char *text = read_root_file(root, path);

	json_key_string_or_null(j, key, text ? strip(text) : NULL);
	free(text);
}

static char *node_file(const char *root, unsigned int n, const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%u/%s", n,
		 name);
	return read_root_file(root, path);
}

/* node @name ("nodeN") of /sys/devices/system/node */
static void json_numa_node(struct json *j, const char *root, const char *name)
{
	unsigned int n = strtoul(name + strlen("node"), NULL, 10);
	char *text, *p, *end, *mem;
	long long v = 0;
	bool known;

	json_object_begin(j);
	json_key_uint(j, "node", n);
	text = node_file(root, n, "cpulist");
	json_key_string(j, "cpulist", text ? strip(text) : "");
	free(text);
	text = node_file(root, n, "meminfo");
	mem = text ? strstr(text, "MemTotal:") : NULL;
	known = mem && sscanf(mem, "MemTotal: %lld", &v) == 1 && v >= 0;
	json_key_uint_or_null(j, "mem_total_kb", v, known);
	free(text);
	text = node_file(root, n, "distance");
	json_key(j, "distance");
	json_array_begin(j);
	for (p = text; p && (v = strtoll(p, &end, 10), end != p); p = end)
		json_int(j, v);
	json_array_end(j);
	free(text);
	json_object_end(j);
}

static int is_node(const struct dirent *de)
{
	unsigned int n;
	char tail;

	return sscanf(de->d_name, "node%u%c", &n, &tail) == 1;
}

static int is_entry(const struct dirent *de)
{
	return de->d_name[0] != '.';
}

/*
 * member @key: an array of the entries of @root@dir, in version order (node2
 * before node10): with @nodes each nodeN's object, else each entry's name
 */
static void json_dir(struct json *j, const char *key, const char *root,
		     const char *dir, bool nodes)
{
	struct dirent **de;
	char path[4096];
	int i, n;

	json_key(j, key);
	json_array_begin(j);
	snprintf(path, sizeof(path), "%s%s", root, dir);
	n = scandir(path, &de, nodes ? is_node : is_entry, versionsort);
	for (i = 0; i < n; i++) {
		if (nodes)
			json_numa_node(j, root, de[i]->d_name);
		else
			json_string(j, de[i]->d_name);
		free(de[i]);
	}
	if (n >= 0)
		free(de);
	json_array_end(j);
}

void report_system_json(FILE *f, const char *root)
{
	char *cpuinfo, *dt, model[256];
	struct utsname uts;
	bool have_uts = !uname(&uts);
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	long page = sysconf(_SC_PAGESIZE);
	struct json j;

	json_init(&j, f);
	json_object_begin(&j);
	json_key_string(&j, "tool", PROG_NAME);
	json_key_string(&j, "version", tool_version);
	json_key(&j, "system");
	json_object_begin(&j);
	json_key_string(&j, "hostname", have_uts ? uts.nodename : "unknown");
	json_key_string(&j, "kernel", kernel_release());
	json_key_string(&j, "machine", have_uts ? uts.machine : "unknown");
	cpuinfo = read_root_file(root, "/proc/cpuinfo");
	dt = read_root_file(root, "/proc/device-tree/model");
	json_key_string_or_null(&j, "cpu_model",
				cpu_model(cpuinfo, dt ? strip(dt) : NULL, model,
					  sizeof(model)) ? model : NULL);
	free(cpuinfo);
	free(dt);
	json_key_uint_or_null(&j, "cpus", cpus, cpus > 0);
	json_dir(&j, "numa", root, "/sys/devices/system/node", true);
	json_key_int(&j, "page_size", page > 0 ? page : 4096);
	json_key_file(&j, "cmdline", root, "/proc/cmdline");
	json_key_file(&j, "dmi_product", root,
		      "/sys/class/dmi/id/product_name");
	json_dir(&j, "iommus", root, "/sys/class/iommu", false);
	json_object_end(&j);
	json_object_end(&j);
	fputc('\n', f);
}
