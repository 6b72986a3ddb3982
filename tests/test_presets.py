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
