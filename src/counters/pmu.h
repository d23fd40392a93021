/* pmu.h: counting a microarchitecture's FLOP events (events.h) on a piece of work, group by
 * group, through a PMU reader: the kernel's perf_event with the raw encodings (the process
 * and every thread it starts), or a replay of recorded or constructed values (tests, and
 * any machine without a PMU). On top of it, the self-check: the events run on the probe's
 * own FMA kernels, whose FLOPs are known exactly, and trusted only within 2%. */
#ifndef RT_PMU_H
#define RT_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include "base/err.h"
#include "counters/events.h"

/* A piece of work to count; known_flops is what it does exactly, kind what it is: its
 * precision ("fp32"), or a self-check's kernel ("bf16 avx512_bf16 vdpbf16ps"); NULL: unsaid.
 * A replay's values are per FLOP of it, by its kind; a real PMU counts for itself. */
struct rt_pmu_work {
	void (*fn)(void *arg);
	void *arg;
	double known_flops;
	const char *kind;
};

/* A PMU reader: opens the events of one group (all counted at once, never more than the
 * PMU's counters), counts between enable and read, closes. open: -ENOENT when this machine
 * has no such PMU (err says why), -ENOTSUP when an event of the group cannot be counted
 * (named). read disables and reads out[i] for g->idx[i]; w is the work counted (a replay
 * counts from it; a real PMU counts for itself). */
struct rt_pmu {
	const char *name;
	int (*open)(void *ctx, const struct rt_uarch *u, const struct rt_event_group *g,
		    void **h, struct rt_err *err);
	void (*enable)(void *h);
	int (*read)(void *h, const struct rt_pmu_work *w, struct rt_event_reading *out,
		    struct rt_err *err);
	void (*close)(void *h);
	void *ctx;
};
/* One group over one run of the work: open, enable, the work, read, close. */
int rt_pmu_count(const struct rt_pmu *pmu, const struct rt_uarch *u,
		 const struct rt_event_group *g, const struct rt_pmu_work *w,
		 struct rt_event_reading *out, struct rt_err *err);

/* The kernel's perf_event PMU, raw encodings (PERF_TYPE_RAW), counting this process and the
 * threads it starts during the work. */
extern const struct rt_pmu rt_pmu_perf;
/* Whether the kernel exposes a core PMU (cpu, or cpu_core on hybrid Intel), in
 * /sys/bus/event_source/devices (under ROOFTRAJ_SYSROOT when set: machine/cpu.h). */
bool rt_pmu_core_present(void);

/* A replay: each event's count per FLOP of the work (raw encoding -> per_flop), for work of a
 * kind or of any (NULL); an entry's kind matches work of that kind or whose kind starts with
 * it and a space ("bf16" matches "bf16 amx_bf16 tdpbf16ps"), the longest match for the same
 * raw counting. Missing events are refused as a PMU refuses them, and every event was running
 * for a share of the time (1: not multiplexed). It records the largest group it was asked to
 * count. A replay PMU:
 * { "replay", rt_pmu_replay_open, rt_pmu_replay_enable, rt_pmu_replay_read,
 * rt_pmu_replay_close, &replay } (RT_PMU_REPLAY(&replay)). */
struct rt_replay_event {
	unsigned long long raw;
	double per_flop;
	const char *kind;
};
struct rt_replay {
	const struct rt_replay_event *ev;
	size_t n;
	double running;                 /* running / enabled of every event (0 taken as 1) */
	size_t max_group;               /* out: the most events counted at once */
	unsigned calls;                 /* out: groups counted */
};
int rt_pmu_replay_open(void *ctx, const struct rt_uarch *u, const struct rt_event_group *g,
		       void **h, struct rt_err *err);
void rt_pmu_replay_enable(void *h);
int rt_pmu_replay_read(void *h, const struct rt_pmu_work *w, struct rt_event_reading *out,
		       struct rt_err *err);
void rt_pmu_replay_close(void *h);
#define RT_PMU_REPLAY(replay) ((struct rt_pmu){ "replay", rt_pmu_replay_open, \
	rt_pmu_replay_enable, rt_pmu_replay_read, rt_pmu_replay_close, (replay) })

/* Counting a piece of work that runs again and again (a configuration's repetitions): each
 * run counts the next group of u's events, in turn, and the FLOPs per unit of work (an
 * iteration) are known once every group has been read: the sum over the groups of each one's
 * count per unit in its own run. No count is multiplexed and none is summed from a part. */
struct rt_pmu_session;
int rt_pmu_session_open(struct rt_pmu_session **s, const struct rt_pmu *pmu,
			const struct rt_uarch *u, unsigned counters, struct rt_err *err);
/* Before a run: the next group opened and enabled. */
int rt_pmu_session_start(struct rt_pmu_session *s, struct rt_err *err);
/* After it: the group read; units: the run's units of work (its timed iterations);
 * known_flops and kind: its exact FLOPs and its precision (for a replay). */
int rt_pmu_session_stop(struct rt_pmu_session *s, double units, double known_flops,
			const char *kind, struct rt_err *err);
/* The FLOPs per unit: 0 once every group was read (out filled: hw, or hw-estimate when a
 * group was multiplexed), -EAGAIN while groups are missing (out->why says how many). */
int rt_pmu_session_flops(const struct rt_pmu_session *s, struct rt_flop_count *out);
/* The groups (runs needed for one whole count) and the events, for the record. */
size_t rt_pmu_session_groups(const struct rt_pmu_session *s);
void rt_pmu_session_close(struct rt_pmu_session *s);

/* The FLOPs of the work from u's events on a PMU of `counters` general counters: the events
 * grouped (rt_events_group), the work run once per group, the readings combined
 * (rt_events_flops: a partial set is no count). *ngroups: how many runs it took. */
int rt_pmu_measure(const struct rt_pmu *pmu, const struct rt_uarch *u, unsigned counters,
		   const struct rt_pmu_work *w, struct rt_flop_count *out, size_t *ngroups,
		   struct rt_err *err);

/* The self-check: u's events on the probe's own kernels, one thread each, against their
 * exact operations: the fp64 and fp32 FMA chains of the widest ISA this CPU runs, then every
 * low-precision kernel it runs (bf16, fp16, int8: the dot-product and AMX instructions).
 * Each check's kernel is named "<precision> <isa> <instruction>" ("bf16 avx512_bf16
 * vdpbf16ps"). Returns 0 when every kernel was counted (each check says trusted or not),
 * else the PMU's error. */
#define RT_PMU_CHECKS_MAX 10
struct rt_pmu_checks {
	struct rt_validation v[RT_PMU_CHECKS_MAX];
	size_t n;
};
int rt_pmu_selfcheck(const struct rt_pmu *pmu, const struct rt_uarch *u, unsigned counters,
		     struct rt_pmu_checks *c, struct rt_err *err);
/* The DRAM events of a memory-controller PMU (uncore.h) checked on a known DRAM triad (the
 * probe's non-temporal triad over arrays far larger than any cache, 24 bytes an element):
 * trusted within 2% (v says), else not. 0 when counted, the PMU's error otherwise. */
struct rt_uncore_set;
int rt_pmu_dram_check(struct rt_uncore_set *s, struct rt_validation *v, struct rt_err *err);
/* The node's DRAM events: found, opened and checked; 0 with s open and trusted, else the
 * reason in why (s closed). */
int rt_pmu_node_dram(const struct rt_uarch *u, struct rt_uncore_set *s, struct rt_validation *v,
		     struct rt_err *why);

/* This node's FLOP event table (rt_uarch_find on its CPUID) checked by rt_pmu_selfcheck on the
 * kernel's PMU: 0 with c (each check trusted or not); -ENOENT with *u NULL when the CPU has no
 * table; the PMU's error otherwise (*u set). */
int rt_pmu_node_check(const struct rt_uarch **u, struct rt_pmu_checks *c, struct rt_err *why);
/* The same on pmu (a replay stands for a core PMU that is there; rt_pmu_perf is there when the
 * kernel exposes one). why says every reason that holds: no core PMU and no table for this
 * CPU, both, when both are true. */
int rt_pmu_node_check_with(const struct rt_pmu *pmu, const struct rt_uarch **u,
			   struct rt_pmu_checks *c, struct rt_err *why);
/* The node's table, for work of the given precisions (NULL-terminated): *u when it was checked
 * and trusted for every one of them; NULL with why (no table, no PMU, or the check that read
 * a kernel of a precision wrong) otherwise. */
const struct rt_uarch *rt_pmu_node_table(const char *const *precisions, struct rt_err *why);

/* What the node's counters are, as a machine profile keeps it: the verdict (validated: trusted
 * for the precisions whose every kernel read right, rt_events_trusted_for on its checks; refused:
 * for none; not used: no PMU or an event that cannot be counted; no table), the table, its
 * events, how they group, the self-check's ratio per kernel, and why (what was not trusted)
 * (the states' names: base/vocab). */
struct rt_pmu_record {
	enum rt_pmu_state state;
	char table[48];                 /* "AMD Zen 5" ("" without a table) */
	char events[256];               /* the kernel's names, '+' between */
	unsigned groups, counters;      /* the runs one count takes, on so many counters */
	struct rt_validation check[RT_PMU_CHECKS_MAX];  /* kernel, ratio, trusted (a profile
							 * read back has no verdict) */
	size_t nchecks;
	char why[512];                  /* what is not trusted and why ("" when all is) */
	char dram[512];                 /* DRAM bytes: trusted at its ratio, or why not */
};

/* The node's counter verdict in one sentence (roofline-probe prints it), in a short one
 * (kept in the profile's notes), and as a record (the profile's counters group): which
 * table, how its events group, and validated, refused (with the ratios) or no PMU. */
void rt_pmu_verdict(char *buf, size_t size, char *note, size_t notesize,
		    struct rt_pmu_record *rec, struct rt_err *why);
/* The verdict counted on pmu (rt_pmu_verdict: the kernel's). Every sentence begins
 * "hardware counters: " and ends with the DRAM bytes' verdict. */
void rt_pmu_verdict_with(const struct rt_pmu *pmu, char *buf, size_t size, char *note,
			 size_t notesize, struct rt_pmu_record *rec, struct rt_err *why);

/* The verdict on a table whose self-check ran (checks ck): validated for the precisions every
 * kernel of which read right (the others named, with the check that read wrong), or refused;
 * rec's table, events, groups and dram are left as they are. */
void rt_pmu_judge(const struct rt_uarch *u, const struct rt_pmu_checks *ck, char *buf,
		  size_t size, char *note, size_t notesize, struct rt_pmu_record *rec);

#endif
