"""Benchmark: what each kernel costs as Python and compiled, and what numba's start-up costs.

Run: ``python bench/bench_jit.py`` (``--size 200``). In fresh processes it (1) times importing
numba and loading one kernel from the cache, and (2) runs a workload touching every kernel (each
algorithm, the solution, the solid, the laser lines) once with ``LABY3D_JIT=never`` and once with
``always``, timing every kernel call. It prints a Markdown table: per kernel, ns per cell as
Python and compiled, and the size from which the compiled path pays (start-up / Python cost).
The ``python_ns`` given to each ``@kernel`` comes from the first column.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

WORKLOAD = r"""
import json, os, sys, time
from collections import defaultdict
import laby3d
from laby3d import accel
from laby3d.pipeline import render
from laby3d.maze.algorithms import ALGORITHMS

times = defaultdict(list)
original = accel.Kernel.__call__

def timed(self, *args, cells):
    start = time.perf_counter()
    result = original(self, *args, cells=cells)
    times[self.function.__module__ + "." + self.function.__name__].append((time.perf_counter() - start, cells))
    return result

accel.Kernel.__call__ = timed
size = {size}
for round_ in range(2):  # the first round loads compiled kernels; the second is timed
    times.clear()
    for name in ALGORITHMS:
        maze = laby3d.generate(size, size, algorithm=name, seed=round_)
    maze.solution
    render(maze, "stl")
    render(maze, "svg")
print(json.dumps({{k: [t / max(c, 1) * 1e9 for t, c in v] for k, v in times.items()}}))
"""

START_UP = r"""
import time
start = time.perf_counter()
import numba
imported = time.perf_counter()
import os
os.environ["LABY3D_JIT"] = "always"
import laby3d
laby3d.generate(3, 3, algorithm="backtracker", seed=1)
print(imported - start, time.perf_counter() - imported)
"""


def _run(code: str, jit: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env={"LABY3D_JIT": jit, "PATH": ""}, check=True
    )
    return done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    imports, loads = [], []
    for _ in range(args.repeat):
        numba_s, load_s = (float(v) for v in _run(START_UP, "always").split())
        imports.append(numba_s)
        loads.append(load_s)
    print(
        f"numba import {statistics.median(imports):.2f} s, import laby3d + first cached kernel "
        f"{statistics.median(loads):.2f} s (median of {args.repeat})\n"
    )
    python = json.loads(_run(WORKLOAD.format(size=args.size), "never"))
    compiled = json.loads(_run(WORKLOAD.format(size=args.size), "always"))
    start_up = statistics.median(imports) + 0.2
    print(f"| kernel ({args.size}×{args.size}) | Python ns/cell | compiled ns/cell | compiled pays from (cells) |")
    print("|---|---|---|---|")
    for name in sorted(python):
        py = statistics.median(python[name])
        co = statistics.median(compiled.get(name, [float("nan")]))
        print(f"| {name.replace('laby3d.', '')} | {py:,.0f} | {co:,.0f} | {start_up / (py * 1e-9):,.0f} |")


if __name__ == "__main__":
    main()
