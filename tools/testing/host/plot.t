#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/plot.py on synthetic results files (fixtures/results-dmaengine.json
# with failed cells, fixtures/results-map.json): the files it names exist
# and are valid PNG (signature, IHDR size, pixels not all one colour) and
# SVG (XML with the plot's title and labels), for each prep mode (the CPU
# copy included: its phases are the copy) and sg entry count, GB/s against
# folio size with a line per prep mode at each channel count, plots per
# depth and buffers when a sweep varies them, a format 1 file (no cpu mode,
# no copy_ms), the memcpy_vec mode (its phases with the conversion apart,
# the three DMA forms together), with pngcairo and with libgd's png; and its
# errors.
. "$(dirname "$0")/lib.sh"

need python3 gnuplot
out_dir
run_py_tests "$TEST_OUT_DIR" <<'PY'
import json, os, struct, subprocess, sys, zlib
from pytap import FIX, TOP, check, done
import xml.etree.ElementTree as ET
work = sys.argv[1]
PLOT = os.path.join(TOP, "scripts/plot.py")


def run(*args):
    return subprocess.run([sys.executable, PLOT] + list(args), capture_output=True, text=True)

def load():
    return json.load(open(os.path.join(FIX, "results-dmaengine.json")))

def plot(name, r, *opts, rc=0):
    """plot.py on the results r (written to work/NAME.json) into work/NAME:
    the process, the directory, the names of the SVGs made."""
    f, o = os.path.join(work, name + ".json"), os.path.join(work, name)
    json.dump(r, open(f, "w"))
    q = run(*opts, f, o)
    assert q.returncode == rc, q.stderr
    return q, o, {os.path.basename(x)[:-4] for x in q.stdout.split() if x.endswith(".svg")}

def png_ok(d, stem):
    path = os.path.join(d, stem + ".png")
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        assert zlib.crc32(kind + body) == struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])[0], \
            "bad CRC in " + path
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        pos += 12 + n
    assert ihdr and ihdr[:2] == (1000, 620), ihdr
    raw = zlib.decompress(idat)
    assert len(set(raw)) > 8, "an image of one colour: " + path
    return ihdr

def svg_ok(d, stem, *texts):
    path = os.path.join(d, stem + ".svg")
    root = ET.parse(path).getroot()
    assert root.tag.endswith("svg"), root.tag
    alltext = " ".join(t for t in root.itertext())
    for t in texts:
        assert t in alltext, (t, path)

DE = ["throughput-prep_memcpy", "phases-prep_memcpy", "throughput-prep_memcpy_sg",
      "phases-prep_memcpy_sg", "throughput-cpu", "phases-cpu", "throughput-both",
      "throughput-modes-ch1", "throughput-modes-ch4"]
out = os.path.join(work, "de")
p = run(os.path.join(FIX, "results-dmaengine.json"), out)
def dmaengine_files():
    assert p.returncode == 0, p.stderr
    want = sorted(os.path.join(out, f"{s}.{e}") for s in DE for e in ("png", "svg"))
    assert sorted(p.stdout.split()) == want, p.stdout
    for f in want:
        assert os.path.getsize(f) > 2000, f
check("dmaengine: throughput and phases per prep mode (cpu too), both DMA modes together, all modes per channel count; PNG and SVG", dmaengine_files)

def pngs():
    for s in DE:
        png_ok(out, s)
check("dmaengine: every PNG valid (signature, CRCs, 1000x620, not blank)", pngs)

def svgs():
    svg_ok(out, "throughput-prep_memcpy", "prep_memcpy: throughput, batches of 512 folios",
           "4KB", "64KB", "2MB", "1 channel", "4 channels", "folio size", "kernel 6.12.0-synthetic")
    svg_ok(out, "phases-prep_memcpy_sg", "time by phase", "prep", "submit", "issue", "wait",
           "1ch 4KB", "4ch 2MB")
    svg_ok(out, "throughput-both", "prep_memcpy_sg, 4 channels")
    svg_ok(out, "throughput-modes-ch4",
           "prep_memcpy vs prep_memcpy_sg vs cpu, 4 channels: throughput",
           "prep_memcpy", "prep_memcpy_sg", "cpu", "4KB", "2MB")
    svg_ok(out, "phases-cpu", "cpu: time by phase", "copy")
    # the failed cells (8 channels) are not plotted
    t = " ".join(ET.parse(os.path.join(out, "throughput-prep_memcpy.svg")).getroot().itertext())
    assert "8 channels" not in t
check("dmaengine: SVGs are XML with titles, folio labels, legends; failed cells left out", svgs)

def data_kept():
    d = os.path.join(out, "data")
    assert os.path.exists(os.path.join(d, "throughput-prep_memcpy.gp"))
    lines = open(os.path.join(d, "phases-prep_memcpy.dat")).read().splitlines()
    assert lines[0] == "# label prep_ms submit_ms issue_ms wait_ms map_ms unmap_ms run_ms"
    # per channel: fake_tool's sums over 4 channels divided by 4
    assert lines[4].split() == ['"4ch', '4KB"', "4.000000", "1.000000", "0.500000",
                                "34.500000", "0.025000", "0.025000", "40.000000"], lines[4]
    lines = open(os.path.join(d, "phases-cpu.dat")).read().splitlines()
    assert lines[0] == "# label copy_ms run_ms"
    assert lines[4].split() == ['"4ch', '4KB"', "35.000000", "35.000000"], lines[4]
    lines = open(os.path.join(d, "throughput-modes-ch4-cpu-c4.dat")).read().splitlines()
    assert lines[1:] == ["0 5.000000 0.100000", "4 5.400000 0.100000",
                         "9 5.900000 0.100000"], lines
check("data/: the gnuplot scripts and data, phases per channel (map, unmap; the cpu copy)", data_kept)

def depth_buffers():
    r = load()
    r["rows"] += [dict(x, depth=4) for x in r["rows"]]
    r["rows"] += [dict(x, buffers="reuse") for x in r["rows"] if x["depth"] == 1]
    q, o, names = plot("depth", r)
    for stem in ("throughput-cpu-d1-distinct", "throughput-cpu-d4-distinct",
                 "throughput-modes-ch1-d1-reuse", "phases-prep_memcpy-d4-distinct"):
        assert stem in names, (stem, sorted(names))
    assert len(q.stdout.split()) == 3 * 2 * len(DE), q.stdout
check("depth and buffers varied: a set of plots each (-dN, -distinct, -reuse)", depth_buffers)

def format1():
    r = load()
    r["format_version"] = 1
    r["rows"] = [x for x in r["rows"] if x["prep_mode"] != "cpu"]
    for x in r["rows"]:
        for k in ("depth", "buffers", "copy_ms", "prep_stalls"):
            x.pop(k, None)
    q, o, names = plot("format1", r)
    assert sorted(names) == sorted(["throughput-prep_memcpy", "phases-prep_memcpy",
                            "throughput-prep_memcpy_sg", "phases-prep_memcpy_sg",
                            "throughput-both", "throughput-modes-ch1",
                            "throughput-modes-ch4"]), names
check("a format 1 file (before the cpu mode): the plots of its two modes", format1)


def vec_plots():
    r = load()
    vec = []
    for x in r["rows"]:
        if x["prep_mode"] == "prep_memcpy_sg" and x["status"] == "ok":
            v = dict(x, prep_mode="prep_memcpy_vec",
                     gbps={"mean": x["gbps"]["mean"] + 0.5, "stddev": 0.1},
                     prep_ms={"mean": x["prep_ms"]["mean"] * 1.5, "stddev": 0.5},
                     convert_ms={"mean": x["channels"] / 4, "stddev": 0.01})
            vec.append(v)
    r["rows"] += vec
    q, o, names = plot("vec", r)
    assert names == set(DE) | {"throughput-prep_memcpy_vec", "phases-prep_memcpy_vec"}, sorted(names)
    png_ok(o, "phases-prep_memcpy_vec")
    svg_ok(o, "throughput-both",
           "prep_memcpy vs prep_memcpy_sg vs prep_memcpy_vec: throughput",
           "prep_memcpy_vec, 4 channels", "prep_memcpy_sg, 1 channel")
    svg_ok(o, "phases-prep_memcpy_vec", "prep_memcpy_vec: time by phase",
           "convert", "prep_rest", "submit", "wait")
    svg_ok(o, "throughput-modes-ch4", "prep_memcpy vs prep_memcpy_sg vs prep_memcpy_vec vs cpu, 4 channels")
    d = os.path.join(o, "data")
    lines = open(os.path.join(d, "phases-prep_memcpy_vec.dat")).read().splitlines()
    assert lines[0] == "# label convert_ms prep_rest_ms submit_ms issue_ms wait_ms map_ms unmap_ms run_ms", lines[0]
    # per channel, 4 channels: convert 1/4, prep 2 * 1.5 = 3 less it
    assert lines[4].split()[:4] == ['"4ch', '4KB"', "0.250000", "2.750000"], lines[4]
    assert os.path.exists(os.path.join(d, "throughput-both-prep_memcpy_vec-c4.dat"))
    # the two batch forms alone: throughput-both of the two
    r["rows"] = [x for x in r["rows"] if x["prep_mode"] in ("prep_memcpy_sg", "prep_memcpy_vec")]
    svg_ok(plot("vec2", r)[1], "throughput-both", "prep_memcpy_sg vs prep_memcpy_vec: throughput")
check("memcpy_vec: its throughput and phases (convert apart from the rest of prep); "
      "throughput-both with the three DMA forms, or the two batch forms", vec_plots)

def map_plots():
    o = os.path.join(work, "map")
    q = run(os.path.join(FIX, "results-map.json"), o)
    assert q.returncode == 0, q.stderr
    assert sorted(os.path.basename(x) for x in q.stdout.split()) == [
        "map-latency-sg.png", "map-latency-sg.svg", "map-latency-single.png",
        "map-latency-single.svg"]
    png_ok(o, "map-latency-sg")
    svg_ok(o, "map-latency-sg", "sg mode: dma_map_sg() latency",
           "sg entries", "map, 1 thread", "unmap, 4 threads", "1024")
    svg_ok(o, "map-latency-single", "dma_map_single()", "granule (pages)")
check("map: latency against sg entries per mode, a line per thread count", map_plots)

def sge_and_libgd():
    r = load()
    r["rows"] += [dict(x, sge=16) for x in r["rows"]]
    q, o, _ = plot("sge", r, "--png-terminal", "png")
    names = sorted(os.path.basename(x) for x in q.stdout.split())
    assert "throughput-prep_memcpy-sge16.png" in names and "phases-prep_memcpy_sg-sge512.svg" in names
    assert len(names) == 2 * 2 * len(DE), names
    png_ok(o, "throughput-both-sge16")
check("two sg entry counts: a plot each (-sgeN); libgd png terminal", sge_and_libgd)

def errors():
    q = run("--gnuplot", "no-such-gnuplot", os.path.join(FIX, "results-map.json"), work)
    assert q.returncode == 1 and "gnuplot not found" in q.stderr
    r = load()
    for x in r["rows"]:
        x["status"] = "failed"
    q, o, _ = plot("none", r, rc=1)
    assert "nothing to plot" in q.stderr
    q = run(os.path.join(FIX, "fake_tool.py"), os.path.join(work, "x"))
    assert q.returncode == 1 and q.stderr.startswith("plot.py:")
check("errors: no gnuplot, no successful cell, not a results file", errors)
def migrate_files():
    q = run(os.path.join(FIX, "results-migrate.json"), os.path.join(work, "mig"))
    assert q.returncode == 0, q.stderr
    stems = {os.path.basename(x)[:-4] for x in q.stdout.split() if x.endswith(".svg")}
    assert stems == {"migrate-throughput", "migrate-throughput-ch1",
                     "migrate-throughput-ch4"}, stems
    for s in stems:
        png_ok(os.path.join(work, "mig"), s)
    svg_ok(os.path.join(work, "mig"), "migrate-throughput", "cpu (offload off)",
           "prep_memcpy_sg, 4 channels", "move_pages() throughput", "2MB")
    svg_ok(os.path.join(work, "mig"), "migrate-throughput-ch4", "cpu", "prep_memcpy")
check("migrate: GB/s per folio size, a line per prep mode and channel count, the cpu "
      "row as the reference; one plot per channel count", migrate_files)
done()
PY
tap_end
