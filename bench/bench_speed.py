"""Benchmark: the paths a change must not slow, this tree against an earlier commit, in one run.

Run: ``python bench/bench_speed.py --before d89dbe0`` (``--repeat 5``, ``--batch`` adds the
class-set batch, ``--only lesson,3mf`` picks figures). The figures: generation at 1000×1000,
STL and 3MF at 100×100, a hex 100×100 and a 40-ring theta STL, the lesson and GIF, laser lines,
the class server's preview, ``validate`` of 600 pupils, and whole CLI runs, with ``python -c
"import numpy"`` beside them (the start-up a CLI run cannot beat). The earlier commit is unpacked with
``git archive`` into a temporary folder. Every figure comes from fresh processes, the two trees
taking turns run by run, so a change in the machine's load hits both alike. Both trees write
their ``.pyc`` files (``PYTHONDONTWRITEBYTECODE`` is removed) and run once untimed first, as an
installed package would. In-process figures time the call alone (after one warm-up call in the
process); CLI figures time the whole command; a batch's CPU adds its workers' (sampled every
0.1 s: a forkserver's workers escape the kernel's accounting of children). Medians of wall and
CPU time; ratio = before / after.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
_RUNS = itertools.count()

#: In-process figures: a snippet that prints "wall cpu" seconds of the median timed call.
TIMED = """
import statistics, time
{setup}
def run():
    {call}
run()
walls, cpus = [], []
for _ in range({inner}):
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    walls.append(time.perf_counter() - wall)
    cpus.append(time.process_time() - cpu)
print(statistics.median(walls), statistics.median(cpus))
"""

GENERATE_SETUP = """
import laby3d
laby3d.generate(1000, 1000, algorithm="{algorithm}", seed=0)  # the compiled kernels loaded
"""
RENDER_SETUP = """
import laby3d
maze = laby3d.generate({size}, seed=1{shape})
laby3d.render(laby3d.generate(20, 20, seed=0), "stl")  # the renderers loaded
"""
SERVE_SETUP = """
from laby3d.serve.classroom import DesignRequest
from laby3d.serve.work import preview
request = DesignRequest(design={"maze.rows": 15, "maze.cols": 15, "seed": 3}, defaults={}, locks={}, name="Léa")
"""


@dataclass(frozen=True)
class Figure:
    """One measured figure: its name, the command that measures it, and how."""

    name: str
    command: str  # as shown in the table
    target: str
    snippet: str | None = None  # in-process snippet printing "wall cpu"
    argv: tuple[str, ...] = ()  # or a whole CLI run: arguments after ``python -m laby3d``
    module: bool = True  # False: ``argv`` are arguments of ``python`` itself
    workers: bool = False  # the run has worker processes whose CPU counts too
    both: bool = True  # False: formats the earlier tree does not have, this tree only


def figures(folder: Path) -> list[Figure]:
    generation = [
        Figure(
            f"generate-{algorithm}",
            f"laby3d.generate(1000, 1000, algorithm={algorithm!r}) in process",
            "≤ 1.05× before",
            TIMED.format(
                setup=GENERATE_SETUP.format(algorithm=algorithm),
                call=f'laby3d.generate(1000, 1000, algorithm="{algorithm}", seed=1)',
                inner=3,
            ),
        )
        for algorithm in ("kruskal", "backtracker", "wilson")
    ]
    solids = [
        Figure(
            name,
            f"laby3d.render({what}, {fmt!r}) in process",
            "≤ 1.05× before",
            TIMED.format(
                setup=RENDER_SETUP.format(size=size, shape=shape), call=f'laby3d.render(maze, "{fmt}")', inner=3
            ),
        )
        for name, what, size, shape, fmt in (
            ("stl-100", "100×100", "100, 100", "", "stl"),
            ("3mf-100", "100×100", "100, 100", "", "3mf"),
            ("hex-stl", "hex 100×100", "100, 100", ', shape="hex"', "stl"),
            ("theta-stl", "theta 40 rings", "40", ', shape="theta"', "stl"),
        )
    ]
    serve = Figure(
        "serve-preview",
        "the class server's preview of a 15×15 design (SVG, report, GLB) in process",
        "≤ 1.05× before",
        TIMED.format(setup=SERVE_SETUP, call="preview(request)", inner=5),
    )
    startup = [
        Figure("numpy", 'python -c "import numpy"', "", argv=("-c", "import numpy"), module=False),
        Figure(
            "json-20",
            "laby3d generate --rows 20 --cols 20 -o m.maze.json",
            "≤ 2× numpy",
            argv=("generate", "--rows", "20", "--cols", "20", "--seed", "1", "-o", str(folder / "m20.maze.json")),
        ),
    ]
    others = [
        Figure(
            name,
            f"laby3d.render({what}, {fmt!r}) in process",
            target,
            TIMED.format(setup=RENDER_SETUP.format(size=size, shape=""), call=f'laby3d.render(maze, "{fmt}")', inner=3),
        )
        for name, what, size, fmt, target in (
            ("lesson", "15×15", "15, 15, algorithm='kruskal'", "lesson.pdf", "≤ 0.3 s"),
            ("gif", "15×15", "15, 15, algorithm='kruskal'", "gif", "fast too"),
            ("laser", "300×300", "300, 300", "svg", "≤ 1 s"),
        )
    ]
    cli = [
        Figure("validate", "laby3d validate class600.yaml", "≤ 5 s", argv=("validate", str(folder / "class600.yaml"))),
        Figure(
            "json",
            "laby3d generate --rows 100 --cols 100 --seed 1 -o m.maze.json",
            "",
            argv=("generate", "--rows", "100", "--cols", "100", "--seed", "1", "-o", str(folder / "m.maze.json")),
        ),
        Figure(
            "stl",
            "laby3d generate --rows 100 --cols 100 --seed 1 -o m.stl",
            "≤ json + 0.15 s",
            argv=("generate", "--rows", "100", "--cols", "100", "--seed", "1", "-o", str(folder / "m.stl")),
        ),
    ]
    return generation + solids + others + [serve] + startup + cli


def class_of(count: int) -> list[str]:
    """``count`` different pupil names (first and last names of a French class, accents included)."""
    first = "Ana Ben Chloé Dmitri Élodie Léa Noé Zoë Maël Anaïs Inès Théo Lucas Emma Jade Louise Hugo Arthur"
    last = "Martin Bernard Dubois Thomas Robert Petit Durand Leroy Moreau Simon Laurent Lefèvre Michel García"
    return [f"{a} {b}" for a in first.split() for b in last.split()][:count] + [
        f"{a} {b}-{c}" for a in first.split() for b in last.split() for c in last.split()
    ][: max(0, count - 18 * 14)]


def write_inputs(folder: Path) -> None:
    names = class_of(600)
    text = (
        "defaults:\n  maze: {rows: 10, cols: 10, algorithm: wilson, placement: corners}\n"
        "  print: {printer: mini, margin: 6}\njobs:\n  - name: class-set\n    seed: 100\n    preset: quick\n"
        f"    names: {json.dumps(names, ensure_ascii=False)}\n    formats: [maze.json, stl, 3mf]\n"
    )
    (folder / "class600.yaml").write_text(text, encoding="utf-8")


def environment(tree: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(tree)
    return env


def run_once(figure: Figure, tree: Path) -> tuple[float, float]:
    """(wall, cpu) seconds of one run of ``figure`` with ``tree``'s laby3d."""
    if figure.snippet is not None:
        done = subprocess.run(
            [sys.executable, "-c", figure.snippet],
            env=environment(tree),
            capture_output=True,
            text=True,
            check=True,
            cwd=tree,  # "python -c" puts the working folder first on the path
        )
        wall, cpu = (float(v) for v in done.stdout.split()[-2:])
        return wall, cpu
    run = next(_RUNS)  # a fresh output folder for every batch run
    prefix = ["-m", "laby3d"] if figure.module else []
    argv = [sys.executable, *prefix, *(argument.replace("{run}", str(run)) for argument in figure.argv)]
    errors = tempfile.TemporaryFile()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    command = subprocess.Popen(argv, env=environment(tree), stdout=subprocess.DEVNULL, stderr=errors, cwd=tree)
    # a batch's workers started by a fork server are its grandchildren, whose CPU the kernel's
    # accounting of children never reaches (children it waits for are counted): sampled every
    # 0.1 s, the last value per process
    seen: dict[int, float] = {}
    root = psutil.Process(command.pid)
    while command.poll() is None:
        try:
            for process in root.children(recursive=True) if figure.workers else ():
                if process.ppid() != root.pid:
                    times = process.cpu_times()
                    seen[process.pid] = times.user + times.system
        except psutil.Error:
            pass
        time.sleep(0.1)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if command.returncode:
        errors.seek(0)
        raise RuntimeError(f"{figure.command} failed ({command.returncode}): {errors.read().decode()[-500:]}")
    own = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, own + sum(seen.values()) if figure.workers else own


#: Which formats a tree knows, and which of them a class set of 15×15 mazes with names accepts
#: (a handout takes at most 30 cells; plates need a printer).
KNOWN_FORMATS = """
from laby3d.errors import Laby3dError
from laby3d.options import FORMAT_NAMES
from laby3d.options.build import nested, validated_job
accepted = []
for name in FORMAT_NAMES:
    try:
        validated_job(nested({"name": "c", "names": ["a", "b"], "maze.rows": 15, "maze.cols": 15, "formats": [name]}))
        accepted.append(name)
    except Laby3dError:
        pass
print(" ".join(accepted))
"""


def batch_figures(folder: Path, trees: dict[str, Path]) -> list[Figure]:
    """The class set of bench/bench_batch.py (30 names, 15×15, 2 workers) with the formats both
    trees accept, and with every format this tree accepts."""
    known = {}
    for label, tree in trees.items():
        done = subprocess.run(
            [sys.executable, "-c", KNOWN_FORMATS],
            env=environment(tree),
            capture_output=True,
            text=True,
            check=True,
            cwd=tree,
        )
        known[label] = done.stdout.split()
    common = [name for name in known["after"] if name in known["before"]]
    result = []
    for label, formats in (("common", common), ("every", known["after"])):
        config = folder / f"batch-{label}.yaml"
        config.write_text(
            json.dumps(
                {
                    "defaults": {
                        "maze": {"rows": 15, "cols": 15, "algorithm": "wilson"},
                        "print": {"margin": 6},
                        "formats": formats,
                    },
                    "jobs": [{"name": "class", "seed": 1, "names": [f"student{i:02d}" for i in range(30)]}],
                }
            )
        )
        result.append(
            Figure(
                f"batch-{label}",
                f"laby3d batch ({len(formats)} formats, 30 × 15×15) -j 2",
                "≤ 20 s",
                argv=("batch", str(config), "-j", "2", "--output-dir", str(folder / f"out-{label}-{{run}}")),
                workers=True,
                both=label == "common",
            )
        )
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the earlier commit (e.g. d89dbe0)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--batch", action="store_true", help="also the 30-maze class set in every format")
    parser.add_argument("--only", help="comma-separated figure names")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="laby3d-speed-"))
    before = folder / "before"
    before.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.before], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(before)], input=archive.stdout, check=True)
    trees = {"before": before, "after": ROOT}
    write_inputs(folder)
    chosen = figures(folder) + (batch_figures(folder, trees) if args.batch else [])
    if args.only:
        wanted = set(args.only.split(","))
        chosen = [figure for figure in chosen if figure.name in wanted]
    print(f"before: {args.before}; after: this tree; median of {args.repeat}; load average {os.getloadavg()[0]:.1f}")
    print("| figure | command | before s (CPU s) | after s (CPU s) | ratio | target |")
    print("|---|---|---|---|---|---|")
    results = {}
    for figure in chosen:
        measured = trees if figure.both else {"after": ROOT}
        for tree in measured.values():  # untimed first run: .pyc files, caches
            run_once(figure, tree)
        runs: dict[str, list[tuple[float, float]]] = {label: [] for label in measured}
        for _ in range(args.repeat):
            for label, tree in measured.items():
                runs[label].append(run_once(figure, tree))
        medians = {
            label: (statistics.median(wall for wall, _ in found), statistics.median(cpu for _, cpu in found))
            for label, found in runs.items()
        }
        results[figure.name] = medians
        aw, ac = medians["after"]
        if "before" in medians:
            bw, bc = medians["before"]
            shown = f"{bw:.3f} ({bc:.3f}) | {aw:.3f} ({ac:.3f}) | {bw / aw:.1f}×"
        else:
            shown = f"– | {aw:.3f} ({ac:.3f}) | –"
        print(f"| {figure.name} | `{figure.command}` | {shown} | {figure.target} |", flush=True)
    if "json" in results and "stl" in results:
        wall = {label: results["stl"][label][0] - results["json"][label][0] for label in trees}
        cpu = {label: results["stl"][label][1] - results["json"][label][1] for label in trees}
        print(
            f"\n`-o m.stl` adds {wall['before']:.3f} s before, {wall['after']:.3f} s after (wall medians; "
            f"CPU {cpu['before']:.3f} → {cpu['after']:.3f} s)"
        )
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
