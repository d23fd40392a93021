/* cluster-profile.c: each node's headline ceilings, their spread over the nodes, the sick
 * nodes, the network measurements, written as one libconfig cluster profile */
#include "config.h"
#include "cluster/cluster-profile.h"
#include "node/roofs.h"
#include "base/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *rt_cluster_statistic_name(enum rt_cluster_statistic s)
{
	static const char *const names[RT_CLUSTER_NSTATISTICS] = { "best", "median",
								   "sustained" };

	return (unsigned)s < RT_CLUSTER_NSTATISTICS ? names[s] : "?";
}

static struct rt_cluster_ceiling *find_ceiling(const struct rt_cluster_node *n,
					       const char *name)
{
	for (size_t k = 0; k < n->nc; k++)
		if (!strcmp(n->c[k].name, name))
			return (struct rt_cluster_ceiling *)&n->c[k];
	return NULL;
}

/* Add or improve a ceiling: a trusted value beats a flagged one, then the higher wins. */
static void offer(struct rt_cluster_node *n, const char *name, double best, double median,
		  double spread, const char *flag)
{
	struct rt_cluster_ceiling *c = find_ceiling(n, name);

	if (c && ((!*flag && c->flag[0]) || (!*flag == !c->flag[0] && best > c->value)))
		;       /* replace below */
	else if (c)
		return;
	else if (n->nc < RT_CLUSTER_MAX_CEILINGS)
		c = &n->c[n->nc++];
	else
		return;
	snprintf(c->name, sizeof(c->name), "%.47s", name);
	c->value = best;
	c->median = median;
	c->spread = spread;
	c->sustained = NAN;
	memset(c->first, 0, sizeof(c->first));
	snprintf(c->flag, sizeof(c->flag), "%s", flag);
}

size_t rt_cluster_node_usable(const struct rt_cluster_node *n)
{
	size_t k = 0;

	for (size_t i = 0; i < n->nc; i++)
		k += !n->c[i].flag[0] && n->c[i].value > 0;
	return k;
}

void rt_cluster_node_from_profile(struct rt_cluster_node *n, const struct rt_profile *p,
				  unsigned threads)
{
	const unsigned t = threads ? threads : rt_profile_max_threads(p);
	char name[64];

	n->threads = t;
	n->nc = 0;
	for (size_t i = 0; i < p->nflops; i++) {
		const struct rt_profile_flops *f = &p->flops[i];

		if (f->threads != t)
			continue;
		snprintf(name, sizeof(name), "flops %s %s", f->precision, f->isa);
		offer(n, name, f->gflops, f->median, f->spread, f->flag);
	}
	for (size_t i = 0; i < p->nbw; i++) {
		const struct rt_profile_bw *b = &p->bw[i];

		if (b->threads != t)
			continue;
		snprintf(name, sizeof(name), "bw %s", b->level);
		offer(n, name, b->gbytes_per_s, b->median, b->spread, b->flag);
	}
	for (size_t i = 0; i < p->nsustained; i++) {
		const struct rt_profile_sustained *su = &p->sustained[i];
		struct rt_cluster_ceiling *c = find_ceiling(n, su->name);

		if (!c || su->threads != t)
			continue;
		if (!su->flag[0])
			c->sustained = su->value;
		else if (!c->flag[0])   /* another process took the node's cores: not ranked */
			snprintf(c->flag, sizeof(c->flag), "sustained run %.230s", su->flag);
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
		const struct rt_cluster_ceiling *c = &n->c[i];

		clean(f[0], sizeof(f[0]), c->name);
		clean(f[1], sizeof(f[1]), c->flag);
		fprintf(fp, "ceiling\t%s\t%.17g\t%.17g\t%.17g\t", f[0], c->value, c->median,
			c->spread);
		if (isnan(c->sustained))
			fputc('-', fp);
		else
			fprintf(fp, "%.17g", c->sustained);
		fprintf(fp, "\t%s\n", f[1]);
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
			/* NAME, best, then (rooftraj 0.3) median, spread, sustained ("-": none) and
			 * the flag */
			char *fld[6] = { tab };
			int nf = 1;
			double x[4] = { 0, 0, 0, NAN };
			struct rt_cluster_ceiling *c;

			for (char *q = strchr(tab, '\t'); q && nf < 6; q = strchr(q, '\t')) {
				*q++ = '\0';
				fld[nf++] = q;
			}
			if (nf != 2 && nf != 6) {
				rc = rt_err_set(err, -EINVAL, "node record line %d: %d fields in a "
						"ceiling (2 or 6)", lineno, nf);
				break;
			}
			/* the flag is the last field: a tab in it is one the encoder never wrote */
			if (nf == 6 && strchr(fld[5], '\t')) {
				rc = rt_err_set(err, -EINVAL, "node record line %d: a tab inside the "
						"flag of '%s'", lineno, tab);
				break;
			}
			if (!*tab || strlen(tab) >= sizeof(n->c[0].name)) {
				rc = rt_err_set(err, -EINVAL, "node record line %d: a ceiling name of "
						"%zu characters (1..%zu)", lineno, strlen(tab),
						sizeof(n->c[0].name) - 1);
				break;
			}
			if (find_ceiling(n, tab)) {
				rc = rt_err_set(err, -EINVAL, "node record line %d: ceiling '%s' "
						"twice", lineno, tab);
				break;
			}
			for (int k = 1; k < nf - (nf == 6) && !rc; k++) {
				if (k == 4 && !strcmp(fld[k], "-"))
					continue;
				x[k - 1] = strtod(fld[k], &end);
				/* a rate a node can have (the spread, k == 3, is a fraction);
				 * a flagged ceiling's disturbed reading may be lower */
				if (end == fld[k] || *end || !isfinite(x[k - 1]) || x[k - 1] < 0 ||
				    (k != 3 && x[k - 1] > RT_PROFILE_RATE_MAX) ||
				    (k != 3 && x[k - 1] > 0 && x[k - 1] < RT_PROFILE_RATE_MIN &&
				     !(nf == 6 && fld[5][0])))
					rc = rt_err_set(err, -EINVAL, "node record line %d: value '%s'",
							lineno, fld[k]);
			}
			if (rc)
				break;
			if (n->nc == RT_CLUSTER_MAX_CEILINGS) {
				rc = rt_err_set(err, -EINVAL, "node record line %d: more than %d "
						"ceilings", lineno, RT_CLUSTER_MAX_CEILINGS);
				break;
			}
			c = &n->c[n->nc++];
			snprintf(c->name, sizeof(c->name), "%s", tab);
			c->value = x[0];
			c->median = x[1];
			c->spread = x[2];
			c->sustained = x[3];
			snprintf(c->flag, sizeof(c->flag), "%s", nf == 6 ? fld[5] : "");
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

/* A trusted ceiling's statistic, or NAN. */
static double stat_of(const struct rt_cluster_ceiling *c, enum rt_cluster_statistic st)
{
	if (!c)
		return NAN;
	if (st == RT_CLUSTER_SUSTAINED)
		return c->sustained;    /* what a user gets: never flagged */
	if (c->flag[0])
		return NAN;
	return st == RT_CLUSTER_BEST ? c->value : c->median > 0 ? c->median : NAN;
}

/* The reference value of a ceiling's statistic: the reference node's, else the best node's
 * (the median of the nodes' from 5 nodes up) of the first look; NAN when none. */
static double reference_of(const struct rt_cluster_node *nodes, size_t n,
			   const struct rt_cluster_reference *ref, const char *name,
			   enum rt_cluster_statistic st)
{
	double *v, r = NAN;
	size_t k = 0;

	if (ref && ref->node)
		return stat_of(find_ceiling(ref->node, name), st);
	if (ref && ref->first)
		nodes = ref->first;
	if (!(v = calloc(n ? n : 1, sizeof(*v))))
		return NAN;
	for (size_t i = 0; i < n; i++) {
		double x = stat_of(find_ceiling(&nodes[i], name), st);

		if (!isnan(x))
			v[k++] = x;
	}
	if (k) {
		qsort(v, k, sizeof(*v), cmp_d);
		r = n < 5 ? v[k - 1] : k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
	}
	free(v);
	return r;
}

size_t rt_cluster_stats(const struct rt_cluster_node *nodes, size_t n,
			const struct rt_cluster_reference *ref, double threshold,
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
		double *v = calloc(n ? n : 1, sizeof(double));
		size_t cnt = 0;

		out[s].reference = reference_of(nodes, n, ref, out[s].name, RT_CLUSTER_BEST);
		if (!v)
			continue;
		for (size_t i = 0; i < n; i++) {
			double x = stat_of(find_ceiling(&nodes[i], out[s].name), RT_CLUSTER_BEST);

			if (isnan(x))
				continue;
			v[cnt++] = x;
			if (x < (1 - threshold) * out[s].reference && out[s].nbelow < 64)
				out[s].below[out[s].nbelow++] = i;
		}
		out[s].count = cnt;
		if (cnt) {
			qsort(v, cnt, sizeof(double), cmp_d);
			out[s].min = v[0];
			out[s].max = v[cnt - 1];
			out[s].median = cnt % 2 ? v[cnt / 2] : 0.5 * (v[cnt / 2 - 1] + v[cnt / 2]);
		}
		free(v);
	}
	return ns;
}

/* Whether the first look found node's ceiling name below r on statistic st (as
 * rt_cluster_judge finds it): a second look clears a finding, never makes one. */
static bool found_first(const struct rt_cluster_node *node, const char *name, int st, double r,
			double threshold)
{
	const struct rt_cluster_ceiling *c = find_ceiling(node, name);
	const double x = stat_of(c, (enum rt_cluster_statistic)st);

	return !isnan(x) && x < (1 - threshold) * r &&
	       (st != RT_CLUSTER_MEDIAN || c->value < (1 - threshold) * r);
}

size_t rt_cluster_judge(const struct rt_cluster_node *nodes, size_t n,
			const struct rt_cluster_reference *ref, double threshold,
			struct rt_cluster_finding *out, size_t cap)
{
	/* each ceiling's references once (each is a sort over the nodes), by its first node */
	double (*refs)[RT_CLUSTER_NSTATISTICS] = calloc(n * RT_CLUSTER_MAX_CEILINGS + 1,
							sizeof(*refs));
	size_t nf = 0;

	if (!refs)
		return 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < nodes[i].nc; k++) {
			size_t j = 0, kk = 0;

			/* the first node that has this ceiling computed its references */
			while (j < i && !(find_ceiling(&nodes[j], nodes[i].c[k].name)))
				j++;
			if (j < i) {
				const struct rt_cluster_ceiling *first = find_ceiling(&nodes[j],
										       nodes[i].c[k].name);

				kk = (size_t)(first - nodes[j].c);
				memcpy(refs[i * RT_CLUSTER_MAX_CEILINGS + k],
				       refs[j * RT_CLUSTER_MAX_CEILINGS + kk], sizeof(*refs));
				continue;
			}
			for (int st = 0; st < RT_CLUSTER_NSTATISTICS; st++)
				refs[i * RT_CLUSTER_MAX_CEILINGS + k][st] =
					reference_of(nodes, n, ref, nodes[i].c[k].name,
						     (enum rt_cluster_statistic)st);
		}
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < nodes[i].nc; k++)
			for (int st = 0; st < RT_CLUSTER_NSTATISTICS; st++) {
				const struct rt_cluster_ceiling *c = &nodes[i].c[k];
				const double x = stat_of(c, (enum rt_cluster_statistic)st);
				const double r = refs[i * RT_CLUSTER_MAX_CEILINGS + k][st];

				if (isnan(x) || isnan(r) || !(x < (1 - threshold) * r) || nf == cap)
					continue;
				/* a median is the node's only when its best run is that far below
				 * too: a best run at the reference's typical rate shows the node
				 * has it, and a few runs that met the host's noise pulled its median
				 * down (a throttled node is found on its sustained run) */
				if (st == RT_CLUSTER_MEDIAN && !(c->value < (1 - threshold) * r))
					continue;
				if (ref && ref->first && !found_first(&ref->first[i], c->name, st, r,
								      threshold))
					continue;
				out[nf].node = i;
				snprintf(out[nf].ceiling, sizeof(out[nf].ceiling), "%s", c->name);
				out[nf].statistic = (enum rt_cluster_statistic)st;
				out[nf].value = x;
				out[nf].reference = r;
				nf++;
			}
	free(refs);
	return nf;
}

/* A rate as libconfig reads a float: "%.9g", with ".0" where that looks like an integer (a
 * reader asking for a float of "8" gets nothing). */
static void put_rate(FILE *fp, const char *name, double x)
{
	char b[40];

	snprintf(b, sizeof(b), "%.9g", x);
	fprintf(fp, "%s%s%s", name, b, strpbrk(b, ".en") ? "" : ".0");
}

/* Whether a node's ceiling is among the findings on a statistic. */
static bool found(const struct rt_cluster_finding *fd, size_t nf, size_t node, const char *name,
		  int statistic)
{
	for (size_t i = 0; i < nf; i++)
		if (fd[i].node == node && (int)fd[i].statistic == statistic &&
		    !strcmp(fd[i].ceiling, name))
			return true;
	return false;
}

/* A second look of the nodes' (a statistic with a first value), from where the last one
 * left off (all 0: from the first): node i, ceiling k, statistic t, with the value kept (NAN:
 * disturbed) and whether it is a finding still; count: the caller's. */
struct look {
	size_t i, k, count;
	int t;
	const struct rt_cluster_ceiling *c;
	double kept;
	bool found;
};

static bool next_look(const struct rt_cluster_node *nodes, size_t n,
		      const struct rt_cluster_finding *fd, size_t nf, struct look *l)
{
	for (; l->i < n; l->i++, l->k = 0)
		for (; l->k < nodes[l->i].nc; l->k++, l->t = 0)
			for (; l->t < RT_CLUSTER_NSTATISTICS; l->t++) {
				l->c = &nodes[l->i].c[l->k];
				if (!(l->c->first[l->t] > 0))
					continue;
				l->kept = stat_of(l->c, (enum rt_cluster_statistic)l->t);
				l->found = found(fd, nf, l->i, l->c->name, l->t);
				return true;
			}
	return false;
}

static const char *unit(const char *name)
{
	return !strncmp(name, "bw ", 3) ? "GB/s" : strstr(name, "int8") ? "GOP/s" : "GFLOP/s";
}

static void write_points(FILE *fp, const char *key, const struct rt_net_point *pt, size_t n)
{
	fprintf(fp, "    %s = (", key);
	for (size_t i = 0; i < n; i++)
		fprintf(fp, "%s\n      { bytes = %zu; seconds = %.9g; gbytes_per_s = %.9g; "
			"repetitions = %d; }", i ? "," : "", pt[i].bytes, pt[i].seconds,
			pt[i].gbytes_per_s, pt[i].reps);
	fprintf(fp, " );\n");
}

static const char *reference_name(const struct rt_cluster_reference *ref, size_t n)
{
	if (ref && ref->node)
		return ref->what ? ref->what : ref->node->host;
	return n < 5 ? "the best node" : "the median of the nodes";
}

int rt_cluster_profile_write(const char *path, const struct rt_cluster_node *nodes, size_t n,
			     int ranks, const struct rt_cluster_reference *ref, double threshold,
			     const struct rt_network *net, FILE *also, struct rt_err *err)
{
	const size_t cap = RT_CLUSTER_MAX_CEILINGS * 2, fcap = RT_CLUSTER_MAX_FINDINGS;
	struct rt_cluster_stat *st = calloc(cap, sizeof(*st));
	struct rt_cluster_finding *fd = calloc(fcap, sizeof(*fd));
	struct rt_outfile of;
	char ts[32];
	size_t ns, nf, ndist = 0;
	int rc;

	if (!st || !fd) {
		free(st);
		free(fd);
		return rt_err_set(err, -ENOMEM, "out of memory");
	}
	ns = rt_cluster_stats(nodes, n, ref, threshold, st, cap);
	nf = rt_cluster_judge(nodes, n, ref, threshold, fd, fcap);
	if ((rc = rt_outfile_open(&of, path, err)))
		goto out;
	rt_timestamp(ts, sizeof(ts));
	fprintf(of.fp, "# rooftraj cluster profile: every node's ceilings, their spread, the nodes\n"
		"# more than threshold below the reference on a ceiling's best run, median or\n"
		"# sustained run (findings), the ceilings disturbed while measured (never ranked),\n"
		"# and the network (roofline-probe under mpirun)\ncluster = {\n  format = 2;\n"
		"  tool = \"%s %s\";\n  created = \"%s\";\n  ranks = %d;\n  nodes = %zu;\n"
		"  threshold = %g;\n  reference = ", PACKAGE_NAME, PACKAGE_VERSION, ts, ranks, n,
		threshold);
	rt_cfg_put_str(of.fp, reference_name(ref, n));
	/* the thread count the reference's ceilings were taken at: the nodes' */
	fprintf(of.fp, ";\n  reference_threads = %u;\n", ref && ref->node ? ref->node->threads : 0);
	if (ref && ref->note) {
		rt_cfg_put_member(of.fp, "  reference_note = ", ref->note);
		fprintf(of.fp, ";\n");
	}
	{
		/* the allocation it was measured in, so that a result traces to its job */
		const char *id = getenv("SLURM_JOB_ID"), *nl = getenv("SLURM_JOB_NODELIST"),
			   *part = getenv("SLURM_JOB_PARTITION");

		if (id && *id) {
			fprintf(of.fp, "  job = { scheduler = \"slurm\"; id = ");
			rt_cfg_put_str(of.fp, id);
			rt_cfg_put_member(of.fp, "; nodelist = ", nl ? nl : "");
			rt_cfg_put_member(of.fp, "; partition = ", part ? part : "");
			/* mpirun's ranks carry its URI; srun's tasks a step of their own */
			fprintf(of.fp, "; launcher = \"%s\"; };\n",
				getenv("OMPI_MCA_orte_hnp_uri") ? "mpirun" :
				getenv("SLURM_STEP_ID") ? "srun" : "unknown");
		}
	}
	fprintf(of.fp, "  node = (");
	for (size_t i = 0; i < n; i++) {
		fprintf(of.fp, "%s\n    { host = ", i ? "," : "");
		rt_cfg_put_str(of.fp, nodes[i].host);
		rt_cfg_put_member(of.fp, "; status = ", nodes[i].status);
		rt_cfg_put_member(of.fp, "; profile = ", nodes[i].profile);
		fprintf(of.fp, "; threads = %u; }", nodes[i].threads);
		for (size_t k = 0; k < nodes[i].nc; k++)
			ndist += nodes[i].c[k].flag[0] != '\0';
	}
	fprintf(of.fp, " );\n  ceilings = (");
	for (size_t s = 0; s < ns; s++) {
		fprintf(of.fp, "%s\n    { name = ", s ? "," : "");
		rt_cfg_put_str(of.fp, st[s].name);
		fprintf(of.fp, "; unit = \"%s\"; nodes = %zu; min = %.9g; median = %.9g; max = %.9g; "
			"reference = %.9g; below = [", unit(st[s].name), st[s].count, st[s].min,
			st[s].median, st[s].max, isnan(st[s].reference) ? 0 : st[s].reference);
		for (size_t k = 0; k < st[s].nbelow; k++) {
			fprintf(of.fp, "%s ", k ? "," : "");
			rt_cfg_put_str(of.fp, nodes[st[s].below[k]].host);
		}
		fprintf(of.fp, " ]; }");
	}
	fprintf(of.fp, " );\n  findings = (");
	for (size_t i = 0; i < nf; i++) {
		fprintf(of.fp, "%s\n    { host = ", i ? "," : "");
		rt_cfg_put_str(of.fp, nodes[fd[i].node].host);
		rt_cfg_put_member(of.fp, "; ceiling = ", fd[i].ceiling);
		fprintf(of.fp, "; statistic = \"%s\"", rt_cluster_statistic_name(fd[i].statistic));
		put_rate(of.fp, "; value = ", fd[i].value);
		put_rate(of.fp, "; reference = ", fd[i].reference);
		fprintf(of.fp, "; ratio = %.6f; }", fd[i].value / fd[i].reference);
	}
	/* the findings of the first look, each measured again before the node was judged */
	fprintf(of.fp, " );\n  measured_again = (");
	for (struct look l = { 0 }; next_look(nodes, n, fd, nf, &l); l.t++) {
		fprintf(of.fp, "%s\n    { host = ", l.count++ ? "," : "");
		rt_cfg_put_str(of.fp, nodes[l.i].host);
		rt_cfg_put_member(of.fp, "; ceiling = ", l.c->name);
		fprintf(of.fp, "; statistic = \"%s\"", rt_cluster_statistic_name(l.t));
		put_rate(of.fp, "; first = ", l.c->first[l.t]);
		/* 0: disturbed on its second look, not ranked */
		put_rate(of.fp, "; kept = ", isnan(l.kept) ? 0 : l.kept);
		fprintf(of.fp, "; found = %s; }", l.found ? "true" : "false");
	}
	fprintf(of.fp, " );\n  disturbed = (");
	for (size_t i = 0, k0 = 0; i < n; i++)
		for (size_t k = 0; k < nodes[i].nc; k++) {
			if (!nodes[i].c[k].flag[0])
				continue;
			fprintf(of.fp, "%s\n    { host = ", k0++ ? "," : "");
			rt_cfg_put_str(of.fp, nodes[i].host);
			rt_cfg_put_member(of.fp, "; ceiling = ", nodes[i].c[k].name);
			rt_cfg_put_member(of.fp, "; flag = ", nodes[i].c[k].flag);
			fprintf(of.fp, "; }");
		}
	fprintf(of.fp, " );\n  network = {\n    scope = \"%s\";\n    peer = %d;\n    transport = ",
		net ? net->scope : "", net ? net->peer : -1);
	rt_cfg_put_str(of.fp, net ? net->transport : "");
	fprintf(of.fp, ";\n");
	write_points(of.fp, "pingpong", net ? net->pingpong : NULL, net ? net->npingpong : 0);
	write_points(of.fp, "allreduce", net ? net->allreduce : NULL, net ? net->nallreduce : 0);
	fprintf(of.fp, "  };\n};\n");
	rc = rt_outfile_commit(&of, err);
	if (!rc && also) {
		fprintf(also, "\ncluster: %zu node%s, %d rank%s; reference: %s", n, n == 1 ? "" : "s",
			ranks, ranks == 1 ? "" : "s", reference_name(ref, n));
		if (ref && ref->node)
			fprintf(also, " at %u thread%s", ref->node->threads,
				ref->node->threads > 1 ? "s" : "");
		fprintf(also, "\n");
		if (ref && ref->note)
			fprintf(also, "  (%s)\n", ref->note);
		for (size_t i = 0; i < n; i++)
			fprintf(also, "  %-24s %s\n", nodes[i].host, nodes[i].status);
		fprintf(also, "\n%-28s %12s %12s %12s %12s\n", "ceiling (best runs)", "min", "median",
			"max", "reference");
		for (size_t s = 0; s < ns; s++)
			fprintf(also, "%-28s %12.1f %12.1f %12.1f %12.1f\n", st[s].name, st[s].min,
				st[s].median, st[s].max, st[s].reference);
		if (nf) {
			fprintf(also, "\nbelow the reference by more than %.0f%%:\n", threshold * 100);
			for (size_t i = 0; i < nf; i++)
				fprintf(also, "  %-16s %-26s %-9s %10.1f %s = %3.0f%% of %.1f\n",
					nodes[fd[i].node].host, fd[i].ceiling,
					rt_cluster_statistic_name(fd[i].statistic), fd[i].value,
					unit(fd[i].ceiling), 100 * fd[i].value / fd[i].reference,
					fd[i].reference);
		} else {
			fprintf(also, "no node is more than %.0f%% below the reference on a best run, "
				"a median or a sustained run\n", threshold * 100);
		}
		for (struct look l = { 0 }; next_look(nodes, n, fd, nf, &l); l.t++) {
			if (!l.count++)
				fprintf(also, "\nmeasured again where the first look found a node "
					"below (the better run kept):\n");
			fprintf(also, "  %-16s %-26s %-9s %10.1f ", nodes[l.i].host, l.c->name,
				rt_cluster_statistic_name(l.t), l.c->first[l.t]);
			if (isnan(l.kept))
				fprintf(also, "%s, then disturbed: not ranked\n", unit(l.c->name));
			else
				fprintf(also, "then %.1f %s: %s\n", l.kept, unit(l.c->name),
					l.found ? "below again" : "not below");
		}
		if (ndist) {
			fprintf(also, "\ndisturbed while measured (reported, not ranked):\n");
			for (size_t i = 0; i < n; i++)
				for (size_t k = 0; k < nodes[i].nc; k++)
					if (nodes[i].c[k].flag[0])
						fprintf(also, "  %-16s %-26s %s\n", nodes[i].host,
							nodes[i].c[k].name, nodes[i].c[k].flag);
		}
		if (net && net->npingpong) {
			fprintf(also, "\nnetwork (%s, rank 0 <-> rank %d, %s): ping-pong latency %.2f us, "
				"bandwidth %.2f GB/s at %zu bytes; allreduce %.2f GB/s at %zu bytes\n",
				net->scope, net->peer, net->transport, net->pingpong[0].seconds * 1e6,
				net->pingpong[net->npingpong - 1].gbytes_per_s,
				net->pingpong[net->npingpong - 1].bytes,
				net->allreduce[net->nallreduce - 1].gbytes_per_s,
				net->allreduce[net->nallreduce - 1].bytes);
		}
	}
out:
	free(st);
	free(fd);
	return rc;
}
