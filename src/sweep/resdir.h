/* resdir.h: the results directory of a run of either workload (the trainer's sweep, a user's
 * command): a new one of its own, created exclusively as results/NAME-TIMESTAMP.partial and
 * named when the run completes, or the one given (--out, --resume); one writer, from before
 * its first file to the end */
#ifndef RT_RESDIR_H
#define RT_RESDIR_H

#include <stdbool.h>
#include "base/err.h"
#include "base/util.h"

struct rt_resdir {
	char path[4096];        /* where the run writes: DIR.partial while a new one runs */
	bool rename;            /* path ends in .partial: it takes its name when complete */
	struct rt_dirlock lock;
};

struct rt_resdir_opts {
	const char *name;       /* neither given: results/NAME-TIMESTAMP (NAME's first 200 bytes) */
	const char *outdir;     /* --out: created when missing */
	const char *resume;     /* --resume: it must exist; a .partial one is named when complete */
	const char *what;       /* the lock's words for a writer refused (the command line) */
	/* whether a given directory may take this run, asked before it is created and again
	 * under the lock (NULL: any) */
	int (*fits)(void *ctx, const char *dir, struct rt_err *err);
	void *fits_ctx;
};

/* Whether a given directory holds no run's results: -EEXIST, said, where it holds a run.cfg
 * or a points.csv (of any kind) that this run did not write; 0 otherwise. A fits for
 * rt_resdir_opts (ctx unused). */
int rt_resdir_fresh(void *ctx, const char *dir, struct rt_err *err);

/* No directory yet, no lock: what rt_resdir_fini may be given before rt_resdir_open. */
void rt_resdir_init(struct rt_resdir *d);

/* Open the run's directory as o says and take its lock (d rt_resdir_init'd): a new one is
 * DIR.partial made with an exclusive mkdir, DIR-2, DIR-3, ... when another run took the name
 * in the same second or when a complete DIR exists. A refusal names the directory; the
 * caller rt_resdir_fini's d whatever this returns. */
int rt_resdir_open(struct rt_resdir *d, const struct rt_resdir_opts *o, struct rt_err *err);

/* The run is complete: a .partial directory takes its name without .partial (DIR-2, ... when
 * DIR exists: nothing is ever replaced), d->path the name it has now. Nothing to do for
 * another directory. */
int rt_resdir_complete(struct rt_resdir *d, struct rt_err *err);

/* The lock given back (the directory stays as it is). Idempotent. */
void rt_resdir_fini(struct rt_resdir *d);

#endif
