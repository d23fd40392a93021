#!/bin/sh
# a command that runs two convolutions and prints its throughput; the second configuration
# interrupts roofline-run (as Ctrl-C would), so that --resume has one to run
conv='onednn_verbose,exec,cpu,convolution,jit:avx512_core,forward_training,src_f32::blocked:abcd:f0 wei_f32::blocked:Acdb16a:f0 bia_f32::blocked:a:f0 dst_f32::blocked:aBcd16b:f0,attr-scratchpad:user ,alg:convolution_direct,mb16_ic3oc16_ih32oh32kh5sh1dh0ph2_iw32ow32kw5sw1dw0pw2'
if [ -n "$RT_FIXTURE_PID" ] && [ "$OMP_NUM_THREADS" = 2 ]; then kill -INT "$(cat "$RT_FIXTURE_PID")"; sleep 5; fi
echo "$conv,0.25"
echo "$conv,0.25"
echo "images/s 1000"
