/* plot.c: roofline chart scripts for gnuplot and their rendering to PNG and SVG */
#include "config.h"
#include "plot.h"
#include "util.h"
#include "report.h"
#include "roofs.h"
#include "spawn.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void rt_plot_quote(FILE *fp, const char *s)
{
	fputc('\'', fp);
	for (; *s; s++) {
		const unsigned char ch = (unsigned char)*s;

		if (ch == '\'')
			fputs("''", fp);
		else
			fputc(ch < 0x20 || ch == 0x7f ? ' ' : ch, fp);
	}
	fputc('\'', fp);
}

static const char *const roof_colors[] = {
	"#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666",
	"#1f78b4", "#b2df8a", "#fb9a99", "#cab2d6",
};
#define NCOLORS (sizeof(roof_colors) / sizeof(roof_colors[0]))

/* What a chart's log axes can hold: no node does 1e12 GFLOP/s or moves 1e12 GB/s, and no
 * kernel does 1e9 FLOPs per byte (or one per 1e9 bytes); beyond that a value is corrupt, and
 * gnuplot's ranges would overflow. */
#define AXIS_MAX 1e12
#define INTENSITY_MIN 1e-9
#define INTENSITY_MAX 1e9

/* A point a chart can place on its log axes. */
static bool drawable(const struct rt_point *p)
{
	return p->gflops > 0 && p->gflops <= AXIS_MAX && p->intensity >= INTENSITY_MIN &&
	       p->intensity <= INTENSITY_MAX;
}

struct roofs {
	struct rt_roofs all;            /* the profile's roofs at the chart's thread count */
	const struct rt_roof *bw[6];
	size_t nbw;
	const struct rt_roof *fl[RT_ROOFS_MAX];
	size_t nfl;
	const struct rt_roof *th[8];    /* each drawn precision's theoretical peak */
	size_t nth;
	double pmax, pmin, bmax, bmin;
};

/* Whether s is in list, a comma-separated list (NULL: every name is). */
static bool in_list(const char *list, const char *s)
{
	size_t len = strlen(s);

	if (!list)
		return true;
	for (const char *p = list; *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		if (!strncmp(p, s, len) && (p[len] == ',' || !p[len]))
			return true;
		if (!strchr(p, ','))
			break;
	}
	return false;
}

/* The roofs to draw at the most threads, at or below `threads`, where the profile has trusted
 * ceilings (rt_roofs_at): every FLOP roof of the precisions in prec (a comma-separated list;
 * NULL: all), their theoretical peaks, each memory level's best bandwidth; *used gets that
 * thread count. */
static int collect_roofs_near(const struct rt_profile *p, unsigned threads, const char *prec,
			      struct roofs *r, unsigned *used, struct rt_err *err)
{
	int rc;

	memset(r, 0, sizeof(*r));
	r->pmin = r->bmin = INFINITY;
	if ((rc = rt_roofs_at(&r->all, p, threads, err)))
		return rc == -ENOENT ? rt_err_set(err, -EINVAL, "%s", err->msg) : rc;
	*used = r->all.threads;
	for (size_t i = 0; i < r->all.n; i++) {
		const struct rt_roof *q = &r->all.roof[i];

		if (q->value > AXIS_MAX)
			continue;
		if (q->kind == RT_ROOF_BANDWIDTH && r->nbw < 6) {
			r->bw[r->nbw++] = q;
			r->bmax = fmax(r->bmax, q->value);
			r->bmin = fmin(r->bmin, q->value);
		} else if (q->kind == RT_ROOF_FLOPS && in_list(prec, q->precision)) {
			if (q->basis == RT_ROOF_THEORETICAL) {
				if (r->nth < 8)
					r->th[r->nth++] = q;
				continue;
			}
			r->fl[r->nfl++] = q;
			r->pmax = fmax(r->pmax, q->value);
			r->pmin = fmin(r->pmin, q->value);
		}
	}
	for (size_t j = 0; j < r->nth; j++)
		r->pmax = fmax(r->pmax, r->th[j]->value);
	if (!r->nbw || !r->nfl)
		return rt_err_set(err, -EINVAL, "profile has no %s ceilings at %u threads",
				  r->nbw ? "FLOP" : "bandwidth", *used);
	return 0;
}

static void write_head(FILE *fp, const char *base, const char *title, double ymin, double ymax,
		       double xmax)
{
	/* gnuplot -e "outbase='NAME'" SCRIPT, gnuplot -c SCRIPT NAME, or the script's own name */
	fprintf(fp, "if (!exists(\"outbase\")) outbase = (ARGC > 0 ? ARG1 : ");
	rt_plot_quote(fp, base);
	fprintf(fp, ")\nset title ");
	rt_plot_quote(fp, title);
	fprintf(fp, " noenhanced\n"
		    "set logscale xy 10\n"
		    "set xrange [%g:%g]\nset yrange [%g:%g]\n"
		    "set xlabel \"Arithmetic intensity (FLOP/byte)\"\n"
		    "set ylabel \"Performance (GFLOP/s)\"\n"
		    "set grid xtics ytics mxtics mytics lc rgb \"#dddddd\"\n"
		    "set key outside right top noenhanced\n"
		    "set samples 500\n", 1.0 / 64, xmax > 256 ? xmax : 256.0, ymin, ymax);
}

/* Flat roofs start where they meet the highest bandwidth; slanted roofs stop at the top. */
static void write_roof_functions(FILE *fp, const struct roofs *r)
{
	for (size_t i = 0; i < r->nfl; i++)
		fprintf(fp, "f%zu(x) = x >= %.6g / %.6g ? %.6g : 1/0\n", i, r->fl[i]->value, r->bmax,
			r->fl[i]->value);
	for (size_t i = 0; i < r->nbw; i++)
		fprintf(fp, "b%zu(x) = %.6g * x <= %.6g ? %.6g * x : 1/0\n", i,
			r->bw[i]->value, r->pmax, r->bw[i]->value);
	for (size_t i = 0; i < r->nth; i++)
		fprintf(fp, "t%zu(x) = x >= %.6g / %.6g ? %.6g : 1/0\n", i, r->th[i]->value,
			r->bmax, r->th[i]->value);
}

/* The roofs' titles as string variables R0, R1, ... (the plot macro holds no text). */
static void write_roof_titles(FILE *fp, const struct roofs *r)
{
	char t[256];

	for (size_t i = 0; i < r->nfl; i++) {
		snprintf(t, sizeof(t), "%s %s%s: %.1f %s", r->fl[i]->precision, r->fl[i]->what,
			 r->fl[i]->basis == RT_ROOF_ACHIEVABLE ? " (achievable by oneDNN)" : "",
			 r->fl[i]->value, strcmp(r->fl[i]->precision, "int8") ? "GFLOP/s" : "GOP/s");
		fprintf(fp, "R%zu = ", i);
		rt_plot_quote(fp, t);
		fputc('\n', fp);
	}
	for (size_t i = 0; i < r->nbw; i++) {
		snprintf(t, sizeof(t), "%s %s: %.1f GB/s", r->bw[i]->level, r->bw[i]->what,
			 r->bw[i]->value);
		fprintf(fp, "R%zu = ", r->nfl + i);
		rt_plot_quote(fp, t);
		fputc('\n', fp);
	}
	for (size_t i = 0; i < r->nth; i++) {
		snprintf(t, sizeof(t), "%s theoretical peak (%s): %.1f %s", r->th[i]->precision,
			 r->th[i]->what, r->th[i]->value,
			 strcmp(r->th[i]->precision, "int8") ? "GFLOP/s" : "GOP/s");
		fprintf(fp, "R%zu = ", r->nfl + r->nbw + i);
		rt_plot_quote(fp, t);
		fputc('\n', fp);
	}
}

/* The plot clauses of the roofs (inside the plot_roofline string: no quotes at all). */
static void write_roof_clauses(FILE *fp, const struct roofs *r)
{
	for (size_t i = 0; i < r->nfl; i++)
		fprintf(fp, "%sf%zu(x) lw 2 dt %d lc rgb \"%s\" title R%zu", i ? ", " : "", i,
			strcmp(r->fl[i]->precision, "fp64") ? 1 : 2, roof_colors[i % NCOLORS], i);
	for (size_t i = 0; i < r->nbw; i++)
		fprintf(fp, ", b%zu(x) lw 3 lc rgb \"%s\" title R%zu", i,
			roof_colors[(r->nfl + i) % NCOLORS], r->nfl + i);
	for (size_t i = 0; i < r->nth; i++)
		fprintf(fp, ", t%zu(x) lw 1 dt 3 lc rgb \"#444444\" title R%zu", i,
			r->nfl + r->nbw + i);
}

static void write_tail(FILE *fp)
{
	fprintf(fp, "set terminal pngcairo size 1400,800 font \"sans,10\"\n"
		    "set output outbase.\".png\"\n"
		    "eval plot_roofline\n"
		    "set terminal svg size 1400,800 dynamic font \"sans,10\"\n"
		    "set output outbase.\".svg\"\n"
		    "eval plot_roofline\n"
		    "unset output\n");
}

static const char *gnuplot_prog(void)
{
	const char *env = getenv("GNUPLOT");

	return env && *env ? env : RT_GNUPLOT;
}

bool rt_plot_have_gnuplot(void)
{
	char buf[4096];

	return rt_spawn_which(gnuplot_prog(), buf, sizeof(buf));
}

/* Close the script written under its temporary name, render it to OUTBASE.png/.svg through
 * temporary names, and only then move the script and the pictures into place: a chart that
 * fails leaves the previous one whole. Without gnuplot the script alone is committed and the
 * answer is -ENOENT (a note for the caller, not a failure). */
static int finish(struct rt_outfile *of, const char *outbase, struct rt_err *err)
{
	static const char *const exts[] = { ".png", ".svg" };
	char prog[4096], tmpbase[4200];
	struct rt_child ch;
	int rc;

	if (!rt_spawn_which(gnuplot_prog(), prog, sizeof(prog))) {
		if ((rc = rt_outfile_commit(of, err)))
			return rc;
		return rt_err_set(err, -ENOENT, "gnuplot is not installed; '%s' is ready to render",
				  of->path);
	}
	if ((rc = rt_outfile_close(of, err)))
		return rc;
	snprintf(tmpbase, sizeof(tmpbase), "%s.tmp", outbase);
	{
		/* the output name goes in as ARG1, a string gnuplot never parses */
		char *argv[] = { prog, "-c", of->tmp, tmpbase, NULL };

		rc = rt_spawn_run(argv, NULL, 0, 300, &ch, err);
	}
	if (rc) {
		unlink(of->tmp);
		return rc;
	}
	free(ch.out);
	for (size_t i = 0; i < 2; i++) {
		char from[4300], to[4300];

		snprintf(from, sizeof(from), "%s%s", tmpbase, exts[i]);
		snprintf(to, sizeof(to), "%s%s", outbase, exts[i]);
		if (!ch.ok)
			unlink(from);
		else if (!rc && rename(from, to))
			rc = rt_err_set(err, -errno, "%s: cannot rename to '%s': %s", from, to,
					strerror(errno));
	}
	if (!ch.ok) {
		unlink(of->tmp);
		if (!strcmp(ch.reason, "interrupted"))
			return rt_err_set(err, -EINTR, "interrupted while gnuplot drew '%s'", of->path);
		return rt_err_set(err, -EIO, "gnuplot failed on '%s' (the previous chart is kept): "
				  "%s", of->path, ch.reason);
	}
	if (rc) {
		unlink(of->tmp);
		return rc;
	}
	return rt_outfile_rename(of, err);
}

static int open_script(struct rt_outfile *of, const char *outbase, struct rt_err *err)
{
	char path[4200];

	if ((size_t)snprintf(path, sizeof(path), "%s.gp", outbase) >= sizeof(path))
		return rt_err_set(err, -ENAMETOOLONG, "%s: path is too long", outbase);
	return rt_outfile_open(of, path, err);
}

int rt_plot_roofline(const struct rt_profile *p, unsigned threads, const char *outbase,
		     struct rt_err *err)
{
	struct roofs r;
	struct rt_outfile of;
	char title[512];
	int rc;

	/* the most threads with trusted (unflagged) ceilings */
	if ((rc = collect_roofs_near(p, threads ? threads : rt_profile_max_threads(p), NULL, &r,
				     &threads, err)))
		return rc;
	if ((rc = open_script(&of, outbase, err)))
		return rc;
	fprintf(of.fp, "# Roofline of a node at %u thread%s, from its rooftraj machine profile.\n"
		"# Render: gnuplot -c SCRIPT OUTBASE (writes OUTBASE.png and OUTBASE.svg;\n"
		"#   without OUTBASE, the script's own name without .gp)\n",
		threads, threads > 1 ? "s" : "");
	snprintf(title, sizeof(title), "Roofline of %s (%s), %u thread%s", p->host, p->cpu.model,
		 threads, threads > 1 ? "s" : "");
	write_head(of.fp, outbase, title, fmax(0.01, fmin(r.pmin / 4, r.bmin / 64)), r.pmax * 3,
		   256);
	write_roof_functions(of.fp, &r);
	write_roof_titles(of.fp, &r);
	fprintf(of.fp, "plot_roofline = 'plot ");
	write_roof_clauses(of.fp, &r);
	fprintf(of.fp, "'\n");
	write_tail(of.fp);
	return finish(&of, outbase, err);
}

/* The knobs a trajectory can run along: 0 threads, 1 batch, 2 affinity, 3 precision,
 * 4 ranks. A point's value of each, as a number that orders it along the knob. */
static long knob_value(const struct rt_point *p, int knob)
{
	switch (knob) {
	case 0: return (long)p->threads;
	case 1: return p->batch;
	case 2: return (long)p->affinity;
	case 3: return (long)p->precision;
	default: return (long)p->ranks;
	}
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* The knob a point varies along: the one with the most distinct values among the points
 * (ranks first: a tie between ranks and another knob is a scaling study). */
static int trajectory_knob(const struct rt_point *const *v, size_t n, long *scratch)
{
	size_t best = 0;
	int knob = 0;

	for (int o = 0; o < 5; o++) {
		const int k = (o + 4) % 5;
		size_t distinct = 0;

		for (size_t i = 0; i < n; i++)
			scratch[i] = knob_value(v[i], k);
		qsort(scratch, n, sizeof(*scratch), cmp_long);
		for (size_t i = 0; i < n; i++)
			distinct += !i || scratch[i] != scratch[i - 1];
		if (distinct > best) {
			best = distinct;
			knob = k;
		}
	}
	return knob;
}

static void series_key(const struct rt_point *p, int knob, char *buf, size_t size)
{
	const char *run = p->run, *sep = *p->run ? ": " : "";

	if (knob == 0)
		snprintf(buf, size, "%s%sbatch %ld, %s, %s", run, sep, p->batch, rt_point_affinity_name(p),
			 rt_point_precision_name(p));
	else if (knob == 1)
		snprintf(buf, size, "%s%s%u threads, %s, %s", run, sep, p->threads, rt_point_affinity_name(p),
			 rt_point_precision_name(p));
	else if (knob == 2)
		snprintf(buf, size, "%s%s%u threads, batch %ld, %s", run, sep, p->threads, p->batch,
			 rt_point_precision_name(p));
	else if (knob == 3)
		snprintf(buf, size, "%s%s%u threads, batch %ld, %s", run, sep, p->threads, p->batch,
			 rt_point_affinity_name(p));
	else    /* over ranks: strong (same global batch) and weak scaling share a series */
		snprintf(buf, size, "%s%s%u threads per rank, %s, %s", run, sep, p->threads,
			 rt_point_affinity_name(p), rt_point_precision_name(p));
}

static void knob_label(const struct rt_point *p, int knob, char *buf, size_t size)
{
	if (knob == 0)
		snprintf(buf, size, "%ut", p->threads);
	else if (knob == 1)
		snprintf(buf, size, "b%ld", p->batch);
	else if (knob == 2)
		snprintf(buf, size, "%s", rt_point_affinity_name(p));
	else if (knob == 3)
		snprintf(buf, size, "%s", rt_point_precision_name(p));
	else
		snprintf(buf, size, "%ur b%ld", p->ranks, p->batch);
}

/* A trajectory point with its series key computed once, for sorting. */
struct traj_point {
	const struct rt_point *p;
	char key[160];
	long order;
};

static int cmp_traj(const void *a, const void *b)
{
	const struct traj_point *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->order > y->order) - (x->order < y->order);
}



/* One array of labels: NAME[n] = ['...', ...] (gnuplot 5.2 and later). */
static void write_label_array(FILE *fp, const char *name, size_t idx, const char *const *labels,
			      size_t n)
{
	fprintf(fp, "array %s%zu[%zu] = [", name, idx, n);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputs(", ", fp);
		rt_plot_quote(fp, labels[i]);
	}
	fputs("]\n", fp);
}

int rt_plot_trajectories(const struct rt_profile *prof, const struct rt_point *pts, size_t n,
			 const char *title_what, const char *outbase, struct rt_err *err)
{
	struct traj_point *v = calloc(n ? n : 1, sizeof(*v));
	long *scratch = calloc(n ? n : 1, sizeof(*scratch));
	char (*labels)[32] = calloc(n ? n : 1, sizeof(*labels));
	const char **lp = calloc(n ? n : 1, sizeof(*lp));
	const struct rt_point **vp = calloc(n ? n : 1, sizeof(*vp));
	unsigned threads = 0, roof_threads = 0;
	char precs[64] = "";
	double imax = 0;
	double gmin = INFINITY;
	struct rt_outfile of;
	struct roofs r;
	char title[512];
	size_t nv = 0, ns = 0;
	int rc = 0, knob;

	if (!v || !scratch || !labels || !lp || !vp) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (rt_point_is_headline(&pts[i]) && drawable(&pts[i])) {
			vp[nv++] = &pts[i];
			threads = pts[i].threads > threads ? pts[i].threads : threads;
			/* the roofs of every precision the points ran in */
			if (!in_list(precs, rt_point_precision_name(&pts[i])) &&
			    strlen(precs) + strlen(rt_point_precision_name(&pts[i])) + 2 <
			    sizeof(precs))
				snprintf(precs + strlen(precs), sizeof(precs) - strlen(precs), "%s%s",
					 *precs ? "," : "", rt_point_precision_name(&pts[i]));
			gmin = fmin(gmin, pts[i].gflops);
			imax = fmax(imax, pts[i].intensity);
		}
	if (!nv) {
		rc = rt_err_set(err, -EINVAL, "no successful point to draw");
		goto out;
	}
	/* the roofs of the most threads any point used (or the most the profile measured
	 * below that) */
	if ((rc = collect_roofs_near(prof, threads, precs, &r, &roof_threads, err)))
		goto out;
	knob = trajectory_knob(vp, nv, scratch);
	/* sort by series, then by the knob's value */
	for (size_t i = 0; i < nv; i++) {
		v[i].p = vp[i];
		series_key(vp[i], knob, v[i].key, sizeof(v[i].key));
		v[i].order = knob_value(vp[i], knob);
	}
	qsort(v, nv, sizeof(*v), cmp_traj);
	if ((rc = open_script(&of, outbase, err)))
		goto out;
	fprintf(of.fp, "# Roofline trajectories under the roofs of a node at %u thread%s.\n"
		"# Render: gnuplot -c SCRIPT OUTBASE (writes OUTBASE.png and OUTBASE.svg)\n",
		roof_threads, roof_threads > 1 ? "s" : "");
	snprintf(title, sizeof(title), "%s on %s: trajectories as %s varies (roofs at %u thread%s)",
		 title_what, prof->host, knob == 0 ? "threads" : knob == 1 ? "batch" :
		 knob == 2 ? "affinity" : knob == 3 ? "precision" : "ranks",
		 roof_threads, roof_threads > 1 ? "s" : "");
	write_head(of.fp, outbase, title, fmax(0.01, fmin(r.pmin / 4, gmin / 4)), r.pmax * 3,
		   4 * imax);
	write_roof_functions(of.fp, &r);
	write_roof_titles(of.fp, &r);
	/* one data block per series (numbers only), its title S<i> and its labels L<i>[] */
	for (size_t i = 0, first = 0; i < nv; i++) {
		knob_label(v[i].p, knob, labels[i], sizeof(labels[i]));
		lp[i] = labels[i];
		if (i + 1 < nv && !strcmp(v[i + 1].key, v[i].key))
			continue;
		fprintf(of.fp, "$s%zu << EOD\n", ns);
		for (size_t j = first; j <= i; j++)
			fprintf(of.fp, "%.6g %.6g\n", v[j].p->intensity, v[j].p->gflops);
		fprintf(of.fp, "EOD\nS%zu = ", ns);
		rt_plot_quote(of.fp, v[i].key);
		fputc('\n', of.fp);
		write_label_array(of.fp, "L", ns, lp + first, i - first + 1);
		ns++;
		first = i + 1;
	}
	fprintf(of.fp, "plot_roofline = 'plot ");
	write_roof_clauses(of.fp, &r);
	for (size_t s = 0; s < ns; s++)
		fprintf(of.fp, ", $s%zu using 1:2 with linespoints lw 2 pt 7 ps 1.2 lc rgb \"%s\" "
			"title S%zu, $s%zu using 1:2:(L%zu[int(column(0)) + 1]) with labels "
			"noenhanced offset 0.8,0.8 notitle", s, roof_colors[(s + 3) % NCOLORS], s, s, s);
	fprintf(of.fp, "'\n");
	write_tail(of.fp);
	rc = finish(&of, outbase, err);
out:
	free(v);
	free(scratch);
	free(labels);
	free(lp);
	free(vp);
	return rc;
}

static bool layer_point(const struct rt_point *p, const char *config)
{
	return !strcmp(p->config, config) && p->scope == RT_SCOPE_LAYER &&
	       p->stat == RT_STAT_MEDIAN && p->status == RT_STATUS_OK && drawable(p);
}

int rt_plot_layers(const struct rt_profile *prof, const struct rt_point *pts, size_t n,
		   const char *config, const char *outbase, struct rt_err *err)
{
	unsigned threads = 0, roof_threads = 0;
	double gmin = INFINITY, imax = 0;
	const char **names = NULL;
	char (*labels)[168] = NULL;
	struct rt_outfile of;
	struct roofs r;
	char title[512], prec[8] = "fp32";
	size_t nl = 0;
	int rc;

	for (size_t i = 0; i < n; i++)
		if (layer_point(&pts[i], config)) {
			threads = pts[i].threads;
			snprintf(prec, sizeof(prec), "%s", rt_point_precision_name(&pts[i]));
			gmin = fmin(gmin, pts[i].gflops);
			imax = fmax(imax, pts[i].intensity);
			nl++;
		}
	if (!nl)
		return rt_err_set(err, -ENOENT, "no per-layer points for %s", config);
	if ((rc = collect_roofs_near(prof, threads, prec, &r, &roof_threads, err)))
		return rc;
	names = calloc(nl, sizeof(*names));
	labels = calloc(nl, sizeof(*labels));
	if (!names || !labels) {
		free(names);
		free(labels);
		return rt_err_set(err, -ENOMEM, "out of memory");
	}
	if ((rc = open_script(&of, outbase, err)))
		goto out;
	fprintf(of.fp, "# The layers of a configuration on the roofline of a node (%u thread%s)\n",
		roof_threads, roof_threads > 1 ? "s" : "");
	snprintf(title, sizeof(title), "Layers of %s on %s (forward + backward per iteration; "
		 "[the memory level that holds its bytes])", config, prof->host);
	write_head(of.fp, outbase, title, fmax(0.001, fmin(r.pmin / 4, gmin / 4)), r.pmax * 3,
		   4 * imax);
	write_roof_functions(of.fp, &r);
	write_roof_titles(of.fp, &r);
	fprintf(of.fp, "$layers << EOD\n");
	nl = 0;
	for (size_t i = 0; i < n; i++)
		if (layer_point(&pts[i], config)) {
			struct rt_bound b;

			/* each layer says which memory level holds its bytes */
			fprintf(of.fp, "%.6g %.6g\n", pts[i].intensity, pts[i].gflops);
			snprintf(labels[nl], sizeof(labels[nl]), "%.150s [%s]", pts[i].name,
				 rt_point_bound(&pts[i], prof, &b) ? "?" : b.level);
			names[nl] = labels[nl];
			nl++;
		}
	fprintf(of.fp, "EOD\n");
	write_label_array(of.fp, "N", 0, names, nl);
	fprintf(of.fp, "plot_roofline = 'plot ");
	write_roof_clauses(of.fp, &r);
	fprintf(of.fp, ", $layers using 1:2 with points pt 7 ps 1.3 lc rgb \"#000000\" title "
		"\"layers\", $layers using 1:2:(N0[int(column(0)) + 1]) with labels noenhanced "
		"offset 0.8,0.6 font \",8\" notitle'\n");
	write_tail(of.fp);
	rc = finish(&of, outbase, err);
out:
	free(names);
	free(labels);
	return rc;
}
