#!/usr/bin/env bash
# Open -> first readable frame for every model of the corpus (docs/models.md): runs the
# BM_CorpusOpen benchmarks of gp_gui_benchmarks (gui_corpus_bench.cpp) one model at a time and
# prints a markdown table sorted by op count.
#   tests/benchmarks/corpus_open.sh [CORPUS_DIR=build/corpus] [BENCH=build/release/tests/benchmarks/gp_gui_benchmarks]
# Make the corpus first: /usr/bin/python3 tests/models/make_corpus.py build/corpus
set -euo pipefail
corpus=${1:-build/corpus}
bench=${2:-build/release/tests/benchmarks/gp_gui_benchmarks}
[ -f "$corpus/corpus.json" ] || { echo "corpus_open: no $corpus/corpus.json (run tests/models/make_corpus.py)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
GP_CORPUS_DIR="$corpus" "$bench" --benchmark_filter=BM_CorpusOpen/ --benchmark_format=json \
  --benchmark_out="$out/open.json" --benchmark_out_format=json >/dev/null 2>"$out/stderr" || true
python3 - "$out/open.json" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["benchmarks"]
rows = []
for r in runs:
    name = r["name"].split("/")[1]
    if r.get("error_occurred"):
        rows.append((0, f"| {name} | – | – | – | – | – | – | error: {r.get('error_message', '')} |"))
        continue
    ms = r["real_time"]
    rows.append((r["ops"], f"| {name} | {int(r['ops']):,} | {r['load_ms']:.0f} | {ms:.0f} | {r['final_ms']:.0f} | "
                           f"{int(r['boxes'])} | {r['zoom']:.2f} | {'yes' if ms <= 1000 else 'NO'} |"))
print("| model | ops | import ms | first frame ms | layout final ms | boxes | zoom | ≤ 1 s |")
print("|---|---:|---:|---:|---:|---:|---:|---|")
for _, line in sorted(rows):
    print(line)
PY
