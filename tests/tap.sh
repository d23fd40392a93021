# tap.sh: what the shell tests share (sourced): TAP lines from checks.
# check DESCRIPTION COMMAND...: "ok N - DESCRIPTION" when the command succeeds, else "not ok".
# skip REASON: "ok N # SKIP REASON".
n=0
check() {
	n=$((n + 1))
	_check_what=$1
	shift
	if "$@" >/dev/null 2>&1; then echo "ok $n - $_check_what"; else echo "not ok $n - $_check_what"; fi
}
skip() {
	n=$((n + 1))
	echo "ok $n # SKIP $1"
}
