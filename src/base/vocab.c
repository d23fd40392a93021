/* vocab.c: the shared name tables */
#include "config.h"
#include "base/vocab.h"

#include <errno.h>

#include <string.h>

const char *const rt_vocab_precisions[RT_PRECISION_COUNT] = {
	"fp64", "fp32", "bf16", "fp16", "int8",
};
const enum rt_precision rt_vocab_train_precisions[RT_TRAIN_NPRECISIONS] = { RT_PRECISION_FP32,
									     RT_PRECISION_BF16 };
const char *const rt_vocab_levels[RT_VOCAB_NLEVELS] = { "L1", "L2", "L3", "L4", "L5", "DRAM" };
const char *const rt_vocab_affinities[RT_AFFINITY_COUNT] = { "none", "compact", "scatter" };
const char *const rt_vocab_knobs[RT_KNOB_COUNT] = { "threads", "batch", "affinity",
						    "precision", "input", "ranks" };

const char *const rt_vocab_sources[RT_SOURCE_COUNT] = { "none", "hw", "hw-estimate", "model",
							"onednn-log" };
const char *const rt_vocab_pmu_states[RT_PMU_STATE_COUNT] = { "validated", "refused", "not used",
							      "no table" };

const char *rt_source_name(enum rt_source s)
{
	return (unsigned)s < RT_SOURCE_COUNT ? rt_vocab_sources[s] : "none";
}

bool rt_source_hw(enum rt_source s)
{
	return s == RT_SOURCE_HW || s == RT_SOURCE_HW_ESTIMATE;
}

int rt_vocab_index(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

const char *const rt_vocab_isas[RT_ISA_COUNT] = { "scalar", "sse", "avx2", "avx512" };

const char *rt_isa_name(enum rt_isa isa)
{
	return (unsigned)isa < RT_ISA_COUNT ? rt_vocab_isas[isa] : "unknown";
}

const char *rt_precision_name(enum rt_precision p)
{
	return (unsigned)p < RT_PRECISION_COUNT ? rt_vocab_precisions[p] : "unknown";
}

int rt_precision_parse(const char *s, enum rt_precision *p)
{
	const int i = rt_vocab_index(rt_vocab_precisions, RT_PRECISION_COUNT, s);

	if (i < 0)
		return -EINVAL;
	*p = (enum rt_precision)i;
	return 0;
}

enum rt_precision rt_precision_of(const char *s)
{
	enum rt_precision p = RT_PRECISION_COUNT;

	(void)rt_precision_parse(s, &p);
	return p;
}

bool rt_precision_trains(enum rt_precision p)
{
	return p == RT_PRECISION_FP32 || p == RT_PRECISION_BF16;
}

const char *rt_affinity_name(enum rt_affinity aff)
{
	return (unsigned)aff < RT_AFFINITY_COUNT ? rt_vocab_affinities[aff] : "none";
}

int rt_affinity_parse(enum rt_affinity *aff, const char *name)
{
	const int i = rt_vocab_index(rt_vocab_affinities, RT_AFFINITY_COUNT, name);

	if (i < 0)
		return -EINVAL;
	*aff = (enum rt_affinity)i;
	return 0;
}

const char *rt_level_name(int cache_level)
{
	return cache_level >= 1 && cache_level <= 5 ? rt_vocab_levels[cache_level - 1] :
	       rt_vocab_levels[RT_VOCAB_NLEVELS - 1];
}
