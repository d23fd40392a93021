#!/bin/sh
# t-layers.sh: the source tree's folders are layers: a file includes only headers of its own
# folder or of the folders below it (base, machine, kernels, cnn, counters, node, results,
# cluster, sweep, run, tools, lowest first), each include names its folder, and the checker
# itself catches an upward include planted in a copy of a file.
. "$top_srcdir/tests/tap.sh"
dir=$(mktemp -d "${TMPDIR:-/tmp}/rt-t-layers.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT

# layers TREE: prints "FILE: includes HEADER, a layer above" (or a bare include) for every
# include that breaks the order; nothing when the tree keeps it
layers() {
	(cd "$1" && for f in src/*/*.[ch] kernels/*.[ch] cnn/*.[ch]; do
		[ -f "$f" ] || continue
		sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | while read -r h; do
			echo "$f $h"
		done
	done) | awk '
	BEGIN { n = split("base machine kernels cnn counters node results cluster sweep run tools", L, " ")
		for (i = 1; i <= n; i++) rank[L[i]] = i }
	{ file = $1; h = $2
	  split(file, p, "/"); from = p[1] == "src" ? p[2] : p[1]
	  if (h == "config.h") next
	  if (index(h, "/") == 0) { print file ": includes \"" h "\", not naming its folder"; next }
	  split(h, q, "/"); to = q[1]
	  if (!(to in rank)) { print file ": includes \"" h "\", of no layer"; next }
	  if (rank[to] > rank[from]) print file ": includes \"" h "\", a layer above " from }'
}

# the checker catches what it must: a node file that includes a sweep header
mkdir -p "$dir/tree/src/node" "$dir/tree/src/sweep"
printf '#include "config.h"\n#include "base/err.h"\n#include "sweep/sweep.h"\n' >"$dir/tree/src/node/x.c"
printf '#include "node/profile.h"\n' >"$dir/tree/src/sweep/y.c"
got=$(layers "$dir/tree")
check "the checker catches an upward include, naming the file and the header ($got)" test "$got" = 'src/node/x.c: includes "sweep/sweep.h", a layer above node'
printf '#include "profile.h"\n' >"$dir/tree/src/sweep/y.c"
got=$(layers "$dir/tree" | grep y.c)
check "... and an include that does not name its folder" test "$got" = 'src/sweep/y.c: includes "profile.h", not naming its folder'

# the tree itself
bad=$(layers "$top_srcdir")
echo "$bad" | grep . | sed 's/^/# /'
check "every include of src/, kernels/ and cnn/ names its folder and goes down the layers" test -z "$bad"
check "src/tools/ holds only the mains, each under 300 lines" sh -c "
	for f in '$top_srcdir'/src/tools/*.c; do test \$(wc -l <\"\$f\") -lt 300 || exit 1; done"
echo "1..$n"
