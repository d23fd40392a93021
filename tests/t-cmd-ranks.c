/* t-cmd-ranks.c: roofline-run's job of two ranks merged from the ranks' own points.csv: each
 * field found by its column's name, the job's run as long as its slowest rank, the verdict
 * the one the trainer's sweeps get (faster only outside both ranges); a rank's row whose
 * number does not read is FILE:LINE and its column, and nothing is merged. */
#include "config.h"
#include "run/cmd-ranks.h"
#include "run/cmd-results.h"
#include "results/points.h"
#include "tap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A run row of points.csv's columns: only those the merge reads are set. */
static void row(FILE *fp, const char *config, int rep, const char *status, const char *wall,
		const char *flops, int rank)
{
	const char *v[RT_COL_COUNT] = { NULL };
	char r[16], k[16];

	snprintf(r, sizeof(r), "%d", rep);
	snprintf(k, sizeof(k), "%d", rank);
	v[RT_COL_CONFIG] = config, v[RT_COL_REP] = r, v[RT_COL_SCOPE] = "run";
	v[RT_COL_NAME] = "command", v[RT_COL_FLOPS] = flops, v[RT_COL_STATUS] = status;
	v[RT_COL_WALL_SECONDS] = wall, v[RT_COL_ONEDNN_SECONDS] = "0.5", v[RT_COL_THREADS] = "1";
	v[RT_COL_RANK] = k;
	rt_points_csv_put(fp, v);
}

/* row()'s line into buf */
static const char *row_text(char *buf, size_t size, const char *config, int rep,
			    const char *wall, int rank)
{
	FILE *fp = fmemopen(buf, size, "w");

	buf[0] = '\0';
	if (fp) {
		row(fp, config, rep, "ok", wall, "1e9", rank);
		fclose(fp);
	}
	return buf;
}

/* DIR/rank-K/: its summary (the rank is done) and its points.csv, walls[config][rep] */
static void rank_dir(const char *dir, int k, const double walls[2][3], const char *bad_wall)
{
	char path[4300];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/rank-%d", dir, k);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/rank-%d/summary.txt", dir, k);
	fp = fopen(path, "w");
	if (fp)
		fclose(fp);
	snprintf(path, sizeof(path), "%s/rank-%d/points.csv", dir, k);
	fp = fopen(path, "w");
	if (!fp)
		return;
	rt_points_csv_header(fp);
	for (int c = 0; c < 2; c++)
		for (int r = 0; r < 3; r++) {
			char w[32];

			snprintf(w, sizeof(w), "%.3f", walls[c][r]);
			row(fp, c ? "t2" : "default", r + 1, "ok", bad_wall && c && r == 2 ? bad_wall :
			    w, "1e9", k);
		}
	fclose(fp);
}

static bool has(const char *path, const char *text)
{
	static char buf[65536];

	return slurp(path, buf, sizeof(buf)) && strstr(buf, text);
}

int main(void)
{
	char dir[] = "/tmp/t-cmd-ranks.XXXXXX", path[4300], cmd[4400];
	/* the ranks' walls: the job's run is the slower rank's, default 1.00 1.00 1.01 (median
	 * 1.00), t2 0.80 0.80 0.81 (median 0.80): 1.00 / 0.80 = 1.25x, outside both ranges */
	const double r0[2][3] = { { 1.00, 0.99, 0.98 }, { 0.80, 0.79, 0.81 } },
		     r1[2][3] = { { 0.98, 1.00, 1.01 }, { 0.78, 0.80, 0.80 } };
	struct rt_cluster_launch l = { .launched = true, .mpi = true, .rank = 0, .size = 2,
				       .from = "OMPI_COMM_WORLD_SIZE" };
	struct rt_err err = { 0 };
	FILE *out = fopen("/dev/null", "w");
	int rc;

	if (!mkdtemp(dir) || !out)
		return 1;
	rank_dir(dir, 0, r0, NULL);
	rank_dir(dir, 1, r1, NULL);
	rc = rt_cmd_ranks_merge(dir, &l, out, &err);
	is_int(rc, 1, "two ranks done: merged (%s)", err.msg);
	snprintf(path, sizeof(path), "%s/summary.txt", dir);
	ok(has(path, " 1.000 (1.000..1.010)    3/3 "),
	   "the default's job walls: the slower rank's each run, median 1.000, 3 runs of 3");
	ok(has(path, " 0.800 (0.800..0.810)    3/3 "), "t2's: median 0.800 (0.800..0.810)");
	ok(has(path, "best configuration: t2, 0.800 s (0.800..0.810) in the job's wall time; "
		     "the default 1.000 s (1.000..1.010): speedup 1.25x, outside both ranges"),
	   "the verdict: 1.25x, outside both ranges");
	snprintf(path, sizeof(path), "%s/points.csv", dir);
	{
		char a[1024], b[1024];

		ok(has(path, row_text(a, sizeof(a), "t2", 3, "0.810", 0)) &&
		   has(path, row_text(b, sizeof(b), "t2", 3, "0.800", 1)) &&
		   strstr(a, ",3,,,,,,0.810,0.5,,,0,,\n"),
		   "every rank's rows in the job's points.csv (%s)", a);
	}

	/* a rank's file that ends with a blank line (the reader takes it): the merged file reads
	 * back whole, no blank line between the ranks' rows */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'/*", dir);
	if (system(cmd))
		return 1;
	rank_dir(dir, 0, r0, NULL);
	rank_dir(dir, 1, r1, NULL);
	snprintf(path, sizeof(path), "%s/rank-0/points.csv", dir);
	{
		FILE *fp = fopen(path, "a");
		struct rt_points_file f;

		if (!fp)
			return 1;
		fputs("\n\n", fp);
		fclose(fp);
		rc = rt_cmd_ranks_merge(dir, &l, out, &err);
		snprintf(path, sizeof(path), "%s/points.csv", dir);
		fp = fopen(path, "r");
		ok(rc == 1 && fp && rt_points_csv_load(fp, path, false, &f, &err) == 0 &&
		   f.n == 12, "a rank's file ending in blank lines: the merged file reads back, "
		   "12 run rows (%s)", err.msg);
		if (fp)
			fclose(fp);
		rt_points_file_free(&f);
	}

	/* a rank's wall that is no number: named, and nothing merged */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'/*", dir);
	if (system(cmd))
		return 1;
	rank_dir(dir, 0, r0, NULL);
	rank_dir(dir, 1, r1, "0.8x");
	rc = rt_cmd_ranks_merge(dir, &l, out, &err);
	ok(rc == -EINVAL && strstr(err.msg, "/rank-1/points.csv:7: wall_seconds '0.8x' is not a "
				   "number"), "a wall of '0.8x': FILE:LINE and its column (%s)",
	   err.msg);
	snprintf(path, sizeof(path), "%s/points.csv", dir);
	ok(access(path, F_OK) != 0, "... no points.csv merged");
	snprintf(path, sizeof(path), "%s/summary.txt", dir);
	ok(access(path, F_OK) != 0, "... no summary");

	/* a rank whose file is not roofline-run's (a header of another schema) */
	snprintf(path, sizeof(path), "%s/rank-0/points.csv", dir);
	{
		FILE *fp = fopen(path, "w");

		if (!fp)
			return 1;
		fputs("config,threads,batch\nt1,1,8\n", fp);
		fclose(fp);
	}
	rc = rt_cmd_ranks_merge(dir, &l, out, &err);
	ok(rc == -EINVAL && strstr(err.msg, "/rank-0/points.csv:1: not a rooftraj points.csv "
				   "header"), "another header: refused at line 1 (%s)", err.msg);
	/* a training sweep's file of an earlier rooftraj (33 columns: no rep) */
	{
		FILE *fp = fopen(path, "w");

		if (!fp)
			return 1;
		fputs("config,threads,batch,affinity,precision,ranks,scope,name,stat,seconds,flops,"
		      "bytes,source,intensity,gflops,images_per_s,weights,activations,gradients,"
		      "optimizer,workspace,peak_rss,status,reason,impl,input_h,input_w,"
		      "weight_gradients,activation_gradients,inference,processes,cpu_share,"
		      "bytes_source\n", fp);
		fclose(fp);
	}
	rc = rt_cmd_ranks_merge(dir, &l, out, &err);
	ok(rc == -EINVAL && strstr(err.msg, "/rank-0/points.csv:1: not today's roofline-run "
				   "points.csv (an earlier rooftraj's columns"),
	   "a trainer's header of an earlier rooftraj: refused (%s)", err.msg);

	fclose(out);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		return 1;
	return done_testing();
}
