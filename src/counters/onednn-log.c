/* onednn-log.c: oneDNN's verbose lines read as exact FLOPs and compulsory bytes.
 *
 * A line is "MARKER[,v1],FIELDS..." where MARKER is onednn_verbose (dnnl_verbose before
 * oneDNN 2.0). oneDNN 2.x prints the fields operation, engine, primitive, implementation,
 * prop_kind, memory_descriptors, attributes, auxiliary, problem_desc, exec_time, and names them
 * in an "info,prim_template:" header; 3.x adds "v1" and an event class ("primitive") before the
 * operation, a timestamp first when ONEDNN_VERBOSE_TIMESTAMP=1, and writes a memory descriptor
 * "src:f32::blocked:acdb::f0" where 2.x wrote "src_f32::blocked:acdb:f0". The problem is
 * benchdnn's descriptor: "mb8_ic3oc64_ih32oh32kh3sh1dh0ph1_iw32ow32kw3sw1dw0pw1" for a
 * convolution, dimensions "8x64x32x32" (":"-separated per input) for most others.
 *
 * The counting rules (FLOPs per execution; bytes: each tensor the primitive reads or writes,
 * once, in its data type) are the trainer's, one function for both (cnn/model.h's
 * rt_prim_count, cnn/README): a convolution's taps on the padding are not work, groups and
 * dilation honoured, + 1 per output for a bias and for each post-op; a matmul is an inner
 * product of batch x M rows (3.x writes "src:wei" dimensions, the output's following from
 * them, 2.x "src:wei:dst"); binary and sum are 1 per element and input past the first (a sum's
 * problem is its output, 2.x and 3.x: the inputs are its source descriptors); layer
 * normalization is batch normalization's; reorder, concat: no FLOPs, their bytes
 * (pure-bandwidth points); any other kind: its time, no FLOPs ("counted" false). A graph
 * partition: a MatMul as matmul, + 1 per output for each element-wise op after it (its K from
 * the first input's two last dimensions over the output's M: a transposed input has the same
 * product); type casts, reorders, reshapes and transposes alone move bytes; any other
 * partition (a convolution's strides and padding are not printed): its time, no FLOPs
 *
 * The math's precision: the source's data type; f32 tensors under an fpmath attribute of a
 * lower precision ("attr-fpmath:bf16" in 3.x, "attr-fpmath_mode:fpmath_mode_bf16" in 2.x,
 * "fpm:bf16" in a graph line) run that precision only where the implementation's ISA has its
 * instructions: an AMX or bf16 ISA in the name (brg_conv_fwd:avx10_1_512_amx) did, an ISA with
 * fp32 FMAs only (jit:avx512_core, brgemm:avx2: Debian's oneDNN 2.6 prints the attribute and
 * keeps these kernels) did not, and a name without an ISA (ref:any, gemm:jit) does not tell:
 * the highest precision it allows, prec_bound set, unless the log's ISA line names an ISA
 * without that math (Intel AVX2: fp32, rt_onednn_tally_line). Kinds whose math the attribute
 * does not change (reorders, element-wise, pooling, normalization) keep their data type's.
 */
#include "config.h"
#include "counters/onednn-log.h"
#include "cnn/model.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_TOKENS 24

/* 2.x's fields after the marker when no header names them */
static const char *const default_fields[] = { "operation", "engine", "primitive",
					      "implementation", "prop_kind",
					      "memory_descriptors", "attributes", "auxiliary",
					      "problem_desc", "exec_time" };

/* 3.x's graph fields (the "graph,info,template:" header of oneDNN 3.10) */
static const char *const default_gfields[] = { "operation", "engine", "partition_id",
					       "partition_kind", "op_names", "data_formats",
					       "logical_tensors", "fpmath_mode", "implementation",
					       "backend", "exec_time" };

void rt_onednn_reader_init(struct rt_onednn_reader *r)
{
	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < sizeof(default_fields) / sizeof(default_fields[0]); i++)
		snprintf(r->fields[i], sizeof(r->fields[i]), "%s", default_fields[i]);
	r->nfields = sizeof(default_fields) / sizeof(default_fields[0]);
	for (size_t i = 0; i < sizeof(default_gfields) / sizeof(default_gfields[0]); i++)
		snprintf(r->gfields[i], sizeof(r->gfields[i]), "%s", default_gfields[i]);
	r->ngfields = sizeof(default_gfields) / sizeof(default_gfields[0]);
	rt_buf_init(&r->line);
	rt_buf_init(&r->problem);
}

void rt_onednn_reader_fini(struct rt_onednn_reader *r)
{
	rt_buf_fini(&r->line);
	rt_buf_fini(&r->problem);
}

static int index_in(const char (*fields)[24], size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(fields[i], name))
			return (int)i;
	return -1;
}

static int field_index(const struct rt_onednn_reader *r, const char *name)
{
	return index_in(r->fields, r->nfields, name);
}

static bool is_number(const char *s)
{
	char *end;

	if (!*s)
		return false;
	strtod(s, &end);
	return !*end;
}

/* Bytes of one element of a oneDNN data type; 0 for undef or one not known. */
static double dt_size(const char *dt)
{
	static const struct { const char *name; double size; } t[] = {
		{ "f32", 4 }, { "bf16", 2 }, { "f16", 2 }, { "s8", 1 }, { "u8", 1 },
		{ "s32", 4 }, { "f64", 8 }, { "f8_e5m2", 1 }, { "f8_e4m3", 1 }, { "s4", 0.5 },
		{ "u4", 0.5 }, { "boolean", 1 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(dt, t[i].name))
			return t[i].size;
	return 0;
}

/* The precision of the math on oneDNN's data type dt (its own names: f64, f32, bf16, f16, s8,
 * u8); fp32 for any other. */
static enum rt_precision dt_prec(const char *dt)
{
	static const struct { const char *dt; enum rt_precision p; } t[] = {
		{ "f64", RT_PRECISION_FP64 }, { "bf16", RT_PRECISION_BF16 },
		{ "f16", RT_PRECISION_FP16 }, { "s8", RT_PRECISION_INT8 }, { "u8", RT_PRECISION_INT8 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(dt, t[i].dt))
			return t[i].p;
	return RT_PRECISION_FP32;
}

/* The fpmath mode of the attributes ("attr-fpmath:bf16", "attr-fpmath:bf16:true" in 3.x,
 * "attr-fpmath_mode:fpmath_mode_bf16" in 2.x) into mode; "" for none or strict. */
static void fpmath_of(const char *attrs, char *mode, size_t size)
{
	const char *p = strstr(attrs, "attr-fpmath_mode:fpmath_mode_");
	size_t n;

	if (p)
		p += strlen("attr-fpmath_mode:fpmath_mode_");
	else if ((p = strstr(attrs, "attr-fpmath:")))
		p += strlen("attr-fpmath:");
	else if (!strncmp(attrs, "fpm:", 4))    /* a graph line's field */
		p = attrs + 4;
	n = p ? strcspn(p, ": ") : 0;
	snprintf(mode, size, "%.*s", (int)n, p ? p : "");
	if (!strcmp(mode, "strict"))
		mode[0] = '\0';
}

/* What an implementation's ISA (the word after ':' of each '+'-joined part:
 * "brg_conv_bwd:avx10_1_512_amx+brg_conv_fwd:avx10_1_512_amx") says of math in precision
 * prec (bf16, fp16): 1 some part has its instructions (AMX, a bf16 or fp16 ISA, AVX10),
 * 0 every part is of an ISA with fp32 FMAs only, -1 a part names no ISA (ref:any, gemm:jit). */
static int isa_has(const char *impl, enum rt_precision prec)
{
	static const char *const fp32_only[] = { "sse41", "avx", "avx2", "avx2_vnni",
						 "avx512_core", "avx512_core_vnni",
						 "avx512_common", "avx512_mic", "avx512_mic_4ops" };
	int verdict = 0;

	for (const char *p = impl; *p;) {
		const size_t len = strcspn(p, "+");
		char part[64], *isa;
		bool known = false;

		snprintf(part, sizeof(part), "%.*s", (int)(len < 63 ? len : 63), p);
		isa = strrchr(part, ':');
		isa = isa ? isa + 1 : part;
		if (strstr(isa, "amx") || strstr(isa, "avx10") ||
		    strstr(isa, prec == RT_PRECISION_BF16 ? "bf16" : "fp16") || !strcmp(isa, "avx2_vnni_2"))
			return 1;
		for (size_t i = 0; i < sizeof(fp32_only) / sizeof(fp32_only[0]); i++)
			known |= !strcmp(isa, fp32_only[i]);
		if (!known)
			verdict = -1;
		p += len;
		if (*p == '+')
			p++;
	}
	return verdict;
}

enum rt_precision rt_onednn_f32_math(const char *fpmath, const char *impl, bool *bound)
{
	enum rt_precision low = RT_PRECISION_FP32;

	*bound = false;
	if (fpmath && (!strcasecmp(fpmath, "bf16") || !strcasecmp(fpmath, "any")))
		low = RT_PRECISION_BF16;
	else if (fpmath && !strcasecmp(fpmath, "f16"))
		low = RT_PRECISION_FP16;
	if (low == RT_PRECISION_FP32)
		return low;
	switch (isa_has(impl ? impl : "", low)) {
	case 1:
		return low;
	case -1:
		*bound = true;
		return low;
	default:
		return RT_PRECISION_FP32;
	}
}

/* The precision of e's math (e->dtype, e->fpmath, e->impl read), prec_bound when the log does
 * not tell it. */
static void math_prec(struct rt_onednn_exec *e)
{
	const bool lowers = !strcmp(e->kind, "convolution") || !strcmp(e->kind, "deconvolution") ||
			    !strcmp(e->kind, "inner_product") || !strcmp(e->kind, "matmul") ||
			    !strcmp(e->kind, "rnn") || !strcmp(e->kind, "graph");

	e->prec = dt_prec(e->dtype);
	e->prec_bound = false;
	if (!lowers)
		e->fpmath[0] = '\0';   /* the attribute does not change this kind's math */
	/* only f32 tensors are lowered (fp32 where the mode is not a lower one); tf32 is no
	 * CPU's math */
	if (!lowers || strcmp(e->dtype, "f32"))
		return;
	e->prec = rt_onednn_f32_math(e->fpmath, e->impl, &e->prec_bound);
}

/* The memory descriptors: each argument's name ("src", "wei", "bia", "dst", "ws", "data"
 * and "diff" for eltwise; a "diff_" prefix dropped) and data type, the first max of them kept;
 * *nsrc counts the sources among all of them. */
struct md {
	char arg[16], dt[12];
};

static size_t read_mds(char *s, struct md *mds, size_t max, size_t *nsrc)
{
	size_t n = 0;

	*nsrc = 0;
	for (char *save = NULL, *tok = strtok_r(s, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		char *colon = strchr(tok, ':'), *us;
		const char *arg = tok, *dt;

		if (!colon)
			continue;
		*colon = '\0';
		us = strrchr(tok, '_');
		if (us && dt_size(us + 1) > 0) {        /* 2.x: src_f32::... */
			*us = '\0';
			dt = us + 1;
		} else if (us && !strcmp(us + 1, "undef")) {
			*us = '\0';
			dt = "undef";
		} else {                                /* 3.5: src:f32::... */
			char *c2;

			dt = colon + 1;
			c2 = strchr(colon + 1, ':');
			if (c2)
				*c2 = '\0';
		}
		if (!strncmp(arg, "diff_", 5))
			arg += 5;
		*nsrc += !strcmp(arg, "src");
		if (n == max)
			continue;       /* counted, not kept (a sum of many inputs) */
		snprintf(mds[n].arg, sizeof(mds[n].arg), "%s", arg);
		snprintf(mds[n].dt, sizeof(mds[n].dt), "%s", dt);
		n++;
	}
	return n;
}

static const struct md *md_of(const struct md *mds, size_t n, const char *arg)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(mds[i].arg, arg) && dt_size(mds[i].dt) > 0)
			return &mds[i];
	return NULL;
}

static double md_size(const struct md *mds, size_t n, const char *arg)
{
	const struct md *m = md_of(mds, n, arg);

	return m ? dt_size(m->dt) : 0;
}

/* benchdnn's convolution, pooling and inner-product descriptor as keyed numbers. */
struct desc {
	struct rt_prim x;       /* g, mb, ic, oc; i, o, k, s, d, p: depth, height, width */
	bool has_o[3], has_i[3];
};

static bool read_desc(const char *s, struct desc *q, char *why, size_t wsize)
{
	static const char *const dims = "dhw";

	memset(q, 0, sizeof(*q));
	q->x.g = 1;
	for (int a = 0; a < 3; a++)
		q->x.i[a] = q->x.o[a] = q->x.k[a] = q->x.s[a] = 1;
	while (*s) {
		char key[4];
		size_t kl = 0;
		char *end;
		long v;

		if (*s == '_') {
			s++;
			continue;
		}
		if (*s == 'n')          /* a name: n"..." ends the numbers */
			break;
		while (isalpha((unsigned char)*s) && kl < 3)
			key[kl++] = *s++;
		key[kl] = '\0';
		if (!kl || !isdigit((unsigned char)*s)) {
			snprintf(why, wsize, "problem '%.40s': not a descriptor", s);
			return false;
		}
		v = strtol(s, &end, 10);
		if (v < 0 || v > (1L << 40)) {
			snprintf(why, wsize, "problem: %s%ld out of range", key, v);
			return false;
		}
		s = end;
		if (!strcmp(key, "g"))
			q->x.g = v;
		else if (!strcmp(key, "mb"))
			q->x.mb = v;
		else if (!strcmp(key, "ic"))
			q->x.ic = v;
		else if (!strcmp(key, "oc"))
			q->x.oc = v;
		else if (kl == 2 && strchr(dims, key[1]) && strchr("iokspd", key[0])) {
			const int a = (int)(strchr(dims, key[1]) - dims);

			switch (key[0]) {
			case 'i': q->x.i[a] = v; q->has_i[a] = true; break;
			case 'o': q->x.o[a] = v; q->has_o[a] = true; break;
			case 'k': q->x.k[a] = v; break;
			case 's': q->x.s[a] = v; break;
			case 'd': q->x.d[a] = v; break;
			case 'p': q->x.p[a] = v; break;
			}
		}
		/* other keys (the right padding "rh" of newer descriptors...) do not count */
	}
	if (q->x.mb < 1 || q->x.ic < 1 || q->x.g < 1) {
		snprintf(why, wsize, "problem: no minibatch or channels");
		return false;
	}
	/* sizes a problem can have (the taps are counted over output x kernel positions) */
	for (int a = 0; a < 3; a++)
		if (q->x.s[a] < 1 || q->x.k[a] < 1 || q->x.i[a] > (1L << 24) || q->x.o[a] > (1L << 24) ||
		    q->x.k[a] > (1L << 16) || q->x.d[a] > (1L << 16) || q->x.p[a] > (1L << 24) ||
		    q->x.o[a] * q->x.k[a] > (1L << 22) || (q->x.i[a] + 2 * q->x.p[a]) * q->x.k[a] > (1L << 40)) {
			snprintf(why, wsize, "problem: a %c size, stride or kernel out of range",
				 "dhw"[a]);
			return false;
		}
	return true;
}

void rt_onednn_problem_mb_oh(const char *problem, long *mb, long *oh)
{
	struct desc q;
	char why[96];

	*mb = *oh = -1;
	if (!read_desc(problem, &q, why, sizeof(why)))
		return;
	*mb = (long)q.x.mb;
	if (q.has_o[1])
		*oh = q.x.o[1];
}

bool rt_onednn_conv_activation(const char *conv, const char *dims)
{
	struct desc q;
	char why[96];
	long d[6], want[2][5];
	const char *s = dims;
	size_t n = 0, k;

	if (!read_desc(conv, &q, why, sizeof(why)))
		return false;
	while (n < 6) {
		char *end;

		d[n] = strtol(s, &end, 10);
		if (end == s || d[n] < 1)
			return false;
		n++;
		if (*end != 'x')
			break;
		s = end + 1;
	}
	/* as many spatial sizes as the convolution has (d, h, w; h, w; or w) */
	if (n - 2 != (q.has_i[0] ? 3u : q.has_i[1] ? 2u : 1u))
		return false;
	/* N, C, then depth (a 3-D convolution's), height and width as the reorder has them */
	for (int io = 0; io < 2; io++) {
		want[io][0] = (long)q.x.mb;
		want[io][1] = io ? q.x.oc : q.x.ic;
		for (k = 0; k + 2 < n; k++)
			want[io][k + 2] = io ? q.x.o[3 - (n - 2) + k] : q.x.i[3 - (n - 2) + k];
	}
	for (int io = 0; io < 2; io++) {
		for (k = 0; k < n && d[k] == want[io][k]; k++)
			;
		if (k == n)
			return true;
	}
	return false;
}

/* "8x64x32x32:8x64x32x32" as the element counts of each part: the first max of them kept (in
 * elems and last2), *total their sum over all; the count of parts, 0 when it does not read. */
static size_t read_dims(const char *s, double *elems, size_t max, double *last2, double *total)
{
	size_t n = 0;

	*total = 0;
	while (*s) {
		double e = 1;
		size_t nd = 0;
		double dv[12];

		for (;;) {
			char *end;
			long v = strtol(s, &end, 10);

			if (end == s || v < 0)
				return 0;
			if (nd < 12)
				dv[nd++] = (double)v;
			e *= (double)v;
			s = end;
			if (*s != 'x')
				break;
			s++;
		}
		if (last2 && n < max && nd >= 2) {
			last2[2 * n] = dv[nd - 2];
			last2[2 * n + 1] = dv[nd - 1];
		} else if (last2 && n < max) {
			last2[2 * n] = 1;
			last2[2 * n + 1] = nd ? dv[0] : 1;
		}
		if (n < max)
			elems[n] = e;
		*total += e;
		n++;
		if (*s == ':')
			s++;
		else
			break;
	}
	return *s ? 0 : n;
}

/* The number of post-ops in the attributes ("attr-post-ops:eltwise_relu+sum:1"). */
static int post_ops(const char *attrs)
{
	const char *p = strstr(attrs, "attr-post-ops:");
	int n = 1;

	if (!p)
		return 0;
	p += strlen("attr-post-ops:");
	for (; *p && *p != ' '; p++)
		n += *p == '+';
	return n;
}

static bool is_backward(const char *prop)
{
	return !strncmp(prop, "backward", 8);
}

/* One part of "16x2048:2048x10" as its dimensions (at most 12); the count, 0 when it does
 * not read. */
static size_t dims_of(const char **s, long *d)
{
	size_t nd = 0;

	for (;;) {
		char *end;
		const long v = strtol(*s, &end, 10);

		if (end == *s || v < 0 || v > (1L << 40) || nd == 12)
			return 0;
		d[nd++] = v;
		*s = end;
		if (**s != 'x')
			return nd;
		++*s;
	}
}

/* 3.x's "src:wei" matmul problem (the output not printed): the output's elements, the batch
 * dimensions broadcast (each the larger where the other is 1); false when the two do not
 * multiply (ranks differ, K differs, batch dimensions neither equal nor 1). */
static bool matmul_dst(const char *problem, double *dst)
{
	long a[12], b[12];
	const char *s = problem;
	size_t na = dims_of(&s, a), nb;
	double e = 1;

	if (!na || *s++ != ':')
		return false;
	nb = dims_of(&s, b);
	if (*s || nb != na || na < 2 || a[na - 1] != b[nb - 2])
		return false;
	for (size_t i = 0; i + 2 < na; i++) {
		if (a[i] != b[i] && a[i] != 1 && b[i] != 1)
			return false;
		e *= (double)(a[i] > b[i] ? a[i] : b[i]);
	}
	*dst = e * (double)a[na - 2] * (double)b[nb - 1];
	return true;
}

/* e's primitive read from its fields and counted by rt_prim_count (its FLOPs, its bytes by
 * its descriptors' data types); false when they do not read (why says). */
static bool read_work(struct rt_onednn_exec *e, char *mdtext, const char *attrs,
		      const char *aux, char *why, size_t wsize);

static bool count(struct rt_onednn_exec *e, char *mdtext, const char *attrs, const char *aux,
		  char *why, size_t wsize)
{
	const bool ok = read_work(e, mdtext, attrs, aux, why, wsize);

	fpmath_of(attrs, e->fpmath, sizeof(e->fpmath));
	math_prec(e);
	return ok;
}

static bool read_work(struct rt_onednn_exec *e, char *mdtext, const char *attrs,
		      const char *aux, char *why, size_t wsize)
{
	/* the kinds counted by rt_prim_count, their problem a benchdnn descriptor or
	 * dimensions; reorder and concat (op -1) move bytes, no FLOPs (pure-bandwidth points) */
	static const struct { const char *kind; int op; bool desc; } kinds[] = {
		{ "convolution", RT_PRIM_CONV, true }, { "inner_product", RT_PRIM_IP, true },
		{ "pooling", RT_PRIM_MAXPOOL, true }, { "batch_normalization", RT_PRIM_BNORM, true },
		{ "layer_normalization", RT_PRIM_BNORM, false }, { "eltwise", RT_PRIM_ELTWISE, false },
		{ "binary", RT_PRIM_SUM, false }, { "sum", RT_PRIM_SUM, false },
		{ "softmax", RT_PRIM_SOFTMAX, false }, { "logsoftmax", RT_PRIM_SOFTMAX, false },
		{ "reorder", -1, false }, { "concat", -1, false },
	};
	struct md mds[12];
	size_t nsrc, k = 0, n = 0;
	const size_t nmd = read_mds(mdtext, mds, 12, &nsrc);
	const struct md *src = md_of(mds, nmd, "src");
	const char *kind = e->kind;
	struct desc q = { .x = { .inputs = 2 } };
	struct rt_prim *p = &q.x;
	struct rt_prim_work w;
	double el[16], l2[32], total;

	snprintf(e->dtype, sizeof(e->dtype), "%s",
		 src ? src->dt : nmd ? mds[0].dt : "undef");
	e->prec = dt_prec(e->dtype);
	e->counted = true;
	e->flops = e->bytes = 0;
	while (k < sizeof(kinds) / sizeof(kinds[0]) && strcmp(kind, kinds[k].kind))
		k++;
	if (k < sizeof(kinds) / sizeof(kinds[0]) && kinds[k].desc) {
		if (!read_desc(e->problem, &q, why, wsize))
			return false;
		p->elems = p->mb * (double)p->ic * (double)p->i[0] * (double)p->i[1] *
			   (double)p->i[2];
	} else if (k < sizeof(kinds) / sizeof(kinds[0])) {
		if (!(n = read_dims(e->problem, el, 16, NULL, &total))) {
			snprintf(why, wsize, "problem '%.40s': not dimensions", e->problem);
			return false;
		}
		p->elems = el[0];
	} else if (!strcmp(kind, "matmul") || !strcmp(kind, "gemm_api")) {
		/* gemm_api: a call of oneDNN's BLAS-like API (dnnl_sgemm, ...), "MxK:KxN" as a
		 * 3.x matmul prints it; TensorFlow calls it for dense layers' gradients and,
		 * without its oneDNN ops, for each block of Eigen's contractions; "*": runtime
		 * dimensions, the sizes not printed */
		if (strchr(e->problem, '*')) {
			e->counted = false;
			return true;
		}
		n = read_dims(e->problem, el, 3, l2, &total);
		if (n == 2 && !matmul_dst(e->problem, &el[2]))
			n = 0;
		if (n < 2 || n > 3) {
			snprintf(why, wsize, "problem '%.40s': not src:wei[:dst] dimensions",
				 e->problem);
			return false;
		}
		/* an inner product of batch x M rows, K inputs and N outputs */
		*p = (struct rt_prim){ .op = RT_PRIM_IP, .i = { 1, 1, 1 }, .ic = (long)l2[1],
				       .oc = (long)l2[3], .mb = l2[0] * l2[3] > 0 ? el[2] / l2[3] : 0,
				       .bias = md_of(mds, nmd, "bia"), .post = post_ops(attrs) };
		e->flops = rt_prim_count(p, RT_PRIM_FWD).flops;
		e->bytes = el[0] * md_size(mds, nmd, "src") + el[1] * md_size(mds, nmd, "wei") +
			   el[2] * md_size(mds, nmd, "dst");
		return true;
	} else {
		/* rnn, lrn, shuffle, resampling, prelu, reduction, deconvolution, ...: time only */
		e->counted = false;
		return true;
	}
	if (kinds[k].op < 0) {
		e->bytes = !strcmp(kind, "reorder") ?
			   el[0] * (md_size(mds, nmd, "src") + md_size(mds, nmd, "dst")) :
			   total * 2 * (src ? dt_size(src->dt) : 0);
		return true;
	}
	p->op = (enum rt_prim_op)kinds[k].op;
	if (p->op == RT_PRIM_MAXPOOL && !strstr(aux, "pooling_max"))
		p->op = RT_PRIM_AVGPOOL;
	p->bias = md_of(mds, nmd, "bia");
	/* a sum's problem is its output's dimensions (2.x and 3.x): the inputs are the memory
	 * descriptors' sources; a sum has no post-ops */
	p->post = !strcmp(kind, "sum") ? 0 : post_ops(attrs);
	if (!strcmp(kind, "sum") && (p->inputs = (int)nsrc) < 1) {
		snprintf(why, wsize, "a sum without a source");
		return false;
	}
	for (int a = 0; p->op == RT_PRIM_CONV && a < 3; a++) {
		/* a spatial size not given is the output's (or 1) */
		if (!q.has_i[a])
			p->i[a] = p->o[a];
		if (!q.has_o[a])
			p->o[a] = (p->i[a] + 2 * p->p[a] - ((p->k[a] - 1) * (p->d[a] + 1) + 1)) /
				  p->s[a] + 1;
		if (p->o[a] * p->k[a] > (1L << 22)) {
			snprintf(why, wsize, "problem: a %c output out of range", "dhw"[a]);
			return false;
		}
	}
	if (p->op == RT_PRIM_CONV && (p->ic % p->g || p->oc % p->g)) {
		snprintf(why, wsize, "problem: %ld groups do not divide the channels", p->g);
		return false;
	}
	if (p->op == RT_PRIM_IP && p->oc < 1) {
		snprintf(why, wsize, "problem: no output channels");
		return false;
	}
	w = rt_prim_count(p, !is_backward(e->prop) ? RT_PRIM_FWD :
			  !strcmp(e->prop, "backward_weights") ? RT_PRIM_BWD_WEIGHTS :
			  !strcmp(e->prop, "backward") ? RT_PRIM_BWD : RT_PRIM_BWD_DATA);
	e->flops = w.flops;
	if (!strcmp(kind, "binary"))    /* the second input may broadcast */
		e->bytes = el[0] * md_size(mds, nmd, "src") + (n > 1 ? el[1] : el[0]) *
			   (nmd > 1 ? dt_size(mds[1].dt) : 0) + el[0] * md_size(mds, nmd, "dst");
	else if (kinds[k].desc && p->op != RT_PRIM_BNORM)
		e->bytes = w.src * md_size(mds, nmd, "src") + w.wei * md_size(mds, nmd, "wei") +
			   w.bia * md_size(mds, nmd, "bia") +
			   w.dst * (md_size(mds, nmd, "dst") + md_size(mds, nmd, "ws"));
	else
		e->bytes = (w.src + w.dst) * dt_size(e->dtype);
	return true;
}

/* An "info" line (tok: the fields after "info"): a template header ("prim_template:" in 2.x
 * and 3.0 to 3.4, "template:" after "primitive" or "graph" in 3.x) sets the fields the
 * executions of its class hold; the runtime line names the threads. */
static enum rt_onednn_line info_line(struct rt_onednn_reader *r, bool graph, char **tok,
				     size_t nt, struct rt_onednn_exec *e)
{
	const size_t skip = nt && !strncmp(tok[0], "prim_template:", 14) ? 14 :
			    nt && !strncmp(tok[0], "template:", 9) ? 9 : 0;

	if (skip) {
		char (*fields)[24] = graph ? r->gfields : r->fields;
		size_t k = 0;

		tok[0] += skip;
		for (size_t j = 0; j < nt && k < 16; j++)
			if (strcmp(tok[j], "timestamp"))
				snprintf(fields[k++], sizeof(fields[0]), "%s", tok[j]);
		*(graph ? &r->ngfields : &r->nfields) = k;
		return RT_ONEDNN_INFO;
	}
	/* "oneDNN v3.10.2 (commit ...)"; the CPU's "runtime:OpenMP", "nthr:16" and
	 * "isa:Intel AVX-512 with float16, Intel DL Boost ..." (its words may hold commas) */
	if (nt && !strncmp(tok[0], "oneDNN ", 7))
		snprintf(e->version, sizeof(e->version), "%.*s", (int)strcspn(tok[0] + 7, " "),
			 tok[0] + 7);
	for (size_t j = 1; nt && !strcmp(tok[0], "cpu") && j < nt; j++) {
		if (!strncmp(tok[j], "runtime:", 8)) {
			snprintf(e->runtime, sizeof(e->runtime), "%s", tok[j] + 8);
		} else if (!strncmp(tok[j], "isa:", 4)) {
			snprintf(e->isa, sizeof(e->isa), "%s", tok[j] + 4);
			while (++j < nt)
				snprintf(e->isa + strlen(e->isa), sizeof(e->isa) - strlen(e->isa),
					 ",%s", tok[j]);
		} else if (!strncmp(tok[j], "nthr:", 5)) {
			char *end;
			const unsigned long v = strtoul(tok[j] + 5, &end, 10);

			if (end != tok[j] + 5 && !*end && v >= 1 && v <= 1u << 20)
				e->nthr = (unsigned)v;
		}
	}
	return RT_ONEDNN_INFO;
}

/* A graph partition's logical tensors ("in0_f32:0:strided:undef:16x2048:2048s1 out0_...",
 * oneDNN 3.x's graph/utils/verbose.cpp): each one's data type and dimensions. */
struct lt {
	char dt[12];
	long d[12];
	size_t nd;
	bool out;
};

static size_t read_lts(char *s, struct lt *v, size_t max, bool *whole)
{
	size_t n = 0;

	*whole = true;
	for (char *save = NULL, *tok = strtok_r(s, " ", &save); tok && n < max;
	     tok = strtok_r(NULL, " ", &save)) {
		char *part[6], *us;
		size_t np = 0;
		const char *d;

		for (char *p = tok; np < 6;) {
			char *c = strchr(p, ':');

			part[np++] = p;
			if (!c)
				break;
			*c = '\0';
			p = c + 1;
		}
		us = strchr(part[0], '_');
		d = np >= 5 ? part[4] : "";
		if (np < 5 || !us || (strncmp(part[0], "in", 2) && strncmp(part[0], "out", 3))) {
			*whole = false;
			continue;
		}
		v[n].out = part[0][0] == 'o';
		snprintf(v[n].dt, sizeof(v[n].dt), "%s", us + 1);
		v[n].nd = dims_of(&d, v[n].d);
		if (!v[n].nd || *d)
			*whole = false; /* -1: a dimension not known when compiled */
		else
			n++;
	}
	return n;
}

/* The op a graph partition holds: 'm' MatMul, 'e' element-wise (1 FLOP an output, as a
 * post-op), 'b' bytes only (casts, reorders, reshapes, transposes), 0 any other. */
static char graph_op(const char *op, size_t len)
{
	static const char *const elt[] = { "BiasAdd", "Add", "Subtract", "Multiply", "Divide",
					   "Maximum", "Minimum", "ReLU", "GELU", "Sigmoid", "Tanh",
					   "Elu", "Clamp", "HardSwish", "HardSigmoid", "LeakyReLU",
					   "Mish", "SoftPlus", "Square", "Sqrt", "Exp", "Log", "Abs",
					   "Round", "Pow", "SquaredDifference", "Reciprocal" };
	static const char *const mov[] = { "TypeCast", "Reorder", "StaticReshape",
					   "StaticTranspose" };

	if (len == 6 && !memcmp(op, "MatMul", 6))
		return 'm';
	for (size_t i = 0; i < sizeof(elt) / sizeof(elt[0]); i++)
		if (strlen(elt[i]) == len && !memcmp(op, elt[i], len))
			return 'e';
	for (size_t i = 0; i < sizeof(mov) / sizeof(mov[0]); i++)
		if (strlen(mov[i]) == len && !memcmp(op, mov[i], len))
			return 'b';
	return 0;
}

/* A graph partition's FLOPs and bytes from its op names and tensors: counted false (its time
 * alone) where they do not give them exactly. */
/* An execution's time (text, oneDNN's milliseconds) into e->ms: 0 (under the log's grain), or
 * RT_ONEDNN_CLOCK_MIN_MS to a day and more (1e9 ms); anything else is no clock's reading
 * (1e-300 ms would make its rate 1e295 GFLOP/s), e->why says so. */
static bool read_ms(const char *text, struct rt_onednn_exec *e)
{
	char *end;

	e->ms = strtod(text, &end);
	if (end == text || *end || !isfinite(e->ms) || e->ms < 0 || e->ms > 1e9) {
		snprintf(e->why, sizeof(e->why), "time '%.40s' is not milliseconds", text);
		return false;
	}
	if (e->ms > 0 && e->ms < RT_ONEDNN_CLOCK_MIN_MS) {
		snprintf(e->why, sizeof(e->why), "time '%.40s' ms: under a nanosecond, no clock "
			 "reads that", text);
		return false;
	}
	return true;
}

/* Whether an execution's counts can be of one: finite, and its tensors (its bytes: each
 * touched once) within what one process can address (RT_ONEDNN_BYTES_MAX), whatever each
 * dimension alone is; e->why says which is not. */
static bool counts_in_range(struct rt_onednn_exec *e)
{
	if (!isfinite(e->flops) || !isfinite(e->bytes) || e->flops < 0 || e->bytes < 0) {
		snprintf(e->why, sizeof(e->why), "counts out of range");
		return false;
	}
	if (e->bytes > RT_ONEDNN_BYTES_MAX) {
		snprintf(e->why, sizeof(e->why), "problem: tensors of %.3g bytes, more than a "
			 "process can address (2^57)", e->bytes);
		return false;
	}
	return true;
}

static void graph_count(struct rt_onednn_exec *e, const char *ops, char *lts)
{
	struct lt v[16];
	bool whole;
	const size_t n = read_lts(lts, v, 16, &whole);
	const struct lt *in0 = NULL, *in1 = NULL, *out = NULL;
	size_t nops = 0, nelt = 0, nmov = 0;
	bool matmul_first = false, other = false;
	double bytes = 0;

	e->counted = false;
	e->flops = e->bytes = 0;
	for (size_t i = 0; i < n; i++) {
		const struct lt *t = &v[i];
		double el = 1;

		for (size_t d = 0; d < t->nd; d++)
			el *= (double)t->d[d];
		bytes += el * dt_size(t->dt);
		if (t->out && !out)
			out = t;
		else if (!t->out && !in0)
			in0 = t;
		else if (!t->out && !in1)
			in1 = t;
	}
	snprintf(e->dtype, sizeof(e->dtype), "%s", in0 ? in0->dt : "undef");
	for (const char *p = ops; *p;) {
		const size_t len = strcspn(p, ";");
		const char k = graph_op(p, len);

		if (!nops)
			matmul_first = k == 'm';
		else if (k == 'm')
			other = true;
		nelt += k == 'e';
		nmov += k == 'b';
		other |= !k;
		nops++;
		p += len;
		if (*p == ';')
			p++;
	}
	if (!whole || !out || !nops || other)
		return;
	if (!matmul_first) {
		/* data movement alone: bytes, no FLOPs; element-wise ops on their own: time only */
		e->counted = nmov == nops;
		e->bytes = e->counted ? bytes : 0;
		return;
	}
	if (in0 && in1 && in0->nd >= 2 && in1->nd >= 2 && out->nd >= 2) {
		const double m = (double)out->d[out->nd - 2], nn = (double)out->d[out->nd - 1];
		const double a = (double)in0->d[in0->nd - 2] * (double)in0->d[in0->nd - 1];
		const double b = (double)in1->d[in1->nd - 2] * (double)in1->d[in1->nd - 1];
		double outs = 1;

		for (size_t d = 0; d < out->nd; d++)
			outs *= (double)out->d[d];
		/* K from each input: M x K and K x N in either order; an inner product of
		 * outs / N rows, the element-wise ops its post-ops */
		if (m > 0 && nn > 0 && a / m == b / nn && a / m == floor(a / m)) {
			const struct rt_prim ip = { .op = RT_PRIM_IP, .mb = outs / nn,
						    .ic = (long)(a / m), .oc = (long)nn,
						    .i = { 1, 1, 1 }, .post = (int)nelt };

			e->flops = rt_prim_count(&ip, RT_PRIM_FWD).flops;
			e->bytes = bytes;
			e->counted = true;
		}
	}
}

/* A "graph,exec" line (tok from "exec" on) by the graph template's fields. */
static enum rt_onednn_line graph_exec(struct rt_onednn_reader *r, char **tok, size_t nt,
				      struct rt_onednn_exec *e)
{
	static const char *const names[] = { "partition_kind", "op_names", "logical_tensors",
					     "fpmath_mode", "exec_time" };
	const char *f[5];
	const int impl = index_in(r->gfields, r->ngfields, "implementation");
	const int backend = index_in(r->gfields, r->ngfields, "backend");

	if (nt != r->ngfields || index_in(r->gfields, r->ngfields, "operation") != 0) {
		snprintf(e->why, sizeof(e->why), "%zu graph fields where the header names %zu", nt,
			 r->ngfields);
		return RT_ONEDNN_UNPARSED;
	}
	for (size_t k = 0; k < 5; k++) {
		const int at = index_in(r->gfields, r->ngfields, names[k]);

		if (at < 0) {
			snprintf(e->why, sizeof(e->why), "the graph header names no %s", names[k]);
			return RT_ONEDNN_UNPARSED;
		}
		f[k] = tok[at];
	}
	if (!read_ms(f[4], e))
		return RT_ONEDNN_UNPARSED;
	snprintf(e->kind, sizeof(e->kind), "graph");
	snprintf(e->prop, sizeof(e->prop), "%s", f[0]);
	snprintf(e->impl, sizeof(e->impl), "%s", impl >= 0 ? tok[impl] :
		 backend >= 0 ? tok[backend] : "");
	/* the op names and the tensors' dimensions (the fifth of each one's ':' parts): the
	 * partition's problem, "MatMul;ReLU 16x2048:2048x10:16x10" */
	{
		char sep = ' ';

		rt_buf_reset(&r->problem);
		rt_buf_puts(&r->problem, f[1]);
		for (const char *p = f[2]; *p;) {
			const size_t len = strcspn(p, " ");
			const char *d = p;

			for (int c = 0; c < 4 && d; c++) {
				d = memchr(d, ':', (size_t)(p + len - d));
				d = d ? d + 1 : NULL;
			}
			if (d) {
				rt_buf_printf(&r->problem, "%c%.*s", sep, (int)strcspn(d, ": "), d);
				sep = ':';
			}
			p += len;
			p += strspn(p, " ");
		}
		if (r->problem.failed) {
			r->problem.failed = false;
			snprintf(e->why, sizeof(e->why), "out of memory");
			return RT_ONEDNN_UNPARSED;
		}
		e->problem = r->problem.s;
	}
	graph_count(e, f[1], (char *)f[2]);
	if (!counts_in_range(e))
		return RT_ONEDNN_UNPARSED;
	fpmath_of(f[3], e->fpmath, sizeof(e->fpmath));
	math_prec(e);
	return RT_ONEDNN_EXEC;
}

/* A reorder's layouts from its memory descriptors: the format after "blocked:" of its src
 * and dst ("src:f32::blocked:abcd::f0 dst:f32::blocked:aBcd16b::f0" in 3.x,
 * "src_f32::blocked:abcd:f0 dst_f32::blocked:aBcd16b:f0" in 2.x), each with its data type
 * after it ("abcd f32", "abcd bf16") where the two types differ. */
static void reorder_layouts(const char *mds, struct rt_onednn_exec *e)
{
	char type[2][12] = { "", "" };

	for (const char *p = mds; *p;) {
		const size_t n = strcspn(p, " ");
		char md[128];
		const char *b;

		snprintf(md, sizeof(md), "%.*s", (int)(n < sizeof(md) - 1 ? n : sizeof(md) - 1), p);
		b = strstr(md, "blocked:");
		if (b && (!strncmp(md, "src", 3) || !strncmp(md, "dst", 3))) {
			const bool src = md[0] == 's';
			char *to = src ? e->from : e->to;
			const char *tag = b + 8;
			const size_t tl = strcspn(tag, ":"), yl = strcspn(md + 4, ":");

			if (tl && tl < sizeof(e->from))
				snprintf(to, sizeof(e->from), "%.*s", (int)tl, tag);
			if (yl < sizeof(type[0]))
				snprintf(type[!src], sizeof(type[0]), "%.*s", (int)yl, md + 4);
		}
		p += n;
		while (*p == ' ')
			p++;
	}
	if (!e->from[0] || !e->to[0]) {
		e->from[0] = e->to[0] = '\0';
	} else if (strcmp(type[0], type[1]) && type[0][0] && type[1][0] &&
		   strlen(e->from) + strlen(type[0]) + 1 < sizeof(e->from) &&
		   strlen(e->to) + strlen(type[1]) + 1 < sizeof(e->to)) {
		strcat(strcat(e->from, " "), type[0]);
		strcat(strcat(e->to, " "), type[1]);
	}
}

enum rt_onednn_line rt_onednn_read(struct rt_onednn_reader *r, const char *line, size_t len,
				   struct rt_onednn_exec *e)
{
	char *tok[MAX_TOKENS];
	size_t nt = 0, i = 0;
	const char *f[16] = { 0 };
	bool graph = false;

	memset(e, 0, sizeof(*e));
	e->problem = "";
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	if (!((len >= 15 && !memcmp(line, "onednn_verbose,", 15)) ||
	      (len >= 13 && !memcmp(line, "dnnl_verbose,", 13))))
		return RT_ONEDNN_OTHER;
	rt_buf_reset(&r->line);
	if (rt_buf_add(&r->line, line, len)) {
		r->line.failed = false;
		snprintf(e->why, sizeof(e->why), "a line of %zu bytes: out of memory", len);
		return RT_ONEDNN_UNPARSED;
	}
	for (char *p = r->line.s; nt < MAX_TOKENS;) {
		char *c = strchr(p, ',');

		tok[nt++] = p;
		if (!c)
			break;
		*c = '\0';
		p = c + 1;
	}
	i = 1;
	if (i < nt && !strcmp(tok[i], "v1"))
		i++;
	if (i < nt && is_number(tok[i])) {      /* a timestamp: the execution's start */
		e->stamp_ms = strtod(tok[i], NULL);
		if (!isfinite(e->stamp_ms) || e->stamp_ms < 0)
			e->stamp_ms = 0;
		i++;
	}
	/* 3.x's event class: primitive or graph ("info" lines before it in 2.x and 3.x) */
	if (i < nt && (!strcmp(tok[i], "primitive") || !strcmp(tok[i], "graph")))
		graph = !strcmp(tok[i++], "graph");
	else if (i < nt && (!strcmp(tok[i], "common") || !strcmp(tok[i], "error") ||
			    !strcmp(tok[i], "warn")))
		return RT_ONEDNN_INFO;
	if (i < nt && !strcmp(tok[i], "info"))
		return info_line(r, graph, tok + i + 1, nt - i - 1, e);
	if (i < nt && (!strcmp(tok[i], "error") || !strcmp(tok[i], "warn") ||
		       !strncmp(tok[i], "create", 6) || !strncmp(tok[i], "compile", 7) ||
		       !strncmp(tok[i], "exec:", 5)))
		return RT_ONEDNN_INFO;  /* creation, dispatch, checks: no execution */
	if (i >= nt || strcmp(tok[i], "exec")) {
		snprintf(e->why, sizeof(e->why), "operation '%.40s' is not exec or create",
			 i < nt ? tok[i] : "");
		return RT_ONEDNN_UNPARSED;
	}
	if (graph)
		return graph_exec(r, tok + i, nt - i, e);
	/* the fields from the operation on, by the header's names */
	if (nt - i != r->nfields || field_index(r, "operation") != 0) {
		snprintf(e->why, sizeof(e->why), "%zu fields where the header names %zu", nt - i,
			 r->nfields);
		return RT_ONEDNN_UNPARSED;
	}
	{
		static const char *const names[] = { "primitive", "implementation", "prop_kind",
						     "memory_descriptors", "attributes",
						     "auxiliary", "problem_desc", "exec_time" };

		for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
			const int at = field_index(r, names[k]);

			if (at < 0) {
				snprintf(e->why, sizeof(e->why), "the header names no %s", names[k]);
				return RT_ONEDNN_UNPARSED;
			}
			f[k] = tok[i + (size_t)at];
		}
	}
	snprintf(e->kind, sizeof(e->kind), "%s", f[0]);
	/* pooling_v2, softmax_v2 (2.x): the same primitives */
	{
		const size_t kl = strlen(e->kind);

		if (kl > 3 && !strcmp(e->kind + kl - 3, "_v2"))
			e->kind[kl - 3] = '\0';
	}
	snprintf(e->impl, sizeof(e->impl), "%s", f[1]);
	snprintf(e->prop, sizeof(e->prop), "%s", f[2]);
	e->problem = f[6];
	if (!read_ms(f[7], e))
		return RT_ONEDNN_UNPARSED;
	if (!strcmp(e->kind, "reorder"))
		reorder_layouts(f[3], e);
	if (!count(e, (char *)f[3], f[4], f[5], e->why, sizeof(e->why)))
		return RT_ONEDNN_UNPARSED;
	if (!counts_in_range(e))
		return RT_ONEDNN_UNPARSED;
	return RT_ONEDNN_EXEC;
}

void rt_onednn_tally_init(struct rt_onednn_tally *t)
{
	memset(t, 0, sizeof(*t));
}

/* A distinct primitive: kind, direction, data type, problem and the precision of its math
 * (the same convolution under another fpmath mode or implementation is another point). */
static uint64_t key_hash(const char *kind, const char *prop, const char *dtype,
			 const char *problem, enum rt_precision prec, bool bound)
{
	uint64_t h = 1469598103934665603ULL;
	const char *parts[4] = { kind, prop, dtype, problem };

	for (int i = 0; i < 4; i++) {
		for (const char *p = parts[i]; *p; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211ULL;
		h = (h ^ 0xff) * 1099511628211ULL;
	}
	return (h ^ (uint64_t)((unsigned)prec * 2 + bound)) * 1099511628211ULL;
}

static bool same(const struct rt_onednn_prim *p, const struct rt_onednn_exec *e)
{
	return !strcmp(p->kind, e->kind) && !strcmp(p->prop, e->prop) &&
	       !strcmp(p->dtype, e->dtype) && !strcmp(p->problem, e->problem) &&
	       p->prec == e->prec && p->prec_bound == e->prec_bound;
}

/* Grow the slots to twice the primitives (at least 64); false when out of memory. */
static bool rehash(struct rt_onednn_tally *t)
{
	size_t ns = t->nslots ? t->nslots * 2 : 64;
	size_t *s = calloc(ns, sizeof(*s));

	if (!s)
		return false;
	for (size_t i = 0; i < t->n; i++) {
		const struct rt_onednn_prim *p = &t->v[i];
		size_t h = (size_t)key_hash(p->kind, p->prop, p->dtype, p->problem, p->prec,
					    p->prec_bound) & (ns - 1);

		while (s[h])
			h = (h + 1) & (ns - 1);
		s[h] = i + 1;
	}
	free(t->slots);
	t->slots = s;
	t->nslots = ns;
	return true;
}

void rt_onednn_tally_add(struct rt_onednn_tally *t, const struct rt_onednn_exec *e)
{
	struct rt_onednn_prim *p = NULL;
	size_t h;

	t->execs++;
	t->stamped += e->stamp_ms > 0;
	t->ms += e->ms;
	if (e->from[0]) {
		const char *dims = e->problem ? e->problem : "";
		size_t c = 0;

		while (c < t->nconvs && (strcmp(t->convs[c].from, e->from) ||
					 strcmp(t->convs[c].to, e->to) ||
					 strncmp(t->convs[c].dims, dims, sizeof(t->convs[c].dims) - 1)))
			c++;
		if (c == t->nconvs && c < RT_ONEDNN_MAX_CONVS) {
			memcpy(t->convs[c].from, e->from, sizeof(e->from));
			memcpy(t->convs[c].to, e->to, sizeof(e->to));
			snprintf(t->convs[c].dims, sizeof(t->convs[c].dims), "%s", dims);
			t->nconvs++;
		}
		if (c < t->nconvs) {
			t->convs[c].calls++;
			t->convs[c].ms += e->ms;
		}
	}
	t->flops += e->flops;
	t->bytes += e->bytes;
	if (!e->counted) {
		t->uncounted++;
		t->uncounted_ms += e->ms;
	}
	if ((t->n + 1) * 2 > t->nslots && !rehash(t)) {
		t->oom = true;
		return;
	}
	h = (size_t)key_hash(e->kind, e->prop, e->dtype, e->problem, e->prec, e->prec_bound) &
	    (t->nslots - 1);
	while (t->slots[h] && !same(&t->v[t->slots[h] - 1], e))
		h = (h + 1) & (t->nslots - 1);
	if (t->slots[h]) {
		p = &t->v[t->slots[h] - 1];
	} else {
		if (t->n == t->cap) {
			size_t nc = t->cap ? t->cap * 2 : 64;
			struct rt_onednn_prim *v = realloc(t->v, nc * sizeof(*v));

			if (!v) {
				t->oom = true;
				return;
			}
			t->v = v;
			t->cap = nc;
		}
		p = &t->v[t->n];
		memset(p, 0, sizeof(*p));
		snprintf(p->kind, sizeof(p->kind), "%s", e->kind);
		snprintf(p->prop, sizeof(p->prop), "%s", e->prop);
		snprintf(p->impl, sizeof(p->impl), "%s", e->impl);
		snprintf(p->dtype, sizeof(p->dtype), "%s", e->dtype);
		if (!(p->problem = strdup(e->problem))) {
			t->oom = true;
			return;
		}
		snprintf(p->fpmath, sizeof(p->fpmath), "%s", e->fpmath);
		p->counted = e->counted;
		p->prec = e->prec;
		p->prec_bound = e->prec_bound;
		t->slots[h] = ++t->n;
	}
	p->calls++;
	p->ms += e->ms;
	p->flops += e->flops;
	p->bytes += e->bytes;
}

void rt_onednn_tally_unparsed(struct rt_onednn_tally *t, const char *line, size_t len,
			      const char *why)
{
	if (!t->unparsed++) {
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			len--;
		snprintf(t->first_unparsed, sizeof(t->first_unparsed), "%.*s",
			 (int)(len < sizeof(t->first_unparsed) - 1 ? len :
			       sizeof(t->first_unparsed) - 1), line);
		snprintf(t->first_unparsed_why, sizeof(t->first_unparsed_why), "%s", why);
	}
}

bool rt_onednn_isa_has(const char *isa, enum rt_precision prec)
{
	const char *f = isa;

	if (strstr(isa, "AVX10") || (prec != RT_PRECISION_BF16 && prec != RT_PRECISION_FP16))
		return true;
	if (prec == RT_PRECISION_BF16)
		return strstr(isa, "bfloat16") || strstr(isa, "AMX");
	while ((f = strstr(f, "float16")) && f > isa && f[-1] == 'b')
		f++;            /* bfloat16 is not float16 */
	return f;
}

void rt_onednn_tally_line(struct rt_onednn_tally *t, enum rt_onednn_line k,
			  const struct rt_onednn_exec *e, const char *line, size_t len)
{
	if (k == RT_ONEDNN_EXEC && e->prec_bound && t->isa[0] && !rt_onednn_isa_has(t->isa,
										 e->prec)) {
		struct rt_onednn_exec fp32 = *e;

		fp32.prec = RT_PRECISION_FP32;
		fp32.prec_bound = false;
		rt_onednn_tally_add(t, &fp32);
	} else if (k == RT_ONEDNN_EXEC)
		rt_onednn_tally_add(t, e);
	else if (k == RT_ONEDNN_UNPARSED)
		rt_onednn_tally_unparsed(t, line, len, e->why);
	else if (k == RT_ONEDNN_INFO) {
		if (e->nthr > t->nthr)
			t->nthr = e->nthr;
		t->instances += e->version[0] != '\0';
		if (!t->version[0])
			snprintf(t->version, sizeof(t->version), "%s", e->version);
		if (!t->runtime[0])
			snprintf(t->runtime, sizeof(t->runtime), "%s", e->runtime);
		if (!t->isa[0])
			snprintf(t->isa, sizeof(t->isa), "%s", e->isa);
	}
}

void rt_onednn_tally_free(struct rt_onednn_tally *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].problem);
	free(t->v);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

static int cmp_prim_ms(const void *a, const void *b)
{
	const struct rt_onednn_prim *x = a, *y = b;

	return x->ms < y->ms ? 1 : x->ms > y->ms ? -1 : 0;
}

void rt_onednn_tally_sort(struct rt_onednn_tally *t)
{
	if (t->n)       /* a tally with no primitive has no array */
		qsort(t->v, t->n, sizeof(t->v[0]), cmp_prim_ms);
}
