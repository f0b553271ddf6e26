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

/* The faults of one client. */
struct faults {
	const char *name;	/* the client, as its file names it */
	char both[32];		/* fault-both-<name> */
	int seen_base, seen_huge;
};

/* "fault <tid> <base|huge> <usec> <epoch> <n>" */
static long fault(struct mmx *x, const struct mmx_line *l, void *data)
{
	struct faults *c = data;
	const char *p = l->s, *type;
	size_t len;
	double usec, epoch;
	char op[32];

	if (!starts_with(p, "fault"))
		return 0;
	word(&p, &len);			/* fault */
	word(&p, &len);			/* the thread */
	type = word(&p, &len);
	str_skip_blanks(&p);
	if (!len || str_double(&p, &usec) || (*p != ' ' && *p != '\t') ||
	    (str_skip_blanks(&p), str_double(&p, &epoch)) ||
	    (*p && *p != ' ' && *p != '\t'))
		return error("%s:%ld: expected 'fault <thread> <base|huge> "
			     "<usec> <epoch> ...', got '%.80s'", l->f->path,
			     l->no, l->s);
	op[0] = '\0';
	if (len == 4 && (!memcmp(type, "base", 4) ||
			 !memcmp(type, "huge", 4))) {
		*(type[0] == 'b' ? &c->seen_base : &c->seen_huge) = 1;
		snprintf(op, sizeof(op), "fault-%.4s-%s", type, c->name);
	} else {
		/* MMTests stores it but reports only its own list */
		mmx_warn(x, l->no, "fault type '%.*s' is neither base nor "
			 "huge: counted in %s only", (int)(len > 20 ? 20 : len),
			 type, c->both);
	}
	if ((op[0] && mmx_add(x, op, 0, epoch, usec, l->no)) ||
	    mmx_add(x, c->both, 0, epoch, usec, l->no))
		return -1;
	return 1;
}

static const struct mmx_reader threads_file = { .line = fault };

static int one_client(struct mmx *x, const struct mmx_numbered *v)
{
	struct faults c = { NULL, "", 0, 0 };
	char name[16], op[32];
	long nr;

	snprintf(name, sizeof(name), "%.*s", (int)v->len, v->digits);
	c.name = name;
	snprintf(c.both, sizeof(c.both), "fault-both-%s", name);
	if ((nr = mmx_read(x, v->f, 0, &threads_file, &c)) < 0)
		return -1;
	if (!nr)
		mmx_warn(x, 0, "no 'fault' line");
	/* MMTests' dummy zero, so that the operation has a sample */
	snprintf(op, sizeof(op), "fault-base-%s", name);
	if (!c.seen_base && mmx_add(x, op, 0, 0, 0, 0))
		return -1;
	snprintf(op, sizeof(op), "fault-huge-%s", name);
	if (!c.seen_huge && mmx_add(x, op, 0, 0, 0, 0))
		return -1;
	return 0;
}

/* MMTests globs the disk for threads-*.log.gz */
static const struct mmx_names logs = {
	.glob = "threads-*.log",
	.prefix = "threads-",
	.suffix = ".log",
	.flags = MMX_NUM_GZ,
};

static int extract(struct mmx *x)
{
	static const char *const kinds[] = { "base", "huge", "both" };
	struct mmx_numbered *c;
	size_t nr = mmx_numbered(x, &logs, &c), i, k;
	int ret = 0;

	for (k = 0; k < ARRAY_SIZE(kinds) && !ret; k++)
		for (i = 0; i < nr && !ret; i++) {
			char op[32];

			snprintf(op, sizeof(op), "fault-%s-%.*s", kinds[k],
				 (int)c[i].len, c[i].digits);
			ret = mmx_op(x, op, 0);
		}
	for (i = 0; i < nr && !ret; i++)
		ret = one_client(x, &c[i]);
	free(c);
	return ret;
}

static const struct mmtests_extractor extractor = {
	.summary = MMX_MULTIOPS,
	.direction = DIR_LOWER,
	.unit = "usec",
	.extract = extract,
};

const struct importer importer_mmtests_thpscale = {
	.name = "thpscale",
	.family = "mmtests",
	.what = "thpscale: fault latency (base, huge, both) per thread count",
	.flags = IMP_PART,
	.part = &extractor,
};
