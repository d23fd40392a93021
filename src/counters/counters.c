/* counters.c: the arithmetic from raw events to FLOPs and bytes, and choosing a backend */
#include "config.h"
#include "counters/counters.h"

#include <errno.h>
#include <string.h>

/* FLOPs per counted instruction: lanes (FMAs are counted twice by the hardware itself).
 * Intel: FP_ARITH_INST_RETIRED (event 0xC7, umasks 0x01 to 0x80), Skylake-SP onwards, per the
 * kernel's tools/perf/pmu-events/arch/x86/skylakex/floating-point.json: "each count
 * represents N computation operations, one for each element" (N = 1, 2, 4, 8 for doubles; 1,
 * 4, 8, 16 for singles). AMD Zen: RETIRED_SSE_AVX_FLOPS (PMCx003) counts FLOPs already (a
 * MAC as 2), amdzen2 to amdzen5 floating-point.json; it needs the merged counter pair, which the kernel
 * sets up from 5.6 on. */
static const struct { const char *vendor, *event; double weight; } flop_events[] = {
	{ "GenuineIntel", "FP_ARITH_INST_RETIRED:SCALAR_DOUBLE", 1 },
	{ "GenuineIntel", "FP_ARITH_INST_RETIRED:128B_PACKED_DOUBLE", 2 },
	{ "GenuineIntel", "FP_ARITH_INST_RETIRED:256B_PACKED_DOUBLE", 4 },
	{ "GenuineIntel", "FP_ARITH_INST_RETIRED:512B_PACKED_DOUBLE", 8 },
	{ "GenuineIntel", "FP_ARITH_INST_RETIRED:SCALAR_SINGLE", 1 },
	{ "GenuineIntel", "FP_ARITH_INST_RETIRED:128B_PACKED_SINGLE", 4 },
	{ "GenuineIntel", "FP_ARITH_INST_RETIRED:256B_PACKED_SINGLE", 8 },
	{ "GenuineIntel", "FP_ARITH_INST_RETIRED:512B_PACKED_SINGLE", 16 },
	{ "AuthenticAMD", "RETIRED_SSE_AVX_FLOPS:ANY", 1 },
};

#define NFLOP (sizeof(flop_events) / sizeof(flop_events[0]))

const char *rt_counters_flop_event(size_t i)
{
	return i < NFLOP ? flop_events[i].event : NULL;
}

size_t rt_counters_flop_set(const char *vendor, const char **names, size_t cap)
{
	size_t n = 0;

	for (size_t k = 0; k < NFLOP; k++)
		if (vendor && !strcmp(flop_events[k].vendor, vendor) && n < cap)
			names[n++] = flop_events[k].event;
	return n;
}

int rt_counters_flops_complete(const char *vendor, const struct rt_event_value *ev, size_t n,
			       double *flops)
{
	const char *set[16];
	const size_t ns = rt_counters_flop_set(vendor, set, 16);

	if (!ns)
		return -ENOENT;
	for (size_t k = 0; k < ns; k++) {
		bool found = false;

		for (size_t i = 0; i < n && !found; i++)
			found = !strcmp(ev[i].name, set[k]);
		if (!found)
			return -ENOENT;         /* a partial set is never a count */
	}
	return rt_counters_flops(ev, n, flops);
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
