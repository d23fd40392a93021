/* peaks.c: low-precision peak kernels: independent chains of one instruction each, as the
 * FP32/FP64 FMA chains are: AVX512-BF16 (VDPBF16PS), AVX512-FP16 (VFMADD231PH), AVX512-VNNI and
 * AVX-VNNI (VPDPBUSD), AMX (TDPBF16PS, TDPBSSD). Each instruction's FLOPs (OPs for int8) are
 * counted as it defines them: a dot product of K pairs into a lane is K multiplies and K adds.
 * Every chain lane follows acc += K * m * a per instruction (the fp16 FMA: x = x * m + a), so
 * tests/t-kernels replays each kernel against a scalar model. */
#define _GNU_SOURCE
#include "config.h"
#include "kernels/kernels.h"

#include <immintrin.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define ARCH_REQ_XCOMP_PERM 0x1023
#define XFEATURE_XTILEDATA 18

/* A feature the user switched off (ROOFTRAJ_NO_ISA=avx512_bf16,amx_bf16,...): the probe then
 * measures as on a CPU without it. */
static bool masked(const char *isa)
{
	const char *list = getenv("ROOFTRAJ_NO_ISA");
	size_t len = strlen(isa);

	for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, isa, len) && (p[len] == ',' || !p[len]))
			return true;
	return false;
}

/* ---- AVX512-BF16: VDPBF16PS zmm, 16 fp32 lanes, 2 bf16 pairs each ---- */
#define CH16(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)

#define BF_DECL(i) __m512 x##i = _mm512_loadu_ps(in + (i) * 16);
#define BF_STEP(i) x##i = _mm512_dpbf16_ps(x##i, va, vb);
#define BF_STORE(i) _mm512_storeu_ps(o + (i) * 16, x##i);
__attribute__((target("avx512f,avx512bf16")))
static void dpbf16_avx512(uint64_t iters, const void *init, double mul, double add, void *out)
{
	const float *in = init;
	float *o = out;
	const __m512bh va = _mm512_cvtne2ps_pbh(_mm512_set1_ps((float)mul),
						_mm512_set1_ps((float)mul));
	const __m512bh vb = _mm512_cvtne2ps_pbh(_mm512_set1_ps((float)add),
						_mm512_set1_ps((float)add));

	CH16(BF_DECL)
	for (uint64_t it = 0; it < iters; it++) {
		CH16(BF_STEP)
	}
	CH16(BF_STORE)
}

/* ---- AVX512-FP16: VFMADD231PH zmm, 32 fp16 lanes, x = x * m + a ---- */
#define PH_DECL(i) __m512h x##i = _mm512_loadu_ph(in + (i) * 64);
#define PH_STEP(i) x##i = _mm512_fmadd_ph(x##i, vm, va);
#define PH_STORE(i) _mm512_storeu_ph(o + (i) * 64, x##i);
__attribute__((target("avx512f,avx512fp16")))
static void fma_avx512_fp16(uint64_t iters, const void *init, double mul, double add, void *out)
{
	/* the accumulators are fp16, 64 bytes a register: init and out hold them packed */
	const unsigned char *in = init;
	unsigned char *o = out;
	const __m512h vm = _mm512_set1_ph((_Float16)mul), va = _mm512_set1_ph((_Float16)add);

	CH16(PH_DECL)
	for (uint64_t it = 0; it < iters; it++) {
		CH16(PH_STEP)
	}
	CH16(PH_STORE)
}

/* ---- VNNI: VPDPBUSD, int32 lanes, 4 u8 x s8 pairs each ---- */
#define VN_DECL(i) __m512i x##i = _mm512_loadu_si512(in + (i) * 16);
#define VN_STEP(i) x##i = _mm512_dpbusd_epi32(x##i, va, vb);
#define VN_STORE(i) _mm512_storeu_si512(o + (i) * 16, x##i);
__attribute__((target("avx512f,avx512vnni")))
static void dpbusd_avx512(uint64_t iters, const void *init, double mul, double add, void *out)
{
	const int32_t *in = init;
	int32_t *o = out;
	const __m512i va = _mm512_set1_epi8((char)(unsigned char)mul);
	const __m512i vb = _mm512_set1_epi8((char)(signed char)add);

	CH16(VN_DECL)
	for (uint64_t it = 0; it < iters; it++) {
		CH16(VN_STEP)
	}
	CH16(VN_STORE)
}

/* AVX-VNNI (VEX, ymm): 8 int32 lanes; 12 chains leave 2 of 16 ymm registers for the inputs */
#define CH12(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)
#define VV_DECL(i) __m256i x##i = _mm256_loadu_si256((const __m256i *)(in + (i) * 8));
#define VV_STEP(i) x##i = _mm256_dpbusd_avx_epi32(x##i, va, vb);
#define VV_STORE(i) _mm256_storeu_si256((__m256i *)(o + (i) * 8), x##i);
__attribute__((target("avx2,avxvnni")))
static void dpbusd_avxvnni(uint64_t iters, const void *init, double mul, double add, void *out)
{
	const int32_t *in = init;
	int32_t *o = out;
	const __m256i va = _mm256_set1_epi8((char)(unsigned char)mul);
	const __m256i vb = _mm256_set1_epi8((char)(signed char)add);

	CH12(VV_DECL)
	for (uint64_t it = 0; it < iters; it++) {
		CH12(VV_STEP)
	}
	CH12(VV_STORE)
}

/* ---- AMX: 6 accumulator tiles (16 x 16 fp32 or int32), tiles 6 and 7 the operands ---- */
struct tile_config {
	uint8_t palette, start_row, reserved[14];
	uint16_t colsb[16];
	uint8_t rows[16];
};

static void amx_config(struct tile_config *tc)
{
	memset(tc, 0, sizeof(*tc));
	tc->palette = 1;
	for (int t = 0; t < 8; t++) {
		tc->rows[t] = 16;
		tc->colsb[t] = 64;
	}
}

#define AMX_LOAD_C(i) _tile_loadd(i, in + (i) * 256, 64);
#define AMX_STORE_C(i) _tile_stored(i, o + (i) * 256, 64);
#define CH6(X) X(0) X(1) X(2) X(3) X(4) X(5)

/* bf16 operands: the upper half of an fp32 (the values the tests use are exact in bf16) */
static uint16_t to_bf16(double x)
{
	union { float f; uint32_t u; } v = { (float)x };

	return (uint16_t)(v.u >> 16);
}

/* 6 accumulator tiles C0..C5 += A (tile 6) . B (tile 7), every iteration; ET the operand
 * type, CONV the conversion of m and a to it, TDP the instruction */
#define DEFINE_AMX(fname, tgt, ET, CONV, TDP)                                                  \
	__attribute__((target(tgt)))                                                            \
	static void fname(uint64_t iters, const void *init, double mul, double add, void *out)  \
	{                                                                                       \
		const int32_t *in = init;                                                       \
		int32_t *o = out;                                                               \
		ET a[1024 / sizeof(ET)], b[1024 / sizeof(ET)];                                  \
		struct tile_config tc;                                                          \
                                                                                                \
		for (size_t i = 0; i < 1024 / sizeof(ET); i++) {                                \
			a[i] = CONV(mul);                                                       \
			b[i] = CONV(add);                                                       \
		}                                                                               \
		amx_config(&tc);                                                                \
		_tile_loadconfig(&tc);                                                          \
		CH6(AMX_LOAD_C)                                                                 \
		_tile_loadd(6, a, 64);                                                          \
		_tile_loadd(7, b, 64);                                                          \
		for (uint64_t it = 0; it < iters; it++) {                                       \
			TDP(0, 6, 7);                                                           \
			TDP(1, 6, 7);                                                           \
			TDP(2, 6, 7);                                                           \
			TDP(3, 6, 7);                                                           \
			TDP(4, 6, 7);                                                           \
			TDP(5, 6, 7);                                                           \
		}                                                                               \
		CH6(AMX_STORE_C)                                                                \
		_tile_release();                                                                \
	}

#define TO_S8(x) ((int8_t)(x))
DEFINE_AMX(tdpbf16ps_amx, "amx-tile,amx-bf16", uint16_t, to_bf16, _tile_dpbf16ps)
DEFINE_AMX(tdpbssd_amx, "amx-tile,amx-int8", int8_t, TO_S8, _tile_dpbssd)

/* ---- which of them this CPU (and OS) runs ---- */
static bool has_bf16(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512bf16") && !masked("avx512_bf16");
}

static bool has_fp16(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512fp16") && !masked("avx512_fp16");
}

static bool has_vnni512(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512vnni") && !masked("avx512_vnni");
}

static bool has_avxvnni(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avxvnni") && !masked("avx_vnni");
}

/* AMX needs the kernel's permission for the tile data state (Linux 5.16+) before the first
 * tile instruction; a CPU, kernel or VM without it answers no. */
static bool amx_permitted(void)
{
	static int state;       /* 0 unknown, 1 yes, -1 no */

	if (!state)
		state = syscall(SYS_arch_prctl, ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA) == 0 ? 1 : -1;
	return state > 0;
}

static bool has_amx_bf16(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("amx-bf16") && !masked("amx_bf16") && amx_permitted();
}

static bool has_amx_int8(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("amx-int8") && !masked("amx_int8") && amx_permitted();
}

#define PEAK(nm, isa_, prec_, ch, ln, kk, acc, w, fn, sup)                                     \
	{ .name = nm, .isa = isa_, .precision = prec_, .chains = ch, .lanes = ln, .k = kk,    \
	  .acc_bytes = acc, .width_bits = w, .ops_per_instr = 2u * (ln) * (kk),                \
	  .ops_per_iter = 2ull * (ch) * (ln) * (kk), .run = fn, .supported = sup }

static const struct rt_peak_kernel peaks[] = {
	PEAK("vdpbf16ps", "avx512_bf16", "bf16", 16, 16, 2, 4, 512, dpbf16_avx512, has_bf16),
	PEAK("tdpbf16ps", "amx_bf16", "bf16", 6, 256, 32, 4, 0, tdpbf16ps_amx, has_amx_bf16),
	PEAK("vfmadd231ph", "avx512_fp16", "fp16", 16, 32, 1, 2, 512, fma_avx512_fp16, has_fp16),
	PEAK("vpdpbusd", "avx512_vnni", "int8", 16, 16, 4, 4, 512, dpbusd_avx512, has_vnni512),
	PEAK("vpdpbusd", "avx_vnni", "int8", 12, 8, 4, 4, 256, dpbusd_avxvnni, has_avxvnni),
	PEAK("tdpbssd", "amx_int8", "int8", 6, 256, 64, 4, 0, tdpbssd_amx, has_amx_int8),
	{ .name = NULL },
};

const struct rt_peak_kernel *rt_peak_next(const struct rt_peak_kernel *k)
{
	k = k ? k + 1 : peaks;
	return k->name ? k : NULL;
}
