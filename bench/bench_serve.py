"""Benchmark: the class web app under a class of simulated pupils.

Run: ``.venv/bin/python bench/bench_serve.py [--pupils 30] [--seconds 60] [--think 2 3] [--json]``,
or ``… --greedy [--seconds 30]`` for the fair-share scenario (below).

Starts ``laby3d serve`` (2 preview workers, one for the expensive work) on a free 127.0.0.1 port
in a subprocess, then runs a class for ``--seconds``, every pupil from the SAME address (as a
school behind one NAT address), each with their own session and connection:

- ``--pupils`` pupils join with their name and save a 15 × 15 design once; then each changes one
  parameter (a new seed, cell size, wall height, margin, solution or algorithm), waits for the
  preview (``POST /api/preview``: the 2D picture and the report) and the solid
  (``GET /api/model.glb``) as the page does, and thinks for a random ``--think`` interval
  (seconds, uniform) before the next change;
- one more pupil asks for the lesson PDF of a 100 × 100 maze every ``--lesson-every`` seconds
  (about 14 s of work each on a quiet machine, on the expensive-work worker);
- the teacher's page polls the class list every 5 s, and at each poll, and every 0.5 s besides,
  a static file (``/static/serve.css``) is fetched and timed: the event loop's latency.

Every run is bounded: clients stop at the deadline, each request has a timeout.

With ``--browser`` the last pupil is headless Chromium on the real page: the page's own clock
times a typed change to the 3D preview drawn (debounce, preview, GLB, drawing; Chromium's
software WebGL shares the 2 cores with the server and the other pupils).

Prints the round trip (change → both previews received) median, p95 and maximum, requests by
status (refusals: 429 and 503; errors: anything else but 200), the lesson PDFs' times, the static
file's p95 (during the teacher's polls, and overall), and the server's resident memory (process
and workers) after warm-up, at its peak and at the end, then checks the server still answers.
``--json`` prints the figures as JSON (the slow load test in tests/test_serve.py reads them).

``--greedy`` (issue 27: "one pupil can starve the class"): one pupil changes a 15 × 15 maze every
``--think`` seconds and waits for both previews, alone for ``--seconds`` and for as long beside
eight greedy sessions, in three turns of each (alone, beside, alone…: both see the same load on
a shared machine); the greedy sessions (eight names joined from the same address) that each send four
previews at a time in a loop, a new seed each (so the cache never answers), waiting only when
told to (429/503: after the Retry-After, as the page does; a replaced preview, 409: at once).
Prints the pupil's round trip median and p95 alone and beside them, the ratio (target ≤ 4×),
the pupil's refusals (target 0), the greedy sessions' answers, and the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from test_serve_browser import Server  # noqa: E402


def resident_mb(pid: int) -> float:
    """Resident memory of a process and its descendants, MB (from /proc)."""
    total, pending = 0.0, [pid]
    while pending:
        current = pending.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            total += int(status.split("VmRSS:")[1].split()[0]) / 1024
            for task in Path(f"/proc/{current}/task").iterdir():
                pending += [int(child) for child in (task / "children").read_text().split()]
        except (OSError, IndexError, ValueError):
            continue
    return total


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of a process and its live descendants, s (from /proc)."""

    tick = os.sysconf("SC_CLK_TCK")
    total, pending = 0.0, [pid]
    while pending:
        current = pending.pop()
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
            for task in Path(f"/proc/{current}/task").iterdir():
                pending += [int(child) for child in (task / "children").read_text().split()]
        except (OSError, IndexError, ValueError):
            continue
    return total


def change(rng: np.random.Generator, design: dict[str, Any]) -> dict[str, Any]:
    """The design with one parameter changed, as a pupil would."""
    design = dict(design)
    kind = rng.integers(6)
    if kind == 0:
        design["seed"] = int(rng.integers(2**32))
    elif kind == 1:
        design["print.cell_size"] = float(rng.choice([8, 9, 10, 11, 12]))
    elif kind == 2:
        design["print.wall_height"] = float(rng.choice([4, 6, 8, 10]))
    elif kind == 3:
        design["print.margin"] = float(rng.choice([0, 3, 6]))
    elif kind == 4:
        design["print.solution"] = str(rng.choice(["none", "groove", "ridge"]))
    else:
        design["maze.algorithm"] = str(rng.choice(["kruskal", "backtracker", "wilson", "prim", "eller"]))
    return design


def percentile(values: list[float], share: float) -> float | None:
    """The ``share`` percentile of ``values`` (nearest rank), None when empty."""
    ordered = sorted(values)
    return round(ordered[int(share * (len(ordered) - 1))], 4) if ordered else None


async def joined(url: str, name: str, design: dict[str, Any]) -> httpx.AsyncClient:
    """A client with its own session as pupil ``name``, their design saved."""
    client = httpx.AsyncClient(base_url=url, timeout=60, headers={"Origin": url})
    answer = await client.post("/api/join", json={"name": name})
    answer.raise_for_status()
    saved = await client.post(f"/api/pupils/{answer.json()['key']}", json={"options": design})
    saved.raise_for_status()
    return client


async def round_trip(client: httpx.AsyncClient, design: dict[str, Any], results: dict[str, list[Any]]) -> None:
    """One change as the page makes it: the preview, then the solid's GLB; the time both took in
    ``results["round_trip"]``, the statuses in ``results["status"]``."""
    start = time.perf_counter()
    try:
        response = await client.post("/api/preview", json={"options": design})
        results["status"].append(response.status_code)
        if response.status_code == 200:
            model = await client.get(response.json()["model"])
            results["status"].append(model.status_code)
            if model.status_code == 200:
                results["round_trip"].append(time.perf_counter() - start)
    except httpx.HTTPError as error:
        results["status"].append(type(error).__name__)


async def pupil(
    index: int, url: str, deadline: float, think: tuple[float, float], results: dict[str, list[Any]]
) -> None:
    """One pupil changing parameters until ``deadline`` (monotonic s)."""
    rng = np.random.default_rng(index)
    design: dict[str, Any] = {"maze.rows": 15, "maze.cols": 15, "seed": int(rng.integers(2**32))}
    client = await joined(url, f"Pupil {index + 1}", design)
    try:
        await asyncio.sleep(rng.uniform(*think))
        while time.monotonic() < deadline:
            design = change(rng, design)
            await round_trip(client, design, results)
            await asyncio.sleep(rng.uniform(*think))
    finally:
        await client.aclose()


async def lesson_pupil(url: str, deadline: float, every: float, results: dict[str, list[Any]]) -> None:
    """A pupil asking for a 100 × 100 lesson PDF every ``every`` s (the next one once the last
    has come back)."""
    client = await joined(url, "Lesson Reader", {"maze.rows": 100, "maze.cols": 100, "seed": 7})
    key = (await client.get("/api/me")).json()["key"]
    try:
        next_at = time.monotonic()
        while next_at < deadline:
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
            start = time.perf_counter()
            try:
                response = await client.get(f"/api/download/{key}.lesson.pdf", timeout=300)
                results["lesson_status"].append(response.status_code)
                if response.status_code == 200 and response.content.startswith(b"%PDF"):
                    results["lesson"].append(time.perf_counter() - start)
            except httpx.HTTPError as error:
                results["lesson_status"].append(type(error).__name__)
            next_at += every
    finally:
        await client.aclose()


async def teacher(url: str, token: str, deadline: float, results: dict[str, list[Any]]) -> None:
    """The teacher's page polling the class list every 5 s; a static file timed at each poll, and
    every 0.5 s besides (another pupil's page loading its stylesheet)."""

    async def static(client: httpx.AsyncClient, into: str) -> None:
        start = time.perf_counter()
        response = await client.get("/static/serve.css")
        results["status"].append(response.status_code)
        results[into].append(time.perf_counter() - start)

    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=url, timeout=60) as client, httpx.AsyncClient(base_url=url) as other:
        next_poll = time.monotonic() + 5
        while time.monotonic() < deadline:
            if time.monotonic() >= next_poll:
                start = time.perf_counter()
                poll = asyncio.ensure_future(client.get("/api/teacher/pupils", headers=headers))
                await asyncio.sleep(0.005)  # the poll is being served: a static file now
                await static(other, "static_during_poll")
                response = await poll
                results["status"].append(response.status_code)
                results["poll"].append(time.perf_counter() - start)
                next_poll += 5
            await static(other, "static")
            await asyncio.sleep(0.5)


async def sample_memory(pid: int, deadline: float, samples: list[float]) -> None:
    while time.monotonic() < deadline:
        samples.append(resident_mb(pid))
        await asyncio.sleep(0.5)


def pupil_page(url: str) -> Any:
    """Headless Chromium with the pupil page loaded (before the clock starts)."""
    from test_serve_browser import open_browser

    page = open_browser()
    from test_serve_browser import join

    page.page("Page.navigate", {"url": url + "/"})
    page.wait_for("window.laby3dServe && laby3dServe.ready", timeout=60)
    join(page, "Chromium Pupil")
    page.wait_for("laby3dServe.joined && laby3dServe.models >= 1", timeout=60)
    return page


def browser_pupil(page: Any, deadline: float, think: tuple[float, float], results: dict[str, list[Any]]) -> None:
    """One pupil in headless Chromium: types a new seed, and the page's own clock measures the
    time from the keystroke to the 3D preview drawn (the 2D one is shown before it; the page's
    150 ms debounce included)."""
    from test_serve_browser import type_into

    rng = np.random.default_rng(999)
    while time.monotonic() < deadline:
        before = page.evaluate("laby3dServe.models")
        page.evaluate("window.typedAt = performance.now(), 1")
        type_into(page, "#f-seed", str(int(rng.integers(2**32))))
        page.wait_for(f"laby3dServe.models > {before}", timeout=30)
        results["browser"].append(page.evaluate("(laby3dServe.shownAt - typedAt) / 1000"))
        time.sleep(rng.uniform(*think))


async def load(
    server: Server,
    pupils: int,
    seconds: float,
    think: tuple[float, float],
    browser: bool = False,
    lesson_every: float = 10.0,
) -> dict[str, Any]:
    """Run the class against ``server`` (with ``browser``, the last pupil is headless
    Chromium); the figures."""
    kinds = ("status", "round_trip", "browser", "lesson", "lesson_status", "static", "static_during_poll", "poll")
    results: dict[str, list[Any]] = {kind: [] for kind in kinds}
    memory: list[float] = []
    page = await asyncio.to_thread(pupil_page, server.url) if browser else None
    warm = resident_mb(server.process.pid)
    cpu_before, wall_before = cpu_seconds(server.process.pid), time.monotonic()
    deadline = time.monotonic() + seconds
    simulated = pupils - 1 if browser else pupils
    real = [asyncio.to_thread(browser_pupil, page, deadline, think, results)] if page is not None else []
    try:
        await asyncio.gather(
            sample_memory(server.process.pid, deadline, memory),
            *(pupil(index, server.url, deadline, think, results) for index in range(simulated)),
            lesson_pupil(server.url, deadline, lesson_every, results),
            teacher(server.url, server.token, deadline, results),
            *real,
        )
    finally:
        if page is not None:
            page.close()
    cpu = cpu_seconds(server.process.pid) - cpu_before
    wall = time.monotonic() - wall_before
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as client:
        still = (await client.get("/api/options")).status_code
    times = sorted(results["round_trip"])
    statuses: dict[str, int] = {}
    for status in results["status"] + results["lesson_status"]:
        statuses[str(status)] = statuses.get(str(status), 0) + 1
    return {
        "pupils": pupils,
        "seconds": seconds,
        "think_s": list(think),
        "previews": len(times),
        "round_trip_median_s": round(statistics.median(times), 4) if times else None,
        "round_trip_p95_s": round(times[int(0.95 * (len(times) - 1))], 4) if times else None,
        "round_trip_max_s": round(times[-1], 4) if times else None,
        "statuses": statuses,
        "refusals": sum(count for status, count in statuses.items() if status in ("429", "503")),
        "errors": sum(count for status, count in statuses.items() if status not in ("200", "429", "503")),
        "lesson_pdfs": len(results["lesson"]),
        "lesson_median_s": round(statistics.median(results["lesson"]), 2) if results["lesson"] else None,
        "static_during_poll_p95_s": percentile(results["static_during_poll"], 0.95),
        "static_during_poll_max_s": percentile(results["static_during_poll"], 1.0),
        "static_p95_s": percentile(results["static"], 0.95),
        "teacher_poll_p95_s": percentile(results["poll"], 0.95),
        "memory_mb": {
            "after_warm_up": round(warm),
            "peak": round(max(memory, default=warm)),
            "end": round(resident_mb(server.process.pid)),
        },
        "answers_after": still,
        "server_cpu_s": round(cpu, 1),
        "server_cores_used": round(cpu / wall, 2),
        "load_average": round(os.getloadavg()[0], 1),
        "browser_round_trips": len(results["browser"]),
        "browser_median_s": round(statistics.median(results["browser"]), 4) if results["browser"] else None,
        "browser_p95_s": round(sorted(results["browser"])[int(0.95 * (len(results["browser"]) - 1))], 4)
        if results["browser"]
        else None,
    }


async def timed_pupil(
    url: str, name: str, deadline: float, think: tuple[float, float], results: dict[str, list[Any]]
) -> None:
    """A pupil changing a seed every ``think`` s until ``deadline``: round trips (preview and
    GLB) in ``results["round_trip"]``, every status in ``results["status"]``."""
    rng = np.random.default_rng(len(name))
    design: dict[str, Any] = {"maze.rows": 15, "maze.cols": 15, "seed": 1}
    client = await joined(url, name, design)
    try:
        while time.monotonic() < deadline:
            design = {**design, "seed": int(rng.integers(2**32))}
            await round_trip(client, design, results)
            await asyncio.sleep(rng.uniform(*think))
    finally:
        await client.aclose()


async def greedy_session(url: str, name: str, deadline: float, on: asyncio.Event, statuses: list[Any]) -> None:
    """Four previews at a time in a loop while ``on`` is set, each a new seed; waiting only when
    told to."""
    client = await joined(url, name, {"maze.rows": 15, "maze.cols": 15, "seed": 1})
    try:

        async def lane(offset: int) -> None:
            seed = offset * 10**6
            while time.monotonic() < deadline:
                if not on.is_set():
                    await asyncio.sleep(0.05)
                    continue
                seed += 1
                options = {"maze.rows": 15, "maze.cols": 15, "seed": seed}
                try:
                    response = await client.post("/api/preview", json={"options": options})
                except httpx.HTTPError as error:
                    statuses.append(type(error).__name__)
                    continue
                statuses.append(response.status_code)
                if response.status_code in (429, 503):
                    await asyncio.sleep(min(5.0, float(response.headers.get("retry-after", 1))))

        await asyncio.gather(*(lane(offset) for offset in range(4)))
    finally:
        await client.aclose()


def round_trips(times: list[float]) -> dict[str, Any]:
    """Median, p95 and count of round trips, s."""
    return {
        "previews": len(times),
        "median_s": round(statistics.median(times), 4) if times else None,
        "p95_s": percentile(times, 0.95),
    }


async def greedy_load(server: Server, seconds: float, think: tuple[float, float], rounds: int = 3) -> dict[str, Any]:
    """The fair-share scenario: the pupil alone, then beside eight greedy sessions, in turns of
    ``seconds / rounds`` each (so that both see the same load on a shared machine)."""
    solo: dict[str, list[Any]] = {"round_trip": [], "status": []}
    beside: dict[str, list[Any]] = {"round_trip": [], "status": []}
    greedy: list[Any] = []
    on = asyncio.Event()
    load_before = round(os.getloadavg()[0], 1)
    end = time.monotonic() + 2 * seconds + 60
    names = [f"Greedy {index + 1}" for index in range(8)]
    sessions = [asyncio.ensure_future(greedy_session(server.url, name, end, on, greedy)) for name in names]
    cpu_greedy = wall_greedy = 0.0
    for turn in range(rounds):
        on.clear()
        await asyncio.sleep(1)  # the greedy sessions' last renders end
        await timed_pupil(server.url, f"Ana {turn}", time.monotonic() + seconds / rounds, think, solo)
        on.set()
        cpu_before, wall_before = cpu_seconds(server.process.pid), time.monotonic()
        await timed_pupil(server.url, f"Ana Bis {turn}", time.monotonic() + seconds / rounds, think, beside)
        cpu_greedy += cpu_seconds(server.process.pid) - cpu_before
        wall_greedy += time.monotonic() - wall_before
    for session in sessions:
        session.cancel()
    await asyncio.gather(*sessions, return_exceptions=True)
    alone, crowded = round_trips(solo["round_trip"]), round_trips(beside["round_trip"])
    counted: dict[str, int] = {}
    for status in greedy:
        counted[str(status)] = counted.get(str(status), 0) + 1
    pupil_statuses = [str(status) for status in solo["status"] + beside["status"]]

    def ratio(key: str) -> float | None:
        return round(crowded[key] / alone[key], 2) if alone[key] and crowded[key] else None

    return {
        "seconds": seconds,
        "rounds": rounds,
        "think_s": list(think),
        "solo": alone,
        "beside_greedy": crowded,
        "median_ratio": ratio("median_s"),
        "p95_ratio": ratio("p95_s"),
        "pupil_refusals": sum(status in ("429", "503") for status in pupil_statuses),
        "pupil_errors": sum(status not in ("200", "429", "503") for status in pupil_statuses),
        "greedy_statuses": counted,
        "greedy_previews": counted.get("200", 0),
        "server_cores_used": round(cpu_greedy / wall_greedy, 2) if wall_greedy else None,
        "load_average_before": load_before,
        "load_average": round(os.getloadavg()[0], 1),
    }


def print_greedy(figures: dict[str, Any]) -> None:
    alone, crowded = figures["solo"], figures["beside_greedy"]
    print(
        "fair share: one pupil alone, then beside 8 greedy sessions × 4 parallel previews, "
        f"{figures['seconds']:g} s each, in {figures['rounds']} turns"
    )
    print("| pupil | previews | round trip median | p95 |")
    print("|---|---|---|---|")
    for label, row in (("alone", alone), ("beside 8 greedy sessions", crowded)):
        print(
            f"| {label} | {row['previews']} | {(row['median_s'] or 0) * 1000:.0f} ms "
            f"| {(row['p95_s'] or 0) * 1000:.0f} ms |"
        )
    print(
        f"ratio beside / alone: median {figures['median_ratio']}×, p95 {figures['p95_ratio']}× (target ≤ 4×); "
        f"pupil refusals {figures['pupil_refusals']}, errors {figures['pupil_errors']}"
    )
    print(f"greedy sessions: {figures['greedy_previews']} previews, answers {figures['greedy_statuses']}")
    print(
        f"server {figures['server_cores_used']} cores on average beside them; "
        f"load average {figures['load_average_before']} before, {figures['load_average']} after"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pupils", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--think", type=float, nargs=2, default=(2.0, 3.0), metavar=("MIN", "MAX"))
    parser.add_argument("--lesson-every", type=float, default=10.0, help="seconds between lesson PDFs")
    parser.add_argument("--browser", action="store_true", help="the last pupil is headless Chromium")
    parser.add_argument("--greedy", action="store_true", help="one pupil alone, then beside 8 greedy sessions")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    think = (args.think[0], args.think[1])
    with tempfile.TemporaryDirectory(prefix="laby3d-bench-serve-") as folder:
        server = Server(Path(folder) / "class", class_name="bench")
        try:
            if args.greedy:
                figures = asyncio.run(greedy_load(server, args.seconds, think))
            else:
                figures = asyncio.run(load(server, args.pupils, args.seconds, think, args.browser, args.lesson_every))
        finally:
            server.close()
    if args.json:
        print(json.dumps(figures))
        return
    if args.greedy:
        print_greedy(figures)
        return
    memory = figures["memory_mb"]
    print(f"{figures['pupils']} pupils, {figures['seconds']:g} s, think {args.think[0]:g}–{args.think[1]:g} s")
    print(
        "| previews | round trip median | p95 | max | refusals | errors | lesson PDFs (median) "
        "| static file p95 during poll / overall | teacher poll p95 | memory after warm-up / peak / end |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    ms = {key: (value or 0) * 1000 for key, value in figures.items() if key.endswith("_s")}
    print(
        f"| {figures['previews']} | {ms['round_trip_median_s']:.0f} ms | {ms['round_trip_p95_s']:.0f} ms | "
        f"{ms['round_trip_max_s']:.0f} ms | {figures['refusals']} | {figures['errors']} | "
        f"{figures['lesson_pdfs']} ({figures['lesson_median_s']} s) | "
        f"{ms['static_during_poll_p95_s']:.0f} / {ms['static_p95_s']:.0f} ms | {ms['teacher_poll_p95_s']:.0f} ms | "
        f"{memory['after_warm_up']} / {memory['peak']} / {memory['end']} MB |"
    )
    print(f"statuses: {figures['statuses']}")
    print(
        f"server CPU {figures['server_cpu_s']} s ({figures['server_cores_used']} cores on average), "
        f"load average {figures['load_average']}"
    )
    if figures["browser_round_trips"]:
        print(
            f"in Chromium (change typed → 3D preview drawn, {figures['browser_round_trips']} changes): "
            f"median {figures['browser_median_s'] * 1000:.0f} ms, p95 {figures['browser_p95_s'] * 1000:.0f} ms"
        )
    print(f"server answers afterwards: {figures['answers_after'] == 200}")


if __name__ == "__main__":
    main()
