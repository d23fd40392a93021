/* runrec.c: run.cfg: the request a results directory holds, read back and compared, and the
 * one writer of the record of how a run went, for every workload (its request through a
 * hook); the record of one configuration a sweep's child reads */
#define _GNU_SOURCE
#include "config.h"
#include "sweep/runrec.h"
#include "base/cfgread.h"
#include "machine/cpu.h"
#include "machine/dnnl.h"
#include "machine/topo.h"
#include "base/util.h"

#include <errno.h>
#include <libconfig.h>
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

/* A whole-number member of the request, required. */
static int get_long(const struct rt_cfg_reader *rd, const config_setting_t *g, const char *name,
		    long *out)
{
	long long v = 0;
	int rc = rt_cfg_int(rd, g, "request", name, &v, 0, 2147483647LL, true);

	*out = (long)v;
	return rc;
}

/* DIR/run.cfg in b (empty before): 0, or -ENOMEM with err set. */
static int cfg_path(struct rt_buf *b, const char *dir, struct rt_err *err)
{
	return rt_buf_printf(b, "%s/run.cfg", dir) ? rt_err_set(err, -ENOMEM, "out of memory") : 0;
}

int rt_runrec_request_read(struct rt_runrec_request *r, const char *dir, struct rt_err *err)
{
	struct rt_buf pathb;            /* beside dir, a path of any length */
	const config_setting_t *g, *knobs;
	const char *path;
	struct rt_cfg_reader rd = { .err = err };
	config_t cfg;
	int rc, per_layer = 0;

	memset(r, 0, sizeof(*r));
	rt_buf_init(&pathb);
	if ((rc = cfg_path(&pathb, dir, err))) {
		rt_buf_fini(&pathb);
		return rc;
	}
	rd.path = path = pathb.s;
	if ((rc = rt_cfg_read(&cfg, path, err)))        /* it inits cfg, read or not */
		goto out;
	g = config_lookup(&cfg, "run.request");
	{
		const char *prog = NULL;

		if (config_lookup_string(&cfg, "run.program", &prog) &&
		    !strcmp(prog, "roofline-run")) {
			rc = rt_err_set(err, -EINVAL, "%s: a run of roofline-run, not a sweep of the "
					"trainer (roofline-run --resume %s takes it)", path, dir);
			goto out;
		}
	}
	if (!g || config_setting_type(g) != CONFIG_TYPE_GROUP) {
		rc = rt_err_set(err, -EINVAL, "%s: records no request (written by an older rooftraj)",
				path);
		goto out;
	}
	if ((rc = rt_cfg_string(&rd, g, "request", "model", r->model, sizeof(r->model), true)) ||
	    (rc = rt_cfg_string(&rd, g, "request", "data", r->data, sizeof(r->data), true)) ||
	    (rc = rt_cfg_string(&rd, g, "request", "counters", r->counters, sizeof(r->counters),
				true)) ||
	    (rc = rt_cfg_string(&rd, g, "request", "maxpool", r->maxpool, sizeof(r->maxpool),
				true)) ||
	    (rc = rt_cfg_string(&rd, g, "request", "lr", r->lr, sizeof(r->lr), false)) ||
	    (rc = rt_cfg_string(&rd, g, "request", "input", r->input, sizeof(r->input),
				false)) ||
	    (rc = rt_cfg_string(&rd, g, "request", "precision", r->precision,
				sizeof(r->precision), false)) ||
	    (rc = rt_cfg_string(&rd, g, "request", "affinity", r->affinity, sizeof(r->affinity),
				false)) ||
	    (rc = rt_cfg_string(&rd, g, "request", "profile", r->profile, sizeof(r->profile),
				false)) ||
	    (rc = get_long(&rd, g, "batch", &r->batch)) ||
	    (rc = get_long(&rd, g, "iterations", &r->iterations)) ||
	    (rc = get_long(&rd, g, "warmup", &r->warmup)) ||
	    (rc = get_long(&rd, g, "repeat", &r->repeat)) ||
	    (rc = get_long(&rd, g, "seed", &r->seed)))
		goto out;
	{
		long long t = -1;

		if (config_setting_get_member(g, "threads") &&
		    (rc = rt_cfg_int(&rd, g, "request", "threads", &t, 0, 2147483647LL, true)))
			goto out;
		r->threads = (long)t;
	}
	if (!config_setting_lookup_bool(g, "per_layer", &per_layer) ||
	    !config_setting_lookup_float(g, "timeout", &r->timeout)) {
		rc = rt_err_set(err, -EINVAL, "%s:%d: request: 'per_layer' (true or false) and "
				"'timeout' (seconds) are required", path, config_setting_source_line(g));
		goto out;
	}
	r->per_layer = per_layer;
	knobs = config_setting_get_member(g, "sweep");
	if (!knobs || config_setting_type(knobs) != CONFIG_TYPE_ARRAY ||
	    config_setting_length(knobs) > RT_KNOB_COUNT) {
		rc = rt_err_set(err, -EINVAL, "%s:%d: request: 'sweep' must be an array of at most %d "
				"strings", path, config_setting_source_line(g), RT_KNOB_COUNT);
		goto out;
	}
	for (int i = 0; i < config_setting_length(knobs); i++) {
		const char *v = config_setting_get_string_elem(knobs, i);

		if (!v || strlen(v) >= sizeof(r->knobs[0])) {
			rc = rt_err_set(err, -EINVAL, "%s:%d: request: 'sweep' must hold strings", path,
					config_setting_source_line(knobs));
			goto out;
		}
		snprintf(r->knobs[r->nknobs++], sizeof(r->knobs[0]), "%s", v);
	}
out:
	config_destroy(&cfg);
	rt_buf_fini(&pathb);
	return rc;
}

int rt_runrec_request_diff(const struct rt_runrec_request *there,
			  const struct rt_runrec_request *asked, char *buf, size_t size)
{
	char a[RT_KNOB_COUNT * 1030] = "", b[RT_KNOB_COUNT * 1030] = "", num[2][32];
	char threads[2][32];            /* "all cores" or the count */
	size_t len = 0;
	int n = 0;
	struct {
		const char *name, *there, *asked;
	} f[] = {
		{ "model", there->model, asked->model },
		{ "data", there->data, asked->data },
		{ "counters", there->counters, asked->counters },
		{ "maxpool-impl", there->maxpool, asked->maxpool },
		{ "lr", *there->lr ? there->lr : "default", *asked->lr ? asked->lr : "default" },
		{ "input", *there->input ? there->input : "the model's",
		  *asked->input ? asked->input : "the model's" },
		{ "precision", *there->precision ? there->precision : "fp32",
		  *asked->precision ? asked->precision : "fp32" },
		{ "affinity", *there->affinity ? there->affinity : "none",
		  *asked->affinity ? asked->affinity : "none" },
		{ "per-layer", there->per_layer ? "yes" : "no", asked->per_layer ? "yes" : "no" },
		/* compared where both recorded it */
		{ "threads", threads[0], threads[there->threads < 0 || asked->threads < 0 ? 0 : 1] },
		{ "sweep", a, b },
	};
	struct {
		const char *name;
		long there, asked;
	} g[] = {
		{ "batch", there->batch, asked->batch },
		{ "iterations", there->iterations, asked->iterations },
		{ "warmup", there->warmup, asked->warmup },
		{ "repeat", there->repeat, asked->repeat },
		{ "seed", there->seed, asked->seed },
	};

	for (int i = 0; i < 2; i++) {
		const long t = i ? asked->threads : there->threads;

		if (t > 0)
			snprintf(threads[i], sizeof(threads[i]), "%ld", t);
		else
			snprintf(threads[i], sizeof(threads[i]), "all cores");
	}
	for (size_t i = 0; i < there->nknobs; i++)
		snprintf(a + strlen(a), sizeof(a) - strlen(a), "%s%s", i ? " " : "", there->knobs[i]);
	for (size_t i = 0; i < asked->nknobs; i++)
		snprintf(b + strlen(b), sizeof(b) - strlen(b), "%s%s", i ? " " : "", asked->knobs[i]);
	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (strcmp(f[i].there, f[i].asked)) {
			if (len < size)
				len += (size_t)snprintf(buf + len, size - len, "%s%s: '%.200s' there, "
							"'%.200s' asked", n ? "; " : "", f[i].name,
							f[i].there, f[i].asked);
			n++;
		}
	for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++)
		if (g[i].there != g[i].asked) {
			snprintf(num[0], sizeof(num[0]), "%ld", g[i].there);
			snprintf(num[1], sizeof(num[1]), "%ld", g[i].asked);
			if (len < size)
				len += (size_t)snprintf(buf + len, size - len, "%s%s: %s there, %s asked",
							n ? "; " : "", g[i].name, num[0], num[1]);
			n++;
		}
	return n;
}

/* INDENT NAME = "VALUE";\n */
static void put_kv(FILE *fp, const char *indent, const char *name, const char *value)
{
	fprintf(fp, "%s%s = ", indent, name);
	rt_cfg_put_str(fp, value);
	fputs(";\n", fp);
}

int rt_runrec_env_kind(const char *kv)
{
	/* the loader's two whole names too: the libraries a run loads */
	static const char *const run[] = { "OMP_", "DNNL_", "ONEDNN_", "KMP_", "GOMP_", "MKL_",
					   "OPENBLAS_", "LD_PRELOAD=", "LD_LIBRARY_PATH=" };
	static const char *const job[] = { "SLURM_JOB_", "SLURM_STEP_", "SLURM_NTASKS" };

	for (size_t i = 0; i < sizeof(run) / sizeof(run[0]); i++)
		if (!strncmp(kv, run[i], strlen(run[i])))
			return RT_RUNREC_ENV_RUN;
	for (size_t i = 0; i < sizeof(job) / sizeof(job[0]); i++)
		if (!strncmp(kv, job[i], strlen(job[i])))
			return RT_RUNREC_ENV_JOB;
	return 0;
}

/* "  environment = [ ... ];": the variables that change what a run does */
static void put_environment(FILE *fp)
{
	bool first = true;

	fprintf(fp, "  environment = [");
	for (char **ev = environ; *ev; ev++)
		if (rt_runrec_env_kind(*ev)) {
			fprintf(fp, "%s ", first ? "" : ",");
			rt_cfg_put_str(fp, *ev);
			first = false;
		}
	fprintf(fp, " ];\n");
}

int rt_runrec_env_same(const char *dir, const char *how, struct rt_err *err)
{
	struct rt_buf path;             /* beside dir, a path of any length */
	struct rt_runrec_members *rec = NULL;
	int rc;

	rt_buf_init(&path);
	if (!(rc = cfg_path(&path, dir, err)) && !(rc = rt_runrec_members_open(&rec, path.s, err)))
		rc = rt_runrec_members_env_same(rec, how, err);
	rt_runrec_members_destroy(rec);
	rt_buf_fini(&path);
	return rc;
}

bool rt_runrec_request_put(FILE *fp, const void *req)
{
	const struct rt_runrec_request *r = req;

	fprintf(fp, "  request = {\n");
	put_kv(fp, "    ", "model", r->model);
	put_kv(fp, "    ", "data", r->data);
	put_kv(fp, "    ", "counters", r->counters);
	put_kv(fp, "    ", "maxpool", r->maxpool);
	put_kv(fp, "    ", "lr", r->lr);
	put_kv(fp, "    ", "input", r->input);
	put_kv(fp, "    ", "precision", r->precision);
	put_kv(fp, "    ", "affinity", r->affinity);
	fprintf(fp, "    batch = %ld; threads = %ld; iterations = %ld; warmup = %ld; "
		"repeat = %ld; seed = %ld;\n    per_layer = %s; timeout = %.6f;\n", r->batch,
		r->threads, r->iterations, r->warmup, r->repeat, r->seed,
		r->per_layer ? "true" : "false", r->timeout);
	put_kv(fp, "    ", "profile", r->profile);
	fprintf(fp, "    sweep = [");
	for (size_t i = 0; i < r->nknobs; i++) {
		fprintf(fp, "%s ", i ? "," : "");
		rt_cfg_put_str(fp, r->knobs[i]);
	}
	fprintf(fp, " ];\n  };\n");
	return true;
}

/* "  configurations_run = ( ... );": what each of v[0..n) ran with */
static void put_configurations(FILE *fp, const struct rt_sweep_config *v, size_t n,
			       const char *numactl)
{
	fputs("  configurations_run = (", fp);
	for (size_t i = 0; i < n; i++) {
		rt_cfg_put_member(fp, i ? ",\n    { name = " : "\n    { name = ", v[i].name);
		fputs("; environment = [", fp);
		for (size_t k = 0; k < v[i].nenv; k++)
			rt_cfg_put_member(fp, k ? ", " : " ", v[i].env[k]);
		rt_cfg_put_member(fp, " ]; preload = ", v[i].preload);
		fputs("; argv_prefix = [", fp);
		if (v[i].numa[0]) {
			char words[sizeof(v[i].numa)], *save = NULL;

			fputc(' ', fp);
			rt_cfg_put_str(fp, numactl);
			snprintf(words, sizeof(words), "%s", v[i].numa);
			for (char *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save))
				rt_cfg_put_member(fp, ", ", w);
			fputs(", \"--\"", fp);
		}
		fprintf(fp, " ];%s }", v[i].together ? " together = true;" : "");
	}
	fputs("\n  );\n", fp);
}

int rt_runrec_write(const char *dir, const struct rt_runrec *o, struct rt_err *err)
{
	const struct rt_profile *p = o->prof;
	char ts[32], host[256] = "localhost", hw[32], dnnl[32];
	struct rt_outfile of;
	struct rt_err ignored;
	struct rt_cpu cpu;
	int rc;

	if ((rc = rt_outfile_open_in(&of, dir, "run.cfg", err)))
		return rc;
	rt_timestamp(ts, sizeof(ts));
	if (gethostname(host, sizeof(host) - 1))
		snprintf(host, sizeof(host), "localhost");
	fprintf(of.fp, "# %s\nrun = {\n  tool = \"%s %s\";\n", o->comment, PACKAGE_NAME,
		PACKAGE_VERSION);
	if (o->program)
		fprintf(of.fp, "  program = \"%s\";\n", o->program);
	fprintf(of.fp, "  status = \"%s\";\n  started = \"%s\";\n", o->status, o->started);
	if (strcmp(o->status, "running"))
		fprintf(of.fp, "  finished = \"%s\";\n", ts);
	put_kv(of.fp, "  ", "host", host);
	put_kv(of.fp, "  ", "command", o->cmdline ? o->cmdline : "");
	put_kv(of.fp, "  ", "profile", o->profile ? o->profile : "");
	if (o->default_config)
		put_kv(of.fp, "  ", "default", o->default_config);
	if (o->hw_counters)
		put_kv(of.fp, "  ", "hardware_counters", o->hw_counters);
	fprintf(of.fp, "  configurations = %zu;\n", o->configurations);
	if (o->ranks)
		fprintf(of.fp, "  ranks = %u;\n", o->ranks);
	if (!o->put(of.fp, o->put_ctx)) {
		rt_outfile_abort(&of);
		return rt_err_set(err, -ENOMEM, "out of memory");
	}
	if (o->configs)
		put_configurations(of.fp, o->configs, o->configurations, o->numactl);
	if (p) {
		/* the profile beside run.cfg (of.path: DIR/run.cfg), before the record that
		 * describes it */
		char kept[sizeof(of.path) + sizeof(RT_RUNREC_PROFILE)];
		const char *slash = strrchr(of.path, '/');

		snprintf(kept, sizeof(kept), "%.*s%s", slash ? (int)(slash - of.path + 1) : 0,
			 of.path, RT_RUNREC_PROFILE);
		if ((rc = rt_profile_save(p, kept, err))) {
			rt_outfile_abort(&of);
			return rc;
		}
	}

	rt_topo_hwloc_version(hw, sizeof(hw));
	/* oneDNN as it reports itself at run time (the library loaded, not the headers) */
	rt_dnnl_version(dnnl, sizeof(dnnl));
	fprintf(of.fp, "  libraries = { onednn = \"%s\"; onednn_hash = \"%s\"; "
		"onednn_runtime = \"%s\"; papi = \"%d.%d.%d.%d\"; "
		"hwloc_api = \"%s\"; libconfig = \"%d.%d.%d\"; };\n", dnnl, rt_dnnl_hash(),
		rt_dnnl_runtime(), PAPI_VERSION_MAJOR(PAPI_VERSION),
		PAPI_VERSION_MINOR(PAPI_VERSION),
		PAPI_VERSION_REVISION(PAPI_VERSION), PAPI_VERSION_INCREMENT(PAPI_VERSION), hw,
		LIBCONFIG_VER_MAJOR, LIBCONFIG_VER_MINOR, LIBCONFIG_VER_REVISION);
	if (!rt_cpu_detect(&cpu, &ignored)) {
		/* the node it ran on, which need not be the profile's */
		rt_cfg_put_member(of.fp, "  node_cpu = { model = ", cpu.model);
		rt_cfg_put_member(of.fp, "; vendor = ", cpu.vendor);
		fprintf(of.fp, "; family = %d; model_number = %d; hypervisor = %s; };\n",
			cpu.family, cpu.model_number, cpu.hypervisor ? "true" : "false");
	}
	if (p) {
		/* the roofs' node, as its profile says */
		rt_cfg_put_member(of.fp, "  cpu = { model = ", p->cpu.model);
		fprintf(of.fp, "; sockets = %u; cores = %u; pus = %u; numa_nodes = %u; "
			"clock_ghz = %.3f; };\n  caches = [", p->cpu.sockets, p->cpu.cores,
			p->cpu.pus, p->cpu.numa_nodes, p->cpu.clock_ghz);
		for (size_t i = 0; i < p->ncaches; i++)
			fprintf(of.fp, "%s \"L%d %llu bytes shared by %u cores\"", i ? "," : "",
				p->caches[i].level, (unsigned long long)p->caches[i].size,
				p->caches[i].shared_by);
		fprintf(of.fp, " ];\n");
	}
	put_environment(of.fp);
	fprintf(of.fp, "};\n");
	return rt_outfile_commit(&of, err);
}

void rt_runrec_child_put(FILE *fp, const struct rt_runrec_request *r,
			 const struct rt_sweep_config *c, long repeat)
{
	fprintf(fp, "# one configuration of a sweep, for its child (roofline-train --emit-points "
		"FILE)\nchild = {\n");
	put_kv(fp, "  ", "model", r->model);
	put_kv(fp, "  ", "data", r->data);
	put_kv(fp, "  ", "counters", r->counters);
	put_kv(fp, "  ", "maxpool", r->maxpool);
	if (*r->lr)
		put_kv(fp, "  ", "lr", r->lr);
	put_kv(fp, "  ", "precision", rt_precision_name(c->precision));
	if (c->input_h > 0)
		fprintf(fp, "  input = \"%ldx%ld\";\n", c->input_h, c->input_w);
	/* one process is placed by its environment (OMP_PLACES); each of several ranks pins
	 * its own threads to its share of the node */
	if (c->ranks > 1)
		put_kv(fp, "  ", "affinity", rt_affinity_name(c->affinity));
	fprintf(fp, "  batch = %ld; threads = %u; ranks = %u;\n  iterations = %ld; warmup = %ld; "
		"repeat = %ld; seed = %ld; per_layer = %s;\n};\n", c->batch, c->threads,
		c->ranks > 1 ? c->ranks : 1, r->iterations, r->warmup, repeat, r->seed,
		r->per_layer ? "true" : "false");
}

struct rt_runrec_members {
	config_t cfg;                   /* the strings handed out live here */
	char *path;                     /* for the messages */
	char **nums;                    /* the numbers' texts handed out: they live as long */
	size_t nnums;
};

/* A scalar setting as text, borrowed from the record (a number's text kept in rec->nums,
 * as long as the strings are); NULL for another kind, or without memory for a number's. */
static const char *member_text(struct rt_runrec_members *rec, const config_setting_t *m)
{
	char num[40], **grown;

	switch (config_setting_type(m)) {
	case CONFIG_TYPE_STRING:
		return config_setting_get_string(m);
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64:
		snprintf(num, sizeof(num), "%lld", config_setting_get_int64(m));
		break;
	case CONFIG_TYPE_FLOAT:
		snprintf(num, sizeof(num), "%.17g", config_setting_get_float(m));
		break;
	case CONFIG_TYPE_BOOL:
		return config_setting_get_bool(m) ? "true" : "false";
	default:
		return NULL;
	}
	if (!(grown = realloc(rec->nums, (rec->nnums + 1) * sizeof(*grown))))
		return NULL;
	rec->nums = grown;
	return (rec->nums[rec->nnums] = strdup(num)) ? rec->nums[rec->nnums++] : NULL;
}

int rt_runrec_members_open(struct rt_runrec_members **rec, const char *path,
			   struct rt_err *err)
{
	struct rt_runrec_members *c = calloc(1, sizeof(*c));
	int rc;

	*rec = NULL;
	if (!c || !(c->path = strdup(path))) {
		free(c);
		return rt_err_set(err, -ENOMEM, "out of memory");
	}
	if ((rc = rt_cfg_read(&c->cfg, path, err))) {   /* it inits cfg, read or not */
		rt_runrec_members_destroy(c);
		return rc;
	}
	*rec = c;
	return 0;
}

int rt_runrec_members_walk(struct rt_runrec_members *rec, const char *group,
			   const char *label, bool arrays,
			   int (*set)(void *ctx, const char *name, const char *value,
				      struct rt_err *err),
			   void *ctx, struct rt_err *err)
{
	const struct rt_cfg_reader rd = { .path = rec->path, .err = err };
	const config_setting_t *g = config_lookup(&rec->cfg, group);

	if (!g || config_setting_type(g) != CONFIG_TYPE_GROUP)
		return rt_cfg_bad(&rd, g, label, "no group '%s' (not the record asked for)", group);
	for (int i = 0; i < config_setting_length(g); i++) {
		const config_setting_t *m = config_setting_get_elem(g, i);
		const bool array = arrays && config_setting_type(m) == CONFIG_TYPE_ARRAY;
		const char *name = config_setting_name(m);

		/* an array's elements each as a member of its name, in order */
		for (int k = 0; k < (array ? config_setting_length(m) : 1); k++) {
			const config_setting_t *e = array ? config_setting_get_elem(m, k) : m;
			const char *v = member_text(rec, e);
			int rc;

			if (!v)
				return rt_cfg_bad(&rd, m, label, "'%s' must be a string, a number or "
						  "true or false%s", name, arrays ? ", or an array "
						  "of them" : "");
			if ((rc = set(ctx, name, v, err))) {
				struct rt_err said = *err;

				return rt_cfg_bad(&rd, m, label, "%s", said.msg);
			}
		}
	}
	return 0;
}

int rt_runrec_members_env_same(const struct rt_runrec_members *rec, const char *how,
			       struct rt_err *err)
{
	/* a record of an older rooftraj without one is not compared */
	const config_setting_t *ev = config_lookup(&rec->cfg, "run.environment");
	const int line = ev ? config_setting_source_line(ev) : 0;

	if (!ev || config_setting_type(ev) != CONFIG_TYPE_ARRAY)
		return 0;
	/* each variable it started with, the same now */
	for (int i = 0; i < config_setting_length(ev); i++) {
		const char *kv = config_setting_get_string_elem(ev, i), *eq, *now = NULL;
		size_t nl;              /* "NAME=", of any length */

		if (!kv || rt_runrec_env_kind(kv) != RT_RUNREC_ENV_RUN || !(eq = strchr(kv, '=')))
			continue;
		nl = (size_t)(eq - kv) + 1;
		for (char **e = environ; *e && !now; e++)
			if (!strncmp(*e, kv, nl))
				now = *e;
		if (!now || strcmp(now, kv))
			return rt_err_set(err, -EINVAL, "%s:%d: environment: %s when the run started, "
					  "%s now (%s)", rec->path, line, kv, now ? now : "unset", how);
	}
	/* and none set now that it did not have */
	for (char **e = environ; *e; e++) {
		bool there = false;

		if (rt_runrec_env_kind(*e) != RT_RUNREC_ENV_RUN)
			continue;
		for (int i = 0; i < config_setting_length(ev) && !there; i++) {
			const char *kv = config_setting_get_string_elem(ev, i);

			there = kv && !strcmp(kv, *e);
		}
		if (!there)
			return rt_err_set(err, -EINVAL, "%s:%d: environment: %s now, unset when the "
					  "run started (%s)", rec->path, line, *e, how);
	}
	return 0;
}

const char *rt_runrec_members_string(const struct rt_runrec_members *rec, const char *path)
{
	const char *v = NULL;

	return config_lookup_string(&rec->cfg, path, &v) ? v : NULL;
}

int rt_runrec_members_line(const struct rt_runrec_members *rec, const char *path)
{
	const config_setting_t *s = config_lookup(&rec->cfg, path);

	return s ? config_setting_source_line(s) : 0;
}

void rt_runrec_members_destroy(struct rt_runrec_members *rec)
{
	if (!rec)
		return;
	config_destroy(&rec->cfg);
	free(rec->path);
	for (size_t i = 0; i < rec->nnums; i++)
		free(rec->nums[i]);
	free(rec->nums);
	free(rec);
}

/* run.KEY of DIR/run.cfg into out ("" when it records none or has no run.cfg) */
static void runrec_string(const char *dir, const char *key, char *out, size_t size)
{
	struct rt_buf cfgpath;          /* beside dir, a path of any length */
	const char *v = NULL;
	struct rt_err ignored;
	config_t cfg;

	out[0] = '\0';
	rt_buf_init(&cfgpath);
	/* an unreadable record is reported by whoever reads it for the profile */
	if (!cfg_path(&cfgpath, dir, &ignored)) {
		if (!rt_cfg_read(&cfg, cfgpath.s, &ignored) && config_lookup_string(&cfg, key, &v))
			snprintf(out, size, "%s", v);
		config_destroy(&cfg);
	}
	rt_buf_fini(&cfgpath);
}

void rt_runrec_default(const char *dir, char *name, size_t size)
{
	runrec_string(dir, "run.default", name, size);
}

int rt_runrec_resume_profile(const char *dir, const char *recorded, struct rt_profile **kept,
			     struct rt_buf *note, struct rt_err *err)
{
	struct rt_profile *now = NULL;
	struct rt_err why;
	char *path;
	int rc;

	*kept = NULL;
	if (asprintf(&path, "%s/%s", dir, RT_RUNREC_PROFILE) < 0)
		return rt_err_set(err, -ENOMEM, "out of memory");
	rc = access(path, F_OK) ? 0 : rt_profile_load(kept, path, err);
	if (rc || !*kept) {
		free(path);
		return rc;
	}
	if (access(recorded, F_OK))
		rc = rt_buf_printf(note, "%s, the profile this run began on, is not there any "
				   "more: it goes on judged on the copy it kept, %s", recorded,
				   path);
	else if (rt_profile_load(&now, recorded, &why))
		rc = rt_buf_printf(note, "%s, the profile this run began on, cannot be read (%s): "
				   "it goes on judged on the copy it kept, %s", recorded, why.msg,
				   path);
	else if (strcmp(now->created, (*kept)->created))
		rc = rt_buf_printf(note, "%s was probed again (%s) since this run began on it "
				   "(%s): it goes on judged on the copy it kept, %s, as its rows "
				   "so far were; give --profile %s to judge every row on the new "
				   "one", recorded, now->created, (*kept)->created, path, recorded);
	if (rc) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		rt_profile_destroy(*kept);
		*kept = NULL;
	}
	free(path);
	rt_profile_destroy(now);
	return rc;
}

void rt_runrec_program(const char *dir, char *name, size_t size)
{
	runrec_string(dir, "run.program", name, size);
}

int rt_runrec_profile(const char *dir, char *path, size_t size, struct rt_err *err)
{
	struct rt_buf cfgpath;          /* beside dir, a path of any length */
	const char *prof = NULL;
	config_t cfg;
	int rc = 0;

	rt_buf_init(&cfgpath);
	rt_buf_printf(&cfgpath, "%s/%s", dir, RT_RUNREC_PROFILE);
	if (cfgpath.failed) {
		rt_buf_fini(&cfgpath);
		return rt_err_set(err, -ENOMEM, "out of memory");
	}
	if (access(cfgpath.s, F_OK) == 0) {
		if (strlen(cfgpath.s) >= size)
			rc = rt_err_set(err, -ENAMETOOLONG, "%s: the path is too long", cfgpath.s);
		else
			snprintf(path, size, "%s", cfgpath.s);
		rt_buf_fini(&cfgpath);
		return rc;
	}
	rt_buf_reset(&cfgpath);
	if ((rc = cfg_path(&cfgpath, dir, err))) {
		rt_buf_fini(&cfgpath);
		return rc;
	}
	if ((rc = rt_cfg_read(&cfg, cfgpath.s, err)) == -ENOENT || rc == -EIO)
		rt_err_set(err, rc, "%s: cannot read (give --profile)", cfgpath.s);
	else if (rc)
		;
	else if (!config_lookup_string(&cfg, "run.profile", &prof) || !*prof)
		rc = rt_err_set(err, -EINVAL, "%s: no 'profile' in 'run' (give --profile)", cfgpath.s);
	else if (strlen(prof) >= size)
		rc = rt_err_set(err, -ENAMETOOLONG, "%s: the profile's path is too long (%zu bytes)",
				cfgpath.s, strlen(prof));
	else
		snprintf(path, size, "%s", prof);
	config_destroy(&cfg);
	rt_buf_fini(&cfgpath);
	return rc;
}
