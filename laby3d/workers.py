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

Workers start quietly, whatever moment a Ctrl-C or a kill comes: the fork server is started with
Ctrl-C blocked (it would otherwise print a ``KeyboardInterrupt`` traceback from its imports: a
terminal's Ctrl-C reaches every process of the group), and so its workers too, which the process
that started them stops itself; until a worker is up it prints nothing (:mod:`laby3d.workerboot`);
multiprocessing's resource tracker, which removes the semaphores of a batch killed with ``kill -9``,
does so without its "leaked semaphore" warning.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
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
        context.set_forkserver_preload(["laby3d.workerboot", "laby3d.workers", *preload])
        _start_quietly()
    else:
        context = multiprocessing.get_context("spawn")
    return ProcessPool(max_workers=workers, initializer=partial(_start_worker, initializer), context=context)


def _start_quietly() -> None:
    """Start multiprocessing's resource tracker with no standard error (its only words are the
    "leaked semaphore" warning after a ``kill -9``), and the fork server with Ctrl-C blocked
    (inherited by the workers it forks); each is started once per process."""
    from multiprocessing import forkserver, resource_tracker

    with _no_standard_error():
        resource_tracker.ensure_running()
    with _interrupts_blocked():
        forkserver.ensure_running()


@contextmanager
def _no_standard_error() -> Iterator[None]:
    """File descriptor 2 goes to the null device for the block (what a child started in it inherits)."""
    try:
        saved = os.dup(2)
    except OSError:  # no standard error at all
        yield
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, 2)
        finally:
            os.close(devnull)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


@contextmanager
def _interrupts_blocked() -> Iterator[None]:
    """SIGINT blocked in this thread for the block (a child started in it inherits the mask); one
    that comes meanwhile is delivered as the block ends."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _start_worker(initializer: Callable[[], object] | None) -> None:
    sys.stderr = sys.__stderr__  # the worker is up: what it says is seen again (laby3d.workerboot)
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
