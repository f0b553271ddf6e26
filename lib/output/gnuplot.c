/*
 * Running gnuplot: the script through a pipe on its standard input, its
 * messages (stderr and stdout) captured through another, the chart
 * written to a temporary file beside the output and renamed into place
 * only when gnuplot succeeded, or (plot_render_mem) read from its
 * standard output into memory.  No other file is made.
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "core/run.h"
#include "output/plot.h"
#include <ctype.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* gnuplot's messages kept for the error report, at most */
#define MSG_CAP (16 << 10)

/*
 * How long one chart may take: the largest charts perfsift draws (a
 * trend of thousands of commits, a latency plot of every percentile)
 * render in well under a second; a gnuplot that hangs (a terminal
 * waiting for a display, a script bug) is killed, not waited for.
 * PERFSIFT_PLOT_TIMEOUT (seconds) overrides it.
 */
#define PLOT_TIMEOUT_S 120

static int plot_timeout(void)
{
	const char *s = getenv("PERFSIFT_PLOT_TIMEOUT");
	char *end;
	long v;

	if (!s || !*s)
		return PLOT_TIMEOUT_S;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 1 || v > 86400) {
		warning("PERFSIFT_PLOT_TIMEOUT='%s' is not a number of seconds "
			"(1 to 86400): %d s it is", s, PLOT_TIMEOUT_S);
		return PLOT_TIMEOUT_S;
	}
	return (int)v;
}

static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

/*
 * Run `gnuplot` on script; its standard output goes to out (NULL: to
 * msg with its messages on stderr).  Returns its exit status, or -1
 * after error() when it could not be started or wrote more than
 * PLOT_MEM_CAP bytes.
 */
static int run_gnuplot(const char *script, size_t len, struct sbuf *out,
		       struct sbuf *msg)
{
	static const char *const argv[] = {
		"gnuplot", "--default-settings", NULL,
	};
	struct run_io io = { script, len, out, PLOT_MEM_CAP, msg, MSG_CAP,
			     "gnuplot-nox", 0, plot_timeout() };

	return run_program(argv, &io);
}

/* The temporary file beside path: "<dir>/.<name>.XXXXXX", made. */
static int make_temp(const char *path, char **tmp)
{
	const char *slash = strrchr(path, '/');
	mode_t mask;
	int fd;

	if (slash)
		*tmp = xstrfmt("%.*s.%s.XXXXXX", (int)(slash - path + 1), path,
			       slash + 1);
	else
		*tmp = xstrfmt(".%s.XXXXXX", path);
	fd = mkstemp(*tmp);
	if (fd < 0) {
		error("cannot write '%s': %s", path, strerror(errno));
		free(*tmp);
		*tmp = NULL;
		return -1;
	}
	/* the chart gets the permissions any new file would */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask))
		warning("cannot set the permissions of '%s': %s", path,
			strerror(errno));
	close(fd);
	return 0;
}

static int warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int warn(const char *fmt, ...)
{
	struct sbuf sb = SBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	warning("%s", sb.buf);
	sbuf_release(&sb);
	return 0;
}

/*
 * gnuplot's messages, a diagnostic per non-blank line (a diagnostic is
 * one line), through report (error or warn).
 */
static void report_lines(const struct sbuf *msg,
			 int (*report)(const char *fmt, ...))
{
	const char *p = msg->buf, *nl;

	for (; *p; p = *nl ? nl + 1 : nl) {
		size_t len;

		nl = strchrnul(p, '\n');
		len = (size_t)(nl - p);
		while (len && isspace((unsigned char)p[len - 1]))
			len--;
		while (len && isspace((unsigned char)*p)) {
			p++;
			len--;
		}
		if (len)
			report("gnuplot: %.*s", (int)len, p);
	}
}

/*
 * Did gnuplot succeed?  status is run_gnuplot()'s, msg its messages
 * (trimmed here), wrote whether it wrote a chart (to path; NULL: to its
 * standard output).  0, or -1 after error() quoting its messages.
 */
static int gnuplot_done(int status, struct sbuf *msg, int wrote,
			const char *path)
{
	sbuf_rtrim(msg);
	if (status < 0)
		return -1;
	if (status)
		error("gnuplot failed (exit status %d)%s", status,
		      msg->len ? "; it said:" : "");
	else if (!wrote && path)
		error("gnuplot wrote nothing to '%s'%s", path,
		      msg->len ? "; it said:" : "");
	else if (!wrote)
		error("gnuplot wrote no chart%s", msg->len ? "; it said:" : "");
	else
		return 0;
	report_lines(msg, error);
	return -1;
}

/*
 * The dumb terminal starts each chart with a form feed and pads every
 * line to the width: for an email, charts are separated by one blank
 * line, lines end at their last character, and no form feed is left.
 * Rewrites tmp in place; 0, or -1 after error() naming path.
 */
static int tidy_text(const char *tmp, const char *path)
{
	struct sbuf in = SBUF_INIT, out = SBUF_INIT;
	const char *p, *nl;
	size_t blank = 0;
	FILE *f = fopen(tmp, "r");
	char buf[8192];
	size_t n;
	int ret = -1;

	if (!f)
		return error("cannot read back '%s': %s", path,
			     strerror(errno));
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sbuf_add(&in, buf, n);
	fclose(f);
	for (p = in.buf; *p; p = *nl ? nl + 1 : nl) {
		size_t len;

		nl = strchrnul(p, '\n');
		len = (size_t)(nl - p);
		while (len && *p == '\f') {
			p++;
			len--;
		}
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\f'))
			len--;
		if (!len) {
			blank++;
			continue;
		}
		if (blank && out.len)
			sbuf_addch(&out, '\n');
		blank = 0;
		sbuf_add(&out, p, len);
		sbuf_addch(&out, '\n');
	}
	f = fopen(tmp, "w");
	if (!f || fwrite(out.buf, 1, out.len, f) != out.len) {
		error("cannot write '%s': %s", path, strerror(errno));
		if (f)
			fclose(f);
	} else if (fclose(f)) {
		error("cannot write '%s': %s", path, strerror(errno));
	} else {
		ret = 0;
	}
	sbuf_release(&in);
	sbuf_release(&out);
	return ret;
}

int plot_render(const struct plot *p, enum plot_format format,
		const char *path)
{
	struct plot_opts o = { .format = format, .terminal = 1 };
	struct sbuf script = SBUF_INIT, msg = SBUF_INIT;
	struct stat st;
	char *tmp;
	int status, ret = -1;

	if (has_control(path))
		return error("cannot write '%s': control characters in the "
			     "name", path);
	if (make_temp(path, &tmp))
		return -1;
	o.output = tmp;
	plot_script(p, &o, &script);
	status = run_gnuplot(script.buf, script.len, NULL, &msg);
	if (gnuplot_done(status, &msg, !stat(tmp, &st) && st.st_size, path))
		goto out;
	if (format == PLOT_TXT && tidy_text(tmp, path))
		goto out;
	if (rename(tmp, path)) {
		error("cannot write '%s': %s", path, strerror(errno));
		goto out;
	}
	report_lines(&msg, warn);
	ret = 0;
out:
	if (ret)
		unlink(tmp);
	free(tmp);
	sbuf_release(&script);
	sbuf_release(&msg);
	return ret;
}

int plot_render_mem(const struct plot *p, const struct plot_opts *o,
		    struct sbuf *out)
{
	struct sbuf script = SBUF_INIT, msg = SBUF_INIT, chart = SBUF_INIT;
	int status, ret = -1;

	if (o->output || !o->terminal)
		BUG("a chart into memory names its terminal and no output");
	plot_script(p, o, &script);
	status = run_gnuplot(script.buf, script.len, &chart, &msg);
	if (gnuplot_done(status, &msg, chart.len > 0, NULL))
		goto out;
	report_lines(&msg, warn);
	sbuf_add(out, chart.buf, chart.len);
	ret = 0;
out:
	sbuf_release(&script);
	sbuf_release(&msg);
	sbuf_release(&chart);
	return ret;
}
