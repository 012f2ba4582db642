#!/usr/bin/env bash
# The desktop app opening an LLM, process start included: `graphplace MODEL --cluster C
# --screenshot` (the Parallel Plan view's first plan pictured, then exit) for each model and
# cluster, best of three, with the process's peak resident memory. docs/performance.md has the
# figures.
#   tests/benchmarks/llm_open.sh [build/release]
set -euo pipefail
BUILD=${1:-build/release}
APP="$BUILD/app/graphplace"
HF="$(cd "$(dirname "$0")/../data/hf" && pwd)"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
printf '%-28s %-18s %8s %9s\n' model cluster "wall s" "peak MiB"
for row in "$HF/qwen2-7b/config.json 8xH100-NVSwitch" "$HF/qwen2-7b/config.json 8x8xH100-IB" \
           "zoo:llama3_405b 128x8xH100-IB" "zoo:llama3_405b 2048x8xH100-IB" \
           "$HF/qwen2-7b/config.json 2048x8xH100-IB"; do
  read -r model cluster <<<"$row"
  best="" mem=""
  for _ in 1 2 3; do
    /usr/bin/time -f '%e %M' -o "$OUT/time" "$APP" "$model" --cluster "$cluster" --screenshot "$OUT/shot.png" \
      >/dev/null 2>&1 || { echo "$model on $cluster: failed" >&2; exit 1; }
    read -r wall kb <"$OUT/time"
    if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then best=$wall mem=$((kb / 1024)); fi
  done
  name=$model; [[ $name == */config.json ]] && name="hf:$(basename "$(dirname "$name")")"
  printf '%-28s %-18s %8s %9s\n' "$name" "$cluster" "$best" "$mem"
done
