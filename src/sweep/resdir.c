/* resdir.c: the results directory of a run of either workload: named, created, locked, and
 * named again when the run completes */
#include "config.h"
#include "sweep/resdir.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static const char partial[] = ".partial";

int rt_resdir_fresh(void *ctx, const char *dir, struct rt_err *err)
{
	static const char *const file[] = { "run.cfg", "points.csv" };
	char path[4200];
	struct stat st;

	(void)ctx;
	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, file[i]);
		if (!lstat(path, &st))
			return rt_err_set(err, -EEXIST, "%s holds results already (%s): give another "
					  "directory", dir, file[i]);
	}
	return 0;
}

/* A new results directory of its own: DIR.partial created here (mkdir is exclusive), DIR-2,
 * DIR-3, ... when another run took the name in the same second, and never a name whose
 * complete directory exists. */
static int new_partial_dir(const char *base, char *dir, size_t size, struct rt_err *err)
{
	int rc;

	if ((rc = rt_mkdir_p("results", err)))
		return rc;
	for (int k = 1; k < 1000; k++) {
		struct stat st;
		int n = k == 1 ? snprintf(dir, size, "%s", base) :
				 snprintf(dir, size, "%s-%d", base, k);

		if (!stat(dir, &st))
			continue;
		snprintf(dir + n, size - (size_t)n, "%s", partial);
		if (!mkdir(dir, 0777))
			return 0;
		if (errno != EEXIST)
			return rt_err_set(err, -errno, "%s: cannot create directory: %s", dir,
					  strerror(errno));
	}
	return rt_err_set(err, -EEXIST, "%s: no free name for the results", base);
}

static bool is_partial(const char *dir)
{
	const size_t len = strlen(dir), sl = strlen(partial);

	return len > sl && !strcmp(dir + len - sl, partial);
}

void rt_resdir_init(struct rt_resdir *d)
{
	memset(d, 0, sizeof(*d));
	d->lock.fd = -1;
}

int rt_resdir_open(struct rt_resdir *d, const struct rt_resdir_opts *o, struct rt_err *err)
{
	const char *given = o->resume ? o->resume : o->outdir;
	int rc;

	if (given) {
		if (strlen(given) >= sizeof(d->path))
			return rt_err_set(err, -ENAMETOOLONG, "%s: path is too long", given);
		snprintf(d->path, sizeof(d->path), "%s", given);
		d->rename = o->resume && is_partial(given);
		/* a directory that cannot take the run is refused before anything is made */
		if ((o->fits && (rc = o->fits(o->fits_ctx, d->path, err))) ||
		    (!o->resume && (rc = rt_mkdir_p(d->path, err))))
			return rc;
	} else {
		char ts[32], base[300];

		rt_timestamp(ts, sizeof(ts));
		snprintf(base, sizeof(base), "results/%.200s-%s", o->name, ts);
		if ((rc = new_partial_dir(base, d->path, sizeof(d->path), err)))
			return rc;
		d->rename = true;
	}
	/* one writer from here to the end; what it holds asked again under the lock (another
	 * writer may have finished in between) */
	if ((rc = rt_dirlock_take(&d->lock, d->path, o->what, err)))
		return rc;
	return given && o->fits ? o->fits(o->fits_ctx, d->path, err) : 0;
}

int rt_resdir_complete(struct rt_resdir *d, struct rt_err *err)
{
	struct rt_buf to;               /* the path without .partial, and a number after it */
	size_t len;
	int rc = 0;

	if (!d->rename)
		return 0;
	len = strlen(d->path) - strlen(partial);
	rt_buf_init(&to);
	for (int k = 1; k < 1000; k++) {
		rt_buf_reset(&to);
		(void)rt_buf_add(&to, d->path, len);
		if (k > 1)
			(void)rt_buf_printf(&to, "-%d", k);
		if (to.failed) {
			rc = rt_err_set(err, -ENOMEM, "out of memory");
			goto out;
		}
		rc = rt_rename_noreplace(d->path, to.s);
		if (rc != -EEXIST)
			break;
	}
	if (rc) {
		rc = rt_err_set(err, rc, "%s: cannot rename to '%s': %s", d->path, to.s,
				strerror(-rc));
	} else {
		snprintf(d->path, sizeof(d->path), "%s", to.s);    /* shorter than it was */
		d->rename = false;
	}
out:
	rt_buf_fini(&to);
	return rc;
}

void rt_resdir_fini(struct rt_resdir *d)
{
	rt_dirlock_release(&d->lock);
}
