#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The guest side of scripts/bench-hook-off.sh (busybox sh, in the test VM,
# booted with numa=fake=2):
#   sh tests/bench/hookoff.sh BYTES RUNS WARMUP ORDER...
# prints "KERNEL release version", "HOOK yes|no" (whether the kernel has
# the page-migration copy-offload hook: its /sys/kernel/mm/
# migrate_copy_offload/, which CONFIG_MIGRATION_COPY_OFFLOAD brings), then
# "JSON order {...}" per folio order as each ends: the tool's -m migrate
# JSON on one line. No module is loaded and the tool runs its cpu row only
# (--prep-modes cpu: the offload is not asked for): move_pages() of BYTES
# of anonymous memory node 0 -> node 1 and back, copied by the CPU, RUNS
# timed runs after WARMUP untimed ones.

. "$PROJECT/tests/lib.sh"
bytes=$1
runs=$2
warmup=$3
shift 3

if [ ! -d /sys/devices/system/node/node1 ]; then
	echo "hookoff: this VM has one NUMA node; boot it with numa=fake=2" >&2
	exit 1
fi
echo "KERNEL $(uname -r) $(uname -v)"
if [ -d /sys/kernel/mm/migrate_copy_offload ]; then
	echo "HOOK yes"
else
	echo "HOOK no"
fi
for o in "$@"; do
	if ! "$TOOL" -m migrate -p cpu --folio-order "$o" --bytes "$bytes" \
		--runs "$runs" --warmup-runs "$warmup" --json > /tmp/order.json 2>&1; then
		echo "folio order $o failed:"
		cat /tmp/order.json
		exit 1
	fi
	echo "JSON $o $(tr -d '\n' < /tmp/order.json)"
done
