#!/usr/bin/env bash
# Following the top suggestion: for every model of the paper table (bench's models) on a cluster, the expert placement, then
# `explain --follow N` (the top suggested move applied up to N times), against the optimizer's
# result in the same number of seconds (`optimize --budget-seconds S`, its default start and
# settings). Run on an idle machine: the optimizer's budget is wall-clock time.
#   tests/benchmarks/follow_suggestions.sh [CLI] [CLUSTER] [MOVES] [SECONDS]
set -euo pipefail
cli=${1:-build/release/app/graphplace-cli}
cluster=${2:-4xP100-PCIe}
moves=${3:-20}
seconds=${4:-60}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '| model | expert ms | after %s suggestions ms | seconds | optimizer %s s ms | suggestions / optimizer |\n' "$moves" "$seconds"
printf '|---|---:|---:|---:|---:|---:|\n'
for model in zoo:rnnlm zoo:nmt zoo:gnmt zoo:inception_v3 zoo:amoebanet zoo:transformer_xl zoo:wavenet zoo:resnet50 zoo:bert_base; do
  "$cli" baseline "$model" --cluster "$cluster" --method expert --out "$work/expert.json" > /dev/null
  "$cli" explain "$model" --placement "$work/expert.json" --follow "$moves" --top 1 --json > "$work/follow.json"
  "$cli" optimize "$model" --cluster "$cluster" --budget-seconds "$seconds" --json > "$work/opt.json" 2> /dev/null
  python3 - "$model" "$work/follow.json" "$work/opt.json" <<'PY'
import json, sys
model, f, o = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
opt = o["step_time_ms"]
print(f'| {model} | {f["start_step_time_ms"]:.1f} | {f["step_time_ms"]:.1f} | {f["follow_seconds"]:.1f} | {opt:.1f} | {f["step_time_ms"] / opt:.3f} |')
PY
done
