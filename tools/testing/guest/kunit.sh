# SPDX-License-Identifier: GPL-2.0-only
# The module's KUnit tests (kernel/dma/stat_kunit.c), on a kernel built with
# KUnit: loading dma_map_benchmark_kunit runs them; every test case must
# report ok in the suite's debugfs results, and there must be as many as
# the suite's plan says. A kernel or a build without them is a failure.

KUNIT_SUITE=dma_map_benchmark_stat
KUNIT_RESULTS=/sys/kernel/debug/kunit/$KUNIT_SUITE/results
# the test cases of stat_kunit.c: fewer results means some did not run
KUNIT_CASES=9

suite_kunit() {
	check "kunit: the kernel has KUnit (/sys/kernel/debug/kunit)" \
		test -d /sys/kernel/debug/kunit
	check "kunit: dma_map_benchmark_kunit.ko was built for this kernel" \
		test -f "$MODDIR/dma_map_benchmark_kunit.ko"
	unload_module dma_map_benchmark_kunit
	check "kunit: loading dma_map_benchmark_kunit runs its tests" \
		insmod "$MODDIR/dma_map_benchmark_kunit.ko"
	if ! cat "$KUNIT_RESULTS" > /tmp/kunit.out 2>&1; then
		tap_not_ok "kunit: $KUNIT_RESULTS exists"
		return
	fi
	# the cases, indented one level under the suite's own result line
	_pass=$(grep -cE '^[[:space:]]+ok [0-9]+ ' /tmp/kunit.out)
	_fail=$(grep -cE '^[[:space:]]+not ok [0-9]+ ' /tmp/kunit.out)
	grep -E '^[[:space:]]+(not )?ok [0-9]+ ' /tmp/kunit.out |
	while read -r _l; do
		case $_l in
		ok*) echo "# kunit: $_l" ;;
		*) echo "# kunit: FAILED: $_l" ;;
		esac
	done
	# what the tests measured (kunit_info), as TAP comments
	grep -E '^[[:space:]]+# .*: ' /tmp/kunit.out | sed 's/^[[:space:]]*/# kunit: /'
	check_output "kunit: the suite plans $KUNIT_CASES test cases" \
		"^[[:space:]]+1\\.\\.$KUNIT_CASES\$" cat /tmp/kunit.out
	if [ "$_pass" = "$KUNIT_CASES" ] && [ "$_fail" = 0 ]; then
		tap_ok "kunit: all $KUNIT_CASES test cases of $KUNIT_SUITE passed"
	else
		tap_not_ok "kunit: all $KUNIT_CASES test cases of $KUNIT_SUITE passed ($_pass passed, $_fail failed)"
		tap_diag /tmp/kunit.out
	fi
	check_output "kunit: the suite's own result is ok" \
		"^ok [0-9]+ $KUNIT_SUITE\$" cat /tmp/kunit.out
	unload_module dma_map_benchmark_kunit
	check_klog_clean "kunit"
}
