/* spawn.c: fork/exec of a child in its own process group, killed with its parent, with a time
 * limit; only async-signal-safe calls between fork and exec (the parent may be threaded) */
#define _GNU_SOURCE
#include "config.h"
#include "base/spawn.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* The one flag a signal handler may set (sig_atomic_t semantics); owned by the front end. */
static volatile int *interrupt_flag;

void rt_spawn_set_interrupt_flag(volatile int *flag)
{
	interrupt_flag = flag;
}

bool rt_spawn_interrupted(void)
{
	return interrupt_flag && *interrupt_flag;
}

bool rt_spawn_which(const char *prog, char *buf, size_t size)
{
	const char *path = getenv("PATH");

	if (!prog || !*prog)
		return false;
	if (strchr(prog, '/')) {
		snprintf(buf, size, "%s", prog);
		return access(prog, X_OK) == 0;
	}
	while (path && *path) {
		const char *colon = strchr(path, ':');
		size_t len = colon ? (size_t)(colon - path) : strlen(path);

		if ((size_t)snprintf(buf, size, "%.*s/%s", (int)len, len ? path : ".", prog) < size &&
		    access(buf, X_OK) == 0)
			return true;
		path = colon ? colon + 1 : NULL;
	}
	return false;
}

/* Our environment with env[] applied, as a NULL-terminated array built before fork (setenv
 * after fork is not async-signal-safe). The strings are borrowed from environ and env. */
static char **child_environment(char env[][64], size_t nenv)
{
	size_t n = 0, k = 0;
	char **v;

	while (environ[n])
		n++;
	v = calloc(n + nenv + 1, sizeof(*v));
	if (!v)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		bool replaced = false;

		for (size_t j = 0; j < nenv && !replaced; j++) {
			const char *eq = strchr(env[j], '=');
			size_t len = eq ? (size_t)(eq - env[j]) : 0;

			replaced = eq && !strncmp(environ[i], env[j], len + 1);
		}
		if (!replaced)
			v[k++] = environ[i];
	}
	for (size_t j = 0; j < nenv; j++) {
		const char *eq = strchr(env[j], '=');

		if (eq && eq[1])
			v[k++] = env[j];
	}
	v[k] = NULL;
	return v;
}

static const char *signame(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGKILL: return "SIGKILL";
	case SIGABRT: return "SIGABRT";
	case SIGBUS: return "SIGBUS";
	case SIGFPE: return "SIGFPE";
	case SIGTERM: return "SIGTERM";
	case SIGINT: return "SIGINT";
	case SIGHUP: return "SIGHUP";
	default: return "signal";
	}
}

static void close_all(int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (fds[i] >= 0) {
			close(fds[i]);
			fds[i] = -1;
		}
}

/* The child's side: nothing but async-signal-safe calls until execve. */
static void __attribute__((noreturn)) child(char *const argv[], char **envp, pid_t parent,
					    int in, int out, int errfd, int report)
{
	int e;

	setpgid(0, 0);
	/* a parent killed by SIGKILL or SIGHUP takes its configuration with it */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(126);
	if (dup2(in, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0 ||
	    dup2(errfd, STDERR_FILENO) < 0)
		goto fail;
	execve(argv[0], argv, envp);
fail:
	e = errno;
	/* the parent reads the reason from the close-on-exec pipe */
	if (write(report, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* A partial line of the child's output, for io->out_line. */
struct linebuf {
	char *buf;
	size_t len;
};

/* Hand io the complete lines of n new bytes (a line past RT_SPAWN_LINE_MAX in pieces). */
static void lines(const struct rt_spawn_io *io, struct linebuf *lb, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		lb->buf[lb->len++] = buf[i];
		if (buf[i] == '\n' || lb->len == RT_SPAWN_LINE_MAX) {
			io->out_line(io->ctx, lb->buf, lb->len);
			lb->len = 0;
		}
	}
}

/* Read what is ready on the child's pipes into c->out (or io) and the stderr tail. */
static void drain(struct pollfd *fds, int *open_fds, struct rt_child *c, size_t *cap,
		  char *errbuf, size_t errsize, size_t *errlen, const struct rt_spawn_io *io,
		  struct linebuf *lb)
{
	for (int i = 0; i < 2; i++) {
		char buf[4096];
		ssize_t n;

		if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		n = read(fds[i].fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fds[i].fd);
			fds[i].fd = -1;
			(*open_fds)--;
			continue;
		}
		if (i == 0 && io && io->out_line) {
			lines(io, lb, buf, (size_t)n);
		} else if (i == 0) {
			if (c->outlen + (size_t)n > RT_SPAWN_MAX_OUTPUT) {
				/* more than any measurement prints: the rest is read, not kept */
				c->truncated = true;
				continue;
			}
			if (c->outlen + (size_t)n + 1 > *cap) {
				char *q = realloc(c->out, *cap * 2 + (size_t)n);

				if (!q)
					continue;       /* keep what fits: the parse says what is missing */
				c->out = q;
				*cap = *cap * 2 + (size_t)n;
			}
			memcpy(c->out + c->outlen, buf, (size_t)n);
			c->outlen += (size_t)n;
		} else {
			if (io && io->err_data)
				io->err_data(io->ctx, buf, (size_t)n);
			/* keep the end of stderr: the last line says what went wrong */
			for (ssize_t k = 0; k < n; k++) {
				if (*errlen == errsize - 1) {
					memmove(errbuf, errbuf + errsize / 2, *errlen - errsize / 2);
					*errlen -= errsize / 2;
				}
				errbuf[(*errlen)++] = buf[k];
			}
		}
	}
}

int rt_spawn_run(char *const argv[], char env[][64], size_t nenv, double timeout,
		 struct rt_child *c, struct rt_err *err)
{
	return rt_spawn_run_io(argv, env, nenv, timeout, NULL, c, err);
}

int rt_spawn_run_io(char *const argv[], char env[][64], size_t nenv, double timeout,
		    const struct rt_spawn_io *io, struct rt_child *c, struct rt_err *err)
{
	struct linebuf lb = { NULL, 0 };
	int fds[7] = { -1, -1, -1, -1, -1, -1, -1 };   /* out[2], err[2], report[2], null */
	int status = 0, exec_errno = 0, rc = 0;
	char errbuf[4096];
	size_t errlen = 0, cap = 65536;
	double start = rt_now();
	bool timed_out = false, interrupted = false;
	char **envp = NULL;
	pid_t pid, self = getpid();

	memset(c, 0, sizeof(*c));
	c->out = malloc(cap);
	envp = child_environment(env, nenv);
	if (io && io->out_line)
		lb.buf = malloc(RT_SPAWN_LINE_MAX);
	if (!c->out || !envp || (io && io->out_line && !lb.buf)) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto fail;
	}
	if (pipe(fds) || pipe(fds + 2) || pipe2(fds + 4, O_CLOEXEC) ||
	    (fds[6] = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0) {
		rc = rt_err_set(err, -errno, "pipe: %s", strerror(errno));
		goto fail;
	}
	pid = fork();
	if (pid < 0) {
		rc = rt_err_set(err, -errno, "fork: %s", strerror(errno));
		goto fail;
	}
	if (pid == 0)
		child(argv, envp, self, fds[6], fds[1], fds[3], fds[5]);
	setpgid(pid, pid);      /* also here: no window where a kill of the group misses it */
	free(envp);
	envp = NULL;
	close(fds[1]), close(fds[3]), close(fds[5]), close(fds[6]);
	fds[1] = fds[3] = fds[5] = fds[6] = -1;
	/* the report pipe closes on a successful exec (nothing read) or carries exec's errno */
	while (read(fds[4], &exec_errno, sizeof(exec_errno)) < 0 && errno == EINTR)
		;
	{
		struct pollfd pfd[2] = { { fds[0], POLLIN, 0 }, { fds[2], POLLIN, 0 } };
		int open_fds = 2;

		while (open_fds) {
			double left = timeout > 0 ? timeout - (rt_now() - start) : 1.0;
			int r;

			if (timeout > 0 && left <= 0) {
				timed_out = true;
				break;
			}
			if (rt_spawn_interrupted()) {
				interrupted = true;
				break;
			}
			/* wake up at least every 100 ms to notice an interrupt */
			r = poll(pfd, 2, left < 0.1 ? (int)(left * 1000) + 1 : 100);
			if (r < 0 && errno == EINTR)
				continue;
			drain(pfd, &open_fds, c, &cap, errbuf, sizeof(errbuf), &errlen, io, &lb);
		}
		if (timed_out || interrupted) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		}
		fds[0] = pfd[0].fd;
		fds[2] = pfd[1].fd;
	}
	close_all(fds, 7);
	if (lb.len)             /* a last line without its newline */
		io->out_line(io->ctx, lb.buf, lb.len);
	free(lb.buf);
	c->out[c->outlen] = '\0';
	errbuf[errlen] = '\0';
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	c->seconds = rt_now() - start;
	{
		/* the last non-empty line of stderr */
		char *end = errbuf + errlen, *line;

		while (end > errbuf && (end[-1] == '\n' || end[-1] == '\r'))
			*--end = '\0';
		line = strrchr(errbuf, '\n');
		line = line ? line + 1 : errbuf;
		/* Ctrl-C reaches the child too: whatever ended it, the run was interrupted */
		if (interrupted || rt_spawn_interrupted())
			snprintf(c->reason, sizeof(c->reason), "interrupted");
		else if (exec_errno)
			snprintf(c->reason, sizeof(c->reason), "cannot run %.200s: %s", argv[0],
				 strerror(exec_errno));
		else if (timed_out)
			snprintf(c->reason, sizeof(c->reason), "timeout after %.3g s", timeout);
		else if (WIFSIGNALED(status))
			snprintf(c->reason, sizeof(c->reason), "killed by %s (%d)%s%.200s",
				 signame(WTERMSIG(status)), WTERMSIG(status), *line ? ": " : "", line);
		else if (WIFEXITED(status) && WEXITSTATUS(status))
			snprintf(c->reason, sizeof(c->reason), "exit %d%s%.200s", WEXITSTATUS(status),
				 *line ? ": " : "", line);
		else if (c->truncated)
			snprintf(c->reason, sizeof(c->reason), "its output passed %d MiB: not read",
				 RT_SPAWN_MAX_OUTPUT >> 20);
		else
			c->ok = true;
	}
	return 0;
fail:
	close_all(fds, 7);
	free(lb.buf);
	free(envp);
	free(c->out);
	c->out = NULL;
	return rc;
}
