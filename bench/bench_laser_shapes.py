"""Benchmark: laser lines of theta, hex and triangle mazes. Strokes against the Euler bound (the
tests' own count: half the odd-degree vertices of each wall piece, from the cell polygons), and
the head's travel against the tests' independent greedy nearest-neighbour order.

Run: ``python bench/bench_laser_shapes.py``. In-process after a warm-up; median of ``--repeat``
runs of maze → SVG bytes (the maze generated once, outside the timing).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import laby3d
from laby3d.export.laser import svg_bytes
from laby3d.geometry.laser import LaserOptions, laser_sheets
from laby3d.geometry.laser.travel import travel_length
from laby3d.geometry.params import Fabrication

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
from svgcheck import greedy_travel  # noqa: E402 - the tests' independent greedy order
from test_shaped_laser import oracle_walls, stroke_bound  # noqa: E402 - the tests' own wall graph

#: (shape, rows, cols) measured.
CASES = [
    ("theta", 10, None),
    ("theta", 40, None),
    ("hex", 20, 20),
    ("hex", 100, 100),
    ("triangle", 20, 30),
    ("triangle", 100, 150),
]


def lines(repeat: int) -> None:
    print("| maze | cells | maze→SVG s | strokes | Euler bound | cut m | travel m | greedy NN travel m | ratio |")
    print("|---|---|---|---|---|---|---|---|---|")
    laser_sheets(laby3d.generate(5, shape="hex", cols=5, seed=1), Fabrication(), LaserOptions(mode="lines"))
    for shape, rows, cols in CASES:
        maze = laby3d.generate(rows, cols, shape=shape, seed=1)
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            sheets = laser_sheets(maze, Fabrication(), LaserOptions(mode="lines"))
            svg_bytes(sheets.pages[0], metadata={})
            times.append(time.perf_counter() - start)
        page = sheets.pages[0]
        strokes = list(zip(page.strokes["score"], page.closed["score"], strict=True))
        travel, greedy = travel_length(page) / 1000, greedy_travel(strokes) / 1000
        size = f"{rows} rings" if cols is None else f"{rows}×{cols}"
        print(
            f"| {shape} {size} | {maze.cell_count:,} | {statistics.median(times):.2f} | {len(strokes):,} "
            f"| {stroke_bound(oracle_walls(maze)):,} | {page.cut_length() / 1000:.1f} | {travel:.2f} "
            f"| {greedy:.2f} | {travel / greedy:.2f} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    lines(args.repeat)


if __name__ == "__main__":
    main()
