#ifndef HTML_H
#define HTML_H
/*
 * report --html DIR: one static page per comparison, DIR/index.html:
 * the comparison's tables and, for each significant row, its chart as
 * inline SVG (gnuplot's svg terminal), each significant row linked to
 * its chart.  No JavaScript needed to read it; nothing fetched from the
 * network (no external style sheet, font or script).
 */
#include "stats/compare.h"
#include "plot.h"

struct html_opts {
	const char *title;		/* the page's title and heading */
	const char *subtitle;		/* a line under it; NULL: none */
	int all;			/* every row, not only the
					 * significant ones */
	/*
	 * The request a compare chart of this comparison would be drawn
	 * from (kind PLOT_COMPARE, the variants, --by, --testcase,
	 * --machine); report_html() sets metric_glob per chart.
	 */
	const struct plot_request *rq;
};

/*
 * Write dir/index.html (dir is created if missing) for the comparison c,
 * which compare_variants() computed from o->rq's variants.  The page is
 * written to a temporary file and renamed into place.  Returns 0; -1
 * after error() (gnuplot missing or failing, dir not writable: exit 4).
 */
int report_html(struct db *db, const struct comparison *c,
		const struct html_opts *o, const char *dir);

#endif
