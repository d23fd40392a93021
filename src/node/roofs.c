/* roofs.c: a profile's trusted ceilings at a thread count as roofs, the roof of a point's math,
 * and its bound */
#include "config.h"
#include "node/roofs.h"
#include "base/vocab.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool add(struct rt_roofs *r, struct rt_roof roof)
{
	if (r->n == RT_ROOFS_MAX)
		return false;
	r->roof[r->n++] = roof;
	return true;
}

/* The lowest of a ceiling's rounds, 0 with fewer than 2 (no spread to draw). */
static double lowest(const double *rounds, unsigned n)
{
	double lo = 0;

	for (unsigned i = 0; n >= 2 && i < n; i++)
		if (isfinite(rounds[i]) && rounds[i] > 0 && (lo == 0 || rounds[i] < lo))
			lo = rounds[i];
	return lo;
}

/* Fill r with the roofs at exactly t threads; false when the FLOP or the bandwidth side has
 * nothing trusted there. */
/* Who named a memory level, where not hwloc (a level of a profile older than the key: hwloc). */
static const char *level_source(const struct rt_profile *p, const char *level)
{
	for (size_t k = 0; k < p->nlevels; k++)
		if (!strcmp(p->levels[k].level, level) && strcmp(p->levels[k].source, "hwloc"))
			return p->levels[k].source;
	return "";
}

static bool roofs_exactly(struct rt_roofs *r, const struct rt_profile *p, unsigned t)
{
	size_t nflops = 0, nbw = 0;

	r->n = 0;
	r->threads = t;
	for (size_t i = 0; i < p->nflops; i++) {
		const struct rt_profile_flops *f = &p->flops[i];
		bool mine = false;

		if (f->threads != t)
			continue;
		if (!f->flag[0] && f->gflops > 0 && isfinite(f->gflops))
			nflops += add(r, (struct rt_roof){ RT_ROOF_FLOPS,
					     strcmp(f->method, "onednn-matmul") ? RT_ROOF_MEASURED :
					     RT_ROOF_ACHIEVABLE, f->precision, "", f->isa, f->gflops,
					     f->theoretical > 0 && isfinite(f->theoretical) ?
					     f->theoretical : 0, lowest(f->rounds, f->nrounds), "" });
		/* the theoretical peak is no measurement: a flagged ceiling's counts too */
		if (!(f->theoretical > 0) || !isfinite(f->theoretical))
			continue;
		/* one theoretical roof a precision: the highest of its ISAs */
		for (size_t k = 0; k < r->n; k++) {
			struct rt_roof *q = &r->roof[k];

			if (q->basis == RT_ROOF_THEORETICAL && !strcmp(q->precision, f->precision)) {
				mine = true;
				if (f->theoretical > q->value) {
					/* its own peak is its value: a reader asking a roof
					 * for its theoretical peak gets the widest ISA's */
					q->value = q->theoretical = f->theoretical;
					q->what = f->isa;
				}
			}
		}
		if (!mine)
			add(r, (struct rt_roof){ RT_ROOF_FLOPS, RT_ROOF_THEORETICAL, f->precision, "",
						 f->isa, f->theoretical, f->theoretical, 0, "" });
	}
	for (size_t l = 0; l < RT_VOCAB_NLEVELS; l++) {
		const struct rt_profile_bw *b = rt_profile_best_bw(p, rt_vocab_levels[l], t);

		if (b && b->gbytes_per_s > 0 && isfinite(b->gbytes_per_s))
			nbw += add(r, (struct rt_roof){ RT_ROOF_BANDWIDTH, RT_ROOF_MEASURED, "",
							b->level, b->kernel, b->gbytes_per_s, 0,
							lowest(b->rounds, b->nrounds),
							level_source(p, b->level) });
	}
	return nflops && nbw;
}

int rt_roofs_at(struct rt_roofs *r, const struct rt_profile *p, unsigned threads,
		struct rt_err *err)
{
	memset(r, 0, sizeof(*r));
	r->prof = p;
	for (unsigned t = rt_profile_nearest_threads(p, threads); t > 0;
	     t = rt_profile_nearest_threads(p, t - 1))
		if (roofs_exactly(r, p, t))
			return 0;
	r->n = 0;
	{
		/* why: none at all, or every one flagged */
		size_t nf = 0, nb = 0, ff = 0, fb = 0;

		for (size_t i = 0; i < p->nflops; i++)
			if (p->flops[i].threads <= threads) {
				nf++;
				ff += p->flops[i].flag[0] != '\0';
			}
		for (size_t i = 0; i < p->nbw; i++)
			if (p->bw[i].threads <= threads) {
				nb++;
				fb += p->bw[i].flag[0] != '\0';
			}
		return rt_err_set(err, -ENOENT, "the profile has no trusted FLOP and bandwidth "
				  "ceilings at %u thread%s (%zu FLOP ceilings, %zu of them "
				  "flagged; %zu bandwidth ceilings, %zu flagged)", threads,
				  threads == 1 ? "" : "s or fewer", nf, ff, nb, fb);
	}
}

static const struct rt_roof *best(const struct rt_roofs *r, enum rt_roof_kind kind,
				  bool theoretical, const char *name)
{
	const struct rt_roof *b = NULL;

	for (size_t i = 0; i < r->n; i++) {
		const struct rt_roof *q = &r->roof[i];

		if (q->kind != kind || (q->basis == RT_ROOF_THEORETICAL) != theoretical ||
		    strcmp(kind == RT_ROOF_FLOPS ? q->precision : q->level, name))
			continue;
		if (!b || q->value > b->value)
			b = q;
	}
	return b;
}

const struct rt_roof *rt_roofs_peak(const struct rt_roofs *r, const char *precision)
{
	return best(r, RT_ROOF_FLOPS, false, precision);
}

const struct rt_roof *rt_roofs_theoretical(const struct rt_roofs *r, const char *precision)
{
	return best(r, RT_ROOF_FLOPS, true, precision);
}

const struct rt_roof *rt_roofs_bandwidth(const struct rt_roofs *r, const char *level)
{
	return best(r, RT_ROOF_BANDWIDTH, false, level);
}

const struct rt_roof *rt_roofs_ceiling(const struct rt_roofs *r, const char *precision)
{
	const struct rt_roof *b = NULL;

	for (size_t i = 0; i < r->n; i++) {
		const struct rt_roof *q = &r->roof[i];

		if (q->kind == RT_ROOF_FLOPS && q->basis == RT_ROOF_MEASURED &&
		    !strcmp(q->precision, precision) && (!b || q->value > b->value))
			b = q;
	}
	{
		const struct rt_roof *th = rt_roofs_theoretical(r, precision);

		/* a narrower ISA's ceiling, when a wider one (a higher theoretical peak) has none
		 * trusted: not a limit */
		if (b && th && b->theoretical > 0 && b->theoretical < th->value * 0.999)
			return th;
		return b ? b : th;
	}
}

/* A precision's ceiling, or with limit its theoretical peak (the ceiling without one) */
static const struct rt_roof *roof_of(const struct rt_roofs *r, const char *precision, bool limit)
{
	const struct rt_roof *t = limit ? rt_roofs_theoretical(r, precision) : NULL;

	return t ? t : rt_roofs_ceiling(r, precision);
}

const struct rt_roof *rt_roofs_math(const struct rt_roofs *r, const char *precision, bool told,
				    bool limit)
{
	const struct rt_roof *b = roof_of(r, precision, limit);
	const struct rt_roof *f = told ? NULL : roof_of(r, "fp32", limit);

	return f && (!b || f->value >= b->value) ? f : b;
}

int rt_roofs_bound(const struct rt_roofs *r, const struct rt_roof *ceiling, const char *level,
		   double bytes, double intensity, struct rt_roof_bound *b)
{
	const struct rt_roof *bw;
	double mem;

	memset(b, 0, sizeof(*b));
	if (!level)
		level = rt_profile_holding_level(r->prof, bytes, r->threads);
	bw = rt_roofs_bandwidth(r, level);
	if (!bw) {
		/* no trusted roof of that level: DRAM's, the lowest */
		level = "DRAM";
		bw = rt_roofs_bandwidth(r, level);
	}
	if (!bw)
		return -ENOENT;
	mem = bw->value * intensity;
	b->level = level;
	b->bandwidth = bw;
	b->ridge = ceiling ? ceiling->value / bw->value : INFINITY;
	/* no FLOP ceiling of its precision: its memory roof still bounds it */
	b->memory_bound = !ceiling || mem < ceiling->value;
	b->roof = b->memory_bound ? bw : ceiling;
	b->attainable = b->memory_bound ? mem : ceiling->value;
	b->no_peak = !ceiling;
	return 0;
}

int rt_roofbook_create(struct rt_roofbook **out, const struct rt_profile *p, struct rt_err *err)
{
	struct rt_roofbook *b = calloc(1, sizeof(*b));
	size_t cap = p->nflops + 1;

	*out = NULL;
	if (!b || !(b->at = calloc(cap, sizeof(*b->at))) ||
	    !(b->threads = calloc(cap, sizeof(*b->threads)))) {
		rt_roofbook_destroy(b);
		return rt_err_set(err, -ENOMEM, "out of memory");
	}
	b->prof = p;
	/* each thread count the profile measured, ascending, that has trusted roofs */
	for (unsigned t = rt_profile_nearest_threads(p, ~0u); t > 0;
	     t = rt_profile_nearest_threads(p, t - 1)) {
		struct rt_roofs r = { .prof = p };

		if (b->n < cap && roofs_exactly(&r, p, t)) {
			b->at[b->n] = r;
			b->threads[b->n++] = t;
		}
	}
	/* found descending: reverse */
	for (size_t i = 0; i < b->n / 2; i++) {
		struct rt_roofs r = b->at[i];
		unsigned t = b->threads[i];

		b->at[i] = b->at[b->n - 1 - i];
		b->threads[i] = b->threads[b->n - 1 - i];
		b->at[b->n - 1 - i] = r;
		b->threads[b->n - 1 - i] = t;
	}
	*out = b;
	return 0;
}

void rt_roofbook_destroy(struct rt_roofbook *b)
{
	if (!b)
		return;
	free(b->at);
	free(b->threads);
	free(b);
}

double rt_roofs_scale(const struct rt_roofs *r, unsigned threads)
{
	return r && r->threads > 0 && threads > r->threads ? (double)threads / r->threads : 1;
}

const struct rt_roofs *rt_roofbook_at(const struct rt_roofbook *b, unsigned threads)
{
	const struct rt_roofs *r = NULL;

	for (size_t i = 0; b && i < b->n && b->threads[i] <= threads; i++)
		r = &b->at[i];
	return r;
}
