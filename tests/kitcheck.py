"""Ball kits assembled from the written sheet files, as a person with the cut parts would: parts
found by their outlines, read by their engraved text (matched against matplotlib's own text
layout, :func:`labelcheck.oracle_ink`), turned upright, stacked and checked. No laby3d code.

A part is an outer-cut ring with the inner-cut rings and the engraved ink (fill rings, even-odd)
inside it. Turning it upright is one of the 8 symmetries of its box (quarter turns, flips); the
one where its text reads best is kept (long text before short, straight before mirrored).

Kits of other shapes (theta discs, hex and triangle boards) are read the same way; a disc is
keyed by the one asymmetric notch in its rim (:func:`disc_keyed`), and the ball's path is also
checked on a raster, by a flood fill (:func:`ball_rolls_through`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np
import shapely
from labelcheck import oracle_ink
from svgcheck import parse_svg

#: Ink pieces closer than this (mm) belong to one line of text, gaps along the line counted
#: :data:`SQUEEZE` times shorter (the spaces between words) and across it as they are.
WORD_GAP = 2.0
SQUEEZE = (4.0, 1.0)
#: A text matches a candidate when their ink overlaps by this share (intersection over union).
MATCH = 0.75


@dataclass(kw_only=True)
class Reading:
    """A line of engraved text: what it reads, its capitals' height (mm), its ink (upright)."""

    text: str
    cap_height: float
    ink: shapely.Geometry
    score: float
    mirrored: bool = False  # reads from the other face of the sheet


@dataclass(kw_only=True)
class Piece:
    """A cut part, upright, its box's lower-left corner at (0, 0), y up, mm."""

    material: str  # file name stem, e.g. plywood-3mm
    outline: shapely.Polygon  # outer cut, without its holes
    holes: list[shapely.Polygon]
    ink: shapely.Geometry
    readings: list[Reading] = field(default_factory=list)

    @property
    def material_left(self) -> shapely.Geometry:
        """What remains of the sheet: the outline minus its holes."""
        return self.outline.difference(shapely.union_all(self.holes)) if self.holes else self.outline


def read_pieces(files: dict[str, bytes], candidates: list[str]) -> list[Piece]:
    """Every part of every sheet file (not the overview), upright and read."""
    pieces = []
    for name, data in sorted(files.items()):
        if not name.endswith(".svg") or name.startswith("overview"):
            continue
        page = parse_svg(data)
        flip = np.array([1.0, -1.0])  # page y down -> y up
        outers = [shapely.Polygon(p * flip) for p, _ in page["layers"].get("outer-cut", [])]
        inners = [shapely.Polygon(p * flip) for p, _ in page["layers"].get("inner-cut", [])]
        fills = [shapely.Polygon(p * flip) for p, _ in page["layers"].get("engrave-fill", [])]
        for outer in outers:
            holes = [h for h in inners if outer.contains(h.representative_point())]
            marks = [f for f in fills if outer.contains(f.representative_point())]
            ink = shapely.Polygon()
            for mark in marks:  # even-odd, as a laser fills
                ink = ink.symmetric_difference(mark.buffer(0))
            pieces.append(_upright(name.rsplit("-", 1)[0], outer, holes, ink, candidates))
    return pieces


def _symmetries(box: tuple[float, float, float, float]) -> list[list[float]]:
    """The 8 maps (shapely affine [a, b, d, e, x, y]) of the box onto a box at the origin."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    maps = []
    for a, b, d, e in [(1, 0, 0, 1), (-1, 0, 0, 1), (1, 0, 0, -1), (-1, 0, 0, -1)]:
        maps.append([a, b, d, e, -x0 if a > 0 else x1, -y0 if e > 0 else y1])
    for a, b, d, e in [(0, 1, 1, 0), (0, -1, 1, 0), (0, 1, -1, 0), (0, -1, -1, 0)]:
        maps.append([a, b, d, e, -y0 if b > 0 else y1, -x0 if d > 0 else x1])
    assert len(maps) == 8 and w > 0 and h > 0
    return maps


def _upright(material: str, outer, holes, ink, candidates: list[str]) -> Piece:
    best: Piece | None = None
    best_score = -1.0
    for matrix in _symmetries(outer.bounds):
        moved = shapely.affinity.affine_transform(ink, matrix)
        readings = read_text(moved, candidates)  # long text read straight wins over short or mirrored
        score = sum(r.score * len(r.text) * (0.5 if r.mirrored else 1.0) for r in readings)
        if score > best_score:
            best_score = score
            best = Piece(
                material=material,
                outline=shapely.affinity.affine_transform(outer, matrix),
                holes=[shapely.affinity.affine_transform(h, matrix) for h in holes],
                ink=moved,
                readings=readings,
            )
    assert best is not None
    return best


@cache
def _unit_ink(text: str) -> shapely.Geometry:
    return oracle_ink(text, 1.0)


@cache
def _cap_per_em() -> float:
    x0, y0, x1, y1 = oracle_ink("H", 1.0).bounds
    return y1 - y0


def read_text(ink: shapely.Geometry, candidates: list[str], *, squeeze: tuple[float, float] = SQUEEZE) -> list[Reading]:
    """Each line of ``ink`` (pieces within :data:`WORD_GAP`, see :data:`SQUEEZE`) read as the candidate whose
    oracle ink, scaled to the same height, overlaps it best (unread lines score 0)."""
    if ink.is_empty:
        return []
    along, across = squeeze
    squeezed = shapely.affinity.scale(ink, 1 / along, 1 / across, origin=(0, 0))  # words of a line join
    lines = shapely.get_parts(shapely.union_all(squeezed.buffer(WORD_GAP / 2)))
    readings = []
    for line in lines:
        own = ink.intersection(shapely.affinity.scale(line, along, across, origin=(0, 0)))
        x0, y0, x1, y1 = own.bounds
        shape = shapely.affinity.translate(own, -x0, -y0)
        best = Reading(text="", cap_height=0.0, ink=own, score=0.0)
        for text in candidates:
            unit = _unit_ink(text)
            ux0, uy0, ux1, uy1 = unit.bounds
            if abs((x1 - x0) / (y1 - y0) - (ux1 - ux0) / (uy1 - uy0)) > 0.15 * (ux1 - ux0) / (uy1 - uy0):
                continue  # not even the shape of its box
            size = (y1 - y0) / (uy1 - uy0)
            for mirrored in (False, True):
                oracle = shapely.affinity.scale(unit, -size if mirrored else size, size, origin=(0, 0))
                oracle = shapely.affinity.translate(oracle, -oracle.bounds[0], 0.0)
                union = oracle.union(shape).area
                score = oracle.intersection(shape).area / union if union else 0.0
                if score > best.score:
                    cap = size * _cap_per_em()
                    best = Reading(text=text, cap_height=cap, ink=own, score=score, mirrored=mirrored)
        readings.append(best if best.score >= MATCH else Reading(text="?", cap_height=0.0, ink=own, score=0.0))
    return readings


@dataclass(kw_only=True)
class Assembly:
    """One pupil's kit, stacked: base, wall sheets, top (when cut)."""

    name: str
    base: Piece
    walls: list[Piece]
    top: Piece | None


def assemble(pieces: list[Piece], names: list[str], *, top_material: str = "acrylic") -> dict[str, Assembly]:
    """Sort the parts by the name each reads; per pupil, the plywood part without corridors is
    the base, the others wall sheets, the ``top_material`` part the top."""
    kits: dict[str, list[Piece]] = {name: [] for name in names}
    for piece in pieces:
        read = [r.text for r in piece.readings if r.text in names]
        assert len(read) == 1, f"one name per part, read {[r.text for r in piece.readings]}"
        kits[read[0]].append(piece)
    result = {}
    for name, own in kits.items():
        tops = [p for p in own if p.material.startswith(top_material)]
        rest = [p for p in own if not p.material.startswith(top_material)]
        bases = [p for p in rest if sum(h.area for h in p.holes) < 0.05 * p.outline.area]
        assert len(bases) == 1 and len(tops) <= 1, name
        walls = [p for p in rest if p is not bases[0]]
        result[name] = Assembly(name=name, base=bases[0], walls=walls, top=tops[0] if tops else None)
    return result


def ink_to_outer_cut(piece: Piece) -> float:
    """The least distance from the part's engraved ink to its outer cut, mm (inf without ink)."""
    return math.inf if piece.ink.is_empty else float(piece.outline.exterior.distance(piece.ink))


def keyed(piece: Piece) -> bool:
    """No turn or flip but the identity maps the part's outline (holes included) onto itself."""
    shape = piece.material_left
    same = 0
    for matrix in _symmetries(shape.bounds):
        if shapely.affinity.affine_transform(shape, matrix).symmetric_difference(shape).area < 1e-3:
            same += 1
    return same == 1


def ball_path_open(kit: Assembly, ball: float, kerf: float) -> bool:
    """A ball of ``ball`` mm rolls from the top's first hole to its second through the corridors
    every wall sheet leaves open (holes grown back by half the kerf they were drawn for)."""
    assert kit.top is not None
    corridors = None
    for wall in kit.walls:
        open_ = shapely.union_all(wall.holes).buffer(kerf / 2, join_style="mitre")
        corridors = open_ if corridors is None else corridors.intersection(open_)
    assert corridors is not None
    ends = sorted(kit.top.holes, key=lambda h: -h.area)[:2]
    free = corridors.buffer(-ball / 2)
    pieces = shapely.get_parts(free)
    for piece in pieces:
        if all(piece.contains(end.centroid) for end in ends):
            return all(corridors.buffer(1e-6).contains(end) for end in ends)
    return False


def folder_files(folder: Path) -> dict[str, bytes]:
    """The sheet files of a folder, by name."""
    return {path.name: path.read_bytes() for path in folder.iterdir() if path.suffix == ".svg"}


def round_outline(piece: Piece) -> bool:
    """Whether the part is a disc (a theta kit's): its outline fills π/4 of its box."""
    x0, y0, x1, y1 = piece.outline.bounds
    return abs(piece.outline.area / ((x1 - x0) * (y1 - y0)) - math.pi / 4) < 0.02


def disc_keyed(piece: Piece) -> bool:
    """A disc that stacks one way round only: its outline's points lie on one circle (fitted by
    least squares) but for one run of points further in, the notch, and that notch (the run and
    its neighbours on the rim) is not its own mirror image about the radius through its deepest
    point, so neither a turn nor a flip of the disc brings the notch back."""
    points = np.asarray(piece.outline.exterior.coords)[:-1]
    inside = np.zeros(len(points), dtype=bool)
    for _ in range(3):  # the circle through the rim's points, the notch's left out
        x, y = points[~inside].T
        a, b, _c = np.linalg.lstsq(np.column_stack([x, y, np.ones_like(x)]), x * x + y * y, rcond=None)[0]
        centre = np.array([a / 2, b / 2])
        distance = np.hypot(*(points - centre).T)
        radius = float(np.median(distance))
        sagitta = radius * (1 - math.cos(math.pi / len(points)))  # a chord's middle lies this far in
        inside = distance < radius - 2 * sagitta - 0.01
    starts = np.flatnonzero(inside & ~np.roll(inside, 1))
    if len(starts) != 1:
        return False
    run = [int(starts[0])]
    while inside[(run[-1] + 1) % len(points)]:
        run.append((run[-1] + 1) % len(points))
    notch = shapely.Polygon(points[[(run[0] - 1) % len(points), *run, (run[-1] + 1) % len(points)]])
    deepest = points[run[int(np.argmin(distance[run]))]] - centre
    a, b = deepest / np.hypot(*deepest)
    mirror = [a * a - b * b, 2 * a * b, 2 * a * b, b * b - a * a, 0.0, 0.0]  # about the radius through it
    mirrored = shapely.affinity.translate(
        shapely.affinity.affine_transform(shapely.affinity.translate(notch, *-centre), mirror), *centre
    )
    return notch.area > 0 and mirrored.symmetric_difference(notch).area > 0.3 * notch.area


def ball_rolls_through(kit: Assembly, ball: float, kerf: float, *, pixel: float = 0.2) -> bool:
    """Raster check of the ball's path, independent of shapely's geometry: each wall sheet's holes
    filled into a mask (PIL), the masks ANDed (room the ball has on every layer), the pixels at
    least half the ball (less half the kerf each cut adds back) from any material kept
    (distance transform), and one 4-connected region (flood fill) holding the centres of the
    top's two largest holes."""
    from PIL import Image, ImageDraw
    from scipy import ndimage

    assert kit.top is not None
    x0, y0, x1, y1 = kit.base.outline.bounds
    size = (int(math.ceil((x1 - x0) / pixel)) + 2, int(math.ceil((y1 - y0) / pixel)) + 2)

    def pixels(points: np.ndarray) -> list[tuple[float, float]]:
        return [((x - x0) / pixel + 1, (y1 - y) / pixel + 1) for x, y in points]

    room = np.ones(size[::-1], dtype=bool)
    for wall in kit.walls:
        image = Image.new("1", size, 0)
        draw = ImageDraw.Draw(image)
        for hole in wall.holes:
            draw.polygon(pixels(np.asarray(hole.exterior.coords)), fill=1)
        room &= np.asarray(image, dtype=bool)
    clearance = ndimage.distance_transform_edt(room) * pixel
    free = clearance >= ball / 2 - kerf / 2
    regions, _ = ndimage.label(free)
    ends = sorted(kit.top.holes, key=lambda h: -h.area)[:2]
    labels = set()
    for end in ends:
        ((u, v),) = pixels(np.asarray(end.centroid.coords))
        labels.add(int(regions[int(v), int(u)]))
    return len(labels) == 1 and 0 not in labels


def thinnest_material(piece: Piece, width: float) -> float:
    """The largest piece of the part's material that vanishes when the material is opened by a
    disc of diameter ``width`` mm (shrunk and grown back by ``width / 2``), mm²: small corner
    slivers where the material is at least ``width`` wide everywhere, a long strip where a neck
    is thinner."""
    material = piece.material_left
    opened = material.buffer(-width / 2 + 1e-6, 32).buffer(width / 2 - 1e-6, 32)
    lost = material.difference(opened)
    return max((g.area for g in shapely.get_parts(lost)), default=0.0)
