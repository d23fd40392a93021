/* t-model.c: shipped models' shapes, parameter and FLOP counts against values computed by
 * hand here, and every bad model file rejected with its line number before allocation */
#include "config.h"
#include "cnn/model.h"
#include "tap.h"

#include <errno.h>
#include <unistd.h>

static char dir[128];

static const struct rt_layer_desc *layer(const struct rt_model *m, const char *name)
{
	for (size_t i = 0; i < m->nlayers; i++)
		if (!strcmp(m->layers[i].name, name))
			return &m->layers[i];
	return NULL;
}

static long total_params(const struct rt_model *m)
{
	struct rt_model_totals t;

	rt_model_totals(m, 1, &t);
	return t.params;
}

static void check_bad(const char *layers_text, int line, const char *what, int idx)
{
	char path[256], text[4096], want[300];
	struct rt_model *m = NULL;
	struct rt_err err;
	FILE *fp;

	/* line 1: model = {, 2: input, 3: classes, 4: layers = (, 5...: the layers */
	snprintf(text, sizeof(text), "model = {\n  input = [ 1, 8, 8 ];\n  classes = 4;\n"
		 "  layers = (\n%s\n  );\n};\n", layers_text);
	snprintf(path, sizeof(path), "%s/bad%d.cfg", dir, idx);
	fp = fopen(path, "w");
	fputs(text, fp);
	fclose(fp);
	ok(rt_model_load(&m, path, &err) != 0 && m == NULL, "bad model %d rejected", idx);
	snprintf(want, sizeof(want), "%s:%d: ", path, line);
	ok(!strncmp(err.msg, want, strlen(want)) && strstr(err.msg, what),
	   "bad model %d: line %d, '%s' (got: %s)", idx, line, what, err.msg);
}

int main(void)
{
	struct rt_model *m = NULL;
	struct rt_err err;

	setenv("ROOFTRAJ_MODELS", "", 1);
	snprintf(dir, sizeof(dir), "/tmp/rt-t-model-XXXXXX");
	if (!mkdtemp(dir))
		return 1;

	/* LeNet-5, by hand: conv1 6x(1x5x5) on 28x28 -> 24x24, pool -> 12x12, conv2 16x(6x5x5)
	 * -> 8x8, pool -> 4x4 (256), fc 120, fc 84, fc 10 */
	if (!ok(rt_model_open(&m, "lenet5", &err) == 0, "lenet5 loads"))
		printf("# %s\n", err.msg);
	if (m) {
		const struct rt_layer_desc *c1 = layer(m, "conv1"), *c2 = layer(m, "conv2");
		const struct rt_layer_desc *f1 = layer(m, "fc1"), *p2 = layer(m, "pool2");
		struct rt_model_totals t;

		is_int((long long)m->nlayers, 12, "lenet5: 12 layers");
		ok(c1 && c1->out.c == 6 && c1->out.h == 24 && c1->out.w == 24, "conv1 -> 6x24x24");
		ok(p2 && p2->out.c == 16 && p2->out.h == 4 && p2->out.w == 4, "pool2 -> 16x4x4");
		is_double(c1->n.fwd_flops, 2.0 * 6 * 1 * 5 * 5 * 24 * 24 + 6 * 24 * 24, 0,
			  "conv1 forward FLOPs 2*K*C*R*S*P*Q + bias");
		is_double(c1->n.bwd_data_flops, 0, 0, "conv1 (first layer) has no data gradient");
		is_double(c1->n.bwd_weights_flops, 2.0 * 6 * 25 * 576 + 6 * 576, 0,
			  "conv1 weight-gradient FLOPs");
		is_double(c2->n.fwd_flops, 2.0 * 16 * 6 * 25 * 64 + 16 * 64, 0, "conv2 forward");
		is_double(c2->n.bwd_data_flops, 2.0 * 16 * 6 * 25 * 64, 0, "conv2 data gradient");
		is_double(f1->n.fwd_flops, 2.0 * 256 * 120 + 120, 0, "fc1 forward 2*I*O + O");
		is_double(p2->n.fwd_flops, 3.0 * 256, 0, "pool2: 3 comparisons per output");
		is_int(c1->n.params, 6 * 25 + 6, "conv1 params");
		is_int(total_params(m), 156 + 2416 + 30840 + 10164 + 850, "lenet5: 44426 params");
		/* the layers where their primitives run: relu1's forward is conv1's epilogue, its
		 * backward pool1's; FLOPs move to the hosts, nothing is lost or counted twice */
		{
			struct rt_layer_work w[32];
			double t_fwd[32], t_bwd[32], sf = 0, sb = 0, sbytes = 0;
			struct rt_model_totals t8;
			size_t i1 = 0;

			for (size_t i = 0; i < m->nlayers; i++) {
				t_fwd[i] = 1e-3 * (double)(i + 1);
				t_bwd[i] = 2e-3 * (double)(i + 1);
				if (!strcmp(m->layers[i].name, "relu1"))
					i1 = i;
			}
			rt_model_layer_work(m, 8, t_fwd, t_bwd, w);
			rt_model_totals(m, 8, &t8);
			for (size_t i = 0; i < m->nlayers; i++) {
				sf += w[i].fwd_flops;
				sb += w[i].bwd_flops;
				sbytes += w[i].fwd_bytes + w[i].bwd_bytes;
			}
			is_str(w[i1 - 1].name, "conv1+relu1", "conv1 runs relu1's forward: named after both");
			is_str(w[i1 + 1].name, "pool1+relu1", "pool1 runs its backward: named after both");
			ok(w[i1].fused && !strcmp(w[i1].where, "forward in conv1+relu1, backward in "
						  "pool1+relu1"), "relu1 is fused: %s", w[i1].where);
			is_double(w[i1].fwd_flops + w[i1].bwd_flops + w[i1].fwd_seconds +
				  w[i1].bwd_seconds, 0, 0, "relu1: no FLOPs and no time of its own");
			is_double(w[i1 - 1].fwd_flops, 8.0 * (176256 + 3456), 0,
				  "conv1+relu1 forward: conv1's and relu1's FLOPs");
			is_double(w[i1 - 1].fwd_seconds, t_fwd[i1 - 1] + t_fwd[i1], 1e-15,
				  "... and both times");
			is_double(sf, t8.fwd_flops, 1e-15, "the layers' forward FLOPs add up to the "
				  "iteration's");
			is_double(sb, t8.bwd_flops, 1e-15, "the layers' backward FLOPs too");
			is_double(sbytes, t8.fwd_bytes + t8.bwd_bytes, 1e-15, "and their bytes");
			ok(!w[i1 + 5].fused && !strcmp(w[i1 + 5].name, "fc1"), "fc1 stays itself");
		}
		rt_model_totals(m, 1, &t);
		is_double(t.fwd_flops, 176256 + 3456 + 2592 + 308224 + 1024 + 768 + 61560 + 120 +
			  20244 + 84 + 1690 + 51, 0, "lenet5 forward FLOPs per image: 576069");
		/* relu1 and relu2 feed only a max pool: their backward runs on the pooled
		 * outputs (864 and 256 selects) inside pool1 and pool2, not on their own 3456
		 * and 1024 elements */
		is_double(t.bwd_flops, 176256 + 864 + 864 + 307200 + 308224 + 256 + 256 + 61440 +
			  61560 + 120 + 20160 + 20244 + 84 + 1680 + 1690 + 20, 0,
			  "lenet5 backward FLOPs per image (relu backward folded into the pools)");
		{
			const struct rt_layer_desc *r1 = layer(m, "relu1"), *p1 = layer(m, "pool1");
			const struct rt_layer_desc *r3 = layer(m, "relu3");

			ok(r1 && r1->bwd_folded && p1->folds_relu && r3 && !r3->bwd_folded,
			   "relu1's backward is pool1's; relu3 (before fc2) keeps its own");
			is_double(r1->n.bwd_data_flops + r1->n.bwd_data_bytes, 0, 0,
				  "relu1: no backward FLOPs or bytes of its own");
			is_double(p1->n.bwd_data_flops, 864 + 864, 0,
				  "pool1 backward: 864 routed gradients and 864 relu selects");
			is_double(p1->n.bwd_data_bytes, 4.0 * (864 + 3456) + 4.0 * 3 * 864, 0,
				  "pool1 backward bytes: dy and dx, then the select's output, "
				  "gradient and result");
		}
		is_double(t.update_flops, 6.0 * 44426, 0, "SGD: 6 FLOPs per parameter");
		{
			struct rt_model_totals t64;

			rt_model_totals(m, 64, &t64);
			is_double(t64.fwd_flops, 64 * t.fwd_flops, 1e-15, "FLOPs scale with batch");
			/* activations scale with the batch, weights are read once per batch */
			is_double(t64.fwd_bytes - 64 * t.fwd_bytes, -63.0 * 4 * 44426, 1e-12,
				  "weights read once per batch");
		}
		is_double(c1->n.fwd_bytes, 4.0 * (28 * 28 + 6 * 24 * 24), 0,
			  "conv1 compulsory activation bytes: input and output once");
		is_double(c1->n.fwd_wbytes, 4.0 * 156, 0, "conv1 weight bytes");
	}
	rt_model_destroy(m);
	m = NULL;

	/* convnet, by hand */
	if (!ok(rt_model_open(&m, "convnet", &err) == 0, "convnet loads"))
		printf("# %s\n", err.msg);
	if (m) {
		const struct rt_layer_desc *c2 = layer(m, "conv2"), *f1 = layer(m, "fc1");

		/* 3x3, pad 1 on 16x16: along each dimension the 14 inner outputs see 3 taps and
		 * the 2 border ones 2 (the third falls on the padding): 46 of 48 */
		is_double(c2->n.fwd_flops, 2.0 * 128 * 64 * 46 * 46 + 128 * 256, 0,
			  "convnet conv2 forward FLOPs: no multiply-adds on the padding");
		is_double(c2->n.bwd_data_flops, 2.0 * 128 * 64 * 46 * 46, 0,
			  "convnet conv2 data gradient: the same triples");
		ok(f1 && f1->in.c == 256 && f1->in.h == 4 && f1->in.w == 4, "fc1 input 256x4x4");
		is_int(total_params(m), 1792 + 73856 + 295168 + 1048832 + 2570,
		       "convnet: 1422218 params");
		is_int(m->batch, 64, "default batch 64");
	}
	rt_model_destroy(m);
	m = NULL;

	/* torchvision's published parameter counts */
	{
		static const struct { const char *name; long params; long out_c, out_h; } tv[] = {
			{ "alexnet", 61100840, 256, 6 },
			{ "vgg16", 138357544, 512, 7 },
			{ "resnet18", 11689512, 512, 1 },
		};

		for (size_t i = 0; i < 3; i++) {
			if (!ok(rt_model_open(&m, tv[i].name, &err) == 0, "%s loads", tv[i].name)) {
				printf("# %s\n", err.msg);
				continue;
			}
			is_int(total_params(m), tv[i].params, "%s: %ld parameters as torchvision",
			       tv[i].name, tv[i].params);
			is_int(m->classes, 1000, "%s: 1000 classes", tv[i].name);
			{
				/* the last feature map before the classifier */
				const struct rt_layer_desc *fc = NULL;

				for (size_t k = 0; k < m->nlayers; k++)
					if (m->layers[k].type == RT_LAYER_FC) {
						fc = &m->layers[k];
						break;
					}
				ok(fc && fc->in.c == tv[i].out_c && fc->in.h == tv[i].out_h,
				   "%s: features end at %ldx%ldx%ld", tv[i].name, tv[i].out_c,
				   tv[i].out_h, tv[i].out_h);
			}
			rt_model_destroy(m);
			m = NULL;
		}
	}
	ok(rt_model_open(&m, "lenet7", &err) == -ENOENT && strstr(err.msg, "no model 'lenet7'"),
	   "unknown model name: %s", err.msg);

	/* bad models: each with the line that must be named */
	check_bad("    { type = \"conv\"; filters = 4; kernel = 3; },\n"
		  "    { type = \"swish\"; },\n"
		  "    { type = \"softmax_xent\"; }", 6, "unknown layer type 'swish'", 1);
	check_bad("    { type = \"conv\"; filters = 4; kernel = 9; },\n"
		  "    { type = \"softmax_xent\"; }", 5, "kernel 9 is larger than its 1x8x8 input", 2);
	check_bad("    { type = \"conv\"; filters = 0; kernel = 3; },\n"
		  "    { type = \"softmax_xent\"; }", 5, "'filters' = 0 is not in 1..", 3);
	check_bad("    { type = \"conv\"; name = \"a\"; filters = 4; kernel = 3; pad = 1; },\n"
		  "    { type = \"conv\"; filters = 8; kernel = 3; pad = 1; },\n"
		  "    { type = \"add\"; from = \"a\"; },\n"
		  "    { type = \"fc\"; outputs = 4; },\n"
		  "    { type = \"softmax_xent\"; }", 7, "cannot add shapes 8x8x8 and 4x8x8", 4);
	check_bad("    { type = \"conv\"; filters = 4; kernel = 3; pad = 1; },\n"
		  "    { type = \"add\"; from = \"later\"; },\n"
		  "    { type = \"relu\"; name = \"later\"; },\n"
		  "    { type = \"softmax_xent\"; }", 6,
		  "'from' names 'later', which is not an earlier layer", 5);
	check_bad("    { type = \"fc\"; outputs = 5; },\n"
		  "    { type = \"softmax_xent\"; }", 6, "softmax_xent needs 4 inputs", 6);
	check_bad("    { type = \"fc\"; outputs = 4; }", 5, "the last layer must be softmax_xent", 7);
	check_bad("    { type = \"maxpool\"; kernel = 2; pad = 2; },\n"
		  "    { type = \"softmax_xent\"; }", 5, "padding 2 must be smaller than the kernel 2",
		  8);
	check_bad("    { type = \"conv\"; filters = 6; kernel = 3; groups = 4; },\n"
		  "    { type = \"softmax_xent\"; }", 5, "4 groups do not divide", 9);
	check_bad("    { type = \"relu\"; name = \"x\"; },\n"
		  "    { type = \"relu\"; name = \"x\"; },\n"
		  "    { type = \"softmax_xent\"; }", 6, "name 'x' is already used by layer 1", 10);
	check_bad("    { type = \"dropout\"; rate = 1.5; },\n"
		  "    { type = \"softmax_xent\"; }", 5, "'rate' = 1.5 is not in [0, 1)", 11);
	check_bad("    { filters = 4; },\n"
		  "    { type = \"softmax_xent\"; }", 5, "missing 'type'", 12);
	check_bad("    { type = \"conv\" filters = 4 kernel = = 3; },\n"
		  "    { type = \"softmax_xent\"; }", 5, "syntax error", 13);
	check_bad("    { type = \"fc\"; outputs = 1000000; },\n"
		  "    { type = \"fc\"; outputs = 1000000; },\n"
		  "    { type = \"softmax_xent\"; }", 6, "weights (4e+12 bytes) are too many", 14);
	check_bad("    { type = \"fc\"; outputs = 4; input = \"nowhere\"; },\n"
		  "    { type = \"softmax_xent\"; }", 5, "'input' names 'nowhere'", 15);
	check_bad("    { type = \"fc\"; outputs = 4; },\n"
		  "    { type = \"softmax_xent\"; },\n"
		  "    { type = \"relu\"; }", 7, "nothing can follow softmax_xent", 16);
	/* millions of layers are refused by count (here 5000, past the 4096 allowed) */
	{
		size_t cap = 5000 * 32 + 256, len = 0;
		char *text = malloc(cap), path[256];
		FILE *fp;

		len += (size_t)snprintf(text + len, cap - len, "model = {\n  input = [ 1, 8, 8 ];\n"
					"  classes = 64;\n  layers = (\n");
		for (int i = 0; i < 5000; i++)
			len += (size_t)snprintf(text + len, cap - len, "    { type = \"relu\"; },\n");
		snprintf(text + len, cap - len, "    { type = \"softmax_xent\"; }\n  );\n};\n");
		snprintf(path, sizeof(path), "%s/many.cfg", dir);
		fp = fopen(path, "w");
		fputs(text, fp);
		fclose(fp);
		free(text);
		ok(rt_model_load(&m, path, &err) == -EINVAL && strstr(err.msg, ":4: model: 5001 layers "
		   "(1..4096 allowed)"), "too many layers: %s", err.msg);
	}
	{
		char cmd[200];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			printf("# cleanup failed\n");
	}
	return done_testing();
}
