"""Benchmark: generating mazes of other shapes, a 100×100 hex and a 40-ring theta maze, with
every graph-generic algorithm; and building their geometry (walls, boundary) once.

Run: ``python bench/bench_shapes.py`` (``--repeat 5``). Each algorithm and shape runs in its own
process: a warm-up first (imports, and the compiled kernels loaded from numba's cache), then the
median of ``--repeat`` seeds of ``laby3d.generate`` as it runs by default (kernels as Python at
these sizes, see laby3d/accel.py) and with ``LABY3D_JIT=always`` (compiled); and the cost per
cell of the graph kernel as Python (``LABY3D_JIT=never``) over that of the square kernel of the
same algorithm at 100×100, in the same process: a ratio that survives a loaded machine, by which
the graph kernel's ``@kernel(python_ns=…)`` is the square kernel's figure scaled.
Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

CASES = {"hex 100×100": ("hex", 100, 100), "theta 40 rings": ("theta", 40, None)}

CHILD = r"""
import json, os, time
import laby3d
from laby3d import accel
shape, rows, cols, algorithm, repeat = {shape!r}, {rows}, {cols}, {algorithm!r}, {repeat}
kernel_time = []
original = accel.Kernel.__call__
def timed(self, *args, cells):
    start = time.perf_counter()
    result = original(self, *args, cells=cells)
    if "solve" not in self.function.__module__:
        kernel_time.append(time.perf_counter() - start)
    return result
accel.Kernel.__call__ = timed
result = {{}}
for mode in ("never", "auto", "always"):  # auto before always: once compiled, a kernel stays compiled
    os.environ["LABY3D_JIT"] = mode
    laby3d.generate(rows, cols, shape=shape, algorithm=algorithm, seed=99)  # warm-up
    times, kernels = [], []
    for seed in range(repeat):
        kernel_time.clear()
        start = time.perf_counter()
        maze = laby3d.generate(rows, cols, shape=shape, algorithm=algorithm, seed=seed)
        times.append(time.perf_counter() - start)
        kernels.append(sum(kernel_time))
    result[mode] = times
    result[mode + "_kernel"] = kernels
cells = maze.cell_count
os.environ["LABY3D_JIT"] = "never"  # the square kernel of the same algorithm, for the ratio
square = []
for seed in range(repeat):
    kernel_time.clear()
    laby3d.generate(100, 100, algorithm=algorithm, seed=seed)
    square.append(sum(kernel_time) / 10_000)
result["square_ns"] = sorted(square)[len(square) // 2] * 1e9
start = time.perf_counter()
laby3d.tessellation.tessellate(shape, rows, cols).boundary_cells
result["geometry"] = time.perf_counter() - start
result["cells"] = cells
print(json.dumps(result))
"""


def measure(shape: str, rows: int, cols: int | None, algorithm: str, repeat: int) -> dict:
    code = CHILD.format(shape=shape, rows=rows, cols=cols, algorithm=algorithm, repeat=repeat)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="seeds per cell (median reported)")
    args = parser.parse_args()
    from laby3d.maze.algorithms import GRAPH_ALGORITHMS

    print("| algorithm | " + " | ".join(CASES) + " |")
    print("|---|" + "---|" * len(CASES))
    geometry = {}
    for algorithm in GRAPH_ALGORITHMS:
        cells = []
        for case, (shape, rows, cols) in CASES.items():
            result = measure(shape, rows, cols, algorithm, args.repeat)
            auto = statistics.median(result["auto"])
            compiled = statistics.median(result["always"])
            python_ns = statistics.median(result["never_kernel"]) / result["cells"] * 1e9
            ratio = python_ns / result["square_ns"]
            cells.append(f"{auto:.3f} s (compiled {compiled:.3f} s; Python kernel ×{ratio:.1f} the square one's)")
            geometry[case] = (result["geometry"], result["cells"])
        print(f"| {algorithm} | " + " | ".join(cells) + " |")
    print()
    for case, (seconds, cells) in geometry.items():
        print(f"- {case}: {cells:,} cells; geometry (walls, boundary) built in {seconds:.3f} s")


if __name__ == "__main__":
    main()
