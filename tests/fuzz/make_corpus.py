#!/usr/bin/python3
"""Writes the fuzz targets' seed corpora, tests/fuzz/corpus/<target>/ (committed).

Seeds are the real test files (symbolic links into tests/data and resources) and small files
made here: JSON graphs, placement and plan files and run event logs written by graphplace-cli,
an annotated ONNX model, calibration tables, corpus specs and TpuGraphs .npz files.

Usage: tests/fuzz/make_corpus.py [BUILD_DIR]   (default build/release; needs graphplace-cli
built there, python3 and numpy)
"""
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "tests", "fuzz", "corpus")
CLI = os.path.join(ROOT, sys.argv[1] if len(sys.argv) > 1 else "build/release", "app", "graphplace-cli")
DATA = os.path.join(ROOT, "tests", "data")


def folder(target):
    path = os.path.join(CORPUS, target)
    os.makedirs(path, exist_ok=True)
    return path


def link(target, *sources):
    for source in sources:
        dst = os.path.join(folder(target), os.path.basename(source))
        if os.path.lexists(dst):
            os.remove(dst)
        os.symlink(os.path.relpath(source, folder(target)), dst)


def write(target, name, data):
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(os.path.join(folder(target), name), mode) as f:
        f.write(data)


def cli(*args):
    subprocess.run([CLI, *args], check=True, stdout=subprocess.DEVNULL)


# --- protobuf, just enough to annotate an ONNX model --------------------------------------------
def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def read_varint(buf, i):
    shift = n = 0
    while True:
        b = buf[i]
        i += 1
        n |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return n, i


def fields(buf):
    i = 0
    while i < len(buf):
        key, i = read_varint(buf, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            _, i = read_varint(buf, i)
            yield number, None
        elif wire == 2:
            n, i = read_varint(buf, i)
            yield number, buf[i:i + n]
            i += n
        elif wire == 1:
            i += 8
        elif wire == 5:
            i += 4
        else:
            raise ValueError("unsupported wire type")


def length_field(number, payload):
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def annotated(model, devices, device_of, extra=()):
    """The ONNX model with graphplace.* metadata_props (ModelProto field 14) appended."""
    graph = next(v for n, v in fields(model) if n == 7)
    nodes = sum(1 for n, _ in fields(graph) if n == 1)
    placement = {"devices": devices, "device": [device_of(i) for i in range(nodes)],
                 "priority": list(range(nodes)), "fusion_group": [-1] * nodes}
    props = [("graphplace.format_version", "1"), ("graphplace.cluster", "4xP100-PCIe"),
             ("graphplace.placement", json.dumps(placement)), *extra]
    out = model
    for key, value in props:
        entry = length_field(1, key.encode()) + length_field(2, value.encode())
        out += length_field(14, entry)
    return out


# --- numpy .npz in TpuGraphs' layout ------------------------------------------------------------
def npz(arrays, compressed):
    buf = io.BytesIO()
    (np.savez_compressed if compressed else np.savez)(buf, **arrays)
    return buf.getvalue()


def tile_arrays(rng, nodes=4, configs=3):
    return {"node_feat": rng.random((nodes, 140), dtype=np.float32),
            "node_opcode": rng.integers(0, 120, nodes, dtype=np.uint8),
            "edge_index": np.array([[i + 1, i] for i in range(nodes - 1)], dtype=np.int64),
            "config_feat": rng.random((configs, 24), dtype=np.float32),
            "config_runtime": rng.integers(1000, 9000, configs, dtype=np.int64),
            "config_runtime_normalizers": np.full(configs, 1000, dtype=np.int64)}


def layout_arrays(rng, nodes=5, configurable=2, configs=3):
    return {"node_feat": rng.random((nodes, 140), dtype=np.float32),
            "node_opcode": rng.integers(0, 120, nodes, dtype=np.uint8),
            "edge_index": np.array([[i + 1, i] for i in range(nodes - 1)], dtype=np.int64),
            "node_config_ids": np.arange(configurable, dtype=np.int64),
            "node_config_feat": rng.random((configs, configurable, 18), dtype=np.float32),
            "config_runtime": rng.integers(1000, 9000, configs, dtype=np.int64),
            "node_splits": np.array([[0, 2]], dtype=np.int64)}


def small_roofline():
    """The shipped fit with 8 of its 4,664 table entries: the same code is reached by mutants of
    a 1 KiB seed, which parse far faster than those of the 259 KiB fit."""
    with open(os.path.join(ROOT, "resources", "costmodels", "cpu_roofline.json")) as f:
        fit = json.load(f)
    fit["table"] = dict(list(fit["table"].items())[:8])
    write("roofline", "cpu_roofline_small.json", json.dumps(fit, indent=1, sort_keys=True) + "\n")


def small_graph(exported):
    """The first four ops of an exported JSON graph and the tensors they read and write: mutants
    of a 2 KiB seed parse far faster than those of the 16-62 KiB zoo exports."""
    with open(exported) as f:
        graph = json.load(f)
    graph["name"] += "_small"
    graph["ops"] = graph["ops"][:4]
    used = {t for op in graph["ops"] for t in op["inputs"] + op["outputs"]}
    graph["tensors"] = [t for t in graph["tensors"] if t["name"] in used]
    write("json_graph", graph["name"] + ".json", json.dumps(graph, separators=(",", ":")) + "\n")


def main():
    if not os.path.exists(CLI):
        sys.exit(f"make_corpus.py: {CLI} not built")
    shutil.rmtree(CORPUS, ignore_errors=True)
    malformed = os.path.join(DATA, "malformed")
    onnx = os.path.join(DATA, "onnx")

    small_onnx = ["mlp", "lstm", "no_value_info", "resnet18", "squeezenet1_1", "transformer_encoder"]
    link("onnx_model", *[os.path.join(onnx, f + ".onnx") for f in small_onnx])
    link("onnx_model", *[os.path.join(malformed, f) for f in sorted(os.listdir(malformed)) if f.endswith(".onnx")])
    link("dot_graph", *[os.path.join(DATA, "dot", f) for f in sorted(os.listdir(os.path.join(DATA, "dot")))])
    link("dot_graph", *[os.path.join(malformed, f) for f in sorted(os.listdir(malformed)) if f.endswith(".dot")])
    clusters = os.path.join(ROOT, "resources", "clusters")
    published = os.path.join(DATA, "published")
    link("cluster_json", *[os.path.join(clusters, f) for f in sorted(os.listdir(clusters))])
    link("cluster_json", *[os.path.join(published, "clusters", f) for f in sorted(os.listdir(os.path.join(published, "clusters")))])
    link("published_corpus", *[os.path.join(published, f) for f in sorted(os.listdir(published)) if f.endswith(".json")])
    link("corpus_spec", os.path.join(ROOT, "resources", "policies", "corpus.json"))
    link("roofline", os.path.join(ROOT, "resources", "costmodels", "cpu_roofline.json"))
    small_roofline()

    with tempfile.TemporaryDirectory() as tmp:
        def out(name):
            return os.path.join(tmp, name)

        # JSON graphs: small zoo models, inference and training.
        for name, args in [("rnnlm", ["--layers", "1", "--hidden", "8", "--seq-len", "2", "--batch", "2"]),
                           ("random_dag", ["--layers", "2", "--hidden", "2", "--graph-seed", "3"]),
                           ("bert_base", ["--layers", "1", "--hidden", "64", "--seq-len", "4", "--batch", "2",
                                          "--mode", "inference"]),
                           ("wavenet", ["--layers", "2", "--hidden", "4", "--seq-len", "16", "--mode", "inference"])]:
            cli("zoo", "export", name, "--out", out(name + ".json"), *args)
            shutil.copy(out(name + ".json"), os.path.join(folder("json_graph"), name + ".json"))
        small_graph(out("wavenet.json"))

        # Placement files for mlp.onnx: two baselines and an evaluation.
        mlp = os.path.join(onnx, "mlp.onnx")
        for method in ["m_etf", "metis"]:
            cli("baseline", mlp, "--cluster", "4xP100-PCIe", "--method", method, "--out", out(method + ".json"))
            shutil.copy(out(method + ".json"), os.path.join(folder("placement_json"), method + ".json"))
        cli("evaluate", mlp, "--cluster", "2xK80", "--out", out("single.json"))
        shutil.copy(out("single.json"), os.path.join(folder("placement_json"), "single_2xK80.json"))

        # Parallel plans.
        for method in ["megatron", "dp"]:
            cli("parallelize", "zoo:gpt_1_3b", "--layers", "2", "--cluster", "4xA100-NVLink", "--global-batch", "8",
                "--method", method, "--out", out(method + ".json"))
            shutil.copy(out(method + ".json"), os.path.join(folder("parallel_plan"), method + ".json"))

        # Cost-model datasets measured here (a few kernels and plans of a tiny model).
        cli("dataset", "make", mlp, "--kernels", out("kernels.json"), "--plans", out("plans.json"),
            "--repeats", "1", "--plan-configs", "2", "--max-kernels", "3")
        for name in ["kernels.json", "plans.json"]:
            shutil.copy(out(name), os.path.join(folder("cost_dataset"), name))

        # Run event logs (the first byte is the fuzz target's split point: the middle).
        cli("optimize", mlp, "--cluster", "4xP100-PCIe", "--iterations", "2", "--seed", "1",
            "--events", out("optimize.jsonl"))
        cli("pretrain", "--models", "zoo:rnnlm", "--clusters", "4xP100-PCIe", "--rounds", "1", "--layers", "1",
            "--hidden", "16", "--events", out("pretrain.jsonl"), "--out", out("policy.pt"))
        for name in ["optimize.jsonl", "pretrain.jsonl"]:
            with open(out(name), "rb") as f:
                write("run_log", name, b"\x80" + f.read())

    # Annotated ONNX models of mlp.onnx.
    with open(os.path.join(onnx, "mlp.onnx"), "rb") as f:
        model = f.read()
    write("onnx_placement", "mlp_round_robin.onnx", annotated(model, ["gpu0", "gpu1"], lambda i: i % 2))
    write("onnx_placement", "mlp_partial.onnx",
          annotated(model, ["gpu0"], lambda i: 0 if i == 0 else -1,
                    [("graphplace.step_time_ms", "1.5"), ("graphplace.feasible", "true")]))
    write("onnx_placement", "mlp_plain.onnx", model)

    # Calibration tables.
    write("calibration", "table.json", json.dumps({
        "format": "graphplace-calibration", "version": 1, "description": "seed",
        "entries": [{"op_type": "MatMul", "input_shapes": [[32, 1024], [1024, 4096]], "dtype": "f32",
                     "device_kind": "V100-SXM2-16GB", "seconds": 4.1e-5},
                    {"op_type": "Relu", "input_shapes": [None], "dtype": "f16", "device_kind": "H100-SXM5-80GB",
                     "seconds": 3.2e-6},
                    {"op_type": "Add", "input_shapes": [[], [8]], "dtype": "bf16", "device_kind": "A100",
                     "seconds": 0}]}, indent=1))
    write("calibration", "empty.json", '{"format": "graphplace-calibration", "version": 1, "entries": []}')

    # Corpus specs.
    write("corpus_spec", "small.json", json.dumps({
        "format": "graphplace-corpus", "version": 1,
        "families": {"lstm": [{"model": "zoo:rnnlm", "layers": [1, 2], "hidden": {"from": 8, "to": 9}}],
                     "dag": ["zoo:random_dag"], "mlp": ["onnx/mlp.onnx"]},
        "held_out": ["mlp"], "clusters": ["4xP100-PCIe", "random:1", "random:2:8"],
        "eval_clusters": ["2xK80"], "clusters_per_graph": 2}))

    # TpuGraphs tile and layout files, stored and deflated.
    rng = np.random.default_rng(1)
    write("tpugraphs_npz", "tile.npz", npz(tile_arrays(rng), compressed=False))
    write("tpugraphs_npz", "tile_deflated.npz", npz(tile_arrays(rng, nodes=3, configs=2), compressed=True))
    write("tpugraphs_npz", "layout.npz", npz(layout_arrays(rng), compressed=False))
    write("tpugraphs_npz", "layout_deflated.npz", npz(layout_arrays(rng, nodes=3, configurable=1), compressed=True))


if __name__ == "__main__":
    main()
