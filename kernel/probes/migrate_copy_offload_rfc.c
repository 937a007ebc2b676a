// SPDX-License-Identifier: GPL-2.0-only
/*
 * HAVE_MIGRATE_COPY_OFFLOAD_RFC: the copy offload hook of the RFC series
 * the project's is shaped after ("Accelerate page migration with batch
 * copying and hardware offload", v6, linux-mm, 2026-06-30), enabled, with
 * the declarations the provider calls through kernel/dma/migrate_rfc.h:
 * register, unregister and set_reason_mask taking a const struct migrator,
 * the callback's type, and FOLIO_CONTENT_COPIED in <linux/migrate.h>, which
 * the provider sets in the destination's migrate_info itself. Not set where
 * the project's hook (HAVE_MIGRATE_COPY_OFFLOAD) is: its callback's type,
 * and FOLIO_CONTENT_COPIED, are not these.
 */
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/list.h>
#include <linux/migrate.h>
#include <linux/migrate_copy_offload.h>
#include <linux/mm_types.h>

#ifndef CONFIG_MIGRATION_COPY_OFFLOAD
#error "the kernel has the header, not the hook"
#endif

void probe(struct folio *dst);

static int probe_copy(struct list_head *dst_list, struct list_head *src_list,
		      unsigned int folio_cnt)
{
	return -EOPNOTSUPP;
}

/* a provider's migrator is const, as the RFC's dcbm's is */
static const struct migrator probe_migrator = {
	.offload_copy = probe_copy,
};

void probe(struct folio *dst)
{
	/* the prototypes the provider calls (kernel/dma/migrate_rfc.h) */
	BUILD_BUG_ON(!__same_type(migrate_offload_register,
				  int (const struct migrator *, unsigned long)));
	BUILD_BUG_ON(!__same_type(migrate_offload_unregister,
				  int (const struct migrator *)));
	BUILD_BUG_ON(!__same_type(migrate_offload_set_reason_mask,
				  int (const struct migrator *, unsigned long)));
	BUILD_BUG_ON(!__same_type(probe_migrator.offload_copy,
				  int (*)(struct list_head *, struct list_head *,
					  unsigned int)));
	BUILD_BUG_ON(!FOLIO_CONTENT_COPIED);

	if (!migrate_offload_register(&probe_migrator, BIT(MR_SYSCALL)))
		dst->migrate_info |= FOLIO_CONTENT_COPIED;
	migrate_offload_set_reason_mask(&probe_migrator, BIT(MR_DEMOTION));
	migrate_offload_unregister(&probe_migrator);
}
