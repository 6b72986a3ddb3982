"""Worker processes for renders: a pool whose workers die with the process that started them.

``laby3d batch`` and ``laby3d serve`` render in worker processes, through pebble's
:class:`~pebble.ProcessPool` rather than :class:`concurrent.futures.ProcessPoolExecutor`, for
what the standard pool cannot do: a task's timeout counts its own run time (from when a worker
takes it, not while it waits in the queue); a task that times out or is cancelled stops its own
worker only (a new one takes its place); a worker that dies (killed for memory, say) fails its own
task with :class:`WorkerDied`, where the standard pool breaks and fails every task in flight.

Every worker also watches the process that started it and exits at once when that process is
gone, however it ended (``kill -9`` included): the pipe end the parent holds reads as closed
(:func:`multiprocessing.parent_process`'s sentinel). Without it a killed batch left its workers
running forever, ~250 MB each.

Workers start from a fork server where the platform has one (Linux), which imports ``preload``
once, so a new worker (at start, or after a timeout) costs a fork rather than a fresh interpreter
and its imports; elsewhere they are spawned.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import sys
import threading
from collections.abc import Callable, Sequence
from functools import partial

from pebble import ProcessExpired, ProcessPool

__all__ = ["WorkerDied", "watch_parent", "worker_pool"]

#: A worker process ended during its task (its exit code and pid are on the exception).
WorkerDied = ProcessExpired
#: Exit status of a worker whose parent has gone.
ORPHANED = 70


def worker_pool(
    workers: int, *, initializer: Callable[[], object] | None = None, preload: Sequence[str] = ()
) -> ProcessPool:
    """A pool of ``workers`` processes that run ``initializer`` as they start and exit with this
    process; ``preload`` names modules the fork server imports once for every worker (Linux)."""
    if sys.platform.startswith("linux"):
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["laby3d.workers", *preload])
    else:
        context = multiprocessing.get_context("spawn")
    return ProcessPool(max_workers=workers, initializer=partial(_start_worker, initializer), context=context)


def _start_worker(initializer: Callable[[], object] | None) -> None:
    watch_parent()
    if initializer is not None:
        initializer()


def watch_parent() -> None:
    """In a worker process: exit (status :data:`ORPHANED`) as soon as its parent process has
    gone, from a daemon thread that waits on the parent's sentinel."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def wait_for_parent() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(ORPHANED)  # nothing of this process is worth finishing: its results have no reader

    threading.Thread(target=wait_for_parent, name="laby3d-watch-parent", daemon=True).start()
