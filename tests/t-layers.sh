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

# calls: no circle of files within a folder (a file that calls one that calls it back is one
# concern in two files), by the objects' symbols: each edge "A B" where A uses a function B
# defines; tsort says where a loop is
calls() {
	for o in "$1"/*.o; do
		nm --defined-only -g "$o" | awk -v f="${o##*/}" 'NF == 3 { print "def", $3, f }'
		nm -u "$o" | awk -v f="${o##*/}" '{ print "use", $2, f }'
	done | awk '$1 == "def" { d[$2] = $3; next } { u[n++] = $2 " " $3 }
		END { for (i = 0; i < n; i++) { split(u[i], x, " "); if (x[1] in d && d[x[1]] != x[2]) print x[2], d[x[1]] } }' |
		sort -u
}
loops() { calls "$1" | tsort 2>&1 >/dev/null | grep -v '^tsort: -: input contains a loop:$' | sed 's/^tsort: //'; }
if command -v nm >/dev/null 2>&1 && command -v tsort >/dev/null 2>&1 && ls "$top_builddir"/src/run/*.o >/dev/null 2>&1; then
	# the checker sees one: two objects that call each other
	printf 'void b(void);\nvoid a(void) { b(); }\n' >"$dir/a.c"
	printf 'void a(void);\nvoid b(void) { a(); }\n' >"$dir/b.c"
	mkdir -p "$dir/objs" && ${CC:-cc} -c -o "$dir/objs/a.o" "$dir/a.c" && ${CC:-cc} -c -o "$dir/objs/b.o" "$dir/b.c"
	check "the call checker finds a circle of two files ($(loops "$dir/objs" | tr '\n' ' '))" test -n "$(loops "$dir/objs")"
	for d in base machine counters node results cluster sweep run; do
		[ -d "$top_builddir/src/$d" ] || continue
		l=$(loops "$top_builddir/src/$d" | tr '\n' ' ')
		check "src/$d: no circle of files calling each other${l:+ ($l)}" test -z "$l"
	done
else
	skip "nm or tsort is missing, or the objects are not built"
fi
echo "1..$n"
