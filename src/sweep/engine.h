/* engine.h: the one loop every sweep runs, whatever its workload: each configuration not
 * measured before is measured by the workload in fresh processes, its points.csv rows appended
 * whole as it finishes (an interrupted sweep keeps what finished), its progress said along
 * the way; and the one loop of a configuration's repeats (rt_engine_repeat): a disturbed run
 * measured once more, the undisturbed one kept */
#ifndef RT_ENGINE_H
#define RT_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "base/err.h"
#include "results/points.h"

struct rt_profile;

/* What roofline-plot asks of a results directory's workload: its views drawn again. */
struct rt_redraw {
	const char *prog;               /* the tool, for its notes on stderr */
	const char *dir;                /* the results directory (its one writer holds it) */
	const struct rt_profile *prof;  /* the node's ceilings */
	bool all_roofs;                 /* every ceiling drawn, not only those the points use */
};

/* What roofline-plot asks of several results directories of one workload (or of one, with
 * --overlay): their points together on one chart, a series each. */
struct rt_overlay {
	const char *prog;               /* the tool, for its notes on stderr */
	char *const *dirs;
	size_t n;
	const char *const *labels;      /* each directory's series ("name", "name (2)") */
	const struct rt_profile *prof;  /* the node's ceilings */
	bool all_roofs;                 /* every ceiling drawn, not only those the points use */
	const char *outbase;            /* OUTBASE.gp, .png, .svg */
};

/* A workload: what runs for a configuration and how it reports. Adding one (a TensorFlow or
 * ONNX Runtime job, a benchmark) is its measure, its redraw, its overlay and an entry in
 * rt_workloads[]. */
struct rt_workload {
	const char *name;               /* "trainer", "command" */
	const char *program;            /* the tool whose run.cfg names it (run.program) */
	/* Measure configuration i (ctx: the sweep's own state): its rows in points.csv's
	 * columns onto rows (no header), whole; a line for the progress into result ("" :
	 * none). 0; -EINTR when interrupted (nothing of it is kept); -errno with err. */
	int (*measure)(void *ctx, size_t i, FILE *rows, char *result, size_t rsize,
		       struct rt_err *err);
	/* Its charts and report.html again from the directory's points.csv (and run.cfg),
	 * what was drawn said on stdout, report.html last: 0; -errno with err. */
	int (*redraw)(const struct rt_redraw *r, struct rt_err *err);
	/* The directories' points on one chart: 0; RT_PLOT_SCRIPT_ONLY (no gnuplot: the
	 * script alone, err says why); -errno with err. */
	int (*overlay)(const struct rt_overlay *o, struct rt_err *err);
};

/* The workloads (the trainer's, a user's command) and their table are run/'s
 * (run/workloads.h): nothing here knows one. */

struct rt_engine {
	const struct rt_workload *w;
	void *ctx;                      /* the workload's */
	const char *csv;                /* DIR/points.csv: its header written when it is new */
	size_t first, n;                /* configurations first..n-1 (first: 0, the whole
					 * sweep; one added to a finished sweep: the last) */
	const char *(*name)(void *ctx, size_t i);       /* configuration i's name */
	const bool *have;               /* measured before (a resumed run; NULL: none) */
	/* configuration i of n (counted from 1) is starting (result NULL), was measured before,
	 * or finished with result */
	void (*progress)(void *ctx, size_t i, size_t n, const char *config, const char *result);
	void *progress_ctx;
};

/* Run the sweep: every configuration not measured before, in order, its rows appended to csv
 * in one write as it finishes (a configuration's rows end with its iteration median: a crash
 * leaves whole lines); *measured counts those it measured. 0; -EINTR when interrupted (what
 * finished is in csv); -errno with err. */
int rt_engine_run(const struct rt_engine *e, size_t *measured, struct rt_err *err);

/* A configuration's repeats, each a fresh process of the workload's: n runs into slots (the
 * caller's array of n elements of size bytes, zeroed), a disturbed one (other processes took
 * its CPUs) measured once more where again says so, the undisturbed run kept. */
struct rt_engine_repeat {
	void *slots;
	size_t n, size;
	bool again;                     /* a disturbed run measured once more */
	bool stop_failed;               /* the first failed run ends the repeats */
	void *ctx;                      /* the workload's */
	/* Run k once into slot, its progress said (prev: run k, disturbed, measured again
	 * into a slot of its own; else NULL). A run that failed is its status; 0, or -errno
	 * with err when nothing can run (-EINTR: interrupted). */
	int (*run)(void *ctx, size_t k, void *slot, const void *prev, struct rt_err *err);
	/* A run's status: ok, disturbed or failed (rt_points_runs_kept asks it too). */
	enum rt_status (*status)(const void *slot);
	/* Run k's second measurement replaces the first where keep (it was undisturbed):
	 * whether it does (NULL: keep). */
	bool (*settle)(void *ctx, size_t k, bool keep);
	void (*drop)(void *slot);       /* what a slot holds freed (NULL: nothing) */
	/* Run k settled, slot the run kept (NULL: nothing to do). */
	void (*done)(void *ctx, size_t k, const void *slot);
};

/* Run r's repeats in order, until n ran, the first failed one under stop_failed, or an
 * interrupt (rt_spawn_interrupted); *done: how many ran (their slots filled, the caller's to
 * drop), *kept: the status of the runs that make the configuration's figures
 * (rt_points_runs_kept). 0; -errno with err. */
int rt_engine_repeat(const struct rt_engine_repeat *r, size_t *done, enum rt_status *kept,
		     struct rt_err *err);

#endif
