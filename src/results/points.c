/* points.c: points.csv's rows (a sweep's points, roofline-run's rows): their arithmetic, the
 * verdict on a speedup and its sentence, and points.csv, written by one writer so that pandas
 * and gnuplot read it as is, and read back by one reader with every number and name checked */
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

const char *const rt_point_scopes[RT_SCOPE_COUNT] = { "iteration", "phase", "layer", "run",
							"onednn", "kind", "primitive" };
const char *const rt_point_stats[RT_STAT_COUNT] = { "median", "min", "max" };
const char *const rt_point_statuses[RT_STATUS_COUNT] = { "ok", "failed", "fused", "disturbed" };

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

/* The first of ix's rows of config, scope, name and stat (ix->n: none, or where they would be) */
static size_t index_first(const struct rt_points_index *ix, const char *config,
			  enum rt_scope scope, const char *name, enum rt_stat stat)
{
	size_t lo = 0, hi = ix->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_key(ix->v[mid], config, scope, name, stat) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct rt_point *rt_points_index_find(const struct rt_points_index *ix, const char *config,
					    enum rt_scope scope, const char *name,
					    enum rt_stat stat, enum rt_status status)
{
	for (size_t i = index_first(ix, config, scope, name, stat);
	     i < ix->n && !cmp_key(ix->v[i], config, scope, name, stat); i++)
		if (status == RT_STATUS_COUNT || ix->v[i]->status == status)
			return ix->v[i];
	return NULL;
}

const struct rt_point *rt_points_stat_of(const struct rt_points_index *ix,
					 const struct rt_point *pts, size_t n,
					 const struct rt_point *like, enum rt_stat stat)
{
	if (ix) {
		for (size_t i = index_first(ix, like->config, like->scope, like->name, stat);
		     i < ix->n && !cmp_key(ix->v[i], like->config, like->scope, like->name, stat);
		     i++)
			if (ix->v[i]->source == like->source && ix->v[i]->status == like->status)
				return ix->v[i];
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
	return rt_vocab_index(rt_point_scopes, RT_SCOPE_COUNT, scope) >= RT_SCOPE_RUN;
}

/* The columns of one tool's alone (bit k: column k): a row of the other leaves them empty. */
#define COL(k) (1ULL << (k))
_Static_assert(RT_COL_COUNT < 64, "a column is a bit of a 64-bit mask");
static const unsigned long long trainer_cols =
	COL(RT_COL_BATCH) | COL(RT_COL_AFFINITY) | COL(RT_COL_RANKS) | COL(RT_COL_STAT) |
	COL(RT_COL_WEIGHTS) | COL(RT_COL_ACTIVATIONS) | COL(RT_COL_GRADIENTS) |
	COL(RT_COL_OPTIMIZER) | COL(RT_COL_WORKSPACE) | COL(RT_COL_PEAK_RSS) |
	COL(RT_COL_INPUT_H) | COL(RT_COL_INPUT_W) | COL(RT_COL_WEIGHT_GRADIENTS) |
	COL(RT_COL_ACTIVATION_GRADIENTS) | COL(RT_COL_INFERENCE) | COL(RT_COL_PROCESSES) |
	COL(RT_COL_CPU_SHARE) | COL(RT_COL_BYTES_SOURCE);
static const unsigned long long command_cols = (COL(RT_COL_COUNT) - 1) &
					       ~(COL(RT_COL_BYTES_SOURCE + 1) - 1);

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
	const bool cmd = p->scope >= RT_SCOPE_RUN, ran = p->status != RT_STATUS_FAILED;
	const bool counted = ran && p->source != RT_SOURCE_NONE;
	/* each number where it applies; the trainer's as it always wrote them (its times to 9
	 * digits, its rates to 6, bytes whole), a command's to 17 */
	const struct {
		enum rt_points_col k;
		double x;
		bool have;
		const char *fmt;
	} num[] = {
		{ RT_COL_THREADS, p->threads, p->threads > 0, "%.0f" },
		{ RT_COL_BATCH, (double)p->batch, true, "%.0f" },
		{ RT_COL_RANKS, p->ranks, true, "%.0f" },
		{ RT_COL_SECONDS, p->seconds, !cmd || ran, "%.9g" },
		{ RT_COL_FLOPS, p->flops, !cmd || counted, "%.17g" },
		{ RT_COL_BYTES, p->bytes, !cmd || counted, "%.17g" },
		{ RT_COL_INTENSITY, !cmd ? p->intensity : p->bytes > 0 ? p->flops / p->bytes : NAN,
		  !cmd || (counted && p->flops > 0), "%.6g" },
		{ RT_COL_GFLOPS, !cmd ? p->gflops : p->seconds > 0 ? p->flops / p->seconds / 1e9 :
		  NAN, !cmd || counted, "%.6g" },
		{ RT_COL_IMAGES_PER_S, p->images_per_s, !cmd || (ran && p->images_per_s > 0),
		  "%.6g" },
		{ RT_COL_WEIGHTS, p->weights, true, "%.0f" },
		{ RT_COL_ACTIVATIONS, p->activations, true, "%.0f" },
		{ RT_COL_GRADIENTS, p->gradients, true, "%.0f" },
		{ RT_COL_OPTIMIZER, p->optimizer, true, "%.0f" },
		{ RT_COL_WORKSPACE, p->workspace, true, "%.0f" },
		{ RT_COL_PEAK_RSS, p->peak_rss, true, "%.0f" },
		{ RT_COL_INPUT_H, (double)p->input_h, true, "%.0f" },
		{ RT_COL_INPUT_W, (double)p->input_w, true, "%.0f" },
		{ RT_COL_WEIGHT_GRADIENTS, p->weight_gradients, true, "%.0f" },
		{ RT_COL_ACTIVATION_GRADIENTS, p->activation_gradients, true, "%.0f" },
		{ RT_COL_INFERENCE, p->inference, true, "%.0f" },
		{ RT_COL_PROCESSES, p->processes, p->processes > 0, "%.0f" },
		{ RT_COL_CPU_SHARE, p->cpu_share, true, "%.3f" },
		{ RT_COL_REP, p->rep, true, NULL },
		{ RT_COL_CALLS, (double)p->calls, true, NULL },
		{ RT_COL_RANK, p->rank, p->rank >= 0, NULL },
		{ RT_COL_SHARE, p->share, ran, NULL },
		{ RT_COL_WALL_SECONDS, p->wall, ran, NULL },
		{ RT_COL_ONEDNN_SECONDS, p->onednn, ran, NULL },
		{ RT_COL_COVERAGE, p->coverage, ran, NULL },
		{ RT_COL_STARTUP_SECONDS, p->startup, ran && !isnan(p->window), NULL },
		{ RT_COL_WINDOW_SECONDS, p->window, ran && !isnan(p->startup), NULL },
	};
	const unsigned long long other = cmd ? trainer_cols : command_cols;
	const char *v[RT_COL_COUNT] = { NULL }, *name = p->long_name ? p->long_name : p->name;
	char nb[sizeof(num) / sizeof(num[0])][48];
	struct rt_buf cut;

	rt_buf_init(&cut);
	if (strlen(name) > RT_POINTS_CSV_NAME_MAX) {
		rt_buf_add(&cut, name, RT_POINTS_CSV_NAME_MAX - 3);
		rt_buf_puts(&cut, "...");
		name = cut.failed ? "..." : cut.s;
	}
	v[RT_COL_CONFIG] = p->config, v[RT_COL_SCOPE] = rt_point_scope_name(p);
	v[RT_COL_NAME] = name, v[RT_COL_STAT] = rt_point_stat_name(p);
	v[RT_COL_AFFINITY] = rt_point_affinity_name(p);
	/* a command's math is its kind and primitive rows' */
	v[RT_COL_PRECISION] = !cmd || p->scope >= RT_SCOPE_KIND ? rt_precision_name(p->precision) :
			      NULL;
	v[RT_COL_SOURCE] = !cmd || ran ? rt_point_source_name(p) : NULL;
	v[RT_COL_BYTES_SOURCE] = rt_point_bytes_source_name(p);
	v[RT_COL_STATUS] = rt_point_status_name(p);
	v[RT_COL_REASON] = p->reason, v[RT_COL_IMPL] = p->impl, v[RT_COL_KIND] = p->kind;
	v[RT_COL_PROP] = p->prop, v[RT_COL_DTYPE] = p->dtype, v[RT_COL_LOG] = p->log;
	for (size_t i = 0; i < sizeof(num) / sizeof(num[0]); i++)
		if (num[i].have && isfinite(num[i].x) && !(other & COL(num[i].k))) {
			snprintf(nb[i], sizeof(nb[i]), cmd ? "%.17g" : num[i].fmt, num[i].x);
			v[num[i].k] = nb[i];
		}
	for (int k = 0; k < RT_COL_COUNT; k++)
		if (other & COL(k))
			v[k] = NULL;
	rt_points_csv_put(fp, v);
	rt_buf_fini(&cut);
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

/* The reader's place, for its messages; where each of today's columns is in its file (-1: a
 * file of an earlier rooftraj, without it); the row's fields by column ("" where the file has
 * no such column). */
struct csv_at {
	const char *path;
	int line;
	struct rt_err *err;
	int col[RT_COL_COUNT];
	const char *g[RT_COL_COUNT];
};

static int bad_field(const struct csv_at *at, const char *column, const char *value,
		     const char *why)
{
	return rt_err_set(at->err, -EINVAL, "%s:%d: %s '%.60s' %s", at->path, at->line, column,
			  value, why);
}

/* column k's field is not right: why */
static int bad(const struct csv_at *at, int k, const char *why)
{
	return bad_field(at, rt_points_col_names[k], at->g[k], why);
}

static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

/* Column k a whole number in min..max. */
static int csv_ulong(const struct csv_at *at, int k, unsigned long min, unsigned long max,
		     unsigned long *out)
{
	const char *s = at->g[k];
	char *end;
	unsigned long v;

	errno = 0;
	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return bad(at, k, "is not a whole number");
	v = strtoul(s, &end, 10);
	if (*end || errno)
		return bad(at, k, "is not a whole number");
	if (v < min || v > max) {
		char why[64];

		snprintf(why, sizeof(why), "is not in %lu..%lu", min, max);
		return bad(at, k, why);
	}
	*out = v;
	return 0;
}

/* Column k a finite number >= 0; NAN where it is empty and need not be set. */
static int csv_double(const struct csv_at *at, int k, bool required, double *out)
{
	const char *s = at->g[k];
	char *end;
	double v;

	*out = NAN;
	if (!*s && !required)
		return 0;
	errno = 0;
	if (!*s || *s == ' ')
		return bad(at, k, "is not a number");
	v = strtod(s, &end);
	if (*end || errno == ERANGE)
		return bad(at, k, "is not a number");
	if (!isfinite(v) || v < 0)
		return bad(at, k, "is not a finite number >= 0");
	*out = v;
	return 0;
}

/* Column k one of a closed list of names: its index. */
static int csv_name(const struct csv_at *at, int k, const char *const *names, int n,
		    unsigned *out)
{
	int i = rt_vocab_index(names, n, at->g[k]);

	if (i < 0)
		return bad(at, k, "is not a known value");
	*out = (unsigned)i;
	return 0;
}

/* Column k free text (no control characters) that fits buf (buf NULL: of any length, not
 * kept). */
static int csv_text(const struct csv_at *at, int k, bool empty_ok, char *buf, size_t size)
{
	const char *s = at->g[k];

	if ((!empty_ok && !*s) || has_control(s) || (buf && strlen(s) >= size))
		return bad(at, k, !*s ? "is empty" : has_control(s) ? "holds a control character" :
			   "is too long");
	if (buf)
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

/* A source of the trainer's: hw, hw-estimate, model. */
static bool trainer_source(int i)
{
	return i > RT_SOURCE_NONE && i < RT_SOURCE_ONEDNN_LOG;
}

#define TRY(x) do { if ((rc = (x))) return rc; } while (0)

/* The trainer's own columns of its row p: every one its file has set (an earlier file's
 * gradients' split, processes and cpu_share may be empty: not recorded), a measured row's
 * seconds > 0, its derived columns what its others give. */
static int trainer_row(const struct csv_at *at, struct rt_point *p, const double stored[3])
{
	const char *const *g = at->g;
	unsigned long v;
	unsigned e = 0;
	int rc;

	TRY(csv_ulong(at, RT_COL_BATCH, 1, 1L << 30, &v));
	p->batch = (long)v;
	TRY(csv_name(at, RT_COL_AFFINITY, rt_vocab_affinities, RT_AFFINITY_COUNT, &e));
	p->affinity = (enum rt_affinity)e;
	TRY(csv_ulong(at, RT_COL_RANKS, 1, 1 << 24, &v));
	p->ranks = (unsigned)v;
	TRY(csv_name(at, RT_COL_STAT, rt_point_stats, RT_STAT_COUNT, &e));
	p->stat = (enum rt_stat)e;
	TRY(csv_double(at, RT_COL_WEIGHTS, true, &p->weights));
	TRY(csv_double(at, RT_COL_ACTIVATIONS, true, &p->activations));
	TRY(csv_double(at, RT_COL_GRADIENTS, true, &p->gradients));
	TRY(csv_double(at, RT_COL_OPTIMIZER, true, &p->optimizer));
	TRY(csv_double(at, RT_COL_WORKSPACE, true, &p->workspace));
	TRY(csv_double(at, RT_COL_PEAK_RSS, true, &p->peak_rss));
	if (at->col[RT_COL_INPUT_H] >= 0) {
		TRY(csv_ulong(at, RT_COL_INPUT_H, 0, 1 << 20, &v));
		p->input_h = (long)v;
		TRY(csv_ulong(at, RT_COL_INPUT_W, 0, 1 << 20, &v));
		p->input_w = (long)v;
	}
	/* empty: not recorded */
	TRY(csv_double(at, RT_COL_WEIGHT_GRADIENTS, false, &p->weight_gradients));
	TRY(csv_double(at, RT_COL_ACTIVATION_GRADIENTS, false, &p->activation_gradients));
	TRY(csv_double(at, RT_COL_INFERENCE, false, &p->inference));
	if (!isnan(p->weight_gradients) && !isnan(p->activation_gradients) &&
	    p->weight_gradients + p->activation_gradients != p->gradients)
		return bad(at, RT_COL_GRADIENTS, "is not weight_gradients + activation_gradients");
	if (*g[RT_COL_PROCESSES]) {
		TRY(csv_ulong(at, RT_COL_PROCESSES, 1, 1000, &v));
		p->processes = (unsigned)v;
	}
	TRY(csv_double(at, RT_COL_CPU_SHARE, false, &p->cpu_share));
	if (p->cpu_share > 2)
		return bad(at, RT_COL_CPU_SHARE, "is not a share (0..2)");
	/* the bytes' source: as the FLOPs' in a file without the column; none where the
	 * FLOPs have none (a failed configuration) */
	p->bytes_source = p->source;
	if (at->col[RT_COL_BYTES_SOURCE] >= 0 &&
	    (*g[RT_COL_BYTES_SOURCE] || p->source != RT_SOURCE_NONE)) {
		const int i = rt_vocab_index(rt_vocab_sources, RT_SOURCE_COUNT,
					     g[RT_COL_BYTES_SOURCE]);

		if (!trainer_source(i))
			return bad(at, RT_COL_BYTES_SOURCE, "is not a known value");
		p->bytes_source = (enum rt_source)i;
		if (p->source == RT_SOURCE_NONE)
			return bad(at, RT_COL_BYTES_SOURCE, "is set in a row without a source");
	}
	if ((p->status == RT_STATUS_OK || p->status == RT_STATUS_DISTURBED) && !(p->seconds > 0))
		return bad(at, RT_COL_SECONDS, "is not > 0 in a measured row");
	rt_point_derive(p);
	TRY(csv_derived(at, "intensity", stored[0], p->intensity));
	TRY(csv_derived(at, "gflops", stored[1], p->gflops));
	TRY(csv_derived(at, "images_per_s", stored[2], p->images_per_s));
	return 0;
}

/* roofline-run's own columns of its row p (rt_points_csv_row wrote it): a run's name one of
 * the three, its log a file of onednn/, its numbers where set, its rates what its other
 * columns give, a run that ran with its wall time, its work window inside it. */
static int command_row(const struct csv_at *at, struct rt_point *p, const double stored[3])
{
	static const char *const run_names[] = { "command", "command without the log",
						  "command without the log, confirming" };
	const char *const *g = at->g;
	unsigned long v;
	int rc;

	if (p->scope == RT_SCOPE_RUN && rt_vocab_index(run_names, 3, g[RT_COL_NAME]) < 0)
		return bad(at, RT_COL_NAME, "is not a run's (command, command without the log, "
			   "command without the log, confirming)");
	if (p->status == RT_STATUS_FUSED)
		return bad(at, RT_COL_STATUS, "is not a command's (ok, disturbed, failed)");
	TRY(csv_text(at, RT_COL_KIND, true, p->kind, sizeof(p->kind)));
	TRY(csv_text(at, RT_COL_PROP, true, p->prop, sizeof(p->prop)));
	TRY(csv_text(at, RT_COL_DTYPE, true, p->dtype, sizeof(p->dtype)));
	TRY(csv_text(at, RT_COL_LOG, true, p->log, sizeof(p->log)));
	if (*p->log && (strncmp(p->log, "onednn/", 7) || strchr(p->log + 7, '/') ||
			strstr(p->log, "..")))
		return bad(at, RT_COL_LOG, "is not a file of onednn/");
	TRY(csv_ulong(at, RT_COL_REP, 1, RT_CLI_REPEAT_MAX, &v));
	p->rep = (unsigned)v;
	if (*g[RT_COL_RANK]) {
		TRY(csv_ulong(at, RT_COL_RANK, 0, 1 << 24, &v));
		p->rank = (int)v;
	}
	if (*g[RT_COL_CALLS])
		TRY(csv_ulong(at, RT_COL_CALLS, 0, ULONG_MAX - 1, &p->calls));
	TRY(csv_double(at, RT_COL_SHARE, false, &p->share));
	TRY(csv_double(at, RT_COL_WALL_SECONDS, false, &p->wall));
	TRY(csv_double(at, RT_COL_ONEDNN_SECONDS, false, &p->onednn));
	TRY(csv_double(at, RT_COL_COVERAGE, false, &p->coverage));
	TRY(csv_double(at, RT_COL_STARTUP_SECONDS, false, &p->startup));
	TRY(csv_double(at, RT_COL_WINDOW_SECONDS, false, &p->window));
	if (!isnan(stored[1]) && p->seconds > 0)
		TRY(csv_derived(at, "gflops", stored[1], p->flops / p->seconds / 1e9));
	if (!isnan(stored[0]) && p->bytes > 0)
		TRY(csv_derived(at, "intensity", stored[0], p->flops / p->bytes));
	if (p->scope == RT_SCOPE_RUN && p->status != RT_STATUS_FAILED && isnan(p->wall))
		return bad(at, RT_COL_WALL_SECONDS, "is not set in a run that ran");
	if (!isnan(p->startup) && !(p->startup <= p->wall))
		return bad(at, RT_COL_STARTUP_SECONDS, "is not within the run's wall_seconds");
	if (!isnan(p->window) && !(p->window + (isnan(p->startup) ? 0 : p->startup) <=
				   p->wall * (1 + 1e-12)))
		return bad(at, RT_COL_WINDOW_SECONDS, "is not within the run's wall_seconds after "
			   "its startup_seconds");
	return 0;
}

/* One row of either tool (f: its fields) into p, checked by its tool's rules (its scope says
 * which): the columns both have, each name known and each number finite and >= 0 (the
 * trainer's all set; a command's where they apply), the other tool's columns empty, then the
 * tool's own (trainer_row, command_row). */
static int parse_row(struct csv_at *at, char **f, struct rt_point *p)
{
	const char *const *g = at->g;
	double stored[3];
	unsigned long v;
	unsigned e = 0;
	bool cmd;
	int rc;

	for (int k = 0; k < RT_COL_COUNT; k++)  /* a column the file lacks: empty */
		at->g[k] = at->col[k] >= 0 ? f[at->col[k]] : "";
	cmd = scope_is_command(g[RT_COL_SCOPE]);
	memset(p, 0, sizeof(*p));
	p->line = at->line;
	p->rank = -1;
	p->weight_gradients = p->activation_gradients = p->inference = p->cpu_share = NAN;
	TRY(csv_text(at, RT_COL_CONFIG, false, p->config, cmd ? sizeof(p->config) : 64));
	if (!cmd || *g[RT_COL_THREADS]) {       /* a command's empty: the runtime's choice */
		TRY(csv_ulong(at, RT_COL_THREADS, 1, 1 << 20, &v));
		p->threads = (unsigned)v;
	}
	/* of a command's math: empty (a run's) or unknown where the log does not tell */
	p->precision = rt_precision_of(g[RT_COL_PRECISION]);
	if (!cmd ? !rt_precision_trains(p->precision) : p->precision == RT_PRECISION_COUNT &&
	    *g[RT_COL_PRECISION] && strcmp(g[RT_COL_PRECISION], "unknown"))
		return bad(at, RT_COL_PRECISION, "is not a known value");
	TRY(csv_name(at, RT_COL_SCOPE, rt_point_scopes, RT_SCOPE_COUNT, &e));
	p->scope = (enum rt_scope)e;
	/* a command's of any length (a primitive's problem): its first characters kept */
	TRY(csv_text(at, RT_COL_NAME, false, cmd ? NULL : p->name, sizeof(p->name)));
	snprintf(p->name, sizeof(p->name), "%s", g[RT_COL_NAME]);
	TRY(csv_double(at, RT_COL_SECONDS, !cmd, &p->seconds));
	TRY(csv_double(at, RT_COL_FLOPS, !cmd, &p->flops));
	TRY(csv_double(at, RT_COL_BYTES, !cmd, &p->bytes));
	TRY(csv_name(at, RT_COL_STATUS, rt_point_statuses, RT_STATUS_COUNT, &e));
	p->status = (enum rt_status)e;
	/* a trainer's failed configuration measured nothing: it has no source ("none" is not a
	 * word of the file: it is written empty); a command's row has one where counted */
	if (*g[RT_COL_SOURCE] || (!cmd && p->status == RT_STATUS_OK)) {
		const int i = rt_vocab_index(rt_vocab_sources, RT_SOURCE_COUNT,
					     g[RT_COL_SOURCE]);

		if (cmd ? i != RT_SOURCE_ONEDNN_LOG : !trainer_source(i))
			return bad(at, RT_COL_SOURCE, cmd ? "is not a command's (onednn-log)" :
				   "is not a known value");
		p->source = (enum rt_source)i;
	}
	TRY(csv_double(at, RT_COL_INTENSITY, !cmd, &stored[0]));
	TRY(csv_double(at, RT_COL_GFLOPS, !cmd, &stored[1]));
	TRY(csv_double(at, RT_COL_IMAGES_PER_S, !cmd, &stored[2]));
	if (cmd)                                /* a command's own, not derived */
		p->images_per_s = stored[2];
	TRY(csv_text(at, RT_COL_REASON, true, p->reason, sizeof(p->reason)));
	TRY(csv_text(at, RT_COL_IMPL, true, p->impl, sizeof(p->impl)));
	for (int k = 0; k < RT_COL_COUNT; k++)
		if (*g[k] && ((cmd ? trainer_cols : command_cols) & COL(k)))
			return bad(at, k, cmd ? "is set in a row of roofline-run's (a column of "
				   "roofline-train's)" : "is set in a row of roofline-train's (a "
				   "column of roofline-run's)");
	return cmd ? command_row(at, p, stored) : trainer_row(at, p, stored);
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

static int cmp_row(const void *a, const void *b)
{
	const struct rt_point *x = *(const struct rt_point *const *)a,
			      *y = *(const struct rt_point *const *)b;
	int c = cmp_identity(x, y);

	return c ? c : x->line - y->line;
}

/* -EINVAL naming both lines when two rows describe the same measurement. */
static int check_duplicates(const char *path, const struct rt_point *pts, size_t n,
			    struct rt_err *err)
{
	const struct rt_point **r = calloc(n ? n : 1, sizeof(*r));
	int rc = 0;

	if (!r)
		return rt_err_set(err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		r[i] = &pts[i];
	qsort(r, n, sizeof(*r), cmp_row);
	for (size_t i = 1; i < n && !rc; i++)
		if (!cmp_identity(r[i - 1], r[i]))
			rc = rt_err_set(err, -EINVAL, "%s:%d: the same configuration, scope, name and "
					"statistic as line %d ('%s', %s %s, %s)", path, r[i]->line,
					r[i - 1]->line, r[i]->config, rt_point_scope_name(r[i]),
					r[i]->name, rt_point_stat_name(r[i]));
	free(r);
	return rc;
}

int rt_points_csv_load(FILE *fp, const char *name, bool allow_cut, struct rt_points_file *f,
		       struct rt_err *err)
{
	struct csv_at at = { .path = name, .line = 0, .err = err };
	char *line = NULL;
	size_t linecap = 0, cap = 0, len;
	int rc = 0, r, first_command = 0;
	bool blank_seen = false, ended;

	memset(f, 0, sizeof(*f));
	f->columns = RT_COL_COUNT;
	while ((r = rt_read_line(fp, &line, &linecap, RT_POINTS_CSV_LINE_MAX, &len, &ended)) > 0 ||
	       r == -E2BIG) {
		char *fld[CSV_COLS_MAX + 1], *text = line;
		const char *scope;
		bool cmd;
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
		/* a file is one tool's */
		scope = at.col[RT_COL_SCOPE] >= 0 ? fld[at.col[RT_COL_SCOPE]] : "";
		cmd = scope_is_command(scope);
		if (cmd && f->n && !f->command_rows) {
			rc = rt_err_set(err, -EINVAL, "%s:%d: scope '%s' is roofline-run's, line %d's "
					"roofline-train's (a file holds one tool's rows)", name,
					at.line, scope, f->pts[0].line);
			break;
		}
		if (!cmd && f->command_rows) {
			rc = rt_err_set(err, -EINVAL, "%s:%d: a row of roofline-train's, line %d's "
					"scope is roofline-run's (a file holds one tool's rows)", name,
					at.line, first_command);
			break;
		}
		if (!cmd && at.col[RT_COL_BATCH] < 0) { /* an earlier roofline-run's header */
			rc = rt_err_set(err, -EINVAL, "%s:%d: scope '%s' is not one of roofline-run's "
					"(run, onednn, kind, primitive), whose columns the file has",
					name, at.line, scope);
			break;
		}
		if (f->n == cap) {
			size_t ncap = cap ? 2 * cap : 64;
			struct rt_point *q = realloc(f->pts, ncap * sizeof(*f->pts));

			if (!q) {
				rc = rt_err_set(err, -ENOMEM, "out of memory");
				break;
			}
			f->pts = q;
			cap = ncap;
		}
		if ((rc = parse_row(&at, fld, &f->pts[f->n])))
			break;
		if (cmd && !f->command_rows++)
			first_command = at.line;
		/* of the command's, its run rows kept (its others come again from its logs) */
		if (!cmd || f->pts[f->n].scope == RT_SCOPE_RUN)
			f->n++;
	}
	if (!rc && r == -ENOMEM)
		rc = rt_err_set(err, -ENOMEM, "out of memory");
	else if (!rc && r == -EIO)
		rc = rt_err_set(err, -EIO, "%s: read failed: %s", name, strerror(errno));
	free(line);
	if (!rc && !f->command_rows)
		rc = check_duplicates(name, f->pts, f->n, err);
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
	if (!rc && f.command_rows)      /* checked, not a sweep's points */
		rt_points_file_free(&f);
	if (!rc) {
		*pts = f.pts;
		*n = f.n;
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
