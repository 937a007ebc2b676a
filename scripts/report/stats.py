# SPDX-License-Identifier: GPL-2.0-only
"""Statistics of the sweep reports, standard library only.

Welch's t-test from summary statistics (mean, sample standard deviation,
n), with Student's t distribution computed here through the regularized
incomplete beta function (a continued fraction, evaluated with the
modified Lentz method), so that no SciPy is needed.
"""

import math

_EPS = 1e-15
_TINY = 1e-300
_MAX_ITER = 500


def mean_sd(values):
    """Mean and sample standard deviation (n - 1) of a sequence; sd is 0
    for fewer than two values, (nan, nan) for none."""
    n = len(values)
    if n == 0:
        return float("nan"), float("nan")
    m = math.fsum(values) / n
    if n < 2:
        return m, 0.0
    var = math.fsum((v - m) ** 2 for v in values) / (n - 1)
    return m, math.sqrt(var)


def _betacf(a, b, x):
    """Continued fraction of the incomplete beta function (Lentz)."""
    qab = a + b
    qap = a + 1.0
    qam = a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    if abs(d) < _TINY:
        d = _TINY
    d = 1.0 / d
    h = d
    for m in range(1, _MAX_ITER + 1):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        if abs(d) < _TINY:
            d = _TINY
        c = 1.0 + aa / c
        if abs(c) < _TINY:
            c = _TINY
        d = 1.0 / d
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        if abs(d) < _TINY:
            d = _TINY
        c = 1.0 + aa / c
        if abs(c) < _TINY:
            c = _TINY
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            return h
    raise ArithmeticError("incomplete beta: no convergence for a=%g b=%g x=%g"
                          % (a, b, x))


def betainc(a, b, x):
    """Regularized incomplete beta function I_x(a, b), a, b > 0."""
    if not (a > 0 and b > 0):
        raise ValueError("betainc: a and b must be positive")
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    ln_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                + a * math.log(x) + b * math.log1p(-x))
    front = math.exp(ln_front)
    # the continued fraction converges fast for x < (a + 1) / (a + b + 2)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_sf_two_sided(t, df):
    """P(|T| >= |t|) for Student's t with df degrees of freedom (df > 0,
    not necessarily an integer); df = inf is the normal distribution."""
    if math.isnan(t):
        return float("nan")
    if math.isinf(t):
        return 0.0
    if math.isinf(df):
        return math.erfc(abs(t) / math.sqrt(2.0))
    return betainc(df / 2.0, 0.5, df / (df + t * t))


def t_cdf(t, df):
    """P(T <= t) for Student's t with df degrees of freedom."""
    p = t_sf_two_sided(t, df) / 2.0
    return 1.0 - p if t > 0 else p


def welch(mean_a, sd_a, n_a, mean_b, sd_b, n_b):
    """Welch's unequal-variances t-test of B against A, two-sided.

    Returns a dict with t, df and p, or None when a side has fewer than two
    samples (no variance estimate: nothing can be said). Both standard
    deviations zero: p is 0 when the means differ (a deterministic count,
    e.g. prep_calls), 1 when they are equal.
    """
    if n_a is None or n_b is None or n_a < 2 or n_b < 2:
        return None
    va = sd_a * sd_a / n_a
    vb = sd_b * sd_b / n_b
    se2 = va + vb
    if se2 == 0.0:
        same = mean_a == mean_b
        return {"t": 0.0 if same else math.copysign(math.inf, mean_b - mean_a),
                "df": float(n_a + n_b - 2), "p": 1.0 if same else 0.0}
    t = (mean_b - mean_a) / math.sqrt(se2)
    df = se2 * se2 / (va * va / (n_a - 1) + vb * vb / (n_b - 1))
    return {"t": t, "df": df, "p": t_sf_two_sided(t, df)}


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
