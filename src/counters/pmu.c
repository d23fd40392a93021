/* pmu.c: FLOP events counted group by group (the kernel's perf_event with raw encodings, or
 * a replay), and checked on the probe's own kernels before they are trusted */
#define _GNU_SOURCE
#include "config.h"
#include "counters/pmu.h"
#include "counters/uncore.h"
#include "kernels/kernels.h"
#include "machine/cpu.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* the directory of the kernel's PMUs (under ROOFTRAJ_SYSROOT when a test sets it) */
static void devroot(char *buf, size_t size)
{
	if (!rt_cpu_identity_path(buf, size, "/sys/bus/event_source/devices"))
		snprintf(buf, size, "/sys/bus/event_source/devices");
}

bool rt_pmu_core_present(void)
{
	char d[4096], p[4200];

	devroot(d, sizeof(d));
	snprintf(p, sizeof(p), "%s/cpu", d);
	if (access(p, F_OK) == 0)
		return true;
	snprintf(p, sizeof(p), "%s/cpu_core", d);
	return access(p, F_OK) == 0;
}

/* why a node has no core PMU, the same words wherever it is said */
static int no_core_pmu(struct rt_err *err)
{
	char d[4096];

	devroot(d, sizeof(d));
	return rt_err_set(err, -ENOENT, "the kernel exposes no core PMU here (no %.400s/cpu: a VM "
			  "without a virtual PMU?)", d);
}

/* ---- the kernel's perf_event, raw encodings ---- */

struct perf_group {
	const struct rt_uarch *u;
	const struct rt_event_group *g;
	int fd[RT_EVENTS_MAX];
	size_t n;                       /* opened */
};

static void perf_close(void *h)
{
	struct perf_group *pg = h;

	if (!pg)
		return;
	while (pg->n--)
		close(pg->fd[pg->n]);
	free(pg);
}

static int perf_open(void *ctx, const struct rt_uarch *u, const struct rt_event_group *g,
		     void **h, struct rt_err *err)
{
	struct perf_group *pg;

	(void)ctx;
	*h = NULL;
	if (!rt_pmu_core_present())
		return no_core_pmu(err);
	if (!(pg = calloc(1, sizeof(*pg))))
		return rt_err_set(err, -ENOMEM, "out of memory");
	pg->u = u;
	pg->g = g;
	for (size_t k = 0; k < g->n; k++) {
		const struct rt_hw_event *e = &u->flops[g->idx[k]];
		struct perf_event_attr a;
		int fd;

		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_RAW;
		a.config = e->raw;
		a.disabled = 1;
		a.inherit = 1;          /* the threads the work starts count too */
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			int rc = rt_err_set(err, -ENOTSUP, "%s (raw 0x%llx) cannot be counted "
					    "here: %s", e->name, e->raw, strerror(errno));

			perf_close(pg);
			return rc;
		}
		pg->fd[pg->n++] = fd;
	}
	*h = pg;
	return 0;
}

static void perf_enable(void *h)
{
	struct perf_group *pg = h;

	for (size_t i = 0; i < pg->n; i++)
		ioctl(pg->fd[i], PERF_EVENT_IOC_ENABLE, 0);
}

static int perf_read(void *h, const struct rt_pmu_work *w, struct rt_event_reading *out,
		     struct rt_err *err)
{
	struct perf_group *pg = h;

	(void)w;                /* a PMU counts for itself */
	for (size_t i = 0; i < pg->n; i++)
		ioctl(pg->fd[i], PERF_EVENT_IOC_DISABLE, 0);
	for (size_t i = 0; i < pg->n; i++) {
		uint64_t v[3];

		if (read(pg->fd[i], v, sizeof(v)) != (ssize_t)sizeof(v))
			return rt_err_set(err, -EIO, "%s: read failed",
					  pg->u->flops[pg->g->idx[i]].name);
		out[i] = (struct rt_event_reading){ pg->g->idx[i], (long long)v[0], (double)v[1],
						    (double)v[2] };
	}
	return 0;
}

const struct rt_pmu rt_pmu_perf = { "perf_event", perf_open, perf_enable, perf_read,
				    perf_close, NULL };

/* ---- a replay ---- */

struct replay_group {
	struct rt_replay *r;
	const struct rt_uarch *u;
	const struct rt_event_group *g;
};

int rt_pmu_replay_open(void *ctx, const struct rt_uarch *u, const struct rt_event_group *g,
		       void **h, struct rt_err *err)
{
	struct rt_replay *r = ctx;
	struct replay_group *rg;

	*h = NULL;
	r->calls++;
	if (g->n > r->max_group)
		r->max_group = g->n;
	for (size_t i = 0; i < g->n; i++) {
		const struct rt_hw_event *e = &u->flops[g->idx[i]];
		bool found = false;

		for (size_t j = 0; j < r->n && !found; j++)
			found = r->ev[j].raw == e->raw;
		if (!found)
			return rt_err_set(err, -ENOTSUP, "%s (raw 0x%llx) cannot be counted here: "
					  "not supported", e->name, e->raw);
	}
	if (!(rg = malloc(sizeof(*rg))))
		return rt_err_set(err, -ENOMEM, "out of memory");
	*rg = (struct replay_group){ r, u, g };
	*h = rg;
	return 0;
}

void rt_pmu_replay_enable(void *h)
{
	(void)h;
}

int rt_pmu_replay_read(void *h, const struct rt_pmu_work *w, struct rt_event_reading *out,
		       struct rt_err *err)
{
	const struct replay_group *rg = h;
	const double running = rg->r->running > 0 ? rg->r->running : 1;

	(void)err;
	for (size_t i = 0; i < rg->g->n; i++) {
		const struct rt_hw_event *e = &rg->u->flops[rg->g->idx[i]];
		const struct rt_replay_event *best = NULL;
		size_t best_len = 0;

		for (size_t j = 0; j < rg->r->n; j++) {
			const struct rt_replay_event *x = &rg->r->ev[j];
			const size_t len = x->kind ? strlen(x->kind) : 0;

			if (x->raw != e->raw || (best && len <= best_len))
				continue;
			if (!x->kind || (w->kind && !strncmp(w->kind, x->kind, len) &&
					 (w->kind[len] == '\0' || w->kind[len] == ' '))) {
				best = x;
				best_len = len;
			}
		}
		/* a multiplexed count sees its share of the work */
		out[i] = (struct rt_event_reading){
			rg->g->idx[i], llround((best ? best->per_flop : 0) * w->known_flops * running),
			1.0, running };
	}
	return 0;
}

void rt_pmu_replay_close(void *h)
{
	free(h);
}

int rt_pmu_count(const struct rt_pmu *pmu, const struct rt_uarch *u,
		 const struct rt_event_group *g, const struct rt_pmu_work *w,
		 struct rt_event_reading *out, struct rt_err *err)
{
	void *h;
	int rc = pmu->open(pmu->ctx, u, g, &h, err);

	if (rc)
		return rc;
	pmu->enable(h);
	w->fn(w->arg);
	rc = pmu->read(h, w, out, err);
	pmu->close(h);
	return rc;
}

/* ---- counting a repeated piece of work, a group per run ---- */

struct rt_pmu_session {
	const struct rt_pmu *pmu;
	const struct rt_uarch *u;
	struct rt_event_group g[RT_EVENTS_MAX];
	size_t ng, next;
	void *h;                                /* the group counting now */
	bool read[RT_EVENTS_MAX];               /* per group: read at least once */
	struct rt_event_reading r[RT_EVENTS_MAX];       /* per event, per unit of work */
};

int rt_pmu_session_open(struct rt_pmu_session **s, const struct rt_pmu *pmu,
			const struct rt_uarch *u, unsigned counters, struct rt_err *err)
{
	struct rt_pmu_session *n = calloc(1, sizeof(*n));

	*s = NULL;
	if (!n)
		return rt_err_set(err, -ENOMEM, "out of memory");
	n->pmu = pmu;
	n->u = u;
	n->ng = rt_events_group(u, counters, n->g, RT_EVENTS_MAX);
	if (!n->ng) {
		free(n);
		return rt_err_set(err, -ENOTSUP, "%s: its FLOP events do not fit %u counter%s",
				  u->name, counters, counters == 1 ? "" : "s");
	}
	*s = n;
	return 0;
}

int rt_pmu_session_start(struct rt_pmu_session *s, struct rt_err *err)
{
	int rc;

	if (s->h) {
		s->pmu->close(s->h);
		s->h = NULL;
	}
	if ((rc = s->pmu->open(s->pmu->ctx, s->u, &s->g[s->next], &s->h, err)))
		return rc;
	s->pmu->enable(s->h);
	return 0;
}

int rt_pmu_session_stop(struct rt_pmu_session *s, double units, double known_flops,
			const char *kind, struct rt_err *err)
{
	struct rt_event_reading got[RT_EVENTS_MAX];
	const struct rt_event_group *g = &s->g[s->next];
	const struct rt_pmu_work w = { NULL, NULL, known_flops, kind };
	int rc;

	if (!s->h)
		return rt_err_set(err, -EINVAL, "the counters were not started");
	rc = s->pmu->read(s->h, &w, got, err);
	s->pmu->close(s->h);
	s->h = NULL;
	if (rc)
		return rc;
	if (!(units > 0))
		return rt_err_set(err, -EINVAL, "a run of no work counted");
	/* each event's count per 1024 units of work (an integer, as rt_events_flops reads
	 * counts); its times kept: a multiplexed count is scaled and labelled there */
	for (size_t i = 0; i < g->n; i++)
		s->r[got[i].idx] = (struct rt_event_reading){
			got[i].idx, llround((double)got[i].value / units * 1024), got[i].enabled,
			got[i].running };
	s->read[s->next] = true;
	s->next = (s->next + 1) % s->ng;
	return 0;
}

int rt_pmu_session_flops(const struct rt_pmu_session *s, struct rt_flop_count *out)
{
	struct rt_event_reading r[RT_EVENTS_MAX];
	size_t nr = 0, missing = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	for (size_t k = 0; k < s->ng; k++) {
		if (!s->read[k]) {
			missing++;
			continue;
		}
		for (size_t i = 0; i < s->g[k].n; i++)
			r[nr++] = s->r[s->g[k].idx[i]];
	}
	if (missing) {
		snprintf(out->why, sizeof(out->why), "%zu of the %zu groups of %s's FLOP events "
			 "not counted yet (a group a repetition)", missing, s->ng, s->u->name);
		return -EAGAIN;
	}
	if ((rc = rt_events_flops(s->u, r, nr, out)))
		return rc;
	/* the counts were kept per 1024 units (integers for rt_events_flops) */
	out->flops /= 1024;
	for (size_t p = 0; p < sizeof(out->by_prec) / sizeof(out->by_prec[0]); p++)
		out->by_prec[p] /= 1024;
	return 0;
}

size_t rt_pmu_session_groups(const struct rt_pmu_session *s)
{
	return s->ng;
}

void rt_pmu_session_close(struct rt_pmu_session *s)
{
	if (!s)
		return;
	if (s->h)
		s->pmu->close(s->h);
	free(s);
}

/* ---- measuring and checking ---- */

int rt_pmu_measure(const struct rt_pmu *pmu, const struct rt_uarch *u, unsigned counters,
		   const struct rt_pmu_work *w, struct rt_flop_count *out, size_t *ngroups,
		   struct rt_err *err)
{
	struct rt_event_group g[RT_EVENTS_MAX];
	struct rt_event_reading r[RT_EVENTS_MAX];
	const size_t ng = rt_events_group(u, counters, g, RT_EVENTS_MAX);
	size_t nr = 0;
	int rc;

	*ngroups = ng;
	if (!ng)
		return rt_err_set(err, -ENOTSUP, "%s: its FLOP events do not fit %u counter%s",
				  u->name, counters, counters == 1 ? "" : "s");
	for (size_t k = 0; k < ng; k++) {
		if ((rc = rt_pmu_count(pmu, u, &g[k], w, r + nr, err)))
			return rc;
		nr += g[k].n;
	}
	if ((rc = rt_events_flops(u, r, nr, out)))
		return rt_err_set(err, rc, "%s", out->why);
	return 0;
}

/* one of the probe's kernels, run once on this thread */
struct check_run {
	const struct rt_kernel *k;              /* an FMA chain, or */
	const struct rt_peak_kernel *pk;        /* a low-precision instruction's chains */
	uint64_t iters;
	double mul, add;
	void *in, *out;
};

static void run_check(void *arg)
{
	struct check_run *r = arg;

	if (r->k)
		r->k->flops(r->iters, r->in, r->mul, r->add, r->out);
	else
		r->pk->run(r->iters, r->in, r->mul, r->add, r->out);
}

/* u's events on one kernel: elems accumulators of esz bytes each (8 fp64, 4 fp32 or int32, 2
 * fp16), seeded with one in their type, over about 2^28 operations */
static int check_kernel(const struct rt_pmu *pmu, const struct rt_uarch *u, unsigned counters,
			const char *events, struct check_run *r, const char *kname,
			size_t elems, unsigned esz, uint64_t ops_per_iter, struct rt_validation *v,
			struct rt_err *err)
{
	const size_t bytes = (elems * esz + 63) / 64 * 64;
	struct rt_flop_count c;
	size_t ng;
	int rc;

	if (!(r->in = aligned_alloc(64, bytes)) || !(r->out = aligned_alloc(64, bytes))) {
		free(r->in);
		return rt_err_set(err, -ENOMEM, "out of memory");
	}
	for (size_t off = 0; off + esz <= bytes; off += esz) {
		const double d = 1.0;
		const float f = 1.0f;
		const uint16_t h = 0x3c00;      /* fp16 1.0 */

		memcpy((char *)r->in + off, esz == 8 ? (const void *)&d : esz == 4 ?
		       (const void *)&f : (const void *)&h, esz);
	}
	r->iters = ops_per_iter ? ((uint64_t)1 << 28) / ops_per_iter : 0;
	if (!r->iters)
		r->iters = 1;
	{
		const struct rt_pmu_work w = { run_check, r, (double)r->iters * (double)ops_per_iter,
					       kname };

		if (!(rc = rt_pmu_measure(pmu, u, counters, &w, &c, &ng, err)))
			rt_events_validate(events, kname, c.flops, w.known_flops, v);
	}
	free(r->in);
	free(r->out);
	return rc;
}

int rt_pmu_selfcheck(const struct rt_pmu *pmu, const struct rt_uarch *u, unsigned counters,
		     struct rt_pmu_checks *c, struct rt_err *err)
{
	static const enum rt_isa widest[] = { RT_ISA_AVX512, RT_ISA_AVX2, RT_ISA_SSE };
	char events[160];
	int rc;

	c->n = 0;
	rt_events_names(u, events, sizeof(events));
	/* the FMA chains of fp64 and fp32 */
	for (int p = 0; p < 2; p++) {
		struct check_run r = { .mul = 1.0000001, .add = 1e-9 };
		const enum rt_precision prec = p ? RT_PRECISION_FP32 : RT_PRECISION_FP64;
		char kname[64];

		for (size_t i = 0; i < sizeof(widest) / sizeof(widest[0]) && !r.k; i++)
			if (rt_isa_supported(widest[i]))
				r.k = rt_kernel_flops(widest[i], prec);
		if (!r.k)
			return rt_err_set(err, -ENOTSUP, "no FMA kernel to check the counters on");
		snprintf(kname, sizeof(kname), "%s %s %s", rt_precision_name(prec), rt_isa_name(r.k->isa),
			 r.k->name);
		if ((rc = check_kernel(pmu, u, counters, events, &r, kname,
				       (size_t)r.k->chains * r.k->lanes, p ? 4 : 8,
				       r.k->flops_per_iter, &c->v[c->n], err)))
			return rc;
		c->n++;
	}
	/* every low-precision kernel this CPU runs: dot products count K multiplies and K
	 * adds per pair of elements, as the instructions define them (kernels.h) */
	for (const struct rt_peak_kernel *pk = rt_peak_next(NULL); pk && c->n < RT_PMU_CHECKS_MAX;
	     pk = rt_peak_next(pk)) {
		struct check_run r = { .pk = pk, .mul = 0x1p-10, .add = 0x1p-10 };
		char kname[64];

		if (!pk->supported())
			continue;
		snprintf(kname, sizeof(kname), "%s %s %s", pk->precision, pk->isa, pk->name);
		if ((rc = check_kernel(pmu, u, counters, events, &r, kname,
				       (size_t)pk->chains * pk->lanes, pk->acc_bytes,
				       pk->ops_per_iter, &c->v[c->n], err)))
			return rc;
		c->n++;
	}
	return 0;
}

int rt_pmu_dram_check(struct rt_uncore_set *s, struct rt_validation *v, struct rt_err *err)
{
	/* three arrays of 128 MiB: DRAM on every node rooftraj knows (and a cold start) */
	const size_t n = (size_t)16 << 20;
	const struct rt_kernel *k = NULL;
	static const enum rt_isa widest[] = { RT_ISA_AVX512, RT_ISA_AVX2, RT_ISA_SSE };
	double *a = NULL, *b = NULL, *c = NULL, bytes = 0, scale = 1, known;
	int rc;

	for (size_t i = 0; i < sizeof(widest) / sizeof(widest[0]) && !k; i++)
		if (rt_isa_supported(widest[i]))
			k = rt_kernel_bw("triad_nt", widest[i]);
	if (!k)
		return rt_err_set(err, -ENOTSUP, "no non-temporal triad to check DRAM bytes on");
	/* opened first: a controller that cannot be counted costs no 384 MiB triad */
	if ((rc = rt_uncore_open(s, err)))
		return rc;
	if (!(a = aligned_alloc(4096, n * sizeof(double))) ||
	    !(b = aligned_alloc(4096, n * sizeof(double))) ||
	    !(c = aligned_alloc(4096, n * sizeof(double)))) {
		rc = rt_err_set(err, -ENOMEM, "out of memory for the DRAM triad");
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		a[i] = 0, b[i] = 1, c[i] = 2;   /* touched: no page faults inside the count */
	rt_uncore_enable(s);
	(void)k->bw(n, 2, a, b, c, 0.5);
	if ((rc = rt_uncore_read(s, &bytes, &scale, err)))
		goto out;
	known = 2.0 * (double)n * (double)rt_kernel_bytes_per_elem(k);
	{
		char events[200], kname[64], turns[64] = "";

		if (scale > 1)
			snprintf(turns, sizeof(turns), ", taking turns on the counters: scaled up to "
				 "%.2fx", scale);
		snprintf(events, sizeof(events), "%zu DRAM events (%s/%s/, ...%s)", s->n,
			 s->ev[0].pmu, s->ev[0].name, turns);
		snprintf(kname, sizeof(kname), "DRAM %s %s", k->name, rt_isa_name(k->isa));
		rt_events_validate(events, kname, bytes, known, v);
	}
out:
	rt_uncore_close(s);
	free(a);
	free(b);
	free(c);
	return rc;
}

int rt_pmu_node_dram(const struct rt_uarch *u, struct rt_uncore_set *s, struct rt_validation *v,
		     struct rt_err *why)
{
	char d[4096];
	int rc;

	devroot(d, sizeof(d));
	if ((rc = rt_uncore_find(d, u, s, why)) ||
	    (rc = rt_pmu_dram_check(s, v, why)))
		return rc;
	if (!v->trusted)
		return rt_err_set(why, -ENOTSUP, "%s", v->verdict);
	return rt_uncore_open(s, why);
}

int rt_pmu_node_check_with(const struct rt_pmu *pmu, const struct rt_uarch **u,
			   struct rt_pmu_checks *c, struct rt_err *why)
{
	struct rt_cpu cpu;
	struct rt_err e, nopmu = { 0 };
	char who[160];
	/* a replay stands for a PMU; the kernel's is there or not */
	const bool present = pmu != &rt_pmu_perf || rt_pmu_core_present();

	*u = NULL;
	c->n = 0;
	if (!present)
		no_core_pmu(&nopmu);
	if (rt_cpu_detect(&cpu, &e) == 0) {
		*u = rt_uarch_find(cpu.vendor, cpu.family, cpu.model_number);
		snprintf(who, sizeof(who), "%s family 0x%x model 0x%x", cpu.vendor[0] ?
			 cpu.vendor : "unknown vendor", (unsigned)cpu.family,
			 (unsigned)cpu.model_number);
	} else {
		snprintf(who, sizeof(who), "its identity could not be read: %.120s", e.msg);
	}
	/* both said when both are true: neither alone is the whole reason */
	if (!*u)
		return rt_err_set(why, -ENOENT, "%s%sno FLOP event table for this CPU (%s)",
				  nopmu.msg, present ? "" : "; ", who);
	if (!present)
		return rt_err_set(why, nopmu.code, "%s", nopmu.msg);
	return rt_pmu_selfcheck(pmu, *u, (*u)->counters, c, why);
}

int rt_pmu_node_check(const struct rt_uarch **u, struct rt_pmu_checks *c, struct rt_err *why)
{
	return rt_pmu_node_check_with(&rt_pmu_perf, u, c, why);
}

const struct rt_uarch *rt_pmu_node_table(const char *const *precisions, struct rt_err *why)
{
	const struct rt_uarch *u;
	struct rt_pmu_checks c;
	char buf[sizeof(why->msg)];

	if (rt_pmu_node_check(&u, &c, why))
		return NULL;
	if (!rt_events_trusted_all(c.v, c.n, precisions, buf, sizeof(buf))) {
		rt_err_set(why, -ENOTSUP, "%s", buf);
		return NULL;
	}
	return u;
}

/* "fp64, fp32 and bf16" from the precisions in set (rt_vocab_precisions order) */
static void prec_list(char *buf, size_t size, const bool *set)
{
	int n = 0, k = 0;

	buf[0] = '\0';
	for (int p = 0; p < RT_PRECISION_COUNT; p++)
		n += set[p];
	for (int p = 0; p < RT_PRECISION_COUNT; p++)
		if (set[p]) {
			k++;
			snprintf(buf + strlen(buf), size - strlen(buf), "%s%s",
				 k == 1 ? "" : k == n ? " and " : ", ", rt_vocab_precisions[p]);
		}
}

void rt_pmu_judge(const struct rt_uarch *u, const struct rt_pmu_checks *ck, char *buf,
		  size_t size, char *note, size_t notesize, struct rt_pmu_record *rec)
{
	/* trusted per precision: every kernel of it read within the tolerance */
	bool checked[RT_PRECISION_COUNT] = { 0 }, ok[RT_PRECISION_COUNT] = { 0 },
	     bad[RT_PRECISION_COUNT] = { 0 };
	char oklist[64], badlist[64], ratios[400] = "", w[240];
	const bool any = rt_events_trusted_any(ck->v, ck->n);

	rec->why[0] = '\0';
	for (size_t i = 0; i < ck->n; i++) {
		const enum rt_precision p = rt_events_check_prec(&ck->v[i]);

		if (p < RT_PRECISION_COUNT)
			checked[p] = true;
		rec->check[i] = ck->v[i];
		snprintf(ratios + strlen(ratios), sizeof(ratios) - strlen(ratios), "%s%s %.3fx",
			 i ? ", " : "", ck->v[i].kernel, ck->v[i].ratio);
	}
	rec->nchecks = ck->n;
	for (int p = 0; p < RT_PRECISION_COUNT; p++) {
		if (!checked[p])
			continue;
		ok[p] = rt_events_trusted_for(ck->v, ck->n, rt_vocab_precisions[p], w, sizeof(w));
		bad[p] = !ok[p];
		if (bad[p])
			snprintf(rec->why + strlen(rec->why), sizeof(rec->why) - strlen(rec->why),
				 "%snot trusted for %s work: %s", rec->why[0] ? "; " : "",
				 rt_vocab_precisions[p], w);
	}
	prec_list(oklist, sizeof(oklist), ok);
	prec_list(badlist, sizeof(badlist), bad);
	rec->state = any ? RT_PMU_VALIDATED : RT_PMU_REFUSED;
	if (any)
		snprintf(buf, size, "hardware counters: %s table validated for %s work (the "
			 "probe's kernels read: %s)%s%s%s; DRAM bytes: %s", u->name, oklist,
			 ratios, rec->why[0] ? "; " : "", rec->why,
			 rec->why[0] ? " (that work's FLOPs from the model's exact counts)" : "",
			 rec->dram);
	else
		snprintf(buf, size, "hardware counters: %s table refused (the probe's kernels "
			 "read: %s); %s; FLOPs from the model's exact counts; DRAM bytes: %s",
			 u->name, ratios, rec->why, rec->dram);
	if (any && badlist[0])
		snprintf(note, notesize, "hardware counters: %s table validated for %s work "
			 "on the probe's kernels (not for %s)", u->name, oklist, badlist);
	else
		snprintf(note, notesize, "hardware counters: %s table %s for %s work on the "
			 "probe's kernels", u->name, any ? "validated" : "refused",
			 any ? oklist : badlist);
}

void rt_pmu_verdict_with(const struct rt_pmu *pmu, char *buf, size_t size, char *note,
			 size_t notesize, struct rt_pmu_record *rec, struct rt_err *why)
{
	const struct rt_uarch *u;
	struct rt_event_group g[RT_EVENTS_MAX];
	struct rt_pmu_checks c;
	size_t ng;
	int rc = rt_pmu_node_check_with(pmu, &u, &c, why);

	memset(rec, 0, sizeof(*rec));
	if (!u) {
		/* the memory controllers' events are the table's too: none without one */
		snprintf(rec->dram, sizeof(rec->dram), "not counted: no table of memory-controller "
			 "events for this CPU");
		snprintf(buf, size, "hardware counters: no table: %s; FLOPs from the model's exact "
			 "counts; DRAM bytes: %s", why->msg, rec->dram);
		snprintf(note, notesize, "hardware counters: no FLOP event table for this CPU%s",
			 strstr(why->msg, "no core PMU") ? ", no core PMU" : "");
		rec->state = RT_PMU_NO_TABLE;
		snprintf(rec->why, sizeof(rec->why), "%.*s", (int)sizeof(rec->why) - 1, why->msg);
		return;
	}
	{
		/* the node's DRAM bytes: counted and checked on a known triad, or why not */
		struct rt_uncore_set *s = malloc(sizeof(*s));
		struct rt_validation dv;
		struct rt_err dwhy;

		if (!s)
			snprintf(rec->dram, sizeof(rec->dram), "not counted: out of memory");
		else if (rt_pmu_node_dram(u, s, &dv, &dwhy))
			snprintf(rec->dram, sizeof(rec->dram), "not counted: %.480s", dwhy.msg);
		else
			snprintf(rec->dram, sizeof(rec->dram), "%s", dv.verdict);
		if (s)
			rt_uncore_close(s);
		free(s);
	}
	ng = rt_events_group(u, u->counters, g, RT_EVENTS_MAX);
	snprintf(rec->table, sizeof(rec->table), "%s", u->name);
	rt_events_names(u, rec->events, sizeof(rec->events));
	rec->groups = (unsigned)ng;
	rec->counters = u->counters;
	if (rc) {
		snprintf(buf, size, "hardware counters: not used: %s; the %s table (%zu FLOP "
			 "event%s, %zu group%s of at most %u counters, each in its own "
			 "repetition) waits for a PMU; FLOPs from the model's exact counts; DRAM "
			 "bytes: %s", why->msg, u->name, u->nflops, u->nflops == 1 ? "" : "s", ng,
			 ng == 1 ? "" : "s", u->counters, rec->dram);
		snprintf(note, notesize, "hardware counters: not used (%s); %s table waits",
			 rc == -ENOENT ? "no core PMU" : "an event cannot be counted", u->name);
		rec->state = RT_PMU_NOT_USED;
		snprintf(rec->why, sizeof(rec->why), "%.*s", (int)sizeof(rec->why) - 1, why->msg);
		return;
	}
	rt_pmu_judge(u, &c, buf, size, note, notesize, rec);
}

void rt_pmu_verdict(char *buf, size_t size, char *note, size_t notesize,
		    struct rt_pmu_record *rec, struct rt_err *why)
{
	rt_pmu_verdict_with(&rt_pmu_perf, buf, size, note, notesize, rec, why);
}
