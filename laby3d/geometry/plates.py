"""Solids onto printer plates, shared among printers so that the class prints soonest, mm.

Steps: a footprint is the solid's outer size plus ``spacing`` (the room between two solids);
the bed keeps ``skirt_room`` free on every side (the slicer's skirt or brim goes around all the
solids of a plate at once) and grows by ``spacing`` (a solid on the edge needs none beyond it).

1. :func:`laby3d.geometry.packing.pack` places the footprints in whole µm, quarter turns allowed,
   on the fewest plates it finds;
2. with several printers, fewer plates is not sooner: plates of 8 and 1 keep one printer busy
   eight times as long as the other. Each count of plates from the fewest up to the fewest +
   printers − 1 is tried: the solids split into that many groups, heaviest first to the lightest
   group (a piece's weight is its print time, or its area), each group packed alone and kept
   when it fits one plate; the plates are then shared among the printers the same way
   (:func:`share`). The arrangement whose busiest printer finishes first wins, then the one with
   fewer plates (so with one printer, the fewest plates); its plates are numbered printer by
   printer;
3. each plate's solids are centred on the bed as a group, as a slicer's own arrange does.

With a ``cap`` (the most load a plate may carry: a timetable slot's print time), the plates are
the fewest whose loads stay within it instead: the pieces, heaviest first, each to the first plate
that still has the time and the room for it (first fit decreasing, each plate packed again), a
piece heavier than the cap alone on a plate of its own; the plates are then shared as above.

A solid that fits no empty bed, turned or not, is left out. Coordinates are the bed's
(PrusaSlicer's: origin at the front-left corner, x right, y back), and a turn is a quarter turn
counter-clockwise seen from above (never a mirror: text reads).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from laby3d.geometry.packing import MICROMETRES, area_bound, micrometres, pack


@dataclass(frozen=True, kw_only=True)
class Piece:
    """A solid to place: its name (what the plan calls it), outer width (x) and depth (y), mm,
    and its weight when plates are shared (its print time, s; None: its area, mm²)."""

    name: str
    size: tuple[float, float]
    weight: float | None = None

    @property
    def load(self) -> float:
        """Its weight, or its area."""
        return self.weight if self.weight is not None else self.size[0] * self.size[1]


@dataclass(frozen=True, kw_only=True)
class Spot:
    """Where a piece lies on its plate: the front-left corner (x, y) of its box on the bed, mm,
    and whether it is turned a quarter turn."""

    piece: Piece
    index: int  # the piece's place in the list given to :func:`arrange`
    x: float
    y: float
    turned: bool

    @property
    def box(self) -> tuple[float, float, float, float]:
        """x0, y0, x1, y1 of the piece on the bed, mm."""
        width, depth = self.piece.size[::-1] if self.turned else self.piece.size
        return self.x, self.y, self.x + width, self.y + depth

    def transform(self) -> tuple[float, ...]:
        """The affine map taking the solid, whose box is [0, width] × [0, depth], to its spot: a
        translation, or a quarter turn (x, y) → (−y, x) and a translation; as 3MF writes one (12
        numbers, a point being a row vector times the matrix)."""
        if self.turned:
            return (0.0, 1.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0, self.x + self.piece.size[1], self.y, 0.0)
        return (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, self.x, self.y, 0.0)


@dataclass(frozen=True, kw_only=True)
class Arrangement:
    """Plates (each a list of spots, in the pieces' order; the first printer's plates first), the
    printer (0-based) of each plate, the pieces no empty plate holds (their indices), the fewest
    plates the packer found, and the fewest the footprints' total area allows (no arrangement
    uses fewer)."""

    plates: list[list[Spot]]
    printers: list[int]
    left_out: list[int]
    fewest: int
    area_bound: int
    over_cap: list[int] = field(default_factory=list)  # pieces heavier than the cap, each on a plate alone


#: A plate while arranging: (piece index, x, y, turned) per piece, packing units.
_Plate = list[tuple[int, int, int, bool]]


def arrange(
    pieces: list[Piece],
    bed: tuple[float, float],
    *,
    skirt_room: float,
    spacing: float,
    printers: int = 1,
    cap: float | None = None,
) -> Arrangement:
    """Every piece on plates of ``bed`` (width, depth) mm keeping ``skirt_room`` mm free along
    every edge and ``spacing`` mm between pieces, for ``printers`` printers, each plate's load
    within ``cap`` when given (pieces' weights, s); deterministic."""
    room = _room(bed, skirt_room, spacing)
    sizes: dict[int, tuple[int, int]] = {}
    left_out: list[int] = []
    for index, piece in enumerate(pieces):
        w, h = _footprint(piece.size, spacing)
        if _holds(room, (w, h)):
            sizes[index] = (w, h)
        else:
            left_out.append(index)
    if not sizes:
        return Arrangement(plates=[], printers=[], left_out=left_out, fewest=0, area_bound=0)
    packed = _grouped(list(sizes), pack(list(sizes.values()), room))
    loads = {index: pieces[index].load for index in sizes}
    best, finish = packed, _finish(packed, loads, printers)
    if cap is not None:
        best = _capped(loads, cap, sizes, room)
    balancing = printers > 1 and cap is None  # a slot's plates are the fewest that fit it
    for count in range(len(packed), min(len(sizes), len(packed) + printers - 1) + 1) if balancing else ():
        split = _split(loads, count, sizes, room)
        if split is not None and _finish(split, loads, printers) < finish - 1e-9:
            best, finish = split, _finish(split, loads, printers)
    printer_of = share([sum(loads[k] for k, *_ in plate) for plate in best], printers)
    order = sorted(range(len(best)), key=lambda p: (printer_of[p], p))  # printer 1's plates first
    return Arrangement(
        plates=[_spots(best[p], pieces, bed) for p in order],
        printers=[printer_of[p] for p in order],
        left_out=left_out,
        fewest=len(packed),
        area_bound=area_bound(list(sizes.values()), room),
        over_cap=[] if cap is None else sorted(k for k in sizes if loads[k] > cap),
    )


def holds(size: tuple[float, float], bed: tuple[float, float], *, skirt_room: float, spacing: float) -> bool:
    """Whether an empty plate of ``bed`` (width, depth) mm holds a piece of ``size`` mm, turned or
    not, as :func:`arrange` decides it (a piece it does not hold is left out)."""
    return _holds(_room(bed, skirt_room, spacing), _footprint(size, spacing))


def _room(bed: tuple[float, float], skirt_room: float, spacing: float) -> tuple[int, int]:
    """The room pieces' footprints share on a plate, packing units: the bed less the skirt room
    on every side, plus one spacing (a piece on the edge needs none beyond it)."""
    return (
        micrometres(bed[0] - 2 * skirt_room + spacing, down=True),
        micrometres(bed[1] - 2 * skirt_room + spacing, down=True),
    )


def _footprint(size: tuple[float, float], spacing: float) -> tuple[int, int]:
    """A piece's footprint, packing units: its size plus the spacing."""
    return micrometres(size[0] + spacing), micrometres(size[1] + spacing)


def _holds(room: tuple[int, int], footprint: tuple[int, int]) -> bool:
    w, h = footprint
    return (w <= room[0] and h <= room[1]) or (h <= room[0] and w <= room[1])


def _spots(plate: _Plate, pieces: list[Piece], bed: tuple[float, float]) -> list[Spot]:
    """A plate's pieces in mm, in the pieces' order, centred on the bed."""
    spots = [
        Spot(piece=pieces[k], index=k, x=x / MICROMETRES, y=y / MICROMETRES, turned=turned) for k, x, y, turned in plate
    ]
    return _centred(sorted(spots, key=lambda spot: spot.index), bed)


def _grouped(indices: list[int], spots: list[tuple[int, int, int, bool]]) -> list[_Plate]:
    """The packer's spots (bin, x, y, turned) of ``indices`` as plates."""
    plates: list[_Plate] = [[] for _ in range(max(spot[0] for spot in spots) + 1)]
    for index, (plate, x, y, turned) in zip(indices, spots, strict=True):
        plates[plate].append((index, x, y, turned))
    return plates


def _split(
    loads: dict[int, float], count: int, sizes: dict[int, tuple[int, int]], room: tuple[int, int]
) -> list[_Plate] | None:
    """The pieces split into ``count`` groups of even load (heaviest first to the lightest), each
    packed on one plate; None when a group does not fit one."""
    indices = list(loads)
    groups = share([loads[k] for k in indices], count)
    plates = []
    for group in range(count):
        members = [k for k, g in zip(indices, groups, strict=True) if g == group]
        spots = pack([sizes[k] for k in members], room)
        if any(spot[0] != 0 for spot in spots):
            return None
        plates.append([(k, x, y, turned) for k, (_, x, y, turned) in zip(members, spots, strict=True)])
    return plates


def _capped(
    loads: dict[int, float], cap: float, sizes: dict[int, tuple[int, int]], room: tuple[int, int]
) -> list[_Plate]:
    """The pieces on plates of at most ``cap`` load each: heaviest first (then the first listed)
    to the first plate with the time and the room left (first fit decreasing), a new plate
    otherwise; a piece over the cap goes alone."""
    groups: list[list[int]] = []
    totals: list[float] = []
    placed: list[_Plate] = []
    for k in sorted(loads, key=lambda k: (-loads[k], k)):
        for g, members in enumerate(groups):
            if totals[g] + loads[k] > cap:
                continue
            spots = pack([sizes[m] for m in [*members, k]], room)
            if all(spot[0] == 0 for spot in spots):
                members.append(k)
                totals[g] += loads[k]
                placed[g] = [(m, x, y, turned) for m, (_, x, y, turned) in zip(members, spots, strict=True)]
                break
        else:
            groups.append([k])
            totals.append(loads[k])
            (_, x, y, turned), *_ = pack([sizes[k]], room)
            placed.append([(k, x, y, turned)])
    return placed


def _finish(plates: list[_Plate], loads: dict[int, float], printers: int) -> float:
    """When the busiest printer finishes (in load units) with the plates shared longest first."""
    weights = [sum(loads[k] for k, *_ in plate) for plate in plates]
    busy = [0.0] * printers
    for weight, printer in zip(weights, share(weights, printers), strict=True):
        busy[printer] += weight
    return max(busy)


def share(weights: list[float], bins: int) -> list[int]:
    """The bin (0-based) of each weight: the heaviest first (then the first listed) to the least
    loaded bin (then the first): longest processing time first, deterministic."""
    loads = [0.0] * bins
    assigned = [0] * len(weights)
    for item in sorted(range(len(weights)), key=lambda k: (-weights[k], k)):
        chosen = min(range(bins), key=lambda b: (loads[b], b))
        assigned[item] = chosen
        loads[chosen] += weights[item]
    return assigned


def _centred(spots: list[Spot], bed: tuple[float, float]) -> list[Spot]:
    """The spots moved together so that their bounding box sits in the middle of the bed (0.001 mm
    steps)."""
    boxes = [spot.box for spot in spots]
    low_x, low_y = min(b[0] for b in boxes), min(b[1] for b in boxes)
    high_x, high_y = max(b[2] for b in boxes), max(b[3] for b in boxes)
    dx = round((bed[0] - (high_x - low_x)) / 2 - low_x, 3)
    dy = round((bed[1] - (high_y - low_y)) / 2 - low_y, 3)
    return [
        Spot(piece=s.piece, index=s.index, x=round(s.x + dx, 3), y=round(s.y + dy, 3), turned=s.turned) for s in spots
    ]
