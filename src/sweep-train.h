/* sweep-train.h: a training sweep: every configuration in a child roofline-train, its points
 * appended to points.csv as it finishes, then summary.txt and run.cfg */
#ifndef RT_SWEEP_TRAIN_H
#define RT_SWEEP_TRAIN_H

#include <stdbool.h>
#include <stdio.h>
#include "err.h"
#include "profile.h"
#include "sweep.h"

struct rt_sweep_train_opts {
	const char *self;               /* the roofline-train executable the children run */
	const char *model;              /* as the user gave it */
	const char *data, *counters;
	const char *maxpool;            /* --maxpool-impl for the children (NULL: theirs) */
	const char *lr;                 /* --lr as the user gave it (NULL: the default) */
	long iterations, warmup, repeat, seed;
	double timeout;                 /* seconds per configuration; 0: none */
	bool per_layer;
	const char *outdir;
	const struct rt_profile *prof;  /* ceilings for the summary (may be NULL) */
	const char *profile_path;
	const char *cmdline;
	void (*progress)(void *ctx, size_t i, size_t n, const char *config, const char *result);
	void *progress_ctx;
	/* Instead of a child process: run a configuration here (under MPI, where every rank
	 * runs it) and fill c as the child runner does (ok, reason, the rt-point output).
	 * NULL: a child roofline-train per configuration. */
	int (*run)(void *ctx, const struct rt_sweep_config *config, struct rt_child *c,
		   struct rt_err *err);
	void *run_ctx;
	unsigned ranks;                 /* recorded in run.cfg (0: 1) */
};

/* Run the sweep's configurations that points.csv in outdir does not hold yet (so an
 * interrupted sweep resumes), appending and flushing each one's points; a configuration that
 * fails, crashes or passes the timeout becomes a failed point with its reason. Then writes
 * summary.txt (also to stdout when `also` is set) and run.cfg. */
int rt_sweep_train(const struct rt_sweep *s, const struct rt_sweep_train_opts *o, FILE *also,
		   struct rt_err *err);

/* The machine profile a results directory's run.cfg names, into path. */
int rt_results_profile(const char *dir, char *path, size_t size, struct rt_err *err);

/* The child side: "rt-point" and "rt-memory" lines on stdout, parsed back by the parent. */
void rt_sweep_emit_point(FILE *fp, const char *scope, const char *name, const char *stat,
			 double seconds, double flops, double bytes, const char *source);
void rt_sweep_emit_memory(FILE *fp, double weights, double activations, double gradients,
			  double optimizer, double workspace, double peak_rss);

#endif
