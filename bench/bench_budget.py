"""Benchmark: the cost estimates of laby3d/budget.py beside measured runs.

Run: ``python bench/bench_budget.py`` (``--quick`` runs the three cheapest cases). Each case is
one ``laby3d`` command run in a fresh process (``laby3d.cli.main``), timed from the call to its
return, its memory the process's peak RSS. An estimate is good when it is above the measure and
not far above it (the refusals then leave room and refuse little that would fit); re-measure and
update the coefficients in budget.py when a format gets faster.
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

CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, {root!r})
from laby3d.cli import main
import laby3d.draw.lesson, laby3d.maze.stats  # imports are not part of the estimate
start = time.perf_counter()
status = main({args!r})
print(json.dumps({{"status": status, "seconds": time.perf_counter() - start,
                  "mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""

#: (name, rows, cols, extra CLI words, what the estimate is of)
CASES = [
    ("gif 30×30 --every 1", 30, 30, ["--every", "1", "-o", "m.gif"], ("frames", "gif", 1)),
    ("gif 150×150", 150, 150, ["-o", "m.gif"], ("frames", "gif", None)),
    ("lesson 15×15 --every 1", 15, 15, ["--every", "1", "-o", "m.lesson.pdf"], ("frames", "lesson.pdf", 1)),
    ("lesson 150×150", 150, 150, ["-o", "m.lesson.pdf"], ("frames", "lesson.pdf", None)),
    (
        "kit 100×100, 50 sheets",
        100,
        100,
        ["--laser-mode", "stack", "--wall-layers", "50", "--sheet", "1100x1100"] + ["-o", "m.svg"],
        ("kit", 50, None),
    ),
    (
        "kit 200×200, 20 sheets",
        200,
        200,
        ["--laser-mode", "stack", "--wall-layers", "20", "--sheet", "2100x2100"] + ["-o", "m.svg"],
        ("kit", 20, None),
    ),
    ("stats --table 15×15 --seeds 100", 15, 15, ["--table", "--seeds", "100"], ("table", 100, None)),
]
QUICK = ("lesson 15×15 --every 1", "kit 100×100, 50 sheets", "stats --table 15×15 --seeds 100")


def estimate(rows: int, cols: int, what: tuple) -> tuple[float, float | None]:
    """(seconds, MB or None) budget.py gives this case."""
    from laby3d.budget import FRAME_FORMATS, TABLE_MAZE_SECONDS, frame_count, kit_cost
    from laby3d.maze.algorithms import ALGORITHMS

    kind, first, second = what
    cells = rows * cols
    if kind == "frames":
        return FRAME_FORMATS[first].of(cells, frame_count(cells, second))
    if kind == "kit":
        return kit_cost(cells, first)
    fixed, per_cell, start_up, compiled = TABLE_MAZE_SECONDS
    return first * len(ALGORITHMS) * (fixed + min(per_cell * cells, start_up + compiled * cells)), None


def measure(rows: int, cols: int, extra: list[str]) -> dict:
    verb = "stats" if "--table" in extra else "generate"
    seed = [] if verb == "stats" else ["--seed", "1"]  # the table draws its own seeds 0, 1, 2…
    args = [verb, "--rows", str(rows), "--cols", str(cols), *seed, *extra]
    with tempfile.TemporaryDirectory() as folder:
        code = CHILD.format(root=str(HERE.parent), args=args)
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=folder, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["status"] == 0, done.stderr
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only the cheapest cases")
    options = parser.parse_args()
    print("| case | estimate | measured | estimate / measured |")
    print("|---|---|---|---|")
    for name, rows, cols, extra, what in CASES:
        if options.quick and name not in QUICK:
            continue
        seconds, memory = estimate(rows, cols, what)
        got = measure(rows, cols, extra)
        memory_text = f", {memory:,.0f} MB" if memory is not None else ""
        ratio = f"{seconds / got['seconds']:.1f}× time" + (f", {memory / got['mb']:.1f}× memory" if memory else "")
        print(
            f"| {name} | {seconds:.1f} s{memory_text} | {got['seconds']:.1f} s, {got['mb']:,.0f} MB | {ratio} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
