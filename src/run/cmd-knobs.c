/* cmd-knobs.c: roofline-run's named knobs (allocator, fpmath, isa, numa) checked against this
 * node, and --sweep tune's alternatives */
#define _GNU_SOURCE
#include "config.h"
#include "run/cmd-knobs.h"
#include "base/options.h"
#include "base/spawn.h"
#include "machine/cpu.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const knob_names[RT_CMD_NKNOBS] = { "allocator", "fpmath", "isa", "numa" };

const char *rt_cmd_knob_name(enum rt_cmd_knob_kind kind)
{
	return kind < RT_CMD_NKNOBS ? knob_names[kind] : "?";
}

bool rt_cmd_knob_named(const char *spec, enum rt_cmd_knob_kind *kind)
{
	for (int i = 0; i < RT_CMD_NKNOBS; i++) {
		const size_t l = strlen(knob_names[i]);

		if (!strncmp(spec, knob_names[i], l) && (!spec[l] || spec[l] == '=')) {
			*kind = (enum rt_cmd_knob_kind)i;
			return true;
		}
	}
	return false;
}

/* The allocators, by the Debian packages that ship them (the soname the loader finds). */
static const struct {
	const char *word, *soname, *package;
} allocators[] = {
	{ "default", NULL, NULL },
	{ "jemalloc", "libjemalloc.so.2", "libjemalloc2" },
	{ "tcmalloc", "libtcmalloc_minimal.so.4", "libtcmalloc-minimal4" },
};

/* Debian's multiarch directory of this build's architecture */
#if defined(__x86_64__)
#define TRIPLET "x86_64-linux-gnu"
#elif defined(__aarch64__)
#define TRIPLET "aarch64-linux-gnu"
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define TRIPLET "powerpc64le-linux-gnu"
#elif defined(__riscv) && __riscv_xlen == 64
#define TRIPLET "riscv64-linux-gnu"
#else
#define TRIPLET ""
#endif

/* name in dir (dir under the identity root when rooted): its path into out */
static bool lib_in(const char *dir, bool rooted, const char *name, char *out, size_t size)
{
	char d[4096];
	struct stat st;

	if (!*dir)
		return false;
	if (rooted ? !rt_cpu_identity_path(d, sizeof(d), dir) :
	    (size_t)snprintf(d, sizeof(d), "%s", dir) >= sizeof(d))
		return false;
	if ((size_t)snprintf(out, size, "%s/%s", d, name) >= size)
		return false;
	return stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, R_OK) == 0;
}

/* name in the directories of an ld.so.conf (path relative to the identity root) and the
 * files it includes (globs, relative to its own directory when not absolute) */
static int lib_in_conf(const char *path, const char *name, char *out, size_t size, int depth,
		       struct rt_err *err)
{
	char *text = NULL, *line, *next;
	int found = 0, rc;

	/* read as the identity is: a FIFO refused, never waited on; a read error said */
	if (depth > 8)
		return 0;
	if ((rc = rt_cpu_identity_read(path, &text, err)))
		return rc == -ENOENT ? 0 : rc;
	for (line = text; line && !found; line = next) {
		char *s = line, *e;

		if ((next = strchr(line, '\n')))
			*next++ = '\0';
		if ((e = strchr(s, '#')))
			*e = '\0';
		while (isspace((unsigned char)*s))
			s++;
		e = s + strlen(s);
		while (e > s && isspace((unsigned char)e[-1]))
			*--e = '\0';
		if (!*s || !strncmp(s, "hwcap ", 6))
			continue;
		if (!strncmp(s, "include", 7) && isspace((unsigned char)s[7])) {
			char pat[4096], rel[4096], root[4096];
			const char *slash = strrchr(path, '/');
			glob_t g;

			s += 8;
			while (isspace((unsigned char)*s))
				s++;
			if (*s == '/')
				snprintf(rel, sizeof(rel), "%s", s);
			else
				snprintf(rel, sizeof(rel), "%.*s/%s", (int)(slash ? slash - path : 0),
					 path, s);
			if (!rt_cpu_identity_path(pat, sizeof(pat), rel) ||
			    !rt_cpu_identity_path(root, sizeof(root), ""))
				continue;
			if (glob(pat, 0, NULL, &g) == 0) {
				for (size_t i = 0; i < g.gl_pathc && !found; i++)
					found = lib_in_conf(g.gl_pathv[i] + strlen(root), name, out,
							    size, depth + 1, err);
				globfree(&g);
			}
			continue;
		}
		for (char *w = strtok(s, " \t:,="); w && !found; w = strtok(NULL, " \t:,="))
			found = lib_in(w, true, name, out, size);
	}
	free(text);
	return found;
}

/* Where the loader finds a library: LD_LIBRARY_PATH's directories, those of /etc/ld.so.conf
 * (what its cache is made of) and the default ones (each under ROOFTRAJ_SYSROOT). 1 found, 0
 * not, or the error reading the loader's configuration (the file named in err). */
static int find_library(const char *name, char *out, size_t size, struct rt_err *err)
{
	static const char *const defaults[] = { "/lib/" TRIPLET, "/usr/lib/" TRIPLET, "/lib64",
						"/usr/lib64", "/lib", "/usr/lib" };
	const char *llp = getenv("LD_LIBRARY_PATH");
	int rc;

	if (llp) {
		char *dirs = strdup(llp), *save = NULL;
		bool found = false;

		for (char *d = dirs ? strtok_r(dirs, ":;", &save) : NULL; d && !found;
		     d = strtok_r(NULL, ":;", &save))
			found = *d == '/' && lib_in(d, false, name, out, size);
		free(dirs);
		if (found)
			return 1;
	}
	if ((rc = lib_in_conf("/etc/ld.so.conf", name, out, size, 0, err)))
		return rc;
	for (size_t i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++)
		if (strcmp(defaults[i], "/lib/") && strcmp(defaults[i], "/usr/lib/") &&
		    lib_in(defaults[i], true, name, out, size))
			return 1;
	return 0;
}

/* The first processor's flags in /proc/cpuinfo (under ROOFTRAJ_SYSROOT), into buf (" a b c ";
 * "" when there are none); the reader's error (the file named) when it cannot be read. */
static int cpu_flags(char *buf, size_t size, struct rt_err *err)
{
	char *text = NULL;
	int rc;

	buf[0] = '\0';
	if ((rc = rt_cpu_identity_read("/proc/cpuinfo", &text, err)))
		return rc;
	for (const char *line = text; line && *line; line = strchr(line, '\n'),
	     line = line ? line + 1 : NULL)
		if (!strncmp(line, "flags", 5) && strchr(line, ':') &&
		    strchr(line, ':') < line + strcspn(line, "\n")) {
			const char *v = strchr(line, ':') + 1;

			snprintf(buf, size, " %.*s ", (int)strcspn(v, "\n"), v);
			break;
		}
	free(text);
	return 0;
}

/* Whether flags (" a b c ") hold every word of need ("a b"); the missing ones into miss. */
static bool has_flags(const char *flags, const char *need, char *miss, size_t msize)
{
	char w[64];
	size_t k = 0;

	miss[0] = '\0';
	for (const char *p = need; *p;) {
		size_t l = strcspn(p, " ");

		snprintf(w, sizeof(w), " %.*s ", (int)l, p);
		if (!strstr(flags, w))
			k += (size_t)snprintf(miss + k, k < msize ? msize - k : 0, "%s%.*s",
					      k ? " " : "", (int)l, p);
		p += l;
		while (*p == ' ')
			p++;
	}
	return !miss[0];
}

/* Whether the CPU does bf16 math (AMX or AVX512-BF16): the reason it does not into why. */
static bool bf16_offered(char *why, size_t size)
{
	struct rt_err err = { 0 };
	struct rt_cpu cpu;

	if (rt_cpu_detect(&cpu, &err)) {
		/* not a CPU without it: one whose flags could not be read */
		const char head[] = "the CPU's flags not read: ";

		snprintf(why, size, "%s%.*s", head, (int)(size > sizeof(head) ?
							  size - sizeof(head) : 0), err.msg);
		return false;
	}
	if (rt_cpu_bf16_flag(&cpu))
		return true;
	snprintf(why, size, "this CPU has neither AMX (amx_bf16) nor AVX512-BF16 (avx512_bf16) "
		 "in /proc/cpuinfo's flags: no bf16 math for oneDNN to lower f32 work to");
	return false;
}

/* oneDNN's ISA names for ONEDNN_MAX_CPU_ISA (2.x and 3.x; another spelling of the same ISA
 * in alias) and the /proc/cpuinfo flags each needs; need NULL where no flag tells (AVX10.2),
 * "" where nothing is needed (no cap). */
static const struct {
	const char *name, *alias, *need;
} isas[] = {
	{ "all", "default", "" },
	{ "sse41", NULL, "sse4_1" },
	{ "avx", NULL, "avx" },
	{ "avx2", NULL, "avx2" },
	{ "avx2_vnni", NULL, "avx2 avx_vnni" },
	{ "avx2_vnni_2", NULL, "avx2 avx_vnni avx_vnni_int8 avx_ne_convert" },
	{ "avx512_mic", NULL, "avx512f avx512cd avx512er avx512pf" },
	{ "avx512_mic_4ops", NULL, "avx512f avx512cd avx512er avx512pf avx512_4fmaps "
	  "avx512_4vnniw" },
	{ "avx512_core", NULL, "avx512f avx512bw avx512vl avx512dq" },
	{ "avx512_core_vnni", NULL, "avx512f avx512bw avx512vl avx512dq avx512_vnni" },
	{ "avx512_core_bf16", NULL, "avx512f avx512bw avx512vl avx512dq avx512_vnni "
	  "avx512_bf16" },
	{ "avx512_core_fp16", "avx10_1_512", "avx512f avx512bw avx512vl avx512dq avx512_vnni "
	  "avx512_bf16 avx512_fp16" },
	{ "avx512_core_amx", "avx10_1_512_amx", "avx512f avx512bw avx512vl avx512dq avx512_vnni "
	  "avx512_bf16 amx_tile amx_int8 amx_bf16" },
	{ "avx512_core_amx_fp16", "avx10_1_512_amx_fp16", "avx512f avx512bw avx512vl avx512dq "
	  "avx512_vnni avx512_bf16 avx512_fp16 amx_tile amx_int8 amx_bf16 amx_fp16" },
	{ "avx10_2_512", NULL, NULL },
	{ "avx10_2_512_amx_2", NULL, NULL },
};

/* NODES of a numa value ("0", "0-1", "0+2") checked against the node's nodes: numactl's
 * spelling ("0,2") into out */
static int numa_nodes_arg(const char *v, const char *spec, unsigned nodes, char *out,
			  size_t size, struct rt_err *err)
{
	size_t k = 0;

	if (!*v)
		return rt_err_set(err, -EINVAL, "--sweep: numa=%s: a node list expected after ':'",
				  spec);
	for (const char *p = v; *p;) {
		char *end;
		long a, b;

		errno = 0;
		a = strtol(p, &end, 10);
		b = a;
		if (end != p && *end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
		}
		if (end == p || errno || a < 0 || b < a || (*end && *end != '+'))
			return rt_err_set(err, -EINVAL, "--sweep: numa=%s: '%s' is not a node list "
					  "(N, N-M, N+M)", spec, v);
		if ((unsigned long)b >= nodes)
			return rt_err_set(err, -EINVAL, "--sweep: numa=%s: node %ld: this node has "
					  "%u NUMA nodes (0-%u)", spec, b, nodes, nodes - 1);
		k += (size_t)snprintf(out + k, k < size ? size - k : 0, "%s%ld", k ? "," : "", a);
		if (b > a)
			k += (size_t)snprintf(out + k, k < size ? size - k : 0, "-%ld", b);
		p = *end ? end + 1 : end;
	}
	return 0;
}

unsigned rt_cmd_numa_nodes(void)
{
	char path[4096];
	unsigned n = 0;
	struct dirent *e;
	DIR *d;

	if (!rt_cpu_identity_path(path, sizeof(path), "/sys/devices/system/node") ||
	    !(d = opendir(path)))
		return 1;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "node", 4) && isdigit((unsigned char)e->d_name[4]) &&
		    strspn(e->d_name + 4, "0123456789") == strlen(e->d_name + 4))
			n++;
	closedir(d);
	return n ? n : 1;
}

/* One value of a knob, checked: its word and argument into v. */
static int parse_value(struct rt_cmd_knob *k, const char *item, struct rt_cmd_knob_value *v,
		       struct rt_err *err)
{
	const char *name = knob_names[k->kind];

	memset(v, 0, sizeof(*v));
	switch (k->kind) {
	case RT_CMD_KNOB_ALLOCATOR:
		for (size_t i = 0; i < sizeof(allocators) / sizeof(allocators[0]); i++) {
			if (strcasecmp(item, allocators[i].word))
				continue;
			snprintf(v->word, sizeof(v->word), "%s", allocators[i].word);
			if (allocators[i].soname) {
				struct rt_err e2;
				int rc = find_library(allocators[i].soname, v->arg, sizeof(v->arg),
						      &e2);

				if (rc < 0)
					return rt_err_set(err, rc, "--sweep: allocator=%s: the "
							  "loader's configuration not read: %s",
							  v->word, e2.msg);
				if (!rc)
					return rt_err_set(err, -EINVAL, "--sweep: allocator=%s: %s "
							  "is not installed (Debian package %s)",
							  v->word, allocators[i].soname,
							  allocators[i].package);
			}
			if (!allocators[i].soname)
				v->arg[0] = '\0';
			return 0;
		}
		return rt_err_set(err, -EINVAL, "--sweep: allocator=%s: not default, jemalloc or "
				  "tcmalloc", item);
	case RT_CMD_KNOB_FPMATH:
		if (strcasecmp(item, "strict") && strcasecmp(item, "bf16"))
			return rt_err_set(err, -EINVAL, "--sweep: fpmath=%s: not strict or bf16",
					  item);
		snprintf(v->word, sizeof(v->word), "%s", strcasecmp(item, "bf16") ? "strict" :
			 "bf16");
		snprintf(v->arg, sizeof(v->arg), "ONEDNN_DEFAULT_FPMATH_MODE=%s",
			 strcasecmp(item, "bf16") ? "STRICT" : "BF16");
		return 0;
	case RT_CMD_KNOB_ISA:
		for (size_t i = 0; i < sizeof(isas) / sizeof(isas[0]); i++) {
			char flags[8192], miss[300];
			size_t l;

			if (strcasecmp(item, isas[i].name) &&
			    (!isas[i].alias || strcasecmp(item, isas[i].alias)))
				continue;
			/* the spelling given: a 2.x library knows only its names, 3.x its own */
			for (l = 0; item[l] && l < sizeof(v->word) - 1; l++)
				v->word[l] = (char)tolower((unsigned char)item[l]);
			v->word[l] = '\0';
			if (!*isas[i].need) {
				snprintf(v->arg, sizeof(v->arg), "ONEDNN_MAX_CPU_ISA=");
				return 0;
			}
			if (cpu_flags(flags, sizeof(flags), err)) {
				struct rt_err why = *err;

				return rt_err_set(err, why.code, "--sweep: isa=%s: the CPU's flags not "
						  "read: %s", v->word, why.msg);
			}
			if (isas[i].need && !has_flags(flags, isas[i].need, miss, sizeof(miss)))
				return rt_err_set(err, -EINVAL, "--sweep: isa=%s: this CPU does not "
						  "have it (no %s in /proc/cpuinfo's flags): oneDNN "
						  "would cap it silently at what the CPU has", v->word,
						  miss);
			snprintf(v->arg, sizeof(v->arg), "ONEDNN_MAX_CPU_ISA=");
			for (l = 0; item[l]; l++)
				v->arg[19 + l] = (char)toupper((unsigned char)item[l]);
			v->arg[19 + l] = '\0';
			return 0;
		}
		return rt_err_set(err, -EINVAL, "--sweep: isa=%s: not an ISA oneDNN names (all or "
				  "default, sse41, avx, avx2, avx2_vnni, avx2_vnni_2, avx512_mic, "
				  "avx512_mic_4ops, avx512_core, avx512_core_vnni, avx512_core_bf16, "
				  "avx512_core_fp16 or avx10_1_512, avx512_core_amx or avx10_1_512_amx, "
				  "avx512_core_amx_fp16 or avx10_1_512_amx_fp16, avx10_2_512, "
				  "avx10_2_512_amx_2)", item);
	case RT_CMD_KNOB_NUMA: {
		const unsigned nodes = rt_cmd_numa_nodes();
		char list[192];
		const char *colon = strchr(item, ':');

		if (!strcmp(item, "none")) {
			snprintf(v->word, sizeof(v->word), "none");
		} else if (!strcmp(item, "local")) {
			snprintf(v->word, sizeof(v->word), "local");
			snprintf(v->arg, sizeof(v->arg), "--localalloc");
		} else if (!strcmp(item, "interleave")) {
			snprintf(v->word, sizeof(v->word), "interleave");
			snprintf(v->arg, sizeof(v->arg), "--interleave=all");
		} else if (colon && (!strncmp(item, "interleave:", 11) ||
				     !strncmp(item, "bind:", 5) || !strncmp(item, "preferred:", 10))) {
			if (numa_nodes_arg(colon + 1, item, nodes, list, sizeof(list), err))
				return -EINVAL;
			if (item[0] == 'p' && strpbrk(list, ",-"))
				return rt_err_set(err, -EINVAL, "--sweep: numa=%s: one node expected "
						  "(numactl --preferred)", item);
			snprintf(v->word, sizeof(v->word), "%s", item);
			if (item[0] == 'i')
				snprintf(v->arg, sizeof(v->arg), "--interleave=%s", list);
			else if (item[0] == 'b')
				snprintf(v->arg, sizeof(v->arg), "--cpunodebind=%s --membind=%s", list,
					 list);
			else
				snprintf(v->arg, sizeof(v->arg), "--preferred=%s", list);
		} else {
			return rt_err_set(err, -EINVAL, "--sweep: numa=%s: not none, local, "
					  "interleave, interleave:NODES, bind:NODES or preferred:NODE",
					  item);
		}
		return 0;
	}
	default:
		return rt_err_set(err, -EINVAL, "--sweep %s: unknown knob", name);
	}
}

int rt_cmd_knob_parse(struct rt_cmd_knob *k, const char *spec, char **numactl,
		      struct rt_err *err)
{
	char buf[1024], *items[RT_CMD_KNOB_VALUES + 1], deflt[256] = "";
	enum rt_cmd_knob_kind kind;
	const char *eq = strchr(spec, '=');
	int n;

	if (!rt_cmd_knob_named(spec, &kind))
		return rt_err_set(err, -EINVAL, "--sweep %s: not a named knob", spec);
	memset(k, 0, sizeof(*k));
	k->kind = kind;
	if (!eq) {
		/* the knob alone: its usual values on this node */
		switch (kind) {
		case RT_CMD_KNOB_ALLOCATOR:
			snprintf(deflt, sizeof(deflt), "default,jemalloc,tcmalloc");
			break;
		case RT_CMD_KNOB_FPMATH:
			snprintf(deflt, sizeof(deflt), "strict,bf16");
			break;
		case RT_CMD_KNOB_ISA:
			return rt_err_set(err, -EINVAL, "--sweep isa: isa=LIST expected (oneDNN's "
					  "names: avx2,avx512_core,...)");
		default: {
			const unsigned nodes = rt_cmd_numa_nodes();

			snprintf(deflt, sizeof(deflt), "none,interleave");
			for (unsigned i = 0; i < nodes && i < RT_CMD_KNOB_VALUES - 2; i++)
				snprintf(deflt + strlen(deflt), sizeof(deflt) - strlen(deflt),
					 ",bind:%u", i);
		}
		}
	}
	/* what the node must have for the knob at all, said before its values */
	if (kind == RT_CMD_KNOB_FPMATH) {
		char why[300];

		if (!bf16_offered(why, sizeof(why)))
			return rt_err_set(err, -EINVAL, "--sweep: %s: not offered here: %s", spec,
					  why);
	}
	if (kind == RT_CMD_KNOB_NUMA) {
		char path[RT_CMD_KNOB_PATH];

		if (rt_cmd_numa_nodes() < 2)
			return rt_err_set(err, -EINVAL, "--sweep: %s: not offered here: this node "
					  "has one NUMA node (/sys/devices/system/node): nothing to "
					  "bind", spec);
		if (!*numactl && !rt_spawn_which("numactl", path, sizeof(path)))
			return rt_err_set(err, -EINVAL, "--sweep: %s: numactl is not installed "
					  "(Debian package numactl)", spec);
		if (!*numactl && !(*numactl = strdup(path)))
			return rt_err_set(err, -ENOMEM, "out of memory");
	}
	n = rt_opt_split_list(buf, sizeof(buf), items, RT_CMD_KNOB_VALUES, "--sweep",
			      eq ? eq + 1 : deflt, err);
	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		if (parse_value(k, items[i], &k->v[i], err))
			return -EINVAL;
		for (int j = 0; j < i; j++)
			if (!strcmp(k->v[i].word, k->v[j].word) ||
			    (k->v[i].arg[0] && !strcmp(k->v[i].arg, k->v[j].arg)))
				return rt_err_set(err, -EINVAL, "--sweep: %s=%s: the same as '%s' "
						  "(each value once)", knob_names[kind], items[i],
						  k->v[j].word);
	}
	k->n = (size_t)n;
	return 0;
}

void rt_cmd_knob_spec(const struct rt_cmd_knob *k, char *buf, size_t size)
{
	size_t at = (size_t)snprintf(buf, size, "%s=", knob_names[k->kind]);

	for (size_t i = 0; i < k->n && at < size; i++)
		at += (size_t)snprintf(buf + at, size - at, "%s%s", i ? "," : "", k->v[i].word);
}

size_t rt_cmd_tune_alternatives(char (*alt)[64], size_t cap, unsigned cpus, char *lacked,
				size_t lsize)
{
	size_t n = 0, at = 0;
	char why[300], path[RT_CMD_KNOB_PATH];

	lacked[0] = '\0';
	if (n < cap)
		snprintf(alt[n++], 64, "threads=%u", cpus);
	for (size_t i = 1; i < sizeof(allocators) / sizeof(allocators[0]); i++) {
		struct rt_err e2;
		int rc = find_library(allocators[i].soname, path, sizeof(path), &e2);

		if (rc > 0) {
			if (n < cap)
				snprintf(alt[n++], 64, "allocator=%s", allocators[i].word);
		} else if (rc < 0 && at < lsize) {
			at += (size_t)snprintf(lacked + at, lsize - at, "%sno allocator=%s: the "
					       "loader's configuration not read: %s", at ? "; " : "",
					       allocators[i].word, e2.msg);
		} else if (at < lsize) {
			at += (size_t)snprintf(lacked + at, lsize - at, "%s%s is not installed "
					       "(Debian package %s): no allocator=%s", at ? "; " : "",
					       allocators[i].soname, allocators[i].package,
					       allocators[i].word);
		}
	}
	if (bf16_offered(why, sizeof(why))) {
		if (n < cap)
			snprintf(alt[n++], 64, "fpmath=bf16");
	} else if (at < lsize) {
		at += (size_t)snprintf(lacked + at, lsize - at, "%sno fpmath=bf16: %s",
				       at ? "; " : "", why);
	}
	if (rt_cmd_numa_nodes() < 2) {
		if (at < lsize)
			at += (size_t)snprintf(lacked + at, lsize - at, "%sno numa binding: one "
					       "NUMA node", at ? "; " : "");
	} else if (!rt_spawn_which("numactl", path, sizeof(path))) {
		if (at < lsize)
			at += (size_t)snprintf(lacked + at, lsize - at, "%sno numa binding: numactl "
					       "is not installed (Debian package numactl)",
					       at ? "; " : "");
	} else if (n + 2 <= cap) {
		snprintf(alt[n++], 64, "numa=interleave");
		snprintf(alt[n++], 64, "numa=bind:0");
	}
	return n;
}
