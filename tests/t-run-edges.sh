#!/bin/sh
# t-run-edges.sh: roofline-run at its edges. SIGINT, SIGTERM and SIGHUP in the second of four
# configurations (sent by the command itself, to roofline-run: no timing): the summary names
# what ran and what did not, the page and the resume hint are there. --throughput's reader:
# a line read whole (its last figure, past 4 KiB), the same match on stdout and stderr (the
# line without its end: '$' anchors there on both), a line past the bound said and not read, a
# back-reference (exponential matching) refused. The loader's environment: --resume without
# the LD_LIBRARY_PATH or LD_PRELOAD the run started with refused; an allocator ld.so did not
# preload (a broken libjemalloc.so.2) fails its configuration; a run.cfg whose tune winners
# hold two allocators refused, naming its line. A directory on PATH named like the command
# passed over, as execvp passes it. A sysroot's cpuinfo that is a FIFO, a directory or not
# there: the error names it (no hang, no "this CPU does not have").
. "$top_srcdir/tests/tap.sh"
dir=$(mktemp -d "${TMPDIR:-/tmp}/rt-t-run-edges.XXXXXX") || exit 1
trap '[ -n "$KEEP" ] || rm -rf "$dir"' EXIT
cd "$dir" || exit 1
run="$top_builddir/src/roofline-run"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# a signal in the second of four configurations: the command (X=a) sends it to roofline-run,
# its supervisor's parent (/proc/PPID/stat's fourth field), and waits to be ended
for sig in INT TERM HUP; do
	"$run" -o "$dir/sig$sig" -r 1 --no-overhead --sweep env:X=a,b,c -- sh -c \
		"if [ \"\$X\" = a ]; then read -r _ _ _ run _ </proc/\$PPID/stat; \
		 kill -$sig \$run; exec sleep 60; fi" \
		>"$dir/sig$sig.out" 2>"$dir/sig$sig.err"
	rc=$?
	s="$dir/sig$sig/summary.txt"
	check "SIG$sig in the second of four configurations: exit 130, no crash (got $rc)" \
		test $rc = 130
	check "... summary.txt names what ran and what did not" sh -c "grep -q '^default  *[0-9.]* (' '$s' && grep -q '^X=a  *failed: interrupted\$' '$s' && grep -q '^X=b  *not run\$' '$s' && grep -q '^X=c  *not run\$' '$s'"
	check "... the resume hint, the page, run.cfg interrupted" sh -c "grep -q 'interrupted: 1 of 4 configurations finished; roofline-run --resume $dir/sig$sig runs the rest' '$s' && test -s '$dir/sig$sig/report.html' && grep -q 'status = \"interrupted\"' '$dir/sig$sig/run.cfg'"
done

# --throughput: the last figure of a line of 5 KiB, on either stream
for to in 1 2; do
	"$run" -o "$dir/long$to" -r 1 --no-overhead --throughput 'rate ([0-9]+)' -- sh -c \
		"printf 'rate 10 %05000d rate 500\\n' 0 >&$to" >/dev/null 2>&1
	check "--throughput: a line of 5 KiB read whole on fd $to: its last figure, 500" \
		grep -q 'its steady state 500 images/s (its one figure)' "$dir/long$to/summary.txt"
	"$run" -o "$dir/end$to" -r 1 --no-overhead --throughput 'rate ([0-9]+)$' -- sh -c \
		"echo 'rate 40' >&$to" >/dev/null 2>&1
	check "--throughput: 'rate ([0-9]+)\$' matches a line on fd $to (its newline not in it)" \
		grep -q 'its steady state 40 images/s (its one figure)' "$dir/end$to/summary.txt"
done
"$run" -o "$dir/over" -r 1 --no-overhead --throughput 'rate ([0-9]+)' -- sh -c \
	"printf 'rate 10 %020000d\\n' 0; echo 'rate 30'" >/dev/null 2>"$dir/over.err"
check "--throughput: a line over 16 KiB not read (said), the next one read" sh -c "grep -q \
'default: 1 line of the command.s output longer than 16384 bytes not read for its throughput' \
	'$dir/over.err' && grep -q 'its steady state 30 images/s (its one figure)' '$dir/over/summary.txt'"
"$run" -o "$dir/br" --throughput '(a*)*\1b' -- true >/dev/null 2>"$dir/br.err"
rc=$?
check "--throughput with a back-reference: refused, exit 2, nothing run (got $rc)" sh -c \
	"test $rc = 2 && grep -q \"^roofline-run: --throughput: '(a\\*)\\*.1b': the back-reference '.1' is not accepted\" '$dir/br.err' && test ! -e '$dir/br'"
"$run" -o "$dir/brk" -r 1 --no-overhead --throughput '([\1]+) x' -- sh -c "echo '1 x'" \
	>/dev/null 2>&1
check "--throughput: a back-slashed 1 inside a bracket expression is no back-reference" \
	grep -q 'its steady state 1 images/s' "$dir/brk/summary.txt"

# --resume under another loader's environment: refused, naming run.cfg's line and the variable
mkdir "$dir/lib"
LD_LIBRARY_PATH="$dir/lib" "$run" -o "$dir/llp" -r 1 --no-overhead -- true >/dev/null 2>&1
"$run" --resume "$dir/llp" >"$dir/llp.out" 2>&1
rc=$?
line=$(grep -n '^  environment = ' "$dir/llp/run.cfg" | cut -d: -f1)
check "--resume without the run's LD_LIBRARY_PATH: refused (exit $rc), run.cfg:$line named" \
	sh -c "test $rc = 1 && grep -q '^roofline-run: $dir/llp/run.cfg:$line: environment: LD_LIBRARY_PATH=$dir/lib when the run started, unset now' '$dir/llp.out'"
# (a sanitizer's runtime must come first where it is not preloaded: not checked here)
"$run" -o "$dir/ldp" -r 1 --no-overhead -- true >/dev/null 2>&1
ASAN_OPTIONS="$ASAN_OPTIONS:verify_asan_link_order=0" LD_PRELOAD=libc.so.6 "$run" \
	--resume "$dir/ldp" >"$dir/ldp.out" 2>&1
rc=$?
check "--resume with an LD_PRELOAD the run did not have: refused (exit $rc)" \
	sh -c "test $rc = 1 && grep -q 'run.cfg:[0-9]*: environment: LD_PRELOAD=libc.so.6 now, unset when the run started' '$dir/ldp.out'"

# a libjemalloc.so.2 the loader finds first (LD_LIBRARY_PATH) and cannot load
echo 'not a library' >"$dir/lib/libjemalloc.so.2"
echo 'not a library' >"$dir/lib/libtcmalloc_minimal.so.4"
LD_LIBRARY_PATH="$dir/lib" "$run" -o "$dir/je" -r 1 --no-overhead --sweep allocator=jemalloc \
	-- true >"$dir/je.out" 2>&1
check "allocator=jemalloc that ld.so did not preload: its run failed, ld.so's words its reason" \
	has_row "$dir/je/points.csv" config=allocator=jemalloc scope=run status=failed \
	"reason~^not the configuration's run: the loader did not preload its library \(ERROR: ld.so: object '$dir/lib/libjemalloc.so.2' from LD_PRELOAD cannot be preloaded"
check "... and said failed in the summary, not compared" sh -c "grep -q '^allocator=jemalloc  *failed: not the configuration' '$dir/je/summary.txt' && ! grep -q 'best configuration: allocator=jemalloc' '$dir/je/summary.txt'"

# tune's winners together, hand-edited to two allocators
LD_LIBRARY_PATH="$dir/lib" "$run" -o "$dir/tune" -r 1 --no-overhead \
	--sweep tune=allocator:jemalloc,allocator:tcmalloc -- true >/dev/null 2>&1
sed '/^    sweep = \[ "tune=/a\
    tune_together = [ "allocator=jemalloc", "allocator=tcmalloc" ];' "$dir/tune/run.cfg" \
	>"$dir/tune/run.cfg.new" && mv "$dir/tune/run.cfg.new" "$dir/tune/run.cfg"
line=$(grep -n '^    tune_together = ' "$dir/tune/run.cfg" | cut -d: -f1)
LD_LIBRARY_PATH="$dir/lib" "$run" --resume "$dir/tune" >"$dir/tune.out" 2>&1
rc=$?
check "run.cfg's tune winners with two allocators: refused (exit $rc), run.cfg:$line named" \
	sh -c "test $rc = 1 && test -n '$line' && grep -q \"^roofline-run: $dir/tune/run.cfg:$line: tune_together: 'allocator=jemalloc' and 'allocator=tcmalloc' set the same knob\" '$dir/tune.out'"

# a directory named sh early on PATH: the search goes on to the real sh
mkdir -p "$dir/shadow/sh"
PATH="$dir/shadow:$PATH" "$run" -o "$dir/shadow-run" -r 1 --no-overhead -- sh -c 'echo ran' \
	>"$dir/shadow.out" 2>&1
rc=$?
check "a directory named like the command on PATH: passed over, the command run (exit $rc)" \
	sh -c "test $rc = 0 && grep -qx ran '$dir/shadow.out' && ! grep -q 'is a directory' '$dir/shadow.out'"

# /proc/cpuinfo not a regular file, or not there, under ROOFTRAJ_SYSROOT (each run bounded by
# timeout only so that a hang fails rather than stalls the suite)
for kind in fifo dir gone; do
	identity_tree "$dir/id-$kind" GenuineIntel 6 143
	rm -f "$dir/id-$kind/proc/cpuinfo"
	case $kind in
	fifo) mkfifo "$dir/id-$kind/proc/cpuinfo"; why='not a regular file' ;;
	dir) mkdir "$dir/id-$kind/proc/cpuinfo"; why='not a regular file' ;;
	gone) ln -s "$dir/nowhere" "$dir/id-$kind/proc/cpuinfo"; why='No such file or directory' ;;
	esac
	for knob in isa=avx2 fpmath=bf16; do
		ROOFTRAJ_SYSROOT="$dir/id-$kind" timeout 120 "$run" -o "$dir/id-$kind-run" -r 1 \
			--sweep $knob -- true >"$dir/id.out" 2>&1
		rc=$?
		check "cpuinfo a $kind, --sweep $knob: refused (exit $rc), the file and why named" \
			sh -c "test $rc != 0 && test $rc != 124 && grep -q \"the CPU's flags not read: $dir/id-$kind/proc/cpuinfo: $why\" '$dir/id.out' && ! grep -q 'does not have\\|has neither' '$dir/id.out' && test ! -e '$dir/id-$kind-run'"
	done
done

# the loader's configuration (etc/ld.so.conf under ROOFTRAJ_SYSROOT) a FIFO: refused, never
# waited on, and not taken for a library that is not installed
identity_tree "$dir/ld-fifo" GenuineIntel 6 143
mkdir -p "$dir/ld-fifo/etc" && mkfifo "$dir/ld-fifo/etc/ld.so.conf"
ROOFTRAJ_SYSROOT="$dir/ld-fifo" timeout 120 "$run" -o "$dir/ld-fifo-run" -r 1 \
	--sweep allocator=jemalloc -- true >"$dir/ld.out" 2>&1
rc=$?
check "ld.so.conf a FIFO, --sweep allocator=jemalloc: refused (exit $rc), the file and why named" \
	sh -c "test $rc != 0 && test $rc != 124 && grep -q \"the loader's configuration not read: $dir/ld-fifo/etc/ld.so.conf: not a regular file\" '$dir/ld.out' && ! grep -q 'is not installed' '$dir/ld.out'"

# a hand-edited run.cfg with a number where the request holds a word (verbose = 7;): --resume
# takes it as the word "7" (and writes it so), and the configuration it runs gets ONEDNN_VERBOSE=7 (the number's
# text was once kept in the reader's stack and read after it was gone: ONEDNN_VERBOSE empty)
"$run" -o "$dir/num" -r 1 --no-overhead --no-hw-counters --sweep env:X=1,2 -- \
	sh -c 'echo "verbose [$ONEDNN_VERBOSE] X [$X]"' >/dev/null 2>&1
grep -v '^X=2,' "$dir/num/points.csv" >"$dir/num.csv" && cp "$dir/num.csv" "$dir/num/points.csv"
sed 's/^    verbose = "1";$/    verbose = 7;/' "$dir/num/run.cfg" >"$dir/num.cfg" && cp "$dir/num.cfg" "$dir/num/run.cfg"
"$run" --resume "$dir/num" >"$dir/num.out" 2>"$dir/num.err"
rc=$?
check "run.cfg's verbose a number, --resume (exit $rc): the configuration it runs gets ONEDNN_VERBOSE=7" \
	sh -c "test $rc = 0 && grep -q 'verbose = \"7\";' '$dir/num/run.cfg' && grep -qx 'verbose \\[7\\] X \\[2\\]' '$dir/num.out'"

echo "1..$n"
