/* cli.h: one declarative option table per tool: getopt's string and long options, --help's
 * text, each value's range check and the refusal of old spellings all come from it */
#ifndef RT_CLI_H
#define RT_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "base/err.h"
#include "base/options.h"

/* One range and one default for the options the sweeping tools share (roofline-train and
 * roofline-run): fresh processes per configuration, and seconds each may take (0: none). */
#define RT_CLI_REPEAT_MAX 64
#define RT_CLI_REPEAT_DEFAULT 3
#define RT_CLI_TIMEOUT_MAX 604800.0
#define RT_CLI_TIMEOUT_DEFAULT 3600.0

enum rt_cli_type {
	RT_CLI_FLAG,            /* no argument */
	RT_CLI_WORD,            /* any argument, checked by the tool */
	RT_CLI_PATH,            /* a file or directory name, not empty */
	RT_CLI_INT,             /* a whole number in min..max */
	RT_CLI_REAL,            /* a finite number in min..max */
	RT_CLI_LIST,            /* whole numbers in min..max, comma-separated, none twice (a
				 * single number is a list of one) */
};

/* One option. An entry with no name and a help text is a heading printed as it is, between
 * the options; the table ends with an entry that has neither. */
struct rt_cli_opt {
	int key;                /* what the tool's setter gets: the short letter, or >= 256 */
	const char *name;       /* long name, without the dashes */
	char letter;            /* short letter, 0: none */
	enum rt_cli_type type;
	const char *arg;        /* the argument's name in --help and the man page: N, FILE, LIST */
	double min, max;        /* RT_CLI_INT, _REAL, _LIST: the range */
	bool max_pus;           /* the range ends at the node's processing units (max unused) */
	const char *def;        /* the default as --help and the man page say it; NULL: none */
	const char *help;       /* what it does, without its range or default */
	bool hidden;            /* internal (a sweep's child): accepted, not in --help */
};

/* An old spelling whose meaning changed: refused with a message naming the new one. */
struct rt_cli_moved {
	char letter;            /* the old short letter, or 0 */
	const char *name;       /* the old long name, or NULL */
	bool arg;               /* it took an argument (for a spelling no option has now) */
	const char *when;       /* refused only with one of these arguments, '|'-separated
				 * ("fp32|bf16"); NULL: always */
	const char *now;        /* the message; "%s" there is the argument given */
};

/* A tool's command line. */
struct rt_cli {
	const char *prog;
	const char *const *synopsis;    /* "[OPTION]...": "Usage: PROG ...", then "or:  PROG ..." */
	const char *about;              /* what the tool does, before the options */
	const struct rt_cli_opt *opts;
	const struct rt_cli_moved *moved;       /* ends with an entry of no letter and no name */
	const char *after;              /* notes and examples after the options */
	bool in_order;                  /* options end at the first operand (a command's words) */
	long pus;                       /* the node's processing units, for max_pus ranges */
	/* optional: more lines of --version after the first (the libraries it runs with) */
	void (*version_more)(FILE *fp);
};

/* A checked option value, as the setter gets it (only the member of its type is set). */
struct rt_cli_value {
	const char *arg;                /* the argument as given (NULL for a flag) */
	long l;                         /* RT_CLI_INT */
	double d;                       /* RT_CLI_REAL */
	long list[RT_OPT_LIST_MAX];     /* RT_CLI_LIST: list[0..n) */
	size_t n;
};

typedef int (*rt_cli_setter)(void *ctx, int key, const struct rt_cli_value *v,
			     struct rt_err *err);

enum { RT_CLI_HELP = 1, RT_CLI_VERSION = 2 };

/* Parse argv by the table: each option's value checked (its type and range) and handed to set
 * (ctx, its key, the value); --help and --version stop the parse. Returns 0 with *first the
 * index of the first operand, RT_CLI_HELP or RT_CLI_VERSION when asked, or a negative error
 * with err set (an empty message where getopt already said what was wrong, as it does). */
int rt_cli_parse(const struct rt_cli *cli, int argc, char **argv, rt_cli_setter set, void *ctx,
		 int *first, struct rt_err *err);

/* One option's value (NULL for a flag) checked as on the command line, its type and range,
 * and handed to set: a value read from elsewhere than argv (a sweep's child its record) is
 * refused as the command line refuses it. */
int rt_cli_set(const struct rt_cli *cli, const struct rt_cli_opt *o, const char *arg,
	       rt_cli_setter set, void *ctx, struct rt_err *err);

/* rt_cli_parse as a tool's main takes it: true when the tool is to stop now with *status
 * (a usage error said: 2; --help or --version printed on stdout: 0), else false with *first
 * the index of the first operand. */
bool rt_cli_stop(const struct rt_cli *cli, int argc, char **argv, rt_cli_setter set, void *ctx,
		 int *first, int *status);

/* --help: usage, about, every option not hidden with its argument, range and default, then
 * the notes. */
void rt_cli_help(const struct rt_cli *cli, FILE *fp);

/* --version's line. */
void rt_cli_version(const struct rt_cli *cli, FILE *fp);

/* A usage error on stderr: "PROG: MSG" (none when msg is empty) and the hint to --help;
 * returns 2, the exit status of bad usage. */
int rt_cli_usage_error(const struct rt_cli *cli, const char *msg);

/* The option whose long name is name, or NULL. */
const struct rt_cli_opt *rt_cli_find(const struct rt_cli *cli, const char *name);

#endif
