#!/usr/bin/env bash
# ThreadSanitizer over the tests whose code starts threads: a build of the core, the RL optimizer
# (search workers, cancellation, the incumbent, pre-training, the Gloo group's heartbeat) and
# the CLI in build/tsan, then those tests (the CLI runs under TSan too in the Cli* tests).
#   scripts/tsan.sh [ctest args]       (e.g. -R Ppo to narrow it)
# LibTorch, Gloo, OpenMP and Qt are not instrumented: the tests run LibTorch with one thread
# (OMP_NUM_THREADS=1), and tests/tsan/suppressions.txt suppresses the reports whose stacks pass
# through those libraries, each with its reason. A race in our own code fails the test.
# The desktop app's jobs are left out: Debian's Qt is not built with TSan, and its thread pool
# hands every QtConcurrent task to a worker through a queue TSan cannot see (docs/reliability.md).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
scripts/setup.sh
BUILD=build/tsan
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGP_TSAN=ON -DGP_WITH_GUI=OFF \
  -DGP_BUILD_BENCHMARKS=OFF -DGP_WITH_CUDA=OFF >/dev/null
cmake --build "$BUILD" -j"$(nproc)" --target gp_rl_tests graphplace-cli gp_rl gp_dist_rank
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$ROOT/tests/tsan/suppressions.txt ${TSAN_OPTIONS:-}"
export OMP_NUM_THREADS=1
# The tests whose code starts threads: the optimizer's search workers, cancellation and incumbent
# (Ppo, JointTasks, ColocRl, ...), pre-training, the Gloo group and its heartbeat (DistGroup, in
# processes of gp_dist_rank), CPU measurement, the cost model's training, and the CLI.
THREADED='^(Ppo|Pretrain|JointTasks|JointEdgeCases|ColocRl|LevelSearch|DistGroup|CpuMeasurement|CostModelTraining'
THREADED+='|GdpPolicy|CliPretrain|CliTasks)\.'
(cd "$BUILD" && ctest --output-on-failure -j"$(nproc)" -R "$THREADED" "$@")
