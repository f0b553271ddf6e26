/*
 * Filter options shared by runs, metrics and show (see filter.h).
 */
#include "core/compat.h"
#include "filter.h"

void cli_filter_init(struct cli_filter *cf)
{
	memset(cf, 0, sizeof(*cf));
	cf->dim = DIM_AUTO;
}

static void set_variant(struct cli_filter *cf, enum dim dim, const char *arg)
{
	if (cf->sel_text && cf->dim != dim)
		die(EXIT_USAGE, "give only one of --label, --kernel, --commit");
	cf->dim = dim;
	cf->sel_text = arg;
}

int cli_filter_opt(struct cli_filter *cf, int c, const char *arg)
{
	switch (c) {
	case F_LABEL: set_variant(cf, DIM_LABEL, arg); break;
	case F_KERNEL: set_variant(cf, DIM_KERNEL, arg); break;
	case F_COMMIT: set_variant(cf, DIM_COMMIT, arg); break;
	case F_MACHINE: cf->f.machine = arg; break;
	case F_TESTCASE: cf->f.testcase = arg; break;
	case F_SUITE: cf->f.suite = arg; break;
	case F_JSON: cf->json = 1; return 1;
	default: return 0;
	}
	cf->any = 1;
	return 1;
}

int cli_filter_resolve(struct cli_filter *cf, struct db *db, int *status)
{
	int r;

	if (!cf->sel_text)
		return 0;
	r = selector_resolve(db, cf->sel_text, cf->dim, NULL, &cf->sel);
	if (r) {
		*status = r == -1 ? EXIT_USAGE : EXIT_ENV;
		selector_release(&cf->sel);
		return -1;
	}
	cf->f.sel = &cf->sel;
	return 0;
}

void cli_filter_release(struct cli_filter *cf)
{
	if (cf->f.sel)
		selector_release(&cf->sel);
}
