// SPDX-License-Identifier: GPL-2.0-only
/*
 * HAVE_SYMBOL_NS_IDENTIFIER: a symbol namespace is a bare identifier, as up
 * to 6.12; from 6.13 it is a string literal, and this does not compile.
 */
#include <linux/module.h>

MODULE_IMPORT_NS(DMA_BENCH_PROBE_NS);
