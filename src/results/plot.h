/* plot.h: gnuplot scripts of a node's roofline, and rendering them when gnuplot is installed */
#ifndef RT_PLOT_H
#define RT_PLOT_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include "base/err.h"
#include "node/profile.h"

/* What a chart's writer answers when gnuplot is not installed: the script is written, ready
 * to render (a note, not a failure). Distinct from every other answer. */
#define RT_PLOT_SCRIPT_ONLY (-ENOEXEC)

/* Write s as a gnuplot string literal gnuplot reads back as s and runs nothing of:
 * single-quoted, the form in which gnuplot substitutes nothing (no backquote commands, no
 * macros, no escapes); a text with a quote double-quoted with every quote, backquote,
 * backslash, @ and $ as an octal escape (gnuplot 5.4 misreads adjacent quotes in the single
 * form); control characters become spaces. Every text that reaches a script goes through
 * here; the plot commands themselves only name the variables that hold it. */
void rt_plot_quote(FILE *fp, const char *s);

/* Each chart below is OUTBASE.gp, a self-contained gnuplot script (gnuplot -c OUTBASE.gp NAME
 * renders it to NAME.png and NAME.svg; without NAME, to OUTBASE.png and .svg), rendered at
 * once when gnuplot is installed. Script and pictures are written under temporary names and
 * moved into place only when gnuplot succeeded: a failure leaves the previous chart whole.
 * Returns 0; RT_PLOT_SCRIPT_ONLY (a note) when gnuplot is missing and only the script was
 * written; -EINTR
 * when the rendering was interrupted; another negative errno with err filled. */

/* The roofs each roofline chart draws, each named on the chart beside its line (the key holds
 * only the points' series): every memory level's best bandwidth as a slanted roof, each
 * precision's theoretical peak dashed and its best measured (or oneDNN-achievable) ceiling as
 * a flat roof; all_roofs adds every other FLOP ceiling (each ISA, each method). Flagged
 * ceilings are never drawn. Point labels are placed where they overlap nothing. */

/* The profile's roofline at a thread count (0: the largest with unflagged ceilings). */
int rt_plot_roofline(const struct rt_profile *p, unsigned threads, bool all_roofs,
		     const char *outbase, struct rt_err *err);

struct rt_point;

/* Roofline trajectories: the roofs of the points' precisions at the largest thread count they
 * used, and the successful iteration points (median) as trajectories along the knob with the
 * most values (one series for each value of the other knobs), each labelled with its value. */
int rt_plot_trajectories(const struct rt_profile *prof, const struct rt_point *pts, size_t n,
			 const char *title_what, bool all_roofs, const char *outbase,
			 struct rt_err *err);

/* The per-layer chart of one configuration: each layer's forward + backward point (median),
 * its dot's area following its share of the iteration (as Intel Advisor does), labelled with
 * its name, the level that holds its bytes and its share, under its precision's roofs.
 * -ENODATA when it has no layer points. */
int rt_plot_layers(const struct rt_profile *prof, const struct rt_point *pts, size_t n,
		   const char *config, bool all_roofs, const char *outbase, struct rt_err *err);

/* Named points under a profile's roofs (roofline-run's chart, its overlay): each mark at
 * (intensity, GFLOP/s), in one of nseries series (series[k] its title in the key; a series
 * with line set is joined in the marks' order: a trajectory), its dot's size from size
 * (0..1), labelled with label when given. The roofs are those of precision at threads (0: the
 * most measured): its peaks, or every ceiling with all_roofs.
 * -ENODATA when no mark can be drawn. */
struct rt_plot_mark {
	double intensity, gflops, size;
	int series;
	const char *label;
};
struct rt_plot_series {
	const char *title;
	bool line;
};
int rt_plot_marks(const struct rt_profile *prof, unsigned threads, const char *precision,
		  bool all_roofs, const struct rt_plot_mark *m, size_t n,
		  const struct rt_plot_series *series, size_t nseries, const char *title,
		  const char *outbase, struct rt_err *err);

/* For the other charts' writers (charts.c): OUTBASE.gp opened under its temporary name, and
 * finished (rendered, then moved into place; RT_PLOT_SCRIPT_ONLY without gnuplot) as above. */
struct rt_outfile;
int rt_plot_open(struct rt_outfile *of, const char *outbase, struct rt_err *err);
int rt_plot_finish(struct rt_outfile *of, const char *outbase, struct rt_err *err);

/* Whether a gnuplot program can be run (RT_GNUPLOT, or $GNUPLOT when set). */
bool rt_plot_have_gnuplot(void);

#endif
