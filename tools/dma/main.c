// SPDX-License-Identifier: GPL-2.0-only
/*
 * dma_map_benchmark: the kernel's DMA map benchmark tool (single and sg
 * modes, as tools/testing/selftests/dma/dma_map_benchmark.c) plus the
 * dmaengine memcpy vs memcpy_sg mode, and the migrate mode (move_pages()
 * with and without the dmaengine copy offload).
 *
 * Exit status: 0 success, 1 runtime error or an invalid value of an option
 * upstream's tool has (as upstream's tool exits), 2 any other invalid
 * command line.
 */
#include <unistd.h>

#include "dmaengine.h"
#include "map_modes.h"
#include "migrate.h"
#include "options.h"
#include "sysinfo.h"

int main(int argc, char **argv)
{
	struct report_ctx ctx = { .version = tool_version };
	long page_size = sysconf(_SC_PAGESIZE);
	struct bench_opts o;
	int ret;

	opts_init(&o, page_size > 0 ? page_size : 4096);
	switch (opts_parse(&o, argc, argv, stdout, stderr)) {
	case PARSE_DONE:
		return fflush(stdout) ? 1 : 0;
	case PARSE_USAGE:
		return 2;
	case PARSE_INVALID:
		return 1;
	case PARSE_RUN:
		break;
	}
	if (o.dry_run) {	/* -m dmaengine only */
		dmaengine_dry_run(stdout, &o);
		return fflush(stdout) ? 1 : 0;
	}
	ctx.kernel = kernel_release();
	if (o.mode == MODE_DMAENGINE)
		ret = dmaengine_run(&o, &ctx);
	else if (o.mode == MODE_MIGRATE)
		ret = migrate_run(&o, &ctx);
	else
		ret = map_run(&o, &ctx);
	if (fflush(stdout) || ferror(stdout)) {
		perror(PROG_NAME ": writing the report");
		ret = 1;
	}
	return ret;
}
