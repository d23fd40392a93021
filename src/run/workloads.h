/* workloads.h: the table of the workloads a sweep can run (sweep/engine.h), and the one a
 * results directory holds */
#ifndef RT_WORKLOADS_H
#define RT_WORKLOADS_H

#include "sweep/engine.h"
#include "run/cmd-run.h"

/* The trainer's: a child roofline-train per configuration (run/sweep-train.c). */
extern const struct rt_workload rt_workload_trainer;

/* Every workload, NULL-terminated: the trainer's child, a user's command (run/cmd-run.c). */
extern const struct rt_workload *const rt_workloads[];

/* The workload whose tool wrote a run.cfg naming program: "" or NULL is the trainer's (its
 * run.cfg names none); NULL when no workload is that tool's. */
const struct rt_workload *rt_workload_of_program(const char *program);

/* The workload whose results DIR holds: the tool its run.cfg names; without one that names a
 * tool, its points.csv's first row's scope (roofline-run's or the trainer's; a file that does
 * not read is the trainer's, whose reader says why). NULL when its run.cfg names a tool that
 * no workload is. */
const struct rt_workload *rt_workload_of_dir(const char *dir);

#endif
