"""Benchmark: the lesson's zone colours — how far apart touching zones are, how many colours the
frames need, how often a merged zone keeps the colour of the zone whose number it keeps, and what
the colouring costs.

Run: ``python bench/bench_lesson_colours.py`` (``--sizes 15 30 60``, ``--seeds 3``). For each
algorithm and size, the default lesson's frames (about 40) are coloured; the least CIEDE2000
between two touching zones is measured on the colours drawn (tests/colourcheck.py, written from
the formulas); time is the median of the seeds for :func:`laby3d.draw.zone_colours.frame_colours`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))

import numpy as np  # noqa: E402

import laby3d  # noqa: E402
from laby3d.draw.zone_colours import PALETTE, colour_rgb, frame_colours  # noqa: E402
from laby3d.maze.algorithms import ALGORITHMS  # noqa: E402
from laby3d.maze.observe import stages  # noqa: E402
from tests.colourcheck import delta_e_2000, lab  # noqa: E402


def measure(algorithm: str, size: int, seed: int) -> tuple[float, int, float, float]:
    """(least ΔE00 of touching zones, colours used, share of merges keeping the number's colour, s)."""
    maze = laby3d.generate(size, size, algorithm=algorithm, seed=seed)
    every = max(1, -(-(maze.cell_count - 1) // 40))
    frames = [stage.zones for stage in stages(maze, every=every)]
    start = time.perf_counter()
    colours = frame_colours(frames)
    seconds = time.perf_counter() - start
    labs = [lab(tuple(255 * c for c in colour_rgb(index))) for index in range(int(max(c.max() for c in colours)) + 1)]
    pairs: set[tuple[int, int]] = set()
    kept = merged = 0
    for index, (zones, drawn) in enumerate(zip(frames, colours, strict=True)):
        for a, b, ca, cb in (
            (zones[:, :-1], zones[:, 1:], drawn[:, :-1], drawn[:, 1:]),
            (zones[:-1], zones[1:], drawn[:-1], drawn[1:]),
        ):
            apart = a != b
            pairs |= set(zip(ca[apart].tolist(), cb[apart].tolist(), strict=True))
        if index:
            before, before_drawn = frames[index - 1], colours[index - 1]
            for number in np.unique(zones).tolist():
                cells = zones == number
                if len(np.unique(before[cells])) > 1:  # merged since the frame before
                    merged += 1
                    kept += bool(np.all(drawn[cells] == before_drawn[before == number][0]))
    least = min(delta_e_2000(labs[a], labs[b]) for a, b in pairs) if pairs else float("inf")
    return least, len(labs), kept / merged if merged else 1.0, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[15, 30, 60])
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    palette = [lab(tuple(255 * c for c in rgb)) for rgb in PALETTE]
    least_pair = min(delta_e_2000(a, b) for i, a in enumerate(palette) for b in palette[i + 1 :])
    print(f"palette: {len(PALETTE)} colours, least CIEDE2000 between two of them {least_pair:.1f}\n")
    columns = ("algorithm", "size", "least ΔE00 of touching zones", "colours used (max)", "merges keeping the colour")
    print("| " + " | ".join(columns) + " | colouring, s |")
    print("|---|---|---|---|---|---|")
    for size in args.sizes:
        for algorithm in sorted(ALGORITHMS):
            runs = [measure(algorithm, size, seed) for seed in range(1, args.seeds + 1)]
            print(
                f"| {algorithm} | {size}×{size} | {min(r[0] for r in runs):.1f} | {max(r[1] for r in runs)} "
                f"| {statistics.median(r[2] for r in runs):.0%} | {statistics.median(r[3] for r in runs):.3f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
