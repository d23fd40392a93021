/* roofline-probe: characterize this node and write its machine profile and roofline chart */
#include "config.h"
#include "base/cli.h"
#include "base/err.h"
#include "base/options.h"
#include "base/util.h"
#include "base/vocab.h"
#include "cluster/cluster.h"
#include "kernels/kernels.h"
#include "machine/dnnl.h"
#include "machine/topo.h"
#include "run/probe-run.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

enum { OPT_NO_CURVE = 256, OPT_NO_LOWP, OPT_NO_CHART, OPT_HOST, OPT_CLUSTER, OPT_THRESHOLD,
       OPT_ALL_ROOFS, OPT_REFERENCE, OPT_SUSTAIN, OPT_ONE_AT_A_TIME, OPT_PROFILE_OUT };

static const char *const synopsis[] = { "[OPTION]...", NULL };

static const struct rt_cli_opt opts[] = {
	{ OPT_PROFILE_OUT, "profile-out", 0, RT_CLI_PATH, "FILE",
	  .def = "machine-profiles/HOST.cfg",
	  .help = "write the profile to FILE; the chart goes beside it as "
		  "FILE-roofline.{gp,png,svg}" },
	{ 't', "threads", 't', RT_CLI_LIST, "LIST", 1, 0, .max_pus = true,
	  .def = "1, half a socket's cores, a socket's cores and all cores, duplicates dropped",
	  .help = "thread counts, comma-separated (PUs: the node's processing units)" },
	{ 'i', "isa", 'i', RT_CLI_WORD, "LIST", .def = "all this CPU has",
	  .help = "ISAs to measure: scalar, sse, avx2, avx512" },
	{ 'q', "quick", 'q', RT_CLI_FLAG, NULL, .help = "a coarse profile in a few seconds" },
	{ OPT_NO_CURVE, "no-curve", 0, RT_CLI_FLAG, NULL,
	  .help = "skip the curve and trust hwloc's cache sizes" },
	{ OPT_NO_LOWP, "no-lowp", 0, RT_CLI_FLAG, NULL, .help = "skip the oneDNN matmul peaks" },
	{ OPT_NO_CHART, "no-chart", 0, RT_CLI_FLAG, NULL,
	  .help = "do not write the roofline chart" },
	{ OPT_ALL_ROOFS, "all-roofs", 0, RT_CLI_FLAG, NULL,
	  .help = "draw every FLOP ceiling (each ISA and method), not only each precision's peak "
		  "and theoretical peak" },
	{ OPT_HOST, "host", 0, RT_CLI_WORD, "NAME",
	  .help = "host name recorded in the profile and used in the default path" },
	{ .help =
"\n"
"Under mpirun (a build with MPI), every node is probed once: its first rank measures with\n"
"all the node's cores while the node's other ranks wait idle; then the network between\n"
"rank 0 and another node (ping-pong latency and bandwidth, allreduce over all ranks) is\n"
"measured, and rank 0 writes the cluster profile:\n" },
	{ OPT_CLUSTER, "cluster", 0, RT_CLI_PATH, "FILE", .def = "machine-profiles/cluster.cfg",
	  .help = "cluster profile path" },
	{ OPT_THRESHOLD, "threshold", 0, RT_CLI_REAL, "PCT", 0, 100, .def = "10",
	  .help = "a node more than PCT% below the reference on a ceiling's best run, median or "
		  "sustained run is named, with the figures" },
	{ OPT_REFERENCE, "reference", 0, RT_CLI_PATH, "FILE",
	  .def = "the best node for each ceiling; from 5 nodes up, the median of the nodes",
	  .help = "a known-good node's profile (an acceptance run) to hold every node against" },
	{ OPT_SUSTAIN, "sustain", 0, RT_CLI_REAL, "S", 0, 3600, .def = "1 under mpirun, 0 alone",
	  .help = "a run of S seconds of each headline ceiling (fp64 and fp32 peaks, DRAM "
		  "bandwidth) beside the best of short runs: a node slow only part of the time "
		  "is found" },
	{ OPT_ONE_AT_A_TIME, "one-at-a-time", 0, RT_CLI_FLAG, NULL,
	  .help = "the nodes are probed in turn, the others waiting idle: for nodes that share "
		  "something (a rehearsal on one machine, blades on one power or cooling budget)" },
	{ .help =
"  Each node writes its own profile: machine-profiles/HOST.cfg, or --profile-out with %h for\n"
"  the host name (required with several nodes).\n" },
	{ 'v', "verbose", 'v', RT_CLI_FLAG, NULL,
	  .help = "report progress on stderr even when it is not a terminal" },
	{ 0 },
};

/* -o was the profile written: -o, --out is a results directory where a tool writes one */
static const struct rt_cli_moved moved[] = {
	{ 'o', NULL, true, NULL, "-o is now --profile-out FILE (-o, --out is a results directory "
	  "in roofline-train and roofline-run)" },
	{ 0, "output", true, NULL, "--output is now --profile-out FILE" },
	{ 0 },
};

static const struct rt_cli cli_table = {
	.prog = "roofline-probe", .synopsis = synopsis, .opts = opts, .moved = moved,
	.version_more = rt_dnnl_print_version,
	.about =
"Characterize this node: its topology (hwloc), a bandwidth-vs-working-set curve that finds\n"
"where each cache level really ends, peak FLOP/s per precision, ISA and thread count, the\n"
"bandwidth of every cache level and of DRAM, and oneDNN's low-precision (bf16, fp16, int8)\n"
"matmul peaks. Writes a machine profile (libconfig) and a gnuplot roofline chart.\n",
	.after =
"\n"
"Bandwidths are in GB/s (1e9 bytes/s), counting the bytes each kernel moves (a copy counts\n"
"its read and its write); FLOP ceilings are the best of repeated runs.\n"
"\n"
"Examples:\n"
"  roofline-probe                                  full profile of this node (about 30 s)\n"
"  roofline-probe --quick --profile-out /tmp/n.cfg coarse profile in a few seconds\n"
"  roofline-probe -t 1,2 -i avx2,avx512            AVX2 and AVX-512 ceilings at 1 and 2\n"
"                                                  threads\n",
};

struct cli {
	struct rt_probe_run_opts o;
	double threshold;
};

static int set(void *ctx, int key, const struct rt_cli_value *v, struct rt_err *err)
{
	struct cli *c = ctx;
	struct rt_probe_run_opts *o = &c->o;

	switch (key) {
	case OPT_PROFILE_OUT: o->output = v->arg; break;
	case 't':
		if (v->n > RT_PROBE_MAX_THREADS_LIST)
			return rt_err_set(err, -EINVAL, "--threads: more than %d items",
					  RT_PROBE_MAX_THREADS_LIST);
		for (size_t i = 0; i < v->n; i++)
			o->probe.threads[i] = (unsigned)v->list[i];
		o->probe.nthreads = v->n;
		break;
	case 'i':
		if (rt_opt_parse_names(&o->probe.isa_mask, "--isa", v->arg, rt_vocab_isas,
				       RT_ISA_COUNT, err))
			return -EINVAL;
		for (int i = 0; i < RT_ISA_COUNT; i++)
			if ((o->probe.isa_mask & (1u << i)) && !rt_isa_supported((enum rt_isa)i))
				return rt_err_set(err, -ENOTSUP, "--isa: '%s' is not supported by "
						  "this CPU", rt_vocab_isas[i]);
		break;
	case 'q': o->probe.quick = true; break;
	case OPT_NO_CURVE: o->probe.no_curve = true; break;
	case OPT_NO_LOWP: o->probe.no_lowp = true; break;
	case OPT_NO_CHART: o->chart = false; break;
	case OPT_ALL_ROOFS: o->all_roofs = true; break;
	case OPT_HOST:
		if (!rt_safe_name(v->arg))
			return rt_err_set(err, -EINVAL, "--host: '%s' is not a host name (1 to 255 "
					  "letters, digits, '.', '_' and '-', not starting with '.')",
					  v->arg);
		o->host = v->arg;
		break;
	case OPT_CLUSTER: o->cluster_path = v->arg; break;
	case OPT_THRESHOLD: c->threshold = v->d; break;
	case OPT_REFERENCE: o->reference = v->arg; break;
	case OPT_ONE_AT_A_TIME: o->one_at_a_time = true; break;
	case OPT_SUSTAIN:
		o->probe.sustain_seconds = v->d;
		o->sustain_given = true;
		break;
	case 'v': o->verbose = true; break;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct rt_cli cli = cli_table;
	struct cli c = { .o = { .prog = cli_table.prog, .chart = true, .out = stdout,
				.cluster_path = "machine-profiles/cluster.cfg" }, .threshold = 10 };
	struct rt_topo *topo = NULL;
	struct rt_err err = { 0 };
	struct rt_cluster cl;
	int first = 0, rc = 1;

	if (rt_cluster_init(&cl, &argc, &argv, &err)) {
		fprintf(stderr, "%s: %s\n", cli.prog, err.msg);
		return 1;
	}
	/* the CPUs this process may run on are the machine it measures (taskset, a job's
	 * binding): placements, thread counts and --threads' range keep to them */
	if (rt_topo_create(&topo, NULL, &err) || rt_topo_restrict_usable(topo, &err)) {
		fprintf(stderr, "%s: %s\n", cli.prog, err.msg);
		goto out;
	}
	cli.pus = (long)rt_topo_pus(topo);
	if (rt_cli_stop(&cli, argc, argv, set, &c, &first, &rc))
		goto out;
	c.o.threshold = c.threshold / 100;
	if (first < argc) {
		rt_err_set(&err, -EINVAL, "unexpected argument '%s'", argv[first]);
		rc = rt_cli_usage_error(&cli, err.msg);
		goto out;
	}
	if (cl.nodes > 1 && ((c.o.output && !strstr(c.o.output, "%h")) || c.o.host)) {
		rt_err_set(&err, -EINVAL, "%s: %d nodes would write one profile: put %%h (the host "
			   "name) in --profile-out", c.o.host ? "--host" : "--profile-out",
			   cl.nodes);
		rc = rt_cli_usage_error(&cli, err.msg);
		goto out;
	}
	rc = rt_probe_run_tool(&c.o, &cl, topo);
out:
	rt_topo_destroy(topo);
	rt_cluster_finalize(&cl);
	return rc;
}
