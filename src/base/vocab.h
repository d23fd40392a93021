/* vocab.h: the words rooftraj's files share, each with one name table: the precisions (one
 * enum for the profile's, the kernels', oneDNN's and the trainer's), the ISAs, the memory
 * levels, the thread affinities, the knobs of a sweep, the sources of counts, the states of
 * the PMU. The bottom layer beside err and util: kernels/, cnn/ and src/ all read it. */
#ifndef RT_VOCAB_H
#define RT_VOCAB_H

#include <stdbool.h>

/* Every precision rooftraj names, the one enum for all of them, in this order: a ceiling's
 * (profile.cfg, the roofs), the FLOP kernels' (fp64, fp32: the first two), oneDNN's matmul
 * peaks' (fp32 to int8), a primitive's math in oneDNN's log, the trainer's (fp32, bf16:
 * rt_precision_trains). The names are rt_vocab_precisions[p]. bf16 in the trainer: bf16
 * activations, weights and gradients for the primitives, fp32 master weights, weight
 * gradients, optimizer state and logits (oneDNN's mixed-precision scheme). */
enum rt_precision { RT_PRECISION_FP64, RT_PRECISION_FP32, RT_PRECISION_BF16, RT_PRECISION_FP16,
		    RT_PRECISION_INT8, RT_PRECISION_COUNT };
extern const char *const rt_vocab_precisions[RT_PRECISION_COUNT]; /* fp64 fp32 bf16 fp16 int8 */
const char *rt_precision_name(enum rt_precision p);
/* 0, or -EINVAL when s names no precision. */
int rt_precision_parse(const char *s, enum rt_precision *p);
/* The precision s names, RT_PRECISION_COUNT when it names none (a name read from a file that
 * was checked when it was read). */
enum rt_precision rt_precision_of(const char *s);
/* The precisions the trainer computes in, in the order a sweep lists them. */
#define RT_TRAIN_NPRECISIONS 2
extern const enum rt_precision rt_vocab_train_precisions[RT_TRAIN_NPRECISIONS]; /* fp32 bf16 */
/* Whether the trainer computes in p (fp32, bf16). */
bool rt_precision_trains(enum rt_precision p);

/* The vector ISAs the kernels are built for, narrowest first. */
enum rt_isa { RT_ISA_SCALAR, RT_ISA_SSE, RT_ISA_AVX2, RT_ISA_AVX512, RT_ISA_COUNT };
extern const char *const rt_vocab_isas[RT_ISA_COUNT];   /* scalar sse avx2 avx512 */
const char *rt_isa_name(enum rt_isa isa);

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

/* The knobs a sweep turns, each a configuration's setting and a trajectory's axis; the names
 * are rt_vocab_knobs[k] (--sweep's words). */
enum rt_knob { RT_KNOB_THREADS, RT_KNOB_BATCH, RT_KNOB_AFFINITY, RT_KNOB_PRECISION,
	       RT_KNOB_INPUT, RT_KNOB_RANKS, RT_KNOB_COUNT };
/* threads batch affinity precision input ranks */
extern const char *const rt_vocab_knobs[RT_KNOB_COUNT];

/* Where a number came from: hardware counters, a hardware estimate (events that took turns on
 * the counters, scaled by the time each ran), the exact analytic model, or a command's oneDNN
 * log counted by the model's rule. The names are rt_vocab_sources[s]. */
enum rt_source { RT_SOURCE_NONE, RT_SOURCE_HW, RT_SOURCE_HW_ESTIMATE, RT_SOURCE_MODEL,
		 RT_SOURCE_ONEDNN_LOG, RT_SOURCE_COUNT };
/* none hw hw-estimate model onednn-log */
extern const char *const rt_vocab_sources[RT_SOURCE_COUNT];
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
