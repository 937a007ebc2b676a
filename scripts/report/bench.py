# SPDX-License-Identifier: GPL-2.0-only
"""The reports of the benchmarks that are not sweeps (scripts/bench-*.sh).

Each script runs its guest side in a VM and hands what came back to one
command here (python3 -m report.bench COMMAND, through bench_report in
scripts/lib.sh):

kernels-cell JSON
    bench-kernels.sh's progress line of one cell: the median and the best
    GB/s of its runs (runs_gbps).
kernels-table OUTDIR LO HI LOAD_BEFORE LOAD_AFTER NCPU BENCH STOCK SGE
              BYTES RUNS "FOLIOS" APPEND
    bench-kernels.sh's results: reads OUTDIR/raw.txt, writes results.json,
    results.csv and table.txt there, prints the table; exit status 3 when
    a cell's ratios are both outside LO-HI.
overhead JSON
    bench-overhead.sh's table of the cost per descriptor and per batch of
    each phase, from the tool's dmaengine JSON.
soft-dma RAW
    bench-soft-dma.sh's table: medians and bests over the rounds, and the
    ratios, from the lines "CPUS ROUND NAME KB/s" of its guest side.
migrate-table RAW OUTDIR [--elapsed S] [--command CMD] [--estimate NAME
              BYTES RUNS WARMUP_RUNS CELLS] [-v]
    bench.sh -g's tables, shaped like the mail's first, from the lines
    "@migrate SOFT_DMA_MODE JSON" of its guest side (the tool's -m migrate
    JSON; SOFT_DMA_MODE copy or nocopy, or a board's driver, whose engine
    copied): per soft_dma mode, move_pages() GB/s mean +- SD, a line per
    folio size and row (the cpu row and each prep mode of the offload), a
    column per channel count; then the copy's share of the move in the
    same shape. Then the concurrency table, from its lines "@movers
    SOFT_DMA_MODE JSON" (the tool's -m migrate --movers N): a line per
    count of movers and row, the aggregate GB/s and the folios the offload
    declined and let fall back. Then what the run took (its "@time TAG
    SECONDS" lines and --elapsed) and, with --estimate, how long a run of
    those sizes would take at its pace. Writes results.json, results.csv,
    table.txt and phases.txt (the offload's phases a batch and a folio,
    the tool's -v tables gathered) in OUTDIR, prints table.txt (-v: and
    phases.txt).
"""

import argparse
import csv
import io
import json
import os
import sys

from report import results, stats, tool


def runs_gbps(doc):
    """GB/s of every timed run of a cell (the tool's JSON with --samples):
    bytes / wall time of the run."""
    return [s["bytes"] / (s["end_ns"] - s["start_ns"])
            for s in doc["samples"] if s["end_ns"] > s["start_ns"]]


def _load_json(path):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def kernels_cell(doc):
    """One cell's progress line: median and best GB/s of its runs."""
    v = runs_gbps(doc)
    return "median %.3f GB/s, best %.3f GB/s over %d runs" % (
        stats.median(v), max(v), len(v))


def kernels_cells(raw_lines, folios, lo, hi):
    """The cells of bench-kernels.sh from its raw.txt lines ("ROUND KIND
    kernel RELEASE" or "ROUND KIND FOLIO JSONFILE"): (releases by kind,
    one dict per folio of FOLIOS)."""
    kinds = ("bench", "stock")
    release, gbps, boots = {}, {}, {}
    for line in raw_lines:
        _, kind, what, rest = line.split(None, 3)
        if what == "kernel":
            release[kind] = rest.strip()
            continue
        gbps.setdefault((kind, what), []).extend(
            runs_gbps(_load_json(rest.strip())))
        boots[(kind, what)] = boots.get((kind, what), 0) + 1
    cells = []
    for f in folios:
        c = {"folio": f}
        for k in kinds:
            v = gbps[(k, f)]
            c[k] = {"median_gbps": stats.median(v), "best_gbps": max(v),
                    "runs": len(v), "boots": boots[(k, f)], "gbps": v}
        c["ratio_median"] = (c["bench"]["median_gbps"] /
                             c["stock"]["median_gbps"])
        c["ratio_best"] = c["bench"]["best_gbps"] / c["stock"]["best_gbps"]
        c["within"] = (lo <= c["ratio_median"] <= hi or
                       lo <= c["ratio_best"] <= hi)
        cells.append(c)
    return release, cells


def kernels_table(out, lo, hi, load0, load1, ncpu, bench, stock, sge, nbytes,
                  runs, folios, append):
    """bench-kernels.sh's results, written into OUT; prints the table and
    returns the exit status (3 when a cell is OUTSIDE)."""
    lo, hi = float(lo), float(hi)
    with open(os.path.join(out, "raw.txt"), encoding="utf-8") as fh:
        release, cells = kernels_cells(fh, folios.split(), lo, hi)
    bad = sum(not c["within"] for c in cells)
    doc = {
        "benchmark": "bench-kernels",
        "cell": {"mode": "dmaengine", "prep_modes": "memcpy",
                 "provider": "soft_dma", "channels": 1, "sge": int(sge),
                 "bytes": nbytes, "runs": int(runs), "append": append},
        "kernels": {"bench": {"machine": bench,
                              "release": release.get("bench")},
                    "stock": {"machine": stock,
                              "release": release.get("stock")}},
        "ratio_range": [lo, hi],
        "ratio_checked": "ratio_median or ratio_best within ratio_range",
        "host": {"cpus": int(ncpu), "load_before": load0,
                 "load_after": load1},
        "cells": cells,
    }
    with open(os.path.join(out, "results.json"), "w") as fh:
        json.dump(doc, fh, indent=2)
        fh.write("\n")
    with open(os.path.join(out, "results.csv"), "w") as fh:
        fh.write("folio,bench_median_gbps,stock_median_gbps,ratio_median,"
                 "bench_best_gbps,stock_best_gbps,ratio_best,within\n")
        for c in cells:
            fh.write("%s,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%d\n" % (
                c["folio"], c["bench"]["median_gbps"],
                c["stock"]["median_gbps"], c["ratio_median"],
                c["bench"]["best_gbps"], c["stock"]["best_gbps"],
                c["ratio_best"], c["within"]))
    n = cells[0]["bench"]["boots"]
    lines = [
        "soft_dma, --prep-modes memcpy, 1 channel, --sge %s, --bytes %s,"
        " %s runs x %d boot(s) of each kernel, GB/s" % (sge, nbytes, runs, n),
        "  bench: %s (%s)" % (release.get("bench"), bench),
        "  stock: %s (%s)" % (release.get("stock"), stock),
    ]
    if append:
        lines.append("  kernel command line of both: +%s" % append)
    lines += [
        "",
        "%-6s %21s %21s %21s" % ("", "median of the runs", "best run",
                                 "bench/stock"),
        "%-6s %10s %10s %10s %10s %10s %10s" % (
            "folio", "bench", "stock", "bench", "stock", "median", "best"),
    ]

    def ratio(x):
        return "%9.2f%s" % (x, " " if lo <= x <= hi else "*")

    for c in cells:
        lines.append("%-6s %10.3f %10.3f %10.3f %10.3f %s %s%s" % (
            c["folio"], c["bench"]["median_gbps"], c["stock"]["median_gbps"],
            c["bench"]["best_gbps"], c["stock"]["best_gbps"],
            ratio(c["ratio_median"]), ratio(c["ratio_best"]),
            "" if c["within"] else "  OUTSIDE"))
    lines += ["",
              "*: outside %.2f-%.2f; a cell is OUTSIDE (exit status 3) when"
              " both of its ratios are" % (lo, hi),
              "host load (1/5/15 min) before: %s, after: %s; %s CPU(s)" %
              (load0, load1, ncpu)]
    text = "\n".join(line.rstrip() for line in lines) + "\n"
    with open(os.path.join(out, "table.txt"), "w") as fh:
        fh.write(text)
    sys.stdout.write(text)
    return 3 if bad else 0


OVERHEAD_TIMED = ("prep_ms", "submit_ms", "issue_ms", "wait_ms", "map_ms",
                  "unmap_ms")


def overhead_lines(doc):
    """bench-overhead.sh's table, from the tool's dmaengine JSON: per
    result, the cost of prep and submit per descriptor, of issue and wait
    per batch, and the share of run_ms (per channel) outside the timed
    phases."""
    lines = ["# soft_dma nocopy: framework + benchmark cost, kernel %s"
             % doc.get("kernel"),
             "%-15s %12s %12s %12s %12s %10s" % (
                 "mode", "prep_ns/desc", "submit_ns/desc", "issue_ns/batch",
                 "wait_ns/batch", "outside")]
    for r in doc["results"]:
        def ms(k):
            return r[k]["mean"]
        timed = sum(ms(k) for k in OVERHEAD_TIMED) / r["chan"]
        outside = max(0.0, ms("run_ms") - timed) / ms("run_ms")
        lines.append("%-15s %12.0f %12.0f %12.0f %12.0f %9.1f%%" % (
            r["prep_mode"],
            ms("prep_ms") * 1e6 / r["prep_calls"],
            ms("submit_ms") * 1e6 / r["submits"],
            ms("issue_ms") * 1e6 / r["batches"],
            ms("wait_ms") * 1e6 / r["batches"],
            100 * outside))
    lines.append("# outside: the share of run_ms (per channel) not in prep,"
                 " submit, issue, wait, map or unmap; target <= 20 %")
    return lines


# bench-soft-dma.sh's measurements, in the table's order: what each is
# compared with, and its line in the table
SOFT_DMA_VS = {"dmatest": "ref1", "tool": "ref16", "engine": "ref16",
               "tool2": "tool", "tool4": "tool"}
SOFT_DMA_DESC = {
    "ref1": "memcpy(), 1 buffer pair (ref1)",
    "dmatest": "dmatest, 1 channel, 1 in flight",
    "ref16": "memcpy(), 16 buffer pairs (ref16)",
    "tool": "dmaengine mode, 1 channel, 16/batch",
    "engine": "  soft_dma copy time only",
    "tool2": "dmaengine mode, 2 channels",
    "tool4": "dmaengine mode, 4 channels",
}


def soft_dma_lines(raw_lines):
    """bench-soft-dma.sh's table from the lines "CPUS ROUND NAME KB/s"
    ("CPUS 0 cpus ONLINE" first for each CPUS): per CPUS and measurement,
    the median and the best over the rounds in MB/s, and against what it
    is compared with (SOFT_DMA_VS) the median of the ratios within a round
    and the ratio of the bests."""
    online, order = {}, []
    per_round, values = {}, {}
    for line in raw_lines:
        f = line.split()
        if not f:
            continue
        k, rnd, name = f[0], f[1], f[2]
        if name == "cpus":
            online[k] = int(f[3])
            order.append(k)
            continue
        x = float(f[3])
        per_round[k, rnd, name] = x
        values.setdefault((k, name), []).append(x)
        ref = per_round.get((k, rnd, SOFT_DMA_VS.get(name)))
        if ref:
            values.setdefault((k, "ratio_" + name), []).append(x / ref)

    def best(k, name):
        return max(values.get((k, name), [0]) + [0])

    lines = []
    for k in order:
        lines += ["", "%d online CPU(s), %d round(s), 2 MiB copies (MB/s):" % (
            online[k], len(values.get((k, "ref1"), [])))]
        lines.append("  %-36s %7s %7s  %-22s" % (
            "measurement", "median", "best", "ratio: median / bests"))
        for name, desc in SOFT_DMA_DESC.items():
            v = values.get((k, name))
            if not v:
                continue
            ref = SOFT_DMA_VS.get(name)
            ratios = values.get((k, "ratio_" + name))
            rt = ""
            if ratios and best(k, ref):
                rt = "%.2f / %.2f of %s" % (
                    stats.median(ratios), best(k, name) / best(k, ref), ref)
            lines.append("  %-36s %7.0f %7.0f  %s" % (
                desc, stats.median(v) * 1024 / 1e6,
                best(k, name) * 1024 / 1e6, rt))
    return lines


MIGRATE_SD_TITLE = {
    "copy": "soft_dma copying",
    "nocopy": "soft_dma nocopy: the offload path's own cost (the cpu "
              "row still copies)",
}


def migrate_provider(sd):
    """Who copies a cell's offload rows, as the tables name it: soft_dma
    in a mode (copy, nocopy), or a board's engine, whose cells are tagged
    with its driver's name (bench/migrate.sh's hw mode: xilinx-zynqmp-dma
    on arm64-zcu102-73)."""
    return "soft_dma %s" % sd if sd in MIGRATE_SD_TITLE else sd


def migrate_title(sd):
    return MIGRATE_SD_TITLE.get(sd, "%s copying (the board's engine)" % sd)


MIGRATE_TAGS = ("migrate", "movers")


def migrate_cells(raw_lines):
    """The "@migrate SOFT_DMA_MODE JSON" lines (the migration table) and
    the "@movers SOFT_DMA_MODE JSON" ones (the concurrency table): {tag:
    [(mode, doc)] in order}."""
    cells = {t: [] for t in MIGRATE_TAGS}
    for line in raw_lines:
        tag = line.split(" ", 1)[0][1:]
        if line.startswith("@") and tag in cells:
            _, sd, doc = line.split(" ", 2)
            cells[tag].append((sd, json.loads(doc)))
    return cells


def migrate_times(raw_lines):
    """The "@time TAG SECONDS" lines: {tag: seconds its cells took in the
    guest}."""
    times = {}
    for line in raw_lines:
        f = line.split()
        if len(f) == 3 and f[0] == "@time" and f[1] in MIGRATE_TAGS:
            times[f[1]] = int(f[2])
    return times


def migrate_phases(doc):
    """The offload's phases, in the tool's order (its MIGRATE_STATS_PHASES,
    as its JSON's figures name them: PHASE_us_per_batch), batch first."""
    suffix = "_us_per_batch"
    return [f["key"][:-len(suffix)] for f in doc.get("figures", [])
            if f["key"].endswith(suffix)]


def migrate_owners(doc):
    """Whose time the copy's share is, in the tool's order (its enum
    migrate_owner, as its JSON's figures name them: OWNER_share, beside
    copy_share): client, dma_api, dmaengine, engine."""
    return [f["key"][:-len("_share")] for f in doc.get("figures", [])
            if f["key"].endswith("_share") and f["key"] != "copy_share"]


def migrate_rows(cells, table="migrate"):
    """One dict per (soft_dma mode, order, channels, movers, prep mode)
    of TABLE's cells; the phases a batch and a folio (us) last."""
    rows = []
    for sd, doc in cells:
        par = doc["params"]
        phases = migrate_phases(doc)
        for r in doc["results"]:
            row = {
                "table": table, "movers": par.get("movers", 1),
                "soft_dma": sd, "folio_order": r["folio_order"],
                "folio_bytes": r["folio_bytes"], "channels": par["channels"],
                "prep_mode": r["prep_mode"], "chan_used": r["chan"],
                "folios": r["folios"], "runs": r["runs"],
                "bytes": r["bytes"],
                "gbps_mean": r["gbps"]["mean"],
                "gbps_stddev": r["gbps"]["stddev"],
                "offloaded": r["folios_offloaded"]["mean"],
                "fallback": r["folios_fallback"]["mean"],
                "declined": r["folios_declined"]["mean"],
                "copy_share": r["copy_share"]["mean"],
                "copy_share_stddev": r["copy_share"]["stddev"],
                "fell_back": doc["folios"]["fell_back"],
                # the kernel split the folios as it migrated them
                "split": r["folios"] * r["folio_bytes"] > r["bytes"],
                "batches": r.get("batches", {"mean": 0})["mean"],
            }
            for o in migrate_owners(doc):
                row["%s_share" % o] = r["%s_share" % o]["mean"]
            for scale in ("batch", "folio"):
                for p in phases:
                    k = "%s_us_per_%s" % (p, scale)
                    row[k] = r[k]["mean"]
            rows.append(row)
    return rows


def _mode_order(rows):
    """The prep modes of ROWS in the tool's order of its migrate rows
    (--list-modes): cpu first."""
    return [m for m in tool.rows("migrate")
            if any(r["prep_mode"] == m for r in rows)]


def _axes(rows):
    """The folio sizes ((order, bytes), smallest first) and the channel
    counts (fewest first) of ROWS."""
    folios = sorted({(r["folio_order"], r["folio_bytes"]) for r in rows})
    return folios, sorted({r["channels"] for r in rows})


def _row_notes(cells):
    """What the line of one folio size and row says after its figures,
    from its cells (one per channel count): whether every folio of every
    move was offloaded (offload rows; NOT ALL names the channel counts),
    whether the kernel gave smaller folios, or split them."""
    notes = []
    if cells and cells[0]["prep_mode"] != "cpu":
        short = [r["channels"] for r in cells
                 if r["offloaded"] != r["folios"] or r["fallback"]]
        notes.append("all" if not short else "NOT ALL (%s chan)" %
                     ", ".join(str(c) for c in short))
    else:
        notes.append("-")
    if any(r["fell_back"] for r in cells):
        notes.append("(smaller folios: see results.json)")
    split = max((r["folios"] for r in cells if r["split"]), default=0)
    if split:
        notes.append("(split by the kernel: %d folios moved)" % split)
    return " ".join(notes)


def _grid_lines(rows, modes, fmt, width, notes=True):
    """A grid: a line per folio size and row (of MODES), a column per
    channel count, each cell FMT(row), "-" where there is none."""
    folios, chans = _axes(rows)
    key = {(r["folio_order"], r["channels"], r["prep_mode"]): r
           for r in rows}
    lines = [("%-6s %-16s " % ("folio", "mode") +
              " ".join("%-*s" % (width, "%d chan" % c) for c in chans) +
              ("  offloaded" if notes else "")).rstrip()]
    for order, fbytes in folios:
        for m in modes:
            cells = [key[order, c, m] for c in chans if (order, c, m) in key]
            if not cells:
                continue
            line = "%-6s %-16s " % (results.format_size(fbytes), m) + " ".join(
                "%-*s" % (width, fmt(key[order, c, m])
                          if (order, c, m) in key else "-") for c in chans)
            if notes:
                line += "  " + _row_notes(cells)
            lines.append(line.rstrip())
    return lines


def migrate_table_lines(cells):
    """The mail-shaped tables, per soft_dma mode: the GB/s of each row,
    a line per folio size and row, a column per channel count; then the
    copy's share (the offload's batch time in the hook over the move's
    time) in the same shape, offload rows only."""
    rows = migrate_rows(cells)
    if not rows:
        return ["# no migrate results"]
    doc0 = cells[0][1]
    par = doc0["params"]
    modes = _mode_order(rows)
    lines = ["# move_pages() of %s, node %d -> %d, GB/s mean +- SD of %d "
             "runs; kernel %s" % (results.format_size(par["bytes"]), par["src_node"],
                                  par["dst_node"], par["runs"],
                                  doc0.get("kernel"))]
    for sd in dict.fromkeys(r["soft_dma"] for r in rows):
        sdrows = [r for r in rows if r["soft_dma"] == sd]
        lines += ["", "# " + migrate_title(sd)]
        lines += _grid_lines(sdrows, modes, lambda r: "%.3f \u00b1 %.3f" % (
            r["gbps_mean"], r["gbps_stddev"]), 17)
        offl = [m for m in modes if m != "cpu"]
        if not offl:
            continue
        lines += ["", "# %s: the copy's share of the move (batch time in "
                  "the hook / move_pages() time), mean +- SD" % migrate_provider(sd)]
        lines += _grid_lines(sdrows, offl, lambda r: "%.1f \u00b1 %.1f%%" % (
            100 * r["copy_share"], 100 * r["copy_share_stddev"]), 13,
            notes=False)
        lines += _owner_lines(sdrows, offl, migrate_owners(doc0), sd)
    return lines


def _lines_by_cell(rows, modes):
    """ROWS of MODES, a folio size, channel count and row each, in the
    tables' order (smallest folio, fewest channels, the tool's mode order
    first): (folio bytes, channels, mode, row) for each there is."""
    folios, chans = _axes(rows)
    key = {(r["folio_order"], r["channels"], r["prep_mode"]): r
           for r in rows}
    for order, fbytes in folios:
        for c in chans:
            for m in modes:
                if (order, c, m) in key:
                    yield fbytes, c, m, key[order, c, m]


def _owner_lines(rows, modes, owners, sd):
    """The copy's share of ROWS split by whose time it is (the tool's
    OWNER_share figures, in %): a line per folio size, channel count and
    row of MODES, a column per owner, the share itself first."""
    if not owners:
        return []
    lines = ["", "# %s: the copy's share split by whose time it is "
             "(%%, the means): the client's (build, mark, other), the DMA "
             "API's (map, unmap), the provider's dmaengine calls (prep, "
             "submit, issue), the engine's (wait)" % migrate_provider(sd),
             "%-6s %4s  %-16s %7s " % ("folio", "chan", "mode", "share") +
             " ".join("%9s" % o for o in owners)]
    for fbytes, c, m, r in _lines_by_cell(rows, modes):
        lines.append("%-6s %4d  %-16s %6.1f%% " % (
            results.format_size(fbytes), c, m, 100 * r["copy_share"]) +
            " ".join("%8.1f%%" % (100 * r["%s_share" % o]) for o in owners))
    return lines


MIGRATE_SCALES = (("batch", "batches", "over its batches (the declined ones "
                   "included)"),
                  ("folio", "folios", "over its folios"))


def migrate_phase_lines(cells):
    """The offload's phases, per soft_dma mode, a batch and a folio (us,
    the mean over the runs): a line per folio size, channel count and
    offload row, a column per phase (the tool's -v tables, gathered)."""
    rows = [r for r in migrate_rows(cells) if r["prep_mode"] != "cpu"]
    if not rows:
        return []
    phases = migrate_phases(cells[0][1])
    modes = _mode_order(rows)
    lines = []
    for sd in dict.fromkeys(r["soft_dma"] for r in rows):
        sdrows = [r for r in rows if r["soft_dma"] == sd]
        for scale, count, over in MIGRATE_SCALES:
            lines += ["", "# %s: the offload's phases a %s (us, mean of "
                      "the runs): STATS' phase times %s; %s: a move's" % (
                          migrate_provider(sd), scale, over, count),
                      "%-6s %4s  %-16s %8s " % ("folio", "chan", "mode", count) +
                      " ".join("%9s" % p for p in phases)]
            for fbytes, c, m, r in _lines_by_cell(sdrows, modes):
                lines.append("%-6s %4d  %-16s %8s " % (
                    results.format_size(fbytes), c, m, _count(r[count])) +
                    " ".join("%9.2f" % r["%s_us_per_%s" % (p, scale)]
                             for p in phases))
    return lines


def _count(x):
    """A count a run (a mean over the runs): whole when it is."""
    return "%.0f" % x if x == int(x) else "%.1f" % x


def movers_table_lines(cells):
    """The concurrency table: a line per folio size, channel count, count
    of movers and row, the aggregate GB/s (every mover's bytes over the
    time from the first start to the last end) and the folios the offload
    declined and let fall back a run (STATS over that time)."""
    rows = migrate_rows(cells, "movers")
    if not rows:
        return []
    order = list(tool.rows("migrate"))
    rows.sort(key=lambda r: (r["folio_order"], r["channels"], r["movers"],
                             order.index(r["prep_mode"])
                             if r["prep_mode"] in order else len(order)))
    sd, doc0 = cells[0]
    lines = ["", "# concurrent migrations, %s: N processes at "
             "once (--movers N), each moving %s of its own; GB/s: all of "
             "them over the time from the first start to the last end, "
             "mean +- SD of %d runs; declined, fallback: folios a run, "
             "STATS over that time" % (
                 "soft_dma copying" if sd == "copy" else migrate_provider(sd),
                 results.format_size(doc0["params"]["bytes"]),
                 doc0["params"]["runs"]),
             "%-6s %4s %6s  %-16s %-17s %8s %8s" % (
                 "folio", "chan", "movers", "mode", "GB/s", "declined",
                 "fallback")]
    for r in rows:
        cpu = r["prep_mode"] == "cpu"
        lines.append("%-6s %4d %6d  %-16s %-17s %8s %8s" % (
            results.format_size(r["folio_bytes"]), r["channels"],
            r["movers"], r["prep_mode"],
            "%.3f \u00b1 %.3f" % (r["gbps_mean"], r["gbps_stddev"]),
            "-" if cpu else _count(r["declined"]),
            "-" if cpu else _count(r["fallback"])))
    return lines


def migrate_estimate(times, elapsed, cells, movers, target):
    """Seconds a run of TARGET (bytes a move, runs, warm-up runs, number
    of migration cells) would take at this run's pace: its migration
    cells' guest time a cell, scaled by bytes and by runs + warm-ups,
    times TARGET's cells; its concurrency cells' (whose bytes are -b's
    either way) by runs + warm-ups; the rest of ELAPSED (build, boot,
    report) as it was. None without the times."""
    if "migrate" not in times or not cells or elapsed is None:
        return None
    tbytes, truns, twarm, tcells = target
    par = cells[0][1]["params"]
    reps = (truns + twarm) / (par["runs"] + par["warmup_runs"])
    est = (times["migrate"] / len(cells) * tcells * tbytes / par["bytes"] *
           reps)
    mov = times.get("movers", 0)
    if movers:
        mpar = movers[0][1]["params"]
        est += mov * (truns + twarm) / (mpar["runs"] + mpar["warmup_runs"])
    return est + max(0, elapsed - times["migrate"] - mov)


def _hours(s):
    return "%.0f s" % s if s < 600 else ("%.0f min" % (s / 60) if s < 7200
                                         else "%.1f h" % (s / 3600))


def migrate_run_lines(times, elapsed, command, estimate):
    """What the run was and took: the command, its time (the guest's
    cells apart), and ESTIMATE ((name, bytes, runs, warm-ups, cells,
    seconds)): a longer preset's time at this pace."""
    lines = []
    if command:
        lines.append("# command: %s" % command)
    if elapsed is not None:
        lines.append("# took %s: the migration cells %s, the concurrency "
                     "cells %s in the guest, the rest building and booting" % (
                         _hours(elapsed),
                         _hours(times["migrate"]) if "migrate" in times else "?",
                         _hours(times["movers"]) if "movers" in times else "-"))
    if estimate and estimate[-1] is not None:
        name, tbytes, truns, twarm, tcells, secs = estimate
        lines.append("# estimate: the %s preset (%s a move, %d runs after %d warm-up, "
                     "%d migration cells) would take about %s at this run's "
                     "pace (the migration cells scaled by bytes and by runs "
                     "+ warm-ups, the concurrency cells by runs + warm-ups)" % (
                         name, results.format_size(tbytes), truns, twarm,
                         tcells, _hours(secs)))
    return lines


def migrate_table(raw, outdir, elapsed=None, command=None, estimate=None,
                  verbose=False):
    """bench.sh -g's report: table.txt (the migration tables, the
    concurrency table, what the run took), phases.txt (the offload's
    phases a batch and a folio), results.json and results.csv in OUTDIR;
    prints table.txt, and phases.txt too when VERBOSE."""
    with open(raw, encoding="utf-8") as fh:
        raw_lines = fh.readlines()
    tagged = migrate_cells(raw_lines)
    times = migrate_times(raw_lines)
    cells, movers = tagged["migrate"], tagged["movers"]
    if estimate:
        name, tbytes, truns, twarm, tcells = estimate
        target = (int(tbytes), int(truns), int(twarm), int(tcells))
        estimate = (name,) + target + (
            migrate_estimate(times, elapsed, cells, movers, target),)
    lines = (migrate_table_lines(cells) + movers_table_lines(movers) +
             [""] + migrate_run_lines(times, elapsed, command, estimate))
    if lines[-1] == "":
        lines.pop()
    text = "".join(line + "\n" for line in lines)
    phases = "".join(line + "\n" for line in migrate_phase_lines(cells)[1:])
    rows = migrate_rows(cells) + migrate_rows(movers, "movers")
    os.makedirs(outdir, exist_ok=True)
    run = {"command": command, "elapsed_s": elapsed, "guest_s": times}
    if estimate:
        run["estimate"] = dict(zip(("name", "bytes", "runs", "warmup_runs",
                                    "cells", "seconds"), estimate))
    with open(os.path.join(outdir, "results.json"), "w",
              encoding="utf-8") as fh:
        json.dump({"cells": [{"soft_dma": sd, "tool": doc}
                             for sd, doc in cells],
                   "movers": [{"soft_dma": sd, "tool": doc}
                              for sd, doc in movers],
                   "run": run}, fh, indent=1)
    buf = io.StringIO()
    if rows:
        w = csv.DictWriter(buf, fieldnames=list(rows[0]),
                           lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    for name, body in (("results.csv", buf.getvalue()), ("table.txt", text),
                       ("phases.txt", phases)):
        with open(os.path.join(outdir, name), "w", encoding="utf-8") as fh:
            fh.write(body)
    sys.stdout.write(text)
    if verbose and phases:
        sys.stdout.write("\n" + phases)
    return 0 if cells else 1


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m report.bench",
                                 description="The bench-*.sh scripts' reports.")
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("kernels-cell", help="one bench-kernels cell's line")
    p.add_argument("json")
    p = sub.add_parser("kernels-table", help="bench-kernels' results")
    for a in ("out", "lo", "hi", "load0", "load1", "ncpu", "bench", "stock",
              "sge", "nbytes", "runs", "folios", "append"):
        p.add_argument(a)
    p = sub.add_parser("overhead", help="bench-overhead's table")
    p.add_argument("json")
    p = sub.add_parser("soft-dma", help="bench-soft-dma's table")
    p.add_argument("raw")
    p = sub.add_parser("migrate-table", help="bench.sh -g's table")
    p.add_argument("raw")
    p.add_argument("out")
    p.add_argument("--elapsed", type=float, help="the run's seconds")
    p.add_argument("--command", dest="cmdline",
                   help="the run's command line")
    p.add_argument("--estimate", nargs=5,
                   metavar=("NAME", "BYTES", "RUNS", "WARMUP_RUNS", "CELLS"),
                   help="estimate a run of these at this run's pace")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="print the phase tables too")
    a = ap.parse_args(argv)
    if a.command == "kernels-cell":
        print(kernels_cell(_load_json(a.json)))
    elif a.command == "kernels-table":
        return kernels_table(a.out, a.lo, a.hi, a.load0, a.load1, a.ncpu,
                             a.bench, a.stock, a.sge, a.nbytes, a.runs,
                             a.folios, a.append)
    elif a.command == "migrate-table":
        return migrate_table(a.raw, a.out, a.elapsed, a.cmdline,
                             a.estimate, a.verbose)
    elif a.command == "overhead":
        print("\n".join(overhead_lines(_load_json(a.json))))
    else:
        with open(a.raw, encoding="utf-8") as fh:
            lines = soft_dma_lines(fh)
        sys.stdout.write("".join(line + "\n" for line in lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
