"""Benchmark: the class web app under a class of simulated pupils.

Run: ``.venv/bin/python bench/bench_serve.py [--pupils 30] [--seconds 60] [--think 1 3] [--json]``.

Starts ``laby3d serve`` (2 render workers) on a free 127.0.0.1 port in a subprocess, then runs
``--pupils`` pupils for ``--seconds``, each from its own loopback address (127.0.0.2,
127.0.0.3…, so the per-client rate limit applies as it would to real machines) and its own
connection. A pupil changes one parameter of a 15 × 15 maze (a new seed, cell size, wall
height, margin, solution or algorithm), waits for the preview (``POST /api/preview``: the 2D
picture and the report) and the solid (``GET /api/model.glb``) as the page does, then thinks for
a random ``--think`` interval (seconds, uniform) before the next change. Every run is bounded:
pupils stop at the deadline, each request has a 30 s timeout.

With ``--browser`` the last pupil is headless Chromium on the real page: the page's own clock
times a typed change to the 3D preview drawn (debounce, preview, GLB, drawing; Chromium's
software WebGL shares the 2 cores with the server and the other pupils).

Prints the round trip (change → both previews received) median, p95 and maximum, requests and
errors by status, and the server's resident memory (process and workers) after warm-up, at its
peak and at the end, then checks the server still answers. ``--json`` prints the figures as JSON
(the slow load test in tests/test_serve.py reads them).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
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


async def pupil(
    index: int, url: str, deadline: float, think: tuple[float, float], results: dict[str, list[Any]]
) -> None:
    """One pupil changing parameters until ``deadline`` (monotonic s)."""
    rng = np.random.default_rng(index)
    design: dict[str, Any] = {"maze.rows": 15, "maze.cols": 15, "seed": int(rng.integers(2**32))}
    transport = httpx.AsyncHTTPTransport(local_address=f"127.0.0.{index + 2}")
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=30) as client:
        while time.monotonic() < deadline:
            design = change(rng, design)
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
            await asyncio.sleep(rng.uniform(*think))


async def sample_memory(pid: int, deadline: float, samples: list[float]) -> None:
    while time.monotonic() < deadline:
        samples.append(resident_mb(pid))
        await asyncio.sleep(0.5)


def pupil_page(url: str) -> Any:
    """Headless Chromium with the pupil page loaded (before the clock starts)."""
    from test_serve_browser import open_browser

    page = open_browser()
    page.page("Page.navigate", {"url": url + "/"})
    page.wait_for("window.laby3dServe && laby3dServe.ready && laby3dServe.models >= 1", timeout=60)
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
    server: Server, pupils: int, seconds: float, think: tuple[float, float], browser: bool = False
) -> dict[str, Any]:
    """Run the class against ``server`` (with ``browser``, the last pupil is headless
    Chromium); the figures."""
    results: dict[str, list[Any]] = {"status": [], "round_trip": [], "browser": []}
    memory: list[float] = []
    page = await asyncio.to_thread(pupil_page, server.url) if browser else None
    warm = resident_mb(server.process.pid)
    deadline = time.monotonic() + seconds
    simulated = pupils - 1 if browser else pupils
    real = [asyncio.to_thread(browser_pupil, page, deadline, think, results)] if page is not None else []
    try:
        await asyncio.gather(
            sample_memory(server.process.pid, deadline, memory),
            *(pupil(index, server.url, deadline, think, results) for index in range(simulated)),
            *real,
        )
    finally:
        if page is not None:
            page.close()
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as client:
        still = (await client.get("/api/options")).status_code
    times = sorted(results["round_trip"])
    statuses: dict[str, int] = {}
    for status in results["status"]:
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
        "errors": sum(count for status, count in statuses.items() if status != "200"),
        "memory_mb": {
            "after_warm_up": round(warm),
            "peak": round(max(memory, default=warm)),
            "end": round(resident_mb(server.process.pid)),
        },
        "answers_after": still,
        "browser_round_trips": len(results["browser"]),
        "browser_median_s": round(statistics.median(results["browser"]), 4) if results["browser"] else None,
        "browser_p95_s": round(sorted(results["browser"])[int(0.95 * (len(results["browser"]) - 1))], 4)
        if results["browser"]
        else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pupils", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--think", type=float, nargs=2, default=(1.0, 3.0), metavar=("MIN", "MAX"))
    parser.add_argument("--browser", action="store_true", help="the last pupil is headless Chromium")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="laby3d-bench-serve-") as folder:
        server = Server(Path(folder) / "class", class_name="bench")
        try:
            figures = asyncio.run(load(server, args.pupils, args.seconds, tuple(args.think), args.browser))
        finally:
            server.close()
    if args.json:
        print(json.dumps(figures))
        return
    memory = figures["memory_mb"]
    print(f"{figures['pupils']} pupils, {figures['seconds']:g} s, think {args.think[0]:g}–{args.think[1]:g} s")
    print("| previews | round trip median | p95 | max | errors | memory after warm-up / peak / end |")
    print("|---|---|---|---|---|---|")
    print(
        f"| {figures['previews']} | {figures['round_trip_median_s'] * 1000:.0f} ms | "
        f"{figures['round_trip_p95_s'] * 1000:.0f} ms | {figures['round_trip_max_s'] * 1000:.0f} ms | "
        f"{figures['errors']} {figures['statuses']} | "
        f"{memory['after_warm_up']} / {memory['peak']} / {memory['end']} MB |"
    )
    if figures["browser_round_trips"]:
        print(
            f"in Chromium (change typed → 3D preview drawn, {figures['browser_round_trips']} changes): "
            f"median {figures['browser_median_s'] * 1000:.0f} ms, p95 {figures['browser_p95_s'] * 1000:.0f} ms"
        )
    print(f"server answers afterwards: {figures['answers_after'] == 200}")


if __name__ == "__main__":
    main()
