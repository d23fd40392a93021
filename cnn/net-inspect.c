/* net-inspect.c: reading a net from outside, for tests and the --digest of runs: parameters
 * and gradients by index, activations, the implementations oneDNN chose, a weight digest */
#include "config.h"
#include "cnn/net-internal.h"
#include "base/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

size_t rt_net_param_count(const struct rt_net *n, size_t layer, int which)
{
	const struct rt_net_layer *L = &n->L[layer];

	if (which == 0 && L->w)
		return dnnl_memory_desc_get_size(L->w_plain_md) / sizeof(float);
	if (which == 1 && L->b)
		return dnnl_memory_desc_get_size(L->b_plain_md) / sizeof(float);
	return 0;
}

/* Copy a parameter-shaped memory to or from a plain buffer through a reorder. */
static int plain_access(struct rt_net *n, struct rt_net_layer *L, dnnl_memory_t m,
			const_rt_md_t plain, size_t idx, float *val, bool set,
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
	rc = rt_net_reorder_now(n, L, m, user, err);
	if (!rc && !set)
		*val = h[idx];
	if (!rc && set) {
		h[idx] = *val;
		rc = rt_net_reorder_now(n, L, user, m, err);
	}
	dnnl_memory_destroy(user);
	return rc;
}

int rt_net_param(struct rt_net *n, size_t layer, int which, size_t idx, float *val, bool set,
		 struct rt_err *err)
{
	struct rt_net_layer *L = &n->L[layer];
	dnnl_memory_t m = which ? L->b : L->w;

	if (!m)
		return rt_err_set(err, -EINVAL, "layer %zu has no %s", layer, which ? "bias" :
				  "weights");
	return plain_access(n, L, m, which ? L->b_plain_md : L->w_plain_md, idx, val, set, err);
}

int rt_net_grad(struct rt_net *n, size_t layer, int which, size_t idx, float *val,
		struct rt_err *err)
{
	struct rt_net_layer *L = &n->L[layer];
	dnnl_memory_t m = which ? L->db : L->dw;

	if (!m)
		return rt_err_set(err, -EINVAL, "layer %zu has no %s", layer, which ? "bias" :
				  "weights");
	return plain_access(n, L, m, which ? L->b_plain_md : L->w_plain_md, idx, val, false,
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
	struct rt_net_layer *L = i < n->nl ? &n->L[i] : NULL;
	dnnl_memory_t m = L ? (which ? L->dout : L->out) : NULL;
	const_rt_md_t md = NULL;
	rt_md_t plain = NULL;
	dnnl_memory_t user = NULL;
	dnnl_status_t st;
	void *h = NULL;
	int rc;

	if (!m)
		return rt_err_set(err, -EINVAL, "layer %zu has no %s", i, which ? "gradient" :
				  "output");
	dnnl_memory_get_memory_desc(m, &md);
	rt_net_plain_md(&plain, rt_md_ndims(md), rt_md_dims(md));
	if (dnnl_memory_desc_get_size(plain) != cnt * sizeof(float)) {
		rc = rt_err_set(err, -ERANGE, "layer %zu: %zu elements, not %zu", i,
				dnnl_memory_desc_get_size(plain) / sizeof(float), cnt);
		rt_md_destroy(plain);
		return rc;
	}
	st = dnnl_memory_create(&user, plain, n->eng, DNNL_MEMORY_ALLOCATE);
	rt_md_destroy(plain);
	DNNL_CHECK(st, "memory");
	rc = rt_net_reorder_now(n, L, m, user, err);
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
		struct rt_net_layer *L = &n->L[i];

		for (int t = 0; t < 2; t++) {
			dnnl_memory_t m = t ? L->b : L->w;
			const_rt_md_t plain = t ? L->b_plain_md : L->w_plain_md;
			dnnl_memory_t user = NULL;
			const float *v = NULL;
			size_t cnt;
			int rc;

			if (!m)
				continue;
			cnt = dnnl_memory_desc_get_size(plain) / sizeof(float);
			DNNL_CHECK(dnnl_memory_create(&user, plain, n->eng, DNNL_MEMORY_ALLOCATE),
				   "memory");
			rc = rt_net_reorder_now(n, L, m, user, err);
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
