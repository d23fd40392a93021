/* comm.h: data parallelism across processes, as the trainer sees it (src/cluster.c implements
 * it with MPI): every rank trains its shard of the global batch from the same initial weights,
 * and the weight gradients are summed over the ranks (started layer by layer during backward,
 * finished in the comm phase), so every rank applies the same update. */
#ifndef RT_COMM_H
#define RT_COMM_H

#include <stddef.h>
#include "base/err.h"

struct rt_comm {
	int rank, size;
	/* start summing a weight gradient over the ranks, in place */
	int (*start)(void *ctx, float *grad, size_t count, struct rt_err *err);
	/* finish every started sum */
	int (*finish)(void *ctx, struct rt_err *err);
	/* the sum of a value over the ranks: status agreement, counters */
	double (*sum)(void *ctx, double v);
	void *ctx;
};

#endif
