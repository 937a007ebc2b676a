// SPDX-License-Identifier: GPL-2.0-only
/*
 * The migrate mode's parts that need no kernel: its options and their
 * errors, the THP controls set and restored in a made-up sysfs tree
 * (failures unwinding what was set), the node checks against made-up
 * meminfo files, the smaps parser, the folio census from made-up pagemap
 * and kpageflags entries, the verification of move_pages()' status and of
 * the pattern (a wrong node and a corrupt byte caught, and named), the
 * rotation of the rows, and migrate_row_add()'s figures from a STATS
 * answer.
 */
#include <errno.h>
#include <math.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "migrate.h"
#include "mmsys.h"
#include "options.h"
#include "tap.h"

static char err_text[4096];

/* parse() - opts_parse() of "-m migrate @words"; stderr in err_text */
static enum parse_status parse(struct bench_opts *o, const char *words)
{
	char *argv[32] = { "dma_map_benchmark", "-m", "migrate" }, buf[512];
	struct capture c = { 0 };
	enum parse_status st;
	int argc;

	argc = split_words(buf, sizeof(buf), words, argv, 3,
			   sizeof(argv) / sizeof(argv[0]));
	opts_init(o, 4096);
	st = opts_parse(o, argc, argv, stdout, capture_begin(&c));
	snprintf(err_text, sizeof(err_text), "%s", capture_end(&c));
	capture_free(&c);
	return st;
}

static void test_options(void)
{
	struct bench_opts o;

	ok(parse(&o, "") == PARSE_RUN && o.mode == MODE_MIGRATE &&
	   o.bytes == 1ULL << 30 && o.runs == 20 && o.channels == 1,
	   "-m migrate: defaults 1G, 20 runs, 1 channel");
	ok(parse(&o, "--bytes 64M --folio 2M -c 4 -p memcpy,memcpy_sg --src-node 0 --dst-node 1 -r 10 -w 2 --timeout-ms 500 --allow-fewer -C dma0chan1 -D soft_dma.0") == PARSE_RUN &&
	   o.bytes == 64ULL << 20 && o.folio_order == 9 && o.channels == 4 &&
	   o.prep_modes == (DMAENGINE_BENCH_PREP_MEMCPY |
			    DMAENGINE_BENCH_PREP_MEMCPY_SG) &&
	   o.src_node == 0 && o.dst_node == 1 && o.runs == 10 &&
	   o.warmup_runs == 2 && o.timeout_ms == 500 &&
	   (o.flags & DMAENGINE_BENCH_F_ALLOW_FEWER) &&
	   !strcmp(o.channel, "dma0chan1") && !strcmp(o.device, "soft_dma.0") &&
	   prep_modes_given(&o),
	   "the dmaengine mode's options the migrate mode shares");
	ok(parse(&o, "--json") == PARSE_RUN && o.format == OUT_JSON &&
	   parse(&o, "--csv -v") == PARSE_RUN && o.format == OUT_CSV && o.verbose,
	   "--json, --csv, -v");
	is_int(parse(&o, "--bytes 3M --folio 2M"), PARSE_USAGE,
	       "--bytes not a whole number of folios: a usage error");
	has_str(err_text, "--bytes 3MB is not a whole number of --folio 2MB folios: give a multiple of 2MB",
		"... naming --bytes, the folio and what to give");
	is_int(parse(&o, "--src-node 1 --dst-node 1"), PARSE_USAGE,
	       "--dst-node equal to --src-node: refused");
	has_str(err_text, "--dst-node 1 is --src-node's", "... saying so");
	is_int(parse(&o, "--sge 8"), PARSE_USAGE, "--sge is the dmaengine mode's");
	has_str(err_text, "--sge applies to -m dmaengine only", "... saying so");
	is_int(parse(&o, "--cpus 0"), PARSE_USAGE, "--cpus is not migrate's");
	has_str(err_text, "--cpus applies to the map modes and -m dmaengine only",
		"... saying which modes have it");
	is_int(parse(&o, "--bytes 0"), PARSE_USAGE, "--bytes 0: refused");
	has_str(err_text, "invalid --bytes '0': must be 1B..1TB", "... with the range");
	is_int(parse(&o, "--bytes 2T"), PARSE_USAGE, "--bytes above 1T: refused");
	ok(parse(&o, "") == PARSE_RUN && o.movers == 1 &&
	   parse(&o, "--movers 64") == PARSE_RUN && o.movers == 64,
	   "--movers: default 1, at most 64");
	is_int(parse(&o, "--movers 0"), PARSE_USAGE, "--movers 0: refused");
	has_str(err_text, "invalid --movers '0': must be 1..64",
		"... naming the option and its range");
	is_int(parse(&o, "--movers 65"), PARSE_USAGE, "--movers 65: refused");
	has_str(err_text, "invalid --movers '65': must be 1..64", "... saying so");
	is_int(parse(&o, "--movers two"), PARSE_USAGE, "--movers two: refused");

	{
		char *argv[] = { "dma_map_benchmark", "-m", "dmaengine",
				 "--bytes", "1M", NULL };
		struct capture c = { 0 };

		opts_init(&o, 4096);
		is_int(opts_parse(&o, 5, argv, stdout, capture_begin(&c)),
		       PARSE_USAGE, "--bytes with -m dmaengine: refused");
		has_str(capture_end(&c), "--bytes applies to -m migrate only",
			"... saying it is migrate's");
		capture_free(&c);
	}
	{
		char *argv[] = { "dma_map_benchmark", "-m", "dmaengine",
				 "--movers", "2", NULL };
		struct capture c = { 0 };

		opts_init(&o, 4096);
		is_int(opts_parse(&o, 5, argv, stdout, capture_begin(&c)),
		       PARSE_USAGE, "--movers with -m dmaengine: refused");
		has_str(capture_end(&c), "--movers applies to -m migrate only",
			"... saying it is migrate's");
		capture_free(&c);
	}
	{
		char *argv[] = { "dma_map_benchmark", "--help", NULL };
		struct capture c = { 0 };
		const char *help;

		opts_init(&o, 4096);
		opts_parse(&o, 2, argv, capture_begin(&c), stderr);
		help = capture_end(&c);
		has_str(help, PROG_NAME " -m migrate [OPTION]...",
			"--help: the migrate synopsis");
		has_str(help, "\n  migrate mode (-m migrate):\n        --bytes SIZE",
			"--help: the migrate mode's own options");
		has_str(help, "Documentation/migrate-mode.rst", "--help: where the mode is documented");
		has_str(help, "        --movers N        processes moving at once",
			"--help: --movers among the migrate mode's options");
		capture_free(&c);
	}
}

/* tree_read() - the selected word of the control @path of the tree */
static const char *tree_read(const char *path)
{
	static char word[THP_WORD_LEN];

	return thp_selected(tree_read_line(path), word, sizeof(word)) ? word :
									 "?";
}

#define THP_ENABLED	THP_DIR "/enabled"
#define THP_64K		THP_DIR "/hugepages-64kB/enabled"
#define THP_2M		THP_DIR "/hugepages-2048kB/enabled"

static void thp_tree(void)
{
	tree_new();
	/* a size without an anonymous control (6.12's 8kB: shmem's only) */
	tree_write(THP_DIR "/hugepages-8kB/shmem_enabled", "always [never]\n");
	tree_write(THP_ENABLED, "always madvise [never]\n");
	tree_write(THP_64K, "always inherit madvise [never]\n");
	tree_write(THP_2M, "always [inherit] madvise never\n");
	tree_write(THP_DIR "/hpage_pmd_size", "2097152\n");
}

static void test_thp(void)
{
	struct thp_controls t;
	struct capture c = { 0 };
	char word[THP_WORD_LEN];

	ok(thp_selected("always [madvise] never\n", word, sizeof(word)) &&
	   !strcmp(word, "madvise"), "thp_selected(): the bracketed word");
	ok(!thp_selected("always madvise never", word, sizeof(word)) &&
	   !thp_selected("[]", word, sizeof(word)) &&
	   !thp_selected("", word, sizeof(word)),
	   "thp_selected(): several words, none bracketed, or empty: false");
	ok(thp_selected("never\n", word, sizeof(word)) && !strcmp(word, "never"),
	   "thp_selected(): one word alone is that word");

	thp_tree();
	is_int(thp_controls_set(&t, tree_root, 2 << 20, 4096, true, "folio-order",
				stderr), 0, "2 MB folios: the controls set");
	is_str(tree_read(THP_ENABLED), "madvise", "the top-level control: madvise");
	is_str(tree_read(THP_2M), "madvise", "the 2 MB control: madvise");
	is_str(tree_read(THP_64K), "never", "the 64 KB control, already never: untouched");
	is_str(t.set, "enabled=madvise hugepages-2048kB=madvise",
	       "what was set, for the report (a size of shmem alone left out)");
	ok(t.have_size_control, "the kernel has the 2 MB control");
	is_int(thp_controls_restore(&t, stderr), 0, "restored");
	is_str(tree_read(THP_ENABLED), "never", "the top-level control: never again");
	is_str(tree_read(THP_2M), "inherit", "the 2 MB control: inherit again");
	is_int(thp_controls_restore(&t, stderr), 0, "a second restore does nothing");
	is_str(tree_read(THP_2M), "inherit", "... and leaves inherit");

	tree_write(THP_ENABLED, "always [madvise] never\n");
	tree_write(THP_64K, "always inherit madvise [never]\n");
	tree_write(THP_2M, "always [inherit] madvise never\n");
	is_int(thp_controls_set(&t, tree_root, 64 << 10, 4096, true, "folio-order",
				stderr), 0, "64 KB folios: the controls set");
	is_str(t.set, "hugepages-2048kB=never hugepages-64kB=madvise",
	       "64 KB madvise, 2 MB never (a larger size would win), enabled already madvise");
	thp_controls_restore(&t, stderr);
	is_str(tree_read(THP_64K), "never", "restored: 64 KB never");
	is_str(tree_read(THP_2M), "inherit", "restored: 2 MB inherit");

	is_int(thp_controls_set(&t, tree_root, 4096, 4096, true, "folio-order",
				stderr), 0, "order 0: nothing to set");
	ok(t.n == 0 && !t.set[0], "... and nothing set");

	/* a kernel without madvise(): "always" where "madvise" was enough */
	tree_write(THP_ENABLED, "always madvise [never]\n");
	is_int(thp_controls_set(&t, tree_root, 2 << 20, 4096, false,
				"folio-order", stderr), 0,
	       "no madvise(), 2 MB folios: the controls set");
	is_str(t.set, "enabled=always hugepages-2048kB=always",
	       "... both always, the other sizes never");
	thp_controls_restore(&t, stderr);
	is_str(tree_read(THP_ENABLED), "never", "... restored");
	is_int(thp_controls_set(&t, tree_root, 4096, 4096, false,
				"folio-order", stderr), 0,
	       "no madvise(), order 0: nothing set (prctl's, the caller's)");
	ok(t.n == 0 && !t.set[0], "... and nothing set");

	is_int(thp_controls_set(&t, tree_root, 1 << 20, 4096, true, "folio-order",
				stderr), 0, "1 MB folios, no such control: set the others");
	ok(!t.have_size_control, "... and say the size has no control");
	thp_controls_restore(&t, stderr);

	/* a control that cannot be written: what was set is restored */
	tree_write(THP_ENABLED, "always madvise [never]\n");
	{
		char path[4096];

		snprintf(path, sizeof(path), "%s" THP_2M, tree_root);
		unlink(path);
		mkdir(path, 0755);	/* a directory: open() for writing fails */
	}
	ok(thp_controls_set(&t, tree_root, 64 << 10, 4096, true, "folio-order",
			    capture_begin(&c)) == -1,
	   "a control that cannot be read: an error");
	has_str(capture_end(&c), "--folio-order: cannot read ",
		"... naming the option and the file");
	is_str(tree_read(THP_ENABLED), "never",
	       "... and the top-level control set before it is restored");
	tree_free();

	tree_new();	/* no THP_DIR: CONFIG_TRANSPARENT_HUGEPAGE off */
	ok(thp_controls_set(&t, tree_root, 2 << 20, 4096, true, "folio-order",
			    capture_begin(&c)) == -1,
	   "a kernel without THP, 2 MB folios: an error");
	has_str(capture_end(&c), "--folio-order: this kernel has no transparent hugepages (no ",
		"... saying so, naming the option");
	is_int(thp_controls_set(&t, tree_root, 4096, 4096, true, "folio-order",
				stderr), 0, "... and order 0 runs without");
	tree_free();

	capture_free(&c);
}

/*
 * A control that cannot be written for want of root: as another user (a
 * child that drops root, when the test runs as root), a read-only file.
 */
static void test_thp_not_root(void)
{
	char path[4096], msg[1024] = "";
	struct thp_controls t;
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	thp_tree();
	chmod(tree_root, 0755);	/* mkdtemp()'s 0700: the other user reads */
	snprintf(path, sizeof(path), "%s" THP_ENABLED, tree_root);
	chmod(path, 0444);
	if (pipe(fds))
		return;
	fflush(stdout);
	pid = fork();
	if (!pid) {
		FILE *err = fdopen(fds[1], "w");
		int ret;

		close(fds[0]);
		if (!geteuid() && setuid(65534))
			_exit(3);
		ret = thp_controls_set(&t, tree_root, 2 << 20, 4096, true,
				       "folio-order", err);
		fclose(err);
		_exit(ret == -1 ? 0 : 1);
	}
	close(fds[1]);
	n = read(fds[0], msg, sizeof(msg) - 1);
	msg[n > 0 ? n : 0] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && !WEXITSTATUS(status),
	   "not root: setting a THP control fails");
	has_str(msg, "--folio-order: cannot set ", "... naming the option and the file");
	has_str(msg, "/sys/kernel/mm/transparent_hugepage/enabled to madvise (it is never): Permission denied: the THP controls are root's: run as root",
		"... what it is, and that it needs root");
	tree_free();
}

static void node_tree(void)
{
	tree_new();
	tree_write(NODE_DIR "/node0/meminfo",
		   "Node 0 MemTotal:        2000000 kB\nNode 0 MemFree:          900000 kB\n");
	tree_write(NODE_DIR "/node1/meminfo",
		   "Node 1 MemTotal:        2000000 kB\nNode 1 MemFree:         1500000 kB\n");
	tree_write(NODE_DIR "/node2/meminfo",
		   "Node 2 MemTotal:              0 kB\nNode 2 MemFree:               0 kB\n");
}

static void test_nodes(void)
{
	struct node_mem m;
	struct bench_opts o;
	struct capture c = { 0 };
	int src, dst;

	ok(node_meminfo_parse("Node 3 MemTotal: 10 kB\nNode 3 MemFree: 4 kB\n",
			      3, &m) && m.total_kb == 10 && m.free_kb == 4,
	   "node_meminfo_parse(): MemTotal and MemFree");
	ok(!node_meminfo_parse("Node 3 MemTotal: 10 kB\n", 3, &m),
	   "node_meminfo_parse(): MemFree missing: false");

	node_tree();
	parse(&o, "--bytes 64M");
	ok(!migrate_check_nodes(tree_root, &o, &src, &dst, stderr) && src == 0 &&
	   dst == 1, "no nodes given: node 0 to node 1, the first with memory");
	parse(&o, "--bytes 64M --src-node 1");
	ok(!migrate_check_nodes(tree_root, &o, &src, &dst, stderr) && src == 1 &&
	   dst == 0, "--src-node 1: to node 0");
	parse(&o, "--bytes 64M --src-node 0 --dst-node 5");
	ok(migrate_check_nodes(tree_root, &o, &src, &dst, capture_begin(&c)),
	   "--dst-node 5, no such node: refused");
	has_str(capture_end(&c), "invalid --dst-node 5: there is no NUMA node 5",
		"... naming the option and why");
	parse(&o, "--bytes 64M --src-node 2 --dst-node 0");
	ok(migrate_check_nodes(tree_root, &o, &src, &dst, capture_begin(&c)),
	   "--src-node 2, a node without memory: refused");
	has_str(capture_end(&c), "invalid --src-node 2: node 2 has no memory",
		"... naming the option and why");
	parse(&o, "--bytes 1G --src-node 0 --dst-node 1");
	ok(migrate_check_nodes(tree_root, &o, &src, &dst, capture_begin(&c)),
	   "--bytes 1G, more than node 0's 900000 kB free: refused");
	has_str(capture_end(&c), "invalid --bytes 1GB: more than node 0's free memory",
		"... naming --bytes, the node and its free memory");
	tree_free();

	tree_new();
	tree_write(NODE_DIR "/node0/meminfo",
		   "Node 0 MemTotal:        2000000 kB\nNode 0 MemFree:          900000 kB\n");
	parse(&o, "--bytes 64M");
	ok(migrate_check_nodes(tree_root, &o, &src, &dst, capture_begin(&c)),
	   "a machine of one node: refused");
	has_str(capture_end(&c), "--dst-node: node 0 is the only NUMA node with memory here",
		"... naming --dst-node and why");
	tree_free();
	capture_free(&c);
}

static void test_smaps(void)
{
	static const char text[] =
		"00400000-00452000 r-xp 00000000 08:02 173521 /usr/bin/x\n"
		"Rss:                 100 kB\n"
		"AnonHugePages:         0 kB\n"
		"7f0000000000-7f0040000000 rw-p 00000000 00:00 0\n"
		"Size:            1048576 kB\n"
		"Rss:             1048576 kB\n"
		"AnonHugePages:    1044480 kB\n"
		"VmFlags: rd wr mr mw me ac hg\n"
		"7f0040000000-7f0040001000 rw-p 00000000 00:00 0\n"
		"Rss:                   4 kB\n"
		"AnonHugePages:         0 kB\n";
	struct smaps_vma v;

	smaps_parse(text, 0x7f0000200000, &v);
	ok(v.found && v.rss_kb == 1048576 && v.anon_huge_kb == 1044480,
	   "smaps_parse(): the mapping holding the address, its Rss and AnonHugePages");
	smaps_parse(text, 0x7f0050000000, &v);
	ok(!v.found && !v.rss_kb, "smaps_parse(): an address in no mapping: not found");
	smaps_parse(text, 0x7f0040000000, &v);
	ok(v.found && v.rss_kb == 4 && !v.anon_huge_kb,
	   "smaps_parse(): the last mapping");
}

#define HEAD	(1ULL << KPF_COMPOUND_HEAD)
#define TAIL	(1ULL << KPF_COMPOUND_TAIL)
#define PRESENT(pfn)	(PM_PRESENT | (pfn))

static void test_census(void)
{
	/* a 4-page folio, two single pages, an absent page, a 2-page folio */
	const uint64_t pm[] = {
		PRESENT(100), PRESENT(101), PRESENT(102), PRESENT(103),
		PRESENT(7), PRESENT(9), 0, PRESENT(200), PRESENT(201),
	};
	const uint64_t kf[] = {
		HEAD, TAIL, TAIL, TAIL, 0, 0, 0, HEAD, TAIL,
	};
	/* a tail whose PFN does not follow: a folio of its own */
	const uint64_t pm2[] = { PRESENT(10), PRESENT(11), PRESENT(40) };
	const uint64_t kf2[] = { HEAD, TAIL, TAIL };
	struct folio_census c;

	ok(!folio_census_of(pm, kf, 9, &c) && c.known && c.pages == 9 &&
	   c.absent == 1 && c.folios == 4,
	   "census: 4 folios, 1 absent page in 9 pages");
	ok(c.count[2] == 1 && c.count[0] == 2 && c.count[1] == 1,
	   "census: one of order 2, one of order 1, two of order 0");
	ok(c.first[0] == 0 && c.first[1] == 4 && c.first[2] == 5 &&
	   c.first[3] == 7, "census: each folio's first page, for the moves");
	folio_census_free(&c);
	ok(!folio_census_of(pm2, kf2, 3, &c) && c.folios == 2 &&
	   c.count[1] == 1 && c.count[0] == 1,
	   "census: a tail at another PFN starts a folio");
	folio_census_free(&c);

	tree_new();
	ok(!folio_census_read(tree_root, (void *)0x10000, 4, 4096, &c) &&
	   !c.known, "census read without pagemap: unknown, not an error");
	folio_census_free(&c);
	/* a pagemap of PFN 0 everywhere, as an unprivileged reader sees it */
	{
		uint64_t zero_pm[20] = { 0 };
		uint64_t zero_kf[4] = { 0 };
		int i;

		for (i = 0; i < 20; i++)
			zero_pm[i] = PM_PRESENT;
		tree_write_n("/proc/self/pagemap", (char *)zero_pm,
			     sizeof(zero_pm));
		tree_write_n("/proc/kpageflags", (char *)zero_kf,
			     sizeof(zero_kf));
		ok(!folio_census_read(tree_root, (void *)(16 * 4096), 4, 4096,
				      &c) && !c.known,
		   "census read with PFNs hidden (not root): unknown");
		folio_census_free(&c);
	}
	/* a real-looking one: pages 4..7 a 4-page folio at PFNs 8..11 */
	{
		uint64_t p[8] = { 0 }, k[16] = { 0 };
		int i;

		for (i = 4; i < 8; i++)
			p[i] = PRESENT(8 + i - 4);
		k[8] = HEAD;
		k[9] = k[10] = k[11] = TAIL;
		tree_write_n("/proc/self/pagemap", (char *)p, sizeof(p));
		tree_write_n("/proc/kpageflags", (char *)k, sizeof(k));
		ok(!folio_census_read(tree_root, (void *)(4 * 4096), 4, 4096,
				      &c) && c.known && c.folios == 1 &&
		   c.count[2] == 1,
		   "census read from pagemap and kpageflags files: one order-2 folio");
		folio_census_free(&c);
	}
	tree_free();
}

static void test_verify(void)
{
	char buf[3 * 4096] __attribute__((aligned(8))) = { 0 };
	void *pages[3] = { buf, buf + 4096, buf + 8192 };
	int status[3] = { 1, 1, 1 };
	struct capture c = { 0 };

	ok(!migrate_check_status(status, pages, 3, 1, buf, "run 0", stderr),
	   "status: every entry on the node: passes");
	status[2] = 0;
	ok(migrate_check_status(status, pages, 3, 1, buf, "run 0",
				capture_begin(&c)), "status: an entry on another node: fails");
	has_str(capture_end(&c), "run 0: entry 2 (offset 0x2000 in the buffer) is on node 0, not on node 1",
		"... naming the entry, its offset, the node seen and the node wanted");
	status[2] = -EBUSY;
	ok(migrate_check_status(status, pages, 3, 1, buf, "run 0",
				capture_begin(&c)), "status: an entry not moved: fails");
	has_str(capture_end(&c), "entry 2 (offset 0x2000 in the buffer) is not moved: move_pages() status -16 (Device or resource busy), not on node 1",
		"... with move_pages()' error");

	migrate_fill(buf, sizeof(buf), MIGRATE_SEED);
	ok(!migrate_check_pattern(buf, sizeof(buf), MIGRATE_SEED, "run 1", stderr),
	   "pattern: intact: passes");
	buf[4096 + 13] ^= 0x40;
	ok(migrate_check_pattern(buf, sizeof(buf), MIGRATE_SEED, "run 1",
				 capture_begin(&c)), "pattern: a corrupt byte: fails");
	has_str(capture_end(&c), "run 1: the data is corrupt at offset 0x1008 (page 1)",
		"... naming the word's offset and page");
	capture_free(&c);
}

static void test_rotation(void)
{
	unsigned int seen[3][3] = { { 0 } }, run, k;

	for (run = 0; run < 6; run++)
		for (k = 0; k < 3; k++)
			seen[rotation_index(run, k, 3)][k]++;
	ok(seen[0][0] == 2 && seen[1][0] == 2 && seen[2][0] == 2 &&
	   seen[0][2] == 2, "rotation: in 6 runs each of 3 rows is first, last twice");
	ok(rotation_index(0, 0, 3) == 0 && rotation_index(1, 0, 3) == 1 &&
	   rotation_index(1, 2, 3) == 0, "rotation: run 1 starts with the second row");
}

static void test_row(void)
{
	struct dma_migrate_offload st = {
		.channels_used = 4, .folios_offloaded = 500,
		.folios_fallback = 12, .batches = 2,
		.ph = { .batch_ns = 50000000, .wait_ns = 40000000 },
	};
	struct migrate_row row = { .prep_mode = DMAENGINE_BENCH_MODE_MEMCPY_SG };

	migrate_row_add(&row, &(struct migrate_move){ 1000000000, 100000000,
						      100000000 }, &st);
	st.folios_offloaded = 512;
	st.folios_fallback = 0;
	migrate_row_add(&row, &(struct migrate_move){ 1000000000, 250000000,
						      250000000 }, &st);
	ok(row.channels_used == 4 && row.gbps.n == 2 &&
	   stat_mean(&row.gbps) == 7 && stat_mean(&row.move_ms) == 175,
	   "a row of two runs: GB/s 10 and 4 (mean 7), move_ms mean 175");
	ok(stat_mean(&row.offloaded) == 506 && stat_mean(&row.fallback) == 6 &&
	   stat_mean(&row.phase[MSC_MOVE][MPH_WAIT]) == 40 &&
	   stat_mean(&row.copy_share) == (0.5 + 0.2) / 2,
	   "... offloaded, fallback, wait_ms and copy_share from STATS");
	ok(stat_mean(&row.phase[MSC_MOVE][MPH_OTHER]) == 10 &&
	   stat_mean(&row.phase[MSC_BATCH][MPH_WAIT]) == 20000 &&
	   stat_mean(&row.phase[MSC_FOLIO][MPH_BATCH]) == 0,
	   "... other_ms 10 (50 of the batch, 40 of it waiting), wait 20000 us a batch of 2, no folio: 0 a folio");
	ok(fabs(stat_mean(&row.share[MOW_ENGINE]) - (0.4 + 0.16) / 2) < 1e-12 &&
	   fabs(stat_mean(&row.share[MOW_CLIENT]) - (0.1 + 0.04) / 2) < 1e-12 &&
	   stat_mean(&row.share[MOW_DMA_API]) == 0 &&
	   stat_mean(&row.share[MOW_DMAENGINE]) == 0,
	   "... copy_share split: the wait the engine's, other the client's, over each run's move");
	ok(fabs(stat_mean(&row.share[MOW_CLIENT]) +
		stat_mean(&row.share[MOW_DMA_API]) +
		stat_mean(&row.share[MOW_DMAENGINE]) +
		stat_mean(&row.share[MOW_ENGINE]) -
		stat_mean(&row.copy_share)) < 1e-12,
	   "... and the split adds up to copy_share");

	/* four movers of 1 GB each, 0.5 s from the first start to the last end */
	memset(&row, 0, sizeof(row));
	migrate_row_add(&row, &(struct migrate_move){ 4000000000, 500000000,
						      1250000000 }, &st);
	ok(stat_mean(&row.gbps) == 8 && stat_mean(&row.move_ms) == 500 &&
	   stat_mean(&row.copy_share) == 0.04,
	   "movers: GB/s every mover's bytes over the wall time, move_ms that time, copy_share over the movers' times summed");
}

int main(int argc, char **argv)
{
	tap_init(argc, argv);
	test_options();
	test_thp();
	test_thp_not_root();
	test_nodes();
	test_smaps();
	test_census();
	test_verify();
	test_rotation();
	test_row();
	return tap_done();
}
