/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small streaming JSON writer: compact output, commas and escaping done
 * here, so callers only say what comes next.
 */
#ifndef DMABENCH_JSON_H
#define DMABENCH_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define JSON_MAX_DEPTH	16

struct json {
	FILE *f;
	int depth;
	bool has_items[JSON_MAX_DEPTH];	/* a value was written at this depth */
	bool after_key;			/* the next value completes a member */
};

void json_init(struct json *j, FILE *f);

void json_object_begin(struct json *j);
void json_object_end(struct json *j);
void json_array_begin(struct json *j);
void json_array_end(struct json *j);

/* json_key() - the name of the next object member */
void json_key(struct json *j, const char *key);

void json_string(struct json *j, const char *s);
/* json_string_n() - at most @maxlen bytes of @s, which need no NUL */
void json_string_n(struct json *j, const char *s, size_t maxlen);
void json_int(struct json *j, long long v);
void json_uint(struct json *j, unsigned long long v);
/* json_double() - @v with @decimals decimals; null when not finite */
void json_double(struct json *j, double v, int decimals);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);

/* json_key_uint(), json_key_int(), json_key_bool() - member @key: @v */
void json_key_string(struct json *j, const char *key, const char *s);
void json_key_uint(struct json *j, const char *key, unsigned long long v);
void json_key_int(struct json *j, const char *key, long long v);
void json_key_bool(struct json *j, const char *key, bool v);
/* json_key_string_or_null() - member @key: @s, or null when @s is NULL */
void json_key_string_or_null(struct json *j, const char *key, const char *s);
/* json_key_uint_or_null() - member @key: @v, or null when !@known */
void json_key_uint_or_null(struct json *j, const char *key,
			   unsigned long long v, bool known);

/* json_key_mean_stddev() - member @key: {"mean":@mean,"stddev":@stddev} */
void json_key_mean_stddev(struct json *j, const char *key, double mean,
			  double stddev, int decimals);

#endif
