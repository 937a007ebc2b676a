#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Reports (test_report_map.c, test_report_dmaengine.c and
# test_report_dmaengine_json.c, whose tops say what they check); then the
# map modes' lines against upstream's printf formats, read from upstream's
# sources (linux_source_dir): Linux 6.12's tool without -m, 7.3's with it
# (a missing source fails); then python3
# parses every JSON file that test wrote and checks its structure and
# values, and that fixtures/fake_tool.py and the tool documents in
# fixtures/*.json have the same shape as the real tool's.
. "$(dirname "$0")/lib.sh"
build
out_dir

run_c_tests "$HOST_OUT/test_report_map"
run_c_tests "$HOST_OUT/test_report_dmaengine"
run_c_tests "$HOST_OUT/test_report_dmaengine_json"

need python3
. "$TOP/scripts/lib.sh"
# upstream's tools, whose printf formats the lines must be: Linux 6.12's
# without -m, 7.3's with it
tool_612=$(linux_source_dir 6.12)/tools/testing/selftests/dma/dma_map_benchmark.c
tool_73=$(linux_source_dir 7.3)/tools/dma/dma_map_benchmark.c
check "Linux 6.12's tool is there: $tool_612" test -f "$tool_612"
check "Linux 7.3's tool is there: $tool_73" test -f "$tool_73"
run_py_tests "$TEST_OUT_DIR" "$tool_612" "$tool_73" <<'PY'
import json, os, re, subprocess, sys
from pytap import FIX, TOP, check, done

def upstream_source(path):
    """An upstream tool's three printf() formats and its string tables
    (directions[], and mode[] from 7.3 on)."""
    src = open(path, encoding="utf-8").read()
    fmts = re.findall(r'printf\("((?:[^"\\]|\\.)*)"', src)
    fmts = [f.replace("\\n", "\n") for f in fmts]
    assert len(fmts) == 3, fmts
    tables = {name: re.findall(r'"([^"]*)"', body) for name, body in
              re.findall(r'static char \*(\w+)\[\] = \{([^}]*)\}', src)}
    return fmts, tables

def upstream_text(fmts, head, results):
    return fmts[0] % head + fmts[1] % results[:2] + fmts[2] % results[2:]

def ours(name):
    return open(os.path.join(sys.argv[1], name), encoding="utf-8").read()

def upstream_612_lines():
    # Linux 6.12's tool's formats, applied to the values test_report_map.c
    # gave report_map_text() without -m
    fmts, tables = upstream_source(sys.argv[2])
    assert fmts[0].startswith("dma mapping benchmark: "), fmts
    want = upstream_text(fmts, (1, 20, 0, tables["directions"][0], 1), (0.5, 0.1, 12.3, 0.0))
    got = ours("map_single.txt")
    assert got == want, "ours:\n%s\nupstream's:\n%s" % (got, want)
check("without -m, the lines are upstream 6.12's printf formats byte for byte", upstream_612_lines)

def upstream_73_lines():
    # Linux 7.3's tool's formats and mode[] and directions[] tables,
    # applied to the values test_report_map.c gave report_map_text() with -m
    fmts, tables = upstream_source(sys.argv[3])
    assert fmts[0].startswith("dma mapping benchmark(%s): "), fmts
    mode, dirs = tables["mode"], tables["directions"]
    assert mode[:2] == ["SINGLE_MODE", "SG_MODE"], mode
    for name, head, results in (
            ("map_sg_mode.txt", (mode[1], 8, 30, -1, dirs[2], 8), (1.4, 0.3, 1.3, 0.3)),
            ("map_single_mode.txt", (mode[0], 1, 20, 0, dirs[0], 1), (0.5, 0.1, 12.3, 0.0))):
        want = upstream_text(fmts, head, results)
        got = ours(name)
        assert got == want, "%s, ours:\n%s\nupstream's:\n%s" % (name, got, want)
check("with -m (sg, single), the lines are upstream 7.3's printf formats byte for byte", upstream_73_lines)


docs = {}
for name in ("map_single map_sg map_ext map_ext_nosync dmaengine dmaengine_full dmaengine_sg "
             "dmaengine_cpu dmaengine_missing dmaengine_vec").split():
    def parse(name=name):
        docs[name] = json.load(open("%s/%s.json" % (sys.argv[1], name)))
    check("%s.json is valid JSON (python3 json)" % name, parse)

def map_json():
    d = docs["map_sg"]
    assert list(d) == ["tool", "version", "kernel", "mode", "params", "results"], list(d)
    assert d["tool"] == "dma_map_benchmark" and d["mode"] == "sg"
    assert d["params"] == {"threads": 8, "seconds": 30, "node": -1, "dma_bits": 32,
                           "dma_dir": 2, "dma_trans_ns": 0, "granule": 8}, d["params"]
    assert d["results"] == {"map_us": {"mean": 1.4, "stddev": 0.3},
                            "unmap_us": {"mean": 1.3, "stddev": 0.3}}, d["results"]
    assert docs["map_single"]["mode"] == "single"
check("map-mode JSON: fields and values", map_json)

OP_KEYS = ["count", "mean_ns", "stddev_ns", "min_ns", "p50_ns", "p90_ns", "p99_ns", "max_ns"]
def map_ext_json():
    d = docs["map_ext"]
    assert list(d) == ["tool", "version", "kernel", "mode", "params", "results"], list(d)
    assert d["mode"] == "sg"
    assert d["params"] == {"threads": 1, "seconds": 300, "node": -1, "dma_bits": 32,
                           "dma_dir": 1, "dma_trans_ns": 0, "granule": 2560,
                           "entries": 2560, "entry_size": 4096, "iterations": 200,
                           "cpus": [0], "sync": True, "segments": 2560,
                           "max_segment": 65536}, d["params"]
    r = d["results"]
    assert r["map_us"] == {"mean": 123.4, "stddev": 5.6}, r["map_us"]
    assert list(r["ops"]) == ["map", "unmap", "sync_cpu", "sync_device"], list(r["ops"])
    for name, op in r["ops"].items():
        assert list(op) == OP_KEYS, (name, list(op))
        assert all(isinstance(v, int) for v in op.values()), name
        assert op["min_ns"] <= op["p50_ns"] <= op["p90_ns"] <= op["p99_ns"] <= op["max_ns"], name
    assert r["ops"]["map"]["mean_ns"] == 123456 and r["ops"]["sync_device"]["stddev_ns"] == 1
check("extended map JSON: params of the new options, results.ops", map_ext_json)

def map_ext_nosync_json():
    d = docs["map_ext_nosync"]
    assert d["mode"] == "single"
    assert d["params"]["cpus"] == [0, 2, 4, 1023] and d["params"]["sync"] is False
    assert list(d["results"]["ops"]) == ["map", "unmap"], list(d["results"]["ops"])
check("extended map JSON without --sync: map and unmap only", map_ext_nosync_json)

def dmaengine_json():
    d = docs["dmaengine"]
    assert list(d) == ("tool version kernel mode params prep_modes_run "
                       "missing system channels_used channels results figures table").split(), list(d)
    assert d["missing"] == []
    assert d["prep_modes_run"] == ["prep_memcpy", "prep_memcpy_sg"]
    assert d["system"] == {"cpufreq": None}, d["system"]
    assert d["mode"] == "dmaengine" and d["kernel"] == "6.12.0-test"
    p = d["params"]
    for k in ("channels channel device folio_order folio_bytes dst_folio_order dst_folio_bytes "
              "sge bytes_per_channel runs warmup_runs src_node dst_node prep_modes skip_missing "
              "buffers depth cpus verify poll allow_fewer timeout_ms").split():
        assert k in p, k
    assert p["bytes_per_channel"] == 512 << 20 and p["prep_modes"] == "both"
    assert p["buffers"] == "distinct" and p["depth"] == 1 and p["cpus"] == []
    assert p["dst_folio_order"] == p["folio_order"] == 0 and p["dst_folio_bytes"] == 4096
    assert d["channels"] == [{"name": "dma0chan0", "device": "soft_dma.0",
        "driver": "soft_dma", "node": -1, "src_node": 0, "dst_node": 0,
        "max_seg_size": 65536, "copy_align": 0, "has_memcpy_sg": True,
        "has_memcpy_vec": False, "no_order": False}], d["channels"]
    r = d["results"]
    assert [x["prep_mode"] for x in r] == ["prep_memcpy", "prep_memcpy_sg"]
    for x in r:
        for k in ("chan folio_order folio_bytes dst_folio_order dst_folio_bytes sge depth runs "
                  "bytes prep_calls submits batches segments acquire_ms").split():
            assert isinstance(x[k], (int, float)), k
        for k in ("run_ms prep_ms submit_ms issue_ms wait_ms map_ms unmap_ms copy_ms "
                  "convert_ms prep_stalls gbps").split():
            assert set(x[k]) == {"mean", "stddev"}, k
        assert x["buffers"] == "distinct"
        assert x["convert_ms"] == {"mean": 0, "stddev": 0}, x["convert_ms"]
    assert r[0]["prep_stalls"] == {"mean": 12.0, "stddev": 3.0}
    assert r[0]["run_ms"] == {"mean": 632.86, "stddev": 8.18}
    assert r[0]["prep_calls"] == 131072 and r[1]["prep_calls"] == 256
    assert r[1]["gbps"] == {"mean": 0.88, "stddev": 0.02}
    assert abs(r[0]["acquire_ms"] - 0.12) < 1e-9
    assert "samples" not in d and "per_channel" not in d
check("dmaengine JSON: fields and values", dmaengine_json)

DMA = ["prep_memcpy", "prep_memcpy_sg", "prep_memcpy_vec"]
def description_json():
    d = docs["dmaengine"]
    f = {x["key"]: x for x in d["figures"]}
    # the results' figures, in their order: the counts, then the phases
    keys = [k for k in d["results"][0] if k in f]
    assert [x["key"] for x in d["figures"]] == keys, keys
    assert list(f) == ("bytes prep_calls submits batches segments run_ms prep_ms submit_ms "
                       "issue_ms wait_ms map_ms unmap_ms copy_ms convert_ms prep_stalls gbps").split(), list(f)
    for k, x in f.items():
        assert x["kind"] == ("total" if isinstance(d["results"][0][k], int)
                             else "mean_stddev"), k
    assert f["copy_ms"]["prep_modes"] == ["cpu"]
    assert f["convert_ms"]["prep_modes"] == ["prep_memcpy_vec"]
    assert f["prep_ms"]["prep_modes"] == f["prep_calls"]["prep_modes"] == DMA
    assert f["gbps"]["prep_modes"] == DMA + ["cpu"] and f["gbps"]["unit"] == "GB/s"
    assert f["run_ms"]["unit"] == "ms" and f["prep_stalls"]["unit"] == "count"
    t = d["table"]
    assert [c["key"] for c in t[:5]] == ["prep_mode", "chan", "folio_bytes", "sge", "run_ms"]
    assert [(c["heading"], c["width"]) for c in t[:5]] == [
        ("mode", 14), ("chan", 4), ("folio", 5), ("sge", 3), ("run_ms", 15)]
    gb = [c for c in t if c["key"] == "gbps"][0]
    assert (gb["heading"], gb["width"], gb["verbose"]) == ("GB/s", 11, False)
    assert [c["key"] for c in t if c["verbose"]] == [
        "convert_ms", "prep_stalls", "submits", "batches", "segments", "bytes"]
    assert set(f) <= {c["key"] for c in t}	# every figure is a column
check("dmaengine JSON: figures (key, unit, kind, prep modes) and the table's columns", description_json)

def full_json():
    d = docs["dmaengine_full"]
    assert len(d["channels"]) == 2
    assert d["channels"][1]["name"] == 'q"b\\s\t\x01'
    assert d["channels"][1]["device"] == "d" * 32
    assert d["channels"][1]["driver"] == "caf\u00e9\ufffd"
    assert len(d["samples"]) == 12, len(d["samples"])
    s = d["samples"][0]
    assert s["prep_mode"] == "prep_memcpy" and s["end_ns"] - s["start_ns"] == 100000000
    pc = d["per_channel"]
    assert [(x["prep_mode"], x["channel"]) for x in pc] == [
        ("prep_memcpy", "dma0chan0"), ("prep_memcpy", 'q"b\\s\t\x01'),
        ("prep_memcpy_sg", "dma0chan0"), ("prep_memcpy_sg", 'q"b\\s\t\x01')], pc
    assert pc[0]["runs"] == 3 and pc[0]["run_ms"] == {"mean": 110.0, "stddev": 10.0}
    assert pc[3]["run_ms"] == {"mean": 221.0, "stddev": 20.0}, pc[3]["run_ms"]
check("dmaengine JSON with --per-channel --samples: arrays and escaped names", full_json)

def cpu_json():
    d = docs["dmaengine_cpu"]
    r = d["results"]
    assert [x["prep_mode"] for x in r] == ["prep_memcpy", "prep_memcpy_sg", "cpu"]
    cpu = r[2]
    assert cpu["copy_ms"] == {"mean": 248.75, "stddev": 2.5}
    for k in "prep_ms submit_ms issue_ms wait_ms map_ms unmap_ms prep_stalls".split():
        assert cpu[k] == {"mean": 0, "stddev": 0}, k
    assert cpu["prep_calls"] == 0 and cpu["submits"] == 0
    assert r[0]["copy_ms"] == {"mean": 0, "stddev": 0}
    assert d["params"]["depth"] == 4 and d["params"]["cpus"] == [3, 1]
    assert d["system"]["cpufreq"] == {"cpus": 2, "driver": "intel_pstate",
        "governor": "performance", "cur_khz_min": 2100000,
        "cur_khz_max": 3200000, "max_khz": 3900000, "boost": True,
        "boost_source": "intel_pstate/no_turbo"}, d["system"]
check("dmaengine JSON with the cpu mode: copy_ms, 0 for the DMA phases; depth, cpus, system.cpufreq", cpu_json)

def missing_json():
    d = docs["dmaengine_missing"]
    assert d["params"]["prep_modes"] == "all" and d["params"]["skip_missing"] is True
    assert d["prep_modes_run"] == ["prep_memcpy", "cpu"]
    assert d["missing"] == [{"prep_mode": "prep_memcpy_sg", "error": "no_cap",
        "reason": "channel dma1chan0 (driver ioatdma) lacks DMA_MEMCPY_SG"},
        {"prep_mode": "prep_memcpy_vec", "error": "no_cap",
         "reason": "channel dma1chan0 (driver ioatdma) lacks DMA_MEMCPY_VEC"}], d["missing"]
    assert [x["prep_mode"] for x in d["results"]] == ["prep_memcpy", "cpu"]
check("dmaengine JSON with a mode missing: prep_modes_run, missing with the reason", missing_json)

def vec_json():
    d = docs["dmaengine_vec"]
    assert d["params"]["prep_modes"] == "all"
    assert d["prep_modes_run"] == ["prep_memcpy", "prep_memcpy_sg",
                                   "prep_memcpy_vec", "cpu"], d["prep_modes_run"]
    r = d["results"]
    assert [x["prep_mode"] for x in r] == d["prep_modes_run"]
    assert r[2]["convert_ms"] == {"mean": 0.25, "stddev": 0.05}, r[2]["convert_ms"]
    assert r[2]["prep_ms"]["mean"] >= r[2]["convert_ms"]["mean"]
    for x in (r[0], r[1], r[3]):
        assert x["convert_ms"] == {"mean": 0, "stddev": 0}, x["prep_mode"]
    assert d["channels"][0]["has_memcpy_vec"] is True
check("dmaengine JSON with memcpy_vec: its result after memcpy_sg's, convert_ms, 0 in the others", vec_json)

def sg_json():
    assert [x["prep_mode"] for x in docs["dmaengine_sg"]["results"]] == ["prep_memcpy_sg"]
check("dmaengine JSON with --prep-modes memcpy_sg: one result", sg_json)

# The host tests of the scripts run on a fake tool and on results files
# written by hand (fixtures/): both must keep the real tool's JSON shape,
# which the documents above are, so they cannot drift from it.

def kind(v):
    """A JSON value's kind: int and float are both numbers."""
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return "number"
    return type(v).__name__

def same_shape(got, want, where, path=""):
    """got has want's JSON shape: the same keys, the same kinds of values,
    a list's first element of the same shape."""
    if isinstance(want, dict) and isinstance(got, dict):
        assert set(got) == set(want), "%s%s: keys %s, the tool has %s" % (
            where, path, sorted(got), sorted(want))
        for k in want:
            same_shape(got[k], want[k], where, path + "." + k)
    elif isinstance(want, list) and isinstance(got, list):
        if got and want:
            same_shape(got[0], want[0], where, path + "[0]")
    else:
        # a null stands for a value the tool omits or has not
        g, w = kind(got), kind(want)
        assert g == w or "NoneType" in (g, w), "%s%s: %s, the tool has %s" % (where, path, g, w)

def fake(*argv):
    p = subprocess.run([sys.executable, os.path.join(FIX, "fake_tool.py")] + list(argv),
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)

def fake_shapes():
    same_shape(fake("-m", "sg", "-g", "8", "-t", "8", "-s", "30", "--json"),
               docs["map_sg"], "fake_tool -m sg")
    same_shape(fake("-m", "sg", "-g", "2560", "--sync", "--percentiles", "--json"),
               docs["map_ext"], "fake_tool -m sg --sync")
    same_shape(fake("-m", "dmaengine", "--prep-modes", "both", "--json"), docs["dmaengine"],
               "fake_tool -m dmaengine")
check("fake_tool.py prints the real tool's JSON shape (map, extended map, dmaengine)", fake_shapes)

DESCRIPTION = ("figures", "table")
def description(d):
    return {k: d[k] for k in DESCRIPTION}

def fixture_shapes():
    tool = json.load(open(os.path.join(FIX, "tool-dmaengine.json")))
    same_shape(tool, docs["dmaengine"], "tool-dmaengine.json")
    assert description(tool) == description(docs["dmaengine"]), \
        "tool-dmaengine.json: figures and table differ from the tool's"
    # the sweep keeps the description once, in the file's tool_figures
    called = {k: v for k, v in docs["dmaengine"].items() if k not in DESCRIPTION}
    n = 0
    for name in ("results-dmaengine.json", "results-map.json", "compare-a.json", "compare-b.json"):
        r = json.load(open(os.path.join(FIX, name)))
        if "tool_figures" in r:
            assert r["tool_figures"] == description(docs["dmaengine"]), \
                name + ": tool_figures differ from the tool's figures and table"
        for i, c in enumerate(r["cells"]):
            if "tool" in c:
                same_shape(c["tool"], called, "%s cells[%d].tool" % (name, i))
                n += 1
            for j, run in enumerate(c.get("runs") or []):
                same_shape(run, docs["map_ext" if "ops" in run.get("results", {}) else "map_sg"],
                           "%s cells[%d].runs[%d]" % (name, i, j))
                n += 1
        # a dmaengine row is a result of the tool's plus the sweep's keys;
        # format 1 files (compare-a/b) stand for sweeps made before depth,
        # buffers and the cpu mode, which compare.py still reads
        want = set(docs["dmaengine"]["results"][0])
        if r.get("format_version", 1) < 2:
            continue
        for i, row in enumerate(r["rows"]):
            if row.get("status") == "ok" and "prep_mode" in row:
                missing = want - set(row)
                assert not missing, "%s rows[%d] lacks %s" % (name, i, sorted(missing))
                n += 1
    assert n > 0, "no tool document found in the fixtures"
check("fixtures/*.json: the tool documents and rows in them have the real tool's shape", fixture_shapes)

def legacy_figures():
    # what results.py reads files of older tools with: that tool's
    # description, which the tool may only have added to since
    legacy = json.load(open(os.path.join(TOP, "scripts/report/legacy_figures.json")))
    now = docs["dmaengine"]
    for k in DESCRIPTION:
        have = {x["key"]: x for x in now[k]}
        for x in legacy[k]:
            assert have.get(x["key"]) == x, "%s %s: %s, the tool has %s" % (
                k, x["key"], x, have.get(x["key"]))
check("scripts/report/legacy_figures.json: each figure and column as the tool describes it", legacy_figures)
done()
PY
tap_end
