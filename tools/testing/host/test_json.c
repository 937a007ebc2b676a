// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON writer: commas and nesting, numbers (non-finite ones as null),
 * and string escaping: quotes, backslashes, control characters, valid
 * UTF-8 kept, invalid UTF-8 replaced by U+FFFD, strings without a NUL
 * within their buffer. With TEST_OUT_DIR set, writes escape.json for
 * json.t to decode with python3 and compare with the expected strings.
 */
#include <math.h>
#include <stdint.h>

#include "json.h"
#include "tap.h"

static struct capture cap;

static void test_structure(void)
{
	struct json j;

	json_init(&j, capture_begin(&cap));
	json_object_begin(&j);
	json_key(&j, "a");
	json_array_begin(&j);
	json_int(&j, 1);
	json_int(&j, -2);
	json_object_begin(&j);
	json_key_string_or_null(&j, "b", NULL);
	json_object_end(&j);
	json_array_end(&j);
	json_key_bool(&j, "c", true);
	json_key_string(&j, "d", "x");
	json_key(&j, "e");
	json_object_begin(&j);
	json_object_end(&j);
	json_key(&j, "f");
	json_array_begin(&j);
	json_array_end(&j);
	json_key_uint(&j, "g", UINT64_MAX);
	json_key(&j, "h");
	json_double(&j, 1.5, 2);
	json_key(&j, "i");
	json_double(&j, NAN, 2);
	json_key(&j, "k");
	json_double(&j, INFINITY, 2);
	json_key_bool(&j, "l", false);
	json_key_mean_stddev(&j, "m", 1.25, 0.5, 3);
	json_key_int(&j, "n", INT64_MIN);
	json_object_end(&j);
	is_str(capture_end(&cap),
	       "{\"a\":[1,-2,{\"b\":null}],\"c\":true,\"d\":\"x\",\"e\":{},\"f\":[],"
	       "\"g\":18446744073709551615,\"h\":1.50,\"i\":null,\"k\":null,"
	       "\"l\":false,\"m\":{\"mean\":1.250,\"stddev\":0.500},"
	       "\"n\":-9223372036854775808}",
	       "nesting, commas, every value type, NaN and infinity as null");

	json_init(&j, capture_begin(&cap));
	json_array_begin(&j);
	json_array_begin(&j);
	json_array_end(&j);
	json_array_begin(&j);
	json_int(&j, 0);
	json_array_end(&j);
	json_array_end(&j);
	is_str(capture_end(&cap), "[[],[0]]", "arrays of arrays");
}

static const struct {
	const char *key;
	const char *in;
	size_t len;		/* 0: strlen(in) */
	const char *out;	/* inside the quotes */
} escapes[] = {
	{ "plain", "dma0chan0", 0, "dma0chan0" },
	{ "quote", "a\"b", 0, "a\\\"b" },
	{ "backslash", "a\\b", 0, "a\\\\b" },
	{ "slash", "a/b", 0, "a/b" },
	{ "named", "\b\f\n\r\t", 0, "\\b\\f\\n\\r\\t" },
	{ "control", "\x01\x1f\x7f", 0, "\\u0001\\u001f\\u007f" },
	{ "utf8", "\xc3\xa9\xc2\xb1\xe2\x82\xac\xf0\x9f\x98\x80", 0,
	  "\xc3\xa9\xc2\xb1\xe2\x82\xac\xf0\x9f\x98\x80" },
	{ "bad_byte", "a\xff" "b", 0, "a\\ufffdb" },
	{ "truncated", "a\xc3", 0, "a\\ufffd" },
	{ "overlong", "\xc0\xaf", 0, "\\ufffd\\ufffd" },
	{ "overlong3", "\xe0\x80\xaf", 0, "\\ufffd\\ufffd\\ufffd" },
	{ "surrogate", "\xed\xa0\x80", 0, "\\ufffd\\ufffd\\ufffd" },
	{ "too_big", "\xf4\x90\x80\x80", 0, "\\ufffd\\ufffd\\ufffd\\ufffd" },
	{ "lone_continuation", "\x80x", 0, "\\ufffdx" },
	{ "max_code_point", "\xf4\x8f\xbf\xbf", 0, "\xf4\x8f\xbf\xbf" },
	{ "no_nul", "abcdefgh", 4, "abcd" },
	{ "empty", "", 0, "" },
};

/* escape() - escapes[@i] as a JSON string: json_string_n() or json_string() */
static void escape(struct json *j, size_t i)
{
	const char *in = escapes[i].in;

	if (escapes[i].len)
		json_string_n(j, in, escapes[i].len);
	else
		json_string(j, in);
}

static void test_escapes(void)
{
	char want[256];
	struct json j;
	size_t i;

	for (i = 0; i < sizeof(escapes) / sizeof(escapes[0]); i++) {
		json_init(&j, capture_begin(&cap));
		escape(&j, i);
		snprintf(want, sizeof(want), "\"%s\"", escapes[i].out);
		is_str(capture_end(&cap), want, "escaping: %s", escapes[i].key);
	}

	json_init(&j, capture_begin(&cap));
	json_object_begin(&j);
	json_key(&j, "k\"\n");
	json_int(&j, 1);
	json_object_end(&j);
	is_str(capture_end(&cap), "{\"k\\\"\\n\":1}", "keys are escaped too");

	/* escape.json, for json.t */
	json_init(&j, capture_begin(&cap));
	json_object_begin(&j);
	for (i = 0; i < sizeof(escapes) / sizeof(escapes[0]); i++) {
		json_key(&j, escapes[i].key);
		escape(&j, i);
	}
	json_object_end(&j);
	fputc('\n', cap.f);
	tap_out_file("escape.json", capture_end(&cap));
}

int main(int argc, char **argv)
{
	tap_init(argc, argv);
	test_structure();
	test_escapes();
	capture_free(&cap);
	return tap_done();
}
