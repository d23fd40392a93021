/* net-internal.h: what the layer files (cnn/layer-*.c) share with net.c */
#ifndef RT_NET_INTERNAL_H
#define RT_NET_INTERNAL_H

#include <stdint.h>
#include "machine/dnnl.h"
#include "cnn/net.h"

enum mem_cat { CAT_WEIGHTS, CAT_WGRADS, CAT_OPT, CAT_ACT, CAT_AGRADS, CAT_WORK, CAT_COUNT };

struct rt_net_layer;

/* A layer type's backend: a const table, as hwloc's discovery components. */
struct rt_layer_ops {
	/* create the forward and backward primitives and the layer's own buffers; set out_md
	 * and out. Producers are created before consumers. */
	int (*create)(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err);
	int (*forward)(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err);
	/* write the input gradient to L->gdst[k] (then net.c accumulates if needed) and the
	 * weight gradients */
	int (*backward)(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err);
	/* optional: once every layer exists, its gradients are routed and the shared buffers
	 * (scratchpad, slots) are allocated */
	int (*finish)(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err);
	/* optional: free the layer's private state (L->priv: what create and finish made
	 * beyond the fields every layer has), the block included */
	void (*destroy)(struct rt_net_layer *L);
	/* optional: the data phase's share, once the model input is loaded */
	int (*load)(struct rt_net *n, struct rt_net_layer *L, struct rt_err *err);
	/* optional: the implementation that runs, when not the forward pd's */
	const char *(*impl)(const struct rt_net_layer *L);
};

extern const struct rt_layer_ops rt_layer_conv_ops, rt_layer_fc_ops, rt_layer_relu_ops,
	rt_layer_dropout_ops, rt_layer_pool_ops, rt_layer_bn_ops, rt_layer_add_ops,
	rt_layer_loss_ops;

/* Where a layer's input gradient goes: the producer's gradient buffer directly (first
 * writer in backward order) or a temporary that a binary add folds into it. */
struct rt_grad_sink {
	int producer;                   /* -1: the model input, no gradient */
	dnnl_memory_t dst;              /* what the layer writes */
	dnnl_primitive_t acc;           /* producer dout += dst, or NULL when dst is dout */
	dnnl_primitive_t copy;          /* add layers: reorder dout(add) -> producer dout */
};

struct rt_net_layer {
	const struct rt_layer_desc *d;
	const struct rt_layer_ops *ops;
	size_t index;
	rt_md_t out_md;                 /* the descriptors are the layer's, destroyed with it */
	rt_md_t dout_md;                /* the gradient's: out_md but for bf16 logits (fp32 out) */
	dnnl_memory_t out, dout;        /* output and the loss's gradient with respect to it */
	dnnl_memory_t src;              /* the input as the primitive reads it */
	dnnl_primitive_t reorder_in;    /* input (model input or producer's layout) -> src */
	dnnl_memory_t dsrc;             /* data gradient in the primitive's layout, when it differs */
	dnnl_memory_t src4, dsrc4;      /* fc on a 4-D input: src and dsrc (2-D, flattened) seen
					 * as the plain 4-D tensors the reorders write and read */
	dnnl_primitive_t reorder_dsrc;  /* dsrc -> the producer's layout */
	dnnl_primitive_t fwd, bwd_d, bwd_w;
	dnnl_primitive_desc_t fwd_pd;   /* kept as the hint for backward */
	/* parameters: weights (BN: scale and shift), bias, their gradients and momentum */
	dnnl_memory_t w, b, dw, db, vw, vb;
	rt_md_t w_plain_md, b_plain_md;
	dnnl_memory_t wc;               /* weights as forward reads them, when w (the master copy
					 * SGD updates) differs: bf16 */
	dnnl_primitive_t w_cast;        /* w -> wc, once per iteration before forward */
	dnnl_memory_t w_bwd;            /* weights in backward data's layout, when it differs */
	dnnl_primitive_t w_reorder;     /* w -> w_bwd, once per iteration before backward */
	void *priv;                     /* the layer type's own state (pool workspace, BN
					 * statistics, dropout mask, ...): its layer-*.c
					 * allocates it (rt_net_priv) and frees it (destroy) */
	struct rt_grad_sink sink[2];       /* [0] input, [1] add's second operand */
	size_t nsinks;
	int consumers;
	double t_fwd, t_bwd;
	uint64_t bytes[CAT_COUNT];
};

struct rt_net {
	const struct rt_model *m;
	struct rt_net_opts o;
	dnnl_engine_t eng;
	dnnl_stream_t strm;
	struct rt_net_layer *L;
	size_t nl;
	dnnl_memory_t input;            /* user batch, NCHW */
	rt_md_t input_md;
	int32_t *labels;
	dnnl_memory_t scratch;          /* one user-mode scratchpad for every primitive */
	size_t scratch_bytes;
	/* every parameter tensor (weights, biases, batch-norm scale and shift), its gradient
	 * and its momentum live in three arenas at the same offsets, so SGD is two primitives
	 * over the whole model: v = g + wd*w + mu*v; w -= lr*v */
	struct {
		uint8_t *base[3];       /* w, g, v: reserved address space, touched as used */
		size_t cap, used;
		dnnl_memory_t flat[3];  /* [0, used) of each as 1-D views */
		dnnl_primitive_t sgd[2];
		float scale[2];                 /* wd and -lr: the scales of SRC_1 in sgd[] */
		dnnl_memory_t scale_mem[2];     /* each as a memory (3.x reads them so) */
	} par;
	dnnl_memory_t slots;            /* max pools' split backward: one at a time */
	size_t slot_bytes;
	dnnl_primitive_attr_t attr;     /* scratchpad mode user */
	dnnl_primitive_attr_t attr_relu;        /* and a relu post-op: fused conv + relu */
	dnnl_data_type_t adt;           /* activations and their gradients: f32 or bf16 */
	uint64_t bytes[CAT_COUNT];
	uint64_t allocated;
	uint64_t iteration;             /* dropout masks vary per iteration */
	double prim_seconds;            /* inside dnnl_primitive_execute since the last reset */
	double loss, accuracy;
	rt_net_grad_hook grad_hook;
	void *grad_ctx;
};

/* ---- oneDNN helpers (net-dnnl.c) ---- */
int rt_net_dnnl_fail(struct rt_err *err, dnnl_status_t st, const struct rt_net_layer *L, const char *what);
#define DNNL_CHECK(call, what)                                                                 \
	do {                                                                                    \
		dnnl_status_t st_ = (call);                                                     \
		if (st_ != dnnl_success)                                                        \
			return rt_net_dnnl_fail(err, st_, L, what);                             \
	} while (0)

/* The layer's private state of size bytes, zeroed, made on the first call (the layer type's
 * destroy frees it); NULL with err set when out of memory. */
void *rt_net_priv(struct rt_net_layer *L, size_t size, struct rt_err *err);
/* Allocate a memory for md counted in category cat of layer L (NULL: the net). */
int rt_net_mem(struct rt_net *n, struct rt_net_layer *L, dnnl_memory_t *m, const_rt_md_t md,
	       enum mem_cat cat, struct rt_err *err);
/* Create the primitive of pd, which a machine/dnnl.h call made with n->attr (scratchpad in
 * user mode) and returned st for: the scratchpad grown to pd's. Takes pd: keeps it in *pd_out
 * when not NULL (caller destroys), else destroys it. */
int rt_net_prim(struct rt_net *n, struct rt_net_layer *L, dnnl_status_t st,
		dnnl_primitive_desc_t pd, dnnl_primitive_t *prim, dnnl_primitive_desc_t *pd_out,
		const char *what, struct rt_err *err);
/* Whether a pd is oneDNN's reference code (slow C++ loops): what the layers avoid. */
bool rt_net_is_ref(const_dnnl_primitive_desc_t pd);
/* Execute with the scratchpad appended, timed into the net's time inside primitives. */
int rt_net_exec(struct rt_net *n, struct rt_net_layer *L, dnnl_primitive_t p, int nargs,
		dnnl_exec_arg_t *args, struct rt_err *err);
/* The same on stream s, untimed (a thread of a parallel region times the region); at most 15
 * arguments. */
dnnl_status_t rt_net_run(const struct rt_net *n, dnnl_stream_t s, dnnl_primitive_t p, int nargs,
			 const dnnl_exec_arg_t *args);
/* Fill a memory with test values in [-1, 1) from seed (through a plain fp32 copy and a
 * reorder, so padding stays zero): for timing trials at creation. */
int rt_net_fill(struct rt_net *n, struct rt_net_layer *L, dnnl_memory_t m, uint64_t seed,
		struct rt_err *err);
/* Reorder primitive from src md to dst md. */
int rt_net_reorder(struct rt_net *n, struct rt_net_layer *L, const_rt_md_t from,
		   const_rt_md_t to, dnnl_primitive_t *prim, struct rt_err *err);
/* The memory descriptor of the layer's input (the producer's output or the model input). */
const_rt_md_t rt_net_in_md(const struct rt_net *n, const struct rt_net_layer *L);
dnnl_memory_t rt_net_in_mem(const struct rt_net *n, const struct rt_net_layer *L);
/* A plain md of dims with the plain tag for its rank: fp32, or in the activation type
 * (replacing *md, as rt_md_tag does). */
void rt_net_plain_md(rt_md_t *md, int ndims, const dnnl_dims_t dims);
void rt_net_act_plain_md(const struct rt_net *n, rt_md_t *md, int ndims,
			 const dnnl_dims_t dims);
/* After a weighted layer's forward pd exists and rt_net_params made the master weights: the
 * copy forward reads (fwd_w, in the activation type) and its cast, when it differs from the
 * master; then the weights backward data reads (bwd_w_md) and its reorder, when it differs
 * from forward's. */
int rt_net_weight_copies(struct rt_net *n, struct rt_net_layer *L, const_rt_md_t fwd_w,
			 const_rt_md_t bwd_w_md, struct rt_err *err);
/* A one-off reorder between two memories, with oneDNN's own scratchpad (initialization and
 * test access, outside the iteration loop). */
int rt_net_reorder_now(struct rt_net *n, struct rt_net_layer *L, dnnl_memory_t from, dnnl_memory_t to,
		       struct rt_err *err);
/* Write plain fp32 values into a memory of any layout (through a reorder). */
int rt_net_write_plain(struct rt_net *n, struct rt_net_layer *L, dnnl_memory_t dst,
		       const_rt_md_t plain, const float *vals, struct rt_err *err);
int rt_net_zero_mem(dnnl_memory_t m);
/* xorshift64*: the net's only randomness, seeded, so two runs are identical */
uint64_t rt_net_rng_next(uint64_t *s);

/* ---- parameters and SGD (net-params.c) ---- */
/* Reserve the three arenas' address space (bounded by the model's parameter count). */
int rt_net_params_reserve(struct rt_net *n, struct rt_err *err);
/* Once every layer has its parameters: the two SGD primitives over the arenas. */
int rt_net_params_sgd(struct rt_net *n, struct rt_err *err);
void rt_net_params_free(struct rt_net *n);
/* fp32 to bf16 with round to nearest even (NaN stays NaN). */
static inline uint16_t rt_bf16(float f)
{
	union { float f; uint32_t u; } v = { f };

	if ((v.u & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((v.u >> 16) | 0x40);
	return (uint16_t)((v.u + 0x7fffu + ((v.u >> 16) & 1)) >> 16);
}
/* Set up a layer's parameters after its pd exists: w (and b) in the given mds, initialized
 * from the seed (He-uniform weights, zero bias; BN: scale 1, shift 0), gradients, momentum
 * and the SGD primitives. */
int rt_net_params(struct rt_net *n, struct rt_net_layer *L, const_rt_md_t w_md,
		  const_rt_md_t w_plain, const_rt_md_t b_md,
		  long fan_in, bool bn, struct rt_err *err);

#endif
