/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The command-line tests' helpers (test_options.c, test_options_map.c,
 * test_options_dmaengine.c): opts_parse() of an argv or of words, with
 * what it prints captured, at 4K or 64K pages; the status a bad value of
 * an option gives; the prep mode bits by short names.
 */
#ifndef DMABENCH_OPTIONS_FIXTURE_H
#define DMABENCH_OPTIONS_FIXTURE_H

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>

#include "dmaengine.h"
#include "map_modes.h"
#include "options.h"
#include "sysinfo.h"
#include "tap.h"

#define MAX_ARGS	32
#define HINT		"Try 'dma_map_benchmark --help' for more information.\n"

static char out_text[65536], err_text[4096];

/* parse_argv() - opts_parse() of @argv, what it prints in out_text, err_text */
static inline enum parse_status
parse_argv(struct bench_opts *o, long page_size, int argc, char **argv)
{
	struct capture out = { 0 }, err = { 0 };
	enum parse_status st;

	opts_init(o, page_size);
	st = opts_parse(o, argc, argv, capture_begin(&out), capture_begin(&err));
	snprintf(out_text, sizeof(out_text), "%s", capture_end(&out));
	snprintf(err_text, sizeof(err_text), "%s", capture_end(&err));
	capture_free(&out);
	capture_free(&err);
	return st;
}

/* parse_page() - parse the NULL-terminated arguments with @page_size pages */
static inline enum parse_status
parse_page(struct bench_opts *o, long page_size, const char *first, ...)
{
	char *argv[MAX_ARGS + 2] = { "dma_map_benchmark" };
	const char *a = first;
	int argc = 1;
	va_list ap;

	va_start(ap, first);
	for (; a && argc <= MAX_ARGS; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	return parse_argv(o, page_size, argc, argv);
}

/* words_page() - parse the command line @words, split at its spaces */
static inline enum parse_status
words_page(struct bench_opts *o, long page_size, const char *words)
{
	char buf[1024], *argv[MAX_ARGS + 2] = { "dma_map_benchmark" };
	int argc = split_words(buf, sizeof(buf), words, argv, 1,
			       sizeof(argv) / sizeof(argv[0]));

	return parse_argv(o, page_size, argc, argv);
}

/*
 * parse(), parse64k() - parse_page() with 4K and 64K pages; cmdline(),
 * cmdline64k() - words_page() with 4K and 64K pages
 */
#define parse(o, ...)		parse_page(o, 4096, __VA_ARGS__)
#define parse64k(o, ...)	parse_page(o, 65536, __VA_ARGS__)
#define cmdline(o, words)	words_page(o, 4096, words)
#define cmdline64k(o, words)	words_page(o, 65536, words)

/*
 * Upstream's tool exits 1 on a bad value of its own options (the sg
 * series' --mode included, and --node, which its kernel refuses).
 */
static inline enum parse_status bad_status(const char *name)
{
	static const char *const upstream[] = {
		"mode", "threads", "seconds", "node", "dma-bits", "dma-dir",
		"dma-trans-ns", "granule",
	};
	size_t i;

	for (i = 0; i < sizeof(upstream) / sizeof(upstream[0]); i++)
		if (!strcmp(name, upstream[i]))
			return PARSE_INVALID;
	return PARSE_USAGE;
}

#define MEMCPY		DMAENGINE_BENCH_PREP_MEMCPY
#define SG		DMAENGINE_BENCH_PREP_MEMCPY_SG
#define VEC		DMAENGINE_BENCH_PREP_MEMCPY_VEC
#define CPU		DMAENGINE_BENCH_PREP_CPU
#define PREP_BOTH	(MEMCPY | SG)

#endif
