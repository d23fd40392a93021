#!/bin/sh
# t-mpi.sh: the cluster support under mpirun (2 ranks oversubscribed on this machine):
# data-parallel training equals one process on the global batch and keeps the ranks' weights
# bit-identical; the cluster probe lists the node once and reports a node that fails; sweeps
# per rank count append to one directory; a rank killed mid-sweep stops the run in bounded time
# with the finished points intact.
train="$top_builddir/src/roofline-train"
probe="$top_builddir/src/roofline-probe"
prof="$top_srcdir/machine-profiles/example-kvm-spr.cfg"
if ! grep -q '^#define HAVE_MPI 1' "$top_builddir/config.h" 2>/dev/null || ! command -v mpirun >/dev/null; then
	echo "1..0 # SKIP built without MPI (./configure --with-mpi=yes; Debian: libopenmpi-dev openmpi-bin)"
	exit 0
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/rt-t-mpi.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
# CI runs as root; Open MPI's own allocations at exit are not ours to report
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export OMP_NUM_THREADS=1
mpi() { timeout 300 mpirun --oversubscribe -n "$@"; }
. "$top_srcdir/tests/tap.sh"

# tests/data/dp.cfg: dropout (sliced per rank), no batch norm (per-rank statistics)
common="-m $top_srcdir/tests/data/dp.cfg -n 6 -w 0 -t 1 -c none --digest"
mpi 2 "$train" $common -b 16 >"$dir/two.out" 2>"$dir/two.err"
check "mpirun -n 2 roofline-train exits 0 (got $?)" test $? = 0
"$train" $common -b 32 >"$dir/one.out" 2>"$dir/one.err"
check "one process, global batch 32, exits 0" test $? = 0
h0=$(rank_digest "$dir/two.out" 0)
h1=$(rank_digest "$dir/two.out" 1)
check "both ranks hold bit-identical weights after 6 steps ($h0 $h1)" test -n "$h0" -a "$h0" = "$h1"
check "2 ranks x batch 16 = 1 process x batch 32 after 6 steps (sum and norm within 1e-5)" same_weights "$dir/one.out" "$dir/two.out"
check "the run names the ranks and the global batch" grep -q "2 ranks on 1 node, each its shard of a global batch of 32" "$dir/two.out"
check "a comm phase is timed" grep -q "^  comm " "$dir/two.out"
check "only rank 0 prints the report" test "$(grep -c 'images/s' "$dir/two.out")" = 1

# the cluster probe: the node once, its ceilings, the network on loopback (no sustained runs:
# tests/t-rehearsal.sh judges those, on nodes of their own)
mpi 2 "$probe" -q --no-curve --no-lowp --no-chart -t 1 --sustain 0 --profile-out "$dir/%h.cfg" --cluster "$dir/cluster.cfg" \
	>"$dir/p.out" 2>"$dir/p.err"
check "mpirun -n 2 roofline-probe exits 0 (got $?)" test $? = 0
check "the cluster profile lists the node once, ok" sh -c "test \$(grep -c 'host = .*; status = ' '$dir/cluster.cfg') = 1 && grep -q 'status = \"ok\"' '$dir/cluster.cfg'"
check "ranks = 2, nodes = 1" sh -c "grep -q 'ranks = 2;' '$dir/cluster.cfg' && grep -q 'nodes = 1;' '$dir/cluster.cfg'"
check "one profile per node, named by its host" test -s "$dir/$(hostname).cfg"
check "the node's ceilings with min, median and max" grep -q 'name = "flops fp32 .*min = .*median = .*max = ' "$dir/cluster.cfg"
check "ping-pong and allreduce measured on loopback (intra-node)" sh -c "grep -q 'scope = \"intra-node\"' '$dir/cluster.cfg' && test \$(grep -c 'gbytes_per_s' '$dir/cluster.cfg') -ge 10"
check "roofline-train reads a node profile the cluster probe wrote" "$train" -m lenet5 -n 1 -w 0 -r 1 -c none --sweep threads=1 --profile "$dir/$(hostname).cfg" --out "$dir/x"
start=$(date +%s)
ROOFTRAJ_PROBE_FAIL=0 mpi 2 "$probe" -q --no-curve --no-lowp --no-chart -t 1 --sustain 0 --profile-out "$dir/f-%h.cfg" \
	--cluster "$dir/fail.cfg" >"$dir/f.out" 2>"$dir/f.err"
rc=$?
check "a node that fails to probe: nonzero exit (got $rc), in $(( $(date +%s) - start )) s" test "$rc" != 0 -a $(( $(date +%s) - start )) -lt 120
check "... reported in the cluster profile with why" grep -q 'status = "probe failed' "$dir/fail.cfg"
check "... and on stderr" grep -q "could not be probed" "$dir/f.err"
# a cluster profile over what is not a regular file (a FIFO): refused before any node is
# measured, naming the option and the path, the FIFO left as it was
mkfifo "$dir/cluster-fifo"
mpi 2 "$probe" -q --no-curve --no-lowp --no-chart -t 1 --sustain 0 --profile-out "$dir/c-%h.cfg" \
	--cluster "$dir/cluster-fifo" >"$dir/c.out" 2>"$dir/c.err"
rc=$?
check "--cluster over a FIFO: nonzero exit (got $rc)" test "$rc" != 0
check "... said naming --cluster and the path" grep -q "roofline-probe: --cluster: $dir/cluster-fifo: not a regular file (a FIFO)" "$dir/c.err"
check "... the FIFO is still a FIFO, no node was measured" sh -c "test -p '$dir/cluster-fifo' && ! test -e '$dir/c-$(hostname).cfg'"

# sweeps per rank count into one directory
mpi 2 "$train" -m lenet5 -n 2 -w 0 -r 1 -c model --profile "$prof" --sweep threads=1 --out "$dir/s" \
	>"$dir/s2.out" 2>"$dir/s2.err"
check "mpirun -n 2 sweep exits 0 (got $?)" test $? = 0
"$train" -m lenet5 -n 2 -w 0 -r 1 -c model --profile "$prof" --sweep threads=1 --out "$dir/s" \
	>"$dir/s1.out" 2>"$dir/s1.err"
check "a one-process sweep appends to the same directory" test $? = 0
check "configurations of 2 ranks are named -r2 and carry ranks 2, the global batch 128" "$csvawk" '$1 ~ /-r2$/ && $7 == "iteration" { k++; if ($6 != 2 || $3 != 128) exit 1 } END { exit !k }' "$dir/s/points.csv"
check "and the one-process rows ranks 1" "$csvawk" 'NR > 1 && $1 == "t1-b64-none" && $6 != 1 { exit 1 }' "$dir/s/points.csv"
check "the 2-rank rows have a comm phase" grep -q -- '-r2,.*,phase,comm,' "$dir/s/points.csv"
check "roofline-plot draws the directory's trajectories over the ranks" sh -c "'$top_builddir/src/roofline-plot' --overlay '$dir/sp' '$dir/s' && grep -q 'as ranks varies' '$dir/sp.gp'"
mpi 2 "$train" -m lenet5 -n 2 -w 0 -r 1 -c model --profile "$prof" --sweep threads=1 \
	--sweep affinity --out "$dir/a" >"$dir/a.out" 2>"$dir/a.err"
check "an affinity sweep under mpirun (threads pinned in process) exits 0 (got $?)" test $? = 0
check "... compact, scatter and none, per rank count" "$csvawk" '$7 == "iteration" && $9 == "median" && ($23 == "ok" || $23 == "disturbed") { k[$1]++ } END { exit !(("t1-b64-compact-r2" in k) && ("t1-b64-scatter-r2" in k) && ("t1-b64-none-r2" in k)) }' "$dir/a/points.csv"
check "... without a placement warning" sh -c "! grep -q warning '$dir/a.err'"
check "... run.cfg lists no configuration's environment (the ranks train in process, no child)" \
	sh -c "! grep -q configurations_run '$dir/a/run.cfg'"

# a rank killed mid-sweep: the job stops in bounded time, the points written so far intact
mpi 2 "$train" -m lenet5 -n 400 -w 0 -r 1 -c model --profile "$prof" --sweep batch=8,16,32,48 \
	--out "$dir/k" >"$dir/k.out" 2>"$dir/k.err" &
job=$!
victim=
# (waiting for the first configuration's rows, however slow the machine; the victim is rank 1's
# own process, not a configuration's child that may be gone by the time it is killed)
for k in $(seq 3000); do
	if [ -f "$dir/k/points.csv" ] && [ "$(wc -l <"$dir/k/points.csv")" -gt 1 ]; then
		# (this run's ranks alone: its --out names this test's directory, so that the same
		# test running elsewhere on the machine is never the victim)
		for p in $(pgrep -f "roofline-train -m lenet5 -n 400 .*--out $dir/k"); do
			parent=$(ps -o comm= -p "$(ps -o ppid= -p "$p" | tr -d ' ')" 2>/dev/null)
			[ "$parent" = roofline-train ] && continue
			grep -qz '^OMPI_COMM_WORLD_RANK=1$' /proc/$p/environ 2>/dev/null && victim=$p
		done
		break
	fi
	[ -d "/proc/$job" ] || break
	sleep 0.1
done
start=$(date +%s)
[ -n "$victim" ] && kill -9 "$victim"
wait $job
rc=$?
check "killing rank 1 ($victim) mid-sweep stops the run: exit $rc in $(( $(date +%s) - start )) s" test -n "$victim" -a "$rc" != 0 -a $(( $(date +%s) - start )) -lt 300
check "the finished configurations are whole (21 rows each: iteration and 6 phases x 3)" "$csvawk" 'NR > 1 { if (NF != 46) exit 1; k[$1]++ } END { n = 0; for (c in k) { n++; if (k[c] != 21) exit 1 } exit n < 1 }' "$dir/k/points.csv"
# ranks as a knob: rooftraj launches mpirun for each rank count, the node's cores and the global
# batch shared among the ranks (r1 x t2 against r2 x t1 here)
"$train" -m lenet5 -n 3 -w 0 -r 1 -c model --profile "$prof" --sweep ranks=1,2 --out "$dir/rk" \
	>"$dir/rk.out" 2>"$dir/rk.err"
check "--sweep ranks=1,2 (no mpirun around it) exits 0 (got $?)" test $? = 0
check "... two configurations, 1 and 2 ranks, the same global batch, the cores shared" "$csvawk" '
	NR > 1 && $7 == "iteration" && $9 == "median" && ($23 == "ok" || $23 == "disturbed") { t[$6] = $2; b[$6] = $3; k++ }
	END { exit !(k == 2 && (1 in t) && (2 in t) && b[1] == b[2] &&
		     (t[2] == int(t[1] / 2) || (t[1] == 1 && t[2] == 1))) }' "$dir/rk/points.csv"
check "... the 2-rank configuration named -r2, its batch per rank in the name" grep -q '^t[0-9]*-b32-none-r2,' "$dir/rk/points.csv"
check "... a comm phase for the 2 ranks only" sh -c "grep -q '^t[0-9]*-b32-none-r2,.*,phase,comm,median,' '$dir/rk/points.csv' && ! grep -q '^t[0-9]*-b64-none,.*,phase,comm,' '$dir/rk/points.csv'"
check "... the trajectory runs along the ranks" grep -q 'trajectories as ranks varies' "$dir/rk/trajectories.gp"
check "... run.cfg records the knob for --resume" grep -q '"ranks=1,2"' "$dir/rk/run.cfg"
check "... and what the 2 ranks' launch ran with: their threads, placement theirs" \
	grep -Eq '^    \{ name = "t([0-9]+)-b32-none-r2"; environment = \[ "OMP_NUM_THREADS=\1", "OMP_PLACES=", "OMP_PROC_BIND=" \];' "$dir/rk/run.cfg"
check "... the launched ranks' record (a file in the results directory) removed once they ended" \
	sh -c "! ls '$dir/rk'/child.cfg* >/dev/null 2>&1"
"$train" -m lenet5 -n 3 -w 0 -r 1 -c model --profile "$prof" --sweep ranks=1,2 --mpirun /nonexistent/mpirun \
	--out "$dir/rk2" >/dev/null 2>"$dir/rk2.err"
check "--mpirun that does not exist: exit 1 (got $?), named" grep -q "the MPI launcher '/nonexistent/mpirun' is not found" "$dir/rk2.err"
check "... before anything was measured" test ! -e "$dir/rk2/points.csv"
mpi 2 "$train" -m lenet5 -n 3 -w 0 -r 1 -c model --profile "$prof" --sweep ranks=1,2 --out "$dir/rk3" \
	>/dev/null 2>"$dir/rk3.err"
check "--sweep ranks under mpirun: refused, said why" grep -q "run it without mpirun" "$dir/rk3.err"

# roofline-run under mpirun: each rank wraps its own process (here a trainer that does not
# start MPI itself: the launcher's variables taken away), one directory, one summary
run="$top_builddir/src/roofline-run"
mpi 2 "$run" -o "$dir/rr" -r 2 --no-overhead --sweep threads=1 -- env -u OMPI_COMM_WORLD_SIZE \
	-u PMI_SIZE -u PMIX_RANK "$train" -m lenet5 -b 4 -n 1 -w 0 -c none >"$dir/rr.out" 2>"$dir/rr.err"
check "mpirun -n 2 roofline-run: exit 0 (got $?)" test -s "$dir/rr/summary.txt"
check "... each rank wrote its own room" sh -c "test -s '$dir/rr/rank-0/points.csv' && test -s '$dir/rr/rank-1/points.csv'"
check "... one points.csv with every rank's runs (2 configurations x 2 runs x 2 ranks)" sh -c "$csvawk '\$col[\"scope\"] == \"run\" && (\$col[\"status\"] == \"ok\" || \$col[\"status\"] == \"disturbed\") { n[\$col[\"rank\"]]++ } END { exit !(n[0] == 4 && n[1] == 4) }' '$dir/rr/points.csv'"
check "... one summary of the job, printed once" sh -c "grep -q '^2 ranks (OMPI_COMM_WORLD_SIZE)' '$dir/rr/summary.txt' && test \$(grep -c '^2 ranks' '$dir/rr.out') = 1"
# (a run disturbed on a rank by other work on the machine is said so, never compared)
check "... every run of both configurations counted on both ranks" sh -c "for c in default threads=1; do grep -Eq \"^\$c +([0-9.]+ \\([0-9.]+\\.\\.[0-9.]+\\) +(2/2 |[01]/2 .*disturbed on a rank: not counted\\))|disturbed on a rank in every run)\" '$dir/rr/summary.txt' || exit 1; done; ! grep -q 'failed on a rank' '$dir/rr/summary.txt'"
mpi 2 "$run" -r 1 -- true >/dev/null 2>"$dir/rr2.err"
check "... without -o: refused, naming it" grep -q 'give the directory they share with -o DIR' "$dir/rr2.err"
echo "1..$n"
