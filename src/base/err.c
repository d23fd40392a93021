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

/* The message whole, or cut with RT_ERR_CUT at its end (n: the length it wanted). */
static void mark_cut(struct rt_err *err, int n)
{
	if (n >= (int)sizeof(err->msg))
		memcpy(err->msg + sizeof(err->msg) - sizeof(RT_ERR_CUT), RT_ERR_CUT,
		       sizeof(RT_ERR_CUT));
}

int rt_err_set(struct rt_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	err->code = code;
	va_start(ap, fmt);
	mark_cut(err, vsnprintf(err->msg, sizeof(err->msg), fmt, ap));
	va_end(ap);
	return code;
}

void rt_err_prefix(struct rt_err *err, const char *fmt, ...)
{
	char pre[sizeof(err->msg)], old[sizeof(err->msg)];
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(pre, sizeof(pre), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	mark_cut(err, snprintf(err->msg, sizeof(err->msg), "%s: %s", pre, old));
}

int rt_err_vset_at(struct rt_err *err, int code, const char *file, int line, const char *ctx,
		   const char *fmt, va_list ap)
{
	char what[sizeof(err->msg)];

	vsnprintf(what, sizeof(what), fmt, ap);
	return rt_err_set(err, code, "%s:%d: %s%s%s", file, line > 0 ? line : 1, ctx,
			  *ctx ? ": " : "", what);
}
