/* engine.c: the one loop every sweep runs: each configuration measured by its workload, its
 * rows appended to points.csv whole as it finishes; the one loop of a configuration's repeats,
 * a disturbed run measured once more */
#include "config.h"
#include "sweep/engine.h"
#include "base/spawn.h"
#include "base/util.h"
#include "results/points.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int rt_engine_run(const struct rt_engine *e, size_t *measured, struct rt_err *err)
{
	const double t_start = rt_now();
	size_t todo = 0;
	int rc = 0;

	*measured = 0;
	for (size_t i = e->first; i < e->n; i++)
		todo += !(e->have && e->have[i]);
	for (size_t i = e->first; i < e->n && !rc; i++) {
		const char *name = e->name(e->ctx, i);
		char result[400] = "", line[460];
		char *buf = NULL;
		size_t len = 0;
		struct stat st;
		FILE *rows;

		if (rt_spawn_interrupted())
			return -EINTR;
		if (e->have && e->have[i]) {
			if (e->progress)
				e->progress(e->progress_ctx, i + 1, e->n, name,
					    "measured before (resumed)");
			continue;
		}
		if (e->progress)
			e->progress(e->progress_ctx, i + 1, e->n, name, NULL);
		if (!(rows = open_memstream(&buf, &len)))
			return rt_err_set(err, -ENOMEM, "out of memory");
		/* a new points.csv starts with its header */
		if (lstat(e->csv, &st) || st.st_size == 0)
			rt_points_csv_header(rows);
		rc = e->w->measure(e->ctx, i, rows, result, sizeof(result), err);
		if (fclose(rows) && !rc)
			rc = rt_err_set(err, -ENOMEM, "out of memory");
		/* an interrupted configuration is not a result: it stays for --resume */
		if (!rc && rt_spawn_interrupted())
			rc = -EINTR;
		if (!rc && !(rc = rt_file_append(e->csv, buf, len, err))) {
			double left;

			/* time left: the mean so far times the configurations to go */
			++*measured;
			left = (rt_now() - t_start) / (double)*measured *
			       (double)(todo - *measured);

			snprintf(line, sizeof(line), "%s%s(about %.0f s left)", result,
				 *result ? " " : "", left);
			if (e->progress)
				e->progress(e->progress_ctx, i + 1, e->n, name, line);
		}
		free(buf);
	}
	return rc;
}

int rt_engine_repeat(const struct rt_engine_repeat *r, size_t *done, enum rt_status *kept,
		     struct rt_err *err)
{
	void *spare = calloc(1, r->size);
	int rc = 0;

	*done = 0;
	if (!spare)
		return rt_err_set(err, -ENOMEM, "out of memory");
	for (size_t k = 0; k < r->n && !rc && !rt_spawn_interrupted(); k++) {
		void *slot = (char *)r->slots + k * r->size;
		bool keep;

		if ((rc = r->run(r->ctx, k, slot, NULL, err)))
			break;
		*done = k + 1;
		if (r->again && r->status(slot) == RT_STATUS_DISTURBED && !rt_spawn_interrupted()) {
			/* another process took its CPUs: measured again, the undisturbed run kept */
			memset(spare, 0, r->size);
			rc = r->run(r->ctx, k, spare, slot, err);
			keep = !rc && r->status(spare) == RT_STATUS_OK;
			if (!rc && r->settle)
				keep = r->settle(r->ctx, k, keep);
			if (r->drop)
				r->drop(keep ? slot : spare);
			if (keep)
				memcpy(slot, spare, r->size);
		}
		if (!rc && r->done)
			r->done(r->ctx, k, slot);
		if (r->stop_failed && r->status(slot) == RT_STATUS_FAILED)
			break;
	}
	*kept = rt_points_runs_kept(r->slots, *done, r->size, r->status);
	free(spare);
	return rc;
}
