/* cmd-framework.c: the frameworks roofline-run knows, what each reads and runs, and the
 * threads knob as the variable the framework reads */
#include "config.h"
#include "run/cmd-framework.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* PyTorch 2.x's oneDNN runs on its OpenMP (GNU's libgomp in the PyPI wheel; conda's builds
 * load Intel's); TensorFlow 2.x's on its own Eigen thread pool, sized by its intra-op count
 * (TF_NUM_INTRAOP_THREADS, read once at start-up; 0 or unset: every CPU). What each runs
 * outside oneDNN is as their logs of tests/data/frameworks show it. */
static const struct rt_cmd_framework frameworks[RT_CMD_FW_COUNT] = {
	[RT_CMD_FW_PYTORCH] = {
		.word = "pytorch", .name = "PyTorch", .runtime = "OpenMP",
		.threads_var = "OMP_NUM_THREADS", .openmp = true,
		.outside = "ATen's own operators (pooling, activations, losses, optimizer steps), "
			   "BLAS (MKL's sgemm for fp32 linear layers), the interpreter, start-up",
	},
	[RT_CMD_FW_TENSORFLOW] = {
		.word = "tensorflow", .name = "TensorFlow", .runtime = "threadpool",
		.threads_var = "TF_NUM_INTRAOP_THREADS", .openmp = false,
		.outside = "Eigen's operators (activation and bias gradients, losses, optimizer "
			   "updates), graph tracing, the interpreter, start-up",
	},
};

int rt_cmd_framework_parse(enum rt_cmd_fw *fw, const char *word, struct rt_err *err)
{
	if (!strcmp(word, "auto")) {
		*fw = RT_CMD_FW_AUTO;
		return 0;
	}
	for (int i = 0; i < RT_CMD_FW_COUNT; i++)
		if (frameworks[i].word && !strcmp(word, frameworks[i].word)) {
			*fw = (enum rt_cmd_fw)i;
			return 0;
		}
	return rt_err_set(err, -EINVAL, "--framework: '%s' is not one of %s", word,
			  RT_CMD_FW_WORDS);
}

const char *rt_cmd_framework_word(enum rt_cmd_fw fw)
{
	return fw > RT_CMD_FW_AUTO && fw < RT_CMD_FW_COUNT ? frameworks[fw].word : "auto";
}

const struct rt_cmd_framework *rt_cmd_framework_of(enum rt_cmd_fw fw, const char *runtime)
{
	if (fw > RT_CMD_FW_AUTO && fw < RT_CMD_FW_COUNT)
		return &frameworks[fw];
	for (int i = RT_CMD_FW_AUTO + 1; runtime && *runtime && i < RT_CMD_FW_COUNT; i++)
		if (!strcmp(runtime, frameworks[i].runtime))
			return &frameworks[i];
	return NULL;
}

bool rt_cmd_framework_env(enum rt_cmd_fw fw, struct rt_sweep_config *c)
{
	const unsigned threads = c->threads;
	char n[16];
	bool ok;

	/* the engine's variables (OMP_NUM_THREADS, OMP_PLACES, OMP_PROC_BIND), less
	 * OMP_NUM_THREADS for TensorFlow: no OpenMP there reads it */
	if (fw == RT_CMD_FW_TENSORFLOW)
		c->threads = 0;
	ok = rt_sweep_config_env(c);
	c->threads = threads;
	snprintf(n, sizeof(n), "%u", threads);
	if (ok && threads && fw != RT_CMD_FW_PYTORCH)
		ok = rt_sweep_config_setenv(c, frameworks[RT_CMD_FW_TENSORFLOW].threads_var, n);
	return ok;
}

bool rt_cmd_framework_inert(const struct rt_cmd_framework *f, const char *var)
{
	return f && !f->openmp && (!strncmp(var, "OMP_", 4) || !strncmp(var, "KMP_", 4) ||
				   !strncmp(var, "GOMP_", 5));
}

int rt_cmd_framework_refuse(enum rt_cmd_fw fw, const char *knob, const char *var,
			    struct rt_err *err)
{
	const struct rt_cmd_framework *f = rt_cmd_framework_of(fw, NULL);

	if (!rt_cmd_framework_inert(f, var))
		return 0;
	return rt_err_set(err, -EINVAL, "%s: %s: no effect on %s (--framework %s): its oneDNN "
			  "runs on %s's own thread pool (runtime %s), which no OpenMP runtime "
			  "places or sizes; its threads: --sweep threads (%s)", knob, var, f->name,
			  f->word, f->name, f->runtime, f->threads_var);
}
