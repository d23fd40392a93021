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
#include "node/profile.h"

#define RT_CMD_MAX_CFG_ENV 10

/* One configuration: its name, the environment it sets, the threads it asks for (0: the
 * runtime's choice). */
struct rt_cmd_cfg {
	char name[200];
	char env[RT_CMD_MAX_CFG_ENV][64];
	size_t nenv;
	unsigned threads;
	bool is_default;
	int rank;                       /* under a launcher: this process's rank; else -1 */
};

/* One process's outcome. */
struct rt_cmd_outcome {
	bool ok;
	char reason[640];
	double wall;
	double images_per_s;            /* the last "images/s N" the command printed (NAN: none) */
	bool disturbed;                 /* ok, but other processes took its CPUs' time (reason) */
	unsigned long verbose_lines;    /* oneDNN's lines that came (0: no primitive ran, or the
					 * command switched the log off itself) */
	struct rt_onednn_tally t;
};

/* A run is disturbed when other processes (or the hypervisor) used more than this share of
 * the CPUs it could run on, and more than RT_CMD_BUSY_MIN_S seconds (/proc/stat counts in
 * ticks): its wall time is not the command's. */
#define RT_CMD_BUSY_SHARE 0.10
#define RT_CMD_BUSY_MIN_S 0.05

/* A configuration's repetitions. */
struct rt_cmd_result {
	struct rt_cmd_outcome *runs;
	unsigned n, ok;
	double median, lo, hi;          /* wall seconds over the successful runs */
	int med;                        /* the run whose wall time is the median (-1: none) */
	double bare_median;             /* the default without the log (NAN: not run) */
	bool bare_tried;                /* the default ran without the log (all may have failed) */
	bool disturbed;                 /* no undisturbed run: the figures are of disturbed ones */
	bool resumed;                   /* read back from the directory, not run now */
};

/* median, lo, hi and med from the runs: the undisturbed ones, all when every run was
 * disturbed (then disturbed is set). */
void rt_cmd_summarize(struct rt_cmd_result *s);
void rt_cmd_result_free(struct rt_cmd_result *s);

/* points.csv's header (26 columns). */
extern const char rt_cmd_points_header[];

/* The configurations DIR/points.csv holds rows of, read back: res[i] for cfgs[i] (n of them)
 * from its run rows, each process's tally from the raw log its row names (DIR/onednn/...),
 * have[i] set. With *cfgs NULL the configurations are made from the rows themselves (name,
 * threads; the first is the default), *n set. -EINVAL naming FILE:LINE for a row that does
 * not read or a configuration not in cfgs; -ENOENT when DIR has no points.csv. */
int rt_cmd_results_load(const char *dir, struct rt_cmd_cfg **cfgs, size_t *n,
			struct rt_cmd_result **res, bool *have, struct rt_err *err);

/* DIR's charts (run-roofline: the configurations and the fastest's primitives under the
 * profile's roofs; primitives-time: the fastest's primitives against their floors) and
 * report.html (lead: the summary's verdict lines). Notes on stderr as PROG: ...; returns 0
 * or the page's write error. */
int rt_cmd_views(const char *prog, const char *dir, const struct rt_cmd_cfg *cfgs,
		 const struct rt_cmd_result *res, size_t n, const struct rt_profile *prof,
		 const char *const *lead, size_t nlead, struct rt_err *err);

/* Whether DIR holds roofline-run's results (its points.csv's header). */
bool rt_cmd_is_run_dir(const char *dir);

/* roofline-plot DIR on roofline-run's results: read back, the charts and report.html again
 * (the summary's lead lines taken from DIR/summary.txt). */
int rt_cmd_views_redraw(const char *prog, const char *dir, const struct rt_profile *prof,
			struct rt_err *err);

#endif
