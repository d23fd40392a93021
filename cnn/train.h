/* train.h: one training configuration: the iteration loop with its timed phases */
#ifndef RT_TRAIN_H
#define RT_TRAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/err.h"
#include "cnn/model.h"
#include "cnn/net.h"
#include "cnn/comm.h"
#include "base/meter.h"

enum rt_phase { RT_PHASE_DATA, RT_PHASE_FORWARD, RT_PHASE_LOSS, RT_PHASE_BACKWARD,
		RT_PHASE_COMM, RT_PHASE_UPDATE, RT_PHASE_COUNT };

/* "data", "forward", "loss", "backward", "comm", "update" */
const char *rt_phase_name(enum rt_phase p);

struct rt_train_opts {
	long iterations;                /* timed iterations */
	long warmup;                    /* untimed iterations first */
	const char *data;               /* "synthetic", "mnist:DIR", "cifar10:DIR" */
	void (*progress)(void *ctx, long iter, long total, double loss);
	void *progress_ctx;
	/* what measures the timed iterations (NULL: nothing; src/counters.h's backends); its
	 * iteration hook gets the analytic counts of each timed iteration */
	const struct rt_meter *meter;
	void *meter_ctx;
	const struct rt_comm *comm;     /* NULL: one process */
	bool digest;                    /* fill the result's digest of the final weights */
};

struct rt_train_result {
	long batch, iterations;
	double iter_seconds;            /* median of the timed iterations */
	double phase_seconds[RT_PHASE_COUNT];   /* medians per iteration */
	double total_seconds;           /* all timed iterations */
	double phase_total[RT_PHASE_COUNT];     /* all timed iterations, per phase: they add up */
	double images_per_s;            /* batch / median iteration time */
	double *losses, *accuracies;    /* every iteration, warm-up included (caller frees) */
	long nlosses;
	double *layer_fwd, *layer_bwd;  /* mean seconds per timed iteration */
	double primitive_share;         /* time inside oneDNN primitives / iteration time (means) */
	/* Whether the timed iterations got their cores: the OpenMP threads' CPU time (each
	 * thread's own clock, exact to the moment read) over threads x their wall time (OpenMP
	 * threads spin while they wait, so only time that another process took lowers it; the
	 * wall window holds the CPU one), and the time this process's threads spent runnable but not
	 * running (the kernel's schedstat run delay) over their CPU time plus it. threads: the
	 * OpenMP threads the iterations ran on. */
	double cpu_share, run_delay_share;
	unsigned threads;
	struct rt_counts counts;        /* over the timed iterations, when a meter was given */
	double counting_seconds;        /* spent in the counter calls themselves */
	size_t nlayers;
	struct rt_net_memory mem;
	long peak_rss_kib;
	char data_desc[128];
	char impl[64];                  /* oneDNN's implementation of the heaviest conv or fc */
	char maxpool[160];              /* each max pool and what runs it: "pool1 split, ..." */
	uint64_t digest;                /* of the final weights (rt_net_digest), when asked */
	double weights_sum, weights_norm;
};

/* Train the model with the net options for warmup + iterations steps and fill res (the caller
 * frees it with rt_train_result_fini). The options' rank and ranks are taken from o->comm
 * (0 of 1 without it). */
int rt_train_iterations(const struct rt_model *m, const struct rt_net_opts *no,
		 const struct rt_train_opts *o, struct rt_train_result *res, struct rt_err *err);
void rt_train_result_fini(struct rt_train_result *res);

/* A meter that reads part of its events a run (hardware events, a group a run) counts the
 * FLOPs of o's work whole only after several runs: up to `runs` more of the same work,
 * untimed and silent, until one says its FLOPs are whole (source hw or hw-estimate); c then
 * holds that run's FLOPs and source. Nothing is run when c is whole already, nor under MPI
 * (every rank would have to run them alike). */
int rt_train_count_whole(const struct rt_model *m, const struct rt_net_opts *no,
			 const struct rt_train_opts *o, size_t runs, struct rt_counts *c,
			 struct rt_err *err);

/* The process's peak resident set (VmHWM), KiB; 0 if unknown. */
long rt_peak_rss_kib(void);

#endif
