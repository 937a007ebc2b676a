# SPDX-License-Identifier: GPL-2.0-only
"""scripts/sweep.py's rows: the tool's output of a cell turned into
results.json's rows, and perf's (here: perf stat's counters, perf
record's files)."""

import json
import os
import shlex

from report import results, stats
from sweep_plan import describe


PERF_EVENTS = "cycles,instructions,cache-misses"


# --- Turning the tool's output into rows -----------------------------------

def tool_output(rc, out, err):
    """The tool's JSON of a call, and why there is none: what it said (the
    end of its stdout if nothing on stderr), and its exit status unless 1."""
    if rc != 0:
        msg = (err or "").strip() or (out or "").strip()[-500:] or "no message"
        return None, msg if rc == 1 else f"exit status {rc}: {msg}"
    try:
        return json.loads(out), None
    except ValueError as e:
        return None, f"the tool's output is not JSON ({e})"


def dmaengine_rows(cell, inv, kind="dmaengine"):
    """inv: [(rc, stdout, stderr, seconds)], one invocation; the rows of
    a -m dmaengine call, or of a -m migrate call (KIND migrate)."""
    rc, out, err, _ = inv[0]
    base = {"cell": cell["index"], "channels": cell["channels"],
            "folio_order": cell["folio_order"],
            "folio_bytes": cell["folio_bytes"]}
    if kind == "dmaengine":
        base.update(sge=cell["sge"],
                    depth=cell.get("depth", results.DEFAULT_DEPTH),
                    buffers=cell.get("buffers", results.FORMAT1_BUFFERS))
    size_key = "bytes" if kind == "migrate" else "bytes_per_channel"
    tool, error = tool_output(rc, out, err)
    if tool is not None:
        cell["tool"] = tool
        rows = [{**base, **r, "cell": cell["index"], "status": "ok",
                 "error": None,
                 size_key: tool.get("params", {}).get(size_key)}
                for r in tool.get("results", [])]
        if rows:
            cell.update(status="ok", error=None)
            return rows
        error = "the tool's JSON has no results"
    cell.update(status="failed", error=error, exit_status=rc)
    modes = results.PREP_OF_OPTION[cell["prep_modes"]]
    if kind == "migrate":	# the cpu row first, always there
        modes = ("cpu",) + tuple(m for m in modes if m != "cpu")
    return [dict(base, prep_mode=m, status="failed", error=error)
            for m in modes]


def map_op_stat(run, op):
    """(mean, stddev, p99, count) of an operation in one run of the tool, in
    us: the extended interface's nanoseconds (results.ops) when the tool
    used it (--percentiles, --sync, --entries > 1024, ...), else the
    selftest's figures (100 ns resolution); None if the run lacks it."""
    ops = run.get("results", {}).get("ops") or {}
    if op in ops:
        o = ops[op]
        return (o["mean_ns"] / 1000.0, o["stddev_ns"] / 1000.0,
                o["p99_ns"] / 1000.0, o["count"])
    legacy = run.get("results", {}).get(op + "_us")
    if legacy is None:
        return None
    return legacy["mean"], legacy["stddev"], None, None


def map_rows(cell, invs):
    base = {"cell": cell["index"], "mode": cell["mode"],
            "granule": cell["granule"], "threads": cell["threads"],
            "seconds": cell["seconds"]}
    runs = []
    error = None
    for rc, out, err, _ in invs:
        doc, error = tool_output(rc, out, err)
        if error is not None:
            if rc != 0:
                cell["exit_status"] = rc
            break
        runs.append(doc)
    cell["runs"] = runs
    if error is None and len(runs) < cell["invocations"]:
        error = f"only {len(runs)} of {cell['invocations']} runs finished"
    if error is not None:
        cell.update(status="failed", error=error)
        return [dict(base, status="failed", error=error)]
    row = dict(base, status="ok", error=None, runs=len(runs))
    for op in results.MAP_OPS:
        per_run = [map_op_stat(r, op) for r in runs]
        if any(x is None for x in per_run):
            continue	# sync_*: only with --sync
        for i, suffix in enumerate(("_us", "_stddev_us", "_p99_us")):
            vals = [x[i] for x in per_run if x[i] is not None]
            if len(vals) == len(per_run):
                m, stddev = stats.mean_stddev(vals)
                row[op + suffix] = {"mean": m, "stddev": stddev}
        row[op + "_count"] = sum(x[3] for x in per_run) \
            if all(x[3] is not None for x in per_run) else None
    cell.update(status="ok", error=None)
    return [row]


# --- perf (real machines) --------------------------------------------------

def perf_prefix(a, cell, inv):
    if not a.perf:
        return []
    d = os.path.join(a.output, "perf")
    os.makedirs(d, exist_ok=True)
    stem = os.path.join(d, f"cell-{cell['index']}" +
                        (f"-run-{inv}" if cell["invocations"] > 1 else ""))
    stat = a.perf == "stat"
    f = stem + (".stat.csv" if stat else ".perf.data")
    cell.setdefault("perf", {"kind": a.perf, "files": []})["files"].append(f)
    # -a: the benchmark runs in kernel threads, not in the tool's process
    return (["perf", "stat", "-a", "-x", ",", "-e", PERF_EVENTS] if stat else
            ["perf", "record", "-g", "-a"]) + ["-o", f] + \
        shlex.split(a.perf_args or "") + ["--"]


def parse_perf_stat(text):
    """Counters of `perf stat -x,` output: {event: value or None}."""
    counters = {}
    for line in text.splitlines():
        f = line.split(",")
        if len(f) < 3 or line.startswith("#"):	# blank lines too
            continue
        event = f[2].split(":")[0]
        try:
            counters[event] = float(f[0]) if "." in f[0] else int(f[0])
        except ValueError:
            counters[event] = None	# <not supported>, <not counted>
    return with_ipc(counters)


def with_ipc(counters):
    """The counters, with instructions per cycle when both were counted."""
    c, i = counters.get("cycles"), counters.get("instructions")
    if c and i:
        counters["ipc"] = i / c
    return counters


def perf_collect(cell):
    p = cell.get("perf")
    if not p or p["kind"] != "stat":
        return
    total = {}
    for f in p["files"]:
        try:
            with open(f, encoding="utf-8") as fh:
                for k, v in parse_perf_stat(fh.read()).items():
                    if k != "ipc" and v is not None:
                        total[k] = total.get(k, 0) + v
        except OSError:
            pass
    p["counters"] = with_ipc(total)


def perf_table(res):
    stat = [c for c in res["cells"] if c.get("perf", {}).get("kind") == "stat"]
    cells = [c for c in stat if c["perf"].get("counters")]
    if stat and not cells:
        return ("# perf stat: no counter counted (not supported here?): see "
                f"{os.path.dirname(stat[0]['perf']['files'][0])}/\n")
    if not cells:
        return ""
    def line(name, *vals):	# the columns' widths, once
        return " ".join([f"{name:<44}"] + [f"{v!s:>{w}}" for v, w in
                                           zip(vals, (16, 16, 6, 14))]) + "\n"
    out = "# perf stat -a (whole system, summed over a cell's runs):\n" + \
        line("cell", "cycles", "instructions", "IPC", "cache-misses")
    for c in cells:
        k = c["perf"]["counters"]
        out += line(describe(res["kind"], c), k.get("cycles", "-"),
                    k.get("instructions", "-"),
                    f"{k['ipc']:.2f}" if k.get("ipc") else "-",
                    k.get("cache-misses", "-"))
    return out
