/* dnnl.c: the oneDNN the tools run with (version, CPU runtime), and oneDNN 2.x and 3.x behind
 * one set of calls: memory descriptors as handles, one creation call per primitive, post-ops,
 * the implementations of a primitive one after the other. The only file that tests
 * DNNL_VERSION_MAJOR (machine/dnnl.h declares the calls and says why). */
#include "config.h"
#include "machine/dnnl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *rt_dnnl_runtime(void)
{
	switch (dnnl_version()->cpu_runtime) {
	case DNNL_RUNTIME_SEQ:
		return "sequential";
	case DNNL_RUNTIME_OMP:
		return "OpenMP";
	case DNNL_RUNTIME_TBB:
		return "TBB";
	case DNNL_RUNTIME_THREADPOOL:
		return "threadpool";
	case DNNL_RUNTIME_SYCL:
		return "SYCL";
	default:
		return "none";
	}
}

void rt_dnnl_version(char *buf, size_t len)
{
	const dnnl_version_t *v = dnnl_version();

	snprintf(buf, len, "%d.%d.%d", v->major, v->minor, v->patch);
}

const char *rt_dnnl_hash(void)
{
	const dnnl_version_t *v = dnnl_version();

	return v->hash && *v->hash ? v->hash : "unknown";
}

void rt_dnnl_describe(char *buf, size_t len)
{
	const dnnl_version_t *v = dnnl_version();

	snprintf(buf, len, "%d.%d.%d (commit %s), CPU runtime %s", v->major, v->minor, v->patch,
		 rt_dnnl_hash(), rt_dnnl_runtime());
}

void rt_dnnl_print_version(FILE *fp)
{
	char d[160];

	rt_dnnl_describe(d, sizeof(d));
	fprintf(fp, "oneDNN %s\n", d);
}

/* The format tag whose layout md has (dnnl_format_tag_undef: none does): each tag of md's
 * rank tried, as oneDNN lays it out, until one equals md. */
static dnnl_format_tag_t tag_of(const_rt_md_t md)
{
	const int nd = rt_md_ndims(md);
	dnnl_format_tag_t found = dnnl_format_tag_undef;
	rt_md_t t = NULL;

	if (!rt_md_blocked(md))
		return found;
	for (int k = dnnl_format_tag_any + 1; k < dnnl_format_tag_last && !found; k++) {
		if (rt_md_tag(&t, nd, rt_md_dims(md), rt_md_dtype(md), (dnnl_format_tag_t)k) ==
		    dnnl_success && dnnl_memory_desc_equal(t, md))
			found = (dnnl_format_tag_t)k;
	}
	rt_md_destroy(t);
	return found;
}

#if DNNL_VERSION_MAJOR >= 3

/* ---- oneDNN 3.x: the handles are oneDNN's own ---- */
/* *md replaced by made (st: how making it went); made is read after the call that made it,
 * through its address (arguments are evaluated in no set order) */
static dnnl_status_t put(rt_md_t *md, dnnl_status_t st, const rt_md_t *made)
{
	rt_md_t m = *made;

	dnnl_memory_desc_destroy(*md);
	*md = st == dnnl_success ? m : NULL;
	if (st != dnnl_success)
		dnnl_memory_desc_destroy(m);
	return st;
}

dnnl_status_t rt_md_tag(rt_md_t *md, int ndims, const dnnl_dims_t dims, dnnl_data_type_t dt,
			dnnl_format_tag_t tag)
{
	rt_md_t m = NULL;

	return put(md, dnnl_memory_desc_create_with_tag(&m, ndims, dims, dt, tag), &m);
}

dnnl_status_t rt_md_copy(rt_md_t *md, const_rt_md_t from)
{
	rt_md_t m = NULL;

	return put(md, dnnl_memory_desc_clone(&m, from), &m);
}

static dnnl_status_t md_strides(rt_md_t *md, const_rt_md_t from, dnnl_data_type_t dt)
{
	rt_md_t m = NULL;

	return put(md, dnnl_memory_desc_create_with_strides(&m, rt_md_ndims(from),
							    rt_md_dims(from), dt,
							    rt_md_strides(from)), &m);
}

dnnl_status_t rt_md_images(rt_md_t *md, const_rt_md_t from, dnnl_dim_t images)
{
	dnnl_dims_t d, off = { 0 };
	rt_md_t m = NULL;

	memcpy(d, rt_md_dims(from), sizeof(d));
	d[0] = images;
	return put(md, dnnl_memory_desc_create_submemory(&m, from, d, off), &m);
}

dnnl_status_t rt_md_reshape(rt_md_t *md, const_rt_md_t from, int ndims, const dnnl_dims_t dims)
{
	rt_md_t m = NULL;

	return put(md, dnnl_memory_desc_reshape(&m, from, ndims, dims), &m);
}

dnnl_status_t rt_md_permute(rt_md_t *md, const_rt_md_t from, const int *perm)
{
	rt_md_t m = NULL;

	return put(md, dnnl_memory_desc_permute_axes(&m, from, perm), &m);
}

void rt_md_destroy(rt_md_t md)
{
	dnnl_memory_desc_destroy(md);
}

int rt_md_ndims(const_rt_md_t md)
{
	int nd = 0;

	if (md)
		dnnl_memory_desc_query(md, dnnl_query_ndims_s32, &nd);
	return nd;
}

static const dnnl_dim_t *dims_query(const_rt_md_t md, dnnl_query_t what)
{
	static const dnnl_dims_t none;
	const dnnl_dims_t *d = NULL;

	if (!md || dnnl_memory_desc_query(md, what, &d) != dnnl_success || !d)
		return none;
	return *d;
}

const dnnl_dim_t *rt_md_dims(const_rt_md_t md)
{
	return dims_query(md, dnnl_query_dims);
}

const dnnl_dim_t *rt_md_padded_dims(const_rt_md_t md)
{
	return dims_query(md, dnnl_query_padded_dims);
}

dnnl_data_type_t rt_md_dtype(const_rt_md_t md)
{
	dnnl_data_type_t dt = dnnl_data_type_undef;

	if (md)
		dnnl_memory_desc_query(md, dnnl_query_data_type, &dt);
	return dt;
}

static dnnl_format_kind_t format_kind(const_rt_md_t md)
{
	dnnl_format_kind_t k = dnnl_format_kind_undef;

	if (md)
		dnnl_memory_desc_query(md, dnnl_query_format_kind, &k);
	return k;
}

bool rt_md_blocked(const_rt_md_t md)
{
	return format_kind(md) == dnnl_blocked;
}

const dnnl_dim_t *rt_md_strides(const_rt_md_t md)
{
	return dims_query(md, dnnl_query_strides);
}

int rt_md_inner_nblks(const_rt_md_t md)
{
	int nb = 0;

	if (rt_md_blocked(md))
		dnnl_memory_desc_query(md, dnnl_query_inner_nblks_s32, &nb);
	return nb;
}

const dnnl_dim_t *rt_md_inner_idxs(const_rt_md_t md)
{
	return dims_query(md, dnnl_query_inner_idxs);
}

dnnl_dim_t rt_md_offset0(const_rt_md_t md)
{
	dnnl_dim_t off = 0;

	if (md)
		dnnl_memory_desc_query(md, dnnl_query_submemory_offset_s64, &off);
	return off;
}

dnnl_status_t rt_md_retype(rt_md_t *md, const_rt_md_t from, dnnl_data_type_t dt)
{
	dnnl_format_tag_t tag;

	if (format_kind(from) == dnnl_format_kind_any)
		return rt_md_tag(md, rt_md_ndims(from), rt_md_dims(from), dt, dnnl_format_tag_any);
	if ((tag = tag_of(from)) != dnnl_format_tag_undef)
		return rt_md_tag(md, rt_md_ndims(from), rt_md_dims(from), dt, tag);
	if (rt_md_blocked(from) && !rt_md_inner_nblks(from) && !rt_md_offset0(from))
		return md_strides(md, from, dt);
	rt_md_destroy(*md);
	*md = NULL;
	return dnnl_unimplemented;
}

dnnl_status_t rt_dnnl_conv_fwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				  dnnl_prop_kind_t prop, dnnl_alg_kind_t alg, const_rt_md_t src,
				  const_rt_md_t w, const_rt_md_t b, const_rt_md_t dst,
				  const dnnl_dims_t strides, const dnnl_dims_t dil,
				  const dnnl_dims_t pl, const dnnl_dims_t pr,
				  const_dnnl_primitive_attr_t attr)
{
	return dnnl_convolution_forward_primitive_desc_create(pd, eng, prop, alg, src, w, b, dst,
							      strides, dil, pl, pr, attr);
}

dnnl_status_t rt_dnnl_conv_bwd_data_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				       dnnl_alg_kind_t alg, const_rt_md_t dsrc, const_rt_md_t w,
				       const_rt_md_t ddst, const dnnl_dims_t strides,
				       const dnnl_dims_t dil, const dnnl_dims_t pl,
				       const dnnl_dims_t pr, const_dnnl_primitive_desc_t hint,
				       const_dnnl_primitive_attr_t attr)
{
	return dnnl_convolution_backward_data_primitive_desc_create(pd, eng, alg, dsrc, w, ddst,
								    strides, dil, pl, pr, hint,
								    attr);
}

dnnl_status_t rt_dnnl_conv_bwd_weights_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
					  dnnl_alg_kind_t alg, const_rt_md_t src,
					  const_rt_md_t dw, const_rt_md_t db, const_rt_md_t ddst,
					  const dnnl_dims_t strides, const dnnl_dims_t dil,
					  const dnnl_dims_t pl, const dnnl_dims_t pr,
					  const_dnnl_primitive_desc_t hint,
					  const_dnnl_primitive_attr_t attr)
{
	return dnnl_convolution_backward_weights_primitive_desc_create(pd, eng, alg, src, dw, db,
								       ddst, strides, dil, pl,
								       pr, hint, attr);
}

dnnl_status_t rt_dnnl_ip_fwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				dnnl_prop_kind_t prop, const_rt_md_t src, const_rt_md_t w,
				const_rt_md_t b, const_rt_md_t dst,
				const_dnnl_primitive_attr_t attr)
{
	return dnnl_inner_product_forward_primitive_desc_create(pd, eng, prop, src, w, b, dst,
								attr);
}

dnnl_status_t rt_dnnl_ip_bwd_data_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				     const_rt_md_t dsrc, const_rt_md_t w, const_rt_md_t ddst,
				     const_dnnl_primitive_desc_t hint,
				     const_dnnl_primitive_attr_t attr)
{
	return dnnl_inner_product_backward_data_primitive_desc_create(pd, eng, dsrc, w, ddst,
								      hint, attr);
}

dnnl_status_t rt_dnnl_ip_bwd_weights_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
					const_rt_md_t src, const_rt_md_t dw, const_rt_md_t db,
					const_rt_md_t ddst, const_dnnl_primitive_desc_t hint,
					const_dnnl_primitive_attr_t attr)
{
	return dnnl_inner_product_backward_weights_primitive_desc_create(pd, eng, src, dw, db,
									 ddst, hint, attr);
}

dnnl_status_t rt_dnnl_eltwise_fwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				     dnnl_prop_kind_t prop, dnnl_alg_kind_t alg,
				     const_rt_md_t src, const_rt_md_t dst, float alpha,
				     float beta, const_dnnl_primitive_attr_t attr)
{
	return dnnl_eltwise_forward_primitive_desc_create(pd, eng, prop, alg, src, dst, alpha,
							  beta, attr);
}

dnnl_status_t rt_dnnl_eltwise_bwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				     dnnl_alg_kind_t alg, const_rt_md_t dsrc, const_rt_md_t ddst,
				     const_rt_md_t data, float alpha, float beta,
				     const_dnnl_primitive_desc_t hint,
				     const_dnnl_primitive_attr_t attr)
{
	return dnnl_eltwise_backward_primitive_desc_create(pd, eng, alg, dsrc, ddst, data, alpha,
							   beta, hint, attr);
}

dnnl_status_t rt_dnnl_pool_fwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				  dnnl_prop_kind_t prop, dnnl_alg_kind_t alg, const_rt_md_t src,
				  const_rt_md_t dst, const dnnl_dims_t strides,
				  const dnnl_dims_t kernel, const dnnl_dims_t dil,
				  const dnnl_dims_t pl, const dnnl_dims_t pr,
				  const_dnnl_primitive_attr_t attr)
{
	return dnnl_pooling_forward_primitive_desc_create(pd, eng, prop, alg, src, dst, strides,
							  kernel, dil, pl, pr, attr);
}

dnnl_status_t rt_dnnl_pool_bwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				  dnnl_alg_kind_t alg, const_rt_md_t dsrc, const_rt_md_t ddst,
				  const dnnl_dims_t strides, const dnnl_dims_t kernel,
				  const dnnl_dims_t dil, const dnnl_dims_t pl,
				  const dnnl_dims_t pr, const_dnnl_primitive_desc_t hint,
				  const_dnnl_primitive_attr_t attr)
{
	return dnnl_pooling_backward_primitive_desc_create(pd, eng, alg, dsrc, ddst, strides,
							   kernel, dil, pl, pr, hint, attr);
}

dnnl_status_t rt_dnnl_bnorm_fwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				   dnnl_prop_kind_t prop, const_rt_md_t src, const_rt_md_t dst,
				   float eps, const_dnnl_primitive_attr_t attr)
{
	return dnnl_batch_normalization_forward_primitive_desc_create(
		pd, eng, prop, src, dst, eps, dnnl_use_scale | dnnl_use_shift, attr);
}

dnnl_status_t rt_dnnl_bnorm_bwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				   const_rt_md_t dsrc, const_rt_md_t ddst, const_rt_md_t src,
				   float eps, const_dnnl_primitive_desc_t hint,
				   const_dnnl_primitive_attr_t attr)
{
	return dnnl_batch_normalization_backward_primitive_desc_create(
		pd, eng, dnnl_backward, dsrc, ddst, src, eps, dnnl_use_scale | dnnl_use_shift,
		hint, attr);
}

dnnl_status_t rt_dnnl_softmax_fwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				     dnnl_prop_kind_t prop, const_rt_md_t src, const_rt_md_t dst,
				     int axis, const_dnnl_primitive_attr_t attr)
{
	return dnnl_softmax_forward_primitive_desc_create(pd, eng, prop, dnnl_softmax_accurate,
							  src, dst, axis, attr);
}

dnnl_status_t rt_dnnl_binary_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				dnnl_alg_kind_t alg, const_rt_md_t src0, const_rt_md_t src1,
				const_rt_md_t dst, const_dnnl_primitive_attr_t attr)
{
	return dnnl_binary_primitive_desc_create(pd, eng, alg, src0, src1, dst, attr);
}

dnnl_status_t rt_dnnl_matmul_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				const_rt_md_t src, const_rt_md_t w, const_rt_md_t b,
				const_rt_md_t dst, const_dnnl_primitive_attr_t attr)
{
	return dnnl_matmul_primitive_desc_create(pd, eng, src, w, b, dst, attr);
}

dnnl_status_t rt_dnnl_post_ops_append_eltwise(dnnl_post_ops_t po, dnnl_alg_kind_t alg,
					      float alpha, float beta)
{
	return dnnl_post_ops_append_eltwise(po, alg, alpha, beta);
}

dnnl_status_t rt_dnnl_post_ops_append_sum(dnnl_post_ops_t po, float scale)
{
	return dnnl_post_ops_append_sum(po, scale, 0, dnnl_data_type_undef);
}

dnnl_status_t rt_dnnl_attr_set_scale(dnnl_primitive_attr_t attr, int arg, const float *value)
{
	return dnnl_primitive_attr_set_scales_mask(attr, arg, 0);
}

int rt_dnnl_scale_arg(dnnl_exec_arg_t *a, int arg, dnnl_memory_t m)
{
	a->arg = DNNL_ARG_ATTR_SCALES | arg;
	a->memory = m;
	return 1;
}

dnnl_status_t rt_dnnl_impls_begin(struct rt_dnnl_impls *w, dnnl_primitive_desc_t pd,
				  const_dnnl_primitive_desc_t hint)
{
	w->pd = pd;             /* 3.x: the pd is the walk (the hint is in it) */
	return dnnl_success;
}

dnnl_primitive_desc_t rt_dnnl_impls_take(struct rt_dnnl_impls *w)
{
	dnnl_primitive_desc_t copy = NULL;

	if (dnnl_primitive_desc_clone(&copy, w->pd) != dnnl_success)
		return NULL;
	return copy;
}

bool rt_dnnl_impls_next(struct rt_dnnl_impls *w)
{
	return dnnl_primitive_desc_next_impl(w->pd) == dnnl_success;
}

void rt_dnnl_impls_end(struct rt_dnnl_impls *w)
{
	dnnl_primitive_desc_destroy(w->pd);
	w->pd = NULL;
}

#else

/* ---- oneDNN 2.x: a handle points at a heap copy of the struct ---- */
static dnnl_status_t put(rt_md_t *md, dnnl_status_t st, const dnnl_memory_desc_t *made)
{
	rt_md_t m = NULL;

	if (st == dnnl_success && !(m = malloc(sizeof(*m))))
		st = dnnl_out_of_memory;
	if (st == dnnl_success)
		*m = *made;
	free(*md);
	*md = m;
	return st;
}

dnnl_status_t rt_md_tag(rt_md_t *md, int ndims, const dnnl_dims_t dims, dnnl_data_type_t dt,
			dnnl_format_tag_t tag)
{
	dnnl_memory_desc_t m;

	return put(md, dnnl_memory_desc_init_by_tag(&m, ndims, dims, dt, tag), &m);
}

dnnl_status_t rt_md_copy(rt_md_t *md, const_rt_md_t from)
{
	return put(md, dnnl_success, from);
}

dnnl_status_t rt_md_images(rt_md_t *md, const_rt_md_t from, dnnl_dim_t images)
{
	dnnl_memory_desc_t m;
	dnnl_dims_t d, off = { 0 };

	memcpy(d, from->dims, sizeof(d));
	d[0] = images;
	return put(md, dnnl_memory_desc_init_submemory(&m, from, d, off), &m);
}

dnnl_status_t rt_md_reshape(rt_md_t *md, const_rt_md_t from, int ndims, const dnnl_dims_t dims)
{
	dnnl_memory_desc_t m;

	return put(md, dnnl_memory_desc_reshape(&m, from, ndims, dims), &m);
}

dnnl_status_t rt_md_permute(rt_md_t *md, const_rt_md_t from, const int *perm)
{
	dnnl_memory_desc_t m;

	return put(md, dnnl_memory_desc_permute_axes(&m, from, perm), &m);
}

void rt_md_destroy(rt_md_t md)
{
	free(md);
}

static const dnnl_dims_t none;

int rt_md_ndims(const_rt_md_t md)
{
	return md ? md->ndims : 0;
}

const dnnl_dim_t *rt_md_dims(const_rt_md_t md)
{
	return md ? md->dims : none;
}

const dnnl_dim_t *rt_md_padded_dims(const_rt_md_t md)
{
	return md ? md->padded_dims : none;
}

dnnl_data_type_t rt_md_dtype(const_rt_md_t md)
{
	return md ? md->data_type : dnnl_data_type_undef;
}

bool rt_md_blocked(const_rt_md_t md)
{
	return md && md->format_kind == dnnl_blocked;
}

const dnnl_dim_t *rt_md_strides(const_rt_md_t md)
{
	return rt_md_blocked(md) ? md->format_desc.blocking.strides : none;
}

int rt_md_inner_nblks(const_rt_md_t md)
{
	return rt_md_blocked(md) ? md->format_desc.blocking.inner_nblks : 0;
}

const dnnl_dim_t *rt_md_inner_idxs(const_rt_md_t md)
{
	return rt_md_blocked(md) ? md->format_desc.blocking.inner_idxs : none;
}

dnnl_dim_t rt_md_offset0(const_rt_md_t md)
{
	return md ? md->offset0 : 0;
}

dnnl_status_t rt_md_retype(rt_md_t *md, const_rt_md_t from, dnnl_data_type_t dt)
{
	dnnl_memory_desc_t m = *from;

	m.data_type = dt;
	return put(md, dnnl_success, &m);
}

/* a pd from an op descriptor the caller's init filled (st: how that went) */
static dnnl_status_t pd_of(dnnl_primitive_desc_t *pd, dnnl_status_t st, const void *desc,
			   const_dnnl_primitive_attr_t attr, dnnl_engine_t eng,
			   const_dnnl_primitive_desc_t hint)
{
	*pd = NULL;
	return st == dnnl_success ? dnnl_primitive_desc_create(pd, desc, attr, eng, hint) : st;
}

dnnl_status_t rt_dnnl_conv_fwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				  dnnl_prop_kind_t prop, dnnl_alg_kind_t alg, const_rt_md_t src,
				  const_rt_md_t w, const_rt_md_t b, const_rt_md_t dst,
				  const dnnl_dims_t strides, const dnnl_dims_t dil,
				  const dnnl_dims_t pl, const dnnl_dims_t pr,
				  const_dnnl_primitive_attr_t attr)
{
	dnnl_convolution_desc_t d;
	dnnl_status_t st = dnnl_dilated_convolution_forward_desc_init(&d, prop, alg, src, w, b,
								      dst, strides, dil, pl, pr);

	return pd_of(pd, st, &d, attr, eng, NULL);
}

dnnl_status_t rt_dnnl_conv_bwd_data_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				       dnnl_alg_kind_t alg, const_rt_md_t dsrc, const_rt_md_t w,
				       const_rt_md_t ddst, const dnnl_dims_t strides,
				       const dnnl_dims_t dil, const dnnl_dims_t pl,
				       const dnnl_dims_t pr, const_dnnl_primitive_desc_t hint,
				       const_dnnl_primitive_attr_t attr)
{
	dnnl_convolution_desc_t d;
	dnnl_status_t st = dnnl_dilated_convolution_backward_data_desc_init(&d, alg, dsrc, w,
									    ddst, strides, dil,
									    pl, pr);

	return pd_of(pd, st, &d, attr, eng, hint);
}

dnnl_status_t rt_dnnl_conv_bwd_weights_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
					  dnnl_alg_kind_t alg, const_rt_md_t src,
					  const_rt_md_t dw, const_rt_md_t db, const_rt_md_t ddst,
					  const dnnl_dims_t strides, const dnnl_dims_t dil,
					  const dnnl_dims_t pl, const dnnl_dims_t pr,
					  const_dnnl_primitive_desc_t hint,
					  const_dnnl_primitive_attr_t attr)
{
	dnnl_convolution_desc_t d;
	dnnl_status_t st = dnnl_dilated_convolution_backward_weights_desc_init(
		&d, alg, src, dw, db, ddst, strides, dil, pl, pr);

	return pd_of(pd, st, &d, attr, eng, hint);
}

dnnl_status_t rt_dnnl_ip_fwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				dnnl_prop_kind_t prop, const_rt_md_t src, const_rt_md_t w,
				const_rt_md_t b, const_rt_md_t dst,
				const_dnnl_primitive_attr_t attr)
{
	dnnl_inner_product_desc_t d;
	dnnl_status_t st = dnnl_inner_product_forward_desc_init(&d, prop, src, w, b, dst);

	return pd_of(pd, st, &d, attr, eng, NULL);
}

dnnl_status_t rt_dnnl_ip_bwd_data_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				     const_rt_md_t dsrc, const_rt_md_t w, const_rt_md_t ddst,
				     const_dnnl_primitive_desc_t hint,
				     const_dnnl_primitive_attr_t attr)
{
	dnnl_inner_product_desc_t d;
	dnnl_status_t st = dnnl_inner_product_backward_data_desc_init(&d, dsrc, w, ddst);

	return pd_of(pd, st, &d, attr, eng, hint);
}

dnnl_status_t rt_dnnl_ip_bwd_weights_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
					const_rt_md_t src, const_rt_md_t dw, const_rt_md_t db,
					const_rt_md_t ddst, const_dnnl_primitive_desc_t hint,
					const_dnnl_primitive_attr_t attr)
{
	dnnl_inner_product_desc_t d;
	dnnl_status_t st = dnnl_inner_product_backward_weights_desc_init(&d, src, dw, db, ddst);

	return pd_of(pd, st, &d, attr, eng, hint);
}

dnnl_status_t rt_dnnl_eltwise_fwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				     dnnl_prop_kind_t prop, dnnl_alg_kind_t alg,
				     const_rt_md_t src, const_rt_md_t dst, float alpha,
				     float beta, const_dnnl_primitive_attr_t attr)
{
	dnnl_eltwise_desc_t d;
	dnnl_status_t st = dnnl_eltwise_forward_desc_init(&d, prop, alg, src, alpha, beta);

	return pd_of(pd, st, &d, attr, eng, NULL);
}

dnnl_status_t rt_dnnl_eltwise_bwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				     dnnl_alg_kind_t alg, const_rt_md_t dsrc, const_rt_md_t ddst,
				     const_rt_md_t data, float alpha, float beta,
				     const_dnnl_primitive_desc_t hint,
				     const_dnnl_primitive_attr_t attr)
{
	dnnl_eltwise_desc_t d;
	dnnl_status_t st = dnnl_eltwise_backward_desc_init(&d, alg, ddst, data, alpha, beta);

	return pd_of(pd, st, &d, attr, eng, hint);
}

dnnl_status_t rt_dnnl_pool_fwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				  dnnl_prop_kind_t prop, dnnl_alg_kind_t alg, const_rt_md_t src,
				  const_rt_md_t dst, const dnnl_dims_t strides,
				  const dnnl_dims_t kernel, const dnnl_dims_t dil,
				  const dnnl_dims_t pl, const dnnl_dims_t pr,
				  const_dnnl_primitive_attr_t attr)
{
	dnnl_pooling_v2_desc_t d;
	dnnl_status_t st = dnnl_pooling_v2_forward_desc_init(&d, prop, alg, src, dst, strides,
							     kernel, dil, pl, pr);

	return pd_of(pd, st, &d, attr, eng, NULL);
}

dnnl_status_t rt_dnnl_pool_bwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				  dnnl_alg_kind_t alg, const_rt_md_t dsrc, const_rt_md_t ddst,
				  const dnnl_dims_t strides, const dnnl_dims_t kernel,
				  const dnnl_dims_t dil, const dnnl_dims_t pl,
				  const dnnl_dims_t pr, const_dnnl_primitive_desc_t hint,
				  const_dnnl_primitive_attr_t attr)
{
	dnnl_pooling_v2_desc_t d;
	dnnl_status_t st = dnnl_pooling_v2_backward_desc_init(&d, alg, dsrc, ddst, strides, kernel,
							      dil, pl, pr);

	return pd_of(pd, st, &d, attr, eng, hint);
}

dnnl_status_t rt_dnnl_bnorm_fwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				   dnnl_prop_kind_t prop, const_rt_md_t src, const_rt_md_t dst,
				   float eps, const_dnnl_primitive_attr_t attr)
{
	dnnl_batch_normalization_desc_t d;
	dnnl_status_t st = dnnl_batch_normalization_forward_desc_init(
		&d, prop, src, eps, dnnl_use_scale | dnnl_use_shift);

	return pd_of(pd, st, &d, attr, eng, NULL);
}

dnnl_status_t rt_dnnl_bnorm_bwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				   const_rt_md_t dsrc, const_rt_md_t ddst, const_rt_md_t src,
				   float eps, const_dnnl_primitive_desc_t hint,
				   const_dnnl_primitive_attr_t attr)
{
	dnnl_batch_normalization_desc_t d;
	dnnl_status_t st = dnnl_batch_normalization_backward_desc_init(
		&d, dnnl_backward, ddst, src, eps, dnnl_use_scale | dnnl_use_shift);

	return pd_of(pd, st, &d, attr, eng, hint);
}

dnnl_status_t rt_dnnl_softmax_fwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				     dnnl_prop_kind_t prop, const_rt_md_t src, const_rt_md_t dst,
				     int axis, const_dnnl_primitive_attr_t attr)
{
	dnnl_softmax_desc_t d;
	dnnl_status_t st = dnnl_softmax_forward_desc_init(&d, prop, src, axis);

	return pd_of(pd, st, &d, attr, eng, NULL);
}

dnnl_status_t rt_dnnl_binary_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				dnnl_alg_kind_t alg, const_rt_md_t src0, const_rt_md_t src1,
				const_rt_md_t dst, const_dnnl_primitive_attr_t attr)
{
	dnnl_binary_desc_t d;
	dnnl_status_t st = dnnl_binary_desc_init(&d, alg, src0, src1, dst);

	return pd_of(pd, st, &d, attr, eng, NULL);
}

dnnl_status_t rt_dnnl_matmul_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				const_rt_md_t src, const_rt_md_t w, const_rt_md_t b,
				const_rt_md_t dst, const_dnnl_primitive_attr_t attr)
{
	dnnl_matmul_desc_t d;
	dnnl_status_t st = dnnl_matmul_desc_init(&d, src, w, b, dst);

	return pd_of(pd, st, &d, attr, eng, NULL);
}

dnnl_status_t rt_dnnl_post_ops_append_eltwise(dnnl_post_ops_t po, dnnl_alg_kind_t alg,
					      float alpha, float beta)
{
	return dnnl_post_ops_append_eltwise(po, 1.0f, alg, alpha, beta);
}

dnnl_status_t rt_dnnl_post_ops_append_sum(dnnl_post_ops_t po, float scale)
{
	return dnnl_post_ops_append_sum(po, scale);
}

dnnl_status_t rt_dnnl_attr_set_scale(dnnl_primitive_attr_t attr, int arg, const float *value)
{
	return dnnl_primitive_attr_set_scales(attr, arg, 1, 0, value);
}

int rt_dnnl_scale_arg(dnnl_exec_arg_t *a, int arg, dnnl_memory_t m)
{
	return 0;
}

/* 2.x walks an iterator over the pd's op descriptor, with its attributes and engine */
dnnl_status_t rt_dnnl_impls_begin(struct rt_dnnl_impls *w, dnnl_primitive_desc_t pd,
				  const_dnnl_primitive_desc_t hint)
{
	const_dnnl_op_desc_t od = NULL;
	const_dnnl_primitive_attr_t attr = NULL;
	dnnl_engine_t eng = NULL;
	dnnl_status_t st;

	w->it = NULL;
	w->pd = pd;
	st = dnnl_primitive_desc_query(pd, dnnl_query_op_d, 0, &od);
	if (st == dnnl_success)
		st = dnnl_primitive_desc_get_attr(pd, &attr);
	if (st == dnnl_success)
		st = dnnl_primitive_desc_query(pd, dnnl_query_engine, 0, &eng);
	if (st == dnnl_success)
		st = dnnl_primitive_desc_iterator_create(&w->it, od, attr, eng, hint);
	if (st != dnnl_success) {
		dnnl_primitive_desc_destroy(pd);
		w->pd = NULL;
	}
	return st;
}

dnnl_primitive_desc_t rt_dnnl_impls_take(struct rt_dnnl_impls *w)
{
	return dnnl_primitive_desc_iterator_fetch(w->it);
}

bool rt_dnnl_impls_next(struct rt_dnnl_impls *w)
{
	return dnnl_primitive_desc_iterator_next(w->it) == dnnl_success;
}

void rt_dnnl_impls_end(struct rt_dnnl_impls *w)
{
	dnnl_primitive_desc_iterator_destroy(w->it);
	dnnl_primitive_desc_destroy(w->pd);
	w->it = NULL;
	w->pd = NULL;
}

#endif

dnnl_status_t rt_md_more_images(rt_md_t *md, const_rt_md_t from, dnnl_dim_t images)
{
	const dnnl_format_tag_t tag = tag_of(from);
	bool n_blocked = false;
	dnnl_dims_t d;

	for (int i = 0; i < rt_md_inner_nblks(from); i++)
		n_blocked |= rt_md_inner_idxs(from)[i] == 0;
	if (tag == dnnl_format_tag_undef || n_blocked) {
		rt_md_destroy(*md);
		*md = NULL;
		return dnnl_unimplemented;
	}
	memcpy(d, rt_md_dims(from), sizeof(d));
	d[0] = images;
	return rt_md_tag(md, rt_md_ndims(from), d, rt_md_dtype(from), tag);
}
