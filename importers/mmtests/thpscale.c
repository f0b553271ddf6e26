/*
 * thpscale (research/mmtests-2020-extractors.md §7): the clients are the
 * files logs/threads-C.log.gz (MMTests globs the disk for .log.gz), in
 * numeric order.  Each line "fault <tid> <base|huge> <usec> <epoch> <n>"
 * is one observation, at t = its epoch, of fault-<base|huge>-C and of
 * fault-both-C; a client with no base (huge) fault gets one 0 in
 * fault-base-C (fault-huge-C).  Operations in MMTests' explicit order:
 * every fault-base-C, then fault-huge-C, then fault-both-C.  Multiops,
 * lower is better (usec, taken as they are).
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "store/direction.h"
#include "extract.h"

struct client {
	long n;
	char name[16];		/* "12", from the file's name */
	const struct mmx_file *f;
};

/* "threads-<digits>.log" read from a .gz -> the digits; else 0. */
static int client_of(const struct mmx_file *f, struct client *c)
{
	const char *p = f->name + strlen("threads-"), *q = p;

	if (!starts_with(f->name, "threads-") || !ends_with(f->path, ".gz"))
		return 0;
	while (*q >= '0' && *q <= '9')
		q++;
	if (q == p || q - p > 9 || strcmp(q, ".log"))
		return 0;
	snprintf(c->name, sizeof(c->name), "%.*s", (int)(q - p), p);
	c->n = strtol(p, NULL, 10);
	c->f = f;
	return 1;
}

static int cmp_client(const void *a, const void *b)
{
	const struct client *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The next blank-separated word of *p: its start, *len its length. */
static const char *word(const char **p, size_t *len)
{
	const char *s;

	str_skip_blanks(p);
	s = *p;
	while (**p && **p != ' ' && **p != '\t')
		(*p)++;
	*len = (size_t)(*p - s);
	return s;
}

static int one_client(struct mmx *x, const struct client *c)
{
	struct input in;
	char op[32], both[32];
	int r, seen_base = 0, seen_huge = 0;
	long faults = 0;

	snprintf(both, sizeof(both), "fault-both-%s", c->name);
	if (mmx_open(x, c->f, &in))
		return -1;
	while ((r = input_getline(&in)) > 0) {
		const char *p = in.sb.buf, *type;
		size_t len;
		double usec, epoch;

		if (!starts_with(p, "fault"))
			continue;
		word(&p, &len);			/* fault */
		word(&p, &len);			/* the thread */
		type = word(&p, &len);
		str_skip_blanks(&p);
		if (!len || str_double(&p, &usec) ||
		    (*p != ' ' && *p != '\t') ||
		    (str_skip_blanks(&p), str_double(&p, &epoch)) ||
		    (*p && *p != ' ' && *p != '\t')) {
			error("%s:%ld: expected 'fault <thread> "
			      "<base|huge> <usec> <epoch> ...', got "
			      "'%.80s'", c->f->path, in.line,
			      in.sb.buf);
			mmx_close(x, c->f, &in);
			return -1;
		}
		op[0] = '\0';
		if (len == 4 && (!memcmp(type, "base", 4) ||
				 !memcmp(type, "huge", 4))) {
			*(type[0] == 'b' ? &seen_base : &seen_huge) = 1;
			snprintf(op, sizeof(op), "fault-%.4s-%s", type,
				 c->name);
		} else {
			/* MMTests stores it but reports only its own list */
			mmx_warn(x, in.line, "fault type '%.*s' is neither "
				 "base nor huge: counted in %s only",
				 (int)(len > 20 ? 20 : len), type, both);
		}
		if ((op[0] && mmx_add(x, op, 0, epoch, usec, in.line)) ||
		    mmx_add(x, both, 0, epoch, usec, in.line)) {
			mmx_close(x, c->f, &in);
			return -1;
		}
		faults++;
	}
	if (mmx_close(x, c->f, &in) || r < 0)
		return -1;
	if (!faults)
		mmx_warn(x, 0, "no 'fault' line");
	/* MMTests' dummy zero, so that the operation has a sample */
	snprintf(op, sizeof(op), "fault-base-%s", c->name);
	if (!seen_base && mmx_add(x, op, 0, 0, 0, 0))
		return -1;
	snprintf(op, sizeof(op), "fault-huge-%s", c->name);
	if (!seen_huge && mmx_add(x, op, 0, 0, 0, 0))
		return -1;
	return 0;
}

static int extract(struct mmx *x)
{
	static const char *const kinds[] = { "base", "huge", "both" };
	const struct mmx_file *const *f;
	size_t n = mmx_glob(x, "threads-*.log", &f), i, k, nr = 0;
	struct client *c = xcalloc(n ? n : 1, sizeof(*c));
	int ret = 0;

	for (i = 0; i < n; i++)
		if (client_of(f[i], &c[nr]))
			nr++;
	QSORT(c, nr, cmp_client);
	for (k = 0; k < ARRAY_SIZE(kinds) && !ret; k++)
		for (i = 0; i < nr && !ret; i++) {
			char op[32];

			snprintf(op, sizeof(op), "fault-%s-%s", kinds[k],
				 c[i].name);
			ret = mmx_op(x, op, 0);
		}
	for (i = 0; i < nr && !ret; i++)
		ret = one_client(x, &c[i]);
	free(c);
	return ret;
}

const struct mmtests_extractor mmx_thpscale = {
	.name = "thpscale",
	.what = "thpscale: fault latency (base, huge, both) per thread count",
	.summary = MMX_MULTIOPS,
	.direction = DIR_LOWER,
	.unit = "usec",
	.extract = extract,
};
