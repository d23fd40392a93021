/* options.h: strict parsing of numbers, lists, names, paths and sizes given on the command
 * line */
#ifndef RT_OPTIONS_H
#define RT_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include "base/err.h"

#define RT_OPT_LIST_MAX 64

/* Parse a whole decimal integer in [min, max]; "12x", "", " 3", overflow and out-of-range values
 * are errors naming the option: "--threads: '0' is not in 1..2". */
int rt_opt_parse_long(long *out, const char *opt, const char *arg, long min, long max,
		      struct rt_err *err);

/* Parse a finite floating-point number in [min, max]. */
int rt_opt_parse_double(double *out, const char *opt, const char *arg, double min, double max,
			struct rt_err *err);

/* Split a comma-separated list into a writable copy (buf): items[0..return), at most cap;
 * an empty list, an empty item or more than cap items are errors naming opt. */
int rt_opt_split_list(char *buf, size_t bufsz, char **items, size_t cap, const char *opt,
		      const char *arg, struct rt_err *err);

/* Parse a comma-separated list of integers in [min, max] into out[0..*n); at most cap values,
 * no empty items, no duplicates. */
int rt_opt_parse_long_list(long *out, size_t *n, size_t cap, const char *opt, const char *arg,
			   long min, long max, struct rt_err *err);

/* Parse a comma-separated list of names, each one of choices[0..nchoices); sets mask bit i for
 * choice i. Unknown or duplicate names are errors listing the valid choices. */
int rt_opt_parse_names(unsigned *mask, const char *opt, const char *arg,
		       const char *const *choices, size_t nchoices, struct rt_err *err);

/* A file or directory name: any non-empty string ("--out: the directory name is empty");
 * what is "file" or "directory". */
int rt_opt_parse_path(const char **out, const char *opt, const char *arg, const char *what,
		      struct rt_err *err);

/* Parse a byte size with an optional binary suffix: 4096, 48K, 48KiB, 2M, 1G. */
int rt_opt_parse_size(size_t *out, const char *opt, const char *arg, size_t min, size_t max,
		      struct rt_err *err);

#endif
