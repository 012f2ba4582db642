#!/usr/bin/env bash
# The crash-consistency loop for longer than ctest runs it: graphplace-cli is killed (SIGKILL) at
# random moments while it writes placement files, traces, JSON graphs, optimize checkpoints,
# saved policies and pre-training sessions; every file must still load, and --resume must
# continue. Prints the counts (runs, kills, files checked, torn files).
#   scripts/crash-loop.sh [SECONDS]          (default 600; needs the release build)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SECONDS_LOOP=${1:-600}
BIN="$ROOT/build/release/tests/gp_rl_tests"
[ -x "$BIN" ] || { echo "crash-loop: build the release tree first (./test.sh or cmake --build build/release)" >&2; exit 2; }
GP_CRASH_LOOP_SECONDS="$SECONDS_LOOP" OMP_WAIT_POLICY=PASSIVE "$BIN" --gtest_filter='CrashConsistency.*'
