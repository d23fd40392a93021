/* points.c: sweep points: their arithmetic, the verdict on a speedup and its sentence, and
 * points.csv, written so that pandas and gnuplot read it as is, and read back with every
 * number and name checked */
#include "config.h"
#include "results/points.h"
#include "base/cli.h"
#include "base/vocab.h"
#include "base/util.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const rt_point_scopes[RT_SCOPE_COUNT] = { "iteration", "phase", "layer" };
const char *const rt_point_stats[RT_STAT_COUNT] = { "median", "min", "max" };
const char *const rt_point_statuses[RT_STATUS_COUNT] = { "ok", "failed", "fused", "disturbed" };
const char *const rt_cmd_scopes[RT_CMD_SCOPE_COUNT] = { "run", "onednn", "kind", "primitive" };

/* CSV as rooftraj writes and reads it. csv_field: one field, quoted when it holds a comma, a
 * quote or leading/trailing blanks, control characters as spaces (a row stays one line).
 * csv_split: one line (no line end) into at most max fields, in place ("" quoting): the count
 * (max + 1 when there are more), -1 when a quoted field does not close or text follows its
 * closing quote. A header's columns by name (cols_parse, col_of): every field is found by its
 * column's name, never by its place. header_map: the columns of a points.csv header, col[k]
 * the place of column k (-1: none), today's header or an earlier one of either tool, else
 * -EINVAL "NAME:1: not a rooftraj points.csv header". */
#define CSV_COLS_MAX 64
struct csv_cols {
	char text[2048];                /* the header, split in place */
	char *name[CSV_COLS_MAX];
	int n;
};
static void csv_field(FILE *fp, const char *s);
static int csv_split(char *line, char **f, int max);
static int cols_parse(struct csv_cols *c, const char *header);
static int col_of(const struct csv_cols *c, const char *name);
static int header_map(const char *header, const char *name, int *col, int *ncol,
		      struct rt_err *err);
static bool scope_is_command(const char *scope);

/* names[v] when v is in range, else "?" (a struct filled by hand can hold anything) */
static const char *name_of(const char *const *names, unsigned n, unsigned v)
{
	return v < n ? names[v] : "?";
}

const char *rt_point_scope_name(const struct rt_point *p)
{
	return name_of(rt_point_scopes, RT_SCOPE_COUNT, p->scope);
}

const char *rt_point_stat_name(const struct rt_point *p)
{
	return name_of(rt_point_stats, RT_STAT_COUNT, p->stat);
}

const char *rt_point_status_name(const struct rt_point *p)
{
	return name_of(rt_point_statuses, RT_STATUS_COUNT, p->status);
}

const char *rt_point_source_name(const struct rt_point *p)
{
	return p->source == RT_SOURCE_NONE ? "" : rt_source_name(p->source);
}

const char *rt_point_bytes_source_name(const struct rt_point *p)
{
	return p->bytes_source == RT_SOURCE_NONE ? rt_point_source_name(p) :
	       rt_source_name(p->bytes_source);
}

void rt_point_sources(const struct rt_point *p, char *buf, size_t size)
{
	if (p->bytes_source == p->source || p->bytes_source == RT_SOURCE_NONE)
		snprintf(buf, size, "%s", rt_point_source_name(p));
	else
		snprintf(buf, size, "%s, bytes %s", rt_point_source_name(p),
			 rt_point_bytes_source_name(p));
}

const char *rt_point_affinity_name(const struct rt_point *p)
{
	return name_of(rt_vocab_affinities, RT_AFFINITY_COUNT, p->affinity);
}

const char *rt_point_precision_name(const struct rt_point *p)
{
	return name_of(rt_vocab_precisions, RT_PRECISION_COUNT, p->precision);
}

unsigned rt_point_threads(const struct rt_point *p)
{
	return p->threads * (p->ranks > 1 ? p->ranks : 1);
}

bool rt_point_is_headline(const struct rt_point *p)
{
	return p->scope == RT_SCOPE_ITERATION && p->stat == RT_STAT_MEDIAN &&
	       p->status == RT_STATUS_OK;
}

bool rt_point_is_measured(const struct rt_point *p)
{
	return p->scope == RT_SCOPE_ITERATION && p->stat == RT_STAT_MEDIAN &&
	       (p->status == RT_STATUS_OK || p->status == RT_STATUS_DISTURBED);
}

const struct rt_point *rt_points_headline(const struct rt_point *pts, size_t n,
					  const char *config)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(pts[i].config, config) && rt_point_is_headline(&pts[i]))
			return &pts[i];
	return NULL;
}

const struct rt_point *rt_points_best(const struct rt_point *pts, size_t n,
				      const char *default_config)
{
	const struct rt_point *def = NULL, *best = NULL;

	/* the default's input size is its configuration's, from any row of it: a best of
	 * another image size is no speedup, also when the default's runs were disturbed */
	for (size_t i = 0; default_config && i < n && !def; i++)
		if (pts[i].input_h && !strcmp(pts[i].config, default_config))
			def = &pts[i];
	for (size_t i = 0; i < n; i++) {
		const struct rt_point *p = &pts[i];

		if (!rt_point_is_headline(p))
			continue;
		if (def && def->input_h && p->input_h &&
		    (p->input_h != def->input_h || p->input_w != def->input_w))
			continue;
		if (!best || p->images_per_s > best->images_per_s)
			best = p;
	}
	return best;
}

static int cmp_key(const struct rt_point *a, const char *config, enum rt_scope scope,
		   const char *name, enum rt_stat stat)
{
	int c;

	if ((c = strcmp(a->config, config)) || (c = (int)a->scope - (int)scope) ||
	    (c = strcmp(a->name, name)))
		return c;
	return (int)a->stat - (int)stat;
}

static int cmp_index(const void *x, const void *y)
{
	const struct rt_point *a = *(const struct rt_point *const *)x,
			      *b = *(const struct rt_point *const *)y;
	int c = cmp_key(a, b->config, b->scope, b->name, b->stat);

	/* equal keys keep the file's order */
	return c ? c : (a > b) - (a < b);
}

int rt_points_index_build(struct rt_points_index *ix, const struct rt_point *pts, size_t n,
			  struct rt_err *err)
{
	ix->n = 0;
	if (!(ix->v = calloc(n ? n : 1, sizeof(*ix->v))))
		return rt_err_set(err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		ix->v[i] = &pts[i];
	qsort(ix->v, n, sizeof(*ix->v), cmp_index);
	ix->n = n;
	return 0;
}

void rt_points_index_free(struct rt_points_index *ix)
{
	free(ix->v);
	ix->v = NULL;
	ix->n = 0;
}

const struct rt_point *rt_points_index_find(const struct rt_points_index *ix, const char *config,
					    enum rt_scope scope, const char *name,
					    enum rt_stat stat, enum rt_status status)
{
	size_t lo = 0, hi = ix->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_key(ix->v[mid], config, scope, name, stat) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < ix->n && !cmp_key(ix->v[lo], config, scope, name, stat); lo++)
		if (status == RT_STATUS_COUNT || ix->v[lo]->status == status)
			return ix->v[lo];
	return NULL;
}

const struct rt_point *rt_points_stat_of(const struct rt_points_index *ix,
					 const struct rt_point *pts, size_t n,
					 const struct rt_point *like, enum rt_stat stat)
{
	if (ix) {
		size_t lo = 0, hi = ix->n;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (cmp_key(ix->v[mid], like->config, like->scope, like->name, stat) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < ix->n && !cmp_key(ix->v[lo], like->config, like->scope, like->name,
					       stat); lo++)
			if (ix->v[lo]->source == like->source && ix->v[lo]->status == like->status)
				return ix->v[lo];
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		const struct rt_point *p = &pts[i];

		if (p->stat == stat && p->scope == like->scope && p->source == like->source &&
		    p->status == like->status && !strcmp(p->name, like->name) &&
		    !strcmp(p->config, like->config))
			return p;
	}
	return NULL;
}

struct rt_spread rt_points_spread(double *v, size_t n)
{
	const double median = n ? rt_median(v, n) : NAN;        /* sorts v first */

	return (struct rt_spread){ median, n ? v[0] : NAN, n ? v[n - 1] : NAN, (unsigned)n };
}

enum rt_status rt_points_runs_kept(const void *runs, size_t n, size_t size,
				   enum rt_status (*status)(const void *run))
{
	for (size_t i = 0; i < n; i++)
		if (status((const char *)runs + i * size) == RT_STATUS_OK)
			return RT_STATUS_OK;
	return RT_STATUS_DISTURBED;
}

enum rt_faster rt_points_faster(const struct rt_spread *a, const struct rt_spread *b,
				bool higher, double *ratio)
{
	const double num = higher ? a->median : b->median, den = higher ? b->median : a->median;
	const double r = num > 0 && den > 0 ? num / den : 0;

	if (ratio)
		*ratio = r;
	if (!(r > 1))
		return RT_FASTER_NO;
	if (a->runs < 2 || b->runs < 2)
		return RT_FASTER_UNKNOWN;
	if (higher ? a->lo > b->hi : a->hi < b->lo)
		return RT_FASTER_YES;
	return RT_FASTER_NOISE;
}

struct rt_spread rt_points_rate_spread(const struct rt_point *pts, size_t n,
				       const struct rt_point *h, double work, double median)
{
	const struct rt_point *mn = rt_points_stat_of(NULL, pts, n, h, RT_STAT_MIN),
			      *mx = rt_points_stat_of(NULL, pts, n, h, RT_STAT_MAX);
	struct rt_spread s = { median, mx && mx->seconds > 0 ? work / mx->seconds : median,
			       mn && mn->seconds > 0 ? work / mn->seconds : median, 1 };

	/* the rows do not say how many runs made a range (processes is 1 for the runs of one
	 * process under MPI, 0 in an older file): a range of one value is one run's */
	s.runs = s.lo < s.hi ? 2 : 1;
	return s;
}

void rt_points_verdict_figure(const struct rt_verdict_side *s, bool higher, char *buf,
			      size_t size)
{
	const int digits = higher ? 1 : 3;
	char over[48] = "";

	if (s->processes > 1)
		snprintf(over, sizeof(over), " over %u fresh processes", s->processes);
	else if (s->processes)
		snprintf(over, sizeof(over), " one process");
	if (s->s.runs < 2)
		snprintf(buf, size, "%.*f %s", digits, s->s.median, higher ? "images/s" : "s");
	else
		snprintf(buf, size, "%.*f %s (%.*f..%.*f%s)", digits, s->s.median,
			 higher ? "images/s" : "s", digits, s->s.lo, digits, s->s.hi, over);
}

enum rt_faster rt_points_verdict_say(const struct rt_verdict_say *v, char *buf, size_t size)
{
	const char *of = v->of ? v->of : "", *tail = v->tail ? v->tail : "";
	const char *dn = v->def.name ? v->def.name : "", *sp = v->def.name ? " " : "";
	char fb[160], fd[160];
	enum rt_faster f = RT_FASTER_NO;
	double x = 0;

	rt_points_verdict_figure(&v->best, v->higher, fb, sizeof(fb));
	rt_points_verdict_figure(&v->def, v->higher, fd, sizeof(fd));
	if (v->best.name && !v->missing)
		f = rt_points_faster(&v->best.s, &v->def.s, v->higher, &x);
	if (!v->best.name && v->alone)
		snprintf(buf, size, "one configuration%s%s: %s%s%s", v->def.name ? ", " : "", dn,
			 fd, of, tail);
	else if (!v->best.name)
		snprintf(buf, size, "the default configuration%s%s%s is the fastest measured: "
			 "%s%s%s", v->def.name ? ", " : "", dn, v->def.name ? "," : "", fd, of, tail);
	else if (v->missing)
		snprintf(buf, size, "best configuration: %s, %s%s; the default %s: nothing to "
			 "compare it with%s", v->best.name, fb, of, v->missing, tail);
	else if (f >= RT_FASTER_UNKNOWN)
		snprintf(buf, size, "best configuration: %s, %s%s; the default%s%s %s: speedup "
			 "%.2fx%s%s", v->best.name, fb, of, sp, dn, fd, x, f == RT_FASTER_YES ?
			 ", outside both ranges" : " from one run of each, the spread is not known "
			 "(use -r 3)", tail);
	else
		snprintf(buf, size, "no configuration is measurably faster than the default: %s%s%s "
			 "%s %s%s, the default%s%s %s; %s%s", f == RT_FASTER_NOISE ? "the fastest, " :
			 "", v->best.name, f == RT_FASTER_NOISE ? "," : "", v->higher ? "ran" :
			 "took", fb, of, sp, dn, fd, f == RT_FASTER_NOISE ? "the ranges overlap" :
			 "the default as fast or faster", tail);
	return f;
}

/* A training headline's side of the verdict: its images/s over its runs (an earlier file's
 * processes 0: one process) */
static struct rt_verdict_side rate_side(const struct rt_point *pts, size_t n,
					const struct rt_point *h)
{
	return (struct rt_verdict_side){ h->config, rt_points_rate_spread(pts, n, h,
		(double)h->batch, h->images_per_s), h->processes ? h->processes : 1 };
}

void rt_points_verdict(const struct rt_point *pts, size_t n, const char *default_config,
		       struct rt_verdict *v)
{
	const char *first = NULL;
	enum rt_faster f;

	memset(v, 0, sizeof(*v));
	v->alone = true;
	for (size_t i = 0; i < n; i++) {
		if (pts[i].scope != RT_SCOPE_ITERATION || pts[i].stat != RT_STAT_MEDIAN)
			continue;
		v->disturbed += pts[i].status == RT_STATUS_DISTURBED &&
				pts[i].source == RT_SOURCE_MODEL;
		if (!first)
			first = pts[i].config;
		v->alone = v->alone && !strcmp(first, pts[i].config);
	}
	v->best = rt_points_best(pts, n, default_config);
	v->def = default_config ? rt_points_headline(pts, n, default_config) : NULL;
	if (!v->best)
		return;                 /* RT_VERDICT_NONE */
	v->say = (struct rt_verdict_say){ .best = rate_side(pts, n, v->best), .higher = true,
					  .alone = v->alone };
	if (!v->def) {
		v->kind = RT_VERDICT_NO_DEFAULT;
		v->say.missing = "has no undisturbed measurement";
		return;
	}
	v->say.def = rate_side(pts, n, v->def);
	f = rt_points_faster(&v->say.best.s, &v->say.def.s, true, NULL);
	if (v->best == v->def || !strcmp(v->best->config, v->def->config) || f == RT_FASTER_NO) {
		v->kind = RT_VERDICT_DEFAULT_BEST;
		v->say.best.name = NULL;
	} else {
		v->kind = f == RT_FASTER_UNKNOWN ? RT_VERDICT_ONE_RUN : f == RT_FASTER_YES ?
			  RT_VERDICT_FASTER : RT_VERDICT_NOISE;
	}
}

void rt_points_verdict_text(const struct rt_verdict *v, char *buf, size_t size)
{
	if (v->kind == RT_VERDICT_NONE)
		snprintf(buf, size, v->disturbed ? "no configuration was measured undisturbed" :
			 "no configuration succeeded");
	else
		rt_points_verdict_say(&v->say, buf, size);
}

void rt_point_derive(struct rt_point *p)
{
	p->intensity = p->bytes > 0 ? p->flops / p->bytes : 0;
	p->gflops = p->seconds > 0 ? p->flops / p->seconds / 1e9 : 0;
	p->images_per_s = p->seconds > 0 && p->scope == RT_SCOPE_ITERATION ?
			  (double)p->batch / p->seconds : 0;
}

const char *const rt_points_col_names[RT_COL_COUNT] = {
	"config", "threads", "batch", "affinity", "precision", "ranks", "scope", "name", "stat",
	"seconds", "flops", "bytes", "source", "intensity", "gflops", "images_per_s", "weights",
	"activations", "gradients", "optimizer", "workspace", "peak_rss", "status", "reason",
	"impl", "input_h", "input_w", "weight_gradients", "activation_gradients", "inference",
	"processes", "cpu_share", "bytes_source",
	"rep", "kind", "prop", "dtype", "calls", "share", "wall_seconds", "onednn_seconds",
	"coverage", "log", "rank", "startup_seconds", "window_seconds",
};

/* The headers of earlier files, still read: the trainer's, a prefix of today's (rooftraj 0.1:
 * up to reason; 0.2: up to impl; 0.3: up to inference; 0.4: up to cpu_share; then up to
 * bytes_source), and roofline-run's own, up to rank or to window_seconds. */
static const int earlier_columns[] = { 24, 25, 30, 32, 33 };
static const char earlier_command[] =
	"config,rep,scope,name,kind,prop,dtype,precision,impl,calls,seconds,share,flops,bytes,"
	"gflops,intensity,source,status,reason,wall_seconds,onednn_seconds,coverage,threads,log,"
	"images_per_s,rank,startup_seconds,window_seconds";
static const int earlier_command_columns[] = { 26, 28 };

/* Whether the names of h are the first n of names. */
static bool names_are(const struct csv_cols *h, const char *const *names, int n)
{
	if (h->n != n)
		return false;
	for (int k = 0; k < n; k++)
		if (strcmp(h->name[k], names[k]))
			return false;
	return true;
}

static int header_map(const char *header, const char *name, int *col, int *ncol,
		      struct rt_err *err)
{
	struct csv_cols h, cmd;
	bool known = false;

	if (cols_parse(&h, header) || cols_parse(&cmd, earlier_command))
		return rt_err_set(err, -EINVAL, "%s:1: not a rooftraj points.csv header", name);
	known = names_are(&h, rt_points_col_names, RT_COL_COUNT);
	for (size_t i = 0; !known && i < sizeof(earlier_columns) / sizeof(earlier_columns[0]); i++)
		known = names_are(&h, rt_points_col_names, earlier_columns[i]);
	for (size_t i = 0; !known && i < 2; i++)
		known = names_are(&h, (const char *const *)cmd.name, earlier_command_columns[i]);
	if (!known)
		return rt_err_set(err, -EINVAL, "%s:1: not a rooftraj points.csv header", name);
	for (int k = 0; k < RT_COL_COUNT; k++)
		col[k] = col_of(&h, rt_points_col_names[k]);
	*ncol = h.n;
	return 0;
}

static bool scope_is_command(const char *scope)
{
	return rt_vocab_index(rt_cmd_scopes, RT_CMD_SCOPE_COUNT, scope) >= 0;
}

void rt_points_csv_header(FILE *fp)
{
	for (int k = 0; k < RT_COL_COUNT; k++)
		fprintf(fp, "%s%s", k ? "," : "", rt_points_col_names[k]);
	fputc('\n', fp);
}

/* A CSV field: quoted when it holds a comma, a quote or leading/trailing blanks; control
 * characters (which the model and profile readers refuse) become spaces, so that a row stays
 * one line whatever it holds. */
static void csv_field(FILE *fp, const char *s)
{
	const size_t len = strlen(s);
	bool quote = strpbrk(s, ",\"") || (len && (s[0] == ' ' || s[len - 1] == ' '));

	for (const char *c = s; *c && !quote; c++)
		quote = (unsigned char)*c < 0x20 || *c == 0x7f;
	if (!quote) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, fp);
	}
	fputc('"', fp);
}

void rt_points_csv_row(FILE *fp, const struct rt_point *p)
{
	csv_field(fp, p->config);
	fprintf(fp, ",%u,%ld,", p->threads, p->batch);
	csv_field(fp, rt_point_affinity_name(p));
	fputc(',', fp);
	csv_field(fp, rt_point_precision_name(p));
	fprintf(fp, ",%u,", p->ranks);
	csv_field(fp, rt_point_scope_name(p));
	fputc(',', fp);
	csv_field(fp, p->name);
	fputc(',', fp);
	csv_field(fp, rt_point_stat_name(p));
	fprintf(fp, ",%.9g,%.17g,%.17g,", p->seconds, p->flops, p->bytes);
	csv_field(fp, rt_point_source_name(p));
	fprintf(fp, ",%.6g,%.6g,%.6g,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,", p->intensity, p->gflops,
		p->images_per_s, p->weights, p->activations, p->gradients, p->optimizer,
		p->workspace, p->peak_rss);
	csv_field(fp, rt_point_status_name(p));
	fputc(',', fp);
	csv_field(fp, p->reason);
	fputc(',', fp);
	csv_field(fp, p->impl);
	fprintf(fp, ",%ld,%ld", p->input_h, p->input_w);
	{
		const double v[3] = { p->weight_gradients, p->activation_gradients, p->inference };

		for (int k = 0; k < 3; k++)
			if (isnan(v[k]))
				fputc(',', fp);
			else
				fprintf(fp, ",%.0f", v[k]);
	}
	if (p->processes)
		fprintf(fp, ",%u", p->processes);
	else
		fputc(',', fp);
	if (isnan(p->cpu_share))
		fputc(',', fp);
	else
		fprintf(fp, ",%.3f", p->cpu_share);
	fputc(',', fp);
	csv_field(fp, rt_point_bytes_source_name(p));
	for (int k = RT_COL_BYTES_SOURCE + 1; k < RT_COL_COUNT; k++)  /* the command's */
		fputc(',', fp);
	fputc('\n', fp);
}

void rt_points_csv_put(FILE *fp, const char *const v[RT_COL_COUNT])
{
	for (int k = 0; k < RT_COL_COUNT; k++) {
		if (k)
			fputc(',', fp);
		csv_field(fp, v[k] ? v[k] : "");
	}
	fputc('\n', fp);
}

/* column k of a command's row: x where have and it is a number, else empty */
static void cmd_num(char (*nb)[32], const char **v, int k, double x, bool have)
{
	if (have && isfinite(x)) {
		snprintf(nb[k], sizeof(nb[k]), "%.17g", x);
		v[k] = nb[k];
	}
}

void rt_points_csv_cmd_row(FILE *fp, const struct rt_cmd_row *r)
{
	const bool ran = r->status != RT_STATUS_FAILED, counted = ran && r->counted;
	const char *v[RT_COL_COUNT] = { NULL };
	char nb[RT_COL_COUNT][32];
	struct rt_buf cut;

	rt_buf_init(&cut);
	v[RT_COL_CONFIG] = r->config, v[RT_COL_NAME] = r->name;
	if (r->name && strlen(r->name) > RT_POINTS_CSV_NAME_MAX) {
		rt_buf_add(&cut, r->name, RT_POINTS_CSV_NAME_MAX - 3);
		rt_buf_puts(&cut, "...");
		v[RT_COL_NAME] = cut.failed ? "..." : cut.s;
	}
	v[RT_COL_SCOPE] = name_of(rt_cmd_scopes, RT_CMD_SCOPE_COUNT, r->scope);
	v[RT_COL_KIND] = r->kind, v[RT_COL_PROP] = r->prop, v[RT_COL_DTYPE] = r->dtype;
	v[RT_COL_PRECISION] = r->precision, v[RT_COL_IMPL] = r->impl;
	v[RT_COL_STATUS] = name_of(rt_point_statuses, RT_STATUS_COUNT, r->status);
	v[RT_COL_REASON] = r->reason, v[RT_COL_LOG] = r->log;
	v[RT_COL_SOURCE] = counted ? "onednn-log" : NULL;
	cmd_num(nb, v, RT_COL_REP, r->rep, true);
	cmd_num(nb, v, RT_COL_CALLS, (double)r->calls, true);
	cmd_num(nb, v, RT_COL_THREADS, r->threads, r->threads > 0);
	cmd_num(nb, v, RT_COL_RANK, r->rank, r->rank >= 0);
	cmd_num(nb, v, RT_COL_SECONDS, r->seconds, ran);
	cmd_num(nb, v, RT_COL_SHARE, r->share, ran);
	cmd_num(nb, v, RT_COL_FLOPS, r->flops, counted);
	cmd_num(nb, v, RT_COL_BYTES, r->bytes, counted);
	cmd_num(nb, v, RT_COL_GFLOPS, r->seconds > 0 ? r->flops / r->seconds / 1e9 : NAN, counted);
	cmd_num(nb, v, RT_COL_INTENSITY, r->bytes > 0 ? r->flops / r->bytes : NAN,
		counted && r->flops > 0);
	cmd_num(nb, v, RT_COL_WALL_SECONDS, r->wall, ran);
	cmd_num(nb, v, RT_COL_ONEDNN_SECONDS, r->onednn, ran);
	cmd_num(nb, v, RT_COL_COVERAGE, r->coverage, ran);
	cmd_num(nb, v, RT_COL_IMAGES_PER_S, r->images_per_s, ran && r->images_per_s > 0);
	cmd_num(nb, v, RT_COL_STARTUP_SECONDS, r->startup, ran && !isnan(r->window));
	cmd_num(nb, v, RT_COL_WINDOW_SECONDS, r->window, ran && !isnan(r->startup));
	rt_points_csv_put(fp, v);
	rt_buf_fini(&cut);
}

static int csv_split(char *line, char **f, int max)
{
	int n = 0;
	char *p = line, *w;

	for (;;) {
		if (n == max)
			return max + 1;
		f[n++] = w = p;
		if (*p == '"') {
			p++;
			for (;;) {
				if (!*p)
					return -1;
				if (*p == '"' && p[1] == '"') {
					*w++ = '"';
					p += 2;
				} else if (*p == '"') {
					p++;
					break;
				} else {
					*w++ = *p++;
				}
			}
			if (*p && *p != ',')
				return -1;
		} else {
			while (*p && *p != ',')
				p++;
			w = p;
		}
		if (!*p) {
			*w = '\0';
			return n;
		}
		*w = '\0';
		p++;
	}
}

static int cols_parse(struct csv_cols *c, const char *header)
{
	if (strlen(header) >= sizeof(c->text))
		return -1;
	snprintf(c->text, sizeof(c->text), "%s", header);
	c->n = csv_split(c->text, c->name, CSV_COLS_MAX);
	return c->n < 0 || c->n > CSV_COLS_MAX ? -1 : 0;
}

static int col_of(const struct csv_cols *c, const char *name)
{
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->name[i], name))
			return i;
	return -1;
}

/* The reader's place, for its messages, and where each of today's columns is in its file
 * (-1: a file of an earlier rooftraj, without it). */
struct csv_at {
	const char *path;
	int line;
	struct rt_err *err;
	int col[RT_COL_COUNT];
};

/* A row's field of column k (F(NAME): of RT_COL_NAME); NULL where the file has no such
 * column. */
#define FK(k) (at->col[k] >= 0 ? f[at->col[k]] : NULL)
#define F(name) FK(RT_COL_##name)

static int bad_field(const struct csv_at *at, const char *column, const char *value,
		     const char *why)
{
	return rt_err_set(at->err, -EINVAL, "%s:%d: %s '%.60s' %s", at->path, at->line, column,
			  value, why);
}

static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

/* A whole number in min..max. */
static int csv_ulong(const struct csv_at *at, const char *column, const char *s,
		     unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return bad_field(at, column, s, "is not a whole number");
	v = strtoul(s, &end, 10);
	if (*end || errno)
		return bad_field(at, column, s, "is not a whole number");
	if (v < min || v > max) {
		char why[64];

		snprintf(why, sizeof(why), "is not in %lu..%lu", min, max);
		return bad_field(at, column, s, why);
	}
	*out = v;
	return 0;
}

/* A finite number >= 0. */
static int csv_double(const struct csv_at *at, const char *column, const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	if (!*s || *s == ' ')
		return bad_field(at, column, s, "is not a number");
	v = strtod(s, &end);
	if (*end || errno == ERANGE)
		return bad_field(at, column, s, "is not a number");
	if (!isfinite(v) || v < 0)
		return bad_field(at, column, s, "is not a finite number >= 0");
	*out = v;
	return 0;
}

/* One of a closed list of names: its index. */
static int csv_name(const struct csv_at *at, const char *column, const char *s,
		    const char *const *names, int n, unsigned *out)
{
	int i = rt_vocab_index(names, n, s);

	if (i < 0)
		return bad_field(at, column, s, "is not a known value");
	*out = (unsigned)i;
	return 0;
}

/* Free text (no control characters) that fits its field. */
static int csv_text(const struct csv_at *at, const char *column, const char *s, bool empty_ok,
		    char *buf, size_t size)
{
	if ((!empty_ok && !*s) || has_control(s) || strlen(s) >= size)
		return bad_field(at, column, s, !*s ? "is empty" : has_control(s) ?
				 "holds a control character" : "is too long");
	snprintf(buf, size, "%s", s);
	return 0;
}

/* A derived column must be what its inputs give (the writer keeps 6 significant digits). */
static int csv_derived(const struct csv_at *at, const char *column, double stored, double want)
{
	char got[32], why[96];

	if (fabs(stored - want) <= 1e-5 * fabs(want) + 1e-300)
		return 0;
	snprintf(got, sizeof(got), "%g", stored);
	snprintf(why, sizeof(why), "is not what the row's other columns give (%g)", want);
	return bad_field(at, column, got, why);
}

#define TRY(x) do { if ((rc = (x))) return rc; } while (0)

static int parse_point(const struct csv_at *at, char **f, struct rt_point *p)
{
	double stored[3];
	unsigned long v;
	unsigned e = 0;
	int rc;

	memset(p, 0, sizeof(*p));
	TRY(csv_text(at, "config", F(CONFIG), false, p->config, sizeof(p->config)));
	TRY(csv_ulong(at, "threads", F(THREADS), 1, 1 << 20, &v));
	p->threads = (unsigned)v;
	TRY(csv_ulong(at, "batch", F(BATCH), 1, 1L << 30, &v));
	p->batch = (long)v;
	TRY(csv_name(at, "affinity", F(AFFINITY), rt_vocab_affinities, RT_AFFINITY_COUNT,
		     &e));
	p->affinity = (enum rt_affinity)e;
	TRY(csv_name(at, "precision", F(PRECISION), rt_vocab_precisions, RT_PRECISION_COUNT,
		     &e));
	p->precision = (enum rt_precision)e;
	if (!rt_precision_trains(p->precision))
		return bad_field(at, "precision", F(PRECISION), "is not a known value");
	TRY(csv_ulong(at, "ranks", F(RANKS), 1, 1 << 24, &v));
	p->ranks = (unsigned)v;
	TRY(csv_name(at, "scope", F(SCOPE), rt_point_scopes, RT_SCOPE_COUNT, &e));
	p->scope = (enum rt_scope)e;
	TRY(csv_text(at, "name", F(NAME), false, p->name, sizeof(p->name)));
	TRY(csv_name(at, "stat", F(STAT), rt_point_stats, RT_STAT_COUNT, &e));
	p->stat = (enum rt_stat)e;
	TRY(csv_double(at, "seconds", F(SECONDS), &p->seconds));
	TRY(csv_double(at, "flops", F(FLOPS), &p->flops));
	TRY(csv_double(at, "bytes", F(BYTES), &p->bytes));
	TRY(csv_name(at, "status", F(STATUS), rt_point_statuses, RT_STATUS_COUNT, &e));
	p->status = (enum rt_status)e;
	/* a failed configuration measured nothing: it has no source ("none" is not a word of
	 * the file: it is written empty) */
	if (*F(SOURCE) || p->status == RT_STATUS_OK) {
		TRY(csv_name(at, "source", F(SOURCE), rt_vocab_sources + 1, RT_SOURCE_COUNT - 1,
			     &e));
		p->source = (enum rt_source)(e + 1);
	}
	TRY(csv_double(at, "intensity", F(INTENSITY), &stored[0]));
	TRY(csv_double(at, "gflops", F(GFLOPS), &stored[1]));
	TRY(csv_double(at, "images_per_s", F(IMAGES_PER_S), &stored[2]));
	TRY(csv_double(at, "weights", F(WEIGHTS), &p->weights));
	TRY(csv_double(at, "activations", F(ACTIVATIONS), &p->activations));
	TRY(csv_double(at, "gradients", F(GRADIENTS), &p->gradients));
	TRY(csv_double(at, "optimizer", F(OPTIMIZER), &p->optimizer));
	TRY(csv_double(at, "workspace", F(WORKSPACE), &p->workspace));
	TRY(csv_double(at, "peak_rss", F(PEAK_RSS), &p->peak_rss));
	TRY(csv_text(at, "reason", F(REASON), true, p->reason, sizeof(p->reason)));
	if (F(IMPL))
		TRY(csv_text(at, "impl", F(IMPL), true, p->impl, sizeof(p->impl)));
	p->weight_gradients = p->activation_gradients = p->inference = NAN;
	if (F(INPUT_H)) {
		const char *const names[3] = { "weight_gradients", "activation_gradients",
					       "inference" };
		double *out[3] = { &p->weight_gradients, &p->activation_gradients, &p->inference };

		TRY(csv_ulong(at, "input_h", F(INPUT_H), 0, 1 << 20, &v));
		p->input_h = (long)v;
		TRY(csv_ulong(at, "input_w", F(INPUT_W), 0, 1 << 20, &v));
		p->input_w = (long)v;
		for (int k = 0; k < 3; k++)
			if (*F(WEIGHT_GRADIENTS + k))         /* empty: not recorded */
				TRY(csv_double(at, names[k], F(WEIGHT_GRADIENTS + k), out[k]));
		if (!isnan(p->weight_gradients) && !isnan(p->activation_gradients) &&
		    p->weight_gradients + p->activation_gradients != p->gradients)
			return bad_field(at, "gradients", F(GRADIENTS), "is not weight_gradients + "
					 "activation_gradients");
	}
	p->cpu_share = NAN;
	if (F(PROCESSES)) {
		if (*F(PROCESSES)) {
			TRY(csv_ulong(at, "processes", F(PROCESSES), 1, 1000, &v));
			p->processes = (unsigned)v;
		}
		if (*F(CPU_SHARE)) {
			TRY(csv_double(at, "cpu_share", F(CPU_SHARE), &p->cpu_share));
			if (p->cpu_share > 2)
				return bad_field(at, "cpu_share", F(CPU_SHARE),
						 "is not a share (0..2)");
		}
	}
	/* the bytes' source: as the FLOPs' in a file without the column; none where the
	 * FLOPs have none (a failed configuration) */
	p->bytes_source = p->source;
	if (F(BYTES_SOURCE) && (*F(BYTES_SOURCE) || p->source != RT_SOURCE_NONE)) {
		TRY(csv_name(at, "bytes_source", F(BYTES_SOURCE), rt_vocab_sources + 1,
			     RT_SOURCE_COUNT - 1, &e));
		p->bytes_source = (enum rt_source)(e + 1);
		if (p->source == RT_SOURCE_NONE)
			return bad_field(at, "bytes_source", F(BYTES_SOURCE), "is set in a row "
					 "without a source");
	}
	for (int k = RT_COL_BYTES_SOURCE + 1; k < RT_COL_COUNT; k++)
		if (FK(k) && *FK(k))
			return bad_field(at, rt_points_col_names[k], FK(k), "is set in a row of "
					 "roofline-train's (a column of roofline-run's)");
	if ((p->status == RT_STATUS_OK || p->status == RT_STATUS_DISTURBED) && !(p->seconds > 0))
		return bad_field(at, "seconds", F(SECONDS), "is not > 0 in a measured row");
	rt_point_derive(p);
	TRY(csv_derived(at, "intensity", stored[0], p->intensity));
	TRY(csv_derived(at, "gflops", stored[1], p->gflops));
	TRY(csv_derived(at, "images_per_s", stored[2], p->images_per_s));
	return 0;
}

/* A number of a command's row: NAN where empty (or the file has no such column). */
static int cmd_double(const struct csv_at *at, const char *column, const char *s, double *out)
{
	*out = NAN;
	return s && *s ? csv_double(at, column, s, out) : 0;
}

/* What a command's row may be (rt_points_csv_cmd_row wrote it): its names known, its numbers
 * finite and >= 0, its rates what its other columns give, a run's work window inside its
 * wall time, its log a file of onednn/, the trainer's own columns empty. */
static int parse_cmd_row(const struct csv_at *at, char **f, struct rt_cmd_row *r)
{
	static const char *const run_names[] = { "command", "command without the log",
						  "command without the log, confirming" };
	static const enum rt_points_col trainers[] = {
		RT_COL_BATCH, RT_COL_AFFINITY, RT_COL_RANKS, RT_COL_STAT, RT_COL_WEIGHTS,
		RT_COL_ACTIVATIONS, RT_COL_GRADIENTS, RT_COL_OPTIMIZER, RT_COL_WORKSPACE,
		RT_COL_PEAK_RSS, RT_COL_INPUT_H, RT_COL_INPUT_W, RT_COL_WEIGHT_GRADIENTS,
		RT_COL_ACTIVATION_GRADIENTS, RT_COL_INFERENCE, RT_COL_PROCESSES, RT_COL_CPU_SHARE,
		RT_COL_BYTES_SOURCE };
	const char *const empty = "";
	const char *g[RT_COL_COUNT];
	double stored[2];
	unsigned long v;
	unsigned e = 0;
	int rc;

	for (int k = 0; k < RT_COL_COUNT; k++)  /* a column the file lacks: empty */
		g[k] = FK(k) ? FK(k) : empty;
	memset(r, 0, sizeof(*r));
	r->rank = -1;
	TRY(csv_text(at, "config", g[RT_COL_CONFIG], false, r->config, sizeof(r->config)));
	TRY(csv_name(at, "scope", g[RT_COL_SCOPE], rt_cmd_scopes, RT_CMD_SCOPE_COUNT, &e));
	r->scope = (enum rt_cmd_scope)e;
	r->name = g[RT_COL_NAME];
	if (!*r->name || has_control(r->name))
		return bad_field(at, "name", r->name, !*r->name ? "is empty" :
				 "holds a control character");
	if (r->scope == RT_CMD_SCOPE_RUN) {     /* kept: its name the table's, not the line's */
		const int k = rt_vocab_index(run_names, 3, r->name);

		if (k < 0)
			return bad_field(at, "name", r->name, "is not a run's (command, command "
					 "without the log, command without the log, confirming)");
		r->name = run_names[k];
	}
	TRY(csv_text(at, "kind", g[RT_COL_KIND], true, r->kind, sizeof(r->kind)));
	TRY(csv_text(at, "prop", g[RT_COL_PROP], true, r->prop, sizeof(r->prop)));
	TRY(csv_text(at, "dtype", g[RT_COL_DTYPE], true, r->dtype, sizeof(r->dtype)));
	TRY(csv_text(at, "impl", g[RT_COL_IMPL], true, r->impl, sizeof(r->impl)));
	TRY(csv_text(at, "precision", g[RT_COL_PRECISION], true, r->precision,
		     sizeof(r->precision)));
	if (*r->precision && strcmp(r->precision, "unknown") &&
	    rt_precision_of(r->precision) == RT_PRECISION_COUNT)
		return bad_field(at, "precision", r->precision, "is not a known value");
	TRY(csv_name(at, "status", g[RT_COL_STATUS], rt_point_statuses, RT_STATUS_COUNT, &e));
	r->status = (enum rt_status)e;
	if (r->status == RT_STATUS_FUSED)
		return bad_field(at, "status", g[RT_COL_STATUS], "is not a command's (ok, "
				 "disturbed, failed)");
	TRY(csv_text(at, "reason", g[RT_COL_REASON], true, r->reason, sizeof(r->reason)));
	TRY(csv_text(at, "log", g[RT_COL_LOG], true, r->log, sizeof(r->log)));
	if (*r->log && (strncmp(r->log, "onednn/", 7) || strchr(r->log + 7, '/') ||
			strstr(r->log, "..")))
		return bad_field(at, "log", r->log, "is not a file of onednn/");
	if (*g[RT_COL_SOURCE] && strcmp(g[RT_COL_SOURCE], "onednn-log"))
		return bad_field(at, "source", g[RT_COL_SOURCE], "is not a command's (onednn-log)");
	r->counted = *g[RT_COL_SOURCE] != '\0';
	TRY(csv_ulong(at, "rep", g[RT_COL_REP], 1, RT_CLI_REPEAT_MAX, &v));
	r->rep = (unsigned)v;
	if (*g[RT_COL_THREADS]) {
		TRY(csv_ulong(at, "threads", g[RT_COL_THREADS], 1, 1 << 20, &v));
		r->threads = (unsigned)v;
	}
	if (*g[RT_COL_RANK]) {
		TRY(csv_ulong(at, "rank", g[RT_COL_RANK], 0, 1 << 24, &v));
		r->rank = (int)v;
	}
	if (*g[RT_COL_CALLS])
		TRY(csv_ulong(at, "calls", g[RT_COL_CALLS], 0, ULONG_MAX - 1, &r->calls));
	TRY(cmd_double(at, "seconds", g[RT_COL_SECONDS], &r->seconds));
	TRY(cmd_double(at, "share", g[RT_COL_SHARE], &r->share));
	TRY(cmd_double(at, "flops", g[RT_COL_FLOPS], &r->flops));
	TRY(cmd_double(at, "bytes", g[RT_COL_BYTES], &r->bytes));
	TRY(cmd_double(at, "intensity", g[RT_COL_INTENSITY], &stored[0]));
	TRY(cmd_double(at, "gflops", g[RT_COL_GFLOPS], &stored[1]));
	TRY(cmd_double(at, "wall_seconds", g[RT_COL_WALL_SECONDS], &r->wall));
	TRY(cmd_double(at, "onednn_seconds", g[RT_COL_ONEDNN_SECONDS], &r->onednn));
	TRY(cmd_double(at, "coverage", g[RT_COL_COVERAGE], &r->coverage));
	TRY(cmd_double(at, "images_per_s", g[RT_COL_IMAGES_PER_S], &r->images_per_s));
	TRY(cmd_double(at, "startup_seconds", g[RT_COL_STARTUP_SECONDS], &r->startup));
	TRY(cmd_double(at, "window_seconds", g[RT_COL_WINDOW_SECONDS], &r->window));
	if (!isnan(stored[1]) && r->seconds > 0)
		TRY(csv_derived(at, "gflops", stored[1], r->flops / r->seconds / 1e9));
	if (!isnan(stored[0]) && r->bytes > 0)
		TRY(csv_derived(at, "intensity", stored[0], r->flops / r->bytes));
	if (r->scope == RT_CMD_SCOPE_RUN && r->status != RT_STATUS_FAILED && isnan(r->wall))
		return bad_field(at, "wall_seconds", "", "is not set in a run that ran");
	if (!isnan(r->startup) && !(r->startup <= r->wall))
		return bad_field(at, "startup_seconds", g[RT_COL_STARTUP_SECONDS], "is not within "
				 "the run's wall_seconds");
	if (!isnan(r->window) && !(r->window + (isnan(r->startup) ? 0 : r->startup) <=
				   r->wall * (1 + 1e-12)))
		return bad_field(at, "window_seconds", g[RT_COL_WINDOW_SECONDS], "is not within "
				 "the run's wall_seconds after its startup_seconds");
	for (size_t k = 0; k < sizeof(trainers) / sizeof(trainers[0]); k++)
		if (*g[trainers[k]])
			return bad_field(at, rt_points_col_names[trainers[k]], g[trainers[k]],
					 "is set in a row of roofline-run's (a column of "
					 "roofline-train's)");
	return 0;
}

/* A row's identity: two rows of one file never share it. */
static int cmp_identity(const struct rt_point *a, const struct rt_point *b)
{
	int c;

	if ((c = strcmp(a->config, b->config)) || (c = (int)a->scope - (int)b->scope) ||
	    (c = strcmp(a->name, b->name)) || (c = (int)a->stat - (int)b->stat))
		return c;
	return (int)a->source - (int)b->source;
}

struct row_ref {
	const struct rt_point *p;
	int line;
};

static int cmp_row_ref(const void *a, const void *b)
{
	const struct row_ref *x = a, *y = b;
	int c = cmp_identity(x->p, y->p);

	return c ? c : x->line - y->line;
}

/* -EINVAL naming both lines when two rows describe the same measurement. */
static int check_duplicates(const char *path, const struct rt_point *pts, const int *lines,
			    size_t n, struct rt_err *err)
{
	struct row_ref *r = calloc(n ? n : 1, sizeof(*r));
	int rc = 0;

	if (!r)
		return rt_err_set(err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		r[i] = (struct row_ref){ &pts[i], lines[i] };
	qsort(r, n, sizeof(*r), cmp_row_ref);
	for (size_t i = 1; i < n && !rc; i++)
		if (!cmp_identity(r[i - 1].p, r[i].p))
			rc = rt_err_set(err, -EINVAL, "%s:%d: the same configuration, scope, name and "
					"statistic as line %d ('%s', %s %s, %s)", path, r[i].line,
					r[i - 1].line, r[i].p->config, rt_point_scope_name(r[i].p),
					r[i].p->name, rt_point_stat_name(r[i].p));
	free(r);
	return rc;
}

int rt_points_csv_load(FILE *fp, const char *name, bool allow_cut, struct rt_points_file *f,
		       struct rt_err *err)
{
	struct csv_at at = { .path = name, .line = 0, .err = err };
	char *line = NULL;
	size_t linecap = 0, cap = 0, runcap = 0, len;
	int *lines = NULL;
	int rc = 0, r, first_command = 0;
	bool blank_seen = false, ended;

	memset(f, 0, sizeof(*f));
	f->columns = RT_COL_COUNT;
	while ((r = rt_read_line(fp, &line, &linecap, RT_POINTS_CSV_LINE_MAX, &len, &ended)) > 0 ||
	       r == -E2BIG) {
		char *fld[CSV_COLS_MAX + 1], *text = line;
		const char *scope;
		int nf;

		at.line++;
		if (r == -E2BIG) {
			rc = rt_err_set(err, -EINVAL, "%s:%d: a line longer than %d bytes: not a row",
					name, at.line, RT_POINTS_CSV_LINE_MAX - 1);
			break;
		}
		if (!ended && allow_cut) {
			/* cut short while written: its configuration is incomplete */
			char *comma = strchr(text, ',');

			f->cut = true;
			if (at.line > 1 && comma)
				snprintf(f->cut_config, sizeof(f->cut_config), "%.*s",
					 (int)(comma - text) < 63 ? (int)(comma - text) : 63, text);
			break;
		}
		if (len > 0 && line[len - 1] == '\r')   /* written on Windows */
			line[--len] = '\0';
		if (at.line == 1) {
			if (!strncmp(text, "\xef\xbb\xbf", 3))  /* a byte-order mark */
				text += 3;
			if ((rc = header_map(text, name, at.col, &f->columns, err)))
				break;
			f->ordered = at.col[RT_COL_BYTES_SOURCE] >= 0;
			continue;
		}
		if (!*text) {                           /* blank lines: only at the end */
			blank_seen = true;
			continue;
		}
		if (blank_seen) {
			rc = rt_err_set(err, -EINVAL, "%s:%d: a row after a blank line", name,
					at.line);
			break;
		}
		nf = csv_split(text, fld, CSV_COLS_MAX);
		if (nf < 0) {
			rc = rt_err_set(err, -EINVAL, "%s:%d: a quoted field does not close", name,
					at.line);
			break;
		}
		if (nf != f->columns) {
			rc = rt_err_set(err, -EINVAL, "%s:%d: %d fields, a point has %d", name, at.line,
					nf, f->columns);
			break;
		}
		/* a command's row is not a sweep's point; a file is one tool's */
		scope = at.col[RT_COL_SCOPE] >= 0 ? fld[at.col[RT_COL_SCOPE]] : "";
		if (scope_is_command(scope)) {
			struct rt_cmd_row row;

			if (f->n) {
				rc = rt_err_set(err, -EINVAL, "%s:%d: scope '%s' is roofline-run's, "
						"line %d's roofline-train's (a file holds one tool's "
						"rows)", name, at.line, scope, lines[0]);
				break;
			}
			if (!f->command_rows++)
				first_command = at.line;
			if ((rc = parse_cmd_row(&at, fld, &row)))
				break;
			row.line = at.line;
			if (row.scope != RT_CMD_SCOPE_RUN)
				continue;
			if (f->nruns == runcap) {
				size_t ncap = runcap ? 2 * runcap : 16;
				struct rt_cmd_row *q = realloc(f->runs, ncap * sizeof(*q));

				if (!q) {
					rc = rt_err_set(err, -ENOMEM, "out of memory");
					break;
				}
				f->runs = q;
				runcap = ncap;
			}
			f->runs[f->nruns++] = row;
			continue;
		}
		if (f->command_rows) {
			rc = rt_err_set(err, -EINVAL, "%s:%d: a row of roofline-train's, line %d's "
					"scope is roofline-run's (a file holds one tool's rows)", name,
					at.line, first_command);
			break;
		}
		if (at.col[RT_COL_BATCH] < 0) {         /* an earlier roofline-run's header */
			rc = rt_err_set(err, -EINVAL, "%s:%d: scope '%s' is not one of roofline-run's "
					"(run, onednn, kind, primitive), whose columns the file has",
					name, at.line, scope);
			break;
		}
		if (f->n == cap) {
			size_t ncap = cap ? 2 * cap : 64;
			struct rt_point *q = realloc(f->pts, ncap * sizeof(*f->pts));
			int *l = q ? realloc(lines, ncap * sizeof(*lines)) : NULL;

			if (q)
				f->pts = q;
			if (!q || !l) {
				rc = rt_err_set(err, -ENOMEM, "out of memory");
				break;
			}
			lines = l;
			cap = ncap;
		}
		if ((rc = parse_point(&at, fld, &f->pts[f->n])))
			break;
		lines[f->n++] = at.line;
	}
	if (!rc && r == -ENOMEM)
		rc = rt_err_set(err, -ENOMEM, "out of memory");
	else if (!rc && r == -EIO)
		rc = rt_err_set(err, -EIO, "%s: read failed: %s", name, strerror(errno));
	free(line);
	if (!rc)
		rc = check_duplicates(name, f->pts, lines, f->n, err);
	free(lines);
	if (rc)
		rt_points_file_free(f);
	return rc;
}

bool rt_points_csv_is_command(FILE *fp)
{
	char *line = NULL, *f[CSV_COLS_MAX + 1];
	int col[RT_COL_COUNT], ncol;
	size_t cap = 0, len;
	bool cmd = false, ended;
	struct rt_err ignored;

	if (rt_read_line(fp, &line, &cap, RT_POINTS_CSV_LINE_MAX, &len, &ended) > 0 &&
	    !header_map(line, "", col, &ncol, &ignored) && col[RT_COL_SCOPE] >= 0 &&
	    rt_read_line(fp, &line, &cap, RT_POINTS_CSV_LINE_MAX, &len, &ended) > 0 &&
	    csv_split(line, f, CSV_COLS_MAX) == ncol)
		cmd = scope_is_command(f[col[RT_COL_SCOPE]]);
	free(line);
	return cmd;
}

void rt_points_file_free(struct rt_points_file *f)
{
	free(f->pts);
	free(f->runs);
	memset(f, 0, sizeof(*f));
}

int rt_points_csv_read(const char *path, struct rt_point **pts, size_t *n, struct rt_err *err)
{
	struct rt_points_file f;
	FILE *fp;
	int rc;

	*pts = NULL;
	*n = 0;
	if ((rc = rt_check_regular(path, err)))
		return rc;
	fp = fopen(path, "re");
	if (!fp)
		return errno == ENOENT ? 0 : rt_err_set(err, -errno, "%s: %s", path, strerror(errno));
	rc = rt_points_csv_load(fp, path, false, &f, err);
	fclose(fp);
	if (!rc) {
		*pts = f.pts;
		*n = f.n;
		free(f.runs);
	}
	return rc;
}

int rt_points_csv_upgrade(const char *path, struct rt_err *err)
{
	struct rt_outfile of;
	char *line = NULL;
	size_t cap = 0, len;
	bool ended, open = false;
	int rc, r, lineno = 0, ncol = 0, col[RT_COL_COUNT];
	FILE *fp;

	if ((rc = rt_check_regular(path, err)))
		return rc;
	if (!(fp = fopen(path, "re")))
		return errno == ENOENT ? 0 : rt_err_set(err, -errno, "%s: %s", path, strerror(errno));
	while ((r = rt_read_line(fp, &line, &cap, RT_POINTS_CSV_LINE_MAX, &len, &ended)) > 0) {
		char *fld[CSV_COLS_MAX + 1];
		const char *v[RT_COL_COUNT];

		lineno++;
		if (len && line[len - 1] == '\r')
			line[--len] = '\0';
		if (lineno == 1) {
			if ((rc = header_map(line, path, col, &ncol, err)) ||
			    ncol == RT_COL_COUNT || (rc = rt_outfile_open(&of, path, err)))
				break;                  /* not read, or today's already */
			open = true;
			rt_points_csv_header(of.fp);
			continue;
		}
		if (!*line)
			continue;
		if (!ended || csv_split(line, fld, CSV_COLS_MAX) != ncol) {
			rc = rt_err_set(err, -EINVAL, "%s:%d: %s", path, lineno, ended ? "not a row "
					"of its header's columns" : "cut short (no line end)");
			break;
		}
		for (int k = 0; k < RT_COL_COUNT; k++)
			v[k] = col[k] >= 0 ? fld[col[k]] : NULL;
		rt_points_csv_put(of.fp, v);
	}
	if (!rc && r < 0)
		rc = rt_err_set(err, r, "%s:%d: %s", path, lineno + 1, r == -E2BIG ? "a line too "
				"long for a row" : "cannot read");
	free(line);
	fclose(fp);
	if (open && rc)
		rt_outfile_abort(&of);
	else if (open)
		rc = rt_outfile_commit(&of, err);
	return rc;
}

bool rt_points_config_complete(const struct rt_point *pts, size_t n, const char *config)
{
	for (size_t i = n; i-- > 0; )
		if (!strcmp(pts[i].config, config))
			return pts[i].scope == RT_SCOPE_ITERATION && pts[i].stat == RT_STAT_MEDIAN;
	return false;
}

static int block_rank(const struct rt_point *p)
{
	if (p->scope != RT_SCOPE_ITERATION || p->stat != RT_STAT_MEDIAN)
		return 0;
	return p->source == RT_SOURCE_MODEL ? 2 : 1;
}

void rt_points_order_block(struct rt_point *pts, size_t n)
{
	/* a stable partition by rank: few rows, insertion is enough */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && block_rank(&pts[j - 1]) > block_rank(&pts[j]); j--) {
			struct rt_point t = pts[j - 1];

			pts[j - 1] = pts[j];
			pts[j] = t;
		}
}
