/* cluster.h: Open MPI when a tool runs under mpirun (ranks, nodes, the gradient sums of
 * data-parallel training, the network measurements of the cluster probe); one process on one
 * node otherwise, and always when rooftraj was built without MPI */
#ifndef RT_CLUSTER_H
#define RT_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>
#include "base/err.h"
#include "cnn/comm.h"

struct rt_cluster_mpi;

struct rt_cluster {
	bool active;                    /* MPI initialized: launched by mpirun */
	int rank, size;                 /* in the job (0 and 1 when not active) */
	int node_rank, node_size;       /* among the ranks sharing this node */
	int node, nodes;                /* this node's index (by its leader's rank), how many */
	char host[256];
	struct rt_cluster_mpi *mpi;     /* communicators, pending gradient sums */
	struct rt_comm comm;            /* data parallelism for rt_train_iterations */
};

/* Whether this build has MPI. */
bool rt_cluster_built(void);
/* The one rank of one node (both builds: a process no launcher started, or any process of a
 * build without MPI). */
void rt_cluster_single(struct rt_cluster *c);

#define RT_CLUSTER_MAX_TASKS (1L << 24)

/* How this process was started: alone, or as one task of a launcher's job. */
struct rt_cluster_launch {
	bool launched;                  /* a launcher started it as a task of a job */
	bool mpi;                       /* an MPI launcher's variables (MPI_Init joins its job) */
	int rank, size;                 /* 0 and 1 alone; size 0: PMIx alone, MPI_Init tells */
	char from[48];                  /* the variable the size came from ("": alone) */
};
/* The one rule for "am I a rank of a job", for every tool: the first of OMPI_COMM_WORLD_RANK/
 * _SIZE (mpirun), PMI_RANK/PMI_SIZE (MPICH, Intel MPI), SLURM_PROCID/SLURM_STEP_NUM_TASKS
 * or SLURM_NTASKS inside an srun step (a batch script is no step: its SLURM_NTASKS is the
 * allocation's and the script runs once), PMIX_RANK. A pair present that does not read as
 * 0 <= rank < size is -EINVAL naming the variable (a garbage size is not a launch of one). */
int rt_cluster_launch_detect(struct rt_cluster_launch *l, struct rt_err *err);
/* No silent singletons: when the launcher started several tasks but MPI's world (world_size)
 * holds one, each would measure alone on the same cores and write the same files: -ENOTSUP
 * with how to fix it (the launcher's MPI plugin, or a build with MPI: mpi_built, the backend
 * that asks). */
int rt_cluster_check_world(const struct rt_cluster_launch *l, int world_size, bool mpi_built,
			   struct rt_err *err);

/* Initialize MPI when launched by mpirun (and built with it); otherwise fill a one-process
 * cluster. Nodes are found with MPI_Comm_split_type(MPI_COMM_TYPE_SHARED). An MPI launch of a
 * build without MPI is an error (each process would believe it is alone). */
int rt_cluster_init(struct rt_cluster *c, int *argc, char ***argv, struct rt_err *err);
void rt_cluster_finalize(struct rt_cluster *c);
/* Stop every rank of the job (MPI_Abort) or exit. */
void rt_cluster_abort(const struct rt_cluster *c, int code) __attribute__((noreturn));

/* The ranks of a node meet: the leader (node_rank 0) waits normally; the others wait idle
 * (sleeping between polls), so a measurement on the node is not disturbed by them. */
void rt_cluster_node_sync(const struct rt_cluster *c);
/* Every rank of the job meets; `working` ranks wait normally, the others poll and sleep (they
 * leave the CPU to whoever measures: one node's turn at a time). */
void rt_cluster_sync_idle(const struct rt_cluster *c, bool working);

/* Collectives over the job (identity when not active). */
void rt_cluster_barrier(const struct rt_cluster *c);
double rt_cluster_sum(const struct rt_cluster *c, double v);
double rt_cluster_max(const struct rt_cluster *c, double v);
/* Broadcast n bytes from rank 0. */
void rt_cluster_bcast(const struct rt_cluster *c, void *buf, size_t n);
/* Gather a string from the leader of every node at rank 0: *all (rank 0 only; caller frees
 * with free(), one allocation) holds `nodes` NUL-terminated strings back to back, in node
 * order. Other ranks pass NULL to mine. */
int rt_cluster_gather_leaders(const struct rt_cluster *c, const char *mine, char **all,
			      struct rt_err *err);

/* Network measurements (collective over the job). Ping-pong between rank 0 and the first rank
 * of another node (or rank 1 of this node when there is one node: its scope says which);
 * allreduce of a float array over every rank. Sizes are the message bytes. */
struct rt_net_point {
	size_t bytes;
	double seconds;                 /* one way (half a round trip); one allreduce */
	double gbytes_per_s;            /* bytes / seconds */
	int reps;                       /* the repetitions seconds is the mean of */
};
struct rt_network {
	char scope[32];                 /* "inter-node", "intra-node" or "" when one rank */
	char transport[128];            /* what carried it, as Open MPI was told: "btl
					 * self,tcp", "pml ucx", or "Open MPI's choice" */
	int peer;                       /* the ping-pong partner of rank 0 */
	struct rt_net_point pingpong[16], allreduce[16];
	size_t npingpong, nallreduce;
};
int rt_cluster_network(const struct rt_cluster *c, struct rt_network *net, struct rt_err *err);

#endif
