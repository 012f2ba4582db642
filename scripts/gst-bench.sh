#!/usr/bin/env bash
# Graph Segment Training against full back-propagation on a measured 64k-node graph
# (docs/performance.md, "Graph Segment Training"): GNMT's training step (zoo:gnmt at hidden 64,
# batch 4: about 64,000 ops) run whole on this CPU under random per-node layouts, two sets of
# plans (seeds 1 and 2); the plan model trained on set 1 with full back-propagation and with
# GST, each in its own process so its peak memory is its own; Kendall's tau on set 2.
# Usage: scripts/gst-bench.sh [OUT_DIR]        (about 20-30 minutes on 2 cores)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$ROOT/build/gst}
CLI=${CLI:-$ROOT/build/release/app/graphplace-cli}
EPOCHS=${EPOCHS:-6}
mkdir -p "$OUT"
MODEL=(zoo:gnmt --mode training --batch 4 --hidden 64)
for seed in 1 2; do
  [ -s "$OUT/plans$seed.json" ] ||
    "$CLI" dataset make "${MODEL[@]}" --plans "$OUT/plans$seed.json" --plan-configs 30 --repeats 3 --seed "$seed" --quiet
done

run() {  # NAME TRAIN-OPTIONS...
  local name=$1
  shift
  /usr/bin/time -f "%M" -o "$OUT/$name.rss" "$CLI" costmodel train "$OUT/plans1.json" --out "$OUT/$name.pt" \
    --epochs "$EPOCHS" --loss hinge --quiet --json "$@" > "$OUT/$name.train.json"
  "$CLI" costmodel eval "$OUT/plans2.json" --model "$OUT/$name.pt" --json > "$OUT/$name.eval.json"
  python3 - "$OUT" "$name" <<'PY'
import json, sys
out, name = sys.argv[1], sys.argv[2]
t = json.load(open(f"{out}/{name}.train.json"))
e = json.load(open(f"{out}/{name}.eval.json"))
rss = int(open(f"{out}/{name}.rss").read().split()[-1]) / 1024
print(f"| {name} | {t['seconds_per_step']:.2f} | {rss:.0f} | {e['learned']['kendall_tau']:.3f} | {e['learned']['top1_slowdown']*100:.1f} % |")
PY
}
echo "| training | s per step | peak RSS (MiB) | Kendall tau (held-out plans) | top-1 slowdown |"
echo "|---|---|---|---|---|"
run full --segment-nodes 0
run gst --segment-nodes 4000 --segments-per-step 2 --keep 0.5
