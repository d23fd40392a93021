/* views.c: a results directory's charts and its report.html */
#include "config.h"
#include "results/views.h"
#include "results/charts.h"
#include "results/plot.h"
#include "results/summary.h"
#include "results/svg.h"
#include "base/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* What one run of the views draws from: the points, the options, and the configuration whose
 * layers the per-layer charts show. */
struct view_ctx {
	const struct rt_views_opts *o;
	const struct rt_point *pts;
	size_t n;
	const char *layers_of;          /* NULL: no configuration measured */
};

static int draw_trajectories(const struct view_ctx *v, const char *base, struct rt_err *err)
{
	return rt_plot_trajectories(v->o->prof, v->pts, v->n, v->o->what, v->o->all_roofs, base,
				    err);
}

static int draw_phases(const struct view_ctx *v, const char *base, struct rt_err *err)
{
	return rt_chart_phases(v->pts, v->n, v->o->what, base, err);
}

static int draw_memory(const struct view_ctx *v, const char *base, struct rt_err *err)
{
	return rt_chart_memory(v->pts, v->n, v->o->what, base, err);
}

static int draw_memory_input(const struct view_ctx *v, const char *base, struct rt_err *err)
{
	return rt_chart_memory_input(v->pts, v->n, v->o->what, base, err);
}

static int draw_layers(const struct view_ctx *v, const char *base, struct rt_err *err)
{
	return rt_plot_layers(v->o->prof, v->pts, v->n, v->layers_of, v->o->all_roofs, base, err);
}

static int draw_layers_time(const struct view_ctx *v, const char *base, struct rt_err *err)
{
	return rt_chart_layers_time(v->o->prof, v->pts, v->n, v->layers_of, base, err);
}

/* what a chart needs beyond the points */
enum { NEEDS_PROFILE = 1, NEEDS_LAYERS = 2, /* nothing to draw is no news: not said */
       QUIET = 4 };

/* The charts, in report.html's order (git's commands[] table, one row a chart). */
static const struct chart {
	const char *name;
	const char *title;
	int (*draw)(const struct view_ctx *v, const char *base, struct rt_err *err);
	unsigned needs;
} charts[RT_VIEWS_NCHARTS] = {
	{ "trajectories", "Roofline trajectories: each configuration under the node's roofs",
	  draw_trajectories, NEEDS_PROFILE },
	{ "phases", "Time per iteration by phase", draw_phases, 0 },
	{ "memory", "Memory by what it holds, along the swept knob", draw_memory, 0 },
	{ "memory-input", "Memory against the input's pixel area: training and inference",
	  draw_memory_input, QUIET },
	{ "layers", "The best configuration's layers on the roofline (the first measured "
	  "configuration's when every one was disturbed)", draw_layers,
	  NEEDS_PROFILE | NEEDS_LAYERS | QUIET },
	{ "layers-time", "The same layers by time, against their floors",
	  draw_layers_time, NEEDS_PROFILE | NEEDS_LAYERS | QUIET },
};

const char *rt_views_chart_name(size_t k)
{
	return k < RT_VIEWS_NCHARTS ? charts[k].name : NULL;
}

/* ---- HTML ---- */

static void esc(FILE *fp, const char *s)
{
	for (; *s; s++) {
		const unsigned char ch = (unsigned char)*s;

		switch (ch) {
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '&': fputs("&amp;", fp); break;
		case '"': fputs("&quot;", fp); break;
		case '\'': fputs("&#39;", fp); break;
		default: fputc(ch < 0x20 && ch != '\n' && ch != '\t' ? ' ' : ch, fp);
		}
	}
}

static void page_head(FILE *fp, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
	      "<title>", fp);
	esc(fp, title);
	fputs("</title>\n<style>\n"
	      "body{font-family:sans-serif;margin:2em auto;max-width:1400px;padding:0 1em;"
	      "color:#222}\n"
	      "h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}\n"
	      "table{border-collapse:collapse;font-size:0.9em;margin:0.5em 0}\n"
	      "td,th{border:1px solid #ccc;padding:0.2em 0.5em;text-align:right}\n"
	      "th{background:#f0f0f0}td.l,th.l{text-align:left}\n"
	      "tr.best td{background:#e8f5e9;font-weight:bold}tr.failed td{color:#a00}\n"
	      "tr.disturbed td{color:#777;font-style:italic}\n"
	      "figure{margin:1em 0}figure svg{width:100%;height:auto;border:1px solid #ddd}\n"
	      "figcaption{font-weight:bold;margin-bottom:0.3em}\n"
	      "pre{background:#f7f7f7;padding:0.7em;overflow-x:auto;font-size:0.85em}\n"
	      ".note{color:#555}.big{font-size:1.15em}\n"
	      "</style>\n</head>\n<body>\n<h1>", fp);
	esc(fp, title);
	fputs("</h1>\n", fp);
}

static void page_tail(FILE *fp)
{
	char now[32];

	rt_timestamp(now, sizeof(now));
	fputs("<p class=\"note\">Written by " PACKAGE_NAME " " PACKAGE_VERSION " at ", fp);
	esc(fp, now);
	fputs(". Every chart is inlined; the page loads nothing else.</p>\n</body>\n</html>\n", fp);
}

/* An SVG file inlined, made safe (svg.h): 0 when it was there and held a chart. */
static int inline_svg(FILE *fp, const char *path, const char *prefix)
{
	struct rt_err err;
	size_t len;
	char *s = rt_slurp_max(path, &len, (size_t)64 << 20, &err);
	int rc;

	if (!s)
		return -1;
	rc = rt_svg_inline(fp, s, prefix);
	free(s);
	return rc;
}

/* A chart this run drew (rendered, or its script written without gnuplot), the k-th of the
 * page: what lies in the directory from another run is never shown. */
static void figure_named(FILE *fp, const char *dir, size_t k, const char *name,
			 const char *title, bool rendered)
{
	struct rt_buf svg;              /* beside dir, a path of any length */
	char prefix[16];

	rt_buf_init(&svg);
	(void)rt_buf_printf(&svg, "%s/%s.svg", dir, name);
	snprintf(prefix, sizeof(prefix), "c%zu_", k);
	fputs("<figure id=\"", fp);
	esc(fp, name);
	fputs("\">\n<figcaption>", fp);
	esc(fp, title);
	fputs("</figcaption>\n", fp);
	if (!rendered) {
		fputs("<p class=\"note\">Not rendered here (gnuplot is not installed): ", fp);
		esc(fp, name);
		fputs(".gp renders it (gnuplot -c SCRIPT).</p>\n", fp);
	} else if (svg.failed) {
		fputs("<p class=\"note\">Not shown: out of memory.</p>\n", fp);
	} else if (inline_svg(fp, svg.s, prefix)) {
		fputs("<p class=\"note\">Too large to inline (over 64 MiB): see ", fp);
		esc(fp, name);
		fputs(".svg and .png beside this page.</p>\n", fp);
	}
	fputs("\n</figure>\n", fp);
	rt_buf_fini(&svg);
}

static void figure(FILE *fp, const char *dir, size_t k, bool rendered)
{
	figure_named(fp, dir, k, charts[k].name, charts[k].title, rendered);
}

/* DIR/NAME shown as it is under its heading (nothing when it cannot be read). */
static void pre_file(FILE *fp, const char *dir, const char *name, const char *heading)
{
	struct rt_buf path;
	struct rt_err err;
	size_t len;
	char *s = NULL;

	rt_buf_init(&path);
	if (!rt_buf_printf(&path, "%s/%s", dir, name))
		s = rt_slurp(path.s, &len, &err);
	rt_buf_fini(&path);
	if (!s)
		return;
	fputs("<h2>", fp);
	esc(fp, heading);
	fputs("</h2>\n<pre>", fp);
	esc(fp, s);
	fputs("</pre>\n", fp);
	free(s);
}

/* The libraries the run had (oneDNN's version, hash and CPU runtime first), as DIR/run.cfg
 * recorded them: its "libraries = { ... };" line, in a note; nothing when it has none. */
static void libraries_note(FILE *fp, const char *dir)
{
	struct rt_buf path;
	struct rt_err err;
	size_t len;
	char *s = NULL, *at, *end;

	rt_buf_init(&path);
	if (!rt_buf_printf(&path, "%s/run.cfg", dir))
		s = rt_slurp(path.s, &len, &err);
	rt_buf_fini(&path);
	if (s && (at = strstr(s, "\n  libraries = {")) && (end = strstr(at + 1, "};"))) {
		*end = '\0';
		fputs("<p class=\"note\">Libraries: ", fp);
		esc(fp, at + strlen("\n  libraries = {"));
		fputs("</p>\n", fp);
	}
	free(s);
}

static void mib(FILE *fp, double bytes)
{
	if (isnan(bytes))
		fputs("<td>-</td>", fp);
	else
		fprintf(fp, "<td>%.1f</td>", bytes / (1024.0 * 1024.0));
}

static void config_table(FILE *fp, const struct rt_point *pts, size_t n,
			 const struct rt_roofbook *book, const struct rt_point *best)
{
	const struct rt_point **v = calloc(n ? n : 1, sizeof(*v));
	size_t nv, above = 0;

	if (!v)
		return;
	fputs("<h2>Configurations</h2>\n<table>\n<tr><th class=\"l\">configuration</th>"
	      "<th>threads</th><th>batch</th><th class=\"l\">affinity</th>"
	      "<th class=\"l\">precision</th><th>ranks</th><th>input</th><th>images/s</th>"
	      "<th>GFLOP/s</th><th>FLOP/byte</th><th class=\"l\">source</th>"
	      "<th class=\"l\">held in</th><th class=\"l\">bound by</th><th>of bound</th>"
	      "<th>allocated MiB</th><th>inference MiB</th><th>peak RSS MiB</th></tr>\n", fp);
	nv = rt_charts_order(pts, n, v);
	for (size_t i = 0; i < nv; i++) {
		const struct rt_point *p = v[i];
		const bool disturbed = p->status == RT_STATUS_DISTURBED;
		struct rt_bound b;
		const bool bound = !disturbed && book && rt_point_bound(p, book, &b) == 0;
		char src[40];

		fprintf(fp, "<tr%s><td class=\"l\">", p == best ? " class=\"best\"" :
			disturbed ? " class=\"disturbed\"" : "");
		esc(fp, p->config);
		fprintf(fp, "</td><td>%u</td><td>%ld</td><td class=\"l\">%s</td><td class=\"l\">%s"
			"</td><td>%u</td><td>", p->threads, p->batch, rt_point_affinity_name(p),
			rt_point_precision_name(p), p->ranks);
		if (p->input_h)
			fprintf(fp, "%ldx%ld", p->input_h, p->input_w);
		rt_point_sources(p, src, sizeof(src));
		fprintf(fp, "</td><td>%.1f</td><td>%.1f</td><td>%.2f</td><td class=\"l\">%s</td>"
			"<td class=\"l\">%s</td><td class=\"l\">", p->images_per_s, p->gflops,
			p->intensity, src, bound ? b.level : "-");
		if (bound)
			esc(fp, b.ceiling);
		if (disturbed) {
			/* its figures are not the machine's: no bound, said why */
			fputs("disturbed, not compared: ", fp);
			esc(fp, p->reason);
		}
		above += bound && b.above;
		if (bound)
			fprintf(fp, "</td><td>%.1f%%%s</td>", 100 * b.fraction,
				b.above ? " (above its roof)" : "");
		else
			fputs("</td><td>-</td>", fp);
		mib(fp, p->weights + p->activations + p->gradients + p->optimizer + p->workspace);
		mib(fp, p->inference);
		mib(fp, p->peak_rss);
		fputs("</tr>\n", fp);
	}
	/* the configurations that failed, and why */
	for (size_t i = 0; i < n; i++) {
		const struct rt_point *p = &pts[i];

		if (p->status != RT_STATUS_FAILED || p->scope != RT_SCOPE_ITERATION)
			continue;
		fputs("<tr class=\"failed\"><td class=\"l\">", fp);
		esc(fp, p->config);
		fputs("</td><td class=\"l\" colspan=\"16\">failed: ", fp);
		esc(fp, p->reason);
		fputs("</td></tr>\n", fp);
	}
	fputs("</table>\n", fp);
	if (above) {
		fprintf(fp, "<p>%zu configuration%s ran above %s: ", above, above > 1 ? "s" : "",
			above > 1 ? "their roofs" : "its roof");
		esc(fp, rt_bound_above_why);
		fputs("</p>\n", fp);
	}
	free(v);
}

/* drawn[k]: 0 not drawn this run, 1 its script written (no gnuplot), 2 rendered */
static int write_page(const struct rt_views_opts *o, const struct rt_point *pts, size_t n,
		      const char *def_name, const struct rt_point *best, const int *drawn,
		      struct rt_err *err)
{
	struct rt_outfile of;
	char title[400];
	int rc;

	if ((rc = rt_outfile_open_in(&of, o->dir, "report.html", err)))
		return rc;
	snprintf(title, sizeof(title), "rooftraj: %s on %s", o->what,
		 o->prof ? o->prof->host : "this node");
	page_head(of.fp, title);
	{
		/* the summary's words: a speedup only when it is outside the noise */
		struct rt_verdict v;
		char verdict[1024];

		rt_points_verdict(pts, n, def_name, &v);
		rt_points_verdict_text(&v, verdict, sizeof(verdict));
		fputs("<p class=\"big\">", of.fp);
		esc(of.fp, verdict);
		fputs(".", of.fp);
		if (v.disturbed)
			fprintf(of.fp, " %zu configuration%s did not get %s cores and %s marked "
				"disturbed, never compared.", v.disturbed, v.disturbed > 1 ? "s" : "",
				v.disturbed > 1 ? "their" : "its", v.disturbed > 1 ? "are" : "is");
	}
	fputs("</p>\n", of.fp);
	libraries_note(of.fp, o->dir);
	fputs("<p class=\"note\">Charts: ", of.fp);
	for (size_t k = 0; k < RT_VIEWS_NCHARTS; k++) {
		if (drawn[k])
			fprintf(of.fp, "<a href=\"#%s\">%s</a> ", charts[k].name,
				charts[k].name);
	}
	fputs("</p>\n", of.fp);
	{
		/* every configuration's bound from one set of roofs */
		struct rt_roofbook *book = NULL;

		if (o->prof)
			(void)rt_roofbook_create(&book, o->prof, NULL);
		config_table(of.fp, pts, n, book, best);
		rt_roofbook_destroy(book);
	}
	for (size_t k = 0; k < RT_VIEWS_NCHARTS; k++)
		if (drawn[k])
			figure(of.fp, o->dir, k, drawn[k] == 2);
	pre_file(of.fp, o->dir, "summary.txt", "Summary (summary.txt)");
	pre_file(of.fp, o->dir, "run.cfg", "The run's record (run.cfg)");
	page_tail(of.fp);
	return rt_outfile_commit(&of, err);
}

int rt_views_write(const struct rt_views_opts *o, const struct rt_point *pts, size_t n,
		   struct rt_err *err)
{
	const char *def_name = o->default_config && *o->default_config ? o->default_config :
			       n ? pts[0].config : "";
	const struct rt_point *best = rt_points_best(pts, n, def_name);
	struct view_ctx v = { .o = o, .pts = pts, .n = n };
	struct rt_buf base;             /* beside o->dir, a path of any length */
	struct rt_err e;
	bool said_gnuplot = false;
	int first = 0, rc, drawn[RT_VIEWS_NCHARTS] = { 0 };

	rt_buf_init(&base);
	/* the layers of the best configuration; of the fastest measured one when every one was
	 * disturbed (its charts say so) */
	if (best)
		v.layers_of = best->config;
	for (size_t i = 0; i < n && !v.layers_of; i++)
		if (rt_point_is_measured(&pts[i]))
			v.layers_of = pts[i].config;
	for (size_t k = 0; k < RT_VIEWS_NCHARTS && first != -EINTR; k++) {
		const struct chart *c = &charts[k];

		rt_buf_reset(&base);
		memset(&e, 0, sizeof(e));
		if (rt_buf_printf(&base, "%s/%s", o->dir, c->name))
			rc = rt_err_set(&e, -ENOMEM, "out of memory");
		else if ((c->needs & NEEDS_PROFILE) && !o->prof)
			rc = rt_err_set(&e, -ENODATA, "no machine profile");
		else if ((c->needs & NEEDS_LAYERS) && !v.layers_of)
			rc = rt_err_set(&e, -ENODATA, "no configuration was measured");
		else
			rc = c->draw(&v, base.s, &e);
		if (rc == 0 || rc == RT_PLOT_SCRIPT_ONLY)
			drawn[k] = rc == 0 ? 2 : 1;
		if (rc == RT_PLOT_SCRIPT_ONLY) {
			/* said once: the scripts are there */
			if (!said_gnuplot)
				rt_say(o->say, o->say_ctx, "%s", e.msg);
			said_gnuplot = true;
		} else if (rc == -ENODATA || rc == -EINVAL) {
			/* nothing to draw: a note, unless the run did not ask for that chart */
			if (!(c->needs & QUIET))
				rt_say(o->say, o->say_ctx, "no %s chart: %s", c->name, e.msg);
		} else if (rc && !first) {
			first = rc;
			*err = e;
		}
	}
	rt_buf_fini(&base);
	rc = write_page(o, pts, n, def_name, best, drawn, &e);
	if (rc && !first) {
		first = rc;
		*err = e;
	}
	return first;
}

int rt_views_page_write(const struct rt_views_page *pg, struct rt_err *err)
{
	struct rt_outfile of;
	bool any = false;
	int rc;

	if ((rc = rt_outfile_open_in(&of, pg->dir, "report.html", err)))
		return rc;
	page_head(of.fp, pg->title);
	for (size_t i = 0; i < pg->nlead; i++) {
		fputs(i ? "<p>" : "<p class=\"big\">", of.fp);
		esc(of.fp, pg->lead[i]);
		fputs("</p>\n", of.fp);
	}
	for (size_t k = 0; k < pg->nfigs; k++)
		any |= pg->figs[k].drawn != 0;
	if (any) {
		fputs("<p class=\"note\">Charts: ", of.fp);
		for (size_t k = 0; k < pg->nfigs; k++) {
			if (!pg->figs[k].drawn)
				continue;
			fputs("<a href=\"#", of.fp);
			esc(of.fp, pg->figs[k].name);
			fputs("\">", of.fp);
			esc(of.fp, pg->figs[k].name);
			fputs("</a> ", of.fp);
		}
		fputs("</p>\n", of.fp);
	} else {
		fputs("<p class=\"note\">No chart: ", of.fp);
		esc(of.fp, pg->no_chart ? pg->no_chart : "nothing to draw");
		fputs(".</p>\n", of.fp);
	}
	for (size_t k = 0; k < pg->nfigs; k++)
		if (pg->figs[k].drawn)
			figure_named(of.fp, pg->dir, k, pg->figs[k].name, pg->figs[k].title,
				     pg->figs[k].drawn == 2);
	for (size_t i = 0; i < pg->nfiles; i++) {
		pre_file(of.fp, pg->dir, pg->files[i].name, pg->files[i].heading);
	}
	page_tail(of.fp);
	return rt_outfile_commit(&of, err);
}

int rt_views_node_page(const struct rt_profile *p, const char *svg_path, const char *why_not,
		       const char *html_path, struct rt_err *err)
{
	struct rt_outfile of;
	char title[400];
	int rc;

	if ((rc = rt_outfile_open(&of, html_path, err)))
		return rc;
	snprintf(title, sizeof(title), "rooftraj: the node %s", p->host);
	page_head(of.fp, title);
	fputs("<p class=\"big\">", of.fp);
	esc(of.fp, p->cpu.model);
	fprintf(of.fp, ": %u socket%s, %u cores, %u processing units, ", p->cpu.sockets,
		p->cpu.sockets > 1 ? "s" : "", p->cpu.cores, p->cpu.pus);
	if (p->cpu.clock_ghz > 0)
		fprintf(of.fp, "%.2f GHz measured, ", p->cpu.clock_ghz);
	else
		fputs("clock not known, ", of.fp);
	fprintf(of.fp, "%.1f GiB available; probed ",
		(double)p->cpu.memory / (1024.0 * 1024.0 * 1024.0));
	esc(of.fp, p->created);
	if (p->onednn[0]) {
		fputs(" with oneDNN ", of.fp);
		esc(of.fp, p->onednn);
		fputs(" (", of.fp);
		esc(of.fp, p->onednn_runtime);
		fputs(")", of.fp);
	}
	fputs(".</p>\n<figure id=\"roofline\"><figcaption>The node's roofline</figcaption>\n",
	      of.fp);
	if (!svg_path || inline_svg(of.fp, svg_path, "r_")) {
		fputs("<p class=\"note\">Not drawn: ", of.fp);
		esc(of.fp, why_not && *why_not ? why_not : "its SVG could not be read");
		fputs(".</p>\n", of.fp);
	}
	fputs("\n</figure>\n<h2>FLOP ceilings</h2>\n<table>\n<tr><th class=\"l\">precision</th>"
	      "<th class=\"l\">ISA</th><th>threads</th><th>GFLOP/s (best)</th><th>median</th>"
	      "<th>spread</th><th>theoretical</th><th class=\"l\">method</th>"
	      "<th class=\"l\">flag</th></tr>\n", of.fp);
	for (size_t i = 0; i < p->nflops; i++) {
		const struct rt_profile_flops *f = &p->flops[i];

		fputs("<tr><td class=\"l\">", of.fp);
		esc(of.fp, f->precision);
		fputs("</td><td class=\"l\">", of.fp);
		esc(of.fp, f->isa);
		fprintf(of.fp, "</td><td>%u</td><td>%.1f</td><td>%.1f</td><td>%.1f%%</td><td>",
			f->threads, f->gflops, f->median, 100 * f->spread);
		if (f->theoretical > 0)
			fprintf(of.fp, "%.1f", f->theoretical);
		fputs("</td><td class=\"l\">", of.fp);
		esc(of.fp, f->method);
		fputs("</td><td class=\"l\">", of.fp);
		esc(of.fp, f->flag);
		fputs("</td></tr>\n", of.fp);
	}
	fputs("</table>\n<h2>Bandwidth ceilings</h2>\n<table>\n<tr><th class=\"l\">level</th>"
	      "<th class=\"l\">kernel</th><th class=\"l\">ISA</th><th>threads</th>"
	      "<th>GB/s (best)</th><th>median</th><th>spread</th><th>working set MiB</th>"
	      "<th class=\"l\">flag</th></tr>\n", of.fp);
	for (size_t i = 0; i < p->nbw; i++) {
		const struct rt_profile_bw *b = &p->bw[i];

		fputs("<tr><td class=\"l\">", of.fp);
		esc(of.fp, b->level);
		fputs("</td><td class=\"l\">", of.fp);
		esc(of.fp, b->kernel);
		fputs("</td><td class=\"l\">", of.fp);
		esc(of.fp, b->isa);
		fprintf(of.fp, "</td><td>%u</td><td>%.1f</td><td>%.1f</td><td>%.1f%%</td>"
			"<td>%.2f</td><td class=\"l\">", b->threads, b->gbytes_per_s, b->median,
			100 * b->spread, (double)b->working_set / (1024.0 * 1024.0));
		esc(of.fp, b->flag);
		fputs("</td></tr>\n", of.fp);
	}
	fputs("</table>\n<h2>Caches, each size by its source, and where each level ends "
	      "(measured)</h2>\n<table>\n<tr><th class=\"l\">level</th><th>size KiB</th>"
	      "<th class=\"l\">named by</th><th>hwloc KiB</th><th>CPUID KiB</th>"
	      "<th>measured end KiB</th><th>line</th><th>shared by</th><th>count</th></tr>\n",
	      of.fp);
	for (size_t i = 0; i < p->ncaches; i++) {
		const struct rt_profile_cache *c = &p->caches[i];
		const struct rt_profile_level *l = NULL;

		for (size_t k = 0; k < p->nlevels; k++)
			if (!strcmp(p->levels[k].level, rt_level_name(c->level)))
				l = &p->levels[k];
		fprintf(of.fp, "<tr><td class=\"l\">L%d</td><td>%.0f</td><td class=\"l\">%s</td>",
			c->level, (double)c->size / 1024.0, c->source[0] ? c->source : "hwloc");
		fprintf(of.fp, "<td>%.0f</td><td>%.0f</td><td>%.0f</td><td>%u</td><td>%u</td>"
			"<td>%u</td></tr>\n", l ? (double)l->hwloc_size / 1024.0 : 0,
			l ? (double)l->cpuid_size / 1024.0 : 0,
			l ? (double)l->measured_size / 1024.0 : 0, c->line, c->shared_by, c->count);
	}
	fputs("</table>\n", of.fp);
	if (p->nnotes) {
		fputs("<h2>Notes</h2>\n<ul>\n", of.fp);
		for (size_t i = 0; i < p->nnotes; i++) {
			fputs("<li>", of.fp);
			esc(of.fp, p->notes[i]);
			fputs("</li>\n", of.fp);
		}
		fputs("</ul>\n", of.fp);
	}
	page_tail(of.fp);
	return rt_outfile_commit(&of, err);
}
