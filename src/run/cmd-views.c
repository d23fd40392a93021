/* cmd-views.c: roofline-run's results read back from a directory (for --resume and
 * roofline-plot DIR), its charts and report.html */
#define _GNU_SOURCE
#include "config.h"
#include "run/cmd-results.h"
#include "base/cli.h"
#include "base/util.h"
#include "base/vocab.h"
#include "results/charts.h"
#include "results/plot.h"
#include "results/points.h"
#include "results/views.h"
#include "sweep/runrec.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_REPS RT_CLI_REPEAT_MAX      /* the runs of a configuration */

/* A run's status, as rt_points_runs_kept asks it */
static enum rt_status run_status(const void *run)
{
	const struct rt_cmd_outcome *r = run;

	return !r->ok ? RT_STATUS_FAILED : r->disturbed ? RT_STATUS_DISTURBED : RT_STATUS_OK;
}

void rt_cmd_summarize(struct rt_cmd_result *s)
{
	const enum rt_status kept = rt_points_runs_kept(s->runs, s->n, sizeof(*s->runs),
							run_status);
	double w[MAX_REPS], win[MAX_REPS], su[MAX_REPS];
	unsigned k = 0, kw = 0;

	s->med = -1;
	for (unsigned i = 0; i < s->n && k < MAX_REPS; i++) {
		const struct rt_cmd_outcome *r = &s->runs[i];

		if (run_status(r) != kept)
			continue;
		w[k++] = r->wall;
		/* the work window over the same runs: where each of them had one */
		if (isfinite(r->window)) {
			win[kw] = r->window;
			su[kw++] = r->startup;
		}
	}
	s->disturbed = kept == RT_STATUS_DISTURBED && k;
	s->wall = rt_points_spread(w, k);
	s->win = rt_points_spread(win, kw < k ? 0 : kw);   /* a run without one: no window */
	s->startup_median = s->win.runs ? rt_median(su, kw) : NAN;
	/* the run closest to the median stands for the configuration's counts */
	for (unsigned i = 0; k && i < s->n; i++)
		if (run_status(&s->runs[i]) == kept &&
		    (s->med < 0 || fabs(s->runs[i].wall - s->wall.median) <
				   fabs(s->runs[s->med].wall - s->wall.median)))
			s->med = (int)i;
	s->ran = s->med >= 0;
}

void rt_cmd_results_free(struct rt_sweep_config *cfgs, struct rt_cmd_result *res, size_t n)
{
	for (size_t i = 0; res && i < n; i++) {
		for (unsigned k = 0; res[i].runs && k < res[i].n; k++)
			rt_onednn_tally_free(&res[i].runs[k].t);
		free(res[i].runs);
	}
	free(res);
	rt_sweep_configs_free(cfgs, n);
}

/* A raw log read again: the same lines give the same tally the run made. */
static int tally_log(const char *dir, const char *log, struct rt_onednn_tally *t,
		     unsigned long *lines, const char *csv, size_t line, struct rt_err *err)
{
	struct rt_onednn_reader rd;
	char path[4300], *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *fp;

	/* a file of the directory's onednn/: the reader refused a row naming another */
	snprintf(path, sizeof(path), "%s/%s", dir, log);
	if (rt_check_regular(path, err))
		return -EINVAL;
	if (!(fp = fopen(path, "re")))
		return rt_err_set(err, -errno, "%s:%zu: %s: %s (the raw log its row names)", csv,
				  line, path, strerror(errno));
	rt_onednn_reader_init(&rd);
	while ((len = getline(&buf, &cap, fp)) > 0) {
		struct rt_onednn_exec e;
		const enum rt_onednn_line k = rt_onednn_read(&rd, buf, (size_t)len, &e);

		*lines += k != RT_ONEDNN_OTHER;
		rt_onednn_tally_line(t, k, &e, buf, (size_t)len);
	}
	rt_onednn_reader_fini(&rd);
	free(buf);
	if (ferror(fp)) {
		fclose(fp);
		return rt_err_set(err, -EIO, "%s: read failed", path);
	}
	fclose(fp);
	rt_onednn_tally_sort(t);
	return 0;
}

/* The configurations by name: open addressing, slots hold index + 1 (0: empty), at most
 * half full, so that a directory of many configurations reads in linear time. */
struct cfg_index {
	size_t *slots, nslots;
};

static size_t name_hash(const char *s)
{
	size_t h = 1469598103934665603u;        /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

/* The slot of name: its configuration's, or the empty one it would take. */
static size_t index_slot(const struct cfg_index *x, const struct rt_sweep_config *cfgs,
			 const char *name)
{
	size_t h = name_hash(name) & (x->nslots - 1);

	while (x->slots[h] && strcmp(cfgs[x->slots[h] - 1].name, name))
		h = (h + 1) & (x->nslots - 1);
	return h;
}

/* Room for n configurations (cfgs[0..n) indexed again when it grows). */
static bool index_fit(struct cfg_index *x, const struct rt_sweep_config *cfgs, size_t n)
{
	size_t ns = x->nslots ? x->nslots : 16, *v;

	if (x->nslots && (n + 1) * 2 <= x->nslots)
		return true;
	while ((n + 1) * 2 > ns)
		ns *= 2;
	if (!(v = calloc(ns, sizeof(*v))))
		return false;
	free(x->slots);
	x->slots = v;
	x->nslots = ns;
	for (size_t i = 0; i < n; i++)
		x->slots[index_slot(x, cfgs, cfgs[i].name)] = i + 1;
	return true;
}

/* the configuration named, made from the row when the caller gave none (-2: out of memory,
 * -3: a name longer than a configuration's) */
static long find_cfg(struct rt_sweep_config **cfgs, size_t *n, size_t *cap, struct cfg_index *x,
		     bool make, const char *name, unsigned threads)
{
	size_t h;

	if (!index_fit(x, *cfgs, *n))
		return -2;
	h = index_slot(x, *cfgs, name);
	if (x->slots[h])
		return (long)x->slots[h] - 1;
	if (!make)
		return -1;
	if (strlen(name) >= sizeof((*cfgs)[0].name))
		return -3;
	if (*n == *cap) {
		size_t nc = *cap ? 2 * *cap : 8;
		struct rt_sweep_config *v = realloc(*cfgs, nc * sizeof(*v));

		if (!v)
			return -2;
		*cfgs = v;
		*cap = nc;
	}
	rt_sweep_config_command(&(*cfgs)[*n], name, -1);
	(*cfgs)[*n].threads = threads;
	(*cfgs)[*n].is_default = *n == 0;
	x->slots[h] = *n + 1;
	return (long)(*n)++;
}

int rt_cmd_results_load(const char *dir, struct rt_sweep_config **cfgs, size_t *n,
			struct rt_cmd_result **res, bool *have, struct rt_err *err)
{
	const bool make = *cfgs == NULL;
	char csv[4200];
	size_t ncap = 0, rescap = make ? 0 : *n;
	struct {
		double w[MAX_REPS];
		unsigned n;
	} *bare = NULL;                 /* each configuration's runs without the log */
	struct cfg_index idx = { NULL, 0 };
	struct rt_points_file f = { 0 };
	struct stat st;
	FILE *fp;
	int rc;

	if (make)
		*n = 0;
	snprintf(csv, sizeof(csv), "%s/points.csv", dir);
	if (rt_check_regular(csv, err))
		return -EINVAL;
	if (!(fp = fopen(csv, "re")))
		return rt_err_set(err, errno == ENOENT ? -ENOENT : -errno, "%s: %s", csv,
				  strerror(errno));
	rc = fstat(fileno(fp), &st) ? rt_err_set(err, -errno, "%s: %s", csv, strerror(errno)) :
	     !st.st_size ? rt_err_set(err, -EINVAL, "%s: empty (not roofline-run's points.csv)",
				      csv) :
	     rt_points_csv_load(fp, csv, false, &f, err);
	fclose(fp);
	if (!rc && f.n && !f.command_rows)
		rc = rt_err_set(err, -EINVAL, "%s: roofline-train's rows, not roofline-run's "
				"(roofline-train --resume takes them)", csv);
	if (rc)
		goto out;
	if (rescap && !(bare = calloc(rescap, sizeof(*bare)))) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < f.n; i++) {
		const struct rt_point *w = &f.pts[i];
		const long ci = find_cfg(cfgs, n, &ncap, &idx, make, w->config, w->threads);
		struct rt_cmd_result *s;

		if (ci < 0) {
			rc = ci == -2 ? rt_err_set(err, -ENOMEM, "out of memory") :
			     ci == -3 ? rt_err_set(err, -EINVAL, "%s:%d: a configuration's name of "
						   "%zu characters (at most %zu)", csv, w->line,
						   strlen(w->config), sizeof((*cfgs)[0].name) - 1) :
			     rt_err_set(err, -EINVAL, "%s:%d: configuration '%s' is not one of this "
					"run's (run.cfg)", csv, w->line, w->config);
			goto out;
		}
		if ((size_t)ci >= rescap) {
			size_t nc = rescap ? 2 * rescap : 8;
			struct rt_cmd_result *v = realloc(*res, nc * sizeof(*v));
			__typeof__(bare) b = v ? realloc(bare, nc * sizeof(*b)) : NULL;

			if (v)
				*res = v;
			if (!b) {
				rc = rt_err_set(err, -ENOMEM, "out of memory");
				goto out;
			}
			bare = b;
			memset(*res + rescap, 0, (nc - rescap) * sizeof(**res));
			memset(bare + rescap, 0, (nc - rescap) * sizeof(*bare));
			rescap = nc;
		}
		s = &(*res)[ci];
		if (!strcmp(w->name, "command without the log")) {
			if (w->status == RT_STATUS_OK && bare[ci].n < MAX_REPS)
				bare[ci].w[bare[ci].n++] = w->wall;
			(*res)[ci].bare_tried = true;
			continue;
		}
		/* a claim's runs without the log decide one verdict: made again when it is */
		if (strcmp(w->name, "command"))
			continue;
		if (w->rep > s->n) {
			/* the runs a row names, not MAX_REPS for each configuration */
			struct rt_cmd_outcome *v = realloc(s->runs, w->rep * sizeof(*v));

			if (!v) {
				rc = rt_err_set(err, -ENOMEM, "out of memory");
				goto out;
			}
			s->runs = v;
			memset(v + s->n, 0, (w->rep - s->n) * sizeof(*v));
		}
		{
			struct rt_cmd_outcome *r = &s->runs[w->rep - 1];

			if (w->rep <= s->n && (r->ok || r->reason[0] || r->wall > 0)) {
				rc = rt_err_set(err, -EINVAL, "%s:%d: configuration '%s' run %u "
						"twice", csv, w->line, w->config, w->rep);
				goto out;
			}
			while (s->n < w->rep) {
				rt_onednn_tally_init(&s->runs[s->n].t);
				s->runs[s->n].images_per_s = NAN;
				s->runs[s->n].startup = s->runs[s->n].window = NAN;
				s->n++;
			}
			r->ok = w->status != RT_STATUS_FAILED;
			r->disturbed = w->status == RT_STATUS_DISTURBED;
			r->wall = r->ok ? w->wall : 0;
			r->images_per_s = w->images_per_s;
			r->startup = isnan(w->window) ? NAN : w->startup;
			r->window = isnan(w->startup) ? NAN : w->window;
			rt_cmd_reason_get(r, w->reason);
			if (*w->log && (rc = tally_log(dir, w->log, &r->t, &r->verbose_lines, csv,
						       w->line, err)))
				goto out;
			/* the window was by oneDNN's timestamps where each execution had one */
			r->stamped = r->t.execs && r->t.stamped == r->t.execs;
		}
		s->resumed = true;
		if (have)
			have[ci] = true;
	}
out:
	/* every configuration a row named has a result: (*res)[0..*n) */
	for (size_t i = 0; !rc && i < *n; i++) {
		struct rt_cmd_result *s = &(*res)[i];

		if (!s->resumed)
			continue;
		rt_cmd_summarize(s);
		s->bare = rt_points_spread(bare[i].w, bare[i].n);
	}
	free(idx.slots);
	free(bare);
	rt_points_file_free(&f);
	return rc;
}

size_t rt_cmd_fastest(const struct rt_cmd_result *res, size_t n, bool disturbed_too)
{
	size_t best = SIZE_MAX;

	for (int pass = 0; pass < 1 + disturbed_too && best == SIZE_MAX; pass++)
		for (size_t i = 0; i < n; i++)
			if (res[i].ran && (pass || !res[i].disturbed) &&
			    (best == SIZE_MAX || res[i].wall.median < res[best].wall.median))
				best = i;
	return best;
}

/* The precision a primitive is held against (its roof; NULL: none) added to the chart's
 * comma-separated list of the roofs to draw, once. */
static void prec_add(char *prec, size_t size, const struct rt_roof *roof)
{
	if (roof && !rt_word_in(prec, ',', roof->precision))
		snprintf(prec + strlen(prec), size - strlen(prec), "%s%s", *prec ? "," : "",
			 roof->precision);
}

/* DIR/run-roofline: each configuration's point (oneDNN's FLOPs over oneDNN's time, and over
 * the whole command's wall time) as trajectories along the sweep, and the heaviest primitives
 * of the fastest configuration, under the profile's roofs. */
static int chart_roofline(const char *dir, const struct rt_sweep_config *cfgs,
			  const struct rt_cmd_result *res, size_t n, const struct rt_profile *prof,
			  bool all_roofs, size_t *left, struct rt_err *err)
{
	struct rt_plot_mark *m = calloc(2 * n + 16, sizeof(*m));
	char (*labels)[96] = calloc(16, sizeof(*labels));
	const struct rt_plot_series series[3] = {
		{ "each configuration: oneDNN's FLOPs over oneDNN's time", true },
		{ "... over the whole command's wall time", true },
		{ "the fastest configuration's primitives (dot: share of oneDNN's time)", false },
	};
	const struct rt_cmd_outcome *fast;
	const size_t best = rt_cmd_fastest(res, n, true);
	char base[4200], title[400], prec[64] = "";
	struct rt_cmd_judgement j;
	size_t nm = 0;
	int rc;

	if (!m || !labels) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	if (best == SIZE_MAX) {
		rc = rt_err_set(err, -ENODATA, "no configuration ran");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		const struct rt_cmd_outcome *r;

		if (!res[i].ran)
			continue;
		r = &res[i].runs[res[i].med];
		if (!(r->t.flops > 0 && r->t.bytes > 0 && r->t.ms > 0 && r->wall > 0))
			continue;
		/* an impossible log is no point of this node's: not drawn */
		rt_cmd_judge(r, cfgs[i].threads, prof, &j);
		if (j.log_impossible || j.impossible_prims) {
			++*left;
			continue;
		}
		m[nm++] = (struct rt_plot_mark){ r->t.flops / r->t.bytes,
						 r->t.flops / (r->t.ms / 1e3) / 1e9, 0.1, 0,
						 cfgs[i].name };
		m[nm++] = (struct rt_plot_mark){ r->t.flops / r->t.bytes, r->t.flops / r->wall / 1e9,
						 0.1, 1, NULL };
	}
	fast = &res[best].runs[res[best].med];
	rt_cmd_judge(fast, cfgs[best].threads, prof, &j);
	for (size_t i = 0, k = 0; i < fast->t.n && k < 16; i++) {
		const struct rt_onednn_prim *p = &fast->t.v[i];
		const struct rt_roof *roof = rt_cmd_prim_roof(&j, p);

		if (!p->counted || !(p->flops > 0) || !(p->bytes > 0) || !(p->ms > 0))
			continue;
		if (j.log_impossible || rt_cmd_prim_impossible(&j, p, NULL, 0)) {
			++*left;
			continue;
		}
		prec_add(prec, sizeof(prec), roof);
		snprintf(labels[k], sizeof(labels[k]), "%s %s %.0f%%", p->kind, p->prop,
			 100 * p->ms / fast->t.ms);
		m[nm++] = (struct rt_plot_mark){ p->flops / p->bytes, p->flops / (p->ms / 1e3) / 1e9,
						 p->ms / fast->t.ms, 2, labels[k] };
		k++;
	}
	if (!nm) {
		rc = rt_err_set(err, -ENODATA, *left ? "every point is impossible (summary.txt says "
				"why)" : "no oneDNN primitive with FLOPs ran");
		goto out;
	}
	if (!*prec)
		snprintf(prec, sizeof(prec), "fp32");
	snprintf(title, sizeof(title), "The command's configurations and the primitives of the "
		 "fastest (%.60s) on %.60s: counts from oneDNN's log", cfgs[best].name, prof->host);
	snprintf(base, sizeof(base), "%s/run-roofline", dir);
	/* the roofs at the threads the fastest ran (rt_cmd_threads) */
	rc = rt_plot_marks(prof, rt_cmd_threads(fast, cfgs[best].threads, prof), prec, all_roofs,
			   m, nm, series, 3, title, base, err);
out:
	free(m);
	free(labels);
	return rc;
}

/* A direction in a chart's few characters. */
static const char *short_prop(const char *prop)
{
	static const char *const map[][2] = {
		{ "forward_training", "fwd" }, { "forward_inference", "fwd_inf" },
		{ "forward_scoring", "fwd_inf" }, { "backward_data", "bwd_d" },
		{ "backward_weights", "bwd_w" }, { "backward", "bwd" }, { "undef", "" },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(prop, map[i][0]))
			return map[i][1];
	return prop;
}

/* DIR/primitives-time: the fastest configuration's primitives (fp32 and bf16, the precisions
 * a point holds) against the floors their FLOPs and bytes set. */
static int chart_time(const char *dir, const struct rt_sweep_config *cfgs,
		      const struct rt_cmd_result *res, size_t n, const struct rt_profile *prof,
		      bool all_roofs, size_t *left, struct rt_err *err)
{
	(void)all_roofs;        /* floors, not roofs: no ceiling drawn */
	const size_t best = rt_cmd_fastest(res, n, true);
	struct rt_cmd_judgement j;
	const struct rt_cmd_outcome *r;
	struct rt_point *pts;
	char base[4200];
	size_t np = 0;
	int rc;

	if (best == SIZE_MAX)
		return rt_err_set(err, -ENODATA, "no configuration ran");
	r = &res[best].runs[res[best].med];
	rt_cmd_judge(r, cfgs[best].threads, prof, &j);
	if (j.log_impossible) {
		++*left;
		return rt_err_set(err, -ENODATA, "%s", j.why);
	}
	if (!(pts = calloc(r->t.n + 1, sizeof(*pts))))
		return rt_err_set(err, -ENOMEM, "out of memory");
	pts[0] = (struct rt_point){ .threads = rt_cmd_threads(r, cfgs[best].threads, prof),
				    .ranks = 1, .scope = RT_SCOPE_ITERATION, .stat = RT_STAT_MEDIAN,
				    .status = RT_STATUS_OK, .seconds = r->t.ms / 1e3 };
	snprintf(pts[0].config, sizeof(pts[0].config), "%.63s", cfgs[best].name);
	snprintf(pts[0].name, sizeof(pts[0].name), "oneDNN");
	np = 1;
	/* the 24 slowest: a chart, not a table */
	for (size_t i = 0; i < r->t.n && np <= 24; i++) {
		const struct rt_onednn_prim *p = &r->t.v[i];
		struct rt_point *q = &pts[np];
		const enum rt_precision pr = p->prec;

		if (!p->counted || !(p->ms > 0) || !rt_precision_trains(pr))
			continue;
		if (rt_cmd_prim_impossible(&j, p, NULL, 0)) {
			++*left;
			continue;
		}
		*q = pts[0];
		q->scope = RT_SCOPE_LAYER;
		q->precision = pr;
		q->seconds = p->ms / 1e3;
		q->flops = p->flops;
		q->bytes = p->bytes;
		q->intensity = p->bytes > 0 ? p->flops / p->bytes : 0;
		q->gflops = p->flops / q->seconds / 1e9;
		snprintf(q->name, sizeof(q->name), "%s %s%s%.28s", p->kind, short_prop(p->prop),
			 strcmp(p->prop, "undef") ? " " : "", p->problem);
		np++;
	}
	snprintf(base, sizeof(base), "%s/primitives-time", dir);
	rc = rt_chart_primitives_time(prof, pts, np, pts[0].config, base, err);
	free(pts);
	return rc;
}

int rt_cmd_views(const char *prog, const char *dir, const struct rt_sweep_config *cfgs,
		 const struct rt_cmd_result *res, size_t n, const struct rt_profile *prof,
		 bool all_roofs, const char *const *lead, size_t nlead, struct rt_err *err)
{
	struct rt_views_figure figs[2] = {
		{ "run-roofline", "The configurations and the fastest's primitives on the node's "
				  "roofline", 0 },
		{ "primitives-time", "Where oneDNN's time went: the fastest configuration's "
				     "primitives against their floors", 0 },
	};
	static const struct rt_views_file files[] = {
		{ "summary.txt", "Summary (summary.txt)" },
		{ "run.cfg", "The run's record (run.cfg)" },
	};
	int (*const draw[2])(const char *, const struct rt_sweep_config *,
			     const struct rt_cmd_result *, size_t, const struct rt_profile *, bool,
			     size_t *, struct rt_err *) = { chart_roofline, chart_time };
	char title[400], why[400] = "no machine profile (-p FILE; roofline-probe writes "
				    "machine-profiles/HOST.cfg)";
	bool said = false;

	for (size_t k = 0; k < 2 && prof; k++) {
		struct rt_err e = { 0 };
		size_t left = 0;
		const int rc = draw[k](dir, cfgs, res, n, prof, all_roofs, &left, &e);

		if (left)
			fprintf(stderr, "%s: %s: %zu impossible point%s not drawn (summary.txt says "
				"why)\n", prog, figs[k].name, left, left == 1 ? "" : "s");
		if (rc == 0) {
			figs[k].drawn = 2;
			fprintf(stderr, "%s: chart %s.png, .svg (%s.gp)\n", prog, figs[k].name,
				figs[k].name);
		} else if (rc == RT_PLOT_SCRIPT_ONLY) {
			figs[k].drawn = 1;
			if (!said)
				fprintf(stderr, "%s: %s\n", prog, e.msg);
			said = true;
		} else {
			fprintf(stderr, "%s: no %s chart: %s\n", prog, figs[k].name, e.msg);
			snprintf(why, sizeof(why), "%.399s", e.msg);
		}
	}
	if (!prof)
		fprintf(stderr, "%s: no chart: %s\n", prog, why);
	snprintf(title, sizeof(title), "rooftraj: a command on %s", prof ? prof->host : "this node");
	{
		const struct rt_views_page pg = { .dir = dir, .title = title, .lead = lead,
						  .nlead = nlead, .figs = figs, .nfigs = 2,
						  .no_chart = why, .files = files, .nfiles = 2 };

		return rt_views_page_write(&pg, err);
	}
}

/* The summary's lead lines again: its coverage line, the verdict (the first line after the
 * configurations' table), and the advice (the indented lines under "advice (..."). */
static void summary_lead(const char *dir, char *coverage, char *verdict, size_t size,
			 struct rt_cmd_advice *adv)
{
	char path[4200], *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int state = 0;          /* 0 before the table, 1 in it, 2 after it */
	FILE *fp;

	coverage[0] = verdict[0] = '\0';
	rt_cmd_advice_free(adv);
	snprintf(path, sizeof(path), "%s/summary.txt", dir);
	if (rt_check_regular(path, NULL) || !(fp = fopen(path, "re")))
		return;
	while ((len = getline(&line, &cap, fp)) > 0) {
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (!strncmp(line, "coverage: ", 10) && !coverage[0])
			snprintf(coverage, size, "%s", line);
		if (state == 0 && !strncmp(line, "configuration ", 14))
			state = 1;
		else if (state == 1 && !*line)
			state = 2;
		else if (state == 2 && *line) {
			snprintf(verdict, size, "%s", line);
			state = 3;
		} else if (state == 3 && !strncmp(line, "advice (", 8)) {
			state = 4;
		} else if (state == 4 && !strncmp(line, "  ", 2) && adv->n < RT_CMD_ADVICE_MAX) {
			if ((adv->line[adv->n] = strdup(line + 2)))
				adv->n++;
		} else if (state == 4) {
			break;
		}
	}
	free(line);
	fclose(fp);
}

int rt_cmd_views_redraw(const struct rt_redraw *r, struct rt_err *err)
{
	const char *dir = r->dir;
	struct rt_sweep_config *cfgs = NULL;
	struct rt_cmd_result *res = NULL;
	char coverage[1024], verdict[1024];
	const char *lead[2 + RT_CMD_ADVICE_MAX] = { verdict, coverage };
	struct rt_cmd_advice *adv = calloc(1, sizeof(*adv));
	size_t n = 0;
	int rc = adv ? rt_cmd_results_load(dir, &cfgs, &n, &res, NULL, err) :
		 rt_err_set(err, -ENOMEM, "out of memory");

	if (rc == -ENOENT || (!rc && !n))
		rc = rt_err_set(err, -ENOENT, "%s/points.csv: no configuration finished yet", dir);
	if (!rc) {
		summary_lead(dir, coverage, verdict, sizeof(coverage), adv);
		for (size_t k = 0; k < adv->n; k++)
			lead[2 + k] = adv->line[k];
		rc = rt_cmd_views(r->prog, dir, cfgs, res, n, r->prof, r->all_roofs, lead,
				  2 + adv->n, err);
	}
	if (adv)
		rt_cmd_advice_free(adv);
	free(adv);
	rt_cmd_results_free(cfgs, res, n);
	return rc;
}

/* The points as chart_roofline's first series has them, a disturbed one's label saying so */
int rt_cmd_overlay(const struct rt_overlay *o, struct rt_err *err)
{
	struct rt_plot_series *series = calloc(o->n ? o->n : 1, sizeof(*series));
	struct rt_plot_mark *m = NULL;
	char **names = NULL, prec[64] = "", title[400];
	size_t nm = 0, left = 0;
	unsigned threads = 0;
	int rc = series ? 0 : rt_err_set(err, -ENOMEM, "out of memory");

	for (size_t d = 0; d < o->n && !rc; d++) {
		struct rt_sweep_config *cfgs = NULL;
		struct rt_cmd_result *res = NULL;
		struct rt_profile *own = NULL;
		const struct rt_profile *node = o->prof;
		struct rt_plot_mark *mm;
		struct rt_err pe;
		char **nn, pp[4096];
		size_t n = 0;

		/* a run is judged on the node it ran on: the profile its directory kept (one
		 * that does not read said, the overlay's taken) */
		if (!rt_runrec_profile(o->dirs[d], pp, sizeof(pp), &pe)) {
			if (!rt_profile_load(&own, pp, &pe))
				node = own;
			else
				fprintf(stderr, "%s: %s: its runs judged on the overlay's profile: %s\n",
					o->prog, o->dirs[d], pe.msg);
		}
		series[d] = (struct rt_plot_series){ o->labels[d], true };
		rc = rt_cmd_results_load(o->dirs[d], &cfgs, &n, &res, NULL, err);
		if (rc == -ENOENT || (!rc && !n))
			rc = rt_err_set(err, -ENOENT, "%s/points.csv: no configuration finished yet",
					o->dirs[d]);
		if (!rc && n) {
			if ((mm = realloc(m, (nm + n) * sizeof(*m))))
				m = mm;
			if ((nn = mm ? realloc(names, (nm + n) * sizeof(*names)) : NULL))
				names = nn;
			if (!mm || !nn)
				rc = rt_err_set(err, -ENOMEM, "out of memory");
		}
		for (size_t i = 0; !rc && i < n; i++) {
			const struct rt_cmd_outcome *r = res[i].ran ? &res[i].runs[res[i].med] :
							 NULL;
			struct rt_cmd_judgement j;
			unsigned t;

			if (!r || !(r->t.flops > 0 && r->t.bytes > 0 && r->t.ms > 0))
				continue;
			rt_cmd_judge(r, cfgs[i].threads, node, &j);
			if (j.log_impossible || j.impossible_prims) {
				char why[300] = "";

				if (!j.log_impossible)
					rt_cmd_first_impossible(&j, &r->t, why, sizeof(why));
				if (left++ < 8)
					fprintf(stderr, "%s: %s: %s left out: %s\n", o->prog,
						o->dirs[d], cfgs[i].name, j.log_impossible ? j.why :
						why);
				continue;
			}
			t = rt_cmd_threads(r, cfgs[i].threads, node);
			threads = t > threads ? t : threads;
			for (size_t k = 0; k < r->t.n; k++)
				if (r->t.v[k].counted && r->t.v[k].flops > 0)
					prec_add(prec, sizeof(prec), rt_cmd_prim_roof(&j, &r->t.v[k]));
			if (asprintf(&names[nm], "%s%s", cfgs[i].name,
				     res[i].disturbed ? " (disturbed)" : "") < 0) {
				rc = rt_err_set(err, -ENOMEM, "out of memory");
				break;
			}
			m[nm] = (struct rt_plot_mark){ r->t.flops / r->t.bytes,
						       r->t.flops / (r->t.ms / 1e3) / 1e9, 0.1,
						       (int)d, names[nm] };
			nm++;
		}
		rt_cmd_results_free(cfgs, res, n);
		rt_profile_destroy(own);
	}
	if (!rc && left > 8)
		fprintf(stderr, "%s: %zu configurations left out in all\n", o->prog, left);
	if (!rc && !nm)
		rc = rt_err_set(err, -ENODATA, "no configuration with oneDNN's FLOPs to draw");
	if (!rc) {
		snprintf(title, sizeof(title), "roofline-run's configurations on %.60s: oneDNN's "
			 "FLOPs over oneDNN's time, counts from oneDNN's log", o->prof->host);
		rc = rt_plot_marks(o->prof, threads, *prec ? prec : "fp32", o->all_roofs, m, nm,
				   series, o->n, title, o->outbase, err);
	}
	for (size_t i = 0; i < nm; i++)
		free(names[i]);
	free(names);
	free(m);
	free(series);
	return rc;
}
