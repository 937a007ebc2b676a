/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Minimal TAP producer for the host unit tests: "ok N - desc" or
 * "not ok N - desc" with the difference as "#" diagnostics, and the plan
 * at the end ("1..N"), unless the test runs with --no-plan because its .t
 * script adds tests of its own and prints the plan itself.
 */
#ifndef DMABENCH_TAP_H
#define DMABENCH_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_count, tap_failures;
static bool tap_plan = true;

static inline void tap_init(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--no-plan"))
		tap_plan = false;
	setvbuf(stdout, NULL, _IOLBF, 0);
}

static inline bool tap_vok(bool cond, const char *fmt, va_list ap)
{
	tap_count++;
	if (!cond)
		tap_failures++;
	printf("%sok %d - ", cond ? "" : "not ", tap_count);
	vprintf(fmt, ap);
	putchar('\n');
	return cond;
}

__attribute__((format(printf, 2, 3)))
static inline bool ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cond = tap_vok(cond, fmt, ap);
	va_end(ap);
	return cond;
}

/* tap_diag_text() - @text as "# " lines, with visible line ends */
static inline void tap_diag_text(const char *label, const char *text)
{
	printf("# %s:\n", label);
	if (!text) {
		printf("#   (null)\n");
		return;
	}
	while (*text) {
		size_t len = strcspn(text, "\n");

		printf("#   |%.*s|%s\n", (int)len, text,
		       text[len] == '\n' ? "\\n" : "");
		text += len + (text[len] == '\n');
	}
}

__attribute__((format(printf, 3, 4)))
static inline bool is_str(const char *got, const char *want,
			  const char *fmt, ...)
{
	bool cond = got && want && !strcmp(got, want);
	va_list ap;

	va_start(ap, fmt);
	tap_vok(cond, fmt, ap);
	va_end(ap);
	if (!cond) {
		tap_diag_text("want", want);
		tap_diag_text("got", got);
	}
	return cond;
}

__attribute__((format(printf, 3, 4)))
static inline bool has_str(const char *got, const char *needle,
			   const char *fmt, ...)
{
	bool cond = got && needle && strstr(got, needle);
	va_list ap;

	va_start(ap, fmt);
	tap_vok(cond, fmt, ap);
	va_end(ap);
	if (!cond) {
		tap_diag_text("want a substring", needle);
		tap_diag_text("got", got);
	}
	return cond;
}

__attribute__((format(printf, 3, 4)))
static inline bool is_int(long long got, long long want, const char *fmt, ...)
{
	bool cond = got == want;
	va_list ap;

	va_start(ap, fmt);
	tap_vok(cond, fmt, ap);
	va_end(ap);
	if (!cond)
		printf("#   want %lld, got %lld\n", want, got);
	return cond;
}

static inline int tap_done(void)
{
	if (tap_plan)
		printf("1..%d\n", tap_count);
	return tap_failures ? 1 : 0;
}

/* Capturing what a function prints to a FILE *. */
struct capture {
	FILE *f;
	char *buf;
	size_t len;
};

static inline FILE *capture_begin(struct capture *c)
{
	free(c->buf);
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	if (!c->f) {
		printf("Bail out! open_memstream failed\n");
		exit(1);
	}
	return c->f;
}

/* capture_end() - the text printed since capture_begin(), NUL-terminated */
static inline const char *capture_end(struct capture *c)
{
	fclose(c->f);
	c->f = NULL;
	return c->buf;
}

static inline void capture_free(struct capture *c)
{
	free(c->buf);
	c->buf = NULL;
}

#endif
