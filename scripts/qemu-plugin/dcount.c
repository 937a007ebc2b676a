// SPDX-License-Identifier: GPL-2.0-only
/*
 * dcount: a QEMU TCG plugin counting the AArch64 data-cache maintenance
 * instructions (DC, and IC by kind) and barriers (DSB by domain and type,
 * DMB, ISB) a guest executes, inside windows the guest opens and closes
 * itself with marker instructions. QEMU 7.2's plugin API (version 1).
 *
 * Markers: HINT #imm, which the architecture leaves unallocated for these
 * immediates, so that they execute as NOPs on hardware and in QEMU:
 *   HINT #0x68 + k  (k = 0..5)  open a window of kind k on this vCPU
 *   HINT #0x6e                  close this vCPU's window
 *   HINT #0x6f                  dump every count to the output and reset
 * The map modes of dma_map_benchmark.ko open kind 0 around dma_map_*(),
 * 1 around dma_unmap_*(), 2 and 3 around dma_sync_*_for_cpu() and
 * _for_device(), 4 around nothing (the empty window: the baseline); kind 5
 * is for test programs. A window counts only on the vCPU that opened it;
 * one its task closes on another vCPU (it migrated) is abandoned: dropped
 * when the next window opens on its vCPU, and reported as such.
 *
 * Exceptions: with vectors=ADDR (the kernel's VBAR_EL1 table, the symbol
 * `vectors` of System.map), an exception taken while a window is open
 * (an entry of the table executes) stops the counting until the matching
 * ERET, so that an interrupt's handler is not counted; the window is
 * marked interrupted. Without vectors= (user mode) nothing is excluded.
 *
 * Tasks: with switch=ADDR (the symbol cpu_switch_to), the plugin knows
 * which task runs on each vCPU: the first load of cpu_switch_to reads the
 * next task's saved context, whose address names the task. A window
 * belongs to the task that opened it: what other tasks run on the vCPU
 * meanwhile (a preemption from an interrupt, whose ERET is then another
 * task's) is not counted, and only the owner's exceptions and ERETs pair.
 *
 * Output (out=FILE, appended, else stderr): "dcount 0 start vectors ADDR"
 * when QEMU loads it, then one line a figure at each dump and at exit, SEQ
 * counting the dumps from 1:
 *   dcount SEQ window KIND windows N interrupted N excluded N abandoned N
 *     unbalanced N (closed at an exception depth above 0: an ERET unseen)
 *   dcount SEQ count KIND EVENT SUM MIN MAX   (per window: MIN and MAX)
 *   dcount SEQ outside EVENT SUM              (all vCPUs, outside windows)
 *   dcount SEQ switches SEEN TRACKED  (with switch=: cpu_switch_to entered,
 *     and the next task learnt from its load; TRACKED < SEEN: the
 *     tracking failed, and windows may have counted other tasks)
 *   dcount SEQ end
 * Only events that occurred are listed; an event absent is 0.
 *
 * usage: -plugin PATH/dcount.so,out=FILE[,vectors=0xADDR,switch=0xADDR]
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_VCPUS	64
#define NR_KINDS	6
#define HINT_OPEN	0x68
#define HINT_CLOSE	0x6e
#define HINT_DUMP	0x6f

static const char *const kind_names[NR_KINDS] = {
	"map", "unmap", "sync_cpu", "sync_device", "empty", "test",
};

enum event {
	DC_IVAC, DC_ISW, DC_CSW, DC_CISW, DC_ZVA, DC_CVAC, DC_CVAU, DC_CIVAC,
	DC_CVAP, DC_CVADP, DC_OTHER, IC_IALLUIS, IC_IALLU, IC_IVAU,
	/* dsb_oshld is CRm 1: index = EV_DSB + CRm - 1 */
	EV_DSB, EV_DMB = EV_DSB + 15, EV_ISB = EV_DMB + 15, EV_SB,
	NR_EVENTS,
	/* not counted: markers and exception bookkeeping */
	EV_OPEN = 100, EV_CLOSE = EV_OPEN + NR_KINDS, EV_DUMP, EV_VECTOR,
	EV_ERET, EV_SWITCH,
};

static const char *const barrier_domains[16] = {
	NULL, "oshld", "oshst", "osh", NULL, "nshld", "nshst", "nsh",
	NULL, "ishld", "ishst", "ish", NULL, "ld", "st", "sy",
};

static const char *const dc_names[EV_DSB] = {
	"dc_ivac", "dc_isw", "dc_csw", "dc_cisw", "dc_zva", "dc_cvac",
	"dc_cvau", "dc_civac", "dc_cvap", "dc_cvadp", "dc_other",
	"ic_ialluis", "ic_iallu", "ic_ivau",
};

static void event_name(int ev, char *buf, size_t len)
{
	if (ev < EV_DSB)
		snprintf(buf, len, "%s", dc_names[ev]);
	else if (ev < EV_DMB)
		snprintf(buf, len, "dsb_%s", barrier_domains[ev - EV_DSB + 1]);
	else if (ev < EV_ISB)
		snprintf(buf, len, "dmb_%s", barrier_domains[ev - EV_DMB + 1]);
	else if (ev == EV_ISB)
		snprintf(buf, len, "isb");
	else
		snprintf(buf, len, "sb");
}

struct kind_stat {
	uint64_t windows, interrupted, excluded, abandoned, unbalanced;
	uint64_t sum[NR_EVENTS], min[NR_EVENTS], max[NR_EVENTS];
};

struct vcpu {
	int open;		/* kind + 1 of the open window, 0: none */
	uint64_t cur;		/* the task running (its saved context), or 0 */
	uint64_t owner;		/* the task that opened the window */
	bool switching;		/* in cpu_switch_to, before its first load */
	int depth;		/* the owner's exceptions taken inside the window */
	bool interrupted;
	uint64_t excluded;	/* counted events inside its exceptions */
	uint64_t count[NR_EVENTS];	/* the open window's */
	struct kind_stat kind[NR_KINDS];
};

static struct vcpu vcpus[MAX_VCPUS];
static uint64_t outside[NR_EVENTS];
static uint64_t vectors, switch_to, seq, lost_vcpus;
/* cpu_switch_to entered, and the next task learnt from its load */
static uint64_t switches_seen, switches_tracked;
static FILE *out;
static pthread_mutex_t dump_lock = PTHREAD_MUTEX_INITIALIZER;

/* The event of one instruction word, or -1: not one of ours. */
static int classify(uint32_t insn)
{
	unsigned int crm = (insn >> 8) & 0xf, op2 = (insn >> 5) & 7;

	if ((insn & 0xfffff01f) == 0xd503201f) {	/* HINT */
		unsigned int imm = (insn >> 5) & 0x7f;

		if (imm >= HINT_OPEN && imm < HINT_OPEN + NR_KINDS)
			return EV_OPEN + imm - HINT_OPEN;
		if (imm == HINT_CLOSE)
			return EV_CLOSE;
		if (imm == HINT_DUMP)
			return EV_DUMP;
		return -1;
	}
	if ((insn & 0xfffff01f) == 0xd503301f) {	/* barriers */
		switch (op2) {
		case 4:
			/* CRm 0 and 4 are SSBB and PSSBB */
			return barrier_domains[crm] ? EV_DSB + (int)crm - 1 : -1;
		case 5:
			return barrier_domains[crm] ? EV_DMB + (int)crm - 1 : -1;
		case 6:
			return EV_ISB;
		case 7:
			return EV_SB;
		}
		return -1;
	}
	/* SYS #op1, C7, Cm, #op2, Xt (L = 0) */
	if ((insn & 0xfff8f000) == 0xd5087000) {
		unsigned int op1 = (insn >> 16) & 7;

		switch (op1 << 8 | crm << 4 | op2) {
		case 0x061: return DC_IVAC;
		case 0x062: return DC_ISW;
		case 0x0a2: return DC_CSW;
		case 0x0e2: return DC_CISW;
		case 0x341: return DC_ZVA;
		case 0x3a1: return DC_CVAC;
		case 0x3b1: return DC_CVAU;
		case 0x3e1: return DC_CIVAC;
		case 0x3c1: return DC_CVAP;
		case 0x3d1: return DC_CVADP;
		case 0x010: return IC_IALLUIS;
		case 0x050: return IC_IALLU;
		case 0x351: return IC_IVAU;
		}
		/* AT (Cm 8, 9) is address translation, not cache maintenance */
		if (crm == 8 || crm == 9)
			return -1;
		return DC_OTHER;
	}
	if (insn == 0xd69f03e0 || insn == 0xd69f0bff || insn == 0xd69f0fff)
		return EV_ERET;
	return -1;
}

static void close_window(struct vcpu *v)
{
	struct kind_stat *k = &v->kind[v->open - 1];
	int e;

	for (e = 0; e < NR_EVENTS; e++) {
		uint64_t c = v->count[e];

		k->sum[e] += c;
		if (!k->windows || c < k->min[e])
			k->min[e] = c;
		if (c > k->max[e])
			k->max[e] = c;
		v->count[e] = 0;
	}
	k->windows++;
	/* closed by its task at exception depth > 0: an ERET not seen */
	k->unbalanced += v->depth != 0;
	k->interrupted += v->interrupted;
	k->excluded += v->excluded;
	v->open = 0;
	v->owner = 0;
	v->depth = 0;
	v->interrupted = false;
	v->excluded = 0;
}

/*
 * A window whose task moved to another vCPU before closing it: that
 * vCPU had no window to close, and this one's is dropped, not counted.
 */
static void abandon_window(struct vcpu *v)
{
	v->kind[v->open - 1].abandoned++;
	memset(v->count, 0, sizeof(v->count));
	v->open = 0;
	v->owner = 0;
	v->depth = 0;
	v->interrupted = false;
	v->excluded = 0;
}

static void dump(void)
{
	char name[32];
	unsigned int i;
	int kd, e;

	pthread_mutex_lock(&dump_lock);
	seq++;
	for (kd = 0; kd < NR_KINDS; kd++) {
		struct kind_stat t = { 0 };

		for (i = 0; i < MAX_VCPUS; i++) {
			struct kind_stat *k = &vcpus[i].kind[kd];

			t.abandoned += k->abandoned;
			if (!k->windows) {
				k->abandoned = 0;
				continue;
			}
			for (e = 0; e < NR_EVENTS; e++) {
				if (!t.windows || k->min[e] < t.min[e])
					t.min[e] = k->min[e];
				if (k->max[e] > t.max[e])
					t.max[e] = k->max[e];
				t.sum[e] += k->sum[e];
			}
			t.windows += k->windows;
			t.interrupted += k->interrupted;
			t.unbalanced += k->unbalanced;
			t.excluded += k->excluded;
			memset(k, 0, sizeof(*k));
		}
		if (!t.windows && !t.abandoned)
			continue;
		fprintf(out, "dcount %" PRIu64 " window %s windows %" PRIu64
			" interrupted %" PRIu64 " excluded %" PRIu64
			" abandoned %" PRIu64 " unbalanced %" PRIu64 "\n",
			seq, kind_names[kd], t.windows, t.interrupted,
			t.excluded, t.abandoned, t.unbalanced);
		for (e = 0; e < NR_EVENTS; e++) {
			if (!t.sum[e])
				continue;
			event_name(e, name, sizeof(name));
			fprintf(out, "dcount %" PRIu64 " count %s %s %" PRIu64
				" %" PRIu64 " %" PRIu64 "\n", seq,
				kind_names[kd], name, t.sum[e], t.min[e],
				t.max[e]);
		}
	}
	for (e = 0; e < NR_EVENTS; e++) {
		uint64_t c = __atomic_exchange_n(&outside[e], 0,
						 __ATOMIC_RELAXED);

		if (!c)
			continue;
		event_name(e, name, sizeof(name));
		fprintf(out, "dcount %" PRIu64 " outside %s %" PRIu64 "\n",
			seq, name, c);
	}
	if (switch_to)
		fprintf(out, "dcount %" PRIu64 " switches %" PRIu64 " %" PRIu64 "\n",
			seq, __atomic_exchange_n(&switches_seen, 0, __ATOMIC_RELAXED),
			__atomic_exchange_n(&switches_tracked, 0, __ATOMIC_RELAXED));
	if (lost_vcpus)
		fprintf(out, "dcount %" PRIu64 " lost_vcpus %" PRIu64 "\n",
			seq, lost_vcpus);
	fprintf(out, "dcount %" PRIu64 " end\n", seq);
	fflush(out);
	pthread_mutex_unlock(&dump_lock);
}

static void insn_exec(unsigned int vcpu_index, void *udata)
{
	int ev = (int)(uintptr_t)udata;
	struct vcpu *v;

	if (vcpu_index >= MAX_VCPUS) {
		__atomic_fetch_add(&lost_vcpus, 1, __ATOMIC_RELAXED);
		return;
	}
	v = &vcpus[vcpu_index];

	if (ev >= EV_OPEN && ev < EV_OPEN + NR_KINDS) {
		if (v->open)	/* left open: its task closed it elsewhere */
			abandon_window(v);
		v->open = ev - EV_OPEN + 1;
		v->owner = v->cur;
		return;
	}
	switch (ev) {
	case EV_SWITCH:
		v->switching = true;
		__atomic_fetch_add(&switches_seen, 1, __ATOMIC_RELAXED);
		return;
	case EV_CLOSE:
		if (v->open && v->cur == v->owner)
			close_window(v);
		return;
	case EV_DUMP:
		dump();
		return;
	case EV_VECTOR:
		if (v->open && v->cur == v->owner) {
			v->depth++;
			v->interrupted = true;
		}
		return;
	case EV_ERET:
		if (v->open && v->cur == v->owner && v->depth)
			v->depth--;
		return;
	}
	if (v->open && !v->depth && v->cur == v->owner)
		v->count[ev]++;
	else if (v->open)
		v->excluded++;
	else
		__atomic_fetch_add(&outside[ev], 1, __ATOMIC_RELAXED);
}

/* cpu_switch_to's loads: the first names the next task */
static void switch_load(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
			uint64_t vaddr, void *udata)
{
	struct vcpu *v;

	(void)udata;
	if (vcpu_index >= MAX_VCPUS || qemu_plugin_mem_is_store(info))
		return;
	v = &vcpus[vcpu_index];
	if (v->switching) {
		v->cur = vaddr;
		v->switching = false;
		__atomic_fetch_add(&switches_tracked, 1, __ATOMIC_RELAXED);
	}
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	(void)id;
	size_t n = qemu_plugin_tb_n_insns(tb), i;

	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t va = qemu_plugin_insn_vaddr(insn);
		uint32_t word;
		int ev;

		if (qemu_plugin_insn_size(insn) != 4)
			continue;
		memcpy(&word, qemu_plugin_insn_data(insn), 4);
		ev = classify(word);
		/* an entry of the vector table: 16 of 0x80 bytes each */
		if (vectors && va >= vectors && va < vectors + 0x800 &&
		    !((va - vectors) & 0x7f))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, insn_exec,
				QEMU_PLUGIN_CB_NO_REGS,
				(void *)(uintptr_t)EV_VECTOR);
		if (switch_to && va == switch_to)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, insn_exec,
				QEMU_PLUGIN_CB_NO_REGS,
				(void *)(uintptr_t)EV_SWITCH);
		/*
		 * its first restore, ldp x19, x20, [x8], #16 with x8 the next
		 * task's saved context: only that instruction (a wider range
		 * took call_on_irq_stack's loads, which follows it, for it).
		 * QEMU_PLUGIN_MEM_RW, though it only loads: QEMU 7.2 never
		 * calls a callback registered for QEMU_PLUGIN_MEM_R alone
		 * (the tracking was dead with it, every task the owner)
		 */
		if (switch_to && va > switch_to && va < switch_to + 256 &&
		    word == 0xa8c15113)
			qemu_plugin_register_vcpu_mem_cb(insn, switch_load,
				QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW,
				NULL);
		if (ev >= 0)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, insn_exec,
				QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)ev);
	}
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	(void)id;
	(void)p;
	dump();
	if (out != stderr)
		fclose(out);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *path = NULL;
	int i;

	if (strcmp(info->target_name, "aarch64")) {
		fprintf(stderr, "dcount: counts AArch64 instructions; this QEMU emulates %s\n",
			info->target_name);
		return -1;
	}
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			path = argv[i] + 4;
		} else if (!strncmp(argv[i], "vectors=", 8)) {
			char *end;

			vectors = strtoull(argv[i] + 8, &end, 0);
			if (*end || !vectors || vectors & 0x7ff) {
				fprintf(stderr, "dcount: vectors=%s: want the 2 KiB-aligned address of the vector table\n",
					argv[i] + 8);
				return -1;
			}
		} else if (!strncmp(argv[i], "switch=", 7)) {
			char *end;

			switch_to = strtoull(argv[i] + 7, &end, 0);
			if (*end || !switch_to || switch_to & 3) {
				fprintf(stderr, "dcount: switch=%s: want the address of cpu_switch_to\n",
					argv[i] + 7);
				return -1;
			}
		} else {
			fprintf(stderr, "dcount: unknown argument %s (out=FILE, vectors=ADDR, switch=ADDR)\n",
				argv[i]);
			return -1;
		}
	}
	out = stderr;
	if (path) {
		out = fopen(path, "a");
		if (!out) {
			perror(path);
			return -1;
		}
	}
	/* a harness that boots again appends: the last start is this QEMU */
	fprintf(out, "dcount 0 start vectors 0x%" PRIx64 " switch 0x%" PRIx64 "\n",
		vectors, switch_to);
	fflush(out);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
