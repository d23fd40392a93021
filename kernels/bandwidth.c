/* bandwidth.c: streaming kernels (load, copy, triad, and non-temporal copy/triad) per ISA, plus
 * the kernel table and ISA helpers. A compiler barrier after every sweep keeps each sweep real;
 * -fno-tree-loop-distribute-patterns keeps copy from becoming memcpy. */
#include "config.h"
#include "kernels/kernels.h"

#include <errno.h>
#include <immintrin.h>
#include <string.h>

#define SWEEP_BARRIER(p) __asm__ __volatile__("" : : "r"(p) : "memory")

/* Each instantiation defines VT, LN (doubles per register), VLOAD, VSTORE, VSTREAM, VADD, VMUL,
 * VSET1, VZERO, VTRIAD(b, s, c) = b + s*c, VSUM(v) (horizontal sum), FENCE, and LOADS(p), the
 * load kernel's sweep step: NCH register loads from p on, in assembly, into registers nothing
 * reads. A load that feeds an add costs a vector ALU uop per load: on Intel's cores, whose
 * 512-bit adds share ports 0 and 5, 2 loads a cycle then need both ports every cycle, and the
 * loop's own uops take some of them (the probe read 0.81x likwid-bench's load_avx512 on a
 * Sapphire Rapids; likwid's loads feed nothing either). The last sweep adds every element, in
 * NCH accumulators, so that the kernel's result shows what it read; that sweep is 1 of the
 * harness's many at the cache levels, and at DRAM the adds are not what limits it. */
#define LACC(k) VT s##k = VZERO();
#define LSTEP(k) s##k = VADD(s##k, VLOAD(a + i + (k) * LN));
#define LADD(k) acc = VADD(acc, s##k);
#define LCH8(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7)
#define LCH16(X) LCH8(X) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)
/* LD8(MOV, R, W, B): 8 loads of W bytes at byte offsets (B + k) * W, k = 0..7, into R0..R7 */
#define LDK(MOV, R, W, B, k) MOV " " #B "*" W "+" #k "*" W "(%0), %%" R #k "\n\t"
#define LD8(MOV, R, W, B)                                                                      \
	LDK(MOV, R, W, B, 0) LDK(MOV, R, W, B, 1) LDK(MOV, R, W, B, 2) LDK(MOV, R, W, B, 3)     \
	LDK(MOV, R, W, B, 4) LDK(MOV, R, W, B, 5) LDK(MOV, R, W, B, 6) LDK(MOV, R, W, B, 7)
#define LD_CLOBBER "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7"
#define DEFINE_BW(isa, tgt, CH, NCH)                                                           \
	__attribute__((target(tgt))) static double load_##isa(size_t n, uint64_t reps,         \
		double *a, double *b, double *c, double s)                                      \
	{                                                                                       \
		VT acc = VZERO();                                                               \
		CH(LACC)                                                                        \
		(void)b; (void)c; (void)s;                                                      \
		for (uint64_t r = 0; r + 1 < reps; r++) {                                       \
			for (size_t i = 0; i < n; i += (NCH) * LN)                              \
				LOADS(a + i);                                                   \
			SWEEP_BARRIER(a);                                                       \
		}                                                                               \
		for (size_t i = 0; reps && i < n; i += (NCH) * LN) {                            \
			CH(LSTEP)                                                               \
		}                                                                               \
		CH(LADD)                                                                        \
		return VSUM(acc);                                                               \
	}                                                                                       \
	DEFINE_COPY(copy_##isa, tgt, VSTORE, (void)0)                                           \
	DEFINE_COPY(copy_nt_##isa, tgt, VSTREAM, FENCE())                                       \
	DEFINE_TRIAD(triad_##isa, tgt, VSTORE, (void)0)                                         \
	DEFINE_TRIAD(triad_nt_##isa, tgt, VSTREAM, FENCE())

/* b[i] = a[i], unrolled by 4, with the given store (regular or non-temporal, then a fence) */
#define DEFINE_COPY(fname, tgt, STORE, AFTER)                                                  \
	__attribute__((target(tgt))) static double fname(size_t n, uint64_t reps,              \
		double *a, double *b, double *c, double s)                                      \
	{                                                                                       \
		(void)c; (void)s;                                                               \
		for (uint64_t r = 0; r < reps; r++) {                                           \
			for (size_t i = 0; i < n; i += 4 * LN) {                                \
				VT v0 = VLOAD(a + i), v1 = VLOAD(a + i + LN);                   \
				VT v2 = VLOAD(a + i + 2 * LN), v3 = VLOAD(a + i + 3 * LN);      \
				STORE(b + i, v0); STORE(b + i + LN, v1);                        \
				STORE(b + i + 2 * LN, v2); STORE(b + i + 3 * LN, v3);           \
			}                                                                       \
			AFTER;                                                                  \
			SWEEP_BARRIER(b);                                                       \
		}                                                                               \
		return b[0];                                                                    \
	}

/* a[i] = b[i] + s*c[i], unrolled by 4, with the given store */
#define DEFINE_TRIAD(fname, tgt, STORE, AFTER)                                                 \
	__attribute__((target(tgt))) static double fname(size_t n, uint64_t reps,              \
		double *a, double *b, double *c, double s)                                      \
	{                                                                                       \
		const VT vs = VSET1(s);                                                         \
		for (uint64_t r = 0; r < reps; r++) {                                           \
			for (size_t i = 0; i < n; i += 4 * LN) {                                \
				STORE(a + i, VTRIAD(VLOAD(b + i), vs, VLOAD(c + i)));           \
				STORE(a + i + LN,                                               \
				      VTRIAD(VLOAD(b + i + LN), vs, VLOAD(c + i + LN)));        \
				STORE(a + i + 2 * LN,                                           \
				      VTRIAD(VLOAD(b + i + 2 * LN), vs, VLOAD(c + i + 2 * LN))); \
				STORE(a + i + 3 * LN,                                           \
				      VTRIAD(VLOAD(b + i + 3 * LN), vs, VLOAD(c + i + 3 * LN))); \
			}                                                                       \
			AFTER;                                                                  \
			SWEEP_BARRIER(a);                                                       \
		}                                                                               \
		return a[0];                                                                    \
	}

/* SSE2: 128-bit, mul + add triad */
__attribute__((target("sse2"))) static inline double sum_sse(__m128d v)
{
	return _mm_cvtsd_f64(_mm_add_sd(v, _mm_unpackhi_pd(v, v)));
}
#define VT __m128d
#define LN 2
#define VLOAD _mm_load_pd
#define VSTORE _mm_store_pd
#define VSTREAM _mm_stream_pd
#define VADD _mm_add_pd
#define VSET1 _mm_set1_pd
#define VZERO _mm_setzero_pd
#define VTRIAD(b, s, c) _mm_add_pd(b, _mm_mul_pd(s, c))
#define VSUM sum_sse
#define FENCE _mm_sfence
#define LOADS(p) __asm__ __volatile__(LD8("movapd", "xmm", "16", 0) : : "r"(p) : LD_CLOBBER)
DEFINE_BW(sse, "sse2", LCH8, 8)
#undef VT
#undef LN
#undef VLOAD
#undef VSTORE
#undef VSTREAM
#undef VADD
#undef VSET1
#undef VZERO
#undef VTRIAD
#undef VSUM
#undef LOADS

/* AVX2: 256-bit, FMA triad */
__attribute__((target("avx2"))) static inline double sum_avx2(__m256d v)
{
	__m128d h = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));

	return _mm_cvtsd_f64(_mm_add_sd(h, _mm_unpackhi_pd(h, h)));
}
#define VT __m256d
#define LN 4
#define VLOAD _mm256_load_pd
#define VSTORE _mm256_store_pd
#define VSTREAM _mm256_stream_pd
#define VADD _mm256_add_pd
#define VSET1 _mm256_set1_pd
#define VZERO _mm256_setzero_pd
#define VTRIAD(b, s, c) _mm256_fmadd_pd(s, c, b)
#define VSUM sum_avx2
#define LOADS(p) __asm__ __volatile__(LD8("vmovapd", "ymm", "32", 0) : : "r"(p) : LD_CLOBBER)
DEFINE_BW(avx2, "avx2,fma", LCH8, 8)
#undef VT
#undef LN
#undef VLOAD
#undef VSTORE
#undef VSTREAM
#undef VADD
#undef VSET1
#undef VZERO
#undef VTRIAD
#undef VSUM
#undef LOADS

/* AVX-512: 512-bit, FMA triad */
__attribute__((target("avx512f"))) static inline double sum_avx512(__m512d v)
{
	return _mm512_reduce_add_pd(v);
}
#define VT __m512d
#define LN 8
#define VLOAD _mm512_load_pd
#define VSTORE _mm512_store_pd
#define VSTREAM _mm512_stream_pd
#define VADD _mm512_add_pd
#define VSET1 _mm512_set1_pd
#define VZERO _mm512_setzero_pd
#define VTRIAD(b, s, c) _mm512_fmadd_pd(s, c, b)
#define VSUM sum_avx512
#define LOADS(p)                                                                               \
	__asm__ __volatile__(LD8("vmovapd", "zmm", "64", 0) LD8("vmovapd", "zmm", "64", 8)     \
			     : : "r"(p) : LD_CLOBBER)
DEFINE_BW(avx512, "avx512f", LCH16, 16)
#undef VT
#undef LN
#undef VLOAD
#undef VSTORE
#undef VSTREAM
#undef VADD
#undef VSET1
#undef VZERO
#undef VTRIAD
#undef VSUM
#undef LOADS
#undef FENCE

/* Accounting, as the code above moves the data (8-byte doubles, no write-allocate counted). */
#define BWK(nm, fn, isa_, arr, fl, rd, wr, nt)                                                 \
	{ .name = nm, .kind = RT_KERNEL_BANDWIDTH, .isa = isa_, .prec = RT_PRECISION_FP64,                \
	  .arrays = arr, .flops_per_elem = fl, .read_bytes_per_elem = rd,                       \
	  .write_bytes_per_elem = wr, .nt_bytes_per_elem = nt, .bw = fn }
#define BW_SET(isa, ISA)                                                                       \
	BWK("load", load_##isa, ISA, 1, 0, 8, 0, 0),       /* a[i] loaded (the last sweep sums) */ \
	BWK("copy", copy_##isa, ISA, 2, 0, 8, 8, 0),       /* b[i] = a[i] */                    \
	BWK("triad", triad_##isa, ISA, 3, 2, 16, 8, 0),    /* a[i] = b[i] + s*c[i] */           \
	BWK("copy_nt", copy_nt_##isa, ISA, 2, 0, 8, 0, 8), /* b[i] = a[i], streaming store */   \
	BWK("triad_nt", triad_nt_##isa, ISA, 3, 2, 16, 0, 8)

extern const struct rt_kernel rt_flops_kernels[];

static const struct rt_kernel bw_kernels[] = {
	BW_SET(sse, RT_ISA_SSE),
	BW_SET(avx2, RT_ISA_AVX2),
	BW_SET(avx512, RT_ISA_AVX512),
	{ .name = NULL, .kind = RT_KERNEL_BANDWIDTH },
};


bool rt_isa_supported(enum rt_isa isa)
{
	__builtin_cpu_init();
	switch (isa) {
	case RT_ISA_SCALAR:
	case RT_ISA_SSE:
		return __builtin_cpu_supports("sse2");
	case RT_ISA_AVX2:
		return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
	case RT_ISA_AVX512:
		return __builtin_cpu_supports("avx512f");
	case RT_ISA_COUNT:
		break;
	}
	return false;
}

unsigned rt_isa_bytes(enum rt_isa isa)
{
	static const unsigned bytes[RT_ISA_COUNT] = { 8, 16, 32, 64 };

	return (unsigned)isa < RT_ISA_COUNT ? bytes[isa] : 0;
}

/* Walk both halves of the table: the FLOP table's terminator (kind FLOPS) leads on to the
 * bandwidth table, whose terminator (kind BANDWIDTH) ends the walk. */
const struct rt_kernel *rt_kernel_next(const struct rt_kernel *k)
{
	k = k ? k + 1 : rt_flops_kernels;
	if (!k->name && k->kind == RT_KERNEL_FLOPS)
		k = bw_kernels;
	return k->name ? k : NULL;
}

const struct rt_kernel *rt_kernel_flops(enum rt_isa isa, enum rt_precision prec)
{
	for (size_t i = 0; rt_flops_kernels[i].name; i++)
		if (rt_flops_kernels[i].isa == isa && rt_flops_kernels[i].prec == prec)
			return &rt_flops_kernels[i];
	return NULL;
}

const struct rt_kernel *rt_kernel_bw(const char *name, enum rt_isa isa)
{
	for (size_t i = 0; bw_kernels[i].name; i++)
		if (bw_kernels[i].isa == isa && !strcmp(bw_kernels[i].name, name))
			return &bw_kernels[i];
	return NULL;
}

unsigned rt_kernel_bytes_per_elem(const struct rt_kernel *k)
{
	return k->read_bytes_per_elem + k->write_bytes_per_elem + k->nt_bytes_per_elem;
}
