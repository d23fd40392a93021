/* net.c: builds a net of oneDNN primitives from a model, routes gradients between layers,
 * counts every byte it allocates, and runs the phases of a training iteration (the oneDNN
 * helpers are in net-dnnl.c, the parameters and SGD in net-params.c, test access in
 * net-inspect.c, each layer type in its layer-*.c) */
#include "config.h"
#include "cnn/net-internal.h"
#include "base/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct rt_layer_ops *const ops_by_type[RT_LAYER_TYPE_COUNT] = {
	[RT_LAYER_CONV] = &rt_layer_conv_ops,
	[RT_LAYER_RELU] = &rt_layer_relu_ops,
	[RT_LAYER_MAXPOOL] = &rt_layer_pool_ops,
	[RT_LAYER_AVGPOOL] = &rt_layer_pool_ops,
	[RT_LAYER_BATCHNORM] = &rt_layer_bn_ops,
	[RT_LAYER_FC] = &rt_layer_fc_ops,
	[RT_LAYER_DROPOUT] = &rt_layer_dropout_ops,
	[RT_LAYER_ADD] = &rt_layer_add_ops,
	[RT_LAYER_SOFTMAX_XENT] = &rt_layer_loss_ops,
};

void rt_net_opts_default(struct rt_net_opts *o, const struct rt_model *m)
{
	o->batch = m ? m->batch : 64;
	o->seed = 1;
	o->lr = 0.01;
	o->momentum = 0.9;
	o->weight_decay = 5e-4;
	o->plain = false;
	o->precision = RT_PRECISION_FP32;
	o->maxpool = RT_POOL_AUTO;
	o->pool_chunk = 0;
	o->rank = 0;
	o->ranks = 1;
}

static const char *const pool_impl_names[RT_POOL_IMPL_COUNT] = { "auto", "onednn", "split" };

const char *rt_pool_impl_name(enum rt_pool_impl p)
{
	return (unsigned)p < RT_POOL_IMPL_COUNT ? pool_impl_names[p] : "unknown";
}

int rt_pool_impl_parse(const char *s, enum rt_pool_impl *p)
{
	const int i = rt_vocab_index(pool_impl_names, RT_POOL_IMPL_COUNT, s);

	if (i < 0)
		return -EINVAL;
	*p = (enum rt_pool_impl)i;
	return 0;
}

void rt_net_set_grad_hook(struct rt_net *n, rt_net_grad_hook hook, void *ctx)
{
	n->grad_hook = hook;
	n->grad_ctx = ctx;
}

int rt_net_bf16_support(char *label, size_t size, struct rt_err *err)
{
	const unsigned isa = (unsigned)dnnl_get_effective_cpu_isa();

#define HAS(x) ((isa & (unsigned)(x)) == (unsigned)(x))
	if (HAS(dnnl_cpu_isa_avx512_core_amx))
		snprintf(label, size, "amx");
	else if (HAS(dnnl_cpu_isa_avx512_core_bf16))
		snprintf(label, size, "avx512_bf16");
	else if (HAS(dnnl_cpu_isa_avx512_core))
		snprintf(label, size, "avx512_core (emulated)");
	else
		return rt_err_set(err, -ENOTSUP, "bf16: oneDNN runs bf16 primitives on AVX-512 "
				  "only (natively with AVX512-BF16 or AMX, emulated on AVX-512F/BW); "
				  "oneDNN's ISA here is %s (ONEDNN_MAX_CPU_ISA may lower it): use "
				  "--precision fp32", HAS(dnnl_cpu_isa_avx2) ? "avx2" :
				  HAS(dnnl_cpu_isa_avx) ? "avx" : HAS(dnnl_cpu_isa_sse41) ? "sse41" :
				  "below sse41");
#undef HAS
	return 0;
}

/* Decide where each layer's input gradient goes, in backward (reverse) order: the first
 * consumer of an output writes its gradient buffer, later ones add into it. */
static int route_gradients(struct rt_net *n, struct rt_err *err)
{
	bool *written = calloc(n->nl + 1, sizeof(*written));
	int rc = 0;

	if (!written)
		return rt_err_set(err, -ENOMEM, "out of memory");
	for (size_t i = n->nl; i-- > 0 && !rc;) {
		struct rt_net_layer *L = &n->L[i];
		int prods[2] = { L->d->input, L->d->type == RT_LAYER_ADD ? L->d->from : -1 };

		L->nsinks = L->d->type == RT_LAYER_ADD ? 2 : 1;
		for (size_t k = 0; k < L->nsinks && !rc; k++) {
			struct rt_grad_sink *g = &L->sink[k];
			int p = prods[k];
			const_rt_md_t pmd;

			g->producer = p;
			if (p < 0)
				continue;
			pmd = n->L[p].dout_md;
			if (L->d->type == RT_LAYER_ADD) {
				/* the add passes its gradient through: copy or accumulate dout(add) */
				if (!written[p]) {
					g->dst = n->L[p].dout;
					rc = rt_net_reorder(n, L, L->dout_md, pmd, &g->copy, err);
				} else {
					dnnl_primitive_desc_t pd = NULL;
					dnnl_status_t st;

					g->dst = L->dout;
					st = rt_dnnl_binary_pd(&pd, n->eng, dnnl_binary_add, pmd,
							       L->dout_md, pmd, n->attr);
					rc = rt_net_prim(n, L, st, pd, &g->acc, NULL,
							 "gradient sum", err);
				}
			} else if (!written[p]) {
				g->dst = n->L[p].dout;
			} else {
				dnnl_primitive_desc_t pd = NULL;

				rc = rt_net_mem(n, L, &g->dst, pmd, CAT_AGRADS, err);
				if (!rc) {
					dnnl_status_t st = rt_dnnl_binary_pd(&pd, n->eng,
									     dnnl_binary_add, pmd,
									     pmd, pmd, n->attr);

					rc = rt_net_prim(n, L, st, pd, &g->acc, NULL,
							 "gradient sum", err);
				}
			}
			written[p] = true;
		}
	}
	free(written);
	return rc;
}

double rt_net_estimate_bytes(const struct rt_model *m, long batch, enum rt_precision p)
{
	const double a = p == RT_PRECISION_BF16 ? 2 : 4;
	struct rt_model_totals t;

	rt_model_totals(m, batch, &t);
	return (12.0 + 4 - a) * (double)t.params +
	       (double)batch * (a * ((double)t.kept_elems + (double)t.act_elems) +
				(4 + 4 - a) * (double)rt_shape_elems(m->input));
}

/* The attributes of a convolution with a fused relu: the scratchpad and the post-op. */
static dnnl_status_t make_relu_attr(struct rt_net *n)
{
	dnnl_post_ops_t po = NULL;
	dnnl_status_t st = dnnl_primitive_attr_clone(&n->attr_relu, n->attr);

	if (st == dnnl_success)
		st = dnnl_post_ops_create(&po);
	if (st == dnnl_success)
		st = rt_dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.f, 0.f);
	if (st == dnnl_success)
		st = dnnl_primitive_attr_set_post_ops(n->attr_relu, po);
	dnnl_post_ops_destroy(po);
	return st;
}

int rt_net_create(struct rt_net **out, const struct rt_model *m, const struct rt_net_opts *o,
		  struct rt_err *err)
{
	/* a model too large for this machine is refused before anything is allocated */
	{
		double need = rt_net_estimate_bytes(m, o->batch, o->precision);
		double have = (double)rt_mem_available();
		struct rt_model_totals t;

		rt_model_totals(m, o->batch, &t);
		if (have > 0 && need > have)
			return rt_err_set(err, -ENOMEM, "model '%s' at batch %ld needs about %.3g GB "
					  "(%ld parameters, %ld activation elements per image), more "
					  "than the %.3g GB available", m->name, o->batch, need / 1e9,
					  t.params, t.act_elems, have / 1e9);
	}
	struct rt_net *n = calloc(1, sizeof(*n));
	struct rt_net_layer *L = NULL;
	dnnl_dims_t idims;
	int rc = 0;

	if (!n)
		return rt_err_set(err, -ENOMEM, "out of memory");
	n->m = m;
	n->o = *o;
	n->nl = m->nlayers;
	n->adt = o->precision == RT_PRECISION_BF16 ? dnnl_bf16 : dnnl_f32;
	if (o->precision == RT_PRECISION_BF16) {
		char label[64];

		if ((rc = rt_net_bf16_support(label, sizeof(label), err)))
			goto out;
	}
	if (o->batch < 1) {
		rc = rt_err_set(err, -EINVAL, "batch %ld is not positive", o->batch);
		goto out;
	}
	if (o->ranks < 1 || o->rank < 0 || o->rank >= o->ranks) {
		rc = rt_err_set(err, -EINVAL, "rank %d of %d", o->rank, o->ranks);
		goto out;
	}
	n->L = calloc(n->nl, sizeof(*n->L));
	n->labels = calloc((size_t)o->batch, sizeof(*n->labels));
	if (!n->L || !n->labels) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	if (dnnl_engine_create(&n->eng, dnnl_cpu, 0) != dnnl_success ||
	    dnnl_stream_create(&n->strm, n->eng, dnnl_stream_default_flags) != dnnl_success ||
	    dnnl_primitive_attr_create(&n->attr) != dnnl_success ||
	    dnnl_primitive_attr_set_scratchpad_mode(n->attr, dnnl_scratchpad_mode_user) !=
		    dnnl_success || make_relu_attr(n) != dnnl_success) {
		rc = rt_err_set(err, -EIO, "oneDNN: cannot create a CPU engine");
		goto out;
	}
	idims[0] = o->batch;
	idims[1] = m->input.c;
	idims[2] = m->input.h;
	idims[3] = m->input.w;
	rt_net_plain_md(&n->input_md, 4, idims);
	if ((rc = rt_net_mem(n, NULL, &n->input, n->input_md, CAT_WORK, err)) ||
	    (rc = rt_net_params_reserve(n, err)))
		goto out;
	rt_net_zero_mem(n->input);
	for (size_t i = 0; i < n->nl; i++) {
		L = &n->L[i];
		L->d = &m->layers[i];
		L->index = i;
		L->ops = ops_by_type[L->d->type];
		if (L->d->input >= 0)
			n->L[L->d->input].consumers++;
		if (L->d->type == RT_LAYER_ADD)
			n->L[L->d->from].consumers++;
		if ((rc = L->ops->create(n, L, err)))
			goto out;
		if (!L->dout_md && rt_md_copy(&L->dout_md, L->out_md) != dnnl_success) {
			rc = rt_err_set(err, -ENOMEM, "out of memory");
			goto out;
		}
	}
	for (size_t i = 0; i + 1 < n->nl; i++)
		if (!n->L[i].consumers) {
			rc = rt_err_set(err, -EINVAL, "%s:%d: the output of layer '%s' is not used by "
					"any later layer", m->path, m->layers[i].line,
					m->layers[i].name);
			goto out;
		}
	/* gradient buffers: one per output that some layer consumes */
	for (size_t i = 0; i < n->nl; i++) {
		L = &n->L[i];
		if (L->consumers && !L->d->bwd_folded &&
		    (rc = rt_net_mem(n, L, &L->dout, L->dout_md, CAT_AGRADS, err)))
			goto out;
	}
	L = NULL;
	if ((rc = route_gradients(n, err)) || (rc = rt_net_params_sgd(n, err)))
		goto out;
	{
		rt_md_t smd = NULL;
		dnnl_dims_t sd = { (dnnl_dim_t)(n->scratch_bytes ? n->scratch_bytes : 1) };

		rt_md_tag(&smd, 1, sd, dnnl_u8, dnnl_a);
		rc = rt_net_mem(n, NULL, &n->scratch, smd, CAT_WORK, err);
		sd[0] = (dnnl_dim_t)n->slot_bytes;
		rt_md_tag(&smd, 1, sd, dnnl_u8, dnnl_a);
		if (!rc && n->slot_bytes)
			rc = rt_net_mem(n, NULL, &n->slots, smd, CAT_WORK, err);
		rt_md_destroy(smd);
		if (rc)
			goto out;
	}
	for (size_t i = 0; i < n->nl; i++) {
		L = &n->L[i];
		if (L->ops->finish && (rc = L->ops->finish(n, L, err)))
			goto out;
	}
	L = NULL;
out:
	if (rc) {
		rt_net_destroy(n);
		return rc;
	}
	*out = n;
	return 0;
}

void rt_net_destroy(struct rt_net *n)
{
	if (!n)
		return;
	for (size_t i = 0; n->L && i < n->nl; i++) {
		struct rt_net_layer *L = &n->L[i];
		dnnl_memory_t mems[] = { L->out, L->dout, L->src, L->w, L->b, L->dw, L->db, L->vw,
					 L->vb, L->w_bwd, L->dsrc, L->wc, L->src4, L->dsrc4 };
		dnnl_primitive_t prims[] = { L->reorder_in, L->fwd, L->bwd_d, L->bwd_w,
					     L->w_reorder, L->reorder_dsrc, L->w_cast };

		for (size_t k = 0; k < sizeof(mems) / sizeof(mems[0]); k++)
			dnnl_memory_destroy(mems[k]);
		for (size_t k = 0; k < sizeof(prims) / sizeof(prims[0]); k++)
			dnnl_primitive_destroy(prims[k]);
		for (size_t k = 0; k < 2; k++) {
			struct rt_grad_sink *g = &L->sink[k];

			if (g->acc || g->copy) {
				dnnl_primitive_destroy(g->acc);
				dnnl_primitive_destroy(g->copy);
			}
			/* a temporary is ours; a producer's dout or the add's dout is not */
			if (g->acc && L->d->type != RT_LAYER_ADD)
				dnnl_memory_destroy(g->dst);
		}
		if (L->ops && L->ops->destroy)
			L->ops->destroy(L);
		dnnl_primitive_desc_destroy(L->fwd_pd);
		rt_md_destroy(L->out_md);
		rt_md_destroy(L->dout_md);
		rt_md_destroy(L->w_plain_md);
		rt_md_destroy(L->b_plain_md);
	}
	rt_md_destroy(n->input_md);
	dnnl_memory_destroy(n->slots);
	rt_net_params_free(n);
	dnnl_memory_destroy(n->input);
	dnnl_memory_destroy(n->scratch);
	dnnl_primitive_attr_destroy(n->attr);
	dnnl_primitive_attr_destroy(n->attr_relu);
	dnnl_stream_destroy(n->strm);
	dnnl_engine_destroy(n->eng);
	free(n->L);
	free(n->labels);
	free(n);
}

float *rt_net_input(struct rt_net *n)
{
	void *h = NULL;

	dnnl_memory_get_data_handle(n->input, &h);
	return h;
}

int32_t *rt_net_labels(struct rt_net *n)
{
	return n->labels;
}

int rt_net_load_input(struct rt_net *n, struct rt_err *err)
{
	for (size_t i = 0; i < n->nl; i++) {
		struct rt_net_layer *L = &n->L[i];

		if (L->reorder_in && L->d->input < 0) {
			dnnl_exec_arg_t a[2] = { { DNNL_ARG_FROM, n->input },
						 { DNNL_ARG_TO, L->src4 ? L->src4 : L->src } };
			int rc = rt_net_exec(n, L, L->reorder_in, 2, a, err);

			if (rc)
				return rc;
		}
		if (L->ops->load) {
			int rc = L->ops->load(n, L, err);

			if (rc)
				return rc;
		}
	}
	return 0;
}

void rt_net_set_iteration(struct rt_net *n, uint64_t iteration)
{
	n->iteration = iteration;
}

int rt_net_forward(struct rt_net *n, struct rt_err *err)
{
	for (size_t i = 0; i < n->nl; i++) {
		struct rt_net_layer *L = &n->L[i];
		double t0;
		int rc;

		if (L->d->type == RT_LAYER_SOFTMAX_XENT)
			continue;
		t0 = rt_now();
		rc = L->ops->forward(n, L, err);
		L->t_fwd += rt_now() - t0;
		if (rc)
			return rc;
	}
	return 0;
}

int rt_net_loss(struct rt_net *n, double *loss, double *accuracy, struct rt_err *err)
{
	struct rt_net_layer *L = &n->L[n->nl - 1];
	double t0 = rt_now();
	int rc = L->ops->forward(n, L, err);

	L->t_fwd += rt_now() - t0;
	if (loss)
		*loss = n->loss;
	if (accuracy)
		*accuracy = n->accuracy;
	return rc;
}

int rt_net_backward(struct rt_net *n, struct rt_err *err)
{
	for (size_t i = n->nl; i-- > 0;) {
		struct rt_net_layer *L = &n->L[i];
		double t0 = rt_now();
		int rc = L->ops->backward(n, L, err);

		/* fold the gradients that went to temporaries into their producers' buffers */
		for (size_t k = 0; !rc && k < L->nsinks; k++) {
			struct rt_grad_sink *g = &L->sink[k];

			if (g->producer < 0)
				continue;
			if (g->copy) {
				dnnl_exec_arg_t a[2] = { { DNNL_ARG_FROM, L->dout },
							 { DNNL_ARG_TO, n->L[g->producer].dout } };

				rc = rt_net_exec(n, L, g->copy, 2, a, err);
			} else if (g->acc) {
				dnnl_memory_t pd = n->L[g->producer].dout;
				dnnl_exec_arg_t a[3] = { { DNNL_ARG_SRC_0, pd },
							 { DNNL_ARG_SRC_1, g->dst },
							 { DNNL_ARG_DST, pd } };

				rc = rt_net_exec(n, L, g->acc, 3, a, err);
			}
		}
		/* this layer's weight gradients are final: hand them to the data-parallel sum */
		for (int t = 0; !rc && n->grad_hook && t < 2; t++) {
			dnnl_memory_t g = t ? L->db : L->dw;
			const_rt_md_t md = NULL;
			void *h = NULL;

			if (!g)
				continue;
			dnnl_memory_get_memory_desc(g, &md);
			dnnl_memory_get_data_handle(g, &h);
			rc = n->grad_hook(n->grad_ctx, h, dnnl_memory_desc_get_size(md) / sizeof(float),
					  err);
		}
		L->t_bwd += rt_now() - t0;
		if (rc)
			return rc;
	}
	return 0;
}

void rt_net_layer_seconds(const struct rt_net *n, size_t i, double *fwd, double *bwd)
{
	*fwd = i < n->nl ? n->L[i].t_fwd : 0;
	*bwd = i < n->nl ? n->L[i].t_bwd : 0;
}

double rt_net_primitive_seconds(const struct rt_net *n)
{
	return n->prim_seconds;
}

void rt_net_reset_seconds(struct rt_net *n)
{
	n->prim_seconds = 0;
	for (size_t i = 0; i < n->nl; i++)
		n->L[i].t_fwd = n->L[i].t_bwd = 0;
}

static void fill_memory(struct rt_net_memory *mem, const uint64_t *b)
{
	mem->weights = b[CAT_WEIGHTS];
	mem->weight_grads = b[CAT_WGRADS];
	mem->optimizer = b[CAT_OPT];
	mem->activations = b[CAT_ACT];
	mem->activation_grads = b[CAT_AGRADS];
	mem->workspace = b[CAT_WORK];
	mem->total = 0;
	for (int c = 0; c < CAT_COUNT; c++)
		mem->total += b[c];
}

static uint64_t mem_size(dnnl_memory_t m)
{
	const_rt_md_t md = NULL;

	if (!m || dnnl_memory_get_memory_desc(m, &md) != dnnl_success)
		return 0;
	return dnnl_memory_desc_get_size(md);
}

static void *mem_handle(dnnl_memory_t m)
{
	void *h = NULL;

	if (m)
		dnnl_memory_get_data_handle(m, &h);
	return h;
}

/* The forward-only footprint (struct rt_net_memory.inference). An output that is a view of
 * its input (a relu fused into its convolution) is the producer's buffer: its readers keep
 * that buffer alive. */
static uint64_t inference_bytes(const struct rt_net *n)
{
	uint64_t fixed = mem_size(n->input) + n->scratch_bytes, peak = 0;
	size_t *owner = calloc(n->nl ? n->nl : 1, sizeof(*owner));
	size_t *last = calloc(n->nl ? n->nl : 1, sizeof(*last));

	if (!owner || !last) {
		free(owner);
		free(last);
		return 0;
	}
	for (size_t i = 0; i < n->nl; i++) {
		const struct rt_net_layer *L = &n->L[i];
		const int in = L->d->input;

		/* the weights forward reads: the bf16 copy when there is one */
		fixed += mem_size(L->wc ? L->wc : L->w) + mem_size(L->b);
		owner[i] = in >= 0 && mem_handle(L->out) == mem_handle(n->L[in].out) ?
			   owner[in] : i;
		last[owner[i]] = i;
		if (in >= 0)
			last[owner[in]] = i;
		if (L->d->type == RT_LAYER_ADD && L->d->from >= 0)
			last[owner[L->d->from]] = i;
	}
	for (size_t i = 0; i < n->nl; i++) {
		uint64_t live = 0;

		/* at layer i: every buffer made at or before i and read at or after it */
		for (size_t k = 0; k <= i; k++)
			if (owner[k] == k && last[k] >= i)
				live += mem_size(n->L[k].out);
		peak = live > peak ? live : peak;
	}
	free(owner);
	free(last);
	return fixed + peak;
}

void rt_net_memory(const struct rt_net *n, struct rt_net_memory *mem)
{
	fill_memory(mem, n->bytes);
	mem->allocated = n->allocated;
	mem->inference = inference_bytes(n);
}

void rt_net_layer_memory(const struct rt_net *n, size_t i, struct rt_net_memory *mem)
{
	fill_memory(mem, n->L[i].bytes);
	mem->allocated = mem->total;
	mem->inference = 0;
}
