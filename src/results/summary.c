/* summary.c: the roofline bound of a point and summary.txt */
#include "config.h"
#include "results/summary.h"
#include "node/roofs.h"
#include "base/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int rt_point_bound(const struct rt_point *p, const struct rt_roofbook *book, struct rt_bound *b)
{
	const struct rt_roofs *r = rt_roofbook_at(book, rt_point_threads(p));
	struct rt_roof_bound rb;

	memset(b, 0, sizeof(*b));
	if (!r || rt_roofs_bound(r, rt_point_precision_name(p), p->bytes, p->intensity, &rb))
		return -ENOENT;
	b->level = rb.level;
	b->memory_bound = rb.memory_bound;
	b->attainable = rb.attainable;
	b->bandwidth = rb.memory_bound ? rb.roof->value : 0;
	if (rb.memory_bound)
		snprintf(b->ceiling, sizeof(b->ceiling), "%s %s %.1f GB/s%s%s%s", rb.roof->level,
			 rb.roof->what, rb.roof->value, rb.no_peak ? " (no " : "",
			 rb.no_peak ? rt_point_precision_name(p) : "", rb.no_peak ? " peak)" : "");
	else
		snprintf(b->ceiling, sizeof(b->ceiling), "%s %s %.1f GFLOP/s", rb.roof->precision,
			 rb.roof->what, rb.roof->value);
	b->fraction = b->attainable > 0 ? p->gflops / b->attainable : 0;
	return 0;
}

int rt_summary_write(const char *path, const struct rt_point *pts, size_t n,
		      const char *default_config, const struct rt_profile *prof, FILE *also,
		      struct rt_err *err)
{
	struct rt_roofbook *book = NULL;
	struct rt_verdict v;
	struct rt_outfile of;
	char verdict[1024];
	FILE *outs[2];
	int rc = prof ? rt_roofbook_create(&book, prof, err) : 0;

	if (rc || (rc = rt_outfile_open(&of, path, err))) {
		rt_roofbook_destroy(book);
		return rc;
	}
	rt_points_verdict(pts, n, default_config, &v);
	rt_points_verdict_text(&v, verdict, sizeof(verdict));
	outs[0] = of.fp;
	outs[1] = also;
	for (int o = 0; o < 2; o++) {
		FILE *fp = outs[o];

		if (!fp)
			continue;
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
			if (book && rt_point_bound(p, book, &b) == 0)
				fprintf(fp, "%-22s %10.1f %9.1f %10.2f %15s %7s  %-34s %5.1f%%\n",
					p->config, p->images_per_s, p->gflops, p->intensity, src, b.level,
					b.ceiling, 100 * b.fraction);
			else
				fprintf(fp, "%-22s %10.1f %9.1f %10.2f %15s %7s  %-34s\n", p->config,
					p->images_per_s, p->gflops, p->intensity, src, "-",
					"(no ceilings for it in the profile)");
		}
	}
	rt_roofbook_destroy(book);
	return rt_outfile_commit(&of, err);
}
