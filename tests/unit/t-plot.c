/*
 * t-plot.c - unit tests of lib/output/plot.c, the pure part of the charts:
 * gnuplot string escaping, round-tripping numbers, the output format by
 * extension, and the script of a hand-made plot (names quoted, numbers
 * only in the data blocks, the text terminal's wrapped heading).
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "output/plot.h"
#include "test-lib.h"

static void quoted(const char *in, const char *want)
{
	struct sbuf sb = SBUF_INIT;

	plot_add_quoted(&sb, in);
	if (!check_str(want, sb.buf))
		test_msg("input: %s", in);
	sbuf_release(&sb);
}

TEST(quoting)
{
	quoted("plain", "plain");
	quoted("say \"hi\"", "say \\\"hi\\\"");
	quoted("back\\slash", "back\\\\slash");
	quoted("a\nb\tc\rd", "a b c d");
	/* noenhanced text: enhanced-mode specials and macros stay */
	quoted("@x_y^z{w}&~", "@x_y^z{w}&~");
	quoted("it's", "it's");
	quoted("± µs", "± µs");
}

static void roundtrip(double v)
{
	struct sbuf sb = SBUF_INIT;

	plot_add_double(&sb, v);
	if (!check(strtod(sb.buf, NULL) == v))
		test_msg("%.17g printed as %s", v, sb.buf);
	check(sb.len <= 24);
	sbuf_release(&sb);
}

TEST(doubles)
{
	struct sbuf sb = SBUF_INIT;
	double third = 1.0 / 3;

	plot_add_double(&sb, 0.1);
	check_str("0.1", sb.buf);
	sbuf_reset(&sb);
	plot_add_double(&sb, 200);
	check_str("200", sb.buf);
	sbuf_reset(&sb);
	plot_add_double(&sb, 1e300);
	check_str("1e+300", sb.buf);
	sbuf_reset(&sb);
	/* 15 digits are not enough for these */
	plot_add_double(&sb, third);
	check_str("0.3333333333333333", sb.buf);
	sbuf_reset(&sb);
	plot_add_double(&sb, 0.7905694150420949);
	check_str("0.7905694150420949", sb.buf);
	sbuf_release(&sb);
	roundtrip(third);
	roundtrip(2.0 / 3);
	roundtrip(123456789.123456789);
	roundtrip(-4.9e-324);
	roundtrip(1.7976931348623157e308);
	roundtrip(0.1 + 0.2);
}

static void format(const char *path, int ok, enum plot_format want)
{
	enum plot_format f = PLOT_PNG;
	int r = plot_format_from_path(path, &f);

	if (!check_int(ok ? 0 : -1, r))
		test_msg("path: %s", path);
	else if (ok && !check_int(want, f))
		test_msg("path: %s", path);
}

TEST(formats)
{
	format("a.png", 1, PLOT_PNG);
	format("dir/a.PNG", 1, PLOT_PNG);
	format("/x/y.z/chart.svg", 1, PLOT_SVG);
	format("mail.txt", 1, PLOT_TXT);
	format("a.pdf", 0, PLOT_PNG);
	format("png", 0, PLOT_PNG);
	format(".png", 0, PLOT_PNG);
	format("dir/.png", 0, PLOT_PNG);
	format("a.png/b", 0, PLOT_PNG);
	format("a.png.bak", 0, PLOT_PNG);
}

/* A compare plot of two variants and one metric, by hand. */
static void make_compare(struct plot *p)
{
	struct plot_panel *pn;
	static const double runs0[] = { 1, 3 }, runs1[] = { 4 };

	memset(p, 0, sizeof(*p));
	p->kind = PLOT_COMPARE;
	p->title = xstrdup("a \"title\" that is long enough to be wrapped "
			   "in the text chart, at a space, before 72 "
			   "columns");
	p->subtitle = xstrdup("sub");
	p->nr_variants = 2;
	p->variants = xcalloc(2, sizeof(*p->variants));
	p->variants[0] = xstrdup("base\\");
	p->variants[1] = xstrdup("new\nline");
	pn = plot_add_panel_take(p, xstrdup("m"), xstrdup("MB/s"));
	pn->bars = xcalloc(2, sizeof(*pn->bars));
	pn->bars[0].mean = 2;
	pn->bars[0].err = sqrt(2);
	pn->bars[0].runs = xmalloc(sizeof(runs0));
	memcpy(pn->bars[0].runs, runs0, sizeof(runs0));
	pn->bars[0].nr_runs = 2;
	pn->bars[0].n = 2;
	pn->bars[0].change_pct = NAN;
	pn->bars[1].mean = 4;
	pn->bars[1].err = NAN;	/* one run: no bar */
	pn->bars[1].runs = xmalloc(sizeof(runs1));
	memcpy(pn->bars[1].runs, runs1, sizeof(runs1));
	pn->bars[1].nr_runs = 1;
	pn->bars[1].n = 1;
	pn->bars[1].change_pct = 100;
	pn->bars[1].mark = MARK_REGRESSION;
}

/* The lines of block name in script, joined by '|'. */
static char *block(const char *script, const char *name)
{
	struct sbuf sb = SBUF_INIT;
	char *head = xstrfmt("%s << EOD\n", name);
	const char *p = strstr(script, head), *end;

	if (p) {
		p += strlen(head);
		end = strstr(p, "EOD\n");
		for (; p < end; p++)
			sbuf_addch(&sb, *p == '\n' ? '|' : *p);
	}
	free(head);
	return sbuf_detach(&sb, NULL);
}

TEST(compare_script)
{
	struct plot p;
	struct plot_opts o = { .format = PLOT_PNG, .output = "o\"ut.png",
			       .terminal = 1 };
	struct sbuf sb = SBUF_INIT;
	char *b;

	make_compare(&p);
	plot_script(&p, &o, &sb);
	check(strstr(sb.buf, "set output \"o\\\"ut.png\"\n") != NULL);
	check(strstr(sb.buf, "(\"base\\\\ (n=2)\" 0, \"new line (n=1)\" 1)")
	      != NULL);
	b = block(sb.buf, "$P1_bars");
	check_str("0 2 1|1 4 2|", b);
	free(b);
	/* only the bar that has one */
	b = block(sb.buf, "$P1_err");
	check_str("0 2 1.4142135623730951|", b);
	free(b);
	/* runs left and right of the error bar */
	b = block(sb.buf, "$P1_runs");
	check_str("-0.15 1|0.15 3|1.15 4|", b);
	free(b);
	check(strstr(sb.buf, "set label 1 \"+100.0% *\" at 1,4 center "
			     "offset 0,0.9 front tc rgb \"#b00000\"\n") != NULL);
	/* y from 0 to above the highest run, with room for the label */
	check(strstr(sb.buf, "set yrange [0:4.72]\n") != NULL);
	check(strstr(sb.buf, "set multiplot layout 1,1 title") != NULL);
	sbuf_reset(&sb);

	o.format = PLOT_TXT;
	plot_script(&p, &o, &sb);
	check(strstr(sb.buf, "set multiplot") == NULL);
	/*
	 * the heading: the panel with its unit, the page's title wrapped
	 * before 68 columns, the subtitle; the chart grows by its lines
	 */
	check(strstr(sb.buf, "set title \"m (MB/s)\\na \\\"title\\\" that is "
			     "long enough to be wrapped in the text chart, at "
			     "a\\nspace, before 72 columns\\nsub\"\n")
	      != NULL);
	check(strstr(sb.buf, "set terminal dumb size 72,26 nofeed "
			     "noenhanced\n") != NULL);
	check(strstr(sb.buf, "with boxes lt 1 notitle") != NULL);
	sbuf_release(&sb);
	plot_release(&p);
	check(p.panels == NULL && p.nr_panels == 0);
}

TEST(sweep_script)
{
	struct plot p = { .kind = PLOT_SWEEP };
	struct plot_opts o = { .format = PLOT_SVG };
	struct plot_panel *pn;
	struct plot_line *l;
	struct sbuf sb = SBUF_INIT;
	char *b;

	p.title = xstrdup("t");
	p.subtitle = xstrdup("s");
	p.xlabel = xstrdup("threads");
	pn = plot_add_panel_take(&p, xstrdup("t"), xstrdup("ops"));
	l = plot_add_line_take(pn, xstrdup("v"), 0);
	plot_line_add(l, 1, 10, 0.5);
	plot_line_add(l, 16, 20, NAN);
	p.tics = xcalloc(2, sizeof(*p.tics));
	p.tics[0].x = 1;
	p.tics[0].text = xstrdup("1");
	p.tics[1].x = 16;
	p.tics[1].text = xstrdup("16");
	p.nr_tics = 2;
	p.logx = 1;
	plot_script(&p, &o, &sb);
	/* no terminal asked for: none set, text still literal */
	check(strstr(sb.buf, "set terminal") == NULL);
	check(strstr(sb.buf, "set termoption noenhanced\n") != NULL);
	b = block(sb.buf, "$P1_L1");
	check_str("1 10 0.5|16 20 0|", b);
	free(b);
	check(strstr(sb.buf, "set logscale x 2\nset xrange [0.8:20]\n"
			     "set xtics nomirror (\"1\" 1, \"16\" 16)\n") != NULL);
	check(strstr(sb.buf, "with yerrorlines lt 1 title \"v\"\n") != NULL);
	/* 5% of the span of y +- err above and below: no point on the frame */
	check(strstr(sb.buf, "set yrange [8.975:20.525]\n") != NULL);
	sbuf_release(&sb);
	plot_release(&p);
}

int main(void)
{
	test_quoting();
	test_doubles();
	test_formats();
	test_compare_script();
	test_sweep_script();
	return test_done();
}
