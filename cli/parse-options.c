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

/* c's usage lines: the first after "usage: ", the others after "or: " */
static void put_usage(const struct cmd_options *c, FILE *f)
{
	const char *const *u;

	for (u = c->usage; *u; u++) {
		fputs(u == c->usage ? "usage: " : "   or: ", f);
		put_lines(f, *u, USAGE_INDENT);
	}
}

void options_help(const struct cmd_options *c, FILE *f, int more_help)
{
	const struct opt *o;

	put_usage(c, f);
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
	usage_hint(c);
	return EXIT_USAGE;
}

void usage_hint(const struct cmd_options *c)
{
	put_usage(c, stderr);
	if (c->name)
		fprintf(stderr, "see 'perfsift help %s'\n", c->name);
	else
		fputs("see 'perfsift help'\n", stderr);
}

/*
 * The weights of the edit distance, git's (help.c): a typo that swaps
 * two letters or leaves one out is nearer its word than one that adds
 * a letter.
 */
#define EDIT_SWAP 0	/* two neighbours swapped */
#define EDIT_SUB 2	/* a letter replaced */
#define EDIT_ADD 1	/* a letter of the name missing from the word */
#define EDIT_DEL 3	/* a letter of the word not in the name */
/* The nearest names are near enough below this (git's floor, 7). */
#define SIMILARITY_FLOOR 7

/*
 * The least cost of editing word into name: Damerau-Levenshtein in its
 * optimal string alignment form (a pair is swapped at most once), over
 * the whole matrix d[i][j], the cost of word's first i letters into
 * name's first j.
 */
static int edit_distance(const char *word, const char *name)
{
	size_t lw = strlen(word), ln = strlen(name), i, j, w = ln + 1;
	int *d = xcalloc((lw + 1) * w, sizeof(*d)), r;

	for (j = 0; j <= ln; j++)
		d[j] = (int)j * EDIT_ADD;
	for (i = 1; i <= lw; i++) {
		d[i * w] = (int)i * EDIT_DEL;
		for (j = 1; j <= ln; j++) {
			int c = d[(i - 1) * w + j - 1] +
				(word[i - 1] != name[j - 1]) * EDIT_SUB;

			if (i > 1 && j > 1 && word[i - 2] == name[j - 1] &&
			    word[i - 1] == name[j - 2] &&
			    c > d[(i - 2) * w + j - 2] + EDIT_SWAP)
				c = d[(i - 2) * w + j - 2] + EDIT_SWAP;
			if (c > d[(i - 1) * w + j] + EDIT_DEL)
				c = d[(i - 1) * w + j] + EDIT_DEL;
			if (c > d[i * w + j - 1] + EDIT_ADD)
				c = d[i * w + j - 1] + EDIT_ADD;
			d[i * w + j] = c;
		}
	}
	r = d[lw * w + ln];
	free(d);
	return r;
}

size_t similar_names(const char *word, const char *const *names, size_t n,
		     size_t *near)
{
	int *score = xcalloc(n + 1, sizeof(*score)), best = INT_MAX;
	size_t i, nr = 0, len = strlen(word);

	for (i = 0; i < n; i++) {
		/* a name that the word begins: the nearest of all */
		if (len && !strncmp(names[i], word, len))
			score[i] = 0;
		else
			score[i] = edit_distance(word, names[i]) + 1;
		if (score[i] < best)
			best = score[i];
	}
	/*
	 * Near enough: below git's floor, and (for a short word, which
	 * every name is a few edits from) at a distance no greater than
	 * the word's length.
	 */
	if (best < SIMILARITY_FLOOR && (size_t)best <= len + 1)
		for (i = 0; i < n; i++)
			if (score[i] == best)
				near[nr++] = i;
	free(score);
	return nr;
}

void say_did_you_mean(const char *prefix, const char *const *names,
		      const size_t *near, size_t nr)
{
	size_t i;

	if (!nr)
		return;
	fprintf(stderr, nr == 1 ? "did you mean" : "did you mean one of");
	for (i = 0; i < nr; i++)
		fprintf(stderr, "%s'%s%s'", i ? ", " : " ", prefix,
			names[near[i]]);
	fputs("?\n", stderr);
}

/*
 * "did you mean '--alpha'?" for the unknown long name name[0..len):
 * the table's long names near it.
 */
static void suggest_long(const struct cmd_options *c, const char *name,
			 size_t len)
{
	const struct opt *o;
	const char **names = NULL;
	size_t n = 0, alloc = 0, *near, nr;
	char *word = xstrndup(name, len);

	for (o = c->options; o->kind != OPT_KIND_END; o++) {
		if (!o->long_name)
			continue;
		ALLOC_GROW(names, n + 1, alloc);
		names[n++] = o->long_name;
	}
	near = xcalloc(n + 1, sizeof(*near));
	nr = similar_names(word, names, n, near);
	say_did_you_mean("--", names, near, nr);
	free(near);
	free(names);
	free(word);
}

void suggest_option(const struct cmd_options *c, const char *arg)
{
	const char *name = arg;

	while (*name == '-')
		name++;
	if (*name && name - arg <= 2)
		suggest_long(c, name, strcspn(name, "="));
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
		if (!st->stop) {
			say(st->c, "unrecognized option '--%s'", name);
			suggest_long(st->c, name, len);
		}
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
			if (st->stop)
				return STEP_UNKNOWN;
			say(st->c, "invalid option -- '%c'", *p);
			/* "-alpha": a long name with one dash */
			if (p == letters && p[1])
				suggest_long(st->c, letters,
					     strcspn(letters, "="));
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
			usage_hint(c);
		*status = EXIT_USAGE;
		return -1;
	}
	while (st.i < argc)
		argv[n++] = argv[st.i++];
	return n;
}
