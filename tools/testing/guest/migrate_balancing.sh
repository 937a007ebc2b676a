# SPDX-License-Identifier: GPL-2.0-only
# migrate_balancing: the one check of the migrate suite that only the
# bench kernel can show, NUMA balancing (migrate_misplaced_folio(),
# MIGRATE_ASYNC) through dma_migrate.ko's offload over soft_dma with its
# engine stalled (migrate.sh's migrate_async): the debug kernel has no
# NUMA balancing. The debug kernel (x86-debug.t) runs the rest of the
# migrate suite under KASAN, lockdep and DMA-API debugging; the bench
# kernel would repeat it.
# shellcheck source=migrate.sh
. ./migrate.sh

suite_migrate_balancing() {
	if ! migrate_ready 2>/tmp/migrate_balancing.why; then
		tap_skip "migrate_balancing: $(head -n 1 /tmp/migrate_balancing.why)"
		return
	fi
	unload_module dma_map_benchmark
	check "migrate_balancing: dma_migrate loads (after dmacopy)" \
		load_module dma_migrate
	check "migrate_balancing: soft_dma loads" sd_load
	_mb_p=0
	have_memcpy_sg && _mb_p=1
	migrate_async "$_mb_p"
	check "migrate_balancing: soft_dma unloads" sd_unload
	check "migrate_balancing: dma_migrate unloads" unload_module dma_migrate
	check_klog_clean "migrate_balancing"
}
