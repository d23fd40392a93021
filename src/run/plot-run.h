/* plot-run.h: what roofline-plot does once its options are read: one results directory's
 * every view written again (as its one writer), or several directories' trajectories overlaid
 * in one chart */
#ifndef RT_PLOT_RUN_H
#define RT_PLOT_RUN_H

#include <stdbool.h>

struct rt_plot_run_opts {
	const char *prog;               /* the tool's name, for its messages */
	char *const *dirs;              /* the results directories */
	int ndirs;
	const char *profile;            /* --profile (NULL: the one the first run.cfg names) */
	const char *output;             /* --overlay (NULL: one directory in place; ./overlay) */
	bool all_roofs;
};

/* The exit status: 0, or 1 with the reason said on stderr. */
int rt_plot_run_tool(const struct rt_plot_run_opts *o);

#endif
