/* roofline-train: train one configuration of a CNN built from oneDNN primitives and report
 * images/s, time per phase, loss, accuracy, exact model counts and the memory split */
#include "config.h"
#include "cluster.h"
#include "counters.h"
#include "data.h"
#include "err.h"
#include "model.h"
#include "net.h"
#include "options.h"
#include "probe.h"
#include "profile.h"
#include "sweep.h"
#include "sweep-train.h"
#include "topo.h"
#include "train.h"
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

static void mib(char *buf, size_t size, double bytes)
{
	snprintf(buf, size, "%.2f MiB", bytes / (1 << 20));
}

static void print_memory(const char *title, const struct rt_net_memory *mm, long rss)
{
	char a[6][32], t[32];

	mib(a[0], 32, (double)mm->weights);
	mib(a[1], 32, (double)mm->weight_grads);
	mib(a[2], 32, (double)mm->optimizer);
	mib(a[3], 32, (double)mm->activations);
	mib(a[4], 32, (double)mm->activation_grads);
	mib(a[5], 32, (double)mm->workspace);
	mib(t, 32, (double)mm->total);
	printf("%s\n  weights %s, weight gradients %s, optimizer state %s,\n"
	       "  activations kept for backward %s, activation gradients %s, workspace %s;\n"
	       "  total %s allocated; process peak RSS %.2f MiB\n", title, a[0], a[1], a[2], a[3],
	       a[4], a[5], t, (double)rss / 1024);
}

static int describe(const struct rt_model *m, const struct rt_net_opts *no, struct rt_err *err)
{
	struct rt_layer_work *work;
	struct rt_net *net = NULL;
	struct rt_model_totals t;
	struct rt_net_memory mm;
	int rc;

	rt_model_totals(m, no->batch, &t);
	printf("%s (%s): input %ldx%ldx%ld, %ld classes, batch %ld, %s\n\n", m->name, m->path,
	       m->input.c, m->input.h, m->input.w, m->classes, no->batch,
	       rt_precision_name(no->precision));
	printf("%3s %-24s %-12s %-16s %11s %13s %13s %12s %12s  %s\n", "#", "layer", "type",
	       "output", "params", "fwd FLOP/img", "bwd FLOP/img", "act KiB", "alloc KiB",
	       "runs as");
	work = calloc(m->nlayers, sizeof(*work));
	if (!work)
		return rt_err_set(err, -ENOMEM, "out of memory");
	rt_model_layer_work(m, no->batch, NULL, NULL, work);
	if ((rc = rt_net_create(&net, m, no, err))) {
		free(work);
		return rc;
	}
	for (size_t i = 0; i < m->nlayers; i++) {
		const struct rt_layer_desc *L = &m->layers[i];
		char shape[48];

		rt_net_layer_memory(net, i, &mm);
		snprintf(shape, sizeof(shape), "%ldx%ldx%ld", L->out.c, L->out.h, L->out.w);
		printf("%3zu %-24.24s %-12s %-16s %11ld %13.0f %13.0f %12.1f %12.1f  %s%s\n", i + 1,
		       L->name, rt_layer_type_name(L->type), shape, L->n.params, L->n.fwd_flops,
		       L->n.bwd_data_flops + L->n.bwd_weights_flops,
		       (no->precision == RT_PRECISION_BF16 ? 2.0 : 4.0) * (double)L->n.kept_elems *
		       (double)no->batch / 1024,
		       (double)mm.total / 1024, work[i].fused ? "fused: " : "",
		       work[i].fused ? work[i].where : work[i].name);
	}
	free(work);
	printf("\ntotals per iteration (batch %ld): %ld parameters; forward %.4g GFLOP, backward "
	       "%.4g GFLOP, update %.4g GFLOP;\n  compulsory bytes: forward %.4g MB, backward "
	       "%.4g MB, update %.4g MB\n", no->batch, t.params, t.fwd_flops / 1e9,
	       t.bwd_flops / 1e9, t.update_flops / 1e9, t.fwd_bytes / 1e6, t.bwd_bytes / 1e6,
	       t.update_bytes / 1e6);
	rt_net_memory(net, &mm);
	print_memory("\nmemory (as allocated, oneDNN layouts included)", &mm, rt_peak_rss_kib());
	rt_net_destroy(net);
	return 0;
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

/* --emit-points: the child side of a sweep. Runs `repeat` measurements and prints the
 * median, min and max of each scope as rt-point lines. */
static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void emit_stats(FILE *out, const char *scope, const char *name, double *v, long r,
		       double flops, double bytes, const char *source)
{
	qsort(v, (size_t)r, sizeof(*v), cmp_d);
	rt_sweep_emit_point(out, scope, name, "median",
			    r % 2 ? v[r / 2] : 0.5 * (v[r / 2 - 1] + v[r / 2]), flops, bytes, source);
	rt_sweep_emit_point(out, scope, name, "min", v[0], flops, bytes, source);
	rt_sweep_emit_point(out, scope, name, "max", v[r - 1], flops, bytes, source);
}

/* The measurements of one configuration as rt-point lines on out. Under MPI every rank runs
 * it (comm set) and the counts are the whole job's: every rank's shard, its own weights. */
static int emit_points(FILE *out, const struct rt_model *m, const struct rt_net_opts *no,
		       const char *data, const char *counters, long iters, long warmup,
		       long repeat, bool per_layer, const struct rt_comm *comm,
		       struct rt_err *failure)
{
	static const enum rt_phase phases[] = { RT_PHASE_FORWARD, RT_PHASE_BACKWARD,
						RT_PHASE_COMM, RT_PHASE_UPDATE };
	static const char *const phase_names[] = { "forward", "backward", "comm", "update" };
	const int np = 4, first_layer = 1 + np;
	const struct rt_counter_backend *backend = NULL;
	struct rt_train_opts to = { .iterations = iters, .warmup = warmup, .data = data,
				    .comm = comm };
	struct rt_model_totals t;
	struct rt_err err, why;
	double *sec = calloc((size_t)repeat * ((size_t)first_layer + m->nlayers), sizeof(double));
	struct rt_layer_work *work = calloc(m->nlayers, sizeof(*work));
	const double ranks = comm ? comm->size : 1;
	double flops = 0, bytes = 0, pf[4], pb[4];
	const char *src = "model";
	void *cctx = NULL;
	int rc = 1;

	if (!sec || !work) {
		free(sec);
		free(work);
		return 1;
	}
	rt_model_totals(m, no->batch, &t);
	pf[0] = t.fwd_flops * ranks;
	pb[0] = t.fwd_bytes * ranks;
	pf[1] = t.bwd_flops * ranks;
	pb[1] = t.bwd_bytes * ranks;
	pf[2] = pb[2] = 0;              /* the gradient sums: no FLOPs or memory bytes counted */
	pf[3] = t.update_flops * ranks;
	pb[3] = t.update_bytes * ranks;
	if (open_counters(counters, &backend, &cctx, &why))
		goto out;
	to.counters = backend;
	to.counters_ctx = cctx;
	for (long r = 0; r < repeat; r++) {
		struct rt_train_result res;

		if (rt_train_run(m, no, &to, &res, &err)) {
			if (comm && comm->size > 1)
				fprintf(stderr, "%s: rank %d: %s\n", prog, comm->rank, err.msg);
			else
				fprintf(stderr, "%s: %s\n", prog, err.msg);
			if (failure)
				*failure = err;
			goto out;
		}
		sec[r] = res.iter_seconds;
		for (int p = 0; p < np; p++)
			sec[(size_t)(p + 1) * (size_t)repeat + (size_t)r] = res.phase_seconds[phases[p]];
		/* each layer's time where its primitives run: a fused relu's in its host's */
		rt_model_layer_work(m, no->batch, res.layer_fwd, res.layer_bwd, work);
		for (size_t l = 0; l < m->nlayers; l++)
			sec[((size_t)first_layer + l) * (size_t)repeat + (size_t)r] =
				work[l].fwd_seconds + work[l].bwd_seconds;
		if (r == 0) {
			if (backend && res.counts.flops_source != RT_SOURCE_NONE) {
				flops = res.counts.flops / (double)iters;
				src = rt_source_name(res.counts.flops_source);
			} else {
				flops = pf[0] + pf[1] + pf[3];
			}
			bytes = backend && res.counts.bytes_source != RT_SOURCE_NONE ?
				res.counts.bytes / (double)iters : pb[0] + pb[1] + pb[3];
			rt_sweep_emit_impl(out, res.impl);
			rt_sweep_emit_memory(out, (double)res.mem.weights,
					     (double)res.mem.activations,
					     (double)(res.mem.weight_grads + res.mem.activation_grads),
					     (double)res.mem.optimizer, (double)res.mem.workspace,
					     (double)res.peak_rss_kib * 1024);
		}
		rt_train_result_fini(&res);
	}
	if (strcmp(src, "model")) {
		double copy[100];

		/* both recorded: the hardware's counts, then the model's */
		memcpy(copy, sec, (size_t)repeat * sizeof(double));
		emit_stats(out, "iteration", "iteration", copy, repeat, flops, bytes, src);
	}
	emit_stats(out, "iteration", "iteration", sec, repeat, pf[0] + pf[1] + pf[3],
		   pb[0] + pb[1] + pb[3], "model");
	for (int p = 0; p < np; p++)
		if (phases[p] != RT_PHASE_COMM || ranks > 1)
			emit_stats(out, "phase", phase_names[p], sec + (size_t)(p + 1) * (size_t)repeat,
				   repeat, pf[p], pb[p], "model");
	for (size_t l = 0; per_layer && l < m->nlayers; l++) {
		const struct rt_layer_work *w = &work[l];

		if (w->fused)
			rt_sweep_emit_fused(out, m->layers[l].name, w->where);
		else
			emit_stats(out, "layer", w->name, sec + ((size_t)first_layer + l) *
				   (size_t)repeat, repeat, (w->fwd_flops + w->bwd_flops) * ranks,
				   (w->fwd_bytes + w->bwd_bytes) * ranks, "model");
	}
	rc = fflush(out) ? 1 : 0;
out:
	if (backend)
		backend->close(cctx);
	free(sec);
	free(work);
	return rc;
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

/* Under MPI a sweep runs each configuration in this process on every rank: rank 0 drives
 * (rt_sweep_train with run_here) and broadcasts each configuration; the others follow. */
struct here {
	struct rt_model *m;
	struct rt_net_opts no;
	const char *data, *counters;
	long iters, warmup, repeat;
	bool per_layer;
	struct rt_cluster *cl;
	const struct rt_topo *topo;
};

struct order {
	int stop;                       /* 1: the sweep is over */
	unsigned threads;
	long batch;
	int precision;
	int affinity;
};

/* The placement of a configuration in process (there is no child to give OMP_PLACES): this
 * rank's threads pinned to its share of the node's placement for all its ranks' threads
 * (compact, scatter), or back to the CPU set mpirun gave the rank (none). */
static int place_threads(const struct here *h, const struct order *o, struct rt_err *err)
{
	const unsigned all = o->threads * (unsigned)h->cl->node_size;
	int *pus;
	int rc;

	if (o->affinity == RT_AFFINITY_NONE)
		return rt_topo_pin_team(NULL, o->threads, err);
	if (all > rt_topo_pus(h->topo))
		return rt_err_set(err, -EINVAL, "%u ranks x %u threads: more than the node's %u "
				  "processing units", h->cl->node_size, o->threads,
				  rt_topo_pus(h->topo));
	pus = calloc(all, sizeof(*pus));
	if (!pus)
		return rt_err_set(err, -ENOMEM, "out of memory");
	rc = rt_topo_placement(h->topo, (enum rt_affinity)o->affinity, all, pus, err);
	if (!rc)
		rc = rt_topo_pin_team(pus + (size_t)h->cl->node_rank * o->threads, o->threads, err);
	free(pus);
	return rc;
}

static int run_order(struct here *h, const struct order *o, FILE *out, struct rt_err *failure)
{
	struct rt_net_opts no = h->no;
	struct rt_err err;

	omp_set_num_threads((int)o->threads);
	/* every rank must take part in the training: a placement that fails is a warning */
	if (place_threads(h, o, &err))
		fprintf(stderr, "%s: rank %d: warning: %s (measured without that placement)\n", prog,
			h->cl->rank, err.msg);
	rt_model_set_precision(h->m, (enum rt_precision)o->precision);
	no.batch = o->batch;
	no.precision = (enum rt_precision)o->precision;
	return emit_points(out, h->m, &no, h->data, h->counters, h->iters, h->warmup, h->repeat,
			   h->per_layer, h->cl->active ? &h->cl->comm : NULL, failure);
}

static int run_here(void *ctx, const struct rt_sweep_config *c, struct rt_child *ch,
		    struct rt_err *err)
{
	struct here *h = ctx;
	struct order o = { 0, c->threads, c->batch, c->precision, c->affinity };
	struct rt_err failure = { 0 };
	double t0 = rt_now();
	FILE *out;
	int rc;

	memset(ch, 0, sizeof(*ch));
	out = open_memstream(&ch->out, &ch->outlen);
	if (!out)
		return rt_err_set(err, -ENOMEM, "out of memory");
	rt_cluster_bcast(h->cl, &o, sizeof(o));
	rc = run_order(h, &o, out, &failure);
	fclose(out);
	ch->seconds = rt_now() - t0;
	ch->ok = rc == 0 && !interrupted;
	snprintf(ch->reason, sizeof(ch->reason), "%.255s", interrupted ? "interrupted" :
		 failure.msg[0] ? failure.msg : rc ? "training failed (see stderr)" : "");
	return 0;
}

/* Ranks other than 0 during a sweep: run what rank 0 broadcasts until it says stop. */
static int follow(struct here *h)
{
	for (;;) {
		struct order o;
		FILE *out;

		rt_cluster_bcast(h->cl, &o, sizeof(o));
		if (o.stop)
			return 0;
		out = fopen("/dev/null", "w");
		if (!out)
			rt_cluster_abort(h->cl, 1);
		run_order(h, &o, out, NULL);
		fclose(out);
	}
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

/* Everything a sweep needs that can be wrong, checked before anything is measured: the data
 * (opened once), the profile (read, or its destination writable for the quick probe). */
static int preflight(const struct cli *c, const struct rt_model *m, const char *ppath,
		     bool *need_probe, struct rt_profile **prof, struct rt_err *err)
{
	struct rt_data *d = NULL;
	int rc;

	if ((rc = rt_data_open(&d, c->data, m, (uint64_t)c->seed, err)))
		return rc;
	rt_data_destroy(d);
	*need_probe = false;
	if ((rc = rt_check_regular(ppath, err)))
		return rc;
	if (c->profile || access(ppath, F_OK) == 0)
		return rt_profile_load(prof, ppath, err);
	{
		/* the quick probe will write it: fail on an unwritable place now */
		struct rt_outfile probe_file;

		if ((rc = rt_outfile_open(&probe_file, ppath, err)))
			return rc;
		rt_outfile_abort(&probe_file);
	}
	*need_probe = true;
	return 0;
}

static int run_sweep(struct here *h, const struct cli *c, const struct rt_topo *topo, long batch,
		     int argc, char **argv)
{
	const struct rt_model *m = h->m;
	const struct rt_cluster *cl = h->cl;
	struct rt_sweep sw = { 0 };
	struct rt_sweep_train_opts so = { 0 };
	struct rt_sweep_request req;
	struct rt_profile *prof = NULL;
	struct rt_err err = { 0 };
	char self[4096], dir[4096], final_dir[4096] = "", ppath[4096], cmd[4096] = "";
	char note[1024];
	bool progress_on = c->verbose || isatty(STDERR_FILENO), need_probe = false;
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
		rc = follow(h);
		rt_sweep_fini(&sw);
		return rc;
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
	if (c->resume) {
		snprintf(dir, sizeof(dir), "%s", c->resume);
	} else if (c->outdir) {
		snprintf(dir, sizeof(dir), "%s", c->outdir);
	} else {
		char ts[32];

		rt_timestamp(ts, sizeof(ts));
		snprintf(final_dir, sizeof(final_dir), "results/%s-%s", m->name, ts);
		snprintf(dir, sizeof(dir), "%s.partial", final_dir);
	}
	for (int i = 0; i < argc; i++) {
		size_t l = strlen(cmd);

		snprintf(cmd + l, sizeof(cmd) - l, "%s%s", i ? " " : "", argv[i]);
	}
	build_request(&req, c, m, &sw, batch, ppath);
	so.self = self;
	so.req = &req;
	so.retry = !c->no_retry;
	so.outdir = dir;
	so.resume = c->resume != NULL;
	so.cmdline = cmd;
	so.progress = sweep_progress;
	so.progress_ctx = &progress_on;
	so.ranks = (unsigned)cl->size;
	if (cl->active) {
		so.run = run_here;
		so.run_ctx = h;
	}
	/* nothing is measured before every input and destination is known good */
	if (preflight(c, m, ppath, &need_probe, &prof, &err) ||
	    rt_sweep_train_prepare(&sw, &so, note, sizeof(note), &err))
		goto fail;
	if (note[0])
		fprintf(stderr, "%s: %s\n", prog, note);
	if (need_probe) {
		struct rt_probe_opts po = { .quick = true };

		fprintf(stderr, "%s: no profile for this host: running roofline-probe --quick into "
			"%s\n", prog, ppath);
		if (rt_probe_run(&prof, topo, &po, &err) || rt_profile_save(prof, ppath, &err))
			goto fail;
	}
	so.prof = prof;
	{
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_interrupt;
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
		rt_spawn_set_interrupt_flag((volatile int *)&interrupted);
	}
	if (rt_sweep_train(&sw, &so, stdout, &err)) {
		if (err.code == -EINTR) {
			fprintf(stderr, "%s: %s\n", prog, err.msg);
			rc = 130;
			goto done;
		}
		goto fail;
	}
	if (final_dir[0] && rename(dir, final_dir)) {
		rt_err_set(&err, -errno, "%s: cannot rename to '%s': %s", dir, final_dir,
			   strerror(errno));
		goto fail;
	}
	printf("\nresults: %s (points.csv, summary.txt, run.cfg)\n", final_dir[0] ? final_dir : dir);
	rc = 0;
	goto done;
fail:
	fprintf(stderr, "%s: %s\n", prog, err.msg);
done:
	if (cl->active) {
		/* the followers wait for the next configuration: there is none */
		struct order stop = { .stop = 1 };

		rt_cluster_bcast(cl, &stop, sizeof(stop));
	}
	rt_profile_destroy(prof);
	rt_sweep_fini(&sw);
	return rc;
}

/* The report of one training run. */
static void print_run(const struct cli *c, const struct rt_model *m, const struct rt_net_opts *no,
		      const struct rt_cluster *cl, const struct rt_train_result *res, bool counted,
		      const struct rt_err *why)
{
	struct rt_model_totals t;
	double it = res->iter_seconds, flops;
	const double ranks = cl->size;

	rt_model_totals(m, no->batch, &t);
	t.fwd_flops *= ranks;
	t.bwd_flops *= ranks;
	t.update_flops *= ranks;
	flops = t.fwd_flops + t.bwd_flops + t.update_flops;
	printf("%s: %s, batch %ld, %d threads, %s, %s\n", prog, m->name, no->batch,
	       omp_get_max_threads(), rt_precision_name(no->precision), res->data_desc);
	if (cl->active)
		printf("  %d ranks on %d node%s, each its shard of a global batch of %ld; "
		       "gradients summed with MPI_Iallreduce during backward\n", cl->size,
		       cl->nodes, cl->nodes > 1 ? "s" : "", no->batch * cl->size);
	printf("  precision %s", rt_precision_name(no->precision));
	if (no->precision == RT_PRECISION_BF16) {
		char label[64] = "";
		struct rt_err e2;

		rt_net_bf16_support(label, sizeof(label), &e2);
		printf(" on %s", label);
	}
	printf("; heaviest layer runs oneDNN's %s\n", res->impl);
	if (res->maxpool[0])
		printf("  max pooling (--maxpool-impl %s): %s\n", rt_pool_impl_name(c->pool),
		       res->maxpool);
	printf("  images/s %.1f   (median iteration %.3f ms over %ld iterations after %ld "
	       "warm-up)\n", res->images_per_s, it * 1e3, c->iters, c->warmup);
	printf("  %-10s %10s %7s\n", "phase", "ms/iter", "share");
	for (int p = 0; p < RT_PHASE_COUNT; p++)
		if (p != RT_PHASE_COMM || cl->size > 1)
			printf("  %-10s %10.3f %6.1f%%\n", rt_phase_name((enum rt_phase)p),
			       res->phase_seconds[p] * 1e3,
			       it > 0 ? 100 * res->phase_seconds[p] / it : 0);
	printf("  time inside oneDNN primitives %.1f%% of the iteration, outside %.1f%%\n",
	       100 * res->primitive_share, 100 * (1 - res->primitive_share));
	printf("  loss %.4f -> %.4f, accuracy %.3f -> %.3f (first -> last iteration)\n",
	       res->losses[0], res->losses[res->nlosses - 1], res->accuracies[0],
	       res->accuracies[res->nlosses - 1]);
	printf("  model counts per iteration: %.4g GFLOP (forward %.4g, backward %.4g, update "
	       "%.4g): %.1f GFLOP/s\n", flops / 1e9, t.fwd_flops / 1e9, t.bwd_flops / 1e9,
	       t.update_flops / 1e9, it > 0 ? flops / it / 1e9 : 0);
	if (counted) {
		const struct rt_counts *cnt = &res->counts;

		printf("  counted over %ld iterations through PAPI: %.4g GFLOP (%s), %.4g GB (%s)"
		       "; %.1f GFLOP/s, intensity %.2f FLOP/byte\n", c->iters, cnt->flops / 1e9,
		       rt_source_name(cnt->flops_source), cnt->bytes / 1e9,
		       rt_source_name(cnt->bytes_source),
		       it > 0 ? cnt->flops / ((double)c->iters * it) / 1e9 : 0,
		       cnt->bytes > 0 ? cnt->flops / cnt->bytes : 0);
		printf("  counting took %.1f us, %.4f%% of the timed iterations\n",
		       res->counting_seconds * 1e6,
		       100 * res->counting_seconds / ((double)c->iters * it));
		if (why->msg[0])
			printf("  (hardware counters: %s; using the model counts)\n", why->msg);
	}
	print_memory("  memory:", &res->mem, res->peak_rss_kib);
	if (c->per_layer) {
		struct rt_layer_work *w = calloc(m->nlayers, sizeof(*w));

		if (!w)
			return;
		/* where the primitives run it: a fused relu's work is its host's */
		rt_model_layer_work(m, no->batch, res->layer_fwd, res->layer_bwd, w);
		printf("\n  %3s %-24s %-12s %10s %10s %10s %10s\n", "#", "layer", "type",
		       "fwd ms", "fwd GF/s", "bwd ms", "bwd GF/s");
		for (size_t i = 0; i < m->nlayers; i++) {
			if (w[i].fused) {
				printf("  %3zu %-24.24s %-12s fused: %s\n", i + 1, m->layers[i].name,
				       rt_layer_type_name(m->layers[i].type), w[i].where);
				continue;
			}
			printf("  %3zu %-24.24s %-12s %10.3f %10.1f %10.3f %10.1f\n", i + 1,
			       w[i].name, rt_layer_type_name(m->layers[i].type),
			       w[i].fwd_seconds * 1e3, w[i].fwd_seconds > 0 ?
			       w[i].fwd_flops / w[i].fwd_seconds / 1e9 : 0, w[i].bwd_seconds * 1e3,
			       w[i].bwd_seconds > 0 ? w[i].bwd_flops / w[i].bwd_seconds / 1e9 : 0);
		}
		free(w);
	}
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
	to.counters = backend;
	to.counters_ctx = cctx;
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
	if (cl->rank == 0)
		print_run(c, m, no, cl, &res, backend != NULL, &why);
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
		struct here h = { m, no, c.data, c.counters, c.iters, c.warmup, c.repeat,
				  c.per_layer, &cl, topo };

		rc = run_sweep(&h, &c, topo, c.batch ? c.batch : m->batch, argc, argv);
	} else if (c.emit) {
		rc = emit_points(stdout, m, &no, c.data, c.counters, c.iters, c.warmup, c.repeat,
				 c.per_layer, NULL, NULL);
	} else if (c.describe) {
		rc = describe(m, &no, &err);
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
