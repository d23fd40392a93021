/* events.h: the hardware FLOP events of each microarchitecture rooftraj knows (Intel
 * Skylake-SP to Granite Rapids, AMD Zen 2 to Zen 5), chosen from CPUID's vendor, family and
 * model: the kernel's names (tools/perf/pmu-events/arch/x86/<cpu>/), their raw perf_event
 * encodings, the FLOPs each count stands for and its precision; the sets a PMU of N general
 * counters can count at once; FLOPs from a reading that is complete or no count at all; and
 * the check of a source against a kernel whose FLOPs are known exactly. Pure: no counter is
 * opened here (the backends do that), so every rule is tested on any machine. */
#ifndef RT_EVENTS_H
#define RT_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include "base/vocab.h"

enum rt_uarch_id {
	RT_UARCH_UNKNOWN,
	RT_UARCH_SKX,           /* Skylake-SP, Cascade Lake, Cooper Lake (6/0x55) */
	RT_UARCH_ICX,           /* Ice Lake-SP (6/0x6a, 0x6c) */
	RT_UARCH_SPR,           /* Sapphire Rapids (6/0x8f) */
	RT_UARCH_EMR,           /* Emerald Rapids (6/0xcf) */
	RT_UARCH_GNR,           /* Granite Rapids (6/0xad, 0xae) */
	RT_UARCH_ZEN2,          /* family 0x17, models 0x30..0xff */
	RT_UARCH_ZEN3,          /* family 0x19, models 0x00..0x0f, 0x20..0x5f */
	RT_UARCH_ZEN4,          /* family 0x19, models 0x10..0x1f, 0x60..0xaf */
	RT_UARCH_ZEN5,          /* family 0x1a */
	RT_UARCH_COUNT
};

/* One FLOP event. */
struct rt_hw_event {
	const char *name;               /* the kernel's name */
	const char *pfm;                /* libpfm4's name where Debian 12's libpfm4 4.13 knows it
					 * for this CPU; NULL: the raw encoding only */
	unsigned long long raw;         /* perf_event_attr.config for PERF_TYPE_RAW: Intel
					 * umask << 8 | event; AMD event[7:0] | umask << 8 |
					 * event[11:8] << 32 */
	double weight;                  /* FLOPs per count (AMX: operations per count) */
	const char *precision;          /* fp64 fp32 fp16 bf16 int8, or "any": one count of
					 * every precision (AMD's) */
	bool pair;                      /* AMD: counts more than 15 per cycle, so it takes a
					 * merged pair of counters (the kernel pairs it from 5.6) */
};

struct rt_uarch {
	enum rt_uarch_id id;
	const char *name;               /* "Intel Sapphire Rapids", "AMD Zen 5" */
	const char *vendor;             /* CPUID's: GenuineIntel, AuthenticAMD */
	const char *source;             /* the kernel's event list the table follows */
	unsigned counters;              /* general counters per logical core, SMT on */
	unsigned counters_nosmt;        /* ... with SMT off */
	const struct rt_hw_event *flops;
	size_t nflops;
	const char *dram_pmu;           /* the kernel's PMU that counts DRAM traffic (sysfs
					 * event_source/devices/<name>N), or NULL */
	const char *note;               /* what the table does not count */
};

/* The table of a CPU (vendor, CPUID family and model), or NULL: no FLOP events known. */
const struct rt_uarch *rt_uarch_find(const char *vendor, int family, int model);
const struct rt_uarch *rt_uarch_get(enum rt_uarch_id id);

/* u's FLOP events by the kernel's names, '+' between ("FP_ARITH_INST_RETIRED.SCALAR_DOUBLE+
 * ..."), or "<table>'s N FLOP events" where the names do not fit size. */
void rt_events_names(const struct rt_uarch *u, char *buf, size_t size);

/* The FLOP events of u packed into groups a PMU of `counters` general counters counts at
 * once (a pair event takes two), in table order: groups[k] holds indexes into u->flops.
 * Each group is counted in a repetition of its own (a configuration is repeated anyway), so
 * no count is multiplexed. Returns the number of groups (at most cap), 0 when an event does
 * not fit even alone. */
#define RT_EVENTS_MAX 16
struct rt_event_group {
	size_t idx[RT_EVENTS_MAX];
	size_t n;
	unsigned used;                  /* counters it takes */
};
size_t rt_events_group(const struct rt_uarch *u, unsigned counters, struct rt_event_group *g,
		       size_t cap);

/* One event's reading as perf_event gives it: the count and the times it was enabled and
 * running (running < enabled: multiplexed, the count scaled by enabled / running). */
struct rt_event_reading {
	size_t idx;                     /* into u->flops */
	long long value;
	double enabled, running;
};

/* FLOPs from readings of u's events: every event of the table read (a partial set is never a
 * count: -ENOENT, why names the first one missing), each scaled when multiplexed (the source
 * is then hw-estimate and the largest scale kept), split by precision where the events say
 * it ("any": by_prec has nothing of it). */
struct rt_flop_count {
	double flops;
	double by_prec[RT_PRECISION_COUNT];   /* by enum rt_precision */
	enum rt_source source;          /* hw, or hw-estimate when multiplexed */
	double scale;                   /* the largest enabled / running (1: none) */
	char why[160];
};
int rt_events_flops(const struct rt_uarch *u, const struct rt_event_reading *r, size_t n,
		    struct rt_flop_count *out);

/* A source checked against a kernel whose FLOPs are known exactly (the probe's FMA chains):
 * trusted within 2%; refused otherwise, the verdict naming the ratio ("fp_ret_sse_avx_ops.all
 * read 0.50x of a known kernel (fp64 avx512 fma): not used"). */
#define RT_EVENTS_TOLERANCE 0.02
struct rt_validation {
	double ratio;                   /* counted / known */
	bool trusted;
	char kernel[64];                /* the known kernel, "fp64 avx512 fma" */
	char verdict[240];
};
void rt_events_validate(const char *events, const char *kernel, double counted, double known,
			struct rt_validation *v);

/* Whether checks v[0..n) trust the events for work of a precision: at least one kernel of
 * that precision checked, and every one of them read within the tolerance. Not: why says it
 * (the first check that read wrong, or that no kernel of the precision ran here). */
bool rt_events_trusted_for(const struct rt_validation *v, size_t n, const char *precision,
			   char *why, size_t size);
/* The same for every kind of work in a NULL-terminated list (why: the first not trusted,
 * "not trusted for bf16 work: ..."). */
bool rt_events_trusted_all(const struct rt_validation *v, size_t n, const char *const *work,
			   char *why, size_t size);
/* Whether checks v[0..n) trust the events for the work of some precision (a table validated
 * for something). */
bool rt_events_trusted_any(const struct rt_validation *v, size_t n);
/* The kinds of work a training run of precision p does: fp32, and bf16 around it in a bf16
 * run (NULL-terminated). */
const char *const *rt_events_train_work(enum rt_precision p);
/* The precision a check is of: the first word of its kernel, when it names one
 * (RT_PRECISION_COUNT otherwise). */
enum rt_precision rt_events_check_prec(const struct rt_validation *v);

#endif
