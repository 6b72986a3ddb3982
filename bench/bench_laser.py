"""Benchmark: maze → laser SVG in ``lines`` mode; strokes against the lower bound.

Run: ``python bench/bench_laser.py``. In-process after a warm-up; median of ``--repeat`` runs.
The lower bound is half the odd-degree lattice points of each connected wall piece (at least 1).
"""

from __future__ import annotations

import argparse
import statistics
import time

import laby3d
from laby3d.export.formats import ExportOptions, render_output
from laby3d.geometry.trails import odd_point_bound


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    render_output(laby3d.generate(120, 120, seed=0), "w.svg", ExportOptions())  # warm-up
    print("| maze | maze→SVG s | strokes | lower bound | ratio | SVG bytes |")
    print("|---|---|---|---|---|---|")
    for size in (20, 100, 300):
        maze = laby3d.generate(size, size, seed=1)
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            data = render_output(maze, "m.svg", ExportOptions())
            times.append(time.perf_counter() - start)
        strokes = data.count(b"M")
        bound = odd_point_bound(maze)
        print(
            f"| {size}×{size} | {statistics.median(times):.3f} | {strokes:,} | {bound:,} | {strokes / bound:.2f} "
            f"| {len(data):,} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
