#ifndef MMTESTS_TREE_INT_H
#define MMTESTS_TREE_INT_H
/*
 * Inside the MMTests tree importer: the state of one test's import and
 * what its files share.  mmtests-tree.c walks the tree (its parts and
 * members, the iterations) and hands each iteration's logs to the
 * test's extractor, which reports through the sink of mmtests-sink.c
 * (extract.h); mmtests-iter.c writes an iteration: the values reported,
 * as runs, and the iteration's own files.  The sink and mmtests-iter.c
 * call neither each other nor mmtests-tree.c.
 */
#include "core/sbuf.h"
#include "core/strmap.h"
#include "import/importer.h"
#include "extract.h"

/* ---- the extraction sink (mmtests-sink.c) ---- */

struct mmx_val {
	size_t op;
	long rep;
	double t, v;
	long line;
	int64_t source;
	const char *file;	/* borrowed: the member's path */
};

struct mmx_op {
	char *name;
	int direction;
};

struct mmx {
	const struct mmtests_extractor *ex;
	const char *ex_name;	/* its row's name: "kernbench" */
	const char *test;
	struct import_ctx *ctx;		/* NULL: print to out */
	FILE *out;
	/* the files of logs/ and, importing, their members */
	struct mmx_file *files;
	const struct member **mem;
	size_t nr_files;
	const struct mmx_file **sel;
	size_t nr_sel, alloc_sel;
	const char *cur;		/* the file being read */
	/* operations, in MMTests' order, across the iterations */
	struct mmx_op *ops;
	size_t nr_ops, alloc_ops;
	struct strmap op_idx;
	struct strmap seen;		/* printing: (op, rep) -> line */
	/* the values of one iteration, in the order reported */
	struct mmx_val *val;
	size_t nr_val, alloc_val;
};

/* Free what x holds (not x->files, x->mem: its caller's). */
void mmx_release(struct mmx *x);

static inline const char *base_name(const char *path)
{
	const char *s = path + strlen(path);

	while (s > path && s[-1] == '/')
		s--;
	while (s > path && s[-1] != '/')
		s--;
	return s;
}

/* ---- an iteration written (mmtests-iter.c) ---- */

/* The import of one test of a run: what its iterations share. */
struct tree {
	struct import_ctx *ctx;
	const char *test;
	struct strmap stated;	/* metric names stated in this import */
	long position;
	struct sbuf name;
};

/* An iteration's files, found among the members. */
struct iter {
	long n;				/* N of iter-N */
	char prefix[40];		/* "iter-N/" */
	const struct member *timestamp, *sysstate, *proc_vmstat, *vmstat;
	const struct member *iostat, *kernel_version;
	/* from kernel.version (`uname -a`): "" when not known */
	char kernel[128], machine[128];
	size_t first, nr;		/* its members: m[first..first+nr) */
	/* from tests-timestamp */
	int64_t begin, end;
	int have_time;
	double user, sys, elapsed;
	long time_line;
};

/*
 * Read the iteration's tests-timestamp (begin, end, the `time ::` line)
 * and its kernel.version (`uname -a`: the kernel, the machine) into it.
 * 0 or -1 after error().
 */
int mt_read_timestamp(struct tree *t, struct iter *it);
int mt_read_kernel_version(struct tree *t, struct iter *it);

/* The summary of the extractor's operations, as MMTests names it. */
const char *mt_summary_of(const struct mmtests_extractor *ex);

/*
 * x's values of iteration it, as runs (a run per repetition), the first
 * with the iteration's own files.  0 or -1 after error().
 */
int mt_write_iteration(struct tree *t, struct mmx *x, struct iter *it,
		       const char *label);

/* A run's value given twice: 0, or -1 after error() naming both. */
int mt_check_twice(struct mmx *x);

/*
 * State a metric of the test (direction, summary, position) the first
 * time this import uses it.  0 or -1 after error().
 */
int mt_state(struct tree *t, const char *metric, const char *unit,
	     int direction, const char *summary, long position, long line);

#endif
