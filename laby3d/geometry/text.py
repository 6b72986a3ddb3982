"""Text as ink polygons, drawn glyph by glyph from the DejaVu Sans font that ships with
matplotlib: plain text only (no mathtext, ``$`` is a dollar sign), no font needed where the
file is used, and laser programs never see a ``<text>`` element.

Steps: normalise the text and refuse what the font cannot draw (:mod:`laby3d.text_rules`:
characters it lacks, emoji, right-to-left letters, accents without a letter), lay glyphs out
along the baseline with the font's advances and kerning, flatten each glyph's quadratic
outlines to within :data:`FLATNESS` em, and fill them by the font's own rule (non-zero winding:
counters are holes, ink inside a counter is ink) into valid shapely polygons.
"""

from __future__ import annotations

import io
import threading
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from laby3d.errors import ParameterError
from laby3d.text_rules import checked_text

if TYPE_CHECKING:  # shapely is imported where ink is made: a PDF's text needs only the font's metrics
    import shapely

#: Largest distance between a flattened outline and the true curve, in em (5 µm at 10 mm).
FLATNESS = 5e-4


@dataclass(frozen=True, kw_only=True)
class TextShape:
    """A line of text in em units (1 = the font size), y up: baseline at y = 0, pen starting at x = 0."""

    text: str  # as drawn: normalised
    cap_height: float  # height of a capital H above the baseline, em
    #: The glyphs with ink, in order: (glyph index in the font, pen position along the baseline, em).
    layout: tuple[tuple[int, float], ...]
    #: Each of those glyphs' ink where the text draws it, em.
    glyphs: tuple[shapely.Geometry, ...]

    @cached_property
    def polygons(self) -> shapely.Geometry:
        """The ink, valid (Multi)Polygon, em."""
        import shapely

        return shapely.union_all(self.glyphs)

    @cached_property
    def bounds(self) -> tuple[float, float, float, float]:
        """The ink box (x0, y0, x1, y1), em: accents above, descenders below (the glyphs' box:
        a union adds no point outside it)."""
        import shapely

        corners = shapely.bounds(np.array(self.glyphs, dtype=object))
        x0, y0 = corners[:, :2].min(axis=0)
        x1, y1 = corners[:, 2:].max(axis=0)
        return float(x0), float(y0), float(x1), float(y1)


#: Font subsets a :class:`Glyphs` keeps (each a few kB).
KEPT_SUBSETS = 32
#: The bundled DejaVu Sans faces, by name: the files matplotlib ships.
FACES = {"regular": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf", "oblique": "DejaVuSans-Oblique.ttf"}


def font_path(face: str = "regular") -> Path:
    """The bundled DejaVu Sans file of ``face`` (matplotlib's copy)."""
    import matplotlib

    return Path(matplotlib.get_data_path()) / "fonts" / "ttf" / FACES[face]


class Glyphs:
    """One font face's glyphs, each read once: outline contours, ink, advance and kerning (em),
    and the font file cut down to the glyphs a document uses.

    One object per face and process (:func:`dejavu_sans`): a font file is read-only, so a glyph
    is the same in every call, and a class set's 600 names draw about 60 different glyphs some
    6,000 times. This is the one cache of the text code, kept at the outline level (the
    contours as the font gives them, flattened) with the ink filled from it by
    :func:`_glyph_polygons`, so the fill rule can change without touching the cache. FreeType
    faces are not thread-safe: the font is used under a lock.
    """

    def __init__(self, path: Path) -> None:
        from matplotlib.ft2font import FT2Font

        self.path = path
        self._font = FT2Font(str(path))
        self._lock = threading.Lock()
        self.units = self._font.units_per_EM
        self._font.set_size(self.units, 72)  # one pixel per font unit: outlines come in font units
        self._outlines: dict[int, tuple[tuple[np.ndarray, ...], float]] = {}
        self._advances: dict[int, float] = {}
        self._ink: dict[int, shapely.Geometry | None] = {}
        self._kerning: dict[tuple[int, int], float] = {}
        self._subsets: dict[tuple[int, ...], tuple[bytes, dict[int, int]]] = {}
        self.cap_height = float(self.outline(self.index("H"))[0][0][:, 1].max())
        #: The font's PostScript name, ascent and descent (em, descent negative), box (em) and
        #: italic angle (degrees), as a PDF's font descriptor gives them.
        self.postscript_name = str(self._font.postscript_name)
        self.ascent = self._font.ascender / self.units
        self.descent = self._font.descender / self.units
        self.bbox = tuple(value / self.units for value in self._font.bbox)
        angle = self._font.get_sfnt_table("post")
        self.italic_angle = float(angle["italicAngle"][0]) if angle else 0.0

    def glyph_name(self, index: int) -> str:
        """The name of glyph ``index`` in the font's own tables."""
        from matplotlib.ft2font import GlyphIndexType

        with self._lock:
            return str(self._font.get_glyph_name(GlyphIndexType(index)))

    def advance(self, index: int) -> float:
        """Glyph ``index``'s advance, em."""
        if index not in self._advances:
            from matplotlib.ft2font import GlyphIndexType, LoadFlags

            with self._lock:
                glyph = self._font.load_glyph(GlyphIndexType(index), LoadFlags.NO_HINTING)
                self._advances[index] = glyph.linearHoriAdvance / 65536 / self.units
        return self._advances[index]

    def subset(self, glyphs: tuple[int, ...]) -> tuple[bytes, dict[int, int]]:
        """The font file cut down to ``glyphs`` (sorted indices; with the glyphs accented ones
        are built of; no hinting, no layout tables: a PDF positions every glyph itself), and each
        glyph's index in it. Deterministic (no timestamp is rewritten); the last
        :data:`KEPT_SUBSETS` are kept, as a class's documents use the same few sets of glyphs."""
        if glyphs not in self._subsets:
            from fontTools import subset
            from fontTools.ttLib import TTFont

            font = TTFont(str(self.path), recalcTimestamp=False, lazy=True)
            options = subset.Options()
            options.layout_features = []
            options.drop_tables += ["GSUB", "GPOS", "GDEF", "kern", "FFTM", "hdmx", "VDMX", "LTSH", "gasp", "name"]
            options.hinting = False
            options.glyph_names = False
            options.notdef_outline = True
            options.prune_unicode_ranges = False
            subsetter = subset.Subsetter(options)
            subsetter.populate(gids=list(glyphs))
            subsetter.subset(font)
            order = {glyph: index for index, glyph in enumerate(font.getGlyphOrder())}
            buffer = io.BytesIO()
            font.save(buffer)
            if len(self._subsets) >= KEPT_SUBSETS:
                self._subsets.pop(next(iter(self._subsets)))
            self._subsets[glyphs] = buffer.getvalue(), {index: order[self.glyph_name(index)] for index in glyphs}
        return self._subsets[glyphs]

    def run(self, text: str) -> tuple[list[int], list[float], float]:
        """``text`` set on one line: its glyph indices, the kerning before each (em) and the
        whole width, em (glyph index 0 where the font has no glyph)."""
        glyphs = [self.index(char) for char in text]
        kerns = [0.0] + [self.kerning(left, right) for left, right in zip(glyphs, glyphs[1:], strict=False)]
        return glyphs, kerns, sum(kerns) + sum(self.advance(index) for index in glyphs)

    def index(self, char: str) -> int:
        """The glyph index of ``char`` (0: the font has no glyph for it)."""
        with self._lock:
            return int(self._font.get_char_index(ord(char)))

    def kerning(self, left: int, right: int) -> float:
        """The kerning between glyphs ``left`` and ``right``, em."""
        if (left, right) not in self._kerning:
            from matplotlib.ft2font import GlyphIndexType, Kerning

            with self._lock:
                units = self._font.get_kerning(GlyphIndexType(left), GlyphIndexType(right), Kerning.UNSCALED)
            self._kerning[left, right] = units / self.units
        return self._kerning[left, right]

    def outline(self, index: int) -> tuple[tuple[np.ndarray, ...], float]:
        """Glyph ``index``'s closed contours flattened to within :data:`FLATNESS` (em, no closing
        repeat), and its advance, em."""
        if index not in self._outlines:
            from matplotlib.ft2font import GlyphIndexType, LoadFlags

            with self._lock:
                glyph = self._font.load_glyph(GlyphIndexType(index), LoadFlags.NO_HINTING)
                vertices, codes = self._font.get_path()
                self._advances[index] = glyph.linearHoriAdvance / 65536 / self.units
            contours = _flattened_contours(np.asarray(vertices, dtype=float) / self.units, np.asarray(codes))
            self._outlines[index] = tuple(contours), self._advances[index]
        return self._outlines[index]

    def ink(self, index: int) -> shapely.Geometry | None:
        """Glyph ``index`` filled (valid polygons, em, pen at the origin); None without ink."""
        if index not in self._ink:
            self._ink[index] = _glyph_polygons(list(self.outline(index)[0]))
        return self._ink[index]


_GLYPHS: dict[str, Glyphs] = {}


def dejavu_sans(face: str = "regular") -> Glyphs:
    """The process's :class:`Glyphs` of the bundled DejaVu Sans ``face`` (:data:`FACES`)."""
    if face not in _GLYPHS:
        _GLYPHS[face] = Glyphs(font_path(face))
    return _GLYPHS[face]


def text_shape(text: str, face: str = "regular") -> TextShape:
    """The ink of ``text`` (normalised) in em units, in the DejaVu Sans ``face``
    (:data:`FACES`); raises :class:`ParameterError` (field ``label``) for a text the font
    cannot draw (:func:`laby3d.text_rules.text_problem`)."""
    import shapely

    drawn = checked_text(text, "dejavu")
    font = dejavu_sans(face)
    glyphs, layout = [], []
    pen, previous = 0.0, None
    for char in drawn:
        index = font.index(char)
        if previous is not None:
            pen += font.kerning(previous, index)
        ink = font.ink(index)
        if ink is not None:
            glyphs.append(shapely.transform(ink, lambda points, pen=pen: points + (pen, 0.0)))
            layout.append((index, pen))
        pen += font.advance(index)
        previous = index
    if not glyphs:
        raise ParameterError(f"{text!r} has no visible character", field="label")
    return TextShape(text=drawn, cap_height=font.cap_height, layout=tuple(layout), glyphs=tuple(glyphs))


def _glyph_polygons(rings: list[np.ndarray]) -> shapely.Geometry | None:
    """One glyph's flattened contours (em) filled as the font means them: a point is ink where
    the contours wind around it a non-zero number of times (TrueType's rule). Counters in a
    letter are holes, ink inside a counter (Θ's bar, the R of ®) is kept, at any depth, and
    contours that overlap (a glyph built of components) add up. None for a glyph without ink."""
    import shapely

    rings = [ring for ring in rings if len(ring) >= 3 and _signed_area(ring) != 0]
    if not rings:
        return None
    # The faces of the arrangement of all contours: the winding number is constant on each.
    lines = shapely.MultiLineString([np.vstack([ring, ring[:1]]) for ring in rings])
    faces = shapely.get_parts(shapely.polygonize(shapely.get_parts(shapely.node(lines))))
    inside = [face for face in faces if _winding(rings, face.representative_point()) != 0]
    if not inside:
        return None
    shape = shapely.make_valid(shapely.union_all(inside))
    return shape if not shape.is_empty else None


def _winding(rings: list[np.ndarray], point: shapely.Point) -> int:
    """How many times ``rings`` wind around ``point`` (on none of them), counter-clockwise positive."""
    px, py = point.x, point.y
    total = 0
    for ring in rings:
        start, end = ring, np.roll(ring, -1, axis=0)
        across = (end[:, 0] - start[:, 0]) * (py - start[:, 1]) - (px - start[:, 0]) * (end[:, 1] - start[:, 1])
        upward = (start[:, 1] <= py) & (end[:, 1] > py) & (across > 0)
        downward = (start[:, 1] > py) & (end[:, 1] <= py) & (across < 0)
        total += int(np.count_nonzero(upward)) - int(np.count_nonzero(downward))
    return total


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
