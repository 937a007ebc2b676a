#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Reports (test_report.c): the map modes' selftest lines byte for byte and
# their JSON; the dmaengine table against the reference header and rows,
# --verbose, alignment, folio labels, per-channel rows from samples, CSV,
# JSON. Then python3 parses every JSON file the test wrote and checks its
# structure and values.
. "$(dirname "$0")/lib.sh"
build
TEST_OUT_DIR=$(mktemp -d)
export TEST_OUT_DIR
trap 'rm -rf "$TEST_OUT_DIR"' EXIT

run_c_tests "$HOST_OUT/test_report"

if ! command -v python3 >/dev/null; then
	tap_skip "python3 not installed: JSON not parsed"
	tap_end
fi
run_py_tests "$TEST_OUT_DIR" <<'PY'
import json, sys

def check(desc, fn):
    try:
        fn()
        print("ok - " + desc)
    except Exception as e:
        print("not ok - " + desc)
        print(repr(e))

docs = {}
for name in ["map_single", "map_sg", "dmaengine", "dmaengine_full", "dmaengine_sg"]:
    def parse(name=name):
        docs[name] = json.load(open("%s/%s.json" % (sys.argv[1], name)))
    check("%s.json is valid JSON (python3 json)" % name, parse)

def map_json():
    d = docs["map_sg"]
    assert list(d) == ["tool", "version", "kernel", "mode", "params", "results"], list(d)
    assert d["tool"] == "dma_map_benchmark" and d["mode"] == "sg"
    assert d["params"] == {"threads": 8, "seconds": 30, "node": -1, "dma_bits": 32,
                           "dir": 2, "trans_delay_ns": 0, "granule": 8}, d["params"]
    assert d["results"] == {"map_us": {"mean": 1.4, "sd": 0.3},
                            "unmap_us": {"mean": 1.3, "sd": 0.3}}, d["results"]
    assert docs["map_single"]["mode"] == "single"
check("map-mode JSON: fields and values", map_json)

def dmaengine_json():
    d = docs["dmaengine"]
    for k in ["tool", "version", "kernel", "mode", "params", "channels", "results"]:
        assert k in d, k
    assert d["mode"] == "dmaengine" and d["kernel"] == "6.12.0-test"
    p = d["params"]
    for k in ["channels", "channel", "device", "folio_order", "folio_bytes", "sge",
              "bytes_per_channel", "runs", "warmup", "src_node", "dst_node", "prep",
              "verify", "poll", "allow_fewer", "timeout_ms"]:
        assert k in p, k
    assert p["bytes_per_channel"] == 512 << 20 and p["prep"] == "both"
    assert d["channels"] == [{"name": "dma0chan0", "device": "soft_dma.0",
        "driver": "soft_dma", "node": -1, "src_node": 0, "dst_node": 0,
        "max_seg_size": 65536, "copy_align": 0, "has_memcpy_sg": True}], d["channels"]
    r = d["results"]
    assert [x["prep_mode"] for x in r] == ["prep_memcpy", "prep_memcpy_sg"]
    for x in r:
        for k in ["chan", "folio_order", "folio_bytes", "sge", "runs", "bytes",
                  "prep_calls", "submits", "batches", "segments", "acquire_ms"]:
            assert isinstance(x[k], (int, float)), k
        for k in ["run_ms", "prep_ms", "submit_ms", "issue_ms", "wait_ms",
                  "map_ms", "unmap_ms", "gbps"]:
            assert set(x[k]) == {"mean", "sd"}, k
    assert r[0]["run_ms"] == {"mean": 632.86, "sd": 8.18}
    assert r[0]["prep_calls"] == 131072 and r[1]["prep_calls"] == 256
    assert r[1]["gbps"] == {"mean": 0.88, "sd": 0.02}
    assert abs(r[0]["acquire_ms"] - 0.12) < 1e-9
    assert "samples" not in d and "per_channel" not in d
check("dmaengine JSON: fields and values", dmaengine_json)

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
    assert pc[0]["runs"] == 3 and pc[0]["run_ms"] == {"mean": 110.0, "sd": 10.0}
    assert pc[3]["run_ms"] == {"mean": 221.0, "sd": 20.0}, pc[3]["run_ms"]
check("dmaengine JSON with --per-channel --samples: arrays and escaped names", full_json)

def sg_json():
    assert [x["prep_mode"] for x in docs["dmaengine_sg"]["results"]] == ["prep_memcpy_sg"]
check("dmaengine JSON with --prep memcpy_sg: one result", sg_json)
print("ok - done")
PY
tap_end
