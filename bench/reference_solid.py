"""The library-call reference pipeline for the solid (the benchmark's yardstick).

shapely union of one box per closed wall and per post → trimesh.creation.extrude_polygon →
manifold3d boolean union with the base plate → binary STL by trimesh.
"""

from __future__ import annotations

import numpy as np
import shapely

from laby3d.geometry.params import Fabrication
from laby3d.maze.model import Maze
from laby3d.maze.walls import wall_lattice


def wall_boxes(maze: Maze, fab: Fabrication) -> np.ndarray:
    """``(k, 4)`` boxes (mm): a post per lattice point and a rectangle per closed wall."""
    s, t, rows = fab.cell_size, fab.wall_thickness, maze.rows
    horizontal, vertical = wall_lattice(maze)

    def x(j):
        return fab.margin + t / 2 + np.asarray(j) * s

    def y(i):
        return fab.margin + t / 2 + (rows - np.asarray(i)) * s

    i, j = np.mgrid[0 : rows + 1, 0 : maze.cols + 1]
    posts = np.stack([x(j) - t / 2, y(i) - t / 2, x(j) + t / 2, y(i) + t / 2], axis=-1).reshape(-1, 4)
    i, j = np.nonzero(horizontal)
    across = np.stack([x(j) + t / 2, y(i) - t / 2, x(j + 1) - t / 2, y(i) + t / 2], axis=1)
    i, j = np.nonzero(vertical)
    down = np.stack([x(j) - t / 2, y(i + 1) + t / 2, x(j) + t / 2, y(i) - t / 2], axis=1)
    return np.concatenate([posts, across, down])


def reference_stl(maze: Maze, fab: Fabrication) -> tuple[bytes, int]:
    """(STL bytes, triangle count) by library calls only."""
    import manifold3d
    import trimesh

    walls = shapely.union_all(shapely.box(*wall_boxes(maze, fab).T))
    polygons = walls.geoms if hasattr(walls, "geoms") else [walls]
    pieces = []
    for polygon in polygons:
        mesh = trimesh.creation.extrude_polygon(polygon, fab.wall_height)
        mesh.apply_translation((0, 0, fab.base_thickness))
        pieces.append(mesh)
    width, depth = fab.outer_size(maze.rows, maze.cols)
    plate = trimesh.creation.box((width, depth, fab.base_thickness))
    plate.apply_translation((width / 2, depth / 2, fab.base_thickness / 2))
    manifolds = [
        manifold3d.Manifold(manifold3d.Mesh(np.asarray(m.vertices, np.float32), np.asarray(m.faces, np.uint32)))
        for m in [plate, *pieces]
    ]
    union = manifold3d.Manifold.batch_boolean(manifolds, manifold3d.OpType.Add).to_mesh()
    result = trimesh.Trimesh(union.vert_properties[:, :3], union.tri_verts, process=False)
    return result.export(file_type="stl"), len(result.faces)
