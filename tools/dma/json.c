// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <string.h>

#include "json.h"

void json_init(struct json *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
}

/* before_value() - the comma before a value that is not a member's */
static void before_value(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->has_items[j->depth])
		fputc(',', j->f);
	j->has_items[j->depth] = true;
}

static void open_container(struct json *j, char c)
{
	before_value(j);
	fputc(c, j->f);
	if (j->depth < JSON_MAX_DEPTH - 1)
		j->depth++;
	j->has_items[j->depth] = false;
}

static void close_container(struct json *j, char c)
{
	fputc(c, j->f);
	if (j->depth > 0)
		j->depth--;
}

void json_object_begin(struct json *j)
{
	open_container(j, '{');
}

void json_object_end(struct json *j)
{
	close_container(j, '}');
}

void json_array_begin(struct json *j)
{
	open_container(j, '[');
}

void json_array_end(struct json *j)
{
	close_container(j, ']');
}

/* utf8_len() - length of the valid UTF-8 sequence at @s, 0 if invalid */
static size_t utf8_len(const unsigned char *s, size_t len)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;		/* overlong */
	else if (s[0] == 0xed)
		hi = 0x9f;		/* UTF-16 surrogates */
	else if (s[0] == 0xf0)
		lo = 0x90;		/* overlong */
	else if (s[0] == 0xf4)
		hi = 0x8f;		/* above U+10FFFF */
	if (n > len)
		return 0;
	for (i = 1; i < n; i++) {
		if (s[i] < lo || s[i] > hi)
			return 0;
		lo = 0x80;
		hi = 0xbf;
	}
	return n;
}

/*
 * json_escape() - @len bytes of @str as the inside of a JSON string: '"', '\'
 * and control characters escaped, valid UTF-8 kept, each byte of invalid
 * UTF-8 replaced by U+FFFD.
 */
static void json_escape(FILE *f, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, n;

	while (i < len) {
		unsigned char c = s[i];

		switch (c) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fprintf(f, "\\u%04x", c);
			} else if ((n = utf8_len(s + i, len - i)) == 0) {
				fputs("\\ufffd", f);
			} else {
				fwrite(s + i, 1, n, f);
				i += n;
				continue;
			}
		}
		i++;
	}
}

void json_key(struct json *j, const char *key)
{
	before_value(j);
	fputc('"', j->f);
	json_escape(j->f, key, strlen(key));
	fputs("\":", j->f);
	j->after_key = true;
}

void json_string_n(struct json *j, const char *s, size_t maxlen)
{
	before_value(j);
	fputc('"', j->f);
	json_escape(j->f, s, strnlen(s, maxlen));
	fputc('"', j->f);
}

void json_string(struct json *j, const char *s)
{
	json_string_n(j, s, strlen(s));
}

void json_int(struct json *j, long long v)
{
	before_value(j);
	fprintf(j->f, "%lld", v);
}

void json_uint(struct json *j, unsigned long long v)
{
	before_value(j);
	fprintf(j->f, "%llu", v);
}

void json_double(struct json *j, double v, int decimals)
{
	before_value(j);
	if (isfinite(v))
		fprintf(j->f, "%.*f", decimals, v);
	else
		fputs("null", j->f);
}

void json_bool(struct json *j, bool v)
{
	before_value(j);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j)
{
	before_value(j);
	fputs("null", j->f);
}

void json_key_string(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_string(j, s);
}

void json_key_uint(struct json *j, const char *key, unsigned long long v)
{
	json_key(j, key);
	json_uint(j, v);
}

void json_key_int(struct json *j, const char *key, long long v)
{
	json_key(j, key);
	json_int(j, v);
}

void json_key_bool(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	json_bool(j, v);
}

void json_key_string_or_null(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	if (s)
		json_string(j, s);
	else
		json_null(j);
}

void json_key_uint_or_null(struct json *j, const char *key,
			   unsigned long long v, bool known)
{
	json_key(j, key);
	if (known)
		json_uint(j, v);
	else
		json_null(j);
}

void json_key_mean_stddev(struct json *j, const char *key, double mean,
			  double stddev, int decimals)
{
	json_key(j, key);
	json_object_begin(j);
	json_key(j, "mean");
	json_double(j, mean, decimals);
	json_key(j, "stddev");
	json_double(j, stddev, decimals);
	json_object_end(j);
}
