# SPDX-License-Identifier: GPL-2.0-only
"""scripts/sweep.py's plan: its matrix options' lists, and the cells of a
sweep (the tool's arguments and a weight each, for the time left)."""

import argparse
import itertools
import re
import shlex
import subprocess

from report import results, tool


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
    word; the tool's own defaults (DEFAULTS, from its --help) weigh the
    cells, and its --runs is the calls' unless --runs is given."""
    cells = []
    runs = a.runs or int(defaults.get("runs") or 0)	# 0: the tool's, unknown
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
                 str(sge)] + (["--runs", str(runs)] if runs else []) + \
            ["--buffers", buffers, "--depth", str(depth)] + common + \
            shlex.split(a.tool_args or "") + ["--json"]
        nmodes = len(results.PREP_OF_OPTION[prep])
        cells.append({
            "index": len(cells), "prep_modes": prep, "channels": ch,
            "folio_order": order, "folio_bytes": page_size << order,
            "sge": sge, "depth": depth, "buffers": buffers, "argv": argv,
            "invocations": 1,
            "weight": nmodes * ((runs or 1) + warmup_runs) * ch *
            tool.copied(bytes_pc, sge, order),
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
