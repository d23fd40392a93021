/* cmd-run.c: roofline-run's work: configurations, fresh processes (their repeats by the sweep
 * engine's loop), the log taken out of the command's output and counted, rows, the claim
 * confirmed, run.cfg's request (its writer: sweep/runrec.c) and --resume (the summary:
 * cmd-summary.c) */
#define _GNU_SOURCE
#include "config.h"
#include "run/cmd-run.h"
#include "run/cmd-ranks.h"
#include "run/cmd-results.h"
#include "run/cmd-summary.h"
#include "base/cli.h"
#include "base/options.h"
#include "base/spawn.h"
#include "base/util.h"
#include "counters/onednn-log.h"
#include "counters/pmu.h"
#include "machine/busy.h"
#include "machine/cpu.h"
#include "machine/topo.h"
#include "node/profile.h"
#include "node/roofs.h"
#include "results/plot.h"
#include "results/points.h"
#include "results/summary.h"
#include "sweep/engine.h"
#include "sweep/resdir.h"
#include "sweep/runrec.h"
#include "base/cfgread.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <regex.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONFIGS 4096

/* The variables a knob sets in each configuration's environment (owner: the knob), and those
 * roofline-run sets itself for its log (owner NULL): no env: knob may sweep one of them as
 * well, or a configuration would carry it twice (the OpenMP runtime reading one, a shell
 * the other). */
static const struct {
	const char *var, *owner;
} knob_vars[] = {
	{ "OMP_NUM_THREADS", "threads" },
	{ "TF_NUM_INTRAOP_THREADS", "threads" },
	{ "OMP_PLACES", "affinity" },
	{ "OMP_PROC_BIND", "affinity" },
	{ "LD_PRELOAD", "allocator" },
	{ "ONEDNN_DEFAULT_FPMATH_MODE", "fpmath" },
	{ "DNNL_DEFAULT_FPMATH_MODE", "fpmath" },
	{ "ONEDNN_MAX_CPU_ISA", "isa" },
	{ "DNNL_MAX_CPU_ISA", "isa" },
	{ "ONEDNN_VERBOSE", NULL },
	{ "DNNL_VERBOSE", NULL },
};

/* The engine's knob k as o sweeps it (threads, affinity), or NULL. */
static const __typeof__(((struct rt_sweep *)0)->knobs[0]) *
grid_knob(const struct rt_cmd_run_opts *o, enum rt_knob k)
{
	for (size_t i = 0; o->grid && i < o->grid->nknobs; i++)
		if (o->grid->knobs[i].knob == k)
			return &o->grid->knobs[i];
	return NULL;
}

/* Whether o sweeps the knob named w already ("threads", "affinity", a named knob; tune
 * counts as each of them). */
static bool knob_given(const struct rt_cmd_run_opts *o, const char *w)
{
	if (o->tune)
		return true;
	if (!strcmp(w, "threads") || !strcmp(w, "affinity"))
		return grid_knob(o, *w == 't' ? RT_KNOB_THREADS : RT_KNOB_AFFINITY);
	for (size_t i = 0; i < o->nknobs; i++)
		if (!strcmp(rt_cmd_knob_name(o->knobs[i].kind), w))
			return true;
	return false;
}

/* Whether knob (an env: knob's variable, or "threads", "affinity") sets a variable another
 * knob of o sets too: -EINVAL naming both. */
static int knob_collides(const struct rt_cmd_run_opts *o, const char *env, const char *knob,
			 struct rt_err *err)
{
	for (size_t i = 0; i < sizeof(knob_vars) / sizeof(knob_vars[0]); i++) {
		const char *v = knob_vars[i].var, *w = knob_vars[i].owner;

		if (env && !strcmp(env, v) && !w)
			return rt_err_set(err, -EINVAL, "--sweep env:%s: roofline-run sets %s itself "
					  "(oneDNN's log: --verbose-value)", env, v);
		if (env && !strcmp(env, v) && knob_given(o, w))
			return rt_err_set(err, -EINVAL, "--sweep env:%s and --sweep %s: both set %s "
					  "(sweep it with one of them)", env, o->tune ? "tune" : w, v);
		for (size_t k = 0; knob && w && !strcmp(knob, w) && k < o->nenv; k++)
			if (!strcmp(o->env[k].name, v))
				return rt_err_set(err, -EINVAL, "--sweep %s and --sweep env:%s: both "
						  "set %s (sweep it with one of them)", knob, v, v);
	}
	return 0;
}

/* --sweep tune (the alternatives this node offers) or tune=KNOB:VALUE,... (those): each
 * alternative checked as its knob is, alone. */
static int tune_add(struct rt_cmd_run_opts *o, const char *spec, struct rt_err *err)
{
	char buf[1024], *items[RT_CMD_TUNE_MAX + 1], lacked[800], (*alt)[64];
	const int cpus = rt_cpu_usable(NULL);
	size_t n;

	if (o->tune || grid_knob(o, RT_KNOB_THREADS) || grid_knob(o, RT_KNOB_AFFINITY) ||
	    o->nenv || o->nknobs)
		return rt_err_set(err, -EINVAL, "--sweep %s: tune chooses its knobs itself: give it "
				  "alone", spec);
	o->tune = true;
	if (!(alt = o->tune_alt = calloc(RT_CMD_TUNE_MAX, sizeof(*alt))) ||
	    !(o->tune_knob = calloc(RT_CMD_TUNE_MAX, sizeof(*o->tune_knob))))
		return rt_err_set(err, -ENOMEM, "out of memory");
	/* the alternatives this node offers (those given: none), what it lacks said either way */
	n = rt_cmd_tune_alternatives(alt, spec[4] ? 0 : RT_CMD_TUNE_MAX,
				     cpus > 0 ? (unsigned)cpus : 1, lacked, sizeof(lacked));
	if (!(o->tune_lacked = strdup(lacked)))
		return rt_err_set(err, -ENOMEM, "out of memory");
	if (spec[4]) {
		int k = rt_opt_split_list(buf, sizeof(buf), items, RT_CMD_TUNE_MAX, "--sweep tune",
					  spec + 5, err);

		if (k < 0)
			return k;
		for (int i = 0; i < k; i++) {
			char *colon = strchr(items[i], ':');

			if (!colon || strlen(items[i]) >= sizeof(alt[n]))
				return rt_err_set(err, -EINVAL, "--sweep tune=...: '%s': KNOB:VALUE "
						  "expected (threads:8, allocator:jemalloc)", items[i]);
			*colon = '=';
			memcpy(alt[n++], items[i], strlen(items[i]) + 1);
		}
	}
	for (size_t i = 0; i < n; i++) {
		enum rt_cmd_knob_kind kind;
		long t;

		for (size_t j = 0; j < i; j++)
			if (!strcmp(alt[i], alt[j]))
				return rt_err_set(err, -EINVAL, "--sweep tune: '%s' twice", alt[i]);
		if (!strncmp(alt[i], "threads=", 8)) {
			if (rt_opt_parse_long(&t, "--sweep tune: threads", alt[i] + 8, 1, 4096, err))
				return -EINVAL;
			o->tune_threads[i] = (unsigned)t;
		} else if (!rt_cmd_knob_named(alt[i], &kind) || !strchr(alt[i], '=') ||
			   strchr(strchr(alt[i], '='), ',')) {
			return rt_err_set(err, -EINVAL, "--sweep tune: '%s': one value of threads, "
					  "allocator, fpmath, isa or numa expected", alt[i]);
		} else if (rt_cmd_knob_parse(&o->tune_knob[i], alt[i], &o->numactl, err)) {
			return -EINVAL;
		}
	}
	o->ntune = n;
	return 0;
}

int rt_cmd_sweep_add(struct rt_cmd_run_opts *o, const char *spec, struct rt_err *err)
{
	enum rt_cmd_knob_kind kind;
	int rc;

	if (!strncmp(spec, "tune", 4) && (!spec[4] || spec[4] == '='))
		return tune_add(o, spec, err);
	if (o->tune)
		return rt_err_set(err, -EINVAL, "--sweep %s: tune chooses its knobs itself: give "
				  "it alone", spec);
	if (rt_cmd_knob_named(spec, &kind)) {
		const char *name = rt_cmd_knob_name(kind);

		if (knob_given(o, name))
			return rt_err_set(err, -EINVAL, "--sweep %s: given twice", name);
		if (knob_collides(o, NULL, name, err))
			return -EINVAL;
		if (!o->knobs && !(o->knobs = calloc(RT_CMD_NKNOBS, sizeof(*o->knobs))))
			return rt_err_set(err, -ENOMEM, "out of memory");
		if (rt_cmd_knob_parse(&o->knobs[o->nknobs], spec, &o->numactl, err))
			return -EINVAL;
		o->nknobs++;
		return 0;
	}
	if (!strncmp(spec, "env:", 4)) {
		struct rt_sweep_env k;

		if ((rc = rt_sweep_env_parse(&k, spec, err)))
			return rc;
		if (o->nenv == RT_CMD_MAX_ENV)
			return rt_err_set(err, -EINVAL, "--sweep %s: at most %d environment "
					  "variables", spec, RT_CMD_MAX_ENV);
		for (size_t i = 0; i < o->nenv; i++)
			if (!strcmp(o->env[i].name, k.name))
				return rt_err_set(err, -EINVAL, "--sweep %s: %s swept twice", spec,
						  k.name);
		if (knob_collides(o, k.name, NULL, err))
			return -EINVAL;
		if (!o->env && !(o->env = calloc(RT_CMD_MAX_ENV, sizeof(*o->env))))
			return rt_err_set(err, -ENOMEM, "out of memory");
		o->env[o->nenv++] = k;
		return 0;
	}
	if ((!strncmp(spec, "threads", 7) && (!spec[7] || spec[7] == '=')) ||
	    (!strncmp(spec, "affinity", 8) && (!spec[8] || spec[8] == '='))) {
		/* the trainer's grammar, lists and checks: the sweep engine's knobs (threads:
		 * 1, powers of two, all cores; 1..the PUs) */
		struct rt_topo *topo = NULL;

		if (knob_collides(o, NULL, *spec == 't' ? "threads" : "affinity", err))
			return -EINVAL;
		if (!o->grid && !(o->grid = calloc(1, sizeof(*o->grid))))
			return rt_err_set(err, -ENOMEM, "out of memory");
		if (!(rc = rt_topo_create(&topo, NULL, err)))
			rc = rt_sweep_add(o->grid, spec, topo, 0, err);
		rt_topo_destroy(topo);
		return rc;
	}
	return rt_err_set(err, -EINVAL, "--sweep %s: threads[=LIST], affinity[=LIST], "
			  "allocator[=LIST], fpmath[=LIST], isa=LIST, numa[=LIST], tune or "
			  "env:NAME=V1,V2,... expected", spec);
}

/* Where regex (a POSIX ERE) holds a back-reference (\1..\9 outside a bracket expression:
 * glibc's extension), or NULL. */
static const char *backref(const char *regex)
{
	for (const char *p = regex; *p; p++) {
		if (*p == '\\') {
			if (p[1] >= '1' && p[1] <= '9')
				return p;
			if (p[1])
				p++;
		} else if (*p == '[') {
			/* to its closing ']': one first (after '^') is a member, as are the
			 * classes [:alpha:], [=a=] and [.-.] */
			p++;
			if (*p == '^')
				p++;
			if (*p == ']')
				p++;
			while (*p && *p != ']') {
				if (*p == '[' && (p[1] == ':' || p[1] == '=' || p[1] == '.')) {
					const char end[3] = { p[1], ']', '\0' };
					const char *q = strstr(p + 2, end);

					p = q ? q + 1 : p + 1;
				}
				p++;
			}
			if (!*p)
				break;
		}
	}
	return NULL;
}

int rt_cmd_throughput_set(struct rt_cmd_run_opts *o, const char *regex, struct rt_err *err)
{
	regex_t re;
	char msg[200], *copy;
	const char *br;
	int e;

	if (strlen(regex) > 255)
		return rt_err_set(err, -EINVAL, "--throughput: a regex of at most 255 characters "
				  "expected");
	if (!*regex)
		return rt_err_set(err, -EINVAL, "--throughput: an empty regex matches every line");
	if ((e = regcomp(&re, regex, REG_EXTENDED))) {
		regerror(e, &re, msg, sizeof(msg));
		return rt_err_set(err, -EINVAL, "--throughput: '%s': %s", regex, msg);
	}
	/* matched in the loop that keeps the time limit: a back-reference takes time exponential
	 * in a line's length (POSIX EREs have none; glibc's matcher backtracks on them) */
	if ((br = backref(regex))) {
		regfree(&re);
		return rt_err_set(err, -EINVAL, "--throughput: '%s': the back-reference '%.2s' "
				  "is not accepted (matching one can take time exponential in a "
				  "line's length)", regex, br);
	}
	if (!(copy = strdup(regex))) {
		regfree(&re);
		return rt_err_set(err, -ENOMEM, "out of memory");
	}
	if (o->throughput)
		regfree(&o->throughput_re);
	free(o->throughput);
	o->throughput_re = re;
	o->throughput = copy;
	return 0;
}

void rt_cmd_run_opts_fini(struct rt_cmd_run_opts *o)
{
	if (o->throughput)
		regfree(&o->throughput_re);
	if (o->grid)
		rt_sweep_fini(o->grid);
	free(o->throughput);
	free(o->grid);
	free(o->env);
	free(o->knobs);
	free(o->numactl);
	free(o->tune_alt);
	free(o->tune_knob);
	free(o->tune_lacked);
}

/* A named knob's value in configuration c (the library to preload, a variable, numactl's
 * options), "KNOB=WORD" added to its name's words in full; false when out of memory. */
static bool apply_knob(struct rt_sweep_config *c, const struct rt_cmd_knob *k,
		       const struct rt_cmd_knob_value *v, struct rt_buf *full)
{
	if (k->kind == RT_CMD_KNOB_ALLOCATOR)
		snprintf(c->preload, sizeof(c->preload), "%s", v->arg);
	else if (k->kind == RT_CMD_KNOB_NUMA)
		snprintf(c->numa, sizeof(c->numa), "%s", v->arg);
	else if (!rt_sweep_config_setenv(c, v->arg, NULL))
		return false;
	rt_sweep_word(full, rt_cmd_knob_name(k->kind), v->word);
	return true;
}

/* The engine's knobs that c sets (threads, affinity), their variables added to its
 * environment and their words to full; false when out of memory. */
static bool apply_grid(const struct rt_cmd_run_opts *o, struct rt_sweep_config *c,
		       struct rt_buf *full)
{
	char n[16];

	snprintf(n, sizeof(n), "%u", c->threads);
	if (c->threads)
		rt_sweep_word(full, "threads", n);
	if (c->affinity != RT_AFFINITY_COUNT)
		rt_sweep_word(full, "affinity", rt_affinity_name(c->affinity));
	return rt_cmd_framework_env(o->framework, c);
}

/* Alternative i of --sweep tune in c, its words added to full; false when out of memory. */
static bool apply_tune(const struct rt_cmd_run_opts *o, size_t i, struct rt_sweep_config *c,
		       struct rt_buf *full)
{
	if (!o->tune_threads[i])
		return apply_knob(c, &o->tune_knob[i], &o->tune_knob[i].v[0], full);
	c->threads = o->tune_threads[i];
	return apply_grid(o, c, full);
}

/* --sweep tune's configurations: the default, each alternative alone, and (once chosen) the
 * alternatives that won together. */
static int build_tune(const struct rt_cmd_run_opts *o, int rank, struct rt_sweep_config **out,
		      size_t *nout, struct rt_err *err)
{
	const size_t total = 1 + o->ntune + (o->ntogether > 1);
	struct rt_sweep_config *v = rt_sweep_configs_command(total, rank);
	struct rt_buf full;
	bool ok = true;

	if (!v)
		return rt_err_set(err, -ENOMEM, "out of memory");
	rt_buf_init(&full);
	for (size_t i = 0; i < o->ntune; i++)
		ok = ok && apply_tune(o, i, &v[1 + i], &full) &&
		     rt_sweep_config_named(&v[1 + i], &full);
	if (o->ntogether > 1) {
		for (size_t j = 0; j < o->ntogether; j++)
			ok = ok && apply_tune(o, o->tune_together[j], &v[total - 1], &full);
		ok = ok && rt_sweep_config_named(&v[total - 1], &full);
		v[total - 1].together = true;
	}
	rt_buf_fini(&full);
	return rt_sweep_configs_check(v, total, ok, out, nout, err);
}

/* The default (the environment untouched) first, then the grid, the first knob slowest:
 * threads, affinity, the named knobs in the order given, then each environment variable.
 * --sweep tune: build_tune. */
static int build_configs(const struct rt_cmd_run_opts *o, int rank, struct rt_sweep_config **out,
			 size_t *nout, struct rt_err *err)
{
	size_t dims[2 + RT_CMD_NKNOBS + RT_CMD_MAX_ENV], nd = 0, total = 1;
	struct rt_sweep_config *v;
	struct rt_buf full;
	bool ok = true;

	/* a knob the framework said cannot read is refused before anything runs */
	if (grid_knob(o, RT_KNOB_AFFINITY) &&
	    rt_cmd_framework_refuse(o->framework, "--sweep affinity",
				   "OMP_PLACES and OMP_PROC_BIND", err))
		return -EINVAL;
	for (size_t i = 0; i < o->nenv; i++) {
		char knob[64];

		snprintf(knob, sizeof(knob), "--sweep env:%s", o->env[i].name);
		if (rt_cmd_framework_refuse(o->framework, knob, o->env[i].name, err))
			return -EINVAL;
	}
	if (o->tune)
		return build_tune(o, rank, out, nout, err);
	for (size_t i = 0; o->grid && i < o->grid->nknobs; i++)
		dims[nd++] = o->grid->knobs[i].n;
	for (size_t i = 0; i < o->nknobs; i++)
		dims[nd++] = o->knobs[i].n;
	for (size_t i = 0; i < o->nenv; i++)
		dims[nd++] = o->env[i].n;
	for (size_t i = 0; i < nd; i++)
		total *= dims[i];
	if (!nd)
		total = 0;
	if (total + 1 > MAX_CONFIGS)
		return rt_err_set(err, -EINVAL, "--sweep: %zu configurations (at most %d)", total,
				  MAX_CONFIGS - 1);
	if (!(v = rt_sweep_configs_command(total + 1, rank)))
		return rt_err_set(err, -ENOMEM, "out of memory");
	rt_buf_init(&full);
	for (size_t k = 0; k < total && ok; k++) {
		struct rt_sweep_config *c = &v[k + 1];
		size_t at = 0, idx[2 + RT_CMD_NKNOBS + RT_CMD_MAX_ENV];

		rt_sweep_digits(k, dims, nd, idx);
		/* the engine's knobs' variables; what is not swept is left as the command's
		 * environment has it */
		for (size_t i = 0; o->grid && i < o->grid->nknobs; i++, at++)
			rt_sweep_set(c, o->grid->knobs[i].knob, o->grid->knobs[i].values[idx[at]]);
		ok = ok && apply_grid(o, c, &full);
		for (size_t i = 0; i < o->nknobs; i++, at++)
			ok = ok && apply_knob(c, &o->knobs[i], &o->knobs[i].v[idx[at]], &full);
		for (size_t i = 0; i < o->nenv; i++, at++) {
			const char *val = o->env[i].text + o->env[i].at[idx[at]];

			ok = ok && rt_sweep_config_setenv(c, o->env[i].name, val);
			rt_sweep_word(&full, o->env[i].name, val);
		}
		ok = ok && rt_sweep_config_named(c, &full);
	}
	rt_buf_fini(&full);
	return rt_sweep_configs_check(v, total + 1, ok, out, nout, err);
}

/* What one process's output goes through. */
/* The longest line of the command's output read for its throughput: whole, never cut (its
 * last figure is the one read), and bounded, since glibc's matcher can take time up to the
 * square of a line's length (a 16 KiB line at worst about half a second here; the time
 * limit and an interrupt are checked between lines). */
#define THROUGHPUT_LINE_MAX 16384
struct line_acc {
	char buf[THROUGHPUT_LINE_MAX + 1];
	size_t len;
	bool over;                      /* past THROUGHPUT_LINE_MAX: skipped to its end */
};

struct stream {
	const struct rt_cmd_run_opts *o;
	bool count;                     /* the log is on: read it */
	struct rt_onednn_reader rd;
	struct rt_onednn_tally *t;
	FILE *log;                      /* the raw log, or NULL */
	unsigned long *lines;           /* oneDNN's lines that came */
	struct line_acc out, err;       /* each stream's line being assembled for its figure */
	const char *preload;            /* the library its configuration preloads ("": none) */
	char unloaded[400];             /* ld.so's words when it did not preload it ("": it did) */
	unsigned long overlong;         /* lines over THROUGHPUT_LINE_MAX: not read */
	double *figs;                   /* the throughput figures, images/s, in order */
	size_t nfigs, capfigs;
	/* the work window: the first and last executions, by oneDNN's timestamps (ms, its
	 * clock: gettimeofday) where every one has one, and by when their lines came (rt_now) */
	unsigned long execs;
	bool stamped;
	double first_stamp, last_end;
	double first_came, first_ms, last_came;
};

/* The most throughput figures kept (a progress bar redrawn for days): later ones dropped. */
#define MAX_FIGURES (1u << 20)

static void figure_add(struct stream *s, double v)
{
	if (!isfinite(v) || v <= 0)
		return;
	if (s->nfigs == s->capfigs) {
		const size_t nc = s->capfigs ? 2 * s->capfigs : 64;
		double *f;

		if (nc > MAX_FIGURES || !(f = realloc(s->figs, nc * sizeof(*f))))
			return;
		s->figs = f;
		s->capfigs = nc;
	}
	s->figs[s->nfigs++] = v;
}

/* The number that ends at end (back to its first character), or NAN. */
static double number_before(const char *line, const char *end)
{
	const char *p = end;
	char buf[64], *stop;
	double v;

	while (p > line && strchr("0123456789.eE+-", p[-1]))
		p--;
	if (p == end || (size_t)(end - p) >= sizeof(buf))
		return NAN;
	snprintf(buf, sizeof(buf), "%.*s", (int)(end - p), p);
	v = strtod(buf, &stop);
	return *stop ? NAN : v;
}

/* A training's throughput in a line of its output, as trainings print it: N images/s (img/s,
 * samples/s, examples/sec, examples/s) after the unit ("images/s 735.2", "images/s: 735.2",
 * "img/s=735") or before it where the unit ends the line or a part of it ("1604.9 images/s",
 * "735 img/s, loss 0.4"); the last on the line wins.
 * Searched in place (every line of the command passes here), copied only when found. */
static void read_images_per_s(const char *line, size_t len, double *out)
{
	static const char *const units[] = { "images/s", "img/s", "samples/s", "examples/sec",
					      "examples/s" };

	for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++) {
		const size_t ul = strlen(units[u]);
		const char *from = line, *hit;

		while ((hit = memmem(from, (size_t)(line + len - from), units[u], ul))) {
			const char *after = hit + ul, *q = hit;
			char buf[64], *p, *end;
			double v = NAN;

			from = hit + 1;
			/* a longer unit is another's ("examples/s" of "examples/sec") */
			if (after < line + len && isalpha((unsigned char)*after))
				continue;
			snprintf(buf, sizeof(buf), "%.*s", (int)((size_t)(line + len - after) <
								 sizeof(buf) - 1 ? (size_t)(line + len - after) :
								 sizeof(buf) - 1), after);
			p = buf;
			while (*p == ':' || *p == ' ' || *p == '=')
				p++;
			if (isdigit((unsigned char)*p) || *p == '.') {
				v = strtod(p, &end);
				if (end == p)
					v = NAN;
			}
			/* before the unit only where nothing else follows it ("N img/s", "N img/s,"
			 * "N img/s]"): in "loss 0.5 examples/sec nan" the 0.5 is the loss */
			if (isnan(v) && strchr(",;|)]\r\n", *p)) {
				while (q > line && q[-1] == ' ')
					q--;
				v = number_before(line, q);
			}
			if (isfinite(v) && v > 0)
				*out = v;
		}
	}
}

/* An iteration rate as tqdm prints it, the last on the line: "12.3it/s" (iterations a
 * second) or "1.23s/it" (seconds an iteration); NAN when none. */
static double read_iter_rate(const char *line, size_t len)
{
	static const char *const units[] = { "it/s", "s/it" };
	double got = NAN;

	for (size_t u = 0; u < 2; u++) {
		const char *from = line, *hit;

		while ((hit = memmem(from, (size_t)(line + len - from), units[u], 4))) {
			const char *after = hit + 4;
			double v;

			from = hit + 1;
			/* "12.3it/s" and "1.2s/it" alone: not "fit/s", "s/item" */
			if (after < line + len && isalpha((unsigned char)*after))
				continue;
			v = number_before(line, hit);
			if (isfinite(v) && v > 0)
				got = u == 0 ? v : 1 / v;
		}
	}
	return got;
}

/* The figure --throughput's regex finds in a line (the last match's), or NAN: the whole line
 * (len bytes, a NUL byte in it a character like any other: REG_STARTEND), without its end. */
static double read_regex(const regex_t *re, const char *line, size_t len)
{
	char num[64], *end;
	regmatch_t m[2];
	double got = NAN;
	int flags = 0;

	for (size_t at = 0; at < len; flags = REG_NOTBOL) {
		const regmatch_t *g;
		regoff_t gl;
		double v;

		m[0].rm_so = (regoff_t)at;
		m[0].rm_eo = (regoff_t)len;
		if (regexec(re, line, 2, m, flags | REG_STARTEND))
			break;
		g = m[1].rm_so >= 0 ? &m[1] : &m[0];
		gl = g->rm_eo - g->rm_so;
		if (gl > 0 && gl < (regoff_t)sizeof(num)) {
			snprintf(num, sizeof(num), "%.*s", (int)gl, line + g->rm_so);
			v = strtod(num, &end);
			if (end != num && !*end && isfinite(v) && v > 0)
				got = v;
		}
		at = (size_t)m[0].rm_eo > at ? (size_t)m[0].rm_eo : at + 1;
	}
	return got;
}

/* A line of the command's output (stdout or stderr, without its end) read for its
 * throughput. */
static void read_throughput(struct stream *s, const char *line, size_t len)
{
	double v = NAN;

	if (s->o->throughput) {
		v = read_regex(&s->o->throughput_re, line, len);
	} else {
		read_images_per_s(line, len, &v);
		if (isnan(v) && s->o->batch)
			v = read_iter_rate(line, len) * s->o->batch;
	}
	figure_add(s, v);
}

/* Whether line (of standard error) is ld.so saying it did not preload the configuration's
 * library: "ERROR: ld.so: object 'PATH' from LD_PRELOAD cannot be preloaded (WHY): ignored."
 * (glibc's rtld.c); then the run is not of its configuration (the line kept to say why). */
static void preload_refused(struct stream *s, const char *line)
{
	static const char head[] = "ERROR: ld.so: object '";
	static const char tail[] = "' from LD_PRELOAD cannot be preloaded";
	const size_t pl = strlen(s->preload);

	if (!strncmp(line, head, sizeof(head) - 1) &&
	    !strncmp(line + sizeof(head) - 1, s->preload, pl) &&
	    !strncmp(line + sizeof(head) - 1 + pl, tail, sizeof(tail) - 1))
		snprintf(s->unloaded, sizeof(s->unloaded), "%.399s", line);
}

/* The line a has assembled, ended (by its newline or carriage return, or by the end of the
 * output): read for its throughput, unless it was too long to read whole. */
static void throughput_end(struct stream *s, struct line_acc *a)
{
	if (a->over) {
		s->overlong++;
	} else if (a->len) {
		a->buf[a->len] = '\0';
		read_throughput(s, a->buf, a->len);
		if (a == &s->err && *s->preload && !*s->unloaded)
			preload_refused(s, a->buf);
	}
	a->len = 0;
	a->over = false;
}

/* Output of either stream, as it comes, into its lines: the same lines on both, ended by a
 * newline or by the carriage return a progress bar redraws with. */
static void throughput_feed(struct stream *s, struct line_acc *a, const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (buf[i] == '\n' || buf[i] == '\r')
			throughput_end(s, a);
		else if (a->len < THROUGHPUT_LINE_MAX)
			a->buf[a->len++] = buf[i];
		else
			a->over = true;
	}
}

static void on_line(void *ctx, const char *line, size_t len)
{
	struct stream *s = ctx;
	struct rt_onednn_exec e;
	enum rt_onednn_line k = s->count ? rt_onednn_read(&s->rd, line, len, &e) :
				RT_ONEDNN_OTHER;

	if (k == RT_ONEDNN_OTHER) {
		fwrite(line, 1, len, stdout);
		throughput_feed(s, &s->out, line, len);
		return;
	}
	if (s->log)
		fwrite(line, 1, len, s->log);
	(*s->lines)++;
	if (k == RT_ONEDNN_EXEC) {
		const double now = rt_now();

		if (!s->execs++) {
			s->first_came = now;
			s->first_ms = e.ms;
			s->stamped = e.stamp_ms > 0;
			s->first_stamp = e.stamp_ms;
			s->last_end = 0;
		}
		s->last_came = now;
		if (e.stamp_ms <= 0) {
			s->stamped = false;
		} else {
			s->first_stamp = fmin(s->first_stamp, e.stamp_ms);
			s->last_end = fmax(s->last_end, e.stamp_ms + e.ms);
		}
	}
	rt_onednn_tally_line(s->t, k, &e, line, len);
}

/* The command's standard error passes through as it comes; its lines (ended by a newline, or
 * by the carriage return a progress bar redraws with) are read for its throughput too: many
 * trainings print it there (logging, tqdm, warnings all go to stderr). */
static void on_err(void *ctx, const char *buf, size_t len)
{
	struct stream *s = ctx;

	fwrite(buf, 1, len, stderr);
	throughput_feed(s, &s->err, buf, len);
}

/* The steady state of a command's throughput figures: the median of those after the first
 * (the first covers the start: primitives created, code generated, caches cold; the median
 * holds against one odd figure, where the last alone would be one sample), the first alone
 * where it printed one. NAN: none. */
double rt_cmd_steady(double *v, size_t n)
{
	if (!n)
		return NAN;
	return n == 1 ? v[0] : rt_median(v + 1, n - 1);
}

/* The run's start-up and work window (r->wall and the stream's first and last executions):
 * by oneDNN's timestamps where each execution had one (gettimeofday's clock, mapped to
 * rt_now()'s by their offset off, taken around the run), else by when the lines came (the
 * first execution's start: its line's arrival less its time). Held within the run: a start
 * before the command's is its start, an end after its exit its exit, so that start-up +
 * window <= wall whatever the clocks did. */
static void window_of(const struct stream *s, double started, double off,
		      struct rt_cmd_outcome *r)
{
	double t0, t1;

	r->startup = r->window = NAN;
	if (!s->execs || !(r->wall >= 0))
		return;
	r->stamped = s->stamped;
	if (s->stamped) {
		t0 = s->first_stamp / 1e3 - off;
		t1 = s->last_end / 1e3 - off;
	} else {
		t0 = s->first_came - s->first_ms / 1e3;
		t1 = s->last_came;
	}
	t0 = fmin(fmax(t0 - started, 0), r->wall);
	t1 = fmin(fmax(t1 - started, t0), r->wall);
	r->startup = t0;
	r->window = t1 - t0;
}

static double realtime_off(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec - rt_now();
}

/* One run of the tool, built once from its options (the request: from run.cfg on --resume):
 * the command as it is spawned, the results directory, the configurations and what they
 * gave. */
struct run {
	struct rt_cmd_run_opts *o;
	const char *exe;                /* the program the command's first word found */
	const char *dir;                /* the results directory (renamed when complete) */
	char *cwd, *program;            /* where it runs, what its first word found */
	char started[32];
	struct rt_profile *prof;        /* NULL: none */
	struct rt_sweep_config *cfgs;
	struct rt_cmd_result *res;
	bool *have;                     /* measured before (--resume) */
	size_t n, done;
	const struct hw_node *hw;       /* the node's trusted counters (NULL: none) */
	char hwline[RT_ERR_MSG + 1024]; /* their verdict, the default's figures added */
};

/* One fresh process of configuration c; with the log when logpath is not NULL. */
static int run_process(const struct run *run, const struct rt_sweep_config *c,
		       const char *logpath, struct rt_cmd_outcome *r, struct rt_err *err)
{
	const struct rt_cmd_run_opts *o = run->o;
	char env[4][64], *envp[RT_SWEEP_MAX_ENV + 5], *preload = NULL, **argv = NULL;
	size_t nenv = 0;
	struct rt_outfile lf = { 0 };
	struct stream s = { .o = o, .count = logpath != NULL, .t = &r->t,
			    .lines = &r->verbose_lines, .preload = c->preload };
	const struct rt_spawn_io io = { .out_line = on_line, .err_data = on_err, .ctx = &s };
	struct rt_cpu_sample before, after;
	struct rt_cpu_tasks tasks[2] = { { 0 }, { 0 } };
	struct rt_child ch;
	double sampled, off;
	int rc;

	memset(r, 0, sizeof(*r));
	r->images_per_s = NAN;
	r->startup = r->window = NAN;
	rt_onednn_tally_init(&r->t);
	rt_onednn_reader_init(&s.rd);
	/* the log on (2.x reads ONEDNN_VERBOSE, older builds DNNL_VERBOSE), or surely off */
	snprintf(env[nenv++], 64, "ONEDNN_VERBOSE=%s", logpath ? o->verbose : "");
	snprintf(env[nenv++], 64, "DNNL_VERBOSE=%s", logpath ? o->verbose : "");
	/* each execution's start on oneDNN's clock: the work window (2.x and 3.x) */
	snprintf(env[nenv++], 64, "ONEDNN_VERBOSE_TIMESTAMP=%s", logpath ? "1" : "");
	snprintf(env[nenv++], 64, "DNNL_VERBOSE_TIMESTAMP=%s", logpath ? "1" : "");
	for (size_t i = 0; i < nenv; i++)
		envp[i] = env[i];
	for (size_t i = 0; i < c->nenv; i++)
		envp[nenv++] = c->env[i];
	if ((rc = rt_sweep_config_launch(c, o->numactl, run->exe, o->cmd, &preload, &argv, err)))
		return rc;
	if (preload)
		envp[nenv++] = preload;
	if (logpath) {
		if ((rc = rt_outfile_open(&lf, logpath, err))) {
			free(preload);
			free(argv);
			return rc;
		}
		s.log = lf.fp;
	}
	fflush(stdout);
	(void)rt_cpu_tasks_take(&tasks[0], NULL, 0);     /* who else ran there: a busy run's words */
	rt_cpu_sample_take(&before);
	sampled = rt_now();
	off = realtime_off();
	rc = rt_spawn_run_envp(argv, envp, nenv, o->timeout, &io, &ch, err);
	off = (off + realtime_off()) / 2;       /* the clocks' offset (a step between: held) */
	rt_onednn_reader_fini(&s.rd);           /* its output read (nothing held before) */
	free(preload);
	free(argv);
	rt_cpu_sample_take(&after);
	sampled = rt_now() - sampled;
	(void)rt_cpu_tasks_take_like(&tasks[1], &tasks[0]);
	fflush(stdout);
	if (rc) {
		rt_cpu_tasks_free(&tasks[0]);
		rt_cpu_tasks_free(&tasks[1]);
		rt_outfile_abort(&lf);
		free(s.figs);
		return rc;
	}
	free(ch.out);
	throughput_end(&s, &s.out);             /* a last line without its end */
	throughput_end(&s, &s.err);
	if (s.overlong)
		fprintf(stderr, "%s: %s: %lu line%s of the command's output longer than %d bytes "
			"not read for its throughput\n", o->prog, c->name, s.overlong,
			s.overlong == 1 ? "" : "s", THROUGHPUT_LINE_MAX);
	r->figures = (unsigned)s.nfigs;
	r->images_per_s = rt_cmd_steady(s.figs, s.nfigs);
	free(s.figs);
	if (ch.strays[0])       /* a daemon it started does not hold the run: named, ended */
		fprintf(stderr, "%s: %s: the command %s\n", o->prog, c->name, ch.strays);
	r->ok = ch.ok;
	r->wall = ch.seconds;
	window_of(&s, ch.started, off, r);
	snprintf(r->reason, sizeof(r->reason), "%s", ch.reason);
	if (r->ok && *s.unloaded) {
		/* the loader ran it without the configuration's library: not its run */
		r->ok = false;
		snprintf(r->reason, sizeof(r->reason), "not the configuration's run: the loader did "
			 "not preload its library (%.399s)", s.unloaded);
	}
	{
		/* whether the command had its CPUs: what others used of them meanwhile, over the
		 * time between the samples (past the command's own when it left strays to end) */
		double others = 0;
		const double share = rt_cpu_others_share(&before, &after, sampled, &others);

		if (r->ok && rt_busy_others(share, others)) {
			char figures[128];

			r->disturbed = true;
			snprintf(figures, sizeof(figures), "other processes used %.0f%% of its %u CPUs' "
				 "time during the run, %.2f CPU s", 100 * share, after.ncpus, others);
			(void)rt_busy_reason(r->reason, sizeof(r->reason), figures, false, 0, 0,
					     &tasks[0], &tasks[1]);
		}
	}
	rt_cpu_tasks_free(&tasks[0]);
	rt_cpu_tasks_free(&tasks[1]);
	if (logpath && (rc = rt_outfile_commit(&lf, err)))
		return rc;
	return 0;
}

/* A run's row (scope "run"). */
static void run_row(FILE *fp, const struct rt_sweep_config *c, unsigned rep,
		    const struct rt_cmd_outcome *r, const char *name, const char *log, bool logged)
{
	struct rt_cmd_judgement j;
	struct rt_point w = { .scope = RT_SCOPE_RUN, .rep = rep, .threads = c->threads,
			      .rank = c->rank, .calls = logged ? r->t.execs : 0,
			      .status = !r->ok ? RT_STATUS_FAILED : r->disturbed ?
					RT_STATUS_DISTURBED : RT_STATUS_OK,
			      .seconds = r->wall, .share = 1, .flops = r->t.flops,
			      .bytes = r->t.bytes, .wall = r->wall,
			      .source = logged ? RT_SOURCE_ONEDNN_LOG : RT_SOURCE_NONE,
			      .onednn = logged ? r->t.ms / 1e3 : NAN,
			      .coverage = logged && r->wall > 0 ? r->t.ms / 1e3 / r->wall : NAN,
			      .images_per_s = r->images_per_s <= RT_CMD_IMAGES_PER_S_MAX ?
					      r->images_per_s : NAN,
			      .startup = logged ? r->startup : NAN,
			      .window = logged ? r->window : NAN };

	snprintf(w.config, sizeof(w.config), "%s", c->name);
	snprintf(w.name, sizeof(w.name), "%s", name);
	snprintf(w.log, sizeof(w.log), "%s", log ? log : "");
	/* what no profile is needed to call impossible: the row says it after the run's own
	 * reason, its wall time kept (an images/s no core reaches is not) */
	rt_cmd_judge(r, c->threads, NULL, &j);
	if (r->disturbed || (r->ok && j.impossible))
		rt_cmd_reason_put(w.reason, sizeof(w.reason), r, &j);
	else if (r->ok && logged && !r->t.execs)
		snprintf(w.reason, sizeof(w.reason), "%s", r->verbose_lines ?
			 "no oneDNN primitive ran: coverage 0%" : RT_CMD_NO_LINE);
	else if (r->ok && logged && r->t.unparsed)
		snprintf(w.reason, sizeof(w.reason), "%lu oneDNN lines not read (the first: %s)",
			 r->t.unparsed, r->t.first_unparsed_why);
	else
		snprintf(w.reason, sizeof(w.reason), "%s", r->reason);
	rt_points_csv_row(fp, &w);
}

/* A kind row's primitives: the same kind, direction, data type and precision of math. */
struct kind_group {
	bool lead;                      /* the group's heaviest primitive stands here (the tally
					 * is sorted by time) */
	unsigned long calls;
	double seconds, flops, bytes;
};

/* 0 when two primitives are of one kind row */
static int same_kind(const struct rt_onednn_prim *a, const struct rt_onednn_prim *b)
{
	int d = strcmp(a->kind, b->kind);

	if (!d)
		d = strcmp(a->prop, b->prop);
	if (!d)
		d = strcmp(a->dtype, b->dtype);
	return d ? d : (int)a->prec - (int)b->prec;
}

/* primitives' indices by kind, then by index (time) */
static int cmp_kind(const void *a, const void *b, void *ctx)
{
	const struct rt_onednn_tally *t = ctx;
	const size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const int d = same_kind(&t->v[i], &t->v[j]);

	return d ? d : (i > j) - (i < j);
}

/* A kind or primitive row's fields from its primitive (the kind's heaviest): its kind,
 * direction, data type, math, implementation where impl, and its own numbers. */
static void prim_fields(struct rt_point *w, const struct rt_onednn_prim *p, bool impl)
{
	snprintf(w->kind, sizeof(w->kind), "%s", p->kind);
	snprintf(w->prop, sizeof(w->prop), "%s", p->prop);
	snprintf(w->dtype, sizeof(w->dtype), "%s", p->dtype);
	w->precision = p->prec;
	if (impl)
		snprintf(w->impl, sizeof(w->impl), "%s", p->impl);
	w->source = p->counted ? RT_SOURCE_ONEDNN_LOG : RT_SOURCE_NONE;
	snprintf(w->reason, sizeof(w->reason), "%s", p->counted ? "" :
		 "a kind not counted: its time, no FLOPs");
	w->calls = p->calls, w->seconds = p->ms / 1e3, w->flops = p->flops, w->bytes = p->bytes;
}

/* The oneDNN rows of one run: everything, each kind and direction, each primitive; -ENOMEM. */
static int onednn_rows(FILE *fp, const struct rt_sweep_config *c, unsigned rep,
		       struct rt_cmd_outcome *r, const char *log)
{
	struct kind_group *grp = NULL;
	size_t *ord = NULL;
	const double total = r->t.ms;
	struct rt_point w = { .scope = RT_SCOPE_ONEDNN, .name = "all", .rep = rep,
			      .status = RT_STATUS_OK, .threads = c->threads, .rank = c->rank,
			      .calls = r->t.execs, .seconds = total / 1e3, .share = 1,
			      .flops = r->t.flops, .bytes = r->t.bytes, .wall = r->wall,
			      .onednn = total / 1e3, .coverage = r->wall > 0 ?
			      total / 1e3 / r->wall : 0, .images_per_s = NAN,
			      .source = RT_SOURCE_ONEDNN_LOG,
			      .startup = NAN, .window = NAN };
	struct rt_buf name;     /* a kind's or primitive's: a problem of any length */
	bool failed;

	snprintf(w.config, sizeof(w.config), "%s", c->name);
	snprintf(w.log, sizeof(w.log), "%s", log);
	rt_points_csv_row(fp, &w);
	rt_onednn_tally_sort(&r->t);
	/* each kind and direction (precision apart), by time: the primitives grouped by one
	 * sort (n log n: a log of 80,000 distinct kinds took 45 s pairwise), each group's row
	 * where its heaviest primitive stands */
	if (r->t.n && (!(ord = malloc(r->t.n * sizeof(*ord))) ||
		       !(grp = calloc(r->t.n, sizeof(*grp))))) {
		free(ord);
		return -ENOMEM;
	}
	for (size_t i = 0; i < r->t.n; i++)
		ord[i] = i;
	if (r->t.n)
		qsort_r(ord, r->t.n, sizeof(*ord), cmp_kind, &r->t);
	for (size_t i = 0, end; i < r->t.n; i = end) {
		struct kind_group *g = &grp[ord[i]];    /* the lowest index: the heaviest */

		g->lead = true;
		for (end = i; end < r->t.n && !same_kind(&r->t.v[ord[i]], &r->t.v[ord[end]]);
		     end++) {
			const struct rt_onednn_prim *q = &r->t.v[ord[end]];

			g->calls += q->calls;
			g->seconds += q->ms / 1e3;
			g->flops += q->flops;
			g->bytes += q->bytes;
		}
	}
	rt_buf_init(&name);
	for (size_t i = 0; i < r->t.n; i++) {
		const struct rt_onednn_prim *p = &r->t.v[i];

		if (!grp[i].lead)
			continue;
		w.scope = RT_SCOPE_KIND;
		rt_buf_reset(&name);
		if (rt_buf_printf(&name, "%s %s", p->kind, p->prop))
			break;
		w.long_name = name.s;
		prim_fields(&w, p, false);
		w.calls = grp[i].calls, w.seconds = grp[i].seconds;
		w.flops = grp[i].flops, w.bytes = grp[i].bytes;
		w.share = total > 0 ? w.seconds * 1e3 / total : 0;
		rt_points_csv_row(fp, &w);
	}
	free(ord);
	free(grp);
	for (size_t i = 0; i < r->t.n && !name.failed; i++) {
		const struct rt_onednn_prim *p = &r->t.v[i];

		w.scope = RT_SCOPE_PRIMITIVE;
		rt_buf_reset(&name);
		if (rt_buf_printf(&name, "%s %s %s %s", p->kind, p->prop, p->dtype, p->problem))
			break;
		w.long_name = name.s;
		prim_fields(&w, p, true);
		w.share = total > 0 ? p->ms / total : 0;
		rt_points_csv_row(fp, &w);
	}
	failed = name.failed;
	rt_buf_fini(&name);
	return failed ? -ENOMEM : 0;
}

/* The results directory (sweep/resdir.h), locked: the one --resume or -o gives, under a
 * launcher each rank's own room DIR/rank-K in it, or a new results/run-TIMESTAMP.partial
 * named when the run completes. room: --resume's directory (the rank's). */
static int open_dir(const struct rt_cmd_run_opts *o, const struct rt_cluster_launch *l,
		    const char *room, struct rt_resdir *d, struct rt_err *err)
{
	char own[4200];
	struct rt_resdir_opts ro = { .name = "run", .outdir = o->outdir, .what = o->cmdline,
				     .fits = rt_resdir_fresh };
	int rc;

	if (o->resume) {
		ro.resume = room;
		ro.fits = NULL;         /* its run.cfg read already */
	} else if (l->size > 1 && !o->outdir) {
		return rt_err_set(err, -EINVAL, "%d ranks (%s): give the directory they share with "
				  "-o DIR", l->size, l->from);
	} else if (l->size > 1) {
		snprintf(own, sizeof(own), "%s/rank-%d", o->outdir, l->rank);
		if ((rc = rt_mkdir_p(o->outdir, err)) || (rc = rt_mkdir_own(own, err)))
			return rc;
		ro.outdir = own;
	}
	return rt_resdir_open(d, &ro, err);
}

/* The sweep as run.cfg records it, its members after "sweep = [": each knob with its values
 * spelled out ("threads" alone resolved to this node's list), so that --resume runs the same
 * configurations; false when out of memory. */
static bool put_sweep(FILE *fp, const struct rt_cmd_run_opts *o)
{
	char knob[1024];        /* a knob's: 64 values of 12 characters, 16 words of 48 at most */
	const size_t ng = o->grid ? o->grid->nknobs : 0;
	struct rt_buf b;
	size_t n = 0;
	bool ok = true;

	for (size_t k = 0; k < ng + o->nknobs; k++) {
		if (k < ng)
			rt_sweep_knob_spec(o->grid, k, knob, sizeof(knob));
		else
			rt_cmd_knob_spec(&o->knobs[k - ng], knob, sizeof(knob));
		rt_cfg_put_member(fp, n++ ? ", " : " ", knob);
	}
	rt_buf_init(&b);
	if (o->tune) {
		/* the alternatives spelled out: --resume measures the same ones */
		rt_buf_puts(&b, "tune=");
		for (size_t i = 0; i < o->ntune; i++) {
			const char *eq = strchr(o->tune_alt[i], '=');

			rt_buf_printf(&b, "%s%.*s:%s", i ? "," : "", (int)(eq - o->tune_alt[i]),
				      o->tune_alt[i], eq + 1);
		}
		if ((ok = !b.failed))
			rt_cfg_put_member(fp, n++ ? ", " : " ", b.s);
	}
	for (size_t k = 0; k < o->nenv && ok; k++) {
		rt_buf_reset(&b);
		rt_sweep_env_spec(&o->env[k], &b);
		if ((ok = !b.failed))
			rt_cfg_put_member(fp, n++ ? ", " : " ", b.s);
	}
	rt_buf_fini(&b);
	return ok;
}

/* run.cfg's members of a user's command (ctx: struct cmd_record): its request (enough to run
 * the rest: roofline-run --resume DIR), and once the default ran, what its log said of it */
struct cmd_record {
	const struct run *run;
	const struct rt_cmd_result *def;        /* the default's results (NULL: not yet) */
};

static bool put_request(FILE *fp, const void *ctx)
{
	const struct cmd_record *cr = ctx;
	const struct rt_cmd_run_opts *o = cr->run->o;

	fputs("  command_request = {\n    argv = [", fp);
	for (size_t i = 0; o->cmd[i]; i++)
		rt_cfg_put_member(fp, i ? ", " : " ", o->cmd[i]);
	/* where it ran and what the first word found: --resume runs the rest only there */
	rt_cfg_put_member(fp, " ];\n    cwd = ", cr->run->cwd);
	rt_cfg_put_member(fp, ";\n    program = ", cr->run->program);
	fputs(";\n    sweep = [", fp);
	if (!put_sweep(fp, o))
		return false;
	fprintf(fp, " ];\n    repeat = %u;\n    verbose = ", o->repeat);
	rt_cfg_put_str(fp, o->verbose);
	fprintf(fp, ";\n    overhead = %s;\n    timeout = %.6f;\n    batch = %u;\n"
		"    throughput = ", o->overhead ? "true" : "false", o->timeout, o->batch);
	rt_cfg_put_str(fp, o->throughput ? o->throughput : "");
	fputs(";\n    framework = ", fp);
	rt_cfg_put_str(fp, rt_cmd_framework_word(o->framework));
	fputs(";\n", fp);
	if (o->ntogether) {
		fputs("    tune_together = [", fp);
		for (size_t i = 0; i < o->ntogether; i++)
			rt_cfg_put_member(fp, i ? ", " : " ", o->tune_alt[o->tune_together[i]]);
		fputs(" ];\n", fp);
	}
	fputs("  };\n", fp);
	if (cr->def && cr->def->ran) {
		/* what the default was, as its log's info lines said it */
		const struct rt_onednn_tally *t = &cr->def->runs[cr->def->med].t;

		rt_cfg_put_member(fp, "  default_described = {\n    onednn_version = ", t->version);
		rt_cfg_put_member(fp, ";\n    runtime = ", t->runtime);
		fprintf(fp, ";\n    threads = %u;\n    isa = ", t->nthr);
		rt_cfg_put_str(fp, t->isa);
		fputs(";\n  };\n", fp);
	}
	return true;
}

/* DIR/run.cfg (sweep/runrec's writer): status running, complete or interrupted; def: the
 * default's results once it ran, or NULL */
static int write_runcfg(const struct run *run, const char *status,
			const struct rt_cmd_result *def, struct rt_err *err)
{
	const struct cmd_record cr = { run, def };
	const struct rt_runrec rec = {
		.comment = "how roofline-run ran here: enough to run the rest (roofline-run "
			   "--resume DIR)",
		.program = "roofline-run", .status = status, .started = run->started,
		.cmdline = run->o->cmdline, .profile = run->o->profile, .default_config = "default",
		.configurations = run->n, .configs = run->cfgs, .numactl = run->o->numactl,
		.prof = run->prof, .put = put_request, .put_ctx = &cr };

	return rt_runrec_write(run->dir, &rec, err);
}

static const char resume_how[] = "--resume runs the rest of that run: resume it as it started";

/* --resume: what run.cfg's command_request holds, read back member by member */
struct resume {
	struct rt_cmd_run_opts *o;
	char **argv;                    /* the command's words (the caller frees them) */
	size_t na;
	const char *cwd;                /* this process's working directory */
	const char **program;           /* the program the first word found when it started */
};

/* A member of the request: the command's words; where it ran, which must be the same now, and
 * the program its first word found (compared once the command is found); tune's winners,
 * once chosen (an alternative of its sweep); the rest set as the tool's option of its name,
 * with that option's own checks. */
static int resume_member(void *ctx, const char *name, const char *v, struct rt_err *err)
{
	static const char *const option[][2] = {
		{ "sweep", "sweep" }, { "repeat", "repeat" }, { "verbose", "verbose-value" },
		{ "timeout", "timeout" }, { "batch", "batch" }, { "throughput", "throughput" },
		{ "framework", "framework" } };
	struct resume *r = ctx;
	struct rt_cmd_run_opts *o = r->o;

	if (!strcmp(name, "argv")) {
		char **a = realloc(r->argv, (r->na + 2) * sizeof(*a));

		if (a)
			r->argv = a;
		if (!a || !(a[r->na] = strdup(v)))
			return rt_err_set(err, -ENOMEM, "out of memory");
		a[++r->na] = NULL;
		return 0;
	}
	if (!strcmp(name, "cwd"))
		return strcmp(v, r->cwd) ? rt_err_set(err, -EINVAL, "the working directory: '%s' "
						      "when the run started, '%s' now (%s)", v,
						      r->cwd, resume_how) : 0;
	if (!strcmp(name, "program")) {
		*r->program = v;
		return 0;
	}
	if (!strcmp(name, "tune_together")) {
		size_t j = 0;

		while (j < o->ntune && strcmp(v, o->tune_alt[j]))
			j++;
		if (j == o->ntune || o->ntogether == o->ntune)
			return rt_err_set(err, -EINVAL, "tune_together: '%s' is not an alternative "
					  "of its tune= sweep", v);
		/* one winner a knob (as rt_cmd_tune_winners picks them): a configuration of two
		 * allocators would preload one of them */
		for (size_t k = 0; k < o->ntogether; k++)
			if (rt_cmd_tune_same_knob(o, o->tune_together[k], j))
				return rt_err_set(err, -EINVAL, "tune_together: '%s' and '%s' set the "
						  "same knob (a configuration holds one value of "
						  "each)", o->tune_alt[o->tune_together[k]], v);
		o->tune_together[o->ntogether++] = j;
		return 0;
	}
	if (!strcmp(name, "overhead")) {
		if (strcmp(v, "true") && strcmp(v, "false"))
			return rt_err_set(err, -EINVAL, "'overhead' must be true or false");
		o->overhead = v[0] == 't';
		return 0;
	}
	/* a given --timeout holds; a record of an older rooftraj says "no batch" as 0 and "no
	 * form of its own" as "" */
	if ((!strcmp(name, "timeout") && o->timeout_given) ||
	    (!strcmp(name, "batch") && !strcmp(v, "0")) || (!strcmp(name, "throughput") && !*v))
		return 0;
	for (size_t i = 0; i < sizeof(option) / sizeof(option[0]); i++)
		if (!strcmp(name, option[i][0]))
			return o->option(o, option[i][1], v, err);
	return rt_err_set(err, -EINVAL, "'%s' is not part of roofline-run's request", name);
}

/* What --resume takes from DIR/run.cfg, read once into *rec (the caller destroys it): the
 * command and its sweep (into o; *argv owned by the caller, o's strings and *program
 * borrowed from *rec), the program its first word found (NULL: a record of an older
 * rooftraj), the profile when none is given; refused, naming what differs and run.cfg's
 * line, when the working directory or a variable that changes what a run does
 * (rt_runrec_env_kind) differs from the run's start. */
static int read_runcfg(const char *dir, struct rt_cmd_run_opts *o, const char *cwd,
		       struct rt_runrec_members **rec, char ***argv, const char **program,
		       struct rt_err *err)
{
	struct resume r = { .o = o, .cwd = cwd, .program = program };
	const char *prog, *prof;
	char path[4200];
	int rc;

	snprintf(path, sizeof(path), "%s/run.cfg", dir);
	if ((rc = rt_runrec_members_open(rec, path, err)))
		return rc == -ENOENT ? rt_err_set(err, rc, "%s: nothing to resume (no run.cfg "
						  "there)", dir) : rc;
	prog = rt_runrec_members_string(*rec, "run.program");
	if (!prog || strcmp(prog, "roofline-run"))
		return rt_err_set(err, -EINVAL, "%s: not a run of roofline-run (a sweep of the "
				  "trainer resumes with roofline-train --resume)", path);
	rc = rt_runrec_members_walk(*rec, "run.command_request", "", true, resume_member, &r,
				    err);
	*argv = r.argv;
	if (rc)
		return rc;
	if (!r.na)
		return rt_err_set(err, -EINVAL, "%s: its command_request records no command "
				  "(argv)", path);
	if (!o->profile && (prof = rt_runrec_members_string(*rec, "run.profile")) && *prof)
		o->profile = prof;
	o->cmd = r.argv;
	return rt_runrec_members_env_same(*rec, resume_how, err);
}

static void free_argv(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* Runs of the command as rt_engine_repeat makes them: configurations ci[0..nci) in turn, -r
 * times, a row each into rows; with the log where what is "" (else its words: " without the
 * log"). */
struct cmd_runs {
	const struct run *run;
	const size_t *ci;
	size_t nci;
	const char *what;
	bool quiet;                     /* a run that failed or was disturbed not said */
	FILE *rows;
	size_t at;                      /* the run under way: its configuration, */
	unsigned rep;                   /* its repetition (from 1), its log */
	char log[64], path[4300];
	/* the undisturbed runs' wall times and images/s, of each configuration of ci */
	double w[2][RT_CLI_REPEAT_MAX], img[2][RT_CLI_REPEAT_MAX];
	unsigned nw[2], ni[2];
};

static enum rt_status cmd_status(const void *slot)
{
	const struct rt_cmd_outcome *r = slot;

	return !r->ok ? RT_STATUS_FAILED : r->disturbed ? RT_STATUS_DISTURBED : RT_STATUS_OK;
}

static void cmd_drop(void *slot)
{
	rt_onednn_tally_free(&((struct rt_cmd_outcome *)slot)->t);
}

/* Which of ci run k is: in turn; a pair alternates which goes first (ABBA: the default, the
 * best, the best, the default, ...), so that whatever favours the first or the second run of
 * a pair (a warm page cache, a clock still rising) favours neither configuration. */
static size_t cmd_which(const struct cmd_runs *x, size_t k)
{
	return x->nci == 2 ? ((k ^ (k >> 1)) & 1) : k % x->nci;
}

/* run k, ci[cmd_which(k)]'s repetition k / nci + 1; prev: disturbed, its second run's log in
 * PATH.again */
static int cmd_run_once(void *ctx, size_t k, void *slot, const void *prev, struct rt_err *err)
{
	struct cmd_runs *x = ctx;
	const char *prog = x->run->o->prog;
	char again[4310];

	if (!prev) {
		x->at = x->ci[cmd_which(x, k)];
		x->rep = (unsigned)(k / x->nci) + 1;
		snprintf(x->log, sizeof(x->log), "onednn/c%03zu-r%u.log", x->at, x->rep);
		snprintf(x->path, sizeof(x->path), "%s/%s", x->run->dir, x->log);
		fprintf(stderr, "%s: [%zu] %s%s, run %u of %u\n", prog, x->at + 1,
			x->run->cfgs[x->at].name, x->what, x->rep, x->run->o->repeat);
	} else {
		fprintf(stderr, "%s: [%zu] %s: %s: measured again\n", prog, x->at + 1,
			x->run->cfgs[x->at].name, ((const struct rt_cmd_outcome *)prev)->reason);
	}
	snprintf(again, sizeof(again), "%s%s", x->path, prev ? ".again" : "");
	return run_process(x->run, &x->run->cfgs[x->at], *x->what ? NULL : again, slot, err);
}

/* the second run kept: its log over the first's */
static bool cmd_settle(void *ctx, size_t k, bool keep)
{
	const struct cmd_runs *x = ctx;
	char again[4310];

	(void)k;
	snprintf(again, sizeof(again), "%s.again", x->path);
	if (keep && !rename(again, x->path))
		return true;
	unlink(again);
	return false;
}

static void cmd_done(void *ctx, size_t k, const void *slot)
{
	struct cmd_runs *x = ctx;
	const struct rt_sweep_config *c = &x->run->cfgs[x->at];
	const struct rt_cmd_outcome *r = slot;
	const size_t j = cmd_which(x, k);
	char name[64];

	if (cmd_status(r) == RT_STATUS_OK && x->nw[j] < RT_CLI_REPEAT_MAX) {
		x->w[j][x->nw[j]++] = r->wall;
		if (r->images_per_s > 0 && r->images_per_s <= RT_CMD_IMAGES_PER_S_MAX)
			x->img[j][x->ni[j]++] = r->images_per_s;
	} else if (!x->quiet) {
		fprintf(stderr, "%s: [%zu] %s: %s\n", x->run->o->prog, x->at + 1, c->name,
			r->reason);
	}
	snprintf(name, sizeof(name), "command%s", x->what);
	run_row(x->rows, c, x->rep, r, name, *x->what ? "" : x->log, !*x->what);
}

/* x's runs into v (NULL: slots of its own, freed), through the sweep engine's repeat loop: a
 * disturbed run with the log measured again (not under a launcher: MPI starts once a
 * launch); *done: how many ran. */
static int cmd_repeat(struct cmd_runs *x, struct rt_cmd_outcome *v, size_t *done,
		      struct rt_err *err)
{
	const size_t n = x->nci * x->run->o->repeat;
	struct rt_cmd_outcome *own = v ? NULL : calloc(n, sizeof(*own));
	const struct rt_engine_repeat r = { .slots = v ? v : own, .n = n, .size = sizeof(*own),
					    .again = !*x->what && !x->run->o->ranked, .ctx = x,
					    .run = cmd_run_once, .status = cmd_status,
					    .settle = cmd_settle, .drop = cmd_drop, .done = cmd_done };
	enum rt_status kept;
	int rc;

	*done = 0;
	if (!r.slots)
		return rt_err_set(err, -ENOMEM, "out of memory");
	rc = rt_engine_repeat(&r, done, &kept, err);
	for (size_t k = 0; own && k < *done; k++)
		cmd_drop(&own[k]);
	free(own);
	return rc;
}

/* One configuration, its rows into rows (a buffer: they land in points.csv whole). */
static int run_config(const struct run *run, size_t ci, FILE *rows, struct rt_err *err)
{
	const struct rt_cmd_run_opts *o = run->o;
	const struct rt_sweep_config *c = &run->cfgs[ci];
	struct rt_cmd_result *s = &run->res[ci];
	struct cmd_runs x = { .run = run, .ci = &ci, .nci = 1, .what = "", .rows = rows };
	size_t done = 0;
	int rc;

	s->runs = calloc(o->repeat, sizeof(*s->runs));
	s->bare = rt_points_spread(NULL, 0);
	if (!s->runs)
		return rt_err_set(err, -ENOMEM, "out of memory");
	rc = cmd_repeat(&x, s->runs, &done, err);
	s->n = (unsigned)done;
	if (rc)
		return rc;
	rt_cmd_summarize(s);
	if (s->ran)
		if (onednn_rows(rows, c, (unsigned)s->med + 1, &s->runs[s->med], ""))
			return rt_err_set(err, -ENOMEM, "out of memory");
	/* the log's own cost: the default again without it */
	if (c->is_default && o->overhead && s->wall.runs && !rt_spawn_interrupted()) {
		x.what = " without the log";
		x.quiet = true;
		x.nw[0] = x.ni[0] = 0;
		rc = cmd_repeat(&x, NULL, &done, err);
		s->bare = rt_points_spread(x.w[0], x.nw[0]);
		s->bare_tried = true;
	}
	return rc;
}

/* Before a configuration is said to be faster than the default: both again without the log,
 * in turn (the default, the best, the best, the default, ...: -r times each), in fresh
 * processes, their rows appended to points.csv ("command without the log, confirming"); what
 * they say decides the verdict. */
static int confirm(const struct run *run, struct rt_err *err)
{
	const struct rt_cmd_run_opts *o = run->o;
	double bm = 0, dm = 0;
	const size_t best = rt_cmd_pick_compared(o, run->res, run->n, &bm, &dm),
		     pair[2] = { 0, best };
	struct cmd_runs x = { .run = run, .ci = pair, .nci = 2,
			      .what = " without the log, confirming" };
	char csv[4200], *buf = NULL;
	size_t len = 0, done = 0;
	int rc;

	/* a claim to check: another configuration faster than an undisturbed default */
	if (best == SIZE_MAX || best == 0 || !run->cfgs[0].is_default || !run->res[0].ran ||
	    run->res[0].disturbed || bm >= dm)
		return 0;
	if (!(x.rows = open_memstream(&buf, &len)))
		return rt_err_set(err, -ENOMEM, "out of memory");
	rc = cmd_repeat(&x, NULL, &done, err);
	if (fclose(x.rows) && !rc)
		rc = rt_err_set(err, -ENOMEM, "out of memory");
	if (!rc && !rt_spawn_interrupted()) {
		snprintf(csv, sizeof(csv), "%s/points.csv", run->dir);
		rc = rt_file_append(csv, buf, len, err);
		for (int j = 0; j < 2 && !rc; j++) {
			struct rt_cmd_result *s = &run->res[pair[j]];

			s->cf_tried = true;
			s->cf = rt_points_spread(x.w[j], x.nw[j]);
			s->cf_img = rt_points_spread(x.img[j], x.ni[j]);
		}
	}
	free(buf);
	return rc;
}

/* Hardware counters on the command: the node's FLOP event table and its self-check on the
 * probe's kernels (u NULL, with why in line, when it cannot be used for any work). */
struct hw_node {
	const struct rt_uarch *u;
	struct rt_pmu_checks c;
};

static bool hw_table(struct hw_node *h, char *line, size_t size)
{
	struct rt_err e = { 0 };

	if (rt_pmu_node_check(&h->u, &h->c, &e)) {
		snprintf(line, size, "hardware counters: not used: %s", e.msg);
		h->u = NULL;
		return false;
	}
	if (!rt_events_trusted_any(h->c.v, h->c.n)) {
		snprintf(line, size, "hardware counters: not used: %s", h->c.v[0].verdict);
		h->u = NULL;
	}
	return h->u != NULL;
}

struct hw_run {
	const struct run *run;
	const struct rt_sweep_config *c;
	bool ok;
	char why[300];
};

/* one run of the command, without the log, its processes and threads counted */
static void hw_run_once(void *arg)
{
	struct hw_run *h = arg;
	struct rt_cmd_outcome r;
	struct rt_err e = { 0 };

	if (run_process(h->run, h->c, NULL, &r, &e) || !r.ok || r.disturbed) {
		h->ok = false;
		snprintf(h->why, sizeof(h->why), "%.299s", e.msg[0] ? e.msg : r.reason);
	}
	rt_onednn_tally_free(&r.t);
}

/* The FLOPs the command retired, by the table, where it was trusted for every kind of work the
 * command does (fp32, and each precision oneDNN's log shows FLOPs of): one run of the command
 * per group of events (perf_event, counting it and every process and thread it starts;
 * roofline-run's own reading of the output too, a few instructions per line); said in
 * run->hwline. */
static void hw_measure(struct run *run, const struct rt_sweep_config *c,
		       const struct rt_cmd_result *r)
{
	const struct hw_node *hn = run->hw;
	const struct rt_uarch *u = hn->u;
	char *const line = run->hwline;
	const size_t size = sizeof(run->hwline);
	struct hw_run h = { run, c, true, "" };
	const struct rt_pmu_work w = { hw_run_once, &h, 0, NULL };
	bool work[RT_PRECISION_COUNT] = { false, true };
	struct rt_flop_count fc;
	struct rt_err e = { 0 };
	size_t ng = 0;

	for (unsigned k = 0; k < r->n; k++)
		for (size_t i = 0; i < r->runs[k].t.n; i++) {
			const struct rt_onednn_prim *p = &r->runs[k].t.v[i];

			if (p->counted && p->flops > 0 && p->prec < RT_PRECISION_COUNT)
				work[p->prec] = true;
		}
	for (int p = 0; p < RT_PRECISION_COUNT; p++) {
		char why[300];

		if (work[p] && !rt_events_trusted_for(hn->c.v, hn->c.n, rt_vocab_precisions[p], why,
						   sizeof(why))) {
			snprintf(line, size, "hardware counters: not used on %s: its work includes "
				 "%s (fp32 always; the others as oneDNN's log shows them), and the %s "
				 "table is not trusted for it: %s", c->name, rt_vocab_precisions[p],
				 u->name, why);
			return;
		}
	}
	fprintf(stderr, "%s: %s: hardware FLOP counts (%s table)\n", run->o->prog, c->name,
		u->name);
	if (rt_pmu_measure(&rt_pmu_perf, u, u->counters, &w, &fc, &ng, &e) || !h.ok)
		snprintf(line, size, "hardware counters: the %s table could not count the "
			 "command: %s", u->name, h.ok ? e.msg : h.why);
	else
		snprintf(line, size, "hardware counters (%s table, validated on the probe's kernels "
			 "of the command's precisions; source %s%s%s): %s's command retires %.4g FLOPs "
			 "a run (its events counted in %zu run%s without the log, one per group), "
			 "beside oneDNN's log's count", u->name,
			 rt_source_name(fc.source), fc.source == RT_SOURCE_HW ? "" : ", ",
			 fc.source == RT_SOURCE_HW ? "" : fc.why, c->name, fc.flops, ng, ng == 1 ? "" : "s");
}

/* A user's command as the engine's workload (ctx: the run). */
static const char *cmd_name(void *ctx, size_t i)
{
	return ((const struct run *)ctx)->cfgs[i].name;
}

/* Configuration i, -r runs with the log (and the default's without it), its rows onto rows */
static int cmd_measure(void *ctx, size_t i, FILE *rows, char *result, size_t rsize,
		       struct rt_err *err)
{
	struct run *run = ctx;
	const struct rt_sweep_config *c = &run->cfgs[i];
	const struct rt_cmd_result *r = &run->res[i];
	int rc = run_config(run, i, rows, err);

	if (rc || rt_spawn_interrupted())
		return rc ? rc : -EINTR;
	/* the default's FLOPs from the hardware too, where the node's counters are trusted */
	if (run->hw && c->is_default && r->wall.runs)
		hw_measure(run, c, r);
	if (r->wall.runs)
		snprintf(result, rsize, "%.3f s of wall time, the median of %u run%s%s",
			 r->wall.median, r->wall.runs, r->wall.runs > 1 ? "s" : "",
			 r->disturbed ? ", disturbed" : "");
	else if (r->n)
		snprintf(result, rsize, "failed: %.200s", r->runs[r->n - 1].reason);
	return 0;
}

const struct rt_workload rt_workload_command = {
	.name = "command", .program = "roofline-run", .measure = cmd_measure,
	.redraw = rt_cmd_views_redraw, .overlay = rt_cmd_overlay,
};

static void cmd_progress(void *ctx, size_t i, size_t n, const char *config, const char *result)
{
	const struct rt_cmd_run_opts *o = ctx;

	(void)n;
	if (result)
		fprintf(stderr, "%s: [%zu] %s: %s\n", o->prog, i, config, result);
}

/* Configurations first..n-1 not measured before (have), through the sweep engine, each in
 * fresh processes, its rows appended to points.csv when it finishes (an interrupted one
 * leaves none: --resume runs it); run->done counts those it measured. 0 when interrupted. */
static int run_all(struct run *run, size_t first, struct rt_err *err)
{
	char csv[4200];
	const struct rt_engine e = { .w = &rt_workload_command, .ctx = run, .csv = csv,
				     .first = first, .n = run->n, .name = cmd_name, .have = run->have,
				     .progress = cmd_progress, .progress_ctx = run->o };
	size_t measured = 0;
	int rc;

	snprintf(csv, sizeof(csv), "%s/points.csv", run->dir);
	/* a directory of an earlier rooftraj, resumed: its rows in today's columns first */
	if ((rc = rt_points_csv_upgrade(csv, err)))
		return rc;
	rc = rt_engine_run(&e, &measured, err);
	run->done += measured;
	return rc == -EINTR ? 0 : rc;
}

/* --sweep tune once its alternatives ran: the winners (o->tune_together), recorded in
 * run.cfg, and when there are several, their configuration built, run and appended (the
 * run's configurations grown by it). */
static int tune_together(struct run *run, struct rt_err *err)
{
	struct rt_cmd_run_opts *o = run->o;
	struct rt_sweep_config *nc = NULL;
	struct rt_cmd_result *nr;
	size_t nn = 0, i;
	bool *nh;
	int rc;

	o->ntogether = rt_cmd_tune_winners(o, run->res, o->tune_together);
	if (o->ntogether < 2)
		return write_runcfg(run, "running", NULL, err);
	if ((rc = build_configs(o, run->cfgs[0].rank, &nc, &nn, err)))
		return rc;
	if (nn != run->n + 1) {         /* the grid of the run, and the winners' one */
		rt_sweep_configs_free(nc, nn);
		return rt_err_set(err, -EINVAL, "tune: %zu configurations with the winners "
				  "together, %zu expected", nn, run->n + 1);
	}
	nr = realloc(run->res, nn * sizeof(*nr));
	if (nr)
		run->res = nr;
	nh = nr ? realloc(run->have, nn * sizeof(*nh)) : NULL;
	if (nh)
		run->have = nh;
	if (!nr || !nh) {
		rt_sweep_configs_free(nc, nn);
		return rt_err_set(err, -ENOMEM, "out of memory");
	}
	i = nn - 1;
	memset(&nr[i], 0, sizeof(*nr));
	nh[i] = false;
	rt_sweep_configs_free(run->cfgs, run->n);
	run->cfgs = nc;
	run->n = nn;
	if ((rc = write_runcfg(run, "running", NULL, err)))
		return rc;
	fprintf(stderr, "%s: tune: the alternatives that won, together: %s\n", o->prog,
		nc[i].name);
	/* the sweep measured: only the new one runs */
	return run_all(run, i, err);
}

/* roofline-run's sections of summary.txt (rt_summary_write's body) */
struct cmd_sections {
	const struct run *run;
	struct rt_cmd_lead *ld;         /* what the page leads with, as the summary says it */
};

static int cmd_sections(FILE *fp, void *ctx, struct rt_err *err)
{
	const struct cmd_sections *cs = ctx;
	const struct run *run = cs->run;

	(void)err;
	rt_cmd_summary_sections(fp, run->o, run->cfgs, run->res, run->n, run->prof, cs->ld);
	return 0;
}

/* summary.txt (also printed when alone), the charts and report.html: 0 when all are there. */
static int finish(const struct run *run, const struct rt_cluster_launch *l,
		  const char *resume_dir)
{
	const struct rt_cmd_run_opts *o = run->o;
	const char *const dir = run->dir, *const hwline = run->hwline;
	const size_t n = run->n;
	struct rt_err err = { 0 };
	struct rt_cmd_lead ld = { .hw = hwline };
	struct cmd_sections cs = { run, &ld };
	char more[4700] = "";
	int rc;

	if (rt_spawn_interrupted())
		snprintf(more, sizeof(more), "interrupted: %zu of %zu configurations finished; "
			 "roofline-run --resume %s runs the rest", run->done, n, resume_dir);
	if ((rc = rt_summary_write(dir, cmd_sections, &cs, more[0] ? more : NULL,
				   l->size <= 1 ? stdout : NULL, &err)))
		fprintf(stderr, "%s: %s\n", o->prog, err.msg);
	if (!rc) {
		const char *lead[4 + RT_CMD_ADVICE_MAX] = { ld.verdict, ld.coverage, hwline, more };
		size_t nl = 2;

		if (*hwline)
			nl++;
		if (more[0])
			lead[nl++] = more;
		for (size_t k = 0; k < ld.adv.n; k++)
			lead[nl++] = ld.adv.line[k];
		if ((rc = rt_cmd_views(o->prog, dir, run->cfgs, run->res, n, run->prof, false, lead,
				       nl, &err)))
			fprintf(stderr, "%s: %s\n", o->prog, err.msg);
	}
	rt_cmd_advice_free(&ld.adv);
	return rc;
}

int rt_cmd_run_tool(struct rt_cmd_run_opts *o)
{
	struct rt_resdir rd;
	char room[4096], path[4300], exe[4096];
	struct run run = { .o = o, .exe = exe, .dir = rd.path };
	struct rt_err err = { 0 };
	struct rt_cluster_launch l;
	char **argv = NULL;
	struct hw_node hwn;
	struct rt_runrec_members *rec = NULL;   /* --resume: its record (o's strings) */
	const char *recorded = NULL;            /* ... the program its first word found */
	const bool profile_given = o->profile;
	const char *top;
	int status = 1, rc;

	rt_resdir_init(&rd);
	rt_timestamp(run.started, sizeof(run.started));
	/* a rank of a job, or alone: the rule every tool follows */
	if (rt_cluster_launch_detect(&l, &err))
		goto fail;
	if (l.launched && l.size < 1) {
		fprintf(stderr, "%s: %s: a PMIx launch that says no number of tasks "
			"(OMPI_COMM_WORLD_SIZE, PMI_SIZE, SLURM_STEP_NUM_TASKS): each rank's room "
			"cannot be told\n", o->prog, l.from);
		goto out;
	}
	o->ranked = l.size > 1;
	top = o->resume ? o->resume : o->outdir;
	if (o->resume) {
		/* the run's own record: under a launcher each rank's room */
		if (l.size > 1)
			snprintf(room, sizeof(room), "%s/rank-%d", o->resume, l.rank);
		else
			snprintf(room, sizeof(room), "%s", o->resume);
		if (!(run.cwd = getcwd(NULL, 0)) ||
		    read_runcfg(room, o, run.cwd, &rec, &argv, &recorded, &err)) {
			fprintf(stderr, "%s: %s\n", o->prog, run.cwd ? err.msg : strerror(errno));
			goto out;
		}
		if (!profile_given && o->profile) {
			/* judged on the profile its rows so far were judged on */
			struct rt_buf note;

			rt_buf_init(&note);
			rc = rt_runrec_resume_profile(room, o->profile, &run.prof, &note, &err);
			if (!rc && note.s[0])
				fprintf(stderr, "%s: %s\n", o->prog, note.s);
			rt_buf_fini(&note);
			if (rc)
				goto fail;
		}
	}
	/* a command that cannot run is refused before anything runs or is written */
	if (!o->cmd || !o->cmd[0] || !rt_spawn_which(o->cmd[0], exe, sizeof(exe))) {
		fprintf(stderr, "%s: %s: command not found (nothing run)\n", o->prog,
			o->cmd && o->cmd[0] ? o->cmd[0] : "");
		status = 127;
		goto out;
	}
	{
		struct stat st;

		if (stat(exe, &st) == 0 && S_ISDIR(st.st_mode)) {
			fprintf(stderr, "%s: '%s' is a directory (nothing run)\n", o->prog, exe);
			status = 126;
			goto out;
		}
	}
	/* where it runs, and the program the first word found, as run.cfg records them */
	if ((!run.cwd && !(run.cwd = getcwd(NULL, 0))) || !(run.program = realpath(exe, NULL))) {
		fprintf(stderr, "%s: %s: %s\n", o->prog, run.cwd ? exe : "the working directory",
			strerror(errno));
		goto out;
	}
	if (recorded && strcmp(recorded, run.program)) {
		fprintf(stderr, "%s: %s/run.cfg:%d: the command's program: '%s' when the run "
			"started, '%s' now (%s)\n", o->prog, room,
			rt_runrec_members_line(rec, "run.command_request.program"), recorded,
			run.program, resume_how);
		goto out;
	}
	if (o->profile && !run.prof && rt_profile_load(&run.prof, o->profile, &err))
		goto fail;
	if (!o->profile) {
		/* the node's own profile when roofline-probe wrote one where it writes it */
		char def[4096];

		rt_profile_default_path(def, sizeof(def), NULL, NULL, 0);
		if (access(def, F_OK) == 0 && rt_profile_load(&run.prof, def, &err)) {
			fprintf(stderr, "%s: %s (not used)\n", o->prog, err.msg);
			run.prof = NULL;
		}
	}
	if (build_configs(o, l.size > 1 ? l.rank : -1, &run.cfgs, &run.n, &err) ||
	    ((!(run.have = calloc(run.n, sizeof(*run.have))) ||
	      !(run.res = calloc(run.n, sizeof(*run.res)))) &&
	     rt_err_set(&err, -ENOMEM, "out of memory")))
		goto fail;
	/* a run stopped before its first configuration finished has no points.csv yet */
	if (open_dir(o, &l, room, &rd, &err) ||
	    (o->resume && (rc = rt_cmd_results_load(run.dir, &run.cfgs, &run.n, &run.res, run.have,
						    &err)) && rc != -ENOENT))
		goto fail;
	if (!top)
		top = run.dir;
	if (l.size > 1 && run.n * o->repeat > 1)
		fprintf(stderr, "%s: rank %d of %d: if the command calls MPI_Init itself, the "
			"launcher lets each rank start MPI once: only the first of these %zu runs "
			"would; run one configuration with -r 1 per launch then\n", o->prog, l.rank,
			l.size, run.n * o->repeat + (o->overhead ? o->repeat : 0));
	snprintf(path, sizeof(path), "%s/onednn", run.dir);
	if (rt_mkdir_own(path, &err) || write_runcfg(&run, "running", NULL, &err))
		goto fail;
	/* the node's counters, checked on the probe's kernels before the command runs */
	if (o->hw_counters && hw_table(&hwn, run.hwline, sizeof(run.hwline)))
		run.hw = &hwn;
	for (size_t i = 0; i < run.n; i++)
		run.done += run.have[i];
	if ((rc = run_all(&run, 0, &err)))
		goto fail;
	/* tune: the alternatives that won, together, and the claim confirmed (under a launcher
	 * MPI starts once per launch: no runs beyond the sweep's) */
	if (o->tune && !o->ranked && !o->ntogether && !rt_spawn_interrupted() &&
	    (rc = tune_together(&run, &err)))
		goto fail;
	if (!o->ranked && !rt_spawn_interrupted() && (rc = confirm(&run, &err)))
		goto fail;
	if (write_runcfg(&run, rt_spawn_interrupted() ? "interrupted" : "complete", &run.res[0],
			 &err))
		fprintf(stderr, "%s: %s\n", o->prog, err.msg);
	if (finish(&run, &l, top))
		goto out;
	/* a new directory, or a resumed .partial, takes its name once the run is complete */
	if (!rt_spawn_interrupted() && rt_resdir_complete(&rd, &err))
		goto fail;
	fprintf(stderr, "%s: page %s/report.html\n%s: results in %s\n", o->prog, run.dir, o->prog,
		run.dir);
	/* the last rank to finish puts every rank's rows and one summary in the directory */
	if (l.size > 1 && !rt_spawn_interrupted()) {
		rc = rt_cmd_ranks_merge(top, &l, stdout, &err);
		if (rc < 0)
			goto fail;
		if (rc > 0)
			fprintf(stderr, "%s: every rank's rows in %s/points.csv, the job's summary in "
				"%s/summary.txt\n", o->prog, top, top);
	}
	status = rt_spawn_interrupted() ? 130 : 1;
	for (size_t i = 0; i < run.n && status == 1; i++)
		if (run.res[i].wall.runs)
			status = 0;
	if (status == 1)
		fprintf(stderr, "%s: no configuration ran\n", o->prog);
	goto out;
fail:
	fprintf(stderr, "%s: %s\n", o->prog, err.msg);
out:
	rt_cmd_results_free(run.cfgs, run.res, run.n);
	free(run.have);
	free_argv(argv);
	rt_runrec_members_destroy(rec);
	free(run.cwd);
	free(run.program);
	rt_profile_destroy(run.prof);
	rt_resdir_fini(&rd);
	return status;
}
