/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Mean and sample standard deviation, one value at a time (Welford).
 */
#ifndef DMABENCH_STATS_H
#define DMABENCH_STATS_H

struct stat_acc {
	unsigned long n;
	double mean;
	double m2;	/* sum of squared distances from the mean */
};

static inline void stat_init(struct stat_acc *a)
{
	a->n = 0;
	a->mean = 0;
	a->m2 = 0;
}

void stat_add(struct stat_acc *a, double x);
double stat_mean(const struct stat_acc *a);
/* stat_stddev() - sample standard deviation (n - 1), as the kernel's; 0 if n < 2 */
double stat_stddev(const struct stat_acc *a);

#endif
