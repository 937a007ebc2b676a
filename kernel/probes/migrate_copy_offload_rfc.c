// SPDX-License-Identifier: GPL-2.0-only
/*
 * HAVE_MIGRATE_COPY_OFFLOAD_RFC: the copy offload hook of the RFC series
 * the project's is shaped after ("Accelerate page migration with batch
 * copying and hardware offload", v6): the same struct migrator and
 * registration, and the provider sets FOLIO_CONTENT_COPIED in the
 * destination's migrate_info itself. Not set where the project's hook
 * (HAVE_MIGRATE_COPY_OFFLOAD) is.
 */
#include <linux/bits.h>
#include <linux/migrate_copy_offload.h>
#include <linux/mm_types.h>

#ifndef CONFIG_MIGRATION_COPY_OFFLOAD
#error "the kernel has the header, not the hook"
#endif
#ifdef folio_set_content_copied
#error "the project's interface: HAVE_MIGRATE_COPY_OFFLOAD"
#endif

void probe(struct migrator *m, struct folio *dst);
void probe(struct migrator *m, struct folio *dst)
{
	int (*copy)(struct list_head *, struct list_head *, unsigned int) =
		m->offload_copy;

	BUILD_BUG_ON(!FOLIO_CONTENT_COPIED);
	if (copy && !migrate_offload_register(m, BIT(MR_SYSCALL)))
		dst->migrate_info |= FOLIO_CONTENT_COPIED;
	migrate_offload_unregister(m);
}
