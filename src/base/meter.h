/* meter.h: what measures a run's timed iterations, as the trainer sees it: started before the
 * first, told each iteration's exact analytic counts, stopped after the last with the FLOPs and
 * bytes counted and where they came from. src/counters.h's backends (hardware events, the
 * model's counts through libsde) implement it; the bottom layer, so cnn/ needs nothing above. */
#ifndef RT_METER_H
#define RT_METER_H

#include "base/err.h"
#include "base/vocab.h"

struct rt_counts {
	double flops, bytes;
	enum rt_source flops_source, bytes_source;
	double cycles, instructions;    /* NAN when the CPU does not count them */
	double task_clock_s;            /* perf::TASK-CLOCK in seconds, NAN if unavailable */
};

struct rt_meter {
	int (*start)(void *ctx, struct rt_err *err);
	/* optional: one timed iteration's exact model counts (the model source publishes them;
	 * hardware counters count for themselves) */
	void (*iteration)(void *ctx, double flops, double bytes);
	int (*stop)(void *ctx, struct rt_counts *out, struct rt_err *err);
};

#endif
