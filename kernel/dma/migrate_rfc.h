/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Page migration's copy offload interface as the provider (migrate_offload.c,
 * migrate_copy.c) calls it: the RFC's ("[PATCH RFC v6 3/5] mm/migrate: add
 * copy offload registration infrastructure" and, for the marker, "1/5
 * mm/migrate: skip data copy for already-copied folios", linux-mm,
 * 2026-06-30), over whichever hook the build probes found:
 *
 * - HAVE_MIGRATE_COPY_OFFLOAD_RFC, the RFC's own: its headers as they are,
 *   FOLIO_CONTENT_COPIED in <linux/migrate.h> and the rest in
 *   <linux/migrate_copy_offload.h>, the two its providers include;
 * - HAVE_MIGRATE_COPY_OFFLOAD, the project's (kernel/patches/v7.3-migrate/):
 *   the same names, but its functions take a struct migrator that is not
 *   const; here they take a const one, as the RFC's do, and call the hook's.
 *
 * A destination folio is marked copied with folio_set_content_copied(), the
 * project's hook's; over the RFC's, defined here: FOLIO_CONTENT_COPIED set
 * in the folio's migrate_info, as the RFC has its providers do, after the
 * same check that the folio is locked.
 *
 * Where the two hooks still differ: Documentation/migration.rst. The
 * provider is built against the RFC's declarations, as its postings give
 * them, by tools/testing/host/migrate_rfc.t.
 */
#ifndef _KERNEL_DMA_MIGRATE_RFC_H
#define _KERNEL_DMA_MIGRATE_RFC_H

/* the build probes' HAVE_* */
#include "../compat.h"

#if defined(HAVE_MIGRATE_COPY_OFFLOAD) || defined(HAVE_MIGRATE_COPY_OFFLOAD_RFC)
#define DMAENGINE_MIGRATE_HAVE_HOOK

#include <linux/migrate.h>
#include <linux/migrate_copy_offload.h>
#include <linux/mm.h>
#include <linux/mmdebug.h>

#ifdef HAVE_MIGRATE_COPY_OFFLOAD
/*
 * The project's hook keeps the migrator's address, and reads through it
 * only: a const migrator is safe to hand it.
 */
static inline int dmaengine_migrate_rfc_register(const struct migrator *m,
						 unsigned long reason_mask)
{
	return migrate_offload_register((struct migrator *)m, reason_mask);
}

static inline int dmaengine_migrate_rfc_unregister(const struct migrator *m)
{
	return migrate_offload_unregister((struct migrator *)m);
}

static inline int
dmaengine_migrate_rfc_set_reason_mask(const struct migrator *m,
				      unsigned long mask)
{
	return migrate_offload_set_reason_mask((struct migrator *)m, mask);
}

#define migrate_offload_register	dmaengine_migrate_rfc_register
#define migrate_offload_unregister	dmaengine_migrate_rfc_unregister
#define migrate_offload_set_reason_mask	dmaengine_migrate_rfc_set_reason_mask
#else
/* The RFC's marker, which its providers set themselves */
static inline void folio_set_content_copied(struct folio *dst)
{
	VM_WARN_ON_ONCE_FOLIO(!folio_test_locked(dst), dst);
	dst->migrate_info |= FOLIO_CONTENT_COPIED;
}

#define folio_set_content_copied folio_set_content_copied
#endif /* HAVE_MIGRATE_COPY_OFFLOAD */

#endif /* a hook */

#endif /* _KERNEL_DMA_MIGRATE_RFC_H */
