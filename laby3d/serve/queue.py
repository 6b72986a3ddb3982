"""Render work off the event loop: a bounded process pool with a queue and a timeout, and a
per-client rate limit on renders.

The pool has ``workers`` processes (spawned, so no thread state is forked; each runs an
initializer, e.g. imports and compiled kernels, when it starts) and at most
``queue`` jobs waiting beyond them; more are refused at once with :class:`Busy` (the page says
"busy, try again" and retries) rather than piling up. A job past its timeout is abandoned and
the pool replaced: its processes are killed, so a runaway render cannot hold a core; a pool
whose worker died (killed for memory, say) is replaced the same way.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")


class Busy(Exception):
    """Every worker is busy and the queue is full (HTTP 503)."""


class RenderTimeout(Exception):
    """A render took longer than its timeout and was stopped (HTTP 504)."""


class WorkerLost(Exception):
    """A worker process died during a render (e.g. killed for memory); the pool was replaced."""


class RenderPool:
    """A bounded process pool: ``workers`` processes, ``queue`` waiting jobs at most."""

    def __init__(self, *, workers: int = 2, queue: int = 32, initializer: Callable[[], object] | None = None) -> None:
        self.workers = workers
        self.limit = workers + queue
        self.in_flight = 0
        self.initializer = initializer
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=self.initializer
        )

    async def start(self, *, timeout: float) -> None:
        """Start every worker now (each runs the initializer), rather than on the first renders."""
        started = await asyncio.gather(
            *(self.run(time.sleep, 0.2, timeout=timeout) for _ in range(self.workers)), return_exceptions=True
        )
        for outcome in started:
            if isinstance(outcome, BaseException):
                raise outcome

    async def run(self, function: Callable[..., T], *args: Any, timeout: float) -> T:
        """``function(*args)`` in a worker process; raises :class:`Busy` when the queue is full
        and :class:`RenderTimeout` after ``timeout`` s."""
        if self.in_flight >= self.limit:
            raise Busy(f"{self.in_flight} renders running or waiting; try again in a moment")
        self.in_flight += 1
        pool = self._pool
        try:
            future = asyncio.wrap_future(pool.submit(function, *args))
            return await asyncio.wait_for(future, timeout)
        except asyncio.TimeoutError:
            self._restart(pool)
            raise RenderTimeout(f"the render took more than {timeout:g} s and was stopped") from None
        except BrokenProcessPool:
            self._restart(pool)
            raise WorkerLost("a render worker stopped during the render; try again") from None
        finally:
            self.in_flight -= 1

    def _restart(self, pool: ProcessPoolExecutor) -> None:
        """Replace ``pool`` (if still current), killing its processes."""
        if pool is not self._pool:
            return
        self._pool = self._new_pool()
        processes = list(getattr(pool, "_processes", {}).values())  # no public way to stop a running task
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.kill()

    def close(self) -> None:
        """Stop the workers."""
        self._pool.shutdown(wait=True, cancel_futures=True)


class RateLimit:
    """A token bucket per client: ``burst`` renders at once, refilled at ``per_second``."""

    def __init__(self, *, per_second: float = 4.0, burst: int = 12, clock: Callable[[], float] = time.monotonic):
        self.per_second = per_second
        self.burst = burst
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # client -> (tokens, at)

    def allow(self, client: str) -> float:
        """0 when ``client`` may render now (a token is taken), else the seconds to wait."""
        now = self.clock()
        tokens, at = self._buckets.get(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - at) * self.per_second)
        if tokens >= 1:
            self._buckets[client] = (tokens - 1, now)
            self._forget_idle(now)
            return 0.0
        self._buckets[client] = (tokens, now)
        return (1 - tokens) / self.per_second

    def _forget_idle(self, now: float) -> None:
        """Drop buckets full again (bounded memory whatever the number of clients)."""
        if len(self._buckets) > 1000:
            full = self.burst / self.per_second
            self._buckets = {key: value for key, value in self._buckets.items() if now - value[1] < full}
