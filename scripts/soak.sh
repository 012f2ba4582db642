#!/usr/bin/env bash
# Long runs with their memory watched, side by side, each process's resident memory (VmRSS)
# sampled every 10 s:
#   optimize  a SECONDS-long optimize of zoo:nmt (checkpointing every 10 iterations)
#   pretrain  a SECONDS-long pre-training on three zoo models
#   app       the desktop app under Xvfb (tests/app/soak_test.cpp): 50 models opened one after
#             another with every baseline and undo / redo storms, and 100 Optimize / Stop
#   scripts/soak.sh [SECONDS] [KIND,...]      (default 1800 and optimize,pretrain,app; release build)
# Writes build/soak/KIND.csv (seconds, rss_mib) and the runs' output, and prints per run the RSS
# after the first minute, its peak, its last value and the growth over the second half of the
# run (MiB per hour, a least-squares line). Memory is "flat" when that growth is under 5 % of
# the mean per hour; the script exits 1 when a run failed or its memory was not flat.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
DURATION=${1:-1800}
WHICH=",${2:-optimize,pretrain,app},"
CLI=build/release/app/graphplace-cli
[ -x "$CLI" ] || { echo "soak: build the release tree first" >&2; exit 2; }
OUT=build/soak
mkdir -p "$OUT"
export OMP_WAIT_POLICY=PASSIVE


declare -A PIDS
if [[ $WHICH == *,optimize,* ]]; then
  "$CLI" optimize zoo:nmt --cluster 4xP100-PCIe --budget-seconds "$DURATION" --patience 1000000 --threads 1 \
    --checkpoint "$OUT/optimize.ckpt" --checkpoint-every 10 --json >"$OUT/optimize.out" 2>"$OUT/optimize.err" &
  PIDS[optimize]=$!
fi
if [[ $WHICH == *,pretrain,* ]]; then
  "$CLI" pretrain --models zoo:rnnlm,zoo:nmt,zoo:inception_v3 --clusters 4xP100-PCIe --budget-seconds "$DURATION" \
    --rounds 1000000 --threads 1 --checkpoint "$OUT/pretrain.session" --out "$OUT/pretrain.pt" --json \
    >"$OUT/pretrain.out" 2>"$OUT/pretrain.err" &
  PIDS[pretrain]=$!
fi
if [[ $WHICH == *,app,* ]]; then
  APP_TEST=build/release/tests/app/gp_app_soak_test
  # Qt Test stops a test function after 5 minutes unless told otherwise.
  GP_APP_SOAK_MODELS=50 GP_APP_SOAK_OPTIMIZE=100 QTEST_FUNCTION_TIMEOUT=86400000 xvfb-run -a "$APP_TEST" >"$OUT/app.out" 2>"$OUT/app.err" &
  PIDS[app]=$!
  # Watch the test program itself, not xvfb-run.
  for _ in $(seq 100); do
    if pid=$(pgrep -n -f "^$APP_TEST"); then WATCH_APP=$pid; break; fi
    sleep 0.1
  done
fi

for kind in "${!PIDS[@]}"; do echo "seconds,rss_mib" >"$OUT/$kind.csv"; done
t0=$(date +%s)
while :; do
  alive=0
  now=$(( $(date +%s) - t0 ))
  for kind in "${!PIDS[@]}"; do
    pid=${PIDS[$kind]}
    [ "$kind" = app ] && pid=${WATCH_APP:-0}
    if rss=$(awk '/^VmRSS:/ {printf "%.1f", $2 / 1024}' "/proc/$pid/status" 2>/dev/null) && [ -n "$rss" ]; then
      echo "$now,$rss" >>"$OUT/$kind.csv"
      alive=1
    fi
  done
  [ "$alive" -eq 1 ] || break
  sleep 10
done

status=0
for kind in "${!PIDS[@]}"; do
  if ! wait "${PIDS[$kind]}"; then
    echo "soak: $kind failed: $(tail -1 "$OUT/$kind.err")" >&2
    status=1
  fi
  /usr/bin/python3 - "$OUT/$kind.csv" "$kind" <<'PY' || status=1
import csv, sys
rows = [(float(r["seconds"]), float(r["rss_mib"])) for r in csv.DictReader(open(sys.argv[1]))]
if len(rows) < 4:
    sys.exit(f"soak: {sys.argv[2]}: too few samples")
warm = next((m for t, m in rows if t >= 60), rows[-1][1])
half = rows[len(rows) // 2:]
n = len(half)
mt = sum(t for t, _ in half) / n
mm = sum(m for _, m in half) / n
var = sum((t - mt) ** 2 for t, _ in half) or 1.0
slope = sum((t - mt) * (m - mm) for t, m in half) / var * 3600  # MiB per hour
flat = slope < 0.05 * mm
print(f"{sys.argv[2]}: {rows[-1][0]:.0f} s, {len(rows)} samples; RSS after 1 min {warm:.0f} MiB, peak "
      f"{max(m for _, m in rows):.0f} MiB, last {rows[-1][1]:.0f} MiB; second half {slope:+.1f} MiB/h "
      f"({'flat' if flat else 'GROWING'})")
sys.exit(0 if flat else 1)
PY
done
exit $status
