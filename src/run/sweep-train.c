/* sweep-train.c: the trainer as a sweep's workload, its parent side: the results directory
 * and its request, a child per configuration, points.csv, the summary, the charts, run.cfg */
#include "config.h"
#include "run/sweep-train.h"
#include "sweep/engine.h"
#include "run/workloads.h"
#include "sweep/resdir.h"
#include "results/plot.h"
#include "run/sweep-child.h"
#include "counters/pmu.h"
#include "cnn/data.h"
#include "node/probe.h"
#include "results/summary.h"
#include "results/views.h"
#include "machine/topo.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


static bool done_before(const struct rt_point *pts, size_t n, const char *config)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(pts[i].config, config))
			return true;
	return false;
}

/* ---- the results directory before a run ---- */

static bool in_names(char (*names)[64], size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return true;
	return false;
}

static void add_note(char *note, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void add_note(char *note, size_t size, const char *fmt, ...)
{
	size_t l = strlen(note);
	va_list ap;

	if (l && l + 2 < size)
		l += (size_t)snprintf(note + l, size - l, "; ");
	va_start(ap, fmt);
	vsnprintf(note + l, size - l, fmt, ap);
	va_end(ap);
}

/* Repair points.csv before measuring: a last line without its newline was cut short while
 * written, and a configuration whose rows do not end with its iteration median was cut at a
 * line boundary (rt_points_config_complete): their rows go, they are measured again; with
 * retry, the rows of failed configurations go too; a file of an earlier rooftraj is rewritten
 * in today's columns. Rewritten atomically from the points read; an unreadable file is an
 * error and is left as it is. */
static int prepare_points(const char *csv, bool retry, char *note, size_t notesize,
			  struct rt_err *err)
{
	char (*drop)[64] = NULL;
	size_t ndrop = 0, nfailed = 0, ncut = 0;
	struct rt_points_file f = { 0 };
	struct rt_outfile of;
	bool upgrade;
	FILE *fp;
	int rc = 0;

	if ((rc = rt_check_regular(csv, err)))
		return rc;
	if (!(fp = fopen(csv, "re")))
		return errno == ENOENT ? 0 : rt_err_set(err, -errno, "%s: %s", csv, strerror(errno));
	rc = rt_points_csv_load(fp, csv, true, &f, err);
	fclose(fp);
	if (rc)
		return rc;
	if (f.command_rows) {           /* rewritten, they would be lost */
		rc = rt_err_set(err, -EINVAL, "%s: roofline-run's rows, not a training sweep's "
				"(roofline-run --resume takes them)", csv);
		goto out;
	}
	if (!(drop = calloc(f.n + 2, sizeof(*drop)))) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	if (f.cut) {
		add_note(note, notesize, "%s: its last line was cut short while written: "
			 "configuration '%s' is measured again", csv,
			 *f.cut_config ? f.cut_config : "(none)");
		if (*f.cut_config)
			snprintf(drop[ndrop++], sizeof(drop[0]), "%s", f.cut_config);
	}
	for (size_t i = 0; i < f.n; i++) {
		const char *c = f.pts[i].config;

		if (in_names(drop, ndrop, c))
			continue;
		if (f.ordered && !rt_points_config_complete(f.pts, f.n, c)) {
			snprintf(drop[ndrop++], sizeof(drop[0]), "%.63s", c);
			add_note(note, notesize, "%s: configuration '%s' has only some of its rows "
				 "(cut while written): measured again", csv, c);
			ncut++;
		} else if (retry && f.pts[i].status == RT_STATUS_FAILED) {
			snprintf(drop[ndrop++], sizeof(drop[0]), "%.63s", c);
			nfailed++;
		}
	}
	if (nfailed)
		add_note(note, notesize, "%zu failed configuration%s measured again (--no-retry "
			 "keeps %s)", nfailed, nfailed > 1 ? "s" : "", nfailed > 1 ? "them" : "it");
	upgrade = f.columns != RT_POINTS_CSV_COLUMNS;
	if (upgrade)
		add_note(note, notesize, "%s: written by an earlier rooftraj: rewritten with "
			 "today's columns", csv);
	if (!ndrop && !upgrade && !f.cut)
		goto out;
	if ((rc = rt_outfile_open(&of, csv, err)))
		goto out;
	rt_points_csv_header(of.fp);
	for (size_t i = 0, j; i < f.n; i = j) {
		/* a configuration's block; an earlier rooftraj's in today's order */
		for (j = i + 1; j < f.n && !strcmp(f.pts[j].config, f.pts[i].config); j++)
			;
		if (upgrade)
			rt_points_order_block(f.pts + i, j - i);
		for (size_t k = i; k < j; k++)
			if (!in_names(drop, ndrop, f.pts[k].config))
				rt_points_csv_row(of.fp, &f.pts[k]);
	}
	rc = rt_outfile_commit(&of, err);
out:
	free(drop);
	rt_points_file_free(&f);
	return rc;
}

/* Whether dir may take this request: new (no results in it: rt_resdir_fresh), or holding the
 * same request (resume: it must) run in the same environment (rt_runrec_env_same); ctx: the
 * measure options (rt_resdir_opts.fits). */
static int request_fits(void *ctx, const char *dir, struct rt_err *err)
{
	const struct rt_sweep_measure_opts *o = ctx;
	struct rt_runrec_request there;
	char diff[2048];
	int rc = rt_runrec_request_read(&there, dir, err);

	if (rc == -ENOENT)
		return o->resume ? rt_err_set(err, -ENOENT, "%s: nothing to resume (no run.cfg "
					      "there)", dir) : rt_resdir_fresh(NULL, dir, err);
	if (!rc && rt_runrec_request_diff(&there, o->req, diff, sizeof(diff)))
		rc = rt_err_set(err, -EEXIST, "%s holds another sweep (%s); give another --out%s",
				dir, diff, o->resume ? "" : ", or --resume it");
	/* the points it adds measured as the directory's first were */
	if (!rc)
		rc = rt_runrec_env_same(dir, "a sweep's points are measured in one environment: "
					"run it as it started, or give another --out", err);
	return rc;
}

/* DIR/run.cfg of the sweep: how it runs (status running; complete, with its end) */
static int write_runcfg(const struct rt_sweep *s, const struct rt_sweep_measure_opts *o,
			const char *started, bool complete, struct rt_err *err)
{
	const struct rt_runrec rec = {
		.comment = "how this sweep was run: enough to run it again (--resume DIR takes "
			   "the request from here)",
		.status = complete ? "complete" : "running", .started = started,
		.cmdline = o->cmdline, .profile = o->req->profile,
		.default_config = s->configs[0].name, .hw_counters = o->hw_counters,
		.configurations = s->nconfigs, .ranks = o->ranks ? o->ranks : 1,
		.configs = o->run ? NULL : s->configs, .prof = o->prof,
		.put = rt_runrec_request_put, .put_ctx = o->req };

	return rt_runrec_write(o->outdir, &rec, err);
}

/* Before anything is measured, in the directory opened for this request (rt_resdir_open with
 * request_fits): run.cfg (status "running"), then points.csv repaired (prepare_points). What
 * it did is said in note (empty: nothing). */
static int prepare_dir(const struct rt_sweep *s, const struct rt_sweep_measure_opts *o,
		       char *note, size_t notesize, struct rt_err *err)
{
	struct rt_buf csv;              /* beside outdir, a path of any length */
	char started[32];
	int rc;

	note[0] = '\0';
	rt_buf_init(&csv);
	/* run.cfg first: the directory says what it holds before anything is measured (and
	 * an unwritable one fails here) */
	rt_timestamp(started, sizeof(started));
	if ((rc = write_runcfg(s, o, started, false, err)))
		goto out;
	rc = rt_buf_printf(&csv, "%s/points.csv", o->outdir) ?
	     rt_err_set(err, -ENOMEM, "out of memory") :
	     prepare_points(csv.s, o->retry, note, notesize, err);
out:
	rt_buf_fini(&csv);
	return rc;
}

static void note_to(void *ctx, const char *msg)
{
	if (ctx)
		fprintf(ctx, "note: %s\n", msg);
}

/* The name the charts' titles give a model: its file's base name without ".cfg". */
static void model_title(char *buf, size_t size, const char *model)
{
	const char *slash = strrchr(model, '/');

	snprintf(buf, size, "%.200s", slash ? slash + 1 : model);
	if (strlen(buf) > 4 && !strcmp(buf + strlen(buf) - 4, ".cfg"))
		buf[strlen(buf) - 4] = '\0';
}

/* The charts and report.html of a finished sweep (views.h). A missing gnuplot is a note (the
 * scripts are there). */
static int draw_charts(const struct rt_sweep *s, const struct rt_sweep_measure_opts *o,
		       const struct rt_point *all, size_t nall, FILE *also, struct rt_err *err)
{
	char what[256];
	struct rt_views_opts vo = { .dir = o->outdir, .what = what,
				    .default_config = s->configs[0].name, .prof = o->prof,
				    .say = note_to, .say_ctx = also };

	model_title(what, sizeof(what), o->req->model);
	if (also)
		fputc('\n', also);
	return rt_views_write(&vo, all, nall, err);
}

/* ---- measuring a configuration ---- */

/* One process's points of a configuration (a child, or the ranks' own run under MPI); none
 * when it failed, and why. */
struct proc {
	struct rt_point *pts;
	size_t n;
	char why[400];
};

/* A process's status, as rt_engine_repeat asks it: failed without points, disturbed where a
 * row of it was */
static enum rt_status proc_status(const void *proc)
{
	const struct proc *p = proc;

	for (size_t i = 0; i < p->n; i++)
		if (p->pts[i].status == RT_STATUS_DISTURBED)
			return RT_STATUS_DISTURBED;
	return p->n ? RT_STATUS_OK : RT_STATUS_FAILED;
}

/* Run configuration c once: 0 with its points in *pr, or 0 with pr->n == 0 and why (it
 * failed); -EINTR when interrupted; another error when nothing can run. */
static int run_once(const struct rt_sweep_measure_opts *o, const struct rt_sweep_config *c,
		    struct proc *pr, struct rt_err *err)
{
	const bool launched = c->ranks > 1 && !o->run;
	char nr[16];
	char *argv[4] = { (char *)o->self, "--emit-points", "/dev/stdin", NULL }, *launch[40];
	struct rt_spawn_io io = { 0 };
	struct rt_outfile rec = { 0 };
	struct rt_child ch;
	char *text = NULL;
	FILE *mem = NULL;
	size_t len = 0, k = 0;
	int rc;

	memset(pr, 0, sizeof(*pr));
	if (launched && !o->mpirun)
		return rt_err_set(err, -EINVAL, "%s: %u ranks and no MPI launcher", c->name,
				  c->ranks);
	/* the configuration goes to the child as a record (fresh processes repeat the
	 * measurement: one run each; under MPI, o->run, the ranks repeat it in their own
	 * processes): on its standard input, held in memory, whole before it starts and nothing
	 * left in the results directory; under the MPI launcher, which gives standard input to
	 * one rank only, in a file created in the results directory, which every rank on every
	 * node reads there, removed once the child ended */
	if (!o->run && (!(mem = open_memstream(&text, &len)) ||
			(rt_runrec_child_put(mem, o->req, c, 1), fclose(mem)))) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	io.input = text;
	io.input_len = len;
	if (launched) {
		if ((rc = rt_outfile_open_in(&rec, o->outdir, "child.cfg", err)))
			goto out;
		fwrite(text, 1, len, rec.fp);
		if ((rc = rt_outfile_close(&rec, err)))
			goto out;
		argv[2] = rec.tmp;
		for (; o->mpirun[k] && k < 30; k++)
			launch[k] = o->mpirun[k];
		snprintf(nr, sizeof(nr), "%u", c->ranks);
		launch[k++] = "-n";
		launch[k++] = nr;
		for (size_t j = 0; argv[j]; j++)
			launch[k++] = argv[j];
		launch[k] = NULL;
	}
	if ((rc = o->run ? o->run(o->run_ctx, c, &ch, err) :
		  rt_spawn_run_envp(launched ? launch : argv, c->env, c->nenv, o->req->timeout,
				    launched ? NULL : &io, &ch, err)))
		goto out;
	if (!ch.ok && !strcmp(ch.reason, "interrupted"))
		rc = -EINTR;
	else if (!ch.ok)
		snprintf(pr->why, sizeof(pr->why), "%s", ch.reason);
	else if (rt_sweep_child_parse(ch.out, ch.outlen, c, &pr->pts, &pr->n, pr->why,
				      sizeof(pr->why)))
		pr->n = 0;
	free(ch.out);
out:
	if (argv[2] == rec.tmp)
		unlink(rec.tmp);
	free(text);
	return rc;
}

/* The configuration's points over its processes: for each row of the first, the median of
 * the processes' medians, the lowest of their minima, the highest of their maxima; the
 * lowest CPU share any got, the most memory any held; `processes` says how many. */
static void aggregate(const struct proc *procs, size_t nproc, struct rt_point *out)
{
	const struct proc *first = &procs[0];
	double *v = calloc(nproc, sizeof(*v));

	for (size_t i = 0; i < first->n; i++) {
		struct rt_point *p = &out[i];
		struct rt_spread sp;

		*p = first->pts[i];
		p->processes = (unsigned)nproc * (first->pts[i].processes ? first->pts[i].processes : 1);
		if (!v || nproc < 2)
			continue;
		for (size_t k = 0; k < nproc; k++) {
			const struct rt_point *q = NULL;

			for (size_t j = 0; j < procs[k].n && !q; j++)
				if (procs[k].pts[j].scope == p->scope && procs[k].pts[j].stat == p->stat &&
				    procs[k].pts[j].source == p->source &&
				    !strcmp(procs[k].pts[j].name, p->name))
					q = &procs[k].pts[j];
			v[k] = q ? q->seconds : p->seconds;
			if (q && (isnan(p->cpu_share) || q->cpu_share < p->cpu_share))
				p->cpu_share = q->cpu_share;
			if (q && q->peak_rss > p->peak_rss)
				p->peak_rss = q->peak_rss;
		}
		sp = rt_points_spread(v, nproc);
		p->seconds = p->stat == RT_STAT_MIN ? sp.lo : p->stat == RT_STAT_MAX ? sp.hi :
			     sp.median;
		if (p->status == RT_STATUS_FUSED)
			p->seconds = 0;
		rt_point_derive(p);
	}
	free(v);
}

/* A failed configuration: one row, its iteration median, with the reason. */
static void failed_row(struct rt_point *p, const struct rt_sweep_config *c, const char *why)
{
	rt_sweep_config_point(p, c);
	p->scope = RT_SCOPE_ITERATION;
	snprintf(p->name, sizeof(p->name), "iteration");
	p->stat = RT_STAT_MEDIAN;
	p->status = RT_STATUS_FAILED;
	snprintf(p->reason, sizeof(p->reason), "%s", why);
}

/* A configuration's processes as rt_engine_repeat runs them */
struct proc_runs {
	const struct rt_sweep_measure_opts *o;
	const struct rt_sweep_config *c;
	size_t idx, nconfigs, nproc;
};

/* process k, its progress said (more than one: which; prev: disturbed, measured again) */
static int proc_run(void *ctx, size_t k, void *slot, const void *prev, struct rt_err *err)
{
	const struct proc_runs *x = ctx;
	char what[64];

	snprintf(what, sizeof(what), "process %zu of %zu", k + 1, x->nproc);
	if (x->o->progress && (prev || x->nproc > 1))
		x->o->progress(x->o->progress_ctx, x->idx + 1, x->nconfigs, x->c->name,
			       prev ? "disturbed: measured again" : what);
	return run_once(x->o, x->c, slot, err);
}

static void proc_drop(void *slot)
{
	free(((struct proc *)slot)->pts);
}

/* Measure configuration c in `nproc` fresh processes (each one whose runs did not get their
 * cores measured once more; the first that fails fails it), into *rows (caller frees): the
 * aggregate, or a failed row. */
static int measure_config(const struct rt_sweep_measure_opts *o, const struct rt_sweep_config *c,
			  size_t idx, size_t nconfigs, struct rt_point **rows, size_t *nrows,
			  struct rt_err *err)
{
	const size_t nproc = o->run ? 1 : (size_t)o->req->repeat;
	struct proc *procs = calloc(nproc, sizeof(*procs));
	struct proc_runs x = { .o = o, .c = c, .idx = idx, .nconfigs = nconfigs, .nproc = nproc };
	const struct rt_engine_repeat r = { .slots = procs, .n = nproc, .size = sizeof(*procs),
					    .again = true, .stop_failed = true, .ctx = &x,
					    .run = proc_run, .status = proc_status,
					    .drop = proc_drop };
	size_t done = 0, nclean = 0;
	enum rt_status kept;
	int rc = 0;

	*rows = NULL;
	*nrows = 0;
	if (!procs)
		return rt_err_set(err, -ENOMEM, "out of memory");
	if ((rc = rt_engine_repeat(&r, &done, &kept, err)))
		goto out;
	if (rt_spawn_interrupted()) {   /* not a result */
		rc = -EINTR;
		goto out;
	}
	if (!(*rows = calloc(procs[0].n ? procs[0].n : 1, sizeof(**rows)))) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	if (!procs[done - 1].n) {
		failed_row(*rows, c, procs[done - 1].why);
		*nrows = 1;
		goto out;
	}
	/* the processes that make the figure (first: their rows are the ones kept) */
	for (size_t k = 0; k < nproc; k++)
		if (proc_status(&procs[k]) == kept) {
			struct proc t = procs[nclean];

			procs[nclean++] = procs[k];
			procs[k] = t;
		}
	aggregate(procs, nclean, *rows);
	*nrows = procs[0].n;
	rt_points_order_block(*rows, *nrows);
out:
	for (size_t k = 0; k < nproc; k++)
		free(procs[k].pts);
	free(procs);
	if (rc) {
		free(*rows);
		*rows = NULL;
		*nrows = 0;
	}
	return rc;
}

/* The trainer as the engine's workload: a sweep's configurations and how they run. */
struct trainer {
	const struct rt_sweep *s;
	const struct rt_sweep_measure_opts *o;
};

static const char *trainer_name(void *ctx, size_t i)
{
	return ((const struct trainer *)ctx)->s->configs[i].name;
}

/* Configuration i in its fresh processes, its rows onto out, its figures into result. */
static int trainer_measure(void *ctx, size_t i, FILE *out, char *result, size_t rsize,
			   struct rt_err *err)
{
	const struct trainer *t = ctx;
	struct rt_point *rows = NULL;
	size_t nrows = 0;
	int rc = measure_config(t->o, &t->s->configs[i], i, t->s->nconfigs, &rows, &nrows, err);

	if (!rc) {
		const struct rt_point *h = &rows[nrows - 1];

		for (size_t k = 0; k < nrows; k++)
			rt_points_csv_row(out, &rows[k]);
		if (h->status == RT_STATUS_FAILED)
			snprintf(result, rsize, "failed: %.200s", h->reason);
		else
			snprintf(result, rsize, "%.1f images/s, %.1f GFLOP/s%s", h->images_per_s,
				 h->gflops, h->status == RT_STATUS_DISTURBED ? ", disturbed" : "");
	}
	free(rows);
	return rc;
}

static void say_note(void *ctx, const char *msg)
{
	fprintf(stderr, "%s: note: %s\n", (const char *)ctx, msg);
}

/* A sweep's views again from its points.csv, the titles and the reference configuration from
 * its run.cfg (without one: the directory's name, points.csv's first configuration). */
static int trainer_redraw(const struct rt_redraw *r, struct rt_err *err)
{
	struct rt_runrec_request req;
	struct rt_err ignored;
	struct rt_point *pts = NULL;
	struct rt_buf path;             /* beside a directory's name of any length */
	char def[64], what[256];
	struct rt_views_opts vo = { .dir = r->dir, .what = what, .default_config = def,
				    .prof = r->prof, .all_roofs = r->all_roofs, .say = say_note,
				    .say_ctx = (void *)r->prog };
	size_t n = 0;
	int rc;

	rt_buf_init(&path);
	if (rt_buf_printf(&path, "%s/points.csv", r->dir))
		rc = rt_err_set(err, -ENOMEM, "out of memory");
	else if (!(rc = rt_points_csv_read(path.s, &pts, &n, err)) && !n)
		rc = rt_err_set(err, -ENOENT, "%s: no points yet (a sweep that has not finished "
				"a configuration)", path.s);
	if (rc)
		goto out;
	rt_runrec_default(r->dir, def, sizeof(def));
	if (rt_runrec_request_read(&req, r->dir, &ignored))
		snprintf(what, sizeof(what), "%.200s", r->dir);
	else
		model_title(what, sizeof(what), req.model);
	if ((rc = rt_views_write(&vo, pts, n, err)))
		goto out;
	for (size_t k = 0; k < RT_VIEWS_NCHARTS; k++) {
		rt_buf_reset(&path);
		if (!rt_buf_printf(&path, "%s/%s.gp", r->dir, rt_views_chart_name(k)) &&
		    !access(path.s, F_OK))
			printf("chart: %s/%s.{gp,png,svg}\n", r->dir, rt_views_chart_name(k));
	}
out:
	free(pts);
	rt_buf_fini(&path);
	return rc;
}

/* Sweeps' trajectories on one chart: each directory's points a series of its own (one
 * directory alone: its own series, as its sweep chart draws them). */
static int trainer_overlay(const struct rt_overlay *o, struct rt_err *err)
{
	struct rt_point *all = NULL;
	struct rt_buf csv;
	size_t nall = 0;
	int rc = 0;

	rt_buf_init(&csv);
	for (size_t d = 0; d < o->n && !rc; d++) {
		struct rt_point *pts = NULL, *q;
		size_t n = 0;

		rt_buf_reset(&csv);
		if (rt_buf_printf(&csv, "%s/points.csv", o->dirs[d]))
			rc = rt_err_set(err, -ENOMEM, "out of memory");
		else if (!(rc = rt_points_csv_read(csv.s, &pts, &n, err)) && !n)
			rc = rt_err_set(err, -ENOENT, "%s: no points yet (a sweep that has not "
					"finished a configuration)", csv.s);
		else if (!rc && !(q = realloc(all, (nall + n) * sizeof(*all))))
			rc = rt_err_set(err, -ENOMEM, "out of memory");
		else if (!rc)
			all = q;
		for (size_t i = 0; !rc && i < n; i++) {
			all[nall] = pts[i];
			if (o->n > 1)
				snprintf(all[nall].run, sizeof(all[nall].run), "%s", o->labels[d]);
			nall++;
		}
		free(pts);
	}
	if (!rc)
		rc = rt_plot_trajectories(o->prof, all, nall, o->n > 1 ? "overlay" : "sweep",
					  o->all_roofs, o->outbase, err);
	free(all);
	rt_buf_fini(&csv);
	return rc;
}

const struct rt_workload rt_workload_trainer = {
	.name = "trainer", .program = "roofline-train", .measure = trainer_measure,
	.redraw = trainer_redraw, .overlay = trainer_overlay,
};

static bool any_succeeded(const struct rt_point *pts, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (pts[i].scope == RT_SCOPE_ITERATION && pts[i].status != RT_STATUS_FAILED)
			return true;
	return false;
}

int rt_sweep_measure(const struct rt_sweep *s, const struct rt_sweep_measure_opts *o, FILE *also,
		   struct rt_err *err)
{
	struct rt_buf csvb, sumb;       /* beside outdir, a path of any length */
	const char *csv, *summary;
	char started[32];
	struct rt_point *old = NULL, *all = NULL;
	size_t nold = 0, nall = 0, measured = 0;
	bool all_measured = false, *have = NULL;
	int rc;

	rt_timestamp(started, sizeof(started));
	rt_buf_init(&csvb);
	rt_buf_init(&sumb);
	(void)rt_buf_printf(&csvb, "%s/points.csv", o->outdir);
	(void)rt_buf_printf(&sumb, "%s/summary.txt", o->outdir);
	csv = csvb.s;
	summary = sumb.s;
	if (csvb.failed || sumb.failed) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	if ((rc = rt_points_csv_read(csv, &old, &nold, err)))
		goto out;
	if (!(have = calloc(s->nconfigs ? s->nconfigs : 1, sizeof(*have)))) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < s->nconfigs; i++)
		have[i] = done_before(old, nold, s->configs[i].name);
	{
		struct trainer t = { .s = s, .o = o };
		const struct rt_engine e = { .w = &rt_workload_trainer, .ctx = &t, .csv = csv,
					     .n = s->nconfigs, .name = trainer_name, .have = have,
					     .progress = o->progress,
					     .progress_ctx = o->progress_ctx };

		rc = rt_engine_run(&e, &measured, err);
	}
	if (rc == -EINTR) {
		/* not a result: the configuration stays unmeasured for --resume */
		rc = rt_err_set(err, -EINTR, "interrupted: the %zu configurations finished are in "
				"%s; --resume %s continues", measured, csv, o->outdir);
		goto out;
	}
	if (rc)
		goto out;
	all_measured = true;
	if ((rc = rt_points_csv_read(csv, &all, &nall, err)))
		goto out;
	{
		struct rt_summary_points sp = { all, nall, s->configs[0].name, o->prof };

		if ((rc = rt_summary_write(o->outdir, rt_summary_points, &sp, NULL, also, err)))
			goto out;
	}
	/* the record first: report.html shows it */
	if ((rc = write_runcfg(s, o, started, true, err)))
		goto out;
	if ((rc = draw_charts(s, o, all, nall, also, err)))
		goto out;
	if (!any_succeeded(all, nall))
		rc = rt_err_set(err, -ECANCELED, "every configuration failed (their reasons are in "
				"%s)", summary);
out:
	/* Ctrl-C while the summary or the charts were made: every point is in points.csv */
	if (rc && all_measured && rt_spawn_interrupted())
		rc = rt_err_set(err, -EINTR, "interrupted while the charts were drawn: every "
				"configuration is in %s; --resume %s draws them", csv, o->outdir);
	free(old);
	free(all);
	free(have);
	rt_buf_fini(&csvb);
	rt_buf_fini(&sumb);
	return rc;
}

/* Everything a sweep needs that can be wrong, checked before anything is measured: the data
 * (opened once), the profile (read, or its destination writable for the quick probe). */
static int preflight(const struct rt_sweep_execute_opts *ro, const struct rt_runrec_request *req,
		     bool *need_probe, struct rt_profile **prof, struct rt_err *err)
{
	const char *ppath = ro->profile_path;
	struct rt_data *d = NULL;
	int rc;

	if ((rc = rt_data_open(&d, req->data, ro->m, (uint64_t)req->seed, err)))
		return rc;
	rt_data_destroy(d);
	*need_probe = false;
	if (ro->resume && ro->profile_recorded) {
		struct rt_buf note;

		rt_buf_init(&note);
		rc = rt_runrec_resume_profile(ro->resume, ppath, prof, &note, err);
		if (!rc && note.s[0])
			rt_say(ro->say, ro->say_ctx, "%s", note.s);
		rt_buf_fini(&note);
		if (rc || *prof)
			return rc;
	}
	if ((rc = rt_check_regular(ppath, err)))
		return rc;
	if (ro->profile_given || access(ppath, F_OK) == 0)
		return rt_profile_load(prof, ppath, err);
	{
		/* the quick probe will write it: fail on an unwritable place now */
		struct rt_outfile probe_file;

		if ((rc = rt_outfile_open(&probe_file, ppath, err)))
			return rc;
		rt_outfile_abort(&probe_file);
	}
	*need_probe = true;
	return 0;
}

int rt_sweep_execute(const struct rt_sweep *s, const struct rt_sweep_execute_opts *ro,
		 struct rt_sweep_measure_opts *o, FILE *also, char *dir, size_t size,
		 struct rt_err *err)
{
	struct rt_profile *prof = NULL;
	struct rt_resdir rd;
	const struct rt_resdir_opts dopt = { .name = ro->m->name, .outdir = ro->outdir,
					     .resume = ro->resume, .what = o->cmdline,
					     .fits = request_fits, .fits_ctx = o };
	char note[2048], hw_verdict[2048];
	bool need_probe = false;
	int rc;

	rt_resdir_init(&rd);
	if (strcmp(o->req->counters, "model") && strcmp(o->req->counters, "none")) {
		/* the node's counters as the children will find them (the same self-check the
		 * hw backend runs), checked once here: for run.cfg (and the report that shows
		 * it), and under auto why every child falls back to the model, said once */
		struct rt_pmu_record prec;
		char pnote[256];
		struct rt_err why = { 0 };

		rt_pmu_verdict(hw_verdict, sizeof(hw_verdict), pnote, sizeof(pnote), &prec, &why);
		o->hw_counters = hw_verdict;
		if (!strcmp(o->req->counters, "auto") && prec.state != RT_PMU_VALIDATED) {
			rt_say(ro->say, ro->say_ctx, "hardware counters: %s; counting the model's FLOPs "
			       "and bytes", prec.why);
		} else if (!strcmp(o->req->counters, "auto")) {
			/* validated, for some work: the configurations whose work is not in it */
			for (size_t t = 0; t < RT_TRAIN_NPRECISIONS; t++) {
				const enum rt_precision p = rt_vocab_train_precisions[t];
				const char *name = rt_precision_name(p);
				const char *const *work = rt_events_train_work(p);
				char w[300];
				bool used = false;

				for (size_t i = 0; i < s->nconfigs; i++)
					used |= s->configs[i].precision == p;
				if (used && !rt_events_trusted_all(prec.check, prec.nchecks, work, w,
								   sizeof(w)))
					rt_say(ro->say, ro->say_ctx, "hardware counters: %s; the %s "
					       "configurations count the model's FLOPs and bytes", w,
					       name);
			}
		}
	}
	o->resume = ro->resume != NULL;
	o->outdir = rd.path;
	/* nothing is measured before every input and destination is known good: a directory
	 * that cannot take this request is refused before anything is written into it */
	if ((rc = preflight(ro, o->req, &need_probe, &prof, err)) ||
	    (rc = rt_resdir_open(&rd, &dopt, err)) ||
	    (rc = prepare_dir(s, o, note, sizeof(note), err)))
		goto out;
	if (note[0])
		rt_say(ro->say, ro->say_ctx, "%s", note);
	if (need_probe) {
		struct rt_probe_opts po = { .quick = true };

		rt_say(ro->say, ro->say_ctx, "no profile for this host: running roofline-probe --quick into %s",
		    ro->profile_path);
		if ((rc = rt_probe_run(&prof, ro->topo, &po, err)) ||
		    (rc = rt_profile_save(prof, ro->profile_path, err)))
			goto out;
	}
	o->prof = prof;
	rc = rt_sweep_measure(s, o, also, err);
	/* a sweep that ran to its end (every configuration failed is an end too) leaves
	 * .partial behind, a resumed one as well */
	if (!rc || rc == -ECANCELED) {
		struct rt_err e2;
		int rc2 = rt_resdir_complete(&rd, &e2);

		if (rc2 && !rc) {
			rc = rc2;
			*err = e2;
		}
	}
out:
	snprintf(dir, size, "%s", rd.path);
	rt_resdir_fini(&rd);
	o->outdir = NULL;               /* rd's */
	o->prof = NULL;
	o->hw_counters = NULL;          /* this function's */
	rt_profile_destroy(prof);
	return rc;
}
