/* cmd-results.h: roofline-run's results in memory, shared by its run (cmd-run.c) and its views
 * (cmd-views.c): each configuration's processes, their wall times and oneDNN tallies; read
 * back from a results directory (points.csv's run rows and the raw logs they name) for
 * --resume and for roofline-plot DIR. */
#ifndef RT_CMD_RESULTS_H
#define RT_CMD_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "base/err.h"
#include "counters/onednn-log.h"
#include "machine/cpu.h"
#include "node/profile.h"
#include "node/roofs.h"
#include "results/points.h"
#include "sweep/engine.h"
#include "sweep/sweep.h"

/* One process's outcome. */
struct rt_cmd_outcome {
	bool ok;
	char reason[640];
	double wall;
	double images_per_s;            /* the steady state of the throughput the command printed
					 * (images/s; NAN: none): the median of its figures after
					 * the first (the first alone where it printed one) */
	unsigned figures;               /* the throughput figures it printed */
	double startup;                 /* seconds from its start to its first oneDNN primitive's
					 * start (NAN: no primitive, or no log) */
	double window;                  /* its work window: seconds from the first primitive's
					 * start to the last one's end (NAN: none); startup +
					 * window <= wall */
	bool stamped;                   /* the window from oneDNN's timestamps; else from the
					 * time its lines reached roofline-run */
	bool disturbed;                 /* ok, but other processes took its CPUs' time (reason,
					 * rt_busy_others): its wall time is not the command's */
	unsigned long verbose_lines;    /* oneDNN's lines that came (0: no primitive ran, or the
					 * command switched the log off itself) */
	struct rt_onednn_tally t;
};

/* A configuration's repetitions, each figure's spread over the runs that made it. */
struct rt_cmd_result {
	struct rt_cmd_outcome *runs;
	unsigned n;
	struct rt_spread wall;          /* wall seconds over the successful runs (runs 0: none) */
	bool ran;                       /* a run stands for it (med): false until its runs are
					 * summarized (a configuration never started, left as
					 * allocated: zeroed) and where every run failed */
	int med;                        /* the run whose wall time is the median (when ran) */
	struct rt_spread bare;          /* the default's undisturbed runs without the log, wall
					 * seconds (runs 0, NAN: none) */
	bool bare_tried;                /* the default ran without the log (all may have failed) */
	bool disturbed;                 /* no undisturbed run: the figures are of disturbed ones */
	bool resumed;                   /* read back from the directory, not run now */
	/* a claim's own runs: the best and the default in turn without the log, -r of each
	 * (cf_tried: they ran; cf the wall seconds of the undisturbed and successful ones, cf_img
	 * the throughput of those of them that printed one) */
	bool cf_tried;
	struct rt_spread cf, cf_img;
	/* the work window over the runs wall is of (runs 0: not each of them had one) */
	struct rt_spread win;
	double startup_median;
};

/* The steady state of a command's throughput figures v (n of them, in the order printed):
 * the median of those after the first (v reordered), the first alone where n is 1; NAN when
 * none. */
double rt_cmd_steady(double *v, size_t n);

/* wall, win, startup_median, med and ran from the runs: the undisturbed ones, all when every run
 * was disturbed (then disturbed is set). */
void rt_cmd_summarize(struct rt_cmd_result *s);
/* The configurations cfgs[0..n), their results res[0..n) and what those hold (either may be
 * NULL). */
void rt_cmd_results_free(struct rt_sweep_config *cfgs, struct rt_cmd_result *res, size_t n);

/* What cannot be true of a run's counts (src/run/cmd-judge.c). oneDNN times each call by the
 * wall clock, and its logs print those times in steps of 2^-10 ms (a microsecond): a call's
 * time can be off by that grain, so the calls' sum can pass the process's wall time by at
 * most one grain a call, and a rate is judged on its time plus one grain a call. No clock
 * reads under a nanosecond a call; no core reads an image a nanosecond. */
#define RT_CMD_LOG_GRAIN_S 1e-6
#define RT_CMD_CLOCK_MIN_S (RT_ONEDNN_CLOCK_MIN_MS / 1e3)
#define RT_CMD_IMAGES_PER_S_MAX 1e9
/* How an images/s past it is said ("impossible: the command printed images/s 5e+12, ..."):
 * its row keeps no such number, so a run read back takes it from these words. */
#define RT_CMD_IMAGES_SAID "the command printed images/s "

struct rt_cmd_judgement {
	bool impossible;                /* the run's log cannot be this node's run (why says) */
	bool over_wall;                 /* ... oneDNN's time passes the wall time */
	bool over_threads;              /* ... more threads than the profile's node has */
	bool over_images;               /* ... the images/s it printed */
	bool log_impossible;            /* over_wall or over_threads: its points not judged */
	size_t impossible_prims;        /* primitives whose rate is impossible */
	char why[600];                  /* "impossible: ..." (each reason, "; "-joined) */
	bool have_roofs;                /* roofs of the profile at the run's threads */
	struct rt_roofs roofs;          /* ... or at the most below them, then times scale */
	double scale;                   /* rt_roofs_scale: 1 at the run's own count */
};

/* The threads run r ran: those oneDNN's log names (a command may set its own count), else
 * cfg_threads (what its configuration asked for), else all the profile's node measured (0
 * without a profile). */
unsigned rt_cmd_threads(const struct rt_cmd_outcome *r, unsigned cfg_threads,
			const struct rt_profile *prof);
/* The run r (of a configuration asking for cfg_threads, 0: the runtime's choice) judged
 * against the profile (NULL: its own numbers alone): oneDNN's time past the wall time, the
 * log's threads past the profile's hardware threads, an images/s no core reaches. The roofs
 * are those of rt_cmd_threads. */
void rt_cmd_judge(const struct rt_cmd_outcome *r, unsigned cfg_threads,
		  const struct rt_profile *prof, struct rt_cmd_judgement *j);

/* The roof a primitive's rate is held against: the ceiling of its math's precision; where the
 * log does not tell which math ran, the highest it could have had (fp32's or the lower
 * precision's). NULL without roofs or such a ceiling. */
const struct rt_roof *rt_cmd_prim_roof(const struct rt_cmd_judgement *j,
				       const struct rt_onednn_prim *p);

/* Whether a primitive's rate is impossible: a time under the clock's grain a call, or above
 * what the hardware can do even with a grain more a call: its precision's theoretical peak
 * (where the log does not tell which math ran, the highest it could have had), or its
 * measured ceiling where the profile has no peak. why (when not NULL) says so, starting
 * "impossible: ". */
bool rt_cmd_prim_impossible(const struct rt_cmd_judgement *j, const struct rt_onednn_prim *p,
			    char *why, size_t size);
/* Whether a primitive's rate, possible, is above its measured roof (rt_cmd_prim_roof) even
 * with a grain more a call: a true point the probe's kernels did not reach, kept (drawn,
 * advised on) and said. why (when not NULL) starts "above the measured roof: ". */
bool rt_cmd_prim_above_roof(const struct rt_cmd_judgement *j, const struct rt_onednn_prim *p,
			    char *why, size_t size);

/* The first primitive of t that rt_cmd_prim_impossible calls impossible (why says so), or
 * NULL. */
const struct rt_onednn_prim *rt_cmd_first_impossible(const struct rt_cmd_judgement *j,
						     const struct rt_onednn_tally *t, char *why,
						     size_t size);

/* A run row's reason as points.csv keeps it: the run's own (failed, disturbed: r->reason) and
 * what its judgement j (rt_cmd_judge without a profile) calls impossible, "; "-joined. */
void rt_cmd_reason_put(char *buf, size_t size, const struct rt_cmd_outcome *r,
		       const struct rt_cmd_judgement *j);
/* ... and read back into r (r->ok set): the run's own into r->reason, the images/s the
 * judgement named into r->images_per_s, so that the run is judged again as it was when it
 * ran. A failed run's words are kept whole. */
void rt_cmd_reason_get(struct rt_cmd_outcome *r, const char *reason);

/* A rate or size in a few digits (%.4g; "-" for none): no number is printed in 300 digits. */
const char *rt_cmd_num(double v, char *buf, size_t size);
/* The fastest configuration by its median (res[i].median: as the caller compares them) among
 * those that ran undisturbed (a disturbed one's time is not its own); with disturbed_too, of
 * the disturbed ones when every one was; SIZE_MAX when none ran. */
size_t rt_cmd_fastest(const struct rt_cmd_result *res, size_t n, bool disturbed_too);

/* The configurations DIR/points.csv holds rows of, read back: res[i] for cfgs[i] (n of them)
 * from its run rows, each process's tally from the raw log its row names (DIR/onednn/...),
 * have[i] set. With *cfgs NULL the configurations are made from the rows themselves (name,
 * threads; the first is the default), *n set. -EINVAL naming FILE:LINE for a row that does
 * not read or a configuration not in cfgs; -ENOENT when DIR has no points.csv. */
int rt_cmd_results_load(const char *dir, struct rt_sweep_config **cfgs, size_t *n,
			struct rt_cmd_result **res, bool *have, struct rt_err *err);

/* Advice from the roof (src/run/cmd-advice.c), each line with its evidence:
 * - reorders: where they take RT_CMD_ADVICE_REORDER_SHARE of oneDNN's time or more, their
 *   share and what the largest did, heaviest first; where activations go between plain
 *   NCHW (abcd) and oneDNN's channel-blocked layout (aBcd16b) or NHWC (acdb) and back, taking
 *   RT_CMD_ADVICE_ACTIVATION_SHARE or more, channels-last (channels_last for PyTorch);
 * - each of the 8 heaviest counted primitives with RT_CMD_ADVICE_PRIM_SHARE of the time or
 *   more, under RT_CMD_ADVICE_FAR of its precision's ceiling (a profile's roofs needed), where
 *   the log shows why: its intensity under the ridge (that ceiling over DRAM's bandwidth)
 *   and its rate at RT_CMD_ADVICE_FAR of what DRAM allows there or more: memory-bound; under
 *   the ridge but under that: not memory-bound either (its share of DRAM's bound); fewer
 *   than RT_CMD_ADVICE_IMAGES_THREAD images a thread (mb over the threads; output rows a
 *   thread beside it), alone or after that share;
 * - where fp32 math on f32 tensors (convolutions, deconvolutions, inner products, matmuls: the
 *   kinds an fpmath mode changes) takes RT_CMD_ADVICE_FP32_SHARE of the time or more and the
 *   CPU has amx_bf16 or avx512_bf16: the bf16 fpmath mode (and autocast for PyTorch), with
 *   the bf16 and fp32 ceilings where the profile has both; where the run set a mode already,
 *   or measured one in another configuration, what that mode did instead. */
#define RT_CMD_ADVICE_MAX 12
#define RT_CMD_ADVICE_REORDER_SHARE 0.10
#define RT_CMD_ADVICE_ACTIVATION_SHARE 0.05
#define RT_CMD_ADVICE_PRIM_SHARE 0.05
#define RT_CMD_ADVICE_FAR 0.5
#define RT_CMD_ADVICE_IMAGES_THREAD 4
#define RT_CMD_ADVICE_FP32_SHARE 0.10
struct rt_cmd_advice {
	char *line[RT_CMD_ADVICE_MAX];  /* each its own length (a primitive's problem in it) */
	size_t n;
};
/* A configuration of the run measured under a lower fpmath mode: its name and its median
 * run's tally (one that set a mode its log shows on no work too). The precision advice says
 * what the mode did there instead of recommending that it be measured. */
struct rt_cmd_mode_run {
	const char *config;
	const struct rt_onednn_tally *t;
};
/* The advice on a run's tally t (sorted, heaviest first) judged by j (NULL, or without roofs:
 * no line that needs a roof) at threads (0: not known), on the CPU cpu (NULL: not known);
 * python: the command is a Python program (PyTorch's cures named); measured: a configuration
 * of the same run under a lower fpmath mode (NULL: none). No advice on an impossible log. a
 * is zeroed or holds advice (freed first); rt_cmd_advice_free frees it. */
void rt_cmd_advise(struct rt_cmd_advice *a, const struct rt_onednn_tally *t,
		   const struct rt_cmd_judgement *j, unsigned threads, const struct rt_cpu *cpu,
		   bool python, const struct rt_cmd_mode_run *measured);
void rt_cmd_advice_free(struct rt_cmd_advice *a);
/* What a lower fpmath mode did in a run's tally t, into line (size; "" where no primitive
 * with FLOPs ran under one): the primitives it reached (f32 work whose math a mode can
 * change), their calls and time, and the math they ran as their implementations tell it
 * (rt_onednn_f32_math), each with up to 3 of the implementations' names. */
#define RT_CMD_FPMATH_LINE 1200
void rt_cmd_fpmath_effect(const struct rt_onednn_tally *t, char *line, size_t size);
/* Whether a conversion is of activations between plain NCHW (NCDHW) and oneDNN's blocked
 * layout of channels (aBcd16b), or NHWC (acdb) on the shape of a convolution's source or
 * destination in t, in either direction. */
bool rt_cmd_advice_activation_conv(const struct rt_onednn_tally *t,
				   const struct rt_onednn_conv *c);

/* DIR's charts (run-roofline: the configurations and the fastest's primitives under the
 * profile's roofs; primitives-time: the fastest's primitives against their floors) and
 * report.html (lead: the summary's verdict lines; all_roofs: every ceiling, not only the
 * peaks). Notes on stderr as PROG: ...; returns 0 or the page's write error. */
int rt_cmd_views(const char *prog, const char *dir, const struct rt_sweep_config *cfgs,
		 const struct rt_cmd_result *res, size_t n, const struct rt_profile *prof,
		 bool all_roofs, const char *const *lead, size_t nlead, struct rt_err *err);

/* The command workload's redraw (engine.h, roofline-plot DIR): its results read back, the
 * charts and report.html again (the summary's lead lines taken from DIR/summary.txt). */
int rt_cmd_views_redraw(const struct rt_redraw *r, struct rt_err *err);
/* Its overlay (engine.h, roofline-plot DIR... with several): each directory's configurations
 * (the median run's oneDNN FLOPs over oneDNN's time, as run-roofline draws them) a series,
 * under the roofs of the precisions their primitives ran at the most threads any ran; a run
 * whose log cannot be its node's (the profile its directory kept, else the overlay's) is left
 * out, a note on stderr says why. */
int rt_cmd_overlay(const struct rt_overlay *o, struct rt_err *err);

#endif
