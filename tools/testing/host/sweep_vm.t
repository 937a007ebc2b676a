#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/sweep.py --vm without a VM: the guest's side (sweep.sh run by
# busybox sh here on the stand-in tool, fixtures/fake_tool.py), the cells
# file and the guest's command, the guest lib.sh's json_string, the JSON
# lines the guest prints read back into cells, rows and system, setup
# failures and a VM cut short. The host side of a sweep: sweep.t.
. "$(dirname "$0")/lib.sh"

need python3
out_dir
run_py_tests "$TEST_OUT_DIR" <<'PY'
import json, os, shlex, subprocess, sys
from pytap import FIX, TOP, check, done
work = sys.argv[1]
import sweep
from report import results, sysinfo

# the tool's defaults, from its --help, as sweep.py's main() reads them
TOOL_DEFAULTS = sweep.tool_defaults(os.path.join(TOP, "tools/dma/dma_map_benchmark"))

GUEST = os.path.join(TOP, "tools/testing/guest")
BUSYBOX = "/bin/busybox"

# The guest side, tools/testing/guest/sweep.sh, run here by busybox sh (as
# in the VM, its applets before PATH) in a made-up /opt/dma-bench: the
# stand-in tool, and a lib.sh that is the real one with the module loading,
# the edu binding and soft_dma's knobs logged instead of done.
def guest(name, kind, soft, cells, env=None):
    proj = os.path.join(work, name)
    tests = os.path.join(proj, "tests")
    os.makedirs(tests)
    for f in os.listdir(GUEST):
        if f != "lib.sh":
            os.symlink(os.path.join(GUEST, f), os.path.join(tests, f))
    with open(os.path.join(tests, "lib.sh"), "w") as f:
        f.write('. "%s/lib.sh"\n' % GUEST +
                'load_module() { echo "load_module $*" >> "$GUEST_LOG"; [ "$1" != "$FAIL_LOAD" ]; }\n'
                'bind_benchmark() { echo bind_benchmark >> "$GUEST_LOG"; }\n'
                'sd_knob() { echo "sd_knob $*" >> "$GUEST_LOG"; }\n')
    with open(os.path.join(proj, "cells.txt"), "w") as f:
        f.write(sweep.cells_text(cells))
    e = dict(os.environ, PROJECT=proj, TOOL=os.path.join(FIX, "fake_tool.py"),
             GUEST_LOG=os.path.join(proj, "log"), FAIL_LOAD="none", TMPDIR=proj)
    e.update(env or {})
    cmd = sweep.guest_command(kind, soft, "cells.txt")
    q = subprocess.run([BUSYBOX, "sh", "-c", cmd], cwd=proj, env=e, capture_output=True,
                       text=True)
    log = open(e["GUEST_LOG"]).read() if os.path.exists(e["GUEST_LOG"]) else ""
    return q, log

def vm_sweep(name, args):
    a = sweep.parse_args(["--vm", "-q"] + shlex.split(args))
    a.output = os.path.join(work, name + ".out")
    os.makedirs(a.output)
    kind = "map" if a.map else "dmaengine"
    cells = sweep.plan_map(a) if a.map else \
        sweep.plan_dmaengine(a, 4096, TOOL_DEFAULTS)
    r = {"format": results.FORMAT, "format_version": 2, "kind": kind,
         "params": {"vm": {}}, "system": sysinfo.skeleton("vm"), "cells": cells, "rows": []}
    r["system"]["host"] = {"hostname": "h", "kernel": "k", "cpu_model": None}
    return sweep.Sweep(a, kind, cells, r)

def feed(sw, text, rc=0):
    gr = sweep.GuestReader(sw)
    for line in text.splitlines(True):
        gr.feed(line)
    return gr, gr.vm_ended(rc)

def guest_files():
    cells = [{"index": 0, "invocations": 1, "argv": ["-m", "dmaengine", "--tool-arg", "a b'c"]},
             {"index": 1, "invocations": 3, "argv": ["-m", "sg", "--json"]}]
    assert sweep.cells_text(cells) == ("0 1 -m dmaengine --tool-arg 'a b'\"'\"'c'\n"
                                       "1 3 -m sg --json\n"), sweep.cells_text(cells)
    assert sweep.guest_command("dmaengine", "channels=2 nocopy=1", "cells.txt") == \
        "sh tests/sweep.sh --soft-dma 'channels=2 nocopy=1' cells.txt"
    assert sweep.guest_command("map", None, "cells.txt") == "sh tests/sweep.sh --map cells.txt"
    sh = [BUSYBOX, "sh", "-n", os.path.join(GUEST, "sweep.sh")]
    q = subprocess.run(sh, capture_output=True, text=True)
    assert q.returncode == 0, q.stderr
check("VM: the cells file (a line each: index, runs, the tool's words quoted), the guest's "
      "command; sweep.sh passes busybox sh -n", guest_files)

def json_string():
    text = 'a\\b"c\td\x01e\x1f\r\n2nd "line" \\\\ \u00e9 & \\& end\n\n'
    path = os.path.join(work, "nasty.txt")
    open(path, "w", encoding="utf-8", newline="").write(text)
    lib = os.path.join(work, "jslib")
    os.makedirs(os.path.join(lib, "tests"))
    for f in ("lib.sh", "tap.sh"):
        os.symlink(os.path.join(GUEST, f), os.path.join(lib, "tests", f))
    q = subprocess.run([BUSYBOX, "sh", "-c", '. "$PROJECT/tests/lib.sh"; json_string "$1"; '
                        'printf " "; json_string /dev/null; printf " "; printf x | json_string',
                        "sh", path], env=dict(os.environ, PROJECT=lib), capture_output=True)
    assert q.returncode == 0, q.stderr
    out = q.stdout.decode("utf-8")
    assert out.count("\n") == 0, out
    a, b, c = json.loads("[" + out.replace('" "', '", "') + "]")
    assert a == text[:-1] and b == "" and c == "x", (a, text)
check("guest lib.sh: json_string escapes quotes, backslashes, tabs, CR and control "
      "characters, joins lines with \\n, one line", json_string)

gq, glog = {}, {}
def guest_real():
    sw = vm_sweep("gde", "--prep-modes memcpy --channels 2,8 --orders 0 --sge 16 --bytes-per-channel 1M "
                  "--runs 3 --soft-dma 'pool_size=32 nocopy=1'")
    q, log = guest("gde", "dmaengine", "channels=8 pool_size=32 nocopy=1", sw.cells,
                   {"FAKE_TOOL_MAX_CHANNELS": "4"})
    gq["de"] = q.stdout
    assert q.returncode == 0, q.stderr
    # load-time parameters to insmod, run-time knobs to debugfs
    assert log == ("load_module dma_map_benchmark\nload_module dma_migrate\nload_module soft_dma channels=8 pool_size=32\n"
                   "sd_knob nocopy 1\n"), log
    lines = q.stdout.splitlines()
    recs = [json.loads(l) for l in lines]
    assert [r["sweep"] for r in recs] == ["system", "ready", "run", "run", "done"], lines
    assert recs[0]["rc"] == 0 and recs[0]["tool"]["system"]["kernel"] == "6.12.0-fake"
    r = recs[2]
    assert (r["cell"], r["inv"], r["rc"], r["err"]) == (0, 0, 0, ""), r
    assert r["tool"]["results"][0]["prep_mode"] == "prep_memcpy" and 0 <= r["t1"] - r["t0"] < 60
    r = recs[3]
    assert (r["cell"], r["rc"], r["out"]) == (1, 1, "") and "tool" not in r, r
    assert r["err"].startswith("dma_map_benchmark: DMAENGINE_BENCHMARK failed: No such device\n"
                               "dma_map_benchmark: found fewer"), r
    sw.start()
    gr, err = feed(sw, q.stdout)
    assert err is None and gr.finished
    c = sw.cells
    assert c[0]["status"] == "ok" and c[0]["tool"]["params"]["channels"] == 2
    assert c[0]["command"].startswith("$TOOL -m dmaengine --prep-modes memcpy --channels 2 ")
    assert c[1]["status"] == "failed" and c[1]["exit_status"] == 1
    assert "found fewer DMA_MEMCPY channels than --channels 8" in c[1]["error"], c[1]
    s = sw.res["system"]
    assert s["where"] == "vm" and s["kernel"] == "6.12.0-fake" and s["cpus"] == 4, s
    assert s["tool_version"] == "dma_map_benchmark fake-1.0" and s["host"]["hostname"] == "h"
    saved = json.load(open(os.path.join(sw.a.output, "results.json")))
    assert len(saved["rows"]) == 2 and saved["system"]["providers"][0]["driver"] == "fake_dma"
check("VM, the guest side run by busybox sh with the stand-in tool: modules, soft_dma's "
      "parameters and knobs, a JSON line a run (the tool's JSON, its stderr, exit status, "
      "guest clock), read into cells, rows and system", guest_real)

def guest_map():
    sw = vm_sweep("gmap", "--map --map-modes sg --granules 1,8 --threads 1 --runs 2 --seconds 1")
    q, log = guest("gmap", "map", None, sw.cells)
    assert q.returncode == 0 and log == "load_module dma_map_benchmark\nload_module dma_migrate\nbind_benchmark\n", \
        (q.stderr, log)
    assert [json.loads(l)["sweep"] for l in q.stdout.splitlines()] == \
        ["system", "ready"] + ["run"] * 4 + ["done"]
    sw.start()
    gr, err = feed(sw, q.stdout)
    assert err is None and [c["status"] for c in sw.cells] == ["ok", "ok"]
    assert len(sw.cells[1]["runs"]) == 2 and sw.rows_by_cell[1][0]["granule"] == 8
    # a failing run ends its cell; the next cell runs
    sw = vm_sweep("gmapf", "--map --map-modes sg --granules 1,8 --threads 1 --runs 3")
    q, log = guest("gmapf", "map", None, sw.cells, {"FAKE_TOOL_FAIL_MAP": "1"})
    recs = [json.loads(l) for l in q.stdout.splitlines()]
    assert [(r.get("cell"), r.get("inv")) for r in recs if r["sweep"] == "run"] == \
        [(0, 0), (1, 0)], recs
    sw.start()
    gr, err = feed(sw, q.stdout)
    assert err is None and [c["status"] for c in sw.cells] == ["failed", "failed"]
    assert "no device is bound" in sw.cells[0]["error"]
check("VM, map: the edu device bound, runs a cell, a failing run ends its cell", guest_map)

def guest_setup_failed():
    sw = vm_sweep("gfail", "--prep-modes memcpy --channels 1 --orders 0")
    q, log = guest("gfail", "dmaengine", "channels=1", sw.cells, {"FAIL_LOAD": "soft_dma"})
    assert q.returncode == 1, q
    recs = [json.loads(l) for l in q.stdout.splitlines()]
    assert [r["sweep"] for r in recs] == ["system", "setup"], recs
    assert recs[1]["error"] == "insmod soft_dma.ko channels=1 failed", recs[1]
    gr, err = feed(sw, "booting\n" + q.stdout, rc=1)
    assert err == "insmod soft_dma.ko channels=1 failed"
    assert sw.cells[0]["status"] == "failed" and \
        sw.cells[0]["error"].startswith("insmod soft_dma.ko channels=1 failed\nbooting"), sw.cells[0]
check("VM: a setup that fails says so, and every cell fails with its message", guest_setup_failed)

def guest_cut_short():
    # the VM dies in the second run of a 3-run map cell: that cell ended
    # during, the next one before; the partial line is not JSON
    sw = vm_sweep("gcut", "--map --map-modes single --granules 1,8,64 --threads 1 --runs 3")
    run = ('{"sweep":"run","cell":%d,"inv":%d,"rc":0,"t0":1.0,"t1":2.5,"err":"",'
           '"tool":{"mode":"single","results":{"map_us":{"mean":1.0,"stddev":0.1},'
           '"unmap_us":{"mean":0.5,"stddev":0.1}}}}\n')
    text = ("noise\n" + gq["de"].splitlines(True)[0] + '{"sweep":"ready"}\n' +
            run % (0, 0) + run % (0, 1) + run % (0, 2) + run % (1, 0) +
            '{"sweep":"run","cell":1,"inv":1,"rc":0,"t0":3')
    sw.start()
    gr, err = feed(sw, text, rc=125)
    assert err == "the VM ended before the sweep finished (run.sh exit 125)", err
    c = sw.cells
    assert c[0]["status"] == "ok" and abs(c[0]["elapsed_s"] - 4.5) < 1e-9, c[0]
    assert c[1]["status"] == "failed" and c[1]["exit_status"] == 125, c[1]
    assert c[1]["error"] == "exit status 125: the VM ended during this cell (run.sh exit 125)"
    assert c[2]["status"] == "failed" and c[2]["error"].startswith("not run: the VM ended before")
    assert sw.res["system"]["kernel"] == "6.12.0-fake" and gr.log == ["noise"]
    # nothing but boot noise: the VM did not start the sweep
    sw = vm_sweep("gnone", "--map --granules 1 --threads 1 --map-modes sg")
    gr, err = feed(sw, "Kernel panic\n", rc=125)
    assert err == "the VM did not start the sweep (run.sh exit 125)"
    assert sw.cells[0]["error"].endswith("(run.sh exit 125)\nKernel panic"), sw.cells[0]
check("VM: cut short, the cell that was running fails as such, the rest as not run; "
      "a VM that never starts the sweep fails every cell with its last lines", guest_cut_short)
done()
PY
tap_end
