/* roofline-probe: characterize this node and write its machine profile and roofline chart */
#include "config.h"
#include "cluster/cluster.h"
#include "cluster/cluster-probe.h"
#include "base/err.h"
#include "kernels/kernels.h"
#include "base/options.h"
#include "results/plot.h"
#include "node/probe.h"
#include "node/profile.h"
#include "machine/topo.h"
#include "results/views.h"
#include "base/util.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *prog = "roofline-probe";
static bool all_roofs;         /* --all-roofs */

static void usage(FILE *fp)
{
	fprintf(fp,
"Usage: %s [OPTION]...\n"
"Characterize this node: its topology (hwloc), a bandwidth-vs-working-set curve that finds\n"
"where each cache level really ends, peak FLOP/s per precision, ISA and thread count, the\n"
"bandwidth of every cache level and of DRAM, and oneDNN's low-precision (bf16, fp16, int8)\n"
"matmul peaks. Writes a machine profile (libconfig) and a gnuplot roofline chart.\n"
"\n"
"  -o, --output=FILE     write the profile to FILE (default: machine-profiles/HOST.cfg);\n"
"                        the chart goes beside it as FILE-roofline.{gp,png,svg}\n"
"  -t, --threads=LIST    thread counts, comma-separated (default: 1, powers of two, all cores)\n"
"  -i, --isa=LIST        ISAs to measure: scalar, sse, avx2, avx512 (default: all this CPU has)\n"
"  -q, --quick           a coarse profile in a few seconds\n"
"      --no-curve        skip the curve and trust hwloc's cache sizes\n"
"      --no-lowp         skip the oneDNN matmul peaks\n"
"      --no-chart        do not write the roofline chart\n"
"      --all-roofs       draw every FLOP ceiling (each ISA and method), not only each\n"
"                        precision's peak and theoretical peak\n"
"      --host=NAME       host name recorded in the profile and used in the default path\n"
"\n"
"Under mpirun (a build with MPI), every node is probed once: its first rank measures with\n"
"all the node's cores while the node's other ranks wait idle; then the network between\n"
"rank 0 and another node (ping-pong latency and bandwidth, allreduce over all ranks) is\n"
"measured, and rank 0 writes the cluster profile:\n"
"      --cluster=FILE    cluster profile path (default: machine-profiles/cluster.cfg)\n"
"      --threshold=PCT   a node more than PCT%% below the reference on a ceiling's best\n"
"                        run, median or sustained run is named, with the figures\n"
"                        (default 10)\n"
"      --reference=FILE  a known-good node's profile (an acceptance run) to hold every\n"
"                        node against (default: the best node for each ceiling; from 5\n"
"                        nodes up, the median of the nodes)\n"
"      --sustain=S       a run of S seconds of each headline ceiling (fp64 and fp32 peaks,\n"
"                        DRAM bandwidth) beside the best of short runs: a node slow only\n"
"                        part of the time is found (default 1 under mpirun, 0 alone)\n"
"      --one-at-a-time   the nodes are probed in turn, the others waiting idle: for nodes\n"
"                        that share something (a rehearsal on one machine, blades on one\n"
"                        power or cooling budget)\n"
"  Each node writes its own profile: machine-profiles/HOST.cfg, or --output with %%h for\n"
"  the host name (required with several nodes).\n"
"  -v, --verbose         report progress on stderr even when it is not a terminal\n"
"  -h, --help            show this help and exit\n"
"  -V, --version         show the version and exit\n"
"\n"
"Bandwidths are in GB/s (1e9 bytes/s), counting the bytes each kernel moves (a copy counts\n"
"its read and its write); FLOP ceilings are the best of repeated runs.\n"
"\n"
"Examples:\n"
"  %s                         full profile of this node (about 30 s)\n"
"  %s --quick -o /tmp/n.cfg   coarse profile in a few seconds\n"
"  %s -t 1,2 -i avx2,avx512   AVX2 and AVX-512 ceilings at 1 and 2 threads\n",
		prog, prog, prog, prog);
}

enum { OPT_NO_CURVE = 256, OPT_NO_LOWP, OPT_NO_CHART, OPT_HOST, OPT_CLUSTER, OPT_THRESHOLD,
       OPT_ALL_ROOFS, OPT_REFERENCE, OPT_SUSTAIN, OPT_ONE_AT_A_TIME };

static const struct option long_opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "threads", required_argument, NULL, 't' },
	{ "isa", required_argument, NULL, 'i' },
	{ "quick", no_argument, NULL, 'q' },
	{ "no-curve", no_argument, NULL, OPT_NO_CURVE },
	{ "no-lowp", no_argument, NULL, OPT_NO_LOWP },
	{ "no-chart", no_argument, NULL, OPT_NO_CHART },
	{ "all-roofs", no_argument, NULL, OPT_ALL_ROOFS },
	{ "host", required_argument, NULL, OPT_HOST },
	{ "cluster", required_argument, NULL, OPT_CLUSTER },
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "reference", required_argument, NULL, OPT_REFERENCE },
	{ "sustain", required_argument, NULL, OPT_SUSTAIN },
	{ "one-at-a-time", no_argument, NULL, OPT_ONE_AT_A_TIME },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

struct progress_state {
	bool tty;
	bool on;
	double start;
};

static void on_progress(void *ctx, const char *msg)
{
	struct progress_state *ps = ctx;

	if (!ps->on)
		return;
	if (ps->tty)
		fprintf(stderr, "\r\033[K%s: [%5.1fs] %s", prog, rt_now() - ps->start, msg);
	else
		fprintf(stderr, "%s: [%5.1fs] %s\n", prog, rt_now() - ps->start, msg);
}

static int usage_error(const struct rt_err *err)
{
	fprintf(stderr, "%s: %s\nTry '%s --help' for more information.\n", prog, err->msg, prog);
	return 2;
}

static void print_profile(const struct rt_profile *p)
{
	unsigned th[64];
	size_t nth = 0;

	for (size_t i = 0; i < p->nflops; i++) {
		size_t j;

		for (j = 0; j < nth && th[j] != p->flops[i].threads; j++)
			;
		if (j == nth && nth < 64)
			th[nth++] = p->flops[i].threads;
	}
	printf("%s: %s; %u package%s, %u cores, %u PUs, %u NUMA node%s; clock %.2f GHz "
	       "(measured)\n", p->host, p->cpu.model, p->cpu.sockets, p->cpu.sockets > 1 ? "s" : "",
	       p->cpu.cores, p->cpu.pus, p->cpu.numa_nodes, p->cpu.numa_nodes > 1 ? "s" : "",
	       p->cpu.clock_ghz);
	printf("\nFLOP ceilings, GFLOP/s (int8: GOP/s), best of runs\n  %-6s %-22s %-15s",
	       "prec", "isa", "method");
	for (size_t j = 0; j < nth; j++)
		printf(" %6u thr", th[j]);
	printf("\n");
	for (size_t i = 0; i < p->nflops; i++) {
		const struct rt_profile_flops *f = &p->flops[i];
		bool first = true;

		/* one row per (precision, isa): print when this is its first entry */
		for (size_t k = 0; k < i; k++)
			if (!strcmp(p->flops[k].precision, f->precision) &&
			    !strcmp(p->flops[k].isa, f->isa))
				first = false;
		if (!first)
			continue;
		printf("  %-6s %-22s %-15s", f->precision, f->isa, f->method);
		for (size_t j = 0; j < nth; j++) {
			const struct rt_profile_flops *g = NULL;

			for (size_t k = 0; k < p->nflops; k++)
				if (p->flops[k].threads == th[j] &&
				    !strcmp(p->flops[k].precision, f->precision) &&
				    !strcmp(p->flops[k].isa, f->isa))
					g = &p->flops[k];
			if (g)
				printf(" %9.1f%c", g->gflops, g->flag[0] ? '!' : ' ');
			else
				printf(" %10s", "-");
		}
		printf("\n");
	}
	printf("\nBandwidth ceilings, GB/s, best of runs (working set over all threads)\n"
	       "  %-5s %-9s", "level", "kernel");
	for (size_t j = 0; j < nth; j++)
		printf(" %6u thr (set)   ", th[j]);
	printf("\n");
	for (size_t i = 0; i < p->nbw; i++) {
		const struct rt_profile_bw *b = &p->bw[i];
		bool first = true;

		for (size_t k = 0; k < i; k++)
			if (!strcmp(p->bw[k].level, b->level) && !strcmp(p->bw[k].kernel, b->kernel))
				first = false;
		if (!first)
			continue;
		printf("  %-5s %-9s", b->level, b->kernel);
		for (size_t j = 0; j < nth; j++) {
			for (size_t k = 0; k < p->nbw; k++)
				if (p->bw[k].threads == th[j] && !strcmp(p->bw[k].level, b->level) &&
				    !strcmp(p->bw[k].kernel, b->kernel))
					printf(" %9.1f%c(%5.0f KiB)", p->bw[k].gbytes_per_s,
					       p->bw[k].flag[0] ? '!' : ' ',
					       (double)p->bw[k].working_set / 1024);
		}
		printf("\n");
	}
	for (size_t i = 0; i < p->nflops; i++)
		if (p->flops[i].flag[0]) {
			printf("\n! flagged: measured twice and still disturbed or out of order (the "
			       "warnings say why); not used as roofs\n");
			break;
		}
	if (p->nlevels) {
		printf("\nMemory levels: hwloc's size against the measured curve (one thread)\n");
		for (size_t i = 0; i < p->nlevels; i++) {
			const struct rt_profile_level *l = &p->levels[i];

			if (!strcmp(l->level, "DRAM"))
				continue;
			printf("  %-5s hwloc %10.0f KiB   measured end %10.0f KiB   %s\n", l->level,
			       (double)l->hwloc_size / 1024, (double)l->measured_size / 1024,
			       !l->measured_size ? "not measured" : l->agrees ? "agrees" : "DIFFERS");
		}
	}
}

/* Probe this node into path (and its chart): 0, or the error in err. */
static int probe_node(const struct rt_topo *topo, struct rt_probe_opts *o, const char *path,
		      bool chart_on, bool print, struct progress_state *ps, struct rt_profile **out,
		      struct rt_err *err)
{
	char chart[4200], outbase[4200];
	struct rt_profile *p = NULL;
	bool drawn = false;
	int rc;

	/* fail on an unwritable destination now, not after the measurements */
	{
		struct rt_outfile probe_file;

		if ((rc = rt_outfile_open(&probe_file, path, err)))
			return rc;
		rt_outfile_abort(&probe_file);
	}
	snprintf(outbase, sizeof(outbase), "%s", path);
	if (strlen(outbase) > 4 && !strcmp(outbase + strlen(outbase) - 4, ".cfg"))
		outbase[strlen(outbase) - 4] = '\0';
	strncat(outbase, "-roofline", sizeof(outbase) - strlen(outbase) - 1);
	snprintf(chart, sizeof(chart), "%s.gp", outbase);
	if ((rc = rt_probe_run(&p, topo, o, err))) {
		if (ps->on && ps->tty)
			fputc('\n', stderr);
		return rc;
	}
	if (ps->on && ps->tty)
		fprintf(stderr, "\r\033[K");
	for (size_t i = 0; i < p->nnotes; i++)
		fprintf(stderr, "%s: warning: %s\n", prog, p->notes[i]);
	if ((rc = rt_profile_save(p, path, err)))
		goto out;
	if (print) {
		print_profile(p);
		printf("\nprofile: %s   (probe took %.1f s)\n", path, rt_now() - ps->start);
	}
	if (chart_on) {
		rc = rt_plot_roofline(p, 0, all_roofs, outbase, err);
		drawn = rc == 0;
		if (rc == 0 && print)
			printf("chart:   %s.png, %s.svg (script %s)\n", outbase, outbase, chart);
		else if (rc == RT_PLOT_SCRIPT_ONLY && print)
			printf("chart:   %s (note: %s)\n", chart, err->msg);
		else if (rc == -EINVAL)
			/* the profile is written; every ceiling it could draw is flagged */
			fprintf(stderr, "%s: warning: no chart: %s\n", prog, err->msg);
		if (rc == RT_PLOT_SCRIPT_ONLY || rc == -EINVAL)
			rc = 0;
	}
	if (!rc) {
		/* the node's page: its ceilings and its chart, one file */
		char html[4300], svg[4300];

		snprintf(html, sizeof(html), "%.4200s", path);
		if (strlen(html) > 4 && !strcmp(html + strlen(html) - 4, ".cfg"))
			html[strlen(html) - 4] = '\0';
		strncat(html, "-report.html", sizeof(html) - strlen(html) - 1);
		snprintf(svg, sizeof(svg), "%.4200s.svg", outbase);
		/* the chart this run drew, never one lying there from another */
		rc = rt_views_node_page(p, drawn ? svg : NULL, html, err);
		if (!rc && print)
			printf("page:    %s\n", html);
	}
out:
	if (rc)
		rt_profile_destroy(p);
	else
		*out = p;
	return rc;
}

/* Whether a reference profile holds a ceiling a node can be held against: trusted, not 0. */
static bool reference_usable(const struct rt_profile *p)
{
	for (size_t i = 0; i < p->nflops; i++)
		if (!p->flops[i].flag[0] && p->flops[i].gflops > 0)
			return true;
	for (size_t i = 0; i < p->nbw; i++)
		if (!p->bw[i].flag[0] && p->bw[i].gbytes_per_s > 0)
			return true;
	return false;
}

/* Replace each %h of a path template with the host name. */
static void expand_host(char *dst, size_t size, const char *tmpl, const char *host)
{
	size_t n = 0;

	for (const char *p = tmpl; *p && n + 1 < size; p++) {
		if (p[0] == '%' && p[1] == 'h') {
			n += (size_t)snprintf(dst + n, size - n, "%s", host);
			if (n >= size)
				n = size - 1;
			p++;
		} else {
			dst[n++] = *p;
		}
	}
	dst[n] = '\0';
}

/* The cluster probe's callback: this node, as probe_node prints it. */
struct node_ctx {
	const struct rt_topo *topo;
	struct rt_probe_opts *o;
	const char *path;
	bool chart_on;
	struct progress_state *ps;
};

static int probe_this_node(void *ctx, bool report, struct rt_profile **p, struct rt_err *err)
{
	struct node_ctx *nc = ctx;

	nc->ps->on = nc->ps->on && report;
	return probe_node(nc->topo, nc->o, nc->path, nc->chart_on, report, nc->ps, p, err);
}

static void say_rank(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "%s: %s\n", prog, msg);
}

int main(int argc, char **argv)
{
	struct rt_probe_opts o = { 0 };
	struct progress_state ps = { .tty = isatty(STDERR_FILENO), .start = rt_now() };
	struct rt_topo *topo = NULL;
	struct rt_profile *p = NULL;
	struct rt_err err = { 0 };
	struct rt_cluster cl;
	const char *output = NULL, *host_opt = NULL, *cluster_path = "machine-profiles/cluster.cfg";
	const char *threads_arg = NULL, *isa_arg = NULL;
	char path[4096];
	bool chart_on = true, verbose = false;
	const char *reference = NULL;
	bool sustain_given = false, one_at_a_time = false;
	double threshold = 10;
	int c, rc = 1;

	if (rt_cluster_init(&cl, &argc, &argv, &err)) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return 1;
	}
	while ((c = getopt_long(argc, argv, "o:t:i:qvhV", long_opts, NULL)) != -1) {
		int bad = 0;

		switch (c) {
		case 'o': bad = rt_opt_parse_path(&output, "--output", optarg, "file", &err); break;
		case 't': threads_arg = optarg; break;
		case 'i': isa_arg = optarg; break;
		case 'q': o.quick = true; break;
		case OPT_NO_CURVE: o.no_curve = true; break;
		case OPT_NO_LOWP: o.no_lowp = true; break;
		case OPT_NO_CHART: chart_on = false; break;
		case OPT_ALL_ROOFS: all_roofs = true; break;
		case OPT_HOST: host_opt = optarg; break;
		case OPT_CLUSTER:
			bad = rt_opt_parse_path(&cluster_path, "--cluster", optarg, "file", &err);
			break;
		case OPT_THRESHOLD:
			bad = rt_opt_parse_double(&threshold, "--threshold", optarg, 0, 100, &err);
			break;
		case OPT_REFERENCE:
			bad = rt_opt_parse_path(&reference, "--reference", optarg, "file", &err);
			break;
		case OPT_ONE_AT_A_TIME: one_at_a_time = true; break;
		case OPT_SUSTAIN:
			bad = rt_opt_parse_double(&o.sustain_seconds, "--sustain", optarg, 0, 3600,
						  &err);
			sustain_given = true;
			break;
		case 'v': verbose = true; break;
		case 'h': usage(stdout); rc = 0; goto out;
		case 'V': printf("%s (%s) %s\n", prog, PACKAGE_NAME, PACKAGE_VERSION); rc = 0; goto out;
		default:
			fprintf(stderr, "Try '%s --help' for more information.\n", prog);
			rc = 2;
			goto out;
		}
		if (bad) {
			rc = usage_error(&err);
			goto out;
		}
	}
	if (optind < argc) {
		rt_err_set(&err, -EINVAL, "unexpected argument '%s'", argv[optind]);
		rc = usage_error(&err);
		goto out;
	}
	if (host_opt && !rt_safe_name(host_opt)) {
		rt_err_set(&err, -EINVAL, "--host: '%s' is not a host name (1 to 255 letters, digits, "
			   "'.', '_' and '-', not starting with '.')", host_opt);
		rc = usage_error(&err);
		goto out;
	}
	if (cl.nodes > 1 && ((output && !strstr(output, "%h")) || host_opt)) {
		rt_err_set(&err, -EINVAL, "%s: %d nodes would write one profile: put %%h (the host "
			   "name) in --output", host_opt ? "--host" : "--output", cl.nodes);
		rc = usage_error(&err);
		goto out;
	}
	o.host = host_opt;
	if (rt_topo_create(&topo, NULL, &err)) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		goto out;
	}
	if (threads_arg) {
		long list[RT_OPT_LIST_MAX];
		size_t n = 0;

		if (rt_opt_parse_long_list(list, &n, RT_PROBE_MAX_THREADS_LIST, "--threads",
					   threads_arg, 1, rt_topo_pus(topo), &err)) {
			rc = usage_error(&err);
			goto out;
		}
		for (size_t i = 0; i < n; i++)
			o.threads[i] = (unsigned)list[i];
		o.nthreads = n;
	}
	if (isa_arg) {
		static const char *const names[] = { "scalar", "sse", "avx2", "avx512" };

		if (rt_opt_parse_names(&o.isa_mask, "--isa", isa_arg, names, 4, &err)) {
			rc = usage_error(&err);
			goto out;
		}
		for (int i = 0; i < RT_ISA_COUNT; i++)
			if ((o.isa_mask & (1u << i)) && !rt_isa_supported((enum rt_isa)i)) {
				rt_err_set(&err, -ENOTSUP, "--isa: '%s' is not supported by this CPU",
					   names[i]);
				rc = usage_error(&err);
				goto out;
			}
	}
	{
		/* the host's name in a file name: a safe one, mapped with a note if need be */
		char safe[256], note[512];

		if (!rt_safe_name_map(safe, sizeof(safe), host_opt ? host_opt : cl.host) && output &&
		    strstr(output, "%h"))
			fprintf(stderr, "%s: note: the host name '%s' is not a safe file name: %%h is "
				"'%s'\n", prog, cl.host, safe);
		if (output)
			expand_host(path, sizeof(path), output, safe);
		else if (!rt_profile_default_path(path, sizeof(path), host_opt ? host_opt : cl.host,
						  note, sizeof(note)))
			fprintf(stderr, "%s: note: %s\n", prog, note);
	}
	ps.on = ps.tty || verbose;
	o.progress = on_progress;
	o.progress_ctx = &ps;
	if (cl.active) {
		struct rt_profile *refp = NULL;

		/* the reference is read before anything is measured: a bad one fails at once */
		if (reference && cl.rank == 0 && rt_profile_load(&refp, reference, &err)) {
			fprintf(stderr, "%s: --reference: %s\n", prog, err.msg);
			rt_cluster_abort(&cl, 1);
		}
		if (refp && !reference_usable(refp)) {
			fprintf(stderr, "%s: --reference: %s: no usable ceiling (every one is flagged "
				"or zero): nothing to hold the nodes against\n", prog, reference);
			rt_cluster_abort(&cl, 1);
		}
		if (!sustain_given)
			o.sustain_seconds = 1;
		{
			struct node_ctx nc = { topo, &o, path, chart_on, &ps };
			const struct rt_cluster_probe_opts co = {
				.host = o.host, .path = path, .cluster_path = cluster_path,
				.threshold = threshold / 100, .one_at_a_time = one_at_a_time,
				.reference = refp, .reference_path = reference,
				.probe_node = probe_this_node, .ctx = &nc, .say = say_rank,
				.out = stdout,
			};

			rc = rt_cluster_probe(&cl, &co);
		}
		rt_profile_destroy(refp);
		goto out;
	}
	if (probe_node(topo, &o, path, chart_on, true, &ps, &p, &err)) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		goto out;
	}
	rc = 0;
out:
	rt_profile_destroy(p);
	rt_topo_destroy(topo);
	rt_cluster_finalize(&cl);
	return rc;
}
