#!/usr/bin/env bash
# GO's table (docs/performance.md): for every zoo workload on a multi-GPU
# preset, the step time of the default rows (single device, default fusion, expert placement)
# and of placement / scheduling / fusion optimized alone, separately one after the other, and
# jointly. Every optimizer stage gets BUDGET seconds per task it optimizes (bench --tasks-table).
#   tests/benchmarks/tasks_table.sh [BUDGET_SECONDS=15] [CLI=build/release/app/graphplace-cli] [CLUSTERS]
set -euo pipefail
budget=${1:-15}
cli=${2:-build/release/app/graphplace-cli}
clusters=${3:-4xP100-PCIe 8xV100-DGX1}
threads=${THREADS:-2}
for cluster in $clusters; do
  "$cli" bench --tasks-table --cluster "$cluster" --budget-seconds "$budget" --threads "$threads" --seed 1
  echo
done
