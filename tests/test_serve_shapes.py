"""The class web app with mazes of other shapes: the shape field of the form (theta's rings
explained), a preview drawn for every shape (checked by rsvg-convert, its walls the maze file's
closed walls) with its solid's report and 3D view, and a class set whose pupils chose other
shapes."""

from __future__ import annotations

import io
import re
import subprocess
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

import numpy as np
import pytest
from conftest import require_tool

pytest.importorskip("starlette")

from shapedcheck import body_count, edge_problems, read_stl  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from test_serve import FAST, classroom, join, post, save, teacher  # noqa: E402
from test_shaped_pictures import expected_walls, file_of, same_segments  # noqa: E402

import laby3d  # noqa: E402
from laby3d.options.solid import PrintSpec  # noqa: E402
from laby3d.serve.app import create_app  # noqa: E402

SHAPES = {"square": (5, 6), "theta": (5, None), "hex": (5, 6), "triangle": (5, 8)}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory):
    room = classroom(tmp_path_factory.mktemp("shapes"))
    with TestClient(create_app(room, workers=1, warm=False, rate=FAST)) as test_client:
        yield test_client


def design(shape: str, seed: int = 5) -> dict[str, object]:
    rows, cols = SHAPES[shape]
    options: dict[str, object] = {"maze.shape": shape, "maze.rows": rows, "seed": seed, "print.cell_size": 8}
    if cols is not None:
        options["maze.cols"] = cols
    return options


def maze_of(shape: str, seed: int = 5) -> object:
    rows, cols = SHAPES[shape]
    return laby3d.generate(rows, cols, shape=shape, seed=seed)


def test_the_form_offers_the_shape_and_says_what_theta_rows_are(client: TestClient) -> None:
    fields = {spec["path"]: spec for spec in client.get("/api/options").json()["fields"]}
    shape = fields["maze.shape"]
    assert shape["group"] == "main" and shape["choices"] == ["square", "theta", "hex", "triangle"]
    assert "rings" in shape["help"]
    assert fields["maze.rows"]["by_shape"]["theta"]["label"] == "rings"
    assert "centre" in fields["maze.rows"]["by_shape"]["theta"]["help"]
    assert fields["maze.cols"]["by_shape"]["theta"]["unused"] is True


def test_the_french_form_says_it_in_french(tmp_path: Path) -> None:
    config = tmp_path / "fr.yaml"
    config.write_text("defaults:\n  lang: fr\n", encoding="utf-8")
    with TestClient(create_app(classroom(tmp_path / "state", "4e", config), workers=1, warm=False)) as test_client:
        fields = {spec["path"]: spec for spec in test_client.get("/api/options").json()["fields"]}
    assert fields["maze.shape"]["choice_labels"][1] == "rond (theta)"
    assert fields["maze.rows"]["by_shape"]["theta"]["label"] == "anneaux"


@pytest.mark.parametrize("shape", SHAPES)
def test_every_shape_previews_and_rsvg_reads_it(client: TestClient, tmp_path: Path, shape: str) -> None:
    join(client, "Zoé")
    response = post(client, "/api/preview", {"options": design(shape)})
    assert response.status_code == 200, response.text
    data = response.json()
    svg = data["svg"]
    ET.fromstring(svg)
    (tmp_path / "preview.svg").write_text(svg, encoding="utf-8")
    png = tmp_path / "preview.png"
    done = subprocess.run(
        [require_tool("rsvg-convert"), str(tmp_path / "preview.svg"), "-o", str(png)], capture_output=True, text=True
    )
    assert done.returncode == 0 and not done.stderr, done.stderr
    assert png.read_bytes().startswith(b"\x89PNG")
    assert data["report"]["watertight"] and data["report"]["bodies"] == 1 and data["model"]
    if shape != "square":
        assert data["report"]["shape"] == shape and data["report"]["cells"] == maze_of(shape).cell_count
    model = client.get(data["model"])
    assert model.status_code == 200 and model.content.startswith(b"glTF")


@pytest.mark.parametrize("shape", ["theta", "hex", "triangle"])
def test_the_preview_draws_the_maze_files_closed_walls(client: TestClient, shape: str) -> None:
    """The preview's wall paths, read back from the SVG, are the closed walls worked out from the
    maze file of the same design (downloaded from the app)."""
    join(client, "Zoé")
    key = client.get("/api/me").json()["key"]
    assert save(client, key, design(shape, seed=9)).status_code == 200
    maze_file = client.get(f"/api/download/{key}.maze.json")
    assert maze_file.status_code == 200
    data = file_of(laby3d.Maze.from_json(maze_file.text))
    assert maze_file.text == maze_of(shape, seed=9).to_json()  # the library's maze (a class app maze is the CLI's)
    svg = ET.fromstring(client.get(f"/api/preview/{key}.svg").text)
    (walls,) = [node for node in svg.iter() if node.get("class") == "walls"]
    lines = [
        np.array([[float(v) for v in point.split(",")] for point in part.split("L")])
        for part in re.findall(r"M([^M]+)", walls.get("d"))
    ]
    expected = expected_walls(data)
    low = np.min([line.min(0) for line in lines], 0)
    low_e = np.min([line.min(0) for line in expected], 0)
    same_segments([(line - low) / 8 + low_e for line in lines], expected)  # 8 mm cells, y down in both
    assert float(walls.get("stroke-width")) == pytest.approx(PrintSpec().wall_thickness)  # mm


def test_a_shape_gives_the_formats_it_draws_and_refuses_the_others_in_words(client: TestClient) -> None:
    join(client, "Zoé")
    key = client.get("/api/me").json()["key"]
    assert save(client, key, design("hex")).status_code == 200
    png = client.get(f"/api/download/{key}.png")
    assert png.status_code == 200 and png.content == laby3d.render(maze_of("hex"), "png")
    sheet = client.get(f"/api/download/{key}.worksheet.pdf")
    assert sheet.status_code == 200 and sheet.content == laby3d.render(maze_of("hex"), "worksheet.pdf", label="Zoé")
    txt = client.get(f"/api/download/{key}.txt")
    assert txt.status_code == 422
    (error,) = txt.json()["errors"]
    assert "txt takes square mazes only" in error["message"] and "every format but" in error["message"]


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_a_class_set_with_pupils_of_other_shapes(tmp_path: Path) -> None:
    """The class's formats are the default four and text art: a pupil who chose a hex maze gets
    the formats that draw it (the solids among them: one closed body, read back by numpy-stl),
    the note says which not (text art); the booklet holds every pupil."""
    config = tmp_path / "class.yaml"
    config.write_text("defaults:\n  formats: [maze.json, stl, 3mf, worksheet.pdf, txt]\n", encoding="utf-8")
    room = classroom(tmp_path / "state", "5C", config)
    with TestClient(create_app(room, workers=1, warm=False, rate=FAST)) as test_client:
        for name, options in (("Ana", {"maze.rows": 5, "maze.cols": 5, "seed": 1}), ("Léo", design("hex"))):
            join(test_client, name)
            key = test_client.get("/api/me").json()["key"]
            assert save(test_client, key, options).status_code == 200
        exported = test_client.get("/api/teacher/class.yaml", headers=teacher(room)).text
        archive = test_client.get("/api/teacher/class.zip", headers=teacher(room))
    assert archive.status_code == 200, archive.text
    assert "# fewer files (the maze's shape): Léo: no txt: not drawn for hex mazes yet" in exported
    with zipfile.ZipFile(io.BytesIO(archive.content)) as zipped:
        names = zipped.namelist()
        note = zipped.read("README.txt").decode()
        booklet = zipped.read("5C.worksheet.pdf")
        (hex_stl,) = [name for name in names if name.startswith("Leo/") and name.endswith(".stl")]
        (tmp_path / "leo.stl").write_bytes(zipped.read(hex_stl))
    assert any(name.startswith("Leo/") and name.endswith(".worksheet.pdf") for name in names)
    assert any(name.startswith("Leo/") and name.endswith(".3mf") for name in names)
    assert not any(name.startswith("Leo/") and name.endswith(".txt") for name in names)
    assert any(name.startswith("Ana/") and name.endswith(".txt") for name in names)
    assert "Léo: no txt" in note
    _, triangles = read_stl(tmp_path / "leo.stl")
    assert edge_problems(triangles) == 0 and body_count(triangles) == 1
    pdftotext = require_tool("pdftotext")
    (tmp_path / "b.pdf").write_bytes(booklet)
    words = subprocess.run([pdftotext, str(tmp_path / "b.pdf"), "-"], capture_output=True, text=True).stdout
    assert "Ana" in words and "Léo" in words and "hexagons" in words


@pytest.mark.slow
def test_a_pupil_picks_theta_in_a_real_browser(tmp_path: Path) -> None:
    """Real key events in headless Chromium: choosing "theta" with the keyboard names the rows
    "rings", greys the unused columns, previews the round maze and shows its solid in the 3D
    view; no console error."""
    from test_serve_browser import Server, console_errors, hook, join, navigate, open_browser, preview_svg

    server = Server(tmp_path / "class")
    try:
        with open_browser() as page:
            navigate(page, server.url + "/", "window.laby3dServe && laby3dServe.ready")
            join(page, "Zoé")
            page.wait_for("laby3dServe.joined && laby3dServe.models >= 1", timeout=60)
            assert page.evaluate("document.querySelector('[data-path=\"maze.rows\"] label').textContent") == "rows"
            before = hook(page)["previews"]
            page.evaluate("document.getElementById('f-maze-shape').focus()")
            page.key("keyDown", "ArrowDown", "ArrowDown")  # square → theta
            page.key("keyUp", "ArrowDown", "ArrowDown")
            page.wait_for(f"laby3dServe.previews > {before}", timeout=20)
            assert page.evaluate("document.getElementById('f-maze-shape').value") == "theta"
            assert page.evaluate("document.querySelector('[data-path=\"maze.rows\"] label').textContent") == "rings"
            assert page.evaluate("document.querySelector('[data-path=\"maze.cols\"]').classList.contains('unused')")
            assert "<title>theta maze, 15 rings" in preview_svg(page)
            page.wait_for("laby3dServe.models >= 2", timeout=60)
            assert hook(page)["triangles"] > 0
            assert console_errors(page) == []
    finally:
        server.close()
