"""Benchmark: the solid of a theta, hex or triangle maze, maze → plan → solid → STL on disk.

Run: ``python bench/bench_shaped_solid.py`` (``--repeat 7``; ``--memory``: the peak memory of
the large mazes' STL and 3MF, once each, for the KB a cell of :data:`laby3d.budget.COSTS`; 4 mm cells,
1.2 mm walls). Each case runs in its own process
(imports and a warm-up on a small maze of the shape first); times are medians of ``--repeat``
runs of the generated maze → :func:`laby3d.mesh.solid.maze_solid` → its body → binary
STL written; the plan (walls, floor, plate polygons) is timed apart as a share of it; memory the
process's peak RSS. Issue 22's targets: a 40-ring theta maze → STL ≤ 0.5 s and ≤ 40 triangles a
cell, a 100×100 hex maze → STL ≤ 0.5 s. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

#: (shape, rows, cols) by the name the table gives.
CASES = {
    "theta 40 rings": ("theta", 40, None),
    "hex 100×100": ("hex", 100, 100),
    "triangle 100×100": ("triangle", 100, 100),
    "theta 100 rings": ("theta", 100, None),
}
#: The large mazes whose peak memory sets the budget (``--memory``).
MEMORY_CASES = {
    "hex 300×300": ("hex", 300, 300),
    "theta 150 rings": ("theta", 150, None),
    "triangle 300×300": ("triangle", 300, 300),
}

MEMORY_CHILD = r"""
import json, resource, time
import laby3d
from laby3d.export.meshes import stl_bytes, threemf_bytes
from laby3d.geometry.params import Fabrication
from laby3d.mesh.solid import maze_solid
from laby3d.mesh.solid import SolidOptions
maze = laby3d.generate({rows}, {cols}, shape={shape!r}, seed=1)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
start = time.perf_counter()
solid = maze_solid(maze, Fabrication(cell_size=4, wall_thickness=1.2), SolidOptions(solution="groove"))
stl, threemf = stl_bytes(solid.body, "m".ljust(80)), threemf_bytes(solid, "m")
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({{"cells": maze.cell_count, "before": before, "peak": peak, "seconds": seconds}}))
"""

CHILD = r"""
import json, os, resource, tempfile, time
import laby3d
from laby3d.export.meshes import stl_header, stl_bytes
from laby3d.export.writer import write_atomic
from laby3d.geometry.params import Fabrication
from laby3d.geometry.plan import maze_plan
from laby3d.mesh.solid import maze_solid
from laby3d.mesh.solid import SolidOptions
shape, rows, cols, repeat = {shape!r}, {rows}, {cols}, {repeat}
fab, options = Fabrication(), SolidOptions()
small = laby3d.generate(4, None if shape == "theta" else 4, shape=shape, seed=0)
maze_solid(small, fab, options).body  # warm-up: imports
maze = laby3d.generate(rows, cols, shape=shape, seed=1)
out = os.path.join(tempfile.mkdtemp(), "m.stl")
runs = []
for _ in range(repeat):
    t0 = time.perf_counter()
    solid = maze_solid(maze, fab, options)
    body = solid.body
    write_atomic(out, stl_bytes(body, stl_header(maze, body, fab)))
    t1 = time.perf_counter()
    maze_plan(maze, fab)
    t2 = time.perf_counter()
    runs.append({{"stl": t1 - t0, "plan": t2 - t1, "triangles": len(body.faces)}})
    del solid, body
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({{"runs": runs, "cells": maze.cell_count, "peak_mb": peak}}))
"""


def measure(shape: str, rows: int, cols: int | None, repeat: int) -> dict:
    code = CHILD.format(shape=shape, rows=rows, cols=cols, repeat=repeat)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def memory_table() -> None:
    print("| maze | cells | STL + 3MF s | peak MB | KB a cell over the maze |")
    print("|---|---|---|---|---|")
    for case, (shape, rows, cols) in MEMORY_CASES.items():
        code = MEMORY_CHILD.format(shape=shape, rows=rows, cols=cols)
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        result = json.loads(done.stdout.strip().splitlines()[-1])
        per_cell = (result["peak"] - result["before"]) * 1024 / result["cells"]
        print(f"| {case} | {result['cells']:,} | {result['seconds']:.1f} | {result['peak']:.0f} | {per_cell:.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs per case (median reported)")
    parser.add_argument("--memory", action="store_true", help="the large mazes' peak memory instead")
    args = parser.parse_args()
    if args.memory:
        memory_table()
        return
    print("| maze | cells | plan s | maze→STL s (min–max) | triangles (per cell) | peak MB |")
    print("|---|---|---|---|---|---|")
    for case, (shape, rows, cols) in CASES.items():
        result = measure(shape, rows, cols, args.repeat)
        runs, cells = result["runs"], result["cells"]
        stl = [run["stl"] for run in runs]
        triangles = runs[0]["triangles"]
        print(
            f"| {case} | {cells:,} | {statistics.median(run['plan'] for run in runs):.3f} | "
            f"{statistics.median(stl):.3f} ({min(stl):.3f}–{max(stl):.3f}) | "
            f"{triangles:,} ({triangles / cells:.1f}) | {result['peak_mb']:.0f} |"
        )


if __name__ == "__main__":
    main()
