/* counters-pmu.c: the hw backend: the node's FLOP event table (events.h) counted through the
 * kernel's perf_event with its raw encodings, for the process and every thread it starts,
 * and only after the table read the probe's own kernels of the run's precisions right
 * (rt_pmu_node_table: fp32, and bf16 for a bf16 run). A run
 * counts one group of events; a configuration's repetitions count the groups in turn, and
 * its FLOPs are hw once every group has been read (never a partial sum). DRAM bytes come from
 * the memory controllers' PMUs (uncore.h: the node's traffic during the run) where they read a
 * known triad right, else the model's. */
#include "config.h"
#include "counters/counters.h"
#include "counters/pmu.h"
#include "counters/uncore.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct pmu_ctx {
	struct rt_pmu_session *s;
	struct rt_uncore_set *dram;     /* open and trusted, or NULL */
	double units, known;            /* this run's timed iterations and their model FLOPs */
	const char *precision;          /* the run's (for a replay) */
	bool running;
};

int rt_counters_pmu_open(void **ctx, const struct rt_pmu *pmu, const struct rt_uarch *u,
			 unsigned counters, enum rt_precision p, struct rt_err *err)
{
	struct pmu_ctx *c = calloc(1, sizeof(*c));
	int rc;

	*ctx = NULL;
	if (!c)
		return rt_err_set(err, -ENOMEM, "out of memory");
	if ((rc = rt_pmu_session_open(&c->s, pmu, u, counters, err))) {
		free(c);
		return rc;
	}
	c->precision = rt_precision_name(p);
	*ctx = c;
	return 0;
}

static int pmu_open(void **ctx, enum rt_precision p, struct rt_err *err)
{
	const struct rt_uarch *u;
	struct rt_err why;

	*ctx = NULL;
	if (!(u = rt_pmu_node_table(rt_events_train_work(p), &why)))
		return rt_err_set(err, -ENOTSUP, "%s", why.msg);
	if (rt_counters_pmu_open(ctx, &rt_pmu_perf, u, u->counters, p, err))
		return -ENOTSUP;
	{
		/* DRAM bytes where the memory controllers' events read a known triad right */
		struct pmu_ctx *c = *ctx;
		struct rt_validation dv;

		if ((c->dram = malloc(sizeof(*c->dram))) &&
		    rt_pmu_node_dram(u, c->dram, &dv, &why)) {
			rt_uncore_close(c->dram);
			free(c->dram);
			c->dram = NULL;
		}
	}
	return 0;
}

static void pmu_close(void *p)
{
	struct pmu_ctx *c = p;

	if (!c)
		return;
	rt_pmu_session_close(c->s);
	if (c->dram)
		rt_uncore_close(c->dram);
	free(c->dram);
	free(c);
}

static int pmu_start(void *p, struct rt_err *err)
{
	struct pmu_ctx *c = p;
	int rc;

	c->units = c->known = 0;
	if ((rc = rt_pmu_session_start(c->s, err)))
		return rc;
	if (c->dram)
		rt_uncore_enable(c->dram);
	c->running = true;
	return 0;
}

static void pmu_iteration(void *p, double flops, double bytes)
{
	struct pmu_ctx *c = p;

	(void)bytes;
	if (c->running) {
		c->units += 1;
		c->known += flops;
	}
}

static int pmu_stop(void *p, struct rt_counts *out, struct rt_err *err)
{
	struct pmu_ctx *c = p;
	struct rt_flop_count fc;
	int rc;

	memset(out, 0, sizeof(*out));
	out->cycles = out->instructions = out->task_clock_s = NAN;
	out->flops_source = out->bytes_source = RT_SOURCE_NONE;
	if (!c->running)
		return rt_err_set(err, -EINVAL, "the counters were not started");
	c->running = false;
	if ((rc = rt_pmu_session_stop(c->s, c->units, c->known, c->precision, err)))
		return rc;
	/* the node's DRAM traffic during the run (each start resets the counts) */
	if (c->dram) {
		double scale;

		if ((rc = rt_uncore_read(c->dram, &out->bytes, &scale, err)))
			return rc;
		/* events that took turns on the counters: scaled, an estimate */
		out->bytes_source = scale > 1 ? RT_SOURCE_HW_ESTIMATE : RT_SOURCE_HW;
	}
	/* FLOPs once every group was read: per iteration, for this run's iterations */
	if (rt_pmu_session_flops(c->s, &fc) == 0) {
		out->flops = fc.flops * c->units;
		out->flops_source = fc.source;
	}
	return 0;
}

size_t rt_counters_hw_groups(const void *ctx)
{
	const struct pmu_ctx *c = ctx;

	return c ? rt_pmu_session_groups(c->s) : 0;
}

const struct rt_counter_backend rt_counters_hw = {
	.name = "hw", .open = pmu_open,
	.meter = { .start = pmu_start, .iteration = pmu_iteration, .stop = pmu_stop },
	.close = pmu_close,
};
