#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# How much the benchmark's own machinery costs: soft_dma in nocopy mode
# completes descriptors without copying, so what remains is the dmaengine
# framework and the benchmark. Reports the cost per descriptor (prep,
# submit) and per batch (issue, wait) of each phase, and the share of a
# run's wall time spent outside the timed regions (target: <= 20 % for the
# default cell). A benchmark, not a test: it asserts nothing.
#
# usage: scripts/bench-overhead.sh [-m MACHINE] [TOOL_OPTIONS...]
#   default cell: 1 channel, 4 KiB folios, 512 entries, 512 MiB, 5 runs
set -euo pipefail
. "$(dirname "$0")/lib.sh"

machine=${DMA_BENCH_MACHINE:-x86-bench}
if [ "${1:-}" = -m ]; then
	machine=$2
	shift 2
fi
opts=("$@")
[ ${#opts[@]} -gt 0 ] || opts=(--channels 1 --sge 512 --bytes-per-channel 512M --runs 5)

"$DMA_BENCH_TOP/scripts/setup.sh" bench
make -s -C "$DMA_BENCH_TOP" all >/dev/null

json=$(mktemp)
trap 'rm -f "$json"' EXIT
say "running the cell in nocopy mode on $machine"
# the guest side: tools/testing/guest/bench/overhead.sh
"$DMA_BENCH_TOP/scripts/vm/run.sh" -q -m "$machine" -t 3600 -- \
	sh tests/bench/overhead.sh "${opts[@]}" > "$json"

python3 - "$json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
print("# soft_dma nocopy: framework + benchmark cost, kernel %s" % doc.get("kernel"))
print("%-15s %12s %12s %12s %12s %10s" % ("mode", "prep_ns/desc", "submit_ns/desc",
      "issue_ns/batch", "wait_ns/batch", "outside"))
for r in doc["results"]:
    ms = lambda k: r[k]["mean"]
    chan = r["chan"]
    timed = sum(ms(k) for k in ("prep_ms", "submit_ms", "issue_ms", "wait_ms",
                                "map_ms", "unmap_ms")) / chan
    outside = max(0.0, ms("run_ms") - timed) / ms("run_ms")
    print("%-15s %12.0f %12.0f %12.0f %12.0f %9.1f%%" % (
        r["prep_mode"],
        ms("prep_ms") * 1e6 / r["prep_calls"],
        ms("submit_ms") * 1e6 / r["submits"],
        ms("issue_ms") * 1e6 / r["batches"],
        ms("wait_ms") * 1e6 / r["batches"],
        100 * outside))
print("# outside: the share of run_ms (per channel) not in prep, submit, issue,"
      " wait, map or unmap; target <= 20 %")
PY
