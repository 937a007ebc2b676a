/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The memory-management knobs and views the migrate mode sets and reads:
 * the transparent hugepage controls (set for a run, restored after), the
 * NUMA nodes' memory, /proc/self/smaps, and the folio sizes a mapping
 * really got (/proc/self/pagemap and /proc/kpageflags). Every path is
 * taken under a root directory ("" for the real one), so the host tests
 * point them at a made-up tree.
 */
#ifndef DMABENCH_MMSYS_H
#define DMABENCH_MMSYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define THP_DIR		"/sys/kernel/mm/transparent_hugepage"
#define NODE_DIR	"/sys/devices/system/node"

/* Files a run may write: the top-level control and one per folio size. */
#define THP_MAX_CONTROLS	32
#define THP_WORD_LEN		16

/**
 * struct thp_controls - the THP controls a run changed, to restore them
 * @root: the tree the paths are under
 * @n: entries in @path and @old
 * @path: each file written, under @root
 * @old: the word that was selected in it before ("never", "madvise", ...)
 * @set: what the run set, for the report ("enabled=madvise
 *	hugepages-2048kB=madvise ...", "" when nothing was changed)
 * @have_size_control: the kernel has a hugepages-<size>kB control for the
 *	folio size asked (mTHP, Linux 6.8 and later; or the PMD size)
 */
struct thp_controls {
	const char *root;
	unsigned int n;
	char path[THP_MAX_CONTROLS][256];
	char old[THP_MAX_CONTROLS][THP_WORD_LEN];
	char set[512];
	bool have_size_control;
};

/*
 * thp_selected() - the selected word of a control's text, "always
 * [madvise] never" -> "madvise", into @word; a text of one word alone
 * ("madvise\n": a plain file written to) is that word; false otherwise
 */
bool thp_selected(const char *text, char *word, size_t len);

/*
 * thp_controls_set() - make anonymous memory madvise(MADV_HUGEPAGE)d fault
 * in folios of @folio_bytes: the top-level control at least "madvise", the
 * control of that size "madvise" (unless "always"), every other size
 * "never", so that neither a larger nor a smaller size is chosen. For
 * @folio_bytes == @page_size nothing is set (the mapping gets
 * MADV_NOHUGEPAGE). Without @advise (a kernel built without madvise(),
 * CONFIG_ADVISE_SYSCALLS off, as tinyconfig has it) the two controls are
 * "always" instead, and order 0 is the caller's (PR_SET_THP_DISABLE). A file whose word is already right is not written, so
 * a run that changes nothing needs no root. 0, or -1 after restoring what
 * was already changed and saying on @err which file could not be read or
 * written and why, naming @opt (the folio option); a kernel without THP
 * (no /sys/kernel/mm/transparent_hugepage) is such an error.
 */
int thp_controls_set(struct thp_controls *t, const char *root,
		     uint64_t folio_bytes, long page_size, bool advise,
		     const char *opt, FILE *err);

/*
 * thp_controls_restore() - write back every word thp_controls_set() changed,
 * last first; 0, or -1 after saying on @err which could not be restored
 * (the others are restored still). Calling it again does nothing.
 */
int thp_controls_restore(struct thp_controls *t, FILE *err);

/*
 * thp_fault_stats() - the counters of folio size @folio_bytes since boot,
 * hugepages-<size>kB/stats/anon_fault_alloc and anon_fault_fallback;
 * false when the kernel has no such statistics (before 6.9, or no such size)
 */
bool thp_fault_stats(const char *root, uint64_t folio_bytes,
		     uint64_t *alloc, uint64_t *fallback);

/**
 * struct node_mem - a NUMA node's memory, from nodeN/meminfo
 * @exists: /sys/devices/system/node/nodeN exists
 * @total_kb: MemTotal
 * @free_kb: MemFree
 */
struct node_mem {
	bool exists;
	uint64_t total_kb;
	uint64_t free_kb;
};

/*
 * node_meminfo_parse() - MemTotal and MemFree of node @node from the text
 * of its meminfo ("Node 0 MemTotal:  1012345 kB"); false when either is
 * missing
 */
bool node_meminfo_parse(const char *text, int node, struct node_mem *m);
/* node_mem_read() - @node's memory under @root; ->exists false: no node */
void node_mem_read(const char *root, int node, struct node_mem *m);
/*
 * first_memory_node() - the lowest node with memory other than @except
 * (-1: none excepted) among nodes 0..NODE_MAX, or -1
 */
int first_memory_node(const char *root, int except);

/**
 * struct smaps_vma - what /proc/self/smaps says about one mapping
 * @found: the mapping was in the text
 * @rss_kb: Rss
 * @anon_huge_kb: AnonHugePages: PMD-mapped THP (2 MB on x86-64)
 */
struct smaps_vma {
	bool found;
	uint64_t rss_kb;
	uint64_t anon_huge_kb;
};

/*
 * smaps_parse() - the fields of the mapping that contains @addr in the
 * text of /proc/PID/smaps
 */
void smaps_parse(const char *text, uintptr_t addr, struct smaps_vma *v);
/* smaps_read() - smaps_parse() of @root's /proc/self/smaps; false: unread */
bool smaps_read(const char *root, uintptr_t addr, struct smaps_vma *v);

/* The orders a census counts: 0 .. 30 - 12, up to 1 GB folios of 4K. */
#define CENSUS_ORDERS		19

/**
 * struct folio_census - the folios a mapping is made of
 * @known: the PFNs could be read (root; false: all else is zero)
 * @pages: pages looked at
 * @absent: of them, not present (never faulted in, or swapped)
 * @folios: folios found
 * @count: folios by order (a folio of a size not a power of two pages,
 *	which the kernel does not make, goes to the order below)
 * @first: the first page of each folio, @folios of them (malloc()ed:
 *	folio_census_free()); a run moves one address per folio
 */
struct folio_census {
	bool known;
	size_t pages;
	size_t absent;
	size_t folios;
	size_t count[CENSUS_ORDERS];
	uint32_t *first;
};

/* pagemap and kpageflags bits (Documentation/admin-guide/mm/pagemap.rst) */
#define PM_PFN_MASK		((1ULL << 55) - 1)
#define PM_PRESENT		(1ULL << 63)
#define KPF_COMPOUND_HEAD	15
#define KPF_COMPOUND_TAIL	16

/*
 * folio_census_of() - the census of @n pages, from their pagemap entries
 * @pm and the kpageflags @kf of each present page's PFN: a folio is a
 * compound head and the tails that follow it at consecutive PFNs, or a
 * page that is neither. -1 when out of memory.
 */
int folio_census_of(const uint64_t *pm, const uint64_t *kf, size_t n,
		    struct folio_census *c);
/*
 * folio_census_read() - the census of @n pages at @addr from @root's
 * /proc/self/pagemap and /proc/kpageflags; ->known false when they cannot
 * be read or the PFNs are hidden (not root). -1 when out of memory.
 */
int folio_census_read(const char *root, const void *addr, size_t n,
		      long page_size, struct folio_census *c);
void folio_census_free(struct folio_census *c);

#endif
