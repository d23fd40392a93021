/* net.h: a CNN made of oneDNN primitives, built from a model description for one batch size:
 * forward (training), backward data and weights, SGD with momentum and weight decay */
#ifndef RT_NET_H
#define RT_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/err.h"
#include "cnn/model.h"

struct rt_net;

/* Max pooling whose window equals its stride: oneDNN's pooling primitive (training forward
 * with a workspace of argmax positions, and its backward), or split (cnn/layer-pool.c:
 * inference pooling forward; backward by a reorder, binary compares and a reorder; the same
 * bits); auto: the faster of the two, timed on the net's buffers when it is built. */
enum rt_pool_impl { RT_POOL_AUTO, RT_POOL_ONEDNN, RT_POOL_SPLIT, RT_POOL_IMPL_COUNT };
const char *rt_pool_impl_name(enum rt_pool_impl p);
int rt_pool_impl_parse(const char *s, enum rt_pool_impl *p);

struct rt_net_opts {
	long batch;
	uint64_t seed;                  /* weights and dropout masks */
	double lr, momentum, weight_decay;
	bool plain;                     /* plain layouts (nchw, oihw) instead of oneDNN's choice */
	enum rt_precision precision;    /* fp32, or bf16 with fp32 master weights */
	enum rt_pool_impl maxpool;      /* auto */
	long pool_chunk;                /* the split max pooling's backward: images a chunk, a
					 * divisor of the batch (0: from its working set and the
					 * threads; the tests set it) */
	int rank, ranks;                /* data parallelism: this process's shard of a global
					 * batch of batch x ranks images (0 and 1 alone) */
};

/* Called after each layer's backward with each of its weight gradients (fp32, in place; the
 * layout does not matter to an elementwise sum): data-parallel training starts summing them
 * over the ranks while the earlier layers' backward runs. */
typedef int (*rt_net_grad_hook)(void *ctx, float *grad, size_t count, struct rt_err *err);
void rt_net_set_grad_hook(struct rt_net *n, rt_net_grad_hook hook, void *ctx);

/* Defaults: the model's batch, seed 1, lr 0.01, momentum 0.9, weight decay 5e-4, fp32, one
 * rank. */
void rt_net_opts_default(struct rt_net_opts *o, const struct rt_model *m);

/* The bytes a net of the model needs at a batch, from its shapes (oneDNN's padding aside):
 * weights, their gradients and momentum (12 bytes per parameter; bf16 adds the 2-byte copy
 * the primitives read), the activations kept for backward and their gradients (4 or 2 bytes
 * per element), and the input batch. */
double rt_net_estimate_bytes(const struct rt_model *m, long batch, enum rt_precision p);

/* How this CPU runs bf16 primitives: 0 and a label ("amx", "avx512_bf16", "avx512_core
 * (emulated)") or -ENOTSUP with the reason (oneDNN needs AVX-512 for bf16). Follows
 * ONEDNN_MAX_CPU_ISA. */
int rt_net_bf16_support(char *label, size_t size, struct rt_err *err);

/* Build the net: every primitive, reorder and buffer is created here, none in the iteration.
 * A net that would need more than the memory available (MemAvailable) is refused first, with
 * the size it would need (-ENOMEM). The model is borrowed and must outlive the net. Caller owns
 * *out (rt_net_destroy). */
int rt_net_create(struct rt_net **out, const struct rt_model *m, const struct rt_net_opts *o,
		  struct rt_err *err);
void rt_net_destroy(struct rt_net *n);

/* The input batch in plain NCHW (batch x C x H x W floats) and its labels; borrowed. */
float *rt_net_input(struct rt_net *n);
int32_t *rt_net_labels(struct rt_net *n);

/* The phases of one training iteration. load_input: reorders the user batch into the first
 * layers' layouts (the data phase). forward: every layer but the loss. loss: softmax and
 * cross-entropy (and its gradient). backward: data and weight gradients. update: SGD. */
int rt_net_load_input(struct rt_net *n, struct rt_err *err);
int rt_net_forward(struct rt_net *n, struct rt_err *err);
int rt_net_loss(struct rt_net *n, double *loss, double *accuracy, struct rt_err *err);
int rt_net_backward(struct rt_net *n, struct rt_err *err);
int rt_net_update(struct rt_net *n, struct rt_err *err);

/* The iteration number, which selects the dropout masks (train.c sets it each step; a test
 * holds it to evaluate the same function twice). */
void rt_net_set_iteration(struct rt_net *n, uint64_t iteration);

/* oneDNN's implementation of layer i's forward primitive ("brg:avx512_core_amx_bf16", ...),
 * or "" for layers without one; and that of the layer with the most forward FLOPs. */
const char *rt_net_layer_impl(const struct rt_net *n, size_t i);
const char *rt_net_main_impl(const struct rt_net *n);

/* Test access: layer i's output (which 0) or the gradient with respect to it (1) as plain
 * fp32, cnt elements (batch x the output's shape). A max pool that does a relu's backward
 * selects that gradient in place: once its backward ran, the gradient reads as selected
 * (zero where the output is not positive). */
int rt_net_activation(struct rt_net *n, size_t i, int which, float *buf, size_t cnt,
		      struct rt_err *err);

/* Seconds spent in layer i's forward and backward primitives since the last reset. */
void rt_net_layer_seconds(const struct rt_net *n, size_t i, double *fwd, double *bwd);
void rt_net_reset_seconds(struct rt_net *n);
/* A digest of the master weights (every weight and bias in plain order): an FNV-1a hash of
 * their bits, their sum and their L2 norm. Two nets with bit-identical weights have the same
 * hash. */
int rt_net_digest(struct rt_net *n, uint64_t *hash, double *sum, double *norm,
		  struct rt_err *err);

/* Seconds spent inside oneDNN primitives (every execute call) since the last reset. */
double rt_net_primitive_seconds(const struct rt_net *n);

/* Bytes allocated, by what they hold. total is the sum of the others and is also counted
 * independently as the net allocates, so the two can be compared. */
struct rt_net_memory {
	uint64_t weights, weight_grads, optimizer, activations, activation_grads, workspace;
	uint64_t total, allocated;
	/* What a forward-only (inference) pass of this net needs of the tensors it allocated:
	 * the weights forward reads, the input, the activations alive at the busiest layer
	 * (each output freed after its last reader, none kept for backward) and the
	 * scratchpad; no gradients, no optimizer state. From the real tensors' sizes (oneDNN's
	 * layouts, padding included), not from a formula. */
	uint64_t inference;
};
void rt_net_memory(const struct rt_net *n, struct rt_net_memory *mem);
/* Bytes layer i allocated for each category (workspace excludes the shared scratchpad). */
void rt_net_layer_memory(const struct rt_net *n, size_t i, struct rt_net_memory *mem);

/* Test access to parameters and their gradients in plain order (oihw or oi; BN: scale then
 * shift): which = 0 weights, 1 bias. Slow (reorders); not for the iteration loop. */
int rt_net_param(struct rt_net *n, size_t layer, int which, size_t idx, float *val, bool set,
		 struct rt_err *err);
int rt_net_grad(struct rt_net *n, size_t layer, int which, size_t idx, float *val,
		struct rt_err *err);
/* Number of plain elements of a layer's weights (which 0) or bias (1); 0 if none. */
size_t rt_net_param_count(const struct rt_net *n, size_t layer, int which);

#endif
