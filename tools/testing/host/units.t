#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Parsing and formatting numbers, sizes and CPU lists, and the stats helper
# (test_units.c, whose top says what it checks).
. "$(dirname "$0")/lib.sh"
build
exec "$HOST_OUT/test_units"
