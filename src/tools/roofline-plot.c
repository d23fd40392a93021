/* roofline-plot: re-render the roofline trajectories of saved sweep results, one directory or
 * several overlaid */
#include "config.h"
#include "base/err.h"
#include "results/plot.h"
#include "node/profile.h"
#include "results/summary.h"
#include "sweep/sweep-train.h"
#include "sweep/runrec.h"
#include "base/util.h"
#include "results/views.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *prog = "roofline-plot";

static void say(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "%s: note: %s\n", prog, msg);
}

/* The model's name a results directory's run.cfg records (its file's base name), or the
 * directory's. */
static void model_name(char *buf, size_t size, const char *dir)
{
	struct rt_runrec_request r;
	struct rt_err err;
	const char *slash;

	if (rt_runrec_request_read(&r, dir, &err)) {
		snprintf(buf, size, "%s", dir);
		return;
	}
	slash = strrchr(r.model, '/');
	snprintf(buf, size, "%.200s", slash ? slash + 1 : r.model);
	if (strlen(buf) > 4 && !strcmp(buf + strlen(buf) - 4, ".cfg"))
		buf[strlen(buf) - 4] = '\0';
}

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

/* The name of a directory's series in an overlay: its last path component, or the path
 * itself; a name an earlier directory already has gets " (2)", " (3)", ...: two results of
 * the same name (from two hosts) never merge into one series. */
static void base_label(char *buf, size_t size, const char *path)
{
	char copy[4096];
	size_t len;
	const char *slash;

	snprintf(copy, sizeof(copy), "%s", path);
	len = strlen(copy);
	while (len > 1 && copy[len - 1] == '/')
		copy[--len] = '\0';
	slash = strrchr(copy, '/');
	snprintf(buf, size, "%s", slash && slash[1] ? slash + 1 : copy);
}

static void run_label(char *buf, size_t size, char **argv, int first, int d)
{
	char mine[64];
	int same = 0;

	base_label(mine, sizeof(mine), argv[d]);
	for (int e = first; e < d; e++) {
		char other[64];

		base_label(other, sizeof(other), argv[e]);
		same += !strcmp(other, mine);
	}
	if (same)
		snprintf(buf, size, "%.50s (%d)", mine, same + 1);
	else
		snprintf(buf, size, "%s", mine);
}

int main(int argc, char **argv)
{
	const char *profile_arg = NULL, *output = NULL;
	bool all_roofs = false;
	struct rt_profile *prof = NULL;
	struct rt_dirlock lock = { -1 };
	struct rt_point *all = NULL;
	size_t nall = 0;
	struct rt_err err = { 0 };
	char ppath[4096], base[4096], gp[4200];
	int c, rc = 1;

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
	for (int d = optind; d < argc; d++) {
		char csv[4200];
		struct rt_point *pts = NULL;
		char label[64];
		struct stat st;
		size_t n = 0;

		if (!*argv[d]) {
			rt_err_set(&err, -EINVAL, "'': not a results directory (the name is empty)");
			goto fail;
		}
		if (stat(argv[d], &st)) {
			rt_err_set(&err, -errno, "%s: %s", argv[d], strerror(errno));
			goto fail;
		}
		if (!S_ISDIR(st.st_mode)) {
			rt_err_set(&err, -ENOTDIR, "%s: not a directory (give a results directory)",
				   argv[d]);
			goto fail;
		}
		snprintf(csv, sizeof(csv), "%s/points.csv", argv[d]);
		if (access(csv, F_OK)) {
			rt_err_set(&err, -ENOENT, "%s: no points.csv: not a results directory", argv[d]);
			goto fail;
		}
		if (rt_points_csv_read(csv, &pts, &n, &err))
			goto fail;
		if (!n) {
			rt_err_set(&err, -ENOENT, "%s: no points yet (a sweep that has not finished a "
				   "configuration)", csv);
			goto fail;
		}
		if (argc - optind == 1) {
			/* one directory: its points as read */
			all = pts;
			nall = n;
			continue;
		}
		{
			struct rt_point *q = realloc(all, (nall + n) * sizeof(*all));

			if (!q) {
				free(pts);
				rt_err_set(&err, -ENOMEM, "out of memory");
				goto fail;
			}
			all = q;
		}
		run_label(label, sizeof(label), argv, optind, d);
		for (size_t i = 0; i < n; i++) {
			all[nall] = pts[i];
			snprintf(all[nall].run, sizeof(all[nall].run), "%s", label);
			nall++;
		}
		free(pts);
	}
	if (profile_arg)
		snprintf(ppath, sizeof(ppath), "%s", profile_arg);
	else if (rt_runrec_profile(argv[optind], ppath, sizeof(ppath), &err))
		goto fail;
	if (rt_profile_load(&prof, ppath, &err))
		goto fail;
	if (!output && argc - optind == 1) {
		/* one directory: every view again, report.html last, as its one writer */
		char def[64], what[256];
		struct rt_views_opts vo = { .dir = argv[optind], .what = what,
					    .default_config = def, .prof = prof,
					    .all_roofs = all_roofs, .say = say };

		/* rewritten in place: as the directory's one writer */
		if (rt_dirlock_take(&lock, argv[optind], "roofline-plot", &err))
			goto fail;
		rt_runrec_default(argv[optind], def, sizeof(def));
		model_name(what, sizeof(what), argv[optind]);
		if (rt_views_write(&vo, all, nall, &err))
			goto fail;
		for (size_t k = 0; k < RT_VIEWS_NCHARTS; k++) {
			snprintf(gp, sizeof(gp), "%s/%s.gp", argv[optind], rt_views_chart_name(k));
			if (!access(gp, F_OK))
				printf("chart: %s/%s.{gp,png,svg}\n", argv[optind],
				       rt_views_chart_name(k));
		}
		printf("page:  %s/report.html\n", argv[optind]);
		rc = 0;
		goto out;
	}
	{
		/* a directory given as the output: the overlay goes into it */
		struct stat st;
		const char *o = output ? output : "overlay";
		const size_t len = strlen(o);

		if (o[len - 1] == '/' || (!stat(o, &st) && S_ISDIR(st.st_mode)))
			snprintf(base, sizeof(base), "%s%soverlay", o, o[len - 1] == '/' ? "" : "/");
		else
			snprintf(base, sizeof(base), "%s", o);
	}
	snprintf(gp, sizeof(gp), "%s.gp", base);
	rc = rt_plot_trajectories(prof, all, nall, argc - optind > 1 ? "overlay" : "sweep",
				  all_roofs, base, &err);
	if (rc == 0)
		printf("chart: %s.png, %s.svg (script %s)\n", base, base, gp);
	else if (rc == RT_PLOT_SCRIPT_ONLY)
		printf("chart: %s (note: %s)\n", gp, err.msg);
	else
		goto fail;
	rc = 0;
	goto out;
fail:
	fprintf(stderr, "%s: %s\n", prog, err.msg);
	rc = 1;
out:
	rt_dirlock_release(&lock);
	rt_profile_destroy(prof);
	free(all);
	return rc;
}
