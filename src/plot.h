/* plot.h: gnuplot scripts of a node's roofline, and rendering them when gnuplot is installed */
#ifndef RT_PLOT_H
#define RT_PLOT_H

#include <stdbool.h>
#include "err.h"
#include "profile.h"

/* Write a self-contained gnuplot script (atomically) drawing the profile's roofline at a thread
 * count (0: the largest measured): every FLOP ceiling as a flat roof, every memory level's best
 * bandwidth as a slanted roof, labelled. Rendering it writes OUTBASE.png and OUTBASE.svg, where
 * OUTBASE is the gnuplot variable `outbase` (default: the script's path without ".gp"). */
int rt_plot_roofline(const struct rt_profile *p, unsigned threads, const char *script_path,
		     struct rt_err *err);

struct rt_point;

/* Write a gnuplot script of roofline trajectories (atomically): the roofs of the points'
 * precision at the largest thread count they used, and the successful iteration points
 * (median) as trajectories along the knob with the most values (one series for each value of
 * the other knobs), each point labelled with its knob value. */
int rt_plot_trajectories(const struct rt_profile *prof, const struct rt_point *pts, size_t n,
			 const char *title_what, const char *script_path, struct rt_err *err);

/* The per-layer chart of one configuration: each layer's forward + backward point (median),
 * labelled with its name, under the fp32 roofs. -ENOENT when the sweep has no layer points. */
int rt_plot_layers(const struct rt_profile *prof, const struct rt_point *pts, size_t n,
		   const char *config, const char *script_path, struct rt_err *err);

/* Whether a gnuplot program can be run (RT_GNUPLOT, or $GNUPLOT when set). */
bool rt_plot_have_gnuplot(void);

/* Run gnuplot on script_path so that it writes OUTBASE.png/.svg through temporary names, then
 * rename them into place. -ENOENT when gnuplot is missing; gnuplot's own message otherwise. */
int rt_plot_render(const char *script_path, const char *outbase, struct rt_err *err);

#endif
