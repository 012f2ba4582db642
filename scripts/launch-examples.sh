#!/usr/bin/env bash
# The published example configurations check: simulates every launch configuration listed in
# tests/data/launch/published/manifest.json (the frameworks' own example configurations, written
# in their formats) with `graphplace-cli parallelize MODEL --cluster C --seq-len S --config FILE
# --json`, and prints a markdown table: the plan read, the simulated throughput in the published
# figure's unit, the published figure and simulated / published.
#
#   scripts/launch-examples.sh [GRAPHPLACE_CLI] [MANIFEST]
#
# GRAPHPLACE_CLI defaults to build/release/app/graphplace-cli, else build/dev/app/graphplace-cli.
# tflops_per_gpu figures are recomputed from the simulated samples/s with the FLOPs formula the
# figure names ("megatron-2021": Narayanan et al. 2021, eq. 3, recomputation counted:
# 96 B s l h^2 (1 + s / 6h + V / 16lh)), so simulated and published count the same FLOPs.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
cli="${1:-}"
if [ -z "$cli" ]; then
  for c in build/release/app/graphplace-cli build/dev/app/graphplace-cli; do
    if [ -x "$c" ]; then cli="$c"; break; fi
  done
fi
manifest="${2:-tests/data/launch/published/manifest.json}"
if [ -z "$cli" ] || [ ! -x "$cli" ]; then
  echo "launch-examples: no graphplace-cli (give its path as the first argument)" >&2
  exit 1
fi

exec python3 - "$cli" "$manifest" <<'PY'
import json, os, subprocess, sys

cli, manifest = sys.argv[1], sys.argv[2]
base = os.path.dirname(manifest)
entries = json.load(open(manifest))


def cell(s):
    return str(s).replace("|", "\\|").replace("\n", " ")


def fmt(x):
    if x is None:
        return "—"
    if abs(x) >= 100:
        return f"{x:,.0f}"
    if abs(x) >= 1:
        return f"{x:.2f}"
    return f"{x:.3f}"


print("| file | framework | model | GPUs | plan read (dp/tp/pp/cp) | sim. samples/s | sim. (published unit) | published | sim./published | error / notes |")
print("|---|---|---|---|---|---|---|---|---|---|")
failed = 0
for e in entries:
    path = os.path.join(base, e["file"])
    cmd = [cli, "parallelize", e["model"], "--cluster", e["cluster"], "--seq-len", str(e["seq_len"]),
           "--config", path, "--json"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    pub = e.get("published")
    row = {"gpus": "—", "plan": "—", "sps": None, "sim": None, "pub": None, "ratio": None, "notes": []}
    if pub:
        row["pub"] = pub["value"]
    res = None
    if p.returncode == 0:
        try:
            d = json.loads(p.stdout)
            res = next(r for r in d["results"] if r["method"] == "file")
        except (ValueError, StopIteration, KeyError) as ex:
            row["notes"].append(f"unreadable --json output: {ex}")
    else:
        failed += 1
        lines = [l for l in (p.stderr or p.stdout).strip().splitlines() if l.strip()]
        row["notes"].append("ERROR: " + (lines[-1] if lines else f"exit {p.returncode}"))
    if res is not None:
        pl = res["plan"]
        gpus = pl["dp"] * pl["tp"] * pl["pp"] * pl.get("cp", 1)
        row["gpus"] = gpus
        extra = []
        if pl.get("virtual_stages", 1) > 1:
            extra.append(f"vp {pl['virtual_stages']}")
        extra.append(f"{pl.get('microbatches', 1)} mb")
        if pl.get("zero"):
            extra.append(f"ZeRO-{pl['zero']}")
        rc = sorted(set(pl.get("recompute", [])))
        extra.append("recompute " + "/".join(rc) if rc else "recompute none")
        if pl.get("sequence_parallel"):
            extra.append("SP")
        if pl.get("overlap_tp_comm"):
            extra.append("TP overlap")
        if pl.get("expert_parallel"):
            extra.append("EP")
        if pl.get("fp8"):
            extra.append("FP8")
        extra.append(pl.get("attention", "?"))
        row["plan"] = f"{pl['dp']}/{pl['tp']}/{pl['pp']}/{pl.get('cp', 1)} ({', '.join(extra)})"
        sps = res["samples_per_s"]
        row["sps"] = sps
        peak = max(res.get("peak_memory_bytes") or [0]) / 2**30
        row["notes"].append(f"step {res['step_time_ms']:.0f} ms, MFU {100 * res['mfu']:.1f}%, peak {peak:.1f} GiB")
        note = res.get("note", "")
        if note.startswith(path):
            note = note[len(path):].lstrip("; ")
        if note:
            row["notes"].append(note)
        if not res.get("feasible", True):
            row["notes"].append("INFEASIBLE: " + res.get("problem", ""))
        elif res.get("problem"):
            row["notes"].append(res["problem"])
        seq = e["seq_len"]
        if pub:
            m = pub["metric"]
            if m == "samples_per_s":
                row["sim"] = sps
            elif m == "tokens_per_s_per_gpu":
                row["sim"] = sps * seq / gpus
            elif m == "mfu":
                row["sim"] = res["mfu"]
            elif m == "tflops_per_gpu":
                if pub.get("flops") == "megatron-2021":
                    l, h, V = d["layers"], d["hidden"], pub["vocab"]
                    f = 96 * seq * l * h * h * (1 + seq / (6 * h) + V / (16 * l * h))
                else:  # 6 N per token, forward + backward
                    f = 6 * d["parameters"] * seq
                row["sim"] = sps * f / gpus / 1e12
            if row["sim"] is not None and pub["value"]:
                row["ratio"] = row["sim"] / pub["value"]
        else:
            row["sim"] = sps * seq / gpus
    unit = {"tokens_per_s_per_gpu": "tok/s/GPU", "tflops_per_gpu": "TFLOP/s/GPU", "mfu": "MFU",
            "samples_per_s": "samples/s"}
    u = unit.get(pub["metric"], pub["metric"]) if pub else "tok/s/GPU"
    sim = f"{fmt(row['sim'])} {u}" if row["sim"] is not None else "—"
    pubs = f"{fmt(row['pub'])} {u}" if pub else "none"
    ratio = f"{row['ratio']:.2f}" if row["ratio"] is not None else "—"
    print("| " + " | ".join(cell(x) for x in [
        e["file"], e["framework"], e["model"], row["gpus"], row["plan"], fmt(row["sps"]), sim, pubs, ratio,
        "; ".join(row["notes"])]) + " |")
print()
print(f"{len(entries)} configurations, {len(entries) - failed} imported, {failed} import errors.")
PY
