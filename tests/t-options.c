/* t-options.c: strict parsing of numbers, lists, names and sizes */
#include "config.h"
#include "base/options.h"
#include "tap.h"

#include <errno.h>
#include <stdint.h>

int main(void)
{
	struct rt_err err;
	long v = -1, list[RT_OPT_LIST_MAX];
	double d = 0;
	size_t n = 0, sz = 0;
	unsigned mask = 0;
	static const char *const isas[] = { "scalar", "sse", "avx2", "avx512" };

	is_int(rt_opt_parse_long(&v, "--threads", "2", 1, 2, &err), 0, "'2' parses");
	is_int(v, 2, "value 2");
	is_int(rt_opt_parse_long(&v, "--threads", "0", 1, 2, &err), -ERANGE, "'0' out of range");
	is_str(err.msg, "--threads: '0' is not in 1..2", "message names option, value, range");
	is_int(rt_opt_parse_long(&v, "--threads", "abc", 1, 2, &err), -EINVAL, "'abc' rejected");
	is_str(err.msg, "--threads: 'abc' is not a number", "message for a non-number");
	ok(rt_opt_parse_long(&v, "-t", "3x", 1, 9, &err) == -EINVAL, "trailing junk rejected");
	ok(rt_opt_parse_long(&v, "-t", "", 1, 9, &err) == -EINVAL, "empty rejected");
	ok(rt_opt_parse_long(&v, "-t", " 3", 1, 9, &err) == -EINVAL, "leading space rejected");
	ok(rt_opt_parse_long(&v, "-t", "99999999999999999999", 1, 9, &err) == -ERANGE,
	   "overflow is out of range, not clamped");
	is_int(v, 2, "a failed parse leaves the value alone");

	is_int(rt_opt_parse_double(&d, "--x", "2.5e-3", 0, 1, &err), 0, "double parses");
	is_double(d, 2.5e-3, 0, "double value");
	ok(rt_opt_parse_double(&d, "--x", "nan", 0, 1, &err) == -EINVAL, "nan rejected");
	ok(rt_opt_parse_double(&d, "--x", "2", 0, 1, &err) == -ERANGE, "double range");

	is_int(rt_opt_parse_long_list(list, &n, 8, "--threads", "1,2,4", 1, 64, &err), 0,
	       "list parses");
	is_int((long long)n, 3, "three items");
	is_int(list[0] + 10 * list[1] + 100 * list[2], 421, "items in order");
	ok(rt_opt_parse_long_list(list, &n, 8, "-t", "1,,2", 1, 64, &err) == -EINVAL &&
	   strstr(err.msg, "empty item"), "empty item rejected: %s", err.msg);
	ok(rt_opt_parse_long_list(list, &n, 8, "-t", "1,2,", 1, 64, &err) == -EINVAL,
	   "trailing comma rejected");
	ok(rt_opt_parse_long_list(list, &n, 8, "-t", "2,2", 1, 64, &err) == -EINVAL &&
	   strstr(err.msg, "appears twice"), "duplicate rejected: %s", err.msg);
	ok(rt_opt_parse_long_list(list, &n, 2, "-t", "1,2,3", 1, 64, &err) == -EINVAL,
	   "more items than allowed rejected");

	is_int(rt_opt_parse_names(&mask, "--isa", "avx2,scalar", isas, 4, &err), 0, "names parse");
	is_int(mask, (1 << 0) | (1 << 2), "mask has scalar and avx2");
	ok(rt_opt_parse_names(&mask, "--isa", "avx3", isas, 4, &err) == -EINVAL, "unknown name");
	is_str(err.msg, "--isa: unknown value 'avx3' (one of: scalar, sse, avx2, avx512)",
	       "message lists the choices");

	is_int(rt_opt_parse_size(&sz, "--ws", "48K", 1, SIZE_MAX, &err), 0, "48K parses");
	is_int((long long)sz, 48 * 1024, "48K is 49152");
	rt_opt_parse_size(&sz, "--ws", "2MiB", 1, SIZE_MAX, &err);
	is_int((long long)sz, 2 << 20, "2MiB");
	ok(rt_opt_parse_size(&sz, "--ws", "3Q", 1, SIZE_MAX, &err) == -EINVAL, "unknown unit");
	ok(rt_opt_parse_size(&sz, "--ws", "-1", 1, SIZE_MAX, &err) == -EINVAL, "negative size");
	return done_testing();
}
