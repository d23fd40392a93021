/* cluster-probe.c: roofline-probe's work under mpirun (the tool probes its node and prints) */
#include "config.h"
#include "cluster/cluster-probe.h"
#include "cluster/cluster-profile.h"
#include "base/util.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
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

/* The first look's findings as the lines each node measures again, "NODE\tS\tCEILING\tWHY\n"
 * (S: 1 for its sustained run, 0 for its short runs), a ceiling once per node and kind; NULL
 * when out of memory. */
static char *again_lines(const struct rt_cluster_node *nodes, size_t n,
			 const struct rt_cluster_reference *ref, double threshold)
{
	const size_t cap = 64 * RT_CLUSTER_NSTATISTICS * RT_CLUSTER_MAX_CEILINGS;
	struct rt_cluster_finding *fd = calloc(cap, sizeof(*fd));
	char *buf = NULL;
	size_t len = 0, nf;
	FILE *fp;

	if (!fd || !(fp = open_memstream(&buf, &len))) {
		free(fd);
		return NULL;
	}
	nf = rt_cluster_judge(nodes, n, ref, threshold, fd, cap);
	for (size_t i = 0; i < nf; i++) {
		const bool su = fd[i].statistic == RT_CLUSTER_SUSTAINED;
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = fd[j].node == fd[i].node && !strcmp(fd[j].ceiling, fd[i].ceiling) &&
			       (fd[j].statistic == RT_CLUSTER_SUSTAINED) == su;
		if (!seen)
			fprintf(fp, "%zu\t%d\t%s\tthe cluster found its %s at %.0f%% of the "
				"reference (%.1f)\n", fd[i].node, su, fd[i].ceiling,
				su ? "sustained run" : fd[i].statistic == RT_CLUSTER_MEDIAN ?
				"median" : "best run", 100 * fd[i].value / fd[i].reference,
				fd[i].reference);
	}
	free(fd);
	if (fclose(fp)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* This node's lines of again_lines' text into a (at most cap): how many. */
static size_t my_lines(const char *text, int node, struct rt_cluster_again *a, size_t cap)
{
	size_t k = 0;

	for (const char *l = text; l && *l && k < cap; ) {
		const char *nl = strchr(l, '\n'), *f = l;
		const char *e = nl ? nl : l + strlen(l);
		char *end;
		long nd = strtol(f, &end, 10);

		if (end != f && nd == node && end + 3 < e && end[0] == '\t' && end[2] == '\t') {
			const char *name = end + 3, *tab = memchr(name, '\t', (size_t)(e - name));
			const size_t nlen = (size_t)((tab ? tab : e) - name);

			memset(&a[k], 0, sizeof(a[k]));
			a[k].sustained = end[1] == '1';
			snprintf(a[k].ceiling, sizeof(a[k].ceiling), "%.*s", (int)nlen, name);
			if (tab)
				snprintf(a[k].why, sizeof(a[k].why), "%.*s", (int)(e - tab - 1),
					 tab + 1);
			k++;
		}
		l = nl ? nl + 1 : NULL;
	}
	return k;
}

/* The second look's records into the first look's nodes: a node's ceilings as measured again,
 * each finding's first value kept beside them (first[]); a record that does not decode leaves
 * the node as it was, said. */
static void second_look(struct rt_cluster_node *nodes, size_t n, const char *all,
			const char *lines, const struct rt_cluster_probe_opts *o)
{
	struct rt_cluster_node *again = calloc(1, sizeof(*again));
	struct rt_err err;
	const char *rec = all;

	for (size_t i = 0; again && i < n; i++, rec += strlen(rec) + 1) {
		struct rt_cluster_again a[RT_CLUSTER_MAX_CEILINGS];
		const size_t na = my_lines(lines, (int)i, a, RT_CLUSTER_MAX_CEILINGS);

		if (!na)
			continue;
		if (rt_cluster_node_decode(rec, again, &err)) {
			rt_say(o->say, o->ctx, "node %s: its second look's record: %s", nodes[i].host,
			       err.msg);
			continue;
		}
		for (size_t k = 0; k < again->nc; k++) {
			const struct rt_cluster_ceiling *was = NULL;

			for (size_t j = 0; j < nodes[i].nc && !was; j++)
				if (!strcmp(nodes[i].c[j].name, again->c[k].name))
					was = &nodes[i].c[j];
			for (size_t j = 0; was && j < na; j++) {
				if (strcmp(a[j].ceiling, was->name))
					continue;
				if (a[j].sustained) {
					again->c[k].first[RT_CLUSTER_SUSTAINED] = was->sustained;
				} else {
					again->c[k].first[RT_CLUSTER_BEST] = was->value;
					again->c[k].first[RT_CLUSTER_MEDIAN] = was->median;
				}
			}
		}
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
	char *all = NULL, *text = NULL, *lines = NULL;
	uint64_t nlines = 0;
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
		if (o->again_node && !(lines = again_lines(nodes, (size_t)cl->nodes, &ref,
							   o->threshold)))
			rt_say(o->say, o->ctx, "out of memory: no second look at the findings");
		nlines = lines ? strlen(lines) : 0;
	}
	/* the findings to every rank: each found node measures them again, the others idle */
	rt_cluster_bcast(cl, &nlines, sizeof(nlines));
	if (nlines) {
		struct rt_cluster_again a[RT_CLUSTER_MAX_CEILINGS];
		size_t na = 0;

		if (cl->rank != 0 && !(lines = calloc(nlines + 1, 1)))
			rt_cluster_abort(cl, 1);
		rt_cluster_bcast(cl, lines, nlines);
		if (cl->node_rank == 0 && p)
			na = my_lines(lines, cl->node, a, RT_CLUSTER_MAX_CEILINGS);
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
		if (nodes && all)
			second_look(nodes, (size_t)cl->nodes, all, lines, o);
	}
	if (nodes) {
		if (rt_cluster_profile_write(o->cluster_path, nodes, (size_t)cl->nodes, cl->size,
					     &ref, o->threshold, &net, o->out, &err)) {
			rt_say(o->say, o->ctx, "%s", err.msg);
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
	free(lines);
	free(all);
	free(text);
	rt_profile_destroy(p);
	/* every rank exits with rank 0's verdict */
	return rt_cluster_max(cl, status) > 0 ? 1 : 0;
}
