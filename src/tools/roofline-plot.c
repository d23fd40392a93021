/* roofline-plot: re-render the roofline trajectories of saved sweep results, one directory or
 * several overlaid */
#include "config.h"
#include "run/plot-run.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *prog = "roofline-plot";

static void usage(FILE *fp)
{
	fprintf(fp,
"Usage: %s [OPTION]... DIR...\n"
"Draw saved sweep results (roofline-train --sweep) again. With one results directory every\n"
"view is rewritten in place: the charts (trajectories, phases, memory, memory-input, layers,\n"
"layers-time) and report.html, the page that holds them all. With several directories, or\n"
"with --output, their trajectories are overlaid in one chart, each series named after its\n"
"directory. Writes the gnuplot scripts and, when gnuplot is installed, renders them to PNG\n"
"and SVG.\n"
"\n"
"  -p, --profile=FILE  machine profile for the roofs (default: the one DIR/run.cfg names)\n"
"  -o, --output=BASE   overlay the trajectories into BASE.gp, BASE.png and BASE.svg (default\n"
"                      with several directories: ./overlay)\n"
"      --all-roofs     draw every FLOP ceiling (each ISA and method), not only each\n"
"                      precision's peak and theoretical peak\n"
"  -h, --help          show this help and exit\n"
"  -V, --version       show the version and exit\n"
"\n"
"Examples:\n"
"  %s results/convnet-2026-11-21T23:00:00Z\n"
"  %s -o threads-vs-batch results/convnet-A results/convnet-B\n", prog, prog, prog);
}

static const struct option long_opts[] = {
	{ "profile", required_argument, NULL, 'p' },
	{ "output", required_argument, NULL, 'o' },
	{ "all-roofs", no_argument, NULL, 'A' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

int main(int argc, char **argv)
{
	const char *profile_arg = NULL, *output = NULL;
	bool all_roofs = false;
	int c;

	while ((c = getopt_long(argc, argv, "p:o:hV", long_opts, NULL)) != -1) {
		switch (c) {
		case 'p': profile_arg = optarg; break;
		case 'o': output = optarg; break;
		case 'A': all_roofs = true; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("%s (%s) %s\n", prog, PACKAGE_NAME, PACKAGE_VERSION); return 0;
		default:
			fprintf(stderr, "Try '%s --help' for more information.\n", prog);
			return 2;
		}
	}
	if (optind == argc) {
		fprintf(stderr, "%s: no results directory given\nTry '%s --help' for more "
			"information.\n", prog, prog);
		return 2;
	}
	if (output && !*output) {
		fprintf(stderr, "%s: --output: the name is empty\nTry '%s --help' for more "
			"information.\n", prog, prog);
		return 2;
	}
	{
		const struct rt_plot_run_opts o = { .prog = prog, .dirs = argv + optind,
						    .ndirs = argc - optind, .profile = profile_arg,
						    .output = output, .all_roofs = all_roofs };

		return rt_plot_run_tool(&o);
	}
}
