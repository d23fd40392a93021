/* t-bf16: bf16 training against fp32: every layer's forward output, output gradient and weight
 * gradients within bf16 tolerances on the same weights and batch, training that reaches the
 * fp32 accuracy, byte counts by element size, and the memory split with the smaller tensors */
#include "config.h"
#include "tap.h"
#include "cnn/model.h"
#include "cnn/net.h"
#include "cnn/train.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Normwise relative difference ||a - b|| / ||a|| (0 when both are 0). */
static double reldiff(const float *a, const float *b, size_t n)
{
	double d = 0, s = 0;

	for (size_t i = 0; i < n; i++) {
		d += ((double)a[i] - b[i]) * ((double)a[i] - b[i]);
		s += (double)a[i] * a[i];
	}
	return s > 0 ? sqrt(d / s) : sqrt(d);
}

static struct rt_model *load(const char *path_or_name)
{
	struct rt_model *m = NULL;
	struct rt_err err;

	if (rt_model_open(&m, path_or_name, &err))
		printf("# %s\n", err.msg);
	return m;
}

/* One forward and backward pass of the same batch through a net of the precision. */
static struct rt_net *pass(const struct rt_model *m, enum rt_precision p, long batch)
{
	struct rt_net_opts o;
	struct rt_net *n = NULL;
	struct rt_err err;
	uint64_t s = 99;
	float *in;

	rt_net_opts_default(&o, m);
	o.batch = batch;
	o.precision = p;
	if (rt_net_create(&n, m, &o, &err)) {
		printf("# %s: %s\n", rt_precision_name(p), err.msg);
		return NULL;
	}
	in = rt_net_input(n);
	for (long i = 0; i < batch * rt_shape_elems(m->input); i++) {
		s = s * 6364136223846793005ULL + 1442695040888963407ULL;
		in[i] = (float)((double)(s >> 11) * 0x1p-53 * 2 - 1);
	}
	for (long i = 0; i < batch; i++)
		rt_net_labels(n)[i] = (int32_t)(i % m->classes);
	rt_net_set_iteration(n, 3);
	if (rt_net_load_input(n, &err) || rt_net_forward(n, &err) ||
	    rt_net_loss(n, NULL, NULL, &err) || rt_net_backward(n, &err)) {
		printf("# %s: %s\n", rt_precision_name(p), err.msg);
		rt_net_destroy(n);
		return NULL;
	}
	return n;
}

/* Every layer type in one net, with channel counts that AMX tiles take. */
static const char layers_model[] =
	"model = { name = \"every-layer\"; input = [ 3, 16, 16 ]; classes = 10; batch = 16;\n"
	"layers = (\n"
	"{ type = \"conv\"; name = \"c1\"; filters = 32; kernel = 3; pad = 1; bias = false; },\n"
	"{ type = \"batchnorm\"; name = \"bn\"; },\n"
	"{ type = \"relu\"; name = \"r1\"; },\n"
	"{ type = \"conv\"; name = \"c2\"; filters = 32; kernel = 3; pad = 1; },\n"
	"{ type = \"add\"; name = \"res\"; from = \"r1\"; },\n"
	"{ type = \"maxpool\"; name = \"mp\"; kernel = 2; },\n"
	"{ type = \"conv\"; name = \"c3\"; filters = 64; kernel = 3; pad = 1; groups = 2; },\n"
	"{ type = \"avgpool\"; name = \"ap\"; kernel = 3; stride = 2; pad = 1; },\n"
	"{ type = \"dropout\"; name = \"drop\"; rate = 0.5; },\n"
	"{ type = \"fc\"; name = \"fc1\"; outputs = 64; },\n"
	"{ type = \"relu\"; name = \"r2\"; },\n"
	"{ type = \"fc\"; name = \"fc2\"; outputs = 10; },\n"
	"{ type = \"softmax_xent\"; name = \"loss\"; } ); };\n";

/* A one-channel input: the first convolution's weight gradient runs in fp32 (bwd_w_fp32),
 * from the fp32 input and the bf16 output gradient cast. */
static const char first_model[] =
	"model = { name = \"one-channel\"; input = [ 1, 16, 16 ]; classes = 10; batch = 16;\n"
	"layers = (\n"
	"{ type = \"conv\"; name = \"c1\"; filters = 32; kernel = 5; pad = 2; },\n"
	"{ type = \"relu\"; name = \"r1\"; },\n"
	"{ type = \"maxpool\"; name = \"mp\"; kernel = 2; },\n"
	"{ type = \"fc\"; name = \"fc\"; outputs = 10; },\n"
	"{ type = \"softmax_xent\"; name = \"loss\"; } ); };\n";

static void test_layers(const char *path)
{
	/* bf16 keeps 8 significant bits (relative rounding 2^-9 = 0.002 per element); the
	 * tolerances allow that error to grow through the layers and their sums. Below a max
	 * pooling, gradients differ more: rounded inputs that nearly tie pick another maximum
	 * and route the gradient to another position (a wrong layout or a missed cast gives a
	 * difference near 1). */
	const double tol_out = 0.03, tol_grad_top = 0.06, tol_grad_below_max = 0.15;
	size_t first_max = 0;
	struct rt_model *m = load(path);
	struct rt_net *a, *b;
	const long batch = 16;

	if (!m)
		return;
	a = pass(m, RT_PRECISION_FP32, batch);
	b = pass(m, RT_PRECISION_BF16, batch);
	ok(a && b, "the same model and batch in fp32 and bf16");
	while (first_max < m->nlayers && m->layers[first_max].type != RT_LAYER_MAXPOOL)
		first_max++;
	for (size_t i = 0; a && b && i < m->nlayers; i++) {
		const struct rt_layer_desc *L = &m->layers[i];
		const double tol_grad = i < first_max ? tol_grad_below_max : tol_grad_top;
		size_t cnt = (size_t)(batch * rt_shape_elems(L->out));
		float *x = malloc(cnt * sizeof(float)), *y = malloc(cnt * sizeof(float));
		struct rt_err err;

		if (!rt_net_activation(a, i, 0, x, cnt, &err) &&
		    !rt_net_activation(b, i, 0, y, cnt, &err)) {
			double r = reldiff(x, y, cnt);

			ok(r < tol_out, "%s (%s) forward: bf16 within %.3f of fp32 (%.5f)", L->name,
			   rt_layer_type_name(L->type), tol_out, r);
		} else {
			ok(0, "%s forward: %s", L->name, err.msg);
		}
		if (L->bwd_folded) {
			skip("%s: its backward is the max pool's, no gradient buffer of its own",
			     L->name);
		} else if (i + 1 < m->nlayers) {
			if (!rt_net_activation(a, i, 1, x, cnt, &err) &&
			    !rt_net_activation(b, i, 1, y, cnt, &err)) {
				double r = reldiff(x, y, cnt);

				ok(r < tol_grad, "%s backward (output gradient): bf16 within %.3f "
				   "of fp32 (%.5f)", L->name, tol_grad, r);
			} else {
				ok(0, "%s backward: %s", L->name, err.msg);
			}
		}
		free(x);
		free(y);
		for (int w = 0; w < 2; w++) {
			size_t pc = rt_net_param_count(a, i, w);
			float *ga, *gb;
			bool fine = true;

			if (!pc)
				continue;
			ga = malloc(pc * sizeof(float));
			gb = malloc(pc * sizeof(float));
			for (size_t k = 0; k < pc && fine; k++)
				fine = !rt_net_grad(a, i, w, k, &ga[k], &err) &&
				       !rt_net_grad(b, i, w, k, &gb[k], &err);
			if (fine) {
				double r = reldiff(ga, gb, pc);

				ok(r < tol_grad, "%s %s gradient (%zu values): bf16 within %.3f of "
				   "fp32 (%.5f)", L->name, w ? "bias" : "weight", pc, tol_grad, r);
			} else {
				ok(0, "%s gradient: %s", L->name, err.msg);
			}
			free(ga);
			free(gb);
		}
	}
	/* the precision shows in the implementations oneDNN picked */
	if (a && b)
		ok(strstr(rt_net_layer_impl(b, 0), "bf16") || strstr(rt_net_layer_impl(b, 0), "amx") ||
		   strstr(rt_net_layer_impl(b, 0), "avx512_core"),
		   "bf16 convolution runs oneDNN's %s (fp32: %s)", rt_net_layer_impl(b, 0),
		   rt_net_layer_impl(a, 0));
	rt_net_destroy(a);
	rt_net_destroy(b);
	rt_model_destroy(m);
}

/* bf16 reaches fp32's accuracy on the synthetic data in the same number of iterations. */
static void test_training(void)
{
	/* the stated tolerance: the mean accuracy of the last 5 of 60 iterations within 0.10 */
	const double tol = 0.10;
	struct rt_model *m = load("lenet5");
	struct rt_train_opts to = { .iterations = 60, .warmup = 0, .data = "synthetic" };
	struct rt_train_result r[2];
	double acc[2] = { 0, 0 }, first[2] = { 0, 0 }, last[2] = { 0, 0 };

	if (!m)
		return;
	for (int p = 0; p < 2; p++) {
		struct rt_net_opts o;
		struct rt_err err;

		rt_model_set_precision(m, rt_vocab_train_precisions[p]);
		rt_net_opts_default(&o, m);
		o.batch = 32;
		o.lr = 0.02;
		o.precision = rt_vocab_train_precisions[p];
		if (rt_train_iterations(m, &o, &to, &r[p], &err)) {
			ok(0, "lenet5 %s: %s", rt_precision_name(o.precision), err.msg);
			rt_model_destroy(m);
			return;
		}
		for (int k = 0; k < 5; k++) {
			acc[p] += r[p].accuracies[55 + k] / 5;
			first[p] += r[p].losses[k] / 5;
			last[p] += r[p].losses[55 + k] / 5;
		}
	}
	ok(last[1] < 0.6 * first[1], "bf16 loss falls: %.3f -> %.3f (fp32 %.3f -> %.3f)", first[1],
	   last[1], first[0], last[0]);
	ok(fabs(acc[1] - acc[0]) <= tol && acc[0] > 0.5,
	   "bf16 accuracy %.3f within %.2f of fp32's %.3f after 60 iterations", acc[1], tol, acc[0]);
	ok(strstr(r[1].impl, "bf16") || strstr(r[1].impl, "avx512_core"),
	   "the run records the bf16 implementation: %s", r[1].impl);
	rt_train_result_fini(&r[0]);
	rt_train_result_fini(&r[1]);
	rt_model_destroy(m);
}

static const struct rt_layer_desc *layer(const struct rt_model *m, const char *name)
{
	for (size_t i = 0; i < m->nlayers; i++)
		if (!strcmp(m->layers[i].name, name))
			return &m->layers[i];
	return NULL;
}

/* Byte counts by element size, by hand for LeNet-5. */
static void test_counts(void)
{
	struct rt_model *m = load("lenet5");
	struct rt_model_totals t32, t16;
	const struct rt_layer_desc *c1, *f3, *loss, *p1;

	if (!m)
		return;
	rt_model_totals(m, 64, &t32);
	rt_model_set_precision(m, RT_PRECISION_BF16);
	rt_model_totals(m, 64, &t16);
	c1 = layer(m, "conv1");
	f3 = layer(m, "fc3");
	p1 = layer(m, "pool1");
	loss = &m->layers[m->nlayers - 1];
	if (!ok(c1 && f3 && p1, "lenet5 has conv1, pool1 and fc3"))
		goto out;
	is_double(c1->n.fwd_bytes, 2.0 * (28 * 28 + 6 * 24 * 24), 0,
		  "bf16 conv1: 2-byte input and output");
	is_double(c1->n.fwd_wbytes, (4 + 2 + 2) * 150.0 + 4 * 6, 0,
		  "bf16 conv1 weights: cast (read 4, write 2) and read 2 bytes each; fp32 bias");
	is_double(c1->n.bwd_weights_wbytes, 4.0 * 156, 0, "bf16 conv1: fp32 weight gradients");
	is_double(p1->n.fwd_bytes, 2.0 * (6 * 24 * 24 + 6 * 12 * 12), 0, "bf16 pool1");
	is_double(f3->n.fwd_bytes, 2.0 * 84 + 4 * 10, 0, "bf16 fc3: fp32 logits");
	is_double(f3->n.bwd_data_bytes, 2.0 * (10 + 84), 0, "bf16 fc3: bf16 logit gradient");
	is_double(loss->n.bwd_data_bytes, 4.0 * 10 + 2 * 10 + 4, 0,
		  "bf16 loss: reads fp32 probabilities, writes a bf16 gradient");
	is_double(t16.fwd_flops + t16.bwd_flops + t16.update_flops,
		  t32.fwd_flops + t32.bwd_flops + t32.update_flops, 0, "FLOPs do not change");
	is_double(t16.update_bytes, t32.update_bytes, 0, "SGD on the fp32 master weights");
	ok(c1->bwd_w_fp32 && !layer(m, "conv2")->bwd_w_fp32,
	   "bf16 conv1 (1 input channel) computes its weight gradient in fp32, conv2 does not");
	is_double(c1->n.bwd_weights_bytes, 4.0 * 28 * 28 + (2.0 + 4 + 4) * 6 * 24 * 24, 0,
		  "bf16 conv1 weight gradient: the fp32 input, the output gradient cast (read 2, "
		  "write 4) and read in fp32");
	ok(t16.fwd_bytes < t32.fwd_bytes &&
	   t16.bwd_bytes - 64 * c1->n.bwd_weights_bytes <
	   0.6 * (t32.bwd_bytes - 64 * 4.0 * (28 * 28 + 6 * 24 * 24)),
	   "bf16 moves fewer bytes: forward %.3g vs %.3g, backward (but conv1's weight "
	   "gradient) %.3g vs %.3g", t16.fwd_bytes,
	   t32.fwd_bytes, t16.bwd_bytes, t32.bwd_bytes);
	rt_model_set_precision(m, RT_PRECISION_FP32);
	rt_model_totals(m, 64, &t16);
	is_double(t16.fwd_bytes + t16.bwd_bytes, t32.fwd_bytes + t32.bwd_bytes, 0,
		  "back to fp32: the fp32 counts again");
out:
	rt_model_destroy(m);
}

/* The memory split in plain layouts: bf16 activations are half (but the fp32 logits and
 * probabilities), weights add a 2-byte copy of each conv and fc weight, gradients of weights
 * and optimizer state stay fp32. */
static void test_memory(void)
{
	struct rt_model *m = load("lenet5");
	struct rt_net_memory mm[2];
	struct rt_model_totals t;
	long wcopy = 0;
	const long B = 8;

	if (!m)
		return;
	rt_model_totals(m, B, &t);
	for (size_t i = 0; i < m->nlayers; i++) {
		const struct rt_layer_desc *L = &m->layers[i];

		if (L->type == RT_LAYER_CONV || L->type == RT_LAYER_FC)
			wcopy += L->n.params - (L->bias ? (L->type == RT_LAYER_FC ? L->outputs :
							   L->filters) : 0);
	}
	for (int p = 0; p < 2; p++) {
		struct rt_net_opts o;
		struct rt_net *n = NULL;
		struct rt_err err;

		rt_net_opts_default(&o, m);
		o.batch = B;
		o.plain = true;
		o.precision = rt_vocab_train_precisions[p];
		if (rt_net_create(&n, m, &o, &err)) {
			ok(0, "lenet5 %s: %s", rt_precision_name(o.precision), err.msg);
			goto out;
		}
		rt_net_memory(n, &mm[p]);
		rt_net_destroy(n);
	}
	is_int((long long)mm[1].activations, 2LL * B * t.kept_elems + 2LL * B * 2 * m->classes,
	       "bf16 activations: 2 bytes per kept element, fp32 logits and probabilities");
	is_int((long long)mm[1].weights, (long long)mm[0].weights + 2LL * wcopy,
	       "bf16 weights: fp32 master plus a 2-byte copy of %ld conv/fc weights", wcopy);
	ok(mm[1].weight_grads == mm[0].weight_grads && mm[1].optimizer == mm[0].optimizer,
	   "weight gradients and momentum stay fp32");
	ok(mm[1].activation_grads < mm[0].activation_grads * 0.51 + 4096,
	   "bf16 activation gradients about half: %llu vs %llu bytes",
	   (unsigned long long)mm[1].activation_grads, (unsigned long long)mm[0].activation_grads);
	is_int((long long)mm[1].total, (long long)mm[1].allocated,
	       "bf16: the categories add up to what was allocated");
	is_double(rt_net_estimate_bytes(m, B, RT_PRECISION_BF16),
		  14.0 * (double)t.params + B * (2.0 * ((double)t.kept_elems + (double)t.act_elems) +
						 6.0 * rt_shape_elems(m->input)), 1e-12,
		  "bf16 size estimate: 14 bytes per parameter, 2 per activation");
out:
	rt_model_destroy(m);
}

int main(void)
{
	char dir[] = "/tmp/rt-t-bf16-XXXXXX", path[64];
	struct rt_err err;
	char label[64];
	FILE *fp;

	setenv("ROOFTRAJ_MODELS", "", 1);
	omp_set_num_threads(2);
	if (rt_net_bf16_support(label, sizeof(label), &err)) {
		skip("%s", err.msg);
		return done_testing();
	}
	printf("# bf16 here: %s\n", label);
	if (!mkdtemp(dir))
		return 1;
	for (int k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "%s/%s.cfg", dir, k ? "one-channel" : "every-layer");
		fp = fopen(path, "w");
		fputs(k ? first_model : layers_model, fp);
		fclose(fp);
		test_layers(path);
		unlink(path);
	}
	rmdir(dir);
	test_counts();
	test_memory();
	test_training();
	return done_testing();
}
