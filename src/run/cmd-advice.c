/* cmd-advice.c: advice from the roof on a command's oneDNN log: each line with the evidence the
 * log (and the node) shows for it, none without */
#include "config.h"
#include "run/cmd-results.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* oneDNN's blocked layout of activations: only the channels blocked ("aBcd16b", "aBcde8b");
 * weights block their output channels too ("Acdb16a", "ABcd16b16a", "aBCde8c8b") */
static bool data_blocked(const char *tag)
{
	size_t i = 2;

	if (tag[0] != 'a' || tag[1] != 'B')
		return false;
	while (tag[i] >= 'c' && tag[i] <= 'z')
		i++;
	if (i < 4 || tag[i] < '1' || tag[i] > '9')
		return false;
	while (tag[i] >= '0' && tag[i] <= '9')
		i++;
	return tag[i] == 'b' && (!tag[i + 1] || tag[i + 1] == ' ');
}

/* Whether a conversion's layout (its data type may follow it after a space) is the 4-D or the
 * 5-D one named: nchw "abcd" or "abcde", nhwc "acdb" or "acdeb". */
static bool layout_is(const char *tag, const char *four, const char *five)
{
	const size_t n = strcspn(tag, " ");

	return (n == 4 && !strncmp(tag, four, 4)) || (n == 5 && !strncmp(tag, five, 5));
}

/* NCHW's plain layout, and NCDHW's */
static bool nchw(const char *tag)
{
	return layout_is(tag, "abcd", "abcde");
}

/* NHWC's layout, and NDHWC's */
static bool nhwc(const char *tag)
{
	return layout_is(tag, "acdb", "acdeb");
}

bool rt_cmd_advice_activation_conv(const struct rt_onednn_tally *t,
				   const struct rt_onednn_conv *c)
{
	if ((nchw(c->from) && data_blocked(c->to)) || (data_blocked(c->from) && nchw(c->to)))
		return true;
	/* NHWC is a layout of weights too (OHWI): only a convolution's source or destination */
	if (!(nchw(c->from) && nhwc(c->to)) && !(nhwc(c->from) && nchw(c->to)))
		return false;
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].kind, "convolution") && t->v[i].problem &&
		    rt_onednn_conv_activation(t->v[i].problem, c->dims))
			return true;
	return false;
}

static int cmp_conv_ms(const void *a, const void *b)
{
	const struct rt_onednn_conv *x = *(const struct rt_onednn_conv *const *)a;
	const struct rt_onednn_conv *y = *(const struct rt_onednn_conv *const *)b;

	return x->ms < y->ms ? 1 : x->ms > y->ms ? -1 : strcmp(x->from, y->from);
}

/* The ceiling a precision's work is held against (rt_roofs_ceiling: the one the summary's
 * primitives are judged by), or NULL. */
static const struct rt_roof *flop_roof(const struct rt_cmd_judgement *j, const char *prec)
{
	return j && j->have_roofs ? rt_roofs_ceiling(&j->roofs, prec) : NULL;
}

/* Whether a has room for a line */
static bool add(const struct rt_cmd_advice *a)
{
	return a->n < RT_CMD_ADVICE_MAX;
}

/* b's text as a's next line (b empty again); dropped where building it ran out of memory */
static void put(struct rt_cmd_advice *a, struct rt_buf *b)
{
	if (!b->failed && b->cap && a->n < RT_CMD_ADVICE_MAX) {
		a->line[a->n++] = b->s;
		rt_buf_init(b);
	}
	rt_buf_fini(b);
}

/* the reorders' share and what the largest did, and channels_last where PyTorch's NCHW
 * activations are converted to oneDNN's blocked layout or to NHWC and back */
static void reorders(struct rt_cmd_advice *a, const struct rt_onednn_tally *t, bool python)
{
	struct rt_onednn_conv m[RT_ONEDNN_MAX_CONVS];   /* the conversions, of any shape */
	const struct rt_onednn_conv *v[RT_ONEDNN_MAX_CONVS];
	double ms = 0, act_ms = 0;
	unsigned long calls = 0, act_calls = 0;
	size_t n = 0;
	const struct rt_onednn_conv *act = NULL;
	const char *side;
	struct rt_buf b;

	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].kind, "reorder")) {
			ms += t->v[i].ms;
			calls += t->v[i].calls;
		}
	if (t->ms <= 0 || ms / t->ms < RT_CMD_ADVICE_REORDER_SHARE || !add(a))
		return;
	rt_buf_init(&b);
	for (size_t i = 0; i < t->nconvs; i++) {
		const struct rt_onednn_conv *c = &t->convs[i];
		size_t k = 0;

		while (k < n && (strcmp(m[k].from, c->from) || strcmp(m[k].to, c->to)))
			k++;
		if (k == n) {
			m[n] = *c;
			m[n].calls = 0;
			m[n++].ms = 0;
		}
		m[k].calls += c->calls;
		m[k].ms += c->ms;
		if (rt_cmd_advice_activation_conv(t, c)) {
			act_ms += c->ms;
			act_calls += c->calls;
			if (!act || c->ms > act->ms)
				act = c;
		}
	}
	for (size_t k = 0; k < n; k++)
		v[k] = &m[k];
	qsort(v, n, sizeof(v[0]), cmp_conv_ms);
	rt_buf_printf(&b, "reorders: %.0f%% of oneDNN's time (%.3f of %.3f ms, %lu calls), the "
		      "largest", 100 * ms / t->ms, ms, t->ms, calls);
	for (size_t i = 0; i < n && i < 4; i++)
		rt_buf_printf(&b, "%s %s -> %s (%.3f ms, %lu calls%s)", i ? "," : ":", v[i]->from,
			      v[i]->to, v[i]->ms, v[i]->calls, strcmp(v[i]->from, v[i]->to) ? "" :
			      "; the same layout and data type: a copy");
	if (!n)
		rt_buf_puts(&b, ": not said by the log");
	put(a, &b);
	if (!act || act_ms / t->ms < RT_CMD_ADVICE_ACTIVATION_SHARE || !add(a))
		return;
	side = nchw(act->from) ? act->to : act->from;
	rt_buf_printf(&b, "layouts: %.0f%% of oneDNN's time (%.3f ms, %lu calls) converts "
		      "activations between plain %.*s (NCHW) and %s%.*s%s; %s",
		      100 * act_ms / t->ms, act_ms, act_calls,
		      (int)strcspn(nchw(act->from) ? act->from : act->to, " "),
		      nchw(act->from) ? act->from : act->to,
		      data_blocked(side) ? "oneDNN's blocked " : "", (int)strcspn(side, " "), side,
		      data_blocked(side) ? "" : " (NHWC), the layout oneDNN's convolutions took",
		      python ? "PyTorch's cure: channels_last (model and inputs .to(memory_format="
		      "torch.channels_last)), acdb (NHWC) that oneDNN's convolutions take as it is" :
		      "tensors kept channels-last (acdb, NHWC) are taken as they are");
	put(a, &b);
}

/* the heaviest primitives far under their precision's ceiling, where the log shows why */
static void under_roof(struct rt_cmd_advice *a, const struct rt_onednn_tally *t,
		       const struct rt_cmd_judgement *j, unsigned threads)
{
	struct rt_buf b;

	if (!j || !j->have_roofs || j->log_impossible)
		return;
	for (size_t i = 0; i < t->n && i < 8; i++) {
		const struct rt_onednn_prim *p = &t->v[i];
		const struct rt_roof *c = rt_cmd_prim_roof(j, p);
		struct rt_roof_bound rb;
		bool under;
		double gf, in;
		long mb, oh;
		char why[400] = "";

		if (!c || !p->counted || p->flops <= 0 || p->ms <= 0 || p->bytes <= 0 ||
		    p->ms / t->ms < RT_CMD_ADVICE_PRIM_SHARE ||
		    rt_cmd_prim_impossible(j, p, NULL, 0))
			continue;
		gf = p->flops / (p->ms / 1e3) / 1e9;
		if (gf >= RT_CMD_ADVICE_FAR * c->value)
			continue;
		in = p->flops / p->bytes;
		/* under the ridge of its ceiling and DRAM's bandwidth */
		under = !rt_roofs_bound(&j->roofs, c, "DRAM", p->bytes, in, &rb) && rb.memory_bound;
		rt_onednn_problem_mb_oh(p->problem, &mb, &oh);
		/* under the ridge and near what DRAM allows at its intensity: memory-bound; far
		 * under that too, DRAM's bandwidth is not what holds it back: said so */
		if (under && gf >= RT_CMD_ADVICE_FAR * rb.attainable)
			snprintf(why, sizeof(why), "memory-bound: its intensity %.3g FLOP/B is "
				 "under the ridge %.3g FLOP/B (the %s ceiling over DRAM's %.4g "
				 "GB/s), so DRAM bounds it at %.4g GFLOP/s", in, rb.ridge,
				 c->precision, rb.bandwidth->value, rb.attainable);
		else if (under)
			snprintf(why, sizeof(why), "not memory-bound either: %.0f%% of the %.4g "
				 "GFLOP/s DRAM's %.4g GB/s allow at its intensity %.3g FLOP/B",
				 100 * gf / rb.attainable, rb.attainable, rb.bandwidth->value, in);
		if (strncmp(why, "memory", 6) && mb > 0 && threads > 0 &&
		    (double)mb / threads < RT_CMD_ADVICE_IMAGES_THREAD) {
			char rows[64] = "";

			if (oh > 0)
				snprintf(rows, sizeof(rows), " (%.3g output rows a thread)",
					 (double)(mb * oh) / threads);
			snprintf(why + strlen(why), sizeof(why) - strlen(why), "%slittle work a "
				 "thread: mb%ld over %u threads is %.3g images a thread%s",
				 why[0] ? "; " : "", mb, threads, (double)mb / threads, rows);
		}
		if (!why[0] || !add(a))
			continue;
		rt_buf_init(&b);
		rt_buf_printf(&b, "under the roof: %s %s %s at %.4g GFLOP/s, %.0f%% of the %s "
			      "ceiling (%.4g GFLOP/s at %u thread%s), %.0f%% of oneDNN's time: %s",
			      p->kind, p->prop, p->problem, gf, 100 * gf / c->value, c->precision,
			      c->value, j->roofs.threads, j->roofs.threads == 1 ? "" : "s",
			      100 * p->ms / t->ms, why);
		put(a, &b);
	}
}

/* Whether p is work a lower fpmath mode reached (the tally keeps a mode only on f32 work whose
 * math it can change), and the math it ran: 0 the lower, 1 fp32, 2 not told by its name */
static bool moded(const struct rt_onednn_prim *p)
{
	return p->fpmath[0] && p->counted && p->flops > 0 && !strcmp(p->dtype, "f32");
}

static int math_of(const struct rt_onednn_prim *p)
{
	return p->prec_bound ? 2 : p->prec != RT_PRECISION_FP32 ? 0 : 1;
}

/* The time of t's work a lower fpmath mode reached (ms), of it the time that ran the lower
 * math into *low, the mode into mode ("" when none reached any) */
static double moded_ms(const struct rt_onednn_tally *t, double *low, char *mode, size_t size)
{
	double ms = 0;

	*low = 0;
	mode[0] = '\0';
	for (size_t i = 0; i < t->n; i++)
		if (moded(&t->v[i])) {
			if (!mode[0])
				snprintf(mode, size, "%s", t->v[i].fpmath);
			ms += t->v[i].ms;
			*low += math_of(&t->v[i]) == 0 ? t->v[i].ms : 0;
		}
	return ms;
}

/* the lower math precision the node has instructions for, where fp32 math takes the time */
static void precision(struct rt_cmd_advice *a, const struct rt_onednn_tally *t,
		      const struct rt_cmd_judgement *j, const struct rt_cpu *cpu, bool python,
		      const struct rt_cmd_mode_run *m)
{
	static const char torch_bf16[] = "torch.autocast('cpu', dtype=torch.bfloat16)";
	const char *isa = rt_cpu_bf16_flag(cpu);
	const struct rt_roof *f32 = flop_roof(j, "fp32"), *bf16 = flop_roof(j, "bf16");
	double ms = 0, set_ms = 0;
	char roofs[200] = "", mode[12] = "", cure[64] = "";
	struct rt_buf b;

	if (!isa || t->ms <= 0)
		return;
	for (size_t i = 0; i < t->n; i++) {
		const struct rt_onednn_prim *p = &t->v[i];

		/* the kinds whose math an fpmath mode changes */
		if (p->counted && p->flops > 0 && !strcmp(p->dtype, "f32") &&
		    p->prec == RT_PRECISION_FP32 &&
		    (!strcmp(p->kind, "convolution") || !strcmp(p->kind, "deconvolution") ||
		     !strcmp(p->kind, "inner_product") || !strcmp(p->kind, "matmul"))) {
			ms += p->ms;
			/* ... in fp32 though the run set a lower mode on it */
			if (p->fpmath[0]) {
				set_ms += p->ms;
				snprintf(mode, sizeof(mode), "%s", p->fpmath);
			}
		}
	}
	if (ms / t->ms < RT_CMD_ADVICE_FP32_SHARE || !add(a))
		return;
	if (f32 && bf16 && bf16->value > f32->value)
		snprintf(roofs, sizeof(roofs), ": its bf16 ceiling %.4g GFLOP/s (%s) against "
			 "fp32's %.4g (%s) at %u thread%s", bf16->value, bf16->what, f32->value,
			 f32->what, j->roofs.threads, j->roofs.threads == 1 ? "" : "s");
	if (python)             /* PyTorch's way to bf16 tensors, after "bf16 kernels" */
		snprintf(cure, sizeof(cure), " (%s)", torch_bf16);
	rt_buf_init(&b);
	rt_buf_printf(&b, "precision: %.0f%% of oneDNN's time is fp32 math on f32 tensors and this "
		      "CPU has %s%s: bf16 math would lift the roof; ", 100 * ms / t->ms, isa, roofs);
	if (set_ms >= ms) {     /* the mode is set already: recommending it is no advice */
		rt_buf_printf(&b, "the run's fpmath mode (%s) left all of it in fp32 math (none of "
			      "the implementations oneDNN picked for it has bf16 math): bf16 tensors "
			      "take oneDNN's bf16 kernels%s", mode, cure);
	} else if (m && m->t) {
		/* the run measured a mode: what it did, not a recommendation to measure it */
		double low, mm;
		char mmode[12];
		const char *math;

		mm = moded_ms(m->t, &low, mmode, sizeof(mmode));
		math = strcmp(mmode, "any") ? mmode : "lower-precision";
		if (mm <= 0) {
			rt_buf_printf(&b, "this run's configuration %s set a lower fpmath mode, and "
				      "its log shows it on none of this work: oneDNN ran without it (a "
				      "oneDNN that reads no such variable, or a program that sets the "
				      "math itself)", m->config);
			if (python)
				rt_buf_printf(&b, "; bf16 tensors take oneDNN's bf16 kernels%s", cure);
		} else if (low <= 0) {
			rt_buf_printf(&b, "fpmath %s, measured in this run (%s), left all of the "
				      "work it reached in fp32 math (none of the implementations "
				      "oneDNN picked for it has %s math): bf16 tensors take oneDNN's "
				      "bf16 kernels%s", mmode, m->config, math, cure);
		} else {
			rt_buf_printf(&b, "fpmath %s, measured in this run (%s), ran %s math in "
				      "%.0f%% of the time of the work it reached: that "
				      "configuration's row against the default's says what it gained",
				      mmode, m->config, math, 100 * low / mm);
			if (low < mm && python)
				rt_buf_printf(&b, "; %s with bf16 tensors takes bf16 kernels for the "
					      "rest", torch_bf16);
		}
	} else {
		rt_buf_printf(&b, "ONEDNN_DEFAULT_FPMATH_MODE=BF16 lets oneDNN use it where an "
			      "implementation has bf16 instructions");
		if (python)
			rt_buf_printf(&b, ", %s with bf16 tensors", torch_bf16);
		rt_buf_puts(&b, " (measure it: --sweep fpmath=strict,bf16)");
	}
	put(a, &b);
}

void rt_cmd_advise(struct rt_cmd_advice *a, const struct rt_onednn_tally *t,
		   const struct rt_cmd_judgement *j, unsigned threads, const struct rt_cpu *cpu,
		   bool python, const struct rt_cmd_mode_run *measured)
{
	rt_cmd_advice_free(a);
	if (!t->execs || (j && j->over_wall))
		return;
	reorders(a, t, python);
	under_roof(a, t, j, threads);
	precision(a, t, j, cpu, python, measured);
}

void rt_cmd_advice_free(struct rt_cmd_advice *a)
{
	for (size_t k = 0; k < a->n; k++)
		free(a->line[k]);
	a->n = 0;
}


void rt_cmd_fpmath_effect(const struct rt_onednn_tally *t, char *line, size_t size)
{
	size_t n = 0, count[3] = { 0, 0, 0 };
	unsigned names[3] = { 0, 0, 0 };
	unsigned long calls = 0;
	double ms = 0, low_ms = 0;
	char mode[12] = "", l[3][240] = { "", "", "" };     /* 3 names of 63 at most, ", ..." */

	line[0] = '\0';
	for (size_t i = 0; i < t->n; i++) {
		const struct rt_onednn_prim *p = &t->v[i];
		const int k = math_of(p);
		size_t j = 0;

		if (!moded(p))
			continue;
		if (!mode[0])
			snprintf(mode, sizeof(mode), "%s", p->fpmath);
		n++;
		count[k]++;
		calls += p->calls;
		ms += p->ms;
		low_ms += k == 0 ? p->ms : 0;
		/* its implementation named once in its math's list, up to 3, then "..." */
		while (j < i && !(moded(&t->v[j]) && math_of(&t->v[j]) == k &&
				  !strcmp(t->v[j].impl, p->impl)))
			j++;
		if (j < i || names[k] > 3)
			continue;
		snprintf(l[k] + strlen(l[k]), sizeof(l[k]) - strlen(l[k]), "%s%s",
			 names[k] ? ", " : "", names[k] == 3 ? "..." : p->impl);
		names[k]++;
	}
	if (!n)
		return;
	if (!count[0] && !count[2]) {
		/* an implementation naming no ISA ran fp32 there (rt_onednn_tally_line) */
		const bool poor = t->isa[0] && !rt_onednn_isa_has(t->isa, strcasecmp(mode, "f16") ?
								  RT_PRECISION_BF16 :
								  RT_PRECISION_FP16);

		snprintf(line, size, "fpmath %s reached %zu primitive%s with FLOPs (%lu calls, %.3f "
			 "ms of oneDNN's time), and oneDNN%s%s ran fp32 math in every one: none of "
			 "the implementations it picked (%s) has %s math%s%s%s", mode, n,
			 n == 1 ? "" : "s", calls, ms, t->version[0] ? " " : "", t->version, l[1],
			 strcmp(mode, "any") ? mode : "lower-precision", poor ? " on its ISA (" : "",
			 poor ? t->isa : "", poor ? ")" : "");
		return;
	}
	{
		size_t len = (size_t)snprintf(line, size, "fpmath %s reached %zu primitive%s with "
					      "FLOPs (%lu calls, %.3f ms of oneDNN's time): %s "
					      "math in %zu", mode, n, n == 1 ? "" : "s", calls, ms,
					      strcmp(mode, "any") ? mode : "lower", count[0]);

		if (count[0] && len < size)
			len += (size_t)snprintf(line + len, size - len, " (%.0f%% of their time: %s)",
						ms > 0 ? 100 * low_ms / ms : 0, l[0]);
		if (count[1] && len < size)
			len += (size_t)snprintf(line + len, size - len, ", fp32 math in %zu (%s)",
						count[1], l[1]);
		if (count[2] && len < size)
			snprintf(line + len, size - len, ", math not told by the implementation's "
				 "name in %zu (%s)", count[2], l[2]);
	}
}
