/* layer-loss.c: softmax (oneDNN) and cross-entropy against the labels; its backward writes the
 * gradient with respect to the logits, (softmax - one_hot) / batch */
#include "config.h"
#include "cnn/net-internal.h"

#include <errno.h>
#include <math.h>

static int loss_create(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	const_rt_md_t src = rt_net_in_md(n, L);
	rt_md_t plain = NULL;
	dnnl_dims_t dd = { n->o.batch, n->m->classes };
	dnnl_primitive_desc_t pd = NULL;
	dnnl_status_t st;
	bool follows_fc;
	int rc;

	rt_net_plain_md(&plain, 2, dd);
	follows_fc = dnnl_memory_desc_equal(src, plain);
	rt_md_destroy(plain);
	if (!follows_fc)
		return rt_err_set(err, -EINVAL, "%s:%d: layer '%s': softmax_xent must follow a "
				  "fully connected layer", n->m->path, L->d->line, L->d->name);
	st = rt_dnnl_softmax_fwd_pd(&pd, n->eng, dnnl_forward_training, src, src, 1, n->attr);
	if ((rc = rt_net_prim(n, L, st, pd, &L->fwd, &L->fwd_pd, "softmax forward", err)))
		return rc;
	DNNL_CHECK(rt_md_copy(&L->out_md, dnnl_primitive_desc_query_md(L->fwd_pd,
								       dnnl_query_dst_md, 0)),
		   "memory descriptor");
	return rt_net_mem(n, L, &L->out, L->out_md, CAT_ACT, err);
}

static int loss_forward(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	dnnl_exec_arg_t a[2] = { { DNNL_ARG_SRC, rt_net_in_mem(n, L) }, { DNNL_ARG_DST, L->out } };
	const long N = n->o.batch, C = n->m->classes;
	const int32_t *y = n->labels;
	const float *p = NULL;
	double loss = 0;
	long correct = 0;
	int rc = rt_net_exec(n, L, L->fwd, 2, a, err);

	if (rc)
		return rc;
	dnnl_stream_wait(n->strm);
	dnnl_memory_get_data_handle(L->out, (void **)&p);
	for (long i = 0; i < N; i++) {
		const float *row = p + i * C;
		long best = 0;

		if (y[i] < 0 || y[i] >= C)
			return rt_err_set(err, -EINVAL, "label %d of image %ld is not in 0..%ld",
					  y[i], i, C - 1);
		for (long c = 1; c < C; c++)
			if (row[c] > row[best])
				best = c;
		correct += best == y[i];
		/* clamp: a probability that underflowed to 0 gives a large, finite loss */
		loss -= log(row[y[i]] > 1e-30f ? (double)row[y[i]] : 1e-30);
	}
	n->loss = loss / (double)N;
	n->accuracy = (double)correct / (double)N;
	return 0;
}

static int loss_backward(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	const long N = n->o.batch, C = n->m->classes;
	/* the mean over the global batch: summed over the ranks, the gradients are those of
	 * one process training on all of it */
	const float inv = 1.0f / ((float)N * (float)n->o.ranks);
	const_rt_md_t gmd = NULL;
	const float *p = NULL;
	void *g = NULL;

	(void)err;
	if (!L->sink[0].dst)
		return 0;
	dnnl_memory_get_data_handle(L->out, (void **)&p);
	dnnl_memory_get_data_handle(L->sink[0].dst, &g);
	dnnl_memory_get_memory_desc(L->sink[0].dst, &gmd);
	/* the logits' gradient in the type backward reads: fp32, or bf16 (rounded to nearest) */
	const bool bf16 = rt_md_dtype(gmd) == dnnl_bf16;

	for (long i = 0; i < N; i++)
		for (long c = 0; c < C; c++) {
			float v = (p[i * C + c] - (c == n->labels[i] ? 1.0f : 0.0f)) * inv;

			if (bf16)
				((uint16_t *)g)[i * C + c] = rt_bf16(v);
			else
				((float *)g)[i * C + c] = v;
		}
	return 0;
}

const struct rt_layer_ops rt_layer_loss_ops = {
	.create = loss_create, .forward = loss_forward, .backward = loss_backward,
};
