"""Lines thickened into polygons, mm: the walls' footprint of every shape (and the solution strip,
a theta plate's disc) traced as rings straight from the line graph, with no boolean operation.

Every segment becomes a band ``2·half`` wide; where segments meet, **mitred joins** (the offset
lines meet at one point: the corners of a hexagon's or a triangle's inset, and a square maze's
post exactly); where a line ends in the open, a **square cap**. A tree of lines gives one ring, a
line graph with cycles a ring per face.
"""

from __future__ import annotations

import numpy as np

from laby3d.errors import InternalError
from laby3d.geometry.rings import cycles


def _units(vectors: np.ndarray) -> np.ndarray:
    return vectors / np.hypot(vectors[:, 0], vectors[:, 1])[:, None]


def thick_lines(
    points: np.ndarray,
    segments: np.ndarray,
    half: float,
    cap: np.ndarray,
    virtual: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The region within ``half`` (mm) of the line ``segments`` ``(S, 2)`` (ids into ``points``
    ``(V, 2)``, mm), with mitred joins and, at every end point (a vertex of one segment), a square
    cap reaching ``cap[vertex]`` mm beyond it.

    ``virtual`` ``(S,)`` bool marks segments that are not drawn but shape the joins at their ends:
    a line meeting one there ends along the mitre line it would have with it (an opening in the
    outline: the outer corner stays on the outline's offset). Returns the points of the rings
    ``(K, 2)`` and their starts ``(R + 1,)``: one ring per face of the line graph, region on the
    left (a tree: one counter-clockwise ring). Points where a line runs straight on are left out.
    """
    count = len(segments)
    if count == 0:
        return np.zeros((0, 2)), np.zeros(1, dtype=np.int64)
    virtual = np.zeros(count, dtype=bool) if virtual is None else virtual
    first = segments[:, 0].astype(np.int64)
    second = segments[:, 1].astype(np.int64)
    forward = _units(points[second] - points[first])
    source = np.concatenate([first, second])
    target = np.concatenate([second, first])
    unit = np.concatenate([forward, -forward])
    twin = np.concatenate([np.arange(count, 2 * count), np.arange(count)])
    fake = np.concatenate([virtual, virtual])
    # Around every vertex, its half-edges in counter-clockwise order.
    order = np.lexsort((np.arctan2(unit[:, 1], unit[:, 0]), source))
    grouped = source[order]
    new_group = np.append(True, grouped[1:] != grouped[:-1])
    group_start = np.maximum.accumulate(np.where(new_group, np.arange(2 * count), 0))
    following = np.where(np.append(new_group[1:], True), order[group_start], np.roll(order, -1))
    counter_clockwise = np.empty(2 * count, dtype=np.int64)
    counter_clockwise[order] = following
    # Walking half-edge h = u → v on its right, the region on the left: at v sweep counter-
    # clockwise from v → u past the virtual half-edges to the next drawn one.
    glimpse = counter_clockwise[twin]
    after, last_virtual = glimpse.copy(), glimpse.copy()
    while True:
        skip = fake[after] & ~fake
        if not skip.any():
            break
        last_virtual[skip] = after[skip]
        after[skip] = counter_clockwise[after[skip]]
    at = points[target]
    cut = fake[glimpse] & ~fake  # a drawn line meets a virtual one: two corners, the cut between
    leaf = (after == twin) & ~cut
    travel = unit
    straight = (
        ~leaf
        & ~cut
        & (np.abs(travel[:, 0] * unit[after][:, 1] - travel[:, 1] * unit[after][:, 0]) < 1e-12)
        & ((travel * unit[after]).sum(axis=1) > 0)
    )
    joined = _corners(at, travel, unit[after], half, valid=~leaf & ~cut)
    into_cut = _corners(at, travel, unit[glimpse], half, valid=cut)
    out_of_cut = _corners(at, -unit[last_virtual], unit[after], half, valid=cut)
    right = np.stack([travel[:, 1], -travel[:, 0]], axis=1)
    reach = cap[target][:, None] * travel
    first_points = np.where(cut[:, None], into_cut, np.where(leaf[:, None], at + reach + half * right, joined))
    second_points = np.where(cut[:, None], out_of_cut, at + reach - half * right)
    emitted = np.where(leaf | cut, 2, np.where(straight, 0, 1))
    # The line each ring edge runs on: the right offset of the next half-edge walked, except the
    # edge across a cap or a cut.
    along = np.where((leaf | cut)[:, None], np.nan, unit[after])
    after[fake] = np.flatnonzero(fake)
    starts = [0]
    chunks = []
    for cycle in cycles(after):
        if fake[cycle[0]]:
            continue
        sizes = emitted[cycle]
        picks = np.repeat(cycle, sizes)
        second = np.zeros(len(picks), dtype=bool)
        second[(np.cumsum(sizes) - 1)[sizes == 2]] = True
        ring = np.where(second[:, None], second_points[picks], first_points[picks])
        lines = np.where(second[:, None], unit[after[picks]], along[picks])
        chunks.append(_trimmed(ring, lines))
        starts.append(starts[-1] + len(chunks[-1]))
    return np.concatenate(chunks), np.array(starts, dtype=np.int64)


def _trimmed(ring: np.ndarray, lines: np.ndarray) -> np.ndarray:
    """``ring`` without the edges a mitre ran past: an edge on a segment's offset line that runs
    backwards (its segment is shorter than the joins at its ends reach) is dropped, and the
    lines before and after it meet instead. ``lines`` ``(k, 2)``: the direction of the line each
    edge runs on (NaN: an edge across a cap or a cut, never dropped)."""
    checked = ~np.isnan(lines[:, 0])
    for _ in range(len(ring)):
        step = np.roll(ring, -1, axis=0) - ring
        backwards = checked & (np.einsum("ij,ij->i", step, np.nan_to_num(lines)) <= 0)
        if not backwards.any():
            return ring
        count = len(ring)
        chosen = np.flatnonzero(backwards)
        chosen = chosen[np.append(True, np.diff(chosen) > 2)]  # one edge of each run a pass
        directions = np.where(checked[:, None], lines, step / np.hypot(step[:, 0], step[:, 1])[:, None])
        before, beyond = (chosen - 1) % count, (chosen + 1) % count
        meet = _meet(ring[before], directions[before], ring[beyond], directions[beyond])
        ring = ring.copy()
        ring[chosen] = meet
        lines = lines.copy()
        lines[chosen] = lines[beyond]
        keep = np.ones(count, dtype=bool)
        keep[beyond] = False
        ring, lines, checked = ring[keep], lines[keep], checked[keep]
    raise InternalError("the walls' outline does not settle")


def _meet(first: np.ndarray, along_first: np.ndarray, second: np.ndarray, along_second: np.ndarray) -> np.ndarray:
    """Where the lines through ``first`` along ``along_first`` and through ``second`` along
    ``along_second`` cross (row by row)."""
    gap = second - first
    cross = along_first[:, 0] * along_second[:, 1] - along_first[:, 1] * along_second[:, 0]
    share = (gap[:, 0] * along_second[:, 1] - gap[:, 1] * along_second[:, 0]) / cross
    return first + share[:, None] * along_first


def _corners(at: np.ndarray, travel: np.ndarray, onward: np.ndarray, half: float, valid: np.ndarray) -> np.ndarray:
    """Where the offset lines ``half`` mm right of the directions ``travel`` (arriving at ``at``)
    and ``onward`` (leaving it) meet: the mitre point (rows not ``valid``: any value)."""
    right_in = np.stack([travel[:, 1], -travel[:, 0]], axis=1)
    right_out = np.stack([onward[:, 1], -onward[:, 0]], axis=1)
    denominator = np.where(valid, 1.0 + (right_in * right_out).sum(axis=1), 1.0)
    return at + half * (right_in + right_out) / denominator[:, None]
