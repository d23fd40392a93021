/* cmd-framework.h: the framework a command's oneDNN works for, as the user says it
 * (--framework) or the default's log shows it (its runtime line: OpenMP for PyTorch and the
 * trainer, "threadpool" for TensorFlow's own Eigen pool): which variable the threads knob
 * sets, which knobs it cannot read, what it runs outside oneDNN and its own way to bf16. */
#ifndef RT_CMD_FRAMEWORK_H
#define RT_CMD_FRAMEWORK_H

#include <stdbool.h>
#include <stddef.h>
#include "base/err.h"
#include "sweep/sweep.h"

/* --framework: auto (known from the run), or said */
enum rt_cmd_fw {
	RT_CMD_FW_AUTO,
	RT_CMD_FW_PYTORCH,      /* and any program whose oneDNN runs on OpenMP */
	RT_CMD_FW_TENSORFLOW,
	RT_CMD_FW_COUNT
};

struct rt_cmd_framework {
	const char *word;       /* --framework's word: "pytorch", "tensorflow" */
	const char *name;       /* "PyTorch", "TensorFlow" */
	const char *runtime;    /* the CPU runtime oneDNN's log names under it */
	const char *threads_var;        /* what its intra-op thread count reads */
	bool openmp;            /* an OpenMP runtime: reads OMP_* (KMP_* only Intel's) */
	const char *outside;    /* what it runs outside oneDNN, in words */
};

/* The words --framework takes, for messages and --help: "auto, pytorch, tensorflow". */
#define RT_CMD_FW_WORDS "auto, pytorch, tensorflow"

/* --framework WORD into *fw; -EINVAL naming the words. */
int rt_cmd_framework_parse(enum rt_cmd_fw *fw, const char *word, struct rt_err *err);
/* fw's word ("auto", ...). */
const char *rt_cmd_framework_word(enum rt_cmd_fw fw);
/* The framework said (fw), or for auto the one whose runtime oneDNN's log names (runtime:
 * "OpenMP", "threadpool"; "" or NULL: not known); NULL when none. Borrowed, static. */
const struct rt_cmd_framework *rt_cmd_framework_of(enum rt_cmd_fw fw, const char *runtime);

/* c's threads and affinity (the sweep engine's knobs) as the variables fw reads: threads as
 * OMP_NUM_THREADS (pytorch), TF_NUM_INTRAOP_THREADS (tensorflow), or both (auto: each
 * framework reads its own and not the other's); affinity as OMP_PLACES and OMP_PROC_BIND.
 * false when out of memory. */
bool rt_cmd_framework_env(enum rt_cmd_fw fw, struct rt_sweep_config *c);

/* Whether knob (its words for a message: "--sweep affinity", "--sweep env:KMP_BLOCKTIME"),
 * which sets variable var, can act on fw: -EINVAL saying why not (an OpenMP variable under
 * TensorFlow's pool, which no OpenMP runtime reads), 0 where it can or fw is auto. */
int rt_cmd_framework_refuse(enum rt_cmd_fw fw, const char *knob, const char *var,
			    struct rt_err *err);

/* Whether variable var has no effect under framework f: an OpenMP runtime's (OMP_, KMP_,
 * GOMP_) where f runs no OpenMP. */
bool rt_cmd_framework_inert(const struct rt_cmd_framework *f, const char *var);

#endif
