/* net-params.c: the parameter arenas (weights, gradients, momentum at the same offsets),
 * their initialization, the weight copies per precision, and SGD over the whole model */
#include "config.h"
#include "cnn/net-internal.h"
#include "base/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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
static int param_mems(struct rt_net *n, struct rt_net_layer *L, const_rt_md_t md,
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

int rt_net_params_reserve(struct rt_net *n, struct rt_err *err)
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
int rt_net_params_sgd(struct rt_net *n, struct rt_err *err)
{
	const struct rt_net_layer *L = NULL;
	rt_md_t flat = NULL, one = NULL;
	dnnl_dims_t dims = { (dnnl_dim_t)(n->par.used / sizeof(float)) }, d1 = { 1 };
	dnnl_status_t st = dnnl_success;

	if (!n->par.used)
		return 0;
	n->par.scale[0] = (float)n->o.weight_decay;
	n->par.scale[1] = (float)-n->o.lr;
	st = rt_md_tag(&flat, 1, dims, dnnl_f32, dnnl_a);
	if (st == dnnl_success)
		st = rt_md_tag(&one, 1, d1, dnnl_f32, dnnl_a);
	for (int k = 0; k < 3 && st == dnnl_success; k++)
		st = dnnl_memory_create(&n->par.flat[k], flat, n->eng, n->par.base[k]);
	for (int k = 0; k < 2 && st == dnnl_success; k++)
		st = dnnl_memory_create(&n->par.scale_mem[k], one, n->eng, &n->par.scale[k]);
	for (int k = 0; k < 2 && st == dnnl_success; k++) {
		dnnl_primitive_attr_t attr = NULL;
		dnnl_post_ops_t po = NULL;
		dnnl_primitive_desc_t pd = NULL;

		st = dnnl_primitive_attr_create(&attr);
		if (st == dnnl_success)
			st = rt_dnnl_attr_set_scale(attr, DNNL_ARG_SRC_1, &n->par.scale[k]);
		if (st == dnnl_success && !k) {
			st = dnnl_post_ops_create(&po);
			if (st == dnnl_success)
				st = rt_dnnl_post_ops_append_sum(po, (float)n->o.momentum);
			if (st == dnnl_success)
				st = dnnl_primitive_attr_set_post_ops(attr, po);
			dnnl_post_ops_destroy(po);
		}
		if (st == dnnl_success)
			st = rt_dnnl_binary_pd(&pd, n->eng, dnnl_binary_add, flat, flat, flat,
					       attr);
		if (st == dnnl_success)
			st = dnnl_primitive_create(&n->par.sgd[k], pd);
		dnnl_primitive_desc_destroy(pd);
		dnnl_primitive_attr_destroy(attr);
	}
	rt_md_destroy(flat);
	rt_md_destroy(one);
	return st == dnnl_success ? 0 : rt_net_dnnl_fail(err, st, L, "SGD step");
}

int rt_net_params(struct rt_net *n, struct rt_net_layer *L, const_rt_md_t w_md,
		  const_rt_md_t w_plain, const_rt_md_t b_md,
		  long fan_in, bool bn, struct rt_err *err)
{
	size_t nw = dnnl_memory_desc_get_size(w_plain) / sizeof(float);
	uint64_t s = n->o.seed * 0x9E3779B97F4A7C15ULL + L->index * 0xD1B54A32D192ED03ULL + 1;
	float *vals = NULL;
	int rc;

	if (rt_md_copy(&L->w_plain_md, w_plain) != dnnl_success)
		return rt_err_set(err, -ENOMEM, "out of memory");
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
			vals[i] = (float)(bound * (2.0 * (double)(rt_net_rng_next(&s) >> 11) * 0x1p-53 - 1.0));
	}
	rc = rt_net_write_plain(n, L, L->w, w_plain, vals, err);
	free(vals);
	if (!rc && b_md) {
		if (rt_md_copy(&L->b_plain_md, b_md) != dnnl_success)
			return rt_err_set(err, -ENOMEM, "out of memory");
		rc = param_mems(n, L, b_md, &L->b, &L->db, &L->vb, err);
	}
	return rc;
}

int rt_net_weight_copies(struct rt_net *n, struct rt_net_layer *L, const_rt_md_t fwd_w,
			 const_rt_md_t bwd_w_md, struct rt_err *err)
{
	const_rt_md_t master = NULL;
	int rc;

	dnnl_memory_get_memory_desc(L->w, &master);
	if (!dnnl_memory_desc_equal(fwd_w, master)) {
		if ((rc = rt_net_mem(n, L, &L->wc, fwd_w, CAT_WEIGHTS, err)) ||
		    (rc = rt_net_reorder(n, L, master, fwd_w, &L->w_cast, err)) ||
		    (rc = rt_net_reorder_now(n, L, L->w, L->wc, err)))
			return rc;
	}
	if (!bwd_w_md || dnnl_memory_desc_equal(bwd_w_md, fwd_w))
		return 0;
	if ((rc = rt_net_mem(n, L, &L->w_bwd, bwd_w_md, CAT_WORK, err)))
		return rc;
	return rt_net_reorder(n, L, master, bwd_w_md, &L->w_reorder, err);
}

int rt_net_update(struct rt_net *n, struct rt_err *err)
{
	dnnl_memory_t w = n->par.flat[0], g = n->par.flat[1], v = n->par.flat[2];
	dnnl_exec_arg_t a[4] = { { DNNL_ARG_SRC_0, g }, { DNNL_ARG_SRC_1, w },
				 { DNNL_ARG_DST, v } };        /* v = g + wd*w + mu*v */
	int rc;

	if (!n->par.sgd[0])
		return 0;
	if ((rc = rt_net_exec(n, NULL, n->par.sgd[0],
			      3 + rt_dnnl_scale_arg(&a[3], DNNL_ARG_SRC_1, n->par.scale_mem[0]),
			      a, err)))
		return rc;
	a[0].memory = w;                                /* w = w - lr*v */
	a[1].memory = v;
	a[2].memory = w;
	return rt_net_exec(n, NULL, n->par.sgd[1],
			   3 + rt_dnnl_scale_arg(&a[3], DNNL_ARG_SRC_1, n->par.scale_mem[1]), a,
			   err);
}

void rt_net_params_free(struct rt_net *n)
{
	for (int k = 0; k < 3; k++) {
		dnnl_memory_destroy(n->par.flat[k]);
		if (n->par.base[k])
			munmap(n->par.base[k], n->par.cap);
	}
	for (int k = 0; k < 2; k++) {
		dnnl_primitive_destroy(n->par.sgd[k]);
		dnnl_memory_destroy(n->par.scale_mem[k]);
	}
}
