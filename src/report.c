/* report.c: point arithmetic, the roofline bound of a point, points.csv and summary.txt */
#include "config.h"
#include "report.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void rt_point_derive(struct rt_point *p)
{
	p->intensity = p->bytes > 0 ? p->flops / p->bytes : 0;
	p->gflops = p->seconds > 0 ? p->flops / p->seconds / 1e9 : 0;
	p->images_per_s = p->seconds > 0 && !strcmp(p->scope, "iteration") ?
			  (double)p->batch / p->seconds : 0;
}

int rt_point_bound(const struct rt_point *p, const struct rt_profile *prof, struct rt_bound *b)
{
	unsigned t = rt_profile_nearest_threads(prof, p->threads);
	const struct rt_profile_flops *f = t ? rt_profile_best_flops(prof, p->precision, t) : NULL;
	const struct rt_profile_bw *m = t ? rt_profile_best_bw(prof, "DRAM", t) : NULL;
	double mem;

	memset(b, 0, sizeof(*b));
	if (!f || !m)
		return -ENOENT;
	mem = m->gbytes_per_s * p->intensity;
	b->memory_bound = mem < f->gflops;
	b->attainable = b->memory_bound ? mem : f->gflops;
	if (b->memory_bound)
		snprintf(b->ceiling, sizeof(b->ceiling), "DRAM %s %.1f GB/s", m->kernel,
			 m->gbytes_per_s);
	else
		snprintf(b->ceiling, sizeof(b->ceiling), "%s %s %.1f GFLOP/s", f->precision, f->isa,
			 f->gflops);
	b->fraction = b->attainable > 0 ? p->gflops / b->attainable : 0;
	return 0;
}

static const char *const columns =
	"config,threads,batch,affinity,precision,ranks,scope,name,stat,seconds,flops,bytes,source,"
	"intensity,gflops,images_per_s,weights,activations,gradients,optimizer,workspace,peak_rss,"
	"status,reason,impl";
/* before the impl column (rooftraj 0.1): still read */
#define COLUMNS_V1_LEN (sizeof("config,threads,batch,affinity,precision,ranks,scope,name,stat," \
			       "seconds,flops,bytes,source,intensity,gflops,images_per_s,weights," \
			       "activations,gradients,optimizer,workspace,peak_rss,status,reason") - 1)

void rt_points_csv_header(FILE *fp)
{
	fprintf(fp, "%s\n", columns);
}

static void csv_str(FILE *fp, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s == '\n' ? ' ' : *s, fp);
	}
	fputc('"', fp);
}

void rt_points_csv_row(FILE *fp, const struct rt_point *p)
{
	csv_str(fp, p->config);
	fprintf(fp, ",%u,%ld,", p->threads, p->batch);
	csv_str(fp, p->affinity);
	fputc(',', fp);
	csv_str(fp, p->precision);
	fprintf(fp, ",%u,", p->ranks);
	csv_str(fp, p->scope);
	fputc(',', fp);
	csv_str(fp, p->name);
	fputc(',', fp);
	csv_str(fp, p->stat);
	fprintf(fp, ",%.9g,%.17g,%.17g,", p->seconds, p->flops, p->bytes);
	csv_str(fp, p->source);
	fprintf(fp, ",%.6g,%.6g,%.6g,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,", p->intensity, p->gflops,
		p->images_per_s, p->weights, p->activations, p->gradients, p->optimizer,
		p->workspace, p->peak_rss);
	csv_str(fp, p->status);
	fputc(',', fp);
	csv_str(fp, p->reason);
	fputc(',', fp);
	csv_str(fp, p->impl);
	fputc('\n', fp);
}

/* Split one CSV line into at most max fields (in place; "" quoting). Returns the count. */
static int split_csv(char *line, char **f, int max)
{
	int n = 0;
	char *p = line, *w;

	while (n < max) {
		f[n++] = w = p;
		if (*p == '"') {
			p++;
			for (;;) {
				if (!*p)
					break;
				if (*p == '"' && p[1] == '"') {
					*w++ = '"';
					p += 2;
				} else if (*p == '"') {
					p++;
					break;
				} else {
					*w++ = *p++;
				}
			}
			*w = '\0';             /* the unquoted text, copied over the quote */
			if (*p != ',')
				return n;
			p++;
			continue;
		}
		while (*p && *p != ',' && *p != '\n')
			p++;
		if (*p == ',') {
			*p++ = '\0';
		} else {
			*p = '\0';
			return n;
		}
	}
	return n;
}

int rt_points_csv_read(const char *path, struct rt_point **pts, size_t *n, struct rt_err *err)
{
	FILE *fp = fopen(path, "r");
	char line[4096];
	size_t cap = 0;
	int lineno = 0, rc = 0, ncols = 25;

	*pts = NULL;
	*n = 0;
	if (!fp)
		return errno == ENOENT ? 0 : rt_err_set(err, -errno, "%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), fp)) {
		char *f[32];
		struct rt_point *p;
		int nf;

		lineno++;
		if (lineno == 1) {
			line[strcspn(line, "\n")] = '\0';
			if (!strcmp(line, columns)) {
				ncols = 25;
			} else if (strlen(line) == COLUMNS_V1_LEN && !strncmp(line, columns,
									      COLUMNS_V1_LEN)) {
				ncols = 24;
			} else {
				rc = rt_err_set(err, -EINVAL, "%s:1: not a rooftraj points.csv header",
						path);
				break;
			}
			continue;
		}
		if (!strchr(line, '\n') && !feof(fp)) {
			rc = rt_err_set(err, -EINVAL, "%s:%d: line too long", path, lineno);
			break;
		}
		nf = split_csv(line, f, 32);
		if (nf != ncols) {
			rc = rt_err_set(err, -EINVAL, "%s:%d: %d fields, a point has %d", path, lineno,
					nf, ncols);
			break;
		}
		if (*n == cap) {
			struct rt_point *q = realloc(*pts, (cap = cap ? 2 * cap : 64) * sizeof(**pts));

			if (!q) {
				rc = rt_err_set(err, -ENOMEM, "out of memory");
				break;
			}
			*pts = q;
		}
		p = &(*pts)[(*n)++];
		memset(p, 0, sizeof(*p));
		snprintf(p->config, sizeof(p->config), "%s", f[0]);
		p->threads = (unsigned)strtoul(f[1], NULL, 10);
		p->batch = strtol(f[2], NULL, 10);
		snprintf(p->affinity, sizeof(p->affinity), "%s", f[3]);
		snprintf(p->precision, sizeof(p->precision), "%s", f[4]);
		p->ranks = (unsigned)strtoul(f[5], NULL, 10);
		snprintf(p->scope, sizeof(p->scope), "%s", f[6]);
		snprintf(p->name, sizeof(p->name), "%s", f[7]);
		snprintf(p->stat, sizeof(p->stat), "%s", f[8]);
		p->seconds = strtod(f[9], NULL);
		p->flops = strtod(f[10], NULL);
		p->bytes = strtod(f[11], NULL);
		snprintf(p->source, sizeof(p->source), "%s", f[12]);
		p->intensity = strtod(f[13], NULL);
		p->gflops = strtod(f[14], NULL);
		p->images_per_s = strtod(f[15], NULL);
		p->weights = strtod(f[16], NULL);
		p->activations = strtod(f[17], NULL);
		p->gradients = strtod(f[18], NULL);
		p->optimizer = strtod(f[19], NULL);
		p->workspace = strtod(f[20], NULL);
		p->peak_rss = strtod(f[21], NULL);
		snprintf(p->status, sizeof(p->status), "%s", f[22]);
		snprintf(p->reason, sizeof(p->reason), "%s", f[23]);
		if (ncols > 24)
			snprintf(p->impl, sizeof(p->impl), "%s", f[24]);
	}
	fclose(fp);
	if (rc) {
		free(*pts);
		*pts = NULL;
		*n = 0;
	}
	return rc;
}

static const struct rt_point *iteration_median(const struct rt_point *pts, size_t n,
					       const char *config)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(pts[i].config, config) && !strcmp(pts[i].scope, "iteration") &&
		    !strcmp(pts[i].stat, "median") && !strcmp(pts[i].status, "ok"))
			return &pts[i];
	return NULL;
}

int rt_report_summary(const char *path, const struct rt_point *pts, size_t n,
		      const char *default_config, const struct rt_profile *prof, FILE *also,
		      struct rt_err *err)
{
	const struct rt_point *best = NULL, *def = iteration_median(pts, n, default_config);
	struct rt_outfile of;
	FILE *outs[2];
	int rc = rt_outfile_open(&of, path, err);

	if (rc)
		return rc;
	outs[0] = of.fp;
	outs[1] = also;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(pts[i].scope, "iteration") && !strcmp(pts[i].stat, "median") &&
		    !strcmp(pts[i].status, "ok") && (!best || pts[i].images_per_s > best->images_per_s))
			best = &pts[i];
	for (int o = 0; o < 2; o++) {
		FILE *fp = outs[o];

		if (!fp)
			continue;
		if (best) {
			fprintf(fp, "best configuration: %s (%u threads, batch %ld, affinity %s): %.1f "
				"images/s\n", best->config, best->threads, best->batch, best->affinity,
				best->images_per_s);
			if (def)
				fprintf(fp, "default configuration: %s: %.1f images/s; speedup of the "
					"best %.2fx\n", def->config, def->images_per_s,
					def->images_per_s > 0 ? best->images_per_s / def->images_per_s :
					0);
			else
				fprintf(fp, "default configuration %s: no successful measurement\n",
					default_config);
		} else {
			fprintf(fp, "no configuration succeeded\n");
		}
		fprintf(fp, "\n%-22s %10s %9s %10s %9s  %-34s %s\n", "configuration", "images/s",
			"GFLOP/s", "FLOP/byte", "source", "bound by", "of bound");
		for (size_t i = 0; i < n; i++) {
			const struct rt_point *p = &pts[i];
			struct rt_bound b;

			if (strcmp(p->scope, "iteration") || (strcmp(p->stat, "median") &&
							      strcmp(p->status, "failed")))
				continue;
			if (strcmp(p->status, "ok")) {
				fprintf(fp, "%-22s failed: %s\n", p->config, p->reason);
				continue;
			}
			if (prof && rt_point_bound(p, prof, &b) == 0)
				fprintf(fp, "%-22s %10.1f %9.1f %10.2f %9s  %-34s %5.1f%%\n", p->config,
					p->images_per_s, p->gflops, p->intensity, p->source, b.ceiling,
					100 * b.fraction);
			else
				fprintf(fp, "%-22s %10.1f %9.1f %10.2f %9s  %-34s\n", p->config,
					p->images_per_s, p->gflops, p->intensity, p->source,
					"(no ceilings for it in the profile)");
		}
	}
	return rt_outfile_commit(&of, err);
}
