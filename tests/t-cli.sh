#!/bin/sh
# t-cli.sh: table-driven command-line tests (ARGS | EXIT | STREAM | REGEX), as likwid's
# test/executable_tests: each row runs the tool in an empty directory of its own and checks
# its exit code and output, then that it left nothing half-written: a row that fails leaves no
# file at all, one that succeeds no temporary file. Leading NAME=VALUE words in ARGS set the
# tool's environment; $FIX names inputs this script makes (FIFOs, malformed files).
n=0
failed=0
FIX=$(mktemp -d "${TMPDIR:-/tmp}/rt-t-cli-fix.XXXXXX") || exit 1
trap 'rm -rf "$FIX"' EXIT
export FIX

# ---- inputs the table uses ----
lenet="$top_srcdir/tests/data/results-lenet5"
mkfifo "$FIX/fifo"
ln -s /dev/null "$FIX/to-null"
mkdir -p "$FIX/dir" "$FIX/fifo-results" "$FIX/fifo-run" "$FIX/mnist-fifo" "$FIX/cifar-fifo"
cp "$lenet/run.cfg" "$FIX/fifo-results/" && mkfifo "$FIX/fifo-results/points.csv"
cp "$lenet/points.csv" "$FIX/fifo-run/" && mkfifo "$FIX/fifo-run/run.cfg"
mkfifo "$FIX/mnist-fifo/train-images-idx3-ubyte" "$FIX/cifar-fifo/data_batch_1.bin"
# points.csv variants: NAME and an awk program that makes it from the saved lenet5 sweep
while IFS='|' read -r name prog; do
	mkdir -p "$FIX/$name" && cp "$lenet/run.cfg" "$FIX/$name/"
	awk -F, -v OFS=, "$prog" "$lenet/points.csv" >"$FIX/$name/points.csv"
done <<'EOF'
bad-batch|NR == 2 { $3 = "abc" } { print }
bad-threads|NR == 2 { $2 = "-1" } { print }
bad-nan|NR == 2 { $10 = "nan" } { print }
bad-inf|NR == 2 { $11 = "inf" } { print }
bad-affinity|NR == 3 { $4 = "everywhere" } { print }
bad-derived|NR == 2 { $15 = $15 * 2 } { print }
dup|{ print } NR == 2 { print }
crlf|{ printf "%s\r\n", $0 }
bom|NR == 1 { printf "\357\273\277" } { print }
blank|{ print } END { print ""; print "" }
after-blank|NR == 3 { print "" } { print }
open-quote|NR == 2 { $8 = "\"iteration" } { print }
EOF
sed 's/name = "LeNet-5";/name = "..\/..\/x";/; s/^\( *name = \)"lenet5";/\1"..\/..\/x";/' \
	"$top_srcdir/cnn/models/lenet5.cfg" >"$FIX/dotdot.cfg"
sed '0,/name = "conv1"/s//name = "conv\\t1"/' "$top_srcdir/cnn/models/lenet5.cfg" >"$FIX/tab-layer.cfg"
# a named layer takes the automatic name of a later unnamed one, or the reverse
printf '%s\n' 'model = { name = "autoname"; input = [ 1, 8, 8 ]; classes = 2; batch = 4; layers = (' \
	'{ type = "conv"; filters = 4; kernel = 3; }, { type = "relu"; name = "relu3"; },' \
	'{ type = "relu"; }, { type = "fc"; outputs = 2; }, { type = "softmax_xent"; } ); };' \
	>"$FIX/autoname.cfg"
printf '%s\n' 'model = { name = "autoname"; input = [ 1, 8, 8 ]; classes = 2; batch = 4; layers = (' \
	'{ type = "conv"; filters = 4; kernel = 3; }, { type = "relu"; },' \
	'{ type = "relu"; name = "relu2"; }, { type = "fc"; outputs = 2; }, { type = "softmax_xent"; } ); };' \
	>"$FIX/autoname2.cfg"
# a sweep's child's record (roofline-train --emit-points FILE), whole, cut, and out of range
printf '%s\n' '# one configuration' 'child = {' '  model = "lenet5"; counters = "none";' \
	'  batch = 4; iterations = 1; warmup = 0; repeat = 1;' '};' >"$FIX/child.cfg"
sed 's/batch = 4;/batch = ;/' "$FIX/child.cfg" >"$FIX/child-cut.cfg"
sed 's/batch = 4;/batch = 0;/' "$FIX/child.cfg" >"$FIX/child-range.cfg"

# Files a row left in its directory that it should not have: every file but its own out and
# err when it failed, any temporary when it succeeded. Prints them; fails when there are any.
stray() { # DIR EXIT
	if [ "$2" = 0 ]; then
		find "$1" -name '*.tmp' -o -name '*.tmp.*' -o -name '.rooftraj-chart-*' |
			sed "s|^$1/||"
	else
		find "$1" -mindepth 1 ! -name out ! -name err | sed "s|^$1/||"
	fi | grep . && return 1
	return 0
}
# the check itself can fail: a failing tool that leaves a file, a passing one that leaves a
# temporary
self=$(mktemp -d "${TMPDIR:-/tmp}/rt-t-cli-self.XXXXXX")
mkdir -p "$self/results" && : >"$self/results/points.csv" && : >"$self/out"
n=$((n + 1))
if stray "$self" 1 >/dev/null; then
	echo "not ok $n - the stray-file check notices what a failing run left"; failed=$((failed + 1))
else
	echo "ok $n - the stray-file check notices what a failing run left"
fi
rm -rf "$self/results" && : >"$self/chart.gp.tmp"
n=$((n + 1))
if stray "$self" 0 >/dev/null; then
	echo "not ok $n - the stray-file check notices a temporary"; failed=$((failed + 1))
else
	echo "ok $n - the stray-file check notices a temporary"
fi
rm -rf "$self"

TMP= prev=
for name in roofline-probe roofline-train roofline-plot roofline-run; do
table="$top_srcdir/tests/cli-${name#roofline-}.txt"
tool="$top_builddir/src/$name"
while IFS='|' read -r args want stream regex; do
	case "$args" in '#'*|'') continue ;; esac
	args=$(echo "$args" | sed 's/[[:space:]]*$//')
	want=$(echo "$want" | tr -d ' ')
	stream=$(echo "$stream" | tr -d ' ')
	regex=$(echo "$regex" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
	# "@FLAG ARGS": a row whose run needs an instruction of this CPU's /proc/cpuinfo flag
	# FLAG (bf16 primitives: AVX-512); skipped with the reason where the CPU lacks it
	case "$args" in
	@*)
		need=${args%% *}; need=${need#@}; args=${args#* }
		if ! grep -qw "$need" /proc/cpuinfo; then
			for k in 1 2; do
				n=$((n + 1))
				echo "ok $n # SKIP $name $args: this CPU has no $need (a real instruction must run)"
			done
			continue
		fi ;;
	esac
	# a row of the same command as the row before it checks that run's results, not a run
	# of its own
	if [ "$args" != "$prev" ] || [ ! -d "$TMP" ]; then
		[ -z "$TMP" ] || rm -rf "$TMP"
		TMP=$(mktemp -d "${TMPDIR:-/tmp}/rt-t-cli.XXXXXX")
		export TMP
		eval "set -- $args"
		# leading NAME=VALUE words set the tool's environment
		envs=""
		while [ $# -gt 0 ]; do
			case "$1" in [A-Z]*=*) envs="$envs $1"; shift ;; *) break ;; esac
		done
		(cd "$TMP" && exec env $envs "$tool" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null)
		prev_rc=$?
		prev=$args
	fi
	rc=$prev_rc
	n=$((n + 1))
	if [ "$rc" = "$want" ] && grep -Eq -- "$regex" "$TMP/$stream"; then
		echo "ok $n - $name $args: exit $rc, $stream matches /$regex/"
	else
		echo "not ok $n - $name $args: exit $rc (want $want), $stream /$regex/"
		sed 's/^/#   /' "$TMP/$stream" | head -5
		failed=$((failed + 1))
	fi
	n=$((n + 1))
	if left=$(stray "$TMP" "$rc"); then
		echo "ok $n - $name $args: nothing half-written"
	else
		echo "not ok $n - $name $args: left $(echo $left)"
		failed=$((failed + 1))
	fi
done <"$table"
[ -z "$TMP" ] || rm -rf "$TMP"
TMP= prev=
done

# the outputs refused above left what was there as it was
n=$((n + 1))
if [ -p "$FIX/fifo" ] && [ -L "$FIX/to-null" ] && [ -c /dev/null ] &&
   [ ! -e "$FIX/to-null-report.html" ] && [ ! -e "$FIX/fifo-report.html" ]; then
	echo "ok $n - the FIFO, the link to /dev/null and /dev/null are as they were, no page beside them"
else
	echo "not ok $n - an output replaced a FIFO or a device: $(ls -l "$FIX" /dev/null | tr '\n' ' ')"
	failed=$((failed + 1))
fi

# ---- the man pages: groff reads them without a warning (a line starting with a dot is a
# request), no control character slipped in, and every long option of --help is there ----
for tool in probe train plot run; do
	page="$top_srcdir/man/roofline-$tool.1"
	n=$((n + 1))
	warn=$(LC_ALL=C groff -man -Tutf8 -ww -z "$page" 2>&1)
	if command -v groff >/dev/null 2>&1 && [ -n "$warn" ]; then
		echo "not ok $n - roofline-$tool.1: groff warns: $(echo "$warn" | head -n 1)"
		failed=$((failed + 1))
	elif LC_ALL=C grep -q '[[:cntrl:]]' "$page"; then
		echo "not ok $n - roofline-$tool.1: a control character: $(LC_ALL=C grep -n '[[:cntrl:]]' "$page" | head -n 1 | cut -c1-60)"
		failed=$((failed + 1))
	else
		echo "ok $n - roofline-$tool.1: groff reads it cleanly, no control character"
	fi
	missing=
	for o in $("$top_builddir/src/roofline-$tool" --help 2>&1 | grep -o -- '--[a-z][a-z0-9-]*' | sort -u); do
		grep -qF -- "$(echo "$o" | sed 's/-/\\-/g')" "$page" || missing="$missing $o"
	done
	n=$((n + 1))
	if [ -z "$missing" ]; then
		echo "ok $n - roofline-$tool.1 names every long option of roofline-$tool --help"
	else
		echo "not ok $n - roofline-$tool.1 misses:$missing"
		failed=$((failed + 1))
	fi
done
echo "1..$n"
[ "$failed" = 0 ]
