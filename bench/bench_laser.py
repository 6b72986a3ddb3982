"""Benchmark: laser sheets. Lines mode (strokes against the lower bound, travel against the
greedy nearest-neighbour order), a 24-pupil class kit nested and written (SVG and DXF), and the
nesting: sheets used against the area bound and material wasted.

Run: ``python bench/bench_laser.py``. In-process after a warm-up; median of ``--repeat`` runs.
The lower bound is half the odd-degree lattice points of each connected wall piece (at least 1).
The area bound is computed here from the written outlines (boxes grown by the spacing over the
sheet less its edges); waste is 1 − the parts' area over the sheets' area.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

import shapely

import laby3d
from laby3d.export.laser import laser_files, svg_bytes
from laby3d.geometry.laser import LaserOptions, class_sheets, laser_sheets
from laby3d.geometry.laser.travel import travel_length
from laby3d.geometry.params import Fabrication

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
from svgcheck import closed_walls_and_bound, greedy_travel  # noqa: E402 - the tests' own bound and greedy order


def lines(repeat: int) -> None:
    print("| maze | maze→SVG s | strokes | lower bound | cut m | travel m | greedy NN travel m |")
    print("|---|---|---|---|---|---|---|")
    for size in (20, 100, 300):
        maze = laby3d.generate(size, size, seed=1)
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            sheets = laser_sheets(maze, Fabrication(), LaserOptions(mode="lines"))
            svg_bytes(sheets.pages[0], metadata={})
            times.append(time.perf_counter() - start)
        page = sheets.pages[0]
        strokes = list(zip(page.strokes["score"], page.closed["score"], strict=True))
        greedy = greedy_travel(strokes) / 1000
        bound = closed_walls_and_bound(maze)[1]
        print(
            f"| {size}×{size} | {statistics.median(times):.2f} | {len(strokes):,} | {bound:,} "
            f"| {page.cut_length() / 1000:.1f} | {travel_length(page) / 1000:.1f} | {greedy:.1f} |",
            flush=True,
        )


def class_kit(repeat: int, pupils: int = 24) -> None:
    fab = Fabrication(cell_size=10, wall_thickness=3, margin=6)  # a frame band for the names
    options = LaserOptions(mode="stack", top=True, ball=6)
    kits = [(f"Pupil {k + 1}", laby3d.generate(12, 16, seed=k)) for k in range(pupils)]
    times, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        sheets = class_sheets(kits, fab, options)
        files = {**laser_files(sheets, suffix="svg", metadata={}), **laser_files(sheets, suffix="dxf", metadata={})}
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    report = sheets.report()
    print(
        f"\n{pupils} pupils' kits (12×16, 3 wall sheets + top): {len(sheets.pages)} sheets "
        f"({', '.join(sheets.names())}), {len(files)} files, nested and written in "
        f"{statistics.median(times):.2f} s ({statistics.median(cpu):.2f} s CPU); "
        f"cut {report['cut_length_mm'] / 1000:.1f} m, travel {report['travel_mm'] / 1000:.1f} m"
    )


def nesting() -> None:
    """Sheets per material against the area bound, and waste, for class sets of ball kits."""
    print("\n| class set | sheet mm | material | sheets | area bound | waste |")
    print("|---|---|---|---|---|---|")
    fab = Fabrication(cell_size=10, wall_thickness=3, margin=6)
    names = ["Ana", "Ben", "Chloé", "Dmitri", "Emma", "Farid"]
    cases = [
        (
            "configs/laser.yaml class-kits (6 × 8×10)",
            [(n, laby3d.generate(8, 10, seed=20 + k)) for k, n in enumerate(names)],
            (600.0, 400.0),
        ),
        ("1 kit 12×16", [("Ana", laby3d.generate(12, 16, seed=3))], (300.0, 200.0)),
        ("6 kits 12×16", [(n, laby3d.generate(12, 16, seed=k)) for k, n in enumerate(names)], (300.0, 200.0)),
        ("6 kits 12×16", [(n, laby3d.generate(12, 16, seed=k)) for k, n in enumerate(names)], (600.0, 400.0)),
        (
            "24 kits 8–16 × 10–16",
            [(f"P{k:02d}", laby3d.generate(8 + k % 9, 10 + k % 7, seed=k)) for k in range(24)],
            (600.0, 400.0),
        ),
    ]
    for label, kits, sheet in cases:
        options = LaserOptions(mode="stack", top=True, ball=6, kerf=0.15, sheet=sheet)
        sheets = class_sheets(kits, fab, options)
        width, height = sheet
        edge = max(options.spacing, 2.0)
        for material in dict.fromkeys(page.material for page in sheets.pages):
            pages = [page for page in sheets.pages if page.material == material]
            parts = [shapely.Polygon(p) for page in pages for p in page.strokes["outer-cut"]]
            grown = sum(
                (x1 - x0 + options.spacing) * (y1 - y0 + options.spacing)
                for x0, y0, x1, y1 in (p.bounds for p in parts)
            )
            bound = math.ceil(
                grown / ((width - 2 * edge + options.spacing) * (height - 2 * edge + options.spacing)) - 1e-9
            )
            waste = 1 - sum(p.area for p in parts) / (len(pages) * width * height)
            print(f"| {label} | {width:g}×{height:g} | {material.key} | {len(pages)} | {bound} | {100 * waste:.1f} % |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    laser_sheets(laby3d.generate(120, 120, seed=0), Fabrication(), LaserOptions(mode="lines"))  # warm-up
    lines(args.repeat)
    class_kit(args.repeat)
    nesting()


if __name__ == "__main__":
    main()
