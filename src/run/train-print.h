/* train-print.h: what a training run reports as text: a model's layers for a batch
 * (--describe) and the report of one run (images/s, phases, loss, counts, memory, layers) */
#ifndef RT_TRAIN_PRINT_H
#define RT_TRAIN_PRINT_H

#include <stdbool.h>
#include <stdio.h>
#include "base/err.h"
#include "cnn/model.h"
#include "cnn/net.h"
#include "cnn/train.h"

/* Each layer (shapes, parameters, FLOPs per image, the bytes it keeps and allocates, where
 * its work runs), the totals and the memory split of a net built for the batch. */
int rt_train_print_describe(FILE *out, const struct rt_model *m, const struct rt_net_opts *no,
		      struct rt_err *err);

struct rt_train_print_opts {
	const char *prog;               /* the first word of the first line */
	int threads;
	long iterations, warmup;
	int ranks, nodes;               /* under mpirun (ranks 0 or 1: one process) */
	enum rt_pool_impl pool;         /* --maxpool-impl as asked */
	bool counted;                   /* counters were open: their counts are reported */
	bool hw;                        /* ... the hardware's (perf_event), not the model's (PAPI) */
	const struct rt_err *why;       /* why the hardware's were not used (may be NULL) */
	bool per_layer;
};

/* The report of one run. */
void rt_train_print_run(FILE *out, const struct rt_model *m, const struct rt_net_opts *no,
		     const struct rt_train_result *res, const struct rt_train_print_opts *o);

#endif
