/* cmd-ranks.h: roofline-run under mpirun or srun: each rank wraps its own process of the
 * command (roofline-run itself never calls MPI: a process that forks after MPI_Init is
 * fragile, and the command may be an MPI program), the rank taken from the launcher's
 * environment; each rank writes DIR/rank-K/, and the last rank to finish puts every rank's
 * rows in DIR/points.csv and one summary of the job in DIR/summary.txt. */
#ifndef RT_CMD_RANKS_H
#define RT_CMD_RANKS_H

#include <stdio.h>
#include "base/err.h"

struct rt_cmd_launcher {
	int rank, size;                 /* size 1: no launcher (rank 0) */
	char from[48];                  /* the variable the size came from */
};

/* From OMPI_COMM_WORLD_RANK/SIZE (Open MPI), PMI_RANK/PMI_SIZE (MPICH, Intel MPI) or
 * SLURM_PROCID/SLURM_NTASKS (srun), the first pair that reads as 0 <= rank < size. */
void rt_cmd_launcher_detect(struct rt_cmd_launcher *l);

/* Once this rank's DIR/rank-K/summary.txt is written: when every rank's is, and no rank
 * merged before, DIR/points.csv (every rank's rows) and DIR/summary.txt (the job: per
 * configuration and repetition the slowest rank's wall time, the FLOPs of all ranks) are
 * written and the summary printed on out; returns 1 then, 0 when other ranks are still
 * running (or one merged already), a negative errno with err filled on failure. */
int rt_cmd_ranks_merge(const char *dir, const struct rt_cmd_launcher *l, FILE *out,
		       struct rt_err *err);

#endif
