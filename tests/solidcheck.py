"""Reading solids back from disk, independently of the writer's data, and their expected sizes."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import numpy as np
import shapely
import trimesh
from shapedcheck import SHAPED_CASES, shaped_case

import laby3d
from laby3d.export.meshes import glb_bytes, stl_bytes, threemf_bytes
from laby3d.filament import SlicerSettings, print_work
from laby3d.geometry.params import Fabrication
from laby3d.maze.model import Maze
from laby3d.mesh.solid import MazeSolid, SolidOptions, maze_solid

CORE = "{http://schemas.microsoft.com/3dmanufacturing/core/2015/02}"

#: Solids that exercise every part and mark: (fabrication, solid options), mm.
SOLID_CASES: dict[str, tuple[Fabrication, SolidOptions]] = {
    "plain": (Fabrication(), SolidOptions()),
    "groove-margin": (Fabrication(margin=5), SolidOptions(solution="groove")),
    "ridge": (Fabrication(), SolidOptions(solution="ridge")),
    "label": (Fabrication(margin=7), SolidOptions(label="Ana 7", label_mode="emboss", solution="groove")),
    "engraved-markers": (Fabrication(margin=8), SolidOptions(label="Zoë", markers=True, solution="ridge")),
}


def case_solid(case: str) -> MazeSolid:
    """The solid of a 7×9 backtracker maze (seed 4) for one of :data:`SOLID_CASES`, or of a
    theta, hex or triangle maze for one of :data:`shapedcheck.SHAPED_CASES`."""
    if case in SHAPED_CASES:
        return shaped_case(case)[1]
    fab, options = SOLID_CASES[case]
    return maze_solid(laby3d.generate(7, 9, algorithm="backtracker", seed=4), fab, options)


def write_solid(folder: Path, case: str, suffix: str, title: str = "laby3d test maze") -> Path:
    """Write one case as ``.stl``, ``.3mf`` or ``.glb`` in ``folder``; returns the path."""
    solid = case_solid(case)
    data = {
        ".stl": lambda: stl_bytes(solid.body, title[:80].ljust(80)),
        ".3mf": lambda: threemf_bytes(solid, title),
        ".glb": lambda: glb_bytes(solid),
    }[suffix]()
    path = folder / f"{case}{suffix}"
    path.write_bytes(data)
    return path


def load_stl(path: Path) -> trimesh.Trimesh:
    """The STL as a welded trimesh (what slicers see)."""
    mesh = trimesh.load(path, file_type="stl")
    assert isinstance(mesh, trimesh.Trimesh)
    return mesh


def load_3mf_parts(path: Path) -> dict[str, trimesh.Trimesh]:
    """Each named part of a laby3d 3MF (triangle ranges of PrusaSlicer's config), welded."""
    with zipfile.ZipFile(path) as archive:
        model = ET.fromstring(archive.read("3D/3dmodel.model"))
        config = ET.fromstring(archive.read("Metadata/Slic3r_PE_model.config"))
    assert model.get("unit") == "millimeter"
    mesh = model.find(f"{CORE}resources/{CORE}object/{CORE}mesh")
    vertices = np.array([[float(v.get(a)) for a in "xyz"] for v in mesh.iter(f"{CORE}vertex")])
    faces = np.array([[int(t.get(a)) for a in ("v1", "v2", "v3")] for t in mesh.iter(f"{CORE}triangle")])
    parts = {}
    for volume in config.iter("volume"):
        name = next(m.get("value") for m in volume.iter("metadata") if m.get("key") == "name")
        chosen = faces[int(volume.get("firstid")) : int(volume.get("lastid")) + 1]
        parts[name] = trimesh.Trimesh(vertices, chosen)  # welds; drops unused vertices
    return parts


def plate_area(maze: Maze, fab: Fabrication) -> float:
    """A square maze's plate, mm²: its cells, a wall and two margins each way."""
    extra = fab.wall_thickness + 2 * fab.margin
    return (maze.cols * fab.cell_size + extra) * (maze.rows * fab.cell_size + extra)


def closed_wall_count(maze: Maze) -> int:
    """A square maze's closed wall segments, border included: every neighbour pair that is not a
    passage, and the outline's sides but the openings."""
    rows, cols = maze.rows, maze.cols
    pairs = rows * (cols - 1) + (rows - 1) * cols
    openings = sum(opening.side is not None for opening in (maze.entrance, maze.exit))
    return pairs - len(maze.passages) + 2 * (rows + cols) - openings


def post_count(maze: Maze) -> int:
    """A square maze's lattice points that a closed wall touches (border included): a point
    between two openings whose wall between the cells is open stands alone, and carries no post."""
    rows, cols = maze.rows, maze.cols
    passages = {tuple(sorted(pair)) for pair in maze.passages.tolist()}
    doors = {(opening.row, opening.col, opening.side) for opening in (maze.entrance, maze.exit)}
    points: set[tuple[int, int]] = set()
    for r in range(rows):
        for c in range(cols):
            cell = r * cols + c
            sides = {
                "N": ((r, c), (r, c + 1), r == 0 or None),
                "S": ((r + 1, c), (r + 1, c + 1), r == rows - 1 or (cell, cell + cols)),
                "W": ((r, c), (r + 1, c), c == 0 or None),
                "E": ((r, c + 1), (r + 1, c + 1), c == cols - 1 or (cell, cell + 1)),
            }
            for side, (a, b, border) in sides.items():
                if border is True:
                    closed = (r, c, side) not in doors
                elif border is None:
                    continue  # an inner side: counted from the other cell
                else:
                    closed = tuple(sorted(border)) not in passages
                if closed:
                    points.update((a, b))
    return len(points)


def footprint_area(maze: Maze, fab: Fabrication) -> float:
    """A square maze's wall footprint, mm²: a ``t × t`` post on every lattice point a closed wall
    touches and a ``(cell_size − t) × t`` rectangle per closed wall."""
    t = fab.wall_thickness
    return post_count(maze) * t * t + closed_wall_count(maze) * (fab.cell_size - t) * t


def path_strip(maze: Maze, fab: Fabrication, width: float) -> shapely.Geometry:
    """The solution strip of a square maze, from shapely buffering the centre line (mitred, ends
    flat): from the middle of the entrance's doorway (on the outline; a start inside: its cell's
    centre) through the cells' centres to the exit's."""
    t, s, m = fab.wall_thickness, fab.cell_size, fab.margin
    inner_w, inner_d = maze.cols * s, maze.rows * s

    def centre(row: int, col: int) -> tuple[float, float]:
        return m + t / 2 + (col + 0.5) * s, m + t / 2 + (maze.rows - row - 0.5) * s

    points = [centre(*cell) for cell in maze.solution]
    ends = []
    low, right, top = m + t / 2, m + t / 2 + inner_w, m + t / 2 + inner_d
    for opening, anchor in ((maze.entrance, points[0]), (maze.exit, points[-1])):
        x, y = anchor
        sides = {"W": (low, y), "E": (right, y), "N": (x, top), "S": (x, low), None: anchor}
        ends.append(sides[opening.side])
    line = shapely.LineString(list(dict.fromkeys([ends[0], *points, ends[1]])))  # a start inside: its centre once
    return line.buffer(width / 2, cap_style="flat", join_style="mitre")


def expected_volumes(maze: Maze, fab: Fabrication, solution: str, width: float, depth: float) -> dict[str, float]:
    """Analytic volumes (mm³) of the body and of each part."""
    walls = fab.wall_height * footprint_area(maze, fab)
    base = plate_area(maze, fab) * fab.base_thickness
    path = path_strip(maze, fab, width).area * depth if solution != "none" else 0.0
    volumes = {"walls": walls}
    if fab.base_thickness > 0:
        volumes["base"] = base - (path if solution == "groove" else 0.0)
    if solution == "ridge":
        volumes["solution"] = path
    volumes["body"] = sum(volumes.values())
    return volumes


def header_text(path: Path) -> str:
    return path.read_bytes()[:80].decode("ascii")


def repair_counters(info: str) -> dict[str, float]:
    """PrusaSlicer --info repair counters that are not zero."""
    names = "open_edges|edges_fixed|degenerate_facets|facets_removed|facets_added|facets_reversed|backwards_edges"
    pattern = rf"^({names}) = (\S+)"
    return {k: float(v) for k, v in re.findall(pattern, info, re.M) if float(v) != 0}


def zip_bytes(data: bytes) -> zipfile.ZipFile:
    return zipfile.ZipFile(io.BytesIO(data))


def typical_volume(solid: MazeSolid, settings: SlicerSettings | None = None) -> float:
    """Filament volume (mm³) for ``solid`` sliced with ``settings`` (default: typical)."""
    return print_work(solid, settings).filament_mm3
