/* cpu.c: CPU model and ISA extensions from /proc/cpuinfo, maximum clock from cpufreq; the
 * operations a core starts per cycle; the CPUs this process may use, its cgroup's CPU quota,
 * and who else ran on its CPUs (/proc/stat, /proc/PID/stat) */
#define _GNU_SOURCE
#include "config.h"
#include "machine/cpu.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/stat.h>
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

bool rt_cpu_identity_path(char *buf, size_t size, const char *path)
{
	const char *root = getenv("ROOFTRAJ_SYSROOT");

	if (!root || !*root)
		root = "";
	return (size_t)snprintf(buf, size, "%s%s", root, path) < size;
}

int rt_cpu_identity_read(const char *path, char **text, struct rt_err *err)
{
	char full[4096], *buf = NULL;
	size_t len = 0, cap = 0;
	struct stat st;
	int fd = -1, rc = 0;

	*text = NULL;
	if (!rt_cpu_identity_path(full, sizeof(full), path))
		return rt_err_set(err, -ENAMETOOLONG, "ROOFTRAJ_SYSROOT: too long");
	/* without blocking on a FIFO's writer: what it is is asked first */
	if ((fd = open(full, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0 || fstat(fd, &st)) {
		rc = rt_err_set(err, -errno, "%s: %s", full, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = rt_err_set(err, -EINVAL, "%s: not a regular file", full);
		goto out;
	}
	for (;;) {
		ssize_t n;

		if (cap - len < 2) {
			char *nb;

			if (cap >= RT_CPU_IDENTITY_MAX) {
				rc = rt_err_set(err, -EFBIG, "%s: larger than %d MiB", full,
						RT_CPU_IDENTITY_MAX >> 20);
				goto out;
			}
			cap = cap ? 2 * cap : 65536;
			if (!(nb = realloc(buf, cap))) {
				rc = rt_err_set(err, -ENOMEM, "out of memory");
				goto out;
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = rt_err_set(err, -errno, "%s: %s", full, strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	*text = buf;
	buf = NULL;
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return rc;
}

int rt_cpu_detect(struct rt_cpu *cpu, struct rt_err *err)
{
	struct rt_err ignored;
	char *text = NULL;
	int rc;

	if ((rc = rt_cpu_identity_read("/proc/cpuinfo", &text, err)))
		return rc;
	rc = rt_cpu_parse_cpuinfo(cpu, text, err);
	free(text);
	if (rc)
		return rc;
	/* the clock where the node says it (none: not known), by the same reader */
	if (!rt_cpu_identity_read("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", &text,
				  &ignored)) {
		unsigned long khz;

		if (sscanf(text, "%lu", &khz) == 1)
			cpu->max_mhz = (double)khz / 1000.0;
		free(text);
	}
	return 0;
}


/* The path of this process's cgroup for the controller (v1: a line "N:...,cpu,...:/path";
 * v2: "0::/path"), appended to root; false when there is none. */
bool rt_cpu_cgroup_dir(char *buf, size_t size, bool *v2)
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
	if (!rt_cpu_cgroup_dir(dir, sizeof(dir), &v2))
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

bool rt_cpu_has(const struct rt_cpu *cpu, const char *flag)
{
	for (size_t i = 0; cpu && i < cpu->nisa; i++)
		if (!strcmp(cpu->isa[i], flag))
			return true;
	return false;
}

const char *rt_cpu_bf16_flag(const struct rt_cpu *cpu)
{
	return rt_cpu_has(cpu, "amx_bf16") ? "amx_bf16" :
	       rt_cpu_has(cpu, "avx512_bf16") ? "avx512_bf16" : NULL;
}

double rt_cpu_ops_per_cycle(const char *vendor, int family, bool avx512,
			    enum rt_precision precision, const char *isa, const char *method)
{
	/* the bits of an element of each precision, in enum rt_precision's order */
	static const double bits[RT_PRECISION_COUNT] = { 64, 32, 16, 16, 8 };
	const bool amd = !strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine");
	const double datapath = avx512 && (!amd || family >= 0x1a) ? 512 : 256;
	double width, elem;

	if ((unsigned)precision >= RT_PRECISION_COUNT)
		return 0;
	elem = bits[precision];
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
		if (precision == RT_PRECISION_FP16)
			return 2 * 2 * width / 16;      /* VFMADD231PH */
		if (precision == RT_PRECISION_BF16)
			return 2 * (width / 32) * 2 * 2;        /* VDPBF16PS: 2 pairs a lane */
		if (precision == RT_PRECISION_INT8)
			return 2 * (width / 32) * 4 * 2;        /* VPDPBUSD: 4 pairs a lane */
	}
	return 0;
}

static void set_add(unsigned long long *set, long cpu)
{
	if (cpu >= 0 && cpu < 64 * RT_CPU_SET_WORDS)
		set[cpu / 64] |= 1ULL << (cpu % 64);
}

static bool set_has(const unsigned long long *set, long cpu)
{
	return cpu >= 0 && cpu < 64 * RT_CPU_SET_WORDS && (set[cpu / 64] >> (cpu % 64) & 1);
}

/* The busy time (user, nice, system, irq, softirq, steal) and the steal time of the CPUs in
 * set, in seconds, from /proc/stat ("cpuN user nice system idle iowait irq softirq steal");
 * the number of those CPUs it listed, -1 when it cannot be read. */
static int stat_cpus(const unsigned long long *set, double *busy, double *steal)
{
	const double hz = (double)sysconf(_SC_CLK_TCK);
	char line[512];
	int n = 0;
	FILE *fp;

	*busy = *steal = 0;
	if (!(hz > 0) || !(fp = fopen("/proc/stat", "re")))
		return -1;
	while (fgets(line, sizeof(line), fp)) {
		unsigned long long v[8] = { 0 };
		int cpu;

		if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 9 || !set_has(set, cpu))
			continue;
		*busy += (double)(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) / hz;
		*steal += (double)v[7] / hz;
		n++;
	}
	fclose(fp);
	return n;
}

int rt_cpu_usable(cpu_set_t *set)
{
	cpu_set_t mask;

	if (sched_getaffinity(0, sizeof(mask), &mask))
		return -errno;
	if (set)
		*set = mask;
	return CPU_COUNT(&mask);
}

void rt_cpu_sample_take(struct rt_cpu_sample *s)
{
	unsigned long long set[RT_CPU_SET_WORDS] = { 0 };
	struct rusage self, kids;
	cpu_set_t mask;
	double steal;
	int n;

	memset(s, 0, sizeof(*s));
	if (!getrusage(RUSAGE_SELF, &self) && !getrusage(RUSAGE_CHILDREN, &kids)) {
		s->self = (double)self.ru_utime.tv_sec + (double)self.ru_utime.tv_usec / 1e6 +
			  (double)self.ru_stime.tv_sec + (double)self.ru_stime.tv_usec / 1e6;
		s->children = (double)kids.ru_utime.tv_sec + (double)kids.ru_utime.tv_usec / 1e6 +
			      (double)kids.ru_stime.tv_sec + (double)kids.ru_stime.tv_usec / 1e6;
	}
	if (rt_cpu_usable(&mask) < 0)
		return;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &mask))
			set_add(set, c);
	n = stat_cpus(set, &s->busy, &steal);
	s->ncpus = n > 0 ? (unsigned)n : 0;
	s->ok = n > 0;
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

static int task_cmp(const void *x, const void *y)
{
	const struct rt_cpu_task *a = x, *b = y;

	return (a->pid > b->pid) - (a->pid < b->pid);
}

/* One process's line of /proc/PID/stat: "pid (comm) state ppid ... utime stime ... starttime"
 * (the 14th, 15th and 22nd fields; comm may hold anything, so it ends at the last ')', and a
 * kernel worker renames itself as it works: the start time, not the name, tells a process);
 * its name kept printable. */
static bool read_task(int pid, struct rt_cpu_task *t)
{
	char path[64], line[1024], *open = NULL, *close = NULL;
	unsigned long long utime = 0, stime = 0;
	FILE *fp;
	bool ok;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (!(fp = fopen(path, "re")))
		return false;           /* gone meanwhile */
	ok = fgets(line, sizeof(line), fp) && (open = strchr(line, '(')) &&
	     (close = strrchr(line, ')')) && close > open &&
	     sscanf(close + 1, " %*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %*d %*d %*d "
		    "%*d %*d %*d %llu", &t->ppid, &utime, &stime, &t->start) == 4;
	fclose(fp);
	if (!ok)
		return false;
	t->ticks = utime + stime;
	t->pid = pid;
	{
		size_t n = (size_t)(close - open - 1), k = 0;

		for (size_t i = 0; i < n && k + 1 < sizeof(t->comm); i++) {
			unsigned char ch = (unsigned char)open[1 + i];

			t->comm[k++] = ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\' ? (char)ch : '?';
		}
		t->comm[k] = '\0';
	}
	return true;
}

/* The CPUs of a list as the kernel writes it ("0-3,8") added to set. */
static void set_add_list(unsigned long long *set, const char *p)
{
	while (*p) {
		char *end;
		long lo, hi;

		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		lo = strtol(p, &end, 10);
		if (end == p)
			break;
		hi = lo;
		p = end;
		if (*p == '-') {
			hi = strtol(p + 1, &end, 10);
			p = end;
		}
		for (long c = lo; c <= hi && c < 64 * RT_CPU_SET_WORDS; c++)
			set_add(set, c);
	}
}

/* The Cpus_allowed_list of /proc/.../status added to set; false when it cannot be read. */
static bool add_allowed(unsigned long long *set, const char *status_path)
{
	static const char key[] = "Cpus_allowed_list:";
	char line[4096];
	bool found = false;
	FILE *fp = fopen(status_path, "re");

	if (!fp)
		return false;
	while (!found && fgets(line, sizeof(line), fp))
		if (!strncmp(line, key, strlen(key))) {
			set_add_list(set, line + strlen(key));
			found = true;
		}
	fclose(fp);
	return found;
}

/* Every process's CPU time and the steal time of the CPUs in set (its size: RT_CPU_SET_WORDS) */
static int take_set(struct rt_cpu_tasks *s, const unsigned long long *set)
{
	size_t cap = 0;
	struct dirent *de;
	double busy;
	DIR *d;

	memset(s, 0, sizeof(*s));
	if (!(d = opendir("/proc")))
		return -ENOENT;
	while ((de = readdir(d))) {
		struct rt_cpu_task t = { 0 };

		if (!isdigit((unsigned char)de->d_name[0]) || !read_task(atoi(de->d_name), &t))
			continue;
		if (s->n == cap) {
			struct rt_cpu_task *n = realloc(s->t, (cap ? 2 * cap : 256) * sizeof(*n));

			if (!n) {
				closedir(d);
				rt_cpu_tasks_free(s);
				return -ENOMEM;
			}
			s->t = n;
			cap = cap ? 2 * cap : 256;
		}
		s->t[s->n++] = t;
	}
	closedir(d);
	if (s->n)
		qsort(s->t, s->n, sizeof(*s->t), task_cmp);
	memcpy(s->cpus, set, sizeof(s->cpus));
	(void)stat_cpus(set, &busy, &s->steal);
	s->ok = true;
	return 0;
}

int rt_cpu_tasks_take(struct rt_cpu_tasks *s, const int *pus, unsigned npus)
{
	unsigned long long set[RT_CPU_SET_WORDS] = { 0 };
	struct dirent *de;
	DIR *d;

	if (pus) {
		for (unsigned i = 0; i < npus; i++)
			set_add(set, pus[i]);
	} else if ((d = opendir("/proc/self/task"))) {
		while ((de = readdir(d))) {
			char path[300];

			if (!isdigit((unsigned char)de->d_name[0]))
				continue;
			snprintf(path, sizeof(path), "/proc/self/task/%s/status", de->d_name);
			(void)add_allowed(set, path);
		}
		closedir(d);
	}
	return take_set(s, set);
}

int rt_cpu_tasks_take_like(struct rt_cpu_tasks *s, const struct rt_cpu_tasks *first)
{
	return take_set(s, first->cpus);
}

void rt_cpu_tasks_free(struct rt_cpu_tasks *s)
{
	free(s->t);
	memset(s, 0, sizeof(*s));
}

static const struct rt_cpu_task *task_find(const struct rt_cpu_tasks *s, int pid)
{
	const struct rt_cpu_task key = { .pid = pid };

	return s->n ? bsearch(&key, s->t, s->n, sizeof(*s->t), task_cmp) : NULL;
}

/* Whether pid is this process or one it started (its parent chain in the take reaches us). */
static bool ours(const struct rt_cpu_tasks *s, int pid, int self)
{
	for (int depth = 0; pid > 0 && depth < 64; depth++) {
		const struct rt_cpu_task *t;

		if (pid == self)
			return true;
		if (!(t = task_find(s, pid)))
			return false;
		pid = t->ppid;
	}
	return false;
}

/* Whether the process may run on one of the CPUs in set; true when that cannot be read (it
 * ran meanwhile: it may have run there). */
static bool allowed_on(int pid, const unsigned long long *set)
{
	unsigned long long its[RT_CPU_SET_WORDS] = { 0 };
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (!add_allowed(its, path))
		return true;
	for (int w = 0; w < RT_CPU_SET_WORDS; w++)
		if (its[w] & set[w])
			return true;
	return false;
}

void rt_cpu_culprit(const struct rt_cpu_tasks *a, const struct rt_cpu_tasks *b, char *out,
		    size_t size)
{
	const double hz = (double)sysconf(_SC_CLK_TCK);
	/* the busiest few, most first: on a machine that other work keeps busy too, the one a
	 * reader looks for need not be the very busiest */
	const struct rt_cpu_task *best[RT_CPU_CULPRITS] = { NULL };
	unsigned long long most[RT_CPU_CULPRITS] = { 0 };
	const int self = (int)getpid();
	double steal;
	size_t len;

	if (!size)
		return;
	out[0] = '\0';
	if (!a->ok || !b->ok || !(hz > 0)) {
		snprintf(out, size, "another process ran on them");
		return;
	}
	for (size_t i = 0; i < b->n; i++) {
		const struct rt_cpu_task *t = &b->t[i], *was = task_find(a, t->pid);
		unsigned long long used;
		int k;

		if (was && was->start != t->start)
			was = NULL;     /* the pid went to another process meanwhile */
		used = was ? (t->ticks > was->ticks ? t->ticks - was->ticks : 0)
			   : t->ticks;  /* started meanwhile */
		if (!used || used <= most[RT_CPU_CULPRITS - 1] || ours(b, t->pid, self) ||
		    !allowed_on(t->pid, b->cpus))
			continue;
		for (k = RT_CPU_CULPRITS - 1; k > 0 && used > most[k - 1]; k--) {
			most[k] = most[k - 1];
			best[k] = best[k - 1];
		}
		most[k] = used;
		best[k] = t;
	}
	for (int k = 0; k < RT_CPU_CULPRITS && best[k]; k++) {
		len = strlen(out);
		snprintf(out + len, size - len, "%s%s, pid %d, %.2f CPU s", k ? "; " :
			 "another process ran on them; the busiest allowed there: ", best[k]->comm,
			 best[k]->pid, (double)most[k] / hz);
	}
	steal = b->steal - a->steal;
	if (steal >= 0.01) {
		len = strlen(out);
		snprintf(out + len, size - len, "%sthe hypervisor's steal time %.2f s",
			 best[0] ? "; " : "", steal);
	}
	if (!out[0])
		snprintf(out, size, "something else ran on them: no process still running and no "
			 "steal time account for it");
}
