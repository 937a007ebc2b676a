# SPDX-License-Identifier: GPL-2.0-only
"""scripts/bench-hook-off.sh's report: what the page-migration copy-offload
hook costs when no provider is registered.

python3 -m report.hookoff line JSON
    the progress line of one folio order of one boot: the cpu row's
    move_pages() GB/s, mean +- SD over its runs.
python3 -m report.hookoff table OUTDIR [--bytes ... see --help]
    reads OUTDIR/raw.txt, the lines of the script ("ROUND KIND kernel
    RELEASE VERSION", "ROUND KIND hook yes|no", "ROUND KIND ORDER
    JSONFILE", KIND hook or nohook), and writes into OUTDIR:
    hook.json and nohook.json, every kernel's runs in the results format
    of scripts/sweep.py (kind migrate, a cpu row per folio order: GB/s
    mean and SD over all the runs of all its boots, pooled exactly from
    each boot's mean, SD and count, which is what the tool reports);
    hook-boots.json and nohook-boots.json, the same over the boots' means
    (n = boots); compare.txt and compare-boots.txt, scripts/compare.py's
    tables of nohook (A) against hook (B); results.json, results.csv and
    table.txt: per folio order the mean GB/s with and without the hook,
    their ratio and Welch's p-value (compare.py's), over the runs and over
    the boots. Prints the table. Exit status 1 when a boot's kernel is
    not the one asked for (HOOK says which) or a result is missing.
"""

import argparse
import csv
import datetime
import json
import math
import os
import subprocess
import sys

from report import results

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
COMPARE = os.path.join(TOP, "scripts", "compare.py")
KINDS = ("hook", "nohook")
# what the guest must find: the hook's sysfs directory, or none
HOOK_SEEN = {"hook": "yes", "nohook": "no"}


class ReportError(Exception):
    """What makes the results unusable."""


def cpu_row(doc):
    """The cpu row of the tool's -m migrate JSON."""
    for r in doc.get("results", []):
        if r.get("prep_mode") == "cpu":
            return r
    raise ReportError("the tool's JSON has no cpu row")


def line(doc):
    r = cpu_row(doc)
    return "%.4f \u00b1 %.4f GB/s over %d runs (%d folios moved)" % (
        r["gbps"]["mean"], r["gbps"]["stddev"], r["runs"], r["folios"])


def pool(groups):
    """(mean, sample SD, n) of all the values of GROUPS [(mean, SD, n)],
    each a group's mean, sample SD (n - 1) and count: exact, as if from
    the values themselves."""
    groups = [g for g in groups if g[2] > 0]
    n = sum(g[2] for g in groups)
    if not n:
        raise ReportError("no runs to pool")
    mean = sum(m * k for m, _, k in groups) / n
    if n < 2:
        return mean, 0.0, n
    ss = sum((k - 1) * s * s + k * (m - mean) ** 2 for m, s, k in groups)
    return mean, math.sqrt(ss / (n - 1)), n


def mean_sd(values):
    n = len(values)
    m = sum(values) / n
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return m, sd, n


def read_raw(lines):
    """raw.txt -> (releases {kind: "release version"}, hooks {(kind,
    round): yes|no}, boots {(kind, order): [(round, tool JSON)]})."""
    releases, hooks, boots = {}, {}, {}
    for ln in lines:
        if not ln.strip():
            continue
        rnd, kind, what, rest = ln.split(None, 3)
        if kind not in KINDS:
            raise ReportError(f"raw.txt: unknown kernel kind {kind!r}")
        rest = rest.strip()
        if what == "kernel":
            releases.setdefault(kind, rest)
        elif what == "hook":
            hooks[(kind, int(rnd))] = rest
        else:
            with open(rest, encoding="utf-8") as fh:
                boots.setdefault((kind, int(what)), []).append(
                    (int(rnd), json.load(fh)))
    return releases, hooks, boots


def check_hooks(hooks):
    """Each boot booted the kernel it was meant to: the hook's sysfs
    directory on the hook kernel only."""
    bad = [f"round {r}: the {k} kernel says HOOK {v}, not {HOOK_SEEN[k]}"
           for (k, r), v in sorted(hooks.items()) if v != HOOK_SEEN[k]]
    if bad:
        raise ReportError("; ".join(bad))


def sweep_doc(kind, label, rows, release, params, figures, date):
    """A results file compare.py reads (scripts/sweep.py's format,
    Documentation/sweeps.rst), of kind migrate."""
    return {"format": results.FORMAT, "format_version": results.FORMAT_VERSION,
            "kind": "migrate", "label": label, "date": date,
            "command": ["scripts/bench-hook-off.sh", f"({kind} kernel)"],
            "params": params,
            "system": {"where": "vm", "kernel": release},
            "cells": [], "rows": rows, "tool_figures": figures}


def sweep_rows(boots, kind, orders, per_boot):
    """The cpu rows of KIND, one per folio order: GB/s and move_ms over
    all runs (pooled), or over the boots' means (PER_BOOT)."""
    rows = []
    for i, o in enumerate(orders):
        got = boots.get((kind, o))
        if not got:
            raise ReportError(f"no result of the {kind} kernel for folio order {o}")
        cpu = [cpu_row(doc) for _, doc in got]
        row = {"cell": i, "status": "ok", "error": None, "prep_mode": "cpu",
               "channels": got[0][1]["params"]["channels"],
               "chan": cpu[0]["chan"], "folio_order": o,
               "folio_bytes": cpu[0]["folio_bytes"],
               "folios": max(r["folios"] for r in cpu),
               "bytes": cpu[0]["bytes"]}
        for fig in ("gbps", "move_ms"):
            if per_boot:
                m, sd, n = mean_sd([r[fig]["mean"] for r in cpu])
            else:
                m, sd, n = pool([(r[fig]["mean"], r[fig]["stddev"], r["runs"])
                                 for r in cpu])
            row[fig] = {"mean": m, "stddev": sd}
        row["runs"] = n
        rows.append(row)
    return rows


def run_compare(a, b, text_out):
    """scripts/compare.py of B against A on GB/s: its JSON, and its table
    kept in TEXT_OUT. Run as a program: its #! is the python with SciPy."""
    args = [COMPARE, "--figures", "gbps", a, b]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode:
        raise ReportError(f"compare.py failed: {p.stderr.strip()}")
    with open(text_out, "w", encoding="utf-8") as fh:
        fh.write(p.stdout)
    p = subprocess.run(args[:1] + ["--json"] + args[1:], capture_output=True,
                       text=True)
    if p.returncode:
        raise ReportError(f"compare.py --json failed: {p.stderr.strip()}")
    return json.loads(p.stdout)


def by_order(doc):
    return {c["key"]["folio_order"]: c for c in doc["comparisons"]
            if c["figure"] == "gbps" and c["status"] == "ok"}


def fmt_p(p):
    return "-" if p is None else ("%.3f" % p if p >= 0.001 else "%.1e" % p)


def table(out, a):
    orders = [int(o) for o in a.orders.split()]
    with open(os.path.join(out, "raw.txt"), encoding="utf-8") as fh:
        releases, hooks, boots = read_raw(fh)
    check_hooks(hooks)
    for k in KINDS:
        if not any(kk == k for kk, _ in hooks):
            raise ReportError(f"no boot of the {k} kernel")
    doc0 = boots[(KINDS[0], orders[0])][0][1] if (KINDS[0], orders[0]) in boots \
        else None
    figures = {k: doc0[k] for k in ("figures", "table")} if doc0 else None
    date = datetime.datetime.now(datetime.timezone.utc).isoformat(
        timespec="seconds")
    params = {"bytes": a.bytes, "runs": int(a.runs),
              "warmup_runs": int(a.warmup), "prep_modes": "cpu",
              "tool_args": "-m migrate -p cpu"}
    files = {}
    for per_boot, suffix in ((False, ""), (True, "-boots")):
        for k in KINDS:
            rows = sweep_rows(boots, k, orders, per_boot)
            path = os.path.join(out, f"{k}{suffix}.json")
            results.save(sweep_doc(k, k, rows, releases.get(k), params,
                                   figures, date), path)
            files[k, suffix] = path
    cmp_runs = by_order(run_compare(files["nohook", ""], files["hook", ""],
                                    os.path.join(out, "compare.txt")))
    cmp_boots = by_order(run_compare(files["nohook", "-boots"],
                                     files["hook", "-boots"],
                                     os.path.join(out, "compare-boots.txt")))
    cells = []
    for o in orders:
        c, cb = cmp_runs[o], cmp_boots[o]
        hook, nohook = c["b"]["mean"], c["a"]["mean"]
        got = {k: boots[(k, o)] for k in KINDS}
        cpu = {k: [cpu_row(d) for _, d in got[k]] for k in KINDS}
        cells.append({
            "folio_order": o, "folio_bytes": cpu["hook"][0]["folio_bytes"],
            "hook": {"gbps_mean": hook, "gbps_stddev": c["b"]["stddev"],
                     "runs": c["b"]["n"], "boots": len(got["hook"]),
                     "boot_means": [r["gbps"]["mean"] for r in cpu["hook"]]},
            "nohook": {"gbps_mean": nohook, "gbps_stddev": c["a"]["stddev"],
                       "runs": c["a"]["n"], "boots": len(got["nohook"]),
                       "boot_means": [r["gbps"]["mean"] for r in cpu["nohook"]]},
            "ratio": hook / nohook,
            "p_runs": c["p"], "t_runs": c["t"], "df_runs": c["df"],
            "p_boots": cb["p"],
            # the kernel split or fell back: another folio size moved
            "folios_moved": sorted({r["folios"] for k in KINDS for r in cpu[k]}),
            "fell_back": any(d["folios"]["fell_back"]
                             for k in KINDS for _, d in got[k]),
        })
    doc = {
        "benchmark": "bench-hook-off",
        "what": "move_pages() GB/s of the tool's -m migrate cpu row, no "
                "module loaded: the bench kernel (hook compiled in, no "
                "provider) against the same kernel with "
                "CONFIG_MIGRATION_COPY_OFFLOAD=n",
        "params": dict(params, orders=orders, machine=a.machine,
                       append=a.append),
        "kernels": {"hook": {"dir": a.hook_kernel,
                             "release": releases.get("hook")},
                    "nohook": {"dir": a.nohook_kernel,
                               "release": releases.get("nohook")}},
        "host": {"cpus": int(a.cpus), "load_before": a.load_before,
                 "load_after": a.load_after},
        "date": date,
        "cells": cells,
    }
    with open(os.path.join(out, "results.json"), "w", encoding="utf-8") as fh:
        json.dump(doc, fh, indent=1)
        fh.write("\n")
    with open(os.path.join(out, "results.csv"), "w", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["folio_order", "folio_bytes", "hook_gbps_mean",
                    "hook_gbps_stddev", "hook_runs", "nohook_gbps_mean",
                    "nohook_gbps_stddev", "nohook_runs", "ratio", "p_runs",
                    "p_boots"])
        for c in cells:
            w.writerow([c["folio_order"], c["folio_bytes"],
                        "%.6f" % c["hook"]["gbps_mean"],
                        "%.6f" % c["hook"]["gbps_stddev"], c["hook"]["runs"],
                        "%.6f" % c["nohook"]["gbps_mean"],
                        "%.6f" % c["nohook"]["gbps_stddev"],
                        c["nohook"]["runs"], "%.4f" % c["ratio"],
                        "" if c["p_runs"] is None else "%.4g" % c["p_runs"],
                        "" if c["p_boots"] is None else "%.4g" % c["p_boots"]])
    nboots = cells[0]["hook"]["boots"] if cells else 0
    lines = [
        "move_pages() of %s node 0 -> 1, the CPU's copy (-m migrate -p cpu, "
        "no module), %s runs after %s warm-up a boot, %d boot(s) of each "
        "kernel, alternating; GB/s" % (a.bytes, a.runs, a.warmup, nboots),
        "  hook:   %s, CONFIG_MIGRATION_COPY_OFFLOAD=y, no provider (%s)" %
        (releases.get("hook"), a.hook_kernel),
        "  nohook: %s, the same with CONFIG_MIGRATION_COPY_OFFLOAD=n (%s)" %
        (releases.get("nohook"), a.nohook_kernel),
    ]
    if a.append:
        lines.append("  kernel command line of both: +%s" % a.append)
    lines += ["",
              "%-6s %-17s %-17s %-7s %-8s %-8s" % (
                  "folio", "hook", "nohook", "ratio", "p runs", "p boots")]
    for c in cells:
        note = ""
        if c["fell_back"] or len(c["folios_moved"]) > 1:
            note = "  (folios moved: %s)" % ", ".join(map(str, c["folios_moved"]))
        lines.append("%-6s %-17s %-17s %-7s %-8s %-8s%s" % (
            results.format_size(c["folio_bytes"]),
            "%.4f \u00b1 %.4f" % (c["hook"]["gbps_mean"], c["hook"]["gbps_stddev"]),
            "%.4f \u00b1 %.4f" % (c["nohook"]["gbps_mean"],
                                  c["nohook"]["gbps_stddev"]),
            "%.3f" % c["ratio"], fmt_p(c["p_runs"]), fmt_p(c["p_boots"]), note))
    lines += ["",
              "mean \u00b1 SD over all runs of all boots; ratio hook/nohook; "
              "Welch's t-test (scripts/compare.py) over the runs (n = %s "
              "each) and over the boots' means (n = %d)" % (
                  cells[0]["hook"]["runs"] if cells else 0, nboots),
              "host load (1/5/15 min) before: %s, after: %s; %s CPU(s)" % (
                  a.load_before, a.load_after, a.cpus)]
    text = "\n".join(ln.rstrip() for ln in lines) + "\n"
    with open(os.path.join(out, "table.txt"), "w", encoding="utf-8") as fh:
        fh.write(text)
    sys.stdout.write(text)
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m report.hookoff",
                                 description="bench-hook-off.sh's report.")
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("line", help="one folio order of one boot")
    p.add_argument("json")
    p = sub.add_parser("table", help="the results")
    p.add_argument("out")
    for opt, default in (("bytes", "32M"), ("runs", "10"), ("warmup", "1"),
                         ("orders", "0 9"), ("machine", "x86-bench"),
                         ("append", ""), ("load-before", "?"),
                         ("load-after", "?"), ("cpus", "0"),
                         ("hook-kernel", None), ("nohook-kernel", None)):
        p.add_argument("--" + opt, default=default)
    a = ap.parse_args(argv)
    try:
        if a.command == "line":
            with open(a.json, encoding="utf-8") as fh:
                print(line(json.load(fh)))
            return 0
        return table(a.out, a)
    except (ReportError, OSError, ValueError, KeyError) as e:
        print(f"report.hookoff: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
