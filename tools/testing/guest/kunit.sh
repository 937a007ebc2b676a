# SPDX-License-Identifier: GPL-2.0-only
# The project's KUnit tests, on a kernel built with KUnit: loading a test
# module runs its suite; every test case must report ok in the suite's
# debugfs results, and there must be as many as the suite's plan says. A
# kernel or a build without them is a failure.
#
#   dma_map_benchmark_kunit   the statistics (kernel/dma/stat_kunit.c)
#   dmaengine_provider_kunit  the provider contract of memcpy_vec
#                             (kernel/drivers/dma/memcpy_contract_kunit.c),
#                             on soft_dma with a copy_align so that
#                             misalignment is tested
#   dmacopy_kunit             the dmacopy library over soft_dma
#                             (kernel/drivers/dma/dmacopy/dmacopy_kunit.c):
#                             a set, a batch of each form, an abandon, a
#                             deadline, an unbind of soft_dma.0
#
# (kunit_module, which loads one and checks its results, is in lib.sh: the
# hwdma suite runs the provider-contract tests on the boards' engines.)

suite_kunit() {
	check "kunit: the kernel has KUnit (/sys/kernel/debug/kunit)" \
		test -d /sys/kernel/debug/kunit
	kunit_module dma_map_benchmark_kunit dma_map_benchmark_stat 9 0
	check_klog_clean "kunit: statistics"

	# memcpy_vec's contract on soft_dma, copy_align 3 (8 bytes); on a
	# kernel without the API every case is skipped
	_allow=1
	have_memcpy_vec && _allow=0
	unload_module soft_dma
	check "kunit: soft_dma loads with copy_align=3" \
		load_module soft_dma channels=2 copy_align=3
	kunit_module dmaengine_provider_kunit dmaengine_provider_memcpy_vec 5 $_allow
	check "kunit: soft_dma unloads" unload_module soft_dma
	check_klog_clean "kunit: provider contract"

	# the dmacopy library over soft_dma; its unbind case logs the unbind
	check "kunit: soft_dma loads with channels=2" \
		load_module soft_dma channels=2
	check "kunit: dmacopy loads" load_module dmacopy
	kunit_module dmacopy_kunit dmacopy 6 0
	check "kunit: soft_dma unloads after dmacopy's tests" \
		unload_module soft_dma
	check_klog_clean "kunit"
}
