#!/bin/sh
# t-slurm.sh: rooftraj under a real Slurm (tests/slurm-rehearsal.sh: munge, slurmctld, two
# slurmd as two nodes with their own host names and cores): the cluster probe with one rank per
# node through srun and PMIx, the cluster profile naming its job; srun --mpi=none refused
# instead of two silent singletons; data-parallel training across the nodes bit-identical to
# one process; --sweep ranks inside an allocation; roofline-run under srun; a node throttled to
# 25% found; nothing left behind after a SIGTERM.
. "$top_srcdir/tests/tap.sh"
rehearse="$top_srcdir/tests/slurm-rehearsal.sh"
probe="$top_builddir/src/roofline-probe"
train="$top_builddir/src/roofline-train"
run="$top_builddir/src/roofline-run"
if [ "$(id -u)" != 0 ] || ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
	echo "1..0 # SKIP needs root, slurm-wlm and munge (a Slurm cluster of its own on this machine)"
	exit 0
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/rt-t-slurm.XXXXXX") || exit 1
trap '[ -n "${RT_KEEP:-}" ] || rm -rf "$dir"' EXIT
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cd "$dir" || exit 1
# the probe's coarse ceilings (--quick): no check here judges a short run; the throttled node is
# found on its sustained runs, half a second each with --quick too; the healthy cluster's probe
# is checked for its files and its job record only, and measures no sustained run
# the widest FMA this CPU runs (the kernels must really run): every ceiling named by it
isa=$(widest_isa)
probe_opts="-q -i $isa --no-lowp --no-chart --no-curve -t 1 --one-at-a-time --threshold 45"
common="-m $top_srcdir/tests/data/dp.cfg -n 6 -w 0 -t 1 -c none --digest"
# cpu_load: the share of the machine that other processes used over 1 s (a judgement of the
# nodes is made only when it had nothing else to do around the run)
cpu_load() {
	a=$(awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat)
	sleep 1
	awk -v a="$a" '$1 == "cpu" { split(a, x, " "); b = $2 + $3 + $4 + $7 + $8 + $9
		t = $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9; printf "%.2f", (t > x[2] ? (b - x[1]) / (t - x[2]) : 0) }' /proc/stat
}

# one cluster for every step that needs it healthy
cat >"$dir/steps.sh" <<EOF
srun -N 2 --mpi=none hostname >"$dir/hosts.out" 2>&1
srun -N 2 --ntasks-per-node=1 --mpi=pmix "$probe" $probe_opts --sustain 0 --profile-out "$dir/ok/%h.cfg" \\
	--cluster "$dir/ok/cluster.cfg" >"$dir/ok.out" 2>"$dir/ok.err"
echo \$? >"$dir/ok.rc"
srun -N 2 --ntasks-per-node=1 --mpi=none "$probe" --quick --no-chart --profile-out "$dir/single/%h.cfg" \\
	>"$dir/single.out" 2>"$dir/single.err"
echo \$? >"$dir/single.rc"
srun -N 2 --ntasks-per-node=1 --mpi=pmix "$train" $common -b 16 >"$dir/dp.out" 2>"$dir/dp.err"
echo \$? >"$dir/dp.rc"
salloc -N 2 "$train" -m lenet5 -b 8 -n 3 -w 0 -r 1 -c model --sweep ranks=1,2 \\
	--mpirun "srun --mpi=pmix" --out "$dir/ranks" >"$dir/ranks.out" 2>"$dir/ranks.err"
echo \$? >"$dir/ranks.rc"
srun -N 2 --ntasks-per-node=1 --mpi=pmix "$run" -o "$dir/run" -r 1 --no-overhead -- \\
	"$train" -m lenet5 -b 4 -n 1 -w 0 -c none -t 1 >"$dir/run.out" 2>"$dir/run.err"
echo \$? >"$dir/run.rc"
EOF
start=$(date +%s)
timeout 900 "$rehearse" -n 2 -- sh "$dir/steps.sh" >"$dir/rh.out" 2>"$dir/rh.err"
rc=$?
took=$(( $(date +%s) - start ))
echo "# the healthy cluster's steps took $took s"
sed 's/^/# /' "$dir/rh.err" | head -n 5
check "a Slurm cluster of 2 nodes: up, the steps ran (exit $rc)" test $rc = 0
check "... srun -N 2 hostname answers nodea and nodeb" sh -c "sort '$dir/hosts.out' | tr '\n' ' ' | grep -qx 'nodea nodeb '"
check "the cluster probe, one rank per node through srun --mpi=pmix: exit 0 ($(cat "$dir/ok.rc" 2>/dev/null))" test "$(cat "$dir/ok.rc" 2>/dev/null)" = 0
check "... each node wrote its profile under its own name" test -s "$dir/ok/nodea.cfg" -a -s "$dir/ok/nodeb.cfg"
check "... the cluster profile lists both, inter-node over TCP" sh -c "grep -q 'host = \"nodea\"' '$dir/ok/cluster.cfg' && grep -q 'host = \"nodeb\"' '$dir/ok/cluster.cfg' && grep -q 'scope = \"inter-node\"' '$dir/ok/cluster.cfg'"
check "... and names its job: Slurm, the job id, the nodes, the partition, srun" grep -Eq '^  job = \{ scheduler = "slurm"; id = "[0-9]+"; nodelist = "node(\[a-b\]|a,nodeb)"; partition = "rehearsal"; launcher = "srun"; \};' "$dir/ok/cluster.cfg"
check "srun --mpi=none: no silent singletons, refused (exit $(cat "$dir/single.rc" 2>/dev/null))" sh -c "test \"\$(cat '$dir/single.rc')\" != 0 && grep -q 'srun --mpi=pmix' '$dir/single.err'"
sed -n '1p' "$dir/single.err" | sed 's/^/# /'
check "... nothing measured, nothing written" test ! -e "$dir/single/nodea.cfg" -a ! -e "$dir/single/nodeb.cfg"
check "training across the 2 nodes through srun: exit 0 ($(cat "$dir/dp.rc" 2>/dev/null))" test "$(cat "$dir/dp.rc" 2>/dev/null)" = 0
check "... 2 ranks on 2 nodes" grep -q "2 ranks on 2 nodes" "$dir/dp.out"
"$train" $common -b 32 >"$dir/one.out" 2>&1
h0=$(rank_digest "$dir/dp.out" 0)
h1=$(rank_digest "$dir/dp.out" 1)
check "... bit-identical weights on both nodes ($h0 $h1)" test -n "$h0" -a "$h0" = "$h1"
check "... the weights of one process on the global batch (sum and norm within 1e-5)" same_weights "$dir/one.out" "$dir/dp.out"
check "--sweep ranks=1,2 inside an allocation (salloc -N 2, srun as the launcher): exit 0 ($(cat "$dir/ranks.rc" 2>/dev/null))" test "$(cat "$dir/ranks.rc" 2>/dev/null)" = 0
check "... both rank counts measured" "$csvawk" 'NR > 1 && $7 == "iteration" && $9 == "median" { r[$6] } END { exit !(1 in r && 2 in r) }' "$dir/ranks/points.csv"
check "... run.cfg names the job" grep -q '"SLURM_JOB_ID=[0-9]*"' "$dir/ranks/run.cfg"
check "roofline-run under srun, one rank per node, the command an MPI program of 2 ranks: exit 0 ($(cat "$dir/run.rc" 2>/dev/null))" test "$(cat "$dir/run.rc" 2>/dev/null)" = 0
grep -v '^\[' "$dir/run.err" | grep -i 'error\|refus\|fail' | head -n 5 | sed 's/^/# /'
# (csvawk: a disturbed row's reason holds commas)
job_rows() {
	test -s "$dir/run/rank-0/points.csv" && test -s "$dir/run/rank-1/points.csv" &&
		"$csvawk" 'NR > 1 { r[$col["rank"]] } END { exit !(0 in r && 1 in r) }' "$dir/run/points.csv" &&
		test -s "$dir/run/summary.txt"
}
check "... each rank its own rows, one summary of the job" job_rows

# nodeb throttled to 25% of its core: found on its sustained runs (at 40% its sustained fp64
# run went unfound once under the sanitizers: a node at 40% can read 0.63 of one measured on a
# slow turn of this VM's vCPUs, inside the threshold; at 25% it reads between 0.16 and 0.40,
# as t-rehearsal.sh found); then, in the same cluster
# (one start of Slurm for both), SIGTERM while a job runs: every daemon stopped, the cgroups
# and the directory removed
cat >"$dir/th.sh" <<EOF
srun -N 2 --ntasks-per-node=1 --mpi=pmix "$probe" $probe_opts --sustain 0.5 \\
	--profile-out "$dir/th/%h.cfg" --cluster "$dir/th/cluster.cfg" >"$dir/th.out" 2>"$dir/th.err"
echo \$? >"$dir/th.rc"
exec srun -N 2 --mpi=none sleep 60
EOF
before=$(cpu_load)
timeout 600 "$rehearse" -n 2 -t nodeb:25 -- sh "$dir/th.sh" >"$dir/term.out" 2>"$dir/term.err" &
pid=$!
# until the probe is done and the job's tasks run on the nodes, however long that takes
while kill -0 $pid 2>/dev/null; do
	[ -s "$dir/th.rc" ] && [ "$(pgrep -fx '(/[^ ]*/)?sleep 60' | wc -l)" -ge 2 ] && break
	sleep 0.1
done
after=$(cpu_load)
echo "# the machine used by other processes: $before before the run, $after after"
rc=$(cat "$dir/th.rc" 2>/dev/null)
check "nodeb throttled to 25% under Slurm: the cluster probe exits 0 (got $rc)" test "$rc" = 0
sed -n '/^below the reference/,/^$/p' "$dir/th.out" | sed 's/^/# /'
if grep -q 'busy with other work before the probe' "$dir"/th/node*.cfg 2>/dev/null ||
	! awk -v a="$before" -v b="$after" 'BEGIN { exit !(a <= 0.1 && b <= 0.1) }'; then
	skip "other processes used the machine around the run: no node judged"
else
	check "... nodeb found on its sustained fp64 run, at about 25% of nodea" awk -v want="flops fp64 $isa" '
		index($0, "host = \"nodeb\"; ceiling = \"" want "\"; statistic = \"sustained\"") {
			match($0, /ratio = [0-9.]+/); r = substr($0, RSTART + 8, RLENGTH - 8)
			if (r > 0.12 && r < 0.5) ok = 1 }
		END { exit !ok }' "$dir/th/cluster.cfg"
fi
d=$(sed -n 's/^slurm rehearsal: directory \([^,]*\), cgroups \([^ ]*\) .*/\1/p' "$dir/term.err")
cg=$(sed -n 's/^slurm rehearsal: directory \([^,]*\), cgroups \([^ ]*\) .*/\2/p' "$dir/term.err")
kill -TERM $pid
wait $pid
rc=$?
check "SIGTERM during a job: the rehearsal stops (exit $rc)" test "$rc" != 0 -a -n "$d" -a -n "$cg"
left=$(pgrep -fa "$d" | grep -v pgrep)
check "... no slurmctld, slurmd or munged of it left" test -z "$left"
echo "$left" | sed 's/^/# left: /'
check "... its cgroups and directory removed" test ! -e "/sys/fs/cgroup/cpuset/$cg" -a ! -e "/sys/fs/cgroup/cpu/$cg" -a ! -e "$d"
PATH=/nonexistent "$rehearse" -- true >"$dir/noslurm.out" 2>&1
rc=$?
check "without Slurm on PATH: exit 77, said why (got $rc)" sh -c "test $rc = 77 && grep -q 'cannot rehearse a Slurm cluster here' '$dir/noslurm.out'"
echo "1..$n"
