/*
 * The shared options' callbacks, words and argument structs (see
 * options.h).
 */
#include "core/compat.h"
#include "options.h"
#include "strlist.h"

const struct opt_word cmp_test_words[] = {
	{ "auto", CMP_TEST_AUTO },
	{ "welch", CMP_TEST_WELCH },
	{ "mwu", CMP_TEST_MWU },
	{ "moderated", CMP_TEST_MODERATED },
	{ NULL, 0 },
};

const struct opt_word cmp_fdr_words[] = {
	{ "bh", 1 },
	{ "none", 0 },
	{ NULL, 0 },
};

int opt_by(const struct opt *o UNUSED, const char *arg, void *dim_arg)
{
	struct dim_arg *d = dim_arg;

	free(d->param);
	d->param = NULL;
	if (dim_parse(arg, &d->dim, &d->param))
		return error("--by wants label, kernel, commit, machine or "
			     "param:NAME, got '%s'", arg);
	return 0;
}

void compare_args_init(struct compare_args *a)
{
	static const struct cmp_opts init = CMP_OPTS_INIT;

	a->o = init;
	a->o.alpha = ALPHA_FAMILY;
	a->by.dim = DIM_AUTO;
	a->by.param = NULL;
}

void compare_args_done(struct compare_args *a)
{
	a->o.dim = a->by.dim;
	a->o.param = a->by.param;
}

void compare_args_release(struct compare_args *a)
{
	strlist_release(&a->o.testcase_globs);
	strlist_release(&a->o.metric_globs);
	strlist_release(&a->o.ignore_params);
	free(a->by.param);
	a->by.param = NULL;
	a->o.param = NULL;
}
