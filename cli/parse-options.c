/*
 * Options parsed, and the help written, from one table per command (see
 * parse-options.h).  The messages about unknown options and missing
 * arguments are getopt_long's, word for word: scripts that read them
 * see what they saw when the commands called getopt_long.
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "core/strparse.h"
#include "parse-options.h"
#include "strlist.h"

/*
 * The column of an option's help: "    --min-change PCT" and a blank
 * fit before it.  The names start at OPT_NAME_INDENT, where "-q, " ends.
 */
#define OPT_HELP_COLUMN 22
#define OPT_NAME_INDENT 4
/* A name that reaches the column is followed by this many blanks. */
#define OPT_HELP_GAP 2
/* The continuation lines of a usage line start under "usage: "'s end. */
#define USAGE_INDENT 7

/* The option is not in the table (said, unless the parse stops there). */
#define STEP_UNKNOWN (-3)
/* -h or --help among the hub's options */
#define STEP_HELP (-4)

struct parse_state {
	const struct cmd_options *c;
	void *args;
	int argc;
	const char **argv;
	int i;			/* argv[i]: the argument being parsed */
	int stop;		/* PARSE_OPT_STOP_AT_NON_OPTION */
};

/* getopt's message: "perfsift compare: <msg>" on stderr. */
static void say(const struct cmd_options *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void say(const struct cmd_options *c, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	if (c->name)
		fprintf(stderr, "perfsift %s: ", c->name);
	else
		fputs("perfsift: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* s's lines: the first as it is, each further one after indent blanks. */
static void put_lines(FILE *f, const char *s, int indent)
{
	const char *nl;

	while ((nl = strchr(s, '\n'))) {
		fprintf(f, "%.*s\n%*s", (int)(nl - s), s, indent, "");
		s = nl + 1;
	}
	fprintf(f, "%s\n", s);
}

static void put_option(FILE *f, const struct opt *o)
{
	int n;

	if (o->short_name && o->long_name)
		n = fprintf(f, "-%c, --%s", o->short_name, o->long_name);
	else if (o->short_name)
		n = fprintf(f, "%*s-%c", OPT_NAME_INDENT, "", o->short_name);
	else
		n = fprintf(f, "%*s--%s", OPT_NAME_INDENT, "", o->long_name);
	if (o->argh)
		n += fprintf(f, " %s", o->argh);
	fprintf(f, "%*s", n < OPT_HELP_COLUMN ? OPT_HELP_COLUMN - n :
		OPT_HELP_GAP, "");
	put_lines(f, o->help, OPT_HELP_COLUMN);
}

void options_help(const struct cmd_options *c, FILE *f, int more_help)
{
	const char *const *u;
	const struct opt *o;

	for (u = c->usage; *u; u++) {
		fputs(u == c->usage ? "usage: " : "   or: ", f);
		put_lines(f, *u, USAGE_INDENT);
	}
	if (c->description)
		fprintf(f, "\n%s", c->description);
	for (o = c->options; o->kind != OPT_KIND_END; o++) {
		if (o == c->options)
			fputc('\n', f);
		if (o->kind == OPT_KIND_GROUP)
			fprintf(f, "%s%s\n", o == c->options ? "" : "\n",
				o->help);
		else
			put_option(f, o);
	}
	if (c->epilogue)
		fprintf(f, "\n%s", c->epilogue);
	if (more_help && c->more_help)
		c->more_help(f);
}

int usage_error(const struct cmd_options *c, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("perfsift: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	options_help(c, stderr, 0);
	return EXIT_USAGE;
}

static int is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

int parse_options_help(int argc, const char **argv,
		       const struct cmd_options *c)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (is_help(argv[i])) {
			options_help(c, stdout, 1);
			return 1;
		}
	}
	return 0;
}

static int in_range(const struct opt *o, double v)
{
	if (o->flags & OPT_OPEN)
		return v > o->min && v < o->max;
	return v >= o->min && v <= o->max;
}

/* "--test wants auto, welch, mwu or moderated, got 'x'" */
static int bad_word(const struct opt *o, const char *arg)
{
	struct sbuf sb = SBUF_INIT;
	const struct opt_word *w;

	for (w = o->words; w->word; w++)
		sbuf_addf(&sb, "%s%s", w == o->words ? "" :
			  w[1].word ? ", " : " or ", w->word);
	error("--%s wants %s, got '%s'", o->long_name, sb.buf, arg);
	sbuf_release(&sb);
	return OPT_ERR_USAGE;
}

/* Store o's value (arg: NULL for a flag); 0 or OPT_ERR_*. */
static int store(struct parse_state *st, const struct opt *o,
		 const char *arg)
{
	void *v = (char *)st->args + o->offset;
	const struct opt_word *w;
	double d;
	int r;

	if (st->c->hook) {
		r = st->c->hook(st->args, o, arg);
		if (r)
			return r;
	}
	switch (o->kind) {
	case OPT_KIND_FLAG:
		*(int *)v = (int)o->defval;
		return 0;
	case OPT_KIND_STRING:
		*(const char **)v = arg;
		return 0;
	case OPT_KIND_LIST:
		strlist_add(v, arg);
		return 0;
	case OPT_KIND_DOUBLE:
		if (str_to_double(arg, &d) || !in_range(o, d))
			return error("--%s wants %s, got '%s'", o->long_name,
				     o->wants, arg);
		*(double *)v = d;
		return 0;
	case OPT_KIND_ENUM:
		for (w = o->words; w->word; w++) {
			if (!strcmp(w->word, arg)) {
				*(int *)v = w->value;
				return 0;
			}
		}
		return bad_word(o, arg);
	case OPT_KIND_CALLBACK:
		return o->cb(o, arg, v);
	default:
		BUG("option kind %d holds no value", o->kind);
	}
}

/*
 * The entry of the long name name[0..len): the one of that name, else
 * the one it begins; NULL when none does or (*ambiguous set) several.
 */
static const struct opt *find_long(const struct opt *opts, const char *name,
				   size_t len, int *ambiguous)
{
	const struct opt *o, *found = NULL;

	*ambiguous = 0;
	for (o = opts; o->kind != OPT_KIND_END; o++) {
		if (!o->long_name || strncmp(o->long_name, name, len))
			continue;
		if (!o->long_name[len])
			return o;
		*ambiguous |= found != NULL;
		found = o;
	}
	return *ambiguous ? NULL : found;
}

static int say_ambiguous(const struct parse_state *st, const char *name,
			 size_t len)
{
	const struct opt *o;
	struct sbuf sb = SBUF_INIT;

	for (o = st->c->options; o->kind != OPT_KIND_END; o++)
		if (o->long_name && !strncmp(o->long_name, name, len))
			sbuf_addf(&sb, " '--%s'", o->long_name);
	say(st->c, "option '--%s' is ambiguous; possibilities:%s", name,
	    sb.buf);
	sbuf_release(&sb);
	return OPT_ERR_USAGE;
}

/* The value of o: after "=" (eq), else the next argument. */
static int take_value(struct parse_state *st, const struct opt *o,
		      const char *eq)
{
	if (eq)
		return store(st, o, eq + 1);
	if (st->i + 1 >= st->argc) {
		say(st->c, "option '--%s' requires an argument", o->long_name);
		return OPT_ERR_USAGE;
	}
	return store(st, o, st->argv[++st->i]);
}

/* "--name[=value]" (name: after "--"); 0, OPT_ERR_* or STEP_UNKNOWN */
static int parse_long(struct parse_state *st, const char *name)
{
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	int ambiguous;
	const struct opt *o = find_long(st->c->options, name, len,
					&ambiguous);

	if (ambiguous)
		return say_ambiguous(st, name, len);
	if (!o) {
		if (!st->stop)
			say(st->c, "unrecognized option '--%s'", name);
		return STEP_UNKNOWN;
	}
	if (o->kind != OPT_KIND_FLAG)
		return take_value(st, o, eq);
	if (eq) {
		say(st->c, "option '--%s' doesn't allow an argument",
		    o->long_name);
		return OPT_ERR_USAGE;
	}
	return store(st, o, NULL);
}

/* "-xyz" (letters: after "-"): flags, the last may take a value */
static int parse_short(struct parse_state *st, const char *letters)
{
	const char *p;

	for (p = letters; *p; p++) {
		const struct opt *o;
		int r;

		for (o = st->c->options; o->kind != OPT_KIND_END; o++)
			if (o->short_name == *p)
				break;
		if (o->kind == OPT_KIND_END) {
			if (!st->stop)
				say(st->c, "invalid option -- '%c'", *p);
			return STEP_UNKNOWN;
		}
		if (o->kind != OPT_KIND_FLAG && p[1])
			return store(st, o, p + 1);
		if (o->kind != OPT_KIND_FLAG && st->i + 1 >= st->argc) {
			say(st->c, "option requires an argument -- '%c'", *p);
			return OPT_ERR_USAGE;
		}
		if (o->kind != OPT_KIND_FLAG)
			return store(st, o, st->argv[++st->i]);
		r = store(st, o, NULL);
		if (r)
			return r;
	}
	return 0;
}

/*
 * Parse the options of st until the first non-option (stop) or "--":
 * the other arguments to argv[0..*n).  0, STEP_HELP, or the option's
 * error.
 */
static int parse_all(struct parse_state *st, int *n)
{
	for (; st->i < st->argc; st->i++) {
		const char *arg = st->argv[st->i];
		int r;

		if (!strcmp(arg, "--")) {
			st->i++;
			return 0;
		}
		if (arg[0] != '-' || !arg[1]) {
			if (st->stop)
				return 0;
			st->argv[(*n)++] = arg;
			continue;
		}
		if (st->stop && is_help(arg))
			return STEP_HELP;
		r = arg[1] == '-' ? parse_long(st, arg + 2) :
				    parse_short(st, arg + 1);
		if (r == STEP_UNKNOWN && st->stop)
			return 0;
		if (r)
			return r;
	}
	return 0;
}

int parse_options(int argc, const char **argv, const struct cmd_options *c,
		  void *args, int flags, int *status)
{
	struct parse_state st = {
		c, args, argc, argv, 1, flags & PARSE_OPT_STOP_AT_NON_OPTION,
	};
	int n = 0, r;

	*status = EXIT_OK;
	/* a command's -h stands anywhere; the hub's only among its own */
	if (!st.stop && parse_options_help(argc, argv, c))
		return -1;
	r = parse_all(&st, &n);
	if (r == STEP_HELP) {
		options_help(c, stdout, 1);
		return -1;
	}
	if (r) {
		if (r != OPT_ERR_SAID)
			options_help(c, stderr, 0);
		*status = EXIT_USAGE;
		return -1;
	}
	while (st.i < argc)
		argv[n++] = argv[st.i++];
	return n;
}
