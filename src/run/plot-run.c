/* plot-run.c: roofline-plot's work: results directories read and checked, their views drawn
 * again by the workload each holds, or their points overlaid by it (several directories of
 * one workload) */
#include "config.h"
#include "run/plot-run.h"
#include "run/workloads.h"
#include "base/err.h"
#include "base/util.h"
#include "node/profile.h"
#include "results/plot.h"
#include "sweep/runrec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	struct rt_err err = { 0 };
	/* a path of any length given: the names made from it built to their length */
	struct rt_buf csv, base, gp;
	char ppath[4096];               /* run.cfg's profile (rt_runrec_profile: it fits) */
	char (*labels)[64] = calloc((size_t)o->ndirs + 1, sizeof(*labels));
	const char **lp = calloc((size_t)o->ndirs + 1, sizeof(*lp));
	const char *pp = o->profile ? o->profile : ppath;
	const struct rt_workload *w = NULL;
	const bool overlay = o->ndirs > 1 || o->output;
	int rc = 1;

	rt_buf_init(&csv);
	rt_buf_init(&base);
	rt_buf_init(&gp);
	if (!labels || !lp) {
		rt_err_set(&err, -ENOMEM, "out of memory");
		goto fail;
	}
	for (int d = 0; d < o->ndirs; d++) {
		const struct rt_workload *wd;
		struct stat st;

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
		if (!(wd = rt_workload_of_dir(o->dirs[d]))) {
			rt_err_set(&err, -EINVAL, "%s/run.cfg: written by a tool that is not "
				   "rooftraj's (its run.program)", o->dirs[d]);
			goto fail;
		}
		/* an overlay is of one workload: a trainer's point is its whole iteration, a
		 * command's is oneDNN's time in it */
		if (w && wd != w) {
			rt_err_set(&err, -EINVAL, "%s: a run of %s, and %s one of %s: an overlay is "
				   "of one tool's results (the trainer's points are whole iterations, "
				   "roofline-run's oneDNN's time in a command)", o->dirs[d],
				   wd->program, o->dirs[0], w->program);
			goto fail;
		}
		w = wd;
		run_label(labels[d], sizeof(labels[d]), o->dirs, 0, d);
		lp[d] = labels[d];
		if (!overlay)
			break;
	}
	if (!o->profile && rt_runrec_profile(o->dirs[0], ppath, sizeof(ppath), &err))
		goto fail;
	if (rt_profile_load(&prof, pp, &err))
		goto fail;
	if (!overlay) {
		/* one directory: every view again by its workload, report.html last, as the
		 * directory's one writer */
		const struct rt_redraw r = { .prog = o->prog, .dir = o->dirs[0], .prof = prof,
					     .all_roofs = o->all_roofs };

		if (rt_dirlock_take(&lock, o->dirs[0], "roofline-plot", &err) ||
		    w->redraw(&r, &err))
			goto fail;
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
	{
		const struct rt_overlay ov = { .prog = o->prog, .dirs = o->dirs,
					       .n = (size_t)o->ndirs, .labels = lp, .prof = prof,
					       .all_roofs = o->all_roofs, .outbase = base.s };

		rc = w->overlay(&ov, &err);
	}
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
	free(labels);
	free(lp);
	rt_buf_fini(&csv);
	rt_buf_fini(&base);
	rt_buf_fini(&gp);
	return rc;
}
