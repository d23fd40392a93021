/* cluster.c: what both builds share: whether a launcher started this process, and the one
 * rank of one node a process is alone (cluster-mpi.c with Open MPI, cluster-none.c without:
 * Makefile.am builds one of them) */
#include "config.h"
#include "cluster/cluster.h"
#include "base/util.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool rt_cluster_launched(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK");
}

void rt_cluster_single(struct rt_cluster *c)
{
	c->active = false;
	c->rank = c->node_rank = c->node = 0;
	c->size = c->node_size = c->nodes = 1;
}


long rt_cluster_expected_tasks(const char **from)
{
	static const char *const vars[] = { "SLURM_STEP_NUM_TASKS", "SLURM_NTASKS",
					    "OMPI_COMM_WORLD_SIZE", "PMI_SIZE" };
	long best = 1;

	*from = NULL;
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]), *step = getenv("SLURM_STEP_ID");
		char *end;
		long n;

		if (!v || !*v)
			continue;
		/* SLURM_NTASKS is the allocation's in a batch script (run once): a step's only
		 * inside srun (a numeric step id; the batch and extern steps are not) */
		if (i == 1 && (!step || strtol(step, &end, 10) < 0 || *end ||
			       strtol(step, NULL, 10) >= 0x7ffffff0L))
			continue;
		n = strtol(v, &end, 10);
		if (*end || n < 1 || n > (1L << 24))
			continue;
		if (n > best) {
			best = n;
			*from = vars[i];
		}
	}
	return best;
}

int rt_cluster_check_world(int world_size, struct rt_err *err)
{
	const char *from;
	const long tasks = rt_cluster_expected_tasks(&from);

	if (tasks <= 1 || world_size > 1)
		return 0;
	return rt_err_set(err, -ENOTSUP, "the launcher started %ld tasks (%s=%ld) but MPI sees "
			  "one rank: each would measure alone, on the same cores, and write the same "
			  "files. %s", tasks, from, tasks, rt_cluster_built() ?
			  "Under Slurm start them with srun --mpi=pmix (srun --mpi=list shows the "
			  "site's plugins) or with mpirun inside the allocation" :
			  "This rooftraj was built without MPI (./configure --with-mpi=yes; "
			  "Debian: libopenmpi-dev)");
}
