// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory tagging (arm64 MTE) for the guest's migration programs: a
 * buffer's granules tagged, and after a move the tags and the data read
 * back through them (migrate_mte.h).
 */
#define _GNU_SOURCE
#define __SANE_USERSPACE_TYPES__
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/prctl.h>
#if defined(__aarch64__)
#include <sys/auxv.h>
#endif

#include "migrate_mte.h"
#include "migrate_util.h"

#if defined(__aarch64__)
#define MTE_HWCAP2		(1UL << 18)
#define MTE_GRANULE		16
#ifndef PR_SET_TAGGED_ADDR_CTRL
#define PR_SET_TAGGED_ADDR_CTRL	55
#define PR_TAGGED_ADDR_ENABLE	(1UL << 0)
#endif
#ifndef PR_MTE_TCF_SYNC
#define PR_MTE_TCF_SYNC		(1UL << 1)
#define PR_MTE_TAG_SHIFT	3
#endif

void mte_unchecked(void)
{
	if (prctl(PR_SET_TAGGED_ADDR_CTRL, PR_TAGGED_ADDR_ENABLE, 0, 0, 0))
		perror("prctl(PR_SET_TAGGED_ADDR_CTRL, no tag checks)");
}

bool mte_enable(void)
{
	if (!(getauxval(AT_HWCAP2) & MTE_HWCAP2)) {
		printf("no MTE here (HWCAP2_MTE): QEMU's virt machine has it with mte=on and -cpu max\n");
		return false;
	}
	if (prctl(PR_SET_TAGGED_ADDR_CTRL, PR_TAGGED_ADDR_ENABLE |
		  PR_MTE_TCF_SYNC | (0xfffeUL << PR_MTE_TAG_SHIFT), 0, 0, 0)) {
		perror("prctl(PR_SET_TAGGED_ADDR_CTRL)");
		return false;
	}
	return true;
}

static char *mte_ptr(const char *p, unsigned int tag)
{
	return (char *)(((uintptr_t)p & ~(0xfUL << 56)) |
			((uintptr_t)tag << 56));
}

/* The tag of granule @g of the buffer: 1 to 15, never the default 0 */
static unsigned int mte_tag(size_t g)
{
	return 1 + g % 15;
}

void mte_set_tags(char *buf, size_t len)
{
	size_t off;

	for (off = 0; off < len; off += MTE_GRANULE) {
		/* stg x0, [x0], encoded: assemblers before v8.5 know no stg */
		register char *x0 asm("x0") =
			mte_ptr(buf + off, mte_tag(off / MTE_GRANULE));

		asm volatile(".inst 0xd9200800" : : "r" (x0) : "memory");
	}
}

/*
 * Every granule's tag as set, read back with ldg, and its words as
 * filled, read through a pointer of that tag: a tag the move lost reads
 * back as another (0) and faults (SIGSEGV, SEGV_MTESERR) on the read.
 */
bool mte_verify(const char *buf, unsigned long n, long psize)
{
	size_t off, len = n * psize;

	for (off = 0; off < len; off += MTE_GRANULE) {
		unsigned int want = mte_tag(off / MTE_GRANULE), got;
		/* ldg x0, [x0], encoded */
		register char *x0 asm("x0") = mte_ptr(buf + off, 0);
		const uint64_t *v;
		size_t w;

		asm volatile(".inst 0xd9600000" : "+r" (x0) : : "memory");
		got = ((uintptr_t)x0 >> 56) & 0xf;
		if (got != want) {
			printf("MTE tag of byte %zu: %u, set %u\n", off, got,
			       want);
			return false;
		}
		v = (const uint64_t *)mte_ptr(buf + off, want);
		for (w = 0; w < MTE_GRANULE / sizeof(*v); w++) {
			size_t word = (off % psize) / sizeof(*v) + w;

			if (v[w] != mu_pattern(off / psize, word, 0)) {
				printf("data differs: byte %zu of the tagged buffer\n",
				       off + w * sizeof(*v));
				return false;
			}
		}
	}
	return true;
}
#else
bool mte_enable(void)
{
	printf("expect=mte: MTE is an arm64 extension\n");
	return false;
}

void mte_unchecked(void)
{
}

void mte_set_tags(char *buf, size_t len)
{
	(void)buf;
	(void)len;
}

bool mte_verify(const char *buf, unsigned long n, long psize)
{
	(void)buf;
	(void)n;
	(void)psize;
	return false;
}
#endif
