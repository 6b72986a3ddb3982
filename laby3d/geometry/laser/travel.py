"""Stroke order that keeps the head's rapid (beam-off) travel short, mm.

Per operation, in the page's operation order (so every hole is cut before any outer cut):
(1) greedy nearest neighbour from where the head is: open strokes may run either way, a closed
stroke may start at any of its points; (2) 2-opt over the stroke sequence with neighbour
lists and don't-look bits: reversing a run of strokes (each one then runs backwards) whenever
that shortens the travel, within a budget of moves. The result is never longer than the greedy
order it starts from. Both steps are kernels (:mod:`laby3d.accel`): Python for small drawings,
compiled for large ones, with the same result.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from laby3d.accel import helper, kernel
from laby3d.geometry.laser.drawing import Drawing
from laby3d.geometry.laser.options import OPERATIONS

#: Nearest candidates listed per stroke end: the greedy order's first choices, and the
#: neighbours 2-opt tries to join each stroke with.
NEIGHBOURS = 8
#: Largest number of 2-opt passes over the sequence (they stop earlier once nothing improves).
PASSES = 50
#: Most positions 2-opt reverses in all, per stroke: bounds its work by a move count, not a
#: clock, so the order is the same on every run (a 300×300 maze's lines need between 1,000 and
#: 2,000 per stroke, a 100×100 one under 300).
REVERSAL_BUDGET = 2000
#: Most times :func:`restarted` starts the order again from its own result (a 100×100 hex
#: maze's lines need 3, most drawings none).
RESTARTS = 10


def ordered(drawing: Drawing, origin: tuple[float, float] = (0.0, 0.0)) -> Drawing:
    """A copy of ``drawing`` with every operation's strokes in a short-travel order."""
    result = drawing.blank()
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


def restarted(drawing: Drawing, origin: tuple[float, float] = (0.0, 0.0)) -> Drawing:
    """A copy of ``drawing`` in a short-travel order that is never longer than the greedy order
    over its own strokes: per operation, :func:`ordered`'s order of the points rounded to
    0.1 µm (the files' precision, so its ties are the ties a reader of the file sees), ordered
    again from the greedy walk over that result (which breaks ties in the new order) while
    this shortens the travel, at most :data:`RESTARTS` times."""
    result = drawing.blank()
    head = np.asarray(origin, dtype=float)
    for op in OPERATIONS:
        if not drawing.strokes[op]:
            continue
        strokes = [np.round(points, 4) for points in drawing.strokes[op]]
        closed = list(drawing.closed[op])
        best = _order(strokes, closed, head)
        length = _travel(best, closed, head)
        for _ in range(RESTARTS):
            strokes, kept = [p for _, p in best], [closed[k] for k, _ in best]
            if _greedy_length(_candidates(strokes, kept), head) >= length:
                break
            again = [(best[k][0], points) for k, points in _order(strokes, kept, head)]
            best, length = again, _travel(again, closed, head)
        for k, points in best:
            result.add(op, points, closed[k])
        head = best[-1][1][0] if closed[best[-1][0]] else best[-1][1][-1]
    return result


def _greedy_length(candidates: _Candidates, head: np.ndarray) -> float:
    """Rapid travel of the greedy order (:func:`_greedy`) from ``head``, mm."""
    chosen = _greedy(candidates, head)
    starts, exits = candidates.points[chosen], candidates.exits[chosen]
    first = float(np.hypot(*(starts[0] - head)))
    return first + float(np.hypot(*(starts[1:] - exits[:-1]).T).sum())


def _travel(order: list[tuple[int, np.ndarray]], closed: list[bool], head: np.ndarray) -> float:
    """Rapid travel from ``head`` through (stroke index, points) in turn, mm."""
    total = 0.0
    for k, points in order:
        total += float(np.hypot(*(points[0] - head)))
        head = points[0] if closed[k] else points[-1]
    return total


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
    candidates = _candidates(strokes, closed)
    chosen = _greedy(candidates, head)
    stroke_of, vertex_of = candidates.stroke[chosen].tolist(), candidates.vertex[chosen].tolist()
    result = []
    for index, flipped in _two_opt_order(candidates, chosen, head):
        k, vertex = stroke_of[index], vertex_of[index]
        points = strokes[k]
        if closed[k]:  # a ring keeps its turning sense (outlines CCW, holes CW): only its start moves
            result.append((k, np.roll(points, -vertex, axis=0) if vertex else points))
        else:
            backwards = (vertex != 0) != flipped
            result.append((k, points[::-1] if backwards else points))
    return result


@dataclass(frozen=True)
class _Candidates:
    """Where the head may enter each stroke: every point of a closed stroke, both ends of an
    open one (``m`` candidates, numbered stroke by stroke)."""

    #: ``(m, 2)`` the candidate points, mm.
    points: np.ndarray
    #: ``(m, 2)`` where the head leaves the stroke when it enters at each candidate.
    exits: np.ndarray
    #: ``(m,)`` the stroke of each candidate, and the vertex of the stroke it is.
    stroke: np.ndarray
    vertex: np.ndarray
    #: ``(m,)`` the candidate whose exit is this candidate's point (the other end of an open
    #: stroke; a ring's candidate itself).
    partner: np.ndarray
    #: ``(m, k)`` the :data:`NEIGHBOURS` candidates nearest to each exit, nearest first
    #: (ties: the lowest index), and their squared distances.
    near: np.ndarray
    near_squared: np.ndarray


def _candidates(strokes: list[np.ndarray], closed: list[bool]) -> _Candidates:
    """The :class:`_Candidates` of ``strokes``, with the neighbours of every exit from one
    batched k-d tree query (squared distances recomputed with numpy, the same way every time)."""
    from scipy.spatial import cKDTree

    lengths = np.array([len(points) for points in strokes], dtype=np.int64)
    is_closed = np.asarray(closed, dtype=bool)
    every_point = np.concatenate(strokes).astype(float)
    first_point = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    per_stroke = np.where(is_closed, lengths, 2)
    stroke_of = np.repeat(np.arange(len(strokes), dtype=np.int64), per_stroke)
    first_candidate = np.repeat(np.cumsum(per_stroke) - per_stroke, per_stroke)
    rank = np.arange(per_stroke.sum()) - first_candidate
    last = lengths[stroke_of] - 1
    ring = is_closed[stroke_of]
    entry = np.where(ring, rank, np.where(rank == 0, 0, last))
    leave = np.where(ring, rank, np.where(rank == 0, last, 0))  # a ring ends where it starts
    base = first_point[stroke_of]
    points, exits = every_point[base + entry], every_point[base + leave]
    count = min(NEIGHBOURS, len(points))
    _, near = cKDTree(points).query(exits, k=count)
    near = np.asarray(near, dtype=np.int64).reshape(len(exits), count)
    squared = ((points[near] - exits[:, None, :]) ** 2).sum(axis=2)
    by_distance = np.lexsort((near, squared), axis=-1)
    return _Candidates(
        points=points,
        exits=exits,
        stroke=stroke_of,
        vertex=entry,
        partner=np.where(ring, np.arange(len(points)), first_candidate + 1 - rank),
        near=np.take_along_axis(near, by_distance, axis=-1),
        near_squared=np.take_along_axis(squared, by_distance, axis=-1),
    )


def _greedy(candidates: _Candidates, head: np.ndarray) -> np.ndarray:
    """Greedy nearest neighbour: the candidate entered at each step, always the nearest one of a
    stroke not yet used (ties: the lowest candidate index), from ``head`` and then from the exit
    of the stroke just drawn.

    Most steps only walk the previous exit's list of nearest candidates (:func:`_greedy_walk`);
    a step whose list is used up, or whose pick might tie with a candidate beyond the list,
    searches a grid of buckets instead. Squared distances are computed the same way on every
    path (numpy here, the kernel as Python or compiled), so every path gives the same order."""
    points, stroke_of = candidates.points, candidates.stroke
    strokes = int(stroke_of[-1]) + 1
    near = candidates.near.copy()
    if near.shape[1] < len(points):  # a listed pick is sure only if nearer than the farthest listed
        squared = candidates.near_squared
        near[squared >= squared[:, -1:] * (1 - 1e-9)] = -1
    first_candidate = np.searchsorted(stroke_of, np.arange(strokes + 1)).astype(np.int64)
    # buckets of about two candidates each, over a box holding the candidates and the head
    low = np.minimum(points.min(axis=0), head)
    extent = np.maximum(points.max(axis=0), head) - low
    side = max(float(np.sqrt(extent[0] * extent[1] / len(points) * 2)), float(extent.max()) / 1024, 1e-6)
    shape = (np.floor(extent / side) + 1).astype(np.int64)
    cell = np.minimum(((points - low) / side).astype(np.int64), shape - 1)
    bucket = cell[:, 0] * shape[1] + cell[:, 1]
    by_bucket = np.argsort(bucket, kind="stable").astype(np.int64)
    bucket_start = np.searchsorted(bucket[by_bucket], np.arange(shape[0] * shape[1] + 1)).astype(np.int64)
    chosen = np.empty(strokes, dtype=np.int64)
    _greedy_walk(
        points,
        candidates.exits,
        stroke_of,
        first_candidate,
        near,
        (bucket, by_bucket, bucket_start, shape),
        np.array([head[0], head[1], low[0], low[1], side]),
        chosen,
        cells=len(points),
    )
    return chosen


@kernel(python_ns=3_500)
def _greedy_walk(
    candidates: np.ndarray,
    exits: np.ndarray,
    stroke_of: np.ndarray,
    first_candidate: np.ndarray,
    near: np.ndarray,
    grid: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    frame: np.ndarray,
    chosen: np.ndarray,
) -> None:
    """In place: ``chosen[step]`` is the candidate entered at each step, from the head at
    ``frame[:2]``: the first unused one of the previous exit's ``near`` list (nearest first; -1
    ends the sure part), else the nearest found in the ``grid`` of buckets (``bucket`` of each
    candidate, candidates ``by_bucket``, ``bucket_start`` offsets, ``shape`` columns × rows of
    squares of side ``frame[4]`` from ``frame[2:4]``)."""
    bucket, by_bucket, bucket_start, shape = grid
    live = np.zeros(shape[0] * shape[1], dtype=np.int64)
    for b in bucket:
        live[b] += 1
    used = np.zeros(first_candidate.shape[0] - 1, dtype=np.bool_)
    after = -1
    for step in range(chosen.shape[0]):
        choice = -1
        if after >= 0:
            for c in near[after]:
                if c < 0 or not used[stroke_of[c]]:
                    choice = c
                    break
        if choice < 0:
            x, y = (frame[0], frame[1]) if after < 0 else (exits[after, 0], exits[after, 1])
            choice = _nearest_unused(candidates, stroke_of, used, bucket_start, by_bucket, live, shape, frame, x, y)
        chosen[step] = choice
        k = stroke_of[choice]
        used[k] = True
        for c in range(first_candidate[k], first_candidate[k + 1]):
            live[bucket[c]] -= 1
        after = choice


@helper
def _nearest_unused(
    candidates: np.ndarray,
    stroke_of: np.ndarray,
    used: np.ndarray,
    bucket_start: np.ndarray,
    by_bucket: np.ndarray,
    live: np.ndarray,
    shape: np.ndarray,
    frame: np.ndarray,
    x: float,
    y: float,
) -> int:
    """The unused candidate nearest to (``x``, ``y``) (ties: the lowest index): buckets searched
    in growing square rings until no unsearched bucket can hold a nearer one."""
    x0, y0, side = frame[2], frame[3], frame[4]
    columns, rows = shape[0], shape[1]
    cx = min(max(int((x - x0) / side), 0), columns - 1)
    cy = min(max(int((y - y0) / side), 0), rows - 1)
    best, best_squared = -1, np.inf
    ring = 0
    while True:
        for i in range(max(cx - ring, 0), min(cx + ring, columns - 1) + 1):
            step = 1 if ring == 0 or i == cx - ring or i == cx + ring else 2 * ring  # the ring's edge only
            for j in range(cy - ring, cy + ring + 1, step):
                if j < 0 or j >= rows or live[i * rows + j] == 0:
                    continue
                for slot in range(bucket_start[i * rows + j], bucket_start[i * rows + j + 1]):
                    c = by_bucket[slot]
                    if used[stroke_of[c]]:
                        continue
                    dx, dy = candidates[c, 0] - x, candidates[c, 1] - y
                    squared = dx * dx + dy * dy
                    if squared < best_squared or (squared == best_squared and c < best):
                        best, best_squared = c, squared
        # every candidate outside the searched square is at least this far away
        reach = min(x - (x0 + (cx - ring) * side), x0 + (cx + ring + 1) * side - x)
        reach = min(reach, y - (y0 + (cy - ring) * side), y0 + (cy + ring + 1) * side - y)
        everywhere = cx - ring <= 0 and cy - ring <= 0 and cx + ring >= columns - 1 and cy + ring >= rows - 1
        if everywhere or (best >= 0 and best_squared < reach * reach):
            return best
        ring += 1


def _two_opt_order(candidates: _Candidates, chosen: np.ndarray, head: np.ndarray) -> list[tuple[int, bool]]:
    """2-opt of the greedy sequence (the candidate ``chosen`` at each step): the new order as
    (index into the sequence, run backwards). A stroke's neighbours are the strokes of the
    candidates nearest to its start and to its end."""
    n = len(chosen)
    if n < 3:
        return [(k, False) for k in range(n)]
    starts, ends = candidates.points[chosen], candidates.exits[chosen]
    step_of_stroke = np.empty(n, dtype=np.int64)
    step_of_stroke[candidates.stroke[chosen]] = np.arange(1, n + 1)  # steps are 1..n, the head 0
    nearby = np.hstack([candidates.near[candidates.partner[chosen]], candidates.near[chosen]])
    neighbours = np.vstack([np.zeros((1, nearby.shape[1]), dtype=np.int64), step_of_stroke[candidates.stroke[nearby]]])
    points = np.stack([np.vstack([head, starts]), np.vstack([head, ends])], axis=1).astype(float)
    order = np.arange(n + 1, dtype=np.int64)
    flipped = np.zeros(n + 1, dtype=np.int64)
    # the work grows with strokes × neighbours: compiled from about 2,500 strokes on
    _two_opt(points, order, flipped, neighbours, PASSES, REVERSAL_BUDGET * n, cells=4 * n * neighbours.shape[1])
    return list(zip((order[1:] - 1).tolist(), (flipped[1:] == 1).tolist(), strict=True))


@kernel(python_ns=5_000)
def _two_opt(
    points: np.ndarray, order: np.ndarray, flipped: np.ndarray, neighbours: np.ndarray, passes: int, budget: int
) -> None:
    """In place: ``order`` holds the stroke at each position (position 0 is the head, stroke 0,
    fixed) and ``flipped`` 1 where it runs backwards; ``points[s]`` is stroke ``s``'s start and
    end. Reverses runs of positions while that shortens the travel: at most ``passes`` passes
    and ``budget`` positions reversed in all (a move that would exceed it is skipped), so the
    work is bounded and the result the same on every run. A stroke is looked at again only
    once a move changed one of its joins (don't-look bits)."""
    n = order.shape[0] - 1
    position = np.empty(n + 1, dtype=np.int64)
    for p in range(n + 1):
        position[order[p]] = p
    settled = np.zeros(n + 1, dtype=np.bool_)  # no move found from this stroke since its ends last changed
    spent = 0
    for _ in range(passes):
        improved = False
        for i in range(1, n + 1):
            before = order[i - 1]
            if before == 0 or settled[before]:
                continue
            settled[before] = True
            for c in neighbours[before]:
                j = position[c]
                lo, hi = (i, j) if j >= i else (j + 1, i - 1)
                if hi < lo or lo < 1 or spent + hi - lo + 1 > budget:
                    continue
                s, e = order[lo - 1], 1 - flipped[lo - 1]  # where the run is entered from
                ax, ay = points[s, e, 0], points[s, e, 1]
                s, e = order[lo], flipped[lo]  # the run's start
                bx, by = points[s, e, 0], points[s, e, 1]
                s, e = order[hi], 1 - flipped[hi]  # the run's end
                cx, cy = points[s, e, 0], points[s, e, 1]
                gain = math.sqrt((ax - bx) ** 2 + (ay - by) ** 2) - math.sqrt((ax - cx) ** 2 + (ay - cy) ** 2)
                if hi < n:
                    s, e = order[hi + 1], flipped[hi + 1]  # where the run leads to
                    dx, dy = points[s, e, 0], points[s, e, 1]
                    gain += math.sqrt((cx - dx) ** 2 + (cy - dy) ** 2) - math.sqrt((bx - dx) ** 2 + (by - dy) ** 2)
                if gain > 1e-9:
                    _reverse(order, flipped, position, lo, hi)
                    spent += hi - lo + 1
                    improved = True
                    for p in range(lo - 1, min(hi + 1, n) + 1):  # the run's joins now run the other way
                        settled[order[p]] = False
        if not improved:
            break


@helper
def _reverse(order: np.ndarray, flipped: np.ndarray, position: np.ndarray, lo: int, hi: int) -> None:
    """Reverse positions ``lo``..``hi``: their order, and each stroke's direction."""
    while lo < hi:
        order[lo], order[hi] = order[hi], order[lo]
        flipped[lo], flipped[hi] = 1 - flipped[hi], 1 - flipped[lo]
        position[order[lo]] = lo
        position[order[hi]] = hi
        lo += 1
        hi -= 1
    if lo == hi:
        flipped[lo] = 1 - flipped[lo]
