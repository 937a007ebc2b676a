// SPDX-License-Identifier: GPL-2.0-only
/*
 * The command line parsed by opt_table (opt_table.h): each value checked
 * as it is stored, then what no single option can check alone, mode by
 * mode. Every error is one line naming the option and what it accepts.
 */
#include <ctype.h>
#include <getopt.h>
#include <stdarg.h>
#include <string.h>

#include "opt_table.h"
#include "sysinfo.h"
#include "units.h"

/* Values of getopt_long() for the options without a short form. */
#define LONG_ONLY_BASE	256

static void usage_hint(FILE *err)
{
	fprintf(err, "Try '" PROG_NAME " --help' for more information.\n");
}

/* usage_error() - PROG_NAME ": " and the message, the hint; PARSE_USAGE */
__attribute__((format(printf, 2, 3)))
static enum parse_status usage_error(FILE *err, const char *fmt, ...)
{
	va_list ap;

	fputs(PROG_NAME ": ", err);
	va_start(ap, fmt);
	vfprintf(err, fmt, ap);
	va_end(ap);
	fputc('\n', err);
	usage_hint(err);
	return PARSE_USAGE;
}

static int bad_value(const struct bench_opts *o, enum opt_id id,
		     const char *arg, FILE *err)
{
	char accepts[128];

	if (err) {
		opt_accepts(o, id, accepts, sizeof(accepts));
		fprintf(err, PROG_NAME ": invalid --%s '%s': must be %s\n",
			opt_table[id].name, arg, accepts);
	}
	return -1;
}

/* Case-insensitive, and '-' matches '_': "From-Device" is "from_device". */
static bool choice_matches(const char *name, const char *arg)
{
	for (; *name && *arg; name++, arg++) {
		char a = *arg == '-' ? '_' : tolower((unsigned char)*arg);

		if (a != *name)
			return false;
	}
	return !*name && !*arg;
}

static int parse_choice(const struct choice *c, const char *arg, long long *out)
{
	for (; c->name; c++) {
		if (choice_matches(c->name, arg)) {
			*out = c->value;
			return 0;
		}
	}
	return -1;
}

/* parse_choices() - "a,b": the values of each, or'ed; no empty item */
static int parse_choices(const struct choice *c, const char *arg,
			 long long *out)
{
	char item[64];
	long long v;

	*out = 0;
	do {
		size_t len = strcspn(arg, ",");

		if (!len || len >= sizeof(item))
			return -1;
		memcpy(item, arg, len);
		item[len] = '\0';
		if (parse_choice(c, item, &v))
			return -1;
		*out |= v;
		arg += len;
	} while (*arg++ == ',');
	return 0;
}

/* set_field() - @v into the field of @o that @d names, if any */
static void set_field(struct bench_opts *o, const struct opt_desc *d,
		      long long v)
{
	char *p = (char *)o + d->off;

	if (d->width == sizeof(bool))
		*(bool *)p = v;
	else if (d->width == sizeof(uint32_t))
		*(uint32_t *)p = v;
	else if (d->width == sizeof(uint64_t))
		*(uint64_t *)p = v;
}

/* store() - parse @arg for option @id into @o; -1 after saying why */
static int store(struct bench_opts *o, enum opt_id id, const char *arg,
		 FILE *err)
{
	const struct opt_desc *d = &opt_table[id];
	long long v = 0;	/* what the field is set to */
	uint64_t size;

	switch (d->kind) {
	case K_INT:
		if (parse_int(arg, d->min, d->max, &v))
			return bad_value(o, id, arg, err);
		break;
	case K_SIZE:
		if (parse_size(arg, &size) || size < (uint64_t)d->min ||
		    size > (uint64_t)d->max)
			return bad_value(o, id, arg, err);
		v = size;
		break;
	case K_ORDER:
		if (parse_int(arg, 0, opt_max_order(o), &v))
			return bad_value(o, id, arg, err);
		break;
	case K_FOLIO:
		if (parse_size(arg, &size) || !is_pow2(size) ||
		    size < (uint64_t)o->page_size || size > FOLIO_MAX_BYTES)
			return bad_value(o, id, arg, err);
		v = ilog2_u64(size / (uint64_t)o->page_size);
		break;
	case K_CHOICE:
		if (parse_choice(d->choices, arg, &v))
			return bad_value(o, id, arg, err);
		break;
	case K_CHOICES:
		if (parse_choices(d->choices, arg, &v))
			return bad_value(o, id, arg, err);
		break;
	case K_NAME:
		if (!*arg || strlen(arg) >= DMAENGINE_BENCH_NAME_LEN)
			return bad_value(o, id, arg, err);
		break;
	case K_CPUS:
		v = parse_cpu_list(arg, CPU_MAX, o->cpus, DMA_MAP_MAX_CPUS);
		if (v < 0) {
			o->nr_cpus = 0;
			return bad_value(o, id, arg, err);
		}
		break;
	case K_FLAG:
	case K_ACTION:
		break;
	}

	if (id == O_BUFFERS)	/* the other flags stay */
		v |= o->flags & ~DMAENGINE_BENCH_F_DISTINCT;
	if (d->kind == K_NAME)
		strcpy((char *)o + d->off, arg);
	else
		set_field(o, d, d->kind == K_FLAG ? d->value : v);
	o->flags |= d->flag;
	return 0;
}

void opts_init(struct bench_opts *o, long page_size)
{
	int id;

	memset(o, 0, sizeof(*o));
	o->page_size = page_size;
	o->entry_size = page_size;
	/* no --prep-modes: every mode, those this kernel lacks left out */
	o->prep_modes = DMAENGINE_BENCH_PREP_ALL;
	o->flags = DMAENGINE_BENCH_F_SKIP_MISSING;
	for (id = 0; id < O_NR; id++)
		if (opt_table[id].def)
			store(o, id, opt_table[id].def, NULL);
}

_Static_assert(O_NR <= 64, "bench_opts.given has a bit an option");

static bool given(const struct bench_opts *o, enum opt_id id)
{
	return o->given & (1ULL << id);
}

bool map_mode_given(const struct bench_opts *o)
{
	return given(o, O_MODE);
}

bool map_use_ext(const struct bench_opts *o)
{
	static const enum opt_id ext_only[] = {
		O_ENTRIES, O_ENTRY_SIZE, O_ITERATIONS, O_CPUS, O_DMA_SYNC,
		O_PERCENTILES,
	};
	size_t i;

	if (o->granule > DMA_MAP_MAX_GRANULE)
		return true;
	for (i = 0; i < sizeof(ext_only) / sizeof(ext_only[0]); i++)
		if (given(o, ext_only[i]))
			return true;
	return false;
}

enum opt_scope opt_mode_scope(enum bench_mode mode)
{
	switch (mode) {
	case MODE_DMAENGINE:
		return SC_DMAENGINE;
	case MODE_MIGRATE:
		return SC_MIGRATE;
	default:
		return SC_MAP;
	}
}

/* scope_name() - the modes of @scope, for "--opt applies to ... only" */
static const char *scope_name(enum opt_scope scope)
{
	switch (scope) {
	case SC_DMAENGINE:
		return "-m dmaengine";
	case SC_MIGRATE:
		return "-m migrate";
	case SC_COPY:
		return "-m dmaengine and -m migrate";
	case SC_MAP_DMAENGINE:
		return "the map modes and -m dmaengine";
	default:
		return "the map modes (-m single, -m sg)";
	}
}

/*
 * validate_migrate() - -m migrate: whole folios, two distinct nodes, the
 * offload's prep modes (the nodes' existence and memory are checked when
 * the run starts, against the running system)
 */
static enum parse_status validate_migrate(const struct bench_opts *o,
					  FILE *err)
{
	const char *folio_opt = given(o, O_FOLIO) ? "folio" : "folio-order";
	char bytes[32], folio[32];

	format_size(o->bytes, bytes, sizeof(bytes));
	format_size(folio_bytes(o), folio, sizeof(folio));
	if (o->bytes % folio_bytes(o))
		return usage_error(err, "--bytes %s is not a whole number of --%s %s folios: give a multiple of %s",
				   bytes, folio_opt, folio, folio);
	if (o->src_node >= 0 && o->src_node == o->dst_node)
		return usage_error(err, "--dst-node %d is --src-node's: move_pages() must move the folios to another node",
				   o->dst_node);
	return PARSE_RUN;
}

bool prep_modes_given(const struct bench_opts *o)
{
	return given(o, O_PREP);
}

/* validate() - what no single option can check alone */
static enum parse_status validate(const struct bench_opts *o, FILE *err)
{
	static const enum opt_id same[][2] = {	/* two names of one setting */
		{ O_FOLIO_ORDER, O_FOLIO }, { O_DST_FOLIO_ORDER, O_DST_FOLIO },
		{ O_GRANULE, O_ENTRIES },
	};
	enum opt_scope scope = opt_mode_scope(o->mode);
	const char *dst_opt = given(o, O_DST_FOLIO) ? "dst-folio" :
						      "dst-folio-order";
	uint64_t folio = folio_bytes(o), dst_folio = dst_folio_bytes(o);
	uint64_t batch = (uint64_t)o->sge * folio;
	char batch_s[32], src[32], dst[32];
	size_t i;
	int id;

	for (id = 0; id < O_NR; id++)
		if (given(o, id) && !(opt_table[id].scope & scope))
			return usage_error(err, "--%s applies to %s only",
					   opt_table[id].name,
					   scope_name(opt_table[id].scope));
	if (given(o, O_JSON) && given(o, O_CSV))
		return usage_error(err, "--json and --csv exclude each other");
	for (i = 0; i < sizeof(same) / sizeof(same[0]); i++)
		if (given(o, same[i][0]) && given(o, same[i][1]))
			return usage_error(err, "--%s and --%s set the same thing: give one",
					   opt_table[same[i][0]].name,
					   opt_table[same[i][1]].name);
	if (o->samples && o->format != OUT_JSON)
		return usage_error(err, "--samples needs --json");
	if (o->per_channel && o->format == OUT_CSV)
		return usage_error(err, "--per-channel is not available with --csv: use --json");
	if (o->mode == MODE_MIGRATE)
		return validate_migrate(o, err);
	if (o->mode != MODE_DMAENGINE)
		return PARSE_RUN;
	format_size(batch, batch_s, sizeof(batch_s));
	format_size(folio, src, sizeof(src));
	format_size(dst_folio, dst, sizeof(dst));
	/* a batch must be a whole number of destination folios */
	if (batch % dst_folio)
		return usage_error(err, "--%s: a batch of --sge %u x %s folios (%s) is not a whole number of %s destination folios: give --sge a multiple of %llu, a larger --folio or a smaller --%s",
				   dst_opt, o->sge, src, batch_s, dst,
				   (unsigned long long)(dst_folio / folio),
				   dst_opt);
	if (batch / dst_folio > DMAENGINE_BENCH_MAX_SGE)
		return usage_error(err, "--%s: a batch of --sge %u folios would take %llu destination folios of %s, more than %u: lower --sge or give larger destination folios",
				   dst_opt, o->sge,
				   (unsigned long long)(batch / dst_folio),
				   dst, DMAENGINE_BENCH_MAX_SGE);
	return PARSE_RUN;
}

static enum opt_id id_of_val(int val)
{
	int id;

	if (val >= LONG_ONLY_BASE)
		return val - LONG_ONLY_BASE;
	for (id = 0; id < O_NR; id++)
		if (opt_table[id].short_opt == val)
			return id;
	return O_NR;
}

enum parse_status opts_parse(struct bench_opts *o, int argc, char **argv,
			     FILE *out, FILE *err)
{
	struct option longopts[O_NR + 1];
	char shortopts[2 + 2 * O_NR];
	char *s = shortopts;
	int id, c;

	*s++ = ':';	/* report a missing value as ':' */
	for (id = 0; id < O_NR; id++) {
		const struct opt_desc *d = &opt_table[id];

		longopts[id] = (struct option){
			.name = d->name,
			.has_arg = d->metavar ? required_argument : no_argument,
			.val = d->short_opt ? d->short_opt : LONG_ONLY_BASE + id,
		};
		if (d->short_opt) {
			*s++ = d->short_opt;
			if (d->metavar)
				*s++ = ':';
		}
	}
	*s = '\0';
	memset(&longopts[O_NR], 0, sizeof(longopts[O_NR]));

	optind = 0;	/* start over, also when called again (tests) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (c == '?' && optopt && optopt < LONG_ONLY_BASE &&
		    id_of_val(optopt) == O_NR)
			return usage_error(err, "unknown option '-%c'", optopt);
		if (c == '?')
			return usage_error(err, "unknown or ambiguous option '%s'",
					   argv[optind - 1]);
		id = id_of_val(c == ':' ? optopt : c);
		if (id >= O_NR)
			return usage_error(err, "unknown option");
		if (c == ':') {
			char accepts[128];

			opt_accepts(o, id, accepts, sizeof(accepts));
			return usage_error(err, "--%s needs a value: %s",
					   opt_table[id].name, accepts);
		}
		if (id == O_HELP) {
			opts_usage(o, out);
			return PARSE_DONE;
		}
		if (id == O_VERSION) {
			fprintf(out, PROG_NAME " %s\n", tool_version);
			return PARSE_DONE;
		}
		if (id == O_LIST_MODES) {
			opts_list_modes(o, out);
			return PARSE_DONE;
		}
		if (id == O_SYSTEM) {
			report_system_json(out, "");
			return PARSE_DONE;
		}
		if (store(o, id, optarg, err)) {
			usage_hint(err);
			return opt_table[id].upstream ? PARSE_INVALID : PARSE_USAGE;
		}
		o->given |= 1ULL << id;
		if (id == O_PREP)	/* the modes named must all run */
			o->flags &= ~DMAENGINE_BENCH_F_SKIP_MISSING;
	}
	if (optind < argc)
		return usage_error(err, "unexpected argument '%s'",
				   argv[optind]);
	/* a run of N iterations may take up to the kernel's limit */
	if (o->iterations && !given(o, O_SECONDS))
		o->seconds = DMA_MAP_MAX_SECONDS;
	return validate(o, err);
}
