/* cluster-profile.c: each node's headline ceilings, their spread over the nodes, the sick
 * nodes, the network measurements, written as one libconfig cluster profile */
#include "config.h"
#include "cluster-profile.h"
#include "roofs.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void add(struct rt_cluster_node *n, const char *name, double v)
{
	if (n->nc < RT_CLUSTER_MAX_CEILINGS) {
		snprintf(n->c[n->nc].name, sizeof(n->c[n->nc].name), "%.47s", name);
		n->c[n->nc++].value = v;
	}
}

void rt_cluster_node_from_profile(struct rt_cluster_node *n, const struct rt_profile *p)
{
	const unsigned t = rt_profile_max_threads(p);
	struct rt_roofs r;
	char name[64];

	n->threads = t;
	n->nc = 0;
	/* the roofs at the node's largest thread count: flagged ceilings (disturbed while
	 * measured) are no roofs and so are never ranked; theoretical peaks are not measured */
	if (rt_roofs_at(&r, p, t, NULL) || r.threads != t)
		return;
	for (size_t i = 0; i < r.n; i++) {
		const struct rt_roof *q = &r.roof[i];

		if (q->basis == RT_ROOF_THEORETICAL)
			continue;
		if (q->kind == RT_ROOF_FLOPS)
			snprintf(name, sizeof(name), "flops %s %s", q->precision, q->what);
		else
			snprintf(name, sizeof(name), "bw %s", q->level);
		add(n, name, q->value);
	}
}

/* a field of the text: no tabs or newlines */
static void clean(char *dst, size_t size, const char *src)
{
	size_t i = 0;

	for (; src && *src && i + 1 < size; src++)
		dst[i++] = *src == '\t' || *src == '\n' ? ' ' : *src;
	dst[i] = '\0';
}

char *rt_cluster_node_encode(const struct rt_cluster_node *n)
{
	char *buf = NULL, f[3][1024];
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	if (!fp)
		return NULL;
	clean(f[0], sizeof(f[0]), n->host);
	clean(f[1], sizeof(f[1]), n->status);
	clean(f[2], sizeof(f[2]), n->profile);
	fprintf(fp, "host\t%s\nstatus\t%s\nprofile\t%s\nthreads\t%u\n", f[0], f[1], f[2],
		n->threads);
	for (size_t i = 0; i < n->nc; i++) {
		clean(f[0], sizeof(f[0]), n->c[i].name);
		fprintf(fp, "ceiling\t%s\t%.17g\n", f[0], n->c[i].value);
	}
	if (fclose(fp)) {
		free(buf);
		return NULL;
	}
	return buf;
}

int rt_cluster_node_decode(const char *text, struct rt_cluster_node *n, struct rt_err *err)
{
	char *copy = strdup(text ? text : ""), *save = NULL;
	int lineno = 0, rc = 0;

	if (!copy)
		return rt_err_set(err, -ENOMEM, "out of memory");
	memset(n, 0, sizeof(*n));
	for (char *line = strtok_r(copy, "\n", &save); line && !rc;
	     line = strtok_r(NULL, "\n", &save)) {
		char *tab = strchr(line, '\t'), *end = NULL;

		lineno++;
		if (!tab) {
			rc = rt_err_set(err, -EINVAL, "node record line %d: no field", lineno);
			break;
		}
		*tab++ = '\0';
		/* a text field holds no tab (the encoder turns them into spaces): a record that
		 * does is not one the encoder wrote */
		if (strcmp(line, "ceiling") && strchr(tab, '\t')) {
			rc = rt_err_set(err, -EINVAL, "node record line %d: a tab inside '%s'",
					lineno, line);
			break;
		}
		if (!strcmp(line, "host")) {
			snprintf(n->host, sizeof(n->host), "%s", tab);
		} else if (!strcmp(line, "status")) {
			snprintf(n->status, sizeof(n->status), "%s", tab);
		} else if (!strcmp(line, "profile")) {
			snprintf(n->profile, sizeof(n->profile), "%s", tab);
		} else if (!strcmp(line, "threads")) {
			n->threads = (unsigned)strtoul(tab, &end, 10);
			if (end == tab || *end)
				rc = rt_err_set(err, -EINVAL, "node record line %d: threads '%s'",
						lineno, tab);
		} else if (!strcmp(line, "ceiling")) {
			char *v = strchr(tab, '\t');
			double x;

			if (!v) {
				rc = rt_err_set(err, -EINVAL, "node record line %d: no value", lineno);
				break;
			}
			*v++ = '\0';
			if (!*tab || strlen(tab) >= sizeof(n->c[0].name)) {
				rc = rt_err_set(err, -EINVAL, "node record line %d: a ceiling name of "
						"%zu characters (1..%zu)", lineno, strlen(tab),
						sizeof(n->c[0].name) - 1);
				break;
			}
			for (size_t k = 0; k < n->nc; k++)
				if (!strcmp(n->c[k].name, tab)) {
					rc = rt_err_set(err, -EINVAL, "node record line %d: ceiling '%s' "
							"twice", lineno, tab);
					break;
				}
			if (rc)
				break;
			x = strtod(v, &end);
			if (end == v || *end || !isfinite(x) || x < 0)
				rc = rt_err_set(err, -EINVAL, "node record line %d: value '%s'",
						lineno, v);
			else
				add(n, tab, x);
		} else {
			rc = rt_err_set(err, -EINVAL, "node record line %d: unknown field '%s'",
					lineno, line);
		}
	}
	free(copy);
	if (!rc && !n->host[0])
		rc = rt_err_set(err, -EINVAL, "node record without a host");
	return rc;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

size_t rt_cluster_stats(const struct rt_cluster_node *nodes, size_t n, double threshold,
			struct rt_cluster_stat *out, size_t cap)
{
	size_t ns = 0;

	/* the ceilings in the order the nodes first name them */
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < nodes[i].nc; k++) {
			bool seen = false;

			for (size_t s = 0; s < ns && !seen; s++)
				seen = !strcmp(out[s].name, nodes[i].c[k].name);
			if (!seen && ns < cap) {
				memset(&out[ns], 0, sizeof(out[ns]));
				snprintf(out[ns].name, sizeof(out[ns].name), "%s", nodes[i].c[k].name);
				ns++;
			}
		}
	for (size_t s = 0; s < ns; s++) {
		double *v = calloc(n ? n : 1, sizeof(double)), *at = calloc(n ? n : 1, sizeof(double));
		size_t cnt = 0;

		if (!v || !at) {
			free(v);
			free(at);
			continue;
		}
		for (size_t i = 0; i < n; i++) {
			at[i] = NAN;
			/* one value per node: the first of that name */
			for (size_t k = 0; k < nodes[i].nc; k++)
				if (!strcmp(nodes[i].c[k].name, out[s].name)) {
					v[cnt++] = nodes[i].c[k].value;
					at[i] = nodes[i].c[k].value;
					break;
				}
		}
		out[s].count = cnt;
		if (cnt) {
			qsort(v, cnt, sizeof(double), cmp_d);
			out[s].min = v[0];
			out[s].max = v[cnt - 1];
			out[s].median = cnt % 2 ? v[cnt / 2] : 0.5 * (v[cnt / 2 - 1] + v[cnt / 2]);
			for (size_t i = 0; i < n && out[s].nbelow < 64; i++)
				if (!isnan(at[i]) && at[i] < (1 - threshold) * out[s].median)
					out[s].below[out[s].nbelow++] = i;
		}
		free(v);
		free(at);
	}
	return ns;
}

static const char *unit(const char *name)
{
	return !strncmp(name, "bw ", 3) ? "GB/s" : strstr(name, "int8") ? "GOP/s" : "GFLOP/s";
}

static void write_points(FILE *fp, const char *key, const struct rt_net_point *pt, size_t n)
{
	fprintf(fp, "    %s = (", key);
	for (size_t i = 0; i < n; i++)
		fprintf(fp, "%s\n      { bytes = %zu; seconds = %.9g; gbytes_per_s = %.9g; }",
			i ? "," : "", pt[i].bytes, pt[i].seconds, pt[i].gbytes_per_s);
	fprintf(fp, " );\n");
}

int rt_cluster_profile_write(const char *path, const struct rt_cluster_node *nodes, size_t n,
			     int ranks, double threshold, const struct rt_network *net, FILE *also,
			     struct rt_err *err)
{
	struct rt_cluster_stat *st = calloc(RT_CLUSTER_MAX_CEILINGS * 2, sizeof(*st));
	struct rt_outfile of;
	char ts[32];
	size_t ns;
	int rc;

	if (!st)
		return rt_err_set(err, -ENOMEM, "out of memory");
	ns = rt_cluster_stats(nodes, n, threshold, st, RT_CLUSTER_MAX_CEILINGS * 2);
	if ((rc = rt_outfile_open(&of, path, err))) {
		free(st);
		return rc;
	}
	rt_timestamp(ts, sizeof(ts));
	fprintf(of.fp, "# rooftraj cluster profile: every node's ceilings, their spread, the nodes\n"
		"# more than threshold below the median, and the network (roofline-probe under\n"
		"# mpirun)\ncluster = {\n  format = 1;\n  tool = \"%s %s\";\n  created = \"%s\";\n"
		"  ranks = %d;\n  nodes = %zu;\n  threshold = %g;\n  node = (", PACKAGE_NAME,
		PACKAGE_VERSION, ts, ranks, n, threshold);
	for (size_t i = 0; i < n; i++) {
		fprintf(of.fp, "%s\n    { host = ", i ? "," : "");
		rt_cfg_put_str(of.fp, nodes[i].host);
		fprintf(of.fp, "; status = ");
		rt_cfg_put_str(of.fp, nodes[i].status);
		fprintf(of.fp, "; profile = ");
		rt_cfg_put_str(of.fp, nodes[i].profile);
		fprintf(of.fp, "; threads = %u; }", nodes[i].threads);
	}
	fprintf(of.fp, " );\n  ceilings = (");
	for (size_t s = 0; s < ns; s++) {
		fprintf(of.fp, "%s\n    { name = ", s ? "," : "");
		rt_cfg_put_str(of.fp, st[s].name);
		fprintf(of.fp, "; unit = \"%s\"; nodes = %zu; min = %.9g; median = %.9g; max = %.9g; "
			"below = [", unit(st[s].name), st[s].count, st[s].min, st[s].median, st[s].max);
		for (size_t k = 0; k < st[s].nbelow; k++) {
			fprintf(of.fp, "%s ", k ? "," : "");
			rt_cfg_put_str(of.fp, nodes[st[s].below[k]].host);
		}
		fprintf(of.fp, " ]; }");
	}
	fprintf(of.fp, " );\n  network = {\n    scope = \"%s\";\n    peer = %d;\n",
		net ? net->scope : "", net ? net->peer : -1);
	write_points(of.fp, "pingpong", net ? net->pingpong : NULL, net ? net->npingpong : 0);
	write_points(of.fp, "allreduce", net ? net->allreduce : NULL, net ? net->nallreduce : 0);
	fprintf(of.fp, "  };\n};\n");
	rc = rt_outfile_commit(&of, err);
	if (!rc && also) {
		size_t sick = 0;

		fprintf(also, "\ncluster: %zu node%s, %d rank%s\n", n, n == 1 ? "" : "s", ranks,
			ranks == 1 ? "" : "s");
		for (size_t i = 0; i < n; i++)
			fprintf(also, "  %-24s %s\n", nodes[i].host, nodes[i].status);
		fprintf(also, "\n%-28s %12s %12s %12s  %s\n", "ceiling", "min", "median", "max",
			"below the median by more than the threshold");
		for (size_t s = 0; s < ns; s++) {
			fprintf(also, "%-28s %12.1f %12.1f %12.1f ", st[s].name, st[s].min,
				st[s].median, st[s].max);
			for (size_t k = 0; k < st[s].nbelow; k++)
				fprintf(also, " %s", nodes[st[s].below[k]].host);
			fprintf(also, "\n");
			sick += st[s].nbelow;
		}
		if (!sick)
			fprintf(also, "no node is more than %.0f%% below the median\n",
				threshold * 100);
		if (net && net->npingpong) {
			fprintf(also, "\nnetwork (%s, rank 0 <-> rank %d): ping-pong latency %.2f us, "
				"bandwidth %.2f GB/s at %zu bytes; allreduce %.2f GB/s at %zu bytes\n",
				net->scope, net->peer, net->pingpong[0].seconds * 1e6,
				net->pingpong[net->npingpong - 1].gbytes_per_s,
				net->pingpong[net->npingpong - 1].bytes,
				net->allreduce[net->nallreduce - 1].gbytes_per_s,
				net->allreduce[net->nallreduce - 1].bytes);
		}
	}
	free(st);
	return rc;
}
