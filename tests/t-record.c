/* t-record.c: the record a sweep's child gets (roofline-train --emit-points FILE): written
 * from a request and a configuration, read back into the trainer's settings equal; a broken
 * record refused naming FILE:LINE, a value out of an option's range refused as the command
 * line refuses it */
#include "config.h"
#include "run/train-run.h"
#include "sweep/runrec.h"
#include "tap.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

static char dir[] = "/tmp/t-record-XXXXXX";

/* FILE in dir holding text; its path in path. */
static void put(char *path, size_t size, const char *name, const char *text)
{
	FILE *fp;

	snprintf(path, size, "%s/%s", dir, name);
	fp = fopen(path, "w");
	if (fp) {
		fputs(text, fp);
		fclose(fp);
	}
}

/* The record of r and c for `repeat` runs written to dir/NAME, its path in path: 0 or -1. */
static int write_record(char *path, size_t size, const char *name,
			const struct rt_runrec_request *r, const struct rt_sweep_config *c,
			long repeat)
{
	FILE *fp;

	snprintf(path, size, "%s/%s", dir, name);
	if (!(fp = fopen(path, "w")))
		return -1;
	rt_runrec_child_put(fp, r, c, repeat);
	return fclose(fp) ? -1 : 0;
}

/* The settings of the record at path (default settings first): 0 or the error. */
static int read_back(const char *path, struct rt_train_settings *s, int ranks,
		     struct rt_runrec_members **rec, struct rt_err *err)
{
	rt_train_settings_default(s);
	s->emit = path;
	return rt_train_settings_record(s, rec, 8, ranks, err);
}

/* A broken record: refused, its message starting "PATH:LINE: " and holding want. */
static void refused(const char *name, const char *text, int line, int ranks, const char *want)
{
	struct rt_train_settings s;
	struct rt_runrec_members *rec = (void *)1;
	struct rt_err err = { 0 };
	char path[256], at[300];
	int rc;

	put(path, sizeof(path), name, text);
	snprintf(at, sizeof(at), "%s:%d: ", path, line);
	rc = read_back(path, &s, ranks, &rec, &err);
	ok(rc == -EINVAL && !strncmp(err.msg, at, strlen(at)) && strstr(err.msg, want) && !rec,
	   "%s refused at line %d: %s", name, line, err.msg);
}

int main(void)
{
	struct rt_runrec_request r = { .batch = 64, .iterations = 7, .warmup = 2, .repeat = 5,
				       .seed = 42, .per_layer = true };
	struct rt_sweep_config c = { .threads = 2, .batch = 16, .affinity = RT_AFFINITY_SCATTER,
				     .precision = RT_PRECISION_BF16, .ranks = 2, .input_h = 32,
				     .input_w = 48 };
	struct rt_train_settings s;
	struct rt_runrec_members *rec = NULL;
	struct rt_err err = { 0 };
	char path[256];

	if (!mkdtemp(dir))
		return printf("Bail out! mkdtemp: %s\n", strerror(errno)), 1;
	snprintf(r.model, sizeof(r.model), "/models/a \"quoted\" name.cfg");
	snprintf(r.data, sizeof(r.data), "cifar10:/data/c10");
	snprintf(r.counters, sizeof(r.counters), "model");
	snprintf(r.maxpool, sizeof(r.maxpool), "split");
	snprintf(r.lr, sizeof(r.lr), "%.17g", 0.05);

	/* written, then read back equal */
	is_int(write_record(path, sizeof(path), "two.cfg", &r, &c, 3), 0, "record written");
	is_int(read_back(path, &s, 2, &rec, &err), 0, "read back: %s", err.msg);
	is_str(s.model, r.model, "model");
	is_str(s.data, r.data, "data");
	is_str(s.counters, r.counters, "counters");
	is_int(s.pool, RT_POOL_SPLIT, "maxpool");
	is_double(s.lr, 0.05, 0, "lr");
	is_int(s.prec, RT_PRECISION_BF16, "precision");
	ok(s.input_h == 32 && s.input_w == 48, "input %ldx%ld", s.input_h, s.input_w);
	is_int(s.affinity, RT_AFFINITY_SCATTER, "affinity (several ranks pin their threads)");
	ok(s.given & RT_GIVEN_AFFINITY, "... and it is set, as --affinity sets it");
	is_int(s.batch, 16, "batch: the configuration's, not the request's");
	is_int(s.threads, 2, "threads");
	is_int(s.iters, 7, "iterations");
	is_int(s.warmup, 2, "warmup");
	is_int(s.repeat, 3, "repeat: the runs the child is asked for");
	is_int(s.seed, 42, "seed");
	ok(s.per_layer, "per_layer");
	rt_runrec_members_destroy(rec);
	rec = NULL;

	/* one process: its environment places it (no affinity), the model's input, no layers */
	c.ranks = 1;
	c.input_h = 0;
	r.per_layer = false;
	r.lr[0] = '\0';
	is_int(write_record(path, sizeof(path), "one.cfg", &r, &c, 1), 0, "one process's record");
	is_int(read_back(path, &s, 1, &rec, &err), 0, "read back: %s", err.msg);
	ok(!(s.given & RT_GIVEN_AFFINITY) && !s.input_h && !s.per_layer && s.lr == 0.01,
	   "no affinity, input, per_layer or lr: the defaults stay");
	is_int(s.repeat, 1, "repeat 1");
	rt_runrec_members_destroy(rec);
	rec = NULL;
	/* the same record read by a job of another size */
	is_int(read_back(path, &s, 2, &rec, &err), -EINVAL, "a job of 2 ranks refuses a record "
	       "of 1: %s", err.msg);

	/* broken records: FILE:LINE, whatever is wrong */
	refused("syntax.cfg", "# a child\nchild = {\n  batch = ;\n};\n", 3, 1, "syntax error");
	refused("nogroup.cfg", "# a child\nrun = { batch = 4; };\n", 1, 1, "no group 'child'");
	refused("range.cfg", "child = {\n  model = \"lenet5\";\n  batch = 0;\n};\n", 3, 1,
		"--batch: '0' is not in 1..65536");
	refused("threads.cfg", "child = {\n  threads = 9;\n};\n", 2, 1, "--threads: '9' is not "
		"in 1..8");
	refused("prec.cfg", "child = {\n\n  precision = \"fp16\";\n};\n", 3, 1,
		"--precision: 'fp16' is not fp32 or bf16");
	refused("type.cfg", "child = {\n  batch = [ 1, 2 ];\n};\n", 2, 1, "'batch' must be a "
		"string, a number or true or false");
	refused("flag.cfg", "child = {\n  per_layer = \"yes\";\n};\n", 2, 1,
		"'per_layer' must be true or false");
	refused("unknown.cfg", "child = {\n  colour = \"red\";\n};\n", 2, 1,
		"'colour' is not a setting of a sweep's child");
	refused("sweep.cfg", "child = {\n  sweep = \"threads\";\n};\n", 2, 1,
		"'sweep' is not a setting of a sweep's child");
	refused("ranks.cfg", "child = {\n  ranks = 4;\n};\n", 2, 2, "ranks: 4 asked, this job "
		"has 2");
	snprintf(path, sizeof(path), "%s/missing.cfg", dir);
	ok(read_back(path, &s, 1, &rec, &err) == -ENOENT && strstr(err.msg, path),
	   "a missing record: %s", err.msg);

	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			printf("# %s left behind\n", dir);
	}
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
