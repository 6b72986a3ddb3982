"""ASCII art: Unicode box drawing (two characters per cell) or plain ``+--+|``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np

from laby3d.errors import ParameterError
from laby3d.maze.grid import wall_lattice

if TYPE_CHECKING:
    from laby3d.maze.model import Maze

# Junction characters indexed by walls touching the lattice point: up 1, right 2, down 4, left 8.
_BOX = " ╵╶└╷│┌├╴┘─┴┐┤┬┼"


@dataclass(frozen=True)
class _Style:
    horizontal: str
    vertical: str
    mark: str
    width: int


_STYLES = {"unicode": _Style("─", "│", "•", 1), "ascii": _Style("-", "|", "*", 2)}


def maze_to_ascii(
    maze: Maze,
    *,
    solution: bool = False,
    labels: np.ndarray | Sequence[Sequence[object]] | None = None,
    charset: Literal["unicode", "ascii"] = "unicode",
) -> str:
    """The maze as text, one line per lattice row and one per cell row.

    ``solution`` marks the path from entrance to exit; ``labels`` (``rows × cols``) writes a
    label in each cell (e.g. the zone numbers of the class exercise), widening cells to fit.
    """
    if charset not in _STYLES:
        raise ParameterError(f"charset must be 'unicode' or 'ascii', got {charset!r}")
    style = _STYLES[charset]
    grid = maze.grid
    horizontal, vertical = wall_lattice(grid)
    rows, cols = grid.rows, grid.cols
    text_labels = None
    width = style.width
    if labels is not None:
        text_labels = [[str(label) for label in row] for row in np.asarray(labels, dtype=object).tolist()]
        if len(text_labels) != rows or any(len(row) != cols for row in text_labels):
            raise ParameterError(f"labels must be a {rows} × {cols} table")
        width = max(width, *(len(label) for row in text_labels for label in row))
    marked, crossings = _solution_marks(maze) if solution else (set(), set())
    mark = style.mark.center(width)

    up = np.zeros((rows + 1, cols + 1), dtype=np.int8)
    up[1:, :] = vertical
    down = np.zeros_like(up)
    down[:-1, :] = vertical
    left = np.zeros_like(up)
    left[:, 1:] = horizontal
    right = np.zeros_like(up)
    right[:, :-1] = horizontal
    junctions = up | right << 1 | down << 2 | left << 3

    lines = []
    for i in range(rows + 1):
        parts = []
        for j in range(cols + 1):
            code = int(junctions[i, j])
            parts.append(_BOX[code] if charset == "unicode" else ("+" if code else " "))
            if j < cols:
                if horizontal[i, j]:
                    parts.append(style.horizontal * width)
                else:
                    parts.append(mark if ("h", i, j) in crossings else " " * width)
        lines.append("".join(parts).rstrip())
        if i == rows:
            break
        parts = []
        for j in range(cols + 1):
            if vertical[i, j]:
                parts.append(style.vertical)
            else:
                parts.append(style.mark if ("v", i, j) in crossings else " ")
            if j < cols:
                if text_labels is not None:
                    parts.append(text_labels[i][j].center(width))
                else:
                    parts.append(mark if (i, j) in marked else " " * width)
        lines.append("".join(parts).rstrip())
    return "\n".join(lines) + "\n"


def _solution_marks(maze: Maze) -> tuple[set[tuple[int, int]], set[tuple[str, int, int]]]:
    """Cells on the solution, and the wall gaps it crosses as ('h'|'v', i, j) lattice edges."""
    path = maze.solution
    crossings: set[tuple[str, int, int]] = set()
    for (r1, c1), (r2, c2) in zip(path, path[1:], strict=False):
        if r1 == r2:
            crossings.add(("v", r1, max(c1, c2)))
        else:
            crossings.add(("h", max(r1, r2), c1))
    for opening in (maze.entrance, maze.exit):
        if opening is None or opening.side is None:
            continue
        r, c = opening.row, opening.col
        crossings.add({"N": ("h", r, c), "S": ("h", r + 1, c), "W": ("v", r, c), "E": ("v", r, c + 1)}[opening.side])
    return set(path), crossings
