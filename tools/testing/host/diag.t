#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Runtime error messages (test_diag.c): one for each enum
# dmaengine_bench_error value (and errno-only failures), naming channel,
# run and prep mode; DMA_MAP_BENCHMARK and DMA_MAP_BENCHMARK_EXT errno
# messages (ENOTTY: a module without the extended interface); why opening
# debugfs failed, diagnosed on made-up /proc/mounts and /sys trees, and the
# commands printed for each case (mount, insmod, binding a device); --cpus
# checked against a made-up online CPU list.
. "$(dirname "$0")/lib.sh"
build
exec "$HOST_OUT/test_diag"
