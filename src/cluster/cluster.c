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

void rt_cluster_single(struct rt_cluster *c)
{
	c->active = false;
	c->rank = c->node_rank = c->node = 0;
	c->size = c->node_size = c->nodes = 1;
}


/* A whole number in lo..hi, all of it. */
static bool env_long(const char *v, long lo, long hi, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(v, &end, 10);
	return *v && !*end && !errno && *out >= lo && *out <= hi;
}

/* Whether this process runs inside a Slurm job step (srun): a numeric step id; a batch
 * script runs outside any (no SLURM_STEP_ID, or the batch and extern steps' ids near 2^32),
 * with the allocation's SLURM_NTASKS for the tasks it may start, not its own. */
static bool slurm_step(void)
{
	const char *step = getenv("SLURM_STEP_ID");
	long id;

	return step && env_long(step, 0, 0x7fffffefL, &id);
}

int rt_cluster_launch_detect(struct rt_cluster_launch *l, struct rt_err *err)
{
	/* the rank's variable and the size's, the first pair present decides; an MPI launcher's
	 * (MPI_Init joins its job) or a Slurm step's */
	static const struct {
		const char *rank, *size;
		bool mpi, step;
	} pairs[] = {
		{ "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", true, false },
		{ "PMI_RANK", "PMI_SIZE", true, false },
		{ "SLURM_PROCID", "SLURM_STEP_NUM_TASKS", false, true },
		{ "SLURM_PROCID", "SLURM_NTASKS", false, true },
		{ "PMIX_RANK", NULL, true, false },
	};
	const bool step = slurm_step();

	memset(l, 0, sizeof(*l));
	l->size = 1;
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		const char *r = getenv(pairs[i].rank);
		const char *s = pairs[i].size ? getenv(pairs[i].size) : NULL;
		long size = 0, rank;

		l->mpi |= pairs[i].mpi && r && (s || !pairs[i].size);
		if (l->launched || (pairs[i].step && !step) || (!s && (!r || pairs[i].size)))
			continue;
		if (s && !env_long(s, 1, RT_CLUSTER_MAX_TASKS, &size))
			return rt_err_set(err, -EINVAL, "%s: '%.40s' is not a number of tasks (1..%ld): "
					  "not a launch this tool can join", pairs[i].size, s,
					  (long)RT_CLUSTER_MAX_TASKS);
		if (!r)
			return rt_err_set(err, -EINVAL, "%s=%ld but %s is not set: not a launch this "
					  "tool can join", pairs[i].size, size, pairs[i].rank);
		if (!env_long(r, 0, s ? size - 1 : RT_CLUSTER_MAX_TASKS - 1, &rank))
			return s ? rt_err_set(err, -EINVAL, "%s: '%.40s' is not a rank of %s=%ld "
					      "(0..%ld)", pairs[i].rank, r, pairs[i].size, size,
					      size - 1) :
				   rt_err_set(err, -EINVAL, "%s: '%.40s' is not a rank", pairs[i].rank,
					      r);
		l->launched = true;
		l->rank = (int)rank;
		l->size = (int)size;    /* 0: the launcher's MPI says (PMIx alone) */
		snprintf(l->from, sizeof(l->from), "%s", s ? pairs[i].size : pairs[i].rank);
	}
	return 0;
}

int rt_cluster_check_world(const struct rt_cluster_launch *l, int world_size, bool mpi_built,
			   struct rt_err *err)
{
	if (l->size <= 1 || world_size > 1)
		return 0;
	return rt_err_set(err, -ENOTSUP, "the launcher started %d tasks (%s=%d) but MPI sees "
			  "one rank: each would measure alone, on the same cores, and write the same "
			  "files. %s", l->size, l->from, l->size, mpi_built ?
			  "Under Slurm start them with srun --mpi=pmix (srun --mpi=list shows the "
			  "site's plugins) or with mpirun inside the allocation" :
			  "This rooftraj was built without MPI (./configure --with-mpi=yes; "
			  "Debian: libopenmpi-dev)");
}
