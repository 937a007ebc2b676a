#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/compare.py and its statistics (scripts/report/stats.py): Welch's
# test against SciPy's (scipy.stats.ttest_ind_from_stats, whose p-value
# stats.py takes) and R's t.test of the sleep data, its own edge cases (too
# few runs, zero variance, equal means), and without SciPy a one-line exit
# that the scripts without a t-test (sweep.py, plot.py) do not share; then
# compare.py on two crafted results files (fixtures/compare-a.json,
# compare-b.json) whose t-test outcomes are known: the deltas, the
# significance flags ("~" within noise), the alpha option, too few runs,
# failed and one-sided cells, geometric means, --prep inside one file,
# --json, and errors; the crafted files are format 1 (before the cpu mode,
# depth and buffers), read as depth 1 with reused buffers; --prep --modes
# with the cpu mode on the format 3 fixtures/results-dmaengine.json, and the
# two batch forms (prep_memcpy_sg against prep_memcpy_vec, convert_ms
# memcpy_vec's alone).
. "$(dirname "$0")/lib.sh"

# compare.py runs on Debian's python3 (its #!), the one python3-scipy
# (scripts/setup.sh) is for; so do these checks, whatever python3 comes
# first on PATH (a pyenv's, say)
PATH=/usr/bin:$PATH
need python3
if ! python3 -c 'import scipy.stats' 2>/dev/null; then
	tap_skip "not installed: python3-scipy (scripts/setup.sh installs it)"
	tap_end
fi
out_dir
run_py_tests "$TEST_OUT_DIR" <<'PY'
import json, math, os, re, subprocess, sys
from pytap import FIX, TOP, check, close, done
import scipy.stats
from report import stats

A = os.path.join(FIX, "compare-a.json")
B = os.path.join(FIX, "compare-b.json")
COMPARE = os.path.join(TOP, "scripts/compare.py")


SLEEP1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
SLEEP2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]
def sleep():
    m1, s1 = stats.mean_stddev(SLEEP1)
    m2, s2 = stats.mean_stddev(SLEEP2)
    w = stats.welch(m1, s1, 10, m2, s2, 10)
    # R: t.test(extra ~ group, data = sleep): t = -1.8608, df = 17.776,
    # p-value = 0.07939 (group 1 - group 2; here B - A)
    close(w["t"], 1.8608, 1e-4)
    close(w["df"], 17.776, 1e-3)
    close(w["p"], 0.07939, 1e-5)
check("Welch: R's t.test on the sleep data: t 1.8608, df 17.776, p 0.07939", sleep)

def welch_cases():
    w = stats.welch(10, 1, 20, 12, 1, 20)
    close(w["t"], 2 / math.sqrt(0.1), 1e-12); assert w["df"] == 38
    assert w["p"] < 1e-6
    # equal SD and n: df = 2n - 2; t at the 0.975 quantile gives p = 0.05
    w = stats.welch(0, 1, 20, 2.0244 * math.sqrt(0.1), 1, 20)
    close(w["p"], 0.05, 1e-4)
    # unequal variances: df from Welch-Satterthwaite
    w = stats.welch(5, 2, 8, 7, 0.5, 30)
    va, vb = 4 / 8, 0.25 / 30
    close(w["df"], (va + vb) ** 2 / (va ** 2 / 7 + vb ** 2 / 29), 1e-9)
    # t at SciPy's 0.975 quantile of t(38) (inverted to about 1e-10): p = 0.05
    w = stats.welch(0, 1, 20, scipy.stats.t.ppf(0.975, 38) * math.sqrt(0.1), 1, 20)
    close(w["p"], 0.05, 1e-9)
    assert stats.welch(1, 1, 1, 2, 1, 20) is None
    assert stats.welch(1, 1, 20, 2, 1, None) is None
    w = stats.welch(5, 0, 20, 5, 0, 20)
    assert w["p"] == 1.0 and w["t"] == 0.0 and w["df"] == 38
    w = stats.welch(5, 0, 20, 6, 0, 20)
    assert w["p"] == 0.0 and w["t"] == math.inf
    assert stats.welch(6, 0, 20, 5, 0, 20)["t"] == -math.inf
    # equal means, some variance: t 0, p 1
    w = stats.welch(5, 1, 20, 5, 2, 9)
    assert w["t"] == 0.0 and w["p"] == 1.0
    # one side without variance: still a test
    w = stats.welch(5, 0, 20, 6, 2, 9)
    close(w["df"], 8, 1e-12); assert 0 < w["p"] < 1
check("Welch: t, Welch-Satterthwaite df, n < 2 untestable, zero variance, equal means", welch_cases)

def scipy_p(a, b):
    """SciPy's t and p of B against A, each (mean, stddev, n)."""
    r = scipy.stats.ttest_ind_from_stats(b[0], b[1], b[2], a[0], a[1], a[2],
                                         equal_var=False)
    return float(r.statistic), float(r.pvalue)

CASES = [((10, 1, 20), (12, 1, 20)), ((5, 2, 8), (7, 0.5, 30)),
         ((7, 0.5, 30), (5, 2, 8)), ((0.1, 0.01, 3), (0, 3, 5)),
         ((1e3, 40, 2), (1.2e3, 1, 200)), ((5, 0, 20), (6, 2, 9))]
def against_scipy():
    for a, b in CASES:
        w = stats.welch(*a, *b)
        t, p = scipy_p(a, b)
        close(w["t"], t, 1e-12 * max(1, abs(t)))
        close(w["p"], p, 1e-12)
check("Welch: t and p equal scipy.stats.ttest_ind_from_stats (1e-12), 6 cases", against_scipy)

TMP = sys.argv[1]

def hide_scipy():
    """An environment whose python3 cannot import scipy."""
    os.mkdir(os.path.join(TMP, "scipy"))
    with open(os.path.join(TMP, "scipy", "__init__.py"), "w") as f:
        f.write("raise ImportError('No module named scipy (hidden)')\n")
    env = dict(os.environ, PYTHONPATH=TMP)
    p = subprocess.run(["python3", "-c", "import scipy"], env=env,
                       capture_output=True, text=True)
    assert p.returncode != 0, "scipy not hidden"
    return env

def helpers():
    assert stats.pct_change(10, 12) == 20.0 and stats.pct_change(0, 0) == 0.0
    assert stats.pct_change(0, 1) is None
    close(stats.geomean([1, 4, 16]), 4.0, 1e-12)
    assert stats.geomean([1, 0]) is None
    m, s = stats.mean_stddev([2, 4, 4, 4, 5, 5, 7, 9]); close(s, 2.13809, 1e-5)
check("percent change, geometric mean, sample SD", helpers)

# --- compare.py on the fixtures ------------------------------------------
def run(*args, env=None):
    # by its #!, as the documentation runs it
    p = subprocess.run([COMPARE] + list(args), capture_output=True, text=True, env=env)
    return p.returncode, p.stdout, p.stderr

def jrun(*args, env=None):
    """compare.py --json ARGS: exit 0, its document."""
    rc, out, err = run("--json", *args, env=env)
    assert rc == 0, err
    return json.loads(out)

RD = os.path.join(FIX, "results-dmaengine.json")
def variant(name, edit):
    """A copy of results-dmaengine.json that edit(results) changed, in TMP."""
    r = json.load(open(RD))
    edit(r)
    f = os.path.join(TMP, name)
    json.dump(r, open(f, "w"))
    return f

rc, out, err = run("--json", A, B)
doc = {}
def json_ok():
    assert rc == 0, err
    doc.update(json.loads(out))
    assert doc["mode"] == "files" and doc["alpha"] == 0.05 and doc["kind"] == "dmaengine"
    assert doc["a"]["label"] == "before" and doc["b"]["kernel"] == "6.12.0-after"
check("compare.py --json A B: exit 0, valid JSON naming both files", json_ok)

def find(fig, mode, chan, d=None):
    for c in (d or doc)["comparisons"]:
        k = c["key"]
        if c["figure"] == fig and k.get("prep_mode", mode) == mode and k["channels"] == chan:
            return c
    raise KeyError((fig, mode, chan))

def significant():
    c = find("run_ms", "prep_memcpy", 1)
    assert c["status"] == "ok" and c["significant"] is True
    close(c["delta_pct"], 20.0, 1e-9); close(c["t"], 6.324555, 1e-5); assert c["df"] == 38
    assert c["better"] is False          # slower
    g = find("gbps", "prep_memcpy", 1)
    close(g["delta_pct"], -20.0, 1e-9); assert g["significant"] and g["better"] is False
check("10 -> 12 ms (SD 1, n 20+20): +20.00%, p < 1e-6, worse; GB/s -20.00%, worse", significant)

def noise():
    c = find("run_ms", "prep_memcpy", 2)
    assert c["significant"] is False; close(c["p"], 0.7535, 1e-3); close(c["delta_pct"], 1.0, 1e-9)
    assert c["better"] is None
check("10 -> 10.1 ms: +1%, p 0.754: within noise (significant false)", noise)

def boundary():
    c4 = find("run_ms", "prep_memcpy", 4); c8 = find("run_ms", "prep_memcpy", 8)
    assert c4["significant"] is False and 0.05 < c4["p"] < 0.07, c4["p"]
    assert c8["significant"] is True and 0.03 < c8["p"] < 0.05, c8["p"]
    close(c4["p"], 2 * scipy.stats.t.sf(0.6 / math.sqrt(0.1), 38), 1e-12)
    close(c8["delta_pct"], 7.0, 1e-9)
check("either side of alpha: +6% p 0.065 '~', +7% p 0.033 significant", boundary)

def sleep_cell():
    c = find("run_ms", "prep_memcpy", 16)
    close(c["p"], 0.07939, 1e-5); assert c["significant"] is False
    d2 = jrun("--alpha", "0.1", A, B)
    assert find("run_ms", "prep_memcpy", 16, d2)["significant"] is True
    assert d2["alpha"] == 0.1
check("sleep data as a cell: p 0.07939, '~' at alpha 0.05, significant with --alpha 0.1", sleep_cell)

def special():
    c = find("run_ms", "prep_memcpy_sg", 1)
    assert c["status"] == "ok" and c["p"] is None and c["significant"] is None
    close(c["delta_pct"], -12.5, 1e-9)
    z = find("run_ms", "prep_memcpy_sg", 8)
    assert z["p"] == 1.0 and z["significant"] is False and z["t"] == 0.0
    assert find("run_ms", "prep_memcpy_sg", 2)["status"] == "failed_b"
    assert "buffers larger than memory allows" in find("run_ms", "prep_memcpy_sg", 2)["error"]
    assert find("run_ms", "prep_memcpy_sg", 4)["status"] == "only_a"
    assert find("run_ms", "prep_memcpy_sg", 16)["status"] == "only_b"
check("n 1: no test; equal zero-SD: p 1; failed in B, only in A, only in B", special)

def geo():
    g = [x for x in doc["geomeans"] if x["figure"] == "run_ms"][0]
    ok = [c for c in doc["comparisons"] if c["figure"] == "run_ms" and c["status"] == "ok"]
    assert g["cells"] == len(ok) == 7
    close(g["a"], stats.geomean(c["a"]["mean"] for c in ok), 1e-12)
    close(g["delta_pct"], (g["b"] / g["a"] - 1) * 100, 1e-9)
check("geomean over the 7 cells both sides have", geo)

def all_against_scipy():
    """Every comparison of A B and of --prep A: SciPy's p; both SDs 0,
    the documented 1 (equal means) or 0."""
    n = 0
    for c in doc["comparisons"] + jrun("--prep", A)["comparisons"]:
        if c["status"] != "ok" or c["p"] is None:
            continue
        a = (c["a"]["mean"], c["a"]["stddev"], c["a"]["n"])
        b = (c["b"]["mean"], c["b"]["stddev"], c["b"]["n"])
        if a[1] == b[1] == 0:
            assert c["p"] == (1.0 if a[0] == b[0] else 0.0), c
            continue
        t, p = scipy_p(a, b)
        close(c["p"], p, 1e-12)
        close(c["t"], t, 1e-12 * max(1, abs(t)))
        n += 1
    assert n >= 20, n
check("every tested comparison of A B and --prep A: p and t of scipy.stats.ttest_ind_from_stats (1e-12)",
      all_against_scipy)

rc, text, err = run(A, B)
def text_table():
    assert rc == 0, err
    lines = text.splitlines()
    def line(label):
        return [l for l in lines if l.startswith(label + " ")]
    l = line("prep_memcpy chan=1 folio=4KB sge=512")
    assert l[0].split()[-3:] == ["+20.00%", "(p=0.000", "n=20+20)"], l[0]
    assert "10.00 \u00b1 1.00" in l[0] and "12.00 \u00b1 1.00" in l[0]
    assert line("prep_memcpy chan=2 folio=4KB sge=512")[0].endswith("~ (p=0.754 n=20+20)")
    assert line("prep_memcpy chan=4 folio=4KB sge=512")[0].endswith("~ (p=0.065 n=20+20)")
    assert line("prep_memcpy chan=8 folio=4KB sge=512")[0].endswith("+7.00% (p=0.033 n=20+20)")
    assert line("prep_memcpy_sg chan=1 folio=4KB sge=512")[0].endswith(
        "-12.50% ? (n=1+1: too few runs to test)")
    assert any(l.startswith("run_ms ") and "before" in l and "after" in l for l in lines)
    assert any(l.startswith("geomean ") for l in lines)
    assert any("failed in B: buffers larger than memory allows" in l for l in lines)
    assert any("only in A" in l for l in lines) and any("only in B" in l for l in lines)
    # run_ms, wait_ms (run_ms - 1.6) at chan 1 and 8; gbps at chan 1; the
    # format 1 files' map_ms and unmap_ms are compared too (14 more)
    assert lines[-1].startswith("# 5 of 56 comparisons differ significantly"), lines[-1]
check("text: per-figure tables, deltas, '~ (p=...)', '?', not-compared list, summary", text_table)

def prep():
    d = jrun("--prep", A)
    assert d["mode"] == "prep"
    c = find("run_ms", None, 8, d)
    close(c["delta_pct"], -50.0, 1e-9); assert c["significant"] is True and c["better"] is True
    c = find("run_ms", None, 2, d)
    close(c["delta_pct"], -10.0, 1e-9); close(c["p"], 2 * scipy.stats.t.sf(1 / math.sqrt(0.1), 38), 1e-12)
    assert [x["status"] for x in d["comparisons"]
            if x["figure"] == "run_ms" and x["key"]["channels"] == 16] == ["only_a"]
    rc, out, err = run("--prep", A)
    assert "prep_memcpy" in out and "prep_memcpy_sg" in out and "chan=8 folio=4KB sge=512" in out
check("--prep: prep_memcpy_sg against prep_memcpy in one file (-50%, better)", prep)

def cpu_modes():
    d = jrun("--prep", "--modes", "cpu,prep_memcpy_sg", RD)
    assert d["a"]["short"] == "cpu" and d["b"]["short"] == "prep_memcpy_sg"
    # the tool's figures in ms and GB/s, in its order (its JSON's figures)
    assert d["figures"] == ["run_ms", "prep_ms", "submit_ms", "issue_ms", "wait_ms",
                            "map_ms", "unmap_ms", "copy_ms", "gbps"], d["figures"]
    figs = {c["figure"] for c in d["comparisons"]}
    # a phase one side lacks (the CPU copy's prep_ms, the offload's copy_ms)
    assert figs == {"run_ms", "gbps"}, figs
    c = [x for x in d["comparisons"] if x["figure"] == "gbps" and x["key"]["channels"] == 4
         and x["key"]["folio_order"] == 0][0]
    assert c["key"] == {"channels": 4, "folio_order": 0, "sge": 512, "depth": 1,
                        "buffers": "distinct", "dst_folio_order": 0}, c["key"]
    close(c["delta_pct"], -20.0, 1e-9)     # fake_tool: the CPU 1 GB/s faster
    rc, out, err = run(RD, RD)
    assert rc == 0 and "copy_ms" in out and "cpu chan=4 folio=4KB sge=512 depth=1 distinct" in out
    rc, out, err = run("--prep", "--modes", "cpu,gpu", RD)
    assert rc == 2 and "--modes needs two different prep modes" in err
check("--prep --modes cpu,prep_memcpy_sg: the offload against the CPU copy, only the figures both have", cpu_modes)

def add_vec(r):
    """A prep_memcpy_vec row beside each prep_memcpy_sg row: 10% faster, and
    a conversion time."""
    for x in list(r["rows"]):
        if x["prep_mode"] == "prep_memcpy_sg":
            v = dict(x, prep_mode="prep_memcpy_vec")
            if x["status"] == "ok":
                v["run_ms"] = {"mean": x["run_ms"]["mean"] * 0.9, "stddev": x["run_ms"]["stddev"]}
                v["convert_ms"] = {"mean": 0.25, "stddev": 0.01}
            r["rows"].append(v)

def vec_modes():
    f = variant("vec.json", add_vec)
    d = jrun("--prep", "--modes", "prep_memcpy_sg,prep_memcpy_vec", f)
    assert d["a"]["short"] == "prep_memcpy_sg" and d["b"]["short"] == "prep_memcpy_vec"
    assert d["figures"][-3:] == ["copy_ms", "convert_ms", "gbps"], d["figures"]
    figs = {c["figure"] for c in d["comparisons"]}
    # the DMA phases both have; convert_ms (memcpy_vec's) and copy_ms not
    assert figs == {"run_ms", "prep_ms", "submit_ms", "issue_ms", "wait_ms", "map_ms",
                    "unmap_ms", "gbps"}, figs
    c = [x for x in d["comparisons"] if x["figure"] == "run_ms" and x["status"] == "ok"][0]
    close(c["delta_pct"], -10.0, 1e-9)
    assert c["better"] is True
    # the default stays memcpy against memcpy_sg
    d = jrun("--prep", f)
    assert d["a"]["short"] == "prep_memcpy" and d["b"]["short"] == "prep_memcpy_sg"
    # before/after files with memcpy_vec rows: convert_ms compared for them
    d = jrun(f, f)
    assert "convert_ms" in d["figures"]
    conv = [c for c in d["comparisons"] if c["figure"] == "convert_ms"]
    assert conv and all(c["key"]["prep_mode"] == "prep_memcpy_vec" for c in conv)
    rc, out, err = run("--prep", "--modes", "prep_memcpy_sg,memcpy_vec", f)
    assert rc == 2 and "--modes needs two different prep modes of prep_memcpy, " \
        "prep_memcpy_sg, prep_memcpy_vec, cpu" in err, err
    rc, out, err = run("--help")
    assert rc == 0 and "--modes prep_memcpy_sg,prep_memcpy_vec" in out and \
        "two batch" in out, out
check("--prep --modes prep_memcpy_sg,prep_memcpy_vec: the two batch forms; convert_ms only between memcpy_vec rows; help says so", vec_modes)

def dst_order_cells():
    """A file whose rows differ from the other's only in the destination
    folio order: no cell pairs up, and the labels say why."""
    f = variant("dst.json", lambda r: [x.update(dst_folio_order=x["folio_order"] + 1)
                                       for x in r["rows"]])
    both = [c for c in jrun(RD, f)["comparisons"] if c.get("status") == "ok"]
    assert not both, both[:1]
    rc, out, err = run(RD, f)
    assert "dst_order=" in out, out
    ok = [c for c in jrun(f, f)["comparisons"] if c.get("status") == "ok"]
    assert ok and all(c["key"]["dst_folio_order"] == c["key"]["folio_order"] + 1
                      for c in ok)
check("rows of another destination folio order are other cells, labelled dst_order=", dst_order_cells)

def cpufreq_warning():
    b = variant("b.json", lambda r: [c["tool"]["system"]["cpufreq"].update(governor="powersave")
                                     for c in r["cells"] if c.get("tool")])
    rc, out, err = run(RD, b)
    assert rc == 0 and "# warning: the CPU frequency state differs: governor performance, " \
        "now 2000 MHz, max 3000 MHz; boost off in A, governor powersave" in out, out[:600]
    rc, out, err = run(RD, RD)
    assert "CPU frequency" not in out
check("a warning when the two files' CPU frequency states differ", cpufreq_warning)

def figures():
    d = jrun("--figures", "prep_calls,wait_ms", A, B)
    assert d["figures"] == ["prep_calls", "wait_ms"]
    c = find("prep_calls", "prep_memcpy", 4, d)
    assert c["status"] == "ok" and c["delta_pct"] == 0.0 and c["p"] == 1.0
check("--figures: chosen figures only; counts compare exactly (SD 0)", figures)

def errors():
    # the arguments, the exit status, what stderr says (a regular expression)
    for args, want, said in (((A,), 2, "two results files"),
                             ((A, os.path.join(FIX, "fake_tool.py")), 1, r"^compare\.py:"),
                             ((A, os.path.join(FIX, "results-map.json")), 1, "map sweep"),
                             (("--alpha", "2", A, B), 2, "--alpha must be between 0 and 1")):
        rc, out, err = run(*args)
        assert rc == want and re.search(said, err), (args, rc, err)
check("errors: one file without --prep, not a results file, map vs dmaengine, bad alpha", errors)

def no_scipy():
    env = hide_scipy()
    rc, out, err = run(A, B, env=env)
    assert rc == 2 and out == "", (rc, out)
    assert len(err.splitlines()) == 1 and err.startswith("compare.py: ") and \
        "apt-get install python3-scipy" in err, err
    # no t-test to make: no SciPy needed
    rc, out, err = run("--help", env=env)
    assert rc == 0, err
    assert jrun("--figures", "prep_calls", A, B, env=env)["comparisons"]
    # the other scripts, and scripts/report, do without
    for script in ("sweep.py", "plot.py"):
        p = subprocess.run([os.path.join(TOP, "scripts", script), "--help"], env=env,
                           capture_output=True, text=True)
        assert p.returncode == 0 and p.stdout.startswith("usage:"), (script, p.stderr)
    p = subprocess.run(["python3", "-c", "import report.results, report.stats, "
                        "report.sysinfo"], cwd=os.path.join(TOP, "scripts"), env=env,
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
check("without SciPy: compare.py says to apt-get install python3-scipy, exit 2, only "
      "when a t-test is due; sweep.py, plot.py and scripts/report work", no_scipy)

def map_compare():
    m = os.path.join(FIX, "results-map.json")
    d = jrun(m, m)
    assert d["kind"] == "map" and d["figures"] == ["map_us", "unmap_us"]
    ok = [c for c in d["comparisons"] if c["status"] == "ok"]
    assert len(ok) == 60 and all(c["significant"] is not True for c in ok)
    assert all(c["delta_pct"] == 0.0 for c in ok)
check("map results against themselves: 60 comparisons, no difference", map_compare)
def migrate_files():
    a = os.path.join(FIX, "results-migrate.json")
    r = json.load(open(a))
    for row in r["rows"]:
        if row["prep_mode"] == "prep_memcpy_sg" and row["folio_order"] == 9:
            row["gbps"]["mean"] *= 2
    b = os.path.join(sys.argv[1], "migrate-b.json")
    json.dump(r, open(b, "w"))
    d = jrun(a, b)
    assert d["kind"] == "migrate" and d["figures"][0] == "gbps", d["figures"]
    c = [x for x in d["comparisons"] if x["figure"] == "gbps"
         and x["label"] == "prep_memcpy_sg chan=4 folio=2MB"][0]
    assert c["status"] == "ok" and abs(c["delta_pct"] - 100) < 1e-9 and c["better"], c
    same = [x for x in d["comparisons"] if x["figure"] == "gbps" and x["label"] == "cpu chan=4 folio=2MB"][0]
    assert same["delta_pct"] == 0 and not same["significant"], same
    assert not any(x["figure"] == "batch_ms" and x["label"].startswith("cpu ")
                   for x in d["comparisons"]), "the cpu row has no offload phases"
    rc, out, err = run("--prep", "--modes", "cpu,prep_memcpy", a)
    assert rc == 0 and "chan=4 folio=2MB" in out, out + err
check("migrate: two migrate sweeps compared row by row (GB/s doubled: +100%, better), "
      "--prep cpu against a prep mode", migrate_files)
done()
PY
tap_end
