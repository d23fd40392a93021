/* cluster-mpi.c: MPI under mpirun: nodes from MPI_Comm_split_type, the bucketed gradient sums
 * of data-parallel training (MPI_Iallreduce started during backward), the network measurements
 * of the cluster probe; one rank, one node when no launcher started the process */
#include "config.h"
#include "cluster/cluster.h"
#include "base/util.h"

#include <errno.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool rt_cluster_built(void)
{
	return true;
}

/* Gradients smaller than this go into a shared bucket, summed in slices of about this size;
 * larger ones are summed on their own. */
#define BUCKET_FLOATS (256 * 1024)

struct pending {
	float *grad;                    /* a small gradient: copied into the bucket at off */
	size_t count, off;
};

struct rt_cluster_mpi {
	MPI_Comm world, node, leaders;  /* leaders: the first rank of each node */
	MPI_Request *reqs;
	size_t nreqs, cap_reqs;
	struct pending *small;
	size_t nsmall, cap_small;
	float *bucket;                  /* the small gradients, back to back */
	size_t bucket_used, bucket_cap, bucket_sent;
	bool sized;                     /* the bucket holds a whole iteration's small gradients */
};

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	void *q;
	size_t n = *cap ? *cap : 16;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * elem);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

static int mpi_fail(struct rt_err *err, int code, const char *what)
{
	char msg[MPI_MAX_ERROR_STRING];
	int len = 0;

	MPI_Error_string(code, msg, &len);
	return rt_err_set(err, -EIO, "MPI: %s: %.*s", what, len, msg);
}

static int start_sum(struct rt_cluster_mpi *m, float *buf, size_t count, struct rt_err *err)
{
	int rc;

	if (grow((void **)&m->reqs, &m->cap_reqs, m->nreqs + 1, sizeof(*m->reqs)))
		return rt_err_set(err, -ENOMEM, "out of memory");
	rc = MPI_Iallreduce(MPI_IN_PLACE, buf, (int)count, MPI_FLOAT, MPI_SUM, m->world,
			    &m->reqs[m->nreqs]);
	if (rc != MPI_SUCCESS)
		return mpi_fail(err, rc, "MPI_Iallreduce");
	m->nreqs++;
	return 0;
}

/* rt_comm.start: a large gradient is summed at once; a small one joins the bucket, whose
 * slices are summed as they fill (once the bucket has its size: the first iteration sums it
 * whole in finish, so it never moves while a sum is pending) */
static int comm_start(void *ctx, float *grad, size_t count, struct rt_err *err)
{
	struct rt_cluster *c = ctx;
	struct rt_cluster_mpi *m = c->mpi;
	int flag = 0;

	if (count >= BUCKET_FLOATS / 4) {
		int rc = start_sum(m, grad, count, err);

		if (rc)
			return rc;
	} else {
		if (grow((void **)&m->small, &m->cap_small, m->nsmall + 1, sizeof(*m->small)))
			return rt_err_set(err, -ENOMEM, "out of memory");
		if (!m->sized && grow((void **)&m->bucket, &m->bucket_cap, m->bucket_used + count,
				      sizeof(float)))
			return rt_err_set(err, -ENOMEM, "out of memory");
		if (m->bucket_used + count > m->bucket_cap)
			return rt_err_set(err, -EINVAL, "gradient bucket: the layers changed");
		m->small[m->nsmall++] = (struct pending){ grad, count, m->bucket_used };
		memcpy(m->bucket + m->bucket_used, grad, count * sizeof(float));
		m->bucket_used += count;
		if (m->sized && m->bucket_used - m->bucket_sent >= BUCKET_FLOATS) {
			int rc = start_sum(m, m->bucket + m->bucket_sent,
					   m->bucket_used - m->bucket_sent, err);

			if (rc)
				return rc;
			m->bucket_sent = m->bucket_used;
		}
	}
	/* let the pending sums progress while backward goes on */
	if (m->nreqs)
		MPI_Testall((int)m->nreqs, m->reqs, &flag, MPI_STATUSES_IGNORE);
	return 0;
}

static int comm_finish(void *ctx, struct rt_err *err)
{
	struct rt_cluster *c = ctx;
	struct rt_cluster_mpi *m = c->mpi;
	int rc;

	if (m->bucket_used > m->bucket_sent &&
	    (rc = start_sum(m, m->bucket + m->bucket_sent, m->bucket_used - m->bucket_sent, err)))
		return rc;
	rc = MPI_Waitall((int)m->nreqs, m->reqs, MPI_STATUSES_IGNORE);
	m->nreqs = 0;
	if (rc != MPI_SUCCESS)
		return mpi_fail(err, rc, "MPI_Waitall");
	for (size_t i = 0; i < m->nsmall; i++)
		memcpy(m->small[i].grad, m->bucket + m->small[i].off,
		       m->small[i].count * sizeof(float));
	m->nsmall = 0;
	m->bucket_used = m->bucket_sent = 0;
	m->sized = true;
	return 0;
}

static double comm_sum(void *ctx, double v)
{
	return rt_cluster_sum(ctx, v);
}

int rt_cluster_init(struct rt_cluster *c, int *argc, char ***argv, struct rt_err *err)
{
	struct rt_cluster_launch l;
	int provided = 0, lrank = 0, rc;

	memset(c, 0, sizeof(*c));
	gethostname(c->host, sizeof(c->host) - 1);
	rt_cluster_single(c);
	if ((rc = rt_cluster_launch_detect(&l, err)))
		return rc;
	if (!l.mpi)
		return rt_cluster_check_world(&l, 1, true, err);
	rc = MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
	if (rc != MPI_SUCCESS)
		return rt_err_set(err, -EIO, "MPI_Init_thread failed (%d)", rc);
	c->mpi = calloc(1, sizeof(*c->mpi));
	if (!c->mpi)
		return rt_err_set(err, -ENOMEM, "out of memory");
	c->active = true;
	c->mpi->world = MPI_COMM_WORLD;
	/* MPI's own handler stays: a failing call stops the whole job with MPI's message (a rank
	 * that went on after a failed collective would compute on garbage or hang the others);
	 * the return codes the code checks are for an errhandler a caller may set */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	MPI_Comm_rank(MPI_COMM_WORLD, &c->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &c->size);
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, c->rank, MPI_INFO_NULL,
			    &c->mpi->node);
	MPI_Comm_rank(c->mpi->node, &c->node_rank);
	MPI_Comm_size(c->mpi->node, &c->node_size);
	MPI_Comm_split(MPI_COMM_WORLD, c->node_rank == 0 ? 0 : MPI_UNDEFINED, c->rank,
		       &c->mpi->leaders);
	if (c->node_rank == 0) {
		MPI_Comm_rank(c->mpi->leaders, &lrank);
		MPI_Comm_size(c->mpi->leaders, &c->nodes);
	}
	c->node = lrank;
	MPI_Bcast(&c->node, 1, MPI_INT, 0, c->mpi->node);
	MPI_Bcast(&c->nodes, 1, MPI_INT, 0, MPI_COMM_WORLD);
	c->comm = (struct rt_comm){ .rank = c->rank, .size = c->size, .start = comm_start,
				    .finish = comm_finish, .sum = comm_sum, .ctx = c };
	return rt_cluster_check_world(&l, c->size, true, err);
}

void rt_cluster_finalize(struct rt_cluster *c)
{
	if (!c->active)
		return;
	if (c->mpi->leaders != MPI_COMM_NULL)
		MPI_Comm_free(&c->mpi->leaders);
	MPI_Comm_free(&c->mpi->node);
	free(c->mpi->reqs);
	free(c->mpi->small);
	free(c->mpi->bucket);
	free(c->mpi);
	c->mpi = NULL;
	c->active = false;
	MPI_Finalize();
}

void rt_cluster_abort(const struct rt_cluster *c, int code)
{
	if (c->active)
		MPI_Abort(MPI_COMM_WORLD, code);
	exit(code);
}

void rt_cluster_barrier(const struct rt_cluster *c)
{
	if (c->active)
		MPI_Barrier(MPI_COMM_WORLD);
}

/* One nonblocking barrier on comm: `working` ranks wait for it, the others poll and sleep
 * (MPI_Barrier would spin on a core a measurement uses). */
static void idle_barrier(MPI_Comm comm, bool working)
{
	MPI_Request req;
	int done = 0;

	MPI_Ibarrier(comm, &req);
	if (working) {
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		return;
	}
	while (!done) {
		MPI_Test(&req, &done, MPI_STATUS_IGNORE);
		if (!done)
			usleep(20000);
	}
}

void rt_cluster_node_sync(const struct rt_cluster *c)
{
	/* the node's leader measures; its other ranks wait idle */
	if (c->active)
		idle_barrier(c->mpi->node, c->node_rank == 0);
}

void rt_cluster_sync_idle(const struct rt_cluster *c, bool working)
{
	if (c->active)
		idle_barrier(MPI_COMM_WORLD, working);
}

double rt_cluster_sum(const struct rt_cluster *c, double v)
{
	double r = v;

	if (c->active)
		MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	return r;
}

double rt_cluster_max(const struct rt_cluster *c, double v)
{
	double r = v;

	if (c->active)
		MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
	return r;
}

void rt_cluster_bcast(const struct rt_cluster *c, void *buf, size_t n)
{
	if (c->active)
		MPI_Bcast(buf, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD);
}

int rt_cluster_gather_leaders(const struct rt_cluster *c, const char *mine, char **all,
			      struct rt_err *err)
{
	int len, *lens = NULL, *offs = NULL, total = 0, rc = 0;
	char *buf = NULL;

	if (all)
		*all = NULL;
	if (!c->active) {
		if (c->rank == 0 && all && !(*all = strdup(mine ? mine : "")))
			return rt_err_set(err, -ENOMEM, "out of memory");
		return 0;
	}
	if (c->node_rank != 0)
		return 0;
	len = (int)strlen(mine ? mine : "") + 1;
	if (c->rank == 0) {
		lens = calloc((size_t)c->nodes, sizeof(int));
		offs = calloc((size_t)c->nodes, sizeof(int));
		if (!lens || !offs) {
			rc = rt_err_set(err, -ENOMEM, "out of memory");
			len = -1;       /* the others still take part in the gather */
		}
	}
	MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, c->mpi->leaders);
	if (c->rank == 0 && !rc) {
		for (int i = 0; i < c->nodes; i++) {
			offs[i] = total;
			total += lens[i];
		}
		buf = malloc((size_t)total);
		if (!buf)
			rc = rt_err_set(err, -ENOMEM, "out of memory");
	}
	MPI_Gatherv(mine ? mine : "", len < 0 ? 0 : len, MPI_CHAR, buf, lens, offs, MPI_CHAR, 0,
		    c->mpi->leaders);
	free(lens);
	free(offs);
	if (c->rank == 0 && !rc)
		*all = buf;
	else
		free(buf);
	return rc;
}

/* The network's repetitions: each message size runs up to its count of repetitions, in
 * batches that double, each batch no longer than what the repetitions so far say is left of
 * NET_BUDGET seconds (timed on the rank that decides, which tells every rank alike): a slow or
 * shared path (two ranks on one core, a throttled node, a congested link) costs at most about
 * NET_BUDGET a size, not thousands of its round trips. The points keep how many repetitions
 * their time is the mean of. */
#define NET_BUDGET 0.25

/* One repetition of a network measurement: a ping-pong round trip between ranks a and b, or an
 * allreduce over every rank (b < 0), of n bytes in buf. */
struct net_op {
	const struct rt_cluster *c;
	int a, b;
	char *buf;
	size_t n;
};

static void net_once(const struct net_op *o)
{
	if (o->b < 0) {
		MPI_Allreduce(MPI_IN_PLACE, o->buf, (int)(o->n / sizeof(float)), MPI_FLOAT, MPI_SUM,
			      MPI_COMM_WORLD);
	} else if (o->c->rank == o->a) {
		MPI_Send(o->buf, (int)o->n, MPI_BYTE, o->b, 7, MPI_COMM_WORLD);
		MPI_Recv(o->buf, (int)o->n, MPI_BYTE, o->b, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else if (o->c->rank == o->b) {
		MPI_Recv(o->buf, (int)o->n, MPI_BYTE, o->a, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(o->buf, (int)o->n, MPI_BYTE, o->a, 7, MPI_COMM_WORLD);
	}
}

/* Seconds per repetition of o on this rank, the mean of *done (at most reps) repetitions, run
 * in batches and timed without the batches' decisions; rank o->a sizes each next batch (twice
 * the last, within the count and within what the mean so far says fits in what is left of
 * NET_BUDGET; 0 once either is spent) and tells every rank, so all run and stop alike. */
static double net_timed(const struct net_op *o, int reps, int *done)
{
	double t = 0;
	int k = 0, m = 1;

	MPI_Barrier(MPI_COMM_WORLD);
	while (m > 0) {
		const double t0 = MPI_Wtime();

		for (int r = 0; r < m; r++)
			net_once(o);
		t += MPI_Wtime() - t0;
		k += m;
		if (o->c->rank == o->a) {
			const double fits = t >= NET_BUDGET ? 0 : t > 0 ? (NET_BUDGET - t) / (t / k) :
					    reps;

			m = 2 * m < reps - k ? 2 * m : reps - k;
			m = fits < m ? (int)fits : m;
		}
		MPI_Bcast(&m, 1, MPI_INT, o->a, MPI_COMM_WORLD);
	}
	*done = k;
	return t / k;
}

int rt_cluster_network(const struct rt_cluster *c, struct rt_network *net, struct rt_err *err)
{
	static const size_t pp_sizes[] = { 8, 64, 512, 4096, 32768, 262144, 2097152, 8388608 };
	static const size_t ar_sizes[] = { 4096, 16384, 65536, 262144, 1048576, 4194304,
					   16777216 };
	int *node_of = NULL;
	char *buf = NULL;
	int peer = -1;

	memset(net, 0, sizeof(*net));
	net->peer = -1;
	if (!c->active || c->size < 2)
		return 0;
	node_of = calloc((size_t)c->size, sizeof(int));
	buf = calloc(1, ar_sizes[6] > pp_sizes[7] ? ar_sizes[6] : pp_sizes[7]);
	{
		/* every rank must stop here alike, or the others would wait in the collectives */
		int ok = node_of && buf;

		MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
		if (!ok) {
			free(node_of);
			free(buf);
			return rt_err_set(err, -ENOMEM, "out of memory for the network measurement "
					  "(on rank %d or another)", c->rank);
		}
	}
	MPI_Allgather(&c->node, 1, MPI_INT, node_of, 1, MPI_INT, MPI_COMM_WORLD);
	for (int r = 1; r < c->size && peer < 0; r++)
		if (node_of[r] != node_of[0])
			peer = r;
	snprintf(net->scope, sizeof(net->scope), peer < 0 ? "intra-node" : "inter-node");
	{
		/* what carries it, as Open MPI was told (its own choice otherwise) */
		const char *pml = getenv("OMPI_MCA_pml"), *btl = getenv("OMPI_MCA_btl");

		if ((pml && *pml) || (btl && *btl))
			snprintf(net->transport, sizeof(net->transport), "%s%.50s%s%s%.50s",
				 pml && *pml ? "pml " : "", pml && *pml ? pml : "",
				 pml && *pml && btl && *btl ? ", " : "", btl && *btl ? "btl " : "",
				 btl && *btl ? btl : "");
		else
			snprintf(net->transport, sizeof(net->transport), "Open MPI's choice (no pml "
				 "or btl set)");
	}
	if (peer < 0)
		peer = 1;
	net->peer = peer;
	for (size_t i = 0; i < sizeof(pp_sizes) / sizeof(pp_sizes[0]); i++) {
		const struct net_op o = { c, 0, peer, buf, pp_sizes[i] };
		int done;
		double t;

		net_timed(&o, 5, &done);        /* warm the path */
		/* one way: half a round trip, as rank 0 timed it */
		t = net_timed(&o, o.n <= 4096 ? 2000 : o.n <= 262144 ? 200 : 20, &done) / 2;
		MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
		net->pingpong[net->npingpong++] = (struct rt_net_point){ o.n, t, o.n / t / 1e9, done };
	}
	for (size_t i = 0; i < sizeof(ar_sizes) / sizeof(ar_sizes[0]); i++) {
		const struct net_op o = { c, 0, -1, buf, ar_sizes[i] };
		int done;
		double t;

		net_once(&o);                   /* warm the path */
		t = net_timed(&o, o.n <= 262144 ? 100 : 10, &done);
		/* the slowest rank's time is the collective's */
		MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
		net->allreduce[net->nallreduce++] = (struct rt_net_point){ o.n, t, o.n / t / 1e9, done };
	}
	free(node_of);
	free(buf);
	(void)err;
	return 0;
}

