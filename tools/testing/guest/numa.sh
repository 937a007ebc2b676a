# SPDX-License-Identifier: GPL-2.0-only
# Folios between NUMA nodes, as page-migration offload copies them: source
# on node 0, destination on node 1, both prep modes, verified.

# The migration copy offload hook of kernel/patches/v7.3-migrate, which the
# project's x86_64 kernels carry (Documentation/migration.rst)
MIGRATE_OFFLOAD=/sys/kernel/mm/migrate_copy_offload

# migrate_offload_idle: the hook is there with no migrator registered, and
# its counters read as numbers
migrate_offload_idle() {
	[ -d "$MIGRATE_OFFLOAD" ] || { echo "no $MIGRATE_OFFLOAD"; return 1; }
	for _f in migrator reasons batches batches_declined batch_errors \
		folios_offloaded folios_fallback folios_declined; do
		_v=$(cat "$MIGRATE_OFFLOAD/$_f") || return 1
		echo "$_f: '$_v'"
		case $_f in
		migrator | reasons) [ -z "$_v" ] || return 1 ;;
		*) case $_v in '' | *[!0-9]*) return 1 ;; esac ;;
		esac
	done
}

suite_numa() {
	if [ ! -d /sys/devices/system/node/node1 ]; then
		tap_skip "numa: this VM has one NUMA node"
		return
	fi
	klog_mark
	if have_memcpy_sg && [ "$(uname -m)" = x86_64 ]; then
		check "numa: the patched kernel has the migration copy offload hook, idle" \
			migrate_offload_idle
	fi
	_modes=1
	have_memcpy_sg && _modes=3
	check "numa: benchmark loads" load_module dma_map_benchmark
	check "numa: soft_dma loads" load_module soft_dma channels=4
	# the debug scope: one order of the three (lib.sh's scope_pick)
	for _order in $(scope_pick "0 4 9" 4); do
		check "numa: node 0 -> node 1, order $_order, prep_modes $_modes, verified" \
			"$MBIOCTL" dmaengine channels=2 src_node=0 dst_node=1 \
			folio_order=$_order sge=4 bytes_per_channel=$((4 << 20)) \
			runs=2 prep_modes=$_modes flags=1
	done
	check "numa: node 1 -> node 0, polled, verified" \
		"$MBIOCTL" dmaengine channels=2 src_node=1 dst_node=0 sge=32 \
		prep_modes=$_modes flags=3
	check_output "numa: the tool reports where the folios came from" \
		'"src_node": *0, *"dst_node": *1' \
		"$TOOL" -m dmaengine --channels 1 --src-node 0 --dst-node 1 \
		--sge 8 --bytes-per-channel 1M --runs 1 --prep-modes memcpy --json
	check_fails_with "numa: a node without memory is refused" \
		'^errno=EINVAL' "$MBIOCTL" dmaengine src_node=2
	check "numa: soft_dma unloads" unload_module soft_dma
	check "numa: benchmark unloads" unload_module dma_map_benchmark
	check_klog_clean "numa"
}
