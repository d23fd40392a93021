/* layer-conv.c: convolution and inner product (fully connected): forward training, backward
 * data (skipped when the model input feeds the layer) and backward weights, with oneDNN's
 * layouts (format_tag_any) and a reorder only for the model input */
#include "config.h"
#include "cnn/net-internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A convolution whose backward weights runs in fp32 (bwd_w_fp32, the first layer of a bf16
 * run): the fp32 input and output gradient it reads, and the reorders that make them. */
struct conv_state {
	dnnl_memory_t src_w, dout_w;
	dnnl_primitive_t src_w_reorder; /* model input -> src_w (the data phase) */
	dnnl_primitive_t dout_w_cast;   /* dout -> dout_w */
};

static dnnl_memory_t src_mem(const struct rt_net *n, const struct rt_net_layer *L)
{
	return L->src ? L->src : rt_net_in_mem(n, L);
}

/* After the forward pd exists: the output, and the reorder from the model input when the
 * primitive wants another layout; *src_md (replaced) is the source the primitive reads. */
static int finish_fwd(struct rt_net *n, struct rt_net_layer *L, rt_md_t *src_md,
		      struct rt_err *err)
{
	int rc;

	DNNL_CHECK(rt_md_copy(src_md, dnnl_primitive_desc_query_md(L->fwd_pd, dnnl_query_src_md,
								   0)), "memory descriptor");
	DNNL_CHECK(rt_md_copy(&L->out_md, dnnl_primitive_desc_query_md(L->fwd_pd,
								       dnnl_query_dst_md, 0)),
		   "memory descriptor");
	if ((rc = rt_net_mem(n, L, &L->out, L->out_md, CAT_ACT, err)))
		return rc;
	if (!dnnl_memory_desc_equal(*src_md, rt_net_in_md(n, L))) {
		if ((rc = rt_net_mem(n, L, &L->src, *src_md, CAT_WORK, err)) ||
		    (rc = rt_net_reorder(n, L, rt_net_in_md(n, L), *src_md, &L->reorder_in, err)))
			return rc;
		/* the data gradient comes back in the primitive's layout: reorder it too */
		if (L->d->needs_bwd_data &&
		    ((rc = rt_net_mem(n, L, &L->dsrc, *src_md, CAT_AGRADS, err)) ||
		     (rc = rt_net_reorder(n, L, *src_md, n->L[L->d->input].dout_md,
					  &L->reorder_dsrc, err))))
			return rc;
	}
	return 0;
}

/* Whether the layer after this convolution is a relu fused into it. */
static bool fused_relu(const struct rt_net *n, const struct rt_net_layer *L)
{
	const struct rt_layer_desc *next = L->index + 1 < n->nl ? &n->m->layers[L->index + 1] : NULL;

	return next && next->fused && next->input == (int)L->index;
}

/* oneDNN's implementation for a primitive (pd: its first choice, made with hint; st: how
 * making it went; pd is taken): its first choice that is not reference code (reference code
 * only when nothing else exists), except that a convolution with few input channels per
 * group (direct) takes oneDNN's direct JIT kernel for the same ISA over its brgemm-based one
 * when both exist: on LeNet-5's conv1 and conv2 (1 and 6 channels, NHWC) brgconv:avx512_core
 * takes 0.64 and 0.34 ms, jit:avx512_core 0.30 and 0.18. A rule, not a timing:
 * implementations sum in different orders, and a run must repeat bit for bit. */
static dnnl_status_t pick_pd(dnnl_status_t st, dnnl_primitive_desc_t pd,
			     const_dnnl_primitive_desc_t hint, bool direct,
			     dnnl_primitive_desc_t *out)
{
	struct rt_dnnl_impls it;
	dnnl_primitive_desc_t first = NULL, ref = NULL;
	const char *isa = NULL;

	*out = NULL;
	if (st != dnnl_success) {
		dnnl_primitive_desc_destroy(pd);
		return st;
	}
	st = rt_dnnl_impls_begin(&it, pd, hint);
	if (st != dnnl_success)
		return st;
	do {
		dnnl_primitive_desc_t p = rt_dnnl_impls_take(&it);
		const char *impl = NULL;

		if (!p)
			continue;
		dnnl_primitive_desc_query(p, dnnl_query_impl_info_str, 0, &impl);
		if (rt_net_is_ref(p)) {
			if (!ref)
				ref = p;
			else
				dnnl_primitive_desc_destroy(p);
			continue;
		}
		if (!first) {
			first = p;
			/* brgconv:ISA: look for jit:ISA */
			if (!direct || strncmp(impl, "brgconv:", 8))
				break;
			isa = impl + 8;
			continue;
		}
		if (!strncmp(impl, "jit:", 4) && !strcmp(impl + 4, isa)) {
			dnnl_primitive_desc_destroy(first);
			first = p;
			break;
		}
		dnnl_primitive_desc_destroy(p);
	} while (rt_dnnl_impls_next(&it));
	rt_dnnl_impls_end(&it);
	if (first) {
		dnnl_primitive_desc_destroy(ref);
		*out = first;
		return dnnl_success;
	}
	*out = ref;
	return ref ? dnnl_success : dnnl_unimplemented;
}

/* The three convolution pds for one choice of activation layout (tag; format_tag_any lets
 * oneDNN choose), weights always oneDNN's choice. Returns how many of them are reference
 * (slow) code, or -1 when a pd cannot be created. */
static int conv_pds(struct rt_net *n, const struct rt_net_layer *L, dnnl_format_tag_t tag,
		    dnnl_primitive_desc_t pds[3])
{
	const struct rt_layer_desc *d = L->d;
	const long N = n->o.batch, g = d->groups;
	dnnl_dims_t sd = { N, d->in.c, d->in.h, d->in.w }, dd = { N, d->out.c, d->out.h, d->out.w };
	dnnl_dims_t wd = { d->filters, d->in.c, d->kernel, d->kernel };
	dnnl_dims_t gwd = { g, d->filters / g, d->in.c / g, d->kernel, d->kernel };
	dnnl_dims_t bd = { d->filters }, st = { d->stride, d->stride }, pl = { d->pad, d->pad };
	dnnl_dims_t pr = { (d->out.h - 1) * d->stride + d->kernel - d->in.h - d->pad,
			   (d->out.w - 1) * d->stride + d->kernel - d->in.w - d->pad };
	const dnnl_dims_t dil = { 0, 0 };
	const dnnl_alg_kind_t alg = dnnl_convolution_direct;
	const int wn = g > 1 ? 5 : 4;
	const dnnl_format_tag_t wplain = g > 1 ? dnnl_abcde : dnnl_abcd;
	/* few input channels per group: oneDNN's direct kernels beat its brgemm ones */
	const bool direct = d->in.c / g < 16;
	rt_md_t src = NULL, w = NULL, b = NULL, dst = NULL, dw = NULL, w_any = NULL, w32 = NULL;
	const_rt_md_t q, bias;
	dnnl_primitive_desc_t pd = NULL, hint = NULL;
	dnnl_status_t s;
	int refs = -1;

	pds[0] = pds[1] = pds[2] = NULL;
	if (rt_md_tag(&b, 1, bd, dnnl_f32, dnnl_a) || rt_md_tag(&src, 4, sd, n->adt, tag) ||
	    rt_md_tag(&dst, 4, dd, n->adt, tag) ||
	    rt_md_tag(&w, wn, g > 1 ? gwd : wd, n->adt,
		      n->o.plain ? wplain : dnnl_format_tag_any))
		goto out;
	bias = d->bias ? b : NULL;
	s = rt_dnnl_conv_fwd_pd(&pd, n->eng, dnnl_forward_training, alg, src, w, bias, dst, st,
				dil, pl, pr, fused_relu(n, L) ? n->attr_relu : n->attr);
	if (pick_pd(s, pd, NULL, direct, &pds[0]))
		goto out;
	refs = rt_net_is_ref(pds[0]);
	/* backward: the forward's activation and weight layouts for data and weights, except
	 * that backward data may choose its own weights layout (reordered each iteration) */
	q = dnnl_primitive_desc_query_md(pds[0], dnnl_query_weights_md, 0);
	if (rt_md_copy(&src, dnnl_primitive_desc_query_md(pds[0], dnnl_query_src_md, 0)) ||
	    rt_md_copy(&dst, dnnl_primitive_desc_query_md(pds[0], dnnl_query_dst_md, 0)) ||
	    (n->o.plain ? rt_md_copy(&w_any, q) :
	     rt_md_tag(&w_any, wn, g > 1 ? gwd : wd, n->adt, dnnl_format_tag_any)))
		goto fail;
	if (d->needs_bwd_data) {
		s = rt_dnnl_conv_bwd_data_pd(&pd, n->eng, alg, src, w_any, dst, st, dil, pl, pr,
					     pds[0], n->attr);
		if (pick_pd(s, pd, pds[0], direct, &pds[1]))
			goto fail;
		refs += rt_net_is_ref(pds[1]);
	}
	/* fp32 weight gradients: forward's layout; bf16: fp32 in a layout oneDNN chooses
	 * (the master weights and momentum take it too) */
	if (n->adt != dnnl_f32 ?
	    rt_md_tag(&dw, wn, g > 1 ? gwd : wd, dnnl_f32,
		      n->o.plain ? wplain : dnnl_format_tag_any) :
	    rt_md_copy(&dw, q))
		goto fail;
	if (d->bwd_w_fp32) {
		/* fp32 input and output gradient, with an fp32 forward as the hint */
		if (rt_md_retype(&src, src, dnnl_f32) || rt_md_retype(&dst, dst, dnnl_f32) ||
		    (n->o.plain ? rt_md_retype(&w32, w, dnnl_f32) :
		     rt_md_tag(&w32, wn, g > 1 ? gwd : wd, dnnl_f32, dnnl_format_tag_any)) ||
		    rt_dnnl_conv_fwd_pd(&hint, n->eng, dnnl_forward_training, alg, src, w32, bias,
					dst, st, dil, pl, pr, n->attr) ||
		    rt_dnnl_conv_bwd_weights_pd(&pds[2], n->eng, alg, src, dw, bias, dst, st, dil,
						pl, pr, hint, n->attr))
			goto fail;
		refs += rt_net_is_ref(pds[2]);
		goto out;
	}
	s = rt_dnnl_conv_bwd_weights_pd(&pd, n->eng, alg, src, dw, bias, dst, st, dil, pl, pr,
					pds[0], n->attr);
	if (pick_pd(s, pd, pds[0], direct, &pds[2]))
		goto fail;
	refs += rt_net_is_ref(pds[2]);
	goto out;
fail:
	refs = -1;
out:
	dnnl_primitive_desc_destroy(hint);
	rt_md_destroy(src);
	rt_md_destroy(w);
	rt_md_destroy(b);
	rt_md_destroy(dst);
	rt_md_destroy(dw);
	rt_md_destroy(w_any);
	rt_md_destroy(w32);
	return refs;
}

static int conv_create(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	const struct rt_layer_desc *d = L->d;
	const long g = d->groups;
	dnnl_dims_t wd = { d->filters, d->in.c, d->kernel, d->kernel };
	dnnl_dims_t gwd = { g, d->filters / g, d->in.c / g, d->kernel, d->kernel };
	dnnl_dims_t bd = { d->filters };
	/* oneDNN's own choice first, then NHWC, then plain NCHW: the first set of three
	 * primitives without reference code wins (small channel counts can make oneDNN's first
	 * choice a forward kernel whose backward exists only as reference code), except that an
	 * output padded to more than twice its channels (6 channels in blocks of 16) gives way to
	 * NHWC without reference code: every layer after it (relu, pooling, their backward)
	 * would move the padding too */
	const dnnl_format_tag_t tags[] = { dnnl_format_tag_any, dnnl_acdb, dnnl_abcd };
	dnnl_primitive_desc_t pds[3] = { NULL, NULL, NULL }, best[3] = { NULL, NULL, NULL };
	rt_md_t w_plain = NULL, b = NULL, src_real = NULL;
	int best_score = -1, rc = 0;

	rt_net_plain_md(&w_plain, g > 1 ? 5 : 4, g > 1 ? gwd : wd);
	rt_md_tag(&b, 1, bd, dnnl_f32, dnnl_a);
	if (!w_plain || !b) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t t = n->o.plain ? 2 : 0; t < sizeof(tags) / sizeof(tags[0]); t++) {
		int refs = conv_pds(n, L, tags[t], pds), score = refs;

		if (refs >= 0) {
			const_rt_md_t o = dnnl_primitive_desc_query_md(pds[0], dnnl_query_dst_md,
								       0);

			score = 2 * refs + (rt_md_padded_dims(o)[1] > 2 * rt_md_dims(o)[1]);
		}
		if (refs >= 0 && (best_score < 0 || score < best_score)) {
			for (int k = 0; k < 3; k++) {
				dnnl_primitive_desc_destroy(best[k]);
				best[k] = pds[k];
			}
			best_score = score;
		} else {
			for (int k = 0; k < 3; k++)
				dnnl_primitive_desc_destroy(pds[k]);
		}
		if (best_score == 0)
			break;
	}
	if (best_score < 0) {
		rc = rt_err_set(err, -EIO, "layer '%s': oneDNN has no convolution for it", d->name);
		goto out;
	}
	/* the pds chose; make the primitives and buffers from them */
	L->fwd_pd = best[0];
	best[0] = NULL;
	if (dnnl_primitive_create(&L->fwd, L->fwd_pd) != dnnl_success ||
	    (best[1] && dnnl_primitive_create(&L->bwd_d, best[1]) != dnnl_success) ||
	    dnnl_primitive_create(&L->bwd_w, best[2]) != dnnl_success) {
		rc = rt_err_set(err, -EIO, "layer '%s': cannot create the convolution", d->name);
		goto out;
	}
	for (int k = 0; k < 3; k++) {
		const_dnnl_primitive_desc_t p = k ? best[k] : L->fwd_pd;
		const_rt_md_t sp = p ? dnnl_primitive_desc_query_md(p, dnnl_query_scratchpad_md,
								    0) : NULL;

		if (sp && dnnl_memory_desc_get_size(sp) > n->scratch_bytes)
			n->scratch_bytes = dnnl_memory_desc_get_size(sp);
	}
	if ((rc = finish_fwd(n, L, &src_real, err)))
		goto out;
	if (d->bwd_w_fp32) {
		/* backward weights reads the model input in fp32 and the output gradient cast */
		const_rt_md_t s32 = dnnl_primitive_desc_query_md(best[2], dnnl_query_src_md, 0);
		const_rt_md_t d32 = dnnl_primitive_desc_query_md(best[2], dnnl_query_diff_dst_md,
								 0);
		struct conv_state *c = rt_net_priv(L, sizeof(*c), err);

		if (!c) {
			rc = -ENOMEM;
			goto out;
		}
		if ((rc = rt_net_mem(n, L, &c->src_w, s32, CAT_WORK, err)) ||
		    (rc = rt_net_reorder(n, L, rt_net_in_md(n, L), s32, &c->src_w_reorder, err)) ||
		    (rc = rt_net_mem(n, L, &c->dout_w, d32, CAT_AGRADS, err)) ||
		    (rc = rt_net_reorder(n, L, L->out_md, d32, &c->dout_w_cast, err)))
			goto out;
	}
	if ((rc = rt_net_params(n, L, dnnl_primitive_desc_query_md(best[2],
								   dnnl_query_diff_weights_md, 0),
				w_plain, d->bias ? b : NULL,
				(d->in.c / g) * d->kernel * d->kernel, false, err)))
		goto out;
	rc = rt_net_weight_copies(n, L, dnnl_primitive_desc_query_md(L->fwd_pd,
								     dnnl_query_weights_md, 0),
				  best[1] ? dnnl_primitive_desc_query_md(best[1],
									 dnnl_query_weights_md, 0) :
				  NULL, err);
out:
	for (int k = 0; k < 3; k++)
		dnnl_primitive_desc_destroy(best[k]);
	rt_md_destroy(w_plain);
	rt_md_destroy(b);
	rt_md_destroy(src_real);
	return rc;
}

/* A 4-D input of a fully connected layer is flattened: reordered into a plain (N, C*H*W)
 * buffer (and its gradient back), seen through a 4-D alias by the reorders. oneDNN's inner
 * product on blocked 4-D sources falls back to a slow gemm path (12 GFLOP/s for convnet's
 * fc1 against about 150 on the flattened input); the plain order keeps the weights' (o, c,
 * h, w) order. *src2 (replaced) is the flattened source. */
static int flatten_input(struct rt_net *n, struct rt_net_layer *L, rt_md_t *src2,
			 struct rt_err *err)
{
	const_rt_md_t in = rt_net_in_md(n, L);
	const dnnl_dim_t *id = rt_md_dims(in);
	dnnl_dims_t d2 = { id[0], id[1] * id[2] * id[3] };
	rt_md_t md4 = NULL;
	void *h = NULL;
	dnnl_status_t st;
	int rc;

	if ((st = rt_md_tag(&md4, 4, id, rt_md_dtype(in), dnnl_abcd)) ||
	    (st = rt_md_tag(src2, 2, d2, rt_md_dtype(in), dnnl_ab))) {
		rc = rt_net_dnnl_fail(err, st, L, "memory descriptor");
		goto out;
	}
	if ((rc = rt_net_mem(n, L, &L->src, *src2, CAT_WORK, err)) ||
	    (rc = rt_net_reorder(n, L, in, md4, &L->reorder_in, err)))
		goto out;
	dnnl_memory_get_data_handle(L->src, &h);
	if ((st = dnnl_memory_create(&L->src4, md4, n->eng, h))) {
		rc = rt_net_dnnl_fail(err, st, L, "memory view");
		goto out;
	}
	if (!L->d->needs_bwd_data)
		goto out;
	if ((rc = rt_net_mem(n, L, &L->dsrc, *src2, CAT_AGRADS, err)) ||
	    (rc = rt_net_reorder(n, L, md4, n->L[L->d->input].dout_md, &L->reorder_dsrc, err)))
		goto out;
	dnnl_memory_get_data_handle(L->dsrc, &h);
	if ((st = dnnl_memory_create(&L->dsrc4, md4, n->eng, h)))
		rc = rt_net_dnnl_fail(err, st, L, "memory view");
out:
	rt_md_destroy(md4);
	return rc;
}

static int fc_create(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	const struct rt_layer_desc *d = L->d;
	const long N = n->o.batch;
	const_rt_md_t in = rt_net_in_md(n, L);
	const bool four = rt_md_ndims(in) == 4;
	dnnl_dims_t wd = { d->outputs, rt_shape_elems(d->in) };
	dnnl_dims_t bd = { d->outputs }, dd = { N, d->outputs };
	/* the logits: the loss reads them as plain fp32 (batch, outputs) in every precision */
	const bool logits = (size_t)n->m->layers[n->nl - 1].input == L->index;
	rt_md_t src = NULL, w = NULL, b = NULL, dst = NULL, w_plain = NULL, src_real = NULL;
	rt_md_t dw = NULL;
	const_rt_md_t bias;
	dnnl_primitive_desc_t pd = NULL, bwd_w_pd = NULL;
	dnnl_status_t st;
	int rc = 0;

	rt_net_plain_md(&w_plain, 2, wd);
	rt_md_tag(&b, 1, bd, dnnl_f32, dnnl_a);
	rt_md_copy(&src, in);
	if (logits)
		rt_net_plain_md(&dst, 2, dd);
	else
		rt_net_act_plain_md(n, &dst, 2, dd);
	if (n->o.plain)
		rt_net_act_plain_md(n, &w, 2, wd);
	else
		rt_md_tag(&w, 2, wd, n->adt, dnnl_format_tag_any);
	if (!w_plain || !b || !src || !dst || !w) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	bias = d->bias ? b : NULL;
	if (four && (rc = flatten_input(n, L, &src, err)))
		goto out;
	st = rt_dnnl_ip_fwd_pd(&pd, n->eng, dnnl_forward_training, src, w, bias, dst, n->attr);
	if ((rc = rt_net_prim(n, L, st, pd, &L->fwd, &L->fwd_pd, "inner product forward", err)))
		goto out;
	if (four) {
		if ((st = rt_md_copy(&L->out_md, dnnl_primitive_desc_query_md(L->fwd_pd,
									      dnnl_query_dst_md,
									      0))) ||
		    (st = rt_md_copy(&src_real, src))) {
			rc = rt_net_dnnl_fail(err, st, L, "memory descriptor");
			goto out;
		}
		if ((rc = rt_net_mem(n, L, &L->out, L->out_md, CAT_ACT, err)))
			goto out;
	} else if ((rc = finish_fwd(n, L, &src_real, err))) {
		goto out;
	}
	/* the gradient of bf16 logits is bf16: backward reads it so; weight gradients: fp32
	 * (bf16: in a layout oneDNN chooses, which the master weights and momentum take too) */
	if ((st = rt_md_retype(&L->dout_md, L->out_md, n->adt)) ||
	    (st = rt_md_copy(&w, dnnl_primitive_desc_query_md(L->fwd_pd, dnnl_query_weights_md,
							      0))) ||
	    (st = n->adt == dnnl_f32 ? rt_md_copy(&dw, w) :
	     n->o.plain ? rt_md_copy(&dw, w_plain) :
	     rt_md_tag(&dw, 2, wd, dnnl_f32, dnnl_format_tag_any))) {
		rc = rt_net_dnnl_fail(err, st, L, "memory descriptor");
		goto out;
	}
	st = rt_dnnl_ip_bwd_weights_pd(&pd, n->eng, src_real, dw, bias, L->dout_md, L->fwd_pd,
				       n->attr);
	if ((rc = rt_net_prim(n, L, st, pd, &L->bwd_w, &bwd_w_pd,
			      "inner product backward weights", err)))
		goto out;
	if ((rc = rt_net_params(n, L, dnnl_primitive_desc_query_md(bwd_w_pd,
								   dnnl_query_diff_weights_md, 0),
				w_plain, bias, rt_shape_elems(d->in), false, err)) ||
	    (rc = rt_net_weight_copies(n, L, w, NULL, err)))
		goto out;
	if (d->needs_bwd_data) {
		st = rt_dnnl_ip_bwd_data_pd(&pd, n->eng, src_real, w, L->dout_md, L->fwd_pd,
					    n->attr);
		rc = rt_net_prim(n, L, st, pd, &L->bwd_d, NULL, "inner product backward data", err);
	}
out:
	dnnl_primitive_desc_destroy(bwd_w_pd);
	rt_md_destroy(src);
	rt_md_destroy(w);
	rt_md_destroy(b);
	rt_md_destroy(dst);
	rt_md_destroy(w_plain);
	rt_md_destroy(src_real);
	rt_md_destroy(dw);
	return rc;
}

static int weighted_forward(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	int rc;
	dnnl_exec_arg_t a[4] = {
		{ DNNL_ARG_SRC, src_mem(n, L) }, { DNNL_ARG_WEIGHTS, L->wc ? L->wc : L->w },
		{ DNNL_ARG_DST, L->out }, { DNNL_ARG_BIAS, L->b },
	};

	if (L->w_cast) {
		/* the weights forward reads, from the master copy the last update wrote */
		dnnl_exec_arg_t r[2] = { { DNNL_ARG_FROM, L->w }, { DNNL_ARG_TO, L->wc } };

		if ((rc = rt_net_exec(n, L, L->w_cast, 2, r, err)))
			return rc;
	}

	if (L->reorder_in && L->d->input >= 0) {
		dnnl_exec_arg_t r[2] = { { DNNL_ARG_FROM, rt_net_in_mem(n, L) },
					 { DNNL_ARG_TO, L->src4 ? L->src4 : L->src } };

		if ((rc = rt_net_exec(n, L, L->reorder_in, 2, r, err)))
			return rc;
	}
	return rt_net_exec(n, L, L->fwd, L->b ? 4 : 3, a, err);
}

static int weighted_backward(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	int rc;

	if (L->bwd_d && L->sink[0].dst) {
		dnnl_exec_arg_t a[3] = {
			{ DNNL_ARG_DIFF_DST, L->dout },
			{ DNNL_ARG_WEIGHTS, L->w_bwd ? L->w_bwd : L->wc ? L->wc : L->w },
			{ DNNL_ARG_DIFF_SRC, L->dsrc ? L->dsrc : L->sink[0].dst },
		};

		if (L->w_reorder) {
			dnnl_exec_arg_t r[2] = { { DNNL_ARG_FROM, L->w }, { DNNL_ARG_TO, L->w_bwd } };

			if ((rc = rt_net_exec(n, L, L->w_reorder, 2, r, err)))
				return rc;
		}
		if ((rc = rt_net_exec(n, L, L->bwd_d, 3, a, err)))
			return rc;
		if (L->reorder_dsrc) {
			dnnl_exec_arg_t r[2] = { { DNNL_ARG_FROM, L->dsrc4 ? L->dsrc4 : L->dsrc },
						 { DNNL_ARG_TO, L->sink[0].dst } };

			if ((rc = rt_net_exec(n, L, L->reorder_dsrc, 2, r, err)))
				return rc;
		}
	}
	{
		const struct conv_state *c = L->priv;
		dnnl_exec_arg_t a[4] = {
			{ DNNL_ARG_SRC, c ? c->src_w : src_mem(n, L) },
			{ DNNL_ARG_DIFF_DST, c ? c->dout_w : L->dout },
			{ DNNL_ARG_DIFF_WEIGHTS, L->dw }, { DNNL_ARG_DIFF_BIAS, L->db },
		};

		if (c) {
			dnnl_exec_arg_t r[2] = { { DNNL_ARG_FROM, L->dout }, { DNNL_ARG_TO, c->dout_w } };

			if ((rc = rt_net_exec(n, L, c->dout_w_cast, 2, r, err)))
				return rc;
		}
		return rt_net_exec(n, L, L->bwd_w, L->db ? 4 : 3, a, err);
	}
}

/* The data phase: the model input in fp32 for backward weights. */
static int conv_load(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	const struct conv_state *c = L->priv;
	dnnl_exec_arg_t a[2] = { { DNNL_ARG_FROM, n->input }, { DNNL_ARG_TO, c ? c->src_w : NULL } };

	return c ? rt_net_exec(n, L, c->src_w_reorder, 2, a, err) : 0;
}

static void conv_destroy(struct rt_net_layer *L)
{
	struct conv_state *c = L->priv;

	if (!c)
		return;
	dnnl_memory_destroy(c->src_w);
	dnnl_memory_destroy(c->dout_w);
	dnnl_primitive_destroy(c->src_w_reorder);
	dnnl_primitive_destroy(c->dout_w_cast);
	free(c);
	L->priv = NULL;
}

const struct rt_layer_ops rt_layer_conv_ops = {
	.create = conv_create, .forward = weighted_forward, .backward = weighted_backward,
	.load = conv_load, .destroy = conv_destroy,
};

const struct rt_layer_ops rt_layer_fc_ops = {
	.create = fc_create, .forward = weighted_forward, .backward = weighted_backward,
};
