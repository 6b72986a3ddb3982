"""Render work off the event loop: bounded pools of worker processes shared fairly between
sessions, and rate limits (renders per pupil session, joins and guesses per address).

A :class:`RenderPool` is a :func:`laby3d.workers.worker_pool` (pebble) fed by a fair scheduler:
each session (a pupil, the teacher, the background refresh) has its own queue, and a session
runs at most one render at a time however many requests it sends. A free worker takes the first
render of the session served least recently. Sessions that render without a pause (a render
asked while another of theirs runs or waits, or after :data:`HOT_RENDERS` renders in the last
:data:`HOT_SECONDS`) share all the workers but one, which stays free for the others: a pupil who changes their
maze every few seconds waits for no render to end, and shares the cores with one such render at
most. A newer preview of a session takes the place of its older one still waiting
(:class:`Superseded`: the page only shows the newest anyway). A session may have
:data:`PER_SESSION` renders waiting (:class:`SessionFull` beyond), the pool ``queue`` in all
(:class:`Busy` beyond, said "busy, trying again"). Each render's timeout counts its own run
time, from when a worker takes it; a render past it stops its own worker only (a new one takes
its place) and the other renders go on; a worker that dies (killed for memory, say) fails its
own render only. Workers die with the server, ``kill -9`` included.

The class app has two pools: previews and quick downloads on one, the expensive work (lesson
PDF, GIF, the class set) on the other, with its own queue and timeout, so a class's worth of
lesson PDFs never delays a preview.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from laby3d.workers import WorkerDied, worker_pool

T = TypeVar("T")

#: Modules the workers' fork server imports once, so a new worker (at start, or after a timeout)
#: begins with the renderers' libraries loaded rather than importing them (seconds).
PRELOAD = ("laby3d.serve.work", "laby3d.pipeline", "matplotlib.pyplot", "trimesh", "shapely")


#: Renders one session may have waiting in a pool (beyond the one it runs).
PER_SESSION = 4
#: A session that started this many renders in the last :data:`HOT_SECONDS` s renders without a
#: pause (a pupil changing their maze every 2 s starts 2 or 3; a session held by the rate limit
#: of 2 a second, 10).
HOT_RENDERS = 4
HOT_SECONDS = 5.0
#: Seconds over which the teacher's list counts each session's renders.
RECENT_SECONDS = 60.0


class Busy(Exception):
    """Every worker is busy and the queue is full (HTTP 503, retry soon)."""


class RenderTimeout(Exception):
    """A render ran longer than its timeout and its worker was stopped (HTTP 504)."""


class WorkerLost(Exception):
    """A worker process died during a render (e.g. killed for memory); a new one took its place."""


class Superseded(Exception):
    """A newer preview of the same session took this waiting one's place (HTTP 409)."""


class SessionFull(Exception):
    """The session has as many renders waiting as it may (HTTP 429)."""


class SessionEnded(Exception):
    """The session's waiting renders were dropped: the teacher ended it (HTTP 401)."""


@dataclass(eq=False)
class _Turn:
    """A render waiting for a worker: its session, whether a newer one replaces it, and the future
    a worker's turn sets."""

    session: str
    replaceable: bool
    granted: asyncio.Future[None]
    hot: bool = False  # asked without a pause after the session's last render


class RenderPool:
    """``workers`` processes shared fairly between sessions, at most ``queue`` renders waiting;
    ``timeout`` s of run time each unless the call says otherwise."""

    def __init__(
        self,
        *,
        name: str,
        workers: int,
        queue: int,
        timeout: float,
        initializer: Callable[[], object] | None = None,
        per_session: int = PER_SESSION,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.name = name
        self.workers = workers
        self.queue = queue
        self.per_session = per_session
        self.timeout = timeout
        self.clock = clock
        self._free = workers
        self._waiting: dict[str, deque[_Turn]] = {}
        self._running: dict[str, int] = {}
        self._served: dict[str, float] = {}  # session -> when its last render started
        self._recent: dict[str, deque[float]] = {}  # session -> when its recent renders started
        self._pool = worker_pool(workers, initializer=initializer, preload=PRELOAD)

    @property
    def waiting(self) -> int:
        """Renders waiting for a worker, every session's."""
        return sum(len(turns) for turns in self._waiting.values())

    async def start(self, *, timeout: float) -> None:
        """Wait until every worker has started (each runs the initializer: imports, compiled
        kernels), so the first pupils do not wait for it."""
        warming = (
            self.run(time.sleep, 0.2, session=f"start {index}", timeout=timeout) for index in range(self.workers)
        )
        await asyncio.gather(*warming)

    async def run(
        self,
        function: Callable[..., T],
        *args: Any,
        session: str = "server",
        replace: bool = False,
        timeout: float | None = None,
    ) -> T:
        """``function(*args)`` in a worker process, in ``session``'s turn. With ``replace``, it
        takes the place of the session's waiting render that was sent with ``replace`` too (which
        raises :class:`Superseded`). Raises :class:`SessionFull` or :class:`Busy` when the
        session's or the pool's queue is full, :class:`RenderTimeout` after ``timeout`` s of its own
        run time, :class:`WorkerLost` when its worker died; the function's own exceptions come
        through as they are."""
        turn = self._enqueue(session, replace)
        try:
            await turn.granted
        except asyncio.CancelledError:
            self._withdraw(turn)
            raise
        try:
            return await self._execute(function, args, self.timeout if timeout is None else timeout)
        finally:
            self._release(session)

    def _enqueue(self, session: str, replace: bool) -> _Turn:
        turns = self._waiting.setdefault(session, deque())
        since = self.clock() - HOT_SECONDS
        recent = sum(1 for at in self._recent.get(session, ()) if at >= since)
        hot = bool(self._running.get(session)) or bool(turns) or recent >= HOT_RENDERS  # without a pause
        if replace:
            for old in [turn for turn in turns if turn.replaceable]:
                turns.remove(old)
                _refuse(old, Superseded("a newer preview of this session took its place"))
        if len(turns) >= self.per_session:
            raise SessionFull(f"{len(turns)} renders of this session are waiting already")
        in_flight = self.waiting + self.workers - self._free
        if in_flight >= self.workers + self.queue:
            raise Busy(f"the {self.name} queue is full ({in_flight} renders running or waiting)")
        turn = _Turn(session, replace, asyncio.get_running_loop().create_future(), hot)
        turns.append(turn)
        self._dispatch()
        return turn

    def _dispatch(self) -> None:
        """Give free workers to the waiting sessions that run nothing, least recently served first."""
        while self._free > 0:
            ready = [session for session, turns in self._waiting.items() if turns and not self._running.get(session)]
            if self._free == 1 and self.workers > 1:  # the last free worker: for sessions that paused
                ready = [session for session in ready if not self._waiting[session][0].hot]
            if not ready:
                break
            session = min(ready, key=lambda name: self._served.get(name, -math.inf))
            turn = self._waiting[session].popleft()
            if not self._waiting[session]:
                del self._waiting[session]
            if turn.granted.done():  # its request went away (cancelled) and withdraws it itself
                continue
            now = self.clock()
            self._free -= 1
            self._running[session] = self._running.get(session, 0) + 1
            self._served[session] = now
            recent = self._recent.setdefault(session, deque(maxlen=1000))
            recent.append(now)
            turn.granted.set_result(None)
        self._forget_idle()

    def _withdraw(self, turn: _Turn) -> None:
        """A waiting request went away: its place in the queue, or the worker it was given, is freed."""
        if turn.granted.done() and not turn.granted.cancelled() and turn.granted.exception() is None:
            self._release(turn.session)
            return
        turns = self._waiting.get(turn.session)
        if turns is not None and turn in turns:
            turns.remove(turn)
            if not turns:
                del self._waiting[turn.session]

    def _release(self, session: str) -> None:
        self._free += 1
        self._running[session] -= 1
        if not self._running[session]:
            del self._running[session]
        self._dispatch()

    def drop(self, session: str) -> int:
        """End a session's waiting renders (:class:`SessionEnded`); how many there were. A render
        it runs finishes."""
        turns = self._waiting.pop(session, deque())
        for turn in turns:
            _refuse(turn, SessionEnded("the teacher ended this session"))
        return len(turns)

    def activity(self) -> dict[str, dict[str, int]]:
        """Per session with recent renders: ``running`` and ``waiting`` now, and ``recent``: the
        renders it started in the last :data:`RECENT_SECONDS` s (the teacher's list shows them)."""
        since = self.clock() - RECENT_SECONDS
        sessions = set(self._running) | set(self._waiting) | set(self._recent)
        found = {}
        for session in sessions:
            recent = sum(1 for at in self._recent.get(session, ()) if at >= since)
            running, waiting = self._running.get(session, 0), len(self._waiting.get(session, ()))
            if running or waiting or recent:
                found[session] = {"running": running, "waiting": waiting, "recent": recent}
        return found

    def _forget_idle(self) -> None:
        """Forget sessions idle for long (bounded memory whatever the number of sessions)."""
        if len(self._served) > 1000:
            since = self.clock() - 10 * RECENT_SECONDS
            busy = set(self._running) | set(self._waiting)
            for session in [s for s, at in self._served.items() if at < since and s not in busy]:
                del self._served[session]
                self._recent.pop(session, None)

    async def _execute(self, function: Callable[..., T], args: tuple[Any, ...], limit: float) -> T:
        """``function(*args)`` on a worker (one is free: the scheduler gave this render its turn)."""
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

    def close(self) -> None:
        """Stop the workers (a render in progress is abandoned)."""
        self._pool.stop()
        self._pool.join(timeout=10)


def pupil_session(key: str) -> str:
    """The render session of pupil ``key``: their turn on the pools (the teacher's list shows it)."""
    return f"pupil {key}"


def _refuse(turn: _Turn, error: Exception) -> None:
    """End a waiting render with ``error`` (unless its request went away already)."""
    if not turn.granted.done():
        turn.granted.set_exception(error)


class RateLimit:
    """A token bucket per key (a pupil's session, an address): ``burst`` at once, refilled at
    ``per_second``."""

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

    def wait(self, key: str) -> float:
        """The seconds until ``key`` may go on (0: now); nothing is taken."""
        tokens, at = self._buckets.get(key, (float(self.burst), self.clock()))
        tokens = min(float(self.burst), tokens + (self.clock() - at) * self.per_second)
        return 0.0 if tokens >= 1 else (1 - tokens) / self.per_second

    def _forget_idle(self, now: float) -> None:
        """Drop buckets full again (bounded memory whatever the number of sessions)."""
        if len(self._buckets) > 1000:
            full = self.burst / self.per_second
            self._buckets = {key: value for key, value in self._buckets.items() if now - value[1] < full}
