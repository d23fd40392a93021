/* onednn-log.h: oneDNN's verbose log read as counts. Each primitive execution a program prints
 * (ONEDNN_VERBOSE=1 in oneDNN 2.x, DNNL_VERBOSE=1 before it, ONEDNN_VERBOSE=profile_exec in
 * 3.x) names its kind, direction, data types and problem: its FLOPs and compulsory bytes
 * follow exactly, by the trainer's rules (cnn/model.c: convolution taps on the padding are not
 * work), and its time is oneDNN's own. The format is oneDNN's documented one
 * (doc/performance_considerations/verbose.md in oneDNN 2.x and 3.x): a marker, optionally
 * "v1", then the fields that the "prim_template:" header names, or 2.x's fields when no header
 * was printed. */
#ifndef RT_ONEDNN_LOG_H
#define RT_ONEDNN_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include "base/vocab.h"

/* What a line of a program's output is. */
enum rt_onednn_line {
	RT_ONEDNN_OTHER,        /* not oneDNN's: the program's own output */
	RT_ONEDNN_INFO,         /* oneDNN's, not an execution (version, ISA, template, create) */
	RT_ONEDNN_EXEC,         /* one primitive execution, read */
	RT_ONEDNN_UNPARSED,     /* oneDNN's marker, but not a line this reader understands */
};

/* One execution. */
struct rt_onednn_exec {
	char kind[32];          /* convolution, inner_product, reorder, ... ("pooling_v2" as
				 * "pooling": the same primitive) */
	char prop[24];          /* forward_training, backward_data, ...; "undef" */
	char impl[64];          /* jit:avx512_core, brg:avx512_core_bf16, ... */
	char dtype[12];         /* the source's data type (the first argument's without one) */
	char problem[200];      /* the benchdnn descriptor */
	double ms;              /* oneDNN's time */
	double flops, bytes;    /* exact for the kinds counted; flops 0 for reorder, concat */
	bool counted;           /* false: a kind this reader cannot count (time without FLOPs) */
	int prec;               /* of the FLOPs: an index in rt_vocab_precisions (fp64 fp32
				 * bf16 fp16 int8), from the data type; fp32 for any other */
	char why[96];           /* for RT_ONEDNN_UNPARSED: what did not read */
};

/* A reader: remembers the field layout of the last "prim_template:" header. */
struct rt_onednn_reader {
	char fields[16][24];
	size_t nfields;
};
void rt_onednn_reader_init(struct rt_onednn_reader *r);

/* What line (len bytes, no newline needed, not NUL-terminated) is; for RT_ONEDNN_EXEC e is
 * filled, for RT_ONEDNN_UNPARSED e->why says what did not read. */
enum rt_onednn_line rt_onednn_read(struct rt_onednn_reader *r, const char *line, size_t len,
				   struct rt_onednn_exec *e);

/* A tally of executions: the totals, and each distinct primitive (kind, direction, data type,
 * problem) with its calls. */
struct rt_onednn_prim {
	char kind[32], prop[24], impl[64], dtype[12], problem[200];
	bool counted;
	int prec;
	unsigned long calls;
	double ms, flops, bytes;
};
struct rt_onednn_tally {
	struct rt_onednn_prim *v;
	size_t n, cap;
	size_t *slots;          /* open addressing: index + 1, 0 empty */
	size_t nslots;
	unsigned long execs, unparsed, uncounted;
	double ms, flops, bytes, uncounted_ms;
	char first_unparsed[160];       /* the first unparsed line, cut */
	char first_unparsed_why[96];
	bool oom;               /* a primitive could not be recorded (totals stay right) */
};
void rt_onednn_tally_init(struct rt_onednn_tally *t);
void rt_onednn_tally_add(struct rt_onednn_tally *t, const struct rt_onednn_exec *e);
void rt_onednn_tally_unparsed(struct rt_onednn_tally *t, const char *line, size_t len,
			      const char *why);
void rt_onednn_tally_free(struct rt_onednn_tally *t);
/* The primitives by oneDNN's time, heaviest first (once the tally is complete: its index is
 * not kept). */
void rt_onednn_tally_sort(struct rt_onednn_tally *t);

#endif
