"""Render work off the event loop: bounded pools of worker processes, and a per-pupil rate limit.

A :class:`RenderPool` is a :func:`laby3d.workers.worker_pool` (pebble) with a bound on the work
waiting for it: at most ``queue`` renders wait beyond its ``workers``; more are refused at once
with :class:`Busy` (the page says "busy, trying again" and retries) rather than piling up. Each
render's timeout counts its own run time, from when a worker takes it; a render past it stops its
own worker only (a new one takes its place) and the other renders go on; a worker that dies
(killed for memory, say) fails its own render only. Workers die with the server, ``kill -9``
included.

The class app has two pools: previews and quick downloads on one, the expensive work (lesson
PDF, GIF, the class set) on the other, with its own queue and timeout, so a class's worth of
lesson PDFs never delays a preview.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from collections.abc import Callable
from typing import Any, TypeVar

from laby3d.workers import WorkerDied, worker_pool

T = TypeVar("T")

#: Modules the workers' fork server imports once, so a new worker (at start, or after a timeout)
#: begins with the renderers' libraries loaded rather than importing them (seconds).
PRELOAD = ("laby3d.serve.work", "laby3d.pipeline", "matplotlib.pyplot", "trimesh", "shapely")


class Busy(Exception):
    """Every worker is busy and the queue is full (HTTP 503, retry soon)."""


class RenderTimeout(Exception):
    """A render ran longer than its timeout and its worker was stopped (HTTP 504)."""


class WorkerLost(Exception):
    """A worker process died during a render (e.g. killed for memory); a new one took its place."""


class RenderPool:
    """``workers`` processes, at most ``queue`` renders waiting; ``timeout`` s of run time each
    unless the call says otherwise."""

    def __init__(
        self,
        *,
        name: str,
        workers: int,
        queue: int,
        timeout: float,
        initializer: Callable[[], object] | None = None,
    ) -> None:
        self.name = name
        self.workers = workers
        self.limit = workers + queue
        self.timeout = timeout
        self.in_flight = 0
        self._pool = worker_pool(workers, initializer=initializer, preload=PRELOAD)

    async def start(self, *, timeout: float) -> None:
        """Wait until every worker has started (each runs the initializer: imports, compiled
        kernels), so the first pupils do not wait for it."""
        await asyncio.gather(*(self.run(time.sleep, 0.2, timeout=timeout) for _ in range(self.workers)))

    async def run(self, function: Callable[..., T], *args: Any, timeout: float | None = None) -> T:
        """``function(*args)`` in a worker process. Raises :class:`Busy` when the queue is full,
        :class:`RenderTimeout` after ``timeout`` s of its own run time, :class:`WorkerLost` when
        its worker died; the function's own exceptions come through as they are."""
        if self.in_flight >= self.limit:
            raise Busy(f"the {self.name} queue is full ({self.in_flight} renders running or waiting)")
        self.in_flight += 1
        limit = self.timeout if timeout is None else timeout
        future = self._pool.schedule(function, args=args, timeout=limit)
        try:
            return await asyncio.wrap_future(future)
        except concurrent.futures.TimeoutError:
            raise RenderTimeout(f"the render took more than {limit:g} s and was stopped") from None
        except WorkerDied as error:
            raise WorkerLost(f"the render's worker process stopped (exit code {error.exitcode})") from None
        except asyncio.CancelledError:
            cancelling = getattr(asyncio.current_task(), "cancelling", None)  # Python 3.11+
            if cancelling is not None and cancelling() == 0:  # the render was cancelled, not this request
                raise WorkerLost("the render was cancelled (the server is stopping)") from None
            raise  # this request is being cancelled: wrap_future has cancelled its render too
        finally:
            self.in_flight -= 1

    def close(self) -> None:
        """Stop the workers (a render in progress is abandoned)."""
        self._pool.stop()
        self._pool.join(timeout=10)


class RateLimit:
    """A token bucket per pupil session: ``burst`` renders at once, refilled at ``per_second``."""

    def __init__(self, *, per_second: float = 2.0, burst: int = 12, clock: Callable[[], float] = time.monotonic):
        self.per_second = per_second
        self.burst = burst
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # session -> (tokens, at)

    def allow(self, session: str) -> float:
        """0 when ``session`` may render now (a token is taken), else the seconds to wait."""
        now = self.clock()
        tokens, at = self._buckets.get(session, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - at) * self.per_second)
        if tokens >= 1:
            self._buckets[session] = (tokens - 1, now)
            self._forget_idle(now)
            return 0.0
        self._buckets[session] = (tokens, now)
        return (1 - tokens) / self.per_second

    def _forget_idle(self, now: float) -> None:
        """Drop buckets full again (bounded memory whatever the number of sessions)."""
        if len(self._buckets) > 1000:
            full = self.burst / self.per_second
            self._buckets = {key: value for key, value in self._buckets.items() if now - value[1] < full}
