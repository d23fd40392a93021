/* t-cpu.c: /proc/cpuinfo parsing (vendor, family, the ISA flags that matter) and the
 * operations per cycle behind each theoretical peak, against hand-computed values */
#include "config.h"
#include "machine/cpu.h"
#include "tap.h"

#include <errno.h>

static const char spr[] =
	"processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\n"
	"model name\t: Intel(R) Xeon(R) Platinum 8480+\n"
	"flags\t\t: fpu sse2 avx avx2 fma avx512f avx512bw avx512_bf16 avx512_fp16 amx_tile "
	"amx_bf16 amx_int8 avx512_vnni avx_vnni hypervisor\n\nprocessor\t: 1\n";
static const char zen4[] =
	"processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\n"
	"model name\t: AMD EPYC 9654\nflags\t\t: fpu sse2 avx avx2 fma avx512f avx512_bf16 "
	"avx512_vnni\n";

int main(void)
{
	struct rt_cpu c;
	struct rt_err err;

	is_int(rt_cpu_parse_cpuinfo(&c, spr, &err), 0, "an Intel cpuinfo parses");
	is_str(c.vendor, "GenuineIntel", "vendor");
	is_int(c.family, 6, "family 6");
	is_int(c.model_number, 143, "model 143 (0x8f: Sapphire Rapids), not the model name");
	ok(c.hypervisor, "a hypervisor flag");
	is_int(rt_cpu_parse_cpuinfo(&c, zen4, &err), 0, "an AMD cpuinfo parses");
	is_str(c.vendor, "AuthenticAMD", "vendor");
	is_int(c.family, 25, "family 0x19 (Zen 4)");
	is_int(c.model_number, 17, "model 17 (0x11)");
	is_int(rt_cpu_parse_cpuinfo(&c, "vendor_id : x\n", &err), -EINVAL, "no flags: refused");

	/* Intel with AVX-512: two 512-bit FMA pipes */
	is_double(rt_cpu_ops_per_cycle("GenuineIntel", 6, true, "fp64", "avx512", "fma-chains"), 32, 0,
		  "Intel fp64 avx512: 2 pipes x 8 lanes x 2");
	is_double(rt_cpu_ops_per_cycle("GenuineIntel", 6, true, "fp32", "avx512", "fma-chains"), 64, 0,
		  "Intel fp32 avx512: 2 x 16 x 2");
	is_double(rt_cpu_ops_per_cycle("GenuineIntel", 6, true, "fp32", "avx2", "fma-chains"), 32, 0,
		  "Intel fp32 avx2: 2 x 8 x 2");
	is_double(rt_cpu_ops_per_cycle("GenuineIntel", 6, true, "fp64", "scalar", "mul-add-chains"),
		  4, 0, "scalar mul-add: 2 multiplies + 2 adds");
	is_double(rt_cpu_ops_per_cycle("GenuineIntel", 6, true, "fp32", "sse", "mul-add-chains"), 16,
		  0, "fp32 sse mul-add: 4 x 4 lanes");
	is_double(rt_cpu_ops_per_cycle("GenuineIntel", 6, true, "bf16", "avx512_bf16", "instruction"),
		  128, 0, "VDPBF16PS: 2 pipes x 16 lanes x 2 pairs x 2");
	is_double(rt_cpu_ops_per_cycle("GenuineIntel", 6, true, "fp16", "avx512_fp16", "instruction"),
		  128, 0, "VFMADD231PH: 2 x 32 x 2");
	is_double(rt_cpu_ops_per_cycle("GenuineIntel", 6, true, "int8", "avx512_vnni", "instruction"),
		  256, 0, "VPDPBUSD zmm: 2 x 16 lanes x 4 pairs x 2");
	is_double(rt_cpu_ops_per_cycle("GenuineIntel", 6, true, "int8", "avx_vnni", "instruction"),
		  128, 0, "VPDPBUSD ymm: 2 x 8 x 4 x 2");
	is_double(rt_cpu_ops_per_cycle("GenuineIntel", 6, true, "bf16", "amx_bf16", "instruction"),
		  1024, 0, "TDPBF16PS: 16x16x32 x 2 every 16 cycles");
	is_double(rt_cpu_ops_per_cycle("GenuineIntel", 6, true, "int8", "amx_int8", "instruction"),
		  2048, 0, "TDPBSSD: 16x16x64 x 2 every 16 cycles");
	/* Zen 4: 512-bit instructions on 256-bit pipes */
	is_double(rt_cpu_ops_per_cycle("AuthenticAMD", 25, true, "fp32", "avx512", "fma-chains"), 32, 0,
		  "Zen 4 fp32 avx512: the same as avx2");
	is_double(rt_cpu_ops_per_cycle("AuthenticAMD", 25, true, "bf16", "avx512_bf16", "instruction"),
		  64, 0, "Zen 4 VDPBF16PS: half of Intel's");
	is_double(rt_cpu_ops_per_cycle("AuthenticAMD", 26, true, "fp32", "avx512", "fma-chains"), 64, 0,
		  "Zen 5: full 512-bit pipes");
	is_double(rt_cpu_ops_per_cycle("GenuineIntel", 6, false, "fp32", "avx2", "fma-chains"), 32, 0,
		  "no AVX-512: 256-bit pipes");
	is_double(rt_cpu_ops_per_cycle("GenuineIntel", 6, true, "bf16", "avx512_core_bf16",
				       "onednn-matmul"), 0, 0, "oneDNN's rates have no theoretical peak");
	return done_testing();
}
