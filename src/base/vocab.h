/* vocab.h: the words rooftraj's files share, each with one name table: the precisions a
 * profile may name and the two the trainer computes in, the memory levels, the thread
 * affinities, the sources of counts. The bottom layer beside err and util: kernels/, cnn/
 * and src/ all read it. */
#ifndef RT_VOCAB_H
#define RT_VOCAB_H

#include <stdbool.h>

/* Every precision a ceiling may be measured in (profile.cfg, the roofs), in this order:
 * enum rt_prec's kernels (fp64, fp32) and oneDNN's matmul types index it too. */
#define RT_VOCAB_NPRECISIONS 5
extern const char *const rt_vocab_precisions[RT_VOCAB_NPRECISIONS]; /* fp64 fp32 bf16 fp16 int8 */

/* The vector ISAs the kernels are built for, narrowest first. */
enum rt_isa { RT_ISA_SCALAR, RT_ISA_SSE, RT_ISA_AVX2, RT_ISA_AVX512, RT_ISA_COUNT };
extern const char *const rt_vocab_isas[RT_ISA_COUNT];   /* scalar sse avx2 avx512 */
const char *rt_isa_name(enum rt_isa isa);

/* The precision the trainer computes in. bf16: bf16 activations, weights and gradients for the
 * primitives, fp32 master weights, weight gradients, optimizer state and logits (oneDNN's
 * mixed-precision scheme). The names are rt_vocab_train_precisions[p]. */
enum rt_precision { RT_PRECISION_FP32, RT_PRECISION_BF16, RT_PRECISION_COUNT };
extern const char *const rt_vocab_train_precisions[RT_PRECISION_COUNT];     /* fp32 bf16 */
const char *rt_precision_name(enum rt_precision p);
/* 0, or -EINVAL when s names no precision of the trainer. */
int rt_precision_parse(const char *s, enum rt_precision *p);

/* Memory levels, innermost first. */
#define RT_VOCAB_NLEVELS 6
extern const char *const rt_vocab_levels[RT_VOCAB_NLEVELS];     /* L1 L2 L3 L4 L5 DRAM */
/* The name of cache level 1..5, "DRAM" for anything else (the memory past the caches). */
const char *rt_level_name(int cache_level);

/* How a configuration's threads are placed; the names are rt_vocab_affinities[a]. */
enum rt_affinity {
	RT_AFFINITY_NONE,       /* leave placement to the OS / OpenMP runtime */
	RT_AFFINITY_COMPACT,    /* fill the cores of one cache/NUMA domain first */
	RT_AFFINITY_SCATTER,    /* spread threads across packages, NUMA nodes and caches */
	RT_AFFINITY_COUNT
};
extern const char *const rt_vocab_affinities[RT_AFFINITY_COUNT];  /* none compact scatter */
const char *rt_affinity_name(enum rt_affinity aff);
/* 0, or -EINVAL when name names no affinity. */
int rt_affinity_parse(enum rt_affinity *aff, const char *name);

/* Where a number came from: hardware counters, a hardware estimate (events that took turns on
 * the counters, scaled by the time each ran), the exact analytic model. The names are
 * rt_vocab_sources[s]. */
enum rt_source { RT_SOURCE_NONE, RT_SOURCE_HW, RT_SOURCE_HW_ESTIMATE, RT_SOURCE_MODEL,
		 RT_SOURCE_COUNT };
extern const char *const rt_vocab_sources[RT_SOURCE_COUNT];  /* none hw hw-estimate model */
/* What a node's hardware counters are (a machine profile's counters.state): validated on the
 * probe's kernels, refused by them, not used (no PMU, an event that cannot be counted), or
 * no table for the CPU. The names are rt_vocab_pmu_states[s]. */
enum rt_pmu_state { RT_PMU_VALIDATED, RT_PMU_REFUSED, RT_PMU_NOT_USED, RT_PMU_NO_TABLE,
		    RT_PMU_STATE_COUNT };
extern const char *const rt_vocab_pmu_states[RT_PMU_STATE_COUNT];
const char *rt_source_name(enum rt_source s);
/* Whether a count came from the hardware: hw or hw-estimate. */
bool rt_source_hw(enum rt_source s);

/* The index of s in a name table of n entries, or -1. */
int rt_vocab_index(const char *const *names, int n, const char *s);

#endif
