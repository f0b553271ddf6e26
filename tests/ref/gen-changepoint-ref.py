#!/usr/bin/python3
# gen-changepoint-ref.py - write the reference table for
# tests/unit/t-changepoint.c (lib/stats/changepoint.c).
#
# Run with Debian's python3 (python3-numpy, python3-scipy):
#   /usr/bin/python3 tests/ref/gen-changepoint-ref.py \
#       > tests/ref/changepoint-ref.tsv
# Deterministic: one numpy default_rng(SEED).
#
# Independent of the C code: Q(tau) by brute force, the three sums of
# |x_i - x_j| of every split taken pair by pair from the full distance
# matrix and added with math.fsum (correctly rounded), combined exactly
# with Fraction and rounded once.  The detection is the same recursive
# rule as changepoint.h (best split = first maximum of Q over the allowed
# taus of the segment; kept if scipy's Welch p < max_pvalue and Otava's
# magnitude > min_magnitude), on these brute-force Q values, with
# scipy.stats.ttest_ind for the p-values: Student's pooled t (Otava's
# test, the default), or equal_var=False (Welch) where welch=1.
import math
import sys
import warnings
from fractions import Fraction

import numpy as np
import scipy
from scipy import stats

SEED = 20240612
warnings.simplefilter("ignore")
rng = np.random.default_rng(SEED)
out = []


def f(v):
    return repr(float(v))


def flist(xs):
    return ",".join(f(v) for v in xs) if len(xs) else "-"


def q_brute(x):
    """Q(tau) for tau = 0..n-1 (index 0 is NaN), brute force."""
    n = len(x)
    d = np.abs(np.subtract.outer(x, x))
    q = [math.nan]
    for tau in range(1, n):
        m, k = tau, n - tau
        cross = math.fsum(d[i, j] for i in range(tau) for j in range(tau, n))
        left = math.fsum(d[i, j] for i in range(tau) for j in range(i + 1, tau))
        right = math.fsum(d[i, j] for i in range(tau, n)
                          for j in range(i + 1, n))
        e = Fraction(2, m * k) * Fraction(cross)
        if m >= 2:
            e -= Fraction(left) / (m * (m - 1) // 2)
        if k >= 2:
            e -= Fraction(right) / (k * (k - 1) // 2)
        q.append(float(Fraction(m * k, n) * e))
    return q


def magnitude(a, b):
    if a == b:
        return 0.0
    if a == 0 or b == 0:
        return math.inf
    return max(abs(b / a - 1), abs(a / b - 1))


def detect(x, group, max_p, min_mag, min_size, welch):
    n = len(x)
    min_size = max(min_size, 2)
    found = []
    stack = [(0, n)]
    while stack:
        s, e = stack.pop()
        if e - s < 2 * min_size:
            continue
        q = q_brute(x[s:e])
        best, qb = None, None
        for t in range(min_size, e - s - min_size + 1):
            if group is not None and group[s + t - 1] == group[s + t]:
                continue
            if best is None or q[t] > qb:
                best, qb = t, q[t]
        if best is None:
            continue
        a, b = x[s:s + best], x[s + best:e]
        p = stats.ttest_ind(a, b, equal_var=not welch).pvalue
        if not p < max_p:
            continue
        if not magnitude(np.mean(a), np.mean(b)) > min_mag:
            continue
        found.append((s + best, qb))
        stack.append((s, s + best))
        stack.append((s + best, e))
    found.sort()
    return result(x, found, welch)


def result(x, found, welch):
    """The change points found [(index, q)]: means and p between them."""
    idx = [i for i, _ in found]
    bounds = [0] + idx + [len(x)]
    res = {"index": idx, "q": [q for _, q in found],
           "mean_before": [], "mean_after": [], "p": []}
    for j, i in enumerate(idx):
        a, b = x[bounds[j]:i], x[i:bounds[j + 2]]
        res["mean_before"].append(np.mean(a))
        res["mean_after"].append(np.mean(b))
        res["p"].append(stats.ttest_ind(a, b, equal_var=not welch).pvalue)
    return res


def case(name, x, group=None, max_p=0.001, min_mag=0.0, min_size=3,
         welch=0):
    x = np.asarray(x, dtype=float)
    line = ["series", name, "x=" + flist(x)]
    if group is not None:
        line.append("group=" + ",".join(str(g) for g in group))
    out.append("\t".join(line))
    out.append("\t".join(["q", name, "q=" + flist(q_brute(x))]))
    r = detect(x, group, max_p, min_mag, min_size, welch)
    out.append("\t".join(
        ["detect", name, "max_pvalue=" + f(max_p),
         "min_magnitude=" + f(min_mag), "min_size=%d" % min_size,
         "welch=%d" % welch,
         "index=" + (",".join(str(i) for i in r["index"]) or "-"),
         "q=" + flist(r["q"]), "mean_before=" + flist(r["mean_before"]),
         "mean_after=" + flist(r["mean_after"]), "p=" + flist(r["p"])]))


def noise(n, mu=10.0, sd=1.0):
    return rng.normal(mu, sd, n)


# ---- the windowed mode (cp_detect_windowed) ---------------------------
#
# Otava's windows and merge pass as changepoint.h states them, on the
# brute-force Q: windows of `window` points moved to group boundaries,
# the recursion above inside each at the relaxed p and no magnitude
# test, the next window at max(last change point, half a window on);
# then the merge: the weak change point with the largest p (times the
# number of group boundaries its segments allow, with bonferroni=1)
# removed while that p >= max_pvalue, then the smallest magnitude while
# it is <= min_magnitude, ties to the lower index.  The means and p of
# the result are numpy's and scipy's on the final segments.


def windowed(x, group, window, max_p, min_mag, min_size, welch, bonf):
    n = len(x)
    min_size = max(min_size, 2)
    if group is None:
        group = list(range(n))
    weak_p = 10 * max_p if max_p < 0.05 else 2 * max_p if max_p < 0.5 \
        else max_p

    def bound(i):
        return i == 0 or i >= n or group[i] != group[i - 1]

    def edge(s, length):
        e = s + length
        if e >= n:
            return n
        d = e
        while not bound(d):
            d -= 1
        if d > s:
            return d
        while not bound(e):
            e += 1
        return e

    weak, s = [], 0
    while s < n:
        e = edge(s, window)
        new = []
        if e - s >= 2 * min_size:
            r = detect(x[s:e], group[s:e], weak_p, -1.0, min_size, welch)
            new = [(s + i, q) for i, q in zip(r["index"], r["q"])]
        weak += new
        s = max(edge(s, window // 2), new[-1][0] if new else 0)

    def test(l, m, r):
        a, b = x[l:m], x[m:r]
        p = stats.ttest_ind(a, b, equal_var=not welch).pvalue
        if math.isnan(p):
            p = 1.0
        splits = sum(1 for t in range(l + min_size, r - min_size + 1)
                     if bound(t))
        if bonf and splits > 1:
            p = min(1.0, p * splits)
        return p, magnitude(np.mean(a), np.mean(b))

    while weak:
        ends = [0] + [i for i, _ in weak] + [n]
        t = [test(ends[k], ends[k + 1], ends[k + 2])
             for k in range(len(weak))]
        k = max(range(len(weak)), key=lambda k: (t[k][0], -k))
        if t[k][0] >= max_p:
            del weak[k]
            continue
        k = min(range(len(weak)), key=lambda k: (t[k][1], k))
        if t[k][1] <= min_mag:
            del weak[k]
            continue
        break
    return result(x, weak, welch)


def series(name, x, group=None):
    line = ["series", name, "x=" + flist(np.asarray(x, dtype=float))]
    if group is not None:
        line.append("group=" + ",".join(str(g) for g in group))
    out.append("\t".join(line))


def wcase(name, x, group=None, window=50, max_p=0.001, min_mag=0.0,
          min_size=3, welch=0, bonf=1):
    x = np.asarray(x, dtype=float)
    r = windowed(x, group, window, max_p, min_mag, min_size, welch, bonf)
    out.append("\t".join(
        ["windowed", name, "window=%d" % window, "max_pvalue=" + f(max_p),
         "min_magnitude=" + f(min_mag), "min_size=%d" % min_size,
         "welch=%d" % welch, "bonferroni=%d" % bonf,
         "index=" + (",".join(str(i) for i in r["index"]) or "-"),
         "q=" + flist(r["q"]), "mean_before=" + flist(r["mean_before"]),
         "mean_after=" + flist(r["mean_after"]), "p=" + flist(r["p"])]))


def commits(n, max_runs):
    """Group ids of n points in commits of 1..max_runs runs."""
    g, c = [], 0
    while len(g) < n:
        g += [c] * int(rng.integers(1, max_runs + 1))
        c += 1
    return g[:n]


def main():
    for n in (2, 3, 5, 10, 50, 200):
        case("normal%d" % n, noise(n))
    case("ties10", rng.integers(0, 3, 10))
    case("ties50", rng.integers(0, 4, 50))
    case("ties200", rng.integers(0, 6, 200))
    case("equal10", [7.0] * 10)
    x = noise(50)
    x[20:] += 5
    case("step50", x)
    x = noise(200)
    x[60:] += 3
    x[140:] -= 4
    case("steps200", x)
    case("steps200_welch", x, welch=1)
    x = noise(200, 100.0, 2.0)
    x[90:] *= 1.05
    case("step200_mag", x, min_mag=0.02)
    x = noise(200, 100.0, 2.0)
    x[120:] += 1.5
    case("step200_loose", x, max_p=0.05, min_size=5)
    case("step200_loose_welch", x, max_p=0.05, min_size=5, welch=1)
    # 30 commits x 3 runs, a step at commit 12 (point 36), and one noisy run
    # in the middle of a group so that the best unrestricted split differs
    g = [i // 3 for i in range(90)]
    x = noise(90)
    x[36:] += 4
    x[64] += 12
    case("groups90", x, group=g)
    g = [0, 0, 1, 1, 1, 2, 2, 3, 3, 3, 4, 4, 5, 5, 5, 5, 6, 6, 7, 7]
    x = noise(20)
    x[9:] += 5
    case("groups20", x, group=g, min_size=2)



    # 400 points in commits of 1..4 runs, steps of 2-4 sd at five commits
    g = commits(400, 4)
    x = noise(400)
    for at, d in ((60, 3.0), (130, -2.0), (210, 4.0), (290, -2.5), (340, 2.0)):
        while at < 400 and g[at] == g[at - 1]:
            at += 1
        x[at:] += d
    series("wsteps400", x, g)
    for w in (50, 30):
        wcase("wsteps400", x, group=g, window=w)
    wcase("wsteps400", x, group=g, bonf=0)
    wcase("wsteps400", x, group=g, welch=1)
    wcase("wsteps400", x, group=g, min_mag=0.2)
    wcase("wsteps400", x, group=g, max_p=0.02, min_size=4)
    # flat, 1,000 points: Otava's plain merge keeps a pair of change points
    # around an extreme stretch in about a quarter of such series, the
    # Bonferroni factor in almost none (this one: neither)
    x = noise(1000)
    series("wflat1000", x)
    wcase("wflat1000", x, bonf=0)
    wcase("wflat1000", x)
    # 1 sd steps without groups: weak change points that the merge removes
    x = noise(500)
    x[100:] += 1
    x[250:] -= 1
    x[400:] += 1
    series("wsmall500", x)
    wcase("wsmall500", x)
    wcase("wsmall500", x, bonf=0)

    print("# perfsift change-point reference table; generated by "
          "tests/ref/gen-changepoint-ref.py, do not edit")
    print("# numpy %s scipy %s seed %d" % (np.__version__, scipy.__version__,
                                         SEED))
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
