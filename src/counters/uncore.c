/* uncore.c: the memory controllers' DRAM events from sysfs, encoded by their PMU's format
 * files and counted for the node */
#define _GNU_SOURCE
#include "config.h"
#include "counters/uncore.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The DRAM events of each memory-controller PMU: Intel's as the kernel's uncore driver names
 * them in sysfs (arch/x86/events/intel/uncore_snbep.c: cas_count_read, cas_count_write, a
 * 64-byte line each, given by .scale and .unit); AMD's UMC and data-fabric PMUs name no events
 * in sysfs, so the terms come from the kernel's lists: Zen 4/5's
 * tools/perf/pmu-events/arch/x86/amdzen4/memory-controller.json (and amdzen5's):
 * umc_cas_cmd.rd EventCode 0x0a RdWrMask 0x1, umc_cas_cmd.wr RdWrMask 0x2, a 64-byte burst
 * each; Zen 2/3's amdzen2/amdzen3 data-fabric.json: dram_channel_data_controller_0 to _7,
 * EventCode 0x07, 0x47, 0x87, 0xc7, 0x107, 0x147, 0x187, 0x1c7, UMask 0x38, the DRAM channel's
 * data in 64-byte beats (recommended.json's nps1_die_to_dram sums the eight, ScaleUnit
 * 6.1e-5MiB, "approximate", and counts them ungrouped: the fabric has 4 counters, so the
 * eight share them in turn and each count is scaled). */
static const struct dram_event {
	const char *pmu;                /* the instances' name, or prefix of name + number */
	const char *name;
	const char *terms;              /* NULL: the kernel's events/<name> */
	double bytes;                   /* per count where sysfs gives no scale */
} dram[] = {
	{ "uncore_imc_", "cas_count_read", NULL, 64 },
	{ "uncore_imc_", "cas_count_write", NULL, 64 },
	{ "amd_umc_", "umc_cas_cmd.rd", "event=0x0a,rdwrmask=0x1", 64 },
	{ "amd_umc_", "umc_cas_cmd.wr", "event=0x0a,rdwrmask=0x2", 64 },
	{ "amd_df", "dram_channel_data_controller_0", "event=0x07,umask=0x38", 64 },
	{ "amd_df", "dram_channel_data_controller_1", "event=0x47,umask=0x38", 64 },
	{ "amd_df", "dram_channel_data_controller_2", "event=0x87,umask=0x38", 64 },
	{ "amd_df", "dram_channel_data_controller_3", "event=0xc7,umask=0x38", 64 },
	{ "amd_df", "dram_channel_data_controller_4", "event=0x107,umask=0x38", 64 },
	{ "amd_df", "dram_channel_data_controller_5", "event=0x147,umask=0x38", 64 },
	{ "amd_df", "dram_channel_data_controller_6", "event=0x187,umask=0x38", 64 },
	{ "amd_df", "dram_channel_data_controller_7", "event=0x1c7,umask=0x38", 64 },
};

/* A small sysfs file's first line, without its newline; false when absent or empty. */
static bool read_line(const char *dir, const char *name, char *buf, size_t size)
{
	char path[1024];
	FILE *fp;
	bool ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!(fp = fopen(path, "re")))
		return false;
	ok = fgets(buf, (int)size, fp) != NULL;
	fclose(fp);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok && buf[0];
}

int rt_uncore_encode(const char *pmudir, const char *terms, unsigned long long config[3],
		     struct rt_err *err)
{
	char copy[256], *save = NULL, *term;

	config[0] = config[1] = config[2] = 0;
	if (strlen(terms) >= sizeof(copy))
		return rt_err_set(err, -EINVAL, "%s: event terms too long", pmudir);
	snprintf(copy, sizeof(copy), "%s", terms);
	for (term = strtok_r(copy, ",", &save); term; term = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(term, '='), fmt[128], fname[160], *end, *p;
		unsigned long long v = 1;
		int word = 0, used = 0;

		while (*term == ' ')
			term++;
		if (eq) {
			*eq = '\0';
			errno = 0;
			v = strtoull(eq + 1, &end, 0);
			if (errno || end == eq + 1 || *end)
				return rt_err_set(err, -EINVAL, "%s: term %s: '%s' is not a number",
						  pmudir, term, eq + 1);
		}
		snprintf(fname, sizeof(fname), "format/%s", term);
		if (!read_line(pmudir, fname, fmt, sizeof(fmt)))
			return rt_err_set(err, -EINVAL, "%s: term '%s' has no format file", pmudir,
					  term);
		/* "config:0-7,32-35", "config1:0-15", "config:21" */
		if (!strncmp(fmt, "config:", 7))
			p = fmt + 7;
		else if (!strncmp(fmt, "config1:", 8) && (word = 1))
			p = fmt + 8;
		else if (!strncmp(fmt, "config2:", 8) && (word = 2))
			p = fmt + 8;
		else
			return rt_err_set(err, -EINVAL, "%s: format of '%s' is '%s'", pmudir, term,
					  fmt);
		while (*p) {
			long lo = strtol(p, &end, 10), hi = lo;

			if (end == p || lo < 0 || lo > 63)
				return rt_err_set(err, -EINVAL, "%s: format of '%s' is '%s'", pmudir,
						  term, fmt);
			p = end;
			if (*p == '-') {
				hi = strtol(p + 1, &end, 10);
				if (end == p + 1 || hi < lo || hi > 63)
					return rt_err_set(err, -EINVAL, "%s: format of '%s' is '%s'",
							  pmudir, term, fmt);
				p = end;
			}
			for (long b = lo; b <= hi; b++, used++)
				if (used < 64 && (v >> used & 1))
					config[word] |= 1ULL << b;
			if (*p == ',')
				p++;
			else if (*p)
				return rt_err_set(err, -EINVAL, "%s: format of '%s' is '%s'", pmudir,
						  term, fmt);
		}
		if (used < 64 && v >> used)
			return rt_err_set(err, -EINVAL, "%s: %s=%#llx does not fit its %d bits",
					  pmudir, term, v, used);
	}
	return 0;
}

/* Bytes per count from the event's .scale and .unit (the kernel's "6.103515625e-5" "MiB"),
 * else the table's. */
static double bytes_per_count(const char *pmudir, const char *name, double fallback)
{
	char f[160], scale[64], unit[32];
	double s;
	char *end;

	snprintf(f, sizeof(f), "events/%s.scale", name);
	if (!read_line(pmudir, f, scale, sizeof(scale)))
		return fallback;
	s = strtod(scale, &end);
	if (end == scale || !(s > 0))
		return fallback;
	snprintf(f, sizeof(f), "events/%s.unit", name);
	if (!read_line(pmudir, f, unit, sizeof(unit)) || !strcmp(unit, "B") ||
	    !strcmp(unit, "Bytes"))
		return s;
	if (!strcmp(unit, "KiB"))
		return s * 1024;
	if (!strcmp(unit, "MiB"))
		return s * 1048576;
	if (!strcmp(unit, "GiB"))
		return s * 1073741824.0;
	return 0;       /* a unit that is not bytes */
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether a PMU directory is an instance of prefix: the name itself, or (a prefix ending in
 * '_') the prefix and a number */
static bool instance_of(const char *name, const char *prefix)
{
	const size_t plen = strlen(prefix);

	if (strncmp(name, prefix, plen))
		return false;
	if (!name[plen])
		return true;
	if (plen == 0 || prefix[plen - 1] != '_')
		return false;
	for (const char *c = name + plen; *c; c++)
		if (!isdigit((unsigned char)*c))
			return false;
	return true;
}

/* The CPUs of a PMU's cpumask ("0", "0,28", "0-3,8"): one instance each (an uncore PMU counts
 * its socket's or die's controllers on the CPU named for it); { 0 } without a cpumask */
static size_t cpumask_cpus(const char *dir, int *cpu, size_t cap)
{
	char line[1024], *save = NULL, *tok;
	size_t n = 0;

	if (!read_line(dir, "cpumask", line, sizeof(line))) {
		cpu[0] = 0;
		return 1;
	}
	for (tok = strtok_r(line, ",", &save); tok && n < cap; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		long a = strtol(tok, &end, 10), b = a;

		if (end == tok || a < 0)
			continue;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (long c = a; c <= b && n < cap; c++)
			cpu[n++] = (int)c;
	}
	if (!n)
		cpu[n++] = 0;
	return n;
}

int rt_uncore_find(const char *devroot, const struct rt_uarch *u, struct rt_uncore_set *s,
		   struct rt_err *why)
{
	char *names[RT_UNCORE_MAX];
	size_t nn = 0;
	struct dirent *de;
	DIR *d;
	int rc = 0;
	const char *suffix;

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < RT_UNCORE_MAX; i++)
		s->fd[i] = -1;
	if (!u->dram_pmu)
		return rt_err_set(why, -ENOENT, "%s: no memory-controller PMU known", u->name);
	suffix = u->dram_pmu[0] && u->dram_pmu[strlen(u->dram_pmu) - 1] == '_' ? "N" : "";
	{
		bool tabled = false;

		for (size_t k = 0; k < sizeof(dram) / sizeof(dram[0]); k++)
			tabled |= !strcmp(dram[k].pmu, u->dram_pmu);
		if (!tabled)
			return rt_err_set(why, -ENOENT, "%s: rooftraj has no DRAM events for its "
					  "%s PMU", u->name, u->dram_pmu);
	}
	if (!(d = opendir(devroot)))
		return rt_err_set(why, -ENOENT, "%s: cannot be read", devroot);
	while ((de = readdir(d)) && nn < RT_UNCORE_MAX)
		if (instance_of(de->d_name, u->dram_pmu))
			if (!(names[nn++] = strdup(de->d_name)))
				rc = rt_err_set(why, -ENOMEM, "out of memory");
	closedir(d);
	if (!rc && !nn)
		rc = rt_err_set(why, -ENOENT, "no %s%s PMU in %s (a VM, or a kernel without the "
				"memory controllers' PMU)", u->dram_pmu, suffix, devroot);
	if (!rc)
		qsort(names, nn, sizeof(*names), by_name);
	for (size_t i = 0; i < nn && !rc; i++) {
		char dir[1024], line[256];
		int cpus[RT_UNCORE_MAX];
		size_t ncpus;

		snprintf(dir, sizeof(dir), "%s/%s", devroot, names[i]);
		ncpus = cpumask_cpus(dir, cpus, RT_UNCORE_MAX);

		for (size_t k = 0; k < sizeof(dram) / sizeof(dram[0]) && !rc; k++) {
			struct rt_uncore_event e = { 0 };
			char ev[160], terms[256];
			char *end;

			if (strcmp(dram[k].pmu, u->dram_pmu))
				continue;
			snprintf(ev, sizeof(ev), "events/%s", dram[k].name);
			if (dram[k].terms)
				snprintf(terms, sizeof(terms), "%s", dram[k].terms);
			else if (!read_line(dir, ev, terms, sizeof(terms))) {
				rc = rt_err_set(why, -ENOENT, "%s has no %s event: a partial DRAM count "
						"is never used", names[i], dram[k].name);
				break;
			}
			if (!read_line(dir, "type", line, sizeof(line)) ||
			    (e.type = (unsigned)strtoul(line, &end, 10), end == line)) {
				rc = rt_err_set(why, -ENOENT, "%s: no type", names[i]);
				break;
			}
			snprintf(e.pmu, sizeof(e.pmu), "%s", names[i]);
			snprintf(e.name, sizeof(e.name), "%s", dram[k].name);
			e.bytes_per_count = bytes_per_count(dir, dram[k].name, dram[k].bytes);
			if (!(e.bytes_per_count > 0)) {
				rc = rt_err_set(why, -ENOENT, "%s/%s: its unit is not bytes", names[i],
						dram[k].name);
				break;
			}
			if ((rc = rt_uncore_encode(dir, terms, e.config, why)))
				break;
			/* the event on every CPU of the cpumask: each socket's (die's) own */
			for (size_t c = 0; c < ncpus && !rc; c++) {
				if (s->n == RT_UNCORE_MAX) {
					rc = rt_err_set(why, -ENOSPC, "more than %d DRAM events",
							RT_UNCORE_MAX);
					break;
				}
				e.cpu = cpus[c];
				s->ev[s->n++] = e;
			}
		}
	}
	for (size_t i = 0; i < nn; i++)
		free(names[i]);
	if (rc)
		s->n = 0;
	return rc;
}

int rt_uncore_open(struct rt_uncore_set *s, struct rt_err *err)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct rt_uncore_event *e = &s->ev[i];
		struct perf_event_attr a;

		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = e->type;
		a.config = e->config[0];
		a.config1 = e->config[1];
		a.config2 = e->config[2];
		a.disabled = 1;
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		s->fd[i] = (int)syscall(SYS_perf_event_open, &a, -1, e->cpu, -1,
					PERF_FLAG_FD_CLOEXEC);
		if (s->fd[i] < 0) {
			int rc = rt_err_set(err, -ENOTSUP, "%s/%s/ cannot be counted here: %s%s",
					    e->pmu, e->name, strerror(errno), errno == EACCES ?
					    " (the node's memory traffic needs root or "
					    "perf_event_paranoid <= 0)" : "");

			rt_uncore_close(s);
			return rc;
		}
	}
	return 0;
}

void rt_uncore_enable(struct rt_uncore_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->fd[i] >= 0) {
			ioctl(s->fd[i], PERF_EVENT_IOC_RESET, 0);
			ioctl(s->fd[i], PERF_EVENT_IOC_ENABLE, 0);
		}
}

int rt_uncore_read(struct rt_uncore_set *s, double *bytes, double *scale, struct rt_err *err)
{
	*bytes = 0;
	*scale = 1;
	for (size_t i = 0; i < s->n; i++)
		if (s->fd[i] >= 0)
			ioctl(s->fd[i], PERF_EVENT_IOC_DISABLE, 0);
	for (size_t i = 0; i < s->n; i++) {
		uint64_t v[3];
		double f = 1;

		if (s->fd[i] < 0 || read(s->fd[i], v, sizeof(v)) != (ssize_t)sizeof(v))
			return rt_err_set(err, -EIO, "%s/%s/: read failed", s->ev[i].pmu,
					  s->ev[i].name);
		/* more events than the PMU's counters take turns: each count scaled by the
		 * share of the time it ran */
		if (v[2] < v[1]) {
			if (!v[2])
				return rt_err_set(err, -EIO, "%s/%s/ never ran (more events than the "
						  "PMU has counters)", s->ev[i].pmu, s->ev[i].name);
			f = (double)v[1] / (double)v[2];
		}
		if (f > *scale)
			*scale = f;
		*bytes += (double)v[0] * f * s->ev[i].bytes_per_count;
	}
	return 0;
}

void rt_uncore_close(struct rt_uncore_set *s)
{
	for (size_t i = 0; i < RT_UNCORE_MAX; i++)
		if (s->fd[i] >= 0) {
			close(s->fd[i]);
			s->fd[i] = -1;
		}
}
