"""Laser formats: SVG (svgwrite) and DXF (ezdxf). Pure: they return bytes."""

from __future__ import annotations

import io
import json
from typing import Any

import numpy as np

from laby3d.errors import ParameterError
from laby3d.geometry.laser import OPERATIONS, Drawing

#: Stroke colour per operation. ``boxes`` follows boxes.py: black outer cut, blue inner cut, green etch.
PALETTES: dict[str, dict[str, str]] = {
    "default": {"engrave": "#000000", "score": "#0000ff", "inner-cut": "#ff0000", "outer-cut": "#ff0000"},
    "boxes": {"engrave": "#00ff00", "score": "#00ff00", "inner-cut": "#0000ff", "outer-cut": "#000000"},
}
NOTES_COLOUR = "#ff0000"


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
    drawing: Drawing, *, palette: str = "default", stroke_width: float = 0.1, metadata: dict[str, Any]
) -> bytes:
    """SVG in millimetres (``viewBox`` = page in mm, no transforms), one Inkscape layer per
    operation in the order engrave, score, inner cuts, outer cuts; no timestamps."""
    import svgwrite

    if palette not in PALETTES:
        raise ParameterError(f"palette must be one of {', '.join(PALETTES)}, got {palette!r}")
    if not (0 < stroke_width <= 1):
        raise ParameterError(f"stroke width must be in (0, 1] mm, got {stroke_width:g}")
    colours = PALETTES[palette]
    width, height = _number(drawing.width), _number(drawing.height)
    document = svgwrite.Drawing(size=(f"{width}mm", f"{height}mm"), viewBox=f"0 0 {width} {height}", debug=False)
    document.attribs["xmlns:inkscape"] = "http://www.inkscape.org/namespaces/inkscape"
    document.set_desc("laby3d maze", json.dumps(metadata, sort_keys=True, ensure_ascii=False))
    if drawing.sheets:
        notes = document.g(id="notes", **{"inkscape:groupmode": "layer", "inkscape:label": "notes (not cut)"})
        for x, y, w, h in drawing.sheets:
            notes.add(
                document.rect(
                    (x, y), (w, h), fill="none", stroke=NOTES_COLOUR, stroke_width=stroke_width, stroke_dasharray="2,2"
                )
            )
        document.add(notes)
    for operation in OPERATIONS:
        strokes = drawing.strokes[operation]
        if not strokes:
            continue
        layer = document.g(id=operation, **{"inkscape:groupmode": "layer", "inkscape:label": operation})
        layer.add(
            document.path(
                d=_path_data(strokes, drawing.closed[operation]),
                fill="none",
                stroke=colours[operation],
                stroke_width=stroke_width,
                stroke_linejoin="miter",
                stroke_linecap="butt",
            )
        )
        document.add(layer)
    buffer = io.StringIO()
    document.write(buffer, pretty=True, indent=1)
    return buffer.getvalue().encode()


DXF_LAYERS = {"engrave": ("ENGRAVE", 7), "score": ("SCORE", 5), "inner-cut": ("CUT", 1), "outer-cut": ("CUT", 1)}


def dxf_bytes(drawing: Drawing) -> bytes:
    """DXF R2010 in millimetres ($INSUNITS = 4), layers CUT, SCORE, ENGRAVE; y up."""
    import ezdxf

    fixed = ezdxf.options.write_fixed_meta_data_for_testing
    ezdxf.options.write_fixed_meta_data_for_testing = True  # no dates or random GUIDs: same bytes
    try:
        return _dxf(ezdxf, drawing)
    finally:
        ezdxf.options.write_fixed_meta_data_for_testing = fixed


def _dxf(ezdxf: Any, drawing: Drawing) -> bytes:
    document = ezdxf.new("R2010", setup=False)
    document.header["$INSUNITS"] = 4
    document.header["$MEASUREMENT"] = 1
    for name, colour in sorted(set(DXF_LAYERS.values())):
        document.layers.add(name, color=colour)
    space = document.modelspace()
    for operation in OPERATIONS:
        layer = DXF_LAYERS[operation][0]
        for points, closed in zip(drawing.strokes[operation], drawing.closed[operation], strict=True):
            flipped = np.column_stack([points[:, 0], drawing.height - points[:, 1]])
            space.add_lwpolyline(flipped.tolist(), close=closed, dxfattribs={"layer": layer})
    buffer = io.StringIO()
    document.write(buffer)
    return buffer.getvalue().encode()
