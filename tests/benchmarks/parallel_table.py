#!/usr/bin/env python3
"""The parallel-plan table of docs/performance.md: for each (model, cluster, global batch) the
samples/s of Megatron's rule, the best data-parallel plan, the exact search and the DQN
(pre-trained, fine-tuned), and the learning ablation: plans simulated until the best plan for
the DQN pre-trained, the DQN from scratch, uniformly random search over the same pruned space
(the same loop without learning) and the exact search.

  tests/benchmarks/parallel_table.py [--episodes 1500] [--policy FILE] [--cli build/release/app/graphplace-cli]
"""
import argparse
import json
import subprocess
import sys

CASES = [
    ("zoo:gpt_1_3b", "2x8xH100-IB", 512),
    ("zoo:gpt_6_7b", "2x8xH100-IB", 512),
    ("zoo:gpt_13b", "2x8xH100-IB", 512),
    ("zoo:gpt_13b", "4x8xA100-IB", 1024),
    ("zoo:gpt_30b", "4x8xA100-IB", 512),
    ("zoo:gpt_175b", "8x8xH100-IB", 1536),
    ("zoo:gpt_13b", "3x8xH100-IB", 384),
    ("zoo:gpt_6_7b", "2x8xA100-PCIe-100GbE", 256),
    ("zoo:gpt_13b", "3x4xA100-PCIe-100GbE", 192),
    ("zoo:gpt_1_3b", "3x4xA100-PCIe-100GbE", 96),
    ("zoo:t5_base", "3x4xA100-PCIe-100GbE", 192),
    ("zoo:moe_1_3b_64e", "2x8xH100-IB", 256),
    ("zoo:moe_1_3b_64e", "2x8xA100-PCIe-100GbE", 256),
    ("zoo:bert_base", "3x8xH100-IB", 768),
]
# Clusters and models that break Megatron's assumptions (NVLink servers of 8, fast network, dense).
OFF_RULE = {"2x8xA100-PCIe-100GbE", "3x4xA100-PCIe-100GbE", "3x8xH100-IB"}


def run(cli, model, cluster, batch, method, extra):
    cmd = [cli, "parallelize", model, "--cluster", cluster, "--global-batch", str(batch), "--method", method, "--json"] + extra
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)["results"][0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--episodes", type=int, default=1500)
    ap.add_argument("--policy", default="")
    ap.add_argument("--cli", default="build/release/app/graphplace-cli")
    a = ap.parse_args()
    budget = ["--budget-seconds", "600", "--episodes", str(a.episodes), "--seed", "1"]
    pol = ["--policy", a.policy] if a.policy else []
    print("| model | cluster | batch | Megatron | DP | exact | DQN | DQN / exact | DQN / Megatron | exact plan | "
          "simulated to best: exact / DQN / scratch / random | DQN s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    ratios, off = [], []
    for model, cluster, batch in CASES:
        r = {m: run(a.cli, model, cluster, batch, m, budget) for m in ("megatron", "dp", "exact")}
        r["dqn"] = run(a.cli, model, cluster, batch, "dqn", budget + pol)
        r["scratch"] = run(a.cli, model, cluster, batch, "dqn", budget + ["--from-scratch"])
        r["random"] = run(a.cli, model, cluster, batch, "random", budget)
        sps = {k: (v["samples_per_s"] if v["feasible"] else 0.0) for k, v in r.items()}
        p = r["exact"]["plan"] or {}
        plan = "dp%s tp%s pp%s m%s %s Z%s" % (p.get("dp"), p.get("tp"), p.get("pp"), p.get("microbatches"), p.get("schedule"), p.get("zero"))
        dqn_exact = sps["dqn"] / sps["exact"] if sps["exact"] else float("nan")
        dqn_mega = sps["dqn"] / sps["megatron"] if sps["megatron"] else float("inf")
        ratios.append(dqn_exact)
        if cluster in OFF_RULE or "moe" in model:
            off.append(dqn_mega)
        fmt = lambda v: ("%.1f" % v) if v else "does not fit"
        steps = " / ".join(str(r[k]["plans_simulated_to_best"]) for k in ("exact", "dqn", "scratch", "random"))
        print("| %s | %s | %d | %s | %s | %s | %s | %.3f | %s | %s | %s | %.1f |" % (
            model[4:], cluster, batch, fmt(sps["megatron"]), fmt(sps["dp"]), fmt(sps["exact"]), fmt(sps["dqn"]), dqn_exact,
            "%.2f" % dqn_mega if dqn_mega != float("inf") else "Megatron does not fit", plan, steps, r["dqn"]["search_seconds"]))
        sys.stdout.flush()
    finite = [x for x in off if x != float("inf")]
    print()
    print("DQN / exact: min %.3f over %d cases; DQN / Megatron off Megatron's assumptions: mean %.2f over %d cases (%d where Megatron does not fit)" % (
        min(ratios), len(ratios), sum(finite) / max(1, len(finite)), len(finite), len(off) - len(finite)))


if __name__ == "__main__":
    main()
