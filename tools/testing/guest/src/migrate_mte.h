/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Memory tagging (arm64 MTE) for the guest's migration programs; on other
 * architectures mte_enable() says there is none, and the rest do nothing.
 */
#ifndef MIGRATE_MTE_H
#define MIGRATE_MTE_H

#include <stdbool.h>
#include <stddef.h>

/* mmap()'s PROT_MTE, 0 where there is no MTE */
#if defined(__aarch64__)
#define MTE_PROT	0x20
#else
#define MTE_PROT	0
#endif

/*
 * Tagged addresses on, tag check faults synchronous, every tag allowed;
 * false, saying why, where the machine has no MTE
 */
bool mte_enable(void);
/* Tag checks off: untagged reads of a buffer whose tags were not kept */
void mte_unchecked(void);
/* Tag every 16-byte granule of @buf, with tags 1 to 15 in turn */
void mte_set_tags(char *buf, size_t len);
/*
 * Every granule's tag as set and its words as filled (mu_pattern(),
 * generation 0), read through a pointer of that tag
 */
bool mte_verify(const char *buf, unsigned long n, long psize);

#endif
