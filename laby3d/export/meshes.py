"""Solid formats: binary STL (numpy-stl), 3MF and GLB (trimesh). Pure: they return bytes."""

from __future__ import annotations

import io
import zipfile
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

import numpy as np

if TYPE_CHECKING:
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


def stl_header(maze: Maze, fab: Fabrication) -> str:
    """The 80-character binary STL header: laby3d, size, algorithm, seed, outer size in mm."""
    width, depth = fab.outer_size(maze.rows, maze.cols)
    text = (
        f"laby3d maze {maze.rows}x{maze.cols} {maze.algorithm or 'file'} seed {maze.seed} "
        f"{width:g}x{depth:g}x{fab.height:g} mm"
    )
    return text[:80].ljust(80)


def stl_bytes(mesh: Mesh, header: str) -> bytes:
    """Binary STL with unit facet normals (float32), through numpy-stl."""
    from stl import Mode
    from stl.mesh import Mesh as StlMesh

    class _Stl(StlMesh):  # numpy-stl puts the time in its header; laby3d files are reproducible
        def get_header(self, name: bytes | str) -> str:
            return header

    data = np.zeros(len(mesh.faces), dtype=StlMesh.dtype)
    corners = mesh.triangles
    data["vectors"] = corners
    data["normals"] = mesh.normals(corners)
    buffer = io.BytesIO()
    _Stl(data, calculate_normals=False).save("laby3d", fh=buffer, mode=Mode.BINARY, update_normals=False)
    return buffer.getvalue()


def _scene(solid: MazeSolid):  # -> trimesh.Scene
    import trimesh

    scene = trimesh.Scene()
    for name, part in solid.parts.items():
        colour = PART_COLOURS.get(name, (128, 128, 128, 255))
        geometry = trimesh.Trimesh(part.vertices, part.faces, process=False, face_colors=[colour] * len(part.faces))
        scene.add_geometry(geometry, geom_name=name, node_name=name)
    return scene


def threemf_bytes(solid: MazeSolid, title: str) -> bytes:
    """3MF, unit millimetre: one object whose mesh holds every part (base, walls, solution) as
    its own closed shell, coloured per part, and named as separate parts for PrusaSlicer.

    Parts of one object keep their places: as separate 3MF objects, slicers drop each onto the
    bed. PrusaSlicer reads the parts (names, triangle ranges) from ``Metadata/Slic3r_PE_model.config``;
    other slicers see one multi-shell object with per-part colours. Written here rather than by
    trimesh, whose exporter emits random UUIDs (files would differ run to run).
    """
    names = list(solid.parts)
    colours = "".join(
        f'<base name="{name}" displaycolor="#{"".join(f"{c:02X}" for c in PART_COLOURS.get(name, (128,) * 4))}"/>'
        for name in names
    )
    vertices, triangles, volumes = [], [], []
    vertex_offset = face_offset = 0
    for index, name in enumerate(names):
        part = solid.parts[name]
        vertices.append("".join(f'<vertex x="{x:.6g}" y="{y:.6g}" z="{z:.6g}"/>' for x, y, z in part.vertices.tolist()))
        triangles.append(
            "".join(
                f'<triangle v1="{a}" v2="{b}" v3="{c}" p1="{index}"/>'
                for a, b, c in (part.faces + vertex_offset).tolist()
            )
        )
        volumes.append(
            f'<volume firstid="{face_offset}" lastid="{face_offset + len(part.faces) - 1}">'
            f'<metadata type="volume" key="name" value="{name}"/>'
            '<metadata type="volume" key="volume_type" value="ModelPart"/></volume>'
        )
        vertex_offset += len(part.vertices)
        face_offset += len(part.faces)
    model = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<model unit="millimeter" xml:lang="en-US" '
        'xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02" '
        'xmlns:m="http://schemas.microsoft.com/3dmanufacturing/material/2015/02">'
        f'<metadata name="Title">{escape(title)}</metadata><metadata name="Application">laby3d</metadata>'
        f'<resources><m:basematerials id="1">{colours}</m:basematerials>'
        f'<object id="2" name="{escape(title)}" type="model" pid="1" pindex="0"><mesh>'
        f"<vertices>{''.join(vertices)}</vertices><triangles>{''.join(triangles)}</triangles></mesh></object>"
        '</resources><build><item objectid="2"/></build></model>\n'
    )
    config = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<config><object id="2" instances_count="1">'
        f'<metadata type="object" key="name" value="{escape(title)}"/>{"".join(volumes)}</object></config>\n'
    )
    files = {
        "[Content_Types].xml": (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/>'
            "</Types>\n"
        ),
        "_rels/.rels": (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Target="/3D/3dmodel.model" Id="rel0" '
            'Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/></Relationships>\n'
        ),
        "3D/3dmodel.model": model,
        "Metadata/Slic3r_PE_model.config": config,
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files.items():
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, text.encode())
    return buffer.getvalue()


def glb_bytes(solid: MazeSolid) -> bytes:
    """Binary glTF of the coloured parts (glTF's y-up frame: trimesh keeps our z-up coordinates)."""
    return _scene(solid).export(file_type="glb")
