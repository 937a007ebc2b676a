// SPDX-License-Identifier: GPL-2.0-only
/*
 * The counter's task tracking, for dcount.t: run under qemu-aarch64 with
 * scripts/qemu-plugin/dcount.so given switch= the address of
 * fake_switch, a stand-in for the kernel's cpu_switch_to whose first
 * restore, ldp x19, x20, [x8], #16, reads the next task's saved context
 * at x8 (that address names the task). Between two dumps:
 *
 *   switch to task A; open a window (kind test, owner A); dsb ish x1;
 *   switch to task B; dsb ish x2 (not A's: excluded); switch to task A;
 *   dsb ish x1; close
 *
 * So for kind test: 1 window, dsb_ish 2 (min 2, max 2), excluded 2. A
 * plugin that never sees the switches counts 4 and excludes nothing:
 * QEMU 7.2 calls no memory callback registered for loads alone
 * (QEMU_PLUGIN_MEM_R), which is how the tracking was once dead.
 */
#include <stdio.h>

static unsigned long ctx_a[12], ctx_b[12];

asm(".text\n"
    ".globl fake_switch\n"
    ".type fake_switch, %function\n"
    ".balign 64\n"
    "fake_switch:\n"
    "	nop\n"
    "	nop\n"
    "	ldp x19, x20, [x8], #16\n"
    "	ret\n"
    ".size fake_switch, . - fake_switch\n");

int main(void)
{
	asm volatile(
		"hint #0x6f\n"				/* dump: start clean */
		"mov x8, %[a]\n bl fake_switch\n"	/* task A runs */
		"hint #0x6d\n"				/* open: kind test */
		"dsb ish\n"
		"mov x8, %[b]\n bl fake_switch\n"	/* task B */
		"dsb ish\n dsb ish\n"
		"mov x8, %[a]\n bl fake_switch\n"	/* task A again */
		"dsb ish\n"
		"hint #0x6e\n"				/* close */
		"hint #0x6f\n"				/* dump */
		:
		: [a] "r" (ctx_a), [b] "r" (ctx_b)
		: "x8", "x19", "x20", "x30", "memory");
	puts("switch: done");
	return 0;
}
