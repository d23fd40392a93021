/* plot-run.c: roofline-plot's work: results directories read and checked, their views drawn
 * again or their trajectories overlaid */
#include "config.h"
#include "run/plot-run.h"
#include "run/workloads.h"
#include "run/cmd-results.h"
#include "base/err.h"
#include "base/util.h"
#include "node/profile.h"
#include "results/plot.h"
#include "results/views.h"
#include "sweep/runrec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void say(void *ctx, const char *msg)
{
	const struct rt_plot_run_opts *o = ctx;

	fprintf(stderr, "%s: note: %s\n", o->prog, msg);
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

/* The name of a directory's series in an overlay: its last path component, or the path
 * itself; a name an earlier directory already has gets " (2)", " (3)", ...: two results of
 * the same name (from two hosts) never merge into one series. */
static void base_label(char *buf, size_t size, const char *path)
{
	size_t len = strlen(path);
	const char *start;

	while (len > 1 && path[len - 1] == '/')
		len--;
	for (start = path + len; start > path && start[-1] != '/'; start--)
		;
	if (start == path + len)        /* "/" */
		start = path;
	snprintf(buf, size, "%.*s", (int)(path + len - start), start);
}

static void run_label(char *buf, size_t size, char *const *argv, int first, int d)
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

int rt_plot_run_tool(const struct rt_plot_run_opts *o)
{
	struct rt_profile *prof = NULL;
	struct rt_dirlock lock = { -1 };
	struct rt_point *all = NULL;
	size_t nall = 0;
	struct rt_err err = { 0 };
	/* a path of any length given: the names made from it built to their length */
	struct rt_buf csv, base, gp;
	char ppath[4096];               /* run.cfg's profile (rt_runrec_profile: it fits) */
	const char *pp = o->profile ? o->profile : ppath;
	bool cmd = false;               /* a run of roofline-run (rt_workload_of_dir) */
	int rc = 1;

	rt_buf_init(&csv);
	rt_buf_init(&base);
	rt_buf_init(&gp);
	for (int d = 0; d < o->ndirs; d++) {
		const struct rt_workload *w;
		struct rt_point *pts = NULL;
		char label[64];
		struct stat st;
		size_t n = 0;

		if (!*o->dirs[d]) {
			rt_err_set(&err, -EINVAL, "'': not a results directory (the name is empty)");
			goto fail;
		}
		if (stat(o->dirs[d], &st)) {
			rt_err_set(&err, -errno, "%s: %s", o->dirs[d], strerror(errno));
			goto fail;
		}
		if (!S_ISDIR(st.st_mode)) {
			rt_err_set(&err, -ENOTDIR, "%s: not a directory (give a results directory)",
				   o->dirs[d]);
			goto fail;
		}
		rt_buf_reset(&csv);
		if (rt_buf_printf(&csv, "%s/points.csv", o->dirs[d])) {
			rt_err_set(&err, -ENOMEM, "out of memory");
			goto fail;
		}
		if (access(csv.s, F_OK)) {
			rt_err_set(&err, -ENOENT, "%s: no points.csv: not a results directory", o->dirs[d]);
			goto fail;
		}
		/* the workload it holds: its run.cfg or its rows' scope say which */
		if (!(w = rt_workload_of_dir(o->dirs[d]))) {
			rt_err_set(&err, -EINVAL, "%s/run.cfg: written by a tool that is not "
				   "rooftraj's (its run.program)", o->dirs[d]);
			goto fail;
		}
		if (w == &rt_workload_command) {
			if (o->ndirs > 1 || o->output) {
				rt_err_set(&err, -EINVAL, "%s: a run of roofline-run: roofline-plot "
					   "DIR alone draws it again (overlays are of trainer "
					   "sweeps)", o->dirs[d]);
				goto fail;
			}
			cmd = true;
			break;
		}
		if (rt_points_csv_read(csv.s, &pts, &n, &err))
			goto fail;
		if (!n) {
			rt_err_set(&err, -ENOENT, "%s: no points yet (a sweep that has not finished a "
				   "configuration)", csv.s);
			goto fail;
		}
		if (o->ndirs == 1) {
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
		run_label(label, sizeof(label), o->dirs, 0, d);
		for (size_t i = 0; i < n; i++) {
			all[nall] = pts[i];
			snprintf(all[nall].run, sizeof(all[nall].run), "%s", label);
			nall++;
		}
		free(pts);
	}
	if (!o->profile && rt_runrec_profile(o->dirs[0], ppath, sizeof(ppath), &err))
		goto fail;
	if (rt_profile_load(&prof, pp, &err))
		goto fail;
	if (cmd) {
		/* its views again from its rows, as the directory's one writer */
		if (rt_dirlock_take(&lock, o->dirs[0], "roofline-plot", &err) ||
		    rt_cmd_views_redraw(o->prog, o->dirs[0], prof, &err))
			goto fail;
		printf("page:  %s/report.html\n", o->dirs[0]);
		rc = 0;
		goto out;
	}
	if (!o->output && o->ndirs == 1) {
		/* one directory: every view again, report.html last, as its one writer */
		char def[64], what[256];
		struct rt_views_opts vo = { .dir = o->dirs[0], .what = what,
					    .default_config = def, .prof = prof,
					    .all_roofs = o->all_roofs, .say = say, .say_ctx = (void *)o };

		/* rewritten in place: as the directory's one writer */
		if (rt_dirlock_take(&lock, o->dirs[0], "roofline-plot", &err))
			goto fail;
		rt_runrec_default(o->dirs[0], def, sizeof(def));
		model_name(what, sizeof(what), o->dirs[0]);
		if (rt_views_write(&vo, all, nall, &err))
			goto fail;
		for (size_t k = 0; k < RT_VIEWS_NCHARTS; k++) {
			rt_buf_reset(&gp);
			if (!rt_buf_printf(&gp, "%s/%s.gp", o->dirs[0], rt_views_chart_name(k)) &&
			    !access(gp.s, F_OK))
				printf("chart: %s/%s.{gp,png,svg}\n", o->dirs[0],
				       rt_views_chart_name(k));
		}
		printf("page:  %s/report.html\n", o->dirs[0]);
		rc = 0;
		goto out;
	}
	{
		/* a directory given as the output: the overlay goes into it */
		struct stat st;
		const char *name = o->output ? o->output : "overlay";
		const size_t len = strlen(name);

		const bool slash = len && name[len - 1] == '/';

		if (slash || (!stat(name, &st) && S_ISDIR(st.st_mode)))
			(void)rt_buf_printf(&base, "%s%soverlay", name, slash ? "" : "/");
		else
			(void)rt_buf_puts(&base, name);
	}
	rt_buf_reset(&gp);
	if (rt_buf_printf(&gp, "%s.gp", base.s) || base.failed) {
		rt_err_set(&err, -ENOMEM, "out of memory");
		goto fail;
	}
	rc = rt_plot_trajectories(prof, all, nall, o->ndirs > 1 ? "overlay" : "sweep",
				  o->all_roofs, base.s, &err);
	if (rc == 0)
		printf("chart: %s.png, %s.svg (script %s)\n", base.s, base.s, gp.s);
	else if (rc == RT_PLOT_SCRIPT_ONLY)
		printf("chart: %s (note: %s)\n", gp.s, err.msg);
	else
		goto fail;
	rc = 0;
	goto out;
fail:
	fprintf(stderr, "%s: %s\n", o->prog, err.msg);
	rc = 1;
out:
	rt_dirlock_release(&lock);
	rt_profile_destroy(prof);
	free(all);
	rt_buf_fini(&csv);
	rt_buf_fini(&base);
	rt_buf_fini(&gp);
	return rc;
}
