/* err.c: error records filled by library functions and printed by the front ends */
#include "config.h"
#include "base/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void rt_err_clear(struct rt_err *err)
{
	if (!err)
		return;
	err->code = 0;
	err->msg[0] = '\0';
}

int rt_err_set(struct rt_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

void rt_err_prefix(struct rt_err *err, const char *fmt, ...)
{
	char pre[256], old[sizeof(err->msg)];
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(pre, sizeof(pre), fmt, ap);
	va_end(ap);
	snprintf(old, sizeof(old), "%s", err->msg);
	snprintf(err->msg, sizeof(err->msg), "%.200s: %.300s", pre, old);
}

int rt_err_vset_at(struct rt_err *err, int code, const char *file, int line, const char *ctx,
		   const char *fmt, va_list ap)
{
	char what[400];

	vsnprintf(what, sizeof(what), fmt, ap);
	return rt_err_set(err, code, "%s:%d: %s%s%s", file, line > 0 ? line : 1, ctx,
			  *ctx ? ": " : "", what);
}
