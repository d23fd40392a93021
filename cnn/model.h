/* model.h: CNN model descriptions (libconfig files), shape inference and the exact analytic
 * counts (FLOPs, compulsory bytes, parameters, activation bytes) per layer and image */
#ifndef RT_MODEL_H
#define RT_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/err.h"
#include "base/vocab.h"

#define RT_MODEL_MAX_LAYERS 4096
#define RT_MODEL_NAME_MAX 64

enum rt_layer_type {
	RT_LAYER_CONV, RT_LAYER_RELU, RT_LAYER_MAXPOOL, RT_LAYER_AVGPOOL, RT_LAYER_BATCHNORM,
	RT_LAYER_FC, RT_LAYER_DROPOUT, RT_LAYER_ADD, RT_LAYER_SOFTMAX_XENT, RT_LAYER_TYPE_COUNT,
};

/* "conv", "relu", "maxpool", "avgpool", "batchnorm", "fc", "dropout", "add", "softmax_xent" */
const char *rt_layer_type_name(enum rt_layer_type t);

struct rt_shape {
	long c, h, w;           /* per image */
};

static inline long rt_shape_elems(struct rt_shape s)
{
	return s.c * s.h * s.w;
}

/* A oneDNN primitive's problem in plain numbers, as a model's layer and a line of oneDNN's
 * verbose log both give it: one counting rule (rt_prim_count) for the trainer's model and the
 * log reader (counters/onednn-log.c), so that the two agree to the FLOP. */
enum rt_prim_op {
	RT_PRIM_CONV,           /* mb, ic, oc, g, i, o, k, s, d, p, bias, post */
	RT_PRIM_IP,             /* inner product: mb, ic, oc, i, bias, post */
	RT_PRIM_MAXPOOL, RT_PRIM_AVGPOOL,       /* mb, ic, i, o, k */
	RT_PRIM_ELTWISE,        /* elems, post */
	RT_PRIM_SUM,            /* binary (2 inputs) and sum: elems, inputs, post */
	RT_PRIM_BNORM,          /* batch and layer normalization: elems */
	RT_PRIM_SOFTMAX,        /* elems */
};
/* RT_PRIM_BWD: batch normalization's data and scale-shift gradients in one */
enum rt_prim_dir { RT_PRIM_FWD, RT_PRIM_BWD_DATA, RT_PRIM_BWD_WEIGHTS, RT_PRIM_BWD };
struct rt_prim {
	enum rt_prim_op op;
	double mb, elems;
	long ic, oc, g;
	long i[3], o[3], k[3], s[3], d[3], p[3];   /* depth, height, width; d: oneDNN's
						    * dilation, 0 for none */
	bool bias;
	int post, inputs;       /* post-ops after it (forward); a sum's inputs */
};
/* What a primitive does once: its FLOPs, the multiply-adds in them (conv, ip), and the
 * elements of the tensors it reads or writes, once each: src those shaped as its source (the
 * source, its gradient; a sum's every input), dst as its destination (its gradient too), wei
 * and bia its weights and bias (or their gradients). The caller weighs them by data type. */
struct rt_prim_work {
	double flops, macs, src, wei, bia, dst;
};
/* p's work in direction dir, by the formulas in cnn/README. */
struct rt_prim_work rt_prim_count(const struct rt_prim *p, enum rt_prim_dir dir);

/* Exact counts by the formulas in cnn/README (bytes by the element sizes of the model's
 * precision: see rt_model_set_precision). FLOPs and activation
 * bytes are per image; the *_wbytes (weights and their gradients) are per batch: a batch of N
 * moves N * bytes + wbytes. Compulsory bytes: every tensor a primitive reads or writes, once. */
struct rt_layer_counts {
	double fwd_flops, bwd_data_flops, bwd_weights_flops;
	double fwd_bytes, bwd_data_bytes, bwd_weights_bytes;
	double fwd_wbytes, bwd_data_wbytes, bwd_weights_wbytes;
	long params;                    /* weights + biases (BN: scale and shift) */
	double macs;                    /* conv, fc: forward multiply-adds executed (real input) */
	long kept_elems;                /* per image: output plus masks kept for backward */
};

struct rt_layer_desc {
	enum rt_layer_type type;
	char name[RT_MODEL_NAME_MAX];
	bool auto_name;                 /* the file gave none: TYPE and its place ("relu2") */
	int line;                       /* in the model file */
	int input;                      /* index of the layer feeding it; -1: the model input */
	int from;                       /* add: the other operand's layer index */
	long filters, kernel, stride, pad, groups;      /* conv; pool: kernel, stride, pad */
	bool bias;                      /* conv, fc */
	long outputs;                   /* fc */
	double rate;                    /* dropout */
	struct rt_shape in, out;
	struct rt_layer_counts n;
	bool needs_bwd_data;            /* false for layers fed only by the model input */
	bool fused;                     /* relu computed in the epilogue of the convolution that
					 * feeds only it (oneDNN post-op): no pass of its own in
					 * forward, its output is the convolution's buffer */
	bool bwd_folded;                /* relu whose only consumer is a max pool: the pool
					 * computes the relu's backward on its own output (a
					 * quarter of the elements for 2x2 windows), and no
					 * gradient buffer of the relu's output exists */
	bool folds_relu;                /* max pool: the one that does it */
	bool bwd_w_fp32;                /* bf16: a convolution on the model input with fewer than
					 * RT_BWD_W_FP32_CHANNELS channels computes its weight
					 * gradient in fp32, from the fp32 input and its output
					 * gradient cast to fp32 (oneDNN 2.6's AMX backward-weights
					 * kernel runs at ~8 GFLOP/s on LeNet-5's conv1) */
};

#define RT_BWD_W_FP32_CHANNELS 3

struct rt_model {
	char name[RT_MODEL_NAME_MAX];
	char path[4096];
	struct rt_shape input;
	long classes;
	long batch;                     /* the model's default batch */
	enum rt_precision precision;    /* what the byte counts assume (fp32 when loaded) */
	struct rt_layer_desc *layers;
	size_t nlayers;
};

/* Read and check a model: every error is "FILE:LINE: what is wrong", found before anything
 * else is allocated beyond the description. Caller owns *out (rt_model_destroy). */
int rt_model_load(struct rt_model **out, const char *path, struct rt_err *err);
/* Resolve NAME (a shipped model, cnn/models/NAME.cfg, looked up in $ROOFTRAJ_MODELS, the
 * source tree and the installed data directory) or a file path, then load it. */
int rt_model_open(struct rt_model **out, const char *name_or_path, struct rt_err *err);
void rt_model_destroy(struct rt_model *m);
/* The same model on an input of h x w pixels (channels unchanged): every layer's shape
 * follows, so the fully connected layers take the new flattened size. A size a layer cannot
 * take is an error naming the layer (its FILE:LINE and why); *m is kept then. */
int rt_model_reshape(struct rt_model **m, long h, long w, struct rt_err *err);

/* Count the bytes again for a precision (FLOPs do not depend on it). bf16: activations and
 * their gradients 2 bytes; weights read as bf16 by the primitives, after a cast of the fp32
 * master copy once per iteration (read 4, write 2 bytes) in forward; weight gradients,
 * biases, batch-norm scale and shift, the logits and the softmax stay fp32. */
void rt_model_set_precision(struct rt_model *m, enum rt_precision p);

/* Totals for a batch of n images: one training iteration. */
struct rt_model_totals {
	double fwd_flops, bwd_flops, update_flops;      /* bwd: data + weights */
	double fwd_bytes, bwd_bytes, update_bytes;
	long params, kept_elems, act_elems;             /* elems per image; act: every output */
};
void rt_model_totals(const struct rt_model *m, long n, struct rt_model_totals *t);

/* The forward multiply-accumulates of one image as the published tables count them
 * (torchvision's model documentation, the papers): each convolution's filters x output
 * height x width x input channels per group x kernel height x width, the padding included
 * (every output position's whole window), plus each fully connected layer's inputs x
 * outputs; no bias, no other layer. VGG-16 at 224x224: 15.47 G. The points use the executed
 * count instead (rt_model_totals: the multiply-adds on real input, x2 FLOPs, and every
 * layer's work). */
double rt_model_published_macs(const struct rt_model *m);

/* The work of each layer where its primitives run it, for a batch of n: a layer whose work
 * runs inside another layer's primitive (a fused relu's forward in its convolution's epilogue,
 * a folded relu's backward in its max pool) adds its FLOPs, bytes and measured time to that
 * host, whose name then names both ("conv1+relu1"); a layer left with no work of its own is
 * fused, and `where` says which hosts run it. The layers' FLOPs and bytes add up to the
 * iteration's forward and backward counts exactly. */
#define RT_LAYER_WORK_NAME 160
struct rt_layer_work {
	char name[RT_LAYER_WORK_NAME];  /* "conv1", "conv1+relu1", "pool1+relu1" */
	double fwd_flops, bwd_flops;    /* per batch */
	double fwd_bytes, bwd_bytes;
	double fwd_seconds, bwd_seconds;
	bool fused;                     /* no work of its own: no rate */
	char where[2 * RT_LAYER_WORK_NAME + 48];   /* fused: "forward in conv1+relu1, ..." */
};
/* out[m->nlayers]; t_fwd, t_bwd: each layer's measured seconds (NULL: zeros). */
void rt_model_layer_work(const struct rt_model *m, long n, const double *t_fwd,
			 const double *t_bwd, struct rt_layer_work *out);

/* FLOPs and bytes of one SGD step with momentum and weight decay, per parameter. */
#define RT_SGD_FLOPS_PER_PARAM 6       /* v = g + wd*w + mu*v (4); w -= lr*v (2) */
#define RT_SGD_BYTES_PER_PARAM 20      /* read w, g, v; write w, v: 5 x 4 bytes */

#endif
