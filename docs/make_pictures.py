"""Regenerate the README's pictures: ``python docs/make_pictures.py`` (from the repository root)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np

import laby3d
from laby3d.draw.animation import generation_gif
from laby3d.draw.pictures import maze_picture
from laby3d.export.writer import write_atomic
from laby3d.geometry.params import Fabrication
from laby3d.mesh.solid import SolidOptions, maze_solid

DOCS = Path(__file__).parent


def solid_picture(path: Path) -> None:
    """A shaded view of a small printable solid (matplotlib 3D)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection

    maze = laby3d.generate(8, 10, algorithm="wilson", seed=1)
    parts = maze_solid(maze, Fabrication(), SolidOptions(solution="ridge")).parts
    figure = Figure(figsize=(6, 4.5))
    FigureCanvasAgg(figure)
    axes = figure.add_subplot(projection="3d")
    light = np.array([0.3, -0.5, 0.8]) / np.linalg.norm([0.3, -0.5, 0.8])
    elevation, azimuth = np.radians(50), np.radians(-60)
    viewer = np.array([np.cos(elevation) * np.cos(azimuth), np.cos(elevation) * np.sin(azimuth), np.sin(elevation)])
    triangles, colours = [], []
    for name, colour in (("base", (0.92, 0.92, 0.88)), ("walls", (0.16, 0.35, 0.67)), ("solution", (0.86, 0.24, 0.16))):
        part = parts[name]
        normals = part.normals()
        facing = normals @ viewer > 0  # back faces culled: matplotlib sorts faces only roughly
        shade = 0.45 + 0.55 * np.clip(normals[facing] @ light, 0, 1)
        triangles.append(part.triangles[facing])
        colours.append(np.clip(np.outer(shade, colour), 0, 1))
    axes.add_collection3d(
        Poly3DCollection(np.concatenate(triangles), facecolors=np.concatenate(colours), edgecolors="none")
    )
    axes.set_xlim(0, 102)
    axes.set_ylim(0, 82)
    axes.set_zlim(0, 30)
    axes.set_box_aspect((102, 82, 30))
    axes.view_init(elev=np.degrees(elevation), azim=np.degrees(azimuth))
    axes.set_axis_off()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight", metadata={"Software": None})
    write_atomic(path, buffer.getvalue())


def laser_pictures(docs: Path) -> None:
    """configs/laser.yaml's ball kit assembled (exploded) and its sheets; a class set's first sheet."""
    from laby3d.export.laser import svg_bytes
    from laby3d.export.laser_preview import kit_png, sheet_png
    from laby3d.geometry.laser import LaserOptions, class_sheets, laser_sheets

    maze = laby3d.generate(12, 16, algorithm="wilson", seed=3)
    fab = Fabrication(cell_size=10, wall_thickness=3, margin=6)
    options = LaserOptions(mode="stack", top=True, ball=6, registration_holes=4, reference_square=True, label="Ana")
    sheets = laser_sheets(maze, fab, options)
    write_atomic(docs / "laser-kit.png", kit_png(sheets.kit, width_px=900))
    write_atomic(docs / "laser-kit-sheets.png", sheet_png(sheets.overview(), width_px=700))
    write_atomic(docs / "laser-kit.svg", svg_bytes(sheets.overview(), metadata={"seed": 3}))
    names = ["Ana", "Ben", "Chloé", "Dmitri", "Emma", "Farid", "Gaëlle", "Hugo", "Inès", "Jules", "Kenza", "Léo"]
    pupils = [(name, laby3d.generate(10, 12, seed=k)) for k, name in enumerate(names)]
    kit = LaserOptions(mode="stack", top=True, ball=5)
    group = class_sheets(pupils, Fabrication(cell_size=10, wall_thickness=3), kit)
    write_atomic(docs / "laser-class.png", sheet_png(group.pages[0], width_px=900))


def walk_pictures(overview: Path, first_person: Path) -> None:
    """The walk-through through the walker's eyes (solution trail on) and from above (O, with the
    walker's arrow and the cells walked), captured in headless Chromium (skipped without it)."""
    import base64
    import html
    import json
    import re
    import shutil
    import subprocess
    import tempfile

    from laby3d.export.browser import HEADLESS_CHROMIUM_FLAGS

    chromium = shutil.which("chromium")
    if chromium is None:
        print("chromium not installed: docs/walk-*.png not redrawn")
        return
    maze = laby3d.generate(10, 14, algorithm="wilson", seed=2)
    grab = (
        "<script>(function w(){var h=window.laby3d;if(!h||!h.ready)return setTimeout(w,20);"
        "document.getElementById('laby3d-help').style.display='none';"
        "h.simulate(['KeyW'],1.2);h.simulate(['ArrowRight'],0.6);h.simulate(['KeyW'],0.4);"
        "h.setTrail(true);var walk=h.snapshot();h.setOverview(true);var map=h.snapshot();"
        "document.body.setAttribute('data-png',JSON.stringify([walk,map]));})();</script>"
    )
    page = Path(tempfile.mkdtemp()) / "walk.html"
    page.write_text(laby3d.render(maze, "html").decode().replace("</body>", grab + "</body>"), encoding="utf-8")
    done = subprocess.run(
        [
            chromium,
            *HEADLESS_CHROMIUM_FLAGS,
            "--window-size=800,600",
            f"--user-data-dir={tempfile.mkdtemp()}",
            "--virtual-time-budget=10000",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        check=True,
        timeout=120,
    )
    walk, above = json.loads(html.unescape(re.search(rb'data-png="([^"]*)"', done.stdout)[1].decode()))
    write_atomic(first_person, base64.b64decode(walk.split(",", 1)[1]))
    write_atomic(overview, base64.b64decode(above.split(",", 1)[1]))


def worksheet_page(path: Path) -> None:
    """Page 1 of a worksheet, rendered by poppler's pdftoppm (skipped without it)."""
    import shutil
    import subprocess
    import tempfile

    pdftoppm = shutil.which("pdftoppm")
    if pdftoppm is None:
        print("pdftoppm not installed: docs/worksheet-page.png not redrawn")
        return
    maze = laby3d.generate(12, 12, algorithm="wilson", seed=101)
    pdf = laby3d.render(maze, "worksheet.pdf", label="Chloé", class_name="5B")
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "worksheet.pdf"
        source.write_bytes(pdf)
        subprocess.run([pdftoppm, "-r", "60", "-png", "-singlefile", str(source), str(Path(tmp) / "page")], check=True)
        write_atomic(path, (Path(tmp) / "page.png").read_bytes())


def lesson_frame(path: Path) -> None:
    """Step 30 of Kruskal on a 6×8 maze: zones in colour, opened and rejected walls."""
    from laby3d.draw.lesson import lesson_frame_png

    maze = laby3d.generate(6, 8, algorithm="kruskal", seed=3)
    write_atomic(path, lesson_frame_png(maze, 30, lang="en", width_px=520))


def main() -> None:
    wilson = laby3d.generate(12, 18, algorithm="wilson", seed=1)
    write_atomic(DOCS / "maze-solution.png", maze_picture(wilson, "png", solution=True))
    write_atomic(DOCS / "generation.gif", generation_gif(wilson))
    backtracker = laby3d.generate(12, 18, algorithm="backtracker", seed=1)
    write_atomic(DOCS / "maze-heatmap.png", maze_picture(backtracker, "png", heatmap=True))
    solid_picture(DOCS / "solid.png")
    laser_pictures(DOCS)
    walk_pictures(DOCS / "walk-overview.png", DOCS / "walk-first-person.png")
    worksheet_page(DOCS / "worksheet-page.png")
    lesson_frame(DOCS / "lesson-frame.png")


if __name__ == "__main__":
    main()
