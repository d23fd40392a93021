/* fuzz-options.c: the command-line value parsers on any string */
#include "config.h"
#include "base/options.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "scalar", "sse", "avx2", "avx512" };
	char *s = malloc(size + 1);
	long v, list[RT_OPT_LIST_MAX];
	double x;
	size_t n, sz;
	unsigned mask;
	struct rt_err err;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (rt_opt_parse_long(&v, "--x", s, 1, 65536, &err) == 0 && (v < 1 || v > 65536))
		abort();
	if (rt_opt_parse_double(&x, "--x", s, 0, 10, &err) == 0 && !(x >= 0 && x <= 10))
		abort();
	if (rt_opt_parse_long_list(list, &n, RT_OPT_LIST_MAX, "--x", s, 1, 1024, &err) == 0)
		for (size_t i = 0; i < n; i++)
			if (list[i] < 1 || list[i] > 1024)
				abort();
	rt_opt_parse_names(&mask, "--x", s, names, 4, &err);
	rt_opt_parse_size(&sz, "--x", s, 1, (size_t)1 << 40, &err);
	free(s);
	return 0;
}
