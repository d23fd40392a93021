#!/bin/sh
# t-probe.sh: integration: `roofline-probe --quick` writes a complete, self-consistent profile
# and its chart; check-probe (a helper, not a test) reads them back and prints the TAP.
dir=$(mktemp -d "${TMPDIR:-/tmp}/rt-t-probe.XXXXXX") || { echo "Bail out! mktemp"; exit 1; }
trap 'rm -rf "$dir"' EXIT
# how many CPUs other processes kept busy while the probe ran (the machine's busy time less the
# probe's own CPU time, over its wall time): check-probe compares ceilings with one another
# (wider ISAs faster, nearer levels faster) only when nothing else ran beside it; a sibling
# hardware thread busy with other work halves a vector unit the probe cannot tell it shares
. "$top_srcdir/tests/tap.sh"
beside "$dir" "$dir/stdout" "$dir/stderr" \
	"$top_builddir/src/roofline-probe" --quick --profile-out "$dir/node.cfg"
rc=$(cat "$dir/rc")
sed 's/^/# stderr: /' "$dir/stderr"
"$top_builddir/tests/check-probe" "$dir/node.cfg" "$rc" "$dir/stdout" "$dir/node-roofline"
