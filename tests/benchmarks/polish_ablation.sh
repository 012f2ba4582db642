#!/usr/bin/env bash
# What polishing adds (docs/performance.md, "Polishing the search's plan"): on the held-out
# graphs of the ablation (heldout_rows.py), per graph, cluster and seed, the gain over the best
# baseline of the default search without polishing (--polish-share 0) and with it (the default,
# the last 20 % of the budget), both BUDGET s, and the moves polishing kept. Run on an idle
# machine: the budget is wall-clock time.
#   tests/benchmarks/polish_ablation.sh [BUDGET=60] [CORPUS=resources/policies/corpus.json]
#       [CLI=build/release/app/graphplace-cli]
# SEEDS="1 2 3" runs every row with each seed (default: 1); SHARE sets the polishing share (0.2).
set -euo pipefail
budget=${1:-60}
corpus=${2:-resources/policies/corpus.json}
cli=${3:-build/release/app/graphplace-cli}
seeds=${SEEDS:-1}
share=${SHARE:-0.2}
runs=$(mktemp)
rows=$(mktemp)
trap 'rm -f "$runs" "$rows"' EXIT
python3 "$(dirname "$0")/heldout_rows.py" "$corpus" 1 > "$runs"
echo "| held-out graph | cluster | seed | best baseline ms | search ${budget} s | search + polish (${share}) ${budget} s | points | polish moves |"
echo "|---|---|---|---|---|---|---:|---:|"
while IFS=$'\t' read -r label cluster model_args; do
  IFS=$'\t' read -r -a margs <<< "$model_args"
  for seed in $seeds; do
    run() { "$cli" optimize "${margs[@]}" --cluster "$cluster" --threads 2 --seed "$seed" --budget-seconds "$budget" "$@" --json; }
    plain=$(run --polish-share 0)
    polished=$(run --polish-share "$share")
    python3 - "$label" "$cluster" "$seed" "$plain" "$polished" <<'PY' | tee -a "$rows"
import json, sys
label, cluster, seed = sys.argv[1:4]
plain, polished = (json.loads(a) for a in sys.argv[4:6])
base = plain["best_baseline"]["step_time_ms"]
gain = lambda t: 100 * (base - t) / base
a, b = plain["step_time_ms"], polished["step_time_ms"]
print(f"| {label} | {cluster} | {seed} | {plain['best_baseline']['method']} {base:.1f} | {a:.1f} ({gain(a):+.1f} %) | "
      f"{b:.1f} ({gain(b):+.1f} %) | {gain(b) - gain(a):+.1f} | {polished['polish_moves']} |", flush=True)
PY
  done
done < "$runs"
python3 - "$rows" <<'PY'
import re, sys
a, b, better, worse = [], [], 0, 0
for line in open(sys.argv[1]):
    g = [float(x) for x in re.findall(r"\(([+-][0-9.]+) %\)", line)]
    if len(g) < 2: continue
    a.append(g[0]); b.append(g[1]); better += g[1] > g[0] + 1e-9; worse += g[1] < g[0] - 1e-9
n = len(a)
print(f"| **mean** | | | | **{sum(a) / n:+.1f} %** | **{sum(b) / n:+.1f} %** | **{(sum(b) - sum(a)) / n:+.1f}** | better on {better}, worse on {worse} of {n} |")
PY
