#!/usr/bin/env bash
# Pre-training throughput on this machine: samples simulated per second by graphplace-cli pretrain
# on one corpus (eight zoo graphs on two clusters: 16 tasks), with one rank (one LibTorch thread,
# then every core) and with N ranks started by scripts/launch-local.sh (the cores shared among
# them). Prints a table and the speed-up; docs/performance.md records the figures.
# Usage: scripts/dist-scaling.sh [RANKS=2] [ROUNDS=6]   (environment: BUILD=build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
RANKS=${1:-2}
ROUNDS=${2:-6}
CLI=${BUILD:-build/release}/app/graphplace-cli
[ -x "$CLI" ] || { echo "dist-scaling: no $CLI (build first)" >&2; exit 2; }
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
cat > "$DIR/corpus.json" <<'JSON'
{"format": "graphplace-corpus", "version": 1,
 "families": {
   "lstm_lm": [{"model": "zoo:rnnlm", "layers": [1, 2], "hidden": 512, "seq_len": 25}],
   "seq2seq": [{"model": "zoo:nmt", "layers": [1, 2], "hidden": 512, "seq_len": 20}],
   "transformer": [{"model": "zoo:bert_base", "layers": [2, 4], "hidden": 256, "batch": 32}],
   "resnet": [{"model": "zoo:resnet50", "layers": 26, "hidden": 32}],
   "amoebanet": [{"model": "zoo:amoebanet", "layers": 1, "hidden": 64}]},
 "clusters": ["4xP100-PCIe", "8xV100-DGX1"]}
JSON
ARGS=(pretrain --corpus "$DIR/corpus.json" --rounds "$ROUNDS" --samples 8 --eval-every 1000 --seed 1 --json)
# samples/s from the last JSON line of a run's output (launch-local puts "[rank r] " in front)
rate() { grep -o '{.*}' "$1" | tail -1 | /usr/bin/python3 -c 'import json,sys; j=json.load(sys.stdin); print("%.2f %d %.1f" % (j["samples"] / j["seconds"], j["samples"], j["seconds"]))'; }
"$CLI" "${ARGS[@]}" --threads 1 --out "$DIR/one1.pt" > "$DIR/one1.txt"
"$CLI" "${ARGS[@]}" --out "$DIR/one.pt" > "$DIR/one.txt"
scripts/launch-local.sh "$RANKS" "$CLI" "${ARGS[@]}" --distributed --out "$DIR/many.pt" > "$DIR/many.txt"
read -r r1 s1 t1 <<< "$(rate "$DIR/one1.txt")"
read -r ra sa ta <<< "$(rate "$DIR/one.txt")"
read -r rn sn tn <<< "$(rate "$DIR/many.txt")"
printf '%-34s %10s %8s %10s\n' "run ($(nproc) cores, $ROUNDS rounds)" samples seconds samples/s
printf '%-34s %10d %8.1f %10.2f\n' "1 rank, 1 thread" "$s1" "$t1" "$r1"
printf '%-34s %10d %8.1f %10.2f\n' "1 rank, every core" "$sa" "$ta" "$ra"
printf '%-34s %10d %8.1f %10.2f\n' "$RANKS ranks (launch-local)" "$sn" "$tn" "$rn"
/usr/bin/python3 -c "print('speed-up of $RANKS ranks: %.2fx over 1 rank on 1 thread, %.2fx over 1 rank on every core' % ($rn / $r1, $rn / $ra))"
