/* layer-pool.c: max pooling (with oneDNN's workspace of argmax positions) and average pooling
 * (padding included in the average, as PyTorch's default) */
#include "config.h"
#include "net-internal.h"

static int pool_create(struct rt_net *n, struct lrt *L, struct rt_err *err)
{
	const struct rt_layer_desc *d = L->d;
	const bool max = d->type == RT_LAYER_MAXPOOL;
	const dnnl_alg_kind_t alg = max ? dnnl_pooling_max : dnnl_pooling_avg_include_padding;
	dnnl_dims_t dd = { n->o.batch, d->out.c, d->out.h, d->out.w };
	dnnl_dims_t st = { d->stride, d->stride }, k = { d->kernel, d->kernel }, dil = { 0, 0 };
	dnnl_dims_t pl = { d->pad, d->pad }, pr;
	const dnnl_memory_desc_t *src = rt_net_in_md(n, L), *q;
	dnnl_memory_desc_t dst;
	dnnl_pooling_v2_desc_t pd;
	int rc;

	pr[0] = (d->out.h - 1) * d->stride + d->kernel - d->in.h - d->pad;
	pr[1] = (d->out.w - 1) * d->stride + d->kernel - d->in.w - d->pad;
	if (n->o.plain)
		rt_net_act_plain_md(n, &dst, 4, dd);
	else
		dnnl_memory_desc_init_by_tag(&dst, 4, dd, src->data_type, dnnl_format_tag_any);
	DNNL_CHECK(dnnl_pooling_v2_forward_desc_init(&pd, dnnl_forward_training, alg, src, &dst,
						     st, k, dil, pl, pr), "pooling descriptor");
	if ((rc = rt_net_prim(n, L, &pd, NULL, &L->fwd, &L->fwd_pd, "pooling forward", err)))
		return rc;
	q = dnnl_primitive_desc_query_md(L->fwd_pd, dnnl_query_dst_md, 0);
	L->out_md = *q;
	if ((rc = rt_net_mem(n, L, &L->out, &L->out_md, CAT_ACT, err)))
		return rc;
	q = dnnl_primitive_desc_query_md(L->fwd_pd, dnnl_query_workspace_md, 0);
	if (q && dnnl_memory_desc_get_size(q) &&
	    (rc = rt_net_mem(n, L, &L->ws, q, CAT_WORK, err)))
		return rc;
	if (!d->needs_bwd_data)
		return 0;
	DNNL_CHECK(dnnl_pooling_v2_backward_desc_init(&pd, alg, src, &L->out_md, st, k, dil, pl,
						      pr), "pooling backward descriptor");
	return rt_net_prim(n, L, &pd, L->fwd_pd, &L->bwd_d, NULL, "pooling backward", err);
}

static int pool_forward(struct rt_net *n, struct lrt *L, struct rt_err *err)
{
	dnnl_exec_arg_t a[3] = {
		{ DNNL_ARG_SRC, rt_net_in_mem(n, L) }, { DNNL_ARG_DST, L->out },
		{ DNNL_ARG_WORKSPACE, L->ws },
	};

	return rt_net_exec(n, L, L->fwd, L->ws ? 3 : 2, a, err);
}

static int pool_backward(struct rt_net *n, struct lrt *L, struct rt_err *err)
{
	dnnl_exec_arg_t a[3] = {
		{ DNNL_ARG_DIFF_DST, L->dout }, { DNNL_ARG_DIFF_SRC, L->sink[0].dst },
		{ DNNL_ARG_WORKSPACE, L->ws },
	};

	if (!L->bwd_d || !L->sink[0].dst)
		return 0;
	return rt_net_exec(n, L, L->bwd_d, L->ws ? 3 : 2, a, err);
}

const struct rt_layer_ops rt_layer_pool_ops = {
	.create = pool_create, .forward = pool_forward, .backward = pool_backward,
};
