/*
 * Running a helper program and capturing what it prints (see run.h);
 * the same posix_spawn and poll() loop as plots/gnuplot.c, without the
 * feeding of a script.
 */
#include "core/compat.h"
#include "core/run.h"
#include "core/sbuf.h"
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* a helper's messages kept for the error report, at most */
#define ERR_CAP (16 << 10)

int run_capture(const char *const *argv, struct sbuf *out, size_t out_cap,
		struct sbuf *err, int *missing)
{
	posix_spawn_file_actions_t fa;
	int po[2], pe[2], fd[2], status, r, too_big = 0;
	char buf[65536];
	pid_t pid;

	*missing = 0;
	if (pipe2(po, O_CLOEXEC))
		return error("cannot make a pipe for '%s': %s", argv[0],
			     strerror(errno));
	if (pipe2(pe, O_CLOEXEC)) {
		close(po[0]);
		close(po[1]);
		return error("cannot make a pipe for '%s': %s", argv[0],
			     strerror(errno));
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, po[1], 1);
	posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
	r = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv,
			 environ);
	posix_spawn_file_actions_destroy(&fa);
	close(po[1]);
	close(pe[1]);
	if (r) {
		close(po[0]);
		close(pe[0]);
		if (r == ENOENT) {
			*missing = 1;
			return error("'%s' is not on PATH", argv[0]);
		}
		return error("cannot run '%s': %s", argv[0], strerror(r));
	}
	fd[0] = po[0];
	fd[1] = pe[0];
	while (fd[0] >= 0 || fd[1] >= 0) {
		struct pollfd pfd[2];
		int n = 0, i, which[2];

		for (i = 0; i < 2; i++)
			if (fd[i] >= 0) {
				pfd[n].fd = fd[i];
				pfd[n].events = POLLIN;
				which[n++] = i;
			}
		if (poll(pfd, (nfds_t)n, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < n; i++) {
			int k = which[i];
			ssize_t got;

			if (!pfd[i].revents)
				continue;
			got = read(fd[k], buf, sizeof(buf));
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0) {
				close(fd[k]);
				fd[k] = -1;
				continue;
			}
			if (k == 1) {
				if (err->len < ERR_CAP)
					sbuf_add(err, buf, (size_t)got);
			} else if (out->len + (size_t)got > out_cap) {
				too_big = 1;	/* drain, then fail */
			} else if (!too_big) {
				sbuf_add(out, buf, (size_t)got);
			}
		}
	}
	for (r = 0; r < 2; r++)
		if (fd[r] >= 0)
			close(fd[r]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return error("waiting for '%s': %s", argv[0],
				     strerror(errno));
	if (too_big)
		return error("'%s' printed more than %zu MiB", argv[0],
			     out_cap >> 20);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
