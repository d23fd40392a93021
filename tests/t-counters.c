/* t-counters.c: the arithmetic from raw events to FLOPs and bytes, the model backend's counts
 * read back through PAPI's software-defined events, the hw backend where it exists (a SKIP
 * with PAPI's reason where it does not), and the trainer's counts equal to its analytic ones */
#include "config.h"
#include "counters/counters.h"
#include "cnn/model.h"
#include "cnn/net.h"
#include "cnn/train.h"
#include "tap.h"

#include <errno.h>
#include <math.h>
#include <omp.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
	struct rt_err err, why;
	double flops = 0, bytes = 0;
	enum rt_source src = RT_SOURCE_NONE;

	{
		const struct rt_event_value intel[] = {
			{ "FP_ARITH_INST_RETIRED:SCALAR_DOUBLE", 10 },
			{ "FP_ARITH_INST_RETIRED:128B_PACKED_DOUBLE", 3 },
			{ "FP_ARITH_INST_RETIRED:256B_PACKED_SINGLE", 5 },
			{ "FP_ARITH_INST_RETIRED:512B_PACKED_DOUBLE", 7 },
			{ "FP_ARITH_INST_RETIRED:512B_PACKED_SINGLE", 2 },
			{ "PAPI_TOT_CYC", 1000 },
		};
		const struct rt_event_value amd[] = { { "RETIRED_SSE_AVX_FLOPS:ANY", 12345 } };
		const struct rt_event_value none[] = { { "PAPI_TOT_INS", 99 } };

		is_int(rt_counters_flops(intel, 6, &flops), 0, "Intel FP_ARITH events give FLOPs");
		is_double(flops, 10 + 3 * 2 + 5 * 8 + 7 * 8 + 2 * 16, 0,
			  "weighted by lanes: 10 + 3x2 + 5x8 + 7x8 + 2x16 = 144");
		is_int(rt_counters_flops(amd, 1, &flops), 0, "AMD retired FLOPs");
		is_double(flops, 12345, 0, "AMD counts FLOPs already");
		is_int(rt_counters_flops(none, 1, &flops), -ENOENT, "no FP events: -ENOENT");
	}
	/* a vendor's whole set or no hardware count: five of Intel's eight events (four general
	 * counters with SMT on hold no more) are a fraction of the FLOPs, never presented as
	 * all of them */
	{
		const char *set[16];
		struct rt_event_value all[8], part[5];

		is_int((long long)rt_counters_flop_set("GenuineIntel", set, 16), 8,
		       "Intel: the 8 FP_ARITH_INST_RETIRED umasks");
		is_int((long long)rt_counters_flop_set("AuthenticAMD", set, 16), 1,
		       "AMD: RETIRED_SSE_AVX_FLOPS");
		is_int((long long)rt_counters_flop_set("HygonGenuine", set, 16), 0,
		       "a vendor without a table: no events");
		rt_counters_flop_set("GenuineIntel", set, 16);
		for (int i = 0; i < 8; i++)
			all[i] = (struct rt_event_value){ set[i], 1 };
		for (int i = 0; i < 5; i++)
			part[i] = all[i];
		is_int(rt_counters_flops_complete("GenuineIntel", all, 8, &flops), 0,
		       "Intel's whole set: a count");
		is_double(flops, 1 + 2 + 4 + 8 + 1 + 4 + 8 + 16, 0, "... one of each umask: 44 FLOPs");
		is_int(rt_counters_flops_complete("GenuineIntel", part, 5, &flops), -ENOENT,
		       "5 of Intel's 8 events: no count at all");
		is_int(rt_counters_flops_complete("AuthenticAMD", all, 8, &flops), -ENOENT,
		       "Intel's events on an AMD node: no count");
	}
	/* a node whose kernel exposes no core PMU (this VM) is told so, not an event's name */
	if (access("/sys/bus/event_source/devices/cpu", F_OK) &&
	    access("/sys/bus/event_source/devices/cpu_core", F_OK)) {
		void *ctx = NULL;
		struct rt_err e3;

		ok(rt_counters_hw.open(&ctx, &e3) == -ENOTSUP && strstr(e3.msg, "no core PMU") &&
		   !strstr(e3.msg, "FP_ARITH"), "no PMU: said as such: %s", e3.msg);
	} else {
		skip("this node has a core PMU");
	}
	{
		const struct rt_event_value cas[] = {
			{ "skx_unc_imc0::UNC_M_CAS_COUNT:RD", 100 },
			{ "skx_unc_imc0::UNC_M_CAS_COUNT:WR", 50 },
			{ "skx_unc_imc1::UNC_M_CAS_COUNT:RD", 25 },
			{ "PAPI_L3_TCM", 1000 },
		};
		const struct rt_event_value llc[] = { { "PAPI_L3_TCM", 1000 } };

		is_int(rt_counters_bytes(cas, 4, 64, &bytes, &src), 0, "uncore CAS counts give bytes");
		is_double(bytes, 175.0 * 64, 0, "CAS x 64 over every channel, LLC ignored");
		is_str(rt_source_name(src), "hw", "memory-controller bytes are hw");
		is_int(rt_counters_bytes(llc, 1, 64, &bytes, &src), 0, "LLC misses give bytes");
		is_double(bytes, 64000, 0, "misses x line");
		is_str(rt_source_name(src), "hw-estimate", "LLC-miss bytes are an estimate");
		is_int(rt_counters_bytes(llc, 0, 64, &bytes, &src), -ENOENT, "no events: -ENOENT");
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
	/* the hw backend: real counters where they exist */
	{
		void *ctx = NULL;
		int rc = rt_counters_hw.open(&ctx, &err);

		if (rc == -ENOTSUP) {
			skip("hw counters: %s", err.msg);
			/* no PMU, no table for this vendor, or the event that cannot be counted */
			ok(strstr(err.msg, "no core PMU") || strstr(err.msg, "no FLOP events") ||
			   strstr(err.msg, "cannot be counted"), "the reason says which: %s",
			   err.msg);
		} else if (is_int(rc, 0, "hw counters open")) {
			struct rt_counts c;
			volatile double x = 0;

			rt_counters_hw.meter.start(ctx, &err);
			for (int i = 0; i < 1000000; i++)
				x = x * 0.5 + 1.0;
			rt_counters_hw.meter.stop(ctx, &c, &err);
			ok(c.flops_source == RT_SOURCE_HW && c.flops >= 2e6,
			   "2e6 scalar FLOPs counted (%.0f)", c.flops);
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
