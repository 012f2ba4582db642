#!/usr/bin/env bash
# The RL optimizer's quality table (issue 5, item 8; docs/performance.md): every zoo workload on
# 4xP100-PCIe and 8xV100-DGX1, the optimized plan (default = shipped pre-trained policy,
# fine-tuned from the best baseline for BUDGET seconds) against the expert rule, the best
# baseline and the lower bound; then zero-shot vs fine-tuned on the workload the shipped policy
# was not pre-trained on (inception_v3).
#   tests/benchmarks/optimize_quality.sh [BUDGET_SECONDS=60] [CLI=build/release/app/graphplace-cli]
set -euo pipefail
budget=${1:-60}
cli=${2:-build/release/app/graphplace-cli}
threads=${THREADS:-2}
for cluster in 4xP100-PCIe 8xV100-DGX1; do
  "$cli" bench --optimize --cluster "$cluster" --budget-seconds "$budget" --threads "$threads" --seed 1
  echo
done
held_out=zoo:inception_v3
for cluster in 4xP100-PCIe 8xV100-DGX1; do
  for run in "zero-shot:--iterations 0" "fine-tuned:--budget-seconds $budget" "scratch:--policy scratch --budget-seconds $budget"; do
    name=${run%%:*}
    # shellcheck disable=SC2086
    "$cli" optimize "$held_out" --cluster "$cluster" --threads "$threads" --seed 1 ${run#*:} --json |
      python3 -c "import json,sys; j=json.load(sys.stdin); b=j['best_baseline']['step_time_ms']; \
print(f\"$held_out on $cluster, $name: {j['step_time_ms']:.1f} ms (best baseline {b:.1f} ms, {100*(b-j['step_time_ms'])/b:.1f}% faster), {j['iterations']} iterations, {j['seconds']:.1f} s\")"
  done
done
