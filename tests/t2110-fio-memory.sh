#!/bin/sh
# The fio importer streams: a document of 20,000 jobs (the real job of
# tests/data/fio/psync-randread with other numbers and names, about
# 115 MB) imports with a peak RSS under 64 MiB, and its totals and
# per-job values are those computed here, in python, from the numbers
# written into it.  A memory bound is not a timing: it is deterministic
# enough for a test (the whole document took 800 MiB).
. "$(dirname "$0")/lib.sh"

need_python3 'fio import of 20,000 jobs in bounded memory'

# Under ASan and UBSan (make asan) the RSS means nothing: fewer jobs,
# still enough to spill the job records to a temporary file, no bound.
NR_JOBS=20000
if grep -q __asan_init "$PERFSIFT" 2>/dev/null; then
	NR_JOBS=4000
fi

cat >gen.py <<'PY'
# gen.py SRC N OUT EXPECT: a fio JSON document of N jobs made from the
# job of SRC (seeded), and the values the import must give, computed from
# the numbers written (as the text jansson reads: %.6f, %d).
import json, random, sys

src, n, out, exp_path = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
random.seed(2110)
doc = json.load(open(src))
job = doc["jobs"][0]
r = job["read"]
pkeys = list(r["clat_ns"]["percentile"])
ukeys, mkeys = list(job["latency_us"]), list(job["latency_ms"])

# placeholders, then one %-template for every job
def ph(name):
    return "@@%s@@" % name
job["jobname"] = job["job options"]["name"] = ph("name")
for k in ("io_bytes", "io_kbytes", "bw_bytes", "bw", "iops", "runtime",
          "total_ios"):
    r[k] = ph(k)
for k in ("mean", "stddev", "N"):
    r["clat_ns"][k] = ph("clat_" + k)
r["lat_ns"]["mean"], r["lat_ns"]["N"] = ph("lat_mean"), ph("clat_N")
for i, k in enumerate(pkeys):
    r["clat_ns"]["percentile"][k] = ph("p%d" % i)
for i, k in enumerate(ukeys):
    job["latency_us"][k] = ph("u%d" % i)
for i, k in enumerate(mkeys):
    job["latency_ms"][k] = ph("m%d" % i)
for k in ("usr_cpu", "sys_cpu", "ctx"):
    job[k] = ph(k)
text = json.dumps(job, indent=2, separators=(",", " : "))
text = "    " + text.replace("%", "%%").replace("\n", "\n    ")
for k in ("iops", "clat_mean", "clat_stddev", "lat_mean", "usr_cpu",
          "sys_cpu") + tuple("u%d" % i for i in range(len(ukeys))) + \
         tuple("m%d" % i for i in range(len(mkeys))):
    text = text.replace('"@@%s@@"' % k, "%%(%s).6f" % k)
text = text.replace('"@@name@@"', '"%(name)s"')
while "@@" in text:
    a = text.index('"@@')
    b = text.index('@@"', a + 3)
    text = text[:a] + "%%(%s)d" % text[a + 3:b] + text[b + 3:]
template = text

doc["jobs"] = ["@@JOBS@@"]
head, tail = json.dumps(doc, indent=2, separators=(",", " : ")).split(
    '"@@JOBS@@"')
head = head.rstrip(" ")

exp = {}
sum_bw = sum_iops = 0.0
workload = 0
with open(out, "w") as f:
    f.write(head)
    for j in range(n):
        ios = random.randint(1, 100000)
        v = {"name": "%s-%05d" % (("rr", "seq", "mix")[j % 3], j),
             "total_ios": ios, "io_kbytes": ios * 4,
             "io_bytes": ios * 4096, "bw": random.randint(1000, 900000),
             "iops": random.uniform(100, 200000),
             "runtime": random.randint(50, 5000), "clat_N": ios,
             "clat_mean": random.uniform(1e4, 1e6),
             "clat_stddev": random.uniform(1e3, 1e5),
             "usr_cpu": random.uniform(0, 100),
             "sys_cpu": random.uniform(0, 100),
             "ctx": random.randint(0, 10**6)}
        v["bw_bytes"] = v["bw"] * 1024
        v["lat_mean"] = v["clat_mean"] + random.uniform(10, 100)
        p = 1000
        for i in range(len(pkeys)):
            p += random.randint(0, 50000)
            v["p%d" % i] = p
        for i in range(len(ukeys)):
            v["u%d" % i] = random.uniform(0, 50)
        for i in range(len(mkeys)):
            v["m%d" % i] = random.uniform(0, 50)
        f.write(("" if j == 0 else ",\n") + template % v)
        # the values as the file has them
        iops = float("%.6f" % v["iops"])
        sum_bw += v["bw"]
        sum_iops += iops
        workload += ios
        if j in (0, n // 2 + 7, n - 1):
            pre = "fio.%s." % v["name"]
            exp[pre + "read.bw_MBps"] = v["bw"] / 1024
            exp[pre + "read.iops"] = iops
            exp[pre + "read.ios"] = ios
            exp[pre + "read.io_MiB"] = ios * 4 / 1024
            exp[pre + "read.clat_mean_ns"] = float("%.6f" % v["clat_mean"])
            exp[pre + "read.clat_99.95%_ns"] = v["p%d" % pkeys.index("99.950000")]
            exp[pre + "usr_cpu"] = float("%.6f" % v["usr_cpu"])
            exp[pre + "ctx"] = v["ctx"]
    f.write(tail + "\n")
exp["fio.read_bw_MBps"] = sum_bw / 1024
exp["fio.read_iops"] = sum_iops
exp["fio.workload"] = workload
with open(exp_path, "w") as f:
    for k, val in sorted(exp.items()):
        f.write("%s\t%r\n" % (k, val))
PY

cat >check.py <<'PY'
# check.py EXPECT DUMP: the expected values against `debug dump`.
import sys

want = {}
for line in open(sys.argv[1], encoding="utf-8"):
    k, v = line.rstrip("\n").split("\t")
    want[k] = float(v)
got, jobs = {}, set()
for line in open(sys.argv[2], encoding="utf-8"):
    f = line.rstrip("\n").split("\t")
    if f[0] == "sample":
        if f[2] in want:
            got[f[2]] = float(f[4])
        if f[2].endswith(".read.bw_MBps"):
            jobs.add(f[2])
bad = 0
for k, v in sorted(want.items()):
    if k not in got:
        print("missing: %s (expected %r)" % (k, v)); bad += 1
    elif not (got[k] == v or abs(got[k] - v) <= 1e-12 * abs(v)):
        print("%s: got %r, expected %r" % (k, got[k], v)); bad += 1
print("%d values checked, %d jobs, %d bad" % (len(want), len(jobs), bad))
sys.exit(1 if bad else 0)
PY

test_expect_success "a document of $NR_JOBS jobs is generated" '
	python3 gen.py "$SRC/tests/data/fio/psync-randread/input" $NR_JOBS \
		big.json expect &&
	test $(grep -c "\"jobname\" :" big.json) = $NR_JOBS
'

test_expect_success 'it imports: one run, 30 samples a job and the totals' '
	rm -f m.db* &&
	peak_rss_kib out "$PERFSIFT" --db m.db import --format fio big.json \
		>rss 2>err &&
	test "$(cut -d" " -f2 rss)" = 0 &&
	test_cmp /dev/null err &&
	grep -q "^imported 1 file: 1 run, $((NR_JOBS * 30 + 59)) samples" out
'

test_expect_success 'totals and per-job values are those of the numbers written' '
	perfsift --db m.db debug dump >dump &&
	python3 check.py expect dump >res &&
	cat res &&
	grep -q " $NR_JOBS jobs, 0 bad" res
'

if [ $NR_JOBS != 20000 ]; then
	test_skip 'peak RSS under 64 MiB' 'a sanitizer build'
else
	test_expect_success 'peak RSS under 64 MiB' '
		test "$(cut -d" " -f1 rss)" -lt 65536
	'
	say "# peak RSS $(cut -d" " -f1 rss) KiB for $NR_JOBS jobs in $(wc -c <big.json) bytes"
fi

test_done
