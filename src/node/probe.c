/* probe.c: the probe's sequence: clock, curve, levels, FLOP ceilings, bandwidth ceilings,
 * oneDNN low-precision peaks; everything measured lands in a machine profile */
#define _GNU_SOURCE
#include "config.h"
#include "node/probe.h"
#include "machine/busy.h"
#include "machine/cpu.h"
#include "machine/dnnl.h"
#include "node/levels.h"
#include "base/util.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define progress(o, ...) rt_say((o)->progress, (o)->progress_ctx, __VA_ARGS__)

size_t rt_probe_default_threads(const struct rt_topo *topo, unsigned *list, size_t cap)
{
	unsigned cores = rt_topo_cores(topo);
	size_t n = 0;

	if (!cores)
		cores = 1;
	for (unsigned t = 1; t < cores && n < cap; t *= 2)
		list[n++] = t;
	if (n < cap)
		list[n++] = cores;
	return n;
}

size_t rt_probe_topo_threads(const struct rt_topo *topo, unsigned *list, size_t cap)
{
	unsigned cores = rt_topo_cores(topo), packs = rt_topo_packages(topo), per_pack;
	size_t n = 0;

	if (!cores)
		cores = 1;
	per_pack = cores / packs ? cores / packs : 1;
	{
		/* ascending by construction: 1 <= half <= a socket <= all */
		const unsigned want[] = { 1, per_pack / 2, per_pack, cores };

		for (size_t i = 0; i < sizeof(want) / sizeof(want[0]) && n < cap; i++)
			if (want[i] && (!n || want[i] > list[n - 1]))
				list[n++] = want[i];
	}
	return n;
}


static void human(char *buf, size_t size, uint64_t bytes)
{
	if (bytes >= ((uint64_t)1 << 30) && !(bytes % ((uint64_t)1 << 20)))
		snprintf(buf, size, "%.1f GiB", (double)bytes / (1 << 30));
	else if (bytes >= ((uint64_t)1 << 20))
		snprintf(buf, size, "%.1f MiB", (double)bytes / (1 << 20));
	else
		snprintf(buf, size, "%.0f KiB", (double)bytes / 1024);
}

/* The widest ISA allowed and supported: bandwidth kernels use it. */
static int widest_isa(unsigned mask, enum rt_isa *isa)
{
	for (int i = RT_ISA_COUNT - 1; i >= RT_ISA_SSE; i--)
		if ((mask & (1u << i)) && rt_isa_supported((enum rt_isa)i) &&
		    rt_kernel_bw("load", (enum rt_isa)i)) {
			*isa = (enum rt_isa)i;
			return 0;
		}
	return -ENOTSUP;
}

struct probe_ctx {
	const struct rt_topo *topo;
	const struct rt_probe_opts *o;
	struct rt_profile *p;
	struct rt_measure_opts mopts;
	unsigned isa_mask;
	enum rt_isa bw_isa;
	size_t ncaches;
	struct rt_cache_info lv[RT_TOPO_MAX_CACHES];    /* the levels measured, each by source */
	uint64_t cache_cap[RT_TOPO_MAX_CACHES];         /* per instance, as one thread sees it */
	struct rt_level_result levels[RT_TOPO_MAX_CACHES + 1];
};

static const char *level_name(const struct probe_ctx *c, size_t k)
{
	return rt_level_name(k < c->ncaches ? c->lv[k].level : 0);
}

/* One measurement: a FLOP kernel, a peak kernel, or a bandwidth kernel on an arena. */
struct measure_call {
	const struct rt_kernel *k;
	const struct rt_peak_kernel *pk;
	struct rt_arena *arena;
	size_t ws;
	unsigned threads;
	const int *pus;
	/* a oneDNN matmul of this type (mm_res: its implementation), when mm_res is set */
	enum rt_precision mm;
	struct rt_matmul_result *mm_res;
};

static int measure_once(const struct probe_ctx *c, const struct measure_call *mc,
			struct rt_measurement *m, struct rt_err *err)
{
	if (mc->mm_res) {
		int rc = rt_kernel_matmul_peak(mc->mm, mc->threads, mc->pus, c->o->quick, mc->mm_res,
					       err);

		memset(m, 0, sizeof(*m));
		m->best = mc->mm_res->gflops * 1e9;
		m->median = mc->mm_res->median * 1e9;
		m->spread = mc->mm_res->spread;
		m->cpu_share = mc->mm_res->cpu_share;
		m->disturbed_runs = mc->mm_res->disturbed_runs;
		return rc;
	}
	if (mc->pk)
		return rt_kernel_measure_peak(mc->pk, mc->threads, mc->pus, &c->mopts, m, err);
	if (mc->arena)
		return rt_kernel_measure_bw(mc->k, mc->arena, mc->ws, &c->mopts, m, err);
	return rt_kernel_measure_flops(mc->k, mc->threads, mc->pus, &c->mopts, m, err);
}

/* Whether a run lost its cores' time to other work (rt_busy_lost of what it did not get). */
static bool lost_cores(const struct rt_measurement *m)
{
	return rt_busy_lost(1 - m->cpu_share);
}

/* Measure; a run another process disturbed (it lost more than RT_BUSY_LOST_MAX of its cores'
 * time) is made again, the undisturbed (or better) one kept; disturbed both times, flag says
 * why: the process's CPU quota (a cgroup held it back: the throttled periods grew, or the
 * quota is below the threads) or, else, another process (rt_busy_reason). Under a quota of
 * fewer cores than the run's threads (a setting, which holds every run back alike) the first
 * disturbed run is flagged at once. */
static int measure_checked(const struct probe_ctx *c, const struct measure_call *mc,
			   struct rt_measurement *m, char *flag, size_t flagsize, struct rt_err *err)
{
	struct rt_cpu_tasks before;
	struct rt_measurement again;
	double cores, period, first;
	unsigned long long throttled = 0;
	char figures[128];
	int rc;

	/* none: throttled stays 0 */
	const bool capped = rt_cpu_quota(&cores, &period, &throttled) == 0 && cores < mc->threads;

	rc = measure_once(c, mc, m, err);
	flag[0] = '\0';
	if (rc || !lost_cores(m))
		return rc;
	/* who else runs there, for the flag's words */
	(void)rt_cpu_tasks_take(&before, mc->pus, mc->pus ? mc->threads : 0);
	if (capped) {
		snprintf(figures, sizeof(figures), "the run got %.0f%% of its cores' time",
			 100 * m->cpu_share);
		(void)rt_busy_reason(flag, flagsize, figures, true, mc->threads, throttled, &before,
				     NULL);
		rt_cpu_tasks_free(&before);
		return 0;
	}
	rc = measure_once(c, mc, &again, err);
	first = m->cpu_share;
	if (!rc && (!lost_cores(&again) || again.best > m->best))
		*m = again;
	if (!rc && lost_cores(m)) {
		snprintf(figures, sizeof(figures), "measured twice, the runs got %.0f%% and %.0f%% "
			 "of their cores' time", 100 * first, 100 * again.cpu_share);
		(void)rt_busy_reason(flag, flagsize, figures, true, mc->threads, throttled,
				     &before, NULL);
	}
	rt_cpu_tasks_free(&before);
	return rc;
}

/* Other load on this process's CPUs before the probe: /proc/stat over 200 ms while this
 * process sleeps; a CPU more than 20% busy becomes a note. */
static void note_other_load(struct rt_profile *p)
{
	enum { MAXCPU = 1024 };
	static unsigned long long busy[2][MAXCPU], total[2][MAXCPU];
	cpu_set_t mine;
	int ncpu = 0;

	if (rt_cpu_usable(&mine) < 0)
		CPU_ZERO(&mine);
	for (int pass = 0; pass < 2; pass++) {
		FILE *fp = fopen("/proc/stat", "r");
		char line[512];

		if (!fp)
			return;
		while (fgets(line, sizeof(line), fp)) {
			unsigned long long v[8] = { 0 };
			int cpu;

			if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
				continue;
			if (sscanf(line + 3, "%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0],
				   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) < 5 || cpu < 0 ||
			    cpu >= MAXCPU)
				continue;
			/* user nice system idle iowait irq softirq steal */
			total[pass][cpu] = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
			busy[pass][cpu] = total[pass][cpu] - v[3] - v[4];
			ncpu = cpu + 1 > ncpu ? cpu + 1 : ncpu;
		}
		fclose(fp);
		if (!pass) {
			struct timespec ts = { 0, 200000000 };

			nanosleep(&ts, NULL);
		}
	}
	for (int cpu = 0; cpu < ncpu; cpu++) {
		unsigned long long dt = total[1][cpu] - total[0][cpu];
		double share = dt ? (double)(busy[1][cpu] - busy[0][cpu]) / (double)dt : 0;

		if (CPU_ISSET(cpu, &mine) && share > 0.2)
			rt_profile_add_note(p, "CPU %d was %.0f%% busy with other work before the "
					    "probe: ceilings measured on it are checked and flagged "
					    "if disturbed", cpu, 100 * share);
	}
}

/* The curve's points from *s (then the next size) up to top, on arena a: into ws and bw. */
static int curve_points(const struct rt_kernel *k, struct rt_arena *a,
			const struct rt_measure_opts *mo, double *s, double step, uint64_t top,
			uint64_t *ws, double *bw, size_t *n, struct rt_err *err)
{
	for (; *s <= (double)top * 1.0001 && *n < 512; *s *= step) {
		uint64_t w = (uint64_t)*s & ~(uint64_t)511;
		struct rt_measurement m;
		int rc;

		if (*n && w <= ws[*n - 1])
			continue;
		if ((rc = rt_kernel_measure_bw(k, a, w, mo, &m, err)))
			return rc;
		ws[*n] = w;
		bw[*n] = m.best / 1e9;
		++*n;
	}
	return 0;
}

/* Where no source names a cache (a VM's sysfs without cache folders, no CPUID leaf): the
 * curve's plateaus are the levels, each ending where its plateau does. One thread cannot see
 * sharing: the levels below the last are taken as private, the last as shared by every core
 * (so that a thread's share of it shrinks as threads are added: the safe side). */
static void levels_from_curve(struct probe_ctx *c, const uint64_t *ws, const double *bw, size_t n)
{
	struct rt_plateau pl[RT_TOPO_MAX_CACHES + 1];
	const size_t found = rt_levels_plateaus(ws, bw, n, pl, RT_TOPO_MAX_CACHES + 1);
	/* the last plateau is DRAM (the staged curve went on until it was flat or at its top,
	 * and a curve flat from end to end is DRAM alone);
	 * at most four caches (L1 to L4) before it */
	const bool dram = found >= 1;
	const unsigned cores = rt_topo_cores(c->topo);
	size_t np = found - dram;

	if (np > 4)
		np = 4;
	for (size_t k = 0; k < np; k++) {
		const bool last = k + 1 == np;

		c->lv[k] = (struct rt_cache_info){ .level = (int)k + 1, .size = pl[k].end,
						   .shared_by = last && cores ? cores : 1,
						   .count = last ? 1 : (cores ? cores : 1),
						   .source = "curve" };
		c->cache_cap[k] = pl[k].end;
		c->levels[k] = (struct rt_level_result){ .hwloc_size = pl[k].end, .end = pl[k].end,
							 .found = true, .agrees = true,
							 .plateau = pl[k].value };
	}
	c->ncaches = np;
	c->levels[np] = (struct rt_level_result){ .found = dram, .agrees = dram,
						  .plateau = dram ? pl[found - 1].value : 0,
						  .start = dram ? pl[np].start : 0 };
	rt_profile_add_note(c->p, "no source names a cache (hwloc finds none in sysfs, CPUID "
			    "none): the %zu cache level%s measured are the bandwidth curve's "
			    "plateaus, each ending where its plateau does", np, np == 1 ? "" : "s");
}

/* The curve: one thread, load kernel, geometric sizes from 4 KiB past the last level: to four
 * times hwloc's last level (256 MiB at least, a quarter of the memory available at most), in
 * stages (256 MiB, then factors of 2), stopped where it has settled in DRAM (rt_levels_settled):
 * hwloc's last level is often a VM's invention (a 480 or 508 MiB L3), and first touching
 * gigabytes in a guest costs seconds (2 s for 2 GiB with huge pages, 8 s without, on a Zen 5
 * guest). */
static int measure_curve(struct probe_ctx *c, struct rt_err *err)
{
	const struct rt_kernel *k = rt_kernel_bw("load", c->bw_isa);
	struct rt_measure_opts mo = c->mopts;
	uint64_t llc = c->ncaches ? c->cache_cap[c->ncaches - 1] : 0, top, cap, first;
	double step = c->o->quick ? sqrt(2.0) : pow(2.0, 0.25), s = 4096;
	struct rt_arena *arena = NULL;
	int pu, rc = 0;
	uint64_t ws[512], end = 0;
	double bw[512];
	size_t n = 0;

	/* with no level named by any source, the curve's own plateaus say when it is in DRAM */
	top = llc ? 4 * llc : (uint64_t)1 << 30;
	if (top < ((uint64_t)256 << 20))
		top = (uint64_t)256 << 20;
	cap = rt_topo_memory_available(c->topo) / 4;
	if (c->o->quick && top > ((uint64_t)512 << 20))
		top = (uint64_t)512 << 20;
	if (top > cap)
		top = cap;
	first = top < ((uint64_t)256 << 20) ? top : (uint64_t)256 << 20;
	/* the curve locates levels; it needs fewer, shorter runs than a ceiling */
	mo.min_runs = 3;
	mo.max_runs = c->o->quick ? 3 : 7;
	mo.min_run_seconds = c->o->quick ? 0.002 : 0.006;
	mo.budget_seconds = c->o->quick ? 0.01 : 0.06;
	rc = rt_topo_placement(c->topo, RT_AFFINITY_COMPACT, 1, &pu, err);
	if (!rc)
		rc = rt_arena_create_partial(&arena, 1, &pu, top, first, err);
	if (rc)
		return rc;
	progress(c->o, "bandwidth curve: 4 KiB to %.0f MiB", (double)first / (1 << 20));
	/* by factors of two past the first stage, each written only when it is measured, until
	 * the curve settles in DRAM or reaches its top */
	for (uint64_t upto = first;; upto = 2 * upto < top ? 2 * upto : top) {
		if ((rc = rt_arena_touch(arena, upto, err)) ||
		    (rc = curve_points(k, arena, &mo, &s, step, upto, ws, bw, &n, err)))
			goto out;
		if (upto >= top)
			break;
		if (rt_levels_settled(ws, bw, n, c->cache_cap, c->ncaches, &end)) {
			/* what the curve found, no warning */
			rt_profile_add_note_kind(c->p, false, "the bandwidth curve stopped at %.0f "
						 "MiB, short of %s (%.0f MiB): it had settled in "
						 "DRAM, flat within 15%% over its last factor of %d, "
						 "all of it past the last level's measured end (%.1f "
						 "MiB)", (double)upto / (1 << 20), c->ncaches ?
						 "4x the last level named" : "its top",
						 (double)top / (1 << 20), c->ncaches ? 2 : 3,
						 (double)end / (1 << 20));
			break;
		}
		progress(c->o, "bandwidth curve: to %.0f MiB (not settled in DRAM at %.0f MiB)",
			 (double)(2 * upto < top ? 2 * upto : top) / (1 << 20),
			 (double)upto / (1 << 20));
	}
	for (size_t i = 0; i < n; i++) {
		struct rt_profile_point pt = { ws[i], bw[i] };

		if (rt_profile_add_point(c->p, &pt)) {
			rc = rt_err_set(err, -ENOMEM, "out of memory");
			goto out;
		}
	}
	snprintf(c->p->curve_kernel, sizeof(c->p->curve_kernel), "load");
	snprintf(c->p->curve_isa, sizeof(c->p->curve_isa), "%s", rt_isa_name(c->bw_isa));
	c->p->curve_threads = 1;
	if (c->ncaches)
		rt_levels_analyze(ws, bw, n, c->cache_cap, c->ncaches, 0.15, c->levels);
	else
		levels_from_curve(c, ws, bw, n);
out:
	rt_arena_destroy(arena);
	return rc;
}

/* The caches and levels into the profile, each with its source: hwloc's and CPUID's sizes
 * where they name the level, where the curve drops out of it, and notes where they disagree. */
static int record_levels(struct probe_ctx *c)
{
	for (size_t k = 0; k < c->ncaches; k++) {
		const struct rt_cache_info *ci = &c->lv[k];
		struct rt_profile_cache pc = { ci->level, ci->size, ci->line, ci->shared_by,
					       ci->count, "" };

		snprintf(pc.source, sizeof(pc.source), "%s", ci->source ? ci->source : "hwloc");
		if (rt_profile_add_cache(c->p, &pc))
			return -ENOMEM;
	}
	for (size_t k = 0; k <= c->ncaches; k++) {
		const struct rt_level_result *r = &c->levels[k];
		const struct rt_cache_info *ci = k < c->ncaches ? &c->lv[k] : NULL;
		const char *src = ci && ci->source ? ci->source : "hwloc";
		struct rt_profile_level l = { 0 };

		snprintf(l.level, sizeof(l.level), "%s", level_name(c, k));
		if (ci) {
			snprintf(l.source, sizeof(l.source), "%s", src);
			l.hwloc_size = !strcmp(src, "hwloc") ? ci->size : 0;
			l.cpuid_size = ci->cpuid_size;
		}
		l.measured_size = r->found ? r->end : 0;
		l.agrees = r->agrees;
		if (rt_profile_add_level(c->p, &l))
			return -ENOMEM;
		if (ci && l.hwloc_size && l.cpuid_size &&
		    (l.cpuid_size > 2 * l.hwloc_size || l.hwloc_size > 2 * l.cpuid_size)) {
			char h[32], u[32];

			human(h, sizeof(h), l.hwloc_size);
			human(u, sizeof(u), l.cpuid_size);
			rt_profile_add_note(c->p, "hwloc reports %s = %s, CPUID %s", l.level, h, u);
		}
		if (ci && c->p->ncurve && !r->agrees) {
			char h[32], m[32];

			human(h, sizeof(h), r->hwloc_size);
			human(m, sizeof(m), r->end);
			if (r->found)
				rt_profile_add_note(c->p, "%s reports %s = %s, but bandwidth falls to "
						    "the next level past %s; ceilings are measured "
						    "inside the measured plateau", src, l.level, h, m);
			else
				rt_profile_add_note(c->p, "no bandwidth drop measured near %s = %s "
						    "(%s); %s ceilings use that size", l.level, h, src,
						    l.level);
		}
	}
	return 0;
}

/* The core clock once more, right after a ceiling (the clock a host lets a guest run at
 * wanders by several percent): the profile keeps the fastest reading, so that no ceiling is
 * credited to a clock it outran. */
static void sample_clock(struct probe_ctx *c)
{
	double ghz = rt_kernel_clock_ghz(c->o->quick ? 0.005 : 0.01);

	if (ghz > c->p->cpu.clock_ghz)
		c->p->cpu.clock_ghz = ghz;
}

/* A FLOP ceiling from its measurement (GFLOP/s: best, median; spread) into the profile. */
static int add_flops(struct probe_ctx *c, struct rt_profile_flops *f, unsigned threads,
		     const struct rt_measurement *m, struct rt_err *err)
{
	f->threads = threads;
	f->gflops = m->best / 1e9;
	f->median = m->median / 1e9;
	f->spread = m->spread;
	return rt_profile_add_flops(c->p, f) ? rt_err_set(err, -ENOMEM, "out of memory") : 0;
}

static int measure_flops(struct probe_ctx *c, unsigned threads, const int *pus,
			 struct rt_err *err)
{
	for (int prec = 0; prec < RT_KERNEL_NPRECISIONS; prec++) {
		for (int isa = 0; isa < RT_ISA_COUNT; isa++) {
			const struct rt_kernel *k = rt_kernel_flops((enum rt_isa)isa,
								   (enum rt_precision)prec);
			struct rt_profile_flops f = { 0 };
			struct rt_measurement m;
			int rc;

			if (!k || !(c->isa_mask & (1u << isa)) || !rt_isa_supported(k->isa))
				continue;
			progress(c->o, "peak %s %s, %u thread%s", rt_precision_name(k->prec),
				 rt_isa_name(k->isa), threads, threads > 1 ? "s" : "");
			{
				const struct measure_call mc = { .k = k, .threads = threads, .pus = pus };

				rc = measure_checked(c, &mc, &m, f.flag, sizeof(f.flag), err);
			}
			if (rc)
				return rc;
			snprintf(f.precision, sizeof(f.precision), "%s", rt_precision_name(k->prec));
			snprintf(f.isa, sizeof(f.isa), "%s", rt_isa_name(k->isa));
			snprintf(f.method, sizeof(f.method), "%s",
				 k->fused ? "fma-chains" : "mul-add-chains");
			if ((rc = add_flops(c, &f, threads, &m, err)))
				return rc;
			sample_clock(c);
		}
	}
	return 0;
}

/* The low-precision peaks of the instructions themselves (bf16, fp16, int8), as the fp32 and
 * fp64 FMA chains measure theirs; a CPU without an extension has no such roof. */
static int measure_peaks(struct probe_ctx *c, unsigned threads, const int *pus, bool first,
			 struct rt_err *err)
{
	for (const struct rt_peak_kernel *k = rt_peak_next(NULL); k; k = rt_peak_next(k)) {
		struct rt_profile_flops f = { 0 };
		struct rt_measurement m;
		int rc;

		if (!k->supported()) {
			if (first)
				rt_profile_add_note_kind(c->p, false, "no %s %s peak: this CPU "
							 "has no %s", k->precision, k->isa,
							 k->isa);
			continue;
		}
		progress(c->o, "peak %s %s, %u thread%s", k->precision, k->isa, threads,
			 threads > 1 ? "s" : "");
		{
			const struct measure_call mc = { .pk = k, .threads = threads, .pus = pus };

			if ((rc = measure_checked(c, &mc, &m, f.flag, sizeof(f.flag), err)))
				return rc;
		}
		snprintf(f.precision, sizeof(f.precision), "%s", k->precision);
		snprintf(f.isa, sizeof(f.isa), "%s", k->isa);
		snprintf(f.method, sizeof(f.method), "instruction");
		snprintf(f.impl, sizeof(f.impl), "%s", k->name);
		if ((rc = add_flops(c, &f, threads, &m, err)))
			return rc;
		sample_clock(c);
	}
	return 0;
}

static int measure_lowp(struct probe_ctx *c, unsigned threads, const int *pus, bool first,
			struct rt_err *err)
{
	/* oneDNN's matmul in fp32 and every precision below it */
	for (int t = RT_PRECISION_FP32; t < RT_PRECISION_COUNT; t++) {
		struct rt_profile_flops f = { 0 };
		struct rt_matmul_result res;
		struct rt_measurement m;
		struct rt_err e2;
		const char *colon;
		int rc;

		progress(c->o, "oneDNN %s matmul, %u thread%s", rt_precision_name(t), threads,
			 threads > 1 ? "s" : "");
		{
			/* checked like every ceiling: a run another process disturbed is made again */
			const struct measure_call mc = { .threads = threads, .pus = pus,
							 .mm = (enum rt_precision)t, .mm_res = &res };

			rc = measure_checked(c, &mc, &m, f.flag, sizeof(f.flag), &e2);
		}
		if (rc == -ENOTSUP) {
			/* not a failure: this CPU (or this oneDNN) simply has no such roof */
			if (first)
				rt_profile_add_note_kind(c->p, false, "no %s peak: %s",
							 rt_precision_name(t), e2.msg);
			continue;
		}
		if (rc) {
			rt_err_set(err, rc, "%s", e2.msg);
			return rc;
		}
		colon = strchr(res.impl, ':');
		snprintf(f.precision, sizeof(f.precision), "%s", rt_precision_name(t));
		snprintf(f.isa, sizeof(f.isa), "%.31s", colon ? colon + 1 : res.impl);
		snprintf(f.method, sizeof(f.method), "onednn-matmul");
		snprintf(f.impl, sizeof(f.impl), "%.63s", res.impl);
		if ((rc = add_flops(c, &f, threads, &m, err)))
			return rc;
	}
	return 0;
}

static int measure_bandwidth(struct probe_ctx *c, unsigned threads, const int *pus,
			     struct rt_err *err)
{
	uint64_t ws[RT_TOPO_MAX_CACHES + 1], biggest = 0;
	struct rt_arena *arena = NULL;
	int rc = 0;

	/* per-thread working sets: a shared level's share shrinks with the threads on it */
	for (size_t k = 0; k <= c->ncaches; k++) {
		ws[k] = rt_levels_thread_set(c->levels, c->ncaches, k, threads,
					     k < c->ncaches ? c->lv[k].shared_by : 0,
					     rt_topo_memory_available(c->topo));
		if (ws[k] > biggest)
			biggest = ws[k];
	}
	rc = rt_arena_create(&arena, threads, pus, biggest + 4096, err);
	if (rc)
		return rc;
	for (size_t k = 0; k <= c->ncaches; k++) {
		const bool dram = k == c->ncaches;

		/* every kernel on DRAM; the caches' without the non-temporal stores, which bypass
		 * them */
		for (const struct rt_kernel *kr = rt_kernel_next(NULL); kr; kr = rt_kernel_next(kr)) {
			const char *name = kr->name;
			struct rt_profile_bw b = { 0 };
			struct rt_measurement m;
			char h[32];

			if (kr->kind != RT_KERNEL_BANDWIDTH || kr->isa != c->bw_isa ||
			    (!dram && kr->nt_bytes_per_elem))
				continue;
			human(h, sizeof(h), ws[k] * threads);
			progress(c->o, "%s %s, %s, %u thread%s", level_name(c, k),
				 name, h, threads, threads > 1 ? "s" : "");
			{
				const struct measure_call mc = { .k = kr, .arena = arena, .ws = ws[k],
								 .threads = threads };

				rc = measure_checked(c, &mc, &m, b.flag, sizeof(b.flag), err);
			}
			if (rc)
				goto out;
			snprintf(b.level, sizeof(b.level), "%s", level_name(c, k));
			snprintf(b.kernel, sizeof(b.kernel), "%s", name);
			snprintf(b.isa, sizeof(b.isa), "%s", rt_isa_name(c->bw_isa));
			b.threads = threads;
			b.gbytes_per_s = m.best / 1e9;
			b.median = m.median / 1e9;
			b.spread = m.spread;
			/* as moved: elements x arrays x 8 bytes, all threads */
			b.working_set = (uint64_t)rt_kernel_bw_elems(kr, ws[k]) * kr->arrays *
					sizeof(double) * threads;
			if (rt_profile_add_bw(c->p, &b)) {
				rc = rt_err_set(err, -ENOMEM, "out of memory");
				goto out;
			}
		}
	}
out:
	rt_arena_destroy(arena);
	return rc;
}

static int describe_machine(struct probe_ctx *c, struct rt_err *err)
{
	struct rt_profile *p = c->p;
	struct rt_cpu cpu;
	int rc = rt_cpu_detect(&cpu, err);

	if (rc)
		return rc;
	if (c->o->host)
		snprintf(p->host, sizeof(p->host), "%s", c->o->host);
	else if (gethostname(p->host, sizeof(p->host)))
		snprintf(p->host, sizeof(p->host), "localhost");
	p->host[sizeof(p->host) - 1] = '\0';
	rt_timestamp(p->created, sizeof(p->created));
	snprintf(p->tool, sizeof(p->tool), "%s %s", PACKAGE_NAME, PACKAGE_VERSION);
	rt_dnnl_version(p->onednn, sizeof(p->onednn));
	snprintf(p->onednn_runtime, sizeof(p->onednn_runtime), "%s", rt_dnnl_runtime());
	snprintf(p->cpu.model, sizeof(p->cpu.model), "%s", cpu.model);
	snprintf(p->cpu.vendor, sizeof(p->cpu.vendor), "%s", cpu.vendor);
	p->cpu.family = cpu.family;
	memcpy(p->cpu.isa, cpu.isa, sizeof(cpu.isa));
	p->cpu.nisa = cpu.nisa;
	p->cpu.sockets = rt_topo_packages(c->topo);
	p->cpu.cores = rt_topo_cores(c->topo);
	p->cpu.pus = rt_topo_pus(c->topo);
	p->cpu.numa_nodes = rt_topo_numa_nodes(c->topo);
	p->cpu.memory = rt_topo_memory_available(c->topo);
	if (rt_topo_is_this_system(c->topo)) {
		/* a job's memory limit and CPU set are the machine it has: said, as they size
		 * the DRAM sets and the thread counts */
		char why[192], b[32], cpus[320];
		uint64_t room = rt_mem_usable(why, sizeof(why));

		human(b, sizeof(b), room);
		if (strstr(why, "cgroup"))
			rt_profile_add_note_kind(p, false, "memory: %s usable, bounded by %s: the "
						 "working sets are sized to it", b, why);
		if (rt_topo_usable(c->topo, cpus, sizeof(cpus)))
			rt_profile_add_note_kind(p, false, "CPUs: this process may run on %s (its "
						 "affinity: taskset, a job's or a launcher's binding): "
						 "threads are placed on those alone, the ceilings are "
						 "theirs, and the profile's cores and PUs count them",
						 cpus);
	}
	if (rt_topo_memory_total(c->topo) < p->cpu.memory / 2 || cpu.hypervisor) {
		char a[32], b[32];

		human(a, sizeof(a), rt_topo_memory_total(c->topo));
		human(b, sizeof(b), p->cpu.memory);
		if (rt_topo_memory_total(c->topo) < p->cpu.memory)
			rt_profile_add_note(p, "hwloc reports %s of memory but the OS has %s "
					    "available; the OS's figure sizes the DRAM sets", a, b);
	}
	c->ncaches = rt_topo_ncaches(c->topo);
	for (size_t k = 0; k < c->ncaches; k++) {
		c->lv[k] = *rt_topo_cache(c->topo, k);
		c->cache_cap[k] = c->lv[k].size;
	}
	progress(c->o, "clock");
	p->cpu.clock_ghz = rt_kernel_clock_ghz(c->o->quick ? 0.03 : 0.1);
	return 0;
}

static int isa_rank(const char *isa)
{
	for (int i = 0; i < RT_ISA_COUNT; i++)
		if (!strcmp(isa, rt_isa_name((enum rt_isa)i)))
			return i;
	return -1;
}

/* Measure a FLOP ceiling again (its kernel, on the compact placement of its thread count);
 * false when it has no kernel of ours (oneDNN's rates) or cannot be measured. */
static bool remeasure_flops(const struct probe_ctx *c, struct rt_profile_flops *f, int *pus,
			    double *share)
{
	struct measure_call mc = { .threads = f->threads, .pus = pus };
	struct rt_measurement m;
	struct rt_err err;
	char flag[sizeof(f->flag)];

	if (!strcmp(f->method, "instruction")) {
		for (mc.pk = rt_peak_next(NULL); mc.pk && strcmp(mc.pk->isa, f->isa);
		     mc.pk = rt_peak_next(mc.pk))
			;
		if (!mc.pk)
			return false;
	} else {
		int isa = isa_rank(f->isa);

		mc.k = isa < 0 ? NULL : rt_kernel_flops((enum rt_isa)isa,
							rt_precision_of(f->precision));
		if (!mc.k || strcmp(f->method, "onednn-matmul") == 0)
			return false;
	}
	if (rt_topo_placement(c->topo, RT_AFFINITY_COMPACT, f->threads, pus, &err) ||
	    measure_checked(c, &mc, &m, flag, sizeof(flag), &err))
		return false;
	*share = m.cpu_share;
	if (m.best / 1e9 > f->gflops) {
		f->gflops = m.best / 1e9;
		f->median = m.median / 1e9;
		f->spread = m.spread;
	}
	if (flag[0] && !f->flag[0])
		snprintf(f->flag, sizeof(f->flag), "%s", flag);
	return true;
}

/* A memory level's place, innermost first (L1 0 ... DRAM), -1 for an unknown name. */
static int level_rank(const char *level)
{
	for (int i = 0; i < RT_VOCAB_NLEVELS; i++)
		if (!strcmp(level, rt_vocab_levels[i]))
			return i;
	return -1;
}

/* Ceilings that cannot be right as they stand: one at N threads below its 1-thread value, a
 * wider ISA below a narrower one (by more than 10%, noise). Each is measured again; if it stays
 * so, it is flagged with the cause, and every flag becomes a note (a warning). */
static void check_order(struct probe_ctx *c, int *pus)
{
	struct rt_profile *p = c->p;

	for (size_t i = 0; i < p->nflops; i++) {
		struct rt_profile_flops *f = &p->flops[i];

		for (size_t j = 0; j < p->nflops && !f->flag[0]; j++) {
			const struct rt_profile_flops *g = &p->flops[j];
			bool fewer = f->threads > 1 && g->threads == 1 && !strcmp(g->isa, f->isa) &&
				     !strcmp(g->precision, f->precision) && !strcmp(g->method, f->method) &&
				     f->gflops < 0.95 * g->gflops;
			bool narrower = g->threads == f->threads && !strcmp(g->precision, f->precision) &&
					isa_rank(f->isa) > isa_rank(g->isa) && isa_rank(g->isa) >= 0 &&
					f->gflops < 0.9 * g->gflops;

			double share = 0;

			if (!fewer && !narrower)
				continue;
			if (remeasure_flops(c, f, pus, &share) &&
			    f->gflops >= (fewer ? 0.95 : 0.9) * g->gflops)
				continue;
			/* the evidence, not a guess: whether the run had its cores to itself */
			snprintf(f->flag, sizeof(f->flag), "measured twice, still below %s's %.1f "
				 "GFLOP/s; %s", fewer ? "its 1-thread value" : g->isa, g->gflops,
				 share <= 0 ? "it could not be measured again" : rt_busy_lost(1 - share) ?
				 "the cores were busy with another process" :
				 "it had its cores (not a busy machine: the code or the CPU is slower)");
		}
		if (f->flag[0])
			rt_profile_add_note(p, "%s %s at %u thread%s (%.1f GFLOP/s) is flagged: %s",
					    f->precision, f->isa, f->threads, f->threads > 1 ? "s" : "",
					    f->gflops, f->flag);
	}
	rt_probe_check_bw(p);
}

void rt_probe_check_bw(struct rt_profile *p)
{
	for (size_t i = 0; i < p->nbw; i++) {
		struct rt_profile_bw *b = &p->bw[i];

		for (size_t j = 0; j < p->nbw && !b->flag[0]; j++) {
			const struct rt_profile_bw *g = &p->bw[j];

			if (b->threads > 1 && g->threads == 1 && !strcmp(g->level, b->level) &&
			    !strcmp(g->kernel, b->kernel) && b->gbytes_per_s < 0.9 * g->gbytes_per_s)
				snprintf(b->flag, sizeof(b->flag), "below its 1-thread value %.1f GB/s",
					 g->gbytes_per_s);
			/* the same kernel further out cannot be faster: the level did not keep its
			 * data (a cache shared with other work: a VM's neighbours) */
			else if (g->threads == b->threads && !strcmp(g->kernel, b->kernel) &&
				 level_rank(g->level) > level_rank(b->level) &&
				 level_rank(b->level) >= 0 &&
				 b->gbytes_per_s < 0.9 * g->gbytes_per_s)
				snprintf(b->flag, sizeof(b->flag), "below %s's %.1f GB/s further out: the "
					 "level did not keep its data (a cache shared with other work?)",
					 g->level, g->gbytes_per_s);
			/* a kernel that writes what it reads moves half a load's bytes a cycle or
			 * more: under a quarter, its stores were slowed by something unseen */
			else if (g->threads == b->threads && !strcmp(g->level, b->level) &&
				 !strcmp(g->kernel, "load") && (!strcmp(b->kernel, "copy") ||
								!strcmp(b->kernel, "triad")) &&
				 b->gbytes_per_s < RT_PROBE_STORES_UNDER * g->gbytes_per_s)
				snprintf(b->flag, sizeof(b->flag), "under %.0f%% of %s load's %.1f GB/s "
					 "at as many threads: a kernel that writes what it reads runs at "
					 "half of it or more, so other work slowed it unseen",
					 100 * RT_PROBE_STORES_UNDER, g->level, g->gbytes_per_s);
		}
		if (b->flag[0])
			rt_profile_add_note(p, "%s %s at %u thread%s (%.1f GB/s) is flagged: %s",
					    b->level, b->kernel, b->threads, b->threads > 1 ? "s" : "",
					    b->gbytes_per_s, b->flag);
	}
}

void rt_probe_set_theoretical(struct rt_profile *p)
{
	bool avx512 = false;

	for (size_t i = 0; i < p->cpu.nisa; i++)
		avx512 |= !strcmp(p->cpu.isa[i], "avx512f");
	for (size_t i = 0; i < p->nflops; i++) {
		struct rt_profile_flops *f = &p->flops[i];

		f->theoretical = (double)f->threads * p->cpu.clock_ghz *
				 rt_cpu_ops_per_cycle(p->cpu.vendor, p->cpu.family, avx512,
						      rt_precision_of(f->precision), f->isa,
						      f->method);
	}
	for (size_t i = 0; i < p->nflops; i++) {
		const struct rt_profile_flops *f = &p->flops[i];

		if (!(f->theoretical > 0) || !(f->gflops > RT_PROBE_CLOCK_SLACK * f->theoretical))
			continue;
		rt_profile_add_note(p, "the clock read %.2f GHz, but %s %s at %u thread%s ran %.1f "
				    "GFLOP/s, %.1fx the %.1f that clock allows: a reading other work "
				    "slowed unseen; the clock is not known, and no ceiling has a "
				    "theoretical peak", p->cpu.clock_ghz, f->precision, f->isa,
				    f->threads, f->threads > 1 ? "s" : "", f->gflops,
				    f->gflops / f->theoretical, f->theoretical);
		p->cpu.clock_ghz = 0;
		for (size_t k = 0; k < p->nflops; k++)
			p->flops[k].theoretical = 0;
		return;
	}
}

void rt_probe_check_theoretical(struct rt_profile *p)
{
	for (size_t i = 0; i < p->nflops; i++) {
		struct rt_profile_flops *f = &p->flops[i];

		if (f->flag[0] || f->threads != 1 || !(f->theoretical > 0) ||
		    (strcmp(f->method, "fma-chains") && strcmp(f->method, "mul-add-chains")) ||
		    !(f->gflops < RT_PROBE_FAR_UNDER * f->theoretical))
			continue;
		snprintf(f->flag, sizeof(f->flag), "%.0f%% of its theoretical peak %.1f GFLOP/s, "
			 "under %.0f%%: the probe's chains run at most of it on a core of their own, "
			 "so other work slowed it unseen", 100 * f->gflops / f->theoretical,
			 f->theoretical, 100 * RT_PROBE_FAR_UNDER);
		rt_profile_add_note(p, "%s %s at 1 thread (%.1f GFLOP/s) is flagged: %s; probe "
				    "again", f->precision, f->isa, f->gflops, f->flag);
	}
}

/* One run of at least `seconds`: the average rate of a kernel over that long. */
static void sustained_opts(struct rt_measure_opts *o, double seconds)
{
	*o = (struct rt_measure_opts){ .min_run_seconds = seconds, .min_runs = 1, .max_runs = 1,
				       .stable_tol = 1, .budget_seconds = 0 };
}

/* A sustained run that did not get its cores: flagged when another process took them (the
 * node's own CPU quota is the node's limit: a finding, not a flag). */
static void sustained_flag(char *flag, size_t size, const struct rt_measurement *m,
			   unsigned threads, unsigned long long throttled_before,
			   const struct rt_cpu_tasks *before)
{
	double cores, period;
	char figures[64];

	flag[0] = '\0';
	if (!lost_cores(m) || rt_busy_throttled(threads, throttled_before, &cores, &period))
		return;
	snprintf(figures, sizeof(figures), "the run got %.0f%% of its cores' time",
		 100 * m->cpu_share);
	(void)rt_busy_reason(flag, size, figures, false, threads, throttled_before, before,
			     NULL);
}

static int add_sustained(struct probe_ctx *c, const char *name, const char *kernel,
			 unsigned threads, const struct rt_measurement *m,
			 unsigned long long throttled_before, const struct rt_cpu_tasks *before,
			 struct rt_err *err)
{
	struct rt_profile_sustained su = { .threads = threads, .value = m->best / 1e9 };

	snprintf(su.name, sizeof(su.name), "%s", name);
	snprintf(su.kernel, sizeof(su.kernel), "%s", kernel);
	su.seconds = c->o->sustain_seconds;     /* the run lasted at least this long */
	sustained_flag(su.flag, sizeof(su.flag), m, threads, throttled_before, before);
	if (su.flag[0])
		rt_profile_add_note(c->p, "sustained %s at %u thread%s is flagged: %s", name, threads,
				    threads > 1 ? "s" : "", su.flag);
	for (size_t i = 0; i < c->p->nsustained; i++) {
		struct rt_profile_sustained *was = &c->p->sustained[i];

		if (was->threads != threads || strcmp(was->name, name))
			continue;
		/* made again (the cluster's second look): the faster run kept; one that another
		 * process disturbed flags it instead (the first look is not confirmed) */
		if (su.flag[0])
			snprintf(was->flag, sizeof(was->flag), "%s", su.flag);
		else if (su.value > was->value)
			*was = su;
		return 0;
	}
	return rt_profile_add_sustained(c->p, &su) ? rt_err_set(err, -ENOMEM, "out of memory") : 0;
}

/* The per-thread working set a bandwidth ceiling was measured on, from what its kernel moved:
 * the set is a multiple of 4 KiB, and what the kernel leaves out of it (its element count
 * rounded down to RT_BW_ELEM_ALIGN) is under 4 KiB for its at most 3 arrays. */
static uint64_t bw_set(const struct rt_profile_bw *b)
{
	return (b->working_set / b->threads + 4095) & ~(uint64_t)4095;
}

/* A sustained run far below the same ceiling's short runs (under 65% of them) is run once
 * more and the better run kept, with a note: a node is called slow on a sustained run only
 * when two in a row say so (a throttled node does, every time; a run that met a moment of
 * the host's noise, on a VM's shared memory, does not). 1 when m was replaced by the second
 * run. */
static int confirm_low(struct probe_ctx *c, const char *name, unsigned threads, double short_best,
		       struct rt_measurement *m, struct rt_measurement *m2)
{
	const double first = m->best;

	if (!(short_best > 0) || m->best >= 0.65 * short_best)
		return 0;
	if (m2->best > m->best) {
		rt_profile_add_note(c->p, "sustained %s at %u thread%s ran at %.0f%% of its short "
				    "runs: measured again, %.1f then %.1f (the better kept)", name,
				    threads, threads > 1 ? "s" : "", 100 * first / short_best,
				    first / 1e9, m2->best / 1e9);
		*m = *m2;
		return 1;
	}
	rt_profile_add_note(c->p, "sustained %s at %u thread%s ran at %.0f%% of its short runs, "
			    "twice (%.1f, %.1f)", name, threads, threads > 1 ? "s" : "",
			    100 * first / short_best, first / 1e9, m2->best / 1e9);
	return 0;
}

/* The headline ceilings again, each as one long run at the most threads: the fp64 and fp32
 * peaks (the ISA of the best kernel ceiling) and DRAM's bandwidth (its best kernel, on the
 * working set of its short runs); only: NULL for all of them, else the one of that name (the
 * cluster's second look: one run, which add_sustained keeps if better; the first look's low
 * run was already run twice by confirm_low). */
static int measure_sustained(struct probe_ctx *c, unsigned threads, const int *pus,
			     const char *only, struct rt_err *err)
{
	struct rt_measure_opts o;
	struct rt_cpu_tasks before = { 0 };     /* who else ran there: a flag's words */
	unsigned long long throttled = 0;
	double cores, period;
	int rc = 0;

	sustained_opts(&o, c->o->sustain_seconds);
	for (int prec = 0; prec < RT_KERNEL_NPRECISIONS && !rc; prec++) {
		const struct rt_profile_flops *best = NULL;
		const struct rt_kernel *k = NULL;
		struct rt_measurement m;
		char name[48];

		for (size_t i = 0; i < c->p->nflops; i++) {
			const struct rt_profile_flops *f = &c->p->flops[i];

			if (f->threads == threads && !strcmp(f->precision, rt_precision_name(prec)) &&
			    strstr(f->method, "chains") && !strstr(f->method, "instruction") &&
			    (!best || f->gflops > best->gflops))
				best = f;
		}
		for (int isa = 0; best && isa < RT_ISA_COUNT; isa++)
			if (!strcmp(rt_isa_name((enum rt_isa)isa), best->isa))
				k = rt_kernel_flops((enum rt_isa)isa, (enum rt_precision)prec);
		if (!k)
			continue;
		snprintf(name, sizeof(name), "flops %s %s", best->precision, best->isa);
		if (only && strcmp(only, name))
			continue;
		progress(c->o, "sustained %s %s, %u thread%s, %g s", best->precision, best->isa,
			 threads, threads > 1 ? "s" : "", c->o->sustain_seconds);
		(void)rt_cpu_quota(&cores, &period, &throttled);
		rt_cpu_tasks_free(&before);
		(void)rt_cpu_tasks_take(&before, pus, pus ? threads : 0);
		if ((rc = rt_kernel_measure_flops(k, threads, pus, &o, &m, err)))
			break;
		if (!only && m.best < 0.65 * best->gflops * 1e9) {
			struct rt_measurement m2;

			if ((rc = rt_kernel_measure_flops(k, threads, pus, &o, &m2, err)))
				break;
			confirm_low(c, name, threads, best->gflops * 1e9, &m, &m2);
		}
		rc = add_sustained(c, name, k->name, threads, &m, throttled, &before, err);
	}
	if (!rc && (!only || !strcmp(only, "bw DRAM"))) {
		const struct rt_profile_bw *best = NULL;
		const struct rt_kernel *k;
		struct rt_arena *arena = NULL;
		struct rt_measurement m;
		uint64_t ws;

		for (size_t i = 0; i < c->p->nbw; i++)
			if (c->p->bw[i].threads == threads && !strcmp(c->p->bw[i].level, "DRAM") &&
			    (!best || c->p->bw[i].gbytes_per_s > best->gbytes_per_s))
				best = &c->p->bw[i];
		k = best ? rt_kernel_bw(best->kernel, c->bw_isa) : NULL;
		if (!k)
			goto out;
		ws = bw_set(best);
		progress(c->o, "sustained DRAM %s, %u thread%s, %g s", best->kernel, threads,
			 threads > 1 ? "s" : "", c->o->sustain_seconds);
		if ((rc = rt_arena_create(&arena, threads, pus, ws + 4096, err)))
			goto out;
		(void)rt_cpu_quota(&cores, &period, &throttled);
		rt_cpu_tasks_free(&before);
		(void)rt_cpu_tasks_take(&before, pus, pus ? threads : 0);
		rc = rt_kernel_measure_bw(k, arena, ws, &o, &m, err);
		if (!rc && !only && m.best < 0.65 * best->gbytes_per_s * 1e9) {
			struct rt_measurement m2;

			rc = rt_kernel_measure_bw(k, arena, ws, &o, &m2, err);
			if (!rc)
				confirm_low(c, "bw DRAM", threads, best->gbytes_per_s * 1e9, &m, &m2);
		}
		rt_arena_destroy(arena);
		if (!rc)
			rc = add_sustained(c, "bw DRAM", k->name, threads, &m, throttled, &before,
					   err);
	}
out:
	rt_cpu_tasks_free(&before);
	return rc;
}

/* One more round of the headline ceilings at a thread count, with the quick harness options:
 * each precision's best FMA-chain ceiling, and the L1 and DRAM loads. A round that did not
 * get its cores (another process took them) adds nothing: rounds are there to show a node
 * that wanders on its own (a shared host's clock and memory), not its neighbours. */
static int measure_round(struct probe_ctx *c, unsigned threads, const int *pus, struct rt_err *err)
{
	struct rt_measure_opts q;
	struct rt_profile *p = c->p;
	int rc = 0;

	rt_measure_opts_default(&q, true);
	for (int prec = 0; prec < RT_PRECISION_COUNT; prec++) {
		struct rt_profile_flops *best = NULL;
		const struct rt_kernel *k = NULL;
		struct rt_measurement m;

		for (size_t i = 0; i < p->nflops; i++) {
			struct rt_profile_flops *f = &p->flops[i];

			if (f->threads == threads && !f->flag[0] && !strcmp(f->method, "fma-chains") &&
			    !strcmp(f->precision, rt_precision_name((enum rt_precision)prec)) &&
			    (!best || f->gflops > best->gflops))
				best = f;
		}
		if (!best || best->nrounds >= RT_PROFILE_MAX_ROUNDS)
			continue;
		for (int isa = 0; isa < RT_ISA_COUNT && !k; isa++)
			if (!strcmp(rt_isa_name((enum rt_isa)isa), best->isa))
				k = rt_kernel_flops((enum rt_isa)isa, (enum rt_precision)prec);
		if (!k)
			continue;
		progress(c->o, "round %u: %s %s, %u thread%s", best->nrounds + 1, best->precision,
			 best->isa, threads, threads > 1 ? "s" : "");
		if ((rc = rt_kernel_measure_flops(k, threads, pus, &q, &m, err)))
			return rc;
		/* an undisturbed round is one more run of the ceiling: the best of them is it */
		if (!lost_cores(&m))
			(void)rt_profile_flops_add_round(best, m.best / 1e9);
	}
	for (size_t i = 0; i < p->nbw; i++) {
		struct rt_profile_bw *b = &p->bw[i];
		const struct rt_kernel *k = rt_kernel_bw(b->kernel, c->bw_isa);
		struct rt_arena *arena = NULL;
		struct rt_measurement m;
		uint64_t ws;

		if (b->threads != threads || b->flag[0] || strcmp(b->kernel, "load") || !k ||
		    (strcmp(b->level, "L1") && strcmp(b->level, "DRAM")) ||
		    b->nrounds >= RT_PROFILE_MAX_ROUNDS)
			continue;
		ws = bw_set(b);
		progress(c->o, "round %u: %s load, %u thread%s", b->nrounds + 1, b->level, threads,
			 threads > 1 ? "s" : "");
		if ((rc = rt_arena_create(&arena, threads, pus, ws + 4096, err)))
			return rc;
		rc = rt_kernel_measure_bw(k, arena, ws, &q, &m, err);
		rt_arena_destroy(arena);
		if (rc)
			return rc;
		if (!lost_cores(&m))
			(void)rt_profile_bw_add_round(b, m.best / 1e9);
	}
	return 0;
}

/* A round of every thread count's headline ceilings (measure_round). */
static int measure_rounds(struct probe_ctx *c, const unsigned *threads, size_t nthreads,
			  int *pus, struct rt_err *err)
{
	int rc = 0;

	for (size_t i = 0; i < nthreads && !rc; i++) {
		rc = rt_topo_placement(c->topo, RT_AFFINITY_COMPACT, threads[i], pus, err);
		if (!rc)
			rc = measure_round(c, threads[i], pus, err);
	}
	return rc;
}

static int probe_run(struct rt_profile **out, const struct rt_topo *topo,
		     const struct rt_probe_opts *o, struct rt_err *err)
{
	struct probe_ctx c = { .topo = topo, .o = o };
	unsigned threads[RT_PROBE_MAX_THREADS_LIST];
	size_t nthreads;
	int *pus = NULL;
	int rc;

	if (!rt_topo_is_this_system(topo))
		return rt_err_set(err, -EINVAL, "the probe runs on this machine's topology only");
	rc = rt_profile_create(&c.p, err);
	if (rc)
		return rc;
	rt_measure_opts_default(&c.mopts, o->quick);
	c.isa_mask = o->isa_mask ? o->isa_mask : (1u << RT_ISA_COUNT) - 1;
	if (widest_isa(c.isa_mask, &c.bw_isa)) {
		rc = rt_err_set(err, -ENOTSUP, "no vector ISA among those selected runs here "
				"(bandwidth kernels need sse, avx2 or avx512)");
		goto out;
	}
	if (o->nthreads) {
		nthreads = o->nthreads;
		memcpy(threads, o->threads, nthreads * sizeof(*threads));
	} else {
		nthreads = rt_probe_topo_threads(topo, threads, RT_PROBE_MAX_THREADS_LIST);
	}
	pus = calloc(rt_topo_pus(topo) + 1, sizeof(*pus));
	if (!pus) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	rc = describe_machine(&c, err);
	if (rc)
		goto out;
	note_other_load(c.p);
	if (o->no_curve) {
		for (size_t k = 0; k < c.ncaches; k++)
			c.levels[k] = (struct rt_level_result){ .hwloc_size = c.cache_cap[k],
								.end = c.cache_cap[k] };
		c.levels[c.ncaches] = (struct rt_level_result){ 0 };
	} else {
		rc = measure_curve(&c, err);
		if (rc)
			goto out;
	}
	if (record_levels(&c)) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	/* the headline ceilings are measured again in rounds spread over the run: one after
	 * every thread count's ceilings, one at the end (the full probe; --quick has none) */
	for (size_t i = 0; i < nthreads; i++) {
		rc = rt_topo_placement(topo, RT_AFFINITY_COMPACT, threads[i], pus, err);
		if (!rc)
			rc = measure_flops(&c, threads[i], pus, err);
		if (!rc)
			rc = measure_peaks(&c, threads[i], pus, i == 0, err);
		if (!rc)
			rc = measure_bandwidth(&c, threads[i], pus, err);
		if (!rc && !o->no_lowp)
			rc = measure_lowp(&c, threads[i], pus, i == 0, err);
		if (!rc && !o->quick && i > 0)
			rc = measure_rounds(&c, threads, i, pus, err);
		if (rc)
			goto out;
	}
	if (!o->quick && (rc = measure_rounds(&c, threads, nthreads, pus, err)))
		goto out;
	if (o->sustain_seconds > 0) {
		unsigned most = threads[0];

		for (size_t i = 1; i < nthreads; i++)
			most = threads[i] > most ? threads[i] : most;
		rc = rt_topo_placement(topo, RT_AFFINITY_COMPACT, most, pus, err);
		if (!rc)
			rc = measure_sustained(&c, most, pus, NULL, err);
		if (rc)
			goto out;
	}
	/* the clock wanders (turbo, a shared host): keep the fastest of a reading before and one
	 * after the ceilings, so that no ceiling is credited to a clock it outran */
	{
		double again = rt_kernel_clock_ghz(o->quick ? 0.03 : 0.1);

		if (again > c.p->cpu.clock_ghz)
			c.p->cpu.clock_ghz = again;
	}
	check_order(&c, pus);
	rt_probe_set_theoretical(c.p);
	rt_probe_check_theoretical(c.p);
	if (rt_profile_judge_rounds(c.p, RT_PROBE_ROUND_TOL) < 0) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	*out = c.p;
	c.p = NULL;
out:
	free(pus);
	rt_profile_destroy(c.p);
	return rc;
}

/* A second run into an entry's figures (G per second): the better run kept, or the entry
 * flagged with mflag when another process disturbed the run. */
static void keep_better(double *best, double *median, double *spread, char *flag, size_t size,
			const struct rt_measurement *m, const char *mflag)
{
	if (mflag[0]) {
		snprintf(flag, size, "%s", mflag);
	} else if (m->best / 1e9 > *best) {
		*best = m->best / 1e9;
		*median = m->median / 1e9;
		*spread = m->spread;
	}
}

/* A bandwidth ceiling's entry measured again (its kernel, its working set, on the compact
 * placement of its thread count), the better run kept; a run another process disturbed flags
 * it instead, as remeasure_flops does: 0, or err. */
static int again_bw(const struct probe_ctx *c, struct rt_profile_bw *b, const int *pus,
		    struct rt_err *err)
{
	const struct rt_kernel *k = rt_kernel_bw(b->kernel, c->bw_isa);
	const uint64_t ws = bw_set(b);
	struct rt_arena *arena = NULL;
	struct rt_measurement m;
	char flag[sizeof(b->flag)];
	int rc;

	if (!k)
		return 0;
	if ((rc = rt_arena_create(&arena, b->threads, pus, ws + 4096, err)))
		return rc;
	{
		const struct measure_call mc = { .k = k, .arena = arena, .ws = ws,
						 .threads = b->threads };

		rc = measure_checked(c, &mc, &m, flag, sizeof(flag), err);
	}
	rt_arena_destroy(arena);
	if (!rc)
		keep_better(&b->gbytes_per_s, &b->median, &b->spread, b->flag, sizeof(b->flag), &m,
			    flag);
	return rc;
}

/* A oneDNN matmul's rate measured again, the better run kept (a disturbed one flags it): 0,
 * or err. */
static int again_matmul(const struct probe_ctx *c, struct rt_profile_flops *f, const int *pus,
			struct rt_err *err)
{
	struct rt_matmul_result res;
	const struct measure_call mc = { .threads = f->threads, .pus = pus,
					 .mm = rt_precision_of(f->precision), .mm_res = &res };
	struct rt_measurement m;
	char flag[sizeof(f->flag)];
	int rc = measure_checked(c, &mc, &m, flag, sizeof(flag), err);

	if (!rc)
		keep_better(&f->gflops, &f->median, &f->spread, f->flag, sizeof(f->flag), &m, flag);
	return rc;
}

/* Whether an entry belongs to a cluster ceiling ("flops fp64 avx2", "bw L3") at a thread
 * count. */
static bool flops_is(const struct rt_profile_flops *f, const char *name, unsigned threads)
{
	char n[64];

	snprintf(n, sizeof(n), "flops %s %s", f->precision, f->isa);
	return f->threads == threads && !strcmp(n, name);
}

static bool bw_is(const struct rt_profile_bw *b, const char *name, unsigned threads)
{
	char n[64];

	snprintf(n, sizeof(n), "bw %s", b->level);
	return b->threads == threads && !strcmp(n, name);
}

/* One entry of a cluster ceiling into ceiling_value's figures. */
static void take_entry(const char *flag, double x, double *v, const char **first_flag)
{
	if (flag[0] && !(*first_flag)[0])
		*first_flag = flag;
	if (!flag[0] && x > *v)
		*v = x;
}

/* The value a cluster ceiling of the profile has at a thread count: its best trusted entry's
 * (a sustained run's when sustained), 0 when none; *flag: the first flagged entry's flag, or
 * "". */
static double ceiling_value(const struct rt_profile *p, const char *name, unsigned threads,
			    bool sustained, const char **flag)
{
	double v = 0;

	*flag = "";
	for (size_t i = 0; sustained && i < p->nsustained; i++)
		if (p->sustained[i].threads == threads && !strcmp(p->sustained[i].name, name))
			take_entry(p->sustained[i].flag, p->sustained[i].value, &v, flag);
	for (size_t i = 0; !sustained && i < p->nflops; i++)
		if (flops_is(&p->flops[i], name, threads))
			take_entry(p->flops[i].flag, p->flops[i].gflops, &v, flag);
	for (size_t i = 0; !sustained && i < p->nbw; i++)
		if (bw_is(&p->bw[i], name, threads))
			take_entry(p->bw[i].flag, p->bw[i].gbytes_per_s, &v, flag);
	return v;
}

static int probe_again(struct rt_profile *p, const struct rt_topo *topo,
		       const struct rt_probe_opts *o, const char *ceiling, unsigned threads,
		       bool sustained, const char *why, struct rt_err *err)
{
	struct probe_ctx c = { .topo = topo, .o = o, .p = p };
	const char *flag;
	const double first = ceiling_value(p, ceiling, threads, sustained, &flag);
	int *pus;
	int rc = 0;

	if (!(first > 0))
		return rt_err_set(err, -ENOENT, "no trusted %s%s at %u thread%s in the profile to "
				  "measure again", sustained ? "sustained run of " : "", ceiling,
				  threads, threads > 1 ? "s" : "");
	if (!(pus = calloc(rt_topo_pus(topo) + 1, sizeof(*pus))))
		return rt_err_set(err, -ENOMEM, "out of memory");
	rt_measure_opts_default(&c.mopts, o->quick);
	c.isa_mask = o->isa_mask ? o->isa_mask : (1u << RT_ISA_COUNT) - 1;
	if (widest_isa(c.isa_mask, &c.bw_isa) ||
	    (rc = rt_topo_placement(topo, RT_AFFINITY_COMPACT, threads, pus, err)))
		goto out;
	if (sustained)
		rc = measure_sustained(&c, threads, pus, ceiling, err);
	else
		progress(o, "%s again, %u thread%s", ceiling, threads, threads > 1 ? "s" : "");
	for (size_t i = 0; !sustained && !rc && i < p->nflops; i++) {
		struct rt_profile_flops *f = &p->flops[i];
		double share;

		if (f->flag[0] || !flops_is(f, ceiling, threads))
			continue;
		if (!strcmp(f->method, "onednn-matmul"))
			rc = again_matmul(&c, f, pus, err);
		else
			(void)remeasure_flops(&c, f, pus, &share);
	}
	for (size_t i = 0; !sustained && !rc && i < p->nbw; i++)
		if (!p->bw[i].flag[0] && bw_is(&p->bw[i], ceiling, threads))
			rc = again_bw(&c, &p->bw[i], pus, err);
	if (!rc) {
		const double kept = ceiling_value(p, ceiling, threads, sustained, &flag);
		char how[sizeof(p->sustained[0].flag) + 32];

		if (!(kept > 0))
			snprintf(how, sizeof(how), "and disturbed: %s", flag);
		else if (kept > first)
			snprintf(how, sizeof(how), "%.2f then %.2f (the better kept)", first, kept);
		else
			snprintf(how, sizeof(how), "no better than %.2f", first);
		rt_profile_add_note(p, "%s%s at %u thread%s: %s; measured again, %s",
				    sustained ? "sustained " : "", ceiling, threads,
				    threads > 1 ? "s" : "", why, how);
	}
out:
	free(pus);
	return rc;
}

int rt_probe_again(struct rt_profile *p, const struct rt_topo *topo,
		   const struct rt_probe_opts *o, const char *ceiling, unsigned threads,
		   bool sustained, const char *why, struct rt_err *err)
{
	struct rt_topo_affinity saved;
	struct rt_err err2;
	int rc = rt_topo_affinity_save(&saved, err);

	if (rc)
		return rc;
	/* as rt_probe_run: the CPUs this process had before, back after */
	rc = probe_again(p, topo, o, ceiling, threads, sustained, why, err);
	if (rt_topo_affinity_restore(&saved, rt_topo_pus(topo), &err2) && !rc)
		rc = rt_err_set(err, err2.code, "%s", err2.msg);
	return rc;
}

int rt_probe_run(struct rt_profile **out, const struct rt_topo *topo,
		 const struct rt_probe_opts *o, struct rt_err *err)
{
	struct rt_topo_affinity saved;
	struct rt_err err2;
	unsigned most = rt_topo_pus(topo);
	int rc = rt_topo_affinity_save(&saved, err);

	if (rc)
		return rc;
	/* the kernels pin this thread and the OpenMP pool's: whatever runs after the probe in
	 * this process, and every process it starts, gets the CPUs it had before */
	rc = probe_run(out, topo, o, err);
	for (size_t i = 0; i < o->nthreads; i++)
		most = o->threads[i] > most ? o->threads[i] : most;
	if (rt_topo_affinity_restore(&saved, most, &err2) && !rc) {
		rt_profile_destroy(*out);
		*out = NULL;
		rc = rt_err_set(err, err2.code, "%s", err2.msg);
	}
	return rc;
}
