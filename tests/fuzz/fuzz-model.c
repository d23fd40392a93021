/* fuzz-model.c: model files: any input is a model or an error, never a crash */
#include "config.h"
#include "cnn/model.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_model *m = NULL;
	struct rt_err err;

	if (rt_model_load(&m, fuzz_file("m.cfg", data, size), &err) == 0) {
		struct rt_model_totals t;

		rt_model_totals(m, 64, &t);
		rt_model_destroy(m);
	}
	return 0;
}
