#!/bin/sh
# t-frameworks.sh: roofline-run on today's frameworks. Live: the same small CNN (tests/data/
# pytorch-cnn.py, tf-cnn.py) trained 3 steps under PyTorch 2.x and TensorFlow 2.x from the
# virtual environment .ci/deps-frameworks makes; every primitive oneDNN ran counted exactly
# against the hand count of the layers' shapes, the same in each configuration; the images/s
# each prints read (--throughput); the coverage naming what each framework runs outside
# oneDNN; the threads knob setting what each framework reads, and the threads each ran with
# read from its log. Without the frameworks: the threads knob's variables under --framework,
# the knobs TensorFlow cannot read refused (--framework tensorflow) or said (auto, the log's
# runtime), on a saved TensorFlow log replayed. Nothing here depends on the machine's speed,
# load or CPU; the live part skips, saying why, where the environment is not there.
. "$top_srcdir/tests/tap.sh"
dir=$(mktemp -d "${TMPDIR:-/tmp}/rt-t-frameworks.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
run="$top_builddir/src/roofline-run"
data="$top_srcdir/tests/data"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
tflog="$data/frameworks/tf221-cnn.log"

# flops CSV CONFIG KIND PROP: the FLOPs of the kind rows of CONFIG's first run (rep 1)
flops() {
	"$csvawk" -v c="$2" -v k="$3" -v p="$4" '$1 == c && $col["scope"] == "kind" && $col["rep"] == 1 && $col["kind"] == k && $col["prop"] == p { s += $col["flops"] } END { printf "%.0f", s }' "$1"
}
# kinds CSV CONFIG: the kinds of CONFIG's first run, sorted, one line
kinds() {
	"$csvawk" -v c="$2" '$1 == c && $col["scope"] == "kind" && $col["rep"] == 1 { print $col["kind"] }' "$1" | sort -u | tr '\n' ' '
}
# env_of RUNCFG CONFIG: the environment run.cfg records for CONFIG
env_of() { grep "name = \"$2\"; environment" "$1" | sed 's/.*environment = \[\([^]]*\)\];.*/\1/'; }

# --- the threads knob's variables: each framework's (auto: both; each reads its own only)
"$run" -o "$dir/va" -r 1 --no-overhead --no-hw-counters --sweep threads=1 -- sh -c 'echo "threads ${OMP_NUM_THREADS-unset} ${TF_NUM_INTRAOP_THREADS-unset}"' >"$dir/va.out" 2>&1
check "auto: threads=1 sets OMP_NUM_THREADS=1 and TF_NUM_INTRAOP_THREADS=1" grep -qx 'threads 1 1' "$dir/va.out"
"$run" -o "$dir/vt" -r 1 --no-overhead --no-hw-counters --framework tensorflow --sweep threads=1 -- sh -c 'echo "threads ${OMP_NUM_THREADS-unset} ${TF_NUM_INTRAOP_THREADS-unset}"' >"$dir/vt.out" 2>&1
check "--framework tensorflow: TF_NUM_INTRAOP_THREADS=1 only" grep -qx 'threads unset 1' "$dir/vt.out"
e=$(env_of "$dir/vt/run.cfg" threads=1)
check "... run.cfg records --framework and the configuration's environment ($e)" sh -c "grep -q 'framework = \"tensorflow\";' '$dir/vt/run.cfg' && test '$e' = ' \"TF_NUM_INTRAOP_THREADS=1\" '"
"$run" -o "$dir/vp" -r 1 --no-overhead --no-hw-counters --framework pytorch --sweep threads=1 -- sh -c 'echo "threads ${OMP_NUM_THREADS-unset} ${TF_NUM_INTRAOP_THREADS-unset}"' >"$dir/vp.out" 2>&1
check "--framework pytorch: OMP_NUM_THREADS=1 only" grep -qx 'threads 1 unset' "$dir/vp.out"
"$run" -o "$dir/vc" -r 1 --no-overhead --no-hw-counters --sweep threads=1 --sweep env:TF_NUM_INTRAOP_THREADS=2 -- true >"$dir/vc.out" 2>&1
rc=$?
check "env:TF_NUM_INTRAOP_THREADS beside --sweep threads: refused, both set it (exit $rc)" sh -c "test $rc = 2 -o $rc = 1 && grep -q 'both set TF_NUM_INTRAOP_THREADS' '$dir/vc.out'"

# --- knobs TensorFlow cannot read: refused when said, before anything runs
for k in affinity env:OMP_PROC_BIND=close env:KMP_BLOCKTIME=0,1 env:GOMP_SPINCOUNT=0; do
	"$run" -o "$dir/rf" -r 1 --no-overhead --no-hw-counters --framework tensorflow --sweep "$k" -- sh -c 'echo ran' >"$dir/rf.out" 2>&1
	rc=$?
	check "--framework tensorflow --sweep $k: refused (exit $rc), nothing run, no directory" sh -c "test $rc = 1 && grep -q 'no effect on TensorFlow (--framework tensorflow): its oneDNN runs on TensorFlow.s own thread pool (runtime threadpool)' '$dir/rf.out' && ! grep -q '^ran' '$dir/rf.out' && test ! -e '$dir/rf'"
done
"$run" -o "$dir/bad" -r 1 --framework keras -- true >"$dir/bad.out" 2>&1
rc=$?
check "--framework keras: a usage error naming the words (exit $rc)" sh -c "test $rc = 2 && grep -q \"^roofline-run: --framework: 'keras' is not one of auto, pytorch, tensorflow\" '$dir/bad.out'"
# ... and said under auto, where the default's log shows TensorFlow's pool (its log replayed)
"$run" -o "$dir/said" -r 1 --no-overhead --no-hw-counters --sweep env:KMP_BLOCKTIME=0 -- cat "$tflog" >"$dir/said.out" 2>&1
check "auto, TensorFlow's log: the framework known from its runtime line" grep -q "^framework: TensorFlow (the default's log: oneDNN's threadpool runtime)$" "$dir/said/summary.txt"
check "... env:KMP_BLOCKTIME said to have had no effect" grep -q "^framework: env:KMP_BLOCKTIME had no effect: no OpenMP runtime reads it under TensorFlow's own thread pool" "$dir/said/summary.txt"
check "... no configuration compared, none claimed faster (its one knob cannot act)" sh -c "grep -q '^nothing compared: no knob swept acts on TensorFlow (its oneDNN runs on its own thread pool, which no OpenMP variable places or sizes): every configuration is the default as it runs$' '$dir/said/summary.txt' && ! grep -q '^best configuration' '$dir/said/summary.txt'"
check "... no PyTorch cure advised for a TensorFlow run" sh -c "test -s '$dir/said/summary.txt' && ! grep -q 'torch\|channels_last' '$dir/said/summary.txt'"
"$run" -o "$dir/mis" -r 1 --no-overhead --no-hw-counters --framework pytorch -- cat "$tflog" >"$dir/mis.out" 2>&1
check "--framework pytorch on a TensorFlow log: the mismatch said" grep -q "^framework: PyTorch (--framework pytorch), yet the default's log names oneDNN's threadpool runtime, not PyTorch's OpenMP" "$dir/mis/summary.txt"
"$run" -o "$dir/kmp" -r 1 --no-overhead --no-hw-counters --sweep env:KMP_BLOCKTIME=0 -- cat "$data/frameworks/pt215-cnn.log" >"$dir/kmp.out" 2>&1
check "PyTorch's log (OpenMP), env:KMP_BLOCKTIME: said to act only under Intel's or LLVM's OpenMP" grep -q "^framework: env:KMP_BLOCKTIME acts only where the command loads Intel's or LLVM's OpenMP (libiomp5, libomp): GNU's libgomp, which PyTorch's PyPI wheels load, does not read it" "$dir/kmp/summary.txt"
"$run" -o "$dir/mis2" -r 1 --no-overhead --no-hw-counters --framework tensorflow --sweep threads=1 -- cat "$data/frameworks/pt215-cnn.log" >"$dir/mis2.out" 2>&1
check "--framework tensorflow on PyTorch's log (nthr 2): its threads=1 said not to have taken, and why" grep -q "oneDNN ran 2 threads (its log.s nthr), not the 1 this configuration asked for: --framework tensorflow set TF_NUM_INTRAOP_THREADS, which PyTorch's OpenMP runtime does not read, so its threads did not take" "$dir/mis2/summary.txt"

# --- live: the venv of .ci/deps-frameworks ($ROOFTRAJ_VENV, or the script's default path)
venv=${ROOFTRAJ_VENV:-$(sh "$top_srcdir/.ci/deps-frameworks" --path 2>/dev/null)}
py="$venv/bin/python"
nlive_pt=9
nlive_tf=10
if [ ! -x "$py" ]; then
	why="no PyTorch 2.x / TensorFlow 2.x environment at '$venv' (sh .ci/deps-frameworks makes it)"
	i=0; while [ $i -lt $((nlive_pt + nlive_tf)) ]; do skip "$why"; i=$((i + 1)); done
	echo "1..$n"
	exit 0
fi
cpus=$(nproc 2>/dev/null || echo 1)
# the hand count of pytorch-cnn.py's and tf-cnn.py's layers, batch 16 (their comments give
# the shapes): 3x3 convolutions with padding 1 count only the taps that land on the input,
# 94 per dimension on 32x32 and 46 on 16x16; a bias is 1 FLOP an output, and so is a fused ReLU
mac1=$((16 * 16 * 3 * 94 * 94)); mac2=$((16 * 32 * 16 * 46 * 46))
out1=$((16 * 16 * 32 * 32)); out2=$((16 * 32 * 16 * 16))
conv=$((2 * mac1 + out1 + 2 * mac2 + out2))     # forward or backward weights, with the bias
pool=$((16 * 16 * 16 * 16 + 16 * 32 * 8 * 8))   # the two max pools' outputs
steps=3
# version DIST...: the version of the first of these distributions installed in the venv, by
# its metadata (an import costs seconds: the live training below imports it); exits nonzero
# below 2.x or when none is installed (a framework that is installed but does not import
# fails its training, said there)
version() {
	"$py" -c 'import sys, importlib.metadata as m
for d in sys.argv[1:]:
    try:
        v = m.version(d)
    except m.PackageNotFoundError:
        continue
    print(v)
    sys.exit(0 if int(v.split(".")[0]) >= 2 else "version " + v + ", not 2.x")
sys.exit("not installed: " + " or ".join(sys.argv[1:]))' "$@"
}

# PyTorch 2.x: oneDNN runs the convolutions; pooling, ReLU and the linear layer are ATen's
if ! ptv=$(version torch 2>"$dir/imp.err"); then
	i=0; while [ $i -lt $nlive_pt ]; do skip "no PyTorch 2.x in $venv: $(tail -n 1 "$dir/imp.err")"; i=$((i + 1)); done
else
	"$run" -o "$dir/pt" -r 1 --no-overhead --no-hw-counters --sweep threads=1 --throughput 'images/s ([0-9.]+)' -- "$py" "$data/pytorch-cnn.py" $steps 16 >"$dir/pt.out" 2>"$dir/pt.err"
	rc=$?
	check "PyTorch $ptv: a live training under roofline-run --sweep threads=1 (exit $rc)" test $rc = 0
	for c in default threads=1; do
		got="$(flops "$dir/pt/points.csv" $c convolution forward_training) $(flops "$dir/pt/points.csv" $c convolution backward_data) $(flops "$dir/pt/points.csv" $c convolution backward_weights)"
		want="$((steps * conv)) $((steps * 2 * mac2)) $((steps * conv))"
		check "... $c: convolution forward, backward data (conv2 only), backward weights FLOPs = the hand count ($got = $want)" test "$got" = "$want"
	done
	check "... oneDNN ran convolutions and reorders only ($(kinds "$dir/pt/points.csv" default))" test "$(kinds "$dir/pt/points.csv" default)" = "convolution reorder "
	check "... the coverage names what PyTorch runs outside oneDNN" grep -q "^coverage: oneDNN ran [0-9]*% of the default's wall time .* outside oneDNN (what PyTorch does besides oneDNN's primitives: ATen's own operators (pooling, activations, losses, optimizer steps), BLAS (MKL's sgemm for fp32 linear layers)" "$dir/pt/summary.txt"
	check "... the images/s it printed read, each configuration's" sh -c "test \$('$csvawk' '\$col[\"scope\"] == \"run\" && \$col[\"name\"] == \"command\" && \$col[\"images_per_s\"] > 0 { n++ } END { print n + 0 }' '$dir/pt/points.csv') -ge 2"
	check "... the framework: PyTorch, by its log's OpenMP runtime, threads by OMP_NUM_THREADS" grep -q "^framework: PyTorch (the default's log: oneDNN's OpenMP runtime); its threads read OMP_NUM_THREADS" "$dir/pt/summary.txt"
	# the threads each configuration ran with: oneDNN's log's nthr; the default's is
	# PyTorch's own choice (torch.get_num_threads(), which the script prints first)
	d=$(sed -n 's/.*runtime:OpenMP,nthr:\([0-9]*\).*/\1/p' "$dir/pt/onednn/c000-r1.log" | head -n 1)
	t=$(sed -n 's/.*runtime:OpenMP,nthr:\([0-9]*\).*/\1/p' "$dir/pt/onednn/c001-r1.log" | head -n 1)
	own=$(awk '/^iterations / { print $6; exit }' "$dir/pt.out")
	check "... the threads it ran with, by its log: the default $d (torch.get_num_threads() $own; CPUs $cpus), threads=1 $t" test -n "$d" -a "$d" = "$own" -a "$t" = 1
	check "... oneDNN 3.x, the log's version" grep -q "^the default: oneDNN v3\.[0-9.]*, OpenMP runtime, $d thread" "$dir/pt/summary.txt"
fi

# TensorFlow 2.x: oneDNN runs the convolutions (ReLU fused), the pools forward and backward,
# the dense layer forward and its gradients (gemm_api); the rest is Eigen's
if ! tfv=$(version tensorflow-cpu tensorflow 2>"$dir/imp.err"); then
	i=0; while [ $i -lt $nlive_tf ]; do skip "no TensorFlow 2.x in $venv: $(tail -n 1 "$dir/imp.err")"; i=$((i + 1)); done
else
	# oneDNN on, whatever this CPU (TensorFlow turns it on by itself only on CPUs with
	# AVX512_VNNI, AVX512_BF16, AVX_VNNI or AMX)
	TF_ENABLE_ONEDNN_OPTS=1 "$run" -o "$dir/tf" -r 1 --no-overhead --no-hw-counters --sweep threads=1 --throughput 'images/s ([0-9.]+)' -- "$py" "$data/tf-cnn.py" $steps 16 >"$dir/tf.out" 2>"$dir/tf.err"
	rc=$?
	check "TensorFlow $tfv: a live training under roofline-run --sweep threads=1 (exit $rc)" test $rc = 0
	for c in default threads=1; do
		got="$(flops "$dir/tf/points.csv" $c convolution forward_training) $(flops "$dir/tf/points.csv" $c convolution backward_data) $(flops "$dir/tf/points.csv" $c convolution backward_weights)"
		want="$((steps * (conv + out1 + out2))) $((steps * 2 * mac2)) $((steps * conv))"
		check "... $c: convolutions (forward with ReLU fused), backward data, backward weights = the hand count ($got = $want)" test "$got" = "$want"
	done
	got="$(flops "$dir/tf/points.csv" default pooling forward_training) $(flops "$dir/tf/points.csv" default pooling backward_data) $(flops "$dir/tf/points.csv" default inner_product forward_training) $(flops "$dir/tf/points.csv" default gemm_api undef)"
	want="$((steps * 3 * pool)) $((steps * pool)) $((steps * (2 * 16 * 2048 * 10 + 16 * 10))) $((steps * 2 * (2 * 2048 * 16 * 10)))"
	check "... max pools forward and backward, the dense layer forward and its two gradient GEMMs = the hand count ($got = $want)" test "$got" = "$want"
	check "... those kinds and reorders only, none uncounted ($(kinds "$dir/tf/points.csv" default))" sh -c "test '$(kinds "$dir/tf/points.csv" default)' = 'convolution gemm_api inner_product pooling reorder ' && ! grep -q 'kinds not counted' '$dir/tf/summary.txt'"
	check "... the coverage names what TensorFlow runs outside oneDNN" grep -q "^coverage: oneDNN ran [0-9]*% of the default's wall time .* outside oneDNN (what TensorFlow does besides oneDNN's primitives: Eigen's operators (activation and bias gradients, losses, optimizer updates)" "$dir/tf/summary.txt"
	check "... the images/s it printed read, each configuration's" sh -c "test \$('$csvawk' '\$col[\"scope\"] == \"run\" && \$col[\"name\"] == \"command\" && \$col[\"images_per_s\"] > 0 { n++ } END { print n + 0 }' '$dir/tf/points.csv') -ge 2"
	check "... the framework: TensorFlow, by its log's threadpool runtime, threads by TF_NUM_INTRAOP_THREADS" grep -q "^framework: TensorFlow (the default's log: oneDNN's threadpool runtime); its threads read TF_NUM_INTRAOP_THREADS" "$dir/tf/summary.txt"
	d=$(sed -n 's/.*runtime:threadpool,nthr:\([0-9]*\).*/\1/p' "$dir/tf/onednn/c000-r1.log" | head -n 1)
	t=$(sed -n 's/.*runtime:threadpool,nthr:\([0-9]*\).*/\1/p' "$dir/tf/onednn/c001-r1.log" | head -n 1)
	# (the default: TensorFlow's pool, one a CPU it may use where no quota says otherwise)
	check "... the threads its pool ran with, by its log: the default $d (CPUs $cpus), threads=1 $t" test -n "$d" -a "$d" -ge 1 -a "$t" = 1
	check "... no thread count said not to have taken" sh -c "test -s '$dir/tf/summary.txt' && ! grep -q 'its threads did not take' '$dir/tf/summary.txt'"
fi
echo "1..$n"
