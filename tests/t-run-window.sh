#!/bin/sh
# t-run-window.sh: roofline-run's work window, throughput forms and advice from the roof. The
# window: from oneDNN's timestamps (a command that stamps its lines with its own clock, the
# stamps it used written down: the window is theirs, to the microsecond) or from when the lines
# came (a saved log replayed), always start-up + window <= wall; a live PyTorch 1.13 training.
# Throughput: tqdm's it/s and s/it on stderr with --batch, --throughput REGEX, the steady
# state (the median after the first figure), stderr passed through byte for byte. Advice on the
# PyTorch 2.11 fixtures: the reorders' share and layouts counted again here from the log, the
# channels_last cure for the fp32 log and not for the channels_last one, bf16 only on a CPU
# with it (its identity given by ROOFTRAJ_SYSROOT), primitives under the roof with a profile.
# Nothing here depends on the machine's speed, load or CPU.
. "$top_srcdir/tests/tap.sh"
dir=$(mktemp -d "${TMPDIR:-/tmp}/rt-t-run-window.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
run="$top_builddir/src/roofline-run"
fix="$top_srcdir/tests/data/pytorch-2.11"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
py=python3
command -v python3 >/dev/null 2>&1 || py=/usr/bin/python3
# a saved log replayed by a Python program (the command's first word: PyTorch's cures named)
replay="import sys; sys.stdout.write(open(sys.argv[1]).read())"

# the run row of points.csv (scope run, name command, REP): startup, window, wall, images/s
run_row() {
	"$csvawk" -v r="${2:-1}" '$col["scope"] == "run" && $col["name"] == "command" && $col["rep"] == r { print $col["startup_seconds"], $col["window_seconds"], $col["wall_seconds"], $col["images_per_s"]; exit }' "$1"
}
# start-up >= 0, window >= 0, start-up + window <= wall (all three given)
within_wall() {
	echo "$1" | awk '{ exit !($1 != "" && $2 != "" && $1 >= 0 && $2 >= 0 && $1 + $2 <= $3) }'
}

# --- the window by oneDNN's timestamps: a command that stamps each execution with its own
# clock (gettimeofday's, as oneDNN does: the start, printed after the execution) and writes
# the stamps down
cat >"$dir/stamped.py" <<'EOF'
import sys, time
hdr = "onednn_verbose,info,prim_template:timestamp,operation,engine,primitive,implementation,prop_kind,memory_descriptors,attributes,auxiliary,problem_desc,exec_time"
conv = "exec,cpu,convolution,jit:avx512_core,forward_training,src_f32::blocked:abcd:f0 wei_f32::blocked:Acdb16a:f0 bia_f32::blocked:a:f0 dst_f32::blocked:aBcd16b:f0,attr-scratchpad:user ,alg:convolution_direct,mb16_ic3oc16_ih32oh32kh5sh1dh0ph2_iw32ow32kw5sw1dw0pw2"
print("onednn_verbose,info,oneDNN v2.6.3 (commit N/A)")
print(hdr)
ms = 0.001
stamps = []
for i in range(4):
    sum(range(20000))                       # work between the executions
    start = time.time() * 1e3 - ms          # it began ms before it is printed
    stamps.append(start)
    print("onednn_verbose,%.6f,%s,%g" % (start, conv, ms), flush=True)
print("images/s 100", flush=True)
with open(sys.argv[1], "a") as f:        # a line per process: a run measured again adds one
    f.write("%.6f %.6f\n" % (stamps[0], stamps[-1] + ms))
EOF
"$run" -o "$dir/st" -r 1 --no-overhead --no-hw-counters -- "$py" "$dir/stamped.py" "$dir/stamps.txt" >"$dir/st.out" 2>"$dir/st.err"
rc=$?
check "a stamped log: exit 0 (got $rc)" test $rc = 0
row=$(run_row "$dir/st/points.csv")
check "... start-up >= 0, window >= 0, start-up + window <= wall ($row)" within_wall "$row"
# (a run other work disturbed is measured again: its row is one of the processes' stamps)
check "... the window is the stamps' (last start + its time - first start, to a microsecond; $(wc -l <"$dir/stamps.txt") process(es))" sh -c "
	awk -v w=\$(echo '$row' | cut -d' ' -f2) '{ d = (\$2 - \$1) / 1e3 - w; if (d < 0) d = -d; if (d < 1e-6) hit = 1 } END { exit !hit }' '$dir/stamps.txt'"
check "... said to be by oneDNN's timestamps" grep -q "^work window: the default's first oneDNN primitive started [0-9.]* s after the command did (start-up), its last ended [0-9.]* s later (the window, by oneDNN's timestamps)" "$dir/st/summary.txt"
check "... the stamped lines counted (4 convolutions)" has_row "$dir/st/points.csv" config=default rep=1 scope=kind 'name=convolution forward_training' kind=convolution prop=forward_training dtype=f32 precision=fp32 impl= calls=4

grep '^work window: ' "$dir/st/summary.txt" >"$dir/st-window.txt"
"$run" --resume "$dir/st" >"$dir/st-res.out" 2>&1
check "... read back by --resume: the same window, by the same clock" sh -c "test -s '$dir/st-window.txt' && grep -qxF -f '$dir/st-window.txt' '$dir/st-res.out'"

# --- a saved log replayed: no timestamps, the window by when its lines came
"$run" -o "$dir/fp32" -r 1 --no-overhead --no-hw-counters -- "$py" -c "$replay" "$fix/pt211-fp32.log" >"$dir/fp32.out" 2>"$dir/fp32.err"
rc=$?
check "the fp32 fixture replayed: exit 0 (got $rc)" test $rc = 0
row=$(run_row "$dir/fp32/points.csv")
check "... start-up >= 0, window >= 0, start-up + window <= wall ($row)" within_wall "$row"
check "... the window said to be by when the lines came" grep -q "(the window, by when its lines came: oneDNN printed no timestamps)" "$dir/fp32/summary.txt"
check "... the table's start-up and window columns" grep -q '^default  *[0-9.]* ([0-9.]*\.\.[0-9.]*) .* [0-9.]*  *[0-9.]* ([0-9.]*\.\.[0-9.]*)  *\([0-9]*%\|-\)$' "$dir/fp32/summary.txt"

# a log whose times sum more than any window can hold (3 x 1000 s): no share of it said
c3="onednn_verbose,exec,cpu,reorder,jit:uni,undef,src_f32::blocked:abcd:f0 dst_f32::blocked:aBcd16b:f0,,,16x16x32x32,1000000"
"$run" -o "$dir/past" -r 1 --no-overhead --no-hw-counters -- sh -c "echo '$c3'; echo '$c3'; echo '$c3'" >/dev/null 2>&1
check "times past the window: no share of it said" sh -c "grep -q \"; oneDNN's times sum 3000.000 s, more than the window: primitives at once, or a log replayed; \" '$dir/past/summary.txt' && ! grep -q '[0-9][0-9][0-9][0-9]%' '$dir/past/summary.txt'"
# the reorders' share counted again here from the log: their ms over all executions' ms
want=$(awk -F, '$3 == "primitive" && $4 == "exec" { t += $NF; if ($6 == "reorder") r += $NF }
	END { printf "%.0f%% of oneDNN'"'"'s time (%.3f of %.3f ms", 100 * r / t, r, t }' "$fix/pt211-fp32.log")
check "advice: the reorders' share as the log has it ($want)" grep -qF "  reorders: $want" "$dir/fp32/summary.txt"
conv=$(awk -F, '$3 == "primitive" && $4 == "exec" && $6 == "reorder" && $9 ~ /blocked:abcd:/ && $9 ~ /dst:f32::blocked:aBcd16b:/ { n++ }
	END { print n + 0 }' "$fix/pt211-fp32.log")
check "... the layouts converted, abcd -> aBcd16b among them ($conv calls)" grep -q "  reorders: .*abcd -> aBcd16b ([0-9.]* ms, $conv calls)" "$dir/fp32/summary.txt"
act=$(awk -F, '$3 == "primitive" && $4 == "exec" && $6 == "reorder" {
		split($9, m, " "); s = m[1]; d = m[2]; sub(/.*blocked:/, "", s); sub(/:.*/, "", s); sub(/.*blocked:/, "", d); sub(/:.*/, "", d)
		if ((s == "abcd" && d ~ /^aBcd[0-9]+b$/) || (d == "abcd" && s ~ /^aBcd[0-9]+b$/)) n++
		# NHWC: the one conversion to it is of the destination of the 1x1 convolution (mb16
		# oc32 8x8: the gradient its brgconv_strided backward_data takes in acdb)
		if (s == "abcd" && d == "acdb" && $(NF - 1) == "16x32x8x8") n++ }
	END { print n + 0 }' "$fix/pt211-fp32.log")
check "... activations NCHW <-> blocked or NHWC ($act calls) with PyTorch's channels_last cure" grep -q "  layouts: [0-9]*% of oneDNN's time ([0-9.]* ms, $act calls) converts activations between plain abcd (NCHW) and oneDNN's blocked aBcd16b; PyTorch's cure: channels_last" "$dir/fp32/summary.txt"
check "... and on report.html" grep -q 'PyTorch&#39;s cure: channels_last' "$dir/fp32/report.html"
rm -f "$dir/fp32/report.html"
"$top_builddir/src/roofline-plot" -p "$top_srcdir/tests/data/emr16/emr16.cfg" "$dir/fp32" >/dev/null 2>&1
check "... and on the page roofline-plot draws again (the advice read back from summary.txt)" grep -q 'PyTorch&#39;s cure: channels_last' "$dir/fp32/report.html"
check "... the verdict still first on it" grep -q '<p class="big">\(one configuration: \|every configuration was disturbed\)' "$dir/fp32/report.html"
check "... no primitive called under its roof without a profile" sh -c "! grep -q 'under the roof:' '$dir/fp32/summary.txt'"

"$run" -o "$dir/cl" -r 1 --no-overhead --no-hw-counters -- "$py" -c "$replay" "$fix/pt211-cl.log" >"$dir/cl.out" 2>&1
check "the channels_last fixture: no channels_last advice (its activations are not converted)" sh -c "test -s '$dir/cl/summary.txt' && ! grep -q 'channels_last\|^  layouts:' '$dir/cl/summary.txt'"

# bf16 advice only on a CPU that has bf16 instructions: the same log on two identities
identity_tree "$dir/nobf16" AuthenticAMD 25 17
identity_tree "$dir/bf16" AuthenticAMD 25 17
sed -i 's/^flags.*/& avx512f avx512_bf16/' "$dir/bf16/proc/cpuinfo"
ROOFTRAJ_SYSROOT="$dir/bf16" "$run" -o "$dir/b1" -r 1 --no-overhead --no-hw-counters -- "$py" -c "$replay" "$fix/pt211-fp32.log" >/dev/null 2>&1
ROOFTRAJ_SYSROOT="$dir/nobf16" "$run" -o "$dir/b0" -r 1 --no-overhead --no-hw-counters -- "$py" -c "$replay" "$fix/pt211-fp32.log" >/dev/null 2>&1
fp32ms=$(awk -F, '$3 == "primitive" && $4 == "exec" { t += $NF; if ($6 ~ /^(convolution|inner_product|matmul)$/ && $9 ~ /^src:f32/) f += $NF }
	END { printf "%.0f", 100 * f / t }' "$fix/pt211-fp32.log")
check "precision: a CPU with avx512_bf16: bf16 named, with the fp32 math's share ($fp32ms%)" grep -q "^  precision: $fp32ms% of oneDNN's time is fp32 math on f32 tensors and this CPU has avx512_bf16: .*ONEDNN_DEFAULT_FPMATH_MODE=BF16.*torch.autocast" "$dir/b1/summary.txt"
check "... a CPU without bf16 instructions: no precision advice" sh -c "test -s '$dir/b0/summary.txt' && ! grep -q '^  precision:' '$dir/b0/summary.txt'"
# the same log in a configuration that set the mode: the log shows it on none of the work
ROOFTRAJ_SYSROOT="$dir/bf16" "$run" -o "$dir/b2" -r 1 --no-overhead --no-hw-counters --sweep fpmath=bf16 -- "$py" -c "$replay" "$fix/pt211-fp32.log" >/dev/null 2>&1
check "... --sweep fpmath=bf16 whose log shows no mode: said, not a recommendation to measure it" grep -q "^  precision: $fp32ms% of oneDNN's time is fp32 math .*; this run's configuration fpmath=bf16 set a lower fpmath mode, and its log shows it on none of this work: oneDNN ran without it .*torch.autocast" "$dir/b2/summary.txt"
ROOFTRAJ_SYSROOT="$dir/bf16" "$run" -o "$dir/b3" -r 1 --no-overhead --no-hw-counters --sweep env:DNNL_DEFAULT_FPMATH_MODE=BF16 -- "$py" -c "$replay" "$fix/pt211-fp32.log" >/dev/null 2>&1
check "... the mode set by DNNL_DEFAULT_FPMATH_MODE (oneDNN reads it where ONEDNN_ is not set): the same" grep -q "^  precision: .*; this run's configuration DNNL_DEFAULT_FPMATH_MODE=BF16 set a lower fpmath mode, and its log shows it on none of this work" "$dir/b3/summary.txt"
ROOFTRAJ_SYSROOT="$dir/bf16" "$run" -o "$dir/b4" -r 1 --no-overhead --no-hw-counters --sweep env:ONEDNN_DEFAULT_FPMATH_MODE=strict -- "$py" -c "$replay" "$fix/pt211-fp32.log" >/dev/null 2>&1
check "... strict is no lower mode: the mode recommended, to measure" grep -q "^  precision: .*ONEDNN_DEFAULT_FPMATH_MODE=BF16 lets oneDNN use it.*(measure it: --sweep fpmath=strict,bf16)" "$dir/b4/summary.txt"

# under the roof, with the fixture's own node (its profile): each line with its why
"$run" -o "$dir/roof" -r 1 --no-overhead --no-hw-counters -p "$top_srcdir/tests/data/emr16/emr16.cfg" -- "$py" -c "$replay" "$fix/pt211-fp32.log" >/dev/null 2>&1
check "under the roof (a profile): each line with its why (memory-bound near DRAM's bound, not memory-bound far under it, or little work a thread)" sh -c "
	grep -q '^  under the roof: ' '$dir/roof/summary.txt' &&
	! grep '^  under the roof: ' '$dir/roof/summary.txt' | grep -v ': memory-bound: its intensity [0-9.e+]* FLOP/B is under the ridge \|: not memory-bound either: [0-9]*% of the \|: little work a thread: mb[0-9]* over [0-9]* threads'"
# the arithmetic: DRAM's bound is the intensity times DRAM's bandwidth, the rate under half of
# it (the fixture's 1x1 stride-2 convolutions, an image a thread on 16 threads, run at 11-13
# GFLOP/s, 2% of that bound; they were once called memory-bound)
check "... not memory-bound: its rate under half of what DRAM allows at its intensity, the figures agree" sh -c "
	grep '^  under the roof: .*not memory-bound either' '$dir/roof/summary.txt' | sed 's/.* at \([0-9.e+]*\) GFLOP.s, .*not memory-bound either: \([0-9]*\)% of the \([0-9.e+]*\) GFLOP.s DRAM.s \([0-9.e+]*\) GB.s allow at its intensity \([0-9.e+]*\) FLOP.*/\1 \2 \3 \4 \5/' |
	awk '{ d = \$5 * \$4 - \$3; if (d < 0) d = -d; p = 100 * \$1 / \$3
		if (!(d <= 0.005 * \$3 && \$1 < 0.5 * \$3 && p - \$2 < 0.51 && \$2 - p < 0.51)) bad = 1; n++ }
		END { exit !(n > 0 && !bad) }'"

# --- a live PyTorch 1.13 training: start-up before the first primitive, the window in the wall
tpy=$(torch_python)
if [ -z "$tpy" ]; then
	skip "PyTorch is not installed (python3-torch)"
	skip "PyTorch is not installed (python3-torch)"
else
	"$run" -o "$dir/pt" -r 1 --no-overhead --no-hw-counters -- "$tpy" "$top_srcdir/tests/data/pytorch-cnn.py" 3 16 >"$dir/pt.out" 2>"$dir/pt.err"
	row=$(run_row "$dir/pt/points.csv")
	check "PyTorch 1.13: start-up > 0 (importing torch), window > 0, start-up + window <= wall ($row)" sh -c "
		within_() { echo \"\$1\" | awk '{ exit !(\$1 > 0 && \$2 > 0 && \$1 + \$2 <= \$3) }'; }; within_ '$row'"
	check "... by oneDNN's timestamps (its oneDNN prints them)" grep -q '(the window, by oneDNN.s timestamps)' "$dir/pt/summary.txt"
fi

# --- throughput: tqdm's forms on stderr with --batch, passed through byte for byte
bar=$(printf ' 10%%|#         | 1/10 [00:01<00:09, 2.00it/s]\r 50%%|#####     | 5/10 [00:02<00:02, 4.00it/s]\r100%%|##########| 10/10 [00:03<00:00, 5.00it/s]')
printf '%s\n' "$bar" >"$dir/bar.txt"
"$run" -o "$dir/it" -r 1 --no-overhead --no-hw-counters --batch 8 -- sh -c "cat '$dir/bar.txt' >&2" >"$dir/it.out" 2>"$dir/it.err"
row=$(run_row "$dir/it/points.csv")
check "tqdm's it/s on stderr, --batch 8: the median after the first figure (4, 5: 4.5 it/s) x 8 = 36 images/s ($row)" test "$(echo "$row" | cut -d' ' -f4)" = 36
check "... stderr passed through as it came" grep -qF "$bar" "$dir/it.err"
check "... the figures said" grep -q '^throughput: the command printed 3 figures; its steady state 36 images/s (the median of those after the first)' "$dir/it/summary.txt"
"$run" -o "$dir/spi" -r 1 --no-overhead --no-hw-counters --batch 8 -- sh -c "printf '100%%|##| 3/3 [00:05<00:00,  2.50s/it]\n' >&2" >/dev/null 2>&1
check "tqdm's s/it: 8 images in 2.5 s = 3.2 images/s" test "$(run_row "$dir/spi/points.csv" | cut -d' ' -f4)" = 3.2000000000000002 -o "$(run_row "$dir/spi/points.csv" | cut -d' ' -f4)" = 3.2
"$run" -o "$dir/nob" -r 1 --no-overhead --no-hw-counters -- sh -c "cat '$dir/bar.txt' >&2" >/dev/null 2>&1
check "... without --batch an iteration rate is no images/s" test "$(run_row "$dir/nob/points.csv" | cut -d' ' -f4)" = ""

# --throughput REGEX: any other form; the first group is the number
"$run" -o "$dir/re" -r 1 --no-overhead --no-hw-counters --throughput 'tput=([0-9.]+) ex' -- sh -c 'echo "step 1 tput=100 ex"; echo "step 2 tput=200 ex" >&2; echo "step 3 tput=300 ex"; echo "step 4 tput=250 ex"; echo "images/s 9999"' >"$dir/re.out" 2>&1
check "--throughput REGEX: the median of 200, 300, 250 (the first left out): 250; the built-in forms not read" test "$(run_row "$dir/re/points.csv" | cut -d' ' -f4)" = 250
"$run" -o "$dir/re0" -r 1 --no-overhead --no-hw-counters --throughput 'tput=[0-9]+' -- sh -c 'echo "tput=42"' >/dev/null 2>&1
check "... no group: the whole match must be the number (tput=42 is not)" test "$(run_row "$dir/re0/points.csv" | cut -d' ' -f4)" = ""
check "... run.cfg records --batch and --throughput for --resume" sh -c "grep -q 'batch = 8;' '$dir/it/run.cfg' && grep -qF 'throughput = \"tput=([0-9.]+) ex\";' '$dir/re/run.cfg'"

# bad options: exit 2 naming the option, nothing run
"$run" -o "$dir/bad1" --throughput '(' -- true >"$dir/bad1.out" 2>&1
rc=$?
check "--throughput '(': exit 2 naming the option (got $rc)" sh -c "test $rc = 2 && grep -q \"^roofline-run: --throughput: '(': \" '$dir/bad1.out' && test ! -e '$dir/bad1'"
"$run" -o "$dir/bad2" --batch 0 -- true >"$dir/bad2.out" 2>&1
rc=$?
check "--batch 0: exit 2 naming the option (got $rc)" sh -c "test $rc = 2 && grep -q '^roofline-run: --batch: ' '$dir/bad2.out'"
"$run" --resume "$dir/it" --batch 4 >"$dir/bad3.out" 2>&1
rc=$?
check "--resume with --batch: exit 2, the record's own (got $rc)" sh -c "test $rc = 2 && grep -q 'come from DIR/run.cfg' '$dir/bad3.out'"

# --- configurations compared on the work window
"$run" -o "$dir/sw" -r 1 --no-hw-counters --sweep env:RT_WINDOW_TEST=1,2 -- "$py" "$dir/stamped.py" "$dir/stamps2.txt" >/dev/null 2>&1
# (where something was compared: a busy machine that disturbed every configuration leaves
# nothing to compare, and the summary says that instead)
check "a sweep: compared on the work window" sh -c "grep -q '^compared on the work window' '$dir/sw/summary.txt' || { ! grep -q '^compared on' '$dir/sw/summary.txt' && grep -q '^every configuration was disturbed (other processes took its CPUs): nothing to compare' '$dir/sw/summary.txt'; }"
check "... each logged run's row has its start-up and window, within its wall time" "$csvawk" '$col["scope"] == "run" && $col["name"] == "command" { n++; su = $col["startup_seconds"]; w = $col["window_seconds"]; if (!(su != "" && w != "" && su + w <= $col["wall_seconds"])) bad = 1 } END { exit !(n == 3 && !bad) }' "$dir/sw/points.csv"
check "... a run without the log has none" "$csvawk" '$col["scope"] == "run" && $col["name"] == "command without the log" { n++; if ($col["startup_seconds"] != "" || $col["window_seconds"] != "") bad = 1 } END { exit !(n == 1 && !bad) }' "$dir/sw/points.csv"
# the claim's runs without the log have no window: the command's own throughput decides where
# it prints one. With the log the runs are told apart by oneDNN's timestamps, not by how soon
# the lines arrive: X=1's two reorders start at the same instant (a window of 0.01 ms), the
# default's second starts after a 0.3 s pause. Without the log X=1 prints 200 images/s, the
# default 100 (and the other way round in tn/, no claim).
cat >"$dir/claim.sh" <<'EOF'
stamp() { us=$(($(date +%s%N) / 1000)); printf '%d.%03d' $((us / 1000)) $((us % 1000)); }
r="exec,cpu,reorder,jit:uni,undef,src_f32::blocked:abcd:f0 dst_f32::blocked:aBcd16b:f0,,,16x16x32x32,0.01"
if [ -n "$ONEDNN_VERBOSE" ]; then
	echo "onednn_verbose,info,prim_template:timestamp,operation,engine,primitive,implementation,prop_kind,memory_descriptors,attributes,auxiliary,problem_desc,exec_time"
	t=$(stamp)
	echo "onednn_verbose,$t,$r"
	[ "$X" = 1 ] || { sleep 0.3; t=$(stamp); }
	echo "onednn_verbose,$t,$r"
elif [ "$X" = 1 ]; then
	echo "images/s $1"
else
	echo "images/s $2"
fi
EOF
"$run" -o "$dir/tp" -r 2 --no-overhead --no-hw-counters --sweep env:X=1 -- sh "$dir/claim.sh" 200 100 >/dev/null 2>&1
"$run" -o "$dir/tn" -r 2 --no-overhead --no-hw-counters --sweep env:X=1 -- sh "$dir/claim.sh" 100 200 >/dev/null 2>&1
# a run another process disturbed is left out (or its configuration not compared): the
# sentences below are about undisturbed runs
if grep -q 'disturbed' "$dir/tp/summary.txt" "$dir/tn/summary.txt"; then
	skip "other work on the machine disturbed a run: the claim's sentences differ"
	skip "other work on the machine disturbed a run: the claim's sentences differ"
else
	check "a claim confirmed by the command's own throughput without the log (200 against 100 images/s)" grep -q '^best configuration: X=1, 200.0 images/s (200.0..200.0 over 2 fresh processes) without the log (run in turn, the command.s own throughput); the default 100.0 images/s (100.0..100.0 over 2 fresh processes): speedup 2.00x, outside both ranges; with the log .*(work window: ' "$dir/tp/summary.txt"
	check "... refused where the throughput without the log says the default is faster" grep -q '^no configuration is measurably faster than the default: X=1 ran 100.0 images/s .* without the log (run in turn, the command.s own throughput), the default 200.0 images/s .*; the default as fast or faster; with the log ' "$dir/tn/summary.txt"
fi
check "... read back by roofline-plot (the window's columns read)" "$top_builddir/src/roofline-plot" -p "$top_srcdir/tests/data/emr16/emr16.cfg" "$dir/sw"
echo "1..$n"
