/* plot.c: roofline chart scripts for gnuplot and their rendering to PNG and SVG */
#include "config.h"
#include "plot.h"
#include "util.h"
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Escape a string for a gnuplot double-quoted literal. */
static void gp_str(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', fp);
		if ((unsigned char)*s >= 0x20)
			fputc(*s, fp);
	}
	fputc('"', fp);
}

static const char *const roof_colors[] = {
	"#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666",
	"#1f78b4", "#b2df8a", "#fb9a99", "#cab2d6",
};
#define NCOLORS (sizeof(roof_colors) / sizeof(roof_colors[0]))

struct roofs {
	const struct rt_profile_bw *bw[6];
	size_t nbw;
	const struct rt_profile_flops *fl[64];
	size_t nfl;
	double pmax, pmin, bmax, bmin;
};

/* The roofs at a thread count: every FLOP ceiling (of the precisions named in prec, a
 * comma-separated list, when given) and each memory level's best bandwidth. */
static bool in_list(const char *list, const char *s)
{
	size_t len = strlen(s);

	for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, s, len) && (p[len] == ',' || !p[len]))
			return true;
	return false;
}

static int collect_roofs(const struct rt_profile *p, unsigned threads, const char *prec,
			 struct roofs *r, struct rt_err *err)
{
	static const char *const level_order[] = { "L1", "L2", "L3", "L4", "L5", "DRAM" };

	memset(r, 0, sizeof(*r));
	r->pmin = r->bmin = INFINITY;
	for (size_t i = 0; i < 6; i++) {
		const struct rt_profile_bw *b = rt_profile_best_bw(p, level_order[i], threads);

		if (b) {
			r->bw[r->nbw++] = b;
			r->bmax = fmax(r->bmax, b->gbytes_per_s);
			r->bmin = fmin(r->bmin, b->gbytes_per_s);
		}
	}
	for (size_t i = 0; i < p->nflops && r->nfl < 64; i++)
		if (p->flops[i].threads == threads && (!prec || in_list(prec, p->flops[i].precision))) {
			r->fl[r->nfl++] = &p->flops[i];
			r->pmax = fmax(r->pmax, p->flops[i].gflops);
			r->pmin = fmin(r->pmin, p->flops[i].gflops);
		}
	if (!r->nbw || !r->nfl)
		return rt_err_set(err, -EINVAL, "profile has no %s ceilings at %u threads",
				  r->nbw ? "FLOP" : "bandwidth", threads);
	return 0;
}

static void write_head(FILE *fp, const char *base, const char *title, double ymin, double ymax,
		       double xmax)
{
	fprintf(fp, "if (!exists(\"outbase\")) outbase = ");
	gp_str(fp, base);
	fprintf(fp, "\nset title ");
	gp_str(fp, title);
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
		fprintf(fp, "f%zu(x) = x >= %.6g / %.6g ? %.6g : 1/0\n", i, r->fl[i]->gflops, r->bmax,
			r->fl[i]->gflops);
	for (size_t i = 0; i < r->nbw; i++)
		fprintf(fp, "b%zu(x) = %.6g * x <= %.6g ? %.6g * x : 1/0\n", i,
			r->bw[i]->gbytes_per_s, r->pmax, r->bw[i]->gbytes_per_s);
}

/* The plot clauses of the roofs (inside the plot_roofline string: single quotes only). */
static void write_roof_clauses(FILE *fp, const struct roofs *r)
{
	for (size_t i = 0; i < r->nfl; i++)
		fprintf(fp, "%sf%zu(x) lw 2 dt %d lc rgb \"%s\" title \"%s %s%s: %.1f %s\"",
			i ? ", " : "", i, strcmp(r->fl[i]->precision, "fp64") ? 1 : 2,
			roof_colors[i % NCOLORS], r->fl[i]->precision, r->fl[i]->isa,
			strcmp(r->fl[i]->method, "onednn-matmul") ? "" : " (oneDNN matmul)",
			r->fl[i]->gflops, strcmp(r->fl[i]->precision, "int8") ? "GFLOP/s" : "GOP/s");
	for (size_t i = 0; i < r->nbw; i++)
		fprintf(fp, ", b%zu(x) lw 3 lc rgb \"%s\" title \"%s %s: %.1f GB/s\"", i,
			roof_colors[(r->nfl + i) % NCOLORS], r->bw[i]->level, r->bw[i]->kernel,
			r->bw[i]->gbytes_per_s);
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

static void script_base(char *base, size_t size, const char *script_path)
{
	snprintf(base, size, "%s", script_path);
	if (strlen(base) > 3 && !strcmp(base + strlen(base) - 3, ".gp"))
		base[strlen(base) - 3] = '\0';
}

int rt_plot_roofline(const struct rt_profile *p, unsigned threads, const char *script_path,
		     struct rt_err *err)
{
	struct roofs r;
	struct rt_outfile of;
	char base[4096], title[512];
	int rc;

	if (!threads)
		threads = rt_profile_max_threads(p);
	if ((rc = collect_roofs(p, threads, NULL, &r, err)))
		return rc;
	script_base(base, sizeof(base), script_path);
	if ((rc = rt_outfile_open(&of, script_path, err)))
		return rc;
	fprintf(of.fp, "# Roofline of %s at %u thread%s, from its rooftraj machine profile.\n"
		"# Render: gnuplot %s  (writes OUTBASE.png and OUTBASE.svg;\n"
		"#   gnuplot -e \"outbase='NAME'\" ... to choose OUTBASE)\n",
		p->host, threads, threads > 1 ? "s" : "", script_path);
	snprintf(title, sizeof(title), "Roofline of %s (%s), %u thread%s", p->host, p->cpu.model,
		 threads, threads > 1 ? "s" : "");
	write_head(of.fp, base, title, fmax(0.01, fmin(r.pmin / 4, r.bmin / 64)), r.pmax * 3, 256);
	write_roof_functions(of.fp, &r);
	fprintf(of.fp, "plot_roofline = 'plot ");
	write_roof_clauses(of.fp, &r);
	fprintf(of.fp, "'\n");
	write_tail(of.fp);
	return rt_outfile_commit(&of, err);
}

/* The knob a point varies along: the one with the most distinct values among the points
 * (0 threads, 1 batch, 2 affinity, 3 precision, 4 ranks). */
static int trajectory_knob(const struct rt_point *const *v, size_t n)
{
	size_t best = 0;
	int knob = 0;

	/* ranks first: a tie between ranks and another knob is a scaling study */
	for (int o = 0; o < 5; o++) {
		const int k = (o + 4) % 5;
		size_t distinct = 0;

		for (size_t i = 0; i < n; i++) {
			bool seen = false;

			for (size_t j = 0; j < i && !seen; j++)
				seen = k == 0 ? v[j]->threads == v[i]->threads :
				       k == 1 ? v[j]->batch == v[i]->batch :
				       k == 2 ? !strcmp(v[j]->affinity, v[i]->affinity) :
				       k == 3 ? !strcmp(v[j]->precision, v[i]->precision) :
				       v[j]->ranks == v[i]->ranks;
			distinct += !seen;
		}
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
		snprintf(buf, size, "%s%sbatch %ld, %s, %s", run, sep, p->batch, p->affinity,
			 p->precision);
	else if (knob == 1)
		snprintf(buf, size, "%s%s%u threads, %s, %s", run, sep, p->threads, p->affinity,
			 p->precision);
	else if (knob == 2)
		snprintf(buf, size, "%s%s%u threads, batch %ld, %s", run, sep, p->threads, p->batch,
			 p->precision);
	else if (knob == 3)
		snprintf(buf, size, "%s%s%u threads, batch %ld, %s", run, sep, p->threads, p->batch,
			 p->affinity);
	else    /* over ranks: strong (same global batch) and weak scaling share a series */
		snprintf(buf, size, "%s%s%u threads per rank, %s, %s", run, sep, p->threads,
			 p->affinity, p->precision);
}

static void knob_label(const struct rt_point *p, int knob, char *buf, size_t size)
{
	if (knob == 0)
		snprintf(buf, size, "%ut", p->threads);
	else if (knob == 1)
		snprintf(buf, size, "b%ld", p->batch);
	else if (knob == 2)
		snprintf(buf, size, "%s", p->affinity);
	else if (knob == 3)
		snprintf(buf, size, "%s", p->precision);
	else
		snprintf(buf, size, "%ur b%ld", p->ranks, p->batch);
}

static long knob_order(const struct rt_point *p, int knob)
{
	if (knob == 3)
		return !strcmp(p->precision, "fp32") ? 0 : 1;
	if (knob == 4)
		return (long)p->ranks;
	return knob == 0 ? (long)p->threads : knob == 1 ? p->batch :
	       !strcmp(p->affinity, "none") ? 0 : !strcmp(p->affinity, "compact") ? 1 : 2;
}

int rt_plot_trajectories(const struct rt_profile *prof, const struct rt_point *pts, size_t n,
			 const char *title_what, const char *script_path, struct rt_err *err)
{
	const struct rt_point **v = calloc(n ? n : 1, sizeof(*v));
	unsigned threads = 0, roof_threads = 0;
	char cur[160] = "", precs[64] = "";
	double imax = 0;
	double gmin = INFINITY;
	struct rt_outfile of;
	struct roofs r;
	char base[4096], title[512];
	size_t nv = 0;
	int rc = 0, knob;

	if (!v)
		return rt_err_set(err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		if (!strcmp(pts[i].scope, "iteration") && !strcmp(pts[i].stat, "median") &&
		    !strcmp(pts[i].status, "ok") && pts[i].gflops > 0 && pts[i].intensity > 0) {
			v[nv++] = &pts[i];
			threads = pts[i].threads > threads ? pts[i].threads : threads;
			/* the roofs of every precision the points ran in */
			if (!in_list(precs, pts[i].precision) &&
			    strlen(precs) + strlen(pts[i].precision) + 2 < sizeof(precs))
				snprintf(precs + strlen(precs), sizeof(precs) - strlen(precs), "%s%s",
					 *precs ? "," : "", pts[i].precision);
			gmin = fmin(gmin, pts[i].gflops);
			imax = fmax(imax, pts[i].intensity);
		}
	if (!nv) {
		free(v);
		return rt_err_set(err, -EINVAL, "no successful point to draw");
	}
	/* the roofs of the most threads any point used (or the most the profile measured
	 * below that) */
	roof_threads = rt_profile_nearest_threads(prof, threads);
	if ((rc = collect_roofs(prof, roof_threads, precs, &r, err)))
		goto out;
	knob = trajectory_knob(v, nv);
	/* sort by series, then by the knob's value */
	for (size_t i = 1; i < nv; i++)
		for (size_t j = i; j > 0; j--) {
			char a[160], b[160];
			int c;

			series_key(v[j - 1], knob, a, sizeof(a));
			series_key(v[j], knob, b, sizeof(b));
			c = strcmp(a, b);
			if (c < 0 || (c == 0 && knob_order(v[j - 1], knob) <= knob_order(v[j], knob)))
				break;
			{
				const struct rt_point *t = v[j];

				v[j] = v[j - 1];
				v[j - 1] = t;
			}
		}
	script_base(base, sizeof(base), script_path);
	if ((rc = rt_outfile_open(&of, script_path, err)))
		goto out;
	fprintf(of.fp, "# Roofline trajectories: %s, under the roofs of %s at %u thread%s.\n"
		"# Render: gnuplot %s (writes OUTBASE.png and OUTBASE.svg)\n", title_what, prof->host,
		roof_threads, roof_threads > 1 ? "s" : "", script_path);
	snprintf(title, sizeof(title), "%s on %s: trajectories as %s varies (roofs at %u thread%s)",
		 title_what, prof->host, knob == 0 ? "threads" : knob == 1 ? "batch" :
		 knob == 2 ? "affinity" : knob == 3 ? "precision" : "ranks",
		 roof_threads, roof_threads > 1 ? "s" : "");
	write_head(of.fp, base, title, fmax(0.01, fmin(r.pmin / 4, gmin / 4)), r.pmax * 3,
		   4 * imax);
	write_roof_functions(of.fp, &r);
	/* one data block per series: intensity, GFLOP/s, the knob's value as the label */
	{
		size_t ns = 0;

		for (size_t i = 0; i < nv; i++) {
			char key[160], label[32];

			series_key(v[i], knob, key, sizeof(key));
			if (strcmp(key, cur)) {
				if (ns)
					fprintf(of.fp, "EOD\n");
				fprintf(of.fp, "$s%zu << EOD\n", ns++);
				snprintf(cur, sizeof(cur), "%s", key);
			}
			knob_label(v[i], knob, label, sizeof(label));
			fprintf(of.fp, "%.6g %.6g \"%s\"\n", v[i]->intensity, v[i]->gflops, label);
		}
		fprintf(of.fp, "EOD\nplot_roofline = 'plot ");
		write_roof_clauses(of.fp, &r);
		cur[0] = '\0';
		ns = 0;
		for (size_t i = 0; i < nv; i++) {
			char key[160];

			series_key(v[i], knob, key, sizeof(key));
			if (!strcmp(key, cur))
				continue;
			snprintf(cur, sizeof(cur), "%s", key);
			fprintf(of.fp, ", $s%zu using 1:2 with linespoints lw 2 pt 7 ps 1.2 lc rgb \"%s\" "
				"title \"%s\", $s%zu using 1:2:3 with labels offset 0.8,0.8 notitle", ns,
				roof_colors[(ns + 3) % NCOLORS], key, ns);
			ns++;
		}
		fprintf(of.fp, "'\n");
	}
	write_tail(of.fp);
	rc = rt_outfile_commit(&of, err);
out:
	free(v);
	return rc;
}

static const char *gnuplot_prog(void)
{
	const char *env = getenv("GNUPLOT");

	return env && *env ? env : RT_GNUPLOT;
}

bool rt_plot_have_gnuplot(void)
{
	const char *prog = gnuplot_prog();
	const char *path;
	char buf[4096];

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	path = getenv("PATH");
	while (path && *path) {
		const char *colon = strchr(path, ':');
		size_t len = colon ? (size_t)(colon - path) : strlen(path);

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, path, prog);
		if (access(buf, X_OK) == 0)
			return true;
		path = colon ? colon + 1 : NULL;
	}
	return false;
}

int rt_plot_render(const char *script_path, const char *outbase, struct rt_err *err)
{
	static const char *const exts[] = { ".png", ".svg" };
	char tmpbase[4096], expr[4200], msg[400] = "";
	int pipefd[2], status = 0, rc = 0;
	pid_t pid;

	if (!rt_plot_have_gnuplot())
		return rt_err_set(err, -ENOENT, "gnuplot is not installed; '%s' is ready to render",
				  script_path);
	if (strchr(outbase, '\'') || strchr(outbase, '"'))
		return rt_err_set(err, -EINVAL, "%s: quotes in the output name", outbase);
	snprintf(tmpbase, sizeof(tmpbase), "%s.tmp", outbase);
	snprintf(expr, sizeof(expr), "outbase='%s'", tmpbase);
	if (pipe(pipefd))
		return rt_err_set(err, -errno, "pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return rt_err_set(err, -errno, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		dup2(pipefd[1], STDERR_FILENO);
		dup2(pipefd[1], STDOUT_FILENO);
		close(pipefd[0]);
		close(pipefd[1]);
		execlp(gnuplot_prog(), gnuplot_prog(), "-e", expr, script_path, (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	{
		size_t len = 0;
		ssize_t r;
		char buf[512];

		while ((r = read(pipefd[0], buf, sizeof(buf))) > 0)
			for (ssize_t i = 0; i < r && len + 1 < sizeof(msg); i++)
				msg[len++] = buf[i] == '\n' ? ' ' : buf[i];
		msg[len] = '\0';
	}
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	for (size_t i = 0; i < 2; i++) {
		char from[4200], to[4200];

		snprintf(from, sizeof(from), "%s%s", tmpbase, exts[i]);
		snprintf(to, sizeof(to), "%s%s", outbase, exts[i]);
		if (!rc && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			if (rename(from, to))
				rc = rt_err_set(err, -errno, "%s: cannot rename to '%s': %s", from,
						to, strerror(errno));
		} else {
			unlink(from);
		}
	}
	if (!rc && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
		rc = rt_err_set(err, -EIO, "gnuplot failed on '%s': %s", script_path,
				*msg ? msg : "no message");
	return rc;
}

int rt_plot_layers(const struct rt_profile *prof, const struct rt_point *pts, size_t n,
		   const char *config, const char *script_path, struct rt_err *err)
{
	unsigned threads = 0, roof_threads = 0;
	double gmin = INFINITY, imax = 0;
	struct rt_outfile of;
	struct roofs r;
	char base[4096], title[512], prec[8] = "fp32";
	size_t nl = 0;
	int rc;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(pts[i].config, config) && !strcmp(pts[i].scope, "layer") &&
		    !strcmp(pts[i].stat, "median") && pts[i].gflops > 0 && pts[i].intensity > 0) {
			threads = pts[i].threads;
			snprintf(prec, sizeof(prec), "%s", pts[i].precision);
			gmin = fmin(gmin, pts[i].gflops);
			imax = fmax(imax, pts[i].intensity);
			nl++;
		}
	if (!nl)
		return rt_err_set(err, -ENOENT, "no per-layer points for %s", config);
	roof_threads = rt_profile_nearest_threads(prof, threads);
	if ((rc = collect_roofs(prof, roof_threads, prec, &r, err)))
		return rc;
	script_base(base, sizeof(base), script_path);
	if ((rc = rt_outfile_open(&of, script_path, err)))
		return rc;
	fprintf(of.fp, "# The layers of %s on the roofline of %s (%u thread%s)\n", config,
		prof->host, roof_threads, roof_threads > 1 ? "s" : "");
	snprintf(title, sizeof(title), "Layers of %s on %s (forward + backward per iteration)",
		 config, prof->host);
	write_head(of.fp, base, title, fmax(0.001, fmin(r.pmin / 4, gmin / 4)), r.pmax * 3,
		   4 * imax);
	write_roof_functions(of.fp, &r);
	fprintf(of.fp, "$layers << EOD\n");
	for (size_t i = 0; i < n; i++)
		if (!strcmp(pts[i].config, config) && !strcmp(pts[i].scope, "layer") &&
		    !strcmp(pts[i].stat, "median") && pts[i].gflops > 0 && pts[i].intensity > 0)
			fprintf(of.fp, "%.6g %.6g \"%s\"\n", pts[i].intensity, pts[i].gflops,
				pts[i].name);
	fprintf(of.fp, "EOD\nplot_roofline = 'plot ");
	write_roof_clauses(of.fp, &r);
	fprintf(of.fp, ", $layers using 1:2 with points pt 7 ps 1.3 lc rgb \"#000000\" title "
		"\"layers\", $layers using 1:2:3 with labels offset 0.8,0.6 font \",8\" notitle'\n");
	write_tail(of.fp);
	return rt_outfile_commit(&of, err);
}
