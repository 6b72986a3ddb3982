"""Independent checks of maze invariants, written without laby3d's own solver."""

from __future__ import annotations

from collections import deque

import numpy as np

from laby3d.maze.model import Maze
from laby3d.maze.sides import SIDE_BITS

STEP = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


def open_neighbours(maze: Maze, row: int, col: int) -> list[tuple[int, int]]:
    """Cells reachable in one step, read from the bit masks (both sides must agree)."""
    result = []
    for side, (dr, dc) in STEP.items():
        r, c = row + dr, col + dc
        if 0 <= r < maze.rows and 0 <= c < maze.cols and maze.grid.cells[row, col] & SIDE_BITS[side]:
            assert maze.grid.cells[r, c] & SIDE_BITS[OPPOSITE[side]], f"one-sided wall at {(row, col)} {side}"
            result.append((r, c))
    return result


def distances(maze: Maze, start: tuple[int, int]) -> dict[tuple[int, int], int]:
    """Steps from ``start`` to every reachable cell, by a plain BFS over :func:`open_neighbours`."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for other in open_neighbours(maze, *cell):
            if other not in seen:
                seen[other] = seen[cell] + 1
                queue.append(other)
    return seen


def assert_perfect(maze: Maze) -> None:
    """Spanning tree: rows·cols − 1 passages, closed walls (rows−1)(cols−1), connected, border closed."""
    rows, cols = maze.rows, maze.cols
    edges = sum(len(open_neighbours(maze, r, c)) for r in range(rows) for c in range(cols)) // 2
    assert edges == rows * cols - 1
    assert 2 * rows * cols - rows - cols - edges == (rows - 1) * (cols - 1)
    seen = {(0, 0)}
    queue = deque([(0, 0)])
    while queue:
        for cell in open_neighbours(maze, *queue.popleft()):
            if cell not in seen:
                seen.add(cell)
                queue.append(cell)
    assert len(seen) == rows * cols, "not connected"
    border = np.zeros_like(maze.grid.cells)
    border[0, :] |= SIDE_BITS["N"]
    border[-1, :] |= SIDE_BITS["S"]
    border[:, 0] |= SIDE_BITS["W"]
    border[:, -1] |= SIDE_BITS["E"]
    expected = np.zeros_like(maze.grid.cells)
    for opening in (maze.entrance, maze.exit):
        if opening is not None and opening.side is not None:
            expected[opening.row, opening.col] |= SIDE_BITS[opening.side]
    assert ((maze.grid.cells & border) == expected).all(), "border open outside entrance and exit"


def assert_solution(maze: Maze) -> None:
    """The solution runs from the entrance to the exit through open walls, without repeats."""
    path = maze.solution
    assert path[0] == (maze.entrance.row, maze.entrance.col)
    assert path[-1] == (maze.exit.row, maze.exit.col)
    assert len(set(path)) == len(path)
    for a, b in zip(path, path[1:], strict=False):
        assert b in open_neighbours(maze, *a), f"solution steps through a wall {a} -> {b}"


def polygon_neighbours(tessellation) -> set[tuple[int, int]]:
    """Pairs of cells whose polygons share a segment (two vertex ids consecutive in both), read
    from the polygons alone: the neighbour rule, independent of the tessellation's edge list."""
    owners: dict[tuple[int, int], list[int]] = {}
    starts, ids = tessellation.polygon_starts, tessellation.polygon_vertices
    for cell in range(tessellation.cell_count):
        ring = ids[starts[cell] : starts[cell + 1]].tolist()
        for u, v in zip(ring, ring[1:] + ring[:1], strict=True):
            owners.setdefault((min(u, v), max(u, v)), []).append(cell)
    return {(min(cells), max(cells)) for cells in owners.values() if len(cells) == 2}


def outline_segments(tessellation) -> set[tuple[int, int]]:
    """Polygon segments that belong to one cell only: the outer boundary, from the polygons."""
    count: dict[tuple[int, int], int] = {}
    starts, ids = tessellation.polygon_starts, tessellation.polygon_vertices
    for cell in range(tessellation.cell_count):
        ring = ids[starts[cell] : starts[cell + 1]].tolist()
        for u, v in zip(ring, ring[1:] + ring[:1], strict=True):
            key = (min(u, v), max(u, v))
            count[key] = count.get(key, 0) + 1
    return {key for key, n in count.items() if n == 1}


def assert_shaped_perfect(maze) -> None:
    """A spanning tree of the shape's cells: every passage joins two cells whose polygons share a
    side, cells − 1 passages, all cells reached by a plain search, no loop (union-find); the
    entrance and exit open walls on the outline."""
    tessellation = maze.tessellation
    passages = [tuple(pair) for pair in maze.passages.tolist()]
    assert set(passages) <= polygon_neighbours(tessellation), "a passage between cells that share no side"
    n = tessellation.cell_count
    assert len(passages) == len(set(passages)) == n - 1
    parent = list(range(n))

    def root(cell: int) -> int:
        while parent[cell] != cell:
            cell = parent[cell]
        return cell

    for a, b in passages:
        ra, rb = root(a), root(b)
        assert ra != rb, f"loop through passage {a}-{b}"
        parent[ra] = rb
    assert len({root(cell) for cell in range(n)}) == 1, "not connected"
    outline = outline_segments(tessellation)
    for opening in (maze.entrance, maze.exit):
        if opening is not None and opening.side is not None:
            wall = tessellation.boundary_wall(tessellation.cell_index(opening.row, opening.col), opening.side)
            chain = tessellation.boundary_vertices[
                tessellation.boundary_starts[wall] : tessellation.boundary_starts[wall + 1]
            ]
            chain = chain.tolist()
            assert {(min(u, v), max(u, v)) for u, v in zip(chain, chain[1:], strict=False)} <= outline


def assert_shaped_solution(maze) -> None:
    """The solution runs from the entrance's cell to the exit's through open walls, without repeats."""
    path = list(maze.solution)
    assert path[0] == (maze.entrance.row, maze.entrance.col)
    assert path[-1] == (maze.exit.row, maze.exit.col)
    assert len(set(path)) == len(path)
    t = maze.tessellation
    open_pairs = {tuple(pair) for pair in maze.passages.tolist()}
    for a, b in zip(path, path[1:], strict=False):
        i, j = t.cell_index(*a), t.cell_index(*b)
        assert (min(i, j), max(i, j)) in open_pairs, f"solution steps through a wall {a} -> {b}"


def tree_distances(maze, start: int) -> dict[int, int]:
    """Steps from cell ``start`` to every cell along the passages, by a plain BFS."""
    neighbours: dict[int, list[int]] = {}
    for a, b in maze.passages.tolist():
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)
    seen = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for other in neighbours.get(cell, []):
            if other not in seen:
                seen[other] = seen[cell] + 1
                queue.append(other)
    return seen
