/* levels.c: plateau and boundary detection on a bandwidth-vs-working-set curve */
#include "config.h"
#include "node/levels.h"
#include "base/util.h"
#include "machine/topo.h"

#include <math.h>
#include <stdlib.h>

#define MAX_POINTS 512

static double median3(double a, double b, double c)
{
	if (a > b) {
		double t = a;
		a = b;
		b = t;
	}
	return c < a ? a : (c > b ? b : c);
}

/* Median of smoothed log bandwidth over points with ws in [lo, hi]; NAN when none. */
static double plateau(const uint64_t *ws, const double *s, size_t n, double lo, double hi)
{
	double v[MAX_POINTS];
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if ((double)ws[i] >= lo && (double)ws[i] <= hi)
			v[m++] = s[i];
	return m ? rt_median(v, m) : NAN;
}

/* Whether the smoothed curve is flat within sig over [ws[i], 3 ws[i]] (at least 3 points);
 * *med: its median there. */
static bool flat_from(const uint64_t *ws, const double *s, size_t n, size_t i, double sig,
		      double *med)
{
	double lo = INFINITY, hi = -INFINITY, v[MAX_POINTS];
	size_t m = 0;

	for (size_t j = i; j < n && (double)ws[j] <= 3.0 * (double)ws[i]; j++) {
		lo = s[j] < lo ? s[j] : lo;
		hi = s[j] > hi ? s[j] : hi;
		v[m++] = s[j];
	}
	if (m < 3 || hi - lo > sig)
		return false;
	*med = rt_median(v, m);
	return true;
}

/* Into s: the 3-point median of log bandwidth (the ends as they are); returns n, at most
 * MAX_POINTS. */
static size_t smooth(const double *bw, size_t n, double *s)
{
	double lb[MAX_POINTS];

	if (n > MAX_POINTS)
		n = MAX_POINTS;
	for (size_t i = 0; i < n; i++)
		lb[i] = log(bw[i] > 0 ? bw[i] : 1e-30);
	for (size_t i = 0; i < n; i++)
		s[i] = (i == 0 || i + 1 == n) ? lb[i] : median3(lb[i - 1], lb[i], lb[i + 1]);
	return n;
}

size_t rt_levels_plateaus(const uint64_t *ws, const double *bw, size_t n, struct rt_plateau *out,
			  size_t max)
{
	const double sig = log(1.15);
	double s[MAX_POINTS];
	size_t got = 0, i = 0;

	n = smooth(bw, n, s);
	while (i < n && got < max) {
		double ref, v[MAX_POINTS];
		size_t j, m = 0;

		if (!flat_from(ws, s, n, i, sig, &ref)) {
			i++;
			continue;
		}
		/* on while within sig below the start's median; two points below in a row end it */
		for (j = i; j < n; j++)
			if (s[j] < ref - sig && (j + 1 == n || s[j + 1] < ref - sig))
				break;
		for (size_t k = i; k < j; k++)
			v[m++] = s[k];
		out[got++] = (struct rt_plateau){ ws[i], ws[j - 1], exp(rt_median(v, m)) };
		i = j;
	}
	return got;
}

void rt_levels_analyze(const uint64_t *ws, const double *bw, size_t n, const uint64_t *caches,
		       size_t ncaches, double min_drop, struct rt_level_result *out)
{
	double s[MAX_POINTS], prev_end;
	const double sig = log(1.0 + min_drop);
	struct rt_plateau pl[RT_TOPO_MAX_CACHES + 2];
	const size_t npl = rt_levels_plateaus(ws, bw, n, pl, RT_TOPO_MAX_CACHES + 2);

	n = smooth(bw, n, s);
	prev_end = n ? (double)ws[0] : 0;
	for (size_t k = 0; k < ncaches; k++) {
		struct rt_level_result *r = &out[k];
		double c = (double)caches[k], lo = c / 16, hi = c * 8, best = -INFINITY;
		size_t jbest = 0;

		if (lo < prev_end * 1.4)
			lo = prev_end * 1.4;
		r->hwloc_size = caches[k];
		r->found = r->agrees = false;
		r->plateau = 0;
		for (size_t j = 1; j + 1 < n; j++) {
			double d;

			if ((double)ws[j] < lo || (double)ws[j] > hi)
				continue;
			d = s[j - 1] - s[j + 1];
			if (d > best) {
				best = d;
				jbest = j;
			}
		}
		if (jbest) {
			double e = (double)ws[jbest];
			double before = plateau(ws, s, n, prev_end * 1.2, e / 1.5);
			double after = plateau(ws, s, n, e * 1.5, e * 4);

			if (!isnan(before) && !isnan(after) && before - after >= sig) {
				r->found = true;
				r->end = ws[jbest];
				r->plateau = exp(before);
				/* the level ends where its plateau does, not in the middle of a
				 * transition that spans more than a factor of 1.5 (a VM's L3 into
				 * DRAM: a factor of four to six); a sharper drop is its own end */
				for (size_t p = npl; p-- > 0;)
					if (pl[p].end <= ws[jbest] && (double)pl[p].end > prev_end * 1.4) {
						if (3 * pl[p].end < 2 * ws[jbest] &&
						    8 * pl[p].end >= ws[jbest])
							r->end = pl[p].end;
						break;
					}
			}
		}
		/* a named size past where bandwidth really leaves the level (a VM's 508 MiB L3):
		 * the curve's own plateau that ends between the previous level and that size */
		for (size_t p = 0; !r->found && p + 1 < npl; p++)
			if ((double)pl[p].end > prev_end * 1.4 && (double)pl[p].end < c / 1.5) {
				r->found = true;
				r->end = pl[p].end;
				r->plateau = pl[p].value;
			}
		if (!r->found) {
			double before = plateau(ws, s, n, prev_end * 1.2, c / 1.5);

			r->end = caches[k];
			r->plateau = isnan(before) ? 0 : exp(before);
		}
		r->agrees = r->found && (double)r->end >= c / 2 && (double)r->end <= c * 2;
		prev_end = (double)r->end;
	}
	{
		struct rt_level_result *d = &out[ncaches];
		double p = plateau(ws, s, n, prev_end * 1.5, INFINITY);

		d->hwloc_size = 0;
		d->end = 0;
		d->start = npl && pl[npl - 1].end == ws[n - 1] &&
			   (double)pl[npl - 1].start > prev_end ? pl[npl - 1].start : 0;
		d->found = !isnan(p);
		d->agrees = d->found;
		d->plateau = isnan(p) ? 0 : exp(p);
	}
}

uint64_t rt_levels_working_set(const struct rt_level_result *lv, size_t ncaches, size_t k)
{
	uint64_t ws;

	if (k >= ncaches) {
		uint64_t last = ncaches ? lv[ncaches - 1].end : 0;

		ws = 4 * last;
		if (ws < 2 * lv[ncaches].start)
			ws = 2 * lv[ncaches].start;
		if (ws < ((uint64_t)64 << 20))
			ws = (uint64_t)64 << 20;
		return (ws + 4095) & ~(uint64_t)4095;   /* round up: stay past the last cache */
	} else {
		uint64_t end = lv[k].end, lo = k ? 2 * lv[k - 1].end : 0;

		ws = end / 2;
		if (ws < lo)
			ws = (uint64_t)sqrt((double)lv[k - 1].end * (double)end);
	}
	return ws & ~(uint64_t)4095 ? ws & ~(uint64_t)4095 : ws;
}

uint64_t rt_levels_thread_set(const struct rt_level_result *lv, size_t ncaches, size_t k,
			      unsigned threads, unsigned shared_by, uint64_t memory)
{
	uint64_t one = rt_levels_working_set(lv, ncaches, k);

	if (!threads)
		threads = 1;
	if (k < ncaches) {
		/* compact placement fills one instance's cores before the next instance's */
		one /= threads < shared_by ? threads : (shared_by ? shared_by : 1);
	} else {
		if (memory && one > memory / 12)
			one = memory / 12;
		one /= threads;
	}
	return one & ~(uint64_t)4095;
}

bool rt_levels_settled(const uint64_t *ws, const double *bw, size_t n, const uint64_t *caches,
		       size_t ncaches, uint64_t *end)
{
	struct rt_level_result lv[RT_TOPO_MAX_CACHES + 1];
	double lo = 0, hi = 0;

	*end = 0;
	if (!ncaches && n >= 3) {
		struct rt_plateau pl[RT_TOPO_MAX_CACHES + 2];
		size_t np = rt_levels_plateaus(ws, bw, n, pl, RT_TOPO_MAX_CACHES + 2);

		if (np < 2 || pl[np - 1].end != ws[n - 1] || ws[n - 1] < 3 * pl[np - 1].start)
			return false;
		*end = pl[np - 2].end;
		return true;
	}
	if (ncaches > RT_TOPO_MAX_CACHES || n < 3)
		return false;
	rt_levels_analyze(ws, bw, n, caches, ncaches, 0.15, lv);
	*end = lv[ncaches - 1].end;
	if (!lv[ncaches - 1].found || ws[n - 1] < 2 * *end)
		return false;
	for (size_t i = n; i-- > 0 && 2 * ws[i] >= ws[n - 1];) {
		const size_t m = i == 0 ? 1 : i == n - 1 ? n - 2 : i;
		const double v = median3(bw[m - 1], bw[m], bw[m + 1]);

		lo = lo == 0 || v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	return lo > 0 && hi <= 1.15 * lo;
}
