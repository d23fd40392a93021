/* data.h: training data sources: seeded synthetic images with learnable classes, MNIST (idx
 * files) and CIFAR-10 (binary batches) */
#ifndef RT_DATA_H
#define RT_DATA_H

#include <stdint.h>
#include "base/err.h"
#include "cnn/model.h"

struct rt_data;

/* spec: "synthetic", "mnist:DIR" or "cifar10:DIR". The source must fit the model's input and
 * classes. Caller owns *out (rt_data_destroy). */
int rt_data_open(struct rt_data **out, const char *spec, const struct rt_model *m, uint64_t seed,
		 struct rt_err *err);
void rt_data_destroy(struct rt_data *d);
/* Fill a batch: n images in plain NCHW and their labels (wraps around a file's records).
 * Cannot fail: the source was read and checked when it was opened. */
void rt_data_next(struct rt_data *d, long n, float *images, int32_t *labels);
/* Skip n images of the stream (a data-parallel rank skips the other ranks' shards). */
void rt_data_skip(struct rt_data *d, long n);
/* "synthetic", "mnist (60000 images)", ... */
const char *rt_data_describe(const struct rt_data *d);

#endif
