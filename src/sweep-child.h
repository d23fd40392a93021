/* sweep-child.h: one configuration of a sweep as its child measures it, and the line protocol
 * that hands the points back: the child's command line, its measurement written as rt-point,
 * rt-fused, rt-impl and rt-memory lines (text fields escaped: \\t, \\n, \\\\), and the
 * parent's parser of them */
#ifndef RT_SWEEP_CHILD_H
#define RT_SWEEP_CHILD_H

#include <stdbool.h>
#include <stdio.h>
#include "err.h"
#include "model.h"
#include "net.h"
#include "report.h"
#include "runrec.h"
#include "sweep.h"
#include "train.h"

struct rt_sweep_measure {
	const char *data, *counters;    /* counters: auto, hw, model, none */
	long iterations, warmup, repeat;
	bool per_layer;
	const struct rt_comm *comm;     /* under MPI: every rank trains it (NULL: one process) */
};

/* Train one configuration `repeat` times and write its points on out: the iteration (the
 * hardware's counts as well when they were counted), each phase and, with per_layer, each
 * layer where its primitives run it (rt_model_layer_work), each as median, min and max of
 * the runs. Under MPI the counts are the whole job's. 0, or -errno with err (the failed run's
 * message, or the counters'). */
int rt_sweep_child_measure(FILE *out, const struct rt_model *m, const struct rt_net_opts *no,
			   const struct rt_sweep_measure *o, struct rt_err *err);

/* The command line of the child for configuration c of request r, run from `self`: argv
 * (NULL-terminated, at most 40 entries) points into a and r. */
void rt_sweep_child_argv(const char *self, const struct rt_sweep_request *r,
			 const struct rt_sweep_config *c, char a[7][32], char *argv[40]);

/* Parse a child's output (modified in place) into *pts, grown as needed (caller frees). Lines
 * that are not the protocol's (a library's own output on stdout) are passed over; a protocol
 * line that does not parse is the configuration's failure, said in why. Returns the count, or
 * -1. */
int rt_sweep_child_parse(char *out, const struct rt_sweep_config *c, struct rt_point **pts,
			 size_t *cap, char *why, size_t whysize);

/* The identity columns of a configuration's point (config, threads, global batch, affinity,
 * precision, ranks); the rest zero. */
void rt_sweep_config_point(struct rt_point *p, const struct rt_sweep_config *c);

#endif
