/* t-events.c: the FLOP event tables per microarchitecture pinned to their sources (the
 * kernel's tools/perf/pmu-events/arch/x86 lists: event code, umask, FLOPs per count), the
 * grouping per PMU size (never more events at once than counters), the arithmetic (a partial
 * set is no count, a multiplexed one is scaled and labelled), and the self-check through a
 * replay PMU, per precision: a Zen 5 that reads the FMA chains and bf16 right and int8 as
 * nothing is trusted for the first and not the last, one that reads fp64 at half (likwid's
 * open report) keeps fp32, one that reads all at half is refused, with the ratios; a Sapphire
 * Rapids that does not count VDPBF16PS refuses bf16 work; the verdict sentence; a set counted
 * in two groups; the real perf_event PMU where the kernel has one, its absence said where it
 * has not. */
#include "config.h"
#include "counters/events.h"
#include "counters/pmu.h"
#include "tap.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct rt_hw_event *find(const struct rt_uarch *u, const char *name)
{
	for (size_t i = 0; i < u->nflops; i++)
		if (!strcmp(u->flops[i].name, name))
			return &u->flops[i];
	return NULL;
}

/* event code, umask and weight of one table entry against the source's figures */
static void pin(enum rt_uarch_id id, const char *name, unsigned code, unsigned umask,
		double weight, const char *prec)
{
	const struct rt_uarch *u = rt_uarch_get(id);
	const struct rt_hw_event *e = u ? find(u, name) : NULL;
	const unsigned long long want = !strcmp(u ? u->vendor : "", "AuthenticAMD") ?
		(code & 0xff) | (unsigned long long)umask << 8 |
		(unsigned long long)(code >> 8 & 0xf) << 32 :
		code | (unsigned long long)umask << 8;

	ok(e && e->raw == want && e->weight == weight && !strcmp(e->precision, prec),
	   "%s %s: event 0x%02x umask 0x%02x, %g FLOPs per count, %s (%s)", u ? u->name : "?",
	   name, code, umask, weight, prec, u ? u->source : "");
}

static double work_done;

static void work(void *arg)
{
	(void)arg;
	work_done++;
}

int main(void)
{
	struct rt_event_group g[RT_EVENTS_MAX];
	struct rt_flop_count c;
	struct rt_err err;
	size_t ng;

	/* CPUID to table (the kernel's mapfile.csv for Intel, AMD's family/model ranges) */
	{
		static const struct { const char *v; int f, m; enum rt_uarch_id id; } cases[] = {
			{ "GenuineIntel", 6, 0x55, RT_UARCH_SKX }, { "GenuineIntel", 6, 0x6a, RT_UARCH_ICX },
			{ "GenuineIntel", 6, 0x6c, RT_UARCH_ICX }, { "GenuineIntel", 6, 0x8f, RT_UARCH_SPR },
			{ "GenuineIntel", 6, 0xcf, RT_UARCH_EMR }, { "GenuineIntel", 6, 0xad, RT_UARCH_GNR },
			{ "AuthenticAMD", 0x17, 0x31, RT_UARCH_ZEN2 },
			{ "AuthenticAMD", 0x19, 0x01, RT_UARCH_ZEN3 },
			{ "AuthenticAMD", 0x19, 0x11, RT_UARCH_ZEN4 },
			{ "AuthenticAMD", 0x19, 0xa0, RT_UARCH_ZEN4 },
			{ "AuthenticAMD", 0x1a, 0x02, RT_UARCH_ZEN5 },
			{ "GenuineIntel", 6, 0x9e, RT_UARCH_UNKNOWN },  /* a client part */
			{ "AuthenticAMD", 0x17, 0x01, RT_UARCH_UNKNOWN },       /* Zen 1 */
			{ "HygonGenuine", 0x18, 0x00, RT_UARCH_UNKNOWN },
		};

		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			const struct rt_uarch *u = rt_uarch_find(cases[i].v, cases[i].f, cases[i].m);

			ok(cases[i].id == RT_UARCH_UNKNOWN ? !u : u && u->id == cases[i].id,
			   "%s family 0x%x model 0x%x: %s", cases[i].v, (unsigned)cases[i].f,
			   (unsigned)cases[i].m, u ? u->name : "no table");
		}
	}

	/* every encoding and weight pinned to the kernel's lists */
	{
		static const struct { const char *n; unsigned umask; double w; const char *p; } fp[] = {
			{ "FP_ARITH_INST_RETIRED.SCALAR_DOUBLE", 0x01, 1, "fp64" },
			{ "FP_ARITH_INST_RETIRED.SCALAR_SINGLE", 0x02, 1, "fp32" },
			{ "FP_ARITH_INST_RETIRED.128B_PACKED_DOUBLE", 0x04, 2, "fp64" },
			{ "FP_ARITH_INST_RETIRED.128B_PACKED_SINGLE", 0x08, 4, "fp32" },
			{ "FP_ARITH_INST_RETIRED.256B_PACKED_DOUBLE", 0x10, 4, "fp64" },
			{ "FP_ARITH_INST_RETIRED.256B_PACKED_SINGLE", 0x20, 8, "fp32" },
			{ "FP_ARITH_INST_RETIRED.512B_PACKED_DOUBLE", 0x40, 8, "fp64" },
			{ "FP_ARITH_INST_RETIRED.512B_PACKED_SINGLE", 0x80, 16, "fp32" },
		};
		static const enum rt_uarch_id intel[] = { RT_UARCH_SKX, RT_UARCH_ICX, RT_UARCH_SPR,
							  RT_UARCH_EMR, RT_UARCH_GNR };

		for (size_t t = 0; t < 5; t++)
			for (size_t i = 0; i < 8; i++)
				pin(intel[t], fp[i].n, 0xc7, fp[i].umask, fp[i].w, fp[i].p);
		for (size_t t = 2; t < 5; t++) {
			pin(intel[t], "FP_ARITH_INST_RETIRED2.SCALAR_HALF", 0xcf, 0x01, 1, "fp16");
			pin(intel[t], "FP_ARITH_INST_RETIRED2.COMPLEX_SCALAR_HALF", 0xcf, 0x02, 2, "fp16");
			pin(intel[t], "FP_ARITH_INST_RETIRED2.128B_PACKED_HALF", 0xcf, 0x04, 8, "fp16");
			pin(intel[t], "FP_ARITH_INST_RETIRED2.256B_PACKED_HALF", 0xcf, 0x08, 16, "fp16");
			pin(intel[t], "FP_ARITH_INST_RETIRED2.512B_PACKED_HALF", 0xcf, 0x10, 32, "fp16");
			pin(intel[t], "AMX_OPS_RETIRED.BF16", 0xce, 0x02, 4, "bf16");
		}
		is_int((long long)rt_uarch_get(RT_UARCH_SKX)->nflops, 8, "Skylake-SP: 8 FLOP events");
		is_int((long long)rt_uarch_get(RT_UARCH_SPR)->nflops, 14,
		       "Sapphire Rapids: 8 + 5 fp16 + AMX bf16 = 14 FLOP events");
		pin(RT_UARCH_ZEN2, "fp_ret_sse_avx_ops.all", 0x03, 0xff, 1, "any");
		pin(RT_UARCH_ZEN3, "fp_ret_sse_avx_ops.all", 0x03, 0xff, 1, "any");
		pin(RT_UARCH_ZEN4, "fp_ret_sse_avx_ops.all", 0x03, 0x1f, 1, "any");
		pin(RT_UARCH_ZEN5, "fp_ret_sse_avx_ops.all", 0x03, 0x0f, 1, "any");
		ok(rt_uarch_get(RT_UARCH_ZEN5)->flops[0].pair && rt_uarch_get(RT_UARCH_ZEN2)->flops[0].pair,
		   "AMD's FLOP event counts above 15 per cycle: a merged pair of counters");
		ok(!rt_uarch_get(RT_UARCH_ZEN5)->flops[0].pfm && !rt_uarch_get(RT_UARCH_GNR)->flops[0].pfm &&
		   rt_uarch_get(RT_UARCH_ZEN2)->flops[0].pfm,
		   "libpfm4 names: Zen 2 yes; Zen 5 and Granite Rapids raw encodings only");
		ok(!strcmp(rt_uarch_get(RT_UARCH_ZEN5)->dram_pmu, "amd_umc_") &&
		   !strcmp(rt_uarch_get(RT_UARCH_SPR)->dram_pmu, "uncore_imc_"),
		   "DRAM bytes: the UMC PMU on Zen 4/5, the IMC on Intel");
	}

	/* events that fit: never more at once than counters */
	{
		const struct rt_uarch *skx = rt_uarch_get(RT_UARCH_SKX), *spr = rt_uarch_get(RT_UARCH_SPR),
				      *zen5 = rt_uarch_get(RT_UARCH_ZEN5);
		bool fits = true;

		ng = rt_events_group(skx, 4, g, RT_EVENTS_MAX);
		for (size_t k = 0; k < ng; k++)
			fits &= g[k].used <= 4 && g[k].n <= 4;
		ok(ng == 2 && fits, "Skylake-SP, SMT on (4 counters): 8 events in 2 groups of 4 (got %zu)", ng);
		is_int((long long)rt_events_group(skx, 8, g, RT_EVENTS_MAX), 1, "... SMT off (8): one group");
		ng = rt_events_group(spr, 8, g, RT_EVENTS_MAX);
		ok(ng == 2 && g[0].n == 8 && g[1].n == 6, "Sapphire Rapids (8 counters): 14 events as 8 + 6");
		ng = rt_events_group(zen5, 6, g, RT_EVENTS_MAX);
		ok(ng == 1 && g[0].used == 2, "Zen 5 (6 counters): one group, the pair takes 2");
		is_int((long long)rt_events_group(zen5, 1, g, RT_EVENTS_MAX), 0,
		       "a pair event on one counter: no group at all");
	}

	/* the arithmetic: complete, partial, multiplexed */
	{
		const struct rt_uarch *spr = rt_uarch_get(RT_UARCH_SPR);
		struct rt_event_reading r[14];

		for (size_t i = 0; i < 14; i++)
			r[i] = (struct rt_event_reading){ i, 10, 1, 1 };
		is_int(rt_events_flops(spr, r, 14, &c), 0, "Sapphire Rapids: all 14 read");
		is_double(c.flops, 10 * (1 + 2 + 4 + 8 + 1 + 4 + 8 + 16 + 1 + 2 + 8 + 16 + 32 + 4), 0,
			  "FLOPs = sum of counts x weights");
		is_double(c.by_prec[RT_PRECISION_FP64], 10 * 15, 0, "... fp64 apart");
		is_double(c.by_prec[RT_PRECISION_FP16], 10 * 59, 0, "... fp16 apart");
		is_double(c.by_prec[RT_PRECISION_BF16], 40, 0, "... bf16 (AMX) apart");
		ok(c.source == RT_SOURCE_HW, "... source hw");
		is_int(rt_events_flops(spr, r, 13, &c), -ENOENT, "the AMX event missing: no count");
		like(c.why, "AMX_OPS_RETIRED.BF16 was not counted: a partial set is never a FLOP count",
		     "... named: %s", c.why);
		ok(c.flops == 0 && c.source == RT_SOURCE_NONE, "... nothing kept of the others");
		r[3].running = 0.25;
		is_int(rt_events_flops(spr, r, 14, &c), 0, "one event multiplexed");
		ok(c.source == RT_SOURCE_HW_ESTIMATE && c.scale == 4, "... hw-estimate, scaled 4x, said: %s",
		   c.why);
	}

	/* the self-check through a replay PMU */
	{
		const struct rt_uarch *zen5 = rt_uarch_get(RT_UARCH_ZEN5), *spr = rt_uarch_get(RT_UARCH_SPR),
				      *skx = rt_uarch_get(RT_UARCH_SKX);
		struct rt_pmu_checks ck;
		char why[300];
		/* a Zen 5 as its documents say: every FLOP once, int8 dot products (integer
		 * work) none */
		const struct rt_replay_event right[] = { { 0x0f03, 1.0, NULL }, { 0x0f03, 0, "int8" } };
		/* ... as likwid's open report has it: double-precision work read at half */
		const struct rt_replay_event dphalf[] = { { 0x0f03, 1.0, NULL }, { 0x0f03, 0.5, "fp64" },
							 { 0x0f03, 0, "int8" } };
		const struct rt_replay_event half[] = { { 0x0f03, 0.5, NULL } };
		struct rt_replay rp = { right, 2, 1, 0, 0 };
		struct rt_pmu pmu = RT_PMU_REPLAY(&rp);
		size_t nbf16 = 0, nint8 = 0, nfp16 = 0;

		is_int(rt_pmu_selfcheck(&pmu, zen5, 6, &ck, &err), 0, "Zen 5 replay: the probe's kernels counted");
		ok(ck.n >= 2 && !strncmp(ck.v[0].kernel, "fp64 ", 5) && !strncmp(ck.v[1].kernel, "fp32 ", 5),
		   "... the fp64 and fp32 FMA chains first (%s, %s), then %zu low-precision kernel%s",
		   ck.v[0].kernel, ck.v[1].kernel, ck.n - 2, ck.n == 3 ? "" : "s");
		for (size_t i = 2; i < ck.n; i++) {
			const enum rt_precision p = rt_events_check_prec(&ck.v[i]);

			printf("# %s\n", ck.v[i].verdict);
			nbf16 += p == RT_PRECISION_BF16;
			nint8 += p == RT_PRECISION_INT8;
			nfp16 += p == RT_PRECISION_FP16;
			ok(p >= RT_PRECISION_BF16 && p < RT_PRECISION_COUNT &&
			   fabs(ck.v[i].ratio - (p == RT_PRECISION_INT8 ? 0 : 1)) < 1e-6 &&
			   ck.v[i].trusted == (p != RT_PRECISION_INT8), "... %s: %.3fx, %s",
			   ck.v[i].kernel, ck.v[i].ratio,
			   ck.v[i].trusted ? "trusted" : "not");
		}
		ok(ck.v[0].trusted && ck.v[1].trusted && fabs(ck.v[0].ratio - 1) < 1e-6,
		   "... reading the FMA chains right: trusted (%s)", ck.v[0].verdict);
		ok(rt_events_trusted_for(ck.v, ck.n, "fp64", why, sizeof(why)) &&
		   rt_events_trusted_for(ck.v, ck.n, "fp32", why, sizeof(why)),
		   "... for fp64 and fp32 work");
		if (nbf16)
			ok(rt_events_trusted_for(ck.v, ck.n, "bf16", why, sizeof(why)),
			   "... and bf16 work (%zu bf16 kernel%s here)", nbf16, nbf16 == 1 ? "" : "s");
		else
			skip("no bf16 kernel runs on this CPU");
		if (nint8) {
			ok(!rt_events_trusted_for(ck.v, ck.n, "int8", why, sizeof(why)) &&
			   strstr(why, "read 0.00x of a known kernel (int8 ") && strstr(why, "not used"),
			   "... not for int8 work, the ratio said: %s", why);
		} else {
			skip("no int8 kernel runs on this CPU");
		}
		if (nbf16 + nint8 + 2 == ck.n)
			ok(!rt_events_trusted_for(ck.v, ck.n, "fp16", why, sizeof(why)) &&
			   strstr(why, "no fp16 kernel of the probe runs on this CPU"),
			   "no fp16 kernel here: fp16 work not trusted (%s)", why);
		else
			ok(rt_events_trusted_for(ck.v, ck.n, "fp16", why, sizeof(why)),
			   "an fp16 kernel here, read right: fp16 work trusted");
		ok(!rt_events_trusted_for(ck.v, 2, "bf16", why, sizeof(why)) &&
		   strstr(why, "no bf16 kernel of the probe runs on this CPU"),
		   "a precision without a kernel checked is not trusted: %s", why);

		{
			/* the verdict on it: validated for the work read right, the rest named */
			struct rt_pmu_record rec = { 0 };
			char buf[2048], note[256], want[160];

			rt_pmu_judge(zen5, &ck, buf, sizeof(buf), note, sizeof(note), &rec);
			printf("# %s\n# %s\n", buf, note);
			ok(rec.state == RT_PMU_VALIDATED && rec.nchecks == ck.n &&
			   !strcmp(rec.check[1].kernel, ck.v[1].kernel), "judged validated, every check kept");
			/* the precisions this CPU's kernels read right, as the verdict lists them */
			snprintf(want, sizeof(want), "AMD Zen 5 table validated for fp64%s%s%s work "
				 "(the probe's kernels read: fp64 ", nbf16 || nfp16 ? ", fp32" : " and fp32",
				 nbf16 ? (nfp16 ? ", bf16" : " and bf16") : "", nfp16 ? " and fp16" : "");
			like(buf, want, "... for the work it reads right (%zu bf16, %zu fp16 kernel%s)",
			     nbf16, nfp16, nbf16 + nfp16 == 1 ? "" : "s");
			if (nint8) {
				like(rec.why, "not trusted for int8 work: fp_ret_sse_avx_ops.all read 0.00x",
				     "... what it is not trusted for, in the record: %s", rec.why);
				like(buf, "from the model's exact counts", "... that work counted by the model");
				like(note, "(not for int8)", "... and the note says it: %s", note);
			} else {
				skip("no int8 kernel here");
				skip("no int8 kernel here");
				skip("no int8 kernel here");
			}
		}
		rp = (struct rt_replay){ dphalf, 3, 1, 0, 0 };
		is_int(rt_pmu_selfcheck(&pmu, zen5, 6, &ck, &err), 0, "a Zen 5 that reads fp64 at half");
		ok(!ck.v[0].trusted && fabs(ck.v[0].ratio - 0.5) < 1e-6 && ck.v[1].trusted,
		   "... fp64 refused, fp32 trusted");
		ok(!rt_events_trusted_for(ck.v, ck.n, "fp64", why, sizeof(why)) &&
		   strstr(why, "fp_ret_sse_avx_ops.all read 0.50x of a known kernel (fp64 ") &&
		   strstr(why, "not used") && rt_events_trusted_for(ck.v, ck.n, "fp32", NULL, 0),
		   "... not used for fp64 work, with its ratio (%s); fp32 work still counted", why);

		rp = (struct rt_replay){ half, 1, 1, 0, 0 };
		is_int(rt_pmu_selfcheck(&pmu, zen5, 6, &ck, &err), 0, "a Zen 5 that reads half");
		{
			bool none = true;

			for (size_t i = 0; i < ck.n; i++)
				none &= !ck.v[i].trusted;
			ok(none, "... every kernel refused");
		}
		like(ck.v[0].verdict, "fp_ret_sse_avx_ops.all read 0.50x of a known kernel (fp64 ",
		     "... with its ratio: %s", ck.v[0].verdict);
		{
			struct rt_pmu_record rec = { 0 };
			char buf[2048], note[256];

			rt_pmu_judge(zen5, &ck, buf, sizeof(buf), note, sizeof(note), &rec);
			ok(rec.state == RT_PMU_REFUSED && strstr(buf, "AMD Zen 5 table refused") &&
			   strstr(buf, "FLOPs from the model's exact counts") &&
			   strstr(rec.why, "not trusted for fp64 work: fp_ret_sse_avx_ops.all read 0.50x"),
			   "... judged refused, said with the ratios: %s", rec.why);
		}

		like(ck.v[0].verdict, "not used", "... and not used");
		{
			/* a Sapphire Rapids as its documents say: FP_ARITH_INST_RETIRED counts the
			 * FMA chains (8 fp64 or 16 fp32 FLOPs a 512-bit count), AMX_OPS_RETIRED.BF16
			 * the tiles' operations (4 a count), and no event VDPBF16PS or VPDPBUSD:
			 * its bf16 work is refused while an AVX512-BF16 kernel reads nothing */
			const struct rt_replay_event sprk[] = {
				{ 0x40c7, 1.0 / 8, "fp64" }, { 0x80c7, 1.0 / 16, "fp32" },
				{ 0x02ce, 1.0 / 4, "bf16 amx_bf16" }, { 0x01c7, 0, NULL },
				{ 0x04c7, 0, NULL }, { 0x10c7, 0, NULL }, { 0x40c7, 0, NULL },
				{ 0x02c7, 0, NULL }, { 0x08c7, 0, NULL }, { 0x20c7, 0, NULL },
				{ 0x80c7, 0, NULL }, { 0x01cf, 0, NULL }, { 0x02cf, 0, NULL },
				{ 0x04cf, 0, NULL }, { 0x08cf, 0, NULL }, { 0x10cf, 0, NULL },
				{ 0x02ce, 0, NULL },
			};
			bool vdp = false;

			rp = (struct rt_replay){ sprk, sizeof(sprk) / sizeof(sprk[0]), 1, 0, 0 };
			is_int(rt_pmu_selfcheck(&pmu, spr, 8, &ck, &err), 0,
			       "Sapphire Rapids replay: the probe's kernels counted, 2 groups each");
			ok(ck.v[0].trusted && ck.v[1].trusted &&
			   rt_events_trusted_for(ck.v, ck.n, "fp32", NULL, 0),
			   "... the FMA chains read right (%.3fx, %.3fx)", ck.v[0].ratio, ck.v[1].ratio);
			for (size_t i = 2; i < ck.n; i++) {
				if (strstr(ck.v[i].kernel, "amx_bf16"))
					ok(ck.v[i].trusted && fabs(ck.v[i].ratio - 1) < 1e-6,
					   "... AMX bf16 read right at 4 operations a count: %s",
					   ck.v[i].verdict);
				vdp |= !strcmp(ck.v[i].kernel, "bf16 avx512_bf16 vdpbf16ps");
			}
			if (vdp) {
				ok(!rt_events_trusted_for(ck.v, ck.n, "bf16", why, sizeof(why)) &&
				   strstr(why, "read 0.00x of a known kernel (bf16 avx512_bf16 vdpbf16ps)"),
				   "... bf16 work refused: VDPBF16PS is no event's: %s", why);
				/* what a training run asks: fp32, and bf16 too in a bf16 run */
				ok(rt_events_trusted_all(ck.v, ck.n,
							 rt_events_train_work(RT_PRECISION_FP32), why,
							 sizeof(why)) &&
				   !rt_events_trusted_all(ck.v, ck.n,
							  rt_events_train_work(RT_PRECISION_BF16), why,
							  sizeof(why)) &&
				   !strncmp(why, "not trusted for bf16 work: ", 27),
				   "... an fp32 run counted by the hardware, a bf16 run not: %s", why);
			} else {
				skip("no AVX512-BF16 here");
				skip("no AVX512-BF16 here");
			}
		}
		{
			/* a Sapphire Rapids: 512-bit packed doubles, 8 FLOPs per count, in 2 groups */
			const struct rt_replay_event sprv[] = {
				{ 0x01c7, 0, NULL }, { 0x04c7, 0, NULL }, { 0x10c7, 0, NULL },
				{ 0x40c7, 1.0 / 8, NULL }, { 0x02c7, 0, NULL }, { 0x08c7, 0, NULL },
				{ 0x20c7, 0, NULL }, { 0x80c7, 0, NULL }, { 0x01cf, 0, NULL },
				{ 0x02cf, 0, NULL }, { 0x04cf, 0, NULL }, { 0x08cf, 0, NULL },
				{ 0x10cf, 0, NULL }, { 0x02ce, 0, NULL },
			};
			const struct rt_pmu_work w = { work, NULL, 8e9, NULL };

			rp = (struct rt_replay){ sprv, 14, 1, 0, 0 };
			work_done = 0;
			is_int(rt_pmu_measure(&pmu, spr, 8, &w, &c, &ng, &err), 0, "Sapphire Rapids replay");
			is_double(c.flops, 8e9, 0, "... 8e9 FLOPs from 1e9 512-bit FMA-double counts");
			ok(ng == 2 && rp.calls == 2 && rp.max_group == 8 && work_done == 2,
			   "... in 2 groups, the work run once each, never more than 8 events at once");
			rp = (struct rt_replay){ sprv, 8, 1, 0, 0 };
			ok(skx && rt_pmu_measure(&pmu, skx, 4, &w, &c, &ng, &err) == 0 && rp.max_group == 4 &&
			   rp.calls == 2, "Skylake-SP replay, 4 counters: 2 groups of 4 (%g FLOPs)", c.flops);
			rp = (struct rt_replay){ sprv, 13, 1, 0, 0 };
			is_int(rt_pmu_measure(&pmu, spr, 8, &w, &c, &ng, &err), -ENOTSUP,
			       "a PMU without the AMX event: no count");
			like(err.msg, "AMX_OPS_RETIRED.BF16 (raw 0x2ce) cannot be counted", "... named: %s",
			     err.msg);
			rp = (struct rt_replay){ sprv, 14, 0.5, 0, 0 };
			is_int(rt_pmu_measure(&pmu, spr, 8, &w, &c, &ng, &err), 0, "multiplexed at 50%%");
			ok(c.source == RT_SOURCE_HW_ESTIMATE && fabs(c.flops - 8e9) < 1,
			   "... scaled back to 8e9 FLOPs and labelled hw-estimate");
		}
	}

	/* this node's real verdict: whatever CPU runs the suite, one sentence of the same form
	 * (each identity's own words are asserted in t-identity, on identities it chooses) */
	{
		char buf[1024], note[256], want[64];
		struct rt_err why = { 0 };
		struct rt_pmu_record rec;

		rt_pmu_verdict(buf, sizeof(buf), note, sizeof(note), &rec, &why);
		printf("# %s\n", buf);
		snprintf(want, sizeof(want), "hardware counters: %s", rt_vocab_pmu_states[rec.state]);
		ok(!strncmp(buf, want, strlen(want)) ||
		   (rec.state <= RT_PMU_REFUSED && strstr(buf, rt_vocab_pmu_states[rec.state])),
		   "this node's verdict begins with its state: %s", rt_vocab_pmu_states[rec.state]);
		ok(strstr(buf, "; DRAM bytes: ") && rec.dram[0] && !strncmp(note, "hardware counters: ", 19),
		   "... and ends with the DRAM bytes' verdict: %s", rec.dram);
		ok(rec.state == RT_PMU_VALIDATED || rec.why[0], "... why, when not validated");
	}
	return done_testing();
}
