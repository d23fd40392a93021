/* util.c: clocks, medians and atomic (temporary file + rename) output */
#include "config.h"
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

double rt_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
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

void rt_dirname(char *buf, size_t size, const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(buf, size, ".");
	else if (slash == path)
		snprintf(buf, size, "/");
	else
		snprintf(buf, size, "%.*s", (int)(slash - path), path);
}

int rt_check_regular(const char *path, struct rt_err *err)
{
	struct stat st;

	if (stat(path, &st))
		return 0;
	if (S_ISREG(st.st_mode))
		return 0;
	return rt_err_set(err, -EINVAL, "%s: not a regular file (%s)", path,
			  S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISDIR(st.st_mode) ? "a directory" :
			  S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" :
			  S_ISSOCK(st.st_mode) ? "a socket" : "not a file");
}

int rt_mkdir_p(const char *dir, struct rt_err *err)
{
	char buf[4096];
	size_t len;

	if (strlen(dir) >= sizeof(buf))
		return rt_err_set(err, -ENAMETOOLONG, "%s: path is too long", dir);
	snprintf(buf, sizeof(buf), "%s", dir);
	len = strlen(buf);
	for (size_t i = 1; i <= len; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0777) && errno != EEXIST)
			return rt_err_set(err, -errno, "%s: cannot create directory: %s", buf,
					  strerror(errno));
		if (i < len)
			buf[i] = '/';
	}
	return 0;
}

int rt_outfile_open(struct rt_outfile *of, const char *path, struct rt_err *err)
{
	char dir[4096];
	int rc;

	memset(of, 0, sizeof(*of));
	if ((size_t)snprintf(of->path, sizeof(of->path), "%s", path) >= sizeof(of->path) ||
	    (size_t)snprintf(of->tmp, sizeof(of->tmp), "%s.tmp", path) >= sizeof(of->tmp))
		return rt_err_set(err, -ENAMETOOLONG, "%s: path is too long", path);
	rt_dirname(dir, sizeof(dir), path);
	rc = rt_mkdir_p(dir, err);
	if (rc)
		return rc;
	of->fp = fopen(of->tmp, "w");
	if (!of->fp)
		return rt_err_set(err, -errno, "%s: cannot write: %s", of->tmp, strerror(errno));
	return 0;
}

int rt_outfile_close(struct rt_outfile *of, struct rt_err *err)
{
	int rc = 0;

	if (!of->fp)
		return rt_err_set(err, -EBADF, "%s: not open", of->path);
	errno = 0;
	if (ferror(of->fp) || fflush(of->fp) || fsync(fileno(of->fp)))
		rc = rt_err_set(err, -(errno ? errno : EIO), "%s: write failed: %s", of->tmp,
				strerror(errno ? errno : EIO));
	if (fclose(of->fp) && !rc)
		rc = rt_err_set(err, -errno, "%s: close failed: %s", of->tmp, strerror(errno));
	of->fp = NULL;
	if (rc)
		unlink(of->tmp);
	return rc;
}

int rt_outfile_rename(struct rt_outfile *of, struct rt_err *err)
{
	if (rename(of->tmp, of->path)) {
		int rc = rt_err_set(err, -errno, "%s: cannot rename to '%s': %s", of->tmp, of->path,
				    strerror(errno));

		unlink(of->tmp);
		return rc;
	}
	return 0;
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

unsigned long long rt_mem_available(void)
{
	unsigned long long kib = 0;
	char line[256];
	FILE *fp = fopen("/proc/meminfo", "r");

	if (!fp)
		return 0;
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
			break;
	fclose(fp);
	return kib * 1024;
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

char *rt_slurp(const char *path, size_t *len, struct rt_err *err)
{
	FILE *fp = fopen(path, "rb");
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
