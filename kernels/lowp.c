/* lowp.c: low-precision (bf16, fp16, int8) and reference fp32 peaks through a oneDNN matmul,
 * labelled with the implementation oneDNN picked (AMX, AVX512-BF16, VNNI, ...). */
#define _GNU_SOURCE
#include "config.h"
#include "kernels/kernels.h"
#include "base/util.h"
#include "machine/dnnl.h"

#include <errno.h>
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

struct mm_types {
	dnnl_data_type_t src, wei, dst;
	size_t src_size, wei_size;
	uint16_t one16;         /* 1.0 in the 16-bit formats */
};

static struct mm_types types_of(enum rt_precision t)
{
	switch (t) {
	case RT_PRECISION_BF16:
		return (struct mm_types){ dnnl_bf16, dnnl_bf16, dnnl_f32, 2, 2, 0x3f80 };
	case RT_PRECISION_FP16:
		return (struct mm_types){ dnnl_f16, dnnl_f16, dnnl_f32, 2, 2, 0x3c00 };
	case RT_PRECISION_INT8:
		return (struct mm_types){ dnnl_u8, dnnl_s8, dnnl_s32, 1, 1, 0 };
	case RT_PRECISION_FP32:
		return (struct mm_types){ dnnl_f32, dnnl_f32, dnnl_f32, 4, 4, 0 };
	default:                /* fp64: no matmul peak (src_size 0) */
		return (struct mm_types){ dnnl_f32, dnnl_f32, dnnl_f32, 0, 0, 0 };
	}
}

/* Fill a buffer of element size esz with the value 1 of the type (any layout of all ones is all
 * ones, so packed weight layouts need no reorder). */
static void fill_ones(void *p, size_t bytes, size_t esz, uint16_t one16)
{
	if (esz == 4) {
		float *f = p;

		for (size_t i = 0; i < bytes / 4; i++)
			f[i] = 1.0f;
	} else if (esz == 2) {
		uint16_t *h = p;

		for (size_t i = 0; i < bytes / 2; i++)
			h[i] = one16;
	} else {
		memset(p, 1, bytes);
	}
}

static int bind_pool(unsigned threads, const int *pus)
{
	int failed = 0;

#pragma omp parallel num_threads(threads) reduction(+ : failed)
	{
		int pu = pus ? pus[omp_get_thread_num()] : -1;

		if (pu >= 0) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(pu, &set);
			failed += pthread_setaffinity_np(pthread_self(), sizeof(set), &set) != 0;
		}
	}
	return failed ? -EINVAL : 0;
}

#define DNNL_TRY(call, what)                                                                   \
	do {                                                                                    \
		dnnl_status_t st_ = (call);                                                     \
		if (st_ != dnnl_success) {                                                      \
			rc = rt_err_set(err, st_ == dnnl_unimplemented ? -ENOTSUP : -EIO,       \
					"oneDNN %s matmul: %s: %s", rt_precision_name(t),     \
					what, dnnl_status2str(st_));                            \
			goto out;                                                               \
		}                                                                               \
	} while (0)

int rt_kernel_matmul_peak(enum rt_precision t, unsigned threads, const int *pus, bool quick,
			  struct rt_matmul_result *res, struct rt_err *err)
{
	struct mm_types ty = types_of(t);
	/* 1024^3 (quick: 512^3) keeps the operands in L2/L3 so the multiply units set the pace */
	const dnnl_dim_t n = quick ? 512 : 1024;
	dnnl_dims_t sdims = { n, n }, wdims = { n, n }, ddims = { n, n };
	rt_md_t smd = NULL, wmd = NULL, dmd = NULL;
	const_rt_md_t wq;
	dnnl_engine_t eng = NULL;
	dnnl_stream_t strm = NULL;
	dnnl_primitive_desc_t pd = NULL;
	dnnl_primitive_t prim = NULL;
	dnnl_memory_t mem[3] = { NULL, NULL, NULL };
	const char *impl = NULL;
	double rates[16], waited[16], flops = 2.0 * (double)n * n * n, target = quick ? 0.01 : 0.05;
	struct rt_run_snap before, after;
	/* the runs stop once the best 3 agree within 1% (quick: 3 runs): oneDNN's figure is a
	 * reference beside the kernels' own, not a roof to refine to their 0.5% */
	const struct rt_measure_opts mo = { .min_runs = 3, .max_runs = quick ? 3 : 7,
					    .stable_tol = 0.01, .budget_seconds = 1 };
	unsigned nruns = 0;
	double start;
	int reps = 1, saved_threads = omp_get_max_threads();
	int rc = 0;

	memset(res, 0, sizeof(*res));
	if (!ty.src_size) {
		rc = rt_err_set(err, -ENOTSUP, "oneDNN %s matmul: no peak of this precision "
				"(fp32, bf16, fp16, int8)", rt_precision_name(t));
		goto out;
	}
	if (bind_pool(threads, pus)) {
		rc = rt_err_set(err, -EINVAL, "cannot pin the OpenMP threads");
		goto out;
	}
	/* oneDNN's OpenMP runtime reads the thread count when the primitive runs */
	omp_set_num_threads((int)threads);
	DNNL_TRY(dnnl_engine_create(&eng, dnnl_cpu, 0), "engine");
	DNNL_TRY(dnnl_stream_create(&strm, eng, dnnl_stream_default_flags), "stream");
	DNNL_TRY(rt_md_tag(&smd, 2, sdims, ty.src, dnnl_ab), "source");
	DNNL_TRY(rt_md_tag(&wmd, 2, wdims, ty.wei, dnnl_format_tag_any), "weights");
	DNNL_TRY(rt_md_tag(&dmd, 2, ddims, ty.dst, dnnl_ab), "destination");
	DNNL_TRY(rt_dnnl_matmul_pd(&pd, eng, smd, wmd, NULL, dmd, NULL), "no implementation");
	DNNL_TRY(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl), "query");
	snprintf(res->impl, sizeof(res->impl), "%s", impl ? impl : "unknown");
	/* oneDNN's reference code is not a peak: report it as unavailable */
	if (!strncmp(res->impl, "ref", 3)) {
		rc = rt_err_set(err, -ENOTSUP, "oneDNN has only reference code for %s matmul here",
				rt_precision_name(t));
		goto out;
	}
	wq = dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
	DNNL_TRY(dnnl_memory_create(&mem[0], smd, eng, DNNL_MEMORY_ALLOCATE), "source memory");
	DNNL_TRY(dnnl_memory_create(&mem[1], wq, eng, DNNL_MEMORY_ALLOCATE), "weights memory");
	DNNL_TRY(dnnl_memory_create(&mem[2], dmd, eng, DNNL_MEMORY_ALLOCATE), "dst memory");
	for (int i = 0; i < 2; i++) {
		void *h = NULL;

		DNNL_TRY(dnnl_memory_get_data_handle(mem[i], &h), "data handle");
		fill_ones(h, dnnl_memory_desc_get_size(i ? wq : smd), i ? ty.wei_size : ty.src_size,
			  ty.one16);
	}
	DNNL_TRY(dnnl_primitive_create(&prim, pd), "primitive");
	{
		dnnl_exec_arg_t args[3] = {
			{ DNNL_ARG_SRC, mem[0] }, { DNNL_ARG_WEIGHTS, mem[1] }, { DNNL_ARG_DST, mem[2] },
		};
		double t0, dt;

		/* warm-up and calibration: the first run also JIT-compiles the kernels */
		for (;;) {
			t0 = rt_now();
			for (int r = 0; r < reps; r++)
				DNNL_TRY(dnnl_primitive_execute(prim, strm, 3, args), "execute");
			DNNL_TRY(dnnl_stream_wait(strm), "wait");
			dt = rt_now() - t0;
			if (dt >= target || reps > (1 << 20))
				break;
			reps *= dt > 0 && target / dt < 100 ? (int)(target / dt) + 1 : 100;
		}
		for (start = rt_now(); !rt_measure_done(&mo, rates, nruns, rt_now() - start);
		     nruns++) {
			rt_run_snap(&before);
			t0 = rt_now();
			for (int r = 0; r < reps; r++)
				DNNL_TRY(dnnl_primitive_execute(prim, strm, 3, args), "execute");
			DNNL_TRY(dnnl_stream_wait(strm), "wait");
			dt = rt_now() - t0;
			rt_run_snap(&after);
			rates[nruns] = flops * reps / (dt > 0 ? dt : 1e-9) / 1e9;
			waited[nruns] = rt_run_waited(&before, &after, threads);
		}
	}
	{
		/* as the kernels' harness judges its runs: the undisturbed ones make the figures */
		struct rt_measurement m;

		/* oneDNN's threads sleep between calls: only the time they waited for a CPU says
		 * whether another process took it, not the CPU time */
		rt_measurement_of_runs(&m, rates, waited, nruns, 1);
		res->gflops = m.best;
		res->median = m.median;
		res->spread = m.spread;
		res->cpu_share = m.cpu_share;
		res->disturbed_runs = m.disturbed_runs;
	}
out:
	dnnl_primitive_destroy(prim);
	for (int i = 0; i < 3; i++)
		dnnl_memory_destroy(mem[i]);
	dnnl_primitive_desc_destroy(pd);
	rt_md_destroy(smd);
	rt_md_destroy(wmd);
	rt_md_destroy(dmd);
	dnnl_stream_destroy(strm);
	dnnl_engine_destroy(eng);
	omp_set_num_threads(saved_threads);
	return rc;
}
