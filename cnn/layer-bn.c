/* layer-bn.c: batch normalization in training mode (batch statistics) with a learned scale and
 * shift; one backward primitive gives the data and the scale/shift gradients */
#include "config.h"
#include "cnn/net-internal.h"

#include <errno.h>
#include <stdlib.h>

#define BN_EPS 1e-5f

struct bn_state {
	dnnl_memory_t mean, var;        /* the batch statistics forward writes, backward reads */
	dnnl_memory_t dsrc;             /* a data gradient nobody reads: when the model input
					 * feeds the layer (backward always writes one) */
};

static int bn_create(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	const dnnl_memory_desc_t *src = rt_net_in_md(n, L), *q;
	dnnl_batch_normalization_desc_t bd;
	dnnl_memory_desc_t w_plain;
	dnnl_dims_t wd = { 2, L->d->in.c };
	struct bn_state *s = rt_net_priv(L, sizeof(*s), err);
	int rc;

	if (!s)
		return -ENOMEM;
	L->out_md = *src;
	if ((rc = rt_net_mem(n, L, &L->out, &L->out_md, CAT_ACT, err)))
		return rc;
	DNNL_CHECK(dnnl_batch_normalization_forward_desc_init(&bd, dnnl_forward_training, src,
							      BN_EPS, dnnl_use_scaleshift),
		   "batch normalization descriptor");
	if ((rc = rt_net_prim(n, L, &bd, NULL, &L->fwd, &L->fwd_pd, "batch normalization forward",
			      err)))
		return rc;
	q = dnnl_primitive_desc_query_md(L->fwd_pd, dnnl_query_dst_md, 1);
	if ((rc = rt_net_mem(n, L, &s->mean, q, CAT_WORK, err)))
		return rc;
	q = dnnl_primitive_desc_query_md(L->fwd_pd, dnnl_query_dst_md, 2);
	if ((rc = rt_net_mem(n, L, &s->var, q, CAT_WORK, err)))
		return rc;
	rt_net_plain_md(&w_plain, 2, wd);
	q = dnnl_primitive_desc_query_md(L->fwd_pd, dnnl_query_weights_md, 0);
	if ((rc = rt_net_params(n, L, q, &w_plain, NULL, 1, true, err)))
		return rc;
	/* the backward primitive always writes a data gradient: give it somewhere to go when
	 * the model input feeds the layer */
	if (L->d->input < 0 && (rc = rt_net_mem(n, L, &s->dsrc, src, CAT_WORK, err)))
		return rc;
	DNNL_CHECK(dnnl_batch_normalization_backward_desc_init(&bd, dnnl_backward, &L->out_md, src,
							       BN_EPS, dnnl_use_scaleshift),
		   "batch normalization backward descriptor");
	return rt_net_prim(n, L, &bd, L->fwd_pd, &L->bwd_d, NULL, "batch normalization backward",
			   err);
}

static int bn_forward(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	const struct bn_state *s = L->priv;
	dnnl_exec_arg_t a[5] = {
		{ DNNL_ARG_SRC, rt_net_in_mem(n, L) }, { DNNL_ARG_DST, L->out },
		{ DNNL_ARG_SCALE_SHIFT, L->w }, { DNNL_ARG_MEAN, s->mean },
		{ DNNL_ARG_VARIANCE, s->var },
	};

	return rt_net_exec(n, L, L->fwd, 5, a, err);
}

static int bn_backward(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	const struct bn_state *s = L->priv;
	dnnl_exec_arg_t a[7] = {
		{ DNNL_ARG_SRC, rt_net_in_mem(n, L) }, { DNNL_ARG_MEAN, s->mean },
		{ DNNL_ARG_VARIANCE, s->var }, { DNNL_ARG_DIFF_DST, L->dout },
		{ DNNL_ARG_SCALE_SHIFT, L->w }, { DNNL_ARG_DIFF_SCALE_SHIFT, L->dw },
		{ DNNL_ARG_DIFF_SRC, L->sink[0].dst ? L->sink[0].dst : s->dsrc },
	};

	return rt_net_exec(n, L, L->bwd_d, 7, a, err);
}

static void bn_destroy(struct rt_net_layer *L)
{
	struct bn_state *s = L->priv;

	if (!s)
		return;
	dnnl_memory_destroy(s->mean);
	dnnl_memory_destroy(s->var);
	dnnl_memory_destroy(s->dsrc);
	free(s);
	L->priv = NULL;
}

const struct rt_layer_ops rt_layer_bn_ops = {
	.create = bn_create, .forward = bn_forward, .backward = bn_backward,
	.destroy = bn_destroy,
};
