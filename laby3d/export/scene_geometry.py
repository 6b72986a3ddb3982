"""The walk-through scene's geometry, in mm, from the cell graph of a maze of any shape
(docs/scene-format.md): where the walls stand, the doors, and the tables the page reads.

The tessellation's points (pitch units) are scaled by the cell size and moved by half a wall,
so the outer faces of the walls start at 0. A closed wall is its centre line drawn
``wall_thickness`` wide with flat ends. Where walls meet at an angle the segments are lengthened
so their outer faces meet (a mitre); a free wall end goes on by half a thickness (a square
maze's wall ends on its post); walls in line through a point are one straight run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from laby3d.geometry.params import Fabrication
    from laby3d.maze.model import Maze, Opening

#: How far a wall goes on past a vertex where it ends alone, in wall thicknesses.
FREE_END = 0.5
#: Two walls whose directions differ by less than this (radians) are in line.
IN_LINE = 1e-9


def placed(points: np.ndarray, fab: Fabrication) -> np.ndarray:
    """Pitch-unit points as scene millimetres: scaled by the cell size, moved by half a wall."""
    return np.asarray(points, dtype=np.float64) * fab.cell_size + fab.wall_thickness / 2


def mitred_segments(starts: np.ndarray, ends: np.ndarray, vertex_ids: np.ndarray, half: float) -> np.ndarray:
    """``(S, 4)`` segments ``x0, z0, x1, z1`` from ``starts`` and ``ends`` ``(S, 2)`` (mm), each
    end lengthened so walls ``2 half`` thick with flat ends leave no notch where they meet:
    around each vertex (ids ``vertex_ids`` ``(S, 2)``), the two walls on either side of a gap
    wider than a half turn go on by ``half · tan((gap − 180°) / 2)`` (their outer faces meet); a
    wall alone at its vertex goes on by :data:`FREE_END` thicknesses."""
    along = ends - starts
    unit = along / np.linalg.norm(along, axis=1)[:, None]
    vertex = np.concatenate([vertex_ids[:, 0], vertex_ids[:, 1]])
    leaving = np.concatenate([unit, -unit])  # direction of the wall away from each end's vertex
    angle = np.arctan2(leaving[:, 1], leaving[:, 0])
    order = np.lexsort((angle, vertex))
    grouped, turned = vertex[order], angle[order]
    first = np.flatnonzero(np.r_[True, grouped[1:] != grouped[:-1]])
    size = np.diff(np.r_[first, len(order)])
    group = np.repeat(np.arange(len(first)), size)
    position = np.arange(len(order)) - first[group]
    following = first[group] + (position + 1) % size[group]
    gap = np.where(size[group] == 1, 2 * np.pi, (turned[following] - turned) % (2 * np.pi))
    wide = gap > np.pi + 1e-9
    mitre = np.where(
        size[group] == 1, 2 * FREE_END * half, half * np.tan(np.minimum(gap, 1.99 * np.pi) / 2 - np.pi / 2)
    )
    extension = np.zeros(len(order))
    extension[order[wide]] = mitre[wide]
    extension[order[following[wide]]] = np.maximum(extension[order[following[wide]]], mitre[wide])
    count = len(starts)
    return np.hstack([starts - unit * extension[:count, None], ends + unit * extension[count:, None]])


def straight_runs(segments: np.ndarray, vertex_ids: np.ndarray) -> np.ndarray:
    """``(R, 4)``: the mitred ``segments`` ``(S, 4)`` (mm, between vertices ``vertex_ids``
    ``(S, 2)``) joined where two of them go on in line through a vertex, each run from one far
    end to the other, in the order of each run's first segment. Two walls in line at a vertex
    leave no gap wider than a half turn there, so neither was lengthened: the run covers
    exactly what its segments cover."""
    count = len(segments)
    along = segments[:, 2:] - segments[:, :2]
    heading = np.arctan2(along[:, 1], along[:, 0]) % np.pi  # the line's direction, either way
    heading[heading > np.pi - IN_LINE] = 0.0
    ends = np.arange(2 * count) % count  # the segment of each end: starts, then ends
    vertex = np.concatenate([vertex_ids[:, 0], vertex_ids[:, 1]])
    line = np.concatenate([heading, heading])
    order = np.lexsort((line, vertex))
    same = (vertex[order][1:] == vertex[order][:-1]) & (np.diff(line[order]) < IN_LINE)
    first, second = ends[order][:-1][same], ends[order][1:][same]
    from laby3d.unionfind import component_roots

    root = component_roots(count, first, second)
    runs, run_of = np.unique(root, return_inverse=True)
    direction = along[runs[run_of]]  # each run's direction: its first segment's
    points = np.concatenate([segments[:, :2], segments[:, 2:]])
    reach = np.einsum("ij,ij->i", points, np.concatenate([direction, direction]))
    owner = np.concatenate([run_of, run_of])
    low = np.lexsort((reach, owner))
    start = low[np.r_[True, owner[low][1:] != owner[low][:-1]]]
    stop = low[np.r_[owner[low][1:] != owner[low][:-1], True]]
    return np.hstack([points[start], points[stop]])


def wall_segments(maze: Maze, fab: Fabrication, *, runs: bool = True) -> np.ndarray:
    """``(S, 4)`` mm: the closed walls (interior, then the outline but the doors), mitred where
    they meet (:func:`mitred_segments`), as straight runs (:func:`straight_runs`) or, with
    ``runs`` False, segment by segment (version 4)."""
    from laby3d.maze.walls import closed_walls

    walls = closed_walls(maze)
    ids = walls.segments()
    points = placed(walls.vertices, fab)
    segments = mitred_segments(points[ids[:, 0]], points[ids[:, 1]], ids, fab.wall_thickness / 2)
    return straight_runs(segments, ids) if runs else segments


def door_segments(maze: Maze, opening: Opening, fab: Fabrication) -> np.ndarray:
    """``(k, 4)`` mm: the boundary wall ``opening`` opens, as centre segments (not mitred)."""
    wall = maze.boundary_wall_of(opening)
    points = placed(maze.tessellation.boundary_polyline(wall), fab)  # type: ignore[arg-type]
    return np.hstack([points[:-1], points[1:]])


def floor_ids(maze: Maze) -> list[int]:
    """Point ids of the outline, once round: the boundary walls of its first loop (each wall's
    last point is the next's first; a cut board's holes are floored too, their walls keep the
    walker out)."""
    t = maze.tessellation
    starts = t.boundary_starts[t.loop_starts[0] : t.loop_starts[1] + 1]
    loop = [t.boundary_vertices[a : b - 1] for a, b in zip(starts[:-1], starts[1:], strict=True)]
    return np.concatenate(loop).tolist()


__all__ = [
    "door_segments",
    "floor_ids",
    "mitred_segments",
    "placed",
    "straight_runs",
    "wall_segments",
]
