/* roofline-probe: characterize this node and write its machine profile and roofline chart */
#include "config.h"
#include "base/err.h"
#include "base/options.h"
#include "base/util.h"
#include "base/vocab.h"
#include "cluster/cluster.h"
#include "kernels/kernels.h"
#include "machine/topo.h"
#include "run/probe-run.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *prog = "roofline-probe";

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
"  -t, --threads=LIST    thread counts, comma-separated (default: 1, half a socket,\n"
"                        a socket, all cores)\n"
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

static int usage_error(const struct rt_err *err)
{
	fprintf(stderr, "%s: %s\nTry '%s --help' for more information.\n", prog, err->msg, prog);
	return 2;
}

int main(int argc, char **argv)
{
	struct rt_probe_run_opts o = { .prog = prog, .chart = true, .out = stdout,
				       .cluster_path = "machine-profiles/cluster.cfg" };
	struct rt_topo *topo = NULL;
	struct rt_err err = { 0 };
	struct rt_cluster cl;
	const char *threads_arg = NULL, *isa_arg = NULL;
	double threshold = 10;
	int c, rc = 1;

	if (rt_cluster_init(&cl, &argc, &argv, &err)) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return 1;
	}
	while ((c = getopt_long(argc, argv, "o:t:i:qvhV", long_opts, NULL)) != -1) {
		int bad = 0;

		switch (c) {
		case 'o': bad = rt_opt_parse_path(&o.output, "--output", optarg, "file", &err); break;
		case 't': threads_arg = optarg; break;
		case 'i': isa_arg = optarg; break;
		case 'q': o.probe.quick = true; break;
		case OPT_NO_CURVE: o.probe.no_curve = true; break;
		case OPT_NO_LOWP: o.probe.no_lowp = true; break;
		case OPT_NO_CHART: o.chart = false; break;
		case OPT_ALL_ROOFS: o.all_roofs = true; break;
		case OPT_HOST: o.host = optarg; break;
		case OPT_CLUSTER:
			bad = rt_opt_parse_path(&o.cluster_path, "--cluster", optarg, "file", &err);
			break;
		case OPT_THRESHOLD:
			bad = rt_opt_parse_double(&threshold, "--threshold", optarg, 0, 100, &err);
			break;
		case OPT_REFERENCE:
			bad = rt_opt_parse_path(&o.reference, "--reference", optarg, "file", &err);
			break;
		case OPT_ONE_AT_A_TIME: o.one_at_a_time = true; break;
		case OPT_SUSTAIN:
			bad = rt_opt_parse_double(&o.probe.sustain_seconds, "--sustain", optarg, 0, 3600,
						  &err);
			o.sustain_given = true;
			break;
		case 'v': o.verbose = true; break;
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
	o.threshold = threshold / 100;
	if (optind < argc) {
		rt_err_set(&err, -EINVAL, "unexpected argument '%s'", argv[optind]);
		rc = usage_error(&err);
		goto out;
	}
	if (o.host && !rt_safe_name(o.host)) {
		rt_err_set(&err, -EINVAL, "--host: '%s' is not a host name (1 to 255 letters, digits, "
			   "'.', '_' and '-', not starting with '.')", o.host);
		rc = usage_error(&err);
		goto out;
	}
	if (cl.nodes > 1 && ((o.output && !strstr(o.output, "%h")) || o.host)) {
		rt_err_set(&err, -EINVAL, "%s: %d nodes would write one profile: put %%h (the host "
			   "name) in --output", o.host ? "--host" : "--output", cl.nodes);
		rc = usage_error(&err);
		goto out;
	}
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
			o.probe.threads[i] = (unsigned)list[i];
		o.probe.nthreads = n;
	}
	if (isa_arg) {
		if (rt_opt_parse_names(&o.probe.isa_mask, "--isa", isa_arg, rt_vocab_isas,
				       RT_ISA_COUNT, &err)) {
			rc = usage_error(&err);
			goto out;
		}
		for (int i = 0; i < RT_ISA_COUNT; i++)
			if ((o.probe.isa_mask & (1u << i)) && !rt_isa_supported((enum rt_isa)i)) {
				rt_err_set(&err, -ENOTSUP, "--isa: '%s' is not supported by this CPU",
					   rt_vocab_isas[i]);
				rc = usage_error(&err);
				goto out;
			}
	}
	rc = rt_probe_run_tool(&o, &cl, topo);
out:
	rt_topo_destroy(topo);
	rt_cluster_finalize(&cl);
	return rc;
}
