/* events.c: the FLOP event tables per microarchitecture, their grouping, the arithmetic from
 * complete readings, and the check against a known kernel */
#include "config.h"
#include "counters/events.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Intel FP_ARITH_INST_RETIRED (event 0xc7), Skylake-SP onwards: "each count represents N
 * computation operations, one for each element" (an FMA instruction counts twice), per
 * tools/perf/pmu-events/arch/x86/{skylakex,icelakex,sapphirerapids,emeraldrapids,
 * graniterapids}/floating-point.json; libpfm4 names them FP_ARITH_INST_RETIRED:<UMASK>. */
#define FP_ARITH(pfm_ok)                                                                      \
	{ "FP_ARITH_INST_RETIRED.SCALAR_DOUBLE",                                               \
	  (pfm_ok) ? "FP_ARITH_INST_RETIRED:SCALAR_DOUBLE" : NULL, 0x01c7, 1, "fp64", false }, \
	{ "FP_ARITH_INST_RETIRED.128B_PACKED_DOUBLE",                                          \
	  (pfm_ok) ? "FP_ARITH_INST_RETIRED:128B_PACKED_DOUBLE" : NULL, 0x04c7, 2, "fp64",     \
	  false },                                                                             \
	{ "FP_ARITH_INST_RETIRED.256B_PACKED_DOUBLE",                                          \
	  (pfm_ok) ? "FP_ARITH_INST_RETIRED:256B_PACKED_DOUBLE" : NULL, 0x10c7, 4, "fp64",     \
	  false },                                                                             \
	{ "FP_ARITH_INST_RETIRED.512B_PACKED_DOUBLE",                                          \
	  (pfm_ok) ? "FP_ARITH_INST_RETIRED:512B_PACKED_DOUBLE" : NULL, 0x40c7, 8, "fp64",     \
	  false },                                                                             \
	{ "FP_ARITH_INST_RETIRED.SCALAR_SINGLE",                                               \
	  (pfm_ok) ? "FP_ARITH_INST_RETIRED:SCALAR_SINGLE" : NULL, 0x02c7, 1, "fp32", false }, \
	{ "FP_ARITH_INST_RETIRED.128B_PACKED_SINGLE",                                          \
	  (pfm_ok) ? "FP_ARITH_INST_RETIRED:128B_PACKED_SINGLE" : NULL, 0x08c7, 4, "fp32",     \
	  false },                                                                             \
	{ "FP_ARITH_INST_RETIRED.256B_PACKED_SINGLE",                                          \
	  (pfm_ok) ? "FP_ARITH_INST_RETIRED:256B_PACKED_SINGLE" : NULL, 0x20c7, 8, "fp32",     \
	  false },                                                                             \
	{ "FP_ARITH_INST_RETIRED.512B_PACKED_SINGLE",                                          \
	  (pfm_ok) ? "FP_ARITH_INST_RETIRED:512B_PACKED_SINGLE" : NULL, 0x80c7, 16, "fp32",    \
	  false }

/* Sapphire Rapids onwards (AVX512-FP16, AMX): FP_ARITH_INST_RETIRED2 (event 0xcf, umasks
 * 0x01 to 0x10, the same json files) weighted as the kernel's metric tma_info_core_flopc
 * weighs them (scalar 1, complex scalar 2, 128-bit 8, 256-bit 16, 512-bit 32 halves), and
 * AMX_OPS_RETIRED.BF16 (event 0xce, umask 0x02: TDPBF16PS, "SW to use operation multiplier
 * of 4", sapphirerapids/pipeline.json). Intel's perfmon 1.02 took AMX_OPS_RETIRED out of the
 * Sapphire and Emerald Rapids lists: the encoding is kept, and like every event here it is
 * used only once it read a known kernel right. Debian 12's libpfm4 4.13 names none of them. */
#define FP_ARITH2_AMX                                                                          \
	{ "FP_ARITH_INST_RETIRED2.SCALAR_HALF", NULL, 0x01cf, 1, "fp16", false },              \
	{ "FP_ARITH_INST_RETIRED2.COMPLEX_SCALAR_HALF", NULL, 0x02cf, 2, "fp16", false },      \
	{ "FP_ARITH_INST_RETIRED2.128B_PACKED_HALF", NULL, 0x04cf, 8, "fp16", false },         \
	{ "FP_ARITH_INST_RETIRED2.256B_PACKED_HALF", NULL, 0x08cf, 16, "fp16", false },        \
	{ "FP_ARITH_INST_RETIRED2.512B_PACKED_HALF", NULL, 0x10cf, 32, "fp16", false },        \
	{ "AMX_OPS_RETIRED.BF16", NULL, 0x02ce, 4, "bf16", false }

static const struct rt_hw_event skx_icx[] = { FP_ARITH(1) };
static const struct rt_hw_event spr[] = { FP_ARITH(1), FP_ARITH2_AMX };
static const struct rt_hw_event emr_gnr[] = { FP_ARITH(0), FP_ARITH2_AMX };

/* AMD fp_ret_sse_avx_ops.all (PMCx003), FLOPs of every precision already (a MAC counts 2),
 * "can count above 15" per cycle: a merged counter pair. Umask 0xff on Zen 2 and Zen 3
 * (amdzen2, amdzen3/floating-point.json), 0x1f on Zen 4 (bfloat_mac_flops, 0x10, added:
 * amdzen4), 0x0f on Zen 5 (amdzen5: add_sub 0x01, mult 0x02, div 0x04, mac 0x08; its type
 * selectors 0x20 bf16 to 0xa0 packed double split what it counts). libpfm4 4.13 names it
 * RETIRED_SSE_AVX_FLOPS:ANY on Zen 2 and Zen 3 only (Zen 4 as model 0x11 alone, Zen 5 not). */
static const struct rt_hw_event zen23[] = {
	{ "fp_ret_sse_avx_ops.all", "RETIRED_SSE_AVX_FLOPS:ANY", 0xff03, 1, "any", true },
};
static const struct rt_hw_event zen4[] = {
	{ "fp_ret_sse_avx_ops.all", NULL, 0x1f03, 1, "any", true },
};
static const struct rt_hw_event zen5[] = {
	{ "fp_ret_sse_avx_ops.all", NULL, 0x0f03, 1, "any", true },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct rt_uarch uarchs[] = {
	{ RT_UARCH_SKX, "Intel Skylake-SP / Cascade Lake", "GenuineIntel",
	  "tools/perf/pmu-events/arch/x86/skylakex", 4, 8, skx_icx, N(skx_icx), "uncore_imc_",
	  "no fp16, bf16 or int8 FLOP events" },
	{ RT_UARCH_ICX, "Intel Ice Lake-SP", "GenuineIntel", "tools/perf/pmu-events/arch/x86/icelakex",
	  8, 8, skx_icx, N(skx_icx), "uncore_imc_", "no fp16, bf16 or int8 FLOP events" },
	{ RT_UARCH_SPR, "Intel Sapphire Rapids", "GenuineIntel",
	  "tools/perf/pmu-events/arch/x86/sapphirerapids", 8, 8, spr, N(spr), "uncore_imc_",
	  "AMX int8 (AMX_OPS_RETIRED.INT8) has no documented operations per count: not counted" },
	{ RT_UARCH_EMR, "Intel Emerald Rapids", "GenuineIntel",
	  "tools/perf/pmu-events/arch/x86/emeraldrapids", 8, 8, emr_gnr, N(emr_gnr), "uncore_imc_",
	  "AMX int8 not counted" },
	{ RT_UARCH_GNR, "Intel Granite Rapids", "GenuineIntel",
	  "tools/perf/pmu-events/arch/x86/graniterapids", 8, 8, emr_gnr, N(emr_gnr), "uncore_imc_",
	  "AMX int8 not counted" },
	{ RT_UARCH_ZEN2, "AMD Zen 2", "AuthenticAMD", "tools/perf/pmu-events/arch/x86/amdzen2", 6, 6,
	  zen23, N(zen23), "amd_df", "no split by precision; int8 (VNNI) is not a FLOP event" },
	{ RT_UARCH_ZEN3, "AMD Zen 3", "AuthenticAMD", "tools/perf/pmu-events/arch/x86/amdzen3", 6, 6,
	  zen23, N(zen23), "amd_df", "no split by precision; int8 (VNNI) is not a FLOP event" },
	{ RT_UARCH_ZEN4, "AMD Zen 4", "AuthenticAMD", "tools/perf/pmu-events/arch/x86/amdzen4", 6, 6,
	  zen4, N(zen4), "amd_umc_", "bf16 MACs within the count; int8 (VNNI) is not a FLOP event" },
	{ RT_UARCH_ZEN5, "AMD Zen 5", "AuthenticAMD", "tools/perf/pmu-events/arch/x86/amdzen5", 6, 6,
	  zen5, N(zen5), "amd_umc_", "one count of every precision; int8 (VNNI) is not a FLOP event" },
};

const struct rt_uarch *rt_uarch_get(enum rt_uarch_id id)
{
	for (size_t i = 0; i < N(uarchs); i++)
		if (uarchs[i].id == id)
			return &uarchs[i];
	return NULL;
}

const struct rt_uarch *rt_uarch_find(const char *vendor, int family, int model)
{
	enum rt_uarch_id id = RT_UARCH_UNKNOWN;

	if (!vendor)
		return NULL;
	if (!strcmp(vendor, "GenuineIntel") && family == 6) {
		/* the server parts, by CPUID model (the kernel's mapfile.csv) */
		switch (model) {
		case 0x55: id = RT_UARCH_SKX; break;
		case 0x6a: case 0x6c: id = RT_UARCH_ICX; break;
		case 0x8f: id = RT_UARCH_SPR; break;
		case 0xcf: id = RT_UARCH_EMR; break;
		case 0xad: case 0xae: id = RT_UARCH_GNR; break;
		default: break;
		}
	} else if (!strcmp(vendor, "AuthenticAMD")) {
		if (family == 0x17 && model >= 0x30)
			id = RT_UARCH_ZEN2;
		else if (family == 0x19 && ((model >= 0x00 && model <= 0x0f) ||
					    (model >= 0x20 && model <= 0x5f)))
			id = RT_UARCH_ZEN3;
		else if (family == 0x19 && ((model >= 0x10 && model <= 0x1f) ||
					    (model >= 0x60 && model <= 0xaf)))
			id = RT_UARCH_ZEN4;
		else if (family == 0x1a)
			id = RT_UARCH_ZEN5;
	}
	return rt_uarch_get(id);
}

void rt_events_names(const struct rt_uarch *u, char *buf, size_t size)
{
	buf[0] = '\0';
	for (size_t i = 0; i < u->nflops; i++)
		snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", i ? "+" : "",
			 u->flops[i].name);
	if (strlen(buf) >= size - 1)
		snprintf(buf, size, "%s's %zu FLOP events", u->name, u->nflops);
}

size_t rt_events_group(const struct rt_uarch *u, unsigned counters, struct rt_event_group *g,
		       size_t cap)
{
	size_t ng = 0;

	for (size_t i = 0; i < u->nflops; i++) {
		const unsigned need = u->flops[i].pair ? 2 : 1;

		if (need > counters)
			return 0;
		if (!ng || g[ng - 1].used + need > counters || g[ng - 1].n == RT_EVENTS_MAX) {
			if (ng == cap)
				return 0;
			memset(&g[ng], 0, sizeof(g[ng]));
			ng++;
		}
		g[ng - 1].idx[g[ng - 1].n++] = i;
		g[ng - 1].used += need;
	}
	return ng;
}

int rt_events_flops(const struct rt_uarch *u, const struct rt_event_reading *r, size_t n,
		    struct rt_flop_count *out)
{
	memset(out, 0, sizeof(*out));
	out->scale = 1;
	out->source = RT_SOURCE_HW;
	for (size_t k = 0; k < u->nflops; k++) {
		const struct rt_event_reading *got = NULL;
		double v, scale = 1;

		for (size_t i = 0; i < n && !got; i++)
			if (r[i].idx == k)
				got = &r[i];
		if (!got || got->value < 0 || !(got->enabled > 0) || !(got->running > 0)) {
			snprintf(out->why, sizeof(out->why), "%s was not counted: a partial set is "
				 "never a FLOP count", u->flops[k].name);
			out->source = RT_SOURCE_NONE;
			out->flops = 0;
			memset(out->by_prec, 0, sizeof(out->by_prec));
			return -ENOENT;
		}
		if (got->running < got->enabled) {
			/* multiplexed: scaled, and said */
			scale = got->enabled / got->running;
			out->source = RT_SOURCE_HW_ESTIMATE;
			if (scale > out->scale)
				out->scale = scale;
		}
		v = (double)got->value * scale * u->flops[k].weight;
		out->flops += v;
		if (rt_precision_of(u->flops[k].precision) < RT_PRECISION_COUNT)
			out->by_prec[rt_precision_of(u->flops[k].precision)] += v;
	}
	if (out->source == RT_SOURCE_HW_ESTIMATE)
		snprintf(out->why, sizeof(out->why), "multiplexed: counts scaled up to %.2fx",
			 out->scale);
	return 0;
}

void rt_events_validate(const char *events, const char *kernel, double counted, double known,
			struct rt_validation *v)
{
	v->ratio = known > 0 ? counted / known : NAN;
	snprintf(v->kernel, sizeof(v->kernel), "%s", kernel);
	v->trusted = isfinite(v->ratio) && fabs(v->ratio - 1) <= RT_EVENTS_TOLERANCE;
	if (v->trusted)
		snprintf(v->verdict, sizeof(v->verdict), "%s read %.3fx of a known kernel (%s): "
			 "trusted", events, v->ratio, kernel);
	else if (isfinite(v->ratio))
		snprintf(v->verdict, sizeof(v->verdict), "%s read %.2fx of a known kernel (%s): not "
			 "used", events, v->ratio, kernel);
	else
		snprintf(v->verdict, sizeof(v->verdict), "%s: no known kernel count to check it "
			 "against (%s): not used", events, kernel);
}

enum rt_precision rt_events_check_prec(const struct rt_validation *v)
{
	char word[16];

	snprintf(word, sizeof(word), "%.*s", (int)strcspn(v->kernel, " "), v->kernel);
	return v->kernel[strlen(word)] == ' ' ? rt_precision_of(word) : RT_PRECISION_COUNT;
}

bool rt_events_trusted_for(const struct rt_validation *v, size_t n, const char *precision,
			   char *why, size_t size)
{
	const enum rt_precision want = rt_precision_of(precision);
	size_t seen = 0;

	for (size_t i = 0; i < n; i++) {
		if (want == RT_PRECISION_COUNT || rt_events_check_prec(&v[i]) != want)
			continue;
		seen++;
		if (!v[i].trusted) {
			if (why && v[i].verdict[0])
				snprintf(why, size, "%s", v[i].verdict);
			else if (why)
				snprintf(why, size, "the events read %.2fx of a known kernel "
					 "(%s): not used", v[i].ratio, v[i].kernel);
			return false;
		}
	}
	if (!seen && why)
		snprintf(why, size, "no %s kernel of the probe runs on this CPU to check the "
			 "events on: not used for %s work", precision, precision);
	return seen > 0;
}

bool rt_events_trusted_all(const struct rt_validation *v, size_t n, const char *const *work,
			   char *why, size_t size)
{
	char w[300];

	for (size_t i = 0; work && work[i]; i++)
		if (!rt_events_trusted_for(v, n, work[i], w, sizeof(w))) {
			if (why)
				snprintf(why, size, "not trusted for %s work: %s", work[i], w);
			return false;
		}
	return true;
}

bool rt_events_trusted_any(const struct rt_validation *v, size_t n)
{
	for (int p = 0; p < RT_PRECISION_COUNT; p++)
		if (rt_events_trusted_for(v, n, rt_vocab_precisions[p], NULL, 0))
			return true;
	return false;
}

const char *const *rt_events_train_work(enum rt_precision p)
{
	static const char *const fp32[] = { "fp32", NULL };
	static const char *const bf16[] = { "fp32", "bf16", NULL };

	return p == RT_PRECISION_BF16 ? bf16 : fp32;
}
