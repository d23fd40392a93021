/* fuzz-points.c: points.csv as roofline-plot and --resume read it */
#include "config.h"
#include "results/points.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_point *pts = NULL;
	struct rt_err err;
	size_t n = 0;

	if (rt_points_csv_read(fuzz_file("points.csv", data, size), &pts, &n, &err) == 0) {
		for (size_t i = 0; i < n; i++)
			rt_point_derive(&pts[i]);
		free(pts);
	}
	return 0;
}
