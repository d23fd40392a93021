#!/bin/sh
# t-run-knobs.sh: roofline-run's named knobs and --sweep tune. Each knob's grammar and its
# refusals (the option, the value and the package or the reason named, a nonzero exit, nothing
# written), on nodes the test gives (ROOFTRAJ_SYSROOT: a CPU with or without bf16 math, one or
# two NUMA nodes, library directories with or without the allocators; a numactl of its own
# that records its words): the library found through the loader's paths and added after the
# user's own LD_PRELOAD, fpmath's variable reaching the command and the point's math
# following the log, numactl's words as run.cfg records them and as numactl got them, tune's
# alternatives on two nodes, its winners together and confirmed, --resume of it; an A/A tune
# never claims a speedup. PyTorch live: the allocator reached the Python process (its
# /proc/self/maps), oneDNN 2.6 saw the fpmath mode (its log's attribute).
. "$top_srcdir/tests/tap.sh"
dir=$(mktemp -d "${TMPDIR:-/tmp}/rt-t-run-knobs.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
run="$top_builddir/src/roofline-run"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
# the library directories are the test's: none of this environment's own
unset LD_LIBRARY_PATH LD_PRELOAD ONEDNN_DEFAULT_FPMATH_MODE DNNL_DEFAULT_FPMATH_MODE \
	ONEDNN_MAX_CPU_ISA DNNL_MAX_CPU_ISA OMP_NUM_THREADS
cpus=$(nproc)

# plain: no bf16 math, one NUMA node, no allocator library
identity_tree "$dir/plain" GenuineIntel 6 85
# rich: AVX512-BF16 (no AMX), two NUMA nodes, both allocators in a directory ld.so.conf
# names through an include (a shared object that does nothing: the loader loads it, as a run
# of allocator=jemalloc needs; one it cannot load fails the run, tests/t-run-edges.sh)
identity_tree "$dir/rich" AuthenticAMD 25 17
sed -i 's/^flags.*/& avx512f avx512dq avx512bw avx512vl avx512_vnni avx512_bf16/' "$dir/rich/proc/cpuinfo"
mkdir -p "$dir/rich/sys/devices/system/node/node0" "$dir/rich/sys/devices/system/node/node1" \
	"$dir/rich/etc/ld.so.conf.d" "$dir/rich/opt/rt-lib" "$dir/bin" "$dir/nobin"
printf '# the test'"'"'s\ninclude /etc/ld.so.conf.d/*.conf\n' >"$dir/rich/etc/ld.so.conf"
printf '/opt/rt-lib\n' >"$dir/rich/etc/ld.so.conf.d/rt.conf"
cp "$top_builddir/tests/preload-empty.so" "$dir/rich/opt/rt-lib/libjemalloc.so.2" &&
	cp "$top_builddir/tests/preload-empty.so" "$dir/rich/opt/rt-lib/libtcmalloc_minimal.so.4" ||
	exit 1
# a numactl that records its words and runs the command after "--"
cat >"$dir/bin/numactl" <<EOF
#!/bin/sh
echo "\$*" >>"$dir/numactl.args"
while [ \$# -gt 0 ] && [ "\$1" != "--" ]; do shift; done
shift
exec "\$@"
EOF
chmod +x "$dir/bin/numactl"
PATH="$dir/bin:$PATH"
export PATH

# refused: TREE SPEC REGEX [ENV...]: exit nonzero, the message, no directory written
refused() {
	_t=$1 _s=$2 _re=$3
	shift 3
	rm -rf "$dir/never"
	env ROOFTRAJ_SYSROOT="$dir/$_t" "$@" "$run" -o "$dir/never" -r 1 --sweep "$_s" -- /bin/true \
		>"$dir/ref.out" 2>"$dir/ref.err"
	_rc=$?
	check "--sweep $_s on $_t refused: exit $_rc, '$_re', nothing written" \
		sh -c "test $_rc -ne 0 && grep -q -- \"\$1\" '$dir/ref.err' && test ! -e '$dir/never'" \
		- "$_re"
}
refused plain allocator=jemalloc '^roofline-run: --sweep: allocator=jemalloc: libjemalloc.so.2 is not installed (Debian package libjemalloc2)$'
refused plain allocator=default,tcmalloc '^roofline-run: --sweep: allocator=tcmalloc: libtcmalloc_minimal.so.4 is not installed (Debian package libtcmalloc-minimal4)$'
refused rich allocator=mimalloc '^roofline-run: --sweep: allocator=mimalloc: not default, jemalloc or tcmalloc$'
refused rich allocator=jemalloc,JEMALLOC "^roofline-run: --sweep: allocator=JEMALLOC: the same as 'jemalloc'"
refused plain fpmath=strict,bf16 '^roofline-run: --sweep: fpmath=strict,bf16: not offered here: this CPU has neither AMX (amx_bf16) nor AVX512-BF16 (avx512_bf16)'
refused plain fpmath '^roofline-run: --sweep: fpmath: not offered here'
refused rich fpmath=strict,fp8 '^roofline-run: --sweep: fpmath=fp8: not strict or bf16$'
refused rich isa=avx2,avx512_core_amx '^roofline-run: --sweep: isa=avx512_core_amx: this CPU does not have it (no amx_tile amx_int8 amx_bf16 in /proc/cpuinfo.s flags): oneDNN would cap it silently'
refused plain isa=AVX10_1_512 '^roofline-run: --sweep: isa=avx10_1_512: this CPU does not have it (no avx512f avx512bw avx512vl avx512dq avx512_vnni avx512_bf16 avx512_fp16 in'
refused rich isa=avx3 "^roofline-run: --sweep: isa=avx3: not an ISA oneDNN names (all or default, sse41,"
refused rich isa '^roofline-run: --sweep isa: isa=LIST expected'
refused plain numa=interleave '^roofline-run: --sweep: numa=interleave: not offered here: this node has one NUMA node (/sys/devices/system/node)'
refused rich numa=bind:2 '^roofline-run: --sweep: numa=bind:2: node 2: this node has 2 NUMA nodes (0-1)$'
refused rich numa=bind:x '^roofline-run: --sweep: numa=bind:x: .x. is not a node list'
refused rich numa=everywhere '^roofline-run: --sweep: numa=everywhere: not none, local, interleave,'
refused rich numa=interleave '^roofline-run: --sweep: numa=interleave: numactl is not installed (Debian package numactl)$' PATH="$dir/nobin"
refused rich tune=threads:2,allocator:mimalloc '^roofline-run: --sweep: allocator=mimalloc: not default'
refused rich tune=threads '^roofline-run: --sweep tune=...: .threads.: KNOB:VALUE expected'
refused plain tune=fpmath:bf16 '^roofline-run: --sweep: fpmath=bf16: not offered here'
# two knobs setting one variable, tune beside another knob
rm -rf "$dir/never"
ROOFTRAJ_SYSROOT="$dir/rich" "$run" -o "$dir/never" --sweep env:LD_PRELOAD=a.so --sweep allocator=jemalloc -- /bin/true 2>"$dir/ref.err"
check "env:LD_PRELOAD and allocator= both set LD_PRELOAD: refused (exit $?), nothing written" sh -c "grep -q -- '--sweep allocator and --sweep env:LD_PRELOAD: both set LD_PRELOAD' '$dir/ref.err' && test ! -e '$dir/never'"
ROOFTRAJ_SYSROOT="$dir/rich" "$run" -o "$dir/never" --sweep fpmath=bf16 --sweep env:DNNL_DEFAULT_FPMATH_MODE=BF16 -- /bin/true 2>"$dir/ref.err"
check "fpmath= and env:DNNL_DEFAULT_FPMATH_MODE: refused (exit $?)" sh -c "grep -q -- 'both set DNNL_DEFAULT_FPMATH_MODE' '$dir/ref.err' && test ! -e '$dir/never'"
ROOFTRAJ_SYSROOT="$dir/rich" "$run" -o "$dir/never" --sweep threads=1 --sweep tune -- /bin/true 2>"$dir/ref.err"
check "tune beside another knob: refused (exit $?)" sh -c "grep -q -- '--sweep tune: tune chooses its knobs itself: give it alone' '$dir/ref.err' && test ! -e '$dir/never'"

# the allocator: found through ld.so.conf's include, after the user's own LD_PRELOAD
own=librt-test-own-preload.so
ROOFTRAJ_SYSROOT="$dir/rich" LD_PRELOAD=$own "$run" -o "$dir/al" -r 1 --no-overhead --no-hw-counters \
	--sweep allocator=default,jemalloc,tcmalloc -- /bin/sh -c 'echo "preload=[$LD_PRELOAD]"' >"$dir/al.out" 2>"$dir/al.err"
check "allocator=default,jemalloc,tcmalloc: exit 0 (got $?)" test -s "$dir/al/summary.txt"
check "... allocator=jemalloc: the user's own LD_PRELOAD first, the library ld.so.conf's include found after it" \
	grep -qx "preload=\[$own:$dir/rich/opt/rt-lib/libjemalloc.so.2\]" "$dir/al.out"
check "... allocator=tcmalloc: libtcmalloc_minimal.so.4" grep -qx "preload=\[$own:$dir/rich/opt/rt-lib/libtcmalloc_minimal.so.4\]" "$dir/al.out"
check "... default and allocator=default: the user's own alone (4 runs with the log, 2 confirming at most)" \
	sh -c "test \$(grep -cx 'preload=\[$own\]' '$dir/al.out') -ge 2"
check "... run.cfg: the sweep spelled out and each configuration's library" sh -c \
	"grep -q 'sweep = \[ \"allocator=default,jemalloc,tcmalloc\" \]' '$dir/al/run.cfg' &&
	 grep -q '{ name = \"allocator=jemalloc\"; environment = \[ \]; preload = \"$dir/rich/opt/rt-lib/libjemalloc.so.2\"; argv_prefix = \[ \]; }' '$dir/al/run.cfg'"
check "... points.csv: a row of each configuration named by its knob" sh -c \
	"\"$csvawk\" '\$col[\"scope\"] == \"run\" && \$col[\"status\"] ~ /^(ok|disturbed)\$/ { n[\$1]++ } END { exit !(n[\"default\"] && n[\"allocator=default\"] && n[\"allocator=jemalloc\"] && n[\"allocator=tcmalloc\"]) }' '$dir/al/points.csv'"

# fpmath: offered where the CPU has bf16 math; its variable reaches the command, and the
# point's math follows the log (a bf16 mode's attribute on an AMX implementation: bf16 math;
# on jit:avx512_core, which keeps f32 kernels: fp32)
cat >"$dir/fp.sh" <<'EOF'
#!/bin/sh
echo "fpmath-env=${ONEDNN_DEFAULT_FPMATH_MODE-unset}"
attr=
[ "$ONEDNN_DEFAULT_FPMATH_MODE" = BF16 ] && attr=attr-fpmath_mode:fpmath_mode_bf16
for impl in brg_conv_fwd:avx512_core_amx jit:avx512_core; do
	echo "onednn_verbose,exec,cpu,convolution,$impl,forward_training,src_f32::blocked:acdb:f0 wei_f32::blocked:Acdb16a:f0 bia_f32::blocked:a:f0 dst_f32::blocked:acdb:f0,attr-scratchpad:user $attr,alg:convolution_direct,mb1_ic16oc16_ih8oh8kh3sh1dh0ph1_iw8ow8kw3sw1dw0pw1,0.05"
done
EOF
chmod +x "$dir/fp.sh"
ROOFTRAJ_SYSROOT="$dir/rich" "$run" -o "$dir/fp" -r 1 --no-overhead --no-hw-counters --sweep fpmath -- "$dir/fp.sh" >"$dir/fp.out" 2>"$dir/fp.err"
check "fpmath on a node with AVX512-BF16: exit 0 (got $?)" test -s "$dir/fp/summary.txt"
check "... the default leaves the mode unset, strict and bf16 set it" sh -c \
	"grep -qx 'fpmath-env=unset' '$dir/fp.out' && grep -qx 'fpmath-env=STRICT' '$dir/fp.out' && grep -qx 'fpmath-env=BF16' '$dir/fp.out'"
prec() { "$csvawk" -v c="$1" -v i="$2" '$1 == c && $col["scope"] == "primitive" && $col["impl"] == i { print $col["precision"]; exit }' "$dir/fp/points.csv"; }
p1=$(prec fpmath=bf16 brg_conv_fwd:avx512_core_amx); p2=$(prec fpmath=bf16 jit:avx512_core); p3=$(prec fpmath=strict brg_conv_fwd:avx512_core_amx)
check "... fpmath=bf16: the AMX implementation's point is bf16 math ($p1), jit:avx512_core's fp32 ($p2); strict: fp32 ($p3)" \
	test "$p1/$p2/$p3" = "bf16/fp32/fp32"

# isa: the variable in oneDNN's spelling, the no-cap value unsetting it
ROOFTRAJ_SYSROOT="$dir/rich" ONEDNN_MAX_CPU_ISA=SSE41 "$run" -o "$dir/isa" -r 1 --no-overhead --no-hw-counters \
	--sweep isa=avx2,Avx512_Core_Bf16,default -- /bin/sh -c 'echo "isa-env=${ONEDNN_MAX_CPU_ISA-unset}"' >"$dir/isa.out" 2>"$dir/isa.err"
check "isa=avx2,Avx512_Core_Bf16,default: exit 0 (got $?)" test -s "$dir/isa/summary.txt"
check "... ONEDNN_MAX_CPU_ISA=AVX2, =AVX512_CORE_BF16, unset for default (SSE41, this environment's, for the default configuration)" sh -c \
	"grep -qx 'isa-env=AVX2' '$dir/isa.out' && grep -qx 'isa-env=AVX512_CORE_BF16' '$dir/isa.out' && grep -qx 'isa-env=unset' '$dir/isa.out' && grep -qx 'isa-env=SSE41' '$dir/isa.out'"
check "... configurations named by the words given, lowercase" grep -q '{ name = "isa=avx512_core_bf16"; environment = \[ "ONEDNN_MAX_CPU_ISA=AVX512_CORE_BF16" \]' "$dir/isa/run.cfg"

# numa on two nodes: numactl's words, as run.cfg records them and as numactl got them
rm -f "$dir/numactl.args"
ROOFTRAJ_SYSROOT="$dir/rich" "$run" -o "$dir/nu" -r 1 --no-overhead --no-hw-counters \
	--sweep numa=none,local,interleave:1,bind:0+1,preferred:1 -- /bin/sh -c 'echo numa-ran' >"$dir/nu.out" 2>"$dir/nu.err"
check "numa=none,local,interleave:1,bind:0+1,preferred:1 on two nodes: exit 0 (got $?)" test -s "$dir/nu/summary.txt"
check "... run.cfg: bind:0+1's words before the command" grep -qF "{ name = \"numa=bind:0+1\"; environment = [ ]; preload = \"\"; argv_prefix = [ \"$dir/bin/numactl\", \"--cpunodebind=0,1\", \"--membind=0,1\", \"--\" ]; }" "$dir/nu/run.cfg"
check "... numa=none runs no numactl" grep -qF '{ name = "numa=none"; environment = [ ]; preload = ""; argv_prefix = [ ]; }' "$dir/nu/run.cfg"
check "... numactl got each binding and the command after --" sh -c \
	"grep -qx -- '--localalloc -- /bin/sh -c echo numa-ran' '$dir/numactl.args' &&
	 grep -qx -- '--interleave=1 -- /bin/sh -c echo numa-ran' '$dir/numactl.args' &&
	 grep -qx -- '--cpunodebind=0,1 --membind=0,1 -- /bin/sh -c echo numa-ran' '$dir/numactl.args' &&
	 grep -qx -- '--preferred=1 -- /bin/sh -c echo numa-ran' '$dir/numactl.args'"
check "... and the command ran under it, each configuration" sh -c "test \$(grep -cx numa-ran '$dir/nu.out') -ge 6"

# tune chooses from the node: everything on rich, threads alone on plain
ROOFTRAJ_SYSROOT="$dir/rich" "$run" -o "$dir/tr" -r 1 --no-overhead --no-hw-counters --sweep tune -- /bin/true >"$dir/tr.out" 2>"$dir/tr.err"
check "tune on a node with bf16, two NUMA nodes, both allocators and numactl: exit 0 (got $?)" test -s "$dir/tr/summary.txt"
check "... run.cfg: threads=$cpus, both allocators, fpmath=bf16, numa interleave and bind:0" \
	grep -q "sweep = \[ \"tune=threads:$cpus,allocator:jemalloc,allocator:tcmalloc,fpmath:bf16,numa:interleave,numa:bind:0\" \]" "$dir/tr/run.cfg"
check "... the summary: each varied alone, not their product; the node lacked nothing" sh -c \
	"grep -q '^tune: 6 alternatives this node offers, each varied alone against the default (not their product): threads=$cpus, allocator=jemalloc, allocator=tcmalloc, fpmath=bf16, numa=interleave, numa=bind:0$' '$dir/tr/summary.txt' &&
	 grep -q '^tune: what this node lacks: nothing' '$dir/tr/summary.txt' && grep -q '^tune: the set chosen: ' '$dir/tr/summary.txt'"
ROOFTRAJ_SYSROOT="$dir/plain" "$run" -o "$dir/tp" -r 1 --no-overhead --no-hw-counters --sweep tune -- /bin/true >"$dir/tp.out" 2>"$dir/tp.err"
check "tune on a node without bf16, one NUMA node, no allocator: exit 0 (got $?)" test -s "$dir/tp/summary.txt"
check "... threads=$cpus alone" grep -q "sweep = \[ \"tune=threads:$cpus\" \]" "$dir/tp/run.cfg"
check "... the summary says what the node lacked" grep -q "^tune: what this node lacks: libjemalloc.so.2 is not installed (Debian package libjemalloc2): no allocator=jemalloc; libtcmalloc_minimal.so.4 is not installed (Debian package libtcmalloc-minimal4): no allocator=tcmalloc; no fpmath=bf16: this CPU has neither AMX (amx_bf16) nor AVX512-BF16 (avx512_bf16) in /proc/cpuinfo's flags: no bf16 math for oneDNN to lower f32 work to; no numa binding: one NUMA node$" "$dir/tp/summary.txt"

# the winners together: a command slower by 0.25 s for each of the two knobs left at its
# default (0.5 s as the default, 0.25 s with one, none with both): both win alone, together
# they are the fastest, and the runs without the log confirm it
cat >"$dir/slow.sh" <<'EOF'
#!/bin/sh
[ -n "$OMP_NUM_THREADS" ] || sleep 0.25
[ -n "$LD_PRELOAD" ] || sleep 0.25
EOF
chmod +x "$dir/slow.sh"
ROOFTRAJ_SYSROOT="$dir/rich" "$run" -o "$dir/tw" -r 2 --no-overhead --no-hw-counters --sweep tune=threads:1,allocator:jemalloc -- "$dir/slow.sh" >"$dir/tw.out" 2>"$dir/tw.err"
check "tune=threads:1,allocator:jemalloc: exit 0 (got $?)" test -s "$dir/tw/summary.txt"
if grep -q 'disturbed' "$dir/tw/summary.txt"; then
	skip "other work on the machine disturbed a configuration: no winners to judge"
	skip "(the same)"
	skip "(the same)"
else
	check "... both won alone, and together they ran as a configuration of their own" sh -c \
		"grep -q 'tune_together = \[ \"threads=1\", \"allocator=jemalloc\" \];' '$dir/tw/run.cfg' &&
		 grep -q '{ name = \"threads=1 allocator=jemalloc\"; environment = \[ \"OMP_NUM_THREADS=1\", \"TF_NUM_INTRAOP_THREADS=1\" \]; preload = \"$dir/rich/opt/rt-lib/libjemalloc.so.2\"; argv_prefix = \[ \]; together = true; }' '$dir/tw/run.cfg'"
	check "... the set chosen is the two together, confirmed without the log" \
		grep -q '^tune: the set chosen: threads=1 allocator=jemalloc, the fastest of those that beat the default with the log, confirmed without it (the verdict above)$' "$dir/tw/summary.txt"
	check "... the verdict names it" grep -q '^best configuration: threads=1 allocator=jemalloc, ' "$dir/tw/summary.txt"
fi
# the same decision from figures the test gives: tw's rows made undisturbed (the default
# 0.51 and 0.52 s, each alternative 0.26 and 0.27 s), its winners and their configuration
# taken out of run.cfg and points.csv: --resume decides again from these figures alone
python3 - "$dir/tw" <<'PY'
import csv, re, sys
d = sys.argv[1]
rows = list(csv.reader(open(d + "/points.csv")))
out = [rows[0]]
c = {name: k for k, name in enumerate(rows[0])}     # the columns by name
for r in rows[1:]:
    if r[c["config"]] not in ("default", "threads=1", "allocator=jemalloc") or \
       "without the log" in r[c["name"]]:
        continue
    if r[c["scope"]] == "run":
        w = (0.5 if r[c["config"]] == "default" else 0.25) + 0.01 * int(r[c["rep"]])
        r[c["seconds"]] = r[c["wall_seconds"]] = repr(w)
        r[c["status"]], r[c["reason"]] = "ok", ""
    out.append(r)
csv.writer(open(d + "/points.csv", "w"), lineterminator="\n").writerows(out)
cfg = open(d + "/run.cfg").read()
cfg = re.sub(r"\n *tune_together = [^\n]*", "", cfg)
cfg = re.sub(r"configurations = [0-9]+;", "configurations = 3;", cfg)
open(d + "/run.cfg", "w").write(cfg)
PY
ROOFTRAJ_SYSROOT="$dir/rich" "$run" --resume "$dir/tw" >"$dir/twr.out" 2>"$dir/twr.err"
check "--resume of tune's 3 configurations, given figures: exit 0 (got $?), none run again" sh -c \
	"test \$(grep -c 'measured before (resumed)' '$dir/twr.err') -eq 3"
check "... both alternatives beat the default, the fastest of each knob said with its figures" \
	grep -q '^tune: faster than the default with the log (the fastest value of each knob, wall time): threads=1 (0.265 s against 0.515 s), allocator=jemalloc (0.265 s against 0.515 s)$' "$dir/tw/summary.txt"
check "... their configuration together built, recorded and run" sh -c \
	"grep -q 'tune_together = \[ \"threads=1\", \"allocator=jemalloc\" \];' '$dir/tw/run.cfg' &&
	 grep -q '{ name = \"threads=1 allocator=jemalloc\"; environment = \[ \"OMP_NUM_THREADS=1\", \"TF_NUM_INTRAOP_THREADS=1\" \]; preload = \"$dir/rich/opt/rt-lib/libjemalloc.so.2\"; argv_prefix = \[ \]; together = true; }' '$dir/tw/run.cfg' &&
	 grep -q 'tune: the alternatives that won, together: threads=1 allocator=jemalloc' '$dir/twr.err' &&
	 grep -q '^tune: the winners together, threads=1 allocator=jemalloc: ' '$dir/tw/summary.txt'"
ROOFTRAJ_SYSROOT="$dir/rich" "$run" --resume "$dir/tw" >"$dir/twr2.out" 2>"$dir/twr2.err"
check "--resume again: the same 4 configurations (the winners' from run.cfg), each measured before (exit $?)" sh -c \
	"test \$(grep -c 'measured before (resumed)' '$dir/twr2.err') -eq 4 && grep -q '^4 configurations' '$dir/tw/summary.txt'"

# A/A: an alternative that changes nothing (allocator=default) never claims a speedup
ROOFTRAJ_SYSROOT="$dir/rich" "$run" -o "$dir/aa" -r 5 --no-overhead --no-hw-counters --sweep tune=allocator:default -- /bin/sh -c true >"$dir/aa.out" 2>&1
check "A/A tune (allocator=default against the default): no speedup claimed, the default kept" sh -c \
	"test -s '$dir/aa/summary.txt' && ! grep -q '^best configuration' '$dir/aa/summary.txt' && grep -q '^tune: the set chosen: the default' '$dir/aa/summary.txt'"
# (what it said, for a run that fails the check)
grep -E '^(best configuration|no configuration|the default configuration|tune: (faster|the set|none))' "$dir/aa/summary.txt" 2>/dev/null | sed 's/^/# A\/A: /'

# PyTorch live: the allocator in the Python process, oneDNN 2.6 under the fpmath mode
py=$(torch_python)
if [ -z "$py" ]; then
	skip "PyTorch is not installed (python3-torch)"
	skip "PyTorch is not installed (python3-torch)"
	skip "PyTorch is not installed (python3-torch)"
else
	cat >"$dir/pt.py" <<EOF
import runpy, sys
sys.argv = ["pytorch-cnn.py", "3", "8"]
runpy.run_path("$top_srcdir/tests/data/pytorch-cnn.py", run_name="__main__")
maps = open("/proc/self/maps").read()
print("maps: jemalloc=%d tcmalloc=%d" % ("libjemalloc" in maps, "libtcmalloc" in maps))
EOF
	have=
	for a in jemalloc tcmalloc; do
		"$run" -r 1 --no-overhead --no-hw-counters --sweep allocator=$a -o "$dir/probe-$a" -- /bin/true >/dev/null 2>&1 && have="$have,$a"
	done
	if [ -z "$have" ]; then
		skip "neither libjemalloc2 nor libtcmalloc-minimal4 is installed"
	else
		"$run" -o "$dir/pa" -r 1 --no-overhead --no-hw-counters --sweep "allocator=${have#,}" -- "$py" "$dir/pt.py" >"$dir/pa.out" 2>&1
		# each configuration's output follows its "[N] NAME, run 1 of 1" line
		got=$(awk '/^roofline-run: \[[0-9]+\] [^ ]*, run 1 of 1$/ { c = $3; sub(/,$/, "", c) } /^maps:/ && c != "" { printf "%s %s %s;", c, $2, $3; c = "" }' "$dir/pa.out")
		want="default jemalloc=0 tcmalloc=0;"
		case $have in *jemalloc*) want="${want}allocator=jemalloc jemalloc=1 tcmalloc=0;" ;; esac
		case $have in *tcmalloc*) want="${want}allocator=tcmalloc jemalloc=0 tcmalloc=1;" ;; esac
		check "PyTorch under allocator=${have#,}: each Python process mapped its configuration's library alone ($got)" test "$got" = "$want"
	fi
	ROOFTRAJ_SYSROOT="$dir/rich" "$run" -o "$dir/pf" -r 1 --no-overhead --no-hw-counters --sweep fpmath=bf16 -- "$py" "$top_srcdir/tests/data/pytorch-cnn.py" 2 8 >"$dir/pf.out" 2>"$dir/pf.err"
	check "PyTorch under fpmath=bf16 (exit $?): oneDNN's log carries the mode's attribute on its convolutions" sh -c \
		"grep -q 'convolution.*attr-fpmath_mode:fpmath_mode_bf16\|convolution.*attr-fpmath:bf16' '$dir/pf/onednn/c001-r1.log' && ! grep -q 'fpmath' '$dir/pf/onednn/c000-r1.log'"
	# the math each convolution point was given is the one rt_onednn_f32_math reads off its
	# implementation: bf16 only where the implementation has bf16 instructions
	check "... each convolution point's math follows its implementation (bf16 only on an AMX or bf16 ISA)" \
		"$csvawk" '$1 == "fpmath=bf16" && $col["scope"] == "primitive" && $col["kind"] == "convolution" { n++; amx = ($col["impl"] ~ /amx|bf16/); if ((amx && $col["precision"] != "bf16") || (!amx && $col["precision"] != "fp32")) bad++ } END { exit !(n > 0 && !bad) }' "$dir/pf/points.csv"
fi
# threads and affinity: the sweep engine's knobs (roofline-train's grammar, lists and checks)
# and its environment for each placement; a variable not swept stays as the command's
# environment has it
OMP_PLACES=threads "$run" -o "$dir/ta" -r 1 --no-overhead --no-hw-counters --sweep affinity=compact,none --sweep threads=1 -- sh -c 'echo "env $OMP_NUM_THREADS ${OMP_PLACES-unset} ${OMP_PROC_BIND-unset}"' >"$dir/ta.out" 2>&1
check "threads and affinity swept: each placement's environment as roofline-train sets it" sh -c "
	grep -qF '{ name = \"threads=1 affinity=compact\"; environment = [ \"OMP_NUM_THREADS=1\", \"OMP_PLACES=cores\", \"OMP_PROC_BIND=close\", \"TF_NUM_INTRAOP_THREADS=1\" ];' '$dir/ta/run.cfg' &&
	grep -qF '{ name = \"threads=1 affinity=none\"; environment = [ \"OMP_NUM_THREADS=1\", \"OMP_PLACES=\", \"OMP_PROC_BIND=\", \"TF_NUM_INTRAOP_THREADS=1\" ];' '$dir/ta/run.cfg' &&
	grep -qx 'env 1 cores close' '$dir/ta.out' && grep -qx 'env 1 unset unset' '$dir/ta.out' &&
	grep -qx 'env  threads unset' '$dir/ta.out'"
check "... run.cfg records the knobs as given, in the engine's spelling" grep -q 'sweep = \[ "affinity=compact,none", "threads=1" \];' "$dir/ta/run.cfg"
"$run" -o "$dir/tbig" --sweep threads=1,100000 -- true >"$dir/tbig.out" 2>&1
rc=$?
"$top_builddir/src/roofline-train" -o "$dir/tbig2" --sweep threads=1,100000 >"$dir/tbig2.out" 2>&1
check "threads past the node's hardware threads: refused by both tools in the same words (exit $rc)" sh -c "
	test $rc = 2 && test ! -e '$dir/tbig' && grep -q '^roofline-run: --sweep threads: ' '$dir/tbig.out' &&
	test \"\$(sed -n 's/^roofline-run: //p' '$dir/tbig.out' | head -n 1)\" = \"\$(sed -n 's/^roofline-train: //p' '$dir/tbig2.out' | head -n 1)\""
echo "1..$n"
