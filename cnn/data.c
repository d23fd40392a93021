/* data.c: synthetic data (one seeded prototype per class plus noise: learnable, reproducible),
 * and readers for MNIST idx files and CIFAR-10 binary batches that reject truncated or foreign
 * files with the file name and what is wrong */
#include "config.h"
#include "cnn/data.h"
#include "base/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum kind { SYNTHETIC, MNIST, CIFAR10 };

struct rt_data {
	enum kind kind;
	long elems, classes, count, next;
	uint64_t rng;
	float *protos;                  /* synthetic: classes x elems */
	uint8_t *pixels;                /* files: count x elems */
	uint8_t *labels;
	float mean[3], inv_std[3];      /* per channel normalization */
	long plane;                     /* H x W */
	char desc[128];
};

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

/* uniform in [-1, 1) */
static float unif(uint64_t *s)
{
	return (float)((double)(rnd(s) >> 11) * 0x1p-52 - 1.0);
}

void rt_data_destroy(struct rt_data *d)
{
	if (!d)
		return;
	free(d->protos);
	free(d->pixels);
	free(d->labels);
	free(d);
}

static int read_file(const char *path, uint8_t **buf, size_t *len, struct rt_err *err)
{
	struct stat sb;
	FILE *fp;
	int rc;

	*buf = NULL;
	if ((rc = rt_check_regular(path, err)))
		return rc;
	fp = fopen(path, "rb");
	if (!fp)
		return rt_err_set(err, -errno, "%s: %s", path, strerror(errno));
	if (fstat(fileno(fp), &sb) || sb.st_size <= 0) {
		fclose(fp);
		return rt_err_set(err, -EINVAL, "%s: empty or unreadable", path);
	}
	*len = (size_t)sb.st_size;
	*buf = malloc(*len);
	if (!*buf || fread(*buf, 1, *len, fp) != *len) {
		fclose(fp);
		free(*buf);
		*buf = NULL;
		return rt_err_set(err, -EIO, "%s: cannot read %zu bytes", path, *len);
	}
	fclose(fp);
	return 0;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int open_mnist(struct rt_data *d, const char *dir, const struct rt_model *m,
		      struct rt_err *err)
{
	char ip[4200], lp[4200];
	uint8_t *img = NULL, *lab = NULL;
	size_t ilen = 0, llen = 0;
	int rc;

	if (m->input.c != 1 || m->input.h != 28 || m->input.w != 28)
		return rt_err_set(err, -EINVAL, "MNIST images are 1x28x28; model '%s' takes "
				  "%ldx%ldx%ld", m->name, m->input.c, m->input.h, m->input.w);
	snprintf(ip, sizeof(ip), "%s/train-images-idx3-ubyte", dir);
	snprintf(lp, sizeof(lp), "%s/train-labels-idx1-ubyte", dir);
	if ((rc = read_file(ip, &img, &ilen, err)) || (rc = read_file(lp, &lab, &llen, err)))
		goto out;
	if (ilen < 16 || be32(img) != 0x803 || be32(img + 8) != 28 || be32(img + 12) != 28) {
		rc = rt_err_set(err, -EINVAL, "%s: not an MNIST image file (idx3, 28x28)", ip);
		goto out;
	}
	if (llen < 8 || be32(lab) != 0x801) {
		rc = rt_err_set(err, -EINVAL, "%s: not an MNIST label file (idx1)", lp);
		goto out;
	}
	d->count = (long)be32(img + 4);
	if (d->count < 1 || ilen - 16 < (size_t)d->count * 784) {
		rc = rt_err_set(err, -EINVAL, "%s: truncated: %ld images need %zu bytes, the file "
				"has %zu", ip, d->count, 16 + (size_t)d->count * 784, ilen);
		goto out;
	}
	if ((long)be32(lab + 4) != d->count || llen - 8 < (size_t)d->count) {
		rc = rt_err_set(err, -EINVAL, "%s: %u labels for %ld images (or truncated)", lp,
				be32(lab + 4), d->count);
		goto out;
	}
	for (long i = 0; i < d->count; i++)
		if (lab[8 + i] > 9) {
			rc = rt_err_set(err, -EINVAL, "%s: label %u of image %ld is not a digit", lp,
					lab[8 + i], i);
			goto out;
		}
	d->pixels = malloc((size_t)d->count * 784);
	d->labels = malloc((size_t)d->count);
	if (!d->pixels || !d->labels) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	memcpy(d->pixels, img + 16, (size_t)d->count * 784);
	memcpy(d->labels, lab + 8, (size_t)d->count);
	d->mean[0] = 0.1307f;
	d->inv_std[0] = 1 / 0.3081f;
	snprintf(d->desc, sizeof(d->desc), "mnist (%ld images)", d->count);
out:
	free(img);
	free(lab);
	return rc;
}

static int open_cifar(struct rt_data *d, const char *dir, const struct rt_model *m,
		      struct rt_err *err)
{
	static const float mean[3] = { 0.4914f, 0.4822f, 0.4465f }, sd[3] = { 0.2470f, 0.2435f,
									   0.2616f };
	const size_t rec = 3073;
	int rc = 0, files = 0;

	if (m->input.c != 3 || m->input.h != 32 || m->input.w != 32)
		return rt_err_set(err, -EINVAL, "CIFAR-10 images are 3x32x32; model '%s' takes "
				  "%ldx%ldx%ld", m->name, m->input.c, m->input.h, m->input.w);
	for (int b = 1; b <= 5; b++) {
		char path[4200];
		uint8_t *buf = NULL, *np, *nl;
		size_t len = 0, recs;
		FILE *probe;

		snprintf(path, sizeof(path), "%s/data_batch_%d.bin", dir, b);
		if (rt_check_regular(path, err))
			return err->code;
		probe = fopen(path, "rb");
		if (!probe) {
			if (b == 1)
				return rt_err_set(err, -ENOENT, "%s: %s", path, strerror(errno));
			break;  /* fewer than five batches: use those there are */
		}
		fclose(probe);
		if ((rc = read_file(path, &buf, &len, err)))
			return rc;
		if (len % rec) {
			free(buf);
			return rt_err_set(err, -EINVAL, "%s: truncated or not CIFAR-10: %zu bytes is "
					  "not a whole number of %zu-byte records", path, len, rec);
		}
		recs = len / rec;
		np = realloc(d->pixels, (size_t)(d->count + (long)recs) * 3072);
		if (np)
			d->pixels = np;
		nl = realloc(d->labels, (size_t)(d->count + (long)recs));
		if (nl)
			d->labels = nl;
		if (!np || !nl) {
			free(buf);
			return rt_err_set(err, -ENOMEM, "out of memory");
		}
		for (size_t r = 0; r < recs; r++) {
			if (buf[r * rec] > 9) {
				rc = rt_err_set(err, -EINVAL, "%s: record %zu has label %u: not a "
						"CIFAR-10 file", path, r, buf[r * rec]);
				free(buf);
				return rc;
			}
			d->labels[d->count + (long)r] = buf[r * rec];
			memcpy(d->pixels + (size_t)(d->count + (long)r) * 3072, buf + r * rec + 1,
			       3072);
		}
		d->count += (long)recs;
		files++;
		free(buf);
	}
	for (int c = 0; c < 3; c++) {
		d->mean[c] = mean[c];
		d->inv_std[c] = 1 / sd[c];
	}
	snprintf(d->desc, sizeof(d->desc), "cifar10 (%ld images in %d batch files)", d->count,
		 files);
	return rc;
}

int rt_data_open(struct rt_data **out, const char *spec, const struct rt_model *m, uint64_t seed,
		 struct rt_err *err)
{
	struct rt_data *d = calloc(1, sizeof(*d));
	int rc = 0;

	if (!d)
		return rt_err_set(err, -ENOMEM, "out of memory");
	d->elems = rt_shape_elems(m->input);
	d->classes = m->classes;
	d->plane = m->input.h * m->input.w;
	d->rng = seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
	if (!strcmp(spec, "synthetic")) {
		d->kind = SYNTHETIC;
		d->protos = malloc((size_t)d->classes * (size_t)d->elems * sizeof(float));
		if (!d->protos) {
			rc = rt_err_set(err, -ENOMEM, "out of memory");
			goto out;
		}
		for (long i = 0; i < d->classes * d->elems; i++)
			d->protos[i] = unif(&d->rng);
		snprintf(d->desc, sizeof(d->desc), "synthetic (%ld classes, seed %llu)", d->classes,
			 (unsigned long long)seed);
	} else if (!strncmp(spec, "mnist:", 6) && spec[6]) {
		d->kind = MNIST;
		rc = open_mnist(d, spec + 6, m, err);
	} else if (!strncmp(spec, "cifar10:", 8) && spec[8]) {
		d->kind = CIFAR10;
		rc = open_cifar(d, spec + 8, m, err);
	} else {
		rc = rt_err_set(err, -EINVAL, "--data: '%s' is not synthetic, mnist:DIR or "
				"cifar10:DIR", spec);
	}
	if (!rc && d->kind != SYNTHETIC && d->classes != 10)
		rc = rt_err_set(err, -EINVAL, "%s has 10 classes; model '%s' has %ld", spec,
				m->name, m->classes);
out:
	if (rc) {
		rt_data_destroy(d);
		return rc;
	}
	*out = d;
	return 0;
}

/* A 32-bit counter-based draw (Wellons' lowbias32 finalizer): no state carried from one
 * element to the next, and 32-bit lanes, so the loop vectorizes 16 wide */
static inline uint32_t mix32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	x *= 0x846ca68bU;
	return x ^ (x >> 16);
}

/* Image k of the synthetic stream: a function of (seed, k) alone, so a data-parallel rank
 * skips the other ranks' images without drawing them and the images of a batch are drawn in
 * parallel. The class prototype under noise of the same size: learnable, not trivial. */
static void noise_image(const float *p, uint64_t key, long n, float *img);

static int32_t synthetic_image(const struct rt_data *d, uint64_t k, float *img)
{
	uint64_t s = d->rng ^ (k * 0xD1B54A32D192ED03ULL + 1);
	const long c = (long)(rnd(&s) % (uint64_t)d->classes);
	const float *p = d->protos + c * d->elems;

	noise_image(p, rnd(&s), d->elems, img);
	return (int32_t)c;
}

/* The prototype plus noise, element e from draw e alone (independent iterations, so the loop
 * vectorizes; the same bits with AVX-512 or without: the conversions and the scaling by
 * powers of two are exact) */
static inline __attribute__((always_inline)) void noise_body(const float *p, uint64_t key,
							      long n, float *img)
{
	const uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);

	for (long e = 0; e < n; e++) {
		/* two uniforms in [-1, 1) from one draw: 16 bits each, exact in a float */
		const uint32_t r = mix32((k0 + (uint32_t)e * 0x9E3779B9U) ^ k1);
		const float u = (float)(int32_t)(r >> 16) * 0x1p-15f - 1.0f;
		const float v = (float)(int32_t)(r & 0xffff) * 0x1p-15f - 1.0f;

		img[e] = p[e] + 0.5f * (u + v);
	}
}

/* gcc vectorizes this at -O2 only when asked; clang (the fuzz build) vectorizes it anyway */
#ifdef __clang__
__attribute__((target("avx512f")))
#else
__attribute__((target("avx512f"), optimize("tree-vectorize")))
#endif
static void noise_avx512(const float *p, uint64_t key, long n, float *img)
{
	noise_body(p, key, n, img);
}

static void noise_image(const float *p, uint64_t key, long n, float *img)
{
	if (__builtin_cpu_supports("avx512f"))
		noise_avx512(p, key, n, img);
	else
		noise_body(p, key, n, img);
}

void rt_data_next(struct rt_data *d, long n, float *images, int32_t *labels)
{
	if (d->kind == SYNTHETIC) {
		const uint64_t first = (uint64_t)d->next;

#pragma omp parallel for schedule(static)
		for (long i = 0; i < n; i++)
			labels[i] = synthetic_image(d, first + (uint64_t)i, images + i * d->elems);
		d->next += n;
		return;
	}
	for (long i = 0; i < n; i++) {
		float *img = images + i * d->elems;
		const uint8_t *px = d->pixels + d->next * d->elems;

		for (long e = 0; e < d->elems; e++) {
			long ch = e / d->plane;

			img[e] = ((float)px[e] / 255.0f - d->mean[ch]) * d->inv_std[ch];
		}
		labels[i] = d->labels[d->next];
		d->next = (d->next + 1) % d->count;
	}
}

void rt_data_skip(struct rt_data *d, long n)
{
	d->next = d->kind == SYNTHETIC ? d->next + n : (d->next + n % d->count) % d->count;
}

const char *rt_data_describe(const struct rt_data *d)
{
	return d->desc;
}
