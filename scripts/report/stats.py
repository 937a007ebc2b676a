# SPDX-License-Identifier: GPL-2.0-only
"""Statistics of the sweep and benchmark reports.

The median, the mean and sample standard deviation; Welch's t-test from
summary statistics (mean, sample standard deviation, n): the p-value is
SciPy's (Debian's python3-scipy), imported only when a test is made, so
that the scripts that only read or plot results (sweep.py, plot.py) run
without it.
"""

import math
import statistics
import sys

SCIPY_MISSING = ("Welch's t-test needs SciPy, which %s cannot import: "
                 "apt-get install python3-scipy (for Debian's "
                 "/usr/bin/python3)")


class NoScipy(Exception):
    """SciPy is not installed for this python3."""


def mean_stddev(values):
    """Mean and sample standard deviation (n - 1) of a sequence; stddev is 0
    for fewer than two values, (nan, nan) for none."""
    n = len(values)
    if n == 0:
        return float("nan"), float("nan")
    m = math.fsum(values) / n
    if n < 2:
        return m, 0.0
    var = math.fsum((v - m) ** 2 for v in values) / (n - 1)
    return m, math.sqrt(var)


def median(values):
    """The median of a non-empty sequence: its middle value, or the mean of
    its two middle values; ValueError for none."""
    if not values:
        raise ValueError("the median of no values")
    return statistics.median(values)


def welch(mean_a, stddev_a, n_a, mean_b, stddev_b, n_b):
    """Welch's unequal-variances t-test of B against A, two-sided.

    Returns a dict with t, df and p, or None when a side has fewer than two
    samples (no variance estimate: nothing can be said). Both standard
    deviations zero: p is 0 when the means differ (a deterministic count,
    e.g. prep_calls), 1 when they are equal.
    """
    if n_a is None or n_b is None or n_a < 2 or n_b < 2:
        return None
    va = stddev_a * stddev_a / n_a
    vb = stddev_b * stddev_b / n_b
    se2 = va + vb
    if se2 == 0.0:
        same = mean_a == mean_b
        return {"t": 0.0 if same else math.copysign(math.inf, mean_b - mean_a),
                "df": float(n_a + n_b - 2), "p": 1.0 if same else 0.0}
    try:
        from scipy.stats import ttest_ind_from_stats
    except ImportError:
        raise NoScipy(SCIPY_MISSING % sys.executable) from None
    t, p = ttest_ind_from_stats(mean_b, stddev_b, n_b, mean_a, stddev_a, n_a,
                                equal_var=False)
    # Welch-Satterthwaite, which SciPy 1.10 computes but does not return
    df = se2 * se2 / (va * va / (n_a - 1) + vb * vb / (n_b - 1))
    return {"t": float(t), "df": df, "p": float(p)}


def pct_change(a, b):
    """(b - a) / a in percent; None when a is 0 (unless b is 0 too)."""
    if a == 0:
        return 0.0 if b == 0 else None
    return (b - a) / abs(a) * 100.0


def geomean(values):
    """Geometric mean of positive values; None if any is not positive."""
    vals = list(values)
    if not vals or any(v <= 0 for v in vals):
        return None
    return math.exp(math.fsum(math.log(v) for v in vals) / len(vals))
