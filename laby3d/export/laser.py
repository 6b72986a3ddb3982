"""Laser formats: SVG (svgwrite) and DXF (ezdxf), one page per call. Pure: they return bytes.

Each operation has its own layer and colour; laser programs (LightBurn, RDWorks, Glowforge)
map operations by colour, so no colour of a cut layer is used by any other layer. Sheet
outlines are notes: in SVG a hidden layer in LightBurn's T1 tool colour, which never outputs
(its C00–C29 colours all do). DXF has no sheet outline: its readers import every layer and cut
it (Inkscape ignores the no-plot flag, LightBurn maps layers by colour), so the sheet is given
only as the drawing limits ($LIMMIN/$LIMMAX), which nothing draws.
"""

from __future__ import annotations

import io
import json
import threading
from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.errors import ParameterError
from laby3d.geometry.laser.options import OPERATIONS

if TYPE_CHECKING:
    from laby3d.geometry.laser import Drawing, LaserSheets

#: Stroke colour per operation and for notes. ``default`` is LightBurn's palette (C00 black fill
#: engraving, C01 blue line engraving, C03 green score, C02 red inner cuts, C10 dark red outer
#: cuts, T1 orange notes: a tool layer, never output); ``boxes`` follows boxes.py (black outer
#: cut, blue inner cut, green etching, cyan deep etching, red annotations).
PALETTES: dict[str, dict[str, str]] = {
    "default": {
        "engrave-fill": "#000000",
        "engrave-line": "#0000ff",
        "score": "#00e000",
        "inner-cut": "#ff0000",
        "outer-cut": "#a00000",
        "notes": "#f36926",
    },
    "boxes": {
        "engrave-fill": "#00ffff",
        "engrave-line": "#00ff00",
        "score": "#ff00ff",
        "inner-cut": "#0000ff",
        "outer-cut": "#000000",
        "notes": "#ff0000",
    },
}
#: DXF layer per operation.
DXF_LAYERS = {
    "engrave-fill": "ENGRAVE-FILL",
    "engrave-line": "ENGRAVE-LINE",
    "score": "SCORE",
    "inner-cut": "CUT-INNER",
    "outer-cut": "CUT-OUTER",
}
#: ezdxf's fixed-metadata switch is a process-wide flag: writers take turns.
_DXF_LOCK = threading.Lock()


def colours(palette: str) -> dict[str, str]:
    """The palette's colour per operation and for notes (``#rrggbb``)."""
    if palette not in PALETTES:
        raise ParameterError(f"must be one of {', '.join(PALETTES)}, got {palette!r}", field="palette")
    return PALETTES[palette]


def _number(value: float) -> str:
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _path_data(strokes: list[np.ndarray], closed: list[bool]) -> str:
    """One SVG path ``d`` with a subpath per stroke (``M x,y L x,y …``, ``Z`` for closed ones)."""
    if not strokes:
        return ""
    points = np.concatenate(strokes)
    values, index = np.unique(np.round(points, 4), return_inverse=True)  # format each value once
    text = [_number(v) for v in values.tolist()]
    pairs = [f"{text[i]},{text[j]}" for i, j in index.reshape(-1, 2).tolist()]
    parts = []
    start = 0
    for stroke, is_closed in zip(strokes, closed, strict=True):
        end = start + len(stroke)
        parts.append("M" + " L".join(pairs[start:end]) + (" Z" if is_closed else ""))
        start = end
    return " ".join(parts)


def svg_bytes(
    drawing: Drawing,
    *,
    palette: str = "default",
    stroke_width: float = 0.1,
    metadata: dict[str, Any],
    notes: bool = True,
) -> bytes:
    """SVG in millimetres (``viewBox`` = page in mm, no transforms), one Inkscape layer per
    operation in the order they should run; sheet outlines in a hidden notes layer (left out
    when ``notes`` is false); no timestamps."""
    import svgwrite

    palette_colours = colours(palette)
    if not (0 < stroke_width <= 1):
        raise ParameterError(f"must be in (0, 1] mm, got {stroke_width:g}", field="stroke_width")
    width, height = _number(drawing.width), _number(drawing.height)
    document = svgwrite.Drawing(size=(f"{width}mm", f"{height}mm"), viewBox=f"0 0 {width} {height}", debug=False)
    document.attribs["xmlns:inkscape"] = "http://www.inkscape.org/namespaces/inkscape"
    document.set_desc("laby3d maze", json.dumps(metadata, sort_keys=True, ensure_ascii=False))
    if drawing.sheets and notes:
        label = "notes (not cut): " + " | ".join(t for t in drawing.titles if t)
        group = document.g(id="notes", style="display:none", **{"inkscape:groupmode": "layer", "inkscape:label": label})
        for x, y, w, h in drawing.sheets:
            group.add(
                document.rect(
                    (x, y),
                    (w, h),
                    fill="none",
                    stroke=palette_colours["notes"],
                    stroke_width=stroke_width,
                    stroke_dasharray="2,2",
                )
            )
        document.add(group)
    for operation in OPERATIONS:
        strokes = drawing.strokes[operation]
        if not strokes:
            continue
        layer = document.g(id=operation, **{"inkscape:groupmode": "layer", "inkscape:label": operation})
        layer.add(
            document.path(
                d=_path_data(strokes, drawing.closed[operation]),
                fill="none",
                stroke=palette_colours[operation],
                stroke_width=stroke_width,
                stroke_linejoin="miter",
                stroke_linecap="butt",
            )
        )
        document.add(layer)
    buffer = io.StringIO()
    document.write(buffer, pretty=True, indent=1)
    return buffer.getvalue().encode()


def dxf_bytes(drawing: Drawing, *, palette: str = "default", notes: bool = True) -> bytes:
    """DXF R2010 in millimetres ($INSUNITS = 4), y up: a layer per operation in the palette's
    colour (true colour), extents set, and with ``notes`` the page as the drawing limits (no
    sheet outline: readers would cut it); the same bytes every time (no dates or GUIDs,
    whatever the hash seed or thread)."""
    import ezdxf

    palette_colours = colours(palette)
    with _DXF_LOCK:
        fixed = ezdxf.options.write_fixed_meta_data_for_testing
        ezdxf.options.write_fixed_meta_data_for_testing = True
        try:
            return _dxf(ezdxf, drawing, palette_colours, notes)
        finally:
            ezdxf.options.write_fixed_meta_data_for_testing = fixed


def _dxf(ezdxf: Any, drawing: Drawing, palette_colours: dict[str, str], notes: bool) -> bytes:
    from ezdxf import colors

    document = ezdxf.new("R2010", setup=False)
    document.header["$INSUNITS"] = 4
    document.header["$MEASUREMENT"] = 1
    for key, name in DXF_LAYERS.items():
        rgb = _rgb(palette_colours[key])
        layer = document.layers.add(name, color=_nearest_aci(colors, rgb))
        layer.rgb = rgb
    space = document.modelspace()
    corners: list[np.ndarray] = []
    if notes:  # the layout's limits are what ezdxf writes to the header
        space.dxf.limmin, space.dxf.limmax = (0.0, 0.0, 0.0), (drawing.width, drawing.height, 0.0)
        document.header["$LIMMIN"], document.header["$LIMMAX"] = (0.0, 0.0), (drawing.width, drawing.height)
    for operation in OPERATIONS:
        layer = DXF_LAYERS[operation]
        for points, closed in zip(drawing.strokes[operation], drawing.closed[operation], strict=True):
            space.add_lwpolyline(_flip(points, drawing.height).tolist(), close=closed, dxfattribs={"layer": layer})
            corners.append(points)
    if corners:  # extents of what is drawn (readers that scale to fit, such as Inkscape, need them)
        every = _flip(np.concatenate(corners), drawing.height)
        low, high = (*every.min(axis=0).tolist(), 0.0), (*every.max(axis=0).tolist(), 0.0)
        space.dxf.extmin, space.dxf.extmax = low, high
        # set directly: Drawing.update_extents() skips an extent at the origin (a falsy Vec3)
        document.header["$EXTMIN"], document.header["$EXTMAX"] = low, high
    _fix_class_order(document)
    buffer = io.StringIO()
    document.write(buffer)
    return buffer.getvalue().encode()


def _fix_class_order(document: Any) -> None:
    """Register the CLASSES entries in a fixed order before writing: ezdxf adds the classes of
    the entity types in use by iterating a set, whose order follows Python's hash seed."""
    from ezdxf.sections.classes import REQ_R2004, REQUIRED_CLASSES

    for name in REQUIRED_CLASSES.get(document.dxfversion, REQ_R2004):
        document.classes.add_class(name)
    for name in sorted(document.entitydb.dxf_types_in_use()):
        document.classes.add_class(name)


def _flip(points: np.ndarray, height: float) -> np.ndarray:
    """Page points (y down) → DXF points (y up), mm."""
    return np.column_stack([points[:, 0], height - points[:, 1]])


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _nearest_aci(colors: Any, rgb: tuple[int, int, int]) -> int:
    """The AutoCAD colour index closest to ``rgb`` (for programs that ignore true colour); black
    maps to 7, which CAD programs draw black on white."""
    if rgb == (0, 0, 0):
        return 7
    distances = [sum((a - b) ** 2 for a, b in zip(colors.aci2rgb(i), rgb, strict=True)) for i in range(1, 256)]
    return 1 + distances.index(min(distances))


def laser_files(
    sheets: LaserSheets,
    *,
    suffix: str,
    palette: str = "default",
    stroke_width: float = 0.1,
    metadata: dict[str, Any],
    notes: bool = True,
    overview: bool = True,
) -> dict[str, bytes]:
    """One file per sheet named by material and number (``plywood-3mm-1.svg``), the overview of
    every sheet (``overview.svg``, when asked) and the laser report (``laser.json``).
    ``suffix`` is ``svg`` or ``dxf``."""
    if suffix not in ("svg", "dxf"):
        raise ParameterError(f"must be svg or dxf, got {suffix!r}", field="suffix")
    pages = list(zip(sheets.names(), sheets.pages, strict=True))
    if overview:
        pages.append(("overview", sheets.overview()))
    files = {}
    for name, page in pages:
        if suffix == "svg":
            data = svg_bytes(page, palette=palette, stroke_width=stroke_width, metadata=metadata, notes=notes)
        else:
            data = dxf_bytes(page, palette=palette, notes=notes)
        files[f"{name}.{suffix}"] = data
    files["laser.json"] = (json.dumps(sheets.report(), indent=2, ensure_ascii=False) + "\n").encode()
    return files
