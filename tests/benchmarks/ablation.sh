#!/usr/bin/env bash
# What the learning adds (docs/performance.md, "Learning: the ablation"): on the held-out
# families of a pre-training corpus (graphs the policy never trained on), per graph, cluster and
# seed, gains over the best baseline of:
#   zero-shot untrained (a new policy's zero-shot: what the start alone gives — every baseline's
#   devices with the critical-path order) | zero-shot (the pre-trained policy: its greedy plan and
#   most confident changes, no search) |
#   search only (the same search without learning: a new policy, no updates, BUDGET s) |
#   scratch (a new policy learning as it searches, BUDGET s) |
#   pre-trained + fine-tune (BUDGET s, and where it stood after 10 s) |
#   seconds the fine-tuning needs to reach what search only reached in BUDGET s.
#   tests/benchmarks/ablation.sh [POLICY=resources/policies/gdp_default.pt] [BUDGET=60]
#       [CORPUS=resources/policies/corpus.json] [CLI=build/release/app/graphplace-cli]
# ONE_PER_FAMILY=1 (default) takes each held-out family's first graph; 0 takes them all.
# SEEDS="1 2 3" runs every row with each seed (default: 1); the last lines are the means.
# NO_SCRATCH=1 leaves out the two columns that do not use POLICY (zero-shot untrained, scratch).
set -euo pipefail
policy=${1:-resources/policies/gdp_default.pt}
budget=${2:-60}
corpus=${3:-resources/policies/corpus.json}
cli=${4:-build/release/app/graphplace-cli}
threads=${THREADS:-2}
one=${ONE_PER_FAMILY:-1}
seeds=${SEEDS:-1}

# held-out graphs x eval clusters as "LABEL<TAB>CLUSTER<TAB>MODEL ARGS..." lines
python3 "$(dirname "$0")/heldout_rows.py" "$corpus" "$one" > /tmp/gp_ablation_runs.txt

echo "| held-out graph | cluster | seed | best baseline ms | zero-shot untrained | zero-shot | search only ${budget} s | scratch ${budget} s | pre-trained + fine-tune ${budget} s | fine-tune at 10 s | fine-tune s to search only's ${budget} s |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
while IFS=$'\t' read -r label cluster model_args; do
  IFS=$'\t' read -r -a margs <<< "$model_args"
  for seed in $seeds; do
    run() { "$cli" optimize "${margs[@]}" --cluster "$cluster" --threads "$threads" --seed "$seed" "$@" --json; }
    zero=$(run --policy "$policy" --iterations 0)
    untrained=null scratch=null
    [ "${NO_SCRATCH:-0}" = 1 ] || untrained=$(run --policy scratch --iterations 0)
    search=$(run --policy scratch --no-update --budget-seconds "$budget")
    [ "${NO_SCRATCH:-0}" = 1 ] || scratch=$(run --policy scratch --budget-seconds "$budget")
    tuned=$(run --policy "$policy" --budget-seconds "$budget")
    python3 - "$label" "$cluster" "$seed" "$untrained" "$zero" "$search" "$scratch" "$tuned" <<'PY' | tee -a "$rows"
import json, sys
label, cluster, seed = sys.argv[1:4]
untrained, zero, search, scratch, tuned = (json.loads(a) for a in sys.argv[4:9])
base = zero["best_baseline"]["step_time_ms"]
gain = lambda t: 100 * (base - t) / base
def cell(t): return f"{t:.1f} ({gain(t):+.1f} %)"
def run_cell(j): return "—" if j is None else cell(j["step_time_ms"])
def at(j, seconds):  # the best step time the run had after `seconds`
    best = j.get("zero_shot_step_time_ms") or j["step_time_ms"]
    for h, s in zip(j["history"], j["history_seconds"]):
        if s <= seconds and 0 < h < best: best = h
    return best
target = search["step_time_ms"]
reach = next((s for h, s in zip(tuned["history"], tuned["history_seconds"]) if 0 < h <= target * (1 + 1e-9)), None)
if reach is None and (tuned.get("zero_shot_step_time_ms") or 1e300) <= target * (1 + 1e-9): reach = 0.0
ten = at(tuned, 10.0)
print(f"| {label} | {cluster} | {seed} | {zero['best_baseline']['method']} {base:.1f} | {run_cell(untrained)} | "
      f"{cell(zero['step_time_ms'])} | {cell(target)} | {run_cell(scratch)} | {cell(tuned['step_time_ms'])} | "
      f"{cell(ten)} | {'not reached' if reach is None else f'{reach:.1f}'} |", flush=True)
PY
  done
done < /tmp/gp_ablation_runs.txt
python3 - "$rows" <<'PY'
import re, sys
cols = [[] for _ in range(7)]
reached = total = 0
for line in open(sys.argv[1]):
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    for i, c in enumerate(cells[4:11]):
        m = re.search(r"\(([+-][0-9.]+) %\)", c)
        if m: cols[i].append(float(m.group(1)))
    total += 1
    reached += cells[10] != "not reached" and float(cells[10]) <= 10.0
means = " | ".join(f"**{sum(c) / len(c):+.1f} %**" if c else "" for c in cols[:6])
print(f"| **mean** | | | | {means} | fine-tune reached search only's result within 10 s on **{reached} of {total}** |")
PY
