/* cluster-none.c: a build without MPI: one rank, one node; an mpirun launch of several
 * processes is refused rather than running unaware copies */
#include "config.h"
#include "cluster/cluster.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool rt_cluster_built(void)
{
	return false;
}


int rt_cluster_init(struct rt_cluster *c, int *argc, char ***argv, struct rt_err *err)
{
	struct rt_cluster_launch l;
	int rc;

	(void)argc;
	(void)argv;
	memset(c, 0, sizeof(*c));
	gethostname(c->host, sizeof(c->host) - 1);
	rt_cluster_single(c);
	if ((rc = rt_cluster_launch_detect(&l, err)))
		return rc;
	return rt_cluster_check_world(&l, 1, false, err);
}

void rt_cluster_finalize(struct rt_cluster *c)
{
	(void)c;
}

void rt_cluster_abort(const struct rt_cluster *c, int code)
{
	(void)c;
	exit(code);
}

void rt_cluster_barrier(const struct rt_cluster *c)
{
	(void)c;
}

void rt_cluster_node_sync(const struct rt_cluster *c)
{
	(void)c;
}

void rt_cluster_sync_idle(const struct rt_cluster *c, bool working)
{
	(void)c;
	(void)working;
}

double rt_cluster_sum(const struct rt_cluster *c, double v)
{
	(void)c;
	return v;
}

double rt_cluster_max(const struct rt_cluster *c, double v)
{
	(void)c;
	return v;
}

void rt_cluster_bcast(const struct rt_cluster *c, void *buf, size_t n)
{
	(void)c;
	(void)buf;
	(void)n;
}

int rt_cluster_gather_leaders(const struct rt_cluster *c, const char *mine, char **all,
			      struct rt_err *err)
{
	(void)c;
	if (all && !(*all = strdup(mine ? mine : "")))
		return rt_err_set(err, -ENOMEM, "out of memory");
	return 0;
}

int rt_cluster_network(const struct rt_cluster *c, struct rt_network *net, struct rt_err *err)
{
	(void)c;
	(void)err;
	memset(net, 0, sizeof(*net));
	net->peer = -1;
	return 0;
}

