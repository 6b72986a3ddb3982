"""Independent checks of the walk-through's walker on a square maze: where the walls are, worked
out here from the maze file (never from the scene file's walls or the page's collision code;
whole boards, boards cut to an outline, mazes with loops), the route out, and whether a recorded
path of the walker ever enters or crosses a wall; a pilot on real keys; the data a page inlines."""

from __future__ import annotations

import json
from collections import deque

import numpy as np
from devtools import Browser
from mazecheck import STEP
from pagecheck import press, state

from laby3d.maze.model import Maze


def pilot(page: Browser, goal: tuple[float, float], label: str = "w") -> dict:
    """Real keys (by physical code) until the walker stands within 1 mm of ``goal`` (mm) or the
    exit is found: turn towards it (← →), then walk (KeyW, whose key is ``label``: ``z`` on
    AZERTY); the page's state at the end."""
    for _ in range(200):
        now = state(page)
        dx, dz = goal[0] - now["position"]["x"], goal[1] - now["position"]["z"]
        if np.hypot(dx, dz) < 1.0 or now["exited"]:
            return now
        error = (np.arctan2(dx, -dz) - now["heading"] + np.pi) % (2 * np.pi) - np.pi
        if abs(error) > 0.1:
            code = "ArrowRight" if error > 0 else "ArrowLeft"
            press(page, code, code, min(abs(error) / 1.8, 0.4))
        else:
            press(page, "KeyW", label, min(np.hypot(dx, dz) / 16.0, 0.4))
    raise AssertionError(f"the pilot did not reach {goal}: {now}")


def page_data(page: str) -> dict:
    """The data a walk-through page inlines (``{"scene": …, "text": …}``), read from its text."""
    start = '<script type="application/json" id="laby3d-page">'
    return json.loads(page.split(start, 1)[1].split("</script>", 1)[0])


def file_cells(maze: Maze) -> tuple[set[tuple[int, int]], set[frozenset[tuple[int, int]]]]:
    """A square maze as its maze file says it: its cells ``(row, col)`` (a board cut to an outline
    keeps the board cells its ``cells`` name, ``row · cols + col``) and its passages, each a pair
    of cells (version 1: the cells' bits read here, E = 2, S = 4; version 2: ``passages``, the
    cells by their index among the maze's cells)."""
    data = json.loads(maze.to_json())
    rows, cols = data["rows"], data["cols"]
    if data["version"] == 1:
        cells = {(r, c) for r in range(rows) for c in range(cols)}
        passages = set()
        for r, masks in enumerate(data["cells"]):
            for c, mask in enumerate(masks):
                if mask & 2 and c + 1 < cols:
                    passages.add(frozenset({(r, c), (r, c + 1)}))
                if mask & 4 and r + 1 < rows:
                    passages.add(frozenset({(r, c), (r + 1, c)}))
        return cells, passages
    board = data.get("cells") or list(range(rows * cols))
    position = [divmod(cell, cols) for cell in board]
    return set(position), {frozenset({position[a], position[b]}) for a, b in data["passages"]}


def wall_boxes(maze: Maze, cell_size: float, thickness: float) -> np.ndarray:
    """``(n, 4)`` rectangles ``x0, z0, x1, z1`` (mm) the walker must never enter, from the maze
    file (:func:`file_cells`): every post at a corner of a cell, every side of a cell that no
    passage opens (to another cell or out of the maze), posts included; the entrance and exit
    count as closed (one leaves through the maze, not round it). Overlaps are fine here."""
    s, t = cell_size, thickness
    cells, passages = file_cells(maze)
    posts = {(r + i, c + j) for r, c in cells for i in (0, 1) for j in (0, 1)}
    boxes = [[j * s, i * s, j * s + t, i * s + t] for i, j in sorted(posts)]
    for r, c in sorted(cells):
        for dr, dc in STEP.values():
            if frozenset({(r, c), (r + dr, c + dc)}) in passages:
                continue
            if dr:  # a north or south side: along x at z = (r or r + 1)·s
                z = (r + max(dr, 0)) * s
                boxes.append([c * s, z, (c + 1) * s + t, z + t])
            else:
                x = (c + max(dc, 0)) * s
                boxes.append([x, r * s, x + t, (r + 1) * s + t])
    return np.array(boxes, dtype=float)


def file_route(maze: Maze) -> list[tuple[int, int]]:
    """The cells from the entrance to the exit, by breadth-first search over the maze file's
    passages (:func:`file_cells`; loops and all)."""
    data = json.loads(maze.to_json())
    _, passages = file_cells(maze)
    start, goal = ((data[o]["row"], data[o]["col"]) for o in ("entrance", "exit"))
    parent = {start: start}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for dr, dc in STEP.values():
            other = (cell[0] + dr, cell[1] + dc)
            if other not in parent and frozenset({cell, other}) in passages:
                parent[other] = cell
                queue.append(other)
    route = [goal]
    while route[-1] != start:
        route.append(parent[route[-1]])
    return route[::-1]


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
