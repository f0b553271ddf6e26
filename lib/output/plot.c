/*
 * A struct plot as a gnuplot script: the terminal by format, the data
 * inline as data blocks of numbers only (every name goes into a quoted
 * string instead), and one panel per metric.  PNG and SVG put the panels
 * on one page (multiplot); the text form draws them one after another,
 * each 72 columns wide, as an email wants them.
 */
#include "core/compat.h"
#include <float.h>
#include "core/sbuf.h"
#include "output/plot.h"

/* Okabe and Ito's palette: told apart by colour-blind readers too. */
static const char *const colors[PLOT_MAX_VARIANTS] = {
	"#0072b2", "#d55e00", "#009e73", "#cc79a7",
	"#e69f00", "#56b4e9", "#404040", "#f0e442",
};
#define REGRESSION_COLOR "#b00000"
#define IMPROVEMENT_COLOR "#006400"
#define REFERENCE_COLOR "#505050"
/* Room around the data, a fraction of its span: no point on the frame */
#define Y_PAD 0.05
/* Room above a compare panel's bars, for the change labels */
#define LABEL_ROOM 0.18

/* ---- building a plot ---- */

static void panel_release(struct plot_panel *pn, size_t nr_bars)
{
	size_t i;

	free(pn->title);
	free(pn->ylabel);
	if (pn->bars)
		for (i = 0; i < nr_bars; i++)
			free(pn->bars[i].runs);
	free(pn->bars);
	for (i = 0; i < pn->nr_lines; i++) {
		free(pn->lines[i].name);
		free(pn->lines[i].pt);
	}
	free(pn->lines);
	free(pn->group);
}

void plot_release(struct plot *p)
{
	size_t i;

	free(p->title);
	free(p->subtitle);
	free(p->caption);
	free(p->xlabel);
	for (i = 0; i < p->nr_variants; i++)
		free(p->variants[i]);
	free(p->variants);
	for (i = 0; i < p->nr_panels; i++)
		panel_release(&p->panels[i], p->nr_variants);
	free(p->panels);
	for (i = 0; i < p->nr_tics; i++)
		free(p->tics[i].text);
	free(p->tics);
	memset(p, 0, sizeof(*p));
}

struct plot_panel *plot_add_panel_take(struct plot *p, char *title,
				       char *ylabel)
{
	struct plot_panel *pn;

	ALLOC_GROW(p->panels, p->nr_panels + 1, p->alloc_panels);
	pn = &p->panels[p->nr_panels++];
	memset(pn, 0, sizeof(*pn));
	pn->title = title;
	pn->ylabel = ylabel;
	return pn;
}

struct plot_line *plot_add_line_take(struct plot_panel *panel, char *name,
				     int variant)
{
	struct plot_line *l;

	ALLOC_GROW(panel->lines, panel->nr_lines + 1, panel->alloc_lines);
	l = &panel->lines[panel->nr_lines++];
	memset(l, 0, sizeof(*l));
	l->name = name;
	l->variant = variant;
	return l;
}

void plot_line_add(struct plot_line *l, double x, double y, double err)
{
	ALLOC_GROW(l->pt, l->nr + 1, l->alloc);
	l->pt[l->nr].x = x;
	l->pt[l->nr].y = y;
	l->pt[l->nr].err = err;
	l->pt[l->nr].n = 0;
	l->nr++;
}

char *plot_unit_label(const char *unit)
{
	return xstrdup(unit && *unit ? unit : "no unit recorded");
}

static void add_group_name(struct sbuf *sb, const char *testcase,
			   const char *machine, const char *params)
{
	sbuf_addstr(sb, testcase);
	if (*machine)
		sbuf_addf(sb, "%son %s", *testcase ? " " : "", machine);
	if (*params)
		sbuf_addf(sb, "%s(%s)", *testcase || *machine ? " " : "",
			  params);
}

char *plot_group_name(const struct plot_group *g)
{
	struct sbuf sb = SBUF_INIT;

	add_group_name(&sb, g->testcase, g->machine, g->params);
	return sbuf_detach(&sb, NULL);
}

/* Whether the comma-separated list holds the item s[0..len). */
static int list_has(const char *list, const char *s, size_t len)
{
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, ",");

		if (n == len && !memcmp(p, s, len))
			return 1;
		p += n + (p[n] == ',');
	}
	return 0;
}

char *plot_group_diff(const struct plot_group *g, size_t n, size_t i)
{
	struct sbuf sb = SBUF_INIT, params = SBUF_INIT;
	int tc_same = 1, m_same = 1;
	const char *p = g[i].params;
	size_t j;

	for (j = 0; j < n; j++) {
		tc_same &= !strcmp(g[j].testcase, g[i].testcase);
		m_same &= !strcmp(g[j].machine, g[i].machine);
	}
	while (*p) {
		size_t len = strcspn(p, ","), all = 1;

		for (j = 0; j < n && all; j++)
			all = list_has(g[j].params, p, len);
		if (!all)
			sbuf_addf(&params, "%s%.*s", params.len ? "," : "",
				  (int)len, p);
		p += len + (p[len] == ',');
	}
	add_group_name(&sb, tc_same ? "" : g[i].testcase,
		       m_same ? "" : g[i].machine, params.buf);
	if (!sb.len)
		add_group_name(&sb, g[i].testcase, g[i].machine, g[i].params);
	sbuf_release(&params);
	return sbuf_detach(&sb, NULL);
}

void plot_caption_add(struct plot *p, size_t tag, const char *name)
{
	char *old = p->caption;

	p->caption = xstrfmt("%s%s[%zu] %s", old ? old : "", old ? "\n" : "",
			     tag, name);
	free(old);
}

/* ---- text ---- */

int plot_format_from_path(const char *path, enum plot_format *out)
{
	const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');

	if (!dot || (slash && dot < slash) || dot == path ||
	    (slash && dot == slash + 1))
		return -1;
	if (!strcasecmp(dot, ".png"))
		*out = PLOT_PNG;
	else if (!strcasecmp(dot, ".svg"))
		*out = PLOT_SVG;
	else if (!strcasecmp(dot, ".txt"))
		*out = PLOT_TXT;
	else
		return -1;
	return 0;
}

void plot_add_quoted(struct sbuf *out, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '\\' || *p == '"') {
			sbuf_addch(out, '\\');
			sbuf_addch(out, (char)*p);
		} else if (*p < 0x20 || *p == 0x7f) {
			sbuf_addch(out, ' ');
		} else {
			sbuf_addch(out, (char)*p);
		}
	}
}

/* "text" as a gnuplot string */
static void add_string(struct sbuf *out, const char *s)
{
	sbuf_addch(out, '"');
	plot_add_quoted(out, s);
	sbuf_addch(out, '"');
}

/*
 * The body of a tic label: gnuplot reads an explicit tic's label as a
 * format for the tic's value, so '%' is written "%%" ("99.5%").
 */
static void add_tic_quoted(struct sbuf *out, const char *s)
{
	struct sbuf q = SBUF_INIT;
	size_t i;

	plot_add_quoted(&q, s);
	for (i = 0; i < q.len; i++) {
		if (q.buf[i] == '%')
			sbuf_addch(out, '%');
		sbuf_addch(out, q.buf[i]);
	}
	sbuf_release(&q);
}

void plot_add_double(struct sbuf *out, double v)
{
	char buf[40];
	int prec;

	if (!isfinite(v))
		BUG("a non-finite value reached the plot data");
	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (prec == 17)
		snprintf(buf, sizeof(buf), "%.17g", v);
	sbuf_addstr(out, buf);
}

/* "x y [err]" as one data line */
static void add_row(struct sbuf *out, int nr, const double *v)
{
	int i;

	for (i = 0; i < nr; i++) {
		if (i)
			sbuf_addch(out, ' ');
		plot_add_double(out, v[i]);
	}
	sbuf_addch(out, '\n');
}

/* ---- the script ---- */

/* The data block of panel i named what: "$P1_bars" (1-based). */
static void block_name(struct sbuf *out, size_t panel, const char *what)
{
	sbuf_addf(out, "$P%zu_%s", panel + 1, what);
}

static void block_start(struct sbuf *out, size_t panel, const char *what)
{
	block_name(out, panel, what);
	sbuf_addstr(out, " << EOD\n");
}

static int txt_heading(struct sbuf *out, const struct plot *p, size_t i);
static int txt_key_lines(const struct plot_panel *pn);

/* The most lines a text chart's heading takes. */
/*
 * The most lines a text chart's heading and legend take: the legend
 * goes below the chart, an entry a line, and the chart grows by them.
 */
static int heading_lines(const struct plot *p)
{
	struct sbuf scratch = SBUF_INIT;
	size_t i;
	int most = 0, n;

	for (i = 0; i < p->nr_panels; i++) {
		n = txt_heading(&scratch, p, i) + txt_key_lines(&p->panels[i]);
		most = n > most ? n : most;
	}
	sbuf_release(&scratch);
	return most;
}

static void terminal(struct sbuf *out, const struct plot *p,
		     const struct plot_opts *o)
{
	int w = o->width ? o->width : PLOT_WIDTH;
	int h = o->height ? o->height : PLOT_HEIGHT;

	if (o->terminal) {
		switch (o->format) {
		case PLOT_PNG:
			sbuf_addf(out, "set terminal pngcairo size %d,%d "
				  "font \"sans,%d\" noenhanced\n", w, h,
				  PLOT_FONT_PT);
			break;
		case PLOT_SVG:
			sbuf_addf(out, "set terminal svg size %d,%d font "
				  "\"sans,%d\" noenhanced background "
				  "\"white\"\n", w, h, PLOT_FONT_PT);
			break;
		case PLOT_TXT:
			sbuf_addf(out, "set terminal dumb size %d,%d nofeed "
				  "noenhanced\n", PLOT_TXT_COLUMNS,
				  PLOT_TXT_LINES + heading_lines(p));
			break;
		}
	} else {
		sbuf_addstr(out, "set termoption noenhanced\n");
	}
	if (o->output) {
		sbuf_addstr(out, "set output ");
		add_string(out, o->output);
		sbuf_addch(out, '\n');
	}
}

static void linetypes(struct sbuf *out)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(colors); i++)
		sbuf_addf(out, "set linetype %zu lc rgb \"%s\" lw 2 pt 7 "
			  "ps 0.8\n", i + 1, colors[i]);
}

/*
 * v within the doubles: a sum near DBL_MAX (mean + sd, an axis with its
 * padding) is drawn at the largest double, not sent as inf
 */
static double clamp_finite(double v)
{
	return fmax(-DBL_MAX, fmin(DBL_MAX, v));
}

/* The range of every value a compare panel draws, 0 included. */
static void bars_range(const struct plot *p, const struct plot_panel *pn,
		       double *lo, double *hi)
{
	size_t v, k;

	*lo = *hi = 0;
	for (v = 0; v < p->nr_variants; v++) {
		const struct plot_bar *b = &pn->bars[v];
		double e = isfinite(b->err) ? b->err : 0;

		if (!isfinite(b->mean))
			continue;
		*lo = fmin(*lo, clamp_finite(b->mean - e));
		*hi = fmax(*hi, clamp_finite(b->mean + e));
		for (k = 0; k < b->nr_runs; k++) {
			*lo = fmin(*lo, b->runs[k]);
			*hi = fmax(*hi, b->runs[k]);
		}
	}
	if (*hi - *lo <= 0)
		*hi = *lo + 1;
}

/* The highest point drawn for bar b (where its label goes). */
static double bar_top(const struct plot_bar *b)
{
	double top = b->mean + (isfinite(b->err) ? b->err : 0);
	size_t k;

	for (k = 0; k < b->nr_runs; k++)
		top = fmax(top, b->runs[k]);
	return clamp_finite(top);
}

/*
 * Runs of a bar spread across it in the order they came, the first half
 * left of the error bar and the rest right of it: a deterministic
 * jitter, so that equal values and the error bar hide no run.
 */
static double run_x(size_t v, size_t k, size_t n)
{
	size_t left = n / 2, side = k < left ? left : n - left;
	size_t pos = k < left ? k : k - left;
	double off = side > 1 ? 0.07 + 0.16 * (double)pos / (double)(side - 1)
			      : 0.15;

	if (k < left)
		off = -0.07 - 0.16 + (off - 0.07);
	return (double)v + round(off * 1000) / 1000;
}

static void compare_data(struct sbuf *out, const struct plot *p, size_t i)
{
	const struct plot_panel *pn = &p->panels[i];
	size_t v, k;
	int any_err = 0, any_runs = 0;

	block_start(out, i, "bars");
	for (v = 0; v < p->nr_variants; v++) {
		const struct plot_bar *b = &pn->bars[v];
		double row[3] = { (double)v, b->mean, (double)(v + 1) };

		if (isfinite(b->mean))
			add_row(out, 3, row);
		any_err |= isfinite(b->mean) && isfinite(b->err);
		any_runs |= b->nr_runs > 0;
	}
	sbuf_addstr(out, "EOD\n");
	if (any_err) {
		block_start(out, i, "err");
		for (v = 0; v < p->nr_variants; v++) {
			const struct plot_bar *b = &pn->bars[v];
			double row[3] = { (double)v, b->mean, b->err };

			if (isfinite(b->mean) && isfinite(b->err))
				add_row(out, 3, row);
		}
		sbuf_addstr(out, "EOD\n");
	}
	if (any_runs) {
		block_start(out, i, "runs");
		for (v = 0; v < p->nr_variants; v++) {
			const struct plot_bar *b = &pn->bars[v];

			for (k = 0; k < b->nr_runs; k++) {
				double row[2] = {
					run_x(v, k, b->nr_runs), b->runs[k]
				};

				add_row(out, 2, row);
			}
		}
		sbuf_addstr(out, "EOD\n");
	}
}

static void txt_line_data(struct sbuf *out, const struct plot *p, size_t i);

static void line_data(struct sbuf *out, const struct plot *p, size_t i,
		      enum plot_format format)
{
	const struct plot_panel *pn = &p->panels[i];
	size_t l, k;

	if (format == PLOT_TXT)
		txt_line_data(out, p, i);
	for (l = 0; l < pn->nr_lines; l++) {
		const struct plot_line *ln = &pn->lines[l];
		char what[32];

		snprintf(what, sizeof(what), "L%zu", l + 1);
		block_start(out, i, what);
		for (k = 0; k < ln->nr; k++) {
			double row[3] = { ln->pt[k].x, ln->pt[k].y,
					  isfinite(ln->pt[k].err) ?
						  ln->pt[k].err : 0 };

			add_row(out, p->kind == PLOT_SWEEP ||
				p->kind == PLOT_TREND ? 3 : 2, row);
		}
		sbuf_addstr(out, "EOD\n");
	}
}

/*
 * s wrapped at width bytes, at a space (dropped) or after a comma, as
 * the body of a gnuplot string with \n between lines; with max_lines,
 * cut after that many, the last ending in "...".  Returns the number of
 * lines.
 */
static int add_wrapped(struct sbuf *out, const char *s, size_t width,
		       int max_lines)
{
	int lines = 1;

	while (strlen(s) > width) {
		size_t cut = 0, i;
		char *part;

		if (lines == max_lines) {
			part = xstrfmt("%.*s...", (int)(width - 3), s);
			plot_add_quoted(out, part);
			free(part);
			return lines;
		}
		for (i = 1; i <= width; i++)
			if (s[i] == ' ' || s[i - 1] == ',')
				cut = i;
		if (!cut)
			cut = width;
		part = xstrndup(s, cut);
		plot_add_quoted(out, part);
		free(part);
		sbuf_addstr(out, "\\n");
		lines++;
		s += cut;
		if (*s == ' ')
			s++;
	}
	plot_add_quoted(out, s);
	return lines;
}

/* Each line of the caption after a \n, wrapped at width. */
static int add_caption(struct sbuf *out, const struct plot *p, size_t width)
{
	const char *c = p->caption;
	int lines = 0;

	while (c && *c) {
		size_t n = strcspn(c, "\n");
		char *line = xstrndup(c, n);

		sbuf_addstr(out, "\\n");
		lines += add_wrapped(out, line, width, 0);
		free(line);
		c += n + (c[n] == '\n');
	}
	return lines;
}

/*
 * The heading of chart i in text, where each chart of an email stands
 * alone and the y label (which the dumb terminal cannot turn) joins
 * the title: "title [tag] (unit)", its group, the page's title, the
 * subtitle, the caption.  Returns its number of lines.
 */
static int txt_heading(struct sbuf *out, const struct plot *p, size_t i)
{
	const struct plot_panel *pn = &p->panels[i];
	struct sbuf t = SBUF_INIT;
	size_t w = PLOT_TXT_COLUMNS - 4;
	int lines;

	sbuf_addstr(&t, pn->title);
	if (pn->tag)
		sbuf_addf(&t, " [%zu]", pn->tag);
	sbuf_addf(&t, " (%s)", pn->ylabel);
	lines = add_wrapped(out, t.buf, w, 0);
	sbuf_release(&t);
	if (pn->group) {
		sbuf_addstr(out, "\\n");
		lines += add_wrapped(out, pn->group, w, 0);
	}
	if (strcmp(pn->title, p->title)) {
		sbuf_addstr(out, "\\n");
		lines += add_wrapped(out, p->title, w, 0);
	}
	sbuf_addstr(out, "\\n");
	lines += add_wrapped(out, p->subtitle, w, 0);
	return lines + add_caption(out, p, w);
}

/* The columns of panels on a page. */
static size_t page_columns(size_t nr_panels)
{
	return nr_panels <= 1 ? 1 : nr_panels <= 3 ? nr_panels :
	       nr_panels <= 4 ? 2 : nr_panels <= 9 ? 3 : 4;
}

/* Characters a line of a title holds on a page: 8 pixels each, and a margin */
#define PAGE_CHAR_PX 9

/*
 * Title and y label of panel i: on the page, or in text.  On a page a
 * panel's group is cut to two lines of its width: the caption has it.
 */
static void panel_title(struct sbuf *out, const struct plot *p, size_t i,
			const struct plot_opts *o)
{
	const struct plot_panel *pn = &p->panels[i];
	size_t w = PLOT_WIDTH / page_columns(p->nr_panels) / PAGE_CHAR_PX;

	sbuf_addstr(out, "set title \"");
	if (o->format == PLOT_TXT) {
		txt_heading(out, p, i);
	} else if (pn->group) {
		plot_add_quoted(out, pn->title);
		sbuf_addf(out, " [%zu]\\n", pn->tag);
		add_wrapped(out, pn->group, w, 2);
	} else if (strcmp(pn->title, p->title)) {
		plot_add_quoted(out, pn->title);
	}
	/* else the page's heading names it */
	sbuf_addstr(out, "\"\nset ylabel ");
	add_string(out, o->format == PLOT_TXT ? "" : pn->ylabel);
	sbuf_addch(out, '\n');
}

/*
 * Tic labels of the y axis: whole numbers where the axis spans enough
 * that its tics are whole (gnuplot's %g writes 1e+06 beside 800000).
 */
static void y_format(struct sbuf *out, double lo, double hi)
{
	if (hi - lo >= 50 && fmax(fabs(lo), fabs(hi)) < 1e12)
		sbuf_addstr(out, "set format y \"%.0f\"\n");
	else
		sbuf_addstr(out, "set format y \"%g\"\n");
}

/* The ranges of a compare panel, and its variants as the x tics. */
static void compare_axes(struct sbuf *out, const struct plot *p,
			 const struct plot_panel *pn)
{
	double lo, hi, span;
	size_t v;

	bars_range(p, pn, &lo, &hi);
	span = clamp_finite(hi - lo);
	y_format(out, lo, hi);
	/* room above the bars for the change labels */
	sbuf_addstr(out, "set xrange [-0.6:");
	plot_add_double(out, (double)p->nr_variants - 0.4);
	sbuf_addstr(out, "]\nset yrange [");
	plot_add_double(out, lo < 0 ? clamp_finite(lo - Y_PAD * span) : 0);
	sbuf_addch(out, ':');
	plot_add_double(out, clamp_finite(hi + LABEL_ROOM * span));
	sbuf_addstr(out, "]\nset xtics nomirror scale 0 (");
	for (v = 0; v < p->nr_variants; v++) {
		const struct plot_bar *b = &pn->bars[v];

		sbuf_addf(out, "%s\"", v ? ", " : "");
		add_tic_quoted(out, p->variants[v]);
		if (b->n >= 0)
			sbuf_addf(out, " (n=%ld)", b->n);
		sbuf_addf(out, "\" %zu", v);
	}
	sbuf_addstr(out, ")\n");
}

/* Each new variant's change above its bar, in its mark's colour. */
static void compare_labels(struct sbuf *out, const struct plot *p,
			   const struct plot_panel *pn,
			   const struct plot_opts *o)
{
	size_t v;
	int lab = 0;

	sbuf_addstr(out, "unset label\n");
	for (v = 1; v < p->nr_variants; v++) {
		const struct plot_bar *b = &pn->bars[v];
		char text[64];

		if (!isfinite(b->mean) || !isfinite(b->change_pct))
			continue;
		snprintf(text, sizeof(text), "%+.1f%%%s", b->change_pct,
			 b->mark != MARK_NONE ? " *" : "");
		sbuf_addf(out, "set label %d \"%s\" at %zu,", ++lab, text, v);
		plot_add_double(out, bar_top(b));
		sbuf_addf(out, " center offset 0,%s front tc rgb \"%s\"\n",
			  o->format == PLOT_TXT ? "1" : "0.9",
			  b->mark == MARK_REGRESSION ? REGRESSION_COLOR :
			  b->mark == MARK_IMPROVEMENT ? IMPROVEMENT_COLOR :
			  "black");
	}
}

static void compare_panel(struct sbuf *out, const struct plot *p, size_t i,
			  const struct plot_opts *o)
{
	const struct plot_panel *pn = &p->panels[i];
	size_t v;
	int any_err = 0, any_runs = 0;

	panel_title(out, p, i, o);
	compare_axes(out, p, pn);
	compare_labels(out, p, pn, o);
	for (v = 0; v < p->nr_variants; v++) {
		any_err |= isfinite(pn->bars[v].mean) &&
			   isfinite(pn->bars[v].err);
		any_runs |= pn->bars[v].nr_runs > 0;
	}
	sbuf_addstr(out, "plot ");
	block_name(out, i, "bars");
	/* the dumb terminal draws nothing in a variable colour */
	sbuf_addstr(out, o->format == PLOT_TXT ?
		    " using 1:2 with boxes lt 1 notitle" :
		    " using 1:2:3 with boxes lc variable notitle");
	if (any_err) {
		sbuf_addstr(out, ", \\\n     ");
		block_name(out, i, "err");
		/* vectors: yerrorbars leaves a gap for a point at the mean */
		sbuf_addstr(out, " using 1:($2-$3):(0):(2*$3) with vectors "
			    "heads size 0.08,90 lc rgb \"black\" lw 1.5 "
			    "notitle");
	}
	if (any_runs) {
		sbuf_addstr(out, ", \\\n     ");
		block_name(out, i, "runs");
		sbuf_addstr(out, " using 1:2 with points pt 7 ps 0.7 lc rgb "
			    "\"#303030\" notitle");
	}
	sbuf_addch(out, '\n');
}

/* The x range of a sweep or trend: its tics with room; 0 if none. */
static int sweep_xlimits(const struct plot *p, double *lo, double *hi)
{
	double pad;

	if (!p->nr_tics)
		return 0;
	*lo = p->tics[0].x;
	*hi = p->tics[p->nr_tics - 1].x;
	if (p->logx) {
		*lo /= 1.25;
		*hi *= 1.25;
	} else {
		pad = *hi > *lo ? (*hi - *lo) * 0.04 : 1;
		*lo -= pad;
		*hi += pad;
	}
	return 1;
}

/*
 * Which tics are labelled in text, where the dumb terminal does not turn
 * labels: from the left, each whose label keeps two columns from the
 * last one labelled (commits' shas evenly, the nines of a latency axis
 * where they spread).  The plotting width is the chart's less the y
 * tics' margin.  Returns a flag per tic; the caller frees it.
 */
static char *txt_tic_labels(const struct plot *p)
{
	char *show = xcalloc(p->nr_tics ? p->nr_tics : 1, 1);
	double lo, hi, scale, last_pos = 0;
	size_t t, last_len = 0;
	int any = 0;

	if (!sweep_xlimits(p, &lo, &hi))
		return show;
	if (p->logx) {
		lo = log2(lo);
		hi = log2(hi);
	}
	scale = hi > lo ? (PLOT_TXT_COLUMNS - 12) / (hi - lo) : 0;
	for (t = 0; t < p->nr_tics; t++) {
		double x = p->logx ? log2(p->tics[t].x) : p->tics[t].x;
		double pos = (x - lo) * scale;
		size_t len = strlen(p->tics[t].text);

		if (any && pos - last_pos < (double)(len + last_len) / 2 + 2)
			continue;
		show[t] = 1;
		any = 1;
		last_pos = pos;
		last_len = len;
	}
	return show;
}

/* The ranges of a sweep or trend panel, and its x tics. */
static void sweep_axis(struct sbuf *out, const struct plot *p,
		       enum plot_format format)
{
	char *show = NULL;
	size_t t;
	double lo, hi;

	if (p->logx)
		sbuf_addstr(out, "set logscale x 2\n");
	else
		sbuf_addstr(out, "unset logscale x\n");
	if (sweep_xlimits(p, &lo, &hi)) {
		sbuf_addstr(out, "set xrange [");
		plot_add_double(out, lo);
		sbuf_addch(out, ':');
		plot_add_double(out, hi);
		sbuf_addstr(out, "]\n");
	}
	if (p->nr_tics && (p->nr_tics <= 20 || format == PLOT_TXT)) {
		/* commits' shas side by side would run into each other */
		sbuf_addstr(out, format != PLOT_TXT && p->kind == PLOT_TREND &&
			    p->nr_tics > 8 ?
			    "set xtics nomirror rotate by -45 (" :
			    "set xtics nomirror (");
		if (format == PLOT_TXT)
			show = txt_tic_labels(p);
		for (t = 0; t < p->nr_tics; t++) {
			/* text: a mark without its label between labels,
			 * none past 20 (they would make a ruler) */
			if (show && !show[t] && p->nr_tics > 20)
				continue;
			sbuf_addstr(out, t ? ", \"" : "\"");
			if (!show || show[t])
				add_tic_quoted(out, p->tics[t].text);
			sbuf_addstr(out, "\" ");
			plot_add_double(out, p->tics[t].x);
		}
		sbuf_addstr(out, ")\n");
		free(show);
	} else {
		sbuf_addstr(out, "set xtics nomirror autofreq\n");
	}
}

/*
 * A bisection's marks (plot_line.bisect): points only, big, in the
 * verdict's colour (in text: txt_bisect_letters).
 */
static void bisect_marks(struct sbuf *out, int bisect)
{
	static const struct {
		const char *rgb;
		int pt;
	} m[] = {
		{ "#1a9850", 9 },	/* good: a green triangle */
		{ "#d73027", 7 },	/* bad: a red disc */
		{ "#f39c12", 13 },	/* unknown: an amber diamond */
		{ "#7b3294", 5 },	/* between: a purple square */
	};
	size_t i = (size_t)bisect - 1;

	sbuf_addf(out, " using 1:2 with points lc rgb \"%s\" pt %d ps 2.2",
		  m[i].rgb, m[i].pt);
}

/* The extent of a lines panel's values: every point with its error bar. */
static void lines_extent(const struct plot_panel *pn, double *lo, double *hi)
{
	size_t l, k;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (l = 0; l < pn->nr_lines; l++)
		for (k = 0; k < pn->lines[l].nr; k++) {
			const struct plot_point *pt = &pn->lines[l].pt[k];
			double e = isfinite(pt->err) ? pt->err : 0;

			*lo = fmin(*lo, clamp_finite(pt->y - e));
			*hi = fmax(*hi, clamp_finite(pt->y + e));
		}
	if (!(*lo <= *hi)) {
		*lo = 0;	/* no point at all */
		*hi = 1;
	}
}

/* lo..hi with room above and below, none below 0 when lo is not. */
static void add_room(double *lo, double *hi)
{
	double pad = *hi > *lo ? clamp_finite(*hi - *lo) * Y_PAD :
				 fmax(fabs(*hi) * Y_PAD, 1);

	*lo = *lo >= 0 && *lo - pad < 0 ? 0 : clamp_finite(*lo - pad);
	*hi = clamp_finite(*hi + pad);
}

static void lines_yrange(struct sbuf *out, const struct plot_panel *pn)
{
	double lo, hi;

	lines_extent(pn, &lo, &hi);
	y_format(out, lo, hi);
	add_room(&lo, &hi);
	sbuf_addstr(out, "set yrange [");
	plot_add_double(out, lo);
	sbuf_addch(out, ':');
	plot_add_double(out, hi);
	sbuf_addstr(out, "]\n");
}

/* Line l of panel i in the plot command: its data, style and title. */
static void lines_line(struct sbuf *out, const struct plot *p, size_t i,
		       size_t l)
{
	const struct plot_line *ln = &p->panels[i].lines[l];
	char what[32], color[32];

	/* variant < 0: a reference line, in grey */
	if (ln->variant < 0)
		snprintf(color, sizeof(color), "lc rgb \"%s\"",
			 REFERENCE_COLOR);
	else
		snprintf(color, sizeof(color), "lt %d",
			 ln->variant % PLOT_MAX_VARIANTS + 1);
	snprintf(what, sizeof(what), "L%zu", l + 1);
	if (l)
		sbuf_addstr(out, ", \\\n     ");
	block_name(out, i, what);
	if (ln->bisect)
		bisect_marks(out, ln->bisect);
	else if (ln->dash)
		sbuf_addf(out, " using 1:2 with lines %s dt %d lw 1.5", color,
			  ln->dash);
	else if (p->kind == PLOT_SWEEP || p->kind == PLOT_TREND)
		sbuf_addf(out, " using 1:2:3 with yerrorlines %s", color);
	else
		sbuf_addf(out, " using 1:2 with linespoints %s ps 0.9", color);
	if (ln->point_type)
		sbuf_addf(out, " pt %d", ln->point_type);
	sbuf_addstr(out, " title ");
	add_string(out, ln->name);
}

/*
 * ---- text: what the dumb terminal draws ----
 *
 * The dumb terminal has no colour and no dash: every line it draws is
 * made of its line type's character, a gnuplot choice ("*#$%@&="), and
 * reference lines of one colour would share one.  So in text each line
 * is a run of points of a character of its own, close enough to read as
 * a line: a variant's means (txt_glyphs), their error bars (':'), a
 * reference line (plot_line.glyph: a trend's segment means '-', its
 * change points '|', '!', 'I'; a zone's watermarks '.', ':', '\''), a
 * bisection's marks (txt_bisect_letters; lkp's '*' and 'O' would be
 * lost among the means).  The legend is made of key entries that draw
 * one character each (an error bar's sample would cross the lines
 * above and below it), and reference lines are drawn first, the
 * bisection's marks last, so that the data is never hidden.
 */
static const char txt_glyphs[] = "*ox#@%&=";
static const char txt_bisect_letters[] = "oX?~";	/* by verdict */
#define TXT_BAR_GLYPH ':'
/* points per column and per line: no gap in a line of them */
#define TXT_DENSITY 3

/* Whether line ln of a panel has error bars (trend, sweep). */
static int txt_has_bars(const struct plot_line *ln)
{
	size_t k;

	if (ln->dash || ln->bisect)
		return 0;
	for (k = 0; k < ln->nr; k++)
		if (isfinite(ln->pt[k].err) && ln->pt[k].err > 0)
			return 1;
	return 0;
}

static int txt_named_lines(const struct plot_panel *pn)
{
	size_t l;
	int n = 0;

	for (l = 0; l < pn->nr_lines; l++)
		n += *pn->lines[l].name != 0;
	return n;
}

/*
 * The lines a panel's legend takes in text: an entry a line, and one
 * for the error bars of every line.
 */
static int txt_key_lines(const struct plot_panel *pn)
{
	size_t l;

	for (l = 0; l < pn->nr_lines; l++)
		if (txt_has_bars(&pn->lines[l]))
			return txt_named_lines(pn) + 1;
	return txt_named_lines(pn);
}

/* The character line ln's points are drawn with: gnuplot's pt. */
static void txt_point(struct sbuf *out, const struct plot_line *ln)
{
	char c;

	if (ln->bisect) {
		c = txt_bisect_letters[(ln->bisect - 1) % 4];
	} else if (ln->dash) {
		c = ln->glyph ? ln->glyph : '-';
	} else if (ln->point_type) {
		sbuf_addf(out, "pt %d", ln->point_type);
		return;
	} else {
		c = txt_glyphs[(ln->variant < 0 ? 0 : ln->variant) %
			       (int)(sizeof(txt_glyphs) - 1)];
	}
	sbuf_addf(out, "pt \"%s%c\"", c == '"' || c == '\\' ? "\\" : "", c);
}

/* What the axes of panel i span in text: the ranges the script sets. */
struct txt_box {
	double xlo, xhi, ylo, yhi;
};

static void txt_box(const struct plot *p, size_t i, struct txt_box *b)
{
	const struct plot_panel *pn = &p->panels[i];
	size_t l, k;

	lines_extent(pn, &b->ylo, &b->yhi);
	add_room(&b->ylo, &b->yhi);
	if (sweep_xlimits(p, &b->xlo, &b->xhi) &&
	    (p->kind == PLOT_SWEEP || p->kind == PLOT_TREND))
		return;
	b->xlo = 0;		/* a series: [0:*] */
	b->xhi = 1;
	for (l = 0; l < pn->nr_lines; l++)
		for (k = 0; k < pn->lines[l].nr; k++)
			b->xhi = fmax(b->xhi, pn->lines[l].pt[k].x);
}

/* Steps from one point to the next: TXT_DENSITY a column or a line. */
static size_t txt_steps(double dx, double dy, const struct txt_box *b)
{
	double sx = clamp_finite(b->xhi - b->xlo) /
		    (TXT_DENSITY * PLOT_TXT_COLUMNS);
	double sy = clamp_finite(b->yhi - b->ylo) /
		    (TXT_DENSITY * PLOT_TXT_LINES);
	double n = fmax(sx > 0 ? fabs(dx) / sx : 0, sy > 0 ? fabs(dy) / sy : 0);

	/* at least one; the longest way across the chart, and a NaN (a
	 * span past the doubles), are bounded */
	if (!(n < TXT_DENSITY * (PLOT_TXT_COLUMNS + PLOT_TXT_LINES)))
		return TXT_DENSITY * (PLOT_TXT_COLUMNS + PLOT_TXT_LINES);
	return n < 1 ? 1 : (size_t)ceil(n);
}

/* a + (b - a) * t without overflow at the doubles' ends */
static double between(double a, double b, double t)
{
	return a * (1 - t) + b * t;
}

/*
 * The blocks of text's lines of panel i: "T<l>", the points of
 * reference line l along its path, and "E<l>", those of line l's error
 * bars.
 */
static void txt_line_data(struct sbuf *out, const struct plot *p, size_t i)
{
	const struct plot_panel *pn = &p->panels[i];
	struct txt_box b;
	size_t l, k, s, n;
	char what[32];

	txt_box(p, i, &b);
	for (l = 0; l < pn->nr_lines; l++) {
		const struct plot_line *ln = &pn->lines[l];

		if (ln->dash && ln->nr) {
			snprintf(what, sizeof(what), "T%zu", l + 1);
			block_start(out, i, what);
			add_row(out, 2, (double[]){ ln->pt[0].x, ln->pt[0].y });
			for (k = 1; k < ln->nr; k++) {
				const struct plot_point *a = &ln->pt[k - 1];
				const struct plot_point *z = &ln->pt[k];

				n = txt_steps(z->x - a->x, z->y - a->y, &b);
				for (s = 1; s <= n; s++) {
					double t = (double)s / (double)n;

					add_row(out, 2, (double[]){
						between(a->x, z->x, t),
						between(a->y, z->y, t) });
				}
			}
			sbuf_addstr(out, "EOD\n");
		}
		if (!txt_has_bars(ln))
			continue;
		snprintf(what, sizeof(what), "E%zu", l + 1);
		block_start(out, i, what);
		for (k = 0; k < ln->nr; k++) {
			const struct plot_point *a = &ln->pt[k];

			if (!isfinite(a->err) || !(a->err > 0))
				continue;
			n = txt_steps(0, 2 * a->err, &b);
			for (s = 0; s <= n; s++)
				add_row(out, 2, (double[]){ a->x, between(
					clamp_finite(a->y - a->err),
					clamp_finite(a->y + a->err),
					(double)s / (double)n) });
		}
		sbuf_addstr(out, "EOD\n");
	}
}

/* The passes of txt_lines_plot(), in the order they are drawn */
enum txt_pass { TXT_REFERENCE, TXT_BARS, TXT_MEANS, TXT_BISECT };

static int txt_in_pass(const struct plot_line *ln, enum txt_pass pass)
{
	switch (pass) {
	case TXT_REFERENCE:
		return ln->dash != 0;
	case TXT_BARS:
		return txt_has_bars(ln);
	case TXT_MEANS:
		return !ln->dash && !ln->bisect;
	case TXT_BISECT:
		return ln->bisect != 0;
	}
	return 0;
}

/* The plot command of lines panel i in text: see above. */
static void txt_lines_plot(struct sbuf *out, const struct plot *p, size_t i)
{
	const struct plot_panel *pn = &p->panels[i];
	size_t l;
	enum txt_pass pass;
	int first = 1;
	char what[32];

	for (pass = TXT_REFERENCE; pass <= TXT_BISECT; pass++)
		for (l = 0; l < pn->nr_lines; l++) {
			const struct plot_line *ln = &pn->lines[l];

			if (!txt_in_pass(ln, pass) || !ln->nr)
				continue;
			snprintf(what, sizeof(what), "%c%zu",
				 pass == TXT_REFERENCE ? 'T' :
				 pass == TXT_BARS ? 'E' : 'L', l + 1);
			sbuf_addstr(out, first ? "plot " : ", \\\n     ");
			first = 0;
			block_name(out, i, what);
			if (pass == TXT_BARS) {
				sbuf_addf(out, " using 1:2 with points pt "
					  "\"%c\" notitle", TXT_BAR_GLYPH);
				continue;
			}
			/* a trend's means stand alone: a line from one
			 * commit to the next would look like a change */
			sbuf_addf(out, " using 1:2 with %s",
				  pass == TXT_MEANS && p->kind != PLOT_TREND ?
				  "linespoints" : "points");
			if (pass == TXT_MEANS && p->kind != PLOT_TREND)
				sbuf_addf(out, " lt %d",
					  ln->variant % PLOT_MAX_VARIANTS + 1);
			sbuf_addch(out, ' ');
			txt_point(out, ln);
			sbuf_addstr(out, " notitle");
		}
	for (l = 0; l < pn->nr_lines; l++) {
		const struct plot_line *ln = &pn->lines[l];

		if (!*ln->name)
			continue;
		sbuf_addstr(out, first ? "plot " : ", \\\n     ");
		first = 0;
		/* a variant's sample: its line's character and its own */
		if (!ln->dash && !ln->bisect && p->kind != PLOT_TREND)
			sbuf_addf(out, "keyentry with linespoints lt %d ",
				  ln->variant % PLOT_MAX_VARIANTS + 1);
		else
			sbuf_addstr(out, "keyentry with points ");
		txt_point(out, ln);
		sbuf_addstr(out, " title ");
		add_string(out, ln->name);
	}
	if (txt_key_lines(pn) > txt_named_lines(pn))
		sbuf_addf(out, ", \\\n     keyentry with points pt \"%c\" "
			  "title \"error bars\"", TXT_BAR_GLYPH);
	sbuf_addch(out, '\n');
}

static void lines_panel(struct sbuf *out, const struct plot *p, size_t i,
			const struct plot_opts *o)
{
	size_t l;

	panel_title(out, p, i, o);
	sbuf_addstr(out, "set xlabel ");
	add_string(out, p->xlabel ? p->xlabel : "");
	sbuf_addch(out, '\n');
	if (p->kind == PLOT_SWEEP || p->kind == PLOT_TREND)
		sweep_axis(out, p, o->format);
	else
		sbuf_addstr(out, "set xrange [0:*]\nset autoscale xfixmax\n"
			    "set xtics nomirror autofreq\n");
	lines_yrange(out, &p->panels[i]);
	sbuf_addstr(out, "unset label\n");
	if (o->format == PLOT_TXT) {
		txt_lines_plot(out, p, i);
		return;
	}
	sbuf_addstr(out, "plot ");
	for (l = 0; l < p->panels[i].nr_lines; l++)
		lines_line(out, p, i, l);
	sbuf_addch(out, '\n');
}

static const char *const kind_names[] = {
	"compare", "sweep", "series", "latency", "trend",
};

void plot_script(const struct plot *p, const struct plot_opts *o,
		 struct sbuf *out)
{
	size_t i, cols, rows;
	int multi = o->format != PLOT_TXT;

	sbuf_addf(out, "# perfsift plot %s: gnuplot script, data inline\n",
		  kind_names[p->kind]);
	terminal(out, p, o);
	linetypes(out);
	for (i = 0; i < p->nr_panels; i++) {
		if (p->kind == PLOT_COMPARE)
			compare_data(out, p, i);
		else
			line_data(out, p, i, o->format);
	}
	/* text has no fill, and a grid of dots would hide the data */
	sbuf_addstr(out, multi ? "set grid ytics\nset style fill solid 0.45 "
			    "border -1\n" : "unset grid\nset style fill "
			    "empty\n");
	sbuf_addstr(out, "set border 3\nset ytics nomirror\nset boxwidth "
		    "0.6\nset key ");
	/* above the data on a page; in text below it, an entry a line */
	sbuf_addstr(out, multi ? "outside top center horizontal" :
			    "below left vertical");
	sbuf_addstr(out, " noautotitle\n");
	if (p->kind == PLOT_COMPARE)
		sbuf_addstr(out, "unset key\nunset xlabel\n");
	if (multi) {
		cols = page_columns(p->nr_panels);
		rows = (p->nr_panels + cols - 1) / cols;
		sbuf_addf(out, "set multiplot layout %zu,%zu title \"", rows,
			  cols);
		plot_add_quoted(out, p->title);
		if (p->subtitle && *p->subtitle) {
			sbuf_addstr(out, "\\n");
			plot_add_quoted(out, p->subtitle);
		}
		add_caption(out, p, PLOT_WIDTH / PAGE_CHAR_PX);
		sbuf_addstr(out, "\"\n");
	}
	for (i = 0; i < p->nr_panels; i++) {
		if (p->kind == PLOT_COMPARE)
			compare_panel(out, p, i, o);
		else
			lines_panel(out, p, i, o);
	}
	if (multi)
		sbuf_addstr(out, "unset multiplot\n");
}
