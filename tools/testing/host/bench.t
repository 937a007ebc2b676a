#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The benchmark scripts' reports (scripts/report/bench.py) on made-up
# input, since the scripts themselves need VMs: stats.median;
# bench-kernels.sh's per-cell line and its results (raw.txt and the cells'
# JSON in, results.json, results.csv, table.txt and the exit status out)
# through the command line the script runs; bench-overhead.sh's costs per
# descriptor and batch and the share outside the timed phases, also on the
# tool's JSON (fixtures/tool-dmaengine.json); bench-soft-dma.sh's medians,
# bests and ratios, through bench_report of scripts/lib.sh; bench.sh -g's
# migration table and its concurrency table (--movers) from the tool's
# migrate JSON (fixtures/tool-migrate.json), and over the mail's axes
# (axes_doc(): that JSON made a cell of each folio order, channel count
# and soft_dma mode, with every prep form): the grids, the phases, the
# run's time and the --mail preset's estimate; a board's cells, tagged
# with its driver's name, named so in every table.
. "$(dirname "$0")/lib.sh"
need python3
out_dir
run_py_tests "$TEST_OUT_DIR" <<'PY'
import csv, json, os, subprocess, sys
from pytap import FIX, TOP, check, close, done
from report import bench, results, stats

TMP = sys.argv[1]


def median():
    assert stats.median([3, 1, 2]) == 2
    assert stats.median([4, 1, 3, 2]) == 2.5
    assert stats.median([7.5]) == 7.5
    try:
        stats.median([])
    except ValueError:
        pass
    else:
        raise AssertionError("no ValueError for no values")
check("stats.median: odd and even counts, one value, ValueError for none", median)


def samples(*ns, nbytes=10 ** 9):
    """A cell's JSON whose runs last NS nanoseconds each (GB/s = 1e9 / ns),
    and a run of no time, which is left out."""
    s, t = [], 0
    for n in ns:
        s.append({"bytes": nbytes, "start_ns": t, "end_ns": t + n})
        t += n
    s.append({"bytes": nbytes, "start_ns": t, "end_ns": t})
    return {"samples": s}


def cell_line():
    doc = samples(1e9, 5e8, 2.5e8)	# 1, 2 and 4 GB/s
    assert bench.runs_gbps(doc) == [1.0, 2.0, 4.0]
    assert bench.kernels_cell(doc) == "median 2.000 GB/s, best 4.000 GB/s over 3 runs"
check("bench-kernels: a cell's GB/s per run (a run of no time left out) and its line", cell_line)


def bench_cmd(*args):
    p = subprocess.run(["bash", "-c", '. "$0/scripts/lib.sh" && bench_report "$@"',
                        TOP] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def kernels_dir(name, bench_ns, stock_ns):
    """OUT/raw.txt as bench-kernels.sh writes it: two rounds, the 4K and
    2M cells of each kernel, the runs of a round's cell lasting *_NS."""
    out = os.path.join(TMP, name)
    os.mkdir(out)
    raw = []
    for r in (1, 2):
        for kind, ns in (("bench", bench_ns), ("stock", stock_ns)):
            raw.append("%d %s kernel 7.3.4-%s\n" % (r, kind, kind))
            for folio in ("4K", "2M"):
                path = os.path.join(out, "%s-%d-%s.json" % (kind, r, folio))
                with open(path, "w") as f:
                    json.dump(samples(*ns[folio][r - 1]), f)
                raw.append("%d %s %s %s\n" % (r, kind, folio, path))
    with open(os.path.join(out, "raw.txt"), "w") as f:
        f.writelines(raw)
    return out


# GB/s 1, 2 | 4 over the rounds for the bench kernel: median 2, best 4
BENCH = {"4K": [(1e9, 5e8), (2.5e8,)], "2M": [(1e9, 5e8), (2.5e8,)]}
# stock: 4K the same (ratios 1); 2M median 1, best 2 (ratios 2, 2)
STOCK = {"4K": [(1e9, 5e8), (2.5e8,)], "2M": [(1e9, 1e9), (5e8,)]}
TABLE_ARGS = ["0.8", "1.25", "0.1 0.2 0.3", "0.4 0.5 0.6", "2", "x86-bench",
              "x86", "63", "64M", "2", "4K 2M"]


def kernels_table():
    out = kernels_dir("kernels", BENCH, STOCK)
    rc, text, err = bench_cmd("kernels-table", out, *TABLE_ARGS, "maxcpus=1")
    assert rc == 3, (rc, err)
    with open(os.path.join(out, "table.txt")) as f:
        assert f.read() == text
    lines = text.splitlines()
    assert lines[0] == ("soft_dma, --prep-modes memcpy, 1 channel, --sge 63, --bytes 64M,"
                        " 2 runs x 2 boot(s) of each kernel, GB/s"), lines[0]
    assert lines[1:4] == ["  bench: 7.3.4-bench (x86-bench)", "  stock: 7.3.4-stock (x86)",
                          "  kernel command line of both: +maxcpus=1"], lines[1:4]
    assert lines[7] == ("4K          2.000      2.000      4.000      4.000"
                        "      1.00       1.00"), lines[7]
    assert lines[8] == ("2M          2.000      1.000      4.000      2.000"
                        "      2.00*      2.00*  OUTSIDE"), lines[8]
    assert lines[-1] == "host load (1/5/15 min) before: 0.1 0.2 0.3, after: 0.4 0.5 0.6; 2 CPU(s)"
    with open(os.path.join(out, "results.json")) as f:
        doc = json.load(f)
    assert doc["kernels"]["bench"] == {"machine": "x86-bench", "release": "7.3.4-bench"}
    assert doc["cell"]["sge"] == 63 and doc["cell"]["runs"] == 2
    assert doc["cell"]["append"] == "maxcpus=1" and doc["ratio_range"] == [0.8, 1.25]
    assert doc["host"] == {"cpus": 2, "load_before": "0.1 0.2 0.3",
                           "load_after": "0.4 0.5 0.6"}, doc["host"]
    c4, c2 = doc["cells"]
    assert c4["folio"] == "4K" and c4["within"] and not c2["within"]
    assert c2["stock"] == {"median_gbps": 1.0, "best_gbps": 2.0, "runs": 3, "boots": 2,
                           "gbps": [1.0, 1.0, 2.0]}, c2["stock"]
    assert c2["ratio_median"] == 2.0 and c2["ratio_best"] == 2.0
    with open(os.path.join(out, "results.csv")) as f:
        rows = list(csv.DictReader(f))
    assert [(r["folio"], r["ratio_median"], r["within"]) for r in rows] == [
        ("4K", "1.0000", "1"), ("2M", "2.0000", "0")], rows
check("bench-kernels: results.json, results.csv, table.txt, exit 3 when a cell is OUTSIDE", kernels_table)


def kernels_within():
    out = kernels_dir("within", BENCH, BENCH)
    rc, text, err = bench_cmd("kernels-table", out, *TABLE_ARGS, "")
    assert rc == 0, (rc, err)
    assert not any(line.endswith("OUTSIDE") for line in text.splitlines()), text
    assert "kernel command line" not in text, text
    rc, text, err = bench_cmd("kernels-cell", os.path.join(out, "bench-1-4K.json"))
    assert (rc, text) == (0, "median 1.500 GB/s, best 2.000 GB/s over 2 runs\n"), (rc, text, err)
check("bench-kernels: exit 0 when every cell is within, no command line; kernels-cell", kernels_within)


def result(mode, **kv):
    r = {"prep_mode": mode, "chan": 2, "prep_calls": 1000, "submits": 500,
         "batches": 10}
    for k in bench.OVERHEAD_TIMED + ("run_ms",):
        r[k] = {"mean": kv.get(k, 0.0), "stddev": 0.1}
    return r


def overhead():
    doc = {"kernel": "7.3.4", "results": [
        # 40 ms timed over 2 channels: 20 of the 100 ms run, 80 % outside
        result("prep_memcpy", run_ms=100.0, prep_ms=1.0, submit_ms=1.0,
               issue_ms=2.0, wait_ms=36.0),
        # more timed than the run (overlapping phases): none outside
        result("prep_memcpy_sg", run_ms=10.0, wait_ms=30.0)]}
    lines = bench.overhead_lines(doc)
    assert lines[0] == "# soft_dma nocopy: framework + benchmark cost, kernel 7.3.4"
    assert lines[2].split() == ["prep_memcpy", "1000", "2000", "200000", "3600000",
                                "80.0%"], lines[2]
    assert lines[3].split() == ["prep_memcpy_sg", "0", "0", "0", "3000000", "0.0%"], lines[3]
    assert lines[-1].startswith("# outside: ")
    rc, text, err = bench_cmd("overhead", os.path.join(FIX, "tool-dmaengine.json"))
    assert rc == 0, err
    row = text.splitlines()[2].split()
    tool = json.load(open(os.path.join(FIX, "tool-dmaengine.json")))["results"][0]
    assert row[0] == tool["prep_mode"] and len(row) == 6, row
    close(float(row[1]), tool["prep_ms"]["mean"] * 1e6 / tool["prep_calls"], 0.5)
    assert 0 <= float(row[5].rstrip("%")) <= 100, row
check("bench-overhead: ns per descriptor and batch, the share outside (clamped at 0), "
      "on the tool's JSON", overhead)


SOFT_DMA_RAW = """\
1 0 cpus 1
1 1 ref1 1000
1 1 dmatest 500
1 1 ref16 2000
1 1 tool 1000
1 1 tool2 3000
1 2 ref1 3000
1 2 dmatest 3000
1 2 ref16 1000
1 2 tool 1000
1 2 tool2 1000
1 3 ref1 2000
1 3 dmatest 4000
1 3 ref16 4000
1 3 tool 3000
1 3 tool2 1500
"""


def mbs(kbps):
    return "%.0f" % (kbps * 1024 / 1e6)


def soft_dma():
    path = os.path.join(TMP, "soft-dma.raw")
    with open(path, "w") as f:
        f.write(SOFT_DMA_RAW)
    rc, text, err = bench_cmd("soft-dma", path)
    assert rc == 0, err
    lines = text.split("\n")
    assert lines[:2] == ["", "1 online CPU(s), 3 round(s), 2 MiB copies (MB/s):"], lines
    rows = {line[2:38].strip(): line[38:].split() for line in lines[3:] if line}
    assert list(rows) == ["memcpy(), 1 buffer pair (ref1)", "dmatest, 1 channel, 1 in flight",
                          "memcpy(), 16 buffer pairs (ref16)",
                          "dmaengine mode, 1 channel, 16/batch",
                          "dmaengine mode, 2 channels"], list(rows)
    assert rows["memcpy(), 1 buffer pair (ref1)"] == [mbs(2000), mbs(3000)]
    # dmatest / ref1 per round: 0.5, 1, 2 (median 1); bests 4000 / 3000
    assert rows["dmatest, 1 channel, 1 in flight"] == [
        mbs(3000), mbs(4000), "1.00", "/", "1.33", "of", "ref1"], rows
    # tool / ref16: 0.5, 1, 0.75; tool2 / tool: 3, 1, 0.5
    assert rows["dmaengine mode, 1 channel, 16/batch"][2:] == ["0.75", "/", "0.75", "of", "ref16"]
    assert rows["dmaengine mode, 2 channels"][2:] == ["1.00", "/", "1.00", "of", "tool"]
    assert bench.soft_dma_lines([]) == []
check("bench-soft-dma: medians, bests and ratios per CPU count, through bench_report", soft_dma)

# the split of migrate_doc()'s copy share of 0.25, whose time it is
MIGRATE_OWNERS = {"client": 0.05, "dma_api": 0.02, "dmaengine": 0.08,
                  "engine": 0.1}


def migrate_doc(order, offloaded, folios=4, movers=1, declined=0, gbps=None):
    """The tool's -m migrate JSON (fixtures/tool-migrate.json): 4 folios of
    ORDER, moved as FOLIOS (more: the kernel split them), the offload row
    having offloaded OFFLOADED of them, DECLINED declined (the rest fallen
    back); MOVERS movers (--movers); GB/s {mode: mean} where given."""
    with open(os.path.join(FIX, "tool-migrate.json"), encoding="utf-8") as fh:
        doc = json.load(fh)
    doc["params"]["folio_order"] = order
    doc["params"]["bytes"] = 4 * (4096 << order)
    doc["params"]["movers"] = movers
    for r in doc["results"]:
        r["folio_order"] = order
        r["folio_bytes"] = 4096 << order
        r["bytes"] = 4 * (4096 << order)
        r["folios"] = folios
        if gbps:
            r["gbps"] = {"mean": gbps[r["prep_mode"]], "stddev": 0.01}
        if r["prep_mode"] != "cpu":
            r["folios_offloaded"] = {"mean": offloaded, "stddev": 0}
            r["folios_declined"] = {"mean": declined, "stddev": 0}
            r["folios_fallback"] = {"mean": folios - offloaded - declined,
                                    "stddev": 0}
            r["copy_share"] = {"mean": 0.25, "stddev": 0}
            for o, v in MIGRATE_OWNERS.items():
                r[o + "_share"] = {"mean": v, "stddev": 0}
    return json.dumps(doc)


def migrate_table():
    raw = os.path.join(TMP, "migrate-raw.txt")
    out = os.path.join(TMP, "migrate-out")
    with open(raw, "w", encoding="utf-8") as fh:
        fh.write("[bench] soft_dma copy, folio order 0, 4 channel(s)\n")
        fh.write("@migrate copy %s\n" % migrate_doc(0, 4))
        fh.write("@migrate copy %s\n" % migrate_doc(9, 3))
        fh.write("@migrate copy %s\n" % migrate_doc(4, 64, folios=64))
        fh.write("@migrate nocopy %s\n" % migrate_doc(0, 4))
    rc, text, err = bench_cmd("migrate-table", raw, out)
    assert rc == 0, (rc, err)
    lines = text.splitlines()
    assert lines[0].startswith("# move_pages() of 16KB, node 0 -> 1, GB/s mean +- SD of 2 runs"), lines[0]
    assert "# soft_dma copying" in lines and any(
        line.startswith("# soft_dma nocopy") for line in lines), text
    heads = [line.split() for line in lines if line.startswith("folio")]
    assert heads[0] == ["folio", "mode", "4", "chan", "offloaded"], heads
    assert heads[1] == ["folio", "mode", "4", "chan"], heads
    assert heads[2] == ["folio", "chan", "mode", "share", "client", "dma_api",
                        "dmaengine", "engine"], heads
    rows = [line.split() for line in lines if line[:1].isdigit()]
    # copy: a line per folio size (smallest first) and row, then the
    # offload rows' shares, then their split; nocopy: 4KB's, its share,
    # its split
    assert [r[:2] for r in rows] == [
        ["4KB", "cpu"], ["4KB", "prep_memcpy"], ["64KB", "cpu"],
        ["64KB", "prep_memcpy"], ["2MB", "cpu"], ["2MB", "prep_memcpy"],
        ["4KB", "prep_memcpy"], ["64KB", "prep_memcpy"], ["2MB", "prep_memcpy"],
        ["4KB", "4"], ["64KB", "4"], ["2MB", "4"],
        ["4KB", "cpu"], ["4KB", "prep_memcpy"], ["4KB", "prep_memcpy"],
        ["4KB", "4"]], rows
    for r in rows[9:12] + rows[15:]:
        assert r[2:] == ["prep_memcpy", "25.0%", "5.0%", "2.0%", "8.0%",
                         "10.0%"], r
    assert rows[0][2:4] == ["429.532", "\u00b1"] and rows[0][-1] == "-", rows[0]
    assert rows[1][-1] == "all", rows[1]
    assert " ".join(rows[5][-4:]) == "NOT ALL (4 chan)", rows[5]
    # the kernel's split is the cpu row's too
    for r in rows[2:4]:
        assert " ".join(r[-7:]) == "(split by the kernel: 64 folios moved)", r
    assert " ".join(rows[6][2:]) == "25.0 \u00b1 0.0%", rows[6]
    with open(os.path.join(out, "table.txt"), encoding="utf-8") as fh:
        assert fh.read() == text
    with open(os.path.join(out, "results.csv"), encoding="utf-8") as fh:
        got = list(csv.DictReader(fh))
    assert len(got) == 8 and got[3]["prep_mode"] == "prep_memcpy" and \
        got[3]["folio_order"] == "9" and got[3]["fallback"] == "1", got
    assert got[5]["split"] == "True" and got[3]["split"] == "False", got
    assert float(got[1]["engine_share"]) == 0.1 and \
        float(got[1]["client_share"]) == 0.05, got[1]
    assert float(got[1]["wait_us_per_batch"]) == 500.0 and \
        float(got[1]["other_us_per_folio"]) == 27.5, got[1]
    with open(os.path.join(out, "results.json"), encoding="utf-8") as fh:
        doc = json.load(fh)
    assert [c["soft_dma"] for c in doc["cells"]] == ["copy", "copy", "copy", "nocopy"]
    assert doc["run"] == {"command": None, "elapsed_s": None, "guest_s": {}}, doc["run"]
    # no @migrate line: no results, exit status 1
    with open(raw, "w", encoding="utf-8") as fh:
        fh.write("[bench] nothing\n")
    rc, text, _ = bench_cmd("migrate-table", raw, out)
    assert rc == 1 and "no migrate results" in text, (rc, text)
check("bench.sh -g: the migration table per soft_dma mode, a line per folio size and row, "
      "a column per channel count, the copy share, results.csv and .json", migrate_table)


# The mail's axes, as bench.sh -g runs them by default: folio orders 0, 4,
# 8 and 9, channels 1, 4, 8 and 16, the cpu row and the three prep forms,
# soft_dma copying and nocopy; 16 MB, 3 runs after 1 warm-up.
AX_ORDERS = (0, 4, 8, 9)
AX_CHANS = (1, 4, 8, 16)
AX_MODES = ("cpu", "prep_memcpy", "prep_memcpy_sg", "prep_memcpy_vec")
AX_SD = ("copy", "nocopy")
AX_BYTES = 16 << 20


def ax_gbps(sd, order, ch, mode):
    """Every cell's GB/s its own: 10 nocopy + order + channels / 100 +
    the row's index / 1000."""
    return 10 * AX_SD.index(sd) + order + ch / 100 + AX_MODES.index(mode) / 1000


def ax_share(sd, order, ch, mode):
    """The copy share in percent: 50 nocopy + 10 x the row's index +
    order + channels / 10."""
    return 50 * AX_SD.index(sd) + 10 * AX_MODES.index(mode) + order + ch / 10


def ax_phase(sd, order, ch, mode, j, scale):
    """Phase J's us a batch (a folio: a tenth of it)."""
    v = (1000 * AX_MODES.index(mode) + 100 * j + 10 * AX_ORDERS.index(order) +
         AX_CHANS.index(ch) + 0.5 * AX_SD.index(sd))
    return v if scale == "batch" else v / 10


def axes_doc(sd, order, ch):
    """One cell's JSON, the tool's (fixtures/tool-migrate.json) with its
    prep_memcpy row cloned for memcpy_sg and memcpy_vec and every figure
    made the cell's own. Copying, the kernel split the 64 KB folios (64 x
    the folios moved); memcpy_sg at 1 MB over 8 channels let 1 folio a
    move fall back."""
    with open(os.path.join(FIX, "tool-migrate.json"), encoding="utf-8") as fh:
        doc = json.load(fh)
    cpu, dma = doc["results"]
    phases = [f["key"][:-len("_us_per_batch")] for f in doc["figures"]
              if f["key"].endswith("_us_per_batch")]
    nf = AX_BYTES // (4096 << order)
    moved = nf * 64 if sd == "copy" and order == 4 else nf
    doc["params"].update(folio_order=order, folio_bytes=4096 << order,
                         bytes=AX_BYTES, channels=ch, runs=3, warmup_runs=1,
                         prep_modes="all", pattern_check=sd == "copy")
    doc["results"] = []
    for mode in AX_MODES:
        r = json.loads(json.dumps(cpu if mode == "cpu" else dma))
        r.update(prep_mode=mode, chan=0 if mode == "cpu" else ch,
                 folio_order=order, folio_bytes=4096 << order, bytes=AX_BYTES,
                 runs=3, folios=moved)
        r["gbps"] = {"mean": ax_gbps(sd, order, ch, mode), "stddev": 0.001}
        if mode != "cpu":
            back = 1 if (sd, order, ch, mode) == ("copy", 8, 8, "prep_memcpy_sg") else 0
            r["folios_offloaded"] = {"mean": moved - back, "stddev": 0}
            r["folios_fallback"] = {"mean": back, "stddev": 0}
            r["folios_declined"] = {"mean": 0, "stddev": 0}
            r["batches"] = {"mean": moved / 4, "stddev": 0}
            r["copy_share"] = {"mean": ax_share(sd, order, ch, mode) / 100,
                               "stddev": 0.002}
            for scale in ("batch", "folio"):
                for j, p in enumerate(phases):
                    r["%s_us_per_%s" % (p, scale)] = {
                        "mean": ax_phase(sd, order, ch, mode, j, scale),
                        "stddev": 0}
        doc["results"].append(r)
    return doc


def axes_raw(path, movers=True):
    """The guest side's output over the mail's axes, in its order (soft_dma
    mode, order, channels), its "@time" lines: 600 s of migration cells,
    60 of concurrency cells (1, 2 and 4 movers of 16 MB, 3 runs)."""
    with open(path, "w", encoding="utf-8") as fh:
        for sd in AX_SD:
            for order in AX_ORDERS:
                for ch in AX_CHANS:
                    fh.write("[bench] soft_dma %s, folio order %d, %d channel(s)\n"
                             % (sd, order, ch))
                    fh.write("@migrate %s %s\n" % (sd, json.dumps(axes_doc(sd, order, ch))))
        fh.write("@time migrate 600\n")
        if movers:
            for m in (1, 2, 4):
                doc = axes_doc("copy", 0, 4)
                doc["params"]["movers"] = m
                fh.write("@movers copy %s\n" % json.dumps(doc))
            fh.write("@time movers 60\n")


def migrate_axes():
    raw = os.path.join(TMP, "axes-raw.txt")
    out = os.path.join(TMP, "axes-out")
    axes_raw(raw)
    rc, text, err = bench_cmd("migrate-table", raw, out, "--elapsed", "1000",
                              "--command=scripts/bench.sh -g",
                              "--estimate", "mail", str(1 << 30), "10", "1", "32")
    assert rc == 0, (rc, err)
    lines = text.splitlines()
    chan_cols = ["1", "chan", "4", "chan", "8", "chan", "16", "chan"]
    for sd in AX_SD:
        # the GB/s grid: its title, its header, a line per order and row
        t = next(i for i, line in enumerate(lines)
                 if line.startswith("# soft_dma " + ("copying" if sd == "copy" else "nocopy")))
        assert lines[t + 1].split() == ["folio", "mode"] + chan_cols + ["offloaded"], lines[t + 1]
        grid = [line.split() for line in lines[t + 2:t + 2 + 16]]
        for i, (order, mode) in enumerate((o, m) for o in AX_ORDERS for m in AX_MODES):
            g = grid[i]
            assert g[:2] == [results.format_size(4096 << order), mode], (i, g)
            assert [float(x) for x in g[2:14:3]] == [
                round(ax_gbps(sd, order, ch, mode), 3) for ch in AX_CHANS], (sd, g)
            note = " ".join(g[14:])
            split = sd == "copy" and order == 4
            want = "-" if mode == "cpu" else (
                "NOT ALL (8 chan)" if (sd, order, mode) == ("copy", 8, "prep_memcpy_sg")
                else "all")
            if split:
                want += " (split by the kernel: %d folios moved)" % (AX_BYTES // 65536 * 64)
            assert note == want, (sd, order, mode, note)
        assert lines[t + 18] == "", lines[t + 18]
        # the copy share grid: offload rows only
        s = t + 19
        assert lines[s].startswith("# soft_dma %s: the copy's share of the move" % sd), lines[s]
        assert lines[s + 1].split() == ["folio", "mode"] + chan_cols, lines[s + 1]
        grid = [line.split() for line in lines[s + 2:s + 2 + 12]]
        for i, (order, mode) in enumerate((o, m) for o in AX_ORDERS for m in AX_MODES[1:]):
            g = grid[i]
            assert g[:2] == [results.format_size(4096 << order), mode], (i, g)
            assert g[2:] == sum((["%.1f" % ax_share(sd, order, ch, mode), "\u00b1", "0.2%"]
                                 for ch in AX_CHANS), []), (sd, g)
    assert "# concurrent migrations, soft_dma copying" in text, text
    assert lines[-3] == "# command: scripts/bench.sh -g", lines[-3:]
    assert lines[-2] == ("# took 17 min: the migration cells 10 min, the concurrency "
                         "cells 60 s in the guest, the rest building and booting"), lines[-2]
    # 600 s / 32 cells x 32 x 64 (1 GB / 16 MB) x 11/4 (runs + warm-up)
    # + 60 s x 11/4 + the other 340 s
    secs = 600 * 64 * 11 / 4 + 60 * 11 / 4 + 340
    assert lines[-1].startswith("# estimate: the mail preset (1GB a move, 10 runs after 1 warm-up, "
                                "32 migration cells) would take about %.1f h" % (secs / 3600)), \
        lines[-1]
    with open(os.path.join(out, "results.json"), encoding="utf-8") as fh:
        doc = json.load(fh)
    assert doc["run"]["guest_s"] == {"migrate": 600, "movers": 60}, doc["run"]
    close(doc["run"]["estimate"]["seconds"], secs, 1e-6)
    assert len(doc["cells"]) == 32 and len(doc["movers"]) == 3
    with open(os.path.join(out, "results.csv"), encoding="utf-8") as fh:
        got = list(csv.DictReader(fh))
    assert len(got) == 32 * 4 + 3 * 4, len(got)
    r = next(r for r in got if (r["soft_dma"], r["folio_order"], r["channels"],
                                r["prep_mode"]) == ("nocopy", "9", "16", "prep_memcpy_vec"))
    close(float(r["gbps_mean"]), ax_gbps("nocopy", 9, 16, "prep_memcpy_vec"), 1e-9)
    close(float(r["copy_share"]), ax_share("nocopy", 9, 16, "prep_memcpy_vec") / 100, 1e-9)
    close(float(r["wait_us_per_batch"]), ax_phase("nocopy", 9, 16, "prep_memcpy_vec", 6,
                                                  "batch"), 1e-9)
    # phases.txt: per soft_dma mode, a batch then a folio, a line per
    # order, channel count and offload row; not printed without -v
    assert "phases a batch" not in text, text
    with open(os.path.join(out, "phases.txt"), encoding="utf-8") as fh:
        ph = fh.read().splitlines()
    titles = [i for i, line in enumerate(ph) if line.startswith("# ")]
    assert [ph[i].split(":")[0] for i in titles] == [
        "# soft_dma copy", "# soft_dma copy", "# soft_dma nocopy", "# soft_dma nocopy"], titles
    assert "phases a batch" in ph[titles[0]] and "phases a folio" in ph[titles[1]], ph[:2]
    head = ph[titles[2] + 1].split()
    assert head == ["folio", "chan", "mode", "batches", "batch", "build", "map", "prep",
                    "submit", "issue", "wait", "unmap", "mark", "other"], head
    body = [line.split() for line in ph[titles[2] + 2:titles[3]] if line]
    assert len(body) == 4 * 4 * 3, len(body)
    for g in body:
        order = next(o for o in AX_ORDERS if results.format_size(4096 << o) == g[0])
        ch, mode = int(g[1]), g[2]
        assert float(g[3]) == AX_BYTES // (4096 << order) / 4, g
        assert [float(x) for x in g[4:]] == [
            round(ax_phase("nocopy", order, ch, mode, j, "batch"), 2)
            for j in range(10)], g
    folio = [line.split() for line in ph[titles[3] + 2:] if line]
    assert folio[0][:3] == ["4KB", "1", "prep_memcpy"] and \
        float(folio[0][3]) == AX_BYTES // 4096, folio[0]
    assert float(folio[0][4]) == round(ax_phase("nocopy", 0, 1, "prep_memcpy", 0, "folio"), 2)
    rc, vtext, err = bench_cmd("migrate-table", raw, out, "-v")
    assert rc == 0 and vtext.startswith(text.split("\n# command")[0]) and \
        vtext.rstrip("\n").endswith(ph[-1]), (rc, err)
check("bench.sh -g over the mail's axes (orders 0 4 8 9, channels 1 4 8 16, copy and "
      "nocopy, cpu and every prep form): each figure in its line and column, the copy "
      "share, the phases a batch and a folio (phases.txt, -v), the run's time and the "
      "--mail estimate, results.csv and .json", migrate_axes)


def movers_table():
    raw = os.path.join(TMP, "movers-raw.txt")
    out = os.path.join(TMP, "movers-out")
    with open(raw, "w", encoding="utf-8") as fh:
        fh.write("@migrate copy %s\n" % migrate_doc(0, 4))
        fh.write("[bench] soft_dma copy, 1 mover(s) of 16M, 4 channels\n")
        # 4 folios a mover: 1 mover all offloaded; 2: 8 folios, 3 declined,
        # 1 fallen back; 4: 16, 9.5 declined a run (a mean), none back
        fh.write("@movers copy %s\n" % migrate_doc(
            0, 4, movers=1, gbps={"cpu": 0.2, "prep_memcpy": 0.25}))
        fh.write("@movers copy %s\n" % migrate_doc(
            0, 4, folios=8, movers=2, declined=3,
            gbps={"cpu": 0.3, "prep_memcpy": 0.35}))
        fh.write("@movers copy %s\n" % migrate_doc(
            0, 6.5, folios=16, movers=4, declined=9.5,
            gbps={"cpu": 0.4, "prep_memcpy": 0.45}))
    rc, text, err = bench_cmd("migrate-table", raw, out)
    assert rc == 0, (rc, err)
    lines = text.splitlines()
    title = [i for i, line in enumerate(lines)
             if line.startswith("# concurrent migrations")]
    assert len(title) == 1, text
    assert lines[title[0]].startswith(
        "# concurrent migrations, soft_dma copying: N processes at once (--movers N), "
        "each moving 16KB of its own; GB/s: all of them"), lines[title[0]]
    assert lines[title[0] + 1].split() == ["folio", "chan", "movers", "mode", "GB/s",
                                           "declined", "fallback"], lines[title[0] + 1]
    rows = [line.split() for line in lines[title[0] + 2:]]
    assert [(r[2], r[3]) for r in rows] == [
        ("1", "cpu"), ("1", "prep_memcpy"), ("2", "cpu"), ("2", "prep_memcpy"),
        ("4", "cpu"), ("4", "prep_memcpy")], rows
    assert rows[0] == ["4KB", "4", "1", "cpu", "0.200", "\u00b1", "0.010", "-", "-"], rows[0]
    assert rows[3] == ["4KB", "4", "2", "prep_memcpy", "0.350", "\u00b1", "0.010", "3", "1"], \
        rows[3]
    assert rows[5][-2:] == ["9.5", "0"], rows[5]
    # the migration table above it has the @migrate cell alone: its
    # cpu and prep_memcpy lines, and the latter's copy share and its split
    assert sum(line.startswith("4KB") for line in lines[:title[0]]) == 4, text
    with open(os.path.join(out, "results.csv"), encoding="utf-8") as fh:
        got = list(csv.DictReader(fh))
    assert [(r["table"], r["movers"]) for r in got] == [
        ("migrate", "1"), ("migrate", "1"), ("movers", "1"), ("movers", "1"),
        ("movers", "2"), ("movers", "2"), ("movers", "4"), ("movers", "4")], got
    assert got[5]["declined"] == "3" and got[5]["fallback"] == "1", got[5]
    with open(os.path.join(out, "results.json"), encoding="utf-8") as fh:
        doc = json.load(fh)
    assert [c["tool"]["params"]["movers"] for c in doc["movers"]] == [1, 2, 4]
    assert len(doc["cells"]) == 1
    # no @movers line: no concurrency table
    with open(raw, "w", encoding="utf-8") as fh:
        fh.write("@migrate copy %s\n" % migrate_doc(0, 4))
    rc, text, _ = bench_cmd("migrate-table", raw, out)
    assert rc == 0 and "concurrent" not in text, (rc, text)
check("bench.sh -g: the concurrency table per count of movers and row, aggregate GB/s, "
      "declined and fallen back; results.csv and .json", movers_table)


def migrate_board():
    """A board's cells (bench/migrate.sh's hw mode): tagged with the
    driver's name, which every table's title names instead of soft_dma."""
    raw = os.path.join(TMP, "board-raw.txt")
    out = os.path.join(TMP, "board-out")
    drv = "xilinx-zynqmp-dma"
    with open(raw, "w", encoding="utf-8") as fh:
        fh.write("@migrate %s %s\n" % (drv, migrate_doc(0, 4)))
        fh.write("@migrate %s %s\n" % (drv, migrate_doc(9, 4)))
        fh.write("@movers %s %s\n" % (drv, migrate_doc(0, 4, movers=2)))
    rc, text, err = bench_cmd("migrate-table", raw, out, "-v")
    assert rc == 0, (rc, err)
    titles = [line for line in text.splitlines() if line.startswith("# ")]
    assert "soft_dma" not in text, text
    assert "# %s copying (the board's engine)" % drv in titles, titles
    for t in ("# %s: the copy's share of the move" % drv,
              "# %s: the copy's share split by whose time it is" % drv,
              "# %s: the offload's phases a batch" % drv,
              "# %s: the offload's phases a folio" % drv,
              "# concurrent migrations, %s: N processes" % drv):
        assert any(line.startswith(t) for line in titles), (t, titles)
    with open(os.path.join(out, "results.json"), encoding="utf-8") as fh:
        doc = json.load(fh)
    assert [c["soft_dma"] for c in doc["cells"] + doc["movers"]] == [drv] * 3
check("bench.sh -g on a board: the tables name its driver, not soft_dma", migrate_board)

done()
PY
tap_end
