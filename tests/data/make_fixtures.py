#!/usr/bin/python3
"""Writes graphplace's committed model fixtures and their manifest.

Run from anywhere with Debian's Python (python3-torch 1.13, python3-torchvision 0.14,
python3-onnx 1.12):

    /usr/bin/python3 tests/data/make_fixtures.py

Outputs (next to this script):
  onnx/*.onnx          ONNX models exported by torch.onnx, weights stripped
  torchscript/*.pt     TorchScript modules (traced or scripted), weights stripped
  fixtures.json        manifest: file, format, op count as the framework reports it, input shape
  malformed/*.onnx     broken inputs every importer must reject with a clear error
  malformed/*.pt       TorchScript that is too large once inlined, or code that never ends
                       (`make_fixtures.py malformed` rewrites only the malformed files, in seconds)

Weights are stripped so the files stay small; importers only need shapes and dtypes:
  * ONNX: every floating-point initializer with >= 64 elements keeps its name, dims and
    data_type but loses its data (raw_data / float_data / ...). Integer initializers and small
    ones (shape constants, split sizes, scales) keep their data so that ONNX shape inference
    still works on them. model.metadata_props gets {"graphplace.weights": "stripped"}.
  * TorchScript: before tracing/scripting, every parameter and buffer is replaced by a
    stride-0 expanded tensor (torch.zeros(()).expand(shape)), so serialization stores one
    element per storage.
Models are built with weights=None (no download); the seeds are fixed so reruns give the
same graphs (torch.onnx node names are deterministic).
"""

import io
import json
import os
import sys

import onnx
import torch
import torch.nn as nn
import torchvision

HERE = os.path.dirname(os.path.abspath(__file__))
ONNX_DIR = os.path.join(HERE, "onnx")
TS_DIR = os.path.join(HERE, "torchscript")
BAD_DIR = os.path.join(HERE, "malformed")

TORCHSCRIPT_RULE = (
    "Load the .pt with torch.jit.load; take the forward graph with every call inlined "
    "(Python: module.inlined_graph; C++: a copy of module.get_method(\"forward\").graph() "
    "passed to torch::jit::Inline). Count every node whose kind starts with \"aten::\", "
    "recursing into the blocks of every node (prim::If / prim::Loop bodies are counted once "
    "each, not per iteration). prim::, onnx:: and other namespaces are not counted.")
ONNX_RULE = "len(model.graph.node): top-level nodes only; If/Loop/Scan bodies are not counted."

FLOAT_TYPES = {onnx.TensorProto.FLOAT, onnx.TensorProto.FLOAT16, onnx.TensorProto.DOUBLE,
               onnx.TensorProto.BFLOAT16}
ELEM_SIZE = {onnx.TensorProto.FLOAT: 4, onnx.TensorProto.FLOAT16: 2, onnx.TensorProto.DOUBLE: 8,
             onnx.TensorProto.BFLOAT16: 2, onnx.TensorProto.INT64: 8, onnx.TensorProto.INT32: 4,
             onnx.TensorProto.INT16: 2, onnx.TensorProto.INT8: 1, onnx.TensorProto.UINT8: 1,
             onnx.TensorProto.BOOL: 1}
STRIP_MIN_ELEMS = 64


def numel(dims):
    n = 1
    for d in dims:
        n *= d
    return n


# ---------------------------------------------------------------- models

class MLP(nn.Module):
    def __init__(self, sizes=(64, 256, 256, 10)):
        super().__init__()
        self.fc1 = nn.Linear(sizes[0], sizes[1])
        self.fc2 = nn.Linear(sizes[1], sizes[2])
        self.fc3 = nn.Linear(sizes[2], sizes[3])

    def forward(self, x):
        x = torch.relu(self.fc1(x))
        x = torch.nn.functional.gelu(self.fc2(x))
        return torch.softmax(self.fc3(x), dim=-1)


class RecurrentModel(nn.Module):
    """Embedding -> 2-layer LSTM -> GRU -> Linear: ONNX LSTM and GRU ops."""

    def __init__(self, vocab=1000, embed=64, hidden=128):
        super().__init__()
        self.embed = nn.Embedding(vocab, embed)
        self.lstm = nn.LSTM(embed, hidden, num_layers=2)
        self.gru = nn.GRU(hidden, 64)
        self.out = nn.Linear(64, 10)

    def forward(self, tokens):
        x = self.embed(tokens)
        x, _ = self.lstm(x)
        x, _ = self.gru(x)
        return self.out(x)


class SmallCNN(nn.Module):
    """Flattens with x.view(x.size(0), -1): Reshape needs data propagation when value_info is gone."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(16)
        self.pool = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(16, 32, 3, stride=2, padding=1)
        self.deconv = nn.ConvTranspose2d(32, 16, 2, stride=2)
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        x = self.pool(torch.relu(self.bn1(self.conv1(x))))
        x = torch.relu(self.conv2(x))
        x = torch.sigmoid(self.deconv(x))
        x = self.gap(x)
        return self.fc(x.view(x.size(0), -1))


class Seq2Seq(nn.Module):
    """LSTMCell encoder-decoder with dot attention, unrolled by a Python loop (a large graph)."""

    def __init__(self, vocab=500, embed=64, hidden=128):
        super().__init__()
        self.hidden = hidden
        self.src_embed = nn.Embedding(vocab, embed)
        self.tgt_embed = nn.Embedding(vocab, embed)
        self.enc = nn.ModuleList([nn.LSTMCell(embed, hidden), nn.LSTMCell(hidden, hidden)])
        self.dec = nn.ModuleList([nn.LSTMCell(embed, hidden), nn.LSTMCell(hidden, hidden)])
        self.attn_out = nn.Linear(2 * hidden, hidden)
        self.proj = nn.Linear(hidden, vocab)

    def forward(self, src, tgt):
        batch = src.shape[1]
        h = [torch.zeros(batch, self.hidden) for _ in self.enc]
        c = [torch.zeros(batch, self.hidden) for _ in self.enc]
        x = self.src_embed(src)
        memory = []
        for t in range(src.shape[0]):
            inp = x[t]
            for i, cell in enumerate(self.enc):
                h[i], c[i] = cell(inp, (h[i], c[i]))
                inp = h[i]
            memory.append(inp)
        mem = torch.stack(memory, dim=1)  # batch, src, hidden
        y = self.tgt_embed(tgt)
        logits = []
        for t in range(tgt.shape[0]):
            inp = y[t]
            for i, cell in enumerate(self.dec):
                h[i], c[i] = cell(inp, (h[i], c[i]))
                inp = h[i]
            scores = torch.softmax(torch.bmm(mem, inp.unsqueeze(2)), dim=1)  # batch, src, 1
            context = (scores * mem).sum(dim=1)
            att = torch.tanh(self.attn_out(torch.cat([inp, context], dim=1)))
            logits.append(self.proj(att))
        return torch.stack(logits, dim=0)


# ---------------------------------------------------------------- ONNX

def strip_onnx(model):
    for init in model.graph.initializer:
        if init.data_type in FLOAT_TYPES and numel(init.dims) >= STRIP_MIN_ELEMS:
            for field in ("raw_data", "float_data", "double_data", "int32_data", "int64_data",
                          "uint64_data", "string_data", "external_data"):
                init.ClearField(field)
            init.ClearField("data_location")
    prop = model.metadata_props.add()
    prop.key, prop.value = "graphplace.weights", "stripped"
    return model


def param_bytes(model):
    """Bytes of the initializers that some node reads (what GraphBuilder counts as parameters)."""
    used = {name for node in model.graph.node for name in node.input}
    return sum(numel(i.dims) * ELEM_SIZE.get(i.data_type, 0) for i in model.graph.initializer
               if i.name in used)


def export_onnx(name, model, args, input_shape, opset=13, strip=True, clear_value_info=False,
                infer_value_info=False, dynamic_axes=None, input_names=("input",), external_data=False,
                note=""):
    torch.manual_seed(0)
    buf = io.BytesIO()
    torch.onnx.export(model.eval(), args, buf, opset_version=opset, do_constant_folding=True,
                      input_names=list(input_names), output_names=["output"],
                      dynamic_axes=dynamic_axes)
    m = onnx.load_from_string(buf.getvalue())
    if strip:
        strip_onnx(m)
    if clear_value_info:
        del m.graph.value_info[:]
    if infer_value_info:  # torch.onnx keeps little value_info; record every shape in the file
        m = onnx.shape_inference.infer_shapes(m, data_prop=True)
    path = os.path.join(ONNX_DIR, name + ".onnx")
    entry = {"file": "onnx/" + name + ".onnx", "format": "onnx", "op_count": len(m.graph.node),
             "input_shape": input_shape, "opset": opset, "param_bytes": param_bytes(m),
             "weights": "stripped" if strip else "kept", "value_info": len(m.graph.value_info)}
    if external_data:
        data_name = name + ".onnx.data"
        if os.path.exists(os.path.join(ONNX_DIR, data_name)):
            os.remove(os.path.join(ONNX_DIR, data_name))
        onnx.save_model(m, path, save_as_external_data=True, all_tensors_to_one_file=True,
                        location=data_name, size_threshold=0)
        entry["external_data"] = "onnx/" + data_name
    else:
        onnx.save_model(m, path)
    check = onnx.load(path, load_external_data=False)
    assert len(check.graph.node) == entry["op_count"]
    if note:
        entry["note"] = note
    print(f"  {entry['file']}: {entry['op_count']} nodes, {os.path.getsize(path)} bytes")
    return entry


def onnx_fixtures():
    os.makedirs(ONNX_DIR, exist_ok=True)
    tv = torchvision.models
    img = [1, 3, 224, 224]
    out = {}
    out["resnet18_onnx"] = export_onnx("resnet18", tv.resnet18(weights=None), torch.randn(*img), img,
                                       infer_value_info=True,
                                       note="BatchNorm is folded into Conv by the exporter")
    out["mobilenet_v2_onnx"] = export_onnx("mobilenet_v2", tv.mobilenet_v2(weights=None), torch.randn(*img), img,
                                           infer_value_info=True)
    out["squeezenet1_1_onnx"] = export_onnx("squeezenet1_1", tv.squeezenet1_1(weights=None),
                                            torch.randn(*img), img, infer_value_info=True)
    out["mlp_onnx"] = export_onnx("mlp", MLP(), torch.randn(1, 64), [1, 64], infer_value_info=True,
                                  dynamic_axes={"input": {0: "batch"}, "output": {0: "batch"}},
                                  note="symbolic batch dimension 'batch' (importers set it to 1)")
    layer = nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=256, dropout=0.0)
    out["transformer_encoder_onnx"] = export_onnx("transformer_encoder", layer, torch.randn(16, 1, 64),
                                                  [16, 1, 64], opset=17, infer_value_info=True,
                                                  note="opset 17: LayerNormalization op")
    out["lstm_onnx"] = export_onnx("lstm", RecurrentModel(), torch.randint(0, 1000, (20, 2)), [20, 2],
                                   note="int64 token ids (seq, batch); ONNX LSTM and GRU ops")
    out["no_value_info_onnx"] = export_onnx("no_value_info", SmallCNN(), torch.randn(2, 3, 32, 32),
                                            [2, 3, 32, 32], clear_value_info=True,
                                            note="graph.value_info removed: shapes need ONNX shape inference")
    out["mlp_external_onnx"] = export_onnx("mlp_external", MLP((16, 32, 32, 8)), torch.randn(1, 16), [1, 16],
                                           strip=False, external_data=True,
                                           note="all initializers in mlp_external.onnx.data")
    src = torch.randint(0, 500, (150, 2))
    tgt = torch.randint(0, 500, (150, 2))
    out["seq2seq_unrolled_onnx"] = export_onnx("seq2seq_unrolled", Seq2Seq(), (src, tgt), [[150, 2], [150, 2]],
                                               input_names=("src", "tgt"),
                                               note="LSTMCell encoder/decoder unrolled over 150+150 steps")
    return out


# ---------------------------------------------------------------- TorchScript

def strip_module(module):
    """Replaces every parameter and buffer by a stride-0 expanded tensor (one stored element)."""
    for mod in module.modules():
        for name, p in list(mod._parameters.items()):
            if p is not None:
                setattr(mod, name, nn.Parameter(torch.zeros((), dtype=p.dtype).expand(p.shape),
                                                requires_grad=p.requires_grad))
        for name, b in list(mod._buffers.items()):
            if b is not None:
                setattr(mod, name, torch.zeros((), dtype=b.dtype).expand(b.shape))
    return module


def count_aten(block):
    n = 0
    for node in block.nodes():
        if node.kind().startswith("aten::"):
            n += 1
        for sub in node.blocks():
            n += count_aten(sub)
    return n


def save_torchscript(name, module, example, input_shape, how, note=""):
    torch.manual_seed(0)
    module = strip_module(module.eval())
    with torch.no_grad():
        if how == "trace":
            sm = torch.jit.trace(module, example, check_trace=False)
        else:
            sm = torch.jit.script(module)
    path = os.path.join(TS_DIR, name + ".pt")
    sm.save(path)
    loaded = torch.jit.load(path)
    with torch.no_grad():
        loaded(*example) if isinstance(example, tuple) else loaded(example)  # still runs
    entry = {"file": "torchscript/" + name + ".pt", "format": "torchscript", "how": how,
             "op_count": count_aten(loaded.inlined_graph), "input_shape": input_shape,
             "weights": "stripped"}
    if note:
        entry["note"] = note
    print(f"  {entry['file']}: {entry['op_count']} aten ops, {os.path.getsize(path)} bytes")
    return entry


class LstmTagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(32, 64, num_layers=2, batch_first=True)
        self.out = nn.Linear(64, 5)

    def forward(self, x):
        y, _ = self.lstm(x)
        return self.out(y)


class ControlFlow(nn.Module):
    """Scripted control flow: a loop, a data-dependent branch and an in-place add."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 32)
        self.head = nn.Linear(32, 4)

    def forward(self, x):
        h = x
        for _ in range(3):
            h = torch.relu(self.fc(h))
            if bool(h.sum() > 0):
                h = h * 2.0
            else:
                h = h - 1.0
        h += x
        return self.head(h)


def torchscript_fixtures():
    os.makedirs(TS_DIR, exist_ok=True)
    tv = torchvision.models
    img = [1, 3, 224, 224]
    out = {}
    out["resnet18_ts"] = save_torchscript("resnet18", tv.resnet18(weights=None), torch.randn(*img), img, "trace")
    out["mobilenet_v2_ts"] = save_torchscript("mobilenet_v2", tv.mobilenet_v2(weights=None), torch.randn(*img),
                                              img, "trace")
    out["mlp_ts"] = save_torchscript("mlp", MLP(), torch.randn(1, 64), [1, 64], "script")
    out["lstm_ts"] = save_torchscript("lstm", LstmTagger(), torch.randn(2, 10, 32), [2, 10, 32], "trace",
                                      note="batch_first input (batch, seq, features)")
    out["resnet18_scripted_ts"] = save_torchscript("resnet18_scripted", tv.resnet18(weights=None), torch.randn(*img), img,
                                                   "script", note="scripted: If nodes from the module code")
    out["control_flow_ts"] = save_torchscript("control_flow", ControlFlow(), torch.randn(2, 32), [2, 32], "script",
                                              note="prim::Loop with a data-dependent prim::If inside, in-place add_")
    return out


# ---------------------------------------------------------------- malformed inputs

def malformed_fixtures():
    """Small broken files; tests/unit/core/onnx_import_test.cpp checks the error for each."""
    from onnx import helper, TensorProto as TP
    os.makedirs(BAD_DIR, exist_ok=True)

    def model(nodes, inputs, outputs, inits=(), value_info=(), name="bad"):
        g = helper.make_graph(nodes, name, inputs, outputs, initializer=list(inits), value_info=list(value_info))
        return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="make_fixtures")

    def save(name, m):
        with open(os.path.join(BAD_DIR, name), "wb") as f:
            f.write(m.SerializeToString())

    def vi(name, shape):
        return helper.make_tensor_value_info(name, TP.FLOAT, shape)

    # a valid model cut in half (inside the graph field)
    with open(os.path.join(ONNX_DIR, "resnet18.onnx"), "rb") as f:
        data = f.read()
    with open(os.path.join(BAD_DIR, "truncated.onnx"), "wb") as f:
        f.write(data[:len(data) // 2])
    try:
        onnx.load(os.path.join(BAD_DIR, "truncated.onnx"))
        raise SystemExit("truncated.onnx still parses")
    except Exception as e:  # noqa: BLE001 - any parse error is what we want
        if isinstance(e, SystemExit):
            raise
    with open(os.path.join(BAD_DIR, "not_onnx.onnx"), "w") as f:
        f.write("This is a text file, not an ONNX model.\n")
    open(os.path.join(BAD_DIR, "empty.onnx"), "wb").close()
    save("no_graph.onnx", onnx.ModelProto(ir_version=8, producer_name="make_fixtures"))
    save("unknown_op.onnx", model(
        [helper.make_node("Relu", ["x"], ["r"], name="relu"),
         helper.make_node("FancyOp", ["r"], ["y"], name="fancy")],
        [vi("x", [1, 4])], [vi("y", [1, 4])]))
    save("cycle.onnx", model(
        [helper.make_node("Add", ["x", "b"], ["a"], name="add_a"),
         helper.make_node("Relu", ["a"], ["b"], name="relu_b")],
        [vi("x", [1, 4])], [vi("b", [1, 4])], value_info=[vi("a", [1, 4])]))
    save("dangling_input.onnx", model(
        [helper.make_node("Add", ["x", "ghost"], ["y"], name="add_ghost")],
        [vi("x", [1, 4])], [vi("y", [1, 4])]))
    # x has an element type but no shape: inference cannot find it, Relu's FLOPs need it
    w = helper.make_tensor("w", TP.FLOAT, [4, 4], [0.0] * 16)
    save("missing_shape.onnx", model(
        [helper.make_node("Relu", ["x"], ["r"], name="relu"),
         helper.make_node("MatMul", ["r", "w"], ["y"], name="matmul")],
        [helper.make_tensor_value_info("x", TP.FLOAT, None)],
        [helper.make_tensor_value_info("y", TP.FLOAT, None)], inits=[w]))
    # strides 0: libonnx's MaxPool inference divides by it; the importer must not run it
    pool = helper.make_node("MaxPool", ["x"], ["y"], name="pool", kernel_shape=[2, 2], strides=[0, 0])
    save("zero_strides.onnx",
         model([pool], [vi("x", [1, 1, 4, 4])], [helper.make_tensor_value_info("y", TP.FLOAT, None)]))
    print("  malformed/: " + ", ".join(sorted(f for f in os.listdir(BAD_DIR) if f.endswith(".onnx"))))


CALL_TREE_DEPTH = 40


def malformed_torchscript():
    """call_tree.pt: forward calls f40, which calls f39 twice, ... down to f0 — 2^40 nodes once
    inlined, 4 KB on disk. The importer must refuse it before LibTorch inlines it."""
    import importlib.util
    import tempfile
    src = "import torch\n\n\ndef f0(x: torch.Tensor) -> torch.Tensor:\n    return x + 1\n"
    for i in range(1, CALL_TREE_DEPTH + 1):
        src += f"\n\ndef f{i}(x: torch.Tensor) -> torch.Tensor:\n    return f{i - 1}(f{i - 1}(x))\n"
    src += (f"\n\nclass CallTree(torch.nn.Module):\n    def forward(self, x: torch.Tensor) -> torch.Tensor:\n"
            f"        return f{CALL_TREE_DEPTH}(x)\n")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "call_tree_module.py")
        with open(path, "w") as f:
            f.write(src)
        spec = importlib.util.spec_from_file_location("call_tree_module", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules["call_tree_module"] = module  # TorchScript resolves the functions through it
        spec.loader.exec_module(module)
        torch.jit.save(torch.jit.script(module.CallTree()), os.path.join(BAD_DIR, "call_tree.pt"))
    print("  malformed/call_tree.pt")
    hostile_torchscript()


class EndlessLoop(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        i = 0
        while i >= 0:
            x = x + 1.0
            i = i + 1
        return x


class MemoryHog(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        kept = [x]
        i = 0
        while i >= 0:
            kept.append(torch.ones([1 << 20]) + float(i))  # 4 MiB more each time, never freed
            i = i + 1
        return kept[0]


class SetstateLoop(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.n = 1

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + 1.0

    @torch.jit.export
    def __getstate__(self) -> int:
        return self.n

    @torch.jit.export
    def __setstate__(self, state: int) -> None:
        self.n = state
        while self.n > 0:  # runs when LibTorch loads the file, before any forward
            self.n = self.n + 1


def hostile_torchscript():
    """Modules whose code never ends: forward loops forever (endless_loop.pt), forward keeps
    allocating (memory_hog.pt), loading loops forever in __setstate__ (setstate_loop.pt). The
    import must stop each within its time or memory bound."""
    for name, module in [("endless_loop.pt", EndlessLoop()), ("memory_hog.pt", MemoryHog()),
                         ("setstate_loop.pt", SetstateLoop())]:
        torch.jit.save(torch.jit.script(module), os.path.join(BAD_DIR, name))
        print("  malformed/" + name)


def main():
    if sys.argv[1:] == ["malformed"]:
        malformed_fixtures()
        malformed_torchscript()
        return 0
    torch.manual_seed(0)
    torch.set_grad_enabled(False)
    print("ONNX fixtures:")
    fixtures = onnx_fixtures()
    print("TorchScript fixtures:")
    fixtures.update(torchscript_fixtures())
    print("Malformed inputs:")
    malformed_fixtures()
    malformed_torchscript()
    manifest = {
        "generator": "tests/data/make_fixtures.py",
        "versions": {"torch": torch.__version__, "torchvision": torchvision.__version__,
                     "onnx": onnx.__version__},
        "onnx_op_count_rule": ONNX_RULE,
        "torchscript_op_count_rule": TORCHSCRIPT_RULE,
        "param_bytes_rule": "ONNX only: sum of numel * element size of the initializers some node reads",
        "fixtures": fixtures,
    }
    with open(os.path.join(HERE, "fixtures.json"), "w") as f:
        json.dump(manifest, f, indent=2, sort_keys=True)
        f.write("\n")
    total = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(HERE) for f in fs)
    print(f"tests/data: {total} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
