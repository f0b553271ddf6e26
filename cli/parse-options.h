#ifndef PARSE_OPTIONS_H
#define PARSE_OPTIONS_H
/*
 * One table per command, in the spirit of git's parse-options: each
 * entry names an option (a long name, a short letter, or both), what its
 * argument is called in the help, its help text, its kind, and where its
 * value goes in the command's own struct of arguments.  The parsing and
 * the --help text both come from that table and from the command's
 * usage lines, description and epilogue (struct cmd_options).
 *
 * The tables are static data (the hub prints any command's help), so an
 * entry holds the offset of its value, not its address; OPT_AT() checks
 * the member's type at compile time.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum opt_kind {
	OPT_KIND_END,		/* ends the table */
	OPT_KIND_GROUP,		/* a heading in the help, no option */
	OPT_KIND_FLAG,		/* int: set to defval; no argument */
	OPT_KIND_STRING,	/* const char *: the argument, argv's */
	OPT_KIND_LIST,		/* struct strlist: the arguments appended */
	OPT_KIND_DOUBLE,	/* double: a number in [min, max] */
	OPT_KIND_ENUM,		/* int: the value of the word given */
	OPT_KIND_CALLBACK,	/* cb() reads the argument */
};

/* A word an OPT_ENUM() option takes, and the value it stands for. */
struct opt_word {
	const char *word;
	int value;
};

/* A callback's answer besides 0: its error() said, the usage follows. */
#define OPT_ERR_USAGE (-1)
/* Its error said in full: the command ends (EXIT_USAGE), no usage. */
#define OPT_ERR_SAID (-2)

/* OPT_KIND_DOUBLE: min < value < max, not min <= value <= max. */
#define OPT_OPEN 1

struct opt {
	enum opt_kind kind;
	const char *long_name;	/* without "--"; NULL: the letter only */
	int short_name;		/* a letter, 0: none */
	const char *argh;	/* the argument's name in the help ("GLOB") */
	const char *help;	/* its lines, '\n' between them */
	size_t offset;		/* of its value in the command's args */
	int flags;		/* OPT_OPEN */
	intptr_t defval;	/* FLAG: the value set; CALLBACK: its datum */
	double min, max;	/* DOUBLE: the range */
	const char *wants;	/* DOUBLE: "a number between 0 and 1" */
	const struct opt_word *words;	/* ENUM: ends with { NULL } */
	/* CALLBACK: value is the member at offset; 0 or OPT_ERR_* */
	int (*cb)(const struct opt *o, const char *arg, void *value);
};

/* What a command declares once: its help is made of it. */
struct cmd_options {
	const char *name;		/* "compare"; NULL: the hub */
	const char *const *usage;	/* NULL-ended; '\n' continues one */
	const char *description;	/* lines, each ending in '\n' */
	const struct opt *options;	/* ends with OPT_END() */
	const char *epilogue;		/* after the options, or NULL */
	/* printed after the epilogue by --help, not after an error */
	void (*more_help)(FILE *f);
	/*
	 * Called with each option before its value is stored (NULL: none):
	 * 0, or OPT_ERR_USAGE after error().
	 */
	int (*hook)(void *args, const struct opt *o, const char *arg);
};

/*
 * offsetof(T, m), refused at compile time unless T's member m has type
 * V (OPT_AT), or an int's size (OPT_AT_INT: an int or an enum).
 */
#define OPT_CHECK_(ok) (0 * sizeof(char[1 - 2 * !(ok)]))
#define OPT_AT(T, m, V) (offsetof(T, m) + OPT_CHECK_( \
	__builtin_types_compatible_p(__typeof__(((T *)0)->m), V)))
#define OPT_AT_INT(T, m) (offsetof(T, m) + OPT_CHECK_( \
	sizeof(((T *)0)->m) == sizeof(int)))

#define OPT_END() { .kind = OPT_KIND_END }
#define OPT_GROUP(h) { .kind = OPT_KIND_GROUP, .help = (h) }
/* s: the letter or 0; l: the long name or NULL; m: T's member */
#define OPT_FLAG(s, l, T, m, v, h) { .kind = OPT_KIND_FLAG, \
	.short_name = (s), .long_name = (l), .offset = OPT_AT_INT(T, m), \
	.defval = (v), .help = (h) }
#define OPT_BOOL(s, l, T, m, h) OPT_FLAG(s, l, T, m, 1, h)
#define OPT_STRING(s, l, T, m, a, h) { .kind = OPT_KIND_STRING, \
	.short_name = (s), .long_name = (l), \
	.offset = OPT_AT(T, m, const char *), .argh = (a), .help = (h) }
#define OPT_LIST(l, T, m, a, h) { .kind = OPT_KIND_LIST, .long_name = (l), \
	.offset = OPT_AT(T, m, struct strlist), .argh = (a), .help = (h) }
/* lo <= value <= hi (OPT_DOUBLE), lo < value < hi (OPT_DOUBLE_OPEN) */
#define OPT_DOUBLE_(l, T, m, a, h, lo, hi, f, w) { .kind = OPT_KIND_DOUBLE, \
	.long_name = (l), .offset = OPT_AT(T, m, double), .argh = (a), \
	.help = (h), .min = (lo), .max = (hi), .flags = (f), .wants = (w) }
#define OPT_DOUBLE(l, T, m, a, h, lo, hi, w) \
	OPT_DOUBLE_(l, T, m, a, h, lo, hi, 0, w)
#define OPT_DOUBLE_OPEN(l, T, m, a, h, lo, hi, w) \
	OPT_DOUBLE_(l, T, m, a, h, lo, hi, OPT_OPEN, w)
#define OPT_ENUM(l, T, m, a, h, ws) { .kind = OPT_KIND_ENUM, \
	.long_name = (l), .offset = OPT_AT_INT(T, m), .argh = (a), \
	.help = (h), .words = (ws) }
/* fn(o, arg, &T's m); o->defval is d */
#define OPT_CALLBACK(s, l, T, m, a, h, fn, d) { .kind = OPT_KIND_CALLBACK, \
	.short_name = (s), .long_name = (l), .offset = offsetof(T, m), \
	.argh = (a), .help = (h), .cb = (fn), .defval = (d) }

/* PARSE_OPT_*: flags of parse_options() */
/*
 * Options only up to the first argument that is not one of the table's
 * (a command's name, or an option the caller reports): the hub's.
 */
#define PARSE_OPT_STOP_AT_NON_OPTION 1

/*
 * Parse argv[1..argc) by c's table into args: options anywhere among
 * the arguments (as getopt_long permutes them), "--name=value" or
 * "--name value", a unique prefix of a long name, "-xvalue" or
 * "-x value"; "--" ends the options, and "-" alone is an argument.  -h
 * or --help anywhere before "--" prints the help on stdout.  The other
 * arguments are moved, in order, to argv[0..n); n is returned.
 *
 * Returns -1 when the command ends here: *status is EXIT_OK after the
 * help, EXIT_USAGE after an error (an unknown option or a missing
 * argument in getopt's words, or a bad value: the message on stderr,
 * then usage_hint() unless a callback said OPT_ERR_SAID).  An unknown
 * long option, or a long name after one dash ("-alpha"), is followed by
 * the table's long names near it: "did you mean '--alpha'?".
 */
int parse_options(int argc, const char **argv, const struct cmd_options *c,
		  void *args, int flags, int *status);

/*
 * Is -h or --help among argv[1..argc), before "--"?  Then c's help is
 * printed on stdout and 1 returned.  For a command of subcommands
 * whose argv[1] names none.
 */
int parse_options_help(int argc, const char **argv,
		       const struct cmd_options *c);

/*
 * c's help: the usage lines ("usage: ", then "   or: "), the
 * description, an option per line (its help at OPT_HELP_COLUMN, its
 * further lines below), the epilogue, and with more_help set, c's
 * more_help().
 */
void options_help(const struct cmd_options *c, FILE *f, int more_help);

/*
 * "perfsift: error: <msg>" and usage_hint(c) on stderr; returns
 * EXIT_USAGE.
 */
int usage_error(const struct cmd_options *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * After a usage error, on stderr: c's usage lines, not its whole help,
 * and where the help is ("see 'perfsift help compare'").
 */
void usage_hint(const struct cmd_options *c);

/*
 * Which of names[0..n) did the user mean by word?  The nearest by
 * spelling, as git's help.c finds them: a name that word begins is
 * nearest, else the one of least edit distance (Damerau-Levenshtein
 * with git's weights: a swap of neighbours costs 0, a missing letter 1,
 * a wrong one 2, an extra one 3), when that is small enough.  Their
 * indexes go to near[] (room for n), in names' order; returns how many,
 * 0 when no name is near.
 */
size_t similar_names(const char *word, const char *const *names, size_t n,
		     size_t *near);

/*
 * "did you mean 'PREFIXname'?" (or "one of ...") on stderr for the nr
 * names[near[i]]; nothing when nr is 0.
 */
void say_did_you_mean(const char *prefix, const char *const *names,
		      const size_t *near, size_t nr);

/*
 * "did you mean '--db'?" after the hub's own unknown option arg (its
 * dashes, then a name up to any '='), from c's long names.
 */
void suggest_option(const struct cmd_options *c, const char *arg);

#endif
