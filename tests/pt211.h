/* pt211.h: the oneDNN 3.10 logs of a real PyTorch 2.11 training (tests/data/pytorch-2.11/)
 * tallied as roofline-run tallies a command's output, for the tests that read them */
#ifndef RT_TESTS_PT211_H
#define RT_TESTS_PT211_H

#include "counters/onednn-log.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* tests/data/pytorch-2.11/pt211-MODE.log read into t (initialised here), with extra (a line
 * of the test's, or NULL) read after the log's fifth line; false when the file is not there */
static inline bool pt211_tally(struct rt_onednn_tally *t, const char *mode, const char *extra)
{
	const char *top = getenv("top_srcdir");
	char path[4096], line[8192];
	struct rt_onednn_reader r;
	struct rt_onednn_exec e;
	int k = 0;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/tests/data/pytorch-2.11/pt211-%s.log", top ? top : ".",
		 mode);
	rt_onednn_reader_init(&r);
	rt_onednn_tally_init(t);
	if (!(fp = fopen(path, "r")))
		return false;
	while (fgets(line, sizeof(line), fp)) {
		rt_onednn_tally_line(t, rt_onednn_read(&r, line, strlen(line), &e), &e, line,
				     strlen(line));
		if (++k == 5 && extra)
			rt_onednn_tally_line(t, rt_onednn_read(&r, extra, strlen(extra), &e), &e,
					     extra, strlen(extra));
	}
	fclose(fp);
	rt_onednn_reader_fini(&r);
	return true;
}

#endif
