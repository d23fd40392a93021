/* kernels.h: microbenchmark kernels (FLOP chains, streaming bandwidth), their accounting, and the
 * timed OpenMP harness that runs them pinned and first-touched */
#ifndef RT_KERNELS_H
#define RT_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/err.h"
#include "base/vocab.h"         /* enum rt_isa and its names */

/* The precisions of the FLOP kernels: enum rt_precision's first two (fp64, fp32). */
#define RT_KERNEL_NPRECISIONS 2

/* Whether this CPU (and the OS, for the wide registers) can run code of the ISA. */
bool rt_isa_supported(enum rt_isa isa);
/* Vector width in bytes: 8 (scalar), 16, 32, 64. */
unsigned rt_isa_bytes(enum rt_isa isa);

enum rt_kernel_kind { RT_KERNEL_FLOPS, RT_KERNEL_BANDWIDTH };

/* A FLOP kernel runs `iters` loop iterations of independent chains seeded from init[] and writes
 * the final chain values to out[]: chains*lanes elements of the kernel's precision.
 * Each chain element follows x = fma(x, mul, add) (fused kernels) or, for unfused kernels, the
 * first half of the chains x = x * mul and the second half x = x + add. */
typedef void (*rt_flops_fn)(uint64_t iters, const void *init, double mul, double add, void *out);

/* A bandwidth kernel makes `reps` sweeps over n doubles of a, b, c (n a multiple of
 * RT_BW_ELEM_ALIGN) and returns a value that depends on every element read (load) or a[0]. */
typedef double (*rt_bw_fn)(size_t n, uint64_t reps, double *a, double *b, double *c, double s);

#define RT_BW_ELEM_ALIGN 128    /* elements: 1 KiB, a multiple of every unroll (16 zmm) */

struct rt_kernel {
	const char *name;               /* "fma", "mul_add", "load", "copy", "triad", ... */
	enum rt_kernel_kind kind;
	enum rt_isa isa;
	enum rt_precision prec;
	/* FLOP kernels */
	unsigned chains;                /* independent dependency chains (vector registers) */
	unsigned lanes;                 /* elements per register */
	bool fused;                     /* FMA (2 FLOPs per lane and op) or separate mul and add */
	uint64_t flops_per_iter;        /* per loop iteration, all chains and lanes */
	rt_flops_fn flops;
	/* bandwidth kernels, per element of n: bytes as the code moves them, no write-allocate */
	unsigned arrays;                /* arrays the kernel touches (a; a,b; a,b,c) */
	unsigned flops_per_elem;
	unsigned read_bytes_per_elem;
	unsigned write_bytes_per_elem;  /* regular stores */
	unsigned nt_bytes_per_elem;     /* non-temporal stores */
	rt_bw_fn bw;
};

/* Iterate over every kernel compiled in: pass NULL first, then the previous kernel; returns NULL
 * after the last. The kernels are static and immutable. The bandwidth kernels are named only
 * here: the same for each ISA, in the same order (load, copy, triad, then copy_nt and triad_nt,
 * which store non-temporally), the list the probe measures and a profile's kernels are of. */
const struct rt_kernel *rt_kernel_next(const struct rt_kernel *k);
/* The FLOP kernel for (isa, prec), or NULL. */
const struct rt_kernel *rt_kernel_flops(enum rt_isa isa, enum rt_precision prec);
/* The bandwidth kernel by name for isa, or NULL. */
const struct rt_kernel *rt_kernel_bw(const char *name, enum rt_isa isa);
/* Total bytes a bandwidth kernel moves per element (read + write + nt). */
unsigned rt_kernel_bytes_per_elem(const struct rt_kernel *k);

/* Low-precision peak kernels: independent chains of one dot-product or FMA instruction of an
 * ISA extension (kernels/peaks.c). Each lane of each chain does acc += k * m * a per
 * instruction (fp16: x = x * m + a), m and a converted to the operand type (bf16, fp16, u8 and
 * s8); an instruction's operations are 2 * lanes * k, as the instruction defines them. */
struct rt_peak_kernel {
	const char *name;               /* the instruction: "vdpbf16ps", "tdpbf16ps", ... */
	const char *isa;                /* "avx512_bf16", "amx_bf16", "avx512_fp16",
					 * "avx512_vnni", "avx_vnni", "amx_int8" */
	const char *precision;          /* "bf16", "fp16", "int8" */
	unsigned chains;                /* independent accumulators (registers or tiles) */
	unsigned lanes;                 /* accumulator elements an instruction writes */
	unsigned k;                     /* products summed into each of them */
	unsigned acc_bytes;             /* an accumulator element: 4 (fp32, int32), 2 (fp16) */
	unsigned width_bits;            /* the vector width (0: AMX tiles) */
	unsigned ops_per_instr;         /* 2 * lanes * k: FLOPs, or OPs for int8 */
	uint64_t ops_per_iter;          /* all chains */
	rt_flops_fn run;                /* init, out: chains * lanes accumulators, packed */
	bool (*supported)(void);        /* this CPU and OS (and not masked by ROOFTRAJ_NO_ISA) */
};

/* Iterate over the peak kernels compiled in: NULL first, then the previous; NULL after the
 * last. */
const struct rt_peak_kernel *rt_peak_next(const struct rt_peak_kernel *k);

/* ---- the timed harness ---- */

struct rt_measure_opts {
	double min_run_seconds;         /* each timed run lasts at least this long */
	unsigned min_runs, max_runs;    /* timed runs after calibration and warm-up */
	double stable_tol;              /* stop when the best 3 runs agree within this fraction,
					 * or when RT_MEASURE_NO_GAIN runs in a row raised the best
					 * by no more than it */
	double budget_seconds;          /* stop repeating past this (after min_runs) */
};

/* Default options, or the coarse ones of --quick. */
void rt_measure_opts_default(struct rt_measure_opts *o, bool quick);

/* Runs in a row that must leave the best where it was (within stable_tol) to stop. */
#define RT_MEASURE_NO_GAIN 3

/* Whether a measurement of n runs (rates in run order, elapsed seconds so far) is done: n
 * reached max_runs, or, from min_runs on, the best 3 runs agree within stable_tol, the last
 * RT_MEASURE_NO_GAIN runs did not beat the best before them by more than stable_tol (the best,
 * which the ceiling is, has stopped moving: more runs add only the machine's noise), or the
 * budget is spent. */
bool rt_measure_done(const struct rt_measure_opts *o, const double *rates, unsigned n,
		     double elapsed);

struct rt_measurement {
	double best;                    /* best rate over runs (FLOP/s or byte/s) */
	double median;                  /* median rate */
	double spread;                  /* (max - min) / median of the rates */
	unsigned runs;
	uint64_t reps;                  /* iterations or sweeps per run */
	double seconds;                 /* wall time spent, calibration included */
	double cpu_share;               /* the process's CPU time over threads x wall time while
					 * measuring, or, where most runs waited for a CPU (the
					 * threads' schedstat run delay), the runs' median share:
					 * below 1 - RT_BUSY_LOST_MAX (machine/busy.h), another
					 * process (or a CPU quota) took the cores' time */
	unsigned disturbed_runs;        /* timed runs whose threads waited for a CPU more than
					 * RT_BUSY_LOST_MAX of their time: left out of best, median
					 * and spread (unless every run was) */
};

/* What a run's threads got: take a snapshot before and after (its threads' run time and run
 * delay, the clock). */
struct rt_run_snap {
	double run, delay, wall;
};
void rt_run_snap(struct rt_run_snap *s);
/* The share of threads x wall time between two snapshots the threads waited for a CPU (0
 * where the kernel has no schedstat). */
double rt_run_waited(const struct rt_run_snap *a, const struct rt_run_snap *b, unsigned threads);
/* The figures of a measurement from its runs' rates and waits, the best, median and spread
 * over the undisturbed runs (all of them when every run was disturbed), and cpu_share:
 * overall, the process's CPU time over threads x wall time from first to last. */
void rt_measurement_of_runs(struct rt_measurement *m, const double *rates, const double *waited,
			    unsigned nruns, double overall_share);

/* Per-thread buffers, allocated once (mmap, untouched) and first-touched by the thread, pinned,
 * that will use them. pus: OS PU index per thread or NULL / -1 for no binding. */
struct rt_arena;
int rt_arena_create(struct rt_arena **out, unsigned threads, const int *pus,
		    size_t bytes_per_thread, struct rt_err *err);
/* The same, mapped for bytes_per_thread but first-touched to touch_bytes only: the rest
 * waits for rt_arena_touch (a working set past what was touched is refused). */
int rt_arena_create_partial(struct rt_arena **out, unsigned threads, const int *pus,
			    size_t bytes_per_thread, size_t touch_bytes, struct rt_err *err);
/* First-touch the arena to bytes_per_thread (at most what it was created for), each thread
 * pinned as at its creation; nothing when it was touched so far already. */
int rt_arena_touch(struct rt_arena *a, size_t bytes_per_thread, struct rt_err *err);
void rt_arena_destroy(struct rt_arena *a);

/* Run FLOP kernel k on `threads` threads and report the FLOP rate. */
int rt_kernel_measure_flops(const struct rt_kernel *k, unsigned threads, const int *pus,
			    const struct rt_measure_opts *o, struct rt_measurement *m,
			    struct rt_err *err);

/* Run peak kernel k on `threads` threads and report its rate (FLOP/s or OP/s). */
int rt_kernel_measure_peak(const struct rt_peak_kernel *k, unsigned threads, const int *pus,
			   const struct rt_measure_opts *o, struct rt_measurement *m,
			   struct rt_err *err);

/* Run bandwidth kernel k on every arena thread over a working set of ws_per_thread bytes (all
 * arrays together) and report the byte rate (all threads). */
int rt_kernel_measure_bw(const struct rt_kernel *k, struct rt_arena *arena, size_t ws_per_thread,
			 const struct rt_measure_opts *o, struct rt_measurement *m,
			 struct rt_err *err);

/* Elements per array for a working set of ws bytes over the kernel's arrays. */
size_t rt_kernel_bw_elems(const struct rt_kernel *k, size_t ws);

/* Measure the core clock with a chain of dependent integer adds (1 cycle each on every x86
 * core), the fastest of timed runs in which this thread kept its CPU (its CPU time at least
 * RT_CLOCK_OWN_MIN of the wall time: a run it waited through reads a slower clock); returns
 * GHz, or 0 when the measurement failed or no run kept its CPU in RT_CLOCK_WAIT_MAX times
 * the seconds given (the clock not known). */
#define RT_CLOCK_OWN_MIN 0.95
#define RT_CLOCK_WAIT_MAX 20
double rt_kernel_clock_ghz(double seconds);

/* ---- low-precision and reference peaks through oneDNN matmul ---- */

struct rt_matmul_result {
	double gflops;                  /* GFLOP/s (GOP/s for int8), best of runs */
	double median, spread;
	double cpu_share;               /* as struct rt_measurement's */
	unsigned disturbed_runs;
	char impl[128];                 /* oneDNN's implementation name, "brg:avx512_core_amx" */
};

/* Run an M=N=K matmul of the type (fp32, bf16, fp16, int8) on `threads` threads; -ENOTSUP
 * when oneDNN has no implementation of that type for this CPU, or the type is none of those
 * (err says so). */
int rt_kernel_matmul_peak(enum rt_precision t, unsigned threads, const int *pus, bool quick,
			  struct rt_matmul_result *res, struct rt_err *err);

#endif
