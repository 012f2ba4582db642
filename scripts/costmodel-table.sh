#!/usr/bin/env bash
# The learned cost model against the roofline + calibration model on this machine's CPU, with
# whole model families held out (docs/performance.md, "Learned cost model"):
#   1. measures the zoo models below at small sizes (dataset make: every distinct kernel under
#      8 configurations, each model under random per-node layouts), one dataset per model,
#      merged;
#   2. trains the kernel and plan models on the training families and fits the roofline on the
#      same kernels;
#   3. scores both on the held-out families;
#   4. with LIVE=1, measures held-out models afresh with the models in resources/costmodels
#      (costmodel eval --device cpu: kernels, plans with the kernel-sum predictor, the simulated
#      step on the cpu cluster against the measured one; costmodel screen: 8 of 48 plans).
# Usage: scripts/costmodel-table.sh [OUT_DIR] [HELD_OUT_FAMILIES]   (about 15-25 minutes on 2 cores;
#   LIVE=1 about 10 more)
#   SHIP=1 also copies the models and the fitted roofline to resources/costmodels (before step 4).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$ROOT/build/costmodel}
HELD=${2:-inception,bert,gnmt,wavenet}
CLI=${CLI:-$ROOT/build/release/app/graphplace-cli}
REPEATS=${REPEATS:-5}
mkdir -p "$OUT/parts"

# model spec | options
MODELS=(
  "zoo:resnet50|--batch 1"
  "zoo:resnet50|--batch 2 --layers 101"
  "zoo:inception_v3|--batch 1"
  "zoo:amoebanet|--batch 1 --layers 1 --hidden 48"
  "zoo:rnnlm|--batch 16 --seq-len 8"
  "zoo:nmt|--batch 16 --seq-len 8"
  "zoo:gnmt|--batch 16 --seq-len 6 --layers 2"
  "zoo:bert_base|--batch 1 --seq-len 128 --layers 2"
  "zoo:transformer_xl|--batch 1 --seq-len 128 --layers 2"
  "zoo:wavenet|--batch 1 --seq-len 4096 --layers 4"
  "zoo:random_dag|--batch 4 --layers 30 --graph-seed 1"
  "zoo:random_dag|--batch 4 --layers 30 --graph-seed 2"
  "zoo:random_dag|--batch 4 --layers 30 --graph-seed 3"
  "zoo:gpt_1_3b|--batch 1 --seq-len 128 --layers 2 --hidden 1024"
  "zoo:t5_base|--batch 1 --seq-len 64 --layers 2"
)

kernels=() plans=()
i=0
for entry in "${MODELS[@]}"; do
  spec=${entry%%|*}
  opts=${entry#*|}
  i=$((i + 1))
  k="$OUT/parts/k$i.json" p="$OUT/parts/p$i.json"
  if [ ! -s "$k" ] || [ ! -s "$p" ]; then
    echo "== $spec $opts"
    # shellcheck disable=SC2086
    "$CLI" dataset make "$spec" $opts --kernels "$k" --plans "$p" --repeats "$REPEATS" --plan-configs 24 --quiet
  fi
  kernels+=("$k")
  [ -s "$p" ] && plans+=("$p")
done
"$CLI" dataset merge "${kernels[@]}" --out "$OUT/kernels.json"
"$CLI" dataset merge "${plans[@]}" --out "$OUT/plans.json"

echo "== train (held out: $HELD)"
"$CLI" costmodel train "$OUT/kernels.json" --hold-out "$HELD" --out "$OUT/cpu_kernel.pt" \
  --roofline-out "$OUT/cpu_roofline.json" --epochs "${KERNEL_EPOCHS:-150}" --quiet --json
"$CLI" costmodel train "$OUT/plans.json" --hold-out "$HELD" --out "$OUT/cpu_plan.pt" \
  --epochs "${PLAN_EPOCHS:-150}" --quiet --json

echo "== held-out families: $HELD"
"$CLI" costmodel eval "$OUT/kernels.json" --model "$OUT/cpu_kernel.pt" --hold-out "$HELD"
"$CLI" costmodel eval "$OUT/plans.json" --model "$OUT/cpu_plan.pt" --hold-out "$HELD" --fit "$OUT/kernels.json"
"$CLI" costmodel eval "$OUT/kernels.json" --model "$OUT/cpu_kernel.pt" --hold-out "$HELD" --json > "$OUT/kernel_eval.json"
"$CLI" costmodel eval "$OUT/plans.json" --model "$OUT/cpu_plan.pt" --hold-out "$HELD" --fit "$OUT/kernels.json" \
  --json > "$OUT/plan_eval.json"

if [ "${SHIP:-0}" = 1 ]; then
  mkdir -p "$ROOT/resources/costmodels"
  cp "$OUT/cpu_kernel.pt" "$OUT/cpu_plan.pt" "$OUT/cpu_roofline.json" "$ROOT/resources/costmodels/"
  echo "shipped to resources/costmodels"
fi

if [ "${LIVE:-0}" = 1 ]; then
  # held-out models at the sizes measured above
  for entry in "zoo:bert_base|--batch 1 --seq-len 128 --layers 2" "zoo:inception_v3|--batch 1" \
               "zoo:wavenet|--batch 1 --seq-len 4096 --layers 4" "zoo:gnmt|--batch 16 --seq-len 6 --layers 2"; do
    spec=${entry%%|*}
    opts=${entry#*|}
    name=${spec#zoo:}
    echo "== $spec $opts: eval --device cpu, screen 8 of 48"
    # shellcheck disable=SC2086
    "$CLI" costmodel eval "$spec" $opts --device cpu --quiet --json > "$OUT/live_eval_$name.json"
    # shellcheck disable=SC2086
    "$CLI" costmodel screen "$spec" $opts --device cpu --candidates 48 --screen 8 --repeats 3 --json \
      > "$OUT/live_screen_$name.json"
    cat "$OUT/live_eval_$name.json" "$OUT/live_screen_$name.json"
  done
fi
