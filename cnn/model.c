/* model.c: model files (libconfig) to layer descriptions with shapes and exact analytic counts;
 * every error names FILE:LINE and is found before any tensor is allocated */
#include "config.h"
#include "cnn/model.h"
#include "base/cfgread.h"
#include "base/util.h"

#include <ctype.h>
#include <errno.h>
#include <libconfig.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const type_names[RT_LAYER_TYPE_COUNT] = {
	"conv", "relu", "maxpool", "avgpool", "batchnorm", "fc", "dropout", "add", "softmax_xent",
};

/* Bounds that keep every size in range before anything is allocated (a hostile model file is
 * rejected here with what it would have needed). */
#define MAX_DIM (1L << 20)
#define MAX_ELEMS (1L << 31)

const char *rt_layer_type_name(enum rt_layer_type t)
{
	return (unsigned)t < RT_LAYER_TYPE_COUNT ? type_names[t] : "unknown";
}

void rt_model_destroy(struct rt_model *m)
{
	if (!m)
		return;
	free(m->layers);
	free(m);
}

/* An optional integer member in [min, max]; absent: def. */
static int int_member(const struct rt_cfg_reader *ps, const config_setting_t *g,
		      const char *name, long def, long min, long max, long *out, const char *ctx)
{
	long long v = def;
	int rc = rt_cfg_int(ps, g, ctx, name, &v, min, max, false);

	*out = config_setting_get_member(g, name) ? (long)v : def;
	return rc;
}

static int req_int(const struct rt_cfg_reader *ps, const config_setting_t *g, const char *name,
		   long min, long max, long *out, const char *ctx)
{
	long long v = 0;
	int rc = rt_cfg_int(ps, g, ctx, name, &v, min, max, true);

	*out = (long)v;
	return rc;
}

static int str_member(const struct rt_cfg_reader *ps, const config_setting_t *g,
		      const char *name, const char **out, const char *ctx)
{
	return rt_cfg_string_ref(ps, g, ctx, name, out);
}

/* Whether s holds a character below 0x20 or DEL: names go into CSV rows, a line protocol and
 * chart labels, where these would split or end a record. */
static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

/* A model's name names its results directory: a plain file name. */
static bool valid_model_name(const char *s)
{
	if (!*s || *s == '.' || strlen(s) >= RT_MODEL_NAME_MAX)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._+-", *s))
			return false;
	return true;
}

static int find_layer(const struct rt_model *m, size_t upto, const char *name)
{
	for (size_t i = 0; i < upto; i++)
		if (!strcmp(m->layers[i].name, name))
			return (int)i;
	return -1;
}

static void shape_str(char *buf, size_t size, struct rt_shape s)
{
	snprintf(buf, size, "%ldx%ldx%ld", s.c, s.h, s.w);
}

/* Output size of a window of size k, stride st, padding p over n; 0 if it does not fit. */
static long window_out(long n, long k, long st, long p)
{
	return n + 2 * p < k ? 0 : (n + 2 * p - k) / st + 1;
}

/* Element sizes of a precision: activations and their gradients (act), weights as the
 * primitives read them (w), and the extra bytes per weight of the once-per-iteration cast of
 * the fp32 master copy (read 4, write 2). Gradients of weights, biases, batch-norm scale and
 * shift, the logits and the softmax are fp32 in both. */
struct esz {
	double act, w, cast;
};

static struct esz elem_sizes(enum rt_precision p)
{
	return p == RT_PRECISION_BF16 ? (struct esz){ 2, 2, 6 } : (struct esz){ 4, 4, 0 };
}


/* Over the output positions of one dimension, the kernel taps (size k, stride st, dilation
 * dl: oneDNN's, 0 for none) that land on the input (size in) rather than on its padding. */
static double valid_taps(long out, long in, long k, long st, long dl, long pad)
{
	double n = 0;

	if (!pad && (out - 1) * st + (k - 1) * (dl + 1) < in)
		return (double)out * (double)k;         /* every window inside the input */
	for (long p = 0; p < out; p++)
		for (long r = 0; r < k; r++) {
			const long x = p * st - pad + r * (dl + 1);

			n += x >= 0 && x < in;
		}
	return n;
}

struct rt_prim_work rt_prim_count(const struct rt_prim *p, enum rt_prim_dir dir)
{
	const bool fwd = dir == RT_PRIM_FWD, ip = p->op == RT_PRIM_IP;
	const bool conv = ip || p->op == RT_PRIM_CONV;
	const bool shaped = conv || p->op == RT_PRIM_MAXPOOL || p->op == RT_PRIM_AVGPOOL;
	const long g = ip ? 1 : p->g;
	double taps = 1, win = 1, in = 1, out = 1;
	/* element-wise: a backward reads the source (or the output) and writes its gradient */
	struct rt_prim_work w = { .src = (fwd ? 1 : 2) * p->elems, .dst = p->elems };

	/* an inner product is a convolution whose kernel is its input */
	for (int a = 0; shaped && a < 3; a++) {
		win *= (double)(ip ? p->i[a] : p->k[a]);
		in *= (double)p->i[a];
		out *= ip ? 1 : (double)p->o[a];
		taps *= ip ? (double)p->i[a] : p->op != RT_PRIM_CONV ? 1 :
			valid_taps(p->o[a], p->i[a], p->k[a], p->s[a], p->d[a], p->p[a]);
	}
	if (shaped) {
		w.src = p->mb * (double)p->ic * in;
		w.dst = p->mb * (double)(conv ? p->oc : p->ic) * out;
	}
	switch (p->op) {
	case RT_PRIM_CONV:
	case RT_PRIM_IP:
		/* multiply-adds with a real input: taps that fall on the padding multiply zeros
		 * that no implementation needs to (oneDNN's direct kernels skip them); counting them
		 * would credit a 3x3, pad 1 convolution on 8x8 images with 19% more work than it
		 * does. The same (input, weight, output) triples make the data and weight
		 * gradients. */
		w.macs = p->mb * (double)p->oc * (double)(p->ic / g) * taps;
		w.wei = (double)p->oc * (double)(p->ic / g) * win;
		w.bia = p->bias && (fwd || dir == RT_PRIM_BWD_WEIGHTS) ? (double)p->oc : 0;
		w.flops = 2 * w.macs + (w.bia ? w.dst : 0) + (fwd ? p->post * w.dst : 0);
		break;
	case RT_PRIM_MAXPOOL:           /* win - 1 comparisons, backward each gradient routed */
		w.flops = w.dst * (fwd ? win - 1 : 1);
		break;
	case RT_PRIM_AVGPOOL:           /* win - 1 adds and a scale, backward a scale, win adds */
		w.flops = w.dst * (fwd ? win : win + 1);
		break;
	case RT_PRIM_ELTWISE:
		w.flops = p->elems * (fwd ? 1 + p->post : 1);
		break;
	case RT_PRIM_SUM:
		w.flops = p->elems * (p->inputs - 1 + (fwd ? p->post : 0));
		w.src = p->elems * p->inputs;
		break;
	case RT_PRIM_BNORM:
		/* forward: mean 1, variance 3, normalize-scale-shift 4 per element;
		 * backward: scale/shift gradients 5, data gradient 6 per element */
		w.flops = p->elems * (fwd ? 8 : dir == RT_PRIM_BWD_DATA ? 6 :
				      dir == RT_PRIM_BWD_WEIGHTS ? 5 : 11);
		break;
	case RT_PRIM_SOFTMAX:           /* max, subtract, exp, sum, scale; backward 3 */
		w.flops = p->elems * (fwd ? 5 : 3);
		break;
	}
	return w;
}

static void count(struct rt_layer_desc *L, long classes, enum rt_precision prec, bool logits)
{
	const double ie = (double)rt_shape_elems(L->in), oe = (double)rt_shape_elems(L->out);
	const struct esz e = elem_sizes(prec);
	struct rt_layer_counts *n = &L->n;
	static const enum rt_prim_op ops[RT_LAYER_TYPE_COUNT] = {
		RT_PRIM_CONV, RT_PRIM_ELTWISE, RT_PRIM_MAXPOOL, RT_PRIM_AVGPOOL, RT_PRIM_BNORM,
		RT_PRIM_IP, RT_PRIM_ELTWISE, RT_PRIM_SUM, RT_PRIM_SOFTMAX,
	};
	struct rt_prim q = {
		.op = ops[L->type], .mb = 1, .elems = L->type == RT_LAYER_SOFTMAX_XENT ?
		(double)classes : ie, .ic = L->in.c, .g = L->groups, .bias = L->bias,
		.oc = L->type == RT_LAYER_FC ? L->outputs : L->filters, .inputs = 2,
		.i = { 1, L->in.h, L->in.w }, .o = { 1, L->out.h, L->out.w },
		.k = { 1, L->kernel, L->kernel }, .s = { 1, L->stride, L->stride },
		.p = { 0, L->pad, L->pad },
	};
	struct rt_prim_work f, bd;

	memset(n, 0, sizeof(*n));
	n->kept_elems = rt_shape_elems(L->out);
	f = rt_prim_count(&q, RT_PRIM_FWD);
	bd = rt_prim_count(&q, RT_PRIM_BWD_DATA);
	n->fwd_flops = f.flops;
	n->bwd_data_flops = L->needs_bwd_data ? bd.flops : 0;
	n->fwd_bytes = e.act * (f.src + f.dst);
	n->bwd_data_bytes = L->needs_bwd_data ? e.act * (bd.src + bd.dst) : 0;
	switch (L->type) {
	case RT_LAYER_CONV:
	case RT_LAYER_FC:
		n->params = (long)(f.wei + f.bia);
		n->macs = f.macs;
		n->bwd_weights_flops = rt_prim_count(&q, RT_PRIM_BWD_WEIGHTS).flops;
		/* the output in its element size (4 for the logits); the weights once per batch
		 * for forward (after the cast) and data gradient, their fp32 gradients for the
		 * weight gradient */
		n->fwd_bytes = e.act * f.src + (logits ? 4 : e.act) * f.dst;
		n->fwd_wbytes = (e.cast + e.w) * f.wei + 4 * f.bia;
		n->bwd_data_wbytes = L->needs_bwd_data ? e.w * f.wei : 0;
		n->bwd_weights_bytes = e.act * (f.src + f.dst);
		n->bwd_weights_wbytes = 4 * (f.wei + f.bia);
		/* fp32 weight gradient: the fp32 input (4) and the output gradient after its cast
		 * (read 2, write 4, then read 4) */
		if (L->bwd_w_fp32)
			n->bwd_weights_bytes = 4 * ie + (e.act + 4 + 4) * oe;
		break;
	case RT_LAYER_RELU:
	case RT_LAYER_DROPOUT:
		/* fused: applied to the convolution's output in its epilogue, no bytes of its
		 * own, and the output is the convolution's buffer */
		if (L->fused) {
			n->fwd_bytes = 0;
			n->kept_elems = 0;
		}
		/* src or mask, dy, dx; folded: counted with the max pool that computes it */
		if (L->bwd_folded)
			n->bwd_data_flops = n->bwd_data_bytes = 0;
		if (L->type == RT_LAYER_DROPOUT)
			n->kept_elems += rt_shape_elems(L->in);          /* the scaled mask */
		break;
	case RT_LAYER_MAXPOOL:
	case RT_LAYER_AVGPOOL:
		/* the relu before it, on the pooled output: a select per output (reads the
		 * output and its gradient, writes the masked gradient) */
		if (L->folds_relu) {
			n->bwd_data_flops += oe;
			n->bwd_data_bytes += e.act * 3 * oe;
		}
		break;
	case RT_LAYER_BATCHNORM:
		n->params = 2 * L->in.c;
		n->bwd_weights_flops = rt_prim_count(&q, RT_PRIM_BWD_WEIGHTS).flops;
		n->fwd_wbytes = 4.0 * (double)n->params;
		n->bwd_weights_bytes = 0;               /* one primitive: counted with data */
		n->bwd_weights_wbytes = 4.0 * 2 * (double)n->params;   /* reads scale, writes diff */
		break;
	case RT_LAYER_ADD:
		n->bwd_data_flops = n->bwd_data_bytes = 0;      /* its gradient is its output's */
		break;
	case RT_LAYER_SOFTMAX_XENT:
		/* the softmax, then -log of the label's: 5C + 1; backward: subtract the one-hot
		 * label and scale by 1/N: 2C. The logits and the probabilities are fp32; the
		 * gradient is written in the activation precision. */
		n->fwd_flops += 1;
		n->bwd_data_flops = 2.0 * (double)classes;
		n->fwd_bytes = 4 * (ie + oe) + 4;       /* + the label */
		n->bwd_data_bytes = 4 * oe + e.act * ie + 4;
		break;
	case RT_LAYER_TYPE_COUNT:
		break;
	}
}



/* How many layers read the output of layer i; *last is one of them. */
static int users_of(const struct rt_model *m, int i, int *last)
{
	int users = 0;

	for (size_t k = 0; k < m->nlayers; k++) {
		int u = (m->layers[k].input == i) +
			(m->layers[k].type == RT_LAYER_ADD && m->layers[k].from == i);

		if (u)
			*last = (int)k;
		users += u;
	}
	return users;
}

/* A relu whose input is a convolution that feeds nothing else runs as that convolution's
 * post-op. A relu whose output feeds only a max pool has its backward done by the pool, on
 * the pool's output: the pool routes each gradient to the position of its window's maximum,
 * where the relu's output is the pool's output, so selecting on the pool's output first gives
 * the same result on a quarter of the elements (2x2) and needs no gradient buffer of the
 * relu's output. */
static void mark_fused(struct rt_model *m)
{
	for (size_t i = 0; i < m->nlayers; i++)
		m->layers[i].fused = m->layers[i].bwd_folded = m->layers[i].folds_relu = false;
	for (size_t i = 0; i < m->nlayers; i++) {
		struct rt_layer_desc *L = &m->layers[i];
		int user = -1;

		if (L->type != RT_LAYER_RELU || L->input < 0)
			continue;
		if (L->needs_bwd_data && users_of(m, (int)i, &user) == 1 &&
		    m->layers[user].type == RT_LAYER_MAXPOOL && m->layers[user].input == (int)i) {
			L->bwd_folded = true;
			m->layers[user].folds_relu = true;
		}
		L->fused = m->layers[L->input].type == RT_LAYER_CONV &&
			   users_of(m, L->input, &user) == 1;
	}
}

void rt_model_set_precision(struct rt_model *m, enum rt_precision p)
{
	const int loss_in = m->nlayers ? m->layers[m->nlayers - 1].input : -1;

	m->precision = p;
	for (size_t i = 0; i < m->nlayers; i++) {
		struct rt_layer_desc *L = &m->layers[i];

		L->bwd_w_fp32 = p == RT_PRECISION_BF16 && L->type == RT_LAYER_CONV && L->input < 0 &&
				L->in.c < RT_BWD_W_FP32_CHANNELS;
		count(L, m->classes, p, (int)i == loss_in);
	}
}

/* The output height and width of a window (conv, pool) over the padded input, or the error
 * when the kernel does not fit. */
static int window_shape(const struct rt_cfg_reader *ps, const config_setting_t *g,
			struct rt_layer_desc *L, const char *ctx)
{
	char a[64];

	L->out.h = window_out(L->in.h, L->kernel, L->stride, L->pad);
	L->out.w = window_out(L->in.w, L->kernel, L->stride, L->pad);
	if (L->out.h && L->out.w)
		return 0;
	shape_str(a, sizeof(a), L->in);
	return rt_cfg_bad(ps, g, "", "%s: kernel %ld is larger than its %s input with padding %ld", ctx,
		    L->kernel, a, L->pad);
}

/* 'bias': true (the default) or false. */
static int bias_member(const struct rt_cfg_reader *ps, const config_setting_t *g, bool *bias,
		       const char *ctx)
{
	const config_setting_t *s = config_setting_get_member(g, "bias");

	*bias = true;
	if (!s)
		return 0;
	if (config_setting_type(s) != CONFIG_TYPE_BOOL)
		return rt_cfg_bad(ps, s, "", "%s: 'bias' must be true or false", ctx);
	*bias = config_setting_get_bool(s);
	return 0;
}

static int parse_layer(const struct rt_cfg_reader *ps, struct rt_model *m, size_t idx,
		       const config_setting_t *g)
{
	struct rt_layer_desc *L = &m->layers[idx];
	const char *type = NULL, *name = NULL, *input = NULL, *from = NULL;
	char ctx[96], a[64], b[64];
	int rc, t;

	memset(L, 0, sizeof(*L));
	L->line = config_setting_source_line(g);
	snprintf(ctx, sizeof(ctx), "layer %zu", idx + 1);
	if (config_setting_type(g) != CONFIG_TYPE_GROUP)
		return rt_cfg_bad(ps, config_setting_parent(g), "", "%s must be a group { type = ...; }", ctx);
	if ((rc = str_member(ps, g, "type", &type, ctx)))
		return rc;
	if (!type)
		return rt_cfg_bad(ps, g, "", "%s: missing 'type'", ctx);
	for (t = 0; t < RT_LAYER_TYPE_COUNT; t++)
		if (!strcmp(type, type_names[t]))
			break;
	if (t == RT_LAYER_TYPE_COUNT)
		return rt_cfg_bad(ps, config_setting_get_member(g, "type"), "", "%s: unknown layer type '%s' "
			    "(conv, relu, maxpool, avgpool, batchnorm, fc, dropout, add, "
			    "softmax_xent)", ctx, type);
	L->type = (enum rt_layer_type)t;
	if ((rc = str_member(ps, g, "name", &name, ctx)))
		return rc;
	if (name) {
		if (!*name || strlen(name) >= RT_MODEL_NAME_MAX)
			return rt_cfg_bad(ps, config_setting_get_member(g, "name"), "",
				    "%s: 'name' must have 1 to %d characters", ctx,
				    RT_MODEL_NAME_MAX - 1);
		if (has_control(name))
			return rt_cfg_bad(ps, config_setting_get_member(g, "name"), "",
				    "%s: 'name' holds a control character (tab, newline, ...)", ctx);
		if (find_layer(m, idx, name) >= 0)
			return rt_cfg_bad(ps, config_setting_get_member(g, "name"), "",
				    "%s: name '%s' is already used by layer %d%s", ctx, name,
				    find_layer(m, idx, name) + 1,
				    m->layers[find_layer(m, idx, name)].auto_name ?
				    " (its automatic name: it has no 'name')" : "");
		snprintf(L->name, sizeof(L->name), "%s", name);
	} else {
		/* TYPE and its place; a name an earlier layer took gets -2, -3, ...: names are
		 * unique (they name rows of points.csv) */
		snprintf(L->name, sizeof(L->name), "%s%zu", type, idx + 1);
		for (int k = 2; find_layer(m, idx, L->name) >= 0; k++)
			snprintf(L->name, sizeof(L->name), "%s%zu-%d", type, idx + 1, k);
		L->auto_name = true;
	}
	snprintf(ctx, sizeof(ctx), "layer %zu (%s)", idx + 1, L->name);

	/* where the input comes from: the previous layer, or a named earlier one */
	L->input = (int)idx - 1;
	if ((rc = str_member(ps, g, "input", &input, ctx)))
		return rc;
	if (input) {
		L->input = find_layer(m, idx, input);
		if (L->input < 0)
			return rt_cfg_bad(ps, config_setting_get_member(g, "input"), "",
				    "%s: 'input' names '%s', which is not an earlier layer", ctx,
				    input);
	}
	if (L->input >= 0 && m->layers[L->input].type == RT_LAYER_SOFTMAX_XENT)
		return rt_cfg_bad(ps, g, "", "%s: nothing can follow softmax_xent", ctx);
	L->in = L->input < 0 ? m->input : m->layers[L->input].out;
	/* a layer needs a data gradient unless the model input feeds it directly */
	L->needs_bwd_data = L->input >= 0;

	switch (L->type) {
	case RT_LAYER_CONV:
		if ((rc = req_int(ps, g, "filters", 1, MAX_DIM, &L->filters, ctx)) ||
		    (rc = req_int(ps, g, "kernel", 1, MAX_DIM, &L->kernel, ctx)) ||
		    (rc = int_member(ps, g, "stride", 1, 1, MAX_DIM, &L->stride, ctx)) ||
		    (rc = int_member(ps, g, "pad", 0, 0, MAX_DIM, &L->pad, ctx)) ||
		    (rc = int_member(ps, g, "groups", 1, 1, MAX_DIM, &L->groups, ctx)))
			return rc;
		if ((rc = bias_member(ps, g, &L->bias, ctx)))
			return rc;
		if (L->in.c % L->groups || L->filters % L->groups)
			return rt_cfg_bad(ps, g, "", "%s: %ld groups do not divide %ld input channels and %ld "
				    "filters", ctx, L->groups, L->in.c, L->filters);
		L->out.c = L->filters;
		if ((rc = window_shape(ps, g, L, ctx)))
			return rc;
		break;
	case RT_LAYER_MAXPOOL:
	case RT_LAYER_AVGPOOL:
		if ((rc = req_int(ps, g, "kernel", 1, MAX_DIM, &L->kernel, ctx)) ||
		    (rc = int_member(ps, g, "stride", L->kernel, 1, MAX_DIM, &L->stride, ctx)) ||
		    (rc = int_member(ps, g, "pad", 0, 0, MAX_DIM, &L->pad, ctx)))
			return rc;
		if (L->pad >= L->kernel)
			return rt_cfg_bad(ps, g, "", "%s: padding %ld must be smaller than the kernel %ld", ctx,
				    L->pad, L->kernel);
		L->out.c = L->in.c;
		if ((rc = window_shape(ps, g, L, ctx)))
			return rc;
		break;
	case RT_LAYER_FC:
		if ((rc = req_int(ps, g, "outputs", 1, MAX_DIM, &L->outputs, ctx)))
			return rc;
		if ((rc = bias_member(ps, g, &L->bias, ctx)))
			return rc;
		L->out = (struct rt_shape){ L->outputs, 1, 1 };
		if ((double)rt_shape_elems(L->in) * (double)L->outputs > (double)MAX_ELEMS * 8)
			return rt_cfg_bad(ps, g, "", "%s: %ld x %ld weights (%.3g bytes) are too many", ctx,
				    rt_shape_elems(L->in), L->outputs,
				    4.0 * (double)rt_shape_elems(L->in) * (double)L->outputs);
		break;
	case RT_LAYER_DROPOUT: {
		const config_setting_t *s = config_setting_get_member(g, "rate");

		L->rate = 0.5;
		if (s) {
			if (config_setting_type(s) == CONFIG_TYPE_FLOAT)
				L->rate = config_setting_get_float(s);
			else if (config_setting_type(s) == CONFIG_TYPE_INT)
				L->rate = config_setting_get_int(s);
			else
				return rt_cfg_bad(ps, s, "", "%s: 'rate' must be a number", ctx);
			if (!(L->rate >= 0 && L->rate < 1))
				return rt_cfg_bad(ps, s, "", "%s: 'rate' = %g is not in [0, 1)", ctx, L->rate);
		}
		L->out = L->in;
		break;
	}
	case RT_LAYER_ADD:
		if ((rc = str_member(ps, g, "from", &from, ctx)))
			return rc;
		if (!from)
			return rt_cfg_bad(ps, g, "", "%s: missing 'from' (the earlier layer it adds)", ctx);
		L->from = find_layer(m, idx, from);
		if (L->from < 0)
			return rt_cfg_bad(ps, config_setting_get_member(g, "from"), "",
				    "%s: 'from' names '%s', which is not an earlier layer", ctx, from);
		if (L->from == L->input)
			return rt_cfg_bad(ps, config_setting_get_member(g, "from"), "",
				    "%s: 'from' names its own input '%s'", ctx, from);
		{
			struct rt_shape o = m->layers[L->from].out;

			if (o.c != L->in.c || o.h != L->in.h || o.w != L->in.w) {
				shape_str(a, sizeof(a), L->in);
				shape_str(b, sizeof(b), o);
				return rt_cfg_bad(ps, g, "", "%s: cannot add shapes %s and %s (from '%s')", ctx,
					    a, b, from);
			}
		}
		L->out = L->in;
		break;
	case RT_LAYER_SOFTMAX_XENT:
		if (rt_shape_elems(L->in) != m->classes)
			return rt_cfg_bad(ps, g, "", "%s: softmax_xent needs %ld inputs (the classes), not "
				    "%ld", ctx, m->classes, rt_shape_elems(L->in));
		L->out = L->in;
		break;
	case RT_LAYER_RELU:
	case RT_LAYER_BATCHNORM:
		L->out = L->in;
		break;
	case RT_LAYER_TYPE_COUNT:
		break;
	}
	if ((double)L->out.c * (double)L->out.h * (double)L->out.w > (double)MAX_ELEMS)
		return rt_cfg_bad(ps, g, "", "%s: output of %ld x %ld x %ld elements per image is too large",
			    ctx, L->out.c, L->out.h, L->out.w);
	return 0;
}

/* Load path; h, w > 0 replace the input's height and width (every shape follows). */
static int load(struct rt_model **out, const char *path, long h, long w, struct rt_err *err)
{
	struct rt_cfg_reader ps = { .path = path, .err = err };
	const config_setting_t *root, *in, *layers;
	struct rt_model *m = NULL;
	const char *name = NULL;
	config_t cfg;
	int rc = 0, nl;

	if ((rc = rt_cfg_read(&cfg, path, err))) {
		if (rc == -ENOENT)
			rt_err_set(err, rc, "%s: cannot read the model file: it does not exist", path);
		goto out;
	}
	root = config_lookup(&cfg, "model");
	if (!root || config_setting_type(root) != CONFIG_TYPE_GROUP) {
		rc = rt_cfg_bad(&ps, root, "", "no 'model' group: not a rooftraj model file");
		goto out;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	snprintf(m->path, sizeof(m->path), "%s", path);
	if ((rc = str_member(&ps, root, "name", &name, "model")))
		goto out;
	if (name && !valid_model_name(name)) {
		rc = rt_cfg_bad(&ps, config_setting_get_member(root, "name"), "", "model: name '%s' is not a "
			  "plain file name (letters, digits, '.', '_', '+', '-'; not starting with "
			  "'.')", name);
		goto out;
	}
	snprintf(m->name, sizeof(m->name), "%s", name ? name : "model");
	in = config_setting_get_member(root, "input");
	if (!in || config_setting_type(in) != CONFIG_TYPE_ARRAY || config_setting_length(in) != 3) {
		rc = rt_cfg_bad(&ps, in ? in : root, "",
				"model: 'input' must be [ channels, height, width ]");
		goto out;
	}
	{
		long dims[3];

		for (int i = 0; i < 3; i++) {
			const config_setting_t *e = config_setting_get_elem(in, (unsigned)i);

			if (config_setting_type(e) != CONFIG_TYPE_INT) {
				rc = rt_cfg_bad(&ps, in, "", "model: 'input' must hold integers");
				goto out;
			}
			dims[i] = config_setting_get_int(e);
			if (dims[i] < 1 || dims[i] > MAX_DIM) {
				rc = rt_cfg_bad(&ps, in, "", "model: input %s = %ld is not in 1..%ld",
					  i == 0 ? "channels" : i == 1 ? "height" : "width", dims[i],
					  MAX_DIM);
				goto out;
			}
		}
		if (h > 0 && w > 0) {
			dims[1] = h;
			dims[2] = w;
		}
		m->input = (struct rt_shape){ dims[0], dims[1], dims[2] };
	}
	if ((rc = req_int(&ps, root, "classes", 2, MAX_DIM, &m->classes, "model")) ||
	    (rc = int_member(&ps, root, "batch", 64, 1, 65536, &m->batch, "model")))
		goto out;
	layers = config_setting_get_member(root, "layers");
	if (!layers || config_setting_type(layers) != CONFIG_TYPE_LIST) {
		rc = rt_cfg_bad(&ps, layers ? layers : root, "",
				"model: 'layers' must be a list ( {...}, ... )");
		goto out;
	}
	nl = config_setting_length(layers);
	if (nl < 1 || nl > RT_MODEL_MAX_LAYERS) {
		rc = rt_cfg_bad(&ps, layers, "", "model: %d layers (1..%d allowed)", nl, RT_MODEL_MAX_LAYERS);
		goto out;
	}
	m->layers = calloc((size_t)nl, sizeof(*m->layers));
	if (!m->layers) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (int i = 0; i < nl; i++) {
		rc = parse_layer(&ps, m, (size_t)i, config_setting_get_elem(layers, (unsigned)i));
		if (rc)
			goto out;
		m->nlayers = (size_t)i + 1;
	}
	if (m->layers[nl - 1].type != RT_LAYER_SOFTMAX_XENT) {
		rc = rt_cfg_bad(&ps, config_setting_get_elem(layers, (unsigned)nl - 1), "",
				"model: the last layer must be softmax_xent, not %s",
			  rt_layer_type_name(m->layers[nl - 1].type));
		goto out;
	}
	for (int i = 0; i + 1 < nl; i++)
		if (m->layers[i].type == RT_LAYER_SOFTMAX_XENT) {
			rc = rt_cfg_bad(&ps, config_setting_get_elem(layers, (unsigned)i), "",
					"model: softmax_xent must be the last layer");
			goto out;
		}
	mark_fused(m);
	rt_model_set_precision(m, RT_PRECISION_FP32);
	*out = m;
	m = NULL;
out:
	rt_model_destroy(m);
	config_destroy(&cfg);
	return rc;
}

int rt_model_load(struct rt_model **out, const char *path, struct rt_err *err)
{
	return load(out, path, 0, 0, err);
}

int rt_model_reshape(struct rt_model **m, long h, long w, struct rt_err *err)
{
	struct rt_model *r = NULL;
	struct rt_err why;
	int rc;

	if (h < 1 || w < 1 || h > MAX_DIM || w > MAX_DIM)
		return rt_err_set(err, -EINVAL, "input %ldx%ld: height and width must be in 1..%ld",
				  h, w, MAX_DIM);
	if (h == (*m)->input.h && w == (*m)->input.w)
		return 0;
	if ((rc = load(&r, (*m)->path, h, w, &why)))
		return rt_err_set(err, rc, "input %ldx%ld does not fit model '%s': %s", h, w,
				  (*m)->name, why.msg);
	rt_model_set_precision(r, (*m)->precision);
	rt_model_destroy(*m);
	*m = r;
	return 0;
}

int rt_model_open(struct rt_model **out, const char *name_or_path, struct rt_err *err)
{
	/* the installed models before the source tree's: an installed tool never reads a tree
	 * that may have moved on (the tests name theirs through ROOFTRAJ_MODELS) */
	const char *dirs[3] = { getenv("ROOFTRAJ_MODELS"), PKGDATADIR "/cnn/models",
				RT_SRCDIR "/cnn/models" };
	char path[4096];

	if (strchr(name_or_path, '/') || strstr(name_or_path, ".cfg"))
		return rt_model_load(out, name_or_path, err);
	for (size_t i = 0; i < 3; i++) {
		if (!dirs[i] || !*dirs[i])
			continue;
		snprintf(path, sizeof(path), "%s/%s.cfg", dirs[i], name_or_path);
		if (access(path, R_OK) == 0)
			return rt_model_load(out, path, err);
	}
	return rt_err_set(err, -ENOENT, "no model '%s' (shipped: lenet5, convnet, alexnet, vgg16, "
			  "resnet18; or give a file path)", name_or_path);
}

double rt_model_published_macs(const struct rt_model *m)
{
	double macs = 0;

	for (size_t i = 0; i < m->nlayers; i++) {
		const struct rt_layer_desc *L = &m->layers[i];

		if (L->type == RT_LAYER_CONV)
			macs += (double)L->filters * (double)L->out.h * (double)L->out.w *
				(double)(L->in.c / (L->groups > 0 ? L->groups : 1)) *
				(double)L->kernel * (double)L->kernel;
		else if (L->type == RT_LAYER_FC)
			macs += (double)rt_shape_elems(L->in) * (double)L->outputs;
	}
	return macs;
}

void rt_model_totals(const struct rt_model *m, long n, struct rt_model_totals *t)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < m->nlayers; i++) {
		const struct rt_layer_counts *c = &m->layers[i].n;

		t->fwd_flops += (double)n * c->fwd_flops;
		t->bwd_flops += (double)n * (c->bwd_data_flops + c->bwd_weights_flops);
		t->fwd_bytes += (double)n * c->fwd_bytes + c->fwd_wbytes;
		t->bwd_bytes += (double)n * (c->bwd_data_bytes + c->bwd_weights_bytes) +
				c->bwd_data_wbytes + c->bwd_weights_wbytes;
		t->params += c->params;
		t->kept_elems += c->kept_elems;
		t->act_elems += rt_shape_elems(m->layers[i].out);
	}
	t->update_flops = (double)RT_SGD_FLOPS_PER_PARAM * (double)t->params;
	t->update_bytes = (double)RT_SGD_BYTES_PER_PARAM * (double)t->params;
}

/* The layer whose primitive runs layer i's forward (fwd) and backward (bwd). */
static void hosts(const struct rt_model *m, size_t i, size_t *fwd, size_t *bwd)
{
	const struct rt_layer_desc *L = &m->layers[i];

	*fwd = *bwd = i;
	if (L->fused && L->input >= 0)
		*fwd = (size_t)L->input;
	if (L->bwd_folded)
		for (size_t j = i + 1; j < m->nlayers; j++)
			if (m->layers[j].folds_relu && m->layers[j].input == (int)i)
				*bwd = j;
}

static void append_name(char *buf, size_t size, const char *name)
{
	size_t len = strlen(buf);

	snprintf(buf + len, size - len, "+%s", name);
}

void rt_model_layer_work(const struct rt_model *m, long n, const double *t_fwd,
			 const double *t_bwd, struct rt_layer_work *out)
{
	const double b = (double)n;

	for (size_t i = 0; i < m->nlayers; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		snprintf(out[i].name, sizeof(out[i].name), "%s", m->layers[i].name);
	}
	for (size_t i = 0; i < m->nlayers; i++) {
		const struct rt_layer_counts *c = &m->layers[i].n;
		size_t hf, hb;

		hosts(m, i, &hf, &hb);
		out[hf].fwd_flops += b * c->fwd_flops;
		out[hf].fwd_bytes += b * c->fwd_bytes + c->fwd_wbytes;
		out[hf].fwd_seconds += t_fwd ? t_fwd[i] : 0;
		out[hb].bwd_flops += b * (c->bwd_data_flops + c->bwd_weights_flops);
		out[hb].bwd_bytes += b * (c->bwd_data_bytes + c->bwd_weights_bytes) +
				     c->bwd_data_wbytes + c->bwd_weights_wbytes;
		out[hb].bwd_seconds += t_bwd ? t_bwd[i] : 0;
		if (hf != i)
			append_name(out[hf].name, sizeof(out[hf].name), m->layers[i].name);
		if (hb != i && hb != hf)
			append_name(out[hb].name, sizeof(out[hb].name), m->layers[i].name);
	}
	for (size_t i = 0; i < m->nlayers; i++) {
		size_t hf, hb;

		hosts(m, i, &hf, &hb);
		/* what stays here is only what ran here: a layer whose forward and backward both
		 * run elsewhere (or that has no backward) has no point of its own */
		if (hf == i || (hb == i && m->layers[i].needs_bwd_data && !m->layers[i].bwd_folded))
			continue;
		out[i].fused = true;
		out[i].fwd_seconds = out[i].bwd_seconds = 0;
		if (hb != i && hb != hf)
			snprintf(out[i].where, sizeof(out[i].where), "forward in %s, backward in %s",
				 out[hf].name, out[hb].name);
		else
			snprintf(out[i].where, sizeof(out[i].where), "in %s", out[hf].name);
	}
}
