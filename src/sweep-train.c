/* sweep-train.c: the parent side of a training sweep: the results directory and its request,
 * a child per configuration, points.csv, the summary, the charts and run.cfg */
#include "config.h"
#include "sweep-train.h"
#include "plot.h"
#include "sweep-child.h"
#include "counters.h"
#include "data.h"
#include "probe.h"
#include "report.h"
#include "views.h"
#include "topo.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


static bool done_before(const struct rt_point *pts, size_t n, const char *config)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(pts[i].config, config))
			return true;
	return false;
}

/* ---- the results directory before a run ---- */


/* The first field of a CSV row (config names need no quoting) into buf; false when the line
 * holds no comma (cut inside its first field). */
static bool row_config(const char *line, char *buf, size_t size)
{
	const char *comma = strchr(line, ',');

	if (!comma)
		return false;
	snprintf(buf, size, "%.*s", (int)(comma - line), line);
	return true;
}

static bool in_names(char (*names)[64], size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return true;
	return false;
}

/* Repair points.csv: a last line without its newline was cut short while written (the
 * configuration it belongs to is incomplete: its rows go, it runs again); with retry, the
 * rows of failed configurations go too. Rewritten atomically; an unreadable file is an error
 * and is left as it is. */
static int prepare_points(const char *csv, bool retry, char *note, size_t notesize,
			  struct rt_err *err)
{
	char (*drop)[64] = NULL, cut[64] = "";
	size_t len = 0, ndrop = 0, nfailed = 0, nrows = 0;
	struct rt_point *pts = NULL;
	char *text = NULL;
	struct rt_outfile of;
	int rc = 0;

	if ((rc = rt_check_regular(csv, err)))
		return rc;
	if (access(csv, F_OK))
		return 0;
	if (!(text = rt_slurp(csv, &len, err)))
		return err->code;
	if (len && text[len - 1] != '\n') {
		/* the cut line, and the configuration it belongs to */
		char *last = strrchr(text, '\n');
		char prev[64] = "";

		if (!last) {
			/* a cut header: nothing was measured yet */
			text[0] = '\0';
			len = 0;
		} else {
			char *start = last + 1, *p = last;

			while (p > text && p[-1] != '\n')
				p--;
			if (p > text)   /* the line before the cut one, unless it is the header */
				row_config(p, prev, sizeof(prev));
			if (!row_config(start, cut, sizeof(cut)) || !*cut)
				snprintf(cut, sizeof(cut), "%s", prev);
			*start = '\0';
			len = (size_t)(start - text);
		}
		snprintf(note, notesize, "%s: its last line was cut short while written: "
			 "configuration '%s' is measured again", csv, *cut ? cut : "(none)");
	}
	/* what is left must read as points */
	{
		struct rt_outfile probe;
		size_t n = 0;

		if ((rc = rt_outfile_open(&probe, csv, err)))
			goto out;
		fputs(text, probe.fp);
		if ((rc = rt_outfile_close(&probe, err)))
			goto out;
		rc = rt_points_csv_read(probe.tmp, &pts, &n, err);
		unlink(probe.tmp);
		if (rc) {
			/* name the file the user has, not the temporary copy */
			char msg[sizeof(err->msg)];

			snprintf(msg, sizeof(msg), "%s", err->msg + strlen(probe.tmp));
			rt_err_set(err, rc, "%s%s", csv, msg);
			goto out;
		}
		nrows = n;
	}
	drop = calloc(nrows + 1, sizeof(*drop));
	if (!drop) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	if (*cut)
		snprintf(drop[ndrop++], sizeof(drop[0]), "%s", cut);
	for (size_t i = 0; retry && i < nrows; i++)
		if (pts[i].status == RT_STATUS_FAILED && !in_names(drop, ndrop, pts[i].config)) {
			snprintf(drop[ndrop++], sizeof(drop[0]), "%s", pts[i].config);
			nfailed++;
		}
	if (nfailed) {
		size_t l = strlen(note);

		snprintf(note + l, notesize - l, "%s%zu failed configuration%s measured again "
			 "(--no-retry keeps %s)", l ? "; " : "", nfailed, nfailed > 1 ? "s" : "",
			 nfailed > 1 ? "them" : "it");
	}
	{
		/* a file of an earlier rooftraj: its rows again, in today's columns (the new ones
		 * empty), so that new rows can be appended to it */
		char *eol = strchr(text, '\n');
		bool upgrade;

		if (eol)
			*eol = '\0';
		upgrade = *text && rt_points_csv_columns(text) != RT_POINTS_CSV_COLUMNS;
		if (eol)
			*eol = '\n';
		if (upgrade) {
			size_t l = strlen(note);

			snprintf(note + l, notesize - l, "%s%s: written by an earlier rooftraj: "
				 "rewritten with today's columns", l ? "; " : "", csv);
			if ((rc = rt_outfile_open(&of, csv, err)))
				goto out;
			rt_points_csv_header(of.fp);
			for (size_t i = 0; i < nrows; i++)
				if (!in_names(drop, ndrop, pts[i].config))
					rt_points_csv_row(of.fp, &pts[i]);
			rc = rt_outfile_commit(&of, err);
			goto out;
		}
	}
	if (!ndrop && !note[0])
		goto out;
	if ((rc = rt_outfile_open(&of, csv, err)))
		goto out;
	for (char *line = text, *next; *line; line = next) {
		char cfg[64];

		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		if (line != text && row_config(line, cfg, sizeof(cfg)) && in_names(drop, ndrop, cfg))
			continue;
		fwrite(line, 1, (size_t)(next - line), of.fp);
	}
	rc = rt_outfile_commit(&of, err);
out:
	free(drop);
	free(pts);
	free(text);
	return rc;
}

int rt_sweep_train_prepare(const struct rt_sweep *s, const struct rt_sweep_train_opts *o,
			   char *note, size_t notesize, struct rt_err *err)
{
	struct rt_sweep_request there;
	struct rt_runrec rec = { .req = o->req, .cmdline = o->cmdline, .configurations = s->nconfigs,
				 .ranks = o->ranks, .prof = o->prof,
				 .default_config = s->configs[0].name };
	char csv[4200], started[32], diff[2048];
	struct stat st;
	int rc;

	note[0] = '\0';
	snprintf(csv, sizeof(csv), "%s/points.csv", o->outdir);
	rc = rt_sweep_request_read(&there, o->outdir, err);
	if (rc == -ENOENT) {
		if (o->resume)
			return rt_err_set(err, -ENOENT, "%s: nothing to resume (no run.cfg there)",
					  o->outdir);
		if (!stat(csv, &st))
			return rt_err_set(err, -EEXIST, "%s holds points.csv but no run.cfg: not a "
					  "sweep this one can add to (give another --out)", o->outdir);
	} else if (rc) {
		return rc;
	} else if (rt_sweep_request_diff(&there, o->req, diff, sizeof(diff))) {
		return rt_err_set(err, -EEXIST, "%s holds another sweep (%s); give another --out%s",
				  o->outdir, diff, o->resume ? "" : ", or --resume it");
	}
	if ((rc = rt_mkdir_p(o->outdir, err)))
		return rc;
	/* run.cfg first: the directory says what it holds before anything is measured (and
	 * an unwritable one fails here) */
	rt_timestamp(started, sizeof(started));
	rec.started = started;
	if ((rc = rt_runrec_write(o->outdir, &rec, err)))
		return rc;
	return prepare_points(csv, o->retry, note, notesize, err);
}

static void note_to(void *ctx, const char *msg)
{
	if (ctx)
		fprintf(ctx, "note: %s\n", msg);
}

/* The charts and report.html of a finished sweep (views.h). A missing gnuplot is a note (the
 * scripts are there). */
static int draw_charts(const struct rt_sweep *s, const struct rt_sweep_train_opts *o,
		       const struct rt_point *all, size_t nall, FILE *also, struct rt_err *err)
{
	char what[256];
	const char *slash = strrchr(o->req->model, '/');
	struct rt_views_opts vo = { .dir = o->outdir, .what = what,
				    .default_config = s->configs[0].name, .prof = o->prof,
				    .say = note_to, .say_ctx = also };

	snprintf(what, sizeof(what), "%.200s", slash ? slash + 1 : o->req->model);
	if (strlen(what) > 4 && !strcmp(what + strlen(what) - 4, ".cfg"))
		what[strlen(what) - 4] = '\0';
	if (also)
		fputc('\n', also);
	return rt_views_write(&vo, all, nall, err);
}

int rt_sweep_train(const struct rt_sweep *s, const struct rt_sweep_train_opts *o, FILE *also,
		   struct rt_err *err)
{
	char csv[4200], summary[4200], started[32];
	struct rt_point *old = NULL, *all = NULL, *pts = NULL;
	size_t nold = 0, nall = 0, cap = 0, measured = 0;
	double t_start = rt_now();
	bool all_measured = false;
	FILE *fp = NULL;
	int rc;

	rt_timestamp(started, sizeof(started));
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
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct rt_sweep_config *c = &s->configs[i];
		char env[3][64], a[7][32], result[300], why[256] = "", nr[16];
		char *argv[40], *launch[80];
		struct rt_child ch;
		int np;

		if (done_before(old, nold, c->name)) {
			if (o->progress)
				o->progress(o->progress_ctx, i + 1, s->nconfigs, c->name,
					    "measured before (resumed)");
			continue;
		}
		rt_sweep_child_argv(o->self, o->req, c, a, argv);
		if (o->progress)
			o->progress(o->progress_ctx, i + 1, s->nconfigs, c->name, NULL);
		rt_sweep_env(c, env);
		if (c->ranks > 1 && !o->run) {
			/* several ranks: through the MPI launcher, which the timeout kills with
			 * its ranks (one process group) */
			size_t k = 0;

			if (!o->mpirun) {
				rc = rt_err_set(err, -EINVAL, "%s: %u ranks and no MPI launcher", c->name,
						c->ranks);
				goto out;
			}
			for (; o->mpirun[k] && k < 30; k++)
				launch[k] = o->mpirun[k];
			snprintf(nr, sizeof(nr), "%u", c->ranks);
			launch[k++] = "-n";
			launch[k++] = nr;
			for (size_t j = 0; argv[j] && k + 1 < sizeof(launch) / sizeof(launch[0]); j++)
				launch[k++] = argv[j];
			launch[k] = NULL;
		}
		if ((rc = o->run ? o->run(o->run_ctx, c, &ch, err) :
			  rt_spawn_run(c->ranks > 1 ? launch : argv, env, 3, o->req->timeout, &ch,
				       err)))
			goto out;
		if (!ch.ok && !strcmp(ch.reason, "interrupted")) {
			/* not a result: the configuration stays unmeasured for --resume */
			free(ch.out);
			rc = rt_err_set(err, -EINTR, "interrupted: the %zu configurations finished are "
					"in %s; --resume %s continues", measured, csv, o->outdir);
			goto out;
		}
		np = ch.ok ? rt_sweep_child_parse(ch.out, c, &pts, &cap, why, sizeof(why)) : -1;
		free(ch.out);
		if (np < 0) {
			if (!cap && !(pts = calloc(cap = 1, sizeof(*pts)))) {
				rc = rt_err_set(err, -ENOMEM, "out of memory");
				goto out;
			}
			rt_sweep_config_point(&pts[0], c);
			pts[0].scope = RT_SCOPE_ITERATION;
			snprintf(pts[0].name, sizeof(pts[0].name), "iteration");
			pts[0].stat = RT_STAT_MEDIAN;
			pts[0].status = RT_STATUS_FAILED;
			snprintf(pts[0].reason, sizeof(pts[0].reason), "%s", ch.ok ? why : ch.reason);
			np = 1;
		}
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

			if (pts[0].status == RT_STATUS_OK)
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
	all_measured = true;
	if ((rc = rt_points_csv_read(csv, &all, &nall, err)) ||
	    (rc = rt_report_summary(summary, all, nall, s->configs[0].name, o->prof, also, err)))
		goto out;
	{
		const struct rt_runrec rec = { .req = o->req, .cmdline = o->cmdline,
					       .configurations = s->nconfigs, .ranks = o->ranks,
					       .prof = o->prof, .started = started, .complete = true,
					       .default_config = s->configs[0].name };

		/* the record first: report.html shows it */
		if ((rc = rt_runrec_write(o->outdir, &rec, err)))
			goto out;
	}
	rc = draw_charts(s, o, all, nall, also, err);
out:
	if (fp)
		fclose(fp);
	/* Ctrl-C while the summary or the charts were made: every point is in points.csv */
	if (rc && all_measured && rt_spawn_interrupted())
		rc = rt_err_set(err, -EINTR, "interrupted while the charts were drawn: every "
				"configuration is in %s; --resume %s draws them", csv, o->outdir);
	free(old);
	free(all);
	free(pts);
	return rc;
}

/* Everything a sweep needs that can be wrong, checked before anything is measured: the data
 * (opened once), the profile (read, or its destination writable for the quick probe). */
static int preflight(const struct rt_sweep_run_opts *ro, const struct rt_sweep_request *req,
		     bool *need_probe, struct rt_profile **prof, struct rt_err *err)
{
	const char *ppath = ro->profile_path;
	struct rt_data *d = NULL;
	int rc;

	if ((rc = rt_data_open(&d, req->data, ro->m, (uint64_t)req->seed, err)))
		return rc;
	rt_data_destroy(d);
	*need_probe = false;
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

int rt_sweep_run(const struct rt_sweep *s, const struct rt_sweep_run_opts *ro,
		 struct rt_sweep_train_opts *o, FILE *also, char *dir, size_t size,
		 struct rt_err *err)
{
	struct rt_profile *prof = NULL;
	char final_dir[4096] = "", note[1024];
	bool need_probe = false;
	int rc;

	if (!strcmp(o->req->counters, "auto")) {
		const struct rt_counter_backend *b = NULL;
		struct rt_err why = { 0 }, e2;
		void *cctx = NULL;

		/* said once here; every child falls back the same way */
		if (rt_counters_open("auto", &b, &cctx, &why, &e2) == 0) {
			if (why.msg[0])
				rt_say(ro->say, ro->say_ctx, "hardware counters: %s; counting the model's FLOPs and bytes",
				    why.msg);
			b->close(cctx);
		}
	}
	if (ro->resume) {
		snprintf(dir, size, "%s", ro->resume);
	} else if (ro->outdir) {
		snprintf(dir, size, "%s", ro->outdir);
	} else {
		char ts[32];

		rt_timestamp(ts, sizeof(ts));
		snprintf(final_dir, sizeof(final_dir), "results/%s-%s", ro->m->name, ts);
		snprintf(dir, size, "%s.partial", final_dir);
	}
	o->outdir = dir;
	o->resume = ro->resume != NULL;
	/* nothing is measured before every input and destination is known good */
	if ((rc = preflight(ro, o->req, &need_probe, &prof, err)) ||
	    (rc = rt_sweep_train_prepare(s, o, note, sizeof(note), err)))
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
	if ((rc = rt_sweep_train(s, o, also, err)))
		goto out;
	if (final_dir[0]) {
		if (rename(dir, final_dir)) {
			rc = rt_err_set(err, -errno, "%s: cannot rename to '%s': %s", dir, final_dir,
					strerror(errno));
			goto out;
		}
		snprintf(dir, size, "%s", final_dir);
	}
out:
	o->prof = NULL;
	rt_profile_destroy(prof);
	return rc;
}
