// SPDX-License-Identifier: GPL-2.0-only
/*
 * Statistics shared by the map modes and the dmaengine mode.
 */

#include <linux/bitops.h>
#include <linux/math.h>
#include <linux/math64.h>
#include <linux/minmax.h>

#include "map_benchmark.h"

void mb_stat_add(struct mb_stat *s, u64 x)
{
	s64 d;

	if (!s->n) {
		s->shift = x;
		s->min = x;
		s->max = x;
	}
	d = (s64)(x - s->shift);
	s->n++;
	s->sum += d;
	s->sum_sq += (u64)(d * d);
	s->min = min(s->min, x);
	s->max = max(s->max, x);
}

/*
 * Re-base @src's sums on @dst's shift c: with d' = d + c,
 * sum d' = sum d + n c and sum d'^2 = sum d^2 + 2 c sum d + n c^2.
 * The intermediate terms may wrap; the result is exact as long as the
 * merged sum of squares fits, which the shift makes the common case.
 */
void mb_stat_merge(struct mb_stat *dst, const struct mb_stat *src)
{
	s64 c;

	if (!src->n)
		return;
	if (!dst->n) {
		*dst = *src;
		return;
	}
	c = (s64)(src->shift - dst->shift);
	dst->sum_sq += src->sum_sq + 2 * (u64)c * (u64)src->sum +
		       (u64)(c * c) * src->n;
	dst->sum += src->sum + c * (s64)src->n;
	dst->n += src->n;
	dst->min = min(dst->min, src->min);
	dst->max = max(dst->max, src->max);
}

u64 mb_stat_mean(const struct mb_stat *s)
{
	if (!s->n)
		return 0;
	return s->shift + div64_s64(s->sum, s->n);
}

/* Population standard deviation, as upstream's benchmark reports it. */
u64 mb_stat_stddev(const struct mb_stat *s)
{
	s64 mean_d;
	u64 mean_sq;

	if (!s->n)
		return 0;
	mean_d = div64_s64(s->sum, s->n);
	mean_sq = div64_u64(s->sum_sq, s->n);
	if (mean_sq <= (u64)(mean_d * mean_d))
		return 0;
	return int_sqrt64(mean_sq - (u64)(mean_d * mean_d));
}

/*
 * Two passes over a few values (runs). Deviations are scaled down to 28
 * bits before squaring, so that no sum of squares can overflow.
 */
void mb_mean_stddev(const u64 *v, unsigned int n, u64 *mean, u64 *stddev)
{
	u64 sum = 0, sq = 0, maxd = 0;
	unsigned int i, scale;

	*mean = 0;
	*stddev = 0;
	if (!n)
		return;
	for (i = 0; i < n; i++)
		sum += v[i];
	*mean = div64_u64(sum, n);
	if (n < 2)
		return;
	for (i = 0; i < n; i++)
		maxd = max(maxd, v[i] > *mean ? v[i] - *mean : *mean - v[i]);
	scale = fls64(maxd) > 28 ? fls64(maxd) - 28 : 0;
	for (i = 0; i < n; i++) {
		u64 d = v[i] > *mean ? v[i] - *mean : *mean - v[i];

		d >>= scale;
		sq += d * d;
	}
	*stddev = (u64)int_sqrt64(div64_u64(sq, n - 1)) << scale;
}

static unsigned int mb_hist_index(u64 x)
{
	unsigned int msb;

	if (x < (1U << MB_HIST_SUB_BITS))
		return x;
	msb = fls64(x) - 1;
	return ((msb - MB_HIST_SUB_BITS + 1) << MB_HIST_SUB_BITS) +
	       ((x >> (msb - MB_HIST_SUB_BITS)) & ((1U << MB_HIST_SUB_BITS) - 1));
}

/* The middle of a bucket: what a percentile falling in it reports. */
static u64 mb_hist_value(unsigned int i)
{
	unsigned int msb, sub;
	u64 low;

	if (i < (1U << MB_HIST_SUB_BITS))
		return i;
	msb = (i >> MB_HIST_SUB_BITS) + MB_HIST_SUB_BITS - 1;
	sub = i & ((1U << MB_HIST_SUB_BITS) - 1);
	low = (u64)((1U << MB_HIST_SUB_BITS) + sub) << (msb - MB_HIST_SUB_BITS);
	return low + ((1ULL << (msb - MB_HIST_SUB_BITS)) >> 1);
}

void mb_hist_add(struct mb_hist *h, u64 x)
{
	h->count[min_t(unsigned int, mb_hist_index(x), MB_HIST_BUCKETS - 1)]++;
}

void mb_hist_merge(struct mb_hist *dst, const struct mb_hist *src)
{
	unsigned int i;

	for (i = 0; i < MB_HIST_BUCKETS; i++)
		dst->count[i] += src->count[i];
}

/* The value below which pct percent of the n samples fall. */
u64 mb_hist_percentile(const struct mb_hist *h, u64 n, unsigned int pct)
{
	u64 rank = div64_u64(n * pct + 99, 100), seen = 0;
	unsigned int i;

	if (!n)
		return 0;
	rank = max_t(u64, rank, 1);
	for (i = 0; i < MB_HIST_BUCKETS; i++) {
		seen += h->count[i];
		if (seen >= rank)
			return mb_hist_value(i);
	}
	return mb_hist_value(MB_HIST_BUCKETS - 1);
}
