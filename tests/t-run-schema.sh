#!/bin/sh
# t-run-schema.sh: points.csv is one schema, and a results directory of roofline-run written
# before it (tests/data/results-run-28: 28 columns, interrupted at its third configuration)
# is still read, each field by its column's name: roofline-plot DIR draws it again (and a
# 26-column one, before startup_seconds and window_seconds), roofline-run --resume DIR runs
# what it lacks, its header made today's, its rows kept field for field. Every row of a
# command's is checked by the one reader (a oneDNN row that does not read is refused at its
# line and column). A trainer's directory is never read as a command's, nor a command's as a
# trainer's.
. "$top_srcdir/tests/tap.sh"
dir=$(mktemp -d "${TMPDIR:-/tmp}/rt-t-run-schema.XXXXXX") || exit 1
trap '[ -n "$KEEP" ] || rm -rf "$dir"' EXIT
cd "$dir" || exit 1
run="$top_builddir/src/roofline-run"
plot="$top_builddir/src/roofline-plot"
fix="$top_srcdir/tests/data/results-run-28"
# the fixture's run had no profile: roofline-plot is given one
prof="$top_srcdir/tests/data/emr16/emr16.cfg"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
# the fixture ran with no OMP_, DNNL_, ... variable: --resume runs with none either
for v in $(env | sed -n 's/^\(\(OMP\|DNNL\|ONEDNN\|KMP\|GOMP\|MKL\|OPENBLAS\)_[A-Za-z0-9_]*\)=.*/\1/p'); do
	unset "$v"
done

# fields FILE: every row's fields by column name ("CONFIG|SCOPE|NAME|REP|COLUMN=VALUE"), the
# empty ones left out, sorted: two files with the same rows in any columns list alike
fields() {
	"$csvawk" 'NR > 1 { for (k in col) if ($col[k] != "") print $col["config"] "|" $col["scope"] "|" $col["name"] "|" $col["rep"] "|" k "=" $col[k] }' "$1" | sort
}

check "the fixture: 28 columns, the rows of two configurations" sh -c "test \$(head -n 1 '$fix/points.csv' | tr ',' '\\n' | wc -l) = 28 && test $(rows "$fix/points.csv" scope=run name=command) = 4"

# --- roofline-plot DIR on the old directory
cp -R "$fix" "$dir/p28"
"$plot" -p "$prof" "$dir/p28" >"$dir/p28.out" 2>"$dir/p28.err"
rc=$?
check "roofline-plot on a 28-column directory: exit 0 (got $rc: $(tail -n 1 "$dir/p28.err"))" test $rc = 0
check "... its page written again, the configurations in it" sh -c "grep -q '^page:  $dir/p28/report.html' '$dir/p28.out' && grep -q 'threads=1' '$dir/p28/report.html'"
check "... points.csv not rewritten (roofline-plot only draws)" cmp -s "$fix/points.csv" "$dir/p28/points.csv"
# --all-roofs reaches a command's chart as a sweep's: every FLOP ceiling of the profile's
# fp32 at its threads (emr16's scalar, sse, avx2, avx512, oneDNN's), not its peak alone
roofs() { grep -c '^f[0-9]*(x) = x >= ' "$dir/p28/run-roofline.gp"; }
before=$(roofs)
"$plot" --all-roofs -p "$prof" "$dir/p28" >"$dir/p28a.out" 2>"$dir/p28a.err"
rc=$?
check "roofline-plot --all-roofs on a command's directory: exit 0 (got $rc), each fp32 ceiling drawn ($(roofs) roofs, $before without it)" \
	sh -c "test $rc = 0 && test $(roofs) -ge 5 && test $before = 1 && grep -q \"^set label [0-9]* 'fp32 sse \" '$dir/p28/run-roofline.gp'"
cp -R "$fix" "$dir/p26"
sed 's/,[^,]*,[^,]*$//' "$fix/points.csv" >"$dir/p26/points.csv"
"$plot" -p "$prof" "$dir/p26" >"$dir/p26.out" 2>"$dir/p26.err"
rc=$?
check "roofline-plot on a 26-column directory (no start-up, no window): exit 0 (got $rc: $(tail -n 1 "$dir/p26.err"))" sh -c "test $rc = 0 && test \$(head -n 1 '$dir/p26/points.csv' | tr ',' '\\n' | wc -l) = 26"
# a oneDNN row that does not read (its gflops not what its FLOPs and seconds give): every row
# of a command's is checked, not only its run rows, and nothing is drawn or run
cp -R "$fix" "$dir/badprim"
sed -i '6s/,146.75968,/,14.675968,/' "$dir/badprim/points.csv"
"$plot" -p "$prof" "$dir/badprim" >"$dir/badprim.out" 2>&1
rc=$?
check "a command's primitive row with a wrong gflops: roofline-plot refuses it, line and column named (exit $rc)" sh -c "test $rc = 1 && grep -q \"badprim/points.csv:6: gflops '14.676' is not what the row's other columns give (146.76)\" '$dir/badprim.out' && test ! -e '$dir/badprim/run-roofline.gp'"
# without run.cfg naming the tool, the rows' scope tells it
cp -R "$fix" "$dir/norec"
sed -i '/^  program = "roofline-run";$/d' "$dir/norec/run.cfg"
"$plot" -p "$prof" "$dir/norec" >"$dir/norec.out" 2>"$dir/norec.err"
rc=$?
check "... a run.cfg that names no tool: told by its rows' scope (exit $rc)" sh -c "test $rc = 0 && grep -q '^page:  $dir/norec/report.html' '$dir/norec.out'"

# --- roofline-run --resume DIR on it: the third configuration runs
mkdir "$dir/w"
cp "$fix/cmd.sh" "$dir/w/cmd.sh"
cp -R "$fix" "$dir/w/old-run"
# where it ran: this test's directory and program, as if it had run here
sed -i "s|^    cwd = \".*\";\$|    cwd = \"$dir/w\";|; s|^    program = \".*\";\$|    program = \"$dir/w/cmd.sh\";|" "$dir/w/old-run/run.cfg"
(cd "$dir/w" && "$run" --resume old-run >"$dir/res.out" 2>"$dir/res.err")
rc=$?
csv="$dir/w/old-run/points.csv"
check "roofline-run --resume on a 28-column directory: exit 0 (got $rc: $(tail -n 1 "$dir/res.err"))" test $rc = 0
check "... the two finished configurations read back, not run again" sh -c "grep -q '\\[1\\] default: measured before (resumed)' '$dir/res.err' && grep -q '\\[2\\] threads=1: measured before (resumed)' '$dir/res.err' && ! grep -q 'default, run 1' '$dir/res.err'"
check "... the header today's (46 columns), every row of it" "$csvawk" 'NR == 1 { n = NF; if (!("window_seconds" in col) || !("bytes_source" in col)) exit 1 } NF != n { exit 1 } END { exit n != 46 }' "$csv"
fields "$fix/points.csv" >"$dir/old.fields"
head -n "$(wc -l <"$fix/points.csv")" "$csv" >"$dir/kept.csv"
fields "$dir/kept.csv" >"$dir/kept.fields"
check "... the old rows kept, first, each field under its column's name ($(wc -l <"$dir/old.fields") fields)" sh -c "test -s '$dir/old.fields' && cmp -s '$dir/old.fields' '$dir/kept.fields'"
# (ok, or disturbed where other work on the machine took its CPUs: counted all the same)
check "... the third configuration measured: 2 runs ok, with their counts" test "$(rows "$csv" config=threads=2 scope=run name=command 'status~^(ok|disturbed)$' flops=73379840 threads=2)" = 2
check "... its kind and primitive rows" sh -c "test $(rows "$csv" config=threads=2 scope=kind 'name=convolution forward_training' calls=2) = 1 && test $(rows "$csv" config=threads=2 scope=primitive kind=convolution impl=jit:avx512_core) = 1"
check "... the summary of all three, no longer interrupted" sh -c "grep -q '^3 configurations' '$dir/w/old-run/summary.txt' && grep -q '^threads=2 ' '$dir/w/old-run/summary.txt' && ! grep -q interrupted '$dir/w/old-run/summary.txt' && grep -q 'status = \"complete\"' '$dir/w/old-run/run.cfg'"
"$plot" -p "$prof" "$dir/w/old-run" >/dev/null 2>"$dir/rp.err"
rc=$?
check "... and roofline-plot reads the upgraded directory (exit $rc)" test $rc = 0

# --- one tool's directory is never the other's
mkdir "$dir/tr"
cp "$top_srcdir/tests/data/results-lenet5/points.csv" "$top_srcdir/tests/data/results-lenet5/run.cfg" "$dir/tr/"
"$run" --resume "$dir/tr" >"$dir/tr.out" 2>&1
rc=$?
check "roofline-run --resume on a trainer's directory: refused (exit $rc), nothing written" sh -c "test $rc != 0 && grep -q 'not a run of roofline-run' '$dir/tr.out' && cmp -s '$top_srcdir/tests/data/results-lenet5/points.csv' '$dir/tr/points.csv'"
# a trainer's rows in today's columns: the lenet5 sweep's 24 (rooftraj 0.1), its later
# columns as a sweep writes them (no impl, no input recorded, the bytes' source the FLOPs'),
# the command's empty
head -n 1 "$csv" >"$dir/train46.csv"
awk -F, 'NR > 1 { print $0 ",,0,0,,,,,," $13 ",,,,,,,,,,,,," }' "$top_srcdir/tests/data/results-lenet5/points.csv" >>"$dir/train46.csv"
trainrows=$(($(wc -l <"$dir/train46.csv") - 1))
cp -R "$fix" "$dir/mix"
{ head -n 3 "$csv"; sed -n 2p "$dir/train46.csv"; } >"$dir/mix/points.csv"
"$plot" -p "$prof" "$dir/mix" >"$dir/mix.out" 2>&1
rc=$?
check "a command's directory with a trainer's row: refused, the line named (exit $rc)" sh -c "test $rc = 1 && grep -q 'mix/points.csv:4: a row of roofline-train.s, line 2.s scope is roofline-run.s' '$dir/mix.out'"
mkdir "$dir/mix2"
cp "$top_srcdir/tests/data/results-lenet5/run.cfg" "$dir/mix2/"
{ cat "$dir/train46.csv"; sed -n 2p "$csv"; } >"$dir/mix2/points.csv"
"$plot" -p "$prof" "$dir/mix2" >"$dir/mix2.out" 2>&1
rc=$?
check "a trainer's directory with a command's row: refused, the line named (exit $rc)" sh -c "test $rc = 1 && grep -q \"mix2/points.csv:$((trainrows + 2)): scope 'run' is roofline-run's, line 2's roofline-train's\" '$dir/mix2.out'"
mkdir "$dir/tr46"
cp "$top_srcdir/tests/data/results-lenet5/run.cfg" "$dir/tr46/"
cp "$dir/train46.csv" "$dir/tr46/points.csv"
"$plot" -p "$prof" "$dir/tr46" >"$dir/tr46.out" 2>&1
rc=$?
check "a trainer's directory in today's columns: drawn by the trainer's path (exit $rc)" sh -c "test $rc = 0 && grep -q '^chart: $dir/tr46/trajectories' '$dir/tr46.out'"
echo "1..$n"
