/* cluster-probe.c: roofline-probe's work under mpirun (the tool probes its node and prints) */
#include "config.h"
#include "cluster/cluster-probe.h"
#include "cluster/cluster-profile.h"
#include "base/util.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The reference's ceilings at the thread count the nodes were measured at (the most common
 * among the nodes probed): a profile measured at several counts is compared at the matching
 * one, and note says so; -ENOENT with note saying why when it holds no trusted ceiling there. */
static int reference_at_nodes(const struct rt_profile *refp, const char *path,
			      const struct rt_cluster_node *nodes, size_t n,
			      struct rt_cluster_node *out, char *note, size_t size)
{
	unsigned t = 0, distinct[64];
	size_t best = 0, nd = 0;
	char have[256] = "";

	/* the nodes' thread count: the most common among those probed */
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;

		if (strcmp(nodes[i].status, "ok"))
			continue;
		for (size_t j = 0; j < n; j++)
			k += !strcmp(nodes[j].status, "ok") && nodes[j].threads == nodes[i].threads;
		if (k > best) {
			best = k;
			t = nodes[i].threads;
		}
	}
	/* the counts the reference was measured at */
	for (size_t i = 0; i < refp->nflops + refp->nbw; i++) {
		const unsigned c = i < refp->nflops ? refp->flops[i].threads :
				   refp->bw[i - refp->nflops].threads;
		size_t j = 0;

		while (j < nd && distinct[j] != c)
			j++;
		if (j == nd && nd < 64) {
			distinct[nd++] = c;
			snprintf(have + strlen(have), sizeof(have) - strlen(have), " %u", c);
		}
	}
	memset(out, 0, sizeof(*out));
	snprintf(out->host, sizeof(out->host), "%s", refp->host);
	snprintf(out->status, sizeof(out->status), "ok");
	rt_cluster_node_from_profile(out, refp, t ? t : rt_profile_max_threads(refp));
	if (!rt_cluster_node_usable(out)) {
		snprintf(note, size, "%s holds no trusted ceiling at %u thread%s, the nodes' count "
			 "(it was measured at:%s): the nodes are judged against each other", path,
			 out->threads, out->threads > 1 ? "s" : "", have);
		return -ENOENT;
	}
	if (nd > 1)
		snprintf(note, size, "%s compared at %u thread%s, the nodes' count (it was measured "
			 "at:%s)", path, out->threads, out->threads > 1 ? "s" : "", have);
	return 0;
}

/* What node measures again of the first look's findings fd[0..nf): each ceiling once for its
 * short runs (a best run and a median found are one look) and once for its sustained run,
 * with the finding in words; at most cap, how many. */
static size_t my_looks(const struct rt_cluster_finding *fd, size_t nf, size_t node,
		       struct rt_cluster_again *a, size_t cap)
{
	size_t k = 0;

	for (size_t i = 0; i < nf && k < cap; i++) {
		const bool su = fd[i].statistic == RT_CLUSTER_SUSTAINED;
		bool seen = false;

		for (size_t j = 0; j < k && !seen; j++)
			seen = !strcmp(a[j].ceiling, fd[i].ceiling) && a[j].sustained == su;
		if (fd[i].node != node || seen)
			continue;
		memset(&a[k], 0, sizeof(a[k]));
		snprintf(a[k].ceiling, sizeof(a[k].ceiling), "%s", fd[i].ceiling);
		a[k].sustained = su;
		snprintf(a[k].why, sizeof(a[k].why), "the cluster found its %s at %.0f%% of the "
			 "reference (%.1f)", su ? "sustained run" :
			 fd[i].statistic == RT_CLUSTER_MEDIAN ? "median" : "best run",
			 100 * fd[i].value / fd[i].reference, fd[i].reference);
		k++;
	}
	return k;
}

/* The second look's records into the first look's nodes: a found node's ceilings as measured
 * again, each finding's first value beside them (first[]); a record that does not decode
 * leaves the node as it was, said. */
static void second_look(struct rt_cluster_node *nodes, size_t n, const char *all,
			const struct rt_cluster_finding *fd, size_t nf,
			const struct rt_cluster_probe_opts *o)
{
	struct rt_cluster_node *again = calloc(1, sizeof(*again));
	struct rt_err err;
	const char *rec = all;

	for (size_t i = 0; again && i < n; i++, rec += strlen(rec) + 1) {
		size_t k = 0;

		while (k < nf && fd[k].node != i)
			k++;
		if (k == nf)
			continue;
		if (rt_cluster_node_decode(rec, again, &err)) {
			rt_say(o->say, o->ctx, "node %s: its second look's record: %s", nodes[i].host,
			       err.msg);
			continue;
		}
		for (; k < nf; k++)
			for (size_t c = 0; fd[k].node == i && c < again->nc; c++)
				if (!strcmp(again->c[c].name, fd[k].ceiling))
					again->c[c].first[fd[k].statistic] = fd[k].value;
		nodes[i] = *again;
	}
	if (!again)
		rt_say(o->say, o->ctx, "out of memory: the nodes' second look is not read");
	free(again);
}

int rt_cluster_probe(const struct rt_cluster *cl, const struct rt_cluster_probe_opts *o)
{
	const bool one_at_a_time = o->one_at_a_time;
	struct rt_cluster_node me, refnode = { 0 }, *nodes = NULL;
	struct rt_cluster_reference ref = { .node = o->reference ? &refnode : NULL,
					    .what = o->reference_path };
	char refnote[512] = "";
	struct rt_network net;
	struct rt_err err = { 0 };
	struct rt_profile *p = NULL;
	struct rt_cluster_finding *fd = NULL;
	struct rt_cluster_node *first = NULL;
	char *all = NULL, *text = NULL;
	uint64_t nf = 0;
	int status = 0, failed = 0;

	memset(&me, 0, sizeof(me));
	snprintf(me.host, sizeof(me.host), "%s", o->host ? o->host : cl->host);
	snprintf(me.profile, sizeof(me.profile), "%.1023s", o->path);
	for (int turn = 0; turn < (one_at_a_time ? cl->nodes : 1); turn++) {
		const char *inject = getenv("ROOFTRAJ_PROBE_FAIL");
		const bool mine = cl->node_rank == 0 && (!one_at_a_time || cl->node == turn);

		if (!mine) {
			if (one_at_a_time)
				rt_cluster_sync_idle(cl, false);
			continue;
		}
		if (inject && *inject && strtol(inject, NULL, 10) == cl->node)
			rt_err_set(&err, -EIO, "probe failed (ROOFTRAJ_PROBE_FAIL=%s)", inject);
		else if (!o->probe_node(o->ctx, cl->rank == 0, &p, &err))
			rt_cluster_node_from_profile(&me, p, 0);
		snprintf(me.status, sizeof(me.status), "%.255s", err.msg[0] ? err.msg : "ok");
		if (err.msg[0])
			rt_say(o->say, o->ctx, "node %s (rank %d): %s", me.host, cl->rank, err.msg);
		text = rt_cluster_node_encode(&me);
		if (one_at_a_time)
			rt_cluster_sync_idle(cl, true);
	}
	/* the node's other ranks wait idle while it is measured */
	rt_cluster_node_sync(cl);
	if (rt_cluster_gather_leaders(cl, text, cl->rank == 0 ? &all : NULL, &err))
		status = 1;
	if (rt_cluster_network(cl, &net, &err))
		status = 1;
	if (cl->rank == 0 && all && (nodes = calloc((size_t)cl->nodes, sizeof(*nodes)))) {
		const char *rec = all;

		for (int i = 0; i < cl->nodes; i++, rec += strlen(rec) + 1)
			if (rt_cluster_node_decode(rec, &nodes[i], &err)) {
				snprintf(nodes[i].host, sizeof(nodes[i].host), "node %d", i);
				snprintf(nodes[i].status, sizeof(nodes[i].status), "bad record: %.200s",
					 err.msg);
			}
		for (int i = 0; i < cl->nodes; i++)
			failed += strcmp(nodes[i].status, "ok") != 0;
		if (o->reference &&
		    reference_at_nodes(o->reference, o->reference_path, nodes, (size_t)cl->nodes,
				       &refnode, refnote, sizeof(refnote))) {
			/* no ceiling of the reference can be held against the nodes: judged
			 * against each other, and the run fails with why */
			rt_say(o->say, o->ctx, "--reference: %s", refnote);
			ref.node = NULL;
			status = 1;
		}
		ref.note = refnote[0] ? refnote : NULL;
		if (o->again_node && !(fd = calloc(RT_CLUSTER_MAX_FINDINGS, sizeof(*fd))))
			rt_say(o->say, o->ctx, "out of memory: no second look at the findings");
		else if (fd)
			nf = rt_cluster_judge(nodes, (size_t)cl->nodes, &ref, o->threshold, fd,
					      RT_CLUSTER_MAX_FINDINGS);
	}
	/* the findings to every rank (as they are in memory: every rank runs this binary): each
	 * found node measures them again, the others idle */
	rt_cluster_bcast(cl, &nf, sizeof(nf));
	if (nf) {
		struct rt_cluster_again a[RT_CLUSTER_MAX_CEILINGS];
		size_t na = 0;

		if (cl->rank != 0 && !(fd = calloc((size_t)nf, sizeof(*fd))))
			rt_cluster_abort(cl, 1);
		rt_cluster_bcast(cl, fd, (size_t)nf * sizeof(*fd));
		if (cl->node_rank == 0 && p)
			na = my_looks(fd, (size_t)nf, (size_t)cl->node, a, RT_CLUSTER_MAX_CEILINGS);
		for (int turn = 0; turn < (one_at_a_time ? cl->nodes : 1); turn++) {
			const bool mine = na && (!one_at_a_time || cl->node == turn);

			if (mine) {
				if (o->again_node(o->ctx, p, a, na, &err))
					rt_say(o->say, o->ctx, "node %s (rank %d): its second look: %s",
					       me.host, cl->rank, err.msg);
				rt_cluster_node_from_profile(&me, p, 0);
				free(text);
				text = rt_cluster_node_encode(&me);
			}
			rt_cluster_sync_idle(cl, mine);
		}
		free(all);
		all = NULL;
		if (rt_cluster_gather_leaders(cl, text, cl->rank == 0 ? &all : NULL, &err))
			status = 1;
		/* the first look's nodes stay the references, and its findings the only ones
		 * the second look can keep */
		if (nodes && all && (first = malloc((size_t)cl->nodes * sizeof(*first)))) {
			memcpy(first, nodes, (size_t)cl->nodes * sizeof(*first));
			ref.first = first;
			second_look(nodes, (size_t)cl->nodes, all, fd, (size_t)nf, o);
		} else if (nodes && all) {
			rt_say(o->say, o->ctx, "out of memory: the nodes' second look is not read");
		}
	}
	if (nodes) {
		if (rt_cluster_profile_write(o->cluster_path, nodes, (size_t)cl->nodes, cl->size,
					     &ref, o->threshold, &net, o->out, &err)) {
			rt_say(o->say, o->ctx, "--cluster: %s", err.msg);
			status = 1;
		} else if (o->out) {
			fprintf(o->out, "cluster profile: %s\n", o->cluster_path);
		}
		if (failed) {
			rt_say(o->say, o->ctx, "%d of %d node%s could not be probed (see the cluster "
			       "profile)", failed, cl->nodes, cl->nodes > 1 ? "s" : "");
			status = 1;
		}
	} else if (cl->rank == 0 && all) {
		rt_say(o->say, o->ctx, "out of memory");
		status = 1;
	}
	free(nodes);
	free(first);
	free(fd);
	free(all);
	free(text);
	rt_profile_destroy(p);
	/* every rank exits with rank 0's verdict */
	return rt_cluster_max(cl, status) > 0 ? 1 : 0;
}
