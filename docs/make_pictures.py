"""Regenerate the README's pictures: ``python docs/make_pictures.py`` (from the repository root);
``python docs/make_pictures.py shapes`` draws the other shapes' pictures only, ``… outlines``
those of boards cut by an outline and braided mazes."""

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
from laby3d.mesh.types import Mesh

DOCS = Path(__file__).parent


def _shaded(
    meshes: list[tuple[Mesh, tuple[float, float, float]]], path: Path, *, elevation: float = 50.0, layered: bool = False
) -> None:
    """A shaded view of coloured meshes (matplotlib 3D), from ``elevation`` degrees (negative:
    from below); ``layered``: each mesh drawn over the ones before it (a base first: matplotlib
    sorts faces by their middle, and a long floor triangle's middle can lie nearer than a wall)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection

    figure = Figure(figsize=(6, 4.5))
    FigureCanvasAgg(figure)
    axes = figure.add_subplot(projection="3d")
    light = np.array([0.3, -0.5, 0.8 if elevation > 0 else -0.8])
    light /= np.linalg.norm(light)
    up, azimuth = np.radians(elevation), np.radians(-60)
    viewer = np.array([np.cos(up) * np.cos(azimuth), np.cos(up) * np.sin(azimuth), np.sin(up)])
    triangles, colours = [], []
    for mesh, colour in meshes:
        normals = mesh.normals()
        facing = normals @ viewer > 0  # back faces culled: matplotlib sorts faces only roughly
        shade = 0.45 + 0.55 * np.clip(normals[facing] @ light, 0, 1)
        triangles.append(mesh.triangles[facing])
        colours.append(np.clip(np.outer(shade, colour), 0, 1))
    if layered:
        axes.computed_zorder = False
        for faces, colour in zip(triangles, colours, strict=True):
            axes.add_collection3d(Poly3DCollection(faces, facecolors=colour, edgecolors="none"))
    else:
        axes.add_collection3d(
            Poly3DCollection(np.concatenate(triangles), facecolors=np.concatenate(colours), edgecolors="none")
        )
    low, high = np.min([m.bounds()[0] for m, _ in meshes], axis=0), np.max([m.bounds()[1] for m, _ in meshes], axis=0)
    extent = high - low
    axes.set_xlim(low[0], high[0])
    axes.set_ylim(low[1], high[1])
    axes.set_zlim(low[2], low[2] + max(extent[2], 0.3 * extent[0]))
    axes.set_box_aspect((extent[0], extent[1], max(extent[2], 0.3 * extent[0])))
    axes.view_init(elev=elevation, azim=-60)
    axes.set_axis_off()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight", metadata={"Software": None})
    write_atomic(path, buffer.getvalue())


def solid_picture(path: Path) -> None:
    """A small printable solid with its solution raised, coloured by part."""
    maze = laby3d.generate(8, 10, algorithm="wilson", seed=1)
    parts = maze_solid(maze, Fabrication(), SolidOptions(solution="ridge")).parts
    colours = {"base": (0.92, 0.92, 0.88), "walls": (0.16, 0.35, 0.67), "solution": (0.86, 0.24, 0.16)}
    _shaded([(parts[name], colour) for name, colour in colours.items()], path)


def shaped_solid_pictures(docs: Path) -> None:
    """A round, a hex and a triangle maze's printable solid with its solution raised, coloured by
    part (the README's solids of other shapes)."""
    colours = {"base": (0.92, 0.92, 0.88), "solution": (0.86, 0.24, 0.16), "walls": (0.16, 0.35, 0.67)}
    for name, size in (("theta", (6, None)), ("hex", (5, 6)), ("triangle", (5, 8))):
        maze = laby3d.generate(*size, shape=name, algorithm="wilson", seed=1)
        parts = maze_solid(maze, Fabrication(), SolidOptions(solution="ridge")).parts
        _shaded([(parts[part], colour) for part, colour in colours.items()], docs / f"solid-{name}.png", layered=True)


def _height_map(mesh: Mesh, path: Path, *, from_below: bool = False, px_per_mm: float = 6.0) -> None:
    """The mesh's faces seen straight from above (or below, mirrored as a reader would see it),
    shaded by their height (each height a shade, nearer lighter). Drawn from the triangles themselves."""
    from PIL import Image, ImageDraw

    corners = mesh.triangles
    normals = mesh.normals(corners)
    seen = normals[:, 2] < -0.5 if from_below else normals[:, 2] > 0.5
    faces = corners[seen]
    heights = np.round(faces[:, :, 2].mean(axis=1), 3)
    levels = np.unique(heights)  # each height its own shade, evenly spaced: thin engravings show
    rank = np.searchsorted(levels, heights) / max(len(levels) - 1, 1)
    nearness = 1 - rank if from_below else rank
    (x0, y0, _), (x1, y1, _) = mesh.bounds()
    width, depth = int((x1 - x0) * px_per_mm) + 1, int((y1 - y0) * px_per_mm) + 1
    image = Image.new("RGB", (width, depth), "white")
    draw = ImageDraw.Draw(image)
    for index in np.argsort(nearness):  # farthest first
        xs = (faces[index, :, 0] - x0) * px_per_mm
        if from_below:
            xs = width - 1 - xs
        ys = (y1 - faces[index, :, 1]) * px_per_mm
        level = 0.35 + 0.65 * nearness[index]
        colour = tuple(int(255 * level * c) for c in (0.55, 0.75, 1.0))
        draw.polygon(list(zip(xs.tolist(), ys.tolist(), strict=True)), fill=colour)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    write_atomic(path, buffer.getvalue())


def label_pictures(margin: Path, bottom: Path) -> None:
    """A name engraved on the margin (seen from above), and one engraved mirrored under the base
    (seen from below, where it reads the right way round)."""
    maze = laby3d.generate(6, 8, algorithm="wilson", seed=4)
    _height_map(maze_solid(maze, Fabrication(margin=10), SolidOptions(label="Chloé")).body, margin)
    under = maze_solid(maze, Fabrication(), SolidOptions(label="Željko", label_position="bottom"))
    _height_map(under.body, bottom, from_below=True)


def laser_pictures(docs: Path) -> None:
    """configs/laser.yaml's ball kit assembled (exploded) and its sheets; a class set's first sheet."""
    from kit_picture import kit_png

    from laby3d.export.laser import svg_bytes
    from laby3d.export.laser_preview import sheet_png
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
    group = class_sheets(pupils, Fabrication(cell_size=10, wall_thickness=3, margin=6), kit)  # a band for names
    write_atomic(docs / "laser-class.png", sheet_png(group.pages[0], width_px=900))


def laser_shape_pictures(docs: Path) -> None:
    """A round maze's ball kit assembled (exploded), and a class set of round kits' first
    plywood sheet: the discs in staggered rows."""
    from kit_picture import kit_png

    from laby3d.export.laser_preview import sheet_png
    from laby3d.geometry.laser import LaserOptions, class_sheets, laser_sheets

    fab = Fabrication(cell_size=10, wall_thickness=2, margin=6)
    round_maze = laby3d.generate(8, shape="theta", algorithm="wilson", seed=3)
    options = LaserOptions(mode="stack", top=True, ball=4, registration_holes=3, label="Ana")
    write_atomic(docs / "laser-kit-theta.png", kit_png(laser_sheets(round_maze, fab, options).kit, width_px=700))
    names = ["Ana", "Ben", "Chloé", "Dmitri", "Emma", "Farid", "Gaëlle", "Hugo"]
    pupils = [(name, laby3d.generate(6, shape="theta", seed=k)) for k, name in enumerate(names)]
    group = class_sheets(pupils, fab, LaserOptions(mode="stack", top=True, ball=3))
    write_atomic(docs / "laser-class-theta.png", sheet_png(group.pages[0], width_px=700))


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
    """Page 1 of a worksheet."""
    maze = laby3d.generate(12, 12, algorithm="wilson", seed=101)
    first_page_png(path, laby3d.render(maze, "worksheet.pdf", label="Chloé", class_name="5B"))


def handout_page(path: Path) -> None:
    """Page 1 of the lesson handout of a 5×6 Kruskal maze, in French."""
    maze = laby3d.generate(5, 6, algorithm="kruskal", seed=2)
    first_page_png(path, laby3d.render(maze, "handout.pdf", lang="fr"))


def first_page_png(path: Path, pdf: bytes) -> None:
    """Page 1 of ``pdf`` rendered by poppler's pdftoppm at 60 dpi (skipped without it)."""
    import shutil
    import subprocess
    import tempfile

    pdftoppm = shutil.which("pdftoppm")
    if pdftoppm is None:
        print(f"pdftoppm not installed: {path} not redrawn")
        return
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "document.pdf"
        source.write_bytes(pdf)
        subprocess.run([pdftoppm, "-r", "60", "-png", "-singlefile", str(source), str(Path(tmp) / "page")], check=True)
        write_atomic(path, (Path(tmp) / "page.png").read_bytes())


def lesson_frame(path: Path) -> None:
    """Step 30 of Kruskal on a 6×8 maze: zones in colour, opened and rejected walls."""
    from laby3d.draw.grid_lesson import GridFramePainter, grid_lesson_stages

    maze = laby3d.generate(6, 8, algorithm="kruskal", seed=3)
    ((stage, colours),) = [(stage, colours) for stage, colours in grid_lesson_stages(maze, 1) if stage.opened == 30]
    painter = GridFramePainter(maze, "en", 520, max(10, int(colours.max()) + 1))
    buffer = io.BytesIO()
    painter.frame(stage, colours).convert("RGB").save(buffer, format="PNG", optimize=True)
    write_atomic(path, buffer.getvalue())


def shape_pictures(docs: Path) -> None:
    """The README's pictures of the other shapes, and only those: a round maze with its
    solution, a hex maze coloured by distance, a triangle maze with its solution, a hex lesson
    frame half-way and page 1 of a round maze's worksheet."""
    from laby3d.draw.lesson import lesson_stages
    from laby3d.draw.lesson_frames import FramePainter
    from laby3d.draw.pictures import maze_picture

    round_maze = laby3d.generate(10, shape="theta", algorithm="wilson", seed=3)
    write_atomic(docs / "shape-theta.png", maze_picture(round_maze, "png", solution=True, dpi=60))
    hexes = laby3d.generate(10, 13, shape="hex", algorithm="backtracker", seed=3)
    write_atomic(docs / "shape-hex.png", maze_picture(hexes, "png", heatmap=True, dpi=60))
    triangles = laby3d.generate(8, 16, shape="triangle", algorithm="wilson", seed=3)
    write_atomic(docs / "shape-triangle.png", maze_picture(triangles, "png", solution=True, dpi=60))
    small = laby3d.generate(5, 6, shape="hex", algorithm="kruskal", seed=2)
    shown = lesson_stages(small, 1)
    stage, colours = shown[len(shown) // 2]
    painter = FramePainter(small, "en", 420, max(10, int(colours.max()) + 1))
    buffer = io.BytesIO()
    painter.frame(stage, colours).save(buffer, format="PNG", optimize=True)
    write_atomic(docs / "shape-lesson.png", buffer.getvalue())
    first_page_png(docs / "shape-worksheet.png", laby3d.render(round_maze, "worksheet.pdf", label="Chloé", lang="fr"))


def outline_pictures(docs: Path) -> None:
    """Boards cut by an outline and mazes with loops (the README's section on them): a heart's
    solid, a round maze with a central room, a braided maze with its shortest route, a letter cut
    in lines on a laser sheet and a braided ball maze's laser kit."""
    colours = {"base": (0.92, 0.92, 0.88), "solution": (0.86, 0.24, 0.16), "walls": (0.16, 0.35, 0.67)}
    heart = laby3d.generate(14, 14, outline="heart", algorithm="wilson", seed=2)
    parts = maze_solid(heart, Fabrication(margin=3), SolidOptions(solution="ridge")).parts
    _shaded([(parts[part], colour) for part, colour in colours.items()], docs / "outline-heart.png", layered=True)
    room = laby3d.generate(8, shape="theta", room=2, first_ring=8, algorithm="wilson", seed=2)
    write_atomic(docs / "outline-room.png", maze_picture(room, "png", solution=True))
    braided = laby3d.generate(12, 18, braid=100, algorithm="backtracker", seed=2)
    write_atomic(docs / "outline-braid.png", maze_picture(braided, "png", solution=True))
    from kit_picture import kit_png

    from laby3d.export.laser_preview import sheet_png
    from laby3d.geometry.laser import LaserOptions, laser_sheets

    letter = laby3d.generate(16, 16, shape="hex", outline="text:A", algorithm="wilson", seed=2)
    lines = laser_sheets(letter, Fabrication(cell_size=8, wall_thickness=2), LaserOptions(mode="lines"))
    write_atomic(docs / "outline-laser-letter.png", sheet_png(lines.overview(), width_px=600))
    ball = laby3d.generate(8, 10, braid=100, algorithm="wilson", seed=2)
    kit = LaserOptions(mode="stack", top=True, ball=6, label="Ana")
    fab = Fabrication(cell_size=12, wall_thickness=3, margin=6)
    write_atomic(docs / "outline-ball-braid.png", kit_png(laser_sheets(ball, fab, kit).kit, width_px=700))


def main() -> None:
    wilson = laby3d.generate(12, 18, algorithm="wilson", seed=1)
    write_atomic(DOCS / "maze-solution.png", maze_picture(wilson, "png", solution=True))
    write_atomic(DOCS / "generation.gif", generation_gif(wilson))
    backtracker = laby3d.generate(12, 18, algorithm="backtracker", seed=1)
    write_atomic(DOCS / "maze-heatmap.png", maze_picture(backtracker, "png", heatmap=True))
    solid_picture(DOCS / "solid.png")
    label_pictures(DOCS / "label-margin.png", DOCS / "label-bottom.png")
    laser_pictures(DOCS)
    laser_shape_pictures(DOCS)
    walk_pictures(DOCS / "walk-overview.png", DOCS / "walk-first-person.png")
    worksheet_page(DOCS / "worksheet-page.png")
    lesson_frame(DOCS / "lesson-frame.png")
    handout_page(DOCS / "handout-page.png")
    shape_pictures(DOCS)
    shaped_solid_pictures(DOCS)
    outline_pictures(DOCS)


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["shapes"]:  # python docs/make_pictures.py shapes: the other shapes' pictures only
        shape_pictures(DOCS)
        laser_shape_pictures(DOCS)
        shaped_solid_pictures(DOCS)
    elif sys.argv[1:] == ["outlines"]:  # the outlines and loops pictures only
        outline_pictures(DOCS)
    else:
        main()
