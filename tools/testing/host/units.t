#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Strict number parsing (parse_int: "abc", "1x", "", overflow refused),
# size parsing (4K, 2M, 1G, 1T, B/iB suffixes; bad suffixes and overflow
# refused), size formatting (4KB, 2MB, 1GB), CPU lists (--cpus: 0, 0-3,
# 0,2,4; malformed, out of range, more than 1024; the online list) and the
# mean/sample-stddev helper.
. "$(dirname "$0")/lib.sh"
build
exec "$HOST_OUT/test_units"
