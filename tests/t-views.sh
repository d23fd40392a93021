#!/bin/sh
# t-views.sh: the views of a results directory, end to end. Each chart's script is accepted by
# gnuplot and holds the data of points.csv (read back here); the memory bars add up to each
# configuration's allocated total and follow the batch; --input and --sweep input reshape the
# model exactly (fc1 hand-computed); the labels of a roofline do not overlap and only the
# roofs that matter are drawn unless --all-roofs; report.html is well-formed, holds every
# chart, renders in headless Chromium and asks the network for nothing.
train="$top_builddir/src/roofline-train"
plot="$top_builddir/src/roofline-plot"
prof="$top_srcdir/machine-profiles/example-kvm-spr.cfg"
checker="$top_srcdir/tests/views-check.py"
dir=$(mktemp -d "${TMPDIR:-/tmp}/rt-t-views.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
. "$top_srcdir/tests/tap.sh"
cd "$dir" || exit 1
have_gnuplot=false
command -v gnuplot >/dev/null 2>&1 && have_gnuplot=true
have_python=false
command -v python3 >/dev/null 2>&1 && have_python=true

# a batch sweep with per-layer points
"$train" -m lenet5 -n 2 -w 1 -r 1 -c model -l --sweep batch=8,16,32 --profile "$prof" \
	-o "$dir/b" >"$dir/b.out" 2>"$dir/b.err"
check "a batch sweep: exit 0 (got $?)" test $? = 0
for c in trajectories phases memory layers layers-time; do
	check "$c.gp written" test -s "$dir/b/$c.gp"
	if $have_gnuplot; then
		check "$c.gp: gnuplot accepts it (renders it again)" gnuplot -c "$dir/b/$c.gp" "$dir/again-$c"
		check "$c: PNG and SVG" sh -c "test -s '$dir/b/$c.png' && test -s '$dir/b/$c.svg' && test -s '$dir/again-$c.svg'"
	else
		skip "gnuplot is not installed"
		skip "gnuplot is not installed"
	fi
done
check "no memory-input chart without an input sweep" test ! -e "$dir/b/memory-input.gp"
check "report.html written" test -s "$dir/b/report.html"

# memory.gp's data are points.csv's: a row per configuration in the chart's order (batch
# ascending), MiB of weights, weight gradients, optimizer, activations, activation gradients,
# workspace, their sum, peak RSS
sed -n '/^\$memory << EOD$/,/^EOD$/p' "$dir/b/memory.gp" | sed '1d;$d' >"$dir/mem.dat"
"$csvawk" 'NR > 1 && $7 == "iteration" && $9 == "median" && ($23 == "ok" || $23 == "disturbed") { print $3, $17, $28, $20, $18, $29, $21, $22 }' \
	"$dir/b/points.csv" | sort -n >"$dir/mem.csv"
check "memory.gp: a row per configuration (the default's batch 64 too)" sh -c "test \$(wc -l <'$dir/mem.dat') = 4 && test \$(wc -l <'$dir/mem.csv') = 4"
check "memory.gp: each bar is the CSV's split, in MiB, in batch order" awk '
	NR == FNR { for (i = 1; i <= 8; i++) d[FNR, i] = $i; next }
	{ for (i = 1; i <= 6; i++) if ((d[FNR, i] - $(i + 1) / 1048576) ^ 2 > 1e-10) exit 1
	  if ((d[FNR, 8] - $8 / 1048576) ^ 2 > 1e-10) exit 1 }' "$dir/mem.dat" "$dir/mem.csv"
check "memory.gp: the bars add up to the allocated total" awk '
	{ s = 0; for (i = 1; i <= 6; i++) s += $i; if ((s - $7) ^ 2 > 1e-8) exit 1 }' "$dir/mem.dat"
check "batch 8 -> 16 -> 32 -> 64: the activations kept grow, the weights stay" awk '
	NR > 1 && !($4 > a && $1 == w) { exit 1 } { a = $4; w = $1 }' "$dir/mem.dat"
check "... and the activation gradients grow" awk 'NR > 1 && !($5 > g) { exit 1 } { g = $5 }' "$dir/mem.dat"

# phases.gp: the CSV's phase medians in milliseconds
sed -n '/^\$phases << EOD$/,/^EOD$/p' "$dir/b/phases.gp" | sed '1d;$d' >"$dir/ph.dat"
for ph in data:1 forward:2 loss:3 backward:4 update:6; do
	name=${ph%:*} col=${ph#*:}
	"$csvawk" -v p="$name" 'NR > 1 && $7 == "phase" && $8 == p && $9 == "median" { print $3, $10 * 1000 }' \
		"$dir/b/points.csv" | sort -n | awk '{ print $2 }' >"$dir/ph-$name.csv"
	check "phases.gp: $name is the CSV's median, in ms" sh -c "awk '{ print \$$col }' '$dir/ph.dat' | paste - '$dir/ph-$name.csv' | awk '(\$1 - \$2) ^ 2 > 1e-12 * (\$2 ^ 2 + 1e-9) { exit 1 }'"
done
check "phases.gp: each bar's total is the sum of its phases" awk '
	{ s = 0; for (i = 1; i <= 6; i++) s += $i; if ((s - $7) ^ 2 > 1e-10 * $7 ^ 2) exit 1 }' "$dir/ph.dat"
check "phases.gp: no comm phase in the key without MPI" sh -c "! grep -q 'title \"comm\"' '$dir/b/phases.gp'"

# layers-time.gp: the configuration it names (the best, where the summary names one: every
# configuration a busy machine disturbed leaves none), its layers slowest first, their measured
# ms the CSV's
best=$(sed -n 's/^best configuration: \([^ ,]*\),.*/\1/p; s/^the default configuration, \([^ ,]*\), is the fastest.*/\1/p; s/^no configuration is measurably faster than the default: the fastest, \([^ ,]*\),.*/\1/p' "$dir/b/summary.txt")
lt=$(sed -n "s/^set title 'Layers of \([^ ]*\) by time.*/\1/p" "$dir/b/layers-time.gp")
sed -n '/^\$layers << EOD$/,/^EOD$/p' "$dir/b/layers-time.gp" | sed '1d;$d' >"$dir/lt.dat"
"$csvawk" -v c="$lt" 'NR > 1 && $1 == c && $7 == "layer" && $9 == "median" && ($23 == "ok" || $23 == "disturbed") { print $10 * 1000 }' \
	"$dir/b/points.csv" | sort -gr >"$dir/lt.csv"
check "layers-time.gp: the configuration it names ($lt), slowest layer first, times the CSV's" sh -c "
	awk '{ print \$1 }' '$dir/lt.dat' | paste - '$dir/lt.csv' | awk '(\$1 - \$2) ^ 2 > 1e-10 * (\$2 ^ 2 + 1e-9) { exit 1 } END { exit NR < 5 }'"
check "... the summary's best where it names one ('$best')" test -z "$best" -o "$best" = "$lt"
check "layers-time.gp: every floor is a time, every share in 0..1" awk '$2 < 0 || $3 < 0 || $3 > 1 { exit 1 }' "$dir/lt.dat"
check "layers-time.gp: each layer names the ceiling that sets its floor" grep -q "^array T\[[0-9]*\] = \['[0-9]*%: " "$dir/b/layers-time.gp"
check "layers.gp: the dots' sizes follow the layers' shares (a size column)" sh -c "sed -n '/^\\\$layers << EOD\$/,/^EOD\$/p' '$dir/b/layers.gp' | awk 'NF == 3 && \$3 >= 0.6 { k++ } END { exit k < 5 }'"

# readable rooflines: labels apart, the roofs on the chart (not in a key), only those that matter
if $have_python; then
	for c in trajectories layers; do
		check "$c.gp: no two labels overlap" python3 "$checker" labels "$dir/b/$c.gp"
	done
else
	skip "python3 is not installed"
	skip "python3 is not installed"
fi
# the same sweep with every row undisturbed, drawn again: what the charts make of compared
# configurations, whatever else ran on this machine during the sweep (a busy one leaves a
# series of disturbed points alone, "disturbed (not compared)")
undisturbed() { # SRC DST: DST a copy of SRC whose rows are all "ok", redrawn
	cp -R "$1" "$2" &&
	"$csvawk" 'FNR > 1 && $col["status"] == "disturbed" { $col["status"] = "ok"; $col["reason"] = "" }
		{ s = ""; for (i = 1; i <= NF; i++) { f = $i; if (f ~ /[,"]/) { gsub(/"/, "\"\"", f); f = "\"" f "\"" }
		  s = s (i > 1 ? "," : "") f } print s }' "$1/points.csv" >"$2/points.csv" &&
	"$plot" "$2" >/dev/null 2>&1
}
undisturbed "$dir/b" "$dir/bq"
check "a copy of the sweep, every row undisturbed, drawn again (exit $?)" sh -c "
	! grep -q ',disturbed,' '$dir/bq/points.csv' && test \$(wc -l <'$dir/bq/points.csv') = \$(wc -l <'$dir/b/points.csv')"
check "trajectories.gp: the series of a batch sweep: threads, affinity, precision and input" grep -q "^S0 = '[0-9]* threads\\?, none, fp32, 28x28'$" "$dir/bq/trajectories.gp"
"$plot" -p "$prof" --overlay "$dir/old" "$top_srcdir/tests/data/results-lenet5" >/dev/null 2>&1
check "... and of a points.csv that records no input (a threads sweep at batch 16)" grep -q "^S0 = 'batch 16, none, fp32'$" "$dir/old.gp"
check "trajectories.gp: the roofs are named on the chart, not in the key" sh -c "
	grep -q \"^set label [0-9]* 'DRAM \" '$dir/b/trajectories.gp' &&
	grep -q ' rotate by ' '$dir/b/trajectories.gp' && ! grep -q 'title R[0-9]' '$dir/b/trajectories.gp'"
nfl=$(grep -c "^set label [0-9]* 'fp32 [a-z0-9_]* [0-9.]* GFLOP/s'" "$dir/b/trajectories.gp")
check "by default one measured fp32 roof: the precision's peak (got $nfl)" test "$nfl" = 1
# the example profile predates theoretical peaks: the same results drawn on the 16-core node's
# profile (tests/data/emr16), which records them
cp -R "$dir/b" "$dir/bt"
"$plot" -p "$top_srcdir/tests/data/emr16/emr16.cfg" "$dir/bt" >/dev/null 2>&1
check "... its theoretical peak dashed (a profile that records one: exit $?)" sh -c "grep -q \"^set label [0-9]* 'fp32 theoretical peak\" '$dir/bt/trajectories.gp' && grep -q '^t[0-9]*(x) .*' '$dir/bt/trajectories.gp' && grep -q 'dt 2 lc rgb' '$dir/bt/trajectories.gp'"
check "... none where the profile records none" sh -c "! grep -q \"'fp32 theoretical peak\" '$dir/b/trajectories.gp'"
check "... no other precision's roofs" sh -c "! grep -q \"^set label [0-9]* '\\(fp64\\|bf16\\|int8\\) \" '$dir/b/trajectories.gp'"
"$plot" --all-roofs "$dir/b" >"$dir/all.out" 2>&1
check "roofline-plot --all-roofs DIR: exit 0 (got $?)" test $? = 0
nall=$(grep -c "^set label [0-9]* 'fp32 [a-z0-9_ ()A-Za-z]* [0-9.]* GFLOP/s'" "$dir/b/trajectories.gp")
check "--all-roofs: every fp32 ceiling ($nall > 1)" test "$nall" -gt 1
check "roofline-plot DIR names every view and the page" sh -c "grep -q 'chart: .*/phases' '$dir/all.out' && grep -q 'page:  .*/report.html' '$dir/all.out'"

# a profile's date and ceilings, sorted (a copy of it is written anew: its order and
# comments are its writer's)
roofs() { grep -o 'created = "[^"]*"\|gflops = [0-9.e+-]*\|gbytes_per_s = [0-9.e+-]*' "$1" | sort; }
# the profile kept with the results: roofline-plot DIR draws the roofs the run was judged on
# after the file it was read from is gone
cp "$prof" "$dir/gone.cfg"
"$train" -m lenet5 -n 1 -w 0 -r 1 -c model --sweep batch=8,16 --profile "$dir/gone.cfg" \
	-o "$dir/kept" >"$dir/kept.out" 2>&1
check "the run's profile kept as DIR/profile.cfg: its date and every ceiling the same" test -n "$(roofs "$prof")" -a "$(roofs "$prof")" = "$(roofs "$dir/kept/profile.cfg")"
rm -f "$dir/gone.cfg" "$dir/kept/trajectories.gp"
"$plot" "$dir/kept" >"$dir/kept-plot.out" 2>&1
check "roofline-plot DIR after the profile's file is gone: exit 0, its roofs drawn (got $?)" sh -c "grep -q \"^set label [0-9]* 'fp32 avx512 \" '$dir/kept/trajectories.gp'"

# --input and --sweep input: the convolutions keep their parameters, fc1 follows the
# flattened size exactly: 256 x (256 x H/8 x W/8) + 256
for hw in 16x16:262400 32x32:1048832 64x48:3145984; do
	size=${hw%:*} want=${hw#*:}
	"$train" -m convnet --input "$size" -b 2 --describe >"$dir/d-$size.txt" 2>&1
	check "convnet --input $size: fc1 has $want parameters" sh -c "awk '\$2 == \"fc1\" { exit \$5 != $want }' '$dir/d-$size.txt'"
	check "convnet --input $size: conv1..3 keep 1792, 73856, 295168" sh -c "awk '\$2 == \"conv1\" && \$5 == 1792 { k++ } \$2 == \"conv2\" && \$5 == 73856 { k++ } \$2 == \"conv3\" && \$5 == 295168 { k++ } END { exit k != 3 }' '$dir/d-$size.txt'"
done
"$train" -m convnet --input 4 -n 1 >/dev/null 2>"$dir/small.err"
check "--input 4 on convnet: exit 1 (got $?)" test $? = 1
check "... the layer that cannot take it named, with its file and line" grep -q "input 4x4 does not fit model 'convnet': .*convnet.cfg:[0-9]*: layer [0-9]* (pool3): kernel 2 is larger" "$dir/small.err"
"$train" -m convnet --input 0x8 -n 1 >/dev/null 2>"$dir/zero.err"
check "--input 0x8: a usage error (exit 2, got $?)" test $? = 2
"$train" -m convnet -n 1 -w 0 -r 1 -b 2 -c model --sweep input=8,16,4,32 --profile "$prof" \
	-o "$dir/in" >"$dir/in.out" 2>"$dir/in.err"
check "a convnet input sweep with a size it cannot take: exit 0 (got $?)" test $? = 0
check "... that size is a failed row, the layer named" grep -q '^t[0-9]*-b2-none-i4,.*,failed,.*does not fit.*pool3' "$dir/in/points.csv"
check "... the others measured, each with its input recorded" "$csvawk" '
	NR > 1 && $7 == "iteration" && $9 == "median" && ($23 == "ok" || $23 == "disturbed") { k[$26 "x" $27] }
	END { exit !(("8x8" in k) && ("16x16" in k) && ("32x32" in k)) }' "$dir/in/points.csv"
check "memory-input.gp written" test -s "$dir/in/memory-input.gp"
sed -n '/^\$mem << EOD$/,/^EOD$/p' "$dir/in/memory-input.gp" | sed '1d;$d' >"$dir/mi.dat"
check "memory-input.gp: a row per size, by pixel area (64, 256, 1024)" sh -c "test \"\$(awk '{ printf \"%s \", \$1 }' '$dir/mi.dat')\" = '64 256 1024 '"
check "memory-input.gp: training above inference, their ratio the right axis" awk '
	!($2 > $3 && $3 > 0 && ($4 - $2 / $3) ^ 2 < 1e-8) { exit 1 }' "$dir/mi.dat"
check "memory-input.gp: inference is the CSV's, training its allocated total" sh -c "
	$csvawk 'NR > 1 && \$7 == \"iteration\" && \$9 == \"median\" && (\$23 == \"ok\" || \$23 == \"disturbed\") { printf \"%.6f %.6f\\n\", (\$17 + \$18 + \$19 + \$20 + \$21) / 1048576, \$30 / 1048576 }' '$dir/in/points.csv' | sort -g >'$dir/mi.csv'
	awk '{ printf \"%.6f %.6f\\n\", \$2, \$3 }' '$dir/mi.dat' | sort -g | diff - '$dir/mi.csv'"
check "the best configuration is chosen among the default's input (a smaller image is no speedup)" sh -c "
	head -n 1 '$dir/in/summary.txt' | grep -q '^\(best configuration: \|the default configuration, \|no configuration \)' &&
	! head -n 1 '$dir/in/summary.txt' | grep -q -- '-i[0-9]'"
check "the trajectory runs along the input size" grep -q 'trajectories as input size varies' "$dir/in/trajectories.gp"
# (configurations that did not get their cores, on a busy machine, are a series of their own)
check "... one series: threads, batch, affinity, precision" sh -c "
	grep '^S[0-9]* = ' '$dir/in/trajectories.gp' | grep -v 'disturbed (not compared)' >'$dir/series'
	test \$(wc -l <'$dir/series') -le 1 && ! grep -vq \"^S[0-9]* = '[0-9]* threads\\\\?, batch 2, none, fp32'$\" '$dir/series'"

# report.html: well-formed, every chart inline, nothing fetched, rendered by Chromium
if $have_python; then
	charts="trajectories phases memory layers layers-time"
	$have_gnuplot || charts=""
	check "report.html: well-formed, every chart inline, no script, nothing external" python3 "$checker" html "$dir/b/report.html" $charts
	check "report.html of the input sweep: the memory-input chart too" sh -c "! $have_gnuplot || python3 '$checker' html '$dir/in/report.html' memory-input"
else
	skip "python3 is not installed"
	skip "python3 is not installed"
fi
check "report.html: the summary's verdict first (the best configuration, told from the noise)" grep -qF "<p class=\"big\">$(head -n 1 "$dir/b/summary.txt")." "$dir/b/report.html"
check "report.html: the run's record" grep -q 'The run&#39;s record (run.cfg)' "$dir/b/report.html"
chromium=$(command -v chromium || command -v chromium-browser)
# Chromium with every request sent to a proxy that only listens and records; the browser's own
# services (component updates, accounts) are told apart from what a page asks for
shoot() {
	rm -f "$dir/port" "$dir/$2.done"
	# (it listens until the browser is done, 60 s at most)
	python3 "$checker" listen "$dir/port" 60 "$dir/$2.done" >"$dir/$2.req" &
	_l=$!
	for _k in $(seq 50); do [ -s "$dir/port" ] && break; sleep 0.1; done
	HOME="$dir/home-$2" timeout 60 "$chromium" --headless --no-sandbox --disable-gpu \
		--hide-scrollbars --no-first-run --disable-extensions --disable-background-networking \
		--disable-component-update --disable-sync --no-pings --disable-default-apps \
		--proxy-server="http://127.0.0.1:$(cat "$dir/port")" --proxy-bypass-list="<-loopback>" \
		--window-size=1400,3000 --screenshot="$dir/$2.png" "file://$1" >"$dir/$2.log" 2>&1
	_rc=$?
	: >"$dir/$2.done"
	wait "$_l"
	grep -v -e 'update\.googleapis\.com' -e 'accounts\.google\.com' -e 'clients2\.google\.com/time' \
		"$dir/$2.req" >"$dir/$2.page-req"
	return $_rc
}
if [ -n "$chromium" ] && $have_python && $have_gnuplot; then
	shoot "$dir/b/report.html" shot
	check "headless Chromium renders report.html (exit $?)" test -s "$dir/shot.png"
	check "... the screenshot is not blank" python3 "$checker" png "$dir/shot.png"
	check "... and the page asked the network for nothing ($(wc -l <"$dir/shot.page-req") requests)" test ! -s "$dir/shot.page-req"
	# the same watch catches a page that does fetch something
	printf '<!DOCTYPE html><html><body><img src="http://rooftraj.invalid/x.png"/></body></html>\n' >"$dir/leak.html"
	shoot "$dir/leak.html" leak
	check "... (the watch sees a page that fetches: $(cat "$dir/leak.page-req"))" grep -q 'rooftraj.invalid' "$dir/leak.page-req"
else
	skip "headless Chromium, python3 or gnuplot is not installed"
	skip "headless Chromium, python3 or gnuplot is not installed"
	skip "headless Chromium, python3 or gnuplot is not installed"
	skip "headless Chromium, python3 or gnuplot is not installed"
fi

# the batch sweep against a profile that measured the node at the slowest rate a profile holds
# (its fp32 ceilings at 0.001 GFLOP/s): every configuration above its roof, the page says so
# and why (its undisturbed copy: a configuration a busy machine disturbed is not held against
# a roof, and one slowed a thousandfold still runs above that)
cp -r "$dir/bq" "$dir/above"
awk '/precision = "fp32"/ {
	for (i = 3; i <= NF; i++)
		if ($(i - 1) == "=" && ($(i - 2) == "gflops" || $(i - 2) == "median")) {
			$i = "0.001;"
		}
} { print }' "$prof" >"$dir/slow.cfg"
"$plot" -p "$dir/slow.cfg" "$dir/above" >"$dir/above.out" 2>&1
check "roofline-plot with a profile of a slower moment: exit 0 (got $?)" test $? = 0
ok_n=$("$csvawk" 'NR > 1 && $col["scope"] == "iteration" && $col["stat"] == "median" && $col["status"] == "ok" { k++ } END { print k + 0 }' "$dir/above/points.csv")
check "... report.html: each of the $ok_n configurations above its roof, the page says why" sh -c "
	test $ok_n -gt 0 && test \$(grep -c '% (above its roof)</td>' '$dir/above/report.html') = $ok_n &&
	grep -q '<p>$ok_n configurations\\? ran above \\(their roofs\\|its roof\\): the profile measured this node slower than it ran here' '$dir/above/report.html'"
check "... against the node's own profile, none" sh -c "! grep -q 'above its roof\\|above their roofs' '$dir/b/report.html'"

# the probe's page of a node (one thread count, no oneDNN matmul peaks: the page's sections
# all there, in seconds less)
"$top_builddir/src/roofline-probe" --quick --no-lowp -t 1 --profile-out "$dir/node.cfg" >"$dir/probe.out" 2>&1
check "roofline-probe writes the node's page" sh -c "grep -q 'page:    $dir/node-report.html' '$dir/probe.out' && test -s '$dir/node-report.html'"
if grep -q 'warning: no chart: the profile has no trusted' "$dir/probe.out"; then
	# a machine so busy with other work that every ceiling the chart needs was flagged
	check "... no roofline: the page says why, in the probe's words" grep -q '<p class="note">Not drawn: the profile has no trusted FLOP and bandwidth' "$dir/node-report.html"
elif $have_python; then
	check "... well-formed, its roofline inline" sh -c "! $have_gnuplot || python3 '$checker' html '$dir/node-report.html' roofline"
else
	skip "python3 is not installed"
fi
check "... the ceilings' tables" sh -c "grep -q '<h2>FLOP ceilings</h2>' '$dir/node-report.html' && grep -q '<h2>Bandwidth ceilings</h2>' '$dir/node-report.html'"
echo "1..$n"
