"""Render functions for the batch's worker tests: a worker process that dies during its maze.

They live in an importable module (not a test file) because the worker processes import them by
name to run them.
"""

from __future__ import annotations

import os
from pathlib import Path

from laby3d.batch import MazeResult, MazeTask, render_task


def dies_first_time(marker_folder: str, task: MazeTask) -> MazeResult:
    """Kill this worker process the first time ``task`` is rendered, render it the next time."""
    marker = Path(marker_folder) / task.variant
    if not marker.exists():
        marker.write_text("died once")
        os._exit(9)
    return render_task(task)


def dies_on(variant: str, task: MazeTask) -> MazeResult:
    """Kill this worker process every time maze ``variant`` is rendered; render the others."""
    if task.variant == variant:
        os._exit(9)
    return render_task(task)
