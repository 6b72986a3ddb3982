"""Text as ink polygons, drawn glyph by glyph from the DejaVu Sans font that ships with
matplotlib: plain text only (no mathtext, ``$`` is a dollar sign), no font needed where the
file is used, and laser programs never see a ``<text>`` element.

Steps: normalise the text (NFC, spaces, invisible characters), refuse characters the font
lacks and right-to-left letters (no bidirectional layout nor shaping here), lay glyphs out
along the baseline with the font's advances and kerning, flatten each glyph's quadratic
outlines to within :data:`FLATNESS` em, and fill them by the font's own rule (outer contours
one way round, counters the other) into valid shapely polygons.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import shapely

from laby3d.errors import ParameterError

#: Largest distance between a flattened outline and the true curve, in em (5 µm at 10 mm).
FLATNESS = 5e-4


@dataclass(frozen=True, kw_only=True)
class TextShape:
    """A line of text in em units (1 = the font size), y up: baseline at y = 0, pen starting at x = 0."""

    text: str  # as drawn: normalised
    polygons: shapely.Geometry  # the ink, valid (Multi)Polygon, em
    cap_height: float  # height of a capital H above the baseline, em

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """The ink box (x0, y0, x1, y1), em: accents above, descenders below."""
        x0, y0, x1, y1 = self.polygons.bounds
        return float(x0), float(y0), float(x1), float(y1)


def font_path() -> Path:
    """The bundled DejaVu Sans file (matplotlib's copy)."""
    import matplotlib

    return Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"


def normalised(text: str) -> str:
    """``text`` in NFC with every kind of space as a plain space, invisible format characters
    (zero-width space, joiners, direction marks, BOM) dropped and the ends stripped.

    >>> normalised("\\u00a0Ze\\u0301\\u200bna ")
    'Zéna'
    """
    text = unicodedata.normalize("NFC", text)
    kept = (" " if char.isspace() else char for char in text if unicodedata.category(char) != "Cf")
    return "".join(kept).strip(" ")


def text_shape(text: str) -> TextShape:
    """The ink of ``text`` (normalised) in em units; raises :class:`ParameterError` (field
    ``label``) for a text with nothing to draw or with characters the font lacks."""
    from matplotlib.ft2font import FT2Font, Kerning, LoadFlags

    drawn = normalised(text)
    if not drawn:
        raise ParameterError(f"{text!r} has no visible character", field="label")
    backwards = list(dict.fromkeys(char for char in drawn if unicodedata.bidirectional(char) in ("R", "AL")))
    if backwards:  # drawn left to right and unjoined, they would read wrong
        names = ", ".join(backwards)
        raise ParameterError(f'"{drawn}": right-to-left letters are not supported ({names})', field="label")
    font = FT2Font(str(font_path()))
    missing = list(dict.fromkeys(char for char in drawn if font.get_char_index(ord(char)) == 0))
    if missing:
        names = ", ".join(missing)
        raise ParameterError(f'"{drawn}": the font has no glyph for {names}', field="label")
    units = font.units_per_EM
    font.set_size(units, 72)  # one pixel per font unit: outlines come in font units
    glyphs = []
    drawn_glyphs: dict[int, tuple[shapely.Geometry | None, float]] = {}  # glyph index -> ink, advance (em)
    pen, previous = 0.0, None
    for char in drawn:
        index = font.get_char_index(ord(char))
        if previous is not None:
            pen += font.get_kerning(previous, index, Kerning.UNSCALED) / units
        if index not in drawn_glyphs:
            glyph = font.load_glyph(index, LoadFlags.NO_HINTING)
            vertices, codes = font.get_path()
            ink = _glyph_polygons(np.asarray(vertices, dtype=float) / units, np.asarray(codes))
            drawn_glyphs[index] = ink, glyph.linearHoriAdvance / 65536 / units
        ink, advance = drawn_glyphs[index]
        if ink is not None:
            glyphs.append(shapely.affinity.translate(ink, pen, 0.0))
        pen += advance
        previous = index
    if not glyphs:
        raise ParameterError(f"{text!r} has no visible character", field="label")
    font.load_char(ord("H"), LoadFlags.NO_HINTING)
    cap_height = float(np.asarray(font.get_path()[0])[:, 1].max()) / units
    return TextShape(text=drawn, polygons=shapely.union_all(glyphs), cap_height=cap_height)


def _glyph_polygons(vertices: np.ndarray, codes: np.ndarray) -> shapely.Geometry | None:
    """One glyph's contours (em) filled by orientation: contours turning like the largest one
    are ink, the others counters. None for a glyph without ink (a space)."""
    rings = _flattened_contours(vertices, codes)
    rings = [ring for ring in rings if len(ring) >= 3 and abs(_signed_area(ring)) > 0]
    if not rings:
        return None
    areas = [_signed_area(ring) for ring in rings]
    ink_sign = np.sign(areas[int(np.argmax(np.abs(areas)))])
    ink = [
        shapely.make_valid(shapely.Polygon(ring))
        for ring, area in zip(rings, areas, strict=True)
        if area * ink_sign > 0
    ]
    holes = [
        shapely.make_valid(shapely.Polygon(ring))
        for ring, area in zip(rings, areas, strict=True)
        if area * ink_sign < 0
    ]
    shape = shapely.union_all(ink)
    if holes:
        shape = shape.difference(shapely.union_all(holes))
    return shape if not shape.is_empty else None


def _flattened_contours(vertices: np.ndarray, codes: np.ndarray) -> list[np.ndarray]:
    """The outline's closed contours as point rings (no closing repeat), curves cut into
    chords within :data:`FLATNESS` (matplotlib's flattening, in its units of 0.5)."""
    from matplotlib.path import Path as CurvePath

    scale = 0.5 / FLATNESS
    rings = CurvePath(vertices * scale, codes).to_polygons(closed_only=True)
    return [_without_repeats(np.asarray(ring, dtype=float) / scale) for ring in rings]


def _without_repeats(ring: np.ndarray) -> np.ndarray:
    """The ring without consecutive duplicate points nor a closing repeat."""
    keep = np.any(ring != np.roll(ring, 1, axis=0), axis=1)
    return ring[keep] if keep.any() else ring[:1]


def _signed_area(ring: np.ndarray) -> float:
    x, y = ring[:, 0], ring[:, 1]
    return float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) / 2


def text_outlines(text: str, height: float) -> list[np.ndarray]:
    """Closed rings ``(k, 2)`` in mm (y up) of ``text`` with capital height ``height`` mm, the
    ink's lower-left corner at (0, 0): outer outlines and counters alike, for engraving lines."""
    shape = text_shape(text)
    scale = height / shape.cap_height
    x0, y0, _, _ = shape.bounds
    rings = []
    for polygon in getattr(shape.polygons, "geoms", [shape.polygons]):
        for ring in (polygon.exterior, *polygon.interiors):
            rings.append((np.asarray(ring.coords)[:-1] - (x0, y0)) * scale)
    return rings
