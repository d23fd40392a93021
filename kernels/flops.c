/* flops.c: peak FLOP kernels: independent FMA (or mul and add) chains per ISA and precision.
 * Compiled with -ffp-contract=off -fno-tree-vectorize so the code is exactly the intrinsics. */
#include "config.h"
#include "kernels/kernels.h"

#include <immintrin.h>
#include <string.h>

#define CH8(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7)
#define CH12(X) CH8(X) X(8) X(9) X(10) X(11)
#define CH16(X) CH12(X) X(12) X(13) X(14) X(15)

/* Fused kernels: every chain is x = fma(x, m, a). 16 chains cover 4-cycle FMA latency x 2 FMA
 * ports with room for 5-6 cycle latencies; 12 on AVX2 leave 2 of 16 ymm registers for m and a.
 * Each instantiation first defines VT (register type), ET (element type), LN (lanes), VSET1,
 * VLOAD, VSTORE and VFMA; the chain macros expand to named registers x0..x15. */
#define FDECL(i) VT x##i = VLOAD(in + (i) * LN);
#define FSTEP(i) x##i = VFMA(x##i, m, ad);
#define FSTORE(i) VSTORE(o + (i) * LN, x##i);
#define DEFINE_FUSED(fname, tgt, CHN)                                                          \
	__attribute__((target(tgt))) static void fname(uint64_t iters, const void *init,        \
						       double mul, double add, void *out)        \
	{                                                                                       \
		const ET *in = init;                                                            \
		ET *o = out;                                                                    \
		const VT m = VSET1((ET)mul), ad = VSET1((ET)add);                               \
		CHN(FDECL)                                                                      \
		for (uint64_t it = 0; it < iters; it++) {                                       \
			CHN(FSTEP)                                                              \
		}                                                                               \
		CHN(FSTORE)                                                                     \
	}

#define VT __m512d
#define ET double
#define LN 8
#define VSET1 _mm512_set1_pd
#define VLOAD _mm512_loadu_pd
#define VSTORE _mm512_storeu_pd
#define VFMA _mm512_fmadd_pd
DEFINE_FUSED(fma_avx512_fp64, "avx512f", CH16)
#undef VT
#undef ET
#undef LN
#undef VSET1
#undef VLOAD
#undef VSTORE
#undef VFMA

#define VT __m512
#define ET float
#define LN 16
#define VSET1 _mm512_set1_ps
#define VLOAD _mm512_loadu_ps
#define VSTORE _mm512_storeu_ps
#define VFMA _mm512_fmadd_ps
DEFINE_FUSED(fma_avx512_fp32, "avx512f", CH16)
#undef VT
#undef ET
#undef LN
#undef VSET1
#undef VLOAD
#undef VSTORE
#undef VFMA

#define VT __m256d
#define ET double
#define LN 4
#define VSET1 _mm256_set1_pd
#define VLOAD _mm256_loadu_pd
#define VSTORE _mm256_storeu_pd
#define VFMA _mm256_fmadd_pd
DEFINE_FUSED(fma_avx2_fp64, "avx2,fma", CH12)
#undef VT
#undef ET
#undef LN
#undef VSET1
#undef VLOAD
#undef VSTORE
#undef VFMA

#define VT __m256
#define ET float
#define LN 8
#define VSET1 _mm256_set1_ps
#define VLOAD _mm256_loadu_ps
#define VSTORE _mm256_storeu_ps
#define VFMA _mm256_fmadd_ps
DEFINE_FUSED(fma_avx2_fp32, "avx2,fma", CH12)
#undef VT
#undef ET
#undef LN
#undef VSET1
#undef VLOAD
#undef VSTORE
#undef VFMA

/* Unfused kernels (SSE2, no FMA): 7 multiply chains and 7 add chains, independent, so the mul
 * and add units both stay busy; 14 of 16 xmm registers plus m and a. */
#define DEFINE_UNFUSED(fname, vt, T, lanes_, set1, loadu, storeu, mulop, addop)               \
	__attribute__((target("sse2"))) static void fname(uint64_t iters, const void *init,     \
							  double mul, double add, void *out)     \
	{                                                                                       \
		const T *in = init;                                                             \
		T *o = out;                                                                     \
		const vt m = set1((T)mul), ad = set1((T)add);                                   \
		vt p0 = loadu(in + 0 * lanes_), p1 = loadu(in + 1 * lanes_);                    \
		vt p2 = loadu(in + 2 * lanes_), p3 = loadu(in + 3 * lanes_);                    \
		vt p4 = loadu(in + 4 * lanes_), p5 = loadu(in + 5 * lanes_);                    \
		vt p6 = loadu(in + 6 * lanes_);                                                 \
		vt s0 = loadu(in + 7 * lanes_), s1 = loadu(in + 8 * lanes_);                    \
		vt s2 = loadu(in + 9 * lanes_), s3 = loadu(in + 10 * lanes_);                   \
		vt s4 = loadu(in + 11 * lanes_), s5 = loadu(in + 12 * lanes_);                  \
		vt s6 = loadu(in + 13 * lanes_);                                                \
		for (uint64_t it = 0; it < iters; it++) {                                       \
			p0 = mulop(p0, m); s0 = addop(s0, ad);                                  \
			p1 = mulop(p1, m); s1 = addop(s1, ad);                                  \
			p2 = mulop(p2, m); s2 = addop(s2, ad);                                  \
			p3 = mulop(p3, m); s3 = addop(s3, ad);                                  \
			p4 = mulop(p4, m); s4 = addop(s4, ad);                                  \
			p5 = mulop(p5, m); s5 = addop(s5, ad);                                  \
			p6 = mulop(p6, m); s6 = addop(s6, ad);                                  \
		}                                                                               \
		storeu(o + 0 * lanes_, p0); storeu(o + 1 * lanes_, p1);                         \
		storeu(o + 2 * lanes_, p2); storeu(o + 3 * lanes_, p3);                         \
		storeu(o + 4 * lanes_, p4); storeu(o + 5 * lanes_, p5);                         \
		storeu(o + 6 * lanes_, p6);                                                     \
		storeu(o + 7 * lanes_, s0); storeu(o + 8 * lanes_, s1);                         \
		storeu(o + 9 * lanes_, s2); storeu(o + 10 * lanes_, s3);                        \
		storeu(o + 11 * lanes_, s4); storeu(o + 12 * lanes_, s5);                       \
		storeu(o + 13 * lanes_, s6);                                                    \
	}

/* scalar: one element per register (mulsd/addsd); the "vector" helpers touch lane 0 only */
#define sd_set1(x) _mm_set_sd(x)
#define ss_set1(x) _mm_set_ss(x)
DEFINE_UNFUSED(muladd_scalar_fp64, __m128d, double, 1, sd_set1, _mm_load_sd, _mm_store_sd,
	       _mm_mul_sd, _mm_add_sd)
DEFINE_UNFUSED(muladd_scalar_fp32, __m128, float, 1, ss_set1, _mm_load_ss, _mm_store_ss,
	       _mm_mul_ss, _mm_add_ss)
DEFINE_UNFUSED(muladd_sse_fp64, __m128d, double, 2, _mm_set1_pd, _mm_loadu_pd, _mm_storeu_pd,
	       _mm_mul_pd, _mm_add_pd)
DEFINE_UNFUSED(muladd_sse_fp32, __m128, float, 4, _mm_set1_ps, _mm_loadu_ps, _mm_storeu_ps,
	       _mm_mul_ps, _mm_add_ps)

#define FLOPK(fn, isa_, prec_, nch, nl, fused_)                                                \
	{ .name = (fused_) ? "fma" : "mul_add", .kind = RT_KERNEL_FLOPS, .isa = isa_,           \
	  .prec = prec_, .chains = nch, .lanes = nl, .fused = fused_,                           \
	  .flops_per_iter = (uint64_t)(nch) * (nl) * ((fused_) ? 2 : 1), .flops = fn }

/* The FLOP part of the kernel table (bandwidth.c holds the rest). */
const struct rt_kernel rt_flops_kernels[] = {
	FLOPK(muladd_scalar_fp64, RT_ISA_SCALAR, RT_PRECISION_FP64, 14, 1, false),
	FLOPK(muladd_scalar_fp32, RT_ISA_SCALAR, RT_PRECISION_FP32, 14, 1, false),
	FLOPK(muladd_sse_fp64, RT_ISA_SSE, RT_PRECISION_FP64, 14, 2, false),
	FLOPK(muladd_sse_fp32, RT_ISA_SSE, RT_PRECISION_FP32, 14, 4, false),
	FLOPK(fma_avx2_fp64, RT_ISA_AVX2, RT_PRECISION_FP64, 12, 4, true),
	FLOPK(fma_avx2_fp32, RT_ISA_AVX2, RT_PRECISION_FP32, 12, 8, true),
	FLOPK(fma_avx512_fp64, RT_ISA_AVX512, RT_PRECISION_FP64, 16, 8, true),
	FLOPK(fma_avx512_fp32, RT_ISA_AVX512, RT_PRECISION_FP32, 16, 16, true),
	{ .name = NULL },
};
