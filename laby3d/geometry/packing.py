"""Rectangles onto as few bins as possible: MaxRects (Jylänki 2010) with quarter turns.

Sizes are whole numbers (the caller's unit, e.g. µm), so every comparison is exact and the
result never depends on rounding. Steps of one run: take the rectangles in a sort order; put
each in the first open bin where it fits, at the free rectangle chosen by the heuristic, in the
orientation it allows; split every free rectangle the new one overlaps into the (up to four)
largest free rectangles left around it and drop those inside another; open a new bin when none
has room. :func:`pack` tries every sort order × heuristic × orientation rule and keeps the run
with the fewest bins (fixed orientations give the plain grids, so the result is never worse
than the best grid of either orientation); it stops early at the area bound. :func:`pack_in_turn`
fills one bin at a time instead, each as full as any of those runs fills it from what is left:
rectangles of many sizes (a class's kits of several maze sizes) waste less room that way.
:func:`line_bound` is a lower bound at least as strong as the area's: a bin holds no more area
than its height times the longest row of rectangle sides that fits its width (and the other way
round).

Equal discs (a class set of theta kits) pack closer than their boxes: :func:`staggered_rows`
lays them in rows shifted by half a disc every other row, the rows closer than a disc apart.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from laby3d.errors import InternalError

#: A free or used rectangle: x, y, width, height.
Rect = tuple[int, int, int, int]
#: Where a rectangle went: bin, x, y, turned (width and height swapped).
Spot = tuple[int, int, int, bool]


@dataclass(kw_only=True)
class _Bin:
    free: list[Rect] = field(default_factory=list)
    largest: int = 0  # area of the largest free rectangle


def _short_side(free: Rect, w: int, h: int) -> tuple[int, ...]:
    """Best short side fit: least leftover on the tighter side, then on the other."""
    a, b = free[2] - w, free[3] - h
    return min(a, b), max(a, b)


def _bottom_left(free: Rect, w: int, h: int) -> tuple[int, ...]:
    """Lowest then leftmost position (rows fill like a grid)."""
    return free[1] + h, free[0]


def _best_area(free: Rect, w: int, h: int) -> tuple[int, ...]:
    """Smallest free rectangle that holds it, then best short side."""
    return free[2] * free[3] - w * h, *_short_side(free, w, h)


HEURISTICS: dict[str, Callable[[Rect, int, int], tuple[int, ...]]] = {
    "short-side": _short_side,
    "bottom-left": _bottom_left,
    "best-area": _best_area,
}
#: Sort orders (largest first by each key).
SORTS: dict[str, Callable[[tuple[int, int]], tuple[int, ...]]] = {
    "area": lambda s: (-s[0] * s[1], -max(s)),
    "long-side": lambda s: (-max(s), -min(s)),
    "short-side": lambda s: (-min(s), -max(s)),
}
#: Orientation rules: both, as given only, turned only.
TURNS = {"both": (False, True), "flat": (False,), "turned": (True,)}


#: µm per mm: callers working in mm pack whole µm (:func:`micrometres`).
MICROMETRES = 1000.0


def micrometres(mm: float, *, down: bool = False) -> int:
    """``mm`` in whole µm, rounded up (a rectangle to place) or down (a bin), to within 1 nm."""
    value = mm * MICROMETRES
    return math.floor(value + 1e-6) if down else math.ceil(value - 1e-6)


def area_bound(sizes: list[tuple[int, int]], bin_size: tuple[int, int]) -> int:
    """Fewest bins the rectangles' total area allows (a lower bound on any packing)."""
    total = sum(w * h for w, h in sizes)
    capacity = bin_size[0] * bin_size[1]
    return -(-total // capacity)


def _variants(
    sizes: list[tuple[int, int]], items: list[int]
) -> Iterator[tuple[list[int], Callable[[Rect, int, int], tuple[int, ...]], tuple[bool, ...]]]:
    """Every run :func:`pack` tries over ``items`` (indices into ``sizes``): each sort order
    (the items so sorted) × heuristic × orientation rule."""
    for sort in SORTS.values():
        order = sorted(items, key=lambda k: sort(sizes[k]))
        for heuristic in HEURISTICS.values():
            for turns in TURNS.values():
                yield order, heuristic, turns


def pack(sizes: list[tuple[int, int]], bin_size: tuple[int, int]) -> list[Spot]:
    """Where each of ``sizes`` (w, h) goes in bins of ``bin_size``, in the given order; every
    rectangle must fit a bin in some orientation (the caller checks)."""
    bound = area_bound(sizes, bin_size)
    best: list[Spot] | None = None
    best_bins = 0
    for order, heuristic, turns in _variants(sizes, list(range(len(sizes)))):
        spots = _run(sizes, order, bin_size, heuristic, turns)
        if spots is None:
            continue
        bins = max(spot[0] for spot in spots) + 1 if spots else 0
        if best is None or bins < best_bins:
            best, best_bins = spots, bins
        if best_bins <= bound:
            return best
    if best is None:
        raise InternalError("no packing: a rectangle larger than the bin in both orientations")
    return best


def pack_in_turn(sizes: list[tuple[int, int]], bin_size: tuple[int, int]) -> list[Spot]:
    """Where each of ``sizes`` goes (as :func:`pack`), bins filled in turn: each with the run
    (every sort order × heuristic × orientation rule over the rectangles left) that puts the
    most area in it (ties: the first run); every rectangle must fit a bin in some orientation."""
    left = list(range(len(sizes)))
    spots: list[Spot | None] = [None] * len(sizes)
    index = 0
    while left:
        best: dict[int, Spot] = {}
        best_area = -1
        for order, heuristic, turns in _variants(sizes, left):
            placed = _fill(sizes, order, bin_size, heuristic, turns, index)
            area = sum(sizes[k][0] * sizes[k][1] for k in placed)
            if area > best_area:
                best, best_area = placed, area
        if not best:
            raise InternalError("no packing: a rectangle larger than the bin in both orientations")
        for k, spot in best.items():
            spots[k] = spot
        left = [k for k in left if k not in best]
        index += 1
    return [spot for spot in spots if spot is not None]


def _fill(
    sizes: list[tuple[int, int]],
    order: list[int],
    bin_size: tuple[int, int],
    heuristic: Callable[[Rect, int, int], tuple[int, ...]],
    turns: tuple[bool, ...],
    index: int,
) -> dict[int, Spot]:
    """One MaxRects run into the single bin ``index``: the rectangles it takes, in ``order``."""
    width, height = bin_size
    room = _Bin(free=[(0, 0, width, height)], largest=width * height)
    placed: dict[int, Spot] = {}
    for k in order:
        w, h = sizes[k]
        spot = _put(room, [(h, w, True) if turn else (w, h, False) for turn in turns], heuristic)
        if spot is not None:
            placed[k] = (index, *spot)
    return placed


def line_bound(sizes: list[tuple[int, int]], bin_size: tuple[int, int]) -> int:
    """Fewest bins the rectangles need, a lower bound at least :func:`area_bound`: a line across
    a bin meets rectangles whose sides along it (either orientation) add up to at most the
    largest such sum that fits the bin's side (:func:`_longest_row`), so a bin holds no more area
    than that sum times its other side."""
    if not sizes:
        return 0
    sides = {side for size in sizes for side in size}
    width, height = bin_size
    holds = min(_longest_row(sides, width) * height, width * _longest_row(sides, height))
    total = sum(w * h for w, h in sizes)
    return max(area_bound(sizes, bin_size), -(-total // holds) if holds else len(sizes))


def _longest_row(sides: set[int], length: int) -> int:
    """The largest sum of ``sides`` (each any number of times) at most ``length`` (a bit set of
    the sums reached, in units of the sides' common divisor)."""
    unit = math.gcd(*sides)
    top = length // unit
    mask = (1 << (top + 1)) - 1
    reached = 1
    for side in sorted(sides):
        step = side // unit
        while step <= top:  # adds 0..2^k - 1 copies of the side, doubling
            reached = (reached | reached << step) & mask
            step *= 2
    return (reached.bit_length() - 1) * unit


def _run(
    sizes: list[tuple[int, int]],
    order: list[int],
    bin_size: tuple[int, int],
    heuristic: Callable[[Rect, int, int], tuple[int, ...]],
    turns: tuple[bool, ...],
) -> list[Spot] | None:
    """One MaxRects run; None when a rectangle fits no bin in the allowed orientations."""
    width, height = bin_size
    bins: list[_Bin] = []
    spots: list[Spot | None] = [None] * len(sizes)
    for k in order:
        w, h = sizes[k]
        shapes = [(h, w, True) if turn else (w, h, False) for turn in turns]
        if not any(a <= width and b <= height for a, b, _ in shapes):
            return None
        for index, room in enumerate([*bins, None]):
            if room is None:  # a new bin: its one free rectangle is the whole bin
                room = _Bin(free=[(0, 0, width, height)], largest=width * height)
                bins.append(room)
            spot = _put(room, shapes, heuristic)
            if spot is not None:
                spots[k] = (index, *spot)
                break
    return [spot for spot in spots if spot is not None]


def _put(
    room: _Bin, shapes: list[tuple[int, int, bool]], heuristic: Callable[[Rect, int, int], tuple[int, ...]]
) -> tuple[int, int, bool] | None:
    """Place a rectangle (its allowed ``shapes``) in ``room`` where the heuristic chooses:
    (x, y, turned), or None when it does not fit."""
    a, b, _ = shapes[0]
    if room.largest < a * b:
        return None
    choice = _choose(room.free, shapes, heuristic)
    if choice is None:
        return None
    x, y, a, b, turned = choice
    _place(room, (x, y, a, b))
    return x, y, turned


def _choose(
    free: list[Rect], shapes: list[tuple[int, int, bool]], heuristic: Callable[[Rect, int, int], tuple[int, ...]]
) -> tuple[int, int, int, int, bool] | None:
    """The best (x, y, w, h, turned) over every free rectangle and allowed orientation."""
    best = None
    best_score: tuple[int, ...] = ()
    for rect in free:
        for a, b, turned in shapes:
            if a <= rect[2] and b <= rect[3]:
                score = heuristic(rect, a, b)
                if best is None or score < best_score:
                    best, best_score = (rect[0], rect[1], a, b, turned), score
    return best


def _place(room: _Bin, used: Rect) -> None:
    """Split the free rectangles around ``used`` and keep the maximal ones."""
    x, y, w, h = used
    kept: list[Rect] = []
    for fx, fy, fw, fh in room.free:
        if x >= fx + fw or x + w <= fx or y >= fy + fh or y + h <= fy:
            kept.append((fx, fy, fw, fh))
            continue
        if x > fx:
            kept.append((fx, fy, x - fx, fh))
        if x + w < fx + fw:
            kept.append((x + w, fy, fx + fw - x - w, fh))
        if y > fy:
            kept.append((fx, fy, fw, y - fy))
        if y + h < fy + fh:
            kept.append((fx, y + h, fw, fy + fh - y - h))
    kept = sorted(set(kept), key=lambda r: (-r[2] * r[3], r))
    room.free = [r for k, r in enumerate(kept) if not any(_inside(r, other) for other in kept[:k])]
    room.largest = max((r[2] * r[3] for r in room.free), default=0)


def _inside(inner: Rect, outer: Rect) -> bool:
    return (
        inner[0] >= outer[0]
        and inner[1] >= outer[1]
        and inner[0] + inner[2] <= outer[0] + outer[2]
        and inner[1] + inner[3] <= outer[1] + outer[3]
    )


def staggered_rows(count: int, size: int, bin_size: tuple[int, int]) -> list[Spot]:
    """Where ``count`` equal discs go, each in a ``size`` × ``size`` box (its diameter and the
    spacing), ``size`` apart centre to centre: rows along the bin's longer side, every other
    row shifted and the rows ``√(size² − shift²)`` apart (so discs of neighbouring rows stay
    ``size`` apart); a bin's rows filled in turn, bins as needed. The shift that seats most:
    half a box (alternate rows hold one disc less when the row has no room for the shift), the
    room a full row leaves (every row as full, the rows further apart) or none (a grid). Spots
    as :func:`pack`."""
    width, height = bin_size
    along_x = width >= height
    long_side, short_side = (width, height) if along_x else (height, width)
    seats = max(
        (_seats(size, shift, long_side, short_side) for shift in (size // 2, (long_side - size) % size, 0)),
        key=len,
    )
    if not seats:
        raise InternalError("no disc fits the bin")
    spots: list[Spot] = []
    for index in range(count):
        along, across = seats[index % len(seats)]
        x, y = (along, across) if along_x else (across, along)
        spots.append((index // len(seats), x, y, False))
    return spots


def _seats(size: int, shift: int, long_side: int, short_side: int) -> list[tuple[int, int]]:
    """The (along, across) box corners in one bin of rows shifted by ``shift`` (≤ size / 2;
    none beyond) every other row."""
    if 2 * shift > size:
        return []
    pitch = math.isqrt(size * size - shift * shift - 1) + 1  # rounded up: never closer than size
    seats: list[tuple[int, int]] = []
    for row in range((short_side - size) // pitch + 1 if short_side >= size else 0):
        offset = shift if row % 2 else 0
        seats.extend((offset + k * size, row * pitch) for k in range((long_side - offset - size) // size + 1))
    return seats
