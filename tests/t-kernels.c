/* t-kernels.c: every kernel does exactly the work it declares. FLOP kernels are replayed
 * element by element (bit-exact) from their declared chains, lanes and iterations; bandwidth
 * kernels' read and written arrays are found by perturbing inputs and comparing outputs, and must
 * match the declared bytes per element. */
#define _GNU_SOURCE
#include "config.h"
#include "kernels/kernels.h"
#include "tap.h"

#include <errno.h>
#include <math.h>
#include <omp.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#define N (2 * RT_BW_ELEM_ALIGN)
#define CANARY 8
#define ITERS 37

static void check_flops_kernel(const struct rt_kernel *k)
{
	const size_t nel = (size_t)k->chains * k->lanes;
	const double mul = 1.0009765625, add = 0.125;   /* 1 + 2^-10: every step changes x */
	_Alignas(64) unsigned char in[4096], out[4096];
	const char *tag = rt_isa_name(k->isa);
	const char *prec = rt_precision_name(k->prec);
	size_t bad = 0, esz = k->prec == RT_PRECISION_FP64 ? 8 : 4;

	is_int((long long)k->flops_per_iter, (long long)(nel * (k->fused ? 2 : 1)),
	       "%s %s: flops_per_iter = chains x lanes x %d", tag, prec, k->fused ? 2 : 1);
	ok(k->chains * k->lanes * esz <= rt_isa_bytes(k->isa) * k->chains,
	   "%s %s: %u lanes fill a %u-byte register", tag, prec, k->lanes, rt_isa_bytes(k->isa));
	for (size_t i = 0; i < sizeof(in) / 8; i++)
		((double *)(void *)in)[i] = 1.0 + (double)i / 1024.0;
	if (k->prec == RT_PRECISION_FP32)
		for (size_t i = 0; i < sizeof(in) / 4; i++)
			((float *)(void *)in)[i] = 1.0f + (float)i / 1024.0f;
	memset(out, 0xa5, sizeof(out));
	k->flops(ITERS, in, mul, add, out);
	for (size_t e = 0; e < nel; e++) {
		/* unfused kernels: the first half of the chains multiply, the second half add */
		bool is_mul = !k->fused && e / k->lanes < k->chains / 2;

		if (k->prec == RT_PRECISION_FP64) {
			double x = ((const double *)(const void *)in)[e];

			for (int it = 0; it < ITERS; it++)
				x = k->fused ? fma(x, mul, add) : is_mul ? x * mul : x + add;
			bad += memcmp(&x, out + e * 8, 8) != 0;
		} else {
			float x = ((const float *)(const void *)in)[e];

			for (int it = 0; it < ITERS; it++)
				x = k->fused ? fmaf(x, (float)mul, (float)add) :
				    is_mul ? x * (float)mul : x + (float)add;
			bad += memcmp(&x, out + e * 4, 4) != 0;
		}
	}
	is_int((long long)bad, 0, "%s %s: all %zu chain elements did exactly %d steps", tag, prec,
	       nel, ITERS);
	is_int(out[nel * esz], 0xa5, "%s %s: nothing written past chains x lanes", tag, prec);
}

struct bufs {
	_Alignas(64) double a[N + CANARY];
	_Alignas(64) double b[N + CANARY];
	_Alignas(64) double c[N + CANARY];
};

static void init_bufs(struct bufs *x)
{
	for (int i = 0; i < N + CANARY; i++) {
		x->a[i] = i % 13;
		x->b[i] = i % 7 + 100;
		x->c[i] = i % 5 + 1000;
	}
}

/* Run the kernel and return a fingerprint of what it produced: its return value and every
 * element of the arrays after the run. */
static double run_fp(const struct rt_kernel *k, struct bufs *x, double *ret)
{
	double h = 0;

	*ret = k->bw(N, 3, x->a, x->b, x->c, 0.5);
	for (int i = 0; i < N + CANARY; i++)
		h += (i + 1) * (x->a[i] + 3 * x->b[i] + 7 * x->c[i]);
	return h;
}

static void check_bw_kernel(const struct rt_kernel *k)
{
	struct bufs base, x;
	double ret0, *arrs[3];
	int reads = 0, writes = 0, top = 0;
	const char *tag = rt_isa_name(k->isa);

	init_bufs(&base);
	x = base;
	run_fp(k, &x, &ret0);
	/* written arrays: those that changed */
	arrs[0] = x.a;
	arrs[1] = x.b;
	arrs[2] = x.c;
	{
		double *orig[3] = { base.a, base.b, base.c };

		for (int j = 0; j < 3; j++)
			if (memcmp(arrs[j], orig[j], N * sizeof(double))) {
				writes++;
				top = j + 1 > top ? j + 1 : top;
				is_int(memcmp(arrs[j] + N, orig[j] + N, CANARY * sizeof(double)), 0,
				       "%s %s: nothing written past n", tag, k->name);
			}
	}
	/* read arrays: perturb one input array and run again; it was read when the return value
	 * or another array's result changes, or, for an array the kernel writes, its own result */
	for (int j = 0; j < 3; j++) {
		struct bufs y = base, z = base;
		double *py[3] = { y.a, y.b, y.c }, *pz[3] = { z.a, z.b, z.c }, ry, rz;
		bool read = false;

		for (int i = 0; i < N; i += 9)
			py[j][i] += 1;
		run_fp(k, &y, &ry);
		run_fp(k, &z, &rz);
		read = ry != rz;
		for (int q = 0; q < 3; q++) {
			bool differs = memcmp(py[q], pz[q], N * sizeof(double)) != 0;
			bool written = memcmp(arrs[q], q == 0 ? base.a : q == 1 ? base.b : base.c,
					      N * sizeof(double)) != 0;

			if (differs && (q != j || written))
				read = true;
		}
		if (read) {
			reads++;
			top = j + 1 > top ? j + 1 : top;
		}
	}
	is_int(k->read_bytes_per_elem, 8 * reads, "%s %s: declares %u read bytes, code reads %d "
	       "arrays", tag, k->name, k->read_bytes_per_elem, reads);
	is_int(k->write_bytes_per_elem + k->nt_bytes_per_elem, 8 * writes,
	       "%s %s: declares %u written bytes, code writes %d arrays", tag, k->name,
	       k->write_bytes_per_elem + k->nt_bytes_per_elem, writes);
	ok((k->nt_bytes_per_elem > 0) == (strstr(k->name, "_nt") != NULL) &&
	   (k->nt_bytes_per_elem == 0 || k->write_bytes_per_elem == 0),
	   "%s %s: non-temporal and regular stores kept apart", tag, k->name);
	is_int(k->arrays, top, "%s %s: touches %u arrays", tag, k->name, k->arrays);

	/* values: exactly what the kernel's formula says */
	if (!strcmp(k->name, "load")) {
		double s = 0;

		for (int i = 0; i < N; i++)
			s += base.a[i];
		/* the sweeps before the last load into registers nothing reads; the last adds */
		is_double(ret0, s, 0, "%s load: the last of 3 sweeps sums every element", tag);
		is_double(k->bw(N, 1, x.a, x.b, x.c, 0.5), s, 0,
			  "%s load: ... as a single sweep does", tag);
		is_int(k->flops_per_elem, 0, "%s load: no FLOPs counted for its loads", tag);
	} else if (!strncmp(k->name, "copy", 4)) {
		is_int(memcmp(x.b, base.a, N * sizeof(double)), 0, "%s %s: b = a", tag, k->name);
	} else {
		int badv = 0;

		for (int i = 0; i < N; i++)
			badv += x.a[i] != base.b[i] + 0.5 * base.c[i];
		is_int(badv, 0, "%s %s: a = b + s*c", tag, k->name);
		is_int(k->flops_per_elem, 2, "%s %s: 2 FLOPs per element", tag, k->name);
	}
}

/* A peak kernel replayed: each accumulator element against the scalar model acc += k*m*a
 * per instruction (fp16: x = x*m + a), in values every format holds exactly. */
static void check_peak_kernel(const struct rt_peak_kernel *k)
{
	enum { STEPS = 7 };
	static unsigned char init[8192], out[8192];
	const size_t nacc = (size_t)k->chains * k->lanes;
	size_t bad = 0;

	memset(out, 0xff, sizeof(out));
	if (!strcmp(k->precision, "int8")) {
		int32_t *in = (int32_t *)(void *)init, *o = (int32_t *)(void *)out;

		for (size_t i = 0; i < nacc; i++)
			in[i] = (int32_t)(1000 + i);
		k->run(STEPS, init, 3, -2, out);    /* u8 3 (s8 for AMX) x s8 -2 */
		for (size_t i = 0; i < nacc; i++)
			bad += o[i] != (int32_t)(1000 + i) + STEPS * (int32_t)k->k * 3 * -2;
	} else if (!strcmp(k->precision, "fp16")) {
		_Float16 *in = (_Float16 *)(void *)init, *o = (_Float16 *)(void *)out;

		for (size_t i = 0; i < nacc; i++)
			in[i] = (_Float16)(float)(i % 16);
		k->run(STEPS, init, 1, 2, out);     /* x = x * 1 + 2 */
		for (size_t i = 0; i < nacc; i++)
			bad += (float)o[i] != (float)(i % 16) + 2.0f * STEPS;
	} else {
		float *in = (float *)(void *)init, *o = (float *)(void *)out;

		for (size_t i = 0; i < nacc; i++)
			in[i] = (float)(i % 64);
		k->run(STEPS, init, 0.5, 3, out);   /* bf16 0.5 x 3 */
		for (size_t i = 0; i < nacc; i++)
			bad += o[i] != (float)(i % 64) + (float)STEPS * (float)k->k * 1.5f;
	}
	is_int((long long)bad, 0, "%s (%s): %zu accumulators replayed against the scalar model",
	       k->name, k->isa, nacc);
}

/* The clock read on a CPU three spinning processes share with this one: each timed run that
 * waited for the CPU is left out, never a slower clock (it read 0.2-0.5 GHz when every run of
 * its budget waited). ghz: the reading beside no spinner (0: not known). */
static void clock_shared(double ghz)
{
	cpu_set_t one, before;
	pid_t spin[3];
	double shared;
	int cpu = sched_getcpu();

	if (ghz == 0 || cpu < 0 || sched_getaffinity(0, sizeof(before), &before)) {
		skip("the clock on a shared CPU: no clock to compare with, or no CPU to pin to");
		return;
	}
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	for (size_t k = 0; k < 3; k++)
		if ((spin[k] = fork()) == 0) {
			(void)sched_setaffinity(0, sizeof(one), &one);
			for (;;)
				;
		}
	(void)sched_setaffinity(0, sizeof(one), &one);
	shared = rt_kernel_clock_ghz(0.02);
	(void)sched_setaffinity(0, sizeof(before), &before);
	for (size_t k = 0; k < 3; k++)
		if (spin[k] > 0) {
			kill(spin[k], SIGKILL);
			waitpid(spin[k], NULL, 0);
		}
	ok(shared == 0 || shared > 0.5 * ghz, "the clock on a CPU 3 spinners share: %.2f GHz "
	   "(not known: 0), not a wait read as a slow clock (alone %.2f GHz)", shared, ghz);
}

int main(void)
{
	struct rt_measure_opts o;
	struct rt_measurement m;
	struct rt_err err;
	size_t nflops = 0, nbw = 0;

	for (const struct rt_kernel *k = rt_kernel_next(NULL); k; k = rt_kernel_next(k)) {
		if (!rt_isa_supported(k->isa)) {
			skip("%s %s %s: this CPU has no %s", k->name, rt_isa_name(k->isa),
			     rt_precision_name(k->prec), rt_isa_name(k->isa));
			continue;
		}
		if (k->kind == RT_KERNEL_FLOPS) {
			check_flops_kernel(k);
			nflops++;
		} else {
			check_bw_kernel(k);
			nbw++;
		}
	}
	ok(nflops >= 4 && nbw >= 5, "scalar/sse kernels run everywhere (%zu FLOP, %zu bandwidth)",
	   nflops, nbw);

	/* low-precision peaks: each instruction's operations as it defines them */
	{
		static const struct { const char *isa; unsigned ops; } want[] = {
			{ "avx512_bf16", 16 * 2 * 2 },          /* 16 fp32 lanes x 2 bf16 pairs */
			{ "amx_bf16", 16 * 16 * 32 * 2 },       /* C 16x16 += A 16x32 . B 32x16 */
			{ "avx512_fp16", 32 * 2 },              /* 32 fp16 FMAs */
			{ "avx512_vnni", 16 * 4 * 2 },          /* 16 int32 lanes x 4 u8.s8 */
			{ "avx_vnni", 8 * 4 * 2 },              /* ymm */
			{ "amx_int8", 16 * 16 * 64 * 2 },       /* C 16x16 += A 16x64 . B 64x16 */
		};
		size_t nk = 0, found = 0;

		for (const struct rt_peak_kernel *k = rt_peak_next(NULL); k; k = rt_peak_next(k)) {
			nk++;
			for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
				if (!strcmp(k->isa, want[i].isa)) {
					found++;
					is_int(k->ops_per_instr, want[i].ops, "%s (%s): %u operations "
					       "an instruction", k->name, k->isa, want[i].ops);
					is_int((long long)k->ops_per_iter,
					       (long long)k->chains * want[i].ops,
					       "%s: %u chains an iteration", k->name, k->chains);
				}
			if (k->supported())
				check_peak_kernel(k);
			else
				skip("%s: this CPU (or ROOFTRAJ_NO_ISA) has no %s", k->name, k->isa);
		}
		is_int((long long)found, (long long)nk, "every peak kernel has a hand count");
		/* a feature switched off is absent, whatever the CPU has */
		setenv("ROOFTRAJ_NO_ISA", "avx512_bf16,avx512_vnni,avx_vnni,avx512_fp16,amx_bf16,amx_int8",
		       1);
		nk = 0;
		for (const struct rt_peak_kernel *k = rt_peak_next(NULL); k; k = rt_peak_next(k))
			nk += k->supported();
		is_int((long long)nk, 0, "ROOFTRAJ_NO_ISA switches every peak kernel off");
		unsetenv("ROOFTRAJ_NO_ISA");
	}
	ok(rt_kernel_flops(RT_ISA_AVX512, RT_PRECISION_FP32) && rt_kernel_bw("triad_nt", RT_ISA_AVX2),
	   "lookups find kernels");
	ok(!rt_kernel_bw("stream", RT_ISA_SSE), "unknown kernel name not found");
	/* the bandwidth kernels, the same five for each ISA with any, the non-temporal ones
	 * last: the probe and the profile know them by this table alone */
	{
		static const char *const names[] = { "load", "copy", "triad", "copy_nt",
						     "triad_nt" };
		size_t kernels = 0, named = 0, nt_right = 0;

		for (const struct rt_kernel *k = rt_kernel_next(NULL); k; k = rt_kernel_next(k)) {
			int i;

			if (k->kind != RT_KERNEL_BANDWIDTH)
				continue;
			kernels++;
			i = rt_vocab_index(names, 5, k->name);
			named += i >= 0 && rt_kernel_bw(k->name, k->isa) == k;
			nt_right += i >= 0 && !!k->nt_bytes_per_elem == (i >= 3);
		}
		ok(kernels == 3 * 5 && named == kernels && nt_right == kernels,
		   "%zu bandwidth kernels, each of the five names (%zu), stores non-temporal "
		   "as its place there says (%zu)", kernels, named, nt_right);
	}

	/* when the harness stops repeating, from given rates (no clock involved) */
	{
		const struct rt_measure_opts so = { .min_runs = 5, .max_runs = 21,
						    .stable_tol = 0.005, .budget_seconds = 0.6 };
		/* the best 3 within 0.5%: done at the 5th run, not at the 4th (min_runs) */
		const double agree[] = { 90, 99.8, 100, 95, 99.7 };
		/* a noisy machine: the 5th run 1% past the best before it, then 3 runs below it */
		const double flat[] = { 90, 100, 80, 97, 101, 85, 96, 99 };
		/* the 5th run past the best before it, but by 0.4%: inside the tolerance */
		const double within[] = { 90, 100, 80, 97, 100.4 };
		/* still rising: the 5th run beat the best before it by 2% */
		const double rising[] = { 80, 100, 70, 90, 102, 60 };

		ok(!rt_measure_done(&so, agree, 4, 0.1), "4 runs: fewer than min_runs, not done");
		ok(rt_measure_done(&so, agree, 5, 0.1), "best 3 of 5 within 0.5%%: done");
		ok(!rt_measure_done(&so, flat, 5, 0.1),
		   "best 3 apart, the 5th run 1%% past the best of the first 4: not done");
		ok(!rt_measure_done(&so, flat, 7, 0.1), "the new best among the last 3 runs: not done");
		ok(rt_measure_done(&so, flat, 8, 0.1), "the best not beaten in the 3 runs after it: done");
		ok(rt_measure_done(&so, within, 5, 0.1),
		   "the last 3 runs beat the best before them by 0.4%%, inside 0.5%%: done");
		ok(!rt_measure_done(&so, rising, 6, 0.1),
		   "the best rose by 2%% in the last 3 runs: not done");
		ok(rt_measure_done(&so, rising, 6, 0.7), "past the budget: done");
		ok(rt_measure_done(&so, rising, 5, 0.7) && !rt_measure_done(&so, rising, 4, 0.7),
		   "the budget counts only from min_runs on");
		{
			struct rt_measure_opts two = so;

			two.max_runs = 2;
			ok(rt_measure_done(&two, rising, 2, 0), "max_runs reached: done");
		}
	}

	/* the harness: positive rates, coherent statistics, errors for bad working sets */
	rt_measure_opts_default(&o, true);
	{
		const struct rt_kernel *k = rt_kernel_flops(RT_ISA_SSE, RT_PRECISION_FP64);
		int rc = rt_kernel_measure_flops(k, 1, NULL, &o, &m, &err);

		is_int(rc, 0, "measure sse fp64 on 1 thread");
		ok(m.best > 0 && m.best >= m.median && m.runs >= o.min_runs && m.spread >= 0,
		   "best %.3g >= median %.3g, %u runs, spread %.3f", m.best, m.median, m.runs,
		   m.spread);
	}
	/* the share of their cores' time short measurements got, on every thread the node
	 * has: never past 100% (each thread's own clock, inside the window the clock times) */
	{
		const struct rt_kernel *k = rt_kernel_flops(RT_ISA_SSE, RT_PRECISION_FP32);
		const unsigned threads = (unsigned)omp_get_num_procs();
		struct rt_measure_opts shortrun = o;
		double most = 0, least = 2;
		int rc = 0;

		shortrun.min_run_seconds = 0.001;
		shortrun.min_runs = shortrun.max_runs = 2;
		for (int r = 0; r < 10 && !rc; r++) {
			rc = rt_kernel_measure_flops(k, threads, NULL, &shortrun, &m, &err);
			most = m.cpu_share > most ? m.cpu_share : most;
			least = m.cpu_share < least ? m.cpu_share : least;
		}
		ok(!rc && most <= 1.005 && least > 0, "10 measurements of 2 runs of 1 ms on %u "
		   "threads: %.1f%%..%.1f%% of their cores' time, none past 100%% (%s)", threads,
		   100 * least, 100 * most, rc ? err.msg : "");
	}
	{
		struct rt_arena *a = NULL;
		const struct rt_kernel *k = rt_kernel_bw("triad", RT_ISA_SSE);

		is_int(rt_arena_create(&a, 1, NULL, 1 << 20, &err), 0, "arena of 1 MiB");
		is_int(rt_kernel_measure_bw(k, a, 96 * 1024, &o, &m, &err), 0, "measure triad");
		ok(m.best > 0 && m.best >= m.median, "triad rate %.3g B/s", m.best);
		is_int(rt_kernel_measure_bw(k, a, 100, &o, &m, &err), -EINVAL, "tiny set rejected");
		like(err.msg, "too small", "says too small");
		is_int(rt_kernel_measure_bw(k, a, 8 << 20, &o, &m, &err), -EINVAL,
		       "set larger than the arena rejected");
		is_int((long long)rt_kernel_bw_elems(k, 24 * 1024), 1024,
		       "24 KiB over 3 arrays: 1024 elements each");
		rt_arena_destroy(a);
	}
	{
		/* mapped for 4 MiB, written to 256 KiB: past what was written is refused (an
		 * untouched page reads as the one zero page, a rate of no memory), then measured
		 * once touched */
		struct rt_arena *a = NULL;
		const struct rt_kernel *k = rt_kernel_bw("load", RT_ISA_SSE);

		is_int(rt_arena_create_partial(&a, 1, NULL, 4 << 20, 256 << 10, &err), 0,
		       "an arena of 4 MiB first-touched to 256 KiB");
		is_int(rt_kernel_measure_bw(k, a, 128 << 10, &o, &m, &err), 0,
		       "... a set inside what was touched measured");
		is_int(rt_kernel_measure_bw(k, a, 1 << 20, &o, &m, &err), -EINVAL,
		       "... one past it refused");
		like(err.msg, "first-touched", "... saying what was touched");
		is_int(rt_arena_touch(a, 2 << 20, &err), 0, "touched to 2 MiB");
		is_int(rt_kernel_measure_bw(k, a, 1 << 20, &o, &m, &err), 0, "... then measured");
		is_int(rt_kernel_measure_bw(k, a, 3 << 20, &o, &m, &err), -EINVAL,
		       "... and 3 MiB still refused");
		is_int(rt_arena_touch(a, 64 << 20, &err), 0, "touching past the mapping stops at it");
		is_int(rt_kernel_measure_bw(k, a, 4 << 20, &o, &m, &err), 0,
		       "... the whole arena measured");
		rt_arena_destroy(a);
	}
	{
		double ghz = rt_kernel_clock_ghz(0.02);

		/* 0: no timed run kept its CPU (other work took it from each): not known, said */
		if (ghz == 0)
			skip("clock: other work took the CPU from every timed run (not known)");
		else
			ok(ghz > 0.2 && ghz < 10, "clock %.2f GHz is plausible", ghz);
		clock_shared(ghz);
	}
	{
		struct rt_matmul_result r;
		int rc = rt_kernel_matmul_peak(RT_PRECISION_FP32, 1, NULL, true, &r, &err);

		if (rc == -ENOTSUP)
			skip("oneDNN fp32 matmul: %s", err.msg);
		else
			ok(rc == 0 && r.gflops > 0 && r.impl[0], "oneDNN fp32 matmul runs: %s %.1f",
			   r.impl, r.gflops);
	}
	return done_testing();
}
