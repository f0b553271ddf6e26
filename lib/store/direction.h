#ifndef DIRECTION_H
#define DIRECTION_H
/*
 * Which way is better for a metric: the built-in catalog (throughput,
 * bw, iops, score: higher; latency, time, faults, stalls: lower) and the
 * user's overrides, stored in the database (table metric_directions,
 * set with `perfsift metrics --set-direction GLOB=higher|lower|unknown`).
 */
#include "store/db.h"

#define DIR_HIGHER 1
#define DIR_LOWER (-1)
#define DIR_UNKNOWN 0

/* The built-in catalog's answer for a metric name (and unit, may be NULL). */
int direction_builtin(const char *metric, const char *unit);

/*
 * The overrides, loaded once per command; then direction_of() answers
 * with an override if a glob matches (the longest pattern wins), else
 * what the importer stated (metrics.direction: MMTests' data type of an
 * operation; 0 not stated), else the catalog.
 */
struct direction_overrides {
	char **pattern;		/* owned */
	int *dir;		/* owned */
	size_t nr;
};
int direction_load(struct db *db, struct direction_overrides *o);
void direction_release(struct direction_overrides *o);
int direction_of(const struct direction_overrides *o, const char *metric,
		 const char *unit, int stated);
/* Store or delete (dir = INT_MIN) an override; 0 or error(). */
int direction_set(struct db *db, const char *pattern, int dir);
const char *direction_name(int dir);	/* "higher", "lower", "unknown" */
/*
 * A change of change_pct % read by the metric's direction: "regression",
 * "improvement", or "change" (direction unknown, no change, or NAN).
 */
const char *direction_verdict(int dir, double change_pct);
/*
 * Is the metric a benchmark's headline result (lkp's KPIs: fio's
 * bandwidth and IOPS, will-it-scale's per-thread ops, aim7's jobs per
 * minute, ...)?  compare tests these as a family of their own, the
 * primary one, so that a handful of headline numbers are not diluted by
 * the hundred details the benchmark prints beside them.
 */
int metric_is_kpi(const char *metric);
/*
 * How a report ranks it as its lead: KPI_OWN for a benchmark's own
 * result (will-it-scale.per_thread_ops), KPI_TOTAL for a sum over its
 * copies (will-it-scale.workload, which the robot never leads with), 0
 * for any other metric.
 */
enum { KPI_TOTAL = 1, KPI_OWN = 3 };
int metric_kpi_rank(const char *metric);
/* "higher"/"lower"/"unknown" -> DIR_*; -2 if none. */
int direction_parse(const char *s);

#endif
