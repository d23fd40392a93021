/* cmd-judge.c: what cannot be true of roofline-run's counts: oneDNN's time past the process's
 * wall time, more threads than the node has, a rate above its roof or under the clock's
 * grain, an images/s no core reaches; said "impossible: ..." and kept out of verdicts and
 * charts by their callers (summary.txt, the charts) */
#include "config.h"
#include "run/cmd-results.h"
#include "base/vocab.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *rt_cmd_num(double v, char *buf, size_t size)
{
	if (isfinite(v))
		snprintf(buf, size, "%.4g", v);
	else
		snprintf(buf, size, "-");
	return buf;
}

__attribute__((format(printf, 2, 3)))
static void impossible(struct rt_cmd_judgement *j, const char *fmt, ...)
{
	const size_t k = strlen(j->why);
	va_list ap;

	snprintf(j->why + k, sizeof(j->why) - k, "%s", j->impossible ? "; " : "impossible: ");
	va_start(ap, fmt);
	vsnprintf(j->why + strlen(j->why), sizeof(j->why) - strlen(j->why), fmt, ap);
	va_end(ap);
	j->impossible = true;
}

unsigned rt_cmd_threads(const struct rt_cmd_outcome *r, unsigned cfg_threads,
			const struct rt_profile *prof)
{
	/* a command may set its own count (torch.set_num_threads): the log's is what ran */
	return r->t.nthr ? r->t.nthr : cfg_threads ? cfg_threads :
	       prof ? rt_profile_max_threads(prof) : 0;
}

void rt_cmd_judge(const struct rt_cmd_outcome *r, unsigned cfg_threads,
		  const struct rt_profile *prof, struct rt_cmd_judgement *j)
{
	const struct rt_onednn_tally *t = &r->t;
	const double onednn = t->ms / 1e3;
	char a[32], b[32];

	/* each process of the command that loaded oneDNN logs its own calls, at the same time
	 * as the others: together they can pass the wall time, each on its own cannot */
	const double procs = t->instances > 1 ? (double)t->instances : 1;

	memset(j, 0, sizeof(*j));
	j->scale = 1;
	j->over_wall = r->ok && onednn > r->wall * procs + (double)t->execs * RT_CMD_LOG_GRAIN_S;
	j->over_threads = prof && prof->cpu.pus && t->nthr > prof->cpu.pus;
	j->over_images = r->images_per_s > RT_CMD_IMAGES_PER_S_MAX;
	if (j->over_wall)
		impossible(j, "oneDNN's log sums %s s of primitive time in a run of %s s by %u "
			   "process%s that loaded oneDNN (oneDNN times each call by the wall clock: "
			   "a process's sum cannot pass the run's by more than a microsecond a call); "
			   "the log is not the command's own (verbose lines printed by the command, a "
			   "log of another run)", rt_cmd_num(onednn, a, sizeof(a)),
			   rt_cmd_num(r->wall, b, sizeof(b)), (unsigned)procs, procs > 1 ? "es" : "");
	if (j->over_threads)
		impossible(j, "oneDNN's log names %u threads, the profile's node (%s) has %u "
			   "hardware threads (a log of another node, or more threads than CPUs): "
			   "not judged on its roofs", t->nthr, prof->host, prof->cpu.pus);
	if (j->over_images)
		impossible(j, RT_CMD_IMAGES_SAID "%s, more than an image a nanosecond: not taken",
			   rt_cmd_num(r->images_per_s, a, sizeof(a)));
	if (prof) {
		const unsigned threads = rt_cmd_threads(r, cfg_threads, prof);

		j->have_roofs = rt_roofs_at(&j->roofs, prof, threads, NULL) == 0;
		j->scale = j->have_roofs ? rt_roofs_scale(&j->roofs, threads) : 1;
	}
	j->log_impossible = j->over_wall || j->over_threads;
	for (size_t i = 0; i < t->n; i++)
		j->impossible_prims += rt_cmd_prim_impossible(j, &t->v[i], NULL, 0);
}

void rt_cmd_reason_put(char *buf, size_t size, const struct rt_cmd_outcome *r,
		       const struct rt_cmd_judgement *j)
{
	const char *own = r->disturbed || !r->ok ? r->reason : "";
	const bool judged = r->ok && j->impossible;

	snprintf(buf, size, "%s%s%s", own, *own && judged ? "; " : "", judged ? j->why : "");
}

void rt_cmd_reason_get(struct rt_cmd_outcome *r, const char *reason)
{
	const char *judged = NULL, *said;
	size_t own = strlen(reason);

	/* the judgement comes last, and its words say "impossible: " once; a failed run has
	 * none (its words may be the command's own) */
	if (r->ok && !strncmp(reason, "impossible: ", 12))
		judged = reason, own = 0;
	for (const char *p = reason; r->ok && (p = strstr(p, "; impossible: ")); p++)
		judged = p + 2, own = (size_t)(p - reason);
	snprintf(r->reason, sizeof(r->reason), "%.*s", (int)own, reason);
	if (judged && isnan(r->images_per_s) && (said = strstr(judged, RT_CMD_IMAGES_SAID)))
		r->images_per_s = strtod(said + strlen(RT_CMD_IMAGES_SAID), NULL);
}

const struct rt_roof *rt_cmd_prim_roof(const struct rt_cmd_judgement *j,
				       const struct rt_onednn_prim *p)
{
	return !j->have_roofs || p->prec >= RT_PRECISION_COUNT ? NULL :
	       rt_roofs_math(&j->roofs, rt_precision_name(p->prec), !p->prec_bound,
				     false);
}

/* A primitive's rate with a grain more a call: the least its work could have run at (NAN:
 * none to judge) */
static double least_rate(const struct rt_onednn_prim *p)
{
	const double calls = p->calls ? (double)p->calls : 1;

	if (!p->counted || !(p->flops > 0))
		return NAN;
	return p->flops / (p->ms / 1e3 + calls * RT_CMD_LOG_GRAIN_S) / 1e9;
}

/* roofs of fewer threads than the run's scaled to an upper bound at its count (a judgement
 * made by hand, scale 0, holds the roofs as they are) */
static double scale_of(const struct rt_cmd_judgement *j)
{
	return j->scale > 1 ? j->scale : 1;
}

/* "at least G GFLOP/s (a microsecond more a call), P% of the PREC roof (WHAT, V GFLOP/s at
 * T threads[ x K for the run's threads = V'])" into buf */
static void rate_words(char *buf, size_t size, const struct rt_cmd_judgement *j, double gf,
		       const struct rt_roof *roof)
{
	const double k = scale_of(j);
	char a[32], b[32], c[32], sc[96] = "";

	if (k > 1)
		snprintf(sc, sizeof(sc), " x %.3g for the run's threads = %s", k,
			 rt_cmd_num(roof->value * k, b, sizeof(b)));
	snprintf(buf, size, "at least %s GFLOP/s (a microsecond more a call), %.0f%% of the %s "
		 "%s (%s, %s GFLOP/s at %u thread%s%s)", rt_cmd_num(gf, a, sizeof(a)),
		 100 * gf / (roof->value * k), roof->precision,
		 roof->basis == RT_ROOF_THEORETICAL ? "theoretical peak" : "roof", roof->what,
		 rt_cmd_num(roof->value, c, sizeof(c)), j->roofs.threads,
		 j->roofs.threads == 1 ? "" : "s", sc);
}

bool rt_cmd_prim_impossible(const struct rt_cmd_judgement *j, const struct rt_onednn_prim *p,
			    char *why, size_t size)
{
	const struct rt_roof *limit = !j->have_roofs || p->prec >= RT_PRECISION_COUNT ? NULL :
		rt_roofs_math(&j->roofs, rt_precision_name(p->prec), !p->prec_bound, true);
	const double calls = p->calls ? (double)p->calls : 1;
	const double gf = least_rate(p);
	char a[32], words[300];

	if (isnan(gf))
		return false;
	if (p->ms > 0 && p->ms / 1e3 / calls < RT_CMD_CLOCK_MIN_S) {
		if (why)
			snprintf(why, size, "impossible: %lu call%s in %s ms, under a nanosecond "
				 "each: no clock reads that", p->calls, p->calls == 1 ? "" : "s",
				 rt_cmd_num(p->ms, a, sizeof(a)));
		return true;
	}
	/* past what the hardware can do, not past a ceiling the probe's kernels measured */
	if (!limit || gf <= limit->value * scale_of(j))
		return false;
	if (why) {
		rate_words(words, sizeof(words), j, gf, limit);
		snprintf(why, size, "impossible: %s", words);
	}
	return true;
}

bool rt_cmd_prim_above_roof(const struct rt_cmd_judgement *j, const struct rt_onednn_prim *p,
			    char *why, size_t size)
{
	const struct rt_roof *roof = rt_cmd_prim_roof(j, p);
	const double gf = least_rate(p);
	char words[300];

	if (isnan(gf) || !roof || roof->basis == RT_ROOF_THEORETICAL ||
	    gf <= roof->value * scale_of(j) || rt_cmd_prim_impossible(j, p, NULL, 0))
		return false;
	if (why) {
		rate_words(words, sizeof(words), j, gf, roof);
		snprintf(why, size, "above the measured roof: %s; under what the hardware can do, "
			 "so kept: the probe's kernels did not reach what this work did", words);
	}
	return true;
}

const struct rt_onednn_prim *rt_cmd_first_impossible(const struct rt_cmd_judgement *j,
						     const struct rt_onednn_tally *t, char *why,
						     size_t size)
{
	for (size_t k = 0; k < t->n; k++)
		if (rt_cmd_prim_impossible(j, &t->v[k], why, size))
			return &t->v[k];
	return NULL;
}
