/* net-dnnl.c: the oneDNN helpers every layer file and net.c share: memories counted by
 * category, primitives with the user scratchpad, reorders, execution with timing, test fills */
#include "config.h"
#include "cnn/net-internal.h"
#include "base/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int rt_net_dnnl_fail(struct rt_err *err, dnnl_status_t st, const struct rt_net_layer *L, const char *what)
{
	return rt_err_set(err, st == dnnl_out_of_memory ? -ENOMEM : -EIO,
			  "%s%s%s: oneDNN: %s: %s", L ? "layer '" : "", L ? L->d->name : "",
			  L ? "'" : "", what, dnnl_status2str(st));
}

void *rt_net_priv(struct rt_net_layer *L, size_t size, struct rt_err *err)
{
	if (!L->priv && !(L->priv = calloc(1, size)))
		rt_err_set(err, -ENOMEM, "out of memory");
	return L->priv;
}

int rt_net_mem(struct rt_net *n, struct rt_net_layer *L, dnnl_memory_t *m, const_rt_md_t md,
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

int rt_net_prim(struct rt_net *n, struct rt_net_layer *L, dnnl_status_t st,
		dnnl_primitive_desc_t pd, dnnl_primitive_t *prim, dnnl_primitive_desc_t *pd_out,
		const char *what, struct rt_err *err)
{
	const_rt_md_t sp;

	if (st != dnnl_success) {
		dnnl_primitive_desc_destroy(pd);
		return rt_net_dnnl_fail(err, st, L, what);
	}
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

int rt_net_reorder(struct rt_net *n, struct rt_net_layer *L, const_rt_md_t from,
		   const_rt_md_t to, dnnl_primitive_t *prim, struct rt_err *err)
{
	dnnl_primitive_desc_t pd = NULL;
	const_rt_md_t sp;

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

dnnl_status_t rt_net_run(const struct rt_net *n, dnnl_stream_t s, dnnl_primitive_t p, int nargs,
			 const dnnl_exec_arg_t *args)
{
	dnnl_exec_arg_t all[16];

	memcpy(all, args, (size_t)nargs * sizeof(*args));
	all[nargs].arg = DNNL_ARG_SCRATCHPAD;
	all[nargs].memory = n->scratch;
	return dnnl_primitive_execute(p, s, nargs + 1, all);
}

int rt_net_exec(struct rt_net *n, struct rt_net_layer *L, dnnl_primitive_t p, int nargs,
		dnnl_exec_arg_t *args, struct rt_err *err)
{
	const double t0 = rt_now();
	const dnnl_status_t st = rt_net_run(n, n->strm, p, nargs, args);

	n->prim_seconds += rt_now() - t0;
	return st == dnnl_success ? 0 : rt_net_dnnl_fail(err, st, L, "execute");
}

bool rt_net_is_ref(const_dnnl_primitive_desc_t pd)
{
	const char *impl = NULL;

	dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl);
	return !impl || !strncmp(impl, "ref", 3);
}

const_rt_md_t rt_net_in_md(const struct rt_net *n, const struct rt_net_layer *L)
{
	return L->d->input < 0 ? n->input_md : n->L[L->d->input].out_md;
}

dnnl_memory_t rt_net_in_mem(const struct rt_net *n, const struct rt_net_layer *L)
{
	return L->d->input < 0 ? n->input : n->L[L->d->input].out;
}

static const dnnl_format_tag_t plain_tags[] = { dnnl_format_tag_undef, dnnl_a, dnnl_ab,
						 dnnl_abc, dnnl_abcd, dnnl_abcde };

void rt_net_plain_md(rt_md_t *md, int ndims, const dnnl_dims_t dims)
{
	rt_md_tag(md, ndims, dims, dnnl_f32, plain_tags[ndims]);
}

void rt_net_act_plain_md(const struct rt_net *n, rt_md_t *md, int ndims,
			 const dnnl_dims_t dims)
{
	rt_md_tag(md, ndims, dims, n->adt, plain_tags[ndims]);
}

/* xorshift64*: the net's only randomness, seeded, so two runs are identical */
uint64_t rt_net_rng_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

/* A one-off reorder between two memories, with oneDNN's own scratchpad: for initialization
 * and test access, outside the iteration loop. */
int rt_net_reorder_now(struct rt_net *n, struct rt_net_layer *L, dnnl_memory_t from, dnnl_memory_t to,
		       struct rt_err *err)
{
	const_rt_md_t fmd, tmd;
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

int rt_net_write_plain(struct rt_net *n, struct rt_net_layer *L, dnnl_memory_t dst,
		       const_rt_md_t plain, const float *vals, struct rt_err *err)
{
	dnnl_memory_t user = NULL;
	void *h = NULL;
	int rc;

	DNNL_CHECK(dnnl_memory_create(&user, plain, n->eng, DNNL_MEMORY_ALLOCATE), "memory");
	dnnl_memory_get_data_handle(user, &h);
	memcpy(h, vals, dnnl_memory_desc_get_size(plain));
	rc = rt_net_reorder_now(n, L, user, dst, err);
	dnnl_memory_destroy(user);
	return rc;
}

int rt_net_fill(struct rt_net *n, struct rt_net_layer *L, dnnl_memory_t m, uint64_t seed,
		struct rt_err *err)
{
	const_rt_md_t md = NULL;
	rt_md_t plain = NULL;
	uint64_t s = seed * 0x9E3779B97F4A7C15ULL + 1;
	float *v;
	size_t cnt;
	int rc;

	dnnl_memory_get_memory_desc(m, &md);
	rt_net_plain_md(&plain, rt_md_ndims(md), rt_md_dims(md));
	cnt = dnnl_memory_desc_get_size(plain) / sizeof(float);
	if (!(v = malloc(cnt * sizeof(*v) + 1))) {
		rt_md_destroy(plain);
		return rt_err_set(err, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < cnt; i++)
		v[i] = (float)((double)(rt_net_rng_next(&s) >> 40) / (double)(1ULL << 23) - 1.0);
	rc = rt_net_write_plain(n, L, m, plain, v, err);
	free(v);
	rt_md_destroy(plain);
	return rc;
}

int rt_net_zero_mem(dnnl_memory_t m)
{
	const_rt_md_t md;
	void *h = NULL;

	dnnl_memory_get_memory_desc(m, &md);
	dnnl_memory_get_data_handle(m, &h);
	memset(h, 0, dnnl_memory_desc_get_size(md));
	return 0;
}
