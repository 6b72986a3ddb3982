"""Solid formats: binary STL, 3MF and GLB. Pure: they return bytes.

**3MF** (core specification 1.3, unit millimetre): one object whose mesh holds every part (base,
walls, solution ridge, embossed label) as its own closed shell, each coloured through a
``<basematerials>`` group in the *core* namespace (where lib3mf, the 3MF Consortium's reference
reader, expects it: in the materials-extension namespace strict and lenient lib3mf refuse the file).

Why one object with several shells rather than one object per part: slicers drop every object
onto the bed on its own, so a ridge or an embossed label saved as its own object would land
beside the maze at z = 0. The parts of one object keep their places.

A *plate* (:func:`objects_3mf_bytes`) holds several mazes: each its own object (named after its
pupil, its parts inside as above) whose vertices are already where it lies on the bed (moved, or
turned a quarter turn and moved), so PrusaSlicer shows the arrangement as it is when it does not
arrange again (``--dont-arrange`` headless). The placement is in the vertices rather than in the
build items' ``transform``: PrusaSlicer 2.5 reads the transform of a 3MF it did not write into
the object's first part only and leaves the other parts where they were (the walls of every maze
printed on top of each other at the bed's corner; tests/test_plates.py slices a plate).

Per-part extruders:

- *PrusaSlicer* reads the parts from ``Metadata/Slic3r_PE_model.config``: one ``<volume>`` per
  part (its triangle range, name, ``volume_type`` ModelPart) with ``extruder`` metadata, so an MMU
  or XL prints each part in its own filament without a click (:data:`PART_EXTRUDERS`; on a
  single-tool printer every extruder number falls back to the one tool). Checked with
  PrusaSlicer 2.5 here (tests/test_print_tools.py).
- *Bambu Studio and OrcaSlicer* ignore that file and have no triangle ranges: they take parts
  from ``<components>`` and ``Metadata/model_settings.config``, a layout that makes PrusaSlicer
  drop each part to the bed (reported by others' slicer probes; not verifiable here, neither
  slicer runs headless on this machine). They see one object with the per-triangle colours; use
  *Split → To parts* (parts keep their places), then pick a filament per part.

The XML is built with ElementTree, so every attribute value is escaped by the library; text
that XML 1.0 cannot hold (control characters, lone surrogates) is replaced first
(:func:`xml_text`). Only the mesh's vertices and triangles, which are numbers, are formatted
directly, in ElementTree's own layout (an element per vertex through ElementTree cost 0.6 s at
100×100). Bytes are deterministic: fixed zip dates, insertion-ordered attributes.

**GLB** (glTF 2.0): the mesh data stay in the solid's own frame (z up, millimetres, the same
numbers as the STL and 3MF) and one root node carries the glTF convention, a rotation of −90°
about x (z up → y up) and a scale of 0.001 (mm → m). A root node rather than transformed
vertices, so the file still holds the exact mm coordinates and a reader that ignores node
transforms at least keeps the proportions. Each part is one mesh with a PBR material of its
colour (metallic 0, roughness 0.8); normals are omitted, so viewers shade the faces flat, as
glTF requires when a primitive has none.
"""

from __future__ import annotations

import io
import json
import re
import struct
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from xml.etree import ElementTree as ET

    from laby3d.geometry.params import Fabrication
    from laby3d.maze.model import Maze
    from laby3d.mesh.solid import MazeSolid
    from laby3d.mesh.types import Mesh

#: Part colours in 3MF/GLB (RGBA), so a multi-colour slicer shows the parts apart.
PART_COLOURS = {
    "base": (235, 235, 225, 255),
    "walls": (40, 90, 170, 255),
    "solution": (220, 60, 40, 255),
    "label": (30, 30, 30, 255),
}
#: PrusaSlicer extruder (1-based) of each part: base and walls apart, ridge and label in a third.
PART_EXTRUDERS = {"base": 1, "walls": 2, "solution": 3, "label": 3}
OTHER_COLOUR = (128, 128, 128, 255)

CORE_NS = "http://schemas.microsoft.com/3dmanufacturing/core/2015/02"
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
#: What XML 1.0 cannot hold, as a pattern compiled on first use (16 ms, which an STL need not pay).
_NOT_XML_10 = "[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def xml_text(text: str) -> str:
    """``text`` with every character XML 1.0 cannot hold (NUL and other controls, lone
    surrogates, U+FFFE/U+FFFF) replaced by U+FFFD; escaping is left to the XML library.

    >>> xml_text("a\\x00b\\ud800c")
    'a\\ufffdb\\ufffdc'
    """
    return re.sub(_NOT_XML_10, "\ufffd", text)


def stl_header(maze: Maze, body: Mesh, fab: Fabrication) -> str:
    """The 80-character binary STL header of ``maze``'s solid ``body``: laby3d, shape and size,
    algorithm, seed, outer size in mm."""
    size = f"{maze.rows} rings" if maze.cols is None else f"{maze.rows}x{maze.cols}"
    width, depth, _ = body.bounds()[1] - body.bounds()[0]
    text = (
        f"laby3d maze {maze.shape} {size} {maze.algorithm or 'file'} seed {maze.seed} "
        f"{width:.6g}x{depth:.6g}x{fab.height:g} mm"
    )
    return text[:80].ljust(80)


#: One triangle of a binary STL: unit normal, three corners (float32, mm), attribute (0): 50 bytes.
STL_TRIANGLE = np.dtype([("normal", "<f4", (3,)), ("corners", "<f4", (3, 3)), ("attribute", "<u2")])


def stl_bytes(mesh: Mesh, header: str) -> bytes:
    """Binary STL: the 80-byte ``header``, the triangle count, then :data:`STL_TRIANGLE` records
    with unit facet normals. Written with numpy alone (numpy-stl gave the same bytes but cost
    0.05 s of import on every ``laby3d generate``)."""
    data = np.zeros(len(mesh.faces), dtype=STL_TRIANGLE)
    corners = mesh.triangles
    data["corners"] = corners
    data["normal"] = mesh.normals(corners)
    return header.encode("ascii", "replace")[:80].ljust(80) + np.uint32(len(data)).tobytes() + data.tobytes()


def _hex_colour(rgba: tuple[int, int, int, int]) -> str:
    return "#" + "".join(f"{channel:02X}" for channel in rgba)


def _xml_bytes(root: ET.Element) -> bytes:
    from xml.etree import ElementTree as ET

    return ET.tostring(root, encoding="UTF-8", xml_declaration=True) + b"\n"


#: One ``<vertex>`` and one ``<triangle>`` exactly as ElementTree writes them (attributes in this
#: order, a space before ``/>``): the mesh's numbers are formatted in one call per part.
_VERTEX = '<vertex x="%.9g" y="%.9g" z="%.9g" />'
_TRIANGLE = '<triangle v1="%d" v2="%d" v3="%d" pid="1" p1="%d" />'


def _mesh_text(
    solid: MazeSolid, materials: list[str], transform: tuple[float, ...] | None = None
) -> tuple[bytes, bytes]:
    """The ``<vertices>`` and ``<triangles>`` elements of every part, numbers only (no text from
    the user), formatted with numpy and one ``%`` per part rather than an element per vertex;
    each triangle's material is its part's place in ``materials``; vertices moved by
    ``transform`` (see :class:`PlacedObject`)."""
    matrix = None if transform is None else np.array(transform, dtype=float).reshape(4, 3)
    vertices, triangles = [], []
    offset = 0
    for name, part in solid.parts.items():
        points = part.vertices if matrix is None else part.vertices @ matrix[:3] + matrix[3]
        vertices.append(_VERTEX * len(points) % tuple(points.ravel().tolist()))
        # lib3mf ignores a triangle's p1 unless the triangle names its pid too
        corners = np.column_stack([part.faces + offset, np.full(len(part.faces), materials.index(name))])
        triangles.append(_TRIANGLE * len(part.faces) % tuple(corners.ravel().tolist()))
        offset += len(part.vertices)
    return (
        b"<vertices>" + "".join(vertices).encode() + b"</vertices>",
        b"<triangles>" + "".join(triangles).encode() + b"</triangles>",
    )


@dataclass(frozen=True, kw_only=True)
class PlacedObject:
    """One object of a 3MF: its name, its solid (mm) and, on a plate, where it goes: an affine
    map as 3MF writes one (12 numbers ``m00 m01 m02 m10 m11 m12 m20 m21 m22 m30 m31 m32``, a point
    being a row vector times the matrix), applied to its vertices; None: where the solid lies."""

    name: str
    solid: MazeSolid
    transform: tuple[float, ...] | None = None


def _model_xml(objects: Sequence[PlacedObject], title: str) -> bytes:
    """``3D/3dmodel.model``: core-namespace materials (every part name once, in first-seen
    order), one object per solid holding every part's shell, one build item each.

    ElementTree writes everything but the mesh's numbers, with empty ``<vertices />`` and
    ``<triangles />`` in place; those are then filled by :func:`_mesh_text`, object by object (they
    cannot occur in the text ElementTree wrote elsewhere, where ``<`` is always escaped)."""
    from xml.etree import ElementTree as ET

    materials = list(dict.fromkeys(name for placed in objects for name in placed.solid.parts))
    model = ET.Element("model", {"unit": "millimeter", _XML_LANG: "en-US", "xmlns": CORE_NS})
    ET.SubElement(model, "metadata", name="Title").text = title
    ET.SubElement(model, "metadata", name="Application").text = "laby3d"
    resources = ET.SubElement(model, "resources")
    group = ET.SubElement(resources, "basematerials", id="1")
    for name in materials:
        ET.SubElement(group, "base", name=name, displaycolor=_hex_colour(PART_COLOURS.get(name, OTHER_COLOUR)))
    build = ET.Element("build")
    for index, placed in enumerate(objects):
        first = materials.index(next(iter(placed.solid.parts)))
        shape = ET.SubElement(
            resources, "object", id=str(index + 2), name=placed.name, type="model", pid="1", pindex=str(first)
        )
        mesh = ET.SubElement(shape, "mesh")
        ET.SubElement(mesh, "vertices")
        ET.SubElement(mesh, "triangles")
        ET.SubElement(build, "item", objectid=str(index + 2))
    model.append(build)
    chunks = _xml_bytes(model).split(b"<vertices />")
    text = [chunks[0]]
    for placed, chunk in zip(objects, chunks[1:], strict=True):
        vertices, triangles = _mesh_text(placed.solid, materials, placed.transform)
        between, after = chunk.split(b"<triangles />")
        text += [vertices, between, triangles, after]
    return b"".join(text)


def _prusa_config_xml(objects: Sequence[PlacedObject]) -> bytes:
    """``Metadata/Slic3r_PE_model.config``: PrusaSlicer's objects and their parts (triangle
    ranges within the object), with extruders."""
    from xml.etree import ElementTree as ET

    config = ET.Element("config")
    for index, placed in enumerate(objects):
        item = ET.SubElement(config, "object", id=str(index + 2), instances_count="1")
        ET.SubElement(item, "metadata", type="object", key="name", value=placed.name)
        first = 0
        for name, part in placed.solid.parts.items():
            volume = ET.SubElement(item, "volume", firstid=str(first), lastid=str(first + len(part.faces) - 1))
            for key, value in (
                ("name", name),
                ("volume_type", "ModelPart"),
                ("extruder", str(PART_EXTRUDERS.get(name, 1))),
            ):
                ET.SubElement(volume, "metadata", type="volume", key=key, value=value)
            first += len(part.faces)
    return _xml_bytes(config)


def _package_xml() -> dict[str, bytes]:
    """The OPC package files: content types and the relationship to the model."""
    from xml.etree import ElementTree as ET

    types = ET.Element("Types", xmlns="http://schemas.openxmlformats.org/package/2006/content-types")
    for extension, content_type in (
        ("rels", "application/vnd.openxmlformats-package.relationships+xml"),
        ("model", "application/vnd.ms-package.3dmanufacturing-3dmodel+xml"),
        ("config", "text/xml"),
    ):
        ET.SubElement(types, "Default", Extension=extension, ContentType=content_type)
    relationships = ET.Element("Relationships", xmlns="http://schemas.openxmlformats.org/package/2006/relationships")
    ET.SubElement(
        relationships,
        "Relationship",
        Target="/3D/3dmodel.model",
        Id="rel0",
        Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel",
    )
    return {"[Content_Types].xml": _xml_bytes(types), "_rels/.rels": _xml_bytes(relationships)}


def threemf_bytes(solid: MazeSolid, title: str) -> bytes:
    """3MF, unit millimetre: one object, one closed shell per part, coloured per part, with
    PrusaSlicer's part list and extruders (see the module docstring)."""
    return objects_3mf_bytes([PlacedObject(name=title, solid=solid)], title)


def objects_3mf_bytes(objects: Sequence[PlacedObject], title: str) -> bytes:
    """3MF, unit millimetre, of several objects (a plate: each where it lies on the bed), each as
    :func:`threemf_bytes` writes one; names and title made XML-safe."""
    import zipfile

    title = xml_text(title)
    objects = [replace(placed, name=xml_text(placed.name)) for placed in objects]
    files = {
        **_package_xml(),
        "3D/3dmodel.model": _model_xml(objects, title),
        "Metadata/Slic3r_PE_model.config": _prusa_config_xml(objects),
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=_ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return buffer.getvalue()


#: glTF root node: −90° about x (z up → y up) as a unit quaternion (x, y, z, w), and mm → m.
GLTF_ROOT_ROTATION = [-(0.5**0.5), 0.0, 0.0, 0.5**0.5]
GLTF_ROOT_SCALE = [0.001, 0.001, 0.001]
_FLOAT, _UINT32, _ARRAY_BUFFER, _ELEMENT_ARRAY_BUFFER = 5126, 5125, 34962, 34963


def _padded(data: bytes, fill: bytes) -> bytes:
    return data + fill * (-len(data) % 4)


def glb_bytes(solid: MazeSolid) -> bytes:
    """Binary glTF 2.0 of the coloured parts, y up and in metres through the root node (see the
    module docstring); deterministic."""
    chunks: list[bytes] = []
    length = 0
    doc: dict = {
        "asset": {"version": "2.0", "generator": "laby3d"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "maze", "rotation": GLTF_ROOT_ROTATION, "scale": GLTF_ROOT_SCALE, "children": []}],
        "meshes": [],
        "materials": [],
        "accessors": [],
        "bufferViews": [],
    }

    def view(data: bytes, target: int) -> int:
        nonlocal length
        doc["bufferViews"].append({"buffer": 0, "byteOffset": length, "byteLength": len(data), "target": target})
        chunks.append(_padded(data, b"\0"))
        length += len(chunks[-1])
        return len(doc["bufferViews"]) - 1

    for index, (name, part) in enumerate(solid.parts.items()):
        positions = part.vertices.astype("<f4")
        indices = part.faces.astype("<u4")
        doc["accessors"] += [
            {
                "bufferView": view(positions.tobytes(), _ARRAY_BUFFER),
                "componentType": _FLOAT,
                "count": len(positions),
                "type": "VEC3",
                "min": positions.min(axis=0).tolist(),
                "max": positions.max(axis=0).tolist(),
            },
            {
                "bufferView": view(indices.tobytes(), _ELEMENT_ARRAY_BUFFER),
                "componentType": _UINT32,
                "count": indices.size,
                "type": "SCALAR",
            },
        ]
        red, green, blue, alpha = (channel / 255 for channel in PART_COLOURS.get(name, OTHER_COLOUR))
        doc["materials"].append(
            {
                "name": name,
                "pbrMetallicRoughness": {
                    "baseColorFactor": [_linear(red), _linear(green), _linear(blue), alpha],
                    "metallicFactor": 0.0,
                    "roughnessFactor": 0.8,
                },
            }
        )
        primitive = {"attributes": {"POSITION": 2 * index}, "indices": 2 * index + 1, "material": index}
        doc["meshes"].append({"name": name, "primitives": [primitive]})
        doc["nodes"].append({"name": name, "mesh": index})
        doc["nodes"][0]["children"].append(index + 1)
    binary = b"".join(chunks)
    doc["buffers"] = [{"byteLength": len(binary)}]
    text = _padded(json.dumps(doc, separators=(",", ":")).encode(), b" ")
    total = 12 + 8 + len(text) + 8 + len(binary)
    return b"".join(
        [
            struct.pack("<4sII", b"glTF", 2, total),
            struct.pack("<I4s", len(text), b"JSON"),
            text,
            struct.pack("<I4s", len(binary), b"BIN\0"),
            binary,
        ]
    )


def _linear(channel: float) -> float:
    """An sRGB channel (0–1) in linear light, as glTF's ``baseColorFactor`` wants it."""
    linear = channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4
    return round(linear, 6)
