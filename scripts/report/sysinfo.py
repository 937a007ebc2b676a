# SPDX-License-Identifier: GPL-2.0-only
"""What a results file says about the machine it was measured on.

The tool describes the machine itself (dma_map_benchmark --system: kernel,
CPU, NUMA nodes, command line, IOMMUs, page size, its version), here and
in the test VM alike; from_tool() makes results.json's "system" of its
object, ask_tool() asks a tool on this machine. providers() merges the
DMA providers the tool's runs named.
"""

import json
import os
import re
import subprocess


def skeleton(where):
    """"system" before (or without) the tool's description."""
    return {"where": where, "kernel": None, "machine": None,
            "cpu_model": None, "cpus": None, "numa": [], "page_size": None,
            "cmdline": None, "iommus": [], "tool_version": None}


def from_tool(doc, where):
    """"system" of the tool's --system object: where it ran ("host" or
    "vm"), its "system" members, tool_version as --version says it."""
    return {**skeleton(where), **(doc.get("system") or {}),
            "tool_version": f"{doc.get('tool')} {doc.get('version')}"}


def ask_tool(tool, where="host"):
    """The machine as TOOL --system describes it; without a description
    (a tool from before --system), what --version says."""
    def run(opt):
        try:
            p = subprocess.run([tool, opt], capture_output=True, text=True,
                               timeout=30)
            return p.stdout if p.returncode == 0 else None
        except (OSError, subprocess.SubprocessError):
            return None
    try:
        return from_tool(json.loads(run("--system") or ""), where)
    except (ValueError, AttributeError):
        return dict(skeleton(where),
                    tool_version=(run("--version") or "").strip() or None)


def host_summary(tool):
    """For a sweep in the VM: the host it ran on (the host's tool, if
    built, names its CPU)."""
    u = os.uname()
    s = {"hostname": u.nodename, "kernel": u.release, "cpu_model": None}
    if tool and os.access(tool, os.X_OK):
        s["cpu_model"] = ask_tool(tool).get("cpu_model")
    return s


def providers(tool_jsons):
    """Drivers, devices and channel names the tool's JSON named, merged."""
    seen = {}
    for tj in tool_jsons:
        for ch in (tj or {}).get("channels", []) or []:
            k = (ch.get("driver", "?"), ch.get("device", "?"))
            p = seen.setdefault(k, {"driver": k[0], "device": k[1],
                                    "channels": [], "has_memcpy_sg": None,
                                    "has_memcpy_vec": None,
                                    "max_seg_size": ch.get("max_seg_size"),
                                    "node": ch.get("node")})
            if ch.get("name") and ch["name"] not in p["channels"]:
                p["channels"].append(ch["name"])
            for cap in ("has_memcpy_sg", "has_memcpy_vec"):
                if cap in ch:	# a tool from before memcpy_vec: None
                    p[cap] = bool(p[cap]) or bool(ch[cap])
    out = list(seen.values())
    for p in out:
        p["channels"].sort(key=lambda n: [int(x) if x.isdigit() else x
                                          for x in re.split(r"(\d+)", n)])
    return out
