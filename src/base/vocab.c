/* vocab.c: the shared name tables */
#include "config.h"
#include "base/vocab.h"

#include <string.h>

const char *const rt_vocab_precisions[RT_VOCAB_NPRECISIONS] = {
	"fp64", "fp32", "bf16", "fp16", "int8",
};
const char *const rt_vocab_train_precisions[RT_PRECISION_COUNT] = { "fp32", "bf16" };
const char *const rt_vocab_levels[RT_VOCAB_NLEVELS] = { "L1", "L2", "L3", "L4", "L5", "DRAM" };
const char *const rt_vocab_affinities[RT_AFFINITY_COUNT] = { "none", "compact", "scatter" };

const char *const rt_vocab_sources[RT_SOURCE_COUNT] = { "none", "hw", "hw-estimate", "model" };

const char *rt_source_name(enum rt_source s)
{
	return (unsigned)s < RT_SOURCE_COUNT ? rt_vocab_sources[s] : "none";
}

int rt_vocab_index(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}
