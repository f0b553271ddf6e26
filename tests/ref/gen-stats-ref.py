#!/usr/bin/python3
# gen-stats-ref.py - write the reference table for tests/unit/t-stats.c.
#
# Run with Debian's python3 (python3-numpy, python3-scipy):
#   /usr/bin/python3 tests/ref/gen-stats-ref.py > tests/ref/stats-ref.tsv
# Deterministic: one numpy default_rng(SEED); same numpy/scipy, same bytes.
# Expected values come from numpy/scipy; where scipy 1.10 has no function
# (BH), is not accurate to 1e-9 (t.ppf) or has no exact method (MWU with
# ties beyond permutation_test's reach), an independent implementation
# written here is used and the line says so (src=...).  See README.
import sys
import warnings
from decimal import Decimal, getcontext
from fractions import Fraction
from math import comb

import numpy as np
import scipy

import prior_ml
from scipy import special, stats

SEED = 20240607
MWU_EXACT_MAX = 25          # lib/stats.h STATS_MWU_EXACT_MAX
PERM_MAX = 200000           # permutation_test enumerates up to this many
getcontext().prec = 60

warnings.simplefilter("ignore")
rng = np.random.default_rng(SEED)
out = []
ndata = 0


def f(v):
    """Round-trip text of one double (repr is shortest round-trip)."""
    return repr(float(v))


def flist(xs):
    return ",".join(f(v) for v in xs)


def emit(kind, **kv):
    fields = [kind] + ["%s=%s" % (k, v) for k, v in kv.items()]
    out.append("\t".join(fields))


def data(x):
    global ndata
    ndata += 1
    name = "d%03d" % ndata
    out.append("data\t%s\t%s" % (name, flist(x)))
    return "@" + name


# ---- summaries ----------------------------------------------------------

def summary(ref, x):
    x = np.asarray(x, dtype=float)
    n = len(x)
    mean = np.mean(x)
    pos = bool(np.all(x > 0))
    sd = np.std(x, ddof=1) if n >= 2 else float("nan")
    emit("summary", x=ref, n=n, mean=f(mean),
         hmean=f(stats.hmean(x) if pos else float("nan")),
         gmean=f(stats.gmean(x) if pos else float("nan")),
         median=f(np.percentile(x, 50)), q1=f(np.percentile(x, 25)),
         q3=f(np.percentile(x, 75)), min=f(np.min(x)), max=f(np.max(x)),
         sd_sample=f(sd), sd_pop=f(np.std(x, ddof=0)),
         cv_pct=f(100 * sd / abs(mean) if n >= 2 and mean != 0
                  else float("nan")),
         sem=f(stats.sem(x) if n >= 2 else float("nan")))


def mmtests(ref, x, pct, hib):
    """Independent: sort best-first, take max(1, int(n*pct/100))."""
    x = np.sort(np.asarray(x, dtype=float))
    if hib:
        x = x[::-1]
    n = len(x)
    k = min(n, max(1, int(n * pct / 100)))
    best = x[:k]
    bh = stats.hmean(best) if np.all(best > 0) else float("nan")
    emit("mmtests", x=ref, pct=f(pct), hib=int(hib), bamean=f(np.mean(best)),
         bhmean=f(bh), pctile=f(x[k - 1]))


def hstddev(ref, x):
    x = np.asarray(x, dtype=float)
    if np.all(x > 0):
        h = stats.hmean(x)
        v = np.sqrt(np.sum((1 / x - 1 / h) ** 2) * h ** 4 / len(x))
    else:
        v = float("nan")
    emit("hstddev", x=ref, expect=f(v))


# ---- two-sample tests ---------------------------------------------------

def welch(ra, rb, a, b):
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if len(a) < 2 or len(b) < 2:
        emit("welch", a=ra, b=rb, ret=-1, t="nan", df="nan", p="nan",
             src="spec")
        return
    va, vb = np.var(a, ddof=1), np.var(b, ddof=1)
    if va == 0 and vb == 0:
        # scipy gives nan/inf here; stats.h defines the answer instead
        ma, mb = np.mean(a), np.mean(b)
        if ma == mb:
            t, p = 0.0, 1.0
        else:
            t, p = (float("inf") if ma > mb else float("-inf")), 0.0
        emit("welch", a=ra, b=rb, ret=0, t=f(t), df="nan", p=f(p),
             src="spec")
        return
    r = stats.ttest_ind(a, b, equal_var=False)
    sa, sb = va / len(a), vb / len(b)
    df = (sa + sb) ** 2 / (sa ** 2 / (len(a) - 1) + sb ** 2 / (len(b) - 1))
    emit("welch", a=ra, b=rb, ret=0, t=f(r.statistic), df=f(df),
         p=f(r.pvalue), src="scipy")


def welch_summary(ma, sa, na, mb, sb, nb):
    r = stats.ttest_ind_from_stats(ma, sa, na, mb, sb, nb, equal_var=False)
    va, vb = sa * sa / na, sb * sb / nb
    df = (va + vb) ** 2 / (va ** 2 / (na - 1) + vb ** 2 / (nb - 1))
    emit("welch_summary", ma=f(ma), sa=f(sa), na=f(na), mb=f(mb), sb=f(sb),
         nb=f(nb), t=f(r.statistic), df=f(df), p=f(r.pvalue))


def u_of(a, b):
    a, b = np.asarray(a, float), np.asarray(b, float)
    return float(np.sum(a[:, None] > b[None, :])
                 + 0.5 * np.sum(a[:, None] == b[None, :]))


def mwu_exact_rational(a, b):
    """
    Exact two-sided p as a Fraction, by a subset-sum DP over the doubled
    midranks of the pooled sample (one element at a time, integer counts):
    cnt[k][s] = number of k-subsets whose doubled ranks sum to s.
    """
    a, b = list(map(float, a)), list(map(float, b))
    na, nb = len(a), len(b)
    rk2 = (2 * stats.rankdata(a + b)).astype(np.int64)   # doubled midranks
    smax = int(rk2.sum())
    cnt = np.zeros((na + 1, smax + 1), dtype=np.int64)
    cnt[0, 0] = 1
    for d in rk2:
        for k in range(na - 1, -1, -1):
            cnt[k + 1, d:] += cnt[k, :smax + 1 - d]
    dist = cnt[na]
    obs = int(rk2[:na].sum())
    total = comb(na + nb, na)
    assert int(dist.sum()) == total
    le = int(dist[:obs + 1].sum())
    ge = int(dist[obs:].sum())
    return min(Fraction(1), Fraction(2 * min(le, ge), total))


def ustat(x, y, axis=-1):
    nx = x.shape[axis]
    r = stats.rankdata(np.concatenate([x, y], axis=axis), axis=axis)
    return np.sum(r[..., :nx], axis=-1) - nx * (nx + 1) / 2


def mwu(ra, rb, a, b):
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    na, nb = len(a), len(b)
    pooled = np.concatenate([a, b])
    ties = len(np.unique(pooled)) < len(pooled)
    u = u_of(a, b)
    extra = {}
    if na <= MWU_EXACT_MAX and nb <= MWU_EXACT_MAX:
        rat = mwu_exact_rational(a, b)
        extra = dict(p_num=rat.numerator, p_den=rat.denominator)
        if not ties:
            r = stats.mannwhitneyu(a, b, method="exact")
            method, p, src = "exact", r.pvalue, "scipy-exact"
            assert r.statistic == u
        elif comb(na + nb, na) <= PERM_MAX:
            r = stats.permutation_test((a, b), ustat, vectorized=True,
                                       permutation_type="independent",
                                       n_resamples=np.inf,
                                       alternative="two-sided")
            method, p, src = "exact", min(1.0, r.pvalue), "scipy-permutation"
            assert r.statistic == u
        else:
            method, p, src = "exact", float(rat), "python-dp"
        # the two independent exact answers must agree
        assert abs(p - float(rat)) <= 1e-13 * float(rat), (p, rat)
    else:
        r = stats.mannwhitneyu(a, b, method="asymptotic", use_continuity=True)
        method, p, src = "asymptotic", r.pvalue, "scipy-asymptotic"
        assert r.statistic == u
    emit("mwu", a=ra, b=rb, method=method, u=f(u), p=f(p), src=src, **extra)


def hodges_lehmann(ra, rb, a, b):
    d = np.subtract.outer(np.asarray(b, float), np.asarray(a, float))
    emit("hl", a=ra, b=rb, expect=f(np.median(d)))


# ---- t quantile and the Fieller interval --------------------------------

def t_ppf(p, df):
    """
    scipy 1.10's t.ppf (cdflib's cdft root search) is only good to ~1e-9
    relative; polish it with Newton steps on scipy's own t.cdf / t.sf,
    which are accurate to ~1e-15, so the table holds the true quantile.
    """
    if p == 0.5:
        return 0.0          # exact; scipy's root search returns ~1e-16
    t = stats.t.ppf(p, df)
    if not np.isfinite(t):
        return t
    for _ in range(4):
        if p < 0.5:
            err = stats.t.cdf(t, df) - p
        else:
            err = (1 - p) - stats.t.sf(t, df)
        step = err / stats.t.pdf(t, df)
        t -= step
        if abs(step) <= 1e-17 * abs(t):
            break
    return t


def fieller(ma, sa, na, mb, sb, nb, conf):
    """
    Written from the theorem, in 60-digit decimal: R = mb/ma satisfies
    (mb - R ma)^2 <= t^2 (sb^2/nb + R^2 sa^2/na); the bounds are the roots
    of (ma^2 - t^2 va) R^2 - 2 ma mb R + (mb^2 - t^2 vb) = 0.
    Returns (ret, t, lo_pct, hi_pct).
    """
    nan = float("nan")
    if na < 2 or nb < 2 or ma == 0:
        return -1, nan, nan, nan
    va, vb = sa * sa / na, sb * sb / nb          # float, as the C code
    if va == 0 and vb == 0:
        d = (Decimal(mb) - Decimal(ma)) / Decimal(ma) * 100
        return 0, nan, float(d), float(d)
    dfw = (va + vb) ** 2 / (va ** 2 / (na - 1) + vb ** 2 / (nb - 1))
    t = t_ppf((1 + conf) / 2, dfw)
    T2 = Decimal(t) ** 2
    A = Decimal(ma)
    B = Decimal(mb)
    VA = Decimal(sa) ** 2 / Decimal(na)
    VB = Decimal(sb) ** 2 / Decimal(nb)
    qa = A * A - T2 * VA
    if qa <= 0:
        return -1, t, nan, nan
    qc = B * B - T2 * VB
    disc = (A * B) ** 2 - qa * qc
    r1 = (A * B - disc.sqrt()) / qa
    r2 = (A * B + disc.sqrt()) / qa
    return 0, t, float((r1 - 1) * 100), float((r2 - 1) * 100)


def ci(ma, sa, na, mb, sb, nb, conf):
    ret, t, lo, hi = fieller(ma, sa, na, mb, sb, nb, conf)
    emit("ci", ma=f(ma), sa=f(sa), na=f(na), mb=f(mb), sb=f(sb), nb=f(nb),
         conf=f(conf), ret=ret, tq=f(t), lo=f(lo), hi=f(hi))


# ---- Benjamini-Hochberg -------------------------------------------------

def bh(p):
    """
    scipy 1.10 has no false_discovery_control (it came in 1.11): this is
    an independent numpy version of the definition.  NAN p-values are left
    out of m and get NAN.
    """
    p = np.asarray(p, dtype=float)
    q = np.full(len(p), np.nan)
    ok = ~np.isnan(p)
    pv = p[ok]
    m = len(pv)
    if m:
        order = np.argsort(pv, kind="stable")
        adj = pv[order] * m / np.arange(1, m + 1)
        adj = np.minimum.accumulate(adj[::-1])[::-1]
        adj = np.minimum(adj, 1.0)
        qq = np.empty(m)
        qq[order] = adj
        q[ok] = qq
    emit("bh", p=flist(p), q=flist(q))


# ---- one pair of samples -----------------------------------------------

CONFS = (0.95, 0.9, 0.99, 0.8)
PCTS = (95, 50, 25, 99, 10, 75, 90, 1)
ncase = 0


def moderated_p(diff, s2, d, scale, d0, s02):
    if np.isinf(d0):
        post, df = s02, float("inf")
    else:
        post, df = (d0 * s02 + d * s2) / (d0 + d), d0 + d
    t = diff / np.sqrt(post * scale)
    sf = stats.norm.sf(abs(t)) if np.isinf(df) else stats.t.sf(abs(t), df)
    return 2 * sf


def ebayes():
    """lib/stats/ebayes.c: digamma, the prior fit, the moderated t."""
    for x in (1e-8, 0.01, 0.3, 0.5, 1.0, 1.5, 2.0, 3.0, 4.5, 7.3, 9.99,
              10.0, 10.5, 55.0, 1e3, 1e5, 1e9):
        emit("digamma", x=f(x), psi=f(special.digamma(x)))
    er = np.random.default_rng(SEED + 1)
    cases = []
    # equal variances (the likelihood rises to the cap), a spread prior,
    # mixed df, tiny family, spreads 40x apart (fio's bandwidth against
    # its p99.99), two clusters of variances
    for n, d, scatter in ((50, 6.0, 0.0), (50, 4.0, 1.0), (20, 8.0, 0.3),
                          (12, 2.0, 2.0), (3, 6.0, 0.5), (200, 18.0, 0.1)):
        sig2 = 0.01 * np.exp(er.normal(0, scatter, n))
        s2 = sig2 * er.chisquare(d, n) / d
        cases.append((s2, np.full(n, d)))
    dd = er.integers(1, 12, 30).astype(float)
    cases.append((0.04 * er.chisquare(dd) / dd, dd))
    sig2 = np.geomspace(0.005, 0.2, 50) ** 2
    cases.append((sig2 * er.chisquare(4, 50) / 4, np.full(50, 4.0)))
    sig2 = np.where(np.arange(40) < 20, 1e-4, 1e-2)
    cases.append((sig2 * er.chisquare(6, 40) / 6, np.full(40, 6.0)))
    cases.append((np.full(10, 0.25), np.full(10, 6.0)))
    s2 = list(cases[0][0][:10]) + [0.0, -1.0, float("inf")]
    cases.append((np.array(s2), np.full(13, 6.0)))
    for s2, d in cases:
        # compare's cap: the df of every row but one; and a small one
        ok = (s2 > 0) & np.isfinite(s2) & (d > 0)
        cap = float(np.sum(d[ok]) - np.max(d[ok]))
        for held in (cap, 3.0):
            d0, s02 = prior_ml.fit_prior(s2, d, held)
            emit("prior", s2=flist(s2), d=flist(d), cap=f(held),
                 d0=f(d0), s02=f(s02))
        d0, s02 = prior_ml.fit_prior(s2, d, cap)
        for diff, row_s2, row_d, scale in ((0.05, s2[0], d[0], 0.5),
                                           (-0.3, 0.0, d[0], 2 / 3),
                                           (1e-4, s2[1], d[1], 0.2)):
            if not np.isfinite(row_s2) or row_s2 < 0:
                continue
            emit("moderated_t", diff=f(diff), s2=f(row_s2), d=f(row_d),
                 scale=f(scale), d0=f(d0), s02=f(s02),
                 p=f(moderated_p(diff, row_s2, row_d, scale, d0, s02)))
    # d0 infinite: a z-test on the scale
    emit("moderated_t", diff=f(0.05), s2=f(0.01), d=f(6.0), scale=f(0.5),
         d0=f(float("inf")), s02=f(0.004),
         p=f(moderated_p(0.05, 0.01, 6.0, 0.5, float("inf"), 0.004)))


# ---- magnitudes near the ends of the doubles ------------------------------

def pow2_for(x):
    """A power of two that brings max |x| into [0.5, 1): exact scaling."""
    return 2.0 ** -np.frexp(np.max(np.abs(np.asarray(x, float))))[1]


def scaled_side(ref, x, pct, hib):
    """
    summary, mmtests and hstddev of x from numpy/scipy on x times a power
    of two, the results divided by it again: every figure is of degree 0
    or 1 in x and a power-of-two scaling rounds alike, so these are
    numpy's and scipy's figures without the overflow of 1e308 squared
    (or the underflow of 1e-300 squared).  Returns (mean, sd) in x's
    units as Decimals.
    """
    s = pow2_for(x)
    xs = np.asarray(x, float) * s
    n = len(xs)
    mean, sd = np.mean(xs), np.std(xs, ddof=1)
    pos = bool(np.all(xs > 0))
    nan = float("nan")
    emit("summary", x=ref, n=n, mean=f(mean / s),
         hmean=f(stats.hmean(xs) / s if pos else nan),
         gmean=f(stats.gmean(xs) / s if pos else nan),
         median=f(np.percentile(xs, 50) / s),
         q1=f(np.percentile(xs, 25) / s), q3=f(np.percentile(xs, 75) / s),
         min=f(np.min(xs) / s), max=f(np.max(xs) / s), sd_sample=f(sd / s),
         sd_pop=f(np.std(xs, ddof=0) / s),
         cv_pct=f(100 * sd / abs(mean) if mean != 0 else nan),
         sem=f(stats.sem(xs) / s))
    srt = np.sort(xs)
    if hib:
        srt = srt[::-1]
    k = min(n, max(1, int(n * pct / 100)))
    best = srt[:k]
    emit("mmtests", x=ref, pct=f(pct), hib=int(hib),
         bamean=f(np.mean(best) / s),
         bhmean=f(stats.hmean(best) / s if np.all(best > 0) else nan),
         pctile=f(best[k - 1] / s))
    if pos:
        h = stats.hmean(xs)
        v = np.sqrt(np.sum((1 / xs - 1 / h) ** 2) * h ** 4 / n)
        emit("hstddev", x=ref, expect=f(v / s))
    else:
        emit("hstddev", x=ref, expect=f(nan))
    return Decimal(float(mean)) / Decimal(s), Decimal(float(sd)) / Decimal(s)


def welch_dec(ma, sa, na, mb, sb, nb):
    """Welch's t and df in 60-digit decimal; p from scipy's t.sf."""
    va, vb = sa * sa / na, sb * sb / nb
    t = (ma - mb) / (va + vb).sqrt()
    df = (va + vb) ** 2 / (va ** 2 / (na - 1) + vb ** 2 / (nb - 1))
    return float(t), float(df), float(2 * stats.t.sf(abs(float(t)),
                                                     float(df)))


def fieller_dec(ma, sa, na, mb, sb, nb, conf):
    """fieller() with the variances and df in decimal too."""
    va, vb = sa * sa / na, sb * sb / nb
    dfw = (va + vb) ** 2 / (va ** 2 / (na - 1) + vb ** 2 / (nb - 1))
    t = t_ppf((1 + conf) / 2, float(dfw))
    T2 = Decimal(t) ** 2
    qa = ma * ma - T2 * va
    if qa <= 0:
        return -1, t, float("nan"), float("nan")
    disc = (ma * mb) ** 2 - qa * (mb * mb - T2 * vb)
    r1 = (ma * mb - disc.sqrt()) / qa
    r2 = (ma * mb + disc.sqrt()) / qa
    return 0, t, float((r1 - 1) * 100), float((r2 - 1) * 100)


def extreme_pair(a, b, conf):
    a = [float(v) for v in a]
    b = [float(v) for v in b]
    ra, rb = data(a), data(b)
    ma, sa = scaled_side(ra, a, 95, 1)
    mb, sb = scaled_side(rb, b, 50, 0)
    na, nb = Decimal(len(a)), Decimal(len(b))
    t, df, p = welch_dec(ma, sa, na, mb, sb, nb)
    emit("welch", a=ra, b=rb, ret=0, t=f(t), df=f(df), p=f(p), src="scipy")
    fa, fsa, fb, fsb = float(ma), float(sa), float(mb), float(sb)
    # from the summaries rounded to doubles, as the C function gets them
    t, df, p = welch_dec(Decimal(fa), Decimal(fsa), na, Decimal(fb),
                         Decimal(fsb), nb)
    emit("welch_summary", ma=f(fa), sa=f(fsa), na=f(len(a)), mb=f(fb),
         sb=f(fsb), nb=f(len(b)), t=f(t), df=f(df), p=f(p))
    ret, tq, lo, hi = fieller_dec(Decimal(fa), Decimal(fsa), na,
                                  Decimal(fb), Decimal(fsb), nb, conf)
    emit("ci", ma=f(fa), sa=f(fsa), na=f(len(a)), mb=f(fb), sb=f(fsb),
         nb=f(len(b)), conf=f(conf), ret=ret, tq=f(tq), lo=f(lo), hi=f(hi))


def extremes():
    """Sums, squares and ratios that overflow (or vanish) as doubles."""
    extreme_pair([1e308, -1e308, 1e308], [1.0, 2.0, 3.0], 0.95)
    extreme_pair([1e308, 1.7e308, -1.7e308], [1.0, 2.0, 3.0], 0.95)
    extreme_pair([1.5e308, 1.6e308, 1.7e308], [1.0e308, 1.1e308, 1.2e308],
                 0.95)
    extreme_pair([1.7e308, 1.79e308, 1.75e308, 1.72e308],
                 [1.6e308, 1.65e308, 1.62e308], 0.9)
    extreme_pair([1e300, 1.3e300, 0.8e300, 1.1e300],
                 [1.4e300, 1.6e300, 1.5e300], 0.95)
    extreme_pair([-1e300, 2e300, 5e299], [3e300, 4e300, 3.5e300], 0.99)
    extreme_pair([1e-300, 1.2e-300, 0.9e-300],
                 [1.3e-300, 1.5e-300, 1.4e-300, 1.6e-300], 0.95)
    extreme_pair([2e-300, 2.1e-300, 1.9e-300, 2.05e-300],
                 [1.5e-300, 1.55e-300, 1.45e-300], 0.8)


def pair(a, b):
    global ncase
    a = [float(v) for v in a]
    b = [float(v) for v in b]
    ra, rb = data(a), data(b)
    summary(ra, a)
    summary(rb, b)
    welch(ra, rb, a, b)
    mwu(ra, rb, a, b)
    hodges_lehmann(ra, rb, a, b)
    if len(a) >= 2 and len(b) >= 2:
        ma, mb = np.mean(a), np.mean(b)
        sa, sb = np.std(a, ddof=1), np.std(b, ddof=1)
        ci(ma, sa, len(a), mb, sb, len(b), CONFS[ncase % len(CONFS)])
        if not (sa == 0 and sb == 0):
            welch_summary(ma, sa, len(a), mb, sb, len(b))
    mmtests(ra, a, PCTS[ncase % len(PCTS)], ncase % 2)
    mmtests(rb, b, PCTS[(ncase + 3) % len(PCTS)], (ncase + 1) % 2)
    hstddev(ra, a)
    ncase += 1


def sizes(lo=2, hi=60):
    return int(rng.integers(lo, hi + 1)), int(rng.integers(lo, hi + 1))


def main():
    out.append("# perfsift stats reference table; generated by "
               "tests/ref/gen-stats-ref.py, do not edit")
    out.append("# numpy %s scipy %s seed %d" %
               (np.__version__, scipy.__version__, SEED))

    # normal data, random sizes 2..60, random shift
    for _ in range(70):
        na, nb = sizes()
        loc = float(rng.choice([1.0, 100.0, 5000.0]))
        sc = loc * float(rng.choice([0.001, 0.02, 0.1]))
        a = rng.normal(loc, sc, na)
        b = rng.normal(loc + sc * float(rng.normal(0, 1.5)), sc, nb)
        pair(a, b)
    # small sizes, exact MWU without ties
    for _ in range(40):
        na, nb = sizes(2, 25)
        a = rng.normal(10, 1, na)
        b = rng.normal(10 + float(rng.normal(0, 1)), 1.3, nb)
        pair(a, b)
    # ties: rounded values, small (exact) and large (asymptotic)
    for i in range(45):
        na, nb = sizes(3, 25) if i < 30 else sizes(10, 60)
        a = np.round(rng.normal(20, 2, na))
        b = np.round(rng.normal(20 + float(rng.normal(0, 1)), 2, nb))
        pair(a, b)
    # heavily tied counters with zeros (vmstat-like)
    for i in range(12):
        na, nb = sizes(2, 25) if i < 8 else sizes(26, 50)
        a = rng.poisson(0.8, na).astype(float)
        b = rng.poisson(1.2, nb).astype(float)
        pair(a, b)
    # half-unit ties (values x.5)
    for _ in range(6):
        na, nb = sizes(4, 20)
        pair(np.round(rng.normal(5, 1, na) * 2) / 2,
             np.round(rng.normal(5.5, 1, nb) * 2) / 2)
    # all equal, zero variance on one side and on both
    pair([7.0] * 5, [7.0] * 5)
    pair([7.0] * 30, [7.0] * 40)
    pair([3.0] * 6, [4.0] * 4)
    pair([1e12] * 3, [1e12 + 4096.0] * 3)
    pair([0.5] * 4, rng.normal(0.5, 0.01, 6))
    pair(rng.normal(20, 1, 8), [21.0] * 5)
    pair([2.0] * 30, np.round(rng.normal(2, 1, 35)))
    pair([0.0] * 4, [0.0, 1.0, 0.0, 2.0])
    pair([-3.0] * 5, [-3.0] * 2)
    # huge magnitudes
    for _ in range(10):
        na, nb = sizes(2, 40)
        loc = float(10 ** rng.uniform(12, 15))
        sc = loc * float(10 ** rng.uniform(-4, -1))
        pair(rng.normal(loc, sc, na), rng.normal(loc * 1.01, sc, nb))
    # tiny magnitudes
    for _ in range(8):
        na, nb = sizes(2, 40)
        loc = 1e-9 * float(rng.uniform(0.5, 5))
        pair(rng.normal(loc, loc * 0.05, na),
             rng.normal(loc * 0.97, loc * 0.05, nb))
    # negative and mixed-sign values
    for _ in range(10):
        na, nb = sizes(2, 40)
        pair(rng.normal(-50, 20, na), rng.normal(-40, 20, nb))
    for _ in range(4):
        na, nb = sizes(2, 30)
        pair(rng.normal(0, 1, na), rng.normal(0.3, 1, nb))
    # skewed positive data (latencies, rates)
    for _ in range(10):
        na, nb = sizes(2, 50)
        pair(rng.lognormal(3, 0.5, na), rng.lognormal(3.2, 0.6, nb))
    # n = 2, n = 1, and the 5 vs 5 of the benchmark
    pair([10.0, 12.0], [11.0, 15.0])
    pair([10.0, 12.0], rng.normal(11, 1, 7))
    pair(rng.normal(3, 0.1, 2), rng.normal(3.3, 0.1, 2))
    pair([4.0], [5.0, 6.0, 7.0])
    pair([4.0, 5.0, 6.0], [6.5])
    for _ in range(6):
        pair(rng.normal(100, 3, 5), rng.normal(104, 3, 5))
    # complete separation (smallest p) and interleaving
    pair([1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0])
    pair(list(range(1, 26)), list(range(26, 51)))
    pair(list(range(1, 41, 2)), list(range(2, 42, 2)))
    # more than STATS_STACK_N (64) values per side: the malloc() paths
    pair(rng.normal(50, 5, 70), rng.normal(52, 5, 90))
    pair(rng.poisson(3, 100).astype(float), rng.poisson(3.4, 80).astype(float))
    # exact MWU with ties beyond permutation_test's reach
    for _ in range(6):
        na, nb = sizes(14, 25)
        pair(np.round(rng.normal(0, 1.5, na)),
             np.round(rng.normal(0.7, 1.5, nb)))

    # Welch from summaries with fractional n and big/small variances
    welch_summary(100.0, 2.0, 5.0, 103.0, 3.0, 7.0)
    welch_summary(1.0, 0.0, 4.0, 1.5, 0.25, 4.0)
    welch_summary(1e6, 1e3, 3.0, 1.001e6, 2e3, 3.0)
    welch_summary(2.5, 0.5, 12.5, 2.0, 0.5, 30.25)
    welch_summary(-4.0, 1.0, 2.0, 4.0, 1.0, 2.0)

    # Fieller CIs: unbounded, crossing zero, negative base, wide, zero var
    ci(1.0, 5.0, 3.0, 2.0, 1.0, 3.0, 0.95)          # unbounded
    ci(0.0, 1.0, 5.0, 2.0, 1.0, 5.0, 0.95)          # mean_a == 0
    ci(10.0, 1.0, 1.0, 12.0, 1.0, 5.0, 0.95)        # n < 2
    ci(100.0, 0.0, 5.0, 103.0, 2.0, 5.0, 0.95)
    ci(100.0, 2.0, 5.0, 103.0, 0.0, 5.0, 0.95)
    ci(100.0, 0.0, 5.0, 103.0, 0.0, 5.0, 0.95)
    ci(-100.0, 5.0, 5.0, -110.0, 5.0, 5.0, 0.95)
    ci(10.0, 3.0, 3.0, 10.0, 3.0, 3.0, 0.99)
    ci(10.0, 5.0, 4.0, 12.0, 5.0, 4.0, 0.95)
    ci(1e15, 1e12, 5.0, 1.01e15, 1e12, 5.0, 0.95)
    ci(2e-9, 1e-10, 10.0, 1.9e-9, 1e-10, 12.0, 0.9)
    ci(50.0, 1.0, 1000.0, 50.5, 1.5, 2000.0, 0.999)

    # quantiles at arbitrary p (type 7)
    for n in (1, 2, 3, 7, 10, 64, 65, 200):
        x = np.sort(rng.normal(0, 10, n))
        r = data(x)
        for p in (0.0, 0.1, 0.25, 0.37, 0.5, 0.9, 0.999, 1.0):
            emit("quantile", x=r, p=f(p), expect=f(np.quantile(x, p)))
    # n = 1 and > STATS_STACK_N summaries
    for x in ([5.0], rng.normal(9, 1, 65), rng.lognormal(0, 1, 300)):
        r = data(x)
        summary(r, x)
        hstddev(r, x)
        mmtests(r, x, 95, 1)
        mmtests(r, x, 95, 0)
        mmtests(r, x, 50, 1)

    # Benjamini-Hochberg
    bh([0.01, 0.04, 0.03, 0.005, 0.2])
    bh([0.5])
    bh([0.0, 1.0, 0.0, 1.0])
    bh([0.02, 0.02, 0.02, 0.5, 0.01])
    bh([float("nan"), 0.01, 0.3, float("nan"), 0.02])
    bh([float("nan"), float("nan")])
    bh(list(rng.uniform(0, 1, 10)))
    bh(list(rng.uniform(0, 0.1, 30)))
    bh(list(np.concatenate([rng.uniform(0, 1, 150),
                            10 ** rng.uniform(-12, -3, 30)])))
    bh(list(np.round(rng.uniform(0, 0.2, 100), 2)))

    # special functions, spot values
    for a, b, x in ((0.5, 0.5, 0.3), (1.0, 1.0, 0.25), (2.5, 0.5, 0.9),
                    (0.5, 2.5, 0.01), (5.0, 3.0, 0.5), (10.0, 10.0, 0.5),
                    (10.0, 10.0, 0.05), (50.0, 40.0, 0.6),
                    (50.0, 40.0, 0.3), (300.0, 200.0, 0.55),
                    (300.0, 200.0, 0.7), (1e4, 1e4, 0.5),
                    (1e4, 1e4, 0.49), (5e5, 0.5, 0.999998),
                    (5e5, 0.5, 0.99999), (0.5, 5e5, 2e-6), (2.0, 3.0, 1e-5),
                    (0.1, 0.1, 0.999), (1.25, 15.0, 0.12),
                    (15.0, 1.25, 0.88), (1e-3, 2.0, 0.5), (3.0, 1e-3, 0.5),
                    (7.0, 0.5, 1e-8), (25.0, 30.0, 0.0), (25.0, 30.0, 1.0),
                    (200.0, 1.5, 0.99), (1.5, 200.0, 0.01)):
        emit("betainc", a=f(a), b=f(b), x=f(x),
             expect=f(special.betainc(a, b, x)))
    for t, df in ((0.0, 3.0), (0.1, 1.0), (1.0, 1.0), (2.5, 2.0),
                  (2.5, 2.5), (-2.0, 4.7), (5.0, 10.0), (30.0, 3.0),
                  (50.0, 10.0), (100.0, 10.0), (1e3, 2.5), (-50.0, 4.0),
                  (1.96, 1e6), (6.0, 1e6), (2.0, 1e3), (0.3, 30.0),
                  (12.0, 30.0), (1e-8, 5.0), (4.0, 0.5), (3.5, 7.3),
                  (1e20, 3.0), (-1e20, 3.0), (8.0, 100.0)):
        emit("t_sf", t=f(t), df=f(df), expect=f(stats.t.sf(t, df)))
    for df in (1.0, 2.0, 2.5, 3.3, 5.0, 8.7, 30.0, 1e3, 1e6):
        for p in (1e-20, 1e-10, 1e-5, 0.001, 0.025, 0.05, 0.3, 0.5,
                  0.7, 0.95, 0.975, 0.995, 0.9999):
            emit("t_ppf", p=f(p), df=f(df), expect=f(t_ppf(p, df)),
                 scipy=f(stats.t.ppf(p, df)))
    for z in (-5.0, -1.0, 0.0, 0.5, 1.96, 5.0, 10.0, 20.0, 37.0):
        emit("norm_sf", z=f(z), expect=f(stats.norm.sf(z)))
    for p in (1e-300, 1e-20, 1e-5, 0.025, 0.3, 0.5, 0.8, 0.975, 0.999999):
        emit("norm_ppf", p=f(p), expect=f(stats.norm.ppf(p)))
    for na, nb in ((1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (3, 5), (3, 10),
                   (7, 7), (10, 10), (25, 25), (40, 45), (1, 20)):
        emit("mwu_min_p", na=na, nb=nb,
             expect=f(min(Fraction(1), Fraction(2, comb(na + nb, na)))))

    ebayes()
    extremes()

    sys.stdout.write("\n".join(out) + "\n")
    sys.stderr.write("%d lines, %d sample pairs\n" % (len(out), ncase))


if __name__ == "__main__":
    main()
