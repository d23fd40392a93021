/* cfgread.c: the one strict reader of rooftraj's libconfig files */
#include "config.h"
#include "base/cfgread.h"
#include "base/util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int rt_cfg_read(config_t *cfg, const char *path, struct rt_err *err)
{
	struct stat st;
	int rc;

	config_init(cfg);
	if ((rc = rt_check_regular(path, err)))
		return rc;
	/* every file rooftraj reads this way is small: a huge one is never read whole */
	if (!stat(path, &st) && st.st_size > RT_CFG_MAX_BYTES)
		return rt_err_set(err, -EFBIG, "%s: %lld bytes, larger than any rooftraj file "
				  "(%d MiB at most): not read", path, (long long)st.st_size,
				  RT_CFG_MAX_BYTES >> 20);
	if (config_read_file(cfg, path))
		return 0;
	if (config_error_type(cfg) == CONFIG_ERR_FILE_IO) {
		int e = errno ? errno : ENOENT;

		if (access(path, F_OK))
			return rt_err_set(err, -ENOENT, "%s: cannot read: %s", path, strerror(ENOENT));
		return rt_err_set(err, -EIO, "%s: cannot read: %s", path, strerror(e));
	}
	return rt_err_set(err, -EINVAL, "%s:%d: %s", path, config_error_line(cfg),
			  config_error_text(cfg));
}

static int line_of(const config_setting_t *s)
{
	int line = s ? config_setting_source_line(s) : 0;

	return line > 0 ? line : 1;
}

int rt_cfg_bad(const struct rt_cfg_reader *r, const config_setting_t *at, const char *ctx,
	       const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = rt_err_vset_at(r->err, -EINVAL, r->path, line_of(at), ctx, fmt, ap);
	va_end(ap);
	return rc;
}

int rt_cfg_string(const struct rt_cfg_reader *r, const config_setting_t *grp, const char *ctx,
		      const char *name, char *buf, size_t size, bool required)
{
	const config_setting_t *s = config_setting_get_member(grp, name);
	const char *v;

	if (!s) {
		if (required)
			return rt_cfg_bad(r, grp, ctx, "missing '%s'", name);
		buf[0] = '\0';
		return 0;
	}
	if (config_setting_type(s) != CONFIG_TYPE_STRING)
		return rt_cfg_bad(r, s, ctx, "'%s' must be a string", name);
	v = config_setting_get_string(s);
	if (required && !*v)
		return rt_cfg_bad(r, s, ctx, "'%s' must not be empty", name);
	if (strlen(v) >= size)
		return rt_cfg_bad(r, s, ctx, "'%s' is longer than %zu characters", name, size - 1);
	snprintf(buf, size, "%s", v);
	return 0;
}

int rt_cfg_int(const struct rt_cfg_reader *r, const config_setting_t *grp, const char *ctx,
		   const char *name, long long *out, long long min, long long max, bool required)
{
	const config_setting_t *s = config_setting_get_member(grp, name);
	long long v;

	if (!s) {
		if (required)
			return rt_cfg_bad(r, grp, ctx, "missing '%s'", name);
		*out = 0;
		return 0;
	}
	if (config_setting_type(s) == CONFIG_TYPE_INT)
		v = config_setting_get_int(s);
	else if (config_setting_type(s) == CONFIG_TYPE_INT64)
		v = config_setting_get_int64(s);
	else
		return rt_cfg_bad(r, s, ctx, "'%s' must be an integer", name);
	if (v < min || v > max)
		return rt_cfg_bad(r, s, ctx, "'%s' = %lld is not in %lld..%lld", name, v, min, max);
	*out = v;
	return 0;
}

int rt_cfg_num(const struct rt_cfg_reader *r, const config_setting_t *grp, const char *ctx,
		   const char *name, double *out, bool positive, bool required)
{
	const config_setting_t *s = config_setting_get_member(grp, name);
	double v;

	if (!s) {
		if (required)
			return rt_cfg_bad(r, grp, ctx, "missing '%s'", name);
		*out = 0;
		return 0;
	}
	switch (config_setting_type(s)) {
	case CONFIG_TYPE_FLOAT: v = config_setting_get_float(s); break;
	case CONFIG_TYPE_INT: v = config_setting_get_int(s); break;
	case CONFIG_TYPE_INT64: v = (double)config_setting_get_int64(s); break;
	default: return rt_cfg_bad(r, s, ctx, "'%s' must be a number", name);
	}
	if (!isfinite(v) || v < 0 || (positive && v == 0))
		return rt_cfg_bad(r, s, ctx, "'%s' must be a %s number", name,
			   positive ? "positive" : "non-negative");
	*out = v;
	return 0;
}

int rt_cfg_rate(const struct rt_cfg_reader *r, const config_setting_t *grp, const char *ctx,
		const char *name, double *out, double min, double max, const char *unit,
		bool required)
{
	const config_setting_t *s = config_setting_get_member(grp, name);
	int rc = rt_cfg_num(r, grp, ctx, name, out, required, required);

	if (rc || !s || (!required && *out == 0))
		return rc;
	if (*out < min || *out > max)
		return rt_cfg_bad(r, s, ctx, "'%s' %g %s is not a rate a node can have (%g..%g)",
				  name, *out, unit, min, max);
	return 0;
}

int rt_cfg_bool(const struct rt_cfg_reader *r, const config_setting_t *grp, const char *ctx,
		    const char *name, bool *out)
{
	const config_setting_t *s = config_setting_get_member(grp, name);

	*out = false;
	if (!s)
		return 0;
	if (config_setting_type(s) != CONFIG_TYPE_BOOL)
		return rt_cfg_bad(r, s, ctx, "'%s' must be true or false", name);
	*out = config_setting_get_bool(s);
	return 0;
}

int rt_cfg_list(const struct rt_cfg_reader *r, const config_setting_t *grp, const char *name,
		    const config_setting_t **out, bool required)
{
	const config_setting_t *s = config_setting_get_member(grp, name);

	*out = NULL;
	if (!s)
		return required ? rt_cfg_bad(r, grp, "", "missing '%s'", name) : 0;
	if (config_setting_type(s) != CONFIG_TYPE_LIST)
		return rt_cfg_bad(r, s, "", "'%s' must be a list ( {...}, ... )", name);
	for (int i = 0; i < config_setting_length(s); i++) {
		const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);

		/* libconfig's line for a scalar element can be the next line: name the list's */
		if (config_setting_type(e) != CONFIG_TYPE_GROUP)
			return rt_cfg_bad(r, s, "", "%s[%d] must be a group { ... }", name, i);
	}
	*out = s;
	return 0;
}

int rt_cfg_string_ref(const struct rt_cfg_reader *r, const config_setting_t *grp,
		      const char *ctx, const char *name, const char **out)
{
	const config_setting_t *s = config_setting_get_member(grp, name);

	*out = NULL;
	if (!s)
		return 0;
	if (config_setting_type(s) != CONFIG_TYPE_STRING)
		return rt_cfg_bad(r, s, ctx, "'%s' must be a string", name);
	*out = config_setting_get_string(s);
	return 0;
}
