/* layer-eltwise.c: ReLU (oneDNN eltwise) and dropout (a oneDNN binary multiply by a scaled
 * Bernoulli mask drawn from a seeded counter-based hash, so runs are reproducible) */
#include "config.h"
#include "cnn/net-internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int same_shape_out(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	DNNL_CHECK(rt_md_copy(&L->out_md, rt_net_in_md(n, L)), "memory descriptor");
	return rt_net_mem(n, L, &L->out, L->out_md, CAT_ACT, err);
}

static int relu_create(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	dnnl_primitive_desc_t pd = NULL;
	dnnl_status_t st;
	int rc;

	if (L->d->fused) {
		/* the convolution applied it: its output is ours; backward computes the gradient
		 * from that output (relu_use_dst_for_bwd), the forward pd is only the hint */
		void *h = NULL;

		DNNL_CHECK(rt_md_copy(&L->out_md, rt_net_in_md(n, L)), "memory descriptor");
		dnnl_memory_get_data_handle(rt_net_in_mem(n, L), &h);
		DNNL_CHECK(dnnl_memory_create(&L->out, L->out_md, n->eng, h), "memory view");
		DNNL_CHECK(rt_dnnl_eltwise_fwd_pd(&L->fwd_pd, n->eng, dnnl_forward_training,
						  dnnl_eltwise_relu_use_dst_for_bwd, L->out_md,
						  L->out_md, 0.f, 0.f, n->attr), "relu forward");
		if (L->d->bwd_folded)
			return 0;
		st = rt_dnnl_eltwise_bwd_pd(&pd, n->eng, dnnl_eltwise_relu_use_dst_for_bwd,
					    L->out_md, L->out_md, L->out_md, 0.f, 0.f, L->fwd_pd,
					    n->attr);
		return rt_net_prim(n, L, st, pd, &L->bwd_d, NULL, "relu backward", err);
	}
	if ((rc = same_shape_out(n, L, err)))
		return rc;
	st = rt_dnnl_eltwise_fwd_pd(&pd, n->eng, dnnl_forward_training, dnnl_eltwise_relu,
				    L->out_md, L->out_md, 0.f, 0.f, n->attr);
	if ((rc = rt_net_prim(n, L, st, pd, &L->fwd, &L->fwd_pd, "relu forward", err)))
		return rc;
	if (!L->d->needs_bwd_data || L->d->bwd_folded)
		return 0;
	st = rt_dnnl_eltwise_bwd_pd(&pd, n->eng, dnnl_eltwise_relu, L->out_md, L->out_md,
				    L->out_md, 0.f, 0.f, L->fwd_pd, n->attr);
	return rt_net_prim(n, L, st, pd, &L->bwd_d, NULL, "relu backward", err);
}

static int relu_forward(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	dnnl_exec_arg_t a[2] = { { DNNL_ARG_SRC, rt_net_in_mem(n, L) }, { DNNL_ARG_DST, L->out } };

	if (L->d->fused)
		return 0;
	return rt_net_exec(n, L, L->fwd, 2, a, err);
}

static int relu_backward(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	/* fused: the gradient from the output (the relu of the convolution's result) */
	dnnl_exec_arg_t a[3] = {
		{ L->d->fused ? DNNL_ARG_DST : DNNL_ARG_SRC, L->d->fused ? L->out :
		  rt_net_in_mem(n, L) },
		{ DNNL_ARG_DIFF_DST, L->dout }, { DNNL_ARG_DIFF_SRC, L->sink[0].dst },
	};

	/* folded: the max pool after it did this, on its output */
	if (!L->bwd_d || !L->sink[0].dst || L->d->bwd_folded)
		return 0;
	return rt_net_exec(n, L, L->bwd_d, 3, a, err);
}

const struct rt_layer_ops rt_layer_relu_ops = {
	.create = relu_create, .forward = relu_forward, .backward = relu_backward,
};

struct dropout_state {
	dnnl_memory_t mask;             /* kept for backward: an activation */
	dnnl_memory_t mask_plain;       /* the mask in logical order, when the layout differs */
	dnnl_primitive_t mask_reorder;  /* mask_plain -> mask */
};

static int dropout_create(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	struct dropout_state *s = rt_net_priv(L, sizeof(*s), err);
	dnnl_primitive_desc_t pd = NULL;
	rt_md_t plain = NULL;
	dnnl_status_t st;
	int rc;

	if (!s)
		return -ENOMEM;
	if ((rc = same_shape_out(n, L, err)) ||
	    (rc = rt_net_mem(n, L, &s->mask, L->out_md, CAT_ACT, err)))
		return rc;
	/* the mask is drawn in logical (plain) order, so it does not depend on the layout
	 * oneDNN chose; a reorder brings it to the activations' layout when that differs */
	rt_net_act_plain_md(n, &plain, rt_md_ndims(L->out_md), rt_md_dims(L->out_md));
	if (!dnnl_memory_desc_equal(plain, L->out_md) &&
	    ((rc = rt_net_mem(n, L, &s->mask_plain, plain, CAT_WORK, err)) ||
	     (rc = rt_net_reorder(n, L, plain, L->out_md, &s->mask_reorder, err)))) {
		rt_md_destroy(plain);
		return rc;
	}
	rt_md_destroy(plain);
	st = rt_dnnl_binary_pd(&pd, n->eng, dnnl_binary_mul, L->out_md, L->out_md, L->out_md,
			       n->attr);
	if ((rc = rt_net_prim(n, L, st, pd, &L->fwd, &L->fwd_pd, "dropout forward", err)))
		return rc;
	st = rt_dnnl_binary_pd(&pd, n->eng, dnnl_binary_mul, L->out_md, L->out_md, L->out_md,
			       n->attr);
	return rt_net_prim(n, L, st, pd, &L->bwd_d, NULL, "dropout backward", err);
}

/* splitmix64 of (seed, layer, iteration, element): independent of threads and layout order */
static inline uint64_t mix(uint64_t x)
{
	x += 0x9E3779B97F4A7C15ULL;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
	return x ^ (x >> 31);
}

static int dropout_forward(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	const double keep = 1.0 - L->d->rate;
	const float scale = (float)(1.0 / keep);
	const uint64_t key = mix(n->o.seed ^ mix(L->index ^ mix(n->iteration)));
	const uint64_t threshold = (uint64_t)(keep * 18446744073709551615.0);
	const bool bf16 = rt_md_dtype(L->out_md) == dnnl_bf16;
	const long cnt = (long)(rt_shape_elems(L->d->out) * n->o.batch);
	/* a rank's images are its slice of the global batch: so is its part of the mask */
	const uint64_t first = (uint64_t)n->o.rank * (uint64_t)cnt;
	const uint16_t scale16 = rt_bf16(scale);
	const struct dropout_state *s = L->priv;
	void *m = NULL;
	dnnl_exec_arg_t a[3] = {
		{ DNNL_ARG_SRC_0, rt_net_in_mem(n, L) }, { DNNL_ARG_SRC_1, s->mask },
		{ DNNL_ARG_DST, L->out },
	};

	/* the mask in the activations' type (bf16: the scale rounded to bf16), in logical
	 * order */
	dnnl_memory_get_data_handle(s->mask_plain ? s->mask_plain : s->mask, &m);
	if (bf16) {
		uint16_t *m16 = m;

#pragma omp parallel for schedule(static)
		for (long i = 0; i < cnt; i++)
			m16[i] = mix(key + first + (uint64_t)i) <= threshold ? scale16 : 0;
	} else {
		float *m32 = m;

#pragma omp parallel for schedule(static)
		for (long i = 0; i < cnt; i++)
			m32[i] = mix(key + first + (uint64_t)i) <= threshold ? scale : 0.0f;
	}
	if (s->mask_reorder) {
		dnnl_exec_arg_t r[2] = { { DNNL_ARG_FROM, s->mask_plain }, { DNNL_ARG_TO, s->mask } };
		int rc = rt_net_exec(n, L, s->mask_reorder, 2, r, err);

		if (rc)
			return rc;
	}
	return rt_net_exec(n, L, L->fwd, 3, a, err);
}

static int dropout_backward(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	const struct dropout_state *s = L->priv;
	dnnl_exec_arg_t a[3] = {
		{ DNNL_ARG_SRC_0, L->dout }, { DNNL_ARG_SRC_1, s->mask },
		{ DNNL_ARG_DST, L->sink[0].dst },
	};

	if (!L->sink[0].dst)
		return 0;
	return rt_net_exec(n, L, L->bwd_d, 3, a, err);
}

static void dropout_destroy(struct rt_net_layer *L)
{
	struct dropout_state *s = L->priv;

	if (!s)
		return;
	dnnl_memory_destroy(s->mask);
	dnnl_memory_destroy(s->mask_plain);
	dnnl_primitive_destroy(s->mask_reorder);
	free(s);
	L->priv = NULL;
}

const struct rt_layer_ops rt_layer_dropout_ops = {
	.create = dropout_create, .forward = dropout_forward, .backward = dropout_backward,
	.destroy = dropout_destroy,
};
