/* cmd-summary.c: roofline-run's summary.txt: what the counts cover, the configurations'
 * table, the claim against the default (on the runs without the log where they ran), --sweep
 * tune's winners, what an fpmath mode did, the default's heaviest primitives under their roofs
 * and the advice */
#define _GNU_SOURCE
#include "config.h"
#include "run/cmd-summary.h"
#include "base/util.h"
#include "counters/onednn-log.h"
#include "machine/cpu.h"
#include "node/roofs.h"
#include "results/points.h"
#include "sweep/runrec.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

extern char **environ;

/* A word as a shell reads it back, whole: as it is, or single-quoted (a quote inside as
 * '\'') */
static void put_shell_word(FILE *fp, const char *s)
{
	if (!strpbrk(s, " \t\n\"'\\$`;&|<>()*?[]#~!{}") && *s) {
		fputs(s, fp);
		return;
	}
	fputc('\'', fp);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", fp);
		else
			fputc(*s, fp);
	fputc('\'', fp);
}

/* Whether configurations are compared on their work windows: every one that ran had one in
 * each of the runs its figures are of (else on the whole command's wall time). */
static bool on_window(const struct rt_cmd_result *res, size_t n)
{
	bool any = false;

	for (size_t i = 0; i < n; i++)
		if (res[i].ran) {
			if (!res[i].win.runs)
				return false;
			any = true;
		}
	return any;
}

/* The results as compared: on the work window, each one's wall the window's. */
static void compared(struct rt_cmd_result *dst, const struct rt_cmd_result *res, size_t n,
		     bool win)
{
	for (size_t i = 0; i < n; i++) {
		dst[i] = res[i];
		if (win && res[i].win.runs)
			dst[i].wall = res[i].win;
	}
}

/* The verdict on s against the default d, their seconds with the log (as compared). */
static enum rt_faster faster(const struct rt_cmd_result *s, const struct rt_cmd_result *d)
{
	return rt_points_faster(&s->wall, &d->wall, false, NULL);
}

/* Whether s was measured faster than the default d with the log, as the verdict judges it:
 * both undisturbed, s's range under d's (the medians from a single run of either). */
static bool beats(const struct rt_cmd_result *s, const struct rt_cmd_result *d)
{
	return s->ran && !s->disturbed && d->ran && !d->disturbed &&
	       faster(s, d) >= RT_FASTER_UNKNOWN;
}

/* The framework (said, or of the default's log) when every knob o sweeps is one it cannot
 * read (affinity and OMP_, KMP_, GOMP_ variables under TensorFlow's pool): its configurations
 * are the default as it sees them. NULL otherwise. */
static const struct rt_cmd_framework *knobs_inert(const struct rt_cmd_run_opts *o,
						  const struct rt_cmd_result *res)
{
	const struct rt_cmd_framework *f;
	bool any = false;

	if (o->tune || o->nknobs || res[0].med < 0)
		return NULL;
	f = rt_cmd_framework_of(o->framework, res[0].runs[res[0].med].t.runtime);
	for (size_t i = 0; o->grid && i < o->grid->nknobs; i++) {
		if (o->grid->knobs[i].knob != RT_KNOB_AFFINITY ||
		    !rt_cmd_framework_inert(f, "OMP_PLACES"))
			return NULL;
		any = true;
	}
	for (size_t i = 0; i < o->nenv; i++) {
		if (!rt_cmd_framework_inert(f, o->env[i].name))
			return NULL;
		any = true;
	}
	return any ? f : NULL;
}

/* The configuration a claim is made of: the fastest; under --sweep tune the fastest of those
 * that beat the default (its alternatives and their combination), else the fastest; none
 * where no knob swept could act. */
static size_t pick(const struct rt_cmd_run_opts *o, const struct rt_cmd_result *res, size_t n)
{
	size_t best = SIZE_MAX;

	if (knobs_inert(o, res))
		return SIZE_MAX;

	for (size_t i = 1; o->tune && i < n; i++)
		if (beats(&res[i], &res[0]) &&
		    (best == SIZE_MAX || res[i].wall.median < res[best].wall.median))
			best = i;
	return best == SIZE_MAX ? rt_cmd_fastest(res, n, false) : best;
}

size_t rt_cmd_pick_compared(const struct rt_cmd_run_opts *o, const struct rt_cmd_result *res,
			    size_t n, double *best_med, double *def_med)
{
	struct rt_cmd_result *cmp = calloc(n, sizeof(*cmp));
	size_t best;

	if (!cmp)
		return SIZE_MAX;        /* out of memory: no claim to confirm */
	compared(cmp, res, n, on_window(res, n));
	best = pick(o, cmp, n);
	if (best != SIZE_MAX) {
		*best_med = cmp[best].wall.median;
		*def_med = cmp[0].wall.median;
	}
	free(cmp);
	return best;
}

/* Whether tune's alternatives i and j set the same knob. */
bool rt_cmd_tune_same_knob(const struct rt_cmd_run_opts *o, size_t i, size_t j)
{
	if (o->tune_threads[i] || o->tune_threads[j])
		return o->tune_threads[i] && o->tune_threads[j];
	return o->tune_knob[i].kind == o->tune_knob[j].kind;
}

size_t rt_cmd_tune_winners(const struct rt_cmd_run_opts *o, const struct rt_cmd_result *res,
			   size_t *win)
{
	size_t nw = 0;

	for (size_t i = 0; i < o->ntune; i++) {
		bool first = beats(&res[1 + i], &res[0]);

		for (size_t j = 0; j < o->ntune && first; j++)
			if (j != i && rt_cmd_tune_same_knob(o, i, j) && beats(&res[1 + j], &res[0]) &&
			    (res[1 + j].wall.median < res[1 + i].wall.median ||
			     (res[1 + j].wall.median == res[1 + i].wall.median && j < i)))
				first = false;
		if (first)
			win[nw++] = i;
	}
	return nw;
}

/* The summary's words on --sweep tune: what was measured, what won, the set chosen, what
 * the node lacked. */
static void tune_summary(FILE *fp, const struct rt_cmd_run_opts *o,
			 const struct rt_sweep_config *cfgs, const struct rt_cmd_result *res,
			 size_t n, size_t best, const char *basis, bool confirmed)
{
	size_t win[RT_CMD_TUNE_MAX], nw = n > o->ntune ? rt_cmd_tune_winners(o, res, win) : 0;

	fprintf(fp, "\ntune: %zu alternative%s this node offers, each varied alone against the "
		"default (not their product):", o->ntune, o->ntune == 1 ? "" : "s");
	for (size_t i = 0; i < o->ntune; i++)
		fprintf(fp, "%s %s", i ? "," : "", o->tune_alt[i]);
	fputc('\n', fp);
	if (!nw) {
		fprintf(fp, "tune: none was measurably faster than the default with the log\n");
	} else {
		fprintf(fp, "tune: faster than the default with the log (the fastest value of each "
			"knob, %s):", basis);
		for (size_t i = 0; i < nw; i++)
			fprintf(fp, "%s %s (%.3f s against %.3f s)", i ? "," : "",
				cfgs[1 + win[i]].name, res[1 + win[i]].wall.median,
				res[0].wall.median);
		fputc('\n', fp);
		for (size_t i = 0; i < n; i++)
			if (cfgs[i].together)
				fprintf(fp, "tune: the winners together, %s: %s\n", cfgs[i].name,
					!res[i].ran ? "did not run" : res[i].disturbed ?
					"disturbed in every run" : beats(&res[i], &res[0]) ?
					"faster than the default with the log" :
					"not measurably faster than the default with the log");
	}
	if (nw && best != SIZE_MAX && best > 0 && beats(&res[best], &res[0])) {
		const struct rt_cmd_result *b = &res[best], *d = &res[0];

		if (!b->cf_tried || !d->cf_tried)
			fprintf(fp, "tune: the set chosen: %s, the fastest of those that beat the "
				"default with the log; not confirmed without it (not run so)\n",
				cfgs[best].name);
		else if (confirmed)
			fprintf(fp, "tune: the set chosen: %s, the fastest of those that beat the "
				"default with the log, confirmed without it (the verdict above)\n",
				cfgs[best].name);
		else
			fprintf(fp, "tune: the set chosen: the default (the environment untouched): "
				"%s beat it with the log, but the runs without the log did not "
				"confirm it (%s)\n", cfgs[best].name, !b->cf.runs || !d->cf.runs ?
				"every run of one of the two was disturbed or failed" :
				"not measurably faster without it");
	} else {
		fprintf(fp, "tune: the set chosen: the default (the environment untouched): no "
			"alternative beat it\n");
	}
	fprintf(fp, "tune: what this node lacks: %s\n", o->tune_lacked[0] ? o->tune_lacked :
		"nothing (each of tune's knobs was offered)");
}

/* What the default is: oneDNN's version, runtime, threads and ISA as its log's info lines say
 * them, and the variables of this environment that set them (the default configuration adds
 * none; the log's own are roofline-run's) */
static void describe_default(FILE *fp, const struct rt_onednn_tally *t)
{
	bool any = false;

	if (t->version[0] || t->runtime[0] || t->nthr || t->isa[0]) {
		fprintf(fp, "the default: oneDNN %s", t->version[0] ? t->version :
			"(its version not said)");
		if (t->runtime[0])
			fprintf(fp, ", %s runtime", t->runtime);
		if (t->nthr)
			fprintf(fp, ", %u thread%s", t->nthr, t->nthr == 1 ? "" : "s");
		if (t->isa[0])
			fprintf(fp, ", ISA %s", t->isa);
		fputc('\n', fp);
	}
	fprintf(fp, "the default's environment: ");
	for (char **ev = environ; *ev; ev++)
		if (rt_runrec_env_kind(*ev) == RT_RUNREC_ENV_RUN &&
		    strncmp(*ev, "ONEDNN_VERBOSE=", 15) && strncmp(*ev, "DNNL_VERBOSE=", 13)) {
			fprintf(fp, "%s%s", any ? " " : "", *ev);
			any = true;
		}
	if (!any)
		fprintf(fp, "no OMP_, KMP_, GOMP_, DNNL_, ONEDNN_, MKL_, OPENBLAS_ variable, "
			"LD_PRELOAD or LD_LIBRARY_PATH set: each library's own defaults");
	fputc('\n', fp);
}

/* The framework as --framework says it or the default's log shows it (its oneDNN's runtime),
 * the variable its threads knob set, and the knobs swept that it cannot read: said, for their
 * configurations differ from the default in nothing it reads */
static void describe_framework(FILE *fp, const struct rt_cmd_run_opts *o,
			       const struct rt_onednn_tally *t)
{
	const struct rt_cmd_framework *f = rt_cmd_framework_of(o->framework, t->runtime);
	bool threads = o->tune, affinity = false;
	char inert[400] = "";
	size_t at = 0;

	if (!f) {
		if (t->runtime[0])
			fprintf(fp, "framework: not known: oneDNN's %s runtime is neither PyTorch's "
				"(OpenMP) nor TensorFlow's (threadpool); --framework says it\n",
				t->runtime);
		return;
	}
	for (size_t i = 0; o->grid && i < o->grid->nknobs; i++) {
		threads |= o->grid->knobs[i].knob == RT_KNOB_THREADS;
		affinity |= o->grid->knobs[i].knob == RT_KNOB_AFFINITY;
	}
	fprintf(fp, "framework: %s (", f->name);
	if (o->framework == RT_CMD_FW_AUTO)
		fprintf(fp, "the default's log: oneDNN's %s runtime", t->runtime);
	else
		fprintf(fp, "--framework %s", f->word);
	fputc(')', fp);
	if (t->runtime[0] && strcmp(t->runtime, f->runtime))
		fprintf(fp, ", yet the default's log names oneDNN's %s runtime, not %s's %s: "
			"--framework may not be this command's", t->runtime, f->name, f->runtime);
	if (threads)
		fprintf(fp, "; its threads read %s%s", f->threads_var,
			o->framework == RT_CMD_FW_AUTO ? " (the threads knob set it and the other "
			"framework's, which it does not read)" : " (the threads knob set it)");
	fputc('\n', fp);
	if (affinity && rt_cmd_framework_inert(f, "OMP_PLACES"))
		at += (size_t)snprintf(inert + at, sizeof(inert) - at, "affinity (OMP_PLACES, "
				       "OMP_PROC_BIND)");
	for (size_t i = 0; i < o->nenv && at < sizeof(inert); i++)
		if (rt_cmd_framework_inert(f, o->env[i].name))
			at += (size_t)snprintf(inert + at, sizeof(inert) - at, "%senv:%s",
					       at ? ", " : "", o->env[i].name);
	if (at)
		fprintf(fp, "framework: %s had no effect: no OpenMP runtime reads it under %s's "
			"own thread pool, so what its configurations show against the default is "
			"the node's noise, not its doing (--framework %s refuses it; swept alone, "
			"nothing is compared)\n", inert, f->name, f->word);
	/* KMP_ is Intel's (and LLVM's) OpenMP's; which OpenMP the command loaded, the log
	 * does not say */
	for (size_t i = 0; f->openmp && i < o->nenv; i++)
		if (!strncmp(o->env[i].name, "KMP_", 4))
			fprintf(fp, "framework: env:%s acts only where the command loads Intel's or "
				"LLVM's OpenMP (libiomp5, libomp): GNU's libgomp, which PyTorch's PyPI "
				"wheels load, does not read it, and oneDNN's log does not say which ran\n",
				o->env[i].name);
}

/* The verdict on a configuration faster than the default with the log (b and d as compared:
 * on basis, "work window" or "wall time"): the runs without the log decide (the log's lines
 * cost each configuration its own share of the time, so a speedup with the log need not be
 * one without it), by the command's own throughput where each of those runs printed one,
 * else by their wall time (they have no primitives, so no window); the logged figures said
 * after them. */
static void claim(char *v, size_t vs, const char *name, const struct rt_cmd_result *b,
		  const struct rt_cmd_result *d, const char *basis, bool *confirmed)
{
	/* the program's own throughput (higher is faster) where each run printed one */
	const bool img = b->cf_img.runs == b->cf.runs && d->cf_img.runs == d->cf.runs;
	const struct rt_spread *sb = img ? &b->cf_img : &b->cf, *sd = img ? &d->cf_img : &d->cf;
	const struct rt_verdict_side lb = { NULL, b->wall, b->wall.runs },
				     ld = { NULL, d->wall, d->wall.runs };
	char fb[160], fd[160], logged[420];
	struct rt_verdict_say say = { { name, *sb, sb->runs }, { NULL, *sd, sd->runs }, img,
				      false, NULL, img ? " without the log (run in turn, the "
				      "command's own throughput)" : " without the log (run in turn, "
				      "wall time)",
				      logged };

	*confirmed = false;
	rt_points_verdict_figure(&lb, false, fb, sizeof(fb));
	rt_points_verdict_figure(&ld, false, fd, sizeof(fd));
	snprintf(logged, sizeof(logged), "; with the log %s against the default's %s (%s: "
		 "%.2fx%s)", fb, fd, basis, d->wall.median / b->wall.median,
		 faster(b, d) == RT_FASTER_UNKNOWN ? ", the spread not known" :
		 ", outside both ranges");
	if (!b->cf_tried || !d->cf_tried)
		snprintf(v, vs, "best configuration: %s, %s; not confirmed without the log (it was "
			 "not run so: read back by --resume, interrupted, or under a launcher)", name,
			 logged + 2);
	else if (!b->cf.runs || !d->cf.runs)
		snprintf(v, vs, "no configuration is measurably faster than the default: %s is "
			 "faster %s, but without the log every run of %s was disturbed or failed: "
			 "not confirmed", name, logged + 2, b->cf.runs ? "the default" : "it");
	else    /* a named best is a speedup the runs without the log made */
		*confirmed = rt_points_verdict_say(&say, v, vs) >= RT_FASTER_UNKNOWN;
}

/* Under a configuration's row whose rates are not printed for primitives above their roofs:
 * how many, and the first's why (on stderr too) */
static void impossible_prims(FILE *fp, const struct rt_cmd_run_opts *o,
			     const struct rt_sweep_config *c, const struct rt_cmd_outcome *r,
			     const struct rt_cmd_judgement *j)
{
	const char *s = j->impossible_prims == 1 ? "" : "s";
	char why[300];
	const struct rt_onednn_prim *p = rt_cmd_first_impossible(j, &r->t, why, sizeof(why));

	if (!p)
		return;
	fprintf(fp, "%-44s   %zu primitive%s faster than this node can run them, so the row's "
		"rates are not printed; the first, %s %s %s: %s\n", "", j->impossible_prims, s,
		p->kind, p->prop, p->problem, why);
	fprintf(stderr, "%s: %s: %zu primitive%s above the roofs: %s\n", o->prog, c->name,
		j->impossible_prims, s, why);
}

/* summary.txt (and the same text on stdout). */
/* Whether c sets a lower fpmath mode than strict in its environment (fpmath=bf16, or an env:
 * knob of either name), as oneDNN reads them: ONEDNN_DEFAULT_FPMATH_MODE, else
 * DNNL_DEFAULT_FPMATH_MODE. */
static bool sets_mode(const struct rt_sweep_config *c)
{
	const char *m = rt_sweep_config_getenv(c, "ONEDNN_DEFAULT_FPMATH_MODE");

	if (!m || !*m)
		m = rt_sweep_config_getenv(c, "DNNL_DEFAULT_FPMATH_MODE");
	return m && *m && strcasecmp(m, "strict");
}

void rt_cmd_summary_sections(FILE *fp, const struct rt_cmd_run_opts *o,
			     const struct rt_sweep_config *cfgs, const struct rt_cmd_result *res,
			     size_t n, const struct rt_profile *prof, struct rt_cmd_lead *ld)
{
	const struct rt_cmd_result *def = &res[0];
	char *const v = ld->verdict;
	const size_t vs = sizeof(ld->verdict);
	const char *basis;
	bool confirmed = false;
	struct rt_cmd_result *cmp = NULL;
	size_t best = SIZE_MAX;
	struct rt_cmd_mode_run mode_run = { NULL, NULL };      /* a configuration under a mode */
	bool win;

	fputs("command:", fp);
	for (char *const *a = o->cmd; *a; a++) {
		fputc(' ', fp);
		put_shell_word(fp, *a);
	}
	fprintf(fp, "\n%zu configuration%s x %u fresh process%s each; counts from oneDNN's "
		"verbose log (source onednn-log: exact FLOPs and bytes of each primitive oneDNN "
		"ran; nothing it did not run)\n\n", n, n == 1 ? "" : "s", o->repeat,
		o->repeat == 1 ? "" : "es");
	/* coverage first: how much of the run these counts see */
	if (def->ran) {
		const struct rt_cmd_outcome *r = &def->runs[def->med];
		const double cov = r->wall > 0 ? r->t.ms / 1e3 / r->wall : 0;
		const struct rt_cmd_framework *fw = rt_cmd_framework_of(o->framework,
									r->t.runtime);
		struct rt_cmd_judgement j;

		rt_cmd_judge(r, cfgs[0].threads, prof, &j);
		if (j.over_wall)
			snprintf(ld->coverage, sizeof(ld->coverage), "coverage: not known: %s",
				 j.why);
		else if (!r->t.execs && !r->verbose_lines)
			snprintf(ld->coverage, sizeof(ld->coverage), "coverage: unknown: %s (the "
				 "default's %.3f s)", RT_CMD_NO_LINE, r->wall);
		else if (!r->t.execs)
			snprintf(ld->coverage, sizeof(ld->coverage), "coverage: no oneDNN primitive "
				 "ran: coverage 0%% (the default's %.3f s are all outside oneDNN)",
				 r->wall);
		else if (fw)
			snprintf(ld->coverage, sizeof(ld->coverage), "coverage: oneDNN ran %.0f%% of "
				 "the default's wall time (%.3f of %.3f s); the largest uncovered "
				 "share: %.0f%% outside oneDNN (what %s does besides oneDNN's "
				 "primitives: %s)", 100 * fmin(1, cov), r->t.ms / 1e3, r->wall,
				 100 * fmax(0, 1 - cov), fw->name, fw->outside);
		else
			snprintf(ld->coverage, sizeof(ld->coverage), "coverage: oneDNN ran %.0f%% of "
				 "the default's wall time (%.3f of %.3f s); the largest uncovered "
				 "share: %.0f%% outside oneDNN (what the command does besides oneDNN's "
				 "primitives: its own operators, BLAS, the interpreter, start-up)",
				 100 * fmin(1, cov), r->t.ms / 1e3, r->wall, 100 * fmax(0, 1 - cov));
		fprintf(fp, "%s\n", ld->coverage);
		if (j.impossible && !j.over_wall)
			fprintf(fp, "          %s\n", j.why);
		if (r->t.uncounted)
			fprintf(fp, "          %lu executions of kinds not counted: %.3f s of "
				"oneDNN's time without FLOPs\n", r->t.uncounted,
				r->t.uncounted_ms / 1e3);
		if (r->t.unparsed)
			fprintf(fp, "          %lu oneDNN lines not read, the first: \"%s\" (%s)\n",
				r->t.unparsed, r->t.first_unparsed, r->t.first_unparsed_why);
		if (!isnan(r->window)) {
			char in[200];

			/* oneDNN's times past the window (a grain a call aside) are not one
			 * process's primitives in turn: no share of it said */
			if (r->t.ms / 1e3 > r->window + r->t.execs * RT_CMD_LOG_GRAIN_S)
				snprintf(in, sizeof(in), "oneDNN's times sum %.3f s, more than the "
					 "window: primitives at once, or a log replayed", r->t.ms / 1e3);
			else
				snprintf(in, sizeof(in), "oneDNN ran %.0f%% of the window",
					 r->window > 0 ? 100 * r->t.ms / 1e3 / r->window : 0);
			fprintf(fp, "work window: the default's first oneDNN primitive started %.3f s "
				"after the command did (start-up), its last ended %.3f s later (the "
				"window, %s); %s; %.3f s after it\n", r->startup, r->window,
				r->stamped ? "by oneDNN's timestamps" :
				"by when its lines came: oneDNN printed no timestamps", in,
				fmax(0, r->wall - r->startup - r->window));
		}
		if (r->figures)
			fprintf(fp, "throughput: the command printed %u figure%s; its steady state "
				"%.4g images/s (%s)\n", r->figures, r->figures == 1 ? "" : "s",
				r->images_per_s, r->figures == 1 ? "its one figure" :
				"the median of those after the first");
		describe_default(fp, &r->t);
		describe_framework(fp, o, &r->t);
	} else {
		snprintf(ld->coverage, sizeof(ld->coverage), "coverage: unknown: the default "
			 "configuration did not run");
		fprintf(fp, "%s\n", ld->coverage);
	}
	if (ld->hw && *ld->hw)
		fprintf(fp, "%s\n", ld->hw);
	if (!isnan(def->bare.median) && def->wall.runs) {
		/* a cost only where the ranges do not overlap, the log's runs the slower */
		char runs[160];

		snprintf(runs, sizeof(runs), "%.3f s (%.3f..%.3f) with the log and %.3f s "
			 "(%.3f..%.3f) without", def->wall.median, def->wall.lo, def->wall.hi,
			 def->bare.median, def->bare.lo, def->bare.hi);
		if (def->wall.lo > def->bare.hi)
			fprintf(fp, "verbose overhead: the default took %s (medians): %+.1f%%%s\n",
				runs, 100 * (def->wall.median / def->bare.median - 1), def->disturbed ?
				" (the runs with the log disturbed)" : "");
		else if (def->wall.hi < def->bare.lo)
			fprintf(fp, "verbose overhead: none measured: the default took %s, the "
				"runs without the log the slower (the node's noise, not a gain "
				"of the log's)\n", runs);
		else
			fprintf(fp, "verbose overhead: none the runs tell apart: the default "
				"took %s; the ranges overlap\n", runs);
	} else if (def->wall.runs && o->overhead && def->bare_tried)
		fprintf(fp, "verbose overhead: not measured: every run without the log was "
			"disturbed or failed\n");
	else if (o->overhead)
		fprintf(fp, "verbose overhead: not measured: the default configuration's runs "
			"with the log %s\n", def->wall.runs ? "were not measured" : "failed or were "
			"disturbed, so there is nothing to compare with");
	fprintf(fp, "\n%-44s %22s %9s %10s %10s %9s %9s %9s %22s %8s\n", "configuration",
		"wall s (min..max)", "coverage", "GFLOP/s", "in oneDNN", "reorders", "images/s",
		"start-up", "window s (min..max)", "in window");
	for (size_t i = 0; i < n; i++) {
		const struct rt_cmd_result *s = &res[i];
		const struct rt_cmd_outcome *r;
		struct rt_cmd_judgement jr;
		double reorder = 0;
		char range[64], cov[16], gw[32], go[32];

		if (!s->ran) {
			/* never started (interrupted before it): no run to name */
			if (s->n)
				fprintf(fp, "%-44s failed: %s\n", cfgs[i].name,
					s->runs[s->n - 1].reason);
			else
				fprintf(fp, "%-44s not run\n", cfgs[i].name);
			continue;
		}
		r = &s->runs[s->med];
		for (size_t j = 0; j < r->t.n; j++)
			if (!strcmp(r->t.v[j].kind, "reorder"))
				reorder += r->t.v[j].ms;
		snprintf(range, sizeof(range), "%.3f (%.3f..%.3f)", s->wall.median, s->wall.lo,
			 s->wall.hi);
		/* an impossible log's coverage and rates are no facts: not printed as numbers */
		rt_cmd_judge(r, cfgs[i].threads, prof, &jr);
		snprintf(cov, sizeof(cov), "%.0f%%", r->wall > 0 ? 100 * fmin(1, r->t.ms / 1e3 /
									  r->wall) : 0);
		rt_cmd_num(r->wall > 0 ? r->t.flops / r->wall / 1e9 : 0, gw, sizeof(gw));
		rt_cmd_num(r->t.ms > 0 ? r->t.flops / (r->t.ms / 1e3) / 1e9 : 0, go, sizeof(go));
		fprintf(fp, "%-44s %22s %9s %10s %10s %8.0f%%", cfgs[i].name, range,
			jr.over_wall ? "impossible" : cov,
			jr.log_impossible || jr.impossible_prims ? "-" : gw,
			jr.log_impossible || jr.impossible_prims ? "-" : go,
			r->t.ms > 0 ? 100 * reorder / r->t.ms : 0);
		if (jr.over_images)
			fprintf(fp, " %9s", "impossible");
		else if (r->images_per_s > 0)
			fprintf(fp, " %9s", rt_cmd_num(r->images_per_s, gw, sizeof(gw)));
		else
			fprintf(fp, " %9s", "-");
		/* the work window: the median run's start-up, the window over the runs */
		if (s->win.runs) {
			snprintf(range, sizeof(range), "%.3f (%.3f..%.3f)", s->win.median, s->win.lo,
				 s->win.hi);
			snprintf(cov, sizeof(cov), "%.0f%%", r->window > 0 ? 100 * r->t.ms / 1e3 /
				 r->window : 0);
			fprintf(fp, " %9.3f %22s %8s\n", s->startup_median, range,
				r->t.ms / 1e3 > r->window + r->t.execs * RT_CMD_LOG_GRAIN_S ? "-" : cov);
		} else {
			fprintf(fp, " %9s %22s %8s\n", "-", "-", "-");
		}
		if (jr.impossible) {
			fprintf(fp, "%-44s   %s\n", "", jr.why);
			fprintf(stderr, "%s: %s: %s\n", o->prog, cfgs[i].name, jr.why);
		}
		if (!jr.log_impossible && jr.impossible_prims)
			impossible_prims(fp, o, &cfgs[i], r, &jr);
		if (cfgs[i].threads && r->t.nthr && r->t.nthr != cfgs[i].threads) {
			char said[400], who[160];

			/* the variable the knob set (--framework's; auto: each framework's) is
			 * read by that framework's runtime only */
			const struct rt_cmd_framework *said_fw = rt_cmd_framework_of(o->framework,
										     NULL),
				*log_fw = rt_cmd_framework_of(RT_CMD_FW_AUTO, r->t.runtime);

			if (said_fw && log_fw && said_fw != log_fw)
				snprintf(who, sizeof(who), "--framework %s set %s, which %s's %.40s "
					 "runtime does not read", said_fw->word, said_fw->threads_var,
					 log_fw->name, r->t.runtime);
			else if (!r->t.runtime[0] || log_fw)
				snprintf(who, sizeof(who), "the command sets its own count "
					 "(torch.set_num_threads, an option of its own)");
			else
				snprintf(who, sizeof(who), "oneDNN's %.40s runtime does not read "
					 "%s", r->t.runtime, said_fw ? said_fw->threads_var :
					 "OMP_NUM_THREADS");
			snprintf(said, sizeof(said), "oneDNN ran %u thread%s (its log's nthr), not the "
				 "%u this configuration asked for: %s, so its threads did not take; "
				 "its roofs are those of %u", r->t.nthr, r->t.nthr == 1 ? "" : "s",
				 cfgs[i].threads, who, r->t.nthr);
			fprintf(fp, "%-44s   %s\n", "", said);
			fprintf(stderr, "%s: %s: %s\n", o->prog, cfgs[i].name, said);
		}
		{
			unsigned failed = 0, busy = 0;
			const char *fwhy = "", *bwhy = "";

			for (unsigned k = 0; k < s->n; k++) {
				if (!s->runs[k].ok)
					failed++, fwhy = s->runs[k].reason;
				else if (s->runs[k].disturbed)
					busy++, bwhy = s->runs[k].reason;
			}
			if (failed)
				fprintf(fp, "%-44s   %u of %u processes failed: %s\n", "", failed,
					s->n, fwhy);
			/* under a launcher a run is not run again (MPI starts once per launch) */
			if (s->disturbed)
				fprintf(fp, "%-44s   disturbed, every run%s: %s; not compared\n", "",
					o->ranked ? "" : " (measured twice each)", bwhy);
			else if (busy)
				fprintf(fp, "%-44s   %u of %u runs disturbed%s, left out: %s\n", "",
					busy, s->n, o->ranked ? "" : " twice", bwhy);
		}
	}
	win = on_window(res, n);
	cmp = calloc(n, sizeof(*cmp));
	if (!cmp) {
		snprintf(v, vs, "no verdict: out of memory");
		fprintf(fp, "\n%s\n", v);
		return;
	}
	compared(cmp, res, n, win);
	basis = win ? "work window" : "wall time";
	res = cmp;
	def = &cmp[0];
	best = pick(o, res, n);
	fputc('\n', fp);
	/* the best against the default: faster only when the ranges do not overlap */
	if (best == SIZE_MAX && knobs_inert(o, res)) {
		snprintf(v, vs, "nothing compared: no knob swept acts on %s (its oneDNN runs on "
			 "its own thread pool, which no OpenMP variable places or sizes): every "
			 "configuration is the default as it runs", knobs_inert(o, res)->name);
	} else if (best == SIZE_MAX) {
		bool ran = false;

		for (size_t i = 0; i < n; i++)
			ran |= res[i].ran;
		snprintf(v, vs, ran ? "every configuration was disturbed (other processes took "
			 "its CPUs): nothing to compare" : "no configuration ran");
	} else if (best && beats(&res[best], def)) {
		claim(v, vs, cfgs[best].name, &res[best], def, basis, &confirmed);
	} else {
		/* the default the fastest (alone: no --sweep), or not measurably beaten */
		struct rt_verdict_say say = { { best ? cfgs[best].name : NULL, res[best].wall,
						res[best].wall.runs },
					      { NULL, def->wall, def->wall.runs }, .alone = n == 1,
					      .missing = !def->ran ? "did not run" : def->disturbed ?
					      "was disturbed in every run" : NULL };

		rt_points_verdict_say(&say, v, vs);
	}
	fprintf(fp, "%s\n", v);
	/* the basis, where something was compared */
	if (best != SIZE_MAX && win && n > 1)
		fprintf(fp, "compared on the work window (first oneDNN primitive to the last: "
			    "start-up and the end left out); the whole command's wall time in the "
			    "table too\n");
	else if (best != SIZE_MAX && n > 1)
		fprintf(fp, "compared on the whole command's wall time (not every configuration's "
			    "runs had a work window)\n");
	if (o->tune)
		tune_summary(fp, o, cfgs, res, n, best, basis, confirmed);
	/* what a lower fpmath mode did, where a configuration's run had one: a mode that
	 * changed no math explains a sweep of fpmath=strict,bf16 that changed nothing; the
	 * first other than the default's the precision advice speaks of */
	for (size_t i = 0, said = 0; i < n; i++) {
		char line[RT_CMD_FPMATH_LINE];

		if (!res[i].ran)
			continue;
		rt_cmd_fpmath_effect(&res[i].runs[res[i].med].t, line, sizeof(line));
		if (!line[0])
			continue;
		if (i && !mode_run.t)
			mode_run = (struct rt_cmd_mode_run){ cfgs[i].name, &res[i].runs[res[i].med].t };
		if (!said++)
			fprintf(fp, "\nfpmath modes (the math oneDNN ran under them, in each "
				"configuration's median run):\n");
		fprintf(fp, "  %s: %s\n", cfgs[i].name, line);
	}
	for (size_t i = 1; i < n && !mode_run.t; i++)
		if (res[i].ran && sets_mode(&cfgs[i]))
			mode_run = (struct rt_cmd_mode_run){ cfgs[i].name, &res[i].runs[res[i].med].t };
	/* where the default's oneDNN time went, and how far each is from its roof */
	if (def->ran && def->runs[def->med].t.n) {
		const struct rt_cmd_outcome *r = &def->runs[def->med];
		struct rt_cmd_judgement jd;
		size_t bound = 0;

		rt_cmd_judge(r, cfgs[0].threads, prof, &jd);
		fprintf(fp, "\nthe default's heaviest primitives (oneDNN's time):\n");
		for (size_t j = 0; j < r->t.n && j < 8; j++) {
			const struct rt_onednn_prim *p = &r->t.v[j];
			const double gf = p->ms > 0 ? p->flops / (p->ms / 1e3) / 1e9 : NAN;
			const struct rt_roof *c = rt_cmd_prim_roof(&jd, p);
			char num[32], why[300];

			fprintf(fp, "  %5.1f%%  %5lu calls  %-14s %-17s %-5s", 100 * p->ms / r->t.ms,
				p->calls, p->kind, p->prop, p->dtype);
			/* under an fpmath mode, the math that ran (or could have) */
			if (p->fpmath[0] && p->flops > 0)
				fprintf(fp, " (%s math%s)", rt_precision_name(p->prec),
					p->prec_bound ? " at most" : "");
			if (!p->counted)
				fprintf(fp, "  (not counted)");
			else if (jd.log_impossible)
				fprintf(fp, "  not judged: the run's log is impossible");
			else if (rt_cmd_prim_impossible(&jd, p, why, sizeof(why)))
				fprintf(fp, "  %s", why);
			else if (p->flops > 0 && p->ms > 0)
				fprintf(fp, "  %8s GFLOP/s", rt_cmd_num(gf, num, sizeof(num)));
			else if (p->flops > 0)
				fprintf(fp, "  time 0 ms (under the log's grain): no rate");
			else
				fprintf(fp, "  %8s GB/s", rt_cmd_num(p->ms > 0 ? p->bytes / (p->ms / 1e3) /
								     1e9 : NAN, num, sizeof(num)));
			if (c && p->flops > 0 && p->ms > 0 && p->counted && !jd.log_impossible &&
			    !rt_cmd_prim_impossible(&jd, p, NULL, 0))
				fprintf(fp, " = %.0f%% of the %s ceiling at %u thread%s%s",
					100 * gf / c->value, c->precision, jd.roofs.threads,
					jd.roofs.threads == 1 ? "" : "s",
					rt_cmd_prim_above_roof(&jd, p, NULL, 0) ? " (above the "
					"measured roof, under the hardware's peak: kept)" : "");
			bound += p->counted && p->flops > 0 && p->prec_bound;
			fprintf(fp, "  %s\n", p->problem);
		}
		if (bound)
			fprintf(fp, "  (\"at most\": f32 tensors under a lower fpmath mode, and the "
				"implementation's name does not tell which math ran: judged against the "
				"highest roof it could have had)\n");
		for (size_t j = 0; j < r->t.n && !jd.log_impossible; j++) {
			char why[300];

			if (rt_cmd_prim_impossible(&jd, &r->t.v[j], why, sizeof(why)))
				fprintf(stderr, "%s: %s %s %s: %s\n", o->prog, r->t.v[j].kind,
					r->t.v[j].prop, r->t.v[j].problem, why);
		}
		/* advice from the roof: each line with its evidence, none without */
		{
			struct rt_cpu cpu;
			struct rt_err e;
			const char *base = strrchr(o->cmd[0], '/');
			const struct rt_cmd_framework *fw = rt_cmd_framework_of(o->framework,
										r->t.runtime);

			base = base ? base + 1 : o->cmd[0];
			/* PyTorch's cures for a Python command, unless it is TensorFlow's */
			rt_cmd_advise(&ld->adv, &r->t, &jd, rt_cmd_threads(r, cfgs[0].threads, NULL),
				      rt_cpu_detect(&cpu, &e) ? NULL : &cpu,
				      !strncmp(base, "python", 6) && !(fw && !fw->openmp),
				      mode_run.t ? &mode_run : NULL);
			if (ld->adv.n)
				fprintf(fp, "\nadvice (the default's log%s):\n", prof ? " and the "
					"profile's roofs" : "; with -p PROFILE, the primitives under "
					"their roofs too");
			for (size_t k = 0; k < ld->adv.n; k++)
				fprintf(fp, "  %s\n", ld->adv.line[k]);
		}
	}
	free(cmp);
}

