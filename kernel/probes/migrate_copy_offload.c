// SPDX-License-Identifier: GPL-2.0-only
/*
 * HAVE_MIGRATE_COPY_OFFLOAD: page migration's copy offload hook of
 * kernel/patches/v7.3-migrate/, enabled (CONFIG_MIGRATION_COPY_OFFLOAD):
 * struct migrator, migrate_offload_register() with a reason mask, and
 * folio_set_content_copied() to mark a destination folio copied.
 */
#include <linux/bits.h>
#include <linux/migrate_copy_offload.h>

#ifndef CONFIG_MIGRATION_COPY_OFFLOAD
#error "the kernel has the header, not the hook"
#endif
#ifndef folio_set_content_copied
#error "not the project's interface"
#endif

int probe(struct migrator *m, struct folio *dst);
int probe(struct migrator *m, struct folio *dst)
{
	int (*copy)(struct list_head *, struct list_head *, unsigned int) =
		m->offload_copy;

	folio_set_content_copied(dst);
	return migrate_offload_register(m, BIT(MR_SYSCALL)) +
	       migrate_offload_unregister(m) + !copy;
}
