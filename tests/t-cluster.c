/* t-cluster: the cluster profile without MPI: node records round-trip through their text,
 * min / median / max per ceiling, the sick node named, the file read back with libconfig */
#include "config.h"
#include "tap.h"
#include "cluster-profile.h"

#include <errno.h>
#include <libconfig.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void node(struct rt_cluster_node *n, const char *host, double fp32, double dram)
{
	memset(n, 0, sizeof(*n));
	snprintf(n->host, sizeof(n->host), "%s", host);
	snprintf(n->status, sizeof(n->status), "ok");
	snprintf(n->profile, sizeof(n->profile), "machine-profiles/%s.cfg", host);
	n->threads = 2;
	snprintf(n->c[0].name, sizeof(n->c[0].name), "flops fp32 avx512");
	n->c[0].value = fp32;
	snprintf(n->c[1].name, sizeof(n->c[1].name), "bw DRAM");
	n->c[1].value = dram;
	n->nc = 2;
}

int main(void)
{
	struct rt_cluster_node nodes[4], back;
	struct rt_cluster_stat st[8];
	struct rt_network net;
	struct rt_err err;
	char path[] = "/tmp/rt-t-cluster-XXXXXX", file[64];
	char *text;
	size_t ns;

	node(&nodes[0], "n1", 250, 30);
	node(&nodes[1], "n2", 260, 31);
	node(&nodes[2], "n3", 200, 30.5);      /* 20% under the fp32 median: sick */
	node(&nodes[3], "n4", 255, 29.9);
	snprintf(nodes[3].status, sizeof(nodes[3].status), "ok");

	/* the gather's text and back */
	text = rt_cluster_node_encode(&nodes[2]);
	ok(text && rt_cluster_node_decode(text, &back, &err) == 0, "a node record round-trips");
	is_str(back.host, "n3", "host");
	is_int(back.nc, 2, "two ceilings");
	is_double(back.c[0].value, 200, 0, "values exact (%%.17g)");
	free(text);
	ok(rt_cluster_node_decode("host\tx\nceiling\tflops\tnan\n", &back, &err) == -EINVAL &&
	   strstr(err.msg, "line 2"), "a bad value is refused with its line: %s", err.msg);
	ok(rt_cluster_node_decode("status\tok\n", &back, &err) == -EINVAL,
	   "a record without a host is refused");

	/* inputs the fuzzer (tests/fuzz/fuzz-cluster.c) found: each was once a crash or a record
	 * that did not survive its own encoding; each is refused now, with its line */
	{
		static const char *const regressions[] = { "cluster-tab-in-host.txt",
							   "cluster-ceiling-twice.txt",
							   "cluster-long-name.txt" };
		const char *top = getenv("top_srcdir");

		for (size_t i = 0; i < 3; i++) {
			char f[4096], buf[8192];
			bool read;

			snprintf(f, sizeof(f), "%s/tests/data/fuzz-regressions/%s", top ? top : ".",
				 regressions[i]);
			read = slurp(f, buf, sizeof(buf));
			ok(read && rt_cluster_node_decode(buf, &back, &err) == -EINVAL &&
			   strstr(err.msg, "line"), "fuzz regression %s: refused: %s", regressions[i],
			   read ? err.msg : "(file missing)");
		}
	}

	ns = rt_cluster_stats(nodes, 4, 0.10, st, 8);
	is_int(ns, 2, "two ceilings over the nodes");
	is_double(st[0].min, 200, 0, "fp32 min");
	is_double(st[0].median, 252.5, 1e-12, "fp32 median of 200, 250, 255, 260");
	is_double(st[0].max, 260, 0, "fp32 max");
	ok(st[0].nbelow == 1 && st[0].below[0] == 2, "n3 is more than 10%% below the median");
	is_int(st[1].nbelow, 0, "no node far below the DRAM median");
	ns = rt_cluster_stats(nodes, 4, 0.25, st, 8);
	is_int(st[0].nbelow, 0, "at 25%% nobody is named");

	memset(&net, 0, sizeof(net));
	snprintf(net.scope, sizeof(net.scope), "inter-node");
	net.peer = 1;
	net.pingpong[0] = (struct rt_net_point){ 8, 1e-6, 0.008 };
	net.npingpong = 1;
	net.allreduce[0] = (struct rt_net_point){ 4096, 2e-6, 2.048 };
	net.nallreduce = 1;
	if (!mkdtemp(path))
		return 1;
	snprintf(file, sizeof(file), "%s/cluster.cfg", path);
	is_int(rt_cluster_profile_write(file, nodes, 4, 8, 0.10, &net, NULL, &err), 0,
	       "cluster profile written");
	{
		config_t cfg;
		const char *s = NULL;
		double d = 0;
		int i = 0;

		config_init(&cfg);
		ok(config_read_file(&cfg, file), "libconfig reads it back");
		ok(config_lookup_int(&cfg, "cluster.nodes", &i) && i == 4, "nodes = 4");
		ok(config_lookup_int(&cfg, "cluster.ranks", &i) && i == 8, "ranks = 8");
		ok(config_lookup_string(&cfg, "cluster.node.[2].host", &s) && !strcmp(s, "n3"),
		   "node 3 is n3");
		ok(config_lookup_float(&cfg, "cluster.ceilings.[0].median", &d) && d == 252.5,
		   "the median as written");
		ok(config_lookup_string(&cfg, "cluster.ceilings.[0].below.[0]", &s) &&
		   !strcmp(s, "n3"), "the sick node by name");
		ok(config_lookup_string(&cfg, "cluster.network.scope", &s) &&
		   !strcmp(s, "inter-node"), "the network's scope");
		ok(config_lookup_float(&cfg, "cluster.network.allreduce.[0].gbytes_per_s", &d) &&
		   fabs(d - 2.048) < 1e-9, "allreduce bandwidth");
		config_destroy(&cfg);
	}
	ok(access(file, F_OK) == 0 && 1 &&
	   rt_cluster_profile_write("/dev/null/x.cfg", nodes, 4, 8, 0.1, &net, NULL,
				    &err) != 0 && strstr(err.msg, "/dev/null"),
	   "an unwritable path is an error naming it: %s", err.msg);
	unlink(file);
	rmdir(path);
	return done_testing();
}
