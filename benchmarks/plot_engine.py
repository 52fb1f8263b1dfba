"""Draw the before/after figures of ``bench_engine.py --compare`` as an SVG bar chart.

Run: ``python benchmarks/plot_engine.py FIGURES.json OUT.svg``, where ``FIGURES.json`` was
written by ``python benchmarks/bench_engine.py --compare OTHER --json FIGURES.json``. One pair
of bars per variant and player count, µs per random action on a logarithmic axis, before
(grey) and after (blue). Plain SVG text, no plotting library.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

ROW = 26  # pixels per variant row
LEFT = 190  # room for the row labels
WIDTH = 640  # the plot's width
TOP = 40


def chart(figures: dict[str, Any]) -> str:
    """The SVG text of the chart."""
    rows = [
        (f"{row['variant']} ({row['players']}p)", row["before"], row["after"])
        for row in figures["rows"]
        if row["before"].get("random_us") and row["after"].get("random_us")
    ]
    values = [side["random_us"] for _, before, after in rows for side in (before, after)]
    low = 10 ** math.floor(math.log10(min(values)))
    high = 10 ** math.ceil(math.log10(max(values)))

    def x(value: float) -> float:
        return LEFT + WIDTH * math.log10(value / low) / math.log10(high / low)

    height = TOP + ROW * len(rows) + 40
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{LEFT + WIDTH + 60}" height="{height}" '
        'font-family="sans-serif" font-size="12">',
        f'<text x="{LEFT}" y="20" font-size="14">µs per random action (log scale): '
        '<tspan fill="#999">before</tspan>, <tspan fill="#2a6fdb">after</tspan></text>',
    ]
    tick = low
    while tick <= high:
        parts.append(
            f'<line x1="{x(tick):.1f}" y1="{TOP - 6}" x2="{x(tick):.1f}" '
            f'y2="{height - 34}" stroke="#ddd"/>'
            f'<text x="{x(tick):.1f}" y="{height - 20}" text-anchor="middle">{tick:g}</text>'
        )
        tick *= 10
    for number, (label, before, after) in enumerate(rows):
        y = TOP + ROW * number
        parts.append(f'<text x="{LEFT - 8}" y="{y + 15}" text-anchor="end">{escape(label)}</text>')
        for offset, side, colour in ((0, before, "#bbb"), (10, after, "#2a6fdb")):
            value = side["random_us"]
            parts.append(
                f'<rect x="{LEFT}" y="{y + offset + 2}" width="{x(value) - LEFT:.1f}" '
                f'height="9" fill="{colour}"><title>{value:.1f} µs</title></rect>'
            )
        parts.append(
            f'<text x="{x(after["random_us"]) + 4:.1f}" y="{y + 20}" fill="#2a6fdb">'
            f"{before['random_us'] / after['random_us']:.1f}&#215;</text>"  # a times sign
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("figures", type=Path, help="JSON written by bench_engine.py --compare")
    parser.add_argument("output", type=Path, help="the SVG file to write")
    args = parser.parse_args(argv)
    figures = json.loads(args.figures.read_text(encoding="utf-8"))
    if "rows" not in figures or not all("before" in row for row in figures["rows"]):
        print(f"{args.figures}: not the output of bench_engine.py --compare", file=sys.stderr)
        return 2
    args.output.write_text(chart(figures), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
