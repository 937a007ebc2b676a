#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The machine as dma_map_benchmark --system describes it (test_sysinfo.c,
# whose top says what it checks); then python3 decodes the objects it wrote,
# and the tool's own --system here against what Python finds on this machine.
. "$(dirname "$0")/lib.sh"
build
out_dir

run_c_tests "$HOST_OUT/test_sysinfo"

need python3
"$TOOL" --system > "$TEST_OUT_DIR/here.json" 2> "$TEST_OUT_DIR/here.err"
echo $? > "$TEST_OUT_DIR/here.rc"
run_py_tests "$TEST_OUT_DIR" <<'PY'
import json, os, sys
from pytap import check, done
out = sys.argv[1]

def load(name):
    with open(os.path.join(out, name), encoding="utf-8") as f:
        text = f.read()
    assert text.count("\n") == 1 and text.endswith("\n"), text
    return json.loads(text)

def made_up():
    d = load("system.json")
    assert set(d) == {"tool", "version", "system"}, d
    s = d["system"]
    assert list(s) == ["hostname", "kernel", "machine", "cpu_model", "cpus", "numa",
                       "page_size", "cmdline", "dmi_product", "iommus"], list(s)
    assert s["numa"][1] == {"node": 10, "cpulist": "2-3", "mem_total_kb": 1019000,
                            "distance": [20, 10]}, s["numa"]
    assert s["iommus"] == ["dmar0", "dmar1"] and s["cpu_model"] == "Made-up CPU"
    e = load("empty.json")["system"]
    assert e["numa"] == [] and e["iommus"] == [] and e["cmdline"] is None, e
check("system.json and empty.json (made-up trees) are one line of JSON each, as written", made_up)

def here():
    assert open(os.path.join(out, "here.rc")).read().strip() == "0"
    assert open(os.path.join(out, "here.err")).read() == ""
    d = load("here.json")
    s = d["system"]
    u = os.uname()
    assert d["tool"] == "dma_map_benchmark" and d["version"], d
    assert (s["hostname"], s["kernel"], s["machine"]) == (u.nodename, u.release, u.machine), s
    assert s["cpus"] == os.sysconf("SC_NPROCESSORS_ONLN"), s
    assert s["page_size"] == os.sysconf("SC_PAGE_SIZE"), s
    nodes = sorted(int(n[4:]) for n in os.listdir("/sys/devices/system/node")
                   if n.startswith("node") and n[4:].isdigit()) \
        if os.path.isdir("/sys/devices/system/node") else []
    assert [n["node"] for n in s["numa"]] == nodes, s["numa"]
    with open("/proc/cmdline") as f:
        assert s["cmdline"] == f.read().strip()
    iommu = sorted(os.listdir("/sys/class/iommu")) if os.path.isdir("/sys/class/iommu") else []
    assert s["iommus"] == iommu, s
check("--system here: exit 0, nothing on stderr; hostname, kernel, machine, cpus, "
      "page size, NUMA nodes, cmdline, IOMMUs as this machine has them", here)
done()
PY
tap_end
