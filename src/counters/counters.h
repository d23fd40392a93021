/* counters.h: one counter interface, two backends: hardware FLOP events (the node's table
 * from events.h through perf_event, validated on the probe's kernels, a group of events per
 * run) and the trainer's exact analytic counts published as PAPI software-defined events
 * (libsde) and read back through PAPI */
#ifndef RT_COUNTERS_H
#define RT_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include "base/err.h"
#include "base/meter.h"
#include "base/vocab.h"

/* ---- backends, a const table each (as PAPI's papi_vector_t) ---- */
struct rt_counter_backend {
	const char *name;               /* "hw" or "model" */
	/* for a run of precision p (fp32 work, or bf16 with fp32 around it); -ENOTSUP with the
	 * reason when the events cannot be counted here, or are not trusted for that work */
	int (*open)(void **ctx, enum rt_precision p, struct rt_err *err);
	struct rt_meter meter;          /* start, iteration (model only), stop: for the trainer */
	void (*close)(void *ctx);
};

extern const struct rt_counter_backend rt_counters_hw, rt_counters_model;

/* The hw backend's context on a given PMU reader and table (a replay in the tests) for a run
 * of precision p: what rt_counters_hw.open does after the node's table passed its self-check
 * for that work. */
struct rt_pmu;
struct rt_uarch;
int rt_counters_pmu_open(void **ctx, const struct rt_pmu *pmu, const struct rt_uarch *u,
			 unsigned counters, enum rt_precision p, struct rt_err *err);
/* The runs the hw backend needs for one whole FLOP count (its groups of events). */
size_t rt_counters_hw_groups(const void *ctx);

/* Choose by name for a run of precision p: "auto" (hw when it opens, else model, with why in
 * why->msg), "hw", "model". On success *backend and *ctx are set. */
int rt_counters_open(const char *which, enum rt_precision p,
		     const struct rt_counter_backend **backend, void **ctx, struct rt_err *why,
		     struct rt_err *err);

#endif
