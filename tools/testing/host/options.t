#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The command line through opts_parse() and the ioctl requests filled from
# it (test_options.c, test_options_map.c, test_options_dmaengine.c), then
# dmaengine_run() end to end against a made-up kernel
# (test_dmaengine_run.c); the top of each says what it checks.
. "$(dirname "$0")/lib.sh"
build
run_c_tests "$HOST_OUT/test_options"
run_c_tests "$HOST_OUT/test_options_map"
run_c_tests "$HOST_OUT/test_options_dmaengine"
run_c_tests "$HOST_OUT/test_dmaengine_run"
tap_end
