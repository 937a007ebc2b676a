#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The host's checks of the cache-maintenance counter in a VM's TAP stream.

usage: vm-suite.sh ... | dcount-tap.py [--state FILE] [--no-plan] DCOUNT_FILE EXPECT
       dcount-tap.py [--state FILE] [--no-plan] --skip REASON

Passes the TAP stream of vm-suite.sh through, holding back its plan and
summary; then reads DCOUNT_FILE, the output of scripts/qemu-plugin/dcount.so
that QEMU wrote during the run (the lines after its last "dcount 0 start"),
finds the dumps the guest's cachecount suite announced ("# cachecount DUMP
N NAME"), appends its own checks of them to the stream and prints the
plan. EXPECT is the kernel's: "after" (Linux 7.3, the batched cache sync:
at most MAX_DSB dsb sy in each call, at least one in each that maintains
the cache; other dsb domains, which the debug kernel's own work inside a
call adds now and then, are shown, not checked) or "before" (the series reverted: one
dsb an entry in each call that maintains the cache). Exit status 1 when
a check failed or the stream had a failure.

One .t may boot twice (arm64-zdma-73.t: the after kernel, then the
before kernel when it is cached): --state FILE carries the test count
from one call to the next, whose stream's tests are renumbered after
it; --no-plan leaves the plan to the last call; --skip REASON, for a
boot that cannot be made, is one skipped test.

The cells: 64 entries of 4 KiB, 10 windows of each call. A call that
maintains the cache issues one DC per 64-byte line (the ZCU102's
Cortex-A53: CTR_EL0.DminLine), 64 an entry, 4096 a call: map and
sync_for_device clean (DC CVAC, or CIVAC where an erratum's workaround
makes the clean a clean and invalidate); unmap and sync_for_cpu
invalidate (DC IVAC) FROM_DEVICE and do nothing TO_DEVICE. DC ZVA is not
counted among them: it zeroes memory (the debug kernel's allocations
inside a call), and is no cache maintenance of the buffers.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "scripts"))
from report.cachesync import parse_dcount  # noqa: E402

ENTRIES = 64
LINES = ENTRIES * 4096 // 64
WINDOWS = 10
MAX_DSB = 2
CLEAN = ("dc_cvac", "dc_civac")
INVAL = ("dc_ivac", "dc_civac")


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0
        self.skipped = 0

    def result(self, ok, desc, diag=()):
        self.n += 1
        if ok:
            print("ok %d - %s" % (self.n, desc))
        else:
            self.failed += 1
            print("not ok %d - %s" % (self.n, desc))
            for d in diag:
                print("# " + d)


def calls_expect(name):
    """{call: (event kinds of its cache operations, their count a call)}"""
    inval = LINES if name == "from_device" else 0
    return {"map": (CLEAN, LINES), "sync_device": (CLEAN, LINES),
            "unmap": (INVAL, inval), "sync_cpu": (INVAL, inval)}


def check_cell(tap, dump, name, expect, what="cachecount (host)"):
    pre = "%s: %s: " % (what, name)
    for call, (kinds, n) in calls_expect(name).items():
        win = dump["windows"].get(call, {}).get("windows", 0)
        counts = dump["counts"].get(call, {})
        tap.result(win == WINDOWS, pre + "%d %s windows counted" % (WINDOWS, call),
                   ["%s windows: %d" % (call, win)])
        if not win:
            continue
        # DC ZVA zeroes memory (memset, clear_page: the debug kernel's
        # allocations inside the call); it is not the mapping's maintenance
        dc = {e: v for e, v in counts.items()
              if e.startswith("dc_") and e != "dc_zva"}
        # each window alike: min = max = the expected count
        good = (sum(v[0] for e, v in dc.items() if e in kinds) == n * win and
                all(e in kinds for e in dc) and
                sum(v[1] for e, v in dc.items()) == n and
                sum(v[2] for e, v in dc.items()) == n) if n else not dc
        tap.result(good, pre + "%s: %d data-cache operations a call, %s" %
                   (call, n, " or ".join(k[3:] for k in kinds) if n else "none"),
                   ["%s: %s (sum min max over %d windows)" % (e, v, win)
                    for e, v in sorted(counts.items()) if e.startswith("dc_")]
                   or ["no data-cache operation"])
        # dsb sy is the barrier that completes the maintenance (the one
        # the series batches); the debug kernel's own work inside a call
        # (allocations, TLB maintenance) adds dsb ish now and then
        dsb = {e: v for e, v in counts.items() if e.startswith("dsb_")}
        sy = dsb.get("dsb_sy", [0, 0, 0])
        if expect == "after":
            tap.result(sy[2] <= MAX_DSB and sy[1] >= (1 if n else 0),
                       pre + "%s: at most %d dsb sy a call (the batched sync)" % (call, MAX_DSB),
                       ["%s: %s (sum min max)" % (e, v) for e, v in sorted(dsb.items())]
                       or ["no dsb"])
        elif n:
            tap.result(sy[1] >= ENTRIES, pre + "%s: a dsb sy an entry (%d) in every call"
                       % (call, ENTRIES),
                       ["%s: %s (sum min max)" % (e, v) for e, v in sorted(dsb.items())])
    # the windows count their task only if the counter saw every switch
    # (QEMU 7.2 once dropped the load callback that names the next task)
    sw = dump.get("switches")
    tap.result(sw is not None and sw[0] > 0 and sw[1] == sw[0],
               pre + "the counter followed every task switch (cpu_switch_to)",
               ["switches seen, followed: %s" % (sw,) if sw is not None else
                "no switches line: the counter was not given switch= (cpu_switch_to)"])
    empty = dump["windows"].get("empty", {}).get("windows", 0)
    tap.result(empty == WINDOWS and not dump["counts"].get("empty"),
               pre + "the empty windows count nothing",
               ["empty windows %d, counts %s" % (empty, dump["counts"].get("empty"))])


def load_state(path):
    """The numbers of an earlier call (--state): tests, failed, skipped."""
    try:
        with open(path) as fh:
            n, failed, skipped = (int(x) for x in fh.read().split())
        return n, failed, skipped
    except (OSError, ValueError):
        return 0, 0, 0


def main():
    ap = argparse.ArgumentParser(
        prog="dcount-tap.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--state", metavar="FILE",
                    help="go on numbering from FILE's counts, and leave ours "
                    "in it (one .t, several boots)")
    ap.add_argument("--no-plan", action="store_true",
                    help="no plan and summary: a later call prints them")
    ap.add_argument("--skip", metavar="REASON",
                    help="read no stream and no counter: one skipped test, "
                    "with REASON")
    ap.add_argument("args", nargs="*", metavar="DCOUNT_FILE after|before")
    a = ap.parse_args()
    if a.skip is None and (len(a.args) != 2 or a.args[1] not in ("after", "before")):
        print("usage: dcount-tap.py [--state FILE] [--no-plan] DCOUNT_FILE after|before\n"
              "       dcount-tap.py [--state FILE] [--no-plan] --skip REASON",
              file=sys.stderr)
        return 2
    tap = Tap()
    base, tap.failed, tap.skipped = load_state(a.state) if a.state else (0, 0, 0)
    tap.n = base
    if a.skip is not None:
        tap.n += 1
        tap.skipped += 1
        print("ok %d - cachecount (host) # SKIP %s" % (tap.n, a.skip))
    else:
        run_checks(tap, base, a.args[0], a.args[1])
    if a.state:
        with open(a.state, "w") as fh:
            fh.write("%d %d %d\n" % (tap.n, tap.failed, tap.skipped))
    if not a.no_plan:
        print("1..%d" % tap.n)
        print("# %d passed, %d failed, %d skipped"
              % (tap.n - tap.failed - tap.skipped, tap.failed, tap.skipped))
    return 1 if tap.failed else 0


def run_checks(tap, base, path, expect):
    """The stream on stdin, its tests numbered from BASE + 1, then our
    checks of the counter's output at PATH."""
    announced = {}
    for line in sys.stdin:
        line = line.rstrip("\n")
        m = re.match(r"^(not )?ok (\d+)(.*)$", line)
        if m:
            tap.n = base + int(m.group(2))
            tap.failed += bool(m.group(1))
            tap.skipped += bool(re.search(r"# SKIP", m.group(3)))
            line = "%sok %d%s" % (m.group(1) or "", tap.n, m.group(3))
        elif re.match(r"^1\.\.\d+$", line) or re.match(r"^# \d+ passed, ", line):
            continue
        m = re.match(r"^# cachecount DUMP (\d+) (\S+)$", line)
        if m:
            announced[m.group(2)] = int(m.group(1))
        print(line, flush=True)
    what = "cachecount (host)" + (" [%s kernel]" % expect if expect == "before" else "")
    try:
        with open(path) as fh:
            dumps = parse_dcount(fh)
    except OSError as e:
        dumps = None
        tap.result(False, what + ": the counter wrote its output", [str(e)])
    if dumps is not None:
        tap.result(bool(dumps), what + ": the counter wrote its output",
                   ["%s has no dump after its last start" % path])
        for name in ("to_device", "from_device"):
            seq = announced.get(name)
            ok = seq is not None and seq in dumps and dumps[seq]["end"]
            tap.result(ok, what + ": %s: the guest's dump is in the output" % name,
                       ["announced %s, dumps %s" % (seq, sorted(dumps))])
            if ok:
                check_cell(tap, dumps[seq], name, expect, what)


if __name__ == "__main__":
    sys.exit(main())
