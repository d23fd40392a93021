/* train-run.h: what roofline-train does, as library calls: the settings its options give,
 * --resume filling the settings not given from run.cfg, a sweep (alone or on every rank of an
 * MPI job), and one configuration trained with its report. The tool parses and prints. */
#ifndef RT_TRAIN_RUN_H
#define RT_TRAIN_RUN_H

#include <stdbool.h>
#include <stdio.h>
#include "cluster/cluster.h"
#include "base/cli.h"
#include "base/err.h"
#include "cnn/model.h"
#include "cnn/net.h"
#include "sweep/runrec.h"
#include "sweep/sweep.h"
#include "run/sweep-mpi.h"
#include "machine/topo.h"

/* The bits of rt_train_settings.given: which settings the user set (--resume takes the
 * others from the results directory's run.cfg). */
enum {
	RT_GIVEN_MODEL = 1, RT_GIVEN_BATCH = 2, RT_GIVEN_ITERS = 4, RT_GIVEN_WARMUP = 8,
	RT_GIVEN_DATA = 16, RT_GIVEN_SEED = 32, RT_GIVEN_LR = 64, RT_GIVEN_MAXPOOL = 128,
	RT_GIVEN_COUNTERS = 256, RT_GIVEN_PER_LAYER = 512, RT_GIVEN_REPEAT = 1024,
	RT_GIVEN_TIMEOUT = 2048, RT_GIVEN_PROFILE = 4096, RT_GIVEN_SWEEP = 8192,
	RT_GIVEN_INPUT = 16384, RT_GIVEN_AFFINITY = 32768, RT_GIVEN_PRECISION = 65536,
	RT_GIVEN_THREADS = 131072,
};

struct rt_train_settings {
	const char *model, *data, *counters;    /* counters: auto, hw, model, none */
	long batch;                     /* 0: the model's */
	long input_h, input_w;          /* 0: the model's */
	long threads;                   /* 0: all cores (under mpirun: the node's, shared) */
	long iters, warmup, seed, repeat;
	double lr, timeout;
	enum rt_precision prec;
	enum rt_pool_impl pool;
	enum rt_affinity affinity;      /* --affinity: pinned by rooftraj (none: the runtime's) */
	const char *mpirun;             /* --mpirun, $ROOFTRAJ_MPIRUN, or "mpirun --bind-to none"
					 * (--allow-run-as-root as root): --sweep ranks launches it */
	bool per_layer, digest, no_retry;
	bool describe, verbose;
	const char *emit;               /* --emit-points FILE: a sweep's child, FILE its record */
	const char *sweeps[RT_KNOB_COUNT];      /* --sweep specs, as given */
	size_t nsweeps;
	const char *outdir, *resume, *profile;
	unsigned given;                 /* RT_GIVEN_* */
	struct rt_runrec_request record; /* --resume: what DIR/run.cfg asked */
};

/* roofline-train's defaults. */
void rt_train_settings_default(struct rt_train_settings *s);

/* Whether the settings ask for the sweep engine: --sweep, --resume, or --out (a results
 * directory: one run given it is a sweep of one configuration, written there as a sweep's). */
bool rt_train_settings_engine(const struct rt_train_settings *s);

/* roofline-train's command line: its one option table (the tool sets .pus, the bound of
 * --threads, in a copy). */
extern const struct rt_cli rt_train_cli;

/* The setter of rt_train_cli's options (ctx: the rt_train_settings): the value, already
 * checked against the option's type and range, set; -EINVAL naming the option when it is not
 * right (a word that is not one of the option's, several thread counts for one run). */
int rt_train_settings_set(void *ctx, int key, const struct rt_cli_value *v, struct rt_err *err);
/* Once every option is in: the settings that go together (--out or --resume, not both;
 * --no-retry with one of them; --describe and --digest with none of them nor --sweep;
 * --repeat and --timeout with one of them or --sweep). */
int rt_train_settings_check(const struct rt_train_settings *s, struct rt_err *err);

/* --emit-points FILE: the settings of the configuration FILE records (rt_runrec_members_walk),
 * each member set as the option of its name with that option's checks (pus bounds --threads);
 * its ranks must be the job's. The strings set are borrowed from *rec, which the caller
 * destroys after the run; an error is "FILE:LINE: child: ...". */
int rt_train_settings_record(struct rt_train_settings *s, struct rt_runrec_members **rec,
			     long pus, int ranks, struct rt_err *err);

/* --resume DIR: every setting the user did not give comes from DIR/run.cfg (a given one
 * that differs is named when the directory is checked). */
int rt_train_settings_resume(struct rt_train_settings *s, struct rt_err *err);

/* The model on the settings' input (--input: rt_model_reshape, which may refuse it), the
 * OpenMP threads of one rank (settings, else all cores, or under mpirun this node's cores
 * shared among its ranks), set for the runtime and pinned as --affinity asks (under mpirun:
 * each rank to its share of the node); and the net's options. */
int rt_train_settings_apply(const struct rt_train_settings *s, struct rt_model **m,
			    const struct rt_topo *topo, const struct rt_cluster *cl,
			    struct rt_net_opts *no, struct rt_err *err);

/* The run.cfg request of a sweep of these settings (the model and the profile as absolute
 * paths: the children, roofline-plot and --resume may run elsewhere). */
void rt_train_settings_request(struct rt_runrec_request *r, const struct rt_train_settings *s,
			       const struct rt_model *m, const struct rt_sweep *sw, long batch,
			       const char *profile_path);

/* How a run talks while it works (each may be NULL). */
struct rt_train_ui {
	void (*say)(void *ctx, const char *msg);        /* notes, warnings */
	void (*iteration)(void *ctx, long iter, long total, double loss);
	void (*config)(void *ctx, size_t i, size_t n, const char *config, const char *result);
	void *ctx;
};

/* A sweep of the configurations sw holds (its knobs added by the caller, so that a bad
 * --sweep is a usage error there): expanded, each carrying the job's rank count; rank 0 runs
 * it (rt_sweep_execute, results in dir) while the other ranks follow. -EINTR when interrupted. */
int rt_run_train_sweep(struct rt_sweep_mpi *h, const struct rt_train_settings *s,
		   struct rt_sweep *sw, long batch, const char *cmdline,
		   const struct rt_train_ui *ui, FILE *out, char *dir, size_t size,
		   struct rt_err *err);

/* One configuration trained by every rank; the weight digest when asked (every rank) and the
 * report (rank 0) on out. An error on one rank is returned: the caller stops the job. */
int rt_run_train_one(const struct rt_train_settings *s, const struct rt_model *m,
		    const struct rt_net_opts *no, const struct rt_cluster *cl,
		    const struct rt_train_ui *ui, const char *prog, FILE *out, struct rt_err *err);

/* What roofline-train does once its options are read: the request taken back from --resume,
 * the model opened and shaped, then a sweep (--sweep, --resume), a sweep's child
 * (--emit-points FILE), --describe, or one configuration. Prints on stdout, says on stderr (prog:
 * ...); returns the exit status: 0, 1 (an error, said), 2 (a bad --sweep, said with the usage
 * hint; a child's record that cannot be read or set, said with its FILE:LINE), 130
 * (interrupted). */
struct rt_train_tool {
	const char *prog;
	struct rt_train_settings *s;
	bool describe;
	const struct rt_cluster *cl;
	const struct rt_topo *topo;
	int argc;                       /* the command line, recorded in run.cfg */
	char **argv;
	const struct rt_train_ui *sweep_ui, *one_ui;
	void (*warn)(void *ctx, int rank, const char *msg);     /* a rank's placement failed */
};
int rt_run_train_tool(const struct rt_train_tool *t);

#endif
