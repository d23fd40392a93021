/* fuzz-plot.c: charts from hostile inputs. The input is a machine profile and a points.csv
 * (split at a line "@@points"; without it, points only, under the shipped example profile).
 * Whatever both readers accept is charted (trajectories and layers) and every script is run by
 * gnuplot with the tripwire preloaded: a script that tries to run a command, or that gnuplot
 * rejects, is a crash. Inputs are refused or charted, nothing in between. */
#include "config.h"
#include "results/charts.h"
#include "results/plot.h"
#include "node/profile.h"
#include "results/summary.h"
#include "fuzz.h"

#include <errno.h>
#include <sys/stat.h>

static char log_path[160];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_file("init", NULL, 0);
	snprintf(log_path, sizeof(log_path), "%s/tripwire.log", fuzz_dir);
	setenv("GNUPLOT", RT_SRCDIR "/tests/gnuplot-tripwire", 1);
	setenv("RT_TRIPWIRE_SO", RT_FUZZ_TRIPWIRE, 1);
	setenv("RT_TRIPWIRE_LOG", log_path, 1);
	return 0;
}

static void check_chart(int rc, const struct rt_err *err)
{
	struct stat st;

	if (!stat(log_path, &st) && st.st_size > 0) {
		fprintf(stderr, "a chart script ran a command (see %s)\n", log_path);
		abort();
	}
	/* refused (no point, no ceiling) or drawn; gnuplot failing on a script is a bug */
	if (rc && rc != -ENOENT && rc != -EINVAL) {
		fprintf(stderr, "chart: %s\n", err->msg);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char marker[] = "\n@@points\n";
	const uint8_t *pts_data = data;
	size_t pts_size = size;
	struct rt_profile *prof = NULL;
	struct rt_point *pts = NULL;
	struct rt_err err;
	char base[160];
	size_t n = 0;
	int rc;

	for (size_t i = 0; i + sizeof(marker) - 1 <= size; i++)
		if (!memcmp(data + i, marker, sizeof(marker) - 1)) {
			pts_data = data + i + sizeof(marker) - 1;
			pts_size = size - i - (sizeof(marker) - 1);
			if (rt_profile_load(&prof, fuzz_file("p.cfg", data, i + 1), &err))
				return 0;
			break;
		}
	if (!prof && rt_profile_load(&prof, RT_SRCDIR "/machine-profiles/example-kvm-spr.cfg", &err))
		abort();
	if (rt_points_csv_read(fuzz_file("points.csv", pts_data, pts_size), &pts, &n, &err)) {
		rt_profile_destroy(prof);
		return 0;
	}
	snprintf(base, sizeof(base), "%s/chart", fuzz_dir);
	rc = rt_plot_trajectories(prof, pts, n, "fuzz", false, base, &err);
	check_chart(rc, &err);
	for (size_t i = 0; i < n; i++)
		if (pts[i].scope == RT_SCOPE_LAYER) {
			snprintf(base, sizeof(base), "%s/layers", fuzz_dir);
			rc = rt_plot_layers(prof, pts, n, pts[i].config, true, base, &err);
			check_chart(rc == -ENOENT ? 0 : rc, &err);
			snprintf(base, sizeof(base), "%s/layers-time", fuzz_dir);
			rc = rt_chart_layers_time(prof, pts, n, pts[i].config, base, &err);
			check_chart(rc == -ENODATA ? 0 : rc, &err);
			break;
		}
	snprintf(base, sizeof(base), "%s/phases", fuzz_dir);
	rc = rt_chart_phases(pts, n, "fuzz", base, &err);
	check_chart(rc == -ENODATA ? 0 : rc, &err);
	snprintf(base, sizeof(base), "%s/memory", fuzz_dir);
	rc = rt_chart_memory(pts, n, "fuzz", base, &err);
	check_chart(rc == -ENODATA ? 0 : rc, &err);
	snprintf(base, sizeof(base), "%s/memory-input", fuzz_dir);
	rc = rt_chart_memory_input(pts, n, "fuzz", base, &err);
	check_chart(rc == -ENODATA ? 0 : rc, &err);
	snprintf(base, sizeof(base), "%s/roofline", fuzz_dir);
	rc = rt_plot_roofline(prof, 0, false, base, &err);
	check_chart(rc, &err);
	free(pts);
	rt_profile_destroy(prof);
	return 0;
}
