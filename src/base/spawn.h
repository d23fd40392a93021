/* spawn.h: run a program in a child process of its own (its own process group under a small
 * supervisor that ends every process it starts when it exits, times out, is interrupted or
 * its parent dies; an environment built before fork; only fds 0-2), with a time limit and its
 * output captured: the one process spawner of roofline-run's command, the sweep's
 * configurations and gnuplot */
#ifndef RT_SPAWN_H
#define RT_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include "base/err.h"

/* The most standard output a child may print: past it the rest is read and dropped, and the
 * child is not ok. */
#define RT_SPAWN_MAX_OUTPUT (256 << 20)

/* The processes a child leaves running are named, up to this many. */
#define RT_SPAWN_STRAYS 8

/* How long processes a child left running have between SIGTERM and SIGKILL. */
#define RT_SPAWN_GRACE_S 1

/* A process a child left running when it exited. */
struct rt_stray {
	int pid;
	char comm[16];                  /* its name, as /proc/PID/stat says it */
};

/* What a child did. */
struct rt_child {
	bool ok;                        /* exited 0 within the time limit */
	char reason[256];               /* otherwise why: exit code and last stderr line, signal,
					 * timeout, "interrupted", "cannot run PROG: ..." */
	char *out;                      /* its standard output (caller frees) */
	size_t outlen;
	bool truncated;                 /* it printed more than RT_SPAWN_MAX_OUTPUT: not ok */
	double seconds;                 /* from its start until it exited or was ended */
	double started;                 /* its start on rt_now()'s clock (CLOCK_MONOTONIC) */
	/* Processes it started that were still running when it exited (any that left its
	 * process group included): ended (SIGTERM, then SIGKILL after RT_SPAWN_GRACE_S) before
	 * the call returned. nstrays counts them (ok is not changed by them), stray[] names the
	 * first RT_SPAWN_STRAYS, unended counts those even SIGKILL did not end in 10 s, and
	 * strays says it all in words for a warning after "the command " ("" when none):
	 * "left 1 process running when it exited, ended: sleep (pid 4242)". */
	unsigned nstrays, unended;
	struct rt_stray stray[RT_SPAWN_STRAYS];
	char strays[320];
};

/* Run argv[0] (a path; no PATH search) with argv in a new process: our environment plus env[]
 * ("NAME=VALUE"; "NAME=" unsets NAME), standard input from /dev/null (rt_spawn_run_io: or
 * the input given), no descriptor but 0, 1 and 2, in a process group of its own under a
 * supervisor process (a child subreaper, so every process it starts stays below it, setsid
 * or double fork alike). The run ends when the child exits: what is in its output pipes then
 * is read, and the processes it left are strays (c->strays). Every process of it is killed
 * (SIGKILL) after timeout seconds from the child's start (0: no limit; c->seconds of a child
 * timed out is at least timeout), when the interrupt flag is raised, or when
 * this process dies (SIGKILL included), whatever the child does with its descriptors.
 * Collects its standard output and the end of its standard error. Returns 0 when the child
 * could be started (c->ok says how it went), or a negative errno with err filled (pipe, fork,
 * memory). */
int rt_spawn_run(char *const argv[], char env[][64], size_t nenv, double timeout,
		 struct rt_child *c, struct rt_err *err);

/* A child's output as it comes, instead of collected: each line of its standard output (with
 * its newline; a line longer than RT_SPAWN_LINE_MAX comes in pieces of that size, the last
 * one without a newline), and its standard error in the pieces it writes (its last line is
 * still kept for c->reason). roofline-run passes a command's output through this way. */
#define RT_SPAWN_LINE_MAX (1 << 20)
struct rt_spawn_io {
	void (*out_line)(void *ctx, const char *line, size_t len);
	void (*err_data)(void *ctx, const char *buf, size_t len);
	void *ctx;
	/* the child's standard input instead of /dev/null (NULL: /dev/null): input_len bytes
	 * held in memory (a memfd: a regular file that /dev/stdin opens from its start), whole
	 * before the child starts */
	const char *input;
	size_t input_len;
};
/* rt_spawn_run with io (NULL: collected, as rt_spawn_run); with io->out_line, c->out stays
 * empty. */
int rt_spawn_run_io(char *const argv[], char env[][64], size_t nenv, double timeout,
		    const struct rt_spawn_io *io, struct rt_child *c, struct rt_err *err);
/* rt_spawn_run_io with env[] as pointers, of any length (a LD_PRELOAD list, a path): at most
 * 64 of them through the [64] forms above. */
int rt_spawn_run_envp(char *const argv[], char *const env[], size_t nenv, double timeout,
		      const struct rt_spawn_io *io, struct rt_child *c, struct rt_err *err);

/* The full path of an executable named prog (a name with a '/' is taken as it is; otherwise
 * searched in $PATH as execvp searches it: a directory or a file without execute permission
 * of its name passed over) into buf; false when there is none. */
bool rt_spawn_which(const char *prog, char *buf, size_t size);

/* Set by a front end's SIGINT/SIGTERM/SIGHUP handler: a running child is killed (its reason:
 * "interrupted"). NULL: never interrupted. */
void rt_spawn_set_interrupt_flag(volatile int *flag);
/* Whether the flag is raised. */
bool rt_spawn_interrupted(void);

#endif
