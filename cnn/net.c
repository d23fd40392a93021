/* net.c: builds a net of oneDNN primitives from a model, routes gradients between layers,
 * counts every byte it allocates, and runs the phases of a training iteration */
#include "config.h"
#include "net-internal.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

int rt_net_dnnl_fail(struct rt_err *err, dnnl_status_t st, const struct lrt *L, const char *what)
{
	return rt_err_set(err, st == dnnl_out_of_memory ? -ENOMEM : -EIO,
			  "%s%s%s: oneDNN: %s: %s", L ? "layer '" : "", L ? L->d->name : "",
			  L ? "'" : "", what, dnnl_status2str(st));
}

int rt_net_mem(struct rt_net *n, struct lrt *L, dnnl_memory_t *m, const dnnl_memory_desc_t *md,
	       enum mem_cat cat, struct rt_err *err)
{
	size_t sz = dnnl_memory_desc_get_size(md);

	DNNL_CHECK(dnnl_memory_create(m, md, n->eng, DNNL_MEMORY_ALLOCATE), "memory");
	/* the accounting: by category for the net and the layer, and a plain running total */
	n->bytes[cat] += sz;
	n->allocated += sz;
	if (L)
		L->bytes[cat] += sz;
	return 0;
}

int rt_net_prim(struct rt_net *n, struct lrt *L, const void *desc, dnnl_primitive_desc_t hint,
		dnnl_primitive_t *prim, dnnl_primitive_desc_t *pd_out, const char *what,
		struct rt_err *err)
{
	dnnl_primitive_desc_t pd = NULL;
	const dnnl_memory_desc_t *sp;
	dnnl_status_t st;

	st = dnnl_primitive_desc_create(&pd, desc, n->attr, n->eng, hint);
	if (st != dnnl_success)
		return rt_net_dnnl_fail(err, st, L, what);
	sp = dnnl_primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0);
	if (sp && dnnl_memory_desc_get_size(sp) > n->scratch_bytes)
		n->scratch_bytes = dnnl_memory_desc_get_size(sp);
	st = dnnl_primitive_create(prim, pd);
	if (st != dnnl_success) {
		dnnl_primitive_desc_destroy(pd);
		return rt_net_dnnl_fail(err, st, L, what);
	}
	if (pd_out)
		*pd_out = pd;
	else
		dnnl_primitive_desc_destroy(pd);
	return 0;
}

int rt_net_reorder(struct rt_net *n, struct lrt *L, const dnnl_memory_desc_t *from,
		   const dnnl_memory_desc_t *to, dnnl_primitive_t *prim, struct rt_err *err)
{
	dnnl_primitive_desc_t pd = NULL;
	const dnnl_memory_desc_t *sp;

	DNNL_CHECK(dnnl_reorder_primitive_desc_create(&pd, from, n->eng, to, n->eng, n->attr),
		   "reorder");
	sp = dnnl_primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0);
	if (sp && dnnl_memory_desc_get_size(sp) > n->scratch_bytes)
		n->scratch_bytes = dnnl_memory_desc_get_size(sp);
	{
		dnnl_status_t st = dnnl_primitive_create(prim, pd);

		dnnl_primitive_desc_destroy(pd);
		if (st != dnnl_success)
			return rt_net_dnnl_fail(err, st, L, "reorder");
	}
	return 0;
}

int rt_net_exec(struct rt_net *n, struct lrt *L, dnnl_primitive_t p, int nargs,
		dnnl_exec_arg_t *args, struct rt_err *err)
{
	dnnl_exec_arg_t all[16];

	memcpy(all, args, (size_t)nargs * sizeof(*args));
	all[nargs].arg = DNNL_ARG_SCRATCHPAD;
	all[nargs].memory = n->scratch;
	{
		double t0 = rt_now();
		dnnl_status_t st = dnnl_primitive_execute(p, n->strm, nargs + 1, all);

		n->prim_seconds += rt_now() - t0;
		if (st != dnnl_success)
			return rt_net_dnnl_fail(err, st, L, "execute");
	}
	return 0;
}

bool rt_net_is_ref(const_dnnl_primitive_desc_t pd)
{
	const char *impl = NULL;

	dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl);
	return !impl || !strncmp(impl, "ref", 3);
}

const dnnl_memory_desc_t *rt_net_in_md(const struct rt_net *n, const struct lrt *L)
{
	return L->d->input < 0 ? &n->input_md : &n->L[L->d->input].out_md;
}

dnnl_memory_t rt_net_in_mem(const struct rt_net *n, const struct lrt *L)
{
	return L->d->input < 0 ? n->input : n->L[L->d->input].out;
}

static const dnnl_format_tag_t plain_tags[] = { dnnl_format_tag_undef, dnnl_a, dnnl_ab,
						 dnnl_abc, dnnl_abcd, dnnl_abcde };

void rt_net_plain_md(dnnl_memory_desc_t *md, int ndims, const dnnl_dims_t dims)
{
	dnnl_memory_desc_init_by_tag(md, ndims, dims, dnnl_f32, plain_tags[ndims]);
}

void rt_net_act_plain_md(const struct rt_net *n, dnnl_memory_desc_t *md, int ndims,
			 const dnnl_dims_t dims)
{
	dnnl_memory_desc_init_by_tag(md, ndims, dims, n->adt, plain_tags[ndims]);
}

/* xorshift64*: the net's only randomness, seeded, so two runs are identical */
static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

/* A one-off reorder between two memories, with oneDNN's own scratchpad: for initialization
 * and test access, outside the iteration loop. */
static int reorder_now(struct rt_net *n, struct lrt *L, dnnl_memory_t from, dnnl_memory_t to,
		       struct rt_err *err)
{
	const dnnl_memory_desc_t *fmd, *tmd;
	dnnl_primitive_desc_t pd = NULL;
	dnnl_primitive_t r = NULL;
	dnnl_exec_arg_t a[2] = { { DNNL_ARG_FROM, from }, { DNNL_ARG_TO, to } };
	dnnl_status_t st;

	dnnl_memory_get_memory_desc(from, &fmd);
	dnnl_memory_get_memory_desc(to, &tmd);
	st = dnnl_reorder_primitive_desc_create(&pd, fmd, n->eng, tmd, n->eng, NULL);
	if (st == dnnl_success)
		st = dnnl_primitive_create(&r, pd);
	if (st == dnnl_success)
		st = dnnl_primitive_execute(r, n->strm, 2, a);
	if (st == dnnl_success)
		st = dnnl_stream_wait(n->strm);
	dnnl_primitive_destroy(r);
	dnnl_primitive_desc_destroy(pd);
	return st == dnnl_success ? 0 : rt_net_dnnl_fail(err, st, L, "reorder");
}

static int write_plain(struct rt_net *n, struct lrt *L, dnnl_memory_t dst,
		       const dnnl_memory_desc_t *plain, const float *vals, struct rt_err *err)
{
	dnnl_memory_t user = NULL;
	void *h = NULL;
	int rc;

	DNNL_CHECK(dnnl_memory_create(&user, plain, n->eng, DNNL_MEMORY_ALLOCATE), "memory");
	dnnl_memory_get_data_handle(user, &h);
	memcpy(h, vals, dnnl_memory_desc_get_size(plain));
	rc = reorder_now(n, L, user, dst, err);
	dnnl_memory_destroy(user);
	return rc;
}

int rt_net_fill(struct rt_net *n, struct lrt *L, dnnl_memory_t m, uint64_t seed,
		struct rt_err *err)
{
	const dnnl_memory_desc_t *md = NULL;
	dnnl_memory_desc_t plain;
	uint64_t s = seed * 0x9E3779B97F4A7C15ULL + 1;
	float *v;
	size_t cnt;
	int rc;

	dnnl_memory_get_memory_desc(m, &md);
	rt_net_plain_md(&plain, md->ndims, md->dims);
	cnt = dnnl_memory_desc_get_size(&plain) / sizeof(float);
	if (!(v = malloc(cnt * sizeof(*v) + 1)))
		return rt_err_set(err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < cnt; i++)
		v[i] = (float)((double)(rng_next(&s) >> 40) / (double)(1ULL << 23) - 1.0);
	rc = write_plain(n, L, m, &plain, v, err);
	free(v);
	return rc;
}

static int zero_mem(dnnl_memory_t m)
{
	const dnnl_memory_desc_t *md;
	void *h = NULL;

	dnnl_memory_get_memory_desc(m, &md);
	dnnl_memory_get_data_handle(m, &h);
	memset(h, 0, dnnl_memory_desc_get_size(md));
	return 0;
}

static long ceil64(long x)
{
	return (x + 63) / 64 * 64;
}

/* More floats than the model's parameter tensors take in any layout oneDNN picks (channel
 * dims padded to 64, alignment): the size of the address space each arena reserves. */
static size_t params_bound(const struct rt_model *m)
{
	double f = 0;

	for (size_t i = 0; i < m->nlayers; i++) {
		const struct rt_layer_desc *d = &m->layers[i];
		const long g = d->groups > 0 ? d->groups : 1;

		if (d->type == RT_LAYER_CONV)
			f += (double)g * (double)ceil64(d->filters / g) * (double)ceil64(d->in.c / g) *
			     (double)(d->kernel * d->kernel) + (double)ceil64(d->filters);
		else if (d->type == RT_LAYER_FC)
			f += (double)ceil64(d->outputs) * (double)ceil64(rt_shape_elems(d->in)) +
			     (double)ceil64(d->outputs);
		else if (d->type == RT_LAYER_BATCHNORM)
			f += 2.0 * (double)ceil64(d->in.c);
		f += 64;
	}
	return (size_t)(2 * f * sizeof(float)) + ((size_t)4 << 20);
}

/* A parameter tensor, its gradient and its momentum, carved from the arenas at one offset
 * (64-byte aligned; the arenas start zeroed, so gaps stay zero through SGD). */
static int param_mems(struct rt_net *n, struct lrt *L, const dnnl_memory_desc_t *md,
		      dnnl_memory_t *w, dnnl_memory_t *g, dnnl_memory_t *v, struct rt_err *err)
{
	const size_t sz = dnnl_memory_desc_get_size(md), off = n->par.used;
	dnnl_memory_t *m[3] = { w, g, v };
	const enum mem_cat cat[3] = { CAT_WEIGHTS, CAT_WGRADS, CAT_OPT };

	if (off + sz > n->par.cap)
		return rt_err_set(err, -EFAULT, "layer '%s': %zu bytes of parameters past the "
				  "arena's %zu (internal error)", L->d->name, off + sz, n->par.cap);
	for (int k = 0; k < 3; k++) {
		DNNL_CHECK(dnnl_memory_create(m[k], md, n->eng, n->par.base[k] + off), "memory");
		n->bytes[cat[k]] += sz;
		n->allocated += sz;
		L->bytes[cat[k]] += sz;
	}
	n->par.used = off + (sz + 63) / 64 * 64;
	return 0;
}

static int params_reserve(struct rt_net *n, struct rt_err *err)
{
	n->par.cap = params_bound(n->m);
	for (int k = 0; k < 3; k++) {
		void *p = mmap(NULL, n->par.cap, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

		if (p == MAP_FAILED)
			return rt_err_set(err, -ENOMEM, "cannot reserve %zu bytes for the parameters",
					  n->par.cap);
		n->par.base[k] = p;
	}
	return 0;
}

/* SGD over the whole model, two oneDNN binary primitives on 1-D views of the arenas (any
 * layout: the update is elementwise, padding stays zero): v = g + wd*w + mu*v (an add with a
 * scale on w and a sum post-op of scale mu into v); w = w - lr*v. */
static int make_sgd(struct rt_net *n, struct rt_err *err)
{
	const struct lrt *L = NULL;
	const float wd = (float)n->o.weight_decay, mlr = (float)-n->o.lr;
	dnnl_memory_desc_t flat;
	dnnl_dims_t dims = { (dnnl_dim_t)(n->par.used / sizeof(float)) };
	dnnl_status_t st = dnnl_success;

	if (!n->par.used)
		return 0;
	dnnl_memory_desc_init_by_tag(&flat, 1, dims, dnnl_f32, dnnl_a);
	for (int k = 0; k < 3; k++)
		DNNL_CHECK(dnnl_memory_create(&n->par.flat[k], &flat, n->eng, n->par.base[k]),
			   "SGD view");
	for (int k = 0; k < 2 && st == dnnl_success; k++) {
		dnnl_primitive_attr_t attr = NULL;
		dnnl_post_ops_t po = NULL;
		dnnl_binary_desc_t bd;
		dnnl_primitive_desc_t pd = NULL;

		st = dnnl_primitive_attr_create(&attr);
		if (st == dnnl_success)
			st = dnnl_primitive_attr_set_scales(attr, DNNL_ARG_SRC_1, 1, 0, k ? &mlr : &wd);
		if (st == dnnl_success && !k) {
			st = dnnl_post_ops_create(&po);
			if (st == dnnl_success)
				st = dnnl_post_ops_append_sum(po, (float)n->o.momentum);
			if (st == dnnl_success)
				st = dnnl_primitive_attr_set_post_ops(attr, po);
			dnnl_post_ops_destroy(po);
		}
		if (st == dnnl_success)
			st = dnnl_binary_desc_init(&bd, dnnl_binary_add, &flat, &flat, &flat);
		if (st == dnnl_success)
			st = dnnl_primitive_desc_create(&pd, &bd, attr, n->eng, NULL);
		if (st == dnnl_success)
			st = dnnl_primitive_create(&n->par.sgd[k], pd);
		dnnl_primitive_desc_destroy(pd);
		dnnl_primitive_attr_destroy(attr);
	}
	return st == dnnl_success ? 0 : rt_net_dnnl_fail(err, st, L, "SGD step");
}

int rt_net_params(struct rt_net *n, struct lrt *L, const dnnl_memory_desc_t *w_md,
		  const dnnl_memory_desc_t *w_plain, const dnnl_memory_desc_t *b_md,
		  long fan_in, bool bn, struct rt_err *err)
{
	size_t nw = dnnl_memory_desc_get_size(w_plain) / sizeof(float);
	uint64_t s = n->o.seed * 0x9E3779B97F4A7C15ULL + L->index * 0xD1B54A32D192ED03ULL + 1;
	float *vals = NULL;
	int rc;

	L->w_plain_md = *w_plain;
	if ((rc = param_mems(n, L, w_md, &L->w, &L->dw, &L->vw, err)))
		return rc;
	vals = calloc(nw, sizeof(*vals));
	if (!vals)
		return rt_err_set(err, -ENOMEM, "out of memory");
	if (bn) {
		/* scale 1, shift 0 */
		for (size_t i = 0; i < nw / 2; i++)
			vals[i] = 1.0f;
	} else {
		/* He-uniform (PyTorch's kaiming_uniform_ with a = sqrt(5) gives 1/sqrt(fan_in);
		 * ReLU nets train faster from sqrt(6 / fan_in)) */
		double bound = sqrt(6.0 / (double)fan_in);

		for (size_t i = 0; i < nw; i++)
			vals[i] = (float)(bound * (2.0 * (double)(rng_next(&s) >> 11) * 0x1p-53 - 1.0));
	}
	rc = write_plain(n, L, L->w, w_plain, vals, err);
	free(vals);
	if (!rc && b_md) {
		L->b_plain_md = *b_md;
		rc = param_mems(n, L, b_md, &L->b, &L->db, &L->vb, err);
	}
	return rc;
}

int rt_net_weight_copies(struct rt_net *n, struct lrt *L, const dnnl_memory_desc_t *fwd_w,
			 const dnnl_memory_desc_t *bwd_w_md, struct rt_err *err)
{
	const dnnl_memory_desc_t *master = NULL;
	int rc;

	dnnl_memory_get_memory_desc(L->w, &master);
	if (!dnnl_memory_desc_equal(fwd_w, master)) {
		if ((rc = rt_net_mem(n, L, &L->wc, fwd_w, CAT_WEIGHTS, err)) ||
		    (rc = rt_net_reorder(n, L, master, fwd_w, &L->w_cast, err)) ||
		    (rc = reorder_now(n, L, L->w, L->wc, err)))
			return rc;
	}
	if (!bwd_w_md || dnnl_memory_desc_equal(bwd_w_md, fwd_w))
		return 0;
	if ((rc = rt_net_mem(n, L, &L->w_bwd, bwd_w_md, CAT_WORK, err)))
		return rc;
	return rt_net_reorder(n, L, master, bwd_w_md, &L->w_reorder, err);
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
		struct lrt *L = &n->L[i];
		int prods[2] = { L->d->input, L->d->type == RT_LAYER_ADD ? L->d->from : -1 };

		L->nsinks = L->d->type == RT_LAYER_ADD ? 2 : 1;
		for (size_t k = 0; k < L->nsinks && !rc; k++) {
			struct grad_sink *g = &L->sink[k];
			int p = prods[k];
			const dnnl_memory_desc_t *pmd;

			g->producer = p;
			if (p < 0)
				continue;
			pmd = &n->L[p].dout_md;
			if (L->d->type == RT_LAYER_ADD) {
				/* the add passes its gradient through: copy or accumulate dout(add) */
				if (!written[p]) {
					g->dst = n->L[p].dout;
					rc = rt_net_reorder(n, L, &L->dout_md, pmd, &g->copy, err);
				} else {
					dnnl_binary_desc_t bd;

					g->dst = L->dout;
					dnnl_binary_desc_init(&bd, dnnl_binary_add, pmd, &L->dout_md, pmd);
					rc = rt_net_prim(n, L, &bd, NULL, &g->acc, NULL, "gradient sum",
							 err);
				}
			} else if (!written[p]) {
				g->dst = n->L[p].dout;
			} else {
				dnnl_binary_desc_t bd;

				rc = rt_net_mem(n, L, &g->dst, pmd, CAT_AGRADS, err);
				if (!rc) {
					dnnl_binary_desc_init(&bd, dnnl_binary_add, pmd, pmd, pmd);
					rc = rt_net_prim(n, L, &bd, NULL, &g->acc, NULL, "gradient sum",
							 err);
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
		st = dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_relu, 0.f, 0.f);
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
	struct lrt *L = NULL;
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
	if ((rc = rt_net_mem(n, NULL, &n->input, &n->input_md, CAT_WORK, err)) ||
	    (rc = params_reserve(n, err)))
		goto out;
	zero_mem(n->input);
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
		if (!L->dout_md.ndims)
			L->dout_md = L->out_md;
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
		    (rc = rt_net_mem(n, L, &L->dout, &L->dout_md, CAT_AGRADS, err)))
			goto out;
	}
	L = NULL;
	if ((rc = route_gradients(n, err)) || (rc = make_sgd(n, err)))
		goto out;
	{
		dnnl_memory_desc_t smd;
		dnnl_dims_t sd = { (dnnl_dim_t)(n->scratch_bytes ? n->scratch_bytes : 1) };

		dnnl_memory_desc_init_by_tag(&smd, 1, sd, dnnl_u8, dnnl_a);
		if ((rc = rt_net_mem(n, NULL, &n->scratch, &smd, CAT_WORK, err)))
			goto out;
		sd[0] = (dnnl_dim_t)n->slot_bytes;
		dnnl_memory_desc_init_by_tag(&smd, 1, sd, dnnl_u8, dnnl_a);
		if (n->slot_bytes && (rc = rt_net_mem(n, NULL, &n->slots, &smd, CAT_WORK, err)))
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
		struct lrt *L = &n->L[i];
		dnnl_memory_t mems[] = { L->out, L->dout, L->src, L->w, L->b, L->dw, L->db, L->vw,
					 L->vb, L->ws, L->mean, L->var, L->mask, L->w_bwd, L->dsrc,
					 L->wc, L->mask_plain, L->src4, L->dsrc4, L->drelu,
					 L->src_w, L->dout_w };
		dnnl_primitive_t prims[] = { L->reorder_in, L->fwd, L->bwd_d, L->bwd_w,
					     L->w_reorder, L->reorder_dsrc, L->w_cast,
					     L->mask_reorder, L->relu_bwd, L->src_w_reorder,
					     L->dout_w_cast };

		for (size_t k = 0; k < sizeof(mems) / sizeof(mems[0]); k++)
			dnnl_memory_destroy(mems[k]);
		for (size_t k = 0; k < sizeof(prims) / sizeof(prims[0]); k++)
			dnnl_primitive_destroy(prims[k]);
		for (size_t k = 0; k < 2; k++) {
			struct grad_sink *g = &L->sink[k];

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
	}
	dnnl_memory_destroy(n->slots);
	for (int k = 0; k < 3; k++) {
		dnnl_memory_destroy(n->par.flat[k]);
		if (n->par.base[k])
			munmap(n->par.base[k], n->par.cap);
	}
	for (int k = 0; k < 2; k++)
		dnnl_primitive_destroy(n->par.sgd[k]);
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
		struct lrt *L = &n->L[i];

		if (L->reorder_in && L->d->input < 0) {
			dnnl_exec_arg_t a[2] = { { DNNL_ARG_FROM, n->input },
						 { DNNL_ARG_TO, L->src4 ? L->src4 : L->src } };
			int rc = rt_net_exec(n, L, L->reorder_in, 2, a, err);

			if (rc)
				return rc;
		}
		if (L->src_w_reorder) {
			dnnl_exec_arg_t a[2] = { { DNNL_ARG_FROM, n->input }, { DNNL_ARG_TO, L->src_w } };
			int rc = rt_net_exec(n, L, L->src_w_reorder, 2, a, err);

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
		struct lrt *L = &n->L[i];
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
	struct lrt *L = &n->L[n->nl - 1];
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
		struct lrt *L = &n->L[i];
		double t0 = rt_now();
		int rc = L->ops->backward(n, L, err);

		/* fold the gradients that went to temporaries into their producers' buffers */
		for (size_t k = 0; !rc && k < L->nsinks; k++) {
			struct grad_sink *g = &L->sink[k];

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
			const dnnl_memory_desc_t *md = NULL;
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

int rt_net_update(struct rt_net *n, struct rt_err *err)
{
	dnnl_memory_t w = n->par.flat[0], g = n->par.flat[1], v = n->par.flat[2];
	dnnl_exec_arg_t a[3] = { { DNNL_ARG_SRC_0, g }, { DNNL_ARG_SRC_1, w },
				 { DNNL_ARG_DST, v } };        /* v = g + wd*w + mu*v */
	int rc;

	if (!n->par.sgd[0])
		return 0;
	if ((rc = rt_net_exec(n, NULL, n->par.sgd[0], 3, a, err)))
		return rc;
	a[0].memory = w;                                /* w = w - lr*v */
	a[1].memory = v;
	a[2].memory = w;
	return rt_net_exec(n, NULL, n->par.sgd[1], 3, a, err);
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

void rt_net_memory(const struct rt_net *n, struct rt_net_memory *mem)
{
	fill_memory(mem, n->bytes);
	mem->allocated = n->allocated;
}

void rt_net_layer_memory(const struct rt_net *n, size_t i, struct rt_net_memory *mem)
{
	fill_memory(mem, n->L[i].bytes);
	mem->allocated = mem->total;
}

size_t rt_net_param_count(const struct rt_net *n, size_t layer, int which)
{
	const struct lrt *L = &n->L[layer];

	if (which == 0 && L->w)
		return dnnl_memory_desc_get_size(&L->w_plain_md) / sizeof(float);
	if (which == 1 && L->b)
		return dnnl_memory_desc_get_size(&L->b_plain_md) / sizeof(float);
	return 0;
}

/* Copy a parameter-shaped memory to or from a plain buffer through a reorder. */
static int plain_access(struct rt_net *n, struct lrt *L, dnnl_memory_t m,
			const dnnl_memory_desc_t *plain, size_t idx, float *val, bool set,
			struct rt_err *err)
{
	dnnl_memory_t user = NULL;
	size_t cnt = dnnl_memory_desc_get_size(plain) / sizeof(float);
	float *h = NULL;
	int rc;

	if (idx >= cnt)
		return rt_err_set(err, -ERANGE, "parameter index %zu is not below %zu", idx, cnt);
	DNNL_CHECK(dnnl_memory_create(&user, plain, n->eng, DNNL_MEMORY_ALLOCATE), "memory");
	dnnl_memory_get_data_handle(user, (void **)&h);
	rc = reorder_now(n, L, m, user, err);
	if (!rc && !set)
		*val = h[idx];
	if (!rc && set) {
		h[idx] = *val;
		rc = reorder_now(n, L, user, m, err);
	}
	dnnl_memory_destroy(user);
	return rc;
}

int rt_net_param(struct rt_net *n, size_t layer, int which, size_t idx, float *val, bool set,
		 struct rt_err *err)
{
	struct lrt *L = &n->L[layer];
	dnnl_memory_t m = which ? L->b : L->w;

	if (!m)
		return rt_err_set(err, -EINVAL, "layer %zu has no %s", layer, which ? "bias" :
				  "weights");
	return plain_access(n, L, m, which ? &L->b_plain_md : &L->w_plain_md, idx, val, set, err);
}

int rt_net_grad(struct rt_net *n, size_t layer, int which, size_t idx, float *val,
		struct rt_err *err)
{
	struct lrt *L = &n->L[layer];
	dnnl_memory_t m = which ? L->db : L->dw;

	if (!m)
		return rt_err_set(err, -EINVAL, "layer %zu has no %s", layer, which ? "bias" :
				  "weights");
	return plain_access(n, L, m, which ? &L->b_plain_md : &L->w_plain_md, idx, val, false,
			    err);
}

const char *rt_net_layer_impl(const struct rt_net *n, size_t i)
{
	const char *impl = NULL;

	if (i < n->nl && n->L[i].ops && n->L[i].ops->impl && (impl = n->L[i].ops->impl(&n->L[i])))
		return impl;
	if (i >= n->nl || !n->L[i].fwd_pd ||
	    dnnl_primitive_desc_query(n->L[i].fwd_pd, dnnl_query_impl_info_str, 0, &impl) !=
		    dnnl_success || !impl)
		return "";
	return impl;
}

const char *rt_net_main_impl(const struct rt_net *n)
{
	double best = -1;
	size_t bi = 0;

	for (size_t i = 0; i < n->nl; i++)
		if ((n->L[i].d->type == RT_LAYER_CONV || n->L[i].d->type == RT_LAYER_FC) &&
		    n->L[i].d->n.fwd_flops > best) {
			best = n->L[i].d->n.fwd_flops;
			bi = i;
		}
	return best < 0 ? "" : rt_net_layer_impl(n, bi);
}

int rt_net_activation(struct rt_net *n, size_t i, int which, float *buf, size_t cnt,
		      struct rt_err *err)
{
	struct lrt *L = i < n->nl ? &n->L[i] : NULL;
	dnnl_memory_t m = L ? (which ? L->dout : L->out) : NULL;
	const dnnl_memory_desc_t *md = NULL;
	dnnl_memory_desc_t plain;
	dnnl_memory_t user = NULL;
	void *h = NULL;
	int rc;

	if (!m)
		return rt_err_set(err, -EINVAL, "layer %zu has no %s", i, which ? "gradient" :
				  "output");
	dnnl_memory_get_memory_desc(m, &md);
	rt_net_plain_md(&plain, md->ndims, md->dims);
	if (dnnl_memory_desc_get_size(&plain) != cnt * sizeof(float))
		return rt_err_set(err, -ERANGE, "layer %zu: %zu elements, not %zu", i,
				  dnnl_memory_desc_get_size(&plain) / sizeof(float), cnt);
	DNNL_CHECK(dnnl_memory_create(&user, &plain, n->eng, DNNL_MEMORY_ALLOCATE), "memory");
	rc = reorder_now(n, L, m, user, err);
	dnnl_memory_get_data_handle(user, &h);
	if (!rc)
		memcpy(buf, h, cnt * sizeof(float));
	dnnl_memory_destroy(user);
	return rc;
}

int rt_net_digest(struct rt_net *n, uint64_t *hash, double *sum, double *norm,
		  struct rt_err *err)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	double s = 0, q = 0;

	for (size_t i = 0; i < n->nl; i++) {
		struct lrt *L = &n->L[i];

		for (int t = 0; t < 2; t++) {
			dnnl_memory_t m = t ? L->b : L->w;
			const dnnl_memory_desc_t *plain = t ? &L->b_plain_md : &L->w_plain_md;
			dnnl_memory_t user = NULL;
			const float *v = NULL;
			size_t cnt;
			int rc;

			if (!m)
				continue;
			cnt = dnnl_memory_desc_get_size(plain) / sizeof(float);
			DNNL_CHECK(dnnl_memory_create(&user, plain, n->eng, DNNL_MEMORY_ALLOCATE),
				   "memory");
			rc = reorder_now(n, L, m, user, err);
			dnnl_memory_get_data_handle(user, (void **)&v);
			for (size_t k = 0; !rc && k < cnt; k++) {
				uint32_t bits;

				memcpy(&bits, &v[k], sizeof(bits));
				for (int b = 0; b < 4; b++)
					h = (h ^ ((bits >> (8 * b)) & 0xff)) * 0x100000001b3ULL;
				s += v[k];
				q += (double)v[k] * v[k];
			}
			dnnl_memory_destroy(user);
			if (rc)
				return rc;
		}
	}
	*hash = h;
	*sum = s;
	*norm = sqrt(q);
	return 0;
}
