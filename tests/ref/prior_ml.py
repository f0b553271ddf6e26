# prior_ml.py - the maximum likelihood fit of a family's variance prior,
# for gen-stats-ref.py and tests/fixtures/compare/gen.py: the reference
# for lib/stats/ebayes.c's stats_fit_prior(), written from the model,
# not from the C code.
#
# Model (Wright and Simon 2003, the random variance model): each row's
# variance sigma2 is a draw of a scaled inverse chi-square prior (d0
# degrees of freedom, scale s02); its sample variance s2 on d degrees of
# freedom is sigma2 chi2_d / d.  Then s2 / s02 ~ F(d, d0), and the prior
# is the (d0, s02) of the largest likelihood, d0 in (0, cap].
#
# Inner: for a given d0 the best log s02 solves the likelihood equation
# in log s02 (one root: the sum falls strictly), by brentq.  Outer: the
# likelihood's slope in d0 (at the best scale) on the grid 1/1024 times
# 4^k up to cap; every fall through zero is a maximum, found by brentq;
# the largest likelihood (scipy.stats.f.logpdf) among those and the cap
# (where the slope is still positive) wins.  Held at the cap, the scale
# is the one the likelihood tends to as d0 grows on: sum d s2 / sum d.
import math

import numpy as np
from scipy import optimize, special, stats

NU_FIRST = 1.0 / 1024
NU_STEP = 4.0


def _usable(s2, d):
    s2 = np.asarray(s2, dtype=float)
    d = np.asarray(d, dtype=float)
    ok = (s2 > 0) & np.isfinite(s2) & (d > 0) & np.isfinite(d)
    return s2[ok], d[ok]


def _log_scale(x, d, nu):
    def eq(a):
        w_frac = special.expit(np.log(d * x / nu) - a)
        return float(np.sum((d + nu) / 2 * w_frac - d / 2))
    lo, hi = math.log(x.min()) - 1, math.log(x.max()) + 1
    while eq(lo) <= 0:
        lo -= 10
    while eq(hi) > 0:
        hi += 10
    return optimize.brentq(eq, lo, hi, xtol=1e-300, rtol=1e-15,
                           maxiter=500)


def _slope(x, d, nu):
    a = _log_scale(x, d, nu)
    t = np.log(d * x / nu) - a
    lw = np.logaddexp(0, t)              # log(1 + w)
    frac = special.expit(t)              # w / (1 + w)
    return float(np.sum(0.5 * special.digamma((d + nu) / 2) -
                        0.5 * special.digamma(nu / 2) - d / (2 * nu) -
                        lw / 2 + (d + nu) / (2 * nu) * frac))


def _loglik(x, d, nu):
    a = _log_scale(x, d, nu)
    return float(np.sum(stats.f.logpdf(x / math.exp(a), d, nu) - a))


def fit_prior(s2, d, cap):
    """(d0, s02) of the largest likelihood, d0 <= cap; None if < 2 rows."""
    x, d = _usable(s2, d)
    if len(x) < 2 or not (cap > 0) or not math.isfinite(cap):
        return None
    grid = []
    nu = NU_FIRST
    while nu < cap:
        grid.append(nu)
        nu *= NU_STEP
    grid.append(cap)
    g = [_slope(x, d, v) for v in grid]
    cands = []
    if not g[0] > 0:
        cands.append(grid[0])
    for i in range(1, len(grid)):
        if g[i - 1] > 0 and not g[i] > 0:
            u = optimize.brentq(lambda u: _slope(x, d, math.exp(u)),
                                math.log(grid[i - 1]), math.log(grid[i]),
                                xtol=1e-300, rtol=1e-15, maxiter=500)
            cands.append(math.exp(u))
    if g[-1] > 0:
        cands.append(cap)
    d0 = max(cands, key=lambda v: _loglik(x, d, v))
    if d0 == cap and g[-1] > 0:
        return d0, float(np.sum(d * x) / np.sum(d))
    return d0, math.exp(_log_scale(x, d, d0))
