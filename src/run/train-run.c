/* train-run.c: roofline-train's work as library calls (the tool parses options and prints) */
#include "config.h"
#include "run/train-run.h"
#include "counters/counters.h"
#include "base/cli.h"
#include "base/options.h"
#include "node/profile.h"
#include "run/sweep-child.h"
#include "run/sweep-train.h"
#include "cnn/train.h"
#include "run/train-print.h"
#include "base/util.h"
#include "base/vocab.h"
#include "machine/dnnl.h"

#include <errno.h>
#include <limits.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void rt_train_settings_default(struct rt_train_settings *s)
{
	*s = (struct rt_train_settings){
		.model = "convnet", .data = "synthetic", .counters = "auto", .iters = 20,
		.warmup = 3, .seed = 1, .repeat = RT_CLI_REPEAT_DEFAULT, .lr = 0.01,
		.timeout = RT_CLI_TIMEOUT_DEFAULT, .prec = RT_PRECISION_FP32, .pool = RT_POOL_AUTO,
	};
}

enum { OPT_INPUT = 256, OPT_AFFINITY, OPT_PRECISION, OPT_LR, OPT_MAXPOOL, OPT_DIGEST,
       OPT_MPIRUN, OPT_RESUME, OPT_NO_RETRY, OPT_TIMEOUT, OPT_EMIT_POINTS };

static const char *const synopsis[] = { "[OPTION]...", NULL };

/* roofline-train's options: what each sets is rt_train_settings_set's switch, below */
static const struct rt_cli_opt opts[] = {
	{ 'm', "model", 'm', RT_CLI_WORD, "NAME|FILE", .def = "convnet",
	  .help = "model: lenet5, convnet, alexnet, vgg16, resnet18, or a model file, as "
		  "cnn/README describes" },
	{ 'b', "batch", 'b', RT_CLI_INT, "N", 1, 65536, .def = "the model's",
	  .help = "images per iteration" },
	{ OPT_INPUT, "input", 0, RT_CLI_WORD, "HxW", .def = "the model's",
	  .help = "the input's height and width (one number: a square), 1..16384 each; every "
		  "shape follows, the fully connected layers take the new flattened size" },
	{ 't', "threads", 't', RT_CLI_LIST, "LIST", 1, 0, .max_pus = true, .def = "all cores",
	  .help = "OpenMP threads, a list of one (PUs: the node's processing units; a sweep "
		  "runs several: --sweep threads=LIST)" },
	{ OPT_AFFINITY, "affinity", 0, RT_CLI_WORD, "A", .def = "the runtime's placement",
	  .help = "pin the threads: compact, scatter, or none; under mpirun each rank to its "
		  "share of the node" },
	{ 'n', "iterations", 'n', RT_CLI_INT, "N", 1, 1000000, .def = "20",
	  .help = "timed iterations" },
	{ 'w', "warmup", 'w', RT_CLI_INT, "N", 0, 1000000, .def = "3",
	  .help = "untimed iterations first" },
	{ 'd', "data", 'd', RT_CLI_WORD, "SPEC", .def = "synthetic",
	  .help = "synthetic, mnist:DIR or cifar10:DIR" },
	{ 's', "seed", 's', RT_CLI_INT, "N", 0, 2147483647, .def = "1",
	  .help = "seed of the weights, the synthetic data and dropout" },
	{ OPT_PRECISION, "precision", 0, RT_CLI_WORD, "P", .def = "fp32",
	  .help = "fp32 or bf16: bf16 activations, weights and gradients in the primitives (AMX "
		  "or AVX512-BF16 where the CPU has them, oneDNN's emulation on other AVX-512 "
		  "CPUs), fp32 master weights, weight gradients, optimizer state and loss" },
	{ OPT_LR, "lr", 0, RT_CLI_REAL, "X", 0, 10, .def = "0.01", .help = "SGD learning rate" },
	{ OPT_MAXPOOL, "maxpool-impl", 0, RT_CLI_WORD, "I", .def = "auto",
	  .help = "max pooling whose window equals its stride: onednn (oneDNN's training "
		  "pooling), split (inference pooling forward; backward by a reorder, binary "
		  "compares and a reorder: the same bits), or auto (the faster, timed when the "
		  "net is built)" },
	{ 'c', "counters", 'c', RT_CLI_WORD, "WHICH", .def = "auto",
	  .help = "count FLOPs and bytes through PAPI: auto (hardware events where the CPU has "
		  "them, else the trainer's exact model counts), hw, model, or none" },
	{ 'l', "per-layer", 'l', RT_CLI_FLAG, NULL,
	  .help = "also print each layer's forward and backward time and GFLOP/s" },
	{ OPT_DIGEST, "digest", 0, RT_CLI_FLAG, NULL,
	  .help = "print a digest of the final weights (hash, sum, norm; every rank under "
		  "mpirun): equal runs have equal digests (one run: no --sweep, --out or "
		  "--resume)" },
	{ .help = "\nSweeps (each configuration in a fresh child process, results in a "
		  "directory):\n" },
	{ 'S', "sweep", 'S', RT_CLI_WORD, "KNOB[=LIST]",
	  .help = "sweep threads, batch, affinity (compact, scatter, none), precision (fp32, "
		  "bf16) or input (input=32,64,128 or HxW sizes: the memory chart then runs over "
		  "the input's pixel area) or ranks (ranks=1,2: rooftraj launches mpirun with "
		  "that many ranks, each with the node's cores / ranks threads and its share of "
		  "the global batch); repeat for a grid. Lists when none is given: threads 1, "
		  "powers of two, all cores; batch the model's /4, /2, x1, x2; affinity all "
		  "three; precision both. The default configuration, the run the other options "
		  "describe (all cores, the runtime's placement, the model's batch, fp32 unless "
		  "--threads, --affinity, --batch or --precision say otherwise), is always "
		  "measured as the reference, and the knobs not swept keep its values" },
	{ 'r', "repeat", 'r', RT_CLI_INT, "N", 1, RT_CLI_REPEAT_MAX, .def = "3",
	  .help = "fresh processes per configuration, each a measurement" },
	{ OPT_MPIRUN, "mpirun", 0, RT_CLI_WORD, "CMD",
	  .def = "$ROOFTRAJ_MPIRUN, else mpirun --bind-to none",
	  .help = "the MPI launcher of --sweep ranks, words split on blanks" },
	{ 'o', "out", 'o', RT_CLI_PATH, "DIR",
	  .def = "results/MODEL-TIMESTAMP, named when the sweep completes",
	  .help = "results directory; one that holds a sweep must hold the same request "
		  "(configurations not measured yet are added); without --sweep, the one "
		  "configuration is run as a sweep of one and written there" },
	{ OPT_RESUME, "resume", 0, RT_CLI_PATH, "DIR",
	  .help = "continue an interrupted sweep in DIR: its request (model, data, knobs, ...) "
		  "comes from DIR/run.cfg; options given must agree" },
	{ OPT_NO_RETRY, "no-retry", 0, RT_CLI_FLAG, NULL,
	  .help = "with --resume or --out: keep the failed configurations of the earlier run "
		  "(they are measured again otherwise)" },
	{ OPT_TIMEOUT, "timeout", 0, RT_CLI_REAL, "SECONDS", 0, RT_CLI_TIMEOUT_MAX,
	  .def = "3600",
	  .help = "seconds a configuration's process may take, every process of it killed "
		  "then; 0: no limit" },
	{ 'p', "profile", 'p', RT_CLI_PATH, "FILE",
	  .def = "machine-profiles/HOST.cfg; a quick probe writes it if missing",
	  .help = "machine profile for the ceilings of a sweep" },
	{ .help = "\n" },
	{ 'D', "describe", 'D', RT_CLI_FLAG, NULL,
	  .help = "print the per-layer table (shapes, parameters, FLOPs, memory for the batch) "
		  "and exit without training (no --sweep, --out or --resume with it)" },
	{ 'v', "verbose", 'v', RT_CLI_FLAG, NULL,
	  .help = "progress on stderr even when it is not a terminal" },
	/* a sweep's child: the configuration's record in, its points on stdout */
	{ OPT_EMIT_POINTS, "emit-points", 0, RT_CLI_PATH, "FILE", .hidden = true,
	  .help = "measure the configuration FILE records and print its points.csv rows" },
	{ 0 },
};

/* -p was the precision: -p, --profile FILE is the machine profile in every tool */
static const struct rt_cli_moved moved[] = {
	{ 'p', NULL, true, "fp32|bf16|fp16", "-p is now --profile FILE; the precision is "
	  "--precision %s" },
	{ 0 },
};

const struct rt_cli rt_train_cli = {
	.prog = "roofline-train", .synopsis = synopsis, .opts = opts, .moved = moved,
	.version_more = rt_dnnl_print_version,
	.about =
"Train one configuration of a CNN made of oneDNN primitives (forward, backward data and\n"
"weights, SGD with momentum and weight decay) and report images/s, the time of each phase\n"
"(data, forward, loss, backward, comm under mpirun, update), loss and accuracy, the exact\n"
"analytic FLOP counts and the memory split (weights, gradients, optimizer state,\n"
"activations, workspace). Under mpirun: data-parallel training over the ranks.\n",
	.after =
"\n"
"Examples:\n"
"  roofline-train                              convnet on synthetic data, a few seconds\n"
"  roofline-train -m lenet5 -b 128 -t 1        LeNet-5, batch 128, one thread\n"
"  roofline-train -m resnet18 -b 4 -n 3 -w 1   three steps of ResNet-18 at 224x224\n"
"  roofline-train -m vgg16 -b 8 --describe     VGG-16's layers and its memory at batch 8\n",
};

/* A precision the trainer trains in (fp32, bf16) from word w into *p; -EINVAL naming what
 * (the option, or run.cfg's member) when it is not one. */
static int precision_word(enum rt_precision *p, const char *w, const char *what,
			  struct rt_err *err)
{
	return rt_precision_parse(w, p) || !rt_precision_trains(*p) ?
	       rt_err_set(err, -EINVAL, "%s: '%s' is not fp32 or bf16", what, w) : 0;
}

/* An affinity from word w into *a, as precision_word. */
static int affinity_word(enum rt_affinity *a, const char *w, const char *what,
			 struct rt_err *err)
{
	return rt_affinity_parse(a, w) ?
	       rt_err_set(err, -EINVAL, "%s: '%s' is not none, compact or scatter", what, w) : 0;
}

int rt_train_settings_set(void *ctx, int key, const struct rt_cli_value *v, struct rt_err *err)
{
	struct rt_train_settings *s = ctx;
	const char *arg = v->arg;

	switch (key) {
	case 'm': s->model = arg; s->given |= RT_GIVEN_MODEL; return 0;
	case 'b': s->batch = v->l; s->given |= RT_GIVEN_BATCH; return 0;
	case 't':
		if (v->n > 1)
			return rt_err_set(err, -EINVAL, "--threads: one run trains with one thread "
					  "count ('%s' has %zu): sweep them with --sweep threads=%s",
					  arg, v->n, arg);
		s->threads = v->list[0];
		s->given |= RT_GIVEN_THREADS;
		return 0;
	case 'n': s->iters = v->l; s->given |= RT_GIVEN_ITERS; return 0;
	case 'w': s->warmup = v->l; s->given |= RT_GIVEN_WARMUP; return 0;
	case 's': s->seed = v->l; s->given |= RT_GIVEN_SEED; return 0;
	case 'r': s->repeat = v->l; s->given |= RT_GIVEN_REPEAT; return 0;
	case 'd':
		s->data = arg;
		s->given |= RT_GIVEN_DATA;
		return strcmp(arg, "synthetic") && strncmp(arg, "mnist:", 6) &&
		       strncmp(arg, "cifar10:", 8) ?
		       rt_err_set(err, -EINVAL, "--data: '%s' is not synthetic, mnist:DIR or "
				  "cifar10:DIR", arg) : 0;
	case OPT_PRECISION:
		s->given |= RT_GIVEN_PRECISION;
		return precision_word(&s->prec, arg, "--precision", err);
	case OPT_LR: s->lr = v->d; s->given |= RT_GIVEN_LR; return 0;
	case OPT_MAXPOOL:
		s->given |= RT_GIVEN_MAXPOOL;
		return rt_pool_impl_parse(arg, &s->pool) ?
		       rt_err_set(err, -EINVAL, "--maxpool-impl: '%s' is not auto, onednn or split",
				  arg) : 0;
	case 'l': s->per_layer = true; s->given |= RT_GIVEN_PER_LAYER; return 0;
	case 'S':
		s->given |= RT_GIVEN_SWEEP;
		if (s->nsweeps == RT_KNOB_COUNT)
			return rt_err_set(err, -EINVAL, "--sweep: at most %d knobs", RT_KNOB_COUNT);
		s->sweeps[s->nsweeps++] = arg;
		return 0;
	case 'o': s->outdir = arg; return 0;
	case OPT_RESUME: s->resume = arg; return 0;
	case OPT_NO_RETRY: s->no_retry = true; return 0;
	case OPT_TIMEOUT: s->timeout = v->d; s->given |= RT_GIVEN_TIMEOUT; return 0;
	case 'p': s->profile = arg; s->given |= RT_GIVEN_PROFILE; return 0;
	case OPT_DIGEST: s->digest = true; return 0;
	case OPT_AFFINITY:
		s->given |= RT_GIVEN_AFFINITY;
		return affinity_word(&s->affinity, arg, "--affinity", err);
	case OPT_MPIRUN:
		if (!*arg || strspn(arg, " ") == strlen(arg))
			return rt_err_set(err, -EINVAL, "--mpirun: the command is empty");
		s->mpirun = arg;
		return 0;
	case OPT_INPUT:
		s->given |= RT_GIVEN_INPUT;
		return rt_sweep_parse_input(arg, &s->input_h, &s->input_w, "--input", err);
	case 'c':
		s->counters = arg;
		s->given |= RT_GIVEN_COUNTERS;
		if (!rt_word_in("auto,hw,model,none", ',', arg))
			return rt_err_set(err, -EINVAL, "--counters: '%s' is not auto, hw, model or "
					  "none", arg);
		return 0;
	case 'D': s->describe = true; return 0;
	case 'v': s->verbose = true; return 0;
	case OPT_EMIT_POINTS: s->emit = arg; return 0;
	}
	return rt_err_set(err, -ENOENT, "option %d is not a setting", key);
}

bool rt_train_settings_engine(const struct rt_train_settings *s)
{
	return s->nsweeps || s->resume || s->outdir;
}

int rt_train_settings_check(const struct rt_train_settings *s, struct rt_err *err)
{
	const bool engine = rt_train_settings_engine(s);
	const char *given = s->nsweeps ? "--sweep" : s->resume ? "--resume" : "--out";

	if (s->outdir && s->resume)
		return rt_err_set(err, -EINVAL, "--resume: give either --out or --resume");
	if (s->no_retry && !s->outdir && !s->resume)
		return rt_err_set(err, -EINVAL, "--no-retry: goes with --resume or --out");
	if (s->describe && engine)
		return rt_err_set(err, -EINVAL, "--describe: prints the layers and trains nothing: "
				  "give it without %s", given);
	if (s->digest && engine)
		return rt_err_set(err, -EINVAL, "--digest: prints the weights of one run in this "
				  "process: give it without %s", given);
	/* a sweep's own: one run in this process has no fresh processes to repeat or limit */
	if (!engine && !s->emit && (s->given & RT_GIVEN_REPEAT))
		return rt_err_set(err, -EINVAL, "--repeat: fresh processes of a sweep's "
				  "configurations: give --sweep, or --out DIR to measure this run as "
				  "a sweep of one");
	if (!engine && !s->emit && (s->given & RT_GIVEN_TIMEOUT))
		return rt_err_set(err, -EINVAL, "--timeout: limits a sweep's processes: give "
				  "--sweep, or --out DIR to measure this run as a sweep of one");
	return 0;
}

/* A member of a child's record, set as the option of its name (run.cfg's names: maxpool is
 * --maxpool-impl, per_layer --per-layer) with that option's checks; ranks is the job's. */
struct record_ctx {
	struct rt_train_settings *s;
	struct rt_cli cli;
	long ranks;
};

static int record_member(void *ctx, const char *name, const char *value, struct rt_err *err)
{
	struct record_ctx *r = ctx;
	const struct rt_cli_opt *o;
	char opt[64];
	long n;

	if (!strcmp(name, "ranks")) {
		int rc = rt_opt_parse_long(&n, "ranks", value, 1, INT_MAX, err);

		return rc ? rc : n != r->ranks ? rt_err_set(err, -EINVAL, "ranks: %ld asked, this "
							    "job has %ld", n, r->ranks) : 0;
	}
	snprintf(opt, sizeof(opt), "%s", strcmp(name, "maxpool") ? name : "maxpool-impl");
	for (char *p = opt; *p; p++)
		*p = *p == '_' ? '-' : *p;
	o = rt_cli_find(&r->cli, opt);
	/* a child measures one configuration: nothing of a sweep's own */
	if (!o || o->key == 'S' || o->key == 'o' || o->key == OPT_RESUME || o->key == 'D' ||
	    o->key == OPT_EMIT_POINTS)
		return rt_err_set(err, -EINVAL, "'%s' is not a setting of a sweep's child", name);
	if (o->type == RT_CLI_FLAG && strcmp(value, "true"))
		return strcmp(value, "false") ? rt_err_set(err, -EINVAL, "'%s' must be true or "
							   "false", name) : 0;
	return rt_cli_set(&r->cli, o, o->type == RT_CLI_FLAG ? NULL : value,
			  rt_train_settings_set, r->s, err);
}

int rt_train_settings_record(struct rt_train_settings *s, struct rt_runrec_members **rec,
			     long pus, int ranks, struct rt_err *err)
{
	struct record_ctx r = { .s = s, .cli = rt_train_cli, .ranks = ranks };
	int rc;

	r.cli.pus = pus;
	if ((rc = rt_runrec_members_open(rec, s->emit, err)) ||
	    (rc = rt_runrec_members_walk(*rec, "child", "child", false, record_member, &r, err))) {
		rt_runrec_members_destroy(*rec);
		*rec = NULL;
	}
	return rc;
}

int rt_train_settings_resume(struct rt_train_settings *s, struct rt_err *err)
{
	const struct rt_runrec_request *r = &s->record;
	const unsigned g = s->given;
	struct rt_err bad;
	int rc = rt_runrec_request_read(&s->record, s->resume, err);

	if (rc == -ENOENT)
		return rt_err_set(err, rc, "--resume: %s: nothing to resume (no run.cfg there)",
				  s->resume);
	if (rc)
		return rc;
	if (!(g & RT_GIVEN_MAXPOOL) && rt_pool_impl_parse(r->maxpool, &s->pool))
		return rt_err_set(err, -EINVAL, "%s/run.cfg: unknown maxpool '%s'", s->resume,
				  r->maxpool);
	if (!(g & RT_GIVEN_LR) && *r->lr && rt_opt_parse_double(&s->lr, "lr", r->lr, 0, 10, &bad))
		return rt_err_set(err, -EINVAL, "%s/run.cfg: %s", s->resume, bad.msg);
	if (!(g & RT_GIVEN_MODEL))
		s->model = r->model;
	if (!(g & RT_GIVEN_DATA))
		s->data = r->data;
	if (!(g & RT_GIVEN_COUNTERS))
		s->counters = r->counters;
	if (!(g & RT_GIVEN_BATCH))
		s->batch = r->batch;
	if (!(g & RT_GIVEN_THREADS) && r->threads > 0)
		s->threads = r->threads;
	if (!(g & RT_GIVEN_ITERS))
		s->iters = r->iterations;
	if (!(g & RT_GIVEN_WARMUP))
		s->warmup = r->warmup;
	if (!(g & RT_GIVEN_REPEAT))
		s->repeat = r->repeat;
	if (!(g & RT_GIVEN_SEED))
		s->seed = r->seed;
	if (!(g & RT_GIVEN_PER_LAYER))
		s->per_layer = r->per_layer;
	if (!(g & RT_GIVEN_TIMEOUT) && r->timeout >= 0)
		s->timeout = r->timeout;
	if (!(g & RT_GIVEN_INPUT) && *r->input &&
	    rt_sweep_parse_input(r->input, &s->input_h, &s->input_w, "input", &bad))
		return rt_err_set(err, -EINVAL, "%s/run.cfg: %s", s->resume, bad.msg);
	if ((!(g & RT_GIVEN_PRECISION) && *r->precision &&
	     precision_word(&s->prec, r->precision, "precision", &bad)) ||
	    (!(g & RT_GIVEN_AFFINITY) && *r->affinity &&
	     affinity_word(&s->affinity, r->affinity, "affinity", &bad)))
		return rt_err_set(err, -EINVAL, "%s/run.cfg: %s", s->resume, bad.msg);
	if (!(g & RT_GIVEN_PROFILE) && *r->profile)
		s->profile = r->profile;
	if (!(g & RT_GIVEN_SWEEP)) {
		s->nsweeps = r->nknobs;
		for (size_t i = 0; i < r->nknobs; i++)
			s->sweeps[i] = r->knobs[i];
	}
	return 0;
}

int rt_train_settings_apply(const struct rt_train_settings *s, struct rt_model **mp,
			    const struct rt_topo *topo, const struct rt_cluster *cl,
			    struct rt_net_opts *no, struct rt_err *err)
{
	long threads = s->threads;
	struct rt_model *m;
	int rc;

	if (s->input_h && (rc = rt_model_reshape(mp, s->input_h, s->input_w, err)))
		return rc;
	m = *mp;
	if (!threads)
		threads = cl->node_size > 1 ? (long)rt_topo_cores(topo) / cl->node_size : 0;
	omp_set_num_threads((int)(threads > 0 ? threads : (long)rt_topo_cores(topo)));
	if ((s->given & RT_GIVEN_AFFINITY) &&
	    (rc = rt_sweep_mpi_place(cl, topo, s->affinity, (unsigned)omp_get_max_threads(), err)))
		return rc;
	rt_model_set_precision(m, s->prec);
	rt_net_opts_default(no, m);
	no->precision = s->prec;
	if (s->batch)
		no->batch = s->batch;
	no->seed = (uint64_t)s->seed;
	no->lr = s->lr;
	no->maxpool = s->pool;
	return 0;
}

void rt_train_settings_request(struct rt_runrec_request *r, const struct rt_train_settings *s,
			       const struct rt_model *m, const struct rt_sweep *sw, long batch,
			       const char *profile_path)
{
	char cwd[4096];

	memset(r, 0, sizeof(*r));
	/* the children must find the same model file: its real path */
	if (!realpath(m->path, r->model))
		snprintf(r->model, sizeof(r->model), "%s", m->path);
	snprintf(r->data, sizeof(r->data), "%s", s->data);
	snprintf(r->counters, sizeof(r->counters), "%s", s->counters);
	snprintf(r->maxpool, sizeof(r->maxpool), "%s", rt_pool_impl_name(s->pool));
	snprintf(r->lr, sizeof(r->lr), "%.17g", s->lr);
	if (s->input_h)
		snprintf(r->input, sizeof(r->input), "%ldx%ld", s->input_h, s->input_w);
	snprintf(r->precision, sizeof(r->precision), "%s", rt_precision_name(s->prec));
	snprintf(r->affinity, sizeof(r->affinity), "%s", rt_affinity_name(s->affinity));
	r->batch = batch;
	r->threads = s->threads;
	r->iterations = s->iters;
	r->warmup = s->warmup;
	r->repeat = s->repeat;
	r->seed = s->seed;
	r->per_layer = s->per_layer;
	for (size_t k = 0; k < sw->nknobs; k++)
		rt_sweep_knob_spec(sw, k, r->knobs[r->nknobs++], sizeof(r->knobs[0]));
	r->timeout = s->timeout;
	if (profile_path[0] != '/' && getcwd(cwd, sizeof(cwd)))
		snprintf(r->profile, sizeof(r->profile), "%.2000s/%.2000s", cwd, profile_path);
	else
		snprintf(r->profile, sizeof(r->profile), "%s", profile_path);
}

/* The MPI launcher's words: --mpirun, $ROOFTRAJ_MPIRUN, or mpirun --bind-to none (and
 * --allow-run-as-root as root: Open MPI refuses root otherwise), its program found in $PATH. */
static int mpi_launcher(const struct rt_train_settings *s, char *buf, char **argv,
			struct rt_err *err)
{
	static char path[PATH_MAX];
	const char *env = getenv("ROOFTRAJ_MPIRUN");
	const char *cmd = s->mpirun ? s->mpirun : env && *env ? env : NULL;
	size_t n = 0;
	char *save = NULL;

	if (cmd)
		snprintf(buf, 1024, "%s", cmd);
	else
		snprintf(buf, 1024, "mpirun --bind-to none%s",
			 geteuid() == 0 ? " --allow-run-as-root" : "");
	for (char *w = strtok_r(buf, " \t", &save); w && n < 30; w = strtok_r(NULL, " \t", &save))
		argv[n++] = w;
	argv[n] = NULL;
	if (!n || !rt_spawn_which(argv[0], path, sizeof(path)))
		return rt_err_set(err, -ENOENT, "--sweep ranks: the MPI launcher '%s' is not found "
				  "(--mpirun, ROOFTRAJ_MPIRUN; Debian: openmpi-bin)",
				  n ? argv[0] : "");
	argv[0] = path;
	return 0;
}

int rt_run_train_sweep(struct rt_sweep_mpi *h, const struct rt_train_settings *s,
		   struct rt_sweep *sw, long batch, const char *cmdline,
		   const struct rt_train_ui *ui, FILE *out, char *dir, size_t size,
		   struct rt_err *err)
{
	const struct rt_cluster *cl = h->cl;
	struct rt_sweep_measure_opts so = { 0 };
	struct rt_sweep_execute_opts ro = { 0 };
	struct rt_runrec_request req;
	char self[PATH_MAX], ppath[4096], words[1024], note[512];
	char *launcher[32] = { NULL };
	ssize_t len;
	int rc;

	sw->input_h = h->m->input.h;
	sw->input_w = h->m->input.w;
	if ((rc = rt_sweep_expand(sw, (unsigned)omp_get_max_threads(), batch, s->affinity, s->prec,
				   err)))
		goto done;
	/* under mpirun every configuration is trained by all the ranks together: it carries
	 * their count */
	for (size_t i = 0; cl->active && i < sw->nconfigs; i++) {
		sw->configs[i].ranks = (unsigned)cl->size;
		rt_sweep_config_name(&sw->configs[i], sw->input_h, sw->input_w);
	}
	if (cl->rank != 0)
		return rt_sweep_mpi_follow(h, err);
	for (size_t i = 0; i < sw->nknobs; i++)
		if (sw->knobs[i].knob == RT_KNOB_RANKS && cl->active) {
			rc = rt_err_set(err, -EINVAL, "--sweep ranks: run it without mpirun (rooftraj "
					"launches mpirun for each rank count itself)");
			goto done;
		}
	for (size_t i = 0; i < sw->nconfigs && !launcher[0]; i++)
		if (sw->configs[i].ranks > 1 && (rc = mpi_launcher(s, words, launcher, err)))
			goto done;
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0) {
		rc = rt_err_set(err, -EIO, "cannot find my own executable");
		goto done;
	}
	self[len] = '\0';
	if (s->profile)
		snprintf(ppath, sizeof(ppath), "%s", s->profile);
	else if (!rt_profile_default_path(ppath, sizeof(ppath), NULL, note, sizeof(note)))
		ui->say(ui->ctx, note);
	rt_train_settings_request(&req, s, h->m, sw, batch, ppath);
	ro.m = h->m;
	ro.topo = h->topo;
	ro.profile_given = s->profile != NULL;
	ro.profile_recorded = s->resume && !(s->given & RT_GIVEN_PROFILE);
	ro.profile_path = ppath;
	ro.outdir = s->outdir;
	ro.resume = s->resume;
	ro.say = ui->say;
	ro.say_ctx = ui->ctx;
	so.self = self;
	so.req = &req;
	so.retry = !s->no_retry;
	so.cmdline = cmdline;
	so.progress = ui->config;
	so.progress_ctx = ui->ctx;
	so.ranks = (unsigned)cl->size;
	so.mpirun = launcher[0] ? launcher : NULL;
	if (cl->active) {
		so.run = rt_sweep_mpi_run;
		so.run_ctx = h;
	}
	rc = rt_sweep_execute(sw, &ro, &so, out, dir, size, err);
done:
	/* the followers wait for the next configuration: there is none */
	if (cl->active && cl->rank == 0)
		rt_sweep_mpi_stop(h);
	return rc;
}

int rt_run_train_one(const struct rt_train_settings *s, const struct rt_model *m,
		    const struct rt_net_opts *no, const struct rt_cluster *cl,
		    const struct rt_train_ui *ui, const char *prog, FILE *out, struct rt_err *err)
{
	const struct rt_counter_backend *backend = NULL;
	struct rt_train_opts to = { 0 };
	struct rt_train_result res = { 0 };
	struct rt_err why = { 0 };
	void *cctx = NULL;
	int rc;

	if (strcmp(s->counters, "none") &&
	    (rc = rt_counters_open(s->counters, no->precision, &backend, &cctx, &why, err)))
		return rc;
	to.meter = backend ? &backend->meter : NULL;
	to.meter_ctx = cctx;
	to.iterations = s->iters;
	to.warmup = s->warmup;
	to.data = s->data;
	to.progress = cl->rank == 0 ? ui->iteration : NULL;
	to.progress_ctx = ui->ctx;
	to.comm = cl->active ? &cl->comm : NULL;
	to.digest = s->digest;
	if ((rc = rt_train_iterations(m, no, &to, &res, err)))
		goto out;
	/* hardware events count a group a run: the same work again, untimed and not printed,
	 * until every group was read */
	if (backend == &rt_counters_hw &&
	    (rc = rt_train_count_whole(m, no, &to, rt_counters_hw_groups(cctx), &res.counts, err)))
		goto out;
	if (s->digest) {
		/* every rank: data-parallel training keeps the weights identical on all of them */
		if (cl->active)
			fprintf(out, "rank %d: ", cl->rank);
		fprintf(out, "weights digest %016llx sum %.9g norm %.9g\n",
			(unsigned long long)res.digest, res.weights_sum, res.weights_norm);
		fflush(out);
		rt_cluster_barrier(cl);
	}
	if (cl->rank == 0) {
		const struct rt_train_print_opts ro = {
			.prog = prog, .threads = omp_get_max_threads(), .iterations = s->iters,
			.warmup = s->warmup, .ranks = cl->size, .nodes = cl->nodes, .pool = s->pool,
			.counted = backend != NULL, .hw = backend == &rt_counters_hw, .why = &why,
			.per_layer = s->per_layer,
		};

		rt_train_print_run(out, m, no, &res, &ro);
	}
out:
	if (backend)
		backend->close(cctx);
	rt_train_result_fini(&res);
	return rc;
}

/* A sweep (--sweep, --resume, --out): its knobs, then the run; the results directory
 * printed. */
static int tool_sweep(const struct rt_train_tool *t, struct rt_sweep_mpi *h, long batch)
{
	struct rt_sweep sw = { 0 };
	struct rt_err err = { 0 };
	struct rt_buf cmd;              /* the command line, whole (run.cfg records it) */
	char dir[4096];
	int rc;

	for (size_t i = 0; i < t->s->nsweeps; i++)
		if (rt_sweep_add(&sw, t->s->sweeps[i], h->topo, batch, &err)) {
			rt_sweep_fini(&sw);
			return rt_cli_usage_error(&rt_train_cli, err.msg);
		}
	rt_buf_init(&cmd);
	for (int i = 0; i < t->argc; i++)
		(void)rt_buf_printf(&cmd, "%s%s", i ? " " : "", t->argv[i]);
	rc = cmd.failed ? rt_err_set(&err, -ENOMEM, "out of memory") :
	     rt_run_train_sweep(h, t->s, &sw, batch, cmd.s, t->sweep_ui, stdout, dir, sizeof(dir),
				&err);
	rt_buf_fini(&cmd);
	rt_sweep_fini(&sw);
	if (rc && h->cl->rank != 0)
		fprintf(stderr, "%s: rank %d: %s\n", t->prog, h->cl->rank, err.msg);
	else if (rc)
		fprintf(stderr, "%s: %s\n", t->prog, err.msg);
	if ((!rc || rc == -ECANCELED) && h->cl->rank == 0)
		printf("\nresults: %s (points.csv, summary.txt, run.cfg)\n", dir);
	return rc == -EINTR ? 130 : rc ? 1 : 0;
}

int rt_run_train_tool(const struct rt_train_tool *t)
{
	const struct rt_cluster *cl = t->cl;
	struct rt_train_settings *s = t->s;
	struct rt_runrec_members *rec = NULL;
	struct rt_model *m = NULL;
	struct rt_net_opts no;
	struct rt_err err = { 0 };
	int rc = 1;

	if (s->emit && rt_train_settings_record(s, &rec, (long)rt_topo_pus(t->topo), cl->size,
						&err)) {
		fprintf(stderr, "%s: %s\n", t->prog, err.msg);
		return 2;
	}
	if ((s->resume && rt_train_settings_resume(s, &err)) ||
	    rt_model_open(&m, s->model, &err) ||
	    rt_train_settings_apply(s, &m, t->topo, cl, &no, &err))
		goto fail;
	if (s->profile && !rt_train_settings_engine(s) && !s->emit) {
		/* one run draws no roof, but a profile given is read as roofline-run reads it:
		 * one that cannot be is the same error, not ignored */
		struct rt_profile *p = NULL;

		if (rt_profile_load(&p, s->profile, &err))
			goto fail;
		rt_profile_destroy(p);
	}
	if (rt_train_settings_engine(s)) {
		struct rt_sweep_mpi h = {
			.m = m, .no = no, .cl = cl, .topo = t->topo, .warn = t->warn,
			.measure = { .data = s->data, .counters = s->counters,
				     .iterations = s->iters, .warmup = s->warmup,
				     .repeat = s->repeat, .per_layer = s->per_layer },
		};

		rc = tool_sweep(t, &h, s->batch ? s->batch : m->batch);
		goto out;
	}
	if (s->emit) {
		/* the child side of a sweep: the configuration's points on stdout */
		const struct rt_sweep_child_opts mo = { .data = s->data, .counters = s->counters,
							.iterations = s->iters, .warmup = s->warmup,
							.repeat = s->repeat, .per_layer = s->per_layer,
							.comm = cl->active ? &cl->comm : NULL };
		/* under mpirun (--sweep ranks): the ranks train together, rank 0 reports */
		FILE *out = cl->rank == 0 ? stdout : fopen("/dev/null", "w");

		rc = out ? rt_sweep_child_measure(out, m, &no, &mo, &err) :
		     rt_err_set(&err, -errno, "/dev/null: %s", strerror(errno));
		if (out && out != stdout)
			fclose(out);
	} else if (t->describe) {
		rc = rt_train_print_describe(stdout, m, &no, &err);
	} else {
		rc = rt_run_train_one(s, m, &no, cl, t->one_ui, t->prog, stdout, &err);
		if (rc && cl->active) {
			/* the other ranks may wait on this one's gradients: stop the job */
			fprintf(stderr, "%s: rank %d of %d: %s; stopping every rank\n", t->prog,
				cl->rank, cl->size, err.msg);
			rt_cluster_abort(cl, 1);
		}
	}
	if (!rc)
		goto out;
fail:
	fprintf(stderr, "%s: %s\n", t->prog, err.msg);
	rc = 1;
out:
	rt_model_destroy(m);
	rt_runrec_members_destroy(rec);
	return rc;
}
