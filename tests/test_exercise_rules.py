"""The class exercise's own rules, as a teacher checks them against the pupils' work.

The oracle is a pupil's replay of ``.walls.csv``, written here from the exercise's text alone (it
uses none of laby3d's code): every cell starts with its number ``row × cols + col``; each row of
the file is a wall ``(row, col, side)`` named from its first cell, the exercise's
``fusionner(i, j, dir)``; when the two cells' numbers differ the wall opens and every cell with the
second's number takes the first's. The lesson's pages, the handout's "after step k" grids and
``laby3d show --sets-after K`` are read back (pdfplumber, the text art) and compared with it; the
zone numbers' size is measured in the lesson's PDF and against the font's own digit height
(fontTools on the DejaVu Sans file).
"""

from __future__ import annotations

import ast
import csv
import importlib.util
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from laby3d.cli import main

pdfplumber = pytest.importorskip("pdfplumber")

PUPIL = Path(__file__).parent / "data" / "pupil_exercise.py"
MOVES = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "O": (0, -1)}


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def replay(walls_csv: str, rows: int, cols: int) -> list[list[int]]:
    """A pupil's replay of the walls' file: the cells' numbers before the first row and after
    each; checks each row's numbers and opened column against it."""
    numbers = [r * cols + c for r in range(rows) for c in range(cols)]
    states = [list(numbers)]
    for line in csv.reader(io.StringIO(walls_csv.split("\n", 1)[1])):  # the header's language aside
        _, row_text, col_text, side, first, second, opened = line
        row, col = int(row_text), int(col_text)
        down, right = MOVES[{"W": "O"}.get(side, side)]
        a, b = numbers[row * cols + col], numbers[(row + down) * cols + col + right]
        assert (int(first), int(second)) == (a, b), line
        assert opened in (("yes", "oui") if a != b else ("no", "non")), line
        if a != b:
            numbers = [a if n == b else n for n in numbers]
        states.append(list(numbers))
    return states


def pdf_pages(data: bytes) -> list[tuple[str, list[dict]]]:
    """Each page's text and characters."""
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return [(page.extract_text(), list(page.chars)) for page in pdf.pages]


def lesson_by_step(data: bytes) -> dict[int, tuple[int, int, str, list[dict]]]:
    """The lesson's pages by their step: (total steps, zones, text, characters)."""
    found = {}
    for content, chars in pdf_pages(data):
        step = re.search(r"(?:step|étape) (\d+)/(\d+)", content)
        zones = re.search(r"zones ?: (\d+)", content)
        assert step and zones, content
        found[int(step[1])] = (int(step[2]), int(zones[1]), content, chars)
    return found


def page_numbers(chars: list[dict], rows: int, cols: int) -> list[int]:
    """The zone numbers written in the cells of a lesson page (its grey characters), in reading
    order."""
    digits = [
        c for c in chars if c["text"].isdigit() and tuple(c["non_stroking_color"] or (0,)) not in ((0,), (0, 0, 0))
    ]
    digits.sort(key=lambda c: (round(c["top"]), c["x0"]))
    words: list[list[dict]] = []
    for char in digits:  # one number: digits on one line, touching
        last = words[-1][-1] if words else None
        if last is not None and abs(last["top"] - char["top"]) < 1 and char["x0"] - last["x1"] < 1:
            words[-1].append(char)
        else:
            words.append([char])
    assert len(words) == rows * cols, len(words)
    return [int("".join(c["text"] for c in word)) for word in words]


def shown_numbers(text: str, rows: int, cols: int) -> list[int]:
    """The zone numbers ``laby3d show --sets-after`` writes in its cells (as wide as the widest
    number, a wall character between)."""
    lines = text.splitlines()
    width = (len(lines[0]) - 1) // cols
    return [int(lines[2 * r + 1][width * c + 1 : width * (c + 1)]) for r in range(rows) for c in range(cols)]


def generate(tmp_path: Path, capsys: pytest.CaptureFixture[str], seed: int, *more: str) -> dict[str, Path]:
    names = {
        ending: tmp_path / f"m{seed}.{ending}" for ending in ("walls.csv", "lesson.pdf", "handout.pdf", "maze.json")
    }
    argv = ["generate", "--rows", "5", "--cols", "6", "-a", "kruskal", "--seed", str(seed), *more]
    for path in names.values():
        argv += ["-o", str(path)]
    assert run(argv, capsys)[0] == 0
    return names


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
@pytest.mark.parametrize("numbering", [(), ("--numbering", "drawn-side")], ids=["west-north", "drawn-side"])
def test_after_step_k_is_one_state_on_the_handout_the_lesson_walls_csv_and_show(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], numbering: tuple[str, ...]
) -> None:
    """A step is a wall drawn, rejected ones included (as the exercise counts): the lesson has a
    page per row of the handout's table, and after step k the lesson, show and the pupil's replay
    of walls.csv agree on every cell's number and on the zones left."""
    files = generate(tmp_path, capsys, 3, "--lang", "fr", *numbering)
    states = replay(files["walls.csv"].read_text(), 5, 6)
    drawn = len(states) - 1
    assert drawn > 29, "the maze must have rejected walls"
    pages = lesson_by_step(files["lesson.pdf"].read_bytes())
    assert sorted(pages) == list(range(drawn + 1)), "a lesson page for every step of the handout"
    handout = pdf_pages(files["handout.pdf"].read_bytes())
    after = [int(k) for k in re.findall(r"Après l’étape (\d+)", handout[1][0])]
    assert len(after) == 4 and all(0 < k <= drawn for k in after)
    table_steps = re.findall(r"(?:^| )(\d+) \(\d, \d\) [NESO]", handout[0][0], flags=re.MULTILINE)
    assert sorted(map(int, table_steps)) == list(range(1, drawn + 1)), "the table lists every wall drawn"
    for step, (total, zones, _, chars) in pages.items():
        assert total == drawn
        assert zones == len(set(states[step])), step
        assert page_numbers(chars, 5, 6) == states[step], step
    for step in {*after, 16}:
        status, out, _ = run(
            ["show", "--input", str(files["maze.json"]), "--sets-after", str(step), *numbering], capsys
        )
        assert status == 0 and shown_numbers(out, 5, 6) == states[step], (step, out)


def test_drawn_side_follows_fusionner_from_any_side(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With --numbering drawn-side a wall is named from either cell (all four sides appear), the
    first cell named gives its number (the pupil's replay of every row agrees), and the numbers
    differ from the default numbering's (west or north cell first) on most mazes."""
    sides_seen: set[str] = set()
    final: dict[str, list[list[int]]] = {"west-north": [], "drawn-side": []}
    for seed in range(6):
        for numbering in final:
            path = tmp_path / f"{numbering}{seed}.walls.csv"
            argv = ["generate", "--rows", "4", "--cols", "5", "--seed", str(seed), "--numbering", numbering]
            assert run([*argv, "-o", str(path)], capsys)[0] == 0
            text = path.read_text()
            states = replay(text, 4, 5)
            final[numbering].append(states[len(states) // 2])
            sides = {line["side"] for line in csv.DictReader(io.StringIO(text))}
            if numbering == "west-north":
                assert sides <= {"E", "S"}
            else:
                sides_seen |= sides
    assert sides_seen == {"N", "E", "S", "O"}
    assert sum(a != b for a, b in zip(final["west-north"], final["drawn-side"], strict=True)) >= 4


def test_drawn_side_is_reproducible_and_leaves_the_maze_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outputs = []
    for numbering in ("west-north", "drawn-side", "drawn-side"):
        prefix = tmp_path / numbering
        prefix.mkdir(exist_ok=True)
        argv = ["generate", "--rows", "4", "--cols", "4", "--seed", "9", "--numbering", numbering]
        assert run([*argv, "-o", str(prefix / "m.maze.json"), "-o", str(prefix / "m.walls.csv")], capsys)[0] == 0
        outputs.append(((prefix / "m.maze.json").read_bytes(), (prefix / "m.walls.csv").read_bytes()))
    assert outputs[0][0] == outputs[1][0], "the numbering does not change the maze"
    assert outputs[1] == outputs[2] and outputs[0][1] != outputs[1][1]


def closed_form(rows: int, cols: int, seed: int) -> list:
    """A pupil's maze whose program has not opened an entrance and an exit yet."""
    done = subprocess.run(
        [sys.executable, str(PUPIL), "make", str(rows), str(cols), str(seed)],
        check=True,
        capture_output=True,
        text=True,
    )
    form = json.loads(done.stdout)
    form[0][0]["O"] = False
    form[-1][-1]["E"] = False
    return form


def test_import_opens_a_closed_maze_with_placement(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "ferme.json"
    source.write_text(json.dumps(closed_form(4, 6, 5)))
    status, _, err = run(["import", str(source), "-o", str(tmp_path / "x.maze.json")], capsys)
    assert status != 0 and "--placement corners or opposite-sides" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x.maze.json").exists()

    out = tmp_path / "corners.classroom.json"
    assert run(["import", str(source), "--placement", "corners", "-o", str(out)], capsys)[0] == 0
    opened = json.loads(out.read_text())
    assert opened[0][0]["O"] and opened[-1][-1]["E"]
    walk = subprocess.run([sys.executable, str(PUPIL), "walk", str(out)], check=True, capture_output=True, text=True)
    path = json.loads(walk.stdout)
    assert path[0] == [0, 0] and path[-1] == [3, 5]  # the pupil's own walk finds the way through

    bytes_seen = []
    for _ in range(2):
        sides = tmp_path / "sides.classroom.json"
        argv = ["import", str(source), "--placement", "opposite-sides", "--seed", "4", "-o", str(sides)]
        assert run(argv, capsys)[0] == 0
        bytes_seen.append(sides.read_bytes())
    assert bytes_seen[0] == bytes_seen[1]
    form = json.loads(bytes_seen[0])
    west = [r for r, row in enumerate(form) if row[0]["O"]]
    east = [r for r, row in enumerate(form) if row[-1]["E"]]
    assert len(west) == 1 and len(east) == 1

    status, _, err = run(["import", str(out), "--placement", "corners", "-o", str(tmp_path / "y.maze.json")], capsys)
    assert status != 0 and "--placement opens a closed maze" in err
    status, _, err = run(["import", str(source), "--placement", "hardest", "-o", str(tmp_path / "y.maze.json")], capsys)
    assert status != 0 and "--placement" in err and "corners or opposite-sides" in err
    status, _, err = run(["import", str(source), "--seed", "3", "-o", str(tmp_path / "y.maze.json")], capsys)
    assert status != 0 and "--seed" in err


def test_show_compact_prints_what_the_exercises_print_gives(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    maze_file = tmp_path / "m.maze.json"
    assert run(["generate", "--rows", "4", "--cols", "5", "--seed", "2", "-o", str(maze_file)], capsys)[0] == 0
    status, out, _ = run(["show", "--input", str(maze_file), "--compact"], capsys)
    assert status == 0 and out.count("\n") == 1
    form = ast.literal_eval(out)
    assert out == f"{form}\n", "the layout print(labyrinthe) gives"
    assert all(set(cell) == {"N", "E", "S", "O"} for row in form for cell in row)
    source = tmp_path / "printed.py"
    source.write_text(f"labyrinthe = {out}")
    walk = subprocess.run([sys.executable, str(PUPIL), "walk", str(source)], check=True, capture_output=True, text=True)
    assert json.loads(walk.stdout) == json.loads(maze_file.read_text())["solution"]
    status, out, _ = run(["show", "--input", str(maze_file), "--compact", "--sets-after", "0"], capsys)
    assert [cell["zone"] for row in ast.literal_eval(out) for cell in row] == list(range(20))
    status, _, err = run(["show", "--input", str(maze_file), "--compact", "--solution"], capsys)
    assert status != 0 and "--solution" in err


def digit_height_em() -> float:
    """Height of DejaVu Sans's digits (the font the lesson embeds) as a fraction of its size."""
    from fontTools.ttLib import TTFont

    spec = importlib.util.find_spec("matplotlib")
    assert spec is not None and spec.submodule_search_locations
    font = TTFont(Path(spec.submodule_search_locations[0]) / "mpl-data" / "fonts" / "ttf" / "DejaVuSans.ttf")
    glyphs = font["glyf"]
    names = font.getBestCmap()
    return min(glyphs[names[ord(d)]].yMax for d in "0123456789") / font["head"].unitsPerEm


@pytest.mark.parametrize(
    "size",
    [
        ("--rows", "2", "--cols", "3"),
        ("--rows", "5", "--cols", "6"),
        ("--rows", "8", "--cols", "8"),
        ("--rows", "3", "--cols", "8"),
        ("--shape", "hex", "--rows", "8", "--cols", "8"),
        ("--shape", "triangle", "--rows", "4", "--cols", "8"),
        ("--shape", "theta", "--rows", "4"),
    ],
)
@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_lesson_numbers_read_from_the_back_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], size: tuple[str, ...]
) -> None:
    """Zone numbers' digits are ≥ 4 mm high on the page printed on A4 (fitted within 10 mm
    margins) and ≥ 1/30 of the page's height on a projector (the page filling the screen's
    height), measured on the PDF's characters."""
    lesson = tmp_path / "m.lesson.pdf"
    assert run(["generate", *size, "--seed", "1", "--every", "7", "-o", str(lesson)], capsys)[0] == 0
    digit = digit_height_em()
    with pdfplumber.open(lesson) as pdf:
        for page in pdf.pages:
            numbers = [c for c in page.chars if tuple(c["non_stroking_color"] or (0,)) not in ((0,), (0, 0, 0))]
            assert numbers, "the page writes the zone numbers"
            width_mm, height_mm = page.width * 25.4 / 72, page.height * 25.4 / 72
            on_a4 = min(190 / width_mm, 277 / height_mm)
            smallest = min(c["size"] for c in numbers) * digit
            assert smallest * 25.4 / 72 * on_a4 >= 4.0, (size, smallest)
            assert smallest / page.height >= 1 / 30, (size, smallest / page.height)
