/* harness.c: runs kernels on pinned OpenMP threads over first-touched buffers and times them:
 * calibrate the repetitions to a minimum run time, then repeat until the best runs agree. */
#define _GNU_SOURCE
#include "config.h"
#include "kernels/kernels.h"
#include "base/util.h"
#include "machine/busy.h"
#include "machine/topo.h"

#include <errno.h>
#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define MAX_RUNS 64
#define PAD_ELEMS 136   /* 1088 bytes between arrays: 64-byte aligned, never a multiple of 4 KiB */
#define SCRATCH_BYTES 16384     /* init/out of one FLOP kernel: up to 8 KiB (6 AMX tiles), twice */

void rt_measure_opts_default(struct rt_measure_opts *o, bool quick)
{
	o->min_run_seconds = quick ? 0.004 : 0.015;
	o->min_runs = quick ? 3 : 5;
	o->max_runs = quick ? 5 : 21;
	o->stable_tol = quick ? 0.02 : 0.005;
	o->budget_seconds = quick ? 0.08 : 0.6;
}

struct rt_arena {
	unsigned threads;
	int *pus;
	size_t bytes;           /* usable per thread */
	size_t map_bytes;       /* mapped per thread */
	size_t touched;         /* first-touched per thread, from the start: what is measured */
	double **buf;
};

static void init_values(double *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = 1.0 + 0.25 * (double)(i % 7);
}

/* Each pinned thread writes its own pages from touched to bytes (a page multiple, at most the
 * mapping), as it will use them. */
static int arena_touch(struct rt_arena *a, size_t bytes, struct rt_err *err)
{
	const size_t from = a->touched / sizeof(double), to = bytes / sizeof(double);
	const unsigned threads = a->threads;
	int *status = calloc(threads, sizeof(*status));
	int rc = 0;

	if (!status)
		return rt_err_set(err, -ENOMEM, "out of memory");
#pragma omp parallel num_threads(threads)
	{
		int tid = omp_get_thread_num();

		if ((unsigned)omp_get_num_threads() != threads)
			status[tid] = -EAGAIN;
		else
			status[tid] = rt_topo_bind_thread(a->pus[tid]) ? -EINVAL : 0;
		init_values(a->buf[tid] + from, to - from);
	}
	for (unsigned t = 0; t < threads && !rc; t++)
		if (status[t])
			rc = rt_err_set(err, status[t], status[t] == -EAGAIN ?
					"the OpenMP runtime gave fewer than %u threads" :
					"cannot pin thread to processing unit %d", status[t] == -EAGAIN ?
					(int)threads : a->pus[t]);
	free(status);
	if (!rc)
		a->touched = bytes;
	return rc;
}

/* The mapping that a working set of bytes per thread uses: its arrays and their pads. */
static size_t span(size_t bytes)
{
	return (bytes + 3 * PAD_ELEMS * sizeof(double) + 8191) & ~(size_t)4095;
}

int rt_arena_create_partial(struct rt_arena **out, unsigned threads, const int *pus,
			    size_t bytes_per_thread, size_t touch_bytes, struct rt_err *err)
{
	struct rt_arena *a = calloc(1, sizeof(*a));
	int rc = 0;

	if (!a || !threads)
		return rt_err_set(err, a ? -EINVAL : -ENOMEM, a ? "no threads" : "out of memory");
	a->threads = threads;
	a->bytes = bytes_per_thread;
	a->map_bytes = span(bytes_per_thread);
	a->pus = calloc(threads, sizeof(*a->pus));
	a->buf = calloc(threads, sizeof(*a->buf));
	if (!a->pus || !a->buf) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (unsigned t = 0; t < threads; t++) {
		void *p = mmap(NULL, a->map_bytes, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		a->pus[t] = pus ? pus[t] : -1;
		if (p == MAP_FAILED) {
			rc = rt_err_set(err, -ENOMEM, "cannot map %zu bytes for thread %u: %s",
					a->map_bytes, t, strerror(errno));
			goto out;
		}
		/* fewer TLB misses in large working sets, as a tuned STREAM build would have */
		if (a->map_bytes >= ((size_t)8 << 20))
			madvise(p, a->map_bytes, MADV_HUGEPAGE);
		a->buf[t] = p;
	}
	rc = rt_arena_touch(a, touch_bytes, err);
out:
	if (rc) {
		rt_arena_destroy(a);
		return rc;
	}
	*out = a;
	return 0;
}

int rt_arena_create(struct rt_arena **out, unsigned threads, const int *pus,
		    size_t bytes_per_thread, struct rt_err *err)
{
	return rt_arena_create_partial(out, threads, pus, bytes_per_thread, bytes_per_thread,
				       err);
}

int rt_arena_touch(struct rt_arena *a, size_t bytes_per_thread, struct rt_err *err)
{
	const size_t upto = span(bytes_per_thread < a->bytes ? bytes_per_thread : a->bytes);

	return upto > a->touched ? arena_touch(a, upto, err) : 0;
}

void rt_arena_destroy(struct rt_arena *a)
{
	if (!a)
		return;
	for (unsigned t = 0; a->buf && t < a->threads; t++)
		if (a->buf[t])
			munmap(a->buf[t], a->map_bytes);
	free(a->buf);
	free(a->pus);
	free(a);
}

size_t rt_kernel_bw_elems(const struct rt_kernel *k, size_t ws)
{
	size_t n = ws / (k->arrays * sizeof(double));

	return n - n % RT_BW_ELEM_ALIGN;
}

/* What one timed region runs: a FLOP kernel on per-thread scratch, or a bandwidth kernel on
 * per-thread arrays. */
struct job {
	const struct rt_kernel *k;
	unsigned threads;
	const int *pus;
	const struct rt_measure_opts *o;
	double work_per_rep;    /* FLOPs or bytes of one repetition, all threads */
	/* FLOP kernels */
	unsigned char *scratch; /* threads x SCRATCH_BYTES: init then out */
	double mul, add;
	/* bandwidth kernels */
	struct rt_arena *arena;
	size_t n;
	double *sink;           /* per thread: keeps every result alive */
	int *status;
};

static void run_one(const struct job *j, int tid, uint64_t reps)
{
	if (j->k->kind == RT_KERNEL_FLOPS) {
		unsigned char *s = j->scratch + (size_t)tid * SCRATCH_BYTES;

		j->k->flops(reps, s, j->mul, j->add, s + SCRATCH_BYTES / 2);
		j->sink[tid] += *(const double *)(const void *)(s + SCRATCH_BYTES / 2);
	} else {
		double *a = j->arena->buf[tid];
		double *b = a + j->n + PAD_ELEMS, *c = b + j->n + PAD_ELEMS;

		j->sink[tid] += j->k->bw(j->n, reps, a, b, c, 0.5);
	}
}

static int cmp_desc(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a < b) - (a > b);
}

/* Best 3 of the rates within tol of each other. */
static bool stable(const double *rates, unsigned n, double tol)
{
	double v[MAX_RUNS];

	if (n < 3)
		return false;
	memcpy(v, rates, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_desc);
	return v[0] - v[2] <= tol * v[0];
}

bool rt_measure_done(const struct rt_measure_opts *o, const double *rates, unsigned n,
		     double elapsed)
{
	unsigned max_runs = o->max_runs < MAX_RUNS ? o->max_runs : MAX_RUNS;
	double before = 0, last = 0;

	if (n >= max_runs)
		return true;
	if (n < o->min_runs)
		return false;
	if (stable(rates, n, o->stable_tol) || elapsed > o->budget_seconds)
		return true;
	if (n <= RT_MEASURE_NO_GAIN)
		return false;
	for (unsigned r = 0; r < n; r++) {
		double *b = r < n - RT_MEASURE_NO_GAIN ? &before : &last;

		if (rates[r] > *b)
			*b = rates[r];
	}
	return last <= before * (1 + o->stable_tol);
}

/* Every thread runs `reps` repetitions between barriers; the master starts the clock. Called
 * inside the parallel region (orphaned barriers bind to it). */
static void run_timed(const struct job *j, int tid, uint64_t reps, double *t0)
{
#pragma omp barrier
#pragma omp master
	*t0 = rt_now();
#pragma omp barrier
	run_one(j, tid, reps);
#pragma omp barrier
}

void rt_run_snap(struct rt_run_snap *s)
{
	rt_process_sched(&s->run, &s->delay);
	s->wall = rt_now();
}

double rt_run_waited(const struct rt_run_snap *a, const struct rt_run_snap *b, unsigned threads)
{
	const double dt = b->wall - a->wall;

	return dt > 0 && threads ? (b->delay - a->delay) / (dt * threads) : 0;
}

void rt_measurement_of_runs(struct rt_measurement *m, const double *rates, const double *waited,
			    unsigned nruns, double overall_share)
{
	double kept[MAX_RUNS], w[MAX_RUNS];
	unsigned nk = 0;

	m->disturbed_runs = 0;
	for (unsigned r = 0; r < nruns && r < MAX_RUNS; r++) {
		w[r] = waited[r];
		if (rt_busy_lost(waited[r]))
			m->disturbed_runs++;
		else
			kept[nk++] = rates[r];
	}
	if (!nk)                /* every run disturbed: the figures are theirs, and flagged */
		for (unsigned r = 0; r < nruns && r < MAX_RUNS; r++)
			kept[nk++] = rates[r];
	qsort(kept, nk, sizeof(*kept), cmp_desc);
	m->best = kept[0];
	m->spread = kept[0] - kept[nk - 1];
	m->median = rt_median(kept, nk);       /* sorts ascending in place */
	m->spread = m->median > 0 ? m->spread / m->median : 0;
	m->runs = nruns;
	m->cpu_share = overall_share;
	/* most runs waited: the time another process (or a quota) took, run by run */
	if (2 * m->disturbed_runs >= nruns && nruns) {
		double share = 1 - rt_median(w, nruns);

		if (share < m->cpu_share)
			m->cpu_share = share;
	}
}

/* Repetitions are calibrated on runs of up to CALIBRATE_SECONDS; a longer run (a sustained
 * one: 1 s and more) takes its repetitions from the calibrating run's rate, so that it costs
 * its own length and a little, not a calibrating run as long as itself. A long run that still
 * came out short is run again, longer: it lasts at least min_run_seconds. */
#define CALIBRATE_SECONDS 0.05
#define MAX_REPS ((uint64_t)1 << 50)

static uint64_t scaled(uint64_t reps, double f)
{
	double r = (double)reps * (f > 1 ? f : 1) + 1;

	return r >= (double)MAX_REPS ? MAX_REPS : (uint64_t)r;
}

static int timed(const struct job *j, struct rt_measurement *m, struct rt_err *err)
{
	const struct rt_measure_opts *o = j->o;
	const double calibrate = o->min_run_seconds < CALIBRATE_SECONDS ? o->min_run_seconds :
				 CALIBRATE_SECONDS;
	unsigned max_runs = o->max_runs < MAX_RUNS ? o->max_runs : MAX_RUNS, nruns = 0;
	double rates[MAX_RUNS], waited[MAX_RUNS], start = rt_now(), t0 = 0;
	struct rt_run_snap first, before, after;
	uint64_t reps = 1;
	bool calibrated = false, done = false;
	double *clk = calloc(2 * (size_t)j->threads, sizeof(*clk)), end = 0;

	if (!clk)
		return rt_err_set(err, -ENOMEM, "out of memory");

#pragma omp parallel num_threads(j->threads)
	{
		int tid = omp_get_thread_num();

		if ((unsigned)omp_get_num_threads() != j->threads)
			j->status[tid] = -EAGAIN;
		else if (rt_topo_bind_thread(j->pus ? j->pus[tid] : -1))
			j->status[tid] = -EINVAL;
		run_one(j, tid, 1);     /* warm-up: caches, TLB, the vector units' power state */
		while (!calibrated) {
			run_timed(j, tid, reps, &t0);
#pragma omp master
			{
				double dt = rt_now() - t0;

				if (reps >= MAX_REPS) {
					calibrated = true;
				} else if (dt >= calibrate) {
					/* a long run: the rate over the calibrating run, scaled */
					if (o->min_run_seconds > calibrate)
						reps = scaled(reps, 1.1 * o->min_run_seconds / dt);
					calibrated = true;
				} else {
					/* aim 20% past the target; at most 100x per step */
					double f = dt > 0 ? 1.2 * calibrate / dt : 100;

					f = f < 2 ? 2 : (f > 100 ? 100 : f);
					reps = scaled(reps, f);
				}
			}
#pragma omp barrier
		}
		/* each thread's CPU time on its own clock, inside the window the clock times */
#pragma omp master
		rt_run_snap(&first);
#pragma omp barrier
		clk[tid] = rt_thread_cpu();
		while (!done) {
#pragma omp master
			rt_run_snap(&before);
			run_timed(j, tid, reps, &t0);
#pragma omp master
			{
				double now = rt_now(), dt = now - t0;

				/* every thread is past the barrier, running: its schedstat is current */
				rt_run_snap(&after);
				if (o->min_run_seconds > calibrate && dt < o->min_run_seconds &&
				    reps < MAX_REPS) {
					/* a long run scaled from a short one came out short (the
					 * kernel sped up after calibrating): longer, again */
					reps = scaled(reps, 1.1 * o->min_run_seconds / (dt > 0 ? dt : 1e-9));
				} else {
					waited[nruns] = rt_run_waited(&before, &after, j->threads);
					rates[nruns++] = j->work_per_rep * (double)reps / (dt > 0 ? dt : 1e-9);
					if (nruns >= max_runs || rt_measure_done(o, rates, nruns, now - start))
						done = true;
				}
			}
#pragma omp barrier
		}
		clk[j->threads + (unsigned)tid] = rt_thread_cpu();
#pragma omp barrier
#pragma omp master
		end = rt_now();
	}
	for (unsigned t = 0; t < j->threads; t++)
		if (j->status[t]) {
			free(clk);
			return rt_err_set(err, j->status[t], j->status[t] == -EAGAIN ?
					  "the OpenMP runtime gave fewer than %u threads" :
					  "cannot pin thread %u to its processing unit",
					  j->status[t] == -EAGAIN ? j->threads : t);
		}
	{
		/* threads spinning at a barrier count too: only time taken by someone else
		 * lowers the share */
		const double wall = end - first.wall;
		double cpu = 0;

		for (unsigned t = 0; t < j->threads; t++)
			cpu += clk[j->threads + t] - clk[t];
		rt_measurement_of_runs(m, rates, waited, nruns, wall > 0 ?
				       cpu / (wall * j->threads) : 1);
		m->reps = reps;
		m->seconds = rt_now() - start;
	}
	free(clk);
	return 0;
}

/* Run a FLOP job: per-thread scratch whose accumulators start at 1.0 (doubles for fp64, else
 * the bits of 1.0f), timed, freed. */
static int time_flops(struct job *j, bool fp64, struct rt_measurement *m, struct rt_err *err)
{
	int rc;

	j->scratch = calloc(j->threads, SCRATCH_BYTES);
	j->sink = calloc(j->threads, sizeof(*j->sink));
	j->status = calloc(j->threads, sizeof(*j->status));
	if (!j->scratch || !j->sink || !j->status) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (unsigned t = 0; t < j->threads; t++) {
		unsigned char *s = j->scratch + (size_t)t * SCRATCH_BYTES;

		if (fp64)
			for (unsigned i = 0; i < SCRATCH_BYTES / 2 / sizeof(double); i++)
				((double *)(void *)s)[i] = 1.0;
		else
			for (unsigned i = 0; i < SCRATCH_BYTES / 2 / sizeof(float); i++)
				((float *)(void *)s)[i] = 1.0f;
	}
	rc = timed(j, m, err);
out:
	free(j->scratch);
	free(j->sink);
	free(j->status);
	return rc;
}

int rt_kernel_measure_flops(const struct rt_kernel *k, unsigned threads, const int *pus,
			    const struct rt_measure_opts *o, struct rt_measurement *m,
			    struct rt_err *err)
{
	struct job j = {
		.k = k, .threads = threads, .pus = pus, .o = o,
		.work_per_rep = (double)k->flops_per_iter * threads,
		/* fused: x = x*(1-2^-20) + 2^-20 stays at 1; unfused: x*1 and x + 2^-20 stay finite
		 * and normal for any run length (no denormal slow paths) */
		.mul = k->fused ? 1.0 - 0x1p-20 : 1.0, .add = 0x1p-20,
	};

	if (k->kind != RT_KERNEL_FLOPS)
		return rt_err_set(err, -EINVAL, "'%s' is not a FLOP kernel", k->name);
	if (!rt_isa_supported(k->isa))
		return rt_err_set(err, -ENOTSUP, "this CPU cannot run %s code", rt_isa_name(k->isa));
	return time_flops(&j, k->prec == RT_PRECISION_FP64, m, err);
}

int rt_kernel_measure_peak(const struct rt_peak_kernel *k, unsigned threads, const int *pus,
			   const struct rt_measure_opts *o, struct rt_measurement *m,
			   struct rt_err *err)
{
	/* the harness runs it as a FLOP kernel; accumulators start at the bits of 1.0f (fp16:
	 * two 1.0f halves), m = a = 2^-10: every product is a normal number far below an ulp
	 * of the accumulator, so the values stay put (int8: m and a are 0) */
	const struct rt_kernel as_flops = {
		.name = k->name, .kind = RT_KERNEL_FLOPS, .flops_per_iter = k->ops_per_iter,
		.flops = k->run,
	};
	struct job j = {
		.k = &as_flops, .threads = threads, .pus = pus, .o = o,
		.work_per_rep = (double)k->ops_per_iter * threads, .mul = 0x1p-10, .add = 0x1p-10,
	};

	if (!k->supported())
		return rt_err_set(err, -ENOTSUP, "this CPU cannot run %s (%s)", k->name, k->isa);
	if ((size_t)k->chains * k->lanes * k->acc_bytes > SCRATCH_BYTES / 2)
		return rt_err_set(err, -EINVAL, "%s: accumulators larger than the scratch", k->name);
	return time_flops(&j, false, m, err);
}

int rt_kernel_measure_bw(const struct rt_kernel *k, struct rt_arena *arena, size_t ws_per_thread,
			 const struct rt_measure_opts *o, struct rt_measurement *m,
			 struct rt_err *err)
{
	struct job j = { .k = k, .threads = arena->threads, .pus = arena->pus, .o = o,
			 .arena = arena };
	int rc;

	if (k->kind != RT_KERNEL_BANDWIDTH)
		return rt_err_set(err, -EINVAL, "'%s' is not a bandwidth kernel", k->name);
	if (!rt_isa_supported(k->isa))
		return rt_err_set(err, -ENOTSUP, "this CPU cannot run %s code", rt_isa_name(k->isa));
	j.n = rt_kernel_bw_elems(k, ws_per_thread);
	if (!j.n)
		return rt_err_set(err, -EINVAL, "working set of %zu bytes is too small for '%s'",
				  ws_per_thread, k->name);
	/* what is measured was written: an untouched page reads as the one zero page */
	if ((j.n + PAD_ELEMS) * k->arrays * sizeof(double) > arena->touched)
		return rt_err_set(err, -EINVAL, "working set of %zu bytes exceeds the arena's %zu "
				  "(%zu first-touched)", ws_per_thread, arena->bytes,
				  arena->touched);
	j.work_per_rep = (double)j.n * rt_kernel_bytes_per_elem(k) * arena->threads;
	j.sink = calloc(arena->threads, sizeof(*j.sink));
	j.status = calloc(arena->threads, sizeof(*j.status));
	if (!j.sink || !j.status)
		rc = rt_err_set(err, -ENOMEM, "out of memory");
	else
		rc = timed(&j, m, err);
	free(j.sink);
	free(j.status);
	return rc;
}

/* 64 dependent register-register adds per iteration: 64 cycles on any x86 core (1-cycle add
 * latency). Register operands, not immediates: Golden Cove folds add-immediate chains at rename. */
static uint64_t add_chain(uint64_t iters)
{
	uint64_t x = 0, one = 1;

	__asm__ __volatile__("1:\n\t"
			     ".rept 64\n\t"
			     "add %2, %0\n\t"
			     ".endr\n\t"
			     "sub $1, %1\n\t"
			     "jnz 1b"
			     : "+r"(x), "+r"(iters)
			     : "r"(one)
			     : "cc");
	return x;
}

/* This thread's CPU time in seconds (steal time left out where the kernel accounts it). */
static double thread_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double rt_kernel_clock_ghz(double seconds)
{
	uint64_t iters = 1000;
	double best = 0, t0, dt, start = rt_now();

	/* calibrate to about a tenth of the budget, a millisecond at most (a run shorter than a
	 * scheduler's slice keeps its CPU on a shared one), then keep the fastest of the runs;
	 * past the budget until one kept its CPU, up to RT_CLOCK_WAIT_MAX budgets */
	for (;;) {
		t0 = rt_now();
		add_chain(iters);
		dt = rt_now() - t0;
		if (dt > fmin(seconds / 10, 0.001) || iters > ((uint64_t)1 << 40))
			break;
		iters *= 2;
	}
	while (rt_now() - start < (best > 0 ? 1 : RT_CLOCK_WAIT_MAX) * seconds) {
		double ghz, c0 = thread_cpu_s(), dc;

		t0 = rt_now();
		if (add_chain(iters) != iters * 64)
			return 0;
		dt = rt_now() - t0;
		dc = thread_cpu_s() - c0;
		/* a run this thread was taken off its CPU for (another process, the hypervisor's
		 * steal) timed the wait too: not the clock */
		if (dc < RT_CLOCK_OWN_MIN * dt)
			continue;
		ghz = dt > 0 ? 64.0 * (double)iters / dt / 1e9 : 0;
		if (ghz > best)
			best = ghz;
	}
	return best;
}
