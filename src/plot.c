/* plot.c: roofline chart scripts for gnuplot and their rendering to PNG and SVG */
#include "config.h"
#include "plot.h"
#include "util.h"

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

int rt_plot_roofline(const struct rt_profile *p, unsigned threads, const char *script_path,
		     struct rt_err *err)
{
	static const char *const level_order[] = { "L1", "L2", "L3", "L4", "L5", "DRAM" };
	const struct rt_profile_bw *bws[6];
	const struct rt_profile_flops *fl[64];
	double pmax = 0, pmin = INFINITY, bmax = 0, bmin = INFINITY, xmin = 1.0 / 64, xmax = 256;
	size_t nbw = 0, nfl = 0;
	struct rt_outfile of;
	char base[4096];
	FILE *fp;
	int rc;

	if (!threads)
		threads = rt_profile_max_threads(p);
	for (size_t i = 0; i < 6; i++) {
		const struct rt_profile_bw *b = rt_profile_best_bw(p, level_order[i], threads);

		if (b) {
			bws[nbw++] = b;
			bmax = fmax(bmax, b->gbytes_per_s);
			bmin = fmin(bmin, b->gbytes_per_s);
		}
	}
	for (size_t i = 0; i < p->nflops && nfl < 64; i++)
		if (p->flops[i].threads == threads) {
			fl[nfl++] = &p->flops[i];
			pmax = fmax(pmax, p->flops[i].gflops);
			pmin = fmin(pmin, p->flops[i].gflops);
		}
	if (!nbw || !nfl)
		return rt_err_set(err, -EINVAL, "profile has no %s ceilings at %u threads",
				  nbw ? "FLOP" : "bandwidth", threads);
	snprintf(base, sizeof(base), "%s", script_path);
	if (strlen(base) > 3 && !strcmp(base + strlen(base) - 3, ".gp"))
		base[strlen(base) - 3] = '\0';
	rc = rt_outfile_open(&of, script_path, err);
	if (rc)
		return rc;
	fp = of.fp;
	fprintf(fp, "# Roofline of %s at %u thread%s, from its rooftraj machine profile.\n"
		    "# Render: gnuplot %s  (writes OUTBASE.png and OUTBASE.svg;\n"
		    "#   gnuplot -e \"outbase='NAME'\" ... to choose OUTBASE)\n",
		p->host, threads, threads > 1 ? "s" : "", script_path);
	fprintf(fp, "if (!exists(\"outbase\")) outbase = ");
	gp_str(fp, base);
	fprintf(fp, "\nset title ");
	{
		char title[512];

		snprintf(title, sizeof(title), "Roofline of %s (%s), %u thread%s", p->host,
			 p->cpu.model, threads, threads > 1 ? "s" : "");
		gp_str(fp, title);
	}
	fprintf(fp, " noenhanced\n"
		    "set logscale xy 10\n"
		    "set xrange [%g:%g]\nset yrange [%g:%g]\n"
		    "set xlabel \"Arithmetic intensity (FLOP/byte)\"\n"
		    "set ylabel \"Performance (GFLOP/s)\"\n"
		    "set grid xtics ytics mxtics mytics lc rgb \"#dddddd\"\n"
		    "set key outside right top noenhanced\n"
		    "set samples 500\n",
		xmin, xmax, fmax(0.01, fmin(pmin / 4, bmin * xmin)), pmax * 3);
	/* flat roofs start where they meet the highest bandwidth; slanted roofs stop at the top */
	for (size_t i = 0; i < nfl; i++)
		fprintf(fp, "f%zu(x) = x >= %.6g / %.6g ? %.6g : 1/0\n", i, fl[i]->gflops, bmax,
			fl[i]->gflops);
	for (size_t i = 0; i < nbw; i++)
		fprintf(fp, "b%zu(x) = %.6g * x <= %.6g ? %.6g * x : 1/0\n", i,
			bws[i]->gbytes_per_s, pmax, bws[i]->gbytes_per_s);
	fprintf(fp, "set style line 1 lw 2\n"
		    "plot_roofline = 'plot ");
	for (size_t i = 0; i < nfl; i++) {
		char label[160];

		snprintf(label, sizeof(label), "%s %s%s: %.1f GFLOP/s", fl[i]->precision,
			 fl[i]->isa, strcmp(fl[i]->method, "onednn-matmul") ? "" : " (oneDNN matmul)",
			 fl[i]->gflops);
		fprintf(fp, "%sf%zu(x) lw 2 dt %d lc rgb \"%s\" title \"%s\"", i ? ", " : "", i,
			strcmp(fl[i]->precision, "fp64") ? 1 : 2, roof_colors[i % NCOLORS], label);
	}
	for (size_t i = 0; i < nbw; i++)
		fprintf(fp, ", b%zu(x) lw 3 lc rgb \"%s\" title \"%s %s: %.1f GB/s\"", i,
			roof_colors[(nfl + i) % NCOLORS], bws[i]->level, bws[i]->kernel,
			bws[i]->gbytes_per_s);
	fprintf(fp, "'\n"
		    "set terminal pngcairo size 1400,800 font \"sans,10\"\n"
		    "set output outbase.\".png\"\n"
		    "eval plot_roofline\n"
		    "set terminal svg size 1400,800 dynamic font \"sans,10\"\n"
		    "set output outbase.\".svg\"\n"
		    "eval plot_roofline\n"
		    "unset output\n");
	return rt_outfile_commit(&of, err);
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
