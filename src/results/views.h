/* views.h: everything a results directory shows, drawn from its points.csv: the roofline
 * trajectories and layers (plot.h), the study charts (charts.h) and report.html, one page
 * that holds them all (charts inlined as SVG, no network, no JavaScript). A sweep writes
 * them when it ends; roofline-plot DIR writes them again. The probe's page of a node too. */
#ifndef RT_VIEWS_H
#define RT_VIEWS_H

#include <stdbool.h>
#include <stddef.h>
#include "base/err.h"
#include "results/points.h"
#include "node/profile.h"

struct rt_views_opts {
	const char *dir;                /* the results directory */
	const char *what;               /* the model's name, for the titles */
	const char *default_config;     /* the reference configuration (NULL or "": the first
					 * configuration of points.csv) */
	const struct rt_profile *prof;  /* the node's ceilings (NULL: no rooflines) */
	bool all_roofs;
	/* notes: a chart that could not be drawn and why (NULL: silent) */
	void (*say)(void *ctx, const char *msg);
	void *say_ctx;
};

/* The charts each view writes, DIR/NAME.gp (.png, .svg), in report.html in this order: the
 * name of chart k (NULL past the last). */
#define RT_VIEWS_NCHARTS 6
const char *rt_views_chart_name(size_t k);

/* Every chart the points can give and report.html. A chart that cannot be drawn is a note
 * (the others are drawn); without gnuplot the scripts are written and the page says so.
 * The first failure is returned (-EINTR when interrupted), after the rest were tried. */
int rt_views_write(const struct rt_views_opts *o, const struct rt_point *pts, size_t n,
		   struct rt_err *err);

/* A page of another tool's results (roofline-run): DIR/report.html with the lead sentences
 * (the first large), the charts drawn (inlined, made safe), and text files of DIR shown as
 * they are. */
struct rt_views_figure {
	const char *name;               /* DIR/NAME.svg */
	const char *title;
	int drawn;                      /* 0 not drawn, 1 its script only (no gnuplot), 2 rendered */
};
struct rt_views_file {
	const char *name, *heading;     /* a file of DIR (skipped when absent) */
};
struct rt_views_page {
	const char *dir, *title;
	const char *const *lead;
	size_t nlead;
	const struct rt_views_figure *figs;
	size_t nfigs;
	const char *no_chart;           /* why no chart was drawn (NULL: "nothing to draw") */
	const struct rt_views_file *files;
	size_t nfiles;
};
int rt_views_page_write(const struct rt_views_page *pg, struct rt_err *err);

/* The node's page, html_path: the profile's ceilings, caches and flags, and its roofline
 * chart (svg_path, inlined when it exists; else why_not says why it was not drawn). */
int rt_views_node_page(const struct rt_profile *p, const char *svg_path, const char *why_not,
		       const char *html_path, struct rt_err *err);

#endif
