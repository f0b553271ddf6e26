/*
 * Unit tests of the metric direction catalog (lib/direction.c) and of
 * the glob matcher it relies on (lib/strparse.c), which must agree with
 * fnmatch(3) on the patterns users give.
 */
#include "core/compat.h"
#include "store/direction.h"
#include "core/strparse.h"
#include <fnmatch.h>
#include "test-lib.h"

static void expect_dir(const char *file, int line, const char *metric,
		       const char *unit, int want)
{
	int got = direction_builtin(metric, unit);

	if (!check_int_loc(file, line, metric, want, got))
		test_msg("%s (%s): expected %s, got %s", metric,
			 unit ? unit : "-", direction_name(want),
			 direction_name(got));
}
#define DIR(m, u, d) expect_dir(__FILE__, __LINE__, m, u, d)

TEST(catalog)
{
	/* lkp names */
	DIR("fio.read_bw_MBps", "MB/s", DIR_HIGHER);
	DIR("fio.read_iops", "IO/s", DIR_HIGHER);
	DIR("fio.read_clat_mean_ns", "ns", DIR_LOWER);
	DIR("fio.read_clat_99%_ns", "ns", DIR_LOWER);
	DIR("fio.latency_2us%", "%", DIR_UNKNOWN);
	DIR("fio.workload", "ios", DIR_HIGHER);
	DIR("will-it-scale.per_thread_ops", NULL, DIR_HIGHER);
	DIR("will-it-scale.per_process_ops", NULL, DIR_HIGHER);
	DIR("aim7.jobs-per-min", NULL, DIR_HIGHER);
	DIR("fio.time.elapsed_time", NULL, DIR_LOWER);
	DIR("fio.time.minor_page_faults", NULL, DIR_LOWER);
	DIR("proc-vmstat.pgfault", NULL, DIR_LOWER);
	DIR("proc-vmstat.allocstall_normal", NULL, DIR_LOWER);
	DIR("proc-vmstat.nr_free_pages", NULL, DIR_UNKNOWN);
	/* MMTests operations */
	DIR("kernbench.elsp-2", NULL, DIR_LOWER);
	DIR("kernbench.syst-2", NULL, DIR_LOWER);
	DIR("ebizzy.total_rsec-4", NULL, DIR_HIGHER);
	DIR("ebizzy.latency_ms", "ms", DIR_LOWER);	/* unit beats the default */
	DIR("fsmark.1-files/sec", NULL, DIR_HIGHER);
	DIR("redis.1-PING_INLINE", NULL, DIR_HIGHER);
	DIR("schbench.99.0th", NULL, DIR_LOWER);
	/* words and units */
	DIR("x.throughput", NULL, DIR_HIGHER);
	DIR("x.score", NULL, DIR_HIGHER);
	DIR("x.latency", NULL, DIR_LOWER);
	DIR("x.value", "ms/op", DIR_LOWER);
	DIR("x.value", "ops/s", DIR_HIGHER);
	DIR("x.value", NULL, DIR_UNKNOWN);
}

TEST(glob)
{
	static const char *const pats[] = {
		"*", "a*", "*b", "a?c", "[ab]*", "[!a]x", "fio.latency_*%",
		"*.time.*_page_faults", "a[", "x*y*z", "*.*", "[]]x",
		"[a-c]1", "*%", "fio.*io_MiB", "a\\\\*b", "**a", "",
	};
	static const char *const strs[] = {
		"", "a", "ab", "abc", "axc", "bx", "ax", "fio.latency_2us%",
		"fio.time.minor_page_faults", "a[", "xyz", "xaybz", "x.y",
		"]x", "b1", "d1", "fio.read_io_MiB", "50%", "a*b", "aab",
	};
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(pats); i++)
		for (j = 0; j < ARRAY_SIZE(strs); j++) {
			int ours = glob_match(pats[i], strs[j]);
			int theirs = fnmatch(pats[i], strs[j], 0) == 0;

			if (!check_int(theirs, ours))
				test_msg("glob '%s' on '%s': %d, fnmatch %d",
					 pats[i], strs[j], ours, theirs);
		}
}

int main(void)
{
	test_catalog();
	test_glob();
	return test_done();
}
