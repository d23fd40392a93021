/* sweep.h: sweep grids (threads, batch, affinity) and running each configuration in a fresh
 * child process with its own environment, a timeout, and its output captured */
#ifndef RT_SWEEP_H
#define RT_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include "err.h"
#include "model.h"
#include "topo.h"

enum rt_knob { RT_KNOB_THREADS, RT_KNOB_BATCH, RT_KNOB_AFFINITY, RT_KNOB_PRECISION,
	       RT_KNOB_COUNT };

#define RT_SWEEP_MAX_VALUES 64

struct rt_sweep_config {
	unsigned threads;
	long batch;
	enum rt_affinity affinity;
	enum rt_precision precision;
	unsigned ranks;                 /* MPI ranks training it together (0 or 1: one process) */
	bool is_default;                /* all cores, the runtime's placement, the model's batch,
					 * fp32 */
	char name[64];                  /* "t2-b64-none"; "t2-b64-none-bf16"; "t1-b64-none-r2" */
};

struct rt_sweep {
	struct {
		enum rt_knob knob;
		long values[RT_SWEEP_MAX_VALUES];
		size_t n;
	} knobs[RT_KNOB_COUNT];
	size_t nknobs;                  /* in the order given: the first varies slowest */
	struct rt_sweep_config *configs;
	size_t nconfigs;
};

/* Add a knob from "KNOB" (its default list) or "KNOB=LIST". Defaults: threads 1, powers of
 * two, all cores; batch the model's /4, /2, x1, x2; affinity none, compact, scatter;
 * precision fp32, bf16. Each knob once; values checked (threads 1..PUs, batch 1..65536). */
int rt_sweep_add(struct rt_sweep *s, const char *spec, const struct rt_topo *topo,
		 long model_batch, struct rt_err *err);
/* Expand the grid (knobs not swept keep the default's value); the default configuration
 * comes first, marked is_default, whether or not the grid holds it. */
int rt_sweep_expand(struct rt_sweep *s, unsigned default_threads, long model_batch,
		    struct rt_err *err);
void rt_sweep_fini(struct rt_sweep *s);
void rt_sweep_config_name(struct rt_sweep_config *c);

/* The environment a configuration's child gets: OMP_NUM_THREADS, and OMP_PLACES=cores with
 * OMP_PROC_BIND=close (compact) or spread (scatter); none leaves placement to the runtime
 * (both unset). Fills up to 3 "NAME=VALUE" strings (NAME= means unset). */
size_t rt_sweep_env(const struct rt_sweep_config *c, char env[3][64]);

/* What a child did. */
struct rt_child {
	bool ok;                        /* exited 0 within the time limit */
	char reason[256];               /* otherwise why: exit code and last stderr line, signal,
					 * timeout */
	char *out;                      /* its standard output (caller frees) */
	size_t outlen;
	double seconds;
};

/* Run argv[0] (a path) with argv in a new process whose environment is ours plus env[] (and
 * minus the "NAME=" entries), kill it after timeout seconds (0: no limit), and collect its
 * output. Returns 0 when the child could be run at all (see c->ok for how it went). */
int rt_sweep_run_child(char *const argv[], char env[][64], size_t nenv, double timeout,
		       struct rt_child *c, struct rt_err *err);

/* Set by the front end's SIGINT/SIGTERM handler: a running child is killed (its reason:
 * "interrupted") and the sweep stops after it. NULL: never interrupted. */
void rt_sweep_set_interrupt_flag(volatile int *flag);

#endif
