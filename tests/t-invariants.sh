#!/bin/sh
# t-invariants.sh: the numbers a new user gets are physically possible. A quick probe of this
# node, then a sweep of fp32 and bf16 at every thread count with --per-layer; every row of
# points.csv must stay below its precision's measured peak at its thread count and below the L1
# roof x its intensity. Tolerance 5%: the quick probe's ceilings are best-of-runs of short
# runs measured right before (its disturbed ones flagged and not used); the highest layers run
# at 0.93 of the peak here. A miscounted or impossible point is further off: a fused relu's
# FLOPs over a microsecond were 10x the peak, convolution FLOPs counted on the padding put
# convnet's conv3 at 1.09x.
dir=$(mktemp -d "${TMPDIR:-/tmp}/rt-t-invariants.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
if ldd "$top_builddir/src/roofline-train" 2>/dev/null | grep -q libasan; then
	echo "1..0 # SKIP a sanitizer build: its speeds say nothing"
	exit 0
fi
# how many CPUs other processes kept busy while the probe ran (the machine's busy time less
# the probe's own CPU time, over its wall time): beside others' work the measured roofs are
# low, and check-invariants holds each row to its theoretical peak instead
. "$top_srcdir/tests/tap.sh"
beside "$dir" /dev/null "$dir/probe.err" \
	"$top_builddir/src/roofline-probe" --quick --profile-out "$dir/node.cfg"
[ "$(cat "$dir/rc")" = 0 ] ||
	{ echo "Bail out! the quick probe failed: $(tail -n 1 "$dir/probe.err")"; exit 1; }
precisions=fp32
"$top_builddir/src/roofline-train" --precision bf16 -m lenet5 -n 1 -w 0 -b 4 -c none >/dev/null 2>&1 &&
	precisions=fp32,bf16
# lenet5 (small layers, fused relus) and convnet (3x3 convolutions with padding, the layers
# closest to the peak)
n=0
for model in "lenet5 -n 20 -w 3" "convnet -b 32 -n 5 -w 2"; do
	"$top_builddir/src/roofline-train" -m $model -r 3 -c model --profile "$dir/node.cfg" \
		--sweep precision=$precisions --sweep threads --per-layer --out "$dir/r-${model%% *}" \
		>/dev/null 2>"$dir/r.err" ||
		{ echo "Bail out! the $model sweep failed: $(tail -n 1 "$dir/r.err")"; exit 1; }
	"$top_builddir/tests/check-invariants" "$dir/node.cfg" "$dir/r-${model%% *}/points.csv" 0.05 \
		>"$dir/inv.out"
	# rows above a ceiling the probe measured minutes before: the node is probed again before
	# they are called impossible (a ceiling is what the node did at least once: a virtual
	# machine's host can run two threads at one's rate through a probe, unseen, then at two
	# through the sweep), and they are judged on that probe; a miscounted row is past both
	if grep -q '^not ok .* above its precision' "$dir/inv.out"; then
		beside "$dir" /dev/null "$dir/probe.err" \
			"$top_builddir/src/roofline-probe" --quick --profile-out "$dir/again.cfg"
		echo "# ${model%% *}: rows above the first probe's peaks ($(grep -o 'the highest: [0-9.]* of it' "$dir/inv.out" | head -n 1)): judged on the node probed again"
		"$top_builddir/tests/check-invariants" "$dir/again.cfg" \
			"$dir/r-${model%% *}/points.csv" 0.05 >"$dir/inv.out"
	fi
	awk -v n=$n -v m="${model%% *}" '/^(not )?ok [0-9]+/ { k = $0; sub(/^(not )?ok [0-9]+/, "", k);
			pre = $1 == "not" ? "not ok" : "ok"
			# a skip keeps its directive: TAP counts it a skip, not a pass
			if (k ~ /^ # SKIP /) print pre " " (++n) " # SKIP " m ": " substr(k, 9)
			else print pre " " (++n) " - " m ":" substr(k, 3)
			next }
			/^#/ { print } END { print "n=" n > "/dev/stderr" }' "$dir/inv.out" 2>"$dir/count"
	n=$(sed 's/n=//' "$dir/count")
done
# an extension switched off (ROOFTRAJ_NO_ISA) or hidden from oneDNN (ONEDNN_MAX_CPU_ISA) is no
# roof at all
ROOFTRAJ_NO_ISA=avx512_bf16,amx_bf16 ONEDNN_MAX_CPU_ISA=AVX2 "$top_builddir/src/roofline-probe" \
	--quick --no-curve -t 1 --profile-out "$dir/masked.cfg" >/dev/null 2>"$dir/masked.err"
n=$((n + 1))
if [ -s "$dir/masked.cfg" ] && ! grep -q 'precision = "bf16"' "$dir/masked.cfg"; then
	echo "ok $n - without AVX512-BF16, AMX and oneDNN's AVX-512, the profile has no bf16 roof"
else
	echo "not ok $n - without AVX512-BF16, AMX and oneDNN's AVX-512, the profile has no bf16 roof"
fi
# ... said as what the probe found, not as a warning (nothing went wrong)
n=$((n + 1))
if grep -qx 'roofline-probe: no bf16 amx_bf16 peak: this CPU has no amx_bf16' "$dir/masked.err" &&
	! grep -q 'warning: no bf16' "$dir/masked.err"; then
	echo "ok $n - an extension the CPU lacks: a plain note, no warning"
else
	echo "not ok $n - an extension the CPU lacks: a plain note, no warning"
	sed 's/^/# /' "$dir/masked.err"
fi
echo "1..$n"
