# SPDX-License-Identifier: GPL-2.0-only
# Folios between NUMA nodes, as page-migration offload copies them: source
# on node 0, destination on node 1, both prep modes, verified.


suite_numa() {
	if [ ! -d /sys/devices/system/node/node1 ]; then
		tap_skip "numa: this VM has one NUMA node"
		return
	fi
	klog_mark
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
