/* sweep-mpi.c: a sweep's configurations run in the ranks' own processes under mpirun, rank 0
 * driving and broadcasting, the others following; each rank's threads placed in process */
#define _GNU_SOURCE
#include "config.h"
#include "run/sweep-mpi.h"
#include "base/util.h"

#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What rank 0 broadcasts: the next configuration, or stop. */
struct order {
	int stop;                       /* 1: the sweep is over */
	unsigned threads;
	long batch;
	int precision;
	int affinity;
	long input_h, input_w;
};

int rt_sweep_mpi_place(const struct rt_cluster *cl, const struct rt_topo *topo,
		       enum rt_affinity aff, unsigned threads, struct rt_err *err)
{
	const unsigned ranks = cl->active ? (unsigned)cl->node_size : 1;
	const unsigned all = threads * ranks;
	int *pus;
	int rc;

	if (aff == RT_AFFINITY_NONE)
		return rt_topo_pin_team(NULL, threads, err);
	if (all > rt_topo_pus(topo))
		return rt_err_set(err, -EINVAL, "%u ranks x %u threads: more than the node's %u "
				  "processing units", ranks, threads, rt_topo_pus(topo));
	pus = calloc(all, sizeof(*pus));
	if (!pus)
		return rt_err_set(err, -ENOMEM, "out of memory");
	rc = rt_topo_placement(topo, aff, all, pus, err);
	if (!rc)
		rc = rt_topo_pin_team(pus + (size_t)(cl->active ? cl->node_rank : 0) * threads,
				      threads, err);
	free(pus);
	return rc;
}

/* The placement of a configuration in process (there is no child to give OMP_PLACES). */
static int place_threads(const struct rt_sweep_mpi *h, const struct order *o, struct rt_err *err)
{
	return rt_sweep_mpi_place(h->cl, h->topo, (enum rt_affinity)o->affinity, o->threads, err);
}

static int run_order(struct rt_sweep_mpi *h, const struct order *o, FILE *out, struct rt_err *err)
{
	struct rt_net_opts no = h->no;
	struct rt_sweep_child_opts mo = h->measure;
	struct rt_err perr;

	omp_set_num_threads((int)o->threads);
	/* every rank must take part in the training: a placement that fails is a warning */
	if (place_threads(h, o, &perr) && h->warn)
		h->warn(h->warn_ctx, h->cl->rank, perr.msg);
	no.batch = o->batch;
	no.precision = (enum rt_precision)o->precision;
	mo.comm = h->cl->active ? &h->cl->comm : NULL;
	if (o->input_h > 0 && (o->input_h != h->m->input.h || o->input_w != h->m->input.w)) {
		/* another input: the same model file, reshaped, for this configuration */
		struct rt_model *m = NULL;
		int rc = rt_model_load(&m, h->m->path, err);

		if (!rc)
			rc = rt_model_reshape(&m, o->input_h, o->input_w, err);
		if (!rc) {
			rt_model_set_precision(m, no.precision);
			rc = rt_sweep_child_measure(out, m, &no, &mo, err);
		}
		rt_model_destroy(m);
		return rc;
	}
	rt_model_set_precision(h->m, (enum rt_precision)o->precision);
	return rt_sweep_child_measure(out, h->m, &no, &mo, err);
}

int rt_sweep_mpi_run(void *ctx, const struct rt_sweep_config *c, struct rt_child *ch,
		     struct rt_err *err)
{
	struct rt_sweep_mpi *h = ctx;
	struct order o = { 0, c->threads, c->batch, c->precision, c->affinity, c->input_h,
			   c->input_w };
	struct rt_err failure = { 0 };
	double t0 = rt_now();
	FILE *out;
	int rc;

	memset(ch, 0, sizeof(*ch));
	out = open_memstream(&ch->out, &ch->outlen);
	if (!out)
		return rt_err_set(err, -ENOMEM, "out of memory");
	rt_cluster_bcast(h->cl, &o, sizeof(o));
	rc = run_order(h, &o, out, &failure);
	if (fclose(out) && !rc)
		rc = rt_err_set(&failure, -EIO, "the points could not be kept");
	ch->seconds = rt_now() - t0;
	ch->ok = rc == 0 && !rt_spawn_interrupted();
	snprintf(ch->reason, sizeof(ch->reason), "%.255s", rt_spawn_interrupted() ? "interrupted" :
		 failure.msg[0] ? failure.msg : rc ? "training failed" : "");
	return 0;
}

int rt_sweep_mpi_follow(struct rt_sweep_mpi *h, struct rt_err *err)
{
	for (;;) {
		struct rt_err failure;
		struct order o;
		FILE *out;

		rt_cluster_bcast(h->cl, &o, sizeof(o));
		if (o.stop)
			return 0;
		out = fopen("/dev/null", "w");
		if (!out)
			return rt_err_set(err, -errno, "/dev/null: %s", strerror(errno));
		/* a failure here fails rank 0's run too (the gradients do not add up): rank 0
		 * records it */
		(void)run_order(h, &o, out, &failure);
		fclose(out);
	}
}

void rt_sweep_mpi_stop(struct rt_sweep_mpi *h)
{
	struct order stop = { .stop = 1 };

	rt_cluster_bcast(h->cl, &stop, sizeof(stop));
}
