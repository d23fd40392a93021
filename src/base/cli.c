/* cli.c: a tool's command line from its one option table: getopt, checks, --help */
#include "config.h"
#include "base/cli.h"
#include "base/util.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define KEY_HELP (-2)
#define KEY_VERSION (-3)
#define KEY_MOVED 0x10000       /* + the index of a spelling no option has now */
#define HELP_COL 25             /* where an option's text starts in --help */
#define HELP_WIDTH 96

static const struct rt_cli_opt help_opt = {
	.key = KEY_HELP, .name = "help", .letter = 'h', .help = "show this help and exit" };
static const struct rt_cli_opt version_opt = {
	.key = KEY_VERSION, .name = "version", .letter = 'V',
	.help = "show the version, and the oneDNN it runs with (its version, commit and CPU "
		"runtime), and exit" };

static bool is_option(const struct rt_cli_opt *o)
{
	return o->name != NULL;
}

static bool at_end(const struct rt_cli_opt *o)
{
	return !o->name && !o->help;
}

static bool moved_end(const struct rt_cli_moved *m)
{
	return !m->letter && !m->name;
}

const struct rt_cli_opt *rt_cli_find(const struct rt_cli *cli, const char *name)
{
	for (const struct rt_cli_opt *o = cli->opts; !at_end(o); o++)
		if (is_option(o) && !strcmp(o->name, name))
			return o;
	if (!strcmp(name, "help"))
		return &help_opt;
	if (!strcmp(name, "version"))
		return &version_opt;
	return NULL;
}

static const struct rt_cli_opt *find_letter(const struct rt_cli *cli, int letter)
{
	for (const struct rt_cli_opt *o = cli->opts; !at_end(o); o++)
		if (is_option(o) && o->letter && o->letter == letter)
			return o;
	return letter == 'h' ? &help_opt : letter == 'V' ? &version_opt : NULL;
}

/* "1..64", "0..604800", "1..PUs": an option's range as --help says it ("" when it has none) */
static void range_text(const struct rt_cli_opt *o, char *buf, size_t size)
{
	buf[0] = '\0';
	if (o->type != RT_CLI_INT && o->type != RT_CLI_REAL && o->type != RT_CLI_LIST)
		return;
	/* whole numbers in full (65536, 2147483647), others as %g (0.001) */
	if (o->max_pus)
		snprintf(buf, size, "%.0f..PUs", o->min);
	else if (o->type != RT_CLI_REAL)
		snprintf(buf, size, "%.0f..%.0f", o->min, o->max);
	else
		snprintf(buf, size, "%g..%g", o->min, o->max);
}

/* The refusal of an old spelling: its message, "%s" replaced by the argument. */
static int refuse(const struct rt_cli_moved *m, const char *arg, struct rt_err *err)
{
	const char *at = strstr(m->now, "%s");

	if (!at)
		return rt_err_set(err, -EINVAL, "%s", m->now);
	return rt_err_set(err, -EINVAL, "%.*s%s%s", (int)(at - m->now), m->now, arg ? arg : "",
			  at + 2);
}

/* Whether arg is one of the '|'-separated words of when (NULL: any argument). */
static bool among(const char *when, const char *arg)
{
	return !when || (arg && rt_word_in(when, '|', arg));
}

static int check_value(const struct rt_cli *cli, const struct rt_cli_opt *o, const char *arg,
		       struct rt_cli_value *v, struct rt_err *err)
{
	char opt[96], what[32];
	double max = o->max_pus ? (double)cli->pus : o->max;

	snprintf(opt, sizeof(opt), "--%s", o->name);
	v->arg = arg;
	switch (o->type) {
	case RT_CLI_FLAG:
	case RT_CLI_WORD:
		return 0;
	case RT_CLI_PATH:
		/* "--out: the directory name is empty", "--overlay: the base name is empty" */
		snprintf(what, sizeof(what), "%s", !strcmp(o->arg, "DIR") ? "directory" : o->arg);
		for (char *p = what; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		return rt_opt_parse_path(&v->arg, opt, arg, what, err);
	case RT_CLI_INT:
		return rt_opt_parse_long(&v->l, opt, arg, (long)o->min, (long)max, err);
	case RT_CLI_REAL:
		return rt_opt_parse_double(&v->d, opt, arg, o->min, max, err);
	case RT_CLI_LIST:
		return rt_opt_parse_long_list(v->list, &v->n, RT_OPT_LIST_MAX, opt, arg,
					      (long)o->min, (long)max, err);
	}
	return rt_err_set(err, -EINVAL, "%s: an option of no known type", opt);
}

int rt_cli_set(const struct rt_cli *cli, const struct rt_cli_opt *o, const char *arg,
	       rt_cli_setter set, void *ctx, struct rt_err *err)
{
	struct rt_cli_value v = { 0 };
	int rc = check_value(cli, o, arg, &v, err);

	return rc ? rc : set(ctx, o->key, &v, err);
}

int rt_cli_parse(const struct rt_cli *cli, int argc, char **argv, rt_cli_setter set, void *ctx,
		 int *first, struct rt_err *err)
{
	struct option *longs = NULL;
	char *shorts = NULL;
	size_t nopts = 2, nmoved = 0, nl = 0, ns = 0;
	int c, rc = 0;

	for (const struct rt_cli_opt *o = cli->opts; !at_end(o); o++)
		nopts++;
	for (const struct rt_cli_moved *m = cli->moved; m && !moved_end(m); m++)
		nmoved++;
	longs = calloc(nopts + nmoved + 1, sizeof(*longs));
	shorts = calloc(3 * (nopts + nmoved) + 3, 1);
	if (!longs || !shorts) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	if (cli->in_order)
		shorts[ns++] = '+';
	for (size_t i = 0; i < nopts; i++) {
		const struct rt_cli_opt *o = i < nopts - 2 ? &cli->opts[i] :
					     i == nopts - 2 ? &help_opt : &version_opt;

		if (!is_option(o))
			continue;
		longs[nl++] = (struct option){ o->name, o->type == RT_CLI_FLAG ? no_argument :
					       required_argument, NULL, o->key };
		if (o->letter) {
			shorts[ns++] = o->letter;
			if (o->type != RT_CLI_FLAG)
				shorts[ns++] = ':';
		}
	}
	/* the spellings no option has now are known to getopt, to be refused by name */
	for (size_t i = 0; i < nmoved; i++) {
		const struct rt_cli_moved *m = &cli->moved[i];

		if (m->name && !rt_cli_find(cli, m->name))
			longs[nl++] = (struct option){ m->name, m->arg ? required_argument :
						       no_argument, NULL, KEY_MOVED + (int)i };
		if (m->letter && !find_letter(cli, m->letter)) {
			shorts[ns++] = m->letter;
			if (m->arg)
				shorts[ns++] = ':';
		}
	}
	optind = 0;     /* glibc: a whole new parse (the state of an earlier one dropped) */
	for (;;) {
		const struct rt_cli_opt *o = NULL;
		const char *used = NULL;
		int li = -1;

		c = getopt_long(argc, argv, shorts, longs, &li);
		if (c == -1)
			break;
		if (c == '?' || c == ':') {
			rc = rt_err_set(err, -EINVAL, "%s", "");        /* getopt said it */
			goto out;
		}
		if (li >= 0) {
			used = longs[li].name;
			if (c < KEY_MOVED)
				o = rt_cli_find(cli, used);
		} else {
			o = find_letter(cli, c);
		}
		for (size_t i = 0; i < nmoved; i++) {
			const struct rt_cli_moved *m = &cli->moved[i];
			bool same = used ? m->name && !strcmp(m->name, used) : m->letter == c;

			if (same && among(m->when, optarg)) {
				rc = refuse(m, optarg, err);
				goto out;
			}
		}
		if (!o) {
			rc = rt_err_set(err, -EINVAL, "option '%c' has no entry in the table", c);
			goto out;
		}
		if (o->key == KEY_HELP || o->key == KEY_VERSION) {
			rc = o->key == KEY_HELP ? RT_CLI_HELP : RT_CLI_VERSION;
			goto out;
		}
		if ((rc = rt_cli_set(cli, o, optarg, set, ctx, err)))
			goto out;
	}
	*first = optind;
out:
	free(shorts);
	free(longs);
	return rc;
}

/* Words of text from column col on, wrapped at HELP_WIDTH; the first line continues the
 * current one at column at. */
static void wrap(FILE *fp, const char *text, int at, int col)
{
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, " ");

		if (at > col && at + 1 + (int)n > HELP_WIDTH) {
			fprintf(fp, "\n%*s", col, "");
			at = col;
		} else if (at > col) {
			fputc(' ', fp);
			at++;
		}
		fprintf(fp, "%.*s", (int)n, p);
		at += (int)n;
		p += n;
		p += strspn(p, " ");
	}
	fputc('\n', fp);
}

static void help_option(FILE *fp, const struct rt_cli_opt *o)
{
	char tag[128], range[64], text[2048];
	int len;

	len = snprintf(tag, sizeof(tag), "  %c%c%s--%s%s%s", o->letter ? '-' : ' ',
		       o->letter ? o->letter : ' ', o->letter ? ", " : "  ", o->name,
		       o->type == RT_CLI_FLAG ? "" : "=", o->type == RT_CLI_FLAG ? "" : o->arg);
	range_text(o, range, sizeof(range));
	if (*range || o->def)
		snprintf(text, sizeof(text), "%s (%s%s%s%s)", o->help, range,
			 *range && o->def ? ", " : "", o->def ? "default " : "",
			 o->def ? o->def : "");
	else
		snprintf(text, sizeof(text), "%s", o->help);
	fputs(tag, fp);
	if (len >= HELP_COL - 1) {
		fprintf(fp, "\n%*s", HELP_COL, "");
		len = HELP_COL;
	} else {
		fprintf(fp, "%*s", HELP_COL - len, "");
		len = HELP_COL;
	}
	wrap(fp, text, len, HELP_COL);
}

void rt_cli_help(const struct rt_cli *cli, FILE *fp)
{
	for (size_t i = 0; cli->synopsis[i]; i++)
		fprintf(fp, "%s %s %s\n", i ? "  or: " : "Usage:", cli->prog, cli->synopsis[i]);
	fprintf(fp, "%s\n", cli->about);       /* its paragraph ends with a newline */
	for (const struct rt_cli_opt *o = cli->opts; !at_end(o); o++) {
		if (!is_option(o))
			fprintf(fp, "%s", o->help);
		else if (!o->hidden)
			help_option(fp, o);
	}
	help_option(fp, &help_opt);
	help_option(fp, &version_opt);
	if (cli->after)
		fprintf(fp, "%s", cli->after);
}

bool rt_cli_stop(const struct rt_cli *cli, int argc, char **argv, rt_cli_setter set, void *ctx,
		 int *first, int *status)
{
	struct rt_err err = { 0 };
	const int rc = rt_cli_parse(cli, argc, argv, set, ctx, first, &err);

	if (rc < 0) {
		*status = rt_cli_usage_error(cli, err.msg);
		return true;
	}
	if (rc == RT_CLI_HELP || rc == RT_CLI_VERSION) {
		(rc == RT_CLI_HELP ? rt_cli_help : rt_cli_version)(cli, stdout);
		*status = 0;
		return true;
	}
	return false;
}

void rt_cli_version(const struct rt_cli *cli, FILE *fp)
{
	fprintf(fp, "%s (%s) %s\n", cli->prog, PACKAGE_NAME, PACKAGE_VERSION);
	if (cli->version_more)
		cli->version_more(fp);
}

int rt_cli_usage_error(const struct rt_cli *cli, const char *msg)
{
	if (msg && *msg)
		fprintf(stderr, "%s: %s\n", cli->prog, msg);
	fprintf(stderr, "Try '%s --help' for more information.\n", cli->prog);
	return 2;
}
