// SPDX-License-Identifier: GPL-2.0-only
/*
 * migrate_run_in() end to end against a made-up kernel (migrate_fixture.h
 * says what it does). Checked: the control sequence (offloading=1, the
 * counters read and reset around each timed move, offloading=0; rows in
 * rotating order), the start's parameters, the report's rows and '#' lines, the one line
 * without the offload, the THP controls set during the run and restored
 * after it (also after an error and a SIGINT), and the verification
 * failing, naming the page, on a wrong node or corrupt data; --movers,
 * processes moving at once. The offload's phases: test_migrate_phases.c.
 */
#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

#include "migrate_fixture.h"

static void test_offload(void)
{
	make_tree(2);
	is_int(run(K_HOOK, SMALL " -p memcpy,memcpy_sg"), 0,
	       "a kernel with the hook: exit status 0");
	is_str(fake.log,
	       /* the probe: each mode started and stopped once */
	       "S0 T S1 T "
	       /* warm-up run 0: cpu, memcpy, memcpy_sg */
	       "M1 M0 S0 R M1 R T M0 S1 R M1 R T M0 "
	       /* run 1, rotated: memcpy, memcpy_sg, cpu */
	       "S0 R M1 R T M0 S1 R M1 R T M0 M1 M0 "
	       /* run 2: memcpy_sg, cpu, memcpy */
	       "S1 R M1 R T M0 M1 M0 S0 R M1 R T M0",
	       "offloading=1, reset, the timed move, reset, offloading=0, the move back; rows rotating from run to run");
	ok(fake.start.channels == 4 && fake.start.reasons == DMA_MIGRATE_R_SYSCALL &&
	   fake.start.timeout_ms == 500 && !fake.start.flags,
	   "the start: nr_dma_chan --channels, reason_mask syscall, timeout_ms --timeout-ms, allow_fewer 0");
	is_str(fake.thp_during, "madvise",
	       "during the run: the 64 KB THP control madvise");
	ok(thp_restored(), "after the run: the THP controls as they were");
	has_str(out_text, "# migrate: 256KB in 64KB folios (order 4), move_pages() node 0 -> node 1 and back; 2 runs after 1 warm-up; offload prep both, 4 channels, timeout 500 ms",
		"the parameters' '#' line");
	has_str(out_text, "# thp: set enabled=madvise hugepages-2048kB=never hugepages-64kB=madvise\n",
		"the THP controls' '#' line");
	has_str(out_text, "# folios: sizes unknown", "no pagemap in the tree: the folio sizes unknown");
	has_str(out_text, "# offload: hook project\n", "the hook named");
	has_str(out_text, "\nmode           chan folio folios GB/s ", "the table's heading");
	has_str(out_text, "\ncpu            -    64KB  4      ", "the cpu row: 4 folios of 64 KB");
	has_str(out_text, "\nprep_memcpy_sg 4    64KB  4      ", "the memcpy_sg row: 4 channels");
	has_str(strstr(out_text, "\nprep_memcpy "), " 3           1           0\n",
		"offloaded 3, fallback 1 and declined 0 a run, from the stats file");
	ok(strstr(out_text, "\ncpu ") < strstr(out_text, "\nprep_memcpy ") &&
	   strstr(out_text, "\nprep_memcpy ") < strstr(out_text, "\nprep_memcpy_sg "),
	   "rows: cpu, memcpy, memcpy_sg");
	ok(!strstr(out_text, "batch_ms"), "no -v: no phase columns");
	ok(!err_text[0], "nothing on stderr");

	is_int(run(K_HOOK, SMALL " -p memcpy -v"), 0, "-v: exit status 0");
	has_str(out_text, " batch_ms ", "-v: the phase columns");
	has_str(strstr(out_text, "\nprep_memcpy "), "2.00 \u00b1 0.00 ",
		"-v: batch_ms 2 ms from the stats file's phase.batch");
	has_str(strstr(out_text, "\ncpu "), "-", "-v: the cpu row has no phases");

	is_int(run(K_HOOK, SMALL " -p memcpy --json"), 0, "--json: exit status 0");
	has_str(out_text, "\"mode\":\"migrate\",\"params\":{\"bytes\":262144,\"folio_order\":4,\"folio_bytes\":65536,",
		"JSON: mode and params");
	has_str(out_text, "\"offload\":{\"state\":\"ready\",\"hook\":\"project\",\"message\":null}",
		"JSON: the offload's state");
	has_str(out_text, "\"prep_modes_run\":[\"cpu\",\"prep_memcpy\"]", "JSON: the rows run");
	has_str(out_text, "{\"prep_mode\":\"prep_memcpy\",\"chan\":4,\"folio_order\":4,\"folio_bytes\":65536,\"bytes\":262144,\"runs\":2,\"folios\":4,\"gbps\":{\"mean\":",
		"JSON: a result row as the dmaengine mode's");
	has_str(out_text, "\"folios_offloaded\":{\"mean\":3.000000,\"stddev\":0.000000}",
		"JSON: folios_offloaded from STATS");
	has_str(out_text, "\"figures\":[{\"key\":\"gbps\",\"unit\":\"GB/s\",\"kind\":\"mean_stddev\"",
		"JSON: the figures described");
	tap_out_file("migrate.json", out_text);

	is_int(run(K_HOOK, SMALL " -p memcpy --csv"), 0, "--csv: exit status 0");
	has_str(out_text, "mode,chan,folio_order,folio_bytes,bytes,src_node,dst_node,runs,folios,gbps_mean,gbps_stddev,move_ms_mean,",
		"CSV: the header");
	has_str(out_text, "\nprep_memcpy,4,4,65536,262144,0,1,2,4,", "CSV: the memcpy row");
	has_str(out_text, ",ready,1\n", "CSV: the offload state, then the movers, last");
	tap_out_file("migrate.csv", out_text);
	tree_free();
}

/* no_child_left() - every forked mover waited for */
static bool no_child_left(void)
{
	return waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD;
}

/* --movers: processes moving at once, each its own buffer, each verified */
static void test_movers(void)
{
	/* 2 children x (1 + 2 runs) x 2 rows x there and back */
	const unsigned int child_moves = 2 * 3 * 2 * 2;

	make_tree(2);
	is_int(run_injected(K_HOOK, SMALL " -p memcpy --movers 3 -v",
			    (struct inject){ .together = 3 }), 0,
	       "--movers 3: exit status 0");
	is_str(fake.log,
	       "S0 T M1 M0 S0 R M1 R T M0 S0 R M1 R T M0 M1 M0 M1 M0 S0 R M1 R T M0",
	       "--movers 3: the process's own moves and the controls as with one mover");
	is_int(shared->child_moves, child_moves,
	       "--movers 3: the two forked movers moved as often as the process");
	is_int(shared->apart, 0,
	       "--movers 3: at every move, the three inside move_pages() at once");
	has_str(out_text, "# movers: 3 processes at once, each moving 256KB of its own, started together every move: GB/s their 768KB over the time from the first start to the last end",
		"--movers 3: a '#' line says what GB/s and move_ms are");
	has_str(out_text, "\nprep_memcpy    4    64KB  12     ",
		"--movers 3: the folios every mover moved, 3 x 4");
	has_str(strstr(out_text, "\nprep_memcpy "), " 11          1           0 ",
		"--movers 3: offloaded 11, fallback 1, declined 0: STATS over the whole move");
	ok(no_child_left(), "--movers 3: every mover waited for");
	ok(thp_restored(), "--movers 3: the THP controls restored");

	is_int(run(K_HOOK, SMALL " -p memcpy --movers 2 --json"), 0,
	       "--movers 2 --json: exit status 0");
	has_str(out_text, ",\"pattern_check\":true,\"movers\":2},",
		"--json: params.movers");
	has_str(out_text, "\"prep_mode\":\"prep_memcpy\",\"chan\":4,\"folio_order\":4,\"folio_bytes\":65536,\"bytes\":262144,\"runs\":2,\"folios\":8,",
		"--json: the row's folios every mover's, bytes a mover's");
	has_str(out_text, "\"folios_offloaded\":{\"mean\":7.000000,",
		"--json: STATS' folios_offloaded over both movers' move");
	is_int(run(K_HOOK, SMALL " -p memcpy --movers 2 --csv"), 0,
	       "--movers 2 --csv: exit status 0");
	has_str(out_text, ",ready,2\n", "--csv: the movers last");
	ok(no_child_left(), "--json, --csv: every mover waited for");

	is_int(run_injected(K_HOOK, INJECT " --movers 3",
			    (struct inject){ .corrupt_on_move = 3,
					     .only_children = true }),
	       1, "--movers 3, a corrupt byte in a forked mover's buffer: exit status 1");
	ok(strstr(err_text, "run 0, prep_memcpy, to --dst-node 1, mover 2: the data is corrupt at offset 0x1008") ||
	   strstr(err_text, "run 0, prep_memcpy, to --dst-node 1, mover 3: the data is corrupt at offset 0x1008"),
	   "... naming the run, the row, the move and the mover");
	ok(!strstr(err_text, "mover 1:"), "... the process's own buffer intact");
	ok(!shared->started, "... the offload stopped");
	ok(thp_restored(), "... the THP controls restored");
	ok(no_child_left(), "... every mover waited for");
	ok(!out_text[0], "... and no report");

	is_int(run_injected(K_HOOK, INJECT " --movers 2",
			    (struct inject){ .signal_on_move = 2 }),
	       1, "--movers 2, SIGINT during a move: exit status 1");
	has_str(err_text, "stopped by signal 2 (Interrupt)",
		"... the process says so after the move");
	ok(!strstr(err_text, "mover 2"), "... the forked mover ignored it");
	ok(thp_restored() && no_child_left(),
	   "... the THP controls restored, every mover waited for");

	is_int(run(K_HOOK, "--bytes 256M --folio 64K -p memcpy --movers 4"), 2,
	       "--bytes x --movers above a node's free memory: exit status 2");
	has_str(err_text, "invalid --bytes 256MB x --movers 4: more than node 0's free memory (MemFree 800000KB in ",
		"... naming both options and the node's free memory");
	has_str(err_text, "; lower --bytes or --movers\n", "... and what to lower");
	ok(!fake.log[0] && no_child_left(), "... before any start or fork");
	tree_free();
}

static void test_no_offload(void)
{
	make_tree(2);
	is_int(run(K_NO_HOOK, SMALL), 0, "a kernel without the hook: exit status 0");
	has_str(out_text, "# offload: not run: this kernel has no migration copy-offload hook; offload needs the project's kernel/patches/v7.3-migrate/ series\n",
		"... one line saying so and where the series is");
	ok(strstr(out_text, "\ncpu ") && !strstr(out_text, "\nprep_memcpy"),
	   "... the cpu row alone");
	is_str(fake.log, "S0 M1 M0 M1 M0 M1 M0",
	       "... one START refused, then the cpu row's moves only");
	ok(!strstr(out_text, "offloaded"), "... no offload columns");

	is_int(run(K_NO_FILE, SMALL " --json"), 0, "dma_migrate not loaded: exit status 0");
	has_str(out_text, "\"state\":\"no_file\"", "... JSON: state no_file");
	has_str(out_text, "not run: dma_migrate is not loaded (insmod dma_migrate.ko, after dmacopy.ko)",
		"... the one line in JSON's message");
	is_int(run(K_NO_FILE, SMALL " -p memcpy"), 1,
	       "dma_migrate not loaded, --prep-modes memcpy: exit status 1");
	has_str(err_text, "--prep-modes asks for the offload, and dma_migrate is not loaded: insmod dma_migrate.ko",
		"... saying which module to load");
	ok(!fake.log[0], "... before any move");
	is_int(run(K_NO_IOCTL, SMALL), 0, "a dma_migrate without its sysfs directory: exit status 0");
	has_str(out_text, "# offload: not run: the loaded dma_migrate module has no /sys/kernel/mm/dma_migrate",
		"... one line saying so");
	is_int(run(K_ON, SMALL), 1, "the offload on already: exit status 1");
	has_str(err_text, "dma_migrate's offload is on already (/sys/module/dma_migrate/parameters/offloading is 1)",
		"... saying so and what to write");
	ok(!fake.log[0], "... before any start or move");

	is_int(run(K_NO_SG, SMALL), 0, "no --prep-modes, a kernel without memcpy_sg: exit status 0");
	has_str(out_text, "# not run: prep_memcpy_sg: this kernel lacks its prep call\n",
		"... memcpy_sg left out, a '#' line says why");
	ok(strstr(out_text, "\nprep_memcpy ") && strstr(out_text, "\nprep_memcpy_vec "),
	   "... the other modes' rows");
	is_int(run(K_NO_SG, SMALL " -p memcpy_sg"), 1,
	       "--prep-modes memcpy_sg on that kernel: an error");
	has_str(err_text, "dma_migrate start (offloading=1) (prep mode prep_memcpy_sg) failed: Operation not supported: prep_form: memcpy_sg: this kernel has no DMA_MEMCPY_SG: ",
		"... naming the start, the mode and the module's last_error");
	ok(thp_restored(), "... and the THP controls restored");

	is_int(run(K_HOOK, SMALL " -p cpu"), 0, "--prep-modes cpu: the cpu row alone");
	ok(!strstr(fake.log, "S"), "... no START at all");
	tree_free();
}

static void test_failures(void)
{
	make_tree(2);
	is_int(run_injected(K_HOOK, INJECT, (struct inject){ .wrong_on_move = 3 }),
	       1, "a page on a wrong node after a move: exit status 1");
	has_str(err_text, "run 0, prep_memcpy, to --dst-node 1, page by page: entry 2 (offset 0x2000 in the buffer) is on node 7, not on node 1",
		"... naming the run, the row, the page and the node seen");
	ok(thp_restored(), "... the THP controls restored");
	ok(!out_text[0], "... and no report");

	is_int(run_injected(K_HOOK, INJECT, (struct inject){ .corrupt_on_move = 2 }),
	       1, "a corrupt byte after a move: exit status 1");
	has_str(err_text, "run 0, cpu, back to --src-node 0: the data is corrupt at offset 0x1008 (page 1): read 0x6d69677261747426, wrote 0x6d69677261747526",
		"... naming the move, the offset and the page");
	ok(thp_restored(), "... the THP controls restored");

	is_int(run_injected(K_HOOK, INJECT, (struct inject){ .signal_on_move = 2 }),
	       1, "SIGINT during a move: exit status 1");
	has_str(err_text, "stopped by signal 2 (Interrupt)",
		"... saying so after the move");
	ok(thp_restored(), "... the THP controls restored");
	ok(!shared->started, "... the offload stopped");

	is_int(run(K_HOOK, "--bytes 1G --folio 64K -p memcpy"), 2,
	       "--bytes above the node's free memory: exit status 2");
	has_str(err_text, "invalid --bytes 1GB: more than node 0's free memory (MemFree 800000KB in ",
		"... naming --bytes and the node's free memory");
	is_int(run(K_HOOK, SMALL " --dst-node 3"), 2, "--dst-node 3, no such node: exit status 2");
	has_str(err_text, "invalid --dst-node 3: there is no NUMA node 3", "... saying so");
	ok(!fake.log[0], "... before any start");
	tree_free();

	make_tree(1);
	is_int(run(K_HOOK, SMALL), 2, "one node: exit status 2");
	has_str(err_text, "--dst-node: node 0 is the only NUMA node with memory here",
		"... saying migrate needs two");
	tree_free();

	/* a THP control that cannot be set: exit 2, nothing left changed */
	make_tree(2);
	{
		char path[4096];

		snprintf(path, sizeof(path), "%s" THP_2M, tree_root);
		unlink(path);
		mkdir(path, 0755);
	}
	is_int(run(K_HOOK, SMALL " -p memcpy"), 2, "a THP control that cannot be read: exit status 2");
	has_str(err_text, "--folio-order: cannot read ", "... naming the option and the file");
	is_str(tree_line(THP_DIR "/enabled"), "never",
	       "... the top-level control set before it restored");
	ok(!strstr(fake.log, "M"), "... and nothing moved");
	tree_free();
}

int main(int argc, char **argv)
{
	if (!fake_init(argc, argv))
		return 1;
	test_offload();
	test_no_offload();
	test_failures();
	test_movers();
	return tap_done();
}
