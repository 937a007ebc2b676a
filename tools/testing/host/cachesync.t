#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/bench-cachesync.sh's host side on made-up input, since the
# script itself needs two kernels and VMs: its refusals, which come before
# anything is built (an x86 machine: coherent, and no markers; a machine
# without the project's arm64 kernel; a bad option); the report
# (scripts/report/cachesync.py) of made-up guest and counter lines, the
# counter's output format as dcount.t's run of the real plugin gives it:
# per call and per entry, the ratio, the idle baseline and the empty
# windows, JSON and CSV; a dump of an earlier boot left out; a missing
# dump and a call without windows refused.
. "$(dirname "$0")/lib.sh"

check_output "an x86 machine is refused: coherent, nothing to count" \
	'its DMA is cache-coherent .* nothing would be counted' \
	sh -c "! '$TOP/scripts/bench-cachesync.sh' -m x86 2>&1"
check_output "a machine without the project's arm64 kernel is refused" \
	'boots a debian-foreign kernel' \
	sh -c "! '$TOP/scripts/bench-cachesync.sh' -m arm64-zcu102 2>&1"
check_output "a bad direction is refused" '-d: no direction sideways' \
	sh -c "! '$TOP/scripts/bench-cachesync.sh' -d sideways 2>&1"
check_output "bench.sh -C hands its arguments to bench-cachesync.sh" \
	'-i 0: a positive number of iterations' \
	sh -c "! '$TOP/scripts/bench.sh' -C -i 0 2>&1"

# tools/testing/vm/dcount-tap.py, arm64-zdma-73.t's host checks, on a
# made-up stream and counter output: 7.3's counts pass, one call with 3
# dsb fails, and so does a dump the output lacks
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
{
	echo "dcount 0 start vectors 0xffff800080010800"
	for s in 2 3; do
		for c in map unmap sync_cpu sync_device; do
			echo "dcount $s window $c windows 10 interrupted 0 excluded 0"
			case $s-$c in
			*-map|*-sync_device) echo "dcount $s count $c dc_cvac 40960 4096 4096" ;;
			3-*) echo "dcount $s count $c dc_ivac 40960 4096 4096" ;;
			esac
			echo "dcount $s count $c dsb_sy 10 1 1"
		done
		echo "dcount $s window empty windows 10 interrupted 0 excluded 0"
		echo "dcount $s switches 20 20"
		echo "dcount $s end"
	done
} > "$T/dc"
printf 'ok 1 - x\n# cachecount DUMP 2 to_device\n# cachecount DUMP 3 from_device\n1..1\n' > "$T/tap"
check_output "dcount-tap.py: 7.3's counts pass, the plan counting its checks" '^# 32 passed, 0 failed, 0 skipped$' \
	sh -c "python3 '$TOP/tools/testing/vm/dcount-tap.py' '$T/dc' after < '$T/tap'"
sed 's/^dcount 3 count sync_cpu dsb_sy 10 1 1$/dcount 3 count sync_cpu dsb_sy 30 3 3/' "$T/dc" > "$T/dc3"
check_output "dcount-tap.py: 3 dsb in a call fails the after kernel's check" \
	'^not ok [0-9]+ - cachecount \(host\): from_device: sync_cpu: at most 2 dsb' \
	sh -c "! python3 '$TOP/tools/testing/vm/dcount-tap.py' '$T/dc3' after < '$T/tap'"
check_output "dcount-tap.py: the before kernel's check wants a dsb sy an entry" \
	'^not ok [0-9]+ - cachecount \(host\) \[before kernel\]: to_device: map: a dsb sy an entry' \
	sh -c "! python3 '$TOP/tools/testing/vm/dcount-tap.py' '$T/dc' before < '$T/tap'"
sed 's/^dcount 2 switches 20 20$/dcount 2 switches 20 19/' "$T/dc" > "$T/dc4"
check_output "dcount-tap.py: a task switch the counter did not follow fails" \
	'^not ok [0-9]+ - cachecount \(host\): to_device: the counter followed every task switch' \
	sh -c "! python3 '$TOP/tools/testing/vm/dcount-tap.py' '$T/dc4' after < '$T/tap'"
grep -v '^dcount 3 ' "$T/dc" > "$T/dc2"
check_output "dcount-tap.py: a dump the output lacks fails" \
	"^not ok [0-9]+ - cachecount \(host\): from_device: the guest's dump is in the output" \
	sh -c "! python3 '$TOP/tools/testing/vm/dcount-tap.py' '$T/dc2' after < '$T/tap'"

# two boots in one .t (arm64-zdma-73.t): the second call numbers on from
# the first's state and prints the one plan; or skips the before kernel
rm -f "$T/state"
two_boots() {
	python3 "$TOP/tools/testing/vm/dcount-tap.py" --state "$T/state" --no-plan "$T/dc" after < "$T/tap" > "$T/two" &&
		sed 's/^dcount \([23]\) count \(.*\) dsb_sy 10 1 1$/dcount \1 count \2 dsb_sy 640 64 64/' "$T/dc" > "$T/dcb" &&
		python3 "$TOP/tools/testing/vm/dcount-tap.py" --state "$T/state" "$T/dcb" before < "$T/tap" >> "$T/two" ||
		{ cat "$T/two"; return 1; }
	# the second stream's "ok 1" is 33, our checks follow; one plan, last
	grep -qx 'ok 33 - x' "$T/two" &&
		grep -qx 'ok 34 - cachecount (host) \[before kernel\]: the counter wrote its output' "$T/two" &&
		[ "$(grep -c '^1\.\.' "$T/two")" = 1 ] &&
		[ "$(tail -n 2 "$T/two" | paste -sd '|')" = '1..62|# 62 passed, 0 failed, 0 skipped' ] &&
		[ "$(grep -cE '^(not )?ok ' "$T/two")" = 62 ] || { cat "$T/two"; return 1; }
}
check "dcount-tap.py: a second boot's tests numbered after the first's, one plan" two_boots
rm -f "$T/state"
skip_before() {
	python3 "$TOP/tools/testing/vm/dcount-tap.py" --state "$T/state" --no-plan "$T/dc" after < "$T/tap" > /dev/null &&
		python3 "$TOP/tools/testing/vm/dcount-tap.py" --state "$T/state" --skip "no before kernel" < /dev/null
}
check_output "dcount-tap.py --skip: one skipped test after the first boot's, and the plan" \
	'^ok 33 - cachecount \(host\) # SKIP no before kernel$' \
	sh -c "$(declare -f skip_before); T='$T' TOP='$TOP' skip_before"

# lib.sh's nobatch_kernel_dir finds the directory nobatch-kernel.sh makes
# (same hash) without building: a made-up complete base and derived dir,
# which nobatch-kernel.sh then reuses, printing the same path
mkdir -p "$T/k/base/build" "$T/k/base/src"
for f in stamp Image build/Module.symvers build/System.map src/Makefile; do : > "$T/k/base/$f"; done
echo 7.3.4-dmabench > "$T/k/base/release"
echo CONFIG_ARCH_HAS_BATCHED_DMA_SYNC=y > "$T/k/base/build/.config"
nobatch_dir() { (. "$TOP/scripts/lib.sh" && nobatch_kernel_dir "$1"); }
check_fails "nobatch_kernel_dir: a derived kernel not built yet is said so (status 1)" \
	nobatch_dir "$T/k/base"
d=$(nobatch_dir "$T/k/base" || true)
mkdir -p "$d/build" "$d/modules/lib/modules"
: > "$d/stamp"; : > "$d/Image"; : > "$d/build/Module.symvers"; echo 7.3.4-dmabench > "$d/release"
check "nobatch_kernel_dir: the complete derived kernel is found (status 0)" nobatch_dir "$T/k/base"
same_dir() {
	local got
	got=$(timeout 60 "$TOP/scripts/kernel/nobatch-kernel.sh" "$T/k/base" 2>&1 | tail -n 1)
	[ "$got" = "$d" ] || { echo "nobatch-kernel.sh: $got"; echo "nobatch_kernel_dir: $d"; return 1; }
}
check "nobatch_kernel_dir and nobatch-kernel.sh name the same directory" same_dir

out_dir
run_py_tests "$TEST_OUT_DIR" <<'PY'
import csv, json, os, sys
from pytap import check, done
from report import cachesync

TMP = sys.argv[1]
CELL = "sg:64:to_device:10"
CTRL = "single:1:to_device:10"


def boot(kind, config, dsb_map, with_stale=True, tracked=(12, 5)):
    """A boot's two files: 64 entries, 64 lines each (4 KiB / 64 B); the
    cells' dumps saw 12 and 5 task switches, and the counter followed
    TRACKED of them."""
    g = ["DUMP 1 boot", "KERNEL 7.3.4-dmabench #1", "CONFIG " + config,
         "COHERENT no", "DUMP 2 idle", "DUMP 3 " + CELL,
         "JSON %s %s" % (CELL, json.dumps({"results": {"ops": {
             "map": {"mean_ns": 5000}, "unmap": {"mean_ns": 4000},
             "sync_cpu": {"mean_ns": 3000}, "sync_device": {"mean_ns": 2000}}}})),
         "DUMP 4 " + CTRL,
         "JSON %s {}" % CTRL]
    d = []
    if with_stale:	# an earlier QEMU's lines: left out
        d += ["dcount 0 start vectors 0x0", "dcount 3 window map windows 1 interrupted 0 excluded 0",
              "dcount 3 count map dsb_sy 999 999 999", "dcount 3 end"]
    d += ["dcount 0 start vectors 0xffff800080010800", "dcount 1 outside isb 5", "dcount 1 end",
          "dcount 2 outside dsb_ish 7", "dcount 2 outside dmb_ish 3", "dcount 2 outside isb 2",
          "dcount 2 end"]
    for seq, n in ((3, 64), (4, 1)):
        lines = n * 64
        for call, ev in (("map", "dc_cvac"), ("unmap", None),
                         ("sync_cpu", None), ("sync_device", "dc_cvac")):
            d.append("dcount %d window %s windows 10 interrupted %d excluded %d"
                     % (seq, call, 1 if call == "map" else 0, 4 if call == "map" else 0))
            if ev:
                d.append("dcount %d count %s %s %d %d %d" % (seq, call, ev, 10 * lines, lines, lines))
            dsb = dsb_map(n)
            d.append("dcount %d count %s dsb_sy %d %d %d" % (seq, call, 10 * dsb, dsb, dsb))
        d.append("dcount %d window empty windows 10 interrupted 0 excluded 0" % seq)
        d.append("dcount %d switches %d %d" % (seq, 12 if n == 64 else 5,
                                               tracked[0] if n == 64 else tracked[1]))
        d.append("dcount %d end" % seq)
    d.append("dcount 5 end")
    with open(os.path.join(TMP, "%s-%s.log" % (kind, config)), "w") as fh:
        fh.write("\n".join(g) + "\n")
    with open(os.path.join(TMP, "%s-%s.dcount" % (kind, config)), "w") as fh:
        fh.write("\n".join(d) + "\n")


boot("before", "direct", lambda n: n)
boot("after", "direct", lambda n: 1, tracked=(12, 2))
rc = cachesync.main(["table", TMP, "--elapsed", "12"])
doc = json.load(open(os.path.join(TMP, "results.json")))
rows = {(r["api"], r["entries"]): r for r in doc["rows"]}


def t_rc():
    assert rc == 0, rc


def t_rows():
    assert set(rows) == {(a, n) for n, m in ((64, "sg"), (1, "single")) for a in
                         cachesync.API.values() if (m == "sg") == ("_sg" in a)}, sorted(rows)


def t_map():
    r = rows[("dma_map_sg", 64)]
    assert r["before"]["per_call"]["dc_cvac"] == 4096, r["before"]
    assert r["after"]["per_call"]["dc_cvac"] == 4096
    assert r["before"]["dsb_per_call"] == 64 and r["after"]["dsb_per_call"] == 1
    assert r["dsb_ratio"] == 64 and r["dc_ratio"] == 1 and r["dsb_sy_ratio"] == 64
    assert r["before"]["dc_per_entry"] == 64 and r["before"]["dsb_per_entry"] == 1
    assert r["before"]["min_max"]["dsb_sy"] == [64, 64]
    assert r["before"]["mean_ns"] == 5000 and r["before"]["interrupted"] == 1
    assert r["before"]["excluded"] == 4


def t_control():
    r = rows[("dma_map_page", 1)]
    assert r["before"]["dsb_per_call"] == 1 and r["after"]["dsb_per_call"] == 1
    assert r["dsb_ratio"] == 1 and r["before"]["mean_ns"] is None


def t_baselines():
    b = doc["baselines"]["before-direct"]
    assert b["idle_outside_per_second"] == {"dsb_ish": 7, "dmb_ish": 3, "isb": 2}, b
    assert b["empty_windows"] == {"windows": 20, "max": {}}, b


def t_switches():
    b = doc["baselines"]
    assert b["before-direct"]["task_switches_seen_tracked"] == [17, 17], b
    assert b["after-direct"]["task_switches_seen_tracked"] == [17, 14], b
    t = open(os.path.join(TMP, "table.txt")).read()
    assert "before direct  task switches during the cells: 17, every one followed" in t, t
    assert ("after  direct  TASK TRACKING FAILED: 3 of 17 task switches seen without "
            "the next task") in t, t


def t_text():
    t = open(os.path.join(TMP, "table.txt")).read()
    assert "EMULATED" in t
    line = [ln for ln in t.splitlines() if ln.startswith("direct  dma_map_sg ")][0]
    w = line.split()
    assert w[2:4] == ["to_dev", "64"], w
    assert w[4:8] == ["cvac", "4096", "cvac", "4096"], w
    assert w[8:14] == ["64", "1", "64.00", "1", "0.02", "0/0"], w
    assert "idle second, whole guest outside windows: dsb 7, dmb 3, isb 2, dc 0; empty windows: 20, at most nothing" in t
    assert "windows an exception interrupted: 4" in t, t
    assert "the command took 12 s" in t


def t_csv():
    rs = list(csv.DictReader(open(os.path.join(TMP, "results.csv"))))
    m = [r for r in rs if r["api"] == "dma_map_sg" and r["kernel"] == "before"
         and r["event"] == "dsb_total"]
    assert len(m) == 1 and m[0]["per_call"] == "64" and m[0]["per_entry"] == "1.0000", m


def t_missing_dump():
    boot("after", "direct", lambda n: 1)
    p = os.path.join(TMP, "after-direct.dcount")
    lines = [ln for ln in open(p) if not ln.startswith("dcount 4 ")]
    open(p, "w").writelines(lines)
    assert cachesync.main(["table", TMP]) == 1


def t_no_windows():
    boot("after", "direct", lambda n: 1)
    p = os.path.join(TMP, "after-direct.dcount")
    lines = [ln for ln in open(p) if " window unmap " not in ln]
    open(p, "w").writelines(lines)
    assert cachesync.main(["table", TMP]) == 1


check("the report of a made-up before and after exits 0", t_rc)
check("a row per call of each cell: dma_*_sg for sg, dma_*_page/single for the control", t_rows)
check("dma_map_sg: dc per call and per entry, dsb 64 -> 1, ratio 64, min/max, interrupted", t_map)
check("the control: dsb 1 -> 1", t_control)
check("the idle baseline and the empty windows", t_baselines)
check("the task switches the counter followed, and a failed tracking said", t_switches)
check("table.txt: the row, emulated times labelled, baselines, time", t_text)
check("results.csv: a line per event, per call and per entry", t_csv)
check("a missing dump is an error", t_missing_dump)
check("a call without windows is an error", t_no_windows)
done()
PY
tap_end
