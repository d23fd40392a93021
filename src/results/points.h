/* points.h: a row of points.csv (struct rt_point: a training sweep's point, a configuration x
 * scope x statistic, or a row of roofline-run's), its arithmetic (intensity, GFLOP/s, images/s),
 * the headline filter, the verdict on a speedup and its sentence for every tool, and points.csv
 * written and read, one writer and one reader for both tools, with every number and name
 * checked (FILE:LINE on the first that is not right) */
#ifndef RT_POINTS_H
#define RT_POINTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "base/err.h"
#include "base/vocab.h"

/* What a row measures, and how; each with its name table (the CSV's words). The trainer's
 * scopes: the whole iteration, a phase, a layer. roofline-run's: a process of the user's
 * command (run: name "command", or "command without the log" and "command without the log,
 * confirming" for the runs without oneDNN's log), or what that log held (onednn: every
 * primitive together; kind: each kind and direction; primitive: each distinct one). */
enum rt_scope { RT_SCOPE_ITERATION, RT_SCOPE_PHASE, RT_SCOPE_LAYER,
		RT_SCOPE_RUN, RT_SCOPE_ONEDNN, RT_SCOPE_KIND, RT_SCOPE_PRIMITIVE, RT_SCOPE_COUNT };
/* iteration phase layer run onednn kind primitive */
extern const char *const rt_point_scopes[RT_SCOPE_COUNT];
enum rt_stat { RT_STAT_MEDIAN, RT_STAT_MIN, RT_STAT_MAX, RT_STAT_COUNT };
extern const char *const rt_point_stats[RT_STAT_COUNT];          /* median min max */
/* ok: measured; failed: the configuration did not run (reason says why); fused: a layer run
 * inside another's primitive, no rate of its own (reason says where); disturbed: measured,
 * but its runs did not get their cores (another process, a CPU quota: reason says which and
 * by how much), so never a best configuration, a reference or a trajectory point */
enum rt_status { RT_STATUS_OK, RT_STATUS_FAILED, RT_STATUS_FUSED, RT_STATUS_DISTURBED,
		 RT_STATUS_COUNT };
extern const char *const rt_point_statuses[RT_STATUS_COUNT];     /* ok failed fused disturbed */

/* A row of points.csv, of either tool: the trainer's columns, then roofline-run's, each
 * written where the row's tool has it (its scope says which) and empty elsewhere. */
struct rt_point {
	char config[200];               /* the trainer's: at most 63 characters */
	unsigned threads;               /* a command's 0: the runtime's choice */
	long batch;
	enum rt_affinity affinity;
	enum rt_precision precision;    /* a command's kind and primitive rows': of the math
					 * (RT_PRECISION_COUNT: unknown) */
	unsigned ranks;
	enum rt_scope scope;
	char name[160];                 /* iteration; forward, backward, update; a layer's name
					 * ("conv1+relu1": a host and the layer fused into it); a
					 * run's; a command's other rows' (their first 159
					 * characters when read) */
	const char *long_name;          /* a command's row written: its name where it does not
					 * fit name (a primitive's problem, any length), borrowed;
					 * NULL: name */
	enum rt_stat stat;              /* over the repetitions */
	double seconds, flops, bytes;   /* per iteration; a command's: its row's, NAN: none */
	enum rt_source source;          /* of the FLOPs; none (written empty) for a failed
					 * configuration; a command's onednn-log where its FLOPs
					 * and bytes are counted from oneDNN's log */
	double intensity, gflops, images_per_s;        /* derived (a command's images/s: its
							 * own, NAN: none) */
	double weights, activations, gradients, optimizer, workspace, peak_rss;   /* bytes */
	enum rt_status status;          /* a command's: ok, disturbed (a run that lost its
					 * CPUs), failed */
	char reason[640];
	char impl[64];                  /* oneDNN's implementation of the heaviest layer (a
					 * command's primitive's) */
	long input_h, input_w;          /* the input's height and width (0: not recorded) */
	/* gradients split into the weights' and the activations' (their sum); the bytes a
	 * forward-only pass needs (struct rt_net_memory.inference). NAN: not recorded (a
	 * points.csv of rooftraj 0.2 or earlier); written as an empty field. */
	double weight_gradients, activation_gradients, inference;
	/* the fresh processes the statistic is over (0: not recorded; 1: the repetitions
	 * inside one process), and the lowest share of their cores' time the runs got
	 * (CPU time over threads x wall time; NAN: not recorded) */
	unsigned processes;
	double cpu_share;
	enum rt_source bytes_source;    /* of the bytes: hw (DRAM traffic counted), hw-estimate
					 * (counted, scaled), model; none: as the FLOPs' (so
					 * written; a file without the column reads so) */
	/* roofline-run's own: a kind and primitive row's kind, direction, data type; the raw
	 * log a row was counted from (a file of the directory's onednn/); the repetition
	 * (1..RT_CLI_REPEAT_MAX); the rank under a launcher (-1: none); the primitives'
	 * executions; the row's share of oneDNN's time; a run's wall time, oneDNN's time in
	 * it, their ratio, and its work window (start-up, window; NAN: none). A number not
	 * written is NAN. */
	char kind[32], prop[24], dtype[12], log[64];
	unsigned rep;
	int rank;
	unsigned long calls;
	double share, wall, onednn, coverage, startup, window;
	int line;                       /* read: its line in the file */
	char run[64];                   /* not in the CSV: which results directory, for overlays */
};

/* Whether a point is a configuration's headline: the whole iteration, the median of the
 * repetitions, measured (status ok). */
bool rt_point_is_headline(const struct rt_point *p);

/* Whether a point is a configuration's measurement, undisturbed or not: the whole iteration,
 * the median, status ok or disturbed. The charts draw these (a disturbed one marked as such);
 * only headlines are compared. */
bool rt_point_is_measured(const struct rt_point *p);

/* The threads a point's work ran on: threads per rank x ranks (its counts are the job's).
 * The roofs a point is held against are those of this many threads. */
unsigned rt_point_threads(const struct rt_point *p);

/* The CSV's words for a point's fields. */
const char *rt_point_scope_name(const struct rt_point *p);
const char *rt_point_stat_name(const struct rt_point *p);
const char *rt_point_status_name(const struct rt_point *p);
const char *rt_point_source_name(const struct rt_point *p);     /* "" for none */
const char *rt_point_bytes_source_name(const struct rt_point *p);       /* none: source's */
/* Where a point's numbers came from, in words: "hw" when the FLOPs and the bytes share their
 * source, else "hw, bytes model" ("" for none). */
void rt_point_sources(const struct rt_point *p, char *buf, size_t size);
const char *rt_point_affinity_name(const struct rt_point *p);
const char *rt_point_precision_name(const struct rt_point *p);

/* The headline of config, or NULL. */
const struct rt_point *rt_points_headline(const struct rt_point *pts, size_t n,
					  const char *config);
/* The best configuration's headline: the most images/s among the configurations that do the
 * default's work (its input: a smaller image is not a speedup); NULL when none succeeded. */
const struct rt_point *rt_points_best(const struct rt_point *pts, size_t n,
				      const char *default_config);

/* The rows of a file sorted by their identity (configuration, scope, name, statistic,
 * source), for lookups in O(log n): readers of many configurations stay O(n log n). */
struct rt_points_index {
	const struct rt_point **v;
	size_t n;
};
int rt_points_index_build(struct rt_points_index *ix, const struct rt_point *pts, size_t n,
			  struct rt_err *err);
void rt_points_index_free(struct rt_points_index *ix);
/* The first row (in file order) of config, scope, name and stat whose status is `status`
 * (any when RT_STATUS_COUNT), or NULL. */
const struct rt_point *rt_points_index_find(const struct rt_points_index *ix, const char *config,
					    enum rt_scope scope, const char *name,
					    enum rt_stat stat, enum rt_status status);

/* A configuration's row of one scope, name, statistic and source (that of `like`), or NULL:
 * a headline's min and max rows (ix may be NULL: a scan). */
const struct rt_point *rt_points_stat_of(const struct rt_points_index *ix,
					 const struct rt_point *pts, size_t n,
					 const struct rt_point *like, enum rt_stat stat);

/* The one verdict on a speedup, for every tool: one measurement against another, each its
 * median and its range (lo..hi) over its runs, and how many runs made it. a is measurably
 * faster than b only when a's whole range is beyond b's (the ranges do not overlap); from one
 * run of either the spread is not known. higher: larger figures are faster (images/s), else
 * smaller ones (seconds). */
struct rt_spread {
	double median, lo, hi;
	unsigned runs;
};
enum rt_faster {                        /* in this order: >= RT_FASTER_UNKNOWN is a speedup */
	RT_FASTER_NO,                   /* not faster by its median: b as fast or faster */
	RT_FASTER_NOISE,                /* faster by its median, but the ranges overlap */
	RT_FASTER_UNKNOWN,              /* faster by its median from one run of either: the
					 * spread between runs is not known */
	RT_FASTER_YES,                  /* a's range beyond b's: measurably faster */
};
/* The spread of the figures v[0..n) (reordered: sorted ascending): their median, lowest and
 * highest, runs n; NAN each when n is 0. */
struct rt_spread rt_points_spread(double *v, size_t n);
/* Which of a configuration's runs its figures are made of: its undisturbed ones, or where
 * none was, its disturbed ones (the figures then disturbed; failed runs never). runs[0..n),
 * each `size` bytes, status(run) its status. Returns the status of the runs kept:
 * RT_STATUS_OK, or RT_STATUS_DISTURBED where no run was. */
enum rt_status rt_points_runs_kept(const void *runs, size_t n, size_t size,
				   enum rt_status (*status)(const void *run));
/* A configuration's rate over its runs, its headline h (an iteration median) doing `work`
 * in each (its batch: images/s; its FLOPs / 1e9: GFLOP/s): median as given, lo from its max
 * row (the slowest run), hi from its min row; runs 2 where they differ, else 1 (the rows do
 * not say how many runs made a range). */
struct rt_spread rt_points_rate_spread(const struct rt_point *pts, size_t n,
				       const struct rt_point *h, double work, double median);
/* The verdict on a against b; *ratio (may be NULL): a's speedup over b by their medians
 * (b's time over a's, or a's rate over b's), 0 where a median is not above 0 (no speedup). */
enum rt_faster rt_points_faster(const struct rt_spread *a, const struct rt_spread *b,
				bool higher, double *ratio);

/* The one verdict sentence of every tool: a configuration against the default, each its
 * figures over its runs, told apart from the noise by rt_points_faster. */
struct rt_verdict_side {
	const char *name;               /* the configuration (the best's NULL: the default is the
					 * fastest; the default's NULL: not named) */
	struct rt_spread s;             /* its figures (a range said where runs >= 2) */
	unsigned processes;             /* said with the range: over N fresh processes (1: one
					 * process; 0: not said) */
};
struct rt_verdict_say {
	struct rt_verdict_side best, def;
	bool higher;                    /* images/s (larger is faster), else seconds */
	bool alone;                     /* the default was the only configuration */
	const char *missing;            /* the default has no figures: why ("did not run") */
	const char *of;                 /* after the best's figures: what they are of, or NULL */
	const char *tail;               /* after the sentence, or NULL */
};
/* The verdict in words (one sentence, no trailing newline): the default the fastest, the best
 * measurably faster (outside both ranges), from one run of each, or not measurably faster.
 * Returns how best compared with the default (RT_FASTER_NO where nothing was compared). */
enum rt_faster rt_points_verdict_say(const struct rt_verdict_say *v, char *buf, size_t size);
/* A side's figures in words: "12.5 images/s (12.1..12.9 over 3 fresh processes)", "0.500 s". */
void rt_points_verdict_figure(const struct rt_verdict_side *s, bool higher, char *buf,
			      size_t size);

/* What a training sweep found: the best configuration against the default. A configuration's
 * range is its images/s over its runs (its min and max rows: fresh processes, or the runs of
 * one process under MPI). Disturbed configurations are never compared. */
enum rt_verdict_kind {
	RT_VERDICT_NONE,                /* no configuration measured undisturbed */
	RT_VERDICT_NO_DEFAULT,          /* the default has no undisturbed measurement */
	RT_VERDICT_DEFAULT_BEST,        /* no configuration beat the default */
	RT_VERDICT_FASTER,              /* the best's range is above the default's */
	RT_VERDICT_NOISE,               /* faster by its median, but the ranges overlap */
	RT_VERDICT_ONE_RUN,             /* one run each: the spread is not known */
};
struct rt_verdict {
	enum rt_verdict_kind kind;
	const struct rt_point *best, *def;      /* headlines (NULL when none) */
	struct rt_verdict_say say;      /* the sentence's figures (kind not NONE) */
	size_t disturbed;               /* configurations disturbed, not compared */
	bool alone;                     /* the points are of one configuration (-o DIR without
					 * --sweep): nothing to compare */
};
void rt_points_verdict(const struct rt_point *pts, size_t n, const char *default_config,
		       struct rt_verdict *v);
/* The verdict in words: rt_points_verdict_say's, or why nothing was compared. */
void rt_points_verdict_text(const struct rt_verdict *v, char *buf, size_t size);

/* intensity = flops / bytes (FLOP/byte), gflops = flops / seconds / 1e9, images/s =
 * batch / seconds for the iteration scope (0 elsewhere); 0 where a divisor is 0. */
void rt_point_derive(struct rt_point *p);

/* points.csv's columns: one list for both tools, each column's place and name. The trainer's
 * first (its rows fill them: config .. bytes_source), then the command's own (roofline-run's
 * rows: rep .. window_seconds); the columns both have (config, threads, precision, scope, name,
 * seconds, flops, bytes, gflops, intensity, source, status, reason, impl, images_per_s) are
 * the trainer's. Every row has every column, empty where its tool does not have it. */
enum rt_points_col {
	RT_COL_CONFIG, RT_COL_THREADS, RT_COL_BATCH, RT_COL_AFFINITY, RT_COL_PRECISION,
	RT_COL_RANKS, RT_COL_SCOPE, RT_COL_NAME, RT_COL_STAT, RT_COL_SECONDS, RT_COL_FLOPS,
	RT_COL_BYTES, RT_COL_SOURCE, RT_COL_INTENSITY, RT_COL_GFLOPS, RT_COL_IMAGES_PER_S,
	RT_COL_WEIGHTS, RT_COL_ACTIVATIONS, RT_COL_GRADIENTS, RT_COL_OPTIMIZER, RT_COL_WORKSPACE,
	RT_COL_PEAK_RSS, RT_COL_STATUS, RT_COL_REASON, RT_COL_IMPL, RT_COL_INPUT_H, RT_COL_INPUT_W,
	RT_COL_WEIGHT_GRADIENTS, RT_COL_ACTIVATION_GRADIENTS, RT_COL_INFERENCE, RT_COL_PROCESSES,
	RT_COL_CPU_SHARE, RT_COL_BYTES_SOURCE,
	RT_COL_REP, RT_COL_KIND, RT_COL_PROP, RT_COL_DTYPE, RT_COL_CALLS, RT_COL_SHARE,
	RT_COL_WALL_SECONDS, RT_COL_ONEDNN_SECONDS, RT_COL_COVERAGE, RT_COL_LOG, RT_COL_RANK,
	RT_COL_STARTUP_SECONDS, RT_COL_WINDOW_SECONDS,
	RT_COL_COUNT
};
extern const char *const rt_points_col_names[RT_COL_COUNT];
#define RT_POINTS_CSV_COLUMNS RT_COL_COUNT      /* today's: 46 */

/* A row is at most this long: a longer line is refused without being held in memory. */
#define RT_POINTS_CSV_LINE_MAX 65536
/* The longest name a command's row is written with: a row stays under the line's limit, its
 * name quoted whole (16 KiB doubled) beside its other fields. */
#define RT_POINTS_CSV_NAME_MAX 16384
/* points.csv: the header line; a row of either tool (fields quoted where needed), each
 * column where the row's tool has it, else empty: a command's numbers where they apply (the
 * times and shares of a row that ran, the FLOPs, bytes and their rates where counted), its
 * name past RT_POINTS_CSV_NAME_MAX characters cut to it, "..." ending it (the raw log it
 * was counted from holds it whole). */
void rt_points_csv_header(FILE *fp);
void rt_points_csv_row(FILE *fp, const struct rt_point *p);
/* A row of any tool: v[k] the text of column k (NULL: empty), each through rt_csv_field. */
void rt_points_csv_put(FILE *fp, const char *const v[RT_COL_COUNT]);
/* path's header made today's where it is an earlier one (either tool's, as the reader takes
 * it): each row's fields moved to their columns' places, the new columns empty, the file
 * replaced whole. Nothing done to a file of today's header, or to none (a run that has
 * measured nothing yet). For appending to an earlier tool's file. */
int rt_points_csv_upgrade(const char *path, struct rt_err *err);
/* Read points.csv back (for --resume and the summary); caller frees *pts. A malformed line is
 * an error naming FILE:LINE. A missing file is 0 points. The trainer's points: the rows of
 * roofline-run's scopes (run, onednn, kind, primitive) are checked, not returned; a file with
 * rows of both tools is an error naming the line. */
int rt_points_csv_read(const char *path, struct rt_point **pts, size_t *n, struct rt_err *err);

/* A points.csv as read (rt_points_file_free frees it): its rows, each checked by its tool's
 * rules, in the file's order: a training sweep's points, or of roofline-run's rows its run
 * rows (every row of the command's counted, its oneDNN rows coming again from the raw logs
 * they were counted from); the columns of its header (an earlier rooftraj's file has
 * others); when reading allows it, whether its last line was cut short while written (no
 * newline: not read as a point) and that line's configuration. */
struct rt_points_file {
	struct rt_point *pts;           /* the trainer's points, or the command's run rows */
	size_t n;
	int columns;
	bool ordered;                   /* its blocks in the writer's order (rt_points_order_block:
					 * a file with bytes_source, which came after the order) */
	size_t command_rows;            /* the rows of roofline-run's (0: the trainer's file) */
	bool cut;
	char cut_config[64];
};
void rt_points_file_free(struct rt_points_file *f);
/* Whether fp's points.csv is roofline-run's: its header one the reader takes, its first row of
 * a command's scope (a file that does not read, or has no row, is not). Reads two lines. */
bool rt_points_csv_is_command(FILE *fp);
/* fp (named name in messages) read as points.csv; allow_cut: a last line without its newline
 * is not an error but f->cut. */
int rt_points_csv_load(FILE *fp, const char *name, bool allow_cut, struct rt_points_file *f,
		       struct rt_err *err);
/* A configuration's rows are complete when the last of them is its iteration median: the
 * writer puts it last (rt_points_order_block), so a configuration cut at a line boundary
 * lacks it. Whether config's rows in f (a file whose blocks are ordered) are complete. */
bool rt_points_config_complete(const struct rt_point *pts, size_t n, const char *config);
/* Order a configuration's rows for writing: its iteration median rows last (the model's
 * count the very last), every other row in its order. */
void rt_points_order_block(struct rt_point *pts, size_t n);

#endif
