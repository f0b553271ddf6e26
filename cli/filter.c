/*
 * Filter options shared by runs and metrics (see filter.h).
 */
#include "core/compat.h"
#include "filter.h"

void cli_filter_init(struct cli_filter *cf)
{
	memset(cf, 0, sizeof(*cf));
	cf->dim = DIM_AUTO;
}

int opt_filter_variant(const struct opt *o, const char *arg, void *value)
{
	struct cli_filter *cf = value;
	enum dim dim = (enum dim)o->defval;

	if (cf->sel_text && cf->dim != dim) {
		error("give only one of --label, --kernel, --commit");
		return OPT_ERR_SAID;
	}
	cf->dim = dim;
	cf->sel_text = arg;
	return 0;
}

int cli_filter_given(const struct cli_filter *cf)
{
	return cf->sel_text || cf->f.machine || cf->f.testcase || cf->f.suite;
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
