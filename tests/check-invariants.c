/* check-invariants.c: a helper of t-invariants.sh: every point a sweep wrote is physically
 * possible on the node that ran it. Usage: check-invariants PROFILE POINTS.CSV TOLERANCE. Each measured row (iteration, phase, layer;
 * every statistic) must stay below its precision's best FLOP ceiling at its thread count (the
 * nearest measured at or below it) and below the highest bandwidth roof (L1) times its
 * intensity, both times 1 + TOLERANCE (the roofs of rt_roofs_at: the ones every reader
 * uses); a fused layer's rows carry no rate. */
#include "config.h"
#include "node/profile.h"
#include "results/points.h"
#include "node/roofs.h"
#include "tap.h"

#include <math.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	struct rt_profile *prof = NULL;
	struct rt_point *pts = NULL;
	struct rt_err err;
	size_t n = 0, checked = 0, fused = 0, above_peak = 0, above_bw = 0, unjudged = 0;
	size_t host_took = 0;   /* rows whose probe measured the host taking its threads */
	double tol, worst_peak = 0, worst_bw = 0, others;
	bool disturbed;

	if (argc != 4) {
		printf("Bail out! usage: check-invariants PROFILE POINTS.CSV TOLERANCE\n");
		return 1;
	}
	tol = strtod(argv[3], NULL);
	/* CPUs other processes kept busy beside the probe (t-invariants.sh measures it) */
	others = getenv("RT_PROBE_OTHERS") ? strtod(getenv("RT_PROBE_OTHERS"), NULL) : 0;
	disturbed = others > 0.1;
	if (disturbed)
		printf("# other processes kept %.2f CPUs busy beside the probe: each row against its "
		       "precision's theoretical peak, the L1 roof not judged\n", others);
	if (!ok(rt_profile_load(&prof, argv[1], &err) == 0, "the probe's profile loads") ||
	    !ok(rt_points_csv_read(argv[2], &pts, &n, &err) == 0 && n > 0, "points.csv reads")) {
		printf("# %s\n", err.msg);
		return done_testing();
	}
	for (size_t i = 0; i < n; i++) {
		const struct rt_point *p = &pts[i];
		struct rt_roofs r;
		const struct rt_roof *f = NULL, *l1 = NULL, *th;
		unsigned t = 0;
		double rp, rb, peak, scale = 1;

		if (rt_roofs_at(&r, prof, rt_point_threads(p), NULL) == 0) {
			f = rt_roofs_ceiling(&r, rt_point_precision_name(p));
			l1 = rt_roofs_bandwidth(&r, "L1");
			t = r.threads;
			/* roofs of fewer threads (its own count's flagged) times the thread ratio:
			 * the upper bound the tools hold it to (rt_roofs_scale) */
			scale = rt_roofs_scale(&r, rt_point_threads(p));
		}

		if (p->status == RT_STATUS_FUSED) {
			fused++;
			if (p->gflops != 0 || p->seconds != 0)
				above_peak++;
			continue;
		}
		/* a disturbed run is a slower one: below the roofs all the same */
		if ((p->status != RT_STATUS_OK && p->status != RT_STATUS_DISTURBED) || !f || !l1)
			continue;
		checked++;
		/* a probe other processes ran beside measures low roofs (a busy sibling hardware
		 * thread halves a vector unit it cannot see it shares): the FLOP roof is then the
		 * precision's theoretical peak (its widest ISA's), physics whatever the load, and
		 * the L1 roof is not judged; a precision without one (its clock not read) is then
		 * no bound at all */
		th = rt_roofs_theoretical(&r, rt_point_precision_name(p));
		if (disturbed && !th) {
			unjudged++;
			continue;
		}
		/* a probe whose threads on as many cores ran at under 3/4 of threads x its one
		 * thread's rate measured the host taking them (a VM's host can, unseen by the
		 * guest, for a minute: 139.7 GFLOP/s at 2 threads against 117.4 at 1), not the
		 * node's roof: that row is held to the precision's theoretical peak, as the tools
		 * call impossible only what is past it */
		{
			struct rt_roofs r1;
			const struct rt_roof *f1;

			if (!disturbed && th && t > 1 && t <= prof->cpu.cores &&
			    rt_roofs_at(&r1, prof, 1, NULL) == 0 && r1.threads == 1 &&
			    (f1 = rt_roofs_ceiling(&r1, rt_point_precision_name(p))) &&
			    !strcmp(f1->what, f->what) && f->value < 0.75 * t * f1->value) {
				if (!host_took++)
					printf("# the probe's %s %s at %u threads (%.1f) is under 3/4 of %u "
					       "x its 1-thread %.1f: rows held to the theoretical peak "
					       "%.1f\n", f->precision, f->what, t, f->value, t,
					       f1->value, th->value);
				f = th;
			}
		}
		peak = (disturbed ? th->value : f->value) * scale;
		rp = p->gflops / peak;
		rb = p->intensity > 0 && !disturbed ? p->gflops / (l1->value * scale * p->intensity) :
		     0;
		if (rp > 1 + tol) {
			above_peak++;
			printf("# %s %s %s %s: %.1f GFLOP/s above the %s %s peak %.1f at %u threads "
			       "x %.3g\n",
			       p->config, rt_point_scope_name(p), p->name, rt_point_stat_name(p), p->gflops,
			       f->precision, f->what, peak, t, scale);
		}
		if (rb > 1 + tol) {
			above_bw++;
			printf("# %s %s %s %s: %.1f GFLOP/s above L1 %.1f GB/s x %.3g FLOP/byte\n",
			       p->config, rt_point_scope_name(p), p->name, rt_point_stat_name(p), p->gflops, l1->value,
			       p->intensity);
		}
		worst_peak = fmax(worst_peak, rp);
		worst_bw = fmax(worst_bw, rb);
	}
	{
		bool busy = false;

		for (size_t i = 0; i < prof->nnotes; i++)
			busy |= strstr(prof->notes[i], "busy with other work") != NULL;
		/* another process on the cores can leave the probe no trusted ceiling to check
		 * against: said, not failed; on a quiet machine there is always one */
		if (!checked && busy)
			skip("no row checked: the probe saw a busy machine and trusted no ceiling");
		else
			ok(checked > 0, "%zu measured rows checked, %zu fused rows", checked, fused);
	}
	if (unjudged)
		printf("# %zu rows not judged: their ceiling has no theoretical peak, and its measure "
		       "was taken beside other work\n", unjudged);
	is_int((long long)above_peak, 0, "no row above its precision's peak x %.2f (the highest: "
	       "%.2f of it)", 1 + tol, worst_peak);
	is_int((long long)above_bw, 0, "no row above the L1 roof x its intensity x %.2f (the "
	       "highest: %.2f of it)", 1 + tol, worst_bw);
	free(pts);
	rt_profile_destroy(prof);
	return done_testing();
}
