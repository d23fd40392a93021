#!/bin/sh
# t-probe-limits.sh: roofline-probe inside the limits a job gives it. Under `taskset -c 1` its
# threads run on CPU 1 alone (every thread's CPU set, read while it runs), the profile counts
# that one CPU and says so, and more threads than it are refused. Inside a 200 MiB memory
# cgroup (v1) a quick probe completes, its working sets sized to the limit, and says so.
. "$top_srcdir/tests/tap.sh"
probe="$top_builddir/src/roofline-probe"
dir=$(mktemp -d "${TMPDIR:-/tmp}/rt-t-probe-limits.XXXXXX") || { echo "Bail out! mktemp"; exit 1; }
cg=
trap 'rm -rf "$dir"; [ -n "$cg" ] && rmdir "$cg" 2>/dev/null' EXIT
narrow="--no-curve --no-lowp --no-chart"

# ---- the CPUs: taskset -c 1 ----
if ! command -v taskset >/dev/null 2>&1; then
	for k in 1 2 3 4; do skip "no taskset"; done
elif ! taskset -c 1 true 2>/dev/null; then
	for k in 1 2 3 4; do skip "this machine has one CPU (no CPU 1 to give the probe)"; done
else
	taskset -c 1 "$probe" -q $narrow --profile-out "$dir/t.cfg" >"$dir/t.out" 2>"$dir/t.err" &
	pid=$!
	# every thread's CPU set, sampled until the probe exits (a zombie has exited); from when
	# the process is the probe (before, it is taskset, which may not have set the CPU yet:
	# a sample of it read 0-1 once, beside a sanitizer build)
	: >"$dir/sets"
	while [ -d "/proc/$pid" ] && ! grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null; do
		[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = taskset ] ||
			cat /proc/$pid/task/*/status 2>/dev/null | grep '^Cpus_allowed_list' >>"$dir/sets"
		sleep 0.02
	done
	wait "$pid"
	rc=$?
	check "under taskset -c 1: exit 0 (got $rc)" test "$rc" = 0
	others=$(grep -cv '^Cpus_allowed_list:[[:space:]]*1$' "$dir/sets")
	check "... every thread ran on CPU 1 alone ($(wc -l <"$dir/sets") samples, $others on other CPUs: $(grep -v '^Cpus_allowed_list:[[:space:]]*1$' "$dir/sets" | sort -u | tr '\n' ' '))" \
		sh -c "test -s '$dir/sets' && test '$others' = 0"
	check "... the profile counts one core and one PU and says why" sh -c \
		"grep -q 'cores = 1; pus = 1;' '$dir/t.cfg' && grep -q 'CPUs: this process may run on 1 of the machine.s [0-9]* CPUs (CPU 1)' '$dir/t.cfg' '$dir/t.err'"
	taskset -c 1 "$probe" -q $narrow -t 2 --profile-out "$dir/t2.cfg" >"$dir/t2.out" 2>"$dir/t2.err"
	rc=$?
	check "... 2 threads on 1 CPU refused (exit $rc): $(head -n 1 "$dir/t2.err")" sh -c \
		"test $rc = 2 && grep -q -- \"--threads: '2' is not in 1..1\" '$dir/t2.err'"
fi

# ---- the memory: a 200 MiB cgroup (v1 memory controller) ----
mnt=$(awk '{ for (i = 1; i <= NF && $i != "-"; i++); if ($(i + 1) == "cgroup" && $(i + 3) ~ /(^|,)memory(,|$)/) { print $5; exit } }' /proc/self/mountinfo)
if [ "$(id -u)" != 0 ]; then
	for k in 1 2 3; do skip "not root: no memory cgroup of the test's own"; done
elif [ -z "$mnt" ]; then
	for k in 1 2 3; do skip "the cgroup v1 memory controller is not mounted"; done
elif ! mkdir "$mnt/rt-t-probe-limits.$$" 2>/dev/null; then
	for k in 1 2 3; do skip "cannot make a memory cgroup under $mnt"; done
else
	cg="$mnt/rt-t-probe-limits.$$"
	echo 209715200 >"$cg/memory.limit_in_bytes"
	# no swap to escape to where the kernel counts it
	[ -f "$cg/memory.memsw.limit_in_bytes" ] && echo 209715200 >"$cg/memory.memsw.limit_in_bytes"
	sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" -q --profile-out "$3"' sh "$cg" "$probe" \
		"$dir/m.cfg" >"$dir/m.out" 2>"$dir/m.err"
	rc=$?
	check "a quick probe in a 200 MiB memory cgroup: exit 0 (got $rc: $(tail -n 1 "$dir/m.err"))" test "$rc" = 0
	check "... its profile written" test -s "$dir/m.cfg"
	check "... which says the memory it had (the cgroup's limit)" \
		grep -q "bounded by its memory cgroup's limit (200 MiB" "$dir/m.cfg"
	# the cgroup goes once its last task is gone (the kernel may refuse for a moment after)
	for k in $(seq 100); do rmdir "$cg" 2>/dev/null && break; sleep 0.1; done
fi
echo "1..$n"
