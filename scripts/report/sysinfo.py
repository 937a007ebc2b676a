# SPDX-License-Identifier: GPL-2.0-only
"""What a results file says about the machine it was measured on.

gather() reads this machine (/proc, /sys); GUEST_SH prints the same facts
from inside the test VM (busybox sh) as '@@SWEEP SYS' and '@@SWEEP NODE'
lines, which parse_guest_line() turns into the same dictionary.
"""

import glob
import os
import platform
import re


def _read(path, default=None):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read().strip()
    except OSError:
        return default


def cpu_model(cpuinfo_text, devicetree_model=None):
    """The CPU's name: x86 'model name', else the device tree's model or
    arm64's implementer/part numbers, else None."""
    fields = {}
    for line in cpuinfo_text.splitlines():
        if ":" in line:
            k, v = line.split(":", 1)
            fields.setdefault(k.strip(), v.strip())
    for k in ("model name", "Model", "Hardware", "cpu model", "cpu"):
        if fields.get(k):
            return fields[k]
    if devicetree_model:
        return devicetree_model.strip("\0 ")
    if "CPU implementer" in fields:
        return (f"implementer {fields['CPU implementer']} part "
                f"{fields.get('CPU part', '?')} variant "
                f"{fields.get('CPU variant', '?')}")
    return None


def numa_nodes(root="/sys/devices/system/node"):
    """[{node, cpulist, mem_total_kb, distance}] from sysfs; [] if none."""
    nodes = []
    for d in sorted(glob.glob(os.path.join(root, "node[0-9]*")),
                    key=lambda p: int(re.sub(r"\D", "", os.path.basename(p)))):
        meminfo = _read(os.path.join(d, "meminfo"), "")
        m = re.search(r"MemTotal:\s+(\d+)\s+kB", meminfo)
        nodes.append({
            "node": int(os.path.basename(d)[4:]),
            "cpulist": _read(os.path.join(d, "cpulist"), ""),
            "mem_total_kb": int(m.group(1)) if m else None,
            "distance": [int(x) for x in
                         _read(os.path.join(d, "distance"), "").split()],
        })
    return nodes


def gather(tool_version=None):
    """This machine, for a sweep run here."""
    return {
        "where": "host",
        "hostname": platform.node(),
        "kernel": os.uname().release,
        "machine": os.uname().machine,
        "cpu_model": cpu_model(_read("/proc/cpuinfo", ""),
                               _read("/proc/device-tree/model")),
        "cpus": os.cpu_count(),
        "numa": numa_nodes(),
        "page_size": os.sysconf("SC_PAGE_SIZE"),
        "cmdline": _read("/proc/cmdline"),
        "dmi_product": _read("/sys/class/dmi/id/product_name"),
        "iommus": sorted(os.listdir("/sys/class/iommu"))
        if os.path.isdir("/sys/class/iommu") else [],
        "tool_version": tool_version,
    }


# Inside the VM: the same facts, one line each. $TOOL is the tool.
GUEST_SH = r"""
sweep_sys() {
	echo "@@SWEEP SYS kernel $(uname -r)"
	echo "@@SWEEP SYS machine $(uname -m)"
	echo "@@SWEEP SYS cpu_model $(grep -m1 -E '^(model name|Hardware|cpu model)' /proc/cpuinfo | sed 's/^[^:]*: *//')"
	echo "@@SWEEP SYS cpus $(grep -c '^processor' /proc/cpuinfo)"
	echo "@@SWEEP SYS cmdline $(cat /proc/cmdline)"
	echo "@@SWEEP SYS tool_version $("$TOOL" --version 2>&1)"
	for _n in /sys/devices/system/node/node[0-9]*; do
		[ -d "$_n" ] || continue
		echo "@@SWEEP NODE ${_n##*/node} $(cat "$_n/cpulist") $(awk '/MemTotal/ {print $4}' "$_n/meminfo") $(cat "$_n/distance")"
	done
	ls /sys/class/iommu 2>/dev/null | sed 's/^/@@SWEEP IOMMU /'
}
"""


def guest_skeleton():
    return {"where": "vm", "kernel": None, "machine": None, "cpu_model": None,
            "cpus": None, "numa": [], "page_size": 4096, "cmdline": None,
            "iommus": [], "tool_version": None}


def parse_guest_line(info, line):
    """Fold one '@@SWEEP SYS|NODE|IOMMU' line into info; False if not one."""
    parts = line.split(" ", 3)
    if len(parts) < 3 or parts[0] != "@@SWEEP":
        return False
    if parts[1] == "SYS":
        key = parts[2]
        value = parts[3] if len(parts) > 3 else ""
        info[key] = int(value) if key == "cpus" and value.isdigit() else value
        return True
    if parts[1] == "NODE":
        f = line.split()[2:]
        try:
            info["numa"].append({
                "node": int(f[0]), "cpulist": f[1],
                "mem_total_kb": int(f[2]),
                "distance": [int(x) for x in f[3:]]})
        except (IndexError, ValueError):
            info["numa"].append({"raw": line})
        return True
    if parts[1] == "IOMMU":
        info["iommus"].append(parts[2])
        return True
    return False


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
