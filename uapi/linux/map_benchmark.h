/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * DMA map benchmark ABI.
 *
 * struct map_benchmark and DMA_MAP_BENCHMARK are binary compatible with
 * upstream: Linux 7.3's header of this name in include/uapi/linux/ (with
 * the map_mode byte) and 6.12's include/linux/map_benchmark.h (without
 * it), so upstream's tools/dma/dma_map_benchmark (6.12's
 * tools/testing/selftests/dma/) runs unchanged.
 *
 * Everything new goes through extensible, size-versioned structures
 * (struct dmaengine_benchmark): userspace sets ->size to the size it was
 * built with; the kernel accepts smaller (older) structures and larger
 * (newer) ones whose unknown tail is zero, and writes back at most ->size
 * bytes. Unknown flags and nonzero reserved fields are refused with EINVAL.
 */
#ifndef _UAPI_LINUX_MAP_BENCHMARK_H
#define _UAPI_LINUX_MAP_BENCHMARK_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* ------------------------------------------------------------------ */
/* Map modes: /sys/kernel/debug/dma_map_benchmark (a bound device)     */
/* ------------------------------------------------------------------ */

#define DMA_MAP_BENCHMARK	_IOWR('d', 1, struct map_benchmark)
#define DMA_MAP_MAX_THREADS	1024
#define DMA_MAP_MAX_SECONDS	300
#define DMA_MAP_MAX_TRANS_DELAY	(10 * 1000 * 1000L)	/* 10 ms, in ns */
#define DMA_MAP_MAX_GRANULE	1024

#define DMA_MAP_BIDIRECTIONAL	0
#define DMA_MAP_TO_DEVICE	1
#define DMA_MAP_FROM_DEVICE	2

enum {
	DMA_MAP_BENCH_SINGLE_MODE,	/* dma_map_single() of granule pages */
	DMA_MAP_BENCH_SG_MODE,		/* dma_map_sg() of granule pages */
	DMA_MAP_BENCH_MODE_MAX
};

/**
 * struct map_benchmark - argument and result of DMA_MAP_BENCHMARK
 * @avg_map_100ns: mean map latency, in units of 100 ns
 * @map_stddev: standard deviation of the map latency, 100 ns units
 * @avg_unmap_100ns: mean unmap latency, 100 ns units
 * @unmap_stddev: standard deviation of the unmap latency, 100 ns units
 * @threads: threads mapping in parallel, 1..DMA_MAP_MAX_THREADS
 * @seconds: duration, 1..DMA_MAP_MAX_SECONDS
 * @node: NUMA node to run the threads on, or -1 for any
 * @dma_bits: DMA mask width to set on the device for the run, 20..64
 * @dma_dir: DMA_MAP_BIDIRECTIONAL, DMA_MAP_TO_DEVICE or DMA_MAP_FROM_DEVICE
 * @dma_trans_ns: pretend-transfer delay between map and unmap, in ns
 * @granule: pages mapped at once (single mode) or sg entries of one page
 *	each (sg mode), 1..DMA_MAP_MAX_GRANULE
 * @map_mode: DMA_MAP_BENCH_SINGLE_MODE or DMA_MAP_BENCH_SG_MODE
 * @expansion: reserved, must be zero
 */
struct map_benchmark {
	__u64 avg_map_100ns;
	__u64 map_stddev;
	__u64 avg_unmap_100ns;
	__u64 unmap_stddev;
	__u32 threads;
	__u32 seconds;
	__s32 node;
	__u32 dma_bits;
	__u32 dma_dir;
	__u32 dma_trans_ns;
	__u32 granule;
	__u8  map_mode;
	__u8  expansion[75];
};

/*
 * The map modes, extended: more and larger entries, a fixed iteration
 * count, threads pinned to CPUs, sync timing, and percentiles. Same file,
 * same modes; struct map_benchmark_ext is size-versioned like
 * struct dmaengine_benchmark below.
 */
#define DMA_MAP_BENCHMARK_EXT	_IOWR('d', 2, struct map_benchmark_ext)

#define DMA_MAP_BENCH_EXT_SIZE_VER1	384	/* sizeof first published */
#define DMA_MAP_MAX_ENTRIES		65536
#define DMA_MAP_MAX_ITERATIONS		100000000
#define DMA_MAP_MAX_CPUS		1024

/* flags of struct map_benchmark_ext */
#define DMA_MAP_BENCH_F_SYNC		0x1U /* time sync_for_cpu/device too */
#define DMA_MAP_BENCH_F_ALL		DMA_MAP_BENCH_F_SYNC

/* Operations timed, indexing struct map_benchmark_ext::op */
enum {
	DMA_MAP_BENCH_OP_MAP,		/* dma_map_single() / dma_map_sg() */
	DMA_MAP_BENCH_OP_UNMAP,		/* dma_unmap_single() / _sg() */
	DMA_MAP_BENCH_OP_SYNC_CPU,	/* dma_sync_*_for_cpu() */
	DMA_MAP_BENCH_OP_SYNC_DEVICE,	/* dma_sync_*_for_device() */
	DMA_MAP_BENCH_NR_OPS
};

/**
 * struct map_benchmark_op_stat - latency of one operation over all threads
 * @count: operations timed
 * @mean_ns: mean latency
 * @stddev_ns: population standard deviation
 * @min_ns: smallest latency
 * @max_ns: largest latency
 * @p50_ns: median, from a log-linear histogram (within 1/16 of a power of 2)
 * @p90_ns: 90th percentile, likewise
 * @p99_ns: 99th percentile, likewise
 */
struct map_benchmark_op_stat {
	__u64 count;
	__u64 mean_ns;
	__u64 stddev_ns;
	__u64 min_ns;
	__u64 max_ns;
	__u64 p50_ns;
	__u64 p90_ns;
	__u64 p99_ns;
};

/**
 * struct map_benchmark_ext - argument and result of DMA_MAP_BENCHMARK_EXT
 * @size: sizeof(struct map_benchmark_ext) as userspace knows it
 * @flags: DMA_MAP_BENCH_F_*
 * @map_mode: DMA_MAP_BENCH_SINGLE_MODE or DMA_MAP_BENCH_SG_MODE
 * @threads: 1..DMA_MAP_MAX_THREADS
 * @seconds: duration, 1..DMA_MAP_MAX_SECONDS; with @iterations, the most
 *	the run may take
 * @iterations: map/unmap cycles per thread, 0 for a timed run
 * @node: NUMA node of the threads and buffers, or -1
 * @dma_bits: 20..64
 * @dma_dir: DMA_MAP_BIDIRECTIONAL, DMA_MAP_TO_DEVICE or DMA_MAP_FROM_DEVICE
 * @dma_trans_ns: pretend-transfer delay, 0..DMA_MAP_MAX_TRANS_DELAY
 * @entries: sg entries (sg mode) or entries of one buffer (single mode),
 *	1..DMA_MAP_MAX_ENTRIES
 * @entry_size: bytes an entry, 1..the largest contiguous allocation; 0
 *	means the page size
 * @cpus_ptr: user pointer to @nr_cpus __u32 CPU numbers: thread i runs on
 *	CPU cpus[i % nr_cpus]; 0 for none
 * @nr_cpus: entries at @cpus_ptr, 0..DMA_MAP_MAX_CPUS
 * @reserved_in: zero
 * @op: results, indexed by DMA_MAP_BENCH_OP_*
 * @segments: result: the scatterlist segments of one dma_map_sg() (sg
 *	mode), @entries or more: an entry longer than @max_segment, or
 *	crossing the device's segment boundary, is mapped as several; 1 in
 *	single mode. 0 from a module older than this field.
 * @max_segment: result: the longest segment the bound device takes, its
 *	max_seg_size bounded by its largest mapping (dma_max_mapping_size());
 *	in single mode, the largest buffer one dma_map_single() may map
 *	(capped at U32_MAX)
 * @reserved_out: zero
 */
struct map_benchmark_ext {
	__u32 size;
	__u32 flags;
	__u32 map_mode;
	__u32 threads;
	__u32 seconds;
	__u32 iterations;
	__s32 node;
	__u32 dma_bits;
	__u32 dma_dir;
	__u32 dma_trans_ns;
	__u32 entries;
	__u32 entry_size;
	__u64 cpus_ptr;
	__u32 nr_cpus;
	__u32 reserved0;
	__u64 reserved_in[4];
	struct map_benchmark_op_stat op[DMA_MAP_BENCH_NR_OPS];
	__u32 segments;
	__u32 max_segment;
	__u64 reserved_out[3];
};

/* ------------------------------------------------------------------ */
/* dmaengine mode: /sys/kernel/debug/dmaengine_benchmark (no device)   */
/* ------------------------------------------------------------------ */

/*
 * One layout, grown only at its end (as clone3(), openat2() and
 * sched_setattr()): inputs first, then outputs. ->size says which version
 * the caller was built with; the kernel matches the ioctl's type and
 * number only and reads ->size for the rest (copy_struct_from_user()).
 * Number 3 was an earlier layout (inputs and outputs interleaved, two
 * copies of the results) that is no longer answered: ENOTTY.
 */
#define DMAENGINE_BENCHMARK	_IOWR('d', 5, struct dmaengine_benchmark)

#define DMAENGINE_BENCH_SIZE_VER1	2176	/* sizeof first published */

/*
 * prep_modes: which copy to time. The index of a mode (its bit number)
 * names it in ->results, samples and ->error_prep_mode.
 */
enum {
	DMAENGINE_BENCH_MODE_MEMCPY,	/* one prep per segment */
	DMAENGINE_BENCH_MODE_MEMCPY_SG,	/* one prep per batch */
	DMAENGINE_BENCH_MODE_CPU,	/* the channel's thread copies */
	DMAENGINE_BENCH_MODE_MEMCPY_VEC, /* one prep per batch, dma_vec */
	DMAENGINE_BENCH_NR_MODES
};

/* prep_modes bits: 1 << DMAENGINE_BENCH_MODE_* */
#define DMAENGINE_BENCH_PREP_MEMCPY	0x1U
#define DMAENGINE_BENCH_PREP_MEMCPY_SG	0x2U
#define DMAENGINE_BENCH_PREP_CPU	0x4U
#define DMAENGINE_BENCH_PREP_MEMCPY_VEC	0x8U
#define DMAENGINE_BENCH_PREP_ALL	(DMAENGINE_BENCH_PREP_MEMCPY | \
					 DMAENGINE_BENCH_PREP_MEMCPY_SG | \
					 DMAENGINE_BENCH_PREP_CPU | \
					 DMAENGINE_BENCH_PREP_MEMCPY_VEC)
/* room in ->results: modes to come fit without a new layout */
#define DMAENGINE_BENCH_MAX_PREP_MODES	8

/* flags */
#define DMAENGINE_BENCH_F_VERIFY	0x1U /* pattern in src, check dst */
#define DMAENGINE_BENCH_F_POLL		0x2U /* poll tx_status, no callback */
#define DMAENGINE_BENCH_F_ALLOW_FEWER	0x4U /* run on the channels found */
#define DMAENGINE_BENCH_F_DISTINCT	0x8U /* distinct folios per batch */
#define DMAENGINE_BENCH_F_SKIP_MISSING	0x10U /* run the modes there are */
#define DMAENGINE_BENCH_F_DST_ORDER	0x20U /* dst_folio_order applies */
#define DMAENGINE_BENCH_F_ALL		(DMAENGINE_BENCH_F_VERIFY | \
					 DMAENGINE_BENCH_F_POLL | \
					 DMAENGINE_BENCH_F_ALLOW_FEWER | \
					 DMAENGINE_BENCH_F_DISTINCT | \
					 DMAENGINE_BENCH_F_SKIP_MISSING | \
					 DMAENGINE_BENCH_F_DST_ORDER)

#define DMAENGINE_BENCH_MAX_CHANNELS	256
#define DMAENGINE_BENCH_MAX_SGE		65536
#define DMAENGINE_BENCH_MAX_RUNS	10000
#define DMAENGINE_BENCH_MAX_WARMUP	100
#define DMAENGINE_BENCH_MAX_TIMEOUT_MS	600000
#define DMAENGINE_BENCH_DEFAULT_TIMEOUT_MS	10000	/* timeout_ms 0 */
#define DMAENGINE_BENCH_MAX_DEPTH	64
#define DMAENGINE_BENCH_MAX_CPUS	1024
#define DMAENGINE_BENCH_NAME_LEN	32

/* ->error: why a run stopped; set together with a negative errno */
enum dmaengine_bench_error {
	DMAENGINE_BENCH_OK,
	DMAENGINE_BENCH_ERR_INVAL,	/* a field is out of range: see dmesg */
	DMAENGINE_BENCH_ERR_NO_CHANNEL,	/* fewer channels than asked */
	DMAENGINE_BENCH_ERR_NO_API,	/* kernel lacks the mode's prep API */
	DMAENGINE_BENCH_ERR_NO_CAP,	/* channel lacks the mode's capability */
	DMAENGINE_BENCH_ERR_NOMEM,	/* buffers larger than memory allows */
	DMAENGINE_BENCH_ERR_MAP,	/* dma_map_sgtable() failed */
	DMAENGINE_BENCH_ERR_PREP,	/* a prep call returned NULL */
	DMAENGINE_BENCH_ERR_SUBMIT,	/* dmaengine_submit() failed */
	DMAENGINE_BENCH_ERR_RESULT,	/* a callback reported an error */
	DMAENGINE_BENCH_ERR_TIMEOUT,	/* a batch did not complete in time */
	DMAENGINE_BENCH_ERR_VERIFY,	/* destination differs from source */
	DMAENGINE_BENCH_ERR_INTR,	/* interrupted by a signal */
	DMAENGINE_BENCH_ERR_LIMIT,	/* a channel limit (segment, align) */
	DMAENGINE_BENCH_ERR_STALL,	/* prep returned NULL, no progress */
	DMAENGINE_BENCH_ERR_POLL,	/* polling a NO_ORDER channel */
	DMAENGINE_BENCH_ERR_UNBOUND,	/* the provider was unbound */
	DMAENGINE_BENCH_ERR_MAX
};

/**
 * struct dmaengine_bench_stat - mean and sample standard deviation over runs
 * @mean: mean
 * @stddev: sample standard deviation (n - 1); 0 for a single run
 */
struct dmaengine_bench_stat {
	__u64 mean;
	__u64 stddev;
};

/**
 * struct dmaengine_bench_result - one prep mode, over all runs
 * @runs: timed runs; 0 when the mode did not run
 * @missing: why this mode, asked for, did not run (with
 *	DMAENGINE_BENCH_F_SKIP_MISSING): DMAENGINE_BENCH_ERR_NO_API or
 *	DMAENGINE_BENCH_ERR_NO_CAP; 0 when it ran or was not asked for
 * @run_ns: wall time of a run, from the first channel's start to the last
 *	channel's end
 * @prep_ns: time in prep calls, summed over channels
 * @submit_ns: time in dmaengine_submit(), summed over channels
 * @issue_ns: time in dma_async_issue_pending(), summed over channels
 * @wait_ns: time waiting for completion, summed over channels
 * @map_ns: time in dma_map_sgtable() of src and dst, summed over channels
 * @unmap_ns: time in dma_unmap_sgtable(), summed over channels
 * @bytes_per_sec: throughput of a run: bytes / run_ns
 * @copy_ns: time in the CPU copy (prep mode cpu), summed over channels
 * @prep_stalls: prep calls that returned NULL and were retried after the
 *	provider made progress (a bounded descriptor pool), all channels
 * @convert_ns: time building the dma_vec arrays from the mapped tables
 *	(prep mode memcpy_vec), summed over channels; a part of @prep_ns
 * @bytes: bytes copied in one run, all channels
 * @prep_calls: prep calls in one run, all channels
 * @submits: descriptors submitted in one run, all channels
 * @batches: batches in one run, all channels
 * @segments: mapped source segments copied in one run, all channels
 * @phases: DMAENGINE_BENCH_PHASE_BIT() of each phase the kernel measured
 *	for this mode, here and in its samples; a phase without its bit was
 *	not measured, whatever its field holds. 0 from a kernel before this
 *	field: its mode's phases of DMAENGINE_BENCH_PHASES_VER1
 * @reserved: zero
 *
 * The statistics of the phases of the mode: see DMAENGINE_BENCH_PHASES.
 * The entries of ->results are struct dmaengine_benchmark::result_size
 * bytes apart: the structure grows at its end, like the others.
 */
struct dmaengine_bench_result {
	__u32 runs;
	__u32 missing;
	struct dmaengine_bench_stat run_ns;
	struct dmaengine_bench_stat prep_ns;
	struct dmaengine_bench_stat submit_ns;
	struct dmaengine_bench_stat issue_ns;
	struct dmaengine_bench_stat wait_ns;
	struct dmaengine_bench_stat map_ns;
	struct dmaengine_bench_stat unmap_ns;
	struct dmaengine_bench_stat bytes_per_sec;
	struct dmaengine_bench_stat copy_ns;
	struct dmaengine_bench_stat prep_stalls;
	struct dmaengine_bench_stat convert_ns;
	__u64 bytes;
	__u64 prep_calls;
	__u64 submits;
	__u64 batches;
	__u64 segments;
	__u64 phases;
	__u64 reserved;
};

#define DMAENGINE_BENCH_RESULT_SIZE_VER1	240	/* sizeof first published */

/**
 * struct dmaengine_bench_sample - one run of one prep mode on one channel
 * @prep_mode: DMAENGINE_BENCH_MODE_*
 * @run: run number, from 0; warm-up runs are not reported
 * @channel: channel index, as in @channels_ptr
 * @reserved: zero
 * @start_ns: start of the channel's run, relative to the run's start
 * @end_ns: end of the channel's run, relative to the run's start
 * @prep_ns, @submit_ns, @issue_ns, @wait_ns, @map_ns, @unmap_ns: as in
 *	struct dmaengine_bench_result, for this channel alone
 * @bytes, @prep_calls, @submits: this channel's counts
 * @copy_ns: time in the CPU copy (prep mode cpu)
 * @prep_stalls: prep calls that returned NULL and were retried
 * @convert_ns: time building the dma_vec arrays from the mapped tables
 *	(prep mode memcpy_vec), a part of @prep_ns
 * @reserved2: zero
 *
 * The entries of the caller's array are struct dmaengine_benchmark::
 * sample_size bytes apart: the structure grows at its end like the others.
 */
struct dmaengine_bench_sample {
	__u32 prep_mode;
	__u32 run;
	__u32 channel;
	__u32 reserved;
	__u64 start_ns;
	__u64 end_ns;
	__u64 prep_ns;
	__u64 submit_ns;
	__u64 issue_ns;
	__u64 wait_ns;
	__u64 map_ns;
	__u64 unmap_ns;
	__u64 bytes;
	__u64 prep_calls;
	__u64 submits;
	__u64 copy_ns;
	__u64 prep_stalls;
	__u64 convert_ns;
	__u64 reserved2[3];
};

#define DMAENGINE_BENCH_SAMPLE_SIZE_VER1	152	/* sizeof first published */

/*
 * The phases: the parts of a copy the benchmark times (or counts), in the
 * dmaengine mode and in the migration copy offload alike, as one list:
 *
 *	X(ID, name, unit, prep_modes, migrate)
 *
 * @ID names DMAENGINE_BENCH_PH_ID, the phase's number and its bit in the
 * masks of the phases filled (->results[].phases); @name is what a tool
 * calls it (a string, no unit in it); @unit is DMAENGINE_BENCH_UNIT_unit;
 * @prep_modes the DMAENGINE_BENCH_PREP_* modes of the dmaengine mode that
 * measure it (0: the dmaengine mode has no such phase); @migrate is 1 when
 * DMA_MIGRATE_OP_STATS reports it. In the dmaengine mode a phase is a
 * statistic of struct dmaengine_bench_result and a field of struct
 * dmaengine_bench_sample, both named name_ns (a time) or name (a count);
 * in struct dma_migrate_offload a field of ->ph or of the structure.
 *
 * New phases go at the end (the numbers are the masks' bits): an entry
 * here, its fields, and the kernel's code that measures it. The list is
 * a macro, C90 and C++ alike, as include/uapi/linux/cxl_mem.h's: expand
 * it with an X of your own, e.g. the names in the enum's order:
 *
 *	#define PH_NAME(id, name, unit, modes, migrate) name,
 *	static const char *const names[] = {
 *		DMAENGINE_BENCH_PHASES(PH_NAME)
 *	};
 */
enum dmaengine_bench_unit {
	DMAENGINE_BENCH_UNIT_NS,	/* a time, in nanoseconds */
	DMAENGINE_BENCH_UNIT_COUNT,	/* a count of events */
	DMAENGINE_BENCH_UNIT_BYTES,	/* an amount of memory */
	DMAENGINE_BENCH_NR_UNITS
};

#define DMAENGINE_BENCH_PREP_DMA	(DMAENGINE_BENCH_PREP_ALL & \
					 ~DMAENGINE_BENCH_PREP_CPU)

#define DMAENGINE_BENCH_PHASES(X) \
	X(PREP, "prep", NS, DMAENGINE_BENCH_PREP_DMA, 1) \
	X(SUBMIT, "submit", NS, DMAENGINE_BENCH_PREP_DMA, 1) \
	X(ISSUE, "issue", NS, DMAENGINE_BENCH_PREP_DMA, 1) \
	X(WAIT, "wait", NS, DMAENGINE_BENCH_PREP_DMA, 1) \
	X(MAP, "map", NS, DMAENGINE_BENCH_PREP_DMA, 1) \
	X(UNMAP, "unmap", NS, DMAENGINE_BENCH_PREP_DMA, 1) \
	X(COPY, "copy", NS, DMAENGINE_BENCH_PREP_CPU, 0) \
	X(CONVERT, "convert", NS, DMAENGINE_BENCH_PREP_MEMCPY_VEC, 0) \
	X(STALLS, "prep_stalls", COUNT, DMAENGINE_BENCH_PREP_DMA, 0) \
	X(BATCH, "batch", NS, 0, 1) \
	X(BUILD, "build", NS, 0, 1) \
	X(MARK, "mark", NS, 0, 1)

#define DMAENGINE_BENCH_PH_ENUM_(id, name, unit, modes, migrate) \
	DMAENGINE_BENCH_PH_##id,
enum dmaengine_bench_phase {
	DMAENGINE_BENCH_PHASES(DMAENGINE_BENCH_PH_ENUM_)
	DMAENGINE_BENCH_NR_PHASES
};

#undef DMAENGINE_BENCH_PH_ENUM_

/* a phase's bit in the masks of the phases filled */
#define DMAENGINE_BENCH_PHASE_BIT(ph)	((__u64)1 << (ph))

/*
 * What a kernel that says nothing filled (its mask 0: before the masks):
 * the dmaengine mode's phases up to prep_stalls, each in the prep modes
 * the list gives it; STATS' of DMA_MIGRATE_OFFLOAD_SIZE_VER3.
 */
#define DMAENGINE_BENCH_PHASES_VER1	\
	((DMAENGINE_BENCH_PHASE_BIT(DMAENGINE_BENCH_PH_STALLS) << 1) - 1)
#define DMA_MIGRATE_PHASES_VER3	\
	(DMAENGINE_BENCH_PHASE_BIT(DMAENGINE_BENCH_PH_BATCH) | \
	 DMAENGINE_BENCH_PHASE_BIT(DMAENGINE_BENCH_PH_BUILD) | \
	 DMAENGINE_BENCH_PHASE_BIT(DMAENGINE_BENCH_PH_MAP) | \
	 DMAENGINE_BENCH_PHASE_BIT(DMAENGINE_BENCH_PH_PREP) | \
	 DMAENGINE_BENCH_PHASE_BIT(DMAENGINE_BENCH_PH_SUBMIT) | \
	 DMAENGINE_BENCH_PHASE_BIT(DMAENGINE_BENCH_PH_ISSUE) | \
	 DMAENGINE_BENCH_PHASE_BIT(DMAENGINE_BENCH_PH_WAIT) | \
	 DMAENGINE_BENCH_PHASE_BIT(DMAENGINE_BENCH_PH_UNMAP) | \
	 DMAENGINE_BENCH_PHASE_BIT(DMAENGINE_BENCH_PH_MARK))

/**
 * struct dmaengine_bench_channel - a channel the run used
 * @name: dma_chan_name(), e.g. "dma0chan3"
 * @device: dev_name() of the DMA device
 * @driver: name of the driver bound to the DMA device
 * @node: NUMA node of the DMA device, -1 if none
 * @src_node: node the source folios came from
 * @dst_node: node the destination folios came from
 * @max_seg_size: dma_get_max_seg_size() of the DMA device
 * @copy_align: dma_device->copy_align (log2 bytes)
 * @has_memcpy_sg: the channel advertises DMA_MEMCPY_SG
 * @no_order: the channel completes out of order (DMA_COMPLETION_NO_ORDER)
 * @has_memcpy_vec: the channel advertises DMA_MEMCPY_VEC
 */
struct dmaengine_bench_channel {
	char name[DMAENGINE_BENCH_NAME_LEN];
	char device[DMAENGINE_BENCH_NAME_LEN];
	char driver[DMAENGINE_BENCH_NAME_LEN];
	__s32 node;
	__s32 src_node;
	__s32 dst_node;
	__u32 max_seg_size;
	__u32 copy_align;
	__u32 has_memcpy_sg;
	__u32 no_order;
	__u32 has_memcpy_vec;
};

/**
 * struct dmaengine_benchmark - argument and result of DMAENGINE_BENCHMARK
 *
 * Inputs:
 * @size: sizeof(struct dmaengine_benchmark) as userspace knows it, at
 *	least DMAENGINE_BENCH_SIZE_VER1
 * @flags: DMAENGINE_BENCH_F_*
 * @prep_modes: DMAENGINE_BENCH_PREP_* bits; with several, runs alternate
 *	between the modes on the same buffers, in an order that rotates from
 *	run to run
 * @channels: channels to request, 1..DMAENGINE_BENCH_MAX_CHANNELS
 * @folio_order: order of each source folio, and of each destination
 *	folio unless DMAENGINE_BENCH_F_DST_ORDER is set
 * @dst_folio_order: with DMAENGINE_BENCH_F_DST_ORDER, the order of each
 *	destination folio: source and destination tables then have entries
 *	of different sizes (a batch's bytes must fill whole destination
 *	folios); zero otherwise
 * @sge: sg entries (folios) in a batch, 1..DMAENGINE_BENCH_MAX_SGE
 * @depth: batches in flight per channel, 1..DMAENGINE_BENCH_MAX_DEPTH; 0
 *	means 1. With more than one, a channel prepares and submits the next
 *	batch while earlier ones run, and waits only when @depth are
 *	outstanding.
 * @bytes_per_channel: bytes each channel copies in a run; rounded up to
 *	whole batches, at least one
 * @runs: timed runs of each prep mode, 1..DMAENGINE_BENCH_MAX_RUNS
 * @warmup_runs: untimed runs of each prep mode first
 * @src_node: NUMA node of the source folios, -1: the channel's node
 * @dst_node: NUMA node of the destination folios, -1: the channel's node
 * @timeout_ms: how long one batch may take before the run fails; 0:
 *	DMAENGINE_BENCH_DEFAULT_TIMEOUT_MS, 10 s
 * @sample_size: bytes of one entry at @samples_ptr, at least
 *	DMAENGINE_BENCH_SAMPLE_SIZE_VER1; 0 means that size
 * @channel: only channels whose name matches this (strcmp), empty: any
 * @device: only channels of the DMA device with this dev_name(), empty: any
 * @samples_ptr: user pointer to an array of struct dmaengine_bench_sample,
 *	or 0; filled run by run, channel by channel
 * @samples_len: entries in @samples_ptr; runs x modes x channels fit all
 * @nr_cpus: entries at @cpus_ptr, 0..DMAENGINE_BENCH_MAX_CPUS
 * @cpus_ptr: user pointer to @nr_cpus __u32 CPU numbers: the thread of
 *	channel i runs on CPU cpus[i % nr_cpus]; 0 for no pinning
 * @channels_ptr: user pointer to an array of struct dmaengine_bench_channel
 *	with room for @channels entries, or 0
 * @reserved_in: zero
 *
 * Outputs (whatever the caller put there is overwritten):
 * @error: enum dmaengine_bench_error when the ioctl fails
 * @error_channel: channel index the error happened on
 * @error_run: run the error happened in
 * @error_prep_mode: prep mode index the error happened in
 * @channels_used: channels the run used
 * @samples_written: entries written to @samples_ptr
 * @prep_modes_run: the prep modes that ran: @prep_modes, less those
 *	DMAENGINE_BENCH_F_SKIP_MISSING left out (their ->results[].missing
 *	says why)
 * @result_size: bytes of each entry of @results the kernel filled, and
 *	the entries' stride: the kernel's sizeof(struct
 *	dmaengine_bench_result), or less for a caller built with smaller
 *	entries; 0 from a kernel before this field, whose entries are
 *	DMAENGINE_BENCH_RESULT_SIZE_VER1 bytes
 * @acquire_ns: time to request all channels (not in any phase)
 * @batches_per_channel: batches a channel copies in a run:
 *	@bytes_per_channel rounded up to whole batches, at least one; set
 *	once the request is valid, a failed run's answer too
 * @buffer_bytes: bytes of folios the call holds, source and destination,
 *	all channels (what an ERR_NOMEM refusal weighed against memory);
 *	set with @batches_per_channel
 * @reserved_out: zero
 * @results: per prep mode (DMAENGINE_BENCH_MODE_*), every mode that ran;
 *	the last member, so that it grows by its entries: a caller whose
 *	->size is smaller than the kernel's has entries of (->size -
 *	offsetof(results)) / DMAENGINE_BENCH_MAX_PREP_MODES bytes (rounded
 *	down to 8), and the kernel writes them that far apart, each cut to
 *	that size. Read the entries @result_size apart.
 *
 * With DMAENGINE_BENCH_F_DISTINCT every batch of a run copies its own
 * source folios into its own destination folios (@bytes_per_channel of
 * each per channel, allocated before the first run); each batch's tables
 * are mapped before its first prep and unmapped after its completion.
 * Without it, one batch of folios is copied again and again, mapped once
 * per run.
 *
 * With DMAENGINE_BENCH_F_SKIP_MISSING, a prep mode the kernel or a channel
 * lacks (memcpy_sg on a kernel without DMA_MEMCPY_SG, memcpy_vec on one
 * without DMA_MEMCPY_VEC) is left out instead of failing the call, as long
 * as one mode remains.
 *
 * Source and destination tables are built with entries no longer than the
 * DMA device's max_seg_size: a folio larger than that takes several.
 */
struct dmaengine_benchmark {
	__u32 size;
	__u32 flags;
	__u32 prep_modes;
	__u32 channels;
	__u32 folio_order;
	__u32 dst_folio_order;
	__u32 sge;
	__u32 depth;
	__u64 bytes_per_channel;
	__u32 runs;
	__u32 warmup_runs;
	__s32 src_node;
	__s32 dst_node;
	__u32 timeout_ms;
	__u32 sample_size;
	char channel[DMAENGINE_BENCH_NAME_LEN];
	char device[DMAENGINE_BENCH_NAME_LEN];
	__u64 samples_ptr;
	__u32 samples_len;
	__u32 nr_cpus;
	__u64 cpus_ptr;
	__u64 channels_ptr;
	__u64 reserved_in[4];

	__u32 error;
	__u32 error_channel;
	__u32 error_run;
	__u32 error_prep_mode;
	__u32 channels_used;
	__u32 samples_written;
	__u32 prep_modes_run;
	__u32 result_size;
	__u64 acquire_ns;
	__u64 batches_per_channel;
	__u64 buffer_bytes;
	__u64 reserved_out[1];
	struct dmaengine_bench_result results[DMAENGINE_BENCH_MAX_PREP_MODES];
};

/* ------------------------------------------------------------------ */
/* Migration copy offload: /sys/kernel/debug/dmaengine_benchmark      */
/* ------------------------------------------------------------------ */

/*
 * DMA_MIGRATE_OFFLOAD makes the dmaengine client page migration's copy
 * offload, on a kernel with a migration copy-offload hook (the project's
 * kernel/patches/v7.3-migrate/, or the RFC series it is shaped after).
 * DMA_MIGRATE_OP_START requests the channels and registers with the hook:
 * from then on, migrations of the reasons in ->reasons copy their batches
 * of folios over the channels with ->prep_mode, until DMA_MIGRATE_OP_STOP
 * or until the file that started it is closed. A folio the offload did not
 * copy (an error, a timeout, an unbound provider) is copied by the CPU, as
 * without the offload. DMA_MIGRATE_OP_STATS reads the counters since the
 * start (or the last DMA_MIGRATE_F_RESET) without stopping. STATS and STOP
 * on a file that has not started the offload (or has stopped it) fail with
 * EINVAL, ->error DMAENGINE_BENCH_ERR_INVAL. Every answer, a failed one
 * too, sets ->hook and ->active: a caller learns from a refused START
 * whether the kernel has a hook at all. The structure is extensible like
 * struct dmaengine_benchmark: ->size first.
 */
#define DMA_MIGRATE_OFFLOAD	_IOWR('d', 4, struct dma_migrate_offload)

#define DMA_MIGRATE_OFFLOAD_SIZE_VER1	272	/* sizeof first published */
#define DMA_MIGRATE_OFFLOAD_SIZE_VER2	288	/* + build_ns, mark_ns */
#define DMA_MIGRATE_OFFLOAD_SIZE_VER3	320	/* + folios_lost ... async_max_ns */
#define DMA_MIGRATE_OFFLOAD_SIZE_VER4	328	/* + phases */

/* ->op */
enum {
	DMA_MIGRATE_OP_START,	/* request channels, register the offload */
	DMA_MIGRATE_OP_STOP,	/* unregister, release the channels */
	DMA_MIGRATE_OP_STATS,	/* read the counters */
	DMA_MIGRATE_NR_OPS
};

/* ->reasons: the migrations to offload, by reason */
#define DMA_MIGRATE_R_SYSCALL		0x1U /* move_pages(), migrate_pages() */
#define DMA_MIGRATE_R_NUMA_MISPLACED	0x2U /* NUMA balancing */
#define DMA_MIGRATE_R_DEMOTION		0x4U /* memory tiering demotion */
#define DMA_MIGRATE_R_COMPACTION	0x8U /* compaction */
#define DMA_MIGRATE_R_ALL		(DMA_MIGRATE_R_SYSCALL | \
					 DMA_MIGRATE_R_NUMA_MISPLACED | \
					 DMA_MIGRATE_R_DEMOTION | \
					 DMA_MIGRATE_R_COMPACTION)

/* ->hook: which copy-offload hook the running kernel has */
enum {
	DMA_MIGRATE_HOOK_NONE,		/* none: offload impossible */
	DMA_MIGRATE_HOOK_PROJECT,	/* kernel/patches/v7.3-migrate/ */
	DMA_MIGRATE_HOOK_RFC		/* the RFC series' interface */
};

/* ->flags */
#define DMA_MIGRATE_F_ALLOW_FEWER	0x1U /* START on the channels found */
#define DMA_MIGRATE_F_RESET		0x2U /* STATS: clear after reading */
#define DMA_MIGRATE_F_ALL		(DMA_MIGRATE_F_ALLOW_FEWER | \
					 DMA_MIGRATE_F_RESET)

/**
 * struct dma_migrate_offload_phases - where the offload's time went,
 *	summed over batches (and over channels for the per-channel phases)
 * @batch_ns: time in the hook's copy callback, from entry to return: the
 *	offload's whole share of migration
 * @map_ns: mapping the batch's source and destination folios
 * @prep_ns: prep calls
 * @submit_ns: dmaengine_submit()
 * @issue_ns: dma_async_issue_pending()
 * @wait_ns: waiting for the descriptors to complete
 * @unmap_ns: unmapping
 * @reserved: zero
 *
 * The CPU copy of the folios that fell back is not in any of these: the
 * hook's caller does it after the callback returned.
 */
struct dma_migrate_offload_phases {
	__u64 batch_ns;
	__u64 map_ns;
	__u64 prep_ns;
	__u64 submit_ns;
	__u64 issue_ns;
	__u64 wait_ns;
	__u64 unmap_ns;
	__u64 reserved;
};

/**
 * struct dma_migrate_offload - argument and result of DMA_MIGRATE_OFFLOAD
 * @size: sizeof(struct dma_migrate_offload) as userspace knows it
 * @op: DMA_MIGRATE_OP_*
 * @flags: DMA_MIGRATE_F_*
 * @prep_mode: START: DMAENGINE_BENCH_MODE_MEMCPY, _MEMCPY_SG or
 *	_MEMCPY_VEC (not _CPU: the CPU copy is the offload switched off)
 * @channels: START: channels to copy over, 1..DMAENGINE_BENCH_MAX_CHANNELS;
 *	a batch's folios are shared out among them
 * @reasons: START: DMA_MIGRATE_R_* bits, at least one
 * @timeout_ms: START: how long one batch may take before its folios fall
 *	back to the CPU; 0: DMAENGINE_BENCH_DEFAULT_TIMEOUT_MS
 * @min_folios: START: a batch of fewer folios is left to the CPU; 0 or 1:
 *	every batch is offloaded
 * @channel: START: only channels whose name matches this, empty: any
 * @device: START: only channels of the DMA device with this dev_name()
 * @reserved_in: zero
 * @error: enum dmaengine_bench_error when the ioctl fails
 * @hook: every op, failed ones too: DMA_MIGRATE_HOOK_* of the running kernel
 * @active: every op, failed ones too: 1 while this file's offload is
 *	registered
 * @channels_used: channels the offload copies over
 * @prep_mode_used: the prep mode it copies with
 * @reserved_out0: zero
 * @batches: batches the hook handed to the offload
 * @folios: folios in them
 * @folios_offloaded: folios the engine copied (marked copied for the hook)
 * @folios_fallback: folios of batches the offload took that the engine
 *	did not copy (a failed share, a source flagged hwpoison): the CPU
 *	copied them
 * @bytes: bytes the engine copied
 * @descriptors: descriptors submitted
 * @errors: batches the offload took that failed (an error, the deadline,
 *	an unbound provider)
 * @ph: phase times
 * @batches_declined: batches the offload did not take (smaller than
 *	min_folios, no channel free, a provider unbound): neither errors nor
 *	fallbacks, the CPU copied them as without an offload
 * @folios_declined: folios in those; @folios is @folios_offloaded +
 *	@folios_fallback + @folios_declined
 * @build_ns: (VER2) phase time building the shares' tables from the
 *	batch's folio lists, in the hook, summed over channels
 * @mark_ns: (VER2) phase time marking the destination folios copied
 * @folios_lost: (VER3) folios of failed batches whose copy could not be
 *	stopped within the drain bound: not migrated (the kernel's hook
 *	failed their move with -EBUSY), their destinations quarantined; not
 *	in @folios_fallback
 * @folios_released: (VER3) of those, destinations given back since, their
 *	engine done; @folios_lost - @folios_released are still quarantined
 * @async_batches: (VER3) batches handed over by a MIGRATE_ASYNC caller
 *	(NUMA balancing, async compaction), which the offload waits for
 *	10 ms at most (DMAENGINE_MIGRATE_ASYNC_WAIT_MS), and a jiffy
 *	of drain after that
 * @async_max_ns: (VER3) the longest such a batch spent in the hook
 * @phases: (VER4) STATS and STOP: DMAENGINE_BENCH_PHASE_BIT() of each
 *	phase of DMAENGINE_BENCH_PHASES the kernel filled (those with
 *	@migrate 1, in @ph or the fields above); 0 from a kernel before
 *	this field: DMA_MIGRATE_PHASES_VER3
 */
struct dma_migrate_offload {
	__u32 size;
	__u32 op;
	__u32 flags;
	__u32 prep_mode;
	__u32 channels;
	__u32 reasons;
	__u32 timeout_ms;
	__u32 min_folios;
	char channel[DMAENGINE_BENCH_NAME_LEN];
	char device[DMAENGINE_BENCH_NAME_LEN];
	__u64 reserved_in[2];

	__u32 error;
	__u32 hook;
	__u32 active;
	__u32 channels_used;
	__u32 prep_mode_used;
	__u32 reserved_out0;
	__u64 batches;
	__u64 folios;
	__u64 folios_offloaded;
	__u64 folios_fallback;
	__u64 bytes;
	__u64 descriptors;
	__u64 errors;
	struct dma_migrate_offload_phases ph;
	__u64 batches_declined;
	__u64 folios_declined;
	__u64 build_ns;
	__u64 mark_ns;
	__u64 folios_lost;
	__u64 folios_released;
	__u64 async_batches;
	__u64 async_max_ns;
	__u64 phases;
};

#endif /* _UAPI_LINUX_MAP_BENCHMARK_H */
