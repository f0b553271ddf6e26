#ifndef PLOT_H
#define PLOT_H
/*
 * Charts as gnuplot scripts (SPEC §9): the model of a chart (struct
 * plot), drawn by plot.c as a gnuplot script with the data inline (a
 * pure function: data in, text out), and gnuplot.c, which runs gnuplot
 * on the script, writing the output under a temporary name that is
 * renamed into place only when gnuplot succeeded.  plot-compare.c makes
 * the chart of a comparison's rows.  Below both users: plots/ (the
 * charts of `perfsift plot`, read from the database) and report/ (a
 * report's chart).
 */
#include <stddef.h>
#include "core/sbuf.h"

struct comparison;

enum plot_kind {
	PLOT_COMPARE,	/* per metric, a bar per variant with its runs */
	PLOT_SWEEP,	/* a metric against a numeric parameter */
	PLOT_SERIES,	/* monitor time series of runs */
	PLOT_LATENCY,	/* latency percentiles (a request: drawn as a
			 * sweep over the percentile, on a nines axis) */
	PLOT_TREND,	/* a metric per commit in commit order, its change
			 * points' segment means as dashed lines */
};

/* What -o's extension asks for. */
enum plot_format {
	PLOT_PNG,	/* pngcairo, PLOT_WIDTH x PLOT_HEIGHT pixels */
	PLOT_SVG,	/* the same size */
	PLOT_TXT,	/* gnuplot's dumb terminal, PLOT_TXT_COLUMNS wide */
};
#define PLOT_WIDTH 1200
#define PLOT_HEIGHT 800
#define PLOT_FONT_PT 12
#define PLOT_TXT_COLUMNS 72
#define PLOT_TXT_LINES 22	/* and the heading's lines */

/* Panels one chart holds at most (a compare plot's metrics, ...). */
#define PLOT_MAX_PANELS 12
/* Lines one panel holds at most (variants, runs). */
#define PLOT_MAX_LINES 16
/* Variants of a compare plot: the line types with their own colour. */
#define PLOT_MAX_VARIANTS 8

/* One point of a line; err is NAN when there is no error bar. */
struct plot_point {
	double x, y, err;
	long n;			/* values behind y (sweep); 0: not said */
};

/* One line of a sweep or series panel. */
struct plot_line {
	char *name;		/* owned: the legend entry */
	int variant;		/* 0-based: chooses the colour */
	int point_type;		/* 0: the variant's own */
	int dash;		/* 0: solid; 2..: a reference line (dash type) */
	/*
	 * text: the character a reference line (dash) is drawn with, its
	 * points close enough to read as a line; 0: '-'
	 */
	char glyph;
	/*
	 * 0, or 1 + the enum bisect_verdict (stats/bisect.h) of the commits
	 * whose means the line's points mark: drawn as points only
	 */
	int bisect;
	struct plot_point *pt;	/* owned */
	size_t nr, alloc;
};

/* Significance marks of a compare bar. */
/* MARK_CHANGED: significant, the metric's direction not known */
enum plot_mark {
	MARK_NONE, MARK_REGRESSION, MARK_IMPROVEMENT, MARK_CHANGED,
};

/* One variant's values of one compare row. */
struct plot_bar {
	double mean;		/* NAN: the variant has no value here */
	double err;		/* the error bar's half height; NAN: none */
	double *runs;		/* owned: each run's value (none for an
				 * imported summary) */
	size_t nr_runs;
	long n;			/* values behind the mean; -1 not known */
	double change_pct;	/* against the base; NAN for the base */
	enum plot_mark mark;	/* a significant regression/improvement */
};

struct plot_panel {
	char *title;		/* owned */
	/*
	 * owned, may be NULL: what tells this panel's rows from the other
	 * panels' (a compare of several testcases or params), drawn under
	 * the title, cut to the panel's width on a page; its full identity
	 * is the caption's entry [tag]
	 */
	char *group;
	size_t tag;		/* 1-based; 0: none */
	char *ylabel;		/* owned */
	struct plot_bar *bars;	/* owned: one per variant (compare) */
	struct plot_line *lines;	/* owned (sweep, series) */
	size_t nr_lines, alloc_lines;
};

/* A labelled x tic (sweep: the parameter's values as the runs say). */
struct plot_tic {
	double x;
	char *text;		/* owned */
};

struct plot {
	enum plot_kind kind;
	char *title;		/* owned: first line of the heading */
	char *subtitle;		/* owned: what the bars and points are */
	/*
	 * owned, may be NULL: lines "[tag] testcase on machine (params)"
	 * naming in full the groups that panels and lines name short
	 */
	char *caption;
	char *xlabel;		/* owned; NULL for compare */
	char **variants;	/* owned: the variants' names, in order */
	size_t nr_variants;
	struct plot_panel *panels;	/* owned */
	size_t nr_panels, alloc_panels;
	struct plot_tic *tics;	/* owned: sweep x tics, sorted */
	size_t nr_tics, alloc_tics;
	int logx;		/* sweep: a base-2 logarithmic x axis */
};

void plot_release(struct plot *p);
/* A new panel at the end of p (zeroed; title and ylabel taken). */
struct plot_panel *plot_add_panel_take(struct plot *p, char *title,
				       char *ylabel);
/* A new line at the end of panel (name taken). */
struct plot_line *plot_add_line_take(struct plot_panel *panel, char *name,
				     int variant);
void plot_line_add(struct plot_line *l, double x, double y, double err);
/* A panel's y label: the unit, or that none was recorded; caller frees. */
char *plot_unit_label(const char *unit);

/* What the runs of one group share ("" for a part not known). */
struct plot_group {
	const char *testcase, *machine, *params;	/* "k=v,k=v" */
};
/* "testcase on machine (params)" of the parts known; caller frees. */
char *plot_group_name(const struct plot_group *g);
/*
 * What tells g[i] from the other groups of g[0..n): its name of the
 * parts that differ, and of its params only those not in every group
 * (the whole name when nothing differs); caller frees.
 */
char *plot_group_diff(const struct plot_group *g, size_t n, size_t i);
/* Add "[tag] name" as a line of p's caption. */
void plot_caption_add(struct plot *p, size_t tag, const char *name);

/* ---- script (plot.c) ---- */

struct plot_opts {
	enum plot_format format;
	const char *output;	/* `set output` path; NULL: none */
	int terminal;		/* 0: no `set terminal` line (--script
				 * without -o) */
	int width, height;	/* PNG and SVG size in pixels; 0: PLOT_WIDTH
				 * x PLOT_HEIGHT */
};

/*
 * The format -o names by its extension (.png, .svg, .txt, any case).
 * Returns 0, or -1 (no message) for any other name.
 */
int plot_format_from_path(const char *path, enum plot_format *out);

/*
 * Append to out the gnuplot script that draws p: a heading comment,
 * the terminal and output (as o says), the data as inline data blocks,
 * and the plot commands.  Pure: the same p and o give the same text.
 */
void plot_script(const struct plot *p, const struct plot_opts *o,
		 struct sbuf *out);

/*
 * s as the body of a gnuplot double-quoted string: backslash and double
 * quote escaped, control characters as spaces.  Texts are drawn with
 * the terminal's `noenhanced` option, so _ ^ @ { } & are literal; `@`
 * macros are not expanded inside quotes.
 */
void plot_add_quoted(struct sbuf *out, const char *s);
/* A finite double with the fewest digits (up to 17) that read back to it. */
void plot_add_double(struct sbuf *out, double v);

/* ---- a comparison's chart (plot-compare.c) ---- */

/*
 * Fill *out (zeroed first) with the compare chart of the rows
 * rows[0..nr) of c (at most PLOT_MAX_PANELS): a panel per row, a bar per
 * variant, marked as c decided.  names[] are the variants' names as the
 * user typed them; NULL: their labels.  The plot owns copies.
 */
void plot_compare_rows(const struct comparison *c, const size_t *rows,
		       size_t nr, const char *const *names, struct plot *out);

/* ---- rendering (gnuplot.c) ---- */

/*
 * Draw p into path with gnuplot: the script goes to `gnuplot`'s standard
 * input (found on PATH) and its output to a new temporary file beside
 * path, renamed to path once gnuplot exits 0 having written something;
 * on any failure the temporary file is removed and path is untouched.
 * Returns 0, or -1 after error() (gnuplot missing, failing — its
 * messages are quoted — or path not writable: exit 4).
 */
int plot_render(const struct plot *p, enum plot_format format,
		const char *path);

/*
 * Draw p with gnuplot as o asks (o->output must be NULL, o->terminal
 * set) and append what gnuplot writes to its standard output to out:
 * an SVG document, say.  Returns 0, or -1 after error() (gnuplot
 * missing, failing — its messages are quoted — writing nothing, or
 * more than PLOT_MEM_CAP bytes: exit 4).
 */
int plot_render_mem(const struct plot *p, const struct plot_opts *o,
		    struct sbuf *out);
/* The most a chart rendered into memory may take. */
#define PLOT_MEM_CAP (16 << 20)

#endif
