/* dnnl.h: the oneDNN the tools run with, and the one place that knows oneDNN 2.x from 3.x.
 *
 * oneDNN 3.0 removed the operation descriptors (dnnl_*_desc_init, then
 * dnnl_primitive_desc_create), made memory descriptors opaque handles that are created,
 * queried and destroyed, and respelled post-ops, batch-normalization flags, pooling and
 * softmax. Everything else in rooftraj writes one source against the calls below, which take
 * the 3.x shapes: a memory descriptor is a handle (rt_md_t, owned; const_rt_md_t, borrowed),
 * and each primitive has one creation call with its attributes (and the forward hint of a
 * backward). On 2.x a handle points at a heap copy of 2.x's struct. No other file tests
 * DNNL_VERSION_MAJOR. */
#ifndef RT_MACHINE_DNNL_H
#define RT_MACHINE_DNNL_H

#include <oneapi/dnnl/dnnl.h>
#include <oneapi/dnnl/dnnl_debug.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#if DNNL_VERSION_MAJOR >= 3
typedef dnnl_memory_desc_t rt_md_t;
typedef const_dnnl_memory_desc_t const_rt_md_t;
#else
typedef dnnl_memory_desc_t *rt_md_t;
typedef const dnnl_memory_desc_t *const_rt_md_t;
#endif

/* ---- the library ---- */
/* "3.2.0 (commit 40112196...), CPU runtime OpenMP": the version, hash and CPU runtime that
 * dnnl_version() reports at run time, into buf. */
void rt_dnnl_describe(char *buf, size_t len);
/* "3.2.0": the version alone; the CPU runtime's name ("OpenMP", "TBB", "threadpool",
 * "SYCL", "sequential") */
void rt_dnnl_version(char *buf, size_t len);
const char *rt_dnnl_runtime(void);
/* --version's line: "oneDNN " and rt_dnnl_describe()'s words */
void rt_dnnl_print_version(FILE *fp);
/* the commit dnnl_version() reports ("unknown" where it gives none) */
const char *rt_dnnl_hash(void);

/* ---- memory descriptors ----
 * Each call that makes one (rt_md_tag, _copy, _retype, _images, _reshape, _permute,
 * _more_images) replaces *md: it destroys the one *md held (NULL: none), so a variable
 * starts NULL and ends with one rt_md_destroy. On failure *md is NULL. `from` may be *md
 * itself. */
dnnl_status_t rt_md_tag(rt_md_t *md, int ndims, const dnnl_dims_t dims, dnnl_data_type_t dt,
			dnnl_format_tag_t tag);
dnnl_status_t rt_md_copy(rt_md_t *md, const_rt_md_t from);
/* from's layout in another data type (a layout oneDNN names by a format tag, or plain
 * strides, or format any); dnnl_unimplemented for any other */
dnnl_status_t rt_md_retype(rt_md_t *md, const_rt_md_t from, dnnl_data_type_t dt);
/* the first `images` of from's dims[0], at offset 0 (from's strides kept) */
dnnl_status_t rt_md_images(rt_md_t *md, const_rt_md_t from, dnnl_dim_t images);
/* from's dims split or joined (dnnl_memory_desc_reshape), and its axes permuted: axis i of
 * from is axis perm[i] of *md */
dnnl_status_t rt_md_reshape(rt_md_t *md, const_rt_md_t from, int ndims, const dnnl_dims_t dims);
dnnl_status_t rt_md_permute(rt_md_t *md, const_rt_md_t from, const int *perm);
/* from's layout with dims[0] = images, where a format tag names from's layout and
 * dims[0] is not blocked (more images than from has, too) */
dnnl_status_t rt_md_more_images(rt_md_t *md, const_rt_md_t from, dnnl_dim_t images);
void rt_md_destroy(rt_md_t md);         /* NULL-safe */

/* What a descriptor says (NULL: 0 dims). The arrays are borrowed from md. */
int rt_md_ndims(const_rt_md_t md);
const dnnl_dim_t *rt_md_dims(const_rt_md_t md);
const dnnl_dim_t *rt_md_padded_dims(const_rt_md_t md);
dnnl_data_type_t rt_md_dtype(const_rt_md_t md);
/* a blocked layout (not format any, not opaque), its strides and inner blocks over the
 * dims (NULL / 0 for another) */
bool rt_md_blocked(const_rt_md_t md);
const dnnl_dim_t *rt_md_strides(const_rt_md_t md);
int rt_md_inner_nblks(const_rt_md_t md);
const dnnl_dim_t *rt_md_inner_idxs(const_rt_md_t md);
dnnl_dim_t rt_md_offset0(const_rt_md_t md);

/* ---- primitive descriptors: one creation call each, 3.x's arguments ----
 * A backward takes the forward's pd as its hint (NULL where none was made). */
dnnl_status_t rt_dnnl_conv_fwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				  dnnl_prop_kind_t prop, dnnl_alg_kind_t alg, const_rt_md_t src,
				  const_rt_md_t w, const_rt_md_t b, const_rt_md_t dst,
				  const dnnl_dims_t strides, const dnnl_dims_t dil,
				  const dnnl_dims_t pl, const dnnl_dims_t pr,
				  const_dnnl_primitive_attr_t attr);
dnnl_status_t rt_dnnl_conv_bwd_data_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				       dnnl_alg_kind_t alg, const_rt_md_t dsrc, const_rt_md_t w,
				       const_rt_md_t ddst, const dnnl_dims_t strides,
				       const dnnl_dims_t dil, const dnnl_dims_t pl,
				       const dnnl_dims_t pr, const_dnnl_primitive_desc_t hint,
				       const_dnnl_primitive_attr_t attr);
dnnl_status_t rt_dnnl_conv_bwd_weights_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
					  dnnl_alg_kind_t alg, const_rt_md_t src,
					  const_rt_md_t dw, const_rt_md_t db, const_rt_md_t ddst,
					  const dnnl_dims_t strides, const dnnl_dims_t dil,
					  const dnnl_dims_t pl, const dnnl_dims_t pr,
					  const_dnnl_primitive_desc_t hint,
					  const_dnnl_primitive_attr_t attr);
dnnl_status_t rt_dnnl_ip_fwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				dnnl_prop_kind_t prop, const_rt_md_t src, const_rt_md_t w,
				const_rt_md_t b, const_rt_md_t dst,
				const_dnnl_primitive_attr_t attr);
dnnl_status_t rt_dnnl_ip_bwd_data_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				     const_rt_md_t dsrc, const_rt_md_t w, const_rt_md_t ddst,
				     const_dnnl_primitive_desc_t hint,
				     const_dnnl_primitive_attr_t attr);
dnnl_status_t rt_dnnl_ip_bwd_weights_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
					const_rt_md_t src, const_rt_md_t dw, const_rt_md_t db,
					const_rt_md_t ddst, const_dnnl_primitive_desc_t hint,
					const_dnnl_primitive_attr_t attr);
/* eltwise: 2.x has one data descriptor for src and dst (src is taken); backward's data is
 * the forward's source or, for the *_use_dst_for_bwd algorithms, its destination */
dnnl_status_t rt_dnnl_eltwise_fwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				     dnnl_prop_kind_t prop, dnnl_alg_kind_t alg,
				     const_rt_md_t src, const_rt_md_t dst, float alpha,
				     float beta, const_dnnl_primitive_attr_t attr);
dnnl_status_t rt_dnnl_eltwise_bwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				     dnnl_alg_kind_t alg, const_rt_md_t dsrc, const_rt_md_t ddst,
				     const_rt_md_t data, float alpha, float beta,
				     const_dnnl_primitive_desc_t hint,
				     const_dnnl_primitive_attr_t attr);
/* pooling (2.x: pooling_v2, which has the dilation); dilation 0 is none */
dnnl_status_t rt_dnnl_pool_fwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				  dnnl_prop_kind_t prop, dnnl_alg_kind_t alg, const_rt_md_t src,
				  const_rt_md_t dst, const dnnl_dims_t strides,
				  const dnnl_dims_t kernel, const dnnl_dims_t dil,
				  const dnnl_dims_t pl, const dnnl_dims_t pr,
				  const_dnnl_primitive_attr_t attr);
dnnl_status_t rt_dnnl_pool_bwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				  dnnl_alg_kind_t alg, const_rt_md_t dsrc, const_rt_md_t ddst,
				  const dnnl_dims_t strides, const dnnl_dims_t kernel,
				  const dnnl_dims_t dil, const dnnl_dims_t pl,
				  const dnnl_dims_t pr, const_dnnl_primitive_desc_t hint,
				  const_dnnl_primitive_attr_t attr);
/* batch normalization with a scale and a shift (two arguments, DNNL_ARG_SCALE and
 * DNNL_ARG_SHIFT, on both versions: 2.x has them since 2.3), training: batch statistics */
dnnl_status_t rt_dnnl_bnorm_fwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				   dnnl_prop_kind_t prop, const_rt_md_t src, const_rt_md_t dst,
				   float eps, const_dnnl_primitive_attr_t attr);
dnnl_status_t rt_dnnl_bnorm_bwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				   const_rt_md_t dsrc, const_rt_md_t ddst, const_rt_md_t src,
				   float eps, const_dnnl_primitive_desc_t hint,
				   const_dnnl_primitive_attr_t attr);
/* softmax over axis, "accurate" (subtracting the maximum: 2.x's softmax) */
dnnl_status_t rt_dnnl_softmax_fwd_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				     dnnl_prop_kind_t prop, const_rt_md_t src, const_rt_md_t dst,
				     int axis, const_dnnl_primitive_attr_t attr);
dnnl_status_t rt_dnnl_binary_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				dnnl_alg_kind_t alg, const_rt_md_t src0, const_rt_md_t src1,
				const_rt_md_t dst, const_dnnl_primitive_attr_t attr);
dnnl_status_t rt_dnnl_matmul_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng,
				const_rt_md_t src, const_rt_md_t w, const_rt_md_t b,
				const_rt_md_t dst, const_dnnl_primitive_attr_t attr);

/* post-ops: an eltwise (2.x's scale argument, gone in 3.x, is 1) */
dnnl_status_t rt_dnnl_post_ops_append_eltwise(dnnl_post_ops_t po, dnnl_alg_kind_t alg,
					      float alpha, float beta);
/* post-ops: a sum of scale times the destination (3.x's zero point 0, the dst's type) */
dnnl_status_t rt_dnnl_post_ops_append_sum(dnnl_post_ops_t po, float scale);

/* A constant scale of argument arg (DNNL_ARG_SRC_1, ...): 2.x holds *value in the attributes
 * (dnnl_primitive_attr_set_scales), 3.x reads it at each execution from a memory of one
 * float; rt_dnnl_scale_arg writes that argument (m: the memory holding *value) into *a and
 * returns how many it wrote (0 on 2.x). */
dnnl_status_t rt_dnnl_attr_set_scale(dnnl_primitive_attr_t attr, int arg, const float *value);
int rt_dnnl_scale_arg(dnnl_exec_arg_t *a, int arg, dnnl_memory_t m);

/* ---- a primitive's implementations, oneDNN's first choice first ----
 * rt_dnnl_impls_begin takes pd (made by a call above: its first choice) and the hint it was
 * made with; rt_dnnl_impls_take gives the current implementation's pd (the caller owns it;
 * NULL on failure); rt_dnnl_impls_next moves on (false past the last); rt_dnnl_impls_end
 * frees the walk. */
struct rt_dnnl_impls {
#if DNNL_VERSION_MAJOR >= 3
	dnnl_primitive_desc_t pd;
#else
	dnnl_primitive_desc_iterator_t it;
	dnnl_primitive_desc_t pd;       /* the first choice, kept to the end of the walk: 2.x's
					 * iterator reads its op descriptor where the pd holds it */
#endif
};
dnnl_status_t rt_dnnl_impls_begin(struct rt_dnnl_impls *w, dnnl_primitive_desc_t pd,
				  const_dnnl_primitive_desc_t hint);
dnnl_primitive_desc_t rt_dnnl_impls_take(struct rt_dnnl_impls *w);
bool rt_dnnl_impls_next(struct rt_dnnl_impls *w);
void rt_dnnl_impls_end(struct rt_dnnl_impls *w);

#endif
