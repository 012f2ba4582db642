#!/usr/bin/env bash
# LeakSanitizer over the parts the ASan build of ./test.sh leaves out, LibTorch and Qt: a build
# with gcc 12's standalone LeakSanitizer (build/lsan, -DGP_LSAN=ON: no instrumentation, every
# allocation recorded, the heap searched for unreachable blocks when a process exits), then
#   1. the LibTorch tests (TorchScript import, the RL optimizer, pre-training, the cost model,
#      the DQN, distributed runs: ctest -L 'torch|rl'), then the app's and the views' Qt Tests
#      (-L gui): each test program, and each CLI run a test starts, exits with code 23 when it
#      leaked, which fails the test;
#   2. the long runs of scripts/soak.sh, shorter: an optimize of zoo:nmt with checkpoints and a
#      resume from the last one, a pre-training with its session, and the app under Xvfb
#      (tests/app/soak_test.cpp: GP_APP_SOAK_MODELS models, GP_APP_SOAK_OPTIMIZE Optimize / Stop).
#   scripts/leaks.sh [SECONDS] [tests,runs]       (default 120 s per run, both parts)
# Leaks inside libraries we do not build are suppressed in tests/lsan/suppressions.txt, each
# with its reason; a leak whose stack reaches our code is reported. Reports land in build/lsan/reports/ (one file per process that leaked or used a
# suppression); exits 1 when any part leaked or failed.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
DURATION=${1:-120}
WHICH=",${2:-tests,runs},"
scripts/setup.sh
BUILD=build/lsan
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGP_LSAN=ON -DGP_WITH_GUI=ON \
  -DGP_BUILD_BENCHMARKS=OFF -DGP_WITH_CUDA=OFF >/dev/null
TARGETS=(gp_torch_tests gp_rl_tests gp_dist_rank graphplace-cli graphplace gp_rl gp_torchscript)
for src in tests/app/*_test.cpp; do TARGETS+=("gp_app_$(basename "$src" .cpp)"); done
for src in tests/widgets/*_test.cpp; do TARGETS+=("gp_$(basename "$src" .cpp)"); done
cmake --build "$BUILD" -j"$(nproc)" --target "${TARGETS[@]}"

REPORTS="$ROOT/$BUILD/reports"
rm -rf "$REPORTS"
mkdir -p "$REPORTS"
# log_path: each process that leaked or used a suppression writes REPORTS/leak.PID; exitcode 23
# makes a leak visible to whoever started the process.
export LSAN_OPTIONS="suppressions=$ROOT/tests/lsan/suppressions.txt exitcode=23 log_path=$REPORTS/leak ${LSAN_OPTIONS:-}"
export OMP_WAIT_POLICY=PASSIVE
status=0

# gcc 12's LeakSanitizer does not hold its allocator's locks across fork(): a child forked while
# another thread allocates can wait forever on a lock no thread will release (seen: the app's
# ONNX shape-inference child, forked while a Qt pool thread allocated). The app's processes
# therefore run ONNX shape inference and the TorchScript readers in-process here
# (GP_ONNX_INFER_INPROCESS, GP_TORCHSCRIPT_INPROCESS: the same code without the fork).
APP_ENV=(GP_ONNX_INFER_INPROCESS=1 GP_TORCHSCRIPT_INPROCESS=1)
if [[ $WHICH == *,tests,* ]]; then
  (cd "$BUILD" && ctest --output-on-failure -j"$(nproc)" -L 'torch|rl') || status=1
  (cd "$BUILD" && env "${APP_ENV[@]}" xvfb-run -a ctest --output-on-failure -j"$(nproc)" -L gui) || status=1
fi

if [[ $WHICH == *,runs,* ]]; then
  CLI=$BUILD/app/graphplace-cli
  RUNS="$ROOT/$BUILD/runs"
  rm -rf "$RUNS"
  mkdir -p "$RUNS"
  half=$((DURATION / 2))
  run() {  # NAME COMMAND...: runs it, keeps its output, reports its exit status
    local name=$1
    shift
    if "$@" >"$RUNS/$name.out" 2>"$RUNS/$name.err"; then
      echo "leaks: $name: exit 0"
    else
      echo "leaks: $name: exit $? (see $RUNS/$name.err)"
      status=1
    fi
  }
  run optimize "$CLI" optimize zoo:nmt --cluster 4xP100-PCIe --budget-seconds "$half" --patience 1000000 \
    --threads 2 --checkpoint "$RUNS/optimize.ckpt" --checkpoint-every 5 --json
  run resume "$CLI" optimize zoo:nmt --cluster 4xP100-PCIe --budget-seconds "$half" --patience 1000000 \
    --threads 2 --resume "$RUNS/optimize.ckpt" --json
  run pretrain "$CLI" pretrain --models zoo:rnnlm,zoo:inception_v3 --clusters 4xP100-PCIe \
    --budget-seconds "$DURATION" --rounds 1000000 --threads 2 --checkpoint "$RUNS/pretrain.session" \
    --out "$RUNS/pretrain.pt" --json
  run app env "${APP_ENV[@]}" GP_APP_SOAK_MODELS="${GP_APP_SOAK_MODELS:-50}" GP_APP_SOAK_OPTIMIZE="${GP_APP_SOAK_OPTIMIZE:-100}" \
    QTEST_FUNCTION_TIMEOUT=86400000 xvfb-run -a "$BUILD/tests/app/gp_app_soak_test"
fi

# A process that used a suppression writes a file too, listing it; a leak report says "ERROR".
leaked=$(grep -l "ERROR: LeakSanitizer" "$REPORTS"/* 2>/dev/null | wc -l || true)
suppressed=$(grep -L "ERROR: LeakSanitizer" "$REPORTS"/* 2>/dev/null | wc -l || true)
echo "leaks: $leaked leak report(s) in $REPORTS; $suppressed process(es) with suppressed leaks only"
[ "$leaked" -eq 0 ] || status=1
exit $status
