"""The HTTP server around the app: uvicorn with bounds on what a client may hold.

What uvicorn bounds by itself, configured here: idle keep-alive connections are closed after
:data:`KEEP_ALIVE` s; a request's headers may take :data:`MAX_HEADER_BYTES` (h11's incomplete
event size: larger is refused with 400); past :data:`MAX_CONCURRENCY` connections or tasks, new
requests are answered 503 at once instead of queueing.

What uvicorn does not bound: a connection that was opened and sends nothing, or its headers a
byte at a time (a "half-open" or slowloris client), is kept forever, each holding a file
descriptor; enough of them exhaust the descriptors, and then every new connection fails and the
event loop logs the failed ``accept`` again and again. :class:`BoundedH11Protocol` closes a
connection whose first request's headers have not all arrived within :data:`HEADER_TIMEOUT` s,
and past :data:`MAX_CONNECTIONS` open connections closes the oldest one that has no request in
progress, so pupils' connections keep room whatever the number of idle sockets. (A keep-alive
connection that starts a second request and then stalls mid-headers is still held; uvicorn
gives no hook there short of replacing its protocol.)
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

#: Seconds an idle keep-alive connection stays open.
KEEP_ALIVE = 5
#: Seconds a new connection has to send its first request's headers.
HEADER_TIMEOUT = 10.0
#: Largest request head, bytes.
MAX_HEADER_BYTES = 16 * 1024
#: Connections or requests in progress past which new requests are answered 503.
MAX_CONCURRENCY = 400
#: Open connections past which the oldest idle one is closed.
MAX_CONNECTIONS = 300


class BoundedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for the first request's headers and a cap on
    open connections (the oldest idle one makes room)."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self.opened = time.monotonic()
        super().connection_made(transport)
        self.header_deadline = self.loop.call_later(HEADER_TIMEOUT, self._headers_too_slow)
        if len(self.connections) > MAX_CONNECTIONS:
            idle = [c for c in self.connections if c is not self and _idle(c)]
            if idle:
                oldest = min(idle, key=lambda c: getattr(c, "opened", 0.0))
                oldest.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.header_deadline.cancel()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        if self.cycle is not None:  # a request's headers arrived
            self.header_deadline.cancel()

    def _headers_too_slow(self) -> None:
        if self.cycle is None and not self.transport.is_closing():
            self.transport.close()


def _idle(connection: Any) -> bool:
    """Whether a connection is open with no request in progress."""
    cycle = getattr(connection, "cycle", None)
    transport = getattr(connection, "transport", None)
    return transport is not None and not transport.is_closing() and (cycle is None or bool(cycle.response_complete))


def uvicorn_config(app: Any, *, host: str, port: int) -> Any:
    """The uvicorn configuration of ``laby3d serve``: the bounds above, warnings only in the log."""
    import uvicorn

    raise_file_limit()
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=BoundedH11Protocol,
        log_level="warning",
        access_log=False,
        timeout_keep_alive=KEEP_ALIVE,
        h11_max_incomplete_event_size=MAX_HEADER_BYTES,
        limit_concurrency=MAX_CONCURRENCY,
        timeout_graceful_shutdown=5,
    )


def raise_file_limit() -> None:
    """Let this process open as many files as the system allows (the soft limit up to the hard
    one): every connection is one."""
    try:
        import resource
    except ImportError:  # Windows: no such limit
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):
            logging.getLogger("laby3d.serve").warning("could not raise the open-file limit from %d", soft)
