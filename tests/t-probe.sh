#!/bin/sh
# t-probe.sh: integration: `roofline-probe --quick` writes a complete, self-consistent profile
# and its chart; check-probe (a helper, not a test) reads them back and prints the TAP.
dir=$(mktemp -d "${TMPDIR:-/tmp}/rt-t-probe.XXXXXX") || { echo "Bail out! mktemp"; exit 1; }
trap 'rm -rf "$dir"' EXIT
"$top_builddir/src/roofline-probe" --quick --profile-out "$dir/node.cfg" >"$dir/stdout" 2>"$dir/stderr"
rc=$?
sed 's/^/# stderr: /' "$dir/stderr"
"$top_builddir/tests/check-probe" "$dir/node.cfg" "$rc" "$dir/stdout" "$dir/node-roofline"
