# SPDX-License-Identifier: GPL-2.0-only
# mmselftests: the kernel's own mm selftests that move pages, every case
# of each, with page migration's copy offload started on the board's
# engine and without it (hwmigrate.sh's hwmig_selftest: the same result
# a case, the same exit status, the moves offloaded, none fallen back; the
# hugetlb cases' folios left to the CPU, which the hook never offloads):
# migration's six cases (private and shared anonymous pages, THPs and
# hugetlb pages, 20 s of moves each while threads read them; four
# hugetlb pages reserved for the last two, two a node) and rmap's five
# (a page of each kind, anon, shm, file and KSM, moved while 40
# processes map it). Each case runs alone, so that its result is its
# own. Too long for the test command (about 5 minutes of guest time on
# the ZCU102): scripts/mm-selftests.sh boots the board for it; the
# hwmigrate suite runs migration's THP case and rmap.
# shellcheck source=hwmigrate.sh
. ./hwmigrate.sh

MMSELF_MIGRATION="private_anon shared_anon private_anon_thp shared_anon_thp private_anon_htlb shared_anon_htlb"
MMSELF_RMAP="anon shm file ksm ksm_and_mremap"

# mmself_hugepages N: N default-size hugetlb pages, all of them there
mmself_hugepages() {
	echo "$1" > /proc/sys/vm/nr_hugepages || return 1
	_mh_n=$(cat /proc/sys/vm/nr_hugepages)
	[ "$_mh_n" = "$1" ] || { echo "nr_hugepages: $_mh_n of $1"; return 1; }
}

# mmself_result FILE: the harness's verdict in FILE, pass, fail or skip
mmself_result() {
	awk '/^not ok [0-9]+ / { r = "fail" }
	     /^ok [0-9]+ / { r = ($0 ~ /# SKIP/) ? "skip" : "pass" }
	     END { print r ? r : "none" }' "$1" 2>/dev/null || echo none
}

# mmself_row NAME CASE: hwmig_selftest's two runs of NAME's CASE as a
# comment line for scripts/mm-selftests.sh's table: "# mmself NAME CASE
# WITHOUT WITH folios=N offloaded=N fallback=N declined=N errors=N"
mmself_row() {
	echo "# mmself $1 $2 $(mmself_result "/tmp/$1.off") $(mmself_result "/tmp/$1.on") $(sed -n 's/^offload: //p' "/tmp/$1.on" 2>/dev/null)"
}

suite_mmselftests() {
	hwmig_ready mmselftests || return
	check "mmselftests: dma_migrate, the benchmark and $HWDMA_DRIVER's channels" migrate_load hw
	_ms_hp=$(cat /proc/sys/vm/nr_hugepages)
	check "mmselftests: 4 hugetlb pages reserved for migration's htlb cases" \
		mmself_hugepages 4
	for _ms_c in $MMSELF_MIGRATION; do
		case $_ms_c in
		*_htlb)
			check "mmselftests: migration -t $_ms_c: the same result with the offload on $HWDMA_DRIVER as without, its hugetlb folios left to the CPU (the hook never hands them over)" \
				hwmig_selftest --cpu migration -t "$_ms_c" ;;
		*)
			check "mmselftests: migration -t $_ms_c: the same result with the offload on $HWDMA_DRIVER as without, its moves offloaded" \
				hwmig_selftest migration -t "$_ms_c" ;;
		esac
		mmself_row migration "$_ms_c"
		check "mmselftests: ... channels released" hwmig_released
	done
	check "mmselftests: the hugetlb pages given back" mmself_hugepages "$_ms_hp"
	for _ms_c in $MMSELF_RMAP; do
		check "mmselftests: rmap -t $_ms_c: the same result with the offload on $HWDMA_DRIVER as without, its moves offloaded" \
			hwmig_selftest rmap -t "$_ms_c"
		mmself_row rmap "$_ms_c"
		check "mmselftests: ... channels released" hwmig_released
	done
	check "mmselftests: the benchmark unloads" unload_module dma_map_benchmark
	check_klog_clean "mmselftests"
}
