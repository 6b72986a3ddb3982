"""Independent oracles for labels and solids: text drawn by matplotlib's own text layout, and
meshes checked after welding by position (what an STL reader sees), with no laby3d code."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import numpy as np
import shapely

NAMES = Path(__file__).parent / "data" / "names.txt"
#: The oracle's outlines are flattened at this size (units per em): large, so they are fine.
ORACLE_SIZE = 1000.0


def corpus() -> list[str]:
    """The names of tests/data/names.txt (comments and blank lines skipped)."""
    lines = NAMES.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


def oracle_ink(text: str, font_size: float) -> shapely.Geometry:
    """The ink of ``text`` with an em of ``font_size`` mm, by matplotlib's text layout (HarfBuzz
    shaping, ligatures off as laby3d draws glyph by glyph), filled the TrueType way: clockwise
    contours are ink, counter-clockwise ones counters. Lower-left of the ink at (0, 0)."""
    import matplotlib
    from matplotlib.font_manager import FontProperties
    from matplotlib.path import Path as CurvePath
    from matplotlib.textpath import TextToPath

    font = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
    layout = TextToPath()
    vertices, codes = layout.get_text_path(
        FontProperties(fname=font), unicodedata.normalize("NFC", text), ismath=False, features=("-liga",)
    )
    scale = ORACLE_SIZE / layout.FONT_SCALE
    ink, counters = [], []
    for ring in CurvePath(np.asarray(vertices) * scale, codes).to_polygons(closed_only=True):
        if len(ring) < 4:
            continue
        polygon = shapely.Polygon(ring)
        (counters if polygon.exterior.is_ccw else ink).append(shapely.make_valid(polygon))
    shape = shapely.union_all(ink).difference(shapely.union_all(counters))
    x0, y0, _, _ = shape.bounds
    factor = font_size / ORACLE_SIZE
    return shapely.affinity.affine_transform(shape, [factor, 0, 0, factor, -x0 * factor, -y0 * factor])


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
