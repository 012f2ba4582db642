#!/usr/bin/env python3
"""The fidelity report as a log-log scatter (SVG, no plotting library) and a Markdown table.

  graphplace-cli fidelity --json > fidelity.json
  tests/benchmarks/plot_fidelity.py fidelity.json docs/images/fidelity.svg > table.md

x: the published figure, y: the simulated one, both as seconds per step (throughputs are turned
into time per step so that every point reads alike); set rows hollow, check rows filled, the
diagonal and the 1.3x and 3x bands drawn. Rows compared only by order are left out of the plot
and listed in the table with their values.
"""
import json
import math
import sys


def seconds(row, value):
    if value == "OOM":
        return None
    unit = row["unit"]
    if unit == "ms":
        return value / 1e3
    if unit == "s":
        return value
    if "step_s" in row:  # a parallel run's per-GPU figure (tokens/s/GPU, TFLOP/s/GPU): step ~ 1 / figure
        return row["step_s"] * row["simulated"] / value
    return row["items_per_step"] / value


def svg(rows):
    w, h, left, right, top, bottom = 720, 560, 70, 230, 40, 50
    pts = [(seconds(r, r["published"]), seconds(r, r["simulated"]), r) for r in rows if "ratio" in r]
    vals = [v for p in pts for v in p[:2]]
    lo, hi = math.log10(min(vals)) - 0.2, math.log10(max(vals)) + 0.2
    pw, ph = w - left - right, h - top - bottom

    def X(v):
        return left + (math.log10(v) - lo) / (hi - lo) * pw

    def Y(v):
        return top + ph - (math.log10(v) - lo) / (hi - lo) * ph

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{left + pw / 2}" y="20" text-anchor="middle" font-size="14">Simulated vs published (seconds per step or kernel, log-log)</text>']
    for f, dash, colour in ((3, "2 4", "#bbb"), (1.3, "6 3", "#bbb"), (1, "", "#666")):
        for s in sorted({f, 1 / f}):
            # y = s * x, clipped to the plot box
            a = 10 ** max(lo, lo - math.log10(s))
            b = 10 ** min(hi, hi - math.log10(s))
            style = f' stroke-dasharray="{dash}"' if dash else ""
            out.append(f'<line x1="{X(a)}" y1="{Y(a * s)}" x2="{X(b)}" y2="{Y(b * s)}" stroke="{colour}"{style}/>')
    out.append(f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="black"/>')
    for e in range(math.ceil(lo), math.floor(hi) + 1):
        label = f"1e{e}" if e < -2 or e > 1 else str(10.0 ** e).rstrip("0").rstrip(".")
        out.append(f'<text x="{X(10 ** e)}" y="{top + ph + 18}" text-anchor="middle">{label} s</text>')
        out.append(f'<text x="{left - 6}" y="{Y(10 ** e) + 4}" text-anchor="end">{label} s</text>')
    out.append(f'<text x="{left + pw / 2}" y="{h - 10}" text-anchor="middle">published</text>')
    out.append(f'<text x="16" y="{top + ph / 2}" text-anchor="middle" transform="rotate(-90 16 {top + ph / 2})">simulated</text>')
    colours = {"deepbench": "#1f77b4", "tf1": "#d62728", "dle": "#2ca02c"}
    for p, s, r in pts:
        c = next((v for k, v in colours.items() if r["name"].startswith(k)), "#555")
        fill = c if r["split"] == "check" else "white"
        out.append(f'<circle cx="{X(p)}" cy="{Y(s)}" r="4" fill="{fill}" stroke="{c}" stroke-width="1.5"><title>{r["name"]}: ratio {r["ratio"]:.2f}</title></circle>')
    ly = top + 10
    for k, label in (("deepbench", "DeepBench kernels"), ("tf1", "TensorFlow 1.x benchmarks"), ("dle", "NVIDIA DeepLearningExamples")):
        out.append(f'<circle cx="{w - right + 16}" cy="{ly}" r="4" fill="{colours[k]}" stroke="{colours[k]}"/>')
        out.append(f'<text x="{w - right + 26}" y="{ly + 4}">{label}</text>')
        ly += 20
    out.append(f'<circle cx="{w - right + 16}" cy="{ly}" r="4" fill="white" stroke="#555"/><text x="{w - right + 26}" y="{ly + 4}">hollow: set rows</text>')
    out.append(f'<text x="{w - right + 10}" y="{ly + 24}">dashed: 1.3x and 3x</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def table(doc):
    lines = ["| row | split | unit | published | simulated | ratio |", "|---|---|---|---:|---:|---:|"]
    for r in doc["rows"]:
        def fmt(v):
            return v if isinstance(v, str) else f"{v:.4g}"
        ratio = f'{r["ratio"]:.2f}' if "ratio" in r else ("order only" if r.get("compare") == "order" else "-")
        lines.append(f'| {r["name"]} | {r["split"]} | {r["unit"]} | {fmt(r["published"])} | {fmt(r["simulated"])} | {ratio} |')
    return "\n".join(lines) + "\n"


def main():
    doc = json.load(open(sys.argv[1]))
    open(sys.argv[2], "w").write(svg(doc["rows"]))
    sys.stdout.write(table(doc))


if __name__ == "__main__":
    main()
