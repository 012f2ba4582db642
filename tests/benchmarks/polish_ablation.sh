#!/usr/bin/env bash
# What polishing adds (docs/performance.md, "Polishing the search's plan"): on the held-out
# graphs of the ablation (heldout_rows.py), per graph, cluster and seed, the gain over the best
# baseline of two optimize runs of BUDGET s that differ only in their polishing options:
# A_ARGS (default: --polish-share 0, no polishing) and B_ARGS (default: none, the default
# polishing), labelled A_LABEL and B_LABEL; and the moves B's polishing kept. Run on an idle
# machine: the budget is wall-clock time.
#   tests/benchmarks/polish_ablation.sh [BUDGET=60] [CORPUS=resources/policies/corpus.json]
#       [CLI=build/release/app/graphplace-cli]
# SEEDS="1 2 3" runs every row with each seed (default: 1). ROWS=FILE takes the rows from FILE
# (LABEL<TAB>CLUSTER<TAB>MODEL ARGS..., as heldout_rows.py writes them) instead.
#   A_ARGS="--move-ranker none" A_LABEL="path time" B_ARGS="--move-ranker R.json" B_LABEL=learned ...
set -euo pipefail
budget=${1:-60}
corpus=${2:-resources/policies/corpus.json}
cli=${3:-build/release/app/graphplace-cli}
seeds=${SEEDS:-1}
read -r -a aArgs <<< "${A_ARGS---polish-share 0}"
read -r -a bArgs <<< "${B_ARGS-}"
aLabel=${A_LABEL:-search}
bLabel=${B_LABEL:-search + polish}
runs=$(mktemp)
rows=$(mktemp)
trap 'rm -f "$runs" "$rows"' EXIT
if [ -n "${ROWS:-}" ]; then cp "$ROWS" "$runs"; else python3 "$(dirname "$0")/heldout_rows.py" "$corpus" 1 > "$runs"; fi
echo "| graph | cluster | seed | best baseline ms | ${aLabel} ${budget} s | ${bLabel} ${budget} s | points | polish moves |"
echo "|---|---|---|---|---|---|---:|---:|"
while IFS=$'\t' read -r label cluster model_args; do
  IFS=$'\t' read -r -a margs <<< "$model_args"
  for seed in $seeds; do
    run() { "$cli" optimize "${margs[@]}" --cluster "$cluster" --threads 2 --seed "$seed" --budget-seconds "$budget" "$@" --json; }
    a=$(run "${aArgs[@]}")
    b=$(run "${bArgs[@]}")
    python3 - "$label" "$cluster" "$seed" "$a" "$b" <<'PY' | tee -a "$rows"
import json, sys
label, cluster, seed = sys.argv[1:4]
a, b = (json.loads(x) for x in sys.argv[4:6])
base = a["best_baseline"]["step_time_ms"]
gain = lambda t: 100 * (base - t) / base
x, y = a["step_time_ms"], b["step_time_ms"]
print(f"| {label} | {cluster} | {seed} | {a['best_baseline']['method']} {base:.1f} | {x:.1f} ({gain(x):+.1f} %) | "
      f"{y:.1f} ({gain(y):+.1f} %) | {gain(y) - gain(x):+.1f} | {b['polish_moves']} |", flush=True)
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
