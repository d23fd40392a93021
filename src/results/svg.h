/* svg.h: an SVG chart inlined into an HTML page, keeping only what a chart needs: the
 * elements and attributes of drawing (a whitelist), references inside the chart alone */
#ifndef RT_SVG_H
#define RT_SVG_H

#include <stdio.h>

/* Write the <svg> element of text (an SVG document) to fp for inlining: the prolog, comments,
 * CDATA and processing instructions dropped; every element not on the whitelist dropped with
 * its content (script, foreignObject, image, style, animation, ...); every attribute not on
 * the whitelist dropped (event handlers: on*), and so is any whose value references something
 * outside the chart (href or xlink:href not "#...", url( not "url(#", "javascript:"); ids and
 * the references to them prefixed with prefix so that several charts on one page keep their
 * own. Returns 0, or -1 when text holds no <svg> element (nothing written). */
int rt_svg_inline(FILE *fp, const char *text, const char *prefix);

#endif
