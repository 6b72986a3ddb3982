"""Ball kits assembled from the written sheet files, as a person with the cut parts would: parts
found by their outlines, read by their engraved text (matched against matplotlib's own text
layout, :func:`labelcheck.oracle_ink`), turned upright, stacked and checked. No laby3d code.

A part is an outer-cut ring with the inner-cut rings and the engraved ink (fill rings, even-odd)
inside it. Turning it upright is one of the 8 symmetries of its box (quarter turns, flips); the
one where its text reads best is kept (long text before short, straight before mirrored).
"""

from __future__ import annotations

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
