"""Fair share of the class server's render workers (issue 27): per-session queues, one render at a
time per session, the least recently served session first, a newer preview replacing an older
waiting one, and a pupil beside eight greedy sessions never refused. The scheduler is tested with
renders that end when the test says (no processes, no clocks); the ASGI test runs real renders and
asserts on answers, not seconds (bench/bench_serve.py --greedy measures the times)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402

from laby3d.serve.app import create_app  # noqa: E402
from laby3d.serve.classroom import Classroom, settings_from_config  # noqa: E402
from laby3d.serve.identity import COOKIE  # noqa: E402
from laby3d.serve.queue import Busy, RateLimit, RenderPool, SessionEnded, SessionFull, Superseded  # noqa: E402

SAME_ORIGIN = {"Origin": "http://testserver"}
#: Eight names joined from one machine, each rendering without a pause.
GREEDY = ["Bo", "Cy", "Di", "Ed", "Fa", "Gu", "Hu", "Io"]


class Scripted(RenderPool):
    """A pool whose renders run in the test's hands: each waits until the test ends it, and the
    order they started in is recorded."""

    def __init__(self, workers: int, **options: Any) -> None:
        self.started: list[str] = []
        self.ends: dict[str, asyncio.Event] = {}
        super().__init__(name="test", workers=workers, queue=options.pop("queue", 64), timeout=1, **options)

    async def _execute(self, function: Any, args: tuple[Any, ...], limit: float) -> Any:
        (label,) = args
        self.started.append(label)
        self.ends[label] = asyncio.Event()
        await self.ends[label].wait()
        return label


@pytest.fixture
def no_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("laby3d.serve.queue.worker_pool", lambda *args, **kwargs: None)


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_a_pupil_beside_eight_greedy_sessions_is_served_at_once(no_processes: None) -> None:
    """Eight sessions each send four previews at once, in a loop (greedy), on two workers; a
    pupil who previews every few seconds finds a worker free every time (the sessions that render
    without a pause share the other one, round robin), and is never refused."""

    async def scenario() -> None:
        now = [0.0]
        pool = Scripted(2, clock=lambda: now[0])
        stop, sent = asyncio.Event(), [0]
        replaced: list[int] = []

        async def lane(session: str) -> None:  # one of a greedy session's four parallel loops
            while not stop.is_set():
                sent[0] += 1
                try:
                    await pool.run(None, f"{session}-{sent[0]}", session=session, replace=True)  # type: ignore[arg-type]
                except Superseded:
                    replaced.append(1)
                    await asyncio.sleep(0)

        def running() -> list[str]:
            return [label for label in pool.started if not pool.ends[label].is_set()]

        def end_one() -> None:
            pool.ends[running()[0]].set()
            now[0] += 0.1

        lanes = [asyncio.ensure_future(lane(f"greedy{g}")) for _ in range(4) for g in range(8)]
        await settle()
        assert pool.started == ["greedy0-1", "greedy1-2"]  # one render each, never two of a session
        assert pool.waiting == 8 and replaced  # each session keeps its newest waiting preview only
        while len({label.split("-")[0] for label in pool.started}) < 8:  # each greedy session served once
            end_one()
            await settle()
        for _ in range(4):
            end_one()
            await settle()
        assert len(running()) == 1  # sessions rendering without a pause share one worker
        pupil_answers = []
        for round_ in range(5):
            now[0] += 3  # the pupil thinks
            pupil = asyncio.ensure_future(pool.run(None, f"pupil-{round_}", session="pupil", replace=True))  # type: ignore[arg-type]
            await settle()
            assert pool.started[-1] == f"pupil-{round_}" and len(running()) == 2  # at once, beside one greedy render
            pool.ends[f"pupil-{round_}"].set()
            pupil_answers.append(await pupil)
            for _ in range(10):  # the greedy sessions go on meanwhile, each served again
                end_one()
                await settle()
        assert pupil_answers == [f"pupil-{n}" for n in range(5)]
        served = [label.split("-")[0] for label in pool.started if label.startswith("greedy")]
        assert len(set(served[:8])) == 8  # every greedy session once before any twice
        assert all(len(set(served[i : i + 8])) == 8 for i in range(len(served) - 8))  # round robin
        stop.set()
        while not all(lane.done() for lane in lanes):
            for end in list(pool.ends.values()):
                end.set()
            await settle()

    asyncio.run(scenario())


def test_a_session_never_runs_two_renders_and_its_queue_is_bounded(no_processes: None) -> None:
    async def scenario() -> None:
        pool = Scripted(2, per_session=2)
        first = asyncio.ensure_future(pool.run(None, "a1", session="a"))  # type: ignore[arg-type]
        second = asyncio.ensure_future(pool.run(None, "a2", session="a"))  # type: ignore[arg-type]
        third = asyncio.ensure_future(pool.run(None, "a3", session="a"))  # type: ignore[arg-type]
        await settle()
        assert pool.started == ["a1"]  # the second worker stays free for others
        with pytest.raises(SessionFull):
            await pool.run(None, "a4", session="a")  # type: ignore[arg-type]
        other = asyncio.ensure_future(pool.run(None, "b1", session="b"))  # type: ignore[arg-type]
        await settle()
        assert pool.started == ["a1", "b1"]
        pool.ends["a1"].set()
        await settle()
        assert pool.started == ["a1", "b1"]  # a2 was asked without a pause: the last free worker is kept for others
        pool.ends["b1"].set()
        await settle()
        assert pool.started == ["a1", "b1", "a2"]
        assert pool.drop("a") == 1  # the teacher ends a's session: its waiting render is dropped
        with pytest.raises(SessionEnded):
            await third
        for end in pool.ends.values():
            end.set()
        assert await first == "a1" and await second == "a2" and await other == "b1"
        assert pool.waiting == 0

    asyncio.run(scenario())


def test_a_request_that_goes_away_gives_its_place_back(no_processes: None) -> None:
    async def scenario() -> None:
        pool = Scripted(1)
        running = asyncio.ensure_future(pool.run(None, "a1", session="a"))  # type: ignore[arg-type]
        waiting = asyncio.ensure_future(pool.run(None, "b1", session="b"))  # type: ignore[arg-type]
        await settle()
        waiting.cancel()
        await settle()
        assert pool.waiting == 0
        pool.ends["a1"].set()
        later = asyncio.ensure_future(pool.run(None, "c1", session="c"))  # type: ignore[arg-type]
        await settle()
        assert pool.started == ["a1", "c1"]
        pool.ends["c1"].set()
        assert await running == "a1" and await later == "c1"

    asyncio.run(scenario())


def test_the_pool_queue_is_bounded_whatever_the_sessions(no_processes: None) -> None:
    async def scenario() -> None:
        pool = Scripted(1, queue=3)
        tasks = [asyncio.ensure_future(pool.run(None, f"s{n}", session=f"s{n}")) for n in range(4)]  # type: ignore[arg-type]
        await settle()
        with pytest.raises(Busy):
            await pool.run(None, "late", session="late")  # type: ignore[arg-type]
        for _ in range(4):
            await settle()
            for end in list(pool.ends.values()):
                end.set()
        await asyncio.gather(*tasks)

    asyncio.run(scenario())


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_a_pupil_beside_eight_greedy_sessions_is_never_refused_through_the_app(tmp_path: Path) -> None:
    """Issue 27's trial, through the ASGI app with real renders: eight names joined from one
    address each send four previews at a time in a loop (no rate limit to slow them); a ninth
    pupil's previews all come back (200), none refused or replaced."""
    room = Classroom(settings_from_config("2nde A", tmp_path, None))
    fast = RateLimit(per_second=1000, burst=1000)
    with TestClient(create_app(room, workers=1, warm=False, rate=fast)) as client:
        cookies = {}
        for name in [*GREEDY, "Ana"]:
            client.cookies.clear()
            assert client.post("/api/join", json={"name": name}, headers=SAME_ORIGIN).status_code == 200
            cookies[name] = client.cookies[COOKIE]
        client.cookies.clear()  # each request names its session in its own Cookie header

        def as_pupil(name: str) -> dict[str, str]:
            return {**SAME_ORIGIN, "Cookie": f"{COOKIE}={cookies[name]}"}

        done = False
        greedy_statuses: list[int] = []

        def greedy(name: str, lane: int) -> None:
            seed = lane * 1000
            while not done:
                seed += 1
                answer = client.post(
                    "/api/preview",
                    json={"options": {"maze.rows": 3, "maze.cols": 3, "seed": seed}},
                    headers=as_pupil(name),
                )
                greedy_statuses.append(answer.status_code)

        with ThreadPoolExecutor(33) as threads:
            loops = [threads.submit(greedy, name, lane) for name in GREEDY for lane in range(4)]
            answers = []
            for seed in range(3):
                answer = client.post(
                    "/api/preview",
                    json={"options": {"maze.rows": 3, "maze.cols": 3, "seed": 500 + seed}},
                    headers=as_pupil("Ana"),
                )
                answers.append(answer.status_code)
            done = True
            for loop in loops:
                loop.result()
        assert answers == [200] * 3
        assert set(greedy_statuses) <= {200, 409} and 200 in greedy_statuses  # replaced, never refused as busy
        listed = client.get("/api/teacher/pupils", headers={"Authorization": f"Bearer {room.token}"}).json()
        renders = {row["name"]: row["renders"]["recent"] for row in listed["pupils"]}
        assert renders["Ana"] == 3 and all(renders[name] >= 1 for name in GREEDY)
    room.close()
