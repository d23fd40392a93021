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
};

/* Analyse n curve points (ws ascending, bw > 0) against ncaches hwloc capacities (ascending,
 * as seen by the curve's threads). Fills out[0..ncaches] (the last entry is DRAM). For each
 * level the boundary is the steepest drop of the (3-point median smoothed) log bandwidth within
 * [size/16, size*8] past the previous boundary; it counts when the plateaus on either side differ
 * by at least min_drop (0.15: 15%). */
void rt_levels_analyze(const uint64_t *ws, const double *bw, size_t n, const uint64_t *caches,
		       size_t ncaches, double min_drop, struct rt_level_result *out);

/* Per-thread working set for measuring level k (k == ncaches: DRAM) with one thread, from the
 * analysed levels: half of the level's end, at least twice the previous end (or their geometric
 * mean when the plateau is narrower than that); DRAM: four times the last cache's end, at least
 * 64 MiB. */
uint64_t rt_levels_working_set(const struct rt_level_result *lv, size_t ncaches, size_t k);

/* Whether a curve (as rt_levels_analyze takes it) has settled in DRAM: its last level found,
 * its whole last factor of two past that level's end (the curve past twice the end), and flat
 * there within 15% (the levels' own significance), each point its 3-point median as the
 * analysis smooths it (one noisy reading of a shared host does not keep the curve going). A
 * curve still falling past the end, as a victim or adaptive cache's tail does, is not flat.
 * *end: the last level's end as analysed (0: too few points, or no level, or more than
 * RT_TOPO_MAX_CACHES). */
bool rt_levels_settled(const uint64_t *ws, const double *bw, size_t n, const uint64_t *caches,
		       size_t ncaches, uint64_t *end);

#endif
