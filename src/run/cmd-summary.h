/* cmd-summary.h: roofline-run's summary.txt, its lead sentences for report.html, and the
 * claim it makes: the configuration it picks against the default, compared on the work window
 * where every run had one */
#ifndef RT_CMD_SUMMARY_H
#define RT_CMD_SUMMARY_H

#include <stddef.h>
#include <stdio.h>
#include "node/profile.h"
#include "run/cmd-results.h"
#include "run/cmd-run.h"
#include "sweep/sweep.h"

/* A run with the log on that gave not one of its lines: oneDNN may have run with the log
 * switched off by the command itself, so nothing is known of its primitives. */
#define RT_CMD_NO_LINE "no oneDNN verbose line came: the command ran no oneDNN primitive, or " \
	"switched oneDNN's log off itself (an ONEDNN_VERBOSE=0 of its own)"

/* The summary's lead sentences, for report.html too: the verdict and the coverage (each
 * built from bounded pieces: two configuration names and figures), the advice. */
struct rt_cmd_lead {
	char verdict[1024], coverage[1024];
	struct rt_cmd_advice adv;       /* advice from the roof (n 0: none; the caller frees it
					 * with rt_cmd_advice_free) */
	const char *hw;                 /* the hardware counters' line ("": none; set by the
					 * caller) */
};

/* roofline-run's sections of summary.txt into fp (results/summary.c's rt_summary_write writes the
 * file): the command, the coverage, the default described, the table of
 * the configurations cfgs[0..n) (res: their results, the default first), the verdict, the
 * fpmath modes, the default's heaviest primitives under the profile's roofs (prof NULL:
 * none) and the advice; the lead sentences into ld. */
void rt_cmd_summary_sections(FILE *fp, const struct rt_cmd_run_opts *o,
			     const struct rt_sweep_config *cfgs, const struct rt_cmd_result *res,
			     size_t n, const struct rt_profile *prof, struct rt_cmd_lead *ld);

/* The configuration the summary makes its claim of, as it compares them (on the work window
 * where every run had one): the fastest; under --sweep tune the fastest of those that beat
 * the default. The medians of it and of the default on that basis into *best_med and
 * *def_med; SIZE_MAX when none (or out of memory: no claim). */
size_t rt_cmd_pick_compared(const struct rt_cmd_run_opts *o, const struct rt_cmd_result *res,
			    size_t n, double *best_med, double *def_med);

/* Whether --sweep tune's alternatives i and j set the same knob (a configuration holds one
 * value of each). */
bool rt_cmd_tune_same_knob(const struct rt_cmd_run_opts *o, size_t i, size_t j);
/* --sweep tune's winners (res[1 + i] is alternative i's): of each knob, the fastest value
 * that beats the default (undisturbed, its range under the default's); their indexes into
 * win (RT_CMD_TUNE_MAX at most), in the alternatives' order; returns how many. */
size_t rt_cmd_tune_winners(const struct rt_cmd_run_opts *o, const struct rt_cmd_result *res,
			   size_t *win);

#endif
