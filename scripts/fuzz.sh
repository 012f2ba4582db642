#!/usr/bin/env bash
# Builds the libFuzzer programs (tests/fuzz; clang, ASan + UBSan, coverage) in build/fuzz and runs
# every target, or the ones named, for SECONDS each, as many at once as there are cores.
#   scripts/fuzz.sh [SECONDS] [TARGET...]        (default 60 s; targets: gp_fuzz_replay --list)
#   GP_FUZZ_RUNS=N   stop a target after N executions if that comes before SECONDS
#   GP_FUZZ_JOBS=N   targets run at once (default: the number of cores)
# Limits per input: 10 s (a hang) and 2 GiB (out of memory); either is a failure like a crash.
# Each target's corpus grows in build/fuzz/work/TARGET (seeded from tests/fuzz/corpus/TARGET and
# kept between runs); a failing input lands in build/fuzz/artifacts/TARGET/ (this run's count). Prints a table per
# target (executions, coverage, corpus, failures), also written to build/fuzz/summary.md, and
# exits 1 when any target failed. A failing input, once fixed, goes to
# tests/fuzz/regressions/TARGET/ so that ./test.sh replays it.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
SECONDS_EACH=${1:-60}
shift || true
scripts/setup.sh

BUILD=build/fuzz
CXX=clang++ cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGP_FUZZ=ON \
  -DGP_WITH_TORCH=OFF -DGP_WITH_GUI=OFF -DGP_BUILD_BENCHMARKS=OFF -DGP_WITH_CUDA=OFF >/dev/null
cmake --build "$BUILD" -j"$(nproc)" --target gp_fuzz_all

if [ $# -gt 0 ]; then
  TARGETS=("$@")
else
  mapfile -t TARGETS < <(ls tests/fuzz/corpus)
fi
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

run_target() {
  local t=$1 work="$BUILD/work/$1" artifacts="$BUILD/artifacts/$1"
  mkdir -p "$work" "$artifacts"
  local args=(-max_total_time="$SECONDS_EACH" ${GP_FUZZ_RUNS:+-runs="$GP_FUZZ_RUNS"} -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048
              -artifact_prefix="$artifacts/" -print_final_stats=1 "$work" "tests/fuzz/corpus/$t")
  [ -d "tests/fuzz/regressions/$t" ] && args+=("tests/fuzz/regressions/$t")
  "$BUILD/tests/fuzz/gp_fuzz_$t" "${args[@]}" >"$BUILD/logs/$t.log" 2>&1 || true
}

mkdir -p "$BUILD/logs"
stamp="$BUILD/logs/.started"
touch "$stamp"
pids=()
for t in "${TARGETS[@]}"; do
  [ -x "$BUILD/tests/fuzz/gp_fuzz_$t" ] || { echo "fuzz: no target $t" >&2; exit 2; }
  while [ "$(jobs -rp | wc -l)" -ge "${GP_FUZZ_JOBS:-$(nproc)}" ]; do sleep 1; done
  echo "fuzz: $t for ${SECONDS_EACH} s"
  run_target "$t" &
  pids+=($!)
done
wait

failed=0
{
  echo "| target | executions | seconds | exec/s | coverage (edges) | features | corpus | failures |"
  echo "|---|---|---|---|---|---|---|---|"
  for t in "${TARGETS[@]}"; do
    log="$BUILD/logs/$t.log"
    # a run stopped by hand (or by a failure) prints no "Done": its seconds stay "?"
    execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | awk '{print $2}' | tail -1 || true)
    secs=$(grep -oE 'Done [0-9]+ runs in [0-9]+ second' "$log" | awk '{print $5}' | tail -1 || true)
    rate=$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$log" | awk '{print $2}' | tail -1 || true)
    cov=$(grep -oE '(DONE|pulse|NEW|REDUCE|INITED) +cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' "$log" | tail -1 || true)
    artifacts=$(find "$BUILD/artifacts/$t" -type f -newer "$stamp" | wc -l)
    [ "$artifacts" -gt 0 ] && failed=1
    read -r _ _ edges _ features _ corpus <<<"${cov:-x x ? x ? x ?}"
    echo "| $t | ${execs:-?} | ${secs:-?} | ${rate:-?} | $edges | $features | $corpus | $artifacts |"
  done
} | tee "$BUILD/summary.md"
if [ "$failed" -ne 0 ]; then
  echo "fuzz: failures in $BUILD/artifacts (logs in $BUILD/logs)" >&2
  exit 1
fi
