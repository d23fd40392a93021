/* charts.h: the study charts of a results directory beside its rooflines: time by phase, the
 * memory split as the knobs turn and over the input's pixel area (Deep500, Torres et al.),
 * and a time-based view of the layers and of roofline-run's primitives (time against each
 * one's floor); views.c's table says which a page draws. Each is a
 * gnuplot script rendered like the rooflines (plot.h: rt_plot_open, rt_plot_finish): 0,
 * RT_PLOT_SCRIPT_ONLY when only the script was written (no gnuplot), -ENODATA when the points hold
 * nothing it could draw (err says why), another negative errno on failure. */
#ifndef RT_CHARTS_H
#define RT_CHARTS_H

#include <stddef.h>
#include "base/err.h"
#include "results/points.h"
#include "node/profile.h"

/* The order the bar charts put configurations in: lexicographic in threads, ranks,
 * precision, affinity, input area, batch (batch varies fastest): a one-knob sweep runs along
 * its knob. Fills idx with the measured points (rt_point_is_measured: a disturbed
 * configuration is drawn, its name saying so) of pts; returns how many. */
size_t rt_charts_order(const struct rt_point *pts, size_t n, const struct rt_point **idx);

/* phases: a stacked bar per configuration, the milliseconds of each phase of an iteration
 * (data, forward, loss, backward, comm under MPI, update; medians), each segment's share. */
int rt_chart_phases(const struct rt_point *pts, size_t n, const char *title_what,
		    const char *outbase, struct rt_err *err);

/* memory: a stacked bar per configuration (weights, weight gradients, optimizer state,
 * activations kept, activation gradients, workspace: the bytes the net allocated, in MiB;
 * they add up to its total) with the process's peak RSS marked. */
int rt_chart_memory(const struct rt_point *pts, size_t n, const char *title_what,
		    const char *outbase, struct rt_err *err);

/* memory-input: training's allocated total and a forward-only pass's footprint against the
 * input's pixel area, and their ratio (right axis). -ENODATA unless the points hold two
 * input sizes or more of otherwise equal configurations. */
int rt_chart_memory_input(const struct rt_point *pts, size_t n, const char *title_what,
			  const char *outbase, struct rt_err *err);

/* layers-time: the layers of one configuration ordered by time, each layer's measured time
 * next to its floor from the profile's ceilings (max(FLOPs / peak, bytes / bandwidth of the
 * level that holds its bytes)), its share of the iteration and the ceiling that sets the
 * floor. */
int rt_chart_layers_time(const struct rt_profile *prof, const struct rt_point *pts, size_t n,
			 const char *config, const char *outbase, struct rt_err *err);

/* primitives-time: the same view of a command's oneDNN primitives (roofline-run): pts hold
 * config's headline (scope iteration: oneDNN's whole time) and a layer point per primitive
 * (its time over the run, FLOPs, bytes). */
int rt_chart_primitives_time(const struct rt_profile *prof, const struct rt_point *pts,
			     size_t n, const char *config, const char *outbase,
			     struct rt_err *err);

#endif
