// The code part of the generated PyTorch program (io/torch_program.h): the same in every plan.
namespace gp {

extern const char* const kTorchProgramRuntime;
const char* const kTorchProgramRuntime = R"PY(

# ---------------------------------------------------------------- runtime (graphplace)
import dis
import inspect
import operator
import os
import warnings

import torch
import torch.fx
from torch.fx.passes.split_module import split_module

try:  # traces with the example inputs' shapes, so `range(x.shape[0])` unrolls
    from torch.fx.experimental.meta_tracer import MetaProxy as _ProxyBase, MetaTracer as _TracerBase
except ImportError:
    _ProxyBase, _TracerBase = torch.fx.Proxy, torch.fx.Tracer


class _Proxy(_ProxyBase):
    def __iter__(self):
        # `a, b = proxy`: torch.fx 1.13 looks for the UNPACK_SEQUENCE at f_lasti // 2, which is
        # not where Python 3.11 puts it; find it by offset.
        frame = inspect.currentframe().f_back
        for inst in dis.get_instructions(frame.f_code):
            if inst.offset == frame.f_lasti and inst.opname == "UNPACK_SEQUENCE":
                return (self[i] for i in range(inst.argval))
        return self.tracer.iter(self)


_FACTORIES = {torch.zeros, torch.ones, torch.empty, torch.full, torch.arange, torch.eye, torch.rand,
              torch.randn, torch.tensor}


def devices(override=None):
    """The torch device of each plan device: DEVICES, else `override` or $GRAPHPLACE_DEVICES
    (comma-separated: one name for every device, or one per plan device)."""
    names = override
    if names is None and os.environ.get("GRAPHPLACE_DEVICES"):
        names = os.environ["GRAPHPLACE_DEVICES"].split(",")
    if names is None:
        return list(DEVICES)
    if isinstance(names, str):
        names = [names]
    if len(names) == 1:
        return [names[0]] * len(DEVICES)
    if len(names) != len(DEVICES):
        raise ValueError(f"the plan has {len(DEVICES)} devices, {len(names)} were given")
    return list(names)


def _parent(key):
    cut = key.rfind("/" if KEY_STYLE == "onnx" else ".")
    return "" if cut <= 0 else key[:cut]


def _unqualified(qualname):
    """torch.onnx's scope name of a module: its path from the last non-numeric atom."""
    atoms = qualname.split(".")
    for i in range(len(atoms) - 1, -1, -1):
        if not atoms[i].isnumeric():
            return ".".join(atoms[i:])
    return qualname


class _ScopeTracer(_TracerBase):
    """torch.fx tracing that notes on every node the scope key of the module call it is in."""

    def __init__(self):
        super().__init__()
        self._scopes = [""]
        self._calls = {}

    def call_module(self, m, forward, args, kwargs):
        qualname = self.path_of_module(m)
        if KEY_STYLE == "onnx":  # the n-th repeated call of a scope is "<scope>_<n>"
            base = self._scopes[-1] + "/" + _unqualified(qualname)
            n = self._calls.get(base, 0)
            self._calls[base] = n + 1
            key = base if n == 0 else f"{base}_{n}"
        else:
            key = qualname
        self._scopes.append(key)
        try:
            return super().call_module(m, forward, args, kwargs)
        finally:
            self._scopes.pop()

    def proxy(self, node):
        return _Proxy(node, self)

    def create_node(self, kind, target, args, kwargs, name=None, type_expr=None):
        node = super().create_node(kind, target, args, kwargs, name, type_expr)
        node.meta["graphplace_scope"] = self._scopes[-1]
        return node


def trace(model, example_inputs):
    """The model as a torch.fx GraphModule whose nodes know their scope keys."""
    tracer = _ScopeTracer()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if _TracerBase is torch.fx.Tracer:
            graph = tracer.trace(model)
        else:
            names = list(inspect.signature(model.forward).parameters)
            meta = {n: x.to("meta") for n, x in zip(names, example_inputs) if isinstance(x, torch.Tensor)}
            graph = tracer.trace(model, meta)
    return torch.fx.GraphModule(tracer.root, graph, type(model).__name__)


def _shares():
    own, subtree = {}, {}
    for key, shares in SCOPES.items():
        own[key] = shares
        k = key
        while True:
            total = subtree.setdefault(k, {})
            for p, w in shares.items():
                total[p] = total.get(p, 0) + w
            if not k:
                break
            k = _parent(k)
    return own, subtree


def assign(gm):
    """{node: partition} for every node split_module partitions, and what did not follow the plan:
    `by_data` (nodes whose scope's ops the plan put on several partitions, or that torch.onnx
    left out: they join their inputs), `moved` (run later than the plan says, because an input
    is produced there). Every node's partition is at least its inputs', so the partitions form
    no cycle and run in number order."""
    own, subtree = _shares()
    part, by_data, moved, pending = {}, [], [], []
    for node in gm.graph.nodes:
        if node.op in ("placeholder", "get_attr", "output"):
            continue
        key = node.meta.get("graphplace_scope", "")
        shares = subtree.get(key) if node.op == "call_module" else own.get(key)
        want = None
        if shares and (node.op == "call_module" or len(shares) == 1):
            want = max(shares, key=shares.get)
        floor = max((part[a] for a in node.all_input_nodes if a in part), default=None)
        if want is None:
            if floor is None:
                pending.append(node)
                continue
            want = floor
            by_data.append(node.name)
        elif floor is not None and floor > want:
            moved.append(node.name)
            want = floor
        part[node] = want
    for node in reversed(pending):  # constants and factories: with their first user
        part[node] = min((part[u] for u in node.users if u in part), default=0)
    return part, {"by_data": by_data, "moved": moved}


def _to(value, device):
    if isinstance(value, torch.Tensor):
        return value.to(device)
    if isinstance(value, (list, tuple)):
        return type(value)(_to(v, device) for v in value)
    if isinstance(value, dict):
        return {k: _to(v, device) for k, v in value.items()}
    return value


def _inputs_to(device):
    return lambda module, args: _to(args, device)


def _in_plan_order(split_gm):
    """Calls the partitions in number order (split_module keeps only some topological order)."""
    graph = split_gm.graph
    nodes = list(graph.nodes)
    cursor = None

    def place(node):
        nonlocal cursor
        if cursor is not None and cursor.next is not node and cursor is not node:
            cursor.append(node)
        cursor = node

    for n in nodes:
        if n.op in ("placeholder", "get_attr"):
            place(n)
    calls = sorted((n for n in nodes if n.op == "call_module" and n.target.startswith("submod_")),
                   key=lambda n: int(n.target[len("submod_"):]))
    for call in calls:
        place(call)
        for user in list(call.users):
            if user.op == "call_function" and user.target is operator.getitem:
                place(user)
    graph.lint()
    split_gm.recompile()


def split(model, example_inputs, devices=None):
    """The model as torch.fx split_module partitions, each on its device, called in plan order.
    `report` on the result: partitions used, nodes placed by data flow, nodes moved later."""
    names = globals()["devices"](devices)
    gm = trace(model, tuple(example_inputs))
    part, report = assign(gm)
    for node, p in part.items():
        if node.op == "call_function" and node.target in _FACTORIES and "device" not in node.kwargs:
            node.kwargs = {**node.kwargs, "device": names[PARTITION_DEVICE[p]]}
    gm.recompile()
    result = split_module(gm, model, lambda node: part[node])
    used = []
    for name, sub in result.named_children():
        if name.startswith("submod_"):
            p = int(name[len("submod_"):])
            used.append(p)
            sub.to(names[PARTITION_DEVICE[p]])
            sub.register_forward_pre_hook(_inputs_to(names[PARTITION_DEVICE[p]]))
    _in_plan_order(result)
    report["partitions"] = sorted(used)
    result.report = report
    return result


def _resolve(model, key):
    """The module path of scope key `key`."""
    if KEY_STYLE != "onnx":
        return key
    paths = [name for name, _ in model.named_modules() if name]
    path = ""
    for atom in key.split("/")[1:]:
        under = [q for q in paths if not path or q.startswith(path + ".")]
        found = [q for q in under if _unqualified(q) == atom]
        if not found and "_" in atom and atom.rsplit("_", 1)[1].isdigit():  # a repeated call
            found = [q for q in under if _unqualified(q) == atom.rsplit("_", 1)[0]]
        if not found:
            raise ValueError(f"scope '{key}' names no module of {type(model).__name__} (at '{atom}')")
        path = min(found, key=lambda q: q.count("."))
    return path


def _mapped_devices(model):
    result = {}
    for key, device in DEVICE_MAP_SCOPES.items():
        path = _resolve(model, key)
        if result.get(path, device) != device:
            raise ValueError(f"module '{path}' is called on devices {result[path]} and {device}: not module-aligned")
        result[path] = device
    return result


def device_map(model, devices=None):
    """accelerate-style {module path: torch device} of a module-aligned plan; None when the plan
    is not aligned (NOT_ALIGNED says why)."""
    if DEVICE_MAP_SCOPES is None:
        return None
    names = globals()["devices"](devices)
    return {path: names[d] for path, d in _mapped_devices(model).items()}


def dispatch(model, devices=None):
    """Moves each mapped module to its device, with a hook that brings its inputs there. A module
    with weights but no entry (a BatchNorm torch.onnx folded into its convolution) goes with the
    mapped module before it."""
    if DEVICE_MAP_SCOPES is None:
        raise ValueError("the plan is not module-aligned: " + NOT_ALIGNED)
    mapping = _mapped_devices(model)
    names = globals()["devices"](devices)
    last = next(iter(mapping.values()))
    for path, module in model.named_modules():
        if path in mapping:
            last = mapping[path]
        elif any(not p or path.startswith(p + ".") for p in mapping):
            continue
        elif not any(True for _ in module.parameters(recurse=False)) and \
                not any(True for _ in module.buffers(recurse=False)):
            continue
        module.to(names[last])
        module.register_forward_pre_hook(_inputs_to(names[last]))
    return model


if __name__ == "__main__":
    print(f"{len(PARTITION_DEVICE)} partitions on {len(set(PARTITION_DEVICE))} devices: "
          + ", ".join(f"{p}:{PLAN_DEVICES[d]}={DEVICES[d]}" for p, d in enumerate(PARTITION_DEVICE)))
    print("device map: " + (f"{len(DEVICE_MAP_SCOPES)} modules" if DEVICE_MAP_SCOPES is not None
                            else "none (" + NOT_ALIGNED + ")"))
    for cycle in CYCLES:
        print("cycle: " + cycle)
)PY";

}  // namespace gp
