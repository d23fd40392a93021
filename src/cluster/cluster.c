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

