/*
 * Running a helper program and talking to it through pipes (see run.h):
 * posix_spawn, then one poll() loop that writes its input as it can
 * take it and reads what it prints, so that neither side blocks.
 */
#include "core/compat.h"
#include "core/run.h"
#include "core/sbuf.h"
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

enum { FD_IN, FD_OUT, FD_ERR, NR_FD };

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Feed and drain the child's pipes until all three are done, or until
 * io->timeout_s passed: then the child is killed and the pipes closed.
 * Returns 1 when its output passed out_cap, 2 when it was killed.
 */
static int exchange(int fd[NR_FD], struct run_io *io, pid_t pid)
{
	char buf[65536];
	size_t off = 0;
	int too_big = 0;
	int64_t deadline = io->timeout_s > 0 ?
			   now_ms() + (int64_t)io->timeout_s * 1000 : 0;

	while (fd[FD_IN] >= 0 || fd[FD_OUT] >= 0 || fd[FD_ERR] >= 0) {
		struct pollfd pfd[NR_FD];
		int n = 0, i, which[NR_FD], wait_ms = -1;

		if (deadline) {
			int64_t left = deadline - now_ms();

			if (left <= 0) {
				kill(pid, SIGKILL);
				too_big = 2;
				break;
			}
			wait_ms = left > INT32_MAX ? INT32_MAX : (int)left;
		}

		for (i = 0; i < NR_FD; i++)
			if (fd[i] >= 0) {
				pfd[n].fd = fd[i];
				pfd[n].events = i == FD_IN ? POLLOUT : POLLIN;
				which[n++] = i;
			}
		if (poll(pfd, (nfds_t)n, wait_ms) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < n; i++) {
			int k = which[i];
			ssize_t got;

			if (!pfd[i].revents)
				continue;
			if (k == FD_IN) {
				ssize_t w = -1;

				/* POLLERR, POLLHUP: it stopped reading */
				errno = EPIPE;
				if (pfd[i].revents & POLLOUT)
					w = write(fd[k], io->in + off,
						  io->in_len - off);
				if (w > 0)
					off += (size_t)w;
				if ((w < 0 && errno != EINTR &&
				     errno != EAGAIN) || off == io->in_len) {
					close(fd[k]);
					fd[k] = -1;
				}
				continue;
			}
			got = read(fd[k], buf, sizeof(buf));
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0) {
				close(fd[k]);
				fd[k] = -1;
				continue;
			}
			if (k == FD_ERR) {
				if (io->err->len < io->err_cap)
					sbuf_add(io->err, buf, (size_t)got);
			} else if (io->out->len + (size_t)got > io->out_cap) {
				too_big = 1;	/* drain, then fail */
			} else if (!too_big) {
				sbuf_add(io->out, buf, (size_t)got);
			}
		}
	}
	for (off = 0; off < NR_FD; off++)
		if (fd[off] >= 0)
			close(fd[off]);
	return too_big;
}

int run_env_secret(const char *entry)
{
	static const char *const word[] = { "PASSWORD", "SECRET", "TOKEN" };
	size_t len = strcspn(entry, "="), i, j;

	if (!strncmp(entry, "PERFSIFT_", 9) || !strncmp(entry, "PG", 2))
		return 1;
	for (i = 0; i < ARRAY_SIZE(word); i++) {
		size_t wl = strlen(word[i]);

		for (j = 0; j + wl <= len; j++)
			if (!strncasecmp(entry + j, word[i], wl))
				return 1;
	}
	return 0;
}

/* environ without the entries run_env_secret() names; free the array */
static char **child_env(void)
{
	size_t n = 0, i, k = 0;
	char **env;

	while (environ[n])
		n++;
	env = xcalloc(n + 1, sizeof(*env));
	for (i = 0; i < n; i++)
		if (!run_env_secret(environ[i]))
			env[k++] = environ[i];
	return env;
}

static void close_pair(int p[2])
{
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
}

int run_program(const char *const *argv, struct run_io *io)
{
	posix_spawn_file_actions_t fa;
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	int pin[2] = { -1, -1 }, pout[2] = { -1, -1 }, perr[2];
	int fd[NR_FD], status, r, too_big;
	char **env;
	pid_t pid;

	io->missing = 0;
	if ((io->in && pipe2(pin, O_CLOEXEC)) ||
	    (io->out && pipe2(pout, O_CLOEXEC)) || pipe2(perr, O_CLOEXEC)) {
		r = errno;
		close_pair(pin);
		close_pair(pout);
		return error("cannot make a pipe for '%s': %s", argv[0],
			     strerror(r));
	}
	posix_spawn_file_actions_init(&fa);
	if (io->in)
		posix_spawn_file_actions_adddup2(&fa, pin[0], 0);
	else
		posix_spawn_file_actions_addopen(&fa, 0, "/dev/null",
						 O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, io->out ? pout[1] : perr[1], 1);
	posix_spawn_file_actions_adddup2(&fa, perr[1], 2);
	env = child_env();
	r = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, env);
	free(env);
	posix_spawn_file_actions_destroy(&fa);
	if (pin[0] >= 0)
		close(pin[0]);
	if (pout[1] >= 0)
		close(pout[1]);
	close(perr[1]);
	if (r) {
		if (pin[1] >= 0)
			close(pin[1]);
		if (pout[0] >= 0)
			close(pout[0]);
		close(perr[0]);
		io->missing = r == ENOENT;
		if (r == ENOENT && io->package)
			return error("'%s' is not on PATH: install the Debian "
				     "package %s", argv[0], io->package);
		if (r == ENOENT)
			return error("'%s' is not on PATH", argv[0]);
		return error("cannot run '%s': %s", argv[0], strerror(r));
	}
	fd[FD_IN] = pin[1];
	fd[FD_OUT] = pout[0];
	fd[FD_ERR] = perr[0];
	/* writes that fill the pipe wait in poll(), not in write() */
	if (fd[FD_IN] >= 0)
		fcntl(fd[FD_IN], F_SETFL, O_NONBLOCK);
	if (fd[FD_IN] >= 0 && !io->in_len) {
		close(fd[FD_IN]);
		fd[FD_IN] = -1;
	}
	/* a child that dies early must not kill us through the pipe */
	sigaction(SIGPIPE, &ign, &old);
	too_big = exchange(fd, io, pid);
	sigaction(SIGPIPE, &old, NULL);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return error("waiting for '%s': %s", argv[0],
				     strerror(errno));
	if (too_big == 2)
		return error("'%s' did not finish within %d s: killed",
			     argv[0], io->timeout_s);
	if (too_big)
		return error("'%s' printed more than %zu MiB", argv[0],
			     io->out_cap >> 20);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
