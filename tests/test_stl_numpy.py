"""The STL files as numpy-stl reads them (a reader that is neither laby3d's nor trimesh's):
closed with consistent winding, unit normals that match the triangles, the solid's size, and
the volume of a perfect maze's walls counted from the maze's own rule."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import laby3d
from laby3d.cli import main


@pytest.mark.parametrize(
    ("rows", "cols", "flags"),
    [
        (5, 5, []),
        (9, 7, ["--margin", "6"]),
        (12, 4, ["--cell-size", "8", "--wall-thickness", "1.2", "--base-thickness", "1.2"]),
    ],
)
def test_numpy_stl_reads_a_closed_solid_of_the_analytic_volume(
    tmp_path: Path, rows: int, cols: int, flags: list[str]
) -> None:
    from stl import mesh

    path = tmp_path / "m.stl"
    assert main(["generate", "--rows", str(rows), "--cols", str(cols), "--seed", "4", *flags, "-o", str(path)]) == 0
    solid = mesh.Mesh.from_file(str(path), calculate_normals=False)  # the normals as written
    assert solid.is_closed(exact=True)

    stored = np.array(solid.normals, dtype=float)
    solid.update_normals()
    computed = solid.get_unit_normals()
    assert np.allclose(np.linalg.norm(stored, axis=1), 1, atol=1e-5)  # unit normals: no repair in slicers
    assert np.allclose(stored, computed, atol=1e-4)

    values = dict(zip(flags[::2], map(float, flags[1::2]), strict=True))
    cell, wall = values.get("--cell-size", 10.0), values.get("--wall-thickness", 1.6)
    base, margin, height = values.get("--base-thickness", 2.0), values.get("--margin", 0.0), 8.0
    width, depth = cols * cell + wall + 2 * margin, rows * cell + wall + 2 * margin
    assert np.allclose(solid.min_, 0, atol=1e-4) and np.allclose(solid.max_, [width, depth, base + height], atol=1e-4)

    # A perfect maze: every wall of the grid, less one per passage (cells − 1) and the two openings.
    walls = rows * (cols + 1) + cols * (rows + 1) - (rows * cols - 1) - 2
    footprint = (rows + 1) * (cols + 1) * wall**2 + walls * (cell - wall) * wall
    volume, _, _ = solid.get_mass_properties()
    assert volume == pytest.approx(width * depth * base + height * footprint, rel=1e-6)
    assert laby3d.generate(rows, cols, seed=4).cell_count == rows * cols
