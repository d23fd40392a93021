/* roofline-plot: re-render the views of saved results (roofline-train's sweeps, roofline-run's
 * runs), one directory or several of one tool overlaid */
#include "config.h"
#include "base/cli.h"
#include "machine/dnnl.h"
#include "run/plot-run.h"

#include <stdio.h>

enum { OPT_OVERLAY = 256, OPT_ALL_ROOFS };

static const char *const synopsis[] = { "[OPTION]... DIR...", NULL };

static const struct rt_cli_opt opts[] = {
	{ 'p', "profile", 'p', RT_CLI_PATH, "FILE",
	  .def = "the copy the first DIR holds, else the one its run.cfg names",
	  .help = "machine profile for the roofs" },
	{ OPT_OVERLAY, "overlay", 0, RT_CLI_PATH, "BASE",
	  .def = "./overlay with several directories",
	  .help = "overlay the directories' points (the trainer's trajectories, roofline-run's "
		  "configurations) into BASE.gp, BASE.png and BASE.svg; a directory given as "
		  "BASE, or a name ending in '/', holds overlay.gp, overlay.png and overlay.svg" },
	{ OPT_ALL_ROOFS, "all-roofs", 0, RT_CLI_FLAG, NULL,
	  .help = "draw every FLOP ceiling (each ISA and method), not only each precision's peak "
		  "and theoretical peak" },
	{ 0 },
};

/* -o was the overlay's base name: -o is a results directory where a tool writes one */
static const struct rt_cli_moved moved[] = {
	{ 'o', NULL, true, NULL, "-o is now --overlay BASE (-o, --out is a results directory in "
	  "roofline-train and roofline-run)" },
	{ 0, "output", true, NULL, "--output is now --overlay BASE" },
	{ 0 },
};

static const struct rt_cli cli = {
	.prog = "roofline-plot", .synopsis = synopsis, .opts = opts, .moved = moved,
	.version_more = rt_dnnl_print_version,
	.about =
"Draw saved sweep results (roofline-train --sweep, roofline-run) again. With one results\n"
"directory every view is rewritten in place: the charts (trajectories, phases, memory,\n"
"memory-input, layers, layers-time) and report.html, the page that holds them all. With\n"
"several directories of one tool, or with --overlay, their points are overlaid in one chart\n"
"(a sweep's trajectories, roofline-run's configurations), each series named after its\n"
"directory. Writes the gnuplot scripts and, when gnuplot is installed, renders them to PNG\n"
"and SVG.\n",
	.after =
"\n"
"Examples:\n"
"  roofline-plot results/convnet-2026-11-21T23:00:00Z\n"
"  roofline-plot --overlay threads-vs-batch results/convnet-A results/convnet-B\n"
"  roofline-plot --overlay two-nodes/ run-node1 run-node2\n",
};

static int set(void *ctx, int key, const struct rt_cli_value *v, struct rt_err *err)
{
	struct rt_plot_run_opts *o = ctx;

	(void)err;
	switch (key) {
	case 'p': o->profile = v->arg; break;
	case OPT_OVERLAY: o->output = v->arg; break;
	case OPT_ALL_ROOFS: o->all_roofs = true; break;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct rt_plot_run_opts o = { .prog = cli.prog };
	int first = 0, rc;

	if (rt_cli_stop(&cli, argc, argv, set, &o, &first, &rc))
		return rc;
	if (first == argc)
		return rt_cli_usage_error(&cli, "no results directory given");
	o.dirs = argv + first;
	o.ndirs = argc - first;
	return rt_plot_run_tool(&o);
}
