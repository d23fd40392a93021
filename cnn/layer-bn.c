/* layer-bn.c: batch normalization in training mode (batch statistics) with a learned scale and
 * shift; one backward primitive gives the data and the scale/shift gradients */
#include "config.h"
#include "cnn/net-internal.h"

#include <errno.h>
#include <stdlib.h>

#define BN_EPS 1e-5f

struct bn_state {
	dnnl_memory_t mean, var;        /* the batch statistics forward writes, backward reads */
	dnnl_memory_t scale, shift;     /* the two rows of L->w (scale, then shift) */
	dnnl_memory_t dscale, dshift;   /* and of L->dw */
	bool bwd_shift;                 /* backward takes the shift (2.x: yes; 3.x refuses it) */
	dnnl_memory_t dsrc;             /* a data gradient nobody reads: when the model input
					 * feeds the layer (backward always writes one) */
};

/* row r of a 2 x C parameter memory as a memory of its own (not allocated: not counted) */
static dnnl_status_t row_of(dnnl_memory_t *row, dnnl_memory_t m, const_rt_md_t md, int r,
			    dnnl_engine_t eng)
{
	void *h = NULL;
	dnnl_status_t st = dnnl_memory_get_data_handle(m, &h);

	if (st == dnnl_success)
		st = dnnl_memory_create(row, md, eng,
					(char *)h + (size_t)r * dnnl_memory_desc_get_size(md));
	return st;
}

static int bn_create(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	const_rt_md_t src = rt_net_in_md(n, L), q;
	dnnl_primitive_desc_t pd = NULL;
	rt_md_t w_plain = NULL;
	dnnl_dims_t wd = { 2, L->d->in.c };
	struct bn_state *s = rt_net_priv(L, sizeof(*s), err);
	dnnl_status_t st;
	int rc;

	if (!s)
		return -ENOMEM;
	DNNL_CHECK(rt_md_copy(&L->out_md, src), "memory descriptor");
	if ((rc = rt_net_mem(n, L, &L->out, L->out_md, CAT_ACT, err)))
		return rc;
	st = rt_dnnl_bnorm_fwd_pd(&pd, n->eng, dnnl_forward_training, src, L->out_md, BN_EPS,
				  n->attr);
	if ((rc = rt_net_prim(n, L, st, pd, &L->fwd, &L->fwd_pd, "batch normalization forward",
			      err)))
		return rc;
	q = dnnl_primitive_desc_query_md(L->fwd_pd, dnnl_query_dst_md, 1);
	if ((rc = rt_net_mem(n, L, &s->mean, q, CAT_WORK, err)))
		return rc;
	q = dnnl_primitive_desc_query_md(L->fwd_pd, dnnl_query_dst_md, 2);
	if ((rc = rt_net_mem(n, L, &s->var, q, CAT_WORK, err)))
		return rc;
	/* the scale and the shift: one plain 2 x C parameter tensor, its rows the primitive's
	 * two arguments */
	rt_net_plain_md(&w_plain, 2, wd);
	rc = rt_net_params(n, L, w_plain, w_plain, NULL, 1, true, err);
	rt_md_destroy(w_plain);
	if (rc)
		return rc;
	q = dnnl_primitive_desc_query_md(L->fwd_pd, dnnl_query_weights_md, 0);
	DNNL_CHECK(row_of(&s->scale, L->w, q, 0, n->eng), "scale memory");
	DNNL_CHECK(row_of(&s->shift, L->w, q, 1, n->eng), "shift memory");
	DNNL_CHECK(row_of(&s->dscale, L->dw, q, 0, n->eng), "scale gradient memory");
	DNNL_CHECK(row_of(&s->dshift, L->dw, q, 1, n->eng), "shift gradient memory");
	/* the backward primitive always writes a data gradient: give it somewhere to go when
	 * the model input feeds the layer */
	if (L->d->input < 0 && (rc = rt_net_mem(n, L, &s->dsrc, src, CAT_WORK, err)))
		return rc;
	st = rt_dnnl_bnorm_bwd_pd(&pd, n->eng, src, L->out_md, src, BN_EPS, L->fwd_pd, n->attr);
	if ((rc = rt_net_prim(n, L, st, pd, &L->bwd_d, NULL, "batch normalization backward", err)))
		return rc;
	/* oneDNN counts the inputs a primitive gets and refuses one more or one less: backward
	 * reads the source, the statistics, the output gradient and the scale, and the shift
	 * where its pd counts one more input (2.x does, 3.x does not) */
	{
		const_dnnl_primitive_desc_t bpd = NULL;
		int inputs = 0;

		dnnl_primitive_get_primitive_desc(L->bwd_d, &bpd);
		if (bpd)
			dnnl_primitive_desc_query(bpd, dnnl_query_num_of_inputs_s32, 0, &inputs);
		s->bwd_shift = inputs > 5;
	}
	return 0;
}

static int bn_forward(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	const struct bn_state *s = L->priv;
	dnnl_exec_arg_t a[6] = {
		{ DNNL_ARG_SRC, rt_net_in_mem(n, L) }, { DNNL_ARG_DST, L->out },
		{ DNNL_ARG_SCALE, s->scale }, { DNNL_ARG_SHIFT, s->shift },
		{ DNNL_ARG_MEAN, s->mean }, { DNNL_ARG_VARIANCE, s->var },
	};

	return rt_net_exec(n, L, L->fwd, 6, a, err);
}

static int bn_backward(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	const struct bn_state *s = L->priv;
	dnnl_exec_arg_t a[9] = {
		{ DNNL_ARG_SRC, rt_net_in_mem(n, L) }, { DNNL_ARG_MEAN, s->mean },
		{ DNNL_ARG_VARIANCE, s->var }, { DNNL_ARG_DIFF_DST, L->dout },
		{ DNNL_ARG_SCALE, s->scale },
		{ DNNL_ARG_DIFF_SCALE, s->dscale }, { DNNL_ARG_DIFF_SHIFT, s->dshift },
		{ DNNL_ARG_DIFF_SRC, L->sink[0].dst ? L->sink[0].dst : s->dsrc },
		{ DNNL_ARG_SHIFT, s->shift },
	};

	return rt_net_exec(n, L, L->bwd_d, s->bwd_shift ? 9 : 8, a, err);
}

static void bn_destroy(struct rt_net_layer *L)
{
	struct bn_state *s = L->priv;

	if (!s)
		return;
	dnnl_memory_destroy(s->mean);
	dnnl_memory_destroy(s->var);
	dnnl_memory_destroy(s->dsrc);
	dnnl_memory_destroy(s->scale);
	dnnl_memory_destroy(s->shift);
	dnnl_memory_destroy(s->dscale);
	dnnl_memory_destroy(s->dshift);
	free(s);
	L->priv = NULL;
}

const struct rt_layer_ops rt_layer_bn_ops = {
	.create = bn_create, .forward = bn_forward, .backward = bn_backward,
	.destroy = bn_destroy,
};
