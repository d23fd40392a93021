#!/bin/sh
# t-rehearsal.sh: rooftraj's multi-node paths on simulated nodes (tests/cluster-rehearsal.sh:
# a host name and a cpuset of one core each, a real Open MPI over TCP): per-node profiles and a
# cluster profile that flags nobody; a node throttled to 25% of its core by its cgroup (CFS
# periods of 20 ms) found, and only it, on its headline FLOP and bandwidth ceilings, against a
# healthy profile of this machine taken in another run (--reference); data-parallel training across the nodes equal to one process on the global
# batch, bit-identical on both; a node killed with SIGKILL mid-sweep stopping the job in bounded time
# with the finished configurations intact, and --resume continuing. Skipped, with why, without
# root, MPI or the cgroup v1 cpuset and cpu hierarchies.
train="$top_builddir/src/roofline-train"
probe="$top_builddir/src/roofline-probe"
prof="$top_srcdir/machine-profiles/example-kvm-spr.cfg"
rehearse="$top_srcdir/tests/cluster-rehearsal.sh"
. "$top_srcdir/tests/tap.sh"
if ! grep -q '^#define HAVE_MPI 1' "$top_builddir/config.h" 2>/dev/null; then
	echo "1..0 # SKIP built without MPI"
	exit 0
fi
if [ "$(nproc --all)" -lt 2 ]; then
	echo "1..0 # SKIP two simulated nodes need two CPUs"
	exit 0
fi
why=$("$rehearse" -k 2>&1 >/dev/null)
if [ $? = 77 ]; then
	echo "1..0 # SKIP ${why#*: }"
	exit 0
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/rt-t-rehearsal.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export OMP_NUM_THREADS=1
cd "$dir" || exit 1
run() { timeout 400 "$rehearse" "$@"; }
# cpu_load [cpuN]: the share of the CPU (default: all of them) that other processes used over
# 1 s while nothing of this test runs (100 ticks a CPU) (sampled before and after a run: a machine busy with
# other work shows it; then the nodes' ceilings are not judged)
cpu_load() {
	a=$(awk -v c="${1:-cpu}" '$1 == c { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat)
	sleep 1
	awk -v a="$a" -v c="${1:-cpu}" '$1 == c { split(a, x, " "); b = $2 + $3 + $4 + $7 + $8 + $9
		t = $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9; printf "%.2f", (t > x[2] ? (b - x[1]) / (t - x[2]) : 0) }' /proc/stat
}
# quiet BEFORE AFTER: whether both samples say the machine had nothing else to do
quiet() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= 0.1 && b <= 0.1) }'; }
# judge CHECK...: a check of the nodes' judgement, made only when no probe saw another process
# on its node's core before it started (then the flags are right, and no node can be judged:
# a busy machine, not a broken node); the probes' own notes are the evidence
busy_nodes() { grep -l 'busy with other work before the probe' "$@" 2>/dev/null | head -n 1; }
# (judge DIR CHECK...; judge "DIR REFERENCE.cfg" CHECK... also needs the reference clean)
judge() {
	_f=
	for _a in $1; do
		if [ -d "$_a" ]; then _f="$_f $_a/node*.cfg"; else _f="$_f $_a"; fi
	done
	shift
	# shellcheck disable=SC2086 # the list is split, its globs expanded
	if [ -n "$(busy_nodes $_f)" ]; then
		# shellcheck disable=SC2086
		skip "another process used a node's core before its probe ($(busy_nodes $_f))"
	elif ! quiet "${judge_before:-0}" "${judge_after:-0}"; then
		skip "other processes used the machine around the run ($judge_before, $judge_after of it)"
	else
		check "$@"
	fi
}
# in turn (the simulated nodes share the machine's caches and memory) and on hwloc's level sizes
# (the curve's L1 end wanders in this VM, and the L1 working set with it). The threshold is
# 45%: this VM's two vCPUs differ from run to run by up to 30% on a median (measured: fp64
# median 41 against 58 GFLOP/s, L3 59 against 72 GB/s, both nodes healthy) and by up to 37% on
# the sustained DRAM run (nodeb 26.8 against 42.5 GB/s, 29.3 against 46.8, twice in a row
# each time, in 3 of 8 rehearsals), which the default 10% rightly reports. A node held to 40%
# of its core is 60% below on a sustained run, but against a fast turn of the other vCPU's
# DRAM it can read 0.4 / 0.63 = 0.63 of the best node, inside the threshold (nodeb's DRAM
# finding was missing so once in a plain build); a node held to 25% reads between 0.16 and
# 0.40 of the best node on every headline ceiling, whichever vCPU was fast.
# the widest FMA this CPU runs (the kernels must really run): every ceiling named by it
isa=$(widest_isa)
probe_opts="-i $isa --no-lowp --no-chart --no-curve -t 1 --sustain 0.5 --one-at-a-time --threshold 45"

# two healthy nodes on the same core, in turn (-s): the same hardware, so that what differs
# between them is the machine's noise over time, not its vCPUs' placement (on disjoint cores a
# sanitizer build's healthy nodea read L3 at 17.6 GB/s, 54% of nodeb's 32.7, in every run:
# a finding at 45%); coarse short runs (--quick) and the sustained runs (half a second each:
# 25 of the throttled node's 20 ms periods, enough to show its quota)
judge_before=$(cpu_load)
run -s -n 2 -- "$probe" $probe_opts -q --profile-out "$dir/ok/%h.cfg" --cluster "$dir/ok/cluster.cfg" \
	>"$dir/ok.out" 2>"$dir/ok.err"
rc=$?
judge_after=$(cpu_load)
echo "# the machine used by other processes: $judge_before before the run, $judge_after after"
# (nodeb's profile is the reference of the throttled run below: its load is that run's too)
ref_load=$(awk -v a="$judge_before" -v b="$judge_after" 'BEGIN { print (a > b ? a : b) }')
check "2 simulated nodes: the cluster probe exits 0 (got $rc)" test $rc = 0
check "... each node wrote its profile under its own name" test -s "$dir/ok/nodea.cfg" -a -s "$dir/ok/nodeb.cfg"
check "... each with sustained runs of its headline ceilings" sh -c "grep -q 'name = \"flops fp64 $isa\"' '$dir/ok/nodea.cfg' && grep -q 'name = \"bw DRAM\"' '$dir/ok/nodeb.cfg'"
check "... the cluster profile lists both" sh -c "grep -q 'host = \"nodea\"' '$dir/ok/cluster.cfg' && grep -q 'host = \"nodeb\"' '$dir/ok/cluster.cfg'"
judge "$dir/ok" "... nobody is flagged" grep -q '^  findings = ( );' "$dir/ok/cluster.cfg"
sed -n '/^below the reference/,/^$/p' "$dir/ok.out" | sed 's/^/# /'
judge "$dir/ok" "... and the figures say so" grep -q '^no node is more than 45% below the reference' "$dir/ok.out"
check "... the network between them: inter-node, over TCP" sh -c "grep -q 'scope = \"inter-node\"' '$dir/ok/cluster.cfg' && grep -q 'transport = \"btl self,tcp\"' '$dir/ok/cluster.cfg'"

# the same healthy pair with another process spinning on nodeb's core: nodeb's ceilings are
# disturbed (reported with the cause, never ranked), and nobody is called sick; full-length
# short runs (no -q: under the sanitizers -q's runs of nodeb once went unflagged beside the
# spinner), no sustained ones (what is judged here is the short runs' flags)
# (cpu_load cpu0: the share of CPU 0, nodea's core, that other processes used, defined above)
taskset -c 1 sh -c 'while :; do :; done' &
spin=$!
load_before=$(cpu_load cpu0)
run -n 2 -- "$probe" $probe_opts --sustain 0 --profile-out "$dir/busy/%h.cfg" --cluster "$dir/busy/cluster.cfg" \
	>"$dir/busy.out" 2>"$dir/busy.err"
rc=$?
load_after=$(cpu_load cpu0)
echo "# CPU 0 used by other processes: $load_before before the run, $load_after after"
kill $spin
wait $spin 2>/dev/null
check "a busy process on nodeb's core: the cluster probe exits 0 (got $rc)" test $rc = 0
sed -n '/^below the reference/,/^$/p' "$dir/busy.out" | sed 's/^/# /'
check "... nobody is ranked below the reference" grep -q '^  findings = ( );' "$dir/busy/cluster.cfg"
check "... nodeb's ceilings are reported disturbed by another process" grep -q 'host = "nodeb"; ceiling = "flops fp64 '"$isa"'"; flag = "[a-z ]*busy: ' "$dir/busy/cluster.cfg"
# the three busiest are named: the spinner among them (or three busier on that core, said)
named_busiest "... naming the spinner (sh, pid $spin)" "$(grep -o 'host = "nodeb"; ceiling = "flops fp64 '"$isa"'"; flag = "[a-z ]*busy: [^"]*' "$dir/busy/cluster.cfg" | head -n 1)" "$spin"
# nodea's ceilings are clean: the spinner is held to nodeb's core. A flag on nodea is right
# only when something else took nodea's core meanwhile (this machine's other work): the
# probe names the busiest process allowed there, which must never be nodeb's spinner or probe
nodea_flags=$(grep 'host = "nodea"; ceiling = .*; flag = ' "$dir/busy/cluster.cfg")
[ -z "$nodea_flags" ] || echo "$nodea_flags" | sed 's/^ */# nodea: /'
if [ -z "$nodea_flags" ]; then
	check "... and nodea's are not" true
elif echo "$nodea_flags" | grep -q "pid $spin,"; then
	check "... and nodea's are not (nodeb's spinner named on nodea's core)" false
else
	skip "other work took nodea's core during the run (CPU 0 used by others: $load_before before, $load_after after; the flags above say by whom)"
fi

# nodeb throttled to 25% of its core, in CFS periods of 20 ms: the best of short runs fits in
# the unthrottled part; the sustained runs do not. Coarse short runs (-q) met the quota in
# periods this short (in the kernel's 100 ms ones only the full-length runs did, at four
# times the cost). An acceptance run: the nodes held against a reference taken in another run
# (ok's nodeb, a healthy profile of this machine), not against the best of them (t-slurm.sh
# finds its throttled node against the best one). (At 40% a node can read 0.63 of a reference
# measured on a slow turn; at 25% it reads between 0.16 and 0.40.) The load around the run
# that measured the reference counts as this run's before too (a reference taken on a busy
# machine can be low enough that a node at 25% is not 45% below it).
judge_before=$(cpu_load)
judge_before=$(awk -v a="$judge_before" -v b="$ref_load" 'BEGIN { print (a > b ? a : b) }')
run -n 2 -t nodeb:25:20000 -- "$probe" $probe_opts -q --reference "$dir/ok/nodeb.cfg" \
	--profile-out "$dir/th/%h.cfg" --cluster "$dir/th/cluster.cfg" >"$dir/th.out" 2>"$dir/th.err"
rc=$?
judge_after=$(cpu_load)
echo "# the machine used by other processes: $judge_before before the run, $judge_after after"
check "nodeb throttled to 25%: the cluster probe exits 0 (got $rc)" test $rc = 0
# (a reference every ceiling of which was disturbed is refused: that is right too)
judge "$dir/ok/nodeb.cfg" "... held against the reference, named" grep -q "reference = \"$dir/ok/nodeb.cfg\"" "$dir/th/cluster.cfg"
sed -n '/^below the reference/,/^$/p' "$dir/th.out" | sed 's/^/# /'
for c in "flops fp64 $isa" "flops fp32 $isa" "bw DRAM"; do
	judge "$dir/th $dir/ok/nodeb.cfg" "... nodeb found on '$c' (sustained), at about 25% of the reference" awk -v c="$c" '
		$0 ~ "host = \"nodeb\"; ceiling = \"" c "\"; statistic = \"sustained\"" {
			match($0, /ratio = [0-9.]+/); r = substr($0, RSTART + 8, RLENGTH - 8)
			if (r > 0.12 && r < 0.5) ok = 1 }
		END { exit !ok }' "$dir/th/cluster.cfg"
done
judge "$dir/th $dir/ok/nodeb.cfg" "... with the figures in the summary" grep -q '^  nodeb  *flops fp64 '"$isa"'  *sustained  *[0-9.]* GFLOP/s = *[0-9]*% of [0-9.]*' "$dir/th.out"
judge "$dir/th $dir/ok/nodeb.cfg" "... and nodea is not" sh -c "! grep -q 'host = \"nodea\"; ceiling' '$dir/th/cluster.cfg' || ! sed -n '/findings = (/,/);/p' '$dir/th/cluster.cfg' | grep -q nodea"
# a node is called slow only when two looks say so: each of nodeb's findings was measured again
judge "$dir/th $dir/ok/nodeb.cfg" "... each sustained finding measured twice, found again, both looks in nodeb's profile" sh -c "
	grep -q 'host = \"nodeb\"; ceiling = \"bw DRAM\"; statistic = \"sustained\"; first = [0-9.e+]*; kept = [0-9.e+]*; found = true' '$dir/th/cluster.cfg' &&
	grep -q 'sustained bw DRAM at 1 thread: the cluster found its sustained run at [0-9]*% of the reference ([0-9.]*); measured again' '$dir/th/nodeb.cfg' &&
	grep -q '^  nodeb  *bw DRAM  *sustained  *[0-9.]* then [0-9.]* GB/s: below again' '$dir/th.out'"
check "... its disturbed ceilings are reported as throttled by the CPU quota, not ranked" grep -q 'host = "nodeb"; ceiling = "flops fp64 '"$isa"'"; flag = "throttled: .*CPU quota: 0.25 cores per 20 ms' "$dir/th/cluster.cfg"

# data-parallel training across the two nodes over TCP
# tests/data/dp.cfg: dropout (sliced per rank), no batch norm (per-rank statistics)
common="-m $top_srcdir/tests/data/dp.cfg -n 6 -w 0 -t 1 -c none --digest"
run -n 2 -- "$train" $common -b 16 >"$dir/dp.out" 2>"$dir/dp.err"
check "training across 2 nodes exits 0 (got $?)" test $? = 0
check "... the run says 2 ranks on 2 nodes" grep -q "2 ranks on 2 nodes" "$dir/dp.out"
"$train" $common -b 32 >"$dir/one.out" 2>&1
h0=$(rank_digest "$dir/dp.out" 0)
h1=$(rank_digest "$dir/dp.out" 1)
check "... bit-identical weights on both nodes ($h0 $h1)" test -n "$h0" -a "$h0" = "$h1"
check "... the weights of one process on the global batch (sum and norm within 1e-5)" same_weights "$dir/one.out" "$dir/dp.out"

# a node killed with SIGKILL mid-sweep: every process of nodeb's cgroup, once the first
# configuration is written. The last configuration (batch 1024) takes 100 times the first's
# work (40 steps: seconds, which --resume runs again): however slowly this loop is scheduled,
# the sweep is still running when it kills.
run -n 2 -- "$train" -m lenet5 -n 40 -w 0 -r 1 -c model --profile "$prof" \
	--sweep batch=8,1024 --out "$dir/k" >"$dir/k.out" 2>"$dir/k.err" &
job=$!
cg=
# until the first configuration is written, however long a busy machine takes
while kill -0 $job 2>/dev/null; do
	if [ -f "$dir/k/points.csv" ] && [ "$(wc -l <"$dir/k/points.csv")" -gt 1 ]; then
		# this rehearsal's own cgroup (it names it): another one's, left by a run killed
		# with SIGKILL, would hold no process
		base=$(sed -n 's/^rehearsal: cgroups \([^ ]*\) .*/\1/p' "$dir/k.err" | head -n 1)
		[ -n "$base" ] && [ -d "/sys/fs/cgroup/cpuset/$base/nodeb" ] &&
			cg="/sys/fs/cgroup/cpuset/$base/nodeb"
		break
	fi
	sleep 0.1
done
start=$(date +%s)
[ -n "$cg" ] && kill -9 $(cat "$cg/tasks") 2>/dev/null
wait $job
rc=$?
took=$(( $(date +%s) - start ))
check "nodeb killed mid-sweep: the job stops (exit $rc) within 60 s ($took s)" test -n "$cg" -a "$rc" != 0 -a "$took" -lt 60
check "... the finished configurations are whole (21 rows each)" "$csvawk" 'NR > 1 { if (NF != 46) exit 1; k[$1]++ } END { n = 0; for (c in k) { n++; if (k[c] != 21) exit 1 } exit n < 1 }' "$dir/k/points.csv"
before=$("$csvawk" 'NR > 1 { k[$1] } END { print length(k) }' "$dir/k/points.csv")
run -n 2 -- "$train" --resume "$dir/k" >"$dir/r.out" 2>"$dir/r.err"
check "--resume on the two nodes continues: exit 0 (got $?)" test $? = 0
check "... every configuration measured once, those before kept ($before before)" "$csvawk" -v b="$before" '
	NR > 1 { if (NF != 46) exit 1; k[$1]++ } END { n = 0; for (c in k) { n++; if (k[c] != 21) exit 1 } exit n != 3 || b < 1 }' "$dir/k/points.csv"
# every rehearsal above said which cgroups it made: none is left
bases=$(sed -n 's/^rehearsal: cgroups \([^ ]*\) .*/\1/p' "$dir"/*.err "$dir"/*.out 2>/dev/null | sort -u | tr '\n' ' ')
check "... nothing of the $(echo $bases | wc -w) rehearsals is left behind" sh -c "
	test -n '$bases' && for b in $bases; do test ! -e /sys/fs/cgroup/cpuset/\$b -a ! -e /sys/fs/cgroup/cpu/\$b || exit 1; done"
grep -h 'could not be removed' "$dir"/*.err 2>/dev/null | sed 's/^/# /'
echo "1..$n"
