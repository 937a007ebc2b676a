#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Runtime error messages and why opening debugfs failed (test_diag.c, whose
# top says what it checks).
. "$(dirname "$0")/lib.sh"
build
exec "$HOST_OUT/test_diag"
