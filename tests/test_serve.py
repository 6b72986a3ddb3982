"""The class web app through the ASGI test client: every endpoint, validation errors with the
CLI's words, pupils' identity (folded names, the session cookie, another pupil's design refused),
the same-origin rule for writes, guards, the rate limit per pupil, the teacher's token, locks that
invalidate pupils, restart persistence, timeouts that stop one render alone, downloads
byte-identical to the library and the CLI, the class-set ZIP equal (SHA-256 per file) to
``laby3d batch`` on the exported YAML with names engraved, booklet and key, and the teacher's
totals equal to the batch's."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import stat
import subprocess
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest
from conftest import require_tool

pytest.importorskip("starlette")
pytest.importorskip("itsdangerous")

from starlette.testclient import TestClient  # noqa: E402

import laby3d  # noqa: E402
from laby3d.cli import main as cli_main  # noqa: E402
from laby3d.config import load_batch  # noqa: E402
from laby3d.export.formats import FORMATS  # noqa: E402
from laby3d.maze.algorithms import ALGORITHMS  # noqa: E402
from laby3d.options.job import job_flag_fields  # noqa: E402
from laby3d.serve.app import Budgets, create_app  # noqa: E402
from laby3d.serve.classroom import ClassInUse, Classroom, settings_from_config  # noqa: E402
from laby3d.serve.http import MAX_BODY  # noqa: E402
from laby3d.serve.identity import COOKIE  # noqa: E402
from laby3d.serve.queue import RateLimit  # noqa: E402

#: What a browser sends with a write from the app's own page.
SAME_ORIGIN = {"Origin": "http://testserver"}
FAST = RateLimit(per_second=1000, burst=1000)


def classroom(folder: Path, name: str = "2nde-A", config: Path | None = None, code: str | None = None) -> Classroom:
    return Classroom(settings_from_config(name, folder, config, code=code))


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Classroom:
    return classroom(tmp_path_factory.mktemp("class"))


@pytest.fixture(scope="module")
def client(room: Classroom):
    with TestClient(create_app(room, workers=1, rate=FAST)) as test_client:
        yield test_client


def teacher(room: Classroom) -> dict[str, str]:
    return {"Authorization": f"Bearer {room.token}"}


#: Sessions and personal codes of the pupils each client has joined as, by (client, name).
_JOINED: dict[tuple[int, str], tuple[str, str]] = {}


def join(client: TestClient, name: str, **extra: str) -> str:
    """Speak as pupil ``name`` from now on (joining, or taking the session this client joined
    with before, or joining again with the personal code it was given); the session cookie."""
    known = _JOINED.get((id(client), name))
    if known is not None:
        speak_as(client, known[0])
        if client.get("/api/me").json()["joined"]:
            return known[0]
        extra = {"pin": known[1], **extra}
    client.cookies.clear()
    response = client.post("/api/join", json={"name": name, **extra}, headers=SAME_ORIGIN)
    assert response.status_code == 200, response.text
    _JOINED[(id(client), name)] = (client.cookies[COOKIE], response.json()["pin"])
    return client.cookies[COOKIE]


def speak_as(client: TestClient, cookie: str) -> None:
    client.cookies.clear()
    client.cookies.set(COOKIE, cookie)


def post(client: TestClient, path: str, data: object, **headers: str):
    return client.post(path, json=data, headers={**SAME_ORIGIN, **headers})


def save(client: TestClient, key: str, options: dict):
    return post(client, f"/api/pupils/{key}", {"options": options})


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
    # the teacher may lock any section's field (presets are resolved at start-up)
    every = {spec["path"] for spec in client.get("/api/options?sections=all").json()["fields"]}
    assert every == set(declared) - {"preset"}


def test_a_preset_in_the_config_is_what_the_form_shows_and_what_is_made(tmp_path: Path) -> None:
    config = tmp_path / "quick.yaml"
    config.write_text("defaults:\n  preset: quick\n  print: {margin: 4}\n", encoding="utf-8")
    room = classroom(tmp_path / "state", "4e", config)
    with TestClient(create_app(room, workers=1, warm=False, rate=FAST)) as test_client:
        defaults = test_client.get("/api/options").json()["defaults"]
        assert "preset" not in defaults
        shown = {"maze.rows": defaults["maze"]["rows"], "maze.cols": defaults["maze"]["cols"]}
        shown |= {f"print.{key}": value for key, value in defaults["print"].items()}
        assert shown == {  # the preset's values (configs/… and options/presets.py), the file's own margin over them
            "maze.rows": 10,
            "maze.cols": 10,
            "print.cell_size": 8.0,
            "print.wall_thickness": 1.2,
            "print.wall_height": 4.0,
            "print.base_thickness": 1.2,
            "print.margin": 4,
        }
        join(test_client, "Ana")
        made = post(test_client, "/api/preview", {"options": {"seed": 1}}).json()
        width = 10 * 8.0 + 2 * (4 + 0.6)  # 10 cells of 8 mm, margin and half a 1.2 mm wall each side
        assert ET.fromstring(made["svg"]).get("viewBox").split()[2:] == [f"{width:g}", f"{width:g}"]
        assert made["report"]["size_mm"][2] == pytest.approx(1.2 + 4.0)


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


def test_preview_shows_the_maze_and_its_solid_with_the_name_engraved(client: TestClient) -> None:
    join(client, "Ana")
    options = {"maze.rows": 6, "maze.cols": 9, "seed": 42, "print.cell_size": 8, "print.margin": 3}
    response = post(client, "/api/preview", {"options": options})
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
    expected = laby3d.render(maze, "glb", cell_size=8, margin=3, label="Ana")
    assert expected != laby3d.render(maze, "glb", cell_size=8, margin=3)
    model = client.get(data["model"])
    assert model.status_code == 200 and model.content == expected


def test_preview_draws_a_seed_when_none_is_given(client: TestClient) -> None:
    join(client, "Ana")
    first = post(client, "/api/preview", {"options": {"maze.rows": 3, "maze.cols": 3}}).json()
    again = post(client, "/api/preview", {"options": {"maze.rows": 3, "maze.cols": 3, "seed": first["seed"]}})
    assert again.json()["svg"] == first["svg"]


def test_model_needs_a_known_key(client: TestClient) -> None:
    join(client, "Ana")
    assert client.get("/api/model.glb?key=" + "0" * 32).status_code == 404
    assert client.get("/api/model.glb?key=../../x").status_code == 404


@pytest.mark.parametrize(
    ("options", "flags"),
    [
        ({"print.wall_thickness": 12}, ["--wall-thickness", "12"]),
        ({"maze.rows": 0}, ["--rows", "0"]),
        ({"maze.algorithm": "nope"}, None),
        ({"print.nozzle": 0}, ["--nozzle", "0"]),
        ({"print.margin": 2, "print.label_position": "margin"}, ["--margin", "2", "--label-position", "margin"]),
        ({"print.printer": "prusa-xxl"}, ["--printer", "prusa-xxl"]),
    ],
)
def test_errors_name_the_field_with_the_cli_message(client, tmp_path, capsys, options, flags) -> None:
    join(client, "Ana")
    response = post(client, "/api/preview", {"options": {"maze.rows": 4, "maze.cols": 4, **options}})
    assert response.status_code == 422
    (error,) = response.json()["errors"]
    if flags is None:  # argparse refuses a wrong choice itself; the message names the choices
        assert error["field"] == "maze.algorithm" and "kruskal" in error["message"]
        return
    code = cli_main(["generate", "--rows", "4", "--cols", "4", "--label", "Ana", *flags, "-o", str(tmp_path / "m.stl")])
    assert code == 2
    stderr = capsys.readouterr().err
    assert stderr == f"laby3d: error: {error['message']}\n"
    assert error["flag"] == error["message"].split()[0]
    assert error["field"] in {path for path, _, _ in job_flag_fields()}


def test_class_app_refuses_big_mazes_and_unknown_options(client: TestClient) -> None:
    join(client, "Ana")
    big = post(client, "/api/preview", {"options": {"maze.rows": 101}}).json()["errors"][0]
    assert big["field"] == "maze.rows" and "<= 100" in big["message"]
    unknown = post(client, "/api/preview", {"options": {"print.colour": "red"}}).json()["errors"][0]
    assert unknown["message"].startswith("print.colour is not an option")
    nested = post(client, "/api/preview", {"options": {"maze.rows": [1, 2]}})
    assert nested.status_code == 422 and nested.json()["errors"][0]["field"] == "maze.rows"
    assert post(client, "/api/preview", {"options": "rows=5"}).status_code == 422


def test_request_size_depth_and_shape_guards(client: TestClient) -> None:
    join(client, "Ana")
    json_headers = {"Content-Type": "application/json", **SAME_ORIGIN}
    huge = json.dumps({"options": {"label": "x" * MAX_BODY}})
    assert client.post("/api/preview", content=huge, headers=json_headers).status_code == 413
    assert client.post("/api/preview", content=b"{not json", headers=json_headers).status_code == 400
    for deep in ("[" * 30_000 + "]" * 30_000, '{"options": ' + "[" * 20 + "]" * 20 + "}"):
        response = client.post("/api/preview", content=deep.encode(), headers=json_headers)
        assert response.status_code == 400 and "nested" in response.json()["errors"][0]["message"]
    assert client.get("/api/preview").status_code == 405


# --- pupils: identity ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Ana", "ana"),
        ("Léa", "Lea"),
        ("Élodie Dupont-Lefèvre", "élodie dupont lefevre"),
        ("O'Connor", "o connor"),
        ("O'Connor", "OConnor"),
        ("Lætitia Œillet", "Laetitia Oeillet"),
        ("Søren", "Soren"),
        ("Groß", "Gross"),
        ("Jean_Luc", "Jean-Luc"),
    ],
)
def test_a_name_folded_equal_to_a_joined_pupil_is_refused_with_a_distinct_form(
    tmp_path: Path, first: str, second: str
) -> None:
    from laby3d.options.job import check_names

    with pytest.raises(laby3d.ParameterError):  # the batch folds them alike (the one name rule)
        check_names([first, second])
    with TestClient(create_app(classroom(tmp_path), workers=1, warm=False, rate=FAST)) as test_client:
        join(test_client, first)
        assert save(test_client, test_client.get("/api/me").json()["key"], {"seed": 1}).status_code == 200
        test_client.cookies.clear()
        refused = post(test_client, "/api/join", {"name": second})
        assert refused.status_code == 422
        (error,) = refused.json()["errors"]
        assert error["field"] == "pin" and f"{second} M." in error["message"] and "personal code" in error["message"]
        # the suggested form joins, as another pupil
        join(test_client, f"{second} M.")
        assert test_client.get("/api/me").json()["name"] == f"{second} M."


@pytest.mark.parametrize(
    "name", ["😀", "!!!", "🎉🎉", "-_-", " ", "\u00a0", "x" * 61, "tab\there", "Ana\u200bBen", "Zo\u200de", "Ana\n"]
)
def test_names_that_fold_to_nothing_or_break_the_rules_are_refused(client: TestClient, name: str) -> None:
    client.cookies.clear()
    response = post(client, "/api/join", {"name": name})
    assert response.status_code == 422 and response.json()["errors"][0]["field"] == "name"
    assert COOKIE not in client.cookies


def test_a_pupil_reads_and_changes_only_their_own_design(tmp_path: Path) -> None:
    with TestClient(create_app(classroom(tmp_path), workers=1, warm=False, rate=FAST)) as test_client:
        ana = join(test_client, "Ana")
        assert save(test_client, "ana", {"maze.rows": 3, "seed": 1}).status_code == 200
        ben = join(test_client, "Ben")
        assert save(test_client, "ben", {"maze.rows": 4, "seed": 2}).status_code == 200
        # Ben's session, Ana's design: refused whatever the way in
        for method, path in (
            ("GET", "/api/pupils/ana"),
            ("POST", "/api/pupils/ana"),
            ("GET", "/api/preview/ana.svg"),
            ("GET", "/api/download/ana.stl"),
        ):
            response = test_client.request(method, path, json={"options": {"seed": 9}}, headers=SAME_ORIGIN)
            assert response.status_code == 403, (method, path)
        speak_as(test_client, ana)
        assert test_client.get("/api/pupils/ana").json()["design"] == {"maze.rows": 3, "seed": 1}
        # no session, or a forged one: nothing but the pages and the options
        for cookie in (None, ana[:-4] + "AAAA", ben.replace("a", "b")):
            test_client.cookies.clear()
            if cookie:
                test_client.cookies.set(COOKIE, cookie)
            assert test_client.get("/api/pupils/ana").status_code == 401
            assert post(test_client, "/api/preview", {"options": {}}).status_code == 401
        assert test_client.get("/api/options").status_code == 200


def test_a_released_name_stays_its_pupils_and_their_code_takes_it_back(tmp_path: Path) -> None:
    """Issue 27: "a released name can be taken over by anyone who types it". Now a name in the
    class needs its pupil's personal code (shown on their page and in the teacher's list): their
    design stays theirs, for the teacher too; the teacher's reset ends a session."""
    room = classroom(tmp_path)
    with TestClient(create_app(room, workers=1, warm=False, rate=FAST)) as test_client:
        test_client.cookies.clear()
        first = post(test_client, "/api/join", {"name": "Ana"})
        pin = first.json()["pin"]
        assert re.fullmatch(r"\d{4}", pin)
        session = test_client.cookies[COOKIE]
        save(test_client, "ana", {"maze.rows": 3, "seed": 5})
        # "Not you? / Change pupil": the old cookie is worth nothing, the name is still Ana's
        assert post(test_client, "/api/leave", {}).json() == {"left": True}
        speak_as(test_client, session)
        assert test_client.get("/api/me").json() == {"joined": False}
        test_client.cookies.clear()
        for typed, wrong in (("Ana", None), ("ANA", "0000" if pin != "0000" else "1111")):
            refused = post(test_client, "/api/join", {"name": typed, "pin": wrong})
            assert refused.status_code == 422 and refused.json()["errors"][0]["field"] == "pin"
        listed = test_client.get("/api/teacher/pupils", headers=teacher(room)).json()["pupils"]
        assert [(p["name"], p["pin"], p["design"]) for p in listed] == [("Ana", pin, {"maze.rows": 3, "seed": 5})]
        # Ana on another computer, with her code: her design comes back
        again = post(test_client, "/api/join", {"name": "ana", "pin": f" {pin} "})
        assert again.status_code == 200 and again.json()["name"] == "Ana"
        assert test_client.get("/api/me").json()["design"] == {"maze.rows": 3, "seed": 5}
        second = test_client.cookies[COOKIE]
        reset = post(test_client, "/api/teacher/pupils/ana/reset", {}, **teacher(room))
        assert reset.status_code == 200
        speak_as(test_client, second)
        assert test_client.get("/api/me").json() == {"joined": False}


def test_a_name_held_by_another_browser_is_taken_back_with_the_code(tmp_path: Path) -> None:
    """A pupil who moved to another computer without leaving: their code ends the first session."""
    with TestClient(create_app(classroom(tmp_path), workers=1, warm=False, rate=FAST)) as test_client:
        test_client.cookies.clear()
        pin = post(test_client, "/api/join", {"name": "Zoé"}).json()["pin"]
        first = test_client.cookies[COOKIE]
        test_client.cookies.clear()
        assert post(test_client, "/api/join", {"name": "Zoe", "pin": pin}).status_code == 200
        speak_as(test_client, first)
        assert test_client.get("/api/me").json() == {"joined": False}


def test_wrong_personal_codes_are_throttled_per_name(tmp_path: Path) -> None:
    with TestClient(create_app(classroom(tmp_path), workers=1, warm=False, rate=FAST)) as test_client:
        test_client.cookies.clear()
        pin = post(test_client, "/api/join", {"name": "Ana"}).json()["pin"]
        wrong = [f"{n:04d}" for n in range(10) if f"{n:04d}" != pin]
        statuses = [post(test_client, "/api/join", {"name": "Ana", "pin": code}).status_code for code in wrong[:7]]
        assert statuses[:5] == [422] * 5 and statuses[5:] == [429, 429]
        assert post(test_client, "/api/join", {"name": "Ana", "pin": pin}).status_code == 429  # even the right one
        assert post(test_client, "/api/join", {"name": "Ben"}).status_code == 200  # other names are not held back


def test_the_class_code_is_needed_to_join(tmp_path: Path) -> None:
    room = classroom(tmp_path, code="otter-42")
    with TestClient(create_app(room, workers=1, warm=False, rate=FAST)) as test_client:
        assert 'id="code"' in test_client.get("/").text
        for given in (None, "", "otter-41", "otter 42"):
            response = post(test_client, "/api/join", {"name": "Ana", "code": given})
            assert response.status_code == 422 and response.json()["errors"][0]["field"] == "code"
        join(test_client, "Ana", code=" OTTER-42\u00a0")  # case and spaces around aside (issue 27)
        listed = test_client.get("/api/teacher/pupils", headers=teacher(room)).json()
        assert listed["code"] == "otter-42" and listed["pupils"][0]["connected"] is True
        qr = test_client.get("/api/teacher/qr.svg", headers=teacher(room))
        assert qr.status_code == 200 and qr.headers["content-type"].startswith("image/svg+xml")
        assert "<title>http://testserver/#code=otter-42</title>" in qr.text


def test_the_session_cookie_is_signed_http_only_and_same_site(tmp_path: Path) -> None:
    with TestClient(create_app(classroom(tmp_path), workers=1, warm=False, rate=FAST)) as test_client:
        test_client.cookies.clear()
        response = post(test_client, "/api/join", {"name": "Ana"})
        cookie = response.headers["set-cookie"].lower()
        assert cookie.startswith(f"{COOKIE}=") and "httponly" in cookie and "samesite=strict" in cookie


# --- writes from this server's pages only (CSRF) ---------------------------------------------------


@pytest.mark.parametrize(
    ("content_type", "headers"),
    [
        # a form on another site posting to the class (text/plain gets past CORS preflight)
        ("text/plain", {"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}),
        ("application/x-www-form-urlencoded", {"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}),
        # fetch(url, {mode: "no-cors", method: "POST", body}) from another site: text/plain, no Origin check
        ("text/plain;charset=UTF-8", {"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}),
        # JSON declared, but from another site or with no origin at all
        ("application/json", {"Origin": "http://evil.example"}),
        ("application/json", {"Origin": "http://testserver", "Sec-Fetch-Site": "same-site"}),
        ("application/json", {}),
        ("text/plain", SAME_ORIGIN),
    ],
)
def test_writes_from_elsewhere_are_refused(client: TestClient, room: Classroom, content_type: str, headers) -> None:
    join(client, "Ana")
    body = json.dumps({"options": {"maze.rows": 3, "seed": 1}}).encode()
    for path in ("/api/pupils/ana", "/api/preview", "/api/leave", "/api/teacher/locks"):
        response = client.post(path, content=body, headers={"Content-Type": content_type, **headers, **teacher(room)})
        assert response.status_code == 403, (path, response.text)
        assert "this server's pages" in response.json()["errors"][0]["message"]
    assert client.get("/api/me").json()["joined"]  # still joined: the leave was refused too


# --- pupils: save, restore, download -----------------------------------------------------------


def test_saved_stl_is_byte_identical_to_the_library_and_the_cli(client: TestClient, tmp_path: Path) -> None:
    join(client, "Zoé")
    options = {"maze.rows": 7, "maze.cols": 5, "maze.algorithm": "wilson", "seed": 1234, "print.cell_size": 9}
    options |= {"print.wall_height": 6, "print.margin": 6, "print.solution": "groove"}
    saved = save(client, "zoe", options)
    assert saved.status_code == 200, saved.text
    assert saved.json()["key"] == "zoe"
    stl = client.get("/api/download/zoe.stl")
    assert stl.status_code == 200 and stl.headers["content-type"] == "model/stl"
    assert 'filename="Zoe.stl"' in stl.headers["content-disposition"]  # as the class set names her files
    maze = laby3d.generate(7, 5, algorithm="wilson", seed=1234)
    library = laby3d.render(maze, "stl", cell_size=9, wall_height=6, margin=6, label="Zoé", solution="groove")
    assert stl.content == library
    flags = ["--rows", "7", "--cols", "5", "-a", "wilson", "--seed", "1234", "--cell-size", "9", "--wall-height", "6"]
    flags += ["--margin", "6", "--label", "Zoé", "--solution", "groove"]
    assert cli_main(["generate", *flags, "-o", str(tmp_path / "m.stl")]) == 0
    assert (tmp_path / "m.stl").read_bytes() == stl.content
    thumbnail = client.get("/api/preview/zoe.svg")
    assert thumbnail.headers["content-type"] == "image/svg+xml"
    assert thumbnail.text == post(client, "/api/preview", {"options": options}).json()["svg"]
    assert client.get("/api/preview/zoe.stl").status_code == 404
    restored = client.get("/api/pupils/zoe").json()
    assert restored["design"] == options and restored["name"] == "Zoé"


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
@pytest.mark.parametrize("fmt", list(FORMATS))
def test_every_format_downloads(client: TestClient, fmt: str) -> None:
    join(client, "Ben")
    options = {"maze.rows": 4, "maze.cols": 5, "seed": 9, "print.margin": 5}
    assert save(client, "ben", options).status_code == 200
    response = client.get(f"/api/download/ben.{fmt}")
    assert response.status_code == 200, response.text
    expected_type = {"png": "image/png", "pdf": "application/pdf", "svg": "image/svg+xml", "gif": "image/gif"}
    suffix = fmt.rsplit(".", 1)[-1]
    assert response.headers["content-type"] == expected_type.get(suffix, response.headers["content-type"])
    assert response.headers["content-type"] != "application/octet-stream"
    maze = laby3d.generate(4, 5, seed=9)
    assert response.content == laby3d.render(maze, fmt, margin=5, label="Ben")


def test_downloads_take_no_path_from_the_client(client: TestClient, room: Classroom) -> None:
    join(client, "../../etc/passwd")
    me = client.get("/api/me").json()
    assert me["key"] == "etcpasswd" and me["file"] == "etc-passwd"
    assert save(client, "etcpasswd", {"maze.rows": 2, "seed": 1}).status_code == 200
    for path in ("/api/download/..%2F..%2Fetc.stl", "/api/download/etc-passwd.exe"):
        assert client.get(path).status_code in (403, 404)
    files = {p.name for p in room.store.path.parent.iterdir()}
    assert files <= {"class.sqlite3", "class.sqlite3-wal", "class.sqlite3-shm", "serve.lock"}


# --- teacher -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/teacher/pupils"),
        ("GET", "/api/teacher/locks"),
        ("POST", "/api/teacher/locks"),
        ("GET", "/api/teacher/class.yaml"),
        ("GET", "/api/teacher/class.zip"),
        ("GET", "/api/teacher/qr.svg"),
        ("DELETE", "/api/teacher/pupils/ben"),
        ("POST", "/api/teacher/pupils/ben/reset"),
    ],
)
def test_teacher_endpoints_need_the_token(client: TestClient, room: Classroom, method: str, path: str) -> None:
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": room.token}, {"X-Token": room.token}):
        response = client.request(method, path, headers={**headers, **SAME_ORIGIN}, json={})
        assert response.status_code == 401
        assert "token" in response.json()["errors"][0]["message"]


def test_teacher_list_shows_pupils_with_status_and_estimates(client: TestClient, room: Classroom) -> None:
    join(client, "Ana")
    save(client, "ana", {"maze.rows": 5, "maze.cols": 5, "seed": 5})
    pupils = {p["name"]: p for p in client.get("/api/teacher/pupils", headers=teacher(room)).json()["pupils"]}
    ana = pupils["Ana"]
    assert ana["status"] == "ok" and ana["design"]["seed"] == 5
    assert ana["summary"]["filament_g"] > 0 and ana["summary"]["size_mm"] == [51.6, 51.6, 10.0]


def test_locks_apply_to_every_pupil_and_reach_their_pages(tmp_path: Path) -> None:
    room = classroom(tmp_path)
    with TestClient(create_app(room, workers=1, warm=False, rate=FAST)) as test_client:
        bad = post(test_client, "/api/teacher/locks", {"locks": {"print.printer": "nope"}}, **teacher(room))
        assert bad.status_code == 422 and bad.json()["errors"][0]["field"] == "print.printer"
        before = test_client.get("/api/locks").json()["version"]
        locks = {
            "print.printer": "mini",
            "maze.rows": 10,
            "maze.cols": 10,
            "walk.timer": True,
            "worksheet.paper": "letter",
        }
        response = post(test_client, "/api/teacher/locks", {"locks": locks}, **teacher(room))
        assert response.json()["locks"] == locks
        polled = test_client.get("/api/locks").json()  # what the pupil pages poll every 4 s
        assert polled == {"locks": locks, "version": before + 1}
        join(test_client, "Ana")
        preview = post(test_client, "/api/preview", {"options": {"maze.rows": 30, "seed": 3}}).json()
        assert preview["report"]["printer"]["name"] == "mini" and preview["summary"]["print_time"]
        assert ET.fromstring(preview["svg"]).get("viewBox").split()[2:] == ["101.6", "101.6"]


def pupils_of(test_client: TestClient, room: Classroom, *, settled: bool = True) -> dict:
    """The teacher's list, once every report is computed under the current locks."""
    import time

    deadline = time.monotonic() + 120
    while True:
        listed = test_client.get("/api/teacher/pupils", headers=teacher(room)).json()
        if not settled or listed["updating"] == 0 or time.monotonic() > deadline:
            return listed
        time.sleep(0.2)


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_a_lock_that_invalidates_pupils_names_them_first_and_the_zip_leaves_them_out(tmp_path: Path) -> None:
    room = classroom(tmp_path, "3e C")
    with TestClient(create_app(room, workers=1, warm=False, rate=FAST)) as test_client:
        cells = {"Ana": 4, "Ben": 4.5, "Chloé": 10}
        for name, cell in cells.items():
            join(test_client, name)
            key = test_client.get("/api/me").json()["key"]
            options = {"maze.rows": 5, "maze.cols": 5, "seed": 7, "print.cell_size": cell, "print.margin": 8}
            assert save(test_client, key, options).status_code == 200
        locks = {"print.wall_thickness": 4.5}  # corridors of 4 and 5 mm cells would close
        asked = post(test_client, "/api/teacher/locks", {"locks": locks}, **teacher(room))
        assert asked.status_code == 409
        invalid = {row["name"]: row["error"] for row in asked.json()["invalid"]}
        assert set(invalid) == {"Ana", "Ben"}
        assert all("wall_thickness" in error and "4.5" in error for error in invalid.values())
        assert test_client.get("/api/locks").json()["locks"] == {}  # nothing changed yet
        confirmed = post(test_client, "/api/teacher/locks", {"locks": locks, "confirm": True}, **teacher(room))
        assert confirmed.status_code == 200 and {row["name"] for row in confirmed.json()["invalid"]} == set(invalid)
        listed = {p["name"]: p["status"] for p in pupils_of(test_client, room)["pupils"]}
        assert listed["Chloé"] == "ok" and listed["Ana"].startswith("invalid:") and listed["Ben"].startswith("invalid:")
        archive = test_client.get("/api/teacher/class.zip", headers=teacher(room))
        assert archive.status_code == 200, archive.text
        assert archive.headers["x-laby3d-left-out"] == "2"
    with zipfile.ZipFile(io.BytesIO(archive.content)) as zipped:
        manifest = json.loads(zipped.read("manifest.json"))
        note = zipped.read("README.txt").decode()
    assert [entry["job"] for entry in manifest["mazes"]] == ["Chloé"] and manifest["failed"] == 0
    for name in ("Ana", "Ben"):
        assert f"  {name}: " in note.split("Left out")[1]


def test_state_survives_a_restart_and_a_second_server_is_refused(tmp_path: Path) -> None:
    first = classroom(tmp_path)
    with pytest.raises(ClassInUse, match="another laby3d serve is running"):
        classroom(tmp_path)
    with TestClient(create_app(first, workers=1, warm=False, rate=FAST)) as test_client:
        join(test_client, "Élodie")
        save(test_client, "elodie", {"maze.rows": 3, "seed": 77})
        post(test_client, "/api/teacher/locks", {"locks": {"print.nozzle": 0.6}}, **teacher(first))
        cookie = test_client.cookies[COOKIE]
    first.close()
    database = tmp_path / "class.sqlite3"
    assert stat.S_IMODE(database.stat().st_mode) == 0o600  # it holds the token and the session key
    second = classroom(tmp_path)
    assert second.token == first.token
    with TestClient(create_app(second, workers=1, warm=False, rate=FAST)) as test_client:
        speak_as(test_client, cookie)  # the pupil's session too
        assert test_client.get("/api/me").json()["design"] == {"maze.rows": 3, "seed": 77}
        pupils = test_client.get("/api/teacher/pupils", headers=teacher(second)).json()["pupils"]
        assert [(p["name"], p["design"]) for p in pupils] == [("Élodie", {"maze.rows": 3, "seed": 77})]
        assert test_client.get("/api/teacher/locks", headers=teacher(second)).json()["locks"] == {"print.nozzle": 0.6}
        removed = test_client.request(
            "DELETE", "/api/teacher/pupils/elodie", json={}, headers={**teacher(second), **SAME_ORIGIN}
        )
        assert removed.json() == {"removed": True}
    second.close()
    rotated = Classroom(settings_from_config("2nde-A", tmp_path, None), new_token=True)
    assert rotated.token != second.token
    rotated.close()


def test_the_teacher_page_takes_the_token_out_of_the_address() -> None:
    from laby3d.serve.page import static_file

    script = static_file("teacher.js")[0].decode()  # type: ignore[index]
    assert 'history.replaceState(null, "", location.pathname)' in script


def run_batch_on(yaml_text: str, tmp_path: Path) -> tuple[Path, dict]:
    (tmp_path / "exported.yaml").write_text(yaml_text, encoding="utf-8")
    out = tmp_path / "batch"
    assert cli_main(["batch", str(tmp_path / "exported.yaml"), "--output-dir", str(out), "-j", "1"]) == 0
    return out, json.loads((out / "manifest.json").read_text())


def join_and_save(test_client: TestClient, designs: dict[str, dict[str, Any]]) -> None:
    """Each pupil of ``designs`` (name → flat design) joins the class and saves their design."""
    for name, design in designs.items():
        join(test_client, name)
        key = test_client.get("/api/me").json()["key"]
        assert save(test_client, key, design).status_code == 200


def test_how_the_printers_are_shared_is_the_teachers_alone() -> None:
    """A fleet and a slot share the class's plates: the teacher may lock them, a pupil's form
    does not offer them (as the number of printers, the plates' spacing and skirt room)."""
    from laby3d.serve.fields import field_specs

    pupil = {spec["path"] for spec in field_specs("fr")}
    teacher = {spec["path"] for spec in field_specs("fr", every_section=True)}
    shared = {"print.printers", "print.plate_spacing", "print.skirt_room", "print.fleet", "print.slot"}
    assert not pupil & shared and shared <= teacher


@pytest.mark.slow
def test_a_locked_fleet_and_slot_plan_the_class_zips_plates(tmp_path: Path) -> None:
    """The teacher locks a fleet of a MINI and an MK3 and a night's slot: the class ZIP's plates
    are planned on both printers, every pupil's solid on one, whatever a pupil typed for them."""
    config = tmp_path / "class.yaml"
    config.write_text("defaults:\n  print: {margin: 8}\n  formats: [stl]\n", encoding="utf-8")
    room = classroom(tmp_path / "state", "3e B", config)
    names = ["Ana", "Ben", "Chloé", "Dan"]
    with TestClient(create_app(room, workers=1, warm=False, rate=FAST)) as test_client:
        designs = {
            name: {"maze.rows": 4, "maze.cols": 4 + index, "seed": 10 + index} for index, name in enumerate(names)
        }
        designs["Ben"].update({"print.fleet": "mini=5", "print.slot": "1h"})  # not the pupil's to say
        join_and_save(test_client, designs)
        locks = {"print.fleet": "mini=1,mk3=1", "print.slot": "overnight"}
        assert post(test_client, "/api/teacher/locks", {"locks": locks}, **teacher(room)).status_code == 200
        exported = test_client.get("/api/teacher/class.yaml", headers=teacher(room)).text
        archive = test_client.get("/api/teacher/class.zip", headers=teacher(room))
    (tmp_path / "exported.yaml").write_text(exported, encoding="utf-8")
    _, jobs = load_batch(tmp_path / "exported.yaml")  # as laby3d batch reads the exported class
    assert [job.print.fleet for job in jobs] == [{"mini": 1, "mk3": 1}] * len(names)
    assert all(job.print.slot == "overnight" and "plates" in job.formats for job in jobs)
    with zipfile.ZipFile(io.BytesIO(archive.content)) as zipped:
        plan = zipped.read("plates/plan.txt").decode()
    assert "mini 1" in plan and "mk3 1" in plan and all(name in plan for name in names), plan


@pytest.mark.slow
def test_class_zip_is_what_the_teacher_hands_out_and_equals_laby3d_batch(tmp_path: Path) -> None:
    config = tmp_path / "class.yaml"
    config.write_text(
        "defaults:\n  print: {printer: mini, margin: 8, printers: 2}\n  formats: [maze.json, stl, 3mf, worksheet.pdf]\n"
    )
    room = classroom(tmp_path / "state", "3e B", config)
    names = ["Ana", "Ben", "Chloé Dupont", "O'Connor"]
    with TestClient(create_app(room, workers=1, warm=False, rate=FAST)) as test_client:
        designs = {
            name: {"maze.rows": 6 + index, "maze.cols": 8, "seed": 100 + index} for index, name in enumerate(names)
        }
        designs["Ben"]["print.printers"] = 5  # how the printers are shared is the teacher's: not taken from a pupil
        join_and_save(test_client, designs)
        post(test_client, "/api/teacher/locks", {"locks": {"print.wall_height": 6}}, **teacher(room))
        listed = pupils_of(test_client, room)
        exported = test_client.get("/api/teacher/class.yaml", headers=teacher(room))
        assert exported.status_code == 200
        archive = test_client.get("/api/teacher/class.zip", headers=teacher(room))
        assert archive.status_code == 200 and archive.headers["content-type"] == "application/zip"
    out, batch_manifest = run_batch_on(exported.text, tmp_path)
    on_disk = {
        p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in out.rglob("*")
        if p.is_file() and not p.name.startswith(".")
    }
    with zipfile.ZipFile(io.BytesIO(archive.content)) as zipped:
        in_zip = {name: hashlib.sha256(zipped.read(name)).hexdigest() for name in zipped.namelist()}
        manifest = json.loads(zipped.read("manifest.json"))
        booklet, key = zipped.read("3e-B.worksheet.pdf"), zipped.read("3e-B.key.pdf")
        stls = {name: zipped.read(name) for name in zipped.namelist() if name.endswith(".stl")}
        worksheet = zipped.read("Ana/Ana.worksheet.pdf")
        plan, note = zipped.read("plates/plan.txt").decode(), zipped.read("README.txt").decode()
        plate_files = [name for name in zipped.namelist() if name.startswith("plates/") and name.endswith(".3mf")]
    # the teacher's plan per plate and printer: every pupil on a plate, the class's two printers
    assert plate_files and all(name in plan for name in names)
    assert "mini 1" in plan and "mini 2" in plan and "mini 3" not in plan
    assert all(line in note for line in plan.splitlines() if line), "README.txt carries the plan"
    # every file the batch writes, byte for byte; the class's booklet, key and note besides
    assert set(in_zip) == set(on_disk) | {"3e-B.worksheet.pdf", "3e-B.key.pdf", "README.txt"}
    differing = {name for name in on_disk if in_zip[name] != on_disk[name]}
    assert differing == {"manifest.json"}  # timings differ; every file it lists is equal
    assert [m["files"] for m in manifest["mazes"]] == [m["files"] for m in batch_manifest["mazes"]]
    assert manifest["failed"] == 0 and len(manifest["mazes"]) == 4
    # each pupil's name engraved: their solid is the library's with the name as its label
    for index, name in enumerate(names):
        (stl,) = [data for path, data in stls.items() if path.startswith(f"{manifest['mazes'][index]['maze']}/")]
        maze = laby3d.generate(6 + index, 8, seed=100 + index)
        options = {"printer": "mini", "margin": 8, "wall_height": 6}
        assert stl == laby3d.render(maze, "stl", label=name, **options)
        assert stl != laby3d.render(maze, "stl", **options)
    # the booklet and the key name every pupil; each worksheet its pupil and the class
    pdftotext = require_tool("pdftotext")
    for document in (booklet, key):
        words = read_pdf(pdftotext, document, tmp_path)
        assert all(name in words for name in names), words[:400]
    assert {"Ana", "3e B"} <= set(read_pdf(pdftotext, worksheet, tmp_path).splitlines()) or (
        "Ana" in read_pdf(pdftotext, worksheet, tmp_path) and "3e B" in read_pdf(pdftotext, worksheet, tmp_path)
    )
    # the teacher's totals are the batch's, with the locks applied and the names engraved
    wanted = ("mazes", "failed", "solids", "pla_solid_g", "filament_g", "print_seconds")
    assert {k: listed["totals"].get(k) for k in wanted} == {k: batch_manifest["totals"].get(k) for k in wanted}
    assert listed["totals"]["print_seconds"] > 0


def read_pdf(pdftotext: str, data: bytes, folder: Path) -> str:
    path = folder / "read.pdf"
    path.write_bytes(data)
    return subprocess.run([pdftotext, str(path), "-"], capture_output=True, text=True, check=True).stdout


def test_class_zip_needs_pupils(tmp_path: Path) -> None:
    room = classroom(tmp_path)
    with TestClient(create_app(room, workers=1, warm=False)) as test_client:
        assert test_client.get("/api/teacher/class.zip", headers=teacher(room)).status_code == 409


# --- rate limit, queue, timeout ----------------------------------------------------------------


def test_rate_limit_per_pupil_session_not_per_address(tmp_path: Path) -> None:
    app = create_app(classroom(tmp_path), workers=1, warm=False, rate=RateLimit(per_second=0.01, burst=3))
    with TestClient(app) as test_client:  # every pupil from the same address, as behind a school's NAT
        ana = join(test_client, "Ana")
        answers = [post(test_client, "/api/preview", {"options": {"maze.rows": 2, "seed": s}}) for s in range(5)]
        assert [a.status_code for a in answers] == [200, 200, 200, 429, 429]
        seconds = int(answers[3].headers["retry-after"])
        assert seconds > 0 and f"trying again in {seconds} s" in answers[3].json()["errors"][0]["message"]
        join(test_client, "Ben")  # another pupil behind the same address is not held back
        assert post(test_client, "/api/preview", {"options": {"maze.rows": 2, "seed": 1}}).status_code == 200
        speak_as(test_client, ana)
        assert test_client.get("/api/options").status_code == 200  # only renders are limited


def test_rate_limit_refills_and_keeps_sessions_apart() -> None:
    now = [0.0]
    limit = RateLimit(per_second=2, burst=2, clock=lambda: now[0])
    assert [limit.allow("a") for _ in range(2)] == [0, 0]
    assert limit.allow("a") == pytest.approx(0.5)
    assert limit.allow("b") == 0
    now[0] += 0.5
    assert limit.allow("a") == 0


@pytest.mark.slow
def test_a_slow_render_times_out_alone_while_ten_previews_succeed(tmp_path: Path) -> None:
    """A download whose budget (0.05 s) is shorter than a 100 × 100 3MF takes: it is stopped, its
    worker replaced, while 10 previews of five other pupils on the same two workers all come back."""
    room = classroom(tmp_path)
    budgets = Budgets(download=0.05)
    with TestClient(create_app(room, workers=2, rate=FAST, budgets=budgets)) as test_client:
        join(test_client, "Ana")
        assert save(test_client, "ana", {"maze.rows": 100, "maze.cols": 100, "seed": 1}).status_code == 200
        others = {name: join(test_client, name) for name in ("Ben", "Cy", "Di", "Ed", "Flo")}
        ana = join(test_client, "Ana")
        test_client.cookies.clear()  # each request names its pupil in its own Cookie header

        def preview(name: str, seed: int) -> int:
            headers = {**SAME_ORIGIN, "Cookie": f"{COOKIE}={others[name]}"}
            answer = test_client.post("/api/preview", json={"options": {"maze.rows": 4, "seed": seed}}, headers=headers)
            return answer.status_code

        def previews(name: str) -> list[int]:  # one after the other, as a pupil's page asks them
            return [preview(name, seed) for seed in range(2)]

        def download() -> int:
            return test_client.get("/api/download/ana.3mf", headers={"Cookie": f"{COOKIE}={ana}"}).status_code

        with ThreadPoolExecutor(7) as threads:
            slow = [threads.submit(download) for _ in range(2)]
            quick = [threads.submit(previews, name) for name in others]
            statuses = [future.result() for future in slow]
            assert [future.result() for future in quick] == [[200, 200]] * 5
        assert statuses == [504, 504]
        assert preview("Ben", 99) == 200  # the workers that replaced the stopped ones answer
        speak_as(test_client, ana)
        answer = test_client.get("/api/download/ana.3mf").json()["errors"][0]["message"]
        assert "took more than 0.05 s and was stopped" in answer


@pytest.mark.slow
def test_expensive_work_has_its_own_queue(tmp_path: Path) -> None:
    """Lesson PDFs run on their own worker: with it busy and its queue full, a further one is
    refused at once (503, to retry), and previews go on."""
    budgets = Budgets(expensive=1.0, expensive_queue=0)
    with TestClient(create_app(classroom(tmp_path), workers=1, rate=FAST, budgets=budgets)) as test_client:
        join(test_client, "Ana")
        assert save(test_client, "ana", {"maze.rows": 100, "maze.cols": 100, "seed": 1}).status_code == 200
        with ThreadPoolExecutor(2) as threads:
            first = threads.submit(test_client.get, "/api/download/ana.lesson.pdf")
            import time

            time.sleep(0.3)
            second = test_client.get("/api/download/ana.lesson.pdf")
            assert second.status_code == 503 and second.headers["retry-after"]
            assert post(test_client, "/api/preview", {"options": {"maze.rows": 3, "seed": 1}}).status_code == 200
            assert first.result().status_code == 504  # 14 s of work, 1 s of budget


def test_run_binds_to_localhost_unless_told() -> None:
    import inspect

    from laby3d.serve import lan_address, run

    assert inspect.signature(run).parameters["host"].default == "127.0.0.1"
    assert lan_address().count(".") == 3


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--code", "two words"], "--code: must be 1 to 40 printable characters without spaces"),
        (["--rate", "0"], "--rate: must be 0.1..50, got 0"),
        (["--workers", "0"], "--workers: must be a whole number 1..16"),
    ],
)
def test_serve_flags_are_checked(capsys, flags: list[str], message: str) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli_main(["serve", *flags])
    assert exit_.value.code == 2 and message in capsys.readouterr().err


# --- load ----------------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_class_behind_one_address_gets_every_preview_in_time() -> None:
    """bench/bench_serve.py, shortened: 30 pupils behind ONE address changing a 15 × 15 maze for
    20 s, one asking a 100 × 100 lesson PDF: no refusal, no error, memory bounded, still answering."""
    import sys

    bench = Path(__file__).resolve().parents[1] / "bench" / "bench_serve.py"
    run = subprocess.run(
        [sys.executable, str(bench), "--pupils", "30", "--seconds", "20", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    assert figures["errors"] == 0 and figures["refusals"] == 0, figures["statuses"]
    assert figures["previews"] >= 30  # the speed figures are the benchmark's (bench/README.md), not a test's
    assert figures["lesson_pdfs"] >= 1
    assert figures["memory_mb"]["peak"] < 2000 and figures["memory_mb"]["end"] < 2000
    assert figures["answers_after"] == 200


@pytest.mark.slow
def test_hundreds_of_idle_connections_leave_the_server_answering(tmp_path: Path) -> None:
    """Sockets that connect and send nothing (or half a request) are bounded: a normal request
    still answers while 400 of them are open, and they are closed after the header timeout."""
    import socket
    import time

    from test_serve_browser import Server

    server = Server(tmp_path / "class")
    idle: list[socket.socket] = []
    try:
        for index in range(400):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            if index % 2:
                sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # headers never finished
            idle.append(sock)
        start = time.monotonic()
        import urllib.request

        with urllib.request.urlopen(server.url + "/static/serve.css", timeout=10) as answer:
            assert answer.status == 200
        assert time.monotonic() - start < 5
        time.sleep(12)  # past the header timeout: the server closed them
        closed = 0
        for sock in idle:
            sock.settimeout(2)
            try:
                closed += sock.recv(1) == b""
            except OSError:
                closed += 1
        assert closed == len(idle)
        assert "Traceback" not in server.output
    finally:
        for sock in idle:
            sock.close()
        server.close()


@pytest.mark.slow
def test_the_render_workers_die_with_the_server_even_on_kill_9(tmp_path: Path) -> None:
    """Kill -9 of the server alone: its worker processes (previews, expensive work and their fork
    server) exit by themselves."""
    import signal

    psutil = pytest.importorskip("psutil")
    from test_serve_browser import Server

    server = Server(tmp_path / "class")
    try:
        workers = psutil.Process(server.process.pid).children(recursive=True)
        assert len(workers) >= 3  # two preview workers, one for the expensive work (and a fork server)
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait(timeout=10)
        gone, alive = psutil.wait_procs(workers, timeout=20)
        assert alive == [], [p.cmdline() for p in alive]
    finally:
        server.close()


# --- the class's language: refusals and statuses ---------------------------------------------

#: Words that give away English in a French class's refusal (the values typed stay as typed).
ENGLISH_WORDS = re.compile(r"\b(the|first|type|your|another|design|must|request|renders?|trying|such|pupil)\b")


def test_a_french_class_is_refused_in_french(tmp_path: Path) -> None:
    config = tmp_path / "class.yaml"
    config.write_text("defaults:\n  lang: fr\n", encoding="utf-8")
    room = classroom(tmp_path / "class", config=config, code="loutre-7")
    slow = RateLimit(per_second=0.001, burst=3)
    with TestClient(create_app(room, workers=1, warm=False, rate=slow)) as test_client:

        def message(response, status: int) -> str:
            assert response.status_code == status, response.text
            return response.json()["errors"][0]["message"]

        said = {
            "wrong code": message(post(test_client, "/api/join", {"name": "Léa", "code": "x"}), 422),
            "no letter": message(post(test_client, "/api/join", {"name": "!!!", "code": "loutre-7"}), 422),
            "not joined": message(test_client.get("/api/pupils/lea"), 401),
        }
        join(test_client, "Léa", code="loutre-7")
        assert (
            save(test_client, "lea", {"maze.rows": 3, "maze.cols": 3, "seed": 1, "print.cell_size": 4}).status_code
            == 200
        )
        test_client.cookies.clear()
        said["taken"] = message(post(test_client, "/api/join", {"name": "LEA", "code": "loutre-7"}), 422)
        join(test_client, "Ana", code="loutre-7")
        said["not yours"] = message(test_client.get("/api/pupils/lea"), 403)
        said["other site"] = message(
            test_client.post("/api/preview", content=b"{}", headers={"Content-Type": "text/plain", **SAME_ORIGIN}), 403
        )
        said["not json"] = message(
            test_client.post("/api/preview", content=b"{", headers={"Content-Type": "application/json", **SAME_ORIGIN}),
            400,
        )
        said["no download"] = message(test_client.get("/api/download/ana.doc"), 404)
        for _ in range(3):
            post(test_client, "/api/preview", {"options": {"maze.rows": 3, "maze.cols": 3, "seed": 1}})
        said["too many"] = message(post(test_client, "/api/preview", {"options": {}}), 429)
        said["teacher"] = message(test_client.get("/api/teacher/pupils"), 401)
        test_client.cookies.clear()
        assert post(test_client, "/api/join", {"name": "Zoé", "code": "LOUTRE-7"}).status_code == 200
        locked = post(test_client, "/api/teacher/locks", {"locks": {"print.wall_thickness": 4.5}}, **teacher(room))
        said["lock"] = message(locked, 409)
        said["lock row"] = locked.json()["invalid"][0]["error"]
        status = test_client.get("/api/teacher/pupils", headers=teacher(room)).json()["pupils"]
    # Written here by hand, as a French teacher would read them.
    assert said["wrong code"].endswith("n’est pas le code de cette classe : demande-le à l’enseignant")
    assert said["no letter"].endswith("n’a ni lettre ni chiffre : tape ton prénom")
    assert said["not joined"].startswith("rejoins d’abord la classe : tape ton prénom")
    assert "est déjà dans la classe sur un autre ordinateur" in said["taken"] or "est trop proche de" in said["taken"]
    assert said["not yours"] == "c’est le projet d’un autre élève : tu ne peux ouvrir que le tien"
    assert said["not json"] == "la requête n’est pas du JSON"
    assert said["too many"].startswith("trop de calculs à la fois ; nouvel essai dans ")
    assert said["teacher"].startswith("le jeton de l’enseignant est requis")
    assert said["lock"].startswith("ce verrou rendrait invalide le projet de 1 élève(s) (Léa: ")
    assert said["lock"].endswith(" ; confirme pour verrouiller quand même")
    for what, text in said.items():
        assert not ENGLISH_WORDS.search(text), (what, text)
    assert {row["name"]: row["status_text"] for row in status}["Zoé"] == "connecté, sans labyrinthe enregistré"


def test_statuses_read_in_the_class_language() -> None:
    from laby3d.serve.wording import status_text

    warning = "need margin >= 4 mm beside the openings, got 2.5"
    assert status_text(f"WARN: {warning}", "en") == f"WARN: {warning}"
    french = "ATTENTION : il faut une marge ≥ 4 mm à côté des ouvertures, pas 2,5"
    assert status_text(f"WARN: {warning}", "fr") == french
    assert status_text("invalid: no", "fr") == "invalide : no"
    assert status_text("ok", "fr") == "ok" and status_text("updating…", "fr") == "mise à jour…"
