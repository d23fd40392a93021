/* svg-safe.h: the oracle for an inlined chart. It reads the sanitizer's output as a browser's
 * tokenizer would (tags, attribute names, quoted values, text) and says whether anything in it
 * could run, load or reach outside the chart. A word inside an attribute's value or a text node
 * ("onload" as a label) is data, not markup: only names and references are judged. */
#ifndef RT_SVG_SAFE_H
#define RT_SVG_SAFE_H

#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

/* The first problem in out, or NULL when it is safe to inline. */
static const char *svg_unsafe(const char *out)
{
	const char *p = out;

	while (p && *p) {
		const char *name;
		size_t nlen;

		if (*p != '<') {
			p++;
			continue;
		}
		p++;
		if (*p == '/')
			p++;
		name = p;
		while (isalnum((unsigned char)*p) || *p == ':' || *p == '_' || *p == '-' || *p == '.')
			p++;
		nlen = (size_t)(p - name);
		if (!nlen)
			return "a '<' that starts no tag";
		if ((nlen == 6 && !strncasecmp(name, "script", 6)) ||
		    (nlen == 5 && !strncasecmp(name, "image", 5)) ||
		    (nlen == 13 && !strncasecmp(name, "foreignObject", 13)) ||
		    (nlen == 5 && !strncasecmp(name, "style", 5)) ||
		    (nlen == 6 && !strncasecmp(name, "iframe", 6)) ||
		    (nlen == 1 && !strncasecmp(name, "a", 1)) ||
		    (nlen == 3 && !strncasecmp(name, "set", 3)) ||
		    (nlen >= 7 && !strncasecmp(name, "animate", 7)))
			return "an element that runs, loads or changes the page";
		for (;;) {
			const char *an, *v;
			size_t alen, vlen;

			while (*p == ' ')
				p++;
			if (*p == '>' || (p[0] == '/' && p[1] == '>'))
				break;
			an = p;
			while (*p && *p != '=' && *p != '>' && *p != ' ')
				p++;
			alen = (size_t)(p - an);
			if (!alen || *p != '=' || p[1] != '"')
				return "an attribute that is not name=\"value\"";
			p += 2;
			v = p;
			while (*p && *p != '"' && *p != '<')
				p++;
			if (*p != '"')
				return "an attribute value not closed by '\"' (or holding '<')";
			vlen = (size_t)(p - v);
			p++;
			if (alen >= 2 && !strncasecmp(an, "on", 2))
				return "an event attribute";
			if (alen == 5 && !strncasecmp(an, "style", 5))
				return "a style attribute";
			if (((alen == 4 && !strncasecmp(an, "href", 4)) ||
			     (alen == 10 && !strncasecmp(an, "xlink:href", 10))) &&
			    (!vlen || v[0] != '#'))
				return "a reference outside the chart";
			for (size_t i = 0; i < vlen; i++) {
				if (vlen - i >= 11 && !strncasecmp(v + i, "javascript:", 11))
					return "a javascript: value";
				if (vlen - i >= 4 && !strncasecmp(v + i, "url(", 4)) {
					size_t j = i + 4;

					while (j < vlen && v[j] == ' ')
						j++;
					if (vlen - j >= 6 && !strncmp(v + j, "&quot;", 6))
						j += 6;
					else if (j < vlen && v[j] == '\'')
						j++;
					if (j >= vlen || v[j] != '#')
						return "a url() outside the chart";
				}
			}
		}
		p += *p == '>' ? 1 : 2;
	}
	return NULL;
}

#endif
