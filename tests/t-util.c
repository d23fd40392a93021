/* t-util.c: the growing buffer (rt_buf) against texts longer than any fixed array it replaced,
 * a directory's part of a path, and an output named DIR/NAME built to its length */
#include "config.h"
#include "base/util.h"
#include "tap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void dirname_is(const char *path, const char *want)
{
	struct rt_buf b;

	rt_buf_init(&b);
	ok(!rt_buf_dirname(&b, path) && !strcmp(b.s, want), "the directory of '%s': '%s' (got '%s')",
	   path, want, b.s);
	rt_buf_fini(&b);
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
	return done_testing();
}
