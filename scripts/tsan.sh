#!/usr/bin/env bash
# ThreadSanitizer over the tests that start threads: a build of the core, the RL optimizer
# (search workers, cancellation, the incumbent, pre-training's ranks, the Gloo heartbeat) and the
# desktop app's background jobs, in build/tsan, then those tests.
#   scripts/tsan.sh [ctest args]       (e.g. -R Ppo to narrow it)
# LibTorch, OpenMP, OpenBLAS and Qt are not instrumented: the tests run LibTorch with one thread
# (OMP_NUM_THREADS=1), and tests/tsan/suppressions.txt holds the reports inside those libraries
# that TSan cannot follow, each with its reason. A race in our code fails the test.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
scripts/setup.sh
BUILD=build/tsan
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGP_TSAN=ON -DGP_BUILD_BENCHMARKS=OFF \
  -DGP_WITH_CUDA=OFF >/dev/null
rm -f "$BUILD"/*/*_autogen/timestamp
TARGETS=(gp_rl_tests graphplace-cli gp_rl gp_dist_rank)
for t in job_rules optimize optimize_tasks cost_model parallel_plan; do TARGETS+=("gp_app_${t}_test"); done
cmake --build "$BUILD" -j"$(nproc)" --target "${TARGETS[@]}"
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$ROOT/tests/tsan/suppressions.txt ${TSAN_OPTIONS:-}"
export OMP_NUM_THREADS=1 QT_QPA_PLATFORM=offscreen
# The tests whose code starts threads: the optimizer's search workers, cancellation and incumbent
# (Ppo, JointTasks, ...), pre-training and its ranks, the Gloo group's heartbeat, CPU measurement,
# the CLI run by the Cli* tests, and the app's background jobs.
THREADED='^(Ppo|Pretrain|JointTasks|JointEdgeCases|ColocRl|LevelSearch|DistGroup|CpuMeasurement|CostModelTraining'
THREADED+='|GdpPolicy|CliPretrain|CliTasks)\.|^app\.(job_rules|optimize|optimize_tasks|cost_model|parallel_plan)_test$'
(cd "$BUILD" && ctest --output-on-failure -j"$(nproc)" -R "$THREADED" "$@")
