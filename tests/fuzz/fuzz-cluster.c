/* fuzz-cluster.c: the node records rank 0 gathers for the cluster profile: decode, summarize,
 * and a record that decodes must encode and decode to the same node */
#include "config.h"
#include "cluster/cluster-profile.h"

#include <math.h>
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_cluster_node n[2], again;
	struct rt_cluster_stat st[RT_CLUSTER_MAX_CEILINGS];
	struct rt_err err;
	char *text = malloc(size + 1), *enc;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (rt_cluster_node_decode(text, &n[0], &err) == 0) {
		n[1] = n[0];
		struct rt_cluster_finding f[2 * RT_CLUSTER_MAX_CEILINGS * RT_CLUSTER_NSTATISTICS];
		const struct rt_cluster_reference ref = { .node = &n[0], .what = "fuzz" };

		rt_cluster_stats(n, 2, NULL, 0.1, st, RT_CLUSTER_MAX_CEILINGS);
		rt_cluster_stats(n, 2, &ref, 0.1, st, RT_CLUSTER_MAX_CEILINGS);
		rt_cluster_judge(n, 2, NULL, 0.1, f, sizeof(f) / sizeof(f[0]));
		rt_cluster_judge(n, 2, &ref, 0.1, f, sizeof(f) / sizeof(f[0]));
		enc = rt_cluster_node_encode(&n[0]);
		if (!enc || rt_cluster_node_decode(enc, &again, &err) ||
		    strcmp(again.host, n[0].host) || again.nc != n[0].nc)
			abort();
		for (size_t i = 0; i < again.nc; i++)
			if (again.c[i].value != n[0].c[i].value ||
			    again.c[i].median != n[0].c[i].median ||
			    again.c[i].spread != n[0].c[i].spread ||
			    isnan(again.c[i].sustained) != isnan(n[0].c[i].sustained) ||
			    (!isnan(again.c[i].sustained) &&
			     again.c[i].sustained != n[0].c[i].sustained) ||
			    strcmp(again.c[i].flag, n[0].c[i].flag))
				abort();
		free(enc);
	}
	free(text);
	return 0;
}
