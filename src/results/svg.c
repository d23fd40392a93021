/* svg.c: an SVG chart made safe to inline: a whitelist of drawing elements and attributes,
 * references that stay inside the chart, ids prefixed */
#include "config.h"
#include "results/svg.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

/* What gnuplot's svg terminal draws with, and the little more a chart may hold. Exact names:
 * a variant in other case (SCRIPT, onLoad) is not on the list and is dropped. */
static const char *const elements[] = {
	"svg", "g", "path", "polygon", "polyline", "line", "rect", "circle", "ellipse", "text",
	"tspan", "title", "desc", "defs", "use", "symbol", "marker", "pattern", "clipPath",
	"mask", "linearGradient", "radialGradient", "stop", "filter", "feComposite", "feFlood",
	"feOffset", "feGaussianBlur", "feMerge", "feMergeNode", "feBlend",
};

static const char *const attributes[] = {
	"id", "class", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "width",
	"height", "viewBox", "d", "points", "transform", "fill", "fill-opacity", "fill-rule",
	"stroke", "stroke-width", "stroke-opacity", "stroke-dasharray", "stroke-dashoffset",
	"stroke-linecap", "stroke-linejoin", "stroke-miterlimit", "opacity", "color",
	"font-family", "font-size", "font-weight", "font-style", "text-anchor",
	"dominant-baseline", "alignment-baseline", "baseline-shift", "dx", "dy", "rotate",
	"textLength", "lengthAdjust", "shape-rendering", "text-rendering", "clip-path",
	"clip-rule", "clipPathUnits", "mask", "filter", "filterUnits", "primitiveUnits", "in",
	"in2", "operator", "result", "mode", "flood-color", "flood-opacity", "stdDeviation",
	"k1", "k2", "k3", "k4", "offset", "stop-color", "stop-opacity", "gradientUnits",
	"gradientTransform", "spreadMethod", "patternUnits", "patternContentUnits",
	"patternTransform", "markerWidth", "markerHeight", "markerUnits", "refX", "refY",
	"orient", "preserveAspectRatio", "visibility", "display", "xmlns", "xmlns:xlink",
	"version", "href", "xlink:href", "xml:space",
};

static bool listed(const char *const *list, size_t n, const char *s, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(list[i]) == len && !memcmp(list[i], s, len))
			return true;
	return false;
}

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == ':' || c == '_' || c == '-' || c == '.';
}

/* A value that points outside the chart, or runs code. */
static bool foreign(const char *v, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (len - i >= 4 && !strncasecmp(v + i, "url(", 4)) {
			size_t j = i + 4;

			/* url(#id), url('#id') or url("#id"): one quote at most */
			while (j < len && v[j] == ' ')
				j++;
			if (j < len && (v[j] == '\'' || v[j] == '"'))
				j++;
			if (j >= len || v[j] != '#')
				return true;
		}
		if (len - i >= 11 && !strncasecmp(v + i, "javascript:", 11))
			return true;
		if (len - i >= 11 && !strncasecmp(v + i, "expression(", 11))
			return true;
		if (v[i] == '<')
			return true;
	}
	return false;
}

/* An attribute value, double-quoted, with url(#x) and its kin prefixed. */
static void put_value(FILE *fp, const char *v, size_t len, const char *prefix, bool is_id,
		      bool is_ref)
{
	fputc('"', fp);
	if (is_id)
		fputs(prefix, fp);
	for (size_t i = 0; i < len; i++) {
		if (is_ref && i == 0 && v[0] == '#') {
			fputc('#', fp);
			fputs(prefix, fp);
			continue;
		}
		if (len - i >= 5 && !strncasecmp(v + i, "url(#", 5)) {
			fwrite(v + i, 1, 5, fp);
			fputs(prefix, fp);
			i += 4;
			continue;
		}
		if (v[i] == '"')
			fputs("&quot;", fp);
		else
			fputc(v[i], fp);
	}
	fputc('"', fp);
}

/* Past the end of the construct that starts at p and ends with `end` (or the text's end). */
static const char *skip_past(const char *p, const char *end)
{
	const char *q = strstr(p, end);

	return q ? q + strlen(end) : p + strlen(p);
}

/* One start tag at p ('<' then a name): written when kept (not inside a dropped element, its
 * name and each attribute on the lists). Returns where it ends; *self when it closed itself
 * ("/>"); *kept whether the element is kept. */
static const char *start_tag(FILE *fp, const char *p, const char *prefix, bool write,
			     bool *self, bool *kept)
{
	const char *name = ++p;
	size_t nlen;

	while (name_char(*p))
		p++;
	nlen = (size_t)(p - name);
	*kept = write && listed(elements, sizeof(elements) / sizeof(elements[0]), name, nlen);
	*self = false;
	if (*kept)
		fprintf(fp, "<%.*s", (int)nlen, name);
	for (;;) {
		const char *an, *v = "";
		size_t alen, vlen = 0;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (*p == '>') {
			p++;
			break;
		}
		if (p[0] == '/' && p[1] == '>') {
			*self = true;
			p += 2;
			break;
		}
		an = p;
		while (*p && !isspace((unsigned char)*p) && *p != '=' && *p != '>' &&
		       !(p[0] == '/' && p[1] == '>'))
			p++;
		alen = (size_t)(p - an);
		if (!alen) {
			p++;            /* a stray character: passed over */
			continue;
		}
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '=') {
			p++;
			while (isspace((unsigned char)*p))
				p++;
			if (*p == '"' || *p == '\'') {
				const char q = *p++;

				v = p;
				while (*p && *p != q)
					p++;
				vlen = (size_t)(p - v);
				if (*p)
					p++;
			} else {
				v = p;
				while (*p && !isspace((unsigned char)*p) && *p != '>')
					p++;
				vlen = (size_t)(p - v);
			}
		}
		if (!*kept || !listed(attributes, sizeof(attributes) / sizeof(attributes[0]), an,
				      alen) || foreign(v, vlen))
			continue;
		{
			const bool is_id = alen == 2 && !memcmp(an, "id", 2);
			const bool is_ref = (alen == 4 && !memcmp(an, "href", 4)) ||
					    (alen == 10 && !memcmp(an, "xlink:href", 10));

			/* a reference leaves the chart unless it names one of its ids */
			if (is_ref && (!vlen || v[0] != '#'))
				continue;
			fprintf(fp, " %.*s=", (int)alen, an);
			put_value(fp, v, vlen, prefix, is_id, is_ref);
		}
	}
	if (*kept)
		fputs(*self ? "/>" : ">", fp);
	return p;
}

int rt_svg_inline(FILE *fp, const char *text, const char *prefix)
{
	enum { MAX_DEPTH = 256 };
	const char *p = text;
	/* the open elements, each with its name and whether it was kept (a dropped one drops
	 * its content); past MAX_DEPTH an element is dropped with what it holds */
	char names[MAX_DEPTH][32];
	bool kept_stack[MAX_DEPTH];
	size_t depth = 0, dropped = 0, overflow = 0;

	/* the <svg> start tag */
	for (;;) {
		p = strstr(p, "<svg");
		if (!p)
			return -1;
		if (isspace((unsigned char)p[4]) || p[4] == '>' || p[4] == '/')
			break;
		p += 4;
	}
	while (*p) {
		const bool writing = !dropped && !overflow;

		if (*p != '<') {
			const char *q = strchr(p, '<');
			size_t len = q ? (size_t)(q - p) : strlen(p);

			if (writing)
				fwrite(p, 1, len, fp);
			p += len;
			continue;
		}
		if (!strncmp(p, "<!--", 4)) {
			p = skip_past(p, "-->");
		} else if (!strncmp(p, "<![CDATA[", 9)) {
			p = skip_past(p, "]]>");
		} else if (p[1] == '!' || p[1] == '?') {
			p = skip_past(p, ">");
		} else if (p[1] == '/') {
			/* an end tag closes the innermost open element, whatever it names: the
			 * page stays well-formed */
			p = skip_past(p, ">");
			if (overflow) {
				overflow--;
				continue;
			}
			if (!depth)
				break;
			depth--;
			if (!kept_stack[depth])
				dropped--;
			else if (!dropped)
				fprintf(fp, "</%s>", names[depth]);
			if (!depth)
				break;  /* the chart's </svg> */
		} else if (isalpha((unsigned char)p[1])) {
			const char *name = p + 1;
			size_t nlen = 0;
			bool self, kept;

			while (name_char(name[nlen]))
				nlen++;
			p = start_tag(fp, p, prefix, writing && depth < MAX_DEPTH &&
				      nlen < sizeof(names[0]), &self, &kept);
			if (self)
				continue;
			if (overflow || depth == MAX_DEPTH) {
				overflow++;
				continue;
			}
			snprintf(names[depth], sizeof(names[0]), "%.*s", (int)nlen, name);
			kept_stack[depth++] = kept;
			if (!kept)
				dropped++;
		} else {
			if (writing)
				fputs("&lt;", fp);
			p++;
		}
	}
	/* close what the text left open */
	while (depth) {
		depth--;
		if (!kept_stack[depth])
			dropped--;
		else if (!dropped)
			fprintf(fp, "</%s>", names[depth]);
	}
	return 0;
}
