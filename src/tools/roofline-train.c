/* roofline-train: train one configuration of a CNN built from oneDNN primitives and report
 * images/s, time per phase, loss, accuracy, exact model counts and the memory split */
#include "config.h"
#include "cluster.h"
#include "counters.h"
#include "err.h"
#include "model.h"
#include "net.h"
#include "options.h"
#include "profile.h"
#include "sweep.h"
#include "sweep-child.h"
#include "sweep-mpi.h"
#include "sweep-train.h"
#include "topo.h"
#include "train.h"
#include "train-report.h"
#include "util.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
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
"  -t, --threads=N        OpenMP threads, 1..processing units (default: all cores)\n"
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
"  -S, --sweep=KNOB[=LIST] sweep threads, batch, affinity (compact, scatter, none) or\n"
"                         precision (fp32, bf16); repeat for a grid. Default lists:\n"
"                         threads 1, powers of two, all cores; batch the model's /4, /2,\n"
"                         x1, x2; affinity all three; precision both. The default\n"
"                         configuration (all cores, the runtime's placement, the model's\n"
"                         batch, fp32) is always measured as the reference\n"
"  -r, --repeat=N         repetitions of each measurement, 1..100 (default 3)\n"
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

struct progress_state {
	bool on, tty;
};

static void on_progress(void *ctx, long iter, long total, double loss)
{
	struct progress_state *ps = ctx;

	if (!ps->on)
		return;
	if (ps->tty)
		fprintf(stderr, "\r\033[K%s: iteration %ld of %ld, loss %.4f", prog, iter, total, loss);
	else if (iter == total || iter % 10 == 0)
		fprintf(stderr, "%s: iteration %ld of %ld, loss %.4f\n", prog, iter, total, loss);
	if (ps->tty && iter == total)
		fprintf(stderr, "\r\033[K");
}

/* Open the counters the user asked for (none: no backend). */
static int open_counters(const char *which, const struct rt_counter_backend **backend,
			 void **ctx, struct rt_err *why)
{
	struct rt_err err;

	*backend = NULL;
	if (!strcmp(which, "none"))
		return 0;
	if (rt_counters_open(which, backend, ctx, why, &err)) {
		*backend = NULL;
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return 1;
	}
	return 0;
}

static void sweep_progress(void *ctx, size_t i, size_t n, const char *config, const char *result)
{
	const bool *on = ctx;

	if (!*on)
		return;
	if (result)
		fprintf(stderr, "%s: configuration %zu of %zu, %s: %s\n", prog, i, n, config, result);
	else if (isatty(STDERR_FILENO))
		fprintf(stderr, "%s: configuration %zu of %zu, %s ...\n", prog, i, n, config);
}

static volatile sig_atomic_t interrupted;

/* SIGINT, SIGTERM, SIGHUP: the sweep stops cleanly (the running child is killed) */

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* What a sweep says along the way (notes, the quick probe): on stderr. */
static void say(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "%s: %s\n", prog, msg);
}

/* A rank that measures a configuration without its placement says so. */
static void mpi_warn(void *ctx, int rank, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "%s: rank %d: warning: %s (measured without that placement)\n", prog, rank,
		msg);
}

/* The command line, parsed. `given` has a bit for each option the user set: --resume takes
 * the others from the results directory's run.cfg. */
enum { G_MODEL = 1, G_BATCH = 2, G_ITERS = 4, G_WARMUP = 8, G_DATA = 16, G_SEED = 32,
       G_LR = 64, G_MAXPOOL = 128, G_COUNTERS = 256, G_PER_LAYER = 512, G_REPEAT = 1024,
       G_TIMEOUT = 2048, G_PROFILE = 4096, G_SWEEP = 8192 };

struct cli {
	const char *model, *data, *counters;
	long batch, threads, iters, warmup, seed, repeat;
	double lr, timeout;
	enum rt_precision prec;
	enum rt_pool_impl pool;
	bool describe, verbose, per_layer, emit, digest, no_retry;
	const char *sweeps[RT_KNOB_COUNT];
	size_t nsweeps;
	const char *outdir, *resume, *profile;
	unsigned given;
	struct rt_sweep_request record; /* --resume: what DIR/run.cfg asked */
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
		case 'm': c->model = optarg; c->given |= G_MODEL; break;
		case 'b':
			bad = rt_opt_parse_long(&c->batch, "--batch", optarg, 1, 65536, &err);
			c->given |= G_BATCH;
			break;
		case 't':
			bad = rt_opt_parse_long(&c->threads, "--threads", optarg, 1,
						(long)rt_topo_pus(topo), &err);
			break;
		case 'n':
			bad = rt_opt_parse_long(&c->iters, "--iterations", optarg, 1, 1000000, &err);
			c->given |= G_ITERS;
			break;
		case 'w':
			bad = rt_opt_parse_long(&c->warmup, "--warmup", optarg, 0, 1000000, &err);
			c->given |= G_WARMUP;
			break;
		case 'd': c->data = optarg; c->given |= G_DATA; break;
		case 's':
			bad = rt_opt_parse_long(&c->seed, "--seed", optarg, 0, 2147483647L, &err);
			c->given |= G_SEED;
			break;
		case 'p':
			if (rt_precision_parse(optarg, &c->prec))
				bad = rt_err_set(&err, -EINVAL, "--precision: '%s' is not fp32 or "
						 "bf16", optarg);
			break;
		case 'L':
			bad = rt_opt_parse_double(&c->lr, "--lr", optarg, 0, 10, &err);
			c->given |= G_LR;
			break;
		case 'M':
			if (rt_pool_impl_parse(optarg, &c->pool))
				bad = rt_err_set(&err, -EINVAL, "--maxpool-impl: '%s' is not auto, "
						 "onednn or split", optarg);
			c->given |= G_MAXPOOL;
			break;
		case 'D': c->describe = true; break;
		case 'l': c->per_layer = true; c->given |= G_PER_LAYER; break;
		case 'S':
			if (c->nsweeps == RT_KNOB_COUNT)
				bad = rt_err_set(&err, -EINVAL, "--sweep: at most %d knobs",
						 RT_KNOB_COUNT);
			else
				c->sweeps[c->nsweeps++] = optarg;
			c->given |= G_SWEEP;
			break;
		case 'r':
			bad = rt_opt_parse_long(&c->repeat, "--repeat", optarg, 1, 100, &err);
			c->given |= G_REPEAT;
			break;
		case 'o': bad = rt_opt_parse_path(&c->outdir, "--out", optarg, "directory", &err); break;
		case 'R':
			bad = rt_opt_parse_path(&c->resume, "--resume", optarg, "directory", &err);
			break;
		case 'N': c->no_retry = true; break;
		case 'T':
			bad = rt_opt_parse_double(&c->timeout, "--timeout", optarg, 1, 86400, &err);
			c->given |= G_TIMEOUT;
			break;
		case 'P':
			bad = rt_opt_parse_path(&c->profile, "--profile", optarg, "file", &err);
			c->given |= G_PROFILE;
			break;
		case 'E': c->emit = true; break;
		case 'G': c->digest = true; break;
		case 'c':
			c->counters = optarg;
			c->given |= G_COUNTERS;
			if (strcmp(optarg, "auto") && strcmp(optarg, "hw") && strcmp(optarg, "model") &&
			    strcmp(optarg, "none"))
				bad = rt_err_set(&err, -EINVAL, "--counters: '%s' is not auto, hw, "
						 "model or none", optarg);
			break;
		case 'v': c->verbose = true; break;
		case 'h': usage(stdout); return -1;
		case 'V': printf("%s (%s) %s\n", prog, PACKAGE_NAME, PACKAGE_VERSION); return -1;
		default:
			fprintf(stderr, "Try '%s --help' for more information.\n", prog);
			return 2;
		}
		if (bad)
			return usage_error(&err);
	}
	if (optind < argc) {
		rt_err_set(&err, -EINVAL, "unexpected argument '%s'", argv[optind]);
		return usage_error(&err);
	}
	if (strcmp(c->data, "synthetic") && strncmp(c->data, "mnist:", 6) &&
	    strncmp(c->data, "cifar10:", 8)) {
		rt_err_set(&err, -EINVAL, "--data: '%s' is not synthetic, mnist:DIR or cifar10:DIR",
			   c->data);
		return usage_error(&err);
	}
	if (c->outdir && c->resume) {
		rt_err_set(&err, -EINVAL, "--resume: give either --out or --resume");
		return usage_error(&err);
	}
	if (c->no_retry && !c->outdir && !c->resume) {
		rt_err_set(&err, -EINVAL, "--no-retry: goes with --resume or --out");
		return usage_error(&err);
	}
	return 0;
}

/* --resume DIR: every option the user did not give comes from DIR/run.cfg (a given one that
 * differs is named when the directory is checked). 0, or 1 with the message printed. */
static int take_record(struct cli *c)
{
	struct rt_sweep_request *r = &c->record;
	struct rt_err err;
	int rc = rt_sweep_request_read(r, c->resume, &err);

	if (rc == -ENOENT)
		rt_err_set(&err, rc, "--resume: %s: nothing to resume (no run.cfg there)", c->resume);
	if (rc) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return 1;
	}
	if (!(c->given & G_MODEL))
		c->model = r->model;
	if (!(c->given & G_DATA))
		c->data = r->data;
	if (!(c->given & G_COUNTERS))
		c->counters = r->counters;
	if (!(c->given & G_MAXPOOL) && rt_pool_impl_parse(r->maxpool, &c->pool)) {
		fprintf(stderr, "%s: %s/run.cfg: unknown maxpool '%s'\n", prog, c->resume,
			r->maxpool);
		return 1;
	}
	if (!(c->given & G_LR) && *r->lr &&
	    rt_opt_parse_double(&c->lr, "lr", r->lr, 0, 10, &err)) {
		fprintf(stderr, "%s: %s/run.cfg: %s\n", prog, c->resume, err.msg);
		return 1;
	}
	if (!(c->given & G_BATCH))
		c->batch = r->batch;
	if (!(c->given & G_ITERS))
		c->iters = r->iterations;
	if (!(c->given & G_WARMUP))
		c->warmup = r->warmup;
	if (!(c->given & G_REPEAT))
		c->repeat = r->repeat;
	if (!(c->given & G_SEED))
		c->seed = r->seed;
	if (!(c->given & G_PER_LAYER))
		c->per_layer = r->per_layer;
	if (!(c->given & G_TIMEOUT) && r->timeout >= 1)
		c->timeout = r->timeout;
	if (!(c->given & G_PROFILE) && *r->profile)
		c->profile = r->profile;
	if (!(c->given & G_SWEEP)) {
		c->nsweeps = r->nknobs;
		for (size_t i = 0; i < r->nknobs; i++)
			c->sweeps[i] = r->knobs[i];
	}
	return 0;
}

/* The request the points of this sweep answer, as run.cfg records it. */
static void build_request(struct rt_sweep_request *r, const struct cli *c,
			  const struct rt_model *m, const struct rt_sweep *sw, long batch,
			  const char *ppath)
{
	char cwd[4096];

	memset(r, 0, sizeof(*r));
	/* the children must find the same model file: its real path */
	if (!realpath(m->path, r->model))
		snprintf(r->model, sizeof(r->model), "%s", m->path);
	snprintf(r->data, sizeof(r->data), "%s", c->data);
	snprintf(r->counters, sizeof(r->counters), "%s", c->counters);
	snprintf(r->maxpool, sizeof(r->maxpool), "%s", rt_pool_impl_name(c->pool));
	snprintf(r->lr, sizeof(r->lr), "%.17g", c->lr);
	r->batch = batch;
	r->iterations = c->iters;
	r->warmup = c->warmup;
	r->repeat = c->repeat;
	r->seed = c->seed;
	r->per_layer = c->per_layer;
	for (size_t k = 0; k < sw->nknobs; k++)
		rt_sweep_knob_spec(sw, k, r->knobs[r->nknobs++], sizeof(r->knobs[0]));
	r->timeout = c->timeout;
	/* absolute: roofline-plot and --resume may run from another directory */
	if (ppath[0] != '/' && getcwd(cwd, sizeof(cwd)))
		snprintf(r->profile, sizeof(r->profile), "%.2000s/%.2000s", cwd, ppath);
	else
		snprintf(r->profile, sizeof(r->profile), "%s", ppath);
}

static int run_sweep(struct rt_sweep_mpi *h, const struct cli *c, const struct rt_topo *topo,
		     long batch, int argc, char **argv)
{
	const struct rt_model *m = h->m;
	const struct rt_cluster *cl = h->cl;
	struct rt_sweep sw = { 0 };
	struct rt_sweep_train_opts so = { 0 };
	struct rt_sweep_run_opts ro = { 0 };
	struct rt_sweep_request req;
	struct rt_err err = { 0 };
	char self[4096], dir[4096], ppath[4096], cmd[4096] = "";
	bool progress_on = c->verbose || isatty(STDERR_FILENO);
	ssize_t len;
	int rc = 1;

	for (size_t i = 0; i < c->nsweeps; i++)
		if (rt_sweep_add(&sw, c->sweeps[i], topo, batch, &err)) {
			rt_sweep_fini(&sw);
			return usage_error(&err);
		}
	if (rt_sweep_expand(&sw, (unsigned)omp_get_max_threads(), batch, &err))
		goto fail;
	/* every configuration is trained by all the ranks together: it carries their count */
	for (size_t i = 0; i < sw.nconfigs; i++) {
		sw.configs[i].ranks = (unsigned)cl->size;
		rt_sweep_config_name(&sw.configs[i]);
	}
	if (cl->rank != 0) {
		rc = rt_sweep_mpi_follow(h, &err);
		if (rc)
			fprintf(stderr, "%s: rank %d: %s\n", prog, cl->rank, err.msg);
		rt_sweep_fini(&sw);
		return rc ? 1 : 0;
	}
	if (!strcmp(c->counters, "auto")) {
		const struct rt_counter_backend *b = NULL;
		struct rt_err why = { 0 };
		void *cctx = NULL;

		/* said once here; every child falls back the same way */
		if (rt_counters_open("auto", &b, &cctx, &why, &err) == 0) {
			if (why.msg[0])
				fprintf(stderr, "%s: hardware counters: %s; counting the model's FLOPs "
					"and bytes\n", prog, why.msg);
			b->close(cctx);
		}
	}
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0) {
		rt_err_set(&err, -EIO, "cannot find my own executable");
		goto fail;
	}
	self[len] = '\0';
	if (c->profile)
		snprintf(ppath, sizeof(ppath), "%s", c->profile);
	else
		rt_profile_default_path(ppath, sizeof(ppath));
	for (int i = 0; i < argc; i++) {
		size_t l = strlen(cmd);

		snprintf(cmd + l, sizeof(cmd) - l, "%s%s", i ? " " : "", argv[i]);
	}
	build_request(&req, c, m, &sw, batch, ppath);
	ro.m = m;
	ro.topo = topo;
	ro.profile_given = c->profile != NULL;
	ro.profile_path = ppath;
	ro.outdir = c->outdir;
	ro.resume = c->resume;
	ro.say = say;
	so.self = self;
	so.req = &req;
	so.retry = !c->no_retry;
	so.cmdline = cmd;
	so.progress = sweep_progress;
	so.progress_ctx = &progress_on;
	so.ranks = (unsigned)cl->size;
	if (cl->active) {
		so.run = rt_sweep_mpi_run;
		so.run_ctx = h;
	}
	{
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_interrupt;
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
		rt_spawn_set_interrupt_flag((volatile int *)&interrupted);
	}
	if (rt_sweep_run(&sw, &ro, &so, stdout, dir, sizeof(dir), &err)) {
		if (err.code == -EINTR) {
			fprintf(stderr, "%s: %s\n", prog, err.msg);
			rc = 130;
			goto done;
		}
		goto fail;
	}
	printf("\nresults: %s (points.csv, summary.txt, run.cfg)\n", dir);
	rc = 0;
	goto done;
fail:
	fprintf(stderr, "%s: %s\n", prog, err.msg);
done:
	/* the followers wait for the next configuration: there is none */
	if (cl->active)
		rt_sweep_mpi_stop(h);
	rt_sweep_fini(&sw);
	return rc;
}

/* One configuration trained here, its report printed (rank 0). */
static int train_once(const struct cli *c, struct rt_model *m, const struct rt_net_opts *no,
		      struct rt_cluster *cl)
{
	const struct rt_counter_backend *backend = NULL;
	struct rt_train_opts to = { 0 };
	struct rt_train_result res = { 0 };
	struct progress_state ps = { .tty = isatty(STDERR_FILENO) };
	struct rt_err err = { 0 }, why = { 0 };
	void *cctx = NULL;
	int rc = 1;

	if (open_counters(c->counters, &backend, &cctx, &why))
		return 1;
	to.meter = &backend->meter;
	to.meter_ctx = cctx;
	ps.on = (ps.tty || c->verbose) && cl->rank == 0;
	to.iterations = c->iters;
	to.warmup = c->warmup;
	to.data = c->data;
	to.progress = on_progress;
	to.progress_ctx = &ps;
	to.comm = cl->active ? &cl->comm : NULL;
	to.digest = c->digest;
	if (rt_train_run(m, no, &to, &res, &err)) {
		if (ps.on && ps.tty)
			fputc('\n', stderr);
		if (cl->active) {
			/* the other ranks may wait on this one's gradients: stop the job */
			fprintf(stderr, "%s: rank %d of %d: %s; stopping every rank\n", prog, cl->rank,
				cl->size, err.msg);
			rt_cluster_abort(cl, 1);
		}
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		goto out;
	}
	if (c->digest) {
		/* every rank: data-parallel training keeps the weights identical on all of them */
		if (cl->active)
			printf("rank %d: ", cl->rank);
		printf("weights digest %016llx sum %.9g norm %.9g\n", (unsigned long long)res.digest,
		       res.weights_sum, res.weights_norm);
		fflush(stdout);
		rt_cluster_barrier(cl);
	}
	if (cl->rank == 0) {
		const struct rt_train_report_opts ro = {
			.prog = prog, .threads = omp_get_max_threads(), .iterations = c->iters,
			.warmup = c->warmup, .ranks = cl->size, .nodes = cl->nodes, .pool = c->pool,
			.counted = backend != NULL, .why = &why, .per_layer = c->per_layer,
		};

		rt_train_report(stdout, m, no, &res, &ro);
	}
	rc = 0;
out:
	if (backend)
		backend->close(cctx);
	rt_train_result_fini(&res);
	return rc;
}

int main(int argc, char **argv)
{
	struct cli c = { .model = "convnet", .data = "synthetic", .counters = "auto", .iters = 20,
			 .warmup = 3, .seed = 1, .repeat = 3, .lr = 0.01, .timeout = 600,
			 .prec = RT_PRECISION_FP32, .pool = RT_POOL_AUTO };
	struct rt_model *m = NULL;
	struct rt_topo *topo = NULL;
	struct rt_net_opts no;
	struct rt_err err = { 0 };
	struct rt_cluster cl;
	int rc = 1;

	/* under mpirun: MPI, ranks and nodes; otherwise one process */
	if (rt_cluster_init(&cl, &argc, &argv, &err)) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return 1;
	}
	if (rt_topo_create(&topo, NULL, &err)) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		rt_cluster_finalize(&cl);
		return 1;
	}
	rc = parse_args(&c, argc, argv, topo);
	if (rc) {
		rc = rc < 0 ? 0 : rc;   /* --help, --version */
		goto out;
	}
	rc = 1;
	if (c.resume && take_record(&c))
		goto out;
	if (rt_model_open(&m, c.model, &err)) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		goto out;
	}
	/* all cores by default (under mpirun: this node's cores shared among its ranks); the
	 * OpenMP runtime (and oneDNN on it) uses this many threads */
	if (!c.threads)
		c.threads = cl.node_size > 1 ? (long)rt_topo_cores(topo) / cl.node_size : 0;
	omp_set_num_threads((int)(c.threads > 0 ? c.threads : (long)rt_topo_cores(topo)));
	rt_model_set_precision(m, c.prec);
	rt_net_opts_default(&no, m);
	no.precision = c.prec;
	if (c.batch)
		no.batch = c.batch;
	no.seed = (uint64_t)c.seed;
	no.lr = c.lr;
	no.maxpool = c.pool;
	if (c.nsweeps || c.resume) {
		struct rt_sweep_mpi h = {
			.m = m, .no = no, .cl = &cl, .topo = topo, .warn = mpi_warn,
			.measure = { .data = c.data, .counters = c.counters, .iterations = c.iters,
				     .warmup = c.warmup, .repeat = c.repeat, .per_layer = c.per_layer },
		};

		rc = run_sweep(&h, &c, topo, c.batch ? c.batch : m->batch, argc, argv);
	} else if (c.emit) {
		/* the child side of a sweep: the configuration's points on stdout */
		const struct rt_sweep_measure mo = { .data = c.data, .counters = c.counters,
						     .iterations = c.iters, .warmup = c.warmup,
						     .repeat = c.repeat, .per_layer = c.per_layer };

		rc = rt_sweep_child_measure(stdout, m, &no, &mo, &err);
		if (rc)
			fprintf(stderr, "%s: %s\n", prog, err.msg);
		rc = rc ? 1 : 0;
	} else if (c.describe) {
		rc = rt_train_describe(stdout, m, &no, &err);
		if (rc)
			fprintf(stderr, "%s: %s\n", prog, err.msg);
		rc = rc ? 1 : 0;
	} else {
		rc = train_once(&c, m, &no, &cl);
	}
out:
	rt_model_destroy(m);
	rt_topo_destroy(topo);
	rt_cluster_finalize(&cl);
	return rc;
}
