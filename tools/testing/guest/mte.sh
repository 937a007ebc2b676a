# SPDX-License-Identifier: GPL-2.0-only
#
# mte: page migration of PROT_MTE memory on arm64 with the Memory Tagging
# Extension (machine arm64-virt-mte-73: QEMU's virt, mte=on, -cpu max),
# with the copy offload started on soft_dma: a DMA engine copies data, not
# allocation tags, so mm keeps tagged folios from the offload
# (arch_folio_offloadable()) and copies them with the CPU, tags and all,
# counting them in /sys/kernel/mm/migrate_copy_offload/folios_kept.
# move_pages_offload sets a tag on every 16-byte granule, moves the pages to
# node 1 and reads every tag back and every word through its tag, with
# synchronous tag checks: a lost tag fails the read.

MTE_CHECK=$PROJECT/bin/move_pages_offload
MTE_SYSFS=/sys/kernel/mm/migrate_copy_offload

# mte_run DESC ARGS...: move_pages_offload ARGS: ok, not ok, or, when the
# machine does not keep MTE tags as they were set (status 4: read back
# before any move), ok for the rest and a skip for the tags
mte_run() {
	_mr_desc=$1
	shift
	"$MTE_CHECK" "$@" > /tmp/mte.out 2>&1
	_mr_rc=$?
	case $_mr_rc in
	0) tap_ok "$_mr_desc; every tag intact, no tag fault" ;;
	4)
		tap_ok "$_mr_desc"
		tap_skip "$_mr_desc: the tags: this machine does not keep MTE tags as set, before any move (QEMU 7.2's virt under TCG here)"
		;;
	*)
		tap_not_ok "$_mr_desc; every tag intact, no tag fault"
		tap_diag < /tmp/mte.out
		;;
	esac
}

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
	check "mte: dma_migrate loads" load_module dma_migrate
	check "mte: soft_dma loads" sd_load
	_mte_k0=$(cat "$MTE_SYSFS/folios_kept")
	mte_run "mte: 64 PROT_MTE pages moved, the offload started: no folio offloaded, every word intact" \
		expect=mte prep=0 channels=2 pages=64
	_mte_k1=$(cat "$MTE_SYSFS/folios_kept")
	check "mte: ... folios_kept counts the tagged folios kept from the offload" \
		expect_value "folios_kept since" "$((_mte_k1 - _mte_k0))" -ge 64
	mte_run "mte: ... and without the offload" expect=mte pages=64 offload=0
	check "mte: untagged pages: every folio offloaded, data intact" \
		"$MTE_CHECK" prep=0 channels=2 pages=256
	check "mte: ... channels released" channels_released
	check "mte: soft_dma unloads" sd_unload
	check_klog_clean "mte"
}
