"""Independent oracles for labels and solids, with no laby3d code: text as matplotlib's own text
renderer draws it (FreeType's rasteriser, which fills outlines by the font's winding rule), the
written STL read back by numpy-stl, and meshes checked after welding by position (what an STL
reader sees)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import shapely

NAMES = Path(__file__).parent / "data" / "names.txt"
ISLANDS = Path(__file__).parent / "data" / "islands.txt"
#: The oracle draws text with an em of this many pixels: large, so its edges are fine.
ORACLE_EM_PX = 400


def _lines(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


def corpus() -> list[str]:
    """The names of tests/data/names.txt (comments and blank lines skipped)."""
    return _lines(NAMES)


def island_corpus() -> list[str]:
    """Letters and words of tests/data/islands.txt: ink inside a letter's counter (Θ, ©, ⊕…)."""
    return _lines(ISLANDS)


@cache
def oracle_coverage(text: str) -> np.ndarray:
    """``(h, w)`` ink coverage (0–1) of ``text`` as matplotlib's Agg backend draws it: FreeType
    renders DejaVu Sans with antialiasing, no hinting, ligatures off (laby3d draws glyph by glyph);
    one pixel is 1/:data:`ORACLE_EM_PX` em, rows downwards."""
    import matplotlib
    from matplotlib.ft2font import FT2Font, LoadFlags

    font = FT2Font(str(Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"))
    font.set_size(ORACLE_EM_PX, 72)  # 72 dpi: one point is one pixel
    font.set_text(unicodedata.normalize("NFC", text), 0.0, flags=LoadFlags.NO_HINTING, features=("-liga",))
    font.draw_glyphs_to_bitmap(antialiased=True)
    coverage = np.asarray(font.get_image(), dtype=float) / 255
    rows, cols = np.nonzero(coverage)
    return coverage[rows.min() : rows.max() + 1, cols.min() : cols.max() + 1]


@cache
def _oracle_outline(text: str) -> shapely.Geometry:
    """The oracle's ink traced at half coverage (contourpy's filled contours, which nest islands
    in holes themselves), in pixels, y up, the lower-left corner of the inked area at (0, 0)."""
    import contourpy

    coverage = oracle_coverage(text)
    contours = contourpy.contour_generator(z=np.pad(coverage, 1)[::-1], fill_type="OuterOffset", corner_mask=False)
    points, offsets = contours.filled(0.5, 2.0)
    polygons = []
    for outline, starts in zip(points, offsets, strict=True):
        rings = [outline[a:b] for a, b in zip(starts[:-1], starts[1:], strict=True)]
        polygons.append(shapely.Polygon(rings[0], rings[1:]))
    # Padded pixel k spans k ± 0.5: the first column and the last row start where their ink does.
    left = 0.5 + 1 - coverage[:, 0].max()
    bottom = 0.5 + 1 - coverage[-1].max()
    return shapely.affinity.translate(shapely.union_all(polygons), -left, -bottom)


def oracle_ink(text: str, font_size: float) -> shapely.Geometry:
    """The oracle's ink of ``text`` with an em of ``font_size`` mm, lower-left at (0, 0)."""
    factor = font_size / ORACLE_EM_PX
    return shapely.affinity.scale(_oracle_outline(text), factor, factor, origin=(0, 0))


def oracle_cap_height_em() -> float:
    """Height of a capital H, em."""
    return oracle_height_em("H")


def oracle_area_em2(text: str) -> float:
    """The ink's area in em² (the rasteriser's exact coverage, summed)."""
    return float(oracle_coverage(text).sum()) / ORACLE_EM_PX**2


@dataclass(frozen=True)
class InkMatch:
    """A region of a solid compared with the oracle's text scaled to the same ink height."""

    font_size: float  # mm per em, from the heights of the two inks
    area_ratio: float  # region's area / oracle's
    disagreement: float  # area (mm²) of the symmetric difference thicker than 1 % of an em


def oracle_height_em(text: str) -> float:
    """Height of the ink, em: the rows the renderer inked, less the uncovered part of the first
    and last (exact for flat tops and bottoms, within a pixel at sharp tips; the traced outline
    cuts tips short)."""
    rows = oracle_coverage(text).max(axis=1)
    return (len(rows) - (1 - rows[0]) - (1 - rows[-1])) / ORACLE_EM_PX


def oracle_width_em(text: str) -> float:
    """Width of the ink, em, measured as :func:`oracle_height_em` measures the height."""
    columns = oracle_coverage(text).max(axis=0)
    return (len(columns) - (1 - columns[0]) - (1 - columns[-1])) / ORACLE_EM_PX


def compare_with_text(
    region: shapely.Geometry, text: str, *, mirrored: bool = False, font_size: float | None = None
) -> InkMatch:
    """``region`` (mm, seen from above) against the oracle's ``text`` (read from below when
    ``mirrored``), both moved to the lower-left corner, the oracle scaled to ``font_size`` mm
    per em or else to the region's longer side (a pixel of the oracle's measure is a smaller
    part of it: a long name scaled by its height, rounded tops and tails within a pixel, drifts
    by 0.07 mm over 78 mm)."""
    if mirrored:
        region = shapely.affinity.scale(region, -1, 1, origin=(0, 0))
    x0, y0, x1, y1 = region.bounds
    region = shapely.affinity.translate(region, -x0, -y0)
    if font_size is None:
        longer_is_width = x1 - x0 >= y1 - y0
        font_size = (x1 - x0) / oracle_width_em(text) if longer_is_width else (y1 - y0) / oracle_height_em(text)
    expected = oracle_ink(text, font_size)
    thick = region.symmetric_difference(expected).buffer(-0.005 * font_size)
    area = oracle_area_em2(text) * font_size**2
    return InkMatch(font_size=font_size, area_ratio=region.area / area, disagreement=thick.area)


def read_stl(data: bytes) -> tuple[np.ndarray, np.ndarray]:
    """``(n, 3, 3)`` triangle corners and ``(n, 3)`` unit normals of the STL file ``data``, read
    by numpy-stl (normals recomputed from the corners, not taken from the file)."""
    import io

    from stl import mesh

    solid = mesh.Mesh.from_file("label.stl", fh=io.BytesIO(data))
    corners = np.asarray(solid.vectors, dtype=float)
    normals = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    lengths = np.linalg.norm(normals, axis=1, keepdims=True)
    return corners, normals / np.where(lengths > 0, lengths, 1)


def flat_region(corners: np.ndarray, normals: np.ndarray, *, z: float, facing: int) -> shapely.Geometry:
    """The plan view (mm) of the triangles lying at height ``z`` and facing up (``facing`` 1) or
    down (-1): a floor, an engraving's bottom, an embossed top."""
    level = np.all(np.abs(corners[:, :, 2] - z) < 1e-4, axis=1) & (normals[:, 2] * facing > 0.999)
    triangles = shapely.polygons(corners[level][:, :, :2])
    region = shapely.coverage_union_all(triangles)  # fast, for triangles that do not overlap:
    overlap = float(shapely.area(triangles).sum()) - region.area
    assert region.is_valid and abs(overlap) <= 1e-6 * max(region.area, 1.0), "overlapping triangles"
    return region


def welded(vertices: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """Faces renumbered so vertices at the same position (to 1e-6 mm) are one."""
    keys = np.round(vertices / 1e-6).astype(np.int64)
    _, inverse = np.unique(keys, axis=0, return_inverse=True)
    return inverse.reshape(-1)[faces]


def closed_and_oriented(faces: np.ndarray) -> bool:
    """Every edge used by exactly two faces, once in each direction."""
    directed = np.concatenate([faces[:, [0, 1]], faces[:, [1, 2]], faces[:, [2, 0]]]).astype(np.int64)
    n = int(faces.max()) + 1
    keys = directed[:, 0] * n + directed[:, 1]
    reverse = directed[:, 1] * n + directed[:, 0]
    return len(np.unique(keys)) == len(keys) and bool(np.isin(reverse, keys).all())


def body_count(faces: np.ndarray) -> int:
    """Connected pieces of a mesh (faces sharing a vertex), by union-find."""
    parent = np.arange(faces.max() + 1)

    def root(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for a, b, c in faces.tolist():
        ra, rb, rc = root(a), root(b), root(c)
        parent[rb] = ra
        parent[rc] = ra
    used = np.unique(faces)
    return len({root(int(v)) for v in used})


def signed_volume(vertices: np.ndarray, faces: np.ndarray) -> float:
    """Enclosed volume (mm³) by the divergence theorem."""
    a, b, c = (vertices[faces[:, k]] for k in range(3))
    return float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6)
