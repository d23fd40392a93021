/* sweep-child.c: the child side of a sweep (one configuration measured, its points written)
 * and the line protocol between child and parent */
#include "config.h"
#include "sweep-child.h"
#include "counters.h"
#include "topo.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void emit_point(FILE *fp, const char *scope, const char *name, const char *stat,
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

/* The memory split as allocated, the process's peak RSS and the forward-only footprint. */
static void emit_memory(FILE *fp, const struct rt_net_memory *mem, long peak_rss_kib)
{
	fprintf(fp, "rt-memory\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%.0f\t%llu\n",
		(unsigned long long)mem->weights, (unsigned long long)mem->activations,
		(unsigned long long)mem->weight_grads, (unsigned long long)mem->activation_grads,
		(unsigned long long)mem->optimizer, (unsigned long long)mem->workspace,
		(double)peak_rss_kib * 1024, (unsigned long long)mem->inference);
}

static void emit_impl(FILE *fp, const char *impl)
{
	fputs("rt-impl", fp);
	put_field(fp, impl);
	fputc('\n', fp);
}

static void emit_fused(FILE *fp, const char *name, const char *where)
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

void rt_sweep_config_point(struct rt_point *p, const struct rt_sweep_config *c)
{
	memset(p, 0, sizeof(*p));
	p->weight_gradients = p->activation_gradients = p->inference = NAN;
	snprintf(p->config, sizeof(p->config), "%s", c->name);
	p->threads = c->threads;
	/* the global batch: every rank trains c->batch images of it */
	p->batch = c->batch * (c->ranks > 1 ? (long)c->ranks : 1);
	p->affinity = c->affinity;
	p->precision = c->precision;
	p->ranks = c->ranks > 1 ? c->ranks : 1;
	p->input_h = c->input_h;
	p->input_w = c->input_w;
}

int rt_sweep_child_parse(char *out, const struct rt_sweep_config *c, struct rt_point **pts,
		       size_t *cap, char *why, size_t whysize)
{
	double mem[8] = { 0 }, input[2] = { 0 };
	char impl[64] = "";
	int n = 0, lineno = 0, scope, stat, source;
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
				for (int k = 0; k < RT_STAT_COUNT; k++, p++, n++) {
					rt_sweep_config_point(p, c);
					p->scope = RT_SCOPE_LAYER;
					snprintf(p->name, sizeof(p->name), "%s", f[1]);
					p->stat = (enum rt_stat)k;
					p->source = RT_SOURCE_MODEL;
					p->status = RT_STATUS_FUSED;
					snprintf(p->reason, sizeof(p->reason), "%s", f[2]);
				}
				continue;
			}
			rt_sweep_config_point(p, c);
			scope = rt_vocab_index(rt_point_scopes, RT_SCOPE_COUNT, f[1]);
			stat = rt_vocab_index(rt_point_stats, RT_STAT_COUNT, f[3]);
			source = rt_vocab_index(rt_vocab_sources, RT_SOURCE_COUNT, f[7]);
			p->scope = (enum rt_scope)scope;
			snprintf(p->name, sizeof(p->name), "%s", f[2]);
			p->stat = (enum rt_stat)stat;
			p->source = (enum rt_source)source;
			p->status = RT_STATUS_OK;
			if (!number(f[4], &p->seconds) || !number(f[5], &p->flops) ||
			    !number(f[6], &p->bytes) || scope < 0 || stat < 0 || source <= 0 ||
			    !*f[2]) {
				snprintf(why, whysize, "the child's output line %d is not a point",
					 lineno);
				return -1;
			}
			n++;
		} else if (!strcmp(f[0], "rt-impl") && nf == 2) {
			snprintf(impl, sizeof(impl), "%s", f[1]);
		} else if (!strcmp(f[0], "rt-input") && nf == 3) {
			for (int k = 0; k < 2; k++)
				if (!number(f[k + 1], &input[k]) || input[k] < 1) {
					snprintf(why, whysize, "the child's output line %d is not an "
						 "input size", lineno);
					return -1;
				}
		} else if (!strcmp(f[0], "rt-memory") && nf == 9) {
			for (int k = 0; k < 8; k++)
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
		p->weight_gradients = mem[2];
		p->activation_gradients = mem[3];
		p->gradients = mem[2] + mem[3];
		p->optimizer = mem[4];
		p->workspace = mem[5];
		p->peak_rss = mem[6];
		p->inference = mem[7];
		p->input_h = (long)input[0];
		p->input_w = (long)input[1];
		snprintf(p->impl, sizeof(p->impl), "%s", impl);
		rt_point_derive(p);
	}
	if (!n)
		snprintf(why, whysize, "the child printed no points");
	return n ? n : -1;
}

/* The median, min and max of r runs' seconds (v is sorted). */
static void emit_stats(FILE *out, const char *scope, const char *name, double *v, long r,
		       double flops, double bytes, const char *source)
{
	const double median = rt_median(v, (size_t)r);  /* sorts v ascending */

	emit_point(out, scope, name, "median", median, flops, bytes, source);
	emit_point(out, scope, name, "min", v[0], flops, bytes, source);
	emit_point(out, scope, name, "max", v[r - 1], flops, bytes, source);
}

int rt_sweep_child_measure(FILE *out, const struct rt_model *m, const struct rt_net_opts *no,
			   const struct rt_sweep_measure *o, struct rt_err *err)
{
	const int np = RT_PHASE_COUNT, first_layer = 1 + np;
	const long repeat = o->repeat, iters = o->iterations;
	const struct rt_counter_backend *backend = NULL;
	struct rt_train_opts to = { .iterations = iters, .warmup = o->warmup, .data = o->data,
				    .comm = o->comm };
	struct rt_model_totals t;
	struct rt_err why = { 0 };
	double *sec = calloc((size_t)repeat * ((size_t)first_layer + m->nlayers), sizeof(double));
	double *copy = calloc((size_t)repeat, sizeof(double));
	struct rt_layer_work *work = calloc(m->nlayers, sizeof(*work));
	const double ranks = o->comm ? o->comm->size : 1;
	double flops = 0, bytes = 0, pf[RT_PHASE_COUNT] = { 0 }, pb[RT_PHASE_COUNT] = { 0 };
	const char *src = "model";
	void *cctx = NULL;
	int rc = 0;

	if (!sec || !work || !copy) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	rt_model_totals(m, no->batch, &t);
	/* the model's work by phase: the loss layer's is forward's; loading the batch, reading
	 * the loss and summing the gradients over the ranks count no FLOPs or memory bytes */
	pf[RT_PHASE_FORWARD] = t.fwd_flops * ranks;
	pb[RT_PHASE_FORWARD] = t.fwd_bytes * ranks;
	pf[RT_PHASE_BACKWARD] = t.bwd_flops * ranks;
	pb[RT_PHASE_BACKWARD] = t.bwd_bytes * ranks;
	pf[RT_PHASE_UPDATE] = t.update_flops * ranks;
	pb[RT_PHASE_UPDATE] = t.update_bytes * ranks;
	if (strcmp(o->counters, "none") &&
	    (rc = rt_counters_open(o->counters, &backend, &cctx, &why, err))) {
		backend = NULL;
		goto out;
	}
	to.meter = backend ? &backend->meter : NULL;
	to.meter_ctx = cctx;
	for (long r = 0; r < repeat; r++) {
		struct rt_train_result res;

		if ((rc = rt_train_run(m, no, &to, &res, err)))
			goto out;
		sec[r] = res.iter_seconds;
		for (int p = 0; p < np; p++)
			sec[(size_t)(p + 1) * (size_t)repeat + (size_t)r] = res.phase_seconds[p];
		/* each layer's time where its primitives run: a fused relu's in its host's */
		rt_model_layer_work(m, no->batch, res.layer_fwd, res.layer_bwd, work);
		for (size_t l = 0; l < m->nlayers; l++)
			sec[((size_t)first_layer + l) * (size_t)repeat + (size_t)r] =
				work[l].fwd_seconds + work[l].bwd_seconds;
		if (r == 0) {
			if (backend && res.counts.flops_source != RT_SOURCE_NONE) {
				flops = res.counts.flops / (double)iters;
				src = rt_source_name(res.counts.flops_source);
			} else {
				flops = pf[RT_PHASE_FORWARD] + pf[RT_PHASE_BACKWARD] +
					pf[RT_PHASE_UPDATE];
			}
			bytes = backend && res.counts.bytes_source != RT_SOURCE_NONE ?
				res.counts.bytes / (double)iters :
				pb[RT_PHASE_FORWARD] + pb[RT_PHASE_BACKWARD] + pb[RT_PHASE_UPDATE];
			emit_impl(out, res.impl);
			fprintf(out, "rt-input\t%ld\t%ld\n", m->input.h, m->input.w);
			emit_memory(out, &res.mem, res.peak_rss_kib);
		}
		rt_train_result_fini(&res);
	}
	if (strcmp(src, "model")) {
		/* both recorded: the hardware's counts, then the model's */
		memcpy(copy, sec, (size_t)repeat * sizeof(double));
		emit_stats(out, "iteration", "iteration", copy, repeat, flops, bytes, src);
	}
	emit_stats(out, "iteration", "iteration", sec, repeat,
		   pf[RT_PHASE_FORWARD] + pf[RT_PHASE_BACKWARD] + pf[RT_PHASE_UPDATE],
		   pb[RT_PHASE_FORWARD] + pb[RT_PHASE_BACKWARD] + pb[RT_PHASE_UPDATE], "model");
	/* every phase (comm under MPI only): the time an iteration spends in each */
	for (int p = 0; p < np; p++)
		if (p != RT_PHASE_COMM || ranks > 1)
			emit_stats(out, "phase", rt_phase_name((enum rt_phase)p),
				   sec + (size_t)(p + 1) * (size_t)repeat, repeat, pf[p], pb[p],
				   "model");
	for (size_t l = 0; o->per_layer && l < m->nlayers; l++) {
		const struct rt_layer_work *w = &work[l];

		if (w->fused)
			emit_fused(out, m->layers[l].name, w->where);
		else
			emit_stats(out, "layer", w->name, sec + ((size_t)first_layer + l) *
				   (size_t)repeat, repeat, (w->fwd_flops + w->bwd_flops) * ranks,
				   (w->fwd_bytes + w->bwd_bytes) * ranks, "model");
	}
	if (fflush(out) || ferror(out))
		rc = rt_err_set(err, -EIO, "writing the points: %s", strerror(errno ? errno : EIO));
out:
	if (backend)
		backend->close(cctx);
	free(sec);
	free(copy);
	free(work);
	return rc;
}

void rt_sweep_child_argv(const char *self, const struct rt_sweep_request *r,
			 const struct rt_sweep_config *c, char a[7][32], char *argv[40])
{
	int na = 0;

	snprintf(a[0], 32, "%ld", c->batch);
	snprintf(a[1], 32, "%u", c->threads);
	snprintf(a[2], 32, "%ld", r->iterations);
	snprintf(a[3], 32, "%ld", r->warmup);
	snprintf(a[4], 32, "%ld", r->repeat);
	snprintf(a[5], 32, "%ld", r->seed);
	snprintf(a[6], 32, "%ldx%ld", c->input_h, c->input_w);
	argv[na++] = (char *)self;
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
	if (c->input_h > 0) {
		argv[na++] = "--input";
		argv[na++] = a[6];
	}
	if (c->ranks > 1) {
		/* each rank pins its own threads to its share of the node */
		argv[na++] = "--affinity";
		argv[na++] = (char *)rt_affinity_name(c->affinity);
	}
	argv[na++] = "--emit-points";
	if (r->per_layer)
		argv[na++] = "--per-layer";
	argv[na] = NULL;
}

