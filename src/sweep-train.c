/* sweep-train.c: the parent side of a training sweep (the results directory and its request,
 * children, points.csv, summary, charts, run.cfg) and the line protocol a child uses to hand
 * its points back */
#include "config.h"
#include "sweep-train.h"
#include "plot.h"
#include "report.h"
#include "topo.h"
#include "util.h"

#include <errno.h>
#include <libconfig.h>
#include <math.h>
#include <oneapi/dnnl/dnnl.h>
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

/* ---- the child protocol: tab-separated fields, one record a line ---- */

static void put_field(FILE *fp, const char *s)
{
	fputc('\t', fp);
	for (; *s; s++)
		switch (*s) {
		case '\t': fputs("\\t", fp); break;
		case '\n': fputs("\\n", fp); break;
		case '\r': fputs("\\r", fp); break;
		case '\\': fputs("\\\\", fp); break;
		default: fputc(*s, fp);
		}
}

void rt_sweep_emit_point(FILE *fp, const char *scope, const char *name, const char *stat,
			 double seconds, double flops, double bytes, const char *source)
{
	fputs("rt-point", fp);
	put_field(fp, scope);
	put_field(fp, name);
	put_field(fp, stat);
	fprintf(fp, "\t%.9g\t%.17g\t%.17g", seconds, flops, bytes);
	put_field(fp, source);
	fputc('\n', fp);
}

void rt_sweep_emit_memory(FILE *fp, double weights, double activations, double gradients,
			  double optimizer, double workspace, double peak_rss)
{
	fprintf(fp, "rt-memory\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\n", weights, activations,
		gradients, optimizer, workspace, peak_rss);
}

void rt_sweep_emit_impl(FILE *fp, const char *impl)
{
	fputs("rt-impl", fp);
	put_field(fp, impl);
	fputc('\n', fp);
}

void rt_sweep_emit_fused(FILE *fp, const char *name, const char *where)
{
	fputs("rt-fused", fp);
	put_field(fp, name);
	put_field(fp, where);
	fputc('\n', fp);
}

/* Split a line in place at tabs (empty fields kept), undoing put_field's escapes. */
static int split_fields(char *line, char **f, int max)
{
	int n = 0;
	char *r = line, *w = line;

	f[n++] = w;
	for (; *r; r++) {
		if (*r == '\t') {
			*w++ = '\0';
			if (n == max)
				return max + 1;
			f[n++] = w;
		} else if (*r == '\\' && r[1]) {
			r++;
			*w++ = *r == 't' ? '\t' : *r == 'n' ? '\n' : *r == 'r' ? '\r' : *r;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
	return n;
}

static bool number(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = *s ? strtod(s, &end) : -1;
	return *s && !*end && !errno && isfinite(*v) && *v >= 0;
}

static void base_point(struct rt_point *p, const struct rt_sweep_config *c)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->config, sizeof(p->config), "%s", c->name);
	p->threads = c->threads;
	/* the global batch: every rank trains c->batch images of it */
	p->batch = c->batch * (c->ranks > 1 ? (long)c->ranks : 1);
	snprintf(p->affinity, sizeof(p->affinity), "%s", rt_affinity_name(c->affinity));
	snprintf(p->precision, sizeof(p->precision), "%s", rt_precision_name(c->precision));
	p->ranks = c->ranks > 1 ? c->ranks : 1;
}

/* Parse a child's output into *pts (grown as needed; caller frees). Lines that are not the
 * protocol's (a library's own output on stdout) are passed over; a protocol line that does not
 * parse is the configuration's failure, said in why. Returns the count, or -1. */
static int parse_child(char *out, const struct rt_sweep_config *c, struct rt_point **pts,
		       size_t *cap, char *why, size_t whysize)
{
	double mem[6] = { 0 };
	char impl[64] = "";
	int n = 0, lineno = 0;
	char *line, *next;

	for (line = out; line && *line; line = next) {
		char *f[10];
		int nf;

		lineno++;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (strncmp(line, "rt-", 3))
			continue;
		nf = split_fields(line, f, 9);
		if ((!strcmp(f[0], "rt-point") && nf == 8) || (!strcmp(f[0], "rt-fused") && nf == 3)) {
			struct rt_point *p;

			if ((size_t)n + 3 > *cap) {
				size_t ncap = *cap ? 2 * *cap : 256;
				struct rt_point *q = realloc(*pts, ncap * sizeof(*q));

				if (!q) {
					snprintf(why, whysize, "out of memory for the child's points");
					return -1;
				}
				*pts = q;
				*cap = ncap;
			}
			p = &(*pts)[n];
			if (nf == 3) {
				/* a layer run inside other layers' primitives: one row of each
				 * statistic, with no rate */
				static const char *const stats[] = { "median", "min", "max" };

				for (int k = 0; k < 3; k++, p++, n++) {
					base_point(p, c);
					snprintf(p->scope, sizeof(p->scope), "layer");
					snprintf(p->name, sizeof(p->name), "%s", f[1]);
					snprintf(p->stat, sizeof(p->stat), "%s", stats[k]);
					snprintf(p->source, sizeof(p->source), "model");
					snprintf(p->status, sizeof(p->status), "fused");
					snprintf(p->reason, sizeof(p->reason), "%s", f[2]);
				}
				continue;
			}
			base_point(p, c);
			snprintf(p->scope, sizeof(p->scope), "%s", f[1]);
			snprintf(p->name, sizeof(p->name), "%s", f[2]);
			snprintf(p->stat, sizeof(p->stat), "%s", f[3]);
			snprintf(p->source, sizeof(p->source), "%s", f[7]);
			snprintf(p->status, sizeof(p->status), "ok");
			if (!number(f[4], &p->seconds) || !number(f[5], &p->flops) ||
			    !number(f[6], &p->bytes) || !*f[1] || !*f[2]) {
				snprintf(why, whysize, "the child's output line %d is not a point",
					 lineno);
				return -1;
			}
			n++;
		} else if (!strcmp(f[0], "rt-impl") && nf == 2) {
			snprintf(impl, sizeof(impl), "%s", f[1]);
		} else if (!strcmp(f[0], "rt-memory") && nf == 7) {
			for (int k = 0; k < 6; k++)
				if (!number(f[k + 1], &mem[k])) {
					snprintf(why, whysize, "the child's output line %d is not a "
						 "memory record", lineno);
					return -1;
				}
		} else {
			snprintf(why, whysize, "the child's output line %d is not of the protocol",
				 lineno);
			return -1;
		}
	}
	for (int i = 0; i < n; i++) {
		struct rt_point *p = &(*pts)[i];

		p->weights = mem[0];
		p->activations = mem[1];
		p->gradients = mem[2];
		p->optimizer = mem[3];
		p->workspace = mem[4];
		p->peak_rss = mem[5];
		snprintf(p->impl, sizeof(p->impl), "%s", impl);
		rt_point_derive(p);
	}
	if (!n)
		snprintf(why, whysize, "the child printed no points");
	return n ? n : -1;
}

static bool done_before(const struct rt_point *pts, size_t n, const char *config)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(pts[i].config, config))
			return true;
	return false;
}

/* ---- the request in run.cfg ---- */

static int read_config(config_t *cfg, const char *path, struct rt_err *err)
{
	int rc;

	config_init(cfg);
	if ((rc = rt_check_regular(path, err)))
		return rc;
	if (config_read_file(cfg, path))
		return 0;
	if (config_error_type(cfg) == CONFIG_ERR_FILE_IO)
		return access(path, F_OK) ? -ENOENT :
		       rt_err_set(err, -EIO, "%s: cannot read: %s", path, strerror(errno));
	return rt_err_set(err, -EINVAL, "%s:%d: %s", path, config_error_line(cfg),
			  config_error_text(cfg));
}

static int get_str(const config_setting_t *g, const char *path, const char *name, char *buf,
		   size_t size, struct rt_err *err)
{
	const char *v = NULL;

	if (!config_setting_lookup_string(g, name, &v) || strlen(v) >= size)
		return rt_err_set(err, -EINVAL, "%s:%d: request: '%s' must be a string", path,
				  config_setting_source_line(g), name);
	snprintf(buf, size, "%s", v);
	return 0;
}

static int get_long(const config_setting_t *g, const char *path, const char *name, long *out,
		    struct rt_err *err)
{
	long long v;

	if (!config_setting_lookup_int64(g, name, &v) || v < 0 || v > 2147483647LL)
		return rt_err_set(err, -EINVAL, "%s:%d: request: '%s' must be a whole number", path,
				  config_setting_source_line(g), name);
	*out = (long)v;
	return 0;
}

int rt_sweep_request_read(struct rt_sweep_request *r, const char *dir, struct rt_err *err)
{
	char path[4200];
	const config_setting_t *g, *knobs;
	config_t cfg;
	int rc, per_layer = 0;

	memset(r, 0, sizeof(*r));
	snprintf(path, sizeof(path), "%s/run.cfg", dir);
	if ((rc = read_config(&cfg, path, err)))
		goto out;
	g = config_lookup(&cfg, "run.request");
	if (!g || config_setting_type(g) != CONFIG_TYPE_GROUP) {
		rc = rt_err_set(err, -EINVAL, "%s: records no request (written by an older rooftraj)",
				path);
		goto out;
	}
	if ((rc = get_str(g, path, "model", r->model, sizeof(r->model), err)) ||
	    (rc = get_str(g, path, "data", r->data, sizeof(r->data), err)) ||
	    (rc = get_str(g, path, "counters", r->counters, sizeof(r->counters), err)) ||
	    (rc = get_str(g, path, "maxpool", r->maxpool, sizeof(r->maxpool), err)) ||
	    (rc = get_str(g, path, "lr", r->lr, sizeof(r->lr), err)) ||
	    (rc = get_str(g, path, "profile", r->profile, sizeof(r->profile), err)) ||
	    (rc = get_long(g, path, "batch", &r->batch, err)) ||
	    (rc = get_long(g, path, "iterations", &r->iterations, err)) ||
	    (rc = get_long(g, path, "warmup", &r->warmup, err)) ||
	    (rc = get_long(g, path, "repeat", &r->repeat, err)) ||
	    (rc = get_long(g, path, "seed", &r->seed, err)))
		goto out;
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
	return rc;
}

int rt_sweep_request_diff(const struct rt_sweep_request *there,
			  const struct rt_sweep_request *asked, char *buf, size_t size)
{
	char a[RT_KNOB_COUNT * 1030] = "", b[RT_KNOB_COUNT * 1030] = "", num[2][32];
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
		{ "per-layer", there->per_layer ? "yes" : "no", asked->per_layer ? "yes" : "no" },
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

/* A libconfig string literal of s (escaped, cut to fit 8 KiB). */
static void put_cfg(FILE *fp, const char *s)
{
	char e[8300];

	fprintf(fp, "\"%s\"", rt_cfg_escape(e, sizeof(e), s));
}

/* INDENT NAME = "VALUE";\n */
static void put_kv(FILE *fp, const char *indent, const char *name, const char *value)
{
	fprintf(fp, "%s%s = ", indent, name);
	put_cfg(fp, value);
	fputs(";\n", fp);
}

static int write_run_cfg(const char *dir, const struct rt_sweep *s,
			 const struct rt_sweep_train_opts *o, const char *started, bool complete,
			 struct rt_err *err)
{
	const struct rt_sweep_request *r = o->req;
	const dnnl_version_t *dv = dnnl_version();
	char path[4200], ts[32], host[256] = "localhost", hw[32];
	struct rt_outfile of;
	int rc;

	snprintf(path, sizeof(path), "%s/run.cfg", dir);
	if ((rc = rt_outfile_open(&of, path, err)))
		return rc;
	rt_timestamp(ts, sizeof(ts));
	if (gethostname(host, sizeof(host) - 1))
		snprintf(host, sizeof(host), "localhost");
	rt_topo_hwloc_version(hw, sizeof(hw));
	fprintf(of.fp, "# how this sweep was run: enough to run it again (--resume DIR takes the "
		"request from here)\nrun = {\n  tool = \"%s %s\";\n  status = \"%s\";\n"
		"  started = \"%s\";\n", PACKAGE_NAME, PACKAGE_VERSION,
		complete ? "complete" : "running", started);
	if (complete)
		fprintf(of.fp, "  finished = \"%s\";\n", ts);
	put_kv(of.fp, "  ", "host", host);
	put_kv(of.fp, "  ", "command", o->cmdline);
	put_kv(of.fp, "  ", "profile", r->profile);
	fprintf(of.fp, "  configurations = %zu;\n  ranks = %u;\n  request = {\n", s->nconfigs,
		o->ranks ? o->ranks : 1);
	put_kv(of.fp, "    ", "model", r->model);
	put_kv(of.fp, "    ", "data", r->data);
	put_kv(of.fp, "    ", "counters", r->counters);
	put_kv(of.fp, "    ", "maxpool", r->maxpool);
	put_kv(of.fp, "    ", "lr", r->lr);
	fprintf(of.fp, "    batch = %ld; iterations = %ld; warmup = %ld; repeat = %ld; "
		"seed = %ld;\n    per_layer = %s; timeout = %.6f;\n", r->batch, r->iterations,
		r->warmup, r->repeat, r->seed, r->per_layer ? "true" : "false", r->timeout);
	put_kv(of.fp, "    ", "profile", r->profile);
	fprintf(of.fp, "    sweep = [");
	for (size_t i = 0; i < r->nknobs; i++) {
		fprintf(of.fp, "%s ", i ? "," : "");
		put_cfg(of.fp, r->knobs[i]);
	}
	fprintf(of.fp, " ];\n  };\n  libraries = { onednn = \"%d.%d.%d\"; papi = \"%d.%d.%d.%d\"; "
		"hwloc_api = \"%s\"; libconfig = \"%d.%d.%d\"; };\n", dv->major, dv->minor,
		dv->patch, PAPI_VERSION_MAJOR(PAPI_VERSION), PAPI_VERSION_MINOR(PAPI_VERSION),
		PAPI_VERSION_REVISION(PAPI_VERSION), PAPI_VERSION_INCREMENT(PAPI_VERSION), hw,
		LIBCONFIG_VER_MAJOR, LIBCONFIG_VER_MINOR, LIBCONFIG_VER_REVISION);
	if (o->prof) {
		const struct rt_profile *p = o->prof;

		fprintf(of.fp, "  cpu = { model = ");
		put_cfg(of.fp, p->cpu.model);
		fprintf(of.fp, "; sockets = %u; cores = %u; pus = %u; numa_nodes = %u; "
			"clock_ghz = %.3f; };\n  caches = [", p->cpu.sockets, p->cpu.cores, p->cpu.pus,
			p->cpu.numa_nodes, p->cpu.clock_ghz);
		for (size_t i = 0; i < p->ncaches; i++)
			fprintf(of.fp, "%s \"L%d %llu bytes shared by %u cores\"", i ? "," : "",
				p->caches[i].level, (unsigned long long)p->caches[i].size,
				p->caches[i].shared_by);
		fprintf(of.fp, " ];\n");
	}
	fprintf(of.fp, "  environment = [");
	{
		bool first = true;

		for (char **ev = environ; *ev; ev++)
			if (!strncmp(*ev, "OMP_", 4) || !strncmp(*ev, "DNNL_", 5) ||
			    !strncmp(*ev, "KMP_", 4) || !strncmp(*ev, "GOMP_", 5)) {
				fprintf(of.fp, "%s ", first ? "" : ",");
				put_cfg(of.fp, *ev);
				first = false;
			}
	}
	fprintf(of.fp, " ];\n  # each configuration's child: OMP_NUM_THREADS, and OMP_PLACES=cores "
		"with\n  # OMP_PROC_BIND=close (compact) or spread (scatter); none sets neither\n};\n");
	return rt_outfile_commit(&of, err);
}

/* ---- the results directory before a run ---- */

/* The whole of a file (NUL-terminated; caller frees), or NULL with err set. */
static char *slurp_file(const char *path, size_t *len, struct rt_err *err)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0;

	*len = 0;
	if (!fp) {
		rt_err_set(err, -errno, "%s: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t got;

		if (*len + 65536 + 1 > cap) {
			char *q = realloc(buf, cap = 2 * cap + 65536 + 1);

			if (!q) {
				rt_err_set(err, -ENOMEM, "out of memory");
				goto fail;
			}
			buf = q;
		}
		got = fread(buf + *len, 1, cap - *len - 1, fp);
		*len += got;
		if (got == 0)
			break;
	}
	if (ferror(fp)) {
		rt_err_set(err, -EIO, "%s: read failed", path);
		goto fail;
	}
	fclose(fp);
	buf[*len] = '\0';
	return buf;
fail:
	fclose(fp);
	free(buf);
	return NULL;
}

/* The first field of a CSV row (config names need no quoting) into buf; false when the line
 * holds no comma (cut inside its first field). */
static bool row_config(const char *line, char *buf, size_t size)
{
	const char *comma = strchr(line, ',');

	if (!comma)
		return false;
	snprintf(buf, size, "%.*s", (int)(comma - line), line);
	return true;
}

static bool in_names(char (*names)[64], size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return true;
	return false;
}

/* Repair points.csv: a last line without its newline was cut short while written (the
 * configuration it belongs to is incomplete: its rows go, it runs again); with retry, the
 * rows of failed configurations go too. Rewritten atomically; an unreadable file is an error
 * and is left as it is. */
static int prepare_points(const char *csv, bool retry, char *note, size_t notesize,
			  struct rt_err *err)
{
	char (*drop)[64] = NULL, cut[64] = "";
	size_t len = 0, ndrop = 0, nfailed = 0, nrows = 0;
	struct rt_point *pts = NULL;
	char *text = NULL;
	struct rt_outfile of;
	int rc = 0;

	if ((rc = rt_check_regular(csv, err)))
		return rc;
	if (access(csv, F_OK))
		return 0;
	if (!(text = slurp_file(csv, &len, err)))
		return err->code;
	if (len && text[len - 1] != '\n') {
		/* the cut line, and the configuration it belongs to */
		char *last = strrchr(text, '\n');
		char prev[64] = "";

		if (!last) {
			/* a cut header: nothing was measured yet */
			text[0] = '\0';
			len = 0;
		} else {
			char *start = last + 1, *p = last;

			while (p > text && p[-1] != '\n')
				p--;
			if (p > text)   /* the line before the cut one, unless it is the header */
				row_config(p, prev, sizeof(prev));
			if (!row_config(start, cut, sizeof(cut)) || !*cut)
				snprintf(cut, sizeof(cut), "%s", prev);
			*start = '\0';
			len = (size_t)(start - text);
		}
		snprintf(note, notesize, "%s: its last line was cut short while written: "
			 "configuration '%s' is measured again", csv, *cut ? cut : "(none)");
	}
	/* what is left must read as points */
	{
		struct rt_outfile probe;
		size_t n = 0;

		if ((rc = rt_outfile_open(&probe, csv, err)))
			goto out;
		fputs(text, probe.fp);
		if ((rc = rt_outfile_close(&probe, err)))
			goto out;
		rc = rt_points_csv_read(probe.tmp, &pts, &n, err);
		unlink(probe.tmp);
		if (rc) {
			/* name the file the user has, not the temporary copy */
			char msg[sizeof(err->msg)];

			snprintf(msg, sizeof(msg), "%s", err->msg + strlen(probe.tmp));
			rt_err_set(err, rc, "%s%s", csv, msg);
			goto out;
		}
		nrows = n;
	}
	drop = calloc(nrows + 1, sizeof(*drop));
	if (!drop) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	if (*cut)
		snprintf(drop[ndrop++], sizeof(drop[0]), "%s", cut);
	for (size_t i = 0; retry && i < nrows; i++)
		if (!strcmp(pts[i].status, "failed") && !in_names(drop, ndrop, pts[i].config)) {
			snprintf(drop[ndrop++], sizeof(drop[0]), "%s", pts[i].config);
			nfailed++;
		}
	if (nfailed) {
		size_t l = strlen(note);

		snprintf(note + l, notesize - l, "%s%zu failed configuration%s measured again "
			 "(--no-retry keeps %s)", l ? "; " : "", nfailed, nfailed > 1 ? "s" : "",
			 nfailed > 1 ? "them" : "it");
	}
	if (!ndrop && !note[0])
		goto out;
	if ((rc = rt_outfile_open(&of, csv, err)))
		goto out;
	for (char *line = text, *next; *line; line = next) {
		char cfg[64];

		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		if (line != text && row_config(line, cfg, sizeof(cfg)) && in_names(drop, ndrop, cfg))
			continue;
		fwrite(line, 1, (size_t)(next - line), of.fp);
	}
	rc = rt_outfile_commit(&of, err);
out:
	free(drop);
	free(pts);
	free(text);
	return rc;
}

int rt_sweep_train_prepare(const struct rt_sweep *s, const struct rt_sweep_train_opts *o,
			   char *note, size_t notesize, struct rt_err *err)
{
	struct rt_sweep_request there;
	char csv[4200], started[32], diff[2048];
	struct stat st;
	int rc;

	note[0] = '\0';
	snprintf(csv, sizeof(csv), "%s/points.csv", o->outdir);
	rc = rt_sweep_request_read(&there, o->outdir, err);
	if (rc == -ENOENT) {
		if (o->resume)
			return rt_err_set(err, -ENOENT, "%s: nothing to resume (no run.cfg there)",
					  o->outdir);
		if (!stat(csv, &st))
			return rt_err_set(err, -EEXIST, "%s holds points.csv but no run.cfg: not a "
					  "sweep this one can add to (give another --out)", o->outdir);
	} else if (rc) {
		return rc;
	} else if (rt_sweep_request_diff(&there, o->req, diff, sizeof(diff))) {
		return rt_err_set(err, -EEXIST, "%s holds another sweep (%s); give another --out%s",
				  o->outdir, diff, o->resume ? "" : ", or --resume it");
	}
	if ((rc = rt_mkdir_p(o->outdir, err)))
		return rc;
	/* run.cfg first: the directory says what it holds before anything is measured (and
	 * an unwritable one fails here) */
	rt_timestamp(started, sizeof(started));
	if ((rc = write_run_cfg(o->outdir, s, o, started, false, err)))
		return rc;
	return prepare_points(csv, o->retry, note, notesize, err);
}

/* The child's command line for a configuration (argv points into a and the request). */
static void child_argv(const struct rt_sweep_train_opts *o, const struct rt_sweep_config *c,
		       char a[6][32], char *argv[40])
{
	const struct rt_sweep_request *r = o->req;
	int na = 0;

	snprintf(a[0], 32, "%ld", c->batch);
	snprintf(a[1], 32, "%u", c->threads);
	snprintf(a[2], 32, "%ld", r->iterations);
	snprintf(a[3], 32, "%ld", r->warmup);
	snprintf(a[4], 32, "%ld", r->repeat);
	snprintf(a[5], 32, "%ld", r->seed);
	argv[na++] = (char *)o->self;
	argv[na++] = "--model";
	argv[na++] = (char *)r->model;
	argv[na++] = "--batch";
	argv[na++] = a[0];
	argv[na++] = "--threads";
	argv[na++] = a[1];
	argv[na++] = "--iterations";
	argv[na++] = a[2];
	argv[na++] = "--warmup";
	argv[na++] = a[3];
	argv[na++] = "--repeat";
	argv[na++] = a[4];
	argv[na++] = "--seed";
	argv[na++] = a[5];
	argv[na++] = "--data";
	argv[na++] = (char *)r->data;
	argv[na++] = "--counters";
	argv[na++] = (char *)r->counters;
	argv[na++] = "--precision";
	argv[na++] = (char *)rt_precision_name(c->precision);
	argv[na++] = "--maxpool-impl";
	argv[na++] = (char *)r->maxpool;
	if (*r->lr) {
		argv[na++] = "--lr";
		argv[na++] = (char *)r->lr;
	}
	argv[na++] = "--emit-points";
	if (r->per_layer)
		argv[na++] = "--per-layer";
	argv[na] = NULL;
}

/* The charts of a finished sweep. A missing gnuplot is a note (the scripts are there). */
static int draw_charts(const struct rt_sweep_train_opts *o, const struct rt_point *all,
		       size_t nall, FILE *also, struct rt_err *err)
{
	char outbase[4200], what[256];
	const char *slash = strrchr(o->req->model, '/');
	int rc;

	snprintf(outbase, sizeof(outbase), "%s/trajectories", o->outdir);
	snprintf(what, sizeof(what), "%.200s", slash ? slash + 1 : o->req->model);
	if (strlen(what) > 4 && !strcmp(what + strlen(what) - 4, ".cfg"))
		what[strlen(what) - 4] = '\0';
	rc = rt_plot_trajectories(o->prof, all, nall, what, outbase, err);
	if (rc == -ENOENT) {
		if (also)
			fprintf(also, "\nnote: %s\n", err->msg);
		rc = 0;
	}
	if (rc || !o->req->per_layer)
		return rc;
	{
		/* the best configuration's layers */
		const struct rt_point *best = NULL;

		for (size_t i = 0; i < nall; i++)
			if (rt_point_is_headline(&all[i]) &&
			    (!best || all[i].images_per_s > best->images_per_s))
				best = &all[i];
		snprintf(outbase, sizeof(outbase), "%s/layers", o->outdir);
		if (best)
			rc = rt_plot_layers(o->prof, all, nall, best->config, outbase, err);
	}
	return rc == -ENOENT ? 0 : rc;
}

int rt_sweep_train(const struct rt_sweep *s, const struct rt_sweep_train_opts *o, FILE *also,
		   struct rt_err *err)
{
	char csv[4200], summary[4200], started[32];
	struct rt_point *old = NULL, *all = NULL, *pts = NULL;
	size_t nold = 0, nall = 0, cap = 0, measured = 0;
	double t_start = rt_now();
	bool all_measured = false;
	FILE *fp = NULL;
	int rc;

	rt_timestamp(started, sizeof(started));
	snprintf(csv, sizeof(csv), "%s/points.csv", o->outdir);
	snprintf(summary, sizeof(summary), "%s/summary.txt", o->outdir);
	if ((rc = rt_points_csv_read(csv, &old, &nold, err)))
		return rc;
	fp = fopen(csv, "a");
	if (!fp) {
		rc = rt_err_set(err, -errno, "%s: %s", csv, strerror(errno));
		goto out;
	}
	if (ftell(fp) == 0)
		rt_points_csv_header(fp);
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct rt_sweep_config *c = &s->configs[i];
		char env[3][64], a[6][32], result[300], why[256] = "";
		char *argv[40];
		struct rt_child ch;
		int np;

		if (done_before(old, nold, c->name)) {
			if (o->progress)
				o->progress(o->progress_ctx, i + 1, s->nconfigs, c->name,
					    "measured before (resumed)");
			continue;
		}
		child_argv(o, c, a, argv);
		if (o->progress)
			o->progress(o->progress_ctx, i + 1, s->nconfigs, c->name, NULL);
		rt_sweep_env(c, env);
		if ((rc = o->run ? o->run(o->run_ctx, c, &ch, err) :
			  rt_spawn_run(argv, env, 3, o->req->timeout, &ch, err)))
			goto out;
		if (!ch.ok && !strcmp(ch.reason, "interrupted")) {
			/* not a result: the configuration stays unmeasured for --resume */
			free(ch.out);
			rc = rt_err_set(err, -EINTR, "interrupted: the %zu configurations finished are "
					"in %s; --resume %s continues", measured, csv, o->outdir);
			goto out;
		}
		np = ch.ok ? parse_child(ch.out, c, &pts, &cap, why, sizeof(why)) : -1;
		free(ch.out);
		if (np < 0) {
			if (!cap && !(pts = calloc(cap = 1, sizeof(*pts)))) {
				rc = rt_err_set(err, -ENOMEM, "out of memory");
				goto out;
			}
			base_point(&pts[0], c);
			snprintf(pts[0].scope, sizeof(pts[0].scope), "iteration");
			snprintf(pts[0].name, sizeof(pts[0].name), "iteration");
			snprintf(pts[0].stat, sizeof(pts[0].stat), "median");
			snprintf(pts[0].status, sizeof(pts[0].status), "failed");
			snprintf(pts[0].reason, sizeof(pts[0].reason), "%s", ch.ok ? why : ch.reason);
			np = 1;
		}
		for (int k = 0; k < np; k++)
			rt_points_csv_row(fp, &pts[k]);
		/* each configuration lands on disk as it finishes: an interrupted sweep keeps it */
		if (fflush(fp) || ferror(fp)) {
			rc = rt_err_set(err, -EIO, "%s: write failed: %s", csv, strerror(errno));
			goto out;
		}
		measured++;
		{
			/* time left: the mean so far times the configurations to go */
			double left = (rt_now() - t_start) / (double)measured *
				      (double)(s->nconfigs - i - 1);

			if (!strcmp(pts[0].status, "ok"))
				snprintf(result, sizeof(result), "%.1f images/s, %.1f GFLOP/s (about %.0f s "
					 "left)", pts[0].images_per_s, pts[0].gflops, left);
			else
				snprintf(result, sizeof(result), "failed: %.200s (about %.0f s left)",
					 pts[0].reason, left);
		}
		if (o->progress)
			o->progress(o->progress_ctx, i + 1, s->nconfigs, c->name, result);
	}
	if (fclose(fp)) {
		fp = NULL;
		rc = rt_err_set(err, -EIO, "%s: close failed: %s", csv, strerror(errno));
		goto out;
	}
	fp = NULL;
	all_measured = true;
	if ((rc = rt_points_csv_read(csv, &all, &nall, err)) ||
	    (rc = rt_report_summary(summary, all, nall, s->configs[0].name, o->prof, also, err)))
		goto out;
	if (o->prof && (rc = draw_charts(o, all, nall, also, err)))
		goto out;
	rc = write_run_cfg(o->outdir, s, o, started, true, err);
out:
	if (fp)
		fclose(fp);
	/* Ctrl-C while the summary or the charts were made: every point is in points.csv */
	if (rc && all_measured && rt_spawn_interrupted())
		rc = rt_err_set(err, -EINTR, "interrupted while the charts were drawn: every "
				"configuration is in %s; --resume %s draws them", csv, o->outdir);
	free(old);
	free(all);
	free(pts);
	return rc;
}

int rt_results_profile(const char *dir, char *path, size_t size, struct rt_err *err)
{
	char cfgpath[4200];
	const char *prof = NULL;
	config_t cfg;
	int rc = 0;

	snprintf(cfgpath, sizeof(cfgpath), "%s/run.cfg", dir);
	config_init(&cfg);
	if ((rc = rt_check_regular(cfgpath, err)))
		;
	else if (!config_read_file(&cfg, cfgpath))
		rc = config_error_type(&cfg) == CONFIG_ERR_FILE_IO ?
		     rt_err_set(err, -ENOENT, "%s: cannot read (give --profile)", cfgpath) :
		     rt_err_set(err, -EINVAL, "%s:%d: %s", cfgpath, config_error_line(&cfg),
				config_error_text(&cfg));
	else if (!config_lookup_string(&cfg, "run.profile", &prof) || !*prof)
		rc = rt_err_set(err, -EINVAL, "%s: no 'profile' in 'run' (give --profile)", cfgpath);
	else
		snprintf(path, size, "%s", prof);
	config_destroy(&cfg);
	return rc;
}
