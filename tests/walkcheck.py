"""Independent checks of the walk-through's walker: where the walls are, worked out here from the
maze's cells (never from the scene file's walls or the page's collision code), and whether a
recorded path of the walker ever enters or crosses one; and the data a page inlines."""

from __future__ import annotations

import json

import numpy as np
from mazecheck import STEP, open_neighbours

from laby3d.maze.model import Maze


def page_data(page: str) -> dict:
    """The data a walk-through page inlines (``{"scene": …, "text": …}``), read from its text."""
    start = '<script type="application/json" id="laby3d-page">'
    return json.loads(page.split(start, 1)[1].split("</script>", 1)[0])


def wall_boxes(maze: Maze, cell_size: float, thickness: float) -> np.ndarray:
    """``(n, 4)`` rectangles ``x0, z0, x1, z1`` (mm) the walker must never enter: every post,
    every closed side between two cells or on the border, posts included; the entrance and exit
    count as closed (one leaves through the maze, not round it). Overlaps are fine here."""
    s, t = cell_size, thickness
    boxes = [[j * s, i * s, j * s + t, i * s + t] for i in range(maze.rows + 1) for j in range(maze.cols + 1)]
    for r in range(maze.rows):
        for c in range(maze.cols):
            free = set(open_neighbours(maze, r, c))
            for dr, dc in STEP.values():
                if (r + dr, c + dc) in free:
                    continue
                if dr:  # a north or south side: along x at z = (r or r + 1)·s
                    z = (r + max(dr, 0)) * s
                    boxes.append([c * s, z, (c + 1) * s + t, z + t])
                else:
                    x = (c + max(dc, 0)) * s
                    boxes.append([x, r * s, x + t, (r + 1) * s + t])
    return np.array(boxes, dtype=float)


def clearance(points: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Distance (mm) from each point ``(m, 2)`` to the nearest rectangle (0 inside one)."""
    result = np.full(len(points), np.inf)
    for start in range(0, len(points), 256):
        p = points[start : start + 256, None, :]
        dx = np.maximum(np.maximum(boxes[None, :, 0] - p[..., 0], p[..., 0] - boxes[None, :, 2]), 0)
        dz = np.maximum(np.maximum(boxes[None, :, 1] - p[..., 1], p[..., 1] - boxes[None, :, 3]), 0)
        result[start : start + 256] = np.hypot(dx, dz).min(axis=1)
    return result


def crossings(track: np.ndarray, boxes: np.ndarray) -> list[tuple[int, list[float]]]:
    """The steps ``k`` (track[k] → track[k + 1]) whose straight segment meets a rectangle, with
    that rectangle (slab test, written here)."""
    found = []
    for k in range(len(track) - 1):
        a, b = track[k], track[k + 1]
        d = b - a
        low, high = np.zeros(len(boxes)), np.ones(len(boxes))
        ok = np.ones(len(boxes), dtype=bool)
        for axis in (0, 1):
            lo, hi = boxes[:, axis], boxes[:, axis + 2]
            if abs(d[axis]) < 1e-15:
                ok &= (a[axis] >= lo) & (a[axis] <= hi)
                continue
            t1, t2 = (lo - a[axis]) / d[axis], (hi - a[axis]) / d[axis]
            low = np.maximum(low, np.minimum(t1, t2))
            high = np.minimum(high, np.maximum(t1, t2))
        hit = ok & (low <= high)
        if hit.any():
            found.append((k, boxes[np.argmax(hit)].tolist()))
    return found
