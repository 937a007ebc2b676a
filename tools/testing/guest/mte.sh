# SPDX-License-Identifier: GPL-2.0-only
#
# mte: page migration of PROT_MTE memory on arm64 with the Memory Tagging
# Extension (machine arm64-virt-mte-73: QEMU's virt, mte=on, -cpu max),
# with the copy offload started on soft_dma: a DMA engine copies data, not
# allocation tags, so mm keeps tagged folios from the offload
# (arch_folio_offloadable()) and copies them with the CPU, tags and all,
# counting them in /sys/kernel/mm/migrate_copy_offload/folios_kept.
# migrate_check sets a tag on every 16-byte granule, moves the pages to
# node 1 and reads every tag back and every word through its tag, with
# synchronous tag checks: a lost tag fails the read.

MTE_CHECK=$PROJECT/bin/migrate_check
MTE_SYSFS=/sys/kernel/mm/migrate_copy_offload

suite_mte() {
	if ! grep -qw mte /proc/cpuinfo; then
		tap_not_ok "mte: the CPU has MTE (QEMU: -M virt,mte=on -cpu max)"
		return
	fi
	if [ ! -d /sys/devices/system/node/node1 ]; then
		tap_not_ok "mte: two NUMA nodes (numa=fake=2)"
		return
	fi
	if [ ! -r "$MTE_SYSFS/folios_kept" ]; then
		tap_not_ok "mte: $MTE_SYSFS/folios_kept (kernel/patches/v7.3-migrate)"
		return
	fi
	check "mte: benchmark loads" load_module dma_map_benchmark
	check "mte: soft_dma loads" sd_load
	_mte_k0=$(cat "$MTE_SYSFS/folios_kept")
	check "mte: 64 PROT_MTE pages moved, the offload started: every tag and word intact, no tag fault, no folio offloaded" \
		"$MTE_CHECK" expect=mte prep=0 channels=2 pages=64
	_mte_k1=$(cat "$MTE_SYSFS/folios_kept")
	check "mte: ... folios_kept counts the tagged folios kept from the offload" \
		expect_value "folios_kept since" "$((_mte_k1 - _mte_k0))" -ge 64
	check "mte: ... and without the offload" \
		"$MTE_CHECK" expect=mte pages=64 offload=0
	check "mte: untagged pages: every folio offloaded, data intact" \
		"$MTE_CHECK" prep=0 channels=2 pages=256
	check "mte: ... channels released" channels_released
	check "mte: soft_dma unloads" sd_unload
	check_klog_clean "mte"
}
