"""The format registry: suffix → renderer returning bytes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from laby3d.errors import ParameterError

if TYPE_CHECKING:
    from laby3d.maze.model import Maze


@dataclass(frozen=True)
class ExportOptions:
    """What the pictures show; later issues add the solid's and the sheet's parameters."""

    solution: bool = False
    heatmap: bool = False
    charset: str = "unicode"


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
    )
}


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
