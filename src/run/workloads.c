/* workloads.c: the table of the workloads a sweep can run */
#include "config.h"
#include "run/workloads.h"
#include "run/cmd-run.h"
#include "base/util.h"
#include "results/points.h"
#include "sweep/runrec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct rt_workload *const rt_workloads[] = { &rt_workload_trainer, &rt_workload_command,
						   NULL };

const struct rt_workload *rt_workload_of_program(const char *program)
{
	if (!program || !*program)
		return &rt_workload_trainer;
	for (size_t i = 0; rt_workloads[i]; i++)
		if (!strcmp(rt_workloads[i]->program, program))
			return rt_workloads[i];
	return NULL;
}

const struct rt_workload *rt_workload_of_dir(const char *dir)
{
	char csv[4200], prog[64];
	bool cmd;
	FILE *fp;

	/* the tool its run.cfg names (the trainer's names none) */
	rt_runrec_program(dir, prog, sizeof(prog));
	if (*prog)
		return rt_workload_of_program(prog);
	/* else its points.csv's first row (a file that does not read: the trainer's path says
	 * why); a FIFO or a device is no results file (and would block) */
	snprintf(csv, sizeof(csv), "%s/points.csv", dir);
	if (rt_check_regular(csv, NULL) || !(fp = fopen(csv, "re")))
		return &rt_workload_trainer;
	cmd = rt_points_csv_is_command(fp);
	fclose(fp);
	return cmd ? &rt_workload_command : &rt_workload_trainer;
}
