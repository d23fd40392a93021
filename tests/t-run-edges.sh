#!/bin/sh
# t-run-edges.sh: roofline-run at its edges. SIGINT, SIGTERM and SIGHUP in the second of four
# configurations (sent by the command itself, to roofline-run: no timing): the summary names
# what ran and what did not, the page and the resume hint are there.
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

echo "1..$n"
