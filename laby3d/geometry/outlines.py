"""Outlines: the shape of a board (a heart, a letter, a school's logo), as the cells of a
tessellation it holds.

An outline is one of

- a built-in name: :data:`BUILT_IN` (``circle``, ``hexagon``, ``triangle``, ``heart``, ``star``,
  ``ring``: a disc with a hole of half its radius);
- ``text:STRING``: the letters of a word or an initial in DejaVu Sans Bold (the labels' font);
- a file: an SVG (its filled shapes, fill rule and transforms as drawn), or a PNG or JPEG mask,
  dark = inside: a pixel is inside when its luminance is under half (128 of 255) once any
  transparency is laid on white.

The outline is scaled to the board, its aspect kept, centred: its box fills the board's width
or its height. **A cell belongs to the maze when its centre is inside the outline.** Cells that
fall apart into pieces (the letters of a word) are joined by the shortest runs of board cells
between them, and cells touching at a corner only are filled out
(:mod:`laby3d.tessellation.cut`), so the maze is one piece whose boundary walls, plate and sheets
can follow. Too few cells, an empty or unreadable file, or a file too large are refused with one
line each, before any maze is made.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from laby3d.errors import ParameterError
from laby3d.quoting import shown, shown_path

if TYPE_CHECKING:
    import shapely

    from laby3d.tessellation import Tessellation

#: The built-in outlines.
BUILT_IN = ("circle", "hexagon", "triangle", "heart", "star", "ring")
#: The prefix of a text outline.
TEXT_PREFIX = "text:"
#: Longest text of a text outline, characters.
MAX_TEXT = 12
#: Largest outline file read, bytes, and most pixels of an image mask.
MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_PIXELS = 16_000_000
#: Fewest cells a maze cut by an outline may have.
MIN_CELLS = 4
#: A pixel of a mask is inside when its luminance is under this (0..255).
DARK = 128
#: Segments of a built-in curve (the circle, the heart) around its whole length.
CURVE_SEGMENTS = 256


@dataclass(frozen=True)
class Outline:
    """An outline in its own frame, y down: its box ``(x0, y0, x1, y1)`` and the test of which
    points ``(k, 2)`` it holds."""

    spec: str
    box: tuple[float, float, float, float]
    contains: Callable[[np.ndarray], np.ndarray]


def outline_cells(board: Tessellation, outline: Outline) -> np.ndarray:
    """``(board cells,)`` bool: the board's cells whose centre is inside ``outline`` fitted to
    the board (its aspect kept, centred)."""
    width, height = board.extent
    x0, y0, x1, y1 = outline.box
    scale = min(width / (x1 - x0), height / (y1 - y0))
    offset = np.array([(width - scale * (x1 - x0)) / 2, (height - scale * (y1 - y0)) / 2])
    points = (board.centres - offset) / scale + (x0, y0)
    return np.asarray(outline.contains(points), dtype=bool)


def outlined_cells(board: Tessellation, spec: str, *, room: int = 0, folder: Path | None = None) -> np.ndarray | None:
    """The board cell indices of a maze cut by outline ``spec`` (None: no outline) and, on a
    theta board, a central room of ``room`` rings (the rings inside it are no cells); joined
    into one piece (:func:`laby3d.tessellation.cut.cut_cells`). ``folder`` is where a relative
    file name is read from. Raises :class:`ParameterError` on ``outline`` (or ``inner``)."""
    from laby3d.tessellation.cut import cut_cells

    keep = np.ones(board.cell_count, dtype=bool)
    if spec:
        keep &= outline_cells(board, parse_outline(spec, folder=folder))
    if room:
        keep &= board.positions[:, 0] >= room
    if keep.all():
        return None
    if keep.sum() < MIN_CELLS:
        what = f"{shown(spec)} holds" if spec else "the board keeps"
        raise ParameterError(
            f"{what} {int(keep.sum())} of this board's {board.cell_count} cells (a cell belongs when its centre is "
            f"inside), at least {MIN_CELLS}: a larger board or a bolder outline",
            field="outline" if spec else "inner",
        )
    return cut_cells(board, keep)


def parse_outline(spec: str, *, folder: Path | None = None) -> Outline:
    """The outline ``spec`` names: a built-in, ``text:…`` or a file (see the module)."""
    if not isinstance(spec, str) or not spec.strip():
        raise ParameterError(
            f"must be one of {', '.join(BUILT_IN)}, text:WORD or an image file, got {shown(spec)}", field="outline"
        )
    spec = spec.strip()
    if spec in BUILT_IN:
        return _polygon_outline(spec, _built_in(spec))
    if spec.startswith(TEXT_PREFIX):
        return _polygon_outline(spec, _text(spec[len(TEXT_PREFIX) :]))
    path = Path(spec).expanduser()
    if folder is not None and not path.is_absolute():
        path = folder / path
    suffix = path.suffix.lower()
    if suffix not in (".svg", ".png", ".jpg", ".jpeg"):
        raise ParameterError(
            f"must be one of {', '.join(BUILT_IN)}, text:WORD, or an .svg, .png or .jpg file, got {shown(spec)}",
            field="outline",
        )
    return file_outline(_read(path), path, spec=spec)


def file_outline(data: bytes, path: Path, *, spec: str | None = None, svg: bool | None = None) -> Outline:
    """The outline of an SVG file's bytes (``svg``, or by default ``path`` ending in ``.svg``),
    else of a PNG or JPEG mask's, ``path`` naming the file in messages: the class app checks an
    upload with it before storing it. Raises :class:`ParameterError` on ``outline``."""
    spec = spec if spec is not None else str(path)
    if svg if svg is not None else path.suffix.lower() == ".svg":
        return _polygon_outline(spec, _svg(data, path))
    return _mask(spec, data, path)


def _read(path: Path) -> bytes:
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ParameterError(
                f"{shown_path(path)} is {size:,} bytes, an outline file has at most {MAX_FILE_BYTES:,}", field="outline"
            )
        return path.read_bytes()
    except FileNotFoundError:
        raise ParameterError(f"{shown_path(path)} does not exist", field="outline") from None
    except IsADirectoryError:
        raise ParameterError(f"{shown_path(path)} is a folder, not an image file", field="outline") from None
    except OSError as error:
        raise ParameterError(f"{shown_path(path)} cannot be read ({error.strerror})", field="outline") from None


def _polygon_outline(spec: str, geometry: shapely.Geometry) -> Outline:
    import shapely

    if geometry.is_empty or geometry.area <= 0:
        raise ParameterError(f"{shown(spec)} has no filled shape", field="outline")
    shapely.prepare(geometry)

    def contains(points: np.ndarray) -> np.ndarray:
        return shapely.contains_xy(geometry, points[:, 0], points[:, 1])

    x0, y0, x1, y1 = geometry.bounds
    return Outline(spec=spec, box=(x0, y0, x1, y1), contains=contains)


def _regular(corners: int, *, radius: float = 0.5, turn: float = 0.0) -> np.ndarray:
    """``corners`` points on the circle of ``radius`` around (0.5, 0.5), the first ``turn``
    degrees clockwise from 12 o'clock (y down)."""
    angle = np.radians(turn - 90.0) + 2 * np.pi * np.arange(corners) / corners
    return np.stack([0.5 + radius * np.cos(angle), 0.5 + radius * np.sin(angle)], axis=1)


def _built_in(name: str) -> shapely.Geometry:
    """The built-in outline ``name`` in the unit square, y down."""
    import shapely

    if name == "circle":
        return shapely.Polygon(_regular(CURVE_SEGMENTS))
    if name == "ring":
        return shapely.Polygon(_regular(CURVE_SEGMENTS), [_regular(CURVE_SEGMENTS, radius=0.25)])
    if name == "hexagon":  # flat top and bottom: the rows of a hexagon-shaped board of hexagons
        return shapely.Polygon(_regular(6, turn=30.0))
    if name == "triangle":  # pointing up, flat base
        return shapely.Polygon(_regular(3))
    if name == "star":  # five points, the inner corners at 0.38 of the radius
        outer, inner = _regular(5), _regular(5, radius=0.19, turn=36.0)
        return shapely.Polygon(np.stack([outer, inner], axis=1).reshape(-1, 2))
    # heart: the classic curve x = 16 sin³ t, y = 13 cos t − 5 cos 2t − 2 cos 3t − cos 4t (y up)
    t = 2 * np.pi * np.arange(CURVE_SEGMENTS) / CURVE_SEGMENTS
    x = 16 * np.sin(t) ** 3
    y = 13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t)
    return shapely.Polygon(np.stack([x, -y], axis=1))


def _text(text: str) -> shapely.Geometry:
    """The ink of ``text`` in DejaVu Sans Bold, em, y down."""
    import shapely

    from laby3d.geometry.text import text_shape

    if not text.strip() or len(text) > MAX_TEXT:
        raise ParameterError(f"text: needs 1 to {MAX_TEXT} characters, got {shown(text)}", field="outline")
    try:
        ink = text_shape(text, face="bold").polygons
    except ParameterError as error:
        raise ParameterError(f"text:{text}: {error.detail}", field="outline") from None
    return shapely.transform(ink, lambda points: points * (1.0, -1.0))


def _svg(data: bytes, path: Path) -> shapely.Geometry:
    """The filled shapes of an SVG file, as drawn (transforms, fill rule), in its user units, y down."""
    import io

    import shapely
    from svgelements import SVG, Shape
    from svgelements import Path as SVGPath

    try:
        document = SVG.parse(io.BytesIO(data), reify=True)
    except Exception as error:  # svgelements and ElementTree raise many kinds on a broken file
        raise ParameterError(
            f"{shown_path(path)} is not an SVG file that can be read ({type(error).__name__})", field="outline"
        ) from None
    filled = []
    for element in document.elements():
        if not isinstance(element, Shape) or element.fill is None or element.fill.value is None:
            continue
        if getattr(element.fill, "opacity", 1.0) == 0:
            continue
        rings = [ring for ring in map(_ring_of, SVGPath(element).as_subpaths()) if len(ring) >= 3]
        if rings:
            rule = str(element.values.get("fill-rule", "nonzero")).lower()
            filled.append(_filled(rings, even_odd=rule == "evenodd"))
    geometry = shapely.union_all(filled) if filled else shapely.Polygon()
    if geometry.is_empty:
        raise ParameterError(f"{shown_path(path)} has no filled shape", field="outline")
    return geometry


def _ring_of(subpath) -> np.ndarray:
    """The corners of one SVG subpath: a straight segment's end, a curve's 24 points."""
    from svgelements import Close, Line, Move

    points: list[tuple[float, float]] = []
    for segment in subpath.segments():
        if isinstance(segment, Move):
            points.append((segment.end.x, segment.end.y))
        elif isinstance(segment, (Line, Close)):
            points.append((segment.end.x, segment.end.y))
        else:
            points.extend(map(tuple, segment.npoint(np.linspace(0.0, 1.0, 25)[1:])))
    ring = np.array(points, dtype=float).reshape(-1, 2)
    return ring[:-1] if len(ring) > 1 and np.allclose(ring[0], ring[-1]) else ring


def _filled(rings: list[np.ndarray], *, even_odd: bool) -> shapely.Geometry:
    """The area ``rings`` fill by the even-odd or non-zero rule."""
    import shapely

    lines = shapely.node(shapely.MultiLineString([np.vstack([ring, ring[:1]]) for ring in rings]))
    faces = shapely.get_parts(shapely.polygonize(shapely.get_parts(lines)))
    kept = []
    for face in faces:
        point = face.representative_point()
        winding = sum(_winding_number(ring, point.x, point.y) for ring in rings)
        if (winding % 2 == 1) if even_odd else winding != 0:
            kept.append(face)
    return shapely.union_all(kept) if kept else shapely.Polygon()


def _winding_number(ring: np.ndarray, x: float, y: float) -> int:
    """How many times ``ring`` winds around ``(x, y)`` (signed)."""
    a, b = ring, np.roll(ring, -1, axis=0)
    upward = (a[:, 1] <= y) & (b[:, 1] > y)
    downward = (a[:, 1] > y) & (b[:, 1] <= y)
    side = (b[:, 0] - a[:, 0]) * (y - a[:, 1]) - (x - a[:, 0]) * (b[:, 1] - a[:, 1])
    return int(np.count_nonzero(upward & (side > 0)) - np.count_nonzero(downward & (side < 0)))


def _mask(spec: str, data: bytes, path: Path) -> Outline:
    """An image mask: dark pixels (luminance under :data:`DARK`, transparency laid on white) inside."""
    import io

    from PIL import Image, UnidentifiedImageError

    unreadable = ParameterError(f"{shown_path(path)} is not a PNG or JPEG image that can be read", field="outline")
    try:
        image = Image.open(io.BytesIO(data))
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        raise unreadable from None
    with image:
        width, height = image.size
        if width * height > MAX_PIXELS:
            raise ParameterError(
                f"{shown_path(path)} is {width}×{height} pixels, an outline image has at most "
                f"{MAX_PIXELS:,}: a smaller image works as well",
                field="outline",
            )
        try:
            image.load()
            flat: Image.Image = image
            if image.mode in ("RGBA", "LA", "P"):
                flat = Image.alpha_composite(Image.new("RGBA", image.size, "white"), image.convert("RGBA"))
            dark = np.asarray(flat.convert("L")) < DARK
        except (OSError, SyntaxError, ValueError, Image.DecompressionBombError):
            raise unreadable from None
    if not dark.any():
        raise ParameterError(
            f"{shown_path(path)} has no dark pixel (an outline is the dark part of the image)", field="outline"
        )

    def contains(points: np.ndarray) -> np.ndarray:
        columns = np.floor(points[:, 0]).astype(np.int64)
        rows = np.floor(points[:, 1]).astype(np.int64)
        within = (columns >= 0) & (columns < width) & (rows >= 0) & (rows < height)
        found = np.zeros(len(points), dtype=bool)
        found[within] = dark[rows[within], columns[within]]
        return found

    ys, xs = np.nonzero(dark)
    return Outline(
        spec=spec,
        box=(float(xs.min()), float(ys.min()), float(xs.max()) + 1.0, float(ys.max()) + 1.0),
        contains=contains,
    )


def describe(spec: str) -> str:
    """The outline as a short phrase for captions and headers (``heart``, ``the text 'ANA'``,
    the file's name)."""
    if spec.startswith(TEXT_PREFIX):
        return f"text '{spec[len(TEXT_PREFIX) :]}'"
    return spec if spec in BUILT_IN else Path(spec).name


__all__ = ["BUILT_IN", "Outline", "describe", "file_outline", "outline_cells", "outlined_cells", "parse_outline"]
