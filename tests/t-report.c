/* t-report.c: point arithmetic (intensity, GFLOP/s, images/s), the roofline bound of a point
 * against hand-computed values, points.csv round trip with quoting, and the summary */
#include "config.h"
#include "node/profile.h"
#include "results/summary.h"
#include "tap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct rt_point pt(const char *config, unsigned threads, double seconds, double flops,
			  double bytes)
{
	struct rt_point p;

	memset(&p, 0, sizeof(p));
	snprintf(p.config, sizeof(p.config), "%s", config);
	p.threads = threads;
	p.batch = 64;
	p.affinity = RT_AFFINITY_NONE;
	p.precision = RT_PRECISION_FP32;
	p.ranks = 1;
	p.scope = RT_SCOPE_ITERATION;
	snprintf(p.name, sizeof(p.name), "iteration");
	p.stat = RT_STAT_MEDIAN;
	p.source = RT_SOURCE_MODEL;
	p.status = RT_STATUS_OK;
	p.seconds = seconds;
	p.flops = flops;
	p.bytes = bytes;
	rt_point_derive(&p);
	return p;
}

/* A point's bound on a profile's roofs (a roof book built for the call). */
static int bound_of(const struct rt_point *p, const struct rt_profile *prof, struct rt_bound *b)
{
	struct rt_roofbook *book = NULL;
	int rc = rt_roofbook_create(&book, prof, NULL);

	if (!rc)
		rc = rt_point_bound(p, book, b);
	rt_roofbook_destroy(book);
	return rc;
}

/* A command's two rows written to csv (a header first) and read back into pf: whether it read. */
/* summary.txt of the trainer's points, in dir, by the one writer */
static int summarize(const char *dir, const struct rt_point *pts, size_t n, const char *def,
		     const struct rt_profile *prof, struct rt_err *err)
{
	struct rt_summary_points sp = { pts, n, def, prof };

	return rt_summary_write(dir, rt_summary_points, &sp, NULL, NULL, err);
}

static bool cmd_rows_load(const char *csv, const struct rt_point *a, const struct rt_point *b,
			  struct rt_points_file *pf, struct rt_err *err)
{
	FILE *fp = fopen(csv, "w");
	bool read;

	if (!fp)
		return false;
	rt_points_csv_header(fp);
	rt_points_csv_row(fp, a);
	rt_points_csv_row(fp, b);
	fclose(fp);
	if (!(fp = fopen(csv, "r")))
		return false;
	read = !rt_points_csv_load(fp, csv, false, pf, err);
	fclose(fp);
	return read;
}

int main(void)
{
	struct rt_profile *prof = NULL;
	struct rt_err err;
	struct rt_bound b;
	struct rt_point p;
	char dir[64], path[128];

	/* 4e9 FLOPs and 2e9 bytes in 0.1 s, batch 64 */
	p = pt("t2", 2, 0.1, 4e9, 2e9);
	is_double(p.intensity, 2.0, 0, "intensity 4e9 / 2e9 = 2 FLOP/byte");
	is_double(p.gflops, 40.0, 1e-15, "4e9 FLOPs in 0.1 s = 40 GFLOP/s");
	is_double(p.images_per_s, 640.0, 1e-15, "64 images in 0.1 s = 640 images/s");
	{
		struct rt_point q = p;

		q.scope = RT_SCOPE_PHASE;
		rt_point_derive(&q);
		is_double(q.images_per_s, 0, 0, "images/s only for the whole iteration");
		q.bytes = 0;
		q.seconds = 0;
		rt_point_derive(&q);
		ok(q.intensity == 0 && q.gflops == 0, "no division by zero");
	}

	/* a profile: fp32 peaks 100 (1 thread) and 180 (2), DRAM 20 and 30 GB/s */
	rt_profile_create(&prof, &err);
	{
		struct rt_profile_flops f1 = { .precision = "fp32", .isa = "avx512", .threads = 1,
						 .gflops = 100, .method = "fma-chains" };
		/* measured in rounds: 180, 150, 176 (the roof stays the best, 180) */
		struct rt_profile_flops f2 = { .precision = "fp32", .isa = "avx512", .threads = 2,
						 .gflops = 180, .method = "fma-chains",
						 .rounds = { 180, 150, 176 }, .nrounds = 3 };
		struct rt_profile_flops f3 = { .precision = "fp32", .isa = "avx2", .threads = 2,
						 .gflops = 90, .method = "fma-chains" };
		struct rt_profile_flops f4 = { .precision = "fp64", .isa = "avx512", .threads = 2,
						 .gflops = 95, .method = "fma-chains" };
		struct rt_profile_bw d1 = { .level = "DRAM", .kernel = "triad", .isa = "avx512",
					     .threads = 1, .gbytes_per_s = 20, .working_set = 1 << 28 };
		struct rt_profile_bw d2 = { .level = "DRAM", .kernel = "copy_nt", .isa = "avx512",
					     .threads = 2, .gbytes_per_s = 30, .working_set = 1 << 28,
					     .rounds = { 30, 22 }, .nrounds = 2 };
		struct rt_profile_bw d3 = { .level = "DRAM", .kernel = "load", .isa = "avx512",
					     .threads = 2, .gbytes_per_s = 28, .working_set = 1 << 28 };
		struct rt_profile_bw l1 = { .level = "L1", .kernel = "load", .isa = "avx512",
					     .threads = 2, .gbytes_per_s = 400, .working_set = 1 << 14 };

		rt_profile_add_flops(prof, &f1);
		rt_profile_add_flops(prof, &f2);
		rt_profile_add_flops(prof, &f3);
		rt_profile_add_flops(prof, &f4);
		rt_profile_add_bw(prof, &d1);
		rt_profile_add_bw(prof, &d2);
		rt_profile_add_bw(prof, &d3);
		rt_profile_add_bw(prof, &l1);
	}
	/* the roofs carry their ceilings' spread over the rounds: the lowest round, drawn under
	 * the roof; none where a ceiling has no rounds */
	{
		struct rt_roofs r;
		double fp32 = -1, fp64 = -1, dram = -1;

		is_int(rt_roofs_at(&r, prof, 2, NULL), 0, "roofs at 2 threads");
		for (size_t i = 0; i < r.n; i++) {
			const struct rt_roof *q = &r.roof[i];

			if (q->kind == RT_ROOF_FLOPS && q->basis == RT_ROOF_MEASURED &&
			    !strcmp(q->what, "avx512"))
				*(strcmp(q->precision, "fp32") ? &fp64 : &fp32) = q->low;
			if (q->kind == RT_ROOF_BANDWIDTH && !strcmp(q->level, "DRAM"))
				dram = q->low;
		}
		is_double(fp32, 150, 0, "fp32 avx512's roof: its lowest round 150 under 180");
		is_double(dram, 22, 0, "DRAM's roof (copy_nt, 30): its lowest round 22");
		is_double(fp64, 0, 0, "fp64 measured once: no spread");
	}
	/* intensity 2 at 2 threads: 30 GB/s x 2 = 60 < 180: memory bound, 40 / 60 */
	is_int(bound_of(&p, prof, &b), 0, "bound found");
	ok(b.memory_bound, "intensity 2 is left of the ridge (180 / 30 = 6)");
	is_double(b.attainable, 60, 1e-15, "attainable 30 GB/s x 2 = 60 GFLOP/s");
	is_double(b.fraction, 40.0 / 60.0, 1e-12, "at 66.7%% of its bound");
	is_str(b.ceiling, "DRAM copy_nt 30.0 GB/s", "the best DRAM kernel names the roof");
	/* intensity 10 at 2 threads: 300 > 180: compute bound */
	p = pt("t2", 2, 0.1, 1.5e10, 1.5e9);
	bound_of(&p, prof, &b);
	ok(!b.memory_bound && b.attainable == 180, "intensity 10: bound by the fp32 peak 180");
	is_str(b.ceiling, "fp32 avx512 180.0 GFLOP/s", "the best fp32 ceiling, not fp64's");
	is_double(b.fraction, 150.0 / 180.0, 1e-12, "150 GFLOP/s is 83.3%% of it");
	/* 1 thread uses the 1-thread ceilings; 4 threads (not measured) the 2-thread ones times
	 * 4 / 2, an upper bound (no thread count does more per thread than fewer did), said */
	p = pt("t1", 1, 0.1, 4e9, 2e9);
	bound_of(&p, prof, &b);
	is_double(b.attainable, 40, 1e-15, "1 thread: 20 GB/s x 2 = 40");
	p = pt("t4", 4, 0.1, 4e9, 2e9);
	bound_of(&p, prof, &b);
	is_double(b.attainable, 120, 1e-15, "4 threads: the nearest measured count below (2), its "
		  "60 times 4 / 2 = 120 (%s)", b.ceiling);
	ok(strstr(b.ceiling, " (2-thread x 2)") != NULL, "... the ceiling says it is the 2-thread "
	   "one scaled (%s)", b.ceiling);
	/* the level that holds a point's bytes bounds it: caches of 48 KiB and 2 MiB per core, a
	 * 32 MiB L3 for both cores that the curve found ending at 16 MiB */
	{
		struct rt_profile_cache c1 = { 1, 48 << 10, 64, 1, 2, "" }, c2 = { 2, 2 << 20, 64, 1, 2, "" },
					c3 = { 3, 32 << 20, 64, 2, 1, "" };
		struct rt_profile_level l3 = { "L3", 32 << 20, 16 << 20, false, 0, "" };
		struct rt_profile_bw b2 = { .level = "L2", .kernel = "load", .isa = "avx512",
					     .threads = 2, .gbytes_per_s = 200, .working_set = 1 << 20 };
		struct rt_profile_bw b3 = { .level = "L3", .kernel = "copy", .isa = "avx512",
					     .threads = 2, .gbytes_per_s = 100, .working_set = 8 << 20 };
		struct rt_point q = pt("t2", 2, 0.001, 1e5, 1 << 20);   /* 1 MiB, 0.095 FLOP/byte */

		rt_profile_add_cache(prof, &c1);
		rt_profile_add_cache(prof, &c2);
		rt_profile_add_cache(prof, &c3);
		rt_profile_add_level(prof, &l3);
		rt_profile_add_bw(prof, &b2);
		rt_profile_add_bw(prof, &b3);
		is_str(rt_profile_holding_level(prof, 64 << 10, 2), "L1",
		       "64 KiB at 2 threads: two 48 KiB L1s hold it");
		is_str(rt_profile_holding_level(prof, 64 << 10, 1), "L2", "at 1 thread: one L1 does not");
		is_str(rt_profile_holding_level(prof, 10 << 20, 2), "L3", "10 MiB: the L3's measured 16");
		is_str(rt_profile_holding_level(prof, 20 << 20, 2), "DRAM",
		       "20 MiB: DRAM (hwloc's 32 MiB L3 ends at 16 by the curve)");
		{
			char said[256];

			ok(!rt_profile_levels_said(prof, said, sizeof(said)) && !said[0],
			   "every level hwloc's: nothing more said of them");
			/* the same levels named by CPUID (a VM whose sysfs has none) */
			for (size_t i = 0; i < prof->ncaches; i++)
				snprintf(prof->caches[i].source, sizeof(prof->caches[i].source), "cpuid");
			ok(rt_profile_levels_said(prof, said, sizeof(said)), "named by CPUID: said");
			is_str(said, "L1 48 KiB (cpuid), L2 2048 KiB (cpuid), L3 16384 KiB (measured; "
			       "cpuid's 32768 KiB)", "... each capacity the held-in column uses, and "
			       "who named it");
			for (size_t i = 0; i < prof->ncaches; i++)
				prof->caches[i].source[0] = '\0';
		}
		is_int(bound_of(&q, prof, &b), 0, "a 1 MiB layer's bound");
		is_str(b.level, "L2", "held in L2 (2 x 2 MiB)");
		is_str(b.ceiling, "L2 load 200.0 GB/s", "bounded by L2's bandwidth, not DRAM's");
		is_double(b.attainable, 200.0 * 1e5 / (1 << 20), 1e-12, "200 GB/s x its intensity");
		p = pt("t2", 2, 0.1, 4e9, 2e9);
		bound_of(&p, prof, &b);
		is_str(b.level, "DRAM", "2 GB per iteration: DRAM");
	}
	p.precision = RT_PRECISION_BF16;
	ok(bound_of(&p, prof, &b) == 0 && b.memory_bound &&
	   !strcmp(b.ceiling, "DRAM copy_nt 30.0 GB/s (no bf16 peak)"),
	   "no bf16 ceiling: its memory roof alone bounds it, said (%s)", b.ceiling);

	/* points.csv round trip, quoting a reason with commas and quotes */
	snprintf(dir, sizeof(dir), "/tmp/rt-t-report-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/points.csv", dir);
	{
		FILE *fp = fopen(path, "w");
		struct rt_point a = pt("t2-b64-none", 2, 0.123456789, 15397440508.0, 361340224),
				f = pt("t1-b64-none", 1, 0, 0, 0), *back = NULL;
		size_t n = 0;

		f.status = RT_STATUS_FAILED;
		f.source = RT_SOURCE_NONE;
		snprintf(f.reason, sizeof(f.reason), "exit 1: layer 'conv1', \"out\" of memory");
		a.weights = 5695016;
		a.peak_rss = 180772864;
		snprintf(a.impl, sizeof(a.impl), "brgconv:avx512_core_amx_bf16");
		rt_points_csv_header(fp);
		rt_points_csv_row(fp, &a);
		rt_points_csv_row(fp, &f);
		fclose(fp);
		is_int(rt_points_csv_read(path, &back, &n, &err), 0, "points.csv reads back");
		is_int((long long)n, 2, "two points");
		if (n == 2) {
			is_str(back[0].config, "t2-b64-none", "config");
			is_double(back[0].seconds, 0.123456789, 0, "seconds, 9 digits");
			is_double(back[0].flops, 15397440508.0, 0, "flops exact");
			is_double(back[0].intensity, a.intensity, 1e-6, "intensity");
			is_double(back[0].weights, 5695016, 0, "memory split");
			is_str(back[1].reason, f.reason, "a reason with commas and quotes survives");
			is_str(rt_point_status_name(&back[1]), "failed", "status");
			is_str(rt_point_source_name(&back[1]), "", "a failed row has no source");
			is_str(rt_point_source_name(&back[0]), "model", "source");
			is_str(rt_point_affinity_name(&back[0]), "none", "affinity");
			is_str(rt_point_precision_name(&back[0]), "fp32", "precision");
			is_str(back[0].impl, "brgconv:avx512_core_amx_bf16", "oneDNN's implementation");
		}
		free(back);
		/* a points.csv from before the impl column still reads */
		{
			char old[200];
			FILE *of;

			snprintf(old, sizeof(old), "%s/old.csv", dir);
			of = fopen(old, "w");
			fputs("config,threads,batch,affinity,precision,ranks,scope,name,stat,seconds,"
			      "flops,bytes,source,intensity,gflops,images_per_s,weights,activations,"
			      "gradients,optimizer,workspace,peak_rss,status,reason\n"
			      "t1-b8-none,1,8,none,fp32,1,iteration,iteration,median,0.5,1e9,1e8,"
			      "model,10,2,16,1,2,3,4,5,6,ok,\n", of);
			fclose(of);
			ok(rt_points_csv_read(old, &back, &n, &err) == 0 && n == 1 &&
			   back[0].images_per_s == 16 && !back[0].impl[0],
			   "a 24-column points.csv (rooftraj 0.1) still reads");
			free(back);
			back = NULL;
			unlink(old);
		}
		/* the bytes' source beside the FLOPs': a hw point whose bytes are the model's says
		 * so in the file and in the summary; a file without the column reads the FLOPs'
		 * source for both; a bytes_source in a row without a source is refused */
		{
			char csv[200], sum[200], text[4096] = "";
			struct rt_point h = pt("t2-b64-none", 2, 0.1, 4e9, 2e9);
			FILE *of;

			snprintf(csv, sizeof(csv), "%s/hw.csv", dir);
			snprintf(sum, sizeof(sum), "%s/summary.txt", dir);
			h.source = RT_SOURCE_HW;
			h.bytes_source = RT_SOURCE_MODEL;
			of = fopen(csv, "w");
			rt_points_csv_header(of);
			rt_points_csv_row(of, &h);
			fclose(of);
			ok(rt_points_csv_read(csv, &back, &n, &err) == 0 && n == 1 &&
			   back[0].source == RT_SOURCE_HW && back[0].bytes_source == RT_SOURCE_MODEL,
			   "hw FLOPs with the model's bytes: both sources read back");
			free(back);
			back = NULL;
			is_int(summarize(dir, &h, 1, "t2-b64-none", prof, &err), 0,
			       "... summarized");
			slurp(sum, text, sizeof(text));
			like(text, "hw, bytes model", "... the summary names both");
			of = fopen(csv, "w");
			fputs("config,threads,batch,affinity,precision,ranks,scope,name,stat,seconds,"
			      "flops,bytes,source,intensity,gflops,images_per_s,weights,activations,"
			      "gradients,optimizer,workspace,peak_rss,status,reason,impl,input_h,input_w,"
			      "weight_gradients,activation_gradients,inference,processes,cpu_share\n"
			      "t1-b8-none,1,8,none,fp32,1,iteration,iteration,median,0.5,1e9,1e8,"
			      "hw,10,2,16,1,2,3,4,5,6,ok,,,0,0,,,,1,1\n", of);
			fclose(of);
			ok(rt_points_csv_read(csv, &back, &n, &err) == 0 && n == 1 &&
			   back[0].bytes_source == RT_SOURCE_HW,
			   "a 32-column points.csv (rooftraj 0.4): the bytes' source is the FLOPs' (%s)",
			   err.msg);
			free(back);
			back = NULL;
			of = fopen(csv, "w");
			rt_points_csv_header(of);
			fputs("t1-b8-none,1,8,none,fp32,1,iteration,iteration,median,0,0,0,,0,0,0,0,0,0,"
			      "0,0,0,failed,boom,,0,0,,,,,,hw,,,,,,,,,,,,,\n", of);
			fclose(of);
			ok(rt_points_csv_read(csv, &back, &n, &err) == -EINVAL &&
			   strstr(err.msg, "hw.csv:2: bytes_source 'hw' is set in a row without a source"),
			   "a bytes_source without a source: refused, named: %s", err.msg);
			free(back);
			back = NULL;
			/* a precision of the vocabulary the trainer does not compute in */
			of = fopen(csv, "w");
			rt_points_csv_header(of);
			fputs("t1-b8-none,1,8,none,fp64,1,iteration,iteration,median,0.5,1e9,1e8,model,"
			      "10,2,16,1,2,3,4,5,6,ok,,,0,0,,,,1,1,,,,,,,,,,,,,,\n", of);
			fclose(of);
			ok(rt_points_csv_read(csv, &back, &n, &err) == -EINVAL &&
			   strstr(err.msg, "hw.csv:2: precision 'fp64' is not a known value"),
			   "a point in fp64, which no training computes in: refused, named: %s",
			   err.msg);
			free(back);
			back = NULL;
			/* one schema for both tools: a command's rows are not a sweep's points
			 * (skipped, counted); a file of both tools' rows, or a trainer's row with
			 * a command's column set, is refused at its line */
			{
				const char *v[RT_COL_COUNT] = { NULL };
				struct rt_points_file pf;
				FILE *rf;

				v[RT_COL_CONFIG] = "default", v[RT_COL_REP] = "1";
				v[RT_COL_SCOPE] = "run", v[RT_COL_NAME] = "command";
				v[RT_COL_STATUS] = "ok", v[RT_COL_WALL_SECONDS] = "0.5";
				of = fopen(csv, "w");
				rt_points_csv_header(of);
				rt_points_csv_put(of, v);
				v[RT_COL_SCOPE] = "primitive";
				rt_points_csv_put(of, v);
				fclose(of);
				rf = fopen(csv, "r");
				ok(rf && rt_points_csv_load(rf, csv, false, &pf, &err) == 0 &&
				   pf.n == 1 && pf.command_rows == 2 && pf.columns == 46,
				   "roofline-run's rows read by the one reader: 2 counted, the run kept "
				   "(%s)", err.msg);
				if (rf)
					fclose(rf);
				rt_points_file_free(&pf);
				of = fopen(csv, "a");
				rt_points_csv_row(of, &h);
				fclose(of);
				ok(rt_points_csv_read(csv, &back, &n, &err) == -EINVAL &&
				   strstr(err.msg, "hw.csv:4: a row of roofline-train's, line 2's "
					  "scope is roofline-run's"),
				   "a trainer's row after a command's: refused at its line (%s)",
				   err.msg);
				free(back);
				back = NULL;
				of = fopen(csv, "w");
				rt_points_csv_header(of);
				rt_points_csv_row(of, &h);
				fputs("t1-b8-none,1,8,none,fp32,1,iteration,iteration,median,0.5,1e9,"
				      "1e8,model,10,2,16,1,2,3,4,5,6,ok,,,0,0,,,,1,1,model,,,,,,,,,,,,,0.5\n",
				      of);
				fclose(of);
				ok(rt_points_csv_read(csv, &back, &n, &err) == -EINVAL &&
				   strstr(err.msg, "hw.csv:3: window_seconds '0.5' is set in a row of "
					  "roofline-train's"),
				   "a command's column set in a trainer's row: refused, named (%s)",
				   err.msg);
				free(back);
				back = NULL;
			}
			/* a command's rows as its writer writes them, read back by the one reader:
			 * every field of a run row kept, each row checked */
			{
				struct rt_point w = { .config = "threads=2", .scope = RT_SCOPE_RUN,
						      .name = "command", .status = RT_STATUS_OK,
						      .log = "onednn/threads=2.1.log", .rep = 2,
						      .threads = 2, .rank = -1, .calls = 40,
						      .source = RT_SOURCE_ONEDNN_LOG, .seconds = 1.5,
						      .share = 1, .flops = 3e9, .bytes = 1e9,
						      .wall = 1.5, .onednn = 0.75, .coverage = 0.5,
						      .images_per_s = 120, .startup = 0.25,
						      .window = 1.0 }, pr = w;
				struct rt_points_file pf;
				/* a run row that reads, and one change to it each */
				static const struct {
					enum rt_points_col col[3];
					const char *val[3], *why;
				} bad[] = {
					{ { RT_COL_STARTUP_SECONDS, RT_COL_WINDOW_SECONDS },
					  { "0.5", "0.6" }, "window_seconds '0.6' is not within the "
					  "run's wall_seconds after its startup_seconds" },
					{ { RT_COL_LOG }, { "../x" }, "log '../x' is not a file of "
					  "onednn/" },
					{ { RT_COL_BATCH }, { "8" }, "batch '8' is set in a row of "
					  "roofline-run's" },
					{ { RT_COL_NAME }, { "comand" }, "name 'comand' is not a run's" },
					{ { RT_COL_WALL_SECONDS }, { "" }, "wall_seconds '' is not set "
					  "in a run that ran" },
					{ { RT_COL_SCOPE, RT_COL_FLOPS, RT_COL_GFLOPS },
					  { "kind", "2e9", "3" }, "gflops '3' is not what the row's "
					  "other columns give (2)" },
					{ { RT_COL_STATUS }, { "fused" }, "status 'fused' is not a "
					  "command's" },
					{ { RT_COL_REP }, { "65" }, "rep '65' is not in 1..64" },
				};

				pr.scope = RT_SCOPE_PRIMITIVE;
				pr.long_name = "convolution forward_training f32 mb2_ic3oc8";
				snprintf(pr.kind, sizeof(pr.kind), "convolution");
				snprintf(pr.impl, sizeof(pr.impl), "brgconv:avx512_core");
				pr.precision = RT_PRECISION_FP32;
				ok(cmd_rows_load(csv, &w, &pr, &pf, &err) && pf.command_rows == 2 &&
				   pf.n == 1,
				   "a command's run and primitive rows read: 2 rows, the run kept (%s)",
				   err.msg);
				if (pf.n == 1) {
					const struct rt_point *r = &pf.pts[0];

					ok(!strcmp(r->config, w.config) && r->rep == 2 &&
					   r->threads == 2 && r->rank == -1 && r->calls == 40 &&
					   r->status == RT_STATUS_OK &&
					   r->source == RT_SOURCE_ONEDNN_LOG &&
					   r->wall == 1.5 && r->onednn == 0.75 &&
					   r->images_per_s == 120 && r->startup == 0.25 &&
					   r->window == 1.0 && r->flops == 3e9 &&
					   !strcmp(r->log, w.log) && r->line == 2,
					   "... every field as written, its line 2");
				}
				rt_points_file_free(&pf);
				/* a primitive's name past the writer's limit (a concat of thousands
				 * of inputs), of quotes that the CSV doubles past the reader's line
				 * limit: cut, "..." ending it, so that its row stays one the reader
				 * takes */
				{
					char *big = malloc(40001), *back_text = malloc(65536);
					size_t quotes = 0;

					memset(big, '"', 40000);
					big[40000] = '\0';
					pr.long_name = big;
					ok(cmd_rows_load(csv, &w, &pr, &pf, &err) &&
					   pf.command_rows == 2, "a primitive's name of 40,000 "
					   "quotes: its row read back (%s)", err.msg);
					rt_points_file_free(&pf);
					slurp(csv, back_text, 65536);
					for (const char *q = back_text; *q; q++)
						quotes += *q == '"';
					ok(strstr(back_text, "\"\"...\"") &&
					   quotes == 2 * (RT_POINTS_CSV_NAME_MAX - 3) + 2,
					   "... written cut to %d characters, \"...\" ending it "
					   "(%zu quotes)", RT_POINTS_CSV_NAME_MAX, quotes);
					free(back_text);
					free(big);
				}
				/* a row of no command's scope under an earlier roofline-run's header
				 * (no trainer's columns): refused, not read as a point */
				of = fopen(csv, "w");
				fputs("config,rep,scope,name,kind,prop,dtype,precision,impl,calls,seconds,"
				      "share,flops,bytes,gflops,intensity,source,status,reason,"
				      "wall_seconds,onednn_seconds,coverage,threads,log,images_per_s,"
				      "rank,startup_seconds,window_seconds\n"
				      "default,1,r@un,command,,,,,,2,0.5,1,,,,,,ok,,0.5,,,1,,,,,\n", of);
				fclose(of);
				ok(rt_points_csv_read(csv, &back, &n, &err) == -EINVAL &&
				   strstr(err.msg, "hw.csv:2: scope 'r@un' is not one of roofline-run's"),
				   "an unknown scope under roofline-run's 28 columns: refused (%s)",
				   err.msg);
				free(back);
				back = NULL;
				for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
					const char *v[RT_COL_COUNT] = { NULL };
					char want[256];

					v[RT_COL_CONFIG] = "c", v[RT_COL_SCOPE] = "run";
					v[RT_COL_NAME] = "command", v[RT_COL_STATUS] = "ok";
					v[RT_COL_REP] = "1", v[RT_COL_SECONDS] = "1";
					v[RT_COL_WALL_SECONDS] = "1";
					for (int c = 0; c < 3 && bad[k].val[c]; c++)
						v[bad[k].col[c]] = bad[k].val[c];
					of = fopen(csv, "w");
					rt_points_csv_header(of);
					rt_points_csv_put(of, v);
					fclose(of);
					snprintf(want, sizeof(want), "hw.csv:2: %s", bad[k].why);
					ok(rt_points_csv_read(csv, &back, &n, &err) == -EINVAL &&
					   strstr(err.msg, want), "a command's row refused: %s (%s)",
					   bad[k].why, err.msg);
					free(back);
					back = NULL;
				}
			}
			/* an earlier header made today's in place: each field moved by its
			 * column's name, the new columns empty */
			{
				char up[2048] = "";

				of = fopen(csv, "w");
				fputs("config,rep,scope,name,kind,prop,dtype,precision,impl,calls,seconds,"
				      "share,flops,bytes,gflops,intensity,source,status,reason,"
				      "wall_seconds,onednn_seconds,coverage,threads,log,images_per_s,rank\n"
				      "default,2,run,command,,,,,,3,0.25,1,1e9,1e8,4,10,onednn-log,ok,"
				      "\"a, b\",0.25,0.125,0.5,2,onednn/c000-r2.log,64,\n", of);
				fclose(of);
				is_int(rt_points_csv_upgrade(csv, &err), 0,
				       "a 26-column file of roofline-run: upgraded (%s)", err.msg);
				slurp(csv, up, sizeof(up));
				is_str(strchr(up, '\n') + 1,
				       "default,2,,,,,run,command,,0.25,1e9,1e8,onednn-log,10,4,64,,,,,,,ok,"
				       "\"a, b\",,,,,,,,,,2,,,,3,1,0.25,0.125,0.5,onednn/c000-r2.log,,,\n",
				       "... its row in today's columns, each field by its name");
				is_int(rt_points_csv_upgrade(csv, &err), 0, "... again: nothing to do");
				slurp(csv, up, sizeof(up));
				ok(strstr(up, ",startup_seconds,window_seconds\ndefault,2,,,,,run,") &&
				   !strstr(strchr(up, '\n') + 1, "window_seconds"),
				   "... the header today's, once");
			}
			unlink(csv);
		}
		/* the summary: best, speedup over the default, bounds */
		{
			struct rt_point set[3] = {
				pt("t2-b64-none", 2, 0.1, 4e9, 2e9),     /* default, 640 images/s */
				pt("t2-b64-compact", 2, 0.08, 4e9, 2e9), /* best, 800 images/s */
				f,
			};
			char sum[160], text[4096] = "";

			snprintf(sum, sizeof(sum), "%s/summary.txt", dir);
			is_int(summarize(dir, set, 3, "t2-b64-none", prof, &err), 0,
			       "summary written");
			slurp(sum, text, sizeof(text));
			like(text, "best configuration: t2-b64-compact", "names the best");
			like(text, "speedup 1.25x", "800 / 640 = 1.25x over the default");
			like(text, "DRAM copy_nt 30.0 GB/s", "names the bounding roof");
			like(text, "83.3%", "50 GFLOP/s of 60 attainable");
			like(text, "failed: exit 1: layer 'conv1', \"out\" of memory", "the failed configuration and why");
			ok(!strstr(text, "above"), "... no configuration above its roof");
		}
		/* a configuration faster than the profile's roof (a profile of a slower moment:
		 * the VM's 2-thread FMA ceiling measured at its 1-thread rate): said, not read as a
		 * distance */
		{
			struct rt_point set[2] = {
				pt("t2-b64-none", 2, 0.1, 4e9, 2e9),     /* 40 of 60 attainable */
				pt("t2-b64-compact", 2, 0.016, 4e9, 4e6),        /* 250 of 180 */
			};
			char sum[160], text[4096] = "";

			snprintf(sum, sizeof(sum), "%s/summary.txt", dir);
			is_int(summarize(dir, set, 2, "t2-b64-none", prof, &err), 0,
			       "a summary with a configuration above its roof written");
			slurp(sum, text, sizeof(text));
			ok(strstr(text, "fp32 avx512 180.0 GFLOP/s") &&
			   strstr(text, " 138.9% above its roof\n"), "250 GFLOP/s at intensity "
			   "1000 against the fp32 roof 180: 138.9%%, above it");
			like(text, "66.7%\n", "... the default under its roof (40 of 60): no word");
			like(text, "1 configuration ran above its roof: the profile measured this "
			     "node slower than it ran here", "... said after the table, with why");
			unlink(sum);
		}
	}
	/* a corrupted file names its line */
	{
		FILE *fp = fopen(path, "a");
		struct rt_point *back = NULL;
		size_t n = 0;

		fputs("t3,oops\n", fp);
		fclose(fp);
		ok(rt_points_csv_read(path, &back, &n, &err) == -EINVAL &&
		   strstr(err.msg, ":4: 2 fields, a point has 46"),
		   "a short line is named: %s", err.msg);
	}
	/* the roof book: computed once, the same roofs rt_roofs_at builds at every count */
	{
		struct rt_roofbook *book = NULL;
		bool same = true;

		is_int(rt_roofbook_create(&book, prof, &err), 0, "a roof book of the profile");
		for (unsigned t = 0; t <= 5; t++) {
			struct rt_roofs r;
			const struct rt_roofs *q = rt_roofbook_at(book, t);
			const int rc = rt_roofs_at(&r, prof, t, NULL);

			same &= rc ? !q : q && q->threads == r.threads && q->n == r.n;
		}
		ok(same, "the book's roofs at 0..5 threads are rt_roofs_at's");
		rt_roofbook_destroy(book);
	}
	/* the roof that bounds a precision: its widest ISA's; when that one is flagged (a busy
	 * machine), the theoretical peak, never a narrower ISA's peak nor oneDNN's matmul rate */
	{
		struct rt_profile *q = NULL;
		struct rt_profile_flops sse = { .precision = "fp32", .isa = "sse", .threads = 1,
						.gflops = 44, .method = "fma-chains", .theoretical = 70 };
		struct rt_profile_flops wide = { .precision = "fp32", .isa = "avx512", .threads = 1,
						 .gflops = 200, .method = "fma-chains",
						 .theoretical = 280 };
		struct rt_profile_flops mm = { .precision = "fp32", .isa = "avx512_core", .threads = 1,
					       .gflops = 150, .method = "onednn-matmul" };
		struct rt_profile_bw dram = { .level = "DRAM", .kernel = "triad", .isa = "avx512",
					      .threads = 1, .gbytes_per_s = 20, .working_set = 1 << 28 };
		struct rt_point hi = pt("t1", 1, 0.1, 1.3e10, 1e8);    /* 130 GFLOP/s, 130 F/B */

		rt_profile_create(&q, &err);
		rt_profile_add_flops(q, &sse);
		rt_profile_add_flops(q, &wide);
		rt_profile_add_flops(q, &mm);
		rt_profile_add_bw(q, &dram);
		bound_of(&hi, q, &b);
		ok(!strcmp(b.ceiling, "fp32 avx512 200.0 GFLOP/s"), "the widest ISA's ceiling bounds "
		   "it: %s", b.ceiling);
		snprintf(q->flops[1].flag, sizeof(q->flops[1].flag), "busy: measured twice");
		bound_of(&hi, q, &b);
		ok(!strcmp(b.ceiling, "fp32 avx512 280.0 GFLOP/s") && b.fraction < 1,
		   "that one flagged: its theoretical peak, not SSE's 44 nor the matmul's 150 (%s, "
		   "%.0f%%)", b.ceiling, 100 * b.fraction);
		{
			/* the theoretical roof, made from SSE's peak first and raised to AVX-512's,
			 * says AVX-512's as its own theoretical peak too (a reader of f->theoretical
			 * held convnet to SSE's 70) */
			struct rt_roofs r;
			const struct rt_roof *c = NULL;

			if (rt_roofs_at(&r, q, 1, &err) == 0)
				c = rt_roofs_ceiling(&r, "fp32");
			ok(c && c->basis == RT_ROOF_THEORETICAL && !strcmp(c->what, "avx512") &&
			   c->value == 280 && c->theoretical == 280,
			   "... that roof's theoretical peak is its value, AVX-512's (%s %g, %g)",
			   c ? c->what : "none", c ? c->value : 0, c ? c->theoretical : 0);
		}
		q->flops[0].flag[0] = 'x';
		q->flops[1].theoretical = 0;
		q->flops[0].theoretical = 0;
		ok(bound_of(&hi, q, &b) == 0 && b.memory_bound &&
		   strstr(b.ceiling, "DRAM triad 20.0 GB/s (no fp32 peak)"),
		   "only an achievable rate: bound by its memory roof alone (%s)", b.ceiling);
		rt_profile_destroy(q);
	}
	/* a line of a gigabyte is refused without being held in memory */
	{
		FILE *fp = fopen(path, "w");
		struct rt_point *back = NULL;
		size_t n = 0;

		rt_points_csv_header(fp);
		for (int k = 0; k < 200000; k++)
			fputs("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			      "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", fp);
		fputs("\n", fp);
		fclose(fp);
		ok(rt_points_csv_read(path, &back, &n, &err) == -EINVAL &&
		   strstr(err.msg, ":2: a line longer than 65535 bytes"), "a 25 MB line: %s",
		   err.msg);
	}
	/* the one verdict both tools call: faster only when the ranges do not overlap, in either
	 * direction (seconds: lower is faster; images/s: higher), one run of either unknown */
	{
		static const struct {
			struct rt_spread a, b;
			bool higher;
			enum rt_faster want;
			double ratio;
			const char *what;
		} c[] = {
			{ { 0.80, 0.79, 0.81, 3 }, { 1.00, 0.98, 1.02, 3 }, false, RT_FASTER_YES, 1.25,
			  "seconds: a's range under b's" },
			{ { 0.99, 0.90, 1.04, 3 }, { 1.00, 0.98, 1.02, 3 }, false, RT_FASTER_NOISE,
			  1.0 / 0.99, "seconds: faster median, ranges overlap" },
			{ { 0.97, 0.96, 0.98, 3 }, { 1.00, 0.98, 1.02, 3 }, false, RT_FASTER_NOISE,
			  1.0 / 0.97, "seconds: ranges touching are overlapping" },
			{ { 0.80, 0.80, 0.80, 1 }, { 1.00, 0.98, 1.02, 3 }, false, RT_FASTER_UNKNOWN,
			  1.25, "seconds: one run of a: the spread not known" },
			{ { 0.80, 0.79, 0.81, 3 }, { 1.00, 1.00, 1.00, 1 }, false, RT_FASTER_UNKNOWN,
			  1.25, "seconds: one run of b: the spread not known" },
			{ { 1.00, 0.98, 1.02, 3 }, { 1.00, 0.98, 1.02, 3 }, false, RT_FASTER_NO, 1,
			  "seconds: equal medians are no speedup" },
			{ { 1.20, 1.20, 1.20, 1 }, { 1.00, 1.00, 1.00, 1 }, false, RT_FASTER_NO,
			  1.0 / 1.2, "seconds: slower from one run is no speedup either" },
			{ { 0.00, 0.00, 0.00, 3 }, { 1.00, 0.98, 1.02, 3 }, false, RT_FASTER_NO, 0,
			  "seconds: a zero median is no measurement" },
			{ { 800, 790, 810, 3 }, { 640, 627.5, 653.1, 3 }, true, RT_FASTER_YES, 1.25,
			  "images/s: a's range above b's" },
			{ { 660, 615, 711, 3 }, { 640, 627.5, 653.1, 3 }, true, RT_FASTER_NOISE,
			  660.0 / 640, "images/s: faster median, ranges overlap" },
			{ { 800, 790, 810, 3 }, { 640, 627.5, 653.1, 3 }, false, RT_FASTER_NO,
			  0.8, "the direction decides: 800 s is slower than 640 s" },
			{ { 700, 700, 700, 1 }, { 640, 640, 640, 1 }, true, RT_FASTER_UNKNOWN,
			  700.0 / 640, "images/s: one run each" },
			{ { 600, 590, 610, 3 }, { 640, 627.5, 653.1, 3 }, true, RT_FASTER_NO,
			  600.0 / 640, "images/s: slower" },
		};

		for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
			double x = -1;
			enum rt_faster f = rt_points_faster(&c[i].a, &c[i].b, c[i].higher, &x);

			is_int(f, c[i].want, "faster: %s", c[i].what);
			is_double(x, c[i].ratio, 1e-12, "... ratio %.4f", c[i].ratio);
		}
		ok(rt_points_faster(&c[0].a, &c[0].b, false, NULL) == RT_FASTER_YES,
		   "faster: the ratio is optional");
	}
	/* the verdict: a speedup only outside the runs' ranges; disturbed rows never compared */
	{
		struct rt_point v[12];
		struct rt_verdict vd;
		char text[1024];
		const double sec[4][3] = {
			/* median, min, max seconds of a 64-image batch */
			{ 0.100, 0.098, 0.102 },        /* default: 627.5..653.1 images/s */
			{ 0.080, 0.079, 0.081 },        /* 790..810: measurably faster */
			{ 0.099, 0.090, 0.104 },        /* 615..711: inside the default's range */
			{ 0.050, 0.050, 0.050 },        /* the fastest, but disturbed */
		};
		const char *names[4] = { "t2-b64-none", "t1-b64-none", "t2-b64-compact",
					 "t2-b64-scatter" };

		for (int c = 0; c < 4; c++)
			for (int k = 0; k < 3; k++) {
				struct rt_point *q = &v[3 * c + k];

				*q = pt(names[c], 2, sec[c][k], 4e9, 2e9);
				q->stat = (enum rt_stat)k;
				q->processes = 3;
				q->status = c == 3 ? RT_STATUS_DISTURBED : RT_STATUS_OK;
			}
		rt_points_verdict(v, 12, "t2-b64-none", &vd);
		rt_points_verdict_text(&vd, text, sizeof(text));
		ok(vd.kind == RT_VERDICT_FASTER && !strcmp(vd.best->config, "t1-b64-none") &&
		   vd.disturbed == 1, "outside the ranges: a finding (%s)", text);
		ok(strstr(text, "speedup 1.25x, outside both ranges") &&
		   strstr(text, "over 3 fresh processes"), "... said with the ranges");
		/* without t1: the best is inside the default's range */
		memmove(v + 3, v + 6, 6 * sizeof(v[0]));
		rt_points_verdict(v, 9, "t2-b64-none", &vd);
		rt_points_verdict_text(&vd, text, sizeof(text));
		ok(vd.kind == RT_VERDICT_NOISE && !strstr(text, "speedup"),
		   "inside the noise: no speedup claimed (%s)", text);
		ok(strstr(text, "no configuration is measurably faster than the default") != NULL,
		   "... the summary says so");
		/* one run each: no spread to tell it from the noise */
		for (int k = 0; k < 6; k++) {
			v[k].seconds = v[k - k % 3].seconds;
			rt_point_derive(&v[k]);
		}
		v[3].seconds = v[4].seconds = v[5].seconds = 0.08;
		for (int k = 3; k < 6; k++)
			rt_point_derive(&v[k]);
		rt_points_verdict(v, 6, "t2-b64-none", &vd);
		rt_points_verdict_text(&vd, text, sizeof(text));
		ok(vd.kind == RT_VERDICT_ONE_RUN && strstr(text, "spread is not known"),
		   "one run each: said (%s)", text);
		/* only the disturbed one faster: the default is the best measured */
		v[3].status = v[4].status = v[5].status = RT_STATUS_DISTURBED;
		rt_points_verdict(v, 6, "t2-b64-none", &vd);
		ok(vd.kind == RT_VERDICT_DEFAULT_BEST, "a disturbed configuration is never the best");
		rt_points_verdict_text(&vd, text, sizeof(text));
		ok(!vd.alone && strstr(text, "the default configuration, t2-b64-none, is the "
					    "fastest measured") == text, "... said so (%s)", text);
		/* the default's rows alone (-o DIR without --sweep): nothing compared */
		rt_points_verdict(v, 3, "t2-b64-none", &vd);
		rt_points_verdict_text(&vd, text, sizeof(text));
		ok(vd.kind == RT_VERDICT_DEFAULT_BEST && vd.alone &&
		   !strncmp(text, "one configuration, t2-b64-none: ", 32) && !strstr(text, "best"),
		   "one configuration alone: no 'best' said (%s)", text);
		v[0].status = v[1].status = v[2].status = RT_STATUS_DISTURBED;
		rt_points_verdict(v, 6, "t2-b64-none", &vd);
		ok(vd.kind == RT_VERDICT_NONE, "nothing undisturbed: no verdict");
		/* an input sweep whose default (28x28) was disturbed: a faster 8x8 image is not the
		 * best, the default's input is its configuration's */
		{
			struct rt_point w[2] = { pt("t2-b64-none", 2, 0.10, 4e9, 2e9),
						 pt("t2-b64-none-i8", 2, 0.01, 4e8, 2e8) };

			w[0].input_h = w[0].input_w = 28;
			w[1].input_h = w[1].input_w = 8;
			w[0].status = RT_STATUS_DISTURBED;
			ok(rt_points_best(w, 2, "t2-b64-none") == NULL, "a disturbed default of 28x28: "
			   "an 8x8 configuration is not the best");
			w[0].status = RT_STATUS_OK;
			ok(rt_points_best(w, 2, "t2-b64-none") == &w[0], "... the default is, measured");
		}
	}
	/* a configuration's rows end with its iteration median: a cut one is told apart */
	{
		struct rt_point v[4];

		v[0] = pt("a", 1, 0.1, 1, 1);
		v[1] = v[0];
		v[1].scope = RT_SCOPE_PHASE;
		snprintf(v[1].name, sizeof(v[1].name), "forward");
		v[2] = v[0];
		v[2].stat = RT_STAT_MAX;
		v[3] = v[1];
		v[3].stat = RT_STAT_MIN;
		rt_points_order_block(v, 4);
		ok(v[3].scope == RT_SCOPE_ITERATION && v[3].stat == RT_STAT_MEDIAN &&
		   v[0].scope == RT_SCOPE_PHASE && v[1].stat == RT_STAT_MAX,
		   "the iteration median last, the others in their order");
		ok(rt_points_config_complete(v, 4, "a"), "complete rows");
		ok(!rt_points_config_complete(v, 3, "a"), "rows cut at a line boundary: incomplete");
		ok(!rt_points_config_complete(v, 4, "b"), "no rows: not complete");
	}
	/* the index finds what a scan finds */
	{
		struct rt_point v[6];
		struct rt_points_index ix;

		for (int k = 0; k < 6; k++) {
			v[k] = pt(k % 2 ? "b" : "a", 1, 0.1 + k, 1, 1);
			v[k].stat = (enum rt_stat)(k / 2);
		}
		v[4].status = RT_STATUS_FAILED;
		is_int(rt_points_index_build(&ix, v, 6, &err), 0, "index built");
		ok(rt_points_index_find(&ix, "b", RT_SCOPE_ITERATION, "iteration", RT_STAT_MIN,
					RT_STATUS_OK) == &v[3], "found by its identity");
		ok(!rt_points_index_find(&ix, "a", RT_SCOPE_ITERATION, "iteration", RT_STAT_MAX,
					 RT_STATUS_OK) &&
		   rt_points_index_find(&ix, "a", RT_SCOPE_ITERATION, "iteration", RT_STAT_MAX,
					RT_STATUS_COUNT) == &v[4], "and by its status");
		ok(rt_points_stat_of(&ix, v, 6, &v[1], RT_STAT_MAX) == &v[5] &&
		   rt_points_stat_of(NULL, v, 6, &v[1], RT_STAT_MAX) == &v[5],
		   "a headline's max row, indexed or scanned");
		rt_points_index_free(&ix);
	}
	{
		/* the sweep's thread scaling: the Emerald Rapids node's threads sweep (its own
		 * points.csv, batch 64): 1 thread 75.0 GFLOP/s; 2 148.7 (148.7 / 75.0 / 2 = 99%),
		 * 4 262.6 (88%), 8 383.4 (64%), 16 373.7 (31%): below 3/4 of linear at 16 threads,
		 * 4 images a thread, the batch not swept */
		const char *top = getenv("top_srcdir");
		char csv[4096], *text = NULL;
		size_t len = 0, np = 0;
		struct rt_point *pts = NULL;
		FILE *fp;

		snprintf(csv, sizeof(csv), "%s/tests/data/emr16/train-sweep-threads-points.csv",
			 top ? top : ".");
		is_int(rt_points_csv_read(csv, &pts, &np, &err), 0, "the 16-core node's points read");
		fp = open_memstream(&text, &len);
		rt_summary_scaling(fp, pts, np);
		fclose(fp);
		ok(text && strstr(text, "threads at batch 64 (fp32, none): from 1 thread, 75.0 GFLOP/s "
				  "(64 images a thread): 2 threads 99% of linear (32), 4 threads 88% "
				  "of linear (16), 8 threads 64% of linear (8), 16 threads 31% of "
				  "linear (4)\n"), "16 cores: each count's share of linear scaling and its "
		   "images a thread (%s)", text ? text : "");
		ok(text && strstr(text, "at 16 threads each thread had 4 images of the batch of 64 "
				  "and the threads ran at 31% of linear: whether a larger batch fills "
				  "them, --sweep threads=16 --sweep batch=64,128,256 measures (the "
				  "sweep did not vary the batch there)\n"), "... below 3/4 of linear, "
		   "the batch not swept: the sweep that would tell");
		free(text);
		free(pts);
	}
	{
		/* a batch swept at the most threads: 1 thread 10 GFLOP/s (batch 64), 4 threads 20
		 * (50% of linear), 4 threads at batch 256 30; three runs each (median, min, max
		 * rows), ranges apart: faster, said; ranges overlapping: not measurably */
		struct rt_point v[9];
		char *text = NULL;
		size_t len = 0;
		FILE *fp;
		const char *cfg[3] = { "t1-b64", "t4-b64", "t4-b256" };
		const unsigned thr[3] = { 1, 4, 4 };
		const long bat[3] = { 64, 64, 256 };
		/* seconds of 1e9 FLOPs: median, min, max */
		const double sec[3][3] = { { 0.1, 0.099, 0.101 }, { 0.05, 0.049, 0.051 },
					   { 1 / 30.0, 0.033, 0.034 } };

		for (int c = 0; c < 3; c++)
			for (int k = 0; k < 3; k++) {
				struct rt_point *q = &v[3 * c + k];

				*q = pt(cfg[c], thr[c], sec[c][k], 1e9, 1e8);
				q->batch = bat[c];
				q->stat = (enum rt_stat)k;
				q->processes = 3;
			}
		fp = open_memstream(&text, &len);
		rt_summary_scaling(fp, v, 9);
		fclose(fp);
		ok(text && strstr(text, "from 1 thread, 10.0 GFLOP/s (64 images a thread): 4 threads "
				  "50% of linear (16)\n") &&
		   strstr(text, "at 4 threads batch 256 (64 images a thread) ran 1.50x the GFLOP/s "
			  "of batch 64 (16), outside both ranges: more images a thread fill the "
			  "threads better\n"), "a larger batch at the most threads faster outside "
		   "both ranges: said (%s)", text ? text : "");
		free(text);
		text = NULL;
		/* batch 256: 22.2 GFLOP/s (0.045 s), its runs 20.0..22.7: batch 64's 19.6..20.4 */
		v[6].seconds = 0.045;
		v[7].seconds = 0.044;
		v[8].seconds = 0.05;
		for (int k = 6; k < 9; k++)
			rt_point_derive(&v[k]);
		fp = open_memstream(&text, &len);
		rt_summary_scaling(fp, v, 9);
		fclose(fp);
		ok(text && strstr(text, "at 4 threads batch 256 (64 images a thread) was not "
				  "measurably faster than batch 64 (16; the ranges overlap): more "
				  "images a thread did not fill the threads better\n"),
		   "... the ranges overlapping: not measurably faster (%s)", text ? text : "");
		free(text);
		text = NULL;
		/* one run of each: its min and max rows its median's */
		for (int k = 0; k < 9; k++) {
			v[k].processes = 1;
			v[k].seconds = v[k - k % 3].seconds;
			rt_point_derive(&v[k]);
		}
		fp = open_memstream(&text, &len);
		rt_summary_scaling(fp, v, 9);
		fclose(fp);
		ok(text && strstr(text, "at 4 threads batch 256 (64 images a thread) ran 1.11x the "
				  "GFLOP/s of batch 64 (16) from one run of each: the spread is not "
				  "known (use -r 3)\n"), "... one run of each: the spread not known "
		   "(%s)", text ? text : "");
		free(text);
	}
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			printf("# cleanup failed\n");
	}
	rt_profile_destroy(prof);
	return done_testing();
}
