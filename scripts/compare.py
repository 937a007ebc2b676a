#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compare sweep results: before/after a patch, or memcpy vs memcpy_sg.

Each cell of B against the same cell of A, or (--prep) two prep modes
cell by cell inside one results file: for every figure A and B as mean +-
SD, the change (B - A) / A and Welch's t-test, "~" for a change within
the noise (p not below --alpha), and the geometric mean over the cells
both sides have; --json the same for scripts. Reads the results.json of
scripts/sweep.py; Documentation/sweeps.rst says more.
"""

import argparse
import json
import math
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from report import results, stats  # noqa: E402

# dmaengine: the tool's figures in ms and GB/s (results.Figures)
DMAENGINE_UNITS = ("ms", "GB/s")
MAP_FIGURES = ("map_us", "unmap_us")
SYNC_FIGURES = ("sync_cpu_us", "sync_device_us")	# the tool's --sync
HIGHER_IS_BETTER = {"gbps"}


def figure_stat(row, fig):
    """(mean, stddev, n) of a figure of a row; counts are exact
    (stddev 0)."""
    v = row.get(fig)
    if isinstance(v, dict):
        return v["mean"], v["stddev"], row.get("runs")
    if isinstance(v, (int, float)):
        return float(v), 0.0, row.get("runs")
    raise KeyError(fig)


def key_dict(kind, key, prep_mode=True):
    names = results.ROW_KEY[kind]
    return dict(zip(names if prep_mode or kind == "map" else names[1:], key))


def label_of(kind, key, prep_mode=True, folio_bytes=None):
    if kind == "map":
        return "{} granule={} threads={}".format(*key)
    head = f"{key[0]} " if prep_mode else ""
    if kind == "migrate":
        chan, order = key[1:] if prep_mode else key
        folio = results.format_size(folio_bytes) if folio_bytes else \
            f"order {order}"
        return f"{head}chan={chan} folio={folio}"
    chan, order, sge, depth, buffers, dst = key[1:] if prep_mode else key
    folio = results.format_size(folio_bytes) if folio_bytes else f"order {order}"
    if dst != order:
        folio += f" dst_order={dst}"
    return f"{head}chan={chan} folio={folio} sge={sge} depth={depth} {buffers}"


def compare_stat(a, b, alpha):
    """One comparison: a and b are (mean, stddev, n)."""
    out = {"a": {"mean": a[0], "stddev": a[1], "n": a[2]},
           "b": {"mean": b[0], "stddev": b[1], "n": b[2]},
           "delta_pct": stats.pct_change(a[0], b[0])}
    w = stats.welch(*a, *b) or {"t": None, "df": None, "p": None}
    out.update(t=w["t"], df=w["df"], p=w["p"],
               significant=None if w["p"] is None else bool(w["p"] < alpha))
    return out


def index_rows(kind, rows, key_fn, warnings, where, prep_key=True):
    idx = {}
    for r in rows:
        k = key_fn(r)
        # twice (e.g. --prep both,memcpy: prep_memcpy): the first that
        # succeeded
        if k not in idx or idx[k]["status"] != "ok":
            idx[k] = r
        elif r["status"] == "ok":
            warnings.append(
                f"{where}: {label_of(kind, k, prep_key, r.get('folio_bytes'))}"
                f" appears twice; the first (cell {idx[k]['cell']}) is used")
    return idx


def default_figures(kind, rows, figs):
    """The figures compared unless --figures: map, unmap and the syncs when
    timed; the times and the throughput, in the tool's order, one prep
    mode's (copy_ms, convert_ms) only when a row is that mode's."""
    if kind == "map":
        return MAP_FIGURES + tuple(f for f in SYNC_FIGURES
                                   if any(r.get(f) for r in rows))
    return tuple(figs.phases_of({r.get("prep_mode") for r in rows},
                                DMAENGINE_UNITS))


def compare(kind, pairs, figures, alpha, prep_key, figs):
    """pairs: [(key, row_a or None, row_b or None)] -> comparisons; figs:
    the dmaengine figures (results.Figures)."""
    out = []
    for fig in figures:
        for key, ra, rb in pairs:
            # a figure a side's prep mode does not have (prep_ms of the
            # CPU copy, copy_ms of a DMA mode): nothing to compare
            if kind in results.COPY_KINDS and not all(
                    figs.applies(r["prep_mode"], fig)
                    for r in (ra, rb) if r is not None):
                continue
            c = {"figure": fig, "key": key_dict(kind, key, prep_key),
                 "label": label_of(kind, key, prep_key,
                                   (ra or rb).get("folio_bytes"))}
            if ra is None or rb is None:
                c["status"] = "only_b" if ra is None else "only_a"
            elif ra["status"] != "ok" or rb["status"] != "ok":
                c["status"] = ("failed" if ra["status"] != "ok" and rb["status"] != "ok"
                               else "failed_a" if ra["status"] != "ok" else "failed_b")
                c["error"] = results.first_line(
                    (ra if ra["status"] != "ok" else rb).get("error"))
            else:
                try:
                    c.update(compare_stat(figure_stat(ra, fig),
                                          figure_stat(rb, fig), alpha),
                             status="ok")
                except KeyError:
                    c["status"] = "no_figure"
                else:
                    up = c["b"]["mean"] > c["a"]["mean"]
                    c["better"] = (up == (fig in HIGHER_IS_BETTER)
                                   if c["significant"] else None)
            out.append(c)
    return out


def geomeans(comparisons, figures):
    out = []
    for fig in figures:
        ok = [c for c in comparisons if c["figure"] == fig and c["status"] == "ok"]
        ga = stats.geomean(c["a"]["mean"] for c in ok)
        gb = stats.geomean(c["b"]["mean"] for c in ok)
        out.append({"figure": fig, "cells": len(ok), "a": ga, "b": gb,
                    "delta_pct": stats.pct_change(ga, gb)
                    if ga is not None and gb is not None else None})
    return out


def decimals(v):
    """2 decimals as the tool's table, more for small values."""
    a = abs(v)
    return 4 if 0 < a < 0.01 else 3 if a < 1 else 2


def fmt_num(v):
    return "-" if v is None else f"{v:.{decimals(v)}f}"


def fmt_delta(c):
    if c["status"] != "ok":
        return {"only_a": "only in A", "only_b": "only in B",
                "failed_a": "failed in A", "failed_b": "failed in B",
                "failed": "failed in both",
                "no_figure": "no such figure"}[c["status"]]
    n = f"n={c['a']['n']}+{c['b']['n']}"
    d = c["delta_pct"]
    ds = "n/a" if d is None else f"{d:+.2f}%"
    if c["p"] is None:
        return f"{ds} ? ({n}: too few runs to test)"
    if not c["significant"]:
        return f"~ (p={c['p']:.3f} {n})"
    return f"{ds} (p={c['p']:.3f} {n})"


def side(c, s):
    """A side's mean \u00b1 SD, the SD to the mean's precision."""
    return results.mean_sd(c[s], decimals(c[s]["mean"])) if c["status"] == "ok" else ""


def format_text(doc):
    lines = [f"# A: {doc['a']['name']}", f"# B: {doc['b']['name']}",
             f"# mean \u00b1 SD over n runs; delta (B - A) / A; '~': no "
             f"significant difference (Welch's t-test, p >= {doc['alpha']})"]
    for w in doc["warnings"]:
        lines.append(f"# warning: {w}")
    for fig in doc["figures"]:
        rows = [c for c in doc["comparisons"]
                if c["figure"] == fig and c["status"] == "ok"]
        if not rows:
            continue
        g = next(x for x in doc["geomeans"] if x["figure"] == fig)
        table = [[fig, doc["a"]["short"], doc["b"]["short"], "delta"]]
        for c in rows:
            table.append([c["label"], side(c, "a"), side(c, "b"), fmt_delta(c)])
        if g["cells"] > 1:
            table.append(["geomean", fmt_num(g["a"]), fmt_num(g["b"]),
                          "n/a" if g["delta_pct"] is None
                          else f"{g['delta_pct']:+.2f}%"])
        width = [max(len(r[i]) for r in table) for i in range(3)]
        lines.append("")
        for r in table:
            lines.append("  ".join(r[i].ljust(width[i]) for i in range(3))
                         + "  " + r[3])
    sig = [c for c in doc["comparisons"] if c.get("significant")]
    ok = [c for c in doc["comparisons"] if c["status"] == "ok"]
    skipped = {}	# a cell once, with why its first figure was not compared
    for c in doc["comparisons"]:
        if c["status"] != "ok":
            skipped.setdefault(c["label"], fmt_delta(c) + (
                f": {c['error']}" if c.get("error") else ""))
    if skipped:
        lines.append("")
        lines.append(f"# not compared ({len(skipped)} cell{'s' if len(skipped) > 1 else ''}):")
        width = max(len(lab) for lab in skipped)
        lines += [f"#   {lab.ljust(width)}  {why}" for lab, why in skipped.items()]
    lines.append("")
    if ok:
        lines.append(f"# {len(sig)} of {len(ok)} comparisons differ "
                     f"significantly (alpha {doc['alpha']})")
    else:
        lines.append("# nothing to compare: no cell succeeded on both sides")
    return "\n".join(lines).rstrip() + "\n"


def describe_file(path, res):
    s = res.get("system", {})
    vm = (res.get("params") or {}).get("vm")
    where = f", VM {vm['machine']}/{vm['dma_config']}" if vm else ""
    label = res.get("label") or ""
    return {"file": path, "label": label, "kernel": s.get("kernel"),
            "date": res.get("date"),
            "name": f"{path}{' (' + label + ')' if label else ''}: kernel "
                    f"{s.get('kernel') or '?'}{where}, {res.get('date') or '?'}",
            "short": label or short_name(path)}


def short_name(path):
    """before/results.json: before; after.json: after."""
    if os.path.basename(path) == "results.json":
        return os.path.basename(os.path.dirname(os.path.abspath(path)))
    return os.path.splitext(os.path.basename(path))[0]


def param_warnings(ra, rb):
    w = []
    pa, pb = ra.get("params", {}), rb.get("params", {})
    for k in ("bytes_per_channel", "bytes", "runs", "warmup_runs", "tool_args",
              "seconds", "src_node", "dst_node", "cpus"):
        if pa.get(k) != pb.get(k):
            w.append(f"--{k.replace('_', '-')} differs: {pa.get(k)!r} in A, "
                     f"{pb.get(k)!r} in B")
    fa = results.cpufreq_states(results.tool_docs(ra))
    fb = results.cpufreq_states(results.tool_docs(rb))
    if fa and fb and fa != fb:
        w.append(f"the CPU frequency state differs: {'; then '.join(fa)} in A, "
                 f"{'; then '.join(fb)} in B")
    return w


def build(args):
    warnings = []
    ra = results.load(args.files[0])
    kind = ra.get("kind", "dmaengine")
    figs = results.figures(ra)
    figures = args.figures or default_figures(kind, ra["rows"], figs)
    prep_key = not args.prep
    key_of = results.row_key if prep_key else results.cell_key

    def index(res, mode, where):
        rows = [r for r in res["rows"] if prep_key or r["prep_mode"] == mode]
        return index_rows(kind, rows, lambda r: key_of(kind, r), warnings,
                          where, prep_key)
    if args.prep:
        if kind not in results.COPY_KINDS:
            raise ValueError("--prep compares prep modes: a dmaengine or "
                             "migrate sweep is needed")
        ma, mb = args.modes
        a_idx, b_idx = index(ra, ma, "A"), index(ra, mb, "B")
        d = describe_file(args.files[0], ra)
        da = dict(d, name=f"{ma} in {d['name']}", short=ma)
        db = dict(d, name=f"{mb} in {d['name']}", short=mb)
    else:
        rb = results.load(args.files[1])
        figs = results.figures(ra, rb)
        if rb.get("kind", "dmaengine") != kind:
            raise ValueError(f"A is a {kind} sweep, B a {rb.get('kind')} sweep")
        a_idx, b_idx = index(ra, None, "A"), index(rb, None, "B")
        da = describe_file(args.files[0], ra)
        db = describe_file(args.files[1], rb)
        if da["short"] == db["short"]:
            da["short"], db["short"] = "A", "B"
        warnings += param_warnings(ra, rb)
    keys = list(a_idx) + [k for k in b_idx if k not in a_idx]
    # the order of the tables: that of sweep.py's table
    both = list(a_idx.values()) + list(b_idx.values())
    order = {key_of(kind, r): i
             for i, r in enumerate(results.sort_rows(kind, both))}
    keys.sort(key=lambda k: order.get(k, math.inf))
    pairs = [(k, a_idx.get(k), b_idx.get(k)) for k in keys]
    comps = compare(kind, pairs, figures, args.alpha, prep_key, figs)
    return {"kind": kind, "mode": "prep" if args.prep else "files",
            "alpha": args.alpha, "a": da, "b": db, "figures": list(figures),
            "warnings": warnings, "comparisons": comps,
            "geomeans": geomeans(comps, figures)}


def main(argv=None):
    p = argparse.ArgumentParser(
        prog="compare.py", description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
        "  scripts/compare.py before/results.json after/results.json\n"
        "  scripts/compare.py --prep sweep/results.json\n"
        "  scripts/compare.py --prep --modes prep_memcpy_sg,prep_memcpy_vec "
        "sweep/results.json\n"
        "  scripts/compare.py --figures wait_ms,gbps --alpha 0.01 A.json B.json\n"
        "  scripts/compare.py --json A.json B.json > delta.json\n")
    p.add_argument("files", nargs="+", metavar="RESULTS.json")
    p.add_argument("--prep", action="store_true",
                   help="compare two prep modes in one file (--modes)")
    p.add_argument("--modes", metavar="A,B", default="prep_memcpy,prep_memcpy_sg",
                   help="with --prep: B against A, of prep_memcpy, "
                   "prep_memcpy_sg, prep_memcpy_vec, cpu; "
                   "prep_memcpy_sg,prep_memcpy_vec compares the two batch "
                   "forms [%(default)s]")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="significance level of the t-test [%(default)s]")
    p.add_argument("--figures", type=lambda s: [x for x in s.split(",") if x],
                   help="figures to compare: dmaengine run_ms, prep_ms, "
                   "submit_ms, issue_ms, wait_ms, map_ms, unmap_ms, copy_ms, "
                   "convert_ms, prep_stalls, gbps, prep_calls, ... [run_ms,"
                   "prep_ms,submit_ms,issue_ms,wait_ms,map_ms,unmap_ms,gbps, "
                   "copy_ms with a cpu row, convert_ms with a "
                   "prep_memcpy_vec row]; map: map_us, unmap_us, sync_cpu_us, "
                   "sync_device_us, map_p99_us, ... [map_us,unmap_us, and "
                   "the syncs when timed]")
    p.add_argument("--json", action="store_true", help="print JSON")
    a = p.parse_args(argv)
    if len(a.files) != (1 if a.prep else 2):
        p.error("give two results files, or one with --prep")
    if not 0 < a.alpha < 1:
        p.error("--alpha must be between 0 and 1")
    a.modes = [m for m in a.modes.split(",") if m]
    if len(a.modes) != 2 or any(m not in results.PREP_MODES for m in a.modes) \
       or a.modes[0] == a.modes[1]:
        p.error(f"--modes needs two different prep modes of "
                f"{', '.join(results.PREP_MODES)}")
    a.figures = a.figures or None
    try:
        doc = build(a)
    except (OSError, ValueError, KeyError) as e:
        print(f"compare.py: {e}", file=sys.stderr)
        return 1
    except stats.NoScipy as e:
        print(f"compare.py: {e}", file=sys.stderr)
        return 2
    if a.json:
        # JSON has no infinities: a t of +-inf (both SDs 0) becomes null
        json.dump(results.remap(doc, leaf=lambda v: None if isinstance(v, float)
                                and not math.isfinite(v) else v),
                  sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(format_text(doc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
