/*
 * html-page: a stand-in for `perfsift report BASE NEW... --html DIR`
 * until cli/cmd-report.c exists, for tests/t6200-report-html.sh only:
 * the calls the report command makes (selectors resolved, the
 * comparison computed, report_html()), and its exit statuses.  Built
 * for the tests (make check), not part of perfsift.
 *
 *   html-page DB DIR [--all] [--alpha A] [--title T] BASE NEW...
 */
#include "core/compat.h"
#include "stats/compare.h"
#include "store/db.h"
#include "../plots/html.h"
#include "core/strparse.h"

int main(int argc, const char **argv)
{
	struct cmp_opts o = CMP_OPTS_INIT;
	struct html_opts ho = { 0 };
	struct selector *var;
	struct comparison cmp;
	struct db db;
	size_t nvar, i;
	int a = 3, status = EXIT_OK;

	for (; a < argc && !strncmp(argv[a], "--", 2); a++) {
		if (!strcmp(argv[a], "--all"))
			ho.all = 1;
		else if (!strcmp(argv[a], "--alpha") && a + 1 < argc &&
			 !str_to_double(argv[a + 1], &o.alpha))
			a++;
		else if (!strcmp(argv[a], "--title") && a + 1 < argc)
			ho.title = argv[++a];
		else
			break;
	}
	if (argc < 3 || argc - a < 2) {
		fprintf(stderr, "usage: html-page DB DIR [--all] [--alpha A] "
			"[--title T] BASE NEW...\n");
		return EXIT_USAGE;
	}
	if (db_open(&db, argv[1]))
		return EXIT_ENV;
	nvar = (size_t)(argc - a);
	var = xcalloc(nvar, sizeof(*var));
	for (i = 0; i < nvar; i++) {
		int r = selector_resolve(&db, argv[a + i], DIM_AUTO, NULL,
					 &var[i]);

		if (r) {
			status = r == -1 ? EXIT_USAGE : EXIT_ENV;
			nvar = i;
			goto out;
		}
	}
	if (compare_variants(&db, var, nvar, &o, &cmp)) {
		status = EXIT_ENV;
		goto out;
	}
	ho.names = argv + a;
	if (report_html(&cmp, &ho, argv[2]))
		status = EXIT_ENV;
	comparison_release(&cmp);
out:
	for (i = 0; i < nvar; i++)
		selector_release(&var[i]);
	free(var);
	db_close(&db);
	return status;
}
