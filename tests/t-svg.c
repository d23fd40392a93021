/* t-svg.c: an SVG inlined into a page keeps what a chart draws and nothing that runs, loads or
 * reaches outside it: scripts, event handlers, external references, foreign content */
#include "config.h"
#include "results/svg.h"
#include "svg-safe.h"
#include "tap.h"

#include <stdlib.h>

/* text inlined with prefix "c0_", into a malloc'd string */
static char *inlined(const char *text, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	*rc = rt_svg_inline(fp, text, "c0_");
	fclose(fp);
	return buf;
}

int main(void)
{
	static const char *const hostile =
		"<?xml version=\"1.0\"?>\n<!DOCTYPE svg>\n<!-- a comment -->\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
		"width=\"10\" height=\"10\" onload=\"alert(1)\">\n"
		"<script>alert(2)</script><script type='text/javascript'><![CDATA[ alert(3) ]]></script>\n"
		"<g id='a' onclick=\"alert(4)\" ONMOUSEOVER='alert(5)'><path d='M0 0L1 1' "
		"stroke='red'/></g>\n"
		"<image href=\"http://example.com/x.png\" width=\"1\" height=\"1\"/>\n"
		"<use xlink:href=\"http://example.com/s.svg#x\"/><use xlink:href='#a'/>\n"
		"<rect fill=\"url(http://example.com/p#q)\" width=\"1\" height=\"1\"/>\n"
		"<rect fill=\"url(#grad)\" style=\"background:url(http://x)\" width=\"2\"/>\n"
		"<a href=\"javascript:alert(6)\"><text>link</text></a>\n"
		"<foreignObject><iframe src=\"http://example.com\"></iframe></foreignObject>\n"
		"<text x='1' y='2'>1 &lt; 2 &amp; fine</text>\n"
		"<style>@import url(http://example.com/s.css);</style>\n"
		"<set attributeName=\"onmouseover\" to=\"alert(7)\"/>\n"
		"<animate attributeName='href' values='javascript:alert(8)'/>\n"
		"</svg>\ntrailing <script>alert(9)</script>\n";
	int rc;
	char *out = inlined(hostile, &rc);

	is_int(rc, 0, "a hostile SVG is inlined (what is safe of it)");
	ok(out && !strstr(out, "script") && !strstr(out, "alert"), "no script, no handler's code");
	ok(out && !strstr(out, " on") && !strstr(out, " ON"), "no event attribute");
	ok(out && !strstr(out, "http://example.com") && !strstr(out, "javascript:"),
	   "nothing external, no javascript: URL");
	ok(out && !strstr(out, "<image") && !strstr(out, "foreignObject") &&
	   !strstr(out, "<iframe") && !strstr(out, "<style") && !strstr(out, "<set") &&
	   !strstr(out, "<animate") && !strstr(out, "<a "), "no foreign or active element");
	ok(out && !strstr(out, "<?xml") && !strstr(out, "DOCTYPE") && !strstr(out, "<!--"),
	   "no prolog, no comment");
	ok(out && strstr(out, "<path d=\"M0 0L1 1\" stroke=\"red\"/>"), "the drawing kept");
	ok(out && strstr(out, "<g id=\"c0_a\">"), "ids prefixed");
	ok(out && strstr(out, "<use xlink:href=\"#c0_a\"/>"), "an internal reference kept, prefixed");
	ok(out && strstr(out, "<rect fill=\"url(#c0_grad)\" width=\"2\"/>"),
	   "url(#id) prefixed, a style that loads dropped");
	ok(out && strstr(out, "<text x=\"1\" y=\"2\">1 &lt; 2 &amp; fine</text>"),
	   "text kept with its entities");
	ok(out && !strstr(out, "trailing"), "nothing after the chart's </svg>");
	ok(out && strstr(out, "</svg>") && !strstr(strstr(out, "</svg>") + 6, "<"),
	   "the chart closes last");
	ok(out && !svg_unsafe(out), "read as a browser reads it, nothing runs or loads: %s",
	   out && svg_unsafe(out) ? svg_unsafe(out) : "safe");
	free(out);

	/* the oracle itself: it sees each kind of danger, and a word in a value is no danger */
	ok(svg_unsafe("<svg onload=\"x\"></svg>") != NULL, "oracle: an event attribute seen");
	ok(svg_unsafe("<svg><script>x</script></svg>") != NULL, "oracle: a script seen");
	ok(svg_unsafe("<svg><use href=\"http://x\"/></svg>") != NULL,
	   "oracle: an outside reference seen");
	ok(svg_unsafe("<svg><rect fill=\"url(http://x)\"/></svg>") != NULL,
	   "oracle: an outside url() seen");
	ok(svg_unsafe("<svg><rect fill=red/></svg>") != NULL, "oracle: an unquoted value seen");
	ok(!svg_unsafe("<svg height=\"402 onload=\"><text>onload &lt;script</text></svg>"),
	   "oracle: words inside a value or a label are data");
	/* found by fuzzing: an unclosed quote swallows the handler that follows into the value */
	out = inlined("<svg width=\"100\" height=\"402 onload=\"alert(1)\">"
		      "<g id=\"a\" onclick=\"alert(3)\"/></svg>", &rc);
	ok(rc == 0 && out && !svg_unsafe(out) &&
	   strstr(out, "<svg width=\"100\" height=\"402 onload=\">") && !strstr(out, "onclick"),
	   "a handler swallowed by an open quote stays a value, the next one is dropped: %s",
	   out ? out : "");
	free(out);

	/* what does not close is closed: the page stays well-formed */
	out = inlined("<svg width='1'><g><text>a", &rc);
	ok(rc == 0 && out && !strcmp(out, "<svg width=\"1\"><g><text>a</text></g></svg>"),
	   "an unclosed chart is closed: %s", out ? out : "");
	free(out);
	out = inlined("<svg><g><script>x</g></svg>", &rc);
	ok(rc == 0 && out && !strcmp(out, "<svg><g></g></svg>"),
	   "a dropped element's content goes with it: %s", out ? out : "");
	free(out);
	/* a quote in an attribute value cannot close it early */
	out = inlined("<svg><text x='1\" onload=\"x'>t</text></svg>", &rc);
	ok(rc == 0 && out && strstr(out, "x=\"1&quot; onload=&quot;x\""),
	   "a quote inside a value stays inside it: %s", out ? out : "");
	free(out);
	/* found by fuzzing: quotes piled after url( hid where it points */
	out = inlined("<svg><rect fill='url(\"\"\"#a)' stroke=\"url('#b')\"/></svg>", &rc);
	ok(rc == 0 && out && !svg_unsafe(out) && !strstr(out, "fill") &&
	   strstr(out, "stroke=\"url('#b')\""),
	   "url( with more than one quote dropped, url('#id') kept: %s", out ? out : "");
	free(out);
	/* not an SVG */
	out = inlined("<html><body>no chart</body></html>", &rc);
	ok(rc == -1 && out && !*out, "no <svg>: nothing written");
	free(out);
	out = inlined("<svgx><svg width='1'></svg>", &rc);
	ok(rc == 0 && out && !strcmp(out, "<svg width=\"1\"></svg>"), "<svgx> is not <svg>");
	free(out);
	/* deep nesting: past the tracked depth, dropped with what it holds */
	{
		char *deep = malloc(700 * 3 + 64), *p = deep;

		p += sprintf(p, "<svg>");
		for (int i = 0; i < 300; i++)
			p += sprintf(p, "<g>");
		p += sprintf(p, "x");
		for (int i = 0; i < 300; i++)
			p += sprintf(p, "</g>");
		sprintf(p, "</svg>");
		out = inlined(deep, &rc);
		ok(rc == 0 && out && strstr(out, "</svg>") && !strstr(out, "x"),
		   "300 levels deep: closed, the part too deep to track dropped");
		free(out);
		free(deep);
	}
	return done_testing();
}
