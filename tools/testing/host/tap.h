/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Minimal TAP producer for the host unit tests: "ok N - desc" or
 * "not ok N - desc" with the difference as "#" diagnostics, and the plan
 * at the end ("1..N"), unless the test runs with --no-plan because its .t
 * script adds tests of its own and prints the plan itself. And what the
 * tests share around it: capturing a FILE *, files for the .t script,
 * command lines written as words, made-up /proc and /sys trees.
 */
#ifndef DMABENCH_TAP_H
#define DMABENCH_TAP_H

#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int tap_count, tap_failures;

/*
 * tap_open_through() - what a test's fake open() does with a path it does
 * not fake: the real open, the mode read from @ap when O_CREAT asks for it
 */
static inline int tap_open_through(const char *path, int flags, va_list ap)
{
	mode_t mode = 0;

	if (flags & O_CREAT)
		mode = va_arg(ap, mode_t);
	return openat(AT_FDCWD, path, flags, mode);
}
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

/* TAP_VOK() - tap_vok(@cond) of the variadic function's @fmt and arguments */
#define TAP_VOK(cond, fmt) do { \
		va_list ap; \
		va_start(ap, fmt); \
		tap_vok(cond, fmt, ap); \
		va_end(ap); \
	} while (0)

__attribute__((format(printf, 2, 3)))
static inline bool ok(bool cond, const char *fmt, ...)
{
	TAP_VOK(cond, fmt);
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

	TAP_VOK(cond, fmt);
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

	TAP_VOK(cond, fmt);
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

	TAP_VOK(cond, fmt);
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

/* CAPTURE() - what @fn(FILE *, ...) prints, captured in @c */
#define CAPTURE(c, fn, ...) \
	(fn(capture_begin(c), __VA_ARGS__), capture_end(c))

static inline void capture_free(struct capture *c)
{
	free(c->buf);
	c->buf = NULL;
}

/* tap_out_file() - @text as $TEST_OUT_DIR/@name, for the .t script; none
 * without TEST_OUT_DIR */
static inline void tap_out_file(const char *name, const char *text)
{
	const char *dir = getenv("TEST_OUT_DIR");
	char path[4096];
	FILE *f;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		printf("Bail out! cannot write %s\n", path);
		exit(1);
	}
}

/*
 * split_words() - @words, split at its spaces, as @argv[@argc] on: a copy
 * in @buf (@len bytes) holds them; @nargv is @argv's size, the last entry
 * used is NULL. The new argc.
 */
static inline int split_words(char *buf, size_t len, const char *words,
			      char **argv, int argc, int nargv)
{
	char *w;

	snprintf(buf, len, "%s", words);
	for (w = strtok(buf, " "); w && argc < nargv - 1; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	return argc;
}

/*
 * Capturing what a function prints to stdout and stderr themselves (the
 * file descriptors, so also what it writes with perror()):
 * std_capture_begin(), the call, std_capture_end() with buffers for each.
 */
struct std_capture {
	FILE *out, *err;
	int save_out, save_err;
};

static inline void std_capture_begin(struct std_capture *c)
{
	c->out = tmpfile();
	c->err = tmpfile();
	if (!c->out || !c->err) {
		printf("Bail out! tmpfile failed\n");
		exit(1);
	}
	fflush(stdout);
	fflush(stderr);
	c->save_out = dup(STDOUT_FILENO);
	c->save_err = dup(STDERR_FILENO);
	dup2(fileno(c->out), STDOUT_FILENO);
	dup2(fileno(c->err), STDERR_FILENO);
}

static inline void std_capture_read(FILE *f, char *buf, size_t len)
{
	size_t n;

	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static inline void std_capture_end(struct std_capture *c, char *out,
				   size_t out_len, char *err, size_t err_len)
{
	fflush(stdout);
	fflush(stderr);
	dup2(c->save_out, STDOUT_FILENO);
	dup2(c->save_err, STDERR_FILENO);
	close(c->save_out);
	close(c->save_err);
	std_capture_read(c->out, out, out_len);
	std_capture_read(c->err, err, err_len);
}

/*
 * A made-up tree (/proc, /sys, ...) for code that reads its files under a
 * root: tree_new() makes a fresh, empty one at tree_root (removing the last
 * one), tree_mkdir() and tree_write() fill it (parents made as needed),
 * tree_free() removes it.
 */
static char tree_root[64];

static inline void tree_mkdir(const char *path)
{
	char buf[4096], *p;

	snprintf(buf, sizeof(buf), "%s%s", tree_root, path);
	for (p = buf + strlen(tree_root) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(buf, 0755);
		*p = '/';
	}
	mkdir(buf, 0755);
}

/* tree_write_n() - @len bytes of @text (NULs too) as the file @path */
static inline void tree_write_n(const char *path, const char *text,
				size_t len)
{
	char buf[4096];
	FILE *f;

	snprintf(buf, sizeof(buf), "%s%s", tree_root, path);
	*strrchr(buf, '/') = '\0';
	tree_mkdir(buf + strlen(tree_root));
	snprintf(buf, sizeof(buf), "%s%s", tree_root, path);
	f = fopen(buf, "w");
	if (!f || fwrite(text, 1, len, f) != len || fclose(f)) {
		printf("Bail out! cannot write %s\n", buf);
		exit(1);
	}
}

static inline void tree_write(const char *path, const char *text)
{
	tree_write_n(path, text, strlen(text));
}

/* tree_read_line() - the first line of the file @path, "" if none */
static inline const char *tree_read_line(const char *path)
{
	static char line[256];
	char buf[4096];
	FILE *f;

	snprintf(buf, sizeof(buf), "%s%s", tree_root, path);
	line[0] = '\0';
	f = fopen(buf, "r");
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	return line;
}

static inline int tree_rm_entry(const char *path, const struct stat *st,
				int flag, struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(path);
}

static inline void tree_free(void)
{
	if (tree_root[0])
		nftw(tree_root, tree_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static inline void tree_new(void)
{
	tree_free();
	strcpy(tree_root, "/tmp/dmabench-tree-XXXXXX");
	if (!mkdtemp(tree_root)) {
		printf("Bail out! mkdtemp failed\n");
		exit(1);
	}
}

#endif
