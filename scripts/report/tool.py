# SPDX-License-Identifier: GPL-2.0-only
"""What the scripts ask the tool instead of knowing it a second time.

The names of its modes, of their prep modes (in its reports' order) and
its --prep-modes words are the tool's: listing() reads them from its
--list-modes, once a process; what a -m dmaengine run copies (the
kernel's rounding to whole batches) its --dry-run says (copied()). The
tool asked is this tree's (tools/dma/dma_map_benchmark), built first
(make -C tools/dma) when it is missing or older than what is asked;
DMA_BENCH_HOST_TOOL names another (a tool this machine runs). Its
options' defaults the scripts read from its --help
(sweep_plan.tool_defaults()).
"""

import functools
import json
import os
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
IN_TREE = os.path.join(TOP, "tools", "dma", "dma_map_benchmark")


class ToolError(RuntimeError):
    """The tool could not say what the scripts ask it."""


def host_tool():
    """The tool the scripts ask: DMA_BENCH_HOST_TOOL, else this tree's."""
    return os.environ.get("DMA_BENCH_HOST_TOOL") or IN_TREE


def ask(tool, args):
    """TOOL's JSON answer to ARGS, or None when it has none."""
    try:
        p = subprocess.run([tool, *args], capture_output=True, text=True,
                           timeout=60)
        return json.loads(p.stdout) if p.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired, ValueError):
        return None


@functools.lru_cache(maxsize=None)
def answer(args):
    """The host tool's JSON answer to ARGS (a tuple); ToolError when no
    tool answers."""
    tool = host_tool()
    doc = ask(tool, args)
    if doc is None and tool == IN_TREE:	# not built, or built before ARGS
        subprocess.run(["make", "-s", "-C", os.path.dirname(IN_TREE)],
                       stdout=sys.stderr, check=False)
        doc = ask(tool, args)
    if doc is None:
        raise ToolError(f"{tool} {' '.join(args)} gave no answer: the "
                        "scripts take the names of the modes and what a run "
                        "copies from the tool; build it (make tool)")
    return doc


def listing():
    """The tool's --list-modes object: "modes" [{name, kind (map or copy),
    rows (its report's prep modes, in order)}], "prep_modes" (in the
    reports' order), "dma_prep_modes", "prep_mode_words" ({--prep-modes
    word: [prep modes]}), "options" [{name, short, metavar, modes,
    accepts, default}]."""
    return answer(("--list-modes",))


def copied(bytes_per_channel, sge, order):
    """Bytes a channel copies in a -m dmaengine run of BYTES_PER_CHANNEL in
    batches of SGE folios of ORDER (of the tool's page size): its
    --dry-run's, rounded up to whole batches, at least one, as the
    kernel rounds them."""
    return answer(("-m", "dmaengine", "--bytes-per-channel",
                   str(bytes_per_channel), "--sge", str(sge),
                   "--folio-order", str(order), "--dry-run"))["copied_per_channel"]


def modes(kind):
    """The names of the tool's modes of KIND (map, copy), in its order."""
    return tuple(m["name"] for m in listing()["modes"] if m["kind"] == kind)


def rows(mode):
    """The prep modes of MODE's report rows, in its order."""
    return tuple(next(m["rows"] for m in listing()["modes"]
                      if m["name"] == mode))
