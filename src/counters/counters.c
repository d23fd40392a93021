/* counters.c: the arithmetic from raw events to FLOPs and bytes, and choosing a backend */
#include "config.h"
#include "counters/counters.h"
#include "counters/events.h"

#include <errno.h>
#include <string.h>

/* The FLOP events by libpfm4's names (the names PAPI takes), from the microarchitectures'
 * tables (events.h, with their sources): Intel FP_ARITH_INST_RETIRED.* from Skylake-SP's, AMD
 * RETIRED_SSE_AVX_FLOPS from Zen 2's (the events Debian's libpfm4 names on every CPU it
 * knows of the vendor). */
static const struct rt_hw_event *flop_event(size_t i, const char **vendor)
{
	static const enum rt_uarch_id from[] = { RT_UARCH_SKX, RT_UARCH_ZEN2 };

	for (size_t t = 0; t < sizeof(from) / sizeof(from[0]); t++) {
		const struct rt_uarch *u = rt_uarch_get(from[t]);

		if (i < u->nflops) {
			if (vendor)
				*vendor = u->vendor;
			return &u->flops[i];
		}
		i -= u->nflops;
	}
	return NULL;
}

const char *rt_counters_flop_event(size_t i)
{
	const struct rt_hw_event *e = flop_event(i, NULL);

	return e ? e->pfm : NULL;
}

size_t rt_counters_flop_set(const char *vendor, const char **names, size_t cap)
{
	const struct rt_hw_event *e;
	const char *v;
	size_t n = 0;

	for (size_t k = 0; (e = flop_event(k, &v)); k++)
		if (vendor && !strcmp(v, vendor) && n < cap)
			names[n++] = e->pfm;
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

	for (size_t i = 0; i < n; i++) {
		const struct rt_hw_event *e;

		for (size_t k = 0; (e = flop_event(k, NULL)); k++)
			if (!strcmp(ev[i].name, e->pfm)) {
				sum += e->weight * (double)ev[i].value;
				any = true;
			}
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
