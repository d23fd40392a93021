/* charts.c: phases, memory, memory over the input's area, time-based layers (gnuplot) */
#include "config.h"
#include "results/charts.h"
#include "results/plot.h"
#include "results/summary.h"
#include "base/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1024.0 * 1024.0)

static int cmp_long(long a, long b)
{
	return (a > b) - (a < b);
}

static int cmp_config(const void *a, const void *b)
{
	const struct rt_point *x = *(const struct rt_point *const *)a,
			      *y = *(const struct rt_point *const *)b;
	int c;

	if ((c = cmp_long(x->threads, y->threads)) || (c = cmp_long(x->ranks, y->ranks)) ||
	    (c = cmp_long(x->precision, y->precision)) ||
	    (c = cmp_long(x->affinity, y->affinity)) ||
	    (c = cmp_long(x->input_h * x->input_w, y->input_h * y->input_w)) ||
	    (c = cmp_long(x->batch, y->batch)))
		return c;
	return strcmp(x->config, y->config);
}

size_t rt_charts_order(const struct rt_point *pts, size_t n, const struct rt_point **idx)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (rt_point_is_measured(&pts[i]))
			idx[k++] = &pts[i];
	qsort(idx, k, sizeof(*idx), cmp_config);
	return k;
}

/* The head every bar chart shares: the output name, the title, the pictures' size. */
static void bar_head(FILE *fp, const char *outbase, const char *title, const char *ylabel)
{
	fprintf(fp, "if (!exists(\"outbase\")) outbase = (ARGC > 0 ? ARG1 : ");
	rt_plot_quote(fp, outbase);
	fprintf(fp, ")\nset title ");
	rt_plot_quote(fp, title);
	fprintf(fp, " noenhanced\nset ylabel ");
	rt_plot_quote(fp, ylabel);
	fprintf(fp, "\nset grid ytics lc rgb \"#e4e4e4\"\n"
		    "set key outside right top noenhanced\n"
		    "set xtics rotate by -30 noenhanced\n"
		    "set yrange [0:*]\n"
		    "set style fill solid 0.85 border rgb \"#333333\"\n");
}

/* An array of texts: NAME[k] = ['...', ...] (gnuplot 5.2 and later); the plot commands name
 * its elements only. */
static void text_array(FILE *fp, const char *name, const char *const *texts, size_t n)
{
	fprintf(fp, "array %s[%zu] = [", name, n ? n : 1);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputs(", ", fp);
		rt_plot_quote(fp, texts[i]);
	}
	fputs(n ? "]\n" : "'']\n", fp);
}

static void bar_tail(FILE *fp, const char *plot_var)
{
	fprintf(fp, "set terminal pngcairo size 1400,800 font \"sans,10\"\n"
		    "set output outbase.\".png\"\n"
		    "eval %s\n"
		    "set terminal svg size 1400,800 font \"sans,10\"\n"
		    "set output outbase.\".svg\"\n"
		    "eval %s\n"
		    "unset output\n", plot_var, plot_var);
}

/* A configuration's median row of a scope and name, measured (ok or disturbed), or NULL. */
static const struct rt_point *find(const struct rt_points_index *ix, const char *config,
				   enum rt_scope scope, const char *name)
{
	const struct rt_point *p = rt_points_index_find(ix, config, scope, name, RT_STAT_MEDIAN,
							 RT_STATUS_OK);

	return p ? p : rt_points_index_find(ix, config, scope, name, RT_STAT_MEDIAN,
					    RT_STATUS_DISTURBED);
}

/* A bar chart's start: the configurations it draws (in rt_charts_order, those keep()
 * accepts) into v, *nb of them (-ENODATA with `none` when there is none); the script opened,
 * its comment, its head and the configurations' names as the array C. */
static int bars_begin(struct rt_outfile *of, const struct rt_point *pts, size_t n,
		      const struct rt_point **v, size_t *nb,
		      const struct rt_points_index *ix,
		      bool (*keep)(const struct rt_points_index *ix, const struct rt_point *p),
		      const char *none, const char *outbase, const char *comment,
		      const char *title, const char *ylabel, struct rt_err *err)
{
	char (*names)[96] = calloc(n ? n : 1, sizeof(*names));
	const char **texts = calloc(n ? n : 1, sizeof(*texts));
	size_t nv = rt_charts_order(pts, n, v);
	int rc;

	*nb = 0;
	if (!names || !texts) {
		free(names);
		free(texts);
		return rt_err_set(err, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < nv; i++)
		if (keep(ix, v[i]))
			v[(*nb)++] = v[i];
	if (!*nb)
		rc = rt_err_set(err, -ENODATA, "%s", none);
	else
		rc = rt_plot_open(of, outbase, err);
	if (!rc) {
		fputs(comment, of->fp);
		bar_head(of->fp, outbase, title, ylabel);
		/* a configuration that did not get its cores says so under its bar */
		for (size_t i = 0; i < *nb; i++) {
			snprintf(names[i], sizeof(names[i]), "%.63s%s", v[i]->config,
				 v[i]->status == RT_STATUS_DISTURBED ? " (disturbed)" : "");
			texts[i] = names[i];
		}
		text_array(of->fp, "C", texts, *nb);
	}
	free(names);
	free(texts);
	return rc;
}

static bool has_phases(const struct rt_points_index *ix, const struct rt_point *p)
{
	return find(ix, p->config, RT_SCOPE_PHASE, "forward") != NULL;
}

/* The sum of v[0..k). */
static double cum(const double *v, size_t k)
{
	double s = 0;

	for (size_t i = 0; i < k; i++)
		s += v[i];
	return s;
}

int rt_chart_phases(const struct rt_point *pts, size_t n, const char *title_what,
		    const char *outbase, struct rt_err *err)
{
	static const char *const phases[] = { "data", "forward", "loss", "backward", "comm",
					      "update" };
	static const char *const colors[] = { "#a6cee3", "#1f78b4", "#fdbf6f", "#e31a1c",
					      "#6a3d9a", "#33a02c" };
	const size_t np = sizeof(phases) / sizeof(phases[0]);
	const struct rt_point **v = calloc(n ? n : 1, sizeof(*v));
	struct rt_points_index ix = { 0 };
	struct rt_outfile of;
	char title[400];
	bool ran[8] = { false };
	size_t nb = 0;
	int rc;

	if (!v)
		return rt_err_set(err, -ENOMEM, "out of memory");
	if ((rc = rt_points_index_build(&ix, pts, n, err)))
		goto out;
	snprintf(title, sizeof(title), "%s: time per iteration by phase (ms, medians; the "
		 "share of each phase where it is 5%% or more)", title_what);
	if ((rc = bars_begin(&of, pts, n, v, &nb, &ix, has_phases, "no configuration has phase "
			     "points", outbase, "# Time per iteration by phase, one stacked bar per "
			     "configuration.\n# $phases: a row per configuration: the milliseconds "
			     "of data forward loss backward comm update\n#   (medians of the "
			     "repetitions; 0 where a phase did not run), their sum, each segment's\n"
			     "#   middle (for its label), each phase's share of the sum\n", title,
			     "milliseconds per iteration", err)))
		goto out;
	fprintf(of.fp, "$phases << EOD\n");
	for (size_t i = 0; i < nb; i++) {
		double ms[8] = { 0 }, sum = 0;

		/* a phase no configuration ran (comm without MPI) stays out of the key */
		for (size_t k = 0; k < np; k++)
			ran[k] = ran[k] || find(&ix, v[i]->config, RT_SCOPE_PHASE, phases[k]);

		for (size_t k = 0; k < np; k++) {
			const struct rt_point *q = find(&ix, v[i]->config, RT_SCOPE_PHASE, phases[k]);

			ms[k] = q ? q->seconds * 1e3 : 0;
			sum += ms[k];
		}
		for (size_t k = 0; k < np; k++)
			fprintf(of.fp, "%.6g ", ms[k]);
		fprintf(of.fp, "%.6g", sum);
		/* each segment's middle and its share, for its label */
		for (size_t k = 0; k < np; k++)
			fprintf(of.fp, " %.6g", cum(ms, k) + ms[k] / 2);
		for (size_t k = 0; k < np; k++)
			fprintf(of.fp, " %.4f", sum > 0 ? ms[k] / sum : 0);
		fputc('\n', of.fp);
	}
	fprintf(of.fp, "EOD\n"
		"set style data histograms\nset style histogram rowstacked\nset boxwidth 0.7\n");
	fprintf(of.fp, "plot_bars = 'plot ");
	for (size_t k = 0; k < np; k++)
		fprintf(of.fp, "%s$phases using %zu%s lc rgb \"%s\" %s%s%s", k ? ", " : "",
			k + 1, k ? "" : ":xtic(C[int(column(0)) + 1])", colors[k],
			ran[k] ? "title \"" : "notitle", ran[k] ? phases[k] : "", ran[k] ? "\"" : "");
	for (size_t k = 0; k < np; k++)
		fprintf(of.fp, ", $phases using 0:%zu:(column(%zu) >= 0.05 ? "
			"sprintf(\"%%.0f%%%%\", 100 * column(%zu)) : \"\") with labels notitle",
			np + 2 + k, 2 * np + 2 + k, 2 * np + 2 + k);
	fprintf(of.fp, ", $phases using 0:%zu:(sprintf(\"%%.2f ms\", column(%zu))) with labels "
		"offset 0,0.8 notitle'\n", np + 1, np + 1);
	bar_tail(of.fp, "plot_bars");
	rc = rt_plot_finish(&of, outbase, err);
out:
	rt_points_index_free(&ix);
	free(v);
	return rc;
}

/* Whether a point carries the memory split (a points.csv of rooftraj 0.2 does not). */
static bool has_split(const struct rt_point *p)
{
	return !isnan(p->weight_gradients) && !isnan(p->activation_gradients);
}

static bool keep_split(const struct rt_points_index *ix, const struct rt_point *p)
{
	(void)ix;
	return has_split(p);
}

int rt_chart_memory(const struct rt_point *pts, size_t n, const char *title_what,
		    const char *outbase, struct rt_err *err)
{
	static const char *const parts[] = { "weights", "weight gradients", "optimizer state",
					     "activations kept", "activation gradients",
					     "workspace" };
	static const char *const colors[] = { "#1f78b4", "#a6cee3", "#b2df8a", "#e31a1c",
					      "#fb9a99", "#fdbf6f" };
	const struct rt_point **v = calloc(n ? n : 1, sizeof(*v));
	struct rt_outfile of;
	char title[400];
	size_t nb = 0;
	int rc;

	if (!v)
		return rt_err_set(err, -ENOMEM, "out of memory");
	snprintf(title, sizeof(title), "%s: memory by what it holds (MiB as allocated, oneDNN "
		 "layouts included; x: the process's peak RSS)", title_what);
	if ((rc = bars_begin(&of, pts, n, v, &nb, NULL, keep_split, "no configuration records the "
			     "memory split (a points.csv of an earlier rooftraj: measure it again)",
			     outbase, "# Memory of each configuration as the net allocated it, one "
			     "stacked bar each.\n# $memory: a row per configuration: MiB of weights, "
			     "weight gradients, optimizer state,\n#   activations kept, activation "
			     "gradients, workspace; their sum (the allocated total); peak RSS\n",
			     title, "MiB", err)))
		goto out;
	fprintf(of.fp, "$memory << EOD\n");
	for (size_t i = 0; i < nb; i++) {
		const struct rt_point *p = v[i];
		const double b[6] = { p->weights, p->weight_gradients, p->optimizer,
				      p->activations, p->activation_gradients, p->workspace };
		double sum = 0;

		for (int k = 0; k < 6; k++) {
			fprintf(of.fp, "%.6f ", b[k] / MIB);
			sum += b[k];
		}
		fprintf(of.fp, "%.6f %.6f\n", sum / MIB, p->peak_rss / MIB);
	}
	fprintf(of.fp, "EOD\n"
		"set style data histograms\nset style histogram rowstacked\nset boxwidth 0.7\n");
	fprintf(of.fp, "plot_bars = 'plot ");
	for (int k = 0; k < 6; k++)
		fprintf(of.fp, "%s$memory using %d%s lc rgb \"%s\" title \"%s\"", k ? ", " : "", k + 1,
			k ? "" : ":xtic(C[int(column(0)) + 1])", colors[k], parts[k]);
	fprintf(of.fp, ", $memory using 0:7:(sprintf(\"%%.1f\", column(7))) with labels offset "
		"0,0.8 notitle, $memory using 0:8 with points pt 2 ps 2 lw 2 lc rgb \"#000000\" "
		"title \"peak RSS\"'\n");
	bar_tail(of.fp, "plot_bars");
	rc = rt_plot_finish(&of, outbase, err);
out:
	free(v);
	return rc;
}

/* Two points that differ at most in their input. */
static bool same_but_input(const struct rt_point *a, const struct rt_point *b)
{
	return a->threads == b->threads && a->batch == b->batch && a->affinity == b->affinity &&
	       a->precision == b->precision && a->ranks == b->ranks;
}

/* By the knobs but the input, then by the configuration's name. */
static int cmp_but_input(const void *x, const void *y)
{
	const struct rt_point *a = *(const struct rt_point *const *)x,
			      *b = *(const struct rt_point *const *)y;
	const long ka[5] = { a->threads, a->batch, a->affinity, a->precision, a->ranks },
		   kb[5] = { b->threads, b->batch, b->affinity, b->precision, b->ranks };

	for (int k = 0; k < 5; k++)
		if (ka[k] != kb[k])
			return (ka[k] > kb[k]) - (ka[k] < kb[k]);
	return strcmp(a->config, b->config);
}

static int cmp_area(const void *a, const void *b)
{
	const struct rt_point *x = *(const struct rt_point *const *)a,
			      *y = *(const struct rt_point *const *)b;

	return cmp_long(x->input_h * x->input_w, y->input_h * y->input_w);
}

int rt_chart_memory_input(const struct rt_point *pts, size_t n, const char *title_what,
			  const char *outbase, struct rt_err *err)
{
	const struct rt_point **v = calloc(n ? n : 1, sizeof(*v)), *ref = NULL;
	const char **names = calloc(n ? n : 1, sizeof(*names));
	char (*sizes)[48] = calloc(n ? n : 1, sizeof(*sizes));
	struct rt_outfile of;
	char title[400];
	size_t nv, nb = 0, best = 0;
	int rc;

	if (!v || !names || !sizes) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	nv = rt_charts_order(pts, n, v);
	/* the configuration whose input varies the most: its sizes (the candidates grouped by
	 * their other knobs, the largest group) */
	for (size_t i = 0; i < nv; i++)
		if (v[i]->input_h > 0 && has_split(v[i]) && !isnan(v[i]->inference))
			v[nb++] = v[i];
	qsort(v, nb, sizeof(*v), cmp_but_input);
	for (size_t i = 0, j; i < nb; i = j) {
		for (j = i + 1; j < nb && same_but_input(v[i], v[j]); j++)
			;
		if (j - i > best) {
			best = j - i;
			ref = v[i];
		}
	}
	nb = 0;
	if (best < 2) {
		rc = rt_err_set(err, -ENODATA, "the points hold one input size");
		goto out;
	}
	for (size_t j = 0; j < nv; j++)
		if (v[j]->input_h > 0 && has_split(v[j]) && !isnan(v[j]->inference) &&
		    same_but_input(ref, v[j]))
			v[nb++] = v[j];
	qsort(v, nb, sizeof(*v), cmp_area);
	if ((rc = rt_plot_open(&of, outbase, err)))
		goto out;
	fprintf(of.fp, "# Memory against the input's pixel area (height x width), training and "
		"inference.\n# $mem: a row per input size: pixels, training's allocated MiB, "
		"inference's MiB\n#   (a forward-only pass of the same net: weights, input, the "
		"activations alive at the\n#   busiest layer, scratchpad), training / inference, "
		"peak RSS MiB\n");
	snprintf(title, sizeof(title), "%s: memory against the input's pixel area (%u threads, "
		 "batch %ld, %s)", title_what, ref->threads, ref->batch,
		 rt_point_precision_name(ref));
	fprintf(of.fp, "if (!exists(\"outbase\")) outbase = (ARGC > 0 ? ARG1 : ");
	rt_plot_quote(of.fp, outbase);
	fprintf(of.fp, ")\nset title ");
	rt_plot_quote(of.fp, title);
	fprintf(of.fp, " noenhanced\nset xlabel \"input pixels (height x width)\"\n"
		"set ylabel \"MiB\"\nset y2label \"training / inference\"\n"
		"set logscale x 2\nset logscale y 10\nset y2range [0:*]\nset ytics nomirror\n"
		"set y2tics\nset grid xtics ytics lc rgb \"#e4e4e4\"\n"
		"set key inside right bottom noenhanced box\nset offsets graph 0.04, graph 0.04, 0, 0\n");
	for (size_t i = 0; i < nb; i++) {
		snprintf(sizes[i], sizeof(sizes[i]), "%ldx%ld", v[i]->input_h, v[i]->input_w);
		names[i] = sizes[i];
	}
	text_array(of.fp, "S", names, nb);
	fprintf(of.fp, "$mem << EOD\n");
	for (size_t i = 0; i < nb; i++) {
		const struct rt_point *p = v[i];
		const double train = p->weights + p->weight_gradients + p->optimizer +
				     p->activations + p->activation_gradients + p->workspace;

		fprintf(of.fp, "%ld %.6f %.6f %.6f %.6f\n", p->input_h * p->input_w, train / MIB,
			p->inference / MIB, p->inference > 0 ? train / p->inference : 0,
			p->peak_rss / MIB);
	}
	fprintf(of.fp, "EOD\n");
	fprintf(of.fp, "plot_mem = 'plot $mem using 1:2 with linespoints lw 2 pt 7 lc rgb "
		"\"#e31a1c\" title \"training (allocated)\", $mem using 1:3 with linespoints lw 2 "
		"pt 5 lc rgb \"#1f78b4\" title \"inference (forward only)\", $mem using 1:5 with "
		"points pt 2 ps 1.5 lc rgb \"#555555\" title \"training: peak RSS\", $mem using "
		"1:4 axes x1y2 with linespoints lw 1.5 dt 2 pt 6 lc rgb \"#33a02c\" title "
		"\"training / inference (right axis)\", $mem using 1:2:(S[int(column(0)) + 1]) "
		"with labels offset 0,1 notitle'\n");
	bar_tail(of.fp, "plot_mem");
	rc = rt_plot_finish(&of, outbase, err);
out:
	free(v);
	free(names);
	free(sizes);
	return rc;
}

struct layer_time {
	const struct rt_point *p;
	double floor;                   /* seconds */
	char ceiling[96];
};

static int cmp_time(const void *a, const void *b)
{
	const struct layer_time *x = a, *y = b;

	return (x->p->seconds < y->p->seconds) - (x->p->seconds > y->p->seconds);
}

/* The time view of one configuration's layer points under words of its own: each layer's
 * measured time, its floor and its share of the headline's time. */
struct time_words {
	const char *comment;            /* the script's head: what its rows are */
	const char *title;              /* printf format of one %s: the configuration */
	const char *ylabel;
	const char *none;               /* -ENODATA: no such points for %s */
};

static int time_view(const struct rt_profile *prof, const struct rt_point *pts, size_t n,
		     const char *config, const struct time_words *words, const char *outbase,
		     struct rt_err *err)
{
	struct rt_roofbook *book = NULL;
	const struct rt_point *it = rt_points_headline(pts, n, config);
	struct layer_time *v = calloc(n ? n : 1, sizeof(*v));
	const char **names = calloc(n ? n : 1, sizeof(*names)), **notes = NULL;
	char (*text)[160] = calloc(n ? n : 1, sizeof(*text));
	struct rt_outfile of;
	char title[400];
	size_t nl = 0;
	double sum = 0;
	int rc;

	if (!v || !names || !text || !(notes = calloc(n ? n : 1, sizeof(*notes)))) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	if ((rc = rt_roofbook_create(&book, prof, err)))
		goto out;
	for (size_t i = 0; i < n; i++) {
		const struct rt_point *p = &pts[i];
		struct rt_bound b;

		if (p->scope != RT_SCOPE_LAYER || p->stat != RT_STAT_MEDIAN ||
		    (p->status != RT_STATUS_OK && p->status != RT_STATUS_DISTURBED) ||
		    strcmp(p->config, config))
			continue;
		v[nl].p = p;
		/* the floor: its bytes over the bandwidth when memory bound (a point without
		 * FLOPs, a reorder, too), else its FLOPs over the peak */
		if ((p->flops > 0 || p->bytes > 0) && rt_point_bound(p, book, &b) == 0 &&
		    (b.memory_bound ? b.bandwidth > 0 && p->bytes > 0 : b.attainable > 0)) {
			v[nl].floor = b.memory_bound ? p->bytes / (b.bandwidth * 1e9) :
				      p->flops / (b.attainable * 1e9);
			snprintf(v[nl].ceiling, sizeof(v[nl].ceiling), "%s", b.ceiling);
		} else {
			snprintf(v[nl].ceiling, sizeof(v[nl].ceiling), "no ceiling");
		}
		sum += p->seconds;
		nl++;
	}
	if (!nl) {
		rc = rt_err_set(err, -ENODATA, words->none, config);
		goto out;
	}
	qsort(v, nl, sizeof(*v), cmp_time);
	if ((rc = rt_plot_open(&of, outbase, err)))
		goto out;
	fputs(words->comment, of.fp);
	snprintf(title, sizeof(title), words->title, config);
	bar_head(of.fp, outbase, title, words->ylabel);
	for (size_t i = 0; i < nl; i++) {
		const double share = it && it->seconds > 0 ? v[i].p->seconds / it->seconds :
				     v[i].p->seconds / sum;

		names[i] = v[i].p->name;
		snprintf(text[i], sizeof(text[i]), "%.0f%%: %.100s", 100 * share, v[i].ceiling);
		notes[i] = text[i];
	}
	text_array(of.fp, "N", names, nl);
	text_array(of.fp, "T", notes, nl);
	fprintf(of.fp, "$layers << EOD\n");
	for (size_t i = 0; i < nl; i++)
		fprintf(of.fp, "%.6g %.6g %.6f\n", v[i].p->seconds * 1e3, v[i].floor * 1e3,
			it && it->seconds > 0 ? v[i].p->seconds / it->seconds :
			v[i].p->seconds / sum);
	/* room above the tallest bar for the turned labels */
	fprintf(of.fp, "EOD\n"
		"set style data histograms\nset style histogram clustered gap 1\n"
		"set boxwidth 0.9\nset xtics rotate by -35 noenhanced\n"
		"set key inside right top noenhanced\nset yrange [0:%.6g]\n",
		v[0].p->seconds * 1e3 * 1.8);
	fprintf(of.fp, "plot_bars = 'plot $layers using 1:xtic(N[int(column(0)) + 1]) lc rgb "
		"\"#1f78b4\" title \"measured\", $layers using 2 lc rgb \"#bbbbbb\" title \"floor "
		"from the ceilings\", $layers using ($0 - 0.15):1:(T[int(column(0)) + 1]) with "
		"labels left rotate by 60 offset 0,0.6 font \",8\" notitle'\n");
	bar_tail(of.fp, "plot_bars");
	rc = rt_plot_finish(&of, outbase, err);
out:
	rt_roofbook_destroy(book);
	free(v);
	free(names);
	free(notes);
	free(text);
	return rc;
}

int rt_chart_layers_time(const struct rt_profile *prof, const struct rt_point *pts, size_t n,
			 const char *config, const char *outbase, struct rt_err *err)
{
	static const struct time_words w = {
		"# Time-based view of the layers of one configuration (forward + backward per "
		"iteration).\n# $layers: a row per layer, slowest first: measured ms, floor ms "
		"(max(FLOPs / peak,\n#   bytes / bandwidth of the level that holds its bytes) from "
		"the profile), share of the\n#   iteration (0..1)\n",
		"Layers of %s by time: measured against the floor its FLOPs and bytes set (ms per "
		"iteration; label: share of the iteration, the ceiling that sets the floor)",
		"milliseconds per iteration", "no per-layer points for %s",
	};

	return time_view(prof, pts, n, config, &w, outbase, err);
}

int rt_chart_primitives_time(const struct rt_profile *prof, const struct rt_point *pts,
			     size_t n, const char *config, const char *outbase,
			     struct rt_err *err)
{
	static const struct time_words w = {
		"# Time-based view of the oneDNN primitives of one configuration of a command (their\n"
		"# time over the whole run, from oneDNN's verbose log).\n# $layers: a row per "
		"primitive, slowest first: measured ms, floor ms (max(FLOPs / peak,\n#   bytes / "
		"bandwidth of the level that holds its bytes) from the profile), share of\n#   "
		"oneDNN's time (0..1)\n",
		"oneDNN primitives of %s by time: measured against the floor their FLOPs and bytes "
		"set (ms over the run; label: share of oneDNN's time, the ceiling that sets the "
		"floor)",
		"milliseconds over the run", "no primitive of %s was counted",
	};

	return time_view(prof, pts, n, config, &w, outbase, err);
}
