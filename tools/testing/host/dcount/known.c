// SPDX-License-Identifier: GPL-2.0-only
/*
 * A program with known numbers of cache-maintenance instructions and
 * barriers, inside and outside the counter's windows, for dcount.t: run
 * under qemu-aarch64 with scripts/qemu-plugin/dcount.so. Everything the
 * test checks is in one asm block between two dump markers, so the C
 * library's own barriers (before the first dump) are not in it:
 *
 *   outside any window: dsb sy x3, dmb ish x2, isb x1, dc cvac x4
 *   window 1 (kind test): 10 x { dc cvac, dc civac, dc cvau, dsb ish },
 *     then dsb sy, dmb ishld, isb x2, dc zva, dsb st
 *   window 2 (kind test): nothing
 *   window 3 (kind test): dsb ish x1
 *   outside again: dsb nsh x5
 *
 * So for kind test: 3 windows; dsb_ish sum 11, min 0, max 10; dc_cvac,
 * dc_civac and dc_cvau 10 each (min 0, max 10); dsb_sy, dmb_ishld, dc_zva,
 * dsb_st 1 each; isb 2. Outside: dsb_sy 3, dmb_ish 2, isb 1, dc_cvac 4,
 * dsb_nsh 5.
 */
#include <stdio.h>

static unsigned char buf[4096] __attribute__((aligned(4096)));

int main(void)
{
	void *p = buf;
	long n = 10;

	asm volatile(
		"hint #0x6f\n"				/* dump: start clean */
		"dsb sy\n dsb sy\n dsb sy\n"
		"dmb ish\n dmb ish\n"
		"isb\n"
		"dc cvac, %[p]\n dc cvac, %[p]\n dc cvac, %[p]\n dc cvac, %[p]\n"
		"hint #0x6d\n"				/* open: kind test */
		"1:\n"
		"dc cvac, %[p]\n dc civac, %[p]\n dc cvau, %[p]\n dsb ish\n"
		"subs %[n], %[n], #1\n"
		"b.ne 1b\n"
		"dsb sy\n dmb ishld\n isb\n isb\n"
		"dc zva, %[p]\n"
		"dsb st\n"
		"hint #0x6e\n"				/* close */
		"hint #0x6d\n hint #0x6e\n"		/* an empty window */
		"hint #0x6d\n dsb ish\n hint #0x6e\n"
		"dsb nsh\n dsb nsh\n dsb nsh\n dsb nsh\n dsb nsh\n"
		"hint #0x6f\n"				/* dump */
		: [n] "+r" (n)
		: [p] "r" (p)
		: "memory", "cc");
	puts("known: done");
	return 0;
}
