/* t-onednn-log.c: oneDNN's verbose lines, 2.x (as Debian's oneDNN 2.6 prints them: copied from
 * a run of roofline-train) and 3.x (written from oneDNN's documented format: "v1", the event
 * class "primitive", timestamps, "src:f32::blocked:acdb::f0" descriptors; and oneDNN 3.10.2's
 * own logs of a PyTorch 2.11 training, tests/data/pytorch-2.11, and of live PyTorch 2.15 and
 * TensorFlow 2.21 trainings, tests/data/frameworks), counted exactly by hand from
 * the layers' shapes; the precision of each point's math; lines that are not oneDNN's pass;
 * malformed ones are named, never counted. */
#include "config.h"
#include "counters/onednn-log.h"
#include "cnn/model.h"
#include "run/cmd-results.h"
#include "tap.h"
#include "pt211.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the precisions the tests below name, short enough for their lines */
#define FP32 RT_PRECISION_FP32
#define BF16 RT_PRECISION_BF16
#define FP16 RT_PRECISION_FP16

static enum rt_onednn_line rd(struct rt_onednn_reader *r, const char *line,
			      struct rt_onednn_exec *e)
{
	return rt_onednn_read(r, line, strlen(line), e);
}

/* A reader as new: the headers forgotten, its text freed. */
static void fresh(struct rt_onednn_reader *r)
{
	rt_onednn_reader_fini(r);
	rt_onednn_reader_init(r);
}

/* what n times, joined by sep, appended to b: memory descriptors (2.x's
 * "src_f32::blocked:abcd:f0", 3.x's "src:f32::blocked:abcd::f0"), dimensions. */
static void repeat(struct rt_buf *b, const char *what, const char *sep, int n)
{
	for (int i = 0; i < n; i++)
		rt_buf_printf(b, "%s%s", i ? sep : "", what);
}

/* A 3.x concat of n f32 inputs of dimensions dims, and one of last where not NULL, as b. */
static const char *concat_3x(struct rt_buf *b, int n, const char *dims, const char *last)
{
	rt_buf_reset(b);
	rt_buf_puts(b, "onednn_verbose,v1,primitive,exec,cpu,concat,simple:any,undef,");
	repeat(b, "src:f32::blocked:abcd::f0", " ", n + (last != NULL));
	rt_buf_puts(b, " dst:f32::blocked:abcd::f0,,axis:1,");
	repeat(b, dims, ":", n);
	if (last)
		rt_buf_printf(b, ":%s", last);
	rt_buf_puts(b, ",0.5");
	return b->s;
}

/* The FLOPs of the tally's counted primitives of kind (and direction, NULL: any) whose math
 * ran in precision prec (RT_PRECISION_COUNT: any) */
static double flops_of(const struct rt_onednn_tally *t, const char *kind, const char *prop,
		       enum rt_precision prec)
{
	double f = 0;

	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].kind, kind) && (!prop || !strcmp(t->v[i].prop, prop)) &&
		    (prec == RT_PRECISION_COUNT || t->v[i].prec == prec))
			f += t->v[i].flops;
	return f;
}

/* train-tiny.py's layers, batch 16, two steps, counted by hand (taps on the padding are not
 * work; a bias is 1 FLOP an output):
 *   conv1 3->16 5x5 pad 2 on 32x32: taps per dimension 32 * 5 - (2 + 1) * 2 = 154;
 *     16 * 16 * 3 * 154^2 MACs x2, + 16 * 16 * 32 * 32 bias
 *   conv2 16->32 3x3 pad 1, 2 groups, on 16x16: taps 16 * 3 - 2 = 46; 16 * 32 * 8 * 46^2 MACs
 *   conv3 32->32 1x1 stride 2, 16x16 -> 8x8: 16 * 32 * 32 * 64 MACs
 * forward and backward weights have the bias, backward data does not; conv1 has no backward
 * data (its input needs no gradient). */
#define MAC1 (16.0 * 16 * 3 * 154 * 154)
#define MAC2 (16.0 * 32 * 8 * 46 * 46)
#define MAC3 (16.0 * 32 * 32 * 64)
#define OUT1 (16.0 * 16 * 32 * 32)
#define OUT2 (16.0 * 32 * 16 * 16)
#define OUT3 (16.0 * 32 * 8 * 8)
#define FWD (2 * (2 * MAC1 + OUT1 + 2 * MAC2 + OUT2 + 2 * MAC3 + OUT3))
#define BWD_D (2 * (2 * MAC2 + 2 * MAC3))
/* the linear layer 2048 -> 10 (a oneDNN matmul under autocast only): forward 16x2048 by
 * 2048x10 with the bias added by a sum post-op (1 an output), the input's gradient 16x10 by
 * 10x2048, the weights' 10x16 by 16x2048 */
#define MM (2 * (2.0 * 16 * 10 * 2048 + 16 * 10 + 2.0 * 16 * 2048 * 10 + 2.0 * 10 * 2048 * 16))

/* tests/data/pytorch-cnn.py's and tf-cnn.py's network (the same layers: NCHW in PyTorch, NHWC
 * in TensorFlow), batch 16, counted by hand:
 *   conv1 3->16 3x3 pad 1 on 32x32: taps per dimension 32 * 3 - 2 = 94; 16 * 16 * 3 * 94^2 MACs
 *   conv2 16->32 3x3 pad 1 on 16x16 (after a 2x2 max pool): taps 16 * 3 - 2 = 46
 *   the pools 2x2 stride 2: 16 * 16 * 16^2 and 16 * 32 * 8^2 outputs, a forward max 3 FLOPs
 *     an output (its 4 taps compared), the backward 1 (its gradient placed)
 *   dense 2048 -> 10: forward 2 * 16 * 2048 * 10 + a bias an output; its gradients two GEMMs,
 *     the weights' 2048x16 by 16x10 and the input's 16x10 by 10x2048 */
#define CNN_MAC1 (16.0 * 16 * 3 * 94 * 94)
#define CNN_MAC2 (16.0 * 32 * 16 * 46 * 46)
#define CNN_OUT1 (16.0 * 16 * 32 * 32)
#define CNN_OUT2 (16.0 * 32 * 16 * 16)
#define CNN_POOL (16.0 * 16 * 16 * 16 + 16.0 * 32 * 8 * 8)
#define CNN_CONV (2 * CNN_MAC1 + CNN_OUT1 + 2 * CNN_MAC2 + CNN_OUT2)  /* with the bias */
#define CNN_DENSE (2.0 * 16 * 2048 * 10 + 16 * 10)
#define CNN_GEMMS (2.0 * 2048 * 16 * 10 + 2.0 * 16 * 10 * 2048)

/* tests/data/REL read into t (initialised here) as roofline-run reads a command's output;
 * false when the file is not there */
static bool log_tally(struct rt_onednn_tally *t, const char *rel)
{
	const char *top = getenv("top_srcdir");
	char path[4096], line[8192];
	struct rt_onednn_reader r;
	struct rt_onednn_exec e;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/tests/data/%s", top ? top : ".", rel);
	rt_onednn_tally_init(t);
	if (!(fp = fopen(path, "r")))
		return false;
	rt_onednn_reader_init(&r);
	while (fgets(line, sizeof(line), fp))
		rt_onednn_tally_line(t, rt_onednn_read(&r, line, strlen(line), &e), &e, line,
				     strlen(line));
	fclose(fp);
	rt_onednn_reader_fini(&r);
	return true;
}

int main(void)
{
	struct rt_onednn_reader r;
	struct rt_onednn_exec e;

	rt_onednn_reader_init(&r);
	ok(rd(&r, "Epoch 1: loss 2.30\n", &e) == RT_ONEDNN_OTHER, "the program's own line passes");
	ok(rd(&r, "onednn_verbos,exec", &e) == RT_ONEDNN_OTHER, "a near miss is not oneDNN's");
	ok(rd(&r, "onednn_verbose,info,oneDNN v2.6.3 (commit N/A)", &e) == RT_ONEDNN_INFO,
	   "the version line: information");
	ok(rd(&r, "onednn_verbose,info,prim_template:operation,engine,primitive,implementation,"
	      "prop_kind,memory_descriptors,attributes,auxiliary,problem_desc,exec_time", &e) ==
	   RT_ONEDNN_INFO, "2.x's header");

	/* conv1 of convnet at batch 8, relu fused: 3x3 pad 1 on 32x32: per dimension the taps
	 * on the input are 32 * 3 - 2 = 94; 8 * 64 * 3 * 94 * 94 = 13571712 MACs, x2, + the bias
	 * and the relu, 1 each per output (8 * 64 * 32 * 32 = 524288): 28192768, which is
	 * roofline-train -D's 3458560 + 65536 per image, x8 */
	ok(rd(&r, "onednn_verbose,exec,cpu,convolution,jit:avx512_core,forward_training,"
	      "src_f32::blocked:abcd:f0 wei_f32::blocked:Acdb16a:f0 bia_f32::blocked:a:f0 "
	      "dst_f32::blocked:aBcd16b:f0,attr-scratchpad:user attr-post-ops:eltwise_relu "
	      ",alg:convolution_direct,mb8_ic3oc64_ih32oh32kh3sh1dh0ph1_iw32ow32kw3sw1dw0pw1,"
	      "0.249023\n", &e) == RT_ONEDNN_EXEC, "a 2.x convolution reads");
	is_double(e.flops, 28192768, 0, "... its FLOPs exactly (taps on the padding excluded)");
	/* src 8*3*32*32 + wei 64*3*9 + bias 64 + dst 524288, 4 bytes each */
	is_double(e.bytes, 4.0 * (24576 + 1728 + 64 + 524288), 0, "... its bytes");
	is_double(e.ms, 0.249023, 1e-12, "... its time");
	ok(!strcmp(e.kind, "convolution") && !strcmp(e.prop, "forward_training") &&
	   !strcmp(e.dtype, "f32") && e.prec == FP32 && !strcmp(e.impl, "jit:avx512_core") &&
	   e.counted, "... kind, direction, type, implementation");
	/* backward data of conv3: 8 * 128 * 256 * (8*3-2)^2 MACs x2, no bias */
	ok(rd(&r, "onednn_verbose,exec,cpu,convolution,jit:avx512_core,backward_data,"
	      "src_f32::blocked:aBcd16b:f0 wei_f32::blocked:ABcd16a16b:f0 bia_undef::undef::f0 "
	      "dst_f32::blocked:aBcd16b:f0,attr-scratchpad:user ,alg:convolution_direct,"
	      "mb8_ic128oc256_ih8oh8kh3sh1dh0ph1_iw8ow8kw3sw1dw0pw1,2.5769", &e) == RT_ONEDNN_EXEC &&
	   e.flops == 2.0 * 8 * 128 * 256 * 22 * 22, "backward data: 2 per MAC, no bias: %.0f",
	   e.flops);
	ok(rd(&r, "onednn_verbose,exec,cpu,convolution,jit:avx512_core,backward_weights,"
	      "src_f32::blocked:aBcd16b:f0 wei_f32::blocked:ABcd16b16a:f0 bia_f32::blocked:a:f0 "
	      "dst_f32::blocked:aBcd16b:f0,attr-scratchpad:user ,alg:convolution_direct,"
	      "mb8_ic128oc256_ih8oh8kh3sh1dh0ph1_iw8ow8kw3sw1dw0pw1,10.9558", &e) ==
	   RT_ONEDNN_EXEC && e.flops == 2.0 * 8 * 128 * 256 * 22 * 22 + 8 * 256 * 64,
	   "backward weights: 2 per MAC and the bias gradient: %.0f", e.flops);
	/* groups and dilation: 2 groups of 4 -> 2 channels, 3x3 dilated by 1 (a 5x5 extent),
	 * pad 2 on 5x5: taps per dimension 2 + 2 + 3 + 2 + 2 = 11; 2 * 4 * 4 * 121 MACs */
	ok(rd(&r, "onednn_verbose,exec,cpu,convolution,gemm:jit,forward_inference,"
	      "src_f32::blocked:abcd:f0 wei_f32::blocked:abcde:f0 bia_undef::undef::f0 "
	      "dst_f32::blocked:abcd:f0,,alg:convolution_direct,"
	      "g2mb2_ic8oc4_ih5oh5kh3sh1dh1ph2_iw5ow5kw3sw1dw1pw2,0.01", &e) == RT_ONEDNN_EXEC &&
	   e.flops == 2.0 * 2 * 4 * 4 * 121, "groups and dilation: %.0f", e.flops);
	/* fc1 of convnet: 2 * 8 * 256 * 4096 + the bias 8 * 256 */
	ok(rd(&r, "onednn_verbose,exec,cpu,inner_product,brgemm:avx512_core,forward_training,"
	      "src_f32::blocked:ab:f0 wei_f32::blocked:AB16b64a:f0 bia_f32::blocked:a:f0 "
	      "dst_f32::blocked:ab:f0,attr-scratchpad:user ,,mb8ic4096oc256,0.485", &e) ==
	   RT_ONEDNN_EXEC && e.flops == 2.0 * 8 * 256 * 4096 + 8 * 256,
	   "an inner product: %.0f", e.flops);
	/* ... and the trainer's model counts the same: convnet's convolutions and fully connected
	 * layers, each direction (conv1 has no data gradient), as oneDNN 2.x prints them for a
	 * batch of 8, against the model's counts of an image */
	{
		static const char *const prop[] = { "forward_training", "backward_data",
						    "backward_weights" };
		struct rt_model *m = NULL;
		struct rt_err err;
		int lines = 0, agree = 0;

		if (rt_model_open(&m, "convnet", &err))
			printf("# %s\n", err.msg);
		for (size_t i = 0; m && i < m->nlayers; i++) {
			const struct rt_layer_desc *L = &m->layers[i];
			const double want[] = { L->n.fwd_flops, L->n.bwd_data_flops,
						L->n.bwd_weights_flops };
			char line[512], desc[200];

			if (L->type == RT_LAYER_CONV)
				snprintf(desc, sizeof(desc), "mb8_ic%ldoc%ld_ih%ldoh%ldkh%ldsh%ld"
					 "dh0ph%ld_iw%ldow%ldkw%ldsw%lddw0pw%ld", L->in.c, L->filters,
					 L->in.h, L->out.h, L->kernel, L->stride, L->pad, L->in.w,
					 L->out.w, L->kernel, L->stride, L->pad);
			else if (L->type == RT_LAYER_FC)
				snprintf(desc, sizeof(desc), "mb8ic%ldih%ldiw%ldoc%ld", L->in.c,
					 L->in.h, L->in.w, L->outputs);
			else
				continue;
			for (int d = 0; d < 3; d++) {
				if (!want[d])
					continue;
				snprintf(line, sizeof(line), "onednn_verbose,exec,cpu,%s,"
					 "jit:avx512_core,%s,src_f32::blocked:abcd:f0 "
					 "wei_f32::blocked:abcd:f0 bia_f32::blocked:a:f0 "
					 "dst_f32::blocked:abcd:f0,,,%s,0.1",
					 L->type == RT_LAYER_CONV ? "convolution" : "inner_product",
					 prop[d], desc);
				lines++;
				agree += rd(&r, line, &e) == RT_ONEDNN_EXEC && e.flops == 8 * want[d];
			}
		}
		ok(lines == 14 && agree == lines, "convnet's convolutions and fully connected "
		   "layers: the log's count is the model's, to the FLOP (%d of %d)", agree, lines);
		rt_model_destroy(m);
	}
	/* max pooling 2x2 stride 2, 8x64x32x32 -> 16x16: 3 comparisons per output forward */
	ok(rd(&r, "onednn_verbose,exec,cpu,pooling_v2,jit:avx512_core,forward_training,"
	      "src_f32::blocked:aBcd16b:f0 dst_f32::blocked:aBcd16b:f0 ws_u8::blocked:aBcd16b:f0,"
	      "attr-scratchpad:user ,alg:pooling_max,"
	      "mb8ic64_ih32oh16kh2sh2dh0ph0_iw32ow16kw2sw2dw0pw0,4.54395", &e) == RT_ONEDNN_EXEC &&
	   !strcmp(e.kind, "pooling") && e.flops == 3.0 * 8 * 64 * 256 &&
	   e.bytes == 4.0 * 8 * 64 * 1024 + 4.0 * 8 * 64 * 256 + 1.0 * 8 * 64 * 256,
	   "pooling_v2 is pooling: FLOPs %.0f, bytes with the workspace %.0f", e.flops, e.bytes);
	/* a reorder: bytes only (read f32, write f32) */
	ok(rd(&r, "onednn_verbose,exec,cpu,reorder,jit:uni,undef,src_f32::blocked:abcd:f0 "
	      "dst_f32::blocked:Acdb16a:f0,,,64x3x3x3,0.0710449", &e) == RT_ONEDNN_EXEC &&
	   e.flops == 0 && e.bytes == 8.0 * 1728 && e.counted, "a reorder: %.0f bytes, no FLOPs",
	   e.bytes);
	ok(rd(&r, "onednn_verbose,exec,cpu,eltwise,jit:avx512_core,backward_data,"
	      "data_f32::blocked:aBcd16b:f0 diff_f32::blocked:aBcd16b:f0,attr-scratchpad:user ,"
	      "alg:eltwise_relu_use_dst_for_bwd alpha:0 beta:0,8x128x8x8,0.2", &e) ==
	   RT_ONEDNN_EXEC && e.flops == 65536 && e.bytes == 3.0 * 4 * 65536,
	   "eltwise backward: 1 per element, 3 tensors");
	ok(rd(&r, "onednn_verbose,exec,cpu,binary,jit:uni,undef,src_f32::blocked:a:f0 "
	      "src_f32::blocked:a:f0 dst_f32::blocked:a:f0,attr-scales:src1:0:-0.010000 ,"
	      "alg:binary_add,1423760:1423760,0.9", &e) == RT_ONEDNN_EXEC && e.flops == 1423760 &&
	   e.bytes == 12.0 * 1423760, "binary: 1 per element, two sources and a destination");
	ok(rd(&r, "onednn_verbose,exec,cpu,softmax_v2,jit:avx512_core,forward_training,"
	      "src_f32::blocked:ab:f0 dst_f32::blocked:ab:f0,attr-scratchpad:user ,"
	      "alg:softmax_accurate axis:1,8x10,0.006", &e) == RT_ONEDNN_EXEC &&
	   !strcmp(e.kind, "softmax") && e.flops == 400, "softmax: 5 per element");
	ok(rd(&r, "onednn_verbose,exec,cpu,lrn,ref:any,forward_training,src_f32::blocked:abcd:f0 "
	      "dst_f32::blocked:abcd:f0,,alg:lrn_across_channels,mb2ic16ih5iw5ls5beta0.75,0.5",
	      &e) == RT_ONEDNN_EXEC && !e.counted && e.flops == 0 && e.ms == 0.5,
	   "a kind not counted: its time, no FLOPs");
	/* bf16 */
	ok(rd(&r, "onednn_verbose,exec,cpu,convolution,brg:avx512_core_bf16,forward_training,"
	      "src_bf16::blocked:acdb:f0 wei_bf16::blocked:AcdB16b16a2b:f0 bia_f32::blocked:a:f0 "
	      "dst_bf16::blocked:acdb:f0,,alg:convolution_direct,"
	      "mb1_ic16oc16_ih4oh4kh1sh1dh0ph0_iw4ow4kw1sw1dw0pw0,0.01", &e) == RT_ONEDNN_EXEC &&
	   e.prec == BF16 && !strcmp(e.dtype, "bf16") && e.flops == 2.0 * 16 * 16 * 16 + 256 &&
	   e.bytes == 2.0 * 256 + 2.0 * 256 + 4.0 * 16 + 2.0 * 256,
	   "bf16: its precision, 2-byte tensors, an fp32 bias: %.0f bytes", e.bytes);

	/* malformed: named, never counted */
	ok(rd(&r, "onednn_verbose,exec,cpu,convolution,jit,forward,src_f32::a:f0,,,mb8_icXoc,1",
	      &e) == RT_ONEDNN_UNPARSED && strstr(e.why, "descriptor"), "a bad descriptor: %s",
	   e.why);
	ok(rd(&r, "onednn_verbose,exec,cpu,reorder,jit:uni,undef,src_f32::a:f0,,,64,fast", &e) ==
	   RT_ONEDNN_UNPARSED && strstr(e.why, "milliseconds"), "a bad time: %s", e.why);
	ok(rd(&r, "onednn_verbose,exec,cpu,reorder,jit:uni,undef,src_f32::a:f0,,64,1", &e) ==
	   RT_ONEDNN_UNPARSED && strstr(e.why, "fields"), "a field missing: %s", e.why);
	/* times no clock reads, and tensors no process holds: not read, so that no record keeps
	 * a rate of them */
	ok(rd(&r, "onednn_verbose,exec,cpu,convolution,jit:avx512_core,forward_training,"
	      "src_f32::blocked:abcd:f0 wei_f32::blocked:Acdb16a:f0 dst_f32::blocked:aBcd16b:f0,,"
	      "alg:convolution_direct,mb8_ic3oc16_ih32oh32kh5sh1dh0ph2_iw32ow32kw5sw1dw0pw2,1e-300",
	      &e) == RT_ONEDNN_UNPARSED && strstr(e.why, "under a nanosecond"),
	   "1e-300 ms: no clock's reading: %s", e.why);
	ok(rd(&r, "onednn_verbose,exec,cpu,reorder,jit:uni,undef,src_f32::a:f0,,,64,0.000001", &e) ==
	   RT_ONEDNN_EXEC && e.ms == 1e-6, "a nanosecond: read");
	ok(rd(&r, "onednn_verbose,exec,cpu,reorder,jit:uni,undef,src_f32::a:f0,,,64,0", &e) ==
	   RT_ONEDNN_EXEC && e.ms == 0, "0 ms (under the log's grain): read");
	ok(rd(&r, "onednn_verbose,exec,cpu,convolution,jit:avx512_core,forward_training,"
	      "src_f32::blocked:abcd:f0 wei_f32::blocked:Acdb16a:f0 dst_f32::blocked:aBcd16b:f0,,"
	      "alg:convolution_direct,mb1024_ic1048576oc16_ih16384oh16384kh1sh1dh0ph0_"
	      "iw16384ow16384kw1sw1dw0pw0,1", &e) == RT_ONEDNN_UNPARSED &&
	   strstr(e.why, "more than a process can address"),
	   "a convolution of dimensions each in range, its source 4 EiB: not read: %s", e.why);
	ok(rd(&r, "onednn_verbose,exec,cpu,reorder,jit:uni,undef,src_f32::a:f0,,,-5,1", &e) ==
	   RT_ONEDNN_UNPARSED, "negative dimensions");
	ok(rd(&r, "onednn_verbose,exec,cpu,convolution,jit,forward,src_f32::a:f0,,,"
	      "g3mb1_ic4oc4_ih4oh4kh1sh1dh0ph0_iw4ow4kw1sw1dw0pw0,1", &e) == RT_ONEDNN_UNPARSED &&
	   strstr(e.why, "groups"), "groups that do not divide: %s", e.why);
	/* found by fuzzing: a stride 0 divided by zero; sizes no problem has would loop for hours */
	ok(rd(&r, "onednn_verbose,exec,cpu,convolution,jit,forward,src_f32::a:f0,,,"
	      "mb1_ic4oc4_ih4kh1sh0dh0ph0_iw4ow4kw1sw1dw0pw0,1", &e) == RT_ONEDNN_UNPARSED &&
	   strstr(e.why, "out of range"), "a stride 0: %s", e.why);
	ok(rd(&r, "onednn_verbose,exec,cpu,convolution,jit,forward,src_f32::a:f0,,,"
	      "mb1_ic4oc4_ih9999999oh9999999kh999sh1dh0ph0_iw4ow4kw1sw1dw0pw0,1", &e) ==
	   RT_ONEDNN_UNPARSED && strstr(e.why, "out of range"), "sizes out of range: %s", e.why);
	ok(rd(&r, "onednn_verbose,create:cache_miss,cpu,convolution,jit,forward,x,,,mb1,0.1", &e) ==
	   RT_ONEDNN_INFO, "a creation is not an execution");
	ok(rd(&r, "onednn_verbose,1700000000123.25,exec,cpu,reorder,jit:uni,undef,"
	      "src_f32::blocked:aBcd8b:f0 dst_f32::blocked:abcd:f0,attr-scratchpad:user ,,"
	      "16x16x16x16,0.013", &e) == RT_ONEDNN_EXEC && !strcmp(e.from, "aBcd8b") &&
	   !strcmp(e.to, "abcd") && e.stamp_ms == 1700000000123.25,
	   "a 2.x reorder with ONEDNN_VERBOSE_TIMESTAMP=1: its layouts (%s -> %s) and start",
	   e.from, e.to);
	ok(rd(&r, "onednn_verbose,exec,cpu,reorder,jit:uni,undef,src_f32::blocked:ab:f0 "
	      "dst_f32::blocked:ba:f0,,,10x10,0.5", &e) == RT_ONEDNN_EXEC && e.stamp_ms == 0 &&
	   !strcmp(e.from, "ab") && !strcmp(e.to, "ba"), "... without a timestamp: none (0)");

	/* oneDNN 3.x (3.5 on): "v1", a timestamp, the event class, arg:type descriptors */
	fresh(&r);
	ok(rd(&r, "onednn_verbose,v1,info,prim_template:timestamp,operation,engine,primitive,"
	      "implementation,prop_kind,memory_descriptors,attributes,auxiliary,problem_desc,"
	      "exec_time", &e) == RT_ONEDNN_INFO, "3.x's header with timestamps");
	/* ResNet's first layer, 7x7 stride 2 pad 3 on 224: taps per dimension 4 + 6 + 109 * 7
	 * + 5 = 778; 64 * 3 * 778^2 MACs x2 + the bias per output (64 * 112 * 112) */
	ok(rd(&r, "onednn_verbose,v1,1693533460193.346924,primitive,exec,cpu,convolution,"
	      "brg:avx512_core,forward_training,src:f32::blocked:acdb::f0 "
	      "wei:f32::blocked:Acdb16a::f0 bia:f32::blocked:a::f0 dst:f32::blocked:acdb::f0,"
	      "attr-scratchpad:user,alg:convolution_direct,"
	      "mb1_ic3oc64_ih224oh112kh7sh2dh0ph3_iw224ow112kw7sw2dw0pw3,3.92", &e) ==
	   RT_ONEDNN_EXEC, "a 3.x convolution reads");
	is_double(e.flops, 2.0 * 64 * 3 * 778 * 778 + 64 * 112 * 112, 0, "... exactly");
	is_double(e.bytes, 4.0 * (3 * 224 * 224 + 64 * 3 * 49 + 64 + 64 * 112 * 112), 0,
		  "... its bytes from arg:type descriptors");
	ok(!strcmp(e.dtype, "f32") && e.ms == 3.92, "... type and time");
	ok(e.stamp_ms == 1693533460193.346924, "... its timestamp kept (the execution's start)");
	ok(rd(&r, "onednn_verbose,v1,1693533460195.5,primitive,exec,cpu,reorder,jit:blk,undef,"
	      "src:f32::blocked:abcd::f0 dst:f32:p:blocked:aBcd16b::f0,attr-scratchpad:user,,"
	      "16x16x32x32,0.02", &e) == RT_ONEDNN_EXEC && !strcmp(e.from, "abcd") &&
	   !strcmp(e.to, "aBcd16b") && e.stamp_ms == 1693533460195.5,
	   "a 3.x reorder: its layouts (%s -> %s) and timestamp", e.from, e.to);
	/* a conversion of data type names each layout's type; a copy stays the same on both */
	ok(rd(&r, "onednn_verbose,v1,1693533460195.5,primitive,exec,cpu,reorder,jit:blk,undef,"
	      "src:f32::blocked:abcd::f0 dst:bf16:p:blocked:aBcd16b::f0,attr-scratchpad:user,,"
	      "16x16x32x32,0.02", &e) == RT_ONEDNN_EXEC && !strcmp(e.from, "abcd f32") &&
	   !strcmp(e.to, "aBcd16b bf16"), "a 3.x reorder to bf16: %s -> %s", e.from, e.to);
	ok(rd(&r, "onednn_verbose,exec,cpu,reorder,jit:uni,undef,src_bf16::blocked:acdb:f0 "
	      "dst_f32::blocked:abcd:f0,,,10x10x2x2,0.5", &e) == RT_ONEDNN_EXEC &&
	   !strcmp(e.from, "acdb bf16") && !strcmp(e.to, "abcd f32"),
	   "a 2.x reorder from bf16: %s -> %s", e.from, e.to);
	ok(rd(&r, "onednn_verbose,v1,1693533460195.5,primitive,exec,cpu,reorder,jit_direct_copy:uni,"
	      "undef,src:bf16::blocked:acdb::f0 dst:bf16::blocked:acdb::f0,,,16x16x32x32,0.01", &e) ==
	   RT_ONEDNN_EXEC && !strcmp(e.from, "acdb") && !strcmp(e.to, "acdb"),
	   "a copy: %s -> %s", e.from, e.to);
	ok(rd(&r, "onednn_verbose,v1,1693533460194.0,primitive,exec,cpu,matmul,"
	      "brg:avx512_core,undef,src:f32::blocked:abc::f0 wei:f32::blocked:abc::f0 "
	      "dst:f32::blocked:abc::f0,,,4x128x64:4x64x32:4x128x32,0.5", &e) == RT_ONEDNN_EXEC &&
	   e.flops == 2.0 * 4 * 128 * 32 * 64, "a batched matmul: 2 * batch * M * N * K");
	/* oneDNN 3.0 to 3.4: no "v1", the event class, "src_f32::blocked:abcd::f0" */
	fresh(&r);
	ok(rd(&r, "onednn_verbose,info,prim_template:operation,engine,primitive,implementation,"
	      "prop_kind,memory_descriptors,attributes,auxiliary,problem_desc,exec_time", &e) ==
	   RT_ONEDNN_INFO, "3.0's header");
	ok(rd(&r, "onednn_verbose,primitive,exec,cpu,inner_product,brgemm:avx512_core,"
	      "backward_data,src_f32::blocked:ab::f0 wei_f32::blocked:AB16b64a::f0 "
	      "bia_undef::undef::: dst_f32::blocked:ab::f0,,,mb8ic4096oc256,1.8", &e) ==
	   RT_ONEDNN_EXEC && e.flops == 2.0 * 8 * 256 * 4096, "3.0's inner product: %.0f",
	   e.flops);
	/* a header in another order is followed */
	fresh(&r);
	rd(&r, "onednn_verbose,info,prim_template:operation,engine,primitive,implementation,"
	   "prop_kind,memory_descriptors,attributes,auxiliary,exec_time,problem_desc", &e);
	ok(rd(&r, "onednn_verbose,exec,cpu,reorder,jit:uni,undef,src_f32::blocked:ab:f0 "
	      "dst_bf16::blocked:ab:f0,,,0.25,10x10", &e) == RT_ONEDNN_EXEC && e.ms == 0.25 &&
	   e.bytes == 600, "the fields where the header puts them");

	/* oneDNN 3.x: matmul's "src:wei" problem (3.4 on: the output is not printed) */
	fresh(&r);
	ok(rd(&r, "onednn_verbose,v1,primitive,exec,cpu,matmul,brg_matmul:avx10_1_512_amx,undef,"
	      "src:bf16::blocked:ab::f0 wei:bf16::blocked:ba::f0 dst:bf16::blocked:ab::f0,"
	      "attr-scratchpad:user attr-post-ops:sum,,16x2048:2048x10,0.0649414", &e) ==
	   RT_ONEDNN_EXEC && e.flops == 2.0 * 16 * 10 * 2048 + 16 * 10 &&
	   e.bytes == 2.0 * (16 * 2048 + 2048 * 10 + 16 * 10) && e.prec == BF16 && !e.prec_bound,
	   "3.x's matmul 16x2048:2048x10 with a sum post-op: %.0f FLOPs, %.0f bytes", e.flops,
	   e.bytes);
	ok(rd(&r, "onednn_verbose,v1,primitive,exec,cpu,matmul,brg:avx512_core,undef,"
	      "src:f32::blocked:abc::f0 wei:f32::blocked:abc::f0 bia:f32::blocked:abc::f0_mask4 "
	      "dst:f32::blocked:abc::f0,,,4x128x64:1x64x32,0.5", &e) == RT_ONEDNN_EXEC &&
	   e.flops == 2.0 * 4 * 128 * 32 * 64 + 4 * 128 * 32 &&
	   e.bytes == 4.0 * (4 * 128 * 64 + 64 * 32 + 4 * 128 * 32),
	   "... batched, the weights broadcast, a bias: %.0f", e.flops);
	ok(rd(&r, "onednn_verbose,v1,primitive,exec,cpu,matmul,brg:avx512_core,undef,"
	      "src:f32::blocked:ab::f0 wei:f32::blocked:ab::f0 dst:f32::blocked:ab::f0,,,"
	      "16x2048:1024x10,0.5", &e) == RT_ONEDNN_UNPARSED && strstr(e.why, "src:wei"),
	   "... a K that differs is not read: %s", e.why);
	ok(rd(&r, "onednn_verbose,v1,primitive,exec,cpu,matmul,brg:avx512_core,undef,"
	      "src:f32::blocked:ab::f0 wei:f32::blocked:ab::f0 dst:f32::blocked:ab::f0,,"
	      "runtime_dims_masks:1:0,*x2048:2048x10,0.5", &e) == RT_ONEDNN_EXEC && !e.counted &&
	   e.ms == 0.5, "... runtime dimensions: its time, no FLOPs");

	/* the precision of the math: data types, the fpmath attribute, the implementation */
	ok(rd(&r, "onednn_verbose,v1,primitive,exec,cpu,convolution,brg_conv_fwd:avx10_1_512_amx,"
	      "forward_training,src:f32:a:blocked:acdb::f0 wei:f32:a:blocked:Acdb16a::f0 "
	      "bia:f32:a:blocked:a::f0 dst:f32:a:blocked:acdb::f0,attr-scratchpad:user "
	      "attr-fpmath:bf16,alg:convolution_direct,"
	      "mb16_ic3oc16_ih32oh32kh5sh1dh0ph2_iw32ow32kw5sw1dw0pw2,0.686035", &e) ==
	   RT_ONEDNN_EXEC && e.prec == BF16 && !e.prec_bound && !strcmp(e.dtype, "f32") &&
	   !strcmp(e.fpmath, "bf16") && e.flops == 2 * MAC1 + OUT1,
	   "f32 tensors, attr-fpmath:bf16, an AMX implementation: bf16 math");
	ok(rd(&r, "onednn_verbose,v1,primitive,exec,cpu,convolution,brgconv_strided:avx512_core,"
	      "backward_data,src:f32:a:blocked:acdb::f0 wei:f32:a:blocked:Bcda32b::f0 "
	      "bia:undef::undef::: dst:f32:a:blocked:acdb::f0,attr-scratchpad:user "
	      "attr-fpmath:bf16,alg:convolution_direct,"
	      "mb16_ic32oc32_ih16oh8kh1sh2dh0ph0_iw16ow8kw1sw2dw0pw0,0.0629883", &e) ==
	   RT_ONEDNN_EXEC && e.prec == FP32 && !e.prec_bound,
	   "... an avx512_core implementation (fp32 FMAs only): fp32 math");
	ok(rd(&r, "onednn_verbose,v1,primitive,exec,cpu,convolution,ref:any,forward_training,"
	      "src:f32::blocked:abcd::f0 wei:f32::blocked:abcd::f0 bia:undef::undef::: "
	      "dst:f32::blocked:abcd::f0,attr-fpmath:bf16:true,alg:convolution_direct,"
	      "mb1_ic4oc4_ih4oh4kh1sh1dh0ph0_iw4ow4kw1sw1dw0pw0,0.01", &e) == RT_ONEDNN_EXEC &&
	   e.prec == BF16 && e.prec_bound, "... a name without an ISA: bf16 at most, not told");
	ok(rd(&r, "onednn_verbose,v1,primitive,exec,cpu,reorder,jit:uni,undef,"
	      "src:f32::blocked:abcd::f0 dst:f32::blocked:acdb::f0,attr-scratchpad:user "
	      "attr-fpmath:bf16,,16x3x32x32,1.2439", &e) == RT_ONEDNN_EXEC && e.prec == FP32 &&
	   !e.prec_bound, "... a reorder's precision is its data's");
	ok(rd(&r, "onednn_verbose,exec,cpu,convolution,jit:avx512_core,forward_training,"
	      "src_f32::blocked:abcd:f0 wei_f32::blocked:Acdb16a:f0 bia_f32::blocked:a:f0 "
	      "dst_f32::blocked:aBcd16b:f0,attr-scratchpad:user "
	      "attr-fpmath_mode:fpmath_mode_bf16 attr-post-ops:eltwise_relu ,"
	      "alg:convolution_direct,mb2_ic1oc6_ih28oh28kh5sh1dh0ph2_iw28ow28kw5sw1dw0pw2,0.05",
	      &e) == RT_ONEDNN_EXEC && !strcmp(e.fpmath, "bf16") && e.prec == FP32 && !e.prec_bound,
	   "2.6's attr-fpmath_mode:fpmath_mode_bf16 read, jit:avx512_core: fp32 math");

	/* graph partitions (3.x's "graph,exec", oneDNN's graph/utils/verbose.cpp format) */
	fresh(&r);
	ok(rd(&r, "onednn_verbose,v1,graph,info,template:operation,engine,partition_id,"
	      "partition_kind,op_names,data_formats,logical_tensors,fpmath_mode,implementation,"
	      "backend,exec_time", &e) == RT_ONEDNN_INFO, "the graph header");
	ok(rd(&r, "onednn_verbose,v1,graph,exec,cpu,100002,matmul_post_ops,MatMul;BiasAdd;ReLU,,"
	      "in0_f32:0:strided:undef:16x2048:2048s1 in1_f32:1:strided:constant:10x2048:2048s1 "
	      "in2_f32:2:strided:constant:10:1s out0_f32:5:strided:undef:16x10:10s1,fpm:strict,"
	      "larger_partition_kernel_t,dnnl_backend,0.25", &e) == RT_ONEDNN_EXEC && e.counted &&
	   e.flops == 2.0 * 16 * 10 * 2048 + 2 * 160 &&
	   e.bytes == 4.0 * (16 * 2048 + 10 * 2048 + 10 + 160) && e.ms == 0.25 &&
	   !strcmp(e.kind, "graph") && !strcmp(e.prop, "matmul_post_ops") && e.prec == FP32,
	   "a MatMul partition (transposed weights) with a bias and a relu: %.0f FLOPs (%s)",
	   e.flops, e.problem);
	ok(rd(&r, "onednn_verbose,v1,graph,exec,cpu,100003,convolution_post_ops,"
	      "Convolution;BiasAdd,data:NCX;filter:OIX ,"
	      "in0_f32:0:strided:undef:1x3x32x32:3072s1024s32s1 "
	      "in1_f32:1:strided:constant:8x3x3x3:27s9s3s1 in2_f32:2:strided:constant:8:1s "
	      "out0_f32:4:strided:undef:1x8x32x32:8192s1024s32s1,fpm:bf16,"
	      "larger_partition_kernel_t,dnnl_backend,0.5", &e) == RT_ONEDNN_EXEC && !e.counted &&
	   e.flops == 0 && e.ms == 0.5 && e.prec == BF16 && e.prec_bound,
	   "a convolution partition (no strides nor padding printed): its time, no FLOPs; fpm "
	   "bf16 with no ISA named: bf16 at most");
	ok(rd(&r, "onednn_verbose,v1,graph,exec,cpu,1,matmul,MatMul,,in0_f32:0:strided:undef:"
	      "-1x64:64s1 in1_f32:1:strided:undef:64x64:64s1 out0_f32:2:strided:undef:-1x64:64s1,"
	      "fpm:strict,k,dnnl_backend,0.1", &e) == RT_ONEDNN_EXEC && !e.counted,
	   "... a dimension unknown: time only");
	ok(rd(&r, "onednn_verbose,v1,graph,exec,cpu,1,matmul,MatMul,,x,fpm:strict,k,dnnl_backend",
	      &e) == RT_ONEDNN_UNPARSED && strstr(e.why, "graph fields"), "a graph line short of "
	   "a field: %s", e.why);

	/* many inputs: Debian's oneDNN 2.6.3 (ONEDNN_VERBOSE=1, one thread) on a concat and a
	 * sum of 24 f32 tensors 2x16x3x4 (dnnl_concat_primitive_desc_create,
	 * dnnl_sum_primitive_desc_create), the lines as it printed them (905 and 687 bytes and
	 * the newline), the concat's problem 215 characters; a sum's problem is its output (2.x
	 * and 3.x), its inputs its source descriptors */
	{
		struct rt_buf b, dims;
		struct rt_onednn_tally t;

		rt_buf_init(&b);
		rt_buf_init(&dims);
		fresh(&r);
		repeat(&dims, "2x16x3x4", ":", 24);
		rt_buf_puts(&b, "onednn_verbose,exec,cpu,concat,simple:any,undef,");
		repeat(&b, "src_f32::blocked:abcd:f0", " ", 24);
		rt_buf_printf(&b, " dst_f32::blocked:abcd:f0,,axis:1,%s,0.124023\n", dims.s);
		ok(b.len == 906 && rd(&r, b.s, &e) == RT_ONEDNN_EXEC && e.counted && e.flops == 0 &&
		   e.bytes == 2.0 * 24 * 384 * 4 && strlen(e.problem) == 215,
		   "2.6.3's concat of 24 inputs: read whole (%s), every input's bytes (%.0f)",
		   e.why, e.bytes);
		rt_buf_reset(&b);
		rt_buf_puts(&b, "onednn_verbose,exec,cpu,sum,ref:any,undef,");
		repeat(&b, "src_f32::blocked:abcd:f0", " ", 24);
		rt_buf_puts(&b, " dst_f32::blocked:abcd:f0,,,2x16x3x4,0.0200195\n");
		ok(b.len == 688 && rd(&r, b.s, &e) == RT_ONEDNN_EXEC && e.flops == 23.0 * 384 &&
		   e.bytes == 25.0 * 384 * 4, "2.6.3's sum of 24 inputs: 23 additions an output "
		   "(%.0f FLOPs), 24 reads and a write (%.0f bytes)", e.flops, e.bytes);
		/* 3.x's form: 17 inputs of a DenseNet block, more parts than the counts keep */
		ok(rd(&r, "onednn_verbose,v1,primitive,info,template:operation,engine,primitive,"
		      "implementation,prop_kind,memory_descriptors,attributes,auxiliary,"
		      "problem_desc,exec_time", &e) == RT_ONEDNN_INFO, "3.x's primitive header");
		ok(rd(&r, concat_3x(&b, 17, "64x256x56x56", NULL), &e) == RT_ONEDNN_EXEC &&
		   e.bytes == 2.0 * 17 * 64 * 256 * 56 * 56 * 4,
		   "3.x's concat of 17 inputs: %.0f bytes (%s)", e.bytes, e.why);
		/* a line past 8 KiB: 400 inputs */
		concat_3x(&b, 400, "2x16x3x4", NULL);
		ok(rd(&r, b.s, &e) == RT_ONEDNN_EXEC && b.len > 8192 &&
		   e.bytes == 2.0 * 400 * 384 * 4, "a concat of 400 inputs, a line of %zu bytes: "
		   "read", b.len);
		/* two concats that differ past the problem's first 200 characters are two
		 * primitives, each kept whole */
		rt_onednn_tally_init(&t);
		for (int k = 0; k < 2; k++) {
			concat_3x(&b, 30, "2x16x3x4", k ? "2x8x3x4" : "2x16x3x4");
			rt_onednn_tally_line(&t, rd(&r, b.s, &e), &e, b.s, b.len);
		}
		ok(t.n == 2 && t.execs == 2 && strlen(t.v[0].problem) == 278 &&
		   strlen(t.v[1].problem) == 277, "concats alike for 270 characters: two "
		   "primitives, their problems whole (%zu, %zu characters)",
		   t.n ? strlen(t.v[0].problem) : 0, t.n > 1 ? strlen(t.v[1].problem) : 0);
		rt_onednn_tally_free(&t);
		/* a graph partition's problem built past 200 characters: its whole */
		ok(rd(&r, "onednn_verbose,v1,graph,info,template:operation,engine,partition_id,"
		      "partition_kind,op_names,data_formats,logical_tensors,fpmath_mode,"
		      "implementation,backend,exec_time", &e) == RT_ONEDNN_INFO,
		   "the graph header again");
		rt_buf_reset(&b);
		rt_buf_puts(&b, "onednn_verbose,v1,graph,exec,cpu,7,misc,Concat,,");
		for (int i = 0; i < 30; i++)
			rt_buf_printf(&b, "in%d_f32:%d:strided:undef:2x16x3x4:192s12s4s1 ", i, i);
		rt_buf_puts(&b, "out0_f32:30:strided:undef:2x480x3x4:5760s12s4s1,fpm:strict,k,"
			    "dnnl_backend,0.5");
		/* "Concat 2x16x3x4:...:2x480x3x4": 6 + 30 x 9 + 10 */
		ok(rd(&r, b.s, &e) == RT_ONEDNN_EXEC && strlen(e.problem) == 6 + 30 * 9 + 10 &&
		   !strcmp(e.problem + strlen(e.problem) - 10, ":2x480x3x4"),
		   "a partition of 31 tensors: its problem whole (%zu characters)",
		   strlen(e.problem));
		rt_buf_fini(&b);
		rt_buf_fini(&dims);
	}

	/* oneDNN 3.10.2's own logs of PyTorch 2.11 training train-tiny.py (16 threads) */
	{
		static const struct {
			const char *mode;
			double fwd, bwd_d, bwd_w, mm;
			unsigned long execs;
		} logs[] = {
			{ "fp32", FWD, BWD_D, FWD, 0, 66 },
			{ "cl", FWD, BWD_D, FWD, 0, 38 },
			{ "autocast", FWD, BWD_D, FWD, MM, 76 },
			{ "fpmath-bf16", FWD, BWD_D, FWD, 0, 68 },
			{ "fp32-verbose-all", FWD, BWD_D, FWD, 0, 66 },
		};
		struct rt_onednn_tally t;

		for (size_t i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
			if (!pt211_tally(&t, logs[i].mode, NULL)) {
				ok(0, "pt211-%s.log: not found", logs[i].mode);
				continue;
			}
			ok(t.execs == logs[i].execs && !t.unparsed && !t.uncounted && t.nthr == 16,
			   "pt211-%s.log: %lu executions, every line read (%lu not: %s), 16 threads",
			   logs[i].mode, t.execs, t.unparsed, t.first_unparsed_why);
			is_double(flops_of(&t, "convolution", "forward_training", RT_PRECISION_COUNT), logs[i].fwd, 0,
				  "... forward convolutions: %.0f FLOPs", logs[i].fwd);
			is_double(flops_of(&t, "convolution", "backward_data", RT_PRECISION_COUNT), logs[i].bwd_d, 0,
				  "... backward data: %.0f", logs[i].bwd_d);
			is_double(flops_of(&t, "convolution", "backward_weights", RT_PRECISION_COUNT), logs[i].bwd_w,
				  0, "... backward weights: %.0f", logs[i].bwd_w);
			is_double(flops_of(&t, "matmul", NULL, RT_PRECISION_COUNT), logs[i].mm, 0,
				  "... matmuls: %.0f", logs[i].mm);
			if (!strcmp(logs[i].mode, "autocast"))
				ok(flops_of(&t, "convolution", NULL, BF16) == FWD + BWD_D + FWD &&
				   flops_of(&t, "matmul", NULL, BF16) == MM, "... all of it bf16 math");
			if (!strcmp(logs[i].mode, "fpmath-bf16")) {
				/* the forward convolutions and conv2's backward data ran on AMX;
				 * conv3's backward data and every backward weights on avx512_core
				 * or avx2 kernels: fp32 */
				ok(flops_of(&t, "convolution", "forward_training", BF16) == FWD &&
				   flops_of(&t, "convolution", "backward_data", BF16) == 2 * 2 * MAC2 &&
				   flops_of(&t, "convolution", "backward_data", FP32) == 2 * 2 * MAC3 &&
				   flops_of(&t, "convolution", "backward_weights", FP32) == FWD,
				   "... the AMX convolutions bf16 points, the others fp32");
				for (size_t j = 0; j < t.n; j++)
					if (t.v[j].prec_bound)
						ok(0, "... %s %s told: %s", t.v[j].kind, t.v[j].prop,
						   t.v[j].impl);
			}
			rt_onednn_tally_free(&t);
		}
		/* a line no reader knows among ONEDNN_VERBOSE=all's creation, dispatch and
		 * check lines: the first named */
		pt211_tally(&t, "fp32-verbose-all", "onednn_verbose,v1,primitive,exec,cpu,reorder,"
			   "jit:uni,undef,src:f32::blocked:ab::f0,,,64,slow");
		ok(t.unparsed == 1 && strstr(t.first_unparsed, ",64,slow") &&
		   strstr(t.first_unparsed_why, "milliseconds") && t.execs == 66,
		   "ONEDNN_VERBOSE=all's own lines read; a bad one among them named: %s (%s)",
		   t.first_unparsed, t.first_unparsed_why);
		rt_onednn_tally_free(&t);
	}

	/* today's frameworks live (tests/data/frameworks): two steps of pytorch-cnn.py under
	 * PyTorch 2.15 (oneDNN 3.13.3, OpenMP) and of tf-cnn.py under TensorFlow 2.21 (oneDNN
	 * 3.7.3 on its own thread pool), 2 threads */
	{
		struct rt_onednn_tally t;

		if (log_tally(&t, "frameworks/pt215-cnn.log")) {
			ok(t.execs == 40 && !t.unparsed && !t.uncounted && !strcmp(t.version, "v3.13.3") &&
			   !strcmp(t.runtime, "OpenMP") && t.nthr == 2,
			   "PyTorch 2.15: %lu executions, every one read and counted (%lu not: %s), "
			   "oneDNN %s, %s, %u threads", t.execs, t.unparsed, t.first_unparsed_why,
			   t.version, t.runtime, t.nthr);
			is_double(flops_of(&t, "convolution", "forward_training", FP32), 2 * CNN_CONV, 0,
				  "... forward convolutions (the bias in, ReLU outside oneDNN)");
			is_double(flops_of(&t, "convolution", "backward_data", FP32), 2 * 2 * CNN_MAC2, 0,
				  "... backward data: conv2's only");
			is_double(flops_of(&t, "convolution", "backward_weights", FP32), 2 * CNN_CONV, 0,
				  "... backward weights");
			ok(t.flops == 2 * (2 * CNN_CONV + 2 * CNN_MAC2),
			   "... nothing else: pooling, ReLU and the linear layer (MKL's sgemm) are ATen's");
		} else {
			skip("tests/data/frameworks/pt215-cnn.log is not there");
		}
		rt_onednn_tally_free(&t);
		if (log_tally(&t, "frameworks/tf221-cnn.log")) {
			ok(t.execs == 34 && !t.unparsed && !t.uncounted && !strcmp(t.version, "v3.7.3") &&
			   !strcmp(t.runtime, "threadpool") && t.nthr == 2,
			   "TensorFlow 2.21: %lu executions, every one read and counted (%lu not: %s), "
			   "oneDNN %s, %s, %u threads", t.execs, t.unparsed, t.first_unparsed_why,
			   t.version, t.runtime, t.nthr);
			is_double(flops_of(&t, "convolution", "forward_training", FP32),
				  2 * (CNN_CONV + CNN_OUT1 + CNN_OUT2), 0,
				  "... forward convolutions, ReLU fused (a post-op: 1 FLOP an output)");
			is_double(flops_of(&t, "convolution", "backward_data", FP32), 2 * 2 * CNN_MAC2, 0,
				  "... backward data: conv2's only");
			is_double(flops_of(&t, "convolution", "backward_weights", FP32), 2 * CNN_CONV, 0,
				  "... backward weights");
			is_double(flops_of(&t, "pooling", "forward_training", FP32), 2 * 3 * CNN_POOL, 0,
				  "... max pooling forward");
			is_double(flops_of(&t, "pooling", "backward_data", FP32), 2 * CNN_POOL, 0,
				  "... and backward");
			is_double(flops_of(&t, "inner_product", "forward_training", FP32), 2 * CNN_DENSE,
				  0, "... the dense layer forward");
			is_double(flops_of(&t, "gemm_api", NULL, FP32), 2 * CNN_GEMMS, 0,
				  "... its gradients, two sgemm calls a step (gemm_api)");
			ok(t.flops == 2 * (2 * CNN_CONV + CNN_OUT1 + CNN_OUT2 + 2 * CNN_MAC2 +
					   4 * CNN_POOL + CNN_DENSE + CNN_GEMMS),
			   "... nothing else: ReLU's gradient, the biases' and the loss are Eigen's");
		} else {
			skip("tests/data/frameworks/tf221-cnn.log is not there");
		}
		rt_onednn_tally_free(&t);
	}
	/* a gemm_api call's bytes: A, B and C once each */
	{
		static const char *const gl = "onednn_verbose,v1,primitive,exec,cpu,gemm_api,,undef,"
			"src_f32::blocked:ba:f0 wei_f32::blocked:ab:f0 dst_f32::blocked:ab:f0,,,"
			"2048x16:16x10,0.0849609";
		enum rt_onednn_line k;

		fresh(&r);
		k = rd(&r, gl, &e);     /* before the message reads e */

		ok(k == RT_ONEDNN_EXEC && e.counted && e.flops == 2.0 * 2048 * 16 * 10 &&
		   e.bytes == 4.0 * (2048 * 16 + 16 * 10 + 2048 * 10) && e.prec == FP32 &&
		   !e.prec_bound, "gemm_api 2048x16:16x10 (M x K : K x N): %.0f FLOPs, %.0f bytes",
		   e.flops, e.bytes);
	}

	/* the Emerald Rapids node (tests/data/emr16): conv1 forward on AMX under attr-fpmath:bf16
	 * at 1,620 GFLOP/s was an fp32 point above the fp32 roof (1,276 GFLOP/s at 16 threads,
	 * under the fp32 peak of 2,927); as the bf16 point it is, it sits under the bf16 roof
	 * (AMX, 15,045) */
	{
		const char *top = getenv("top_srcdir");
		char path[4096];
		struct rt_profile *prof = NULL;
		struct rt_err err = { 0 };
		struct rt_cmd_outcome out = { .ok = true, .wall = 1 };
		struct rt_cmd_judgement j;
		struct rt_onednn_prim p = { .kind = "convolution", .prop = "forward_training",
					    .dtype = "f32", .fpmath = "bf16", .counted = true,
					    .prec = BF16, .calls = 1, .flops = 2 * MAC1 + OUT1 };
		const struct rt_roof *roof;

		snprintf(path, sizeof(path), "%s/tests/data/emr16/emr16.cfg", top ? top : ".");
		p.ms = p.flops / 1620e9 * 1e3 - 1e-3;   /* 1,620 GFLOP/s with the grain */
		if (rt_profile_load(&prof, path, &err)) {
			ok(0, "emr16.cfg: %s", err.msg);
		} else {
			rt_onednn_tally_init(&out.t);
			out.t.nthr = 16;
			rt_cmd_judge(&out, 0, prof, &j);
			roof = rt_cmd_prim_roof(&j, &p);
			ok(!j.impossible && roof && !strcmp(roof->precision, "bf16") &&
			   roof->value > 15000 && !rt_cmd_prim_impossible(&j, &p, NULL, 0),
			   "EMR: the AMX convolution at 1,620 GFLOP/s under the bf16 roof (%.0f)",
			   roof ? roof->value : 0);
			p.prec = FP32;
			roof = rt_cmd_prim_roof(&j, &p);
			ok(roof && roof->value < 1300 && !rt_cmd_prim_impossible(&j, &p, NULL, 0) &&
			   rt_cmd_prim_above_roof(&j, &p, NULL, 0),
			   "... as an fp32 point it would be above the measured fp32 roof (%.0f), under "
			   "the fp32 peak (2,927): above the roof, not impossible",
			   roof ? roof->value : 0);
			p.ms = p.flops / 3000e9 * 1e3 - 1e-3;   /* 3,000 GFLOP/s: past the peak */
			ok(rt_cmd_prim_impossible(&j, &p, NULL, 0), "... at 3,000 GFLOP/s past the fp32 "
			   "peak: impossible");
			p.ms = p.flops / 1620e9 * 1e3 - 1e-3;
			p.prec = BF16;
			p.prec_bound = true;
			roof = rt_cmd_prim_roof(&j, &p);
			ok(roof && !strcmp(roof->precision, "bf16"), "... the math not told: the "
			   "highest roof it could have had, bf16's");
			/* a configuration that asked for 1 thread of a command that set 16 itself:
			 * the roofs of the 16 that ran */
			rt_cmd_judge(&out, 1, prof, &j);
			ok(j.have_roofs && j.roofs.threads == 16 && rt_cmd_threads(&out, 1, prof) == 16,
			   "1 thread asked, 16 in the log: the roofs at 16 (%u)", j.roofs.threads);
			out.t.nthr = 0;
			ok(rt_cmd_threads(&out, 1, prof) == 1 && rt_cmd_threads(&out, 0, prof) == 16 &&
			   rt_cmd_threads(&out, 0, NULL) == 0, "no thread count in the log: the "
			   "configuration's, else all the profile measured");
			out.t.nthr = 17;
			rt_cmd_judge(&out, 0, prof, &j);
			ok(j.over_threads && strstr(j.why, "17 threads"), "17 threads on the 16 of "
			   "the profile's node: %s", j.why);
			/* 1.5 s of oneDNN in a run of 1 s: one process cannot, two at once can */
			out.t.nthr = 16;
			out.t.ms = 1500;
			out.t.execs = 10;
			out.t.instances = 1;
			rt_cmd_judge(&out, 0, prof, &j);
			ok(j.over_wall, "1.5 s of oneDNN time in 1 s of one process: impossible");
			out.t.instances = 2;
			rt_cmd_judge(&out, 0, prof, &j);
			ok(!j.over_wall, "... in 1 s of two processes that each loaded oneDNN (two "
			   "version lines): possible");
			rt_profile_destroy(prof);
		}
	}

	/* a tally: distinct primitives, calls, totals, the first unparsed line */
	{
		struct rt_onednn_tally t;
		const char *l1 = "onednn_verbose,exec,cpu,reorder,jit:uni,undef,src_f32::blocked:ab:f0 "
				 "dst_f32::blocked:ba:f0,,,10x10,0.5";
		const char *l2 = "onednn_verbose,exec,cpu,eltwise,jit,forward_training,"
				 "data_f32::blocked:ab:f0,,alg:eltwise_relu,10x10,0.25";

		fresh(&r);
		rt_onednn_tally_init(&t);
		for (int i = 0; i < 1000; i++) {
			rd(&r, i % 2 ? l1 : l2, &e);
			rt_onednn_tally_add(&t, &e);
		}
		rt_onednn_tally_unparsed(&t, "onednn_verbose,exec,x", 21, "2 fields");
		rt_onednn_tally_unparsed(&t, "onednn_verbose,exec,y", 21, "3 fields");
		ok(t.n == 2 && t.execs == 1000 && t.v[0].calls == 500 && t.v[1].calls == 500,
		   "1000 executions of 2 primitives");
		is_double(t.ms, 375, 1e-9, "their time");
		is_double(t.flops, 500 * 100, 0, "their FLOPs");
		ok(t.unparsed == 2 && !strcmp(t.first_unparsed, "onednn_verbose,exec,x") &&
		   !strcmp(t.first_unparsed_why, "2 fields"), "unparsed: counted, the first named");
		rt_onednn_tally_free(&t);
	}
	/* the default described by the log's info lines: version, runtime, threads, ISA */
	{
		struct rt_onednn_tally t;
		struct rt_onednn_reader r26;
		static const char *const v26[] = {
			"onednn_verbose,info,oneDNN v2.6.3 (commit N/A)\n",
			"onednn_verbose,info,cpu,runtime:OpenMP,nthr:2\n",
			"onednn_verbose,info,cpu,isa:Intel AVX-512 with Intel DL Boost and bfloat16 "
			"support\n",
			"onednn_verbose,info,gpu,runtime:OpenCL\n",
		};

		if (pt211_tally(&t, "fp32", NULL)) {
			ok(!strcmp(t.version, "v3.10.2") && !strcmp(t.runtime, "OpenMP") &&
			   t.nthr == 16, "PyTorch 2.11's log: oneDNN %s, %s, %u threads", t.version,
			   t.runtime, t.nthr);
			is_str(t.isa, "Intel AVX-512 with float16, Intel DL Boost and bfloat16 support "
			       "and Intel AMX with bfloat16 and 8-bit integer support",
			       "... its ISA line whole, its comma kept");
			rt_onednn_tally_free(&t);
		} else {
			skip("tests/data/pytorch-2.11 is not there");
			skip("tests/data/pytorch-2.11 is not there");
		}
		rt_onednn_reader_init(&r26);
		rt_onednn_tally_init(&t);
		for (size_t i = 0; i < sizeof(v26) / sizeof(v26[0]); i++) {
			struct rt_onednn_exec e26;

			rt_onednn_tally_line(&t, rd(&r26, v26[i], &e26), &e26, v26[i], strlen(v26[i]));
		}
		rt_onednn_reader_fini(&r26);
		ok(t.instances == 1, "one version line: one process that loaded oneDNN");
		ok(!strcmp(t.version, "v2.6.3") && !strcmp(t.runtime, "OpenMP") && t.nthr == 2 &&
		   !strcmp(t.isa, "Intel AVX-512 with Intel DL Boost and bfloat16 support"),
		   "oneDNN 2.6's form: %s, %s (the GPU's runtime not taken), %u threads, %s",
		   t.version, t.runtime, t.nthr, t.isa);
		rt_onednn_tally_free(&t);
	}
	/* the one rule for f32 work under a default fpmath mode, the trainer's points' too */
	{
		static const struct {
			const char *mode, *impl;
			enum rt_precision prec;
			bool bound;
		} m[] = {
			{ NULL, "brg:avx512_core_amx", FP32, false },
			{ "strict", "brg:avx512_core_amx", FP32, false },
			{ "BF16", "brg:avx512_core_amx", BF16, false },   /* the variable's spelling */
			{ "bf16", "brg_conv_fwd:avx10_1_512_amx", BF16, false },
			{ "any", "jit:avx512_core_bf16", BF16, false },
			{ "bf16", "jit:avx512_core", FP32, false },       /* Debian's 2.6 here */
			{ "bf16", "brgemm:avx2", FP32, false },
			{ "bf16", "gemm:jit", BF16, true },               /* no ISA: the highest roof */
			{ "bf16", "ref:any", BF16, true },
			{ "bf16", "jit:avx512_core+brg:avx512_core_amx", BF16, false },
			{ "f16", "brg:avx512_core_amx_fp16", FP16, false },
		};

		for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
			bool bound = !m[i].bound;
			const enum rt_precision got = rt_onednn_f32_math(m[i].mode, m[i].impl,
									 &bound);

			ok(got == m[i].prec && bound == m[i].bound, "f32 under fpmath %s on %s: %s%s",
			   m[i].mode ? m[i].mode : "(none)", m[i].impl, rt_precision_name(got),
			   bound ? " at most" : "");
		}
	}
	/* an implementation naming no ISA ran the highest math the log's ISA line allows: fp32
	 * on an AVX2 or an AVX-512 without bfloat16 (Zen 3's, Skylake's), bf16 at most on one
	 * with it, at most where the log names no ISA */
	{
		static const struct {
			const char *isa;
			enum rt_precision prec;
			bool bound;
		} v[] = {
			{ "Intel AVX2", FP32, false },
			{ "Intel AVX-512 with AVX512BW, AVX512VL, and AVX512DQ extensions", FP32, false },
			{ "Intel AVX-512 with Intel DL Boost", FP32, false },
			{ "Intel AVX-512 with Intel DL Boost and bfloat16 support", BF16, true },
			{ "Intel AVX2 with Intel DL Boost and float16 and bfloat16 support", BF16, true },
			{ "Intel AVX-512 with float16, Intel DL Boost and bfloat16 support and Intel "
			  "AMX with bfloat16 and 8-bit integer support", BF16, true },
			{ "Intel AVX10.1/512 with float16, Intel DL Boost and bfloat16 support and "
			  "Intel AMX with bfloat16 and 8-bit integer support", BF16, true },
			{ NULL, BF16, true },
		};
		const char *gemm = "onednn_verbose,exec,cpu,convolution,x64:gemm:jit,"
			"forward_training,src_f32::blocked:abcd:f0 wei_f32::blocked:abcd:f0 "
			"bia_f32::blocked:a:f0 dst_f32::blocked:abcd:f0,attr-fpmath_mode:"
			"fpmath_mode_bf16 ,alg:convolution_direct,mb2_ic1oc6_ih28oh24kh5sh1dh0ph0_"
			"iw28ow24kw5sw1dw0pw0,0.5";

		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			struct rt_onednn_reader r2;
			struct rt_onednn_tally t;
			struct rt_onednn_exec e2;
			char info[300];

			rt_onednn_reader_init(&r2);
			rt_onednn_tally_init(&t);
			snprintf(info, sizeof(info), "onednn_verbose,info,cpu,isa:%s",
				 v[i].isa ? v[i].isa : "");
			if (v[i].isa)
				rt_onednn_tally_line(&t, rd(&r2, info, &e2), &e2, info, strlen(info));
			rt_onednn_tally_line(&t, rd(&r2, gemm, &e2), &e2, gemm, strlen(gemm));
			ok(t.n == 1 && t.v[0].prec == v[i].prec && t.v[0].prec_bound == v[i].bound,
			   "gemm:jit under fpmath bf16, the log's ISA %s: %s%s", v[i].isa ? v[i].isa :
			   "not said", t.n ? rt_precision_name(t.v[0].prec) : "none",
			   t.n && t.v[0].prec_bound ? " at most" : "");
			rt_onednn_tally_free(&t);
			rt_onednn_reader_fini(&r2);
		}
		ok(rt_onednn_isa_has("Intel AVX-512 with float16, Intel DL Boost and bfloat16 "
				     "support", FP16) &&
		   !rt_onednn_isa_has("Intel AVX-512 with Intel DL Boost and bfloat16 support", FP16),
		   "fp16 math where the ISA line says float16, not bfloat16 alone");
	}
	rt_onednn_reader_fini(&r);
	return done_testing();
}
