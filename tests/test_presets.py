"""Presets: named bundles of options under the job's own values, and the time they promise on a
real slicer (PrusaSlicer's own estimate with the vendor's MINI profile)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import require_tool
from slicer import require_profiles, slice_model, vendor_config

import laby3d
from laby3d.options.build import validated_job
from laby3d.options.presets import PRESETS


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_preset_sits_under_the_jobs_own_values(name: str) -> None:
    job = validated_job({"preset": name, "maze": {"rows": 7}, "formats": ["stl"]})
    assert job.maze.rows == 7  # the job's value wins
    for section, values in PRESETS[name].items():
        for key, value in values.items():
            if (section, key) != ("maze", "rows"):
                assert getattr(getattr(job, section), key) == value


@pytest.mark.slow
def test_a_quick_10x10_prints_in_an_hour_and_a_half_on_a_mini(tmp_path: Path) -> None:
    slicer = require_tool("prusa-slicer")
    require_profiles()
    maze = laby3d.generate(10, 10, algorithm="wilson", seed=1)
    model = tmp_path / "quick.stl"
    model.write_bytes(laby3d.render(maze, "stl", preset="quick"))
    sliced = slice_model(slicer, model, vendor_config("mini", tmp_path / "mini.ini"), tmp_path / "quick.gcode")
    assert sliced.seconds <= 90 * 60, f"PrusaSlicer says {sliced.seconds / 60:.0f} min"


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_preset_takes_the_margin_its_markers_need_and_says_so(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--preset quick --markers`` was refused (the preset's margin is 0): the preset takes the
    4 mm the arrows need, the solid has them, and the run says so; a margin typed beside it is the
    user's and is refused as typed."""
    from laby3d.cli import main

    stl = tmp_path / "m.stl"
    assert main(["generate", "--preset", name, "--markers", "--seed", "2", "-o", str(stl)]) == 0
    out = capsys.readouterr().out
    assert f"warning: the markers need margin >= 4 mm: preset {name} takes 4 mm" in out
    side = 2 * 4 + 10 * PRESETS[name]["print"]["cell_size"] + PRESETS[name]["print"]["wall_thickness"]
    assert f"solid: {side:g} × {side:g}" in out  # the plate grew by the margin on each side
    assert main(["generate", "--preset", name, "--markers", "--margin", "2", "-o", str(stl)]) == 2
    assert "--markers need margin >= 4 mm beside the openings, got 2" in capsys.readouterr().err
