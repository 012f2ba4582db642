#!/usr/bin/env bash
# The RL optimizer's quality tables (docs/performance.md):
#  1. every zoo workload on 4xP100-PCIe and 8xV100-DGX1: the optimized plan (default = the
#     shipped pre-trained policy, fine-tuned from the best baseline for BUDGET seconds) against
#     the expert rule, the best baseline and the lower bound;
#  2. on the workload the shipped policy was not pre-trained on (inception_v3): zero-shot,
#     fine-tuned, from scratch, and the pre-trained policy without updates (search only);
#  3. ColocRL (the 2017 paper's policy, from nothing) on the paper's three workloads.
#   tests/benchmarks/optimize_quality.sh [BUDGET_SECONDS=60] [CLI=build/release/app/graphplace-cli]
set -euo pipefail
budget=${1:-60}
cli=${2:-build/release/app/graphplace-cli}
threads=${THREADS:-2}
for cluster in 4xP100-PCIe 8xV100-DGX1; do
  "$cli" bench --optimize --cluster "$cluster" --budget-seconds "$budget" --threads "$threads" --seed 1
  echo
done

row() {  # NAME: one line from optimize --json
  python3 -c "import json,sys; j=json.load(sys.stdin); b=j['best_baseline']; \
print(f\"$1: {j['step_time_ms']:.1f} ms (best baseline {b['method']} {b['step_time_ms']:.1f} ms, \
{100*(b['step_time_ms']-j['step_time_ms'])/b['step_time_ms']:.1f}% faster), {j['iterations']} iterations, {j['seconds']:.1f} s\")"
}
held_out=zoo:inception_v3
for cluster in 4xP100-PCIe 8xV100-DGX1; do
  for run in "zero-shot:--iterations 0" "fine-tuned:--budget-seconds $budget" \
             "scratch:--policy scratch --budget-seconds $budget" "no update:--no-update --budget-seconds $budget"; do
    # shellcheck disable=SC2086
    "$cli" optimize "$held_out" --cluster "$cluster" --threads "$threads" --seed 1 ${run#*:} --json |
      row "$held_out on $cluster, ${run%%:*}"
  done
done
echo
for model in rnnlm nmt inception_v3; do
  "$cli" optimize "zoo:$model" --cluster 4xP100-PCIe --threads "$threads" --seed 1 --policy colocrl --start none \
    --budget-seconds "$budget" --json | row "zoo:$model on 4xP100-PCIe, ColocRL from nothing"
done
