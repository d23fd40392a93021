/* options.c: strict number and list parsing for the command-line tools (no atoi, no clamping) */
#include "config.h"
#include "base/options.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

int rt_opt_parse_long(long *out, const char *opt, const char *arg, long min, long max,
		      struct rt_err *err)
{
	char *end = NULL;
	long v;

	if (!arg || !*arg || isspace((unsigned char)*arg))
		return rt_err_set(err, -EINVAL, "%s: '%s' is not a number", opt, arg ? arg : "");
	errno = 0;
	v = strtol(arg, &end, 10);
	if (*end != '\0')
		return rt_err_set(err, -EINVAL, "%s: '%s' is not a number", opt, arg);
	if (errno == ERANGE || v < min || v > max)
		return rt_err_set(err, -ERANGE, "%s: '%s' is not in %ld..%ld", opt, arg, min, max);
	*out = v;
	return 0;
}

int rt_opt_parse_double(double *out, const char *opt, const char *arg, double min, double max,
			struct rt_err *err)
{
	char *end = NULL;
	double v;

	if (!arg || !*arg || isspace((unsigned char)*arg))
		return rt_err_set(err, -EINVAL, "%s: '%s' is not a number", opt, arg ? arg : "");
	errno = 0;
	v = strtod(arg, &end);
	if (*end != '\0' || !isfinite(v))
		return rt_err_set(err, -EINVAL, "%s: '%s' is not a number", opt, arg);
	if (errno == ERANGE || v < min || v > max)
		return rt_err_set(err, -ERANGE, "%s: '%s' is not in %g..%g", opt, arg, min, max);
	*out = v;
	return 0;
}

static int split_list(char *buf, size_t bufsz, char **items, size_t cap, const char *opt,
		      const char *arg, struct rt_err *err);

int rt_opt_split_list(char *buf, size_t bufsz, char **items, size_t cap, const char *opt,
		      const char *arg, struct rt_err *err)
{
	return split_list(buf, bufsz, items, cap, opt, arg, err);
}

/* Split arg at commas into a writable copy; returns the number of items or a negative error. */
static int split_list(char *buf, size_t bufsz, char **items, size_t cap, const char *opt,
		      const char *arg, struct rt_err *err)
{
	size_t n = 0;
	char *p;

	if (!arg || !*arg)
		return rt_err_set(err, -EINVAL, "%s: the list is empty", opt);
	if (strlen(arg) >= bufsz)
		return rt_err_set(err, -EINVAL, "%s: the list is longer than %zu characters", opt,
				  bufsz - 1);
	snprintf(buf, bufsz, "%s", arg);
	p = buf;
	for (;;) {
		char *comma = strchr(p, ',');

		if (comma)
			*comma = '\0';
		if (!*p)
			return rt_err_set(err, -EINVAL, "%s: '%s' has an empty item", opt, arg);
		if (n == cap)
			return rt_err_set(err, -EINVAL, "%s: more than %zu items", opt, cap);
		items[n++] = p;
		if (!comma)
			break;
		p = comma + 1;
	}
	return (int)n;
}

int rt_opt_parse_long_list(long *out, size_t *n, size_t cap, const char *opt, const char *arg,
			   long min, long max, struct rt_err *err)
{
	char buf[1024], *items[RT_OPT_LIST_MAX];
	int cnt, rc;

	if (cap > RT_OPT_LIST_MAX)
		cap = RT_OPT_LIST_MAX;
	cnt = split_list(buf, sizeof(buf), items, cap, opt, arg, err);
	if (cnt < 0)
		return cnt;
	for (int i = 0; i < cnt; i++) {
		rc = rt_opt_parse_long(&out[i], opt, items[i], min, max, err);
		if (rc)
			return rc;
		for (int j = 0; j < i; j++)
			if (out[j] == out[i])
				return rt_err_set(err, -EINVAL, "%s: '%s' appears twice", opt,
						  items[i]);
	}
	*n = (size_t)cnt;
	return 0;
}

int rt_opt_parse_names(unsigned *mask, const char *opt, const char *arg,
		       const char *const *choices, size_t nchoices, struct rt_err *err)
{
	char buf[1024], *items[RT_OPT_LIST_MAX];
	unsigned m = 0;
	int cnt;

	cnt = split_list(buf, sizeof(buf), items, RT_OPT_LIST_MAX, opt, arg, err);
	if (cnt < 0)
		return cnt;
	for (int i = 0; i < cnt; i++) {
		size_t c;

		for (c = 0; c < nchoices; c++)
			if (!strcmp(items[i], choices[c]))
				break;
		if (c == nchoices) {
			char list[256] = "";
			size_t len = 0;

			for (size_t k = 0; k < nchoices && len < sizeof(list); k++)
				len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
							k ? ", " : "", choices[k]);
			return rt_err_set(err, -EINVAL, "%s: unknown value '%s' (one of: %s)", opt,
					  items[i], list);
		}
		if (m & (1u << c))
			return rt_err_set(err, -EINVAL, "%s: '%s' appears twice", opt, items[i]);
		m |= 1u << c;
	}
	*mask = m;
	return 0;
}

int rt_opt_parse_size(size_t *out, const char *opt, const char *arg, size_t min, size_t max,
		      struct rt_err *err)
{
	static const struct { const char *suffix; unsigned shift; } units[] = {
		{ "", 0 }, { "B", 0 }, { "K", 10 }, { "KiB", 10 }, { "k", 10 }, { "kB", 10 },
		{ "M", 20 }, { "MiB", 20 }, { "MB", 20 }, { "G", 30 }, { "GiB", 30 }, { "GB", 30 },
	};
	char *end = NULL;
	unsigned long long v;

	if (!arg || !isdigit((unsigned char)*arg))
		return rt_err_set(err, -EINVAL, "%s: '%s' is not a size", opt, arg ? arg : "");
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno == ERANGE)
		return rt_err_set(err, -ERANGE, "%s: '%s' is too large", opt, arg);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].suffix))
			continue;
		if (units[i].shift && v > (SIZE_MAX >> units[i].shift))
			return rt_err_set(err, -ERANGE, "%s: '%s' is too large", opt, arg);
		v <<= units[i].shift;
		if (v < min || v > max)
			return rt_err_set(err, -ERANGE, "%s: '%s' is not in %zu..%zu bytes", opt,
					  arg, min, max);
		*out = (size_t)v;
		return 0;
	}
	return rt_err_set(err, -EINVAL, "%s: '%s' has an unknown unit (use K, M or G)", opt, arg);
}

int rt_opt_parse_path(const char **out, const char *opt, const char *arg, const char *what,
		      struct rt_err *err)
{
	if (!arg || !*arg)
		return rt_err_set(err, -EINVAL, "%s: the %s name is empty", opt, what);
	*out = arg;
	return 0;
}
