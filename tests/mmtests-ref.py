#!/usr/bin/python3
"""MMTests' 2020 compare table, written again from the research notes.

usage: mmtests-ref.py BASE_DUMP NEW_DUMP [NEW_DUMP...] -- LABEL...

Each DUMP is what `perfsift debug mmtests-extract` printed for every
iteration of one run of a test (concatenated): "op rep t value file:line"
lines, "# summary: S" and "# ops: op (dir), ...".  Prints the main table
of `compare --format mmtests --mmtests-style 2020` for those runs, computed
here independently of perfsift's C code, from
research/mmtests-2020-extractors.md §0.4-§0.9: statistics over the pooled
samples, pdiff/pndiff, the t-test star (n1 + n2 - 2 df, p < 0.10) on the
Hmean/Amean rows, 12-wide values, the label and op columns as wide as
their longest entry, the header right-aligned over 23 columns.
"""
import math
import sys

from scipy import stats


def load(path):
    ops, pool, summary = [], {}, None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("# summary: "):
            summary = line[len("# summary: "):]
            continue
        if line.startswith("# ops:"):
            for item in line[len("# ops:"):].split(", "):
                name, d = item.strip().rsplit(" (", 1)
                if name not in [o for o, _ in ops]:
                    ops.append((name, d.rstrip(")")))
            continue
        op, rep, t, value, where = line.split("\t")
        pool.setdefault(op, []).append(float(value))
    return ops, pool, summary


def hmean(x):
    if not x or any(v <= 0 for v in x):
        return None
    return len(x) / sum(1 / v for v in x)


def amean(x):
    return sum(x) / len(x) if x else None


def sd(x):
    if len(x) < 2:
        return None
    m = amean(x)
    return math.sqrt(sum((v - m) ** 2 for v in x) / (len(x) - 1))


def best_mean(x, pct, higher):
    s = sorted(x, reverse=higher)
    k = max(1, int(len(s) * pct / 100))
    k = min(k, len(s))
    return hmean(s[:k]) if higher else amean(s[:k])


def stat(x, name, higher):
    if not x:
        return None
    if name == "Min":
        return min(x)
    if name == "Max":
        return max(x)
    if name in ("Hmean", "Amean"):
        return hmean(x) if higher else amean(x)
    if name == "Stddev":
        return sd(x)
    if name == "CoeffVar":
        s, m = sd(x) or 0, amean(x)
        return 0 if not m else s * 100 / m
    pct = int(name.split("-")[1])
    return best_mean(x, pct, higher)


def pdiff(new, base):
    if new == base or new == 0:
        return 0.0
    if base == 0:
        return 100.0
    return new * 100 / base - 100


def pndiff(new, base):
    if new == base:
        return 0.0
    if new == 0:
        return 100.0
    if base == 0:
        return -99.0
    return 100 - new * 100 / base


def star(b, x, higher):
    if not b or not x:
        return True
    mb = hmean(b) if higher else amean(b)
    mx = hmean(x) if higher else amean(x)
    sb, sx = sd(b) or 0, sd(x) or 0
    se = math.sqrt(sb * sb / len(b) + sx * sx / len(x))
    if se == 0 or len(b) + len(x) <= 2:
        return mb != mx
    t = abs(mb - mx) / se
    p = 2 * stats.t.sf(t, len(b) + len(x) - 2)
    return p < 0.10


def main():
    args = sys.argv[1:]
    cut = args.index("--")
    dumps, labels = args[:cut], args[cut + 1:]
    runs = [load(p) for p in dumps]
    ops, _, summary = runs[0]
    higher = {o: d == "higher" for o, d in ops}
    ops = [o for o, _ in ops if o in runs[0][1]]
    wo = max(len(o) for o in ops)
    if summary == "Multiops":
        names = {True: ["Min", "Hmean", "Stddev", "CoeffVar", "Max",
                        "BHmean-50", "BHmean-95", "BHmean-99"],
                 False: ["Min", "Amean", "Stddev", "CoeffVar", "Max",
                         "BAmean-50", "BAmean-95", "BAmean-99"]}
        wl = max(len(n) for o in ops for n in names[higher[o]])
    else:
        wl = len(summary.split(":", 1)[1])
    print(" " * (wl + 1 + wo) + "".join("%23s" % l for l in labels))
    rows = []
    if summary == "Multiops":
        for i in range(8):
            for o in ops:
                rows.append((names[higher[o]][i], o, i))
    else:
        for o in ops:
            rows.append((summary.split(":", 1)[1], o, -1))
    for name, o, i in rows:
        h = higher[o]
        cells = []
        base = None
        for v, (_, pool, _) in enumerate(runs):
            x = pool.get(o, [])
            if i < 0:
                if not x:
                    val = None
                elif summary.startswith("Singleops-mean"):
                    val = amean(x)
                else:
                    val = max(x) if h else min(x)
            else:
                val = stat(x, name, h)
            if v == 0:
                base = val
            spread = name in ("Stddev", "CoeffVar")
            d = 0.0
            if v and val is not None and base is not None:
                d = pdiff(val, base) if h and not spread else \
                    pndiff(val, base)
            sig = v and i == 1 and star(runs[0][1].get(o, []), x, h)
            cell = "%12.2f" % (val if val is not None else 0)
            cell += (" *%7.2f%%*" if sig else " (%7.2f%%)") % d
            cells.append(cell)
        print("%-*s %-*s%s" % (wl, name, wo, o, "".join(cells)))


main()
