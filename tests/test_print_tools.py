"""The files pass the tools makers use: admesh, manifold3d and a real PrusaSlicer slice.

These skip when a tool is missing, and fail instead under LABY3D_REQUIRE_TOOLS=1 (CI).
"""

from __future__ import annotations

import re
import subprocess
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

import numpy as np
import pytest
from conftest import require_tool
from shapedcheck import SHAPED_CASES
from solidcheck import SOLID_CASES, case_solid, load_3mf_parts, repair_counters, write_solid

CASES = [*SOLID_CASES, *SHAPED_CASES]
#: What PrusaSlicer slices: every square case, and one theta, hex and triangle maze with parts and
#: marks (5–9 s each: slow; test_prusaslicer_loads_every_shape_without_repair loads them all).
SLICED = [
    *SOLID_CASES,
    *(
        pytest.param(case, marks=pytest.mark.slow)
        for case in ("theta-groove-label", "hex-ridge-markers", "triangle-groove-label")
    ),
]


def prusaslicer_info(slicer: str, path: Path) -> str:
    """``prusa-slicer --info`` of ``path``: the model loads, with no repair and manifold."""
    info = subprocess.run([slicer, "--loglevel", "1", "--info", str(path)], capture_output=True, text=True, timeout=300)
    assert info.returncode == 0 and "number_of_facets" in info.stdout, info.stderr[-500:]
    assert repair_counters(info.stdout) == {}
    assert "manifold = no" not in info.stdout
    return info.stdout


@pytest.mark.parametrize("case", CASES)
def test_admesh_finds_no_defect(tmp_path: Path, case: str) -> None:
    admesh = require_tool("admesh")
    out = subprocess.run(
        [admesh, "-e", "-d", str(write_solid(tmp_path, case, ".stl"))], capture_output=True, text=True, errors="replace"
    )
    assert out.returncode == 0, out.stderr
    counts = dict(
        re.findall(
            r"^(Degenerate facets|Facets reversed|Backwards edges|Total disconnected facets)\s*:\s*(\d+)",
            out.stdout,
            re.M,
        )
    )
    assert counts and all(value == "0" for value in counts.values()), out.stdout
    assert re.search(r"Number of parts\s*:\s*1\b", out.stdout), out.stdout


@pytest.mark.parametrize("case", CASES)
def test_manifold3d_accepts_every_part(tmp_path: Path, case: str) -> None:
    import manifold3d

    for name, part in load_3mf_parts(write_solid(tmp_path, case, ".3mf")).items():
        solid = manifold3d.Manifold(
            manifold3d.Mesh(
                vert_properties=np.asarray(part.vertices, dtype=np.float32),
                tri_verts=np.asarray(part.faces, dtype=np.uint32),
            )
        )
        assert solid.status() == manifold3d.Error.NoError, name
        assert solid.volume() == pytest.approx(part.volume, rel=1e-5), name


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
@pytest.mark.parametrize("suffix", [".stl", ".3mf"])
@pytest.mark.parametrize("case", SLICED)
def test_prusaslicer_loads_without_repair_and_slices(tmp_path: Path, case: str, suffix: str) -> None:
    slicer = require_tool("prusa-slicer")
    path = write_solid(tmp_path, case, suffix)
    info = prusaslicer_info(slicer, path)
    sizes = [float(z) for z in re.findall(r"^size_z = (\S+)", info, re.M)]
    assert max(sizes) == pytest.approx(10.0, abs=1e-3)  # one object, parts kept in place (not dropped to the bed)
    gcode = tmp_path / "out.gcode"
    sliced = subprocess.run(
        [slicer, "--loglevel", "1", "--export-gcode", "--output", str(gcode), str(path)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert sliced.returncode == 0, sliced.stderr[-500:]
    text = gcode.read_text()
    heights = [float(z) for z in re.findall(r"^;Z:(\S+)", text, re.M)]
    assert heights and max(heights) == pytest.approx(10.0, abs=0.31)  # the wall tops print
    assert "empty layer" not in sliced.stdout + sliced.stderr


@pytest.mark.parametrize("suffix", [".stl", ".3mf"])
@pytest.mark.parametrize("case", SHAPED_CASES)
def test_prusaslicer_loads_every_shape_without_repair(tmp_path: Path, case: str, suffix: str) -> None:
    """Every theta, hex and triangle case loads in PrusaSlicer with zero repairs, as one object
    of the solid's size (the slicing itself: the slow cases above)."""
    solid = case_solid(case)
    info = prusaslicer_info(require_tool("prusa-slicer"), write_solid(tmp_path, case, suffix))
    low, high = solid.body.bounds()
    sizes = {axis: float(value) for axis, value in re.findall(r"^size_([xyz]) = (\S+)", info, re.M)}
    assert [sizes["x"], sizes["y"], sizes["z"]] == pytest.approx(list(high - low), abs=1e-3)


def _volume_extruders(path: Path) -> dict[str, str]:
    """Part name → extruder metadata of PrusaSlicer's volume list in a 3MF."""
    with zipfile.ZipFile(path) as archive:
        config = ET.fromstring(archive.read("Metadata/Slic3r_PE_model.config"))
    return {
        volume.find("metadata[@key='name']").get("value"): volume.find("metadata[@key='extruder']").get("value")
        for volume in config.iter("volume")
    }


def test_prusaslicer_keeps_each_parts_extruder(tmp_path: Path) -> None:
    slicer = require_tool("prusa-slicer")
    path = write_solid(tmp_path, "label", ".3mf")
    saved = tmp_path / "saved.3mf"
    out = subprocess.run(
        [slicer, "--loglevel", "1", "--export-3mf", "--dont-arrange", "--output", str(saved), str(path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-500:]
    extruders = _volume_extruders(saved)  # what PrusaSlicer understood, as it writes it back
    assert extruders == _volume_extruders(path)
    assert len(set(extruders.values())) == 3  # base, walls and the embossed label apart
