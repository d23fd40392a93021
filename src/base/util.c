/* util.c: a growing text buffer, clocks, medians, bounded reads and lines, safe file names,
 * directory locks and atomic (temporary file + rename) output */
#define _GNU_SOURCE
#include "config.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

double rt_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double rt_thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void rt_process_sched(double *run, double *delay)
{
	DIR *d;
	struct dirent *e;

	*run = *delay = 0;
	if (!(d = opendir("/proc/self/task")))
		return;
	while ((e = readdir(d))) {
		char path[300];
		unsigned long long r = 0, w = 0;
		FILE *fp;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/schedstat", e->d_name);
		if (!(fp = fopen(path, "re")))
			continue;
		if (fscanf(fp, "%llu %llu", &r, &w) == 2) {
			*run += 1e-9 * (double)r;
			*delay += 1e-9 * (double)w;
		}
		fclose(fp);
	}
	closedir(d);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void rt_say(void (*fn)(void *ctx, const char *msg), void *ctx, const char *fmt, ...)
{
	char msg[1200];
	va_list ap;

	if (!fn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fn(ctx, msg);
}

double rt_median(double *v, size_t n)
{
	if (!n)
		return 0.0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* what an empty buffer points at: never written (cap 0 says so) */
static char buf_empty[1];

void rt_buf_init(struct rt_buf *b)
{
	b->s = buf_empty;
	b->len = b->cap = 0;
	b->failed = false;
}

void rt_buf_fini(struct rt_buf *b)
{
	if (b->cap)
		free(b->s);
	rt_buf_init(b);
}

void rt_buf_reset(struct rt_buf *b)
{
	b->len = 0;
	if (b->cap)
		b->s[0] = '\0';
}

/* Room for n more bytes and the NUL: 0, or -ENOMEM (failed set, the text unchanged). */
static int buf_grow(struct rt_buf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 64;
	char *s;

	if (n > SIZE_MAX / 2 - b->len - 1)
		goto fail;
	while (cap < b->len + n + 1)
		cap *= 2;
	if (cap == b->cap)
		return 0;
	if (!(s = realloc(b->cap ? b->s : NULL, cap)))
		goto fail;
	if (!b->cap)
		s[0] = '\0';
	b->s = s;
	b->cap = cap;
	return 0;
fail:
	b->failed = true;
	return -ENOMEM;
}

int rt_buf_add(struct rt_buf *b, const char *s, size_t n)
{
	int rc = buf_grow(b, n);

	if (rc)
		return rc;
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
	return 0;
}

int rt_buf_puts(struct rt_buf *b, const char *s)
{
	return rt_buf_add(b, s, strlen(s));
}

int rt_buf_printf(struct rt_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n, rc;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	if ((rc = buf_grow(b, (size_t)n)))
		return rc;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return 0;
}

int rt_buf_dirname(struct rt_buf *b, const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return rt_buf_puts(b, ".");
	if (slash == path)
		return rt_buf_puts(b, "/");
	return rt_buf_add(b, path, (size_t)(slash - path));
}

/* What a path that is not a regular file is, in words ("a FIFO"). */
static const char *kind_of(mode_t mode)
{
	return S_ISFIFO(mode) ? "a FIFO" : S_ISDIR(mode) ? "a directory" :
	       S_ISCHR(mode) || S_ISBLK(mode) ? "a device" : S_ISSOCK(mode) ? "a socket" :
	       "not a file";
}

int rt_check_regular(const char *path, struct rt_err *err)
{
	struct stat st;

	if (stat(path, &st))
		return 0;
	if (S_ISREG(st.st_mode))
		return 0;
	return rt_err_set(err, -EINVAL, "%s: not a regular file (%s)", path, kind_of(st.st_mode));
}

/* An output's path may hold nothing, a regular file (or a link to one: the link is what the
 * rename replaces) or nothing left of a link; a directory, a device, a FIFO or a socket there
 * (or a link to one) is never replaced: -EISDIR or -EINVAL naming the path and what it is. */
static int check_output(const char *path, struct rt_err *err)
{
	struct stat st;

	if (stat(path, &st) || S_ISREG(st.st_mode))
		return 0;
	if (S_ISDIR(st.st_mode))
		return rt_err_set(err, -EISDIR, "%s: is a directory, not a file", path);
	return rt_err_set(err, -EINVAL, "%s: not a regular file (%s): an output replaces only a "
			  "regular file", path, kind_of(st.st_mode));
}

int rt_mkdir_p(const char *dir, struct rt_err *err)
{
	struct rt_buf buf;               /* dir, of any length, cut at each '/' in turn */
	size_t len;
	int rc = 0;

	rt_buf_init(&buf);
	if (rt_buf_puts(&buf, dir)) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	len = buf.len;
	for (size_t i = 1; i <= len; i++) {
		if (buf.s[i] != '/' && buf.s[i] != '\0')
			continue;
		buf.s[i] = '\0';
		if (mkdir(buf.s, 0777) && errno != EEXIST) {
			rc = rt_err_set(err, -errno, "%s: cannot create directory: %s", buf.s,
					strerror(errno));
			goto out;
		}
		if (i < len)
			buf.s[i] = '/';
	}
out:
	rt_buf_fini(&buf);
	return rc;
}

int rt_mkdir_own(const char *dir, struct rt_err *err)
{
	struct stat st;

	if (mkdir(dir, 0777) == 0)
		return 0;
	if (errno != EEXIST)
		return rt_err_set(err, -errno, "%s: cannot create directory: %s", dir,
				  strerror(errno));
	if (lstat(dir, &st))
		return rt_err_set(err, -errno, "%s: %s", dir, strerror(errno));
	if (S_ISLNK(st.st_mode))
		return rt_err_set(err, -ENOTDIR, "%s: a symbolic link: outputs are never written "
				  "through one (remove it)", dir);
	if (!S_ISDIR(st.st_mode))
		return rt_err_set(err, -ENOTDIR, "%s: not a directory", dir);
	return 0;
}

/* The permissions a new file gets: 0666 less this process's umask (read from
 * /proc/self/status, so that no other thread sees a changed umask; 022 when the kernel does
 * not say). */
static mode_t file_mode(void)
{
	char line[128];
	unsigned int mask = 022;
	FILE *fp = fopen("/proc/self/status", "re");

	if (fp) {
		while (fgets(line, sizeof(line), fp))
			if (sscanf(line, "Umask: %o", &mask) == 1)
				break;
		fclose(fp);
	}
	return (mode_t)(0666 & ~mask);
}

/* The descriptor under an output's stream and the first error a write to it met: stdio
 * keeps only that a write failed, and errno is long gone when the file is closed. */
struct rt_outfile_sink {
	int fd;
	int err;
};

static ssize_t sink_write(void *cookie, const char *buf, size_t size)
{
	struct rt_outfile_sink *sk = cookie;
	size_t done = 0;

	while (done < size) {
		ssize_t n = write(sk->fd, buf + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!sk->err)
				sk->err = n < 0 ? errno : EIO;
			return 0;       /* stdio's "error" */
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static int sink_close(void *cookie)
{
	struct rt_outfile_sink *sk = cookie;
	int rc = close(sk->fd);

	if (rc && !sk->err && errno != EINTR)
		sk->err = errno;
	sk->fd = -1;
	return rc && errno != EINTR ? -1 : 0;
}

int rt_outfile_open(struct rt_outfile *of, const char *path, struct rt_err *err)
{
	struct rt_buf dir;
	size_t len = strlen(path);
	int rc, fd;

	memset(of, 0, sizeof(*of));
	if (!len || path[len - 1] == '/')
		return rt_err_set(err, -EISDIR, "%s: is a directory, not a file", path);
	if ((rc = check_output(path, err)))
		return rc;
	if ((size_t)snprintf(of->path, sizeof(of->path), "%s", path) >= sizeof(of->path) ||
	    (size_t)snprintf(of->tmp, sizeof(of->tmp), "%s.XXXXXX.tmp", path) >= sizeof(of->tmp))
		/* the path's start, so that the words fit the message */
		return rt_err_set(err, -ENAMETOOLONG, "%.300s%s: path is too long (%zu bytes)", path,
				  len > 300 ? "..." : "", len);
	rt_buf_init(&dir);
	rc = rt_buf_dirname(&dir, path) ? rt_err_set(err, -ENOMEM, "out of memory") :
	     rt_mkdir_p(dir.s, err);
	rt_buf_fini(&dir);
	if (rc)
		return rc;
	/* a new file of a name nobody can guess, created here and only here (O_EXCL): a link
	 * planted where a temporary would go is never followed */
	fd = mkostemps(of->tmp, 4, O_CLOEXEC);
	if (fd < 0)
		return rt_err_set(err, -errno, "%s: cannot write: %s", of->tmp, strerror(errno));
	if (fchmod(fd, file_mode()) || !(of->sink = calloc(1, sizeof(*of->sink)))) {
		rc = rt_err_set(err, -errno, "%s: cannot write: %s", of->tmp, strerror(errno));
		goto fail;
	}
	of->sink->fd = fd;
	of->fp = fopencookie(of->sink, "w", (cookie_io_functions_t){ .write = sink_write,
								     .close = sink_close });
	if (!of->fp) {
		rc = rt_err_set(err, -errno, "%s: cannot write: %s", of->tmp, strerror(errno));
		goto fail;
	}
	return 0;
fail:
	free(of->sink);
	of->sink = NULL;
	close(fd);
	unlink(of->tmp);
	return rc;
}

int rt_outfile_close(struct rt_outfile *of, struct rt_err *err)
{
	int rc = 0;

	if (!of->fp)
		return rt_err_set(err, -EBADF, "%s: not open", of->path);
	/* the first write that failed says why (a full disk is ENOSPC, not EIO) */
	if (!ferror(of->fp) && fflush(of->fp) == 0 && fsync(of->sink->fd) && !of->sink->err)
		of->sink->err = errno;
	if (ferror(of->fp) && !of->sink->err)
		of->sink->err = EIO;
	if (of->sink->err)
		rc = rt_err_set(err, -of->sink->err, "%s: write failed: %s", of->tmp,
				strerror(of->sink->err));
	if (fclose(of->fp) && !rc)
		rc = rt_err_set(err, -(of->sink->err ? of->sink->err : EIO), "%s: close failed: %s",
				of->tmp, strerror(of->sink->err ? of->sink->err : EIO));
	of->fp = NULL;
	free(of->sink);
	of->sink = NULL;
	if (rc)
		unlink(of->tmp);
	return rc;
}

int rt_outfile_rename(struct rt_outfile *of, struct rt_err *err)
{
	int rc;

	/* what came to the path since it was opened is looked at again: rename(2) would
	 * replace a device or a FIFO as readily as a file */
	if ((rc = check_output(of->path, err)) == 0 && rename(of->tmp, of->path))
		rc = rt_err_set(err, -errno, "%s: cannot rename to '%s': %s", of->tmp, of->path,
				strerror(errno));
	if (rc)
		unlink(of->tmp);
	return rc;
}

int rt_outfile_open_in(struct rt_outfile *of, const char *dir, const char *name,
		       struct rt_err *err)
{
	struct rt_buf path;
	int rc;

	rt_buf_init(&path);
	rc = rt_buf_printf(&path, "%s/%s", dir, name) ? rt_err_set(err, -ENOMEM, "out of memory") :
	     rt_outfile_open(of, path.s, err);
	rt_buf_fini(&path);
	return rc;
}

int rt_outfile_commit(struct rt_outfile *of, struct rt_err *err)
{
	int rc = rt_outfile_close(of, err);

	return rc ? rc : rt_outfile_rename(of, err);
}

void rt_outfile_abort(struct rt_outfile *of)
{
	if (!of)
		return;
	if (of->fp) {
		fclose(of->fp);
		of->fp = NULL;
		free(of->sink);
		of->sink = NULL;
		unlink(of->tmp);
	}
}

void rt_timestamp(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* path under ROOFTRAJ_SYSROOT when a test sets it ("/proc/meminfo" -> "ROOT/proc/meminfo");
 * false when it does not fit. */
static bool sysroot_path(char *buf, size_t size, const char *path)
{
	const char *root = getenv("ROOFTRAJ_SYSROOT");

	return (size_t)snprintf(buf, size, "%s%s", root ? root : "", path) < size;
}

/* A number read from a cgroup file (DIR/NAME, under the sysroot): true with *v; "max" (v2's
 * no limit) and v1's page-rounded LLONG_MAX read as no number. */
static bool cgroup_number(const char *dir, const char *name, unsigned long long *v)
{
	char path[4200], word[64];
	FILE *fp;
	bool ok;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path) ||
	    !(fp = fopen(path, "re")))
		return false;
	ok = fscanf(fp, "%63s", word) == 1 && word[0] >= '0' && word[0] <= '9' &&
	     sscanf(word, "%llu", v) == 1 && *v < (1ULL << 62);
	fclose(fp);
	return ok;
}

/* A key's number in a cgroup's memory.stat ("inactive_file 123"); 0 when it has none. */
static unsigned long long cgroup_stat(const char *dir, const char *key)
{
	char path[4200], line[256], name[128];
	unsigned long long v = 0, x;
	FILE *fp;

	if ((size_t)snprintf(path, sizeof(path), "%s/memory.stat", dir) >= sizeof(path) ||
	    !(fp = fopen(path, "re")))
		return 0;
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "%127s %llu", name, &x) == 2 && !strcmp(name, key)) {
			v = x;
			break;
		}
	fclose(fp);
	return v;
}

/* This process's memory cgroup directory (under the sysroot) and the directory of the
 * hierarchy's mount, from /proc/self/cgroup and /proc/self/mountinfo: the v1 memory
 * controller's where it is mounted, else the v2 hierarchy's. False when neither is found. */
static bool memory_cgroup(char *dir, size_t size, size_t *mount_len, bool *v2)
{
	char path[4200], line[4200], cg1[4096] = "", cg2[4096] = "";
	bool have1 = false, have2 = false, found = false;
	FILE *fp;

	if (!sysroot_path(path, sizeof(path), "/proc/self/cgroup") || !(fp = fopen(path, "re")))
		return false;
	while (fgets(line, sizeof(line), fp)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (!c2)
			continue;
		*c2 = '\0';
		c2[1 + strcspn(c2 + 1, "\n")] = '\0';
		if (c2 == c1 + 1 && !strncmp(line, "0:", 2))
			have2 = snprintf(cg2, sizeof(cg2), "%s", c2 + 1) < (int)sizeof(cg2);
		else if (rt_word_in(c1 + 1, ',', "memory"))
			have1 = snprintf(cg1, sizeof(cg1), "%s", c2 + 1) < (int)sizeof(cg1);
	}
	fclose(fp);
	if ((!have1 && !have2) || !sysroot_path(path, sizeof(path), "/proc/self/mountinfo") ||
	    !(fp = fopen(path, "re")))
		return false;
	/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS ... - FSTYPE SOURCE SUPEROPTIONS */
	while (!found && fgets(line, sizeof(line), fp)) {
		char root[4096], point[4096], type[64], super[1024];
		const char *dash = strstr(line, " - "), *cg;
		size_t rl;

		if (!dash || sscanf(line, "%*s %*s %*s %4095s %4095s", root, point) != 2 ||
		    sscanf(dash + 3, "%63s %*s %1023s", type, super) != 2)
			continue;
		if (have1 && !strcmp(type, "cgroup") && rt_word_in(super, ',', "memory"))
			cg = cg1, *v2 = false;
		else if (!have1 && have2 && !strcmp(type, "cgroup2"))
			cg = cg2, *v2 = true;
		else
			continue;
		/* the cgroup's path is the mount's root (a container's own) and below */
		rl = strcmp(root, "/") ? strlen(root) : 0;
		if (strncmp(cg, root, rl) || (cg[rl] && cg[rl] != '/'))
			continue;
		found = sysroot_path(dir, size, point) &&
			(*mount_len = strlen(dir),
			 (size_t)snprintf(dir + *mount_len, size - *mount_len, "%s",
					  strcmp(cg + rl, "/") ? cg + rl : "") < size - *mount_len);
	}
	fclose(fp);
	return found;
}

unsigned long long rt_mem_usable(char *why, size_t size)
{
	unsigned long long kib = 0, avail, room = ~0ULL, limit = 0, used = 0;
	char line[256], path[4200], dir[4200];
	size_t mount_len;
	bool v2, bounded = false;
	FILE *fp;

	if (why && size)
		why[0] = '\0';
	if (sysroot_path(path, sizeof(path), "/proc/meminfo") && (fp = fopen(path, "re"))) {
		while (fgets(line, sizeof(line), fp))
			if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
				break;
		fclose(fp);
	}
	avail = kib * 1024;
	/* the cgroup's room: its limit less what it holds, page cache that can be dropped
	 * apart, the least of its own and of every cgroup above it (a job's step under the
	 * job's limit) */
	if (memory_cgroup(dir, sizeof(dir), &mount_len, &v2)) {
		for (size_t len = strlen(dir); len >= mount_len;) {
			unsigned long long lim, cur, cache;

			dir[len] = '\0';
			if (cgroup_number(dir, v2 ? "memory.max" : "memory.limit_in_bytes", &lim)) {
				if (!cgroup_number(dir, v2 ? "memory.current" : "memory.usage_in_bytes",
						   &cur))
					cur = 0;
				cache = cgroup_stat(dir, v2 ? "inactive_file" : "total_inactive_file");
				cur = cache < cur ? cur - cache : 0;
				if (!bounded || (lim > cur ? lim - cur : 0) < room) {
					room = lim > cur ? lim - cur : 0;
					limit = lim;
					used = cur;
					bounded = true;
				}
			}
			if (len == mount_len)
				break;
			while (len > mount_len && dir[len] != '/')
				len--;
		}
	}
	if (bounded && (!avail || room < avail)) {
		if (why && size)
			snprintf(why, size, "its memory cgroup's limit (%.0f MiB, %.0f MiB of it in use)",
				 (double)limit / (1 << 20), (double)used / (1 << 20));
		return room;
	}
	if (why && size && avail)
		snprintf(why, size, "MemAvailable");
	return avail;
}

unsigned long long rt_mem_available(void)
{
	return rt_mem_usable(NULL, 0);
}

/* The length of the control character at s (0: none): C0 and DEL one byte, C1 in UTF-8
 * (0xc2 0x80-0x9f) two. */
static size_t control_at(const char *s)
{
	const unsigned char c = (unsigned char)s[0];

	if (c < 0x20 || c == 0x7f)
		return 1;
	return c == 0xc2 && (unsigned char)s[1] >= 0x80 && (unsigned char)s[1] <= 0x9f ? 2 : 0;
}

void rt_printable(char *dst, size_t size, const char *s)
{
	size_t k = 0;

	if (!size)
		return;
	while (s && *s && k + 1 < size) {
		const size_t c = control_at(s);

		dst[k++] = c ? '?' : *s;
		s += c ? c : 1;
	}
	dst[k] = '\0';
}

void rt_fputs_printable(const char *s, FILE *fp)
{
	while (s && *s) {
		const size_t c = control_at(s);

		fputc(c ? '?' : *s, fp);
		s += c ? c : 1;
	}
}

void rt_cfg_put_str(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(fp, "\\%c", *s);
		else if ((unsigned char)*s < 0x20 || *s == 0x7f)
			fprintf(fp, "\\x%02x", (unsigned char)*s);
		else
			fputc(*s, fp);
	}
	fputc('"', fp);
}

void rt_cfg_put_member(FILE *fp, const char *text, const char *s)
{
	fputs(text, fp);
	rt_cfg_put_str(fp, s);
}

char *rt_slurp(const char *path, size_t *len, struct rt_err *err)
{
	return rt_slurp_max(path, len, (size_t)1 << 30, err);
}

char *rt_slurp_max(const char *path, size_t *len, size_t max, struct rt_err *err)
{
	FILE *fp = fopen(path, "rbe");
	char *buf = NULL;
	size_t cap = 0;

	*len = 0;
	if (!fp) {
		rt_err_set(err, -errno, "%s: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t got;

		if (*len + 65536 + 1 > cap) {
			char *q = realloc(buf, cap = 2 * cap + 65536 + 1);

			if (!q) {
				rt_err_set(err, -ENOMEM, "out of memory");
				goto fail;
			}
			buf = q;
		}
		got = fread(buf + *len, 1, cap - *len - 1, fp);
		*len += got;
		if (*len > max) {
			rt_err_set(err, -EFBIG, "%s: larger than %zu bytes: not a file rooftraj wrote",
				   path, max);
			goto fail;
		}
		if (got == 0)
			break;
	}
	if (ferror(fp)) {
		rt_err_set(err, -EIO, "%s: read failed", path);
		goto fail;
	}
	fclose(fp);
	buf[*len] = '\0';
	return buf;
fail:
	fclose(fp);
	free(buf);
	return NULL;
}

int rt_read_line(FILE *fp, char **buf, size_t *cap, size_t max, size_t *len, bool *ended)
{
	size_t n = 0;
	bool too_long = false;
	int ch = EOF;

	*len = 0;
	*ended = false;
	if (!*buf || *cap < 2) {
		char *q = realloc(*buf, 256);

		if (!q)
			return -ENOMEM;
		*buf = q;
		*cap = 256;
	}
	while ((ch = getc(fp)) != EOF) {
		if (ch == '\n') {
			*ended = true;
			break;
		}
		if (too_long)
			continue;               /* the rest of a long line is read, not kept */
		if (n + 1 >= max) {
			too_long = true;
			continue;
		}
		if (n + 2 > *cap) {
			size_t ncap = *cap * 2 < max + 1 ? *cap * 2 : max + 1;
			char *q = realloc(*buf, ncap);

			if (!q)
				return -ENOMEM;
			*buf = q;
			*cap = ncap;
		}
		(*buf)[n++] = (char)ch;
	}
	(*buf)[n] = '\0';
	*len = n;
	if (ferror(fp))
		return -EIO;
	if (too_long)
		return -E2BIG;
	return n || *ended ? 1 : 0;
}

bool rt_safe_name(const char *s)
{
	if (!*s || *s == '.' || strlen(s) > 255)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '.' || *s == '_' || *s == '-'))
			return false;
	return true;
}

bool rt_safe_name_map(char *dst, size_t size, const char *s)
{
	size_t n = 0;
	bool same = true;

	for (; *s && n + 1 < size && n < 255; s++, n++) {
		const char c = *s;
		const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
				(c >= '0' && c <= '9') || c == '_' || c == '-' || (c == '.' && n);

		dst[n] = ok ? c : '_';
		same &= ok;
	}
	same &= !*s;
	if (!n) {
		snprintf(dst, size, "localhost");
		return false;
	}
	dst[n] = '\0';
	return same;
}

int rt_dirlock_take(struct rt_dirlock *l, const char *dir, const char *what, struct rt_err *err)
{
	char path[4200], text[512];
	int fd, rc;

	memset(l, 0, sizeof(*l));
	l->fd = -1;
	if ((size_t)snprintf(path, sizeof(path), "%s/.rooftraj.lock", dir) >= sizeof(path))
		return rt_err_set(err, -ENAMETOOLONG, "%s: path is too long", dir);
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, file_mode());
	if (fd < 0)
		return rt_err_set(err, -errno, "%s: cannot take the lock: %s", path,
				  errno == ELOOP ? "it is a symbolic link" : strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		ssize_t got = errno == EWOULDBLOCK ? pread(fd, text, sizeof(text) - 1, 0) : -1;

		rc = -errno;
		if (got > 0) {
			text[got] = '\0';
			text[strcspn(text, "\n")] = '\0';
			rc = rt_err_set(err, -EBUSY, "%s is in use by another rooftraj: %s (lock %s)",
					dir, text, path);
		} else if (rc == -EWOULDBLOCK) {
			rc = rt_err_set(err, -EBUSY, "%s is in use by another rooftraj (lock %s)", dir,
					path);
		} else {
			rc = rt_err_set(err, rc, "%s: cannot take the lock: %s", path, strerror(-rc));
		}
		close(fd);
		return rc;
	}
	/* who holds it, for the one refused */
	snprintf(text, sizeof(text), "process %ld (%s)\n", (long)getpid(), what);
	if (ftruncate(fd, 0) || pwrite(fd, text, strlen(text), 0) < 0) {
		/* the lock holds all the same; only the words for the one refused are lost */
	}
	l->fd = fd;
	return 0;
}

void rt_dirlock_release(struct rt_dirlock *l)
{
	if (!l || l->fd < 0)
		return;
	close(l->fd);
	l->fd = -1;
}

int rt_rename_noreplace(const char *from, const char *to)
{
	return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) ? -errno : 0;
}

int rt_file_append(const char *path, const char *buf, size_t len, struct rt_err *err)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666), rc = 0;
	off_t before;
	size_t off = 0;

	if (fd < 0)
		return rt_err_set(err, -errno, "%s: %s", path, errno == ELOOP ?
				  "a symbolic link: not written through" : strerror(errno));
	before = lseek(fd, 0, SEEK_END);
	while (off < len) {
		ssize_t w = write(fd, buf + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			rc = rt_err_set(err, -(errno ? errno : EIO), "%s: write failed: %s", path,
					strerror(errno ? errno : EIO));
			/* nothing half-written stays behind */
			if (before >= 0 && ftruncate(fd, before))
				rt_err_set(err, rc, "%s: write failed and the partial rows could not "
					   "be taken back: %s", path, strerror(errno));
			break;
		}
		off += (size_t)w;
	}
	if (close(fd) && !rc)
		rc = rt_err_set(err, -errno, "%s: close failed: %s", path, strerror(errno));
	return rc;
}

bool rt_word_in(const char *list, char sep, const char *word)
{
	const size_t n = strlen(word);
	const char end[2] = { sep, '\0' };

	for (const char *p = list; *p;) {
		const size_t len = strcspn(p, end);

		if (len == n && !strncmp(p, word, n))
			return true;
		p += len + (p[len] == sep);
	}
	return false;
}
