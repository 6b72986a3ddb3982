"""The class web app through the ASGI test client: every endpoint, validation errors with the
CLI's words, guards, rate limit, teacher token, restart persistence, downloads byte-identical to
the library and the CLI, and the class-set ZIP equal (SHA-256 per file) to ``laby3d batch`` on
the exported YAML."""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import os
import time
import zipfile
from pathlib import Path
from urllib.parse import quote
from xml.etree import ElementTree as ET

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

import laby3d  # noqa: E402
from laby3d.cli import main as cli_main  # noqa: E402
from laby3d.export.formats import FORMATS  # noqa: E402
from laby3d.maze.algorithms import ALGORITHMS  # noqa: E402
from laby3d.options.job import job_flag_fields  # noqa: E402
from laby3d.serve.app import create_app  # noqa: E402
from laby3d.serve.classroom import Classroom, settings_from_config  # noqa: E402
from laby3d.serve.http import MAX_BODY  # noqa: E402
from laby3d.serve.queue import Busy, RateLimit, RenderPool, RenderTimeout, WorkerLost  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def classroom(folder: Path, name: str = "2nde-A", config: Path | None = None) -> Classroom:
    return Classroom(settings_from_config(name, folder, config))


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Classroom:
    return classroom(tmp_path_factory.mktemp("class"))


@pytest.fixture(scope="module")
def client(room: Classroom):
    with TestClient(create_app(room, workers=1, rate=RateLimit(per_second=1000, burst=1000))) as test_client:
        yield test_client


def teacher(room: Classroom) -> dict[str, str]:
    return {"Authorization": f"Bearer {room.token}"}


# --- the form from the option fields -----------------------------------------------------------


def test_options_come_from_the_option_fields(client: TestClient) -> None:
    data = client.get("/api/options").json()
    fields = {spec["path"]: spec for spec in data["fields"]}
    declared = {path: (field, flags) for path, field, flags in job_flag_fields()}
    assert {"maze.rows", "maze.algorithm", "seed", "print.cell_size", "print.printer", "label"} <= set(fields)
    for path, spec in fields.items():
        field, flags = declared[path]
        assert spec["flag"] == flags[0]
        assert spec["help"] == field.description
        assert spec["default"] == field.default
    assert fields["maze.algorithm"]["choices"] == list(ALGORITHMS)
    assert fields["print.solution"]["choices"] == ["none", "groove", "ridge"]
    assert fields["print.cell_size"]["min"] == 1.0 and fields["print.nozzle"]["max"] == 5
    assert fields["print.margin"]["min"] == 0 and fields["print.solution_depth"]["max"] == 5000  # mm, MAX_SIZE_MM
    assert [f["name"] for f in data["formats"]] == list(FORMATS)


# --- pages and static files --------------------------------------------------------------------


def test_pages_escape_the_class_name_and_allow_only_own_scripts(tmp_path: Path) -> None:
    hostile = '</script><img src=x onerror="alert(1)">&'
    with TestClient(create_app(classroom(tmp_path, hostile), workers=1, warm=False)) as test_client:
        for path in ("/", "/teacher"):
            response = test_client.get(path)
            assert response.status_code == 200
            text = response.text
            assert "<img src=x" not in text and "</script><img" not in text
            assert "&lt;/script&gt;&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;" in text
            config = text.split('id="laby3d-config">', 1)[1].split("</script>", 1)[0]
            assert json.loads(config)["class"] == hostile
            policy = response.headers["content-security-policy"]
            assert "script-src 'self'" in policy and "unsafe-inline" not in policy
            assert response.headers["x-content-type-options"] == "nosniff"


def test_the_class_language_gives_the_pages_language(tmp_path: Path) -> None:
    config = tmp_path / "fr.yaml"
    config.write_text("defaults:\n  lang: fr\n  maze: {rows: 9}\n", encoding="utf-8")
    room = classroom(tmp_path / "state", "3e B", config)
    with TestClient(create_app(room, workers=1, warm=False)) as test_client:
        page = test_client.get("/").text
        assert '<html lang="fr">' in page and "Dessine ton labyrinthe" in page
        assert "Lot de la classe (ZIP)" in test_client.get("/teacher").text
        assert test_client.get("/api/options").json()["defaults"] == {"lang": "fr", "maze": {"rows": 9}}


def test_a_wrong_class_config_is_refused_naming_the_field(tmp_path: Path) -> None:
    config = tmp_path / "bad.yaml"
    config.write_text("defaults:\n  print: {nozzle: 0}\n", encoding="utf-8")
    with pytest.raises(laby3d.Laby3dError, match=r"bad.yaml: defaults.print.nozzle: must be >= 0.1, got 0"):
        classroom(tmp_path / "state", "x", config)


def test_static_files_by_name_only(client: TestClient) -> None:
    three = client.get("/static/three.js")
    assert three.status_code == 200 and "WebGLRenderer" in three.text
    for name in ("viewer.js", "form.js", "pupil.js", "teacher.js", "serve.css"):
        assert client.get(f"/static/{name}").status_code == 200
    for name in ("app.py", "..%2Fapp.py", "%2e%2e%2f__init__.py", "static"):
        assert client.get(f"/static/{name}").status_code == 404


# --- previews ----------------------------------------------------------------------------------


def test_preview_shows_the_maze_and_its_solid(client: TestClient) -> None:
    options = {"maze.rows": 6, "maze.cols": 9, "seed": 42, "print.cell_size": 8, "print.margin": 3}
    response = client.post("/api/preview", json={"options": options})
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["seed"] == 42
    svg = ET.fromstring(data["svg"])
    width, height = (float(v) for v in svg.get("viewBox").split()[2:])
    assert (width, height) == pytest.approx((9 * 8 + 2 * (3 + 0.8), 6 * 8 + 2 * (3 + 0.8)))
    report = data["report"]
    assert report["watertight"] and report["bodies"] == 1
    assert report["size_mm"][:2] == pytest.approx([width, height])
    assert data["summary"]["filament_g"] == report["mass"]["typical_g"]
    maze = laby3d.generate(6, 9, seed=42)
    expected = laby3d.render(maze, "glb", cell_size=8, margin=3)
    model = client.get(data["model"])
    assert model.status_code == 200 and model.content == expected


def test_preview_draws_a_seed_when_none_is_given(client: TestClient) -> None:
    first = client.post("/api/preview", json={"options": {"maze.rows": 3, "maze.cols": 3}}).json()
    again = client.post("/api/preview", json={"options": {"maze.rows": 3, "maze.cols": 3, "seed": first["seed"]}})
    assert again.json()["svg"] == first["svg"]


def test_model_needs_a_known_key(client: TestClient) -> None:
    assert client.get("/api/model.glb?key=" + "0" * 32).status_code == 404
    assert client.get("/api/model.glb?key=../../x").status_code == 404


@pytest.mark.parametrize(
    ("options", "flags"),
    [
        ({"print.wall_thickness": 12}, ["--wall-thickness", "12"]),
        ({"maze.rows": 0}, ["--rows", "0"]),
        ({"maze.algorithm": "nope"}, None),
        ({"print.nozzle": 0}, ["--nozzle", "0"]),
        ({"print.margin": 2, "label": "Ana", "print.label_position": "margin"}, ["--margin", "2", "--label", "Ana"]),
        ({"print.printer": "prusa-xxl"}, ["--printer", "prusa-xxl"]),
    ],
)
def test_errors_name_the_field_with_the_cli_message(client, tmp_path, capsys, options, flags) -> None:
    response = client.post("/api/preview", json={"options": {"maze.rows": 4, "maze.cols": 4, **options}})
    assert response.status_code == 422
    (error,) = response.json()["errors"]
    if flags is None:  # argparse refuses a wrong choice itself; the message names the choices
        assert error["field"] == "maze.algorithm" and "kruskal" in error["message"]
        return
    if "--label-position" not in flags and "print.label_position" in options:
        flags += ["--label-position", "margin"]
    code = cli_main(["generate", "--rows", "4", "--cols", "4", *flags, "-o", str(tmp_path / "m.stl")])
    assert code == 2
    stderr = capsys.readouterr().err
    assert stderr == f"laby3d: error: {error['message']}\n"
    assert error["flag"] == error["message"].split()[0]
    assert error["field"] in {path for path, _, _ in job_flag_fields()}


def test_class_app_refuses_big_mazes_and_unknown_options(client: TestClient) -> None:
    big = client.post("/api/preview", json={"options": {"maze.rows": 101}}).json()["errors"][0]
    assert big["field"] == "maze.rows" and "<= 100" in big["message"]
    unknown = client.post("/api/preview", json={"options": {"print.colour": "red"}}).json()["errors"][0]
    assert unknown["message"].startswith("print.colour is not an option")
    nested = client.post("/api/preview", json={"options": {"maze.rows": [1, 2]}})
    assert nested.status_code == 422 and nested.json()["errors"][0]["field"] == "maze.rows"
    assert client.post("/api/preview", json={"options": "rows=5"}).status_code == 422


def test_request_size_and_shape_guards(client: TestClient) -> None:
    huge = json.dumps({"options": {"label": "x" * MAX_BODY}})
    response = client.post("/api/preview", content=huge, headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    broken = client.post("/api/preview", content=b"{not json", headers={"Content-Type": "application/json"})
    assert broken.status_code == 400
    assert client.get("/api/preview").status_code == 405


# --- pupils: save, restore, download -----------------------------------------------------------


def test_saved_stl_is_byte_identical_to_the_library_and_the_cli(client: TestClient, tmp_path: Path) -> None:
    options = {"maze.rows": 7, "maze.cols": 5, "maze.algorithm": "wilson", "seed": 1234, "print.cell_size": 9}
    options |= {"print.wall_height": 6, "print.margin": 6, "label": "Zoé", "print.solution": "groove"}
    saved = client.post("/api/pupils/Zoé Martin", json={"options": options})
    assert saved.status_code == 200, saved.text
    assert saved.json()["key"] == "zoe-martin"
    stl = client.get("/api/download/zoe-martin.stl")
    assert stl.status_code == 200 and stl.headers["content-type"] == "model/stl"
    assert 'filename="zoe-martin.stl"' in stl.headers["content-disposition"]
    maze = laby3d.generate(7, 5, algorithm="wilson", seed=1234)
    library = laby3d.render(maze, "stl", cell_size=9, wall_height=6, margin=6, label="Zoé", solution="groove")
    assert stl.content == library
    flags = ["--rows", "7", "--cols", "5", "-a", "wilson", "--seed", "1234", "--cell-size", "9", "--wall-height", "6"]
    flags += ["--margin", "6", "--label", "Zoé", "--solution", "groove"]
    assert cli_main(["generate", *flags, "-o", str(tmp_path / "m.stl")]) == 0
    assert (tmp_path / "m.stl").read_bytes() == stl.content
    thumbnail = client.get("/api/preview/zoe-martin.svg")
    assert thumbnail.headers["content-type"] == "image/svg+xml"
    assert thumbnail.text == client.post("/api/preview", json={"options": options}).json()["svg"]
    assert client.get("/api/preview/nobody.svg").status_code == 404
    assert client.get("/api/preview/zoe-martin.stl").status_code == 404
    restored = client.get("/api/pupils/Zoé Martin").json()
    assert restored["design"] == options and restored["name"] == "Zoé Martin"


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_every_format_downloads(client: TestClient, fmt: str) -> None:
    options = {"maze.rows": 4, "maze.cols": 5, "seed": 9, "print.margin": 5, "label": "Ben"}
    assert client.post("/api/pupils/Ben", json={"options": options}).status_code == 200
    response = client.get(f"/api/download/ben.{fmt}")
    assert response.status_code == 200, response.text
    expected_type = {"png": "image/png", "pdf": "application/pdf", "svg": "image/svg+xml", "gif": "image/gif"}
    suffix = fmt.rsplit(".", 1)[-1]
    assert response.headers["content-type"] == expected_type.get(suffix, response.headers["content-type"])
    assert response.headers["content-type"] != "application/octet-stream"
    maze = laby3d.generate(4, 5, seed=9)
    assert response.content == laby3d.render(maze, fmt, margin=5, label="Ben")


def test_downloads_take_no_path_from_the_client(client: TestClient, room: Classroom) -> None:
    hostile = "../../etc/passwd"
    saved = client.post(f"/api/pupils/{hostile.replace('/', '%2F')}", json={"options": {"maze.rows": 2, "seed": 1}})
    assert saved.status_code == 200 and saved.json()["key"] == "etc-passwd"
    for path in ("/api/download/..%2F..%2Fetc.stl", "/api/download/etc-passwd.exe", "/api/download/nobody.stl"):
        assert client.get(path).status_code == 404
    files = {p.name for p in room.store.path.parent.iterdir()}
    assert files <= {"class.sqlite3", "class.sqlite3-wal", "class.sqlite3-shm"}


def test_pupil_names_are_checked(client: TestClient) -> None:
    for name in (" ", "x" * 61, "tab\there"):
        response = client.post(f"/api/pupils/{quote(name)}", json={"options": {}})
        assert response.status_code == 422 and response.json()["errors"][0]["field"] == "name"
    assert client.get("/api/pupils/Nobody Here").status_code == 404


# --- teacher -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/teacher/pupils"),
        ("GET", "/api/teacher/locks"),
        ("POST", "/api/teacher/locks"),
        ("GET", "/api/teacher/class.yaml"),
        ("GET", "/api/teacher/class.zip"),
        ("DELETE", "/api/teacher/pupils/ben"),
    ],
)
def test_teacher_endpoints_need_the_token(client: TestClient, room: Classroom, method: str, path: str) -> None:
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": room.token}, {"X-Token": room.token}):
        response = client.request(method, path, headers=headers)
        assert response.status_code == 401
        assert "token" in response.json()["errors"][0]["message"]


def test_teacher_list_shows_pupils_with_status_and_estimates(client: TestClient, room: Classroom) -> None:
    client.post("/api/pupils/Ana", json={"options": {"maze.rows": 5, "maze.cols": 5, "seed": 5}})
    pupils = {p["name"]: p for p in client.get("/api/teacher/pupils", headers=teacher(room)).json()["pupils"]}
    ana = pupils["Ana"]
    assert ana["status"] == "ok" and ana["design"]["seed"] == 5
    assert ana["summary"]["filament_g"] > 0 and ana["summary"]["size_mm"] == [51.6, 51.6, 10.0]


def test_locks_apply_to_every_pupil_and_are_checked(tmp_path: Path) -> None:
    room = classroom(tmp_path)
    with TestClient(create_app(room, workers=1, warm=False)) as test_client:
        bad = test_client.post("/api/teacher/locks", json={"locks": {"print.printer": "nope"}}, headers=teacher(room))
        assert bad.status_code == 422 and bad.json()["errors"][0]["field"] == "print.printer"
        locks = {"print.printer": "mini", "maze.rows": 10, "maze.cols": 10}
        response = test_client.post("/api/teacher/locks", json={"locks": locks}, headers=teacher(room))
        assert response.json()["locks"] == locks
        assert test_client.get("/api/options").json()["locks"] == locks
        preview = test_client.post("/api/preview", json={"options": {"maze.rows": 30, "seed": 3}}).json()
        assert preview["report"]["printer"]["name"] == "mini" and preview["summary"]["print_time"]
        assert ET.fromstring(preview["svg"]).get("viewBox").split()[2:] == ["101.6", "101.6"]


def test_state_survives_a_restart(tmp_path: Path) -> None:
    first = classroom(tmp_path)
    with TestClient(create_app(first, workers=1, warm=False)) as test_client:
        test_client.post("/api/pupils/Élodie", json={"options": {"maze.rows": 3, "seed": 77}})
        test_client.post("/api/teacher/locks", json={"locks": {"print.nozzle": 0.6}}, headers=teacher(first))
    second = classroom(tmp_path)
    assert second.token == first.token
    with TestClient(create_app(second, workers=1, warm=False)) as test_client:
        pupils = test_client.get("/api/teacher/pupils", headers=teacher(second)).json()["pupils"]
        assert [(p["name"], p["design"]) for p in pupils] == [("Élodie", {"maze.rows": 3, "seed": 77})]
        assert test_client.get("/api/teacher/locks", headers=teacher(second)).json()["locks"] == {"print.nozzle": 0.6}
        removed = test_client.delete("/api/teacher/pupils/elodie", headers=teacher(second))
        assert removed.json() == {"removed": True}


def test_class_zip_equals_laby3d_batch_on_the_exported_yaml(tmp_path: Path) -> None:
    config = tmp_path / "class.yaml"
    config.write_text("defaults:\n  print: {printer: mini, margin: 6}\n  formats: [maze.json, stl, 3mf, svg]\n")
    room = classroom(tmp_path / "state", "3e B", config)
    with TestClient(create_app(room, workers=1, warm=False)) as test_client:
        for index, name in enumerate(["Ana", "Ben", "Chloé Dupont", "O'Connor"]):
            options = {"maze.rows": 4 + index, "maze.cols": 6, "seed": 100 + index, "label": name[:12]}
            assert test_client.post(f"/api/pupils/{name}", json={"options": options}).status_code == 200
        exported = test_client.get("/api/teacher/class.yaml", headers=teacher(room))
        assert exported.status_code == 200
        archive = test_client.get("/api/teacher/class.zip", headers=teacher(room))
        assert archive.status_code == 200 and archive.headers["content-type"] == "application/zip"
    (tmp_path / "exported.yaml").write_text(exported.text, encoding="utf-8")
    out = tmp_path / "batch"
    assert cli_main(["batch", str(tmp_path / "exported.yaml"), "--output-dir", str(out), "-j", "1"]) == 0
    on_disk = {
        p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in out.rglob("*")
        if p.is_file() and not p.name.startswith(".")
    }
    with zipfile.ZipFile(io.BytesIO(archive.content)) as zipped:
        in_zip = {name: hashlib.sha256(zipped.read(name)).hexdigest() for name in zipped.namelist()}
        manifest = json.loads(zipped.read("manifest.json"))
    assert set(in_zip) == set(on_disk)
    differing = {name for name in in_zip if in_zip[name] != on_disk[name]}
    assert differing == {"manifest.json"}  # timings differ; every file it lists is equal
    batch_manifest = json.loads((out / "manifest.json").read_text())
    assert [m["files"] for m in manifest["mazes"]] == [m["files"] for m in batch_manifest["mazes"]]
    assert manifest["failed"] == 0 and len(manifest["mazes"]) == 4
    assert any(name.endswith("Chloe-Dupont.stl") for name in in_zip)
    assert manifest["mazes"][0]["printability"]["printer"]["name"] == "mini"


def test_class_zip_needs_pupils(tmp_path: Path) -> None:
    room = classroom(tmp_path)
    with TestClient(create_app(room, workers=1, warm=False)) as test_client:
        assert test_client.get("/api/teacher/class.zip", headers=teacher(room)).status_code == 409


# --- rate limit, queue, timeout ----------------------------------------------------------------


def test_rate_limit_per_client(tmp_path: Path) -> None:
    app = create_app(classroom(tmp_path), workers=1, warm=False, rate=RateLimit(per_second=0.01, burst=3))
    with TestClient(app) as test_client:
        answers = [test_client.post("/api/preview", json={"options": {"maze.rows": 2, "seed": s}}) for s in range(5)]
        assert [a.status_code for a in answers] == [200, 200, 200, 429, 429]
        assert int(answers[3].headers["retry-after"]) > 0
        assert "too many renders" in answers[3].json()["errors"][0]["message"]
        assert test_client.get("/api/options").status_code == 200  # only renders are limited


def test_rate_limit_refills_and_keeps_clients_apart() -> None:
    now = [0.0]
    limit = RateLimit(per_second=2, burst=2, clock=lambda: now[0])
    assert [limit.allow("a") for _ in range(2)] == [0, 0]
    assert limit.allow("a") == pytest.approx(0.5)
    assert limit.allow("b") == 0
    now[0] += 0.5
    assert limit.allow("a") == 0


def test_render_pool_times_out_refuses_when_full_and_survives_a_dead_worker() -> None:
    async def scenario() -> None:
        pool = RenderPool(workers=1, queue=0)
        try:
            start = time.monotonic()
            with pytest.raises(RenderTimeout):
                await pool.run(time.sleep, 30, timeout=1)
            assert time.monotonic() - start < 10
            slow = asyncio.ensure_future(pool.run(time.sleep, 0.5, timeout=30))
            await asyncio.sleep(0)
            with pytest.raises(Busy):
                await pool.run(abs, -1, timeout=30)
            await slow
            assert await pool.run(abs, -3, timeout=30) == 3
            with pytest.raises(WorkerLost):
                await pool.run(os._exit, 1, timeout=30)
            assert await pool.run(abs, -4, timeout=30) == 4
        finally:
            pool.close()

    asyncio.run(scenario())


def test_run_binds_to_localhost_unless_told() -> None:
    import inspect

    from laby3d.serve import lan_address, run

    assert inspect.signature(run).parameters["host"].default == "127.0.0.1"
    assert lan_address().count(".") == 3


# --- load ----------------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_class_of_30_pupils_gets_every_preview_in_time() -> None:
    """bench/bench_serve.py, shortened: 30 pupils (each its own loopback address) changing a
    15 × 15 maze for 20 s: no error, no round trip over 5 s, memory bounded, still answering."""
    import subprocess
    import sys

    bench = Path(__file__).resolve().parents[1] / "bench" / "bench_serve.py"
    run = subprocess.run(
        [sys.executable, str(bench), "--pupils", "30", "--seconds", "20", "--json"],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert run.returncode == 0, run.stderr
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    assert figures["errors"] == 0, figures["statuses"]
    assert figures["previews"] >= 30 * 20 / 4  # every pupil kept getting previews (think time 1–3 s)
    assert figures["round_trip_max_s"] < 5
    assert figures["memory_mb"]["peak"] < 1500 and figures["memory_mb"]["end"] < 1500
    assert figures["answers_after"] == 200
