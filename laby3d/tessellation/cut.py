"""Cutting a board to a set of its cells (an outline), so the cells make one maze.

An outline keeps the cells whose centre it holds (:mod:`laby3d.geometry.outlines`). Two things
can stop those cells from making one maze, and are mended here, the same way for every shape:

- they fall apart into pieces (the letters of a word, two lobes of a shape): each piece is joined
  to the others by the shortest run of board cells between them (the pieces nearest first, the
  cells of a shortest path in the board's graph, ties to the lowest indices);
- two cells touch at a corner only, with no cell of the maze between them there (a pinch: the
  boundary would cross itself at that vertex, which no wall, plate or sheet can follow): every
  board cell around that vertex joins the maze.

:func:`cut_cells` does both, until neither is left. Everything is in board cell indices.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

import numpy as np

from laby3d.unionfind import component_roots

if TYPE_CHECKING:
    from laby3d.tessellation.base import Tessellation


def cut_cells(board: Tessellation, keep: np.ndarray) -> np.ndarray:
    """The board cell indices (increasing) of the maze that ``keep`` ``(board cells,)`` bool
    asks for: joined into one piece and without pinches."""
    keep = np.asarray(keep, dtype=bool).copy()
    while True:
        joined = _joined(board, keep)
        mended = _without_pinches(board, joined)
        if np.array_equal(mended, keep):
            return np.flatnonzero(keep)
        keep = mended


def pieces(board: Tessellation, keep: np.ndarray) -> int:
    """How many pieces the cells of ``keep`` fall into (cells joined through shared walls)."""
    cells = np.flatnonzero(keep)
    if not len(cells):
        return 0
    edges = board.edges
    both = keep[edges[:, 0]] & keep[edges[:, 1]]
    compact = np.full(board.cell_count, -1, dtype=np.int64)
    compact[cells] = np.arange(len(cells))
    pairs = compact[edges[both]]
    return len(np.unique(component_roots(len(cells), pairs[:, 0], pairs[:, 1])))


def _joined(board: Tessellation, keep: np.ndarray) -> np.ndarray:
    """``keep`` with its pieces joined: from the piece of its lowest cell, a breadth-first search
    over the board finds the nearest other piece; the path's cells join; again until one piece."""
    keep = keep.copy()
    indptr, neighbours, _ = board.graph.adjacency
    while pieces(board, keep) > 1:
        cells = np.flatnonzero(keep)
        edges = board.edges
        both = keep[edges[:, 0]] & keep[edges[:, 1]]
        compact = np.full(board.cell_count, -1, dtype=np.int64)
        compact[cells] = np.arange(len(cells))
        pairs = compact[edges[both]]
        roots = component_roots(len(cells), pairs[:, 0], pairs[:, 1])
        piece = np.zeros(board.cell_count, dtype=bool)
        piece[cells[roots == roots[0]]] = True
        parent = np.full(board.cell_count, -2, dtype=np.int64)
        frontier = deque(int(cell) for cell in np.flatnonzero(piece))
        for cell in frontier:
            parent[cell] = -1
        reached = -1
        while frontier and reached < 0:
            cell = frontier.popleft()
            for other in neighbours[indptr[cell] : indptr[cell + 1]].tolist():
                if parent[other] != -2:
                    continue
                parent[other] = cell
                if keep[other]:  # another piece
                    reached = other
                    break
                frontier.append(other)
        cell = int(parent[reached])
        while cell >= 0 and not piece[cell]:
            keep[cell] = True
            cell = int(parent[cell])
    return keep


def _without_pinches(board: Tessellation, keep: np.ndarray) -> np.ndarray:
    """``keep`` with every board cell around a pinch vertex added: a vertex where more than one
    run of the kept cells' boundary begins (their polygons meet there at a corner only)."""
    starts = board.polygon_starts
    ids = board.polygon_vertices.astype(np.int64)
    owner = np.repeat(np.arange(board.cell_count), np.diff(starts))
    following = np.arange(1, len(ids) + 1)
    following[starts[1:] - 1] = starts[:-1]
    first, last = ids, ids[following]
    kept = keep[owner]
    vertices = len(board.vertices)
    key = np.minimum(first, last) * vertices + np.maximum(first, last)
    shared = np.zeros(len(ids), dtype=bool)  # a kept polygon's segment that another kept polygon has
    kept_segments = np.flatnonzero(kept)
    unique, counts = np.unique(key[kept_segments], return_counts=True)
    twice = unique[counts > 1]
    shared[kept_segments] = np.isin(key[kept_segments], twice)
    boundary = kept & ~shared
    begins = np.bincount(first[boundary], minlength=vertices)
    pinched = np.flatnonzero(begins > 1)
    if not len(pinched):
        return keep
    around = np.unique(owner[np.isin(first, pinched)])
    mended = keep.copy()
    mended[around] = True
    return mended
