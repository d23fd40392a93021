/* sweep.h: sweep grids (threads, batch, affinity, precision) and the environment of each
 * configuration's child process */
#ifndef RT_SWEEP_H
#define RT_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include "err.h"
#include "model.h"
#include "spawn.h"
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
/* Knob k of the sweep as "KNOB=V1,V2,...", its values in order: the canonical form, which
 * rt_sweep_add reads back to the same knob (run.cfg records it for --resume). */
void rt_sweep_knob_spec(const struct rt_sweep *s, size_t k, char *buf, size_t size);
void rt_sweep_config_name(struct rt_sweep_config *c);

/* The environment a configuration's child gets: OMP_NUM_THREADS, and OMP_PLACES=cores with
 * OMP_PROC_BIND=close (compact) or spread (scatter); none leaves placement to the runtime
 * (both unset). Fills up to 3 "NAME=VALUE" strings (NAME= means unset). */
size_t rt_sweep_env(const struct rt_sweep_config *c, char env[3][64]);

#endif
