#!/usr/bin/env bash
# Pre-trains the parallel-plan DQN shipped as resources/policies/parallel_dqn.pt: synthetic
# GPT-style stacks only (core/optimize/parallel_corpus.h), so T5, the mixture of experts and
# BERT stay families it has never seen. Usage: scripts/pretrain-parallel-dqn.sh [SECONDS] [OUT]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"
out="${2:-resources/policies/parallel_dqn.pt}"
cli=build/release/app/graphplace-cli
[ -x "$cli" ] || { echo "build first: $cli is missing" >&2; exit 1; }
OMP_WAIT_POLICY=PASSIVE "$cli" pretrain-parallel --out "$out" --budget-seconds "$seconds" --tasks 64 --seed 1
