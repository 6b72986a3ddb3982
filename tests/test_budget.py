"""Every format of every shape, carving with every algorithm, and every costly option has a cost
estimate, refused up front with what fits (issues 21 and 28).

Each case used to run for minutes or without end (``--every 1`` GIF at 60×60: 100 s and 2.6 GB;
a 2000×2000 lesson: > 180 s; ``--wall-material-thickness 1e-5``: > 180 s; ``stats --table
--seeds 1e9``: never ends). Now each is one line naming the flag, the estimate and what fits,
before any work; ``laby3d validate`` says the same of a YAML job; and the value the message
suggests passes. The estimates themselves are compared with measured runs in
bench/bench_budget.py (no timing here).
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from laby3d.budget import MAX_WALL_LAYERS, MazeSize, carving_cost, cost_of, frame_cost
from laby3d.cli import main
from laby3d.errors import ParameterError
from laby3d.export.formats import FORMATS
from laby3d.maze.algorithms import ALGORITHMS, GRAPH_ALGORITHMS
from laby3d.options.build import nested, validated_job


def refusal(capsys: pytest.CaptureFixture[str], args: list[str]) -> str:
    status = main(args)
    err = capsys.readouterr().err
    assert status == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and len(lines[0]) <= 300, err
    return lines[0]


def job(**values: object) -> None:
    validated_job(nested(values))


CASES = {
    "gif --every 1 at 60x60": (
        ["generate", "--rows", "60", "--cols", "60", "--every", "1", "-o", "x.gif"],
        "--every 1 gives 3,600 frames: the gif would take about",
    ),
    "lesson at 2000x2000": (
        ["generate", "--rows", "2000", "--cols", "2000", "-o", "x.lesson.pdf"],
        "--rows 2000 with cols 2000 gives 41 frames: the lesson.pdf would take about",
    ),
    "gif at 1000x1000": (
        ["generate", "--rows", "1000", "--cols", "1000", "-o", "x.gif"],
        "the gif would take about",
    ),
    "kit of 1 µm sheets": (
        ["generate", "--rows", "5", "--cols", "5", "--laser-mode", "stack", "--wall-material-thickness", "0.001"]
        + ["-o", "x.svg"],
        "--wall-material-thickness 0.001 mm needs 6,040 wall sheets",
    ),
    "kit of 50 sheets at 400x400": (
        ["generate", "--rows", "400", "--cols", "400", "--laser-mode", "stack", "--wall-layers", "50"]
        + ["--sheet", "5000x5000", "--cell-size", "6", "--wall-thickness", "1.5", "-o", "x.svg"],
        "--wall-layers 50 gives 50 wall sheets of this 400×400 maze",
    ),
    "stats --seeds 1e9": (["stats", "--table", "--seeds", "1000000000"], "--seeds 1,000,000,000 would take about"),
    "stats of 300x300 mazes": (
        ["stats", "--table", "--rows", "300", "--cols", "300", "--seeds", "100"],
        "--seeds 100 would take about",
    ),
}


#: What the testers ran (issue 28) that was accepted and took minutes (the lesson: 76 s quiet, 34
#: min under load; the hex PNG: 3.4 GB). Their 2000×2000 worksheet, heatmap PNG and Aldous-Broder
#: maze stay accepted: measured here at 8 s, 37 s and 10 s, estimated at 13 s, 75 s and 66 s
#: (bench/README.md); an estimate holds for a machine about as busy as this one, not for any load.
ISSUE_CASES = {
    "lesson PDF 500×500": (
        ["--rows", "500", "--cols", "500", "-o", "x.lesson.pdf"],
        "--rows 500 with cols 500 gives 41 frames: the lesson.pdf would take about",
    ),
    "hex PNG 2000×1000": (
        ["--shape", "hex", "--rows", "2000", "--cols", "1000", "-o", "x.png"],
        "--rows 2000 with cols 1000: the png would take about",
    ),
    "heatmap PDF 2000×2000": (
        ["--rows", "2000", "--cols", "2000", "--heatmap", "-o", "x.pdf"],
        "--rows 2000 with cols 2000: the pdf would take about",
    ),
    "triangle STL 1000×1000": (
        ["--shape", "triangle", "--rows", "1000", "--cols", "1000", "-o", "x.stl"],
        "--rows 1000 with cols 1000: the stl would take about",
    ),
    "theta page of 900 rings": (["--shape", "theta", "--rows", "900", "-o", "x.html"], "cells): the html would take"),
    "hex maze by growing tree 1400×1400": (
        ["--shape", "hex", "--rows", "1400", "--cols", "1400", "-a", "growing_tree", "-o", "x.maze.json"],
        "--rows 1400 with cols 1400: growing_tree would take about",
    ),
}


def every_case() -> dict[str, tuple[list[str], str]]:
    return CASES | {
        name: (["generate", "--seed", "1", *args], fragment) for name, (args, fragment) in ISSUE_CASES.items()
    }


@pytest.mark.parametrize(("args", "fragment"), list(every_case().values()), ids=list(every_case()))
def test_costly_outputs_are_refused_up_front(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str], fragment: str
) -> None:
    monkeypatch.chdir(tmp_path)
    start = time.perf_counter()
    message = refusal(capsys, args)
    assert time.perf_counter() - start < 2.0  # formulas of the cell count: no maze is made
    assert fragment in message and "at most" in message
    assert list(tmp_path.iterdir()) == []


def suggested(message: str, pattern: str) -> float:
    found = re.search(pattern, message)
    assert found, message
    return float(found[1].replace(",", ""))


def test_the_stride_suggested_for_gif_and_lesson_fits(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["generate", "--rows", "60", "--cols", "60", "--every", "1", "-o", "x.gif", "-o", "x.lesson.pdf"]
    message = refusal(capsys, args)
    least = int(suggested(message, r": (\d+) or more for this 60×60 maze"))
    job(**{"maze.rows": 60, "maze.cols": 60, "worksheet.every": least, "formats": ["gif", "lesson.pdf"]})
    with pytest.raises(ParameterError) as error:
        job(**{"maze.rows": 60, "maze.cols": 60, "worksheet.every": least - 1, "formats": ["gif", "lesson.pdf"]})
    assert error.value.field == "worksheet.every"


def test_the_size_suggested_for_a_lesson_fits_and_one_more_does_not(capsys: pytest.CaptureFixture[str]) -> None:
    message = refusal(capsys, ["generate", "--rows", "2000", "--cols", "2000", "-o", "x.lesson.pdf"])
    side = int(suggested(message, r"about (\d+)×\d+ cells at most"))
    job(**{"maze.rows": side, "maze.cols": side, "formats": ["lesson.pdf"]})
    with pytest.raises(ParameterError) as error:
        job(**{"maze.rows": side + 1, "maze.cols": side + 1, "formats": ["lesson.pdf"]})
    assert error.value.field == "maze.rows"


def test_the_sheet_thickness_suggested_for_a_kit_fits(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["generate", "--rows", "5", "--cols", "5", "--laser-mode", "stack", "--wall-material-thickness", "0.01"]
    message = refusal(capsys, [*args, "-o", "x.svg"])
    thinnest = suggested(message, r"sheets of at least ([\d.]+) mm")
    kit = {"maze.rows": 5, "maze.cols": 5, "laser.mode": "stack", "formats": ["svg"]}
    job(**kit, **{"laser.wall_material_thickness": thinnest})
    with pytest.raises(ParameterError, match=f"at most {MAX_WALL_LAYERS}"):
        job(**kit, **{"laser.wall_material_thickness": round(thinnest - 0.001, 3)})


def test_the_seed_count_suggested_for_a_table_fits(capsys: pytest.CaptureFixture[str]) -> None:
    message = refusal(capsys, ["stats", "--table", "--seeds", "1000000"])
    most = int(suggested(message, r": ([\d,]+) or fewer"))
    from laby3d.budget import check_table
    from laby3d.maze.algorithms import ALGORITHMS

    check_table(15, 15, most, len(ALGORITHMS))
    with pytest.raises(ParameterError):
        check_table(15, 15, most + 1, len(ALGORITHMS))


def test_validate_runs_the_same_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "class.yaml"
    config.write_text(
        "jobs:\n"
        "  - {name: anim, maze: {rows: 60, cols: 60}, worksheet: {every: 1}, formats: [gif]}\n"
        "  - {name: kit, laser: {mode: stack, wall_material_thickness: 0.00001}, formats: [svg]}\n"
    )
    message = refusal(capsys, ["validate", str(config)])
    assert message.startswith("laby3d: error: class.yaml: jobs[0] (anim).worksheet.every: 1 gives 3,600 frames")
    config.write_text("jobs:\n  - {name: kit, laser: {mode: stack, wall_material_thickness: 0.001}, formats: [svg]}\n")
    message = refusal(capsys, ["validate", str(config)])
    assert "jobs[0] (kit).laser.wall_material_thickness: 0.001 mm needs 6,040 wall sheets" in message


def test_default_sizes_are_not_refused() -> None:
    job(**{"formats": ["gif", "lesson.pdf", "svg", "stl", "html"]})
    job(**{"formats": ["svg"], "laser.mode": "stack"})
    job(**{"maze.rows": 100, "maze.cols": 100, "worksheet.every": 30, "formats": ["gif"]})


# --- issue 28: every format of every shape, and carving ------------------------------------------


@pytest.mark.parametrize("name", list(FORMATS))
def test_every_format_of_every_shape_has_a_cost(name: str) -> None:
    for shape in FORMATS[name].shapes:
        assert (cost_of(name, shape) is None) != (frame_cost(name, shape) is None), (name, shape)


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
def test_every_algorithm_has_a_carving_cost(algorithm: str) -> None:
    from laby3d.budget import CARVING
    from laby3d.tessellation import SHAPES

    assert algorithm in CARVING["square"]
    for shape in SHAPES:
        assert shape == "square" or (algorithm in CARVING[shape]) == (algorithm in GRAPH_ALGORITHMS)
    assert carving_cost(algorithm).of(15 * 15)[0] < 10  # the default maze is never refused


def side_of(message: str) -> int:
    return int(suggested(message, r"about (\d+)×\d+ cells"))


@pytest.mark.parametrize("name", [name for name, fmt in FORMATS.items() if cost_of(name) is not None])
def test_the_size_suggested_for_each_format_fits_and_one_more_does_not(name: str) -> None:
    cost = cost_of(name)
    assert cost is not None
    if name == "handout.pdf":
        return  # its own limit: 30 cells
    largest = {"maze.rows": 2000, "maze.cols": 2000, "formats": [name], "print.cell_size": 2}
    try:
        job(**largest, **{"print.wall_thickness": 0.8})
    except ParameterError as error:
        message = str(error)
        assert "would take about" in message and error.field == "maze.rows", message
    else:  # within the budget at the largest size (text, the maze file)
        seconds, memory = cost.of(2000 * 2000)
        assert seconds <= 120 and memory <= 3000
        return
    side = side_of(message)
    assert 1 <= side < 2000
    seconds, memory = cost.of(side * side)
    assert seconds <= 120 and memory <= 3000
    seconds, memory = cost.of((side + 1) * (side + 1))
    assert seconds > 120 or memory > 3000


@pytest.mark.parametrize(
    ("shape", "rows", "cols", "name"),
    [("hex", 1400, 1400, "png"), ("triangle", 1400, 1400, "pdf"), ("theta", 950, None, "png")],
)
def test_other_shapes_are_refused_with_a_size_of_their_own(shape: str, rows: int, cols: int | None, name: str) -> None:
    with pytest.raises(ParameterError) as error:
        job(**{"maze.shape": shape, "maze.rows": rows, "maze.cols": cols or 15, "formats": [name]})
    message = str(error.value)
    pattern = r"about (\d+) rings" if shape == "theta" else r"about (\d+)×\d+ cells"
    largest = int(suggested(message, pattern))
    cost = cost_of(name, shape)
    assert cost is not None

    def fits(side: int) -> bool:
        seconds, memory = cost.of(MazeSize.of(shape, side, side).cells)
        return seconds <= 120 and memory <= 3000

    assert fits(largest) and not fits(largest + 1)


def test_a_slow_algorithm_is_offered_a_faster_one() -> None:
    maze = {"maze.shape": "hex", "maze.rows": 1400, "maze.cols": 1400, "formats": ["maze.json"]}
    with pytest.raises(ParameterError) as error:
        job(**maze, **{"maze.algorithm": "growing_tree"})
    message = str(error.value)
    assert "growing_tree would take about" in message and "or another algorithm (" in message
    faster = message.rsplit("(", 1)[1].rstrip(")").split(", ")
    assert "kruskal" in faster and "growing_tree" not in faster
    job(**maze, **{"maze.algorithm": faster[0]})


def test_a_french_refusal_is_french(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["generate", "--rows", "2000", "--cols", "2000", "--lang", "fr", "-o", "x.html"]
    message = refusal(capsys, args)
    assert message.startswith("laby3d: erreur : --rows 2000 avec 2000 colonnes : le fichier html prendrait environ ")
    assert " Mo par fichier : environ " in message and " cases" in message
