/* spawn.c: a child in its own process group under a supervisor process that ends every process
 * of it, with a time limit. The parent may be threaded: after fork only async-signal-safe
 * calls, in the child until exec and in the supervisor (which never execs) all its life. */
#define _GNU_SOURCE
#include "config.h"
#include "base/spawn.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
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

/* Whether path is what execvp runs: a regular file (a link's target) this process may
 * execute; a directory or a file without x is passed over by its search. */
static bool runnable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
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
		    runnable(buf))
			return true;
		path = colon ? colon + 1 : NULL;
	}
	return false;
}

/* Our environment with env[] applied, as a NULL-terminated array built before fork (setenv
 * after fork is not async-signal-safe). The strings are borrowed from environ and env. */
static char **child_environment(char *const env[], size_t nenv)
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

/* ---- the supervisor and the child: async-signal-safe calls only ---- */

/* What the supervisor tells its parent, each message in one write (under PIPE_BUF: atomic). */
enum { MSG_START = 1, MSG_EXIT, MSG_DONE };
struct msg {
	int kind;
	int err;                        /* START: why the child could not be started (errno);
					 * EXIT: exec's errno (0: it ran) */
	int pid;                        /* START: the child, leader of its process group */
	int status;                     /* EXIT: its wait status */
	struct timespec at;             /* START: just before its fork; EXIT: when it ended */
	unsigned nstrays, unended;      /* DONE: as in struct rt_child */
	struct rt_stray stray[RT_SPAWN_STRAYS];
};
_Static_assert(sizeof(struct msg) <= PIPE_BUF, "a message is one atomic write");

/* Processes of a configuration handled per look at /proc (more are found as these end). */
#define TREE_MAX 256
/* How long SIGKILL may take before the processes it did not end are given up (one in
 * uninterruptible sleep on a dead file system). */
#define KILL_WAIT_S 10

/* What the supervisor is given, all made before fork. */
struct sup_args {
	char *const *argv;
	char **envp;
	pid_t parent;
	int in, out, err;               /* the child's 0, 1, 2 */
	int status;                     /* messages to the parent */
	int ctl;                        /* from the parent: closed (or the parent gone) = end it */
	int maxfd;                      /* sysconf(_SC_OPEN_MAX), without close_range */
};

static void close_fds(unsigned lo, unsigned hi, int maxfd)
{
#ifdef SYS_close_range
	if (syscall(SYS_close_range, lo, hi, 0) == 0)
		return;
#endif
	for (unsigned fd = lo; fd <= hi && fd < (unsigned)maxfd; fd++)
		close((int)fd);
}

/* Close every descriptor from 3 up but the n in keep (each >= 3). */
static void close_except(int *keep, size_t n, int maxfd)
{
	unsigned from = 3;

	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && keep[j - 1] > keep[j]; j--) {
			int t = keep[j];

			keep[j] = keep[j - 1];
			keep[j - 1] = t;
		}
	for (size_t i = 0; i < n; i++) {
		if ((unsigned)keep[i] > from)
			close_fds(from, (unsigned)keep[i] - 1, maxfd);
		if ((unsigned)keep[i] >= from)
			from = (unsigned)keep[i] + 1;
	}
	close_fds(from, ~0U, maxfd);
}

static size_t put_uint(char *p, unsigned long v)
{
	char d[24];
	size_t n = 0, k = 0;

	do
		d[n++] = (char)('0' + v % 10);
	while ((v /= 10));
	while (n)
		p[k++] = d[--n];
	return k;
}

/* The parent of pid, its state letter and its name from /proc/PID/stat (0: gone). */
static pid_t proc_stat(pid_t pid, char *state, char comm[16])
{
	char path[40] = "/proc/", buf[512], *open_p, *close_p, *p;
	size_t n = 6;
	ssize_t len;
	long ppid = 0;
	int fd;

	n += put_uint(path + n, (unsigned long)pid);
	memcpy(path + n, "/stat", 6);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return 0;
	buf[len] = '\0';
	/* "PID (COMM) S PPID ...": a name may hold ')' and spaces, so its end is the last ')' */
	open_p = strchr(buf, '(');
	close_p = strrchr(buf, ')');
	if (!open_p || !close_p || close_p < open_p || close_p + 4 > buf + len)
		return 0;
	n = (size_t)(close_p - open_p - 1) < 15 ? (size_t)(close_p - open_p - 1) : 15;
	memcpy(comm, open_p + 1, n);
	comm[n] = '\0';
	*state = close_p[2];
	for (p = close_p + 4; *p >= '0' && *p <= '9'; p++)
		ppid = ppid * 10 + (*p - '0');
	return (pid_t)ppid;
}

static bool listed(const struct rt_stray *v, size_t n, pid_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].pid == pid)
			return true;
	return false;
}

/* The live processes below self, up to max into out, by the parent links in /proc; returns
 * how many. The supervisor is a child subreaper, so a process that left its parent (a double
 * fork, setsid) is still below it. Zombies are left out: they are reaped, not ended. */
static size_t tree(pid_t self, struct rt_stray *out, size_t max)
{
	size_t n = 0;
	bool grew = true;

	/* a pass may meet a child before its parent: again until a pass finds no one new */
	while (grew && n < max) {
		char buf[4096] __attribute__((aligned(8)));
		ssize_t got;
		int dfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		grew = false;
		if (dfd < 0)
			break;
		while (n < max && (got = getdents64(dfd, buf, sizeof(buf))) > 0) {
			for (ssize_t off = 0; off < got && n < max;) {
				const struct dirent64 *d = (const void *)(buf + off);
				const char *q = d->d_name;
				char state = 0, comm[16];
				long pid = 0;
				pid_t ppid;

				off += d->d_reclen;
				while (*q >= '0' && *q <= '9' && pid < INT_MAX / 10)
					pid = pid * 10 + (*q++ - '0');
				if (*q || !pid || pid == self || listed(out, n, (pid_t)pid))
					continue;
				ppid = proc_stat((pid_t)pid, &state, comm);
				if (!ppid || state == 'Z' ||
				    (ppid != self && !listed(out, n, ppid)))
					continue;
				out[n].pid = (int)pid;
				memcpy(out[n].comm, comm, sizeof(comm));
				n++;
				grew = true;
			}
		}
		close(dfd);
	}
	return n;
}

/* The child and what became of it. */
struct reaped {
	pid_t pid;
	bool done;
	int status;
	struct timespec at;
};

/* Reap every child that ended; false when none is left (then no process is left below). */
static bool reap(struct reaped *r)
{
	for (;;) {
		int st;
		pid_t p = waitpid(-1, &st, WNOHANG);

		if (p == 0)
			return true;
		if (p < 0 && errno == EINTR)
			continue;
		if (p < 0)
			return false;
		if (p == r->pid) {
			r->done = true;
			r->status = st;
			clock_gettime(CLOCK_MONOTONIC, &r->at);
		}
	}
}

/* Read what the signalfd holds: true when a signal other than SIGCHLD came (end it all). */
static bool signals(int sfd)
{
	struct signalfd_siginfo si;
	bool end = false;

	while (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
		if (si.ssi_signo != SIGCHLD)
			end = true;
	return end;
}

static int ms_until(const struct timespec *t)
{
	struct timespec now;
	long long ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (long long)(t->tv_sec - now.tv_sec) * 1000 + (t->tv_nsec - now.tv_nsec) / 1000000;
	return ms < 0 ? 0 : ms > INT_MAX ? INT_MAX : (int)ms;
}

static struct timespec after_s(int s)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_sec += s;
	return t;
}

/* SIGKILL to every process below self (and to the child's group while the child is not
 * reaped: its pid cannot be reused before), reaping them, until none is left or KILL_WAIT_S
 * passed; returns how many could not be ended. */
static unsigned kill_all(pid_t self, struct reaped *r, int sfd, struct rt_stray *buf)
{
	const struct timespec end = after_s(KILL_WAIT_S);

	for (;;) {
		struct pollfd p = { sfd, POLLIN, 0 };
		size_t n;

		if (!r->done)
			kill(-r->pid, SIGKILL);
		n = tree(self, buf, TREE_MAX);
		for (size_t i = 0; i < n; i++)
			kill(buf[i].pid, SIGKILL);
		if (!reap(r))
			return 0;
		if (!ms_until(&end))
			return (unsigned)n;
		/* a death below is SIGCHLD here once its parents are gone; a look at /proc every
		 * 100 ms finds what was forked as the others were killed */
		if (poll(&p, 1, ms_until(&end) < 100 ? ms_until(&end) : 100) > 0)
			(void)signals(sfd);
	}
}

static void say(int fd, const struct msg *m)
{
	/* the parent gone (EPIPE; SIGPIPE is blocked): the work goes on all the same */
	while (write(fd, m, sizeof(*m)) < 0 && errno == EINTR)
		;
}

/* The CPUs this process was given when it started, before any of its threads was pinned (the
 * probe's kernels pin the thread that measures, and give it back): every process it starts
 * gets them, whichever thread starts it and whatever that thread was pinned to then. */
static cpu_set_t start_cpus;
static bool start_cpus_ok;

static void __attribute__((constructor)) save_start_cpus(void)
{
	start_cpus_ok = sched_getaffinity(0, sizeof(start_cpus), &start_cpus) == 0;
}

/* The child: nothing but async-signal-safe calls until execve. */
static void __attribute__((noreturn)) child(const struct sup_args *a, const sigset_t *mask,
					    pid_t supervisor, int report)
{
	int e, keep[1] = { report };

	setpgid(0, 0);
	if (start_cpus_ok)
		(void)sched_setaffinity(0, sizeof(start_cpus), &start_cpus);
	/* the supervisor killed (SIGKILL) takes the child with it */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != supervisor)
		_exit(126);
	/* in, out and err are above 2 (the supervisor moved them): no dup2 clobbers another */
	if (dup2(a->in, STDIN_FILENO) < 0 || dup2(a->out, STDOUT_FILENO) < 0 ||
	    dup2(a->err, STDERR_FILENO) < 0)
		goto fail;
	/* only 0, 1, 2 cross exec, whatever the parent left open (the report closes on exec) */
	close_except(keep, 1, a->maxfd);
	sigprocmask(SIG_SETMASK, mask, NULL);
	execve(a->argv[0], a->argv, a->envp);
fail:
	e = errno;
	/* the supervisor reads the reason from the close-on-exec pipe */
	if (write(report, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* The supervisor: a child subreaper between the parent and the child. It starts the child in
 * a process group of its own, and ends it and everything below it when the parent asks
 * (closes ctl), dies (ctl closes; PR_SET_PDEATHSIG) or a signal asks (SIGTERM, SIGINT, SIGHUP,
 * SIGQUIT). When the child exits by itself, what it left running is named to the parent and
 * ended (SIGTERM, RT_SPAWN_GRACE_S for them to go, SIGKILL). */
static void __attribute__((noreturn)) supervise(struct sup_args *a)
{
	struct rt_stray procs[TREE_MAX];
	struct reaped r = { 0 };
	struct msg m = { .kind = MSG_START };   /* then DONE */
	sigset_t set, orig;
	int *mine[] = { &a->in, &a->out, &a->err, &a->status, &a->ctl };
	int keep[5], rep[2] = { -1, -1 }, sfd, exec_errno = 0;
	const pid_t self = getpid();
	bool ended = false;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	sigaddset(&set, SIGPIPE);
	sigprocmask(SIG_BLOCK, &set, &orig);
	sigdelset(&set, SIGPIPE);
	{
		/* SIGCHLD ignored by the parent would reap the child unseen (its status lost) */
		struct sigaction dfl = { .sa_handler = SIG_DFL };

		sigaction(SIGCHLD, &dfl, NULL);
	}
	/* the parent's death is a signal read below, whatever killed it */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != a->parent)
		_exit(0);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	prctl(PR_SET_NAME, "rt-supervisor");    /* in ps, beside the tool it was forked from */
	/* ours above 2, /dev/null on 0-2 (the parent's terminal or pipes are not held here),
	 * nothing else of the parent's */
	for (size_t i = 0; i < 5; i++) {
		if (*mine[i] < 3 && (*mine[i] = fcntl(*mine[i], F_DUPFD_CLOEXEC, 3)) < 0)
			goto fail;
		keep[i] = *mine[i];
	}
	for (int fd = 0; fd < 3; fd++)
		if (dup2(a->in, fd) < 0)
			goto fail;
	close_except(keep, 5, a->maxfd);
	if ((sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK)) < 0 || pipe2(rep, O_CLOEXEC))
		goto fail;
	clock_gettime(CLOCK_MONOTONIC, &m.at);
	r.pid = fork();
	if (r.pid < 0)
		goto fail;
	if (r.pid == 0)
		child(a, &orig, self, rep[1]);
	setpgid(r.pid, r.pid);  /* also here: no window where a kill of the group misses it */
	close(rep[1]);
	close(a->in);
	close(a->out);
	close(a->err);
	m.pid = r.pid;
	say(a->status, &m);
	memset(&m, 0, sizeof(m));
	/* until the child ends, or the parent or a signal asks to end it */
	while (!r.done && !ended) {
		struct pollfd p[3] = { { sfd, POLLIN, 0 }, { a->ctl, POLLIN, 0 },
				       { rep[0], POLLIN, 0 } };

		if (poll(p, 3, -1) < 0)
			continue;
		if (p[2].revents) {
			/* exec's errno, or nothing: the pipe closed on exec */
			if (read(rep[0], &exec_errno, sizeof(exec_errno)) !=
			    (ssize_t)sizeof(exec_errno))
				exec_errno = 0;
			close(rep[0]);
			rep[0] = -1;
		}
		if (p[1].revents)
			ended = true;
		if (p[0].revents && signals(sfd))
			ended = true;
		if (!ended && !reap(&r))
			break;
	}
	if (ended)
		/* every process of it at once, the child first (its group) */
		m.unended = kill_all(self, &r, sfd, procs);
	if (rep[0] >= 0 &&
	    read(rep[0], &exec_errno, sizeof(exec_errno)) != (ssize_t)sizeof(exec_errno))
		exec_errno = 0;   /* the child is gone: its end of the pipe is closed */
	{
		struct msg e = { .kind = MSG_EXIT, .err = exec_errno, .status = r.status,
				 .at = r.at, .unended = !r.done };

		if (!r.done)
			clock_gettime(CLOCK_MONOTONIC, &e.at);
		/* said before the strays are ended: the parent's time limit is the child's */
		say(a->status, &e);
	}
	if (!ended) {
		/* its orphans were made ours before it could be reaped: no child, nothing left */
		size_t n = reap(&r) ? tree(self, procs, TREE_MAX) : 0;
		struct timespec grace = after_s(RT_SPAWN_GRACE_S);

		/* it exited: what it left running is a stray, named, then ended */
		m.nstrays = (unsigned)n;
		for (size_t i = 0; i < n && i < RT_SPAWN_STRAYS; i++)
			m.stray[i] = procs[i];
		for (size_t i = 0; i < n; i++)
			kill(procs[i].pid, SIGTERM);
		/* each death below reaches here as SIGCHLD, the last leaving no child */
		while (n && reap(&r) && ms_until(&grace)) {
			struct pollfd p[2] = { { sfd, POLLIN, 0 }, { a->ctl, POLLIN, 0 } };

			if (poll(p, 2, ms_until(&grace)) > 0 && (p[1].revents || signals(sfd)))
				break;
		}
		m.unended = n ? kill_all(self, &r, sfd, procs) : 0;
	}
	m.kind = MSG_DONE;
	say(a->status, &m);
	_exit(0);
fail:
	m.err = errno;
	say(a->status, &m);
	_exit(1);
}

/* ---- the parent ---- */

/* A partial line of the child's output, for io->out_line. */
struct linebuf {
	char *buf;
	size_t len;
};

/* Where the child's output goes. */
struct sink {
	struct rt_child *c;
	size_t cap;
	char errbuf[4096];              /* the end of its standard error */
	size_t errlen;
	const struct rt_spawn_io *io;
	struct linebuf lb;
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

/* n bytes of standard output (which 0) or error (1) into c->out (or io) and the stderr tail. */
static void take(struct sink *s, int which, const char *buf, size_t n)
{
	struct rt_child *c = s->c;

	if (which == 0 && s->io && s->io->out_line) {
		lines(s->io, &s->lb, buf, n);
	} else if (which == 0) {
		if (c->outlen + n > RT_SPAWN_MAX_OUTPUT) {
			/* more than any measurement prints: the rest is read, not kept */
			c->truncated = true;
			return;
		}
		if (c->outlen + n + 1 > s->cap) {
			char *q = realloc(c->out, s->cap * 2 + n);

			if (!q)
				return;         /* keep what fits: the parse says what is missing */
			c->out = q;
			s->cap = s->cap * 2 + n;
		}
		memcpy(c->out + c->outlen, buf, n);
		c->outlen += n;
	} else {
		if (s->io && s->io->err_data)
			s->io->err_data(s->io->ctx, buf, n);
		/* keep the end of stderr: the last line says what went wrong */
		for (size_t k = 0; k < n; k++) {
			if (s->errlen == sizeof(s->errbuf) - 1) {
				memmove(s->errbuf, s->errbuf + sizeof(s->errbuf) / 2,
					s->errlen - sizeof(s->errbuf) / 2);
				s->errlen -= sizeof(s->errbuf) / 2;
			}
			s->errbuf[s->errlen++] = buf[k];
		}
	}
}

/* One read of output pipe which (non-blocking): the bytes read, 0 at its end (then closed),
 * -1 when nothing is there now. */
static ssize_t pull(struct sink *s, struct pollfd *pfd, int which)
{
	char buf[4096];
	ssize_t n;

	if (pfd[which].fd < 0)
		return 0;
	n = read(pfd[which].fd, buf, sizeof(buf));
	if (n < 0 && errno != EAGAIN && errno != EINTR)
		n = 0;
	if (n == 0) {
		close(pfd[which].fd);
		pfd[which].fd = -1;
	}
	if (n > 0)
		take(s, which, buf, (size_t)n);
	return n;
}

static double seconds_between(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + 1e-9 * (double)(b->tv_nsec - a->tv_nsec);
}

/* c->strays in words. */
static void name_strays(struct rt_child *c)
{
	size_t len;

	if (!c->nstrays && !c->unended)
		return;
	len = (size_t)snprintf(c->strays, sizeof(c->strays), "left %s%u process%s running when it "
			       "exited, ended:", c->nstrays == TREE_MAX ? "at least " : "",
			       c->nstrays, c->nstrays == 1 ? "" : "es");
	for (unsigned i = 0; i < c->nstrays && i < RT_SPAWN_STRAYS && len < sizeof(c->strays); i++)
		len += (size_t)snprintf(c->strays + len, sizeof(c->strays) - len, "%s %s (pid %d)",
					i ? "," : "", c->stray[i].comm, c->stray[i].pid);
	if (c->nstrays > RT_SPAWN_STRAYS && len < sizeof(c->strays))
		len += (size_t)snprintf(c->strays + len, sizeof(c->strays) - len, " and %u more",
					c->nstrays - RT_SPAWN_STRAYS);
	if (c->unended && len < sizeof(c->strays))
		snprintf(c->strays + len, sizeof(c->strays) - len, "; %u still running: "
			 "SIGKILL did not end %s in %d s", c->unended,
			 c->unended == 1 ? "it" : "them", KILL_WAIT_S);
}

int rt_spawn_run(char *const argv[], char env[][64], size_t nenv, double timeout,
		 struct rt_child *c, struct rt_err *err)
{
	return rt_spawn_run_io(argv, env, nenv, timeout, NULL, c, err);
}

int rt_spawn_run_io(char *const argv[], char env[][64], size_t nenv, double timeout,
		    const struct rt_spawn_io *io, struct rt_child *c, struct rt_err *err)
{
	char *v[64];

	if (nenv > sizeof(v) / sizeof(v[0]))
		return rt_err_set(err, -E2BIG, "spawn: %zu variables (at most %zu)", nenv,
				  sizeof(v) / sizeof(v[0]));
	for (size_t i = 0; i < nenv; i++)
		v[i] = env[i];
	return rt_spawn_run_envp(argv, v, nenv, timeout, io, c, err);
}

int rt_spawn_run_envp(char *const argv[], char *const env[], size_t nenv, double timeout,
		      const struct rt_spawn_io *io, struct rt_child *c, struct rt_err *err)
{
	/* out[2], err[2], status[2], ctl[2], /dev/null */
	int fds[9] = { -1, -1, -1, -1, -1, -1, -1, -1, -1 };
	struct sink *s = NULL;
	struct msg start = { 0 }, ended = { 0 }, done = { 0 }, m;
	size_t mlen = 0;
	int sup_status = 0, rc = 0;
	const double t0 = rt_now();
	double started_at = t0;         /* the child's start, once the supervisor says it */
	bool timed_out = false, interrupted = false, have_start = false, have_exit = false;
	bool have_done = false, sup_gone = false;
	char **envp = NULL;
	pid_t sup;

	memset(c, 0, sizeof(*c));
	s = calloc(1, sizeof(*s));
	envp = child_environment(env, nenv);
	if (s) {
		s->c = c;
		s->io = io;
		s->cap = 65536;
		c->out = malloc(s->cap);
		if (io && io->out_line)
			s->lb.buf = malloc(RT_SPAWN_LINE_MAX);
	}
	if (!s || !c->out || !envp || (io && io->out_line && !s->lb.buf)) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto fail;
	}
	/* all close-on-exec: the child gets its own three as 0, 1, 2 and nothing else */
	if (pipe2(fds, O_CLOEXEC) || pipe2(fds + 2, O_CLOEXEC) || pipe2(fds + 4, O_CLOEXEC) ||
	    pipe2(fds + 6, O_CLOEXEC) || fcntl(fds[0], F_SETFL, O_NONBLOCK) ||
	    fcntl(fds[2], F_SETFL, O_NONBLOCK)) {
		rc = rt_err_set(err, -errno, "pipe: %s", strerror(errno));
		goto fail;
	}
	errno = 0;
	fds[8] = io && io->input ? memfd_create("rt-input", MFD_CLOEXEC) :
		 open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fds[8] < 0 || (io && io->input &&
			   (write(fds[8], io->input, io->input_len) != (ssize_t)io->input_len ||
			    lseek(fds[8], 0, SEEK_SET)))) {
		rc = rt_err_set(err, -(errno ? errno : EIO), "the child's input: %s",
				strerror(errno ? errno : EIO));
		goto fail;
	}
	{
		long maxfd = sysconf(_SC_OPEN_MAX);
		struct sup_args a = {
			.argv = argv, .envp = envp, .parent = getpid(), .in = fds[8], .out = fds[1],
			.err = fds[3], .status = fds[5], .ctl = fds[6],
			.maxfd = maxfd > 0 && maxfd < INT_MAX ? (int)maxfd : 65536,
		};

		sup = fork();
		if (sup < 0) {
			rc = rt_err_set(err, -errno, "fork: %s", strerror(errno));
			goto fail;
		}
		if (sup == 0)
			supervise(&a);
	}
	free(envp);
	envp = NULL;
	close(fds[1]), close(fds[3]), close(fds[5]), close(fds[6]), close(fds[8]);
	fds[1] = fds[3] = fds[5] = fds[6] = fds[8] = -1;
	{
		struct pollfd pfd[3] = { { fds[0], POLLIN, 0 }, { fds[2], POLLIN, 0 },
					 { fds[4], POLLIN, 0 } };

		/* until the supervisor says all is over (or is gone) */
		while (!have_done && !sup_gone) {
			ssize_t n;

			/* the time limit, while the child runs, from its start (the supervisor's
			 * stamp: it always says START, or goes away), so that a child timed out
			 * had all of it; the flag, until all is over */
			if (fds[7] >= 0 && have_start && !have_exit && timeout > 0 &&
			    rt_now() - started_at >= timeout)
				timed_out = true;
			if (fds[7] >= 0 && rt_spawn_interrupted())
				interrupted = true;
			if (fds[7] >= 0 && (timed_out || interrupted)) {
				/* the supervisor kills it all, whatever it does with its pipes */
				close(fds[7]);
				fds[7] = -1;
			}
			{
				/* wake at least every 100 ms to notice an interrupt */
				const double left = timeout > 0 && have_start && !have_exit ?
						    timeout - (rt_now() - started_at) : 1;
				int ms = fds[7] < 0 ? -1 : left <= 0 ? 0 :
					 left < 0.1 ? (int)(left * 1000) + 1 : 100;

				if (poll(pfd, 3, ms) < 0)
					continue;
			}
			for (int i = 0; i < 2; i++)
				if (pfd[i].revents)
					(void)pull(s, pfd, i);
			if (!pfd[2].revents)
				continue;
			n = read(fds[4], (char *)&m + mlen, sizeof(m) - mlen);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				sup_gone = true;
				break;
			}
			mlen += (size_t)n;
			if (mlen < sizeof(m))
				continue;
			mlen = 0;
			if (m.kind == MSG_START) {
				start = m;
				have_start = true;
				started_at = (double)m.at.tv_sec + 1e-9 * (double)m.at.tv_nsec;
			}
			else if (m.kind == MSG_EXIT)
				ended = m, have_exit = true;
			else if (m.kind == MSG_DONE)
				done = m, have_done = true;
		}
		/* what is in the pipes now: every writer is gone, unless one escaped (then a
		 * bounded amount) */
		for (int i = 0; i < 2; i++)
			for (size_t got = 0; got < (2u << 20);) {
				ssize_t n = pull(s, pfd, i);

				if (n <= 0)
					break;
				got += (size_t)n;
			}
		fds[0] = pfd[0].fd;
		fds[2] = pfd[1].fd;
	}
	close_all(fds, 9);
	while (waitpid(sup, &sup_status, 0) < 0 && errno == EINTR)
		;
	if (have_start && start.err) {
		rc = rt_err_set(err, -start.err, "cannot start '%s': %s", argv[0],
				strerror(start.err));
		goto fail;
	}
	if (!have_start) {
		rc = rt_err_set(err, -ECHILD, "cannot start '%s': its supervisor process ended "
				"(wait status %d)", argv[0], sup_status);
		goto fail;
	}
	if (!have_done)
		/* the supervisor was killed before its work was done: the child's group at least
		 * (the child itself died with it: PR_SET_PDEATHSIG) */
		kill(-start.pid, SIGKILL);
	if (s->lb.len)          /* a last line without its newline */
		io->out_line(io->ctx, s->lb.buf, s->lb.len);
	c->out[c->outlen] = '\0';
	s->errbuf[s->errlen] = '\0';
	c->seconds = have_exit ? seconds_between(&start.at, &ended.at) : rt_now() - t0;
	c->started = have_exit ? (double)start.at.tv_sec + 1e-9 * (double)start.at.tv_nsec : t0;
	c->nstrays = done.nstrays;
	c->unended = done.unended;
	memcpy(c->stray, done.stray, sizeof(c->stray));
	name_strays(c);
	{
		/* the last non-empty line of stderr */
		char *end = s->errbuf + s->errlen, *line;
		const int status = ended.status;

		while (end > s->errbuf && (end[-1] == '\n' || end[-1] == '\r'))
			*--end = '\0';
		line = strrchr(s->errbuf, '\n');
		line = line ? line + 1 : s->errbuf;
		/* whatever ended it, the run was interrupted */
		if (interrupted || rt_spawn_interrupted())
			snprintf(c->reason, sizeof(c->reason), "interrupted");
		else if (ended.err)
			snprintf(c->reason, sizeof(c->reason), "cannot run %.200s: %s", argv[0],
				 strerror(ended.err));
		else if (timed_out)
			snprintf(c->reason, sizeof(c->reason), "timeout after %.3g s", timeout);
		else if (!have_exit)
			snprintf(c->reason, sizeof(c->reason), "its supervisor process ended "
				 "before it did (wait status %d): its process group was killed",
				 sup_status);
		else if (ended.unended)
			snprintf(c->reason, sizeof(c->reason), "still running (pid %d): SIGKILL "
				 "did not end it in %d s", start.pid, KILL_WAIT_S);
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
	free(s->lb.buf);
	free(s);
	return 0;
fail:
	close_all(fds, 9);
	if (s)
		free(s->lb.buf);
	free(s);
	free(envp);
	free(c->out);
	c->out = NULL;
	return rc;
}
