/* util.h: clocks, statistics and atomic file output shared by the modules */
#ifndef RT_UTIL_H
#define RT_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "err.h"

/* Seconds on CLOCK_MONOTONIC. */
double rt_now(void);

/* The whole of a file (NUL-terminated, *len bytes before the NUL; caller frees), or NULL
 * with err set. */
char *rt_slurp(const char *path, size_t *len, struct rt_err *err);

/* Format a message and hand it to fn(ctx, msg) (nothing when fn is NULL): how the library
 * says things (progress, notes) without printing. */
void rt_say(void (*fn)(void *ctx, const char *msg), void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Median of v[0..n) (v is sorted in place); 0 when n == 0. */
double rt_median(double *v, size_t n);

/* An output file written under PATH.tmp and renamed to PATH when complete. */
struct rt_outfile {
	FILE *fp;
	char path[4096];
	char tmp[4096];
};

/* Open PATH.tmp for writing; creates missing parent directories. */
int rt_outfile_open(struct rt_outfile *of, const char *path, struct rt_err *err);
/* Flush, check every write, close and rename into place; on any error the temporary file is
 * removed and PATH is left as it was. */
int rt_outfile_commit(struct rt_outfile *of, struct rt_err *err);
/* The two halves of a commit: flush, check every write and close PATH.tmp (removed on an
 * error); then rename it to PATH. Between them the complete temporary file can be used. */
int rt_outfile_close(struct rt_outfile *of, struct rt_err *err);
int rt_outfile_rename(struct rt_outfile *of, struct rt_err *err);
/* Remove the temporary file without touching PATH (NULL-safe, idempotent). */
void rt_outfile_abort(struct rt_outfile *of);

/* An input that exists must be a regular file: a FIFO would hang the reader, a directory or a
 * device would give a misleading error. 0 when path is a regular file or does not exist
 * (the caller's open says so then); -EINVAL "PATH: not a regular file (a FIFO)" otherwise. */
int rt_check_regular(const char *path, struct rt_err *err);

/* mkdir -p */
int rt_mkdir_p(const char *dir, struct rt_err *err);

/* s as a libconfig string literal ("..."): quotes and backslashes escaped, control characters
 * as \xNN, so that libconfig reads back exactly s. The one escaper of every libconfig file
 * rooftraj writes (profiles, run.cfg, the cluster profile). */
void rt_cfg_put_str(FILE *fp, const char *s);

/* Copy the directory part of path ("." if none) into buf. */
void rt_dirname(char *buf, size_t size, const char *path);

/* MemAvailable from /proc/meminfo, bytes; 0 when the OS does not say. */
unsigned long long rt_mem_available(void);

/* ISO 8601 UTC timestamp of now. */
void rt_timestamp(char *buf, size_t size);

#endif
