/* cmd-knobs.h: roofline-run's named knobs, what people tune on a CPU node besides the threads:
 * the memory allocator (LD_PRELOAD), oneDNN's fp32 math mode and ISA cap, the NUMA binding
 * (numactl), each checked against this node when given (its identity and library directories
 * read under ROOFTRAJ_SYSROOT when a test gives one), and the alternatives --sweep tune
 * measures on this node. */
#ifndef RT_CMD_KNOBS_H
#define RT_CMD_KNOBS_H

#include <stdbool.h>
#include <stddef.h>
#include "base/err.h"

#define RT_CMD_KNOB_VALUES 16
#define RT_CMD_KNOB_PATH 512

enum rt_cmd_knob_kind {
	RT_CMD_KNOB_ALLOCATOR,          /* LD_PRELOAD of a malloc library */
	RT_CMD_KNOB_FPMATH,             /* ONEDNN_DEFAULT_FPMATH_MODE */
	RT_CMD_KNOB_ISA,                /* ONEDNN_MAX_CPU_ISA */
	RT_CMD_KNOB_NUMA,               /* numactl's binding */
	RT_CMD_NKNOBS
};

/* One value of a knob: the word the configuration is named by, and what it does: the library
 * to preload (allocator; "" for default), NAME=VALUE for the environment (fpmath, isa; a
 * NAME= alone unsets it), or numactl's options, space-separated ("" for none: no numactl). */
struct rt_cmd_knob_value {
	char word[48];
	char arg[RT_CMD_KNOB_PATH];
};

struct rt_cmd_knob {
	enum rt_cmd_knob_kind kind;
	struct rt_cmd_knob_value v[RT_CMD_KNOB_VALUES];
	size_t n;
};

/* The knob's name ("allocator", "fpmath", "isa", "numa"). */
const char *rt_cmd_knob_name(enum rt_cmd_knob_kind kind);

/* Whether spec ("allocator=jemalloc,tcmalloc", "numa") names a named knob: *kind set. */
bool rt_cmd_knob_named(const char *spec, enum rt_cmd_knob_kind *kind);

/* A --sweep argument of a named knob parsed into k, each value checked against this node: an
 * allocator library found through the loader's paths, bf16 math offered by the CPU (AMX or
 * AVX512-BF16), an ISA oneDNN names that this CPU has, a NUMA binding of this node's nodes
 * (more than one) with numactl installed (its path into *numactl where that is NULL: the
 * caller frees it). -EINVAL naming the option, the value and the reason (the Debian package
 * that is missing). */
int rt_cmd_knob_parse(struct rt_cmd_knob *k, const char *spec, char **numactl,
		      struct rt_err *err);

/* The knob as --sweep spells it, its values listed ("allocator=default,jemalloc"), into buf. */
void rt_cmd_knob_spec(const struct rt_cmd_knob *k, char *buf, size_t size);

/* The NUMA nodes of this node (/sys/devices/system/node under ROOFTRAJ_SYSROOT; 1 when the
 * kernel shows none). */
unsigned rt_cmd_numa_nodes(void);

/* --sweep tune's alternatives on this node, as "KNOB=VALUE" words into alt (at most cap):
 * threads set to every usable CPU (cpus), each allocator installed, fpmath=bf16 where the CPU
 * has bf16 math, numa=interleave and numa=bind:0 where there are several NUMA nodes and
 * numactl; what the node lacked said in lacked ("" when nothing). Returns how many. */
size_t rt_cmd_tune_alternatives(char (*alt)[64], size_t cap, unsigned cpus, char *lacked,
				size_t lsize);

#endif
