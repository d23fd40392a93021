/* probe.h: characterize a node: clock, bandwidth curve, memory levels, FLOP and bandwidth
 * ceilings per thread count, low-precision peaks; the result is a machine profile */
#ifndef RT_PROBE_H
#define RT_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include "base/err.h"
#include "kernels/kernels.h"
#include "node/profile.h"
#include "machine/topo.h"

#define RT_PROBE_MAX_THREADS_LIST 64

/* A ceiling moved since the node's previous profile when it changed by more than this
 * fraction and more than its runs' spread (rt_profile_compare): the 16-core node
 * moved 30-60% between probes; its quiet ceilings repeat within a few percent. */
#define RT_PROBE_MOVE_TOL 0.05

/* The rounds of a ceiling disagree beyond this fraction: the node is called unstable
 * (rt_profile_judge_rounds). */
#define RT_PROBE_ROUND_TOL 0.05

/* Progress reports (the library never prints): a short line, no newline. */
typedef void (*rt_progress_fn)(void *ctx, const char *msg);

struct rt_probe_opts {
	bool quick;                     /* coarse and fast: a few seconds */
	unsigned threads[RT_PROBE_MAX_THREADS_LIST];
	size_t nthreads;                /* 0: rt_probe_topo_threads() */
	unsigned isa_mask;              /* bit (1u << enum rt_isa); 0: every supported ISA */
	bool no_curve;                  /* skip the curve: levels from hwloc alone */
	bool no_lowp;                   /* skip the oneDNN matmul peaks */
	const char *host;               /* NULL: gethostname() */
	double sustain_seconds;         /* > 0: a sustained run of this length of each headline
					 * ceiling (fp64, fp32 peaks; DRAM bandwidth) at the most
					 * threads, into the profile's sustained list */
	rt_progress_fn progress;
	void *progress_ctx;
};

/* Default thread counts of a threads sweep for a topology: 1, then powers of two below the core
 * count, then all cores. Returns how many were written (at most cap). */
size_t rt_probe_default_threads(const struct rt_topo *topo, unsigned *list, size_t cap);

/* The probe's thread counts for a topology, each a step the node's structure adds: 1, half a
 * socket's cores, a socket's cores, all cores (duplicates dropped: 1, 2 on two cores of one
 * socket; 1, 8, 16 on 16; 1, 32, 64, 128 on two sockets of 64), not every power of two: the
 * probe's cost grows with what each count tells. One core's SMT siblings are left out: the
 * compact placement puts a thread on every core before a second on any. Returns how many
 * were written (at most cap). */
size_t rt_probe_topo_threads(const struct rt_topo *topo, unsigned *list, size_t cap);

/* Each FLOP ceiling's theoretical peak: threads x the measured clock (p->cpu.clock_ghz) x the
 * operations a core starts per cycle for its instructions (oneDNN's achievable rates have
 * none). A clock that a ceiling outran by more than RT_PROBE_CLOCK_SLACK (a reading the vCPU
 * was taken away during, unseen: no steal time accounted) is not known: the clock 0, no
 * theoretical peaks, and a note in p says why. */
#define RT_PROBE_CLOCK_SLACK 1.25
void rt_probe_set_theoretical(struct rt_profile *p);

/* After rt_probe_set_theoretical: a 1-thread ceiling of the probe's own chains (fma-chains,
 * mul-add-chains) under RT_PROBE_FAR_UNDER of its theoretical peak is flagged, with a
 * warning: they run at 54-98% of it on a core of their own (the 16-core Emerald Rapids, this
 * project's Sapphire Rapids guest), and a guest once measured 26% there with nothing seen (no
 * busy CPU, no steal time, its rounds agreeing): the roof falls back to the theoretical peak. */
#define RT_PROBE_FAR_UNDER 0.4
void rt_probe_check_theoretical(struct rt_profile *p);

/* Bandwidth ceilings that cannot be right as they stand, flagged with a warning each: one at N
 * threads under 90% of its 1-thread value, one under 90% of the same kernel further out, a copy
 * or triad under RT_PROBE_STORES_UNDER of its level's load at as many threads (they run at
 * 54-151% of it on the nodes measured; a guest once measured L1 copy at 8%, nothing seen). */
#define RT_PROBE_STORES_UNDER 0.25
void rt_probe_check_bw(struct rt_profile *p);

/* Run the probe on this machine's topology. Caller owns *out (rt_profile_destroy). Problems
 * that do not stop the probe (an ISA oneDNN cannot run, hwloc and the curve disagreeing) become
 * notes in the profile. */
int rt_probe_run(struct rt_profile **out, const struct rt_topo *topo,
		 const struct rt_probe_opts *o, struct rt_err *err);

/* A second look at one ceiling of a profile this probe made (a cluster ceiling's name: "flops
 * fp64 avx2", "bw L3") at a thread count: its short runs (every trusted entry: each kernel,
 * method and working set) or its sustained run measured again, as the probe measured them, and
 * the better of the two runs kept; a note in p says both, with `why` (the cluster's finding):
 * a node is called slow only when two looks say so. A second run that another process
 * disturbed (measured twice and still disturbed) flags the ceiling instead: reported, not
 * ranked, since nothing confirmed the first look. 0, or err. */
int rt_probe_again(struct rt_profile *p, const struct rt_topo *topo,
		   const struct rt_probe_opts *o, const char *ceiling, unsigned threads,
		   bool sustained, const char *why, struct rt_err *err);

#endif
