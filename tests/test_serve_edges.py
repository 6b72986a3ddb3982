"""The class server at its edges (issue 28): the Host header checked against DNS rebinding, a
client that goes away logged as such (not as a bug), no request left unanswered when a future it
waits on is cancelled under it, and paths and methods no route has answered in the class's
language; the class code is case-insensitive and guesses are throttled per address (issue 27)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from starlette.applications import Starlette  # noqa: E402
from starlette.requests import Request  # noqa: E402
from starlette.responses import Response  # noqa: E402
from starlette.routing import Route  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from laby3d.serve.app import Throttles, create_app  # noqa: E402
from laby3d.serve.classroom import Classroom, settings_from_config  # noqa: E402
from laby3d.serve.http import allowed_hosts, guarded, host_name  # noqa: E402
from laby3d.serve.queue import RateLimit  # noqa: E402

SAME_ORIGIN = {"Origin": "http://testserver"}
FAST = RateLimit(per_second=1000, burst=1000)


def french_class(folder: Path, **settings: object) -> Classroom:
    config = folder / "fr.yaml"
    folder.mkdir(parents=True, exist_ok=True)
    config.write_text("defaults:\n  lang: fr\n", encoding="utf-8")
    found = settings_from_config("3e B", folder / "state", config, code=settings.pop("code", None))  # type: ignore[arg-type]
    for name, value in settings.items():
        setattr(found, name, value)
    return Classroom(found)


@pytest.mark.parametrize(
    ("header", "host"),
    [("192.168.1.20:8000", "192.168.1.20"), ("[::1]:8000", "::1"), ("Labo.Lycee.FR.", "labo.lycee.fr"), ("x", "x")],
)
def test_host_names_are_compared_without_port_case_or_final_dot(header: str, host: str) -> None:
    assert host_name(header) == host


def test_a_rebinding_page_is_refused_and_the_servers_own_names_pass(tmp_path: Path) -> None:
    """A page on evil.example whose name resolves to the class server sends Host: evil.example:
    refused (400) in the class's language, before anything runs; the address the connection
    reached, localhost, the printed address and a --host-name pass."""
    room = french_class(tmp_path, address="http://192.168.1.20:8000/", host_names=("labo.lycee.fr",))
    with TestClient(create_app(room, workers=1, warm=False, rate=FAST)) as client:
        for host in ("testserver", "localhost:8000", "127.0.0.1:8000", "[::1]:8000", "192.168.1.20:8000"):
            assert client.get("/api/options", headers={"Host": host}).status_code == 200, host
        assert client.get("/api/options", headers={"Host": "LABO.lycee.fr"}).status_code == 200
        for host in ("evil.example", "evil.example:8000", "192.168.1.20.evil.example", "labo.lycee.fr.evil"):
            answer = client.get("/api/options", headers={"Host": host})
            assert answer.status_code == 400, host
            message = answer.json()["errors"][0]["message"]
            assert message.startswith("ce serveur ne répond qu’à ") and f"pas à {host}" in message
            assert "192.168.1.20" in message and "labo.lycee.fr" in message
        page = client.get("/", headers={"Host": "evil.example"})
        assert page.status_code == 400 and page.headers["content-type"].startswith("text/plain")
        joined = client.post("/api/join", json={"name": "Ana"}, headers={"Host": "evil.example", **SAME_ORIGIN})
        assert joined.status_code == 400 and not room.store.pupils()
    assert allowed_hosts(None) == {"localhost", "127.0.0.1", "::1"}


def test_a_client_that_goes_away_is_not_logged_as_a_bug(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The body of a join never comes: the client went away. Logged as such, not as
    "internal error (a bug in laby3d)"."""
    room = Classroom(settings_from_config("2nde", tmp_path, None))
    app = create_app(room, workers=1, warm=False)
    sent: list[dict] = []

    async def scenario() -> None:
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": "/api/join",
            "raw_path": b"/api/join",
            "query_string": b"",
            "root_path": "",
            "headers": [
                (b"host", b"127.0.0.1:8000"),
                (b"content-type", b"application/json"),
                (b"origin", b"http://127.0.0.1:8000"),
                (b"content-length", b"20"),
            ],
            "client": ("127.0.0.1", 5000),
            "server": ("127.0.0.1", 8000),
            "state": {},
        }
        messages = [{"type": "http.request", "body": b'{"name":', "more_body": True}, {"type": "http.disconnect"}]

        async def receive() -> dict:
            return messages.pop(0) if messages else {"type": "http.disconnect"}

        async def send(message: dict) -> None:
            sent.append(message)

        await app(scope, receive, send)

    with caplog.at_level(logging.INFO, logger="laby3d.serve"):
        asyncio.run(scenario())
    said = [record.getMessage() for record in caplog.records]
    assert not any("internal error" in line for line in said), said
    assert any("client went away" in line for line in said), said
    assert all(record.levelno < logging.WARNING for record in caplog.records)
    assert not room.store.pupils()


def test_a_request_whose_render_is_cancelled_under_it_is_answered() -> None:
    """A future the request awaits is cancelled (not the request): the request is answered
    (503, to retry) rather than left without an answer."""

    async def endpoint(request: Request) -> Response:
        future = asyncio.get_running_loop().create_future()
        asyncio.get_running_loop().call_soon(future.cancel)
        await future
        return Response("never")

    app = Starlette(routes=[guarded(Route("/api/x", endpoint), "fr", frozenset({"testserver"}))])
    with TestClient(app) as client:
        answer = client.get("/api/x")
    assert answer.status_code == 503 and answer.headers["retry-after"] == "1"
    assert answer.json()["errors"][0]["message"] == "le calcul a été annulé (le serveur s’arrête) ; nouvel essai"


def test_paths_and_methods_no_route_has_are_answered_in_the_class_language(tmp_path: Path) -> None:
    room = french_class(tmp_path)
    with TestClient(create_app(room, workers=1, warm=False, rate=FAST)) as client:
        missing = client.get("/api/nothing")
        assert (
            missing.status_code == 404 and missing.json()["errors"][0]["message"] == "page introuvable : /api/nothing"
        )
        wrong = client.get("/api/preview")
        assert wrong.status_code == 405
        assert wrong.json()["errors"][0]["message"] == "/api/preview n’accepte pas GET"


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_guessing_the_class_code_is_throttled_per_address_and_a_class_still_joins(tmp_path: Path) -> None:
    """300 guesses from one address: the first 30 are told the code is wrong, the others to wait
    (429, Retry-After), in French; 30 pupils behind the same address join within the minute, the
    code typed in any case."""
    room = french_class(tmp_path, code="Loutre-7")
    still = Throttles(  # the class's throttles on a clock that does not move: no token comes back mid-test
        joins=RateLimit(per_second=1.0, burst=60, clock=lambda: 0.0),
        guesses=RateLimit(per_second=0.5, burst=30, clock=lambda: 0.0),
        pins=RateLimit(per_second=1 / 60, burst=5, clock=lambda: 0.0),
    )
    with TestClient(create_app(room, workers=1, warm=False, rate=FAST, throttles=still)) as client:
        answers = []
        for guess in range(300):
            client.cookies.clear()
            answers.append(client.post("/api/join", json={"name": "Ana", "code": f"x{guess}"}, headers=SAME_ORIGIN))
        statuses = [answer.status_code for answer in answers]
        assert statuses[:30] == [422] * 30 and set(statuses[30:]) == {429}
        late = answers[31]
        assert int(late.headers["retry-after"]) >= 1
        assert late.json()["errors"][0]["message"].startswith(
            "trop de codes erronés depuis cette adresse : réessaie dans "
        )
        flood = answers[-1].json()["errors"][0]["message"]  # past 60 tries, joining itself waits
        assert flood.startswith("trop de connexions depuis cette adresse ; nouvel essai dans ")
        assert (
            client.post("/api/join", json={"name": "Ana", "code": "Loutre-7"}, headers=SAME_ORIGIN).status_code == 429
        )
    room.close()
    other = french_class(tmp_path / "other", code="Loutre-7")
    with TestClient(create_app(other, workers=1, warm=False, rate=FAST)) as client:
        for index in range(30):
            client.cookies.clear()
            code = ("loutre-7", "LOUTRE-7", " Loutre-7 ")[index % 3]
            joined = client.post("/api/join", json={"name": f"Élève {index}", "code": code}, headers=SAME_ORIGIN)
            assert joined.status_code == 200, joined.text
        assert len(other.store.pupils()) == 30


def test_joins_are_throttled_per_address_beyond_a_class() -> None:
    from laby3d.serve.app import Throttles

    now = [0.0]
    throttles = Throttles.for_a_class()
    joins = throttles.joins
    joins.clock = lambda: now[0]
    assert all(joins.allow("10.0.0.1") == 0 for _ in range(60))  # a class and its retries at once
    assert joins.allow("10.0.0.1") > 0 and joins.allow("10.0.0.2") == 0  # another address is not held back
    now[0] += 30
    assert sum(joins.allow("10.0.0.1") == 0 for _ in range(40)) == 30  # then one a second


def test_the_refusals_the_server_adds_have_no_english_word_in_french() -> None:
    import re

    from laby3d.i18n.messages import SENTENCES

    english = re.compile(r"\b(the|your|yours|another|wait|try|again|newer|joins|too|many|this|name|personal)\b")
    kinds = ("serve_wrong_pin", "serve_join_rate", "serve_guess_rate", "serve_superseded", "serve_session_full")
    for kind in (*kinds, "serve_host", "serve_not_found", "serve_method", "serve_name_taken", "serve_name_close"):
        french = re.sub(r"--[\w-]+|\{\w+\}", "", SENTENCES[kind][1])  # flags are typed as they are
        assert not english.search(french), kind


def test_a_class_stored_by_an_older_version_follows_the_one_name_rule(tmp_path: Path) -> None:
    """Pupils stored under the old keys (``chloe-dupont-lefevre``, ``ltitia``) move to today's, and
    get a personal code; nothing is lost."""
    import sqlite3

    first = Classroom(settings_from_config("2nde", tmp_path, None))
    first.close()
    with sqlite3.connect(tmp_path / "class.sqlite3") as connection:
        for key, name in (("chloe-dupont-lefevre", "Chloé Dupont-Lefèvre"), ("ltitia", "Lætitia")):
            connection.execute(
                "INSERT INTO pupils (key, name, design, updated) VALUES (?, ?, ?, 0)", (key, name, '{"seed": 1}')
            )
    room = Classroom(settings_from_config("2nde", tmp_path, None))
    pupils = {pupil.key: pupil for pupil in room.store.pupils()}
    assert set(pupils) == {"chloedupontlefevre", "laetitia"}
    assert all(pupil.pin and len(pupil.pin) == 4 and pupil.design == {"seed": 1} for pupil in pupils.values())
    room.close()


def test_a_design_that_hits_a_bug_is_said_as_one_in_the_class_language(tmp_path: Path) -> None:
    """Issue 28: a design whose solid hit a bug (18 × 10 Wilson, seed 379084, hardest placement,
    margin 6) showed the pupil "an English 422". A bug is a 500 that says so, in French for a
    French class, and tells the pupil what to do; once the solid is fixed the preview answers."""
    room = french_class(tmp_path)
    with TestClient(create_app(room, workers=1, warm=False, rate=FAST)) as client:
        client.cookies.clear()
        assert client.post("/api/join", json={"name": "Ana"}, headers=SAME_ORIGIN).status_code == 200
        options = {"maze.rows": 18, "maze.cols": 10, "maze.algorithm": "wilson", "seed": 379084}
        options |= {"maze.placement": "hardest", "print.margin": 6}
        answer = client.post("/api/preview", json={"options": options}, headers=SAME_ORIGIN)
    assert answer.status_code in (200, 500), answer.text  # never a 422: the design is valid
    if answer.status_code == 500:
        message = answer.json()["errors"][0]["message"]
        assert (
            message
            == "ce projet a rencontré un bogue de laby3d (noté pour l’enseignant) : change la graine ou une taille"
        )
