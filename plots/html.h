#ifndef HTML_H
#define HTML_H
/*
 * report --html DIR: one static page per comparison, DIR/index.html:
 * the comparison's tables and, for each significant row, its chart as
 * inline SVG (gnuplot's svg terminal), each significant row linked to
 * its chart and back.  No JavaScript, nothing fetched: no external
 * style sheet, font, script or image; every text escaped, UTF-8.
 */
#include "analysis/compare.h"

struct html_opts {
	const char *title;		/* the page's title and heading */
	const char *subtitle;		/* a line under it; NULL: none */
	int all;			/* every row, not only the
					 * significant ones (these marked) */
	/*
	 * The variants' names as the user typed them, c->nvar of them
	 * (the charts' legends); NULL: their labels.
	 */
	const char *const *names;
};

/* Charts one page draws at most; past it, rows say they have none. */
#define HTML_MAX_CHARTS 100
/* The size of each chart, in SVG pixels (scaled to the page's width). */
#define HTML_CHART_WIDTH 900
#define HTML_CHART_HEIGHT 500

/*
 * Write dir/index.html (dir is created if missing, its parent must
 * exist) for the comparison c, as compare_variants() computed it: a
 * table per testcase/params/machine, and a chart per significant row
 * drawn from c itself (the same rows, options and verdicts).  The page
 * is written to a temporary file in dir and renamed into place; on
 * failure it is removed and an older index.html is left as it was.
 * Returns 0, or -1 after error() (gnuplot missing or failing, dir not
 * writable: exit 4).
 */
int report_html(const struct comparison *c, const struct html_opts *o,
		const char *dir);

#endif
