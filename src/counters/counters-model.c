/* counters-model.c: the model backend: the trainer's exact analytic FLOPs and compulsory bytes
 * published as PAPI software-defined events (libsde) and read back through PAPI, so every
 * number flows through one counter interface; the process's task clock beside them */
#include "config.h"
#include "counters/counters.h"

#include <errno.h>
#include <math.h>
#include <papi.h>
#include <pthread.h>
#include <sde_lib.h>
#include <stdlib.h>

/* The one exception to "no mutable globals": software-defined events are process-wide by
 * design (libsde keeps one registry per library name, and re-registering a counter after
 * unregistering it crashes libsde 7.0), so rooftraj's two counters are registered once per
 * process and only ever grow; a context reads their change through PAPI (start/stop). */
static struct {
	long long flops, bytes;
	papi_handle_t handle;
	int rc;
} published;
static pthread_once_t publish_once = PTHREAD_ONCE_INIT;

static void publish(void)
{
	published.handle = papi_sde_init("rooftraj");
	if (!published.handle ||
	    papi_sde_register_counter(published.handle, "flops", PAPI_SDE_RO | PAPI_SDE_DELTA,
				      PAPI_SDE_long_long, &published.flops) != PAPI_OK ||
	    papi_sde_register_counter(published.handle, "bytes", PAPI_SDE_RO | PAPI_SDE_DELTA,
				      PAPI_SDE_long_long, &published.bytes) != PAPI_OK)
		published.rc = -EIO;
}

struct model_ctx {
	int es;                         /* sde:::rooftraj::flops, sde:::rooftraj::bytes */
	int clock;                      /* perf::TASK-CLOCK, or PAPI_NULL */
};

static void model_close(void *p)
{
	struct model_ctx *c = p;

	if (!c)
		return;
	if (c->es != PAPI_NULL) {
		PAPI_cleanup_eventset(c->es);
		PAPI_destroy_eventset(&c->es);
	}
	if (c->clock != PAPI_NULL) {
		PAPI_cleanup_eventset(c->clock);
		PAPI_destroy_eventset(&c->clock);
	}
	free(c);
}

static int model_open(void **out, enum rt_precision p, struct rt_err *err)
{
	(void)p;      /* the model counts every precision exactly */
	struct model_ctx *c = calloc(1, sizeof(*c));
	int rc;

	if (!c)
		return rt_err_set(err, -ENOMEM, "out of memory");
	c->es = c->clock = PAPI_NULL;
	if (!PAPI_is_initialized() && (rc = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT) {
		rc = rt_err_set(err, -EIO, "PAPI_library_init: %s", PAPI_strerror(rc));
		goto fail;
	}
	pthread_once(&publish_once, publish);
	if (published.rc) {
		rc = rt_err_set(err, -EIO, "libsde: cannot register rooftraj's counters");
		goto fail;
	}
	if ((rc = PAPI_create_eventset(&c->es)) != PAPI_OK ||
	    (rc = PAPI_add_named_event(c->es, "sde:::rooftraj::flops")) != PAPI_OK ||
	    (rc = PAPI_add_named_event(c->es, "sde:::rooftraj::bytes")) != PAPI_OK) {
		rc = rt_err_set(err, -ENOTSUP, "sde:::rooftraj::flops: %s", PAPI_strerror(rc));
		goto fail;
	}
	/* CPU time of the process: a software event, there even without hardware counters */
	if (PAPI_create_eventset(&c->clock) != PAPI_OK ||
	    PAPI_add_named_event(c->clock, "perf::TASK-CLOCK") != PAPI_OK) {
		if (c->clock != PAPI_NULL)
			PAPI_destroy_eventset(&c->clock);
		c->clock = PAPI_NULL;
	}
	*out = c;
	return 0;
fail:
	model_close(c);
	return rc;
}

static int model_start(void *p, struct rt_err *err)
{
	struct model_ctx *c = p;
	int rc = PAPI_start(c->es);

	if (rc == PAPI_OK && c->clock != PAPI_NULL)
		rc = PAPI_start(c->clock);
	return rc == PAPI_OK ? 0 : rt_err_set(err, -EIO, "PAPI_start: %s", PAPI_strerror(rc));
}

static int model_stop(void *p, struct rt_counts *out, struct rt_err *err)
{
	struct model_ctx *c = p;
	long long v[2] = { 0, 0 }, t = 0;
	int rc = PAPI_stop(c->es, v);

	if (rc == PAPI_OK && c->clock != PAPI_NULL)
		rc = PAPI_stop(c->clock, &t);
	if (rc != PAPI_OK)
		return rt_err_set(err, -EIO, "PAPI_stop: %s", PAPI_strerror(rc));
	out->flops = (double)v[0];
	out->bytes = (double)v[1];
	out->flops_source = out->bytes_source = RT_SOURCE_MODEL;
	out->cycles = out->instructions = NAN;
	out->task_clock_s = c->clock != PAPI_NULL ? (double)t * 1e-9 : NAN;
	return 0;
}

/* The producer side: the trainer's analytic counts of each timed iteration go to the SDE
 * counters sde:::rooftraj::flops and ::bytes; the backend reads them back through PAPI like
 * any other event. */
static void model_iteration(void *p, double flops, double bytes)
{
	(void)p;
	__atomic_fetch_add(&published.flops, llround(flops), __ATOMIC_RELAXED);
	__atomic_fetch_add(&published.bytes, llround(bytes), __ATOMIC_RELAXED);
}

const struct rt_counter_backend rt_counters_model = {
	.name = "model", .open = model_open,
	.meter = { .start = model_start, .iteration = model_iteration, .stop = model_stop },
	.close = model_close,
};
