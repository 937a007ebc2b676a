#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The migrate mode: its parts that need no kernel (test_migrate.c), then
# migrate_run_in() end to end against a made-up kernel and sysfs tree
# (test_migrate_run.c); the top of each says what it checks.
. "$(dirname "$0")/lib.sh"
build
run_c_tests "$HOST_OUT/test_migrate"
run_c_tests "$HOST_OUT/test_migrate_run"
tap_end
