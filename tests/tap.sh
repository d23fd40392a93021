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
# sweep_child PID: the pid of the configuration child (roofline-train --emit-points) a sweep
# started, waited for up to 15 s; empty when there is none.
sweep_child() {
	for _k in $(seq 300); do
		_c=$(pgrep -P "$1" -f emit-points | head -n 1)
		[ -n "$_c" ] && { echo "$_c"; return 0; }
		sleep 0.05
	done
}
