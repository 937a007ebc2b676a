/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The option table, shared by the three parts of the command line:
 * options.c (the table, what each option accepts, the names of the enum
 * values), options_parse.c (parsing and validation) and options_help.c
 * (--help and --list-modes). Private to them: the rest of the tool uses
 * options.h.
 */
#ifndef DMABENCH_OPT_TABLE_H
#define DMABENCH_OPT_TABLE_H

#include <stddef.h>

#include "options.h"

enum opt_kind {
	K_INT,		/* integer in [min, max] */
	K_SIZE,		/* byte count with K/M/G/T suffix, in [min, max] */
	K_ORDER,	/* folio order, 0..order of FOLIO_MAX_BYTES */
	K_FOLIO,	/* folio size, a power-of-two multiple of the page */
	K_CHOICE,	/* one of ->choices */
	K_CHOICES,	/* ->choices separated by commas: their values or'ed */
	K_NAME,		/* a channel or device name */
	K_CPUS,		/* a CPU list: 0, 0-3, 0,2,4 */
	K_FLAG,		/* no argument */
	K_ACTION,	/* no argument, prints and exits */
};

enum opt_scope {
	SC_MAP = 1 << 0,	/* -m single, -m sg */
	SC_DMAENGINE = 1 << 1,	/* -m dmaengine */
	SC_MIGRATE = 1 << 2,	/* -m migrate */
	SC_COPY = SC_DMAENGINE | SC_MIGRATE,	/* both copy modes */
	SC_MAP_DMAENGINE = SC_MAP | SC_DMAENGINE,
	SC_ALL = SC_MAP | SC_COPY,
};

struct choice {
	const char *name;
	int value;
};

struct opt_desc {
	const char *name;
	int short_opt;		/* 0: long form only */
	const char *metavar;	/* NULL: takes no argument */
	enum opt_kind kind;
	long long min, max;	/* K_INT, K_SIZE */
	const struct choice *choices;	/* K_CHOICE(S), NULL-terminated */
	const char *accepts;	/* K_CHOICE(S): what to say it accepts */
	enum opt_scope scope;
	const char *def;	/* default, as typed; NULL: none */
	const char *help;
	const char *def_help;	/* --help's default when ->def is NULL */
	size_t off, width;	/* the bench_opts field set; width 0: none */
	int value;		/* K_FLAG: what the field is set to */
	unsigned int flag;	/* DMAENGINE_BENCH_F_* bit set in ->flags */
	/*
	 * upstream's tool checks the value itself (7.3's -m included), or
	 * passes it to the kernel to check (-n): it exits 1 when the value is
	 * invalid, and so does this tool. Other command-line errors exit 2.
	 */
	bool upstream;
};

extern const struct opt_desc opt_table[O_NR];

/* opt_max_order() - the largest --folio-order of @o's page size */
unsigned int opt_max_order(const struct bench_opts *o);
/* opt_accepts() - what option @id accepts, for errors and --help */
void opt_accepts(const struct bench_opts *o, enum opt_id id, char *buf,
		 size_t len);
/* opt_mode_scope() - the scope of @mode: SC_MAP, SC_DMAENGINE or SC_MIGRATE */
enum opt_scope opt_mode_scope(enum bench_mode mode);
/* opts_usage() - the --help text */
void opts_usage(const struct bench_opts *o, FILE *f);
/* opts_list_modes() - the --list-modes object, @o's page size */
void opts_list_modes(const struct bench_opts *o, FILE *f);

#endif
