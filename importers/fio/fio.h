#ifndef FIO_H
#define FIO_H
/*
 * One fio document, built by the importers of fio's other output forms
 * (terse, normal): each job given as fio's JSON would print it (jobs[i],
 * the keys fio.c reads), so that every form gets the JSON importer's
 * names, units, totals and checks, by the same code.
 *
 *   d = fio_doc_new(ctx, path, line);
 *   fio_doc_member(d, "fio version", json_string("fio-3.33"));  (borrowed)
 *   fio_doc_job(d, job, line);	(borrowed; jobname, read/write/trim with
 *				 io_kbytes, bw, iops, runtime, total_ios,
 *				 slat_ns/clat_ns/lat_ns {min, max, mean,
 *				 stddev, N, percentile}, usr_cpu, ...)
 *   fio_doc_end(d);		(the run and its samples; frees d)
 */
#include <jansson.h>
#include "store/db.h"
#include "core/input.h"

struct fio_doc;

struct fio_doc *fio_doc_new(struct import_ctx *ctx, const char *path,
			    long line);
/* A top-level member: "fio version", "timestamp", "global options"
 * (value borrowed). */
void fio_doc_member(struct fio_doc *d, const char *key, json_t *value);
/* One job; line: where the form printed it. */
void fio_doc_job(struct fio_doc *d, json_t *job, long line);
/* Check it, emit the run and its samples, free d.  0 or -1 after error(). */
int fio_doc_end(struct fio_doc *d);
/* Free d without emitting (after an error). */
void fio_doc_free(struct fio_doc *d);

/* The JSON importer's detect() (fio.c): fio-dir finds its JSON with it. */
int fio_detect(const char *path, const char *head, size_t len);

/*
 * The logs (fio-log.c), for fio-dir: is name a log's (P_bw.N.log, ...);
 * the job names of the JSON at path (fio_jobs_load(): 0 or -1; released
 * with fio_jobs_release()); one log read into the current run with them
 * (jm NULL: a log alone, its own run), 0 or -1 after error().
 */
struct fio_jobs {
	char **names;		/* owned: J of jobs[i], as the fio importer */
	char **options;		/* owned: per job, "key=value\n..." of the
				 * log options, for checks */
	size_t nr;
	int merged;		/* group_reporting: not one entry a thread */
	int fio2;		/* fio 2.x: latencies in µs */
};
int fio_log_named(const char *name);
int fio_jobs_load(struct fio_jobs *jm, const char *path);
void fio_jobs_release(struct fio_jobs *jm);
int fio_log_read(struct import_ctx *ctx, struct input *in,
		 const struct fio_jobs *jm);

#endif
