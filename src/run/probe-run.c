/* probe-run.c: roofline-probe's work: the node probed, printed, charted; the cluster probe
 * under mpirun */
#include "config.h"
#include "run/probe-run.h"
#include "counters/pmu.h"
#include "base/util.h"
#include "cluster/cluster-probe.h"
#include "results/plot.h"
#include "results/views.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Progress on stderr: one line rewritten on a terminal, a line each otherwise. */
struct progress {
	const char *prog;
	bool tty, on;
	double start;
};

static void on_progress(void *ctx, const char *msg)
{
	const struct progress *ps = ctx;

	if (!ps->on)
		return;
	if (ps->tty)
		fprintf(stderr, "\r\033[K%s: [%5.1fs] %s", ps->prog, rt_now() - ps->start, msg);
	else
		fprintf(stderr, "%s: [%5.1fs] %s\n", ps->prog, rt_now() - ps->start, msg);
}

/* One run of the tool: its options, the node, the profile's path, the progress. */
struct run_ctx {
	const struct rt_probe_run_opts *o;
	const struct rt_topo *topo;
	struct rt_probe_opts probe;
	char path[4096];
	struct progress progress;
};

void rt_probe_print(FILE *out, const struct rt_profile *p)
{
	unsigned th[64];
	size_t nth = 0;

	for (size_t i = 0; i < p->nflops; i++) {
		size_t j;

		for (j = 0; j < nth && th[j] != p->flops[i].threads; j++)
			;
		if (j == nth && nth < 64)
			th[nth++] = p->flops[i].threads;
	}
	char host[sizeof(p->host)], model[sizeof(p->cpu.model)];

	rt_printable(host, sizeof(host), p->host);
	rt_printable(model, sizeof(model), p->cpu.model);
	fprintf(out, "%s: %s; %u package%s, %u cores, %u PUs, %u NUMA node%s; ", host, model,
		p->cpu.sockets, p->cpu.sockets > 1 ? "s" : "", p->cpu.cores,
		p->cpu.pus, p->cpu.numa_nodes, p->cpu.numa_nodes > 1 ? "s" : "");
	if (p->cpu.clock_ghz > 0)
		fprintf(out, "clock %.2f GHz (measured)\n", p->cpu.clock_ghz);
	else            /* rt_kernel_clock_ghz: no timed run kept its CPU */
		fputs("clock not known (other work took the CPU from every timed run: no "
		      "theoretical peaks)\n", out);
	fprintf(out, "\nFLOP ceilings, GFLOP/s (int8: GOP/s), best of runs\n  %-6s %-22s %-15s",
	       "prec", "isa", "method");
	for (size_t j = 0; j < nth; j++)
		fprintf(out, " %6u thr", th[j]);
	fputc('\n', out);
	for (size_t i = 0; i < p->nflops; i++) {
		const struct rt_profile_flops *f = &p->flops[i];
		bool first = true;

		/* one row per (precision, isa): print when this is its first entry */
		for (size_t k = 0; k < i; k++)
			if (!strcmp(p->flops[k].precision, f->precision) &&
			    !strcmp(p->flops[k].isa, f->isa))
				first = false;
		if (!first)
			continue;
		fprintf(out, "  %-6s %-22s %-15s", f->precision, f->isa, f->method);
		for (size_t j = 0; j < nth; j++) {
			const struct rt_profile_flops *g = NULL;

			for (size_t k = 0; k < p->nflops; k++)
				if (p->flops[k].threads == th[j] &&
				    !strcmp(p->flops[k].precision, f->precision) &&
				    !strcmp(p->flops[k].isa, f->isa))
					g = &p->flops[k];
			if (g)
				fprintf(out, " %9.1f%c", g->gflops, g->flag[0] ? '!' : ' ');
			else
				fprintf(out, " %10s", "-");
		}
		fputc('\n', out);
	}
	fprintf(out, "\nBandwidth ceilings, GB/s, best of runs (working set over all threads)\n"
	       "  %-5s %-9s", "level", "kernel");
	for (size_t j = 0; j < nth; j++)
		fprintf(out, " %6u thr (set)   ", th[j]);
	fputc('\n', out);
	for (size_t i = 0; i < p->nbw; i++) {
		const struct rt_profile_bw *b = &p->bw[i];
		bool first = true;

		for (size_t k = 0; k < i; k++)
			if (!strcmp(p->bw[k].level, b->level) && !strcmp(p->bw[k].kernel, b->kernel))
				first = false;
		if (!first)
			continue;
		fprintf(out, "  %-5s %-9s", b->level, b->kernel);
		for (size_t j = 0; j < nth; j++) {
			for (size_t k = 0; k < p->nbw; k++)
				if (p->bw[k].threads == th[j] && !strcmp(p->bw[k].level, b->level) &&
				    !strcmp(p->bw[k].kernel, b->kernel))
					fprintf(out, " %9.1f%c(%5.0f KiB)", p->bw[k].gbytes_per_s,
					       p->bw[k].flag[0] ? '!' : ' ',
					       (double)p->bw[k].working_set / 1024);
		}
		fputc('\n', out);
	}
	for (size_t i = 0; i < p->nflops; i++)
		if (p->flops[i].flag[0]) {
			fprintf(out, "\n! flagged: measured twice and still disturbed or out of order (the "
			       "warnings say why); not used as roofs\n");
			break;
		}
	if (p->nlevels) {
		fprintf(out, "\nMemory levels: the sizes hwloc (sysfs) and CPUID give, against where the "
			"measured curve (one thread) leaves each level\n");
		for (size_t i = 0; i < p->nlevels; i++) {
			const struct rt_profile_level *l = &p->levels[i];
			char h[24] = "-", u[24] = "-", m[24] = "-";

			if (!strcmp(l->level, "DRAM"))
				continue;
			if (l->hwloc_size)
				snprintf(h, sizeof(h), "%.0f KiB", (double)l->hwloc_size / 1024);
			if (l->cpuid_size)
				snprintf(u, sizeof(u), "%.0f KiB", (double)l->cpuid_size / 1024);
			if (l->measured_size)
				snprintf(m, sizeof(m), "%.0f KiB", (double)l->measured_size / 1024);
			fprintf(out, "  %-5s hwloc %12s   cpuid %12s   measured end %12s   named by %-5s "
				"  %s\n", l->level, h, u, m, l->source[0] ? l->source : "hwloc",
				!l->measured_size ? "not measured" : l->agrees ? "agrees" : "DIFFERS");
		}
	}
}


/* A profile's notes from the one numbered `from` on, on stderr (a warning said so). */
static void print_notes(const char *prog, const struct rt_profile *p, size_t from)
{
	/* a note may quote another file's text (a previous profile's host and time) */
	for (size_t i = from; i < p->nnotes; i++) {
		fprintf(stderr, "%s: %s", prog, rt_profile_note_warns(p, i) ? "warning: " : "");
		rt_fputs_printable(p->notes[i], stderr);
		fputc('\n', stderr);
	}
}

/* The node's files from its profile: the profile at path, its chart and page; print: the
 * tables and the paths on x->out. 0, or the error in err. */
static int write_node(struct run_ctx *x, bool print, const struct rt_profile *p,
		      struct rt_err *err)
{
	const struct rt_probe_run_opts *o = x->o;
	const char *path = x->path;
	char outbase[4200], chart[sizeof(outbase) + 3];
	bool drawn = false;
	char nochart[sizeof(err->msg)];
	int rc;

	snprintf(outbase, sizeof(outbase), "%s", path);
	if (strlen(outbase) > 4 && !strcmp(outbase + strlen(outbase) - 4, ".cfg"))
		outbase[strlen(outbase) - 4] = '\0';
	strncat(outbase, "-roofline", sizeof(outbase) - strlen(outbase) - 1);
	snprintf(chart, sizeof(chart), "%s.gp", outbase);
	if ((rc = rt_profile_save(p, path, err)))
		return rc;
	if (print) {
		rt_probe_print(o->out, p);
		fprintf(o->out, "\nprofile: %s   (probe took %.1f s)\n", path,
			rt_now() - x->progress.start);
	}
	snprintf(nochart, sizeof(nochart), "the chart was not asked for (--no-chart)");
	if (o->chart) {
		rc = rt_plot_roofline(p, 0, o->all_roofs, outbase, err);
		drawn = rc == 0;
		snprintf(nochart, sizeof(nochart), "%s", drawn ? "" : err->msg);
		if (rc == 0 && print)
			fprintf(o->out, "chart:   %s.png, %s.svg (script %s)\n", outbase, outbase,
				chart);
		else if (rc == RT_PLOT_SCRIPT_ONLY && print)
			fprintf(o->out, "chart:   %s (note: %s)\n", chart, err->msg);
		else if (rc == -EINVAL)
			/* the profile is written; every ceiling it could draw is flagged */
			fprintf(stderr, "%s: warning: no chart: %s\n", o->prog, err->msg);
		if (rc == RT_PLOT_SCRIPT_ONLY || rc == -EINVAL)
			rc = 0;
	}
	if (!rc) {
		/* the node's page: its ceilings and its chart, one file */
		char html[4300], svg[4300];

		snprintf(html, sizeof(html), "%.4200s", path);
		if (strlen(html) > 4 && !strcmp(html + strlen(html) - 4, ".cfg"))
			html[strlen(html) - 4] = '\0';
		strncat(html, "-report.html", sizeof(html) - strlen(html) - 1);
		snprintf(svg, sizeof(svg), "%.4200s.svg", outbase);
		/* the chart this run drew, never one lying there from another */
		rc = rt_views_node_page(p, drawn ? svg : NULL, nochart, html, err);
		if (!rc && print)
			fprintf(o->out, "page:    %s\n", html);
	}
	return rc;
}

/* Probe this node into path (and its chart and page): 0, or the error in err; print: the
 * tables and the paths on x->out (rank 0, or alone). */
static int probe_node(struct run_ctx *x, bool print, struct rt_profile **out, struct rt_err *err)
{
	const struct rt_probe_run_opts *o = x->o;
	const char *path = x->path;
	struct progress *ps = &x->progress;
	struct rt_profile *p = NULL;
	int rc;

	/* fail on an unwritable destination now, not after the measurements */
	{
		struct rt_outfile probe_file;

		if ((rc = rt_outfile_open(&probe_file, path, err))) {
			if (o->output)
				rt_err_prefix(err, "--profile-out");
			return rc;
		}
		rt_outfile_abort(&probe_file);
	}
	if ((rc = rt_probe_run(&p, x->topo, &x->probe, err))) {
		if (ps->on && ps->tty)
			fputc('\n', stderr);
		return rc;
	}
	if (ps->on && ps->tty)
		fprintf(stderr, "\r\033[K");
	if (access(path, F_OK) == 0) {
		/* the node's previous profile at this path: what moved since, in the notes */
		struct rt_profile *prev = NULL;
		struct rt_err why;

		if (rt_profile_load(&prev, path, &why))
			rt_profile_add_note(p, "the previous profile could not be read to compare: "
					    "%.190s", why.msg);
		else if (rt_profile_compare(p, prev, RT_PROBE_MOVE_TOL) < 0)
			rc = rt_err_set(err, -ENOMEM, "out of memory");
		rt_profile_destroy(prev);
		if (rc)
			goto out;
	}
	print_notes(o->prog, p, 0);
	{
		/* the node's counters: validated on the probe's own kernels, refused, or absent;
		 * kept with the profile (its notes) */
		char verdict[2048], note[256];
		struct rt_err why = { 0 };

		rt_pmu_verdict(verdict, sizeof(verdict), note, sizeof(note), &p->counters, &why);
		p->has_counters = true;
		rt_profile_add_note(p, "%s", note);
		if (print)
			fprintf(o->out, "%s\n", verdict);
	}
	rc = write_node(x, print, p, err);
out:
	if (rc)
		rt_profile_destroy(p);
	else
		*out = p;
	return rc;
}

/* Whether a reference profile holds a ceiling a node can be held against: trusted, not 0. */
static bool reference_usable(const struct rt_profile *p)
{
	for (size_t i = 0; i < p->nflops; i++)
		if (!p->flops[i].flag[0] && p->flops[i].gflops > 0)
			return true;
	for (size_t i = 0; i < p->nbw; i++)
		if (!p->bw[i].flag[0] && p->bw[i].gbytes_per_s > 0)
			return true;
	return false;
}

/* Replace each %h of a path template with the host name. */
static void expand_host(char *dst, size_t size, const char *tmpl, const char *host)
{
	size_t n = 0;

	for (const char *p = tmpl; *p && n + 1 < size; p++) {
		if (p[0] == '%' && p[1] == 'h') {
			n += (size_t)snprintf(dst + n, size - n, "%s", host);
			if (n >= size)
				n = size - 1;
			p++;
		} else {
			dst[n++] = *p;
		}
	}
	dst[n] = '\0';
}

/* The cluster probe's callback: this node, as probe_node prints it. */
static int probe_this_node(void *ctx, bool report, struct rt_profile **p, struct rt_err *err)
{
	struct run_ctx *x = ctx;

	x->progress.on = x->progress.on && report;
	return probe_node(x, report, p, err);
}

/* The cluster probe's second look: the ceilings the cluster found this node below on,
 * measured again into its profile (each with a note, printed as the probe prints its notes),
 * and the node's files written again. */
static int again_this_node(void *ctx, struct rt_profile *p, const struct rt_cluster_again *a,
			   size_t n, struct rt_err *err)
{
	struct run_ctx *x = ctx;
	const unsigned threads = rt_profile_max_threads(p);
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		const size_t before = p->nnotes;

		rc = rt_probe_again(p, x->topo, &x->probe, a[i].ceiling, threads, a[i].sustained,
				    a[i].why, err);
		print_notes(x->o->prog, p, before);
	}
	if (x->progress.on && x->progress.tty)
		fprintf(stderr, "\r\033[K");
	return rc ? rc : write_node(x, false, p, err);
}

static void say_rank(void *ctx, const char *msg)
{
	const struct run_ctx *x = ctx;

	fprintf(stderr, "%s: %s\n", x->o->prog, msg);
}

/* Under mpirun: every node, the network, the cluster profile (rank 0 reads the reference
 * first: a bad one fails before anything is measured). */
static int run_cluster(struct run_ctx *x, const struct rt_cluster *cl)
{
	const struct rt_probe_run_opts *o = x->o;
	struct rt_profile *refp = NULL;
	struct rt_err err = { 0 };
	int rc;

	if (o->reference && cl->rank == 0 && rt_profile_load(&refp, o->reference, &err)) {
		fprintf(stderr, "%s: --reference: %s\n", o->prog, err.msg);
		rt_cluster_abort(cl, 1);
	}
	{
		/* fail on an unwritable cluster profile now, on every rank, not after every
		 * node's measurements */
		struct rt_outfile cluster_file;
		bool bad = false;

		if (cl->rank == 0) {
			bad = rt_outfile_open(&cluster_file, o->cluster_path, &err) != 0;
			if (bad)
				fprintf(stderr, "%s: --cluster: %s\n", o->prog, err.msg);
			else
				rt_outfile_abort(&cluster_file);
		}
		if (rt_cluster_max(cl, bad) > 0) {
			rt_profile_destroy(refp);
			return 1;
		}
	}
	if (refp && !reference_usable(refp)) {
		fprintf(stderr, "%s: --reference: %s: no usable ceiling (every one is flagged or zero): "
			"nothing to hold the nodes against\n", o->prog, o->reference);
		rt_cluster_abort(cl, 1);
	}
	if (!o->sustain_given)
		x->probe.sustain_seconds = 1;
	{
		const struct rt_cluster_probe_opts co = {
			.host = o->host, .path = x->path, .cluster_path = o->cluster_path,
			.threshold = o->threshold, .one_at_a_time = o->one_at_a_time,
			.reference = refp, .reference_path = o->reference,
			.probe_node = probe_this_node, .again_node = again_this_node, .ctx = x,
			.say = say_rank, .out = o->out,
		};

		rc = rt_cluster_probe(cl, &co);
	}
	rt_profile_destroy(refp);
	return rc;
}

int rt_probe_run_tool(const struct rt_probe_run_opts *o, const struct rt_cluster *cl,
		      const struct rt_topo *topo)
{
	struct run_ctx x = { .o = o, .topo = topo, .probe = o->probe,
			     .progress = { .prog = o->prog, .tty = isatty(STDERR_FILENO),
					   .start = rt_now() } };
	struct rt_profile *p = NULL;
	struct rt_err err = { 0 };
	char safe[256], note[512];

	/* the host's name in a file name: a safe one, mapped with a note if need be */
	if (!rt_safe_name_map(safe, sizeof(safe), o->host ? o->host : cl->host) && o->output &&
	    strstr(o->output, "%h"))
		fprintf(stderr, "%s: note: the host name '%s' is not a safe file name: %%h is '%s'\n",
			o->prog, cl->host, safe);
	if (o->output)
		expand_host(x.path, sizeof(x.path), o->output, safe);
	else if (!rt_profile_default_path(x.path, sizeof(x.path), o->host ? o->host : cl->host,
					  note, sizeof(note)))
		fprintf(stderr, "%s: note: %s\n", o->prog, note);
	x.progress.on = x.progress.tty || o->verbose;
	x.probe.progress = on_progress;
	x.probe.progress_ctx = &x.progress;
	x.probe.host = o->host;
	if (cl->active)
		return run_cluster(&x, cl);
	if (probe_node(&x, true, &p, &err)) {
		fprintf(stderr, "%s: %s\n", o->prog, err.msg);
		return 1;
	}
	rt_profile_destroy(p);
	return 0;
}
