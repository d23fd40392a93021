/* tap.h: a minimal TAP producer for the unit tests (automake's tap-driver.sh reads it) */
#ifndef RT_TAP_H
#define RT_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_n, tap_failed;

static inline int tap_report(int pass, const char *fmt, va_list ap)
{
	printf("%s %d - ", pass ? "ok" : "not ok", ++tap_n);
	vprintf(fmt, ap);
	printf("\n");
	if (!pass)
		tap_failed++;
	fflush(stdout);
	return pass;
}

__attribute__((format(printf, 2, 3), unused))
static int ok(int pass, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = tap_report(pass, fmt, ap);
	va_end(ap);
	return r;
}

__attribute__((format(printf, 3, 4), unused))
static int is_int(long long got, long long want, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = tap_report(got == want, fmt, ap);
	va_end(ap);
	if (!r)
		printf("#   got %lld, want %lld\n", got, want);
	return r;
}

/* |got - want| <= rel_tol * |want| (rel_tol 0: exact) */
__attribute__((format(printf, 4, 5), unused))
static int is_double(double got, double want, double rel_tol, const char *fmt, ...)
{
	va_list ap;
	int pass = rel_tol == 0 ? got == want : fabs(got - want) <= rel_tol * fabs(want);
	int r;

	va_start(ap, fmt);
	r = tap_report(pass, fmt, ap);
	va_end(ap);
	if (!r)
		printf("#   got %.17g, want %.17g (rel tol %g)\n", got, want, rel_tol);
	return r;
}

__attribute__((format(printf, 3, 4), unused))
static int is_str(const char *got, const char *want, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = tap_report(got && want && !strcmp(got, want), fmt, ap);
	va_end(ap);
	if (!r)
		printf("#   got '%s', want '%s'\n", got ? got : "(null)", want ? want : "(null)");
	return r;
}

/* got contains want */
__attribute__((format(printf, 3, 4), unused))
static int like(const char *got, const char *want, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = tap_report(got && want && strstr(got, want) != NULL, fmt, ap);
	va_end(ap);
	if (!r)
		printf("#   '%s' does not contain '%s'\n", got ? got : "(null)", want);
	return r;
}

__attribute__((format(printf, 1, 2), unused))
static void skip(const char *fmt, ...)
{
	va_list ap;

	printf("ok %d # SKIP ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* A file's contents as a string in buf (cut to size - 1 bytes); false when it cannot be read
 * (buf is then ""). */
__attribute__((unused)) static bool slurp(const char *path, char *buf, size_t size)
{
	FILE *fp = fopen(path, "rb");
	size_t n = 0;

	if (fp) {
		n = fread(buf, 1, size - 1, fp);
		fclose(fp);
	}
	buf[n] = '\0';
	return fp != NULL;
}

__attribute__((unused)) static int done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
