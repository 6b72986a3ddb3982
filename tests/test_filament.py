"""The filament estimate for typical slicer settings: a closed form on simple solids, and
PrusaSlicer's own figure with the vendor's profiles (slow: it slices)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import require_tool
from slicer import require_profiles, slice_model, vendor_config
from solidcheck import typical_volume

import laby3d
from laby3d.export.meshes import stl_bytes
from laby3d.filament import SlicerSettings
from laby3d.geometry.params import Fabrication
from laby3d.mesh.solid import MazeSolid, SolidOptions, maze_solid


def _solid(rows: int, cols: int, fab: Fabrication, options: SolidOptions | None = None) -> MazeSolid:
    return maze_solid(laby3d.generate(rows, cols, seed=1), fab, options or SolidOptions())


def test_thin_walls_on_a_thin_base_print_solid() -> None:
    # 1.6 mm walls are narrower than two perimeter bands; a 2 mm base is 4 bottom + 6 top layers.
    solid = _solid(6, 6, Fabrication())
    assert typical_volume(solid) == pytest.approx(solid.body.volume(), rel=1e-9)


def test_a_thick_base_is_sparse_between_its_shells() -> None:
    # A 5 mm base: sparse from the bottom shell (0.8 mm) to the floor's top shell (5 − 1.2 mm),
    # everywhere inside the perimeter band along the plate's edge (2 lines of 0.45 mm).
    fab = Fabrication(base_thickness=5)
    solid = _solid(6, 6, fab)
    settings = SlicerSettings()
    width, depth = fab.outer_size(6, 6)
    band = 0.45 + (0.45 - 0.2 * (1 - 3.141592653589793 / 4))
    sparse = (width - 2 * band) * (depth - 2 * band) * (5 - 0.8 - 1.2)
    expected = solid.body.volume() - (1 - settings.infill) * sparse
    assert typical_volume(solid) == pytest.approx(expected, rel=0.01)


CASES = {
    "default 8x8": (8, 8, Fabrication(), SolidOptions()),
    "base 5 mm": (8, 8, Fabrication(base_thickness=5), SolidOptions()),
    "walls 4 mm": (6, 6, Fabrication(wall_thickness=4, cell_size=12), SolidOptions()),
    "walls 3 mm, base 4": (
        10,
        10,
        Fabrication(base_thickness=4, wall_thickness=3, cell_size=12, wall_height=12),
        SolidOptions(),
    ),
    "configs/printing.yaml ball maze": (
        14,
        14,
        Fabrication(cell_size=9, wall_thickness=1.2, wall_height=10, base_thickness=2.4, margin=4),
        SolidOptions(solution="groove"),
    ),
    "configs/classroom.yaml name": (12, 12, Fabrication(margin=6), SolidOptions(label="Chloé")),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES)
def test_estimate_within_10_percent_of_prusaslicer(tmp_path: Path, case: str) -> None:
    slicer = require_tool("prusa-slicer")
    require_profiles()
    rows, cols, fab, options = CASES[case]
    solid = _solid(rows, cols, fab, options)
    model = tmp_path / "maze.stl"
    model.write_bytes(stl_bytes(solid.body, " " * 80))
    config = vendor_config("mini", tmp_path / "mini.ini", skirts="0")  # the model's filament only
    sliced = slice_model(slicer, model, config, tmp_path / "maze.gcode")
    assert typical_volume(solid) / 1000 == pytest.approx(sliced.filament_cm3, rel=0.10)
