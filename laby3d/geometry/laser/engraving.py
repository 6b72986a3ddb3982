"""What a ball kit engraves and where, mm, y up: layer numbers, and either the kit label or a
pupil's name tag, never both on one part; for a kit of any shape, on its :class:`.frame.Frame`.

Text goes in the frame, where no layer has a hole (ball holes sit over corridors, dowel holes
and the notch are kept clear of), or mirrored under the base. It is legible (capitals of at
least :data:`MIN_CAP_HEIGHT`), at least :data:`EDGE` from the part's outer cut (plywood chars
and splinters along a cut; a name by the edge is the first thing sanding takes) and
:data:`CLEARANCE` from any hole; else moved with a warning (the label), left off with a warning
(layer numbers, wall sheets being alike) or refused (a name tag: a wall sheet has nowhere else
to carry it), naming a margin that holds it (built and tried, not guessed).

Steps: (1) layer numbers, bottom up, along the top of the frame right of the key, all where the
widest one fits; (2) the label along the bottom of the top's frame (else the uppermost wall
sheet's), else mirrored under the base; a class set's name tag along the bottom of every part
instead. Each text is the largest capitals (≤ the height asked) whose box, clearance included,
lies in the frame clear of the edge, the key and the holes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

import numpy as np
import shapely

from laby3d.errors import ParameterError
from laby3d.geometry.text import text_outlines

if TYPE_CHECKING:
    from laby3d.geometry.laser.frame import Frame

#: Smallest capital height engraved, mm (smaller is not read on plywood).
MIN_CAP_HEIGHT = 2.5
#: Free material around engraved text, mm (from a hole, the notch or a corridor).
CLEARANCE = 0.5
#: Least distance from engraved text to the part's outer cut, mm.
EDGE = 1.5
#: Capital heights wanted for layer numbers and name tags, mm (less when the frame is narrower).
NUMBER_HEIGHT = 4.0
TAG_HEIGHT = 4.0
#: The widest seed a label can carry (19 digits, every digit as wide in DejaVu Sans).
WIDEST_SEED = 9_999_999_999_999_999_999
UNDERSIDE = "base, underside (mirrored)"
#: Steps of the search for text: capital heights, and positions across and along the frame, mm.
CAP_STEP = 0.1
POSITION_STEP = 0.2
#: How far text is looked for from the plate's edge it sits along (and, at the top, from the key), mm.
REACH = 40.0
#: Rows of positions tried in one vectorised call, from the edge inwards.
ROWS_AT_ONCE = 8
#: The largest margin a refusal looks for, mm.
MOST_MARGIN = 30.0

Where = Literal["bottom", "top", "centre"]


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


def caption(text: str, seed: int | None) -> str:
    """The kit label: the text and the seed that makes the maze again (when known)."""
    if seed is None:
        return text or "laby3d"
    return f"{text}  ·  seed {seed}" if text else f"laby3d seed {seed}"


def _ink(texts: tuple[str, ...]) -> tuple[list[list[np.ndarray]], float, float]:
    """Each of ``texts``' rings with capitals 1 mm tall, and the widest ink width and the tallest
    ink height among them."""
    units = [text_outlines(text, 1.0) for text in texts]
    ink_w = max(float(r[:, 0].max()) for unit in units for r in unit)
    ink_h = max(float(r[:, 1].max()) for unit in units for r in unit)
    return units, ink_w, ink_h


def fit(
    texts: tuple[str, ...],
    region: shapely.Geometry,
    box: tuple[float, float, float, float],
    height: float,
    where: Where,
) -> list[Text] | None:
    """``texts`` (one, or the layer numbers: each goes where the others go) with the largest
    capitals (≤ ``height``, ≥ :data:`MIN_CAP_HEIGHT`, in steps of :data:`CAP_STEP`) whose box
    (the widest and tallest of them), :data:`CLEARANCE` included, lies in ``region``
    (prepared): ``bottom`` centred across ``box`` (x0, y0, x1, y1) as low as it goes, ``top`` as
    high and then as far left as it goes, ``centre`` at its middle. None when nothing fits.
    Capitals are found by bisection (what fits smaller text is taken to fit larger text less
    often)."""
    units, ink_w, ink_h = _ink(texts)
    best = _largest_cap(ink_w, ink_h, region, box, height, where)
    if best is None:
        return None
    cap, at = best
    return [
        Text(text=text, rings=[ring * cap + at for ring in unit], cap_height=cap)
        for text, unit in zip(texts, units, strict=True)
    ]


def _largest_cap(
    ink_w: float,
    ink_h: float,
    region: shapely.Geometry,
    box: tuple[float, float, float, float],
    height: float,
    where: Where,
) -> tuple[float, tuple[float, float]] | None:
    """The largest capitals :func:`fit` finds room for, and where the ink starts, or None."""
    caps = np.round(np.arange(MIN_CAP_HEIGHT, height + 1e-9, CAP_STEP), 6).tolist()
    if not caps:
        return None
    at = _place(ink_w, ink_h, caps[-1], region, box, where)
    if at is not None:
        return caps[-1], at
    best = None
    low, high = -1, len(caps) - 1  # caps[high] does not fit; caps[low] fits (-1: not known yet)
    while high - low > 1:
        middle = (low + high) // 2 if low >= 0 else 0
        at = _place(ink_w, ink_h, caps[middle], region, box, where)
        if at is None:
            if middle == 0:
                return None
            high = middle
        else:
            low, best = middle, (caps[middle], at)
    return best


def _place(
    ink_w: float,
    ink_h: float,
    cap: float,
    region: shapely.Geometry,
    box: tuple[float, float, float, float],
    where: Where,
) -> tuple[float, float] | None:
    """Where the ink box (``ink_w`` × ``ink_h`` at capitals 1 mm) at capitals ``cap`` starts
    (its lower-left corner) when placed as :func:`fit` says, or None."""
    x0, y0, x1, y1 = box
    width, tall = ink_w * cap + 2 * CLEARANCE, ink_h * cap + 2 * CLEARANCE
    if width > x1 - x0 or tall > y1 - y0:
        return None
    reach = min((y1 - y0) / 2, REACH)
    if where == "centre":
        lefts, bottoms = np.array([(x0 + x1 - width) / 2]), np.array([(y0 + y1 - tall) / 2])
    elif where == "bottom":
        lefts = np.array([(x0 + x1 - width) / 2])
        bottoms = y0 + np.arange(0.0, max(reach - tall, 0.0) + 1e-9, POSITION_STEP)
    else:
        lefts = x0 + np.arange(0.0, min(x1 - x0 - width, REACH) + 1e-9, POSITION_STEP)
        bottoms = y1 - tall - np.arange(0.0, max(reach - tall, 0.0) + 1e-9, POSITION_STEP)
    for start in range(0, len(bottoms), ROWS_AT_ONCE):  # nearest the edge first: most text fits there
        ys, xs = (grid.ravel() for grid in np.meshgrid(bottoms[start : start + ROWS_AT_ONCE], lefts, indexing="ij"))
        inside = np.flatnonzero(shapely.contains(region, shapely.box(xs, ys, xs + width, ys + tall)))
        if len(inside):
            return float(xs[inside[0]]) + CLEARANCE, float(ys[inside[0]]) + CLEARANCE
    return None


def placed(frame: Frame, texts: tuple[str, ...], where: Where, height: float) -> list[Text] | None:
    """``texts`` placed together on ``frame`` (:func:`fit`): ``bottom`` along the frame's bottom,
    ``top`` right of the key (layer numbers), ``centre`` under the base; remembered on the frame."""
    key = (texts, where, height)
    if key not in frame.fits:
        box = frame.plate.bounds
        if where == "top":
            box = (max(frame.notch.bounds[2], box[0]), box[1], box[2], box[3])
        region = frame.underside if where == "centre" else frame.free
        frame.fits[key] = fit(texts, region, box, height, where)
    return frame.fits[key]


def text_plan(
    frame: Frame, parts: list[str], *, label: str | None, seed: int | None, tag: str | None, label_height: float
) -> Engraving:
    """The text of a kit whose parts are ``parts`` (bottom up: base, wall sheets, top?): layer
    numbers, and the ``label`` (captioned with the ``seed``) or the ``tag`` (a pupil's name) on
    every part. Raises :class:`ParameterError` (field ``label`` or ``tag``) for text that cannot
    be legible."""
    result = Engraving(texts={name: [] for name in parts})
    numbers = tuple(str(index) for index in range(1, len(parts) + 1))
    found = placed(frame, numbers, "top", NUMBER_HEIGHT)
    if found is None:
        margin = working_margin(frame, numbers, "top", NUMBER_HEIGHT)
        result.warnings.append(
            f"layer numbers left off: the {frame.band:g} mm frame of this {frame.shape} plate holds no "
            f"{MIN_CAP_HEIGHT:g} mm digits {EDGE:g} mm from its edge{_margin_hint(margin)}; the notch still keys "
            "which way each layer goes"
        )
    else:
        result.numbers = True
        for name, number in zip(parts, found, strict=True):
            result.texts[name].append(number)
    if tag is not None:
        text = placed(frame, (tag,), "bottom", TAG_HEIGHT)
        if text is None:
            raise _too_small(tag, frame, "a name tag", TAG_HEIGHT, field="tag")
        for name in parts:
            result.texts[name].extend(text)
    elif label is not None:
        _label(frame, parts, label, seed, label_height, result)
    return result


def _label(frame: Frame, parts: list[str], text: str, seed: int | None, height: float, result: Engraving) -> None:
    """The caption along the bottom of the top's frame (else the uppermost wall sheet's), else
    mirrored under the base; where neither holds it, the text without its seed, likewise."""
    full = caption(text, seed)
    for label in dict.fromkeys([full, text or "laby3d"]):
        if label != full:
            result.warnings.append(f'seed left off the label "{full}": it is not legible anywhere on the plate')
        shown = parts[-1]
        on_frame = placed(frame, (label,), "bottom", height)
        if on_frame is not None:
            result.texts[shown].extend(on_frame)
            result.label_on = shown
            return
        found = placed(frame, (label,), "centre", height)
        if found is not None:
            (under,) = found
            x0, _, x1, _ = frame.plate.bounds
            mirrored = [np.column_stack([x0 + x1 - ring[:, 0], ring[:, 1]])[::-1] for ring in under.rings]
            result.texts["base"].append(Text(text=label, rings=mirrored, cap_height=under.cap_height, mirrored=True))
            result.label_on = UNDERSIDE
            margin = working_margin(frame, (label,), "bottom", height)
            result.warnings.append(
                f"label moved under the base (mirrored): the frame of this {frame.shape} plate holds no "
                f"{MIN_CAP_HEIGHT:g} mm capitals of it on the {shown} {EDGE:g} mm from its edge{_margin_hint(margin)}"
            )
            return
    raise _too_small(text, frame, "the label", height, field="label")


def working_margin(frame: Frame, texts: tuple[str, ...], where: Where, height: float) -> float | None:
    """The least margin (mm, in 0.5 mm steps, up to :data:`MOST_MARGIN`) whose frame holds
    ``texts`` where asked, built and tried (by bisection: a wider frame holds what a narrower
    one does); None when none does."""
    key = (texts, where, height)
    if key not in frame.margins:
        frame.margins[key] = _least_margin(frame, texts, where, height)
    return frame.margins[key]


def _least_margin(frame: Frame, texts: tuple[str, ...], where: Where, height: float) -> float | None:
    if frame.fab.base_thickness == 0:  # no margin without a base
        return None
    low, high = math.ceil(2 * frame.fab.margin), int(2 * MOST_MARGIN)  # in half millimetres
    if high <= low or not _holds(frame, high / 2, texts, where, height):
        return None
    while high - low > 1:  # low does not hold it (the frame's own margin did not), high does
        middle = (low + high) // 2
        low, high = (low, middle) if _holds(frame, middle / 2, texts, where, height) else (middle, high)
    return high / 2


def _holds(frame: Frame, margin: float, texts: tuple[str, ...], where: Where, height: float) -> bool:
    """Whether ``frame`` rebuilt with ``margin`` holds ``texts`` where asked."""
    from laby3d.geometry.laser.frame import kit_frame

    wider = kit_frame(
        frame.tessellation, replace(frame.fab, margin=margin), min_wall=frame.min_wall, dowel=frame.hole or None
    )
    return placed(wider, texts, where, height) is not None


def _margin_hint(margin: float | None) -> str:
    return f" (a margin of {margin:g} mm does)" if margin is not None else f" (no margin up to {MOST_MARGIN:g} mm does)"


def _too_small(text: str, frame: Frame, what: str, height: float, *, field: str) -> ParameterError:
    margin = working_margin(frame, (text,), "bottom", height)
    if margin is None:
        return ParameterError(
            f'"{text}": {what} has no room for {MIN_CAP_HEIGHT:g} mm capitals on this {frame.size[0]:.0f} mm '
            f"{frame.shape} plate, even with a {MOST_MARGIN:g} mm margin: a shorter text or a larger maze",
            field=field,
        )
    return ParameterError(
        f'"{text}": {what} needs a frame band that holds {MIN_CAP_HEIGHT:g} mm capitals {EDGE:g} mm from its '
        f"edge; this {frame.shape} plate's is {frame.band:g} mm (margin + wall_thickness): a margin of at least "
        f"{margin:g} mm",
        field=field,
    )
