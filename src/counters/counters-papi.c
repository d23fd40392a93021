/* counters-papi.c: the hw backend: FP retirement events for FLOPs, uncore CAS counts (hw) or
 * LLC misses (hw-estimate) for bytes, cycles and instructions, counted for the process and
 * the threads it starts afterwards (PAPI_INHERIT) */
#include "config.h"
#include "counters/counters.h"
#include "counters/events.h"
#include "counters/pmu.h"
#include "machine/cpu.h"

#include <errno.h>
#include <math.h>
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_EV 16

struct hw_ctx {
	char vendor[16];
	int es, unc;                    /* core and uncore event sets (PAPI_NULL if none) */
	char names[MAX_EV][128], unc_names[MAX_EV][128];
	int n, nunc;
	int cyc, ins;                   /* index of cycles/instructions in names, -1 if none */
};

static int papi_up(struct rt_err *err)
{
	int rc;

	if (PAPI_is_initialized())
		return 0;
	rc = PAPI_library_init(PAPI_VER_CURRENT);
	if (rc != PAPI_VER_CURRENT)
		return rt_err_set(err, -EIO, "PAPI_library_init: %s", PAPI_strerror(rc));
	return 0;
}

static bool add(struct hw_ctx *c, int es, const char *name, char (*names)[128], int *n)
{
	if (*n >= MAX_EV || PAPI_add_named_event(es, name) != PAPI_OK)
		return false;
	snprintf(names[(*n)++], 128, "%s", name);
	return true;
}

static void hw_close(void *p)
{
	struct hw_ctx *c = p;

	if (!c)
		return;
	if (c->es != PAPI_NULL) {
		PAPI_cleanup_eventset(c->es);
		PAPI_destroy_eventset(&c->es);
	}
	if (c->unc != PAPI_NULL) {
		PAPI_cleanup_eventset(c->unc);
		PAPI_destroy_eventset(&c->unc);
	}
	free(c);
}

/* Uncore memory-controller CAS counts, where the perf_event_uncore component has them. */
static void add_uncore(struct hw_ctx *c)
{
	int cid = PAPI_get_component_index("perf_event_uncore"), code = PAPI_NATIVE_MASK;
	const PAPI_component_info_t *ci;

	if (cid < 0 || !(ci = PAPI_get_component_info(cid)) || ci->disabled)
		return;
	if (PAPI_create_eventset(&c->unc) != PAPI_OK)
		return;
	if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cid) != PAPI_OK)
		return;
	do {
		char name[PAPI_MAX_STR_LEN];

		if (PAPI_event_code_to_name(code, name) != PAPI_OK || !strstr(name, "CAS_COUNT"))
			continue;
		if (strstr(name, ":RD") || strstr(name, ":WR"))
			add(c, c->unc, name, c->unc_names, &c->nunc);
	} while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cid) == PAPI_OK);
	if (!c->nunc) {
		PAPI_destroy_eventset(&c->unc);
		c->unc = PAPI_NULL;
	}
}

static int hw_open(void **out, struct rt_err *err)
{
	struct hw_ctx *c = calloc(1, sizeof(*c));
	PAPI_option_t opt;
	int rc, first_fail = PAPI_OK, nflop = 0;

	if (!c)
		return rt_err_set(err, -ENOMEM, "out of memory");
	c->es = c->unc = PAPI_NULL;
	c->cyc = c->ins = -1;
	if ((rc = papi_up(err)))
		goto fail;
	if ((rc = PAPI_create_eventset(&c->es)) != PAPI_OK ||
	    (rc = PAPI_assign_eventset_component(c->es, 0)) != PAPI_OK) {
		rc = rt_err_set(err, -EIO, "PAPI event set: %s", PAPI_strerror(rc));
		goto fail;
	}
	{
		struct rt_cpu cpu;
		struct rt_err e2;
		const struct rt_uarch *u = NULL;
		struct rt_event_group g[RT_EVENTS_MAX];
		size_t ng;

		if (rt_cpu_detect(&cpu, &e2) == 0) {
			snprintf(c->vendor, sizeof(c->vendor), "%s", cpu.vendor);
			u = rt_uarch_find(cpu.vendor, cpu.family, cpu.model_number);
		}
		if (!rt_pmu_core_present()) {
			rc = rt_err_set(err, -ENOTSUP, "the kernel exposes no core PMU here (no /sys/bus/event_source/devices/cpu: a VM "
					"without a virtual PMU?)");
			goto fail;
		}
		if (!u) {
			rc = rt_err_set(err, -ENOTSUP, "no hardware FLOP counters: rooftraj has no "
					"FLOP event table for this CPU (%s family 0x%x model 0x%x)",
					c->vendor, (unsigned)cpu.family, (unsigned)cpu.model_number);
			goto fail;
		}
		/* one run counts them all, or none: a set that needs several groups is counted
		 * group by group only by the self-check (roofline-probe) */
		ng = rt_events_group(u, u->counters, g, RT_EVENTS_MAX);
		if (ng != 1) {
			rc = rt_err_set(err, -ENOTSUP, "no hardware FLOP counts: the %zu FLOP events of "
					"%s need %zu groups of %u counters, and one run counts one "
					"group", u->nflops, u->name, ng, u->counters);
			goto fail;
		}
		/* the whole set or nothing: the events that do not fit or do not exist would
		 * leave a sum of the others, a fraction presented as the whole */
		for (size_t i = 0; i < u->nflops; i++) {
			const struct rt_hw_event *e = &u->flops[i];
			int r = e->pfm ? PAPI_add_named_event(c->es, e->pfm) : PAPI_ENOEVNT;

			if (r != PAPI_OK) {
				first_fail = r;
				rc = rt_err_set(err, -ENOTSUP, "no hardware FLOP counts: %s (raw 0x%llx) "
						"cannot be counted through PAPI with the other %zu FLOP "
						"events of %s (%s); a partial set is never used",
						e->name, e->raw, u->nflops - 1, u->name, e->pfm ?
						PAPI_strerror(first_fail) : "libpfm4 does not name it");
				goto fail;
			}
			snprintf(c->names[c->n++], 128, "%s", e->pfm);
			nflop++;
		}
	}
	/* count the threads the run starts later (OpenMP, oneDNN) too; without it only this
	 * thread would be counted, a fraction presented as the whole */
	memset(&opt, 0, sizeof(opt));
	opt.inherit.eventset = c->es;
	opt.inherit.inherit = PAPI_INHERIT_ALL;
	if ((rc = PAPI_set_opt(PAPI_INHERIT, &opt)) != PAPI_OK) {
		rc = rt_err_set(err, -ENOTSUP, "PAPI_INHERIT: %s; the hardware counters would miss "
				"the OpenMP threads", PAPI_strerror(rc));
		goto fail;
	}
	if (!add(c, c->es, "PAPI_L3_TCM", c->names, &c->n))
		add(c, c->es, "perf::LLC-LOAD-MISSES", c->names, &c->n);
	if (add(c, c->es, "PAPI_TOT_CYC", c->names, &c->n))
		c->cyc = c->n - 1;
	if (add(c, c->es, "PAPI_TOT_INS", c->names, &c->n))
		c->ins = c->n - 1;
	add_uncore(c);
	*out = c;
	return 0;
fail:
	hw_close(c);
	return rc;
}

static int hw_start(void *p, struct rt_err *err)
{
	struct hw_ctx *c = p;
	int rc = PAPI_start(c->es);

	if (rc == PAPI_OK && c->unc != PAPI_NULL)
		rc = PAPI_start(c->unc);
	return rc == PAPI_OK ? 0 : rt_err_set(err, -EIO, "PAPI_start: %s", PAPI_strerror(rc));
}

static int hw_stop(void *p, struct rt_counts *out, struct rt_err *err)
{
	struct hw_ctx *c = p;
	long long v[MAX_EV] = { 0 }, u[MAX_EV] = { 0 };
	struct rt_event_value ev[2 * MAX_EV];
	size_t n = 0;
	int rc = PAPI_stop(c->es, v);

	if (rc == PAPI_OK && c->unc != PAPI_NULL)
		rc = PAPI_stop(c->unc, u);
	if (rc != PAPI_OK)
		return rt_err_set(err, -EIO, "PAPI_stop: %s", PAPI_strerror(rc));
	for (int i = 0; i < c->n; i++)
		ev[n++] = (struct rt_event_value){ c->names[i], v[i] };
	for (int i = 0; i < c->nunc; i++)
		ev[n++] = (struct rt_event_value){ c->unc_names[i], u[i] };
	memset(out, 0, sizeof(*out));
	out->cycles = c->cyc >= 0 ? (double)v[c->cyc] : NAN;
	out->instructions = c->ins >= 0 ? (double)v[c->ins] : NAN;
	out->task_clock_s = NAN;
	if (rt_counters_flops_complete(c->vendor, ev, n, &out->flops) == 0)
		out->flops_source = RT_SOURCE_HW;
	if (rt_counters_bytes(ev, n, 64, &out->bytes, &out->bytes_source))
		out->bytes_source = RT_SOURCE_NONE;
	return 0;
}

const struct rt_counter_backend rt_counters_hw = {
	.name = "hw", .open = hw_open, .meter = { .start = hw_start, .stop = hw_stop },
	.close = hw_close,
};
