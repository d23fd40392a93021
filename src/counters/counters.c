/* counters.c: choosing a counter backend */
#include "config.h"
#include "counters/counters.h"

#include <errno.h>
#include <string.h>

int rt_counters_open(const char *which, enum rt_precision p,
		     const struct rt_counter_backend **backend, void **ctx, struct rt_err *why,
		     struct rt_err *err)
{
	int rc;

	rt_err_clear(why);
	if (!strcmp(which, "hw") || !strcmp(which, "model")) {
		*backend = !strcmp(which, "hw") ? &rt_counters_hw : &rt_counters_model;
		return (*backend)->open(ctx, p, err);
	}
	if (strcmp(which, "auto"))
		return rt_err_set(err, -EINVAL, "--counters: '%s' is not auto, hw or model", which);
	*backend = &rt_counters_hw;
	rc = rt_counters_hw.open(ctx, p, why);
	if (rc == 0)
		return 0;
	*backend = &rt_counters_model;
	return rt_counters_model.open(ctx, p, err);
}
