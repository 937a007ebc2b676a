#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/compare.py and its statistics (scripts/report/stats.py): the t
# distribution against printed quantile tables, an independent numerical
# integration and R's Welch test of the sleep data; then compare.py on two
# crafted results files (fixtures/compare-a.json, compare-b.json) whose
# t-test outcomes are known: the deltas, the significance flags ("~"
# within noise), the alpha option, too few runs, failed and one-sided
# cells, geometric means, --prep inside one file, --json, and errors; the
# crafted files are format 1 (before the cpu mode, depth and buffers), read
# as depth 1 with reused buffers; --prep --modes with the cpu mode on the
# format 2 fixtures/results-dmaengine.json, and the two batch forms
# (prep_memcpy_sg against prep_memcpy_vec, convert_ms memcpy_vec's alone).
. "$(dirname "$0")/lib.sh"

need python3
run_py_tests "$TOP" <<'PY'
import json, math, os, subprocess, sys
from pytap import check, close, done
top = sys.argv[1]
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(top, "scripts"))
from report import stats

FIX = os.path.join(top, "tools/testing/host/fixtures")
A = os.path.join(FIX, "compare-a.json")
B = os.path.join(FIX, "compare-b.json")
COMPARE = os.path.join(top, "scripts/compare.py")


# --- the t distribution ------------------------------------------------
# two-sided p of printed quantiles t(1 - p/2, df)
TABLE = [(12.7062, 1, 0.05), (4.3027, 2, 0.05), (2.5706, 5, 0.05),
         (2.2281, 10, 0.05), (3.1693, 10, 0.01), (2.0244, 38, 0.05),
         (2.8453, 20, 0.01), (2.0150, 5, 0.10), (63.657, 1, 0.01),
         (1.9600, math.inf, 0.05), (3.2905, math.inf, 0.001)]
def table():
    for t, df, p in TABLE:
        close(stats.t_sf_two_sided(t, df), p, p * 1e-3 + 2e-5)
check("t distribution: two-sided p of 11 printed quantiles (df 1..inf)", table)

def simpson_sf(t, df, n=2000):
    # P(|T| >= t) = 1 - 2 * integral_0^t pdf, pdf of Student's t
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    f = lambda x: c * (1 + x * x / df) ** (-(df + 1) / 2)
    h = t / n
    s = f(0) + f(t) + sum((4 if i % 2 else 2) * f(i * h) for i in range(1, n))
    return 1 - 2 * s * h / 3

def integration():
    for t, df in [(0.5, 3), (1.5, 2.5), (2.2, 7.3), (1.0, 17.776), (3.0, 40), (0.1, 1.2)]:
        close(stats.t_sf_two_sided(t, df), simpson_sf(t, df), 1e-7)
check("t distribution: agrees with numerical integration, non-integer df too", integration)

def symmetry():
    assert stats.t_sf_two_sided(0, 5) == 1.0
    close(stats.t_cdf(1.3, 9) + stats.t_cdf(-1.3, 9), 1.0, 1e-12)
    close(stats.t_cdf(2.2281, 10), 0.975, 2e-5)
    assert stats.t_sf_two_sided(math.inf, 3) == 0.0
check("t distribution: cdf symmetric, cdf(t 0.975 quantile) = 0.975, edges", symmetry)

def betainc():
    close(stats.betainc(2, 3, 0.4), 0.5248, 1e-12)   # 1 - sum binomial: exact 0.5248
    close(stats.betainc(1, 1, 0.3), 0.3, 1e-12)
    close(stats.betainc(0.5, 0.5, 0.5), 0.5, 1e-12)
    assert stats.betainc(3, 2, 0) == 0 and stats.betainc(3, 2, 1) == 1
check("incomplete beta: exact values I_0.4(2,3), I_x(1,1), I_0.5(.5,.5), ends", betainc)

SLEEP1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
SLEEP2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]
def sleep():
    m1, s1 = stats.mean_sd(SLEEP1)
    m2, s2 = stats.mean_sd(SLEEP2)
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
    assert stats.welch(1, 1, 1, 2, 1, 20) is None
    assert stats.welch(5, 0, 20, 5, 0, 20)["p"] == 1.0
    assert stats.welch(5, 0, 20, 6, 0, 20)["p"] == 0.0
check("Welch: t, Welch-Satterthwaite df, n < 2 untestable, zero variance", welch_cases)

def helpers():
    assert stats.pct_change(10, 12) == 20.0 and stats.pct_change(0, 0) == 0.0
    assert stats.pct_change(0, 1) is None
    close(stats.geomean([1, 4, 16]), 4.0, 1e-12)
    assert stats.geomean([1, 0]) is None
    m, s = stats.mean_sd([2, 4, 4, 4, 5, 5, 7, 9]); close(s, 2.13809, 1e-5)
check("percent change, geometric mean, sample SD", helpers)

# --- compare.py on the fixtures ------------------------------------------
def run(*args):
    p = subprocess.run([sys.executable, COMPARE] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr

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
    close(c4["p"], stats.t_sf_two_sided(0.6 / math.sqrt(0.1), 38), 1e-12)
    close(c8["delta_pct"], 7.0, 1e-9)
check("either side of alpha: +6% p 0.065 '~', +7% p 0.033 significant", boundary)

def sleep_cell():
    c = find("run_ms", "prep_memcpy", 16)
    close(c["p"], 0.07939, 1e-5); assert c["significant"] is False
    rc2, out2, _ = run("--json", "--alpha", "0.1", A, B)
    d2 = json.loads(out2)
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
    rc, out, err = run("--prep", "--json", A)
    assert rc == 0, err
    d = json.loads(out)
    assert d["mode"] == "prep"
    c = [x for x in d["comparisons"] if x["figure"] == "run_ms" and x["key"]["channels"] == 8][0]
    close(c["delta_pct"], -50.0, 1e-9); assert c["significant"] is True and c["better"] is True
    c = [x for x in d["comparisons"] if x["figure"] == "run_ms" and x["key"]["channels"] == 2][0]
    close(c["delta_pct"], -10.0, 1e-9); close(c["p"], stats.t_sf_two_sided(1 / math.sqrt(0.1), 38), 1e-12)
    assert [x["status"] for x in d["comparisons"]
            if x["figure"] == "run_ms" and x["key"]["channels"] == 16] == ["only_a"]
    rc, out, err = run("--prep", A)
    assert "prep_memcpy" in out and "prep_memcpy_sg" in out and "chan=8 folio=4KB sge=512" in out
check("--prep: prep_memcpy_sg against prep_memcpy in one file (-50%, better)", prep)

def cpu_modes():
    r = os.path.join(FIX, "results-dmaengine.json")
    rc, out, err = run("--prep", "--modes", "cpu,prep_memcpy_sg", "--json", r)
    assert rc == 0, err
    d = json.loads(out)
    assert d["a"]["short"] == "cpu" and d["b"]["short"] == "prep_memcpy_sg"
    assert d["figures"] == ["run_ms", "prep_ms", "submit_ms", "issue_ms", "wait_ms",
                            "map_ms", "unmap_ms", "gbps", "copy_ms"], d["figures"]
    figs = {c["figure"] for c in d["comparisons"]}
    # a phase one side lacks (the CPU copy's prep_ms, the offload's copy_ms)
    assert figs == {"run_ms", "gbps"}, figs
    c = [x for x in d["comparisons"] if x["figure"] == "gbps" and x["key"]["channels"] == 4
         and x["key"]["folio_order"] == 0][0]
    assert c["key"] == {"channels": 4, "folio_order": 0, "sge": 512, "depth": 1,
                        "buffers": "distinct", "dst_folio_order": 0}, c["key"]
    close(c["delta_pct"], -20.0, 1e-9)     # fake_tool: the CPU 1 GB/s faster
    rc, out, err = run(r, r)
    assert rc == 0 and "copy_ms" in out and "cpu chan=4 folio=4KB sge=512 depth=1 distinct" in out
    rc, out, err = run("--prep", "--modes", "cpu,gpu", r)
    assert rc == 2 and "--modes needs two different prep modes" in err
check("--prep --modes cpu,prep_memcpy_sg: the offload against the CPU copy, only the figures both have", cpu_modes)

def vec_file():
    """results-dmaengine.json with a prep_memcpy_vec row beside each
    prep_memcpy_sg row: 10% faster, and a conversion time."""
    import tempfile
    r = json.load(open(os.path.join(FIX, "results-dmaengine.json")))
    vec = []
    for x in r["rows"]:
        if x["prep_mode"] == "prep_memcpy_sg":
            v = dict(x, prep_mode="prep_memcpy_vec")
            if x["status"] == "ok":
                v["run_ms"] = {"mean": x["run_ms"]["mean"] * 0.9, "sd": x["run_ms"]["sd"]}
                v["convert_ms"] = {"mean": 0.25, "sd": 0.01}
            vec.append(v)
    r["rows"] += vec
    f = os.path.join(tempfile.mkdtemp(), "vec.json")
    json.dump(r, open(f, "w"))
    return f

def vec_modes():
    f = vec_file()
    rc, out, err = run("--prep", "--modes", "prep_memcpy_sg,prep_memcpy_vec", "--json", f)
    assert rc == 0, err
    d = json.loads(out)
    assert d["a"]["short"] == "prep_memcpy_sg" and d["b"]["short"] == "prep_memcpy_vec"
    assert d["figures"][-2:] == ["copy_ms", "convert_ms"], d["figures"]
    figs = {c["figure"] for c in d["comparisons"]}
    # the DMA phases both have; convert_ms (memcpy_vec's) and copy_ms not
    assert figs == {"run_ms", "prep_ms", "submit_ms", "issue_ms", "wait_ms", "map_ms",
                    "unmap_ms", "gbps"}, figs
    c = [x for x in d["comparisons"] if x["figure"] == "run_ms" and x["status"] == "ok"][0]
    close(c["delta_pct"], -10.0, 1e-9)
    assert c["better"] is True
    # the default stays memcpy against memcpy_sg
    rc, out, err = run("--prep", "--json", f)
    d = json.loads(out)
    assert d["a"]["short"] == "prep_memcpy" and d["b"]["short"] == "prep_memcpy_sg"
    # before/after files with memcpy_vec rows: convert_ms compared for them
    rc, out, err = run("--json", f, f)
    d = json.loads(out)
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
    import tempfile
    r = json.load(open(os.path.join(FIX, "results-dmaengine.json")))
    for x in r["rows"]:
        x["dst_folio_order"] = x["folio_order"] + 1
    f = os.path.join(tempfile.mkdtemp(), "dst.json")
    json.dump(r, open(f, "w"))
    plain = os.path.join(FIX, "results-dmaengine.json")
    rc, out, err = run("--json", plain, f)
    assert rc == 0, err
    d = json.loads(out)
    both = [c for c in d["comparisons"] if c.get("status") == "ok"]
    assert not both, both[:1]
    rc, out, err = run(plain, f)
    assert "dst_order=" in out, out
    rc, out, err = run("--json", f, f)
    d = json.loads(out)
    ok = [c for c in d["comparisons"] if c.get("status") == "ok"]
    assert ok and all(c["key"]["dst_folio_order"] == c["key"]["folio_order"] + 1
                      for c in ok)
check("rows of another destination folio order are other cells, labelled dst_order=", dst_order_cells)

def cpufreq_warning():
    import tempfile
    r = json.load(open(os.path.join(FIX, "results-dmaengine.json")))
    d = tempfile.mkdtemp()
    a = os.path.join(d, "a.json")
    json.dump(r, open(a, "w"))
    for c in r["cells"]:
        if c.get("tool"):
            c["tool"]["system"]["cpufreq"]["governor"] = "powersave"
    b = os.path.join(d, "b.json")
    json.dump(r, open(b, "w"))
    rc, out, err = run(a, b)
    assert rc == 0 and "# warning: the CPU frequency state differs: governor performance, " \
        "now 2000 MHz, max 3000 MHz; boost off in A, governor powersave" in out, out[:600]
    rc, out, err = run(a, a)
    assert "CPU frequency" not in out
check("a warning when the two files' CPU frequency states differ", cpufreq_warning)

def figures():
    rc, out, err = run("--json", "--figures", "prep_calls,wait_ms", A, B)
    d = json.loads(out)
    assert d["figures"] == ["prep_calls", "wait_ms"]
    c = find("prep_calls", "prep_memcpy", 4, d)
    assert c["status"] == "ok" and c["delta_pct"] == 0.0 and c["p"] == 1.0
check("--figures: chosen figures only; counts compare exactly (SD 0)", figures)

def errors():
    rc, out, err = run(A)
    assert rc == 2 and "two results files" in err
    rc, out, err = run(A, os.path.join(FIX, "fake_tool.py"))
    assert rc == 1 and err.startswith("compare.py:"), err
    rc, out, err = run(A, os.path.join(FIX, "results-map.json"))
    assert rc == 1 and "map sweep" in err, err
    rc, out, err = run("--alpha", "2", A, B)
    assert rc == 2
check("errors: one file without --prep, not a results file, map vs dmaengine, bad alpha", errors)

def map_compare():
    m = os.path.join(FIX, "results-map.json")
    rc, out, err = run("--json", m, m)
    d = json.loads(out)
    assert rc == 0 and d["kind"] == "map" and d["figures"] == ["map_us", "unmap_us"]
    ok = [c for c in d["comparisons"] if c["status"] == "ok"]
    assert len(ok) == 60 and all(c["significant"] is not True for c in ok)
    assert all(c["delta_pct"] == 0.0 for c in ok)
check("map results against themselves: 60 comparisons, no difference", map_compare)
done()
PY
tap_end
