/* t-onednn-log.c: oneDNN's verbose lines, 2.x (as Debian's oneDNN 2.6 prints them: copied from
 * a run of roofline-train) and 3.x (written from oneDNN's documented format: "v1", the event
 * class "primitive", timestamps, "src:f32::blocked:acdb::f0" descriptors), counted exactly by
 * hand; lines that are not oneDNN's pass; malformed ones are named, never counted. */
#include "config.h"
#include "counters/onednn-log.h"
#include "tap.h"

#include <string.h>

static enum rt_onednn_line rd(struct rt_onednn_reader *r, const char *line,
			      struct rt_onednn_exec *e)
{
	return rt_onednn_read(r, line, strlen(line), e);
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
	   !strcmp(e.dtype, "f32") && e.prec == 1 && !strcmp(e.impl, "jit:avx512_core") &&
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
	   e.prec == 2 && !strcmp(e.dtype, "bf16") && e.flops == 2.0 * 16 * 16 * 16 + 256 &&
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

	/* oneDNN 3.x (3.5 on): "v1", a timestamp, the event class, arg:type descriptors */
	rt_onednn_reader_init(&r);
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
	ok(rd(&r, "onednn_verbose,v1,1693533460194.0,primitive,exec,cpu,matmul,"
	      "brg:avx512_core,undef,src:f32::blocked:abc::f0 wei:f32::blocked:abc::f0 "
	      "dst:f32::blocked:abc::f0,,,4x128x64:4x64x32:4x128x32,0.5", &e) == RT_ONEDNN_EXEC &&
	   e.flops == 2.0 * 4 * 128 * 32 * 64, "a batched matmul: 2 * batch * M * N * K");
	/* oneDNN 3.0 to 3.4: no "v1", the event class, "src_f32::blocked:abcd::f0" */
	rt_onednn_reader_init(&r);
	ok(rd(&r, "onednn_verbose,info,prim_template:operation,engine,primitive,implementation,"
	      "prop_kind,memory_descriptors,attributes,auxiliary,problem_desc,exec_time", &e) ==
	   RT_ONEDNN_INFO, "3.0's header");
	ok(rd(&r, "onednn_verbose,primitive,exec,cpu,inner_product,brgemm:avx512_core,"
	      "backward_data,src_f32::blocked:ab::f0 wei_f32::blocked:AB16b64a::f0 "
	      "bia_undef::undef::: dst_f32::blocked:ab::f0,,,mb8ic4096oc256,1.8", &e) ==
	   RT_ONEDNN_EXEC && e.flops == 2.0 * 8 * 256 * 4096, "3.0's inner product: %.0f",
	   e.flops);
	/* a header in another order is followed */
	rt_onednn_reader_init(&r);
	rd(&r, "onednn_verbose,info,prim_template:operation,engine,primitive,implementation,"
	   "prop_kind,memory_descriptors,attributes,auxiliary,exec_time,problem_desc", &e);
	ok(rd(&r, "onednn_verbose,exec,cpu,reorder,jit:uni,undef,src_f32::blocked:ab:f0 "
	      "dst_bf16::blocked:ab:f0,,,0.25,10x10", &e) == RT_ONEDNN_EXEC && e.ms == 0.25 &&
	   e.bytes == 600, "the fields where the header puts them");

	/* a tally: distinct primitives, calls, totals, the first unparsed line */
	{
		struct rt_onednn_tally t;
		const char *l1 = "onednn_verbose,exec,cpu,reorder,jit:uni,undef,src_f32::blocked:ab:f0 "
				 "dst_f32::blocked:ba:f0,,,10x10,0.5";
		const char *l2 = "onednn_verbose,exec,cpu,eltwise,jit,forward_training,"
				 "data_f32::blocked:ab:f0,,alg:eltwise_relu,10x10,0.25";

		rt_onednn_reader_init(&r);
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
	return done_testing();
}
