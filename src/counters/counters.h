/* counters.h: one counter interface, two backends read through PAPI: hardware events (FLOPs
 * from the FP retirement events, bytes from uncore memory controllers or LLC misses) and the
 * trainer's exact analytic counts published as PAPI software-defined events (libsde) */
#ifndef RT_COUNTERS_H
#define RT_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include "base/err.h"
#include "base/meter.h"

/* ---- pure arithmetic: raw event counts to FLOPs and bytes (tested without counters) ---- */
struct rt_event_value {
	const char *name;               /* PAPI/libpfm name, "FP_ARITH_INST_RETIRED:SCALAR_DOUBLE" */
	long long value;
};

/* The hardware FLOP events rooftraj knows (Intel FP_ARITH_INST_RETIRED.*, AMD
 * RETIRED_SSE_AVX_FLOPS), the i-th, or NULL past the last: the one list the PAPI backend adds
 * and rt_counters_flops weighs. */
const char *rt_counters_flop_event(size_t i);

/* The FLOP events of a CPU vendor ("GenuineIntel", "AuthenticAMD"): their names into
 * names[] (at most cap); 0 for a vendor rooftraj has no table for. Every one of them must be
 * counted for a hardware FLOP count: a set that does not fit or whose events do not all exist
 * is no count at all, never a partial sum. */
size_t rt_counters_flop_set(const char *vendor, const char **names, size_t cap);
/* rt_counters_flops over the vendor's whole set: -ENOENT unless every event of it is in ev[]. */
int rt_counters_flops_complete(const char *vendor, const struct rt_event_value *ev, size_t n,
			       double *flops);
/* FLOPs from floating-point retirement events: Intel FP_ARITH_INST_RETIRED.* weighted by
 * lanes (an FMA already counts twice), or AMD RETIRED_SSE_AVX_FLOPS. -ENOENT if none of them
 * is among ev[]. */
int rt_counters_flops(const struct rt_event_value *ev, size_t n, double *flops);
/* Bytes from memory-controller CAS counts (hw), else last-level-cache misses (hw-estimate),
 * each x line bytes. -ENOENT if neither is among ev[]. */
int rt_counters_bytes(const struct rt_event_value *ev, size_t n, unsigned line, double *bytes,
		      enum rt_source *src);

/* ---- backends, a const table each (as PAPI's papi_vector_t) ---- */
struct rt_counter_backend {
	const char *name;               /* "hw" or "model" */
	/* -ENOTSUP with PAPI's own reason when the events do not exist here */
	int (*open)(void **ctx, struct rt_err *err);
	struct rt_meter meter;          /* start, iteration (model only), stop: for the trainer */
	void (*close)(void *ctx);
};

extern const struct rt_counter_backend rt_counters_hw, rt_counters_model;

/* Choose by name: "auto" (hw when it opens, else model, with why in err->msg), "hw", "model".
 * On success *backend and *ctx are set. */
int rt_counters_open(const char *which, const struct rt_counter_backend **backend, void **ctx,
		     struct rt_err *why, struct rt_err *err);

#endif
