/* roofline-train: train one configuration of a CNN built from oneDNN primitives and report
 * images/s, time per phase, loss, accuracy, exact model counts and the memory split */
#include "config.h"
#include "base/err.h"
#include "base/spawn.h"
#include "cluster/cluster.h"
#include "machine/topo.h"
#include "run/train-run.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *prog = "roofline-train";

static void usage(FILE *fp)
{
	fprintf(fp,
"Usage: %s [OPTION]...\n"
"Train one configuration of a CNN made of oneDNN primitives (forward, backward data and\n"
"weights, SGD with momentum and weight decay) and report images/s, the time of each phase\n"
"(data, forward, loss, backward, comm under mpirun, update), loss and accuracy, the exact\n"
"analytic FLOP counts and the memory split (weights, gradients, optimizer state,\n"
"activations, workspace). Under mpirun: data-parallel training over the ranks.\n"
"\n"
"  -m, --model=NAME|FILE  model: lenet5, convnet (default), alexnet, vgg16, resnet18, or a\n"
"                         model file (see cnn/README)\n"
"  -b, --batch=N          images per iteration, 1..65536 (default: the model's)\n"
"      --input=HxW        the input's height and width (one number: a square), 1..16384\n"
"                         (default: the model's); every shape follows, the fully\n"
"                         connected layers take the new flattened size\n"
"  -t, --threads=N        OpenMP threads, 1..processing units (default: all cores)\n"
"      --affinity=A       pin the threads: compact, scatter, or none (default: the runtime's\n"
"                         placement); under mpirun each rank to its share of the node\n"
"  -n, --iterations=N     timed iterations, 1..1000000 (default 20)\n"
"  -w, --warmup=N         untimed iterations first, 0..1000000 (default 3)\n"
"  -d, --data=SPEC        synthetic (default), mnist:DIR or cifar10:DIR\n"
"  -s, --seed=N           seed of the weights, the synthetic data and dropout (default 1)\n"
"  -p, --precision=P      fp32 (default) or bf16: bf16 activations, weights and gradients\n"
"                         in the primitives (AMX or AVX512-BF16 where the CPU has them,\n"
"                         oneDNN's emulation on other AVX-512 CPUs), fp32 master weights,\n"
"                         weight gradients, optimizer state and loss\n"
"      --lr=X             SGD learning rate, 0..10 (default 0.01)\n"
"      --maxpool-impl=I   max pooling whose window equals its stride: onednn (oneDNN's\n"
"                         training pooling), split (inference pooling forward; backward by\n"
"                         a reorder, binary compares and a reorder: the same bits), or\n"
"                         auto (default: the faster, timed when the net is built)\n"
"  -c, --counters=WHICH   count FLOPs and bytes through PAPI: auto (default: hardware events\n"
"                         where the CPU has them, else the trainer's exact model counts),\n"
"                         hw, model, or none\n"
"  -l, --per-layer        also print each layer's forward and backward time and GFLOP/s\n"
"      --digest           print a digest of the final weights (hash, sum, norm; every\n"
"                         rank under mpirun): equal runs have equal digests\n"
"\n"
"Sweeps (each configuration in a fresh child process, results in a directory):\n"
"  -S, --sweep=KNOB[=LIST] sweep threads, batch, affinity (compact, scatter, none),\n"
"                         precision (fp32, bf16) or input (input=32,64,128 or HxW\n"
"                         sizes: the memory chart then runs over the input's pixel\n"
"                         area) or ranks (ranks=1,2: rooftraj launches mpirun with that\n"
"                         many ranks, each with the node's cores / ranks threads and its\n"
"                         share of the global batch); repeat for a grid. Default lists:\n"
"                         threads 1, powers of two, all cores; batch the model's /4, /2,\n"
"                         x1, x2; affinity all three; precision both. The default\n"
"                         configuration (all cores, the runtime's placement, the model's\n"
"                         batch, fp32) is always measured as the reference\n"
"  -r, --repeat=N         repetitions of each measurement, 1..100 (default 3)\n"
"      --mpirun=CMD       the MPI launcher of --sweep ranks, words split on blanks\n"
"                         (default: $ROOFTRAJ_MPIRUN, else mpirun --bind-to none)\n"
"  -o, --out=DIR          results directory (default: results/MODEL-TIMESTAMP, named when\n"
"                         the sweep completes); one that holds a sweep must hold the\n"
"                         same request (configurations not measured yet are added)\n"
"      --resume=DIR       continue an interrupted sweep in DIR: its request (model, data,\n"
"                         knobs, ...) comes from DIR/run.cfg; options given must agree\n"
"      --no-retry         with --resume or --out: keep the failed configurations of the\n"
"                         earlier run (default: measure them again)\n"
"      --timeout=S        seconds a configuration may take, 1..86400 (default 600)\n"
"      --profile=FILE     machine profile for the ceilings (default:\n"
"                         machine-profiles/HOST.cfg; a quick probe writes it if missing)\n"
"\n"
"  -D, --describe         print the per-layer table (shapes, parameters, FLOPs, memory for\n"
"                         the batch) and exit without training\n"
"  -v, --verbose          progress on stderr even when it is not a terminal\n"
"  -h, --help             show this help and exit\n"
"  -V, --version          show the version and exit\n"
"\n"
"Examples:\n"
"  %s                              convnet on synthetic data, a few seconds\n"
"  %s -m lenet5 -b 128 -t 1        LeNet-5, batch 128, one thread\n"
"  %s -m resnet18 -b 4 -n 3 -w 1   three steps of ResNet-18 at 224x224\n"
"  %s -m vgg16 -b 8 --describe     VGG-16's layers and its memory at batch 8\n",
		prog, prog, prog, prog, prog);
}

static const struct option long_opts[] = {
	{ "model", required_argument, NULL, 'm' },
	{ "batch", required_argument, NULL, 'b' },
	{ "threads", required_argument, NULL, 't' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "warmup", required_argument, NULL, 'w' },
	{ "data", required_argument, NULL, 'd' },
	{ "seed", required_argument, NULL, 's' },
	{ "precision", required_argument, NULL, 'p' },
	{ "lr", required_argument, NULL, 'L' },
	{ "maxpool-impl", required_argument, NULL, 'M' },
	{ "describe", no_argument, NULL, 'D' },
	{ "per-layer", no_argument, NULL, 'l' },
	{ "counters", required_argument, NULL, 'c' },
	{ "sweep", required_argument, NULL, 'S' },
	{ "repeat", required_argument, NULL, 'r' },
	{ "out", required_argument, NULL, 'o' },
	{ "resume", required_argument, NULL, 'R' },
	{ "no-retry", no_argument, NULL, 'N' },
	{ "timeout", required_argument, NULL, 'T' },
	{ "profile", required_argument, NULL, 'P' },
	{ "emit-points", no_argument, NULL, 'E' },
	{ "digest", no_argument, NULL, 'G' },
	{ "input", required_argument, NULL, 'I' },
	{ "affinity", required_argument, NULL, 'F' },
	{ "mpirun", required_argument, NULL, 'U' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static int usage_error(const struct rt_err *err)
{
	fprintf(stderr, "%s: %s\nTry '%s --help' for more information.\n", prog, err->msg, prog);
	return 2;
}

struct progress {
	bool on, tty;
};

static void on_iteration(void *ctx, long iter, long total, double loss)
{
	const struct progress *ps = ctx;

	if (!ps->on)
		return;
	if (ps->tty)
		fprintf(stderr, "\r\033[K%s: iteration %ld of %ld, loss %.4f", prog, iter, total, loss);
	else if (iter == total || iter % 10 == 0)
		fprintf(stderr, "%s: iteration %ld of %ld, loss %.4f\n", prog, iter, total, loss);
	if (ps->tty && iter == total)
		fprintf(stderr, "\r\033[K");
}

static void on_config(void *ctx, size_t i, size_t n, const char *config, const char *result)
{
	const struct progress *ps = ctx;

	if (!ps->on)
		return;
	if (result)
		fprintf(stderr, "%s: configuration %zu of %zu, %s: %s\n", prog, i, n, config, result);
	else if (ps->tty)
		fprintf(stderr, "%s: configuration %zu of %zu, %s ...\n", prog, i, n, config);
}

/* Notes along the way, warnings of the ranks: on stderr. */
static void say(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "%s: %s\n", prog, msg);
}

static void mpi_warn(void *ctx, int rank, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "%s: rank %d: warning: %s (measured without that placement)\n", prog, rank,
		msg);
}

/* SIGINT, SIGTERM, SIGHUP: a sweep stops cleanly (the running child is killed) */
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
}

struct cli {
	struct rt_train_settings s;
	bool describe, verbose, emit;
};

/* Parse the options into c: 0, or 2 (usage) / 1 with the message printed. */
static int parse_args(struct cli *c, int argc, char **argv, const struct rt_topo *topo)
{
	struct rt_err err = { 0 };
	int opt;

	while ((opt = getopt_long(argc, argv, "m:b:t:n:w:d:s:p:c:S:r:o:DlvhV", long_opts,
				  NULL)) != -1) {
		int bad = 0;

		switch (opt) {
		case 'D': c->describe = true; break;
		case 'E': c->emit = true; break;
		case 'v': c->verbose = true; break;
		case 'h': usage(stdout); return -1;
		case 'V': printf("%s (%s) %s\n", prog, PACKAGE_NAME, PACKAGE_VERSION); return -1;
		case '?':
			fprintf(stderr, "Try '%s --help' for more information.\n", prog);
			return 2;
		default:        /* the settings' own options */
			bad = rt_train_settings_option(&c->s, opt, optarg, topo, &err);
		}
		if (bad)
			return usage_error(&err);
	}
	if (optind < argc) {
		rt_err_set(&err, -EINVAL, "unexpected argument '%s'", argv[optind]);
		return usage_error(&err);
	}
	if (rt_train_settings_check(&c->s, &err))
		return usage_error(&err);
	return 0;
}

int main(int argc, char **argv)
{
	struct cli c = { 0 };
	struct rt_topo *topo = NULL;
	struct rt_err err = { 0 };
	struct rt_cluster cl;
	struct progress sweep_ps = { .tty = isatty(STDERR_FILENO) },
			one_ps = { .tty = isatty(STDERR_FILENO) };
	const struct rt_train_ui sweep_ui = { .say = say, .config = on_config, .ctx = &sweep_ps },
				 one_ui = { .say = say, .iteration = on_iteration, .ctx = &one_ps };
	int rc = 1;

	rt_train_settings_default(&c.s);
	/* under mpirun: MPI, ranks and nodes; otherwise one process */
	if (rt_cluster_init(&cl, &argc, &argv, &err)) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return 1;
	}
	if (rt_topo_create(&topo, NULL, &err)) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		goto out;
	}
	rc = parse_args(&c, argc, argv, topo);
	if (rc) {
		rc = rc < 0 ? 0 : rc;   /* --help, --version */
		goto out;
	}
	sweep_ps.on = c.verbose || sweep_ps.tty;
	one_ps.on = (one_ps.tty || c.verbose) && cl.rank == 0;
	if (c.s.nsweeps || c.s.resume) {
		/* a sweep stops cleanly: the running child is killed, the finished ones kept */
		struct sigaction sa = { .sa_handler = on_interrupt };

		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
		rt_spawn_set_interrupt_flag((volatile int *)&interrupted);
	}
	{
		const struct rt_train_tool t = {
			.prog = prog, .s = &c.s, .describe = c.describe, .emit = c.emit, .cl = &cl,
			.topo = topo, .argc = argc, .argv = argv, .sweep_ui = &sweep_ui,
			.one_ui = &one_ui, .warn = mpi_warn,
		};

		rc = rt_run_train_tool(&t);
	}
	if (rc && one_ps.on && one_ps.tty && !c.s.nsweeps && !c.s.resume)
		fputc('\n', stderr);
out:
	rt_topo_destroy(topo);
	rt_cluster_finalize(&cl);
	return rc;
}
