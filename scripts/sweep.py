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
import os
import shlex
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from report import results, sysinfo  # noqa: E402
from sweep_plan import (describe, list_of, list_option, plan_dmaengine,  # noqa: E402
                        plan_map, plan_migrate, tool_defaults)
from sweep_rows import (PERF_EVENTS, dmaengine_rows, parse_perf_stat,  # noqa: E402
                        perf_prefix, perf_table)
from sweep_run import (GuestReader, Sweep, cells_text, eta, find_tool,  # noqa: E402
                       guest_command, hms, progress_line, run_here, run_vm,
                       say)

# what the plan, the rows and the runs (sweep_plan.py, sweep_rows.py,
# sweep_run.py) give the tests and other scripts through this one name
__all__ = ["GuestReader", "Sweep", "cells_text", "describe", "dmaengine_rows",
           "eta", "guest_command", "hms", "parse_args", "parse_perf_stat",
           "perf_prefix", "plan_dmaengine", "plan_map", "plan_migrate",
           "progress_line", "main", "tool_defaults"]

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
                   help="bytes a channel copies in a run [the tool's]")
    d.add_argument("--warmup-runs", type=int, metavar="N",
                   help="warm-up runs [the tool's]")
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
                   f"[the tool's]; map: invocations a cell "
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
    if a.runs is None and a.map:	# copy modes: the tool's default
        a.runs = DEFAULT_MAP_RUNS
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
            defaults = tool_defaults(find_tool(a.tool))
            if kind == "dmaengine" and a.runs is None and \
               defaults.get("runs"):	# the tool's --runs, recorded
                a.runs = int(defaults["runs"])
            cells = plan(a, page_size, defaults)
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
