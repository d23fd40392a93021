#!/bin/sh
# t-cli.sh: table-driven command-line tests (ARGS | EXIT | STREAM | REGEX), as likwid's
# test/executable_tests: each row runs the tool and checks its exit code and output. Leading
# NAME=VALUE words in ARGS set the tool's environment.
n=0
failed=0
for name in roofline-probe roofline-train roofline-plot; do
table="$top_srcdir/tests/cli-${name#roofline-}.txt"
tool="$top_builddir/src/$name"
while IFS='|' read -r args want stream regex; do
	case "$args" in '#'*|'') continue ;; esac
	args=$(echo "$args" | sed 's/[[:space:]]*$//')
	want=$(echo "$want" | tr -d ' ')
	stream=$(echo "$stream" | tr -d ' ')
	regex=$(echo "$regex" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
	TMP=$(mktemp -d "${TMPDIR:-/tmp}/rt-t-cli.XXXXXX")
	export TMP
	eval "set -- $args"
	# leading NAME=VALUE words set the tool's environment
	envs=""
	while [ $# -gt 0 ]; do
		case "$1" in [A-Z]*=*) envs="$envs $1"; shift ;; *) break ;; esac
	done
	env $envs "$tool" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	rc=$?
	n=$((n + 1))
	if [ "$rc" = "$want" ] && grep -Eq -- "$regex" "$TMP/$stream"; then
		echo "ok $n - $name $args: exit $rc, $stream matches /$regex/"
	else
		echo "not ok $n - $name $args: exit $rc (want $want), $stream /$regex/"
		sed 's/^/#   /' "$TMP/$stream" | head -5
		failed=$((failed + 1))
	fi
	# an unwritable destination leaves nothing behind
	case "$args" in
	*'-o $TMP'*) ;;
	*) n=$((n + 1))
	   if ls "$TMP"/*.cfg* >/dev/null 2>&1; then echo "not ok $n - no stray files"; \
	   else echo "ok $n - $args: nothing half-written"; fi ;;
	esac
	rm -rf "$TMP"
done <"$table"
done
echo "1..$n"
[ "$failed" = 0 ]
