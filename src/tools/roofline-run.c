/* roofline-run: the user's own training command on the roofline: run under a sweep of what
 * frameworks read, oneDNN's primitives counted from its verbose log */
#include "config.h"
#include "base/options.h"
#include "base/spawn.h"
#include "run/cmd-run.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "roofline-run";
static volatile int interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void usage(FILE *fp)
{
	fprintf(fp,
"Usage: %s [OPTION]... -- COMMAND [ARG]...\n"
"  or:  %s --resume=DIR [-p PROFILE] [--timeout=SECONDS]\n"
"Run COMMAND (a PyTorch or TensorFlow training, any program that uses oneDNN) once per\n"
"configuration and repetition, each a fresh process, with oneDNN's verbose log on: its lines\n"
"are taken out of COMMAND's output (everything else passes through) and counted exactly\n"
"(FLOPs and bytes of every primitive oneDNN ran), beside the wall time of the whole command.\n"
"The default configuration is COMMAND as you would run it (the environment untouched).\n"
"Writes DIR/points.csv, DIR/summary.txt (also printed), DIR/run.cfg, the raw logs in\n"
"DIR/onednn/, and with a machine profile the charts and DIR/report.html.\n"
"\n"
"  -o, --out=DIR          results directory (default: results/run-TIMESTAMP); one that\n"
"                         holds results already is refused\n"
"      --sweep=KNOB       threads[=LIST] (OMP_NUM_THREADS; default list 1, powers of two,\n"
"                         all CPUs), affinity[=LIST] (none, compact, scatter: OMP_PLACES and\n"
"                         OMP_PROC_BIND), env:NAME=V1,V2,... (any variable); repeat for a\n"
"                         grid\n"
"  -r, --repeat=N         fresh processes per configuration (default 3): the best is\n"
"                         called faster only when its range is above the default's\n"
"  -p, --profile=FILE     machine profile (roofline-probe): each primitive against its\n"
"                         precision's ceiling\n"
"      --timeout=SECONDS  kill a process that runs longer (default: none)\n"
"      --verbose-value=V  ONEDNN_VERBOSE's value (default 1; oneDNN 3.x: profile_exec)\n"
"      --batch=N          images an iteration: an iteration rate the command prints\n"
"                         (tqdm's \"12.3it/s\", \"1.2s/it\") read as N times that images/s\n"
"      --throughput=REGEX the command's throughput in its own form (POSIX extended\n"
"                         regex): the first group, or the whole match, is images/s\n"
"      --no-overhead      do not run the default again without the log\n"
"      --no-hw-counters   do not count the default's FLOPs with the node's hardware\n"
"                         counters (done where they read roofline-probe's kernels right)\n"
"      --resume=DIR       run the configurations an interrupted run in DIR did not\n"
"                         finish: the command and the sweep from DIR/run.cfg\n"
"  -h, --help             show this help and exit\n"
"  -V, --version          show the version and exit\n"
"\n"
"Examples:\n"
"  %s --sweep threads=1,2 -- python3 train.py\n"
"  %s -r 5 --sweep threads --sweep env:TF_NUM_INTEROP_THREADS=1,2 -- python3 tf.py\n"
"  %s --batch 64 -- python3 train.py\n"
"  %s --throughput 'step/s=([0-9.]+)' -- ./train\n",
		prog, prog, prog, prog, prog, prog);
}

static const struct option long_opts[] = {
	{ "out", required_argument, NULL, 'o' },
	{ "sweep", required_argument, NULL, 's' },
	{ "repeat", required_argument, NULL, 'r' },
	{ "profile", required_argument, NULL, 'p' },
	{ "timeout", required_argument, NULL, 'T' },
	{ "verbose-value", required_argument, NULL, 'B' },
	{ "no-overhead", no_argument, NULL, 'N' },
	{ "batch", required_argument, NULL, 'b' },
	{ "throughput", required_argument, NULL, 'P' },
	{ "resume", required_argument, NULL, 'R' },
	{ "no-hw-counters", no_argument, NULL, 'H' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static int bad(const char *msg)
{
	fprintf(stderr, "%s: %s\nTry '%s --help' for more information.\n", prog, msg, prog);
	return 2;
}

int main(int argc, char **argv)
{
	struct rt_cmd_run_opts o = { .prog = prog, .repeat = 3, .verbose = "1", .overhead = true,
				     .hw_counters = true };
	struct rt_err err = { 0 };
	char *cmdline;
	size_t len = 1;
	bool request_given = false;    /* -o, --sweep, -r, --verbose-value, --no-overhead */
	long v;
	double d;
	int c;

	/* '+': options end at the command's first word */
	while ((c = getopt_long(argc, argv, "+o:r:p:hV", long_opts, NULL)) != -1) {
		request_given |= c == 'o' || c == 's' || c == 'r' || c == 'B' || c == 'N' ||
				 c == 'b' || c == 'P';
		switch (c) {
		case 'o':
			if (rt_opt_parse_path(&o.outdir, "--out", optarg, "directory", &err))
				return bad(err.msg);
			break;
		case 's':
			if (rt_cmd_sweep_add(&o, optarg, &err))
				return bad(err.msg);
			break;
		case 'r':
			if (rt_opt_parse_long(&v, "--repeat", optarg, 1, 64, &err))
				return bad(err.msg);
			o.repeat = (unsigned)v;
			break;
		case 'p':
			if (rt_opt_parse_path(&o.profile, "--profile", optarg, "file", &err))
				return bad(err.msg);
			break;
		case 'T':
			if (rt_opt_parse_double(&d, "--timeout", optarg, 0.001, 1e7, &err))
				return bad(err.msg);
			o.timeout = d;
			o.timeout_given = true;
			break;
		case 'B':
			if (!*optarg || strlen(optarg) > 40 || strpbrk(optarg, "= \t\n"))
				return bad("--verbose-value: a word of at most 40 characters expected");
			o.verbose = optarg;
			break;
		case 'N': o.overhead = false; break;
		case 'b':
			if (rt_opt_parse_long(&v, "--batch", optarg, 1, RT_CMD_BATCH_MAX, &err))
				return bad(err.msg);
			o.batch = (unsigned)v;
			break;
		case 'P':
			if (rt_cmd_throughput_set(&o, optarg, &err))
				return bad(err.msg);
			break;
		case 'H': o.hw_counters = false; break;
		case 'R':
			if (rt_opt_parse_path(&o.resume, "--resume", optarg, "directory", &err))
				return bad(err.msg);
			break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("%s (%s) %s\n", prog, PACKAGE_NAME, PACKAGE_VERSION); return 0;
		default:
			fprintf(stderr, "Try '%s --help' for more information.\n", prog);
			return 2;
		}
	}
	if (o.resume) {
		/* what the run is comes from its record; only how it runs may be given */
		if (optind < argc)
			return bad("--resume: the command comes from DIR/run.cfg (give none)");
		if (request_given)
			return bad("--resume: the sweep, -r, -o, --verbose-value, --no-overhead, "
				   "--batch and --throughput come from DIR/run.cfg (only -p and "
				   "--timeout may be given)");
	} else if (optind == argc) {
		return bad("no command given (roofline-run [OPTION]... -- COMMAND [ARG]...)");
	} else {
		o.cmd = argv + optind;
	}
	{
		struct sigaction sa = { .sa_handler = on_signal };

		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
		rt_spawn_set_interrupt_flag(&interrupted);
	}
	/* the whole command line, however long, for run.cfg and the directory's lock */
	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	if (!(cmdline = calloc(len, 1))) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return 1;
	}
	for (int i = 0, at = 0; i < argc; i++)
		at += sprintf(cmdline + at, "%s%s", i ? " " : "", argv[i]);
	o.cmdline = cmdline;
	c = rt_cmd_run_tool(&o);
	rt_cmd_run_opts_fini(&o);
	free(cmdline);
	return c;
}
