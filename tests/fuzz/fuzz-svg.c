/* fuzz-svg.c: any text inlined as a chart: never a crash, and nothing that runs or loads
 * survives (no script element, no event attribute, no reference outside the chart) */
#include "config.h"
#include "results/svg.h"
#include "fuzz.h"
#include "svg-safe.h"


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
	/* whatever the input, the output, read as a browser reads it, names no script, no
	 * handler, no outside reference (a word in a value or a label is data: "402 onload=") */
	if (svg_unsafe(out)) {
		fprintf(stderr, "unsafe output (%s):\n%s\n", svg_unsafe(out), out);
		abort();
	}
	free(out);
	free(text);
	return 0;
}
