"""Outlines and braids in the class app: a pupil's outline is a built-in, ``text:…`` or an image
they uploaded, never a path on the server (absolute, relative, ``..``, a link planted in the
class's storage, another pupil's upload); uploads are checked from their bytes (size, kind,
pixels, a dark pixel) and stored by digest; a heart, a braided maze and an uploaded PNG mask
preview, save, download and go into the class set; a French class says every refusal in French."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import re
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("itsdangerous")

import networkx as nx  # noqa: E402
import shapely  # noqa: E402
from PIL import Image, ImageDraw  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from test_serve import FAST, SAME_ORIGIN, classroom, join, post, save, teacher  # noqa: E402

from laby3d.geometry.outlines import BUILT_IN  # noqa: E402
from laby3d.i18n.messages import SENTENCES  # noqa: E402
from laby3d.serve.app import create_app  # noqa: E402
from laby3d.serve.fields import field_specs  # noqa: E402
from laby3d.serve.storage import UPLOADS  # noqa: E402
from laby3d.serve.uploads import MAX_UPLOAD_BYTES  # noqa: E402

#: The L mask's board: 10 × 10 cells on a 100 × 100 pixel image, dark where x < 40 or y >= 60.
L_SIDE = 10


def png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def l_mask() -> bytes:
    """A dark L (the left 40 pixels and the bottom 40) on white, 100 × 100 pixels."""
    image = Image.new("L", (100, 100), 255)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 39, 99), fill=0)
    draw.rectangle((0, 60, 99, 99), fill=0)
    return png(image)


def l_cells() -> int:
    """The cells of a 10 × 10 board whose centre is dark on the L mask, counted by hand."""
    return sum(1 for r in range(L_SIDE) for c in range(L_SIDE) if (c + 0.5) * 10 < 40 or (r + 0.5) * 10 >= 60)


def upload(client: TestClient, data: bytes, name: str = "dessin.png", **headers: str):
    body = {"name": name, "data": base64.b64encode(data).decode()}
    return client.post("/api/upload", json=body, headers={**SAME_ORIGIN, **headers})


def preview(client: TestClient, options: dict):
    return post(client, "/api/preview", {"options": {"seed": 3, **options}})


def only_error(response) -> dict:
    assert response.status_code == 422, response.text
    errors = response.json()["errors"]
    assert len(errors) == 1 and "\n" not in errors[0]["message"], errors
    return errors[0]


def floor_area(svg: str) -> float:
    """The area of the preview's floor polygon (mm²), read with shapely."""
    points = re.search(r'<polygon points="([^"]+)"', svg).group(1)
    ring = [tuple(map(float, pair.split(","))) for pair in points.split()]
    return shapely.Polygon(ring).area


def box_area(svg: str) -> float:
    """The area of the preview's view box (mm²): the floor's bounding box."""
    _, _, width, height = map(float, re.search(r'viewBox="([^"]+)"', svg).group(1).split())
    return width * height


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory):
    return classroom(tmp_path_factory.mktemp("outlines"))


@pytest.fixture(scope="module")
def client(room):
    with TestClient(create_app(room, workers=1, rate=FAST)) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def outside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A valid outline image outside the class's storage: the server must never open it for a pupil."""
    path = tmp_path_factory.mktemp("teacher-files") / "logo.png"
    path.write_bytes(l_mask())
    return path


# --- 1. no path on the server --------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["absolute", "relative", "dotdot", "home", "etc", "spaces", "case"])
def test_a_pupil_cannot_name_a_file_of_the_server(client: TestClient, outside: Path, room, kind: str) -> None:
    """Each of these named a readable outline (or a system file) the server opened before."""
    typed = {
        "absolute": str(outside),
        "relative": os.path.relpath(outside, Path.cwd()),
        "dotdot": "../" * 12 + str(outside).lstrip("/"),
        "home": "~/../../" + str(outside).lstrip("/"),
        "etc": "/etc/passwd",
        "spaces": f"  {outside}  ",
        "case": "Heart",  # not a built-in: read as a file name before
    }[kind]
    join(client, "Ana")
    error = only_error(preview(client, {"maze.outline": typed, "maze.rows": 10, "maze.cols": 10}))
    assert error["field"] == "maze.outline"
    assert error["message"].startswith("--outline must be one of circle, hexagon, triangle, heart, star, ring")
    assert str(room.settings.folder) not in error["message"]
    # saving it is refused the same way, and nothing of it is kept
    assert only_error(save(client, "ana", {"maze.outline": typed}))["field"] == "maze.outline"


def test_the_refusal_names_every_built_in_outline_in_both_languages() -> None:
    english, french = SENTENCES["serve_outline_choice"]
    for name in BUILT_IN:
        assert re.search(rf"\b{name}\b", english) and re.search(rf"\b{name}\b", french), name


def test_the_library_reads_these_files_so_the_refusal_is_the_servers(outside: Path) -> None:
    """The oracle of the test above: the CLI's outline reader does open the file (it is a valid L)."""
    import laby3d

    maze = laby3d.generate(L_SIDE, L_SIDE, outline=str(outside), seed=1)
    assert maze.tessellation.cell_count == l_cells()


def test_another_pupils_upload_or_an_unknown_one_is_refused(client: TestClient) -> None:
    join(client, "Bea")
    reference = upload(client, l_mask(), "bea.png").json()["outline"]
    ok = preview(client, {"maze.outline": reference, "maze.rows": 10, "maze.cols": 10})
    assert ok.status_code == 200, ok.text
    join(client, "Cleo")
    for typed in (reference, "upload:0123456789abcdef.png", "upload:../../etc/passwd", "upload:"):
        error = only_error(preview(client, {"maze.outline": typed, "maze.rows": 10, "maze.cols": 10}))
        assert error["field"] == "maze.outline", typed


def test_a_link_or_a_changed_file_in_the_storage_is_refused(client: TestClient, room, outside: Path) -> None:
    join(client, "Dora")
    data = l_mask()
    reference = upload(client, data, "dora.png").json()["outline"]
    stored = room.settings.folder / UPLOADS / reference.removeprefix("upload:")
    assert stored.read_bytes() == data
    assert preview(client, {"maze.outline": reference, "maze.rows": 10, "maze.cols": 10}).status_code == 200
    stored.unlink()
    stored.symlink_to(outside)  # the same bytes, behind a link: still refused
    error = only_error(preview(client, {"maze.outline": reference, "maze.rows": 10, "maze.cols": 10, "seed": 4}))
    assert error["field"] == "maze.outline"
    stored.unlink()
    stored.write_bytes(png(Image.new("L", (100, 100), 0)))  # other bytes under the digest's name
    error = only_error(preview(client, {"maze.outline": reference, "maze.rows": 10, "maze.cols": 10, "seed": 5}))
    assert error["field"] == "maze.outline"
    stored.unlink()  # gone: refused too, and the next upload of these bytes stores them again
    error = only_error(preview(client, {"maze.outline": reference, "maze.rows": 10, "maze.cols": 10, "seed": 6}))
    assert error["field"] == "maze.outline"


# --- 2. uploads ---------------------------------------------------------------------------------


def test_an_upload_is_stored_by_its_digest_with_its_kind_read_from_its_bytes(client: TestClient, room) -> None:
    join(client, "Eli")
    data = l_mask()
    answer = upload(client, data, "mon logo.svg")  # a PNG, whatever its name says
    assert answer.status_code == 200, answer.text
    digest = hashlib.sha256(data).hexdigest()
    assert answer.json() == {"outline": f"upload:{digest[:16]}.png", "name": "mon logo.svg"}
    stored = room.settings.folder / UPLOADS / f"{digest[:16]}.png"
    assert stored.read_bytes() == data and (stored.stat().st_mode & 0o077) == 0
    again = upload(client, data, "autre.png")
    assert again.json()["outline"] == answer.json()["outline"]
    assert sorted(p.name for p in stored.parent.iterdir()).count(stored.name) == 1


def svg(body: str) -> bytes:
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">{body}</svg>'.encode()


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (b"", "is empty"),
        (b"\x89PNG\r\n\x1a\n" + b"\0" * MAX_UPLOAD_BYTES, "is 1 MB, an uploaded image has at most 1 MB"),
        (b"hello, I am text", "is not an SVG, PNG or JPEG image"),
        (b"<html><body>no</body></html>", "is not an SVG, PNG or JPEG image"),
        (l_mask()[:60], "is not a PNG or JPEG image that can be read"),
        (png(Image.new("1", (5000, 4000), 1)), "is 5000×4000 pixels, an outline image has at most 16,000,000"),
        (png(Image.new("L", (50, 50), 255)), "has no dark pixel"),
        (svg('<rect width="4" height="4" fill="none" stroke="black"/>'), "has no filled shape"),
    ],
    ids=["empty", "too-big", "text", "html", "truncated", "pixels", "white", "svg-unfilled"],
)
def test_a_bad_upload_is_refused_in_one_line(client: TestClient, room, data: bytes, said: str) -> None:
    join(client, "Fay")
    before = set((room.settings.folder / UPLOADS).glob("*")) if (room.settings.folder / UPLOADS).exists() else set()
    error = only_error(upload(client, data, "essai.png"))
    assert error["field"] == "maze.outline" and said in error["message"], error
    assert "essai.png" in error["message"] or said == "is 1 MB, an uploaded image has at most 1 MB"
    after = set((room.settings.folder / UPLOADS).glob("*")) if (room.settings.folder / UPLOADS).exists() else set()
    assert after == before


def test_an_svg_upload_previews(client: TestClient) -> None:
    join(client, "Gus")
    triangle = svg('<path d="M5 0 L10 10 L0 10 Z" fill="black"/>')
    reference = upload(client, triangle, "triangle.svg").json()["outline"]
    assert reference.endswith(".svg")
    assert preview(client, {"maze.outline": reference, "maze.rows": 8, "maze.cols": 8}).status_code == 200


def test_an_oversized_request_is_refused_before_it_is_read(client: TestClient) -> None:
    join(client, "Hugo")
    huge = {"name": "x.png", "data": "A" * (2 * MAX_UPLOAD_BYTES)}
    response = client.post("/api/upload", json=huge, headers=SAME_ORIGIN)
    assert response.status_code == 413
    assert response.json()["errors"][0] == {
        "field": "maze.outline",
        "message": "the image is more than 1 MB: a smaller image works as well",
    }


def test_a_pupil_uploads_a_bounded_number_of_images_and_a_full_disk_keeps_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    import laby3d.serve.app

    monkeypatch.setattr(laby3d.serve.app, "MAX_UPLOADS", 2)
    room = classroom(tmp_path / "state")
    with TestClient(create_app(room, workers=1, warm=False, rate=FAST)) as test_client:
        join(test_client, "Olga")
        for side in (20, 21):
            assert upload(test_client, png(Image.new("L", (side, side), 0))).status_code == 200
        error = only_error(upload(test_client, png(Image.new("L", (22, 22), 0))))
        assert error == {
            "field": "maze.outline",
            "message": "you have uploaded 2 images already, the most a pupil may in this class",
        }
        join(test_client, "Paul")
        real_replace = os.replace

        def disk_full(source, target):
            if str(target).endswith(".png"):
                raise OSError(errno.ENOSPC, "No space left on device")
            real_replace(source, target)

        monkeypatch.setattr(os, "replace", disk_full)
        response = upload(test_client, png(Image.new("L", (23, 23), 0)))
        monkeypatch.setattr(os, "replace", real_replace)
        assert response.status_code == 507
        assert response.json()["errors"][0]["message"].startswith("the server could not keep the image")
        assert sorted(p.name for p in (room.settings.folder / UPLOADS).iterdir()) == sorted(
            f"{hashlib.sha256(png(Image.new('L', (side, side), 0))).hexdigest()[:16]}.png" for side in (20, 21)
        )


def test_uploads_follow_the_rules_of_every_write(client: TestClient) -> None:
    join(client, "Ines")
    body = {"name": "x.png", "data": base64.b64encode(l_mask()).decode()}
    assert client.post("/api/upload", json=body).status_code == 403  # no Origin: not this server's page
    assert client.post("/api/upload", json=body, headers={"Origin": "http://evil.example"}).status_code == 403
    assert client.post("/api/upload", files={"file": l_mask()}, headers=SAME_ORIGIN).status_code == 403  # multipart
    assert post(client, "/api/upload", {"name": "x.png", "data": "not base64!"}).status_code == 400
    assert post(client, "/api/upload", {"data": body["data"]}).status_code == 400
    client.cookies.clear()
    assert client.post("/api/upload", json=body, headers=SAME_ORIGIN).status_code == 401  # no pupil


# --- 3. previews, the form, the class set --------------------------------------------------------


def passages_graph(maze_file: dict) -> nx.Graph:
    graph = nx.Graph()
    count = len(maze_file["cells"]) if "cells" in maze_file else maze_file["rows"] * maze_file["cols"]
    graph.add_nodes_from(range(count))
    graph.add_edges_from(map(tuple, maze_file["passages"]))
    return graph


def test_a_braided_heart_previews_cut_and_downloads_with_no_dead_end(client: TestClient) -> None:
    join(client, "Jade")
    full = preview(client, {"maze.rows": 12, "maze.cols": 12})
    heart = preview(client, {"maze.rows": 12, "maze.cols": 12, "maze.outline": "heart", "maze.braid": 100})
    assert heart.status_code == 200, heart.text
    assert 0.3 < floor_area(heart.json()["svg"]) / floor_area(full.json()["svg"]) < 0.85  # the heart's floor only
    model = client.get(heart.json()["model"])
    assert model.status_code == 200 and model.content[:4] == b"glTF"
    design = {"maze.rows": 12, "maze.cols": 12, "maze.outline": "heart", "maze.braid": 100, "seed": 3}
    assert save(client, "jade", design).status_code == 200
    maze_file = json.loads(client.get("/api/download/jade.maze.json").content)
    assert maze_file["outline"] == "heart" and 20 < len(maze_file["cells"]) < 144
    graph = passages_graph(maze_file)
    assert nx.is_connected(graph) and min(degree for _, degree in graph.degree) >= 2  # braid 100: no dead end
    assert graph.number_of_edges() > graph.number_of_nodes() - 1  # loops


def test_a_too_small_outline_is_one_line_on_the_field(client: TestClient) -> None:
    join(client, "Kim")
    error = only_error(preview(client, {"maze.rows": 2, "maze.cols": 2, "maze.outline": "star"}))
    assert error["field"] == "maze.outline"
    assert re.fullmatch(r"--outline 'star' holds \d of this board's 4 cells .*, at least 4: .*", error["message"])


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_an_uploaded_mask_previews_and_reaches_the_class_set(client: TestClient, room) -> None:
    join(client, "Léa")
    reference = upload(client, l_mask(), "l.png").json()["outline"]
    design = {"maze.rows": L_SIDE, "maze.cols": L_SIDE, "maze.outline": reference, "seed": 8}
    shown = preview(client, design)
    assert shown.status_code == 200, shown.text
    assert floor_area(shown.json()["svg"]) < 0.85 * box_area(shown.json()["svg"])  # an L, not its square
    assert save(client, "lea", design).status_code == 200
    maze_file = json.loads(client.get("/api/download/lea.maze.json").content)
    assert len(maze_file["cells"]) == l_cells()
    assert maze_file["outline"] == reference  # the pupil's reference, not where the server keeps it
    assert nx.is_tree(passages_graph(maze_file))
    # the teacher's re-render of the pupil's design, and the class set, find the file
    stl = client.get("/api/download/lea.stl", headers=teacher(room))
    assert stl.status_code == 200 and len(stl.content) > 84
    text = client.get("/api/teacher/class.yaml", headers=teacher(room)).text
    assert "left out (invalid design): Léa" not in text
    archive = zipfile.ZipFile(io.BytesIO(client.get("/api/teacher/class.zip", headers=teacher(room)).content))
    (found,) = [name for name in archive.namelist() if name.endswith(".maze.json") and "L" in name]
    assert len(json.loads(archive.read(found))["cells"]) == l_cells()


def test_the_form_offers_outline_and_braid_first_with_suggestions_and_an_upload() -> None:
    for lang in ("en", "fr"):
        specs = {spec["path"]: spec for spec in field_specs(lang)}
        outline, braid = specs["maze.outline"], specs["maze.braid"]
        assert outline["group"] == braid["group"] == "main"
        values = [item["value"] for item in outline["suggestions"]]
        assert values[:6] == ["circle", "hexagon", "triangle", "heart", "star", "ring"]
        assert outline["upload"]["max_bytes"] == MAX_UPLOAD_BYTES
        assert braid["min"] == 0 and braid["max"] == 100
    french = {item["value"]: item["label"] for item in specs["maze.outline"]["suggestions"]}
    assert french["heart"] == "cœur" and french["star"] == "étoile"


# --- the teacher's own files ----------------------------------------------------------------------


def test_the_teacher_names_a_file_beside_the_class_config(tmp_path: Path) -> None:
    (tmp_path / "ecole").mkdir()
    (tmp_path / "ecole" / "logo.png").write_bytes(l_mask())
    config = tmp_path / "ecole" / "classe.yaml"
    config.write_text("defaults:\n  maze: {rows: 10, cols: 10, outline: logo.png}\n", encoding="utf-8")
    room = classroom(tmp_path / "state", "3e", config)
    assert room.settings.defaults["maze"]["outline"] == str(tmp_path / "ecole" / "logo.png")
    with TestClient(create_app(room, workers=1, warm=False, rate=FAST)) as test_client:
        join(test_client, "Max")
        assert preview(test_client, {}).status_code == 200
        save(test_client, "max", {"seed": 2})
        maze_file = json.loads(test_client.get("/api/download/max.maze.json").content)
        assert len(maze_file["cells"]) == l_cells()
        # a lock naming a file beside the config, and a lock on a teacher's upload
        locks = {"maze.outline": "logo.png"}
        answer = post(test_client, "/api/teacher/locks", {"locks": locks}, **teacher(room))
        assert answer.status_code == 200, answer.text
        assert answer.json()["locks"]["maze.outline"] == str(tmp_path / "ecole" / "logo.png")
        star = png(Image.new("L", (20, 20), 0))
        mine = upload(test_client, star, "plein.png", **teacher(room)).json()["outline"]
        answer = post(test_client, "/api/teacher/locks", {"locks": {"maze.outline": mine}}, **teacher(room))
        assert answer.status_code == 200, answer.text
        join(test_client, "Max")
        assert preview(test_client, {"maze.outline": mine, "seed": 6}).status_code == 200  # the teacher's: allowed
        save(test_client, "max", {"seed": 2})
        full = json.loads(test_client.get("/api/download/max.maze.json").content)  # a dark square: the whole board
        assert full["version"] == 1 and len(full["cells"]) == 10


# --- a French class -----------------------------------------------------------------------------

#: English words a refusal must not show a French pupil (the built-in outlines are typed as they are).
ENGLISH = re.compile(
    r"\b(must|got|one of|holds|cells|board|image uploaded|is not|has no|dark|empty|bytes|file|smaller|"
    r"works|button|beside|uploaded|pixels, an|at most|at least)\b"
)


@pytest.fixture(scope="module")
def french(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("fr")
    config = folder / "classe.yaml"
    config.write_text("defaults:\n  lang: fr\n", encoding="utf-8")
    with TestClient(create_app(classroom(folder / "state", "2nde B", config), workers=1, rate=FAST)) as test_client:
        yield test_client


def test_a_french_class_hears_every_outline_refusal_in_french(french: TestClient) -> None:
    join(french, "Zoé")
    messages = [
        only_error(preview(french, {"maze.outline": "/etc/passwd"}))["message"],
        only_error(preview(french, {"maze.outline": "upload:0123456789abcdef.png"}))["message"],
        only_error(preview(french, {"maze.rows": 2, "maze.cols": 2, "maze.outline": "star"}))["message"],
        only_error(preview(french, {"maze.outline": "text:" + "A" * 13}))["message"],
        only_error(upload(french, b"", "vide.png"))["message"],
        only_error(upload(french, b"bonjour", "texte.png"))["message"],
        only_error(upload(french, png(Image.new("L", (50, 50), 255)), "blanc.png"))["message"],
        only_error(upload(french, l_mask()[:60], "coupé.png"))["message"],
        only_error(upload(french, png(Image.new("1", (5000, 4000), 1)), "géant.png"))["message"],
        only_error(upload(french, b"\x89PNG\r\n\x1a\n" + b"\0" * MAX_UPLOAD_BYTES, "lourd.png"))["message"],
        only_error(upload(french, svg('<rect width="4" height="4" fill="none"/>'), "vide.svg"))["message"],
    ]
    assert messages[0] == (
        "Contour : doit être l’une des formes « circle » (disque), « hexagon » (hexagone), « triangle », « heart » "
        "(cœur), « star » (étoile), « ring » (anneau), « text:MOT », ou une image envoyée avec le bouton à côté, "
        "pas '/etc/passwd'"
    )
    assert messages[2].startswith("Contour : 'star' ne garde que ") and "il en faut au moins 4" in messages[2]
    assert messages[6] == "Contour : blanc.png n’a aucun pixel foncé (le contour est la partie foncée de l’image)"
    assert "5000×4000 pixels" in messages[8] and "16 000 000" in messages[8]
    assert "1 Mo" in messages[9]
    for message in messages:
        assert message.startswith("Contour : ") and not ENGLISH.search(message), message


# --- in a real browser ----------------------------------------------------------------------------


@pytest.mark.slow
def test_a_pupil_uploads_a_mask_then_picks_a_braided_heart_in_a_real_browser(tmp_path: Path) -> None:
    from test_serve_browser import Server, console_errors, navigate, open_browser, preview_svg, type_into
    from test_serve_browser import join as join_page

    mask = tmp_path / "mon L.png"
    mask.write_bytes(l_mask())
    server = Server(tmp_path / "class")
    try:
        with open_browser() as page:
            navigate(page, server.url + "/", "window.laby3dServe && laby3dServe.ready")
            join_page(page, "Noé")
            page.wait_for("laby3dServe.joined && laby3dServe.models >= 1", timeout=60)
            main = page.evaluate("Array.from(document.querySelectorAll('#form > .field')).map(r => r.dataset.path)")
            assert main.index("maze.outline") < main.index("maze.braid") < main.index("maze.algorithm")
            offered = page.evaluate(
                "Array.from(document.querySelectorAll('#f-maze-outline-list option')).map(o => o.value)"
            )
            assert offered[:6] == ["circle", "hexagon", "triangle", "heart", "star", "ring"]

            type_into(page, "#f-maze-rows", "10")
            type_into(page, "#f-maze-cols", "10")
            before = page.evaluate("laby3dServe.previews")
            document = page.page("DOM.getDocument")["root"]["nodeId"]
            picker = page.page("DOM.querySelector", {"nodeId": document, "selector": "#outline-file"})["nodeId"]
            page.page("DOM.setFileInputFiles", {"files": [str(mask)], "nodeId": picker})
            page.wait_for(f"laby3dServe.uploads >= 1 && laby3dServe.previews > {before}", timeout=30)
            assert page.evaluate("document.getElementById('f-maze-outline').value").startswith("upload:")
            assert page.evaluate("document.getElementById('outline-upload-name').textContent") == "mon L.png ✓"
            assert floor_area(preview_svg(page)) < 0.85 * box_area(preview_svg(page))  # the L's floor, not a square

            before = page.evaluate("laby3dServe.previews")
            type_into(page, "#f-maze-outline", "heart")
            type_into(page, "#f-maze-braid", "100")
            page.wait_for(f"laby3dServe.previews > {before} && laby3dServe.svg.indexOf('polygon') > 0", timeout=30)

            before = page.evaluate("laby3dServe.errors")
            type_into(page, "#f-maze-rows", "2")
            type_into(page, "#f-maze-cols", "2")
            page.wait_for(f"laby3dServe.errors > {before}", timeout=30)
            page.wait_for("document.getElementById('f-maze-outline-error').textContent.length > 0", timeout=10)
            said = page.evaluate("document.getElementById('f-maze-outline-error').textContent")
            assert said.startswith("--outline 'heart' holds ") and "\n" not in said
            assert console_errors(page) == []
    finally:
        server.close()
