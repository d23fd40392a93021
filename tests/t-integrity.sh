#!/bin/sh
# t-integrity.sh: hostile and careless inputs, end to end. No text reaches gnuplot as code (every
# chart is rendered by a gnuplot that refuses and logs any command: tests/gnuplot-tripwire);
# the quick probe leaves no pinning behind; a results directory is never mixed up with another
# sweep; --resume repairs or refuses; a killed or hung-up sweep takes its child with it; every
# input and destination is checked before anything is measured.
train="$top_builddir/src/roofline-train"
plot="$top_builddir/src/roofline-plot"
probe="$top_builddir/src/roofline-probe"
prof="$top_srcdir/machine-profiles/example-kvm-spr.cfg"
dir=$(mktemp -d "${TMPDIR:-/tmp}/rt-t-integrity.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
. "$top_srcdir/tests/tap.sh"
common="-m lenet5 -n 1 -w 0 -r 1 -c model"
# the tools run here: a payload that ran would leave ./pwned
cd "$dir" || exit 1

# every chart below goes through the tripwire; payloads would also touch $dir/pwned
have_gnuplot=false
if command -v gnuplot >/dev/null 2>&1 && [ -f "$top_builddir/tests/tripwire.so" ]; then
	have_gnuplot=true
	GNUPLOT="$top_srcdir/tests/gnuplot-tripwire"
	RT_TRIPWIRE_SO="$top_builddir/tests/tripwire.so"
	RT_TRIPWIRE_LOG="$dir/tripwire.log"
	export GNUPLOT RT_TRIPWIRE_SO RT_TRIPWIRE_LOG
fi
# a backquote command, a system() call behind a closing quote, a lone quote and a newline (no
# slash in them: they also name files)
bq='`touch pwned`'
sys="'"'"; system("touch pwned") #'
nl='a
b'
nothing_ran() { test ! -e "$dir/pwned" && test ! -s "$dir/tripwire.log"; }
rendered() { # BASE: the chart's script, PNG and SVG are there, no temporary beside them
	test -s "$1.gp" && test -s "$1.png" && test -s "$1.svg" && ! ls "$1".*tmp* >/dev/null 2>&1
}
check_rendered() { # DESCRIPTION BASE: rendered, or a skip without gnuplot
	if $have_gnuplot; then check "$1" rendered "$2"; else skip "gnuplot is not installed"; fi
}

# ---- 1. no string reaches gnuplot as code ----
"$train" $common --profile "$prof" --sweep threads=1 --out "$dir/base" >/dev/null 2>"$dir/base.err"
check "a plain sweep (exit $?)" test -s "$dir/base/points.csv"
if $have_gnuplot; then
	check "its chart renders through the tripwire, which nothing trips" sh -c \
		"test -s '$dir/base/trajectories.png' && test ! -s '$dir/tripwire.log'"
	# the tripwire itself: a script that runs a command is caught
	printf 'x = "`true`"\n' >"$dir/trip.gp"
	"$GNUPLOT" "$dir/trip.gp" >/dev/null 2>&1
	check "the tripwire catches a backquote command" grep -q 'popen(true)' "$dir/tripwire.log"
	rm -f "$dir/tripwire.log"
else
	skip "gnuplot is not installed"
	skip "gnuplot is not installed"
fi

# a results directory named with each payload, alone and overlaid with another
for name in "$bq" "$sys" "$nl" "it's"; do
	rd="$dir/r-$name"
	mkdir -p "$rd" && cp "$dir/base/points.csv" "$dir/base/run.cfg" "$rd/"
	"$plot" -p "$prof" "$rd" >"$dir/p.out" 2>"$dir/p.err"
	rc=$?
	what="a results directory named $(echo "$name" | head -c 12 | tr '\n' ' ')..."
	if $have_gnuplot; then
		check "$what: charted (exit $rc)" sh -c 'test "$1" = 0 && test -s "$2/trajectories.png"' sh "$rc" "$rd"
	else
		check "$what: the script written (exit $rc)" test "$rc" = 0
	fi
	"$plot" -p "$prof" --overlay "$dir/overlay" "$rd" "$dir/base" >/dev/null 2>&1
	rc=$?
	check "... overlaid with another (exit $rc)" test "$rc" = 0 -a -s "$dir/overlay.gp"
	check "... nothing ran" nothing_ran
done

# an affinity field carrying a payload: refused with its line, nothing drawn
mkdir -p "$dir/aff" && cp "$dir/base/run.cfg" "$dir/aff/"
awk -F, -v OFS=, -v p="$bq" 'NR == 2 { $4 = p } { print }' "$dir/base/points.csv" >"$dir/aff/points.csv"
"$plot" -p "$prof" "$dir/aff" >/dev/null 2>"$dir/aff.err"
check "a payload in the affinity column: exit 1 (got $?)" test $? = 1
check "... the message names the file, the line and the column" grep -q "aff/points.csv:2: affinity '.*' is not a known value" "$dir/aff.err"
check "... no chart, nothing ran" sh -c "test ! -e '$dir/aff/trajectories.gp'" && nothing_ran

# a profile whose strings carry the payloads (host, CPU model, an ISA, a oneDNN implementation)
hostile="$dir/hostile.cfg"
cfg_escape() { printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g'; }
H_HOST="node\\n$(cfg_escape "$bq")" H_MODEL=$(cfg_escape "$sys") H_ISA="avx512'$(cfg_escape "$bq")" \
awk 'function rep(line, old, new,   i) {
	i = index(line, old)
	return i ? substr(line, 1, i - 1) new substr(line, i + length(old)) : line
     }
     { $0 = rep($0, "host = \"example-kvm-spr\";", "host = \"" ENVIRON["H_HOST"] "\";")
       $0 = rep($0, "model = \"Intel(R) Xeon(R) Processor\";", "model = \"" ENVIRON["H_MODEL"] "\";")
       if (!isa_done && index($0, "isa = \"avx512\";")) {
	       $0 = rep($0, "isa = \"avx512\";", "isa = \"" ENVIRON["H_ISA"] "\";"); isa_done = 1 }
       print }' "$prof" >"$hostile"
check "the hostile profile is a valid profile (host with a newline, quotes, backquotes)" \
	"$plot" -p "$hostile" --overlay "$dir/hp" "$dir/base"
check_rendered "roofline-plot -p hostile: rendered" "$dir/hp"
check "... nothing ran" nothing_ran
"$train" $common --profile "$hostile" --sweep threads=1 --out "$dir/ht" >/dev/null 2>"$dir/ht.err"
check "roofline-train --sweep --profile hostile: exit 0 (got $?)" test $? = 0
check "... nothing ran" nothing_ran

# a model file whose name carries a payload (it titles the chart)
mf="$dir/m$bq'.cfg"
cp "$top_srcdir/cnn/models/lenet5.cfg" "$mf"
"$train" -m "$mf" -n 1 -w 0 -r 1 -c model --profile "$prof" --sweep threads=1 --out "$dir/mf" \
	>/dev/null 2>"$dir/mf.err"
check "a model file named with a payload: exit 0 (got $?)" test $? = 0
check "... nothing ran" nothing_ran

# a checkout whose machine-profiles/HOST.cfg is hostile, used by default
mkdir -p "$dir/co/machine-profiles"
cp "$hostile" "$dir/co/machine-profiles/$(hostname).cfg"
(cd "$dir/co" && "$train" $common --sweep threads=1 --out r >/dev/null 2>"$dir/co.err")
check "the default profile of a checkout is hostile: exit 0 (got $?)" test $? = 0
check_rendered "... rendered" "$dir/co/r/trajectories"
check "... nothing ran" nothing_ran

# a quote in --out, and the probe's chart of a host named with a payload
"$train" $common --profile "$prof" --sweep threads=1 --out "$dir/it's" >/dev/null 2>"$dir/q.err"
check "--out \"it's\": exit 0 (got $?)" test $? = 0
check_rendered "... its chart rendered" "$dir/it's/trajectories"
"$probe" --quick --no-curve --no-lowp -t 1 --host "n$bq'x" --profile-out "$dir/probe.cfg" >/dev/null 2>"$dir/probe.err"
check "roofline-probe --host with a payload: refused, exit 2 (got $?)" grep -q "^roofline-probe: --host: .* is not a host name" "$dir/probe.err"
check "... nothing ran, nothing written" sh -c "test ! -e '$dir/probe.cfg'" && nothing_ran
"$probe" --quick --host .. >/dev/null 2>"$dir/dotdot.err"
check "--host ..: refused (exit $?)" grep -q "^roofline-probe: --host: '\.\.' is not a host name" "$dir/dotdot.err"
# a host whose own name is hostile (a UTS namespace: root): the profile named by a safe
# mapping of it under machine-profiles/, nothing written elsewhere, the name itself recorded
# and charted (through the tripwire), nothing run
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
	mkdir -p "$dir/uts/a/b/c"
	(cd "$dir/uts/a/b/c" && unshare --uts sh -c "printf '%s' \"../../../x\$1\" >/proc/sys/kernel/hostname && exec \"\$2\" --quick --no-curve --no-lowp -t 1" sh "$bq'" "$probe") \
		>"$dir/uts.out" 2>"$dir/uts.err"
	rc=$?
	[ $rc = 0 ] || sed 's/^/# /' "$dir/uts.err"
	check "a host named '../../../x\`...\`': the probe exits 0 (got $rc)" test $rc = 0
	check "... its profile is machine-profiles/ + a safe name, said in a note" sh -c "
		ls '$dir/uts/a/b/c/machine-profiles/' | grep -qxF '_._.._.._x_touch_pwned__.cfg' &&
		grep -q 'note: the host name is not a safe file name' '$dir/uts.err'"
	check "... nothing written outside the directory it ran in" sh -c "
		test -z \"\$(find '$dir/uts' -newer '$dir/uts.out' -o -type f ! -path '*/a/b/c/*' | grep -v '^$dir/uts/a/b/c')\""
	check "... the host's real name recorded in the profile" grep -q 'host = "\.\./\.\./\.\./x`touch pwned`'"'"'";' "$dir/uts/a/b/c/machine-profiles/_._.._.._x_touch_pwned__.cfg"
	# (another process on the cores can leave no trusted ceiling: then no chart, and the
	# probe says so; on a quiet machine there is always one)
	if grep -q 'warning: no chart: ' "$dir/uts.err"; then
		skip "no chart: every ceiling the probe could draw was flagged by a busy machine"
	else
		check_rendered "... its chart rendered" "$dir/uts/a/b/c/machine-profiles/_._.._.._x_touch_pwned__-roofline"
	fi
	check "... nothing ran" nothing_ran
else
	skip "a hostile host name needs root (a UTS namespace)"
fi

# a failed re-render keeps the good chart: gnuplot that fails (GNUPLOT=false)
cp "$dir/base/trajectories.gp" "$dir/good.gp"
GNUPLOT=false "$plot" -p "$prof" "$dir/base" >/dev/null 2>"$dir/fail.err"
check "a failing gnuplot: exit 1 (got $?)" test $? = 1
check "... says gnuplot failed and that the previous chart is kept" grep -q "gnuplot failed on .*previous chart is kept" "$dir/fail.err"
check "... the previous script is untouched" cmp -s "$dir/good.gp" "$dir/base/trajectories.gp"
check "... no temporary left" sh -c "! ls '$dir/base/'*.tmp* >/dev/null 2>&1"

# ---- 2. the quick probe pins nothing it leaves behind ----
mkdir -p "$dir/qp"
want=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status)
(cd "$dir/qp" && exec "$train" -m lenet5 -n 2000 -w 1 -r 1 -c model --sweep threads=1 \
	--out r1 >r1.out 2>r1.err) &
pid=$!
# (any moment of the child's life counts: its topology is found without a change of binding,
# where hwloc's x86 backend pinned it to each CPU in turn, and a reading then read "0"; a
# reading counts only while the process is still the configuration's child: its parent and
# command line checked after the read)
got=
for k in $(seq 600); do
	for s in $(pgrep -P $pid); do
		for child in $(pgrep -P "$s" -f emit-points); do
			st=$(cat "/proc/$child/status" 2>/dev/null)
			grep -q -e --emit-points "/proc/$child/cmdline" 2>/dev/null &&
				[ "$(awk '/^PPid/ { print $2 }' "/proc/$child/status" 2>/dev/null)" = "$s" ] &&
				got=$(echo "$st" | awk '/^Cpus_allowed_list/ { print $2 }')
			[ -n "$got" ] && break 3
		done
	done
	sleep 0.05
done
kill -TERM $pid 2>/dev/null
wait $pid
check "after the quick probe, a configuration's child may use the parent's CPUs ($got, want $want)" test "$got" = "$want"
check "the quick probe wrote this host's profile" test -s "$dir/qp/machine-profiles/$(hostname).cfg"
ncpu=$(nproc)
if [ "$ncpu" -ge 2 ] && ! ldd "$train" 2>/dev/null | grep -q libasan; then
	# the first run probes (quick), the second reads the saved profile: the same speed
	rm -rf "$dir/qp/machine-profiles"
	(cd "$dir/qp" && "$train" -m lenet5 -n 60 -w 2 -r 3 -c model --sweep threads=$ncpu --out a >/dev/null 2>&1)
	(cd "$dir/qp" && "$train" -m lenet5 -n 60 -w 2 -r 3 -c model --sweep threads=$ncpu --out b >/dev/null 2>&1)
	ia=$("$csvawk" '$7 == "iteration" && $9 == "median" && $23 == "ok" { print $16; exit }' "$dir/qp/a/points.csv")
	ib=$("$csvawk" '$7 == "iteration" && $9 == "median" && $23 == "ok" { print $16; exit }' "$dir/qp/b/points.csv")
	if [ -n "$ia" ] && [ -n "$ib" ]; then
		check "the run that probed first ($ia images/s) and the next ($ib) agree within 2x" \
			awk -v a="$ia" -v b="$ib" 'BEGIN { exit !(a > 0 && b > 0 && a / b > 0.5 && a / b < 2) }'
	else
		# a busy machine: speeds compare only when both runs got their cores
		check "the run that probed first and the next: both measured (one disturbed: not compared)" \
			sh -c "grep -q ',iteration,median,' '$dir/qp/a/points.csv' && grep -q ',iteration,median,' '$dir/qp/b/points.csv'"
	fi
else
	skip "one CPU, or a sanitizer build: speeds say nothing"
fi

# a busy machine: a process spinning on the last CPU while the quick probe runs. The 1-thread
# ceilings (first CPU) are clean; those that share the busy CPU are measured twice, then flagged
# with a warning that names the cause, and never used as roofs
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null 2>&1; then
	last=$(($(nproc) - 1))
	taskset -c $last sh -c 'while :; do :; done' &
	spin=$!
	# until it has spun for 0.2 s of CPU time (20 ticks): the probe's first look sees it
	for k in $(seq 600); do
		[ "$(awk '{ print $14 }' /proc/$spin/stat 2>/dev/null || echo 0)" -ge 20 ] && break
		sleep 0.05
	done
	"$probe" --quick --no-curve --no-lowp -t 1,$(nproc) --profile-out "$dir/busy.cfg" >"$dir/busy.out" 2>"$dir/busy.err"
	rc=$?
	kill $spin
	check "a busy machine: the probe still ends (exit $rc)" test "$rc" = 0
	check "... says the CPU was busy before it started" grep -q "CPU $last was [0-9]*% busy with other work" "$dir/busy.err"
	check "... flags the ceilings measured on it, naming the cause" grep -q "at $(nproc) threads .* is flagged: busy: measured twice" "$dir/busy.err"
	check "... the profile records the flags" grep -q 'threads = '"$(nproc)"';.*flag = "busy' "$dir/busy.cfg"
	# the spinner is the busiest other process allowed on those CPUs: named, with its pid
	# (or three busier on those CPUs, said: a machine busy with other work)
	named_busiest "... and names the spinning process (sh, pid $spin)" "$(grep "flagged: busy: measured twice.*the busiest allowed there: .*sh, pid $spin, " "$dir/busy.err" | head -n 1)
$(grep -m 1 "at $(nproc) threads .*flagged: busy: measured twice.*the busiest allowed there: " "$dir/busy.err")" "$spin"
	# the free CPU's 1-thread ceilings are not called busy (other load on the machine may
	# flag one: never as many as share the spinning CPU), unless the probe saw that CPU
	# busy before it started too (then its flags are right)
	if grep -q "CPU 0 was [0-9]*% busy" "$dir/busy.err"; then
		skip "CPU 0 was busy with other work too"
	else
	check "... and the 1-thread ceilings, measured on a free CPU, are not (fewer flagged: $(grep -c 'threads = 1;.*flag = "busy' "$dir/busy.cfg") against $(grep -c 'threads = '"$(nproc)"';.*flag = "busy' "$dir/busy.cfg"))" \
		test "$(grep -c 'threads = 1;.*flag = "busy' "$dir/busy.cfg")" -lt "$(grep -c 'threads = '"$(nproc)"';.*flag = "busy' "$dir/busy.cfg")"
	fi
	check "... the table marks them" grep -q '[0-9]!' "$dir/busy.out"
else
	for k in 1 2 3 4 5 6; do skip "one CPU: nothing to share"; done
fi

# ---- 3. results that cannot be mixed up ----
"$train" -m convnet -n 1 -w 0 -r 1 -c model --profile "$prof" --sweep threads=1 --out "$dir/base" \
	>/dev/null 2>"$dir/mix.err"
check "--out holding another model's sweep: exit 1 (got $?)" test $? = 1
check "... names what differs" grep -q "holds another sweep (model: '.*lenet5.cfg' there, '.*convnet.cfg' asked" "$dir/mix.err"
check "... its points untouched" cmp -s "$dir/base/points.csv" "$dir/r-it's/points.csv"
"$train" $common --profile "$prof" --sweep threads=1 --sweep batch=8 --out "$dir/base" >/dev/null 2>"$dir/mix2.err"
check "--out with other knobs: exit 1, the knobs named" grep -q "sweep: 'threads=1' there, 'threads=1 batch=8' asked" "$dir/mix2.err"

# --resume takes the request from run.cfg: an interrupted 3-configuration sweep
"$train" $common --profile "$prof" --sweep batch=4,8 --out "$dir/res" >/dev/null 2>&1
head -n 19 "$dir/res/points.csv" >"$dir/keep" && cp "$dir/keep" "$dir/res/points.csv"
"$train" --resume "$dir/res" -v >"$dir/res.out" 2>"$dir/res.err"
check "--resume with no other option: exit 0 (got $?)" test $? = 0
check "... the grid from run.cfg: 3 configurations" "$csvawk" 'NR > 1 { k[$1] } END { exit length(k) != 3 }' "$dir/res/points.csv"
check "... skipped what was measured" grep -q "measured before (resumed)" "$dir/res.err"
"$train" --resume "$dir/res" -m convnet >/dev/null 2>"$dir/res2.err"
check "--resume with a different model: exit 1, named" grep -q "model: .*there, .*asked" "$dir/res2.err"
"$train" --resume "$dir/nowhere" >/dev/null 2>"$dir/res3.err"
check "--resume on a missing directory: exit 1 (got $?)" test $? = 1
check "... says there is nothing to resume" grep -q "nowhere: nothing to resume" "$dir/res3.err"
check "... and creates nothing" test ! -e "$dir/nowhere"

# a failed configuration is retried, unless --no-retry
awk -F, -v OFS=, 'NR == 1 || $1 != "t'"$(nproc)"'-b4-none" { print }' "$dir/res/points.csv" >"$dir/keep"
printf 't%s-b4-none,%s,4,none,fp32,1,iteration,iteration,median,0,0,0,,0,0,0,0,0,0,0,0,0,failed,exit 1: boom,,0,0,,,,,,,,,,,,,,,,,,,\n' \
	"$(nproc)" "$(nproc)" >>"$dir/keep"
cp "$dir/keep" "$dir/res/points.csv"
"$train" --resume "$dir/res" --no-retry >/dev/null 2>&1
check "--no-retry keeps the failed row" grep -q ',failed,exit 1: boom,' "$dir/res/points.csv"
"$train" --resume "$dir/res" >/dev/null 2>"$dir/retry.err"
check "--resume retries it: exit 0 (got $?)" test $? = 0
check "... says so" grep -q "1 failed configuration measured again" "$dir/retry.err"
check "... and the row is gone, the configuration measured" sh -c "! grep -q ',failed,' '$dir/res/points.csv' && grep -q '^t$(nproc)-b4-none,.*,\(ok\|disturbed\),' '$dir/res/points.csv'"

# a last line cut short (no newline): repaired before training, the file reads afterwards
head -n 26 "$dir/res/points.csv" >"$dir/keep" && printf 't%s-b8-none,%s,8,no' "$(nproc)" "$(nproc)" >>"$dir/keep"
cp "$dir/keep" "$dir/res/points.csv"
"$train" --resume "$dir/res" >/dev/null 2>"$dir/cut.err"
check "--resume after a cut last line: exit 0 (got $?)" test $? = 0
check "... says which configuration is measured again" grep -q "cut short while written: configuration 't$(nproc)-b8-none'" "$dir/cut.err"
check "... every configuration whole (18 rows each)" "$csvawk" 'NR > 1 { if (NF != 46) exit 1; k[$1]++ } END { for (c in k) if (k[c] != 18) exit 1; exit length(k) != 3 }' "$dir/res/points.csv"
check "... and roofline-plot reads it" "$plot" -p "$prof" --overlay "$dir/cutplot" "$dir/res"

# a model of 1,403 layers, one named with a quote and a comma: every layer's rows kept (more
# than 4,096 per configuration), the name read back whole, the per-layer chart drawn
{
	echo 'model = { name = "deep"; input = [ 1, 8, 8 ]; classes = 10; batch = 4; layers = ('
	echo '{ type = "fc"; name = "fc\"in,put"; outputs = 16; },'
	k=0
	while [ $k -lt 1400 ]; do k=$((k + 1)); echo "{ type = \"relu\"; name = \"r$k\"; },"; done
	echo '{ type = "fc"; name = "fc_out"; outputs = 10; }, { type = "softmax_xent"; name = "loss"; } ); };'
} >"$dir/deep.cfg"
"$train" -m "$dir/deep.cfg" -n 1 -w 0 -r 1 -c model --profile "$prof" --sweep threads=1 --per-layer \
	--out "$dir/deep" >/dev/null 2>"$dir/deep.err"
check "1,403 layers per configuration: exit 0 (got $?)" test $? = 0
check "... 3 rows of each layer in each configuration" "$csvawk" '$7 == "layer" { k[$1]++ } END { for (c in k) if (k[c] != 3 * 1403) exit 1; exit length(k) < 1 }' "$dir/deep/points.csv"
check "... the last layers too" sh -c "grep -q ',layer,fc_out,median,' '$dir/deep/points.csv' && grep -q ',layer,loss,median,' '$dir/deep/points.csv'"
check "... a name with a quote and a comma, quoted" grep -q ',layer,"fc""in,put",median,' "$dir/deep/points.csv"
check_rendered "... the per-layer chart rendered" "$dir/deep/layers"

# points.csv without run.cfg is not a directory to add to
mkdir -p "$dir/foreign" && cp "$dir/base/points.csv" "$dir/foreign/"
"$train" $common --profile "$prof" --sweep threads=1 --out "$dir/foreign" >/dev/null 2>"$dir/for.err"
check "points.csv without run.cfg: refused" grep -q "holds results already (points.csv)" "$dir/for.err"

# ---- 4. a sweep's child dies with it ----
for sig in KILL HUP; do
	"$train" -m lenet5 -n 100000 -w 0 -r 1 -c model --profile "$prof" --sweep threads=1 \
		--out "$dir/die-$sig" >/dev/null 2>&1 &
	pid=$!
	child=$(sweep_child $pid)
	kill -$sig $pid
	wait $pid 2>/dev/null
	gone=no
	for k in $(seq 100); do
		kill -0 "$child" 2>/dev/null || { gone=yes; break; }
		sleep 0.05
	done
	check "the sweep's parent killed by SIG$sig: its child ($child) is gone within 5 s" test -n "$child" -a "$gone" = yes
done

# SIGINT while the charts render: exit 130 and the resume hint (a gnuplot that takes its time)
if $have_gnuplot; then
	printf '#!/bin/sh\nsleep 30\nexec gnuplot "$@"\n' >"$dir/slowplot" && chmod +x "$dir/slowplot"
	GNUPLOT="$dir/slowplot" "$train" $common --profile "$prof" --sweep threads=1 --out "$dir/slow" \
		>/dev/null 2>"$dir/slow.err" &
	pid=$!
	for k in $(seq 600); do
		pgrep -f "$dir/slowplot" >/dev/null && break
		sleep 0.05
	done
	kill -INT $pid
	wait $pid
	rc=$?
	check "SIGINT while the charts render: exit 130 (got $rc)" test "$rc" = 130
	check "... with the resume hint" grep -q "interrupted while the charts were drawn.*--resume" "$dir/slow.err"
	check "... and gnuplot is gone" sh -c "! pgrep -f '^/bin/sh $dir/slowplot'"
	"$train" --resume "$dir/slow" >/dev/null 2>&1
	check "--resume then draws them" rendered "$dir/slow/trajectories"
else
	for k in 1 2 3 4; do skip "gnuplot is not installed"; done
fi

# ---- 5. every input and destination before anything is measured ----
"$train" $common --profile "$prof" --sweep threads=1 --data mnist:/nonexistent --out "$dir/bd" \
	>/dev/null 2>"$dir/bd.err"
check "a sweep with bad --data: exit 1 before anything runs" sh -c "grep -q 'MNIST\|/nonexistent' '$dir/bd.err' && test ! -e '$dir/bd'"
mkdir -p "$dir/hd/machine-profiles/$(hostname).cfg"
(cd "$dir/hd" && "$train" $common --sweep threads=1 --out r >/dev/null 2>"$dir/hd.err")
check "machine-profiles/HOST.cfg that is a directory: exit 1 (got $?)" test $? = 1
check "... named, nothing measured" sh -c "grep -q 'HOST.cfg\|$(hostname).cfg: not a regular file (a directory)' '$dir/hd.err' && test ! -e '$dir/hd/r'"
# a read-only current directory (root ignores permissions: a read-only mount)
if unshare -m true 2>/dev/null; then
	mkdir -p "$dir/ro"
	unshare -m sh -c "mount -t tmpfs -o ro tmpfs '$dir/ro' && cd '$dir/ro' && exec '$train' $common --sweep threads=1" \
		>/dev/null 2>"$dir/ro.err"
	rc=$?
	check "a read-only current directory: exit 1 (got $rc)" test "$rc" = 1
	check "... said before measuring (no probe ran)" sh -c "grep -q 'Read-only file system' '$dir/ro.err' && ! grep -q 'running roofline-probe' '$dir/ro.err'"
else
	skip "unshare -m is not permitted here"
	skip "unshare -m is not permitted here"
fi
echo "1..$n"
