/* roofline-run: the user's own training command on the roofline: run under a sweep of what
 * frameworks read, oneDNN's primitives counted from its verbose log */
#include "config.h"
#include "base/cli.h"
#include "base/spawn.h"
#include "machine/dnnl.h"
#include "run/cmd-run.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile int interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

enum { OPT_TIMEOUT = 256, OPT_VERBOSE_VALUE, OPT_NO_OVERHEAD, OPT_RESUME, OPT_NO_HW_COUNTERS,
       OPT_BATCH, OPT_THROUGHPUT, OPT_FRAMEWORK };

static const char *const synopsis[] = {
	"[OPTION]... -- COMMAND [ARG]...",
	"--resume=DIR [-p FILE] [--timeout=SECONDS]",
	NULL,
};

static const struct rt_cli_opt opts[] = {
	{ 'o', "out", 'o', RT_CLI_PATH, "DIR",
	  .def = "results/run-TIMESTAMP, named when the run completes",
	  .help = "results directory; one that holds results already is refused" },
	{ 'S', "sweep", 'S', RT_CLI_WORD, "KNOB[=LIST]",
	  .help = "threads[=LIST] (OMP_NUM_THREADS, TensorFlow's TF_NUM_INTRAOP_THREADS: see --framework; without a list 1, powers of two, all cores), "
		  "affinity[=LIST] (none, compact, scatter: OMP_PLACES and OMP_PROC_BIND), "
		  "env:NAME=V1,V2,... (any variable; a comma in a value written \\,), "
		  "allocator=default,jemalloc,tcmalloc (LD_PRELOAD), fpmath=strict,bf16 "
		  "(ONEDNN_DEFAULT_FPMATH_MODE, where the CPU has AMX or AVX512-BF16), isa=LIST "
		  "(ONEDNN_MAX_CPU_ISA), numa=LIST (numactl, on a node of several NUMA nodes), "
		  "or tune (each knob this node offers varied alone, then the winners together); "
		  "repeat for a grid" },
	{ 'r', "repeat", 'r', RT_CLI_INT, "N", 1, RT_CLI_REPEAT_MAX, .def = "3",
	  .help = "fresh processes per configuration: the best is called faster only when its "
		  "range is above the default's" },
	{ 'p', "profile", 'p', RT_CLI_PATH, "FILE",
	  .def = "machine-profiles/HOST.cfg when it exists",
	  .help = "machine profile (roofline-probe): each primitive against its precision's "
		  "ceiling" },
	{ OPT_TIMEOUT, "timeout", 0, RT_CLI_REAL, "SECONDS", 0, RT_CLI_TIMEOUT_MAX,
	  .def = "3600",
	  .help = "kill a process that runs longer, every process of it; 0: no limit" },
	{ OPT_VERBOSE_VALUE, "verbose-value", 0, RT_CLI_WORD, "V",
	  .def = "1",
	  .help = "ONEDNN_VERBOSE's value (oneDNN 3.x: profile_exec)" },
	{ OPT_BATCH, "batch", 'b', RT_CLI_INT, "N", 1, RT_CMD_BATCH_MAX,
	  .help = "images an iteration: an iteration rate the command prints (tqdm's \"12.3it/s\", "
		  "\"1.2s/it\") read as N times that images/s" },
	{ OPT_THROUGHPUT, "throughput", 0, RT_CLI_WORD, "REGEX",
	  .help = "the command's throughput in its own form (POSIX extended regex): the first "
		  "group, or the whole match, is images/s" },
	{ OPT_FRAMEWORK, "framework", 0, RT_CLI_WORD, "NAME",
	  .def = "auto: known from the default's log",
	  .help = "the framework the command trains with: pytorch (and any program whose oneDNN "
		  "runs on OpenMP), tensorflow (oneDNN on its own thread pool), or auto; the "
		  "threads knob sets what it reads (OMP_NUM_THREADS, TF_NUM_INTRAOP_THREADS; auto: "
		  "both), and a knob it cannot read is refused (OMP_*, KMP_*, GOMP_* and affinity "
		  "under tensorflow)" },
	{ OPT_NO_OVERHEAD, "no-overhead", 0, RT_CLI_FLAG, NULL,
	  .help = "do not run the default again without the log" },
	{ OPT_NO_HW_COUNTERS, "no-hw-counters", 0, RT_CLI_FLAG, NULL,
	  .help = "do not count the default's FLOPs with the node's hardware counters (done "
		  "where they read roofline-probe's kernels right)" },
	{ OPT_RESUME, "resume", 0, RT_CLI_PATH, "DIR",
	  .help = "run the configurations an interrupted run in DIR did not finish: the command "
		  "and the sweep from DIR/run.cfg" },
	{ 0 },
};

/* roofline-train's -t sets the threads it trains with; here the default is the command as it
 * is, and thread counts are a sweep's knob: never read as another meaning, named */
static const struct rt_cli_moved moved[] = {
	{ 't', "threads", true, NULL, "the default runs COMMAND with its own thread count; "
	  "--sweep threads=%s runs it at those counts" },
	{ 0 },
};

static const struct rt_cli cli = {
	.prog = "roofline-run", .synopsis = synopsis, .opts = opts, .moved = moved,
	.version_more = rt_dnnl_print_version,
	.in_order = true,
	.about =
"Run COMMAND (a PyTorch or TensorFlow training, any program that uses oneDNN) once per\n"
"configuration and repetition, each a fresh process, with oneDNN's verbose log on: its lines\n"
"are taken out of COMMAND's output (everything else passes through) and counted exactly\n"
"(FLOPs and bytes of every primitive oneDNN ran), beside the wall time of the whole command.\n"
"The default configuration is COMMAND as you would run it (the environment untouched).\n"
"Writes DIR/points.csv, DIR/summary.txt (also printed), DIR/run.cfg, the raw logs in\n"
"DIR/onednn/, and with a machine profile the charts and DIR/report.html.\n",
	.after =
"\n"
"Examples:\n"
"  roofline-run --sweep threads=1,2 -- python3 train.py\n"
"  roofline-run -r 5 --sweep threads --sweep env:TF_NUM_INTEROP_THREADS=1,2 -- python3 tf.py\n"
"  roofline-run --sweep tune -- python3 train.py\n"
"  roofline-run --batch 64 -- python3 train.py\n"
"  roofline-run --throughput 'step/s=([0-9.]+)' -- ./train\n",
};

struct cli {
	struct rt_cmd_run_opts *o;
	bool request_given;     /* -o, --sweep, -r, --verbose-value, --no-overhead, --batch,
				 * --throughput, --framework */
};

static int set(void *ctx, int key, const struct rt_cli_value *v, struct rt_err *err)
{
	struct cli *c = ctx;
	struct rt_cmd_run_opts *o = c->o;

	c->request_given |= key == 'o' || key == 'S' || key == 'r' || key == OPT_VERBOSE_VALUE ||
			    key == OPT_NO_OVERHEAD || key == OPT_BATCH || key == OPT_THROUGHPUT ||
			    key == OPT_FRAMEWORK;
	switch (key) {
	case 'o': o->outdir = v->arg; break;
	case 'S': return rt_cmd_sweep_add(o, v->arg, err);
	case 'r': o->repeat = (unsigned)v->l; break;
	case 'p': o->profile = v->arg; break;
	case OPT_TIMEOUT:
		o->timeout = v->d;
		o->timeout_given = true;
		break;
	case OPT_VERBOSE_VALUE:
		if (!*v->arg || strlen(v->arg) > 40 || strpbrk(v->arg, "= \t\n"))
			return rt_err_set(err, -EINVAL, "--verbose-value: a word of at most 40 "
					  "characters expected");
		o->verbose = v->arg;
		break;
	case OPT_NO_OVERHEAD: o->overhead = false; break;
	case OPT_BATCH: o->batch = (unsigned)v->l; break;
	case OPT_THROUGHPUT: return rt_cmd_throughput_set(o, v->arg, err);
	case OPT_FRAMEWORK: return rt_cmd_framework_parse(&o->framework, v->arg, err);
	case OPT_NO_HW_COUNTERS: o->hw_counters = false; break;
	case OPT_RESUME: o->resume = v->arg; break;
	}
	return 0;
}

/* An option of the request set from run.cfg on --resume, as on the command line. */
static int option(struct rt_cmd_run_opts *o, const char *name, const char *value,
		  struct rt_err *err)
{
	const struct rt_cli_opt *opt = rt_cli_find(&cli, name);
	struct cli c = { .o = o };

	return opt ? rt_cli_set(&cli, opt, value, set, &c, err) :
	       rt_err_set(err, -EINVAL, "--%s: not an option of %s", name, cli.prog);
}

int main(int argc, char **argv)
{
	struct rt_cmd_run_opts req = { .prog = cli.prog, .repeat = RT_CLI_REPEAT_DEFAULT,
					.verbose = "1", .timeout = RT_CLI_TIMEOUT_DEFAULT,
					.overhead = true, .hw_counters = true, .option = option };
	struct cli c = { .o = &req };
	struct rt_cmd_run_opts *o = &req;
	char *cmdline = NULL;
	size_t len = 1;
	int first = 0, rc;

	if (rt_cli_stop(&cli, argc, argv, set, &c, &first, &rc))
		goto out;
	if (o->resume) {
		/* what the run is comes from its record; only how it runs may be given */
		if (first < argc) {
			rc = rt_cli_usage_error(&cli, "--resume: the command comes from DIR/run.cfg "
						"(give none)");
			goto out;
		}
		if (c.request_given) {
			rc = rt_cli_usage_error(&cli, "--resume: the sweep, -r, -o, --verbose-value, "
						"--no-overhead, --batch, --throughput and --framework come from "
						"DIR/run.cfg (only -p and --timeout may be given)");
			goto out;
		}
	} else if (first == argc) {
		rc = rt_cli_usage_error(&cli, "no command given (roofline-run [OPTION]... -- "
					"COMMAND [ARG]...)");
		goto out;
	} else {
		o->cmd = argv + first;
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
		fprintf(stderr, "%s: out of memory\n", cli.prog);
		rc = 1;
		goto out;
	}
	for (int i = 0, at = 0; i < argc; i++)
		at += sprintf(cmdline + at, "%s%s", i ? " " : "", argv[i]);
	o->cmdline = cmdline;
	rc = rt_cmd_run_tool(o);
out:
	rt_cmd_run_opts_fini(o);
	free(cmdline);
	return rc;
}
