/* train-print.c: the text of --describe and of one training run's report */
#include "config.h"
#include "run/train-print.h"
#include "counters/counters.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void print_memory(FILE *out, const char *title, const struct rt_net_memory *mm, long rss)
{
	const double mib = 1 << 20;

	fprintf(out, "%s\n  weights %.2f MiB, weight gradients %.2f MiB, optimizer state %.2f MiB,\n"
	       "  activations kept for backward %.2f MiB, activation gradients %.2f MiB, workspace "
	       "%.2f MiB;\n  total %.2f MiB allocated; process peak RSS %.2f MiB\n", title,
	       (double)mm->weights / mib, (double)mm->weight_grads / mib,
	       (double)mm->optimizer / mib, (double)mm->activations / mib,
	       (double)mm->activation_grads / mib, (double)mm->workspace / mib,
	       (double)mm->total / mib, (double)rss / 1024);
}

int rt_train_print_describe(FILE *out, const struct rt_model *m, const struct rt_net_opts *no,
		      struct rt_err *err)
{
	struct rt_layer_work *work;
	struct rt_net *net = NULL;
	struct rt_model_totals t;
	struct rt_net_memory mm;
	int rc;

	rt_model_totals(m, no->batch, &t);
	fprintf(out, "%s (%s): input %ldx%ldx%ld, %ld classes, batch %ld, %s\n\n", m->name, m->path,
	       m->input.c, m->input.h, m->input.w, m->classes, no->batch,
	       rt_precision_name(no->precision));
	fprintf(out, "%3s %-24s %-12s %-16s %11s %13s %13s %12s %12s  %s\n", "#", "layer", "type",
	       "output", "params", "fwd FLOP/img", "bwd FLOP/img", "act KiB", "alloc KiB",
	       "runs as");
	work = calloc(m->nlayers, sizeof(*work));
	if (!work)
		return rt_err_set(err, -ENOMEM, "out of memory");
	rt_model_layer_work(m, no->batch, NULL, NULL, work);
	if ((rc = rt_net_create(&net, m, no, err))) {
		free(work);
		return rc;
	}
	for (size_t i = 0; i < m->nlayers; i++) {
		const struct rt_layer_desc *L = &m->layers[i];
		char shape[48];

		rt_net_layer_memory(net, i, &mm);
		snprintf(shape, sizeof(shape), "%ldx%ldx%ld", L->out.c, L->out.h, L->out.w);
		fprintf(out, "%3zu %-24.24s %-12s %-16s %11ld %13.0f %13.0f %12.1f %12.1f  %s%s\n", i + 1,
		       L->name, rt_layer_type_name(L->type), shape, L->n.params, L->n.fwd_flops,
		       L->n.bwd_data_flops + L->n.bwd_weights_flops,
		       (no->precision == RT_PRECISION_BF16 ? 2.0 : 4.0) * (double)L->n.kept_elems *
		       (double)no->batch / 1024,
		       (double)mm.total / 1024, work[i].fused ? "fused: " : "",
		       work[i].fused ? work[i].where : work[i].name);
	}
	free(work);
	fprintf(out, "\ntotals per iteration (batch %ld): %ld parameters; forward %.4g GFLOP, backward "
	       "%.4g GFLOP, update %.4g GFLOP;\n  compulsory bytes: forward %.4g MB, backward "
	       "%.4g MB, update %.4g MB\n", no->batch, t.params, t.fwd_flops / 1e9,
	       t.bwd_flops / 1e9, t.update_flops / 1e9, t.fwd_bytes / 1e6, t.bwd_bytes / 1e6,
	       t.update_bytes / 1e6);
	{
		/* the two conventions side by side: the tables people compare with, and what the
		 * primitives execute (what the points use) */
		double exec_macs = 0;

		for (size_t i = 0; i < m->nlayers; i++)
			exec_macs += m->layers[i].n.macs;
		fprintf(out, "  forward MACs per image as published (padding included): %.0f (%.4g G)\n"
			"  forward MACs per image executed (conv and fc, on real input only; the points "
			"count these, x2 FLOPs, and every layer): %.0f (%.4g G)\n",
			rt_model_published_macs(m), rt_model_published_macs(m) / 1e9, exec_macs,
			exec_macs / 1e9);
	}
	rt_net_memory(net, &mm);
	print_memory(out, "\nmemory (as allocated, oneDNN layouts included)", &mm, rt_peak_rss_kib());
	rt_net_destroy(net);
	return 0;
}

void rt_train_print_run(FILE *out, const struct rt_model *m, const struct rt_net_opts *no,
		     const struct rt_train_result *res, const struct rt_train_print_opts *c)
{
	struct rt_model_totals t;
	double it = res->iter_seconds, flops;
	const double ranks = c->ranks > 1 ? c->ranks : 1;

	rt_model_totals(m, no->batch, &t);
	t.fwd_flops *= ranks;
	t.bwd_flops *= ranks;
	t.update_flops *= ranks;
	flops = t.fwd_flops + t.bwd_flops + t.update_flops;
	fprintf(out, "%s: %s, batch %ld, %d thread%s, %s, %s\n", c->prog, m->name, no->batch,
	       c->threads, c->threads == 1 ? "" : "s", rt_precision_name(no->precision),
	       res->data_desc);
	if (c->ranks > 1)
		fprintf(out, "  %d ranks on %d node%s, each its shard of a global batch of %ld; "
		       "gradients summed with MPI_Iallreduce during backward\n", c->ranks,
		       c->nodes, c->nodes > 1 ? "s" : "", no->batch * c->ranks);
	fprintf(out, "  precision %s", rt_precision_name(no->precision));
	if (no->precision == RT_PRECISION_BF16) {
		char label[64] = "";
		struct rt_err e2;

		rt_net_bf16_support(label, sizeof(label), &e2);
		fprintf(out, " on %s", label);
	}
	fprintf(out, "; heaviest layer runs oneDNN's %s\n", res->impl);
	if (res->maxpool[0])
		fprintf(out, "  max pooling (--maxpool-impl %s): %s\n", rt_pool_impl_name(c->pool),
		       res->maxpool);
	fprintf(out, "  images/s %.1f   (median iteration %.3f ms over %ld iterations after %ld "
	       "warm-up)\n", res->images_per_s, it * 1e3, c->iterations, c->warmup);
	fprintf(out, "  %-10s %10s %7s\n", "phase", "ms/iter", "share");
	for (int p = 0; p < RT_PHASE_COUNT; p++)
		if (p != RT_PHASE_COMM || c->ranks > 1)
			fprintf(out, "  %-10s %10.3f %6.1f%%\n", rt_phase_name((enum rt_phase)p),
			       res->phase_seconds[p] * 1e3,
			       it > 0 ? 100 * res->phase_seconds[p] / it : 0);
	fprintf(out, "  time inside oneDNN primitives %.1f%% of the iteration, outside %.1f%%\n",
	       100 * res->primitive_share, 100 * (1 - res->primitive_share));
	fprintf(out, "  cores: the timed iterations got %.0f%% of %u thread%s time (%.1f%% of "
		"their runnable time waiting for a CPU)\n", 100 * res->cpu_share, res->threads,
		res->threads > 1 ? "s'" : "'s", 100 * res->run_delay_share);
	fprintf(out, "  loss %.4f -> %.4f, accuracy %.3f -> %.3f (first -> last iteration)\n",
	       res->losses[0], res->losses[res->nlosses - 1], res->accuracies[0],
	       res->accuracies[res->nlosses - 1]);
	fprintf(out, "  model counts per iteration: %.4g GFLOP (forward %.4g, backward %.4g, update "
	       "%.4g): %.1f GFLOP/s\n", flops / 1e9, t.fwd_flops / 1e9, t.bwd_flops / 1e9,
	       t.update_flops / 1e9, it > 0 ? flops / it / 1e9 : 0);
	if (c->counted) {
		const struct rt_counts *cnt = &res->counts;
		const double bytes_model = (t.fwd_bytes + t.bwd_bytes + t.update_bytes) * ranks *
					   (double)c->iterations;

		char bytes[96];

		/* the hardware's bytes where the memory controllers' events were trusted */
		if (cnt->bytes_source == RT_SOURCE_NONE)
			snprintf(bytes, sizeof(bytes), "DRAM bytes not counted (the model's: %.4g GB)",
				 bytes_model / 1e9);
		else
			snprintf(bytes, sizeof(bytes), "%.4g GB (%s)", cnt->bytes / 1e9,
				 rt_source_name(cnt->bytes_source));
		fprintf(out, "  counted over %ld iterations through %s: %.4g GFLOP (%s), %s; %.1f "
		       "GFLOP/s, intensity %.2f FLOP/byte\n", c->iterations,
		       c->hw ? "perf_event" : "PAPI", cnt->flops / 1e9,
		       rt_source_name(cnt->flops_source), bytes,
		       it > 0 ? cnt->flops / ((double)c->iterations * it) / 1e9 : 0,
		       cnt->bytes > 0 ? cnt->flops / cnt->bytes :
		       bytes_model > 0 ? cnt->flops / bytes_model : 0);
		fprintf(out, "  counting took %.1f us, %.4f%% of the timed iterations\n",
		       res->counting_seconds * 1e6,
		       100 * res->counting_seconds / ((double)c->iterations * it));
		if (c->why && c->why->msg[0])
			fprintf(out, "  (hardware counters: %s; using the model counts)\n", c->why->msg);
	}
	print_memory(out, "  memory:", &res->mem, res->peak_rss_kib);
	if (c->per_layer) {
		struct rt_layer_work *w = calloc(m->nlayers, sizeof(*w));

		if (!w)
			return;
		/* where the primitives run it: a fused relu's work is its host's */
		rt_model_layer_work(m, no->batch, res->layer_fwd, res->layer_bwd, w);
		fprintf(out, "\n  %3s %-24s %-12s %10s %10s %10s %10s\n", "#", "layer", "type",
		       "fwd ms", "fwd GF/s", "bwd ms", "bwd GF/s");
		for (size_t i = 0; i < m->nlayers; i++) {
			if (w[i].fused) {
				fprintf(out, "  %3zu %-24.24s %-12s fused: %s\n", i + 1, m->layers[i].name,
				       rt_layer_type_name(m->layers[i].type), w[i].where);
				continue;
			}
			fprintf(out, "  %3zu %-24.24s %-12s %10.3f %10.1f %10.3f %10.1f\n", i + 1,
			       w[i].name, rt_layer_type_name(m->layers[i].type),
			       w[i].fwd_seconds * 1e3, w[i].fwd_seconds > 0 ?
			       w[i].fwd_flops / w[i].fwd_seconds / 1e9 : 0, w[i].bwd_seconds * 1e3,
			       w[i].bwd_seconds > 0 ? w[i].bwd_flops / w[i].bwd_seconds / 1e9 : 0);
		}
		free(w);
	}
}

