/* sweep-child.c: the child side of a sweep (one configuration measured, its points written)
 * and the line protocol between child and parent */
#include "config.h"
#include "run/sweep-child.h"
#include "counters/counters.h"
#include "counters/onednn-log.h"
#include "cnn/net.h"
#include "machine/busy.h"
#include "machine/cpu.h"
#include "machine/topo.h"
#include "base/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* oneDNN's default fpmath mode in this environment, which every child inherits
 * (ONEDNN_DEFAULT_FPMATH_MODE, else DNNL_DEFAULT_FPMATH_MODE; NULL when neither is set) */
static const char *fpmath_mode(void)
{
	const char *m = getenv("ONEDNN_DEFAULT_FPMATH_MODE");

	return m && *m ? m : getenv("DNNL_DEFAULT_FPMATH_MODE");
}

/* Whether oneDNN's ISA here has bf16 math (AMX, AVX512-BF16): where an implementation names
 * no ISA, its f32 work under a bf16 mode ran bf16 math at most there, fp32 elsewhere. */
static bool isa_bf16(void)
{
	char label[32];
	struct rt_err e;

	return !rt_net_bf16_support(label, sizeof(label), &e) && strstr(label, "(emulated)") == NULL;
}

void rt_sweep_config_point(struct rt_point *p, const struct rt_sweep_config *c)
{
	memset(p, 0, sizeof(*p));
	p->weight_gradients = p->activation_gradients = p->inference = p->cpu_share = NAN;
	snprintf(p->config, sizeof(p->config), "%.63s", c->name);     /* 42 at most */
	p->threads = c->threads;
	/* the global batch: every rank trains c->batch images of it */
	p->batch = c->batch * (c->ranks > 1 ? (long)c->ranks : 1);
	p->affinity = c->affinity;
	p->precision = c->precision;
	p->ranks = c->ranks > 1 ? c->ranks : 1;
	p->input_h = c->input_h;
	p->input_w = c->input_w;
}

/* The header line the child's rows follow. */
static const char *find_header(const char *out)
{
	static char header[1024];
	FILE *mem = fmemopen(header, sizeof(header), "w");
	const char *p = out;
	size_t hl;

	if (!mem)
		return NULL;
	rt_points_csv_header(mem);
	fclose(mem);
	hl = strlen(header);
	for (; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, header, hl))
			return p;
	return NULL;
}

int rt_sweep_child_parse(const char *out, size_t len, const struct rt_sweep_config *c,
			 struct rt_point **pts, size_t *n, char *why, size_t whysize)
{
	const char *start = find_header(out);
	struct rt_points_file f;
	struct rt_err err;
	FILE *fp;
	int rc;

	*pts = NULL;
	*n = 0;
	if (!start) {
		snprintf(why, whysize, "the child printed no points");
		return -1;
	}
	fp = fmemopen((void *)start, len - (size_t)(start - out), "r");
	if (!fp) {
		snprintf(why, whysize, "out of memory for the child's points");
		return -1;
	}
	rc = rt_points_csv_load(fp, "the child's points", false, &f, &err);
	fclose(fp);
	if (rc || !f.n || f.command_rows) {     /* a command's rows are no points */
		snprintf(why, whysize, "%s", rc ? err.msg : "the child printed no points");
		rt_points_file_free(&f);
		return -1;
	}
	/* the configuration is the parent's to name: its knobs, as the sweep set them; a point's
	 * precision is its math's: fp32 tensors under oneDNN's default fpmath mode (the child
	 * inherits this environment) ran bf16 math where the heaviest layer's implementation
	 * has bf16 instructions (AMX), and may have where it names no ISA on a oneDNN ISA
	 * with bf16 math: the highest roof (the mode and the ISA read once) */
	const char *mode = fpmath_mode();
	const bool bf16_isa = mode && isa_bf16();

	for (size_t i = 0; i < f.n; i++) {
		struct rt_point *p = &f.pts[i], id;
		bool bound;

		rt_sweep_config_point(&id, c);
		snprintf(p->config, sizeof(p->config), "%s", id.config);
		p->threads = id.threads;
		p->batch = id.batch;
		p->affinity = id.affinity;
		p->precision = id.precision;
		if (p->precision == RT_PRECISION_FP32 &&
		    rt_onednn_f32_math(mode, p->impl, &bound) != RT_PRECISION_FP32 &&
		    (!bound || bf16_isa))
			p->precision = RT_PRECISION_BF16;
		p->ranks = id.ranks;
		rt_point_derive(p);
	}
	*pts = f.pts;
	*n = f.n;
	return 0;
}

/* A row of the child's: its identity as the child sees it (the parent names the
 * configuration), the memory split and the rest of a point. */
struct child_rows {
	FILE *out;
	struct rt_point base;
	double delay_share;             /* of the run with the lowest CPU share */
};

/* Whether the runs got their cores (rt_busy_lost): they lost more than RT_BUSY_LOST_MAX of
 * their threads' time, and their threads lost it waiting for a CPU (the run delay; a thread
 * that sleeps by itself does not wait), the configuration's rows say it was disturbed, and by
 * what: the process's CPU quota (its cgroup throttled it, or allows fewer cores than
 * threads) or another process. */
static void check_cores(struct child_rows *cr, unsigned long long throttled_before,
			const struct rt_cpu_tasks *before)
{
	struct rt_point *b = &cr->base;
	char figures[128];

	if (!rt_busy_lost(1 - b->cpu_share) || !rt_busy_lost(cr->delay_share))
		return;
	b->status = RT_STATUS_DISTURBED;
	snprintf(figures, sizeof(figures), "its runs got %.0f%% of their %u thread%s' time; %.0f%% "
		 "of it spent waiting for a CPU", 100 * b->cpu_share, b->threads,
		 b->threads > 1 ? "s" : "", 100 * cr->delay_share);
	(void)rt_busy_reason(b->reason, sizeof(b->reason), figures, true, b->threads,
			     throttled_before, before, NULL);
}

/* The median, min and max of r runs' seconds (v is sorted); the FLOPs' and the bytes' sources. */
static void emit_stats(struct child_rows *cr, enum rt_scope scope, const char *name, double *v,
		       long r, double flops, double bytes, enum rt_source source,
		       enum rt_source bytes_source)
{
	const double median = rt_median(v, (size_t)r);  /* sorts v ascending */
	const double sec[RT_STAT_COUNT] = { median, v[0], v[r - 1] };

	for (int k = 0; k < RT_STAT_COUNT; k++) {
		struct rt_point p = cr->base;

		p.scope = scope;
		snprintf(p.name, sizeof(p.name), "%s", name);
		p.stat = (enum rt_stat)k;
		p.seconds = sec[k];
		p.flops = flops;
		p.bytes = bytes;
		p.source = source;
		p.bytes_source = bytes_source;
		rt_point_derive(&p);
		rt_points_csv_row(cr->out, &p);
	}
}

/* A layer run inside other layers' primitives: one row of each statistic, with no rate. */
static void emit_fused(struct child_rows *cr, const char *name, const char *where)
{
	for (int k = 0; k < RT_STAT_COUNT; k++) {
		struct rt_point p = cr->base;

		p.scope = RT_SCOPE_LAYER;
		snprintf(p.name, sizeof(p.name), "%s", name);
		p.stat = (enum rt_stat)k;
		p.source = p.bytes_source = RT_SOURCE_MODEL;
		p.status = RT_STATUS_FUSED;
		p.cpu_share = NAN;
		snprintf(p.reason, sizeof(p.reason), "%s", where);
		rt_point_derive(&p);
		rt_points_csv_row(cr->out, &p);
	}
}

int rt_sweep_child_measure(FILE *out, const struct rt_model *m, const struct rt_net_opts *no,
			   const struct rt_sweep_child_opts *o, struct rt_err *err)
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
	enum rt_source src = RT_SOURCE_MODEL, bsrc = RT_SOURCE_MODEL;
	struct child_rows cr = { .out = out };
	struct rt_cpu_tasks others = { 0 };
	unsigned long long throttled = 0;
	double cores, period;
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
	    (rc = rt_counters_open(o->counters, no->precision, &backend, &cctx, &why, err))) {
		backend = NULL;
		goto out;
	}
	to.meter = backend ? &backend->meter : NULL;
	to.meter_ctx = cctx;
	/* who the child is, as far as it knows: the parent names the configuration */
	snprintf(cr.base.config, sizeof(cr.base.config), "child");
	cr.base.batch = no->batch * (long)ranks;
	cr.base.ranks = (unsigned)ranks;
	cr.base.precision = no->precision;
	cr.base.processes = 1;
	cr.base.cpu_share = 2;
	cr.base.input_h = m->input.h;
	cr.base.input_w = m->input.w;
	cr.base.weight_gradients = cr.base.activation_gradients = cr.base.inference = NAN;
	(void)rt_cpu_quota(&cores, &period, &throttled);        /* none: throttled stays 0 */
	(void)rt_cpu_tasks_take(&others, NULL, 0);       /* who else runs there: a busy row's words */
	for (long r = 0; r < repeat; r++) {
		struct rt_train_result res;

		if ((rc = rt_train_iterations(m, no, &to, &res, err)))
			goto out;
		sec[r] = res.iter_seconds;
		for (int p = 0; p < np; p++)
			sec[(size_t)(p + 1) * (size_t)repeat + (size_t)r] = res.phase_seconds[p];
		/* each layer's time where its primitives run: a fused relu's in its host's */
		rt_model_layer_work(m, no->batch, res.layer_fwd, res.layer_bwd, work);
		for (size_t l = 0; l < m->nlayers; l++)
			sec[((size_t)first_layer + l) * (size_t)repeat + (size_t)r] =
				work[l].fwd_seconds + work[l].bwd_seconds;
		/* the lowest share of its cores' time any run got */
		if (res.cpu_share < cr.base.cpu_share) {
			cr.base.cpu_share = res.cpu_share;
			cr.delay_share = res.run_delay_share;
		}
		/* the counters' FLOPs from the first repetition that counted them whole (hardware
		 * events count a group of events a repetition: whole once every group was read);
		 * until then, and without them, the model's */
		if (src == RT_SOURCE_MODEL && rt_source_hw(res.counts.flops_source)) {
			flops = res.counts.flops / (double)iters;
			src = res.counts.flops_source;
		}
		if (r == 0) {
			const struct rt_net_memory *mem = &res.mem;

			if (src == RT_SOURCE_MODEL)
				flops = pf[RT_PHASE_FORWARD] + pf[RT_PHASE_BACKWARD] +
					pf[RT_PHASE_UPDATE];
			/* the bytes: the node's DRAM traffic where the hw backend counted it,
			 * else the model's */
			if (backend && res.counts.bytes_source != RT_SOURCE_NONE) {
				bsrc = res.counts.bytes_source;
				bytes = res.counts.bytes / (double)iters;
			} else {
				bsrc = RT_SOURCE_MODEL;
				bytes = pb[RT_PHASE_FORWARD] + pb[RT_PHASE_BACKWARD] +
					pb[RT_PHASE_UPDATE];
			}
			cr.base.threads = res.threads;
			snprintf(cr.base.impl, sizeof(cr.base.impl), "%s", res.impl);
			cr.base.weights = (double)mem->weights;
			cr.base.activations = (double)mem->activations;
			cr.base.weight_gradients = (double)mem->weight_grads;
			cr.base.activation_gradients = (double)mem->activation_grads;
			cr.base.gradients = (double)mem->weight_grads + (double)mem->activation_grads;
			cr.base.optimizer = (double)mem->optimizer;
			cr.base.workspace = (double)mem->workspace;
			cr.base.peak_rss = (double)res.peak_rss_kib * 1024;
			cr.base.inference = (double)mem->inference;
		}
		rt_train_result_fini(&res);
	}
	/* hardware events count a group a run: runs of the same work, untimed, until every group
	 * was read (none where the table fits the PMU in one group) */
	if (backend == &rt_counters_hw && src == RT_SOURCE_MODEL) {
		struct rt_counts c = { .flops_source = RT_SOURCE_NONE };

		if ((rc = rt_train_count_whole(m, no, &to, rt_counters_hw_groups(cctx), &c, err)))
			goto out;
		if (c.flops_source != RT_SOURCE_NONE) {
			flops = c.flops / (double)iters;
			src = c.flops_source;
		}
	}
	check_cores(&cr, throttled, &others);
	rt_points_csv_header(out);
	if (src != RT_SOURCE_MODEL) {
		/* both recorded: the hardware's counts, then the model's */
		memcpy(copy, sec, (size_t)repeat * sizeof(double));
		emit_stats(&cr, RT_SCOPE_ITERATION, "iteration", copy, repeat, flops, bytes, src,
			   bsrc);
	}
	/* every phase (comm under MPI only): the time an iteration spends in each */
	for (int p = 0; p < np; p++)
		if (p != RT_PHASE_COMM || ranks > 1)
			emit_stats(&cr, RT_SCOPE_PHASE, rt_phase_name((enum rt_phase)p),
				   sec + (size_t)(p + 1) * (size_t)repeat, repeat, pf[p], pb[p],
				   RT_SOURCE_MODEL, RT_SOURCE_MODEL);
	for (size_t l = 0; o->per_layer && l < m->nlayers; l++) {
		const struct rt_layer_work *w = &work[l];

		if (w->fused)
			emit_fused(&cr, m->layers[l].name, w->where);
		else
			emit_stats(&cr, RT_SCOPE_LAYER, w->name, sec + ((size_t)first_layer + l) *
				   (size_t)repeat, repeat, (w->fwd_flops + w->bwd_flops) * ranks,
				   (w->fwd_bytes + w->bwd_bytes) * ranks, RT_SOURCE_MODEL,
				   RT_SOURCE_MODEL);
	}
	emit_stats(&cr, RT_SCOPE_ITERATION, "iteration", sec, repeat,
		   pf[RT_PHASE_FORWARD] + pf[RT_PHASE_BACKWARD] + pf[RT_PHASE_UPDATE],
		   pb[RT_PHASE_FORWARD] + pb[RT_PHASE_BACKWARD] + pb[RT_PHASE_UPDATE],
		   RT_SOURCE_MODEL, RT_SOURCE_MODEL);
	if (fflush(out) || ferror(out))
		rc = rt_err_set(err, -EIO, "writing the points: %s", strerror(errno ? errno : EIO));
out:
	if (backend)
		backend->close(cctx);
	rt_cpu_tasks_free(&others);
	free(sec);
	free(copy);
	free(work);
	return rc;
}
