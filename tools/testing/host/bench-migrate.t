#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/bench.sh -g's refusals, which come before anything is built or
# booted: a machine whose kernel has no migration copy-offload hook
# (Debian's, the stock one), the 32-bit arm one (no NUMA: no second
# node), nocopy on a board whose engine copies, a machine that does not
# exist. Each message says how to get what is missing.
. "$(dirname "$0")/lib.sh"

check_output "-g on Debian's kernel: no hook, and which machines have one" \
	'machine arm64-zcu102 boots a debian-foreign kernel, which has no migration copy-offload hook .*use -m x86-bench \(soft_dma\) or -m arm64-zcu102-73 \(ZDMA\)' \
	sh -c "! '$TOP/scripts/bench.sh' -g -m arm64-zcu102 2>&1"
check_output "-g on the stock x86 kernel: no hook" \
	'machine x86 boots a stock kernel, which has no migration copy-offload hook' \
	sh -c "! '$TOP/scripts/bench.sh' -g -m x86 2>&1"
check_output "-g on the 32-bit arm kernel: no second node, and how to get one" \
	"machine arm-exynos4210-73's 32-bit arm kernel has no NUMA, so no second node .*numa=fake=2" \
	sh -c "! '$TOP/scripts/bench.sh' -g -m arm-exynos4210-73 2>&1"
check_output "-g -n on a board: its engine copies, nocopy is soft_dma's" \
	"-g -n: machine arm64-zcu102-73's engine \(xilinx-zynqmp-dma\) copies; nocopy is soft_dma's" \
	sh -c "! '$TOP/scripts/bench.sh' -g -n -m arm64-zcu102-73 2>&1"
check_output "a machine that does not exist" 'no machine nosuch' \
	sh -c "! '$TOP/scripts/bench.sh' -g -m nosuch 2>&1"

tap_end
