# SPDX-License-Identifier: GPL-2.0-only
"""scripts/sweep.py's runs: the cells here, or in a throwaway VM
(scripts/vm/run.sh, tools/testing/guest/sweep.sh), with a progress line
per cell and the results written after each."""

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time

from report import results, sysinfo
from sweep_plan import describe
from sweep_rows import dmaengine_rows, map_rows, perf_collect, perf_prefix

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)


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
