/* util.h: what the modules share: a growing text buffer, clocks, this process's CPU time,
 * medians, files read whole or by bounded lines, safe host file names, a results directory's
 * lock, outputs written under a temporary name and renamed when complete */
#ifndef RT_UTIL_H
#define RT_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "base/err.h"

/* A growing text buffer, for text whose length comes from input (a path given, a line read, a
 * command line, the environment) where a fixed array would cut it (git's strbuf). Embedded:
 * rt_buf_init, rt_buf_fini. s is always NUL-terminated ("" before anything is added); an
 * allocation that fails leaves the text as it was, returns -ENOMEM and sets failed, so that a
 * caller may add several pieces and check once. */
struct rt_buf {
	char *s;
	size_t len, cap;                /* cap 0: s is a shared "" (nothing allocated yet) */
	bool failed;
};
void rt_buf_init(struct rt_buf *b);
/* Frees the text; b is empty again (rt_buf_init's state). */
void rt_buf_fini(struct rt_buf *b);
/* Empty, keeping the room. */
void rt_buf_reset(struct rt_buf *b);
/* Append n bytes of s, or s whole, or a formatted text: 0, or -ENOMEM. */
int rt_buf_add(struct rt_buf *b, const char *s, size_t n);
int rt_buf_puts(struct rt_buf *b, const char *s);
int rt_buf_printf(struct rt_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The directory part of path appended: "." when it has no '/', "/" for a file in the root. */
int rt_buf_dirname(struct rt_buf *b, const char *path);

/* Seconds on CLOCK_MONOTONIC. */
double rt_now(void);

/* The whole of a file (NUL-terminated, *len bytes before the NUL; caller frees), or NULL
 * with err set. rt_slurp refuses files over 1 GiB, rt_slurp_max over max bytes (-EFBIG),
 * having read no more than that. */
char *rt_slurp(const char *path, size_t *len, struct rt_err *err);
char *rt_slurp_max(const char *path, size_t *len, size_t max, struct rt_err *err);

/* One line of fp into *buf (grown as needed up to max bytes; *cap its size), without its
 * newline, NUL-terminated, *len its length; *ended when a newline ended it (false: the
 * file's last line had none). 1: a line; 0: the end of the file; -E2BIG: the line is longer
 * than max - 1 bytes (it was read to its end but not kept: nothing holds a long line in
 * memory); -ENOMEM, -EIO. */
int rt_read_line(FILE *fp, char **buf, size_t *cap, size_t max, size_t *len, bool *ended);

/* Whether s is a safe file name made from a name (a host's): 1 to 255 letters, digits, '.',
 * '_' and '-', not starting with '.'; never a path. */
bool rt_safe_name(const char *s);
/* s as a safe file name in dst: every other character (and a leading '.') becomes '_'; an
 * empty s becomes "localhost". True when dst is s unchanged. */
bool rt_safe_name_map(char *dst, size_t size, const char *s);

/* One writer per results directory: an advisory lock (flock) on DIR/.rooftraj.lock, held
 * until released or the process ends (never inherited by the programs it runs). A second
 * writer is refused at once (-EBUSY) with the holder's process id and what it is doing
 * (`what`, written into the lock file). */
struct rt_dirlock {
	int fd;
};
int rt_dirlock_take(struct rt_dirlock *l, const char *dir, const char *what, struct rt_err *err);
void rt_dirlock_release(struct rt_dirlock *l);

/* rename(2) that never replaces an existing path: 0, or -errno (-EEXIST when `to` exists). */
int rt_rename_noreplace(const char *from, const char *to);

/* Format a message and hand it to fn(ctx, msg) (nothing when fn is NULL): how the library
 * says things (progress, notes) without printing. */
void rt_say(void (*fn)(void *ctx, const char *msg), void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID), seconds: exact to the moment read.
 * The process's clock is not, for threads running on other CPUs at that moment (up to a tick
 * each), so a share of threads x wall time takes each thread's own. */
double rt_thread_cpu(void);
/* From the kernel's schedstat of each of this process's threads, the time they ran (*run) and
 * the time they were runnable but waited for a CPU (*delay), seconds (both 0 where the kernel
 * has no schedstat). */
void rt_process_sched(double *run, double *delay);

/* Median of v[0..n) (v is sorted in place); 0 when n == 0. */
double rt_median(double *v, size_t n);

/* An output file written under PATH.tmp and renamed to PATH when complete. */
struct rt_outfile_sink;
struct rt_outfile {
	FILE *fp;
	struct rt_outfile_sink *sink;   /* fp's descriptor and the first error a write met */
	char path[4096];
	char tmp[4200];
};

/* Open a new temporary file beside PATH for writing: PATH.XXXXXX.tmp, a name nobody can
 * guess, created exclusively (a link planted in its place is never followed), with the
 * permissions of a new file under the umask; creates missing parent directories. A PATH that
 * ends in '/' names a directory: -EISDIR. A PATH that holds anything but a regular file (a
 * directory: -EISDIR; a device, a FIFO, a socket, or a link to one: -EINVAL) is refused
 * naming it, and looked at again before the rename: it is never replaced. */
int rt_outfile_open(struct rt_outfile *of, const char *path, struct rt_err *err);
/* The same for DIR/NAME, the path built to its length (one too long for a path is refused
 * by name, never cut into another). */
int rt_outfile_open_in(struct rt_outfile *of, const char *dir, const char *name,
		       struct rt_err *err);
/* Flush, check every write, close and rename into place; on any error the temporary file is
 * removed and PATH is left as it was. A write that failed is said by its own error (a full
 * disk: "No space left on device"), whenever it happened. */
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
/* A directory of a tool's own in a results directory (DIR/onednn, DIR/rank-K): made, or one
 * that is there taken only when it is a directory itself, never a symbolic link (an output
 * written through one would replace a file outside DIR): -ENOTDIR naming the path. */
int rt_mkdir_own(const char *dir, struct rt_err *err);

/* s as a libconfig string literal ("..."): quotes and backslashes escaped, control characters
 * as \xNN, so that libconfig reads back exactly s. The one escaper of every libconfig file
 * rooftraj writes (profiles, run.cfg, the cluster profile). */
void rt_cfg_put_str(FILE *fp, const char *s);
/* text as it is (a member's name: ";\n  host = "), then s as rt_cfg_put_str writes it. */
void rt_cfg_put_member(FILE *fp, const char *text, const char *s);

/* s made safe to print on a terminal: each control character (C0, DEL, and C1 as UTF-8
 * writes it: an escape sequence's ESC or CSI) as '?', the rest as it is; into dst (size bytes,
 * cut to fit). rt_fputs_printable writes it on fp. The text of a file (a profile's host, its
 * created time) goes through one of them before it reaches a terminal. */
void rt_printable(char *dst, size_t size, const char *s);
void rt_fputs_printable(const char *s, FILE *fp);

/* Whether word is one of list's words, each ended by sep or the list's end. */
bool rt_word_in(const char *list, char sep, const char *word);

/* The memory this process may use, bytes: the least of MemAvailable (/proc/meminfo) and what
 * its memory cgroup leaves (the cgroup v1 memory controller's memory.limit_in_bytes less
 * memory.usage_in_bytes, or v2's memory.max less memory.current, inactive page cache not
 * counted as used; the least over its cgroup and every one above it), found from
 * /proc/self/cgroup and /proc/self/mountinfo, each file read under ROOFTRAJ_SYSROOT when a test
 * sets it. The one place memory is sized from. why (size bytes, may be NULL): which bound it
 * is, in words ("MemAvailable", "its memory cgroup's limit (200 MiB, 12 MiB of it in use)").
 * 0 when nothing says. */
unsigned long long rt_mem_usable(char *why, size_t size);
/* rt_mem_usable without the words. */
unsigned long long rt_mem_available(void);

/* ISO 8601 UTC timestamp of now. */
void rt_timestamp(char *buf, size_t size);

/* Append len bytes of buf to path (created when absent, never through a symbolic link) in
 * one piece: on a failed write the file is cut back to where it was, nothing half-written
 * stays (a results file's rows land whole or not at all). */
int rt_file_append(const char *path, const char *buf, size_t len, struct rt_err *err);

#endif
