// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mean and sample standard deviation, one value at a time (Welford).
 */
#include <math.h>

#include "stats.h"

void stat_add(struct stat_acc *a, double x)
{
	double delta = x - a->mean;

	a->n++;
	a->mean += delta / a->n;
	a->m2 += delta * (x - a->mean);
}

double stat_mean(const struct stat_acc *a)
{
	return a->mean;
}

double stat_stddev(const struct stat_acc *a)
{
	return a->n < 2 ? 0 : sqrt(a->m2 / (a->n - 1));
}
