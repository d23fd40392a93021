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
	struct rt_points_file f;
	struct rt_err ignored;
	bool cmd = false;
	FILE *fp;

	/* the tool its run.cfg names (the trainer's names none) */
	rt_runrec_program(dir, prog, sizeof(prog));
	if (*prog)
		return rt_workload_of_program(prog);
	/* else the rows its points.csv holds (one that does not read: the trainer's path says
	 * why); a FIFO or a device is no results file (and would block) */
	snprintf(csv, sizeof(csv), "%s/points.csv", dir);
	if (rt_check_regular(csv, NULL) || !(fp = fopen(csv, "re")))
		return &rt_workload_trainer;
	if (!rt_points_csv_load(fp, csv, false, &f, &ignored)) {
		cmd = f.command_rows > 0;
		rt_points_file_free(&f);
	}
	fclose(fp);
	return cmd ? &rt_workload_command : &rt_workload_trainer;
}
