/* t-counters.c: the hw backend on a replay PMU (a group a repetition, hw only when every
 * group was read, multiplexing labelled), on this node (no PMU: said), the model backend's
 * counts read back through PAPI's software-defined events, the hw backend where it exists
 * (a SKIP with the reason where it does not), and the trainer's counts equal to its
 * analytic ones */
#include "config.h"
#include "counters/counters.h"
#include "counters/pmu.h"
#include "counters/uncore.h"
#include "cnn/model.h"
#include "cnn/net.h"
#include "cnn/train.h"
#include "tap.h"

#include <errno.h>
#include <math.h>
#include <omp.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A file of a fake sysfs tree: root/rel holds text (its directories made). */
static void put(const char *root, const char *rel, const char *text)
{
	char path[1024], cmd[1200];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	if (system(cmd) == 0 && (fp = fopen(path, "w"))) {
		fputs(text, fp);
		fclose(fp);
	}
}

/* The memory controllers' DRAM events from sysfs: a fake tree as the kernel writes it for a
 * Skylake-SP's uncore_imc_N and a Zen 5's amd_umc_N, and the real msr PMU of this machine for
 * the counting path */
static void uncore(void)
{
	char root[] = "/tmp/rt-t-uncore-XXXXXX", dir[600], cmd[700];
	struct rt_uncore_set s;
	struct rt_err why;
	unsigned long long cfg[3];
	const struct rt_uarch *skx = rt_uarch_find("GenuineIntel", 6, 0x55);
	const struct rt_uarch *zen5 = rt_uarch_find("AuthenticAMD", 0x1a, 0x11);
	const struct rt_uarch *zen3 = rt_uarch_find("AuthenticAMD", 0x19, 0x01);

	if (!mkdtemp(root)) {
		skip("no temporary directory");
		return;
	}
	for (int i = 0; i < 2; i++) {
		char pmu[64], rel[160];

		snprintf(pmu, sizeof(pmu), "uncore_imc_%d", i);
		snprintf(rel, sizeof(rel), "%s/type", pmu), put(root, rel, i ? "15\n" : "14\n");
		snprintf(rel, sizeof(rel), "%s/cpumask", pmu), put(root, rel, "0,28\n");
		snprintf(rel, sizeof(rel), "%s/format/event", pmu), put(root, rel, "config:0-7\n");
		snprintf(rel, sizeof(rel), "%s/format/umask", pmu), put(root, rel, "config:8-15\n");
		snprintf(rel, sizeof(rel), "%s/events/cas_count_read", pmu);
		put(root, rel, "event=0x04,umask=0x03\n");
		snprintf(rel, sizeof(rel), "%s/events/cas_count_read.scale", pmu);
		put(root, rel, "6.103515625e-5\n");
		snprintf(rel, sizeof(rel), "%s/events/cas_count_read.unit", pmu), put(root, rel, "MiB\n");
		snprintf(rel, sizeof(rel), "%s/events/cas_count_write", pmu);
		put(root, rel, "event=0x04,umask=0x0c\n");
		snprintf(rel, sizeof(rel), "%s/events/cas_count_write.scale", pmu);
		put(root, rel, "6.103515625e-5\n");
		snprintf(rel, sizeof(rel), "%s/events/cas_count_write.unit", pmu);
		put(root, rel, "MiB\n");
	}
	put(root, "amd_umc_0/type", "12\n");
	put(root, "amd_umc_0/cpumask", "0\n");
	put(root, "amd_umc_0/format/event", "config:0-7\n");
	put(root, "amd_umc_0/format/rdwrmask", "config:8-9\n");
	/* Zen 3's data fabric as the kernel's amd_df driver describes it (family 17h/19h
	 * before Zen 4): one PMU, a CPU per die in its cpumask, no named events */
	put(root, "amd_df/type", "11\n");
	put(root, "amd_df/cpumask", "0,8\n");
	put(root, "amd_df/format/event", "config:0-7,32-35\n");
	put(root, "amd_df/format/umask", "config:8-15\n");
	put(root, "split/format/event", "config:0-7,32-35\n");
	put(root, "split/format/flag", "config1:3\n");
	ok(skx && zen5 && zen3, "Skylake-SP, Zen 5 and Zen 3 tables");
	if (is_int(rt_uncore_find(root, skx, &s, &why), 0, "Skylake-SP: the IMC's DRAM events "
		   "found"))
		ok(s.n == 8 && !strcmp(s.ev[0].pmu, "uncore_imc_0") && s.ev[0].type == 14 &&
		   s.ev[0].config[0] == 0x0304 && s.ev[2].config[0] == 0x0c04 &&
		   !strcmp(s.ev[7].pmu, "uncore_imc_1") && s.ev[7].type == 15 && s.ev[0].cpu == 0 &&
		   s.ev[1].cpu == 28 && s.ev[1].config[0] == 0x0304 &&
		   s.ev[0].bytes_per_count == 64, "... 2 controllers x read and write x the 2 "
		   "sockets of the cpumask (0,28), event=0x04,umask=0x03 as 0x304, "
		   "6.103515625e-5 MiB = 64 bytes a count");
	if (is_int(rt_uncore_find(root, zen5, &s, &why), 0, "Zen 5: the UMC's events from the "
		   "kernel's amdzen5 list"))
		ok(s.n == 2 && s.ev[0].config[0] == 0x10a && s.ev[1].config[0] == 0x20a &&
		   s.ev[0].bytes_per_count == 64, "... umc_cas_cmd.rd 0x10a, .wr 0x20a, 64 bytes");
	if (is_int(rt_uncore_find(root, zen3, &s, &why), 0, "Zen 3: the data fabric's DRAM "
		   "channel events from the kernel's amdzen3 list")) {
		ok(s.n == 16 && !strcmp(s.ev[0].name, "dram_channel_data_controller_0") &&
		   s.ev[0].config[0] == 0x3807 && s.ev[0].cpu == 0 && s.ev[1].cpu == 8 &&
		   s.ev[2].config[0] == 0x3847 && s.ev[6].config[0] == 0x38c7 &&
		   s.ev[8].config[0] == (0x3807ULL | 1ULL << 32) &&
		   s.ev[14].config[0] == (0x38c7ULL | 1ULL << 32) && s.ev[15].type == 11 &&
		   s.ev[15].bytes_per_count == 64,
		   "... 8 channels x 2 dies: event 0x07 umask 0x38 as 0x3807, 0x107 as 0x100003807 "
		   "(event bits 8-11 in config:32-35), 0x1c7 as 0x1000038c7, 64 bytes a beat");
	}
	{
		const struct rt_uarch *zen2 = rt_uarch_find("AuthenticAMD", 0x17, 0x31);

		ok(zen2 && rt_uncore_find(root, zen2, &s, &why) == 0 && s.n == 16,
		   "Zen 2: the same data-fabric events");
	}
	put(root, "uncore_imc_2/type", "16\n");
	put(root, "uncore_imc_2/format/event", "config:0-7\n");
	put(root, "uncore_imc_2/format/umask", "config:8-15\n");
	put(root, "uncore_imc_2/events/cas_count_read", "event=0x04,umask=0x03\n");
	is_int(rt_uncore_find(root, skx, &s, &why), -ENOENT, "a controller without its write "
	       "event: no DRAM count at all");
	ok(strstr(why.msg, "uncore_imc_2 has no cas_count_write") && s.n == 0, "... %s", why.msg);
	snprintf(dir, sizeof(dir), "%s/split", root);
	is_int(rt_uncore_encode(dir, "event=0x1ab,flag", cfg, &why), 0, "split bit ranges");
	ok(cfg[0] == (0xabULL | 1ULL << 32) && cfg[1] == 1ULL << 3,
	   "... event=0x1ab over config:0-7,32-35 and a bare flag in config1:3 (%#llx %#llx)",
	   cfg[0], cfg[1]);
	is_int(rt_uncore_encode(dir, "event=0x1000", cfg, &why), -EINVAL, "a value wider than "
	       "its bits: refused");
	ok(strstr(why.msg, "does not fit its 12 bits") != NULL, "... %s", why.msg);
	is_int(rt_uncore_encode(dir, "umask=3", cfg, &why), -EINVAL, "a term without a format");
	ok(strstr(why.msg, "term 'umask' has no format file") != NULL, "... %s", why.msg);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		printf("# could not remove %s\n", root);

	/* the counting path on a real sysfs PMU: this machine's msr PMU (tsc) */
	{
		const char *msr = "/sys/bus/event_source/devices/msr";
		char line[64] = "";
		FILE *fp;

		snprintf(dir, sizeof(dir), "%s/type", msr);
		if (!(fp = fopen(dir, "r")) || !fgets(line, sizeof(line), fp)) {
			if (fp)
				fclose(fp);
			skip("no msr PMU in sysfs");
			return;
		}
		fclose(fp);
		memset(&s, 0, sizeof(s));
		for (size_t i = 0; i < RT_UNCORE_MAX; i++)
			s.fd[i] = -1;
		snprintf(s.ev[0].pmu, sizeof(s.ev[0].pmu), "msr");
		snprintf(s.ev[0].name, sizeof(s.ev[0].name), "tsc");
		s.ev[0].type = (unsigned)atoi(line);
		s.ev[0].bytes_per_count = 1;
		s.n = 1;
		ok(!rt_uncore_encode(msr, "event=0x00", s.ev[0].config, &why) &&
		   s.ev[0].config[0] == 0, "msr's tsc encoded from its format file");
		if (rt_uncore_open(&s, &why)) {
			skip("the msr PMU cannot be opened here: %s", why.msg);
		} else {
			double ticks = 0, first, scale = 0;
			struct timespec ts = { 0, 20000000 };

			int rc;

			rt_uncore_enable(&s);
			nanosleep(&ts, NULL);
			rc = rt_uncore_read(&s, &ticks, &scale, &why);
			ok(!rc && ticks > 1e6 && scale == 1, "counted for the node on CPU 0: %.3g TSC "
			   "ticks in 20 ms, running all the time (scale %g)", ticks, scale);
			first = ticks;
			rt_uncore_enable(&s);           /* from zero again, read at once */
			rc = rt_uncore_read(&s, &ticks, &scale, &why);
			ok(!rc && ticks < first / 10, "... each enable starts from zero (%.3g, not "
			   "above the %.3g before)", ticks, first);
			rt_uncore_close(&s);
		}
	}
}

/* One run through a meter: `iters` timed iterations of `per_iter` model FLOPs each. */
static struct rt_counts meter_run(const struct rt_counter_backend *b, void *ctx, int iters,
				  double per_iter, struct rt_err *err)
{
	struct rt_counts c = { 0 };

	if (b->meter.start(ctx, err))
		return c;
	for (int i = 0; i < iters; i++)
		b->meter.iteration(ctx, per_iter, 0);
	if (b->meter.stop(ctx, &c, err))
		c.flops_source = RT_SOURCE_NONE;
	return c;
}

int main(void)
{
	struct rt_err err, why;

	/* the hw backend on a replay PMU: a configuration's repetitions count the groups in
	 * turn; its FLOPs are hw once every group was read, never from a part */
	{
		const struct rt_uarch *spr = rt_uarch_find("GenuineIntel", 6, 0x8f);
		const struct rt_uarch *zen5 = rt_uarch_find("AuthenticAMD", 0x1a, 0x11);
		/* every FLOP a 512-bit packed double (8 FLOPs a count) */
		const struct rt_replay_event sprv[] = {
			{ 0x01c7, 0, NULL }, { 0x02c7, 0, NULL }, { 0x04c7, 0, NULL },
			{ 0x08c7, 0, NULL }, { 0x10c7, 0, NULL }, { 0x20c7, 0, NULL },
			{ 0x40c7, 1.0 / 8, NULL }, { 0x80c7, 0, NULL }, { 0x01cf, 0, NULL },
			{ 0x02cf, 0, NULL }, { 0x04cf, 0, NULL }, { 0x08cf, 0, NULL },
			{ 0x10cf, 0, NULL }, { 0x02ce, 0, NULL },
		};
		const struct rt_replay_event z5[] = { { 0x0f03, 1.0, NULL } };
		struct rt_replay rp = { sprv, 14, 1, 0, 0 };
		const struct rt_pmu pmu = RT_PMU_REPLAY(&rp);
		const struct rt_counter_backend *b = &rt_counters_hw;
		struct rt_counts c;
		void *ctx = NULL;

		ok(spr && zen5, "Sapphire Rapids and Zen 5 tables");
		if (is_int(rt_counters_pmu_open(&ctx, &pmu, spr, 8, RT_PRECISION_FP32, &err), 0,
			   "Sapphire Rapids, 8 counters: the backend opens on a replay")) {
			c = meter_run(b, ctx, 10, 1e9, &err);
			ok(c.flops_source == RT_SOURCE_NONE && c.flops == 0,
			   "first repetition: one group of 2 read, no FLOP count (%s)",
			   rt_source_name(c.flops_source));
			ok(rp.max_group <= 8, "... never more events at once than counters (%zu)",
			   rp.max_group);
			c = meter_run(b, ctx, 10, 1e9, &err);
			is_str(rt_source_name(c.flops_source), "hw", "second: every group read, hw");
			is_double(c.flops, 1e10, 1e-6, "... 10 iterations x 1e9 FLOPs from 512-bit "
				  "double counts x 8");
			c = meter_run(b, ctx, 4, 1e9, &err);
			is_double(c.flops, 4e9, 1e-6, "third (4 iterations): the count per iteration "
				  "x its iterations");
			is_int(rp.calls, 3, "... a group a repetition (3 opened)");
			rt_counters_hw.close(ctx);
		}
		/* a PMU that cannot count an event of the table: no backend, the event named */
		rp = (struct rt_replay){ sprv, 13, 1, 0, 0 };
		if (!rt_counters_pmu_open(&ctx, &pmu, spr, 8, RT_PRECISION_FP32, &err)) {
			c = meter_run(b, ctx, 1, 1e9, &err);
			c = meter_run(b, ctx, 1, 1e9, &err);
			ok(c.flops_source == RT_SOURCE_NONE && strstr(err.msg, "AMX_OPS_RETIRED"),
			   "an event the PMU refuses: no count, named: %s", err.msg);
			rt_counters_hw.close(ctx);
		}
		/* Zen 5: one group, each run whole; multiplexed at half: scaled, hw-estimate */
		rp = (struct rt_replay){ z5, 1, 1, 0, 0 };
		if (!rt_counters_pmu_open(&ctx, &pmu, zen5, 6, RT_PRECISION_FP32, &err)) {
			c = meter_run(b, ctx, 3, 2.5e8, &err);
			ok(c.flops_source == RT_SOURCE_HW && fabs(c.flops - 7.5e8) < 1,
			   "Zen 5: one group, every run counted whole (%.0f FLOPs)", c.flops);
			rt_counters_hw.close(ctx);
		}
		rp = (struct rt_replay){ z5, 1, 0.5, 0, 0 };
		if (!rt_counters_pmu_open(&ctx, &pmu, zen5, 6, RT_PRECISION_FP32, &err)) {
			c = meter_run(b, ctx, 3, 2.5e8, &err);
			ok(c.flops_source == RT_SOURCE_HW_ESTIMATE && fabs(c.flops - 7.5e8) < 1,
			   "multiplexed at 50%%: scaled back, labelled hw-estimate (%.0f)", c.flops);
			rt_counters_hw.close(ctx);
		}
		is_int(rt_counters_pmu_open(&ctx, &pmu, zen5, 1, RT_PRECISION_FP32, &err), -ENOTSUP,
		       "one counter for Zen 5's paired event: refused");
		ok(strstr(err.msg, "do not fit 1 counter") != NULL, "... said: %s", err.msg);
	}
	uncore();
	/* a node whose kernel exposes no core PMU (this VM) is told so, not an event's name */
	if (!rt_pmu_core_present()) {
		void *ctx = NULL;
		struct rt_err e3;

		ok(rt_counters_hw.open(&ctx, RT_PRECISION_FP32, &e3) == -ENOTSUP && strstr(e3.msg, "no core PMU") &&
		   !strstr(e3.msg, "FP_ARITH"), "no PMU: said as such: %s", e3.msg);
	} else {
		skip("this node has a core PMU");
	}
	is_str(rt_source_name(RT_SOURCE_MODEL), "model", "source names");

	/* the model backend: what the trainer adds is what PAPI reads */
	{
		void *ctx = NULL;
		struct rt_counts c;
		int rc = rt_counters_model.open(&ctx, RT_PRECISION_FP32, &err);

		if (!is_int(rc, 0, "model counters open (sde:::rooftraj::*)"))
			printf("# %s\n", err.msg);
		if (!rc) {
			rt_counters_model.meter.iteration(ctx, 5.0, 7.0);   /* before start: not counted */
			rt_counters_model.meter.start(ctx, &err);
			rt_counters_model.meter.iteration(ctx, 1.5e9, 3e8);
			rt_counters_model.meter.iteration(ctx, 1.5e9, 3e8);
			is_int(rt_counters_model.meter.stop(ctx, &c, &err), 0, "stop");
			is_double(c.flops, 3e9, 0, "FLOPs read through PAPI equal what was added");
			is_double(c.bytes, 6e8, 0, "bytes too");
			ok(c.flops_source == RT_SOURCE_MODEL && c.bytes_source == RT_SOURCE_MODEL,
			   "labelled model");
			ok(isnan(c.task_clock_s) || c.task_clock_s >= 0, "task clock %.3g s",
			   c.task_clock_s);
			rt_counters_model.close(ctx);
		}
	}
	/* the hw backend: real counters where they exist (validated on the probe's kernels) */
	{
		void *ctx = NULL;
		int rc = rt_counters_hw.open(&ctx, RT_PRECISION_FP32, &err);

		if (rc == -ENOTSUP) {
			skip("hw counters: %s", err.msg);
			/* no PMU, no table for this CPU, an event that cannot be counted, or a table
			 * that read the known kernels wrong */
			ok(strstr(err.msg, "no core PMU") || strstr(err.msg, "no FLOP event table") ||
			   strstr(err.msg, "cannot be counted") || strstr(err.msg, "not used"),
			   "the reason says which: %s", err.msg);
		} else if (is_int(rc, 0, "hw counters open")) {
			struct rt_counts c = { 0 };

			/* a group a run: as many runs as it takes, each 1e6 multiply-adds */
			for (int run = 0; run < RT_EVENTS_MAX && c.flops_source == RT_SOURCE_NONE;
			     run++) {
				volatile double x = 0;

				rt_counters_hw.meter.start(ctx, &err);
				for (int i = 0; i < 1000000; i++)
					x = x * 0.5 + 1.0;
				rt_counters_hw.meter.iteration(ctx, 2e6, 0);
				rt_counters_hw.meter.stop(ctx, &c, &err);
			}
			ok((c.flops_source == RT_SOURCE_HW || c.flops_source == RT_SOURCE_HW_ESTIMATE) &&
			   c.flops >= 2e6, "2e6 scalar FLOPs counted (%.0f)", c.flops);
			rt_counters_hw.close(ctx);
		}
	}
	{
		const struct rt_counter_backend *b = NULL;
		void *ctx = NULL;
		int rc = rt_counters_open("auto", RT_PRECISION_FP32, &b, &ctx, &why, &err);

		ok(rc == 0 && b, "auto opens a backend: %s%s%s", b ? b->name : "none",
		   why.msg[0] ? "; hw: " : "", why.msg);
		if (b == &rt_counters_model)
			ok(why.msg[0] != '\0', "auto says why hw is not used");
		if (b)
			b->close(ctx);
		ok(rt_counters_open("perf", RT_PRECISION_FP32, &b, &ctx, &why, &err) == -EINVAL &&
		   strstr(err.msg, "--counters: 'perf'"), "unknown backend: %s", err.msg);
	}
	/* the trainer publishes its exact counts: read back, they are the analytic totals */
	{
		struct rt_model *m = NULL;
		struct rt_net_opts no;
		struct rt_train_opts to = { .iterations = 3, .warmup = 1, .data = "synthetic" };
		struct rt_train_result res;
		struct rt_model_totals t;
		void *ctx = NULL;

		omp_set_num_threads(1);
		setenv("ROOFTRAJ_MODELS", "", 1);
		if (rt_model_open(&m, "lenet5", &err) || rt_counters_model.open(&ctx, RT_PRECISION_FP32, &err)) {
			ok(0, "setup: %s", err.msg);
			return done_testing();
		}
		rt_net_opts_default(&no, m);
		no.batch = 16;
		to.meter = &rt_counters_model.meter;
		to.meter_ctx = ctx;
		if (!is_int(rt_train_iterations(m, &no, &to, &res, &err), 0, "lenet5 trains with counters"))
			printf("# %s\n", err.msg);
		rt_model_totals(m, no.batch, &t);
		is_double(res.counts.flops, 3 * (t.fwd_flops + t.bwd_flops + t.update_flops), 0,
			  "FLOPs through PAPI = 3 iterations of the analytic count (%.0f)",
			  res.counts.flops);
		is_double(res.counts.bytes, 3 * (t.fwd_bytes + t.bwd_bytes + t.update_bytes), 0,
			  "bytes through PAPI = 3 iterations of the compulsory bytes");
		is_str(rt_source_name(res.counts.flops_source), "model", "source recorded");
		rt_train_result_fini(&res);
		rt_counters_model.close(ctx);
		/* the hw backend as the trainer's meter on a Sapphire Rapids replay (2 groups): a
		 * run reads one group, no count; rt_train_count_whole runs the work again until
		 * the FLOPs are whole */
		{
			const struct rt_uarch *spr = rt_uarch_find("GenuineIntel", 6, 0x8f);
			const struct rt_replay_event ev[] = {
				{ 0x01c7, 0, NULL }, { 0x02c7, 0, NULL }, { 0x04c7, 0, NULL },
				{ 0x08c7, 0, NULL }, { 0x10c7, 0, NULL }, { 0x20c7, 0, NULL },
				{ 0x40c7, 0, NULL }, { 0x80c7, 1.0 / 16, NULL }, { 0x01cf, 0, NULL },
				{ 0x02cf, 0, NULL }, { 0x04cf, 0, NULL }, { 0x08cf, 0, NULL },
				{ 0x10cf, 0, NULL }, { 0x02ce, 0, NULL },
			};
			struct rt_replay rp = { ev, 14, 1, 0, 0 };
			const struct rt_pmu pmu = RT_PMU_REPLAY(&rp);
			const double want = 3 * (t.fwd_flops + t.bwd_flops + t.update_flops);
			struct rt_counts c;
			int dummy = 0, rc;

			if (spr && !rt_counters_pmu_open(&ctx, &pmu, spr, 8, RT_PRECISION_FP32, &err)) {
				to.meter = &rt_counters_hw.meter;
				to.meter_ctx = ctx;
				rc = rt_train_iterations(m, &no, &to, &res, &err);
				ok(rc == 0 && res.counts.flops_source == RT_SOURCE_NONE,
				   "hw on a 2-group replay: a training run alone is no FLOP count (%s)",
				   rt_source_name(res.counts.flops_source));
				c = res.counts;
				rt_train_result_fini(&res);
				/* under MPI nothing more is run (the communicator is not touched) */
				to.comm = (const struct rt_comm *)&dummy;
				is_int(rt_train_count_whole(m, &no, &to, 2, &c, &err), 0,
				       "... with a communicator: count_whole returns");
				ok(c.flops_source == RT_SOURCE_NONE && rp.calls == 1,
				   "... having run nothing (%u groups opened)", rp.calls);
				to.comm = NULL;
				is_int(rt_train_count_whole(m, &no, &to, 2, &c, &err), 0,
				       "... one process: count_whole runs the work again");
				ok(c.flops_source == RT_SOURCE_HW && rp.calls == 2,
				   "... once: every group read, hw (%s, %u groups opened)",
				   rt_source_name(c.flops_source), rp.calls);
				/* to the grain of a whole count: 16 FLOPs in 7e7 */
				is_double(c.flops, want, 1e-6, "... the 3 timed iterations' FLOPs, "
					  "512-bit single counts x 16 (%.0f of %.0f)", c.flops, want);
				is_int(rt_train_count_whole(m, &no, &to, 2, &c, &err), 0, "... again");
				is_int(rp.calls, 2, "... whole already: nothing run");
				rt_counters_hw.close(ctx);
			} else {
				ok(0, "setup: the hw backend on a replay: %s", err.msg);
			}
		}
		rt_model_destroy(m);
	}
	return done_testing();
}
