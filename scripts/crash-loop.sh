#!/usr/bin/env bash
# The crash-consistency loops for longer than ctest runs them: graphplace-cli is killed (SIGKILL)
# at random moments while it writes placement files, traces, JSON graphs, optimize checkpoints,
# saved policies and pre-training sessions; every file must still load, and --resume must
# continue. Then the desktop app is killed the same way while it writes its settings, which
# must still read and keep every recent file. Prints the counts (runs, kills, files checked).
#   scripts/crash-loop.sh [SECONDS]          (default 600 for each loop; needs the release build)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SECONDS_LOOP=${1:-600}
BIN="$ROOT/build/release/tests/gp_rl_tests"
APP_TEST="$ROOT/build/release/tests/app/gp_app_settings_kill_test"
for b in "$BIN" "$APP_TEST"; do
  [ -x "$b" ] || { echo "crash-loop: build the release tree first (./test.sh or cmake --build build/release)" >&2; exit 2; }
done
GP_CRASH_LOOP_SECONDS="$SECONDS_LOOP" OMP_WAIT_POLICY=PASSIVE "$BIN" --gtest_filter='CrashConsistency.*'
GP_SETTINGS_KILL_SECONDS="$SECONDS_LOOP" "$APP_TEST" -platform offscreen
