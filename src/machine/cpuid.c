/* cpuid.c: cache sizes from CPUID, the instruction or a recorded dump */
#include "config.h"
#include "machine/cpuid.h"
#include "machine/cpu.h"
#include "machine/topo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

static unsigned bits(uint32_t v, unsigned lo, unsigned hi)
{
	return (unsigned)((v >> lo) & ((hi - lo == 31) ? 0xffffffffu : ((1u << (hi - lo + 1)) - 1)));
}

static void add(struct rt_cache_info *out, size_t max, size_t *n, int level, uint64_t size,
		unsigned line, unsigned sharing, unsigned tpc, unsigned cores)
{
	struct rt_cache_info *c;
	unsigned shared;

	if (!size || *n == max)
		return;
	/* one entry a level: a second data cache of the same level is not ours to model */
	for (size_t i = 0; i < *n; i++)
		if (out[i].level == level)
			return;
	shared = (sharing + tpc - 1) / tpc;
	if (!shared)
		shared = 1;
	if (cores && shared > cores)
		shared = cores;
	c = &out[(*n)++];
	memset(c, 0, sizeof(*c));
	c->level = level;
	c->size = size;
	c->line = line;
	c->shared_by = shared;
	c->count = cores ? (cores + shared - 1) / shared : 1;
	c->source = "cpuid";
	c->cpuid_size = size;
}

/* Intel's leaf 4 and AMD's 0x8000001D share a layout: EAX type (1 data, 2 instruction, 3
 * unified), level, logical processors sharing - 1; EBX line - 1, partitions - 1, ways - 1;
 * ECX sets - 1. */
static void deterministic(rt_cpuid_fn fn, void *ctx, uint32_t leaf, unsigned tpc, unsigned cores,
			  struct rt_cache_info *out, size_t max, size_t *n)
{
	for (uint32_t sub = 0; sub < 16; sub++) {
		struct rt_cpuid_regs r;
		unsigned type;
		uint64_t size;

		if (!fn(ctx, leaf, sub, &r) || !(type = bits(r.eax, 0, 4)))
			break;
		if (type == 2)
			continue;
		size = (uint64_t)(bits(r.ebx, 22, 31) + 1) * (bits(r.ebx, 12, 21) + 1) *
		       (bits(r.ebx, 0, 11) + 1) * ((uint64_t)r.ecx + 1);
		add(out, max, n, (int)bits(r.eax, 5, 7), size, bits(r.ebx, 0, 11) + 1,
		    bits(r.eax, 14, 25) + 1, tpc, cores);
	}
}

size_t rt_cpuid_caches(rt_cpuid_fn fn, void *ctx, unsigned threads_per_core, unsigned cores,
		       struct rt_cache_info *out, size_t max)
{
	struct rt_cpuid_regs r0, x0, r;
	size_t n = 0;
	char vendor[13];
	unsigned tpc = threads_per_core ? threads_per_core : 1;

	if (!fn(ctx, 0, 0, &r0))
		return 0;
	memcpy(vendor, &r0.ebx, 4);
	memcpy(vendor + 4, &r0.edx, 4);
	memcpy(vendor + 8, &r0.ecx, 4);
	vendor[12] = '\0';
	if (!fn(ctx, 0x80000000u, 0, &x0))
		x0.eax = 0;
	if (!strcmp(vendor, "GenuineIntel")) {
		if (r0.eax >= 4)
			deterministic(fn, ctx, 4, tpc, cores, out, max, &n);
	} else if (!strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine")) {
		/* topology extensions (0x80000001 ECX bit 22) bring leaf 0x8000001D */
		if (x0.eax >= 0x8000001du && fn(ctx, 0x80000001u, 0, &r) && (r.ecx >> 22 & 1))
			deterministic(fn, ctx, 0x8000001du, tpc, cores, out, max, &n);
		if (!n && x0.eax >= 0x80000006u) {
			/* the older leaves: L1d KiB in 0x80000005 ECX[31:24]; L2 KiB in 0x80000006
			 * ECX[31:16]; L3 512 KiB units in its EDX[31:18] (sharing unknown: all) */
			if (fn(ctx, 0x80000005u, 0, &r))
				add(out, max, &n, 1, (uint64_t)bits(r.ecx, 24, 31) << 10,
				    bits(r.ecx, 0, 7), 1, 1, cores);
			if (fn(ctx, 0x80000006u, 0, &r)) {
				add(out, max, &n, 2, (uint64_t)bits(r.ecx, 16, 31) << 10,
				    bits(r.ecx, 0, 7), 1, 1, cores);
				add(out, max, &n, 3, (uint64_t)bits(r.edx, 18, 31) << 19,
				    bits(r.edx, 0, 7), cores ? cores * tpc : 1, tpc, cores);
			}
		}
	}
	/* ascending by level */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && out[j - 1].level > out[j].level; j--) {
			struct rt_cache_info t = out[j];

			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return n;
}

static bool cpuid_insn(void *ctx, uint32_t leaf, uint32_t sub, struct rt_cpuid_regs *r)
{
	(void)ctx;
#if defined(__x86_64__) || defined(__i386__)
	{
		unsigned a, b, c, d;

		/* __get_cpuid_count checks the leaf against the maximum of its range */
		if (!__get_cpuid_count(leaf, sub, &a, &b, &c, &d))
			return false;
		*r = (struct rt_cpuid_regs){ a, b, c, d };
		return true;
	}
#else
	(void)leaf;
	(void)sub;
	(void)r;
	return false;
#endif
}

struct dump {
	struct {
		uint32_t leaf, sub;
		struct rt_cpuid_regs r;
	} *e;
	size_t n;
};

static bool cpuid_dump(void *ctx, uint32_t leaf, uint32_t sub, struct rt_cpuid_regs *r)
{
	const struct dump *d = ctx;

	for (size_t i = 0; i < d->n; i++)
		if (d->e[i].leaf == leaf && d->e[i].sub == sub) {
			*r = d->e[i].r;
			return true;
		}
	return false;
}

/* The dump's first CPU: lines "0xLEAF 0xSUB: eax=0x... ebx=0x... ecx=0x... edx=0x...". */
static int read_dump(const char *path, struct dump *d, struct rt_err *err)
{
	struct stat st;
	char line[512];
	unsigned lineno = 0, cpus = 0;
	FILE *fp;
	int rc = 0;

	if (stat(path, &st))
		return errno == ENOENT ? 0 : rt_err_set(err, -errno, "%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return rt_err_set(err, -EINVAL, "%s: not a regular file", path);
	if (!(fp = fopen(path, "r")))
		return rt_err_set(err, -errno, "%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), fp)) {
		unsigned leaf, sub, a, b, c, dd;
		const char *s = line + strspn(line, " \t");
		void *grown;

		lineno++;
		if (!strncmp(s, "CPU ", 4) && ++cpus > 1)
			break;
		if (*s == '\n' || *s == '#' || !strncmp(s, "CPU ", 4))
			continue;
		if (sscanf(s, "0x%x 0x%x: eax=0x%x ebx=0x%x ecx=0x%x edx=0x%x", &leaf, &sub, &a, &b,
			   &c, &dd) != 6) {
			rc = rt_err_set(err, -EINVAL, "%s:%u: not a line of `cpuid -r` (\"0xLEAF "
					"0xSUB: eax=0x... ebx=0x... ecx=0x... edx=0x...\")", path,
					lineno);
			break;
		}
		if (!(grown = realloc(d->e, (d->n + 1) * sizeof(*d->e)))) {
			rc = rt_err_set(err, -ENOMEM, "out of memory");
			break;
		}
		d->e = grown;
		d->e[d->n].leaf = leaf;
		d->e[d->n].sub = sub;
		d->e[d->n++].r = (struct rt_cpuid_regs){ a, b, c, dd };
	}
	if (!rc && ferror(fp))
		rc = rt_err_set(err, -EIO, "%s: cannot read", path);
	fclose(fp);
	return rc;
}

int rt_cpuid_this(unsigned threads_per_core, unsigned cores, struct rt_cache_info *out, size_t max,
		  size_t *n, struct rt_err *err)
{
	const char *root = getenv("ROOFTRAJ_SYSROOT");
	struct dump d = { 0 };
	char path[4096];
	int rc;

	*n = 0;
	if (!root || !*root) {
		*n = rt_cpuid_caches(cpuid_insn, NULL, threads_per_core, cores, out, max);
		return 0;
	}
	if (!rt_cpu_identity_path(path, sizeof(path), "/cpuid"))
		return rt_err_set(err, -ENAMETOOLONG, "ROOFTRAJ_SYSROOT: too long");
	rc = read_dump(path, &d, err);
	if (!rc && d.n)
		*n = rt_cpuid_caches(cpuid_dump, &d, threads_per_core, cores, out, max);
	free(d.e);
	return rc;
}
