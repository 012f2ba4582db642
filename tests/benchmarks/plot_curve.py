#!/usr/bin/env python3
"""The pre-training learning curve as an SVG line plot (no plotting library needed).

  tests/benchmarks/plot_curve.py PRETRAIN_OUTPUT OUT.svg [TITLE]

PRETRAIN_OUTPUT: what `graphplace-cli pretrain` printed (its "held-out zero-shot after round R
(S s): X % faster ..., greedy plan alone Y %" lines) or its --json output (the "curve" array).
x: training seconds; y: the held-out tasks' mean zero-shot gain over their start (the best
baseline), and the greedy plan's alone.
"""
import json
import re
import sys


def read_curve(path):
    text = open(path).read()
    try:
        return [(p["seconds"], 100 * p["zero_shot_gain"], 100 * p["greedy_gain"]) for p in json.loads(text)["curve"]]
    except (ValueError, KeyError):
        pattern = r"after round (\d+) \(([\d.]+) s\): (-?[\d.]+) % faster than the start, greedy plan alone (-?[\d.]+) %"
        return [(float(s), float(z), float(g)) for _, s, z, g in re.findall(pattern, text)]


def svg(points, title):
    w, h, left, right, top, bottom = 720, 360, 70, 20, 40, 50
    xs = [p[0] for p in points]
    ys = [v for p in points for v in p[1:]] + [0.0]
    x0, x1 = 0.0, max(xs) or 1.0
    y0, y1 = min(ys), max(ys)
    pad = (y1 - y0) * 0.1 or 1.0
    y0, y1 = y0 - pad, y1 + pad
    px = lambda x: left + (x - x0) / (x1 - x0) * (w - left - right)
    py = lambda y: top + (y1 - y) / (y1 - y0) * (h - top - bottom)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{w / 2}" y="20" text-anchor="middle" font-size="14">{title}</text>',
           f'<line x1="{left}" y1="{py(0)}" x2="{w - right}" y2="{py(0)}" stroke="#999" stroke-dasharray="4 3"/>',
           f'<line x1="{left}" y1="{top}" x2="{left}" y2="{h - bottom}" stroke="black"/>',
           f'<line x1="{left}" y1="{h - bottom}" x2="{w - right}" y2="{h - bottom}" stroke="black"/>',
           f'<text x="{w / 2}" y="{h - 12}" text-anchor="middle">training time (s)</text>',
           f'<text x="16" y="{h / 2}" text-anchor="middle" transform="rotate(-90 16 {h / 2})">'
           'held-out gain over the best baseline (%)</text>']
    for i in range(6):
        y = y0 + (y1 - y0) * i / 5
        out.append(f'<text x="{left - 6}" y="{py(y) + 4}" text-anchor="end">{y:.1f}</text>')
        x = x0 + (x1 - x0) * i / 5
        out.append(f'<text x="{px(x)}" y="{h - bottom + 16}" text-anchor="middle">{x:.0f}</text>')
    for k, (colour, name) in enumerate([("#1f77b4", "zero-shot (the policy's plans, no search)"), ("#d62728", "greedy plan alone")]):
        path = " ".join(f"{px(p[0]):.1f},{py(p[1 + k]):.1f}" for p in points)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        out.append(f'<text x="{left + 10}" y="{top + 16 + 16 * k}" fill="{colour}">{name}</text>')
    out.append("</svg>")
    return "\n".join(out)


if __name__ == "__main__":
    points = read_curve(sys.argv[1])
    if not points:
        sys.exit(f"{sys.argv[1]}: no learning-curve points")
    open(sys.argv[2], "w").write(svg(points, sys.argv[3] if len(sys.argv) > 3 else "Held-out zero-shot while pre-training"))
