/* fuzz-profile.c: machine profiles: a profile that loads also saves and loads again, equal */
#include "config.h"
#include "node/profile.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_profile *p = NULL, *q = NULL;
	struct rt_err err;
	char again[128];

	if (rt_profile_load(&p, fuzz_file("p.cfg", data, size), &err))
		return 0;
	snprintf(again, sizeof(again), "%s/again.cfg", fuzz_dir);
	if (rt_profile_save(p, again, &err) || rt_profile_load(&q, again, &err))
		abort();        /* what loaded must round-trip */
	if (q->nflops != p->nflops || q->nbw != p->nbw || q->ncurve != p->ncurve)
		abort();
	rt_profile_destroy(q);
	rt_profile_destroy(p);
	return 0;
}
