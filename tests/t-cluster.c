/* t-cluster: the cluster profile without MPI: node records round-trip through their text,
 * min / median / max per ceiling, the sick node named against the best node, a reference node
 * or the median of 5 nodes, on best runs, medians and sustained runs, disturbed ceilings
 * reported and never ranked, the file read back with libconfig; the cluster probe's second
 * look (a node found below measures the ceiling again before it is judged), alone against a
 * reference */
#include "config.h"
#include "tap.h"
#include "cluster/cluster.h"
#include "cluster/cluster-profile.h"
#include "cluster/cluster-probe.h"

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
	n->c[0].median = fp32 * 0.99;
	n->c[0].sustained = NAN;
	snprintf(n->c[1].name, sizeof(n->c[1].name), "bw DRAM");
	n->c[1].value = dram;
	n->c[1].median = dram * 0.98;
	n->c[1].sustained = dram * 0.97;
	n->nc = 2;
}

/* The launcher's variables: NULL-terminated NAME=VALUE words, every other one unset. */
static int launch_in(struct rt_cluster_launch *l, struct rt_err *err, const char *const *env)
{
	static const char *const all[] = { "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
					   "PMI_RANK", "PMI_SIZE", "PMIX_RANK", "SLURM_PROCID",
					   "SLURM_NTASKS", "SLURM_STEP_NUM_TASKS", "SLURM_STEP_ID",
					   "SLURM_JOB_ID" };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		unsetenv(all[i]);
	for (; *env; env++) {
		char name[64];
		const char *eq = strchr(*env, '=');

		snprintf(name, sizeof(name), "%.*s", (int)(eq - *env), *env);
		setenv(name, eq + 1, 1);
	}
	memset(err, 0, sizeof(*err));
	return rt_cluster_launch_detect(l, err);
}

/* The one rule for "am I a rank of a job": each launcher's pair, a Slurm batch script that is
 * none, and variables that do not read refused by name. */
static void launches(void)
{
	struct rt_cluster_launch l;
	struct rt_err err;

	ok(launch_in(&l, &err, (const char *const[]){ NULL }) == 0 && !l.launched && !l.mpi &&
	   l.rank == 0 && l.size == 1, "no launcher's variable: alone, rank 0 of 1");
	ok(launch_in(&l, &err, (const char *const[]){ "OMPI_COMM_WORLD_RANK=2",
						      "OMPI_COMM_WORLD_SIZE=4", NULL }) == 0 &&
	   l.launched && l.mpi && l.rank == 2 && l.size == 4 &&
	   !strcmp(l.from, "OMPI_COMM_WORLD_SIZE"), "mpirun: rank 2 of 4, an MPI launch");
	ok(launch_in(&l, &err, (const char *const[]){ "PMI_RANK=1", "PMI_SIZE=3", NULL }) == 0 &&
	   l.launched && l.mpi && l.rank == 1 && l.size == 3, "PMI: rank 1 of 3");
	ok(launch_in(&l, &err, (const char *const[]){ "SLURM_NTASKS=4", "SLURM_PROCID=0",
						      "SLURM_JOB_ID=77", NULL }) == 0 &&
	   !l.launched && l.size == 1, "a Slurm batch script (SLURM_NTASKS=4, no step): alone, not "
	   "rank 0 of 4");
	ok(launch_in(&l, &err, (const char *const[]){ "SLURM_NTASKS=4", "SLURM_PROCID=0",
						      "SLURM_STEP_ID=4294967291", NULL }) == 0 &&
	   !l.launched && l.size == 1, "... nor in its batch step (id 0xfffffffb)");
	ok(launch_in(&l, &err, (const char *const[]){ "SLURM_NTASKS=8", "SLURM_STEP_NUM_TASKS=4",
						      "SLURM_PROCID=3", "SLURM_STEP_ID=0",
						      NULL }) == 0 &&
	   l.launched && !l.mpi && l.rank == 3 && l.size == 4 &&
	   !strcmp(l.from, "SLURM_STEP_NUM_TASKS"), "srun: rank 3 of the step's 4 tasks, not "
	   "MPI's");
	ok(launch_in(&l, &err, (const char *const[]){ "SLURM_STEP_NUM_TASKS=2", "SLURM_PROCID=1",
						      "SLURM_STEP_ID=3", "PMIX_RANK=1", NULL }) == 0 &&
	   l.launched && l.mpi && l.rank == 1 && l.size == 2, "srun --mpi=pmix: MPI's too");
	ok(launch_in(&l, &err, (const char *const[]){ "PMIX_RANK=0", NULL }) == 0 &&
	   l.launched && l.mpi && l.size == 0, "PMIx alone: launched, MPI_Init tells the size");
	ok(launch_in(&l, &err, (const char *const[]){ "PMI_SIZE=garbage", NULL }) == -EINVAL &&
	   strstr(err.msg, "PMI_SIZE: 'garbage' is not a number of tasks"),
	   "PMI_SIZE=garbage: refused, the variable named: %s", err.msg);
	ok(launch_in(&l, &err, (const char *const[]){ "OMPI_COMM_WORLD_SIZE=4",
						      "OMPI_COMM_WORLD_RANK=4", NULL }) == -EINVAL &&
	   strstr(err.msg, "OMPI_COMM_WORLD_RANK: '4' is not a rank of OMPI_COMM_WORLD_SIZE=4"),
	   "a rank past the size: refused: %s", err.msg);
	ok(launch_in(&l, &err, (const char *const[]){ "PMI_SIZE=2", NULL }) == -EINVAL &&
	   strstr(err.msg, "PMI_SIZE=2 but PMI_RANK is not set"),
	   "a size without its rank: refused: %s", err.msg);
	ok(launch_in(&l, &err, (const char *const[]){ "SLURM_NTASKS=0", "SLURM_PROCID=0",
						      "SLURM_STEP_ID=1", NULL }) == -EINVAL &&
	   strstr(err.msg, "SLURM_NTASKS: '0' is not a number of tasks"),
	   "in a step, SLURM_NTASKS=0: refused: %s", err.msg);
	ok(launch_in(&l, &err, (const char *const[]){ "OMPI_COMM_WORLD_SIZE=99999999999999999999",
						      "OMPI_COMM_WORLD_RANK=0", NULL }) == -EINVAL,
	   "a size that overflows: refused");
	ok(launch_in(&l, &err, (const char *const[]){ "SLURM_NTASKS=3", "SLURM_PROCID=0",
						      "SLURM_STEP_ID=5", NULL }) == 0 &&
	   rt_cluster_check_world(&l, 1, true, &err) == -ENOTSUP &&
	   strstr(err.msg, "started 3 tasks (SLURM_NTASKS=3)"),
	   "3 tasks of a step, MPI's world of 1: refused: %.60s", err.msg);
	ok(rt_cluster_check_world(&l, 3, true, &err) == 0, "... a world of 3: fine");
	launch_in(&l, &err, (const char *const[]){ NULL });
}

/* The second look (rt_cluster_probe alone, one node against a reference): a node found below
 * measures the ceiling again before it is judged. The probe and the second look are the
 * test's: the node's L3 at 8 GB/s on its first look, at `again_l3` on its second (0: the
 * second look finds nothing better); its sustained DRAM run at `dram_su`. */
struct look {
	double l3, again_l3, dram_su;
	int probes, agains;
	struct rt_cluster_again asked[8];
	size_t nasked;
};

static struct rt_profile *look_profile(const struct look *lk, struct rt_err *err)
{
	struct rt_profile *p = NULL;
	struct rt_profile_flops f = { .threads = 1, .gflops = 40, .median = 39 };
	struct rt_profile_bw b = { .threads = 1, .gbytes_per_s = 30, .median = 29 };
	struct rt_profile_sustained su = { .threads = 1, .value = 12, .seconds = 1 };

	if (rt_profile_create(&p, err))
		return NULL;
	snprintf(p->host, sizeof(p->host), "nodeb");
	snprintf(f.precision, sizeof(f.precision), "fp64");
	snprintf(f.isa, sizeof(f.isa), "avx2");
	snprintf(f.method, sizeof(f.method), "fma-chains");
	rt_profile_add_flops(p, &f);
	snprintf(b.level, sizeof(b.level), "L3");
	snprintf(b.kernel, sizeof(b.kernel), "load");
	b.gbytes_per_s = lk->l3;
	b.median = lk->l3;
	rt_profile_add_bw(p, &b);
	snprintf(b.level, sizeof(b.level), "DRAM");
	b.gbytes_per_s = 12.5;
	b.median = 12.4;
	rt_profile_add_bw(p, &b);
	snprintf(su.name, sizeof(su.name), "bw DRAM");
	snprintf(su.kernel, sizeof(su.kernel), "load");
	su.value = lk->dram_su;
	rt_profile_add_sustained(p, &su);
	return p;
}

static int look_probe(void *ctx, bool report, struct rt_profile **p, struct rt_err *err)
{
	struct look *lk = ctx;

	(void)report;
	lk->probes++;
	return (*p = look_profile(lk, err)) ? 0 : -ENOMEM;
}

static int look_again(void *ctx, struct rt_profile *p, const struct rt_cluster_again *a,
		      size_t n, struct rt_err *err)
{
	struct look *lk = ctx;

	(void)err;
	lk->agains++;
	for (size_t i = 0; i < n && lk->nasked < 8; i++)
		lk->asked[lk->nasked++] = a[i];
	for (size_t i = 0; i < p->nbw; i++)
		if (!strcmp(p->bw[i].level, "L3") && lk->again_l3 > p->bw[i].gbytes_per_s)
			p->bw[i].gbytes_per_s = p->bw[i].median = lk->again_l3;
	return 0;
}

static void second_looks(const char *dir)
{
	struct look ref = { .l3 = 25, .dram_su = 12 };
	struct rt_profile *refp = look_profile(&ref, &(struct rt_err){ 0 });
	struct rt_cluster cl;
	char file[128], *out = NULL;
	size_t len = 0;

	rt_cluster_single(&cl);
	snprintf(file, sizeof(file), "%s/looks.cfg", dir);
	for (int scene = 0; scene < 4; scene++) {
		/* 0: L3 found, healthy on the second look; 1: L3 found twice; 2: the sustained
		 * DRAM run found, its short runs not; 3: nothing found, no second look */
		struct look lk = { .l3 = scene >= 2 ? 24 : 8, .again_l3 = scene == 0 ? 24.5 : 0,
				   .dram_su = scene == 2 ? 4 : 12 };
		FILE *fp = open_memstream(&out, &len);
		const struct rt_cluster_probe_opts o = {
			.host = "nodeb", .path = "nodeb.cfg", .cluster_path = file, .threshold = 0.45,
			.reference = refp, .reference_path = "healthy.cfg", .probe_node = look_probe,
			.again_node = look_again, .ctx = &lk, .out = fp,
		};
		config_t cfg;
		const char *s = NULL;
		double d = 0;
		int found = -1, rc;

		rc = rt_cluster_probe(&cl, &o);
		fclose(fp);
		config_init(&cfg);
		ok(config_read_file(&cfg, file), "second look %d: libconfig reads the profile", scene);
		switch (scene) {
		case 0:
			is_int(lk.agains, 1, "L3 at 32%% of the reference: the node looks again once");
			ok(lk.nasked == 1 && !strcmp(lk.asked[0].ceiling, "bw L3") &&
			   !lk.asked[0].sustained, "... at its L3's short runs only");
			ok(strstr(lk.asked[0].why, "best run at 32% of the reference (25.0)") != NULL,
			   "... told why: %s", lk.asked[0].why);
			ok(config_lookup_string(&cfg, "cluster.measured_again.[0].ceiling", &s) &&
			   !strcmp(s, "bw L3") &&
			   config_lookup_float(&cfg, "cluster.measured_again.[0].first", &d) && d == 8 &&
			   config_lookup_float(&cfg, "cluster.measured_again.[0].kept", &d) &&
			   d == 24.5 && config_lookup_bool(&cfg, "cluster.measured_again.[0].found",
							   &found) && !found,
			   "... recorded: first 8, kept 24.5, not found");
			ok(config_setting_length(config_lookup(&cfg, "cluster.findings")) == 0,
			   "... healthy on its second look: no finding");
			ok(strstr(out, "bw L3                      best             8.0 then 24.5 "
				  "GB/s: not below") != NULL, "... the summary says both looks");
			is_int(rc, 0, "... the probe succeeds");
			break;
		case 1:
			is_int(lk.agains, 1, "L3 low on both looks: looked at once again");
			ok(config_lookup_string(&cfg, "cluster.findings.[0].ceiling", &s) &&
			   !strcmp(s, "bw L3") &&
			   config_lookup_float(&cfg, "cluster.findings.[0].value", &d) && d == 8,
			   "... found: its L3 at 8 GB/s");
			ok(config_lookup_bool(&cfg, "cluster.measured_again.[0].found", &found) &&
			   found, "... the second look recorded as found again");
			ok(strstr(out, "8.0 then 8.0 GB/s: below again") != NULL,
			   "... the summary says both looks");
			break;
		case 2:
			ok(lk.nasked == 1 && !strcmp(lk.asked[0].ceiling, "bw DRAM") &&
			   lk.asked[0].sustained, "a sustained DRAM run at 33%%: its sustained run "
			   "looked at again, not its short runs");
			ok(config_lookup_string(&cfg, "cluster.measured_again.[0].statistic", &s) &&
			   !strcmp(s, "sustained"), "... recorded as the sustained run's");
			break;
		default:
			is_int(lk.agains, 0, "nothing found: no second look");
			ok(config_setting_length(config_lookup(&cfg, "cluster.measured_again")) == 0,
			   "... and none recorded");
		}
		config_destroy(&cfg);
		free(out);
		out = NULL;
		is_int(lk.probes, 1, "second look %d: the node probed once", scene);
	}
	unlink(file);
	rt_profile_destroy(refp);
}

/* The cluster of 4 (under 5 nodes the best node is the reference): n4's fp32 at 20
 * against the others' 30 is found; its second look keeps a better run of 40. Judged again
 * against the nodes as they now are, the best node would be n4 and the healthy nodes, looked
 * at once and never found, would be findings at 75% of 40.0. The second look may clear a
 * finding, never make one: the references stay the first look's. */
static void second_look_clears_only(const char *dir)
{
	struct rt_cluster_node nodes[4], first[4];
	struct rt_cluster_finding f[16];
	struct rt_cluster_stat st[8];
	struct rt_cluster_reference by_first = { .first = first };
	struct rt_network net = { .scope = "inter-node" };
	struct rt_err err = { 0 };
	char file[4200], *out = NULL;
	size_t nf, len = 0;
	FILE *fp;

	node(&nodes[0], "n1", 30, 100);
	node(&nodes[1], "n2", 30, 100);
	node(&nodes[2], "n3", 30, 100);
	node(&nodes[3], "n4", 20, 100);
	nf = rt_cluster_judge(nodes, 4, NULL, 0.10, f, 16);
	ok(nf == 2 && f[0].node == 3 && f[1].node == 3, "the first look finds n4 alone (best "
	   "and median): %zu findings", nf);
	memcpy(first, nodes, sizeof(first));
	/* n4's second look: its better run kept, its first values beside it */
	nodes[3].c[0].value = 40;
	nodes[3].c[0].median = 39.6;
	nodes[3].c[0].first[RT_CLUSTER_BEST] = 20;
	nodes[3].c[0].first[RT_CLUSTER_MEDIAN] = 19.8;
	nf = rt_cluster_judge(nodes, 4, NULL, 0.10, f, 16);
	ok(nf == 6 && f[0].node == 0 && f[5].node == 2 && f[0].reference == 40,
	   "judged against the nodes as they now are, the healthy three would be found at 75%% "
	   "of 40 (%zu findings): what the first look's references prevent", nf);
	nf = rt_cluster_judge(nodes, 4, &by_first, 0.10, f, 16);
	is_int((long long)nf, 0, "against the first look's references: n4 cleared, no healthy "
	       "node made a finding");
	is_int((long long)rt_cluster_stats(nodes, 4, &by_first, 0.10, st, 8), 2, "two ceilings");
	ok(st[0].reference == 30 && st[0].nbelow == 0 && st[0].max == 40,
	   "fp32's reference stays 30, nobody below it, its max 40 (%g, %zu, %g)",
	   st[0].reference, st[0].nbelow, st[0].max);
	/* still low on the second look: found still, against the same reference */
	nodes[3].c[0].value = 22;
	nodes[3].c[0].median = 21.8;
	nf = rt_cluster_judge(nodes, 4, &by_first, 0.10, f, 16);
	ok(nf == 2 && f[0].node == 3 && f[0].value == 22 && f[0].reference == 30,
	   "n4 at 22 on its second look: found again at 73%% of 30 (%zu findings)", nf);
	/* the profile and its summary: the second look clears n4, finds nobody else */
	nodes[3].c[0].value = 40;
	nodes[3].c[0].median = 39.6;
	snprintf(file, sizeof(file), "%s/cleared.cfg", dir);
	fp = open_memstream(&out, &len);
	is_int(rt_cluster_profile_write(file, nodes, 4, 4, &by_first, 0.10, &net, fp, &err), 0,
	       "the profile written: %s", err.msg);
	fclose(fp);
	{
		config_t cfg;
		double d = 0;
		int found = -1;

		config_init(&cfg);
		ok(config_read_file(&cfg, file) &&
		   config_setting_length(config_lookup(&cfg, "cluster.findings")) == 0 &&
		   config_lookup_float(&cfg, "cluster.measured_again.[0].kept", &d) && d == 40 &&
		   config_lookup_bool(&cfg, "cluster.measured_again.[0].found", &found) && !found,
		   "... no finding; n4 measured again, kept 40, not found");
		config_destroy(&cfg);
	}
	ok(out && strstr(out, "no node is more than 10% below the reference") &&
	   !strstr(out, "75%"), "... the summary finds no node below");
	free(out);
	unlink(file);
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
	is_double(back.c[0].median, 198, 0, "the median");
	ok(isnan(back.c[0].sustained), "no sustained run stays none");
	is_double(back.c[1].sustained, 30.5 * 0.97, 0, "a sustained run");
	free(text);
	ok(rt_cluster_node_decode("host\tx\nceiling\tbw DRAM\t30\n", &back, &err) == 0 &&
	   back.c[0].value == 30 && isnan(back.c[0].sustained) && !back.c[0].flag[0],
	   "a record of rooftraj 0.2 (name and value) still reads");
	ok(rt_cluster_node_decode("host\tx\nceiling\tbw DRAM\t30\t29\n", &back, &err) == -EINVAL &&
	   strstr(err.msg, "line 2: 3 fields"), "a ceiling of 3 fields is refused: %s", err.msg);
	ok(rt_cluster_node_decode("host\tx\nceiling\tflops\tnan\n", &back, &err) == -EINVAL &&
	   strstr(err.msg, "line 2"), "a bad value is refused with its line: %s", err.msg);
	ok(rt_cluster_node_decode("host\tx\nceiling\tbw DRAM\t2e-5\t1e-5\t0.1\t-\tbusy: "
				  "another process\n", &back, &err) == 0 && back.c[0].value == 2e-5,
	   "a flagged ceiling's disturbed reading below 1 MB/s reads: %s", err.msg);
	ok(rt_cluster_node_decode("host\tx\nceiling\tbw DRAM\t2e-5\t1e-5\t0.1\t-\t\n", &back,
				  &err) == -EINVAL && strstr(err.msg, "line 2"),
	   "... an unflagged one does not: %s", err.msg);
	ok(rt_cluster_node_decode("status\tok\n", &back, &err) == -EINVAL,
	   "a record without a host is refused");

	/* inputs the fuzzer (tests/fuzz/fuzz-cluster.c) found: each was once a crash or a record
	 * that did not survive its own encoding; each is refused now, with its line */
	{
		static const char *const regressions[] = { "cluster-tab-in-host.txt",
							   "cluster-ceiling-twice.txt",
							   "cluster-long-name.txt",
							   "cluster-tab-in-flag.txt" };
		const char *top = getenv("top_srcdir");

		for (size_t i = 0; i < sizeof(regressions) / sizeof(regressions[0]); i++) {
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

	ns = rt_cluster_stats(nodes, 4, NULL, 0.10, st, 8);
	is_int(ns, 2, "two ceilings over the nodes");
	is_double(st[0].min, 200, 0, "fp32 min");
	is_double(st[0].median, 252.5, 1e-12, "fp32 median of 200, 250, 255, 260");
	is_double(st[0].max, 260, 0, "fp32 max");
	is_double(st[0].reference, 260, 0, "4 nodes: the reference is the best node's");
	ok(st[0].nbelow == 1 && st[0].below[0] == 2, "n3 is more than 10%% below the best node");
	is_int(st[1].nbelow, 0, "no node far below the best DRAM node");
	ns = rt_cluster_stats(nodes, 4, NULL, 0.25, st, 8);
	is_int(st[0].nbelow, 0, "at 25%% nobody is named (200 is 77%% of 260)");
	{
		struct rt_cluster_finding f[16];
		struct rt_cluster_node five[5], ref;
		const struct rt_cluster_reference by_ref = { .node = &ref, .what = "acceptance.cfg" };
		size_t nf = rt_cluster_judge(nodes, 4, NULL, 0.10, f, 16);

		/* n3: its best run and its median, 200 and 198 against 260 and 257.4 */
		ok(nf == 2 && f[0].node == 2 && f[0].statistic == RT_CLUSTER_BEST &&
		   f[0].value == 200 && f[0].reference == 260 && f[1].statistic == RT_CLUSTER_MEDIAN &&
		   fabs(f[1].reference - 257.4) < 1e-9, "n3 is found on its best run and its median");
		/* a median pulled down by runs that met the host's noise (54%% of the reference's,
		 * as a VM's DRAM gave it), its best run as fast as the others: not the node's */
		nodes[0].c[1].median = nodes[0].c[1].value * 0.54;
		nf = rt_cluster_judge(nodes, 4, NULL, 0.10, f, 16);
		ok(nf == 2 && f[0].node == 2 && f[1].node == 2,
		   "a median far below with a best run at the reference: no finding (%zu)", nf);
		nodes[0].c[1].value *= 0.54;
		nf = rt_cluster_judge(nodes, 4, NULL, 0.10, f, 16);
		ok(nf == 4 && f[0].node == 0 && f[0].statistic == RT_CLUSTER_BEST &&
		   f[1].node == 0 && f[1].statistic == RT_CLUSTER_MEDIAN,
		   "... its best run that far below too: found on both (%zu)", nf);
		nodes[0].c[1].value /= 0.54;
		nodes[0].c[1].median = nodes[0].c[1].value * 0.98;
		/* a node slow only part of the time: its best runs fine, its sustained run not */
		nodes[1].c[1].sustained = 12.0;
		nf = rt_cluster_judge(nodes, 4, NULL, 0.10, f, 16);
		ok(nf == 3 && f[0].node == 1 && f[0].statistic == RT_CLUSTER_SUSTAINED &&
		   f[0].value == 12.0 && fabs(f[0].reference - 30.5 * 0.97) < 1e-9,
		   "n2's sustained DRAM run (12 of 29.6 GB/s) is found");
		/* a disturbed ceiling is reported, never ranked nor a reference */
		snprintf(nodes[1].c[0].flag, sizeof(nodes[1].c[0].flag), "busy: measured twice");
		nodes[1].c[0].value = 100;
		nf = rt_cluster_judge(nodes, 4, NULL, 0.10, f, 16);
		ok(nf == 3 && f[1].node == 2 && f[1].reference == 255,
		   "a flagged ceiling is not judged, and the reference is the best trusted node");
		nodes[1].c[0].flag[0] = '\0';
		nodes[1].c[0].value = 260;
		nodes[1].c[1].sustained = 31 * 0.97;
		/* against a reference node: everyone below its 300 fp32 by more than 10% */
		node(&ref, "acceptance", 300, 31);
		nf = rt_cluster_judge(nodes, 4, &by_ref, 0.10, f, 16);
		ok(nf == 8, "against a 300 GFLOP/s reference every node's fp32 best and median "
		   "are found (%zu findings)", nf);
		ns = rt_cluster_stats(nodes, 4, &by_ref, 0.10, st, 8);
		ok(st[0].reference == 300 && st[0].nbelow == 4, "the stats hold the reference's 300");
		/* 5 nodes: the median of the nodes; a single fast node sets no standard */
		for (int i = 0; i < 5; i++)
			node(&five[i], "n", i == 4 ? 400 : 250 + i, 30);
		ns = rt_cluster_stats(five, 5, NULL, 0.10, st, 8);
		ok(st[0].reference == 252 && st[0].nbelow == 0,
		   "5 nodes: the reference is their median (252), nobody below it by 10%%");
	}

	memset(&net, 0, sizeof(net));
	snprintf(net.scope, sizeof(net.scope), "inter-node");
	net.peer = 1;
	net.pingpong[0] = (struct rt_net_point){ 8, 1e-6, 0.008, 2000 };
	net.npingpong = 1;
	net.allreduce[0] = (struct rt_net_point){ 4096, 2e-6, 2.048, 100 };
	net.nallreduce = 1;
	if (!mkdtemp(path))
		return 1;
	snprintf(file, sizeof(file), "%s/cluster.cfg", path);
	snprintf(net.transport, sizeof(net.transport), "btl self,tcp");
	is_int(rt_cluster_profile_write(file, nodes, 4, 8, NULL, 0.10, &net, NULL, &err), 0,
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
		ok(config_lookup_string(&cfg, "cluster.network.transport", &s) &&
		   !strcmp(s, "btl self,tcp"), "the transport");
		ok(config_lookup_string(&cfg, "cluster.reference", &s) &&
		   !strcmp(s, "the best node"), "the reference named");
		ok(config_lookup_string(&cfg, "cluster.findings.[0].host", &s) && !strcmp(s, "n3") &&
		   config_lookup_float(&cfg, "cluster.findings.[0].ratio", &d) &&
		   fabs(d - 200.0 / 260) < 1e-6, "the finding with its ratio");
		ok(config_lookup_float(&cfg, "cluster.network.allreduce.[0].gbytes_per_s", &d) &&
		   fabs(d - 2.048) < 1e-9, "allreduce bandwidth");
		ok(config_lookup_int(&cfg, "cluster.network.pingpong.[0].repetitions", &i) &&
		   i == 2000 && config_lookup_int(&cfg, "cluster.network.allreduce.[0].repetitions",
						  &i) && i == 100,
		   "each point with the repetitions its time is the mean of");
		config_destroy(&cfg);
	}
	ok(access(file, F_OK) == 0 && 1 &&
	   rt_cluster_profile_write("/dev/null/x.cfg", nodes, 4, 8, NULL, 0.1, &net, NULL,
				    &err) != 0 && strstr(err.msg, "/dev/null"),
	   "an unwritable path is an error naming it: %s", err.msg);
	unlink(file);
	second_looks(path);
	second_look_clears_only(path);
	rmdir(path);
	launches();
	return done_testing();
}
