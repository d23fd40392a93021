/* t-profile.c: machine profiles round-trip to the bit, and every malformed profile is rejected
 * with its file, line and what is wrong */
#include "config.h"
#include "node/profile.h"
#include "tap.h"

#include <errno.h>
#include <stdint.h>
#include <unistd.h>

static char dir[256];

static const char *write_tmp(const char *name, const char *text)
{
	static char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	fputs(text, fp);
	fclose(fp);
	return path;
}

/* A valid profile's text with one line swapped in at the marker. */
static const char *good_head =
	"profile = {\n"                                                         /* 1 */
	"  format = 1;\n"                                                       /* 2 */
	"  host = \"n1\";\n"                                                    /* 3 */
	"  cpu = { model = \"x\"; isa = [ \"avx2\" ]; sockets = 1; cores = 2; pus = 2; };\n"
	"  flops = (\n"                                                         /* 5 */
	"    { precision = \"fp64\"; isa = \"avx2\"; threads = 1; gflops = 30.5; }\n"
	"  );\n"                                                                /* 7 */
	"  bandwidth = (\n"                                                     /* 8 */
	"    { level = \"L1\"; kernel = \"load\"; threads = 1; gbytes_per_s = 200.0;"
	" working_set = 24576; },\n";                                           /* 9 */
static const char *good_tail = "  );\n};\n";

struct bad_case {
	const char *line10;     /* the bandwidth entry on line 10 (or other text there) */
	int line;               /* the line the error must name */
	const char *what;       /* and what it must say */
};

static void check_bad(const struct bad_case *c, int idx)
{
	char text[4096], name[64], want[600];
	struct rt_profile *p = NULL;
	struct rt_err err;
	const char *path;
	int rc;

	snprintf(text, sizeof(text), "%s%s\n%s", good_head, c->line10, good_tail);
	snprintf(name, sizeof(name), "bad%d.cfg", idx);
	path = write_tmp(name, text);
	rc = rt_profile_load(&p, path, &err);
	ok(rc == -EINVAL && p == NULL, "bad case %d rejected (%s)", idx, c->what);
	snprintf(want, sizeof(want), "%s:%d: ", path, c->line);
	ok(strncmp(err.msg, want, strlen(want)) == 0, "bad case %d names %s:%d (%s)", idx, name,
	   c->line, err.msg);
	like(err.msg, c->what, "bad case %d says what is wrong", idx);
	rt_profile_destroy(p);
}

int main(void)
{
	struct rt_profile *p = NULL, *q = NULL;
	struct rt_err err;
	char path[512];
	int rc;

	snprintf(dir, sizeof(dir), "/tmp/rt-t-profile-XXXXXX");
	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp failed\n");
		return 1;
	}

	/* round trip: values chosen to need all 17 digits */
	rt_profile_create(&p, &err);
	snprintf(p->host, sizeof(p->host), "node \"01\" \\ test");
	snprintf(p->created, sizeof(p->created), "2026-11-21T23:00:00Z");
	snprintf(p->tool, sizeof(p->tool), "rooftraj 0.1.0");
	snprintf(p->cpu.model, sizeof(p->cpu.model), "Test CPU @ 2.00GHz");
	snprintf(p->cpu.isa[0], sizeof(p->cpu.isa[0]), "avx512f");
	p->cpu.nisa = 1;
	p->cpu.sockets = 1;
	p->cpu.cores = 2;
	p->cpu.pus = 4;
	p->cpu.numa_nodes = 1;
	p->cpu.clock_ghz = 0.1 + 0.2;
	p->cpu.memory = 25769803776ULL;
	{
		struct rt_profile_cache c = { 3, 110100480, 64, 2, 1, "" };
		struct rt_profile_level l = { "L3", 110100480, 67108864, false, 0, "" };
		struct rt_profile_flops f = { "fp64", "avx512", 2, 1.0 / 3.0, 2.0 / 7.0, 1e-300,
					      "fma-chains", "", 0, "", { 0 }, 0 };
		struct rt_profile_flops g = { "bf16", "avx512_core_amx_bf16", 1, 1360.0, 1359.5,
					      0.25, "onednn-matmul",
					      "brg:avx512_core_amx_bf16", 0, "", { 0 }, 0 };
		struct rt_profile_bw b = { "DRAM", "triad_nt", "avx512", 2, 29.599999999999998,
					   12.3456789123456789, 0.0, 6442450944ULL, "", { 0 }, 0 };
		struct rt_profile_point pt1 = { 4096, 300.00000000000006 }, pt2 = { 1ULL << 33, 7.5 };

		rt_profile_add_cache(p, &c);
		rt_profile_add_level(p, &l);
		struct rt_profile_flops h = f;

		f.theoretical = 3.0 / 7.0;
		/* a third fp64 ceiling, higher but flagged: never a bound */
		h.gflops = 99;
		h.threads = 4;
		snprintf(h.flag, sizeof(h.flag), "busy: measured twice, \"74%%\" of its time");
		/* rounds spread over the probe's run, to the bit */
		f.rounds[0] = 1.0 / 3.0;
		f.rounds[1] = 0.1 + 0.2;
		f.rounds[2] = 2.0 / 7.0;
		f.nrounds = 3;
		rt_profile_add_flops(p, &f);
		rt_profile_add_flops(p, &g);
		rt_profile_add_flops(p, &h);
		rt_profile_add_bw(p, &b);
		rt_profile_add_point(p, &pt1);
		rt_profile_add_point(p, &pt2);
		snprintf(p->curve_kernel, sizeof(p->curve_kernel), "load");
		snprintf(p->curve_isa, sizeof(p->curve_isa), "avx512");
		p->curve_threads = 1;
		rt_profile_add_note(p, "hwloc says \"105 MB\"; measured 64 MB");
		/* the counters the probe validated: a table, its events, the checks' ratios */
		p->has_counters = true;
		p->counters = (struct rt_pmu_record){ .state = RT_PMU_VALIDATED, .groups = 2,
						      .counters = 8, .nchecks = 3 };
		snprintf(p->counters.table, sizeof(p->counters.table), "Intel Sapphire Rapids");
		snprintf(p->counters.events, sizeof(p->counters.events),
			 "fp_arith_inst_retired.scalar_double+amx_ops_retired.bf16");
		snprintf(p->counters.check[0].kernel, 64, "fp64 avx512 fma");
		snprintf(p->counters.check[1].kernel, 64, "fp32 avx512 fma");
		p->counters.check[0].ratio = 1.0 + 1.0 / 3e3;
		p->counters.check[1].ratio = 0.99;
		p->counters.check[0].trusted = p->counters.check[1].trusted = true;
		/* an int8 kernel no FLOP event counts: that work not trusted, said */
		snprintf(p->counters.check[2].kernel, 64, "int8 avx512_vnni vpdpbusd");
		p->counters.check[2].ratio = 0;
		snprintf(p->counters.why, sizeof(p->counters.why), "not trusted for int8 work: ... read "
			 "0.00x of a known kernel (int8 avx512_vnni vpdpbusd): not used");
		snprintf(p->counters.dram, sizeof(p->counters.dram), "8 DRAM events (uncore_imc_0/"
			 "cas_count_read/, ...) read 1.004x of a known kernel (DRAM triad_nt avx512): "
			 "trusted");
	}
	snprintf(p->onednn, sizeof(p->onednn), "3.2.0");
	snprintf(p->onednn_runtime, sizeof(p->onednn_runtime), "OpenMP");
	snprintf(path, sizeof(path), "%s/sub/dir/rt.cfg", dir);
	is_int(rt_profile_save(p, path, &err), 0, "save (creates directories)");
	ok(access(path, F_OK) == 0, "file in place");
	{
		char tmp[600];

		snprintf(tmp, sizeof(tmp), "%s.tmp", path);
		ok(access(tmp, F_OK) != 0, "no temporary file left");
	}
	rc = rt_profile_load(&q, path, &err);
	if (!is_int(rc, 0, "load what was saved"))
		printf("# %s\n", err.msg);
	if (q) {
		is_str(q->host, p->host, "host with quotes and backslash");
		is_str(q->cpu.model, p->cpu.model, "cpu model");
		ok(!strcmp(q->onednn, "3.2.0") && !strcmp(q->onednn_runtime, "OpenMP"),
		   "the oneDNN of the matmul ceilings, version and CPU runtime");
		is_int(q->cpu.pus, 4, "pus");
		is_int((long long)q->cpu.memory, (long long)p->cpu.memory, "64-bit memory size");
		ok(memcmp(&q->cpu.clock_ghz, &p->cpu.clock_ghz, sizeof(double)) == 0,
		   "clock 0.1+0.2 to the bit");
		is_int((long long)q->nflops, 3, "three FLOP ceilings");
		ok(q->nflops == 3 && !strcmp(q->flops[2].flag, p->flops[2].flag) &&
		   !q->flops[0].flag[0], "a flag (with quotes) round-trips; unflagged stay so");
		ok(q->nflops == 3 && !memcmp(&q->flops[0].theoretical, &p->flops[0].theoretical, 8),
		   "theoretical 3/7 to the bit");
		ok(rt_profile_nearest_threads(q, 8) == 2, "a thread count whose ceilings are all "
		   "flagged is not the nearest measured");
		ok(q->nflops == 3 && !memcmp(&q->flops[0].gflops, &p->flops[0].gflops, 8) &&
		   !memcmp(&q->flops[0].median, &p->flops[0].median, 8) &&
		   !memcmp(&q->flops[0].spread, &p->flops[0].spread, 8),
		   "1/3, 2/7, 1e-300 to the bit");
		is_str(q->nflops == 3 ? q->flops[1].impl : "", "brg:avx512_core_amx_bf16", "impl");
		ok(q->nflops == 3 && q->flops[0].nrounds == 3 &&
		   !memcmp(q->flops[0].rounds, p->flops[0].rounds, 3 * sizeof(double)) &&
		   q->flops[1].nrounds == 0 && q->bw[0].nrounds == 0,
		   "rounds 1/3, 0.1+0.2, 2/7 to the bit; none where none were measured");
		ok(q->nbw == 1 && !memcmp(&q->bw[0].gbytes_per_s, &p->bw[0].gbytes_per_s, 8) &&
		   !memcmp(&q->bw[0].median, &p->bw[0].median, 8) &&
		   q->bw[0].working_set == 6442450944ULL, "bandwidth entry to the bit");
		ok(q->nlevels == 1 && q->levels[0].measured_size == 67108864 &&
		   !q->levels[0].agrees, "levels");
		ok(q->ncurve == 2 && q->curve[1].working_set == (1ULL << 33) &&
		   !memcmp(&q->curve[0].gbytes_per_s, &p->curve[0].gbytes_per_s, 8), "curve");
		ok(q->ncaches == 1 && q->caches[0].size == 110100480 && q->caches[0].shared_by == 2,
		   "caches");
		ok(q->nnotes == 1 && !strcmp(q->notes[0], p->notes[0]), "notes");
		ok(q->has_counters && q->counters.state == RT_PMU_VALIDATED &&
		   !strcmp(q->counters.table, p->counters.table) &&
		   !strcmp(q->counters.events, p->counters.events) && q->counters.groups == 2 &&
		   q->counters.counters == 8 && q->counters.nchecks == 3 &&
		   !strcmp(q->counters.check[1].kernel, "fp32 avx512 fma") &&
		   !memcmp(&q->counters.check[0].ratio, &p->counters.check[0].ratio, 8) &&
		   q->counters.check[1].trusted && !q->counters.check[2].trusted &&
		   q->counters.check[2].ratio == 0 && !strcmp(q->counters.why, p->counters.why) &&
		   !strcmp(q->counters.dram, p->counters.dram),
		   "the counters' record: state, table, events, groups, checks to the bit, DRAM");
		ok(rt_profile_best_flops(q, "fp64", 0) == &q->flops[0], "best fp64: not the flagged 99");
		ok(rt_profile_best_flops(q, "fp32", 0) == NULL, "no fp32");
		ok(rt_profile_best_bw(q, "DRAM", 2) != NULL && !rt_profile_best_bw(q, "DRAM", 1),
		   "best DRAM at 2 threads only");
		is_int(rt_profile_max_threads(q), 4, "max threads");
	}
	rt_profile_destroy(q);
	rt_profile_destroy(p);

	/* a hand-written valid profile with integers where numbers are expected */
	{
		char text[2048];

		snprintf(text, sizeof(text), "%s%s\n%s", good_head,
			 "    { level = \"DRAM\"; kernel = \"triad\"; threads = 2; gbytes_per_s = 20;"
			 " working_set = 536870912; }", good_tail);
		q = NULL;
		rc = rt_profile_load(&q, write_tmp("good.cfg", text), &err);
		if (!is_int(rc, 0, "minimal valid profile loads"))
			printf("# %s\n", err.msg);
		ok(q && q->nbw == 2 && q->bw[1].gbytes_per_s == 20.0, "integer bandwidth accepted");
		rt_profile_destroy(q);
	}

	/* every malformed case, with the line it must name */
	{
		static const struct bad_case cases[] = {
			{ "    { level = \"L2\"; kernel = \"load\"; threads = 1; gbytes_per_s = ; "
			  "working_set = 1; }", 10, "syntax error" },
			{ "    { level = \"L2\"; kernel = \"load\"; threads = 1; working_set = 1; }",
			  10, "bandwidth[1]: missing 'gbytes_per_s'" },
			{ "    { level = \"L2\"; kernel = \"load\"; threads = 1; gbytes_per_s = \"fast\";"
			  " working_set = 1; }", 10, "'gbytes_per_s' must be a number" },
			{ "    { level = \"L2\"; kernel = \"load\"; threads = 1; gbytes_per_s = -5.0;"
			  " working_set = 1; }", 10, "'gbytes_per_s' must be a positive number" },
			{ "    { level = \"L2\"; kernel = \"load\"; threads = 1; gbytes_per_s = 0.0;"
			  " working_set = 1; }", 10, "'gbytes_per_s' must be a positive number" },
			{ "    { level = \"L7\"; kernel = \"load\"; threads = 1; gbytes_per_s = 9.0;"
			  " working_set = 1; }", 10, "unknown level 'L7'" },
			{ "    { level = \"L2\"; kernel = \"stream\"; threads = 1; gbytes_per_s = 9.0;"
			  " working_set = 1; }", 10, "unknown kernel 'stream'" },
			{ "    { level = \"L2\"; kernel = \"load\"; threads = 0; gbytes_per_s = 9.0;"
			  " working_set = 1; }", 10, "'threads' = 0 is not in 1.." },
			{ "    { level = \"L2\"; kernel = \"load\"; threads = 1.5; gbytes_per_s = 9.0;"
			  " working_set = 1; }", 10, "'threads' must be an integer" },
			{ "    { level = 2; kernel = \"load\"; threads = 1; gbytes_per_s = 9.0;"
			  " working_set = 1; }", 10, "'level' must be a string" },
			/* libconfig places a scalar list element on the line after it: name the list */
			{ "    \"L2\"", 8, "bandwidth[1] must be a group" },
			/* impossible rates: a corrupt file, never a 300-digit percentage */
			{ "    { level = \"L2\"; kernel = \"load\"; threads = 1; gbytes_per_s = 1e308;"
			  " working_set = 1; }", 10, "'gbytes_per_s' 1e+308 GB/s is not a rate a node can "
			  "have" },
			{ "    { level = \"L2\"; kernel = \"load\"; threads = 1; gbytes_per_s = 1e-300;"
			  " working_set = 1; }", 10, "'gbytes_per_s' 1e-300 GB/s is not a rate a node can "
			  "have" },
			{ "    { level = \"L2\"; kernel = \"load\"; threads = 1; gbytes_per_s = 9.0; "
			  "median = 12.0; working_set = 1; }", 10, "'median' 12 is above the best run 9" },
			{ "    { level = \"L2\"; kernel = \"load\"; threads = 1; gbytes_per_s = 9.0; "
			  "working_set = 1; rounds = [ 9.0, -1.0 ]; }", 10,
			  "'rounds' element 2 is not a rate from" },
			{ "    { level = \"L2\"; kernel = \"load\"; threads = 1; gbytes_per_s = 9.0; "
			  "working_set = 1; rounds = 9.0; }", 10, "'rounds' must be an array of 1 to 8" },
			{ "    { level = \"L2\"; kernel = \"load\"; threads = 1; gbytes_per_s = 9.0; "
			  "working_set = 1; rounds = [ 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0 ]; }",
			  10, "'rounds' must be an array of 1 to 8" },
		};

		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
			check_bad(&cases[i], (int)i);
	}
	/* whole-file cases */
	{
		struct { const char *text; int line; const char *what; } cases[] = {
			{ "machine = { };\n", 1, "no 'profile' group" },
			{ "profile = {\n  format = 2;\n};\n", 2, "format 2 is not supported" },
			{ "profile = {\n  format = 1;\n  host = \"h\";\n};\n", 1, "missing 'cpu'" },
			{ "profile = {\n  format = 1;\n  host = \"h\";\n  cpu = { model = \"m\"; "
			  "cores = 1; pus = 1; sockets = 1; };\n  bandwidth = ( );\n};\n", 1,
			  "missing 'flops'" },
			{ "profile = {\n  format = 1;\n  host = \"h\";\n  cpu = { model = \"m\"; "
			  "cores = 1; pus = 1; sockets = 1; };\n  flops = (\n    { precision = "
			  "\"fp128\"; isa = \"x\"; threads = 1; gflops = 1.0; }\n  );\n"
			  "  bandwidth = ( );\n};\n", 6, "unknown precision 'fp128'" },
			{ "profile = {\n  format = 1;\n  host = \"h\";\n  cpu = { model = \"m\"; "
			  "cores = 1; pus = 1; sockets = 1; };\n  flops = (\n    { precision = "
			  "\"fp32\"; isa = \"x\"; threads = 1; }\n  );\n"
			  "  bandwidth = ( );\n};\n", 6, "flops[0]: missing 'gflops'" },
			{ "profile = {\n  format = 1;\n  host = 7;\n};\n", 3, "'host' must be a string" },
			/* the counters' record: a state it knows, trust only within 2%, checks that
			 * agree with the state */
			{ "profile = {\n  format = 1;\n  host = \"h\";\n  cpu = { model = \"m\"; "
			  "cores = 1; pus = 1; sockets = 1; };\n  flops = ( );\n  bandwidth = ( );\n"
			  "  counters = {\n    state = \"probably\"; };\n};\n", 8,
			  "state 'probably' is not validated, refused, not used or no table" },
			{ "profile = {\n  format = 1;\n  host = \"h\";\n  cpu = { model = \"m\"; "
			  "cores = 1; pus = 1; sockets = 1; };\n  flops = ( );\n  bandwidth = ( );\n"
			  "  counters = {\n    state = \"validated\"; table = \"AMD Zen 5\"; events = "
			  "\"e\"; groups = 1; counters = 6;\n    checks = (\n      { kernel = \"fp64 "
			  "avx512 fma\"; ratio = 0.5; trusted = true; } ); };\n};\n", 10,
			  "trusted at 0.5x: trust needs a ratio within 2% of 1" },
			{ "profile = {\n  format = 1;\n  host = \"h\";\n  cpu = { model = \"m\"; "
			  "cores = 1; pus = 1; sockets = 1; };\n  flops = ( );\n  bandwidth = ( );\n"
			  "  counters = {\n    state = \"validated\"; table = \"AMD Zen 5\"; events = "
			  "\"e\"; groups = 1; counters = 6;\n    checks = (\n      { kernel = \"k\"; "
			  "ratio = 1.0; trusted = true; } ); };\n};\n", 10,
			  "kernel 'k' does not start with its precision" },
			{ "profile = {\n  format = 1;\n  host = \"h\";\n  cpu = { model = \"m\"; "
			  "cores = 1; pus = 1; sockets = 1; };\n  flops = ( );\n  bandwidth = ( );\n"
			  "  counters = {\n    state = \"validated\"; table = \"AMD Zen 5\"; events = "
			  "\"e\"; groups = 1; counters = 6;\n    checks = (\n      { kernel = \"fp64 "
			  "avx512 fma\"; ratio = 1.0; trusted = true; },\n      { kernel = \"fp64 sse "
			  "fma\"; ratio = 0.5; trusted = false; } ); };\n};\n", 7,
			  "validated, yet no precision has all of its checks trusted" },
			{ "profile = {\n  format = 1;\n  host = \"h\";\n  cpu = { model = \"m\"; "
			  "cores = 1; pus = 1; sockets = 1; };\n  flops = ( );\n  bandwidth = ( );\n"
			  "  counters = {\n    state = \"refused\"; table = \"AMD Zen 5\"; events = "
			  "\"e\"; groups = 1; counters = 6; why = \"w\";\n    checks = (\n      { kernel = "
			  "\"bf16 avx512_bf16 vdpbf16ps\"; ratio = 1.0; trusted = true; } ); };\n};\n", 7,
			  "refused, yet every check of a precision was trusted" },
			{ "profile = {\n  format = 1;\n  host = \"h\";\n  cpu = { model = \"m\"; "
			  "cores = 1; pus = 1; sockets = 1; };\n  flops = ( );\n  bandwidth = ( );\n"
			  "  counters = {\n    state = \"not used\"; table = \"AMD Zen 5\"; events = "
			  "\"e\"; groups = 0; counters = 6; why = \"no PMU\"; };\n};\n", 8,
			  "'groups' = 0 is not in 1..16" },
			{ "profile = {\n  format = 1;\n  host = \"h\";\n  cpu = { model = \"m\"; "
			  "cores = 1; pus = 1; sockets = 1; };\n  flops = ( );\n  bandwidth = ( );\n"
			  "  counters = {\n    state = \"not used\"; table = \"AMD Zen 5\"; events = "
			  "\"e\";\n    groups = 1; counters = 6; };\n};\n", 7, "missing 'why'" },
			{ "profile = {\n  format = 1;\n  host = \"h\";\n  cpu = { model = \"m\"; "
			  "cores = 1; pus = 1; sockets = 1; };\n  flops = (\n    { precision = "
			  "\"fp32\"; isa = \"x\"; threads = 1;\n      gflops = 1e308; }\n  );\n"
			  "  bandwidth = ( );\n};\n", 7, "'gflops' 1e+308 GFLOP/s is not a rate" },
		};

		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			char name[64], want[600];
			const char *fpath;

			snprintf(name, sizeof(name), "file%zu.cfg", i);
			fpath = write_tmp(name, cases[i].text);
			q = NULL;
			ok(rt_profile_load(&q, fpath, &err) == -EINVAL && !q, "file case %zu rejected",
			   i);
			snprintf(want, sizeof(want), "%s:%d: ", fpath, cases[i].line);
			ok(!strncmp(err.msg, want, strlen(want)) && strstr(err.msg, cases[i].what),
			   "file case %zu: '%s'", i, err.msg);
		}
	}
	/* the example profile shipped in machine-profiles/ (also installed) is valid */
	{
		const char *srcdir = getenv("top_srcdir");

		snprintf(path, sizeof(path), "%s/machine-profiles/example-kvm-spr.cfg",
			 srcdir ? srcdir : ".");
		q = NULL;
		rc = rt_profile_load(&q, path, &err);
		if (!is_int(rc, 0, "shipped example profile loads"))
			printf("# %s\n", err.msg);
		ok(q && q->nflops >= 16 && q->nbw >= 28 && q->ncurve > 50 && q->nlevels == 4,
		   "example profile is complete");
		ok(q && rt_profile_best_flops(q, "bf16", 1), "example has a bf16 roof");
		rt_profile_destroy(q);
		q = NULL;
	}
	/* a ceiling above its own theoretical peak is flagged when read: never a roof */
	{
		const char *text = "profile = {\n  format = 1;\n  host = \"h\";\n  cpu = { model = "
				   "\"m\"; cores = 1; pus = 1; sockets = 1; };\n  flops = (\n"
				   "    { precision = \"fp32\"; isa = \"avx2\"; threads = 1; gflops = "
				   "50.0; theoretical = 40.0; }\n  );\n  bandwidth = ( );\n};\n";

		q = NULL;
		rc = rt_profile_load(&q, write_tmp("above.cfg", text), &err);
		ok(rc == 0 && q && q->nflops == 1 &&
		   strstr(q->flops[0].flag, "above its theoretical peak 40.0 GFLOP/s (line 6)"),
		   "a ceiling above its theoretical peak is flagged: '%s'", q ? q->flops[0].flag : "");
		ok(q && !rt_profile_best_flops(q, "fp32", 1), "... and is no roof");
		rt_profile_destroy(q);
		q = NULL;
	}
	/* a flagged ceiling is a disturbed reading kept as evidence: a busy machine gave the
	 * probe 5e-5 GFLOP/s, and the profile it wrote must load (it once did not) */
	{
		const char *text = "profile = {\n  format = 1;\n  host = \"h\";\n  cpu = { model = "
				   "\"m\"; cores = 1; pus = 1; sockets = 1; };\n  flops = (\n"
				   "    { precision = \"fp32\"; isa = \"avx2\"; threads = 2; gflops = "
				   "4.8e-05; flag = \"busy: another process ran\"; }\n  );\n"
				   "  bandwidth = (\n    { level = \"L1\"; kernel = \"triad\"; threads = 2;"
				   " gbytes_per_s = 1e-6; working_set = 1; flag = \"busy\"; }\n  );\n"
				   "  sustained = (\n    { name = \"flops fp32 avx2\"; kernel = \"x\"; "
				   "threads = 2; value = 2e-4; seconds = 1.0; flag = \"busy\"; }\n  );\n};\n";

		q = NULL;
		rc = rt_profile_load(&q, write_tmp("busy.cfg", text), &err);
		if (!ok(rc == 0 && q && q->nflops == 1 && q->nbw == 1 && q->nsustained == 1,
			"a flagged ceiling below 1 MFLOP/s loads (a disturbed reading)"))
			printf("# %s\n", err.msg);
		ok(q && !rt_profile_best_flops(q, "fp32", 2) && !rt_profile_best_bw(q, "L1", 2),
		   "... and is no roof");
		rt_profile_destroy(q);
		q = NULL;
	}
	/* rounds judged: given rounds, no measurement */
	{
		struct rt_profile *n = NULL;
		/* the 16-core node, three probes: fp32 avx512 at 8 threads 1127, 695, 961
		 * GFLOP/s (a spread of 45% of the median); fp64 steady within 2%; DRAM load at 16
		 * threads 134, 219, 133 GB/s but its own runs already 70% apart (that noise);
		 * L1 flagged */
		struct rt_profile_flops f32 = { "fp32", "avx512", 8, 1127, 1100, 0.03, "fma-chains",
						"", 0, "", { 1127, 695, 961 }, 3 };
		struct rt_profile_flops f64 = { "fp64", "avx512", 8, 563, 560, 0.01, "fma-chains",
						"", 0, "", { 563, 552, 560 }, 3 };
		struct rt_profile_bw dram = { "DRAM", "load", "avx512", 16, 219, 150, 0.7,
					      1ULL << 30, "", { 134, 219, 133 }, 3 };
		struct rt_profile_bw l1 = { "L1", "load", "avx512", 1, 200, 199, 0.01, 16384,
					    "busy: measured twice", { 200, 90 }, 2 };

		is_double(rt_profile_rounds_spread(f32.rounds, 3), (1127.0 - 695) / 961, 1e-12,
			  "the spread of 1127, 695, 961: (max - min) / median");
		is_double(rt_profile_rounds_spread(f32.rounds, 1), 0, 0, "one round: no spread");
		rt_profile_create(&n, &err);
		rt_profile_add_flops(n, &f32);
		rt_profile_add_flops(n, &f64);
		rt_profile_add_bw(n, &dram);
		rt_profile_add_bw(n, &l1);
		is_int(rt_profile_judge_rounds(n, 0.05), 2,
		       "fp32 and DRAM disagree (DRAM's own runs 70%% apart are no excuse: each round "
		       "is a best); fp64 within 5%%; L1 flagged");
		is_int((long long)n->nnotes, 3, "one note for fp32, one for DRAM, one verdict");
		like(n->nnotes > 0 ? n->notes[0] : "", "unstable: fp32 avx512 at 8 threads: its 3 "
		     "rounds (1127, 695, 961 GFLOP/s) disagree by 45%, beyond the noise (5%)",
		     "the ceiling named with its rounds: %s", n->nnotes > 0 ? n->notes[0] : "");
		like(n->nnotes > 1 ? n->notes[1] : "", "unstable: DRAM load at 16 threads: its 3 "
		     "rounds (134, 219, 133 GB/s) disagree by 64%, beyond the noise (5%)",
		     "DRAM named with its rounds: %s", n->nnotes > 1 ? n->notes[1] : "");
		like(n->nnotes > 2 ? n->notes[2] : "", "the node is unstable: 2 of 3 ceilings "
		     "measured in rounds disagree beyond the noise, DRAM load at 16 threads by 64%",
		     "the verdict: %s", n->nnotes > 2 ? n->notes[2] : "");
		ok(rt_profile_note_warns(n, 0) && rt_profile_note_warns(n, 2),
		   "an unstable ceiling and an unstable node are warnings");
		rt_profile_destroy(n);
		/* the rounds of 200 and 130 GFLOP/s, the ceiling's own runs 40% apart:
		 * a 35% move between rounds is not a stable node */
		{
			struct rt_profile_flops wide = { "fp32", "avx512", 2, 200, 170, 0.4,
							 "fma-chains", "", 0, "", { 200, 130 }, 2 };

			rt_profile_create(&n, &err);
			rt_profile_add_flops(n, &wide);
			is_int(rt_profile_judge_rounds(n, 0.05), 1, "rounds of 200 and 130 disagree");
			like(n->nnotes > 1 ? n->notes[1] : "", "the node is unstable: 1 of 1 ceilings",
			     "not called stable: %s", n->nnotes > 1 ? n->notes[1] : "");
			rt_profile_destroy(n);
		}
		/* steady rounds: a stable verdict; no rounds at all: nothing said */
		rt_profile_create(&n, &err);
		rt_profile_add_flops(n, &f64);
		is_int(rt_profile_judge_rounds(n, 0.05), 0, "steady rounds agree");
		like(n->nnotes ? n->notes[0] : "", "the node is stable: 1 ceiling measured in "
		     "rounds, each within the noise", "said: %s", n->nnotes ? n->notes[0] : "");
		ok(n->nnotes == 1 && !rt_profile_note_warns(n, 0), "a stable node is no warning");
		ok(!rt_profile_note_warns(n, 1), "past the last note nothing warns");
		rt_profile_destroy(n);
		rt_profile_create(&n, &err);
		f64.nrounds = 0;
		rt_profile_add_flops(n, &f64);
		ok(rt_profile_judge_rounds(n, 0.05) == 0 && n->nnotes == 0,
		   "no rounds (an old profile, --quick): no verdict");
		rt_profile_destroy(n);
	}

	/* a ceiling is the best of its runs, its rounds' too: the fp32 avx512 at 1
	 * thread, 221.4 then rounds of 228.0 and 228.9 GFLOP/s; fp64 110.5, 114.5, 112.2; a DRAM
	 * load whose round came in lower keeps its own value */
	{
		struct rt_profile_flops f32 = { "fp32", "avx512", 1, 221.4, 220, 0.02, "fma-chains",
						"", 0, "", { 0 }, 0 };
		struct rt_profile_flops f64 = { "fp64", "avx512", 1, 110.5, 110, 0.02, "fma-chains",
						"", 0, "", { 0 }, 0 };
		struct rt_profile_bw dram = { "DRAM", "load", "avx512", 1, 20.0, 19.5, 0.03,
					      1ULL << 28, "", { 0 }, 0 };
		bool all = true;

		all &= rt_profile_flops_add_round(&f32, 228.0) &&
		       rt_profile_flops_add_round(&f32, 228.9);
		all &= rt_profile_flops_add_round(&f64, 114.5) &&
		       rt_profile_flops_add_round(&f64, 112.2);
		all &= rt_profile_bw_add_round(&dram, 19.0);
		ok(all && f32.nrounds == 3 && f32.rounds[0] == 221.4 && f32.rounds[1] == 228.0 &&
		   f32.rounds[2] == 228.9, "fp32's rounds: its own 221.4, then 228.0 and 228.9");
		is_double(f32.gflops, 228.9, 0, "fp32 avx512 at 1 thread: the best of its runs, "
			  "228.9 (got %.1f)", f32.gflops);
		is_double(f64.gflops, 114.5, 0, "fp64 avx512 at 1 thread: 114.5 (got %.1f)",
			  f64.gflops);
		ok(dram.gbytes_per_s == 20.0 && dram.nrounds == 2 && dram.rounds[1] == 19.0,
		   "a lower round is recorded, the ceiling stays 20.0 (got %.1f)", dram.gbytes_per_s);
		for (int i = 0; i < RT_PROFILE_MAX_ROUNDS; i++)
			(void)rt_profile_flops_add_round(&f64, 100);
		ok(f64.nrounds == RT_PROFILE_MAX_ROUNDS &&
		   !rt_profile_flops_add_round(&f64, 500) && f64.gflops == 114.5,
		   "past its %d rounds nothing is added", RT_PROFILE_MAX_ROUNDS);
	}

	/* the node's previous profile against its new one: given profiles, no measurement */
	{
		struct rt_profile *old = NULL, *now = NULL;
		/* the 16-core node: fp32 at 8 threads 1127 then 695 GFLOP/s, DRAM load 134
		 * then 219 GB/s, the clock 2.86 then 2.38 GHz; fp64 within its noise; L1 flagged */
		struct rt_profile_flops f32 = { "fp32", "avx512", 8, 1127, 1120, 0.02, "fma-chains",
						"", 0, "", { 0 }, 0 };
		struct rt_profile_flops f64 = { "fp64", "avx512", 8, 560, 555, 0.02, "fma-chains",
						"", 0, "", { 0 }, 0 };
		struct rt_profile_bw dram = { "DRAM", "load", "avx512", 16, 134, 130, 0.03,
					      1ULL << 30, "", { 0 }, 0 };
		struct rt_profile_bw l1 = { "L1", "load", "avx512", 1, 200, 199, 0.01, 16384, "", { 0 }, 0 };
		int moved;

		rt_profile_create(&old, &err);
		rt_profile_create(&now, &err);
		snprintf(old->host, sizeof(old->host), "node16");
		snprintf(now->host, sizeof(now->host), "node16");
		snprintf(old->created, sizeof(old->created), "2026-11-20T10:00:00Z");
		old->cpu.clock_ghz = 2.86;
		now->cpu.clock_ghz = 2.38;
		rt_profile_add_flops(old, &f32);
		rt_profile_add_flops(old, &f64);
		rt_profile_add_bw(old, &dram);
		rt_profile_add_bw(old, &l1);
		f32.gflops = 695;
		f64.gflops = 570;       /* +1.8%: inside the 5% noise */
		dram.gbytes_per_s = 219;
		l1.gbytes_per_s = 100;  /* halved, but flagged now: not a reading to compare */
		snprintf(l1.flag, sizeof(l1.flag), "busy: measured twice");
		rt_profile_add_flops(now, &f32);
		rt_profile_add_flops(now, &f64);
		rt_profile_add_bw(now, &dram);
		rt_profile_add_bw(now, &l1);
		moved = rt_profile_compare(now, old, 0.05);
		is_int(moved, 3, "fp32, DRAM and the clock moved; fp64 within noise, L1 flagged");
		is_int((long long)now->nnotes, 4, "a summary and one note per move");
		like(now->notes[0], "previous profile of node16 (2026-11-20T10:00:00Z): 3 of 4 (3 "
		     "ceilings and the clock) moved", "the summary: %s", now->notes[0]);
		like(now->notes[0], "; 1 flagged in one of them, not compared",
		     "the flagged L1 counted apart: %s", now->notes[0]);
		like(now->notes[1], "DRAM load at 16 threads moved +63.4% (134 -> 219 GB/s",
		     "the largest move first, with both values: %s", now->notes[1]);
		like(now->notes[2], "fp32 avx512 fma-chains at 8 threads moved -38.3% (1127 -> 695 "
		     "GFLOP/s", "then fp32: %s", now->notes[2]);
		like(now->notes[3], "the clock moved -16.8% (2.86 -> 2.38 GHz", "then the clock: %s",
		     now->notes[3]);
		ok(rt_profile_note_warns(now, 0) && rt_profile_note_warns(now, 3),
		   "moves are warnings, their summary too");
		/* a spread wider than the move: inside that ceiling's own noise */
		rt_profile_destroy(now);
		rt_profile_create(&now, &err);
		snprintf(now->host, sizeof(now->host), "node16");
		f32.gflops = 1000;      /* -11% */
		f32.spread = 0.15;
		rt_profile_add_flops(now, &f32);
		is_int(rt_profile_compare(now, old, 0.05), 0,
		       "-11%% against a 15%% spread of its runs: not a move");
		like(now->notes[0], ": 0 of 1 (1 ceiling) moved", "said: %s", now->notes[0]);
		ok(!rt_profile_note_warns(now, 0), "nothing moved: no warning");
		/* another host's profile */
		rt_profile_destroy(now);
		rt_profile_create(&now, &err);
		snprintf(now->host, sizeof(now->host), "node17");
		is_int(rt_profile_compare(now, old, 0.05), 0, "another host: nothing compared");
		like(now->nnotes ? now->notes[0] : "", "of host 'node16', not 'node17': not compared",
		     "said: %s", now->nnotes ? now->notes[0] : "");
		rt_profile_destroy(now);
		rt_profile_destroy(old);
	}

	/* the same host name on another machine (every guest here is "vm"): another CPU, or
	 * another share of the same one, is not this node's past; a previous profile's text
	 * (its created time holding a terminal's escapes) is quoted printable */
	{
		struct rt_profile *old = NULL, *now = NULL;
		struct rt_profile_flops f32 = { "fp32", "avx512", 1, 100, 99, 0.01, "fma-chains",
						"", 0, "", { 0 }, 0 };
		static const char *const amd_isa[] = { "avx2", "avx512f", "avx512_bf16" };
		static const char *const intel_isa[] = { "avx2", "avx512f", "amx_bf16" };

		rt_profile_create(&old, &err);
		rt_profile_create(&now, &err);
		snprintf(old->host, sizeof(old->host), "vm");
		snprintf(now->host, sizeof(now->host), "vm");
		snprintf(old->created, sizeof(old->created), "2026\x1b[2J\x1b]0;x\x07\xc2\x9b"
			 "1m");
		snprintf(old->cpu.model, sizeof(old->cpu.model), "AMD EPYC 9B14");
		snprintf(old->cpu.vendor, sizeof(old->cpu.vendor), "AuthenticAMD");
		old->cpu.family = 25;
		for (size_t i = 0; i < 3; i++)
			snprintf(old->cpu.isa[i], sizeof(old->cpu.isa[i]), "%s", amd_isa[i]);
		old->cpu.nisa = 3;
		old->cpu.sockets = 1, old->cpu.cores = 16, old->cpu.pus = 32;
		snprintf(now->cpu.model, sizeof(now->cpu.model), "Intel(R) Xeon(R) Platinum 8481C");
		snprintf(now->cpu.vendor, sizeof(now->cpu.vendor), "GenuineIntel");
		now->cpu.family = 6;
		for (size_t i = 0; i < 3; i++)
			snprintf(now->cpu.isa[i], sizeof(now->cpu.isa[i]), "%s", intel_isa[i]);
		now->cpu.nisa = 3;
		now->cpu.sockets = 1, now->cpu.cores = 2, now->cpu.pus = 2;
		rt_profile_add_flops(old, &f32);
		f32.gflops = 362;       /* "bf16 moved +262%" of the issue */
		rt_profile_add_flops(now, &f32);
		is_int(rt_profile_compare(now, old, 0.05), 0, "'vm' on another CPU: nothing compared");
		like(now->nnotes ? now->notes[0] : "", "the previous profile is of another machine "
		     "named 'vm': its CPU is 'AMD EPYC 9B14', this one's 'Intel(R) Xeon(R) Platinum "
		     "8481C': not compared", "said: %s", now->nnotes ? now->notes[0] : "");
		ok(now->nnotes == 1, "no move listed");
		/* the same CPU model, other ISA extensions (another generation's microcode) */
		rt_profile_destroy(now);
		rt_profile_create(&now, &err);
		now->cpu = old->cpu;
		snprintf(now->host, sizeof(now->host), "vm");
		snprintf(now->cpu.isa[2], sizeof(now->cpu.isa[2]), "avx512_fp16");
		is_int(rt_profile_compare(now, old, 0.05), 0, "other ISA extensions: not compared");
		like(now->nnotes ? now->notes[0] : "", "its CPU has other ISA extensions: not compared",
		     "said: %s", now->nnotes ? now->notes[0] : "");
		rt_profile_destroy(now);
		/* the same CPU, another share of it (a smaller guest of the same host type) */
		rt_profile_create(&now, &err);
		snprintf(now->host, sizeof(now->host), "vm");
		now->cpu = old->cpu;
		now->cpu.cores = 2, now->cpu.pus = 4;
		is_int(rt_profile_compare(now, old, 0.05), 0, "2 cores against 16: not compared");
		like(now->nnotes ? now->notes[0] : "", "(or another share of it): 1 package, 16 cores, "
		     "32 PUs, this one 1, 2, 4: not compared", "said: %s",
		     now->nnotes ? now->notes[0] : "");
		rt_profile_destroy(now);
		/* the same machine: compared, the escapes of its created time made harmless */
		rt_profile_create(&now, &err);
		snprintf(now->host, sizeof(now->host), "vm");
		now->cpu = old->cpu;
		rt_profile_add_flops(now, &f32);
		is_int(rt_profile_compare(now, old, 0.05), 1, "the same machine: its move found");
		ok(now->nnotes && !strchr(now->notes[0], '\x1b') && !strchr(now->notes[0], '\x07') &&
		   !strstr(now->notes[0], "\xc2\x9b") &&
		   strstr(now->notes[0], "(2026?[2J?]0;x??1m)"),
		   "the previous profile's created time quoted without its control characters: %s",
		   now->nnotes ? now->notes[0] : "");
		rt_profile_destroy(now);
		rt_profile_destroy(old);
	}

	ok(rt_profile_load(&q, "/nonexistent/x.cfg", &err) == -ENOENT, "missing file");
	like(err.msg, "/nonexistent/x.cfg: cannot read", "missing file message");
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			printf("# cleanup of %s failed\n", dir);
	}
	return done_testing();
}
