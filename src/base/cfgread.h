/* cfgread.h: reading rooftraj's libconfig files (machine profiles, model files, run.cfg, the
 * cluster profile) one strict way: a file that is not regular or does not parse, a member of
 * the wrong type, out of range or too long, are errors naming FILE:LINE, the context and the
 * member. The writer's side is rt_cfg_put_str (util.h). */
#ifndef RT_CFGREAD_H
#define RT_CFGREAD_H

#include <libconfig.h>
#include <stdbool.h>
#include <stddef.h>
#include "base/err.h"

struct rt_cfg_reader {
	const char *path;
	struct rt_err *err;
};

/* config_init and read path (refused when not a regular file): -ENOENT when it does not
 * exist, -EIO when it cannot be read, -EINVAL with FILE:LINE when it does not parse. The
 * caller config_destroys cfg in every case. */
/* The largest file rt_cfg_read reads (profiles, model files, run.cfg are kilobytes). */
#define RT_CFG_MAX_BYTES (16 << 20)
int rt_cfg_read(config_t *cfg, const char *path, struct rt_err *err);

/* -EINVAL: "PATH:LINE: ctx: message" (the line of at, or 1). */
int rt_cfg_bad(const struct rt_cfg_reader *r, const config_setting_t *at, const char *ctx,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Members of a group; an optional one that is absent gives "", 0, false or NULL. */
int rt_cfg_string(const struct rt_cfg_reader *r, const config_setting_t *grp, const char *ctx,
		  const char *name, char *buf, size_t size, bool required);
/* A string member as libconfig holds it (valid while cfg is), NULL when absent. */
int rt_cfg_string_ref(const struct rt_cfg_reader *r, const config_setting_t *grp,
		      const char *ctx, const char *name, const char **out);
int rt_cfg_int(const struct rt_cfg_reader *r, const config_setting_t *grp, const char *ctx,
	       const char *name, long long *out, long long min, long long max, bool required);
/* A number (integer or float); positive: > 0, else >= 0. */
int rt_cfg_num(const struct rt_cfg_reader *r, const config_setting_t *grp, const char *ctx,
	       const char *name, double *out, bool positive, bool required);
/* A rate (GFLOP/s, GB/s) that a node can have: a number in min..max (0 when absent and not
 * required); 1e308 or 1e-300 is a corrupt file, named with its FILE:LINE. */
int rt_cfg_rate(const struct rt_cfg_reader *r, const config_setting_t *grp, const char *ctx,
		const char *name, double *out, double min, double max, const char *unit,
		bool required);
int rt_cfg_bool(const struct rt_cfg_reader *r, const config_setting_t *grp, const char *ctx,
		const char *name, bool *out);
/* A list of groups; *out NULL when an optional one is absent. */
int rt_cfg_list(const struct rt_cfg_reader *r, const config_setting_t *grp, const char *name,
		const config_setting_t **out, bool required);

#endif
