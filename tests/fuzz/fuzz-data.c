/* fuzz-data.c: MNIST idx files and CIFAR-10 batches: the first byte picks the format, the rest
 * is split into the files the reader opens */
#include "config.h"
#include "cnn/data.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_model m;
	struct rt_data *d = NULL;
	struct rt_err err;
	char spec[128];

	if (size < 1)
		return 0;
	memset(&m, 0, sizeof(m));
	m.classes = 10;
	snprintf(m.name, sizeof(m.name), "fuzz");
	if (data[0] & 1) {
		size_t half = (size - 1) / 2;

		m.input = (struct rt_shape){ 1, 28, 28 };
		fuzz_file("train-images-idx3-ubyte", data + 1, half);
		fuzz_file("train-labels-idx1-ubyte", data + 1 + half, size - 1 - half);
		snprintf(spec, sizeof(spec), "mnist:%s", fuzz_dir);
	} else {
		m.input = (struct rt_shape){ 3, 32, 32 };
		fuzz_file("data_batch_1.bin", data + 1, size - 1);
		snprintf(spec, sizeof(spec), "cifar10:%s", fuzz_dir);
	}
	if (rt_data_open(&d, spec, &m, 1, &err) == 0) {
		static float img[3 * 3072];
		int32_t lab[3];

		rt_data_next(d, 3, img, lab);
		for (int i = 0; i < 3; i++)
			if (lab[i] < 0 || lab[i] > 9)
				abort();
		rt_data_destroy(d);
	}
	return 0;
}
