/* cpu.c: CPU model and ISA extensions from /proc/cpuinfo, maximum clock from cpufreq */
#define _GNU_SOURCE
#include "config.h"
#include "machine/cpu.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The extensions a roofline cares about, by their /proc/cpuinfo flag name. */
static const char *const isa_flags[] = {
	"sse2", "sse4_2", "avx", "fma", "avx2", "avx512f", "avx512dq", "avx512bw", "avx512vl",
	"avx512_vnni", "avx_vnni", "avx512_bf16", "avx512_fp16", "amx_tile", "amx_bf16",
	"amx_int8",
};

static bool has_word(const char *list, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += len) {
		bool start = p == list || p[-1] == ' ' || p[-1] == '\t';
		bool end = p[len] == '\0' || p[len] == ' ' || p[len] == '\n';

		if (start && end)
			return true;
	}
	return false;
}

int rt_cpu_parse_cpuinfo(struct rt_cpu *cpu, const char *text, struct rt_err *err)
{
	const char *line = text;
	bool have_flags = false;

	memset(cpu, 0, sizeof(*cpu));
	cpu->model_number = -1;
	snprintf(cpu->model, sizeof(cpu->model), "unknown");
	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		const char *colon = memchr(line, ':', len);

		if (len == 0 && have_flags)
			break;  /* end of the first processor's block */
		if (colon) {
			const char *val = colon + 1;
			size_t vlen = len - (size_t)(val - line);

			while (vlen && *val == ' ') {
				val++;
				vlen--;
			}
			if (!strncmp(line, "vendor_id", 9)) {
				snprintf(cpu->vendor, sizeof(cpu->vendor), "%.*s", (int)vlen, val);
			} else if (!strncmp(line, "cpu family", 10)) {
				cpu->family = (int)strtol(val, NULL, 10);
			} else if (!strncmp(line, "model\t", 6) || !strncmp(line, "model:", 6) ||
				   (!strncmp(line, "model ", 6) && strncmp(line, "model name", 10))) {
				cpu->model_number = (int)strtol(val, NULL, 10);
			} else if (!strncmp(line, "model name", 10)) {
				snprintf(cpu->model, sizeof(cpu->model), "%.*s", (int)vlen, val);
			} else if (!strncmp(line, "flags", 5) && !have_flags) {
				char *flags = strndup(val, vlen);

				if (!flags)
					return rt_err_set(err, -ENOMEM, "out of memory");
				for (size_t i = 0; i < sizeof(isa_flags) / sizeof(isa_flags[0]); i++)
					if (has_word(flags, isa_flags[i]) && cpu->nisa < RT_CPU_MAX_ISA)
						snprintf(cpu->isa[cpu->nisa++], sizeof(cpu->isa[0]),
							 "%s", isa_flags[i]);
				cpu->hypervisor = has_word(flags, "hypervisor");
				free(flags);
				have_flags = true;
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	if (!have_flags)
		return rt_err_set(err, -EINVAL, "cpuinfo has no 'flags' line");
	return 0;
}

int rt_cpu_detect(struct rt_cpu *cpu, struct rt_err *err)
{
	char *text = NULL;
	size_t cap = 0;
	FILE *fp = fopen("/proc/cpuinfo", "r");
	ssize_t n;
	int rc;

	if (!fp)
		return rt_err_set(err, -errno, "/proc/cpuinfo: %s", strerror(errno));
	n = getdelim(&text, &cap, '\0', fp);
	fclose(fp);
	if (n < 0) {
		free(text);
		return rt_err_set(err, -EIO, "/proc/cpuinfo: cannot read");
	}
	rc = rt_cpu_parse_cpuinfo(cpu, text, err);
	free(text);
	if (rc)
		return rc;
	fp = fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "r");
	if (fp) {
		unsigned long khz;

		if (fscanf(fp, "%lu", &khz) == 1)
			cpu->max_mhz = (double)khz / 1000.0;
		fclose(fp);
	}
	return 0;
}


/* The path of this process's cgroup for the controller (v1: a line "N:...,cpu,...:/path";
 * v2: "0::/path"), appended to root; false when there is none. */
static bool cgroup_dir(char *buf, size_t size, bool *v2)
{
	FILE *fp = fopen("/proc/self/cgroup", "r");
	char line[1024];
	bool found = false;

	if (!fp)
		return false;
	while (!found && fgets(line, sizeof(line), fp)) {
		char *a = strchr(line, ':'), *b = a ? strchr(a + 1, ':') : NULL, *nl;

		if (!b)
			continue;
		if ((nl = strchr(b, '\n')))
			*nl = '\0';
		*b = '\0';
		for (char *tok = a + 1, *save = NULL, *t; (t = strtok_r(tok, ",", &save));
		     tok = NULL)
			if (!strcmp(t, "cpu")) {
				snprintf(buf, size, "/sys/fs/cgroup/cpu%s", b + 1);
				*v2 = false;
				found = true;
			}
		if (!found && a == line + 1 && line[0] == '0' && !a[1]) {
			snprintf(buf, size, "/sys/fs/cgroup%s", b + 1);
			*v2 = true;
			/* a v1 cpu line later in the file wins */
		}
	}
	fclose(fp);
	return found || *v2;
}

static bool read_text(const char *path, char *buf, size_t size)
{
	FILE *fp = fopen(path, "r");
	size_t n;

	if (!fp)
		return false;
	n = fread(buf, 1, size - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return n > 0;
}

int rt_cpu_quota(double *cores, double *period_s, unsigned long long *throttled)
{
	char dir[1100], path[1200], text[512];
	bool v2 = false;
	double quota = -1, period = 0;
	const char *t;

	*throttled = 0;
	if (!cgroup_dir(dir, sizeof(dir), &v2))
		return -ENOENT;
	if (v2) {
		snprintf(path, sizeof(path), "%s/cpu.max", dir);
		if (!read_text(path, text, sizeof(text)) || !strncmp(text, "max", 3) ||
		    sscanf(text, "%lf %lf", &quota, &period) != 2)
			return -ENOENT;
	} else {
		snprintf(path, sizeof(path), "%s/cpu.cfs_quota_us", dir);
		if (!read_text(path, text, sizeof(text)) || sscanf(text, "%lf", &quota) != 1)
			return -ENOENT;
		snprintf(path, sizeof(path), "%s/cpu.cfs_period_us", dir);
		if (!read_text(path, text, sizeof(text)) || sscanf(text, "%lf", &period) != 1)
			return -ENOENT;
	}
	if (quota <= 0 || period <= 0)
		return -ENOENT;
	*cores = quota / period;
	*period_s = period * 1e-6;
	snprintf(path, sizeof(path), "%s/cpu.stat", dir);
	if (read_text(path, text, sizeof(text)) && (t = strstr(text, "nr_throttled ")))
		*throttled = strtoull(t + 13, NULL, 10);
	return 0;
}

double rt_cpu_ops_per_cycle(const char *vendor, int family, bool avx512, const char *precision,
			    const char *isa, const char *method)
{
	const bool amd = !strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine");
	const double datapath = avx512 && (!amd || family >= 0x1a) ? 512 : 256;
	const double elem = !strcmp(precision, "fp64") ? 64 : !strcmp(precision, "fp32") ? 32 :
			    !strcmp(precision, "int8") ? 8 : 16;
	double width;

	if (!strcmp(isa, "amx_bf16"))
		return 1024;
	if (!strcmp(isa, "amx_int8"))
		return 2048;
	width = !strcmp(isa, "scalar") ? elem : !strcmp(isa, "sse") ? 128 :
		!strcmp(isa, "avx2") || !strcmp(isa, "avx_vnni") ? 256 : 512;
	if (width > datapath)
		width = datapath;
	if (!strcmp(method, "mul-add-chains"))
		return 4 * width / elem;                /* 2 multiplies + 2 adds */
	if (!strcmp(method, "fma-chains"))
		return 2 * 2 * width / elem;            /* 2 pipes x lanes x (mul + add) */
	if (!strcmp(method, "instruction")) {
		if (!strcmp(precision, "fp16"))
			return 2 * 2 * width / 16;      /* VFMADD231PH */
		if (!strcmp(precision, "bf16"))
			return 2 * (width / 32) * 2 * 2;        /* VDPBF16PS: 2 pairs a lane */
		if (!strcmp(precision, "int8"))
			return 2 * (width / 32) * 4 * 2;        /* VPDPBUSD: 4 pairs a lane */
	}
	return 0;
}

void rt_cpu_sample_take(struct rt_cpu_sample *s)
{
	const double hz = (double)sysconf(_SC_CLK_TCK);
	struct rusage self, kids;
	cpu_set_t mask;
	char line[512];
	FILE *fp;

	memset(s, 0, sizeof(*s));
	if (!getrusage(RUSAGE_SELF, &self) && !getrusage(RUSAGE_CHILDREN, &kids)) {
		s->self = (double)self.ru_utime.tv_sec + (double)self.ru_utime.tv_usec / 1e6 +
			  (double)self.ru_stime.tv_sec + (double)self.ru_stime.tv_usec / 1e6;
		s->children = (double)kids.ru_utime.tv_sec + (double)kids.ru_utime.tv_usec / 1e6 +
			      (double)kids.ru_stime.tv_sec + (double)kids.ru_stime.tv_usec / 1e6;
	}
	if (sched_getaffinity(0, sizeof(mask), &mask) || !(hz > 0) || !(fp = fopen("/proc/stat", "re")))
		return;
	while (fgets(line, sizeof(line), fp)) {
		unsigned long long v[8] = { 0 };
		int cpu;

		/* "cpuN user nice system idle iowait irq softirq steal ..." */
		if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 9 || cpu < 0 ||
		    cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &mask))
			continue;
		s->busy += (double)(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) / hz;
		s->ncpus++;
	}
	fclose(fp);
	s->ok = s->ncpus > 0;
}

double rt_cpu_others_share(const struct rt_cpu_sample *a, const struct rt_cpu_sample *b,
			   double wall, double *others_s)
{
	double others;

	if (!a->ok || !b->ok || a->ncpus != b->ncpus || !(wall > 0))
		return NAN;
	others = (b->busy - a->busy) - (b->self - a->self) - (b->children - a->children);
	if (others < 0)
		others = 0;
	if (others_s)
		*others_s = others;
	return others / (wall * a->ncpus);
}
