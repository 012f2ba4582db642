#!/usr/bin/python3
"""Opens every model of a make_corpus.py corpus with graphplace-cli and checks what comes back.

    /usr/bin/python3 tests/models/check_corpus.py CLI OUTDIR [--only NAME,...] [--family F,...] [--jobs 2]
        [--timeout S] [--table FILE.md]

Per model (two at a time): `CLI info FILE --json` (timed) must exit 0 with ops > 0, and the
sum of its matmul/conv FLOPs (`flops_by_type`: Conv, Gemm, MatMul, ... or the aten names for
TorchScript) must be within 5 % of the manifest's ref_flops where the entry says check_flops
(classification, segmentation, video, transformer, torchscript, the quantized model); for
detection and recurrent models the difference is only reported. Then `CLI baseline FILE
--cluster 4xP100-PCIe --method m_etf --json` must exit 0 with a feasible plan. Prints a table,
writes it to OUTDIR/corpus_table.md (with the export failures, which are not ours) and exits 1
if any model failed.
"""

import argparse
import concurrent.futures as cf
import json
import os
import subprocess
import sys
import time

TOLERANCE = 0.05
ONNX_TYPES = {"Conv", "ConvTranspose", "ConvInteger", "QLinearConv", "Gemm", "MatMul", "MatMulInteger",
              "QLinearMatMul", "Einsum", "LSTM", "GRU", "RNN",
              "Loop", "If", "Scan"}  # control flow: what their bodies cost (the Loop/If model)
ATEN_TYPES = {"_convolution", "convolution", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
              "conv_transpose3d", "linear", "addmm", "mm", "bmm", "matmul", "baddbmm", "addbmm", "einsum", "lstm",
              "gru", "rnn_tanh", "rnn_relu", "lstm_cell", "gru_cell", "rnn_tanh_cell", "rnn_relu_cell"}


def is_matmul_type(name):
    if name in ONNX_TYPES:
        return True
    base = name.split("::")[-1]
    return base in ATEN_TYPES or base.rstrip("_") in ATEN_TYPES


def one_line(text):
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return lines[-1][:300] if lines else "(no output)"


def run_cli(cmd, timeout):
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {timeout} s", time.perf_counter() - t0
    secs = time.perf_counter() - t0
    if p.returncode != 0:
        return None, f"exit {p.returncode}: {one_line(p.stderr or p.stdout)}", secs
    try:
        out = json.loads(p.stdout)
    except json.JSONDecodeError as e:
        return None, f"not JSON ({e}): {one_line(p.stdout)}", secs
    warnings = [ln.split("warning: ", 1)[-1] for ln in p.stderr.splitlines() if "warning:" in ln]
    out["_warnings"] = [w.replace(cmd[2] + ": ", "")[:200] for w in warnings]  # cmd[2]: the model file
    return out, None, secs


def our_flops(info):
    """(matmul/conv FLOPs or the total, note)"""
    by_type = info.get("flops_by_type")
    if by_type is None:
        return info.get("flops"), "no flops_by_type: total FLOPs shown, 5% check skipped"
    return sum(v for k, v in by_type.items() if is_matmul_type(k)), None


def check_model(cli, outdir, m, timeout):
    row = {"name": m["name"], "family": m["family"], "ref": m.get("ref_flops"), "ops": None, "open_s": None,
           "ours": None, "diff": None, "step_ms": None, "problems": [], "notes": []}
    extra = ["--input-shape", m["cli_input_shape"]] if m.get("cli_input_shape") else []
    path = os.path.join(outdir, m["file"])
    info, err, row["open_s"] = run_cli([cli, "info", path, "--json"] + extra, timeout)
    if err:
        row["problems"].append("info: " + err)
        return row
    row["ops"] = info.get("ops", 0)
    row["notes"] += ["warning: " + w for w in info["_warnings"]]
    if not row["ops"]:
        row["problems"].append("info: 0 ops")
    row["ours"], note = our_flops(info)
    if note:
        row["notes"].append(note)
    if row["ref"] and row["ours"] is not None:
        row["diff"] = (row["ours"] - row["ref"]) / row["ref"]
        if abs(row["diff"]) > TOLERANCE and not note:
            msg = f"FLOPs {row['diff'] * 100:+.1f}% off the reference"
            (row["problems"] if m.get("check_flops") else row["notes"]).append(msg)
    plan, err, _ = run_cli([cli, "baseline", path, "--cluster", "4xP100-PCIe", "--method", "m_etf", "--json"]
                           + extra, timeout)
    if err:
        row["problems"].append("baseline: " + err)
        return row
    results = plan.get("results") or [{}]
    row["step_ms"] = results[0].get("step_time_ms")
    if not results[0].get("feasible"):
        row["problems"].append("baseline m_etf: infeasible: " + str(results[0].get("problem", "")))
    return row


def fmt_flops(x):
    return "-" if x is None else f"{x / 1e9:.3f}G"


def table(rows):
    head = ["model", "family", "ops", "open s", "our FLOPs", "ref FLOPs", "diff %", "m_etf ms", "status"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        status = "FAIL: " + "; ".join(r["problems"]) if r["problems"] else "ok"
        if r["notes"]:
            status += " (" + "; ".join(r["notes"]) + ")"
        cells = [r["name"], r["family"], "-" if r["ops"] is None else str(r["ops"]),
                 "-" if r["open_s"] is None else f"{r['open_s']:.2f}", fmt_flops(r["ours"]), fmt_flops(r["ref"]),
                 "-" if r["diff"] is None else f"{r['diff'] * 100:+.2f}",
                 "-" if r["step_ms"] is None else f"{r['step_ms']:.3f}", status.replace("|", "/")]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cli")
    ap.add_argument("outdir")
    ap.add_argument("--only", help="comma-separated model names")
    ap.add_argument("--family", help="comma-separated families")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=1800, help="seconds per CLI call")
    ap.add_argument("--table", help="markdown output (default OUTDIR/corpus_table.md)")
    a = ap.parse_args()
    with open(os.path.join(a.outdir, "corpus.json")) as f:
        manifest = json.load(f)
    models = sorted(manifest["models"].values(), key=lambda m: (m["family"], m["name"]))
    if a.only:
        models = [m for m in models if m["name"] in a.only.split(",")]
    if a.family:
        models = [m for m in models if m["family"] in a.family.split(",")]
    if not models and not a.family:
        sys.exit("no model selected")
    t0 = time.perf_counter()
    with cf.ThreadPoolExecutor(a.jobs) as pool:
        futures = [pool.submit(check_model, a.cli, a.outdir, m, a.timeout) for m in models]
        for fut in cf.as_completed(futures):
            r = fut.result()
            print(f"{r['name']:34s} {'FAIL ' + '; '.join(r['problems']) if r['problems'] else 'ok'}", flush=True)
    rows = [f.result() for f in futures]
    failed = [r for r in rows if r["problems"]]
    lines = table(rows)
    summary = f"{len(rows) - len(failed)} of {len(rows)} models passed; {time.perf_counter() - t0:.0f} s"
    print("\n".join(lines) + "\n" + summary)
    fails = {k: v for k, v in manifest.get("failed", {}).items()
             if (not a.only or k in a.only.split(",")) and (not a.family or v["family"] in a.family.split(","))}
    with open(a.table or os.path.join(a.outdir, "corpus_table.md"), "w") as f:
        f.write(f"# graphplace-cli on the model corpus\n\n{summary}. CLI: `{a.cli}`\n\n" + "\n".join(lines) + "\n")
        if fails:
            f.write("\n## Not exported by PyTorch (not graphplace failures)\n\n")
            f.writelines(f"- {k} ({v['family']}): {v['reason']}\n" for k, v in sorted(fails.items()))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
