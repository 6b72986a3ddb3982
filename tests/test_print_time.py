"""The print-time estimate against PrusaSlicer's own G-code estimate, with the vendor profiles
the model was fitted to, on mazes it was not fitted to (slow: it slices)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import require_tool
from slicer import require_profiles, slice_model, vendor_config

import laby3d
from laby3d.export.meshes import stl_bytes
from laby3d.filament import print_work
from laby3d.geometry.params import Fabrication
from laby3d.mesh.solid import SolidOptions, maze_solid
from laby3d.print_time import TIME_MODELS

# The configs' mazes and the README's defaults (the fit used random mazes with other seeds).
MAZES = {
    "default 5x5": (5, 5, Fabrication(), SolidOptions()),
    "default 9x7": (9, 7, Fabrication(), SolidOptions()),
    "classroom practice 8x8": (8, 8, Fabrication(margin=6), SolidOptions(label="Ana")),
    "classroom key 12x12": (12, 12, Fabrication(margin=6), SolidOptions(label="KEY", solution="ridge")),
    "printing.yaml ball maze 10x10": (
        10,
        10,
        Fabrication(cell_size=9, wall_thickness=1.2, wall_height=10, base_thickness=2.4, margin=4),
        SolidOptions(solution="groove"),
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("printer", sorted(TIME_MODELS))
@pytest.mark.parametrize("maze", MAZES)
def test_print_time_within_20_percent_of_prusaslicer(tmp_path: Path, printer: str, maze: str) -> None:
    slicer = require_tool("prusa-slicer")
    require_profiles()
    rows, cols, fab, options = MAZES[maze]
    solid = maze_solid(laby3d.generate(rows, cols, seed=3), fab, options)
    model = tmp_path / "maze.stl"
    model.write_bytes(stl_bytes(solid.body, " " * 80))
    config = vendor_config(printer, tmp_path / f"{printer}.ini")  # with the profile's skirt
    sliced = slice_model(slicer, model, config, tmp_path / "maze.gcode")
    assert TIME_MODELS[printer].seconds(print_work(solid)) == pytest.approx(sliced.seconds, rel=0.20)
