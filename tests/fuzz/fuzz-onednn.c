/* fuzz-onednn.c: any output a command prints, read as oneDNN's verbose log line by line (as
 * roofline-run reads it): never a crash, and every count read is a finite, non-negative
 * number */
#include "config.h"
#include "counters/onednn-log.h"
#include "fuzz.h"

#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_onednn_reader r;
	struct rt_onednn_tally t;
	const char *p = (const char *)data, *end = p + size;

	rt_onednn_reader_init(&r);
	rt_onednn_tally_init(&t);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const size_t len = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
		struct rt_onednn_exec e;

		switch (rt_onednn_read(&r, p, len, &e)) {
		case RT_ONEDNN_EXEC:
			if (!isfinite(e.flops) || !isfinite(e.bytes) || e.flops < 0 || e.bytes < 0 ||
			    !isfinite(e.ms) || e.ms < 0 || (unsigned)e.prec >= RT_PRECISION_COUNT)
				abort();
			rt_onednn_tally_add(&t, &e);
			break;
		case RT_ONEDNN_UNPARSED:
			if (!e.why[0])
				abort();        /* an unread line always says why */
			rt_onednn_tally_unparsed(&t, p, len, e.why);
			break;
		default:
			break;
		}
		p += len;
	}
	if (t.n > t.execs)
		abort();
	rt_onednn_reader_fini(&r);
	rt_onednn_tally_free(&t);
	return 0;
}
