"""The 3MF and GLB files read back in the reference readers: lib3mf (the 3MF Consortium's reader,
strict mode) and the Khronos glTF validator (npm ``gltf-validator``, run with node).

The validator is looked up in ``$GLTF_VALIDATOR_DIR/node_modules/gltf-validator`` (default
``~/.cache/gltf-validator``; ``.ci/run`` installs it there). Missing tools skip, or fail under
LABY3D_REQUIRE_TOOLS=1.
"""

from __future__ import annotations

import io
import json
import os
import struct
import subprocess
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

import numpy as np
import pytest
import trimesh
from conftest import require_tool
from shapedcheck import SHAPED_CASES
from solidcheck import SOLID_CASES, case_solid, write_solid

from laby3d.export.meshes import glb_bytes, threemf_bytes

CASES = [*SOLID_CASES, *SHAPED_CASES]
HOSTILE_TITLE = 'maze "quoted" <b>&amp; \x00 nul \x1b esc \ud800 lone \ufffe end'


def _lib3mf_model(path: Path):
    lib3mf = pytest.importorskip("lib3mf", reason="lib3mf is not installed (pip install lib3mf)")
    model = lib3mf.get_wrapper().CreateModel()
    reader = model.QueryReader("3mf")
    reader.SetStrictModeActive(True)
    reader.ReadFromFile(str(path))  # raises on any violation in strict mode
    warnings = [reader.GetWarning(i) for i in range(reader.GetWarningCount())]
    assert warnings == []
    assert model.GetUnit() == lib3mf.ModelUnit.MilliMeter
    return model


def _mesh_objects(model) -> list:
    objects = model.GetMeshObjects()
    found = []
    while objects.MoveNext():
        found.append(objects.GetCurrentMeshObject())
    return found


@pytest.mark.parametrize("case", CASES)
def test_lib3mf_reads_every_part_and_colour_in_strict_mode(tmp_path: Path, case: str) -> None:
    path = write_solid(tmp_path, case, ".3mf")
    model = _lib3mf_model(path)
    (mesh,) = _mesh_objects(model)
    assert mesh.IsManifoldAndOriented()
    groups = model.GetBaseMaterialGroups()
    assert groups.MoveNext()
    group = groups.GetCurrentBaseMaterialGroup()
    ids = list(group.GetAllPropertyIDs())
    names = [group.GetName(i) for i in ids]
    colours = [(c.Red, c.Green, c.Blue, c.Alpha) for c in map(group.GetDisplayColor, ids)]
    ranges = _prusa_triangle_ranges(path)
    assert names == list(ranges) == list(case_solid(case).parts)
    assert len(set(colours)) == len(colours)  # every part tells apart from the others
    assert mesh.GetTriangleCount() == sum(last - first + 1 for first, last in ranges.values())
    # Each triangle's material is its part's: the two readings of the file agree.
    materials = [ids.index(p.PropertyIDs[0]) for p in mesh.GetAllTriangleProperties()]
    expected = np.repeat(np.arange(len(ranges)), [last - first + 1 for first, last in ranges.values()])
    assert materials == expected.tolist()


def _prusa_triangle_ranges(path: Path) -> dict[str, tuple[int, int]]:
    """Part name → (first, last) triangle of PrusaSlicer's volume list, read with ElementTree."""
    with zipfile.ZipFile(path) as archive:
        config = ET.fromstring(archive.read("Metadata/Slic3r_PE_model.config"))
    return {
        volume.find("metadata[@key='name']").get("value"): (int(volume.get("firstid")), int(volume.get("lastid")))
        for volume in config.iter("volume")
    }


def test_lib3mf_reads_a_title_with_markup_and_control_characters(tmp_path: Path) -> None:
    path = tmp_path / "hostile.3mf"
    path.write_bytes(threemf_bytes(case_solid("plain"), HOSTILE_TITLE))
    (mesh,) = _mesh_objects(_lib3mf_model(path))
    kept = 'maze "quoted" <b>&amp; \ufffd nul \ufffd esc \ufffd lone \ufffd end'
    assert mesh.GetName() == kept
    with zipfile.ZipFile(path) as archive:
        config = ET.fromstring(archive.read("Metadata/Slic3r_PE_model.config"))
    assert config.find("object/metadata[@key='name']").get("value") == kept


def test_3mf_uses_core_namespace_materials_and_gives_prusaslicer_extruders(tmp_path: Path) -> None:
    path = write_solid(tmp_path, "label", ".3mf")
    with zipfile.ZipFile(path) as archive:
        model = ET.fromstring(archive.read("3D/3dmodel.model"))
        config = ET.fromstring(archive.read("Metadata/Slic3r_PE_model.config"))
    core = "{http://schemas.microsoft.com/3dmanufacturing/core/2015/02}"
    assert model.find(f"{core}resources/{core}basematerials") is not None
    extruders = {
        volume.find("metadata[@key='name']").get("value"): int(volume.find("metadata[@key='extruder']").get("value"))
        for volume in config.iter("volume")
    }
    assert set(extruders) == {"base", "walls", "label"}
    assert extruders["base"] != extruders["walls"] and extruders["walls"] != extruders["label"]
    assert min(extruders.values()) == 1


@pytest.mark.parametrize("case", CASES)
def test_3mf_mesh_read_back_with_elementtree_is_the_solid(case: str) -> None:
    """Every part's vertices (9 significant digits) and triangles, in order, with its material:
    the mesh text is formatted without ElementTree, so an XML parser reads it back here."""
    solid = case_solid(case)
    with zipfile.ZipFile(io.BytesIO(threemf_bytes(solid, "t"))) as archive:
        model = ET.fromstring(archive.read("3D/3dmodel.model"))
    core = "{http://schemas.microsoft.com/3dmanufacturing/core/2015/02}"
    vertices = np.array([[float(v.get(a)) for a in "xyz"] for v in model.iter(f"{core}vertex")])
    triangles = [
        [int(t.get(a)) for a in ("v1", "v2", "v3", "p1")] + [t.get("pid")] for t in model.iter(f"{core}triangle")
    ]
    parts = list(solid.parts.values())
    assert np.allclose(vertices, np.concatenate([p.vertices for p in parts]), rtol=1e-8, atol=1e-9)
    offsets = np.cumsum([0] + [len(p.vertices) for p in parts])
    expected = [
        [*(face + offset).tolist(), index, "1"]
        for index, (part, offset) in enumerate(zip(parts, offsets, strict=False))
        for face in part.faces
    ]
    assert triangles == expected


@pytest.mark.parametrize("case", CASES)
def test_3mf_and_glb_bytes_are_deterministic(case: str) -> None:
    assert threemf_bytes(case_solid(case), "t") == threemf_bytes(case_solid(case), "t")
    assert glb_bytes(case_solid(case)) == glb_bytes(case_solid(case))


def _validator() -> tuple[str, Path]:
    """(node, the folder holding node_modules/gltf-validator)."""
    node = require_tool("node")
    folder = Path(os.environ.get("GLTF_VALIDATOR_DIR", Path.home() / ".cache" / "gltf-validator"))
    if not (folder / "node_modules" / "gltf-validator").is_dir():
        message = f"gltf-validator is not installed in {folder} (npm install --prefix {folder} gltf-validator)"
        if os.environ.get("LABY3D_REQUIRE_TOOLS") == "1":
            pytest.fail(f"LABY3D_REQUIRE_TOOLS=1 but {message}")
        pytest.skip(message)
    return node, folder


VALIDATE = """
const v = require(process.argv[1] + "/node_modules/gltf-validator");
const data = new Uint8Array(require("fs").readFileSync(process.argv[2]));
v.validateBytes(data).then(r => console.log(JSON.stringify(r.issues)))
  .catch(e => { console.error(String(e)); process.exit(1); });
"""


@pytest.mark.parametrize("case", CASES)
def test_khronos_validator_finds_no_error_or_warning(tmp_path: Path, case: str) -> None:
    node, folder = _validator()
    path = write_solid(tmp_path, case, ".glb")
    out = subprocess.run([node, "-e", VALIDATE, str(folder), str(path)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    issues = json.loads(out.stdout)
    assert issues["numErrors"] == 0 and issues["numWarnings"] == 0, issues["messages"][:10]


def _glb_json(data: bytes) -> dict:
    magic, version, length = struct.unpack_from("<4sII", data)
    assert (magic, version, length) == (b"glTF", 2, len(data))
    size, kind = struct.unpack_from("<I4s", data, 12)
    assert kind == b"JSON"
    return json.loads(data[20 : 20 + size])


@pytest.mark.parametrize("case", ["plain", "label"])
def test_glb_is_y_up_in_metres_with_matte_part_colours(tmp_path: Path, case: str) -> None:
    solid = case_solid(case)
    path = write_solid(tmp_path, case, ".glb")
    scene = trimesh.load(path)  # applies the node transforms, as a glTF viewer does
    low, high = scene.bounds
    width, depth = solid.fab.outer_size(7, 9)
    # glTF: x right, y up, z towards the viewer; the plate lies in x–z, its height along y.
    assert high - low == pytest.approx([width / 1000, solid.fab.height / 1000, depth / 1000], abs=1e-6)
    assert low[1] == pytest.approx(0.0, abs=1e-9)
    materials = _glb_json(path.read_bytes())["materials"]
    assert [m["name"] for m in materials] == list(solid.parts)
    for material in materials:
        pbr = material["pbrMetallicRoughness"]
        assert pbr["metallicFactor"] == 0 and 0.7 <= pbr["roughnessFactor"] <= 0.9
    assert len({tuple(m["pbrMetallicRoughness"]["baseColorFactor"]) for m in materials}) == len(materials)
