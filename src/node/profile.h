/* profile.h: the machine profile (libconfig), the contract between roofline-probe and
 * roofline-train: the node's FLOP and bandwidth ceilings and where its memory levels end */
#ifndef RT_PROFILE_H
#define RT_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "machine/cpu.h"
#include "base/err.h"
#include "counters/pmu.h"

#define RT_PROFILE_FORMAT 1

struct rt_profile_cache {
	int level;
	uint64_t size;          /* one instance, bytes, as its source gives it */
	unsigned line, shared_by, count;
	char source[8];         /* "hwloc" (sysfs), "cpuid", "curve" (the measured plateau's end);
				 * "" in a profile older than the key: hwloc's */
};

/* Where a memory level ends: each source's size against the measured bandwidth curve. */
struct rt_profile_level {
	char level[8];          /* L1 L2 L3 DRAM */
	uint64_t hwloc_size;    /* per instance, hwloc's (sysfs); 0 for DRAM or where it names none */
	uint64_t measured_size; /* where the curve drops out of this level; 0 if not seen */
	bool agrees;            /* measured within a factor 2 of its source's size */
	uint64_t cpuid_size;    /* per instance, CPUID's; 0 where it names none */
	char source[8];         /* who named the level: "hwloc", "cpuid" or "curve" ("" DRAM) */
};

/* What a node's ceilings can be, GFLOP/s (GOP/s) or GB/s: from 1 MFLOP/s to 10 PFLOP/s; a
 * profile outside is corrupt (its FILE:LINE named). A flagged ceiling (a disturbed reading,
 * never used as a roof) may be any positive rate below the maximum. */
#define RT_PROFILE_RATE_MIN 1e-3
#define RT_PROFILE_RATE_MAX 1e7

/* A ceiling's rounds: measured again in rounds spread over the probe's run, not back to back,
 * so that a node whose ceilings wander (a shared, virtualized host) shows it. */
#define RT_PROFILE_MAX_ROUNDS 8

struct rt_profile_flops {
	char precision[8];      /* fp64 fp32 bf16 fp16 int8 */
	char isa[32];           /* scalar sse avx2 avx512 for kernels; amx, ... for matmul */
	unsigned threads;
	double gflops;          /* the ceiling: best of the runs (GOP/s for int8) */
	double median, spread;  /* of the runs; spread = (max - min) / median */
	char method[16];        /* fma-chains, mul-add-chains, instruction (a low-precision
				 * instruction's chains), onednn-matmul (achievable by oneDNN) */
	char impl[64];          /* the instruction, or oneDNN's implementation for matmul peaks */
	double theoretical;     /* GFLOP/s: threads x clock x operations a core starts per cycle
				 * (rt_cpu_ops_per_cycle); 0: none (oneDNN's rates) */
	char flag[512];         /* "": trusted; else why it cannot be (measured twice, still
				 * disturbed: "busy: ...", "below its 1-thread value ...") */
	double rounds[RT_PROFILE_MAX_ROUNDS];   /* the best of each round, spread over the
						 * probe's run (the first: the ceiling's own
						 * runs); "rounds" in the file, optional */
	unsigned nrounds;
};

struct rt_profile_bw {
	char level[8];          /* L1 L2 L3 DRAM */
	char kernel[16];        /* load copy triad copy_nt triad_nt */
	char isa[16];
	unsigned threads;
	double gbytes_per_s;    /* best of the runs; bytes as the kernel moves them */
	double median, spread;
	uint64_t working_set;   /* bytes, all threads and arrays together */
	char flag[512];         /* "": trusted; else why not (see rt_profile_flops) */
	double rounds[RT_PROFILE_MAX_ROUNDS];   /* as rt_profile_flops' rounds, GB/s */
	unsigned nrounds;
};

/* A sustained run of a headline ceiling: the same kernel for seconds, one run, its average
 * rate: what a user gets over time, a CPU quota or thermal throttling included (the best of
 * short runs can fit between a quota's pauses): the node's own limits are what it is. Only
 * another process taking its cores' time flags it (busy: not the node's figure). */
struct rt_profile_sustained {
	char name[48];          /* "flops fp64 avx512", "bw DRAM" (a cluster ceiling's name) */
	char kernel[16];        /* the kernel: fma, mul_add, or a bandwidth kernel */
	unsigned threads;
	double value;           /* GFLOP/s or GB/s over the run */
	double seconds;         /* the run lasted at least this long */
	char flag[512];         /* "": the node's; else why not ("busy: ...") */
};

struct rt_profile_point {
	uint64_t working_set;
	double gbytes_per_s;
};

struct rt_profile {
	int format;
	char host[256], created[32], tool[64];
	/* the oneDNN the probe ran with (its matmul ceilings): "3.2.0" and its CPU runtime
	 * ("OpenMP"); "" in a profile that does not say */
	char onednn[32], onednn_runtime[16];
	struct {
		char model[128];
		char vendor[16];        /* cpuinfo's vendor_id ("" unknown) */
		int family;             /* cpuinfo's cpu family (0 unknown) */
		char isa[RT_CPU_MAX_ISA][16];
		size_t nisa;
		unsigned sockets, cores, pus, numa_nodes;
		double clock_ghz;       /* measured (dependent adds); 0 if unknown */
		uint64_t memory;        /* bytes available when probed */
	} cpu;
	struct rt_profile_cache *caches;
	size_t ncaches, caches_cap;
	struct rt_profile_level *levels;
	size_t nlevels, levels_cap;
	struct rt_profile_flops *flops;
	size_t nflops, flops_cap;
	struct rt_profile_bw *bw;
	size_t nbw, bw_cap;
	struct rt_profile_point *curve; /* bandwidth against working set, ascending */
	size_t ncurve, curve_cap;
	char curve_kernel[16], curve_isa[16];
	unsigned curve_threads;
	struct rt_profile_sustained *sustained;
	size_t nsustained, sustained_cap;
	char (*notes)[256];             /* what the probe found beside its figures */
	size_t nnotes, notes_cap;
	bool *notes_warns;              /* per note: a warning, or a plain statement (the
					 * node called stable, nothing moved) */
	size_t warns_cap;
	/* the node's hardware counters as the probe found them (its date: created) */
	struct rt_pmu_record counters;
	bool has_counters;
};

/* An empty profile (format set). Caller owns; free with rt_profile_destroy(). */
int rt_profile_create(struct rt_profile **out, struct rt_err *err);
void rt_profile_destroy(struct rt_profile *p);

/* Append copies of entries; -ENOMEM on failure. */
int rt_profile_add_cache(struct rt_profile *p, const struct rt_profile_cache *c);
int rt_profile_add_level(struct rt_profile *p, const struct rt_profile_level *l);
int rt_profile_add_flops(struct rt_profile *p, const struct rt_profile_flops *f);
int rt_profile_add_bw(struct rt_profile *p, const struct rt_profile_bw *b);
int rt_profile_add_point(struct rt_profile *p, const struct rt_profile_point *pt);
int rt_profile_add_sustained(struct rt_profile *p, const struct rt_profile_sustained *s);
/* A note that warns, or (warns false) states what was found and warns of nothing: the probe
 * prints it without "warning:"; kept among the notes as any other. */
int rt_profile_add_note_kind(struct rt_profile *p, bool warns, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A note that warns (most of them). */
#define rt_profile_add_note(p, ...) rt_profile_add_note_kind((p), true, __VA_ARGS__)
/* Whether note i warns (everything but a statement). */
bool rt_profile_note_warns(const struct rt_profile *p, size_t i);

/* A host's default profile path: machine-profiles/HOST.cfg (relative to the current
 * directory), HOST the host name (NULL: this host's) as a safe file name (rt_safe_name_map:
 * never a path, a '/' or a leading '.'). False when the name had to be mapped: note then says
 * so (NULL: not said). */
bool rt_profile_default_path(char *buf, size_t size, const char *host, char *note,
			     size_t notesize);

/* Read a profile; every malformed entry is an error "FILE:LINE: what is wrong". */
int rt_profile_load(struct rt_profile **out, const char *path, struct rt_err *err);
/* Write a profile atomically (PATH.tmp, then rename); doubles as %.17g, so a load gives back
 * the same bits. */
int rt_profile_save(const struct rt_profile *p, const char *path, struct rt_err *err);

/* The highest FLOP ceiling of a precision at a thread count (0 threads: any), or NULL;
 * flagged ceilings (disturbed, out of order) are never a bound. */
const struct rt_profile_flops *rt_profile_best_flops(const struct rt_profile *p,
						     const char *precision, unsigned threads);
/* The highest bandwidth of a level at a thread count (0: any) over kernels, or NULL. */
const struct rt_profile_bw *rt_profile_best_bw(const struct rt_profile *p, const char *level,
					       unsigned threads);
/* The largest thread count with an unflagged FLOP ceiling at or below t (0 if none): the
 * ceilings a run at t threads is held against when the profile did not measure t itself. */
unsigned rt_profile_nearest_threads(const struct rt_profile *p, unsigned t);

/* The memory level that holds `bytes` at t threads (compact: one per core): the smallest
 * level whose capacity holds it, capacity being where the measured curve says the level ends
 * (hwloc's size when it was not measured) times the instances t threads use (a private cache
 * each, a shared one once per shared_by cores). "DRAM" when none does, or the profile has no
 * sizes. The name is static. */
const char *rt_profile_holding_level(const struct rt_profile *p, double bytes, unsigned t);
/* The capacities rt_profile_holding_level uses, with who named each level, in buf ("L1 32 KiB
 * (cpuid), L2 1024 KiB (cpuid), L3 11585 KiB (measured; cpuid's 32768 KiB)"); false, buf "",
 * where every level is hwloc's as measured (nothing to say beside the usual). */
bool rt_profile_levels_said(const struct rt_profile *p, char *buf, size_t size);

/* The node's previous profile against its new one, in the new one's notes: each ceiling that
 * both measured (a FLOP ceiling by precision, ISA, method and threads; a bandwidth by level,
 * kernel and threads) unflagged in both (one flagged in either is counted, not compared), and
 * the clock, moved when it changed by more than the noise: the larger of tol and the two
 * ceilings' own spreads (their runs' (max - min) / median). The RT_PROFILE_MOVES_LISTED
 * largest moves are named with both values and the change; one more note says how many of
 * how many moved (or that none did), and a previous profile of another machine is not
 * compared (a note says why): another host name, or the same name on another CPU (model,
 * vendor, family, ISA extensions, packages, cores, PUs: every guest of a cloud may be "vm").
 * Text of prev quoted in a note is made printable (rt_printable). Returns the number of readings that moved (the clock included), or
 * -ENOMEM. */
#define RT_PROFILE_MOVES_LISTED 8
int rt_profile_compare(struct rt_profile *cur, const struct rt_profile *prev, double tol);

/* One more round of a ceiling, an undisturbed run's best (a disturbed round is not added):
 * the first round is the ceiling's own value, and the ceiling is the best of all its runs, so
 * it rises to a round above it. false when the ceiling has all its rounds. */
bool rt_profile_flops_add_round(struct rt_profile_flops *f, double gflops);
bool rt_profile_bw_add_round(struct rt_profile_bw *b, double gbytes_per_s);

/* The spread of a ceiling's rounds, (max - min) / median; 0 with fewer than 2. */
double rt_profile_rounds_spread(const double *rounds, unsigned n);

/* Judge every unflagged ceiling measured in 2 rounds or more: its rounds disagree when their
 * spread is beyond the noise, tol (each round is a best of runs: the spread of the ceiling's
 * own runs, which holds its slow ones, is no measure of how far two bests may lie apart).
 * Each such ceiling gets a note ("unstable: ...", its rounds and both spreads), and one more
 * note is the node's verdict: unstable (how many of how many ceilings, the widest spread:
 * every share of a roof built on them is that uncertain) or its rounds agreeing. No note
 * when no ceiling has rounds. Returns the number that disagree, or -ENOMEM. */
int rt_profile_judge_rounds(struct rt_profile *p, double tol);

/* Largest thread count any ceiling was measured with. */
unsigned rt_profile_max_threads(const struct rt_profile *p);

/* Whether a name is a known level ("L1".."L5", "DRAM"), kernel or precision. */
bool rt_profile_valid_level(const char *s);
bool rt_profile_valid_kernel(const char *s);
bool rt_profile_valid_precision(const char *s);

#endif
