#!/usr/bin/env bash
# ThreadSanitizer over the tests whose code starts threads: a build of the core, the RL optimizer
# (search workers, cancellation, the incumbent, pre-training, the Gloo group's heartbeat), the
# CLI and the desktop app in build/tsan, then those tests (the CLI runs under TSan too in the
# Cli* tests) and the app's Qt Tests whose document jobs, layout jobs and optimizer runs use
# Qt's thread pool.
#   scripts/tsan.sh [threaded|app] [ctest args]
# runs both passes, or the one named; ctest args go to each pass that runs, and a -R given there
# replaces the pass's own list (e.g. scripts/tsan.sh threaded -R Ppo).
# LibTorch, Gloo, OpenMP and Qt are not instrumented: LibTorch's OpenMP regions run on the
# calling thread alone (OMP_THREAD_LIMIT=1 caps every team at one thread, whatever a test asks
# of torch::set_num_threads: OpenMP's barriers are invisible to TSan, so a tensor an OpenMP
# worker wrote would look racy), and tests/tsan/suppressions.txt suppresses the reports whose
# stacks pass through LibTorch, Gloo or OpenMP, each with its reason. In the app's tests TSan
# also ignores what Qt's own code allocates, frees and copies (ignore_noninstrumented_modules),
# and the hand-offs through Qt's pool and event queue are annotated (core/base/thread_handoff.h).
# A race in our own code fails the test. Tests that bound a latency allow kTimingSlack
# (tests/common/timing_slack.h) times more.
set -euo pipefail
PASSES="threaded app"
case "${1:-}" in threaded | app) PASSES=$1; shift ;; esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
scripts/setup.sh
BUILD=build/tsan
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGP_TSAN=ON -DGP_WITH_GUI=ON \
  -DGP_BUILD_BENCHMARKS=OFF -DGP_WITH_CUDA=OFF >/dev/null
# The app's tests that open models, measure, run baselines, lay out graphs, optimize, search
# parallel plans and train cost models in the background.
APP_TESTS="job_rules|main_window|first_view|plan_edit|run_window|optimize|optimize_tasks|parallel_plan|cost_model"
# Only what the passes that run need is built.
TARGETS=()
[[ " $PASSES " == *" threaded "* ]] && TARGETS+=(gp_rl_tests graphplace-cli gp_rl gp_dist_rank)
if [[ " $PASSES " == *" app "* ]]; then
  for t in ${APP_TESTS//|/ }; do TARGETS+=("gp_app_${t}_test"); done
fi
cmake --build "$BUILD" -j"$(nproc)" --target "${TARGETS[@]}"
SUPPRESSIONS="suppressions=$ROOT/tests/tsan/suppressions.txt"
export OMP_NUM_THREADS=1 OMP_THREAD_LIMIT=1 QT_QPA_PLATFORM=offscreen
# The tests whose code starts threads: the optimizer's search workers, cancellation and incumbent
# (Ppo, JointTasks, ColocRl, ...), pre-training, the Gloo group and its heartbeat (DistGroup, in
# processes of gp_dist_rank), CPU measurement, the cost model's training, and the CLI.
THREADED='^(Ppo|Pretrain|JointTasks|JointEdgeCases|ColocRl|LevelSearch|DistGroup|CpuMeasurement|CostModelTraining'
THREADED+='|GdpPolicy|CliPretrain|CliTasks)\.'
status=0
if [[ " $PASSES " == *" threaded "* ]]; then
  (cd "$BUILD" && TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 $SUPPRESSIONS ${TSAN_OPTIONS:-}" \
    ctest --output-on-failure -j"$(nproc)" -R "$THREADED" "$@") || status=1
fi
if [[ " $PASSES " == *" app "* ]]; then
  (cd "$BUILD" && TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ignore_noninstrumented_modules=1 $SUPPRESSIONS ${TSAN_OPTIONS:-}" \
    ctest --output-on-failure -j"$(nproc)" -R "^app\.($APP_TESTS)_test\$" "$@") || status=1
fi
exit $status
