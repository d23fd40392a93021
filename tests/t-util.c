/* t-util.c: the growing buffer (rt_buf) against texts longer than any fixed array it replaced,
 * a directory's part of a path, an output named DIR/NAME built to its length, and an error's
 * message kept whole around the longest path (or marked where it is cut) */
#include "config.h"
#include "base/err.h"
#include "base/util.h"
#include "tap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

static void dirname_is(const char *path, const char *want)
{
	struct rt_buf b;

	rt_buf_init(&b);
	ok(!rt_buf_dirname(&b, path) && !strcmp(b.s, want), "the directory of '%s': '%s' (got '%s')",
	   path, want, b.s);
	rt_buf_fini(&b);
}

static int set_at(struct rt_err *err, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = rt_err_vset_at(err, -EINVAL, file, line, "model", fmt, ap);
	va_end(ap);
	return rc;
}

/* A file's error names the file, its line and what is wrong, whole, for a path as long as the
 * kernel takes; a context put before it keeps both; a message past the room ends marked. */
static void err_whole(void)
{
	char *path = malloc(4096), *what = malloc(1001), *big = malloc(2 * RT_ERR_MSG);
	struct rt_err err = { 0 };
	size_t len;

	memset(path, 'p', 4095);
	path[4095] = '\0';
	memset(what, 'w', 1000);
	what[1000] = '\0';
	set_at(&err, path, 7, "%s: not a layer", what);
	len = strlen(err.msg);
	ok(len == 4095 + strlen(":7: model: ") + 1000 + strlen(": not a layer") &&
	   !strncmp(err.msg, path, 4095) && strstr(err.msg, ":7: model: ww") &&
	   !strcmp(err.msg + len - 16, "www: not a layer"),
	   "FILE:LINE: ctx: what, whole, after a path of 4095 bytes and 1000 of what (%zu bytes)",
	   len);
	rt_err_set(&err, -EINVAL, "%.600s", what);
	rt_err_prefix(&err, "%.400s", path);
	ok(strlen(err.msg) == 400 + 2 + 600 && !strncmp(err.msg + 400, ": ww", 4),
	   "a prefix of 400 bytes and a message of 600: both whole (%zu bytes)", strlen(err.msg));
	memset(big, 'b', 2 * RT_ERR_MSG - 1);
	big[2 * RT_ERR_MSG - 1] = '\0';
	rt_err_set(&err, -EINVAL, "%s", big);
	len = strlen(err.msg);
	ok(len == RT_ERR_MSG - 1 && !strcmp(err.msg + len - strlen(RT_ERR_CUT), RT_ERR_CUT),
	   "a message past its room ends in '%s' (%zu bytes)", RT_ERR_CUT, len);
	rt_err_set(&err, -EINVAL, "%.*s", RT_ERR_MSG - 1, big);
	ok(!strchr(err.msg, '['), "one that just fits is whole, not marked");
	free(path);
	free(what);
	free(big);
}

/* An output is refused, untouched, where its path holds what is not a regular file: the
 * error names the path and what is there, no temporary is left, what was there still is. */
static void refused_at(const char *dir, const char *name, const char *kind, mode_t type)
{
	struct rt_outfile of;
	struct rt_err err = { 0 };
	struct rt_buf path;
	struct stat st;
	DIR *d;
	struct dirent *e;
	int others = 0, rc;

	rt_buf_init(&path);
	rt_buf_printf(&path, "%s/%s", dir, name);
	rc = rt_outfile_open(&of, path.s, &err);
	if (rc == 0)
		rt_outfile_abort(&of);
	ok(rc == -EINVAL && strstr(err.msg, path.s) && strstr(err.msg, kind),
	   "an output over %s is refused naming it: %s", kind, err.msg);
	if ((d = opendir(dir))) {
		while ((e = readdir(d)))
			others += strstr(e->d_name, ".tmp") != NULL;
		closedir(d);
	}
	ok(!stat(path.s, &st) && (st.st_mode & S_IFMT) == type && !others,
	   "... %s is still there, as it was, and no temporary is left", name);
	rt_buf_fini(&path);
}

/* Where a path is a FIFO, a socket, a device or a link to one, an output is refused; where
 * one came to the path after the output was opened, the rename refuses it too. */
static void outputs_only_over_files(void)
{
	char dir[] = "/tmp/rt-t-util-kinds.XXXXXX", path[PATH_MAX];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct rt_outfile of;
	struct rt_err err = { 0 };
	struct stat st;
	int sock;

	if (!mkdtemp(dir)) {
		skip("no temporary directory");
		return;
	}
	snprintf(path, sizeof(path), "%s/fifo", dir);
	if (mkfifo(path, 0600) == 0)
		refused_at(dir, "fifo", "a FIFO", S_IFIFO);
	else
		skip("mkfifo: %s", strerror(errno)), skip("mkfifo");
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/sock", dir);
	sock = socket(AF_UNIX, SOCK_STREAM, 0);
	if (sock >= 0 && !bind(sock, (struct sockaddr *)&sa, sizeof(sa)))
		refused_at(dir, "sock", "a socket", S_IFSOCK);
	else
		skip("a UNIX socket: %s", strerror(errno)), skip("a UNIX socket");
	if (sock >= 0)
		close(sock);
	/* a device of the test's own (the null device's numbers), never the system's */
	snprintf(path, sizeof(path), "%s/null", dir);
	if (mknod(path, S_IFCHR | 0600, makedev(1, 3)) == 0)
		refused_at(dir, "null", "a device", S_IFCHR);
	else
		skip("mknod of a character device: %s (not root)", strerror(errno)),
		skip("mknod");
	/* a link to the system's /dev/null: refused, and /dev/null still a device */
	snprintf(path, sizeof(path), "%s/to-null", dir);
	if (symlink("/dev/null", path) == 0) {
		refused_at(dir, "to-null", "a device", S_IFCHR);
		ok(!lstat(path, &st) && S_ISLNK(st.st_mode) && !stat("/dev/null", &st) &&
		   S_ISCHR(st.st_mode), "... the link is still a link, /dev/null still a device");
	} else {
		skip("symlink: %s", strerror(errno)), skip("symlink"), skip("symlink");
	}
	/* a FIFO put where the output goes after it was opened: the rename refuses it */
	snprintf(path, sizeof(path), "%s/late", dir);
	if (!rt_outfile_open(&of, path, &err) && (fputs("x\n", of.fp), mkfifo(path, 0600) == 0)) {
		ok(rt_outfile_commit(&of, &err) == -EINVAL && strstr(err.msg, "a FIFO") &&
		   !stat(path, &st) && S_ISFIFO(st.st_mode) && access(of.tmp, F_OK),
		   "a FIFO that came after the open: the rename refuses it, its temporary removed: "
		   "%s", err.msg);
		unlink(path);
	} else {
		rt_outfile_abort(&of);
		skip("mkfifo: %s", strerror(errno));
	}
	/* a regular file and a link to one are replaced as before */
	snprintf(path, sizeof(path), "%s/file", dir);
	if (!rt_outfile_open(&of, path, &err)) {
		fputs("new\n", of.fp);
		ok(!rt_outfile_commit(&of, &err) && !stat(path, &st) && st.st_size == 4,
		   "a new regular file is written");
	} else {
		ok(0, "a new regular file: %s", err.msg);
	}
	if (!rt_outfile_open(&of, path, &err)) {
		fputs("again\n", of.fp);
		ok(!rt_outfile_commit(&of, &err) && !stat(path, &st) && st.st_size == 6,
		   "a regular file is replaced");
	} else {
		ok(0, "a regular file replaced: %s", err.msg);
	}
	{
		const char *names[] = { "fifo", "sock", "null", "to-null", "late", "file" };

		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
			unlink(path);
		}
		if (rmdir(dir))
			printf("# %s left behind\n", dir);
	}
}

/* The descriptor under an output's stream (its temporary file's), found by name. */
static int fd_of(const char *tmp)
{
	char link[64], target[PATH_MAX], want[PATH_MAX];
	ssize_t n;

	if (!realpath(tmp, want))
		return -1;
	for (int fd = 3; fd < 1024; fd++) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, target, sizeof(target) - 1);
		if (n < 0)
			continue;
		target[n] = '\0';
		if (!strcmp(target, want))
			return fd;
	}
	return -1;
}

/* A write that fails on a full disk is said as that ("No space left on device", -ENOSPC,
 * with the path), whatever errno holds by the time the file is closed: the output's
 * descriptor is made /dev/full's, which fails every write with ENOSPC. */
static void full_disk_said(void)
{
	char dir[] = "/tmp/rt-t-util-full.XXXXXX", path[PATH_MAX];
	struct rt_outfile of;
	struct rt_err err = { 0 };
	int full = open("/dev/full", O_WRONLY | O_CLOEXEC), fd = -1;

	if (full < 0 || !mkdtemp(dir)) {
		skip("no /dev/full or no temporary directory: %s", strerror(errno));
		if (full >= 0)
			close(full);
		return;
	}
	snprintf(path, sizeof(path), "%s/p.cfg", dir);
	if (!rt_outfile_open(&of, path, &err) && (fd = fd_of(of.tmp)) >= 0 && dup2(full, fd) == fd) {
		for (int i = 0; i < 4096; i++)
			fprintf(of.fp, "line %d of a profile that does not fit\n", i);
		errno = EBADF;          /* what any later call may leave there */
		ok(rt_outfile_commit(&of, &err) == -ENOSPC &&
		   strstr(err.msg, "No space left on device") && strstr(err.msg, dir) &&
		   access(path, F_OK),
		   "a full disk is said as ENOSPC with the path, nothing renamed: %s", err.msg);
	} else {
		rt_outfile_abort(&of);
		skip("the output's descriptor not found (fd %d): %s", fd, err.msg);
	}
	close(full);
	unlink(of.tmp);
	if (rmdir(dir))
		printf("# %s left behind\n", dir);
}

/* ROOT/REL with text in it, its directories made. */
static void put(const char *root, const char *rel, const char *text)
{
	char path[PATH_MAX], dir[PATH_MAX];
	struct rt_err err;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	rt_mkdir_p(dir, &err);
	if ((fp = fopen(path, "w"))) {
		fputs(text, fp);
		fclose(fp);
	}
}

/* The memory a process may use, from a node given as a sysroot: MemAvailable, or less where
 * its memory cgroup (v1 or v2, its own or one above it, a container's mount) leaves less. */
static void memory_of_cgroups(void)
{
	char root[] = "/tmp/rt-t-util-mem.XXXXXX", why[256], cmd[PATH_MAX];
	const unsigned long long MiB = 1 << 20;
	unsigned long long got;

	if (!mkdtemp(root)) {
		skip("no temporary directory");
		return;
	}
	setenv("ROOFTRAJ_SYSROOT", root, 1);
	put(root, "proc/meminfo", "MemTotal:       16000000 kB\nMemAvailable:    8192000 kB\n");
	/* a Slurm job's step under v1: the job's 200 MiB limit, 20 MiB in use of which 10 MiB
	 * are page cache that can be dropped; the step has no limit of its own */
	put(root, "proc/self/cgroup", "5:cpu,cpuacct:/\n4:memory:/slurm/uid_0/job_7/step_0\n0::/\n");
	put(root, "proc/self/mountinfo",
	    "31 23 0:28 / /sys/fs/cgroup rw - tmpfs tmpfs rw,mode=755\n"
	    "32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
	    "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
	    "41 31 0:38 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n");
	put(root, "sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
	put(root, "sys/fs/cgroup/memory/slurm/uid_0/job_7/memory.limit_in_bytes", "209715200\n");
	put(root, "sys/fs/cgroup/memory/slurm/uid_0/job_7/memory.usage_in_bytes", "20971520\n");
	put(root, "sys/fs/cgroup/memory/slurm/uid_0/job_7/memory.stat",
	    "cache 10485760\ntotal_cache 10485760\ntotal_inactive_file 10485760\n");
	put(root, "sys/fs/cgroup/memory/slurm/uid_0/job_7/step_0/memory.limit_in_bytes",
	    "9223372036854771712\n");
	put(root, "sys/fs/cgroup/memory/slurm/uid_0/job_7/step_0/memory.usage_in_bytes",
	    "20971520\n");
	got = rt_mem_usable(why, sizeof(why));
	ok(got == 190 * MiB && strstr(why, "cgroup") && strstr(why, "200 MiB"),
	   "v1: a job's 200 MiB limit above its step, 10 of 20 MiB in use droppable: %.1f MiB "
	   "usable (%s)", (double)got / MiB, why);
	is_int((long long)rt_mem_available(), 190 * MiB, "rt_mem_available says the same");
	/* the limit above MemAvailable: MemAvailable */
	put(root, "sys/fs/cgroup/memory/slurm/uid_0/job_7/memory.limit_in_bytes", "68719476736\n");
	got = rt_mem_usable(why, sizeof(why));
	ok(got == 8192000ULL * 1024 && !strcmp(why, "MemAvailable"),
	   "a 64 GiB limit on a node with 7.8 GiB available: MemAvailable (%s)", why);
	/* v2 only: a parent's 1 GiB limit with 100 MiB in use, the group's own "max" */
	put(root, "proc/self/cgroup", "0::/user.slice/job.scope\n");
	put(root, "proc/self/mountinfo", "30 1 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
	put(root, "sys/fs/cgroup/user.slice/memory.max", "1073741824\n");
	put(root, "sys/fs/cgroup/user.slice/memory.current", "104857600\n");
	put(root, "sys/fs/cgroup/user.slice/job.scope/memory.max", "max\n");
	put(root, "sys/fs/cgroup/user.slice/job.scope/memory.current", "1048576\n");
	got = rt_mem_usable(why, sizeof(why));
	ok(got == 924 * MiB && strstr(why, "1024 MiB"), "v2: the parent's 1 GiB less 100 MiB: "
	   "%.1f MiB (%s)", (double)got / MiB, why);
	/* a container: the v1 hierarchy mounted from its own cgroup (root /docker/c1) */
	put(root, "proc/self/cgroup", "4:memory:/docker/c1\n");
	put(root, "proc/self/mountinfo",
	    "35 31 0:32 /docker/c1 /sys/fs/cgroup/memory ro - cgroup cgroup rw,memory\n");
	put(root, "sys/fs/cgroup/memory/memory.limit_in_bytes", "536870912\n");
	put(root, "sys/fs/cgroup/memory/memory.usage_in_bytes", "0\n");
	got = rt_mem_usable(why, sizeof(why));
	ok(got == 512 * MiB, "a container's mount of its own cgroup: its 512 MiB (%.1f MiB: %s)",
	   (double)got / MiB, why);
	/* no memory cgroup named: MemAvailable */
	put(root, "proc/self/cgroup", "3:cpuset:/\n");
	got = rt_mem_usable(why, sizeof(why));
	ok(got == 8192000ULL * 1024, "no memory cgroup: MemAvailable (%s)", why);
	unsetenv("ROOFTRAJ_SYSROOT");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		printf("# %s left behind\n", root);
}

int main(void)
{
	struct rt_buf b;
	char *big = malloc(10001), tmpl[] = "/tmp/rt-t-util.XXXXXX";
	struct rt_outfile of;
	struct rt_err err = { 0 };
	struct stat st;
	char *dir;
	size_t i;

	rt_buf_init(&b);
	ok(b.s && !strcmp(b.s, "") && b.len == 0, "a new buffer reads \"\"");
	rt_buf_fini(&b);
	ok(!strcmp(b.s, ""), "... and again after fini with nothing added");
	ok(!rt_buf_puts(&b, "run") && !rt_buf_add(&b, ".cfgXX", 4) && !strcmp(b.s, "run.cfg") &&
	   b.len == 7, "puts and add: 'run.cfg', 7 bytes");
	memset(big, 'a', 10000);
	big[10000] = '\0';
	ok(!rt_buf_printf(&b, "/%s/%d", big, 42) && b.len == 7 + 1 + 10000 + 3 &&
	   !strcmp(b.s + b.len - 3, "/42") && b.s[8] == 'a' && b.s[10007] == 'a',
	   "a printf of 10004 bytes grows it whole: %zu bytes", b.len);
	ok(b.cap > b.len && !b.failed, "room for the NUL, nothing failed");
	rt_buf_reset(&b);
	ok(b.len == 0 && !strcmp(b.s, ""), "reset: empty");
	ok(!rt_buf_printf(&b, "%s", "") && !strcmp(b.s, ""), "an empty printf: still empty");
	rt_buf_fini(&b);
	dirname_is("a/b/c.cfg", "a/b");
	dirname_is("c.cfg", ".");
	dirname_is("/c.cfg", "/");
	dirname_is("/x/y/", "/x/y");

	/* DIR/NAME: made whole, or refused by name when no path can be that long */
	if (!mkdtemp(tmpl)) {
		skip("no temporary directory");
		skip("no temporary directory");
		skip("no temporary directory");
	} else {
		is_int(rt_outfile_open_in(&of, tmpl, "report.html", &err), 0, "DIR/report.html opens");
		fputs("x\n", of.fp);
		ok(!rt_outfile_commit(&of, &err) && !chdir(tmpl) && !stat("report.html", &st) &&
		   st.st_size == 2, "... and lands there when complete");
		dir = malloc(6001);
		for (i = 0; i < 6000; i++)
			dir[i] = i % 100 == 99 ? '/' : 'd';
		dir[6000] = '\0';
		ok(rt_outfile_open_in(&of, dir, "report.html", &err) == -ENAMETOOLONG &&
		   strstr(err.msg, "...: path is too long (6012 bytes)") &&
		   (dir[99] = '\0', stat(dir, &st)),
		   "a directory of 6000 bytes: refused, not cut into another path, nothing made: "
		   "%s", err.msg);
		free(dir);
		unlink("report.html");
		if (chdir("/") || rmdir(tmpl))
			printf("# %s left behind\n", tmpl);
	}
	free(big);
	err_whole();
	{
		/* a file's text on a terminal: ESC, BEL, DEL and a UTF-8 CSI made '?', the rest kept */
		char out[64];

		rt_printable(out, sizeof(out), "a\x1b[2Jb\x07" "c\x7f d\xc2\x9b" "1m \xc3\xa9");
		ok(!strcmp(out, "a?[2Jb?c? d?1m \xc3\xa9"), "rt_printable: '%s'", out);
		rt_printable(out, 4, "abcdef");
		ok(!strcmp(out, "abc"), "... cut to its room: '%s'", out);
	}
	outputs_only_over_files();
	memory_of_cgroups();
	full_disk_said();
	/* a word of a list: whole words only, at either end, by the list's own separator */
	ok(rt_word_in("fp32,bf16", ',', "bf16") && rt_word_in("fp32,bf16", ',', "fp32") &&
	   !rt_word_in("fp32,bf16", ',', "bf1") && !rt_word_in("fp32,bf16", ',', "fp32,bf16") &&
	   !rt_word_in("", ',', "fp32") && rt_word_in("a||b", '|', "") &&
	   !rt_word_in("a|b", '|', "") && !rt_word_in("fp32|bf16", ',', "bf16"),
	   "rt_word_in: whole words by the separator given");
	return done_testing();
}
