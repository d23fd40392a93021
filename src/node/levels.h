/* levels.h: where the memory levels really end, read off a bandwidth-vs-working-set curve */
#ifndef RT_LEVELS_H
#define RT_LEVELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rt_level_result {
	uint64_t hwloc_size;    /* the cache capacity the curve's threads have (0 for DRAM) */
	uint64_t end;           /* where bandwidth drops out of this level (hwloc's if not found) */
	bool found;             /* a significant drop was measured near hwloc's size */
	bool agrees;            /* found, and within a factor 2 of hwloc's size */
	double plateau;         /* median bandwidth on the level's measured plateau (0: none) */
	uint64_t start;         /* DRAM: where its plateau starts on the curve (0: not seen) */
};

/* Analyse n curve points (ws ascending, bw > 0) against ncaches named capacities (ascending,
 * as seen by the curve's threads; hwloc's, CPUID's or the curve's own plateaus' ends). Fills
 * out[0..ncaches] (the last entry is DRAM). For each level the boundary is the steepest drop of
 * the (3-point median smoothed) log bandwidth within [size/16, size*8] past the previous
 * boundary; it counts when the plateaus on either side differ by at least min_drop (0.15: 15%),
 * and where the curve's plateau before that drop (rt_levels_plateaus) ends more than a factor
 * of 1.5 and less than 8 below it, the level ends where that plateau does (a slow transition:
 * a VM's L3 into DRAM over a factor of four to six). Where none does (a VM's 508 MiB L3 that bandwidth leaves at 16 MiB), a plateau of the curve
 * that ends past the previous boundary and below the named size is the level (found, not
 * agreeing). */
void rt_levels_analyze(const uint64_t *ws, const double *bw, size_t n, const uint64_t *caches,
		       size_t ncaches, double min_drop, struct rt_level_result *out);

/* A plateau of the curve: where bandwidth stays within the significance of its level. */
struct rt_plateau {
	uint64_t start, end;    /* its first and last working set */
	double value;           /* median bandwidth over it */
};

/* The curve's plateaus, ascending, found from the curve alone (no size from any source): a
 * plateau starts where the (3-point median smoothed) curve is flat within 15% over a factor of
 * three of working set, goes on while it stays within 15% below that start's median (a bump
 * above it is noise or a prefetcher, never a new level), and ends at the last point before
 * two in a row fall below; the stretch between two plateaus is their transition. At most max
 * into out; returns how many. The last plateau is DRAM only where it runs to the curve's end. */
size_t rt_levels_plateaus(const uint64_t *ws, const double *bw, size_t n, struct rt_plateau *out,
			  size_t max);

/* Per-thread working set for measuring level k (k == ncaches: DRAM) with one thread, from the
 * analysed levels: half of the level's end, at least twice the previous end (or their geometric
 * mean when the plateau is narrower than that); DRAM: four times the last cache's end, at least
 * twice where the curve's DRAM plateau starts, and at least 64 MiB. */
uint64_t rt_levels_working_set(const struct rt_level_result *lv, size_t ncaches, size_t k);

/* The per-thread working set for measuring level k with `threads` compact-placed threads: the
 * one-thread set (rt_levels_working_set) shared by the threads on one instance of a cache
 * (at most shared_by of them), or for DRAM split over all threads, its whole at most `memory`
 * / 12 (three arrays in a quarter of the memory this process may use); 4 KiB aligned. */
uint64_t rt_levels_thread_set(const struct rt_level_result *lv, size_t ncaches, size_t k,
			      unsigned threads, unsigned shared_by, uint64_t memory);

/* Whether a curve (as rt_levels_analyze takes it) has settled in DRAM. With no named level
 * (ncaches 0): its plateaus (rt_levels_plateaus) show at least one drop and the last one runs
 * to the curve's end over at least a factor of three, *end the last cache plateau's end.
 * Otherwise: its last level found,
 * its whole last factor of two past that level's end (the curve past twice the end), and flat
 * there within 15% (the levels' own significance), each point its 3-point median as the
 * analysis smooths it (one noisy reading of a shared host does not keep the curve going). A
 * curve still falling past the end, as a victim or adaptive cache's tail does, is not flat.
 * *end: the last level's end as analysed (0: too few points, or no level found, or more
 * than RT_TOPO_MAX_CACHES). */
bool rt_levels_settled(const uint64_t *ws, const double *bw, size_t n, const uint64_t *caches,
		       size_t ncaches, uint64_t *end);

#endif
