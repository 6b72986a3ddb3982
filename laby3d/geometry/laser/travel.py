"""Stroke order that keeps the head's rapid (beam-off) travel short, mm.

Per operation, in the page's operation order (so every hole is cut before any outer cut):
(1) greedy nearest neighbour from where the head is: open strokes may run either way, a closed
stroke may start at any of its points; (2) 2-opt over the stroke sequence with neighbour
lists: reversing a run of strokes (each one then runs backwards) whenever that shortens the
travel. The result is never longer than the greedy order it starts from.
"""

from __future__ import annotations

import numpy as np

from laby3d.accel import helper, kernel
from laby3d.geometry.laser.drawing import Drawing
from laby3d.geometry.laser.options import OPERATIONS

#: Neighbours per stroke end considered by 2-opt.
NEIGHBOURS = 8
#: Largest number of 2-opt passes over the sequence.
PASSES = 8


def ordered(drawing: Drawing, origin: tuple[float, float] = (0.0, 0.0)) -> Drawing:
    """A copy of ``drawing`` with every operation's strokes in a short-travel order."""
    result = Drawing(
        width=drawing.width,
        height=drawing.height,
        sheets=list(drawing.sheets),
        titles=list(drawing.titles),
        material=drawing.material,
    )
    head = np.asarray(origin, dtype=float)
    for op in OPERATIONS:
        strokes, closed = drawing.strokes[op], drawing.closed[op]
        if not strokes:
            continue
        for k, points in _order(strokes, closed, head):
            result.add(op, points, closed[k])
        last = result.strokes[op][-1]
        head = last[0] if result.closed[op][-1] else last[-1]
    return result


def travel_length(drawing: Drawing, origin: tuple[float, float] = (0.0, 0.0)) -> float:
    """Rapid travel in file order, from ``origin`` through every stroke of every operation, mm."""
    head = np.asarray(origin, dtype=float)
    total = 0.0
    for op in OPERATIONS:
        for points, closed in zip(drawing.strokes[op], drawing.closed[op], strict=True):
            total += float(np.hypot(*(points[0] - head)))
            head = points[0] if closed else points[-1]
    return total


def _order(strokes: list[np.ndarray], closed: list[bool], head: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """(stroke index, points) in travel order: open strokes maybe reversed, closed ones rotated
    to start at their entry point."""
    visits = _greedy(strokes, closed, head)
    starts = np.array([strokes[k][v] for k, v in visits])
    ends = np.array([strokes[k][v] if closed[k] else strokes[k][-1 if v == 0 else 0] for k, v in visits])
    result = []
    for index, flipped in _two_opt_order(starts, ends, head):
        k, vertex = visits[index]
        points = strokes[k]
        if closed[k]:  # a ring keeps its turning sense (outlines CCW, holes CW): only its start moves
            result.append((k, np.roll(points, -vertex, axis=0) if vertex else points))
        else:
            backwards = (vertex != 0) != flipped
            result.append((k, points[::-1] if backwards else points))
    return result


def _greedy(strokes: list[np.ndarray], closed: list[bool], head: np.ndarray) -> list[tuple[int, int]]:
    """Greedy nearest neighbour: (stroke, entry vertex) in visiting order (an open stroke entered
    at its last point runs backwards)."""
    from scipy.spatial import cKDTree

    xy, stroke, vertex = [], [], []
    for k, (points, is_closed) in enumerate(zip(strokes, closed, strict=True)):
        if is_closed:
            xy.append(points)
            stroke.append(np.full(len(points), k))
            vertex.append(np.arange(len(points)))
        else:
            xy.append(points[[0, -1]])
            stroke.append(np.array([k, k]))
            vertex.append(np.array([0, len(points) - 1]))
    candidates = np.concatenate(xy)
    owner = np.concatenate(stroke)
    at = np.concatenate(vertex)
    alive = np.ones(len(strokes), dtype=bool)
    live = np.arange(len(candidates))
    tree = cKDTree(candidates)
    visits: list[tuple[int, int]] = []
    dead = 0  # candidates in the tree whose stroke is used
    point = head
    for _ in range(len(strokes)):
        k_near = 8
        while True:
            count = min(k_near, len(live))
            _, found = tree.query(point, k=count)
            found = np.atleast_1d(found)
            found = found[found < len(live)]
            usable = found[alive[owner[live[found]]]]
            if len(usable) or count == len(live):
                break
            k_near *= 8
        choice = live[usable[0]]
        k = int(owner[choice])
        alive[k] = False
        entry = int(at[choice])
        visits.append((k, entry))
        point = strokes[k][entry] if closed[k] else strokes[k][-1 if entry == 0 else 0]
        dead += len(strokes[k]) if closed[k] else 2
        if dead * 2 > len(live) and dead < len(live):  # rebuild the tree without the used ends
            live = live[alive[owner[live]]]
            tree = cKDTree(candidates[live])
            dead = 0
    return visits


def _two_opt_order(starts: np.ndarray, ends: np.ndarray, head: np.ndarray) -> list[tuple[int, bool]]:
    """2-opt of the sequence (start, end points per stroke, in visiting order): the new order as
    (index into the sequence, run backwards)."""
    from scipy.spatial import cKDTree

    n = len(starts)
    if n < 3:
        return [(k, False) for k in range(n)]
    ends_all = np.concatenate([starts, ends])
    tree = cKDTree(ends_all)
    _, near = tree.query(ends_all, k=min(NEIGHBOURS + 1, len(ends_all)))
    near = np.asarray(near) % n
    neighbours = np.concatenate([near[:n], near[n:]], axis=1).astype(np.int64)
    first = np.vstack([head[None, :], starts]).astype(float)
    last = np.vstack([head[None, :], ends]).astype(float)
    order = np.arange(-1, n, dtype=np.int64)
    flipped = np.zeros(n + 1, dtype=np.bool_)
    # the work grows with strokes × neighbours: compiled from a few hundred strokes on
    _two_opt(first, last, order, flipped, neighbours, PASSES, cells=4 * n * neighbours.shape[1])
    return [(int(k), bool(f)) for k, f in zip(order[1:], flipped[1:], strict=True)]


@kernel
def _two_opt(
    first: np.ndarray, last: np.ndarray, order: np.ndarray, flipped: np.ndarray, neighbours: np.ndarray, passes: int
) -> None:
    """In place: positions 0..n (0 is the head, fixed); ``first``/``last`` are the points where
    the stroke at each position starts/ends, ``order`` its sequence index, ``flipped`` whether it
    runs backwards. Reverses position runs while that shortens the travel."""
    n = order.shape[0] - 1
    position = np.empty(n, dtype=np.int64)
    for p in range(1, n + 1):
        position[order[p]] = p
    for _ in range(passes):
        improved = False
        for i in range(1, n + 1):
            stroke = order[i - 1]
            if stroke < 0:
                continue
            for c in neighbours[stroke]:
                j = position[c]
                lo, hi = (i, j) if j >= i else (j + 1, i - 1)
                if hi < lo or lo < 1:
                    continue
                ax, ay = last[lo - 1, 0], last[lo - 1, 1]
                bx, by = first[lo, 0], first[lo, 1]
                cx, cy = last[hi, 0], last[hi, 1]
                gain = np.hypot(ax - bx, ay - by) - np.hypot(ax - cx, ay - cy)
                if hi < n:
                    dx, dy = first[hi + 1, 0], first[hi + 1, 1]
                    gain += np.hypot(cx - dx, cy - dy) - np.hypot(bx - dx, by - dy)
                if gain > 1e-9:
                    _reverse(first, last, order, flipped, position, lo, hi)
                    improved = True
        if not improved:
            break


@helper
def _reverse(
    first: np.ndarray, last: np.ndarray, order: np.ndarray, flipped: np.ndarray, position: np.ndarray, lo: int, hi: int
) -> None:
    while lo < hi:
        for a in range(2):
            f_lo, l_lo = first[lo, a], last[lo, a]
            first[lo, a], last[lo, a] = last[hi, a], first[hi, a]
            first[hi, a], last[hi, a] = l_lo, f_lo
        order[lo], order[hi] = order[hi], order[lo]
        flipped[lo], flipped[hi] = not flipped[hi], not flipped[lo]
        position[order[lo]] = lo
        position[order[hi]] = hi
        lo += 1
        hi -= 1
    if lo == hi:
        for a in range(2):
            first[lo, a], last[lo, a] = last[lo, a], first[lo, a]
        flipped[lo] = not flipped[lo]
