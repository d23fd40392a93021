#!/bin/sh
# t-probe.sh: integration: `roofline-probe --quick` writes a complete, self-consistent profile
# and its chart; check-probe (a helper, not a test) reads them back and prints the TAP.
dir=$(mktemp -d "${TMPDIR:-/tmp}/rt-t-probe.XXXXXX") || { echo "Bail out! mktemp"; exit 1; }
trap 'rm -rf "$dir"' EXIT
# how many CPUs other processes kept busy while the probe ran (the machine's busy time less the
# probe's own CPU time, over its wall time): check-probe compares ceilings with one another
# (wider ISAs faster, nearer levels faster) only when nothing else ran beside it; a sibling
# hardware thread busy with other work halves a vector unit the probe cannot tell it shares
busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
b0=$(busy)
s=$(date +%s.%N)
("$top_builddir/src/roofline-probe" --quick --profile-out "$dir/node.cfg" >"$dir/stdout" 2>"$dir/stderr"
 echo $? >"$dir/rc"; times >"$dir/times")
e=$(date +%s.%N)
b1=$(busy)
rc=$(cat "$dir/rc")
RT_PROBE_OTHERS=$(awk -v b0="$b0" -v b1="$b1" -v s="$s" -v e="$e" -v hz="$(getconf CLK_TCK)" '
	function sec(t) { split(t, a, "m"); return a[1] * 60 + a[2] }
	NR == 2 { own = sec($1) + sec($2) }
	END { o = (b1 - b0) / hz - own; if (o < 0) o = 0; printf "%.2f\n", (e > s) ? o / (e - s) : 0 }' "$dir/times")
export RT_PROBE_OTHERS
sed 's/^/# stderr: /' "$dir/stderr"
"$top_builddir/tests/check-probe" "$dir/node.cfg" "$rc" "$dir/stdout" "$dir/node-roofline"
