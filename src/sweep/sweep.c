/* sweep.c: knob parsing, grid expansion and each configuration's environment; a user's
 * command's configurations named by their knobs' words, and how each is launched (its
 * preload, numactl's words) */
#define _GNU_SOURCE
#include "config.h"
#include "sweep/sweep.h"
#include "base/options.h"
#include "node/probe.h"
#include "base/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RT_INPUT_MAX 16384

int rt_sweep_parse_input(const char *s, long *h, long *w, const char *opt, struct rt_err *err)
{
	char *end;
	long a, b;

	errno = 0;
	a = strtol(s, &end, 10);
	b = a;
	if (*end == 'x' && end > s && end[1] >= '0' && end[1] <= '9')
		b = strtol(end + 1, &end, 10);
	if (*s < '0' || *s > '9' || *end || errno || a < 1 || b < 1 || a > RT_INPUT_MAX ||
	    b > RT_INPUT_MAX)
		return rt_err_set(err, -EINVAL, "%s: '%s' is not an input size (HEIGHTxWIDTH or "
				  "one number for a square, each in 1..%d)", opt, s, RT_INPUT_MAX);
	*h = a;
	*w = b;
	return 0;
}

/* The value of a named knob's v-th name: the affinity, or the trainer's v-th precision. */
static long value_of(enum rt_knob k, size_t v)
{
	return k == RT_KNOB_AFFINITY ? (long)v : (long)rt_vocab_train_precisions[v];
}

int rt_sweep_add(struct rt_sweep *s, const char *spec, const struct rt_topo *topo,
		 long model_batch, struct rt_err *err)
{
	const char *eq = strchr(spec, '=');
	size_t klen = eq ? (size_t)(eq - spec) : strlen(spec);
	int k;

	for (k = 0; k < RT_KNOB_COUNT; k++)
		if (strlen(rt_vocab_knobs[k]) == klen &&
		    !strncmp(spec, rt_vocab_knobs[k], klen))
			break;
	if (k == RT_KNOB_COUNT)
		return rt_err_set(err, -EINVAL, "--sweep: unknown knob '%.*s' (threads, batch, "
				  "affinity, precision, input, ranks)", (int)klen, spec);
	for (size_t i = 0; i < s->nknobs; i++)
		if (s->knobs[i].knob == (enum rt_knob)k)
			return rt_err_set(err, -EINVAL, "--sweep: knob '%s' given twice",
					  rt_vocab_knobs[k]);
	if (s->nknobs == RT_KNOB_COUNT)
		return rt_err_set(err, -EINVAL, "--sweep: too many knobs");
	{
		__typeof__(s->knobs[0]) *kn = &s->knobs[s->nknobs];
		char opt[32];
		int rc = 0;

		kn->knob = (enum rt_knob)k;
		kn->n = 0;
		snprintf(opt, sizeof(opt), "--sweep %s", rt_vocab_knobs[k]);
		if (eq && !eq[1])
			return rt_err_set(err, -EINVAL, "%s: the list is empty", opt);
		switch (k) {
		case RT_KNOB_THREADS:
		case RT_KNOB_RANKS:     /* the same counts: 1, powers of two, all cores */
			if (eq) {
				rc = rt_opt_parse_long_list(kn->values, &kn->n, RT_SWEEP_MAX_VALUES, opt,
							    eq + 1, 1, (long)rt_topo_pus(topo), err);
			} else {
				unsigned list[RT_SWEEP_MAX_VALUES];

				kn->n = rt_probe_default_threads(topo, list, RT_SWEEP_MAX_VALUES);
				for (size_t i = 0; i < kn->n; i++)
					kn->values[i] = list[i];
			}
			break;
		case RT_KNOB_BATCH:
			if (eq) {
				rc = rt_opt_parse_long_list(kn->values, &kn->n, RT_SWEEP_MAX_VALUES, opt,
							    eq + 1, 1, 65536, err);
			} else {
				const long mult[4][2] = { { 1, 4 }, { 1, 2 }, { 1, 1 }, { 2, 1 } };

				for (int i = 0; i < 4; i++) {
					long b = model_batch * mult[i][0] / mult[i][1];

					if (b >= 1 && (!kn->n || kn->values[kn->n - 1] != b))
						kn->values[kn->n++] = b;
				}
			}
			break;
		case RT_KNOB_INPUT: {
			/* the same list rules as the other knobs: no empty item, no size twice */
			char buf[1024], *items[RT_SWEEP_MAX_VALUES];
			int cnt;

			if (!eq)
				return rt_err_set(err, -EINVAL, "%s: give the sizes (input=32,64 or "
						  "input=32x64,...)", opt);
			cnt = rt_opt_split_list(buf, sizeof(buf), items, RT_SWEEP_MAX_VALUES, opt,
						eq + 1, err);
			if (cnt < 0)
				return cnt;
			for (int i = 0; i < cnt && !rc; i++) {
				long h, w;

				if ((rc = rt_sweep_parse_input(items[i], &h, &w, opt, err)))
					break;
				for (size_t j = 0; j < kn->n; j++)
					if (kn->values[j] == RT_INPUT_VALUE(h, w))
						return rt_err_set(err, -EINVAL, "%s: '%s' appears twice "
								  "(as %ldx%ld)", opt, items[i], h, w);
				kn->values[kn->n++] = RT_INPUT_VALUE(h, w);
			}
			break;
		}
		default: {
			/* named values: each value is its enum's (an affinity, or one of the
			 * trainer's precisions, in the order names lists them) */
			const char *train[RT_TRAIN_NPRECISIONS];
			const char *const *names = k == RT_KNOB_AFFINITY ? rt_vocab_affinities : train;
			const size_t nn = k == RT_KNOB_AFFINITY ? RT_AFFINITY_COUNT :
					  RT_TRAIN_NPRECISIONS;
			unsigned mask = 0;

			for (size_t v = 0; v < RT_TRAIN_NPRECISIONS; v++)
				train[v] = rt_precision_name(rt_vocab_train_precisions[v]);

			if (eq)
				rc = rt_opt_parse_names(&mask, opt, eq + 1, names, nn, err);
			/* keep the order given */
			if (!rc && eq) {
				char buf[256], *tok, *save = NULL;

				snprintf(buf, sizeof(buf), "%s", eq + 1);
				for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
					for (size_t v = 0; v < nn; v++)
						if (!strcmp(tok, names[v]))
							kn->values[kn->n++] = value_of(k, v);
			} else if (!rc) {
				for (size_t v = 0; v < nn; v++)
					kn->values[kn->n++] = value_of(k, v);
			}
			break;
		}
		}
		if (rc)
			return rc;
	}
	s->nknobs++;
	return 0;
}

void rt_sweep_knob_spec(const struct rt_sweep *s, size_t k, char *buf, size_t size)
{
	const enum rt_knob knob = s->knobs[k].knob;
	size_t len = (size_t)snprintf(buf, size, "%s=", rt_vocab_knobs[knob]);

	for (size_t i = 0; i < s->knobs[k].n && len < size; i++) {
		const long v = s->knobs[k].values[i];
		const char *sep = i ? "," : "";

		if (knob == RT_KNOB_AFFINITY)
			len += (size_t)snprintf(buf + len, size - len, "%s%s", sep,
						rt_affinity_name((enum rt_affinity)v));
		else if (knob == RT_KNOB_PRECISION)
			len += (size_t)snprintf(buf + len, size - len, "%s%s", sep,
						rt_precision_name((enum rt_precision)v));
		else if (knob == RT_KNOB_INPUT)
			len += (size_t)snprintf(buf + len, size - len, "%s%ldx%ld", sep,
						RT_INPUT_H(v), RT_INPUT_W(v));
		else
			len += (size_t)snprintf(buf + len, size - len, "%s%ld", sep, v);
	}
}

void rt_sweep_config_name(struct rt_sweep_config *c, long base_h, long base_w)
{
	char r[16] = "", in[48] = "";

	if (c->ranks > 1)
		snprintf(r, sizeof(r), "-r%u", c->ranks);
	if (base_h && c->input_h && (c->input_h != base_h || c->input_w != base_w)) {
		if (c->input_h == c->input_w)
			snprintf(in, sizeof(in), "-i%ld", c->input_h);
		else
			snprintf(in, sizeof(in), "-i%ldx%ld", c->input_h, c->input_w);
	}
	/* the options' ranges keep a name far under its room ("t1024-b65536-compact-bf16-
	 * i4096x4096-r1024" is 42 characters) */
	snprintf(c->name, sizeof(c->name), "t%u-b%ld-%s%s%s%s%s", c->threads, c->batch,
		 rt_affinity_name(c->affinity), c->precision == RT_PRECISION_FP32 ? "" : "-",
		 c->precision == RT_PRECISION_FP32 ? "" : rt_precision_name(c->precision), in, r);
}

void rt_sweep_set(struct rt_sweep_config *c, enum rt_knob k, long v)
{
	switch (k) {
	case RT_KNOB_THREADS: c->threads = (unsigned)v; break;
	case RT_KNOB_BATCH: c->batch = v; break;
	case RT_KNOB_AFFINITY: c->affinity = (enum rt_affinity)v; break;
	case RT_KNOB_INPUT:
		c->input_h = RT_INPUT_H(v);
		c->input_w = RT_INPUT_W(v);
		break;
	case RT_KNOB_RANKS: c->ranks = (unsigned)v; break;
	default: c->precision = (enum rt_precision)v; break;
	}
}

void rt_sweep_digits(size_t k, const size_t *dims, size_t nd, size_t *idx)
{
	while (nd--) {
		idx[nd] = k % dims[nd];
		k /= dims[nd];
	}
}

int rt_sweep_expand(struct rt_sweep *s, unsigned default_threads, long model_batch,
		    enum rt_affinity affinity, enum rt_precision precision, struct rt_err *err)
{
	struct rt_sweep_config def = { .threads = default_threads, .batch = model_batch,
				       .affinity = affinity, .precision = precision,
				       .ranks = 1, .input_h = s->input_h, .input_w = s->input_w,
				       .is_default = true, .rank = -1 };
	size_t total = 1, dims[RT_KNOB_COUNT], idx[RT_KNOB_COUNT];
	bool threads_swept = false;

	for (size_t k = 0; k < s->nknobs; k++) {
		total *= dims[k] = s->knobs[k].n;
		threads_swept = threads_swept || s->knobs[k].knob == RT_KNOB_THREADS;
	}
	rt_sweep_configs_free(s->configs, s->nconfigs);
	s->configs = calloc(total + 1, sizeof(*s->configs));
	if (!s->configs)
		return rt_err_set(err, -ENOMEM, "out of memory");
	rt_sweep_config_name(&def, s->input_h, s->input_w);
	s->configs[0] = def;
	s->nconfigs = 1;
	for (size_t i = 0; i < total; i++) {
		struct rt_sweep_config c = def;

		c.is_default = false;
		rt_sweep_digits(i, dims, s->nknobs, idx);
		for (size_t k = 0; k < s->nknobs; k++)
			rt_sweep_set(&c, s->knobs[k].knob, s->knobs[k].values[idx[k]]);
		if (c.ranks > 1) {
			/* r ranks share the node: its cores and the global batch */
			if (!threads_swept)
				c.threads = default_threads / c.ranks ? default_threads / c.ranks : 1;
			if (c.batch % (long)c.ranks) {
				rt_sweep_fini(s);
				return rt_err_set(err, -EINVAL, "--sweep ranks: %u ranks do not split "
						  "the batch of %ld images evenly", c.ranks, c.batch);
			}
			c.batch /= (long)c.ranks;
		}
		rt_sweep_config_name(&c, s->input_h, s->input_w);
		if (strcmp(c.name, def.name))
			s->configs[s->nconfigs++] = c;
	}
	for (size_t i = 0; i < s->nconfigs; i++)
		if (!rt_sweep_config_env(&s->configs[i])) {
			rt_sweep_fini(s);
			return rt_err_set(err, -ENOMEM, "out of memory");
		}
	return 0;
}

void rt_sweep_configs_free(struct rt_sweep_config *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		for (size_t k = 0; k < v[i].nenv; k++)
			free(v[i].env[k]);
	free(v);
}

void rt_sweep_config_command(struct rt_sweep_config *c, const char *name, int rank)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->is_default = !strcmp(name, "default");
	c->rank = rank;
	c->affinity = RT_AFFINITY_COUNT;        /* the command's own placement */
}

void rt_sweep_fini(struct rt_sweep *s)
{
	rt_sweep_configs_free(s->configs, s->nconfigs);
	s->configs = NULL;
	s->nconfigs = 0;
}

bool rt_sweep_config_setenv(struct rt_sweep_config *c, const char *name, const char *value)
{
	char *e = NULL;

	if (c->nenv == RT_SWEEP_MAX_ENV || (value ? asprintf(&e, "%s=%s", name, value) < 0 :
					    !(e = strdup(name))))
		return false;
	c->env[c->nenv++] = e;
	return true;
}

const char *rt_sweep_config_getenv(const struct rt_sweep_config *c, const char *name)
{
	const size_t len = strlen(name);

	for (size_t k = c->nenv; k-- > 0;)
		if (!strncmp(c->env[k], name, len) && c->env[k][len] == '=')
			return c->env[k] + len + 1;
	return NULL;
}

bool rt_sweep_config_env(struct rt_sweep_config *c)
{
	static const char *const bind[RT_AFFINITY_COUNT] = { "", "close", "spread" };
	/* several ranks: each pins its threads to its share (--affinity), OMP_PLACES would put
	 * every rank on the same cores */
	const enum rt_affinity a = c->ranks > 1 && c->affinity < RT_AFFINITY_COUNT ?
				   RT_AFFINITY_NONE : c->affinity;
	char n[16];

	snprintf(n, sizeof(n), "%u", c->threads);
	return (!c->threads || rt_sweep_config_setenv(c, "OMP_NUM_THREADS", n)) &&
	       (a == RT_AFFINITY_COUNT ||
		(rt_sweep_config_setenv(c, "OMP_PLACES", a == RT_AFFINITY_NONE ? "" : "cores") &&
		 rt_sweep_config_setenv(c, "OMP_PROC_BIND", bind[a])));
}

static bool env_name_ok(const char *s)
{
	for (const char *p = s; *p; p++)
		if (!(*p == '_' || (isascii(*p) && isalnum((unsigned char)*p))))
			return false;
	return *s && !isdigit((unsigned char)*s);
}

int rt_sweep_env_parse(struct rt_sweep_env *k, const char *spec, struct rt_err *err)
{
	const char *eq = strchr(spec, '='), *c = eq ? eq + 1 : NULL;
	size_t t = 0;

	memset(k, 0, sizeof(*k));
	if (!eq)
		return rt_err_set(err, -EINVAL, "--sweep %s: env:NAME=V1,V2,... expected", spec);
	if ((size_t)(eq - spec - 4) >= sizeof(k->name))
		return rt_err_set(err, -EINVAL, "--sweep env:%.*s...: a variable name of at most "
				  "%zu characters expected", 16, spec + 4, sizeof(k->name) - 1);
	snprintf(k->name, sizeof(k->name), "%.*s", (int)(eq - spec - 4), spec + 4);
	if (!env_name_ok(k->name))
		return rt_err_set(err, -EINVAL, "--sweep %s: '%s' is not a variable name", spec,
				  k->name);
	if (strlen(c) >= sizeof(k->text))
		return rt_err_set(err, -EINVAL, "--sweep env:%s: a list of at most %zu characters "
				  "expected", k->name, sizeof(k->text) - 1);
	do {
		const size_t start = t;

		if (k->n == RT_SWEEP_ENV_VALUES)
			return rt_err_set(err, -EINVAL, "--sweep env:%s: at most %d values", k->name,
					  RT_SWEEP_ENV_VALUES);
		for (; *c && *c != ','; c++) {
			if (*c == '\\' && (c[1] == ',' || c[1] == '\\'))
				c++;
			/* run.cfg and points.csv hold a value on one line */
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				return rt_err_set(err, -EINVAL, "--sweep env:%s: value %zu holds a "
						  "control character (a newline, a tab): a value is "
						  "one line of text", k->name, k->n + 1);
			k->text[t++] = *c;
		}
		k->text[t++] = '\0';
		if (t == start + 1)
			return rt_err_set(err, -EINVAL, "--sweep %s: value %zu is empty", spec,
					  k->n + 1);
		for (size_t j = 0; j < k->n; j++)
			if (!strcmp(k->text + k->at[j], k->text + start))
				return rt_err_set(err, -EINVAL, "--sweep %s: '%s' twice", spec,
						  k->text + start);
		k->at[k->n++] = (unsigned short)start;
	} while (*c++ == ',');
	return 0;
}

void rt_sweep_env_spec(const struct rt_sweep_env *k, struct rt_buf *b)
{
	rt_buf_printf(b, "env:%s=", k->name);
	for (size_t i = 0; i < k->n; i++) {
		if (i)
			rt_buf_puts(b, ",");
		for (const char *v = k->text + k->at[i]; *v; v++) {
			if (*v == ',' || *v == '\\')
				rt_buf_puts(b, "\\");
			rt_buf_add(b, v, 1);
		}
	}
}

struct rt_sweep_config *rt_sweep_configs_command(size_t n, int rank)
{
	struct rt_sweep_config *v = calloc(n, sizeof(*v));

	if (!v)
		return NULL;
	for (size_t i = 0; i < n; i++)
		rt_sweep_config_command(&v[i], i ? "" : "default", rank);
	return v;
}

void rt_sweep_word(struct rt_buf *words, const char *knob, const char *v)
{
	rt_buf_printf(words, "%s%s=", words->len ? " " : "", knob);
	if (!strpbrk(v, " '")) {
		rt_buf_puts(words, v);
		return;
	}
	rt_buf_puts(words, "'");
	for (; *v; v++)
		(void)(*v == '\'' ? rt_buf_puts(words, "'\\''") : rt_buf_add(words, v, 1));
	rt_buf_puts(words, "'");
}

bool rt_sweep_config_named(struct rt_sweep_config *c, struct rt_buf *words)
{
	const bool ok = !words->failed;
	const char *full = words->s;
	const size_t len = ok ? strlen(full) : 0, keep = sizeof(c->name) - 12;
	uint32_t h = 2166136261u;               /* FNV-1a */
	size_t cut = keep;

	if (ok && len < sizeof(c->name)) {
		memcpy(c->name, full, len + 1);
	} else if (ok) {
		/* cut at a character's start, the whole's hash after it: two long names that
		 * begin alike stay two */
		for (size_t i = 0; i < len; i++)
			h = (h ^ (unsigned char)full[i]) * 16777619u;
		while (cut > 0 && ((unsigned char)full[cut] & 0xc0) == 0x80)
			cut--;
		snprintf(c->name, sizeof(c->name), "%.*s #%08x", (int)cut, full, (unsigned)h);
	}
	rt_buf_reset(words);
	return ok;
}

static int cmp_cfg_name(const void *a, const void *b)
{
	return strcmp((*(const struct rt_sweep_config *const *)a)->name,
		      (*(const struct rt_sweep_config *const *)b)->name);
}

int rt_sweep_configs_check(struct rt_sweep_config *v, size_t n, bool ok,
			   struct rt_sweep_config **out, size_t *nout, struct rt_err *err)
{
	const struct rt_sweep_config **p = ok ? calloc(n, sizeof(*p)) : NULL;
	int rc = 0;

	if (!p)
		rc = rt_err_set(err, -ENOMEM, "out of memory");
	for (size_t i = 0; p && i < n; i++)
		p[i] = &v[i];
	if (p)
		qsort(p, n, sizeof(*p), cmp_cfg_name);
	for (size_t i = 1; p && i < n && !rc; i++)
		if (!strcmp(p[i - 1]->name, p[i]->name))
			rc = rt_err_set(err, -EINVAL, "--sweep: configurations %td and %td would "
					"both be named '%s'", p[i - 1] - v + 1, p[i] - v + 1,
					p[i]->name);
	free(p);
	if (rc) {
		rt_sweep_configs_free(v, n);
		return rc;
	}
	*out = v;
	*nout = n;
	return 0;
}

int rt_sweep_config_launch(const struct rt_sweep_config *c, const char *numactl,
			   const char *exe, char *const *cmd, char **preload, char ***argv,
			   struct rt_err *err)
{
	const char *own = getenv("LD_PRELOAD");
	size_t na = 0, nw = c->numa[0] ? 1 : 0, k = 0;
	char *words;

	*preload = NULL;
	if (c->preload[0] && asprintf(preload, "LD_PRELOAD=%s%s%s", own && *own ? own : "",
				      own && *own ? ":" : "", c->preload) < 0) {
		*preload = NULL;
		return rt_err_set(err, -ENOMEM, "out of memory");
	}
	while (cmd[na])
		na++;
	for (const char *w = c->numa; *w; w++)
		nw += *w == ' ';
	/* one allocation: the words' array, then numactl's options cut into words; numactl's
	 * path, "--", the program and the command's words borrowed */
	if (!(*argv = calloc(1, (1 + nw + 1 + na + 1) * sizeof(**argv) + strlen(c->numa) + 1))) {
		free(*preload);
		*preload = NULL;
		return rt_err_set(err, -ENOMEM, "out of memory");
	}
	words = strcpy((char *)(*argv + 1 + nw + 1 + na + 1), c->numa);
	if (nw) {
		(*argv)[k++] = (char *)numactl;
		for (char *save = NULL, *w = strtok_r(words, " ", &save); w;
		     w = strtok_r(NULL, " ", &save))
			(*argv)[k++] = w;
		(*argv)[k++] = (char *)"--";
	}
	(*argv)[k++] = (char *)exe;
	for (size_t i = 1; i < na; i++)
		(*argv)[k++] = cmd[i];
	return 0;
}
