// SPDX-License-Identifier: GPL-2.0-only
/*
 * HAVE_MIGRATE_COPY_OFFLOAD: page migration's copy offload hook of
 * kernel/patches/v7.3-migrate/, enabled (CONFIG_MIGRATION_COPY_OFFLOAD):
 * struct migrator whose callback takes a struct migrate_offload_batch
 * (with the caller's migration mode), migrate_offload_register() with a
 * reason mask, and the per-pair reports: migrate_offload_copied(),
 * migrate_offload_lost() and migrate_offload_release().
 */
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/migrate_copy_offload.h>

#ifndef CONFIG_MIGRATION_COPY_OFFLOAD
#error "the kernel has the header, not the hook"
#endif

int probe(struct migrator *m, struct migrate_offload_batch *b,
	  struct folio *src, struct folio *dst);
int probe(struct migrator *m, struct migrate_offload_batch *b,
	  struct folio *src, struct folio *dst)
{
	int (*copy)(struct migrate_offload_batch *) = m->offload_copy;
	enum migrate_mode mode = b->mode;

	BUILD_BUG_ON(!__same_type(b->src_list, struct list_head *));
	migrate_offload_copied(b, src, dst);
	migrate_offload_lost(b, src, dst);
	migrate_offload_release(dst);
	return migrate_offload_register(m, BIT(MR_SYSCALL)) +
	       migrate_offload_unregister(m) + !copy + mode;
}
