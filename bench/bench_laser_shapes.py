"""Benchmark: laser sheets of theta, hex and triangle mazes. Lines: strokes against the Euler
bound (the tests' own count: half the odd-degree vertices of each wall piece, from the cell
polygons), and the head's travel against the tests' independent greedy nearest-neighbour order.
Ball kits and outlines: maze → SVG files. Class sets of kits: sheets against the area bounds of
the parts' boxes (MaxRects nests boxes) or of the discs (a theta kit's discs, nested in
staggered rows, fill π/4 of their boxes), and against the parts nested by their boxes alone.

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


def kits(repeat: int) -> None:
    """One ball kit per shape (cell 10, wall 2, margin 6, ball 2, top, 3000×3000 sheets so one
    sheet a material): maze → sheets → SVG files, and outline mode, median of ``repeat``."""
    from laby3d.export.laser import laser_files

    print("\n| maze | cells | wall sheets | kit → SVG s | outline → SVG s |")
    print("|---|---|---|---|---|")
    fab = Fabrication(cell_size=10, wall_thickness=2, margin=6)
    stack = LaserOptions(mode="stack", top=True, ball=2, kerf=0.15, sheet=(3000.0, 3000.0))
    outline = LaserOptions(mode="outline", kerf=0.15)
    laser_sheets(laby3d.generate(5, shape="hex", cols=5, seed=1), fab, stack)
    for shape, rows, cols in CASES:
        maze = laby3d.generate(rows, cols, shape=shape, seed=1)
        medians = []
        for options in (stack, outline):
            times = []
            for _ in range(repeat):
                start = time.perf_counter()
                sheets = laser_sheets(maze, fab, options)
                laser_files(sheets, suffix="svg", metadata={})
                times.append(time.perf_counter() - start)
            medians.append(statistics.median(times))
        walls = laser_sheets(maze, fab, stack).kit.wall_layers
        size = f"{rows} rings" if cols is None else f"{rows}×{cols}"
        print(f"| {shape} {size} | {maze.cell_count:,} | {walls} | {medians[0]:.2f} | {medians[1]:.2f} |", flush=True)


def nesting(repeat: int, pupils: int = 24) -> None:
    """A class set per shape nested on 600×400 sheets (cell 10, wall 2, margin 6, 3 mm sheets,
    top, ball 2): sheets against the area bound (of the parts' boxes, or of the discs) and
    against the same parts nested by their boxes alone, the material left over around the boxes
    and around the outlines (what laser.json reports), and the class set's time (median)."""
    from dataclasses import replace

    from laby3d.geometry.laser import class_sheets
    from laby3d.geometry.laser.kit import kit_of
    from laby3d.geometry.laser.layout import nest

    print(
        "\n| class set | material | parts | sheets | area bound | by boxes alone | waste around boxes "
        "| around outlines | class set s |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    fab = Fabrication(cell_size=10, wall_thickness=2, margin=6)
    options = LaserOptions(mode="stack", top=True, ball=2, kerf=0.15)
    for shape, rows, cols in (("theta", 6, None), ("hex", 8, 9), ("triangle", 8, 11)):
        kits = [(f"Pupil {k + 1}", laby3d.generate(rows, cols, shape=shape, seed=k)) for k in range(pupils)]
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            sheets = class_sheets(kits, fab, options)
            times.append(time.perf_counter() - start)
        parts = [replace(p, shape=None) for name, maze in kits for p in kit_of(maze, fab, options, tag=name).parts]
        boxes = nest(parts, options.sheet_size, options.spacing).materials
        size = f"{rows} rings" if cols is None else f"{rows}×{cols}"
        for entry, alone in zip(sheets.nesting, boxes, strict=True):
            print(
                f"| {pupils} × {shape} {size} | {entry['material']} | {entry['parts']} | {entry['sheets']} "
                f"| {entry['area_bound_sheets']} | {alone['sheets']} | {entry['waste_percent']} % "
                f"| {entry.get('outline_waste_percent', entry['waste_percent'])} % "
                f"| {statistics.median(times):.1f} |",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    lines(args.repeat)
    kits(args.repeat)
    nesting(args.repeat)


if __name__ == "__main__":
    main()
