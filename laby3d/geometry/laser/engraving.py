"""What a ball kit engraves and where, mm, y up: its orientation key, layer numbers, and either
the kit label or a pupil's name tag, never both on one part.

Everything depends on the plate alone (size, frame band, dowel holes), never on the maze, so
:meth:`.LaserOptions.check` plans the same text before any maze exists. Text goes in the frame
band, where no layer has a hole (ball holes sit over corridors, dowel holes are avoided), or
mirrored under the base; it is legible (capitals of at least :data:`MIN_CAP_HEIGHT`) or moved
with a warning (the label), left off with a warning (layer numbers, wall sheets being alike) or
refused (a name tag: a wall sheet has nowhere else to carry it).

Steps: (1) the key: a notch cut off the plate's top-left corner of every layer, a right
triangle with legs :func:`notch_size` along the top edge and half that down the left edge (no
turn nor flip of the plate maps it onto itself), and with dowels the top-left hole moved along
the top band (only one way round lines every hole up); (2) layer numbers, bottom up, in the
top band right of the key; (3) the label in the bottom band of the top (else the uppermost wall
sheet), else mirrored under the base; a class set's name tag in the bottom band of every part
instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from laby3d.errors import ParameterError
from laby3d.geometry.text import text_outlines

#: Smallest capital height engraved, mm (smaller is not read on plywood).
MIN_CAP_HEIGHT = 2.5
#: Free material around engraved text, mm.
CLEARANCE = 0.5
#: Largest leg of the orientation notch (along the top edge; half as much down the side), mm.
NOTCH = 5.0
#: Capital heights wanted for layer numbers and name tags, mm (less when the band is narrower).
NUMBER_HEIGHT = 4.0
TAG_HEIGHT = 4.0
#: The widest seed a label can carry (19 digits, every digit as wide in DejaVu Sans).
WIDEST_SEED = 9_999_999_999_999_999_999
UNDERSIDE = "base, underside (mirrored)"

Box = tuple[float, float, float, float]


@dataclass(frozen=True, kw_only=True)
class Frame:
    """A kit's plate (y up) and where text may go, mm: ``band`` is the frame beyond the border
    walls, ``notch`` the key's leg along the top edge from the top-left corner, ``holes`` the
    dowel centres."""

    width: float
    depth: float
    band: float  # margin + wall
    wall: float
    notch: float
    holes: tuple[tuple[float, float], ...] = ()
    hole: float = 0.0  # dowel diameter

    def bottom_band(self) -> Box:
        """The bottom frame band between the corner dowel holes."""
        beside = self.band / 2 + self.hole / 2 if self.holes else 0.0
        return beside, 0.0, self.width - beside, self.band

    def top_band(self) -> Box:
        """The top frame band right of the key (notch and moved dowel hole)."""
        left = self.notch
        if self.holes:
            left = max(left, self.holes[3][0] + self.hole / 2)
        right = self.width - (self.band / 2 + self.hole / 2 if self.holes else 0.0)
        return left, self.depth - self.band, right, self.depth

    def inside(self) -> Box:
        """The plate inside the frame band (under the base: free of holes)."""
        return self.band, self.band, self.width - self.band, self.depth - self.band


def notch_size(band: float, min_wall: float) -> float:
    """The notch's leg along the top edge, mm: :data:`NOTCH`, less where the frame is narrow, so
    at least ``min_wall`` mm of material stays between its cut (the line u + 2 v = leg, u and v
    mm right of and down from the corner) and the corner corridor at (band, band)."""
    return round(min(NOTCH, 3 * band - math.sqrt(5) * min_wall), 6)


def notch(width: float, depth: float, leg: float) -> list[tuple[float, float]]:
    """The notch's corners (y up): ``leg`` mm along the top edge, half as much down the left one."""
    return [(0.0, depth), (leg, depth), (0.0, depth - leg / 2)]


def dowel_centres(width: float, depth: float, band: float, diameter: float, notch: float) -> list[tuple[float, float]]:
    """Alignment hole centres, mm: three frame corners and, moved right along the top band by
    two diameters (and 1 mm clear of the notch), the top-left one; order: bottom-left,
    bottom-right, top-right, top-left. Raises when the top band has no room for the move."""
    inset = band / 2
    clear_of_notch = notch - 2 * inset + (diameter / 2 + 1.0) * math.sqrt(5)
    moved = max(inset + 2 * diameter, clear_of_notch)
    if moved + diameter + 1.0 > width - inset:
        raise ParameterError(
            f"needs a plate at least {moved + diameter + 1.0 + inset:.1f} mm wide to key its holes (one moved along "
            f"the top band), this one is {width:g} mm: a smaller diameter or a larger maze",
            field="registration_holes",
        )
    return [(inset, inset), (width - inset, inset), (width - inset, depth - inset), (moved, depth - inset)]


@dataclass(frozen=True, kw_only=True)
class Text:
    """Text placed on a part: outline rings in mm (y up, already moved), capitals' height, mm."""

    text: str
    rings: list[np.ndarray]
    cap_height: float
    mirrored: bool = False


@dataclass(kw_only=True)
class Engraving:
    """The text of every part by name, where the label went, and what was moved or left off."""

    texts: dict[str, list[Text]] = field(default_factory=dict)
    label_on: str | None = None
    numbers: bool = False
    warnings: list[str] = field(default_factory=list)


def fitted(text: str, box: Box, height: float, *, centred: bool = False) -> Text | None:
    """``text`` as large as ``box`` (with :data:`CLEARANCE` around) allows, capitals at most
    ``height`` mm; left-aligned (or centred) and centred across. None below :data:`MIN_CAP_HEIGHT`."""
    x0, y0, x1, y1 = box
    unit = text_outlines(text, 1.0)  # capitals 1 mm tall; ink box from (0, 0)
    ink_w = max(float(ring[:, 0].max()) for ring in unit)
    ink_h = max(float(ring[:, 1].max()) for ring in unit)
    cap = min(height, (x1 - x0 - 2 * CLEARANCE) / ink_w, (y1 - y0 - 2 * CLEARANCE) / ink_h)
    if cap < MIN_CAP_HEIGHT:
        return None
    x = (x0 + x1 - ink_w * cap) / 2 if centred else x0 + CLEARANCE
    y = (y0 + y1 - ink_h * cap) / 2
    return Text(text=text, rings=[ring * cap + (x, y) for ring in unit], cap_height=cap)


def needed(text: str, height: float) -> tuple[float, float]:
    """Width and height of the box ``text`` needs with capitals ``height`` mm tall, clearance included."""
    unit = text_outlines(text, 1.0)
    ink_w = max(float(ring[:, 0].max()) for ring in unit)
    ink_h = max(float(ring[:, 1].max()) for ring in unit)
    return ink_w * height + 2 * CLEARANCE, ink_h * height + 2 * CLEARANCE


def caption(text: str, seed: int | None) -> str:
    """The kit label: the text and the seed that makes the maze again (when known)."""
    if seed is None:
        return text or "laby3d"
    return f"{text}  ·  seed {seed}" if text else f"laby3d seed {seed}"


def plan(
    frame: Frame, parts: list[str], *, label: str | None, seed: int | None, tag: str | None, label_height: float
) -> Engraving:
    """The text of a kit whose parts are ``parts`` (bottom up: base, wall sheets, top?): layer
    numbers, and the ``label`` (captioned with the ``seed``) or the ``tag`` (a pupil's name) on
    every part. Raises :class:`ParameterError` (field ``label`` or ``tag``) for text that cannot
    be legible."""
    result = Engraving(texts={name: [] for name in parts})
    _numbers(frame, parts, result)
    if tag is not None:
        for name in parts:
            placed = fitted(tag, frame.bottom_band(), TAG_HEIGHT)
            if placed is None:
                raise _too_small(tag, frame, frame.bottom_band(), "a name tag", field="tag")
            result.texts[name].append(placed)
    elif label is not None:
        _label(frame, parts, label, seed, label_height, result)
    return result


def _numbers(frame: Frame, parts: list[str], result: Engraving) -> None:
    widest = str(len(parts))
    if fitted(widest, frame.top_band(), NUMBER_HEIGHT) is None:
        width, height = needed(widest, MIN_CAP_HEIGHT)
        result.warnings.append(
            f"layer numbers left off: the {frame.band:g} mm frame band holds no {MIN_CAP_HEIGHT:g} mm digits "
            f"({height:.1f} mm needed; a margin of {_margin_for(frame, height):g} mm); the corner notch still "
            "keys which way each layer goes"
        )
        return
    result.numbers = True
    for index, name in enumerate(parts, start=1):
        placed = fitted(str(index), frame.top_band(), NUMBER_HEIGHT)
        if placed is not None:
            result.texts[name].append(placed)


def _label(frame: Frame, parts: list[str], text: str, seed: int | None, height: float, result: Engraving) -> None:
    """The caption on the top's bottom band (else the uppermost wall sheet's), else under the
    base; where neither holds it, the text without its seed, likewise."""
    full = caption(text, seed)
    for label in dict.fromkeys([full, text or "laby3d"]):
        if label != full:
            result.warnings.append(f'seed left off the label "{full}": it is not legible anywhere on the plate')
        shown = parts[-1]
        placed = fitted(label, frame.bottom_band(), height)
        if placed is not None:
            result.texts[shown].append(placed)
            result.label_on = shown
            return
        under = fitted(label, frame.inside(), height, centred=True)
        if under is not None:
            _underside(frame, shown, label, under, result)
            return
    raise _too_small(text, frame, frame.inside(), "the label", field="label")


def _underside(frame: Frame, shown: str, label: str, under: Text, result: Engraving) -> None:
    """``under`` mirrored under the base, and why it is not on the ``shown`` part."""
    axis = frame.width / 2
    mirrored = [np.column_stack([2 * axis - ring[:, 0], ring[:, 1]])[::-1] for ring in under.rings]
    result.texts["base"].append(Text(text=label, rings=mirrored, cap_height=under.cap_height, mirrored=True))
    result.label_on = UNDERSIDE
    width, band = needed(label, MIN_CAP_HEIGHT)
    room = frame.bottom_band()
    why = (
        f"the {frame.band:g} mm frame band is narrower than the {band:.1f} mm its capitals need"
        if band > frame.band
        else f"it needs {width:.0f} mm along a {room[2] - room[0]:.0f} mm band"
    )
    result.warnings.append(
        f"label moved under the base (mirrored): on the {shown}, {why} at {MIN_CAP_HEIGHT:g} mm capitals"
        + (f"; a margin of {_margin_for(frame, band):g} mm puts it there" if band > frame.band else "")
    )


def _margin_for(frame: Frame, band: float) -> float:
    """The margin giving a frame band of ``band`` mm (the band is margin + wall), rounded up to 0.5 mm."""
    return math.ceil(2 * max(band - frame.wall, 0.0) - 1e-9) / 2


def _too_small(text: str, frame: Frame, box: Box, what: str, *, field: str) -> ParameterError:
    width, height = needed(text, MIN_CAP_HEIGHT)
    room_w, room_h = box[2] - box[0], box[3] - box[1]
    if height > room_h:
        return ParameterError(
            f'"{text}": {what} needs a frame band of {height:.1f} mm for {MIN_CAP_HEIGHT:g} mm capitals; the band '
            f"is {frame.band:g} mm (margin + wall_thickness): a margin of at least {_margin_for(frame, height):g} mm",
            field=field,
        )
    return ParameterError(
        f'"{text}": {what} needs {width:.0f} mm at {MIN_CAP_HEIGHT:g} mm capitals, the plate has {room_w:.0f} mm: '
        "a shorter text or a larger maze",
        field=field,
    )
