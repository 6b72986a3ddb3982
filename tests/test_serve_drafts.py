"""Autosave (issue 27: "a pupil who designs, sees the preview and reloads finds their old design;
2 of 5 pupils never saved, so the teacher's list shows them empty and the class ZIP leaves them
out"): every valid preview is the pupil's draft, shown again on reload; the teacher's list has
each pupil's last change and last save; the class set takes a draft rather than leaving its pupil
out, and says it is one."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402

from laby3d.serve.app import create_app  # noqa: E402
from laby3d.serve.classroom import Classroom, settings_from_config  # noqa: E402
from laby3d.serve.identity import COOKIE  # noqa: E402
from laby3d.serve.queue import RateLimit  # noqa: E402

SAME_ORIGIN = {"Origin": "http://testserver"}
FAST = RateLimit(per_second=1000, burst=1000)


def joined(client: TestClient, name: str) -> str:
    client.cookies.clear()
    answer = client.post("/api/join", json={"name": name}, headers=SAME_ORIGIN)
    assert answer.status_code == 200, answer.text
    return answer.json()["key"]


def preview(client: TestClient, options: dict) -> dict:
    answer = client.post("/api/preview", json={"options": options}, headers=SAME_ORIGIN)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_reload_after_a_preview_finds_the_draft_and_saving_is_said(tmp_path: Path) -> None:
    room = Classroom(settings_from_config("2nde", tmp_path, None))
    with TestClient(create_app(room, workers=1, warm=False, rate=FAST)) as client:
        joined(client, "Ana")
        drawn = preview(client, {"maze.rows": 4, "maze.cols": 5})
        assert drawn["kept"] is True
        cookie = client.cookies[COOKIE]
        client.cookies.clear()
        client.cookies.set(COOKIE, cookie)  # the page reloaded
        me = client.get("/api/me").json()
        assert me["design"] == {"maze.rows": 4, "maze.cols": 5, "seed": drawn["seed"]}
        assert me["saved_design"] is None and me["saved"] is None and me["changed"] > 0
        # an invalid change is not kept: the draft stays the last valid one
        assert client.post("/api/preview", json={"options": {"maze.rows": 0}}, headers=SAME_ORIGIN).status_code == 422
        assert client.get("/api/me").json()["design"] == me["design"]
        # saving: the saved design is the draft, and both times are set
        saved = client.post("/api/pupils/ana", json={"options": me["design"]}, headers=SAME_ORIGIN).json()
        assert saved["saved_design"] == me["design"] and saved["saved"] >= me["changed"]
        # a later preview is the draft; the saved design stays what was saved
        later = preview(client, {"maze.rows": 6, "maze.cols": 5, "seed": 3})
        again = client.get("/api/me").json()
        assert again["design"] == {"maze.rows": 6, "maze.cols": 5, "seed": 3} and later["seed"] == 3
        assert again["saved_design"] == me["design"] and again["changed"] >= again["saved"]


def test_the_teacher_sees_last_change_and_last_save_and_drafts(tmp_path: Path) -> None:
    room = Classroom(settings_from_config("2nde", tmp_path, None))
    with TestClient(create_app(room, workers=1, warm=False, rate=FAST)) as client:
        joined(client, "Ana")
        preview(client, {"maze.rows": 4, "seed": 1})
        joined(client, "Ben")
        preview(client, {"maze.rows": 5, "seed": 2})
        client.post("/api/pupils/ben", json={"options": {"maze.rows": 5, "seed": 2}}, headers=SAME_ORIGIN)
        joined(client, "Chloé")  # joined only
        listed = client.get("/api/teacher/pupils", headers={"Authorization": f"Bearer {room.token}"}).json()
    rows = {row["name"]: row for row in listed["pupils"]}
    assert rows["Ana"]["draft"] is True and rows["Ana"]["status"] == "ok" and rows["Ana"]["saved"] is None
    assert rows["Ana"]["changed"] > 0 and rows["Ana"]["design"] == {"maze.rows": 4, "seed": 1}
    assert rows["Ana"]["summary"]["filament_g"] > 0  # the draft's report: not empty any more
    assert rows["Ben"]["draft"] is False and rows["Ben"]["saved"] >= rows["Ben"]["changed"] - 1
    assert rows["Chloé"]["design"] is None and rows["Chloé"]["status"] == "joined"
    assert listed["totals"]["mazes"] == 2


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_the_class_set_takes_a_draft_rather_than_leaving_its_pupil_out(tmp_path: Path) -> None:
    config = tmp_path / "class.yaml"
    config.write_text("defaults:\n  formats: [maze.json]\n", encoding="utf-8")
    room = Classroom(settings_from_config("3e B", tmp_path / "state", config))
    teacher = {"Authorization": f"Bearer {room.token}"}
    with TestClient(create_app(room, workers=1, warm=False, rate=FAST)) as client:
        joined(client, "Ana")
        client.post("/api/pupils/ana", json={"options": {"maze.rows": 4, "seed": 1}}, headers=SAME_ORIGIN)
        joined(client, "Ben")
        preview(client, {"maze.rows": 5, "seed": 2})  # never saved
        exported = client.get("/api/teacher/class.yaml", headers=teacher).text
        archive = client.get("/api/teacher/class.zip", headers=teacher)
    assert "# draft (never saved: their last preview): Ben" in exported
    assert "name: Ben" in exported and "name: Ana" in exported
    assert archive.status_code == 200 and "x-laby3d-left-out" not in archive.headers
    with zipfile.ZipFile(io.BytesIO(archive.content)) as zipped:
        note = zipped.read("README.txt").decode()
        names = zipped.namelist()
    assert "  Ben: ok (draft)" in note and "  Ana: ok\n" in note
    assert "Drafts (never saved by the pupil: their last preview is taken):\n  Ben" in note
    assert any(name.startswith("Ben/") for name in names)
