#!/usr/bin/python3
"""Runs a program `graphplace-cli evaluate --torch-program` wrote, under Debian's python3-torch
on CPU devices, and checks that it computes what the unsplit model computes.

    check_torch_program.py CLI DATA_DIR WORK_DIR CASE

CASE:
  resnet50          torchvision ResNet-50 exported with torch.onnx, placed by METIS on 4 GPUs:
                    torch.fx partitions in plan order
  resnet18_aligned  the ResNet-18 fixture with layer3 onwards on a second GPU: the device map
                    names the modules, dispatch() moves them, and the outputs stay the same
  seq2seq           the unrolled LSTM seq2seq fixture (tests/data/make_fixtures.py), METIS on 4
                    GPUs: cycles between devices, about two hundred partitions
  torchscript       the traced ResNet-18 fixture (.pt, module-path keys); exit 77 (skipped)
                    when this build has no TorchScript importer
  bad_input         a model that did not come from PyTorch: one line on stderr, exit 1
"""

import importlib.util
import json
import os
import subprocess
import sys

import torch
import torchvision

CLI, DATA, WORK, CASE = sys.argv[1:5]
os.makedirs(WORK, exist_ok=True)
sys.path.insert(0, DATA)


def run(*args, expect=0):
    proc = subprocess.run([CLI, *args], capture_output=True, text=True)
    if proc.returncode != expect:
        sys.exit(f"graphplace-cli {' '.join(args)}: exit {proc.returncode}, expected {expect}\n{proc.stderr}")
    return proc


def load_program(path):
    spec = importlib.util.spec_from_file_location("plan_" + CASE, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def place(model_path, method="metis", edit=None, options=()):
    """A placement of the model (a baseline, or `edit` applied to one) and its program."""
    placement = os.path.join(WORK, "placement.json")
    run("baseline", model_path, *options, "--cluster", "4xP100-PCIe", "--method", method, "--out", placement)
    if edit:
        with open(placement) as f:
            doc = json.load(f)
        for op in doc["ops"]:
            op["device"] = edit(op["name"])
        with open(placement, "w") as f:
            json.dump(doc, f)
    program = os.path.join(WORK, "plan.py")
    proc = run("evaluate", model_path, *options, "--placement", placement, "--torch-program", program)
    print(proc.stdout.strip().splitlines()[-1])
    with open(placement) as f:
        devices_used = {op["device"] for op in json.load(f)["ops"]}
    return load_program(program), devices_used, proc


def same(a, b, what):
    diff = (a - b).abs().max().item()
    scale = b.abs().max().item()
    print(f"{what}: max |split - unsplit| = {diff:.3g} (outputs up to {scale:.3g})")
    if not diff <= 1e-5 * max(scale, 1.0):
        sys.exit(f"{what}: the split model computes something else ({diff} apart)")


def check_split(plan, model, inputs, min_partitions):
    with torch.no_grad():
        expected = model(*inputs)
        runner = plan.split(model, inputs, devices="cpu")
        got = runner(*inputs)
    report = runner.report
    print(f"partitions run: {len(report['partitions'])}, nodes placed by data flow: {len(report['by_data'])}, "
          f"moved later: {len(report['moved'])}")
    if len(report["partitions"]) < min_partitions:
        sys.exit(f"only {len(report['partitions'])} partitions ran, expected at least {min_partitions}")
    if report["partitions"] != sorted(report["partitions"]):
        sys.exit("partitions out of order")
    calls = [line.split("=")[0].strip() for line in runner.code.splitlines() if "self.submod_" in line]
    numbers = [int(c[len("submod_"):]) for c in calls]
    if numbers != sorted(numbers):
        sys.exit(f"the partitions are not called in plan order: {numbers}")
    same(got, expected, CASE)
    return report


def resnet50():
    torch.manual_seed(0)
    model = torchvision.models.resnet50().eval()
    x = torch.randn(1, 3, 224, 224)
    path = os.path.join(WORK, "resnet50.onnx")
    if not os.path.exists(path):
        torch.onnx.export(model, (x,), path, opset_version=13)
    plan, used, _ = place(path)
    if len(used) < 2:
        sys.exit(f"METIS put ResNet-50 on {used}: the test needs a split")
    report = check_split(plan, model, (x,), 2)
    if report["moved"]:
        sys.exit(f"nodes ran later than planned: {report['moved'][:5]}")


def resnet18_aligned():
    later = ("/layer3", "/layer4", "/avgpool", "/Flatten", "/fc")
    plan, _, _ = place(os.path.join(DATA, "onnx", "resnet18.onnx"),
                       edit=lambda name: "gpu1" if name.startswith(later) else "gpu0")
    torch.manual_seed(0)
    model = torchvision.models.resnet18().eval()
    x = torch.randn(2, 3, 224, 224)
    mapping = plan.device_map(model)
    expected_map = {"conv1": "cuda:0", "relu": "cuda:0", "maxpool": "cuda:0", "layer1": "cuda:0",
                    "layer2": "cuda:0", "layer3": "cuda:1", "layer4": "cuda:1", "avgpool": "cuda:1",
                    "fc": "cuda:1"}
    if mapping != expected_map:
        sys.exit(f"device map {mapping}, expected {expected_map}")
    report = check_split(plan, model, (x,), 2)
    if report["partitions"] != [0, 1] or report["moved"]:
        sys.exit(f"expected partitions [0, 1] and nothing moved: {report}")
    with torch.no_grad():
        expected = model(x)
        plan.dispatch(model, devices="cpu")
        hooked = sum(len(m._forward_pre_hooks) for m in model.modules())
        got = model(x)
    if hooked != len(expected_map) + 1:  # bn1 goes with conv1
        sys.exit(f"{hooked} modules dispatched, expected {len(expected_map) + 1}")
    same(got, expected, "dispatch")


def seq2seq():
    from make_fixtures import Seq2Seq
    plan, used, proc = place(os.path.join(DATA, "onnx", "seq2seq_unrolled.onnx"))
    if len(used) < 2 or not plan.CYCLES or "cycle(s) between devices" not in proc.stderr:
        sys.exit("METIS's seq2seq placement should pass tensors back and forth between devices")
    print(plan.CYCLES[0])
    torch.manual_seed(0)
    model = Seq2Seq().eval()
    src = torch.randint(0, 500, (150, 2))
    tgt = torch.randint(0, 500, (150, 2))
    report = check_split(plan, model, (src, tgt), 20)
    if report["moved"]:
        sys.exit(f"nodes ran later than planned: {report['moved'][:5]}")


def torchscript():
    path = os.path.join(DATA, "torchscript", "resnet18.pt")
    shape = ("--input-shape", "1x3x224x224")
    probe = subprocess.run([CLI, "info", path, *shape], capture_output=True, text=True)
    if probe.returncode != 0 and "is not available" in probe.stderr:
        print("no TorchScript importer in this build: " + probe.stderr.strip())
        sys.exit(77)
    plan, used, _ = place(path, options=shape)
    if plan.KEY_STYLE != "module" or len(used) < 2:
        sys.exit(f"expected module-path keys and a split, got {plan.KEY_STYLE} on {used}")
    torch.manual_seed(0)
    model = torchvision.models.resnet18().eval()
    report = check_split(plan, model, (torch.randn(1, 3, 224, 224),), 2)
    # TorchScript names a module's ops without telling its calls apart: a module called twice
    # (a block's one ReLU) whose calls the plan puts on two devices runs both on one
    if len(report["moved"]) > 8:
        sys.exit(f"{len(report['moved'])} nodes ran later than planned: {report['moved'][:5]}")


def bad_input():
    program = os.path.join(WORK, "plan.py")
    proc = run("evaluate", "zoo:inception_v3", "--cluster", "4xP100-PCIe", "--torch-program", program, expect=1)
    lines = proc.stderr.strip().splitlines()
    if len(lines) != 1 or "zoo:inception_v3" not in lines[0] or "exported from PyTorch" not in lines[0]:
        sys.exit(f"expected one line naming the model: {proc.stderr}")
    if os.path.exists(program):
        sys.exit("a program was written for a model that did not come from PyTorch")
    print(lines[0])


{"resnet50": resnet50, "resnet18_aligned": resnet18_aligned, "seq2seq": seq2seq, "torchscript": torchscript,
 "bad_input": bad_input}[CASE]()
