/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Mean and sample standard deviation, one value at a time (Welford).
 */
#ifndef DMABENCH_STATS_H
#define DMABENCH_STATS_H

#include <math.h>

struct stat_acc {
	unsigned long n;
	double mean;
	double m2;	/* sum of squared distances from the mean */
};

static inline void stat_init(struct stat_acc *a)
{
	*a = (struct stat_acc){ .n = 0 };
}

static inline void stat_add(struct stat_acc *a, double x)
{
	double delta = x - a->mean;

	a->n++;
	a->mean += delta / a->n;
	a->m2 += delta * (x - a->mean);
}

static inline double stat_mean(const struct stat_acc *a)
{
	return a->mean;
}

/* stat_stddev() - sample standard deviation (n - 1), as the kernel's; 0 if n < 2 */
static inline double stat_stddev(const struct stat_acc *a)
{
	return a->n < 2 ? 0 : sqrt(a->m2 / (a->n - 1));
}

#endif
