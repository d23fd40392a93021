#!/bin/sh
# t-run.sh: roofline-run on real commands. Exactness against ourselves: roofline-train under
# roofline-run, the FLOPs of its convolution and inner-product primitives (each direction)
# from oneDNN's log against the trainer's own model counts (roofline-train -D), exactly, for
# convnet, lenet5, resnet18 and bf16. A real client: a PyTorch CNN (tests/data/pytorch-cnn.py)
# under --sweep threads=2 (the default and 2 threads, twice each), its convolution FLOPs
# against a hand count. The failure paths: a command not found, one that fails or is killed, one that runs no oneDNN primitive, a line
# that does not read, bad options, a directory that holds results, Ctrl-C. Impossible numbers (a
# spoofed log, a log of another node) said so; Debian's oneDNN 2.6 under a bf16 fpmath mode. The command's
# processes: only fds 0-2, strays named and ended, --timeout on a command that closed its
# output, none left after roofline-run is killed by SIGKILL. roofline-plot on its results: the
# views again, and two runs overlaid (a sweep of the trainer beside them refused).
. "$top_srcdir/tests/tap.sh"
dir=$(mktemp -d "${TMPDIR:-/tmp}/rt-t-run.XXXXXX") || exit 1
trap '[ -n "$KEEP" ] || rm -rf "$dir"' EXIT
# here no machine-profiles/HOST.cfg is found by default (a build tree may hold one)
cd "$dir" || exit 1
run="$top_builddir/src/roofline-run"
train="$top_builddir/src/roofline-train"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# interrupt FILE: once FILE is there (the command says it started), Ctrl-C to roofline-run
# ($pid, started in the background), its exit status in $rc
interrupt() {
	_i=0
	while [ ! -e "$1" ] && [ $_i -lt 600 ]; do sleep 0.1; _i=$((_i + 1)); done
	kill -INT $pid
	wait $pid
	rc=$?
}

# the FLOPs of points.csv's kind rows: KIND forward|backward
log_flops() {
	"$csvawk" -v k="$2" -v d="$3" '$col["scope"] == "kind" && $col["kind"] == k && (d == "forward" ? $col["prop"] ~ /^forward/ : $col["prop"] ~ /^backward/) { s += $col["flops"] }
		END { printf "%.0f\n", s }' "$1"
}
# the trainer's count per iteration of TYPE (conv, fc) forward or backward, from -D: the
# layers' FLOP/img (and the relus fused into them, forward), times the batch
model_flops() {
	awk -v t="$2" -v d="$3" -v b="$4" '
		$1 ~ /^[0-9]+$/ && NF >= 9 { type[$2] = $3 }
		$1 ~ /^[0-9]+$/ && $3 == t { s += (d == "forward" ? $6 : $7) }
		$1 ~ /^[0-9]+$/ && $3 == "relu" && d == "forward" && /fused: forward in/ {
			host = $0; sub(/.*fused: forward in /, "", host); sub(/\+.*/, "", host)
			if (type[host] == t) s += $6 }
		END { printf "%.0f\n", s * b }' "$1"
}

exact() {
	name=$1
	shift
	batch=$1
	shift
	"$train" -D -b "$batch" "$@" >"$dir/$name.d" 2>&1 ||
		{ skip "$name: the trainer cannot run it here: $(tail -n 1 "$dir/$name.d")"; return; }
	"$run" -o "$dir/$name" -r 1 --no-overhead -- "$train" -b "$batch" -n 1 -w 0 -c none -t 1 \
		"$@" >"$dir/$name.out" 2>"$dir/$name.err"
	check "$name: roofline-run exits 0 (got $?)" test -s "$dir/$name/points.csv"
	for k in "convolution conv" "inner_product fc"; do
		for d in forward backward; do
			got=$(log_flops "$dir/$name/points.csv" "${k% *}" $d)
			want=$(model_flops "$dir/$name.d" "${k#* }" $d "$batch")
			if [ "$want" = 0 ]; then
				continue
			fi
			check "$name: ${k% *} $d FLOPs from oneDNN's log = the model's ($got = $want)" \
				test "$got" = "$want"
		done
	done
}

exact convnet 8 -m convnet
exact lenet5 4 -m lenet5
exact resnet18 1 -m resnet18
if "$train" -m lenet5 -b 2 -n 1 -w 0 -c none -t 1 --precision bf16 >/dev/null 2>&1; then
	exact convnet-bf16 4 -m convnet --precision bf16
	check "bf16: its convolutions read as bf16" has_row "$dir/convnet-bf16/points.csv" scope=kind 'name=convolution forward_training' kind=convolution prop=forward_training dtype=bf16 precision=bf16
else
	skip "bf16: this CPU runs no bf16 convolution"
fi

# what passes through, what is kept
check "the command's own output passes through" grep -q '^roofline-train: convnet, batch 8' "$dir/convnet.out"
check "... no oneDNN line among it" sh -c "! grep -q onednn_verbose '$dir/convnet.out'"
check "the raw log is kept (each execution with oneDNN's timestamp)" grep -q '^onednn_verbose,[0-9.]*,exec,cpu,convolution' "$dir/convnet/onednn/c000-r1.log"
check "summary.txt: coverage first" sh -c "sed -n 4p '$dir/convnet/summary.txt' | grep -q '^coverage: oneDNN ran [0-9]*% of the default'"
# the default described: what oneDNN's info lines say (Debian's 2.6 here, its OpenMP runtime,
# its threads), and the environment that sets it
check "summary.txt: the default's oneDNN version, runtime and threads as its log says them" grep -q '^the default: oneDNN v[0-9][0-9.]*, OpenMP runtime, [0-9]* threads*, ISA ' "$dir/convnet/summary.txt"
ver=$(sed -n 's/^the default: oneDNN \(v[0-9.]*\), .*/\1/p' "$dir/convnet/summary.txt")
check "run.cfg: the default described as the summary says it ($ver, OpenMP)" sh -c "grep -q 'onednn_version = \"$ver\";' '$dir/convnet/run.cfg' && grep -q 'runtime = \"OpenMP\";' '$dir/convnet/run.cfg' && grep -q 'isa = \"..*\";' '$dir/convnet/run.cfg'"
OMP_PROC_BIND=close "$run" -o "$dir/envd" -r 1 --no-overhead --no-hw-counters -- "$train" -m lenet5 -b 4 -n 1 -w 0 -c none >/dev/null 2>&1
check "... and the environment's variables that set it" grep -q '^the default.s environment: .*OMP_PROC_BIND=close' "$dir/envd/summary.txt"
check "points.csv: a row per primitive with its calls and share" has_row "$dir/convnet/points.csv" config=default rep=1 scope=primitive 'name=convolution forward_training f32 mb8_ic3oc64_ih32oh32kh3sh1dh0ph1_iw32ow32kw3sw1dw0pw1' kind=convolution prop=forward_training dtype=f32 precision=fp32 calls=1
check "points.csv: the header is the one schema's, the trainer's with the command's columns" grep -qx 'config,threads,batch,affinity,precision,ranks,scope,name,stat,seconds,flops,bytes,source,intensity,gflops,images_per_s,weights,activations,gradients,optimizer,workspace,peak_rss,status,reason,impl,input_h,input_w,weight_gradients,activation_gradients,inference,processes,cpu_share,bytes_source,rep,kind,prop,dtype,calls,share,wall_seconds,onednn_seconds,coverage,log,rank,startup_seconds,window_seconds' "$dir/convnet/points.csv"
check "points.csv: reorders as bandwidth (bytes, no FLOPs)" "$csvawk" '$col["scope"] == "kind" && $col["kind"] == "reorder" { if ($col["flops"] == 0 && $col["bytes"] > 0) ok = 1 } END { exit !ok }' "$dir/convnet/points.csv"
check "points.csv: every row has the header's 46 fields" "$csvawk" 'NR == 1 { n = NF } NF != n { bad = 1 } END { exit bad || n != 46 }' "$dir/convnet/points.csv"
check "... the trainer's columns that are not a command's empty in every row" "$csvawk" 'NR > 1 { for (k in col) if (k ~ /^(batch|affinity|ranks|stat|weights|activations|gradients|optimizer|workspace|peak_rss|input_h|input_w|weight_gradients|activation_gradients|inference|processes|cpu_share|bytes_source)$/ && $col[k] != "") bad = 1 } END { exit bad }' "$dir/convnet/points.csv"

# the chart: the configurations and the fastest's primitives under a profile's roofs, every
# text (the configurations' names hold what the user typed) quoted so that gnuplot runs
# nothing: a gnuplot that refuses and logs any command renders it
if command -v gnuplot >/dev/null 2>&1 && [ -f "$top_builddir/tests/tripwire.so" ]; then
	GNUPLOT="$top_srcdir/tests/gnuplot-tripwire" RT_TRIPWIRE_SO="$top_builddir/tests/tripwire.so" \
	RT_TRIPWIRE_LOG="$dir/tripwire.log" \
	"$run" -o "$dir/chart" -r 1 --no-overhead -p "$top_srcdir/machine-profiles/example-kvm-spr.cfg" \
		--sweep 'env:RT_LABEL=`touch pwned`,x";system("touch pwned")#' -- "$train" -m lenet5 \
		-b 4 -n 1 -w 0 -c none >/dev/null 2>"$dir/chart.err"
	check "with a profile: the chart drawn (PNG and SVG)" sh -c "test -s '$dir/chart/run-roofline.gp' && test -s '$dir/chart/run-roofline.png' && grep -q '</svg>' '$dir/chart/run-roofline.svg'"
	check "... the typed names are labels, never commands" sh -c "test ! -e pwned && test ! -e '$dir/chart/pwned' && test ! -s '$dir/tripwire.log'"
	check "... the time view: every primitive's time against its floor" sh -c "test -s '$dir/chart/primitives-time.png' && awk '/^\\\$layers << EOD/ { on = 1; next } /^EOD/ { on = 0 } on { n++; if (\$1 <= 0 || \$2 < 0 || \$3 <= 0 || \$3 > 1) bad = 1; s += \$3 } END { exit bad || n < 3 || s > 1.000001 }' '$dir/chart/primitives-time.gp'"
	check "... report.html: the verdict, the coverage, both charts inlined" sh -c "grep -q '<p class=\"big\">the default configuration is the fastest\\|<p class=\"big\">best configuration\\|<p class=\"big\">no configuration is measurably\\|<p class=\"big\">every configuration' '$dir/chart/report.html' && grep -q '<p>coverage: oneDNN ran' '$dir/chart/report.html' && test \$(grep -c '<svg' '$dir/chart/report.html') = 2 && ! grep -qi '<script\\|onload=' '$dir/chart/report.html'"
	# two adjacent quotes in a name: gnuplot 5.4 ended a single-quoted string there (a run
	# disturbed by other work names the busiest process there, a gnuplot of another test's)
	GNUPLOT="$top_srcdir/tests/gnuplot-tripwire" RT_TRIPWIRE_SO="$top_builddir/tests/tripwire.so" \
	RT_TRIPWIRE_LOG="$dir/tripwire-q.log" \
	"$run" -o "$dir/quotes" -r 1 --no-overhead -p "$top_srcdir/machine-profiles/example-kvm-spr.cfg" \
		--sweep "env:RT_Q=it''s,''x\`@" -- "$train" -m lenet5 -b 4 -n 1 -w 0 -c none \
		>/dev/null 2>"$dir/quotes.err"
	check "names with adjacent quotes: the chart drawn, the names its labels, nothing run" sh -c "grep -q '</svg>' '$dir/quotes/run-roofline.svg' && grep -q 'RT_Q=.*it.*s' '$dir/quotes/run-roofline.svg' && grep -q '\\\\047\\\\047' '$dir/quotes/run-roofline.gp' && ! grep -v 'busy: ' '$dir/quotes.err' | grep -q 'no run-roofline chart\|gnuplot' && test ! -s '$dir/tripwire-q.log'"
	rm -f "$dir/chart/run-roofline.svg" "$dir/chart/primitives-time.svg" "$dir/chart/report.html"
	"$top_builddir/src/roofline-plot" "$dir/chart" >"$dir/replot.out" 2>&1
	check "roofline-plot DIR on roofline-run's results: charts and page again (exit $?)" sh -c "test -s '$dir/chart/run-roofline.svg' && test -s '$dir/chart/primitives-time.svg' && test \$(grep -c '<svg' '$dir/chart/report.html') = 2"
	# an overlay of roofline-run's results: each directory a series, each configuration the
	# point of its run (one a configuration here) that points.csv's onednn/all row holds; the
	# runs judged on the profile each directory kept, here one whose FLOP roofs no core
	# reaches (the example's, raised), so that no run of a fast CPU is left out
	for d in chart quotes; do
		cp -R "$dir/$d" "$dir/ov-$d"
		sed '/precision = /s/\(gflops\|median\) = \([0-9]\)/\1 = 99\2/g' \
			"$top_srcdir/machine-profiles/example-kvm-spr.cfg" >"$dir/ov-$d/profile.cfg"
	done
	"$top_builddir/src/roofline-plot" -p "$dir/ov-chart/profile.cfg" \
		--overlay "$dir/ov" "$dir/ov-chart" "$dir/ov-quotes" >"$dir/ov.out" 2>&1
	check "roofline-plot DIR DIR on roofline-run's results: an overlay (exit $?)" sh -c "grep -q '</svg>' '$dir/ov.svg' && grep -q \"^S0 = 'ov-chart'\" '$dir/ov.gp' && grep -q \"^S1 = 'ov-quotes'\" '$dir/ov.gp' && grep -q \"^set title .roofline-run.*configurations on .* (roofs at [0-9]* threads*). noenhanced\" '$dir/ov.gp' && ! grep -q 'left out' '$dir/ov.out'"
	for k in 0 1; do
		d=chart
		[ $k = 1 ] && d=quotes
		"$csvawk" '$col["scope"] == "onednn" && $col["name"] == "all" { printf "%.6g %.6g\n", $col["intensity"], $col["gflops"] }' "$dir/$d/points.csv" >"$dir/ov.want$k"
		awk -v s="\$s$k" '$1 == s && $2 == "<<" { on = 1; next } /^EOD/ { on = 0 } on { print $1, $2 }' "$dir/ov.gp" >"$dir/ov.got$k"
		check "... series $k: each configuration's intensity and GFLOP/s in oneDNN, as points.csv has them ($(wc -l <"$dir/ov.want$k") points)" sh -c "test -s '$dir/ov.want$k' && cmp -s '$dir/ov.want$k' '$dir/ov.got$k'"
	done
	"$train" -p "$top_srcdir/machine-profiles/example-kvm-spr.cfg" -m lenet5 -b 4 -n 1 -w 0 \
		-c none --sweep threads=1 -o "$dir/tsweep" >/dev/null 2>&1
	"$top_builddir/src/roofline-plot" --overlay "$dir/ov2" "$dir/chart" "$dir/tsweep" >"$dir/replot.out" 2>&1
	check "... with a sweep of the trainer: refused, said why" sh -c "test $? = 1 && grep -q 'tsweep: a run of roofline-train, and .*chart one of roofline-run: an overlay is of one tool' '$dir/replot.out' && test ! -e '$dir/ov2.gp'"
else
	for i in 1 2 3 4 5 6 7; do skip "gnuplot is not installed"; done
fi
check "without a profile: report.html all the same, saying why no chart" sh -c "grep -q 'No chart: no machine profile' '$dir/convnet/report.html' && grep -q '<h2>Summary (summary.txt)</h2>' '$dir/convnet/report.html'"
check "without a profile: no chart, said why" grep -q 'no chart: no machine profile' "$dir/convnet.err"

# failure paths
"$run" -o "$dir/nf" -- /nonexistent/train.py >"$dir/nf.out" 2>&1
rc=$?
check "a command not found: refused before anything runs (exit $rc)" test $rc = 127
check "... named" grep -q '/nonexistent/train.py: command not found' "$dir/nf.out"
check "... nothing written" test ! -e "$dir/nf"
"$run" -o "$dir/fail" -r 1 --no-overhead --sweep threads=1,2 -- sh -c 'echo "bad input $OMP_NUM_THREADS" >&2; exit 3' >"$dir/fail.out" 2>"$dir/fail.err"
rc=$?
check "a command that exits 3 in every configuration: exit 1 (got $rc)" test $rc = 1
check "... each configuration a failed row with its status and stderr's last line" sh -c "grep -Ec ',failed,\"?exit 3: bad input' '$dir/fail/points.csv' | grep -qx 3"
check "... the sweep went on (the last configuration ran too)" has_row "$dir/fail/points.csv" config=threads=2 rep=1 scope=run name=command status=failed 'reason~exit 3: bad input 2'
check "... its stderr passed through" grep -q '^bad input 1$' "$dir/fail.err"
check "... the summary: no configuration ran, no basis of a comparison named" sh -c "grep -qx 'no configuration ran' '$dir/fail/summary.txt' && ! grep -q '^compared on' '$dir/fail/summary.txt'"
"$run" -o "$dir/kill" -r 1 --no-overhead -- sh -c 'kill -9 $$' >"$dir/kill.out" 2>&1
check "a command killed: its signal recorded" grep -q 'killed by SIGKILL' "$dir/kill/points.csv"

# the command's processes: only fds 0, 1, 2; the run ends when the command exits, what it
# left running named and ended; --timeout ends it whatever it does with its descriptors;
# roofline-run killed by SIGKILL leaves none of them (each sleeps 3000 s: one gone was ended)
"$run" -o "$dir/fds" -r 1 --no-overhead --no-hw-counters -- sh -c 'ls /proc/$$/fd' >"$dir/fds.out" 2>&1
# (a run other work disturbed is measured again: each process lists its own)
check "the command sees only fds 0, 1, 2 ($(grep -x '[0-9][0-9]*' "$dir/fds.out" | tr '\n' ' '))" test "$(grep -x '[0-9][0-9]*' "$dir/fds.out" | sort -u | tr '\n' ' ')" = "0 1 2 "
"$run" -o "$dir/stray" -r 1 --no-overhead --no-hw-counters -- sh -c 'sleep 3000 & while [ "$(cat /proc/$!/comm)" != sleep ]; do :; done; echo "stray $!"' >"$dir/stray.out" 2>"$dir/stray.err"
rc=$?
spid=$(sed -n 's/^stray //p' "$dir/stray.out" | head -n 1)
check "a command that leaves a daemon running: exit 0 (got $rc), the run ok" sh -c "test $rc = 0 && test $(rows "$dir/stray/points.csv" config=default rep=1 scope=run name=command source=onednn-log 'status~^(ok|disturbed)$') = 1"
check "... the daemon named as a stray (pid ${spid:-none})" grep -q "^roofline-run: default: the command left 1 process running when it exited, ended: sleep (pid $spid)\$" "$dir/stray.err"
check "... and gone" sh -c "test -n '$spid' && ! kill -0 '$spid' 2>/dev/null"
"$run" -o "$dir/closed" -r 1 --no-overhead --no-hw-counters --timeout 1 -- sh -c 'echo "pid $$"; exec >&- 2>&-; exec sleep 3000' >"$dir/closed.out" 2>&1
rc=$?
cpid=$(sed -n 's/^pid //p' "$dir/closed.out" | head -n 1)
check "a command that closes its output and sleeps: ended by --timeout (exit $rc)" sh -c "test $rc = 1 && grep -q 'timeout after 1 s' '$dir/closed/points.csv'"
check "... and gone (pid ${cpid:-none})" sh -c "test -n '$cpid' && ! kill -0 '$cpid' 2>/dev/null"
mkfifo "$dir/fifo"
"$run" -o "$dir/killed" -r 1 --no-overhead --no-hw-counters -- sh -c 'sleep 3000 & echo "$$ $!" >"$1"; exec sleep 3000' sh "$dir/fifo" >"$dir/killed.out" 2>&1 &
pid=$!
read -r grp bg <"$dir/fifo"
kill -9 $pid
wait $pid
# each process's end is the event (tail --pid watches it; 120 s only bound a failure)
timeout 120 tail --pid="$grp" -f /dev/null
timeout 120 tail --pid="$bg" -f /dev/null
check "roofline-run killed by SIGKILL: its command (group $grp) and the background sleep ($bg) ended" sh -c "! kill -0 '$grp' 2>/dev/null && ! kill -0 '$bg' 2>/dev/null"
check "... no process left in the command's group" sh -c "! ps -eo pgid= | grep -qx ' *$grp'"
kill -9 -- "-$grp" "$bg" 2>/dev/null
# the node is a Zen 5 without a core PMU here, whatever CPU runs the test
identity_tree "$dir/zen5" AuthenticAMD 26 2
ROOFTRAJ_SYSROOT="$dir/zen5" "$run" -o "$dir/none" -r 2 -- sh -c 'echo images/s 12.5' >"$dir/none.out" 2>&1
rc=$?
check "a command that runs no oneDNN primitive: exit 0 (got $rc)" test $rc = 0
check "... its wall time, and the note: no line came, so no coverage said" grep -q "^coverage: unknown: no oneDNN verbose line came: the command ran no oneDNN primitive, or switched oneDNN's log off itself" "$dir/none/summary.txt"
check "... the images/s it printed recorded" has_row "$dir/none/points.csv" scope=run name=command images_per_s=12.5
# a throughput on standard error, as trainings print it there (logging, tqdm): read, and the
# stream passed through as it came
"$run" -o "$dir/se" -r 1 --no-overhead --no-hw-counters -- sh -c 'echo "epoch 1: 1604.9 img/s" >&2; printf "step 2 | samples/s=88.5\r" >&2; echo "loss 0.5 examples/sec nan" >&2' >"$dir/se.out" 2>"$dir/se.err"
check "a throughput on stderr read, the last one printed (samples/s=88.5 after 1604.9 img/s)" "$csvawk" '$col["scope"] == "run" && $col["images_per_s"] == 88.5 { k++ } END { exit k != 1 }' "$dir/se/points.csv"
check "... stderr passed through untouched" sh -c "grep -q '^epoch 1: 1604.9 img/s\$' '$dir/se.err' && grep -q 'samples/s=88.5' '$dir/se.err'"
check "... each configuration's result said on stderr as it finishes, with the time left (the sweep engine's progress)" grep -q '^roofline-run: \[1\] default: [0-9.]* s of wall time, the median of 1 run\(, disturbed\)\{0,1\} (about [0-9]* s left)$' "$dir/se.err"
"$run" -o "$dir/se2" -r 1 --no-overhead --no-hw-counters -- sh -c 'echo "throughput: 4321 examples/sec"' >"$dir/se2.out" 2>&1
check "... examples/sec on stdout too" "$csvawk" '$col["scope"] == "run" && $col["images_per_s"] == 4321 { k++ } END { exit k != 1 }' "$dir/se2/points.csv"
check "... and run again without the log (the overhead)" has_row "$dir/none/points.csv" config=default rep=2 scope=run 'name=command without the log'
check "... no core PMU on the node: said, the counts from the log" grep -q "^hardware counters: not used: the kernel exposes no core PMU here (no $dir/zen5/sys/bus/event_source/devices/cpu: " "$dir/none/summary.txt"
# an Intel model no table knows, without a core PMU (the 2-vCPU Sapphire Rapids guest whose
# hypervisor says model 0xa7): both reasons said
identity_tree "$dir/a7" GenuineIntel 6 167
ROOFTRAJ_SYSROOT="$dir/a7" "$run" -o "$dir/a7run" -r 1 --no-overhead -- true >/dev/null 2>&1
check "... an unknown Intel model without a PMU: both reasons" grep -q '^hardware counters: not used: the kernel exposes no core PMU here (.*); no FLOP event table for this CPU (GenuineIntel family 0x6 model 0xa7)' "$dir/a7run/summary.txt"
check "run.cfg records the node it ran on (node_cpu, as its cpuinfo says) and the libraries, as the trainer's does" sh -c "grep -q '^  node_cpu = { model = \"a test CPU\"; vendor = \"GenuineIntel\"; family = 6; model_number = 167; ' '$dir/a7run/run.cfg' && grep -q '^  libraries = { onednn = \"[0-9]*\.[0-9]*\.[0-9]*\"; onednn_hash = \"[^\"]*\"; onednn_runtime = \"OpenMP\"; ' '$dir/a7run/run.cfg'"
"$run" -o "$dir/off" -r 1 --no-overhead --no-hw-counters -- env ONEDNN_VERBOSE=0 DNNL_VERBOSE=0 \
	"$train" -m lenet5 -b 4 -n 1 -w 0 -c none >"$dir/off.out" 2>&1
check "a command that switches oneDNN's log off itself: not said to run no primitive" sh -c "grep -q '^coverage: unknown: no oneDNN verbose line came' '$dir/off/summary.txt' && ! grep -q 'no oneDNN primitive ran' '$dir/off/summary.txt' '$dir/off/points.csv'"
"$run" -o "$dir/info" -r 1 --no-overhead --no-hw-counters -- sh -c 'echo onednn_verbose,info,oneDNN v2.6.0' >"$dir/info.out" 2>&1
check "... one that logs but runs none: no primitive ran, coverage 0%" grep -q '^coverage: no oneDNN primitive ran: coverage 0%' "$dir/info/summary.txt"
"$run" -o "$dir/nohw" -r 1 --no-overhead --no-hw-counters -- true >/dev/null 2>&1
check "... --no-hw-counters: not tried, not said" sh -c "test -s '$dir/nohw/summary.txt' && ! grep -q '^hardware counters' '$dir/nohw/summary.txt'"
check "... the command in the summary as a shell reads it back" grep -qx "command: sh -c 'echo images/s 12.5'" "$dir/none/summary.txt"
"$run" -o "$dir/quote" -r 1 --no-overhead -- sh -c "echo it's" >"$dir/quote.out" 2>&1
check "... a quote inside a word too" grep -qx "command: sh -c 'echo it'\\\\''s'" "$dir/quote/summary.txt"
"$run" -o "$dir/bad" -r 1 --no-overhead -- sh -c 'echo "onednn_verbose,exec,cpu,convolution,jit,forward,src_f32::a:f0,,,mb8_icXoc,1"; echo "onednn_verbose,exec,cpu,reorder,jit:uni,undef,src_f32::blocked:ab:f0 dst_f32::blocked:ba:f0,,,10x10,0.5"' >"$dir/bad.out" 2>&1
check "a line that does not read: counted and named, the others counted" sh -c "grep -q '1 oneDNN lines not read, the first: \"onednn_verbose,exec,cpu,convolution' '$dir/bad/summary.txt' && test $(rows "$dir/bad/points.csv" config=default rep=1 scope=kind 'name=reorder undef' kind=reorder prop=undef dtype=f32 precision=fp32 impl= calls=1) = 1"

# impossible numbers are said so, never printed as facts: a command printing verbose lines of
# its own (a spoof: absurd times), a log of a 16-thread node read against a 2-core profile
conv='onednn_verbose,exec,cpu,convolution,jit:avx512_core,forward_training,src_f32::blocked:abcd:f0 wei_f32::blocked:Acdb16a:f0 bia_f32::blocked:a:f0 dst_f32::blocked:aBcd16b:f0,attr-scratchpad:user ,alg:convolution_direct,mb16_ic3oc16_ih32oh32kh5sh1dh0ph2_iw32ow32kw5sw1dw0pw2'
spr="$top_srcdir/machine-profiles/example-kvm-spr.cfg"
"$run" -o "$dir/spoof" -r 1 --no-overhead -- sh -c "echo '$conv,5000'" >"$dir/spoof.out" 2>"$dir/spoof.err"
check "a spoof: 5 s of oneDNN time in a run of milliseconds: impossible, no coverage said" sh -c "grep -q '^coverage: not known: impossible: oneDNN.s log sums 5 s of primitive time in a run of' '$dir/spoof/summary.txt' && grep -q ' impossible  *- *- ' '$dir/spoof/summary.txt' && grep -q 'default: impossible: oneDNN.s log sums 5 s' '$dir/spoof.err' && test $(rows "$dir/spoof/points.csv" config=default rep=1 scope=run name=command status=ok 'reason~^impossible: oneDNN') -eq $(rows "$dir/spoof/points.csv" config=default rep=1 scope=run name=command status=ok) && ! grep -q '[0-9][0-9][0-9][0-9]%' '$dir/spoof/summary.txt'"
conv8=$(echo "$conv" | sed 's/mb16_/mb8_/')
"$run" -o "$dir/spoof2" -r 1 --no-overhead -p "$spr" -- sh -c "echo '$conv,0.001'; echo '$conv8,1e-300'; echo 'images/s 1e308'" >"$dir/spoof2.out" 2>"$dir/spoof2.err"
check "... 1e-300 ms: no clock's reading, its line not read: no rate of it in points.csv" sh -c "grep -q '1 oneDNN lines not read, the first: .* (time .1e-300. ms: under a nanosecond' '$dir/spoof2/summary.txt' && ! grep -q mb8_ '$dir/spoof2/points.csv' && test $(rows "$dir/spoof2/points.csv" 'gflops~e[+]?[0-9][0-9][0-9]') = 0"
check "... 36.7 MFLOP in a microsecond: impossible, above the fp32 roof of the profile" sh -c "grep -q 'impossible: at least [0-9.e+]* GFLOP/s (a microsecond more a call), [0-9]*% of the fp32 roof' '$dir/spoof2/summary.txt' && grep -q 'convolution forward_training .*impossible: at least' '$dir/spoof2.err'"
check "... images/s 1e308: impossible, not taken" sh -c "grep -q 'the command printed images/s 1e+308, more than an image a nanosecond' '$dir/spoof2/summary.txt' && test $(rows "$dir/spoof2/points.csv" config=default rep=1 scope=run name=command log=onednn/c000-r1.log images_per_s= rank= 'startup_seconds~^[0-9.e-]+$' 'window_seconds~^[0-9.e-]+$') = 1"
check "... the row's rates not printed, and why: how many primitives, the first named" sh -c "grep -q '^ *1 primitive faster than this node can run them, so the row.s rates are not printed; the first, convolution forward_training mb16_ic3oc16_ih32oh32kh5sh1dh0ph2_iw32ow32kw5sw1dw0pw2: impossible: at least' '$dir/spoof2/summary.txt' && grep -q 'default: 1 primitive above the roofs: impossible' '$dir/spoof2.err'"
check "... no number in more than a dozen digits" sh -c "! grep -q '[0-9]\{13\}' '$dir/spoof2/summary.txt' && ! grep -q '[0-9]\{13\}' '$dir/spoof/summary.txt'"
# in an overlay, each run judged on the profile its directory kept: the spoof's left out and
# why; a log this node's roofs allow (36.7 MFLOP in a millisecond, in a command that takes
# 0.1 s at least) drawn
"$run" -o "$dir/slow" -r 1 --no-overhead -p "$spr" -- sh -c "echo '$conv,1'; sleep 0.1" >"$dir/slow.out" 2>&1
"$top_builddir/src/roofline-plot" -p "$spr" --overlay "$dir/ov3" "$dir/spoof2" "$dir/slow" >"$dir/ov3.out" 2>"$dir/ov3.err"
rc=$?
check "an overlay with the spoof (exit $rc): its configuration left out, said why" sh -c "test $rc = 0 && grep -q 'spoof2: default left out: impossible: at least [0-9.e+]* GFLOP/s' '$dir/ov3.err' && test \$(grep -c 'left out' '$dir/ov3.err') = 1 && awk '/^\\\$s0 << EOD/ { on = 1; next } /^EOD/ { on = 0 } on { n0++ } /^\\\$s1 << EOD/ { on1 = 1; next } /^EOD/ { on1 = 0 } on1 { n1++ } END { exit n0 != 0 || n1 != 1 }' '$dir/ov3.gp'"
cp -R "$dir/slow" "$dir/slow2"
echo 'not a profile' >"$dir/slow2/profile.cfg"
"$top_builddir/src/roofline-plot" -p "$spr" --overlay "$dir/ov4" "$dir/slow" "$dir/slow2" >"$dir/ov4.out" 2>"$dir/ov4.err"
rc=$?
check "... a directory whose kept profile does not read: judged on the overlay's, said (exit $rc)" sh -c "test $rc = 0 && grep -q 'slow2: its runs judged on the overlay.s profile: .*slow2/profile.cfg:1: ' '$dir/ov4.err' && test \$(grep -c 'left out' '$dir/ov4.err') = 0"
if command -v gnuplot >/dev/null 2>&1; then
	check "... the impossible points not drawn, and said" grep -q 'run-roofline: [0-9]* impossible points\? not drawn' "$dir/spoof2.err"
else
	skip "gnuplot is not installed"
fi
"$run" -o "$dir/other" -r 1 --no-overhead -p "$spr" -- sh -c "cat '$top_srcdir/tests/data/pytorch-2.11/pt211-fp32.log'; sleep 0.05" >"$dir/other.out" 2>"$dir/other.err"
check "a 16-thread node's log against a 2-core profile: impossible, not judged on its roofs" sh -c "grep -q 'impossible: oneDNN.s log names 16 threads, the profile.s node (example-kvm-spr) has 2 hardware threads' '$dir/other/summary.txt' && grep -q 'not judged: the run.s log is impossible' '$dir/other/summary.txt' && ! grep -q '% of the fp32 ceiling' '$dir/other/summary.txt'"

# a profile's date and ceilings, sorted (a copy of it is written anew: its order and
# comments are its writer's)
roofs() { grep -o 'created = "[^"]*"\|gflops = [0-9.e+-]*\|gbytes_per_s = [0-9.e+-]*' "$1" | sort; }
# a command that sets its own thread count: the configuration asked for 1 thread, oneDNN's log
# names 2. A convolution at 185 GFLOP/s (2.22 GFLOP: no taps counted inside the padding) is
# above the profile's 1-thread fp32 roof (138) and under its 2-thread one (251): judged at the
# 2 threads that ran, and the knob said not to take
conv64='onednn_verbose,exec,cpu,convolution,jit:avx512_core,forward_training,src_f32::blocked:aBcd16b:f0 wei_f32::blocked:ABcd16b16a:f0 bia_f32::blocked:a:f0 dst_f32::blocked:aBcd16b:f0,,alg:convolution_direct,mb64_ic64oc128_ih16oh16kh3sh1dh0ph1_iw16ow16kw3sw1dw0pw1'
printf '%s\n' 'onednn_verbose,info,oneDNN v2.6.3 (commit N/A)' 'onednn_verbose,info,cpu,runtime:OpenMP,nthr:2' "$conv64,12" >"$dir/nthr2.log"
"$run" -o "$dir/nthr" -r 1 --no-overhead -p "$spr" --sweep threads=1 -- sh -c "cat '$dir/nthr2.log'; sleep 0.05" >"$dir/nthr.out" 2>"$dir/nthr.err"
check "the profile kept with the results: its date and every ceiling the same" test -n "$(roofs "$spr")" -a "$(roofs "$spr")" = "$(roofs "$dir/nthr/profile.cfg")"
check "threads=1 asked, the log names 2: said, in the summary and on stderr" sh -c "grep -q 'oneDNN ran 2 threads (its log.s nthr), not the 1 this configuration asked for: the command sets its own count' '$dir/nthr/summary.txt' && grep -q 'threads=1: oneDNN ran 2 threads' '$dir/nthr.err'"
check "... judged on the roofs of the 2 threads that ran: its rates printed, nothing impossible" sh -c "grep -Eq '^threads=1 .*%  +[0-9.]+ +185[.]1 ' '$dir/nthr/summary.txt' && ! grep -q 'impossible\\|faster than this node' '$dir/nthr/summary.txt' '$dir/nthr.err'"
sed 's/runtime:OpenMP/runtime:TBB/' "$dir/nthr2.log" >"$dir/tbb.log"
"$run" -o "$dir/tbb" -r 1 --no-overhead -p "$spr" --sweep threads=1 -- sh -c "cat '$dir/tbb.log'; sleep 0.05" >/dev/null 2>&1
check "... under TBB: the runtime named, which reads no OMP_NUM_THREADS" grep -q "not the 1 this configuration asked for: oneDNN's TBB runtime does not read OMP_NUM_THREADS, so its threads did not take" "$dir/tbb/summary.txt"

# the trainer's oneDNN (Debian's 2.6, or a 3.x) under a bf16 fpmath mode: the attribute read,
# the math of each convolution as its implementation's ISA says (avx512_core, avx2: fp32; AMX
# or bf16: bf16). The attribute is spelt as the log's own version line says that oneDNN writes
# it: 2.x "attr-fpmath_mode:fpmath_mode_bf16", 3.x "attr-fpmath:bf16"
ONEDNN_DEFAULT_FPMATH_MODE=BF16 DNNL_DEFAULT_FPMATH_MODE=BF16 "$run" -o "$dir/fpmath" -r 1 --no-overhead -- "$train" -m lenet5 -b 2 -n 1 -w 0 -c none -t 1 >"$dir/fpmath.out" 2>&1
fpmath_major=$(sed -n 's/^onednn_verbose,.*info,oneDNN v\([0-9]*\)\..*/\1/p' "$dir/fpmath/onednn/c000-r1.log" | head -n 1)
case $fpmath_major in
2) fpmath_attr='attr-fpmath_mode:fpmath_mode_bf16' ;;
*) fpmath_attr='attr-fpmath:bf16' ;;
esac
check "fpmath bf16 through the trainer's oneDNN (v$fpmath_major): the attribute in its log ($fpmath_attr), on every primitive with FLOPs" sh -c "grep -q '$fpmath_attr' '$dir/fpmath/onednn/c000-r1.log' && ! grep -E 'exec,cpu,(convolution|inner_product),' '$dir/fpmath/onednn/c000-r1.log' | grep -vq '$fpmath_attr'"
# (an implementation naming no ISA, gemm:jit: the highest math the log's ISA line allows)
lowisa=$(grep -c 'info,cpu,isa:.*\(bfloat16\|AMX\|AVX10\)' "$dir/fpmath/onednn/c000-r1.log")
check "... each convolution's and inner product's precision as its implementation says (fp32 on avx512_core; an ISA-less one's as the log's ISA allows: bf16 math $lowisa)" "$csvawk" -v lowisa="$lowisa" '$col["scope"] == "primitive" && ($col["kind"] == "convolution" || $col["kind"] == "inner_product") { n++; want = $col["impl"] ~ /amx|bf16|avx10/ ? "bf16" : $col["impl"] ~ /:(avx512_core|avx2|avx|sse41)$/ ? "fp32" : lowisa > 0 ? "bf16" : "fp32"; if ($col["precision"] != want) bad++ } END { exit n == 0 || bad }' "$dir/fpmath/points.csv"
check "... the summary names the math" grep -Eq '(convolution|inner_product) .*f32 +\((fp32|bf16) math\)' "$dir/fpmath/summary.txt"
# what the mode did, as points.csv's primitive rows (one run: each primitive once) count it
fpm=$("$csvawk" '$col["scope"] == "primitive" && ($col["kind"] == "convolution" || $col["kind"] == "inner_product") && $col["flops"] > 0 { n++; b += $col["precision"] == "bf16" } END { if (b) printf "reached %d primitive%s with FLOPs .*: bf16 math in %d", n, n == 1 ? "" : "s", b; else printf "reached %d primitive%s with FLOPs .*, and oneDNN .* ran fp32 math in every one: none of the implementations it picked .* has bf16 math", n, n == 1 ? "" : "s" }' "$dir/fpmath/points.csv")
check "... and what the mode did: the primitives it reached, the math they ran ($fpm)" grep -Eq "^  default: fpmath bf16 $fpm" "$dir/fpmath/summary.txt"
# the mode measured by the run's own sweep: the precision advice (on a CPU with bf16
# instructions) says what it did in that configuration, not to measure it
# (a CPU without bf16 math is not offered the knob: refused, then the run is made on a node
# the test gives that has AVX512-BF16, where this CPU's oneDNN runs fp32 math all the same)
if grep -qw 'amx_bf16\|avx512_bf16' /proc/cpuinfo; then
	fpnode=""
else
	"$run" -o "$dir/fpnever" -r 1 --no-overhead --sweep fpmath=bf16 -- /bin/true >/dev/null 2>"$dir/fpnever.err"
	rc=$?
	check "--sweep fpmath=bf16 on a CPU without bf16 math: refused, the flags named, nothing written (exit $rc)" sh -c "test $rc = 2 && grep -q 'fpmath=bf16: not offered here: this CPU has neither AMX (amx_bf16) nor AVX512-BF16 (avx512_bf16)' '$dir/fpnever.err' && test ! -e '$dir/fpnever'"
	identity_tree "$dir/bf16node" AuthenticAMD 25 17
	sed -i 's/^flags.*/& avx512f avx512dq avx512bw avx512vl avx512_bf16/' "$dir/bf16node/proc/cpuinfo"
	fpnode="ROOFTRAJ_SYSROOT=$dir/bf16node"
fi
env $fpnode "$run" -o "$dir/fpsweep" -r 1 --no-overhead --sweep fpmath=bf16 -- "$train" -m lenet5 -b 2 -n 1 -w 0 -c none -t 1 >"$dir/fpsweep.out" 2>&1
check "--sweep fpmath=bf16: what the mode did in its configuration" grep -q '^  fpmath=bf16: fpmath bf16 reached [0-9]* primitives with FLOPs' "$dir/fpsweep/summary.txt"
# (the advice is given where fp32 math takes a tenth of the default's oneDNN time or more: its
# share from the default's primitive rows, which a busy machine can move either way)
fp32share=$("$csvawk" '$1 == "default" && $col["scope"] == "primitive" && $col["dtype"] == "f32" && $col["precision"] == "fp32" && $col["flops"] > 0 && $col["kind"] ~ /^(convolution|deconvolution|inner_product|matmul)$/ { s += $col["share"] } END { printf "%.4f", s }' "$dir/fpsweep/points.csv")
check "... the precision advice (where this CPU has bf16 instructions and fp32 math took $fp32share of the time) names it as measured, not to measure" sh -c "! grep -q 'measure it: --sweep fpmath' '$dir/fpsweep/summary.txt' && if grep -q '^  precision:' '$dir/fpsweep/summary.txt'; then grep -q '^  precision: .*fpmath bf16, measured in this run (fpmath=bf16), \(left all of the work it reached in fp32 math\|ran bf16 math in [0-9]*% of the time\)' '$dir/fpsweep/summary.txt'; else ! grep -q ' amx_bf16\| avx512_bf16' /proc/cpuinfo || awk 'BEGIN { exit !($fp32share < 0.1005) }'; fi"
"$run" -o "$dir/none" -- true >"$dir/again.out" 2>&1
rc=$?
check "a directory that holds results: refused (exit $rc), nothing lost" sh -c "test $rc = 1 && grep -q 'holds results already' '$dir/again.out' && test $(rows "$dir/none/points.csv" scope=run name=command images_per_s=12.5) = 2"
for args in "--sweep bogus" "--sweep env:1X=2" "--sweep env:A=1,1" "-r 0" "--sweep threads=0" "--timeout=-1"; do
	# shellcheck disable=SC2086
	"$run" $args -- true >"$dir/opt.out" 2>&1
	rc=$?
	opt=${args%% *}
	check "bad option '$args': exit 2 with the option named (got $rc: $(head -n 1 "$dir/opt.out"))" sh -c "test $rc = 2 && grep -q -- '${opt%%=*}' '$dir/opt.out'"
done
"$run" -- >"$dir/opt.out" 2>&1
check "no command: exit 2" test $? = 2

# Ctrl-C: the running command stopped, the finished configurations kept (the last one
# sleeps until $dir/go exists: --resume runs it again, then it finishes)
"$run" -o "$dir/int" -r 1 --no-overhead --sweep threads=1,2 -- sh -c \
	"if [ \"\$OMP_NUM_THREADS\" = 2 ] && [ ! -e '$dir/go' ]; then touch '$dir/started'; exec sleep 60; fi" \
	>"$dir/int.out" 2>&1 &
pid=$!
interrupt "$dir/started"
check "interrupted: exit 130 (got $rc)" test $rc = 130
check "... the finished configurations kept, the summary says so" sh -c "test $(rows "$dir/int/points.csv" config=threads=1 rep=1 scope=run name=command) = 1 && grep -q 'interrupted: 2 of 3 configurations finished' '$dir/int/summary.txt'"
check "... the interrupted configuration left no row (it runs again)" sh -c "! grep -q '^threads=2,' '$dir/int/points.csv'"
check "... run.cfg says interrupted, the summary how to go on" sh -c "grep -q 'status = \"interrupted\"' '$dir/int/run.cfg' && grep -q 'roofline-run --resume $dir/int runs the rest' '$dir/int/summary.txt'"

# interrupted in its first configuration: run.cfg and no points.csv yet; -o of that directory
# refused, naming run.cfg; --resume runs the whole sweep
"$run" -o "$dir/int0" -r 1 --no-overhead -- sh -c \
	"if [ ! -e '$dir/go0' ]; then touch '$dir/started0'; exec sleep 60; fi" >/dev/null 2>&1 &
pid=$!
interrupt "$dir/started0"
check "interrupted in its first configuration: exit 130 (got $rc), run.cfg, no points.csv" \
	sh -c "test $rc = 130 && test -s '$dir/int0/run.cfg' && test ! -e '$dir/int0/points.csv'"
"$run" -o "$dir/int0" -r 1 -- true >"$dir/int0.out" 2>&1
rc=$?
check "... -o of it: refused (exit $rc), run.cfg named" sh -c \
	"test $rc = 1 && grep -q 'int0 holds results already (run.cfg): give another' '$dir/int0.out'"
touch "$dir/go0"
"$run" --resume "$dir/int0" >"$dir/int0.out" 2>&1
rc=$?
check "... --resume: exit 0 (got $rc), the configuration measured" sh -c \
	"test $rc = 0 && test $(rows "$dir/int0/points.csv" config=default rep=1 scope=run name=command) = 1"

# ... and one begun on a profile that is gone by then goes on judged on the copy it kept
cp "$top_srcdir/machine-profiles/example-kvm-spr.cfg" "$dir/moved.cfg"
"$run" -o "$dir/intp" -r 1 --no-overhead -p "$dir/moved.cfg" -- sh -c \
	"if [ ! -e '$dir/gop' ]; then touch '$dir/startedp'; exec sleep 60; fi" >/dev/null 2>&1 &
pid=$!
interrupt "$dir/startedp"
rm "$dir/moved.cfg"
touch "$dir/gop"
"$run" --resume "$dir/intp" >"$dir/intp.out" 2>&1
rc=$?
check "--resume once the profile it began on is gone: exit 0 (got $rc), on its copy, said" \
	sh -c "test $rc = 0 && grep -q 'moved.cfg, the profile this run began on, is not there any \
more: it goes on judged on the copy it kept, $dir/intp/profile.cfg' '$dir/intp.out' && \
	grep -q 'profile = \"$dir/moved.cfg\"' '$dir/intp/run.cfg' && \
	grep -q 'model = \"Intel(R) Xeon(R) Processor\"' '$dir/intp/profile.cfg'"

# --resume: the configurations not finished run, the finished ones kept as they were
cp "$dir/int/points.csv" "$dir/int-before.csv"
touch "$dir/go"
"$run" --resume "$dir/int" >"$dir/res.out" 2>"$dir/res.err"
rc=$?
check "--resume: exit 0 (got $rc)" test $rc = 0
check "... the finished configurations not run again" sh -c "grep -q '\\[1\\] default: measured before (resumed)' '$dir/res.err' && grep -q '\\[2\\] threads=1: measured before (resumed)' '$dir/res.err' && ! grep -q 'default, run 1' '$dir/res.err'"
check "... their rows kept byte for byte, the new one after them" sh -c "cmp -n $(wc -c <"$dir/int-before.csv") '$dir/int-before.csv' '$dir/int/points.csv' && test $(rows "$dir/int/points.csv" config=threads=2 rep=1 scope=run name=command kind= 'calls~^[0-9]+$' 'seconds~^[0-9.e-]+$' share=1 'flops~^[0-9]+$' 'bytes~^[0-9]+$' 'gflops~^[0-9]*$' intensity= source=onednn-log 'status~^(ok|disturbed)$') = 1"
check "... the summary of all three, no longer interrupted" sh -c "grep -q '^3 configurations' '$dir/int/summary.txt' && grep -q '^threads=2 ' '$dir/int/summary.txt' && ! grep -q interrupted '$dir/int/summary.txt'"
check "... run.cfg complete" grep -q 'status = "complete"' "$dir/int/run.cfg"
"$run" --resume "$dir/int" -r 2 >"$dir/res2.out" 2>&1
rc=$?
check "--resume with -r: exit 2, the record's own (got $rc)" sh -c "test $rc = 2 && grep -q 'come from DIR/run.cfg' '$dir/res2.out'"
"$run" --resume "$dir/int" -- true >"$dir/res2.out" 2>&1
rc=$?
check "--resume with a command: exit 2 (got $rc)" sh -c "test $rc = 2 && grep -q 'the command comes from DIR/run.cfg' '$dir/res2.out'"
mkdir "$dir/empty"
"$run" --resume "$dir/empty" >"$dir/res2.out" 2>&1
rc=$?
check "--resume of a directory with no run: exit 1, said (got $rc)" sh -c "test $rc = 1 && grep -q 'empty: nothing to resume (no run.cfg there)' '$dir/res2.out' && test ! -e '$dir/empty/points.csv'"
"$run" --resume "$top_srcdir/tests/data/results-lenet5" >"$dir/res2.out" 2>&1
rc=$?
check "--resume of a trainer's sweep: exit 1, named (got $rc)" sh -c "test $rc = 1 && grep -q 'not a run of roofline-run' '$dir/res2.out'"
"$train" --resume "$dir/int" >"$dir/res2.out" 2>&1
rc=$?
check "roofline-train --resume of roofline-run's: refused, named (got $rc)" sh -c "test $rc != 0 && grep -q 'a run of roofline-run, not a sweep of the trainer' '$dir/res2.out'"
# run.cfg's request edited by hand: each member read back through its option's own checks,
# refused naming the file and line, nothing run (the rows as they were)
bad_request() {        # NAME SED-EDIT EDITED-LINE MESSAGE
	rm -rf "$dir/bad-$1" && cp -r "$dir/int" "$dir/bad-$1" && sed -i "$2" "$dir/bad-$1/run.cfg"
	line=$(grep -nF -- "$3" "$dir/bad-$1/run.cfg" | cut -d: -f1)
	"$run" --resume "$dir/bad-$1" >"$dir/bad-$1.out" 2>&1
	rc=$?
	printf '%s\n' "bad-$1/run.cfg:$line: $4" >"$dir/bad-$1.want"
	check "--resume of a run.cfg with $3: exit 1, run.cfg:${line:-?} and why (got $rc)" sh -c "test $rc = 1 && test -n '$line' && grep -qF -f '$dir/bad-$1.want' '$dir/bad-$1.out' && cmp -s '$dir/int/points.csv' '$dir/bad-$1/points.csv'"
}
bad_request repeat 's/repeat = 1;/repeat = 0;/' 'repeat = 0;' "--repeat: '0' is not in 1.."
bad_request verbose 's/verbose = "1";/verbose = "a b";/' 'verbose = "a b";' \
	'--verbose-value: a word of at most 40 characters expected'
bad_request sweep 's/sweep = \[ "threads=1,2" \]/sweep = [ "threads=1,2", "colour=red" ]/' \
	'"colour=red"' '--sweep colour=red: threads[=LIST]'
bad_request together 's/throughput = "";/throughput = ""; tune_together = [ "threads=2" ];/' \
	'tune_together' "tune_together: 'threads=2' is not an alternative of its tune= sweep"
bad_request member 's/repeat = 1;/repeat = 1; colour = "red";/' 'colour = "red"' \
	"'colour' is not part of roofline-run's request"
bad_request kind 's/repeat = 1;/repeat = { n = 1; };/' 'repeat = {' \
	"'repeat' must be a string, a number or true or false, or an array of them"
rm -rf "$dir/bad-argv" && cp -r "$dir/int" "$dir/bad-argv" && sed -i 's/argv = \[.*\];/argv = [ ];/' "$dir/bad-argv/run.cfg"
"$run" --resume "$dir/bad-argv" >"$dir/bad-argv.out" 2>&1
rc=$?
check "--resume of a run.cfg whose request has no command: exit 1, said (got $rc)" sh -c "test $rc = 1 && grep -qF 'bad-argv/run.cfg: its command_request records no command (argv)' '$dir/bad-argv.out'"

# a run other work disturbs, on demand: the command kicks a process of the test's that burns
# a fixed count of loops on the one CPU both may use, and waits for it to finish (events, not
# time). Its row keeps both words, the busy reason and the judgement of an images/s no core
# reaches; the judgements of the rows read back by --resume are said again, each once
# (the default prints that images/s too, undisturbed; the last configuration waits for
# $dir/bgo, interrupted, then resumed)
cpu=$(taskset -cp $$ 2>/dev/null | sed 's/.*: //; s/[-,].*//')
if [ -z "$cpu" ]; then
	skip "no taskset (util-linux) to put the command and other work on one CPU"
else
	mkfifo "$dir/kick"
	taskset -c "$cpu" sh -c 'while read n <"$1"; do i=0
		while [ $i -lt 200000 ]; do i=$((i + 1)); done; : >"$2.$n"; done' sh \
		"$dir/kick" "$dir/burnt" >/dev/null 2>&1 &
	burner=$!
	cat >"$dir/bz.sh" <<EOF2
#!/bin/sh
case "\$X" in
1) echo \$\$ >'$dir/kick'; while [ ! -e '$dir/burnt.'\$\$ ]; do sleep 0.01; done
   echo images/s 5e12 ;;
2) if [ ! -e '$dir/bgo' ]; then touch '$dir/bstarted'; exec sleep 60; fi; echo images/s 100 ;;
*) echo images/s 5e12 ;;
esac
EOF2
	chmod +x "$dir/bz.sh"
	taskset -c "$cpu" "$run" -o "$dir/bz" -r 1 --no-overhead --no-hw-counters \
		--sweep env:X=1,2 -- "$dir/bz.sh" >"$dir/bz.out" 2>&1 &
	pid=$!
	interrupt "$dir/bstarted"
	said='; impossible: the command printed images/s 5e[+]12, more than an image a nanosecond'
	k=$(rows "$dir/bz/points.csv" config=X=1 scope=run name=command status=disturbed \
		"reason~^busy: other processes used .*$said")
	check "a run other work disturbed: its row says so, with the busy reason and what is impossible" \
		test "$k" = 1
	check "... the summary: disturbed, not compared, the judgement once" sh -c \
		"grep -q 'disturbed, every run (measured twice each): busy: .*; not compared\$' \
			'$dir/bz/summary.txt' && ! grep -q 'disturbed, every run.*impossible' \
			'$dir/bz/summary.txt' && test \$(grep -c 'impossible: the command printed' \
			'$dir/bz/summary.txt') = 3"
	touch "$dir/bgo"
	taskset -c "$cpu" "$run" --resume "$dir/bz" >"$dir/bz-r.out" 2>&1
	rc=$?
	check "... --resume (exit 0, got $rc): the rows read back judged again, each once" sh -c \
		"test $rc = 0 && test \$(grep -c 'impossible: the command printed' \
			'$dir/bz/summary.txt') = 3 && ! grep -q 'disturbed, every run.*impossible' \
			'$dir/bz/summary.txt' && grep -q 'disturbed, every run .*: busy: ' \
			'$dir/bz/summary.txt'"
	kill $burner
	wait $burner 2>/dev/null
fi

# no -o: results/run-TIMESTAMP.partial while it runs (the command lists what it sees there),
# the name without .partial once complete; interrupted, the .partial keeps what it measured
# and --resume of it names it when it completes (the last configuration waits for $dir/dgo)
mkdir "$dir/def"
(cd "$dir/def" && exec "$run" -r 1 --no-overhead --no-hw-counters --sweep threads=1,2 -- sh -c \
	"ls -d results/* >>'$dir/def.seen'; if [ \"\$OMP_NUM_THREADS\" = 2 ] && [ ! -e '$dir/dgo' ]; then touch '$dir/dstarted'; exec sleep 60; fi" \
	>"$dir/def.out" 2>"$dir/def.err") &
pid=$!
i=0
while [ ! -e "$dir/dstarted" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
p=$(cd "$dir/def" && ls -d results/run-*.partial 2>/dev/null)
check "no -o: the command runs in results/run-TIMESTAMP.partial, the only directory there ($(sort -u "$dir/def.seen" | tr '\n' ' '))" sh -c "echo '$p' | grep -q '^results/run-[0-9]*-[0-9]*-[0-9]*T[0-9:]*Z\.partial$' && test \"\$(sort -u '$dir/def.seen')\" = '$p'"
kill -INT $pid
wait $pid
rc=$?
check "... interrupted: exit 130, the directory still .partial, with the finished rows (got $rc)" sh -c "test $rc = 130 && test $(rows "$dir/def/$p/points.csv" config=threads=1 rep=1 scope=run name=command) = 1 && grep -q 'status = \"interrupted\"' '$dir/def/$p/run.cfg' && grep -q 'results in $p\$' '$dir/def.err' && grep -q 'roofline-run --resume $p runs the rest' '$dir/def/$p/summary.txt'"
touch "$dir/dgo"
(cd "$dir/def" && exec "$run" --resume "$p" >"$dir/def-r.out" 2>"$dir/def-r.err")
rc=$?
final=${p%.partial}
check "... --resume $p: exit 0, named $final when complete, the name printed (got $rc)" sh -c "test $rc = 0 && test ! -e '$dir/def/$p' && grep -q 'status = \"complete\"' '$dir/def/$final/run.cfg' && test $(rows "$dir/def/$final/points.csv" config=threads=2 rep=1 scope=run name=command) = 1 && grep -q 'page $final/report.html\$' '$dir/def-r.err' && grep -q 'results in $final\$' '$dir/def-r.err' && ! grep -q partial '$dir/def-r.err' '$dir/def/$final/summary.txt'"
# default names never collide: every name of the next minute taken (a .partial of a run that
# is running, a complete directory), two runs at once (each command waits for the
# other's): -2 and -3, a directory each, nothing replaced
mkdir -p "$dir/two/results"
now=$(date -u +%s)
for k in $(seq 0 59); do
	t=$(date -u -d "@$((now + k))" +%Y-%m-%dT%H:%M:%SZ)
	mkdir "$dir/two/results/run-$t" "$dir/two/results/run-$t.partial"
	touch "$dir/two/results/run-$t/mine"
done
for w in a b; do
	o=$([ $w = a ] && echo b || echo a)
	(cd "$dir/two" && exec "$run" -r 1 --no-overhead --no-hw-counters -- sh -c \
		"touch '$dir/two.$w'; i=0; while [ ! -e '$dir/two.$o' ] && [ \$i -lt 600 ]; do sleep 0.1; i=\$((i + 1)); done" \
		>/dev/null 2>"$dir/two-$w.err") &
done
wait
a=$(sed -n 's/^roofline-run: results in //p' "$dir/two-a.err")
b=$(sed -n 's/^roofline-run: results in //p' "$dir/two-b.err")
# (a name is numbered where its second's name was taken: every second of the minute the
# test took, so unless a run started more than a minute late; then its name is a new one)
numbered() { # NAME...: each results/run-T-2 or -3 where run-T was taken, else results/run-T new
	for _nm; do
		case $_nm in
		results/run-*Z-[23]) test -e "$dir/two/${_nm%-[23]}/mine" ;;
		results/run-*Z) test ! -e "$dir/two/$_nm/mine" ;;
		*) false ;;
		esac || return 1
	done
}
check "two runs at once, every name taken: a directory each, numbered ($a, $b)" sh -c "test '$a' != '$b' && test -s '$dir/two/$a/points.csv' && test -s '$dir/two/$b/points.csv'"
check "... each past the name its second had taken, or a name nobody had" numbered "$a" "$b"
check "... the directories there before kept as they were (60 complete, 60 .partial)" sh -c "test \$(ls '$dir'/two/results/run-*/mine | wc -l) = 60 && test \$(ls -d '$dir'/two/results/run-*.partial | wc -l) = 60 && ! ls '$dir'/two/results/*/points.csv | grep -v -e '$a/' -e '$b/'"

# --resume of something else: another working directory (./cmd.sh there is another
# program), another environment, refused naming run.cfg's line; nothing written
mkdir -p "$dir/wa" "$dir/wb"
printf '#!/bin/sh\necho from-a\n' >"$dir/wa/cmd.sh"
printf '#!/bin/sh\necho from-b\n' >"$dir/wb/cmd.sh"
chmod +x "$dir/wa/cmd.sh" "$dir/wb/cmd.sh"
(cd "$dir/wa" && OMP_SCHEDULE=static "$run" -o "$dir/cw" -r 1 --no-overhead --no-hw-counters \
	-- ./cmd.sh >"$dir/cw.out" 2>&1)
check "a run of ./cmd.sh: run.cfg records where and what ran, and the environment" sh -c "grep -q '^    cwd = \"$dir/wa\";' '$dir/cw/run.cfg' && grep -q '^    program = \"$dir/wa/cmd.sh\";' '$dir/cw/run.cfg' && grep -q '^  environment = \\[.*\"OMP_SCHEDULE=static\"' '$dir/cw/run.cfg'"
cp "$dir/cw/points.csv" "$dir/cw-before.csv"
cp "$dir/cw/run.cfg" "$dir/cw-before.cfg"
line=$(grep -n '^    cwd = ' "$dir/cw/run.cfg" | cut -d: -f1)
(cd "$dir/wb" && OMP_SCHEDULE=static "$run" --resume "$dir/cw" >"$dir/cw2.out" 2>&1)
rc=$?
check "--resume from another directory: refused (exit $rc), run.cfg's line named" sh -c "test $rc = 1 && grep -q 'cw/run.cfg:$line: the working directory: .$dir/wa. when the run started, .$dir/wb. now' '$dir/cw2.out' && ! grep -q from-b '$dir/cw2.out'"
line=$(grep -n '^  environment = ' "$dir/cw/run.cfg" | cut -d: -f1)
(cd "$dir/wa" && env -u OMP_SCHEDULE "$run" --resume "$dir/cw" >"$dir/cw3.out" 2>&1)
rc=$?
check "--resume without a variable the run started with: refused (exit $rc), named" sh -c "test $rc = 1 && grep -q 'cw/run.cfg:$line: environment: OMP_SCHEDULE=static when the run started, unset now' '$dir/cw3.out'"
(cd "$dir/wa" && OMP_SCHEDULE=dynamic "$run" --resume "$dir/cw" >"$dir/cw4.out" 2>&1)
rc=$?
check "... with another value: refused (exit $rc), both said" sh -c "test $rc = 1 && grep -q 'environment: OMP_SCHEDULE=static when the run started, OMP_SCHEDULE=dynamic now' '$dir/cw4.out'"
(cd "$dir/wa" && OMP_SCHEDULE=static MKL_VERBOSE=1 "$run" --resume "$dir/cw" >"$dir/cw5.out" 2>&1)
rc=$?
check "... with one more: refused (exit $rc), named" sh -c "test $rc = 1 && grep -q 'environment: MKL_VERBOSE=1 now, unset when the run started' '$dir/cw5.out'"
# ./cmd.sh now a link to another program: the same words, another program
mv "$dir/wa/cmd.sh" "$dir/wa/cmd-a.sh"
printf '#!/bin/sh\necho from-c\n' >"$dir/wa/cmd-c.sh"
chmod +x "$dir/wa/cmd-c.sh"
ln -s cmd-c.sh "$dir/wa/cmd.sh"
line=$(grep -n '^    program = ' "$dir/cw/run.cfg" | cut -d: -f1)
(cd "$dir/wa" && OMP_SCHEDULE=static "$run" --resume "$dir/cw" >"$dir/cw7.out" 2>&1)
rc=$?
check "... whose first word finds another program now: refused (exit $rc), run.cfg's line named" sh -c "test $rc = 1 && grep -q 'cw/run.cfg:$line: the command.s program: .$dir/wa/cmd.sh. when the run started, .$dir/wa/cmd-c.sh. now' '$dir/cw7.out' && ! grep -q from-c '$dir/cw7.out'"
rm "$dir/wa/cmd.sh" && mv "$dir/wa/cmd-a.sh" "$dir/wa/cmd.sh"
check "... nothing of the run lost or rewritten (points.csv, run.cfg)" sh -c "cmp -s '$dir/cw-before.csv' '$dir/cw/points.csv' && cmp -s '$dir/cw-before.cfg' '$dir/cw/run.cfg'"
(cd "$dir/wa" && OMP_SCHEDULE=static "$run" --resume "$dir/cw" >"$dir/cw6.out" 2>&1)
rc=$?
check "... from its own directory, its own environment: resumed (exit $rc)" sh -c "test $rc = 0 && grep -q 'default: measured before (resumed)' '$dir/cw6.out' && grep -q 'OMP_SCHEDULE=static' '$dir/cw/run.cfg'"
# a variable's name of any length compared whole (OMP_ and 300 digits)
long=OMP_$(printf '%0300d' 0)
(cd "$dir/wa" && env "$long=1" "$run" -o "$dir/lv" -r 1 --no-overhead --no-hw-counters \
	-- ./cmd.sh >/dev/null 2>&1)
(cd "$dir/wa" && env "$long=1" "$run" --resume "$dir/lv" >"$dir/lv.out" 2>&1)
rc=$?
check "... a variable named in 304 characters, the same: resumed (exit $rc)" test $rc = 0
(cd "$dir/wa" && env "$long=2" "$run" --resume "$dir/lv" >"$dir/lv.out" 2>&1)
rc=$?
lsaid="environment: $long=1 when the run started, $long=2 now (--resume"
check "... another value of it: refused (exit $rc), named, the message whole" sh -c \
	"test $rc = 1 && grep -q '$lsaid' '$dir/lv.out'"

# a command of 5,004 words runs whole, is recorded whole and resumes
"$run" -o "$dir/words" -r 1 --no-overhead --no-hw-counters -- sh -c 'echo "args $#"' sh \
	$(seq 5000) >"$dir/words.out" 2>&1
rc=$?
check "a command of 5,004 words: every word passed (exit $rc)" sh -c "test $rc = 0 && grep -qx 'args 5000' '$dir/words.out'"
check "... run.cfg records them all" sh -c "test \$(sed -n '/^    argv = /p' '$dir/words/run.cfg' | tr ',' '\\n' | wc -l) = 5004 && grep -q '^command: sh -c .* 4999 5000\$' '$dir/words/summary.txt'"
"$run" --resume "$dir/words" >"$dir/words2.out" 2>&1
rc=$?
check "... and its own run.cfg resumes (exit $rc)" sh -c "test $rc = 0 && grep -q 'default: measured before (resumed)' '$dir/words2.out'"

# configurations whose names pass 199 characters: two names, each its own rows, resumed
v=$(printf 'v%.0s' $(seq 40))
"$run" -o "$dir/long" -r 1 --no-overhead --no-hw-counters --sweep "env:AAAAAAAAAAAAAA=${v}1" \
	--sweep "env:BBBBBBBBBBBBBB=${v}1" --sweep "env:CCCCCCCCCCCCCCC=${v}1" \
	--sweep "env:DDDDDDDDDDDDDDDD=${v}1,${v}2" -- sh -c 'echo "D=$DDDDDDDDDDDDDDDD"' \
	>"$dir/long.out" 2>&1
rc=$?
check "long configuration names: two, told apart by a hash of the whole (exit $rc)" sh -c "test $rc = 0 && test \$($csvawk '\$col[\"scope\"] == \"run\" { print \$1 }' '$dir/long/points.csv' | sort -u | wc -l) = 3 && test $(rows "$dir/long/points.csv" 'config~ #[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]$' rep=1 scope=run name=command) = 2"
"$run" --resume "$dir/long" >"$dir/long2.out" 2>&1
rc=$?
check "... read back by --resume as the two they are (exit $rc)" sh -c "test $rc = 0 && test \$(grep -c 'measured before (resumed)' '$dir/long2.out') = 3"
"$run" -o "$dir/sp" -r 1 --no-overhead --no-hw-counters --sweep "env:A=1 B=2,1" \
	--sweep "env:B=3,2 B=3" -- true >"$dir/sp.out" 2>&1
rc=$?
check "values with spaces: quoted in the names, 5 configurations, 5 names (exit $rc)" sh -c "test $rc = 0 && test \$($csvawk '\$col[\"scope\"] == \"run\" { print \$1 }' '$dir/sp/points.csv' | sort -u | wc -l) = 5 && grep -q \"^A='1 B=2' B=3,\" '$dir/sp/points.csv'"

# values as frameworks' guides give them: a comma inside a value written \, (KMP_AFFINITY,
# MALLOC_CONF), a backslash before a comma \\, a value longer than 63 characters, each reaching
# the command whole, recorded as given and resumed as the same configurations
mc="oversize_threshold:1\,background_thread:true\,metadata_thp:auto\,dirty_decay_ms:9000000000"
"$run" -o "$dir/esc" -r 1 --no-overhead --no-hw-counters \
	--sweep 'env:KMP_AFFINITY=granularity=fine\,compact\,1\,0,c\\' --sweep "env:MALLOC_CONF=$mc" \
	-- sh -c 'printf "%s|%s\n" "$KMP_AFFINITY" "$MALLOC_CONF" >> "$0"' "$dir/esc.seen" \
	>"$dir/esc.out" 2>&1
rc=$?
mcv="oversize_threshold:1,background_thread:true,metadata_thp:auto,dirty_decay_ms:9000000000"
printf '|\ngranularity=fine,compact,1,0|%s\nc\\|%s\n' "$mcv" "$mcv" | sort >"$dir/esc.want"
sort -u "$dir/esc.seen" >"$dir/esc.got"
check "a comma and a backslash written escaped, a value of 87 characters: each reaches the command whole (exit $rc)" \
	sh -c "test $rc = 0 && cmp -s '$dir/esc.want' '$dir/esc.got'"
check "... 3 configurations, named by the values" \
	test "$(rows "$dir/esc/points.csv" scope=run name=command "config=KMP_AFFINITY=granularity=fine,compact,1,0 MALLOC_CONF=$mcv")" = 1
check "... run.cfg records the lists as given" \
	grep -qF 'sweep = [ "env:KMP_AFFINITY=granularity=fine\\,compact\\,1\\,0,c\\\\", "env:MALLOC_CONF=oversize_threshold:1\\,background' "$dir/esc/run.cfg"
"$run" --resume "$dir/esc" >"$dir/esc2.out" 2>&1
rc=$?
check "... --resume finds the same 3 configurations measured (exit $rc)" \
	sh -c "test $rc = 0 && test \$(grep -c 'measured before (resumed)' '$dir/esc2.out') = 3"
big=$(printf 'y%.0s' $(seq 1030))
"$run" -o "$dir/never" --sweep "env:A=$big" -- true >"$dir/esc3.out" 2>&1
rc=$?
check "a list of 1030 characters: refused (exit $rc), its limit named" \
	sh -c "test $rc = 2 && grep -q 'env:A: a list of at most 1023 characters expected' '$dir/esc3.out' && test ! -e '$dir/never'"

# kind rows grouped in one sort: two kinds interleaved over distinct problems, each kind's
# row the sum of its primitives (reorder: 3 calls of 0.5, 0.25, 0.125 ms; eltwise: 2)
"$run" -o "$dir/kinds" -r 1 --no-overhead --no-hw-counters -- sh -c 'for p in "reorder 10x10 0.5" "eltwise 8x8 0.75" "reorder 20x20 0.25" "eltwise 4x4 0.0625" "reorder 30x30 0.125"; do set -- $p; echo "onednn_verbose,exec,cpu,$1,jit:uni,undef,src_f32::blocked:ab:f0 dst_f32::blocked:ab:f0,,,$2,$3"; done' >"$dir/kinds.out" 2>&1
check "kind rows: each kind's calls and time the sum of its primitives, in the order of their heaviest" sh -c "$csvawk '\$col[\"scope\"] == \"kind\" { printf \"%s %s %.6f\\n\", \$col[\"kind\"], \$col[\"calls\"], \$col[\"seconds\"] * 1000 }' '$dir/kinds/points.csv' | tr '\\n' ';' | grep -qx 'eltwise 2 0.812500;reorder 3 0.875000;'"

# an output path of the results directory that is a symbolic link: never written through
mkdir -p "$dir/sl" "$dir/outside"
echo precious >"$dir/outside/c000-r1.log"
ln -s "$dir/outside" "$dir/sl/onednn"
"$run" -o "$dir/sl" -r 1 --no-overhead --no-hw-counters -- true >"$dir/sl.out" 2>&1
rc=$?
check "DIR/onednn a symbolic link: refused (exit $rc), the path named, the file outside kept" sh -c "test $rc = 1 && grep -q 'sl/onednn: a symbolic link: outputs are never written through one' '$dir/sl.out' && grep -qx precious '$dir/outside/c000-r1.log' && test \$(ls '$dir/outside' | wc -l) = 1 && test ! -e '$dir/sl/points.csv'"

# a run whose CPUs another process takes: each run measured again, then marked disturbed,
# never compared (a spinner on each CPU this process may use while the command sleeps)
spin=""
for c in $(awk '/^Cpus_allowed_list/ { gsub(/,/, " ", $2); print $2 }' /proc/self/status | tr ' ' '\n' | awk -F- '{ if (NF == 2) for (i = $1; i <= $2; i++) print i; else print $1 }'); do
	taskset -c "$c" sh -c 'while :; do :; done' &
	spin="$spin $!"
done
"$run" -o "$dir/busy" -r 1 --no-overhead --sweep env:RT_X=1 -- sleep 0.6 >"$dir/busy.out" 2>"$dir/busy.err"
rc=$?
# shellcheck disable=SC2086
kill $spin
check "a run under busy CPUs: exit 0 (got $rc), measured again" sh -c "test $rc = 0 && grep -q 'busy: other processes used [0-9]*% of its [0-9]* CPUs. time during the run.*measured again' '$dir/busy.err'"
check "... its rows disturbed, with why" test "$(rows "$dir/busy/points.csv" rep=1 scope=run name=command kind= prop= dtype= precision= impl= calls=0 'seconds~^[0-9.e-]+$' share=1 flops=0 bytes=0 gflops=0 intensity= source=onednn-log status=disturbed 'reason~^busy: other processes used')" = 2
# the busiest few are named: a spinner among them (other work on the machine may be busier)
# the three busiest of each cause are named: a spinner among them, unless three other
# processes were as busy in every cause (other work on the machine, then said)
named=$(grep -o 'the busiest allowed there: [^"]*' "$dir/busy/points.csv" | grep -o 'pid [0-9]*' | sed 's/pid //' | sort -u | tr '\n' ' ')
full=$(grep -o 'the busiest allowed there: [^"]*' "$dir/busy/points.csv" | awk -F'; ' 'NF < 3 { short = 1 } END { print short ? "no" : "yes" }')
spun=no
for p in $named; do case " $spin " in *" $p "*) spun=yes ;; esac; done
if [ $spun = no ] && [ "$full" = yes ]; then
	skip "three other processes were busier than the spinners in every cause (pids $named)"
else
	check "... naming one of the spinners (pids ${named:-none}of$spin)" test $spun = yes
fi
check "... never called faster" sh -c "grep -q 'disturbed, every run' '$dir/busy/summary.txt' && grep -q '^every configuration was disturbed' '$dir/busy/summary.txt'"

# a disturbed run measured again keeps the undisturbed one, else the first, as the trainer's
# sweep does: a retry that fails does not replace a run that succeeded (the first run asks for
# a spinner on each CPU through a FIFO, sleeps under them and says when it is done; the run
# measured again exits 3)
mkfifo "$dir/again-go" "$dir/again-done"
printf '#!/bin/sh\nif mkdir "$1/again-ran" 2>/dev/null; then echo go >"$1/again-go"; sleep 0.6; echo done >"$1/again-done"; else exit 3; fi\n' >"$dir/once.sh"
(
	read -r line <"$dir/again-go" || exit 0
	for c in $(awk '/^Cpus_allowed_list/ { gsub(/,/, " ", $2); print $2 }' /proc/self/status | tr ' ' '\n' | awk -F- '{ if (NF == 2) for (i = $1; i <= $2; i++) print i; else print $1 }'); do
		taskset -c "$c" sh -c 'while :; do :; done' &
		echo $! >>"$dir/spinners"
	done
	read -r line <"$dir/again-done"
) &
helper=$!
# (--timeout: a helper gone before it read would leave the command blocked on its FIFO)
"$run" -o "$dir/again" -r 1 --timeout 60 --no-overhead --no-hw-counters -- sh "$dir/once.sh" "$dir" >"$dir/again.out" 2>"$dir/again.err"
rc=$?
# whatever happened, no spinner and no helper left
[ -s "$dir/spinners" ] && kill $(cat "$dir/spinners") 2>/dev/null
kill $helper 2>/dev/null
wait $helper 2>/dev/null
if grep -q 'measured again' "$dir/again.err"; then
	check "a disturbed run whose retry fails: the first kept, disturbed, not the failure (exit $rc)" sh -c "test $rc = 0 && test $(rows "$dir/again/points.csv" rep=1 scope=run name=command status=disturbed) = 1 && test $(rows "$dir/again/points.csv" scope=run status=failed) = 0 && test -e '$dir/again/onednn/c000-r1.log' && test ! -e '$dir/again/onednn/c000-r1.log.again'"
else
	skip "the spinners did not disturb the first run: nothing was measured again"
fi

# the log's cost: said only where the runs with it are the slower outside both ranges; runs
# without it that are the slower are noise, no gain (0.3 s apart, each verdict is sure)
"$run" -o "$dir/oh" -r 2 --no-hw-counters -- sh -c '[ -n "$ONEDNN_VERBOSE" ] && sleep 0.3; true' >"$dir/oh.out" 2>&1
"$run" -o "$dir/ohn" -r 2 --no-hw-counters -- sh -c '[ -z "$ONEDNN_VERBOSE" ] && sleep 0.3; true' >"$dir/ohn.out" 2>&1
if grep -q 'disturbed' "$dir/oh/summary.txt" "$dir/ohn/summary.txt"; then
	skip "other work on the machine disturbed a run: the overhead not judged"
	skip "other work on the machine disturbed a run: the overhead not judged"
else
check "the log 0.3 s slower: its cost said, each side's range with it" grep -q '^verbose overhead: the default took 0\.[3-9][0-9]* s ([0-9.]*\.\.[0-9.]*) with the log and 0\.[0-9]* s ([0-9.]*\.\.[0-9.]*) without (medians): +[0-9]' "$dir/oh/summary.txt"
check "... the runs without the log 0.3 s slower: no cost, and no gain, said" grep -q '^verbose overhead: none measured: the default took .* without, the runs without the log the slower (the node.s noise, not a gain of the log.s)$' "$dir/ohn/summary.txt"
fi

# a speedup is claimed only when the runs without the log, the default and the best in turn,
# confirm it; each command's time differs by 0.3 s where it differs, so each verdict is sure
"$run" -o "$dir/cf" -r 2 --no-overhead --no-hw-counters --sweep env:X=1 -- sh -c '[ "$X" = 1 ] || sleep 0.3' >"$dir/cf.out" 2>&1
# (a machine busy with other work disturbs a run: it is left out, or its configuration not
# compared, and the sentences below differ)
if grep -q 'disturbed' "$dir/cf/summary.txt" "$dir/cf/points.csv"; then
	skip "other work on the machine disturbed a run: no claim to confirm"
	skip "other work on the machine disturbed a run: no claim to confirm"
else
check "a configuration faster with and without the log: the claim stands on the runs without it" grep -q '^best configuration: X=1, [0-9.]* s (.* over 2 fresh processes) without the log (run in turn, wall time); the default [0-9.]* s (.*): speedup [0-9.]*x, outside both ranges; with the log ' "$dir/cf/summary.txt"
check "... the 4 runs without the log in points.csv, in turn, which goes first alternating (the default, X=1, X=1, the default)" sh -c "test \"\$('$csvawk' '\$col[\"name\"] == \"command without the log, confirming\" { printf \"%s \", \$1 }' '$dir/cf/points.csv')\" = 'default X=1 X=1 default '"
fi
"$run" -o "$dir/nc" -r 2 --no-overhead --no-hw-counters --sweep env:X=1 -- sh -c 'if [ -n "$ONEDNN_VERBOSE" ]; then [ "$X" = 1 ] || sleep 0.3; else [ "$X" = 1 ] && sleep 0.3; fi; true' >"$dir/nc.out" 2>&1
if grep -q 'disturbed' "$dir/nc/summary.txt"; then
	skip "other work on the machine disturbed the default: no claim to confirm"
else
	check "a configuration faster only with the log on: no speedup claimed" grep -q '^no configuration is measurably faster than the default: X=1 took [0-9.]* s .* without the log (run in turn, wall time), the default [0-9.]* s .*; the default as fast or faster; with the log ' "$dir/nc/summary.txt"
# A/A: two configurations that differ in nothing; 5 runs of each (with the log, then without)
fi
"$run" -o "$dir/aa" -r 5 --no-overhead --no-hw-counters --sweep env:RT_AA=1,2 -- sh -c true >"$dir/aa.out" 2>&1
check "an A/A sweep never claims a speedup" sh -c "test -s '$dir/aa/summary.txt' && ! grep -q '^best configuration' '$dir/aa/summary.txt'"

# a real client: PyTorch
py=$(torch_python)
if [ -z "$py" ]; then
	skip "PyTorch is not installed (python3-torch)"
else
	"$run" -o "$dir/pt" -r 1 --sweep threads=2 -- "$py" "$top_srcdir/tests/data/pytorch-cnn.py" 3 16 >"$dir/pt.out" 2>"$dir/pt.err"
	check "PyTorch under roofline-run --sweep threads=2: exit 0 (got $?)" test -s "$dir/pt/summary.txt"
	# per iteration, batch 16: conv1 3->16 on 32x32 (taps 94 per dimension), conv2 16->32 on
	# 16x16 (46): forward 2 MACs + a bias per output, backward weights the same, backward
	# data for conv2 only (conv1's input needs no gradient)
	f1=$((2 * 16 * 16 * 3 * 94 * 94 + 16 * 16 * 32 * 32))
	f2=$((2 * 16 * 32 * 16 * 46 * 46 + 16 * 32 * 16 * 16))
	want=$((3 * (f1 + f2 + f1 + f2 + 2 * 16 * 32 * 16 * 46 * 46)))
	got=$("$csvawk" '$1 == "threads=2" && $col["scope"] == "kind" && $col["kind"] == "convolution" { s += $col["flops"] } END { printf "%.0f", s }' "$dir/pt/points.csv")
	check "... its convolution FLOPs over 3 iterations = the hand count ($got = $want)" test "$got" = "$want"
	check "... the coverage reported" grep -q '^coverage: oneDNN ran [0-9]*% of the default' "$dir/pt/summary.txt"
	check "... the images/s it printed, per configuration" "$csvawk" '$col["scope"] == "run" && $col["images_per_s"] > 0 { c[$1] } END { exit length(c) < 2 }' "$dir/pt/points.csv"
	check "... a verdict on the best configuration" grep -Eq '^(best configuration|no configuration is measurably faster|the default configuration is the fastest|every configuration was disturbed)' "$dir/pt/summary.txt"
	# (on a machine busy with other work every run may be disturbed: then why not, said)
	check "... the verbose overhead measured, or why not" grep -q '^verbose overhead: \(the default took\|none .*: the default took\|not measured: .*disturbed\)' "$dir/pt/summary.txt"
	sed -n '/^configuration/,/^$/p' "$dir/pt/summary.txt" | sed 's/^/# /'
fi
echo "1..$n"
