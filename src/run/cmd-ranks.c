/* cmd-ranks.c: roofline-run's ranks: who this process is, and the job's rows and summary */
#include "config.h"
#include "run/cmd-ranks.h"
#include "run/cmd-results.h"
#include "base/cli.h"
#include "base/options.h"
#include "base/util.h"
#include "results/points.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

/* The job's run of one configuration and repetition: the slowest rank sets its time. */
struct jobrun {
	char config[200];
	unsigned rep;
	int ranks_ok, ranks_failed;
	int ranks_disturbed;            /* of ranks_ok: measured while other work took their CPUs */
	double wall, flops, onednn;
};

struct job {
	struct jobrun *v;
	size_t n, cap;
};

static struct jobrun *job_at(struct job *j, const char *config, unsigned rep)
{
	for (size_t i = 0; i < j->n; i++)
		if (j->v[i].rep == rep && !strcmp(j->v[i].config, config))
			return &j->v[i];
	if (j->n == j->cap) {
		size_t nc = j->cap ? 2 * j->cap : 64;
		struct jobrun *v = realloc(j->v, nc * sizeof(*v));

		if (!v)
			return NULL;
		j->v = v;
		j->cap = nc;
	}
	memset(&j->v[j->n], 0, sizeof(j->v[0]));
	snprintf(j->v[j->n].config, sizeof(j->v[0].config), "%s", config);
	j->v[j->n].rep = rep;
	return &j->v[j->n++];
}

/* A run row of a rank's into the job's run of its configuration. */
static int take_row(struct job *j, const struct rt_point *w, struct rt_err *err)
{
	struct jobrun *r;

	if (strcmp(w->name, "command"))
		return 0;
	if (!(r = job_at(j, w->config, w->rep)))
		return rt_err_set(err, -ENOMEM, "out of memory");
	/* a disturbed run ran: counted, never compared */
	if (w->status == RT_STATUS_FAILED) {
		r->ranks_failed++;
		return 0;
	}
	r->ranks_ok++;
	r->ranks_disturbed += w->status == RT_STATUS_DISTURBED;
	r->wall = fmax(r->wall, w->wall);               /* no FLOPs or oneDNN: 0 */
	r->flops += isnan(w->flops) ? 0 : w->flops;
	r->onednn += isnan(w->onednn) ? 0 : w->onednn;
	return 0;
}

/* Every rank's rows into the merged file, as written, each run row into the job's runs. */
static int gather(const char *dir, int size, FILE *outp, struct job *j, struct rt_err *err)
{
	rt_points_csv_header(outp);
	for (int k = 0; k < size; k++) {
		char path[4200], *text, *rows;
		struct rt_points_file f;
		size_t len;
		bool trainers;
		FILE *fp;
		int rc;

		snprintf(path, sizeof(path), "%s/rank-%d/points.csv", dir, k);
		if (rt_check_regular(path, err))
			return -EINVAL;
		if (!(text = rt_slurp(path, &len, err))) {
			if (err->code == -ENOENT)
				continue;       /* a rank that measured nothing */
			return -EINVAL;
		}
		if (!(fp = fmemopen(text, len, "r"))) {
			free(text);
			return rt_err_set(err, -ENOMEM, "out of memory");
		}
		rc = rt_points_csv_load(fp, path, false, &f, err);
		fclose(fp);
		trainers = f.n && !f.command_rows;
		if (!rc && (f.columns != RT_COL_COUNT || trainers))     /* rows copied as they are */
			rc = rt_err_set(err, -EINVAL, "%s:1: not today's roofline-run points.csv (%s)",
					path, trainers ? "roofline-train's rows" : "an earlier "
					"rooftraj's columns: --resume makes them today's");
		for (size_t i = 0; !rc && i < f.n; i++)
			rc = take_row(j, &f.pts[i], err);
		rt_points_file_free(&f);
		/* the rows as the reader found them: after the header, to the last row's end (the
		 * blank lines a file may end with would stand between two ranks' rows) */
		while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
			len--;
		if (!rc && (rows = memchr(text, '\n', len)) && ++rows < text + len) {
			fwrite(rows, 1, (size_t)(text + len - rows), outp);
			fputc('\n', outp);
		}
		free(text);
		if (rc)
			return rc;
	}
	return 0;
}

static void job_summary(FILE *fp, const struct job *j, const struct rt_cluster_launch *l)
{
	struct rt_spread best = { INFINITY, 0, 0, 0 }, def = { NAN, 0, 0, 0 };
	const char *best_name = NULL;
	char range[64];

	fprintf(fp, "%d ranks (%s), each its own process of the command; every rank's rows in "
		"points.csv (column rank), each rank's summary in rank-K/summary.txt. A "
		"configuration's run of the job lasts as long as its slowest rank.\n\n", l->size,
		l->from);
	fprintf(fp, "%-44s %24s %7s %12s\n", "configuration", "job wall s (min..max)", "runs",
		"GFLOP/s");
	for (size_t i = 0; i < j->n; i++) {
		double w[RT_CLI_REPEAT_MAX], fl = 0;
		struct rt_spread sp;
		unsigned k = 0, failed = 0, disturbed = 0;
		bool seen = false;

		for (size_t p = 0; p < i && !seen; p++)
			seen = !strcmp(j->v[p].config, j->v[i].config);
		if (seen)
			continue;
		for (size_t q = i; q < j->n; q++) {
			const struct jobrun *r = &j->v[q];

			if (strcmp(r->config, j->v[i].config))
				continue;
			if (r->ranks_ok == l->size && r->ranks_disturbed) {
				disturbed++;
			} else if (r->ranks_ok == l->size && k < RT_CLI_REPEAT_MAX) {
				w[k++] = r->wall;
				fl = r->flops;
			} else {
				failed++;
			}
		}
		if (!k) {
			fprintf(fp, "%-44s %s\n", j->v[i].config, disturbed ? "disturbed on a rank "
				"in every run (other work took its CPUs): not compared" :
				"failed on a rank in every run");
			continue;
		}
		sp = rt_points_spread(w, k);
		snprintf(range, sizeof(range), "%.3f (%.3f..%.3f)", sp.median, sp.lo, sp.hi);
		fprintf(fp, "%-44s %24s %4u/%-2u %12.2f", j->v[i].config, range, k,
			k + failed + disturbed, sp.median > 0 ? fl / sp.median / 1e9 : 0);
		if (disturbed)
			fprintf(fp, "  (%u run%s disturbed on a rank: not counted)", disturbed,
				disturbed == 1 ? "" : "s");
		fputc('\n', fp);
		if (!strcmp(j->v[i].config, "default")) {
			def = sp;
		} else if (sp.median < best.median) {
			best = sp;
			best_name = j->v[i].config;
		}
	}
	fputc('\n', fp);
	if (best_name) {
		struct rt_verdict_say say = { { best_name, best, 0 }, { NULL, def, 0 },
					      .missing = isnan(def.median) ?
					      "did not run on every rank" : NULL,
					      .of = " in the job's wall time" };
		char v[1024];

		rt_points_verdict_say(&say, v, sizeof(v));
		fprintf(fp, "%s\n", v);
	} else {
		fprintf(fp, "no comparison with the default: no other configuration ran on every "
			"rank\n");
	}
}

int rt_cmd_ranks_merge(const char *dir, const struct rt_cluster_launch *l, FILE *out,
		       struct rt_err *err)
{
	char path[4200];
	struct rt_outfile pts, sum;
	struct job j = { 0 };
	int fd, rc = 0;

	snprintf(path, sizeof(path), "%s/.rooftraj-merge.lock", dir);
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd < 0)
		return rt_err_set(err, -errno, "%s: %s", path, strerror(errno));
	while (flock(fd, LOCK_EX) < 0)
		if (errno != EINTR) {
			rc = rt_err_set(err, -errno, "%s: %s", path, strerror(errno));
			goto out;
		}
	for (int k = 0; k < l->size; k++) {
		snprintf(path, sizeof(path), "%s/rank-%d/summary.txt", dir, k);
		if (access(path, F_OK))
			goto out;               /* a rank is still running: it will merge */
	}
	snprintf(path, sizeof(path), "%s/summary.txt", dir);
	if (access(path, F_OK) == 0)
		goto out;                       /* merged already */
	snprintf(path, sizeof(path), "%s/points.csv", dir);
	if ((rc = rt_outfile_open(&pts, path, err)))
		goto out;
	if ((rc = gather(dir, l->size, pts.fp, &j, err)) || (rc = rt_outfile_commit(&pts, err))) {
		rt_outfile_abort(&pts);
		goto out;
	}
	/* the job's summary, in the directory and then on out */
	if ((rc = rt_outfile_open_in(&sum, dir, "summary.txt", err)))
		goto out;
	job_summary(sum.fp, &j, l);
	if ((rc = rt_outfile_commit(&sum, err)))
		goto out;
	job_summary(out, &j, l);
	rc = 1;
out:
	free(j.v);
	close(fd);
	return rc;
}
