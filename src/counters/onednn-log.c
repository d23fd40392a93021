/* onednn-log.c: oneDNN's verbose lines read as exact FLOPs and compulsory bytes.
 *
 * A line is "MARKER[,v1],FIELDS..." where MARKER is onednn_verbose (dnnl_verbose before
 * oneDNN 2.0). oneDNN 2.x prints the fields operation, engine, primitive, implementation,
 * prop_kind, memory_descriptors, attributes, auxiliary, problem_desc, exec_time, and names them
 * in an "info,prim_template:" header; 3.x adds "v1" and an event class ("primitive") before the
 * operation, a timestamp first when ONEDNN_VERBOSE_TIMESTAMP=1, and writes a memory descriptor
 * "src:f32::blocked:acdb::f0" where 2.x wrote "src_f32::blocked:acdb:f0". The problem is
 * benchdnn's descriptor: "mb8_ic3oc64_ih32oh32kh3sh1dh0ph1_iw32ow32kw3sw1dw0pw1" for a
 * convolution, dimensions "8x64x32x32" (":"-separated per input) for most others.
 *
 * The counting rules (FLOPs per execution; bytes: each tensor the primitive reads or writes,
 * once, in its data type):
 *   convolution: 2 per multiply-add on a real input (taps on the padding are not work: the
 *     trainer's rule), + 1 per output for a bias (forward, backward weights), + 1 per output
 *     for each post-op; groups and dilation honoured
 *   inner_product: 2 * mb * oc * ic * spatial, + bias as above; matmul: 2 * batch * M * N * K
 *   pooling: max (window - 1) per output forward, 1 backward; average window forward,
 *     window + 1 backward (the trainer's rules)
 *   eltwise, binary: 1 per element; sum: inputs - 1 per element; softmax: 5 per element
 *     forward (max, subtract, exp, sum, scale), 3 backward; batch and layer normalization: 8
 *     per element forward, 6 backward data, 11 backward with scale and shift (the trainer's)
 *   reorder, concat: no FLOPs, their bytes (pure-bandwidth points)
 *   any other kind: its time, no FLOPs ("counted" false)
 */
#include "config.h"
#include "counters/onednn-log.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE 8192
#define MAX_TOKENS 24

/* 2.x's fields after the marker when no header names them */
static const char *const default_fields[] = { "operation", "engine", "primitive",
					      "implementation", "prop_kind",
					      "memory_descriptors", "attributes", "auxiliary",
					      "problem_desc", "exec_time" };

void rt_onednn_reader_init(struct rt_onednn_reader *r)
{
	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < sizeof(default_fields) / sizeof(default_fields[0]); i++)
		snprintf(r->fields[i], sizeof(r->fields[i]), "%s", default_fields[i]);
	r->nfields = sizeof(default_fields) / sizeof(default_fields[0]);
}

static int field_index(const struct rt_onednn_reader *r, const char *name)
{
	for (size_t i = 0; i < r->nfields; i++)
		if (!strcmp(r->fields[i], name))
			return (int)i;
	return -1;
}

static bool is_number(const char *s)
{
	char *end;

	if (!*s)
		return false;
	strtod(s, &end);
	return !*end;
}

/* Bytes of one element of a oneDNN data type; 0 for undef or one not known. */
static double dt_size(const char *dt)
{
	static const struct { const char *name; double size; } t[] = {
		{ "f32", 4 }, { "bf16", 2 }, { "f16", 2 }, { "s8", 1 }, { "u8", 1 },
		{ "s32", 4 }, { "f64", 8 }, { "f8_e5m2", 1 }, { "f8_e4m3", 1 }, { "s4", 0.5 },
		{ "u4", 0.5 }, { "boolean", 1 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(dt, t[i].name))
			return t[i].size;
	return 0;
}

static int dt_prec(const char *dt)
{
	if (!strcmp(dt, "f64"))
		return 0;
	if (!strcmp(dt, "bf16"))
		return 2;
	if (!strcmp(dt, "f16"))
		return 3;
	if (!strcmp(dt, "s8") || !strcmp(dt, "u8"))
		return 4;
	return 1;
}

/* The memory descriptors: each argument's name ("src", "wei", "bia", "dst", "ws", "data"
 * and "diff" for eltwise; a "diff_" prefix dropped) and data type. */
struct md {
	char arg[16], dt[12];
};

static size_t read_mds(char *s, struct md *mds, size_t max)
{
	size_t n = 0;

	for (char *save = NULL, *tok = strtok_r(s, " ", &save); tok && n < max;
	     tok = strtok_r(NULL, " ", &save)) {
		char *colon = strchr(tok, ':'), *us;
		const char *arg = tok, *dt;

		if (!colon)
			continue;
		*colon = '\0';
		us = strrchr(tok, '_');
		if (us && dt_size(us + 1) > 0) {        /* 2.x: src_f32::... */
			*us = '\0';
			dt = us + 1;
		} else if (us && !strcmp(us + 1, "undef")) {
			*us = '\0';
			dt = "undef";
		} else {                                /* 3.5: src:f32::... */
			char *c2;

			dt = colon + 1;
			c2 = strchr(colon + 1, ':');
			if (c2)
				*c2 = '\0';
		}
		if (!strncmp(arg, "diff_", 5))
			arg += 5;
		snprintf(mds[n].arg, sizeof(mds[n].arg), "%s", arg);
		snprintf(mds[n].dt, sizeof(mds[n].dt), "%s", dt);
		n++;
	}
	return n;
}

static const struct md *md_of(const struct md *mds, size_t n, const char *arg)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(mds[i].arg, arg) && dt_size(mds[i].dt) > 0)
			return &mds[i];
	return NULL;
}

static double md_size(const struct md *mds, size_t n, const char *arg)
{
	const struct md *m = md_of(mds, n, arg);

	return m ? dt_size(m->dt) : 0;
}

/* benchdnn's convolution, pooling and inner-product descriptor as keyed numbers. */
struct desc {
	long g, mb, ic, oc, i[3], o[3], k[3], s[3], d[3], p[3];  /* d, h, w */
	bool has_o[3], has_i[3];
};

static bool read_desc(const char *s, struct desc *q, char *why, size_t wsize)
{
	static const char *const dims = "dhw";

	memset(q, 0, sizeof(*q));
	q->g = 1;
	for (int a = 0; a < 3; a++)
		q->i[a] = q->o[a] = q->k[a] = q->s[a] = 1;
	while (*s) {
		char key[4];
		size_t kl = 0;
		char *end;
		long v;

		if (*s == '_') {
			s++;
			continue;
		}
		if (*s == 'n')          /* a name: n"..." ends the numbers */
			break;
		while (isalpha((unsigned char)*s) && kl < 3)
			key[kl++] = *s++;
		key[kl] = '\0';
		if (!kl || !isdigit((unsigned char)*s)) {
			snprintf(why, wsize, "problem '%.40s': not a descriptor", s);
			return false;
		}
		v = strtol(s, &end, 10);
		if (v < 0 || v > (1L << 40)) {
			snprintf(why, wsize, "problem: %s%ld out of range", key, v);
			return false;
		}
		s = end;
		if (!strcmp(key, "g"))
			q->g = v;
		else if (!strcmp(key, "mb"))
			q->mb = v;
		else if (!strcmp(key, "ic"))
			q->ic = v;
		else if (!strcmp(key, "oc"))
			q->oc = v;
		else if (kl == 2 && strchr(dims, key[1]) && strchr("iokspd", key[0])) {
			const int a = (int)(strchr(dims, key[1]) - dims);

			switch (key[0]) {
			case 'i': q->i[a] = v; q->has_i[a] = true; break;
			case 'o': q->o[a] = v; q->has_o[a] = true; break;
			case 'k': q->k[a] = v; break;
			case 's': q->s[a] = v; break;
			case 'd': q->d[a] = v; break;
			case 'p': q->p[a] = v; break;
			}
		}
		/* other keys (the right padding "rh" of newer descriptors...) do not count */
	}
	if (q->mb < 1 || q->ic < 1 || q->g < 1) {
		snprintf(why, wsize, "problem: no minibatch or channels");
		return false;
	}
	/* sizes a problem can have (the taps are counted over output x kernel positions) */
	for (int a = 0; a < 3; a++)
		if (q->s[a] < 1 || q->k[a] < 1 || q->i[a] > (1L << 24) || q->o[a] > (1L << 24) ||
		    q->k[a] > (1L << 16) || q->d[a] > (1L << 16) || q->p[a] > (1L << 24) ||
		    q->o[a] * q->k[a] > (1L << 22) || (q->i[a] + 2 * q->p[a]) * q->k[a] > (1L << 40)) {
			snprintf(why, wsize, "problem: a %c size, stride or kernel out of range",
				 "dhw"[a]);
			return false;
		}
	return true;
}

/* v[0] * v[1] * v[2] without overflow */
static double prod3(const long *v)
{
	return (double)v[0] * (double)v[1] * (double)v[2];
}

/* The taps of a window (size k, stride st, dilation dl: oneDNN's, 0 for none, padding pad)
 * that land on the input (size in), over every output position. */
static double valid_taps(long out, long in, long k, long st, long dl, long pad)
{
	double n = 0;

	for (long p = 0; p < out; p++)
		for (long r = 0; r < k; r++) {
			const long x = p * st - pad + r * (dl + 1);

			n += x >= 0 && x < in;
		}
	return n;
}

/* "8x64x32x32:8x64x32x32" as the element counts of each part (at most max). */
static size_t read_dims(const char *s, double *elems, size_t max, double *last2)
{
	size_t n = 0;

	while (*s && n < max) {
		double e = 1;
		size_t nd = 0;
		double dv[12];

		for (;;) {
			char *end;
			long v = strtol(s, &end, 10);

			if (end == s || v < 0)
				return 0;
			if (nd < 12)
				dv[nd++] = (double)v;
			e *= (double)v;
			s = end;
			if (*s != 'x')
				break;
			s++;
		}
		if (last2 && nd >= 2) {
			last2[2 * n] = dv[nd - 2];
			last2[2 * n + 1] = dv[nd - 1];
		} else if (last2) {
			last2[2 * n] = 1;
			last2[2 * n + 1] = nd ? dv[0] : 1;
		}
		elems[n++] = e;
		if (*s == ':')
			s++;
		else
			break;
	}
	return *s ? 0 : n;
}

/* The number of post-ops in the attributes ("attr-post-ops:eltwise_relu+sum:1"). */
static int post_ops(const char *attrs)
{
	const char *p = strstr(attrs, "attr-post-ops:");
	int n = 1;

	if (!p)
		return 0;
	p += strlen("attr-post-ops:");
	for (; *p && *p != ' '; p++)
		n += *p == '+';
	return n;
}

static bool is_backward(const char *prop)
{
	return !strncmp(prop, "backward", 8);
}

/* FLOPs and bytes of e from its fields; false when they do not read (why says). */
static bool count(struct rt_onednn_exec *e, char *mdtext, const char *attrs, const char *aux,
		  char *why, size_t wsize)
{
	struct md mds[12];
	const size_t nmd = read_mds(mdtext, mds, 12);
	const struct md *src = md_of(mds, nmd, "src");
	const bool bwd = is_backward(e->prop), bwd_w = !strcmp(e->prop, "backward_weights");
	const int post = post_ops(attrs);
	struct desc q;
	double el[16], l2[32];
	size_t n;

	snprintf(e->dtype, sizeof(e->dtype), "%s",
		 src ? src->dt : nmd ? mds[0].dt : "undef");
	e->prec = dt_prec(e->dtype);
	e->counted = true;
	if (!strcmp(e->kind, "convolution")) {
		double macs, outs, taps = 1;

		if (!read_desc(e->problem, &q, why, wsize))
			return false;
		for (int a = 0; a < 3; a++) {
			/* a spatial size not given is the output's (or 1) */
			const long in = q.has_i[a] ? q.i[a] : q.o[a];
			const long out = q.has_o[a] ? q.o[a] :
					 (in + 2 * q.p[a] - ((q.k[a] - 1) * (q.d[a] + 1) + 1)) /
					 q.s[a] + 1;

			q.i[a] = in;
			q.o[a] = out;
			if (out * q.k[a] > (1L << 22)) {
				snprintf(why, wsize, "problem: a %c output out of range", "dhw"[a]);
				return false;
			}
			taps *= valid_taps(out, in, q.k[a], q.s[a], q.d[a], q.p[a]);
		}
		if (q.ic % q.g || q.oc % q.g) {
			snprintf(why, wsize, "problem: %ld groups do not divide the channels", q.g);
			return false;
		}
		macs = (double)q.mb * (double)q.oc * (double)(q.ic / q.g) * taps;
		outs = (double)q.mb * (double)q.oc * prod3(q.o);
		e->flops = 2 * macs;
		if ((!bwd || bwd_w) && md_of(mds, nmd, "bia"))
			e->flops += outs;
		if (!bwd)
			e->flops += post * outs;
		e->bytes = (double)q.mb * (double)q.ic * prod3(q.i) *
			   md_size(mds, nmd, "src") +
			   (double)q.oc * (double)(q.ic / q.g) *
			   prod3(q.k) * md_size(mds, nmd, "wei") +
			   (double)q.oc * md_size(mds, nmd, "bia") + outs * md_size(mds, nmd, "dst");
		if (bwd && !bwd_w)
			e->bytes -= (double)q.oc * md_size(mds, nmd, "bia");
		return true;
	}
	if (!strcmp(e->kind, "inner_product")) {
		double sp;

		if (!read_desc(e->problem, &q, why, wsize))
			return false;
		if (q.oc < 1) {
			snprintf(why, wsize, "problem: no output channels");
			return false;
		}
		sp = prod3(q.i);
		e->flops = 2 * (double)q.mb * (double)q.oc * (double)q.ic * sp;
		if ((!bwd || bwd_w) && md_of(mds, nmd, "bia"))
			e->flops += (double)q.mb * (double)q.oc;
		if (!bwd)
			e->flops += post * (double)q.mb * (double)q.oc;
		e->bytes = (double)q.mb * (double)q.ic * sp * md_size(mds, nmd, "src") +
			   (double)q.oc * (double)q.ic * sp * md_size(mds, nmd, "wei") +
			   (bwd && !bwd_w ? 0 : (double)q.oc * md_size(mds, nmd, "bia")) +
			   (double)q.mb * (double)q.oc * md_size(mds, nmd, "dst");
		return true;
	}
	if (!strcmp(e->kind, "pooling")) {
		double win, outs, ins;

		if (!read_desc(e->problem, &q, why, wsize))
			return false;
		win = prod3(q.k);
		outs = (double)q.mb * (double)q.ic * prod3(q.o);
		ins = (double)q.mb * (double)q.ic * prod3(q.i);
		if (strstr(aux, "pooling_max"))
			e->flops = bwd ? outs : (win - 1) * outs;
		else
			e->flops = bwd ? (win + 1) * outs : win * outs;
		e->bytes = ins * md_size(mds, nmd, "src") + outs * md_size(mds, nmd, "dst") +
			   outs * md_size(mds, nmd, "ws");
		return true;
	}
	if (!strcmp(e->kind, "matmul")) {
		double m, k, nn, batch;

		n = read_dims(e->problem, el, 3, l2);
		if (n < 3) {
			snprintf(why, wsize, "problem '%.40s': not src:wei:dst dimensions",
				 e->problem);
			return false;
		}
		m = l2[0], k = l2[1], nn = l2[3];
		batch = l2[4] * l2[5] > 0 ? el[2] / (l2[4] * l2[5]) : 0;
		e->flops = 2 * batch * m * nn * k + post * el[2] +
			   (md_of(mds, nmd, "bia") ? el[2] : 0);
		e->bytes = el[0] * md_size(mds, nmd, "src") + el[1] * md_size(mds, nmd, "wei") +
			   el[2] * md_size(mds, nmd, "dst");
		return true;
	}
	/* the kinds whose problem is dimensions */
	n = read_dims(e->problem, el, 16, NULL);
	if (!strcmp(e->kind, "reorder") || !strcmp(e->kind, "concat")) {
		double total = 0;

		if (!n)
			goto dims;
		for (size_t i = 0; i < n; i++)
			total += el[i];
		e->flops = 0;
		e->bytes = !strcmp(e->kind, "reorder") ?
			   el[0] * (md_size(mds, nmd, "src") + md_size(mds, nmd, "dst")) :
			   total * 2 * (src ? dt_size(src->dt) : 0);
		return true;
	}
	if (!strcmp(e->kind, "eltwise")) {
		const double sz = dt_size(e->dtype);

		if (!n)
			goto dims;
		e->flops = el[0] * (bwd ? 1 : 1 + post);
		e->bytes = el[0] * sz * (bwd ? 3 : 2);
		return true;
	}
	if (!strcmp(e->kind, "binary")) {
		if (!n)
			goto dims;
		e->flops = el[0] * (1 + post);
		e->bytes = el[0] * md_size(mds, nmd, "src") + (n > 1 ? el[1] : el[0]) *
			   (nmd > 1 ? dt_size(mds[1].dt) : 0) + el[0] * md_size(mds, nmd, "dst");
		return true;
	}
	if (!strcmp(e->kind, "sum")) {
		if (!n)
			goto dims;
		e->flops = (double)(n - 1) * el[0];
		e->bytes = (double)(n + 1) * el[0] * dt_size(e->dtype);
		return true;
	}
	if (!strcmp(e->kind, "softmax") || !strcmp(e->kind, "logsoftmax")) {
		if (!n)
			goto dims;
		e->flops = el[0] * (bwd ? 3 : 5);
		e->bytes = el[0] * dt_size(e->dtype) * (bwd ? 3 : 2);
		return true;
	}
	if (!strcmp(e->kind, "batch_normalization") || !strcmp(e->kind, "layer_normalization")) {
		double elems;

		if (!strcmp(e->kind, "batch_normalization")) {
			if (!read_desc(e->problem, &q, why, wsize))
				return false;
			elems = (double)q.mb * (double)q.ic * prod3(q.i);
		} else {
			if (!n)
				goto dims;
			elems = el[0];
		}
		e->flops = elems * (!bwd ? 8 : !strcmp(e->prop, "backward") ? 11 : 6);
		e->bytes = elems * dt_size(e->dtype) * (bwd ? 3 : 2);
		return true;
	}
	/* rnn, lrn, shuffle, resampling, prelu, reduction, deconvolution, ...: time only */
	e->counted = false;
	e->flops = e->bytes = 0;
	return true;
dims:
	snprintf(why, wsize, "problem '%.40s': not dimensions", e->problem);
	return false;
}

enum rt_onednn_line rt_onednn_read(struct rt_onednn_reader *r, const char *line, size_t len,
				   struct rt_onednn_exec *e)
{
	char buf[MAX_LINE], *tok[MAX_TOKENS];
	size_t nt = 0, i = 0;
	const char *f[16] = { 0 };
	char *end;

	memset(e, 0, sizeof(*e));
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	if (!((len >= 15 && !memcmp(line, "onednn_verbose,", 15)) ||
	      (len >= 13 && !memcmp(line, "dnnl_verbose,", 13))))
		return RT_ONEDNN_OTHER;
	if (len >= sizeof(buf)) {
		snprintf(e->why, sizeof(e->why), "a line of %zu bytes", len);
		return RT_ONEDNN_UNPARSED;
	}
	memcpy(buf, line, len);
	buf[len] = '\0';
	for (char *p = buf; nt < MAX_TOKENS;) {
		char *c = strchr(p, ',');

		tok[nt++] = p;
		if (!c)
			break;
		*c = '\0';
		p = c + 1;
	}
	i = 1;
	if (i < nt && !strcmp(tok[i], "v1"))
		i++;
	if (i < nt && is_number(tok[i]))        /* a timestamp */
		i++;
	if (i < nt && !strcmp(tok[i], "info")) {
		/* the header: the fields each execution line holds, in order */
		if (i + 1 < nt && !strncmp(tok[i + 1], "prim_template:", 14)) {
			size_t k = 0;

			tok[i + 1] += 14;
			for (size_t j = i + 1; j < nt && k < 16; j++)
				if (strcmp(tok[j], "timestamp"))
					snprintf(r->fields[k++], sizeof(r->fields[0]), "%s", tok[j]);
			r->nfields = k;
		}
		return RT_ONEDNN_INFO;
	}
	if (i < nt && !strcmp(tok[i], "primitive"))     /* 3.x's event class */
		i++;
	else if (i < nt && (!strcmp(tok[i], "graph") || !strcmp(tok[i], "common") ||
			    !strcmp(tok[i], "error") || !strcmp(tok[i], "warn")))
		return RT_ONEDNN_INFO;
	if (i >= nt || strcmp(tok[i], "exec"))
		return i < nt && !strncmp(tok[i], "create", 6) ? RT_ONEDNN_INFO :
		       (snprintf(e->why, sizeof(e->why), "operation '%.40s' is not exec or create",
				 i < nt ? tok[i] : ""), RT_ONEDNN_UNPARSED);
	/* the fields from the operation on, by the header's names */
	if (nt - i != r->nfields || field_index(r, "operation") != 0) {
		snprintf(e->why, sizeof(e->why), "%zu fields where the header names %zu", nt - i,
			 r->nfields);
		return RT_ONEDNN_UNPARSED;
	}
	{
		static const char *const names[] = { "primitive", "implementation", "prop_kind",
						     "memory_descriptors", "attributes",
						     "auxiliary", "problem_desc", "exec_time" };

		for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
			const int at = field_index(r, names[k]);

			if (at < 0) {
				snprintf(e->why, sizeof(e->why), "the header names no %s", names[k]);
				return RT_ONEDNN_UNPARSED;
			}
			f[k] = tok[i + (size_t)at];
		}
	}
	snprintf(e->kind, sizeof(e->kind), "%s", f[0]);
	/* pooling_v2, softmax_v2 (2.x): the same primitives */
	{
		const size_t kl = strlen(e->kind);

		if (kl > 3 && !strcmp(e->kind + kl - 3, "_v2"))
			e->kind[kl - 3] = '\0';
	}
	snprintf(e->impl, sizeof(e->impl), "%s", f[1]);
	snprintf(e->prop, sizeof(e->prop), "%s", f[2]);
	if (strlen(f[6]) >= sizeof(e->problem)) {
		snprintf(e->why, sizeof(e->why), "a problem of %zu characters", strlen(f[6]));
		return RT_ONEDNN_UNPARSED;
	}
	snprintf(e->problem, sizeof(e->problem), "%s", f[6]);
	e->ms = strtod(f[7], &end);
	if (end == f[7] || *end || !isfinite(e->ms) || e->ms < 0 || e->ms > 1e9) {
		snprintf(e->why, sizeof(e->why), "time '%.40s' is not milliseconds", f[7]);
		return RT_ONEDNN_UNPARSED;
	}
	if (!count(e, (char *)f[3], f[4], f[5], e->why, sizeof(e->why)))
		return RT_ONEDNN_UNPARSED;
	if (!isfinite(e->flops) || !isfinite(e->bytes) || e->flops < 0 || e->bytes < 0) {
		snprintf(e->why, sizeof(e->why), "counts out of range");
		return RT_ONEDNN_UNPARSED;
	}
	return RT_ONEDNN_EXEC;
}

void rt_onednn_tally_init(struct rt_onednn_tally *t)
{
	memset(t, 0, sizeof(*t));
}

static uint64_t key_hash(const char *kind, const char *prop, const char *dtype,
			 const char *problem)
{
	uint64_t h = 1469598103934665603ULL;
	const char *parts[4] = { kind, prop, dtype, problem };

	for (int i = 0; i < 4; i++) {
		for (const char *p = parts[i]; *p; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211ULL;
		h = (h ^ 0xff) * 1099511628211ULL;
	}
	return h;
}

static bool same(const struct rt_onednn_prim *p, const struct rt_onednn_exec *e)
{
	return !strcmp(p->kind, e->kind) && !strcmp(p->prop, e->prop) &&
	       !strcmp(p->dtype, e->dtype) && !strcmp(p->problem, e->problem);
}

/* Grow the slots to twice the primitives (at least 64); false when out of memory. */
static bool rehash(struct rt_onednn_tally *t)
{
	size_t ns = t->nslots ? t->nslots * 2 : 64;
	size_t *s = calloc(ns, sizeof(*s));

	if (!s)
		return false;
	for (size_t i = 0; i < t->n; i++) {
		const struct rt_onednn_prim *p = &t->v[i];
		size_t h = (size_t)key_hash(p->kind, p->prop, p->dtype, p->problem) & (ns - 1);

		while (s[h])
			h = (h + 1) & (ns - 1);
		s[h] = i + 1;
	}
	free(t->slots);
	t->slots = s;
	t->nslots = ns;
	return true;
}

void rt_onednn_tally_add(struct rt_onednn_tally *t, const struct rt_onednn_exec *e)
{
	struct rt_onednn_prim *p = NULL;
	size_t h;

	t->execs++;
	t->ms += e->ms;
	t->flops += e->flops;
	t->bytes += e->bytes;
	if (!e->counted) {
		t->uncounted++;
		t->uncounted_ms += e->ms;
	}
	if ((t->n + 1) * 2 > t->nslots && !rehash(t)) {
		t->oom = true;
		return;
	}
	h = (size_t)key_hash(e->kind, e->prop, e->dtype, e->problem) & (t->nslots - 1);
	while (t->slots[h] && !same(&t->v[t->slots[h] - 1], e))
		h = (h + 1) & (t->nslots - 1);
	if (t->slots[h]) {
		p = &t->v[t->slots[h] - 1];
	} else {
		if (t->n == t->cap) {
			size_t nc = t->cap ? t->cap * 2 : 64;
			struct rt_onednn_prim *v = realloc(t->v, nc * sizeof(*v));

			if (!v) {
				t->oom = true;
				return;
			}
			t->v = v;
			t->cap = nc;
		}
		p = &t->v[t->n];
		memset(p, 0, sizeof(*p));
		snprintf(p->kind, sizeof(p->kind), "%s", e->kind);
		snprintf(p->prop, sizeof(p->prop), "%s", e->prop);
		snprintf(p->impl, sizeof(p->impl), "%s", e->impl);
		snprintf(p->dtype, sizeof(p->dtype), "%s", e->dtype);
		snprintf(p->problem, sizeof(p->problem), "%s", e->problem);
		p->counted = e->counted;
		p->prec = e->prec;
		t->slots[h] = ++t->n;
	}
	p->calls++;
	p->ms += e->ms;
	p->flops += e->flops;
	p->bytes += e->bytes;
}

void rt_onednn_tally_unparsed(struct rt_onednn_tally *t, const char *line, size_t len,
			      const char *why)
{
	if (!t->unparsed++) {
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			len--;
		snprintf(t->first_unparsed, sizeof(t->first_unparsed), "%.*s",
			 (int)(len < sizeof(t->first_unparsed) - 1 ? len :
			       sizeof(t->first_unparsed) - 1), line);
		snprintf(t->first_unparsed_why, sizeof(t->first_unparsed_why), "%s", why);
	}
}

void rt_onednn_tally_free(struct rt_onednn_tally *t)
{
	free(t->v);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

static int cmp_prim_ms(const void *a, const void *b)
{
	const struct rt_onednn_prim *x = a, *y = b;

	return x->ms < y->ms ? 1 : x->ms > y->ms ? -1 : 0;
}

void rt_onednn_tally_sort(struct rt_onednn_tally *t)
{
	if (t->n)       /* a tally with no primitive has no array */
		qsort(t->v, t->n, sizeof(t->v[0]), cmp_prim_ms);
}
