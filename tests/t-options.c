/* t-options.c: strict parsing of numbers, lists, names and sizes; a tool's command line from
 * its option table (base/cli) */
#include "config.h"
#include "base/cli.h"
#include "base/options.h"
#include "tap.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a command line from a table: what the setter got ---- */
enum { K_TIMEOUT = 256, K_OUT, K_SECRET };

static const struct rt_cli_opt table[] = {
	{ 'r', "repeat", 'r', RT_CLI_INT, "N", 1, 64, .def = "3", .help = "repetitions" },
	{ K_TIMEOUT, "timeout", 0, RT_CLI_REAL, "SECONDS", 0, 604800, .def = "3600",
	  .help = "seconds each may take; 0: no limit" },
	{ 't', "threads", 't', RT_CLI_LIST, "LIST", 1, 0, .max_pus = true, .def = "all cores",
	  .help = "thread counts" },
	{ 'p', "profile", 'p', RT_CLI_PATH, "FILE", .help = "machine profile" },
	{ K_OUT, "out", 'o', RT_CLI_PATH, "DIR", .help = "results directory" },
	{ .help = "A heading:\n" },
	{ K_SECRET, "secret", 0, RT_CLI_FLAG, NULL, .hidden = true, .help = "internal" },
	{ 0 },
};

static const struct rt_cli_moved moved[] = {
	{ 'p', NULL, true, "fp32|bf16", "-p is now --profile FILE; the precision is --precision %s" },
	{ 'x', "extra", true, NULL, "--extra is gone" },
	{ 0 },
};

static const char *const synopsis[] = { "[OPTION]... ARG", NULL };

struct got {
	long repeat, threads[8];
	size_t nthreads;
	double timeout;
	const char *profile, *out;
	int secret, calls;
};

static int setter(void *ctx, int key, const struct rt_cli_value *v, struct rt_err *err)
{
	struct got *g = ctx;

	g->calls++;
	switch (key) {
	case 'r': g->repeat = v->l; break;
	case K_TIMEOUT: g->timeout = v->d; break;
	case 't':
		g->nthreads = v->n;
		for (size_t i = 0; i < v->n && i < 8; i++)
			g->threads[i] = v->list[i];
		break;
	case 'p': g->profile = v->arg; break;
	case K_OUT: g->out = v->arg; break;
	case K_SECRET: g->secret = 1; break;
	default: return rt_err_set(err, -EINVAL, "key %d has no setting", key);
	}
	return 0;
}

/* Parse the words of line (blank-separated, at most 15) by the table into *g. */
static int parse(const struct rt_cli *cli, const char *line, struct got *g, int *first,
		 struct rt_err *err)
{
	static char buf[256];   /* the words stay valid until the next parse: g points into it */
	char *argv[16] = { "prog" }, *save = NULL;
	int argc = 1;

	memset(g, 0, sizeof(*g));
	snprintf(buf, sizeof(buf), "%s", line);
	for (char *w = strtok_r(buf, " ", &save); w && argc < 15; w = strtok_r(NULL, " ", &save))
		argv[argc++] = strcmp(w, "''") ? w : "";
	err->msg[0] = '\0';
	*first = -1;
	return rt_cli_parse(cli, argc, argv, setter, g, first, err);
}

static void cli_tests(void)
{
	struct rt_cli cli = { .prog = "prog", .synopsis = synopsis, .about = "About.\n",
			      .opts = table, .moved = moved, .after = "Examples: none\n",
			      .pus = 4 };
	struct rt_err err;
	struct got g;
	int first;
	char *text = NULL;
	size_t len = 0;
	FILE *fp;

	is_int(parse(&cli, "-r 5 --timeout 2.5 -t 1,3 -p n.cfg --out d arg", &g, &first, &err),
	       0, "a command line parses");
	ok(g.repeat == 5 && g.timeout == 2.5 && g.nthreads == 2 && g.threads[0] == 1 &&
	   g.threads[1] == 3 && !strcmp(g.profile, "n.cfg") && !strcmp(g.out, "d") && g.calls == 5,
	   "each value set as given: repeat %ld, timeout %g, %zu threads, %d calls", g.repeat,
	   g.timeout, g.nthreads, g.calls);
	is_int(first, 11, "the operand's index");
	is_int(parse(&cli, "-t 2", &g, &first, &err), 0, "a single number is a list of one");
	ok(g.nthreads == 1 && g.threads[0] == 2, "... of one: %zu", g.nthreads);
	is_int(parse(&cli, "-r 65", &g, &first, &err), -ERANGE, "a value past the range");
	is_str(err.msg, "--repeat: '65' is not in 1..64", "... named by the long option");
	is_int(g.calls, 0, "... and not set");
	parse(&cli, "--timeout=-1", &g, &first, &err);
	is_str(err.msg, "--timeout: '-1' is not in 0..604800", "a real's range");
	parse(&cli, "-t 1,5", &g, &first, &err);
	is_str(err.msg, "--threads: '5' is not in 1..4", "a range that ends at the node's PUs");
	parse(&cli, "-t 2,2", &g, &first, &err);
	is_str(err.msg, "--threads: '2' appears twice", "the list grammar of every --threads");
	parse(&cli, "--out ''", &g, &first, &err);
	is_str(err.msg, "--out: the directory name is empty", "an empty directory name");
	is_int(parse(&cli, "-p bf16", &g, &first, &err), -EINVAL, "an old spelling: refused");
	is_str(err.msg, "-p is now --profile FILE; the precision is --precision bf16",
	       "... naming the new one, the argument given");
	ok(!g.profile, "... never read the new way");
	is_int(parse(&cli, "-p fp16.cfg", &g, &first, &err), 0,
	       "the letter with another argument is the new option");
	is_int(parse(&cli, "--profile bf16", &g, &first, &err), 0, "the long name is not refused");
	parse(&cli, "--extra 1", &g, &first, &err);
	is_str(err.msg, "--extra is gone", "a spelling no option has now: refused by name");
	parse(&cli, "-x 1", &g, &first, &err);
	is_str(err.msg, "--extra is gone", "... and by its letter");
	is_int(parse(&cli, "--secret", &g, &first, &err), 0, "a hidden option is accepted");
	is_int(g.secret, 1, "... and set");
	is_int(parse(&cli, "-r 1 --help -r 0", &g, &first, &err), RT_CLI_HELP,
	       "--help stops the parse");
	is_int(parse(&cli, "-V", &g, &first, &err), RT_CLI_VERSION, "-V asks for the version");

	fp = open_memstream(&text, &len);
	if (!fp)
		abort();
	rt_cli_help(&cli, fp);
	fclose(fp);
	ok(strstr(text, "Usage: prog [OPTION]... ARG\nAbout.\n\n") != NULL, "usage, then about");
	ok(strstr(text, "\n  -r, --repeat=N         repetitions (1..64, default 3)\n") != NULL,
	   "an option's line: letter, name, argument, text, range and default");
	ok(strstr(text, "\n      --timeout=SECONDS  seconds each may take; 0: no limit (0..604800, "
		  "default 3600)\n") != NULL, "a long name alone, a real's range");
	ok(strstr(text, "thread counts (1..PUs, default all cores)") != NULL, "a range to the PUs");
	ok(strstr(text, "\n  -p, --profile=FILE     machine profile\n") != NULL,
	   "no range, no default: none said");
	ok(strstr(text, "A heading:\n      --secret") == NULL && strstr(text, "secret") == NULL,
	   "a hidden option is not in --help");
	ok(strstr(text, "  -h, --help             show this help and exit\n") != NULL &&
	   strstr(text, "  -V, --version") != NULL, "--help and --version in every table");
	ok(strstr(text, "Examples: none\n") != NULL, "the notes after the options");
	free(text);
}

int main(void)
{
	struct rt_err err;
	long v = -1, list[RT_OPT_LIST_MAX];
	double d = 0;
	size_t n = 0, sz = 0;
	unsigned mask = 0;
	static const char *const isas[] = { "scalar", "sse", "avx2", "avx512" };

	is_int(rt_opt_parse_long(&v, "--threads", "2", 1, 2, &err), 0, "'2' parses");
	is_int(v, 2, "value 2");
	is_int(rt_opt_parse_long(&v, "--threads", "0", 1, 2, &err), -ERANGE, "'0' out of range");
	is_str(err.msg, "--threads: '0' is not in 1..2", "message names option, value, range");
	is_int(rt_opt_parse_long(&v, "--threads", "abc", 1, 2, &err), -EINVAL, "'abc' rejected");
	is_str(err.msg, "--threads: 'abc' is not a number", "message for a non-number");
	ok(rt_opt_parse_long(&v, "-t", "3x", 1, 9, &err) == -EINVAL, "trailing junk rejected");
	ok(rt_opt_parse_long(&v, "-t", "", 1, 9, &err) == -EINVAL, "empty rejected");
	ok(rt_opt_parse_long(&v, "-t", " 3", 1, 9, &err) == -EINVAL, "leading space rejected");
	ok(rt_opt_parse_long(&v, "-t", "99999999999999999999", 1, 9, &err) == -ERANGE,
	   "overflow is out of range, not clamped");
	is_int(v, 2, "a failed parse leaves the value alone");

	is_int(rt_opt_parse_double(&d, "--x", "2.5e-3", 0, 1, &err), 0, "double parses");
	is_double(d, 2.5e-3, 0, "double value");
	ok(rt_opt_parse_double(&d, "--x", "nan", 0, 1, &err) == -EINVAL, "nan rejected");
	ok(rt_opt_parse_double(&d, "--x", "2", 0, 1, &err) == -ERANGE, "double range");

	is_int(rt_opt_parse_long_list(list, &n, 8, "--threads", "1,2,4", 1, 64, &err), 0,
	       "list parses");
	is_int((long long)n, 3, "three items");
	is_int(list[0] + 10 * list[1] + 100 * list[2], 421, "items in order");
	ok(rt_opt_parse_long_list(list, &n, 8, "-t", "1,,2", 1, 64, &err) == -EINVAL &&
	   strstr(err.msg, "empty item"), "empty item rejected: %s", err.msg);
	ok(rt_opt_parse_long_list(list, &n, 8, "-t", "1,2,", 1, 64, &err) == -EINVAL,
	   "trailing comma rejected");
	ok(rt_opt_parse_long_list(list, &n, 8, "-t", "2,2", 1, 64, &err) == -EINVAL &&
	   strstr(err.msg, "appears twice"), "duplicate rejected: %s", err.msg);
	ok(rt_opt_parse_long_list(list, &n, 2, "-t", "1,2,3", 1, 64, &err) == -EINVAL,
	   "more items than allowed rejected");
	{
		/* a list past the reader's room: refused naming how long it may be */
		char lng[1100];

		memset(lng, '1', sizeof(lng) - 1);
		lng[sizeof(lng) - 1] = '\0';
		ok(rt_opt_parse_long_list(list, &n, 8, "-t", lng, 1, 64, &err) == -EINVAL &&
		   strstr(err.msg, "-t: the list is longer than 1023 characters"),
		   "a list too long: %s", err.msg);
	}

	is_int(rt_opt_parse_names(&mask, "--isa", "avx2,scalar", isas, 4, &err), 0, "names parse");
	is_int(mask, (1 << 0) | (1 << 2), "mask has scalar and avx2");
	ok(rt_opt_parse_names(&mask, "--isa", "avx3", isas, 4, &err) == -EINVAL, "unknown name");
	is_str(err.msg, "--isa: unknown value 'avx3' (one of: scalar, sse, avx2, avx512)",
	       "message lists the choices");

	is_int(rt_opt_parse_size(&sz, "--ws", "48K", 1, SIZE_MAX, &err), 0, "48K parses");
	is_int((long long)sz, 48 * 1024, "48K is 49152");
	rt_opt_parse_size(&sz, "--ws", "2MiB", 1, SIZE_MAX, &err);
	is_int((long long)sz, 2 << 20, "2MiB");
	ok(rt_opt_parse_size(&sz, "--ws", "3Q", 1, SIZE_MAX, &err) == -EINVAL, "unknown unit");
	ok(rt_opt_parse_size(&sz, "--ws", "-1", 1, SIZE_MAX, &err) == -EINVAL, "negative size");
	cli_tests();
	return done_testing();
}
