# SPDX-License-Identifier: GPL-2.0-only
"""The sweep's results file and the views of it: table, CSV, cell keys.

A results file (results.json, written by scripts/sweep.py) is one JSON
object:

  format, format_version   "dma-bench-sweep", 3 (load() reads 1 and 2)
  kind                     "dmaengine" or "map"
  label, date, duration_s, command
  params                   every parameter of the sweep
  system                   where it ran: kernel, CPU model, NUMA layout,
                           tool version, providers and channels, ...
  cells                    one per tool invocation (dmaengine) or group of
                           invocations (map): its parameters, argv, status
                           ("ok" or "failed"), the message of a failure,
                           elapsed_s, and the tool's JSON ("tool", or
                           "runs" for map cells)
  rows                     one per cell and prep mode (dmaengine) or per
                           cell (map): the figures the table, the CSV,
                           compare.py and plot.py read

A dmaengine row holds the tool's result object (prep_mode, chan,
folio_order, folio_bytes, sge, depth, buffers, runs, bytes, prep_calls,
submits, batches, segments, and {mean, stddev} for each of PHASES) plus
cell, status, error and channels (the count asked for; chan is the count
used).
prep_mode is prep_memcpy, prep_memcpy_sg, prep_memcpy_vec (one
dmaengine_prep_dma_memcpy_vec() a batch: convert_ms, the part of prep_ms
building its dma_vec arrays, 0 in the other modes) or cpu (the CPU copy:
copy_ms, and 0 for the DMA phases); rows of a tool with --dst-folio-order also
hold dst_folio_order and dst_folio_bytes. Rows of a tool from before
memcpy_vec lack convert_ms (read as none). Format 1 files (before the cpu mode) lack depth,
buffers, copy_ms and prep_stalls: their rows read as depth 1, buffers
reuse, which is what that tool did. A map row holds
mode, granule, threads, seconds, runs (invocations), and for each
operation OP of MAP_OPS the run measured: OP_us ({mean, stddev} over the
invocations' means), OP_stddev_us (the kernel's within-run standard
deviation, {mean, stddev} over the invocations), OP_p99_us and OP_count
(with the extended interface), plus cell, status, error.
"""

import csv
import io
import json

FORMAT = "dma-bench-sweep"
FORMAT_VERSION = 3
# Keys a version renamed (one name for one parameter, from the ABI to the
# tool's options and JSON to the results): load() gives an older file's
# keys, wherever they are, their new names, so that a sweep can be
# compared with one made before. {version: {old name: new name}}, and
# RENAMED_PARAMS for the keys of the sweep's params alone
RENAMED = {
    3: dict({"trans_delay_ns": "dma_trans_ns", "warmup": "warmup_runs",
             "sd": "stddev", "sd_ns": "stddev_ns", "dir": "dma_dir"},
            **{f"{op}_sd_us": f"{op}_stddev_us"
               for op in ("map", "unmap", "sync_cpu", "sync_device")}),
}
RENAMED_PARAMS = {
    3: {"bytes": "bytes_per_channel"},	# rows' bytes is a count
}

# in the tool's order: the DMA forms, then the CPU copy
PREP_MODES = ("prep_memcpy", "prep_memcpy_sg", "prep_memcpy_vec", "cpu")
DMA_MODES = PREP_MODES[:3]
# the sweep's --prep words: the modes a call asks for; "auto" passes no
# --prep, and the tool runs those of the four this kernel has
PREP_OF_OPTION = {"memcpy": ("prep_memcpy",), "memcpy_sg": ("prep_memcpy_sg",),
                  "memcpy_vec": ("prep_memcpy_vec",), "cpu": ("cpu",),
                  "both": PREP_MODES[:2], "all": PREP_MODES,
                  "auto": PREP_MODES}

# dmaengine figures, in the tool's order; prep_stalls is a count, gbps
# GB/s, the rest milliseconds
PHASES = ("run_ms", "prep_ms", "submit_ms", "issue_ms", "wait_ms", "map_ms",
          "unmap_ms", "copy_ms", "convert_ms", "prep_stalls", "gbps")
COUNTS = ("bytes", "prep_calls", "submits", "batches", "segments")
# what the cpu mode does not have, and what only it has
DMA_ONLY = {"prep_ms", "submit_ms", "issue_ms", "wait_ms", "map_ms",
            "unmap_ms", "prep_stalls", "prep_calls", "submits"}
CPU_ONLY = {"copy_ms"}
VEC_ONLY = {"convert_ms"}	# memcpy_vec's alone
DEFAULT_DEPTH = 1
FORMAT1_BUFFERS = "reuse"	# the tool before --buffers
# map operations: map and unmap always, the syncs with the tool's --sync
MAP_OPS = ("map", "unmap", "sync_cpu", "sync_device")
MAP_FIGURES = tuple(f"{op}{s}" for op in MAP_OPS
                    for s in ("_us", "_stddev_us", "_p99_us"))
MAP_MODES = ("single", "sg")

# The reference table: headings and minimum widths (wider values widen).
DMAENGINE_COLUMNS = (("mode", 14), ("chan", 4), ("folio", 5), ("sge", 3),
                     ("run_ms", 15), ("prep_ms", 14), ("submit_ms", 13),
                     ("issue_ms", 11), ("wait_ms", 17), ("map_ms", 13),
                     ("unmap_ms", 13), ("copy_ms", 15), ("convert_ms", 13),
                     ("prep_calls", 10),
                     ("GB/s", 11))
# after sge, when a sweep varies them
DMAENGINE_SETUP_COLUMNS = (("depth", 5), ("buffers", 8))
MAP_COLUMNS = (("mode", 6), ("granule", 7), ("threads", 7), ("map_us", 15),
               ("unmap_us", 15), ("map_stddev_us", 13),
               ("unmap_stddev_us", 15),
               ("runs", 4))
# with --sync, after unmap_stddev_us
MAP_SYNC_COLUMNS = (("sync_cpu_us", 15), ("sync_device_us", 15))

DMAENGINE_CSV = (("cell", "status", "mode", "channels", "chan", "folio_order",
                  "folio_bytes", "sge", "depth", "buffers", "runs") + COUNTS
                 + tuple(f"{p}_{s}" for p in PHASES for s in ("mean", "stddev"))
                 + ("error",))
MAP_CSV = (("cell", "status", "mode", "granule", "threads", "seconds", "runs")
           + tuple(f"{f}_{s}" for f in MAP_FIGURES for s in ("mean", "stddev"))
           + ("error",))


def format_size(n):
    """The tool's size labels: 4KB, 64KB, 2MB, 1GB, else bytes (units.c)."""
    for shift, name in ((40, "TB"), (30, "GB"), (20, "MB"), (10, "KB")):
        unit = 1 << shift
        if n >= unit and not n & (unit - 1):
            return f"{n >> shift}{name}"
    return f"{n}B"


def load(path):
    with open(path, encoding="utf-8") as f:
        res = json.load(f)
    if res.get("format") != FORMAT:
        raise ValueError(f"{path}: not a sweep results file (format "
                         f"{res.get('format')!r}, want {FORMAT!r})")
    if res.get("format_version", 0) > FORMAT_VERSION:
        raise ValueError(f"{path}: format_version {res['format_version']} is "
                         f"newer than this script's {FORMAT_VERSION}")
    return upgrade(res)


def _rename_keys(v, names):
    if isinstance(v, dict):
        return {names.get(k, k): _rename_keys(x, names) for k, x in v.items()}
    if isinstance(v, list):
        return [_rename_keys(x, names) for x in v]
    return v


def upgrade(res):
    """An older results file with the keys of this FORMAT_VERSION (its
    format_version stays what it was: what it lacks, it still lacks)."""
    version = res.get("format_version", 1)
    for since in sorted(RENAMED):
        if version < since:
            res = _rename_keys(res, RENAMED[since])
    for since in sorted(RENAMED_PARAMS):
        if version < since and isinstance(res.get("params"), dict):
            names = RENAMED_PARAMS[since]
            res["params"] = {names.get(k, k): v
                             for k, v in res["params"].items()}
    return res


def save(res, path):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(res, f, indent=1, sort_keys=False)
        f.write("\n")
    import os
    os.replace(tmp, path)


def prep_index(mode):
    return PREP_MODES.index(mode) if mode in PREP_MODES else len(PREP_MODES)


def figure_applies(prep_mode, figure):
    """Whether a row of prep_mode has figure (else the tool prints '-')."""
    if figure in VEC_ONLY:
        return prep_mode == "prep_memcpy_vec"
    if prep_mode == "cpu":
        return figure not in DMA_ONLY
    return figure not in CPU_ONLY


def depth_of(row):
    return row.get("depth", DEFAULT_DEPTH)


def buffers_of(row):
    return row.get("buffers", FORMAT1_BUFFERS)


def dst_order_of(row):
    """The destination folio order: the source's unless --dst-folio-order."""
    return row.get("dst_folio_order", row["folio_order"])


def row_key(kind, row):
    """What identifies a row across results files (compare.py)."""
    if kind == "map":
        return (row["mode"], row["granule"], row["threads"])
    return (row["prep_mode"], row["channels"], row["folio_order"], row["sge"],
            depth_of(row), buffers_of(row), dst_order_of(row))


def cell_key(kind, row):
    """A row's key without the prep mode (compare.py --prep)."""
    return row_key(kind, row)[1:]


def key_label(kind, key, with_mode=True):
    if kind == "map":
        mode, granule, threads = key
        s = f"granule {granule} threads {threads}"
        return f"{mode} {s}" if with_mode else s
    if with_mode:
        mode, chan, order, sge, depth, buffers, dst = key
    else:
        chan, order, sge, depth, buffers, dst = key
    s = f"chan {chan} order {order} sge {sge} depth {depth} {buffers}"
    if dst != order:
        s += f" dst order {dst}"
    return f"{mode} {s}" if with_mode else s


def sort_rows(kind, rows):
    if kind == "map":
        return sorted(rows, key=lambda r: (MAP_MODES.index(r["mode"])
                                           if r["mode"] in MAP_MODES else 9,
                                           r["threads"], r["granule"]))
    return sorted(rows, key=lambda r: (prep_index(r["prep_mode"]),
                                       r["channels"], r["folio_order"],
                                       r["sge"], depth_of(r), buffers_of(r)))


def _display_width(s):
    return len(s)


def _ms(stat, decimals=2):
    return f"{stat['mean']:.{decimals}f} \u00b1 {stat['stddev']:.{decimals}f}"


def first_line(msg, limit=120):
    """The line of a tool's stderr that says why, shortened for a table."""
    lines = [ln.strip() for ln in (msg or "").splitlines() if ln.strip()]
    # the tool prints the failed call first and the diagnosis after it
    line = lines[-1] if lines else "failed"
    if line.startswith("dma_map_benchmark: "):
        line = line[len("dma_map_benchmark: "):]
    return line if len(line) <= limit else line[:limit - 3] + "..."


def _layout(columns, rows):
    """Left-aligned text table; a row shorter than the heading ends with
    one cell spanning the rest (a failure's message)."""
    ncols = len(columns)
    width = [w for _, w in columns]
    for cells in rows:
        for i, c in enumerate(cells):
            if len(cells) == ncols or i < len(cells) - 1:
                width[i] = max(width[i], _display_width(c))
    out = []
    for cells in [[h for h, _ in columns]] + rows:
        parts = []
        for i, c in enumerate(cells):
            last = i == len(cells) - 1
            parts.append(c if last else c + " " * (width[i] - _display_width(c) + 1))
        out.append("".join(parts))
    return "\n".join(out) + "\n"


def folio_label(row):
    """4KB, or 4KB/2MB when the destination folios differ (--dst-folio-order)."""
    dst = row.get("dst_folio_bytes")
    label = format_size(row["folio_bytes"])
    return f"{label}/{format_size(dst)}" if dst and dst != row["folio_bytes"] \
        else label


def has_vec_row(rows):
    """A memcpy_vec row that ran: the table's convert_ms column (not for
    the rows of a failed call, which name every mode it asked for)."""
    return any(r["prep_mode"] == "prep_memcpy_vec" and r["status"] == "ok"
               for r in rows)


def dmaengine_varies(rows):
    """(depth varies, buffers vary) over the rows: columns for them."""
    return (len({depth_of(r) for r in rows}) > 1,
            len({buffers_of(r) for r in rows}) > 1)


def dmaengine_columns(rows):
    """The table's columns: copy_ms only with a cpu row, as the tool;
    convert_ms only with a memcpy_vec row."""
    depth, bufs = dmaengine_varies(rows)
    setup = tuple(c for c, on in zip(DMAENGINE_SETUP_COLUMNS, (depth, bufs)) if on)
    cpu = any(r["prep_mode"] == "cpu" for r in rows)
    vec = has_vec_row(rows)
    main = tuple(c for c in DMAENGINE_COLUMNS[4:]
                 if (cpu or c[0] != "copy_ms") and (vec or c[0] != "convert_ms"))
    return DMAENGINE_COLUMNS[:4] + setup + main


def _figure_cell(r, fig):
    """A phase: mean +- SD, '-' where the row's mode has none (as the tool;
    also for a format 1 row without the figure)."""
    if not figure_applies(r["prep_mode"], fig) or r.get(fig) is None:
        return "-"
    return _ms(r[fig])


def dmaengine_table_rows(rows):
    depth, bufs = dmaengine_varies(rows)
    cpu = any(r["prep_mode"] == "cpu" for r in rows)
    vec = has_vec_row(rows)
    figs = ["run_ms", "prep_ms", "submit_ms", "issue_ms", "wait_ms", "map_ms",
            "unmap_ms"] + (["copy_ms"] if cpu else []) + \
        (["convert_ms"] if vec else [])
    out = []
    for r in rows:
        cells = [r["prep_mode"], str(r.get("chan") or r["channels"]),
                 folio_label(r), str(r["sge"])]
        cells += [str(depth_of(r))] if depth else []
        cells += [buffers_of(r)] if bufs else []
        if r["status"] != "ok":
            cells.append("FAILED: " + first_line(r.get("error")))
        else:
            cells += [_figure_cell(r, f) for f in figs]
            cells += [str(r["prep_calls"]) if figure_applies(r["prep_mode"], "prep_calls")
                      else "-", _ms(r["gbps"])]
        out.append(cells)
    return out


def map_has_sync(rows):
    return any(r.get("sync_cpu_us") for r in rows)


def _us(stat):
    """Latencies: 3 decimals below 10 us (the extended interface's ns)."""
    if stat is None:
        return "-"
    d = 3 if abs(stat["mean"]) < 10 else 2
    return f"{stat['mean']:.{d}f} \u00b1 {stat['stddev']:.{d}f}"


def map_table_rows(rows):
    sync = map_has_sync(rows)
    out = []
    for r in rows:
        cells = [r["mode"], str(r["granule"]), str(r["threads"])]
        if r["status"] != "ok":
            cells.append("FAILED: " + first_line(r.get("error")))
        else:
            cells += [_us(r["map_us"]), _us(r["unmap_us"]),
                      f"{r['map_stddev_us']['mean']:.1f}",
                      f"{r['unmap_stddev_us']['mean']:.1f}"]
            if sync:
                cells += [_us(r.get("sync_cpu_us")), _us(r.get("sync_device_us"))]
            cells.append(str(r["runs"]))
        out.append(cells)
    return out


def header_lines(res):
    """'#' lines saying what ran where, above the table."""
    sysi = res.get("system", {})
    p = res.get("params", {})
    lines = []
    where = sysi.get("where", "host")
    if where == "vm":
        vm = p.get("vm") or {}
        where = f"VM {vm.get('machine', '?')}/{vm.get('dma_config', '?')}"
    lines.append(f"# sweep{' ' + res['label'] if res.get('label') else ''}"
                 f" {res.get('date') or '?'}: kernel {sysi.get('kernel') or '?'}"
                 f" ({where}), {sysi.get('tool_version') or 'tool ?'}")
    lines.append(f"# cpu: {sysi.get('cpu_model') or '?'}, {sysi.get('cpus') or '?'}"
                 f" cpus, numa nodes: {len(sysi.get('numa', [])) or '?'}")
    if res.get("kind") == "map":
        lines.append(f"# map: {p.get('seconds')} s x {p.get('runs')} runs a cell"
                     f"{', ' + p['tool_args'] if p.get('tool_args') else ''};"
                     " *_us: mean \u00b1 SD over the runs of the kernel's mean;"
                     " *_stddev_us: the kernel's SD within a run")
    else:
        provs = sysi.get("providers") or []
        if provs:
            lines.append("# providers: " + "; ".join(
                f"{pr['driver']} {pr['device']} ({len(pr['channels'])} channel"
                f"{'s' if len(pr['channels']) != 1 else ''}:"
                f" {', '.join(pr['channels'][:4])}"
                f"{', ...' if len(pr['channels']) > 4 else ''})"
                for pr in provs))
        tools = tool_docs(res)
        tp = tools[0].get("params", {}) if tools else {}
        bpc = tp.get("bytes_per_channel")
        size = format_size(bpc) if bpc else p.get("bytes_per_channel") or "?"
        warm = tp.get("warmup_runs", p.get("warmup_runs"))
        lines.append(f"# {size} per channel (rounded up to whole batches); "
                     f"{p.get('runs')} runs a cell"
                     f"{' after ' + str(warm) + ' warm-up' if warm is not None else ''}"
                     f"{', ' + p['tool_args'] if p.get('tool_args') else ''}"
                     f"; *_ms summed over channels, run_ms wall time;"
                     f" mean \u00b1 SD over the runs")
        lines += setup_lines(p, tools)
    return lines


def _setup_words(p, tools):
    """buffers, depth, nodes, cpus of a dmaengine sweep: its parameters, or
    (format 1, or none given) what the tool's JSON says."""
    tp = tools[0].get("params", {}) if tools else {}
    words = []
    bufs = p.get("buffers") or ([tp["buffers"]] if "buffers" in tp else None)
    if bufs:
        words.append("buffers " + ",".join(bufs))
    depth = p.get("depth") or ([tp["depth"]] if "depth" in tp else None)
    if depth:
        words.append("depth " + ",".join(str(d) for d in depth))
    for k in ("src_node", "dst_node"):
        v = p.get(k) if p.get(k) is not None else tp.get(k)
        if v is not None:
            words.append(f"{k.replace('_', ' ')} {v}")
    cpus = p.get("cpus") or ",".join(str(c) for c in tp.get("cpus", []))
    words.append(f"cpus {cpus}" if cpus else "cpus not pinned")
    return words


def cpufreq_text(cf):
    """The tool's system.cpufreq in words, as the table's '# cpufreq' line."""
    if not cf or not cf.get("cpus"):
        text = "not exposed"
    else:
        text = f"governor {cf.get('governor') or '?'}"
        if cf.get("cur_khz_max"):
            lo, hi = cf.get("cur_khz_min") or cf["cur_khz_max"], cf["cur_khz_max"]
            text += f", now {round(lo / 1000)}" + \
                (f" to {round(hi / 1000)}" if lo != hi else "") + " MHz"
        if cf.get("max_khz"):
            text += f", max {round(cf['max_khz'] / 1000)} MHz"
    if cf and cf.get("boost") is not None:
        text += f"; boost {'on' if cf['boost'] else 'off'}"
    return text


def cpufreq_states(tools):
    """The distinct CPU frequency states in the tool's JSON documents."""
    out = []
    for t in tools:
        if "system" in t and cpufreq_text(t["system"].get("cpufreq")) not in out:
            out.append(cpufreq_text(t["system"].get("cpufreq")))
    return out


def tool_docs(res):
    """The tool's JSON of each cell that has one."""
    return [c["tool"] for c in res.get("cells", []) if c.get("tool")]


def setup_lines(p, tools):
    """'#' lines: buffers, depth, nodes, cpus; the CPU frequency state the
    tool recorded (each distinct one); the prep modes it left out, why."""
    lines = ["# " + ", ".join(_setup_words(p, tools))]
    freqs = cpufreq_states(tools)
    if freqs:
        lines.append("# cpufreq: " + "; then ".join(freqs))
    missing = {}
    for t in tools:
        for m in t.get("missing") or []:
            missing.setdefault(m.get("prep_mode"), m.get("reason"))
    for mode, why in missing.items():
        lines.append(f"# not run: {mode}: {why}")
    return lines


def format_table(res, with_header=True):
    kind = res.get("kind", "dmaengine")
    rows = sort_rows(kind, res.get("rows", []))
    if kind == "map":
        cols = MAP_COLUMNS
        if map_has_sync(rows):
            cols = MAP_COLUMNS[:-1] + MAP_SYNC_COLUMNS + MAP_COLUMNS[-1:]
        body = _layout(cols, map_table_rows(rows))
    else:
        body = _layout(dmaengine_columns(rows), dmaengine_table_rows(rows))
    head = "\n".join(header_lines(res)) + "\n" if with_header else ""
    failed = [c for c in res.get("cells", []) if c.get("status") != "ok"]
    tail = ""
    if failed and with_header:
        tail = f"# {len(failed)} of {len(res.get('cells', []))} cells failed" \
               " (messages in the JSON and the CSV)\n"
    return head + body + tail


def _num(v):
    """A mean or SD in the CSV: six decimals, as the tool's CSV."""
    return "" if v is None else f"{float(v):.6f}"


def format_csv(res):
    kind = res.get("kind", "dmaengine")
    rows = sort_rows(kind, res.get("rows", []))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    if kind == "map":
        w.writerow(MAP_CSV)
        for r in rows:
            ok = r["status"] == "ok"
            line = [r["cell"], r["status"], r["mode"], r["granule"], r["threads"],
                    r.get("seconds"), r.get("runs") if ok else ""]
            for f in MAP_FIGURES:
                line += [_num(r[f]["mean"]), _num(r[f]["stddev"])] \
                    if ok and r.get(f) \
                    else ["", ""]
            line.append("" if ok else first_line(r.get("error"), 1000))
            w.writerow(line)
    else:
        w.writerow(DMAENGINE_CSV)
        for r in rows:
            ok = r["status"] == "ok"
            line = [r["cell"], r["status"], r["prep_mode"], r["channels"],
                    r.get("chan", "") if ok else "", r["folio_order"],
                    r["folio_bytes"], r["sge"], depth_of(r), buffers_of(r),
                    r.get("runs", "") if ok else ""]
            line += [r.get(c, "") if ok else "" for c in COUNTS]
            for p in PHASES:
                line += [_num(r[p]["mean"]), _num(r[p]["stddev"])] \
                    if ok and r.get(p) else ["", ""]
            line.append("" if ok else first_line(r.get("error"), 1000))
            w.writerow(line)
    return buf.getvalue()
