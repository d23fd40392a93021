# tap.sh: what the shell tests share (sourced): TAP lines from checks.
# check DESCRIPTION COMMAND...: "ok N - DESCRIPTION" when the command succeeds, else "not ok".
# skip REASON: "ok N # SKIP REASON".
n=0
# awk over points.csv as CSV: a quoted field with commas in it is one field (tests/csvawk)
csvawk="$top_srcdir/tests/csvawk"
# beside WORK OUT ERR CMD...: run CMD (its standard output into OUT, its errors into ERR, its
# exit status into WORK/rc) and export RT_PROBE_OTHERS, how many CPUs other processes kept
# busy meanwhile: the machine's busy time (/proc/stat, steal included) less CMD's own CPU time
# (the subshell's `times`), over its wall time
beside() {
	_bw=$1 _bo=$2 _be=$3
	shift 3
	_bb0=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat)
	_bs=$(date +%s.%N)
	("$@" >"$_bo" 2>"$_be"; echo $? >"$_bw/rc"; times >"$_bw/times")
	_bt=$(date +%s.%N)
	_bb1=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat)
	RT_PROBE_OTHERS=$(awk -v b0="$_bb0" -v b1="$_bb1" -v s="$_bs" -v e="$_bt" \
		-v hz="$(getconf CLK_TCK)" '
		function sec(t) { split(t, a, "m"); return a[1] * 60 + a[2] }
		NR == 2 { own = sec($1) + sec($2) }
		END { o = (b1 - b0) / hz - own; if (o < 0) o = 0
		      printf "%.2f\n", (e > s) ? o / (e - s) : 0 }' "$_bw/times")
	export RT_PROBE_OTHERS
}
# col FILE NAME: the number of the column NAME in the CSV FILE's header (nothing: none)
col() { "$csvawk" -v n="$2" 'FNR == 1 { if (n in col) print col[n]; exit }' "$1"; }
# rows FILE NAME=VALUE|NAME~REGEX ...: how many rows of the CSV FILE (points.csv) have each
# named column equal to VALUE or matching the extended REGEX, the columns found by name in
# its header (a name it lacks: an error, exit 2)
rows() {
	_f=$1
	shift
	"$csvawk" -v conds="$(printf '%s\037' "$@")" '
		FNR == 1 {
			nc = split(conds, cs, "\037") - 1
			for (i = 1; i <= nc; i++) {
				match(cs[i], /[=~]/)
				nm[i] = substr(cs[i], 1, RSTART - 1); op[i] = substr(cs[i], RSTART, 1)
				val[i] = substr(cs[i], RSTART + 1)
				if (!(nm[i] in col)) { print "rows: no column " nm[i] > "/dev/stderr"; bad = 1; exit 2 }
			}
			next
		}
		{
			for (i = 1; i <= nc; i++) {
				f = $col[nm[i]]
				if (op[i] == "=" ? f "" != val[i] : f !~ val[i]) next
			}
			k++
		}
		END { if (!bad) print k + 0 }' "$_f"
}
# has_row FILE NAME=VALUE|NAME~REGEX ...: whether one row at least has them (rows)
has_row() { test "$(rows "$@")" -ge 1 2>/dev/null; }
# verdict_agrees SUMMARY CSV: whether a training sweep's verdict (SUMMARY's first line) says
# what its points.csv holds, whichever configuration the machine made the fastest: the one it
# names has the highest undisturbed iteration median, a speedup is claimed only where the
# best's range lies above the default's, "the ranges overlap" only where they do, each figure
# the rows' to the printed digit; the sentences for disturbed defaults pass as they are
verdict_agrees() {
	"$csvawk" -v line="$(head -n 1 "$1")" '
		function near(a, b,   t) { t = 0.06 + 1e-5 * (b < 0 ? -b : b); a -= b; return a < t && a > -t }
		function num(s) { gsub(/[^0-9.]/, "", s); return s + 0 }
		NR > 1 && $col["scope"] == "iteration" && $col["status"] == "ok" {
			c = $1; v = $col["images_per_s"]
			if ($col["stat"] == "median") med[c] = v
			else if ($col["stat"] == "max") lo[c] = v
			else if ($col["stat"] == "min") hi[c] = v
		}
		END {
			top = ""
			for (c in med) if (top == "" || med[c] > med[top]) top = c
			if (line ~ /^no configuration was measured undisturbed$/ ||
			    line ~ /the default has no undisturbed measurement/) exit 0
			if (top == "") exit 1
			split(line, w, / /)
			if (line ~ /^the default configuration, /) {
				d = w[4]; sub(/,$/, "", d)
				split(w[11], r, /\.\./)
				exit !(d == top && near(w[9], med[d]) && near(num(r[1]), lo[d]) && near(num(r[2]), hi[d]))
			}
			if (line ~ /outside both ranges$/) {
				b = w[3]; sub(/,$/, "", b)
				match(line, /\(([0-9.]+)\.\.([0-9.]+) over/); split(substr(line, RSTART + 1), br, /[.][.]| /)
				match(line, /the default [^ ]+ [0-9.]+ images\/s \(/); d = substr(line, RSTART + 12)
				d = substr(d, 1, index(d, " ") - 1)
				match(line, /images\/s \([0-9.]+\.\.[0-9.]+[^)]*\): speedup/)
				split(substr(line, RSTART + 10), dr, /[.][.]|\)/)
				exit !(b == top && d != b && (d in med) && near(br[1], lo[b]) && near(br[2], hi[b]) &&
				       near(dr[1], lo[d]) && near(dr[2], hi[d]) && lo[b] > hi[d])
			}
			if (line ~ /^no configuration is measurably faster than the default: .*the ranges overlap$/) {
				b = w[11]; sub(/,$/, "", b)
				match(line, /the default [^ ]+ /); d = substr(line, RSTART + 12, RLENGTH - 13)
				exit !(b == top && d != b && (d in med) && med[b] > med[d] && lo[b] <= hi[d])
			}
			if (line ~ /from one run of each/) {
				b = w[3]; sub(/,$/, "", b)
				exit !(b == top)
			}
			exit 1
		}' "$2"
}
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
# named_busiest DESCRIPTION FLAG PID: a busy flag's "the busiest allowed there: ..." names the
# shell PID (a test's spinner) among the three busiest, unless three other processes were
# busier (other work on the machine: a parallel make check), which is then said as a skip
named_busiest() {
	if echo "$2" | grep -q "the busiest allowed there: .*sh, pid $3, "; then
		check "$1" true
	elif echo "$2" | grep -q 'the busiest allowed there: [^;]*; [^;]*; [^;"]*, pid [0-9]*, '; then
		skip "three other processes were busier than pid $3: $(echo "$2" | grep -o 'the busiest allowed there: [^"]*')"
	else
		check "$1" false
	fi
}
# sweep_child PID: the pid of the configuration child (roofline-train --emit-points) a sweep
# started, waited for up to 60 s; empty when there is none.
sweep_child() {
	for _k in $(seq 1200); do
		# below the supervisor process the spawner puts between them
		for _s in $(pgrep -P "$1"); do
			_c=$(pgrep -P "$_s" -f emit-points | head -n 1)
			[ -n "$_c" ] && { echo "$_c"; return 0; }
		done
		sleep 0.05
	done
}
# rank_digest FILE K: rank K's weights digest in a data-parallel run's output ("rank K:
# weights digest H ...").
rank_digest() { awk -v k="$2" '$1 == "rank" && $2 == k ":" && $3 == "weights" && $4 == "digest" { print $5 }' "$1"; }
# same_weights ONE MANY: the weights digest of one process (ONE: "weights digest H sum S
# norm N") and rank 0's of a data-parallel run (MANY: "rank 0: weights digest ...") agree in
# sum and norm within 1e-5 of the norm.
same_weights() {
	awk 'FNR == NR && /^weights digest/ { s1 = $5; n1 = $7 }
	     FNR != NR && /^rank 0: weights digest/ { s2 = $7; n2 = $9 }
	     END { d = s1 - s2; if (d < 0) d = -d; e = n1 - n2; if (e < 0) e = -e;
		   exit !(n1 > 0 && d <= 1e-5 * n1 && e <= 1e-5 * n1) }' "$1" "$2"
}
# widest_isa: the widest FMA ISA of the CPU that runs the test, as the probe names it (avx512,
# avx2, sse): for tests whose kernels must really run
widest_isa() {
	if grep -qw avx512f /proc/cpuinfo; then echo avx512
	elif grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo; then echo avx2
	else echo sse; fi
}
# torch_python: the first of python3 and /usr/bin/python3 that has torch installed, or nothing
# (a pyenv's python3 on PATH may lack Debian's python3-torch); found without importing it, which
# costs seconds: a torch that is installed and does not import fails the test that runs it
torch_python() {
	for p in python3 /usr/bin/python3; do
		if "$p" -c 'import importlib.util as u, sys; sys.exit(u.find_spec("torch") is None)' 2>/dev/null; then
			echo "$p"; return
		fi
	done
}
# identity_tree DIR VENDOR FAMILY MODEL [PMU ...]: a node's identity under DIR for
# ROOFTRAJ_SYSROOT=DIR, whatever CPU runs the test: its /proc/cpuinfo (VENDOR, CPUID FAMILY and
# MODEL in decimal) and its sysfs PMUs (a software one always, each PMU named: "cpu" is a core
# PMU; an uncore one gets a type no kernel gives)
identity_tree() {
	_d=$1
	mkdir -p "$_d/proc" "$_d/sys/bus/event_source/devices/software" || return 1
	printf 'processor\t: 0\nvendor_id\t: %s\ncpu family\t: %d\nmodel\t\t: %d\nmodel name\t: a test CPU\nflags\t\t: fpu sse sse2 avx fma avx2\n' \
		"$2" "$3" "$4" >"$_d/proc/cpuinfo"
	echo 1 >"$_d/sys/bus/event_source/devices/software/type"
	shift 4
	for _p in "$@"; do
		mkdir -p "$_d/sys/bus/event_source/devices/$_p" && echo 4000000 >"$_d/sys/bus/event_source/devices/$_p/type"
	done
}
