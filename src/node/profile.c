/* profile.c: machine profile I/O: a strict libconfig reader and an exact (%.17g) writer */
#include "config.h"
#include "node/profile.h"
#include "kernels/kernels.h"
#include "base/cfgread.h"
#include "base/vocab.h"
#include "base/util.h"

#include <errno.h>
#include <inttypes.h>
#include <libconfig.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool rt_profile_valid_level(const char *s)
{
	return rt_vocab_index(rt_vocab_levels, RT_VOCAB_NLEVELS, s) >= 0;
}

bool rt_profile_valid_kernel(const char *s)
{
	for (const struct rt_kernel *k = rt_kernel_next(NULL); k; k = rt_kernel_next(k))
		if (k->kind == RT_KERNEL_BANDWIDTH && !strcmp(k->name, s))
			return true;
	return false;
}

bool rt_profile_valid_precision(const char *s)
{
	return rt_vocab_index(rt_vocab_precisions, RT_PRECISION_COUNT, s) >= 0;
}

int rt_profile_create(struct rt_profile **out, struct rt_err *err)
{
	struct rt_profile *p = calloc(1, sizeof(*p));

	if (!p)
		return rt_err_set(err, -ENOMEM, "out of memory");
	p->format = RT_PROFILE_FORMAT;
	*out = p;
	return 0;
}

void rt_profile_destroy(struct rt_profile *p)
{
	if (!p)
		return;
	free(p->caches);
	free(p->levels);
	free(p->flops);
	free(p->bw);
	free(p->curve);
	free(p->sustained);
	free(p->notes);
	free(p->notes_warns);
	free(p);
}

/* Append one element of size sz to a growing array; returns the new slot or NULL. */
static void *push(void *arrp, size_t *n, size_t *cap, size_t sz)
{
	void **arr = arrp;

	if (*n == *cap) {
		size_t ncap = *cap ? 2 * *cap : 8;
		void *q = realloc(*arr, ncap * sz);

		if (!q)
			return NULL;
		*arr = q;
		*cap = ncap;
	}
	return (char *)*arr + (*n)++ * sz;
}

#define PUSH_COPY(p, arr, n, cap, src)                                                         \
	do {                                                                                    \
		void *slot_ = push(&(p)->arr, &(p)->n, &(p)->cap, sizeof(*(p)->arr));           \
		if (!slot_)                                                                     \
			return -ENOMEM;                                                         \
		memcpy(slot_, (src), sizeof(*(p)->arr));                                        \
		return 0;                                                                       \
	} while (0)

int rt_profile_add_cache(struct rt_profile *p, const struct rt_profile_cache *c)
{
	PUSH_COPY(p, caches, ncaches, caches_cap, c);
}

int rt_profile_add_level(struct rt_profile *p, const struct rt_profile_level *l)
{
	PUSH_COPY(p, levels, nlevels, levels_cap, l);
}

int rt_profile_add_flops(struct rt_profile *p, const struct rt_profile_flops *f)
{
	PUSH_COPY(p, flops, nflops, flops_cap, f);
}

int rt_profile_add_bw(struct rt_profile *p, const struct rt_profile_bw *b)
{
	PUSH_COPY(p, bw, nbw, bw_cap, b);
}

int rt_profile_add_point(struct rt_profile *p, const struct rt_profile_point *pt)
{
	PUSH_COPY(p, curve, ncurve, curve_cap, pt);
}

int rt_profile_add_sustained(struct rt_profile *p, const struct rt_profile_sustained *s)
{
	PUSH_COPY(p, sustained, nsustained, sustained_cap, s);
}

int rt_profile_add_note_kind(struct rt_profile *p, bool warns, const char *fmt, ...)
{
	va_list ap;
	char(*slot)[256];

	if (p->warns_cap < p->nnotes + 1) {
		size_t cap = 2 * p->nnotes + 8;
		bool *q = realloc(p->notes_warns, cap * sizeof(*q));

		if (!q)
			return -ENOMEM;
		p->notes_warns = q;
		p->warns_cap = cap;
	}
	if (!(slot = push(&p->notes, &p->nnotes, &p->notes_cap, sizeof(*p->notes))))
		return -ENOMEM;
	p->notes_warns[p->nnotes - 1] = warns;
	va_start(ap, fmt);
	vsnprintf(*slot, sizeof(*slot), fmt, ap);
	va_end(ap);
	return 0;
}

bool rt_profile_note_warns(const struct rt_profile *p, size_t i)
{
	/* every note came through rt_profile_add_note_kind: each has its kind */
	return i < p->nnotes && p->notes_warns[i];
}

#define TRY(x)                                                                                 \
	do {                                                                                    \
		rc = (x);                                                                       \
		if (rc)                                                                         \
			goto out;                                                               \
	} while (0)
#define OOM(x)                                                                                 \
	do {                                                                                    \
		if (x) {                                                                        \
			rc = rt_err_set(err, -ENOMEM, "out of memory");                         \
			goto out;                                                               \
		}                                                                               \
	} while (0)

/* A cache's or level's source: absent (a profile older than the key), hwloc, cpuid or curve. */
static int read_source(const struct rt_cfg_reader *r, const config_setting_t *e, const char *ctx,
		       char *buf, size_t size)
{
	int rc = rt_cfg_string(r, e, ctx, "source", buf, size, false);

	if (!rc && buf[0] && strcmp(buf, "hwloc") && strcmp(buf, "cpuid") && strcmp(buf, "curve"))
		rc = rt_cfg_bad(r, config_setting_get_member(e, "source"), ctx,
				"unknown source '%s' (hwloc, cpuid or curve)", buf);
	return rc;
}

static int read_cpu(const struct rt_cfg_reader *r, const config_setting_t *root,
		    struct rt_profile *p)
{
	const config_setting_t *cpu = config_setting_get_member(root, "cpu"), *isa;
	long long v = 0;
	int rc;

	if (!cpu)
		return rt_cfg_bad(r, root, "", "missing 'cpu'");
	if (config_setting_type(cpu) != CONFIG_TYPE_GROUP)
		return rt_cfg_bad(r, cpu, "", "'cpu' must be a group { ... }");
	rc = rt_cfg_string(r, cpu, "cpu", "model", p->cpu.model, sizeof(p->cpu.model), true);
	if (!rc)
		rc = rt_cfg_string(r, cpu, "cpu", "vendor", p->cpu.vendor, sizeof(p->cpu.vendor),
				false);
	if (!rc)
		rc = rt_cfg_int(r, cpu, "cpu", "family", &v, 0, 1 << 16, false);
	p->cpu.family = (int)v;
	v = 0;
	if (!rc)
		rc = rt_cfg_int(r, cpu, "cpu", "cores", &v, 1, 1 << 20, true);
	p->cpu.cores = (unsigned)v;
	if (!rc)
		rc = rt_cfg_int(r, cpu, "cpu", "pus", &v, 1, 1 << 20, true);
	p->cpu.pus = (unsigned)v;
	if (!rc)
		rc = rt_cfg_int(r, cpu, "cpu", "sockets", &v, 1, 1 << 16, true);
	p->cpu.sockets = (unsigned)v;
	if (!rc)
		rc = rt_cfg_int(r, cpu, "cpu", "numa_nodes", &v, 0, 1 << 16, false);
	p->cpu.numa_nodes = (unsigned)v;
	if (!rc)
		rc = rt_cfg_num(r, cpu, "cpu", "clock_ghz", &p->cpu.clock_ghz, false, false);
	if (!rc)
		rc = rt_cfg_int(r, cpu, "cpu", "memory", &v, 0, INT64_MAX, false);
	p->cpu.memory = (uint64_t)v;
	if (rc)
		return rc;
	isa = config_setting_get_member(cpu, "isa");
	if (isa) {
		if (config_setting_type(isa) != CONFIG_TYPE_ARRAY)
			return rt_cfg_bad(r, isa, "cpu", "'isa' must be an array of strings [ ... ]");
		for (int i = 0; i < config_setting_length(isa); i++) {
			const config_setting_t *e = config_setting_get_elem(isa, (unsigned)i);

			if (config_setting_type(e) != CONFIG_TYPE_STRING)
				return rt_cfg_bad(r, isa, "cpu", "'isa' must be an array of strings");
			if (p->cpu.nisa == RT_CPU_MAX_ISA)
				return rt_cfg_bad(r, isa, "cpu", "'isa' has more than %d entries",
					   RT_CPU_MAX_ISA);
			snprintf(p->cpu.isa[p->cpu.nisa++], sizeof(p->cpu.isa[0]), "%s",
				 config_setting_get_string(e));
		}
	}
	return 0;
}

/* A ceiling's optional "rounds": an array of 1 to RT_PROFILE_MAX_ROUNDS rates, each a number
 * from RT_PROFILE_RATE_MIN to RT_PROFILE_RATE_MAX (an old profile has none). */
static int read_rounds(const struct rt_cfg_reader *r, const config_setting_t *e, const char *ctx,
		       double *rounds, unsigned *n)
{
	const config_setting_t *a = config_setting_get_member(e, "rounds");
	int len;

	*n = 0;
	if (!a)
		return 0;
	len = config_setting_length(a);
	if (config_setting_type(a) != CONFIG_TYPE_ARRAY || len < 1 || len > RT_PROFILE_MAX_ROUNDS)
		return rt_cfg_bad(r, a, ctx, "'rounds' must be an array of 1 to %d rates",
				  RT_PROFILE_MAX_ROUNDS);
	for (int i = 0; i < len; i++) {
		const config_setting_t *x = config_setting_get_elem(a, (unsigned)i);
		int t = config_setting_type(x);
		double v = t == CONFIG_TYPE_FLOAT ? config_setting_get_float(x) :
			   t == CONFIG_TYPE_INT ? (double)config_setting_get_int(x) :
			   t == CONFIG_TYPE_INT64 ? (double)config_setting_get_int64(x) : NAN;

		if (!(v >= RT_PROFILE_RATE_MIN && v <= RT_PROFILE_RATE_MAX))
			return rt_cfg_bad(r, a, ctx, "'rounds' element %d is not a rate from %g to %g",
					  i + 1, RT_PROFILE_RATE_MIN, RT_PROFILE_RATE_MAX);
		rounds[(*n)++] = v;
	}
	return 0;
}

/* The counters group (optional): a state from the list, a table with its events, groups
 * (1..16) and counters (1..64), at most two checks each with its kernel, a ratio (> 0,
 * finite, at most 1000) and whether it was trusted, which must agree with the state. */
static int read_counters(const struct rt_cfg_reader *r, const config_setting_t *root,
			 struct rt_profile *p)
{
	const config_setting_t *c = config_setting_get_member(root, "counters"), *checks = NULL;
	struct rt_pmu_record *rec = &p->counters;
	char state[16];
	long long v = 0;
	int rc;

	if (!c)
		return 0;
	if (config_setting_type(c) != CONFIG_TYPE_GROUP)
		return rt_cfg_bad(r, c, "", "'counters' must be a group { ... }");
	memset(rec, 0, sizeof(*rec));
	if ((rc = rt_cfg_string(r, c, "counters", "state", state, sizeof(state), true)))
		return rc;
	for (rec->state = 0; rec->state < RT_PMU_STATE_COUNT &&
	     strcmp(state, rt_vocab_pmu_states[rec->state]); rec->state++)
		;
	if (rec->state == RT_PMU_STATE_COUNT)
		return rt_cfg_bad(r, config_setting_get_member(c, "state"), "counters",
				  "state '%s' is not validated, refused, not used or no table",
				  state);
	if ((rc = rt_cfg_string(r, c, "counters", "table", rec->table, sizeof(rec->table),
				rec->state != RT_PMU_NO_TABLE)) ||
	    (rc = rt_cfg_string(r, c, "counters", "events", rec->events, sizeof(rec->events),
				rec->table[0] != '\0')) ||
	    (rc = rt_cfg_string(r, c, "counters", "why", rec->why, sizeof(rec->why),
				rec->state != RT_PMU_VALIDATED)) ||
	    (rc = rt_cfg_string(r, c, "counters", "dram", rec->dram, sizeof(rec->dram), false)))
		return rc;
	if (rec->table[0]) {
		if ((rc = rt_cfg_int(r, c, "counters", "groups", &v, 1, RT_EVENTS_MAX, true)))
			return rc;
		rec->groups = (unsigned)v;
		if ((rc = rt_cfg_int(r, c, "counters", "counters", &v, 1, 64, true)))
			return rc;
		rec->counters = (unsigned)v;
	}
	if ((rc = rt_cfg_list(r, c, "checks", &checks,
			      rec->state == RT_PMU_VALIDATED || rec->state == RT_PMU_REFUSED)))
		return rc;
	for (int i = 0; checks && i < config_setting_length(checks); i++) {
		const config_setting_t *e = config_setting_get_elem(checks, (unsigned)i);
		char ctx[32];

		if (i >= RT_PMU_CHECKS_MAX)
			return rt_cfg_bad(r, e, "counters", "more than %d checks", RT_PMU_CHECKS_MAX);
		snprintf(ctx, sizeof(ctx), "counters.checks[%d]", i);
		if ((rc = rt_cfg_string(r, e, ctx, "kernel", rec->check[i].kernel,
					sizeof(rec->check[i].kernel), true)) ||
		    (rc = rt_cfg_num(r, e, ctx, "ratio", &rec->check[i].ratio, false, false)) ||
		    (rc = rt_cfg_bool(r, e, ctx, "trusted", &rec->check[i].trusted)))
			return rc;
		if (rt_events_check_prec(&rec->check[i]) == RT_PRECISION_COUNT)
			return rt_cfg_bad(r, e, ctx, "kernel '%s' does not start with its precision "
					  "(fp64, fp32, bf16, fp16, int8)", rec->check[i].kernel);
		if (!config_setting_get_member(e, "ratio"))
			rec->check[i].ratio = NAN;
		else if (rec->check[i].ratio > 1000)
			return rt_cfg_bad(r, e, ctx, "ratio %g: no counter reads 1000x a kernel",
					  rec->check[i].ratio);
		/* trusted only within the tolerance, as the self-check decides */
		if (rec->check[i].trusted && !(fabs(rec->check[i].ratio - 1) <= RT_EVENTS_TOLERANCE))
			return rt_cfg_bad(r, e, ctx, "trusted at %gx: trust needs a ratio within "
					  "%.0f%% of 1", rec->check[i].ratio,
					  100 * RT_EVENTS_TOLERANCE);
		rec->nchecks++;
	}
	{
		/* validated: trusted for the work of some precision (each of its kernels read
		 * right); refused: for none */
		const bool any = rt_events_trusted_any(rec->check, rec->nchecks);

		if (rec->state == RT_PMU_VALIDATED && !any)
			return rt_cfg_bad(r, c, "counters", "validated, yet no precision has all of "
					  "its checks trusted");
		if (rec->state == RT_PMU_REFUSED && any)
			return rt_cfg_bad(r, c, "counters", "refused, yet every check of a precision "
					  "was trusted");
	}
	p->has_counters = true;
	return 0;
}

static int read_curve(const struct rt_cfg_reader *r, const config_setting_t *root,
		      struct rt_profile *p)
{
	const config_setting_t *c = config_setting_get_member(root, "curve"), *ws, *bw;
	long long v = 0;
	int rc;

	if (!c)
		return 0;
	if (config_setting_type(c) != CONFIG_TYPE_GROUP)
		return rt_cfg_bad(r, c, "", "'curve' must be a group { ... }");
	rc = rt_cfg_string(r, c, "curve", "kernel", p->curve_kernel, sizeof(p->curve_kernel), true);
	if (!rc)
		rc = rt_cfg_string(r, c, "curve", "isa", p->curve_isa, sizeof(p->curve_isa), false);
	if (!rc)
		rc = rt_cfg_int(r, c, "curve", "threads", &v, 1, 1 << 20, true);
	if (rc)
		return rc;
	p->curve_threads = (unsigned)v;
	ws = config_setting_get_member(c, "working_set");
	bw = config_setting_get_member(c, "gbytes_per_s");
	if (!ws || !bw)
		return rt_cfg_bad(r, c, "curve", "missing '%s'", ws ? "gbytes_per_s" : "working_set");
	if (config_setting_type(ws) != CONFIG_TYPE_ARRAY ||
	    config_setting_type(bw) != CONFIG_TYPE_ARRAY)
		return rt_cfg_bad(r, c, "curve", "'working_set' and 'gbytes_per_s' must be arrays");
	if (config_setting_length(ws) != config_setting_length(bw))
		return rt_cfg_bad(r, bw, "curve", "'working_set' has %d values, 'gbytes_per_s' %d",
			   config_setting_length(ws), config_setting_length(bw));
	for (int i = 0; i < config_setting_length(ws); i++) {
		const config_setting_t *a = config_setting_get_elem(ws, (unsigned)i);
		const config_setting_t *b = config_setting_get_elem(bw, (unsigned)i);
		struct rt_profile_point pt;

		if (config_setting_type(a) == CONFIG_TYPE_INT64)
			pt.working_set = (uint64_t)config_setting_get_int64(a);
		else if (config_setting_type(a) == CONFIG_TYPE_INT)
			pt.working_set = (uint64_t)config_setting_get_int(a);
		else
			return rt_cfg_bad(r, ws, "curve", "working_set[%d] must be an integer", i);
		if (config_setting_type(b) == CONFIG_TYPE_FLOAT)
			pt.gbytes_per_s = config_setting_get_float(b);
		else if (config_setting_type(b) == CONFIG_TYPE_INT)
			pt.gbytes_per_s = config_setting_get_int(b);
		else
			return rt_cfg_bad(r, bw, "curve", "gbytes_per_s[%d] must be a number", i);
		if (!(pt.gbytes_per_s > 0) || !isfinite(pt.gbytes_per_s) || (long long)pt.working_set <= 0)
			return rt_cfg_bad(r, bw, "curve", "point %d must be positive", i);
		if (rt_profile_add_point(p, &pt))
			return rt_err_set(r->err, -ENOMEM, "out of memory");
	}
	return 0;
}

bool rt_profile_default_path(char *buf, size_t size, const char *host, char *note,
			     size_t notesize)
{
	char name[256] = "localhost", safe[256];
	bool same;

	if (host)
		snprintf(name, sizeof(name), "%s", host);
	else if (gethostname(name, sizeof(name) - 1) || !*name)
		snprintf(name, sizeof(name), "localhost");
	same = rt_safe_name_map(safe, sizeof(safe), name);
	snprintf(buf, size, "machine-profiles/%s.cfg", safe);
	if (!same && note) {
		snprintf(note, notesize, "the host name is not a safe file name (letters, digits, "
			 "'.', '_', '-', not starting with '.'): the profile is %s", buf);
	}
	return same;
}

int rt_profile_load(struct rt_profile **out, const char *path, struct rt_err *err)
{
	struct rt_cfg_reader r = { .path = path, .err = err };
	struct rt_profile *p = NULL;
	const config_setting_t *root, *list;
	config_t cfg;
	char ctx[64];
	long long v = 0;
	int rc = 0;

	if ((rc = rt_cfg_read(&cfg, path, err)))
		goto out;
	TRY(rt_profile_create(&p, err));
	root = config_lookup(&cfg, "profile");
	if (!root || config_setting_type(root) != CONFIG_TYPE_GROUP) {
		rc = rt_cfg_bad(&r, root, "", "no 'profile' group: not a rooftraj machine profile");
		goto out;
	}
	TRY(rt_cfg_int(&r, root, "", "format", &v, 1, INT32_MAX, true));
	if (v != RT_PROFILE_FORMAT) {
		rc = rt_cfg_bad(&r, config_setting_get_member(root, "format"), "",
			 "format %lld is not supported (this rooftraj reads format %d)", v,
			 RT_PROFILE_FORMAT);
		goto out;
	}
	TRY(rt_cfg_string(&r, root, "", "host", p->host, sizeof(p->host), true));
	TRY(rt_cfg_string(&r, root, "", "created", p->created, sizeof(p->created), false));
	TRY(rt_cfg_string(&r, root, "", "tool", p->tool, sizeof(p->tool), false));
	TRY(rt_cfg_string(&r, root, "", "onednn", p->onednn, sizeof(p->onednn), false));
	TRY(rt_cfg_string(&r, root, "", "onednn_runtime", p->onednn_runtime,
			  sizeof(p->onednn_runtime), false));
	TRY(read_cpu(&r, root, p));

	TRY(rt_cfg_list(&r, root, "caches", &list, false));
	for (int i = 0; list && i < config_setting_length(list); i++) {
		const config_setting_t *e = config_setting_get_elem(list, (unsigned)i);
		struct rt_profile_cache c = { 0 };

		snprintf(ctx, sizeof(ctx), "caches[%d]", i);
		TRY(rt_cfg_int(&r, e, ctx, "level", &v, 1, 5, true));
		c.level = (int)v;
		TRY(rt_cfg_int(&r, e, ctx, "size", &v, 1, INT64_MAX, true));
		c.size = (uint64_t)v;
		TRY(rt_cfg_int(&r, e, ctx, "line", &v, 0, 1 << 20, false));
		c.line = (unsigned)v;
		TRY(rt_cfg_int(&r, e, ctx, "shared_by", &v, 0, 1 << 20, false));
		c.shared_by = (unsigned)v;
		TRY(rt_cfg_int(&r, e, ctx, "count", &v, 0, 1 << 20, false));
		c.count = (unsigned)v;
		TRY(read_source(&r, e, ctx, c.source, sizeof(c.source)));
		OOM(rt_profile_add_cache(p, &c));
	}

	TRY(rt_cfg_list(&r, root, "levels", &list, false));
	for (int i = 0; list && i < config_setting_length(list); i++) {
		const config_setting_t *e = config_setting_get_elem(list, (unsigned)i);
		struct rt_profile_level l = { 0 };

		snprintf(ctx, sizeof(ctx), "levels[%d]", i);
		TRY(rt_cfg_string(&r, e, ctx, "level", l.level, sizeof(l.level), true));
		if (!rt_profile_valid_level(l.level)) {
			rc = rt_cfg_bad(&r, config_setting_get_member(e, "level"), ctx,
				 "unknown level '%s' (L1..L5 or DRAM)", l.level);
			goto out;
		}
		TRY(rt_cfg_int(&r, e, ctx, "hwloc_size", &v, 0, INT64_MAX, false));
		l.hwloc_size = (uint64_t)v;
		TRY(rt_cfg_int(&r, e, ctx, "cpuid_size", &v, 0, INT64_MAX, false));
		l.cpuid_size = (uint64_t)v;
		TRY(rt_cfg_int(&r, e, ctx, "measured_size", &v, 0, INT64_MAX, false));
		l.measured_size = (uint64_t)v;
		TRY(rt_cfg_bool(&r, e, ctx, "agrees", &l.agrees));
		TRY(read_source(&r, e, ctx, l.source, sizeof(l.source)));
		OOM(rt_profile_add_level(p, &l));
	}

	TRY(rt_cfg_list(&r, root, "flops", &list, true));
	for (int i = 0; i < config_setting_length(list); i++) {
		const config_setting_t *e = config_setting_get_elem(list, (unsigned)i);
		struct rt_profile_flops f = { 0 };

		snprintf(ctx, sizeof(ctx), "flops[%d]", i);
		TRY(rt_cfg_string(&r, e, ctx, "precision", f.precision, sizeof(f.precision), true));
		if (!rt_profile_valid_precision(f.precision)) {
			rc = rt_cfg_bad(&r, config_setting_get_member(e, "precision"), ctx,
				 "unknown precision '%s' (fp64, fp32, bf16, fp16, int8)",
				 f.precision);
			goto out;
		}
		TRY(rt_cfg_string(&r, e, ctx, "isa", f.isa, sizeof(f.isa), true));
		TRY(rt_cfg_int(&r, e, ctx, "threads", &v, 1, 1 << 20, true));
		f.threads = (unsigned)v;
		/* a flagged ceiling is a disturbed reading kept as evidence: any positive rate
		 * (a run that got almost none of its core measured 5e-5 GFLOP/s) */
		TRY(rt_cfg_string(&r, e, ctx, "flag", f.flag, sizeof(f.flag), false));
		TRY(rt_cfg_rate(&r, e, ctx, "gflops", &f.gflops, f.flag[0] ? 0 : RT_PROFILE_RATE_MIN,
				RT_PROFILE_RATE_MAX, "GFLOP/s", true));
		/* a median can be far below the best (a run another process took): only above
		 * the best is it no measurement */
		TRY(rt_cfg_num(&r, e, ctx, "median", &f.median, false, false));
		TRY(rt_cfg_num(&r, e, ctx, "spread", &f.spread, false, false));
		TRY(rt_cfg_string(&r, e, ctx, "method", f.method, sizeof(f.method), false));
		TRY(rt_cfg_string(&r, e, ctx, "impl", f.impl, sizeof(f.impl), false));
		TRY(rt_cfg_rate(&r, e, ctx, "theoretical", &f.theoretical, RT_PROFILE_RATE_MIN,
				RT_PROFILE_RATE_MAX, "GFLOP/s", false));
		TRY(read_rounds(&r, e, ctx, f.rounds, &f.nrounds));
		if (f.median > f.gflops * (1 + 1e-9)) {
			rc = rt_cfg_bad(&r, config_setting_get_member(e, "median"), ctx, "'median' %g "
					"is above the best run %g: not a measurement", f.median,
					f.gflops);
			goto out;
		}
		/* no machine runs above what its cores can start: a ceiling past its theoretical
		 * peak by more than the clock reading wanders (5%) is not believed */
		if (f.theoretical > 0 && f.gflops > f.theoretical * 1.05 && !f.flag[0])
			snprintf(f.flag, sizeof(f.flag), "above its theoretical peak %.1f GFLOP/s (line "
				 "%d): the clock or the peak is wrong", f.theoretical,
				 config_setting_source_line(e));
		OOM(rt_profile_add_flops(p, &f));
	}

	TRY(rt_cfg_list(&r, root, "bandwidth", &list, true));
	for (int i = 0; i < config_setting_length(list); i++) {
		const config_setting_t *e = config_setting_get_elem(list, (unsigned)i);
		struct rt_profile_bw b = { 0 };

		snprintf(ctx, sizeof(ctx), "bandwidth[%d]", i);
		TRY(rt_cfg_string(&r, e, ctx, "level", b.level, sizeof(b.level), true));
		if (!rt_profile_valid_level(b.level)) {
			rc = rt_cfg_bad(&r, config_setting_get_member(e, "level"), ctx,
				 "unknown level '%s' (L1..L5 or DRAM)", b.level);
			goto out;
		}
		TRY(rt_cfg_string(&r, e, ctx, "kernel", b.kernel, sizeof(b.kernel), true));
		if (!rt_profile_valid_kernel(b.kernel)) {
			rc = rt_cfg_bad(&r, config_setting_get_member(e, "kernel"), ctx,
				 "unknown kernel '%s' (load, copy, triad, copy_nt, triad_nt)",
				 b.kernel);
			goto out;
		}
		TRY(rt_cfg_string(&r, e, ctx, "isa", b.isa, sizeof(b.isa), false));
		TRY(rt_cfg_int(&r, e, ctx, "threads", &v, 1, 1 << 20, true));
		b.threads = (unsigned)v;
		TRY(rt_cfg_string(&r, e, ctx, "flag", b.flag, sizeof(b.flag), false));
		TRY(rt_cfg_rate(&r, e, ctx, "gbytes_per_s", &b.gbytes_per_s,
				b.flag[0] ? 0 : RT_PROFILE_RATE_MIN, RT_PROFILE_RATE_MAX, "GB/s", true));
		TRY(rt_cfg_num(&r, e, ctx, "median", &b.median, false, false));
		if (b.median > b.gbytes_per_s * (1 + 1e-9)) {
			rc = rt_cfg_bad(&r, config_setting_get_member(e, "median"), ctx, "'median' %g "
					"is above the best run %g: not a measurement", b.median,
					b.gbytes_per_s);
			goto out;
		}
		TRY(rt_cfg_num(&r, e, ctx, "spread", &b.spread, false, false));
		TRY(rt_cfg_int(&r, e, ctx, "working_set", &v, 1, INT64_MAX, true));
		b.working_set = (uint64_t)v;
		TRY(read_rounds(&r, e, ctx, b.rounds, &b.nrounds));
		OOM(rt_profile_add_bw(p, &b));
	}
	TRY(read_curve(&r, root, p));
	TRY(read_counters(&r, root, p));
	TRY(rt_cfg_list(&r, root, "sustained", &list, false));
	for (int i = 0; list && i < config_setting_length(list); i++) {
		const config_setting_t *e = config_setting_get_elem(list, (unsigned)i);
		struct rt_profile_sustained su = { 0 };

		snprintf(ctx, sizeof(ctx), "sustained[%d]", i);
		TRY(rt_cfg_string(&r, e, ctx, "name", su.name, sizeof(su.name), true));
		TRY(rt_cfg_string(&r, e, ctx, "kernel", su.kernel, sizeof(su.kernel), true));
		TRY(rt_cfg_int(&r, e, ctx, "threads", &v, 1, 1 << 20, true));
		su.threads = (unsigned)v;
		TRY(rt_cfg_string(&r, e, ctx, "flag", su.flag, sizeof(su.flag), false));
		TRY(rt_cfg_rate(&r, e, ctx, "value", &su.value, su.flag[0] ? 0 : RT_PROFILE_RATE_MIN,
				RT_PROFILE_RATE_MAX, strncmp(su.name, "bw ", 3) ? "GFLOP/s" : "GB/s",
				true));
		TRY(rt_cfg_num(&r, e, ctx, "seconds", &su.seconds, true, true));
		OOM(rt_profile_add_sustained(p, &su));
	}
	{
		const config_setting_t *notes = config_setting_get_member(root, "notes");

		for (int i = 0; notes && i < config_setting_length(notes); i++) {
			const config_setting_t *e = config_setting_get_elem(notes, (unsigned)i);

			if (config_setting_type(notes) != CONFIG_TYPE_ARRAY ||
			    config_setting_type(e) != CONFIG_TYPE_STRING) {
				rc = rt_cfg_bad(&r, notes, "", "'notes' must be an array of strings");
				goto out;
			}
			OOM(rt_profile_add_note(p, "%s", config_setting_get_string(e)));
		}
	}
	*out = p;
	p = NULL;
out:
	rt_profile_destroy(p);
	config_destroy(&cfg);
	return rc;
}

/* ---- writing ---- */

/* %.17g gives back the same double; keep a '.' so libconfig reads a float */
static void put_num(FILE *fp, double v)
{
	char buf[40];

	snprintf(buf, sizeof(buf), "%.17g", v);
	if (!strpbrk(buf, ".eEn"))
		strcat(buf, ".0");
	fputs(buf, fp);
}

static void put_rounds(FILE *fp, const double *rounds, unsigned n)
{
	if (!n)
		return;
	fprintf(fp, "; rounds = [ ");
	for (unsigned i = 0; i < n; i++) {
		if (i)
			fprintf(fp, ", ");
		put_num(fp, rounds[i]);
	}
	fprintf(fp, " ]");
}

/* counters = { state; table; events; groups; counters; checks = ( {...} ); why; } */
static void write_counters(FILE *fp, const struct rt_pmu_record *c)
{
	rt_cfg_put_member(fp, "  counters = {\n    state = ", rt_vocab_pmu_states[c->state]);
	if (c->table[0]) {
		rt_cfg_put_member(fp, ";\n    table = ", c->table);
		rt_cfg_put_member(fp, ";\n    events = ", c->events);
		fprintf(fp, ";\n    groups = %u;\n    counters = %u", c->groups, c->counters);
	}
	if (c->nchecks) {
		fprintf(fp, ";\n    checks = (");
		for (size_t i = 0; i < c->nchecks; i++) {
			fprintf(fp, "%s\n      { kernel = ", i ? "," : "");
			rt_cfg_put_str(fp, c->check[i].kernel);
			if (isfinite(c->check[i].ratio)) {
				fprintf(fp, "; ratio = ");
				put_num(fp, c->check[i].ratio);
			}
			fprintf(fp, "; trusted = %s; }", c->check[i].trusted ? "true" : "false");
		}
		fprintf(fp, " )");
	}
	if (c->why[0])
		rt_cfg_put_member(fp, ";\n    why = ", c->why);
	if (c->dram[0])
		rt_cfg_put_member(fp, ";\n    dram = ", c->dram);
	fprintf(fp, ";\n  };\n");
}

int rt_profile_save(const struct rt_profile *p, const char *path, struct rt_err *err)
{
	struct rt_outfile of;
	FILE *fp;
	int rc = rt_outfile_open(&of, path, err);

	if (rc)
		return rc;
	fp = of.fp;
	fprintf(fp, "# rooftraj machine profile; the format is described in machine-profiles/README\n"
		    "# flops: GFLOP/s (GOP/s for int8), best of the runs; bandwidth: GB/s (1e9 bytes/s)"
		    " as the kernel\n# moves the bytes (copy counts read + write); working_set: "
		    "bytes over all threads and arrays\nprofile = {\n");
	fprintf(fp, "  format = %d;\n  host = ", p->format);
	rt_cfg_put_str(fp, p->host);
	rt_cfg_put_member(fp, ";\n  created = ", p->created);
	rt_cfg_put_member(fp, ";\n  tool = ", p->tool);
	if (p->onednn[0]) {
		rt_cfg_put_member(fp, ";\n  onednn = ", p->onednn);
		rt_cfg_put_member(fp, "; onednn_runtime = ", p->onednn_runtime);
	}
	rt_cfg_put_member(fp, ";\n  cpu = {\n    model = ", p->cpu.model);
	rt_cfg_put_member(fp, ";\n    vendor = ", p->cpu.vendor);
	fprintf(fp, "; family = %d;\n    isa = [ ", p->cpu.family);
	for (size_t i = 0; i < p->cpu.nisa; i++)
		rt_cfg_put_member(fp, i ? ", " : "", p->cpu.isa[i]);
	fprintf(fp, " ];\n    sockets = %u; cores = %u; pus = %u; numa_nodes = %u;\n",
		p->cpu.sockets, p->cpu.cores, p->cpu.pus, p->cpu.numa_nodes);
	fprintf(fp, "    clock_ghz = ");
	put_num(fp, p->cpu.clock_ghz);
	fprintf(fp, "; memory = %" PRIu64 "L;\n  };\n", p->cpu.memory);

	fprintf(fp, "  caches = (");
	for (size_t i = 0; i < p->ncaches; i++) {
		const struct rt_profile_cache *c = &p->caches[i];

		fprintf(fp, "%s\n    { level = %d; size = %" PRIu64 "L; line = %u; shared_by = %u; "
			"count = %u; source = ", i ? "," : "", c->level, c->size, c->line, c->shared_by,
			c->count);
		rt_cfg_put_str(fp, c->source[0] ? c->source : "hwloc");
		fputs("; }", fp);
	}
	fprintf(fp, "\n  );\n  levels = (");
	for (size_t i = 0; i < p->nlevels; i++) {
		const struct rt_profile_level *l = &p->levels[i];

		fprintf(fp, "%s\n    { level = ", i ? "," : "");
		rt_cfg_put_str(fp, l->level);
		fprintf(fp, "; hwloc_size = %" PRIu64 "L; cpuid_size = %" PRIu64 "L; measured_size = %"
			PRIu64 "L; agrees = %s; source = ", l->hwloc_size, l->cpuid_size,
			l->measured_size, l->agrees ? "true" : "false");
		rt_cfg_put_str(fp, l->source);
		fputs("; }", fp);
	}
	fprintf(fp, "\n  );\n  flops = (");
	for (size_t i = 0; i < p->nflops; i++) {
		const struct rt_profile_flops *f = &p->flops[i];

		fprintf(fp, "%s\n    { precision = ", i ? "," : "");
		rt_cfg_put_str(fp, f->precision);
		rt_cfg_put_member(fp, "; isa = ", f->isa);
		fprintf(fp, "; threads = %u; gflops = ", f->threads);
		put_num(fp, f->gflops);
		fprintf(fp, "; median = ");
		put_num(fp, f->median);
		fprintf(fp, "; spread = ");
		put_num(fp, f->spread);
		rt_cfg_put_member(fp, "; method = ", f->method);
		rt_cfg_put_member(fp, "; impl = ", f->impl);
		fprintf(fp, "; theoretical = ");
		put_num(fp, f->theoretical);
		put_rounds(fp, f->rounds, f->nrounds);
		if (f->flag[0])
			rt_cfg_put_member(fp, "; flag = ", f->flag);
		fprintf(fp, "; }");
	}
	fprintf(fp, "\n  );\n  bandwidth = (");
	for (size_t i = 0; i < p->nbw; i++) {
		const struct rt_profile_bw *b = &p->bw[i];

		fprintf(fp, "%s\n    { level = ", i ? "," : "");
		rt_cfg_put_str(fp, b->level);
		rt_cfg_put_member(fp, "; kernel = ", b->kernel);
		rt_cfg_put_member(fp, "; isa = ", b->isa);
		fprintf(fp, "; threads = %u; gbytes_per_s = ", b->threads);
		put_num(fp, b->gbytes_per_s);
		fprintf(fp, "; median = ");
		put_num(fp, b->median);
		fprintf(fp, "; spread = ");
		put_num(fp, b->spread);
		fprintf(fp, "; working_set = %" PRIu64 "L", b->working_set);
		put_rounds(fp, b->rounds, b->nrounds);
		if (b->flag[0])
			rt_cfg_put_member(fp, "; flag = ", b->flag);
		fprintf(fp, "; }");
	}
	fprintf(fp, "\n  );\n");
	if (p->nsustained) {
		fprintf(fp, "  sustained = (");
		for (size_t i = 0; i < p->nsustained; i++) {
			const struct rt_profile_sustained *su = &p->sustained[i];

			fprintf(fp, "%s\n    { name = ", i ? "," : "");
			rt_cfg_put_str(fp, su->name);
			rt_cfg_put_member(fp, "; kernel = ", su->kernel);
			fprintf(fp, "; threads = %u; value = ", su->threads);
			put_num(fp, su->value);
			fprintf(fp, "; seconds = ");
			put_num(fp, su->seconds);
			if (su->flag[0])
				rt_cfg_put_member(fp, "; flag = ", su->flag);
			fprintf(fp, "; }");
		}
		fprintf(fp, "\n  );\n");
	}
	if (p->ncurve) {
		rt_cfg_put_member(fp, "  curve = {\n    kernel = ", p->curve_kernel);
		rt_cfg_put_member(fp, "; isa = ", p->curve_isa);
		fprintf(fp, "; threads = %u;\n    working_set = [", p->curve_threads);
		for (size_t i = 0; i < p->ncurve; i++)
			fprintf(fp, "%s%" PRIu64 "L", i ? ", " : " ", p->curve[i].working_set);
		fprintf(fp, " ];\n    gbytes_per_s = [");
		for (size_t i = 0; i < p->ncurve; i++) {
			fputs(i ? ", " : " ", fp);
			put_num(fp, p->curve[i].gbytes_per_s);
		}
		fprintf(fp, " ];\n  };\n");
	}
	if (p->has_counters)
		write_counters(fp, &p->counters);
	fprintf(fp, "  notes = [");
	for (size_t i = 0; i < p->nnotes; i++)
		rt_cfg_put_member(fp, i ? ",\n    " : " ", p->notes[i]);
	fprintf(fp, " ];\n};\n");
	return rt_outfile_commit(&of, err);
}

const struct rt_profile_flops *rt_profile_best_flops(const struct rt_profile *p,
						     const char *precision, unsigned threads)
{
	const struct rt_profile_flops *best = NULL;

	for (size_t i = 0; i < p->nflops; i++) {
		const struct rt_profile_flops *f = &p->flops[i];

		if (strcmp(f->precision, precision) || (threads && f->threads != threads) ||
		    f->flag[0])
			continue;
		if (!best || f->gflops > best->gflops)
			best = f;
	}
	return best;
}

const struct rt_profile_bw *rt_profile_best_bw(const struct rt_profile *p, const char *level,
					       unsigned threads)
{
	const struct rt_profile_bw *best = NULL;

	for (size_t i = 0; i < p->nbw; i++) {
		const struct rt_profile_bw *b = &p->bw[i];

		if (strcmp(b->level, level) || (threads && b->threads != threads) || b->flag[0])
			continue;
		if (!best || b->gbytes_per_s > best->gbytes_per_s)
			best = b;
	}
	return best;
}

unsigned rt_profile_nearest_threads(const struct rt_profile *p, unsigned t)
{
	unsigned best = 0;

	for (size_t i = 0; i < p->nflops; i++)
		if (p->flops[i].threads <= t && p->flops[i].threads > best && !p->flops[i].flag[0])
			best = p->flops[i].threads;
	return best;
}

unsigned rt_profile_max_threads(const struct rt_profile *p)
{
	unsigned t = 0;

	for (size_t i = 0; i < p->nflops; i++)
		t = p->flops[i].threads > t ? p->flops[i].threads : t;
	for (size_t i = 0; i < p->nbw; i++)
		t = p->bw[i].threads > t ? p->bw[i].threads : t;
	return t;
}

const char *rt_profile_holding_level(const struct rt_profile *p, double bytes, unsigned t)
{
	for (size_t i = 0; i < p->ncaches; i++) {
		const struct rt_profile_cache *c = &p->caches[i];
		uint64_t size = c->size;
		unsigned share = c->shared_by ? c->shared_by : 1, inst, count = c->count ? c->count : 1;

		if (c->level < 1 || c->level > 5)
			continue;
		for (size_t k = 0; k < p->nlevels; k++)
			if (!strcmp(p->levels[k].level, rt_level_name(c->level)) &&
			    p->levels[k].measured_size)
				size = p->levels[k].measured_size;
		inst = (t + share - 1) / share;
		inst = inst < 1 ? 1 : inst > count ? count : inst;
		if (bytes <= (double)size * inst)
			return rt_level_name(c->level);
	}
	return rt_level_name(0);
}

bool rt_profile_levels_said(const struct rt_profile *p, char *buf, size_t size)
{
	bool other = false;
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < p->ncaches && len < size; i++) {
		const struct rt_profile_cache *c = &p->caches[i];
		const char *src = c->source[0] ? c->source : "hwloc";
		uint64_t named = c->size, size_used = c->size;

		if (c->level < 1 || c->level > 5)
			continue;
		for (size_t k = 0; k < p->nlevels; k++)
			if (!strcmp(p->levels[k].level, rt_level_name(c->level)) &&
			    p->levels[k].measured_size)
				size_used = p->levels[k].measured_size;
		other |= strcmp(src, "hwloc") != 0;
		if (size_used == named || !strcmp(src, "curve"))
			len += (size_t)snprintf(buf + len, size - len, "%sL%d %.0f KiB (%s)",
						len ? ", " : "", c->level, (double)size_used / 1024,
						src);
		else
			len += (size_t)snprintf(buf + len, size - len, "%sL%d %.0f KiB (measured; "
						"%s's %.0f KiB)", len ? ", " : "", c->level,
						(double)size_used / 1024, src, (double)named / 1024);
	}
	if (!other && size)
		buf[0] = '\0';
	return other;
}

/* One ceiling found in both profiles, for rt_profile_compare. */
struct move {
	char what[96];
	const char *unit;
	double before, after, noise;
};

static int cmp_move(const void *x, const void *y)
{
	const struct move *a = x, *b = y;
	double da = fabs(a->after / a->before - 1), db = fabs(b->after / b->before - 1);

	return (da < db) - (da > db);
}

/* The larger of tol and two spreads (a spread that is not a number counts as none). */
static double noise_of(double tol, double s1, double s2)
{
	double n = tol;

	if (isfinite(s1) && s1 > n)
		n = s1;
	if (isfinite(s2) && s2 > n)
		n = s2;
	return n;
}

/* Whether every ISA extension of a is among b's. */
static bool isa_within(const struct rt_profile *a, const struct rt_profile *b)
{
	for (size_t i = 0; i < a->cpu.nisa; i++) {
		size_t j = 0;

		while (j < b->cpu.nisa && strcmp(a->cpu.isa[i], b->cpu.isa[j]))
			j++;
		if (j == b->cpu.nisa)
			return false;
	}
	return true;
}

/* Whether prev was taken on the machine cur was: the same host name and the same CPU (its
 * vendor, family and model, its ISA extensions, its packages, cores and PUs; a member an
 * older profile lacks is not held against it). Else why, in words, into why. Every guest of
 * a cloud may be named "vm": the name alone tells no machine. */
static bool same_machine(const struct rt_profile *cur, const struct rt_profile *prev,
			 char *why, size_t size)
{
	char a[sizeof(prev->cpu.model)], b[sizeof(cur->cpu.model)];

	rt_printable(a, sizeof(a), prev->host);
	if (strcmp(cur->host, prev->host)) {
		snprintf(why, size, "is of host '%.64s', not '%.64s'", a, cur->host);
		return false;
	}
	rt_printable(a, sizeof(a), prev->cpu.model);
	rt_printable(b, sizeof(b), cur->cpu.model);
	if (strcmp(prev->cpu.model, cur->cpu.model))
		snprintf(why, size, "is of another machine named '%.64s': its CPU is '%.100s', "
			 "this one's '%.100s'", cur->host, a, b);
	else if (prev->cpu.vendor[0] && cur->cpu.vendor[0] &&
		 strcmp(prev->cpu.vendor, cur->cpu.vendor))
		snprintf(why, size, "is of another machine named '%.64s': its CPU's vendor differs",
			 cur->host);
	else if (prev->cpu.family && cur->cpu.family && prev->cpu.family != cur->cpu.family)
		snprintf(why, size, "is of another machine named '%.64s': its CPU is of family %d, "
			 "this one's of %d", cur->host, prev->cpu.family, cur->cpu.family);
	else if (prev->cpu.nisa && cur->cpu.nisa && (!isa_within(prev, cur) ||
						     !isa_within(cur, prev)))
		snprintf(why, size, "is of another machine named '%.64s': its CPU has other ISA "
			 "extensions", cur->host);
	else if (prev->cpu.sockets != cur->cpu.sockets || prev->cpu.cores != cur->cpu.cores ||
		 prev->cpu.pus != cur->cpu.pus)
		snprintf(why, size, "is of another machine named '%.64s' (or another share of it): "
			 "%u package%s, %u cores, %u PUs, this one %u, %u, %u", cur->host,
			 prev->cpu.sockets, prev->cpu.sockets == 1 ? "" : "s", prev->cpu.cores,
			 prev->cpu.pus, cur->cpu.sockets, cur->cpu.cores, cur->cpu.pus);
	else
		return true;
	return false;
}

int rt_profile_compare(struct rt_profile *cur, const struct rt_profile *prev, double tol)
{
	char why[400], created[sizeof(prev->created)];
	struct move *mv = NULL;
	size_t cap = cur->nflops + cur->nbw + 1, n = 0, both = 0, moved = 0, clock = 0;
	size_t flagged = 0;     /* in both, but flagged in one: a disturbed reading, not compared */
	int rc = 0;

	if (!same_machine(cur, prev, why, sizeof(why)))
		return rt_profile_add_note(cur, "the previous profile %s: not compared", why) ?
		       -ENOMEM : 0;
	rt_printable(created, sizeof(created), prev->created);
	mv = calloc(cap, sizeof(*mv));
	if (!mv)
		return -ENOMEM;
	for (size_t i = 0; i < cur->nflops; i++) {
		const struct rt_profile_flops *f = &cur->flops[i];

		for (size_t j = 0; j < prev->nflops; j++) {
			const struct rt_profile_flops *g = &prev->flops[j];

			if (g->threads != f->threads || strcmp(g->precision, f->precision) ||
			    strcmp(g->isa, f->isa) || strcmp(g->method, f->method))
				continue;
			if (f->flag[0] || g->flag[0] || !(g->gflops > 0)) {
				flagged++;
				break;
			}
			snprintf(mv[n].what, sizeof(mv[n].what), "%s %s %s at %u thread%s", f->precision,
				 f->isa, f->method, f->threads, f->threads > 1 ? "s" : "");
			mv[n].unit = strcmp(f->precision, "int8") ? "GFLOP/s" : "GOP/s";
			mv[n].before = g->gflops;
			mv[n].after = f->gflops;
			mv[n++].noise = noise_of(tol, f->spread, g->spread);
			break;
		}
	}
	for (size_t i = 0; i < cur->nbw; i++) {
		const struct rt_profile_bw *b = &cur->bw[i];

		for (size_t j = 0; j < prev->nbw; j++) {
			const struct rt_profile_bw *g = &prev->bw[j];

			if (g->threads != b->threads || strcmp(g->level, b->level) ||
			    strcmp(g->kernel, b->kernel))
				continue;
			if (b->flag[0] || g->flag[0] || !(g->gbytes_per_s > 0)) {
				flagged++;
				break;
			}
			snprintf(mv[n].what, sizeof(mv[n].what), "%s %s at %u thread%s", b->level,
				 b->kernel, b->threads, b->threads > 1 ? "s" : "");
			mv[n].unit = "GB/s";
			mv[n].before = g->gbytes_per_s;
			mv[n].after = b->gbytes_per_s;
			mv[n++].noise = noise_of(tol, b->spread, g->spread);
			break;
		}
	}
	if (cur->cpu.clock_ghz > 0 && prev->cpu.clock_ghz > 0) {
		snprintf(mv[n].what, sizeof(mv[n].what), "the clock");
		mv[n].unit = "GHz";
		mv[n].before = prev->cpu.clock_ghz;
		mv[n].after = cur->cpu.clock_ghz;
		mv[n++].noise = tol;
		clock = 1;
	}
	both = n;
	/* keep the moves beyond their noise, largest first */
	for (size_t i = 0; i < both; i++)
		if (fabs(mv[i].after / mv[i].before - 1) > mv[i].noise)
			mv[moved++] = mv[i];
	qsort(mv, moved, sizeof(*mv), cmp_move);
	if (rt_profile_add_note_kind(cur, moved, "against the previous profile of %.64s (%.31s): "
				     "%zu of %zu (%zu ceiling%s%s) moved beyond their noise (%.0f%% "
				     "or their runs' spread); %zu flagged in one of them, not "
				     "compared%s", cur->host, created, moved, both,
				     both - clock, both - clock == 1 ? "" : "s",
				     clock ? " and the clock" : "", 100 * tol, flagged,
				     moved > RT_PROFILE_MOVES_LISTED ? "; the largest follow" : "")) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < moved && i < RT_PROFILE_MOVES_LISTED; i++)
		if (rt_profile_add_note(cur, "since the previous profile: %s moved %+.1f%% (%.4g -> "
					"%.4g %s; noise %.1f%%)", mv[i].what,
					100 * (mv[i].after / mv[i].before - 1), mv[i].before,
					mv[i].after, mv[i].unit, 100 * mv[i].noise)) {
			rc = -ENOMEM;
			goto out;
		}
	rc = (int)moved;
out:
	free(mv);
	return rc;
}

/* A round into rounds[*n] (the ceiling's own value first) and the ceiling *value the best. */
static bool add_round(double *value, double *rounds, unsigned *n, double round)
{
	if (*n + (*n ? 1 : 2) > RT_PROFILE_MAX_ROUNDS)
		return false;
	if (!*n)
		rounds[(*n)++] = *value;
	rounds[(*n)++] = round;
	if (round > *value)
		*value = round;
	return true;
}

bool rt_profile_flops_add_round(struct rt_profile_flops *f, double gflops)
{
	return add_round(&f->gflops, f->rounds, &f->nrounds, gflops);
}

bool rt_profile_bw_add_round(struct rt_profile_bw *b, double gbytes_per_s)
{
	return add_round(&b->gbytes_per_s, b->rounds, &b->nrounds, gbytes_per_s);
}

double rt_profile_rounds_spread(const double *rounds, unsigned n)
{
	double v[RT_PROFILE_MAX_ROUNDS], lo, hi, med;

	if (n < 2 || n > RT_PROFILE_MAX_ROUNDS)
		return 0;
	memcpy(v, rounds, n * sizeof(*v));
	lo = hi = v[0];
	for (unsigned i = 1; i < n; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	med = rt_median(v, n);
	return med > 0 ? (hi - lo) / med : 0;
}

/* "a, b, c" of n rounds */
static void rounds_text(char *buf, size_t size, const double *r, unsigned n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%.4g", i ? ", " : "", r[i]);
}

int rt_profile_judge_rounds(struct rt_profile *p, double tol)
{
	size_t judged = 0, bad = 0;
	double widest = 0;
	char text[128], widest_what[64] = "";

	for (size_t i = 0; i < p->nflops + p->nbw; i++) {
		const bool fl = i < p->nflops;
		const struct rt_profile_flops *f = fl ? &p->flops[i] : NULL;
		const struct rt_profile_bw *b = fl ? NULL : &p->bw[i - p->nflops];
		const double *r = fl ? f->rounds : b->rounds;
		const unsigned n = fl ? f->nrounds : b->nrounds;
		/* the noise is tol, not the spread of the ceiling's own runs: each round is the
		 * best of its runs, which a slow run does not move, and a ceiling whose runs
		 * were far apart is no reason to call rounds 35% apart stable */
		const double noise = tol;
		double spread;
		char what[64];

		if (n < 2 || (fl ? f->flag[0] : b->flag[0]))
			continue;
		judged++;
		spread = rt_profile_rounds_spread(r, n);
		if (spread <= noise)
			continue;
		bad++;
		if (fl)
			snprintf(what, sizeof(what), "%s %s at %u thread%s", f->precision, f->isa,
				 f->threads, f->threads > 1 ? "s" : "");
		else
			snprintf(what, sizeof(what), "%s %s at %u thread%s", b->level, b->kernel,
				 b->threads, b->threads > 1 ? "s" : "");
		if (spread > widest) {
			widest = spread;
			snprintf(widest_what, sizeof(widest_what), "%s", what);
		}
		rounds_text(text, sizeof(text), r, n);
		if (rt_profile_add_note(p, "unstable: %s: its %u rounds (%s %s) disagree by %.0f%%, "
					"beyond the noise (%.0f%%)", what, n, text, fl ? "GFLOP/s" : "GB/s",
					100 * spread, 100 * noise))
			return -ENOMEM;
	}
	if (!judged)
		return 0;
	if (bad ? rt_profile_add_note(p, "the node is unstable: %zu of %zu ceilings measured in rounds "
				      "disagree beyond the noise, %s by %.0f%%: a share of a roof "
				      "built on them is as uncertain", bad, judged, widest_what,
				      100 * widest) :
		  rt_profile_add_note_kind(p, false, "the node is stable: %zu ceiling%s measured in "
					   "rounds, each within the noise", judged,
					   judged == 1 ? "" : "s"))
		return -ENOMEM;
	return (int)bad;
}
