#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/sweep.py without a kernel, on the host: its writers (table in the
# reference format, CSV, results.json) on the tool's JSON (one captured in
# the VM, converted to the version 2 layout, and one carrying the
# reference row), the cpu row and the columns a sweep of depths and
# buffers adds, the '#' lines (buffers, depth, nodes, cpus, cpufreq, modes
# not run), format 1 rows, --preset mail (the mail's workload) and
# --folios, the progress line and the estimate of the time left, whole
# sweeps here against a stand-in tool (fixtures/fake_tool.py: dmaengine
# and map, failing cells), perf stat parsing and the perf command lines,
# the refusals (--perf with --vm, results already there), and that the
# scripts' names of the modes are the tool's (--list-modes), and the bytes
# a cell copies (--dry-run). The VM side of a sweep (--vm): sweep_vm.t.
. "$(dirname "$0")/lib.sh"

need python3
out_dir
run_py_tests "$TEST_OUT_DIR" <<'PY'
import csv, io, json, os, re, shlex, subprocess, sys
from pytap import FIX, TOP, check, done
work = sys.argv[1]
import sweep
from report import results, sysinfo

FAKE = os.path.join(FIX, "fake_tool.py")
SWEEP = os.path.join(TOP, "scripts/sweep.py")


# the tool's table (test_report_dmaengine.c): map_ms and unmap_ms beside the phases
REF = ("mode           chan folio sge run_ms          prep_ms        submit_ms     issue_ms    wait_ms           map_ms        unmap_ms      prep_calls GB/s\n"
       "prep_memcpy    1    4KB   512 632.86 \u00b1 8.18   18.00 \u00b1 6.38   4.44 \u00b1 0.09   0.09 \u00b1 0.04 603.54 \u00b1 5.03     1.20 \u00b1 0.03   0.80 \u00b1 0.01   131072     0.85 \u00b1 0.01\n")

def cell(prep="memcpy", ch=2, order=0, sge=16):
    return {"index": 0, "prep_modes": prep, "channels": ch, "folio_order": order,
            "folio_bytes": 4096 << order, "sge": sge, "argv": [], "invocations": 1,
            "weight": 1}

def doc(rows, cells=(), kind="dmaengine"):
    return {"format": results.FORMAT, "format_version": 1, "kind": kind,
            "rows": rows, "cells": list(cells), "params": {}, "system": {}}

real = open(os.path.join(FIX, "tool-dmaengine.json")).read()

def rows_of(t=None, c=None):
    """The rows of a successful call: the captured JSON, or the document t."""
    return sweep.dmaengine_rows(c or cell(), [(0, real if t is None else json.dumps(t), "", 1.0)])

def table(rows):
    return results.format_table(doc(rows), with_header=False).splitlines()

# the tool's defaults, from its --help, as sweep.py's main() reads them
TOOL_DEFAULTS = sweep.tool_defaults(os.path.join(TOP, "tools/dma/dma_map_benchmark"))

def plan(args, page_size=4096):
    a = sweep.parse_args(shlex.split(args))
    return sweep.plan_map(a) if a.map else \
        sweep.plan_dmaengine(a, page_size, TOOL_DEFAULTS)

def reference_row():
    t = json.loads(real)
    r = t["results"][0]
    r.update(chan=1, sge=512, prep_calls=131072,
             run_ms={"mean": 632.86, "stddev": 8.18}, prep_ms={"mean": 18.0, "stddev": 6.38},
             submit_ms={"mean": 4.44, "stddev": 0.09}, issue_ms={"mean": 0.09, "stddev": 0.04},
             wait_ms={"mean": 603.54, "stddev": 5.03}, map_ms={"mean": 1.2, "stddev": 0.03},
             unmap_ms={"mean": 0.8, "stddev": 0.01}, gbps={"mean": 0.85, "stddev": 0.01})
    rows = rows_of(t, cell(ch=1, sge=512))
    got = results.format_table(doc(rows), with_header=False)
    assert got == REF, "\n" + got + REF
check("table: the reference row, byte for byte (header, widths, \u00b1)", reference_row)

def real_json():
    c = cell()
    rows = rows_of(c=c)
    assert c["status"] == "ok" and c["tool"]["kernel"] == "6.12.117+deb12-amd64"
    assert len(rows) == 1 and rows[0]["status"] == "ok" and rows[0]["chan"] == 2
    assert rows[0]["bytes_per_channel"] == 1048576
    assert rows[0]["depth"] == 1 and rows[0]["buffers"] == "reuse"
    assert rows[0]["copy_ms"] == {"mean": 0, "stddev": 0} and "prep_stalls" in rows[0]
    line = table(rows)[1]
    want = ("prep_memcpy    2    4KB   16  23.16 \u00b1 31.95   0.40 \u00b1 0.09    "
            "0.09 \u00b1 0.01   5.69 \u00b1 5.69 19.73 \u00b1 29.27     0.01 \u00b1 0.00   "
            "0.01 \u00b1 0.00   512        0.36 \u00b1 0.35")
    assert line == want, "\n" + line + "\n" + want
    p = sysinfo.providers([c["tool"]])
    assert p == [{"driver": "soft_dma", "device": "soft_dma.0", "channels": ["dma0chan0", "dma0chan1"],
                  "has_memcpy_sg": False, "has_memcpy_vec": False, "max_seg_size": 4194304,
                  "node": -1}], p
    old = json.loads(real)	# a tool from before memcpy_vec
    for ch in old["channels"]:
        del ch["has_memcpy_vec"]
    assert sysinfo.providers([old])[0]["has_memcpy_vec"] is None
    new = json.loads(real)
    new["channels"][1]["has_memcpy_vec"] = True
    assert sysinfo.providers([new])[0]["has_memcpy_vec"] is True
check("the tool's JSON captured in the VM: row, table line, providers", real_json)

def failed_rows():
    msg = ("dma_map_benchmark: DMAENGINE_BENCHMARK failed: Operation not supported\n"
           "dma_map_benchmark: this kernel has no dmaengine_prep_dma_memcpy_sg(): use --prep-modes memcpy\n")
    c = cell(prep="both")
    rows = sweep.dmaengine_rows(c, [(1, "", msg, 0.1)])
    assert c["status"] == "failed" and c["exit_status"] == 1 and c["error"] == msg.strip()
    assert [r["prep_mode"] for r in rows] == ["prep_memcpy", "prep_memcpy_sg"]
    assert all(r["status"] == "failed" for r in rows)
    t = table(rows)
    assert t[1] == "prep_memcpy    2    4KB   16  FAILED: this kernel has no dmaengine_prep_dma_memcpy_sg(): use --prep-modes memcpy", t[1]
    c = cell()
    sweep.dmaengine_rows(c, [(0, "not json", "", 0.1)])
    assert c["status"] == "failed" and "not JSON" in c["error"]
    c = cell()
    sweep.dmaengine_rows(c, [(139, "", "Segmentation fault", 0.1)])
    assert c["error"] == "exit status 139: Segmentation fault"
check("failed cells: a row per prep mode, the diagnosis line in the table", failed_rows)

def csv_writer():
    rows = rows_of()
    rows += sweep.dmaengine_rows(dict(cell(prep="memcpy_sg", ch=4), index=1), [(1, "", "x: no channel", 0.1)])
    text = results.format_csv(doc(rows))
    rd = list(csv.DictReader(io.StringIO(text)))
    assert text.splitlines()[0] == ",".join(results.csv_header("dmaengine", results.figures()))
    assert len(rd) == 2
    assert rd[0]["status"] == "ok" and rd[0]["mode"] == "prep_memcpy" and rd[0]["chan"] == "2"
    assert rd[0]["run_ms_mean"] == "23.156093" and rd[0]["gbps_stddev"] == "0.346115"
    assert rd[0]["prep_calls"] == "512" and rd[0]["error"] == ""
    assert rd[1]["status"] == "failed" and rd[1]["channels"] == "4" and rd[1]["run_ms_mean"] == ""
    assert rd[1]["error"] == "x: no channel"
check("CSV: header, one row per cell and prep mode, failures with their message", csv_writer)

def progress():
    assert sweep.eta([(1, 10.0, True)], [2, 3]) == 50.0
    assert sweep.eta([(1, 10.0, True), (5, 0.1, False)], [1]) == 10.0
    assert sweep.eta([(5, 0.1, False)], [1]) is None
    assert sweep.eta([(1, 10.0, True)], []) == 0.0
    assert sweep.hms(3725) == "1:02:05" and sweep.hms(None) == "?"
    line = sweep.progress_line(3, 12, "both chan 4 folio 64KB sge 512", True, 12.34,
                               "prep_memcpy 0.85 GB/s", 75, 3600)
    assert line == ("[ 3/12] both chan 4 folio 64KB sge 512: ok in 12.3s "
                    "(prep_memcpy 0.85 GB/s); elapsed 0:01:15, ~1:00:00 left"), line
    line = sweep.progress_line(12, 12, "x", False, 0.04, "no channel", 80, None)
    assert line == "[12/12] x: FAILED after 0.0s (no channel); elapsed 0:01:20, ~? left", line
check("progress: the estimate of the time left (failed cells excluded), the line", progress)

def weights():
    cells = plan("--channels 1,4 --orders 0,9 --sge 512 --bytes-per-channel 1M --runs 3")
    assert len(cells) == 4 and [c["channels"] for c in cells] == [1, 1, 4, 4]
    # weight: prep modes x (runs + warm-up) x channels x bytes a channel
    # copies; order 9 x 512 is a 1G batch: 1M is rounded up to it
    # 1M rounds up to one batch of 512 x 4K
    # --prep-modes auto: four modes
    assert cells[0]["weight"] == 4 * 4 * 1 * (2 << 20)
    assert cells[1]["weight"] == 4 * 4 * 1 * (1 << 30)
    assert cells[0]["argv"] == ("-m dmaengine --channels 1 --folio-order 0 --sge 512 --runs 3 "
                                "--buffers distinct --depth 1 --bytes-per-channel 1M --json"
                                ).split(), cells[0]["argv"]
    cells = plan("--prep-modes both,cpu --channels 1 --orders 0 --depth 1,4 --buffers reuse,distinct "
                 "--src-node 0 --dst-node 1 --cpus 0-3")
    assert [(c["buffers"], c["depth"], c["prep_modes"]) for c in cells] == [
        ("reuse", 1, "both"), ("reuse", 1, "cpu"), ("reuse", 4, "both"), ("reuse", 4, "cpu"),
        ("distinct", 1, "both"), ("distinct", 1, "cpu"), ("distinct", 4, "both"),
        ("distinct", 4, "cpu")], cells
    assert cells[2]["argv"] == ("-m dmaengine --prep-modes both --channels 1 --folio-order 0 --sge 512 "
                                "--runs 20 --buffers reuse --depth 4 --src-node 0 --dst-node 1 "
                                "--cpus 0-3 --json").split(), cells[2]["argv"]
    assert cells[0]["weight"] == 2 * 21 * (512 << 20) and cells[1]["weight"] == 21 * (512 << 20)
    assert sweep.describe("dmaengine", cells[2]) == "both chan 1 folio 4KB sge 512 depth 4 reuse buffers"
    assert [c["prep_modes"] for c in plan("--prep-modes memcpy,memcpy_sg --channels 2 --orders 0")] == \
        ["memcpy", "memcpy_sg"]
    cells = plan("--prep-modes memcpy_sg,memcpy_vec --channels 2 --orders 0")
    assert [c["prep_modes"] for c in cells] == ["memcpy_sg", "memcpy_vec"]
    assert cells[1]["argv"][:4] == ["-m", "dmaengine", "--prep-modes", "memcpy_vec"], cells[1]["argv"]
    assert cells[1]["weight"] == 21 * 2 * (512 << 20)
    assert sweep.describe("dmaengine", cells[1]) == "memcpy_vec chan 2 folio 4KB sge 512"
    assert plan("--prep-modes all --channels 1 --orders 0")[0]["weight"] == \
        4 * 21 * (512 << 20)
    assert results.PREP_OF_OPTION["all"] == ("prep_memcpy", "prep_memcpy_sg",
                                             "prep_memcpy_vec", "cpu")
    assert results.PREP_OF_OPTION["both"] == ("prep_memcpy", "prep_memcpy_sg")
    cells = plan("--map")
    assert len(cells) == 2 * 3 * 5 and cells[0]["invocations"] == 5 == sweep.parse_args(["--map"]).runs
    assert cells[0]["argv"] == "-m single -g 1 -t 1 -s 10 --json".split()
check("cells: matrix order (prep innermost), argv, weights, map defaults", weights)

def run(args, env=None):
    """sweep.py ARGS (a list, or words in a string)."""
    args = shlex.split(args) if isinstance(args, str) else args
    return subprocess.run([sys.executable, SWEEP] + args, capture_output=True, text=True,
                          env=dict(os.environ, **(env or {})))

def swept(name, args, env=None, rc=0):
    """A sweep here of the stand-in tool into work/NAME: the process, its
    results.json and the directory."""
    o = os.path.join(work, name)
    q = run(["--tool", FAKE] + shlex.split(args) + ["-o", o], env)
    assert q.returncode == rc, (q.returncode, q.stderr)
    return q, json.load(open(os.path.join(o, "results.json"))), o

out1 = os.path.join(work, "de")
log = os.path.join(work, "tool.log")
p = run(["--tool", FAKE, "--channels", "1,8", "--orders", "0,4", "--sge", "16", "--runs", "3",
         "--label", "fake", "-o", out1],
        {"FAKE_TOOL_MAX_CHANNELS": "4", "FAKE_TOOL_LOG": log})
res = {}
def whole_sweep():
    assert p.returncode == 0, p.stderr
    calls = open(log).read().splitlines()
    # the tool's defaults first (its --help: they weigh the cells)
    assert calls[0] == "--help", calls
    calls = calls[1:]
    assert len(calls) == 4, calls
    assert calls[0] == ("-m dmaengine --channels 1 --folio-order 0 --sge 16 --runs 3 "
                        "--buffers distinct --depth 1 --json"), calls[0]
    res.update(json.load(open(os.path.join(out1, "results.json"))))
    assert res["format"] == "dma-bench-sweep" and res["kind"] == "dmaengine" and res["label"] == "fake"
    assert res["format_version"] == results.FORMAT_VERSION == 4
    # ok cells: the three modes the stand-in kernel has; failed cells: a
    # row for each of the four a call without --prep-modes asks for
    assert len(res["cells"]) == 4 and len(res["rows"]) == 2 * 3 + 2 * 4
    assert [c["status"] for c in res["cells"]] == ["ok", "ok", "failed", "failed"]
    assert "found fewer DMA_MEMCPY channels than --channels 8" in res["cells"][2]["error"]
check("sweep here (stand-in tool): --help, then 4 calls, 4 cells, 14 rows (3 modes ran, 4 failed), channel-8 cells failed, exit 0", whole_sweep)

def recorded():
    s, prm = res["system"], res["params"]
    # the tool's --system (fake_tool.SYSTEM), where it ran, its version
    assert s["where"] == "host" and s["kernel"] == "6.12.0-fake", s
    assert s["tool_version"] == "dma_map_benchmark fake-1.0"
    assert s["cpu_model"] == "Fake CPU @ 1.00GHz" and s["cpus"] == 4 and s["page_size"] == 4096
    assert s["numa"][1] == {"node": 1, "cpulist": "2-3", "mem_total_kb": 1019000, "distance": [20, 10]}
    assert s["providers"][0]["driver"] == "fake_dma" and s["providers"][0]["channels"] == ["dma0chan0"]
    assert prm["channels"] == [1, 8] and prm["orders"] == [0, 4] and prm["sge"] == [16]
    assert prm["runs"] == 3 and prm["prep_modes"] == ["auto"] and prm["tool"] == FAKE
    assert prm["depth"] == [1] and prm["buffers"] == ["distinct"] and prm["preset"] is None
    assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", res["date"])
    assert res["cells"][0]["tool"]["results"][0]["prep_mode"] == "prep_memcpy"
    assert res["cells"][0]["command"].endswith("--json")
    # the tool's figures and table, once
    assert all("figures" not in c.get("tool", {}) for c in res["cells"])
    assert res["tool_figures"] == {k: json.loads(real)[k] for k in ("figures", "table")}
check("results.json: kernel, CPU, NUMA, tool version, providers, parameters, date, tool JSON, "
      "the tool's figures once", recorded)

def described():
    # the table, the CSV and compare.py take the figures from the file
    r = results.load(os.path.join(FIX, "results-dmaengine.json"))
    t = r["tool_figures"]
    before = results.format_table(r, with_header=False).splitlines()[0]
    for c in t["table"]:
        if c["key"] == "wait_ms":
            c["heading"], c["width"] = "waited", 20
    for f in t["figures"]:
        if f["key"] == "issue_ms":
            f["prep_modes"] = ["prep_memcpy"]	# as if only memcpy had it
    t["figures"].append({"key": "new_ms", "unit": "ms", "kind": "mean_stddev",
                         "prep_modes": ["prep_memcpy_vec"]})
    t["table"].append({"key": "new_ms", "heading": "new_ms", "width": 9, "verbose": True})
    text = results.format_table(r, with_header=False)
    head = text.splitlines()[0]
    assert head.replace("waited" + " " * 15, "wait_ms" + " " * 11) == before, (head, before)
    sg = [l for l in text.splitlines() if l.startswith("prep_memcpy_sg ")][0]
    assert " - " in sg and "new_ms" not in head	# no row has new_ms
    assert "new_ms_mean,new_ms_stddev,error" in results.format_csv(r).splitlines()[0]
check("results.py lays out the table, the '-' cells and the CSV by the file's tool_figures", described)

def outputs():
    table = open(os.path.join(out1, "table.txt")).read()
    assert p.stdout == table
    lines = table.splitlines()
    head = [i for i, l in enumerate(lines) if l.startswith("mode ")]
    assert len(head) == 1
    # the failed cells' prep_memcpy_vec rows widen the mode column; no
    # memcpy_vec row ran: no convert_ms column
    assert lines[head[0]] == REF.splitlines()[0].replace(
        "unmap_ms      ", "unmap_ms      copy_ms         ").replace(
        "mode ", "mode  "), lines[head[0]]
    assert lines[0].startswith("# sweep fake ") and "dma_map_benchmark fake-1.0" in lines[0]
    assert "# buffers distinct, depth 1, src node -1, dst node -1, cpus not pinned" in lines
    assert "# cpufreq: governor performance, now 2000 MHz, max 3000 MHz; boost off" in lines
    assert "# not run: prep_memcpy_vec: this kernel has no dmaengine_prep_dma_memcpy_vec() (DMA_MEMCPY_VEC): the project's series in kernel/patches/v7.3/ adds it (v6.12/ for 6.12)" in lines
    body = lines[head[0] + 1:]
    assert body[0].startswith("prep_memcpy     1    4KB   16  10.00 \u00b1 1.00  "), body[0]
    assert "0.10 \u00b1 0.01   0.10 \u00b1 0.01   -               131072" in body[0], body[0]
    assert body[2].startswith("prep_memcpy     8    4KB   16  FAILED: found fewer"), body[2]
    assert body[4].startswith("prep_memcpy_sg  1    4KB   16  15.00 \u00b1 1.00  "), body[4]
    assert body[8].startswith("prep_memcpy_vec 8    4KB   16  FAILED: found fewer"), body[8]
    assert body[10] == ("cpu             1    4KB   16  5.00 \u00b1 1.00     -              -     "
                        "        -           -                 -             -             "
                        "5.00 \u00b1 1.00     -          2.00 \u00b1 0.10"), body[10]
    assert lines[-1] == "# 2 of 4 cells failed (messages in the JSON and the CSV)"
    rows = list(csv.DictReader(open(os.path.join(out1, "results.csv"))))
    assert len(rows) == 14 and [r["status"] for r in rows].count("failed") == 8
    assert rows[1]["folio_bytes"] == "65536" and rows[1]["run_ms_mean"] == "14.000000"
    assert rows[1]["depth"] == "1" and rows[1]["buffers"] == "distinct"
    assert rows[10]["mode"] == "cpu" and rows[10]["copy_ms_mean"] == "5.000000"
    assert rows[10]["prep_ms_mean"] == "0.000000" and rows[0]["prep_stalls_mean"] == "1.000000"
    assert rows[0]["convert_ms_mean"] == "0.000000" and rows[10]["convert_ms_stddev"] == "0.000000"
    assert rows[8]["mode"] == "prep_memcpy_vec" and rows[8]["status"] == "failed"
check("table.txt (= stdout) and results.csv of that sweep: '#' lines, cpu row, new columns", outputs)

def progress_lines():
    pl = [l for l in p.stderr.splitlines() if l.startswith("[")]
    assert len(pl) == 4, p.stderr
    assert re.fullmatch(r"\[1/4\] auto chan 1 folio 4KB sge 16: ok in \d+\.\ds "
                        r"\(prep_memcpy 1\.00 GB/s, prep_memcpy_sg 1\.00 GB/s, cpu 2\.00 GB/s\); "
                        r"elapsed \d:\d\d:\d\d, ~\d:\d\d:\d\d left", pl[0]), pl[0]
    assert re.match(r"\[3/4\] auto chan 8 folio 4KB sge 16: FAILED after", pl[2]), pl[2]
    assert pl[3].endswith("~0:00:00 left"), pl[3]
check("a progress line per cell with the time left", progress_lines)

def render_again():
    os.remove(os.path.join(out1, "table.txt"))
    q = run(["--render", out1])
    assert q.returncode == 0 and q.stdout == open(os.path.join(out1, "table.txt")).read()
    assert q.stdout == p.stdout
    q = run(["--tool", FAKE, "-o", out1])
    assert q.returncode == 2 and "exists" in q.stderr
check("--render rewrites the same table; an existing results.json needs --force", render_again)

def no_sg():
    q, r, _ = swept("nosg", "--channels 1 --orders 0 --runs 2 --prep-modes both,memcpy",
                    {"FAKE_TOOL_NO_SG": "1"})
    assert [c["status"] for c in r["cells"]] == ["failed", "ok"]
    assert "no dmaengine_prep_dma_memcpy_sg" in r["cells"][0]["error"]
    assert "sweep --prep-modes auto (the default) or --prep-modes memcpy,cpu" in q.stderr
    # --prep-modes auto: the tool leaves memcpy_sg out and says why
    q, r, _ = swept("nosg-auto", "--channels 1 --orders 0 --runs 2",
                    {"FAKE_TOOL_NO_SG": "1"})
    assert [c["status"] for c in r["cells"]] == ["ok"]
    assert [x["prep_mode"] for x in r["rows"]] == ["prep_memcpy", "cpu"]
    assert ("# not run: prep_memcpy_sg: this kernel has no dmaengine_prep_dma_memcpy_sg(): "
            "see kernel/patches/ in the project") in q.stdout.splitlines(), q.stdout
    assert "not run on this kernel: prep_memcpy_sg" in q.stderr
    q, r, _ = swept("allfail", "--channels 1 --orders 0 --prep-modes memcpy_sg",
                    {"FAKE_TOOL_NO_SG": "1"}, rc=1)
    assert "0 of 1 cells ok" in q.stderr
check("memcpy_sg missing: named, the cell fails with a hint; auto: left out, said in the table; all failed: exit 1", no_sg)

def map_sweep():
    lg = os.path.join(work, "map.log")
    q, r, o = swept("map", "--map --granules 1,8 --threads 2 --runs 3 --seconds 1",
                    {"FAKE_TOOL_LOG": lg})
    assert len(open(lg).read().splitlines()) == 2 * 2 * 3
    assert r["kind"] == "map" and len(r["rows"]) == 4 and len(r["cells"][0]["runs"]) == 3
    row = r["rows"][1]
    assert (row["mode"], row["granule"], row["threads"], row["runs"]) == ("single", 8, 2, 3)
    assert abs(row["map_us"]["mean"] - 2.8) < 1e-9 and row["map_us"]["stddev"] < 1e-9
    assert row["map_stddev_us"]["mean"] == 4.0
    t = open(os.path.join(o, "table.txt")).read().splitlines()
    i = [k for k, l in enumerate(t) if l.startswith("mode ")][0]
    assert t[i] == "mode   granule threads map_us          unmap_us        map_stddev_us unmap_stddev_us runs"
    assert t[i + 2] == "single 8       2       2.800 \u00b1 0.000   1.400 \u00b1 0.000   4.0           2.0             3", t[i + 2]
    assert open(os.path.join(o, "results.csv")).readline().startswith(
        "cell,status,mode,granule,threads,seconds,runs,map_us_mean,map_us_stddev,map_stddev_us_mean")
    assert "sync_cpu_us" not in row and "map_p99_us" not in row   # the selftest's figures only
check("--map: runs a cell, mean and SD over runs, map table and CSV", map_sweep)

def map_ext():
    q, r, o = swept("mapsync", "--map --map-modes sg --granules 8,2048 --threads 1 --runs 2 "
                    "--seconds 1 --tool-args=--sync")
    row = r["rows"][0]
    # the extended interface's ns, not the selftest's 100 ns steps
    assert abs(row["map_us"]["mean"] - 1.807) < 1e-9 and abs(row["sync_cpu_us"]["mean"] - 0.457) < 1e-9
    assert abs(row["map_p99_us"]["mean"] - 3.6) < 1e-9 and row["map_count"] == 2000
    assert r["rows"][1]["granule"] == 2048
    t = open(os.path.join(o, "table.txt")).read().splitlines()
    i = [k for k, l in enumerate(t) if l.startswith("mode ")][0]
    assert t[i].split() == ("mode granule threads map_us unmap_us map_stddev_us unmap_stddev_us "
                            "sync_cpu_us sync_device_us runs").split(), t[i]
    assert t[i + 1].startswith("sg     8       1       1.807 \u00b1 0.000   0.907 \u00b1 0.000"), t[i + 1]
    c = subprocess.run([sys.executable, os.path.join(TOP, "scripts/compare.py"), "--json",
                        os.path.join(o, "results.json"), os.path.join(o, "results.json")],
                       capture_output=True, text=True)
    assert json.loads(c.stdout)["figures"] == ["map_us", "unmap_us", "sync_cpu_us", "sync_device_us"]
check("--map --tool-args=--sync: ns from results.ops, sync columns, p99, compare's figures", map_ext)

def map_fail():
    lg = os.path.join(work, "mapfail.log")
    q, r, o = swept("mapfail", "--map --map-modes sg --granules 1 --threads 1 --runs 4",
                    {"FAKE_TOOL_FAIL_MAP": "1", "FAKE_TOOL_LOG": lg}, rc=1)
    assert len(open(lg).read().splitlines()) == 1      # stops at the first failure
    assert r["rows"][0]["status"] == "failed" and "no device is bound" in r["rows"][0]["error"]
check("--map: a failing call ends its cell at once, recorded with the message", map_fail)

def perf():
    text = ("# started on Thu\n\n1234567,,cycles,1000,100.00,,\n"
            "2469134,,instructions,1000,100.00,2.00,insn per cycle\n"
            "<not supported>,,cache-misses,0,100.00,,\n")
    k = sweep.parse_perf_stat(text)
    assert k["cycles"] == 1234567 and k["instructions"] == 2469134 and k["cache-misses"] is None
    assert abs(k["ipc"] - 2.0) < 1e-9
    a = sweep.parse_args(["--perf", "stat", "--perf-args", "-C 0-3"])
    a.output = os.path.join(work, "perf")
    c = {"index": 7, "invocations": 1}
    pre = sweep.perf_prefix(a, c, 0)
    f = os.path.join(a.output, "perf", "cell-7.stat.csv")
    assert pre == ["perf", "stat", "-a", "-x", ",", "-e", "cycles,instructions,cache-misses",
                   "-o", f, "-C", "0-3", "--"], pre
    a = sweep.parse_args(["--perf", "record"])
    a.output = os.path.join(work, "perf")
    pre = sweep.perf_prefix(a, {"index": 2, "invocations": 3}, 1)
    assert pre == ["perf", "record", "-g", "-a", "-o",
                   os.path.join(a.output, "perf", "cell-2-run-1.perf.data"), "--"], pre
    q = run("--vm --perf stat")
    assert q.returncode == 2 and "the VM has no perf" in q.stderr
check("perf: stat -x, parsing, the perf stat/record command lines, refused with --vm", perf)

def dry_run():
    q = run("--dry-run --channels 4 --orders 0,9")
    assert q.returncode == 0
    l = q.stdout.splitlines()
    assert len(l) == 2 and "--channels 4 --folio-order 9 --sge 512 --runs 20 --buffers distinct --depth 1 --json" in l[1], l
check("--dry-run lists the cells and their commands", dry_run)

def preset_mail():
    cells = plan("--preset mail")
    assert [(c["channels"], c["folio_bytes"]) for c in cells] == [
        (1, 4096), (1, 2 << 20), (16, 4096), (16, 2 << 20)], cells
    assert cells[3]["argv"] == ("-m dmaengine --channels 16 --folio-order 9 --sge 512 --runs 20 "
                                "--buffers distinct --depth 1 --bytes-per-channel 512M "
                                "--src-node 0 --dst-node 1 --json").split(), cells[3]["argv"]
    assert cells[0]["prep_modes"] == "auto"	# every mode this kernel has, the CPU copy too
    cells = plan("--preset mail --channels 4 --runs 3")
    assert [c["channels"] for c in cells] == [4, 4] and cells[0]["argv"][8:10] == ["--runs", "3"]
    assert [c["folio_order"] for c in plan("--preset mail --orders 4")] == [4, 4]
    assert [c["folio_order"] for c in plan("--preset mail --folios 16K,2M",
                                           page_size=16384)] == [0, 7] * 2, "16K and 2M, 16K pages"
    try:
        plan("--folios 4K,3K")
        assert False, "3K accepted"
    except ValueError as e:
        assert "--folios 3K" in str(e)
    q = run("--dry-run --preset mail")
    assert q.returncode == 0 and len(q.stdout.splitlines()) == 4
    assert "--src-node 0 --dst-node 1" in q.stdout
    q = run("--dry-run --folios 5K")
    assert q.returncode == 2 and "not a power-of-two multiple" in q.stderr
check("--preset mail: 512M, 20 runs, sge 512, 4K and 2M, 1 and 16 channels, nodes 0 and 1, "
      "all modes; options override it; --folios", preset_mail)

def varied_table():
    rows = []
    for i, (depth, bufs) in enumerate([(1, "distinct"), (4, "distinct"), (1, "reuse")]):
        c = dict(cell(ch=1), index=i, depth=depth, buffers=bufs)
        t = json.loads(real)
        t["results"][0].update(depth=depth, buffers=bufs)
        rows += rows_of(t, c)
    lines = table(rows)
    assert lines[0].split()[:6] == ["mode", "chan", "folio", "sge", "depth", "buffers"], lines[0]
    assert lines[1].startswith("prep_memcpy    2    4KB   16  1     distinct 23.16"), lines[1]
    assert lines[2].startswith("prep_memcpy    2    4KB   16  1     reuse    23.16"), lines[2]
    assert lines[3].startswith("prep_memcpy    2    4KB   16  4     distinct "), lines[3]
    # format 1 rows: no depth, buffers, copy_ms, prep_stalls
    old = [dict(r) for r in rows[:1]]
    for k in ("depth", "buffers", "copy_ms", "prep_stalls"):
        old[0].pop(k)
    line = table(old)[1]
    assert line.startswith("prep_memcpy    2    4KB   16  23.16"), line
    rd = list(csv.DictReader(io.StringIO(results.format_csv(doc(old)))))
    assert rd[0]["depth"] == "1" and rd[0]["buffers"] == "reuse" and rd[0]["copy_ms_mean"] == ""
    assert results.row_key("dmaengine", old[0]) == ("prep_memcpy", 1, 0, 16, 1, "reuse", 0)
check("depth and buffers varied: their columns; format 1 rows read as depth 1, reuse", varied_table)

def vec_sweep():
    q, r, o = swept("vec", "--channels 2 --orders 0 --sge 16 --runs 2",
                    {"FAKE_TOOL_VEC": "1"})
    assert [x["prep_mode"] for x in r["rows"]] == ["prep_memcpy", "prep_memcpy_sg",
                                                   "prep_memcpy_vec", "cpu"]
    assert r["system"]["providers"][0]["has_memcpy_vec"] is True
    lines = q.stdout.splitlines()
    head = [l for l in lines if l.startswith("mode ")][0]
    assert head.split()[-4:] == ["copy_ms", "convert_ms", "prep_calls", "GB/s"], head
    vec = [l for l in lines if l.startswith("prep_memcpy_vec ")][0]
    # fake_tool: convert_ms = channels / 4, prep_calls a batch each
    assert " 0.50 \u00b1 0.01 " in vec and vec.split()[-4] == "16384", vec
    sg = [l for l in lines if l.startswith("prep_memcpy_sg ")][0]
    assert sg.split()[-6] == "-" and sg.split()[-5] == "-", sg	# copy_ms, convert_ms
    assert not any(l.startswith("# not run") for l in lines), lines
    rd = list(csv.DictReader(open(os.path.join(o, "results.csv"))))
    assert [x["mode"] for x in rd] == ["prep_memcpy", "prep_memcpy_sg", "prep_memcpy_vec", "cpu"]
    assert rd[2]["convert_ms_mean"] == "0.500000" and rd[1]["convert_ms_mean"] == "0.000000"
    # --prep-modes memcpy_vec on a kernel without it: the cell fails, a hint
    q, r, o = swept("novec", "--channels 1 --orders 0 --runs 2 --prep-modes memcpy_vec,memcpy_sg")
    assert [c["status"] for c in r["cells"]] == ["failed", "ok"]
    assert "no dmaengine_prep_dma_memcpy_vec" in r["cells"][0]["error"]
    assert "sweep.py: memcpy_vec is missing on this kernel: sweep --prep-modes auto" in q.stderr, q.stderr
    assert "memcpy_sg is missing" not in q.stderr
    t = [l for l in q.stdout.splitlines() if l.startswith("prep_memcpy_vec ")]
    assert len(t) == 1 and "FAILED: this kernel has no dmaengine_prep_dma_memcpy_vec()" in t[0], t
    assert "convert_ms" not in q.stdout	# no memcpy_vec row ran
    # auto on that kernel: left out, said in the table and on stderr
    q, r, o = swept("novec-auto", "--channels 1 --orders 0 --runs 2")
    assert "not run on this kernel: prep_memcpy_vec" in q.stderr, q.stderr
    assert "# not run: prep_memcpy_vec: this kernel has no dmaengine_prep_dma_memcpy_vec()" in q.stdout
check("memcpy_vec: auto runs it where the kernel has it (its row, convert_ms column and CSV); "
      "named where it lacks: the cell fails with a hint; auto: left out, said", vec_sweep)

def vec_rows():
    # the figures and their modes as the tool describes them, in a results
    # file (tool_figures), or as the tool before the description had them
    for figs in (results.figures(), results.figures(json.loads(real)),
                 results.load(os.path.join(FIX, "results-dmaengine.json"))):
        if isinstance(figs, dict):
            assert "tool_figures" in figs
            figs = results.figures(figs)
        assert figs.applies("prep_memcpy_vec", "convert_ms")
        assert figs.applies("prep_memcpy_vec", "prep_ms")
        assert not figs.applies("prep_memcpy_vec", "copy_ms")
        assert not figs.applies("prep_memcpy_sg", "convert_ms")
        assert not figs.applies("cpu", "convert_ms") and not figs.applies("cpu", "prep_calls")
        assert figs.one_mode("copy_ms") == "cpu" and figs.one_mode("run_ms") is None
        assert figs.counts == ("bytes", "prep_calls", "submits", "batches", "segments")
        assert figs.phases[:2] == ("run_ms", "prep_ms") and figs.phases[-1] == "gbps"
    assert results.prep_index("prep_memcpy_sg") < results.prep_index("prep_memcpy_vec") \
        < results.prep_index("cpu")
    head = results.csv_header("dmaengine", results.figures())
    assert "convert_ms_mean" in head and \
        head.index("convert_ms_mean") == head.index("copy_ms_stddev") + 1
    # a tool from before memcpy_vec: no convert_ms in its rows
    rows = rows_of()
    del rows[0]["convert_ms"]
    rd = list(csv.DictReader(io.StringIO(results.format_csv(doc(rows)))))
    assert rd[0]["convert_ms_mean"] == ""
    # --dst-folio-order: the folio cell names both sizes
    t = json.loads(real)
    t["results"][0].update(dst_folio_order=4, dst_folio_bytes=65536)
    rows = rows_of(t)
    assert results.folio_label(rows[0]) == "4KB/64KB"
    line = table(rows)[1]
    assert line.startswith("prep_memcpy    2    4KB/64KB 16  23.16"), line
check("results.py: convert_ms is memcpy_vec's alone, rows in the tool's order, CSV column; src/dst folio label", vec_rows)

# the names format 3 gave keys (new: old), written out here rather than
# taken from results.RENAMED, so that the test says what old files hold
OLD_NAMES = {"dma_trans_ns": "trans_delay_ns", "warmup_runs": "warmup",
             "stddev": "sd", "stddev_ns": "sd_ns",
             "map_stddev_us": "map_sd_us", "unmap_stddev_us": "unmap_sd_us",
             "sync_cpu_stddev_us": "sync_cpu_sd_us",
             "sync_device_stddev_us": "sync_device_sd_us", "dma_dir": "dir"}
# and of the sweep's params alone (a row's bytes is another figure)
OLD_PARAMS = {"bytes_per_channel": "bytes"}

def old_names(v):
    if isinstance(v, dict):
        return {OLD_NAMES.get(k, k): old_names(x) for k, x in v.items()}
    if isinstance(v, list):
        return [old_names(x) for x in v]
    return v

def old_files():
    renamed = []
    for name in ("results-dmaengine.json", "results-map.json"):
        new = results.load(os.path.join(FIX, name))
        old = old_names(new)
        old["params"] = {OLD_PARAMS.get(k, k): v for k, v in old["params"].items()}
        old["format_version"] = 2
        if old != dict(new, format_version=2):
            renamed.append(name)
        path = os.path.join(work, "old-" + name)
        with open(path, "w") as f:
            json.dump(old, f)
        got = results.load(path)
        assert got["format_version"] == 2
        assert got == dict(new, format_version=2), name
        # a current file: its keys as they are, whatever their names
        old["format_version"] = results.FORMAT_VERSION
        results.save(old, path)
        assert results.load(path) == old
    assert len(renamed) == 2, renamed
check("results.load(): a format 2 file's keys get their format 3 names (%s; params: %s)" %
      (", ".join("%s -> %s" % (o, n) for n, o in OLD_NAMES.items()),
       ", ".join("%s -> %s" % (o, n) for n, o in OLD_PARAMS.items())), old_files)

def format3_prep():
    """Format 3 named the prep modes of the sweep, of a cell and of the
    tool's params "prep"; format 4 names them as the ABI: prep_modes."""
    new = results.load(os.path.join(FIX, "results-dmaengine.json"))
    old = json.loads(json.dumps(new))
    old["format_version"] = 3
    for o in [old["params"]] + old["cells"] + \
            [c["tool"]["params"] for c in old["cells"] if c.get("tool")]:
        o["prep"] = o.pop("prep_modes")
    path = os.path.join(work, "format3.json")
    with open(path, "w") as f:
        json.dump(old, f)
    assert results.load(path) == dict(new, format_version=3)
check("results.load(): a format 3 file's prep is prep_modes (params, cells, the tool's params)",
      format3_prep)
def migrate_sweep():
    lg = os.path.join(work, "migrate.log")
    q, r, o = swept("migrate", "--migrate --bytes 64M --orders 0,9 --channels 1,4 "
                    "--prep-modes both", {"FAKE_TOOL_LOG": lg})
    calls = [c for c in open(lg).read().splitlines() if c != "--help"]
    assert calls[0] == "-m migrate --folio-order 0 --channels 1 --prep-modes both --bytes 64M --json", calls[0]
    assert not any("--runs" in c for c in calls), "--runs not given: the tool's"
    assert r["kind"] == "migrate" and len(r["cells"]) == 4 and len(r["rows"]) == 12
    row = [x for x in r["rows"] if x["prep_mode"] == "prep_memcpy_sg" and x["channels"] == 4
           and x["folio_order"] == 9][0]
    assert row["gbps"]["mean"] == 4.9 and row["bytes"] == 64 << 20 and row["folios"] == 32
    assert "figures" in r["tool_figures"] and "figures" not in r["cells"][0]["tool"]
    t = open(os.path.join(o, "table.txt")).read()
    assert "# migrate: move_pages() of 64MB node 0 -> 1 and back;" in t, t
    head = [l for l in t.splitlines() if l.startswith("mode ")][0]
    assert head.split()[:5] == ["mode", "chan", "folio", "folios", "move_ms"], head
    assert "GB/s" in head and "offloaded" in head and "fallback" in head
    assert re.search(r"\ncpu +1 +2MB +32 ", t), t
    assert open(os.path.join(o, "results.csv")).readline().startswith(
        "cell,status,mode,channels,chan,folio_order,folio_bytes,folios,runs,gbps_mean")
check("--migrate: a call per order, channel count and prep word, only the options given, "
      "the rows (cpu too), the table and the CSV", migrate_sweep)

def migrate_defaults():
    d = sweep.tool_defaults(os.path.join(TOP, "tools/dma/dma_map_benchmark"))
    assert (d["bytes"], d["runs"], d["warmup-runs"], d["channels"]) == ("1G", "20", "1", "1"), d
    a = sweep.parse_args(["--migrate", "--orders", "9", "--channels", "2", "--prep-modes", "memcpy"])
    c = sweep.plan_migrate(a, 4096, d)
    assert c[0]["argv"] == ["-m", "migrate", "--folio-order", "9", "--channels", "2",
                            "--prep-modes", "memcpy", "--json"], c[0]["argv"]
    assert c[0]["weight"] == 2 * (20 + 1) * (1 << 30), c[0]["weight"]
    assert sweep.tool_defaults(os.path.join(work, "no-such-tool")) == {}
check("--migrate: the tool's defaults from its --help (bytes, runs, warm-up), never "
      "repeated in the calls; the cells' weights", migrate_defaults)
def names_from_tool():
    # the scripts' names of the modes are the tool's --list-modes, not
    # lists of their own: equal to this tree's tool's ...
    t = json.loads(subprocess.run([os.path.join(TOP, "tools/dma/dma_map_benchmark"),
                                   "--list-modes"], capture_output=True, text=True,
                                  check=True).stdout)
    from report import tool
    assert results.PREP_MODES == tuple(t["prep_modes"]), results.PREP_MODES
    assert results.DMA_MODES == tuple(t["dma_prep_modes"]), results.DMA_MODES
    assert results.MAP_MODES == tuple(m["name"] for m in t["modes"] if m["kind"] == "map")
    assert results.COPY_KINDS == tuple(m["name"] for m in t["modes"] if m["kind"] == "copy")
    assert {w: list(m) for w, m in results.PREP_OF_OPTION.items() if w != "auto"} == \
        t["prep_mode_words"], results.PREP_OF_OPTION
    assert list(tool.rows("migrate")) == [m for m in t["modes"] if m["name"] == "migrate"][0]["rows"]
    # ... and another tool's when another answers: a stand-in whose names differ
    fake = os.path.join(work, "names-tool")
    other = dict(t, prep_modes=["prep_x", "cpu"], dma_prep_modes=["prep_x"],
                 prep_mode_words={"x": ["prep_x"], "cpu": ["cpu"]},
                 modes=[{"name": "m1", "kind": "map", "rows": []},
                        {"name": "c1", "kind": "copy", "rows": ["prep_x", "cpu"]},
                        {"name": "migrate", "kind": "copy", "rows": ["cpu", "prep_x"]}])
    with open(fake, "w") as f:
        f.write("#!/bin/sh\n[ \"$1\" = --list-modes ] && cat <<'EOF'\n%s\nEOF\n" % json.dumps(other))
    os.chmod(fake, 0o755)
    code = ("from report import bench, results, tool\n"
            "print(results.PREP_MODES, results.DMA_MODES, results.MAP_MODES, "
            "results.COPY_KINDS, sorted(results.PREP_OF_OPTION), tool.rows('migrate'))")
    q = subprocess.run([sys.executable, "-c", code], cwd=os.path.join(TOP, "scripts"),
                       env=dict(os.environ, DMA_BENCH_HOST_TOOL=fake),
                       capture_output=True, text=True)
    assert q.returncode == 0, q.stderr
    assert q.stdout == ("('prep_x', 'cpu') ('prep_x',) ('m1',) ('c1', 'migrate') "
                        "['auto', 'cpu', 'x'] ('cpu', 'prep_x')\n"), q.stdout
    q = run(["--prep-modes", "memcpy", "--dry-run"], {"DMA_BENCH_HOST_TOOL": fake})
    assert q.returncode == 2 and "each must be one of x, cpu, auto" in q.stderr, q.stderr
    # no tool answers: said, with how to build it
    q = subprocess.run([sys.executable, "-c", code], cwd=os.path.join(TOP, "scripts"),
                       env=dict(os.environ, DMA_BENCH_HOST_TOOL=os.path.join(work, "none")),
                       capture_output=True, text=True)
    assert q.returncode != 0 and "--list-modes gave no answer" in q.stderr and \
        "make tool" in q.stderr, q.stderr
check("the scripts' names of the modes, prep modes and --prep-modes words are the "
      "tool's --list-modes (another tool's, another's names; none: said)", names_from_tool)

def copied_from_tool():
    # the bytes a cell's channel copies (the kernel's rounding to whole
    # batches) are the tool's --dry-run's: this tree's tool's ...
    from report import tool
    assert tool.copied(1 << 20, 512, 9) == 1 << 30 and tool.copied(3 << 20, 512, 0) == 4 << 20
    assert tool.copied(1, 16, 0) == 16 * 4096
    # ... and a stand-in's when it answers: the weights follow it
    fake = os.path.join(work, "dry-run-tool")
    with open(fake, "w") as f:
        f.write("#!/bin/sh\ncase \"$*\" in *--dry-run*) echo '{\"copied_per_channel\": 12345}';; "
                "*) exec %s \"$@\";; esac\n" % os.path.join(TOP, "tools/dma/dma_map_benchmark"))
    os.chmod(fake, 0o755)
    code = ("import sweep\n"
            "a = sweep.parse_args(['--channels', '2', '--orders', '0', '--prep-modes', 'cpu', "
            "'--runs', '3', '--warmup-runs', '1'])\n"
            "print(sweep.plan_dmaengine(a, 4096, {})[0]['weight'])")
    q = subprocess.run([sys.executable, "-c", code], cwd=os.path.join(TOP, "scripts"),
                       env=dict(os.environ, DMA_BENCH_HOST_TOOL=fake),
                       capture_output=True, text=True)
    assert q.returncode == 0 and q.stdout == "%d\n" % (1 * (3 + 1) * 2 * 12345), (q.stdout, q.stderr)
check("the cells' weights: the bytes a channel copies are the tool's --dry-run's "
      "(a stand-in's, its own)", copied_from_tool)
done()
PY
tap_end
