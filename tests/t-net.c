/* t-net.c: the trainer is right: every layer type's gradients against central finite
 * differences on tiny nets, training that learns and repeats bit for bit, memory accounting
 * that adds up, and data readers that reject bad files */
#include "config.h"
#include "cnn/data.h"
#include "cnn/model.h"
#include "cnn/net.h"
#include "cnn/train.h"
#include "base/util.h"
#include "tap.h"

#include <errno.h>
#include <math.h>
#include <omp.h>
#include <unistd.h>

static char dir[128];

static const char *write_file(const char *name, const void *data, size_t len)
{
	static char path[256];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "wb");
	fwrite(data, 1, len, fp);
	fclose(fp);
	return path;
}

static struct rt_model *model_from(const char *name, const char *text)
{
	struct rt_model *m = NULL;
	struct rt_err err;

	if (rt_model_load(&m, write_file(name, text, strlen(text)), &err))
		printf("# %s\n", err.msg);
	return m;
}

static double loss_at(struct rt_net *n)
{
	struct rt_err err;
	double loss = NAN;

	rt_net_set_iteration(n, 7);             /* the same dropout mask every time */
	if (rt_net_load_input(n, &err) || rt_net_forward(n, &err) ||
	    rt_net_loss(n, &loss, NULL, &err))
		printf("# %s\n", err.msg);
	return loss;
}

static enum rt_pool_impl gc_pool = RT_POOL_AUTO;      /* max pooling in gradcheck */

/* Central differences for up to `samples` elements of each parameter tensor of every layer. */
static void gradcheck(const char *title, const char *text, bool plain)
{
	struct rt_model *m = model_from("g.cfg", text);
	struct rt_net_opts o;
	struct rt_net *n = NULL;
	struct rt_err err;
	uint64_t s = 12345;
	size_t checked = 0, bad = 0;
	double worst = 0;

	if (!ok(m != NULL, "%s: model", title))
		return;
	rt_net_opts_default(&o, m);
	o.batch = 4;
	o.plain = plain;
	o.maxpool = gc_pool;
	if (!ok(rt_net_create(&n, m, &o, &err) == 0, "%s: net (%s layouts)", title,
		plain ? "plain" : "oneDNN's")) {
		printf("# %s\n", err.msg);
		rt_model_destroy(m);
		return;
	}
	{
		float *x = rt_net_input(n);
		long cnt = o.batch * rt_shape_elems(m->input);

		for (long i = 0; i < cnt; i++) {
			s ^= s << 13, s ^= s >> 7, s ^= s << 17;
			x[i] = (float)((double)(s % 2001) / 1000.0 - 1.0);
		}
		for (long i = 0; i < o.batch; i++)
			rt_net_labels(n)[i] = (int32_t)(i % m->classes);
	}
	loss_at(n);
	if (rt_net_backward(n, &err))
		printf("# backward: %s\n", err.msg);
	for (size_t l = 0; l < m->nlayers; l++) {
		for (int which = 0; which < 2; which++) {
			size_t cnt = rt_net_param_count(n, l, which);

			for (size_t k = 0; k < cnt && k < 6; k++) {
				size_t idx = (k * 7919 + 13) % cnt;
				const double eps = 1e-2;
				float v, g, p;
				double lp, lm, fd, tol;

				rt_net_param(n, l, which, idx, &v, false, &err);
				rt_net_grad(n, l, which, idx, &g, &err);
				p = (float)(v + eps);
				rt_net_param(n, l, which, idx, &p, true, &err);
				lp = loss_at(n);
				p = (float)(v - eps);
				rt_net_param(n, l, which, idx, &p, true, &err);
				lm = loss_at(n);
				rt_net_param(n, l, which, idx, &v, true, &err);
				fd = (lp - lm) / (2 * eps);
				tol = 2e-3 + 5e-2 * fabs(fd);
				checked++;
				if (fabs(fd - g) > tol) {
					bad++;
					printf("# %s layer %s %s[%zu]: analytic %.6g, numeric %.6g\n",
					       title, m->layers[l].name, which ? "bias" : "weights", idx,
					       g, fd);
				}
				if (fabs(fd - g) / (fabs(fd) + 1e-3) > worst)
					worst = fabs(fd - g) / (fabs(fd) + 1e-3);
			}
		}
	}
	ok(checked > 0 && bad == 0, "%s: %zu gradients match finite differences (worst rel. "
	   "error %.2g)", title, checked, worst);
	rt_net_destroy(n);
	rt_model_destroy(m);
}

#define HEAD(c, h, w, k) "model = { input = [ " #c ", " #h ", " #w " ]; classes = " #k "; layers = (\n"
#define TAIL "); };\n"

static void test_gradients(void)
{
	static const struct { const char *title, *text; } nets[] = {
		{ "conv+fc", HEAD(2, 5, 5, 3)
		  "{ type = \"conv\"; filters = 3; kernel = 3; pad = 1; },"
		  "{ type = \"fc\"; outputs = 3; }, { type = \"softmax_xent\"; }" TAIL },
		{ "grouped strided conv", HEAD(4, 6, 6, 3)
		  "{ type = \"conv\"; filters = 4; kernel = 3; stride = 2; groups = 2; },"
		  "{ type = \"conv\"; filters = 4; kernel = 1; bias = false; },"
		  "{ type = \"fc\"; outputs = 3; }, { type = \"softmax_xent\"; }" TAIL },
		{ "relu", HEAD(2, 5, 5, 3)
		  "{ type = \"conv\"; filters = 4; kernel = 3; }, { type = \"relu\"; },"
		  "{ type = \"fc\"; outputs = 3; }, { type = \"softmax_xent\"; }" TAIL },
		{ "maxpool", HEAD(2, 6, 6, 3)
		  "{ type = \"conv\"; filters = 3; kernel = 3; pad = 1; },"
		  "{ type = \"maxpool\"; kernel = 2; },"
		  "{ type = \"fc\"; outputs = 3; }, { type = \"softmax_xent\"; }" TAIL },
		{ "avgpool", HEAD(2, 6, 6, 3)
		  "{ type = \"conv\"; filters = 3; kernel = 3; pad = 1; },"
		  "{ type = \"avgpool\"; kernel = 3; stride = 2; pad = 1; },"
		  "{ type = \"fc\"; outputs = 3; }, { type = \"softmax_xent\"; }" TAIL },
		{ "batchnorm", HEAD(2, 5, 5, 3)
		  "{ type = \"conv\"; filters = 3; kernel = 3; bias = false; },"
		  "{ type = \"batchnorm\"; },"
		  "{ type = \"fc\"; outputs = 3; }, { type = \"softmax_xent\"; }" TAIL },
		{ "fc+relu+fc", HEAD(3, 2, 2, 4)
		  "{ type = \"fc\"; outputs = 6; }, { type = \"relu\"; },"
		  "{ type = \"fc\"; outputs = 4; }, { type = \"softmax_xent\"; }" TAIL },
		{ "dropout", HEAD(2, 4, 4, 3)
		  "{ type = \"conv\"; filters = 3; kernel = 3; pad = 1; },"
		  "{ type = \"dropout\"; rate = 0.5; },"
		  "{ type = \"fc\"; outputs = 3; }, { type = \"softmax_xent\"; }" TAIL },
		{ "residual add", HEAD(2, 5, 5, 3)
		  "{ type = \"conv\"; name = \"a\"; filters = 3; kernel = 3; pad = 1; },"
		  "{ type = \"conv\"; filters = 3; kernel = 3; pad = 1; },"
		  "{ type = \"add\"; from = \"a\"; },"
		  "{ type = \"fc\"; outputs = 3; }, { type = \"softmax_xent\"; }" TAIL },
		{ "branch from an earlier layer", HEAD(2, 5, 5, 3)
		  "{ type = \"conv\"; name = \"a\"; filters = 3; kernel = 3; pad = 1; },"
		  "{ type = \"relu\"; name = \"r\"; },"
		  "{ type = \"conv\"; name = \"b\"; input = \"a\"; filters = 3; kernel = 1; },"
		  "{ type = \"add\"; from = \"r\"; },"
		  "{ type = \"fc\"; outputs = 3; }, { type = \"softmax_xent\"; }" TAIL },
	};

	for (size_t i = 0; i < sizeof(nets) / sizeof(nets[0]); i++) {
		gradcheck(nets[i].title, nets[i].text, false);
		gradcheck(nets[i].title, nets[i].text, true);
	}
	/* a relu whose backward the max pool after it does, with each max pooling */
	for (int p = RT_POOL_ONEDNN; p <= RT_POOL_SPLIT; p++) {
		char title[64];
		const char *text = HEAD(2, 6, 6, 3)
			"{ type = \"conv\"; filters = 3; kernel = 3; pad = 1; }, { type = \"relu\"; },"
			"{ type = \"maxpool\"; kernel = 2; },"
			"{ type = \"fc\"; outputs = 3; }, { type = \"softmax_xent\"; }" TAIL;

		gc_pool = (enum rt_pool_impl)p;
		snprintf(title, sizeof(title), "relu+maxpool (%s)", rt_pool_impl_name(gc_pool));
		gradcheck(title, text, false);
		gradcheck(title, text, true);
	}
	gc_pool = RT_POOL_AUTO;
}

/* One training step of a net with a given max pooling; NULL on failure. Input: 2x2 blocks of
 * equal values (so 1x1 convolutions give windows whose four values tie exactly) and zeros
 * (ties at zero after a relu). */
static struct rt_net *split_step(const struct rt_model *m, enum rt_pool_impl impl,
				 enum rt_precision prec, bool plain, long chunk)
{
	struct rt_net_opts o;
	struct rt_net *n = NULL;
	struct rt_err err;
	long H = m->input.h, W = m->input.w;

	rt_net_opts_default(&o, m);
	o.batch = 8;
	o.plain = plain;
	o.precision = prec;
	o.maxpool = impl;
	o.pool_chunk = chunk;
	if (rt_net_create(&n, m, &o, &err)) {
		printf("# %s: %s\n", rt_pool_impl_name(impl), err.msg);
		return NULL;
	}
	for (long i = 0; i < o.batch * m->input.c * H * W; i++) {
		long w = i % W, h = (i / W) % H, img = i / (W * H);
		uint64_t x = (uint64_t)(img * 7919 + (h / 2) * 104729 + (w / 2) * 1299709);

		x = (x ^ (x >> 13)) * 0x9E3779B97F4A7C15ULL;
		rt_net_input(n)[i] = (x >> 60) < 4 ? 0.0f : (float)((x >> 40) % 1000) / 500.0f - 1.0f;
	}
	for (long i = 0; i < o.batch; i++)
		rt_net_labels(n)[i] = (int32_t)(i % m->classes);
	if (rt_net_load_input(n, &err) || rt_net_forward(n, &err) ||
	    rt_net_loss(n, NULL, NULL, &err) || rt_net_backward(n, &err)) {
		printf("# %s: %s\n", rt_pool_impl_name(impl), err.msg);
		rt_net_destroy(n);
		return NULL;
	}
	return n;
}

/* The split max pooling gives oneDNN's pooling results bit for bit: every output and every
 * weight gradient, ties included, in both precisions, in oneDNN's layouts (6 channels:
 * padded blocks or NHWC) and plain ones, its backward over the whole batch and in chunks of
 * 2 images (4 chunks: 2 threads take 2 each, 3 threads 2, 1 and 1, on views and slots of
 * their own); auto picks one of the two and says which. */
static void test_maxpool_split(void)
{
	struct rt_model *m = model_from("split.cfg", HEAD(2, 16, 16, 5)
		"{ type = \"conv\"; name = \"c1\"; filters = 6; kernel = 1; },"
		"{ type = \"maxpool\"; name = \"p1\"; kernel = 2; },"
		"{ type = \"conv\"; name = \"c2\"; filters = 20; kernel = 3; pad = 1; },"
		"{ type = \"relu\"; name = \"r2\"; },"
		"{ type = \"maxpool\"; name = \"p2\"; kernel = 2; },"
		"{ type = \"conv\"; name = \"c3\"; filters = 16; kernel = 3; pad = 1; },"
		"{ type = \"maxpool\"; name = \"p3\"; kernel = 3; stride = 2; pad = 1; },"
		"{ type = \"fc\"; name = \"fc\"; outputs = 5; },"
		"{ type = \"softmax_xent\"; }" TAIL);

	if (!ok(m != NULL, "split model"))
		return;
	ok(m->layers[3].bwd_folded && m->layers[4].folds_relu && !m->layers[1].folds_relu,
	   "r2's backward is p2's; p1 has no relu before it");
	for (int t = 0; t < RT_TRAIN_NPRECISIONS * 3; t++)
		for (int plain = 0; plain < 2; plain++) {
			const enum rt_precision prec = rt_vocab_train_precisions[t / 3];
			const long chunk = t % 3 ? 2 : 8;      /* of a batch of 8 */
			const int threads = t % 3 == 2 ? 3 : 2; /* 3: 4 chunks, unevenly */
			struct rt_net *a, *b;
			size_t diff = 0, cmp = 0;
			struct rt_err err;

			if (prec == RT_PRECISION_BF16 && rt_net_bf16_support(NULL, 0, &err)) {
				skip("bf16: %s", err.msg);
				continue;
			}
			rt_model_set_precision(m, prec);
			/* both nets on the same threads: a convolution's weight gradient sums
			 * in an order of their number */
			omp_set_num_threads(threads);
			a = split_step(m, RT_POOL_ONEDNN, prec, plain, 0);
			b = split_step(m, RT_POOL_SPLIT, prec, plain, chunk);
			omp_set_num_threads(2);
			if (!ok(a && b, "%s %s, chunks of %ld images on %d threads: both nets train a "
				"step", rt_precision_name(prec), plain ? "plain" : "oneDNN's", chunk,
				threads))
				goto next;
			ok(!strncmp(rt_net_layer_impl(b, 1), "split:", 6) &&
			   !strncmp(rt_net_layer_impl(b, 4), "split:", 6) &&
			   strncmp(rt_net_layer_impl(b, 6), "split:", 6) &&
			   strncmp(rt_net_layer_impl(a, 1), "split:", 6),
			   "split runs where the window is the stride (p1, p2: %s), not elsewhere "
			   "(p3: %s; onednn: %s)", rt_net_layer_impl(b, 4), rt_net_layer_impl(b, 6),
			   rt_net_layer_impl(a, 1));
			for (size_t l = 0; l < m->nlayers; l++) {
				for (int w = 0; w < 2; w++)
					for (size_t k = 0; k < rt_net_param_count(a, l, w); k++) {
						float x = 0, y = 1;

						rt_net_grad(a, l, w, k, &x, &err);
						rt_net_grad(b, l, w, k, &y, &err);
						cmp++;
						diff += memcmp(&x, &y, sizeof(x)) != 0;
					}
				if (l + 1 < m->nlayers) {
					size_t cnt = (size_t)(8 * rt_shape_elems(m->layers[l].out));
					float *x = calloc(cnt, sizeof(float)), *y = calloc(cnt, sizeof(float));

					if (!rt_net_activation(a, l, 0, x, cnt, &err) &&
					    !rt_net_activation(b, l, 0, y, cnt, &err))
						diff += memcmp(x, y, cnt * sizeof(float)) != 0;
					else
						diff++;
					free(x);
					free(y);
				}
			}
			is_int((long long)diff, 0, "%s %s, chunks of %ld images on %d threads: split "
			       "gives the primitive's bits (%zu weight gradients, every output)",
			       rt_precision_name(prec), plain ? "plain" : "oneDNN's", chunk, threads,
			       cmp);
next:
			rt_net_destroy(a);
			rt_net_destroy(b);
		}
	rt_model_set_precision(m, RT_PRECISION_FP32);
	{
		struct rt_net *c = split_step(m, RT_POOL_AUTO, RT_PRECISION_FP32, false, 0);
		const char *impl = c ? rt_net_layer_impl(c, 4) : "";

		ok(c && *impl, "auto chose for p2 by timing both: %s", impl);
		rt_net_destroy(c);
	}
	rt_model_destroy(m);
}

static void test_training(void)
{
	struct rt_model *m = NULL;
	struct rt_net_opts o;
	struct rt_train_opts to = { .iterations = 40, .warmup = 0, .data = "synthetic",
				    .digest = true };
	struct rt_train_result a, b;
	struct rt_err err;
	int rc;

	if (rt_model_open(&m, "lenet5", &err)) {
		ok(0, "lenet5: %s", err.msg);
		return;
	}
	rt_net_opts_default(&o, m);
	o.batch = 32;
	o.lr = 0.02;
	rc = rt_train_iterations(m, &o, &to, &a, &err);
	if (!is_int(rc, 0, "lenet5 trains 40 iterations on synthetic data"))
		printf("# %s\n", err.msg);
	if (!rc) {
		double first = (a.losses[0] + a.losses[1] + a.losses[2]) / 3;
		double last = (a.losses[37] + a.losses[38] + a.losses[39]) / 3;
		double acc0 = (a.accuracies[0] + a.accuracies[1] + a.accuracies[2]) / 3;
		double acc1 = (a.accuracies[37] + a.accuracies[38] + a.accuracies[39]) / 3;

		ok(last < 0.6 * first, "loss falls: %.3f -> %.3f", first, last);
		ok(acc1 > acc0 + 0.3, "accuracy rises: %.2f -> %.2f", acc0, acc1);
		ok(a.images_per_s > 0 && a.iter_seconds > 0, "timed: %.0f images/s", a.images_per_s);
		/* the share of their threads' time that timed iterations got cannot pass 100%,
		 * over a window of a few milliseconds too (the process's clock lags up to a tick
		 * for each thread running elsewhere: 122% and 135% of 2 threads, before) */
		{
			struct rt_train_opts shortrun = to;
			double most = 0, least = 2;

			shortrun.iterations = 2;
			shortrun.warmup = 1;
			shortrun.digest = false;
			for (int k = 0; k < 10; k++) {
				struct rt_train_result c;

				if (!rt_train_iterations(m, &o, &shortrun, &c, &err)) {
					most = c.cpu_share > most ? c.cpu_share : most;
					least = c.cpu_share < least ? c.cpu_share : least;
				}
				rt_train_result_fini(&c);
			}
			ok(most <= 1.005 && least > 0, "10 runs of 2 iterations on %d threads: "
			   "%.1f%%..%.1f%% of their threads' time, none past 100%%",
			   omp_get_max_threads(), 100 * least, 100 * most);
		}
		{
			struct rt_net *n = NULL;

			if (!rt_net_create(&n, m, &o, &err))
				ok(strncmp(rt_net_layer_impl(n, 0), "brgconv:", 8) &&
				   strncmp(rt_net_layer_impl(n, 3), "brgconv:", 8),
				   "convolutions of 1 and 6 channels run oneDNN's direct kernels, not "
				   "brgconv (%s, %s)", rt_net_layer_impl(n, 0), rt_net_layer_impl(n, 3));
			else
				ok(0, "lenet5 net: %s", err.msg);
			rt_net_destroy(n);
		}
		{
			double sum = 0;

			for (int p = 0; p < RT_PHASE_COUNT; p++)
				sum += a.phase_total[p];
			is_double(sum, a.total_seconds, 1e-9,
				  "the five phases add up to the timed iterations");
		}
		rc = rt_train_iterations(m, &o, &to, &b, &err);
		ok(rc == 0 && !memcmp(a.losses, b.losses, 40 * sizeof(double)),
		   "same seed and threads: identical losses, bit for bit");
		ok(rc == 0 && a.digest == b.digest && a.weights_sum == b.weights_sum &&
		   a.weights_norm > 0, "... and identical final weights (digest %016llx)",
		   (unsigned long long)a.digest);
		rt_train_result_fini(&b);
		o.seed = 2;
		rc = rt_train_iterations(m, &o, &to, &b, &err);
		ok(rc == 0 && memcmp(a.losses, b.losses, 40 * sizeof(double)),
		   "another seed: other losses");
		ok(rc == 0 && a.digest != b.digest, "another seed: another weights digest");
		rt_train_result_fini(&b);
	}
	rt_train_result_fini(&a);
	rt_model_destroy(m);
}

static void test_memory(void)
{
	static const char *const names[] = { "lenet5", "convnet", "resnet18" };

	for (size_t i = 0; i < 3; i++) {
		struct rt_model *m = NULL;
		struct rt_model_totals t;
		struct rt_net_opts o;
		struct rt_net *n = NULL;
		struct rt_net_memory mm, sum = { 0 };
		struct rt_err err;

		if (rt_model_open(&m, names[i], &err)) {
			ok(0, "%s: %s", names[i], err.msg);
			continue;
		}
		for (int plain = 1; plain >= 0; plain--) {
			rt_net_opts_default(&o, m);
			o.batch = i == 2 ? 2 : 8;
			o.plain = plain;
			rt_model_totals(m, o.batch, &t);
			if (rt_net_create(&n, m, &o, &err)) {
				ok(0, "%s net: %s", names[i], err.msg);
				continue;
			}
			rt_net_memory(n, &mm);
			memset(&sum, 0, sizeof(sum));
			for (size_t l = 0; l < m->nlayers; l++) {
				struct rt_net_memory lm;

				rt_net_layer_memory(n, l, &lm);
				sum.weights += lm.weights;
				sum.weight_grads += lm.weight_grads;
				sum.optimizer += lm.optimizer;
				sum.activations += lm.activations;
				sum.activation_grads += lm.activation_grads;
				sum.workspace += lm.workspace;
			}
			is_int((long long)mm.total, (long long)mm.allocated,
			       "%s (%s): categories sum to what was allocated (%llu bytes)",
			       names[i], plain ? "plain" : "oneDNN layouts",
			       (unsigned long long)mm.allocated);
			/* everything but the shared workspace (the input batch and the one
			 * scratchpad) belongs to a layer */
			ok(sum.weights == mm.weights && sum.weight_grads == mm.weight_grads &&
			   sum.optimizer == mm.optimizer && sum.activations == mm.activations &&
			   sum.activation_grads == mm.activation_grads &&
			   mm.workspace >= sum.workspace + 4ULL * (unsigned long long)o.batch *
			   (unsigned long long)rt_shape_elems(m->input),
			   "%s: the layers' memory adds up to the net's, but for the shared workspace",
			   names[i]);
			if (plain) {
				is_int((long long)mm.weights, 4LL * t.params,
				       "%s plain: weights are 4 bytes x %ld parameters", names[i],
				       t.params);
				is_int((long long)mm.activations, 4LL * o.batch * t.kept_elems,
				       "%s plain: activations are every kept element", names[i]);
			} else {
				ok(mm.weights >= 4ULL * (unsigned long long)t.params,
				   "%s: blocked weights at least the parameters", names[i]);
			}
			ok(mm.weight_grads == mm.weights && mm.optimizer == mm.weights,
			   "%s: one gradient and one momentum per weight", names[i]);
			rt_net_destroy(n);
			n = NULL;
		}
		rt_model_destroy(m);
	}
}

static void test_data(void)
{
	struct rt_model *lenet = NULL, *convnet = NULL;
	struct rt_data *d = NULL;
	struct rt_err err;
	unsigned char img[16 + 3 * 784], lab[8 + 3];
	float x[5 * 784];
	int32_t y[5];
	char spec[300];

	rt_model_open(&lenet, "lenet5", &err);
	rt_model_open(&convnet, "convnet", &err);
	memset(img, 0, sizeof(img));
	img[2] = 0x08, img[3] = 0x03, img[7] = 3, img[11] = 28, img[15] = 28;
	for (int i = 0; i < 3 * 784; i++)
		img[16 + i] = (unsigned char)(i * 7);
	memset(lab, 0, sizeof(lab));
	lab[2] = 0x08, lab[3] = 0x01, lab[7] = 3, lab[8] = 4, lab[9] = 0, lab[10] = 9;
	write_file("train-images-idx3-ubyte", img, sizeof(img));
	write_file("train-labels-idx1-ubyte", lab, sizeof(lab));
	snprintf(spec, sizeof(spec), "mnist:%s", dir);
	if (!ok(rt_data_open(&d, spec, lenet, 1, &err) == 0, "MNIST reader opens 3 images"))
		printf("# %s\n", err.msg);
	if (d) {
		rt_data_next(d, 5, x, y);
		ok(y[0] == 4 && y[1] == 0 && y[2] == 9 && y[3] == 4 && y[4] == 0,
		   "labels in order, wrapping around");
		is_double(x[784 + 5], ((float)(unsigned char)((784 + 5) * 7) / 255.0f - 0.1307f) *
			  (1 / 0.3081f), 1e-6, "pixel normalized with MNIST's mean and std");
		rt_data_destroy(d);
		d = NULL;
	}
	ok(rt_data_open(&d, spec, convnet, 1, &err) == -EINVAL &&
	   strstr(err.msg, "MNIST images are 1x28x28"), "model shape checked: %s", err.msg);
	write_file("train-images-idx3-ubyte", img, sizeof(img) - 100);
	ok(rt_data_open(&d, spec, lenet, 1, &err) == -EINVAL && strstr(err.msg, "truncated"),
	   "truncated MNIST: %s", err.msg);
	img[3] = 0x01;
	write_file("train-images-idx3-ubyte", img, sizeof(img));
	ok(rt_data_open(&d, spec, lenet, 1, &err) == -EINVAL &&
	   strstr(err.msg, "not an MNIST image file"), "foreign file: %s", err.msg);
	{
		static unsigned char rec[2 * 3073];

		rec[0] = 3;
		rec[3073] = 7;
		rec[3073 + 1 + 1024] = 255;     /* record 2, green channel, first pixel */
		write_file("data_batch_1.bin", rec, sizeof(rec));
		snprintf(spec, sizeof(spec), "cifar10:%s", dir);
		if (!ok(rt_data_open(&d, spec, convnet, 1, &err) == 0, "CIFAR-10 reader opens"))
			printf("# %s\n", err.msg);
		if (d) {
			float cx[2 * 3072];
			int32_t cy[2];

			rt_data_next(d, 2, cx, cy);
			ok(cy[0] == 3 && cy[1] == 7, "CIFAR-10 labels");
			is_double(cx[3072 + 1024], (1.0f - 0.4822f) * (1 / 0.2435f), 1e-6,
				  "CIFAR-10 green channel normalized");
			rt_data_destroy(d);
			d = NULL;
		}
		write_file("data_batch_1.bin", rec, 3000);
		ok(rt_data_open(&d, spec, convnet, 1, &err) == -EINVAL &&
		   strstr(err.msg, "not a whole number of 3073-byte records"),
		   "truncated CIFAR-10: %s", err.msg);
		rec[0] = 37;
		write_file("data_batch_1.bin", rec, sizeof(rec));
		ok(rt_data_open(&d, spec, convnet, 1, &err) == -EINVAL &&
		   strstr(err.msg, "record 0 has label 37"), "foreign CIFAR-10: %s", err.msg);
	}
	ok(rt_data_open(&d, "imagenet:/x", lenet, 1, &err) == -EINVAL, "unknown data source");
	rt_model_destroy(lenet);
	rt_model_destroy(convnet);
}

int main(void)
{
	char cmd[200];
	struct rt_err err;
	struct rt_net *n = NULL;
	struct rt_net_opts o;
	struct rt_model *m;

	setenv("ROOFTRAJ_MODELS", "", 1);
	omp_set_num_threads(2);
	snprintf(dir, sizeof(dir), "/tmp/rt-t-net-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	test_gradients();
	test_maxpool_split();
	test_training();
	test_memory();
	test_data();
	/* a layer whose output nobody uses is a model error the net reports */
	m = model_from("dangling.cfg", HEAD(2, 4, 4, 3)
		       "{ type = \"conv\"; name = \"lost\"; filters = 3; kernel = 3; },"
		       "{ type = \"fc\"; input = \"lost\"; outputs = 3; },"
		       "{ type = \"relu\"; input = \"lost\"; },"
		       "{ type = \"fc\"; outputs = 3; input = \"lost\"; },"
		       "{ type = \"softmax_xent\"; }" TAIL);
	if (m) {
		rt_net_opts_default(&o, m);
		ok(rt_net_create(&n, m, &o, &err) == -EINVAL && strstr(err.msg, "is not used"),
		   "unused output rejected: %s", err.msg);
		rt_model_destroy(m);
	}
	/* a hostile model: fine per image, far too large at its batch: refused before allocation,
	 * with the size it would need (12 bytes per parameter; kept activations, their gradients
	 * and the input, 4 bytes each per image) */
	m = model_from("huge.cfg", "model = { input = [ 3, 4000, 4000 ]; classes = 3; batch = 64; "
		       "layers = ( { type = \"conv\"; filters = 16; kernel = 3; pad = 1; }, "
		       "{ type = \"fc\"; outputs = 3; }, { type = \"softmax_xent\"; } ); };\n");
	if (m) {
		struct rt_model_totals t;
		double want;

		rt_model_totals(m, 64, &t);
		want = 12.0 * (double)t.params + 4.0 * 64 * ((double)t.kept_elems +
							    (double)t.act_elems + 3.0 * 4000 * 4000);
		is_double(rt_net_estimate_bytes(m, 64, RT_PRECISION_FP32), want, 1e-12, "estimate: %.3g bytes", want);
		rt_net_opts_default(&o, m);
		{
			double have = (double)rt_mem_available();

			if (have > want)
				skip("this machine has %.0f GB available: the 'hostile' model fits",
				     have / 1e9);
			else
				ok(rt_net_create(&n, m, &o, &err) == -ENOMEM &&
				   strstr(err.msg, "needs about") && strstr(err.msg, "GB available"),
				   "refused before allocating: %s", err.msg);
		}
		rt_model_destroy(m);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("# cleanup failed\n");
	return done_testing();
}
