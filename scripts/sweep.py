#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Sweep the DMA map benchmark over a matrix of parameters.

dmaengine mode (default): a cell per --prep-modes word, channel count,
folio order, sg entries, depth and buffers, one call of the tool each
(--prep-modes auto: the modes this kernel has, alternating in one call);
--preset mail: the mail's workload; --migrate: the tool's -m migrate, a
cell per folio order, channel count and --prep-modes word (move_pages()
GB/s, the cpu row and the offload's); --map: map modes x granules x
threads, --runs calls a cell. Here (--tool) or in a throwaway test VM
(--vm, scripts/vm/run.sh), all cells in one boot, a progress line per
cell on stderr; a failed cell is recorded and the sweep goes on. In
--output: results.json, results.csv and table.txt (also on stdout),
which scripts/compare.py and scripts/plot.py read. See
Documentation/sweeps.rst.
"""

import argparse
import datetime
import itertools
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from report import results, stats, sysinfo  # noqa: E402

DEFAULT_RUNS = 20
# --preset NAME: sweep parameters (option dest: value) that options given
# on the command line override (--preset's help says what "mail" is)
PRESETS = {
    "mail": {"bytes_per_channel": "512M", "runs": 20, "sge": [512],
             "folios": ["4K", "2M"], "channels": [1, 16], "src_node": 0,
             "dst_node": 1, "prep_modes": ["auto"], "buffers": ["distinct"],
             "depth": [1]},
}
DEFAULT_MAP_RUNS = 5
DEFAULT_MAP_SECONDS = 10
PERF_EVENTS = "cycles,instructions,cache-misses"


# --- Parameters and cells --------------------------------------------------

def list_of(choices=None, convert=str):
    """An option's list, comma or space separated: words of CHOICES (any
    word without), or what CONVERT makes of each (int)."""
    def parse(s):
        vals = [x for x in re.split(r"[,\s]+", s.strip()) if x]
        if choices and (not vals or any(v not in choices for v in vals)):
            raise argparse.ArgumentTypeError(
                f"'{s}': each must be one of {', '.join(choices)}")
        try:
            vals = [convert(x) for x in vals]
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{s}' is not a list of integers")
        if not vals:
            raise argparse.ArgumentTypeError("empty list")
        return vals
    return parse


int_list = list_of(convert=int)


def list_option(group, name, default, text, parse=int_list):
    """A matrix option: a list, its default given once (and in its help)."""
    group.add_argument(name, type=parse, default=default, metavar="LIST",
                       help=f"{text} [{','.join(map(str, default))}]")


def effective_bytes(bytes_per_channel, sge, order, page_size):
    """Bytes a channel copies in a run: rounded up to whole batches."""
    batch = sge * (page_size << order)
    return max(1, -(-bytes_per_channel // batch)) * batch


def folio_orders(a, page_size):
    """--orders, or --folios as orders of this page size."""
    if not a.folios:
        return a.orders
    orders = []
    for f in a.folios:
        size = results.parse_size(f)
        if size < page_size or size % page_size or \
           (size // page_size) & (size // page_size - 1):
            raise ValueError(f"--folios {f}: not a power-of-two multiple of "
                             f"the page size ({page_size} bytes)")
        orders.append((size // page_size).bit_length() - 1)
    return orders


def plan_dmaengine(a, page_size, defaults):
    """A cell per buffers, depth, channels, order, sge and --prep-modes
    word; the tool's own defaults (DEFAULTS, from its --help) only weigh
    the cells."""
    cells = []
    bytes_pc = results.parse_size(a.bytes_per_channel or
                                  defaults.get("bytes-per-channel") or "1")
    warmup_runs = a.warmup_runs if a.warmup_runs is not None else \
        int(defaults.get("warmup-runs") or 0)
    common = []
    for opt, val in (("--warmup-runs", a.warmup_runs),
                     ("--bytes-per-channel", a.bytes_per_channel or None),
                     ("--src-node", a.src_node), ("--dst-node", a.dst_node),
                     ("--cpus", a.cpus)):
        if val is not None:
            common += [opt, str(val)]
    # innermost: the modes alternate in time
    for buffers, depth, ch, order, sge, prep in itertools.product(
            a.buffers, a.depth, a.channels, folio_orders(a, page_size), a.sge,
            a.prep_modes):
        argv = ["-m", "dmaengine"] + (["--prep-modes", prep] if prep != "auto"
                                   else [])
        argv += ["--channels", str(ch), "--folio-order", str(order), "--sge",
                 str(sge), "--runs", str(a.runs), "--buffers", buffers,
                 "--depth", str(depth)] + common + \
            shlex.split(a.tool_args or "") + ["--json"]
        nmodes = len(results.PREP_OF_OPTION[prep])
        cells.append({
            "index": len(cells), "prep_modes": prep, "channels": ch,
            "folio_order": order, "folio_bytes": page_size << order,
            "sge": sge, "depth": depth, "buffers": buffers, "argv": argv,
            "invocations": 1,
            "weight": nmodes * (a.runs + warmup_runs) * ch *
            effective_bytes(bytes_pc, sge, order, page_size),
        })
    return cells


def tool_defaults(tool):
    """{option: its default as the tool's --help says it ("1G", "20")},
    {} when the tool cannot be run here: the sweep passes only what it is
    given and asks the tool the rest, for the weights of its cells."""
    try:
        p = subprocess.run([tool, "--help"], capture_output=True, text=True,
                           timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return {}
    out, name = {}, None
    text = {}
    for line in p.stdout.splitlines():
        # an option's first line: "    -c, --channels N" or "        --bytes"
        m = re.match(r"(?:    -\w, |        )--([\w-]+)", line)
        if m:
            name = m.group(1)
        if name:
            text[name] = text.get(name, "") + " " + line.strip()
    for opt, t in text.items():
        m = re.search(r"; default (\S+?)\]", t)
        if m:
            out[opt] = m.group(1)
    return out


def plan_migrate(a, page_size, defaults):
    """A cell per folio order, channel count and --prep-modes word; the
    tool's options only when given (its defaults are its own)."""
    cells = []
    common = []
    for opt, val in (("--bytes", a.bytes), ("--runs", a.runs),
                     ("--warmup-runs", a.warmup_runs),
                     ("--src-node", a.src_node), ("--dst-node", a.dst_node)):
        if val is not None:
            common += [opt, str(val)]
    nbytes = results.parse_size(a.bytes or defaults.get("bytes") or "0")
    runs = a.runs or int(defaults.get("runs") or 1)
    warmup = a.warmup_runs if a.warmup_runs is not None else \
        int(defaults.get("warmup-runs") or 0)
    for order, ch, prep in itertools.product(folio_orders(a, page_size),
                                             a.channels, a.prep_modes):
        argv = ["-m", "migrate", "--folio-order", str(order), "--channels",
                str(ch)] + (["--prep-modes", prep] if prep != "auto" else []) \
            + common + shlex.split(a.tool_args or "") + ["--json"]
        rows = 1 + len([m for m in results.PREP_OF_OPTION[prep]
                        if m != "cpu"])
        cells.append({
            "index": len(cells), "prep_modes": prep, "channels": ch,
            "folio_order": order, "folio_bytes": page_size << order,
            "argv": argv, "invocations": 1,
            "weight": rows * (runs + warmup) * max(nbytes, 1),
        })
    return cells


def plan_map(a):
    cells = []
    for mode, threads, g in itertools.product(a.map_modes, a.threads,
                                              a.granules):
        argv = ["-m", mode, "-g", str(g), "-t", str(threads), "-s",
                str(a.seconds)] + shlex.split(a.tool_args or "") + ["--json"]
        cells.append({
            "index": len(cells), "mode": mode, "granule": g,
            "threads": threads, "seconds": a.seconds, "argv": argv,
            "invocations": a.runs, "weight": a.runs * a.seconds,
        })
    return cells


def describe(kind, cell):
    if kind == "migrate":
        return (f"{cell['prep_modes']} chan {cell['channels']} folio "
                f"{results.format_size(cell['folio_bytes'])}")
    if kind == "map":
        return (f"{cell['mode']} granule {cell['granule']} threads "
                f"{cell['threads']}")
    extra = (f" depth {cell['depth']}" if cell.get("depth", 1) != 1 else "") + \
        (f" {cell['buffers']} buffers"
         if cell.get("buffers", "distinct") != "distinct" else "")
    return (f"{cell['prep_modes']} chan {cell['channels']} folio "
            f"{results.format_size(cell['folio_bytes'])} sge {cell['sge']}"
            f"{extra}")


# --- Progress --------------------------------------------------------------

def say(msg, prefix="sweep.py: "):
    print(prefix + msg, file=sys.stderr, flush=True)


def hms(seconds):
    if seconds is None:
        return "?"
    s = int(round(seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def eta(done, remaining_weights):
    """Seconds the remaining cells should take: the time per unit of weight
    of the cells that succeeded so far, times the weight left. done is a
    list of (weight, seconds, ok); failed cells end early and say nothing
    about the rest. None while no cell has succeeded."""
    w = sum(d[0] for d in done if d[2])
    t = sum(d[1] for d in done if d[2])
    rest = sum(remaining_weights)
    if rest == 0:
        return 0.0
    return t / w * rest if w > 0 else None


def progress_line(n, total, desc, ok, cell_s, summary, elapsed_s, left_s):
    width = len(str(total))
    state = f"ok in {cell_s:.1f}s" if ok else f"FAILED after {cell_s:.1f}s"
    extra = f" ({summary})" if summary else ""
    return (f"[{n:{width}d}/{total}] {desc}: {state}{extra}; "
            f"elapsed {hms(elapsed_s)}, ~{hms(left_s)} left")


def cell_summary(kind, rows):
    ok = [r for r in rows if r["status"] == "ok"]
    if not ok:
        return results.first_line(rows[0].get("error")) if rows else ""
    if kind == "map":
        r = ok[0]
        return (f"map {r['map_us']['mean']:.2f} us, "
                f"unmap {r['unmap_us']['mean']:.2f} us")
    return ", ".join(f"{r['prep_mode']} {r['gbps']['mean']:.2f} GB/s"
                     for r in ok)


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


# --- Runners: here, or in a VM ---------------------------------------------

def find_tool(path):
    if not path:
        return shutil.which("dma_map_benchmark") or \
            os.path.join(TOP, "tools", "dma", "dma_map_benchmark")
    if os.path.sep not in path and not os.path.exists(path):
        # a bare name not here: the one in PATH, if any
        return shutil.which(path) or os.path.abspath(path)
    return os.path.abspath(path)


class Sweep:
    """The state of a sweep: cells, rows, timing, progress, checkpoints."""

    def __init__(self, a, kind, cells, res):
        self.a, self.kind, self.cells, self.res = a, kind, cells, res
        self.done = []
        self.t0 = None
        self.rows_by_cell = {}

    def start(self):
        self.t0 = time.monotonic()

    def finish_cell(self, cell, invs, seconds):
        cell["elapsed_s"] = round(seconds, 3)
        rows = self.rows(cell, invs)
        if invs and invs[-1][2] and cell["status"] == "ok":
            cell["stderr"] = invs[-1][2]	# warnings of a successful run
        perf_collect(cell)
        self.rows_by_cell[cell["index"]] = rows
        ok = cell["status"] == "ok"
        self.done.append((cell["weight"], seconds, ok))
        left = eta(self.done, [c["weight"] for c in self.cells
                               if c["index"] not in self.rows_by_cell])
        if not self.a.quiet:
            say(progress_line(len(self.done), len(self.cells),
                              describe(self.kind, cell), ok, seconds,
                              cell_summary(self.kind, rows),
                              time.monotonic() - self.t0, left), "")
        self.checkpoint()

    def fail_rest(self, message):
        for c in self.cells:
            if c["index"] in self.rows_by_cell:
                continue
            c["elapsed_s"] = 0
            self.rows_by_cell[c["index"]] = self.rows(c, [(1, "", message, 0.0)])
            c["exit_status"] = None

    def rows(self, cell, invs):
        if self.kind == "map":
            return map_rows(cell, invs)
        return dmaengine_rows(cell, invs, self.kind)

    def checkpoint(self):
        self.res["cells"] = self.cells
        self.res["rows"] = [r for i in sorted(self.rows_by_cell)
                            for r in self.rows_by_cell[i]]
        if self.kind == "dmaengine":
            self.res["system"]["providers"] = sysinfo.providers(
                c.get("tool") for c in self.cells)
        if self.kind in results.COPY_KINDS:
            results.hoist_figures(self.res)
        if self.t0 is not None:
            self.res["duration_s"] = round(time.monotonic() - self.t0, 1)
        results.save(self.res, os.path.join(self.a.output, "results.json"))


def run_here(sw):
    a = sw.a
    tool = a.tool_path
    sw.start()
    for cell in sw.cells:
        invs = []
        t = time.monotonic()
        for i in range(cell["invocations"]):
            argv = perf_prefix(a, cell, i) + [tool] + cell["argv"]
            cell["command"] = shlex.join(argv)
            ti = time.monotonic()
            try:
                p = subprocess.run(argv, capture_output=True, text=True,
                                   timeout=a.cell_timeout)
                inv = (p.returncode, p.stdout, p.stderr)
            except subprocess.TimeoutExpired:
                inv = (124, "", f"timed out after {a.cell_timeout} s")
            except OSError as e:	# not run: no time
                inv, ti = (127, "", f"cannot run {argv[0]}: {e}"), None
            invs.append(inv + (0.0 if ti is None else time.monotonic() - ti,))
            if inv[0] != 0:
                break
        sw.finish_cell(cell, invs, time.monotonic() - t)


def cells_text(cells):
    """The cells for the guest (tools/testing/guest/sweep.sh): a line
    each, its index, how many runs, the tool's arguments as shell words."""
    return "".join(f"{c['index']} {c['invocations']} {shlex.join(c['argv'])}\n"
                   for c in cells)


def guest_command(kind, soft_dma_params, cells_file):
    """What the VM runs, in /opt/dma-bench: tests/sweep.sh on the cells."""
    opts = "--map" if kind == "map" else \
        "--soft-dma " + shlex.quote(soft_dma_params)
    return f"sh tests/sweep.sh {opts} {shlex.quote(cells_file)}"


def guest_output(rec):
    """A guest record's tool output, as the tool printed it."""
    if "tool" in rec:
        return json.dumps(rec["tool"])
    return rec.get("out") or ""


class GuestReader:
    """Reads the guest's JSON lines (tools/testing/guest/sweep.sh) into the
    sweep as they stream in; other lines are the guest's setup output
    until the cells start, and ignored after."""

    def __init__(self, sw):
        self.sw, self.log, self.invs = sw, [], []
        self.setup_error, self.ready, self.finished = None, False, False
        self.current = None	# the cell whose runs are coming in

    def feed(self, line):
        line = line.rstrip("\n")
        rec = None
        if line.startswith("{"):
            try:
                rec = json.loads(line)
            except ValueError:
                pass
        if not isinstance(rec, dict) or "sweep" not in rec:
            if not self.ready:
                self.log.append(line)
                if self.sw.a.verbose:
                    say(line, "guest: ")
            return
        what = rec["sweep"]
        if what == "system" and rec.get("rc") == 0 and "tool" in rec:
            self.sw.res["system"].update(sysinfo.from_tool(rec["tool"], "vm"))
        elif what == "setup":
            self.setup_error = rec.get("error") or "the guest's setup failed"
            self.log += (rec.get("log") or "").splitlines()
        elif what == "ready":
            self.ready = True
            self.sw.start()
        elif what == "run":
            self.run(rec)
        elif what == "done":
            if self.current is not None:
                self.end_cell()
            self.sw.fail_rest("the guest said nothing of this cell")
            self.finished = True

    def run(self, rec):
        idx = rec["cell"]
        if self.current is not None and self.current != idx:
            self.end_cell()	# a record of it was lost
        self.current = idx
        try:	# the guest's clock: this stream arrives in bursts
            secs = float(rec["t1"]) - float(rec["t0"])
        except (KeyError, TypeError, ValueError):
            secs = 0.0
        self.invs.append((rec.get("rc"), guest_output(rec),
                          rec.get("err") or "", secs))
        if rec.get("rc") != 0 or \
           len(self.invs) >= self.sw.cells[idx]["invocations"]:
            self.end_cell()

    def end_cell(self, why=None):
        """The current cell is over; WHY: it was cut short, and why."""
        if why:
            self.invs.append((125, "", why, 0.0))
        cell = self.sw.cells[self.current]
        cell["command"] = "$TOOL " + shlex.join(cell["argv"])
        self.sw.finish_cell(cell, self.invs, sum(i[3] for i in self.invs))
        self.current, self.invs = None, []

    def vm_ended(self, rc):
        """After run.sh: cells run in order, so the first one unfinished
        was running when the VM ended. Returns the sweep's error, if any."""
        sw = self.sw
        if self.ready and not self.finished:
            if self.current is None:
                self.current = next((c["index"] for c in sw.cells
                                     if c["index"] not in sw.rows_by_cell),
                                    None)
            if self.current is not None:
                self.end_cell(f"the VM ended during this cell (run.sh exit {rc})")
        if self.setup_error or not self.ready:
            msg = self.setup_error or \
                f"the VM did not start the sweep (run.sh exit {rc})"
            log = "\n".join(self.log[-20:]).strip()
            sw.fail_rest(msg + (f"\n{log}" if log else ""))
            return msg
        if not self.finished:
            sw.fail_rest(f"not run: the VM ended before this cell (run.sh exit {rc})")
            return f"the VM ended before the sweep finished (run.sh exit {rc})"
        return None


def run_vm(sw):
    a = sw.a
    copy = sw.kind in results.COPY_KINDS
    max_ch = max(a.channels) if copy else 0
    soft = f"channels={max(max_ch, 1)}" + (f" {a.soft_dma}" if a.soft_dma else "")
    sw.res["params"]["vm"]["soft_dma_params"] = soft if copy else None
    cells = os.path.join(a.output, "cells.txt")
    with open(cells, "w", encoding="utf-8") as f:
        f.write(cells_text(sw.cells))
    cmd = [os.path.join(TOP, "scripts", "vm", "run.sh"), "-m", a.kernel_machine,
           "-c", a.dma_config, "-t", str(a.vm_timeout), "-f", cells] + \
        ([] if a.verbose else ["-q"]) + ["--", guest_command(sw.kind, soft, "cells.txt")]
    if not a.quiet:
        say(f"booting the VM ({a.kernel_machine}/{a.dma_config}); "
            f"{len(sw.cells)} cells", "")
    gr = GuestReader(sw)
    # its own process group: an interrupt stops run.sh, timeout and QEMU
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True,
                            errors="replace", start_new_session=True)
    try:
        for line in proc.stdout:
            gr.feed(line)
        rc = proc.wait()
    except KeyboardInterrupt:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait()
        sw.fail_rest("not run: the sweep was interrupted")
        raise
    return gr.vm_ended(rc)


# --- main ------------------------------------------------------------------

def write_reports(res, outdir):
    table = results.format_table(res) + perf_table(res)
    for name, text in (("table.txt", table),
                       ("results.csv", results.format_csv(res))):
        with open(os.path.join(outdir, name), "w", encoding="utf-8") as f:
            f.write(text)
    return table


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="sweep.py", formatter_class=argparse.RawDescriptionHelpFormatter,
        description=__doc__.split("\n\n")[0],
        epilog="examples:\n"
        "  scripts/sweep.py                                 # here, module loaded\n"
        "  scripts/sweep.py --vm --prep-modes memcpy --bytes-per-channel 16M\n"
        "                                                   # stock kernel VM\n"
        "  scripts/sweep.py --preset mail                   # the mail's table\n"
        "  scripts/sweep.py --depth 1,4 --buffers distinct,reuse --channels 1\n"
        "  scripts/sweep.py --vm --kernel-machine x86-debug --channels 1,2 \\\n"
        "      --orders 0,4 --sge 16 --bytes-per-channel 1M --runs 3\n"
        "  scripts/sweep.py --map --seconds 5 --runs 5\n"
        "  scripts/sweep.py --migrate --bytes 1G --orders 0,4,8,9 \\\n"
        "      --channels 1,4,8,16 --prep-modes memcpy,memcpy_sg --runs 10\n"
        "  scripts/sweep.py --perf stat --channels 4 --orders 9\n"
        "  scripts/sweep.py --render OUT/results.json       # rewrite table, CSV\n")
    w = p.add_argument_group("where")
    w.add_argument("--tool", metavar="PATH",
                   help="the tool to run here (default: dma_map_benchmark in "
                   "PATH, else tools/dma/dma_map_benchmark)")
    w.add_argument("--vm", action="store_true",
                   help="run in a throwaway VM (scripts/vm/run.sh), one boot")
    w.add_argument("--kernel-machine", default="x86", metavar="NAME",
                   help="VM machine (scripts/vm/machines): x86 (Debian's "
                   "6.12, no memcpy_sg), x86-bench (patched: memcpy_sg), "
                   "x86-debug (patched, KASAN, lockdep, ...) [%(default)s]")
    w.add_argument("--dma-config", default="direct", metavar="CONFIG",
                   help="VM DMA configuration: direct, swiotlb, iommu "
                   "[%(default)s]")
    w.add_argument("--soft-dma", metavar="PARAMS", default="",
                   help="soft_dma in the VM: load-time parameters (e.g. "
                   "pool_size=32 prep_lock=1 no_order=1; channels= is the "
                   "largest --channels) and run-time knobs (nocopy=1, "
                   "delay_us=N, ...: written to its debugfs files)")
    w.add_argument("--vm-timeout", type=int, default=21600, metavar="SEC",
                   help="stop the VM after SEC seconds [%(default)s]")
    w.add_argument("--cell-timeout", type=float, default=None, metavar="SEC",
                   help="here: give up on an invocation after SEC seconds")
    d = p.add_argument_group("dmaengine matrix")
    d.add_argument("--preset", choices=sorted(PRESETS),
                   help="mail: the mail's workload (512M a channel, 20 runs, "
                   "sge 512, 4K and 2M folios, 1 and 16 channels, --src-node "
                   "0 --dst-node 1, every prep mode with the CPU copy, "
                   "distinct buffers, depth 1); options given override it")
    list_option(d, "--prep-modes", ["auto"],
                "auto (no --prep-modes: every mode this kernel has, the CPU "
                "copy included, one call a cell, the modes alternating), all, "
                "both, memcpy, memcpy_sg, memcpy_vec, cpu, or a list: a call "
                "each", list_of(tuple(results.PREP_OF_OPTION)))
    list_option(d, "--channels", [1, 4, 8, 16], "channel counts")
    list_option(d, "--orders", [0, 4, 8, 9], "folio orders")
    d.add_argument("--folios", type=list_of(), metavar="LIST",
                   help="folio sizes, e.g. 4K,2M, instead of --orders")
    list_option(d, "--depth", [1], "batches in flight a channel")
    list_option(d, "--buffers", ["distinct"], "distinct, reuse, or both as a "
                "list", list_of(("distinct", "reuse")))
    d.add_argument("--src-node", type=int, metavar="N",
                   help="NUMA node of the source folios [the tool's: the "
                   "channel's]")
    d.add_argument("--dst-node", type=int, metavar="N",
                   help="NUMA node of the destination folios [the tool's]")
    d.add_argument("--cpus", metavar="LIST",
                   help="pin the channel threads, as the tool's --cpus")
    list_option(d, "--sge", [512], "sg entries a batch")
    d.add_argument("--bytes-per-channel", metavar="SIZE",
                   help="bytes a channel copies in a run [the tool's: 512M]")
    d.add_argument("--warmup-runs", type=int, metavar="N",
                   help="warm-up runs [the tool's: 1]")
    g = p.add_argument_group("migrate matrix (the dmaengine matrix's "
                             "--orders, --folios, --channels, --prep-modes, "
                             "--src-node, --dst-node, --warmup-runs)")
    g.add_argument("--migrate", action="store_true",
                   help="sweep the tool's -m migrate instead: move_pages() "
                   "of --bytes between two nodes, the cpu row and a row per "
                   "prep mode of the offload (two NUMA nodes needed)")
    g.add_argument("--bytes", metavar="SIZE",
                   help="bytes a move [the tool's --bytes default]")
    m = p.add_argument_group("map matrix")
    m.add_argument("--map", action="store_true",
                   help="sweep the map modes instead (a device bound)")
    list_option(m, "--map-modes", list(results.MAP_MODES), "single, sg",
                list_of(results.MAP_MODES))
    list_option(m, "--granules", [1, 8, 64, 512, 1024], "granule / sg entries")
    list_option(m, "--threads", [1, 2, 4], "threads")
    m.add_argument("--seconds", type=int, default=DEFAULT_MAP_SECONDS,
                   metavar="N", help=f"seconds a run [{DEFAULT_MAP_SECONDS}]")
    c = p.add_argument_group("both")
    c.add_argument("--runs", type=int, metavar="N",
                   help=f"dmaengine: the tool's timed runs a cell "
                   f"[{DEFAULT_RUNS}]; map: invocations a cell "
                   f"[{DEFAULT_MAP_RUNS}]")
    c.add_argument("--tool-args", metavar="ARGS", default="",
                   help="more options for every call, with '=': "
                   "--tool-args=--poll, --tool-args='-d 2 -b 64'")
    c.add_argument("--perf", choices=("stat", "record"),
                   help="here only: each call under perf stat -a -e "
                   f"{PERF_EVENTS}, or perf record -g -a (OUT/perf/)")
    c.add_argument("--perf-args", metavar="ARGS", default="",
                   help="more perf options, e.g. '-F 999' or '-C 0-3'")
    o = p.add_argument_group("output")
    o.add_argument("-o", "--output", metavar="DIR",
                   help="directory of results.json, results.csv, table.txt "
                   "[sweep-DATE-TIME]")
    o.add_argument("--label", default="",
                   help="a name for the results (e.g. before, after)")
    o.add_argument("--force", action="store_true",
                   help="overwrite results in --output")
    o.add_argument("--dry-run", action="store_true",
                   help="print the cells and their commands, run nothing")
    o.add_argument("--render", metavar="RESULTS",
                   help="rewrite table.txt and results.csv next to a "
                   "results.json (and print the table); run nothing")
    o.add_argument("-q", "--quiet", action="store_true",
                   help="no progress lines")
    o.add_argument("-v", "--verbose", action="store_true",
                   help="run.sh's progress and the guest's setup output")
    a = p.parse_args(argv)
    if a.preset:	# its values, under what the command line gave
        p.set_defaults(**PRESETS[a.preset])
        a = p.parse_args(argv)
        given = sys.argv[1:] if argv is None else argv
        if any(x == "--orders" or x.startswith("--orders=") for x in given):
            a.folios = None	# --orders given: the preset's folios yield
    if a.migrate and a.map:
        p.error("--migrate and --map exclude each other")
    if a.runs is None and not a.migrate:	# migrate: the tool's default
        a.runs = DEFAULT_MAP_RUNS if a.map else DEFAULT_RUNS
    if a.runs is not None and a.runs < 1:
        p.error("--runs must be at least 1")
    if a.perf and a.vm:
        p.error("--perf runs here only: the VM has no perf")
    try:
        results.parse_size(a.bytes_per_channel or "0")
    except ValueError as e:
        p.error(f"--bytes-per-channel: {e}")
    try:
        results.parse_size(a.bytes or "0")
    except ValueError as e:
        p.error(f"--bytes: {e}")
    return a


def main(argv=None):
    a = parse_args(argv)
    if a.render:
        path = results.results_path(a.render)
        res = results.load(path)
        sys.stdout.write(write_reports(res, os.path.dirname(path) or "."))
        return 0

    kind = "map" if a.map else "migrate" if a.migrate else "dmaengine"
    page_size = 4096 if a.vm else os.sysconf("SC_PAGE_SIZE")
    try:
        if kind == "map":
            cells = plan_map(a)
        else:
            plan = plan_migrate if kind == "migrate" else plan_dmaengine
            cells = plan(a, page_size, tool_defaults(find_tool(a.tool)))
    except ValueError as e:
        say(str(e))
        return 2
    if a.dry_run:
        for cell in cells:
            n = cell["invocations"]
            print(f"{cell['index']:3d} {describe(kind, cell):<40} "
                  f"{'x' + str(n) + ' ' if n > 1 else ''}"
                  f"dma_map_benchmark {shlex.join(cell['argv'])}")
        return 0

    now = datetime.datetime.now().astimezone()
    a.output = a.output or "sweep-" + now.strftime("%Y%m%d-%H%M%S")
    os.makedirs(a.output, exist_ok=True)
    if os.path.exists(os.path.join(a.output, "results.json")) and not a.force:
        say(f"{a.output}/results.json exists (--force overwrites)")
        return 2

    if a.vm:	# the guest's tool describes the guest
        system = sysinfo.skeleton("vm")
        system["host"] = sysinfo.host_summary(find_tool(a.tool))
    else:
        a.tool_path = find_tool(a.tool)
        if not os.access(a.tool_path, os.X_OK):
            say(f"no tool at {a.tool_path}: build it (make -C tools/dma) or "
                "give --tool")
            return 2
        system = sysinfo.ask_tool(a.tool_path)
    params = {k: v for k, v in vars(a).items()
              if k not in ("render", "dry_run", "force", "quiet", "verbose",
                           "output", "tool_path")}
    params["tool"] = None if a.vm else a.tool_path
    params["vm"] = {"machine": a.kernel_machine, "dma_config": a.dma_config,
                    "soft_dma_params": None} if a.vm else None
    res = {
        "format": results.FORMAT, "format_version": results.FORMAT_VERSION,
        "kind": kind, "label": a.label, "date": now.isoformat(timespec="seconds"),
        "duration_s": None,
        "command": [os.path.relpath(os.path.abspath(sys.argv[0]), TOP)
                    if argv is None else "sweep.py"] +
        (sys.argv[1:] if argv is None else list(argv)),
        "params": params, "system": system, "cells": cells, "rows": [],
    }
    sw = Sweep(a, kind, cells, res)
    status = 0
    try:
        if a.vm:
            err = run_vm(sw)
            if err:
                say(err)
                status = 1
        else:
            run_here(sw)
    except KeyboardInterrupt:
        sw.fail_rest("not run: the sweep was interrupted")
        status = 130
    if a.vm and not system["host"]["cpu_model"]:
        system["host"] = sysinfo.host_summary(find_tool(a.tool))	# built now?
    sw.checkpoint()
    table = write_reports(res, a.output)
    sys.stdout.write(table)
    failed = sum(1 for c in cells if c.get("status") != "ok")
    if not a.quiet:
        say(f"{len(cells) - failed} of {len(cells)} cells ok; results in "
            f"{a.output}/ (results.json, results.csv, table.txt)", "")
        for mode in ("memcpy_sg", "memcpy_vec"):
            if kind == "dmaengine" and any(
                    mode in (c.get("error") or "") and
                    c.get("status") != "ok" for c in cells):
                say(f"{mode} is missing on this kernel: sweep --prep-modes "
                    "auto (the default) or --prep-modes memcpy,cpu, or use "
                    "the patched kernel (--vm --kernel-machine x86-debug)")
        left_out = sorted(results.missing_modes(results.tool_docs(res)))
        if kind == "dmaengine" and left_out:
            say(f"not run on this kernel: {', '.join(left_out)} (the table's "
                "'# not run' lines say why)")
        if a.perf == "record":
            say(f"flame graphs: perf script -i {a.output}/perf/cell-N.perf.data"
                " | stackcollapse-perf.pl | flamegraph.pl > cell-N.svg "
                "(Documentation/sweeps.rst)")
    if status == 0 and failed == len(cells):
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
