/* cpu.c: CPU model and ISA extensions from /proc/cpuinfo, maximum clock from cpufreq */
#include "config.h"
#include "cpu.h"

#include <errno.h>
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
