/* cmd-run.h: roofline-run's work: the user's own command (a PyTorch or TensorFlow training
 * script) run once per configuration and repetition, each a fresh process, under a sweep of
 * what frameworks read (OMP_NUM_THREADS, OMP_PLACES/OMP_PROC_BIND, any environment variable);
 * oneDNN's verbose lines taken out of its output and counted (counters/onednn-log), everything
 * else passed through; points.csv, summary.txt and the raw logs in a results directory. */
#ifndef RT_CMD_RUN_H
#define RT_CMD_RUN_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include "base/err.h"
#include "sweep/engine.h"
#include "base/vocab.h"
#include "run/cmd-knobs.h"
#include "run/cmd-framework.h"
#include "sweep/sweep.h"

#define RT_CMD_MAX_ENV 4
#define RT_CMD_TUNE_MAX 12

/* roofline-run's options, as its table sets them (on --resume from DIR/run.cfg, each member
 * set as the option of its name); what a sweep holds is on the heap, owned here and freed by
 * rt_cmd_run_opts_fini. */
struct rt_cmd_run_opts {
	const char *prog;               /* the tool's name, for messages */
	const char *cmdline;            /* as typed, for the directory's lock and run.cfg */
	const char *outdir;             /* NULL: results/run-TIMESTAMP */
	const char *profile;            /* a machine profile for the bounds, or NULL */
	char *const *cmd;               /* the command, NULL-terminated */
	struct rt_sweep *grid;          /* --sweep threads and affinity (NULL: neither): the sweep
					 * engine's knobs, grammar and lists (sweep/sweep.h) */
	struct rt_sweep_env *env;       /* --sweep env:NAME=..., RT_CMD_MAX_ENV at most */
	size_t nenv;
	unsigned repeat;                /* fresh processes per configuration (-r) */
	double timeout;                 /* seconds per process; 0: none */
	const char *verbose;            /* ONEDNN_VERBOSE's value: "1" (2.x), "profile_exec" */
	bool overhead;                  /* also run the default without the log */
	bool hw_counters;               /* the default's FLOPs from the hardware too, where the
					 * node's counters read the probe's kernels right */
	const char *resume;             /* a run's directory: its command and sweep from its
					 * run.cfg, the configurations it lacks run */
	bool timeout_given;             /* --timeout given: it holds on --resume too */
	/* The tool's option of long name NAME set from VALUE (NULL for a flag) with its own
	 * checks, as on its command line: how --resume takes the request back from run.cfg. */
	int (*option)(struct rt_cmd_run_opts *o, const char *name, const char *value,
		      struct rt_err *err);
	enum rt_cmd_fw framework;       /* --framework: what the threads knob sets and which
					 * knobs can act (auto: each framework's threads variable,
					 * the framework known from the default's log) */
	bool ranked;                    /* set by the run under a launcher: a disturbed run is
					 * not run again (a command that starts MPI can once) */
	unsigned batch;                 /* --batch: images an iteration, so that an iteration
					 * rate ("12.3it/s", "1.2s/it", tqdm's) is images/s; 0:
					 * iteration rates not read */
	char *throughput;               /* --throughput's POSIX ERE (NULL: the built-in forms):
					 * its first parenthesised group, or the whole match, is
					 * images/s; set by rt_cmd_throughput_set */
	regex_t throughput_re;          /* ... compiled */
	/* --sweep allocator=, fpmath=, isa=, numa= (cmd-knobs.h), in the order given */
	struct rt_cmd_knob *knobs;      /* RT_CMD_NKNOBS at most */
	size_t nknobs;
	char *numactl;                  /* numactl's path where a numa value needs it */
	/* --sweep tune: each alternative ("threads=4", "allocator=jemalloc") measured alone
	 * against the default, then the winners together (tune_together: their indexes, from
	 * run.cfg on --resume, else once chosen); what the node lacked, in words */
	bool tune;
	char (*tune_alt)[64];           /* ntune each */
	struct rt_cmd_knob *tune_knob;  /* each alternative's value (n 0: threads) */
	unsigned tune_threads[RT_CMD_TUNE_MAX];
	size_t ntune;
	size_t tune_together[RT_CMD_TUNE_MAX];
	size_t ntogether;
	char *tune_lacked;
};

_Static_assert(sizeof(struct rt_cmd_run_opts) < 4096, "roofline-run's options are small: what "
	       "a sweep holds is on the heap");

#define RT_CMD_BATCH_MAX 1048576

/* --throughput REGEX: compiled (POSIX extended), kept in o. -EINVAL naming the option and
 * the regex's own error, or a back-reference (\1: exponential time); at most 255
 * characters. */
int rt_cmd_throughput_set(struct rt_cmd_run_opts *o, const char *regex, struct rt_err *err);
/* What o owns: the compiled --throughput, the sweep's knobs. */
void rt_cmd_run_opts_fini(struct rt_cmd_run_opts *o);

/* A --sweep argument: "threads" (1, powers of two, all the CPUs this process may use),
 * "threads=LIST", "affinity" (none, compact, scatter), "affinity=LIST",
 * "env:NAME=V1,V2,...", a named knob ("allocator=default,jemalloc", "fpmath=strict,bf16",
 * "isa=avx2,avx512_core", "numa=none,interleave": cmd-knobs.h), or "tune" (the alternatives
 * this node offers; "tune=KNOB:VALUE,...": those), alone. Each knob once. -EINVAL naming
 * the argument. */
int rt_cmd_sweep_add(struct rt_cmd_run_opts *o, const char *spec, struct rt_err *err);

/* The whole run; returns the tool's exit status (0; 1 when no configuration ran or the
 * results could not be written; 130 when interrupted), every message printed. On --resume
 * the request is set in o from DIR/run.cfg (its strings valid until this returns); tune's
 * winners and o->ranked are set in it as they are known. */
int rt_cmd_run_tool(struct rt_cmd_run_opts *o);

/* A user's command as a sweep's workload (sweep/engine.h). */
extern const struct rt_workload rt_workload_command;

#endif
