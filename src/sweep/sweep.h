/* sweep.h: sweep grids (threads, batch, affinity, precision, input, ranks) and the environment
 * of each configuration's child process; a user's command's configurations named by their
 * knobs' words, and how each is launched */
#ifndef RT_SWEEP_H
#define RT_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include "base/err.h"
#include "base/util.h"
#include "cnn/model.h"
#include "base/spawn.h"
#include "machine/topo.h"

/* An input size as a knob's value: height and width in one long. */
#define RT_INPUT_VALUE(h, w) (((long)(h) << 20) | (long)(w))
#define RT_INPUT_H(v) ((v) >> 20)
#define RT_INPUT_W(v) ((v) & ((1L << 20) - 1))

#define RT_SWEEP_MAX_VALUES 64

#define RT_SWEEP_MAX_ENV 10

/* One configuration of a sweep, whatever its workload: its knobs, the environment its process
 * gets (the knobs' variables, rt_sweep_config_env, and roofline-run's env: knobs) and the words
 * before its command. The trainer's child also gets its knobs as a record
 * (rt_runrec_child_put); a user's command the library preloaded and numactl's words. */
struct rt_sweep_config {
	unsigned threads;               /* a user's command: 0, the runtime's choice */
	long batch;
	enum rt_affinity affinity;      /* a user's command: RT_AFFINITY_COUNT, not set */
	enum rt_precision precision;
	unsigned ranks;                 /* MPI ranks training it together (0 or 1: one process) */
	long input_h, input_w;          /* the input's height and width */
	bool is_default;                /* the trainer's: all cores, the runtime's placement, the
					 * model's batch, fp32; a user's command: as it is */
	bool together;                  /* roofline-run --sweep tune: the winners together */
	int rank;                       /* under a launcher: this process's rank; else -1 */
	char name[200];                 /* "t2-b64-none"; "t2-b64-none-bf16"; "t1-b64-none-r2";
					 * "t2-b64-none-i64" (an input other than the run's,
					 * "-i64x32" when not square); a user's command's:
					 * "threads=2 MALLOC_CONF=..." */
	char *env[RT_SWEEP_MAX_ENV];    /* NAME=VALUE each (owned: rt_sweep_configs_free) */
	size_t nenv;
	char preload[512];              /* the library added to LD_PRELOAD ("": none) */
	char numa[512];                 /* numactl's options ("": no numactl) */
};

/* n configurations and what they own. */
void rt_sweep_configs_free(struct rt_sweep_config *v, size_t n);
/* c as a configuration of a user's command named NAME ("default": the command as it is), of
 * this rank (-1: none): no knob set, the command's own placement, an empty environment. */
void rt_sweep_config_command(struct rt_sweep_config *c, const char *name, int rank);

struct rt_sweep {
	struct {
		enum rt_knob knob;
		long values[RT_SWEEP_MAX_VALUES];
		size_t n;
	} knobs[RT_KNOB_COUNT];
	size_t nknobs;                  /* in the order given: the first varies slowest */
	long input_h, input_w;          /* the run's input (the model's, or --input): set
					 * before rt_sweep_expand; a configuration on another
					 * input says so in its name */
	struct rt_sweep_config *configs;
	size_t nconfigs;
};

/* Add a knob from "KNOB" (its default list) or "KNOB=LIST". Defaults: threads 1, powers of
 * two, all cores; batch the model's /4, /2, x1, x2; affinity none, compact, scatter;
 * precision fp32, bf16; input has none (input=32,64 or input=32x64,...: height x width, a
 * single number a square); ranks 1, powers of two, all cores (MPI ranks rooftraj launches
 * itself, sharing the node's cores and the global batch). Each knob once; values checked
 * (threads 1..PUs, batch 1..65536, input 1..16384, ranks 1..PUs). */
int rt_sweep_add(struct rt_sweep *s, const char *spec, const struct rt_topo *topo,
		 long model_batch, struct rt_err *err);
/* Expand the grid (knobs not swept keep the default's value); the default configuration
 * (threads, batch, affinity and precision: the run the tool's options describe, the input
 * s's) comes first, marked is_default, whether or not the grid holds it. With ranks swept (strong
 * scaling: r ranks share the cores and the global batch), a configuration of r ranks gets
 * default_threads / r threads per rank unless threads are swept too, and the global batch
 * split r ways (its batch is per rank); a batch that r does not divide is an error. */
int rt_sweep_expand(struct rt_sweep *s, unsigned default_threads, long model_batch,
		    enum rt_affinity affinity, enum rt_precision precision, struct rt_err *err);
void rt_sweep_fini(struct rt_sweep *s);
/* Knob k's value v in configuration c (an affinity or a precision as its enum, an input as
 * RT_INPUT_VALUE). */
void rt_sweep_set(struct rt_sweep_config *c, enum rt_knob k, long v);
/* The grid's point k as its digits: idx[d] the value of dimension d (dims[d] values each, the
 * first dimension varying slowest). */
void rt_sweep_digits(size_t k, const size_t *dims, size_t nd, size_t *idx);
/* Knob k of the sweep as "KNOB=V1,V2,...", its values in order: the canonical form, which
 * rt_sweep_add reads back to the same knob (run.cfg records it for --resume). */
void rt_sweep_knob_spec(const struct rt_sweep *s, size_t k, char *buf, size_t size);
/* c's name; base_h x base_w is the run's input (0: c's is the run's). */
void rt_sweep_config_name(struct rt_sweep_config *c, long base_h, long base_w);
/* "HxW" into buf from "H" (a square) or "HxW", each in 1..16384; -EINVAL naming opt. */
int rt_sweep_parse_input(const char *s, long *h, long *w, const char *opt, struct rt_err *err);

/* NAME=VALUE (value NULL: name is NAME=VALUE already) added to c's environment; false when
 * out of memory or past RT_SWEEP_MAX_ENV. */
bool rt_sweep_config_setenv(struct rt_sweep_config *c, const char *name, const char *value);
/* The value c's environment gives NAME (the last set: "" for one unset with "NAME="), or
 * NULL when it sets none. */
const char *rt_sweep_config_getenv(const struct rt_sweep_config *c, const char *name);
/* c's knobs added to its environment as the variables its process gets: OMP_NUM_THREADS
 * (threads 0, a user's command's runtime choice: none), and OMP_PLACES=cores with
 * OMP_PROC_BIND=close (compact) or spread (scatter); none leaves placement to the runtime
 * (both unset: "NAME="), as do several ranks (each pins its own threads: roofline-train
 * --affinity); RT_AFFINITY_COUNT (a user's command's own placement) adds neither. false when
 * out of memory. rt_sweep_expand does it for each configuration. */
bool rt_sweep_config_env(struct rt_sweep_config *c);

/* A user's command's grid (roofline-run's; its knobs set by run/cmd-run.c). */
/* A variable it sweeps (--sweep env:NAME=V1,V2,...): its values, each ended by a NUL in text,
 * value i at text + at[i]. */
#define RT_SWEEP_ENV_VALUES 16
#define RT_SWEEP_ENV_LIST_MAX 1024      /* the longest list (a comma in a value written "\,") */
struct rt_sweep_env {
	char name[48];
	char text[RT_SWEEP_ENV_LIST_MAX];
	unsigned short at[RT_SWEEP_ENV_VALUES];
	size_t n;
};
/* "env:NAME=LIST" (spec) read into k: NAME a variable's name, the list split at each comma but
 * for one written "\," (and a backslash written "\\"), each value one line of text, none
 * empty, none twice. -EINVAL naming spec. */
int rt_sweep_env_parse(struct rt_sweep_env *k, const char *spec, struct rt_err *err);
/* k as "env:NAME=V1,V2,..." added to b, a comma or a backslash of a value written with a
 * backslash before it: the canonical form, which rt_sweep_env_parse reads back to the same
 * (run.cfg records it for --resume). */
void rt_sweep_env_spec(const struct rt_sweep_env *k, struct rt_buf *b);
/* n configurations of a user's command, the first the default, each of rank (-1: none);
 * NULL when out of memory. */
struct rt_sweep_config *rt_sweep_configs_command(size_t n, int rank);
/* KNOB=VALUE added to a configuration's words ("threads=2 affinity=compact A=x"): the value
 * quoted when it holds a space or a quote (A='1 B=2' and A=1 B=2 are two configurations). */
void rt_sweep_word(struct rt_buf *words, const char *knob, const char *value);
/* c named by its words: whole when they fit, else cut with a hash of the whole after them;
 * words emptied for the next; false when out of memory (words failed). */
bool rt_sweep_config_named(struct rt_sweep_config *c, struct rt_buf *words);
/* v[0..n) as the configurations (*out, *nout), each name its own (rows are keyed by it); v
 * freed, and -EINVAL naming a pair of one name, or -ENOMEM where ok is false (building one
 * ran out of memory). */
int rt_sweep_configs_check(struct rt_sweep_config *v, size_t n, bool ok,
			   struct rt_sweep_config **out, size_t *nout, struct rt_err *err);
/* How c's process is launched: *preload, "LD_PRELOAD=" with its library after this
 * environment's own list (kept: a user's preload still loads, first; NULL when c sets none),
 * and *argv, exe (the command's program, found once) with the words of cmd after its first,
 * behind numactl (that path) and its options where c binds (the caller frees both; the words
 * borrowed). */
int rt_sweep_config_launch(const struct rt_sweep_config *c, const char *numactl,
			   const char *exe, char *const *cmd, char **preload, char ***argv,
			   struct rt_err *err);

#endif
