/* plot.c: roofline chart scripts for gnuplot and their rendering to PNG and SVG */
#include "config.h"
#include "results/plot.h"
#include "base/util.h"
#include "results/summary.h"
#include "node/roofs.h"
#include "base/spawn.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void rt_plot_quote(FILE *fp, const char *s)
{
	/* single quotes, where gnuplot substitutes nothing (no `command`, no @macro) and reads
	 * two quotes as one; but gnuplot 5.4's scanner ends such a string at a quote that
	 * follows two ("it''s" written with its quotes doubled loses the chart), so a text
	 * with a quote goes double-quoted instead, each character that means something there
	 * (quotes, backquote, backslash, @, $) as an octal escape: read after the line's
	 * substitutions, it never triggers one */
	const bool dq = strchr(s, '\'') != NULL;

	fputc(dq ? '"' : '\'', fp);
	for (; *s; s++) {
		const unsigned char ch = (unsigned char)*s;

		if (ch < 0x20 || ch == 0x7f)
			fputc(' ', fp);
		else if (dq && strchr("'\"`\\@$", ch))
			fprintf(fp, "\\%03o", ch);
		else
			fputc(ch, fp);
	}
	fputc(dq ? '"' : '\'', fp);
}

static const char *const roof_colors[] = {
	"#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666",
	"#1f78b4", "#b2df8a", "#fb9a99", "#cab2d6",
};
#define NCOLORS (sizeof(roof_colors) / sizeof(roof_colors[0]))

/* What a chart's log axes can hold: no node does 1e12 GFLOP/s or moves 1e12 GB/s, and no
 * kernel does 1e9 FLOPs per byte (or one per 1e9 bytes); beyond that a value is corrupt, and
 * gnuplot's ranges would overflow. */
#define AXIS_MAX 1e12
#define INTENSITY_MIN 1e-9
#define INTENSITY_MAX 1e9

/* A point a chart can place on its log axes. */
static bool drawable(const struct rt_point *p)
{
	return p->gflops > 0 && p->gflops <= AXIS_MAX && p->intensity >= INTENSITY_MIN &&
	       p->intensity <= INTENSITY_MAX;
}

struct roofs {
	struct rt_roofs all;            /* the profile's roofs at the chart's thread count */
	const struct rt_roof *bw[6];
	size_t nbw;
	const struct rt_roof *fl[RT_ROOFS_MAX];
	size_t nfl;
	const struct rt_roof *th[8];    /* each drawn precision's theoretical peak */
	size_t nth;
	double pmax, pmin, bmax, bmin;
};

/* Whether s is in list, a comma-separated list (NULL: every name is). */
static bool in_list(const char *list, const char *s)
{
	size_t len = strlen(s);

	if (!list)
		return true;
	for (const char *p = list; *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		if (!strncmp(p, s, len) && (p[len] == ',' || !p[len]))
			return true;
		if (!strchr(p, ','))
			break;
	}
	return false;
}

/* The roofs to draw at the most threads, at or below `threads`, where the profile has trusted
 * ceilings (rt_roofs_at), of the precisions in prec (a comma-separated list; NULL: all): each
 * memory level's best bandwidth, each precision's theoretical peak (dashed) and its best
 * measured or achievable ceiling, or with all every FLOP ceiling of each ISA and method.
 * *used gets that thread count. */
static int collect_roofs_near(const struct rt_profile *p, unsigned threads, const char *prec,
			      bool all, struct roofs *r, unsigned *used, struct rt_err *err)
{
	int rc;

	memset(r, 0, sizeof(*r));
	r->pmin = r->bmin = INFINITY;
	if ((rc = rt_roofs_at(&r->all, p, threads, err))) {
		if (rc == -ENOENT)
			err->code = -EINVAL;    /* its message says why (not through itself) */
		return rc == -ENOENT ? -EINVAL : rc;
	}
	*used = r->all.threads;
	for (size_t i = 0; i < r->all.n; i++) {
		const struct rt_roof *q = &r->all.roof[i];

		if (q->value > AXIS_MAX)
			continue;
		if (q->kind == RT_ROOF_BANDWIDTH && r->nbw < 6) {
			r->bw[r->nbw++] = q;
			r->bmax = fmax(r->bmax, q->value);
			r->bmin = fmin(r->bmin, q->value);
		} else if (q->kind == RT_ROOF_FLOPS && in_list(prec, q->precision)) {
			if (q->basis == RT_ROOF_THEORETICAL) {
				if (r->nth < 8)
					r->th[r->nth++] = q;
				continue;
			}
			if (!all && rt_roofs_peak(&r->all, q->precision) != q)
				continue;
			r->fl[r->nfl++] = q;
			r->pmax = fmax(r->pmax, q->value);
			r->pmin = fmin(r->pmin, q->value);
		}
	}
	for (size_t j = 0; j < r->nth; j++)
		r->pmax = fmax(r->pmax, r->th[j]->value);
	if (!r->nbw)
		return rt_err_set(err, -EINVAL, "the profile has no trusted bandwidth ceiling at "
				  "%u thread%s", *used, *used > 1 ? "s" : "");
	if (!r->nfl)
		return rt_err_set(err, -EINVAL, "the profile has no trusted FLOP ceiling of %s at "
				  "%u thread%s (its other precisions' are not these points' roofs)",
				  prec ? prec : "any precision", *used, *used > 1 ? "s" : "");
	return 0;
}

/* ---- the canvas: where things land, so that labels can be placed where nothing is ---- */

/* The pictures' size and the plot area's place in them (fixed: the label placement below
 * computes in these pixels). */
#define CANVAS_W 1400.0
#define CANVAS_H 800.0
#define AREA_L 0.07
#define AREA_R 0.97
#define AREA_B 0.15
#define AREA_T 0.93
/* sans 10 in pngcairo and svg at this size: about 7 px a character, 14 px a line */
#define CHAR_W 6.6
#define LINE_H 14.0

struct box {
	double x0, y0, x1, y1;          /* plot-area pixels, y up */
};

/* What is taken is also filed by grid cell, so that a label looks only at the boxes near it:
 * placing labels stays linear in the points. A box is filed in every cell it overlaps;
 * cells past the plot area's edges hold what lies beyond them. */
#define CELL_PX 40.0
#define GRID_X 40
#define GRID_Y 24

struct cell {
	size_t *idx;
	size_t n, cap;
};

struct canvas {
	double lx0, lx1, ly0, ly1;      /* the axes' ranges, log10 */
	double w, h;                    /* the plot area, pixels */
	struct box *boxes;              /* what is taken: markers and placed labels */
	size_t nboxes, cap;
	struct cell grid[GRID_X][GRID_Y];
	unsigned stamp;                 /* visit marks: a box in several cells counts once */
	unsigned *seen;
	int tag;                        /* the next label's number */
	int labels;                     /* labels placed beside points so far */
	bool oom;
};

/* At most this many points get a label on one chart: past it a chart holds too many points
 * for labels to be read, and placing them would cost more than drawing. */
#define MAX_POINT_LABELS 120

static void canvas_init(struct canvas *c, double xmin, double xmax, double ymin, double ymax)
{
	memset(c, 0, sizeof(*c));
	c->lx0 = log10(xmin);
	c->lx1 = log10(xmax);
	c->ly0 = log10(ymin);
	c->ly1 = log10(ymax);
	c->w = (AREA_R - AREA_L) * CANVAS_W;
	c->h = (AREA_T - AREA_B) * CANVAS_H;
	c->tag = 1;
}

static double px_x(const struct canvas *c, double x)
{
	return (log10(x) - c->lx0) / (c->lx1 - c->lx0) * c->w;
}

static double px_y(const struct canvas *c, double y)
{
	return (log10(y) - c->ly0) / (c->ly1 - c->ly0) * c->h;
}

static int cell_of(double v, int n)
{
	double k = floor(v / CELL_PX) + 1;      /* cell 0: everything below 0 */

	return k < 0 ? 0 : k >= n ? n - 1 : (int)k;
}

static void canvas_free(struct canvas *c)
{
	for (int i = 0; i < GRID_X; i++)
		for (int j = 0; j < GRID_Y; j++)
			free(c->grid[i][j].idx);
	free(c->boxes);
	free(c->seen);
}

static void take(struct canvas *c, struct box b)
{
	if (c->nboxes == c->cap) {
		size_t ncap = c->cap ? 2 * c->cap : 64;
		struct box *q = realloc(c->boxes, ncap * sizeof(*q));
		unsigned *s = q ? realloc(c->seen, ncap * sizeof(*s)) : NULL;

		if (q)
			c->boxes = q;
		if (!q || !s) {
			c->oom = true;
			return;
		}
		c->seen = s;
		c->cap = ncap;
	}
	for (int i = cell_of(b.x0, GRID_X); i <= cell_of(b.x1, GRID_X); i++)
		for (int j = cell_of(b.y0, GRID_Y); j <= cell_of(b.y1, GRID_Y); j++) {
			struct cell *cl = &c->grid[i][j];

			if (cl->n == cl->cap) {
				size_t ncap = cl->cap ? 2 * cl->cap : 16;
				size_t *q = realloc(cl->idx, ncap * sizeof(*q));

				if (!q) {
					c->oom = true;
					return;
				}
				cl->idx = q;
				cl->cap = ncap;
			}
			cl->idx[cl->n++] = c->nboxes;
		}
	c->seen[c->nboxes] = 0;
	c->boxes[c->nboxes++] = b;
}

/* How much of b is taken or outside the plot area (pixels squared). */
static double clash(struct canvas *c, struct box b)
{
	double area = (b.x1 - b.x0) * (b.y1 - b.y0), inside, sum = 0;

	inside = fmax(0, fmin(b.x1, c->w) - fmax(b.x0, 0)) *
		 fmax(0, fmin(b.y1, c->h) - fmax(b.y0, 0));
	sum += area - inside;
	c->stamp++;
	for (int i = cell_of(b.x0, GRID_X); i <= cell_of(b.x1, GRID_X); i++)
		for (int j = cell_of(b.y0, GRID_Y); j <= cell_of(b.y1, GRID_Y); j++)
			for (size_t k = 0; k < c->grid[i][j].n; k++) {
				const size_t bi = c->grid[i][j].idx[k];
				const struct box *o = &c->boxes[bi];

				if (c->seen[bi] == c->stamp)
					continue;
				c->seen[bi] = c->stamp;
				sum += fmax(0, fmin(b.x1, o->x1) - fmax(b.x0, o->x0)) *
				       fmax(0, fmin(b.y1, o->y1) - fmax(b.y0, o->y0));
			}
	return sum;
}

/* A label of text beside (X, Y), at the first of the candidate places where nothing else is
 * (else where least is): dx, dy move the text's box from the anchor, in units of its width
 * and height (0, 0: its lower left corner on the anchor). Written as a gnuplot label at
 * graph coordinates. */
static void place_label(FILE *fp, struct canvas *c, const char *text, double X, double Y,
			const double (*cand)[2], size_t ncand, const char *style)
{
	const double w = CHAR_W * (double)strlen(text) + 4, h = LINE_H;
	struct box best = { 0, 0, 0, 0 };
	double least = INFINITY;

	for (size_t i = 0; i < ncand && least > 0; i++) {
		struct box b = { X + cand[i][0] * w, Y + cand[i][1] * h, 0, 0 };
		double k;

		b.x1 = b.x0 + w;
		b.y1 = b.y0 + h;
		k = clash(c, b);
		if (k < least) {
			least = k;
			best = b;
		}
	}
	take(c, best);
	fprintf(fp, "set label %d ", c->tag++);
	rt_plot_quote(fp, text);
	fprintf(fp, " at graph %.5f, graph %.5f left noenhanced front %s\n", (best.x0 + 2) / c->w,
		(best.y0 + h / 2) / c->h, style);
}

/* Candidate places of a point's label: right, left, above, below, then farther out. */
static const double point_places[][2] = {
	{ 0.02, 0.15 }, { 0.02, -1.15 }, { -1.02, 0.15 }, { -1.02, -1.15 }, { -0.5, 0.6 },
	{ -0.5, -1.6 }, { 0.05, 1.2 }, { 0.05, -2.2 }, { -1.05, 1.2 }, { -1.05, -2.2 },
	{ -0.5, 1.7 }, { -0.5, -2.7 }, { 0.3, 2.3 }, { 0.3, -3.3 }, { -1.3, 2.3 }, { -1.3, -3.3 },
};
#define NPOINT_PLACES (sizeof(point_places) / sizeof(point_places[0]))

/* A marker at (x, y) data: its box is taken. */
static void take_marker(struct canvas *c, double x, double y, double radius)
{
	const double X = px_x(c, x), Y = px_y(c, y);

	take(c, (struct box){ X - radius, Y - radius, X + radius, Y + radius });
}

static void roof_name(char *t, size_t size, const struct rt_roof *q)
{
	const char *unit = rt_precision_of(q->precision) == RT_PRECISION_INT8 ? "GOP/s" : "GFLOP/s";

	if (q->kind == RT_ROOF_BANDWIDTH)
		snprintf(t, size, "%s%s%s%s %s %.1f GB/s", q->level, q->source && *q->source ? " (" :
			 "", q->source && *q->source ? q->source : "", q->source && *q->source ?
			 ")" : "", q->what, q->value);
	else if (q->basis == RT_ROOF_THEORETICAL)
		snprintf(t, size, "%s theoretical peak (%s) %.1f %s", q->precision, q->what,
			 q->value, unit);
	else
		snprintf(t, size, "%s %s%s %.1f %s", q->precision, q->what,
			 q->basis == RT_ROOF_ACHIEVABLE ? " (oneDNN)" : "", q->value, unit);
}

/* The roofs' names on the chart beside their lines: flat roofs at their right end (above the
 * line, else below, else farther left), slanted ones along the line, turned to its angle,
 * where it runs through the lower part of the plot. */
static void write_roof_labels(FILE *fp, struct canvas *c, const struct roofs *r)
{
	/* the screen angle of y = b x on these log axes */
	const double ppd_x = c->w / (c->lx1 - c->lx0), ppd_y = c->h / (c->ly1 - c->ly0);
	const double ang = atan2(ppd_y, ppd_x), deg = ang * 180 / M_PI;
	const struct rt_roof *flat[RT_ROOFS_MAX + 8];
	size_t nflat = 0;
	char t[256];

	for (size_t i = 0; i < r->nfl; i++)
		flat[nflat++] = r->fl[i];
	for (size_t i = 0; i < r->nth; i++)
		flat[nflat++] = r->th[i];
	/* the highest first: the top of the chart fills from the right */
	for (size_t i = 1; i < nflat; i++)
		for (size_t j = i; j > 0 && flat[j]->value > flat[j - 1]->value; j--) {
			const struct rt_roof *q = flat[j];

			flat[j] = flat[j - 1];
			flat[j - 1] = q;
		}
	for (size_t i = 0; i < nflat; i++) {
		static const double places[][2] = {
			{ -1.0, 0.1 }, { -1.0, -1.1 }, { -2.05, 0.1 }, { -2.05, -1.1 },
			{ -3.1, 0.1 }, { -3.1, -1.1 }, { -4.15, 0.1 }, { -4.15, -1.1 },
		};

		roof_name(t, sizeof(t), flat[i]);
		place_label(fp, c, t, c->w - 4, px_y(c, flat[i]->value), places,
			    sizeof(places) / sizeof(places[0]), "font \",9\"");
	}
	for (size_t i = 0; i < r->nbw; i++) {
		const double w = CHAR_W * 0.9 * (strlen(r->bw[i]->level) + strlen(r->bw[i]->what) +
						 16);
		const double lb = log10(r->bw[i]->value);
		double bestk = INFINITY, bx = 0, by = 0;
		struct box best = { 0, 0, 0, 0 };

		/* along the line, from low in the plot upwards: the first clear place */
		for (double f = 0.04; f < 0.9 && bestk > 0; f += 0.05) {
			const double Y = f * c->h, ly = c->ly0 + f * (c->ly1 - c->ly0);
			const double X = (ly - lb - c->lx0) * ppd_x;   /* where b x = y */
			struct box b;
			double k;

			if (X < 2 || ly > log10(r->pmax) - 0.1)
				continue;
			/* the text's box, turned: its bounding box, a little above the line */
			b.x0 = X - sin(ang) * LINE_H * 0.9;
			b.y0 = Y + cos(ang) * LINE_H * 0.2;
			b.x1 = b.x0 + w * cos(ang) + LINE_H * sin(ang);
			b.y1 = b.y0 + w * sin(ang) + LINE_H * cos(ang) * 0.8;
			k = clash(c, b);
			if (k < bestk) {
				bestk = k;
				best = b;
				bx = X - sin(ang) * LINE_H * 0.75;
				by = Y + cos(ang) * LINE_H * 0.75;
			}
		}
		if (bestk == INFINITY)
			continue;
		take(c, best);
		roof_name(t, sizeof(t), r->bw[i]);
		fprintf(fp, "set label %d ", c->tag++);
		rt_plot_quote(fp, t);
		fprintf(fp, " at graph %.5f, graph %.5f left rotate by %.1f noenhanced front "
			"font \",9\"\n", bx / c->w, by / c->h, deg);
	}
}

static void write_head(FILE *fp, const char *base, const char *title, struct canvas *c,
		       double ymin, double ymax, double xmax, bool key)
{
	const double xmin = 1.0 / 64;

	xmax = xmax > 256 ? xmax : 256.0;
	canvas_init(c, xmin, xmax, ymin, ymax);
	/* gnuplot -e "outbase='NAME'" SCRIPT, gnuplot -c SCRIPT NAME, or the script's own name */
	fprintf(fp, "if (!exists(\"outbase\")) outbase = (ARGC > 0 ? ARG1 : ");
	rt_plot_quote(fp, base);
	fprintf(fp, ")\nset title ");
	rt_plot_quote(fp, title);
	fprintf(fp, " noenhanced\n"
		    "set logscale xy 10\n"
		    "set xrange [%g:%g]\nset yrange [%g:%g]\n"
		    "set lmargin at screen %.2f\nset rmargin at screen %.2f\n"
		    "set bmargin at screen %.2f\nset tmargin at screen %.2f\n"
		    "set xlabel \"Arithmetic intensity (FLOP/byte)\"\n"
		    "set ylabel \"Performance (GFLOP/s)\"\n"
		    "set grid xtics ytics mxtics mytics lc rgb \"#e4e4e4\"\n"
		    "%s"
		    "set samples 1000\n", xmin, xmax, ymin, ymax, AREA_L, AREA_R, AREA_B, AREA_T,
		    key ? "set key at screen 0.5, screen 0.015 center bottom horizontal noenhanced "
			  "maxrows 2 spacing 1.2 samplen 3\n" : "unset key\n");
}

/* Whether a roof's spread over the probe's rounds is drawn: a lowest round under its value
 * (a dotted line of its colour there; the roof itself stays the best). */
static bool spread_drawn(const struct rt_roof *q)
{
	return q->low > 0 && q->low < q->value && isfinite(q->low);
}

/* Flat roofs start where they meet the highest bandwidth; slanted roofs stop at the top. */
static void write_roof_functions(FILE *fp, const struct roofs *r)
{
	for (size_t i = 0; i < r->nfl; i++)
		fprintf(fp, "f%zu(x) = x >= %.6g / %.6g ? %.6g : 1/0\n", i, r->fl[i]->value, r->bmax,
			r->fl[i]->value);
	for (size_t i = 0; i < r->nbw; i++)
		fprintf(fp, "b%zu(x) = %.6g * x <= %.6g ? %.6g * x : 1/0\n", i,
			r->bw[i]->value, r->pmax, r->bw[i]->value);
	for (size_t i = 0; i < r->nth; i++)
		fprintf(fp, "t%zu(x) = x >= %.6g / %.6g ? %.6g : 1/0\n", i, r->th[i]->value,
			r->bmax, r->th[i]->value);
	/* a roof's spread over the probe's rounds: its lowest round, under the roof */
	for (size_t i = 0; i < r->nfl; i++)
		if (spread_drawn(r->fl[i]))
			fprintf(fp, "fl%zu(x) = x >= %.6g / %.6g ? %.6g : 1/0\n", i, r->fl[i]->value,
				r->bmax, r->fl[i]->low);
	for (size_t i = 0; i < r->nbw; i++)
		if (spread_drawn(r->bw[i]))
			fprintf(fp, "bl%zu(x) = %.6g * x <= %.6g ? %.6g * x : 1/0\n", i,
				r->bw[i]->value, r->pmax, r->bw[i]->low);
}

/* The plot clauses of the roofs (inside the plot_roofline string: no quotes at all); their
 * names are labels on the chart, not in the key. */
static void write_roof_clauses(FILE *fp, const struct roofs *r)
{
	for (size_t i = 0; i < r->nfl; i++)
		fprintf(fp, "%sf%zu(x) lw 2 dt %d lc rgb \"%s\" notitle", i ? ", " : "", i,
			rt_precision_of(r->fl[i]->precision) == RT_PRECISION_FP64 ? 2 : 1,
			roof_colors[i % NCOLORS]);
	for (size_t i = 0; i < r->nbw; i++)
		fprintf(fp, ", b%zu(x) lw 3 lc rgb \"%s\" notitle", i,
			roof_colors[(r->nfl + i) % NCOLORS]);
	for (size_t i = 0; i < r->nth; i++)
		fprintf(fp, ", t%zu(x) lw 1.5 dt 2 lc rgb \"#555555\" notitle", i);
	for (size_t i = 0; i < r->nfl; i++)
		if (spread_drawn(r->fl[i]))
			fprintf(fp, ", fl%zu(x) lw 1 dt 3 lc rgb \"%s\" notitle", i,
				roof_colors[i % NCOLORS]);
	for (size_t i = 0; i < r->nbw; i++)
		if (spread_drawn(r->bw[i]))
			fprintf(fp, ", bl%zu(x) lw 1 dt 3 lc rgb \"%s\" notitle", i,
				roof_colors[(r->nfl + i) % NCOLORS]);
}

static void write_tail(FILE *fp)
{
	fprintf(fp, "set terminal pngcairo size %.0f,%.0f font \"sans,10\"\n"
		    "set output outbase.\".png\"\n"
		    "eval plot_roofline\n"
		    "set terminal svg size %.0f,%.0f font \"sans,10\"\n"
		    "set output outbase.\".svg\"\n"
		    "eval plot_roofline\n"
		    "unset output\n", CANVAS_W, CANVAS_H, CANVAS_W, CANVAS_H);
}

/* The roofline charts' end: the terminals, then rendered and moved into place, or abandoned
 * when a label could not be placed for want of memory. */
static int finish_chart(struct rt_outfile *of, const struct canvas *c, const char *outbase,
			struct rt_err *err)
{
	write_tail(of->fp);
	if (c->oom) {
		rt_outfile_abort(of);
		return rt_err_set(err, -ENOMEM, "out of memory");
	}
	return rt_plot_finish(of, outbase, err);
}

static const char *gnuplot_prog(void)
{
	const char *env = getenv("GNUPLOT");

	return env && *env ? env : RT_GNUPLOT;
}

bool rt_plot_have_gnuplot(void)
{
	char buf[4096];

	return rt_spawn_which(gnuplot_prog(), buf, sizeof(buf));
}

/* Whether a rendered picture is whole: a PNG that starts with its signature and ends with its
 * IEND chunk, an SVG whose last element closes </svg>. gnuplot can exit 0 on a full disk and
 * leave an empty or a cut file. */
static bool picture_complete(const char *path, bool png)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	static const unsigned char iend[12] = { 0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60,
						 0x82 };
	unsigned char head[8], tail[64];
	FILE *fp = fopen(path, "rbe");
	long size;
	size_t got, end;
	bool ok = false;

	if (!fp)
		return false;
	if (!fseek(fp, 0, SEEK_END) && (size = ftell(fp)) > 0 && !fseek(fp, 0, SEEK_SET) &&
	    fread(head, 1, sizeof(head), fp) == sizeof(head) &&
	    !fseek(fp, size > (long)sizeof(tail) ? size - (long)sizeof(tail) : 0, SEEK_SET)) {
		got = fread(tail, 1, sizeof(tail), fp);
		if (png) {
			ok = !memcmp(head, sig, sizeof(sig)) && got >= sizeof(iend) &&
			     !memcmp(tail + got - sizeof(iend), iend, sizeof(iend));
		} else {
			for (end = got; end > 0 && (tail[end - 1] == '\n' || tail[end - 1] == ' ' ||
						    tail[end - 1] == '\r' || tail[end - 1] == '\t'); )
				end--;
			ok = end >= 6 && !memcmp(tail + end - 6, "</svg>", 6);
		}
	}
	fclose(fp);
	return ok;
}

/* Close the script written under its temporary name, render it to OUTBASE.png/.svg in a
 * private directory of our own beside them (mkdtemp: nothing planted there can redirect
 * gnuplot's writes), check that both pictures are whole, and only then move the pictures
 * and the script into place: a chart that fails leaves the previous one whole. Without
 * gnuplot the script alone is committed and the answer is RT_PLOT_SCRIPT_ONLY (a note for the
 * caller, not a failure). */
int rt_plot_finish(struct rt_outfile *of, const char *outbase, struct rt_err *err)
{
	static const char *const exts[] = { ".png", ".svg" };
	char prog[4096];
	/* the names come from outbase, a path of any length: built to their length */
	struct rt_buf tmpdir, tmpbase, from[2], to[2];
	struct rt_child ch = { 0 };
	bool rendered[2] = { false, false }, made = false;
	int rc;

	rt_buf_init(&tmpdir);
	rt_buf_init(&tmpbase);
	for (size_t i = 0; i < 2; i++) {
		rt_buf_init(&from[i]);
		rt_buf_init(&to[i]);
	}
	if (!rt_spawn_which(gnuplot_prog(), prog, sizeof(prog))) {
		if (!(rc = rt_outfile_commit(of, err)))
			rc = rt_err_set(err, RT_PLOT_SCRIPT_ONLY, "gnuplot is not installed; '%s' is "
					"ready to render", of->path);
		goto out;
	}
	if ((rc = rt_outfile_close(of, err)))
		goto out;
	(void)rt_buf_dirname(&tmpdir, outbase);
	(void)rt_buf_puts(&tmpdir, "/.rooftraj-chart-XXXXXX");
	if (tmpdir.failed) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto fail;
	}
	if (!mkdtemp(tmpdir.s)) {
		rc = rt_err_set(err, -errno, "%s: cannot create: %s", tmpdir.s, strerror(errno));
		goto fail;
	}
	made = true;
	(void)rt_buf_printf(&tmpbase, "%s/chart", tmpdir.s);
	for (size_t i = 0; i < 2; i++) {
		(void)rt_buf_printf(&from[i], "%s%s", tmpbase.s, exts[i]);
		(void)rt_buf_printf(&to[i], "%s%s", outbase, exts[i]);
	}
	if (tmpbase.failed || from[0].failed || from[1].failed || to[0].failed || to[1].failed) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto fail;
	}
	{
		/* the output name goes in as ARG1, a string gnuplot never parses */
		char *argv[] = { prog, "-c", of->tmp, tmpbase.s, NULL };

		rc = rt_spawn_run(argv, NULL, 0, 300, &ch, err);
	}
	free(ch.out);
	if (!rc && !ch.ok)
		rc = !strcmp(ch.reason, "interrupted") ?
		     rt_err_set(err, -EINTR, "interrupted while gnuplot drew '%s'", of->path) :
		     rt_err_set(err, -EIO, "gnuplot failed on '%s' (the previous chart is kept): %s",
				of->path, ch.reason);
	for (size_t i = 0; i < 2 && !rc; i++)
		if (!picture_complete(from[i].s, i == 0))
			rc = rt_err_set(err, -EIO, "%s: gnuplot's %s is missing or incomplete (a full "
					"disk?): the previous chart is kept", to[i].s,
					i ? "SVG" : "PNG");
	for (size_t i = 0; i < 2 && !rc; i++) {
		if (rename(from[i].s, to[i].s))
			rc = rt_err_set(err, -errno, "%s: cannot rename to '%s': %s", from[i].s,
					to[i].s, strerror(errno));
		else
			rendered[i] = true;
	}
	if (!rc)
		rc = rt_outfile_rename(of, err);
fail:
	for (size_t i = 0; i < 2; i++)
		if (made && !rendered[i])
			unlink(from[i].s);
	if (made)
		rmdir(tmpdir.s);
	if (rc)
		unlink(of->tmp);
out:
	rt_buf_fini(&tmpdir);
	rt_buf_fini(&tmpbase);
	for (size_t i = 0; i < 2; i++) {
		rt_buf_fini(&from[i]);
		rt_buf_fini(&to[i]);
	}
	return rc;
}

int rt_plot_open(struct rt_outfile *of, const char *outbase, struct rt_err *err)
{
	struct rt_buf path;
	int rc;

	rt_buf_init(&path);
	rc = rt_buf_printf(&path, "%s.gp", outbase) ? rt_err_set(err, -ENOMEM, "out of memory") :
	     rt_outfile_open(of, path.s, err);
	rt_buf_fini(&path);
	return rc;
}

int rt_plot_roofline(const struct rt_profile *p, unsigned threads, bool all_roofs,
		     const char *outbase, struct rt_err *err)
{
	struct canvas c;
	struct roofs r;
	struct rt_outfile of;
	char title[512];
	int rc;

	/* the most threads with trusted (unflagged) ceilings */
	if ((rc = collect_roofs_near(p, threads ? threads : rt_profile_max_threads(p), NULL,
				     all_roofs, &r, &threads, err)))
		return rc;
	if ((rc = rt_plot_open(&of, outbase, err)))
		return rc;
	fprintf(of.fp, "# Roofline of a node at %u thread%s, from its rooftraj machine profile.\n"
		"# Render: gnuplot -c SCRIPT OUTBASE (writes OUTBASE.png and OUTBASE.svg;\n"
		"#   without OUTBASE, the script's own name without .gp)\n",
		threads, threads > 1 ? "s" : "");
	snprintf(title, sizeof(title), "Roofline of %s (%s), %u thread%s%s", p->host, p->cpu.model,
		 threads, threads > 1 ? "s" : "", all_roofs ? "" : ": each precision's peak, "
		 "each memory level's best bandwidth, theoretical peaks dashed");
	write_head(of.fp, outbase, title, &c, fmax(0.01, fmin(r.pmin / 4, r.bmin / 64)),
		   r.pmax * 3, 256, false);
	write_roof_functions(of.fp, &r);
	write_roof_labels(of.fp, &c, &r);
	fprintf(of.fp, "plot_roofline = 'plot ");
	write_roof_clauses(of.fp, &r);
	fprintf(of.fp, "'\n");
	write_tail(of.fp);
	canvas_free(&c);
	return rt_plot_finish(&of, outbase, err);
}

/* A point's value of knob k, as a number that orders it along the knob. */
static long knob_value(const struct rt_point *p, enum rt_knob k)
{
	switch (k) {
	case RT_KNOB_THREADS: return (long)p->threads;
	case RT_KNOB_BATCH: return p->batch;
	case RT_KNOB_AFFINITY: return (long)p->affinity;
	case RT_KNOB_PRECISION: return (long)p->precision;
	case RT_KNOB_INPUT: return p->input_h * p->input_w;
	default: return (long)p->ranks;
	}
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* The knob a point varies along: the one with the most distinct values among the points
 * (ranks first: a tie between ranks and another knob is a scaling study). */
static enum rt_knob trajectory_knob(const struct rt_point *const *v, size_t n, long *scratch)
{
	static const enum rt_knob order[RT_KNOB_COUNT] = {
		RT_KNOB_RANKS, RT_KNOB_THREADS, RT_KNOB_BATCH, RT_KNOB_AFFINITY, RT_KNOB_PRECISION,
		RT_KNOB_INPUT };
	enum rt_knob knob = RT_KNOB_THREADS;
	size_t best = 0;

	for (int o = 0; o < RT_KNOB_COUNT; o++) {
		const enum rt_knob k = order[o];
		size_t distinct = 0;

		for (size_t i = 0; i < n; i++)
			scratch[i] = knob_value(v[i], k);
		qsort(scratch, n, sizeof(*scratch), cmp_long);
		for (size_t i = 0; i < n; i++)
			distinct += !i || scratch[i] != scratch[i - 1];
		if (distinct > best) {
			best = distinct;
			knob = k;
		}
	}
	return knob;
}

static void series_key(const struct rt_point *p, enum rt_knob knob, char *buf, size_t size)
{
	const char *run = p->run, *sep = *p->run ? ": " : "", *pl = p->threads == 1 ? "" : "s";

	if (knob == RT_KNOB_THREADS)
		snprintf(buf, size, "%s%sbatch %ld, %s, %s", run, sep, p->batch,
			 rt_point_affinity_name(p), rt_point_precision_name(p));
	else if (knob == RT_KNOB_BATCH)
		snprintf(buf, size, "%s%s%u thread%s, %s, %s", run, sep, p->threads, pl,
			 rt_point_affinity_name(p), rt_point_precision_name(p));
	else if (knob == RT_KNOB_AFFINITY)
		snprintf(buf, size, "%s%s%u thread%s, batch %ld, %s", run, sep, p->threads, pl,
			 p->batch, rt_point_precision_name(p));
	else if (knob == RT_KNOB_PRECISION)
		snprintf(buf, size, "%s%s%u thread%s, batch %ld, %s", run, sep, p->threads, pl,
			 p->batch, rt_point_affinity_name(p));
	else if (knob == RT_KNOB_INPUT)
		snprintf(buf, size, "%s%s%u thread%s, batch %ld, %s, %s", run, sep, p->threads,
			 pl, p->batch, rt_point_affinity_name(p), rt_point_precision_name(p));
	else    /* over ranks: strong (same global batch) and weak scaling share a series */
		snprintf(buf, size, "%s%s%u thread%s per rank, %s, %s", run, sep, p->threads, pl,
			 rt_point_affinity_name(p), rt_point_precision_name(p));
	/* the input, when it is not the knob: configurations on other inputs are other series */
	if (knob != RT_KNOB_INPUT && p->input_h && strlen(buf) + 24 < size)
		snprintf(buf + strlen(buf), size - strlen(buf), ", %ldx%ld", p->input_h, p->input_w);
	/* configurations that did not get their cores: a series of their own, no trajectory */
	if (p->status == RT_STATUS_DISTURBED)
		snprintf(buf, size, "%s%sdisturbed (not compared)", run, sep);
}

static void knob_label(const struct rt_point *p, enum rt_knob knob, char *buf, size_t size)
{
	if (knob == RT_KNOB_THREADS)
		snprintf(buf, size, "%ut", p->threads);
	else if (knob == RT_KNOB_BATCH)
		snprintf(buf, size, "b%ld", p->batch);
	else if (knob == RT_KNOB_AFFINITY)
		snprintf(buf, size, "%s", rt_point_affinity_name(p));
	else if (knob == RT_KNOB_PRECISION)
		snprintf(buf, size, "%s", rt_point_precision_name(p));
	else if (knob == RT_KNOB_INPUT)
		snprintf(buf, size, "%ldx%ld", p->input_h, p->input_w);
	else
		snprintf(buf, size, "%ur b%ld", p->ranks, p->batch);
}

/* A trajectory point with its series key computed once, for sorting. */
struct traj_point {
	const struct rt_point *p;
	char key[160];
	long order;
};

static int cmp_traj(const void *a, const void *b)
{
	const struct traj_point *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->order > y->order) - (x->order < y->order);
}



int rt_plot_trajectories(const struct rt_profile *prof, const struct rt_point *pts, size_t n,
			 const char *title_what, bool all_roofs, const char *outbase,
			 struct rt_err *err)
{
	struct traj_point *v = calloc(n ? n : 1, sizeof(*v));
	long *scratch = calloc(n ? n : 1, sizeof(*scratch));
	bool *disturbed = calloc(n ? n : 1, sizeof(*disturbed));
	struct rt_points_index ix = { 0 };
	const struct rt_point **vp = calloc(n ? n : 1, sizeof(*vp));
	unsigned threads = 0, roof_threads = 0;
	char precs[64] = "", label[64];
	double imax = 0, gmin = INFINITY;
	struct canvas c = { 0 };
	struct rt_outfile of;
	struct roofs r;
	char title[512];
	size_t nv = 0, ns = 0;
	enum rt_knob knob;
	int rc = 0;

	if (!v || !scratch || !vp || !disturbed) {
		rc = rt_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	if ((rc = rt_points_index_build(&ix, pts, n, err)))
		goto out;
	for (size_t i = 0; i < n; i++)
		if (rt_point_is_measured(&pts[i]) && drawable(&pts[i])) {
			const char *prec = rt_point_precision_name(&pts[i]);

			vp[nv++] = &pts[i];
			threads = rt_point_threads(&pts[i]) > threads ? rt_point_threads(&pts[i]) :
				  threads;
			/* the roofs of every precision the points ran in */
			if (!in_list(precs, prec) && strlen(precs) + strlen(prec) + 2 < sizeof(precs))
				snprintf(precs + strlen(precs), sizeof(precs) - strlen(precs), "%s%s",
					 *precs ? "," : "", prec);
			gmin = fmin(gmin, pts[i].gflops);
			imax = fmax(imax, pts[i].intensity);
		}
	if (!nv) {
		rc = rt_err_set(err, -EINVAL, "no successful point to draw");
		goto out;
	}
	/* the roofs of the most threads any point used (or the most the profile measured
	 * below that) */
	if ((rc = collect_roofs_near(prof, threads, precs, all_roofs, &r, &roof_threads, err)))
		goto out;
	knob = trajectory_knob(vp, nv, scratch);
	/* sort by series, then by the knob's value */
	for (size_t i = 0; i < nv; i++) {
		v[i].p = vp[i];
		series_key(vp[i], knob, v[i].key, sizeof(v[i].key));
		v[i].order = knob_value(vp[i], knob);
	}
	qsort(v, nv, sizeof(*v), cmp_traj);
	if ((rc = rt_plot_open(&of, outbase, err)))
		goto out;
	fprintf(of.fp, "# Roofline trajectories under the roofs of a node at %u thread%s.\n"
		"# Render: gnuplot -c SCRIPT OUTBASE (writes OUTBASE.png and OUTBASE.svg)\n",
		roof_threads, roof_threads > 1 ? "s" : "");
	snprintf(title, sizeof(title), "%s on %s: trajectories as %s varies (roofs at %u thread%s)",
		 title_what, prof->host, knob == RT_KNOB_INPUT ? "input size" : rt_vocab_knobs[knob],
		 roof_threads,
		 roof_threads > 1 ? "s" : "");
	write_head(of.fp, outbase, title, &c, fmax(0.01, fmin(r.pmin / 4, gmin / 4)), r.pmax * 3,
		   4 * imax, true);
	write_roof_functions(of.fp, &r);
	/* the points' places first, then the roofs' names, then the points' labels */
	for (size_t i = 0; i < nv; i++)
		take_marker(&c, v[i].p->intensity, v[i].p->gflops, 6);
	write_roof_labels(of.fp, &c, &r);
	for (size_t i = 0; i < nv && c.labels++ < MAX_POINT_LABELS; i++) {
		knob_label(v[i].p, knob, label, sizeof(label));
		place_label(of.fp, &c, label, px_x(&c, v[i].p->intensity), px_y(&c, v[i].p->gflops),
			    point_places, NPOINT_PLACES, "");
	}
	if (nv > MAX_POINT_LABELS)
		fprintf(of.fp, "# %zu points: the first %d are labelled\n", nv, MAX_POINT_LABELS);
	/* one data block per series (intensity, GFLOP/s, and its range over the runs: the
	 * slowest and the fastest) and its title S<i> */
	for (size_t i = 0, first = 0; i < nv; i++) {
		if (i + 1 < nv && !strcmp(v[i + 1].key, v[i].key))
			continue;
		disturbed[ns] = v[i].p->status == RT_STATUS_DISTURBED;
		fprintf(of.fp, "$s%zu << EOD\n", ns);
		for (size_t j = first; j <= i; j++) {
			const struct rt_point *p = v[j].p,
				*mn = rt_points_stat_of(&ix, pts, n, p, RT_STAT_MIN),
				*mx = rt_points_stat_of(&ix, pts, n, p, RT_STAT_MAX);
			const double lo = mx && mx->seconds > 0 ? p->flops / mx->seconds / 1e9 : p->gflops,
				     hi = mn && mn->seconds > 0 ? p->flops / mn->seconds / 1e9 : p->gflops;

			fprintf(of.fp, "%.6g %.6g %.6g %.6g\n", p->intensity, p->gflops, lo, hi);
		}
		fprintf(of.fp, "EOD\nS%zu = ", ns);
		rt_plot_quote(of.fp, v[i].key);
		fputc('\n', of.fp);
		ns++;
		first = i + 1;
	}
	fprintf(of.fp, "plot_roofline = 'plot ");
	write_roof_clauses(of.fp, &r);
	for (size_t k = 0; k < ns; k++)
		if (disturbed[k])       /* open grey circles, no line: not a trajectory */
			fprintf(of.fp, ", $s%zu using 1:2 with points pt 6 ps 1.4 lc rgb \"#888888\" "
				"title S%zu", k, k);
		else
			fprintf(of.fp, ", $s%zu using 1:2 with linespoints lw 2 pt 7 ps 1.2 lc rgb "
				"\"%s\" title S%zu, $s%zu using 1:2:3:4 with yerrorbars pt 7 ps 0 lw 1.5 "
				"lc rgb \"%s\" notitle", k, roof_colors[(k + 3) % NCOLORS], k, k,
				roof_colors[(k + 3) % NCOLORS]);
	fprintf(of.fp, "'\n");
	rc = finish_chart(&of, &c, outbase, err);
out:
	canvas_free(&c);
	rt_points_index_free(&ix);
	free(disturbed);
	free(v);
	free(scratch);
	free(vp);
	return rc;
}

static bool layer_point(const struct rt_point *p, const char *config)
{
	return !strcmp(p->config, config) && p->scope == RT_SCOPE_LAYER &&
	       p->stat == RT_STAT_MEDIAN &&
	       (p->status == RT_STATUS_OK || p->status == RT_STATUS_DISTURBED) && drawable(p);
}

/* A layer's share of its configuration's iteration, 0..1. */
static double layer_share(const struct rt_point *layer, const struct rt_point *iteration)
{
	return iteration && iteration->seconds > 0 ? fmin(1, layer->seconds / iteration->seconds) :
	       0;
}

int rt_plot_layers(const struct rt_profile *prof, const struct rt_point *pts, size_t n,
		   const char *config, bool all_roofs, const char *outbase, struct rt_err *err)
{
	const struct rt_point *it = rt_points_headline(pts, n, config);
	struct rt_roofbook *book = NULL;
	unsigned threads = 0, roof_threads = 0;
	double gmin = INFINITY, imax = 0;
	struct canvas c = { 0 };
	struct rt_outfile of;
	struct roofs r;
	char title[512], prec[8] = "fp32", label[200];
	size_t nl = 0;
	int rc;

	for (size_t i = 0; i < n; i++)
		if (layer_point(&pts[i], config)) {
			threads = rt_point_threads(&pts[i]);
			snprintf(prec, sizeof(prec), "%s", rt_point_precision_name(&pts[i]));
			gmin = fmin(gmin, pts[i].gflops);
			imax = fmax(imax, pts[i].intensity);
			nl++;
		}
	if (!nl)
		return rt_err_set(err, -ENODATA, "no per-layer points for %s", config);
	if ((rc = collect_roofs_near(prof, threads, prec, all_roofs, &r, &roof_threads, err)))
		return rc;
	if ((rc = rt_plot_open(&of, outbase, err)))
		return rc;
	fprintf(of.fp, "# The layers of a configuration on the roofline of a node (%u thread%s)\n"
		"# data: intensity, GFLOP/s, point size (from the layer's share of the iteration)\n",
		roof_threads, roof_threads > 1 ? "s" : "");
	snprintf(title, sizeof(title), "Layers of %s on %s: forward + backward per iteration, "
		 "dot area ~ share of the iteration, [the memory level that holds its bytes]",
		 config, prof->host);
	write_head(of.fp, outbase, title, &c, fmax(0.001, fmin(r.pmin / 4, gmin / 4)), r.pmax * 3,
		   4 * imax, true);
	write_roof_functions(of.fp, &r);
	fprintf(of.fp, "$layers << EOD\n");
	for (size_t i = 0; i < n; i++)
		if (layer_point(&pts[i], config)) {
			const double ps = 0.6 + 4.0 * sqrt(layer_share(&pts[i], it));

			fprintf(of.fp, "%.6g %.6g %.3f\n", pts[i].intensity, pts[i].gflops, ps);
			take_marker(&c, pts[i].intensity, pts[i].gflops, 4.5 * ps);
		}
	fprintf(of.fp, "EOD\n");
	write_roof_labels(of.fp, &c, &r);
	/* (without the book, the labels say "?" for the level: the chart is still drawn) */
	(void)rt_roofbook_create(&book, prof, NULL);
	/* the heaviest layers' labels first: they get the best places */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++) {
			struct rt_bound b;
			double share;

			if (!layer_point(&pts[i], config))
				continue;
			share = layer_share(&pts[i], it);
			if ((share >= 0.05) != (pass == 0))
				continue;
			snprintf(label, sizeof(label), "%.150s [%s] %.0f%%", pts[i].name,
				 book && !rt_point_bound(&pts[i], book, &b) ? b.level : "?", 100 * share);
			if (c.labels++ < MAX_POINT_LABELS)
				place_label(of.fp, &c, label, px_x(&c, pts[i].intensity),
					    px_y(&c, pts[i].gflops), point_places, NPOINT_PLACES,
					    "font \",9\"");
		}
	fprintf(of.fp, "plot_roofline = 'plot ");
	write_roof_clauses(of.fp, &r);
	fprintf(of.fp, ", $layers using 1:2:3 with points pt 7 ps variable lc rgb \"#1f3b73\" "
		"title \"layers\"'\n");
	rt_roofbook_destroy(book);
	rc = finish_chart(&of, &c, outbase, err);
	canvas_free(&c);
	return rc;
}

int rt_plot_marks(const struct rt_profile *prof, unsigned threads, const char *precision,
		  bool all_roofs, const struct rt_plot_mark *m, size_t n,
		  const struct rt_plot_series *series, size_t nseries, const char *title,
		  const char *outbase, struct rt_err *err)
{
	static const char *const colors[] = { "#1f3b73", "#c0392b", "#2e8b57", "#8e44ad" };
	char full[640];                 /* the callers' titles are under 500 characters */
	double gmin = INFINITY, imax = 0;
	struct canvas c = { 0 };
	struct rt_outfile of;
	struct roofs r;
	unsigned roof_threads = 0;
	size_t drawn = 0;
	int rc;

	for (size_t i = 0; i < n; i++)
		if (m[i].gflops > 0 && m[i].intensity > 0 && isfinite(m[i].gflops) &&
		    isfinite(m[i].intensity) && m[i].series >= 0 && (size_t)m[i].series < nseries) {
			gmin = fmin(gmin, m[i].gflops);
			imax = fmax(imax, m[i].intensity);
			drawn++;
		}
	if (!drawn)
		return rt_err_set(err, -ENODATA, "no point with FLOPs and bytes to draw");
	if ((rc = collect_roofs_near(prof, threads, precision, all_roofs, &r, &roof_threads, err)))
		return rc;
	if ((rc = rt_plot_open(&of, outbase, err)))
		return rc;
	fprintf(of.fp, "# Named points on the roofline of a node (%u thread%s)\n# $sK: a "
		"series each: intensity, GFLOP/s, point size\n", roof_threads,
		roof_threads > 1 ? "s" : "");
	/* the title says which thread count's roofs it draws, as the trajectories' do */
	snprintf(full, sizeof(full), "%s (roofs at %u thread%s)", title, roof_threads,
		 roof_threads > 1 ? "s" : "");
	write_head(of.fp, outbase, full, &c, fmax(0.001, fmin(r.pmin / 4, gmin / 4)), r.pmax * 3,
		   4 * imax, true);
	write_roof_functions(of.fp, &r);
	for (size_t k = 0; k < nseries; k++) {
		fprintf(of.fp, "$s%zu << EOD\n", k);
		for (size_t i = 0; i < n; i++) {
			const double ps = 0.6 + 3.0 * sqrt(fmin(1, fmax(0, m[i].size)));

			if ((size_t)m[i].series != k || !(m[i].gflops > 0) || !(m[i].intensity > 0) ||
			    !isfinite(m[i].gflops) || !isfinite(m[i].intensity))
				continue;
			fprintf(of.fp, "%.6g %.6g %.3f\n", m[i].intensity, m[i].gflops, ps);
			take_marker(&c, m[i].intensity, m[i].gflops, 4.5 * ps);
		}
		fprintf(of.fp, "EOD\n");
	}
	write_roof_labels(of.fp, &c, &r);
	for (size_t i = 0; i < n; i++) {
		char label[200];

		if (!m[i].label || !(m[i].gflops > 0) || !(m[i].intensity > 0) ||
		    !isfinite(m[i].gflops) || !isfinite(m[i].intensity) || m[i].series < 0 ||
		    (size_t)m[i].series >= nseries || c.labels++ >= MAX_POINT_LABELS)
			continue;
		snprintf(label, sizeof(label), "%.190s", m[i].label);
		place_label(of.fp, &c, label, px_x(&c, m[i].intensity), px_y(&c, m[i].gflops),
			    point_places, NPOINT_PLACES, "font \",9\"");
	}
	fprintf(of.fp, "plot_roofline = 'plot ");
	write_roof_clauses(of.fp, &r);
	for (size_t k = 0; k < nseries; k++) {
		/* the title is a string variable: no text of ours inside the plot command */
		fprintf(of.fp, ", $s%zu using 1:2:3 with %s pt 7 ps variable lc rgb \"%s\" title S%zu",
			k, series[k].line ? "linespoints" : "points",
			k < 4 ? colors[k] : roof_colors[(k + 3) % NCOLORS], k);
	}
	fprintf(of.fp, "'\n");
	/* the series' titles, quoted, defined before the plot string is evaluated */
	for (size_t k = 0; k < nseries; k++) {
		fprintf(of.fp, "S%zu = ", k);
		rt_plot_quote(of.fp, series[k].title);
		fputc('\n', of.fp);
	}
	rc = finish_chart(&of, &c, outbase, err);
	canvas_free(&c);
	return rc;
}
