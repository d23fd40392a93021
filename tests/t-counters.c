/* t-counters.c: the hw backend on a replay PMU (a group a repetition, hw only when every
 * group was read, multiplexing labelled), on this node (no PMU: said), the model backend's
 * counts read back through PAPI's software-defined events, the hw backend where it exists
 * (a SKIP with the reason where it does not), and the trainer's counts equal to its
 * analytic ones */
#include "config.h"
#include "counters/counters.h"
#include "counters/pmu.h"
#include "cnn/model.h"
#include "cnn/net.h"
#include "cnn/train.h"
#include "tap.h"

#include <errno.h>
#include <math.h>
#include <omp.h>
#include <string.h>
#include <unistd.h>

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
			{ 0x01c7, 0 }, { 0x02c7, 0 }, { 0x04c7, 0 }, { 0x08c7, 0 }, { 0x10c7, 0 },
			{ 0x20c7, 0 }, { 0x40c7, 1.0 / 8 }, { 0x80c7, 0 }, { 0x01cf, 0 },
			{ 0x02cf, 0 }, { 0x04cf, 0 }, { 0x08cf, 0 }, { 0x10cf, 0 }, { 0x02ce, 0 },
		};
		const struct rt_replay_event z5[] = { { 0x0f03, 1.0 } };
		struct rt_replay rp = { sprv, 14, 1, 0, 0 };
		const struct rt_pmu pmu = RT_PMU_REPLAY(&rp);
		const struct rt_counter_backend *b = &rt_counters_hw;
		struct rt_counts c;
		void *ctx = NULL;

		ok(spr && zen5, "Sapphire Rapids and Zen 5 tables");
		if (is_int(rt_counters_pmu_open(&ctx, &pmu, spr, 8, &err), 0,
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
		if (!rt_counters_pmu_open(&ctx, &pmu, spr, 8, &err)) {
			c = meter_run(b, ctx, 1, 1e9, &err);
			c = meter_run(b, ctx, 1, 1e9, &err);
			ok(c.flops_source == RT_SOURCE_NONE && strstr(err.msg, "AMX_OPS_RETIRED"),
			   "an event the PMU refuses: no count, named: %s", err.msg);
			rt_counters_hw.close(ctx);
		}
		/* Zen 5: one group, each run whole; multiplexed at half: scaled, hw-estimate */
		rp = (struct rt_replay){ z5, 1, 1, 0, 0 };
		if (!rt_counters_pmu_open(&ctx, &pmu, zen5, 6, &err)) {
			c = meter_run(b, ctx, 3, 2.5e8, &err);
			ok(c.flops_source == RT_SOURCE_HW && fabs(c.flops - 7.5e8) < 1,
			   "Zen 5: one group, every run counted whole (%.0f FLOPs)", c.flops);
			rt_counters_hw.close(ctx);
		}
		rp = (struct rt_replay){ z5, 1, 0.5, 0, 0 };
		if (!rt_counters_pmu_open(&ctx, &pmu, zen5, 6, &err)) {
			c = meter_run(b, ctx, 3, 2.5e8, &err);
			ok(c.flops_source == RT_SOURCE_HW_ESTIMATE && fabs(c.flops - 7.5e8) < 1,
			   "multiplexed at 50%%: scaled back, labelled hw-estimate (%.0f)", c.flops);
			rt_counters_hw.close(ctx);
		}
		is_int(rt_counters_pmu_open(&ctx, &pmu, zen5, 1, &err), -ENOTSUP,
		       "one counter for Zen 5's paired event: refused");
		ok(strstr(err.msg, "do not fit 1 counter") != NULL, "... said: %s", err.msg);
	}
	/* a node whose kernel exposes no core PMU (this VM) is told so, not an event's name */
	if (!rt_pmu_core_present()) {
		void *ctx = NULL;
		struct rt_err e3;

		ok(rt_counters_hw.open(&ctx, &e3) == -ENOTSUP && strstr(e3.msg, "no core PMU") &&
		   !strstr(e3.msg, "FP_ARITH"), "no PMU: said as such: %s", e3.msg);
	} else {
		skip("this node has a core PMU");
	}
	is_str(rt_source_name(RT_SOURCE_MODEL), "model", "source names");

	/* the model backend: what the trainer adds is what PAPI reads */
	{
		void *ctx = NULL;
		struct rt_counts c;
		int rc = rt_counters_model.open(&ctx, &err);

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
		int rc = rt_counters_hw.open(&ctx, &err);

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
		int rc = rt_counters_open("auto", &b, &ctx, &why, &err);

		ok(rc == 0 && b, "auto opens a backend: %s%s%s", b ? b->name : "none",
		   why.msg[0] ? "; hw: " : "", why.msg);
		if (b == &rt_counters_model)
			ok(why.msg[0] != '\0', "auto says why hw is not used");
		if (b)
			b->close(ctx);
		ok(rt_counters_open("perf", &b, &ctx, &why, &err) == -EINVAL &&
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
		if (rt_model_open(&m, "lenet5", &err) || rt_counters_model.open(&ctx, &err)) {
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
		rt_model_destroy(m);
	}
	return done_testing();
}
