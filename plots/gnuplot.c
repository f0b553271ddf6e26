/*
 * Running gnuplot: the script through a pipe on its standard input, its
 * messages (stderr and stdout) captured through another, the chart
 * written to a temporary file beside the output and renamed into place
 * only when gnuplot succeeded.  No other file is made.
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "plot.h"
#include <ctype.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* gnuplot's messages kept for the error report, at most */
#define MSG_CAP (16 << 10)

static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

/*
 * Feed script to the child's stdin (fd in) while reading its messages
 * from fd out into msg, until both are done.  A child that stops
 * reading (it died) ends the feeding; the exit status tells.
 */
static void exchange(int in, int out, const char *script, size_t len,
		     struct sbuf *msg)
{
	size_t off = 0;
	char buf[4096];

	while (in >= 0 || out >= 0) {
		struct pollfd pfd[2];
		int n = 0, ii = -1, oi = -1;

		if (in >= 0) {
			pfd[n].fd = in;
			pfd[n].events = POLLOUT;
			ii = n++;
		}
		if (out >= 0) {
			pfd[n].fd = out;
			pfd[n].events = POLLIN;
			oi = n++;
		}
		if (poll(pfd, (nfds_t)n, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (ii >= 0 && pfd[ii].revents) {
			ssize_t w = -1;

			errno = EPIPE;	/* POLLERR, POLLHUP: it stopped reading */
			if (pfd[ii].revents & POLLOUT)
				w = write(in, script + off, len - off);
			if (w > 0)
				off += (size_t)w;
			if ((w < 0 && errno != EINTR && errno != EAGAIN) ||
			    off == len) {
				close(in);
				in = -1;
			}
		}
		if (oi >= 0 && pfd[oi].revents) {
			ssize_t r = read(out, buf, sizeof(buf));

			if (r > 0) {
				if (msg->len < MSG_CAP)
					sbuf_add(msg, buf, (size_t)r);
			} else if (r == 0 || errno != EINTR) {
				close(out);
				out = -1;
			}
		}
	}
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
}

/*
 * Run `gnuplot` on script; its messages go to msg.  Returns its exit
 * status, or -1 after error() when it could not be started.
 */
static int run_gnuplot(const char *script, size_t len, struct sbuf *msg)
{
	static const char *const argv[] = {
		"gnuplot", "--default-settings", NULL,
	};
	posix_spawn_file_actions_t fa;
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	int to_child[2], from_child[2], status, r;
	pid_t pid;

	if (pipe2(to_child, O_CLOEXEC))
		return error("cannot make a pipe for gnuplot: %s",
			     strerror(errno));
	if (pipe2(from_child, O_CLOEXEC)) {
		close(to_child[0]);
		close(to_child[1]);
		return error("cannot make a pipe for gnuplot: %s",
			     strerror(errno));
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, to_child[0], 0);
	posix_spawn_file_actions_adddup2(&fa, from_child[1], 1);
	posix_spawn_file_actions_adddup2(&fa, from_child[1], 2);
	r = posix_spawnp(&pid, "gnuplot", &fa, NULL, (char *const *)argv,
			 environ);
	posix_spawn_file_actions_destroy(&fa);
	close(to_child[0]);
	close(from_child[1]);
	if (r) {
		close(to_child[1]);
		close(from_child[0]);
		if (r == ENOENT)
			return error("'gnuplot' is not on PATH: install the "
				     "Debian package gnuplot-nox");
		return error("cannot run 'gnuplot': %s", strerror(r));
	}
	/* writes that fill the pipe wait in poll(), not in write() */
	fcntl(to_child[1], F_SETFL, O_NONBLOCK);
	/* a gnuplot that dies early must not kill us through the pipe */
	sigaction(SIGPIPE, &ign, &old);
	exchange(to_child[1], from_child[0], script, len, msg);
	sigaction(SIGPIPE, &old, NULL);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return error("waiting for gnuplot: %s",
				     strerror(errno));
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
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
	status = run_gnuplot(script.buf, script.len, &msg);
	sbuf_rtrim(&msg);
	if (status < 0)
		goto out;
	if (status) {
		error("gnuplot failed (exit status %d)%s", status,
		      msg.len ? "; it said:" : "");
		report_lines(&msg, error);
		goto out;
	}
	if (stat(tmp, &st) || !st.st_size) {
		error("gnuplot wrote nothing to '%s'%s", path,
		      msg.len ? "; it said:" : "");
		report_lines(&msg, error);
		goto out;
	}
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
