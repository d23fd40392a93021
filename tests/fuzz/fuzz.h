/* fuzz.h: what the fuzz targets share: a private directory for the files the parsers read */
#ifndef RT_FUZZ_H
#define RT_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char fuzz_dir[64];

/* Write data to NAME in the fuzzer's own directory; returns the path (static). */
static const char *fuzz_file(const char *name, const uint8_t *data, size_t size)
{
	static char path[128];
	FILE *fp;

	if (!fuzz_dir[0]) {
		snprintf(fuzz_dir, sizeof(fuzz_dir), "/tmp/rt-fuzz-XXXXXX");
		if (!mkdtemp(fuzz_dir))
			abort();
	}
	snprintf(path, sizeof(path), "%s/%s", fuzz_dir, name);
	fp = fopen(path, "wb");
	if (!fp)
		abort();
	if (size && fwrite(data, 1, size, fp) != size)
		abort();
	fclose(fp);
	return path;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
