/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dmacopy: a dmaengine memory-to-memory copy client, as a library.
 *
 * A set holds channels from dmacopy_set_open() to dmacopy_set_close()
 * and releases each before its provider's remove() when the provider is
 * unbound. A batch copies a pair of mapped sg_tables over one channel with
 * a prep form (per-segment memcpy, memcpy_sg, memcpy_vec), under one
 * deadline, every phase timed; a batch that failed is abandoned without a
 * descriptor outliving its memory. Functions return 0 or a negative errno;
 * a channel also says which step of a batch failed (enum dmacopy_fail).
 *
 * Locking: one task at a time drives a channel and its batches (start,
 * finish, end, reset); different channels of a set may be driven by
 * different tasks at once. The set's lock serializes only the release of
 * a channel, an unbind against the close; the request's callbacks run
 * without it, from the provider's bus notifier, and may sleep.
 */
#ifndef _DMACOPY_H
#define _DMACOPY_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/dmaengine.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/scatterlist.h>
#include <linux/types.h>

/* HAVE_SYMBOL_NS_IDENTIFIER, from the project's build probes */
#include "../../../compat.h"

/* The symbol namespace: a bare identifier up to 6.12, a string from 6.13. */
#ifdef HAVE_SYMBOL_NS_IDENTIFIER
#define DMACOPY_NS	DMACOPY
#else
#define DMACOPY_NS	"DMACOPY"
#endif
/* In a module that calls dmacopy: MODULE_IMPORT_NS(DMACOPY_NS). */

/* The prep forms: how a batch's tables become descriptors. */
enum dmacopy_form_id {
	DMACOPY_FORM_MEMCPY,		/* one prep_dma_memcpy per segment */
	DMACOPY_FORM_MEMCPY_SG,		/* one prep_dma_memcpy_sg per batch */
	DMACOPY_FORM_MEMCPY_VEC,	/* one prep_dma_memcpy_vec per batch */
	DMACOPY_NR_FORMS
};

/* Which step of a batch failed first on a channel since its reset. */
enum dmacopy_fail {
	DMACOPY_FAIL_NONE,
	DMACOPY_FAIL_MAP,	/* dma_map_sgtable(): its errno */
	DMACOPY_FAIL_PREP,	/* a prep returned NULL, nothing in flight: -EIO */
	DMACOPY_FAIL_STALL,	/* the pool made no room by the deadline: -ENOSPC */
	DMACOPY_FAIL_SUBMIT,	/* dmaengine_submit(): -EIO */
	DMACOPY_FAIL_RESULT,	/* a descriptor completed in error: -EIO */
	DMACOPY_FAIL_TIMEOUT,	/* not complete by the deadline: -ETIMEDOUT */
	DMACOPY_FAIL_ABORT,	/* the caller's abort flag: -EINTR */
	DMACOPY_NR_FAILS
};

/* The largest table dmacopy_table_fill() builds, in entries. */
#define DMACOPY_MAX_TABLE_ENTS	BIT(20)
/* dmacopy_batch_end()'s drain: the channel's own bound */
#define DMACOPY_DRAIN_DEFAULT	0UL

/**
 * struct dmacopy_figures - what one channel measured since its reset
 * @prep_ns: time in prep calls, those that returned NULL included, and
 *	building the dma_vec arrays they take (memcpy_vec)
 * @submit_ns: time in dmaengine_submit()
 * @issue_ns: time in dma_async_issue_pending()
 * @wait_ns: time blocked waiting for the provider: for a batch's
 *	completion, or for room after a prep returned NULL
 * @map_ns: time mapping source and destination
 * @unmap_ns: time unmapping them
 * @convert_ns: time building dma_vec arrays from the mapped tables
 * @bytes: bytes copied
 * @prep_calls: prep calls that returned a descriptor
 * @prep_stalls: prep calls that returned NULL and were retried
 * @submits: descriptors submitted
 * @batches: batches run
 * @segments: source segments copied
 */
struct dmacopy_figures {
	u64 prep_ns;
	u64 submit_ns;
	u64 issue_ns;
	u64 wait_ns;
	u64 map_ns;
	u64 unmap_ns;
	u64 convert_ns;
	u64 bytes;
	u64 prep_calls;
	u64 prep_stalls;
	u64 submits;
	u64 batches;
	u64 segments;
};

struct dmacopy_chan;
struct dmacopy_form;
struct dmacopy_vecs;
struct dmacopy_set;

/**
 * struct dmacopy_batch - a batch: two mapped tables, in flight
 *
 * The caller embeds it and keeps it from dmacopy_batch_alloc() to the
 * set's close; its fields are the library's (dmacopy_batch_busy()).
 */
struct dmacopy_batch {
	/* private: */
	struct dmacopy_chan *c;
	struct list_head node;
	const struct dmacopy_form *form;
	struct sg_table *src;
	struct sg_table *dst;
	dma_cookie_t *cookies;
	unsigned int max_txs;
	unsigned int ndesc;
	dma_cookie_t last;
	unsigned long deadline;
	atomic_t pending;
	bool submitting;
	struct completion done;
	int result;
	bool busy;
	unsigned long gen;
	bool last_callback;
	struct dmacopy_vecs *vecs;
};

/**
 * struct dmacopy_request - which channels a set takes, and how
 * @channel: only the channel of this dma_chan_name(), empty: any
 * @device: only channels of the DMA device of this dev_name(), empty: any
 * @forms: BIT(DMACOPY_FORM_*), at least one: every channel must have
 *	each form's capability (DMA_MEMCPY for DMACOPY_FORM_MEMCPY); each
 *	form's API is checked first (dmacopy_form_check())
 * @count: channels wanted
 * @allow_fewer: fewer than @count (at least one) will do
 * @quiet: too few is no refusal message: the caller asks again otherwise
 * @poll: the set's batches are polled for, without callbacks
 * @timeout: jiffies a batch may take
 * @abort: the caller's flag that ends what the channels do early; the set
 *	raises it itself when a provider is being unbound
 * @unbind: called when the provider of channel @index is about to be
 *	unbound, after the set logged it and raised @abort: it returns once
 *	the caller no longer touches the channel, nor memory its batches
 *	hold; the set then terminates and releases the channel before the
 *	provider's remove() runs. It may be called from the end of
 *	dmacopy_set_open() on, before that returns. NULL: nothing to wait for
 * @released: called once the set released channel @index after @unbind
 *	(still before the provider's remove()): a batch the caller keeps
 *	quarantined there may have ended (dmacopy_batch_idle()); may be NULL
 * @unbound: called once the provider's remove() returned for a channel
 *	released on its unbind: what the caller kept quarantined there may go
 *	(dmacopy_batch_forget()); may be NULL
 * @priv: the caller's, for the callbacks (dmacopy_set_priv())
 */
struct dmacopy_request {
	const char *channel;
	const char *device;
	u32 forms;
	unsigned int count;
	bool allow_fewer;
	bool quiet;
	bool poll;
	unsigned long timeout;
	bool *abort;
	void (*unbind)(struct dmacopy_set *set, unsigned int index);
	void (*released)(struct dmacopy_set *set, unsigned int index);
	void (*unbound)(struct dmacopy_set *set, unsigned int index);
	void *priv;
};

struct dmacopy_bus;

/**
 * struct dmacopy_set - channels held from open to close
 *
 * The caller embeds it, zeroed; its fields are the library's
 * (dmacopy_set_count(), dmacopy_set_chan(), dmacopy_set_priv()).
 */
struct dmacopy_set {
	/* private: */
	struct dmacopy_chan *chans;
	unsigned int nr;
	struct dmacopy_request req;
	char caps_name[64];
	struct dmacopy_bus *buses;
	unsigned int nr_buses;
	bool unbound;
	unsigned int unbound_index;
	struct mutex lock; /* releasing a channel */
};

/* The forms */
const char *dmacopy_form_name(enum dmacopy_form_id id);
const char *dmacopy_form_cap_name(enum dmacopy_form_id id);
bool dmacopy_form_has_api(enum dmacopy_form_id id);
int dmacopy_form_check(enum dmacopy_form_id id, bool quiet);

/* The set */
int dmacopy_set_open(struct dmacopy_set *set, const struct dmacopy_request *req);
void dmacopy_set_close(struct dmacopy_set *set);
unsigned int dmacopy_set_count(const struct dmacopy_set *set);
struct dmacopy_chan *dmacopy_set_chan(struct dmacopy_set *set,
				      unsigned int index);
void *dmacopy_set_priv(const struct dmacopy_set *set);
bool dmacopy_set_unbound(const struct dmacopy_set *set, unsigned int *index);

/* A channel */
const char *dmacopy_chan_name(const struct dmacopy_chan *c);
const char *dmacopy_chan_dev_name(const struct dmacopy_chan *c);
struct device *dmacopy_chan_provider(const struct dmacopy_chan *c);
struct device *dmacopy_chan_dma_dev(const struct dmacopy_chan *c);
bool dmacopy_chan_has_form(const struct dmacopy_chan *c,
			   enum dmacopy_form_id id);
bool dmacopy_chan_no_order(const struct dmacopy_chan *c);
unsigned int dmacopy_chan_copy_align(const struct dmacopy_chan *c);
unsigned int dmacopy_chan_seg_max(const struct dmacopy_chan *c);
unsigned long dmacopy_chan_ents(const struct dmacopy_chan *c, size_t size);
const struct dmacopy_figures *dmacopy_chan_figures(const struct dmacopy_chan *c);
enum dmacopy_fail dmacopy_chan_fail(const struct dmacopy_chan *c, int *err);
void dmacopy_chan_reset(struct dmacopy_chan *c);

/* Tables */
int dmacopy_table_fill(const struct dmacopy_chan *c, struct sg_table *sgt,
		       struct folio **folios, unsigned int n, gfp_t gfp);
void dmacopy_tables_unmap(struct dmacopy_chan *c, struct sg_table *src,
			  struct sg_table *dst);

/* Batches */
int dmacopy_batch_alloc(struct dmacopy_batch *b, struct dmacopy_chan *c,
			unsigned int max_ents, u64 bytes, u32 forms, gfp_t gfp);
int dmacopy_batch_start(struct dmacopy_batch *b, enum dmacopy_form_id id,
			struct sg_table *src, struct sg_table *dst,
			unsigned long deadline);
int dmacopy_batch_finish(struct dmacopy_batch *b, bool check);
int dmacopy_batch_end(struct dmacopy_batch *b, unsigned long drain,
		      bool unmap);
bool dmacopy_batch_busy(const struct dmacopy_batch *b);
bool dmacopy_batch_idle(struct dmacopy_batch *b);
void dmacopy_batch_forget(struct dmacopy_batch *b);

#endif /* _DMACOPY_H */
