/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Page migration's copy offload interface as dma_migrate (offload.c,
 * copy.c) calls it: the RFC's ("[PATCH RFC v6 3/5] mm/migrate: add
 * copy offload registration infrastructure" and, for the marker, "1/5
 * mm/migrate: skip data copy for already-copied folios", linux-mm,
 * 2026-06-30), over whichever hook the build probes found:
 *
 * - HAVE_MIGRATE_COPY_OFFLOAD_RFC, the RFC's own: its headers as they are,
 *   FOLIO_CONTENT_COPIED in <linux/migrate.h> and the rest in
 *   <linux/migrate_copy_offload.h>, the two its providers include;
 * - HAVE_MIGRATE_COPY_OFFLOAD, the project's (kernel/patches/v7.3-migrate/):
 *   the same names, but its callback takes a struct migrate_offload_batch,
 *   which tells the caller's migration mode, and the provider reports each
 *   pair it copied (migrate_offload_copied()) or lost
 *   (migrate_offload_lost(): a copy that cannot be stopped may still write
 *   the destination, which the provider then holds until its engine is
 *   done); its functions take a struct migrator that is not const.
 *
 * The provider sees one request (struct dma_migrate_req) over either,
 * and reports with dma_migrate_hook_copied() and _lost(). Over the
 * RFC's hook, which has no "lost" and tells no mode, a copy that cannot be
 * stopped is waited for however long it takes
 * (DMA_MIGRATE_CAN_LOSE is false), and every caller is taken to
 * allow sleeping; a copied destination gets FOLIO_CONTENT_COPIED in its
 * migrate_info, as the RFC has its providers do, after a check that the
 * folio is locked.
 *
 * Where the two hooks still differ: Documentation/migration.rst. The
 * provider is built against the RFC's declarations, as its postings give
 * them, by tools/testing/host/migrate_rfc.t.
 */
#ifndef _DMA_MIGRATE_HOOK_H
#define _DMA_MIGRATE_HOOK_H

/* the build probes' HAVE_* */
#include "compat.h"

#if defined(HAVE_MIGRATE_COPY_OFFLOAD) || defined(HAVE_MIGRATE_COPY_OFFLOAD_RFC)
#define DMA_MIGRATE_HAVE_HOOK

#include <linux/list.h>
#include <linux/migrate.h>
#include <linux/migrate_copy_offload.h>
#include <linux/mm.h>
#include <linux/mmdebug.h>

/**
 * struct dma_migrate_req - a batch the hook handed over
 * @src_list: the source folios, locked and unmapped
 * @dst_list: the destination folios, paired in list order
 * @nr: pairs on the lists
 * @mode: the migration mode of migrate_pages()' caller
 * @hook: the hook's own batch, to report pairs on (the project's hook)
 */
struct dma_migrate_req {
	struct list_head *src_list;
	struct list_head *dst_list;
	unsigned int nr;
	enum migrate_mode mode;
	void *hook;
};

#ifdef HAVE_MIGRATE_COPY_OFFLOAD
/* A destination the hook can take as lost, and be given back later. */
#define DMA_MIGRATE_CAN_LOSE	true

static inline void dma_migrate_hook_copied(struct dma_migrate_req *r,
					   struct folio *src,
					   struct folio *dst)
{
	migrate_offload_copied(r->hook, src, dst);
}

static inline void dma_migrate_hook_lost(struct dma_migrate_req *r,
					 struct folio *src,
					 struct folio *dst)
{
	migrate_offload_lost(r->hook, src, dst);
}

static inline void dma_migrate_hook_release(struct folio *dst)
{
	migrate_offload_release(dst);
}

/*
 * The project's hook keeps the migrator's address, and reads through it
 * only: a const migrator is safe to hand it.
 */
static inline int dma_migrate_rfc_register(const struct migrator *m,
					   unsigned long reason_mask)
{
	return migrate_offload_register((struct migrator *)m, reason_mask);
}

static inline int dma_migrate_rfc_unregister(const struct migrator *m)
{
	return migrate_offload_unregister((struct migrator *)m);
}

#define migrate_offload_register	dma_migrate_rfc_register
#define migrate_offload_unregister	dma_migrate_rfc_unregister
#else
#define DMA_MIGRATE_CAN_LOSE	false

/* The RFC's marker, which its providers set themselves */
static inline void dma_migrate_hook_copied(struct dma_migrate_req *r,
					   struct folio *src,
					   struct folio *dst)
{
	VM_WARN_ON_ONCE_FOLIO(!folio_test_locked(dst), dst);
	dst->migrate_info |= FOLIO_CONTENT_COPIED;
}

/* Never called: nothing is lost where the hook cannot take it */
static inline void dma_migrate_hook_lost(struct dma_migrate_req *r,
					 struct folio *src,
					 struct folio *dst)
{
	WARN_ON_ONCE(1);
}

static inline void dma_migrate_hook_release(struct folio *dst)
{
	WARN_ON_ONCE(1);
}
#endif /* HAVE_MIGRATE_COPY_OFFLOAD */

#endif /* a hook */

#endif /* _DMA_MIGRATE_HOOK_H */
