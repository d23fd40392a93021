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
	char csv[4200], prog[64], *line = NULL, *f[RT_CSV_COLS_MAX + 1];
	int col[RT_COL_COUNT], ncol;
	size_t cap = 0, len;
	bool cmd = false, ended;
	struct rt_err ignored;
	FILE *fp;

	/* the tool its run.cfg names (the trainer's names none) */
	rt_runrec_program(dir, prog, sizeof(prog));
	if (*prog)
		return rt_workload_of_program(prog);
	/* else its first row's scope */
	snprintf(csv, sizeof(csv), "%s/points.csv", dir);
	/* a FIFO or a device is no results file (and would block) */
	if (rt_check_regular(csv, NULL) || !(fp = fopen(csv, "re")))
		return &rt_workload_trainer;
	if (rt_read_line(fp, &line, &cap, RT_POINTS_CSV_LINE_MAX, &len, &ended) > 0 &&
	    !rt_points_csv_map(line, csv, col, &ncol, &ignored) && col[RT_COL_SCOPE] >= 0 &&
	    rt_read_line(fp, &line, &cap, RT_POINTS_CSV_LINE_MAX, &len, &ended) > 0 &&
	    rt_csv_split(line, f, RT_CSV_COLS_MAX) == ncol)
		cmd = rt_points_scope_is_command(f[col[RT_COL_SCOPE]]);
	free(line);
	fclose(fp);
	return cmd ? &rt_workload_command : &rt_workload_trainer;
}
