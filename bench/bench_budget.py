"""Benchmark: the cost estimates of laby3d/budget.py beside measured runs, for every format of
every shape at three sizes, carving with every algorithm, a laser kit and ``stats --table``.

Run: ``python bench/bench_budget.py`` (about an hour on the 2-core machine; ``--quick`` runs the
smallest size of each; ``--only stl,3mf`` some formats; ``--shapes square`` some shapes;
``--carving`` only the algorithms). Each case runs in a fresh process: the maze is made first,
then the format alone is timed (import and carving excluded; carving is its own case) and the
process's peak memory read (``ru_maxrss``, the interpreter included, as :data:`BASE_MB` counts
it). Pictures are measured with the solution and the heatmap drawn (their dearest options).
An estimate is good when it is at or above the measure; the last line says whether every one
is. Re-measure and update the coefficients in budget.py when a format gets faster.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))

RENDER = r"""
import json, resource, sys, time
sys.path.insert(0, {root!r})
from laby3d.options.build import validated_job
from laby3d.pipeline import maze_for, render_all
import laby3d.draw.lesson, laby3d.draw.pictures, laby3d.maze.stats  # imports are not part of the estimate
job = validated_job({data!r}, cross_checks=False)  # the budget's own checks would refuse the large cases
maze = maze_for(job, 1)
start = time.perf_counter()
render_all(maze, job, list(job.formats))
print(json.dumps({{"seconds": time.perf_counter() - start,
                  "mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""
CARVE = r"""
import json, resource, sys, time
sys.path.insert(0, {root!r})
from laby3d.maze.generate import generate
generate(120, 120, shape={shape!r}, algorithm={algorithm!r}, seed=0)  # its kernel compiled and cached first
start = time.perf_counter()
generate({rows}, {cols}, shape={shape!r}, algorithm={algorithm!r}, seed=1)
print(json.dumps({{"seconds": time.perf_counter() - start,
                  "mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""
CLI = r"""
import json, resource, sys, time
sys.path.insert(0, {root!r})
from laby3d.cli import main
import laby3d.maze.stats
start = time.perf_counter()
status = main({args!r})
print(json.dumps({{"status": status, "seconds": time.perf_counter() - start,
                  "mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""

#: Sizes measured per shape: (rows, cols), cols None for theta's rings.
SIZES = {
    "square": [(100, 100), (300, 300), (700, 700)],
    "hex": [(100, 100), (300, 300), (600, 600)],
    "triangle": [(100, 100), (300, 300), (600, 600)],
    "theta": [(50, None), (150, None), (400, None)],
}
#: Smaller sizes for the lesson's frames (drawn 41 times by default).
FRAME_SIZES = {
    "square": [(30, 30), (100, 100), (300, 300)],
    "hex": [(20, 20), (50, 50), (100, 100)],
    "triangle": [(20, 20), (50, 50), (100, 100)],
    "theta": [(10, None), (20, None), (50, None)],
}
#: Carving sizes per shape.
CARVE_SIZES = {
    "square": [(300, 300), (1000, 1000), (2000, 2000)],
    "hex": [(100, 100), (300, 300), (600, 600)],
}
#: Print and laser sizes that fit every measured maze on the largest plate (mm).
FABRICATION = {"cell_size": 5.0, "wall_thickness": 1.2}


def measure(code: str, timeout: float = 1800) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, cwd=folder, timeout=timeout, check=False
        )
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip().splitlines()[-1])
    return json.loads(done.stdout.strip().splitlines()[-1])


def job_data(name: str, shape: str, rows: int, cols: int | None) -> dict:
    data: dict = {"maze": {"shape": shape, "rows": rows, "cols": cols or 1}, "formats": [name]}
    if name in ("png", "pdf", "ps"):
        data["pictures"] = {"heatmap": True, "solution": True}
    if name in ("stl", "3mf", "glb", "svg", "dxf", "laser.png"):
        data["print"] = dict(FABRICATION)
    return data


def format_cases(options: argparse.Namespace) -> list[tuple[str, str, int, int | None]]:
    from laby3d.budget import cost_of, frame_cost
    from laby3d.export.formats import FORMATS

    cases = []
    for shape, sizes in SIZES.items():
        if shape not in options.shapes:
            continue
        for name, fmt in FORMATS.items():
            if shape not in fmt.shapes or (options.only and name not in options.only) or name == "handout.pdf":
                continue
            if cost_of(name, shape) is None and frame_cost(name, shape) is None:
                continue
            chosen = FRAME_SIZES[shape] if frame_cost(name, shape) is not None else sizes
            cases += [(name, shape, rows, cols) for rows, cols in (chosen[:1] if options.quick else chosen)]
    return cases


def estimate_of(name: str, shape: str, rows: int, cols: int | None) -> tuple[float, float]:
    from laby3d.budget import MazeSize, cost_of, frame_cost, frame_count

    size = MazeSize.of(shape, rows, cols)
    frames = frame_cost(name, shape)
    if frames is not None:
        return frames.of(size.cells, frame_count(size.cells, None))
    cost = cost_of(name, shape)
    assert cost is not None
    return cost.of(size.cells)


def row(case: str, estimate: tuple[float, float | None], got: dict) -> tuple[str, bool]:
    seconds, memory = estimate
    memory_text = f", {memory:,.0f} MB" if memory is not None else ""
    ratio = f"{seconds / got['seconds']:.1f}× time" + (f", {memory / got['mb']:.1f}× memory" if memory else "")
    above = seconds >= got["seconds"] and (memory is None or memory >= got["mb"])
    mark = "" if above else " **below**"
    text = f"| {case} | {seconds:.1f} s{memory_text} | {got['seconds']:.1f} s, {got['mb']:,.0f} MB | {ratio}{mark} |"
    return text, above


def main() -> None:
    from laby3d.budget import TABLE_MAZE_SECONDS, MazeSize, carving_cost, kit_cost
    from laby3d.maze.algorithms import ALGORITHMS, GRAPH_ALGORITHMS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the smallest size of each case only")
    parser.add_argument("--only", type=lambda text: text.split(","), default=[], help="these formats only")
    parser.add_argument("--shapes", type=lambda text: text.split(","), default=list(SIZES), help="these shapes only")
    parser.add_argument("--carving", action="store_true", help="carving only")
    options = parser.parse_args()
    root = str(HERE.parent)
    results: list[bool] = []
    print("| case | estimate | measured | estimate / measured |")
    print("|---|---|---|---|")

    def report(case: str, estimate: tuple[float, float | None], code: str) -> None:
        try:
            got = measure(code)
        except (RuntimeError, subprocess.TimeoutExpired) as error:
            print(f"| {case} | {estimate[0]:.1f} s | failed: {error} | |", flush=True)
            results.append(False)
            return
        text, above = row(case, estimate, got)
        results.append(above)
        print(text, flush=True)

    if not options.carving:
        for name, shape, rows, cols in format_cases(options):
            size = f"{rows} rings" if cols is None else f"{rows}×{cols}"
            case = f"{name} {shape} {size} ({MazeSize.of(shape, rows, cols).cells:,} cells)"
            report(
                case,
                estimate_of(name, shape, rows, cols),
                RENDER.format(root=root, data=job_data(name, shape, rows, cols)),
            )
    for shape, sizes in CARVE_SIZES.items():
        if shape not in options.shapes:
            continue
        algorithms = ALGORITHMS if shape == "square" else GRAPH_ALGORITHMS
        for algorithm in algorithms:
            for rows, cols in sizes[:1] if options.quick else sizes:
                cells = MazeSize.of(shape, rows, cols).cells
                estimate = carving_cost(algorithm, shape).of(cells)
                code = CARVE.format(root=root, shape=shape, rows=rows, cols=cols, algorithm=algorithm)
                report(f"carving {algorithm} {shape} {rows}×{cols}", estimate, code)
    if not options.carving and not options.only and "square" in options.shapes:
        kit = ["--laser-mode", "stack", "--wall-layers", "20", "--sheet", "2100x2100", "-o", "m.svg"]
        args = ["generate", "--rows", "200", "--cols", "200", "--seed", "1", *kit]
        report("kit 200×200, 20 sheets", kit_cost(40_000, 20), CLI.format(root=root, args=args))
        fixed, per_cell, start_up, compiled = TABLE_MAZE_SECONDS
        seconds = 100 * len(ALGORITHMS) * (fixed + min(per_cell * 225, start_up + compiled * 225))
        args = ["stats", "--rows", "15", "--cols", "15", "--table", "--seeds", "100"]
        report("stats --table 15×15 --seeds 100", (seconds, None), CLI.format(root=root, args=args))
    print(f"\nevery estimate at or above the measure: {'yes' if all(results) else 'NO'} ({len(results)} cases)")


if __name__ == "__main__":
    main()
