/* roofline-train: train one configuration of a CNN built from oneDNN primitives and report
 * images/s, time per phase, loss, accuracy, exact model counts and the memory split */
#include "config.h"
#include "base/cli.h"
#include "base/err.h"
#include "base/spawn.h"
#include "cluster/cluster.h"
#include "machine/topo.h"
#include "run/train-run.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *prog = "roofline-train";

struct progress {
	bool on, tty;
};

static void on_iteration(void *ctx, long iter, long total, double loss)
{
	const struct progress *ps = ctx;

	if (!ps->on)
		return;
	if (ps->tty)
		fprintf(stderr, "\r\033[K%s: iteration %ld of %ld, loss %.4f", prog, iter, total, loss);
	else if (iter == total || iter % 10 == 0)
		fprintf(stderr, "%s: iteration %ld of %ld, loss %.4f\n", prog, iter, total, loss);
	if (ps->tty && iter == total)
		fprintf(stderr, "\r\033[K");
}

static void on_config(void *ctx, size_t i, size_t n, const char *config, const char *result)
{
	const struct progress *ps = ctx;

	if (!ps->on)
		return;
	if (result)
		fprintf(stderr, "%s: configuration %zu of %zu, %s: %s\n", prog, i, n, config, result);
	else if (ps->tty)
		fprintf(stderr, "%s: configuration %zu of %zu, %s ...\n", prog, i, n, config);
}

/* Notes along the way, warnings of the ranks: on stderr. */
static void say(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "%s: %s\n", prog, msg);
}

static void mpi_warn(void *ctx, int rank, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "%s: rank %d: warning: %s (measured without that placement)\n", prog, rank,
		msg);
}

/* SIGINT, SIGTERM, SIGHUP: a sweep stops cleanly (the running child is killed) */
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* Parse the options into s: 0, -1 (--help, --version: printed), or 2 (usage: said). */
static int parse_args(struct rt_train_settings *s, int argc, char **argv,
		      const struct rt_topo *topo)
{
	struct rt_cli cli = rt_train_cli;
	struct rt_err err = { 0 };
	int first = 0, rc;

	cli.pus = (long)rt_topo_pus(topo);
	if (rt_cli_stop(&cli, argc, argv, rt_train_settings_set, s, &first, &rc))
		return rc ? rc : -1;
	if (first < argc) {
		rt_err_set(&err, -EINVAL, "unexpected argument '%s'", argv[first]);
		return rt_cli_usage_error(&cli, err.msg);
	}
	if (rt_train_settings_check(s, &err))
		return rt_cli_usage_error(&cli, err.msg);
	return 0;
}

int main(int argc, char **argv)
{
	struct rt_train_settings s;
	struct rt_topo *topo = NULL;
	struct rt_err err = { 0 };
	struct rt_cluster cl;
	struct progress sweep_ps = { .tty = isatty(STDERR_FILENO) },
			one_ps = { .tty = isatty(STDERR_FILENO) };
	const struct rt_train_ui sweep_ui = { .say = say, .config = on_config, .ctx = &sweep_ps },
				 one_ui = { .say = say, .iteration = on_iteration, .ctx = &one_ps };
	int rc = 1;

	rt_train_settings_default(&s);
	/* under mpirun: MPI, ranks and nodes; otherwise one process */
	if (rt_cluster_init(&cl, &argc, &argv, &err)) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return 1;
	}
	if (rt_topo_create(&topo, NULL, &err)) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		goto out;
	}
	rc = parse_args(&s, argc, argv, topo);
	if (rc) {
		rc = rc < 0 ? 0 : rc;   /* --help, --version */
		goto out;
	}
	sweep_ps.on = s.verbose || sweep_ps.tty;
	one_ps.on = (one_ps.tty || s.verbose) && cl.rank == 0;
	if (rt_train_settings_engine(&s)) {
		/* a sweep stops cleanly: the running child is killed, the finished ones kept */
		struct sigaction sa = { .sa_handler = on_interrupt };

		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
		rt_spawn_set_interrupt_flag((volatile int *)&interrupted);
	}
	{
		const struct rt_train_tool t = {
			.prog = prog, .s = &s, .describe = s.describe, .cl = &cl,
			.topo = topo, .argc = argc, .argv = argv, .sweep_ui = &sweep_ui,
			.one_ui = &one_ui, .warn = mpi_warn,
		};

		rc = rt_run_train_tool(&t);
	}
	if (rc && one_ps.on && one_ps.tty && !rt_train_settings_engine(&s))
		fputc('\n', stderr);
out:
	rt_topo_destroy(topo);
	rt_cluster_finalize(&cl);
	return rc;
}
