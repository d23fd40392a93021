/* onednn-log.h: oneDNN's verbose log read as counts. Each primitive execution a program prints
 * (ONEDNN_VERBOSE=1 in oneDNN 2.x, DNNL_VERBOSE=1 before it, ONEDNN_VERBOSE=profile_exec in
 * 3.x) names its kind, direction, data types and problem: its FLOPs and compulsory bytes
 * follow exactly, by the trainer's rules (cnn/model.c: convolution taps on the padding are not
 * work), and its time is oneDNN's own. The format is oneDNN's documented one
 * (doc/performance_considerations/verbose.md in oneDNN 2.x and 3.x): a marker, optionally
 * "v1", then the fields that the "prim_template:" (3.x: "primitive,info,template:") header
 * names, or 2.x's fields when no header was printed. A graph partition's execution (3.x's
 * "graph,exec", fields by "graph,info,template:") is oneDNN's time too: counted where its ops
 * and tensors give the FLOPs exactly (a MatMul and element-wise ops after it), time only
 * otherwise. A point's precision is that of its math: the data type, lowered by an fpmath
 * attribute where the implementation's ISA has the lower math (AMX, a bf16 ISA), kept where it
 * has not (avx512_core, avx2: fp32 FMAs), and the highest it could be where the name does not
 * tell (prec_bound). */
#ifndef RT_ONEDNN_LOG_H
#define RT_ONEDNN_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include "base/util.h"
#include "base/vocab.h"

/* What a line of a program's output is. */
enum rt_onednn_line {
	RT_ONEDNN_OTHER,        /* not oneDNN's: the program's own output */
	RT_ONEDNN_INFO,         /* oneDNN's, not an execution (version, ISA, threads, template,
				 * create, dispatch, checks) */
	RT_ONEDNN_EXEC,         /* one primitive execution, read */
	RT_ONEDNN_UNPARSED,     /* oneDNN's marker, but not a line this reader understands */
};

/* What an execution line must hold to be read: a time of 0 (under the log's grain) or of a
 * nanosecond at least (no clock reads less: a shorter one's rate is none); tensors within
 * what a 64-bit process can address (2^57 bytes, x86-64's five-level paging), their product
 * of dimensions bounded though each dimension is. */
#define RT_ONEDNN_CLOCK_MIN_MS 1e-6
#define RT_ONEDNN_BYTES_MAX 0x1p57

/* One execution. */
struct rt_onednn_exec {
	char kind[32];          /* convolution, inner_product, reorder, ... ("pooling_v2" as
				 * "pooling": the same primitive) */
	char prop[24];          /* forward_training, backward_data, ...; "undef" */
	char impl[64];          /* jit:avx512_core, brg:avx512_core_bf16, ... */
	char dtype[12];         /* the source's data type (the first argument's without one) */
	const char *problem;    /* the benchdnn descriptor; a graph partition's op names and
				 * tensor dimensions ("" on other lines): the reader's text,
				 * good until it reads its next line */
	char fpmath[12];        /* the fpmath attribute's mode (bf16, f16, tf32, any); "" when
				 * none, strict, or a kind whose math it does not change */
	double ms;              /* oneDNN's time */
	double flops, bytes;    /* exact for the kinds counted; flops 0 for reorder, concat */
	bool counted;           /* false: work this reader cannot count (time without FLOPs) */
	enum rt_precision prec; /* of the math, from the data type, the fpmath attribute and
				 * the implementation's ISA; fp32 for any other type */
	bool prec_bound;        /* the log does not tell which math ran (f32 tensors, a lower
				 * fpmath mode, an implementation naming no ISA): prec is the
				 * highest it could have been */
	unsigned nthr;          /* RT_ONEDNN_INFO: the threads the runtime line names (0: none) */
	char version[48];       /* RT_ONEDNN_INFO: "v3.10.2" of "oneDNN v3.10.2 (commit ...)" */
	char runtime[24];       /* ... the CPU runtime line's "OpenMP" ("" on other lines) */
	char isa[200];          /* ... the CPU ISA line's words ("Intel AVX-512 with ...") */
	char why[96];           /* for RT_ONEDNN_UNPARSED: what did not read */
	double stamp_ms;        /* the execution's start as ONEDNN_VERBOSE_TIMESTAMP=1 prints it
				 * (gettimeofday, ms since the epoch, in 2.x and 3.x); 0: none */
	char from[24], to[24];  /* a reorder's source and destination layouts ("abcd",
				 * "aBcd16b"; each with its data type, "abcd f32", where the
				 * two differ; "" for other kinds or where not said) */
};

/* A reader: remembers the field layout of the last primitive and graph template headers, and
 * holds the line it reads (any length: a concat of many inputs prints a long one). */
struct rt_onednn_reader {
	char fields[16][24];
	size_t nfields;
	char gfields[16][24];
	size_t ngfields;
	struct rt_buf line;     /* the line read, its fields cut apart */
	struct rt_buf problem;  /* a graph partition's problem, as built from its fields */
};
void rt_onednn_reader_init(struct rt_onednn_reader *r);
void rt_onednn_reader_fini(struct rt_onednn_reader *r);

/* What line (len bytes, no newline needed, not NUL-terminated) is; for RT_ONEDNN_EXEC e is
 * filled, for RT_ONEDNN_UNPARSED e->why says what did not read. */
enum rt_onednn_line rt_onednn_read(struct rt_onednn_reader *r, const char *line, size_t len,
				   struct rt_onednn_exec *e);

/* What a reorder did: from one layout (and data type) to another, or a copy (the same on both
 * sides), on tensors of one shape (its problem, "16x3x32x32"), its calls and oneDNN's time. */
#define RT_ONEDNN_MAX_CONVS 128
struct rt_onednn_conv {
	char from[24], to[24], dims[40];
	unsigned long calls;
	double ms;
};

/* A tally of executions: the totals, and each distinct primitive (kind, direction, data type,
 * problem) with its calls. */
struct rt_onednn_prim {
	char kind[32], prop[24], impl[64], dtype[12], fpmath[12];
	char *problem;          /* the tally's copy (rt_onednn_tally_free frees it) */
	bool counted;
	enum rt_precision prec;
	bool prec_bound;
	unsigned long calls;
	double ms, flops, bytes;
};
struct rt_onednn_tally {
	struct rt_onednn_prim *v;
	size_t n, cap;
	size_t *slots;          /* open addressing: index + 1, 0 empty */
	size_t nslots;
	unsigned long execs, unparsed, uncounted;
	unsigned long stamped;  /* executions with a timestamp (ONEDNN_VERBOSE_TIMESTAMP=1) */
	double ms, flops, bytes, uncounted_ms;
	unsigned nthr;          /* the most threads a runtime line named (0: none) */
	char version[48], runtime[24], isa[200];        /* the first info lines' ("": none came) */
	unsigned instances;     /* version lines that came: each process that loaded oneDNN
				 * prints its own (a command of several processes, DDP's ranks) */
	char first_unparsed[160];       /* the first unparsed line, cut */
	char first_unparsed_why[96];
	bool oom;               /* a primitive could not be recorded (totals stay right) */
	struct rt_onednn_conv convs[RT_ONEDNN_MAX_CONVS];       /* the reorders' conversions
					 * (the first RT_ONEDNN_MAX_CONVS distinct ones) */
	size_t nconvs;
};
void rt_onednn_tally_init(struct rt_onednn_tally *t);
void rt_onednn_tally_add(struct rt_onednn_tally *t, const struct rt_onednn_exec *e);
void rt_onednn_tally_unparsed(struct rt_onednn_tally *t, const char *line, size_t len,
			      const char *why);
/* A line as rt_onednn_read classed it: an execution added, an unread line counted (the first
 * named), the info lines' version, CPU runtime, threads and ISA kept; the program's own lines
 * leave the tally alone. An execution whose math the implementation's name does not tell
 * (prec_bound) ran fp32 where the log's ISA line, said before it, names an ISA without the
 * lower math (rt_onednn_isa_has: "Intel AVX2", an AVX-512 without bfloat16): the highest it
 * could have had there. */
void rt_onednn_tally_line(struct rt_onednn_tally *t, enum rt_onednn_line k,
			  const struct rt_onednn_exec *e, const char *line, size_t len);
void rt_onednn_tally_free(struct rt_onednn_tally *t);
/* The primitives by oneDNN's time, heaviest first (once the tally is complete: its index is
 * not kept). */
void rt_onednn_tally_sort(struct rt_onednn_tally *t);

/* The precision of the math an implementation runs on f32 tensors under an fpmath mode
 * ("bf16", "any", "f16", any case; NULL, "" or "strict": fp32): the lower precision where
 * impl's ISA has its instructions (AMX, a bf16 or fp16 ISA, AVX10), fp32 where every part of
 * impl is of an ISA with fp32 FMAs only, and the lower one with *bound set where impl names no
 * ISA (the highest roof the work could have had). One rule for a log's primitives and the
 * trainer's points. */
enum rt_precision rt_onednn_f32_math(const char *fpmath, const char *impl, bool *bound);
/* Whether the CPU ISA oneDNN's info line names ("Intel AVX-512 with Intel DL Boost and bfloat16
 * support", "Intel AVX2") has the instructions of math in precision prec (bf16: bfloat16, AMX
 * or AVX10; fp16: float16 or AVX10; fp32 and any other: true). */
bool rt_onednn_isa_has(const char *isa, enum rt_precision prec);

/* The minibatch (mb) and output height (oh) of a convolution's or pooling's problem
 * descriptor ("mb48_ic24oc48_ih32oh32..."), as the counts read it; -1 each where the problem
 * is not such a descriptor or does not give it. */
void rt_onednn_problem_mb_oh(const char *problem, long *mb, long *oh);
/* Whether dims (a reorder's problem, "16x3x32x32") are the shape of the source or destination
 * of the convolution whose problem descriptor is conv ("mb16_ic3oc32_ih32oh32kh3..."): its
 * activations (minibatch, channels, then the spatial sizes), not its weights. */
bool rt_onednn_conv_activation(const char *conv, const char *dims);

#endif
