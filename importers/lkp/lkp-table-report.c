/*
 * The report around the tables, for the lkp-table importer (see
 * lkp-table-int.h; the format is described at the top of lkp-table.c):
 * the robot's body (its headline, subject, commit and facts), the '='
 * block of axes, the "commit:" list of the columns, the "parameters:".
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "lkp-table-int.h"

/* ---- small helpers ---- */

void lt_free_axes(struct lkp_table *t)
{
	size_t i;

	/*
	 * NULLed: the next table's keys may come without its values (then
	 * its values' slots must not hold this table's freed ones)
	 */
	for (i = 0; i < t->nr_axes; i++) {
		free(t->axis_key[i]);
		free(t->axis_val[i]);
		t->axis_key[i] = t->axis_val[i] = NULL;
	}
	t->nr_axes = 0;
}

static char *xstrndup_trim(const char *s)
{
	size_t n;

	s = skip_blanks(s);
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return xstrndup(s, n);
}

static void set_str(char **dst, const char *s)
{
	free(*dst);
	*dst = xstrndup_trim(s);
}

static void add_param(struct lkp_table *t, const char *key, const char *val)
{
	size_t i;

	for (i = 0; i < t->nr_params; i++)
		if (!strcmp(t->params[i].key, key)) {
			free((char *)t->params[i].value);
			t->params[i].value = xstrndup_trim(val);
			return;
		}
	ALLOC_GROW(t->params, t->nr_params + 1, t->alloc_params);
	t->params[t->nr_params].key = xstrndup_trim(key);
	t->params[t->nr_params].value = xstrndup_trim(val);
	t->nr_params++;
}

/* ---- the robot's body ---- */

/*
 * "kernel test robot noticed a 2.6% regression of M on:" and "FYI, we
 * noticed a -9.1% regression of M due to commit:".  1 if it was one.
 */
static int headline(struct lkp_table *t, const char *s, long lineno,
		    int depth)
{
	const char *p = strstr(s, "noticed a ");
	double pct;
	const char *of, *end;

	if (!p)
		return 0;
	p += strlen("noticed a ");
	if (str_double(&p, &pct) || *p != '%')
		return 0;
	p++;
	if (!starts_with(p, " regression of ") &&
	    !starts_with(p, " improvement of "))
		return 0;
	of = strstr(p, " of ") + 4;
	end = of;
	while (*end && !isspace((unsigned char)*end))
		end++;
	if (end == of)
		return 0;
	if (t->headline && t->headline_subject &&
	    (strncmp(t->headline, of, (size_t)(end - of)) ||
	     t->headline[end - of] ||
	     fabs(fabs(t->headline_pct) - fabs(pct)) > 0.05))
		db_warn(t->ctx, lineno, "the subject says '%s %g%%', the body "
			"'%.*s %g%%'", t->headline, t->headline_pct,
			(int)(end - of), of, pct);
	free(t->headline);
	t->headline = xstrndup(of, (size_t)(end - of));
	t->headline_pct = pct;
	t->headline_line = lineno;
	t->headline_subject = 0;
	/* a quoted report: the reply keeps what it talks about, unchecked */
	t->headline_depth = depth ? -1 : 0;
	t->improvement = starts_with(p, " improvement");
	return 1;
}

/*
 * The robot's subject, of every era (a reply's "Re: " in front):
 *   [lkp-robot] [mm/cma] 2b0f904a5a: fio.read_bw_MBps -16.1% regression
 *   [genirq] cbe16f35be: will-it-scale.per_thread_ops -5.2% regression
 *   [linus:master] [llist]  375700bab5:  will-it-scale.per_thread_ops 2.6% regression
 *   [linux-next:master] [fork] 6e553c6bcb: aim7.jobs-per-min 94.7% improvement
 * The mail driver hands it over as a "Subject: ..." line.  Its headline
 * stands until the body names one.  1 if it was one.
 */
static int subject(struct lkp_table *t, const char *s, long lineno)
{
	char buf[1024], *tok[MAX_TOKENS];
	const char *pct_end;
	size_t n, i, len;
	double pct;

	if (!starts_with(s, "Subject:") || strlen(s) >= sizeof(buf))
		return 0;
	memcpy(buf, s, strlen(s) + 1);
	n = tokenize(buf, tok, MAX_TOKENS);
	if (n < 5 || n > MAX_TOKENS)
		return 1;
	/* it ends in "<sha>:" metric "<pct>%" regression|improvement */
	i = n - 4;
	len = strlen(tok[i]);
	if (len < 8 || tok[i][len - 1] != ':')
		return 1;
	tok[i][len - 1] = '\0';
	pct_end = tok[i + 2];
	if (!is_hex_id(tok[i], 7) || str_double(&pct_end, &pct) ||
	    strcmp(pct_end, "%") || (strcmp(tok[i + 3], "regression") &&
				     strcmp(tok[i + 3], "improvement")))
		return 1;
	if (t->headline)
		return 1;
	t->headline = xstrdup(tok[i + 1]);
	copy_sha(t->headline_sha, tok[i]);
	t->headline_pct = pct;
	t->headline_line = lineno;
	t->headline_subject = 1;
	t->headline_depth = strncasecmp(tok[1], "Re:", 3) ? 0 : -1;
	t->improvement = !strcmp(tok[i + 3], "improvement");
	return 1;
}

/* A "key: value" line of the robot's body; 1 if it was one. */
static int body_fact(struct lkp_table *t, const char *s)
{
	static const struct {
		const char *prefix;
		size_t field;
	} facts[] = {
		{ "in testcase:", offsetof(struct lkp_table, testcase) },
		{ "testcase:", offsetof(struct lkp_table, testcase) },
		{ "on test machine:", offsetof(struct lkp_table, machine_desc) },
		{ "test machine:", offsetof(struct lkp_table, machine_desc) },
		{ "config:", offsetof(struct lkp_table, config) },
		{ "compiler:", offsetof(struct lkp_table, compiler) },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(facts); i++)
		if (starts_with(s, facts[i].prefix)) {
			set_str((char **)((char *)t + facts[i].field),
				s + strlen(facts[i].prefix));
			return 1;
		}
	return 0;
}

/* "commit: <sha40> ("subject")" in the body: the head commit. */
static int body_commit(struct lkp_table *t, const char *s)
{
	char sha[41];
	size_t n = 0;

	if (!starts_with(s, "commit:"))
		return 0;
	s = skip_blanks(s + 7);
	while (n < 40 && isxdigit((unsigned char)s[n])) {
		sha[n] = (char)tolower((unsigned char)s[n]);
		n++;
	}
	if (n != 40)
		return 0;
	sha[n] = '\0';
	set_str(&t->head_sha, sha);
	return 1;
}

/* ---- lines ---- */

/* The '=' block: keys, then values.  1 if the line was taken. */
static int axis_line(struct lkp_table *t, const char *s, long lineno)
{
	char buf[LINE_CAP];
	size_t klen = strlen(s), k = 0;

	if (t->st == ST_AXIS_KEYS) {
		char *p, *save = NULL;

		if (!klen)
			return 1;
		if (s[klen - 1] != ':' || klen >= sizeof(buf)) {
			t->st = ST_TEXT;
			return 0;
		}
		memcpy(buf, s, klen - 1);
		buf[klen - 1] = '\0';
		for (p = strtok_r(buf, "/", &save); p && k < MAX_AXES;
		     p = strtok_r(NULL, "/", &save))
			t->axis_key[k++] = xstrndup_trim(p);
		t->nr_axes = k;
		t->st = ST_AXIS_VALUES;
		return 1;
	}
	/* ST_AXIS_VALUES */
	if (!klen)
		return 1;
	{
		const char *p = s;

		while (k < t->nr_axes) {
			const char *slash = strchr(p, '/');

			if (!slash && k + 1 < t->nr_axes)
				break;
			/* the last value takes the rest: it may hold '/' */
			if (k + 1 == t->nr_axes)
				t->axis_val[k] = xstrndup_trim(p);
			else
				t->axis_val[k] = xstrndup(p,
							  (size_t)(slash - p));
			k++;
			p = slash ? slash + 1 : p + strlen(p);
		}
	}
	t->st = ST_TEXT;
	if (k != t->nr_axes) {
		db_warn(t->ctx, lineno, "%zu axis names above, %zu values here: "
			"the axes are left out", t->nr_axes, k);
		lt_free_axes(t);
		return 0;
	}
	return 1;
}

/* An entry of the "commit:" list: "<id> ("subject")" or a name. */
static int list_line(struct lkp_table *t, const char *s)
{
	char key[32];
	size_t n = 0;

	if (!*s)
		return t->nr_list ? (t->st = ST_TEXT, 1) : 1;
	while (s[n] && !isspace((unsigned char)s[n]))
		n++;
	if (n < 2 || n > 64 || (s[n] && s[n + 1] != '(' && s[n + 1] != '"') ||
	    t->nr_list == MAX_COLS) {
		t->st = ST_TEXT;
		return 0;
	}
	t->list[t->nr_list++] = xstrndup(s, n);
	/*
	 * the commits of the columns with their subjects, kept as import
	 * metadata column.1, column.2, ...
	 */
	snprintf(key, sizeof(key), "column.%d", ++t->list_lines);
	return db_import_meta(t->ctx, 0, key, s) ? -1 : 1;
}

/*
 * The line in the state a header left: axes, the commit list, the
 * parameters (line as written, s past its blanks).  1 if it was taken,
 * 0 if it is to be read as any other, -1 after error().
 */
int lt_state_line(struct lkp_table *t, const char *line, const char *s,
		  long lineno)
{
	const char *colon;
	char *key;
	int rc;

	switch (t->st) {
	case ST_AXIS_KEYS:
	case ST_AXIS_VALUES:
		return axis_line(t, s, lineno) ? 1 : 0;
	case ST_LIST:
		rc = list_line(t, s);
		return rc < 0 ? -1 : rc > 0;
	case ST_PARAMS:
		if (!*s) {
			if (t->nr_params)
				t->st = ST_TEXT;
			return 1;
		}
		colon = line[0] == ' ' || line[0] == '\t' ? strchr(s, ':') :
			NULL;
		if (colon) {
			key = xstrndup(s, (size_t)(colon - s));
			add_param(t, key, colon + 1);
			free(key);
			return 1;
		}
		t->st = ST_TEXT;
		return 0;
	case ST_TEXT:
		break;
	}
	return 0;
}

/* The robot's prose: 1 if the line says something the tables need. */
int lt_prose_line(struct lkp_table *t, const char *s, long lineno,
		  int depth)
{
	if (starts_with(s, "Message-ID:")) {
		set_str(&t->msgid, s + 11);
		return 1;
	}
	if (headline(t, s, lineno, depth) || subject(t, s, lineno) ||
	    body_commit(t, s) || body_fact(t, s))
		return 1;
	if (!strcmp(s, "commit:")) {
		free_strs(t->list, &t->nr_list);
		t->st = ST_LIST;
		return 1;
	}
	if (!strcmp(s, "parameters:") ||
	    !strcmp(s, "with following parameters:")) {
		t->st = ST_PARAMS;
		return 1;
	}
	return 0;
}
