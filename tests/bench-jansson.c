/*
 * make bench helper: jansson's own parse of files, as the floor the fio
 * importer is measured against (SPEC/issue 11: the import within 1.5x of
 * jansson's bare parse of the same bytes).  Each file is read and parsed
 * whole (json_load_file, what a plain jansson reader does), freed, and
 * the best of N passes over all files printed in seconds.
 *
 *   build/bench-jansson N FILE...
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double best = -1;
	int passes, p, i;

	if (argc < 3) {
		fprintf(stderr, "usage: bench-jansson N FILE...\n");
		return 2;
	}
	passes = atoi(argv[1]);
	for (p = 0; p < passes; p++) {
		double t0 = now(), dt;

		for (i = 2; i < argc; i++) {
			json_error_t err;
			/* fio's JSON: a document, maybe with lines before */
			json_t *j = json_load_file(argv[i],
						   JSON_DISABLE_EOF_CHECK, &err);

			if (!j) {
				fprintf(stderr, "%s:%d: %s\n", argv[i], err.line,
					err.text);
				return 1;
			}
			json_decref(j);
		}
		dt = now() - t0;
		if (best < 0 || dt < best)
			best = dt;
	}
	printf("%.6f\n", best);
	return 0;
}
