/* t-cmd-advice.c: roofline-run's advice from the roof on oneDNN 3.10's own logs of a PyTorch
 * 2.11 training (tests/data/pytorch-2.11): the reorders' share and layouts as the log has
 * them, channels_last for the fp32 log and not for the channels_last one, bf16 only on a CPU
 * with bf16 instructions and only where fp32 math takes the time; what an fpmath mode did
 * (the math each primitive it reached ran); the activations' layout rule; the steady state of
 * a command's throughput figures. */
#include "config.h"
#include "base/util.h"
#include "counters/onednn-log.h"
#include "run/cmd-results.h"
#include "tap.h"
#include "pt211.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* tests/data/pytorch-2.11/pt211-MODE.log tallied and sorted; false when it is not there */
static bool tally_file(struct rt_onednn_tally *t, const char *mode)
{
	if (!pt211_tally(t, mode, NULL))
		return false;
	rt_onednn_tally_sort(t);
	return true;
}

/* the advice line that starts with prefix, or NULL */
static const char *line_of(const struct rt_cmd_advice *a, const char *prefix)
{
	for (size_t i = 0; i < a->n; i++)
		if (!strncmp(a->line[i], prefix, strlen(prefix)))
			return a->line[i];
	return NULL;
}

static struct rt_cpu cpu_with(const char *isa)
{
	struct rt_cpu c;

	memset(&c, 0, sizeof(c));
	snprintf(c.isa[c.nisa++], sizeof(c.isa[0]), "avx2");
	snprintf(c.isa[c.nisa++], sizeof(c.isa[0]), "avx512");
	if (isa)
		snprintf(c.isa[c.nisa++], sizeof(c.isa[0]), "%s", isa);
	return c;
}

int main(void)
{
	struct rt_onednn_tally t;
	struct rt_cmd_advice a = { .n = 0 };
	const struct rt_cpu plain = cpu_with(NULL), bf16 = cpu_with("avx512_bf16");
	const struct rt_cpu amx = cpu_with("amx_bf16");

	/* the steady state: the median of the figures after the first */
	{
		double v1[] = { 10, 200, 300, 250 }, v2[] = { 42 }, v3[] = { 5, 7 };

		is_double(rt_cmd_steady(v1, 4), 250, 0, "steady: 10, then 200 300 250: 250");
		is_double(rt_cmd_steady(v2, 1), 42, 0, "steady: one figure: itself");
		is_double(rt_cmd_steady(v3, 2), 7, 0, "steady: 5, 7: 7 (the first left out)");
		ok(isnan(rt_cmd_steady(NULL, 0)), "steady: no figure: NAN");
	}
	/* a run row's reason: its own words, then the judgement; read back, the images/s the
	 * judgement named judged again (points.csv does not keep it), a failed run's words whole */
	{
		struct rt_cmd_outcome r = { .ok = true, .disturbed = true, .images_per_s = 5e12 };
		struct rt_cmd_outcome back = { .ok = true, .images_per_s = NAN };
		struct rt_cmd_judgement j, jb;
		char row[640];

		snprintf(r.reason, sizeof(r.reason), "busy: other processes used 72%% (sh; bash)");
		rt_cmd_judge(&r, 1, NULL, &j);
		rt_cmd_reason_put(row, sizeof(row), &r, &j);
		is_str(row, "busy: other processes used 72% (sh; bash); impossible: the command "
		       "printed images/s 5e+12, more than an image a nanosecond: not taken",
		       "reason: a disturbed run's own words, then the judgement");
		rt_cmd_reason_get(&back, row);
		rt_cmd_judge(&back, 1, NULL, &jb);
		is_str(back.reason, r.reason, "... read back: the run's own words");
		ok(back.images_per_s == 5e12 && jb.over_images && !strcmp(jb.why, j.why),
		   "... and judged again as it was: %s", jb.why);
		r.disturbed = false;
		rt_cmd_reason_put(row, sizeof(row), &r, &j);
		back.images_per_s = NAN;
		rt_cmd_reason_get(&back, row);
		ok(!strncmp(row, "impossible: ", 12) && !*back.reason && back.images_per_s == 5e12,
		   "... an undisturbed run's: the judgement alone, read back the same");
		back.ok = false;
		back.images_per_s = NAN;
		rt_cmd_reason_get(&back, "exit 1: x; impossible: the command printed images/s 9e12");
		ok(!strcmp(back.reason, "exit 1: x; impossible: the command printed images/s 9e12") &&
		   isnan(back.images_per_s), "... a failed run's words whole, nothing taken from them");
	}
	/* the activations' layout rule */
	{
		/* NHWC is the weights' layout too: an activation's only on the shape of the
		 * source (16x3x32x32) or destination (16x32x16x16) of a convolution the log ran */
		static const struct {
			const char *from, *to, *dims;
			bool act;
		} c[] = {
			{ "abcd", "aBcd16b", "", true }, { "aBcd8b", "abcd", "", true },
			{ "abcde", "aBcde16b", "", true }, { "abcd", "Acdb16a", "", false },
			{ "abcde", "aBCde8c8b", "", false }, { "acdb", "aBcd16b", "", false },
			{ "abcd", "ABcd16b16a", "", false }, { "abcd", "aBcd", "", false },
			{ "abcd f32", "aBcd16b bf16", "", true },
			{ "abcd", "acdb", "16x3x32x32", true }, { "acdb", "abcd", "16x32x16x16", true },
			{ "abcd", "acdb", "32x3x3x3", false }, { "abcd", "acdb", "16x3x16x16", false },
			{ "abcd", "acdb", "16x32x16", false }, { "acdb", "acdb", "16x3x32x32", false },
			{ "abcd bf16", "acdb f32", "16x3x32x32", true },
		};
		struct rt_onednn_prim conv = { .kind = "convolution", .problem =
			(char *)"mb16_ic3oc32_ih32oh16kh3sh2dh0ph1_iw32ow16kw3sw2dw0pw1" };
		struct rt_onednn_tally one = { .v = &conv, .n = 1 };

		for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
			struct rt_onednn_conv cv = { .calls = 1 };

			snprintf(cv.from, sizeof(cv.from), "%s", c[i].from);
			snprintf(cv.to, sizeof(cv.to), "%s", c[i].to);
			snprintf(cv.dims, sizeof(cv.dims), "%s", c[i].dims);
			ok(rt_cmd_advice_activation_conv(&one, &cv) == c[i].act, "%s -> %s %s: %s",
			   c[i].from, c[i].to, c[i].dims, c[i].act ? "activations NCHW <-> "
			   "blocked or NHWC" : "not activations'");
		}
	}
	/* under the roof, on a node of a 1000 GFLOP/s fp32 ceiling and 100 GB/s of DRAM (the
	 * ridge at 10 FLOP/B), 16 threads: each heavy primitive under half its ceiling with the
	 * why its numbers show, none without one */
	{
		struct rt_cmd_judgement j;
		struct rt_onednn_tally syn;
		struct rt_onednn_prim p[6];
		const char *l;
		const enum rt_precision f32 = RT_PRECISION_FP32;
		memset(&j, 0, sizeof(j));
		j.have_roofs = true;
		j.roofs.threads = 16;
		j.roofs.roof[0] = (struct rt_roof){ .kind = RT_ROOF_FLOPS, .basis = RT_ROOF_MEASURED,
						    .precision = "fp32", .level = "", .what = "fma",
						    .value = 1000 };
		j.roofs.roof[1] = (struct rt_roof){ .kind = RT_ROOF_BANDWIDTH,
						    .basis = RT_ROOF_MEASURED, .precision = "",
						    .level = "DRAM", .what = "load", .value = 100 };
		j.roofs.n = 2;
		memset(p, 0, sizeof(p));
		for (int i = 0; i < 6; i++) {
			snprintf(p[i].kind, sizeof(p[i].kind), "convolution");
			snprintf(p[i].prop, sizeof(p[i].prop), "forward_training");
			snprintf(p[i].dtype, sizeof(p[i].dtype), "f32");
			p[i].counted = true;
			p[i].prec = f32;
			p[i].calls = 10;
			p[i].ms = 100;          /* 0.1 s each: the rate is 10 x GFLOPs */
		}
		/* 3 images a thread, intensity 20: 100 GFLOP/s, 10% of the ceiling */
		p[0].problem = (char *)"mb48_ic24oc48_ih32oh32kh3sh1dh0ph1_iw32ow32kw3sw1dw0pw1";
		p[0].flops = 10e9, p[0].bytes = 0.5e9;
		/* memory-bound: intensity 2, 100 GFLOP/s */
		p[1].problem = (char *)"mb64_ic48oc48_ih16oh16kh1sh1dh0ph0_iw16ow16kw1sw1dw0pw0";
		p[1].flops = 10e9, p[1].bytes = 5e9;
		/* at 60% of the ceiling: not far under it */
		p[2].problem = (char *)"mb8_ic48oc48_ih16oh16kh3sh1dh0ph1_iw16ow16kw3sw1dw0pw1";
		p[2].flops = 60e9, p[2].bytes = 1e9;
		/* far under, but neither memory-bound nor short of work (4 images a thread): no why */
		p[3].problem = (char *)"mb64_ic48oc48_ih16oh16kh3sh1dh0ph1_iw16ow16kw3sw1dw0pw1";
		p[3].flops = 10e9, p[3].bytes = 0.5e9;
		/* intensity 2 again, but 20 GFLOP/s: 10% of the 200 DRAM allows, so not DRAM's
		 * bandwidth; 4 images a thread, then 0.5 */
		p[4].problem = (char *)"mb64_ic48oc48_ih16oh16kh1sh1dh0ph0_iw16ow16kw1sw1dw0pw0";
		p[4].flops = 2e9, p[4].bytes = 1e9;
		p[5].problem = (char *)"mb8_ic48oc48_ih16oh16kh1sh1dh0ph0_iw16ow16kw1sw1dw0pw0";
		p[5].flops = 2e9, p[5].bytes = 1e9;
		rt_onednn_tally_init(&syn);
		syn.v = p;
		syn.n = 6;
		syn.execs = 60;
		syn.ms = 600;
		rt_cmd_advise(&a, &syn, &j, 16, &plain, false, NULL);
		is_int((long long)a.n, 4, "a synthetic node: four primitives under the roof with a why");
		l = a.n > 0 ? a.line[0] : "";
		ok(strstr(l, "mb48_ic24") && strstr(l, "at 100 GFLOP/s, 10% of the fp32 ceiling "
						   "(1000 GFLOP/s at 16 threads)") &&
		   strstr(l, "little work a thread: mb48 over 16 threads is 3 images a thread "
			  "(96 output rows a thread)"), "%s", l);
		l = a.n > 1 ? a.line[1] : "";
		ok(strstr(l, "mb64_ic48oc48_ih16oh16kh1") &&
		   strstr(l, "memory-bound: its intensity 2 FLOP/B is under the ridge 10 FLOP/B "
			  "(the fp32 ceiling over DRAM's 100 GB/s), so DRAM bounds it at 200 GFLOP/s"),
		   "%s", l);
		l = a.n > 2 ? a.line[2] : "";
		ok(strstr(l, "mb64_ic48oc48_ih16oh16kh1") && strstr(l, "at 20 GFLOP/s, 2% of") &&
		   strstr(l, ": not memory-bound either: 10% of the 200 GFLOP/s DRAM's 100 GB/s "
			  "allow at its intensity 2 FLOP/B") && !strstr(l, "little work"), "%s", l);
		l = a.n > 3 ? a.line[3] : "";
		ok(strstr(l, "mb8_ic48oc48_ih16oh16kh1") && strstr(l, "not memory-bound either: "
								  "10% of the 200 GFLOP/s") &&
		   strstr(l, "FLOP/B; little work a thread: mb8 over 16 threads is 0.5 images a "
			  "thread (8 output rows a thread)"), "%s", l);
		/* a problem of 4,000 characters (oneDNN 3.x's graph partitions run to hundreds):
		 * the line holds it whole, and its why after it */
		{
			struct rt_buf big;
			char *const keep = p[0].problem;

			rt_buf_init(&big);
			rt_buf_puts(&big, keep);
			while (big.len < 4000)
				rt_buf_puts(&big, "_iw32ow32kw3sw1dw0pw1");
			p[0].problem = big.s;
			rt_cmd_advise(&a, &syn, &j, 16, &plain, false, NULL);
			l = a.n > 0 ? a.line[0] : "";
			ok(strstr(l, big.s) && strlen(l) > big.len + 200 &&
			   strstr(l, "3 images a thread (96 output rows a thread)"),
			   "a problem of %zu characters: the line whole (%zu), its why at its end",
			   big.len, strlen(l));
			p[0].problem = keep;
			rt_buf_fini(&big);
		}
		rt_cmd_advise(&a, &syn, NULL, 16, &plain, false, NULL);
		is_int((long long)a.n, 0, "... without roofs: no line");
		/* roofs of 8 threads held against a run of 16 (its own count's ceilings flagged):
		 * 1500 GFLOP/s is past the 8-thread 1000 but under its 2000 at 16 threads, the
		 * upper bound: possible; 2100 is not */
		{
			struct rt_onednn_prim q = p[2];
			char why[300] = "";

			j.roofs.threads = 8;
			j.scale = 2;
			q.flops = 1500e9 * (q.ms / 1e3 + q.calls * RT_CMD_LOG_GRAIN_S);
			ok(!rt_cmd_prim_impossible(&j, &q, why, sizeof(why)), "roofs of 8 threads for "
			   "a run of 16: 1500 GFLOP/s under their 1000 x 16 / 8, possible (%s)", why);
			q.flops = 2100e9 * (q.ms / 1e3 + q.calls * RT_CMD_LOG_GRAIN_S);
			ok(rt_cmd_prim_impossible(&j, &q, why, sizeof(why)) &&
			   strstr(why, "105% of the fp32 roof (fma, 1000 GFLOP/s at 8 threads x 2 for the "
				  "run's threads = 2000)"), "... 2100 GFLOP/s past it: impossible, "
			   "said (%s)", why);
			j.roofs.threads = 1;
			j.scale = 1;
			ok(rt_cmd_prim_impossible(&j, &q, why, sizeof(why)) &&
			   strstr(why, "GFLOP/s at 1 thread)"), "... against roofs of 1 thread: "
			   "one thread said (%s)", why);
		}
		/* a theoretical peak of 2400 over the measured 1000 (16 threads): 1500 GFLOP/s is
		 * above the measured roof, not impossible (kept, said); 2500 is past the peak */
		{
			struct rt_onednn_prim q = p[2];
			char why[400] = "";

			j.roofs.threads = 16;
			j.scale = 1;
			j.roofs.roof[2] = (struct rt_roof){ .kind = RT_ROOF_FLOPS,
							    .basis = RT_ROOF_THEORETICAL,
							    .precision = "fp32", .level = "",
							    .what = "avx512", .value = 2400 };
			j.roofs.n = 3;
			q.flops = 1500e9 * (q.ms / 1e3 + q.calls * RT_CMD_LOG_GRAIN_S);
			ok(!rt_cmd_prim_impossible(&j, &q, why, sizeof(why)),
			   "1500 GFLOP/s under a theoretical peak of 2400, above the measured 1000: "
			   "not impossible (%s)", why);
			ok(rt_cmd_prim_above_roof(&j, &q, why, sizeof(why)) &&
			   strstr(why, "above the measured roof: at least 1500 GFLOP/s (a microsecond "
				  "more a call), 150% of the fp32 roof (fma, 1000 GFLOP/s at 16 "
				  "threads)"), "... above the measured roof, said (%s)", why);
			q.flops = 2500e9 * (q.ms / 1e3 + q.calls * RT_CMD_LOG_GRAIN_S);
			ok(rt_cmd_prim_impossible(&j, &q, why, sizeof(why)) &&
			   strstr(why, "impossible: at least 2500 GFLOP/s (a microsecond more a call), "
				  "104% of the fp32 theoretical peak (avx512, 2400 GFLOP/s at 16 "
				  "threads)") && !rt_cmd_prim_above_roof(&j, &q, NULL, 0),
			   "... 2500 GFLOP/s past the peak: impossible, the peak named (%s)", why);
			j.roofs.n = 2;
		}
	}
	if (!tally_file(&t, "fp32")) {
		skip("tests/data/pytorch-2.11 is not there");
		return done_testing();
	}
	{
		double ms = 0, act = 0;
		unsigned long calls = 0;
		char want[200];
		const char *l;

		for (size_t i = 0; i < t.n; i++)
			if (!strcmp(t.v[i].kind, "reorder"))
				ms += t.v[i].ms, calls += t.v[i].calls;
		for (size_t i = 0; i < t.nconvs; i++)
			if (rt_cmd_advice_activation_conv(&t, &t.convs[i]))
				act += t.convs[i].ms;
		rt_cmd_advise(&a, &t, NULL, 16, &plain, true, NULL);
		snprintf(want, sizeof(want), "reorders: %.0f%% of oneDNN's time (%.3f of %.3f ms, %lu "
			 "calls)", 100 * ms / t.ms, ms, t.ms, calls);
		l = line_of(&a, "reorders: ");
		ok(l && !strncmp(l, want, strlen(want)), "fp32: %s", l ? l : "no reorders line");
		ok(l && strstr(l, "abcd -> aBcd16b (") &&
		   strcspn(strstr(l, "abcd -> aBcd16b ("), ";") >
		   strcspn(strstr(l, "abcd -> aBcd16b ("), ")"),
		   "... abcd -> aBcd16b among the largest, a conversion (not called a copy)");
		ok(l && strstr(l, "acdb -> acdb (") && strstr(strstr(l, "acdb -> acdb ("),
							      " calls; the same layout and data type: a copy)"),
		   "... acdb -> acdb said to be a copy");
		l = line_of(&a, "layouts: ");
		snprintf(want, sizeof(want), "layouts: %.0f%% of oneDNN's time (%.3f ms,",
			 100 * act / t.ms, act);
		ok(l && !strncmp(l, want, strlen(want)) && strstr(l, "channels_last"),
		   "fp32: %s", l ? l : "no layouts line");
		ok(!line_of(&a, "precision: ") && !line_of(&a, "under the roof: "),
		   "... no bf16 on a CPU without it, no roof without a profile");
		rt_cmd_advise(&a, &t, NULL, 16, &plain, false, NULL);
		l = line_of(&a, "layouts: ");
		ok(l && !strstr(l, "PyTorch") && strstr(l, "channels-last (acdb, NHWC)"),
		   "... not a Python command: PyTorch not named");
		rt_cmd_advise(&a, &t, NULL, 16, &bf16, true, NULL);
		l = line_of(&a, "precision: ");
		ok(l && strstr(l, "avx512_bf16") && strstr(l, "ONEDNN_DEFAULT_FPMATH_MODE=BF16") &&
		   strstr(l, "autocast"), "fp32 on an avx512_bf16 CPU: %s", l ? l : "none");
		rt_cmd_advise(&a, &t, NULL, 16, &amx, false, NULL);
		l = line_of(&a, "precision: ");
		ok(l && strstr(l, "amx_bf16") && !strstr(l, "autocast"),
		   "... on an AMX CPU, not Python: amx_bf16, no autocast");
		rt_onednn_tally_free(&t);
	}
	if (tally_file(&t, "cl")) {
		rt_cmd_advise(&a, &t, NULL, 16, &plain, true, NULL);
		ok(!line_of(&a, "layouts: "), "channels_last: its activations not converted, no "
		   "channels_last advice");
		rt_onednn_tally_free(&t);
	}
	/* autocast bf16 on NCHW tensors: oneDNN's convolutions take bf16 in acdb (NHWC), and the
	 * activations are converted to it; by hand from the log, the 22 reorders
	 * "src:bf16::blocked:abcd::f0 dst:bf16::blocked:acdb::f0", 0.765137 ms in all, are each
	 * on a convolution's source or destination (16x3x32x32, 16x16x16x16, 16x32x16x16,
	 * 16x32x8x8), none on its weights */
	if (tally_file(&t, "autocast")) {
		char want[200];
		const char *l;

		rt_cmd_advise(&a, &t, NULL, 16, &amx, true, NULL);
		l = line_of(&a, "layouts: ");
		snprintf(want, sizeof(want), "layouts: %.0f%% of oneDNN's time (0.765 ms, 22 calls) "
			 "converts activations between plain abcd (NCHW) and acdb (NHWC), the layout "
			 "oneDNN's convolutions took; PyTorch's cure: channels_last",
			 100 * 0.765137 / t.ms);
		ok(l && !strncmp(l, want, strlen(want)), "autocast bf16 on NCHW: %s", l ? l : "none");
		rt_onednn_tally_free(&t);
	}
	if (tally_file(&t, "fpmath-bf16")) {
		double f32 = 0;

		for (size_t i = 0; i < t.n; i++)
			if (t.v[i].counted && t.v[i].flops > 0 && !strcmp(t.v[i].kind, "convolution") &&
			    t.v[i].prec == RT_PRECISION_FP32)
				f32 += t.v[i].ms;
		rt_cmd_advise(&a, &t, NULL, 16, &amx, true, NULL);
		ok((f32 / t.ms >= RT_CMD_ADVICE_FP32_SHARE) == (line_of(&a, "precision: ") != NULL),
		   "fpmath bf16: precision advice only where fp32 math (%.0f%% of the time) takes "
		   "%.0f%% or more", 100 * f32 / t.ms, 100 * RT_CMD_ADVICE_FP32_SHARE);
		/* what the mode did, by hand from the log: its 16 convolution lines, all under
		 * attr-fpmath:bf16, are 8 primitives of 2 calls each, 1.807861 ms in all; the 4 on
		 * avx10_1_512_amx took 72.86% of it in bf16 math, the 4 others (jit:avx512_core,
		 * jit:avx2, jit_1x1:avx512_core, brgconv_strided:avx512_core) fp32 math */
		{
			char line[RT_CMD_FPMATH_LINE];
			const char *want = "fpmath bf16 reached 8 primitives with FLOPs (16 calls, "
					   "1.808 ms of oneDNN's time): bf16 math in 4 (73% of their "
					   "time: ";
			const char *f32s;

			rt_cmd_fpmath_effect(&t, line, sizeof(line));
			f32s = strstr(line, ", fp32 math in 4 (");
			ok(!strncmp(line, want, strlen(want)) && f32s && strstr(f32s, "jit:avx2") &&
			   !strcmp(line + strlen(line) - 6, ", ...)") && !strstr(line, "not told"),
			   "fpmath bf16 on oneDNN 3.10: the primitives it reached and the math each "
			   "ran: %s", line);
		}
		rt_onednn_tally_free(&t);
	}
	if (tally_file(&t, "fp32")) {
		char line[RT_CMD_FPMATH_LINE] = "x";

		rt_cmd_fpmath_effect(&t, line, sizeof(line));
		is_str(line, "", "fpmath: no mode in the log, nothing said");
		rt_onednn_tally_free(&t);
	}
	/* oneDNN 2.6.3 under ONEDNN_DEFAULT_FPMATH_MODE=BF16 (PyTorch 1.13 on this project's
	 * machine): the mode on every convolution, jit:avx512_core's fp32 math in each; and a
	 * reference implementation, whose name does not tell its math */
	{
		struct rt_onednn_prim p[3] = {
			{ .kind = "convolution", .prop = "forward_training", .impl = "jit:avx512_core",
			  .dtype = "f32", .fpmath = "bf16", .counted = true,
			  .prec = RT_PRECISION_FP32, .calls = 11, .ms = 120.5, .flops = 2e10 },
			{ .kind = "convolution", .prop = "backward_data", .impl = "jit:avx512_core",
			  .dtype = "f32", .fpmath = "bf16", .counted = true,
			  .prec = RT_PRECISION_FP32, .calls = 11, .ms = 100.25, .flops = 2e10 },
			{ .kind = "reorder", .impl = "jit:uni", .dtype = "f32", .counted = true,
			  .calls = 22, .ms = 30, .bytes = 1e9 },
		};
		struct rt_onednn_tally v = { .v = p, .n = 3, .version = "v2.6.3", .execs = 44,
					     .ms = 250.75 };
		char line[RT_CMD_FPMATH_LINE];
		const char *l;

		rt_cmd_fpmath_effect(&v, line, sizeof(line));
		is_str(line, "fpmath bf16 reached 2 primitives with FLOPs (22 calls, 220.750 ms of "
		       "oneDNN's time), and oneDNN v2.6.3 ran fp32 math in every one: none of the "
		       "implementations it picked (jit:avx512_core) has bf16 math",
		       "fpmath bf16 on oneDNN 2.6.3: fp32 math in every primitive it reached");
		/* the mode set already: the advice does not recommend it again */
		rt_cmd_advise(&a, &v, NULL, 1, &amx, true, NULL);
		l = line_of(&a, "precision: ");
		ok(l && strstr(l, "88% of oneDNN's time is fp32 math") &&
		   strstr(l, "the run's fpmath mode (bf16) left all of it in fp32 math") &&
		   strstr(l, "torch.autocast") && !strstr(l, "ONEDNN_DEFAULT_FPMATH_MODE") &&
		   !strstr(l, "measure it"), "... the precision advice: the mode is set and left "
		   "the math in fp32; bf16 tensors: %s", l ? l : "none");
		p[0].fpmath[0] = '\0';
		rt_cmd_advise(&a, &v, NULL, 1, &amx, true, NULL);
		l = line_of(&a, "precision: ");
		ok(l && strstr(l, "ONEDNN_DEFAULT_FPMATH_MODE=BF16") && strstr(l, "measure it"),
		   "... the mode on only some of that work: recommended, to measure");
		snprintf(p[0].fpmath, sizeof(p[0].fpmath), "bf16");
		snprintf(p[1].impl, sizeof(p[1].impl), "ref:any");
		p[1].prec = RT_PRECISION_BF16;
		p[1].prec_bound = true;
		rt_cmd_fpmath_effect(&v, line, sizeof(line));
		is_str(line, "fpmath bf16 reached 2 primitives with FLOPs (22 calls, 220.750 ms of "
		       "oneDNN's time): bf16 math in 0, fp32 math in 1 (jit:avx512_core), math not "
		       "told by the implementation's name in 1 (ref:any)",
		       "... one whose implementation does not tell its math: said so");
		/* gemm:jit on an AVX2 node (Zen 3's): fp32 by the log's ISA line, said with it */
		snprintf(p[1].impl, sizeof(p[1].impl), "x64:gemm:jit");
		p[1].prec = RT_PRECISION_FP32;
		p[1].prec_bound = false;
		snprintf(v.isa, sizeof(v.isa), "Intel AVX2");
		rt_cmd_fpmath_effect(&v, line, sizeof(line));
		is_str(line, "fpmath bf16 reached 2 primitives with FLOPs (22 calls, 220.750 ms of "
		       "oneDNN's time), and oneDNN v2.6.3 ran fp32 math in every one: none of the "
		       "implementations it picked (jit:avx512_core, x64:gemm:jit) has bf16 math on "
		       "its ISA (Intel AVX2)", "... on an ISA without bf16 math: the ISA named");
	}
	/* the run measured the mode itself (--sweep fpmath=strict,bf16): the default's log in
	 * fp32 without a mode, the advice says what the mode did in its configuration rather
	 * than that it should be measured; first where it changed no math (oneDNN 2.6.3 here),
	 * then where AMX's bf16 kernel ran one of the two convolutions */
	{
		struct rt_onednn_prim d[2] = {
			{ .kind = "convolution", .prop = "forward_training", .impl = "jit:avx512_core",
			  .dtype = "f32", .counted = true, .prec = RT_PRECISION_FP32, .calls = 11,
			  .ms = 120.5, .flops = 2e10 },
			{ .kind = "convolution", .prop = "backward_data", .impl = "jit:avx512_core",
			  .dtype = "f32", .counted = true, .prec = RT_PRECISION_FP32, .calls = 11,
			  .ms = 100.25, .flops = 2e10 },
		}, m[2];
		struct rt_onednn_tally def = { .v = d, .n = 2, .version = "v2.6.3", .execs = 22,
					       .ms = 250.75 },
				       mt = { .v = m, .n = 2, .version = "v2.6.3", .execs = 22,
					      .ms = 250.75 };
		const struct rt_cmd_mode_run mr = { "fpmath=bf16", &mt };
		const char *l;

		memcpy(m, d, sizeof(m));
		snprintf(m[0].fpmath, sizeof(m[0].fpmath), "bf16");
		snprintf(m[1].fpmath, sizeof(m[1].fpmath), "bf16");
		rt_cmd_advise(&a, &def, NULL, 1, &amx, true, &mr);
		l = line_of(&a, "precision: ");
		ok(l && strstr(l, "88% of oneDNN's time is fp32 math") &&
		   strstr(l, "fpmath bf16, measured in this run (fpmath=bf16), left all of the work "
			  "it reached in fp32 math (none of the implementations oneDNN picked for "
			  "it has bf16 math): bf16 tensors take oneDNN's bf16 kernels "
			  "(torch.autocast('cpu', dtype=torch.bfloat16))") &&
		   !strstr(l, "measure it") && !strstr(l, "ONEDNN_DEFAULT_FPMATH_MODE"),
		   "a mode measured in another configuration that changed no math: said, not "
		   "recommended: %s", l ? l : "none");
		snprintf(m[0].impl, sizeof(m[0].impl), "brg:avx512_core_amx");
		m[0].prec = RT_PRECISION_BF16;
		rt_cmd_advise(&a, &def, NULL, 1, &amx, false, &mr);
		l = line_of(&a, "precision: ");
		/* 120.5 of 220.75 ms: 54.6% */
		ok(l && strstr(l, "fpmath bf16, measured in this run (fpmath=bf16), ran bf16 math in "
			       "55% of the time of the work it reached: that configuration's row "
			       "against the default's says what it gained") &&
		   !strstr(l, "measure it") && !strstr(l, "autocast"),
		   "... one that ran bf16 math in part of it: its share by time: %s", l ? l : "none");
		rt_cmd_advise(&a, &def, NULL, 1, &amx, true, &mr);
		l = line_of(&a, "precision: ");
		ok(l && strstr(l, "55% of the time of the work it reached: that configuration's row "
			       "against the default's says what it gained; torch.autocast('cpu', "
			       "dtype=torch.bfloat16) with bf16 tensors takes bf16 kernels for the "
			       "rest"), "... and for a Python command, autocast for the rest");
		m[1].prec = RT_PRECISION_BF16;
		snprintf(m[1].impl, sizeof(m[1].impl), "brg:avx512_core_amx");
		rt_cmd_advise(&a, &def, NULL, 1, &amx, true, &mr);
		l = line_of(&a, "precision: ");
		ok(l && strstr(l, "ran bf16 math in 100% of the time") && !strstr(l, "for the rest"),
		   "... all of it: nothing left to autocast named");
	}
	rt_cmd_advice_free(&a);
	return done_testing();
}
