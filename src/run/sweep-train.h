/* sweep-train.h: a training sweep: every configuration in a child roofline-train, its points
 * appended to points.csv as it finishes, then summary.txt, the charts and run.cfg; the request
 * a results directory holds, so that a directory is never mixed up with another sweep */
#ifndef RT_SWEEP_TRAIN_H
#define RT_SWEEP_TRAIN_H

#include <stdbool.h>
#include <stdio.h>
#include "base/err.h"
#include "node/profile.h"
#include "sweep/runrec.h"
#include "base/spawn.h"
#include "sweep/sweep.h"

struct rt_sweep_measure_opts {
	const char *self;               /* the roofline-train executable the children run */
	const struct rt_runrec_request *req;
	bool retry;                     /* failed configurations of an earlier run run again */
	const char *outdir;
	bool resume;                    /* outdir must already hold this request */
	const struct rt_profile *prof;  /* ceilings for the summary and the charts (may be NULL) */
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
	const char *hw_counters;        /* the node's counter verdict, for run.cfg (NULL: none) */
	/* the MPI launcher for configurations of several ranks: its words (argv[0] a path),
	 * "-n R" and the child's command line follow (NULL: none may have several) */
	char *const *mpirun;
};

/* What roofline-train --sweep does (alone, or on rank 0): everything that can be wrong checked
 * before anything is measured (the data, opened once; the profile, or the place the quick
 * probe will write it; the results directory, sweep/resdir.h: with --resume it must hold
 * run.cfg of this request; --out may be new or hold the same request, more configurations
 * added to it; a directory of another request, or points.csv without run.cfg, is an error
 * naming what differs), run.cfg (status "running"), points.csv repaired (a last line cut
 * short, a configuration cut at a line boundary: measured again; with retry the failed
 * ones too), the quick probe when the default profile is missing, the sweep, and the
 * directory named when it completes. */
struct rt_sweep_execute_opts {
	const struct rt_model *m;
	const struct rt_topo *topo;
	bool profile_given;             /* --profile: it must exist */
	bool profile_recorded;          /* --resume without --profile: run.cfg's, judged on the
					 * copy the directory kept (rt_runrec_resume_profile) */
	const char *profile_path;       /* given, or this host's default (quick probe if missing) */
	const char *outdir, *resume;    /* neither: results/MODEL-TIMESTAMP(.partial while running) */
	void (*say)(void *ctx, const char *msg);        /* notes along the way (NULL: none) */
	void *say_ctx;
};
/* o: the train options (self, req, retry, cmdline, progress, run); outdir, resume and prof
 * are filled here. dir gets the results directory. */
int rt_sweep_execute(const struct rt_sweep *s, const struct rt_sweep_execute_opts *ro,
		 struct rt_sweep_measure_opts *o, FILE *also, char *dir, size_t size,
		 struct rt_err *err);

/* Run the sweep's configurations that points.csv in outdir does not hold yet, appending and
 * flushing each one's points; a configuration that fails, crashes or passes the timeout
 * becomes a failed point with its reason. Then writes summary.txt (also to `also` when set),
 * the charts and run.cfg (status "complete"). -EINTR (with the resume hint) when interrupted. */
int rt_sweep_measure(const struct rt_sweep *s, const struct rt_sweep_measure_opts *o, FILE *also,
		   struct rt_err *err);

#endif
