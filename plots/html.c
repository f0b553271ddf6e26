/*
 * report --html: a comparison as one self-contained page (html.h).
 * The tables follow the text format of compare (compare-text.c); each
 * significant row's chart is gnuplot's SVG, inlined after its ids are
 * made unique to the chart and everything that could reach outside the
 * page (XML declaration, namespaces, scripts, links) is dropped.
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "output/compare-fmt.h"
#include "html.h"
#include "output/plot.h"
#include <ctype.h>
#include <sys/stat.h>
#include <unistd.h>

static const char css[] =
	"body{font-family:sans-serif;margin:1.5em auto;max-width:1200px;"
	"padding:0 1em;color:#111;background:#fff}\n"
	"h1{font-size:1.5em;margin-bottom:.2em}\n"
	"h2{font-size:1.15em;margin:1.6em 0 .4em}\n"
	".sub{color:#444;margin-top:0}\n"
	".legend{color:#444;font-size:.9em}\n"
	"table{border-collapse:collapse;margin:.5em 0}\n"
	"th,td{border:1px solid #ccc;padding:.25em .6em;vertical-align:top}\n"
	"th{background:#f0f0f0}\n"
	"td.num{text-align:right;font-variant-numeric:tabular-nums;"
	"white-space:nowrap}\n"
	"tr.sig td.metric{font-weight:bold}\n"
	"td.reg{background:#fde2e2;color:#a00000;font-weight:bold}\n"
	"td.imp{background:#dff3df;color:#005a00;font-weight:bold}\n"
	"td.chg{background:#fdf0d5;color:#7a4a00;font-weight:bold}\n"
	".unit,.note{color:#555;font-weight:normal}\n"
	"p.note{font-size:.9em;margin:.2em 0}\n"
	".wide{overflow-x:auto}\n"
	"td.metric,td.verdict{white-space:nowrap}\n"
	".none{font-size:1.1em;padding:.6em 1em;background:#f4f4f4;"
	"border-left:4px solid #888}\n"
	"figure{margin:1em 0}\n"
	"figcaption{font-size:.9em;margin-bottom:.3em}\n"
	"svg.chart{display:block;width:100%;max-width:"
	"900px;height:auto;border:1px solid #ddd}\n";

/* ---- text ---- */

/*
 * Append s as HTML text or a quoted attribute's value: & < > " '
 * escaped, invalid UTF-8 and control characters (but tab and newline)
 * as U+FFFD, so that the page is valid whatever the database holds.
 */
static void esc_n(struct sbuf *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, k;

	while (i < n) {
		switch (p[i]) {
		case '&': sbuf_addstr(out, "&amp;"); i++; continue;
		case '<': sbuf_addstr(out, "&lt;"); i++; continue;
		case '>': sbuf_addstr(out, "&gt;"); i++; continue;
		case '"': sbuf_addstr(out, "&quot;"); i++; continue;
		case '\'': sbuf_addstr(out, "&#39;"); i++; continue;
		}
		if ((p[i] < 0x20 && p[i] != '\t' && p[i] != '\n') ||
		    p[i] == 0x7f) {
			sbuf_addstr(out, "\xef\xbf\xbd");
			i++;
			continue;
		}
		k = utf8_seq(p + i, n - i);
		sbuf_add_utf8_repaired(out, s + i, k ? k : 1);
		i += k ? k : 1;
	}
}

static void esc(struct sbuf *out, const char *s)
{
	esc_n(out, s, strlen(s));
}

static void escf(struct sbuf *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void escf(struct sbuf *out, const char *fmt, ...)
{
	struct sbuf sb = SBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	esc_n(out, sb.buf, sb.len);
	sbuf_release(&sb);
}

static const char *label(const struct comparison *c, size_t v)
{
	return selector_label(&c->var[v]);
}

/* ---- the SVG of a chart ---- */

/* A parsed attribute of a tag: name and value as they stand. */
struct attr {
	const char *name, *val;
	size_t name_len, val_len;
	char quote;
};

static int is_name(const struct attr *a, const char *name)
{
	return a->name_len == strlen(name) &&
	       !strncasecmp(a->name, name, a->name_len);
}

/*
 * Parse the next attribute at *p (inside a tag, up to end); 0 and *p
 * past it, or -1 at the tag's end.
 */
static int next_attr(const char **p, const char *end, struct attr *a)
{
	const char *s = *p;

	while (s < end && isspace((unsigned char)*s))
		s++;
	if (s >= end || *s == '/' || *s == '>')
		return -1;
	a->name = s;
	while (s < end && !isspace((unsigned char)*s) && *s != '=' &&
	       *s != '>' && *s != '/')
		s++;
	a->name_len = (size_t)(s - a->name);
	a->val = NULL;
	a->val_len = 0;
	a->quote = '"';
	while (s < end && isspace((unsigned char)*s))
		s++;
	if (s < end && *s == '=') {
		s++;
		while (s < end && isspace((unsigned char)*s))
			s++;
		if (s < end && (*s == '"' || *s == '\'')) {
			const char *q = memchr(s + 1, *s, (size_t)(end - s - 1));

			a->quote = *s;
			a->val = s + 1;
			s = q ? q + 1 : end;
			a->val_len = (size_t)((q ? q : end) - a->val);
		} else {
			a->val = s;
			while (s < end && !isspace((unsigned char)*s) &&
			       *s != '>')
				s++;
			a->val_len = (size_t)(s - a->val);
		}
	}
	if (!a->name_len)
		s++;	/* a stray character: step over it */
	*p = s;
	return 0;
}

/*
 * An attribute's value as it stood (gnuplot escaped it already), with
 * every local reference "url(#x)" made "url(#<prefix>-x)".  0, or -1 if
 * it refers to anything outside the chart (dropped then).
 */
static int add_value(struct sbuf *out, const struct attr *a,
		     const char *prefix)
{
	const char *v = a->val, *end = a->val + a->val_len, *u;
	struct sbuf sb = SBUF_INIT;

	while ((u = memmem(v, (size_t)(end - v), "url(", 4))) {
		const char *r = u + 4;

		while (r < end && (*r == ' ' || *r == '\'' || *r == '"'))
			r++;
		if (r >= end || *r != '#') {
			sbuf_release(&sb);
			return -1;
		}
		sbuf_add_utf8_repaired(&sb, v, (size_t)(r + 1 - v));
		sbuf_addf(&sb, "%s-", prefix);
		v = r + 1;
	}
	sbuf_add_utf8_repaired(&sb, v, (size_t)(end - v));
	if (memchr(sb.buf, a->quote == '"' ? '"' : '\'', sb.len)) {
		sbuf_release(&sb);
		return -1;
	}
	sbuf_addch(out, a->quote);
	sbuf_add(out, sb.buf, sb.len);
	sbuf_addch(out, a->quote);
	sbuf_release(&sb);
	return 0;
}

/*
 * One start tag of gnuplot's SVG, rewritten: ids prefixed, local hrefs
 * (xlink:href too) as plain href to the prefixed id, other hrefs,
 * namespace declarations and event handlers dropped.  The <svg> tag
 * itself gets id prefix, its viewBox, and the label given.
 */
static void add_tag(struct sbuf *out, const char *name, size_t name_len,
		    const char *attrs, const char *end, const char *prefix,
		    const char *title)
{
	int root = name_len == 3 && !strncmp(name, "svg", 3);
	struct attr a;

	sbuf_addch(out, '<');
	sbuf_add(out, name, name_len);
	if (root)
		sbuf_addf(out, " id=\"%s\" class=\"chart\" role=\"img\"",
			  prefix);
	while (!next_attr(&attrs, end, &a)) {
		size_t mark = out->len;

		if (!a.name_len || (a.name_len > 2 &&
				    !strncasecmp(a.name, "on", 2)) ||
		    (a.name_len >= 5 && !strncasecmp(a.name, "xmlns", 5)))
			continue;
		if (root && !is_name(&a, "viewBox"))
			continue;
		if (is_name(&a, "id")) {
			sbuf_addf(out, " id=\"%s-", prefix);
			esc_n(out, a.val ? a.val : "", a.val_len);
			sbuf_addch(out, '"');
			continue;
		}
		if (is_name(&a, "href") || is_name(&a, "xlink:href")) {
			if (!a.val || !a.val_len || *a.val != '#')
				continue;
			sbuf_addf(out, " href=\"#%s-", prefix);
			esc_n(out, a.val + 1, a.val_len - 1);
			sbuf_addch(out, '"');
			continue;
		}
		sbuf_addch(out, ' ');
		sbuf_add_utf8_repaired(out, a.name, a.name_len);
		if (!a.val)
			continue;
		sbuf_addch(out, '=');
		if (add_value(out, &a, prefix))
			sbuf_setlen(out, mark);
	}
	if (root) {
		sbuf_addstr(out, "><title>");
		esc(out, title);
		sbuf_addstr(out, "</title");
	} else if (end > attrs && end[-1] == '/') {
		sbuf_addch(out, '/');
	}
	sbuf_addch(out, '>');
}

/* Elements left out with everything inside them. */
static int dropped(const char *name, size_t len)
{
	static const char *const names[] = {
		"script", "title", "desc", "metadata", "foreignObject", "a",
		"image", "style",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (len == strlen(names[i]) && !strncmp(name, names[i], len))
			return 1;
	return 0;
}

/* Text between tags; white space alone (gnuplot's layout) as one '\n'. */
static void add_text(struct sbuf *out, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n && isspace((unsigned char)s[i]); i++)
		;
	if (i < n)
		sbuf_add_utf8_repaired(out, s, n);
	else if (memchr(s, '\n', n))
		sbuf_addch(out, '\n');
	else
		sbuf_add(out, s, n);
}

/* The end of the tag that starts at p ('<'), quotes respected; or NULL. */
static const char *tag_end(const char *p, const char *end)
{
	char quote = 0;

	for (p++; p < end; p++) {
		if (quote) {
			if (*p == quote)
				quote = 0;
		} else if (*p == '"' || *p == '\'') {
			quote = *p;
		} else if (*p == '>') {
			return p;
		}
	}
	return NULL;
}

/* The end of the comment that starts at lt, or NULL if none starts there. */
static const char *comment_end(const char *lt, const char *end)
{
	const char *c;

	if (strncmp(lt, "<!--", 4))
		return NULL;
	c = memmem(lt, (size_t)(end - lt), "-->", 3);
	return c ? c + 3 : end;
}

/* The length of the element name at n, in the tag that ends at gt. */
static size_t tag_name_len(const char *n, const char *gt)
{
	size_t len;

	for (len = 0; n + len < gt && !isspace((unsigned char)n[len]) &&
		      n[len] != '/' && n[len] != '>'; len++)
		;
	return len;
}

/*
 * gnuplot's SVG document svg as an element of the page: from its <svg>
 * tag to its end, rewritten by add_tag(), comments and the elements
 * dropped() left out.  0, or -1 after error() when it is no SVG.
 */
static int add_svg(struct sbuf *out, const char *svg, size_t len,
		   const char *prefix, const char *title)
{
	const char *p, *end = svg + len, *start;
	size_t skip_depth = 0, depth = 0;

	start = memmem(svg, len, "<svg", 4);
	if (!start)
		return error("gnuplot's SVG has no <svg> element");
	for (p = start; p < end;) {
		const char *lt = memchr(p, '<', (size_t)(end - p)), *gt, *n;
		size_t nlen;
		int closing, empty;

		if (!lt)
			lt = end;
		if (!skip_depth && depth)
			add_text(out, p, (size_t)(lt - p));
		if (lt == end)
			break;
		gt = comment_end(lt, end);
		if (gt) {
			p = gt;
			continue;
		}
		gt = tag_end(lt, end);
		if (!gt)
			break;
		p = gt + 1;
		if (lt[1] == '?' || lt[1] == '!')
			continue;	/* declarations, CDATA: none of ours */
		closing = lt[1] == '/';
		n = lt + 1 + closing;
		nlen = tag_name_len(n, gt);
		empty = !closing && gt[-1] == '/';
		if (skip_depth) {
			if (closing)
				skip_depth--;
			else if (!empty)
				skip_depth++;
			continue;
		}
		if (!closing && dropped(n, nlen)) {
			skip_depth = !empty;
			continue;
		}
		if (closing) {
			sbuf_addstr(out, "</");
			sbuf_add(out, n, nlen);
			sbuf_addch(out, '>');
			if (depth && !--depth)
				break;
			continue;
		}
		add_tag(out, n, nlen, n + nlen, gt, prefix, title);
		depth += !empty;
	}
	if (depth)
		return error("gnuplot's SVG ends before its </svg>");
	return 0;
}

/* ---- the page ---- */

static int same_group(const struct cmp_row *a, const struct cmp_row *b)
{
	return !strcmp(a->testcase, b->testcase) &&
	       !strcmp(a->params, b->params) && !strcmp(a->machine, b->machine);
}

static void group_title(struct sbuf *out, const struct cmp_row *r)
{
	sbuf_addstr(out, "testcase ");
	esc(out, *r->testcase ? r->testcase : "-");
	if (*r->params) {
		sbuf_addstr(out, " · params ");
		esc(out, r->params);
	}
	if (*r->machine) {
		sbuf_addstr(out, " · machine ");
		esc(out, r->machine);
	}
}

/* The mark of a significant change: a word and a sign, not colour only. */
static const char *mark_class(const struct cmp_vs *x)
{
	if (!x->significant)
		return NULL;
	if (x->verdict == CMP_REGRESSION)
		return "reg";
	if (x->verdict == CMP_IMPROVEMENT)
		return "imp";
	if (x->verdict == CMP_CHANGED)
		return "chg";
	return NULL;
}

struct page {
	const struct comparison *c;
	const struct html_opts *o;
	struct sbuf *out;
	size_t nr_charts;	/* charts drawn so far */
	size_t no_chart;	/* significant rows past HTML_MAX_CHARTS */
	/* the notes of the table being written, footnotes after it */
	const char **notes;	/* borrowed: the comparison's */
	size_t nr_notes, alloc_notes;
};

/* The number of the footnote for text (1-based), added if new. */
static size_t note_ref(struct page *pg, const char *text)
{
	size_t i;

	for (i = 0; i < pg->nr_notes; i++)
		if (!strcmp(pg->notes[i], text))
			return i + 1;
	ALLOC_GROW(pg->notes, pg->nr_notes + 1, pg->alloc_notes);
	pg->notes[pg->nr_notes++] = text;
	return pg->nr_notes;
}

static void side_cells(struct sbuf *out, const struct cmp_side *s, int exact)
{
	const struct cmp_extra *e = cmp_extra(s);

	sbuf_addstr(out, "<td class=\"num\">");
	if (s->source == SIDE_NONE) {
		sbuf_addstr(out, "missing</td><td class=\"num\">-</td>");
		return;
	}
	cmp_fmt_mean(out, s->mean, exact);
	if (isfinite(s->sd)) {
		sbuf_addstr(out, " ± ");
		cmp_fmt_num(out, s->sd);
		if (s->source == SIDE_AGGREGATE && e->sd_kind &&
		    strcmp(e->sd_kind, "sample"))
			sbuf_addstr(out, !strcmp(e->sd_kind, "population") ?
					 " pop" : " rel");
	}
	if (s->source == SIDE_AGGREGATE && e->stat) {
		sbuf_addstr(out, " <span class=\"unit\">");
		esc(out, e->stat);
		sbuf_addstr(out, "</span>");
	}
	sbuf_addstr(out, "</td><td class=\"num\">");
	if (s->n >= 0)
		sbuf_addf(out, "%ld", s->n);
	else
		sbuf_addstr(out, "?");
	sbuf_addstr(out, "</td>");
}

static void vs_cells(struct page *pg, const struct cmp_row *r, size_t v)
{
	const struct comparison *c = pg->c;
	const struct cmp_vs *x = &r->vs[v - 1];
	struct sbuf *out = pg->out;
	const char *cls = mark_class(x);
	const char *mark = cmp_extra(&r->side[v])->marker;

	side_cells(out, &r->side[v], r->exact);
	sbuf_addf(out, "<td class=\"num%s%s\">", cls ? " " : "",
		  cls ? cls : "");
	if (x->change_na)
		sbuf_addstr(out, "n/a");
	else
		cmp_fmt_pct(out, x->change_pct);
	sbuf_addstr(out, "</td><td class=\"num\">");
	cmp_fmt_pval(out, c->opts.fdr ? x->q : x->p);
	sbuf_addf(out, "</td><td class=\"verdict%s%s\">", cls ? " " : "",
		  cls ? cls : "");
	if (cls)
		sbuf_addstr(out, x->verdict == CMP_REGRESSION ? "✗ " :
				 x->verdict == CMP_IMPROVEMENT ? "✓ " : "Δ ");
	sbuf_addstr(out, cmp_verdict_name(x->verdict));
	if (x->significant && x->method == CMP_SOURCE && mark) {
		sbuf_addstr(out, " (marked ");
		esc(out, mark);
		sbuf_addch(out, ')');
	}
	if (x->note)
		sbuf_addf(out, " <span class=\"note\">[%zu]</span>",
			  note_ref(pg, x->note));
	sbuf_addstr(out, "</td>");
}

static void table_head(struct sbuf *out, const struct comparison *c)
{
	const char *pq = c->opts.fdr ? "q" : "p";
	size_t v;

	sbuf_addstr(out, "<div class=\"wide\">\n<table>\n<thead>\n<tr><th rowspan=\"2\" "
			 "scope=\"col\">metric</th><th colspan=\"2\" "
			 "scope=\"colgroup\">");
	esc(out, label(c, 0));
	sbuf_addstr(out, " (base)</th>");
	for (v = 1; v < c->nvar; v++) {
		sbuf_addstr(out, "<th colspan=\"5\" scope=\"colgroup\">");
		esc(out, label(c, v));
		sbuf_addstr(out, "</th>");
	}
	sbuf_addstr(out, "</tr>\n<tr><th scope=\"col\">mean ± sd</th>"
			 "<th scope=\"col\">n</th>");
	for (v = 1; v < c->nvar; v++)
		sbuf_addf(out, "<th scope=\"col\">mean ± sd</th>"
			  "<th scope=\"col\">n</th><th scope=\"col\">change"
			  "</th><th scope=\"col\">%s</th><th scope=\"col\">"
			  "verdict</th>", pq);
	sbuf_addstr(out, "</tr>\n</thead>\n<tbody>\n");
}


static void row_html(struct page *pg, const struct cmp_row *r, size_t chart)
{
	struct sbuf *out = pg->out;
	size_t v;

	if (chart)
		sbuf_addf(out, "<tr id=\"row-%zu\" class=\"sig\">", chart);
	else if (cmp_row_interesting(pg->c, r))
		sbuf_addstr(out, "<tr class=\"sig\">");
	else
		sbuf_addstr(out, "<tr>");
	sbuf_addstr(out, "<td class=\"metric\">");
	if (chart)
		sbuf_addf(out, "<a href=\"#chart-%zu\">", chart);
	esc(out, r->metric);
	if (chart)
		sbuf_addstr(out, "</a>");
	if (r->unit && *r->unit) {
		sbuf_addstr(out, " <span class=\"unit\">(");
		esc(out, r->unit);
		sbuf_addstr(out, ")</span>");
	}
	sbuf_addstr(out, "</td>");
	side_cells(out, &r->side[0], r->exact);
	for (v = 1; v < pg->c->nvar; v++)
		vs_cells(pg, r, v);
	sbuf_addstr(out, "</tr>\n");
}

/* The chart of row i, numbered chart, as a figure linking back. */
static int chart_html(struct page *pg, size_t i, size_t chart)
{
	const struct cmp_row *r = &pg->c->rows[i];
	struct plot_opts po = {
		.format = PLOT_SVG, .terminal = 1,
		.width = HTML_CHART_WIDTH, .height = HTML_CHART_HEIGHT,
	};
	struct sbuf svg = SBUF_INIT, id = SBUF_INIT;
	struct plot p;
	int ret;

	plot_compare_rows(pg->c, &i, 1, pg->o->names, &p);
	ret = plot_render_mem(&p, &po, &svg);
	plot_release(&p);
	if (ret)
		goto out;
	sbuf_addf(pg->out, "<figure>\n<figcaption><a href=\"#row-%zu\">↑ ",
		  chart);
	esc(pg->out, r->metric);
	sbuf_addstr(pg->out, "</a> (back to its row)</figcaption>\n");
	sbuf_addf(&id, "chart-%zu", chart);
	ret = add_svg(pg->out, svg.buf, svg.len, id.buf, r->metric);
	sbuf_addstr(pg->out, "\n</figure>\n");
out:
	sbuf_release(&svg);
	sbuf_release(&id);
	return ret;
}

/* The rows [i, k) of one group: its table and its charts; -1 or 0. */
static int group_html(struct page *pg, size_t i, size_t k)
{
	const struct comparison *c = pg->c;
	size_t j, first = pg->nr_charts;

	sbuf_addstr(pg->out, "<section>\n<h2>");
	group_title(pg->out, &c->rows[i]);
	sbuf_addstr(pg->out, "</h2>\n");
	table_head(pg->out, c);
	for (j = i; j < k; j++) {
		const struct cmp_row *r = &c->rows[j];
		size_t chart = 0;

		if (!pg->o->all && !cmp_row_interesting(c, r))
			continue;
		if (cmp_row_interesting(c, r)) {
			if (pg->nr_charts < HTML_MAX_CHARTS)
				chart = ++pg->nr_charts;
			else
				pg->no_chart++;
		}
		row_html(pg, r, chart);
	}
	sbuf_addstr(pg->out, "</tbody>\n</table>\n</div>\n");
	for (j = 0; j < pg->nr_notes; j++) {
		sbuf_addf(pg->out, "<p class=\"note\">[%zu] ", j + 1);
		esc(pg->out, pg->notes[j]);
		sbuf_addstr(pg->out, "</p>\n");
	}
	pg->nr_notes = 0;
	for (j = i; j < k && first < pg->nr_charts; j++) {
		if (!cmp_row_interesting(c, &c->rows[j]))
			continue;
		if (chart_html(pg, j, ++first))
			return -1;
	}
	sbuf_addstr(pg->out, "</section>\n");
	return 0;
}

static void heading(struct page *pg, size_t shown)
{
	const struct comparison *c = pg->c;
	struct sbuf *out = pg->out;
	struct sbuf title = SBUF_INIT;
	size_t v;

	if (pg->o->title) {
		sbuf_addstr(&title, pg->o->title);
	} else {
		for (v = 0; v < c->nvar; v++)
			sbuf_addf(&title, "%s%s", v ? " vs " : "",
				  label(c, v));
	}
	sbuf_addstr(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
			 "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
			 "content=\"width=device-width, initial-scale=1\">\n"
			 "<title>");
	esc(out, title.buf);
	sbuf_addf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n"
		  "<h1>", css);
	esc(out, title.buf);
	sbuf_addstr(out, "</h1>\n");
	if (pg->o->subtitle) {
		sbuf_addstr(out, "<p class=\"sub\">");
		esc(out, pg->o->subtitle);
		sbuf_addstr(out, "</p>\n");
	}
	sbuf_addstr(out, "<p>Base: ");
	escf(out, "%s (%ld run%s)", label(c, 0), c->runs[0],
	     c->runs[0] == 1 ? "" : "s");
	for (v = 1; v < c->nvar; v++) {
		sbuf_addstr(out, v == 1 ? "; compared with it: " : ", ");
		escf(out, "%s (%ld run%s)", label(c, v), c->runs[v],
		     c->runs[v] == 1 ? "" : "s");
	}
	sbuf_addf(out, ".</p>\n<p class=\"summary\">%ld regression%s, %ld "
		  "improvement%s, %ld changed (direction unknown), %ld "
		  "unknown; %ld test%s over %zu metric row%s; %zu row%s "
		  "shown%s.</p>\n",
		  c->nr_regressions, c->nr_regressions == 1 ? "" : "s",
		  c->nr_improvements, c->nr_improvements == 1 ? "" : "s",
		  c->nr_changed, c->nr_unknown, c->nr_tests, c->nr_tests == 1 ? "" : "s",
		  c->nr, c->nr == 1 ? "" : "s", shown, shown == 1 ? "" : "s",
		  pg->o->all ? "" : " (the significant ones)");
	sbuf_addf(out, "<p class=\"legend\">mean ± sd: the sample standard "
		  "deviation (n-1) of the runs' values; for an imported "
		  "summary the spread its source gave (pop: population, rel: "
		  "from a relative spread).  change: of the mean, against the "
		  "base.  %s: significant below %g%s; a significant change "
		  "smaller than %g%% counts as unchanged.  Marks: ✗ "
		  "regression (red), ✓ improvement (green).  Each marked "
		  "metric links to its chart.</p>\n",
		  c->opts.fdr ? "q: the Benjamini-Hochberg q-value within "
				"the metric's family" : "p: the p-value",
		  c->opts.alpha, c->opts.fdr ? "" : " (no FDR control)",
		  c->opts.min_change_pct);
	sbuf_release(&title);
}

/* The whole page into out; 0, or -1 after error(). */
static int page_html(const struct comparison *c, const struct html_opts *o,
		     struct sbuf *out)
{
	struct page pg = { c, o, out, 0, 0, NULL, 0, 0 };
	size_t i, k, shown = 0;

	for (i = 0; i < c->nr; i++)
		shown += o->all || cmp_row_interesting(c, &c->rows[i]);
	heading(&pg, shown);
	if (!c->nr) {
		sbuf_addstr(out, "<p class=\"none\">No metric is shared by "
				 "these variants: nothing to compare.</p>\n");
	} else if (!shown) {
		sbuf_addf(out, "<p class=\"none\">No significant change: "
			  "%zu metric row%s compared, none changed "
			  "significantly (%s &lt; %g).</p>\n", c->nr,
			  c->nr == 1 ? "" : "s",
			  c->opts.fdr ? "q" : "p", c->opts.alpha);
	}
	for (i = 0; shown && i < c->nr; i = k) {
		size_t n = 0;

		for (k = i; k < c->nr && same_group(&c->rows[i], &c->rows[k]);
		     k++)
			n += o->all || cmp_row_interesting(c, &c->rows[k]);
		if (n && group_html(&pg, i, k)) {
			free(pg.notes);
			return -1;
		}
	}
	free(pg.notes);
	if (pg.no_chart)
		sbuf_addf(out, "<p class=\"note\">%zu more significant row%s "
			  "without a chart: a page draws at most %d.</p>\n",
			  pg.no_chart, pg.no_chart == 1 ? "" : "s",
			  HTML_MAX_CHARTS);
	sbuf_addstr(out, "</body>\n</html>\n");
	return 0;
}

/* ---- the file ---- */

/* Write len bytes of buf to dir/index.html through a temporary file. */
static int write_page(const char *dir, const char *buf, size_t len)
{
	char *tmp = xstrfmt("%s/.index.html.XXXXXX", dir);
	char *path = xstrfmt("%s/index.html", dir);
	mode_t mask;
	FILE *f = NULL;
	int fd, ret = -1;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		error("cannot create '%s': %s", dir, strerror(errno));
		goto out;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		error("cannot write '%s': %s", path, strerror(errno));
		goto out;
	}
	/* the page gets the permissions any new file would */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask))
		warning("cannot set the permissions of '%s': %s", path,
			strerror(errno));
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		error("cannot write '%s': %s", path, strerror(errno));
	} else if (fwrite(buf, 1, len, f) != len || fflush(f) ||
		   fsync(fileno(f))) {
		error("cannot write '%s': %s", path, strerror(errno));
		fclose(f);
	} else if (fclose(f)) {
		error("cannot write '%s': %s", path, strerror(errno));
	} else if (rename(tmp, path)) {
		error("cannot write '%s': %s", path, strerror(errno));
	} else {
		ret = 0;
	}
	if (ret)
		unlink(tmp);
out:
	free(tmp);
	free(path);
	return ret;
}

int report_html(const struct comparison *c, const struct html_opts *o,
		const char *dir)
{
	struct sbuf page = SBUF_INIT;
	int ret;

	/* everything is drawn before anything is written */
	ret = page_html(c, o, &page);
	if (!ret)
		ret = write_page(dir, page.buf, page.len);
	sbuf_release(&page);
	return ret;
}
