#!/bin/sh
# valgrind.sh: valgrind memcheck on a short probe and a short training run: no invalid access
# and no definite leak, or the run fails. Prints TAP, then "N passed, N failed" (make
# check-valgrind; CI runs it). valgrind hides AVX-512 from the program, so the AVX2 paths run.
#
# tests/valgrind.supp suppresses only errors whose innermost frame has no object file: the code
# oneDNN generates at run time (JIT kernels read whole vectors past the end of the buffers
# oneDNN allocated, and below the stack pointer). An invalid access in compiled code (rooftraj,
# oneDNN's C++, any library) is still reported.
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
n=0 failed=0
if ! command -v valgrind >/dev/null; then
	echo "1..0 # SKIP valgrind is not installed"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/rt-valgrind.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
vg() { # name, then the command
	name=$1
	shift
	n=$((n + 1))
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		--suppressions="$top_srcdir/tests/valgrind.supp" "$@" >"$dir/out" 2>"$dir/err"
	rc=$?
	if [ "$rc" = 0 ]; then
		echo "ok $n - valgrind: $name: no invalid access, no definite leak"
	else
		echo "not ok $n - valgrind: $name (exit $rc)"
		grep -E '==[0-9]+== (Invalid|Conditional|Use of|[0-9,]+ bytes in|   at|   by)' "$dir/err" |
			head -20 | sed 's/^/#   /'
		failed=$((failed + 1))
	fi
}
export OMP_NUM_THREADS=2
vg "roofline-probe --quick --no-curve -t 1" "$top_builddir/src/roofline-probe" -q --no-curve -t 1 \
	--profile-out "$dir/p.cfg" --no-chart
vg "roofline-train -m lenet5 -b 8 -n 2" "$top_builddir/src/roofline-train" -m lenet5 -b 8 -n 2 -w 0 \
	-c model --per-layer
vg "roofline-train -D -m resnet18 -b 1" "$top_builddir/src/roofline-train" -D -m resnet18 -b 1
vg "roofline-plot of the fixture" "$top_builddir/src/roofline-plot" --overlay "$dir/replot" \
	-p "$top_srcdir/machine-profiles/example-kvm-spr.cfg" "$top_srcdir/tests/data/results-lenet5"
vg "roofline-run on the trainer" "$top_builddir/src/roofline-run" -o "$dir/run" -r 1 \
	--sweep threads=1 -- "$top_builddir/src/roofline-train" -m lenet5 -b 4 -n 1 -w 0 -c none
vg "roofline-plot's overlay of roofline-run's results" "$top_builddir/src/roofline-plot" \
	--overlay "$dir/ovr" -p "$top_srcdir/tests/data/emr16/emr16.cfg" "$dir/run" \
	"$top_srcdir/tests/data/results-run-28"
echo "1..$n"
echo "$((n - failed)) passed, $failed failed"
[ "$failed" = 0 ]
