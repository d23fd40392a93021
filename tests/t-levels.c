/* t-levels.c: boundary and plateau detection on synthetic bandwidth curves, including the
 * virtual machine whose hwloc L3 is far larger than where bandwidth really falls */
#include "config.h"
#include "node/levels.h"
#include "node/profile.h"
#include "tap.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define KiB 1024.0
#define MiB (1024.0 * KiB)

/* A curve with plateaus p[0..n] ending at ends[0..n-1], smooth (logistic in log size)
 * transitions and a deterministic +-3% ripple. */
static size_t make_curve(uint64_t *ws, double *bw, const double *p, const double *ends,
			 size_t nlev, double top)
{
	size_t n = 0;

	for (double s = 4 * KiB; s <= top; s *= pow(2, 0.25)) {
		double lb = log(p[nlev]);

		for (size_t k = nlev; k-- > 0;) {
			double w = 1 / (1 + exp((log(s) - log(ends[k])) / 0.12));

			lb = w * log(p[k]) + (1 - w) * lb;
		}
		ws[n] = (uint64_t)s & ~(uint64_t)511;
		bw[n] = exp(lb) * (1 + 0.03 * sin(7.0 * (double)n));
		n++;
	}
	return n;
}

int main(void)
{
	uint64_t ws[256];
	double bw[256];
	struct rt_level_result lv[4];

	/* an honest machine: L1 48K, L2 2M, L3 32M, then DRAM */
	{
		const double p[] = { 300, 100, 40, 10 }, ends[] = { 48 * KiB, 2 * MiB, 32 * MiB };
		const uint64_t caches[] = { 48 * 1024, 2 << 20, 32 << 20 };
		size_t n = make_curve(ws, bw, p, ends, 3, 512 * MiB);

		rt_levels_analyze(ws, bw, n, caches, 3, 0.15, lv);
		for (int k = 0; k < 3; k++) {
			ok(lv[k].found, "honest L%d: boundary found", k + 1);
			ok(lv[k].agrees, "honest L%d: agrees with hwloc (end %.0f KiB)", k + 1,
			   (double)lv[k].end / 1024);
			ok(fabs(log((double)lv[k].end / ends[k])) < log(1.5),
			   "honest L%d: end within 1.5x of the true end", k + 1);
			is_double(lv[k].plateau, p[k], 0.06, "honest L%d plateau", k + 1);
		}
		is_double(lv[3].plateau, 10, 0.06, "honest DRAM plateau");
		/* working sets: inside each plateau */
		is_int((long long)rt_levels_working_set(lv, 3, 0), (long long)(lv[0].end / 2) & ~4095LL,
		       "L1 set is half its end");
		ok(rt_levels_working_set(lv, 3, 2) < lv[2].end &&
		   rt_levels_working_set(lv, 3, 2) > lv[1].end, "L3 set between L2 and L3 ends");
		ok(rt_levels_working_set(lv, 3, 3) >= 4 * lv[2].end, "DRAM set past 4x the L3 end");
		/* per thread: a private level's set whole, a shared one's split among the threads on
		 * one instance, DRAM's split over all, within a quarter of the memory */
		is_int((long long)rt_levels_thread_set(lv, 3, 0, 8, 1, 0),
		       (long long)rt_levels_working_set(lv, 3, 0), "L1 private: its set at 8 threads");
		is_int((long long)rt_levels_thread_set(lv, 3, 2, 8, 4, 0),
		       (long long)(rt_levels_working_set(lv, 3, 2) / 4) & ~4095LL,
		       "L3 shared by 4 cores, 8 threads: a quarter each");
		is_int((long long)rt_levels_thread_set(lv, 3, 2, 2, 4, 0),
		       (long long)(rt_levels_working_set(lv, 3, 2) / 2) & ~4095LL,
		       "... 2 threads: a half each");
		is_int((long long)rt_levels_thread_set(lv, 3, 3, 8, 0, 0),
		       (long long)(rt_levels_working_set(lv, 3, 3) / 8) & ~4095LL,
		       "DRAM split over 8 threads");
		is_int((long long)rt_levels_thread_set(lv, 3, 3, 2, 0, 120 << 20),
		       (long long)(5 << 20), "DRAM within a twelfth of 120 MiB, over 2 threads");
	}
	/* the VM: hwloc says L3 = 480 MB, bandwidth falls to DRAM speed past 64 MB */
	{
		const double p[] = { 300, 100, 40, 10 }, ends[] = { 48 * KiB, 2 * MiB, 64 * MiB };
		const uint64_t caches[] = { 48 * 1024, 2 << 20, 480000000 };
		size_t n = make_curve(ws, bw, p, ends, 3, 2048 * MiB);

		rt_levels_analyze(ws, bw, n, caches, 3, 0.15, lv);
		ok(lv[2].found, "vm L3: a boundary is measured");
		ok(!lv[2].agrees, "vm L3: disagrees with hwloc's 480 MB");
		ok(lv[2].end > 40 * MiB && lv[2].end < 100 * MiB, "vm L3 ends near 64 MiB (%.0f MiB)",
		   (double)lv[2].end / MiB);
		ok(rt_levels_working_set(lv, 3, 2) < 64 * MiB, "vm L3 set inside the real L3");
		ok(rt_levels_working_set(lv, 3, 3) > 64 * MiB, "vm DRAM set past the real L3");
		ok(lv[0].agrees && lv[1].agrees, "vm L1 and L2 agree");
	}
	/* no drop at all near a level: fall back to hwloc's size, say so */
	{
		const double p[] = { 300, 100, 10 }, ends[] = { 48 * KiB, 2 * MiB };
		const uint64_t caches[] = { 48 * 1024, 2 << 20, 200 << 20 };
		size_t n = make_curve(ws, bw, p, ends, 2, 1024 * MiB);

		rt_levels_analyze(ws, bw, n, caches, 3, 0.15, lv);
		/* the L2 -> "L3" drop happens at 2 MiB; the hwloc L3 window starts past it */
		ok(!lv[2].found, "phantom L3: no boundary near 200 MiB");
		is_int((long long)lv[2].end, 200LL << 20, "phantom L3: end is hwloc's size");
		ok(!lv[2].agrees, "phantom L3: not marked as agreeing");
	}
	/* a flat curve: nothing found anywhere */
	{
		uint64_t caches[] = { 32 * 1024, 1 << 20 };
		size_t n = 0;

		for (double s = 4 * KiB; s <= 64 * MiB; s *= 2, n++) {
			ws[n] = (uint64_t)s;
			bw[n] = 50;
		}
		rt_levels_analyze(ws, bw, n, caches, 2, 0.15, lv);
		ok(!lv[0].found && !lv[1].found, "flat curve: no boundaries");
		is_int((long long)lv[0].end, 32 * 1024, "flat curve: hwloc's L1 size kept");
	}
	/* where the probe's curve may stop: settled in DRAM once its whole last factor of two lies
	 * past the last level's end and is flat there */
	{
		const double p[] = { 300, 100, 40, 10 }, ends[] = { 48 * KiB, 2 * MiB, 32 * MiB };
		const uint64_t caches[] = { 48 * 1024, 2 << 20, 32 << 20 };
		uint64_t end = 1;
		size_t n = make_curve(ws, bw, p, ends, 3, 96 * MiB);

		ok(rt_levels_settled(ws, bw, n, caches, 3, &end),
		   "to 3x the L3's end, flat over 48..96 MiB: settled");
		ok(fabs(log((double)end / (32 * MiB))) < log(1.5), "settled: the L3 ends near 32 MiB "
		   "(%.1f MiB)", (double)end / MiB);
		n = make_curve(ws, bw, p, ends, 3, 48 * MiB);
		ok(!rt_levels_settled(ws, bw, n, caches, 3, &end),
		   "to 1.5x the L3's end: not settled (its last factor of two starts inside the L3)");
		ok(!rt_levels_settled(ws, bw, n, caches, 0, &end) && end == 0,
		   "no cache level: not settled, no end");
		ok(!rt_levels_settled(ws, bw, 2, caches, 3, &end) && end == 0,
		   "2 points: not settled, no end");
	}
	/* a last level with a tail (a victim cache's, an adaptive policy's): the L3 ends at 32 MiB
	 * but the curve falls from 20 to 10 GB/s again near 96 MiB, then is flat */
	{
		const double p[] = { 300, 100, 40, 20, 10 },
			     ends[] = { 48 * KiB, 2 * MiB, 32 * MiB, 96 * MiB };
		const uint64_t caches[] = { 48 * 1024, 2 << 20, 32 << 20 };
		uint64_t end;
		size_t n = make_curve(ws, bw, p, ends, 4, 128 * MiB);

		ok(!rt_levels_settled(ws, bw, n, caches, 3, &end),
		   "a tail still falling over 64..128 MiB: not settled");
		n = make_curve(ws, bw, p, ends, 4, 512 * MiB);
		ok(rt_levels_settled(ws, bw, n, caches, 3, &end),
		   "the same curve to 512 MiB, flat over 256..512 MiB: settled");
	}
	/* the Zen 5 guest whose OS names no cache: its probe's recorded curve (about 430 GB/s to
	 * 46 KiB, 150-210 to about 1 MiB, 82-94 to about 14 MiB, 35-38 from 64 MiB) */
	{
		const char *dir = getenv("top_srcdir");
		char path[4096];
		struct rt_profile *pr = NULL;
		struct rt_err err;
		struct rt_plateau pl[8];
		uint64_t cws[512], end = 0;
		double cbw[512];
		size_t n = 0, np;

		snprintf(path, sizeof(path), "%s/tests/data/zen5-vm-no-cache/profile-no-caches.cfg",
			 dir ? dir : ".");
		if (!ok(rt_profile_load(&pr, path, &err) == 0, "the guest's profile loads"))
			printf("# %s\n", err.msg);
		for (size_t i = 0; pr && i < pr->ncurve && i < 512; i++, n++) {
			cws[i] = pr->curve[i].working_set;
			cbw[i] = pr->curve[i].gbytes_per_s;
		}
		np = rt_levels_plateaus(cws, cbw, n, pl, 8);
		if (is_int((long long)np, 4, "no size given: the curve alone shows 4 plateaus")) {
			ok(fabs(log((double)pl[0].end / (48 * KiB))) < log(1.5),
			   "L1 ends near 48 KiB (%.0f KiB)", (double)pl[0].end / KiB);
			ok(pl[0].value > 400 && pl[0].value < 450, "L1 at %.0f GB/s", pl[0].value);
			ok(fabs(log((double)pl[1].end / MiB)) < log(1.5),
			   "L2 ends near 1 MiB (%.0f KiB)", (double)pl[1].end / KiB);
			ok(pl[1].value > 140 && pl[1].value < 215, "L2 at %.0f GB/s", pl[1].value);
			ok(pl[2].end >= 12 * MiB && pl[2].end <= 32 * MiB,
			   "L3 ends between 12 and 32 MiB (%.1f MiB)", (double)pl[2].end / MiB);
			ok(pl[2].value > 80 && pl[2].value < 95, "L3 at %.0f GB/s", pl[2].value);
			ok(pl[3].end == cws[n - 1] && pl[3].start >= 32 * MiB,
			   "the last plateau runs to the curve's end, from %.0f MiB: DRAM",
			   (double)pl[3].start / MiB);
			ok(pl[3].value > 33 && pl[3].value < 40, "DRAM at %.1f GB/s", pl[3].value);
		}
		ok(rt_levels_settled(cws, cbw, n, NULL, 0, &end) && end == pl[2].end,
		   "no level named: settled in DRAM by the plateaus alone, past the L3's end");
		/* CPUID's sizes: L1 48 KiB, L2 1 MiB, an L3 of 508 MiB that bandwidth leaves near
		 * 16 MiB */
		{
			const uint64_t caches[] = { 49152, 1 << 20, 532676608 };
			struct rt_level_result l4[4];

			rt_levels_analyze(cws, cbw, n, caches, 3, 0.15, l4);
			ok(l4[0].agrees && l4[1].agrees, "CPUID's L1 and L2 agree with the curve");
			ok(l4[2].found && !l4[2].agrees, "the 508 MiB L3: found on the curve, disagreeing");
			ok(l4[2].end >= 12 * MiB && l4[2].end <= 32 * MiB,
			   "the 508 MiB L3 ends where its plateau does (%.1f MiB)",
			   (double)l4[2].end / MiB);
			ok(rt_levels_working_set(l4, 3, 2) < l4[2].end &&
			   rt_levels_working_set(l4, 3, 2) > 2 * l4[1].end, "L3 set inside the plateau");
			ok(rt_levels_working_set(l4, 3, 3) >= 4 * l4[2].end, "DRAM set past 4x the L3");
		}
		rt_profile_destroy(pr);
	}
	return done_testing();
}
