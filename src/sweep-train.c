/* sweep-train.c: the parent side of a training sweep (children, points.csv, summary, run.cfg)
 * and the line protocol a child uses to hand its points back */
#include "config.h"
#include "sweep-train.h"
#include "plot.h"
#include "report.h"
#include "topo.h"
#include "util.h"

#include <errno.h>
#include <libconfig.h>
#include <oneapi/dnnl/dnnl.h>
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

void rt_sweep_emit_point(FILE *fp, const char *scope, const char *name, const char *stat,
			 double seconds, double flops, double bytes, const char *source)
{
	fprintf(fp, "rt-point\t%s\t%s\t%s\t%.9g\t%.17g\t%.17g\t%s\n", scope, name, stat, seconds,
		flops, bytes, source);
}

void rt_sweep_emit_memory(FILE *fp, double weights, double activations, double gradients,
			  double optimizer, double workspace, double peak_rss)
{
	fprintf(fp, "rt-memory\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\n", weights, activations,
		gradients, optimizer, workspace, peak_rss);
}

static void base_point(struct rt_point *p, const struct rt_sweep_config *c)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->config, sizeof(p->config), "%s", c->name);
	p->threads = c->threads;
	/* the global batch: every rank trains c->batch images of it */
	p->batch = c->batch * (c->ranks > 1 ? (long)c->ranks : 1);
	snprintf(p->affinity, sizeof(p->affinity), "%s", rt_affinity_name(c->affinity));
	snprintf(p->precision, sizeof(p->precision), "%s", rt_precision_name(c->precision));
	p->ranks = c->ranks > 1 ? c->ranks : 1;
}

/* Parse a child's output into points; returns how many, or -1 when it held none. */
static int parse_child(char *out, const struct rt_sweep_config *c, struct rt_point *pts, int cap)
{
	double mem[6] = { 0 };
	char impl[64] = "";
	int n = 0;

	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		char *f[8], *save = NULL;
		int nf = 0;

		for (char *t = strtok_r(line, "\t", &save); t && nf < 8; t = strtok_r(NULL, "\t", &save))
			f[nf++] = t;
		if (nf == 8 && !strcmp(f[0], "rt-point") && n < cap) {
			struct rt_point *p = &pts[n++];

			base_point(p, c);
			snprintf(p->scope, sizeof(p->scope), "%s", f[1]);
			snprintf(p->name, sizeof(p->name), "%s", f[2]);
			snprintf(p->stat, sizeof(p->stat), "%s", f[3]);
			p->seconds = strtod(f[4], NULL);
			p->flops = strtod(f[5], NULL);
			p->bytes = strtod(f[6], NULL);
			snprintf(p->source, sizeof(p->source), "%s", f[7]);
			snprintf(p->status, sizeof(p->status), "ok");
		} else if (nf == 2 && !strcmp(f[0], "rt-impl")) {
			snprintf(impl, sizeof(impl), "%s", f[1]);
		} else if (nf == 7 && !strcmp(f[0], "rt-memory")) {
			for (int k = 0; k < 6; k++)
				mem[k] = strtod(f[k + 1], NULL);
		}
	}
	for (int i = 0; i < n; i++) {
		pts[i].weights = mem[0];
		pts[i].activations = mem[1];
		pts[i].gradients = mem[2];
		pts[i].optimizer = mem[3];
		pts[i].workspace = mem[4];
		pts[i].peak_rss = mem[5];
		snprintf(pts[i].impl, sizeof(pts[i].impl), "%s", impl);
		rt_point_derive(&pts[i]);
	}
	return n ? n : -1;
}

static bool done_before(const struct rt_point *pts, size_t n, const char *config)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(pts[i].config, config))
			return true;
	return false;
}

static int write_run_cfg(const char *dir, const struct rt_sweep *s,
			 const struct rt_sweep_train_opts *o, const char *started, struct rt_err *err)
{
	const dnnl_version_t *dv = dnnl_version();
	char e[5][8300];
	char path[4200], ts[32], host[256] = "localhost", hw[32];
	struct rt_outfile of;
	int rc;

	snprintf(path, sizeof(path), "%s/run.cfg", dir);
	if ((rc = rt_outfile_open(&of, path, err)))
		return rc;
	rt_timestamp(ts, sizeof(ts));
	gethostname(host, sizeof(host) - 1);
	rt_topo_hwloc_version(hw, sizeof(hw));
	fprintf(of.fp, "# how this sweep was run: enough to run it again\nrun = {\n"
		"  tool = \"%s %s\";\n  finished = \"%s\";\n  host = \"%s\";\n"
		"  command = \"%s\";\n  model = \"%s\";\n  data = \"%s\";\n  counters = \"%s\";\n"
		"  iterations = %ld; warmup = %ld; repeat = %ld; seed = %ld; timeout = %g;\n"
		"  profile = \"%s\";\n  configurations = %zu;\n  ranks = %u;\n"
		"  libraries = { onednn = \"%d.%d.%d\"; papi = \"%d.%d.%d.%d\"; hwloc_api = \"%s\"; "
		"libconfig = \"%d.%d.%d\"; };\n  started = \"%s\";\n",
		PACKAGE_NAME, PACKAGE_VERSION, ts, rt_cfg_escape(e[0], sizeof(e[0]), host),
		rt_cfg_escape(e[1], sizeof(e[1]), o->cmdline), rt_cfg_escape(e[2], sizeof(e[2]), o->model),
		rt_cfg_escape(e[3], sizeof(e[3]), o->data), o->counters, o->iterations, o->warmup, o->repeat,
		o->seed, o->timeout, rt_cfg_escape(e[4], sizeof(e[4]), o->profile_path), s->nconfigs,
		o->ranks ? o->ranks : 1, dv->major, dv->minor, dv->patch,
		PAPI_VERSION_MAJOR(PAPI_VERSION), PAPI_VERSION_MINOR(PAPI_VERSION),
		PAPI_VERSION_REVISION(PAPI_VERSION), PAPI_VERSION_INCREMENT(PAPI_VERSION), hw,
		LIBCONFIG_VER_MAJOR, LIBCONFIG_VER_MINOR, LIBCONFIG_VER_REVISION, started);
	if (o->prof) {
		const struct rt_profile *p = o->prof;

		fprintf(of.fp, "  cpu = { model = \"%s\"; sockets = %u; cores = %u; pus = %u; "
			"numa_nodes = %u; clock_ghz = %.3f; };\n  caches = [",
			rt_cfg_escape(e[0], sizeof(e[0]), p->cpu.model),
			p->cpu.sockets, p->cpu.cores, p->cpu.pus, p->cpu.numa_nodes, p->cpu.clock_ghz);
		for (size_t i = 0; i < p->ncaches; i++)
			fprintf(of.fp, "%s \"L%d %llu bytes shared by %u cores\"", i ? "," : "",
				p->caches[i].level, (unsigned long long)p->caches[i].size,
				p->caches[i].shared_by);
		fprintf(of.fp, " ];\n");
	}
	fprintf(of.fp, "  environment = [");
	{
		bool first = true;

		for (char **ev = environ; *ev; ev++)
			if (!strncmp(*ev, "OMP_", 4) || !strncmp(*ev, "DNNL_", 5) ||
			    !strncmp(*ev, "KMP_", 4) || !strncmp(*ev, "GOMP_", 5)) {
				fprintf(of.fp, "%s \"%s\"", first ? "" : ",",
					rt_cfg_escape(e[0], sizeof(e[0]), *ev));
				first = false;
			}
	}
	fprintf(of.fp, " ];\n  # each configuration's child: OMP_NUM_THREADS, and OMP_PLACES=cores "
		"with\n  # OMP_PROC_BIND=close (compact) or spread (scatter); none sets neither\n};\n");
	return rt_outfile_commit(&of, err);
}

int rt_sweep_train(const struct rt_sweep *s, const struct rt_sweep_train_opts *o, FILE *also,
		   struct rt_err *err)
{
	char csv[4200], summary[4200], started[32];
	struct rt_point *old = NULL, *all = NULL, *pts = NULL;
	size_t nold = 0, nall = 0;
	FILE *fp = NULL;
	int rc;

	rt_timestamp(started, sizeof(started));
	if ((rc = rt_mkdir_p(o->outdir, err)))
		return rc;
	snprintf(csv, sizeof(csv), "%s/points.csv", o->outdir);
	snprintf(summary, sizeof(summary), "%s/summary.txt", o->outdir);
	if ((rc = rt_points_csv_read(csv, &old, &nold, err)))
		return rc;
	fp = fopen(csv, "a");
	if (!fp) {
		rc = rt_err_set(err, -errno, "%s: %s", csv, strerror(errno));
		goto out;
	}
	if (ftell(fp) == 0)
		rt_points_csv_header(fp);
	pts = calloc(4096, sizeof(*pts));
	if (!pts) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	double t_start = rt_now();
	size_t measured = 0;

	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct rt_sweep_config *c = &s->configs[i];
		char env[3][64], a[8][32], result[300];
		char *argv[40];
		struct rt_child ch;
		int na = 0, np;

		if (done_before(old, nold, c->name)) {
			if (o->progress)
				o->progress(o->progress_ctx, i + 1, s->nconfigs, c->name,
					    "measured before (resumed)");
			continue;
		}
		snprintf(a[0], 32, "%ld", c->batch);
		snprintf(a[1], 32, "%u", c->threads);
		snprintf(a[2], 32, "%ld", o->iterations);
		snprintf(a[3], 32, "%ld", o->warmup);
		snprintf(a[4], 32, "%ld", o->repeat);
		snprintf(a[5], 32, "%ld", o->seed);
		argv[na++] = (char *)o->self;
		argv[na++] = "--model";
		argv[na++] = (char *)o->model;
		argv[na++] = "--batch";
		argv[na++] = a[0];
		argv[na++] = "--threads";
		argv[na++] = a[1];
		argv[na++] = "--iterations";
		argv[na++] = a[2];
		argv[na++] = "--warmup";
		argv[na++] = a[3];
		argv[na++] = "--repeat";
		argv[na++] = a[4];
		argv[na++] = "--seed";
		argv[na++] = a[5];
		argv[na++] = "--data";
		argv[na++] = (char *)o->data;
		argv[na++] = "--counters";
		argv[na++] = (char *)o->counters;
		argv[na++] = "--precision";
		argv[na++] = (char *)rt_precision_name(c->precision);
		if (o->maxpool) {
			argv[na++] = "--maxpool-impl";
			argv[na++] = (char *)o->maxpool;
		}
		if (o->lr) {
			argv[na++] = "--lr";
			argv[na++] = (char *)o->lr;
		}
		argv[na++] = "--emit-points";
		if (o->per_layer)
			argv[na++] = "--per-layer";
		argv[na] = NULL;
		if (o->progress)
			o->progress(o->progress_ctx, i + 1, s->nconfigs, c->name, NULL);
		rt_sweep_env(c, env);
		if ((rc = o->run ? o->run(o->run_ctx, c, &ch, err) :
			  rt_sweep_run_child(argv, env, 3, o->timeout, &ch, err)))
			goto out;
		if (!ch.ok && !strcmp(ch.reason, "interrupted") && !ch.ok) {
			/* not a result: the configuration stays unmeasured for --resume */
			free(ch.out);
			rc = rt_err_set(err, -EINTR, "interrupted: the %zu configurations finished are "
					"in %s; --resume %s continues", measured, csv, o->outdir);
			goto out;
		}
		np = ch.ok ? parse_child(ch.out, c, pts, 4096) : -1;
		if (np < 0) {
			base_point(&pts[0], c);
			snprintf(pts[0].scope, sizeof(pts[0].scope), "iteration");
			snprintf(pts[0].name, sizeof(pts[0].name), "iteration");
			snprintf(pts[0].stat, sizeof(pts[0].stat), "median");
			snprintf(pts[0].status, sizeof(pts[0].status), "failed");
			snprintf(pts[0].reason, sizeof(pts[0].reason), "%s",
				 ch.ok ? "the child printed no points" : ch.reason);
			np = 1;
		}
		free(ch.out);
		for (int k = 0; k < np; k++)
			rt_points_csv_row(fp, &pts[k]);
		/* each configuration lands on disk as it finishes: an interrupted sweep keeps it */
		if (fflush(fp) || ferror(fp)) {
			rc = rt_err_set(err, -EIO, "%s: write failed: %s", csv, strerror(errno));
			goto out;
		}
		measured++;
		{
			/* time left: the mean so far times the configurations to go */
			double left = (rt_now() - t_start) / (double)measured *
				      (double)(s->nconfigs - i - 1);

			if (!strcmp(pts[0].status, "ok"))
				snprintf(result, sizeof(result), "%.1f images/s, %.1f GFLOP/s (about %.0f s "
					 "left)", pts[0].images_per_s, pts[0].gflops, left);
			else
				snprintf(result, sizeof(result), "failed: %.200s (about %.0f s left)",
					 pts[0].reason, left);
		}
		if (o->progress)
			o->progress(o->progress_ctx, i + 1, s->nconfigs, c->name, result);
	}
	if (fclose(fp)) {
		fp = NULL;
		rc = rt_err_set(err, -EIO, "%s: close failed: %s", csv, strerror(errno));
		goto out;
	}
	fp = NULL;
	if ((rc = rt_points_csv_read(csv, &all, &nall, err)) ||
	    (rc = rt_report_summary(summary, all, nall, s->configs[0].name, o->prof, also, err)))
		goto out;
	if (o->prof) {
		char gp[4200], outbase[4200], what[256];
		const char *slash = strrchr(o->model, '/');

		snprintf(gp, sizeof(gp), "%s/trajectories.gp", o->outdir);
		snprintf(outbase, sizeof(outbase), "%s/trajectories", o->outdir);
		snprintf(what, sizeof(what), "%s", slash ? slash + 1 : o->model);
		if (strlen(what) > 4 && !strcmp(what + strlen(what) - 4, ".cfg"))
			what[strlen(what) - 4] = '\0';
		if ((rc = rt_plot_trajectories(o->prof, all, nall, what, gp, err)))
			goto out;
		/* a missing gnuplot is a note (the script is there), not an error */
		rc = rt_plot_render(gp, outbase, err);
		if (rc == -ENOENT) {
			if (also)
				fprintf(also, "\nnote: %s\n", err->msg);
			rc = 0;
		} else if (rc) {
			goto out;
		}
		if (o->per_layer) {
			/* the best configuration's layers */
			const struct rt_point *best = NULL;

			for (size_t i = 0; i < nall; i++)
				if (!strcmp(all[i].scope, "iteration") && !strcmp(all[i].stat, "median") &&
				    !strcmp(all[i].status, "ok") &&
				    (!best || all[i].images_per_s > best->images_per_s))
					best = &all[i];
			snprintf(gp, sizeof(gp), "%s/layers.gp", o->outdir);
			snprintf(outbase, sizeof(outbase), "%s/layers", o->outdir);
			if (best && (rc = rt_plot_layers(o->prof, all, nall, best->config, gp, err)) == 0) {
				rc = rt_plot_render(gp, outbase, err);
				if (rc == -ENOENT)
					rc = 0;
			}
			if (rc && rc != -ENOENT)
				goto out;
			rc = 0;
		}
	}
	rc = write_run_cfg(o->outdir, s, o, started, err);
out:
	if (fp)
		fclose(fp);
	free(old);
	free(all);
	free(pts);
	return rc;
}

int rt_results_profile(const char *dir, char *path, size_t size, struct rt_err *err)
{
	char cfgpath[4200];
	const char *prof = NULL;
	config_t cfg;
	int rc = 0;

	snprintf(cfgpath, sizeof(cfgpath), "%s/run.cfg", dir);
	config_init(&cfg);
	if (!config_read_file(&cfg, cfgpath))
		rc = config_error_type(&cfg) == CONFIG_ERR_FILE_IO ?
		     rt_err_set(err, -ENOENT, "%s: cannot read (give --profile)", cfgpath) :
		     rt_err_set(err, -EINVAL, "%s:%d: %s", cfgpath, config_error_line(&cfg),
				config_error_text(&cfg));
	else if (!config_lookup_string(&cfg, "run.profile", &prof) || !*prof)
		rc = rt_err_set(err, -EINVAL, "%s: no 'profile' in 'run' (give --profile)", cfgpath);
	else
		snprintf(path, size, "%s", prof);
	config_destroy(&cfg);
	return rc;
}
