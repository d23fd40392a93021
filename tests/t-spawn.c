/* t-spawn.c: the process spawner on real processes: the child sees only fds 0-2; the run ends
 * when the child exits, what it left running (in its group, or escaped by setsid and a double
 * fork, or ignoring SIGTERM) named and ended; its output to the end although a stray holds the
 * pipe; the time limit and the interrupt flag end a child that closed its descriptors; a
 * parent killed by SIGKILL leaves no process of its child. Every wait is on an event (a line,
 * a FIFO, a pidfd); the commands sleep 3000 s, so a process found gone was ended, and an alarm
 * turns a hang into a failure. */
#define _GNU_SOURCE
#include "config.h"
#include "base/spawn.h"
#include "tap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int interrupted;

static void on_usr1(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void on_alarm(int sig)
{
	static const char msg[] = "Bail out! t-spawn: a case hung for 300 s\n";

	(void)sig;
	if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(1);
}

/* Whether no process has this pid (a zombie still has it). */
static bool gone(pid_t pid)
{
	return pid > 0 && kill(pid, 0) < 0 && errno == ESRCH;
}

/* The live (not zombie) processes in process group pgid. */
static unsigned in_group(pid_t pgid)
{
	const struct dirent *de;
	unsigned n = 0;
	DIR *d = opendir("/proc");

	while (d && (de = readdir(d))) {
		char path[300], line[1024], state;
		const char *close_p;
		int ppid, pgrp;
		FILE *fp;

		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		if (de->d_name[0] < '1' || de->d_name[0] > '9' || !(fp = fopen(path, "r")))
			continue;
		/* field 5 is the group, after the name (which ends at the last ')') */
		if (fgets(line, sizeof(line), fp) && (close_p = strrchr(line, ')')) &&
		    sscanf(close_p + 1, " %c %d %d", &state, &ppid, &pgrp) == 3 && pgrp == pgid &&
		    state != 'Z')
			n++;
		fclose(fp);
	}
	if (d)
		closedir(d);
	return n;
}

/* Wait until process pid ends (its pidfd polls readable); false after 120 s or without
 * pidfd_open. */
static bool ends(pid_t pid)
{
	struct pollfd p = { -1, POLLIN, 0 };
	bool ended;

	p.fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (p.fd < 0)
		return gone(pid);
	ended = poll(&p, 1, 120000) == 1;
	close(p.fd);
	return ended;
}

static bool named(const struct rt_child *c, pid_t pid)
{
	for (unsigned i = 0; i < c->nstrays && i < RT_SPAWN_STRAYS; i++)
		if (c->stray[i].pid == pid)
			return true;
	return false;
}

int main(void)
{
	struct rt_child c;
	struct rt_err err = { 0 };
	char dir[] = "/tmp/rt-t-spawn.XXXXXX", path[64], fifo[64], want[320];
	long a = 0, b = 0;

	signal(SIGALRM, on_alarm);
	alarm(300);
	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}

	/* PATH searched as execvp searches it: a directory named like the program and a file
	 * without execute permission passed over, the program found after them */
	{
		char d1[96], d2[96], d3[96], p[320], got[256], *old = getenv("PATH");
		char *saved = old ? strdup(old) : NULL;
		bool made;
		int fd;

		snprintf(d1, sizeof(d1), "%s/p1", dir);
		snprintf(d2, sizeof(d2), "%s/p2", dir);
		snprintf(d3, sizeof(d3), "%s/p3", dir);
		snprintf(p, sizeof(p), "%s/rt-prog", d1);
		made = !mkdir(d1, 0700) && !mkdir(d2, 0700) && !mkdir(d3, 0700) && !mkdir(p, 0700);
		snprintf(p, sizeof(p), "%s/rt-prog", d2);
		made = made && (fd = open(p, O_WRONLY | O_CREAT, 0600)) >= 0 && !close(fd);
		snprintf(p, sizeof(p), "%s/rt-prog", d3);
		made = made && (fd = open(p, O_WRONLY | O_CREAT, 0700)) >= 0 && !close(fd);
		snprintf(p, sizeof(p), "%s:%s:%s", d1, d2, d3);
		setenv("PATH", p, 1);
		snprintf(want, sizeof(want), "%s/rt-prog", d3);
		ok(made && rt_spawn_which("rt-prog", got, sizeof(got)) && !strcmp(got, want),
		   "PATH: a directory and a file without x of the name passed over, %s found", want);
		snprintf(p, sizeof(p), "%s:%s", d1, d2);
		setenv("PATH", p, 1);
		ok(!rt_spawn_which("rt-prog", got, sizeof(got)), "... none when only those are there");
		if (saved)
			setenv("PATH", saved, 1);
		else
			unsetenv("PATH");
		free(saved);
		snprintf(p, sizeof(p), "%s/rt-prog", d1);
		rmdir(p);
		snprintf(p, sizeof(p), "%s/rt-prog", d2);
		unlink(p);
		unlink(want);
		rmdir(d1), rmdir(d2), rmdir(d3);
	}

	/* the parent's descriptors stay the parent's, close-on-exec or not */
	{
		/* a child started by a thread pinned to one CPU (as the probe's kernels pin it)
		 * gets the CPUs this process started with */
		char *argv[] = { "/bin/sh", "-c", "grep '^Cpus_allowed_list' /proc/$$/status",
				 NULL };
		cpu_set_t all, one;
		char mine[160] = "";
		int last = -1;
		FILE *fp = fopen("/proc/self/status", "re");

		while (fp && fgets(mine, sizeof(mine), fp) &&
		       strncmp(mine, "Cpus_allowed_list", 17))
			;
		if (fp)
			fclose(fp);
		CPU_ZERO(&one);
		if (!sched_getaffinity(0, sizeof(all), &all))
			for (int k = 0; k < CPU_SETSIZE; k++)
				if (CPU_ISSET(k, &all))
					last = k;
		if (last < 0 || CPU_COUNT(&all) < 2 || strncmp(mine, "Cpus_allowed_list", 17)) {
			skip("a child of a pinned thread: this process has one CPU");
		} else {
			CPU_SET(last, &one);
			(void)sched_setaffinity(0, sizeof(one), &one);
			is_int(rt_spawn_run(argv, NULL, 0, 0, &c, &err), 0,
			       "a thread pinned to CPU %d starts a child", last);
			(void)sched_setaffinity(0, sizeof(all), &all);
			is_str(c.out, mine, "... which gets this process's CPUs, not the thread's");
			free(c.out);
		}
	}
	{
		char *argv[] = { "/bin/sh", "-c", "ls /proc/$$/fd", NULL };
		int leak = open("/dev/null", O_RDONLY), lp[2] = { -1, -1 };
		const bool made = leak >= 0 && pipe(lp) == 0;

		ok(made, "the parent holds /dev/null and a pipe without close-on-exec (fds %d, %d, "
		   "%d)", leak, lp[0], lp[1]);
		is_int(rt_spawn_run(argv, NULL, 0, 0, &c, &err), 0,
		       "a child that lists its fds runs");
		is_str(c.out, "0\n1\n2\n", "the child sees only fds 0, 1 and 2");
		free(c.out);
		close(leak);
		close(lp[0]);
		close(lp[1]);
	}

	/* an input given is the child's standard input, read whole through /dev/stdin (a sweep's
	 * child reads its record so), its stdin otherwise /dev/null */
	{
		char *argv[] = { "/bin/sh", "-c", "cat /dev/stdin; wc -c </dev/stdin", NULL };
		const struct rt_spawn_io io = { .input = "child = {\n  batch = 4;\n};\n",
						.input_len = 26 };

		is_int(rt_spawn_run_io(argv, NULL, 0, 0, &io, &c, &err), 0, "a child given an input");
		is_str(c.out, "child = {\n  batch = 4;\n};\n26\n", "it reads the input whole, twice");
		free(c.out);
		is_int(rt_spawn_run(argv, NULL, 0, 0, &c, &err), 0, "a child given none");
		is_str(c.out, "0\n", "its standard input is empty");
		free(c.out);
	}

	/* the run ends when the child exits: a daemon it started is named and ended */
	{
		char *argv[] = { "/bin/sh", "-c", "sleep 3000 & "
				 "while [ \"$(cat /proc/$!/comm)\" != sleep ]; do :; done; echo $!",
				 NULL };

		is_int(rt_spawn_run(argv, NULL, 0, 0, &c, &err), 0,
		       "sh -c 'sleep 3000 & echo' runs");
		a = strtol(c.out, NULL, 10);
		ok(c.ok && a > 0, "it returned when sh exited, ok (%s)", c.ok ? "ok" : c.reason);
		is_int(c.nstrays, 1, "one stray");
		ok(c.nstrays == 1 && c.stray[0].pid == a && !strcmp(c.stray[0].comm, "sleep"),
		   "... the sleep, pid %ld: named '%s', pid %d", a, c.stray[0].comm,
		   c.stray[0].pid);
		snprintf(want, sizeof(want), "left 1 process running when it exited, ended: sleep "
			 "(pid %ld)", a);
		is_str(c.strays, want, "... in words");
		ok(gone((pid_t)a), "... and gone when the call returns");
		is_int(c.unended, 0, "... none left running");
		free(c.out);
	}

	/* strays that ignore SIGTERM, or left the group and the session (setsid, double fork) */
	{
		char *argv[] = { "/bin/sh", "-c", "(trap '' TERM; exec sleep 3000) & t=$!; "
				 "(setsid sh -c 'echo $$ >\"$1.tmp\"; mv \"$1.tmp\" \"$1\"; "
				 "exec sleep 3000' sh \"$1\" &); "
				 "while [ ! -s \"$1\" ] || [ \"$(cat /proc/$t/comm)\" != sleep ]; "
				 "do :; done; echo $t $(cat \"$1\")", "sh", path, NULL };
		char *end;

		snprintf(path, sizeof(path), "%s/escaped", dir);
		is_int(rt_spawn_run(argv, NULL, 0, 0, &c, &err), 0,
		       "a child leaving two strays runs");
		a = strtol(c.out, &end, 10);
		b = strtol(end, NULL, 10);
		ok(c.ok && a > 0 && b > 0, "ok (%s), the strays' pids said (%ld, %ld)",
		   c.ok ? "ok" : c.reason, a, b);
		ok(c.nstrays == 2 && named(&c, (pid_t)a) && named(&c, (pid_t)b),
		   "both named: %s", c.strays);
		ok(gone((pid_t)a), "the one that ignores SIGTERM is gone (SIGKILL after the "
		   "grace)");
		ok(gone((pid_t)b), "the one in a session of its own is gone");
		free(c.out);
	}

	/* what the child wrote before it exited is read whole, a stray holding the pipe */
	{
		char *argv[] = { "/bin/sh", "-c", "sleep 3000 & i=0; while [ $i -lt 20000 ]; "
				 "do echo line$i; i=$((i + 1)); done", NULL };
		size_t bytes = 0;

		for (int i = 0; i < 20000; i++)
			bytes += (size_t)snprintf(want, sizeof(want), "line%d\n", i);
		is_int(rt_spawn_run(argv, NULL, 0, 0, &c, &err), 0,
		       "a child printing 20000 lines runs");
		is_int((long long)c.outlen, (long long)bytes, "all its output read (3 x a pipe's "
		       "64 KiB)");
		ok(c.outlen >= 10 && !memcmp(c.out + c.outlen - 10, "line19999\n", 10),
		   "... to its last line");
		is_int(c.nstrays, 1, "... the sleep a stray");
		free(c.out);
	}

	/* the time limit ends a child that closed its pipes */
	{
		char *argv[] = { "/bin/sh", "-c", "echo $$; exec >&- 2>&-; exec sleep 3000", NULL };

		is_int(rt_spawn_run(argv, NULL, 0, 0.5, &c, &err), 0, "a child closing its stdout "
		       "and stderr runs");
		a = strtol(c.out, NULL, 10);
		ok(!c.ok && !strcmp(c.reason, "timeout after 0.5 s") && c.seconds >= 0.5,
		   "its timeout ends it: '%s' after %.2f s", c.reason, c.seconds);
		ok(gone((pid_t)a), "... pid %ld is gone", a);
		is_int(c.nstrays, 0, "... not a stray: the child itself");
		free(c.out);
	}

	/* so does the interrupt flag (raised by a signal that child sends us) */
	{
		char me[24];
		char *argv[] = { "/bin/sh", "-c", "echo $$; exec >&- 2>&-; kill -USR1 \"$1\"; "
				 "exec sleep 3000", "sh", me, NULL };
		struct sigaction sa = { .sa_handler = on_usr1 };

		sigemptyset(&sa.sa_mask);
		sigaction(SIGUSR1, &sa, NULL);
		snprintf(me, sizeof(me), "%d", (int)getpid());
		rt_spawn_set_interrupt_flag(&interrupted);
		is_int(rt_spawn_run(argv, NULL, 0, 0, &c, &err), 0, "a child that closes its pipes "
		       "and signals us runs");
		a = strtol(c.out, NULL, 10);
		ok(!c.ok && !strcmp(c.reason, "interrupted"), "the flag ends it: '%s'", c.reason);
		ok(gone((pid_t)a), "... pid %ld is gone", a);
		rt_spawn_set_interrupt_flag(NULL);
		interrupted = 0;
		free(c.out);
	}

	/* a parent killed by SIGKILL: no process of its child is left */
	{
		char line[64] = "";
		ssize_t n = 0;
		pid_t parent;
		int fd;

		snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
		if (mkfifo(fifo, 0600))
			printf("# mkfifo: %s\n", strerror(errno));
		parent = fork();
		if (parent == 0) {
			char *argv[] = { "/bin/sh", "-c", "sleep 3000 & echo \"$$ $!\" >\"$1\"; "
					 "exec sleep 3000", "sh", fifo, NULL };

			alarm(0);
			rt_spawn_run(argv, NULL, 0, 0, &c, &err);
			_exit(0);
		}
		/* opening the FIFO waits for the child's write */
		if ((fd = open(fifo, O_RDONLY)) >= 0) {
			n = read(fd, line, sizeof(line) - 1);
			close(fd);
		}
		line[n > 0 ? n : 0] = '\0';
		a = b = 0;
		n = sscanf(line, "%ld %ld", &a, &b);
		ok(n == 2, "sh -c 'sleep 3000 & sleep 3000' started (group %ld, the background "
		   "sleep %ld)", a, b);
		kill(parent, SIGKILL);
		waitpid(parent, NULL, 0);
		ok(a > 0 && ends((pid_t)a), "the parent killed: its child (sh, then sleep) ended");
		ok(b > 0 && ends((pid_t)b), "... the background sleep too");
		is_int(in_group((pid_t)a), 0, "... no process left in the child's group");
		if (a > 0 && b > 0) {
			/* what a failure left behind */
			kill(-(pid_t)a, SIGKILL);
			kill((pid_t)b, SIGKILL);
		}
	}
	unlink(fifo);
	unlink(path);
	rmdir(dir);
	return done_testing();
}
