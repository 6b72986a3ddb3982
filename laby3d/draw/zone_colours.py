"""Colours of the lesson's zones: zones that touch never share a colour, whatever the maze size,
and a cell changes colour only when its zone merges.

The colours come from :data:`PALETTE`, ten light colours at least 23 apart in CIEDE2000 from each
other (chosen by a farthest-point search over sRGB with CIE L* between 66 and 94, so black walls
and grey numbers stay readable on every one). Which zone gets which colour is a graph colouring
over the frames shown:

- a *segment* is a zone as long as it stays the same from frame to frame; a merge ends the
  segments it joins and starts a new one;
- two segments conflict when their zones touch (neighbouring cells) in a frame where both show;
- the segments are coloured by DSatur (Brélaz 1979: the segment with the most colours among its
  coloured neighbours first), each taking, when no conflicting segment has it, the colour of the
  zone whose number it keeps (the class exercise's rule); DSatur needs 4 to 6 colours;
- a repair pass then walks the segments in the order shown and gives each merged zone the colour
  of the zone whose number it keeps (so the second zone takes the first one's colour, as it takes
  its number), moving a conflicting segment to another palette colour when that costs it no
  colour of its own: 62–100 % of merges keep the colour at 60×60, against 40–70 % after DSatur
  alone (bench/bench_lesson_colours.py).

Every frame's zones thus form a proper map colouring within the palette. Should a maze ever need
more colours than :data:`PALETTE` holds (DSatur has needed at most 7), the extra colours are the
palette's, darker (and closer to each other).
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

import numpy as np

#: RGB (0..1) of the zone colours, in the order the colouring takes them.
PALETTE: tuple[tuple[float, float, float], ...] = (
    (0.475, 0.975, 0.5),  # green
    (1.0, 0.625, 0.325),  # orange
    (0.3, 0.775, 1.0),  # sky blue
    (1.0, 0.9, 0.3),  # yellow
    (1.0, 0.35, 1.0),  # magenta
    (0.625, 0.65, 0.575),  # grey-green
    (0.3, 1.0, 0.95),  # aqua
    (1.0, 0.475, 0.525),  # salmon
    (0.625, 0.625, 0.9),  # lavender
    (0.95, 0.9, 0.95),  # pale pink
)


def colour_rgb(index: int) -> tuple[float, float, float]:
    """RGB (0..1) of palette colour ``index`` (beyond :data:`PALETTE`: its colours darker)."""
    red, green, blue = PALETTE[index % len(PALETTE)]
    shade = 0.8 ** (index // len(PALETTE))
    return red * shade, green * shade, blue * shade


def frame_colours(frames: Sequence[np.ndarray], *, neighbours: np.ndarray | None = None) -> list[np.ndarray]:
    """For each frame's ``(rows, cols)`` zone numbers (in the order shown, zones only merging), the
    ``(rows, cols)`` palette index of every cell (see the module). A maze of another shape gives
    ``(C,)`` zone numbers and its ``neighbours``, the ``(E, 2)`` cell pairs that touch (the
    tessellation's edges): the same colouring over that graph.

    >>> zones = [np.array([[0, 1], [2, 3]]), np.array([[0, 0], [2, 0]]), np.array([[0, 0], [0, 0]])]
    >>> [colours.tolist() for colours in frame_colours(zones)]
    [[[1, 0], [0, 1]], [[1, 1], [0, 1]], [[1, 1], [1, 1]]]
    """
    segments, kept_from = _segments(frames)
    conflicts = _conflicts(segments, len(kept_from), neighbours)
    colour = _dsatur(conflicts, kept_from)
    _follow_numbers(colour, conflicts, kept_from)
    return [colour[segment] for segment in segments]


def _segments(frames: Sequence[np.ndarray]) -> tuple[list[np.ndarray], list[int]]:
    """The segment id of every cell in every frame, and for each segment the segment (in the
    frame before) of the zone whose number it keeps (-1: none)."""
    segments: list[np.ndarray] = []
    kept_from: list[int] = []
    previous_zones: np.ndarray | None = None
    previous_of: dict[int, int] = {}
    for zones in frames:
        numbers, cell_zone = np.unique(zones, return_inverse=True)
        cell_zone = cell_zone.reshape(zones.shape)
        only_before: dict[int, int] = {}  # zone index -> the one zone of the frame before it covers
        if previous_zones is not None:
            span = int(previous_zones.max()) + 1
            pairs = np.unique(cell_zone.ravel().astype(np.int64) * span + previous_zones.ravel())
            now, before = pairs // span, pairs % span
            single = np.bincount(now, minlength=len(numbers))[now] == 1
            only_before = dict(zip(now[single].tolist(), before[single].tolist(), strict=True))
        of: dict[int, int] = {}
        for index, number in enumerate(numbers.tolist()):
            if index in only_before:  # unchanged since the frame before: the same segment
                of[number] = previous_of[only_before[index]]
                continue
            of[number] = len(kept_from)
            kept_from.append(previous_of.get(number, -1))
        segments.append(np.array([of[number] for number in numbers.tolist()], dtype=np.int64)[cell_zone])
        previous_zones, previous_of = zones, of
    return segments, kept_from


def _conflicts(segments: list[np.ndarray], count: int, neighbours: np.ndarray | None) -> list[list[int]]:
    """For each segment, the segments whose zone touches its zone in some frame (cells touch
    across a grid's sides, or as the ``neighbours`` pairs say)."""
    codes = []
    for cells in segments:
        touching: tuple[tuple[np.ndarray, np.ndarray], ...]
        if neighbours is None:
            touching = ((cells[:, :-1], cells[:, 1:]), (cells[:-1, :], cells[1:, :]))
        else:
            touching = ((cells[neighbours[:, 0]], cells[neighbours[:, 1]]),)
        for a, b in touching:
            apart = a != b
            low, high = np.minimum(a[apart], b[apart]), np.maximum(a[apart], b[apart])
            codes.append(low * count + high)
    edges = np.unique(np.concatenate(codes)) if codes else np.empty(0, dtype=np.int64)
    ends = np.concatenate(
        [np.stack([edges // count, edges % count], axis=1), np.stack([edges % count, edges // count], axis=1)]
    )
    ends = ends[np.argsort(ends[:, 0], kind="stable")]
    split = np.searchsorted(ends[:, 0], np.arange(count + 1))
    others = ends[:, 1].tolist()
    return [others[split[i] : split[i + 1]] for i in range(count)]


def _follow_numbers(colour: np.ndarray, conflicts: list[list[int]], kept_from: list[int]) -> None:
    """A repair pass after DSatur (which colours in another order): in the order the frames show
    them, give each segment the colour of the zone whose number it keeps, moving out of the way
    the conflicting segments that hold it when each can take another palette colour and keeps no
    colour of its own that way (neither its predecessor's nor its successor's)."""
    continued_by = [-1] * len(kept_from)
    for segment, before in enumerate(kept_from):
        if before >= 0:
            continued_by[before] = segment

    def follows(segment: int) -> bool:
        """Whether ``segment`` has its predecessor's or its successor's colour."""
        return any(
            other >= 0 and colour[other] == colour[segment] for other in (kept_from[segment], continued_by[segment])
        )

    for segment, before in enumerate(kept_from):
        if before < 0 or colour[segment] == colour[before]:
            continue
        wanted = colour[before]
        blockers = [other for other in conflicts[segment] if colour[other] == wanted]
        moves = {}
        for other in blockers:
            if follows(other):
                break
            taken = {int(colour[x]) for x in conflicts[other]} | {int(wanted)}
            free = next((c for c in range(len(PALETTE)) if c not in taken), None)
            if free is None:
                break
            moves[other] = free
        else:
            for other, free in moves.items():
                colour[other] = free
            colour[segment] = wanted


def _dsatur(conflicts: list[list[int]], kept_from: list[int]) -> np.ndarray:
    """A colour per segment, no two conflicting segments alike: DSatur, preferring the colour of
    the segment a segment keeps the number of, or of the one that keeps its number."""
    count = len(conflicts)
    continued_by = [-1] * count
    for segment, before in enumerate(kept_from):
        if before >= 0:
            continued_by[before] = segment
    colour = np.full(count, -1, dtype=np.int64)
    seen: list[set[int]] = [set() for _ in range(count)]  # colours among coloured neighbours
    queue = [(0, -len(conflicts[segment]), segment) for segment in range(count)]
    heapq.heapify(queue)
    while queue:
        saturation, _, segment = heapq.heappop(queue)
        if colour[segment] >= 0 or -saturation != len(seen[segment]):
            continue  # coloured already, or an outdated entry
        taken = seen[segment]
        chosen = next(
            (
                int(colour[other])
                for other in (kept_from[segment], continued_by[segment])
                if other >= 0 and colour[other] >= 0 and colour[other] not in taken
            ),
            -1,
        )
        if chosen < 0:
            chosen = next(index for index in range(len(taken) + 1) if index not in taken)
        colour[segment] = chosen
        for other in conflicts[segment]:
            if colour[other] < 0 and chosen not in seen[other]:
                seen[other].add(chosen)
                heapq.heappush(queue, (-len(seen[other]), -len(conflicts[other]), other))
    return colour
