#ifndef FIO_INT_H
#define FIO_INT_H
/*
 * Inside the fio JSON importer: the state of one document and what its
 * files call of each other.  fio.c drives a document, fio-read.c scans
 * its bytes, fio-job.c checks each job and keeps what is needed of it,
 * fio-spill.c holds those records, fio-emit.c writes the run and its
 * samples.  Not for the other importers: they build documents with
 * fio.h.
 */
#include <jansson.h>
#include "core/sbuf.h"
#include "core/strmap.h"
#include "import/importer.h"
#include "fio-json.h"

enum { DIR_READ, DIR_WRITE, DIR_TRIM, DIR_MIXED, NR_DIRS };
extern const char *const dir_names[NR_DIRS];	/* "read", ... */

enum { LAT_S, LAT_C, LAT_T, NR_LATS };
extern const char *const lat_names[NR_LATS];	/* "slat", "clat", "lat" */

/* Numbers of a job emitted as they are (fio-job.c). */
struct job_field {
	const char *key, *unit;
};
#define NR_JOB_FIELDS 5
extern const struct job_field job_fields[NR_JOB_FIELDS];

/*
 * A latency histogram summed over the jobs (json+ "bins": a bin's
 * latency, in ns, and its count): the bins of several jobs add up
 * exactly, and so do the runs of a variant later.
 */
struct fhist {
	double *v, *c;
	size_t nr, alloc;
	struct strmap idx;	/* the value's 8 bytes -> index */
	long line;
};

/*
 * A job as it is kept, in the spill (struct spill): the numbers of
 * job_fields[] that it has, then its directions that did I/O.
 */
struct job_rec {
	uint32_t nr_dirs;
	uint32_t fields;		/* bit i: job_fields[i] present */
	double field[NR_JOB_FIELDS];
};

/*
 * A direction of a job that did I/O (or may have: see io_kib()), then
 * for each latency type its nr_pct percentile codes (uint32_t, see
 * pct_code()) and values (double, ns).
 */
struct dir_rec {
	unsigned char dir;		/* DIR_* */
	unsigned char have_ios, io_in_bytes;
	unsigned char measured;		/* bit k: latency k measured */
	uint32_t nr_pct[NR_LATS];
	double ios, io, bw_kibs, iops, runtime_ms;
	double mean_ns[NR_LATS], stddev_ns[NR_LATS];
};

/*
 * The job records, written once in job order and read back twice (the
 * pooled stddevs, then the samples).  Past SPILL_MEM bytes in memory
 * they go to an unlinked temporary file in $TMPDIR, so that memory does
 * not grow with the jobs (SQLite's temp_store = FILE, the dry run's
 * database); if no file can be made or written, they stay in memory.
 */
#define SPILL_MEM (256u << 10)

struct spill {
	struct sbuf mem;	/* the records after those in the file */
	int fd;			/* the temporary file, or -1 */
	int no_file;		/* none could be made or written */
	uint64_t file_len;	/* bytes in the file */
	uint64_t pos;		/* reading: offset over the file, then mem */
	unsigned char *buf;	/* owned, SPILL_BUF bytes of the file */
	uint64_t buf_pos;	/* offset of buf in the file */
	size_t buf_len;
};

/* A weighted mean built one value at a time. */
struct wmean {
	double w, mean;
};

/* Named weighted means (percentiles, latency buckets), first seen first. */
struct acc {
	uint32_t id;		/* name in fio_state.names */
	struct wmean m;
};

struct acc_list {
	struct acc *v;		/* owned */
	size_t nr, alloc;
	size_t next;		/* where the next name usually is */
};

/* The totals of one direction over the jobs. */
struct dir_total {
	int present;
	double bw_kibs, iops, weight, io_kib, runtime_ms;
	struct wmean lat[NR_LATS];	/* mean latency over the jobs */
};

/*
 * Everything summed over the jobs in job order, as the totals were
 * computed when the whole document was held.
 */
struct totals {
	struct dir_total dir[NR_DIRS];
	struct acc_list pct[NR_DIRS][NR_LATS];	/* P -> mean over jobs */
	struct acc_list buckets;		/* latency_Nus% -> mean */
};

/* A job option and what the jobs say of it, for the params. */
struct param_cand {
	char *key;		/* owned */
	char *value;		/* owned: the first job's own string, or NULL */
	size_t nr_own;		/* jobs that give it as a string */
	int differ;		/* two jobs give two different strings */
};

/* Interned names: percentiles ("99.95"), buckets, odd percentile keys. */
struct names {
	struct sbuf text;	/* the names, each ending in NUL */
	size_t *off;		/* owned: where name i starts in text */
	size_t nr, alloc;
	struct strmap ids;	/* name -> i */
};

/* A percentile code whose name is a key that is not a number. */
#define PCT_BAD 0x80000000u

/* One held value of a document (fio-emit.c). */
struct pending;

struct fio_state {
	struct import_ctx *ctx;		/* borrowed */
	const char *path;		/* borrowed, for messages */
	long line0;			/* line of the object's '{' */

	/* top-level members; the last of a name wins, as in jansson */
	long ver_major, ver_minor;	/* -1 if "fio version" is unknown */
	double timestamp, timestamp_ms;
	struct fj global;		/* "global options" (root: none) */
	enum { JOBS_NONE, JOBS_ARRAY, JOBS_OTHER } jobs_kind;

	/* the elements of the last "jobs" array */
	size_t nr_jobs;
	struct spill spill;		/* their records */
	struct sbuf jobnames;		/* their names, each ending in NUL */
	/* [0]: io_bytes in KiB (fio < 2.21), [1]: in bytes */
	struct totals tot[2];
	int bytes;			/* the one that holds: fio >= 2.21 */
	struct wmean lat_var[NR_DIRS][NR_LATS];	/* of tot[bytes], at the end */
	double workload;
	int have_ios;			/* every direction has total_ios */
	struct param_cand *cands;	/* owned, in first-seen order */
	size_t nr_cands, alloc_cands;
	struct strmap cand_ids;		/* key -> index in cands */
	/* the first bad value of a job, reported after the document */
	int job_failed;
	size_t job_err_index;
	struct sbuf job_err;		/* without "path:line: " */
	/* the syntax error that stopped the parse, or "" */
	struct sbuf parse_err;
	/* the lines of the "jobname" keys found in the text */
	const long *jobname_line;	/* borrowed from the reader */
	size_t nr_jobname_lines;

	struct fj job;			/* the job being read, as a tree */
	struct fj member;		/* the top-level member being read */
	struct sbuf key;		/* its key */
	struct names names;
	struct strmap pct_keys;		/* percentile key -> code */
	/* one job's directions and percentiles, while written or read */
	struct dir_rec dirs[NR_DIRS];
	uint32_t *pct_id;		/* owned */
	double *pct_val;		/* owned */
	size_t nr_pct, alloc_pct_id, alloc_pct_val;
	struct sbuf name;		/* scratch metric name */
	struct sbuf scratch;
	/*
	 * --status-interval: the values of the last complete document,
	 * held (emitf() appends here) until the next one shows it was a
	 * snapshot (then they are series points at its timestamp) or the
	 * file ends (then they are the run's samples).
	 */
	/* json+: the bins of this document, and of the last complete one */
	struct fhist hist[NR_DIRS][NR_LATS], final[NR_DIRS][NR_LATS];
	int hold;			/* more than one document */
	struct pending *pend;
	size_t nr_pend, alloc_pend;
	struct sbuf pend_names;		/* their names, each ending in NUL */
};

/* The reader of fio-read.c. */
struct reader {
	struct input *in;		/* borrowed */
	unsigned char *chunk;		/* owned, READ_CHUNK bytes */
	const unsigned char *p, *end;	/* read, not yet consumed */
	long line;			/* line of the next byte */
	int failed;			/* a read error was reported */
	/*
	 * Inside the top-level object: the "jobname" keys are looked for
	 * in the text, and consumed bytes go to cap (after SLOT bytes).
	 */
	int in_object;
	int pat;			/* bytes of "\"jobname\"" matched */
	long *jobname_line;		/* owned */
	size_t nr_jobname_lines, alloc_jobname_lines;
	struct sbuf cap;
	long cap_line;			/* line of the first captured byte */
};

/*
 * The increment is exact for the first value (w / W == 1) and keeps the
 * mean exact when all values are equal: one job gives back the job's
 * own numbers, bit for bit.
 */
static inline void wmean_add(struct wmean *m, double value, double w)
{
	if (!(w > 0))
		return;
	m->w += w;
	m->mean += (value - m->mean) * (w / m->w);
}

static inline const char *name_str(const struct names *n, uint32_t id)
{
	return n->text.buf + n->off[id];
}

/*
 * The I/O volume in KiB: io_kbytes, or io_bytes, which was KiB "since
 * the dawn of time" until fio-2.21 and bytes from then on.  "fio
 * version" may come after the jobs, or twice, so the jobs keep io_bytes
 * as it is, and the totals are kept for both units (bytes = 0, 1).
 */
static inline double io_kib(int io_in_bytes, double io, int bytes)
{
	return io_in_bytes && bytes ? io / 1024 : io;
}

/*
 * The line of job j's "jobname" key, found in the text of the object
 * (jansson keeps no positions).  If the count does not match the jobs,
 * every job gets the line of the '{'.
 */
static inline long job_line(const struct fio_state *st, size_t j)
{
	return st->nr_jobname_lines == st->nr_jobs ? st->jobname_line[j]
						   : st->line0;
}


/* fio.c: a top-level member other than an array, the root of
 * st->member; of a jansson value (borrowed). */
void fio_member_take(struct fio_state *st, const char *key);
void fio_member_take_json(struct fio_state *st, const char *key,
			  const json_t *value);

/* fio-read.c: the reader over in, whose first bytes input_open() read. */
void reader_init(struct reader *r, struct input *in);
void reader_release(struct reader *r);
/*
 * Where the JSON starts: the first line that starts with '{'.  Returns
 * 1 there (not consumed), 0 at the end; *any tells if there was a byte.
 * Before it: text of at most FIO_PREAMBLE_MAX bytes (fio's diagnostics,
 * the normal report of --output-format=normal,json: a few KiB a job),
 * else -1 after error().
 */
#define FIO_PREAMBLE_MAX (64 << 20)
int fio_find_json_start(struct reader *r, int *any);
/*
 * The top-level object, its '{' next: 0 after its '}', or -1 with the
 * syntax error recorded in st->parse_err (or the file cut short).
 */
int fio_read_document(struct fio_state *st, struct reader *r);
/* After the object: the line of the next line starting with '{', or 0. */
long fio_next_object_line(struct reader *r);
/* Read to the end (the content hashed, a read error reported). */
void fio_drain(struct reader *r);

/* fio-job.c: the release of a histogram and of the totals (to zeros) */
void fhist_release(struct fhist *h);
void totals_release(struct totals *t);
/*
 * Check element j of "jobs" and keep what the run and the samples need
 * of it; the sums over jobs advance in job order.
 */
void fio_job_add(struct fio_state *st, const struct fj_node *job, size_t j);
/*
 * Read back the next job's record: its directions into st->dirs, their
 * percentiles into st->pct_* in the same order (pct 0: skip them).
 * 0 or error().
 */
int fio_job_read(struct fio_state *st, struct job_rec *jr, int pct);
/* A new "jobs" member (kind JOBS_*): it replaces the earlier one. */
void fio_reset_jobs(struct fio_state *st, int kind);

/* fio-spill.c; spill_read(): 0, or -1 and errno. */
void spill_init(struct spill *s);
void spill_release(struct spill *s);
void spill_add(struct spill *s, const void *data, size_t len);
void spill_rewind(struct spill *s);
int spill_read(struct spill *s, void *data, size_t len);

/*
 * fio-emit.c, each 0 or -1 after error(): the held values as the run's
 * samples, or as one point each of their series at t (seconds); the
 * pooled variances (a pass over the records, once the document is
 * read); the totals, each job's samples, the run and its params; the
 * json+ histograms of the last complete document.
 */
int fio_pending_samples(struct fio_state *st);
int fio_pending_series(struct fio_state *st, double t);
int fio_pool_variances(struct fio_state *st);
int fio_emit_totals(struct fio_state *st);
int fio_emit_jobs(struct fio_state *st);
int fio_emit_run(struct fio_state *st);
int fio_emit_histograms(struct fio_state *st);

#endif
