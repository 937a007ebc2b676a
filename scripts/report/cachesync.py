# SPDX-License-Identifier: GPL-2.0-only
"""scripts/bench-cachesync.sh's report: the cache maintenance and barriers
each DMA API call executed, before and after the batched cache sync.

python3 -m report.cachesync table OUTDIR [--barry CELL] [--elapsed S]
    reads OUTDIR/KIND-CONFIG.log (the guest's lines,
    tools/testing/guest/bench/cachesync.sh: "KERNEL ...", "CONFIG ...",
    "DUMP N CELL", "JSON CELL {...}") and OUTDIR/KIND-CONFIG.dcount (the
    counter's, scripts/qemu-plugin/dcount.c: "dcount SEQ window KIND ...",
    "dcount SEQ count KIND EVENT SUM MIN MAX", "dcount SEQ outside EVENT
    SUM", "dcount SEQ end"; the lines after its last "dcount 0 start", the
    last QEMU the harness started) for KIND before and after and CONFIG
    direct and swiotlb, and writes OUTDIR/results.json, results.csv and
    table.txt: per cell (mode, entries, direction) and DMA API call, the
    windows counted, the data-cache operations by kind and the barriers
    (dsb by domain and type, dmb, isb) per call and per entry, on each
    kernel, the ratio before/after, and the call's mean time (emulated,
    QEMU TCG); the idle baseline (what the whole guest executed in a
    second outside any window) and the empty windows' counts. Prints the
    table. Exit status 1 when a file, a dump or a cell is missing, or a
    window kind has no windows.
python3 -m report.cachesync parse DCOUNT
    the counter's output as JSON, dump by dump (for tests).
"""

import argparse
import csv
import json
import os
import sys

KINDS = ("before", "after")
CONFIGS = ("direct", "swiotlb")
CALLS = ("map", "unmap", "sync_cpu", "sync_device")
# the DMA API function each call of a mode is
API = {
    ("sg", "map"): "dma_map_sg",
    ("sg", "unmap"): "dma_unmap_sg",
    ("sg", "sync_cpu"): "dma_sync_sg_for_cpu",
    ("sg", "sync_device"): "dma_sync_sg_for_device",
    ("single", "map"): "dma_map_page",
    ("single", "unmap"): "dma_unmap_page",
    ("single", "sync_cpu"): "dma_sync_single_for_cpu",
    ("single", "sync_device"): "dma_sync_single_for_device",
}
DIRS = {"bidirectional": "bidir", "to_device": "to_dev",
        "from_device": "from_dev"}


class ReportError(Exception):
    pass


def parse_dcount(lines):
    """The counter's dumps: {seq: {"windows": {kind: {...}}, "counts":
    {kind: {event: [sum, min, max]}}, "outside": {event: sum}, and with
    switch= "switches": [seen, tracked]}}, of the last QEMU (after the
    last "dcount 0 start")."""
    dumps = {}
    for line in lines:
        w = line.split()
        if len(w) < 3 or w[0] != "dcount":
            continue
        seq = int(w[1])
        if seq == 0 and w[2] == "start":
            dumps = {}
            continue
        d = dumps.setdefault(seq, {"windows": {}, "counts": {},
                                   "outside": {}, "end": False})
        if w[2] == "window":
            d["windows"][w[3]] = {"windows": int(w[5]),
                                  "interrupted": int(w[7]),
                                  "excluded": int(w[9]),
                                  "abandoned": int(w[11]) if len(w) > 11 else 0}
        elif w[2] == "count":
            d["counts"].setdefault(w[3], {})[w[4]] = [int(x) for x in w[5:8]]
        elif w[2] == "outside":
            d["outside"][w[3]] = int(w[4])
        elif w[2] == "switches":
            d["switches"] = [int(w[3]), int(w[4])]
        elif w[2] == "end":
            d["end"] = True
    return dumps


def parse_guest(lines):
    """The guest's lines: kernel, config, {cell: dump seq}, {cell: JSON}."""
    g = {"kernel": None, "config": None, "dumps": {}, "json": {},
         "order": []}
    for line in lines:
        line = line.rstrip("\n")
        if line.startswith("KERNEL "):
            g["kernel"] = line[7:]
        elif line.startswith("CONFIG "):
            g["config"] = line[7:].strip()
        elif line.startswith("DUMP "):
            _, n, cell = line.split(None, 2)
            g["dumps"][cell] = int(n)
            if ":" in cell:
                g["order"].append(cell)
        elif line.startswith("JSON "):
            cell, doc = line[5:].split(None, 1)
            g["json"][cell] = json.loads(doc)
    return g


def dsb_total(events):
    return sum(v for k, v in events.items() if k.startswith("dsb_"))


def dc_total(events):
    """The data-cache maintenance: every DC but ZVA, which zeroes memory."""
    return sum(v for k, v in events.items()
               if k.startswith("dc_") and k != "dc_zva")


def cell_call(dump, call, entries):
    """One call's figures in a cell's dump: per call (mean over windows,
    with min and max) and per entry."""
    win = dump["windows"].get(call)
    if not win or not win["windows"]:
        raise ReportError("no %s windows" % call)
    n = win["windows"]
    counts = dump["counts"].get(call, {})
    per_call = {e: s / n for e, (s, _, _) in counts.items()}
    rng = {e: [mn, mx] for e, (_, mn, mx) in counts.items()}
    return {
        "windows": n,
        "interrupted": win["interrupted"],
        "excluded": win["excluded"],
        "per_call": per_call,
        "min_max": rng,
        "dc_per_call": dc_total(per_call),
        "dsb_per_call": dsb_total(per_call),
        "dsb_sy_per_call": per_call.get("dsb_sy", 0.0),
        "dmb_per_call": sum(v for k, v in per_call.items()
                            if k.startswith("dmb_")),
        "isb_per_call": per_call.get("isb", 0.0),
        "dc_per_entry": dc_total(per_call) / entries,
        "dsb_per_entry": dsb_total(per_call) / entries,
        "dsb_sy_per_entry": per_call.get("dsb_sy", 0.0) / entries,
    }


def read_boot(out, kind, config):
    log = os.path.join(out, "%s-%s.log" % (kind, config))
    dc = os.path.join(out, "%s-%s.dcount" % (kind, config))
    for f in (log, dc):
        if not os.path.exists(f):
            raise ReportError("missing %s" % f)
    with open(log) as fh:
        g = parse_guest(fh)
    with open(dc) as fh:
        dumps = parse_dcount(fh)
    if g["config"] != config:
        raise ReportError("%s: the guest says CONFIG %s" % (log, g["config"]))
    boot = {"kernel": g["kernel"], "cells": {}, "idle": None,
            "empty": {"windows": 0, "max": {}}, "switches": None}
    idle = g["dumps"].get("idle")
    if idle is None or idle not in dumps:
        raise ReportError("%s: no idle dump" % dc)
    boot["idle"] = dumps[idle]["outside"]
    for cell in g["order"]:
        seq = g["dumps"][cell]
        if seq not in dumps or not dumps[seq]["end"]:
            raise ReportError("%s: no dump %d (cell %s)" % (dc, seq, cell))
        d = dumps[seq]
        mode, entries, direction, iters = cell.split(":")
        entries = int(entries)
        calls = {}
        for call in CALLS:
            try:
                calls[call] = cell_call(d, call, entries)
            except ReportError as e:
                raise ReportError("%s: cell %s: %s" % (dc, cell, e))
            doc = g["json"].get(cell, {})
            op = doc.get("results", {}).get("ops", {}).get(call)
            calls[call]["mean_ns"] = op.get("mean_ns") if op else None
        if "switches" in d:
            sw = boot["switches"] or [0, 0]
            boot["switches"] = [sw[0] + d["switches"][0], sw[1] + d["switches"][1]]
        e = d["windows"].get("empty")
        if e:
            boot["empty"]["windows"] += e["windows"]
            for ev, (_, _, mx) in d["counts"].get("empty", {}).items():
                boot["empty"]["max"][ev] = max(mx, boot["empty"]["max"].get(ev, 0))
        boot["cells"][cell] = {"mode": mode, "entries": entries,
                               "dir": direction, "iterations": int(iters),
                               "calls": calls}
    return boot


def fnum(v):
    if v is None:
        return "-"
    if abs(v - round(v)) < 1e-9:
        return "%d" % round(v)
    return "%.2f" % v


def ratio(a, b):
    if a is None or b is None:
        return None
    if b == 0:
        return None if a == 0 else float("inf")
    return a / b


def fratio(r):
    if r is None:
        return "-"
    if r == float("inf"):
        return "inf"
    return "%.2f" % r


def dc_kinds(fig):
    """'cvac 64 civac 2' of a call's data-cache operations per call."""
    parts = ["%s %s" % (k[3:], fnum(v)) for k, v in sorted(fig["per_call"].items())
             if k.startswith("dc_") and v]
    return " ".join(parts) or "0"


def dsb_kinds(fig):
    parts = ["%s %s" % (k[4:], fnum(v)) for k, v in sorted(fig["per_call"].items())
             if k.startswith("dsb_") and v]
    return " ".join(parts) or "0"


def rows(data, cells):
    """One row a (config, cell, call) present on both kernels."""
    out = []
    for config in CONFIGS:
        b, a = data.get(("before", config)), data.get(("after", config))
        if not b or not a:
            continue
        for cell in cells:
            if cell not in b["cells"] or cell not in a["cells"]:
                continue
            cb, ca = b["cells"][cell], a["cells"][cell]
            for call in CALLS:
                fb, fa = cb["calls"][call], ca["calls"][call]
                out.append({
                    "config": config, "cell": cell, "mode": cb["mode"],
                    "api": API[(cb["mode"], call)], "call": call,
                    "dir": cb["dir"], "entries": cb["entries"],
                    "iterations": cb["iterations"],
                    "before": fb, "after": fa,
                    "dsb_ratio": ratio(fb["dsb_per_call"], fa["dsb_per_call"]),
                    "dsb_sy_ratio": ratio(fb["dsb_sy_per_call"], fa["dsb_sy_per_call"]),
                    "dc_ratio": ratio(fb["dc_per_call"], fa["dc_per_call"]),
                })
    return out


HEAD = ("%-7s %-26s %-8s %7s  %-24s %-24s %9s %9s %7s %7s %7s %11s %10s %10s"
        % ("config", "call", "dir", "entries", "dc/call before",
           "dc/call after", "sy before", "sy after", "ratio",
           "sy/ent", "sy/ent", "other dsb", "us before", "us after"))


def row_text(r):
    fb, fa = r["before"], r["after"]

    def us(f):
        return "-" if f["mean_ns"] is None else "%.1f" % (f["mean_ns"] / 1000)
    other = "%s/%s" % (fnum(fb["dsb_per_call"] - fb["dsb_sy_per_call"]),
                       fnum(fa["dsb_per_call"] - fa["dsb_sy_per_call"]))
    return ("%-7s %-26s %-8s %7d  %-24s %-24s %9s %9s %7s %7s %7s %11s %10s %10s"
            % (r["config"], r["api"], DIRS.get(r["dir"], r["dir"]),
               r["entries"], dc_kinds(fb), dc_kinds(fa),
               fnum(fb["dsb_sy_per_call"]), fnum(fa["dsb_sy_per_call"]),
               fratio(r["dsb_sy_ratio"]), fnum(fb["dsb_sy_per_entry"]),
               fnum(fa["dsb_sy_per_entry"]), other, us(fb), us(fa)))


def matrix(all_rows, barry):
    """The sweep's dsb sy per call, before -> after: a line per
    configuration, direction and sg call, a column per entry count, and
    the single mode's call of the same kind (one page) last."""
    sweep = [r for r in all_rows if r["cell"] != barry]
    ents = sorted({r["entries"] for r in sweep if r["mode"] == "sg"})
    out = ["", "dsb sy per call, before -> after, the sweep:",
           "%-7s %-8s %-24s" % ("config", "dir", "call")
           + "".join("%18s" % ("%d entries" % e) for e in ents)
           + "   one page (dma_*_page/single)"]
    for config in CONFIGS:
        for d in DIRS:
            for call in CALLS:
                cells = []
                for e in ents:
                    r = [x for x in sweep if (x["config"], x["dir"], x["call"],
                                              x["entries"], x["mode"]) ==
                         (config, d, call, e, "sg")]
                    cells.append("%s -> %s" % (fnum(r[0]["before"]["dsb_sy_per_call"]),
                                               fnum(r[0]["after"]["dsb_sy_per_call"]))
                                 if r else "-")
                if all(c == "-" for c in cells):
                    continue
                one = [x for x in sweep if (x["config"], x["dir"], x["call"],
                                            x["mode"]) == (config, d, call, "single")]
                out.append("%-7s %-8s %-24s" % (config, DIRS[d], API[("sg", call)])
                           + "".join("%18s" % c for c in cells)
                           + ("   %s -> %s" % (fnum(one[0]["before"]["dsb_sy_per_call"]),
                                              fnum(one[0]["after"]["dsb_sy_per_call"]))
                              if one else ""))
    return out


def table(out, barry, elapsed):
    data = {}
    for kind in KINDS:
        for config in CONFIGS:
            if not os.path.exists(os.path.join(out, "%s-%s.log" % (kind, config))):
                continue	# a configuration not asked for
            data[(kind, config)] = read_boot(out, kind, config)
    cells = []
    for boot in data.values():
        for c in boot["cells"]:
            if c not in cells:
                cells.append(c)
    all_rows = rows(data, cells)
    if not all_rows:
        raise ReportError("no cell was measured on both kernels")
    lines = []
    kb = next(b["kernel"] for (k, _), b in data.items() if k == "before")
    ka = next(b["kernel"] for (k, _), b in data.items() if k == "after")
    lines.append("Cache maintenance and barriers per DMA API call, counted in "
                 "the guest by the QEMU TCG plugin (scripts/qemu-plugin/dcount.c)")
    lines.append("  before: %s (batched cache sync reverted, kernel/patches/v7.3-nobatch)" % kb)
    lines.append("  after:  %s (7.3 as is)" % ka)
    lines.append("  device: non-coherent platform device on QEMU xlnx-zcu102; "
                 "one thread pinned to CPU 0; 4 KiB entries")
    lines.append("  dc: data-cache operations by kind, per call (zva zeroes memory: "
                 "the debug kernel's allocations, not the buffers' maintenance)")
    lines.append("  sy: dsb sy per call (the barrier the series batches), before and after; ratio: "
                 "before/after; sy/ent: per entry;")
    lines.append("  other dsb: the other domains' (ish...), before/after, per call (mean over "
                 "the windows; min and max in results.json)")
    lines.append("  us: mean time of a call, EMULATED (QEMU TCG, debug kernel): "
                 "not a hardware time; a cache op and a barrier cost nothing here")
    lines.append("")
    if barry:
        lines.append("Barry's workload (%s: entries, direction, iterations):" % barry)
        lines.append(HEAD)
        for r in all_rows:
            if r["cell"] == barry:
                lines.append(row_text(r))
        lines.append("")
    lines.append("The sweep:")
    lines.append(HEAD)
    for r in all_rows:
        if r["cell"] != barry:
            lines.append(row_text(r))
    lines.append("")
    lines.append("dmb and isb per call (before -> after), where any:")
    for r in all_rows:
        fb, fa = r["before"], r["after"]
        if fb["dmb_per_call"] or fa["dmb_per_call"] or fb["isb_per_call"] or fa["isb_per_call"]:
            lines.append("  %-7s %-26s %-8s %5d  dmb %s -> %s  isb %s -> %s"
                         % (r["config"], r["api"], DIRS.get(r["dir"], r["dir"]),
                            r["entries"], fnum(fb["dmb_per_call"]),
                            fnum(fa["dmb_per_call"]), fnum(fb["isb_per_call"]),
                            fnum(fa["isb_per_call"])))
    lines.extend(matrix(all_rows, barry))
    lines.append("")
    lines.append("Calls whose windows did not all count the same dc or dsb sy "
                 "(min/max over the windows; with every task switch followed, "
                 "none should, see Documentation/map-modes.rst):")
    uneven = 0
    for r in all_rows:
        for k in KINDS:
            f = r[k]
            bad = ["%s %d/%d" % (e, mn, mx) for e, (mn, mx) in sorted(f["min_max"].items())
                   if e in ("dsb_sy", "dc_cvac", "dc_civac", "dc_ivac") and mn != mx]
            if bad:
                uneven += 1
                lines.append("  %-6s %-7s %-26s %-8s %5d  %s" % (
                    k, r["config"], r["api"], DIRS.get(r["dir"], r["dir"]),
                    r["entries"], "  ".join(bad)))
    if not uneven:
        lines.append("  none")
    lines.append("")
    lines.append("Baselines:")
    for (kind, config), boot in sorted(data.items()):
        idle = boot["idle"]
        e = boot["empty"]
        emax = " ".join("%s %d" % kv for kv in sorted(e["max"].items())) or "nothing"
        lines.append("  %-6s %-7s idle second, whole guest outside windows: dsb %d, dmb %d, "
                     "isb %d, dc %d; empty windows: %d, at most %s in one"
                     % (kind, config, dsb_total(idle),
                        sum(v for k, v in idle.items() if k.startswith("dmb_")),
                        idle.get("isb", 0), dc_total(idle), e["windows"], emax))
        sw = boot.get("switches")
        if sw is not None and sw[0] != sw[1]:
            lines.append("  %-6s %-7s TASK TRACKING FAILED: %d of %d task switches "
                         "seen without the next task: windows may count other tasks"
                         % (kind, config, sw[0] - sw[1], sw[0]))
        elif sw is not None:
            lines.append("  %-6s %-7s task switches during the cells: %d, every one "
                         "followed" % (kind, config, sw[0]))
    intr = sum(r[k]["interrupted"] for r in all_rows for k in KINDS)
    excl = sum(r[k]["excluded"] for r in all_rows for k in KINDS)
    lines.append("  windows an exception interrupted: %d (the handlers' %d "
                 "counted instructions left out)" % (intr, excl))
    if elapsed is not None:
        lines.append("")
        lines.append("the command took %d s" % elapsed)
    text = "\n".join(lines) + "\n"

    doc = {"kernels": {"before": kb, "after": ka},
           "barry_cell": barry,
           "rows": all_rows,
           "baselines": {"%s-%s" % k: {"idle_outside_per_second": b["idle"],
                                       "empty_windows": b["empty"],
                                       "task_switches_seen_tracked": b["switches"]}
                         for k, b in data.items()},
           "elapsed_s": elapsed,
           "times": "emulated (QEMU TCG): not hardware times"}
    with open(os.path.join(out, "results.json"), "w") as fh:
        json.dump(doc, fh, indent=1, sort_keys=True)
        fh.write("\n")
    with open(os.path.join(out, "results.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["config", "api", "dir", "entries", "iterations", "kernel",
                    "windows", "interrupted", "event", "per_call", "per_entry",
                    "min", "max", "mean_ns_emulated"])
        for r in all_rows:
            for k in KINDS:
                f = r[k]
                events = dict(f["per_call"])
                events["dsb_total"] = f["dsb_per_call"]
                events["dc_total"] = f["dc_per_call"]
                for ev in sorted(events):
                    mn, mx = f["min_max"].get(ev, ["", ""])
                    w.writerow([r["config"], r["api"], r["dir"], r["entries"],
                                r["iterations"], k, f["windows"],
                                f["interrupted"], ev, fnum(events[ev]),
                                "%.4f" % (events[ev] / r["entries"]), mn, mx,
                                "" if f["mean_ns"] is None else f["mean_ns"]])
    with open(os.path.join(out, "table.txt"), "w") as fh:
        fh.write(text)
    sys.stdout.write(text)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m report.cachesync")
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("table")
    p.add_argument("out")
    p.add_argument("--barry", default=None)
    p.add_argument("--elapsed", type=int, default=None)
    p = sub.add_parser("parse")
    p.add_argument("dcount")
    a = ap.parse_args(argv)
    try:
        if a.cmd == "parse":
            with open(a.dcount) as fh:
                json.dump(parse_dcount(fh), sys.stdout, indent=1, sort_keys=True)
            print()
        else:
            table(a.out, a.barry, a.elapsed)
    except ReportError as e:
        print("report.cachesync: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
