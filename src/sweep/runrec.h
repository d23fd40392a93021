/* runrec.h: run.cfg, a results directory's record: the request its points answer (what was
 * measured, so that a directory is never mixed up with another sweep and --resume can take it
 * back), how it ran (tool, libraries, command, environment, CPU, times) and its state; and, in
 * its syntax, the record of one configuration that a sweep's child reads */
#ifndef RT_RUNREC_H
#define RT_RUNREC_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include "base/err.h"
#include "base/util.h"
#include "node/profile.h"
#include "sweep/sweep.h"

/* What a sweep measures, as run.cfg records it. The first part is the points' identity: every
 * run that adds points to one directory asks for the same. */
struct rt_runrec_request {
	char model[4096];               /* the model file's real path */
	char data[4096];                /* synthetic, mnist:DIR, cifar10:DIR */
	char counters[16];
	char maxpool[16];               /* auto, onednn, split */
	char lr[64];                    /* --lr as given ("" : the default) */
	char input[32];                 /* --input as "HxW" ("": the model's) */
	char precision[8], affinity[16];        /* the default configuration's ("": a run.cfg
						 * written before they were recorded: fp32,
						 * none) */
	long batch;                     /* the default configuration's batch */
	long threads;                   /* --threads as given (0: not given: all cores, a
					 * rank's share of them under mpirun, so that runs with
					 * different mpirun -n share a directory); -1: a run.cfg
					 * written before it was recorded */
	long iterations, warmup, repeat, seed;
	bool per_layer;
	char knobs[RT_KNOB_COUNT][1024];        /* "threads=1,2", in the order given */
	size_t nknobs;
	/* how it ran: may differ between the runs of one directory */
	double timeout;
	char profile[4096];
};

/* The request a results directory's run.cfg records. -ENOENT when DIR has no run.cfg;
 * -EINVAL naming FILE:LINE when it is not one, or records no request (an older rooftraj). */
int rt_runrec_request_read(struct rt_runrec_request *r, const char *dir, struct rt_err *err);
/* What differs between the points' identities of two requests, as "model: 'a' there, 'b'
 * asked; batch: 64 there, 32 asked" into buf; returns how many fields differ (0: the same). */
int rt_runrec_request_diff(const struct rt_runrec_request *there,
			  const struct rt_runrec_request *asked, char *buf, size_t size);

/* How a run went, for its run.cfg: what every tool records, and the workload's own members
 * (its request, which --resume takes back) through put. */
struct rt_runrec {
	const char *comment;            /* the file's first line */
	const char *program;            /* the tool that wrote it (run.program; NULL: none,
					 * roofline-train's) */
	const char *status;             /* "running", "complete", "interrupted" */
	const char *started;            /* ISO 8601 */
	const char *cmdline;
	const char *profile;            /* the profile's path as given (NULL: none) */
	const char *default_config;     /* the reference configuration's name (NULL: unknown) */
	const char *hw_counters;        /* the counters' verdict: events, checks, groups (NULL) */
	size_t configurations;
	unsigned ranks;                 /* 0: not recorded */
	const struct rt_sweep_config *configs;  /* those configurations, each run in a process
						 * of its own environment (NULL: not listed; the
						 * ranks of an MPI job train in their own) */
	const char *numactl;            /* the numactl their words name */
	const struct rt_profile *prof;  /* its CPU and caches are recorded (may be NULL) */
	/* the workload's members, "  request = { ... };\n" and what else it records: false
	 * when out of memory */
	bool (*put)(FILE *fp, const void *ctx);
	const void *put_ctx;
};

/* The trainer's request as put writes it: "  request = { model = ...; };" */
bool rt_runrec_request_put(FILE *fp, const void *req);

/* Whether NAME=VALUE is one of the variables any tool's run.cfg records: RT_RUNREC_ENV_RUN for
 * one that changes what a run does (OMP_, KMP_, GOMP_, DNNL_, ONEDNN_, MKL_, OPENBLAS_, the
 * loader's LD_PRELOAD and LD_LIBRARY_PATH: a resumed run must have the same),
 * RT_RUNREC_ENV_JOB for the Slurm job's (recorded; a resumed run may be another job's), 0 for
 * one not recorded. */
#define RT_RUNREC_ENV_RUN 1
#define RT_RUNREC_ENV_JOB 2
int rt_runrec_env_kind(const char *kv);
/* Whether this process has the environment DIR/run.cfg records, in the variables that change
 * what a run does (RT_RUNREC_ENV_RUN): points added to a directory are measured as its
 * first were. 0 (a record without an environment, of an older rooftraj, is not compared);
 * -EINVAL "FILE:LINE: environment: ..." naming the variable, what it was and is, then how
 * (the tool's words: what to do); the reader's error when run.cfg cannot be read. */
int rt_runrec_env_same(const char *dir, const char *how, struct rt_err *err);

/* The profile of a run is kept beside its run.cfg, as RT_RUNREC_PROFILE: the roofs the run
 * was judged on, whatever becomes of the file it was read from. */
#define RT_RUNREC_PROFILE "profile.cfg"

/* DIR/run.cfg written atomically, the same for every tool: the comment, "run = {", the tool,
 * the program, status, started, finished (unless running), host, the command line, the
 * profile's path, the default, the counters' verdict, how many configurations, the ranks;
 * the workload's members (rec->put); what each configuration ran with (configurations_run:
 * its name, the variables it sets, "NAME=": unset, the library its LD_PRELOAD adds, the words
 * before its command: numactl, the program at that path, with its options; together = true
 * for roofline-run --sweep tune's winners together); the libraries it was built with, the CPU
 * of the node it ran on (/proc/cpuinfo's, rt_cpu_detect), the profile's CPU and caches (the
 * roofs' node; the profile itself kept beside it first, as RT_RUNREC_PROFILE), the
 * environment (the variables rt_runrec_env_kind names). */
int rt_runrec_write(const char *dir, const struct rt_runrec *rec, struct rt_err *err);

/* What a sweep's child measures (roofline-train --emit-points FILE), as a record in run.cfg's
 * syntax and names: the request's fields it needs and configuration c's knobs, the child to
 * run `repeat` runs,
 *   child = { model = "..."; data = "synthetic"; ... batch = 64; threads = 2; ranks = 1; ... };
 * Adding a setting of the child is one line here: the child sets each member as the option
 * of its name. */
void rt_runrec_child_put(FILE *fp, const struct rt_runrec_request *r,
			 const struct rt_sweep_config *c, long repeat);
/* A record read back, a child's or a request's: PATH parsed (-ENOENT when it is missing,
 * -EINVAL "FILE:LINE: ..." when it does not parse), the values its readers hand out borrowed
 * from *rec until rt_runrec_members_destroy(*rec) (NULL on error). */
struct rt_runrec_members;
int rt_runrec_members_open(struct rt_runrec_members **rec, const char *path,
			   struct rt_err *err);
/* Each member of the group GROUP ("child", "run.command_request"), in its order, handed to
 * set(ctx, its name, its value as text: a string as it is, a number as written, a boolean
 * "true" or "false"; with arrays, an array's elements each in turn under the array's name).
 * Every text lives as long as rec: set may keep it.
 * A missing group, another kind of value, or a member set refuses, is -EINVAL
 * "FILE:LINE: LABEL: ..." (set's message; LABEL "" leaves it out). */
int rt_runrec_members_walk(struct rt_runrec_members *rec, const char *group,
			   const char *label, bool arrays,
			   int (*set)(void *ctx, const char *name, const char *value,
				      struct rt_err *err),
			   void *ctx, struct rt_err *err);
/* The string setting PATH of the record ("run.program"), or NULL when it has none. */
const char *rt_runrec_members_string(const struct rt_runrec_members *rec, const char *path);
/* The line of the file a setting of the record stands on ("run.command_request.program"); 0
 * when it has none. */
int rt_runrec_members_line(const struct rt_runrec_members *rec, const char *path);
/* rt_runrec_env_same of a record open already. */
int rt_runrec_members_env_same(const struct rt_runrec_members *rec, const char *how,
			       struct rt_err *err);
void rt_runrec_members_destroy(struct rt_runrec_members *rec);

/* The machine profile of a results directory's run, into path: the copy kept there
 * (DIR/RT_RUNREC_PROFILE), else (a directory of an older rooftraj) the one its run.cfg names. */
int rt_runrec_profile(const char *dir, char *path, size_t size, struct rt_err *err);
/* The profile a resumed run of DIR is judged on when no --profile is given: the copy DIR kept
 * (RT_RUNREC_PROFILE), the one its rows were judged on, read into *kept (the caller destroys
 * it); NULL when there is none (a directory of an earlier rooftraj: run.cfg's recorded path
 * stays). What the user should hear goes into note (left empty when nothing): the recorded
 * profile probed again since, or gone. */
int rt_runrec_resume_profile(const char *dir, const char *recorded, struct rt_profile **kept,
			     struct rt_buf *note, struct rt_err *err);
/* The default configuration's name a results directory's run.cfg records, into name; "" when
 * it records none (rooftraj 0.2) or has no run.cfg. */
void rt_runrec_default(const char *dir, char *name, size_t size);
/* The tool that wrote a results directory, as its run.cfg names it (run.program:
 * "roofline-run"), into name; "" when it names none (roofline-train's) or has no run.cfg. */
void rt_runrec_program(const char *dir, char *name, size_t size);

#endif
