/*
 * The procfs importer's zoneinfo: the `Node N, zone Z` blocks of
 * /proc/zoneinfo read by a state machine, each line a point of the
 * record (procfs.c says which names, and where they differ from lkp's).
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "procfs-int.h"

/* 2.6.x per-cpu NUMA counters in the pagesets (summed per zone). */
static const char *const pcp_counters[] = {
	"interleave_hit", "local_node", "numa_", "other_node",
};

/*
 * `some key: value` (zoneinfo pagesets and tail): key of letters, digits,
 * '_' and spaces, copied to key with spaces as '_' (lkp's tr(' ', '_')).
 */
static int colon_value(const char *s, char *key, size_t keysz, double *v)
{
	const char *colon = strchr(s, ':'), *p;
	size_t n, i;

	if (!colon)
		return -1;
	n = (size_t)(colon - s);
	while (n && s[n - 1] == ' ')
		n--;
	if (!n || n >= keysz)
		return -1;
	for (i = 0; i < n; i++) {
		if (!(is_word(s[i]) || s[i] == ' '))
			return -1;
		key[i] = s[i] == ' ' ? '_' : s[i];
	}
	key[n] = '\0';
	p = colon + 1;
	str_skip_blanks(&p);
	if (pf_get_count(&p, v))
		return -1;
	str_skip_blanks(&p);
	return *p ? -1 : 0;
}

/* What a zone block lacks, or NULL when it is complete. */
static const char *zone_missing(const struct procfs *st)
{
	const struct zone *z = &st->z;

	if (!z->pages_free)
		return "'pages free'";
	if (!z->protection)
		return "'protection:'";
	if (!z->populated)
		return NULL;
	if (!z->pagesets)
		return "'pagesets'";
	if (!z->start_pfn)
		return "'start_pfn:' after the pagesets";
	if (st->ref_tail > 0 && z->tail < st->ref_tail)
		return "the zone-level lines after the pagesets that the "
		       "zones before it have";
	return NULL;
}

/*
 * Close the open zone block.  Returns 0, or 1 (and *what) when it is
 * incomplete; emits the pagesets sums of a complete one.
 */
int pf_zone_close(struct procfs *st, const char **what)
{
	struct zone *z = &st->z;
	size_t i;

	if (!z->open)
		return 0;
	z->open = 0;
	*what = zone_missing(st);
	if (*what)
		return 1;
	if (z->populated && st->ref_tail < 0)
		st->ref_tail = z->tail;
	for (i = 0; i < z->nr_sums; i++) {
		pf_make_name(st, &st->zpfx, "pagesets.", 9, z->sums[i].field);
		add_point(st, SEC_ZONEINFO, z->sums[i].kind, NULL,
			  z->sums[i].value, z->pagesets_line);
	}
	return 0;
}

int pf_zone_close_or_fail(struct procfs *st)
{
	long zline = st->z.line;
	const char *what;

	if (pf_zone_close(st, &what))
		return error("%s:%ld: expected %s in the zone block started at "
			     "line %ld before this line", st->path, st->line,
			     what, zline);
	return 0;
}

static int node_line(struct procfs *st, const char *s)
{
	const char *p = s + strlen("Node ");
	long node;
	size_t n;
	char zname[32];

	if (str_long(&p, &node) || node < 0 ||
	    str_expect_lit(&p, ", zone"))
		return pf_bad_line(st, "expected 'Node N, zone NAME', got "
				   "'%.60s'", s);
	str_skip_blanks(&p);
	n = word_len(p);
	if (!n || n >= sizeof(zname) || p[n])
		return pf_bad_line(st, "expected 'Node N, zone NAME', got "
				   "'%.60s'", s);
	memcpy(zname, p, n);
	zname[n] = '\0';
	if (pf_zone_close_or_fail(st))
		return -1;
	memset(&st->z, 0, sizeof(st->z));
	st->z.open = 1;
	st->z.node = node;
	st->z.line = st->line;
	st->z.cpu = -1;
	st->z.pcp = -1;
	st->z.populated = 1;
	sbuf_reset(&st->npfx);
	sbuf_addf(&st->npfx, "zoneinfo.node%ld.", node);
	sbuf_reset(&st->zpfx);
	sbuf_addf(&st->zpfx, "zoneinfo.node%ld.%s.", node, zname);
	st->zones++;
	return 0;
}

static void zsum_add(struct zone *z, const char *field, double v,
		     enum metric_kind kind)
{
	size_t i, n;

	for (i = 0; i < z->nr_sums; i++)
		if (!strcmp(z->sums[i].field, field)) {
			z->sums[i].value += v;
			return;
		}
	n = strlen(field);
	if (z->nr_sums == ARRAY_SIZE(z->sums) ||
	    n >= sizeof(z->sums[0].field))
		return;
	memcpy(z->sums[i].field, field, n + 1);
	z->sums[i].value = v;
	z->sums[i].kind = kind;
	z->nr_sums++;
}

/* `protection: (0, 1754, 64216, 64216)` */
static int protection_line(struct procfs *st, const char *t)
{
	const char *p = t + strlen("protection:");
	long i = 0;
	double v;
	char idx[24];

	str_skip_blanks(&p);
	if (str_expect(&p, '('))
		goto bad;
	for (;;) {
		str_skip_blanks(&p);
		if (pf_get_count(&p, &v))
			goto bad;
		snprintf(idx, sizeof(idx), "%ld", i++);
		pf_make_name(st, &st->zpfx, "protection.", 11, idx);
		add_point(st, SEC_ZONEINFO, MK_GAUGE, NULL, v, st->line);
		str_skip_blanks(&p);
		if (!str_expect(&p, ')'))
			break;
		if (str_expect(&p, ','))
			goto bad;
	}
	str_skip_blanks(&p);
	if (*p)
		goto bad;
	st->z.protection = 1;
	return 0;
bad:
	return pf_bad_line(st, "expected 'protection: (N, N, ...)', got "
			   "'%.60s'", t);
}

/* 2.6.x `scanned  66 (a: 0 i: 0)`, or plain `scanned  0` (3.x). */
static int scanned_line(struct procfs *st, const char *t)
{
	const char *p = t + strlen("scanned");
	double v, a, i;

	str_skip_blanks(&p);
	if (pf_get_count(&p, &v))
		goto bad;
	str_skip_blanks(&p);
	pf_make_name(st, &st->zpfx, "pages.scanned", 13, NULL);
	add_point(st, SEC_ZONEINFO, MK_GAUGE, NULL, v, st->line);
	if (!*p)
		return 0;
	if (str_expect_lit(&p, "(a:"))
		goto bad;
	str_skip_blanks(&p);
	if (pf_get_count(&p, &a))
		goto bad;
	str_skip_blanks(&p);
	if (str_expect_lit(&p, "i:"))
		goto bad;
	str_skip_blanks(&p);
	if (pf_get_count(&p, &i) || str_expect(&p, ')'))
		goto bad;
	str_skip_blanks(&p);
	if (*p)
		goto bad;
	pf_make_name(st, &st->zpfx, "pages.nr_scan_active", 20, NULL);
	add_point(st, SEC_ZONEINFO, MK_GAUGE, NULL, a, st->line);
	pf_make_name(st, &st->zpfx, "pages.nr_scan_inactive", 22, NULL);
	add_point(st, SEC_ZONEINFO, MK_GAUGE, NULL, i, st->line);
	return 0;
bad:
	return pf_bad_line(st, "expected 'scanned N' or 'scanned N (a: N i: "
			   "N)', got '%.60s'", t);
}

/* The largest 2.6.x pcp list number taken (0 is hot, 1 cold). */
#define PCP_LIST_MAX 99

/* `cpu: N` or 2.6.x `cpu: N pcp: P` */
static int cpu_line(struct procfs *st, const char *t)
{
	const char *p = t + strlen("cpu:");
	long cpu, pcp = -1;

	str_skip_blanks(&p);
	if (str_long(&p, &cpu) || cpu < 0)
		goto bad;
	str_skip_blanks(&p);
	if (*p) {
		if (str_expect_lit(&p, "pcp:"))
			goto bad;
		str_skip_blanks(&p);
		if (str_long(&p, &pcp) || pcp < 0 || pcp > PCP_LIST_MAX)
			goto bad;
		str_skip_blanks(&p);
		if (*p)
			goto bad;
	}
	st->z.cpu = cpu;
	st->z.pcp = (int)pcp;
	return 0;
bad:
	return pf_bad_line(st, "expected 'cpu: N' or 'cpu: N pcp: N', got "
			   "'%.60s'", t);
}

/* A `field: value` line of the current cpu block. */
static void cpu_field(struct procfs *st, const char *key, double v)
{
	struct zone *z = &st->z;
	enum metric_kind kind = pf_kind_of(pcp_counters,
					   ARRAY_SIZE(pcp_counters), key,
					   strlen(key));
	int list = z->pcp >= 0 && (!strcmp(key, "count") ||
				   !strcmp(key, "low") ||
				   !strcmp(key, "high") ||
				   !strcmp(key, "batch"));
	char sub[48];

	if (list && z->pcp <= 1)
		snprintf(sub, sizeof(sub), "cpu%ld.%s.", z->cpu,
			 z->pcp ? "cold" : "hot");
	else if (list)
		snprintf(sub, sizeof(sub), "cpu%ld.pcp%d.", z->cpu, z->pcp);
	else
		snprintf(sub, sizeof(sub), "cpu%ld.", z->cpu);
	pf_make_name(st, &st->zpfx, "pagesets.", 9, sub);
	sbuf_addstr(&st->name, key);
	add_point(st, SEC_ZONEINFO, kind, NULL, v, st->line);
	if (kind == MK_COUNTER || !strcmp(key, "count") ||
	    !strcmp(key, "high"))
		zsum_add(z, key, v, kind);
}

/* A zone-level `key: value` line after the pagesets. */
static void tail_field(struct procfs *st, const char *key, double v)
{
	st->z.phase = ZP_TAIL;
	st->z.tail++;
	if (!strcmp(key, "start_pfn"))
		st->z.start_pfn = 1;
	pf_make_name(st, &st->zpfx, key, strlen(key), NULL);
	add_point(st, SEC_ZONEINFO, MK_GAUGE, NULL, v, st->line);
}

/*
 * The indent of the zone-level lines after the pagesets in the kernel's
 * format strings; the fields of a cpu block have 12 to 14.
 */
#define ZONE_LEVEL_INDENT 2

/* A line of a zone block out of its place. */
static int unexpected(struct procfs *st, const char *t)
{
	return pf_bad_line(st, "unexpected '%.60s' in the zone block started "
			   "at line %ld", t, st->z.line);
}

/* `pages free N`: the zone's counters follow. */
static int pages_free_line(struct procfs *st, const char *t)
{
	struct zone *z = &st->z;
	const char *p = t + strlen("pages free");
	double v;

	if (z->phase != ZP_HEAD && z->phase != ZP_NODE)
		return unexpected(st, t);
	str_skip_blanks(&p);
	if (pf_get_count(&p, &v) || (str_skip_blanks(&p), *p))
		return pf_bad_line(st, "expected 'pages free N', got '%.60s'",
				   t);
	z->phase = ZP_PAGES;
	z->pages_free = 1;
	pf_make_name(st, &st->zpfx, "pages.free", 10, NULL);
	add_point(st, SEC_ZONEINFO, MK_GAUGE, NULL, v, st->line);
	return 0;
}

/*
 * The lines that mark the phases (`per-node stats`, `pages free`,
 * `protection:`, `pagesets`): 1 if t is none of them, else what
 * reading it returns.
 */
static int phase_line(struct procfs *st, const char *t)
{
	struct zone *z = &st->z;

	if (!strcmp(t, "per-node stats")) {
		if (z->phase != ZP_HEAD)
			return unexpected(st, t);
		z->phase = ZP_NODE;
		return 0;
	}
	if (starts_with(t, "pages free"))
		return pages_free_line(st, t);
	if (starts_with(t, "protection:")) {
		if (z->phase != ZP_PAGES || z->protection)
			return unexpected(st, t);
		return protection_line(st, t);
	}
	if (!strcmp(t, "pagesets")) {
		if (z->phase != ZP_PAGES)
			return unexpected(st, t);
		z->phase = ZP_PAGESETS;
		z->pagesets = 1;
		z->pagesets_line = st->line;
		return 0;
	}
	return 1;
}

/* A line of the zone's counters, after `pages free`. */
static int pages_line(struct procfs *st, const char *t, size_t indent)
{
	char key[64];
	size_t n;
	double v;

	if (starts_with(t, "scanned") && word_len(t) == strlen("scanned"))
		return scanned_line(st, t);
	if (strchr(t, ':')) {
		if (colon_value(t, key, sizeof(key), &v))
			return pf_bad_line(st, "expected 'name: value', got "
					   "'%.60s'", t);
		if (indent <= ZONE_LEVEL_INDENT) {
			tail_field(st, key, v);
			return 0;
		}
		pf_make_name(st, &st->zpfx, "pages.", 6, key);
		add_point(st, SEC_ZONEINFO, MK_GAUGE, NULL, v, st->line);
		return 0;
	}
	if (pf_name_value(t, &n, &v))
		return pf_bad_line(st, "expected 'name value' in the zone, got "
				   "'%.60s'", t);
	if (n == strlen("present") && !memcmp(t, "present", n))
		st->z.populated = v != 0;
	pf_make_name(st, &st->zpfx, "pages.", 6, NULL);
	sbuf_add(&st->name, t, n);
	add_vm_point(st, SEC_ZONEINFO, t, n, v);
	return 0;
}

/* A line of the pagesets: a cpu block's, or a zone-level one after. */
static int pagesets_line(struct procfs *st, const char *t, size_t indent)
{
	char key[64];
	double v;

	if (starts_with(t, "cpu:"))
		return cpu_line(st, t);
	if (colon_value(t, key, sizeof(key), &v))
		return pf_bad_line(st, "expected 'cpu: N' or 'name: value' in "
				   "the pagesets, got '%.60s'", t);
	/* `vm stats threshold` is per CPU although printed at zone level */
	if (!strcmp(key, "vm_stats_threshold") || indent > ZONE_LEVEL_INDENT) {
		if (st->z.cpu < 0)
			return pf_bad_line(st, "expected 'cpu: N' before "
					   "'%.60s'", t);
		cpu_field(st, key, v);
		return 0;
	}
	tail_field(st, key, v);
	return 0;
}

int pf_zoneinfo_line(struct procfs *st, const char *s)
{
	struct zone *z = &st->z;
	size_t indent = strspn(s, " \t"), n;
	const char *t = s + indent;
	char key[64];
	double v;
	int rc;

	if (!indent) {
		if (starts_with(t, "Node "))
			return node_line(st, s);
		return pf_bad_line(st, "expected 'Node N, zone NAME' or an "
				   "indented zone line, got '%.60s'", s);
	}
	if (!z->open)
		return pf_bad_line(st, "expected 'Node N, zone NAME', got "
				   "'%.60s'", s);
	rc = phase_line(st, t);
	if (rc <= 0)
		return rc;
	switch (z->phase) {
	case ZP_HEAD:
		return pf_bad_line(st, "expected 'pages free N' or 'per-node "
				   "stats' after the 'Node' line, got "
				   "'%.60s'", t);
	case ZP_NODE:
		if (pf_name_value(t, &n, &v))
			return pf_bad_line(st, "expected 'name value' in the "
					   "per-node stats, got '%.60s'", t);
		pf_make_name(st, &st->npfx, t, n, NULL);
		add_vm_point(st, SEC_ZONEINFO, t, n, v);
		return 0;
	case ZP_PAGES:
		return pages_line(st, t, indent);
	case ZP_PAGESETS:
		return pagesets_line(st, t, indent);
	case ZP_TAIL:
		if (colon_value(t, key, sizeof(key), &v) ||
		    indent > ZONE_LEVEL_INDENT)
			return pf_bad_line(st, "expected a zone-level "
					   "'name: value' line after the "
					   "pagesets, got '%.60s'", t);
		tail_field(st, key, v);
		return 0;
	}
	return unexpected(st, t);
}
