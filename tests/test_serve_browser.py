"""The class web app in real headless Chromium (DevTools protocol, tests/devtools.py) against a
real uvicorn server on 127.0.0.1: a pupil joins with their name and the class code, fills the
form with real key input, sees the 2D and 3D previews change within a second, gets the CLI's
message next to a wrong field, downloads an STL byte-identical to ``laby3d generate`` (their name
engraved); a second pupil with a folded-equal name is asked for the first one's personal code or
a distinct form; "Not you? / Change pupil" clears the page; the page says what the server kept
(draft, saved) and asks before leaving with changes not kept; a teacher's lock reaches an open
pupil page within 5 s; the teacher view lists the pupil (name shown as text) and takes the token out of the address; no
console error and no request leaves localhost.

``python tests/test_serve_browser.py DIR`` writes the README's screenshots (serve-pupil.png,
serve-teacher.png) into DIR.
"""

from __future__ import annotations

import json
import os
import select
import socket
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import require_tool
from devtools import Browser

import laby3d

pytest.importorskip("uvicorn")

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """``laby3d.serve.run`` in a subprocess on a free localhost port; ``token`` as it printed it."""

    def __init__(
        self,
        folder: Path,
        class_name: str = "2nde A",
        config: Path | None = None,
        class_code: str | None = None,
        rate: float = 2.0,
    ) -> None:
        self.port = free_port()
        code = (
            "from laby3d.serve import run; "
            f"run(host='127.0.0.1', port={self.port}, class_name={class_name!r}, folder={str(folder)!r}, "
            f"config={str(config) if config else None!r}, code={class_code!r}, rate={rate!r})"
        )
        self.process = subprocess.Popen(
            [sys.executable, "-u", "-c", code], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=ROOT
        )
        self.url = f"http://127.0.0.1:{self.port}"
        self.output = ""
        self.token = ""
        deadline = time.monotonic() + 60
        while not self._answers():
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.close()
                raise RuntimeError(f"laby3d serve did not start:\n{self.output}")
            ready, _, _ = select.select([self.process.stdout], [], [], 0.2)
            if ready:
                self.output += os.read(self.process.stdout.fileno(), 65536).decode()
        self.token = self.output.split("#token=", 1)[1].split()[0]

    def _answers(self) -> bool:
        if "#token=" not in self.output:
            return False
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                return True
        except OSError:
            return False

    def write(self, path: str, data: object, *, token: bool = True) -> object:
        """A JSON write as the teacher's page makes it (the token, same origin); the answer's JSON."""
        import urllib.request

        headers = {"Content-Type": "application/json", "Origin": self.url}
        if token:
            headers["Authorization"] = f"Bearer {self.token}"
        request = urllib.request.Request(self.url + path, json.dumps(data).encode(), headers)
        with urllib.request.urlopen(request, timeout=120) as answer:
            return json.loads(answer.read())

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "class")
    yield running
    running.close()


def navigate(page: Browser, url: str, ready: str) -> None:
    page.page("Page.navigate", {"url": url})
    page.wait_for(ready, timeout=60)


def type_into(page: Browser, selector: str, text: str) -> None:
    """Select the field's text and type ``text`` as a keyboard would (real input events)."""
    page.evaluate(f"(function(){{var e=document.querySelector({json.dumps(selector)});e.focus();e.select();}})()")
    page.page("Input.insertText", {"text": text})


def click(page: Browser, selector: str) -> None:
    """A real mouse click in the middle of the element (scrolled into view first)."""
    box = page.evaluate(
        f"(function(){{var e=document.querySelector({json.dumps(selector)});e.scrollIntoView({{block:'center'}});"
        "var r=e.getBoundingClientRect();return [r.left + r.width / 2, r.top + r.height / 2];})()"
    )
    page.mouse("mouseMoved", box[0], box[1])
    page.mouse("mousePressed", box[0], box[1], button="left", clickCount=1)
    page.mouse("mouseReleased", box[0], box[1], button="left", clickCount=1)


def preview_svg(page: Browser) -> str:
    """The SVG the 2D preview shows now (once the picture has loaded)."""
    page.wait_for("(function(i){return i.complete && i.naturalWidth > 0})(document.getElementById('preview2d'))")
    return page.evaluate("laby3dServe.svg")


def glb_triangles(glb: bytes) -> int:
    """Triangles of every mesh of a GLB, read from its JSON chunk (an oracle for the viewer)."""
    length = struct.unpack_from("<I", glb, 12)[0]
    doc = json.loads(glb[20 : 20 + length])
    return sum(doc["accessors"][p["indices"]]["count"] // 3 for m in doc["meshes"] for p in m["primitives"])


def canvas_picture(page: Browser) -> str:
    return page.evaluate("document.getElementById('preview3d').toDataURL('image/png')")


def hook(page: Browser) -> dict:
    return page.evaluate("JSON.parse(JSON.stringify(window.laby3dServe))")


def console_errors(page: Browser) -> list[str]:
    found = []
    for event in page.events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            found.append(json.dumps(params["exceptionDetails"])[:300])
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "warning", "assert"):
            found.append(" ".join(str(a.get("value", a.get("description"))) for a in params.get("args", [])))
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            entry = params["entry"]
            if not (entry.get("source") == "network" and "(Unprocessable Entity)" in entry["text"]):
                found.append(entry["text"])  # a 422 is the answer to a wrong value, shown by the field
    return found


def requested_urls(page: Browser) -> list[str]:
    return [e["params"]["request"]["url"] for e in page.events if e.get("method") == "Network.requestWillBeSent"]


def open_browser(width: int = 1280, height: int = 860) -> Browser:
    # every host name still fails to resolve; 127.0.0.1 (the server) is let through
    localhost = ("--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",)
    page = Browser(require_tool("chromium"), width=width, height=height, extra_flags=localhost)
    page.page("Network.enable")
    page.page("Log.enable")
    return page


def join(page: Browser, name: str, code: str | None = None) -> None:
    """Type a name (and the class code) and press Start, as a pupil does."""
    type_into(page, "#name", name)
    if code is not None:
        type_into(page, "#code", code)
    click(page, "#join button")


@pytest.mark.slow
def test_pupil_designs_previews_downloads_and_teacher_sees_them(server: Server, tmp_path: Path) -> None:
    from laby3d.cli import main as cli_main

    downloads = tmp_path / "downloads"
    downloads.mkdir()
    name = "Zoé <b>O'C</b>"
    with open_browser() as page:
        page.send("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
        navigate(page, server.url + "/", "window.laby3dServe && laby3dServe.ready")
        assert page.evaluate("document.getElementById('design').hidden") is True  # joining comes first
        join(page, name)
        page.wait_for("laby3dServe.joined && laby3dServe.models >= 1", timeout=60)
        assert page.evaluate("document.getElementById('who-name').textContent") == name
        assert page.evaluate("document.getElementById('f-label').value") == name  # engraved, not editable
        assert page.evaluate("document.getElementById('f-label').disabled") is True
        first_svg, first_picture = preview_svg(page), canvas_picture(page)
        first_triangles = hook(page)["triangles"]
        assert first_triangles > 0

        changes = [
            ("#f-maze-rows", "8"),
            ("#f-maze-cols", "6"),
            ("#f-print-cell_size", "9"),
            ("#f-print-margin", "5"),
            ("#f-seed", "4242"),
        ]
        for selector, value in changes:
            before = hook(page)["models"]
            start = time.monotonic()
            type_into(page, selector, value)
            page.wait_for(f"laby3dServe.models > {before}", timeout=10)
            assert time.monotonic() - start < 1.5, f"preview after {selector} took {time.monotonic() - start:.2f} s"
        svg = preview_svg(page)
        assert svg != first_svg and 'viewBox="0 0 65.6 83.6"' in svg  # 6 × 9 + 2 × (5 + 0.8), 8 × 9 + 11.6
        assert canvas_picture(page) != first_picture
        assert hook(page)["triangles"] not in (0, first_triangles)
        assert hook(page)["triangles"] == glb_triangles(
            laby3d.render(laby3d.generate(8, 6, seed=4242), "glb", cell_size=9, margin=5, label=name)
        )
        assert page.evaluate("document.querySelector('#report').textContent").startswith("Size: 66 × 84 × 10 mm")

        before_errors = hook(page)["errors"]
        type_into(page, "#f-print-wall_thickness", "12")
        page.wait_for(f"laby3dServe.errors > {before_errors}", timeout=10)
        shown = page.evaluate("document.getElementById('f-print-wall_thickness-error').textContent")
        assert shown == "--wall-thickness must be < cell_size (9 mm) so corridors stay open, got 12"
        before = hook(page)["models"]
        type_into(page, "#f-print-wall_thickness", "1.6")
        page.wait_for(f"laby3dServe.models > {before}", timeout=10)
        assert page.evaluate("document.getElementById('f-print-wall_thickness-error').textContent") == ""

        click(page, "#downloads button[data-format='stl']")
        deadline = time.monotonic() + 30
        while not list(downloads.glob("*.stl")) and time.monotonic() < deadline:
            time.sleep(0.1)
        (stl,) = downloads.glob("*.stl")
        time.sleep(0.3)  # let Chromium finish the file
        flags = ["--rows", "8", "--cols", "6", "--cell-size", "9", "--margin", "5", "--seed", "4242", "--label", name]
        assert cli_main(["generate", *flags, "-o", str(tmp_path / "cli.stl")]) == 0
        assert stl.read_bytes() == (tmp_path / "cli.stl").read_bytes()

        navigate(page, f"{server.url}/teacher#token={server.token}", "window.laby3dTeacher && laby3dTeacher.ready")
        assert page.evaluate("location.hash") == ""  # the token left the address bar
        page.wait_for("laby3dTeacher.pupils.length >= 1", timeout=20)
        assert page.evaluate("laby3dTeacher.pupils") == [name]
        cell = page.evaluate("document.querySelector('#pupils tbody td:nth-child(2)').textContent")
        page.wait_for("document.querySelector('#pupils tbody img.thumb').naturalWidth > 0", timeout=10)
        assert cell.startswith(name) and page.evaluate("document.querySelectorAll('#pupils b').length") == 0

        assert console_errors(page) == []
        urls = requested_urls(page)
        assert urls and all(url.startswith((server.url + "/", "blob:", "data:")) for url in urls), urls


@pytest.mark.slow
def test_names_are_unique_in_the_class_and_a_shared_pc_changes_pupil(tmp_path: Path) -> None:
    server = Server(tmp_path / "class", class_code="otter")
    try:
        with open_browser() as first, open_browser() as second:
            navigate(first, server.url + "/#code=otter", "window.laby3dServe && laby3dServe.ready")
            assert first.evaluate("location.hash") == ""  # the code from the QR code, then out of the address
            join(first, "Léa")
            first.wait_for("laby3dServe.joined && laby3dServe.models >= 1", timeout=60)

            navigate(second, server.url + "/", "window.laby3dServe && laby3dServe.ready")
            join(second, "LEA", code="wrong")
            second.wait_for("document.getElementById('code-error').textContent.length > 0", timeout=20)
            type_into(second, "#code", "otter")
            click(second, "#join button")
            second.wait_for("document.getElementById('pin-error').textContent.length > 0", timeout=20)
            refusal = second.evaluate("document.getElementById('pin-error').textContent")
            assert "'LEA M.'" in refusal and "Léa" in refusal and "personal code" in refusal
            assert second.evaluate("laby3dServe.joined") is False
            assert second.evaluate("document.getElementById('pin-row').hidden") is False
            pin = first.evaluate("document.getElementById('who-pin').textContent").split()[-1]

            # the first pupil leaves the shared PC: the page is clean for the next one
            click(first, "#leave")
            first.wait_for("window.laby3dServe && laby3dServe.ready && !laby3dServe.joined", timeout=20)
            assert first.evaluate("document.getElementById('design').hidden") is True
            assert first.evaluate("document.getElementById('name').value") == ""
            assert first.evaluate("document.getElementById('preview2d').getAttribute('src')") is None
            type_into(second, "#pin", pin)  # Léa on her new computer, with her personal code
            click(second, "#join button")
            second.wait_for("laby3dServe.joined && laby3dServe.models >= 1", timeout=60)
            assert second.evaluate("document.getElementById('who-name').textContent") == "Léa"
            assert console_errors(first) == [] and console_errors(second) == []
    finally:
        server.close()


@pytest.mark.slow
def test_a_lock_reaches_an_open_pupil_page_and_the_class_set_downloads(server: Server, tmp_path: Path) -> None:
    import zipfile

    downloads = tmp_path / "downloads"
    downloads.mkdir()
    with open_browser() as pupil, open_browser() as page:
        navigate(pupil, server.url + "/", "window.laby3dServe && laby3dServe.ready")
        join(pupil, "Ana")
        pupil.wait_for("laby3dServe.joined && laby3dServe.models >= 1", timeout=60)
        click(pupil, "#save")
        pupil.wait_for("document.getElementById('save-state').textContent.length > 0", timeout=20)

        page.send("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
        navigate(page, f"{server.url}/teacher#token={server.token}", "window.laby3dTeacher && laby3dTeacher.ready")
        page.wait_for("laby3dTeacher.pupils.length == 1", timeout=20)
        page.evaluate("document.querySelector('#f-print-printer').value = 'mini'")
        click(page, ".field[data-path='print.printer'] .lock-box")
        click(page, "#save-locks")
        locked_at = time.monotonic()
        page.wait_for("document.getElementById('locks-state').textContent == '✓'", timeout=20)
        # the open pupil page follows within 5 s (it polls every 4 s), and its preview with it
        pupil.wait_for("document.getElementById('f-print-printer').disabled", timeout=10)
        assert time.monotonic() - locked_at < 6
        assert pupil.evaluate("document.getElementById('f-print-printer').value") == "mini"
        pupil.wait_for(
            "document.getElementById('report').textContent.indexOf('mini: Fits the printer') >= 0", timeout=10
        )

        page.wait_for("laby3dTeacher.updating === 0 && laby3dTeacher.totals.print_seconds > 0", timeout=30)
        click(page, "#class-zip")
        deadline = time.monotonic() + 90
        while not list(downloads.glob("*.zip")) and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(0.5)
        (archive,) = downloads.glob("*.zip")
        with zipfile.ZipFile(archive) as zipped:
            manifest = json.loads(zipped.read("manifest.json"))
            names = zipped.namelist()
        assert [m["label"] for m in manifest["mazes"]] == ["Ana"] and manifest["failed"] == 0
        assert manifest["mazes"][0]["printability"]["printer"]["name"] == "mini"
        assert {"2nde-A.worksheet.pdf", "2nde-A.key.pdf", "README.txt"} <= set(names)
        assert console_errors(page) == [] and console_errors(pupil) == []


@pytest.mark.slow
def test_the_page_says_what_is_kept_and_a_reload_finds_the_draft(server: Server) -> None:
    """Issue 27: a pupil who previews and reloads found their old design. Now each valid preview
    is kept ("Draft kept, not saved yet"), a change the server has not kept (refused) is said
    ("Not saved yet") and leaving then asks first; the reload shows the draft; saving says
    "Saved"."""
    from laby3d.serve.page import strings

    text = strings("en")
    with open_browser() as page:
        navigate(page, server.url + "/", "window.laby3dServe && laby3dServe.ready")
        join(page, "Ana")
        page.wait_for("laby3dServe.joined && laby3dServe.models >= 1", timeout=60)
        page.wait_for("laby3dServe.saveState === 'kept'", timeout=10)
        assert page.evaluate("document.getElementById('save-state').textContent") == text["draft_kept"]
        import re

        assert re.fullmatch(
            r"· your personal code: \d{4}", page.evaluate("document.getElementById('who-pin').textContent")
        )
        before = hook(page)["models"]
        type_into(page, "#f-maze-rows", "7")
        page.wait_for(f"laby3dServe.models > {before} && laby3dServe.saveState === 'kept'", timeout=20)
        seed = hook(page)["seed"]
        errors = hook(page)["errors"]
        type_into(page, "#f-print-wall_thickness", "12")  # refused: not kept
        page.wait_for(f"laby3dServe.errors > {errors}", timeout=20)
        assert hook(page)["saveState"] == "unsaved"
        assert page.evaluate("document.getElementById('save-state').textContent") == text["not_saved"]
        dialogs = len(page.dialogs())
        page.page("Page.navigate", {"url": server.url + "/?away"})  # the page asks first (dismissed: it stays)
        deadline = time.monotonic() + 10
        while len(page.dialogs()) == dialogs and time.monotonic() < deadline:
            page.evaluate("1")
            time.sleep(0.1)
        assert [d["params"]["type"] for d in page.dialogs()[dialogs:]] == ["beforeunload"]
        assert page.evaluate("location.search") == "" and hook(page)["joined"]
        type_into(page, "#f-print-wall_thickness", "1.6")
        page.wait_for("laby3dServe.saveState === 'kept'", timeout=20)
        page.evaluate("window.__devtools_leaving = true")
        page.page("Page.reload")  # kept: no question, and the reload finds the draft
        page.wait_for("!window.__devtools_leaving && window.laby3dServe && laby3dServe.ready", timeout=60)
        assert len(page.dialogs()) == dialogs + 1
        assert page.evaluate("document.getElementById('f-maze-rows').value") == "7"
        assert page.evaluate("document.getElementById('f-print-wall_thickness').value") == "1.6"
        assert page.evaluate("document.getElementById('f-seed').value") == str(seed)
        page.wait_for("laby3dServe.saveState === 'kept'", timeout=20)
        click(page, "#save")
        page.wait_for("laby3dServe.saveState === 'saved'", timeout=20)
        assert page.evaluate("document.getElementById('save-state').textContent") == text["saved"] + " ✓"
        assert console_errors(page) == []


@pytest.mark.slow
def test_a_stopped_server_is_said_in_words_and_the_page_tries_again(server: Server) -> None:
    from laby3d.serve.page import strings

    with open_browser() as page:
        navigate(page, server.url + "/", "window.laby3dServe && laby3dServe.ready")
        join(page, "Ana")
        page.wait_for("laby3dServe.joined && laby3dServe.models >= 1", timeout=60)
        server.close()
        type_into(page, "#f-maze-rows", "7")
        page.wait_for("laby3dServe.retries > 0", timeout=20)
        shown = page.evaluate("document.getElementById('general-error').textContent")
        assert shown == strings("en")["offline"]
        assert "Failed to fetch" not in page.evaluate("document.body.innerText")


@pytest.mark.slow
def test_a_pupil_over_the_rate_limit_is_told_when_and_the_page_tries_again(tmp_path: Path) -> None:
    server = Server(tmp_path / "class", rate=0.1)  # bursts of 12, then one render every 10 s
    try:
        with open_browser() as page:
            navigate(page, server.url + "/", "window.laby3dServe && laby3dServe.ready")
            join(page, "Ana")
            page.wait_for("laby3dServe.joined && laby3dServe.models >= 1", timeout=60)
            for seed in range(1, 20):
                before = hook(page)["previews"]
                type_into(page, "#f-seed", str(seed))
                page.wait_for(f"laby3dServe.previews > {before} || laby3dServe.retries > 0", timeout=20)
                if hook(page)["retries"]:
                    break
            said = page.evaluate("document.getElementById('general-error').textContent")
            assert "too many renders" in said and "trying again in" in said
            page.wait_for(f"laby3dServe.seed === {seed}", timeout=30)  # the retry got the preview
            assert hook(page)["errors"] == 0
    finally:
        server.close()


@pytest.mark.slow
def test_teacher_page_asks_for_the_token(server: Server) -> None:
    with open_browser() as page:
        navigate(page, server.url + "/teacher", "window.laby3dTeacher && laby3dTeacher.ready")
        assert page.evaluate("document.getElementById('token-form').hidden") is False
        type_into(page, "#token", server.token)
        click(page, "#token-form button")
        page.wait_for("document.querySelector('#totals').textContent.length > 0", timeout=20)
        assert console_errors(page) == []


def screenshots(folder: Path) -> None:
    """The README's pictures: a pupil's page mid-design and the teacher's view of a small class."""
    import urllib.request

    from laby3d.serve.identity import name_key

    with tempfile.TemporaryDirectory() as state:
        server = Server(Path(state) / "class", class_name="2nde STI2D", class_code="otter")
        try:
            pupils = {
                "Ana": {"maze.rows": 10, "maze.cols": 10, "seed": 11, "label": "Ana", "print.margin": 6},
                "Ben": {"maze.rows": 12, "maze.cols": 12, "seed": 12, "print.solution": "ridge"},
                "Chloé": {"maze.rows": 15, "maze.cols": 15, "seed": 13, "print.cell_size": 8},
                "Dmitri": {"maze.rows": 20, "maze.cols": 20, "seed": 14, "print.wall_height": 6},
            }
            server.write("/api/teacher/locks", {"locks": {"print.printer": "mini"}})
            for name, options in pupils.items():
                opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
                headers = {"Content-Type": "application/json", "Origin": server.url}
                for path, body in (
                    ("/api/join", {"name": name, "code": "otter"}),
                    (f"/api/pupils/{name_key(name)}", {"options": options}),
                ):
                    request = urllib.request.Request(server.url + path, json.dumps(body).encode(), headers)
                    opener.open(request, timeout=60).read()
            with open_browser(1360, 820) as page:
                navigate(page, server.url + "/", "window.laby3dServe && laby3dServe.ready")
                join(page, "Élodie", code="otter")
                page.wait_for("laby3dServe.joined && laby3dServe.models >= 1", timeout=60)
                for selector, value in (("#f-maze-rows", "12"), ("#f-maze-cols", "12"), ("#f-print-margin", "6")):
                    type_into(page, selector, value)
                    time.sleep(0.6)
                page.evaluate("document.getElementById('f-print-solution').value = 'groove'")
                page.evaluate(
                    "document.getElementById('f-print-solution').dispatchEvent(new Event('change', {bubbles: true}))"
                )
                time.sleep(1.5)
                page.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
                time.sleep(0.3)
                (folder / "serve-pupil.png").write_bytes(page.screenshot())
                navigate(page, f"{server.url}/teacher#token={server.token}", "window.laby3dTeacher.pupils.length >= 4")
                time.sleep(0.5)
                (folder / "serve-teacher.png").write_bytes(page.screenshot())
        finally:
            server.close()


if __name__ == "__main__":
    screenshots(Path(sys.argv[1]))
