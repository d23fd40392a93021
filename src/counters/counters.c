/* counters.c: the arithmetic from raw events to FLOPs and bytes, and choosing a backend */
#include "config.h"
#include "counters/counters.h"

#include <errno.h>
#include <string.h>

/* FLOPs per counted instruction: lanes (FMAs are counted twice by the hardware itself) */
static const struct { const char *event; double weight; } flop_events[] = {
	{ "FP_ARITH_INST_RETIRED:SCALAR_DOUBLE", 1 },
	{ "FP_ARITH_INST_RETIRED:128B_PACKED_DOUBLE", 2 },
	{ "FP_ARITH_INST_RETIRED:256B_PACKED_DOUBLE", 4 },
	{ "FP_ARITH_INST_RETIRED:512B_PACKED_DOUBLE", 8 },
	{ "FP_ARITH_INST_RETIRED:SCALAR_SINGLE", 1 },
	{ "FP_ARITH_INST_RETIRED:128B_PACKED_SINGLE", 4 },
	{ "FP_ARITH_INST_RETIRED:256B_PACKED_SINGLE", 8 },
	{ "FP_ARITH_INST_RETIRED:512B_PACKED_SINGLE", 16 },
	{ "RETIRED_SSE_AVX_FLOPS:ANY", 1 },     /* AMD Zen: already FLOPs */
};

const char *rt_counters_flop_event(size_t i)
{
	return i < sizeof(flop_events) / sizeof(flop_events[0]) ? flop_events[i].event : NULL;
}

int rt_counters_flops(const struct rt_event_value *ev, size_t n, double *flops)
{
	double sum = 0;
	bool any = false;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < sizeof(flop_events) / sizeof(flop_events[0]); k++)
			if (!strcmp(ev[i].name, flop_events[k].event)) {
				sum += flop_events[k].weight * (double)ev[i].value;
				any = true;
			}
	if (!any)
		return -ENOENT;
	*flops = sum;
	return 0;
}

static bool is_cas(const char *name)
{
	/* uncore memory-controller column accesses, any channel: ...UNC_M_CAS_COUNT:RD/WR */
	return strstr(name, "CAS_COUNT") != NULL;
}

static bool is_llc_miss(const char *name)
{
	return !strcmp(name, "PAPI_L3_TCM") || !strcmp(name, "LLC_MISSES") ||
	       !strcmp(name, "perf::LLC-LOAD-MISSES") || !strcmp(name, "perf::LLC-STORE-MISSES");
}

int rt_counters_bytes(const struct rt_event_value *ev, size_t n, unsigned line, double *bytes,
		      enum rt_source *src)
{
	double cas = 0, llc = 0;
	bool have_cas = false, have_llc = false;

	for (size_t i = 0; i < n; i++) {
		if (is_cas(ev[i].name)) {
			cas += (double)ev[i].value;
			have_cas = true;
		} else if (is_llc_miss(ev[i].name)) {
			llc += (double)ev[i].value;
			have_llc = true;
		}
	}
	if (have_cas) {
		*bytes = cas * line;
		*src = RT_SOURCE_HW;
	} else if (have_llc) {
		*bytes = llc * line;
		*src = RT_SOURCE_HW_ESTIMATE;
	} else {
		return -ENOENT;
	}
	return 0;
}

int rt_counters_open(const char *which, const struct rt_counter_backend **backend, void **ctx,
		     struct rt_err *why, struct rt_err *err)
{
	int rc;

	rt_err_clear(why);
	if (!strcmp(which, "hw") || !strcmp(which, "model")) {
		*backend = !strcmp(which, "hw") ? &rt_counters_hw : &rt_counters_model;
		return (*backend)->open(ctx, err);
	}
	if (strcmp(which, "auto"))
		return rt_err_set(err, -EINVAL, "--counters: '%s' is not auto, hw or model", which);
	*backend = &rt_counters_hw;
	rc = rt_counters_hw.open(ctx, why);
	if (rc == 0)
		return 0;
	*backend = &rt_counters_model;
	return rt_counters_model.open(ctx, err);
}
