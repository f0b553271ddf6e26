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

#endif
