/* cmd-ranks.h: roofline-run under mpirun or srun: each rank wraps its own process of the
 * command (roofline-run itself never calls MPI: a process that forks after MPI_Init is
 * fragile, and the command may be an MPI program), the rank taken from the launcher's
 * environment (rt_cluster_launch_detect, as every tool reads it); each rank writes
 * DIR/rank-K/, and the last rank to finish puts every rank's rows in DIR/points.csv and one
 * summary of the job in DIR/summary.txt. */
#ifndef RT_CMD_RANKS_H
#define RT_CMD_RANKS_H

#include <stdio.h>
#include "base/err.h"
#include "cluster/cluster.h"

/* Once this rank's DIR/rank-K/summary.txt is written: when every rank's is, and no rank
 * merged before, DIR/points.csv (every rank's rows) and DIR/summary.txt (the job: per
 * configuration and repetition the slowest rank's wall time, the FLOPs of all ranks) are
 * written and the summary printed on out; returns 1 then, 0 when other ranks are still
 * running (or one merged already), a negative errno with err filled on failure. */
int rt_cmd_ranks_merge(const char *dir, const struct rt_cluster_launch *l, FILE *out,
		       struct rt_err *err);

#endif
