/*
 * What several extractors read the same way (extract.h): Perl's reading
 * of a number, MMTests' numeric sort and uniq() of factors taken from
 * file names, a repetition's number in a file name, and logs/workloads.
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "extract.h"

double mmx_perl_num(const char *s)
{
	char buf[64];
	size_t n = strspn(s, "0123456789.eE+-");

	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return strtod(buf, NULL);
}

static int cmp_factor(const void *a, const void *b)
{
	const struct mmx_factor *x = a, *y = b;

	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

size_t mmx_sort_factors(struct mmx_factor *v, size_t n, int uniq)
{
	size_t i, j, k;

	QSORT(v, n, cmp_factor);
	if (!uniq)
		return n;
	/* MMTests' uniq(): the first of equal texts stays */
	for (i = k = 0; i < n; i++) {
		for (j = 0; j < k && strcmp(v[j].text, v[i].text); j++)
			;
		if (j < k)
			free(v[i].text);
		else
			v[k++] = v[i];
	}
	return k;
}

void mmx_factors_free(struct mmx_factor *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i].text);
	free(v);
}

long mmx_rep_of(const char *name, const char *suffix, long fallback)
{
	const char *p = strrchr(name, '-');
	long n = 0;

	if (!p)
		return fallback;
	for (p++; *p >= '0' && *p <= '9' && n < 1000000; p++)
		n = n * 10 + (*p - '0');
	return strcmp(p, suffix) || !n ? fallback : n;
}

int mmx_workloads(struct mmx *x, const char *prefix, char ***out, size_t *nr)
{
	const struct mmx_file *f = mmx_find(x, "workloads");
	const char *test = mmx_test(x), *s, *sp;
	size_t alloc = 0, plen = strlen(prefix);
	struct input in;
	int r;

	*out = NULL;
	*nr = 0;
	if (!f) {
		if (strncmp(test, prefix, plen) || !test[plen])
			return error("%s: no logs/workloads, and the test's "
				     "name does not say the workload", test);
		mmx_warn(x, 0, "no logs/workloads: the workload is '%s', from "
			 "the test's name", test + plen);
		ALLOC_GROW(*out, 1, alloc);
		(*out)[(*nr)++] = xstrdup(test + plen);
		return 0;
	}
	if (mmx_open(x, f, &in))
		return -1;
	r = input_getline(&in);
	for (s = r > 0 ? in.sb.buf : ""; *s; s = *sp ? sp + 1 : sp) {
		sp = strchrnul(s, ' ');
		if (sp == s)
			continue;
		ALLOC_GROW(*out, *nr + 1, alloc);
		(*out)[(*nr)++] = xstrndup(s, (size_t)(sp - s));
	}
	if (mmx_close(x, f, &in) || r < 0)
		return -1;
	if (!*nr)
		mmx_warn(x, 1, "no workload named: nothing to read");
	return 0;
}
