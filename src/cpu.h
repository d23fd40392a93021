/* cpu.h: what the CPU is: model name, the ISA extensions that matter for FLOPs, clock */
#ifndef RT_CPU_H
#define RT_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include "err.h"

#define RT_CPU_MAX_ISA 24

struct rt_cpu {
	char model[128];
	char isa[RT_CPU_MAX_ISA][16];   /* in the order of the table in cpu.c */
	size_t nisa;
	double max_mhz;                 /* cpufreq's maximum, 0 when the OS does not say (VMs) */
	bool hypervisor;
};

/* Parse /proc/cpuinfo-formatted text (the first processor's block). */
int rt_cpu_parse_cpuinfo(struct rt_cpu *cpu, const char *text, struct rt_err *err);
/* Read this machine's /proc/cpuinfo and cpufreq. */
int rt_cpu_detect(struct rt_cpu *cpu, struct rt_err *err);

#endif
