#!/bin/sh
# t-sweep-train.sh: roofline-train --sweep end to end: points.csv columns and arithmetic, the
# summary, a configuration that runs out of memory recorded while the sweep goes on, resume
# after an interruption, and a timeout.
tool="$top_builddir/src/roofline-train"
prof="$top_srcdir/machine-profiles/example-kvm-spr.cfg"
dir=$(mktemp -d "${TMPDIR:-/tmp}/rt-t-sweep.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
. "$top_srcdir/tests/tap.sh"
common="-m lenet5 -n 2 -w 1 -r 2 -c model --profile $prof"
# AddressSanitizer reserves terabytes of address space: no memory limit can be set under it
if ldd "$tool" 2>/dev/null | grep -q libasan; then
	big=16 limit=unlimited
else
	big=60000 limit=3000000
fi

# a grid of two batches, one of them far too large for the memory limit of this shell
(ulimit -v $limit; "$tool" $common --sweep batch=8,$big --out "$dir/a" >"$dir/a.out" 2>"$dir/a.err")
rc=$?
check "the sweep completes (exit $rc)" test "$rc" = 0
csv="$dir/a/points.csv"
check "points.csv, summary.txt, run.cfg written" test -s "$csv" -a -s "$dir/a/summary.txt" -a -s "$dir/a/run.cfg"
check "header names every column (the trainer's, then the command's)" grep -qx 'config,threads,batch,affinity,precision,ranks,scope,name,stat,seconds,flops,bytes,source,intensity,gflops,images_per_s,weights,activations,gradients,optimizer,workspace,peak_rss,status,reason,impl,input_h,input_w,weight_gradients,activation_gradients,inference,processes,cpu_share,bytes_source,rep,kind,prop,dtype,calls,share,wall_seconds,onednn_seconds,coverage,log,rank,startup_seconds,window_seconds' "$csv"
# one schema: roofline-run's points.csv has the very same header line
"$top_builddir/src/roofline-run" -o "$dir/cmd" -r 1 --no-overhead --no-hw-counters -- true >/dev/null 2>&1
check "... the very header line of roofline-run's points.csv" sh -c "head -n 1 '$csv' >'$dir/h1' && head -n 1 '$dir/cmd/points.csv' >'$dir/h2' && test -s '$dir/h1' && cmp -s '$dir/h1' '$dir/h2'"
check "... a training sweep's rows leave the command's columns empty" "$csvawk" 'NR > 1 { for (k = col["rep"]; k <= NF; k++) if ($k != "") exit 1 }' "$csv"
check "every row has 46 fields" "$csvawk" 'NR > 1 && NF != 46 { exit 1 }' "$csv"
# (over 1 when a busy machine disturbed one of them twice: only undisturbed runs count)
check "-r 2: every measured row is over its fresh processes, with the share of its cores' time" "$csvawk" 'NR > 1 && ($col["status"] == "ok" || $col["status"] == "disturbed") && ($col["processes"] < 1 || $col["processes"] > 2 || !($col["cpu_share"] > 0)) { exit 1 }' "$csv"
check "each configuration's rows end with its iteration median" "$csvawk" 'NR > 1 { last[$1] = $col["scope"] "/" $col["stat"] } END { for (c in last) if (last[c] != "iteration/median") exit 1 }' "$csv"
check "ok rows name oneDNN's implementation of the heaviest layer" "$csvawk" 'NR > 1 && ($col["status"] == "ok" || $col["status"] == "disturbed") && $col["impl"] == "" { exit 1 }' "$csv"
check "the default configuration first (all cores, batch 64)" "$csvawk" -v c="$(nproc)" 'NR == 2 && $1 != "t" c "-b64-none" { exit 1 }' "$csv"
check "iteration and the phases data, forward, loss, backward, update, each median/min/max" "$csvawk" '$1 ~ /^t[0-9]*-b8-none$/ && ($col["status"] == "ok" || $col["status"] == "disturbed") { k++ } END { exit k != 18 }' "$csv"
check "the memory split adds up: gradients = weight_gradients + activation_gradients" "$csvawk" 'NR > 1 && ($col["status"] == "ok" || $col["status"] == "disturbed") && $col["gradients"] != $col["weight_gradients"] + $col["activation_gradients"] { exit 1 }' "$csv"
check "the input size and the inference footprint are recorded" "$csvawk" 'NR > 1 && ($col["status"] == "ok" || $col["status"] == "disturbed") && ($col["input_h"] != 28 || $col["input_w"] != 28 || $col["inference"] <= 0 || $col["inference"] >= $col["weights"] + $col["activations"] + $col["gradients"] + $col["optimizer"] + $col["workspace"]) { exit 1 }' "$csv"
check "intensity = flops / bytes, GFLOP/s = flops / seconds / 1e9 in every ok row" "$csvawk" 'NR > 1 && ($col["status"] == "ok" || $col["status"] == "disturbed") { i = $col["flops"] / $col["bytes"]; g = $col["flops"] / $col["seconds"] / 1e9;
	if (($col["intensity"] - i) / i > 1e-5 || ($col["intensity"] - i) / i < -1e-5 || ($col["gflops"] - g) / g > 1e-5 || ($col["gflops"] - g) / g < -1e-5) exit 1 }' "$csv"
check "images/s = batch / seconds on the iteration rows" "$csvawk" 'NR > 1 && $col["scope"] == "iteration" && ($col["status"] == "ok" || $col["status"] == "disturbed") { v = $col["batch"] / $col["seconds"]; if (($col["images_per_s"] - v) / v > 1e-5 || ($col["images_per_s"] - v) / v < -1e-5) exit 1 }' "$csv"
if [ "$big" = 60000 ]; then
	check "the batch that does not fit is a failed row with its reason" grep -q '^t[0-9]*-b60000-none,.*,failed,.*out of memory\|^t[0-9]*-b60000-none,.*,failed,.*exit 1' "$csv"
else
	skip "no memory limit under AddressSanitizer"
fi
# the verdict first, whichever configuration this machine made the fastest (batch 64 on a quiet
# one; a sanitizer build or a busy machine may put a smaller batch ahead, by its median or
# outside both ranges): it names the fastest of the rows, claims a speedup only where the ranges
# are apart, says "the ranges overlap" only where they do, and gives the rows' figures
check "the summary's verdict says what points.csv holds: the fastest configuration by its median, a speedup only outside both ranges, the figures the rows'" verdict_agrees "$dir/a/summary.txt" "$csv"
head -n 1 "$dir/a/summary.txt" | sed 's/^/# verdict: /'
# each configuration measured: its bound and the distance to it where it ran undisturbed, the
# reason where other work disturbed it (a busy machine: never held against a roof)
bounds_agree() { # SUMMARY CSV
	"$csvawk" 'NR > 1 && $col["scope"] == "iteration" && $col["stat"] == "median" &&
		($col["status"] == "ok" || $col["status"] == "disturbed") { print $1, $col["status"] }' "$2" >"$dir/bst"
	test -s "$dir/bst" && while read -r c st; do
		l=$(grep "^$c " "$1") || return 1
		case $st in
		ok) echo "$l" | grep -q '\(GFLOP/s\|GB/s\) *[0-9.]*%' || return 1 ;;
		*) echo "$l" | grep -q ' disturbed: ' || return 1 ;;
		esac
	done <"$dir/bst"
}
check "the summary gives each point's bound (a disturbed one's reason)" bounds_agree "$dir/a/summary.txt" "$csv"
check "trajectories.gp written" test -s "$dir/a/trajectories.gp"
if command -v gnuplot >/dev/null; then
	check "gnuplot accepts the trajectories script (PNG and SVG rendered)" test -s "$dir/a/trajectories.png" -a -s "$dir/a/trajectories.svg"
	check "gnuplot exits 0 on it" sh -c "cd '$dir' && gnuplot -e \"outbase='$dir/again'\" '$dir/a/trajectories.gp'"
else
	skip "gnuplot is not installed"
fi
check "run.cfg is libconfig: roofline-plot finds the profile in it" "$top_builddir/src/roofline-plot" --overlay "$dir/replot" "$dir/a"
check "run.cfg records the command" grep -q "command = \".*--sweep batch=8,$big" "$dir/a/run.cfg"
check "... what each configuration's child ran with: its threads, placement left to the runtime" \
	grep -Eq '^    \{ name = "t([0-9]+)-b8-none"; environment = \[ "OMP_NUM_THREADS=\1", "OMP_PLACES=", "OMP_PROC_BIND=" \]; preload = ""; argv_prefix = \[ \]; \}' "$dir/a/run.cfg"
model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1 | sed 's/[[:space:]]*$//')
check "... the node it ran on, as /proc/cpuinfo says (node_cpu: $model), beside the profile's CPU" sh -c "grep -qF '  node_cpu = { model = \"$model\"; ' '$dir/a/run.cfg' && grep -q '^  cpu = { model = ' '$dir/a/run.cfg'"
check "... and no counter verdict with -c model (none was asked)" sh -c "! grep -q '^  hardware_counters' '$dir/a/run.cfg'"
# -c auto: run.cfg (and the page that shows it) records the node's counters: the table, its
# groups, the self-check or why not, the DRAM events; the points say their source
"$tool" -m lenet5 -n 2 -w 1 -r 1 -c auto --profile "$prof" --sweep threads=1 --out "$dir/hw" >/dev/null 2>&1
check "-c auto: run.cfg records the counter verdict" grep -q '^  hardware_counters = "hardware counters: ' "$dir/hw/run.cfg"
if grep -q 'hardware_counters = "hardware counters: not used\|hardware_counters = "hardware counters: no table' "$dir/hw/run.cfg"; then
	check "... no counters here: every point's FLOPs from the model" sh -c "awk -F, 'NR > 1 && \$8 == \"iteration\"' '$dir/hw/points.csv' | grep -q ',model,' && ! grep -q ',hw,\|,hw-estimate,' '$dir/hw/points.csv'"
else
	check "... a validated or refused table: said with its ratios" grep -q 'hardware_counters = ".*known kernel' "$dir/hw/run.cfg"
fi
# the bytes' source beside the FLOPs': the model's, or the DRAM events' (hw, hw-estimate)
# where the FLOPs are hw; never a word outside the three
check "... every row names its bytes' source" "$csvawk" 'NR > 1 && $col["status"] != "failed" && $col["bytes_source"] != "model" && !($col["source"] != "model" && ($col["bytes_source"] == "hw" || $col["bytes_source"] == "hw-estimate")) { exit 1 }' "$dir/hw/points.csv"
check "... with the DRAM verdict" grep -q 'hardware_counters = ".*DRAM bytes: ' "$dir/hw/run.cfg"

# interrupted: keep the header and the first configuration only, then resume
first=$("$csvawk" 'NR == 2 { print $1 }' "$csv")
awk -F, -v f="$first" 'NR == 1 || $1 == f' "$csv" >"$dir/keep" && cp "$dir/keep" "$csv"
before=$(wc -l <"$csv")
# in another environment than the sweep's (a variable that changes what a run does): refused,
# naming run.cfg's line, nothing measured or written
cp "$csv" "$dir/a-before.csv"
cp "$dir/a/run.cfg" "$dir/a-before.cfg"
line=$(grep -n '^  environment = ' "$dir/a/run.cfg" | cut -d: -f1)
OMP_SCHEDULE=static "$tool" $common --sweep batch=8,$big --resume "$dir/a" >/dev/null 2>"$dir/re.err"
rc=$?
check "--resume in another environment: refused (exit $rc), run.cfg's line and the variable named" sh -c "test $rc = 1 && grep -q 'a/run.cfg:$line: environment: OMP_SCHEDULE=static now, unset when the run started' '$dir/re.err'"
check "... nothing measured or rewritten (points.csv, run.cfg)" sh -c "cmp -s '$dir/a-before.csv' '$csv' && cmp -s '$dir/a-before.cfg' '$dir/a/run.cfg'"
(ulimit -v $limit; "$tool" $common --sweep batch=8,$big --resume "$dir/a" -v >"$dir/r.out" 2>"$dir/r.err")
check "resume exits 0" test $? = 0
check "resume skips what was measured" grep -q "measured before (resumed)" "$dir/r.err"
check "resume measures only what was missing" "$csvawk" -v f="$first" 'NR > 1 && $1 == f { k++ } END { exit k != 18 }' "$csv"
check "resume added the missing configurations" test "$(wc -l <"$csv")" -gt "$before"

# a configuration past its time limit is recorded, and the sweep still ends
"$tool" -m vgg16 -b 2 -n 100 -w 0 -r 1 -c model --profile "$prof" --sweep threads=1 --timeout 1 \
	--out "$dir/t" >"$dir/t.out" 2>"$dir/t.err"
check "a timed-out sweep still ends (exit $?)" test -s "$dir/t/points.csv"
check "timeouts are failed rows with their reason" grep -q ',failed,timeout after 1 s,' "$dir/t/points.csv"

# --per-layer: layer points and the per-layer chart of the best configuration
"$tool" -m lenet5 -n 2 -w 1 -r 1 -c model --profile "$prof" --sweep threads=1 --per-layer \
	--out "$dir/l" >/dev/null 2>&1
check "per-layer points for every layer" "$csvawk" '$col["scope"] == "layer" && $col["stat"] == "median" { k++ } END { exit k != 24 }' "$dir/l/points.csv"
check "the per-layer chart (layers.gp) names the hosts of fused layers and the level that holds them" grep -q "'conv2+relu2 \[L[1-3]\] [0-9]*%'\|'conv2+relu2 \[DRAM\] [0-9]*%'" "$dir/l/layers.gp"
check "a relu fused into conv1 and pool1 has no rate: its rows say fused and where" sh -c "test \$(grep -c ',layer,relu1,\(median\|min\|max\),0,0,0,model,0,0,0,[0-9,]*,fused,\"forward in conv1+relu1, backward in pool1+relu1\",' '$dir/l/points.csv') = 6"
check "its host's rows are named after both" grep -q ',layer,conv1+relu1,median,' "$dir/l/points.csv"
check "the layers' FLOPs and bytes add up to forward + backward, per configuration" "$csvawk" '$col["stat"] != "median" { next } $col["scope"] == "layer" { lf[$1] += $col["flops"]; lb[$1] += $col["bytes"] } $col["scope"] == "phase" && ($col["name"] == "forward" || $col["name"] == "backward") { pf[$1] += $col["flops"]; pb[$1] += $col["bytes"] }
	END { for (c in pf) { n++; if (lf[c] - pf[c] > 1e-9 * pf[c] || pf[c] - lf[c] > 1e-9 * pf[c] || lb[c] - pb[c] > 1e-9 * pb[c] || pb[c] - lb[c] > 1e-9 * pb[c]) exit 1 } exit n < 1 }' "$dir/l/points.csv"

# SIGINT in the middle: a clear message, exit 130, only whole configurations kept, resume
"$tool" -m lenet5 -n 300 -w 1 -r 2 -c model --profile "$prof" --sweep batch=8,16,32,48,64 \
	--out "$dir/i" >/dev/null 2>"$dir/i.err" &
pid=$!
# until the first configuration is written, however long a busy machine takes (a sweep that
# ended first fails the checks below)
while kill -0 $pid 2>/dev/null && [ "$(wc -l <"$dir/i/points.csv" 2>/dev/null || echo 0)" -le 1 ]; do
	sleep 0.1
done
kill -INT $pid
wait $pid
rc=$?
check "SIGINT: exit 130 (got $rc)" test "$rc" = 130
check "SIGINT: says what was kept and how to resume" grep -q "interrupted: .*--resume" "$dir/i.err"
check "SIGINT: every configuration in points.csv is whole (18 rows)" "$csvawk" 'NR > 1 { k[$1]++ } END { for (c in k) if (k[c] != 18) exit 1 }' "$dir/i/points.csv"
check "SIGINT: no summary pretends the sweep completed" test ! -e "$dir/i/summary.txt"
"$tool" -m lenet5 -n 300 -w 1 -r 2 -c model --profile "$prof" --sweep batch=8,16,32,48,64 \
	--resume "$dir/i" >/dev/null 2>&1
# the grid: the default (all cores, batch 64) and batches 8, 16, 32, 48 at all cores
check "after SIGINT, --resume completes the sweep" "$csvawk" 'NR > 1 { k[$1]++ } END { n = 0; for (c in k) n++; exit n != 5 }' "$dir/i/points.csv"

# the disk fills (a small tmpfs, filled up; root only): a clear error naming the file, no
# half-written chart or summary in place, the points kept; roofline-plot on a good directory
# of a full disk exits 1 and keeps every chart as it was
if [ "$(id -u)" = 0 ] && command -v gnuplot >/dev/null && mkdir -p "$dir/fs" &&
   mount -t tmpfs -o size=8m rt-t-full "$dir/fs" 2>/dev/null; then
	"$tool" -m lenet5 -n 2 -w 0 -r 1 -c model --profile "$prof" --sweep threads=1 --out "$dir/fs/good" \
		>/dev/null 2>&1
	(cd "$dir/fs/good" && md5sum *.png *.svg *.gp report.html summary.txt points.csv) >"$dir/sums"
	# fill it, then leave a little: enough for the points, not for the charts
	dd if=/dev/zero of="$dir/fs/filler" bs=64k >/dev/null 2>&1
	rm -f "$dir/fs/filler" && dd if=/dev/zero of="$dir/fs/filler" bs=1k \
		count=$(( $(df -k --output=avail "$dir/fs" | tail -n 1) - 48 )) >/dev/null 2>&1
	"$tool" -m lenet5 -n 2 -w 0 -r 1 -c model --profile "$prof" --sweep threads=1 --out "$dir/fs/new" \
		>/dev/null 2>"$dir/full.err"
	check "disk full: the sweep exits 1 (got $?)" test $? = 1
	check "disk full: the message names the file and the error" grep -q "fs/new/[a-z.-]*\(\.[A-Za-z0-9]*\.tmp\)\?: .*\(No space left on device\|incomplete (a full disk?)\)" "$dir/full.err"
	check "disk full: every chart in place is whole (no 0-byte SVG, no cut PNG)" sh -c "
		for f in '$dir'/fs/new/*.svg; do [ -e \"\$f\" ] || continue; tail -c 10 \"\$f\" | grep -q '</svg>' || exit 1; done
		for f in '$dir'/fs/new/*.png; do [ -e \"\$f\" ] || continue; tail -c 8 \"\$f\" | od -An -c | grep -q 'E   N   D' || exit 1; done"
	check "disk full: the points kept, no temporary left" sh -c "test -s '$dir/fs/new/points.csv' && ! ls -a '$dir/fs/new' | grep -q 'tmp\|rooftraj-chart'"
	dd if=/dev/zero of="$dir/fs/filler2" bs=1k >/dev/null 2>&1        # now full
	"$top_builddir/src/roofline-plot" "$dir/fs/good" >/dev/null 2>"$dir/replot.err"
	check "disk full: roofline-plot on a good directory exits 1 (got $?)" test $? = 1
	check "... naming the file and the error" grep -q "fs/good/.*\(No space left on device\|incomplete (a full disk?)\)" "$dir/replot.err"
	check "... and every chart, page and summary is as it was" sh -c "cd '$dir/fs/good' && md5sum -c --quiet '$dir/sums'"
	umount "$dir/fs" || umount -l "$dir/fs"
else
	skip "a full disk needs root (mount -t tmpfs) and gnuplot"
fi

# a configuration's child killed with SIGKILL: a failed row with the signal, the sweep goes on.
# The default configuration (batch 1024, 2000 iterations: seconds) is killed as soon as its
# child is seen: no race with a child that finishes first
"$tool" -m lenet5 -b 1024 -n 2000 -w 0 -r 1 -c model --profile "$prof" --sweep batch=8,16 \
	--out "$dir/kill" >/dev/null 2>"$dir/kill.err" &
pid=$!
child=$(sweep_child $pid)
# the child reads its configuration, a record, on its standard input (held in memory)
record=$(tr '\0' '\n' <"/proc/$child/cmdline" 2>/dev/null | sed -n '/^--emit-points$/{n;p;q}')
grep -q '^  batch = 1024; threads = [0-9]*; ranks = 1;$' "/proc/$child/fd/0" 2>/dev/null
got_record=$?
[ -n "$child" ] && kill -KILL "$child"
wait $pid
rc=$?
check "the child reads its configuration's record on its standard input ($record)" \
	test "$record" = /dev/stdin -a "$got_record" = 0
check "... and none is left in the results directory" \
	sh -c "! ls '$dir/kill'/child.cfg* >/dev/null 2>&1"
check "a child killed with SIGKILL: the sweep still ends, exit 0 (got $rc)" test -n "$child" -a "$rc" = 0
check "... its configuration is a failed row naming SIGKILL" grep -q '^t[0-9]*-b1024-none,.*,failed,.*SIGKILL' "$dir/kill/points.csv"
check "... and the other configurations were measured" sh -c "test \$(grep -c ',\(ok\|disturbed\),' '$dir/kill/points.csv') -ge 12"

# the output directory, then points.csv, become unwritable mid-run (chattr +i: root ignores
# permissions, not the immutable flag): a clear error, exit 1, the finished points kept, no
# partial file in place of a complete one
mkdir -p "$dir/imm-probe"
if chattr +i "$dir/imm-probe" 2>/dev/null; then
	chattr -i "$dir/imm-probe"
	for what in dir file; do
		"$tool" -m lenet5 -n 200 -w 0 -r 1 -c model --profile "$prof" --sweep batch=8,16,32 \
			--out "$dir/imm-$what" >/dev/null 2>"$dir/imm-$what.err" &
		pid=$!
		while kill -0 $pid 2>/dev/null; do
			[ -f "$dir/imm-$what/points.csv" ] && [ "$(wc -l <"$dir/imm-$what/points.csv")" -gt 1 ] && break
			sleep 0.1
		done
		if [ $what = dir ]; then chattr +i "$dir/imm-$what"; else chattr +i "$dir/imm-$what/points.csv"; fi
		wait $pid
		rc=$?
		chattr -i "$dir/imm-$what" "$dir/imm-$what/points.csv" 2>/dev/null
		check "unwritable $what mid-run: exit 1 (got $rc)" test "$rc" = 1
		check "unwritable $what mid-run: the message names the file and the error" grep -q "imm-$what/[a-zA-Z0-9.]*: .*Operation not permitted" "$dir/imm-$what.err"
		check "unwritable $what mid-run: the finished configurations whole, no summary" "$csvawk" -v s="$dir/imm-$what/summary.txt" 'NR > 1 { if (NF != 46) exit 1; k[$1]++ } END { for (c in k) if (k[c] != 18) exit 1; if ((getline x < s) > 0) exit 1; exit length(k) < 1 }' "$dir/imm-$what/points.csv"
		check "unwritable $what mid-run: no temporary left behind" sh -c "! ls '$dir/imm-$what'/*.tmp >/dev/null 2>&1"
	done
else
	skip "chattr +i is not permitted here (no CAP_LINUX_IMMUTABLE)"
fi

# precision as a knob: fp32 and bf16 side by side, the bf16 roof drawn beside the fp32 ones
if "$top_builddir/src/roofline-train" --precision bf16 -m lenet5 -n 1 -w 0 -b 4 -c none >/dev/null 2>&1; then
	"$tool" -m lenet5 -n 2 -w 1 -r 1 -c model --profile "$prof" --sweep precision --sweep threads=1 \
		--out "$dir/p" >/dev/null 2>"$dir/p.err"
	check "precision sweep exits 0 (got $?)" test $? = 0
	check "precision sweep: the default and fp32 and bf16 at 1 thread" "$csvawk" 'NR > 1 && $col["scope"] == "iteration" && $col["stat"] == "median" { k[$1 "/" $col["precision"]]++ }
		END { exit !(("t1-b64-none/fp32" in k) && ("t1-b64-none-bf16/bf16" in k) && length(k) == 3) }' "$dir/p/points.csv"
	check "bf16 rows ran bf16 primitives" "$csvawk" 'NR > 1 && $col["precision"] == "bf16" && ($col["status"] == "ok" || $col["status"] == "disturbed") && $col["impl"] !~ /bf16|avx512_core/ { exit 1 }' "$dir/p/points.csv"
	# (not half: LeNet-5's conv1 computes its weight gradient in fp32, cnn/model.h bwd_w_fp32;
	# t-bf16 checks the exact counts)
	check "bf16 moves fewer compulsory bytes for the same FLOPs" "$csvawk" 'NR > 1 && $1 == "t1-b64-none" && $col["scope"] == "iteration" { f = $col["flops"]; b = $col["bytes"] }
		NR > 1 && $1 == "t1-b64-none-bf16" && $col["scope"] == "iteration" { g = $col["flops"]; c = $col["bytes"] } END { exit !(f == g && c < 0.8 * b) }' "$dir/p/points.csv"
	check "the chart draws the bf16 roof beside the fp32 ones" sh -c "grep -q \"^set label [0-9]* 'bf16 \" '$dir/p/trajectories.gp' && grep -q \"^set label [0-9]* 'fp32 \" '$dir/p/trajectories.gp'"
	check "the summary bounds bf16 points by the bf16 roof or the level that holds them (or says it was disturbed)" grep -q '^t1-b64-none-bf16 .* \(bf16 [a-z0-9_]* [0-9.]* GFLOP/s\|[LD][1-5R][A-Z]* [a-z_]* [0-9.]* GB/s\|disturbed: \)' "$dir/p/summary.txt"
	# the default is the run the options describe: a sweep keeps its precision and affinity
	"$tool" -m lenet5 -n 2 -w 1 -r 1 -c none --profile "$prof" --precision bf16 \
		--affinity compact --sweep threads=1 --out "$dir/pb" >/dev/null 2>"$dir/pb.err"
	check "--precision bf16 --affinity compact --sweep threads=1 exits 0 (got $?)" test $? = 0
	check "... every configuration in bf16, compact, the default first" "$csvawk" -v c="$(nproc)" 'NR == 2 && $1 != "t" c "-b64-compact-bf16" { exit 1 }
		NR > 1 && $col["scope"] == "iteration" && $col["stat"] == "median" { k[$1 "/" $col["precision"] "/" $col["affinity"]]++ }
		END { exit !(("t1-b64-compact-bf16/bf16/compact" in k) && length(k) == (c == 1 ? 1 : 2)) }' "$dir/pb/points.csv"
	check "... run.cfg's request records them" sh -c "grep -q '^ *precision = \"bf16\";' '$dir/pb/run.cfg' && grep -q '^ *affinity = \"compact\";' '$dir/pb/run.cfg'"
	"$tool" --resume "$dir/pb" --precision fp32 >/dev/null 2>"$dir/pb2.err"
	check "... --resume with another --precision: refused (exit $?), both named" sh -c "grep -q \"precision: 'bf16' there, 'fp32' asked\" '$dir/pb2.err'"
else
	skip "this CPU has no bf16 in oneDNN"
fi
# -t is the request's: --resume without it keeps it (it measured the configurations again at
# all cores, beside the first ones, before run.cfg recorded it); a sweep without -t records
# none, so that runs under different mpirun -n share a directory (t-mpi)
"$tool" -m lenet5 -n 2 -w 1 -r 1 -c none --profile "$prof" -t 1 --sweep batch=8 --out "$dir/t1" \
	>/dev/null 2>"$dir/t1.err"
check "-t 1 --sweep batch=8: run.cfg's request records the default's 1 thread" grep -q '^ *batch = 64; threads = 1;' "$dir/t1/run.cfg"
"$tool" --resume "$dir/t1" >/dev/null 2>"$dir/t1r.err"
check "... --resume without -t exits 0 (got $?) and measures nothing new" "$csvawk" 'NR > 1 { k[$1]++ } END { exit !(length(k) == 2 && ("t1-b64-none" in k) && ("t1-b8-none" in k)) }' "$dir/t1/points.csv"
if [ "$(nproc)" -ge 2 ]; then
	"$tool" --resume "$dir/t1" -t 2 >/dev/null 2>"$dir/t1r2.err"
	check "... --resume -t 2: refused (exit $?), both counts named" grep -q "threads: '1' there, '2' asked" "$dir/t1r2.err"
else
	skip "one CPU: no second thread count to resume with"
fi
# --resume is judged on the profile its rows were judged on: the copy the directory kept, when
# the one run.cfg names was probed again since, or is gone (it failed before: no profile)
cp "$prof" "$dir/moved.cfg"
"$tool" -m lenet5 -n 2 -w 1 -r 1 -c model --profile "$dir/moved.cfg" -t 1 --sweep batch=8 \
	--out "$dir/kp" >/dev/null 2>&1
sed -i 's/^\( *created = "\)[^"]*"/\12030-01-01T00:00:00Z"/' "$dir/moved.cfg"
"$tool" --resume "$dir/kp" >/dev/null 2>"$dir/kp1.err"
check "--resume after its profile was probed again: exit 0 (got $?), judged on the kept copy" \
	sh -c "grep -q 'moved.cfg was probed again (2030-01-01T00:00:00Z) since this run began on it \
($(sed -n 's/^ *created = "\(.*\)";/\1/p' "$prof")): it goes on judged on the copy it kept, \
$dir/kp/profile.cfg' '$dir/kp1.err' && test \"\$(grep ' created = ' '$prof')\" = \
	\"\$(grep ' created = ' '$dir/kp/profile.cfg')\""
rm "$dir/moved.cfg"
"$tool" --resume "$dir/kp" >/dev/null 2>"$dir/kp2.err"
check "--resume once its profile is gone: exit 0 (got $?), on the kept copy, said" \
	grep -q "moved.cfg, the profile this run began on, is not there any more: it goes on judged on the copy it kept" "$dir/kp2.err"
# (a row other work disturbed names no roof: then its chart, drawn on the same roofs, says it)
check "... its summary and chart judge on the kept copy's fp32 roof" sh -c "grep -q 'fp32 avx512 138.5 GFLOP/s' '$dir/kp/trajectories.gp' && { grep -q 'fp32 avx512 138.5 GFLOP/s' '$dir/kp/summary.txt' || grep -q ' disturbed: ' '$dir/kp/summary.txt'; }"

# -o DIR without --sweep: the one run the options describe, measured as a sweep of one
"$tool" -m lenet5 -n 2 -w 1 -r 1 -c none --profile "$prof" -t 1 -b 16 --out "$dir/one" \
	>"$dir/one.out" 2>"$dir/one.err"
check "-o DIR without --sweep exits 0 (got $?)" test $? = 0
check "... DIR holds points.csv, summary.txt and run.cfg" test -s "$dir/one/points.csv" -a -s "$dir/one/summary.txt" -a -s "$dir/one/run.cfg"
check "... one configuration, the run asked: 1 thread, batch 16" "$csvawk" 'NR > 1 { k[$1]++ } NR > 1 && ($col["threads"] != 1 || $col["batch"] != 16) { exit 1 } END { exit !(length(k) == 1 && ("t1-b16-none" in k)) }' "$dir/one/points.csv"
check "... the results directory named on stdout" grep -q "^results: $dir/one " "$dir/one.out"
# (a busy machine can disturb the one run: then the summary says nothing was compared)
if "$csvawk" '$col["scope"] == "iteration" && $col["stat"] == "median" && $col["status"] == "disturbed" { d = 1 } END { exit !d }' "$dir/one/points.csv"; then
	check "... the summary says one configuration, disturbed: nothing compared" sh -c "head -n 1 '$dir/one/summary.txt' | grep -q '^no configuration was measured undisturbed$'"
else
	check "... the summary says one configuration, no best" sh -c "head -n 1 '$dir/one/summary.txt' | grep -q '^one configuration, t1-b16-none: [0-9.]* images/s'"
fi
# a point's precision is its math's: fp32 tensors under oneDNN's bf16 fpmath mode are bf16 work
# where the implementation has bf16 instructions (AMX), fp32 where it has fp32 FMAs only (on
# whatever CPU runs the test: the implementation each row names decides; one naming no ISA,
# gemm:jit, bf16 at most where oneDNN's ISA has bf16 math, fp32 where it has none)
lowisa=$(grep -cw 'amx_bf16\|avx512_bf16' /proc/cpuinfo)
ONEDNN_DEFAULT_FPMATH_MODE=BF16 DNNL_DEFAULT_FPMATH_MODE=BF16 "$tool" -m lenet5 -n 2 -w 1 -r 1 \
	-c model --profile "$prof" --sweep threads=1 --out "$dir/fm" >/dev/null 2>"$dir/fm.err"
check "fpmath bf16: the sweep exits 0 (got $?)" test -s "$dir/fm/points.csv"
check "... each point's precision the math its heaviest layer's implementation runs" "$csvawk" -v lowisa="$lowisa" '
	NR > 1 && ($col["status"] == "ok" || $col["status"] == "disturbed") { n++; want = "bf16"
		if ($col["impl"] !~ /amx|bf16|avx10/ && ($col["impl"] ~ /:(avx512_core|avx512_core_vnni|avx2|avx|sse41)$/ || lowisa == 0)) want = "fp32"
		if ($col["precision"] != want) bad++ }
	END { exit n == 0 || bad }' "$dir/fm/points.csv"

# bad sweeps
"$tool" --sweep cores=2 >/dev/null 2>"$dir/e1"
check "unknown knob: exit 2" test $? = 2
check "unknown knob: message" grep -q "sweep: unknown knob 'cores'" "$dir/e1"
"$tool" --sweep threads=0 >/dev/null 2>"$dir/e2"
check "bad list: exit 2 and the range" grep -q "'0' is not in 1\.\." "$dir/e2"
"$tool" --sweep threads --out "$dir/x" --resume "$dir/y" >/dev/null 2>"$dir/e3"
check "--out with --resume: exit 2" test $? = 2
echo "1..$n"
