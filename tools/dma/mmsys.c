// SPDX-License-Identifier: GPL-2.0-only
/*
 * THP controls, NUMA node memory, smaps and the folio census: see mmsys.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mmsys.h"
#include "options.h"
#include "sysinfo.h"
#include "units.h"

bool thp_selected(const char *text, char *word, size_t len)
{
	const char *open = text ? strchr(text, '[') : NULL;
	const char *close = open ? strchr(open, ']') : NULL;
	size_t n;

	if (text && !open) {
		/* one word alone: what a write leaves in a file not sysfs's */
		n = strcspn(text, " \n");
		if (!n || n >= len || text[n + strspn(text + n, " \n")])
			return false;
		snprintf(word, len, "%.*s", (int)n, text);
		return true;
	}
	if (!close || (size_t)(close - open - 1) >= len || close == open + 1)
		return false;
	snprintf(word, len, "%.*s", (int)(close - open - 1), open + 1);
	return true;
}

/* thp_word() - the selected word of @root@path into @word; -errno or 0 */
static int thp_word(const char *root, const char *path, char *word)
{
	char *text = read_root_file(root, path);
	int ret = 0;

	if (!text)
		return -errno;
	if (!thp_selected(text, word, THP_WORD_LEN))
		ret = -EINVAL;
	free(text);
	return ret;
}

/* write_word() - @word into @root@path; -errno or 0 */
static int write_word(const char *root, const char *path, const char *word)
{
	char full[4096];
	ssize_t len = strlen(word), n;
	int fd, ret = 0;

	snprintf(full, sizeof(full), "%s%s", root, path);
	fd = open(full, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -errno;
	n = write(fd, word, len);
	if (n != len)
		ret = n < 0 ? -errno : -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* control_name_len() - of "enabled", or "hugepages-NkB" of ".../enabled" */
static int control_name_len(const char *name)
{
	const char *slash = strchr(name, '/');

	return slash ? slash - name : (int)strlen(name);
}

/*
 * thp_change() - select @want in control @path unless its word is one of
 * @keep ("|"-separated words that serve as well); what it was is saved in
 * @t. 0, or -errno after saying why on @err.
 */
static int thp_change(struct thp_controls *t, const char *path,
		      const char *want, const char *keep, const char *opt,
		      FILE *err)
{
	const char *name = path + strlen(THP_DIR "/");
	char old[THP_WORD_LEN], pat[THP_WORD_LEN + 2];
	int ret;

	ret = thp_word(t->root, path, old);
	if (ret) {
		fprintf(err, PROG_NAME ": --%s: cannot read %s%s: %s\n", opt,
			t->root, path, ret == -EINVAL ? "no [selected] word" :
			strerror(-ret));
		return ret;
	}
	snprintf(pat, sizeof(pat), "|%s|", old);
	if (!strcmp(old, want) || (keep && strstr(keep, pat)))
		return 0;
	if (t->n == THP_MAX_CONTROLS) {
		fprintf(err, PROG_NAME ": --%s: more than %d THP controls to set\n",
			opt, THP_MAX_CONTROLS);
		return -E2BIG;
	}
	ret = write_word(t->root, path, want);
	if (ret) {
		fprintf(err, PROG_NAME ": --%s: cannot set %s%s to %s (it is %s): %s%s\n",
			opt, t->root, path, want, old, strerror(-ret),
			ret == -EACCES || ret == -EPERM ?
			": the THP controls are root's: run as root" : "");
		return ret;
	}
	snprintf(t->path[t->n], sizeof(t->path[0]), "%s", path);
	snprintf(t->old[t->n], sizeof(t->old[0]), "%s", old);
	t->n++;
	/* "enabled=madvise", "hugepages-2048kB=never" */
	snprintf(t->set + strlen(t->set), sizeof(t->set) - strlen(t->set),
		 "%s%.*s=%s", t->set[0] ? " " : "", control_name_len(name),
		 name, want);
	return 0;
}

static int is_size_dir(const struct dirent *de)
{
	unsigned long kb;
	char tail;

	return sscanf(de->d_name, "hugepages-%lukB%c", &kb, &tail) == 1;
}

int thp_controls_set(struct thp_controls *t, const char *root,
		     uint64_t folio_bytes, long page_size, bool advise,
		     const char *opt, FILE *err)
{
	const char *mode = advise ? "madvise" : "always";
	char dir[4096], want[64], path[256];
	struct dirent **names = NULL;
	int n, i, ret = 0;

	memset(t, 0, sizeof(*t));
	t->root = root;
	if (folio_bytes <= (uint64_t)page_size)
		return 0;
	snprintf(dir, sizeof(dir), "%s" THP_DIR, root);
	if (access(dir, F_OK)) {
		fprintf(err, PROG_NAME ": --%s: this kernel has no transparent hugepages (no %s: CONFIG_TRANSPARENT_HUGEPAGE is off): only folios of the page size here\n",
			opt, dir);
		return -1;
	}
	ret = thp_change(t, THP_DIR "/enabled", mode, "|always|", opt, err);
	if (ret)
		goto fail;
	snprintf(want, sizeof(want), "hugepages-%" PRIu64 "kB",
		 folio_bytes >> 10);
	snprintf(dir, sizeof(dir), "%s" THP_DIR, root);
	n = scandir(dir, &names, is_size_dir, alphasort);
	for (i = 0; i < n; i++) {
		bool wanted = !strcmp(names[i]->d_name, want);

		snprintf(path, sizeof(path), THP_DIR "/%.64s/enabled",
			 names[i]->d_name);
		snprintf(dir, sizeof(dir), "%s%s", root, path);
		/* a size of shmem alone (6.12's 8kB): no anonymous control */
		if (access(dir, F_OK)) {
			free(names[i]);
			continue;
		}
		t->have_size_control |= wanted;
		if (!ret)
			ret = thp_change(t, path, wanted ? mode : "never",
					 wanted ? "|always|" : NULL, opt, err);
		free(names[i]);
	}
	free(names);
	/* no per-size controls (before 6.8): the top-level one is the PMD's */
	if (n <= 0) {
		char *pmd = read_root_file(root, THP_DIR "/hpage_pmd_size");

		t->have_size_control = pmd && strtoull(pmd, NULL, 10) ==
					      folio_bytes;
		free(pmd);
	}
	if (!ret)
		return 0;
fail:
	thp_controls_restore(t, err);
	return -1;
}

int thp_controls_restore(struct thp_controls *t, FILE *err)
{
	int ret = 0, e;

	while (t->n) {
		t->n--;
		e = write_word(t->root, t->path[t->n], t->old[t->n]);
		if (e) {
			fprintf(err, PROG_NAME ": cannot restore %s%s to %s: %s\n",
				t->root, t->path[t->n], t->old[t->n],
				strerror(-e));
			ret = -1;
		}
	}
	return ret;
}

bool thp_fault_stats(const char *root, uint64_t folio_bytes,
		     uint64_t *alloc, uint64_t *fallback)
{
	static const char *const names[] = { "anon_fault_alloc",
					     "anon_fault_fallback" };
	uint64_t *vals[] = { alloc, fallback };
	char path[256], *text, *end;
	bool ok = true;
	size_t i;

	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path),
			 THP_DIR "/hugepages-%" PRIu64 "kB/stats/%s",
			 folio_bytes >> 10, names[i]);
		text = read_root_file(root, path);
		*vals[i] = text ? strtoull(text, &end, 10) : 0;
		ok = ok && text && end != text;
		free(text);
	}
	return ok;
}

bool node_meminfo_parse(const char *text, int node, struct node_mem *m)
{
	static const char *const keys[] = { "MemTotal:", "MemFree:" };
	uint64_t *vals[] = { &m->total_kb, &m->free_kb };
	char pat[64];
	const char *p;
	size_t i;
	bool ok = true;

	for (i = 0; i < 2; i++) {
		unsigned long long v;

		snprintf(pat, sizeof(pat), "Node %d %s", node, keys[i]);
		p = text ? strstr(text, pat) : NULL;
		ok = ok && p && sscanf(p + strlen(pat), " %llu kB", &v) == 1;
		*vals[i] = ok ? v : 0;
	}
	return ok;
}

void node_mem_read(const char *root, int node, struct node_mem *m)
{
	char path[128], full[4096];
	struct stat st;
	char *text;

	memset(m, 0, sizeof(*m));
	snprintf(path, sizeof(path), NODE_DIR "/node%d", node);
	snprintf(full, sizeof(full), "%s%s", root, path);
	m->exists = !stat(full, &st);
	if (!m->exists)
		return;
	strcat(path, "/meminfo");
	text = read_root_file(root, path);
	node_meminfo_parse(text, node, m);
	free(text);
}

int first_memory_node(const char *root, int except)
{
	struct node_mem m;
	int n;

	for (n = 0; n <= NODE_MAX; n++) {
		if (n == except)
			continue;
		node_mem_read(root, n, &m);
		if (m.exists && m.total_kb)
			return n;
	}
	return -1;
}

void smaps_parse(const char *text, uintptr_t addr, struct smaps_vma *v)
{
	const char *line = text;

	memset(v, 0, sizeof(*v));
	while (line && *line) {
		const char *next = strchr(line, '\n');
		unsigned long long lo, hi, kb;
		char tail;

		/* a mapping's header: "7f00-7f20 rw-p 00000000 00:00 0" */
		if (sscanf(line, "%llx-%llx %c", &lo, &hi, &tail) == 3) {
			if (v->found)
				return;
			v->found = addr >= lo && addr < hi;
		} else if (v->found) {
			if (sscanf(line, "Rss: %llu kB", &kb) == 1)
				v->rss_kb = kb;
			else if (sscanf(line, "AnonHugePages: %llu kB", &kb) == 1)
				v->anon_huge_kb = kb;
		}
		line = next ? next + 1 : NULL;
	}
}

bool smaps_read(const char *root, uintptr_t addr, struct smaps_vma *v)
{
	char *text = read_root_file(root, "/proc/self/smaps");

	smaps_parse(text, addr, v);
	free(text);
	return text;
}

static void census_add(struct folio_census *c, size_t first, size_t pages)
{
	unsigned int order = pages ? ilog2_u64(pages) : 0;

	if (order >= CENSUS_ORDERS)
		order = CENSUS_ORDERS - 1;
	c->count[order]++;
	c->first[c->folios++] = first;
}

int folio_census_of(const uint64_t *pm, const uint64_t *kf, size_t n,
		    struct folio_census *c)
{
	size_t i, start = 0, len = 0;
	uint64_t last_pfn = 0;

	memset(c, 0, sizeof(*c));
	c->first = malloc((n ? n : 1) * sizeof(*c->first));
	if (!c->first)
		return -1;
	c->known = true;
	c->pages = n;
	for (i = 0; i < n; i++) {
		uint64_t pfn = pm[i] & PM_PFN_MASK;
		bool tail = kf[i] & (1ULL << KPF_COMPOUND_TAIL);

		if (!(pm[i] & PM_PRESENT)) {
			c->absent++;
			if (len)
				census_add(c, start, len);
			len = 0;
			continue;
		}
		if (len && tail && pfn == last_pfn + 1) {
			len++;
		} else {
			if (len)
				census_add(c, start, len);
			start = i;
			len = 1;
		}
		last_pfn = pfn;
	}
	if (len)
		census_add(c, start, len);
	return 0;
}

/* pread_all() - @len bytes at @off, or false */
static bool pread_all(int fd, void *buf, size_t len, off_t off)
{
	ssize_t n = pread(fd, buf, len, off);

	return n == (ssize_t)len;
}

int folio_census_read(const char *root, const void *addr, size_t n,
		      long page_size, struct folio_census *c)
{
	uint64_t *pm = calloc(n ? n : 1, sizeof(*pm));
	uint64_t *kf = calloc(n ? n : 1, sizeof(*kf));
	int pm_fd = -1, kf_fd = -1, ret = -1;
	char path[4096];
	bool pfns = false;
	size_t i, j;

	memset(c, 0, sizeof(*c));
	if (!pm || !kf)
		goto out;
	ret = 0;
	snprintf(path, sizeof(path), "%s/proc/self/pagemap", root);
	pm_fd = open(path, O_RDONLY);
	snprintf(path, sizeof(path), "%s/proc/kpageflags", root);
	kf_fd = open(path, O_RDONLY);
	if (pm_fd < 0 || kf_fd < 0 ||
	    !pread_all(pm_fd, pm, n * sizeof(*pm),
		       (uintptr_t)addr / page_size * sizeof(*pm)))
		goto out;
	/* the flags of runs of consecutive PFNs, one read a run */
	for (i = 0; i < n; i = j) {
		uint64_t pfn = pm[i] & PM_PFN_MASK;

		for (j = i + 1; j < n && (pm[j] & PM_PRESENT) &&
		     (pm[j] & PM_PFN_MASK) == pfn + (j - i); j++)
			;
		if (!(pm[i] & PM_PRESENT))
			continue;
		pfns |= pfn != 0;
		if (!pread_all(kf_fd, &kf[i], (j - i) * sizeof(*kf),
			       pfn * sizeof(*kf)))
			goto out;
	}
	/* unprivileged readers see PFN 0 everywhere */
	if (pfns)
		ret = folio_census_of(pm, kf, n, c);
out:
	if (pm_fd >= 0)
		close(pm_fd);
	if (kf_fd >= 0)
		close(kf_fd);
	free(pm);
	free(kf);
	return ret;
}

void folio_census_free(struct folio_census *c)
{
	free(c->first);
	c->first = NULL;
}
