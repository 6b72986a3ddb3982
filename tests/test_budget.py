"""Every format and option has a cost estimate, refused up front with what fits (issue 21).

Each case used to run for minutes or without end (``--every 1`` GIF at 60×60: 100 s and 2.6 GB;
a 2000×2000 lesson: > 180 s; ``--wall-material-thickness 1e-5``: > 180 s; ``stats --table
--seeds 1e9``: never ends). Now each is one line naming the flag, the estimate and what fits,
before any work; ``laby3d validate`` says the same of a YAML job; and the value the message
suggests passes. The estimates themselves are compared with measured runs in
bench/bench_budget.py (no timing here).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from laby3d.budget import MAX_WALL_LAYERS
from laby3d.cli import main
from laby3d.errors import ParameterError
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


@pytest.mark.parametrize(("args", "fragment"), list(CASES.values()), ids=list(CASES))
def test_costly_outputs_are_refused_up_front(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str], fragment: str
) -> None:
    monkeypatch.chdir(tmp_path)
    message = refusal(capsys, args)
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
