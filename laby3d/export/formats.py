"""The format registry: suffix → renderer returning bytes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from laby3d.errors import ParameterError
from laby3d.geometry.laser import LaserOptions
from laby3d.geometry.params import Fabrication
from laby3d.mesh.solid import SolidOptions

if TYPE_CHECKING:
    from laby3d.maze.model import Maze
    from laby3d.mesh.solid import MazeSolid


@dataclass(frozen=True)
class ExportOptions:
    """Everything the outputs depend on besides the maze: pictures and the solid (mm)."""

    solution: bool = False
    heatmap: bool = False
    charset: str = "unicode"
    fabrication: Fabrication = field(default_factory=Fabrication)
    solid: SolidOptions = field(default_factory=SolidOptions)
    laser: LaserOptions = field(default_factory=LaserOptions)
    palette: str = "default"  # laser colours: default or boxes
    stroke_width: float = 0.1  # laser hairline, mm


@dataclass(frozen=True)
class Format:
    """One output format."""

    suffix: str
    description: str
    render: Callable[[Maze, ExportOptions], bytes]


def _maze_file(maze: Maze, options: ExportOptions) -> bytes:
    return maze.to_json().encode()


def _text(maze: Maze, options: ExportOptions) -> bytes:
    return maze.to_ascii(solution=options.solution, charset=options.charset).encode()  # type: ignore[arg-type]


def _picture(fmt: str) -> Callable[[Maze, ExportOptions], bytes]:
    def render(maze: Maze, options: ExportOptions) -> bytes:
        from laby3d.render.pictures import maze_picture

        return maze_picture(maze, fmt, solution=options.solution, heatmap=options.heatmap)

    return render


@lru_cache(maxsize=2)
def solid_for(maze: Maze, fabrication: Fabrication, solid: SolidOptions) -> MazeSolid:
    """The solid of ``maze`` (cached: STL, 3MF and GLB of one maze share it)."""
    from laby3d.mesh.solid import maze_solid

    return maze_solid(maze, fabrication, solid)


def _stl(maze: Maze, options: ExportOptions) -> bytes:
    from laby3d.export.meshes import stl_bytes, stl_header

    body = solid_for(maze, options.fabrication, options.solid).body
    return stl_bytes(body, stl_header(maze, options.fabrication))


def _3mf(maze: Maze, options: ExportOptions) -> bytes:
    from laby3d.export.meshes import stl_header, threemf_bytes

    title = stl_header(maze, options.fabrication).strip()
    return threemf_bytes(solid_for(maze, options.fabrication, options.solid), title)


def _glb(maze: Maze, options: ExportOptions) -> bytes:
    from laby3d.export.meshes import glb_bytes

    return glb_bytes(solid_for(maze, options.fabrication, options.solid))


def _laser_metadata(maze: Maze, options: ExportOptions) -> dict:
    fab, laser = options.fabrication, options.laser
    return {
        "generator": "laby3d",
        "rows": maze.rows,
        "cols": maze.cols,
        "algorithm": maze.algorithm,
        "seed": maze.seed,
        "mode": laser.mode,
        "kerf_mm": laser.kerf,
        "cell_size_mm": fab.cell_size,
        "wall_thickness_mm": fab.wall_thickness,
        "margin_mm": fab.margin,
    }


def _svg(maze: Maze, options: ExportOptions) -> bytes:
    from laby3d.export.laser import svg_bytes
    from laby3d.geometry.laser import laser_drawing

    drawing = laser_drawing(maze, options.fabrication, options.laser)
    return svg_bytes(
        drawing, palette=options.palette, stroke_width=options.stroke_width, metadata=_laser_metadata(maze, options)
    )


def _dxf(maze: Maze, options: ExportOptions) -> bytes:
    from laby3d.export.laser import dxf_bytes
    from laby3d.geometry.laser import laser_drawing

    return dxf_bytes(laser_drawing(maze, options.fabrication, options.laser))


def _html(maze: Maze, options: ExportOptions) -> bytes:
    from laby3d.export.browser import page_html

    return page_html(maze, options.fabrication).encode()


def _js(maze: Maze, options: ExportOptions) -> bytes:
    from laby3d.export.browser import scene_js

    return scene_js(maze, options.fabrication).encode()


def _gif(maze: Maze, options: ExportOptions) -> bytes:
    from laby3d.render.animation import generation_gif

    return generation_gif(maze)


FORMATS: dict[str, Format] = {
    f.suffix: f
    for f in (
        Format(".maze.json", "maze file (JSON, SPEC §2)", _maze_file),
        Format(".txt", "ASCII art (box drawing; --charset ascii for +--+)", _text),
        Format(".png", "picture (matplotlib)", _picture("png")),
        Format(".pdf", "picture (matplotlib)", _picture("pdf")),
        Format(".ps", "picture (matplotlib)", _picture("ps")),
        Format(".gif", "animation of the generation steps", _gif),
        Format(".stl", "printable solid, binary STL (one body)", _stl),
        Format(".3mf", "printable solid, 3MF in mm (base, walls, solution as coloured parts)", _3mf),
        Format(".glb", "printable solid, binary glTF (coloured parts)", _glb),
        Format(".svg", "laser sheet in mm (--laser-mode lines|outline|stack)", _svg),
        Format(".dxf", "laser sheet, DXF in mm, layers CUT/SCORE/ENGRAVE", _dxf),
        Format(".html", "walk-through page for the browser (three.js inlined; works offline)", _html),
        Format(".js", "scene file: the maze data as JavaScript (window.LABY3D_MAZE)", _js),
    )
}


SOLID_SUFFIXES = (".stl", ".3mf", ".glb")


def format_for(path: str) -> Format:
    """The format whose suffix ends ``path`` (longest suffix wins: .maze.json before .json)."""
    name = path.lower()
    for suffix in sorted(FORMATS, key=len, reverse=True):
        if name.endswith(suffix):
            return FORMATS[suffix]
    raise ParameterError(f"output {path!r}: unknown format; suffixes: {', '.join(FORMATS)}")


def render_output(maze: Maze, path: str, options: ExportOptions) -> bytes:
    """The bytes of ``path``'s format for ``maze``."""
    return format_for(path).render(maze, options)
