#!/bin/sh
# t-trust.sh: files that cannot be hijacked and words that are true. Links planted where
# temporaries or outputs go are never followed (nothing outside the directory changes); one
# writer per results directory, the second refused at once with the holder named; default
# results directories that never collide; a configuration cut at a line boundary measured
# again on --resume, a resumed .partial directory named when it completes; a sweep whose every
# configuration failed exits 1; a busy machine during a sweep: the configurations that did
# not get their cores flagged, never the best or the reference; the environment of oneDNN and
# its runtimes recorded.
train="$top_builddir/src/roofline-train"
plot="$top_builddir/src/roofline-plot"
probe="$top_builddir/src/roofline-probe"
prof="$top_srcdir/machine-profiles/example-kvm-spr.cfg"
dir=$(mktemp -d "${TMPDIR:-/tmp}/rt-t-trust.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
. "$top_srcdir/tests/tap.sh"
common="-m lenet5 -n 2 -w 0 -r 1 -c model --profile $prof"
cd "$dir" || exit 1

# ---- links planted where rooftraj writes ----
echo "precious" >"$dir/target"
echo "precious too" >"$dir/target2"
sums=$(md5sum "$dir/target" "$dir/target2")
mkdir -p "$dir/links"
for t in report.html.tmp trajectories.gp.tmp trajectories.tmp.svg trajectories.tmp.png \
	 run.cfg.tmp summary.txt.tmp points.csv.tmp phases.gp.tmp phases.tmp.svg; do
	ln -s "$dir/target" "$dir/links/$t"
done
ln -s "$dir/target2" "$dir/links/report.html"
"$train" $common --sweep threads=1 --out "$dir/links" >/dev/null 2>"$dir/links.err"
rc=$?
[ $rc = 0 ] || sed 's/^/# /' "$dir/links.err"
check "links planted at the temporaries' old names and at report.html: the sweep exits 0 (got $rc)" test $rc = 0
check "... nothing they point to changed" sh -c "test \"\$(md5sum '$dir/target' '$dir/target2')\" = '$sums'"
check "... report.html is a file of its own now, the link replaced" sh -c "test -f '$dir/links/report.html' && test ! -L '$dir/links/report.html'"
# points.csv itself a link (to a file outside) when a sweep adds to it: refused, nothing
# appended through it
"$train" $common --sweep batch=8 --out "$dir/link-csv" >/dev/null 2>&1
awk -F, 'NR == 1 || $1 !~ /-b8-/' "$dir/link-csv/points.csv" >"$dir/outside.csv"
rm "$dir/link-csv/points.csv" && ln -s "$dir/outside.csv" "$dir/link-csv/points.csv"
osum=$(md5sum "$dir/outside.csv")
"$train" --resume "$dir/link-csv" >/dev/null 2>"$dir/link-csv.err"
check "points.csv a link when a configuration is added: exit 1 (got $?)" grep -q "link-csv/points.csv: a symbolic link: not written through" "$dir/link-csv.err"
check "... nothing written through it" sh -c "test \"\$(md5sum '$dir/outside.csv')\" = '$osum'"
# the probe's outputs
mkdir -p "$dir/p"
for t in n.cfg.tmp n-roofline.gp.tmp n-roofline.tmp.png n-roofline.tmp.svg n-report.html.tmp; do
	ln -s "$dir/target" "$dir/p/$t"
done
"$probe" --quick --no-curve --no-lowp -t 1 --profile-out "$dir/p/n.cfg" >/dev/null 2>"$dir/p.err"
check "the probe beside planted links: exit 0 (got $?)" test -s "$dir/p/n.cfg"
check "... nothing they point to changed" sh -c "test \"\$(md5sum '$dir/target' '$dir/target2')\" = '$sums'"
"$probe" --quick --profile-out "$dir/p" >/dev/null 2>"$dir/pdir.err"
check "the probe's profile path is a directory: exit 1 before measuring (got $?)" sh -c "
	grep -q 'p: is a directory, not a file' '$dir/pdir.err' && ! grep -q 'peak\\|bandwidth' '$dir/pdir.err'"

# ---- report.html inlines only what this run drew, made safe ----
for c in layers layers-time memory-input; do
	cp "$top_srcdir/tests/data/hostile.svg" "$dir/links/$c.svg"
done
"$plot" "$dir/links" >/dev/null 2>"$dir/hostile.err"
check "hostile SVGs lying in the directory: roofline-plot exits 0 (got $?)" test -s "$dir/links/report.html"
check "... the page has no script, no handler, no external reference" sh -c "
	! grep -qi '<script\| on[a-z]*=\|example\.com\|javascript:\|<image\|foreignObject' '$dir/links/report.html'"
check "... and does not show the charts this run did not draw" sh -c "! grep -q 'id=\"layers\"' '$dir/links/report.html'"

# ---- one writer per results directory ----
long="-m lenet5 -b 1024 -n 100000 -w 0 -r 1 -c model --profile $prof --sweep threads=1"
"$train" $long --out "$dir/busydir" >/dev/null 2>&1 &
first=$!
for k in $(seq 600); do
	grep -q "process $first" "$dir/busydir/.rooftraj.lock" 2>/dev/null && break
	sleep 0.1
done
"$train" $long --out "$dir/busydir" >/dev/null 2>"$dir/second.err"
rc=$?
sed 's/^/# /' "$dir/second.err"
check "a second sweep of the same request on a directory in use: exit 1 (got $rc)" test $rc = 1
check "... refused at once, naming the process that holds it" grep -q "busydir is in use by another rooftraj: process $first (" "$dir/second.err"
# roofline-plot on a directory whose lock another process holds
if command -v flock >/dev/null; then
	# the subshell takes the lock on its fd 9 and becomes the sleep: $! is the holder
	# itself, killed below (a flock(1) parent killed would leave its sleep holding the
	# lock, and this script's output, for 10 minutes)
	(flock 9 && exec sleep 600) 9>>"$dir/links/.rooftraj.lock" >/dev/null 2>&1 &
	holder=$!
	for k in $(seq 600); do
		flock -n "$dir/links/.rooftraj.lock" true 2>/dev/null || break
		sleep 0.1
	done
	"$plot" "$dir/links" >/dev/null 2>"$dir/plot-busy.err"
	check "roofline-plot on a directory in use: refused (exit $?)" grep -q "links is in use by another rooftraj" "$dir/plot-busy.err"
	kill $holder
	wait $holder 2>/dev/null
else
	skip "no flock(1)"
fi
kill -TERM $first
wait $first
check "... and the first one ends as interrupted, its directory whole" sh -c "test ! -s '$dir/busydir/points.csv' || $csvawk 'NR > 1 && NF != 46 { exit 1 }' '$dir/busydir/points.csv'"
# default names never collide: the next seconds' names already taken
mkdir -p "$dir/names/results"
now=$(date -u +%s)
for k in 0 1 2 3 4 5 6 7 8 9; do
	mkdir "$dir/names/results/lenet5-$(date -u -d "@$((now + k))" +%Y-%m-%dT%H:%M:%SZ).partial"
done
(cd "$dir/names" && "$train" $common --sweep threads=1 >"$dir/names.out" 2>&1)
got=$(sed -n 's/^results: \([^ ]*\) .*/\1/p' "$dir/names.out")
check "a default name taken: the sweep takes NAME-2 ($got)" sh -c "echo '$got' | grep -q '^results/lenet5-[0-9T:Z-]*-2$' && test -s '$dir/names/$got/points.csv'"
(cd "$dir/names" || exit 1
 "$train" $common --sweep threads=1 >"$dir/n1.out" 2>&1 &
 "$train" $common --sweep threads=1 >"$dir/n2.out" 2>&1
 wait)
a=$(sed -n 's/^results: \([^ ]*\) .*/\1/p' "$dir/n1.out")
b=$(sed -n 's/^results: \([^ ]*\) .*/\1/p' "$dir/n2.out")
check "two default sweeps at once: two directories ($a, $b)" sh -c "test -n '$a' && test -n '$b' && test '$a' != '$b' && test -s '$dir/names/$a/points.csv' && test -s '$dir/names/$b/points.csv'"

# ---- resume: a configuration cut at a line boundary is measured again ----
"$train" $common --sweep batch=8,16 --out "$dir/res" >/dev/null 2>&1
cfg=$("$csvawk" 'NR == 2 { print $1 }' "$dir/res/points.csv")
rows=$(grep -c "^$cfg," "$dir/res/points.csv")
# its rows up to the one before its iteration median: whole lines, the configuration not
awk -F, -v c="$cfg" -v r="$rows" '$1 == c { k++; if (k >= r - 1) next } { print }' \
	"$dir/res/points.csv" >"$dir/cut" && cp "$dir/cut" "$dir/res/points.csv"
"$train" --resume "$dir/res" >/dev/null 2>"$dir/res.err"
check "--resume after a configuration cut at a line boundary: exit 0 (got $?)" test $? = 0
check "... says which configuration is measured again" grep -q "configuration '$cfg' has only some of its rows (cut while written): measured again" "$dir/res.err"
check "... every configuration whole once ($rows rows each)" "$csvawk" -v r="$rows" 'NR > 1 { k[$1]++ } END { for (c in k) if (k[c] != r) exit 1; exit length(k) != 3 }' "$dir/res/points.csv"
# a default sweep interrupted, then resumed: its directory loses .partial when it completes
mkdir -p "$dir/part"
(cd "$dir/part" && exec "$train" -m lenet5 -n 200 -w 0 -r 1 -c model --profile "$prof" \
	--sweep batch=8,16,32,48 >/dev/null 2>"$dir/part.err") &
pid=$!
for k in $(seq 600); do
	p=$(ls -d "$dir"/part/results/*.partial 2>/dev/null | head -n 1)
	[ -n "$p" ] && [ -f "$p/points.csv" ] && [ "$(wc -l <"$p/points.csv")" -gt 1 ] && break
	sleep 0.1
done
kill -INT $pid
wait $pid
p=$(ls -d "$dir"/part/results/*.partial 2>/dev/null | head -n 1)
(cd "$dir/part" && "$train" --resume "${p#$dir/part/}" >"$dir/part-r.out" 2>&1)
check "a resumed .partial directory completes: exit 0 (got $?)" test $? = 0
final=${p%.partial}
check "... and takes its name without .partial (${final#$dir/part/})" sh -c "test -n '$p' && test ! -e '$p' && test -s '$final/summary.txt' && grep -q '^results: ${final#$dir/part/} ' '$dir/part-r.out'"

# ---- a sweep whose every configuration failed ----
"$train" -m vgg16 -b 65536 -n 1 -w 0 -r 1 -c model --profile "$prof" --sweep threads=1 \
	--out "$dir/allfail" >"$dir/allfail.out" 2>"$dir/allfail.err"
check "every configuration failed: exit 1 (got $?)" grep -q "every configuration failed" "$dir/allfail.err"
check "... the failures recorded, the summary says none succeeded" sh -c "grep -q ',failed,' '$dir/allfail/points.csv' && grep -q '^no configuration succeeded' '$dir/allfail/summary.txt'"

# ---- the record: the environment oneDNN and its runtimes read ----
ONEDNN_VERBOSE=0 DNNL_MAX_CPU_ISA=ALL "$train" $common --sweep threads=1 --out "$dir/env" >/dev/null 2>&1
check "run.cfg records ONEDNN_* and DNNL_* variables" sh -c "grep -q '\"ONEDNN_VERBOSE=0\"' '$dir/env/run.cfg' && grep -q '\"DNNL_MAX_CPU_ISA=ALL\"' '$dir/env/run.cfg'"

# ---- a busy machine during a sweep: configurations that did not get their cores ----
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then
	taskset -c 1 sh -c 'while :; do :; done' &
	spin=$!
	taskset -c 0,1 "$train" -m lenet5 -n 300 -w 5 -r 1 -c model --profile "$prof" \
		--sweep threads=1,2 --out "$dir/busy" >"$dir/busy.out" 2>&1
	rc=$?
	kill $spin
	wait $spin 2>/dev/null
	check "a process spinning on a core during the sweep: exit 0 (got $rc)" test $rc = 0
	check "... the 2-thread configuration is flagged disturbed, with the cause" grep -q '^t2-b64-none,.*,disturbed,"\?busy: its runs got [0-9]*% of their 2 threads. time' "$dir/busy/points.csv"
	# the three busiest are named: the spinner among them (or three busier, said)
	named_busiest "... naming the spinning process (sh, pid $spin)" \
		"$(grep '^t2-b64-none,.*,disturbed,' "$dir/busy/points.csv" | head -n 1)" "$spin"
	def=$("$csvawk" 'NR == 2 { print $1 }' "$dir/busy/points.csv")
	verdict=$(head -n 1 "$dir/busy/summary.txt")
	echo "# $verdict"
	check "... never the best, and no speedup claimed against it" sh -c "
		for c in \$($csvawk '\$23 == \"disturbed\" { print \$1 }' '$dir/busy/points.csv' | sort -u); do
			case '$verdict' in \"best configuration: \$c,\"*) exit 1 ;; esac
			if [ \"\$c\" = '$def' ]; then case '$verdict' in *speedup*) exit 1 ;; esac; fi
		done"
	check "... the summary says which were disturbed" grep -q 'did not get .* cores (another process or a CPU quota): marked disturbed below' "$dir/busy/summary.txt"
else
	skip "a busy core needs two CPUs and taskset"
	skip "a busy core needs two CPUs and taskset"
	skip "a busy core needs two CPUs and taskset"
	skip "a busy core needs two CPUs and taskset"
fi
echo "1..$n"
