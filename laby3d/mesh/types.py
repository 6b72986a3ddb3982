"""A plain triangle mesh: vertices in mm and outward-wound faces."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np


@dataclass(frozen=True)
class Mesh:
    """``vertices`` ``(n, 3)`` float64 mm; ``faces`` ``(m, 3)`` int64, counter-clockwise seen from outside."""

    vertices: np.ndarray
    faces: np.ndarray

    @property
    def triangles(self) -> np.ndarray:
        """``(m, 3, 3)`` corner coordinates, mm."""
        return np.take(self.vertices, self.faces.ravel(), axis=0).reshape(-1, 3, 3)

    def normals(self, corners: np.ndarray | None = None) -> np.ndarray:
        """``(m, 3)`` unit normals (``corners``: :attr:`triangles`, when already at hand)."""
        corners = self.triangles if corners is None else corners
        cross = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
        return cross / np.linalg.norm(cross, axis=1, keepdims=True)

    def volume(self) -> float:
        """Enclosed volume, mm³ (divergence theorem; positive for outward winding)."""
        corners = self.triangles
        a, b, c = corners[:, 0], corners[:, 1], corners[:, 2]
        return float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6.0)

    def is_closed(self) -> bool:
        """True when every edge is used exactly once in each direction: watertight, manifold and
        consistently wound. Found once per mesh (the mesher checks its result, the printability
        report reads it): a mesh's arrays are not changed once it is made."""
        return self._closed

    @cached_property
    def _closed(self) -> bool:
        a = self.faces.ravel()
        b = self.faces[:, [1, 2, 0]].ravel()
        n = len(self.vertices)
        # Undirected edge key with the direction in the lowest bit: each key must appear exactly
        # twice, once per direction, and never more.
        keys = np.sort((np.minimum(a, b) * n + np.maximum(a, b)) * 2 + (a < b))
        if len(keys) % 2 or not ((keys[0::2] % 2 == 0).all() and (keys[1::2] == keys[0::2] + 1).all()):
            return False
        return not (keys[2::2] <= keys[1:-1:2]).any()

    def face_areas(self) -> np.ndarray:
        """``(m,)`` triangle areas, mm²."""
        a, b, c = (self.vertices[self.faces[:, k]] for k in range(3))
        u, v = b - a, c - a
        cross = (
            (u[:, 1] * v[:, 2] - u[:, 2] * v[:, 1]) ** 2
            + (u[:, 2] * v[:, 0] - u[:, 0] * v[:, 2]) ** 2
            + (u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0]) ** 2
        )
        return np.sqrt(cross) / 2

    def bounds(self) -> np.ndarray:
        """``(2, 3)`` minimum and maximum corner, mm."""
        return np.stack([self.vertices.min(axis=0), self.vertices.max(axis=0)])
