#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The command line, through opts_parse(): upstream's defaults; every
# option's valid values in short, long and --opt=value forms; invalid values
# ("0", out of range, "abc", "1x", "", overflow...) each refused with
# "invalid --opt 'value': must be RANGE" (exit status 2 in main); modes and
# directions by name and number; --folio/--folio-order equivalence (4K and 64K
# pages) and non-power-of-two folios; options of the other mode; conflicts;
# unknown options, missing values; --help and --version; the ioctl request
# structures filled from the options. The extended map options (--entries,
# -g above 1024, --entry-size, --iterations, --cpus, --sync, --percentiles),
# when they need DMA_MAP_BENCHMARK_EXT, and struct map_benchmark_ext.
#
# Then dmaengine_run() end to end against a made-up kernel
# (test_dmaengine_run.c: its own open() and ioctl()): the version 2
# request, a module older than the tool answered with a version 1 request
# when the options allow it (and its samples read), refused naming the
# options when they do not, ENOTTY.
. "$(dirname "$0")/lib.sh"
build
run_c_tests "$HOST_OUT/test_options"
run_c_tests "$HOST_OUT/test_dmaengine_run"
tap_end
