/* layer-add.c: residual add (oneDNN binary add of the layer's input and an earlier layer's
 * output); its backward passes the gradient to both operands, which net.c routes */
#include "config.h"
#include "cnn/net-internal.h"

static int add_create(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	const_rt_md_t a = rt_net_in_md(n, L), b = n->L[L->d->from].out_md;
	dnnl_primitive_desc_t pd = NULL;
	dnnl_status_t st;
	int rc;

	DNNL_CHECK(rt_md_copy(&L->out_md, a), "memory descriptor");
	if ((rc = rt_net_mem(n, L, &L->out, L->out_md, CAT_ACT, err)))
		return rc;
	st = rt_dnnl_binary_pd(&pd, n->eng, dnnl_binary_add, a, b, L->out_md, n->attr);
	return rt_net_prim(n, L, st, pd, &L->fwd, &L->fwd_pd, "add forward", err);
}

static int add_forward(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	dnnl_exec_arg_t a[3] = {
		{ DNNL_ARG_SRC_0, rt_net_in_mem(n, L) }, { DNNL_ARG_SRC_1, n->L[L->d->from].out },
		{ DNNL_ARG_DST, L->out },
	};

	return rt_net_exec(n, L, L->fwd, 3, a, err);
}

static int add_backward(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	(void)n;
	(void)L;
	(void)err;
	return 0;       /* d(a + b)/da = d(a + b)/db = 1: net.c copies or adds dout to both */
}

const struct rt_layer_ops rt_layer_add_ops = {
	.create = add_create, .forward = add_forward, .backward = add_backward,
};
