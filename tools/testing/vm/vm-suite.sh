#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# vm-suite.sh MACHINE DMA_CONFIG SUITE...: boot the machine in that DMA
# configuration, run the guest suites, and print their TAP stream. A VM
# that dies or hangs still ends the stream with a failing test and a plan.
#   GUEST_SCOPE=debug|full  the suites' scope (tools/testing/guest/lib.sh's
#                           scope_full; default full)
#   VM_EXTRA_APPEND=ARGS    more kernel command line (run.sh -a)
#   VM_FILES="FILE..."      files copied into the guest's /opt/dma-bench
#                           (run.sh -f): programs built apart
#   VM_TIMEOUT=SEC          stop a VM that runs longer (default 2400: a
#                           hang, not a slow run; x86-debug-dmaengine.t
#                           took 1485 s on a cold machine beside kernel
#                           builds, 835 s warm)
set -uo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
machine=$1
dma=$2
shift 2

out=$(mktemp)
trap 'rm -f "$out"' EXIT
files=()
for f in ${VM_FILES:-}; do
	files+=(-f "$f")
done
"$top/scripts/vm/run.sh" -q -m "$machine" -c "$dma" -t "${VM_TIMEOUT:-2400}" \
	${VM_EXTRA_APPEND:+-a "$VM_EXTRA_APPEND"} ${files[@]+"${files[@]}"} \
	-- GUEST_SCOPE="${GUEST_SCOPE:-full}" sh tests/run.sh "$@" | tee "$out"
rc=${PIPESTATUS[0]}

if ! grep -q '^1\.\.[0-9]' "$out"; then
	# shellcheck source=../guest/tap.sh
	. "$top/tools/testing/guest/tap.sh"
	TAP_N=$(grep -cE '^(not )?ok [0-9]+' "$out")
	tap_not_ok "$machine/$dma: the VM finished the suites (exit $rc)"
	tap_end
fi
exit "$rc"
