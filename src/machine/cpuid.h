/* cpuid.h: the caches as the CPU's own CPUID describes them (Intel's leaf 4, AMD's 0x8000001D,
 * AMD's older 0x80000005/6), read on the calling thread without moving any thread's binding */
#ifndef RT_CPUID_H
#define RT_CPUID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/err.h"

struct rt_cache_info;

struct rt_cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

/* One CPUID query (leaf, subleaf) into *r; false when there is no answer. */
typedef bool (*rt_cpuid_fn)(void *ctx, uint32_t leaf, uint32_t sub, struct rt_cpuid_regs *r);

/* The data and unified caches CPUID describes through fn, sorted by level, into out[0..max):
 * each with its size, line, and the cores sharing one instance (the logical processors CPUID
 * says share it over threads_per_core, at most cores); count from cores. Returns how many. */
size_t rt_cpuid_caches(rt_cpuid_fn fn, void *ctx, unsigned threads_per_core, unsigned cores,
		       struct rt_cache_info *out, size_t max);

/* This CPU's caches through rt_cpuid_caches: the cpuid instruction on the calling thread (its
 * caches are every core's on the machines met); under ROOFTRAJ_SYSROOT the file DIR/cpuid
 * instead, as `cpuid -r -1` prints it ("0x00000004 0x00: eax=0x... ebx=0x... ecx=0x...
 * edx=0x..."; lines of later CPUs ignored), no caches where that file is absent. *n: how
 * many; an unreadable or malformed file is an error naming its line. */
int rt_cpuid_this(unsigned threads_per_core, unsigned cores, struct rt_cache_info *out, size_t max,
		  size_t *n, struct rt_err *err);

#endif
