"""The class web app in French (``defaults: {lang: fr}``) in real headless Chromium: no field
label, help, choice, error, time or total on the pupil and teacher pages is the English text,
and numbers are written the French way (``50,9 g``, ``environ 3 h 35 min``, ``Totaux :``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_serve_browser import Server, click, console_errors, hook, join, navigate, open_browser, type_into

from laby3d.options import job_flag_fields

pytest.importorskip("uvicorn")

#: Labels that are the same word in both languages.
SAME_WORD = {"solution", "options"}
#: Choices shown as they are typed in both languages: printer models.
NAMES_AS_TYPED = {"print.printer"}
#: Words that give away English on a French page.
ENGLISH = re.compile(r"\b(about|must|got|of printing|of filament|Totals|mazes|Size|Print time|needs?)\b")


@pytest.fixture
def french_server(tmp_path: Path) -> Server:
    config = tmp_path / "class.yaml"
    config.write_text("defaults:\n  lang: fr\n", encoding="utf-8")
    running = Server(tmp_path / "class", class_name="2nde B", config=config)
    yield running
    running.close()


FIELDS_JS = """Array.from(document.querySelectorAll('#form .field')).map(function (row) {
  var select = row.querySelector('select');
  return {path: row.dataset.path, label: row.querySelector('label').textContent,
          help: row.querySelector('.help').textContent,
          choices: select ? Array.from(select.options).filter(function (o) { return o.value; })
                             .map(function (o) { return [o.value, o.textContent]; }) : []};
})"""


@pytest.mark.slow
def test_the_french_pupil_and_teacher_pages_say_nothing_in_english(french_server: Server) -> None:
    english = {path: field for path, field, _ in job_flag_fields()}
    with open_browser() as page:
        navigate(page, french_server.url + "/", "window.laby3dServe && laby3dServe.ready")
        join(page, "Léa")
        page.wait_for("laby3dServe.joined && laby3dServe.models >= 1", timeout=60)
        assert page.evaluate("document.documentElement.lang") == "fr"
        rows = page.evaluate(FIELDS_JS)
        assert len(rows) > 20
        for row in rows:
            path, field = row["path"], english[row["path"]]
            assert row["label"] != path.split(".")[-1].replace("_", " ") or row["label"] in SAME_WORD, row
            assert row["help"] and row["help"] != field.description, row
            for value, shown in row["choices"]:
                assert shown != value or path in NAMES_AS_TYPED, (path, value, shown)

        # A wrong value: the message under the field, in French (written here by hand).
        before = hook(page)["errors"]
        type_into(page, "#f-print-wall_thickness", "12")
        page.wait_for(f"laby3dServe.errors > {before}", timeout=10)
        shown = page.evaluate("document.getElementById('f-print-wall_thickness-error').textContent")
        assert (
            shown == "Épaisseur des murs : doit être < cell_size (10 mm) pour que les couloirs restent ouverts, pas 12"
        )
        before = hook(page)["models"]
        type_into(page, "#f-print-wall_thickness", "1.6")
        page.wait_for(f"laby3dServe.models > {before}", timeout=10)
        assert page.evaluate("document.getElementById('f-print-wall_thickness-error').textContent") == ""

        # A printer with a time model: the report gives time and filament, written the French way.
        before = hook(page)["models"]
        page.evaluate(
            "(function(s){s.value='mini';s.dispatchEvent(new Event('change',{bubbles:true}));})"
            "(document.getElementById('f-print-printer'))"
        )
        page.wait_for(f"laby3dServe.models > {before}", timeout=10)
        report = page.evaluate("document.getElementById('report').innerText")
        assert re.search(r"Taille : \d+ × \d+ × \d+ mm", report), report
        assert re.search(r"Durée d'impression : environ (\d+ h \d\d min|\d+ min)", report), report
        assert re.search(r"Filament : \d+,\d g", report), report
        assert not ENGLISH.search(report), report

        click(page, "#save")
        page.wait_for("document.getElementById('save-state').textContent.length > 0", timeout=20)

        navigate(
            page,
            f"{french_server.url}/teacher#token={french_server.token}",
            "window.laby3dTeacher && laby3dTeacher.ready",
        )
        page.wait_for("laby3dTeacher.pupils.length == 1", timeout=20)
        page.wait_for("document.getElementById('totals').textContent.length > 0", timeout=20)
        totals = page.evaluate("document.getElementById('totals').textContent")
        assert re.fullmatch(
            r"Totaux : 1 labyrinthe · environ (\d+ h \d\d min|\d+ min) d'impression · \d+ g de filament", totals
        ), totals
        row = page.evaluate("document.querySelector('#pupils tbody tr').innerText")
        assert re.search(r"environ (\d+ h \d\d min|\d+ min)", row) and re.search(r"\d+,\d g", row), row
        assert not ENGLISH.search(row), row
        lock_labels = page.evaluate("Array.from(document.querySelectorAll('#locks label')).map(l => l.textContent)")
        assert "épaisseur des murs" in lock_labels
        assert console_errors(page) == []
