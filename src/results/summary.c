/* summary.c: the roofline bound of a point; summary.txt, its one writer for every workload, and
 * the trainer's sections of it */
#include "config.h"
#include "results/summary.h"
#include "node/roofs.h"
#include "base/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char rt_bound_above_why[] =
	"the profile measured this node slower than it ran here (probed at another time, under "
	"other load, or with a virtual machine's CPUs placed otherwise): its roofs are not the "
	"node's limits now; probe it again (roofline-probe) before reading distances to them";

int rt_point_bound(const struct rt_point *p, const struct rt_roofbook *book, struct rt_bound *b)
{
	const unsigned threads = rt_point_threads(p);
	const struct rt_roofs *r = rt_roofbook_at(book, threads);
	/* roofs of fewer threads (the point's own count's ceilings all flagged, or never
	 * measured) scaled to an upper bound at its count, and said so */
	const double k = rt_roofs_scale(r, threads);
	struct rt_roof_bound rb;
	char sc[48] = "";

	memset(b, 0, sizeof(*b));
	if (!r || rt_roofs_bound(r, rt_roofs_ceiling(r, rt_point_precision_name(p)), NULL,
				 p->bytes, p->intensity, &rb))
		return -ENOENT;
	if (k > 1)
		snprintf(sc, sizeof(sc), " (%u-thread x %.3g)", r->threads, k);
	b->level = rb.level;
	b->memory_bound = rb.memory_bound;
	b->attainable = rb.attainable * k;
	b->bandwidth = rb.memory_bound ? rb.roof->value * k : 0;
	if (rb.memory_bound)
		snprintf(b->ceiling, sizeof(b->ceiling), "%s %s %.1f GB/s%s%s%s%s", rb.roof->level,
			 rb.roof->what, rb.roof->value * k, sc, rb.no_peak ? " (no " : "",
			 rb.no_peak ? rt_point_precision_name(p) : "", rb.no_peak ? " peak)" : "");
	else
		snprintf(b->ceiling, sizeof(b->ceiling), "%s %s %.1f GFLOP/s%s", rb.roof->precision,
			 rb.roof->what, rb.roof->value * k, sc);
	b->fraction = b->attainable > 0 ? p->gflops / b->attainable : 0;
	b->above = b->fraction > 1;
	return 0;
}

/* Whether a and b are configurations that differ in threads at most (and in batch too, with
 * batch_too). */
static bool same_but_threads(const struct rt_point *a, const struct rt_point *b, bool batch_too)
{
	return (batch_too || a->batch == b->batch) && a->precision == b->precision &&
	       a->affinity == b->affinity && a->ranks == b->ranks && a->input_h == b->input_h &&
	       a->input_w == b->input_w;
}

/* The iteration medians of the undisturbed configurations that ran, at most max of them. */
static size_t measured(const struct rt_point *pts, size_t n, const struct rt_point **out,
		       size_t max)
{
	size_t k = 0;

	for (size_t i = 0; i < n && k < max; i++)
		if (pts[i].scope == RT_SCOPE_ITERATION && pts[i].stat == RT_STAT_MEDIAN &&
		    pts[i].status == RT_STATUS_OK && pts[i].gflops > 0 && pts[i].threads)
			out[k++] = &pts[i];
	return k;
}

/* How the sweep's thread counts scaled, where it has two or more of one batch: each count's
 * parallel efficiency against the fewest (GFLOP/s ratio over thread ratio) and the images
 * each thread had (the batch, per rank, over the threads); at the most threads below 3/4 of
 * linear, what the batch knob showed there (a larger batch ran faster, outside both ranges,
 * or not), or how to measure it where the sweep did not vary the batch. */
void rt_summary_scaling(FILE *fp, const struct rt_point *pts, size_t n)
{
	const struct rt_point *m[256];
	const size_t k = measured(pts, n, m, sizeof(m) / sizeof(m[0]));
	bool said[256] = { false };

	for (size_t i = 0; i < k; i++) {
		const struct rt_point *lo = m[i], *hi = m[i];
		size_t cnt = 0, seen = 0;

		if (said[i])
			continue;
		for (size_t j = i; j < k; j++)
			if (same_but_threads(m[i], m[j], false)) {
				said[j] = true;
				cnt++;
				lo = m[j]->threads < lo->threads ? m[j] : lo;
				hi = m[j]->threads > hi->threads ? m[j] : hi;
			}
		if (cnt < 2 || lo->threads == hi->threads)
			continue;
		fprintf(fp, "\nthreads at batch %ld (%s, %s): from %u thread%s, %.1f GFLOP/s "
			"(%.3g images a thread):", lo->batch, rt_precision_name(lo->precision),
			rt_affinity_name(lo->affinity), lo->threads, lo->threads > 1 ? "s" : "",
			lo->gflops, (double)lo->batch / lo->threads);
		for (unsigned t = lo->threads + 1; t <= hi->threads; t++)
			for (size_t j = 0; j < k; j++)
				if (m[j]->threads == t && same_but_threads(m[i], m[j], false))
					fprintf(fp, "%s %u threads %.0f%% of linear (%.3g)",
						seen++ ? "," : "", t,
						100 * (m[j]->gflops / lo->gflops) /
						((double)t / lo->threads), (double)m[j]->batch / t);
		fputc('\n', fp);
		{
			const double eff = (hi->gflops / lo->gflops) / ((double)hi->threads / lo->threads);
			const struct rt_point *big = NULL;
			enum rt_faster f = RT_FASTER_NO;
			double x = 0;

			if (eff >= 0.75)
				continue;
			/* the largest batch measured at the most threads */
			for (size_t j = 0; j < k; j++)
				if (m[j]->threads == hi->threads && same_but_threads(hi, m[j], true) &&
				    m[j]->batch > hi->batch && (!big || m[j]->batch > big->batch))
					big = m[j];
			if (big) {
				const struct rt_spread a = rt_points_rate_spread(pts, n, big,
										 big->flops / 1e9,
										 big->gflops),
						       b = rt_points_rate_spread(pts, n, hi,
										 hi->flops / 1e9,
										 hi->gflops);

				f = rt_points_faster(&a, &b, true, &x);
			}
			if (!big)
				fprintf(fp, "at %u threads each thread had %.3g images of the batch of "
					"%ld and the threads ran at %.0f%% of linear: whether a larger "
					"batch fills them, --sweep threads=%u --sweep batch=%ld,%ld,%ld "
					"measures (the sweep did not vary the batch there)\n", hi->threads,
					(double)hi->batch / hi->threads, hi->batch, 100 * eff, hi->threads,
					hi->batch, 2 * hi->batch, 4 * hi->batch);
			else if (f == RT_FASTER_YES || f == RT_FASTER_UNKNOWN)
				fprintf(fp, "at %u threads batch %ld (%.3g images a thread) ran %.2fx "
					"the GFLOP/s of batch %ld (%.3g)%s\n", hi->threads, big->batch,
					(double)big->batch / hi->threads, x, hi->batch,
					(double)hi->batch / hi->threads, f == RT_FASTER_YES ?
					", outside both ranges: more images a thread fill the threads "
					"better" : " from one run of each: the spread is not known (use "
					"-r 3)");
			else
				fprintf(fp, "at %u threads batch %ld (%.3g images a thread) was not "
					"measurably faster than batch %ld (%.3g; %s): more images a "
					"thread did not fill the threads better\n", hi->threads,
					big->batch, (double)big->batch / hi->threads, hi->batch,
					(double)hi->batch / hi->threads, f == RT_FASTER_NOISE ?
					"the ranges overlap" : "as fast or slower");
		}
	}
}

int rt_summary_write(const char *dir, int (*body)(FILE *fp, void *ctx, struct rt_err *err),
		     void *ctx, const char *tail, FILE *also, struct rt_err *err)
{
	struct rt_outfile of;
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int rc;

	if (!mem)
		return rt_err_set(err, -ENOMEM, "out of memory");
	rc = body(mem, ctx, err);
	if (!rc && tail)
		fprintf(mem, "\n%s\n", tail);
	if (fclose(mem) && !rc)
		rc = rt_err_set(err, -ENOMEM, "out of memory");
	if (!rc && also) {
		fputs(text, also);
		fflush(also);
	}
	if (!rc && !(rc = rt_outfile_open_in(&of, dir, "summary.txt", err))) {
		fputs(text, of.fp);
		rc = rt_outfile_commit(&of, err);
	}
	free(text);
	return rc;
}

int rt_summary_points(FILE *fp, void *ctx, struct rt_err *err)
{
	const struct rt_summary_points *sp = ctx;
	const struct rt_point *pts = sp->pts;
	const size_t n = sp->n;
	struct rt_roofbook *book = NULL;
	struct rt_verdict v;
	char verdict[1024], levels[512];
	size_t above = 0;
	int rc = sp->prof ? rt_roofbook_create(&book, sp->prof, err) : 0;

	if (rc)
		return rc;
	rt_points_verdict(pts, n, sp->default_config, &v);
	rt_points_verdict_text(&v, verdict, sizeof(verdict));
	fprintf(fp, "%s\n", verdict);
	if (v.disturbed)
		fprintf(fp, "%zu configuration%s did not get %s cores (another process or a CPU "
			"quota): marked disturbed below, never compared\n", v.disturbed,
			v.disturbed > 1 ? "s" : "", v.disturbed > 1 ? "their" : "its");
	fprintf(fp, "\n%-22s %10s %9s %10s %15s %7s  %-34s %s\n", "configuration", "images/s",
		"GFLOP/s", "FLOP/byte", "source", "held in", "bound by", "of bound");
	for (size_t i = 0; i < n; i++) {
		const struct rt_point *p = &pts[i];
		struct rt_bound b;
		char src[40];

		/* a failed configuration's one row is its iteration median */
		if (p->scope != RT_SCOPE_ITERATION || p->stat != RT_STAT_MEDIAN)
			continue;
		if (p->status == RT_STATUS_FAILED) {
			fprintf(fp, "%-22s failed: %s\n", p->config, p->reason);
			continue;
		}
		/* the FLOPs' source, and the bytes' where it is another */
		rt_point_sources(p, src, sizeof(src));
		if (p->status == RT_STATUS_DISTURBED) {
			fprintf(fp, "%-22s %10.1f %9.1f %10.2f %15s disturbed: %s\n", p->config,
				p->images_per_s, p->gflops, p->intensity, src, p->reason);
			continue;
		}
		if (book && rt_point_bound(p, book, &b) == 0) {
			fprintf(fp, "%-22s %10.1f %9.1f %10.2f %15s %7s  %-34s %5.1f%%%s\n",
				p->config, p->images_per_s, p->gflops, p->intensity, src, b.level,
				b.ceiling, 100 * b.fraction, b.above ? " above its roof" : "");
			above += b.above;
		} else
			fprintf(fp, "%-22s %10.1f %9.1f %10.2f %15s %7s  %-34s\n", p->config,
				p->images_per_s, p->gflops, p->intensity, src, "-",
				"(no ceilings for it in the profile)");
	}
	if (above)
		fprintf(fp, "%zu configuration%s ran above %s: %s\n", above, above > 1 ? "s" : "",
			above > 1 ? "their roofs" : "its roof", rt_bound_above_why);
	if (sp->prof && rt_profile_levels_said(sp->prof, levels, sizeof(levels)))
		fprintf(fp, "held in: the levels as the profile sizes them: %s\n", levels);
	rt_summary_scaling(fp, pts, n);
	rt_roofbook_destroy(book);
	return 0;
}
