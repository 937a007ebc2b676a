#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/bench-hook-off.sh's host side on made-up input, since the script
# itself needs VMs: its options' checks (which end before anything is
# built or booted); the exact pooling of the boots' mean, SD and count
# (scripts/report/hookoff.py) against the values themselves; its table of
# a made-up raw.txt (the tool's migrate JSON, fixtures/tool-migrate.json,
# with the cpu rows' figures set): the results files compare.py reads, the
# means, ratios and p-values against SciPy's Welch test over the runs and
# over the boots' means, the table; and the errors: a boot of the wrong
# kernel (HOOK), a folio order without results.
. "$(dirname "$0")/lib.sh"

# compare.py runs on Debian's python3 (its #!), which has python3-scipy
PATH=/usr/bin:$PATH
need python3
if ! python3 -c 'import scipy.stats' 2>/dev/null; then
	tap_skip "not installed: python3-scipy (scripts/setup.sh installs it)"
	tap_end
fi
out_dir
run_py_tests "$TEST_OUT_DIR" <<'PY'
import copy, csv, json, os, statistics, subprocess, sys
import scipy.stats
from pytap import FIX, TOP, check, close, done
from report import hookoff

TMP = sys.argv[1]
SCRIPT = os.path.join(TOP, "scripts/bench-hook-off.sh")


def options():
    for args, msg in (
            (["-r", "0"], "--rounds and --runs take positive numbers"),
            (["-n", "x"], "--rounds and --runs take positive numbers"),
            (["-w", "-1"], "--warmup-runs takes a number"),
            (["-f", " "], "--orders is empty"),
            (["-f", "0 4K"], "--orders takes folio orders"),
            (["-f", "21"], "--orders takes folio orders"),
            (["-b", "M"], "--bytes takes a size"),
            (["--bogus"], "unknown option --bogus")):
        p = subprocess.run([SCRIPT] + args, capture_output=True, text=True)
        assert p.returncode == 1 and msg in p.stderr, (args, p.returncode, p.stderr)
    p = subprocess.run([SCRIPT, "--help"], capture_output=True, text=True)
    assert p.returncode == 0 and p.stdout.startswith("Benchmark (not a test)"), p.stdout
    assert "-f, --orders" in p.stdout and "Exit status" in p.stdout, p.stdout
check("bench-hook-off.sh: each bad option refused, naming it, before any build; --help", options)


def pool():
    groups = [[0.17, 0.18, 0.2, 0.16], [0.21, 0.19], [0.15, 0.22, 0.18]]
    m, sd, n = hookoff.pool([(statistics.mean(g), statistics.stdev(g), len(g))
                             for g in groups])
    flat = [v for g in groups for v in g]
    assert n == 9
    close(m, statistics.mean(flat), 1e-12)
    close(sd, statistics.stdev(flat), 1e-12)
    assert hookoff.pool([(0.5, 0.0, 1)]) == (0.5, 0.0, 1)
    assert hookoff.pool([(0.5, 0.0, 1), (9.0, 1.0, 0)]) == (0.5, 0.0, 1)
check("pool: the mean and sample SD of all runs from each boot's, exactly; one run", pool)


with open(os.path.join(FIX, "tool-migrate.json")) as f:
    TOOL = json.load(f)
# (mean, SD) GB/s of a boot's cpu row, RUNS runs each: [order][kind][round]
RUNS = 5
GBPS = {0: {"hook": [(0.170, 0.010), (0.180, 0.012)],
            "nohook": [(0.173, 0.011), (0.179, 0.009)]},
        9: {"hook": [(0.190, 0.020), (0.200, 0.030)],
            "nohook": [(0.300, 0.020), (0.310, 0.025)]}}


def tool_doc(order, mean, sd):
    d = copy.deepcopy(TOOL)
    d["params"].update(folio_order=order, folio_bytes=4096 << order,
                       bytes=32 << 20, runs=RUNS, prep_modes="none", channels=1)
    cpu = dict(d["results"][0], folio_order=order, folio_bytes=4096 << order,
               bytes=32 << 20, runs=RUNS, folios=(32 << 20) // (4096 << order),
               gbps={"mean": mean, "stddev": sd},
               move_ms={"mean": 33.554432 / mean / 1000, "stddev": 0.1})
    d["results"] = [cpu]
    return d


def raw_dir(name, hooks=None, orders=(0, 9)):
    out = os.path.join(TMP, name)
    os.mkdir(out)
    raw = []
    for r in (1, 2):
        for kind in ("hook", "nohook"):
            raw.append("%d %s kernel 7.3.4-dmabench-bench #%d SMP\n" % (r, kind, r))
            raw.append("%d %s hook %s\n" % (
                r, kind, (hooks or {}).get((kind, r), "yes" if kind == "hook" else "no")))
            for o in orders:
                path = os.path.join(out, "%s-%d-%d.json" % (kind, r, o))
                with open(path, "w") as f:
                    json.dump(tool_doc(o, *GBPS[o][kind][r - 1]), f)
                raw.append("%d %s %d %s\n" % (r, kind, o, path))
    with open(os.path.join(out, "raw.txt"), "w") as f:
        f.writelines(raw)
    return out


def report(out, *extra):
    p = subprocess.run([sys.executable, "-m", "report.hookoff", "table", out,
                        "--bytes", "32M", "--runs", str(RUNS), "--warmup", "1",
                        "--orders", "0 9", "--load-before", "1 2 3",
                        "--load-after", "4 5 6", "--cpus", "2",
                        "--hook-kernel", "/k/H", "--nohook-kernel", "/k/H-hookoff",
                        *extra], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=os.path.join(TOP, "scripts")))
    return p.returncode, p.stdout, p.stderr


def table():
    out = raw_dir("table")
    rc, text, err = report(out)
    assert rc == 0, (rc, err)
    with open(os.path.join(out, "results.json")) as f:
        doc = json.load(f)
    for c in doc["cells"]:
        o = c["folio_order"]
        side = {}
        for k in ("hook", "nohook"):
            side[k] = hookoff.pool([(m, s, RUNS) for m, s in GBPS[o][k]])
            close(c[k]["gbps_mean"], side[k][0], 1e-9)
            close(c[k]["gbps_stddev"], side[k][1], 1e-9)
            assert c[k]["runs"] == 2 * RUNS and c[k]["boots"] == 2, c[k]
            assert c[k]["boot_means"] == [m for m, _ in GBPS[o][k]], c[k]
        close(c["ratio"], side["hook"][0] / side["nohook"][0], 1e-9)
        want = scipy.stats.ttest_ind_from_stats(*side["hook"], *side["nohook"],
                                                equal_var=False)
        close(c["p_runs"], float(want.pvalue), 1e-9)
        bm = {k: [m for m, _ in GBPS[o][k]] for k in ("hook", "nohook")}
        want = scipy.stats.ttest_ind(bm["hook"], bm["nohook"], equal_var=False)
        close(c["p_boots"], float(want.pvalue), 1e-9)
    c0, c9 = doc["cells"]
    assert c0["p_runs"] > 0.05 and c9["p_runs"] < 0.001, (c0, c9)
    assert doc["kernels"]["nohook"] == {"dir": "/k/H-hookoff",
                                        "release": "7.3.4-dmabench-bench #1 SMP"}
    # the files compare.py read: sweep results of kind migrate, a cpu row an order
    with open(os.path.join(out, "hook.json")) as f:
        h = json.load(f)
    assert h["format"] == "dma-bench-sweep" and h["kind"] == "migrate", h
    assert [(r["prep_mode"], r["folio_order"], r["runs"]) for r in h["rows"]] == [
        ("cpu", 0, 10), ("cpu", 9, 10)], h["rows"]
    with open(os.path.join(out, "nohook-boots.json")) as f:
        assert [r["runs"] for r in json.load(f)["rows"]] == [2, 2]
    with open(os.path.join(out, "compare.txt")) as f:
        assert "chan=1 folio=2MB" in f.read()
    with open(os.path.join(out, "table.txt")) as f:
        assert f.read() == text
    lines = text.splitlines()
    assert lines[0].startswith("move_pages() of 32M node 0 -> 1"), lines[0]
    assert "2 boot(s) of each kernel" in lines[0], lines[0]
    assert lines[4].split() == ["folio", "hook", "nohook", "ratio", "p", "runs",
                                "p", "boots"], lines[4]
    w = lines[6].split()
    assert w[0] == "2MB" and w[1] == "%.4f" % c9["hook"]["gbps_mean"], w
    assert w[7] == "%.3f" % c9["ratio"] and w[8] == hookoff.fmt_p(c9["p_runs"]), w
    assert lines[-1] == "host load (1/5/15 min) before: 1 2 3, after: 4 5 6; 2 CPU(s)"
    with open(os.path.join(out, "results.csv")) as f:
        rows = list(csv.DictReader(f))
    assert [(r["folio_order"], r["ratio"]) for r in rows] == [
        ("0", "%.4f" % c0["ratio"]), ("9", "%.4f" % c9["ratio"])], rows
check("table: pooled means, ratios, Welch's p over runs and boots as SciPy's; "
      "the files compare.py read; table.txt, results.csv", table)


def wrong_kernel():
    out = raw_dir("wrong", hooks={("nohook", 2): "yes"})
    rc, text, err = report(out)
    assert rc == 1 and "round 2: the nohook kernel says HOOK yes, not no" in err, (rc, err)
    assert not os.path.exists(os.path.join(out, "results.json"))
check("table: a boot whose kernel has the hook when it should not: exit 1, saying so",
      wrong_kernel)


def missing_order():
    out = raw_dir("missing", orders=(0,))
    rc, text, err = report(out)
    assert rc == 1 and "no result of the hook kernel for folio order 9" in err, (rc, err)
check("table: a folio order without results: exit 1, naming it", missing_order)

done()
PY
tap_end
