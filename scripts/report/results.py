# SPDX-License-Identifier: GPL-2.0-only
"""The sweep's results file and the views of it: table, CSV, cell keys.

Documentation/sweeps.rst describes results.json (written by
scripts/sweep.py; format_version 4, load() reads 1 to 3) and its table
and CSV. Its rows: a dmaengine row is the tool's result object (the
figures its JSON describes, see Figures) plus cell, status, error and
channels (the count asked for; chan is the count used); a row of a tool
from before memcpy_vec lacks convert_ms, a format 1 row depth, buffers,
copy_ms and prep_stalls (read as none, depth 1 and reused buffers, what
that tool did). A map row holds mode, granule, threads, seconds, runs
(invocations), and for each operation OP of MAP_OPS the run measured:
OP_us ({mean, stddev} over the invocations' means), OP_stddev_us (the
kernel's within-run standard deviation, {mean, stddev} over the
invocations), OP_p99_us and OP_count (with the extended interface), plus
cell, status, error.
"""

import csv
import io
import json
import os
import re

from report import tool

FORMAT = "dma-bench-sweep"
FORMAT_VERSION = 4
# Keys a version renamed (one name for one parameter, from the ABI to the
# tool's options and JSON to the results): load() gives an older file's
# keys, wherever they are, their new names, so that a sweep can be
# compared with one made before. {version: ({old name: new name}, and
# those of the keys of the sweep's params alone)}
RENAMED = {
    3: (dict({"trans_delay_ns": "dma_trans_ns", "warmup": "warmup_runs",
              "sd": "stddev", "sd_ns": "stddev_ns", "dir": "dma_dir"},
             **{f"{op}_sd_us": f"{op}_stddev_us"
                for op in ("map", "unmap", "sync_cpu", "sync_device")}),
        {"bytes": "bytes_per_channel"}),	# rows' bytes is a count
    4: ({"prep": "prep_modes"}, {}),
}

# The names of the modes are the tool's, asked of it (report/tool.py, its
# --list-modes) when first used: PREP_MODES, the prep modes in the tool's
# order (the DMA forms, then the CPU copy); DMA_MODES, those of a DMA
# channel; PREP_OF_OPTION, the sweep's --prep-modes words and the modes a
# call asks for: the tool's words, and "auto", which passes no
# --prep-modes (the tool runs those of them all this kernel has);
# MAP_MODES, the map modes; COPY_KINDS, the kinds of sweep made of the
# tool's copy modes' rows (prep modes, the tool's "figures" and "table").
FROM_TOOL = {
    "PREP_MODES": lambda: tuple(tool.listing()["prep_modes"]),
    "DMA_MODES": lambda: tuple(tool.listing()["dma_prep_modes"]),
    "PREP_OF_OPTION": lambda: dict(
        {w: tuple(m) for w, m in tool.listing()["prep_mode_words"].items()},
        auto=tuple(tool.listing()["prep_modes"])),
    "MAP_MODES": lambda: tool.modes("map"),
    "COPY_KINDS": lambda: tool.modes("copy"),
}


def __getattr__(name):
    """results.PREP_MODES and the others of FROM_TOOL, asked once."""
    if name not in FROM_TOOL:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = globals()[name] = FROM_TOOL[name]()
    return value


def named(name):
    """FROM_TOOL's NAME, as results.NAME gives it (for this module)."""
    return globals().get(name) or __getattr__(name)

# The dmaengine figures (keys, units, the prep modes that have them) and
# the tool's table (headings, widths) are the tool's: its JSON describes
# them ("figures", "table"), and Figures reads that description from the
# results file; from LEGACY_FIGURES for a file whose tool had none.
LEGACY_FIGURES = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                              "legacy_figures.json")
DEFAULT_DEPTH = 1
FORMAT1_BUFFERS = "reuse"	# the tool before --buffers
# map operations: map and unmap always, the syncs with the tool's --sync
MAP_OPS = ("map", "unmap", "sync_cpu", "sync_device")
MAP_FIGURES = tuple(f"{op}{s}" for op in MAP_OPS
                    for s in ("_us", "_stddev_us", "_p99_us"))

# after sge, when a sweep varies them
DMAENGINE_SETUP_COLUMNS = (("depth", 5), ("buffers", 8))

# the CSV's first columns, the row's keys (dmaengine's prep_mode headed
# mode); a failed row's chan and runs are empty
CSV_FIRST = {"map": ("cell", "status", "mode", "granule", "threads", "seconds",
                     "runs"),
             "dmaengine": ("cell", "status", "prep_mode", "channels", "chan",
                           "folio_order", "folio_bytes", "sge", "depth",
                           "buffers", "runs"),
             "migrate": ("cell", "status", "prep_mode", "channels", "chan",
                         "folio_order", "folio_bytes", "folios", "runs")}


SIZE_SHIFTS = ((40, "T"), (30, "G"), (20, "M"), (10, "K"))


def parse_size(s):
    """The tool's sizes (units.c): digits and an optional K, M, G, T
    (1024s); ValueError for anything else."""
    m = re.fullmatch(r"(\d+)\s*([KMGT]?)(i?B)?", s.strip(), re.I)
    if not m:
        raise ValueError(f"'{s}' is not a size (e.g. 1M, 512M, 1G)")
    shift = {u: sh for sh, u in SIZE_SHIFTS}.get(m.group(2).upper(), 0)
    return int(m.group(1)) << shift


def format_size(n):
    """The tool's size labels: 4KB, 64KB, 2MB, 1GB, else bytes (units.c)."""
    for shift, name in SIZE_SHIFTS:
        if n >= 1 << shift and not n & ((1 << shift) - 1):
            return f"{n >> shift}{name}B"
    return f"{n}B"


def results_path(path):
    """RESULTS, or the results.json in the directory RESULTS."""
    return os.path.join(path, "results.json") if os.path.isdir(path) else path


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


def remap(v, names=None, leaf=None):
    """A JSON value with its objects' keys renamed by NAMES and its other
    values through LEAF, at every depth."""
    if isinstance(v, dict):
        return {(names or {}).get(k, k): remap(x, names, leaf)
                for k, x in v.items()}
    if isinstance(v, list):
        return [remap(x, names, leaf) for x in v]
    return leaf(v) if leaf else v


def upgrade(res):
    """An older results file with the keys of this FORMAT_VERSION (its
    format_version stays what it was: what it lacks, it still lacks)."""
    version = res.get("format_version", 1)
    for since, (names, params) in sorted(RENAMED.items()):
        if version < since:
            res = remap(res, names)
            if isinstance(res.get("params"), dict):
                res["params"] = {params.get(k, k): v
                                 for k, v in res["params"].items()}
    return res


def save(res, path):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(res, f, indent=1, sort_keys=False)
        f.write("\n")
    os.replace(tmp, path)


def prep_index(mode):
    modes = named("PREP_MODES")
    return modes.index(mode) if mode in modes else len(modes)


class Figures:
    """The tool's description of its dmaengine figures and text table:
    figures [{key, unit, kind (total or mean_stddev), prep_modes}] in the
    results' order, table [{key, heading, width, verbose}] in its
    columns' order."""

    def __init__(self, desc):
        self.figures = {f["key"]: f for f in desc["figures"]}
        self.table = desc["table"]
        self.columns = {c["key"]: c for c in self.table}
        # in the tool's order: {mean, stddev} over the runs; totals of a run
        self.phases, self.counts = (tuple(
            f["key"] for f in desc["figures"] if f["kind"] == kind)
            for kind in ("mean_stddev", "total"))

    def applies(self, prep_mode, key):
        """Whether a row of prep_mode has figure key (else the tool prints
        '-'); True for what is not a figure."""
        f = self.figures.get(key)
        return f is None or prep_mode in f["prep_modes"]

    def one_mode(self, key):
        """The prep mode that alone has figure key (copy_ms: cpu), or
        None."""
        modes = self.figures[key]["prep_modes"]
        return modes[0] if len(modes) == 1 else None

    def phases_of(self, modes, units):
        """The phases in UNITS, in the tool's order, but one prep mode's
        (copy_ms, convert_ms) only when it is of MODES."""
        return [k for k in self.phases if self.figures[k]["unit"] in units
                and self.one_mode(k) in (None, *modes)]

    def column(self, key):
        c = self.columns[key]
        return (c["heading"], c["width"])


DESCRIPTION = ("figures", "table")	# the members of the tool's JSON


def figures(*docs):
    """The Figures of results files (or of the tool's JSON documents): the
    first description found, else the one of the tool before there was
    one (LEGACY_FIGURES)."""
    for res in docs:
        if "tool_figures" in res:
            return Figures(res["tool_figures"])
        for t in tool_docs(res) if "cells" in res else [res]:
            if all(k in t for k in DESCRIPTION):
                return Figures(t)
    with open(LEGACY_FIGURES, encoding="utf-8") as f:
        return Figures(json.load(f))


def hoist_figures(res):
    """The tool's description of its figures, the same in every call's
    JSON, kept once in the file's tool_figures instead."""
    for t in tool_docs(res):
        desc = {k: t.pop(k) for k in DESCRIPTION if k in t}
        if len(desc) == len(DESCRIPTION) and "tool_figures" not in res:
            res["tool_figures"] = desc


# what a row lacks reads as: a format 1 row's depth and buffers (what that
# tool did), the destination folio order the source's (no --dst-folio-order)
ROW_DEFAULTS = {"depth": lambda r: DEFAULT_DEPTH,
                "buffers": lambda r: FORMAT1_BUFFERS,
                "dst_folio_order": lambda r: r["folio_order"]}


def field(row, key):
    return row[key] if key in row else ROW_DEFAULTS[key](row)


# what identifies a row across results files (compare.py): its key's names
ROW_KEY = {"map": ("mode", "granule", "threads"),
           "dmaengine": ("prep_mode", "channels", "folio_order", "sge",
                         "depth", "buffers", "dst_folio_order"),
           "migrate": ("prep_mode", "channels", "folio_order")}


def row_key(kind, row):
    return tuple(field(row, k) for k in ROW_KEY[kind])


def cell_key(kind, row):
    """A row's key without the prep mode (compare.py --prep)."""
    return row_key(kind, row)[1:]


def sort_rows(kind, rows):
    if kind == "map":
        modes = named("MAP_MODES")
        return sorted(rows, key=lambda r: (modes.index(r["mode"])
                                           if r["mode"] in modes else 9,
                                           r["threads"], r["granule"]))
    if kind == "migrate":
        return sorted(rows, key=lambda r: (r["folio_order"], r["channels"],
                                           prep_index(r["prep_mode"])))
    return sorted(rows, key=lambda r: (prep_index(r["prep_mode"]),
                                       r["channels"], r["folio_order"],
                                       r["sge"], field(r, "depth"),
                                       field(r, "buffers")))


def mean_sd(stat, decimals=2):
    """A {mean, stddev} as the tool prints it: mean \u00b1 SD."""
    return f"{stat['mean']:.{decimals}f} \u00b1 {stat['stddev']:.{decimals}f}"


def first_line(msg, limit=120):
    """The line of a tool's stderr that says why, shortened for a table."""
    lines = [ln.strip() for ln in (msg or "").splitlines() if ln.strip()]
    # the tool prints the failed call first and the diagnosis after it
    line = (lines[-1] if lines else "failed").removeprefix("dma_map_benchmark: ")
    return line if len(line) <= limit else line[:limit - 3] + "..."


def _layout(columns, rows):
    """Left-aligned text table; a row shorter than the heading ends with
    one cell spanning the rest (a failure's message)."""
    ncols = len(columns)
    width = [w for _, w in columns]
    for cells in rows:
        for i, c in enumerate(cells):
            if len(cells) == ncols or i < len(cells) - 1:
                width[i] = max(width[i], len(c))
    return "".join("".join(c if i == len(cells) - 1 else c.ljust(width[i] + 1)
                           for i, c in enumerate(cells)) + "\n"
                   for cells in [[h for h, _ in columns]] + rows)


def folio_label(row):
    """4KB, or 4KB/2MB when the destination folios differ (--dst-folio-order)."""
    dst = row.get("dst_folio_bytes")
    label = format_size(row["folio_bytes"])
    return f"{label}/{format_size(dst)}" if dst and dst != row["folio_bytes"] \
        else label


# what a row's cell of each of the tool's table columns that are not
# figures says (the tool's table: its "table" member)
ROW_CELLS = {"prep_mode": lambda r: r["prep_mode"],
             "chan": lambda r: str(r.get("chan") or r["channels"]),
             "folio_bytes": lambda r: folio_label(r),
             "sge": lambda r: str(r["sge"]),
             "folios": lambda r: str(r.get("folios", "-"))}


def dmaengine_figures(rows, figs):
    """The figures of the sweep's table, in its order: every phase in ms
    (copy_ms and convert_ms, each one prep mode's, only when a row of that
    mode ran: the rows of a failed call name every mode it asked for), then
    the other figures of the tool's table without -v (prep_calls, GB/s)."""
    ran = {r["prep_mode"] for r in rows if r["status"] == "ok"}
    return figs.phases_of(ran, ("ms",)) + [c["key"] for c in figs.table
                    if c["key"] in figs.figures and not c["verbose"]
                    and figs.figures[c["key"]]["unit"] != "ms"]


def _figure_cell(r, key, figs):
    """A figure: mean +- SD or a count, '-' where the row's mode has none
    (as the tool; also for a format 1 row without the figure)."""
    if not figs.applies(r["prep_mode"], key) or r.get(key) is None:
        return "-"
    if figs.figures[key]["kind"] == "total":
        return str(r[key])
    return mean_sd(r[key])


def dmaengine_table(rows, figs):
    """The table: the tool's columns (its row's keys, then the figures of
    dmaengine_figures()), with depth and buffers after sge when they vary;
    a failed row's message after its keys."""
    keys = [c["key"] for c in figs.table if c["key"] not in figs.figures]
    setup = [c for c in DMAENGINE_SETUP_COLUMNS
             if len({field(r, c[0]) for r in rows}) > 1]
    shown = dmaengine_figures(rows, figs)
    body = [[ROW_CELLS[k](r) for k in keys] +
            [str(field(r, k)) for k, _ in setup] +
            ([_figure_cell(r, k, figs) for k in shown] if r["status"] == "ok"
             else ["FAILED: " + first_line(r.get("error"))]) for r in rows]
    return _layout([figs.column(k) for k in keys] + setup +
                   [figs.column(k) for k in shown], body)


def _us(stat):
    """Latencies: 3 decimals below 10 us (the extended interface's ns)."""
    return "-" if stat is None else \
        mean_sd(stat, 3 if abs(stat["mean"]) < 10 else 2)


def _map_cell(k):
    """How a map row gives its cell of column k: a latency (mean \u00b1 SD),
    the kernel's SD within a run (its mean), or the value."""
    if k.endswith("_stddev_us"):
        return lambda r: f"{r[k]['mean']:.1f}"
    if k.endswith("_us"):
        return lambda r: _us(r.get(k))
    return lambda r: str(r[k])


# the map table's columns (heading, width, cell), the first three a failed
# row's too; the syncs (the tool's --sync) when a row has them
MAP_COLUMNS = tuple((k, w, _map_cell(k)) for k, w in (
    ("mode", 6), ("granule", 7), ("threads", 7), ("map_us", 15),
    ("unmap_us", 15), ("map_stddev_us", 13), ("unmap_stddev_us", 15),
    ("sync_cpu_us", 15), ("sync_device_us", 15), ("runs", 4)))


def map_table(rows):
    sync = any(r.get("sync_cpu_us") for r in rows)
    cols = [c for c in MAP_COLUMNS if sync or not c[0].startswith("sync_")]
    return _layout([c[:2] for c in cols], [
        [cell(r) for _, _, cell in cols[:3]] +
        ([cell(r) for _, _, cell in cols[3:]] if r["status"] == "ok" else
         ["FAILED: " + first_line(r.get("error"))]) for r in rows])


def header_lines(res):
    """'#' lines saying what ran where, above the table."""
    sysi = res.get("system", {})
    p = res.get("params", {})
    where = sysi.get("where", "host")
    if where == "vm":
        vm = p.get("vm") or {}
        where = f"VM {vm.get('machine', '?')}/{vm.get('dma_config', '?')}"
    tool_args = f", {p['tool_args']}" if p.get("tool_args") else ""
    lines = [f"# sweep{' ' + res['label'] if res.get('label') else ''}"
             f" {res.get('date') or '?'}: kernel {sysi.get('kernel') or '?'}"
             f" ({where}), {sysi.get('tool_version') or 'tool ?'}",
             f"# cpu: {sysi.get('cpu_model') or '?'}, {sysi.get('cpus') or '?'}"
             f" cpus, numa nodes: {len(sysi.get('numa', [])) or '?'}"]
    if res.get("kind") == "migrate":
        tools = tool_docs(res)
        tp = tool_params(tools)
        size = format_size(tp["bytes"]) if tp.get("bytes") else "?"
        lines.append(f"# migrate: move_pages() of {size} node "
                     f"{tp.get('src_node', '?')} -> {tp.get('dst_node', '?')} "
                     f"and back; {tp.get('runs', '?')} runs a cell after "
                     f"{tp.get('warmup_runs', '?')} warm-up{tool_args}; "
                     "mean \u00b1 SD over the runs; the cpu row: the offload off")
        offload = {(t.get("offload") or {}).get("message") for t in tools}
        lines += [f"# {m}" for m in sorted(x for x in offload if x)]
        freqs = cpufreq_states(tools)
        if freqs:
            lines.append("# cpufreq: " + "; then ".join(freqs))
        lines += [f"# not run: {mode}: {why}"
                  for mode, why in missing_modes(tools).items()]
    elif res.get("kind") == "map":
        lines.append(f"# map: {p.get('seconds')} s x {p.get('runs')} runs a cell"
                     f"{tool_args}; *_us: mean \u00b1 SD over the runs of the"
                     " kernel's mean; *_stddev_us: the kernel's SD within a run")
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
        tp = tool_params(tools)
        bpc = tp.get("bytes_per_channel")
        size = format_size(bpc) if bpc else p.get("bytes_per_channel") or "?"
        warm = tp.get("warmup_runs", p.get("warmup_runs"))
        lines.append(f"# {size} per channel (rounded up to whole batches); "
                     f"{p.get('runs')} runs a cell"
                     f"{' after ' + str(warm) + ' warm-up' if warm is not None else ''}"
                     f"{tool_args}; *_ms summed over channels, run_ms wall time;"
                     f" mean \u00b1 SD over the runs")
        lines += setup_lines(p, tools)
    return lines


def _setup_words(p, tools):
    """buffers, depth, nodes, cpus of a dmaengine sweep: its parameters, or
    (format 1, or none given) what the tool's JSON says."""
    tp = tool_params(tools)
    words = []
    for k in ("buffers", "depth"):
        vals = p.get(k) or ([tp[k]] if k in tp else None)
        if vals:
            words.append(f"{k} " + ",".join(str(v) for v in vals))
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
    texts = [cpufreq_text(t["system"].get("cpufreq")) for t in tools
             if "system" in t]
    return list(dict.fromkeys(texts))


def tool_docs(res):
    """The tool's JSON of each cell that has one."""
    return [c["tool"] for c in res.get("cells", []) if c.get("tool")]


def tool_params(tools):
    """The params of the first of the tool's JSON documents, or {}."""
    return tools[0].get("params", {}) if tools else {}


def setup_lines(p, tools):
    """'#' lines: buffers, depth, nodes, cpus; the CPU frequency state the
    tool recorded (each distinct one); the prep modes it left out, why."""
    lines = ["# " + ", ".join(_setup_words(p, tools))]
    freqs = cpufreq_states(tools)
    if freqs:
        lines.append("# cpufreq: " + "; then ".join(freqs))
    return lines + [f"# not run: {mode}: {why}"
                    for mode, why in missing_modes(tools).items()]


def missing_modes(tools):
    """{prep mode: why} of the modes the tool left out (the first reason)."""
    missing = {}
    for t in tools:
        for m in t.get("missing") or []:
            missing.setdefault(m.get("prep_mode"), m.get("reason"))
    return missing


def format_table(res, with_header=True):
    kind = res.get("kind", "dmaengine")
    rows = sort_rows(kind, res.get("rows", []))
    body = map_table(rows) if kind == "map" else \
        dmaengine_table(rows, figures(res))
    if not with_header:
        return body
    failed = [c for c in res.get("cells", []) if c.get("status") != "ok"]
    return "\n".join(header_lines(res)) + "\n" + body + (
        f"# {len(failed)} of {len(res.get('cells', []))} cells failed (messages"
        " in the JSON and the CSV)\n" if failed else "")


def _num(v):
    """A mean or SD in the CSV: six decimals, as the tool's CSV."""
    return "" if v is None else f"{float(v):.6f}"


def csv_columns(kind, figs):
    """The CSV's first columns, its counts and its {mean, stddev} figures."""
    return (CSV_FIRST[kind],) + (((), MAP_FIGURES) if kind == "map" else
                                 (figs.counts, figs.phases))


def csv_header(kind, figs=None):
    first, counts, stats = csv_columns(kind, figs)
    return (tuple("mode" if k == "prep_mode" else k for k in first) + counts
            + tuple(f"{f}_{s}" for f in stats for s in ("mean", "stddev"))
            + ("error",))


def format_csv(res):
    kind = res.get("kind", "dmaengine")
    figs = None if kind == "map" else figures(res)
    first, counts, stats = csv_columns(kind, figs)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(csv_header(kind, figs))
    for r in sort_rows(kind, res.get("rows", [])):
        ok = r["status"] == "ok"
        line = ["" if not ok and k in ("chan", "runs") else
                field(r, k) if k in ROW_DEFAULTS else r.get(k, "")
                for k in first]
        line += [r.get(c, "") if ok else "" for c in counts]
        for f in stats:
            line += [_num(r[f]["mean"]), _num(r[f]["stddev"])] \
                if ok and r.get(f) else ["", ""]
        w.writerow(line + ["" if ok else first_line(r.get("error"), 1000)])
    return buf.getvalue()
