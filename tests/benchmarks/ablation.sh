#!/usr/bin/env bash
# What the learning adds (docs/performance.md, "Learning: the ablation"): on the held-out
# families of a pre-training corpus (graphs the policy never trained on), per graph and cluster:
#   best baseline | zero-shot untrained (a new policy's zero-shot: what the start alone gives —
#   every baseline's devices with the critical-path order) | zero-shot (the pre-trained policy:
#   its greedy plan and most confident changes, no search) |
#   scratch (a new policy, BUDGET s) | pre-trained + fine-tune (BUDGET s) |
#   search only (the pre-trained policy without updates, BUDGET s) |
#   seconds the fine-tuning needs to reach the scratch result.
#   tests/benchmarks/ablation.sh [POLICY=resources/policies/gdp_default.pt] [BUDGET=60]
#       [CORPUS=resources/policies/corpus.json] [CLI=build/release/app/graphplace-cli]
# ONE_PER_FAMILY=1 (default) takes each held-out family's first graph; 0 takes them all.
set -euo pipefail
policy=${1:-resources/policies/gdp_default.pt}
budget=${2:-60}
corpus=${3:-resources/policies/corpus.json}
cli=${4:-build/release/app/graphplace-cli}
threads=${THREADS:-2}
one=${ONE_PER_FAMILY:-1}

# held-out graphs x eval clusters as "LABEL<TAB>CLUSTER<TAB>MODEL ARGS..." lines
python3 - "$corpus" "$one" > /tmp/gp_ablation_runs.txt <<'PY'
import itertools, json, os, sys
spec = json.load(open(sys.argv[1])); one = sys.argv[2] == "1"
base = os.path.dirname(os.path.abspath(sys.argv[1]))
flags = {"batch": "--batch", "seq_len": "--seq-len", "layers": "--layers", "hidden": "--hidden", "graph_seed": "--graph-seed"}
def values(v):
    if isinstance(v, dict): return list(range(v["from"], v["to"] + 1))
    return v if isinstance(v, list) else [v]
for fam in spec.get("held_out", []):
    graphs = []
    for e in spec["families"][fam]:
        e = {"model": e} if isinstance(e, str) else e
        model = e["model"] if e["model"].startswith("zoo:") else os.path.normpath(os.path.join(base, e["model"]))
        fixed = []
        if "mode" in e: fixed += ["--mode", e["mode"]]
        if "input_shape" in e: fixed += ["--input-shape", "x".join(map(str, e["input_shape"]))]
        for k, v in e.get("dims", {}).items(): fixed += ["--dim", f"{k}={v}"]
        keys = [k for k in flags if k in e]
        for combo in itertools.product(*[values(e[k]) for k in keys]):
            args = fixed + [a for k, v in zip(keys, combo) for a in (flags[k], str(v))]
            label = " ".join([os.path.basename(model)] + [f"{k}={v}" for k, v in zip(keys, combo)])
            graphs.append((label, [model] + args))
    for label, args in (graphs[:1] if one else graphs):
        for cluster in spec.get("eval_clusters", spec["clusters"]):
            print("\t".join([f"{fam}: {label}", cluster] + args))
PY

echo "| held-out graph | cluster | best baseline ms | zero-shot untrained | zero-shot | scratch ${budget} s | pre-trained + fine-tune ${budget} s | search only ${budget} s | fine-tune s to scratch |"
echo "|---|---|---|---|---|---|---|---|---|"
while IFS=$'\t' read -r label cluster model_args; do
  IFS=$'\t' read -r -a margs <<< "$model_args"
  run() { "$cli" optimize "${margs[@]}" --cluster "$cluster" --threads "$threads" --seed 1 "$@" --json; }
  untrained=$(run --policy scratch --iterations 0)
  zero=$(run --policy "$policy" --iterations 0)
  scratch=$(run --policy scratch --budget-seconds "$budget")
  tuned=$(run --policy "$policy" --budget-seconds "$budget")
  search=$(run --policy "$policy" --no-update --budget-seconds "$budget")
  python3 - "$label" "$cluster" "$untrained" "$zero" "$scratch" "$tuned" "$search" <<'PY'
import json, sys
label, cluster = sys.argv[1:3]
untrained, zero, scratch, tuned, search = (json.loads(a) for a in sys.argv[3:8])
base = zero["best_baseline"]["step_time_ms"]
def cell(j):
    t = j["step_time_ms"]
    return f"{t:.1f} ({100 * (base - t) / base:+.1f} %)"
target = scratch["step_time_ms"]
reach = next((s for h, s in zip(tuned["history"], tuned["history_seconds"]) if 0 < h <= target * (1 + 1e-9)), None)
if reach is None and tuned["step_time_ms"] <= target * (1 + 1e-9): reach = 0.0
print(f"| {label} | {cluster} | {zero['best_baseline']['method']} {base:.1f} | {cell(untrained)} | {cell(zero)} | {cell(scratch)} | "
      f"{cell(tuned)} | {cell(search)} | {'not reached' if reach is None else f'{reach:.1f}'} |", flush=True)
PY
done < /tmp/gp_ablation_runs.txt
