/* sweep-mpi.h: a sweep under mpirun: every rank runs each configuration in its own process
 * (there is no child process per configuration); rank 0 drives the sweep (rt_sweep_measure with
 * rt_sweep_mpi_run as its runner) and broadcasts each configuration, the other ranks follow */
#ifndef RT_SWEEP_MPI_H
#define RT_SWEEP_MPI_H

#include "cluster/cluster.h"
#include "base/err.h"
#include "cnn/model.h"
#include "cnn/net.h"
#include "base/spawn.h"
#include "sweep/sweep.h"
#include "run/sweep-child.h"
#include "machine/topo.h"

struct rt_sweep_mpi {
	struct rt_model *m;
	struct rt_net_opts no;          /* batch and precision come from each configuration */
	struct rt_sweep_child_opts measure;        /* comm: the cluster's (set by the functions) */
	const struct rt_cluster *cl;
	const struct rt_topo *topo;
	/* a rank whose placement failed measures without it: said here (NULL: silent) */
	void (*warn)(void *ctx, int rank, const char *msg);
	void *warn_ctx;
};

/* This rank's threads pinned to its share of the node's placement for all its ranks' threads
 * (compact, scatter; one process: the placement itself), or back to the CPU set the process
 * was given (none). */
int rt_sweep_mpi_place(const struct rt_cluster *cl, const struct rt_topo *topo,
		       enum rt_affinity aff, unsigned threads, struct rt_err *err);

/* Rank 0's runner for rt_sweep_measure: broadcast the configuration, measure it here with every
 * rank, and fill ch as a child's run would (ok, reason, the protocol's lines in ch->out). */
int rt_sweep_mpi_run(void *ctx, const struct rt_sweep_config *c, struct rt_child *ch,
		     struct rt_err *err);
/* The other ranks: measure what rank 0 broadcasts until it says stop. 0, or -errno. */
int rt_sweep_mpi_follow(struct rt_sweep_mpi *h, struct rt_err *err);
/* Rank 0, once the sweep ended (or failed): the followers stop. */
void rt_sweep_mpi_stop(struct rt_sweep_mpi *h);

#endif
