#!/usr/bin/python3
"""Exports a corpus of real PyTorch-ecosystem models for graphplace's importer (ctest -L models).

    /usr/bin/python3 tests/models/make_corpus.py [OUTDIR] [--only NAME,...] [--quick] [--force]

OUTDIR defaults to build/corpus. Needs Debian's python3-torch 1.13, python3-torchvision 0.14 and
python3-onnx 1.12; nothing is downloaded (weights=None everywhere). Writes OUTDIR/NAME.onnx or
NAME.pt (weights stripped with tests/data/make_fixtures.py's helpers) and OUTDIR/corpus.json:
per model its family, input shapes, node count, export seconds and `ref_flops`, the matmul/conv
FLOPs (2 per multiply-add, bias adds not counted) of one forward pass counted independently on
the model's TorchScript trace. Export failures are recorded under `failed`, with the reason.
Each model is exported in a forked child with a hard timeout, so a crash or an out-of-memory
kill costs one model. The manifest is rewritten after every model; a rerun skips the models
already exported (--force redoes them).
"""

import argparse
import json
import multiprocessing as mp
import os
import shutil
import sys
import tempfile
import time
import traceback

import onnx
import torch
import torch.nn as nn
import torchvision
from onnx import TensorProto as TP
from onnx import helper

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "tests", "data"))
import make_fixtures as fx  # noqa: E402  (strip_onnx, strip_module, count_aten, Seq2Seq, RecurrentModel)

TV = torchvision.models
QUICK = ["resnet18", "vit_b_16", "swin_t", "transformer_encoder", "seq2seq_gru_small", "quantized_qlinear",
         "control_flow_loop_if"]
# a few classification models at other opsets than 13, to cover torch's range 7..17
OPSETS = {"squeezenet1_0": 7, "alexnet": 8, "vgg11": 9, "googlenet": 10, "resnet34": 11, "densenet121": 12,
          "vit_b_32": 14, "convnext_tiny": 15, "efficientnet_b0": 16, "swin_v2_t": 17}
DYNAMIC_BATCH = {"vit_b_16", "resnet50"}
BIG = {"vit_h_14", "regnet_y_128gf", "vit_l_16", "vit_l_32", "regnet_y_32gf", "efficientnet_b7", "vgg19_bn"}


# ---------------------------------------------------------------- reference FLOPs on a trace

def sizes(value):
    try:
        s = value.type().sizes()
        return list(s) if s is not None else None
    except RuntimeError:
        return None


def prod(xs):
    n = 1
    for x in xs:
        n *= x
    return n


def matmul_flops(a, b):
    """2*m*k*n times the broadcast batch (numpy matmul rules, 1-D operands promoted)."""
    a = [1] + a if len(a) == 1 else a
    b = b + [1] if len(b) == 1 else b
    batch_a, batch_b = a[:-2], b[:-2]
    n = max(len(batch_a), len(batch_b))
    batch_a, batch_b = [1] * (n - len(batch_a)) + batch_a, [1] * (n - len(batch_b)) + batch_b
    return 2 * prod(max(x, y) for x, y in zip(batch_a, batch_b)) * a[-2] * a[-1] * b[-1]


def einsum_flops(node):
    eq = node.inputsAt(0).toIValue().replace(" ", "")
    operands = [sizes(v) for v in node.inputsAt(1).node().inputs()]
    if "..." in eq or len(operands) != 2 or None in operands:
        return None
    letters = {}
    for term, shape in zip(eq.split("->")[0].split(","), operands):
        letters.update(zip(term, shape))
    return 2 * prod(letters.values())


def rnn_flops(node, kind):
    ins = list(node.inputs())
    if kind.endswith("_cell"):  # (input, hx, w_ih, w_hh, b_ih, b_hh)
        x, w_ih, w_hh = sizes(ins[0]), sizes(ins[2]), sizes(ins[3])
        return 2 * x[0] * (prod(w_ih) + prod(w_hh))
    x = sizes(ins[0])  # aten::lstm(input, hx, params, has_biases, layers, dropout, train, bidir, batch_first)
    params = [sizes(p) for p in ins[2].node().inputs()]
    steps_times_batch = x[0] * x[1]  # the same whether batch_first or not
    return 2 * steps_times_batch * sum(prod(p) for p in params if len(p) == 2)


def node_flops(node):
    kind = node.kind()
    base = kind.split("::")[-1].rstrip("_")
    ins = list(node.inputs())
    if base in ("_convolution", "convolution", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
                "conv_transpose2d", "conv_transpose3d"):
        x, w, y = sizes(ins[0]), sizes(ins[1]), sizes(node.outputsAt(0))
        transposed = base.startswith("conv_transpose") or (
            base in ("_convolution", "convolution") and bool(ins[6].toIValue()))
        return 2 * prod(x) * prod(w[1:]) if transposed else 2 * prod(y) * prod(w[1:])
    if base == "linear":
        return 2 * prod(sizes(ins[0])) * sizes(ins[1])[0]
    if base in ("addmm", "baddbmm", "addbmm"):
        return matmul_flops(sizes(ins[1]), sizes(ins[2]))
    if base in ("mm", "bmm", "matmul"):
        return matmul_flops(sizes(ins[0]), sizes(ins[1]))
    if base == "einsum":
        return einsum_flops(node)
    if base in ("lstm", "gru", "rnn_tanh", "rnn_relu", "lstm_cell", "gru_cell", "rnn_tanh_cell", "rnn_relu_cell"):
        return rnn_flops(node, base)
    return 0


FUSED = {"aten::_native_multi_head_attention", "aten::_transformer_encoder_layer_fwd",
         "aten::scaled_dot_product_attention"}


def trace_flops(graph):
    """Returns (total, {kind: flops}) over every node of an inlined graph, blocks included; None if unknown."""
    total, by_kind = 0, {}
    stack = [graph]
    while stack:
        block = stack.pop()
        for node in block.nodes():
            stack.extend(node.blocks())
            f = None if node.kind() in FUSED else node_flops(node)
            if f is None:
                return None, {"unknown": node.kind()}
            if f:
                total += f
                by_kind[node.kind()] = by_kind.get(node.kind(), 0) + f
    return total, by_kind


def ref_flops(module, args):
    """Traces like fvcore does (torch.jit._get_trace_graph keeps every value's shape, calls inlined).

    Grad stays enabled: under no_grad, eval-mode batch_first attention takes PyTorch's fused
    fast path (aten::_native_multi_head_attention), which neither this counter nor ONNX knows."""
    graph, _ = torch.jit._get_trace_graph(module, args)
    return trace_flops(graph)


# ---------------------------------------------------------------- small models of our own

class GruSeq2Seq(nn.Module):
    """GRUCell encoder and decoder unrolled by a Python loop: every call is its own ONNX scope."""

    def __init__(self, vocab=300, embed=64, hidden=128):
        super().__init__()
        self.embed = nn.Embedding(vocab, embed)
        self.enc = nn.GRUCell(embed, hidden)
        self.dec = nn.GRUCell(embed + hidden, hidden)
        self.proj = nn.Linear(hidden, vocab)

    def forward(self, src, tgt):
        h = torch.zeros(src.shape[1], self.enc.hidden_size)
        for t in range(src.shape[0]):
            h = self.enc(self.embed(src[t]), h)
        context, out = h, []
        for t in range(tgt.shape[0]):
            h = self.dec(torch.cat([self.embed(tgt[t]), context], dim=1), h)
            out.append(self.proj(h))
        return torch.stack(out, dim=0)


def transformer_encoder(layers=12, d=512, batch_first=False, activation="relu"):
    layer = nn.TransformerEncoderLayer(d, 8, 4 * d, dropout=0.0, activation=activation, batch_first=batch_first)
    return nn.TransformerEncoder(layer, layers)


def transformer_decoder(layers=6, d=512):
    return nn.TransformerDecoder(nn.TransformerDecoderLayer(d, 8, 4 * d, dropout=0.0), layers)


# ---------------------------------------------------------------- the corpus

def spec(name, family, build, shapes, dtype="float", opset=13, dynamic=None, names=None, fmt="onnx",
         cli_shape=None, timeout=600, note=""):
    return dict(name=name, family=family, build=build, shapes=shapes, dtype=dtype, opset=opset, dynamic=dynamic,
                names=names or ["input%d" % i if i else "input" for i in range(len(shapes))], fmt=fmt,
                cli_shape=cli_shape, timeout=timeout, note=note)


def tv_model(fn, **kw):
    return lambda: fn(weights=None, **kw)


def detection_model(name):
    kw = {} if name.startswith("ssd") else {"min_size": 320, "max_size": 320}
    return lambda: getattr(TV.detection, name)(weights=None, weights_backbone=None, **kw)


def corpus():
    specs = []
    for name in TV.list_models(module=TV):
        size = 299 if name == "inception_v3" else 224
        kw = {"init_weights": False} if name in ("googlenet", "inception_v3") else {}
        dyn = {"input": {0: "batch_size"}, "output": {0: "batch_size"}} if name in DYNAMIC_BATCH else None
        specs.append(spec(name, "classification", tv_model(getattr(TV, name), **kw), [[1, 3, size, size]],
                          opset=OPSETS.get(name, 13), dynamic=dyn, timeout=1800 if name in BIG else 600))
    for name in TV.list_models(module=TV.segmentation):
        specs.append(spec(name, "segmentation", lambda n=name: getattr(TV.segmentation, n)(
            weights=None, weights_backbone=None), [[1, 3, 224, 224]]))
    for name in TV.list_models(module=TV.video):
        clip = [1, 3, 16, 224, 224] if name in ("s3d", "mvit_v1_b", "mvit_v2_s") else [1, 3, 8, 112, 112]
        specs.append(spec(name, "video", tv_model(getattr(TV.video, name)), [clip],
                          opset=11 if name == "r3d_18" else 13))
    for name in TV.list_models(module=TV.detection):
        specs.append(spec(name, "detection", detection_model(name), [[3, 320, 320]], names=["images"],
                          note="input is a list of one CHW image"))
    specs += [
        spec("transformer_encoder", "transformer", transformer_encoder, [[128, 1, 512]],
             note="nn.TransformerEncoder, 12 layers, d=512, seq 128"),
        spec("bert_encoder_dynamic", "transformer", lambda: transformer_encoder(12, 768, True, "gelu"),
             [[1, 128, 768]], opset=17, dynamic={"input": {0: "batch_size", 1: "sequence"}}, cli_shape=[1, 128, 768],
             note="BERT-base-like, batch_first, symbolic batch_size/sequence"),
        spec("transformer_decoder", "transformer", transformer_decoder, [[64, 1, 512], [128, 1, 512]],
             names=["tgt", "memory"], opset=17),
        spec("transformer_full", "transformer", lambda: nn.Transformer(512, 8, 6, 6, 2048, dropout=0.0),
             [[128, 1, 512], [64, 1, 512]], names=["src", "tgt"]),
        spec("seq2seq_gru_small", "recurrent", GruSeq2Seq, [[54, 2], [54, 2]], dtype="long", names=["src", "tgt"],
             note="GRUCell encoder/decoder unrolled over 54+54 steps"),
        spec("seq2seq_lstm_large", "recurrent", fx.Seq2Seq, [[205, 2], [205, 2]], dtype="long",
             names=["src", "tgt"], timeout=1800, note="make_fixtures' Seq2Seq (2 LSTMCells each side), 205+205 steps"),
        spec("lstm_gru_dynamic", "recurrent", fx.RecurrentModel, [[64, 4]], dtype="long",
             dynamic={"input": {0: "sequence", 1: "batch_size"}}, cli_shape=[64, 4],
             note="ONNX LSTM (2 layers) and GRU ops, symbolic sequence/batch_size"),
        spec("lstm_2x1024", "recurrent", lambda: nn.LSTM(512, 1024, num_layers=2), [[32, 4, 512]]),
        spec("gru_bidirectional", "recurrent", lambda: nn.GRU(256, 512, bidirectional=True), [[32, 4, 256]]),
    ]
    for name, build, shape in [("resnet18", tv_model(TV.resnet18), [1, 3, 224, 224]),
                               ("mobilenet_v3_small", tv_model(TV.mobilenet_v3_small), [1, 3, 224, 224]),
                               ("transformer_encoder", transformer_encoder, [128, 1, 512])]:
        specs.append(spec(name + "_ts", "torchscript", build, [shape], fmt="torchscript", cli_shape=shape))
    specs += [spec("quantized_qlinear", "onnx-special", None, [[1, 3, 32, 32]], fmt="handmade"),
              spec("control_flow_loop_if", "onnx-special", None, [[1, 64]], fmt="handmade")]
    return specs


# ---------------------------------------------------------------- hand-written ONNX

def quantized_model():
    """QuantizeLinear -> QLinearConv (uint8 x int8) -> Reshape -> QLinearMatMul -> DequantizeLinear."""
    c = lambda n, t, dims, vals: helper.make_tensor(n, t, dims, vals)  # noqa: E731
    inits = [c("x_scale", TP.FLOAT, [], [0.02]), c("x_zp", TP.UINT8, [], [128]),
             c("w", TP.INT8, [16, 3, 3, 3], [1] * 432), c("w_scale", TP.FLOAT, [], [0.01]),
             c("w_zp", TP.INT8, [], [0]), c("y_scale", TP.FLOAT, [], [0.05]), c("y_zp", TP.UINT8, [], [128]),
             c("bias", TP.INT32, [16], [0] * 16), c("shape", TP.INT64, [2], [16, 256]),
             c("b", TP.INT8, [256, 64], [1] * 256 * 64), c("b_scale", TP.FLOAT, [], [0.01]),
             c("b_zp", TP.INT8, [], [0]), c("z_scale", TP.FLOAT, [], [0.1]), c("z_zp", TP.UINT8, [], [128])]
    nodes = [helper.make_node("QuantizeLinear", ["x", "x_scale", "x_zp"], ["xq"], name="quant/QuantizeLinear"),
             helper.make_node("QLinearConv", ["xq", "x_scale", "x_zp", "w", "w_scale", "w_zp", "y_scale", "y_zp",
                                              "bias"], ["yq"], name="conv/QLinearConv", kernel_shape=[3, 3],
                              strides=[2, 2], pads=[1, 1, 1, 1]),
             helper.make_node("Reshape", ["yq", "shape"], ["yr"], name="flatten/Reshape"),
             helper.make_node("QLinearMatMul", ["yr", "y_scale", "y_zp", "b", "b_scale", "b_zp", "z_scale", "z_zp"],
                              ["zq"], name="fc/QLinearMatMul"),
             helper.make_node("DequantizeLinear", ["zq", "z_scale", "z_zp"], ["output"], name="dequant/Dequantize")]
    graph = helper.make_graph(nodes, "quantized", [helper.make_tensor_value_info("x", TP.FLOAT, [1, 3, 32, 32])],
                              [helper.make_tensor_value_info("output", TP.FLOAT, [16, 64])], inits)
    ref = 2 * (16 * 16 * 16) * (3 * 3 * 3) + 2 * 16 * 256 * 64  # conv [1,16,16,16] x 27 MACs; [16,256]x[256,64]
    return graph, ref, True, "uint8 activations, int8 weights; ref = QLinearConv + QLinearMatMul"


def control_flow_model():
    """A Loop (constant trip count 4, MatMul + Relu in the body) then an If whose then-branch has a MatMul."""
    vi = lambda n, dims, t=TP.FLOAT: helper.make_tensor_value_info(n, t, dims)  # noqa: E731
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"], name="loop/body/Identity"),
         helper.make_node("MatMul", ["h_in", "w_loop"], ["mm"], name="loop/body/MatMul"),
         helper.make_node("Relu", ["mm"], ["h_out"], name="loop/body/Relu")],
        "loop_body", [vi("iter", [], TP.INT64), vi("cond_in", [], TP.BOOL), vi("h_in", [1, 64])],
        [vi("cond_out", [], TP.BOOL), vi("h_out", [1, 64])])
    then_g = helper.make_graph([helper.make_node("MatMul", ["h", "w_then"], ["t"], name="if/then/MatMul")],
                               "then", [], [vi("t", [1, 64])])
    else_g = helper.make_graph([helper.make_node("Neg", ["h"], ["e"], name="if/else/Neg")], "else", [],
                               [vi("e", [1, 64])])
    nodes = [helper.make_node("Loop", ["trip", "cond", "input"], ["h"], name="loop/Loop", body=body),
             helper.make_node("ReduceSum", ["h"], ["s"], name="gate/ReduceSum", keepdims=0),
             helper.make_node("Greater", ["s", "zero"], ["c"], name="gate/Greater"),
             helper.make_node("If", ["c"], ["output"], name="if/If", then_branch=then_g, else_branch=else_g)]
    inits = [helper.make_tensor("trip", TP.INT64, [], [4]), helper.make_tensor("cond", TP.BOOL, [], [True]),
             helper.make_tensor("zero", TP.FLOAT, [], [0.0]),
             helper.make_tensor("w_loop", TP.FLOAT, [64, 64], [0.01] * 4096),
             helper.make_tensor("w_then", TP.FLOAT, [64, 64], [0.01] * 4096)]
    # value_info as torch.onnx writes it: onnx 1.12's inference leaves the Loop output's shape unknown
    graph = helper.make_graph(nodes, "control_flow", [vi("input", [1, 64])], [vi("output", [1, 64])], inits,
                              value_info=[vi("h", [1, 64]), vi("s", []), vi("c", [], TP.BOOL)])
    return graph, 4 * 2 * 64 * 64 + 2 * 64 * 64, False, \
        "ref = 4 loop iterations x MatMul + the If's then-branch MatMul; report only (loop semantics)"


def write_handmade(s, path):
    graph, ref, check, note = (quantized_model if s["name"].startswith("quant") else control_flow_model)()
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="make_corpus.py")
    onnx.checker.check_model(m)
    onnx.shape_inference.infer_shapes(m, strict_mode=True)
    onnx.save(fx.strip_onnx(m), path)
    return {"nodes": len(m.graph.node), "ref_flops": ref, "check_flops": check, "note": note}


# ---------------------------------------------------------------- exporting one model (in a child)

def example_args(s):
    torch.manual_seed(0)
    if s["dtype"] == "long":
        return tuple(torch.randint(0, 300, shape) for shape in s["shapes"])
    if s["family"] == "detection":
        return ([torch.rand(*s["shapes"][0])],)
    return tuple(torch.randn(*shape) for shape in s["shapes"])


def export_onnx(s, model, args, path):
    tmp = tempfile.mkdtemp(prefix=".tmp-" + s["name"], dir=os.path.dirname(path))
    try:  # export to a file so that models over 2 GB go to external data, then drop the data
        raw = os.path.join(tmp, "raw.onnx")
        torch.onnx.export(model, args, raw, opset_version=s["opset"], do_constant_folding=True,
                          input_names=s["names"], dynamic_axes=s["dynamic"])
        m = onnx.load(raw, load_external_data=False)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    onnx.save(fx.strip_onnx(m), path)
    return len(m.graph.node)


def export_torchscript(s, model, args, path):
    traced = torch.jit.trace(fx.strip_module(model), args, check_trace=False)
    traced.save(path)
    return fx.count_aten(torch.jit.load(path).inlined_graph)


def export_one(s, outdir):
    ext = ".pt" if s["fmt"] == "torchscript" else ".onnx"
    path = os.path.join(outdir, s["name"] + ext)
    entry = {"name": s["name"], "file": s["name"] + ext, "format": "torchscript" if ext == ".pt" else "onnx",
             "family": s["family"], "input_shapes": s["shapes"], "input_dtype": s["dtype"],
             "cli_input_shape": "x".join(map(str, s["cli_shape"])) if s["cli_shape"] else None,
             "opset": s["opset"] if ext == ".onnx" else None, "dynamic_axes": s["dynamic"],
             "check_flops": s["family"] not in ("detection", "recurrent")}
    if s["note"]:
        entry["note"] = s["note"]
    t0 = time.perf_counter()
    if s["fmt"] == "handmade":
        entry.update(write_handmade(s, path))
    else:
        torch.manual_seed(0)
        model, args = s["build"]().eval(), example_args(s)
        try:
            entry["ref_flops"], entry["ref_flops_by_kind"] = ref_flops(model, args)
        except Exception as e:  # noqa: BLE001  (the export may still work)
            entry["ref_flops"], entry["ref_flops_error"] = None, f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"
        t0 = time.perf_counter()
        entry["nodes"] = (export_torchscript if s["fmt"] == "torchscript" else export_onnx)(s, model, args, path)
    entry["export_seconds"] = round(time.perf_counter() - t0, 2)
    entry["file_bytes"] = os.path.getsize(path)
    return entry


def child(s, outdir, conn):
    torch.set_num_threads(2)
    try:
        conn.send(("ok", export_one(s, outdir)))
    except BaseException as e:  # noqa: BLE001
        lines = [ln for ln in str(e).splitlines() if ln.strip()]
        conn.send(("failed", f"{type(e).__name__}: {lines[0][:300] if lines else ''}",
                   traceback.format_exc(limit=3)[-1500:]))


def run_isolated(s, outdir):
    """Runs export_one in a forked child with a hard timeout; returns ('ok', entry) or ('failed', reason)."""
    recv, send = mp.Pipe(duplex=False)
    p = mp.get_context("fork").Process(target=child, args=(s, outdir, send))
    t0 = time.perf_counter()
    p.start()
    send.close()
    result = None
    if recv.poll(s["timeout"]):
        try:
            result = recv.recv()
        except EOFError:
            pass
    if p.is_alive() and result is None:
        p.kill()
        p.join()
        return ("failed", f"timeout: no result after {s['timeout']} s", "")
    p.join()
    if result is None:
        return ("failed", f"child died with exit code {p.exitcode} (killed for memory?) after "
                          f"{time.perf_counter() - t0:.0f} s", "")
    return result


# ---------------------------------------------------------------- main

def load_manifest(path):
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    return {"models": {}, "failed": {}}


def save_manifest(path, manifest):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("outdir", nargs="?", default=os.path.join(REPO, "build", "corpus"))
    ap.add_argument("--only", help="comma-separated model names")
    ap.add_argument("--quick", action="store_true", help="a small subset: " + ", ".join(QUICK))
    ap.add_argument("--force", action="store_true", help="re-export models already in the manifest")
    ap.add_argument("--if-incomplete", action="store_true",
                    help="do nothing if a full run has already completed the manifest (ctest's setup)")
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    specs = corpus()
    wanted = a.only.split(",") if a.only else (QUICK + ["transformer_encoder_ts"] if a.quick else None)
    if wanted:
        unknown = set(wanted) - {s["name"] for s in specs}
        if unknown:
            sys.exit("unknown model(s): " + ", ".join(sorted(unknown)))
        specs = [s for s in specs if s["name"] in wanted]
    specs.sort(key=lambda s: s["name"] in BIG)  # the heaviest last
    mpath = os.path.join(a.outdir, "corpus.json")
    manifest = load_manifest(mpath)
    if a.if_incomplete and manifest.get("complete"):
        print(f"{mpath}: complete ({len(manifest['models'])} models), nothing to do")
        return 0
    manifest.update(generator="tests/models/make_corpus.py", versions={
        "torch": torch.__version__, "torchvision": torchvision.__version__, "onnx": onnx.__version__},
        ref_flops_rule="2 per multiply-add of conv/linear/matmul/bmm/einsum/RNN-cell weights on the "
                       "TorchScript trace of the PyTorch model (bias adds not counted)")
    t_all = time.perf_counter()
    for s in specs:
        old = manifest["models"].get(s["name"])
        if old and not a.force and os.path.exists(os.path.join(a.outdir, old["file"])):
            print(f"{s['name']:34s} kept ({old['nodes']} nodes)", flush=True)
            continue
        t0 = time.perf_counter()
        status, *rest = run_isolated(s, a.outdir)
        if status == "ok":
            manifest["models"][s["name"]] = rest[0]
            manifest["failed"].pop(s["name"], None)
            e = rest[0]
            ref = f"{e['ref_flops'] / 1e9:.3f} GFLOP" if e.get("ref_flops") else "ref n/a"
            print(f"{s['name']:34s} ok     {e['nodes']:6d} nodes  {e['export_seconds']:7.1f} s  {ref}", flush=True)
        else:
            manifest["models"].pop(s["name"], None)
            manifest["failed"][s["name"]] = {"family": s["family"], "reason": rest[0], "detail": rest[1],
                                             "seconds": round(time.perf_counter() - t0, 1)}
            print(f"{s['name']:34s} FAILED {rest[0]}", flush=True)
        save_manifest(mpath, manifest)
    if not wanted:
        manifest["complete"] = True
        save_manifest(mpath, manifest)
    print(f"{len(manifest['models'])} models, {len(manifest['failed'])} failed; "
          f"{time.perf_counter() - t_all:.0f} s; manifest {mpath}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
