#!/usr/bin/env python3
"""The held-out graphs of a pre-training corpus x its eval clusters, one line each:
LABEL<TAB>CLUSTER<TAB>MODEL ARGS... (tab-separated) for the benchmark scripts.
   heldout_rows.py CORPUS.json ONE_PER_FAMILY(1|0)
ONE_PER_FAMILY=1 takes each held-out family's first graph; 0 takes them all."""
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
