/* spawn.h: run a program in a child process of its own (its own process group, killed when its
 * parent dies, an environment built before fork), with a time limit and its output captured:
 * the one process spawner of the sweep's configurations and of gnuplot */
#ifndef RT_SPAWN_H
#define RT_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include "base/err.h"

/* The most standard output a child may print: past it the rest is read and dropped, and the
 * child is not ok. */
#define RT_SPAWN_MAX_OUTPUT (256 << 20)

/* What a child did. */
struct rt_child {
	bool ok;                        /* exited 0 within the time limit */
	char reason[256];               /* otherwise why: exit code and last stderr line, signal,
					 * timeout, "interrupted", "cannot run PROG: ..." */
	char *out;                      /* its standard output (caller frees) */
	size_t outlen;
	bool truncated;                 /* it printed more than RT_SPAWN_MAX_OUTPUT: not ok */
	double seconds;
};

/* Run argv[0] (a path; no PATH search) with argv in a new process: our environment plus env[]
 * ("NAME=VALUE"; "NAME=" unsets NAME), standard input from /dev/null, in a process group of
 * its own that is killed (SIGKILL) after timeout seconds (0: no limit), when the interrupt
 * flag is raised, or when this process dies. Collects its standard output and the end of its
 * standard error. Returns 0 when the child could be started (c->ok says how it went), or a
 * negative errno with err filled (pipe, fork, memory). */
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
};
/* rt_spawn_run with io (NULL: collected, as rt_spawn_run); with io, c->out stays empty. */
int rt_spawn_run_io(char *const argv[], char env[][64], size_t nenv, double timeout,
		    const struct rt_spawn_io *io, struct rt_child *c, struct rt_err *err);

/* The full path of an executable named prog (a name with a '/' is taken as it is; otherwise
 * searched in $PATH) into buf; false when there is none. */
bool rt_spawn_which(const char *prog, char *buf, size_t size);

/* Set by a front end's SIGINT/SIGTERM/SIGHUP handler: a running child is killed (its reason:
 * "interrupted"). NULL: never interrupted. */
void rt_spawn_set_interrupt_flag(volatile int *flag);
/* Whether the flag is raised. */
bool rt_spawn_interrupted(void);

#endif
