"""The class exercise's maze both ways: `laby3d import` reads a pupil's rows of N/E/S/O cells (JSON
or a Python literal, never run) and writes any format; `.classroom.json` / `.classroom.py` write
the form back.

The oracle is a pupil's program written from the exercise's text alone
(tests/data/pupil_exercise.py, run as its own process): it makes mazes by "fusion aléatoire de
chemins" and walks a form from its entrance to its exit with the N/E/S/O dicts.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import laby3d
from laby3d.cli import main
from laby3d.errors import MazeFileError
from laby3d.maze.classroom import classroom_from_text, classroom_json, classroom_py, python_literal
from laby3d.maze.convert import from_classroom, to_classroom

PUPIL = Path(__file__).parent / "data" / "pupil_exercise.py"


def pupil(*args: str) -> object:
    """Run the pupil's program and read what it prints (JSON)."""
    done = subprocess.run([sys.executable, str(PUPIL), *args], check=True, capture_output=True, text=True)
    return json.loads(done.stdout)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_a_pupils_maze_goes_to_print_and_comes_back_the_same(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    form = pupil("make", "6", "8", "11")
    (tmp_path / "pupil.json").write_text(json.dumps(form))
    status, out, _ = run(
        [
            "import",
            str(tmp_path / "pupil.json"),
            "-o",
            str(tmp_path / "m.maze.json"),
            "-o",
            str(tmp_path / "m.stl"),
            "-o",
            str(tmp_path / "m.worksheet.pdf"),
            "-o",
            str(tmp_path / "back.classroom.json"),
        ],
        capsys,
    )
    assert status == 0 and "entrance → exit: (0, 0) W → (5, 7) E" in out
    assert json.loads((tmp_path / "back.classroom.json").read_text()) == form  # the form round-trips exactly
    maze_file = json.loads((tmp_path / "m.maze.json").read_text())
    assert maze_file["entrance"] == {"row": 0, "col": 0, "side": "W"}
    assert maze_file["exit"] == {"row": 5, "col": 7, "side": "E"}
    assert pupil("walk", str(tmp_path / "back.classroom.json")) == maze_file["solution"]
    assert (tmp_path / "m.stl").stat().st_size > 84 and (tmp_path / "m.worksheet.pdf").read_bytes().startswith(b"%PDF")


def test_a_python_literal_is_read_never_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    form = pupil("make", "4", "5", "2")
    source = tmp_path / "mon_labyrinthe.py"
    source.write_text(f"# mon labyrinthe\nlabyrinthe = {form!r}\n")
    assert run(["import", str(source), "-o", str(tmp_path / "back.classroom.py")], capsys)[0] == 0
    written = (tmp_path / "back.classroom.py").read_text()
    assert python_literal(written) == form
    assert pupil("walk", str(tmp_path / "back.classroom.py")) == [list(cell) for cell in from_classroom(form).solution]
    # what print(labyrinthe) gives, through standard input
    sys_stdin = sys.stdin
    try:
        sys.stdin = io.TextIOWrapper(io.BytesIO(repr(form).encode()))
        assert run(["import", "-", "-o", str(tmp_path / "stdin.classroom.json")], capsys)[0] == 0
    finally:
        sys.stdin = sys_stdin
    assert json.loads((tmp_path / "stdin.classroom.json").read_text()) == form
    hostile = tmp_path / "hostile.py"
    marker = tmp_path / "ran"
    hostile.write_text(f"labyrinthe = __import__('pathlib').Path({str(marker)!r}).touch()\n")
    status, _, err = run(["import", str(hostile), "-o", str(tmp_path / "h.maze.json")], capsys)
    assert status == 2 and "only lists, dicts" in err and len(err.splitlines()) == 1
    assert not marker.exists() and not (tmp_path / "h.maze.json").exists()


@pytest.mark.parametrize(
    "placement",
    [
        {},
        {"placement": "hardest"},
        {"placement": "opposite-sides"},
        {"placement": "center"},
        {"placement": "explicit", "entrance": "4,2,S", "exit": "0,3,N"},  # the entrance comes last
    ],
)
def test_laby3d_mazes_go_through_the_form_and_back(placement: dict[str, str]) -> None:
    maze = laby3d.generate(5, 6, seed=8, **placement)
    for text in (classroom_json(maze), classroom_py(maze)):
        back = classroom_from_text(text)
        assert back.grid.cells.tolist() == maze.grid.cells.tolist()
        assert (back.entrance, back.exit) == (maze.entrance, maze.exit)
    form = to_classroom(maze)
    marked = any("entree" in cell for row in form for cell in row)
    openings = [
        (maze.entrance.row, maze.entrance.col, maze.entrance.side),
        (maze.exit.row, maze.exit.col, maze.exit.side),
    ]
    in_reading_order = None not in (maze.entrance.side, maze.exit.side) and openings == sorted(
        openings, key=lambda o: (o[0], o[1], "NESW".index(o[2]))
    )
    assert marked == (not in_reading_order)  # marks only where reading order would be wrong


def form_of(rows: int, cols: int) -> list[list[dict[str, bool]]]:
    return to_classroom(laby3d.generate(rows, cols, seed=5))


def bad(change) -> list[list[dict[str, object]]]:  # type: ignore[no-untyped-def]
    form = form_of(3, 4)
    change(form)
    return form


@pytest.mark.parametrize(
    ("form", "message"),
    [
        (
            bad(lambda f: f[2][1].update(S=True)),
            r"exactly two open sides.*open: 3: cell \(0, 0\) side O, cell \(2, 1\) side S",
        ),
        (bad(lambda f: f[2][3].update(E=False)), r"exactly two open sides.*open: 1: cell \(0, 0\) side O"),
        (bad(lambda f: (f[0][0].update(O=False), f[2][3].update(E=False))), r"open: none"),
        (bad(lambda f: f[1][1].update(N=1)), r"cell \(1, 1\) side N must be True \(open\) or False, got 1"),
        (bad(lambda f: f[1][2].pop("S")), r"cell \(1, 2\) lacks side S"),
        (bad(lambda f: f[0][1].update(X=True)), r"cell \(0, 1\) has an unknown key 'X'"),
        (bad(lambda f: f[1][1].update(E=not f[1][1]["E"])), r"open on one side only"),
        (bad(lambda f: f[1].pop()), r"row 1 must be a list of 4 cells"),
        ([], r"non-empty list of rows"),
    ],
)
def test_a_wrong_form_is_refused_naming_the_cell(form: object, message: str) -> None:
    with pytest.raises(MazeFileError, match=message):
        from_classroom(form)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 50 + "]" * 50, "nest 50 deep"),
        ("x = [" + "[], " * 300_000 + "]", "holds 300,001 .* and 300,000 commas"),
        ("[[{'N': True}]]\nprint('hi')", "line 2: 'print' is not a value"),
        ("[[{'N': True}]]\n[1]", "line 2 holds more"),
        ("[[{'N': True}]", "neither JSON"),
        ("labyrinthe = [[{'N': open('/etc/passwd')}]]", "only lists, dicts"),
        ("a, b = 1, 2", "line 1: 'b' is not a value"),
        ("a = b = [1]", "line 1: 'b' is not a value"),
        ("(a) = [1]", "line 1: 'a' is not a value"),
    ],
)
def test_hostile_classroom_text_is_refused_before_or_instead_of_running(text: str, message: str) -> None:
    with pytest.raises(MazeFileError, match=message):
        classroom_from_text(text)


def test_the_python_reader_has_its_own_smaller_limit() -> None:
    from laby3d.maze.classroom import classroom_from_python

    with pytest.raises(MazeFileError, match=r"^holds 20,000 cells; a classroom file in Python holds at most 10,000$"):
        classroom_from_python("x = [" + "{}, " * 20_000 + "]")
    with pytest.raises(MazeFileError, match=r"holds 20,001 brackets .* \(at most 10,000 cells: a list per row"):
        classroom_from_python("x = [" + "[], " * 20_000 + "]")


def test_import_errors_are_one_line_and_write_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    form = form_of(3, 4)
    form[0][2]["N"] = True  # a third border opening
    path = tmp_path / "three.json"
    path.write_text(json.dumps(form))
    status, _, err = run(["import", str(path), "-o", str(tmp_path / "x.stl")], capsys)
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert "three.json" in err and "cell (0, 2) side N" in err
    assert list(tmp_path.iterdir()) == [path]
    status, _, err = run(["import", str(tmp_path / "missing.json"), "-o", str(tmp_path / "x.stl")], capsys)
    assert status == 2 and "missing.json: cannot read" in err


@pytest.mark.parametrize(("algorithm", "rows", "cols"), [("kruskal", 7, 9), ("kruskal", 1, 5), ("wilson", 5, 4)])
def test_pupils_replay_the_wall_order_and_get_the_maze(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], algorithm: str, rows: int, cols: int
) -> None:
    """The walls.csv file, replayed by the exercise's rule as a pupil would (numbers checked at
    every wall), opens exactly the maze file's passages."""
    import csv

    argv = ["generate", "-a", algorithm, "--rows", str(rows), "--cols", str(cols), "--seed", "4"]
    assert run([*argv, "-o", str(tmp_path / "m.walls.csv"), "-o", str(tmp_path / "m.maze.json")], capsys)[0] == 0
    with open(tmp_path / "m.walls.csv", newline="") as stream:
        walls = list(csv.DictReader(stream))
    number = [[r * cols + c for c in range(cols)] for r in range(rows)]
    opened = set()
    for step, wall in enumerate(walls, start=1):
        r, c, side = int(wall["row"]), int(wall["col"]), wall["side"]
        r2, c2 = (r, c + 1) if side == "E" else (r + 1, c)
        assert int(wall["step"]) == step
        assert (int(wall["first_number"]), int(wall["second_number"])) == (number[r][c], number[r2][c2])
        assert (wall["opened"] == "yes") == (number[r][c] != number[r2][c2])
        if wall["opened"] == "yes":
            opened.add((r, c, side))
            old = number[r2][c2]
            number = [[number[r][c] if value == old else value for value in line] for line in number]
    cells = json.loads((tmp_path / "m.maze.json").read_text())["cells"]
    inside = {"E": lambda r, c: c < cols - 1, "S": lambda r, c: r < rows - 1}  # not the exit's border side
    passages = {
        (r, c, side)
        for r in range(rows)
        for c in range(cols)
        for side, bit in (("E", 2), ("S", 4))
        if cells[r][c] & bit and inside[side](r, c)
    }
    assert opened == passages and len(opened) == rows * cols - 1
    assert walls[-1]["opened"] == "yes"  # Kruskal stops once one zone is left
    if algorithm != "kruskal":
        assert all(wall["opened"] == "yes" for wall in walls)
    elif rows > 1:
        assert any(wall["opened"] == "no" for wall in walls)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_handout_replays_the_maze_on_two_a4_pages(tmp_path: Path, lang: str) -> None:
    """Read back with poppler: two A4 pages, the rule in the language, the walls' table that,
    replayed by the exercise's rule (written here), opens exactly the maze's passages, the first
    row filled in with the right numbers, every word on the paper."""
    import re

    from laby3d.draw.handout import grid_handout_pdf as handout_pdf
    from tests.conftest import require_tool

    maze = laby3d.generate(5, 6, algorithm="kruskal", seed=2)
    path = tmp_path / "handout.pdf"
    path.write_bytes(handout_pdf(maze, lang=lang))
    info = subprocess.run([require_tool("pdfinfo"), str(path)], check=True, capture_output=True, text=True).stdout
    assert re.search(r"Pages:\s+2\n", info) and "595.28 x 841.89 pts (A4)" in info
    pdftotext = require_tool("pdftotext")
    words = subprocess.run([pdftotext, "-raw", str(path), "-"], check=True, capture_output=True, text=True).stdout
    assert ("row × 6 + column" if lang == "en" else "ligne × 6 + colonne") in words
    walls = [(int(r), int(c), side) for r, c, side in re.findall(r"\((\d), (\d)\) ([ES])", words)]
    number = [[r * 6 + c for c in range(6)] for r in range(5)]
    opened, first_row = set(), None
    for r, c, side in walls:
        r2, c2 = (r, c + 1) if side == "E" else (r + 1, c)
        first_row = first_row or (number[r][c], number[r2][c2])
        if number[r][c] != number[r2][c2]:
            opened.add((r, c, side))
            old = number[r2][c2]
            number = [[number[r][c] if value == old else value for value in line] for line in number]
    passages = {(r, c, "E") for r in range(5) for c in range(5) if maze.grid.cells[r, c] & 2}
    passages |= {(r, c, "S") for r in range(4) for c in range(6) if maze.grid.cells[r, c] & 4}
    assert opened == passages and len({n for line in number for n in line}) == 1
    yes = "yes" if lang == "en" else "oui"
    assert re.search(
        rf"^1 \({walls[0][0]}, {walls[0][1]}\) {walls[0][2]} {first_row[0]} {first_row[1]} {yes}$", words, re.M
    )
    boxes = subprocess.run([pdftotext, "-bbox", str(path), "-"], check=True, capture_output=True, text=True).stdout
    right = max(float(x) for x in re.findall(r'xMax="([\d.]+)"', boxes))
    bottom = max(float(y) for y in re.findall(r'yMax="([\d.]+)"', boxes))
    assert right < 595.28 - 30 and bottom < 841.89 - 30


def test_a_handout_is_for_a_small_maze(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(["generate", "--rows", "6", "--cols", "6", "-o", str(tmp_path / "m.handout.pdf")], capsys)
    assert status == 2 and err.count("\n") == 1 and "--rows 6 with cols 6: a handout's maze has at most 30 cells" in err
    assert not list(tmp_path.iterdir())
    assert run(["generate", "--rows", "5", "--cols", "6", "-o", str(tmp_path / "m.handout.pdf")], capsys)[0] == 0


def test_import_refuses_options_no_file_reads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    form = tmp_path / "form.json"
    form.write_text(classroom_json(laby3d.generate(3, 4, seed=1)))
    for flags in (["--seed", "3"], ["--cell-size", "8"]):
        status, _, err = run(["import", str(form), "-o", str(tmp_path / "m.maze.json"), *flags], capsys)
        assert status == 2 and flags[0] in err and "has no effect" in err and len(err.splitlines()) == 1
    assert list(tmp_path.iterdir()) == [form]
    assert run(["import", str(form), "-o", str(tmp_path / "m.stl"), "--cell-size", "8"], capsys)[0] == 0


def test_the_handout_refusal_is_french_too() -> None:
    from laby3d.errors import ParameterError
    from laby3d.i18n import in_language
    from laby3d.options.build import validated_job

    with pytest.raises(ParameterError) as caught:
        validated_job({"maze": {"rows": 6, "cols": 6}, "formats": ["handout.pdf"]})
    assert caught.value.field == "maze.rows"
    assert in_language(caught.value.detail, "fr") == (
        "6 avec 6 colonnes : le labyrinthe d’une fiche élève a au plus 30 cases (par ex. 5×6), pas 36"
    )
