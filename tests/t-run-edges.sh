#!/bin/sh
# t-run-edges.sh: roofline-run at its edges. SIGINT, SIGTERM and SIGHUP in the second of four
# configurations (sent by the command itself, to roofline-run: no timing): the summary names
# what ran and what did not, the page and the resume hint are there. --throughput's reader:
# a line read whole (its last figure, past 4 KiB), the same match on stdout and stderr (the
# line without its end: '$' anchors there on both), a line past the bound said and not read, a
# back-reference (exponential matching) refused.
. "$top_srcdir/tests/tap.sh"
dir=$(mktemp -d "${TMPDIR:-/tmp}/rt-t-run-edges.XXXXXX") || exit 1
trap '[ -n "$KEEP" ] || rm -rf "$dir"' EXIT
cd "$dir" || exit 1
run="$top_builddir/src/roofline-run"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# a signal in the second of four configurations: the command (X=a) sends it to roofline-run,
# its supervisor's parent (/proc/PPID/stat's fourth field), and waits to be ended
for sig in INT TERM HUP; do
	"$run" -o "$dir/sig$sig" -r 1 --no-overhead --sweep env:X=a,b,c -- sh -c \
		"if [ \"\$X\" = a ]; then read -r _ _ _ run _ </proc/\$PPID/stat; \
		 kill -$sig \$run; exec sleep 60; fi" \
		>"$dir/sig$sig.out" 2>"$dir/sig$sig.err"
	rc=$?
	s="$dir/sig$sig/summary.txt"
	check "SIG$sig in the second of four configurations: exit 130, no crash (got $rc)" \
		test $rc = 130
	check "... summary.txt names what ran and what did not" sh -c "grep -q '^default  *[0-9.]* (' '$s' && grep -q '^X=a  *failed: interrupted\$' '$s' && grep -q '^X=b  *not run\$' '$s' && grep -q '^X=c  *not run\$' '$s'"
	check "... the resume hint, the page, run.cfg interrupted" sh -c "grep -q 'interrupted: 1 of 4 configurations finished; roofline-run --resume $dir/sig$sig runs the rest' '$s' && test -s '$dir/sig$sig/report.html' && grep -q 'status = \"interrupted\"' '$dir/sig$sig/run.cfg'"
done

# --throughput: the last figure of a line of 5 KiB, on either stream
for to in 1 2; do
	"$run" -o "$dir/long$to" -r 1 --no-overhead --throughput 'rate ([0-9]+)' -- sh -c \
		"printf 'rate 10 %05000d rate 500\\n' 0 >&$to" >/dev/null 2>&1
	check "--throughput: a line of 5 KiB read whole on fd $to: its last figure, 500" \
		grep -q 'its steady state 500 images/s (its one figure)' "$dir/long$to/summary.txt"
	"$run" -o "$dir/end$to" -r 1 --no-overhead --throughput 'rate ([0-9]+)$' -- sh -c \
		"echo 'rate 40' >&$to" >/dev/null 2>&1
	check "--throughput: 'rate ([0-9]+)\$' matches a line on fd $to (its newline not in it)" \
		grep -q 'its steady state 40 images/s (its one figure)' "$dir/end$to/summary.txt"
done
"$run" -o "$dir/over" -r 1 --no-overhead --throughput 'rate ([0-9]+)' -- sh -c \
	"printf 'rate 10 %020000d\\n' 0; echo 'rate 30'" >/dev/null 2>"$dir/over.err"
check "--throughput: a line over 16 KiB not read (said), the next one read" sh -c "grep -q \
'default: 1 line of the command.s output longer than 16384 bytes not read for its throughput' \
	'$dir/over.err' && grep -q 'its steady state 30 images/s (its one figure)' '$dir/over/summary.txt'"
"$run" -o "$dir/br" --throughput '(a*)*\1b' -- true >/dev/null 2>"$dir/br.err"
rc=$?
check "--throughput with a back-reference: refused, exit 2, nothing run (got $rc)" sh -c \
	"test $rc = 2 && grep -q \"^roofline-run: --throughput: '(a\\*)\\*.1b': the back-reference '.1' is not accepted\" '$dir/br.err' && test ! -e '$dir/br'"
"$run" -o "$dir/brk" -r 1 --no-overhead --throughput '([\1]+) x' -- sh -c "echo '1 x'" \
	>/dev/null 2>&1
check "--throughput: a back-slashed 1 inside a bracket expression is no back-reference" \
	grep -q 'its steady state 1 images/s' "$dir/brk/summary.txt"

echo "1..$n"
