/* fuzz-svg.c: any text inlined as a chart: never a crash, and nothing that runs or loads
 * survives (no script element, no event attribute, no reference outside the chart) */
#include "config.h"
#include "results/svg.h"
#include "fuzz.h"

#include <strings.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *out = NULL;
	size_t len = 0;
	FILE *fp;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	fp = open_memstream(&out, &len);
	if (!fp)
		abort();
	rt_svg_inline(fp, text, "c0_");
	fclose(fp);
	/* whatever the input, the output names no script, no handler, no outside reference */
	for (const char *p = out; p && *p; p++)
		if (!strncasecmp(p, "<script", 7) || !strncasecmp(p, " on", 3) ||
		    !strncasecmp(p, "href=\"h", 7) || !strncasecmp(p, "javascript:", 11) ||
		    !strncasecmp(p, "<foreignobject", 14) || !strncasecmp(p, "<image", 6))
			abort();
	free(out);
	free(text);
	return 0;
}
