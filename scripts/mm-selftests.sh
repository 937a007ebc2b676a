#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The kernel's own mm selftests that move pages between nodes, every case
# of each, with page migration's copy offload on a board's engine and
# without it: tools/testing/selftests/mm/migration.c (six cases: private
# and shared anonymous pages, THPs and hugetlb pages, 20 s of moves each
# while threads read them) and rmap.c (five: a page of each kind, anon,
# shm, file and KSM, moved while 40 processes map it), as
# scripts/build-mm-selftests.sh cross-builds them, unchanged.
#
# It boots MACHINE's patched 7.3 kernel with numa=fake=2 and runs the
# guest suite tools/testing/guest/mmselftests.sh: each case alone,
# without the offload, then under migrate_hold with the offload started
# on the engine (memcpy_sg over its channels). A case passes when both
# runs give the same result and exit status and the second's moves went
# through the offload (folios offloaded, none fallen back, no error); in
# the hugetlb cases, the offload saw none of their folios, which the
# migration hook leaves to the CPU.
# The test command runs two of them (the hwmigrate suite of
# arm64-zdma-73.t); this runs them all, about 5 minutes of guest time.
#
# Prints the TAP stream as it comes, then a table: the case, its result
# without and with the offload (pass, fail, skip), the folios the offload
# saw and copied, and the check's verdict; writes DIR/tap.txt and
# DIR/results.csv. Exit status 0 when every check passed.
#
# usage: scripts/mm-selftests.sh [-m MACHINE] [-o DIR]
#        scripts/mm-selftests.sh --table TAP
#   -m MACHINE  arm64-zcu102-73 (ZDMA), the one board whose kernel has
#               the migration hook and whose selftests are cross-built
#   -o DIR      where the results go (default build/results/mm-selftests)
#   --table TAP the table of an earlier run's DIR/tap.txt
set -euo pipefail
. "$(dirname "$0")/lib.sh"
# shellcheck disable=SC2034 # lib.sh's say() prefixes its lines with it
SAY_AS=mm-selftests

machine=arm64-zcu102-73
out=$DMA_BENCH_BUILD/results/mm-selftests

# the guest's "# mmself NAME CASE WITHOUT WITH folios=N offloaded=N
# fallback=N declined=N errors=N" line of each case, then its check
mmself_table() {
	awk -v csv="$2" '
	function kv(s, k,   i, n, p, f) {
		n = split(s, p, " ")
		for (i = 1; i <= n; i++) {
			split(p[i], f, "=")
			if (f[1] == k)
				return f[2]
		}
		return "-"
	}
	/^# mmself / {
		name = $3 " " $4
		rest = $0
		sub(/^# mmself [^ ]+ [^ ]+ [^ ]+ [^ ]+ ?/, "", rest)
		row[++n] = name
		without[name] = $5
		with_[name] = $6
		folios[name] = kv(rest, "folios")
		off[name] = kv(rest, "offloaded")
		fb[name] = kv(rest, "fallback")
		next
	}
	/^(not )?ok [0-9]+ (- )?mmselftests: (migration|rmap) -t / {
		s = $0
		sub(/^.*mmselftests: /, "", s)
		split(s, w, " ")
		sub(/:$/, "", w[3])
		verdict[w[1] " " w[3]] = ($1 == "ok") ? "ok" : "FAIL"
	}
	END {
		printf "%-30s %-8s %-8s %8s %10s %8s  %s\n", "case", "without", "with", "folios", "offloaded", "fallback", "check"
		print "selftest,case,without,with,folios,offloaded,fallback,check" > csv
		for (i = 1; i <= n; i++) {
			r = row[i]
			split(r, nc, " ")
			printf "%-30s %-8s %-8s %8s %10s %8s  %s\n", nc[1] "." nc[2], without[r], with_[r], folios[r], off[r], fb[r], (r in verdict) ? verdict[r] : "-"
			printf "%s,%s,%s,%s,%s,%s,%s,%s\n", nc[1], nc[2], without[r], with_[r], folios[r], off[r], fb[r], (r in verdict) ? verdict[r] : "" > csv
		}
	}' "$1"
}

usage() {
	sed -n '28,33p' "$0" | sed 's/^# \{0,1\}//'
	exit "${1:-2}"
}

while [ $# -gt 0 ]; do
	case $1 in
	-m) [ $# -ge 2 ] || die "-m needs a machine"; machine=$2; shift 2 ;;
	-o) [ $# -ge 2 ] || die "-o needs a directory"; out=$2; shift 2 ;;
	--table)
		[ $# -ge 2 ] || die "--table needs a TAP file"
		[ -r "$2" ] || die "--table $2: cannot read it"
		mmself_table "$2" /dev/null
		exit 0 ;;
	-h|--help) usage 0 ;;
	*) die "unknown argument '$1' (usage: scripts/mm-selftests.sh [-m MACHINE] [-o DIR] | --table TAP)" ;;
	esac
done
case $machine in
arm64-zcu102-73) ;;
*) die "-m $machine: the selftests run on arm64-zcu102-73 only (the patched 7.3 arm64 kernel with the migration hook and ZDMA; scripts/build-mm-selftests.sh cross-builds them for arm64)" ;;
esac

mkdir -p "$out"
say "the arm64 kernel (built the first time: about 6 minutes on 2 idle cores)"
kdir=$("$DMA_BENCH_TOP/scripts/kernel/build-debug-kernel.sh" --arch arm64 | tail -n 1)
say "the mm selftests migration and rmap, cross-built"
sel=$("$DMA_BENCH_TOP/scripts/build-mm-selftests.sh" "$kdir" | tail -n 1)
for t in migration rmap; do
	[ -x "$sel/$t" ] || die "scripts/build-mm-selftests.sh built no $t in '$sel'"
done
append=numa=fake=2

say "booting $machine with $append: each case without the offload, then with it"
set +e
VM_EXTRA_APPEND=$append VM_FILES="$sel/migration $sel/rmap" VM_TIMEOUT=1800 \
	"$DMA_BENCH_TOP/tools/testing/vm/vm-suite.sh" "$machine" direct mmselftests |
	tee "$out/tap.txt"
rc=${PIPESTATUS[0]}
set -e

mmself_table "$out/tap.txt" "$out/results.csv"
say "TAP in $out/tap.txt, the table in $out/results.csv"
[ "$rc" = 0 ] || die "some checks failed (exit $rc): see $out/tap.txt"
