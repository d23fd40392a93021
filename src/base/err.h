/* err.h: error reporting for the rooftraj library (code plus a message the caller prints) */
#ifndef RT_ERR_H
#define RT_ERR_H

#include <stdarg.h>
#include <stddef.h>

/* A message's room: a path as long as the kernel takes (PATH_MAX) and what is wrong with it.
 * A longer one ends in RT_ERR_CUT, so that a reader knows it is not whole. */
#define RT_ERR_MSG 5120
#define RT_ERR_CUT " [...]"

struct rt_err {
	int code;               /* 0 or a negative errno value */
	char msg[RT_ERR_MSG];   /* "FILE:LINE: what is wrong", no trailing newline */
};

/* Clear an error record. */
void rt_err_clear(struct rt_err *err);

/* Fill err (which may be NULL) with code and a printf-style message; returns code so that
 * callers can write `return rt_err_set(err, -EINVAL, ...)` or `rc = rt_err_set(...); goto out`. */
int rt_err_set(struct rt_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "FILE:LINE: CTX: what" (CTX may be empty): the form of every input error. */
int rt_err_vset_at(struct rt_err *err, int code, const char *file, int line, const char *ctx,
		   const char *fmt, va_list ap) __attribute__((format(printf, 6, 0)));

/* Prefix the existing message with a context string ("while probing L2: ..."), both whole
 * (cut at the end as a whole is). */
void rt_err_prefix(struct rt_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
