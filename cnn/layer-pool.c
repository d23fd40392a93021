/* layer-pool.c: max pooling (with oneDNN's workspace of argmax positions) and average pooling
 * (padding included in the average, as PyTorch's default).
 *
 * Max pooling whose window equals its stride (no padding, the input a whole number of
 * windows) has a second implementation, "split", made of other oneDNN primitives: forward is
 * oneDNN's inference pooling (no workspace); backward gathers the input into one slot per
 * window position (a reorder of a 6-D view N x C x OH x KH x OW x KW into KH*KW tensors of the
 * output's layout), then walks the slots in oneDNN's order (row-major in the window) routing
 * the output gradient to the first slot equal to the maximum, with binary primitives:
 *     g[s] = (q[s] == max) * r;  r = r - g[s]     (r starts as the output gradient)
 * and the last slot takes what is left; a reorder scatters the slots back. It runs over chunks
 * of images (the images outermost in every layout it reads and writes) whose working set stays
 * in a core's L2, the primitives' views moved chunk by chunk; with more than one thread each
 * thread takes whole chunks, its primitives run on it alone (views, slots and a stream of its
 * own), so that a chunk stays in its core and no primitive call waits for the others. The
 * products are by 0 or 1 and the differences exact, so the result is bit for bit oneDNN's
 * pooling backward, ties included. Why: oneDNN 2.6's training pooling kernels mix legacy SSE
 * instructions into AVX-512 code; where a transition costs hundreds of nanoseconds (this
 * project's KVM machine) they run 5-15x slower than inference pooling. Which is faster is
 * measured on the net's own buffers when the net is built (auto) or chosen with
 * --maxpool-impl.
 *
 * A relu whose only consumer is a max pool (model.c: bwd_folded) has its backward done here:
 * the relu's select (gradient where the output is positive) on the pool's output gradient,
 * in place before routing (split: chunk by chunk, on each chunk in L2); the result goes
 * straight to the relu's input gradient. */
#include "config.h"
#include "cnn/net-internal.h"
#include "base/util.h"

#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPLIT_MAX_SLOTS 16
/* The split backward runs over chunks of images whose working set (the input and its
 * gradient, the slots, the output and its gradient) stays this size, in a core's L2: over
 * the whole batch its slots went to memory and back between each primitive. A chunk has at
 * least SPLIT_CHUNK_MIN_BYTES of output, so that small layers do not pay the primitives'
 * calls many times over, where that leaves a chunk to every thread. */
#define SPLIT_CHUNK_BYTES (512 * 1024)
#define SPLIT_CHUNK_MIN_BYTES (128 * 1024)

struct pool_split;

/* A pooling layer's own state. */
struct pool_state {
	dnnl_memory_t ws;               /* the primitive's workspace (max: where the max was) */
	dnnl_primitive_t relu_bwd;      /* max pool after a relu: the relu's backward, in place
					 * on our output gradient (dead once we have run) */
	struct pool_split *split;       /* max pool: the split implementation, when it exists */
};

static inline struct pool_state *P(const struct rt_net_layer *L)
{
	return L->priv;
}

/* What one thread moves from chunk to chunk: views of a chunk, the input, the slots gathered
 * (from slot 1), the slots scattered (from slot 0), the input gradient, the output and its
 * gradient; the slots, one more than the window has, in the thread's part of the net's slot
 * buffer; the thread's stream. */
struct split_views {
	dnnl_memory_t in6, gathered, scattered, d6, outc, dyc;
	dnnl_memory_t q[SPLIT_MAX_SLOTS + 1];
	dnnl_stream_t strm;
};

struct pool_split {
	int slots;
	long chunk, nchunks;            /* the backward's images at a time, and its chunks */
	int threads;                    /* that take chunks at once (1: one after the other,
					 * each primitive on the net's threads) */
	size_t in_step, out_step, din_step;     /* a chunk's bytes in the input, the output
						 * (and its gradient), the input gradient */
	dnnl_primitive_t fwd;           /* pooling forward inference */
	dnnl_primitive_desc_t fwd_pd;
	dnnl_primitive_t gather;        /* reorder input (6-D view) -> slots */
	dnnl_primitive_t scatter;       /* reorder slots -> input gradient (6-D view) */
	dnnl_primitive_t relu_bwd;      /* a folded relu's backward on a chunk, in place */
	dnnl_primitive_t pick;          /* slot = (slot == max) * r */
	dnnl_primitive_t rest;          /* r = r - slot */
	rt_md_t src6, slots6, dsrc6, out_c;     /* of a chunk */
	struct split_views *v;          /* a thread's (threads of them) */
	bool on;                        /* chosen */
	char impl[80];
};

/* A 4-D md blocked over N and C at most, its spatial dims unpadded. */
static bool spatial_plain(const_rt_md_t m)
{
	const dnnl_dim_t *pd = rt_md_padded_dims(m), *d = rt_md_dims(m);

	if (rt_md_ndims(m) != 4 || !rt_md_blocked(m) || rt_md_offset0(m))
		return false;
	for (int i = 0; i < rt_md_inner_nblks(m); i++)
		if (rt_md_inner_idxs(m)[i] > 1)
			return false;
	return pd[2] == d[2] && pd[3] == d[3];
}

/* Whether m's images lie one after the other (N outermost, not blocked): a chunk of them is
 * the same md with fewer images, at an offset of their bytes. */
static bool images_outermost(const_rt_md_t m)
{
	const dnnl_dim_t *st = rt_md_strides(m);

	if (!rt_md_blocked(m))
		return false;
	for (int i = 0; i < rt_md_inner_nblks(m); i++)
		if (rt_md_inner_idxs(m)[i] == 0)
			return false;
	return rt_md_dims(m)[0] > 0 && (size_t)(st[0] * rt_md_padded_dims(m)[0]) *
	       dnnl_data_type_size(rt_md_dtype(m)) == dnnl_memory_desc_get_size(m);
}

/* The images a chunk of the split backward has, a divisor of the batch: the net's option
 * where it sets one (tests); else the most whose working set fits (one image at least),
 * raised toward the fewest that give a chunk its least output while every thread still has
 * a chunk; the whole batch where the images are not outermost in the input or the output. */
static long chunk_images(const struct rt_net *n, const_rt_md_t src, const_rt_md_t out, long k)
{
	const long batch = rt_md_dims(src)[0], threads = omp_get_max_threads();
	const size_t image = dnnl_memory_desc_get_size(out) / (size_t)batch;
	long c;

	if (!images_outermost(src) || !images_outermost(out))
		return batch;
	if (n->o.pool_chunk > 0 && batch % n->o.pool_chunk == 0)
		return n->o.pool_chunk;
	for (c = batch; c > 1; c--)
		if (batch % c == 0 && (size_t)c * (size_t)(3 * k * k + 3) * image <=
		    SPLIT_CHUNK_BYTES)
			break;
	while (c < batch && (size_t)c * image < SPLIT_CHUNK_MIN_BYTES) {
		long d = c + 1;

		while (batch % d)
			d++;
		if (batch / d < threads)
			break;
		c = d;
	}
	return c;
}

/* *v (replaced): the 6-D view N x C x OH x KH x OW x KW of `images` of a 4-D md of N x C x
 * (OH*K) x (OW*K): the first images, their rows and columns split (spatial_plain: unpadded,
 * not blocked). */
static dnnl_status_t window_view(rt_md_t *v, const_rt_md_t full, long images, long k)
{
	const dnnl_dim_t *m = rt_md_dims(full);
	const dnnl_dims_t d = { images, m[1], m[2] / k, k, m[3] / k, k };
	rt_md_t c = NULL;
	dnnl_status_t st = rt_md_images(&c, full, images);

	if (st == dnnl_success)
		st = rt_md_reshape(v, c, 6, d);
	rt_md_destroy(c);
	return st;
}

/* *v (replaced): the same 6-D dims laid out as k*k consecutive tensors of the output's md
 * (KH, KW outermost, row-major: slot kh*k + kw): k*k times the images of out, the images
 * split into KH x KW x N, those axes moved into place. Where out's images are not
 * outermost, or no format tag names its layout, there is no such md (dnnl_unimplemented). */
static dnnl_status_t slots_view(rt_md_t *v, const_rt_md_t out, long k)
{
	const dnnl_dim_t *o = rt_md_dims(out);
	const dnnl_dims_t d = { k, k, o[0], o[1], o[2], o[3] };
	/* axis i of (KH, KW, N, C, OH, OW) is axis perm[i] of (N, C, OH, KH, OW, KW) */
	static const int perm[6] = { 3, 5, 0, 1, 2, 4 };
	rt_md_t all = NULL, split = NULL;
	dnnl_status_t st = dnnl_unimplemented;

	if (images_outermost(out))
		st = rt_md_more_images(&all, out, k * k * o[0]);
	if (st == dnnl_success)
		st = rt_md_reshape(&split, all, 6, d);
	if (st == dnnl_success)
		st = rt_md_permute(v, split, perm);
	rt_md_destroy(all);
	rt_md_destroy(split);
	return st;
}

/* The split implementation's primitives, when the layer and oneDNN allow it; 0 with
 * P(L)->split NULL when they do not. */
static int split_create(struct rt_net *n, struct rt_net_layer *L, const_rt_md_t src,
			struct rt_err *err)
{
	const struct rt_layer_desc *d = L->d;
	const long k = d->kernel;
	dnnl_dims_t st = { k, k }, kk = { k, k }, dil = { 0, 0 }, pad = { 0, 0 };
	dnnl_primitive_attr_t attr = NULL;
	dnnl_primitive_desc_t pd = NULL;
	dnnl_post_ops_t po = NULL;
	struct pool_split *sp;
	const char *impl = NULL;
	dnnl_status_t s;
	int rc;

	if (d->type != RT_LAYER_MAXPOOL || n->o.maxpool == RT_POOL_ONEDNN || !d->needs_bwd_data ||
	    d->stride != k || d->pad || k < 2 || k * k > SPLIT_MAX_SLOTS ||
	    d->in.h != k * d->out.h || d->in.w != k * d->out.w || !spatial_plain(src) ||
	    !spatial_plain(L->out_md))
		return 0;
	if (!(sp = calloc(1, sizeof(*sp))))
		return rt_err_set(err, -ENOMEM, "out of memory");
	P(L)->split = sp;
	sp->slots = (int)(k * k);
	sp->chunk = chunk_images(n, src, L->out_md, k);
	sp->nchunks = rt_md_dims(src)[0] / sp->chunk;
	sp->threads = sp->nchunks < omp_get_max_threads() ? (int)sp->nchunks :
		      omp_get_max_threads();
	DNNL_CHECK(rt_md_images(&sp->out_c, L->out_md, sp->chunk), "memory descriptor");
	sp->in_step = dnnl_memory_desc_get_size(src) / (size_t)sp->nchunks;
	sp->out_step = dnnl_memory_desc_get_size(L->out_md) / (size_t)sp->nchunks;
	s = rt_dnnl_pool_fwd_pd(&pd, n->eng, dnnl_forward_inference, dnnl_pooling_max, src,
				L->out_md, st, kk, dil, pad, pad, n->attr);
	if ((rc = rt_net_prim(n, L, s, pd, &sp->fwd, &sp->fwd_pd, "pooling forward", err)))
		return rc;
	if (window_view(&sp->src6, src, sp->chunk, k) != dnnl_success ||
	    slots_view(&sp->slots6, sp->out_c, k) != dnnl_success ||
	    rt_net_reorder(n, L, sp->src6, sp->slots6, &sp->gather, err)) {
		sp->slots = 0;          /* no reorder for the view: the primitive only */
		return 0;
	}
	s = dnnl_post_ops_create(&po);
	if (s == dnnl_success)
		s = dnnl_post_ops_append_binary(po, dnnl_binary_mul, sp->out_c);
	if (s == dnnl_success)
		s = dnnl_primitive_attr_clone(&attr, n->attr);
	if (s == dnnl_success)
		s = dnnl_primitive_attr_set_post_ops(attr, po);
	dnnl_post_ops_destroy(po);
	if (s != dnnl_success) {
		dnnl_primitive_attr_destroy(attr);
		return rt_net_dnnl_fail(err, s, L, "binary attributes");
	}
	s = rt_dnnl_binary_pd(&pd, n->eng, dnnl_binary_eq, sp->out_c, sp->out_c, sp->out_c, attr);
	dnnl_primitive_attr_destroy(attr);
	if (s == dnnl_success && !rt_net_is_ref(pd))
		s = dnnl_primitive_create(&sp->pick, pd);
	dnnl_primitive_desc_destroy(pd);
	if (s != dnnl_success || !sp->pick || rt_net_is_ref(sp->fwd_pd)) {
		sp->slots = 0;          /* oneDNN has no fast kernels for it: the primitive only */
		return 0;
	}
	s = rt_dnnl_binary_pd(&pd, n->eng, dnnl_binary_sub, sp->out_c, sp->out_c, sp->out_c,
			      n->attr);
	if ((rc = rt_net_prim(n, L, s, pd, &sp->rest, NULL, "binary", err)))
		return rc;
	if (d->folds_relu) {
		/* the relu's select on a chunk of the output gradient while it is in L2, not a
		 * pass over the whole gradient before the chunks */
		s = rt_dnnl_eltwise_bwd_pd(&pd, n->eng, dnnl_eltwise_relu_use_dst_for_bwd,
					   sp->out_c, sp->out_c, sp->out_c, 0.f, 0.f, NULL,
					   n->attr);
		if ((rc = rt_net_prim(n, L, s, pd, &sp->relu_bwd, NULL, "relu backward", err)))
			return rc;
	}
	dnnl_primitive_desc_query(sp->fwd_pd, dnnl_query_impl_info_str, 0, &impl);
	snprintf(sp->impl, sizeof(sp->impl), "split:%s+reorder+binary", impl ? impl : "?");
	return 0;
}

static int pool_create(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	const struct rt_layer_desc *d = L->d;
	const bool max = d->type == RT_LAYER_MAXPOOL;
	const dnnl_alg_kind_t alg = max ? dnnl_pooling_max : dnnl_pooling_avg_include_padding;
	dnnl_dims_t dd = { n->o.batch, d->out.c, d->out.h, d->out.w };
	dnnl_dims_t st = { d->stride, d->stride }, k = { d->kernel, d->kernel }, dil = { 0, 0 };
	dnnl_dims_t pl = { d->pad, d->pad }, pr;
	const_rt_md_t src = rt_net_in_md(n, L);
	rt_md_t dst = NULL;
	dnnl_primitive_desc_t pd = NULL;
	dnnl_status_t s;
	int rc;

	if (!rt_net_priv(L, sizeof(struct pool_state), err))
		return -ENOMEM;

	pr[0] = (d->out.h - 1) * d->stride + d->kernel - d->in.h - d->pad;
	pr[1] = (d->out.w - 1) * d->stride + d->kernel - d->in.w - d->pad;
	if (n->o.plain)
		rt_net_act_plain_md(n, &dst, 4, dd);
	else
		rt_md_tag(&dst, 4, dd, rt_md_dtype(src), dnnl_format_tag_any);
	s = rt_dnnl_pool_fwd_pd(&pd, n->eng, dnnl_forward_training, alg, src, dst, st, k, dil, pl,
				pr, n->attr);
	rt_md_destroy(dst);
	if ((rc = rt_net_prim(n, L, s, pd, &L->fwd, &L->fwd_pd, "pooling forward", err)))
		return rc;
	DNNL_CHECK(rt_md_copy(&L->out_md, dnnl_primitive_desc_query_md(L->fwd_pd,
								       dnnl_query_dst_md, 0)),
		   "memory descriptor");
	if ((rc = rt_net_mem(n, L, &L->out, L->out_md, CAT_ACT, err)))
		return rc;
	if (!d->needs_bwd_data)
		return 0;
	s = rt_dnnl_pool_bwd_pd(&pd, n->eng, alg, src, L->out_md, st, k, dil, pl, pr, L->fwd_pd,
				n->attr);
	if ((rc = rt_net_prim(n, L, s, pd, &L->bwd_d, NULL, "pooling backward", err)))
		return rc;
	if (d->folds_relu) {
		/* the relu's backward on our output: its gradient where our output is positive */
		s = rt_dnnl_eltwise_bwd_pd(&pd, n->eng, dnnl_eltwise_relu_use_dst_for_bwd,
					   L->out_md, L->out_md, L->out_md, 0.f, 0.f, NULL,
					   n->attr);
		if ((rc = rt_net_prim(n, L, s, pd, &P(L)->relu_bwd, NULL, "relu backward", err)))
			return rc;
	}
	if ((rc = split_create(n, L, src, err)))
		return rc;
	if (P(L)->split && P(L)->split->slots) {
		/* a chunk's slots, and the primitive's workspace in them for the trial */
		const_rt_md_t ws = dnnl_primitive_desc_query_md(L->fwd_pd,
									     dnnl_query_workspace_md, 0);
		size_t need = (size_t)(P(L)->split->slots + 1) * P(L)->split->out_step *
			      (size_t)P(L)->split->threads;

		if (ws && dnnl_memory_desc_get_size(ws) > need)
			need = dnnl_memory_desc_get_size(ws);

		if (need > n->slot_bytes)
			n->slot_bytes = need;
	}
	return 0;
}

/* Where the input gradient goes: the relu's input gradient when we do its backward. */
static dnnl_memory_t grad_target(const struct rt_net *n, const struct rt_net_layer *L)
{
	return L->d->folds_relu ? n->L[L->d->input].sink[0].dst : L->sink[0].dst;
}

static int pool_forward(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	dnnl_exec_arg_t a[3] = {
		{ DNNL_ARG_SRC, rt_net_in_mem(n, L) }, { DNNL_ARG_DST, L->out },
		{ DNNL_ARG_WORKSPACE, P(L)->ws },
	};

	if (P(L)->split && P(L)->split->on)
		return rt_net_exec(n, L, P(L)->split->fwd, 2, a, err);
	return rt_net_exec(n, L, L->fwd, P(L)->ws ? 3 : 2, a, err);
}

/* A thread's views moved to chunk c of the buffers whose data starts at base: the input,
 * the input gradient, the output, the output gradient. */
static dnnl_status_t split_move(const struct pool_split *sp, const struct split_views *v,
				void *const base[4], long c)
{
	const dnnl_memory_t m[4] = { v->in6, v->d6, v->outc, v->dyc };
	const size_t step[4] = { sp->in_step, sp->din_step, sp->out_step, sp->out_step };
	dnnl_status_t st = dnnl_success;

	for (int i = 0; i < 4 && st == dnnl_success; i++)
		st = dnnl_memory_set_data_handle(m[i], (char *)base[i] + (size_t)c * step[i]);
	return st;
}

/* A chunk of images on a thread's views, in place: the window's positions s = 0..K-1 are
 * gathered into slots 1..K; the gradient of position s is written to slot s (whose value was
 * read by the step before), the rest r lives in slot K and, last, in slot K-1, so the scatter
 * reads slots 0..K-1. No binary runs in place on its first operand (oneDNN 2.6's binary with a
 * post-op gives wrong values in place on padded blocked layouts). On the thread's stream,
 * with the net's scratchpad (where a primitive of the split would use it, one thread runs
 * them all: split_views). */
static dnnl_status_t split_chunk(const struct rt_net *n, const struct pool_split *sp,
				 const struct split_views *v)
{
	const int K = sp->slots;
	const dnnl_exec_arg_t sel[3] = {
		{ DNNL_ARG_DST, v->outc }, { DNNL_ARG_DIFF_DST, v->dyc }, { DNNL_ARG_DIFF_SRC, v->dyc },
	};
	const dnnl_exec_arg_t g[2] = { { DNNL_ARG_FROM, v->in6 }, { DNNL_ARG_TO, v->gathered } };
	dnnl_status_t st = dnnl_success;

	if (sp->relu_bwd)
		st = rt_net_run(n, v->strm, sp->relu_bwd, 3, sel);
	if (st == dnnl_success)
		st = rt_net_run(n, v->strm, sp->gather, 2, g);

	for (int s = 0; st == dnnl_success && s < K - 1; s++) {
		dnnl_memory_t r = s ? v->q[K] : v->dyc;
		const dnnl_exec_arg_t p[4] = {
			{ DNNL_ARG_SRC_0, v->q[s + 1] }, { DNNL_ARG_SRC_1, v->outc },
			{ DNNL_ARG_DST, v->q[s] },
			{ DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, r },
		};
		const dnnl_exec_arg_t m[3] = {
			{ DNNL_ARG_SRC_0, r }, { DNNL_ARG_SRC_1, v->q[s] },
			{ DNNL_ARG_DST, s == K - 2 ? v->q[K - 1] : v->q[K] },
		};

		st = rt_net_run(n, v->strm, sp->pick, 4, p);
		if (st == dnnl_success)
			st = rt_net_run(n, v->strm, sp->rest, 3, m);
	}
	if (st == dnnl_success) {
		const dnnl_exec_arg_t s[2] = { { DNNL_ARG_FROM, v->scattered },
					       { DNNL_ARG_TO, v->d6 } };

		st = rt_net_run(n, v->strm, sp->scatter, 2, s);
	}
	return st;
}

/* The split backward, chunk by chunk of images (dy: the output gradient): with more than one
 * thread, each takes whole chunks on its own views (oneDNN runs a primitive called inside a
 * parallel region on the calling thread alone), timed as a whole. */
static int split_backward(struct rt_net *n, struct rt_net_layer *L, dnnl_memory_t dy,
			  struct rt_err *err)
{
	const struct pool_split *sp = P(L)->split;
	void *base[4] = { NULL, NULL, NULL, NULL };
	const double t0 = rt_now();
	dnnl_status_t st = dnnl_success;

	dnnl_memory_get_data_handle(rt_net_in_mem(n, L), &base[0]);
	dnnl_memory_get_data_handle(grad_target(n, L), &base[1]);
	dnnl_memory_get_data_handle(L->out, &base[2]);
	dnnl_memory_get_data_handle(dy, &base[3]);
#pragma omp parallel num_threads(sp->threads) if (sp->threads > 1)
	{
		const struct split_views *v = &sp->v[omp_get_thread_num()];
		dnnl_status_t my = dnnl_success;

#pragma omp for schedule(static)
		for (long c = 0; c < sp->nchunks; c++)
			if (my == dnnl_success && (my = split_move(sp, v, base, c)) == dnnl_success)
				my = split_chunk(n, sp, v);
#pragma omp critical
		if (st == dnnl_success)
			st = my;
	}
	n->prim_seconds += rt_now() - t0;
	return st == dnnl_success ? 0 : rt_net_dnnl_fail(err, st, L, "the split backward");
}

static int pool_backward(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	dnnl_memory_t dx = grad_target(n, L), dy = L->dout;
	dnnl_exec_arg_t a[3] = {
		{ DNNL_ARG_DIFF_DST, dy }, { DNNL_ARG_DIFF_SRC, dx }, { DNNL_ARG_WORKSPACE, P(L)->ws },
	};
	int rc;

	if (!L->bwd_d || !dx)
		return 0;
	if (P(L)->split && P(L)->split->on)
		return split_backward(n, L, dy, err);   /* the relu's select chunk by chunk */
	if (P(L)->relu_bwd) {
		/* in place: the gradient written over the lines just read, no second buffer to
		 * bring in (the relu's own backward on a 4 MiB gradient took 1.5 ms, 0.6 in
		 * place); a pass again (--per-layer, the pooling's timing) selects the same */
		dnnl_exec_arg_t r[3] = {
			{ DNNL_ARG_DST, L->out }, { DNNL_ARG_DIFF_DST, dy }, { DNNL_ARG_DIFF_SRC, dy },
		};

		if ((rc = rt_net_exec(n, L, P(L)->relu_bwd, 3, r, err)))
			return rc;
	}
	return rt_net_exec(n, L, L->bwd_d, P(L)->ws ? 3 : 2, a, err);
}

/* One forward and backward of the layer alone: *seconds. */
static int time_pass(struct rt_net *n, struct rt_net_layer *L, double *seconds, struct rt_err *err)
{
	double t0 = rt_now();
	int rc = pool_forward(n, L, err);

	if (!rc)
		rc = pool_backward(n, L, err);
	DNNL_CHECK(dnnl_stream_wait(n->strm), "wait");
	*seconds = rt_now() - t0;
	return rc;
}

/* Whether a primitive asks for a scratchpad (the split's must not: their threads would share
 * the net's). */
static bool scratch_needed(dnnl_primitive_t p)
{
	const_dnnl_primitive_desc_t pd = NULL;
	const_rt_md_t m;

	dnnl_primitive_get_primitive_desc(p, &pd);
	m = pd ? dnnl_primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0) : NULL;
	return m && dnnl_memory_desc_get_size(m);
}

/* Each thread's views of the split backward (one thread where a primitive would need a
 * scratchpad): its views made over the start of each buffer, its slots a part of the net's
 * own, and its stream. */
static int split_views(struct rt_net *n, struct rt_net_layer *L, dnnl_memory_t dx,
		       struct rt_err *err)
{
	struct pool_split *sp = P(L)->split;
	const size_t one = sp->out_step;        /* a slot: a chunk's output */
	void *in = NULL, *d = NULL, *out = NULL, *dy = NULL, *slots = NULL;

	if (scratch_needed(sp->gather) || scratch_needed(sp->scatter) ||
	    scratch_needed(sp->pick) || scratch_needed(sp->rest) ||
	    (sp->relu_bwd && scratch_needed(sp->relu_bwd)))
		sp->threads = 1;
	if (!(sp->v = calloc((size_t)sp->threads, sizeof(*sp->v))))
		return rt_err_set(err, -ENOMEM, "out of memory");
	dnnl_memory_get_data_handle(rt_net_in_mem(n, L), &in);
	dnnl_memory_get_data_handle(dx, &d);
	dnnl_memory_get_data_handle(L->out, &out);
	dnnl_memory_get_data_handle(L->dout, &dy);
	dnnl_memory_get_data_handle(n->slots, &slots);
	for (int t = 0; t < sp->threads; t++) {
		struct split_views *v = &sp->v[t];
		char *h = (char *)slots + (size_t)t * (size_t)(sp->slots + 1) * one;

		DNNL_CHECK(dnnl_stream_create(&v->strm, n->eng, dnnl_stream_default_flags),
			   "stream");
		DNNL_CHECK(dnnl_memory_create(&v->in6, sp->src6, n->eng, in), "memory view");
		DNNL_CHECK(dnnl_memory_create(&v->d6, sp->dsrc6, n->eng, d), "memory view");
		DNNL_CHECK(dnnl_memory_create(&v->outc, sp->out_c, n->eng, out), "memory view");
		DNNL_CHECK(dnnl_memory_create(&v->dyc, sp->out_c, n->eng, dy), "memory view");
		DNNL_CHECK(dnnl_memory_create(&v->scattered, sp->slots6, n->eng, h),
			   "memory view");
		DNNL_CHECK(dnnl_memory_create(&v->gathered, sp->slots6, n->eng, h + one),
			   "memory view");
		for (int s = 0; s <= sp->slots; s++)
			DNNL_CHECK(dnnl_memory_create(&v->q[s], sp->out_c, n->eng,
						      h + (size_t)s * one), "memory view");
	}
	return 0;
}

/* After the gradients are routed and the shared buffers exist: the split views, then the
 * choice (auto: both timed, interleaved, on the net's own buffers filled with test values;
 * both give the same bits, so only the time differs), then the workspace of the primitive
 * when it is the one. */
static int pool_finish(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err)
{
	struct pool_split *sp = P(L)->split;
	const_rt_md_t q = dnnl_primitive_desc_query_md(L->fwd_pd,
								   dnnl_query_workspace_md, 0);
	const bool need_ws = q && dnnl_memory_desc_get_size(q);
	dnnl_memory_t dx = grad_target(n, L);
	void *h = NULL;
	int rc = 0;

	if (sp && sp->slots && dx && n->slots) {
		const_rt_md_t dmd = NULL;

		dnnl_memory_get_memory_desc(dx, &dmd);
		if (!spatial_plain(dmd) || (sp->nchunks > 1 && !images_outermost(dmd)) ||
		    window_view(&sp->dsrc6, dmd, sp->chunk, L->d->kernel) != dnnl_success)
			goto primitive;
		sp->din_step = dnnl_memory_desc_get_size(dmd) / (size_t)sp->nchunks;
		if (rt_net_reorder(n, L, sp->slots6, sp->dsrc6, &sp->scatter, err))
			goto primitive;
		/* each thread's views, moved to each chunk when the backward runs */
		if ((rc = split_views(n, L, dx, err)))
			return rc;
		dnnl_memory_get_data_handle(n->slots, &h);
		if (n->o.maxpool == RT_POOL_SPLIT) {
			sp->on = true;
		} else {
			/* the primitive's workspace lives in the shared slots for the trial */
			double best[2] = { 1e30, 1e30 };

			if (need_ws)
				DNNL_CHECK(dnnl_memory_create(&P(L)->ws, q, n->eng, h), "memory view");
			if ((rc = rt_net_fill(n, L, rt_net_in_mem(n, L), 1, err)) ||
			    (rc = rt_net_fill(n, L, L->dout, 2, err)))
				return rc;
			for (int rep = 0; rep < 4; rep++)
				for (int c = 0; c < 2; c++) {
					double t = 0;

					sp->on = c;
					if ((rc = time_pass(n, L, &t, err)))
						return rc;
					if (rep && t < best[c])
						best[c] = t;
				}
			dnnl_memory_destroy(P(L)->ws);
			P(L)->ws = NULL;
			sp->on = best[1] < best[0];
		}
		if (sp->on)
			return 0;
	}
primitive:
	if (sp)
		sp->on = false;
	return need_ws ? rt_net_mem(n, L, &P(L)->ws, q, CAT_WORK, err) : 0;
}

static void pool_destroy(struct rt_net_layer *L)
{
	struct pool_state *ps = P(L);
	struct pool_split *sp = ps ? ps->split : NULL;

	if (!ps)
		return;
	if (sp) {
		dnnl_primitive_destroy(sp->fwd);
		dnnl_primitive_desc_destroy(sp->fwd_pd);
		dnnl_primitive_destroy(sp->gather);
		dnnl_primitive_destroy(sp->scatter);
		dnnl_primitive_destroy(sp->pick);
		dnnl_primitive_destroy(sp->rest);
		dnnl_primitive_destroy(sp->relu_bwd);
		for (int t = 0; sp->v && t < sp->threads; t++) {
			struct split_views *v = &sp->v[t];

			dnnl_memory_destroy(v->in6);
			dnnl_memory_destroy(v->gathered);
			dnnl_memory_destroy(v->scattered);
			dnnl_memory_destroy(v->d6);
			dnnl_memory_destroy(v->outc);
			dnnl_memory_destroy(v->dyc);
			for (int s = 0; s <= SPLIT_MAX_SLOTS; s++)
				dnnl_memory_destroy(v->q[s]);
			if (v->strm)
				dnnl_stream_destroy(v->strm);
		}
		free(sp->v);
		rt_md_destroy(sp->src6);
		rt_md_destroy(sp->slots6);
		rt_md_destroy(sp->dsrc6);
		rt_md_destroy(sp->out_c);
		free(sp);
	}
	dnnl_memory_destroy(ps->ws);
	dnnl_primitive_destroy(ps->relu_bwd);
	free(ps);
	L->priv = NULL;
}

static const char *pool_impl(const struct rt_net_layer *L)
{
	return P(L)->split && P(L)->split->on ? P(L)->split->impl : NULL;
}

const struct rt_layer_ops rt_layer_pool_ops = {
	.create = pool_create, .forward = pool_forward, .backward = pool_backward,
	.finish = pool_finish, .destroy = pool_destroy, .impl = pool_impl,
};
