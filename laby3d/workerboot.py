"""The first module the fork server of :mod:`laby3d.workers` imports: until a worker is up,
nothing the fork server or a worker being born prints reaches the terminal.

A worker forked while its batch stops (Ctrl-C, a kill, or simply the end of the batch on a busy
machine) finds the batch's semaphores gone, and multiprocessing would print a traceback of its
own (``FileNotFoundError`` in ``SemLock._rebuild``) for a process that had no work to lose. Each
worker gets the terminal's standard error back as it starts (:func:`laby3d.workers.watch_parent`'s
caller), so what a running worker says is still seen. ``LABY3D_DEBUG=1`` keeps everything.
"""

from __future__ import annotations

import os
import sys

if os.environ.get("LABY3D_DEBUG") != "1":
    sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - for the fork server's whole life
