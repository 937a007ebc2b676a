/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The end-to-end host tests' command line: "-m MODE" and words, parsed by
 * the tool's own opts_parse(), as main() would before a run.
 */
#ifndef DMABENCH_TOOL_WORDS_H
#define DMABENCH_TOOL_WORDS_H

#include "options.h"
#include "tap.h"

/*
 * parse_mode_words() - opts_init(@page_size) and opts_parse() of
 * "dma_map_benchmark -m @mode @words" into @o; bails out unless the
 * options are valid (the test means them to be)
 */
static inline void parse_mode_words(struct bench_opts *o, const char *mode,
				    const char *words, long page_size)
{
	char *argv[32] = { "dma_map_benchmark", "-m", (char *)mode };
	char buf[512];
	int argc;

	argc = split_words(buf, sizeof(buf), words, argv, 3,
			   sizeof(argv) / sizeof(argv[0]));
	opts_init(o, page_size);
	if (opts_parse(o, argc, argv, stdout, stderr) != PARSE_RUN) {
		printf("Bail out! the options do not parse: -m %s %s\n", mode,
		       words);
		exit(1);
	}
}

#endif
