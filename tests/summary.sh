#!/bin/sh
# summary.sh TEST...: one line "N passed, N failed[, N skipped]" over the TAP results that
# automake's tap-driver recorded in each test's .trs file; a test without results (it did not
# build or did not run) counts as one failure. Exits 1 when anything failed.
passed=0 failed=0 skipped=0
for t in "$@"; do
	trs="${t%.sh}.trs"
	if [ ! -f "$trs" ]; then
		echo "summary: $t did not run" >&2
		failed=$((failed + 1))
		continue
	fi
	p=$(grep -c '^:test-result: \(PASS\|XFAIL\)' "$trs")
	f=$(grep -c '^:test-result: \(FAIL\|XPASS\|ERROR\)' "$trs")
	s=$(grep -c '^:test-result: SKIP' "$trs")
	if [ "$((p + f + s))" = 0 ]; then
		echo "summary: $t reported no results" >&2
		f=1
	fi
	[ "$f" != 0 ] && echo "summary: $t: $f failed (see ${t%.sh}.log)" >&2
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
done
if [ "$skipped" != 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" = 0 ]
