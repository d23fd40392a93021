/* train.c: the training loop: data, forward, loss, backward, update, each timed per iteration,
 * with no allocation inside the loop */
#include "config.h"
#include "cnn/train.h"
#include "cnn/data.h"
#include "base/util.h"

#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const phase_names[RT_PHASE_COUNT] = {
	"data", "forward", "loss", "backward", "comm", "update",
};

const char *rt_phase_name(enum rt_phase p)
{
	return (unsigned)p < RT_PHASE_COUNT ? phase_names[p] : "unknown";
}

long rt_peak_rss_kib(void)
{
	char line[256];
	long kib = 0;
	FILE *fp = fopen("/proc/self/status", "r");

	if (!fp)
		return 0;
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "VmHWM: %ld kB", &kib) == 1)
			break;
	fclose(fp);
	return kib;
}

void rt_train_result_fini(struct rt_train_result *res)
{
	free(res->losses);
	free(res->accuracies);
	free(res->layer_fwd);
	free(res->layer_bwd);
	memset(res, 0, sizeof(*res));
}

int rt_train_count_whole(const struct rt_model *m, const struct rt_net_opts *no,
			 const struct rt_train_opts *o, size_t runs, struct rt_counts *c,
			 struct rt_err *err)
{
	struct rt_train_opts again = *o;
	int rc = 0;

	again.progress = NULL;
	again.digest = false;
	for (size_t k = 0; !rt_source_hw(c->flops_source) && !o->comm && k < runs && !rc; k++) {
		struct rt_train_result more = { 0 };

		if ((rc = rt_train_iterations(m, no, &again, &more, err)) == 0) {
			c->flops = more.counts.flops;
			c->flops_source = more.counts.flops_source;
		}
		rt_train_result_fini(&more);
	}
	return rc;
}

/* The CPU time the OpenMP team's threads have had, each read on its own clock (rt_thread_cpu:
 * over a window of a few milliseconds the process's clock gave a share past 100%). */
static double team_cpu(void)
{
	double s = 0;

#pragma omp parallel reduction(+ : s)
	s += rt_thread_cpu();
	return s;
}

int rt_train_iterations(const struct rt_model *m, const struct rt_net_opts *net_opts,
		 const struct rt_train_opts *o, struct rt_train_result *res, struct rt_err *err)
{
	/* the rank and the rank count come from the communicator */
	struct rt_net_opts nopts = *net_opts;
	const struct rt_net_opts *no = &nopts;
	const long total = o->warmup + o->iterations;
	struct rt_data *data = NULL;
	struct rt_net *net = NULL;
	struct rt_model_totals tot;
	bool counting = false;
	double *times = NULL, *phase = NULL, cpu0 = 0, delay0 = 0, cpu_run0 = 0, wall0 = 0;
	int rc;

	memset(res, 0, sizeof(*res));
	nopts.rank = o->comm ? o->comm->rank : 0;
	nopts.ranks = o->comm ? o->comm->size : 1;
	if (o->iterations < 1)
		return rt_err_set(err, -EINVAL, "at least one timed iteration is needed");
	res->batch = no->batch;
	res->iterations = o->iterations;
	res->nlayers = m->nlayers;
	res->losses = calloc((size_t)total, sizeof(double));
	res->accuracies = calloc((size_t)total, sizeof(double));
	res->layer_fwd = calloc(m->nlayers, sizeof(double));
	res->layer_bwd = calloc(m->nlayers, sizeof(double));
	times = calloc((size_t)o->iterations, sizeof(double));
	phase = calloc((size_t)o->iterations * RT_PHASE_COUNT, sizeof(double));
	if (!res->losses || !res->accuracies || !res->layer_fwd || !res->layer_bwd || !times ||
	    !phase) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	rc = rt_data_open(&data, o->data ? o->data : "synthetic", m, no->seed, err);
	if (!rc)
		rc = rt_net_create(&net, m, no, err);
	if (o->comm) {
		/* every rank must have its net before any waits on the others' gradients */
		double failed = o->comm->sum(o->comm->ctx, rc ? 1 : 0);

		if (!rc && failed > 0)
			rc = rt_err_set(err, -EIO, "%.0f of %d ranks could not build the net",
					failed, o->comm->size);
		if (!rc)
			rt_net_set_grad_hook(net, o->comm->start, o->comm->ctx);
	}
	if (rc)
		goto out;
	snprintf(res->data_desc, sizeof(res->data_desc), "%s", rt_data_describe(data));
	snprintf(res->impl, sizeof(res->impl), "%s", rt_net_main_impl(net));
	for (size_t i = 0, len = 0; i < m->nlayers && len < sizeof(res->maxpool); i++)
		if (m->layers[i].type == RT_LAYER_MAXPOOL)
			len += (size_t)snprintf(res->maxpool + len, sizeof(res->maxpool) - len,
						"%s%s %s", len ? ", " : "", m->layers[i].name,
						strncmp(rt_net_layer_impl(net, i), "split:", 6) ?
						"onednn" : "split");
	rt_model_totals(m, no->batch, &tot);
	for (long it = 0; it < total; it++) {
		double t[RT_PHASE_COUNT + 1];
		bool timed = it >= o->warmup;

		if (it == o->warmup) {
			rt_net_reset_seconds(net);
			/* the wall window holds the CPU one: the clock read first, the CPU times
			 * after it; at the end the other way round */
			wall0 = rt_now();
			cpu0 = team_cpu();
			rt_process_sched(&cpu_run0, &delay0);
			if (o->meter) {
				double c0 = rt_now();

				if ((rc = o->meter->start(o->meter_ctx, err)))
					goto out;
				res->counting_seconds += rt_now() - c0;
				counting = true;
			}
		}
		rt_net_set_iteration(net, (uint64_t)it);
		t[0] = rt_now();
		/* this rank's shard of the global batch */
		if (no->rank)
			rt_data_skip(data, no->batch * no->rank);
		rt_data_next(data, no->batch, rt_net_input(net), rt_net_labels(net));
		if (no->ranks > 1)
			rt_data_skip(data, no->batch * (no->ranks - 1 - no->rank));
		rc = rt_net_load_input(net, err);
		t[1] = rt_now();
		if (!rc)
			rc = rt_net_forward(net, err);
		t[2] = rt_now();
		if (!rc)
			rc = rt_net_loss(net, &res->losses[it], &res->accuracies[it], err);
		t[3] = rt_now();
		if (!rc)
			rc = rt_net_backward(net, err);
		t[4] = rt_now();
		if (!rc && o->comm)
			rc = o->comm->finish(o->comm->ctx, err);
		t[5] = rt_now();
		if (!rc)
			rc = rt_net_update(net, err);
		t[6] = rt_now();
		if (rc)
			goto out;
		res->nlosses = it + 1;
		/* the model source: this iteration's exact counts, published through libsde */
		if (timed && o->meter && o->meter->iteration) {
			double c0 = rt_now();

			o->meter->iteration(o->meter_ctx,
					      tot.fwd_flops + tot.bwd_flops + tot.update_flops,
					      tot.fwd_bytes + tot.bwd_bytes + tot.update_bytes);
			res->counting_seconds += rt_now() - c0;
		}
		if (timed) {
			long k = it - o->warmup;

			times[k] = t[RT_PHASE_COUNT] - t[0];
			res->total_seconds += t[RT_PHASE_COUNT] - t[0];
			for (int p = 0; p < RT_PHASE_COUNT; p++) {
				phase[(size_t)p * (size_t)o->iterations + (size_t)k] = t[p + 1] - t[p];
				res->phase_total[p] += t[p + 1] - t[p];
			}
		}
		if (o->progress)
			o->progress(o->progress_ctx, it + 1, total, res->losses[it]);
	}
	if (counting) {
		double c0 = rt_now();

		counting = false;
		if ((rc = o->meter->stop(o->meter_ctx, &res->counts, err)))
			goto out;
		if (o->comm) {
			/* the counts of the whole job */
			res->counts.flops = o->comm->sum(o->comm->ctx, res->counts.flops);
			res->counts.bytes = o->comm->sum(o->comm->ctx, res->counts.bytes);
		}
		res->counting_seconds += rt_now() - c0;
	}
	{
		const double cpu1 = team_cpu();
		double run1, delay1, wall = rt_now() - wall0;

		rt_process_sched(&run1, &delay1);
		res->threads = (unsigned)omp_get_max_threads();
		res->cpu_share = wall > 0 ? (cpu1 - cpu0) / (wall * res->threads) : 1;
		res->run_delay_share = run1 - cpu_run0 + delay1 - delay0 > 0 ?
				       (delay1 - delay0) / (run1 - cpu_run0 + delay1 - delay0) : 0;
	}
	res->iter_seconds = rt_median(times, (size_t)o->iterations);
	for (int p = 0; p < RT_PHASE_COUNT; p++)
		res->phase_seconds[p] = rt_median(phase + (size_t)p * (size_t)o->iterations,
						  (size_t)o->iterations);
	/* the global batch: every rank trains its shard in the same iteration */
	res->images_per_s = res->iter_seconds > 0 ?
			    (double)no->batch * no->ranks / res->iter_seconds : 0;
	for (size_t i = 0; i < m->nlayers; i++) {
		rt_net_layer_seconds(net, i, &res->layer_fwd[i], &res->layer_bwd[i]);
		res->layer_fwd[i] /= (double)o->iterations;
		res->layer_bwd[i] /= (double)o->iterations;
	}
	{
		double sum = 0;

		for (long k = 0; k < o->iterations; k++)
			sum += times[k];
		res->primitive_share = sum > 0 ? rt_net_primitive_seconds(net) / sum : 0;
	}
	rt_net_memory(net, &res->mem);
	res->peak_rss_kib = rt_peak_rss_kib();
	if (o->digest)
		rc = rt_net_digest(net, &res->digest, &res->weights_sum, &res->weights_norm, err);
out:
	if (counting) {
		struct rt_counts discard;

		o->meter->stop(o->meter_ctx, &discard, NULL);
	}
	free(times);
	free(phase);
	rt_net_destroy(net);
	rt_data_destroy(data);
	return rc;
}
