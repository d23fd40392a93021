/* roofs.h: the roofs of a node at a thread count, computed once from its machine profile:
 * every trusted FLOP ceiling (the kernels', the instructions', oneDNN's achievable rates),
 * each precision's theoretical peak, each memory level's best bandwidth; and the bound of a
 * point on them. The one reader of profile ceilings for bounds, the summary, the charts and
 * the cluster comparison. */
#ifndef RT_ROOFS_H
#define RT_ROOFS_H

#include <stdbool.h>
#include <stddef.h>
#include "base/err.h"
#include "node/profile.h"

enum rt_roof_kind { RT_ROOF_FLOPS, RT_ROOF_BANDWIDTH };

/* measured: a kernel or instruction of ours (the machine can do at least that); achievable:
 * what oneDNN reaches; theoretical: threads x clock x operations per cycle (an upper bound) */
enum rt_roof_basis { RT_ROOF_MEASURED, RT_ROOF_ACHIEVABLE, RT_ROOF_THEORETICAL };

struct rt_roof {
	enum rt_roof_kind kind;
	enum rt_roof_basis basis;
	const char *precision;          /* FLOP roofs: fp64 fp32 bf16 fp16 int8 (else "") */
	const char *level;              /* bandwidth roofs: L1..L5 DRAM (else "") */
	const char *what;               /* the ISA (FLOP roofs) or the kernel (bandwidth roofs) */
	double value;                   /* GFLOP/s (GOP/s for int8) or GB/s */
	double theoretical;             /* measured FLOP roofs: their own ceiling's theoretical
					 * peak (0: none recorded) */
	double low;                     /* measured roofs whose ceiling has rounds: the lowest
					 * round, the roof's spread over the probe (0: none) */
	const char *source;             /* bandwidth roofs: who named their level, where not
					 * hwloc: "cpuid", "curve" (else "") */
};

#define RT_ROOFS_MAX 128

struct rt_roofs {
	const struct rt_profile *prof;  /* borrowed: the strings point into it */
	unsigned threads;               /* the thread count the roofs were measured at */
	struct rt_roof roof[RT_ROOFS_MAX];
	size_t n;
};

/* The roofs a run at `threads` threads is held against: those of the most threads at or below
 * it with trusted (unflagged) FLOP and bandwidth ceilings. Flagged ceilings are never roofs;
 * each memory level contributes its best kernel; each precision its highest theoretical
 * peak, that of a flagged ceiling too (threads x clock x operations a cycle: no measurement
 * can disturb it). -ENOENT (err says so) when no thread count at or below has both. */
int rt_roofs_at(struct rt_roofs *r, const struct rt_profile *p, unsigned threads,
		struct rt_err *err);

/* The roofs of a profile at each thread count it measured, computed once: every reader that
 * bounds many points (the summary, the page, the charts) looks them up instead of building
 * them again for each point. */
struct rt_roofbook {
	const struct rt_profile *prof;  /* borrowed */
	struct rt_roofs *at;            /* at[i]: the roofs at exactly threads[i] */
	unsigned *threads;              /* ascending, those with trusted FLOP and bandwidth roofs */
	size_t n;
};
/* Caller owns *out (rt_roofbook_destroy; NULL-safe). */
int rt_roofbook_create(struct rt_roofbook **out, const struct rt_profile *p, struct rt_err *err);
void rt_roofbook_destroy(struct rt_roofbook *b);
/* The roofs a run at `threads` threads is held against (as rt_roofs_at), or NULL. */
const struct rt_roofs *rt_roofbook_at(const struct rt_roofbook *b, unsigned threads);

/* The best measured or achievable FLOP roof of a precision (never a theoretical one), or
 * NULL. */
const struct rt_roof *rt_roofs_peak(const struct rt_roofs *r, const char *precision);
/* The FLOP roof that bounds a precision's work: its best measured ceiling (a kernel's or an
 * instruction's chains: nothing in that precision runs faster) when it is of the widest ISA
 * the precision was measured with, else its theoretical peak (a narrower ISA's peak bounds
 * nothing when a wider one's was flagged: SSE's 44 GFLOP/s under convolutions at 131);
 * never an achievable rate alone (oneDNN's matmul is a rate, not a limit: a convolution can
 * run faster). NULL when there is neither. */
const struct rt_roof *rt_roofs_ceiling(const struct rt_roofs *r, const char *precision);
/* The roof of a point whose math ran in `precision`: its ceiling (rt_roofs_ceiling), or with
 * `limit` what the hardware can do for that math (the theoretical peak; the ceiling where the
 * profile holds none). Where the log does not tell (told false) whether that math or fp32's
 * ran (f32 tensors under a lower fpmath mode, the implementation not saying), the higher of
 * the two: the highest it could have had. NULL when there is none. */
const struct rt_roof *rt_roofs_math(const struct rt_roofs *r, const char *precision, bool told,
				    bool limit);
/* The theoretical peak of a precision, or NULL. */
const struct rt_roof *rt_roofs_theoretical(const struct rt_roofs *r, const char *precision);
/* The bandwidth roof of a level, or NULL. */
const struct rt_roof *rt_roofs_bandwidth(const struct rt_roofs *r, const char *level);

/* The factor that makes roofs measured at fewer threads than `threads` an upper bound at
 * `threads`: threads / r->threads (1 at or below r->threads). Linear scaling bounds from
 * above: no thread count does more per thread than fewer threads did (a clock that turbo
 * lowers, a shared cache, memory or SMT core only lower the per-thread rate), so a run of
 * more threads than its roofs' is held to them times this, never called past them. */
double rt_roofs_scale(const struct rt_roofs *r, unsigned threads);

struct rt_roof_bound {
	const struct rt_roof *roof;     /* the one that bounds it */
	const struct rt_roof *bandwidth;        /* its level's */
	const char *level;              /* the level that holds its bytes (or the one asked) */
	double attainable;              /* GFLOP/s */
	double ridge;                   /* FLOP/byte where the bandwidth meets the ceiling */
	bool memory_bound;
	bool no_peak;                   /* its precision has no FLOP ceiling: the memory roof alone */
};
/* The roofline bound of a point under `ceiling` (rt_roofs_ceiling, rt_roofs_math;
 * NULL: none) with `bytes` compulsory bytes and intensity FLOP/byte: the bandwidth of `level`
 * (NULL: the memory level that holds the bytes at the roofs' thread count,
 * rt_profile_holding_level; DRAM when that level has no trusted roof) x the intensity, or the
 * ceiling, whichever is lower; the memory roof alone without a ceiling. -ENOENT when there is
 * no bandwidth roof. */
int rt_roofs_bound(const struct rt_roofs *r, const struct rt_roof *ceiling, const char *level,
		   double bytes, double intensity, struct rt_roof_bound *b);

#endif
