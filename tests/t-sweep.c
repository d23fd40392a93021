/* t-sweep.c: sweep knobs and grids (every bad knob and list), the environment of each
 * configuration, child processes that exit, crash, hang or are missing, and the one sweep
 * loop (the engine) over a workload of its own */
#include "config.h"
#include "sweep/sweep.h"
#include "sweep/engine.h"
#include "base/spawn.h"
#include "results/points.h"
#include "machine/topo.h"
#include "tap.h"

#include <errno.h>
#include <unistd.h>

#define SYNTH "synthetic:pack:2 numa:1(memory=8GiB) l3:1(size=32MiB) core:4 l2:1(size=1MiB) " \
	      "l1d:1(size=48KiB) pu:2"

static int names(const struct rt_sweep *s, const char *want)
{
	char got[1024] = "";
	size_t len = 0;

	for (size_t i = 0; i < s->nconfigs; i++)
		len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%s%s", i ? " " : "",
					s->configs[i].name, s->configs[i].is_default ? "*" : "");
	return is_str(got, want, "grid %s", want);
}

/* A workload of the test's own: configuration i writes one row named after it; the one named
 * "bad" fails, the one named "stop" raises the interrupt flag while it runs. */
static volatile int stop_flag;
static const char *const wnames[] = { "c0", "c1", "c2", "bad", "stop", "c5" };
static char seen[256];

static const char *w_name(void *ctx, size_t i)
{
	(void)ctx;
	return wnames[i];
}

static int w_measure(void *ctx, size_t i, FILE *rows, char *result, size_t rsize,
		     struct rt_err *err)
{
	struct rt_point p = { .threads = 1, .batch = 8, .precision = RT_PRECISION_FP32,
			      .ranks = 1, .scope = RT_SCOPE_ITERATION, .source = RT_SOURCE_MODEL,
			      .stat = RT_STAT_MEDIAN, .seconds = 0.5, .status = RT_STATUS_OK };

	(void)ctx;
	if (!strcmp(wnames[i], "bad"))
		return rt_err_set(err, -EIO, "it broke");
	if (!strcmp(wnames[i], "stop"))
		stop_flag = 1;
	snprintf(p.config, sizeof(p.config), "%s", wnames[i]);
	snprintf(p.name, sizeof(p.name), "iteration");
	rt_point_derive(&p);
	rt_points_csv_row(rows, &p);
	snprintf(result, rsize, "row of %s", wnames[i]);
	return 0;
}

static const struct rt_workload w_test = { .name = "test", .program = "t-sweep",
					   .measure = w_measure };

static void w_progress(void *ctx, size_t i, size_t n, const char *config, const char *result)
{
	(void)ctx;
	snprintf(seen + strlen(seen), sizeof(seen) - strlen(seen), "[%zu/%zu %s %s]", i, n, config,
		 result ? (strstr(result, "measured before") ? "before" :
			   strstr(result, " s left)") ? "done" : "?") : "start");
}

/* the configurations points.csv holds, in order, as "c0 c2" */
static void csv_configs(const char *csv, char *out, size_t size)
{
	struct rt_point *pts = NULL;
	size_t n = 0;
	struct rt_err err;

	*out = 0;
	if (rt_points_csv_read(csv, &pts, &n, &err)) {
		snprintf(out, size, "error: %.200s", err.msg);
		return;
	}
	for (size_t i = 0; i < n; i++)
		snprintf(out + strlen(out), size - strlen(out), "%s%s", i ? " " : "", pts[i].config);
	free(pts);
}

static void engine_tests(void)
{
	char dir[] = "/tmp/rt-t-engine.XXXXXX", csv[64], got[256];
	bool have[6] = { false, true, false, false, false, false };
	struct rt_engine e = { .w = &w_test, .csv = csv, .n = 3, .name = w_name, .have = have,
			       .progress = w_progress };
	struct rt_err err = { 0 };
	size_t measured = 99;
	int rc;

	if (!mkdtemp(dir)) {
		ok(0, "a directory for the engine's points.csv");
		return;
	}
	snprintf(csv, sizeof(csv), "%s/points.csv", dir);
	rc = rt_engine_run(&e, &measured, &err);
	csv_configs(csv, got, sizeof(got));
	ok(rc == 0 && measured == 2 && !strcmp(got, "c0 c2"),
	   "the engine measures what was not measured before, its rows in points.csv (%d, %zu: %s)",
	   rc, measured, got);
	is_str(seen, "[1/3 c0 start][1/3 c0 done][2/3 c1 before][3/3 c2 start][3/3 c2 done]",
	       "... saying each configuration's start, its result with the time left, or that it "
	       "was measured before");
	/* a workload's error ends the sweep: what finished stays */
	have[0] = have[1] = have[2] = true;
	e.n = 6;
	rc = rt_engine_run(&e, &measured, &err);
	csv_configs(csv, got, sizeof(got));
	ok(rc == -EIO && !strcmp(err.msg, "it broke") && measured == 0 && !strcmp(got, "c0 c2"),
	   "a workload's error ends the sweep with its message, nothing of it written (%d '%s': "
	   "%s)", rc, err.msg, got);
	/* an interrupt while a configuration runs: it is not kept, and nothing after it runs */
	have[3] = true;
	rt_spawn_set_interrupt_flag(&stop_flag);
	rc = rt_engine_run(&e, &measured, &err);
	rt_spawn_set_interrupt_flag(NULL);
	csv_configs(csv, got, sizeof(got));
	ok(rc == -EINTR && measured == 0 && !strcmp(got, "c0 c2"),
	   "interrupted: -EINTR, the configuration that was running not kept, none after it run "
	   "(%d: %s)", rc, got);
	{
		FILE *fp = fopen(csv, "r");
		char line[4096];
		int headers = 0;

		while (fp && fgets(line, sizeof(line), fp))
			headers += !strncmp(line, "config,", 7);
		if (fp)
			fclose(fp);
		is_int(headers, 1, "points.csv has its header once, written with its first rows");
	}
	unlink(csv);
	rmdir(dir);
}

int main(void)
{
	struct rt_topo *t = NULL;
	struct rt_sweep s;
	struct rt_err err;

	if (rt_topo_create(&t, SYNTH, &err))
		return printf("Bail out! %s\n", err.msg), 1;

	memset(&s, 0, sizeof(s));
	is_int(rt_sweep_add(&s, "threads", t, 64, &err), 0, "threads: default list");
	ok(s.knobs[0].n == 4 && s.knobs[0].values[0] == 1 && s.knobs[0].values[3] == 8,
	   "1, 2, 4, all 8 cores");
	is_int(rt_sweep_add(&s, "batch", t, 64, &err), 0, "batch: default list");
	ok(s.knobs[1].n == 4 && s.knobs[1].values[0] == 16 && s.knobs[1].values[3] == 128,
	   "16, 32, 64, 128 around the model's 64");
	ok(rt_sweep_add(&s, "threads=2", t, 64, &err) == -EINVAL &&
	   strstr(err.msg, "knob 'threads' given twice"), "a knob twice: %s", err.msg);
	rt_sweep_fini(&s);

	memset(&s, 0, sizeof(s));
	rt_sweep_add(&s, "threads=1,2", t, 64, &err);
	rt_sweep_add(&s, "affinity=compact,none", t, 64, &err);
	is_int(rt_sweep_expand(&s, 8, 64, RT_AFFINITY_NONE, RT_PRECISION_FP32, &err), 0, "expand");
	names(&s, "t8-b64-none* t1-b64-compact t1-b64-none t2-b64-compact t2-b64-none");
	rt_sweep_fini(&s);

	memset(&s, 0, sizeof(s));
	rt_sweep_add(&s, "threads=8,1", t, 64, &err);
	rt_sweep_expand(&s, 8, 64, RT_AFFINITY_NONE, RT_PRECISION_FP32, &err);
	names(&s, "t8-b64-none* t1-b64-none");  /* the default is measured once */
	rt_sweep_fini(&s);

	/* the default is the run the options describe: the knobs not swept keep its affinity
	 * and precision (roofline-train --affinity compact --precision bf16 --sweep threads) */
	memset(&s, 0, sizeof(s));
	rt_sweep_add(&s, "threads=1,2", t, 64, &err);
	is_int(rt_sweep_expand(&s, 8, 64, RT_AFFINITY_COMPACT, RT_PRECISION_BF16, &err), 0,
	       "expand from a bf16, compact default");
	names(&s, "t8-b64-compact-bf16* t1-b64-compact-bf16 t2-b64-compact-bf16");
	ok(s.configs[1].precision == RT_PRECISION_BF16 && s.configs[2].affinity ==
	   RT_AFFINITY_COMPACT, "... each configuration keeps the default's precision and affinity");
	rt_sweep_fini(&s);

	memset(&s, 0, sizeof(s));
	rt_sweep_add(&s, "affinity=scatter,compact", t, 64, &err);
	ok(s.knobs[0].values[0] == RT_AFFINITY_SCATTER && s.knobs[0].values[1] ==
	   RT_AFFINITY_COMPACT, "affinity keeps the order given");
	rt_sweep_expand(&s, 4, 32, RT_AFFINITY_NONE, RT_PRECISION_FP32, &err);
	names(&s, "t4-b32-none* t4-b32-scatter t4-b32-compact");
	{
		const struct rt_sweep_config *c = s.configs;

		ok(c[1].nenv == 3 && !strcmp(c[1].env[0], "OMP_NUM_THREADS=4") &&
		   !strcmp(c[1].env[1], "OMP_PLACES=cores") &&
		   !strcmp(c[1].env[2], "OMP_PROC_BIND=spread"), "scatter: cores, spread");
		ok(c[2].nenv == 3 && !strcmp(c[2].env[2], "OMP_PROC_BIND=close"), "compact: close");
		ok(c[0].nenv == 3 && !strcmp(c[0].env[1], "OMP_PLACES=") &&
		   !strcmp(c[0].env[2], "OMP_PROC_BIND="),
		   "none: placement unset, the runtime decides");
	}
	rt_sweep_fini(&s);

	/* precision: fp32 and bf16, combined with the other knobs; fp32 names stay as before */
	memset(&s, 0, sizeof(s));
	is_int(rt_sweep_add(&s, "precision", t, 64, &err), 0, "precision: default list");
	ok(s.knobs[0].n == 2 && s.knobs[0].values[0] == RT_PRECISION_FP32 &&
	   s.knobs[0].values[1] == RT_PRECISION_BF16, "fp32, bf16");
	rt_sweep_add(&s, "threads=1,2", t, 64, &err);
	rt_sweep_expand(&s, 2, 64, RT_AFFINITY_NONE, RT_PRECISION_FP32, &err);
	names(&s, "t2-b64-none* t1-b64-none t1-b64-none-bf16 t2-b64-none-bf16");
	ok(s.configs[2].precision == RT_PRECISION_BF16 && s.configs[0].precision ==
	   RT_PRECISION_FP32, "the default is fp32; bf16 configurations carry their precision");
	rt_sweep_fini(&s);
	memset(&s, 0, sizeof(s));
	rt_sweep_add(&s, "precision=bf16", t, 64, &err);
	rt_sweep_expand(&s, 4, 32, RT_AFFINITY_NONE, RT_PRECISION_FP32, &err);
	names(&s, "t4-b32-none* t4-b32-none-bf16");
	rt_sweep_fini(&s);

	/* input: sizes as height x width (one number: a square); a configuration on another
	 * input than the run's says so in its name, the run's own input keeps the plain name */
	memset(&s, 0, sizeof(s));
	is_int(rt_sweep_add(&s, "input=32,64x48,16", t, 64, &err), 0, "input: a list");
	ok(s.knobs[0].n == 3 && RT_INPUT_H(s.knobs[0].values[1]) == 64 &&
	   RT_INPUT_W(s.knobs[0].values[1]) == 48 && RT_INPUT_H(s.knobs[0].values[0]) == 32 &&
	   RT_INPUT_W(s.knobs[0].values[0]) == 32, "32 is 32x32; 64x48 is height 64, width 48");
	{
		char spec[128];

		rt_sweep_knob_spec(&s, 0, spec, sizeof(spec));
		is_str(spec, "input=32x32,64x48,16x16", "the canonical form");
	}
	s.input_h = s.input_w = 32;
	rt_sweep_expand(&s, 2, 64, RT_AFFINITY_NONE, RT_PRECISION_FP32, &err);
	names(&s, "t2-b64-none* t2-b64-none-i64x48 t2-b64-none-i16");
	ok(s.configs[0].input_h == 32 && s.configs[1].input_h == 64 && s.configs[1].input_w == 48 &&
	   s.configs[2].input_w == 16, "each configuration carries its input");
	rt_sweep_fini(&s);

	/* ranks: strong scaling on one node: r ranks share the cores and the global batch */
	memset(&s, 0, sizeof(s));
	is_int(rt_sweep_add(&s, "ranks", t, 64, &err), 0, "ranks: default list");
	ok(s.knobs[0].n == 4 && s.knobs[0].values[1] == 2 && s.knobs[0].values[3] == 8,
	   "1, 2, 4, all 8 cores");
	rt_sweep_fini(&s);
	memset(&s, 0, sizeof(s));
	rt_sweep_add(&s, "ranks=1,2,4", t, 64, &err);
	is_int(rt_sweep_expand(&s, 8, 64, RT_AFFINITY_NONE, RT_PRECISION_FP32, &err), 0, "expand ranks");
	names(&s, "t8-b64-none* t4-b32-none-r2 t2-b16-none-r4");
	ok(s.configs[1].ranks == 2 && s.configs[2].ranks == 4 && s.configs[2].threads == 2 &&
	   s.configs[2].batch == 16, "4 ranks: 2 threads and 16 images each (8 cores, batch 64)");
	rt_sweep_fini(&s);
	memset(&s, 0, sizeof(s));
	rt_sweep_add(&s, "ranks=2", t, 64, &err);
	rt_sweep_add(&s, "threads=1,4", t, 64, &err);
	rt_sweep_expand(&s, 8, 64, RT_AFFINITY_NONE, RT_PRECISION_FP32, &err);
	names(&s, "t8-b64-none* t1-b32-none-r2 t4-b32-none-r2");
	rt_sweep_fini(&s);
	/* several ranks pin their own threads: OMP_PLACES would put them all on the same cores */
	memset(&s, 0, sizeof(s));
	rt_sweep_add(&s, "ranks=2", t, 64, &err);
	rt_sweep_add(&s, "affinity=compact", t, 64, &err);
	rt_sweep_expand(&s, 8, 64, RT_AFFINITY_NONE, RT_PRECISION_FP32, &err);
	ok(s.nconfigs == 2 && s.configs[1].affinity == RT_AFFINITY_COMPACT &&
	   s.configs[1].nenv == 3 && !strcmp(s.configs[1].env[0], "OMP_NUM_THREADS=4") &&
	   !strcmp(s.configs[1].env[1], "OMP_PLACES=") &&
	   !strcmp(s.configs[1].env[2], "OMP_PROC_BIND="), "2 ranks, compact: placement left "
	   "to the ranks (%s)", s.nconfigs == 2 ? s.configs[1].name : "?");
	rt_sweep_fini(&s);
	memset(&s, 0, sizeof(s));
	rt_sweep_add(&s, "ranks=3", t, 64, &err);
	ok(rt_sweep_expand(&s, 8, 64, RT_AFFINITY_NONE, RT_PRECISION_FP32, &err) == -EINVAL &&
	   strstr(err.msg, "3 ranks do not split the batch of 64 images evenly"),
	   "a batch 3 ranks cannot split: %s", err.msg);
	rt_sweep_fini(&s);

	{
		static const struct { const char *spec, *msg; } bad[] = {
			{ "precision=fp16", "--sweep precision: unknown value 'fp16' (one of: fp32, "
			  "bf16)" },
			{ "precision=bf16,bf16", "'bf16' appears twice" },
			{ "threads=0", "--sweep threads: '0' is not in 1..16" },
			{ "threads=17", "--sweep threads: '17' is not in 1..16" },
			{ "threads=1,,2", "has an empty item" },
			{ "threads=x", "'x' is not a number" },
			{ "batch=0", "--sweep batch: '0' is not in 1..65536" },
			{ "batch=", "--sweep batch: the list is empty" },
			{ "affinity=spread", "--sweep affinity: unknown value 'spread'" },
			{ "cores=2", "--sweep: unknown knob 'cores' (threads, batch, affinity, "
			  "precision, input, ranks)" },
			{ "ranks=0", "--sweep ranks: '0' is not in 1..16" },
			{ "input", "--sweep input: give the sizes" },
			{ "input=0", "--sweep input: '0' is not an input size" },
			{ "input=32x", "--sweep input: '32x' is not an input size" },
			{ "input=16385", "--sweep input: '16385' is not an input size" },
			{ "", "--sweep: unknown knob ''" },
		};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			memset(&s, 0, sizeof(s));
			ok(rt_sweep_add(&s, bad[i].spec, t, 64, &err) == -EINVAL ||
			   rt_sweep_add(&s, bad[i].spec, t, 64, &err) == -ERANGE, "'%s' rejected",
			   bad[i].spec);
			like(err.msg, bad[i].msg, "'%s': message", bad[i].spec);
		}
	}

	/* children: each way a configuration can end */
	{
		struct rt_child c;
		char env[3][64] = { "OMP_NUM_THREADS=3", "OMP_PLACES=", "" };
		char *ok_argv[] = { "/bin/sh", "-c", "echo out; echo \"$OMP_NUM_THREADS-$OMP_PLACES\"",
				    NULL };
		char *fail_argv[] = { "/bin/sh", "-c", "echo partial; echo 'first'>&2; "
				      "echo 'what went wrong' >&2; exit 3", NULL };
		char *crash_argv[] = { "/bin/sh", "-c", "kill -SEGV $$", NULL };
		char *hang_argv[] = { "/bin/sh", "-c", "sleep 20", NULL };
		char *missing_argv[] = { "/nonexistent/roofline-train", NULL };

		setenv("OMP_PLACES", "threads", 1);
		is_int(rt_spawn_run(ok_argv, env, 2, 10, &c, &err), 0, "child runs");
		ok(c.ok && !strcmp(c.out, "out\n3-\n"), "its output, its environment (%s)", c.out);
		free(c.out);
		rt_spawn_run(fail_argv, env, 0, 10, &c, &err);
		ok(!c.ok && !strcmp(c.reason, "exit 3: what went wrong") && !strcmp(c.out, "partial\n"),
		   "a failing child: '%s', output kept", c.reason);
		free(c.out);
		rt_spawn_run(crash_argv, env, 0, 10, &c, &err);
		ok(!c.ok && strstr(c.reason, "killed by SIGSEGV (11)"), "a crash: '%s'", c.reason);
		free(c.out);
		rt_spawn_run(hang_argv, env, 0, 0.3, &c, &err);
		ok(!c.ok && !strcmp(c.reason, "timeout after 0.3 s") && c.seconds < 5,
		   "a hang is killed at its timeout: '%s' (%.2f s)", c.reason, c.seconds);
		free(c.out);
		rt_spawn_run(missing_argv, env, 0, 10, &c, &err);
		ok(!c.ok && !strcmp(c.reason, "cannot run /nonexistent/roofline-train: No such file or "
				      "directory"),
		   "a missing program: '%s'", c.reason);
		free(c.out);
	}
	rt_topo_destroy(t);
	/* a configuration's environment read back: the last value set, a variable unset with
	 * "NAME=" as "", a name that is only the start of another's not found */
	{
		struct rt_sweep_config c = { .nenv = 0 };

		ok(rt_sweep_config_setenv(&c, "MODE", "BF16") &&
		   rt_sweep_config_setenv(&c, "MODEX", "1") &&
		   rt_sweep_config_setenv(&c, "MODE=STRICT", NULL) &&
		   rt_sweep_config_setenv(&c, "GONE", ""), "environment set");
		is_str(rt_sweep_config_getenv(&c, "MODE"), "STRICT", "getenv: the last value set");
		is_str(rt_sweep_config_getenv(&c, "MODEX"), "1", "... another name with it as its start");
		is_str(rt_sweep_config_getenv(&c, "GONE"), "", "... unset with NAME=: empty");
		ok(!rt_sweep_config_getenv(&c, "MOD") && !rt_sweep_config_getenv(&c, "OTHER"),
		   "... a name not set: NULL");
		for (size_t k = 0; k < c.nenv; k++)
			free(c.env[k]);
	}
	engine_tests();
	return done_testing();
}
