#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/mm-selftests.sh without a VM: its refusals (a machine other than
# the ZDMA board, an unknown argument, --table of a missing file) and its
# table of a guest's TAP stream (--table): each case's results without and
# with the offload, the folios the offload saw and copied, and the check's
# verdict, "ok" or "FAIL", whichever the TAP line says, in the order the
# cases ran; a case the offload never saw ("-").
. "$(dirname "$0")/lib.sh"

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
MS=$TOP/scripts/mm-selftests.sh

check_output "mm-selftests: -m x86 refused, naming the board it runs on" \
	'arm64-zcu102-73 only' sh -c "! '$MS' -m x86 2>&1"
check_output "mm-selftests: an unknown argument refused, naming it" \
	"unknown argument '--bogus'" sh -c "! '$MS' --bogus 2>&1"
check_output "mm-selftests: --table of a missing file refused" \
	'cannot read it' sh -c "! '$MS' --table '$T/none' 2>&1"

cat > "$T/tap.txt" <<'TAP'
# suite mmselftests (direct, 7.3.4-dmabench, scope full)
ok 1 - mmselftests: dma_migrate, the benchmark and xilinx-zynqmp-dma's channels
ok 2 - mmselftests: migration -t private_anon: the same result with the offload on xilinx-zynqmp-dma as without, its moves offloaded
# mmself migration private_anon pass pass folios=120 offloaded=118 fallback=0 declined=2 errors=0
ok 3 - mmselftests: ... channels released
not ok 4 - mmselftests: rmap -t shm: the same result with the offload on xilinx-zynqmp-dma as without, its moves offloaded
# mmself rmap shm pass fail 
ok 5 - mmselftests: ... channels released
1..5
TAP
"$MS" --table "$T/tap.txt" > "$T/table" 2> "$T/err"
check "mm-selftests: --table exits 0" [ $? = 0 ]
check_output "mm-selftests: the migration case's row: results, folios, offloaded, fallback, verdict" \
	'^migration\.private_anon +pass +pass +120 +118 +0 +ok$' cat "$T/table"
check_output "mm-selftests: the rmap case's row: the offload saw nothing, FAIL" \
	'^rmap\.shm +pass +fail +- +- +- +FAIL$' cat "$T/table"
check "mm-selftests: a header and one row a case, in the order they ran" \
	sh -c "[ \"\$(awk '{ print \$1 }' '$T/table' | tr '\n' ' ')\" = 'case migration.private_anon rmap.shm ' ]"
tap_end
