#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The JSON writer (test_json.c, whose top says what it checks); then python3
# decodes its escape.json: each string decodes to what went in (invalid
# UTF-8 bytes becoming U+FFFD).
. "$(dirname "$0")/lib.sh"
build
out_dir

run_c_tests "$HOST_OUT/test_json"

need python3
run_py_tests "$TEST_OUT_DIR/escape.json" <<'PY'
import json, sys
from pytap import check, done


d = {}
def parse():
    d.update(json.load(open(sys.argv[1], encoding="utf-8")))
check("escape.json is valid JSON (python3 json)", parse)

want = {
    "plain": "dma0chan0", "quote": 'a"b', "backslash": "a\\b", "slash": "a/b",
    "named": "\b\f\n\r\t", "control": "\x01\x1f\x7f",
    "utf8": "\u00e9\u00b1\u20ac\U0001F600", "bad_byte": "a\ufffdb",
    "truncated": "a\ufffd", "overlong": "\ufffd" * 2,
    "overlong3": "\ufffd" * 3, "surrogate": "\ufffd" * 3,
    "too_big": "\ufffd" * 4, "lone_continuation": "\ufffdx",
    "max_code_point": "\U0010FFFF", "no_nul": "abcd", "empty": "",
}
def same_keys():
    assert set(d) == set(want), sorted(set(d) ^ set(want))
check("escape.json has every case", same_keys)
for k, v in want.items():
    def decoded(k=k, v=v):
        assert d.get(k) == v, (d.get(k), v)
    check("'%s' decodes to the original string" % k, decoded)
done()
PY
tap_end
