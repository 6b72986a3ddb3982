"""The format registry: a format name (as ``laby3d list`` prints it, YAML's ``formats`` takes it
and a file ends with it) → its renderers, returning bytes from a
:class:`laby3d.pipeline.RenderContext`.

Renderers are pure: they read the context (the maze, the job's options and the intermediates
the context builds once, such as the solid) and return bytes; only :mod:`laby3d.export.writer`
writes files.

This is the one table that chooses specialised code for an output: a format's renderers, and
the builders of the intermediates several formats share (:data:`SOLIDS`), are keyed by the
tessellation's kind (``"square"``: the square grid's own code, kept where it is measurably
faster or keeps bytes; ``"any"``: the code written against the cell graph, for every shape).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from laby3d.errors import InternalError, ParameterError

if TYPE_CHECKING:
    from laby3d.pipeline import RenderContext
    from laby3d.text_rules import Font

#: A renderer: the bytes of one format of the context's maze.
Renderer = Callable[["RenderContext"], bytes]
#: Every shape (laby3d.tessellation.SHAPE_NAMES), for the formats that draw them all.
_ALL_SHAPES = ("square", "theta", "hex", "triangle")


def by_kind(table: Mapping[str, T], kind: str) -> T | None:
    """The entry of ``table`` for a tessellation of ``kind``: its own, else the one for any."""
    return table.get(kind, table.get("any"))


#: What a format needs beyond the maze: nothing, the solid, the laser drawing, or the page geometry.
Needs = Literal["maze", "solid", "laser", "page"]
T = TypeVar("T")


@dataclass(frozen=True, kw_only=True)
class Format:
    """One output format: its name (also the file suffix without the dot) and its renderers by
    tessellation kind (``"any"``: every shape)."""

    name: str
    description: str
    renderers: Mapping[str, Renderer]
    needs: Needs = "maze"
    #: The job options its renderer reads: dotted paths, or section prefixes ending in ``.``
    #: (the CLI refuses a typed option that none of the files asked for reads).
    options: tuple[str, ...] = ()
    #: Why the format takes square mazes only, when that is its nature rather than work to do
    #: (the refusal says it instead of "not yet")
    square_only: str | None = None
    #: The font that draws text in it (see :mod:`laby3d.text_rules`), and the job's typed texts
    #: it draws (dotted paths; ``label`` stands for each name of a class set).
    font: Font | None = None
    texts: tuple[str, ...] = ()

    @property
    def shapes(self) -> tuple[str, ...]:
        """The maze shapes its renderers draw (others are refused up front)."""
        return _ALL_SHAPES if "any" in self.renderers else tuple(self.renderers)

    @property
    def takes_cut_boards(self) -> bool:
        """Whether a board cut by an outline (tessellation kind ``outline``) has a renderer."""
        return "any" in self.renderers

    def render(self, context: RenderContext) -> bytes:
        """The bytes of this format of ``context``'s maze, by the renderer of its kind."""
        renderer = by_kind(self.renderers, context.maze.tessellation.kind)
        if renderer is None:
            raise InternalError(f"{self.name} was asked for a {context.maze.shape} maze, which the job refuses")
        return renderer(context)

    @property
    def suffix(self) -> str:
        """The file-name ending, e.g. ``.maze.json``."""
        return f".{self.name}"

    def reads(self, path: str) -> bool:
        """Whether the renderer reads the option at dotted ``path``."""
        return any(path == option or (option.endswith(".") and path.startswith(option)) for option in self.options)


def _maze_file(context: RenderContext) -> bytes:
    return context.maze.to_json().encode()


def _classroom(python: bool) -> Callable[[RenderContext], bytes]:
    def render(context: RenderContext) -> bytes:
        from laby3d.maze.classroom import classroom_json, classroom_py

        return (classroom_py(context.maze, context.job.lang) if python else classroom_json(context.maze)).encode()

    return render


def _walls_csv(context: RenderContext) -> bytes:
    from laby3d.maze.classroom import walls_csv

    return walls_csv(context.maze, context.job.lang, numbering=context.job.worksheet.numbering).encode()


def _text(context: RenderContext) -> bytes:
    pictures = context.job.pictures
    return context.maze.to_ascii(solution=context.show_solution, charset=pictures.charset).encode()


def _picture(fmt: str) -> Renderer:
    def render(context: RenderContext) -> bytes:
        from laby3d.draw.pictures import maze_picture

        heatmap = context.job.pictures.heatmap
        return maze_picture(context.maze, fmt, solution=context.show_solution, heatmap=heatmap)

    return render


def _gif(context: RenderContext) -> bytes:
    from laby3d.draw.animation import generation_gif
    from laby3d.draw.lesson_frames import lesson_frames

    frames = partial(lesson_frames, numbering=context.job.worksheet.numbering)
    return generation_gif(context.maze, every=context.job.worksheet.every, lang=context.job.lang, frames=frames)


def _grid_gif(context: RenderContext) -> bytes:
    from laby3d.draw.animation import generation_gif
    from laby3d.draw.grid_lesson import grid_frames

    frames = partial(grid_frames, numbering=context.job.worksheet.numbering)
    return generation_gif(context.maze, every=context.job.worksheet.every, lang=context.job.lang, frames=frames)


def _lesson(context: RenderContext) -> bytes:
    from laby3d.draw.lesson import lesson_pdf

    job = context.job
    return lesson_pdf(context.maze, every=job.worksheet.every, lang=job.lang, numbering=job.worksheet.numbering)


def _grid_lesson(context: RenderContext) -> bytes:
    from laby3d.draw.grid_lesson import grid_lesson_pdf

    job = context.job
    return grid_lesson_pdf(context.maze, every=job.worksheet.every, lang=job.lang, numbering=job.worksheet.numbering)


def _handout(context: RenderContext) -> bytes:
    from laby3d.draw.handout import handout_pdf

    return handout_pdf(context.maze, lang=context.job.lang, numbering=context.job.worksheet.numbering)


def _grid_handout(context: RenderContext) -> bytes:
    from laby3d.draw.handout import grid_handout_pdf

    return grid_handout_pdf(context.maze, lang=context.job.lang, numbering=context.job.worksheet.numbering)


def _booklet(kind: str) -> Callable[[RenderContext], bytes]:
    def render(context: RenderContext) -> bytes:
        from laby3d.pipeline import render_booklet

        return render_booklet([(context.maze, context.job.label)], context.job, kind)

    return render


def _stl(context: RenderContext) -> bytes:
    from laby3d.export.meshes import stl_bytes

    return stl_bytes(context.solid.body, context.solid_header)


def _3mf(context: RenderContext) -> bytes:
    from laby3d.export.meshes import threemf_bytes

    return threemf_bytes(context.solid, context.solid_header.strip())


def _glb(context: RenderContext) -> bytes:
    from laby3d.export.meshes import glb_bytes

    return glb_bytes(context.solid)


def _svg(context: RenderContext) -> bytes:
    from laby3d.export.laser import svg_bytes

    laser = context.job.laser
    return svg_bytes(
        context.laser_sheets.overview(),
        palette=laser.palette,
        stroke_width=laser.stroke_width,
        metadata=context.laser_metadata(),
        notes=laser.sheet_notes,
    )


def _dxf(context: RenderContext) -> bytes:
    from laby3d.export.laser import dxf_bytes

    laser = context.job.laser
    return dxf_bytes(context.laser_sheets.overview(), palette=laser.palette, notes=laser.sheet_notes)


def _laser_preview(context: RenderContext) -> bytes:
    from laby3d.export.laser_preview import sheet_png

    return sheet_png(context.laser_sheets.overview(), palette=context.job.laser.palette)


def _html(context: RenderContext) -> bytes:
    from laby3d.export.browser import page_html

    job = context.job
    return page_html(context.maze, context.fabrication, walk=job.walk, lang=job.lang, label=job.label).encode()


def _js(context: RenderContext) -> bytes:
    from laby3d.export.scene import scene_js

    job = context.job
    return scene_js(context.maze, context.fabrication, walk=job.walk, label=job.label, lang=job.lang).encode()


def _scene_json(context: RenderContext) -> bytes:
    from laby3d.export.scene import scene_json

    job = context.job
    return scene_json(context.maze, context.fabrication, walk=job.walk, label=job.label, lang=job.lang).encode()


#: Why the class exercise's forms take square mazes only.
_SQUARE_FORM = "the class exercise's square form: each cell's sides N, E, S, O"
#: Options read by each kind of output (see :attr:`Format.options`).
_PICTURE = ("pictures.solution", "pictures.heatmap", "print.solution")
_LESSON = ("worksheet.every", "worksheet.numbering", "lang")
_SHEET = ("worksheet.", "lang", "label")
_SOLID = ("print.", "label")
_SIZES = tuple(f"print.{size}" for size in ("cell_size", "wall_thickness", "wall_height", "base_thickness", "margin"))
#: lang: the kerf card's instructions; the sheets' sizes are validated together
_LASER = ("laser.", *_SIZES, "print.ball", "label", "lang")
_SCENE = (
    *_SIZES,
    *(f"walk.{switch}" for switch in ("overview", "trail", "hint", "timer", "steps")),
    "label",
    "lang",
)

FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format(
            name="maze.json",
            description="maze file (JSON, docs/maze-file.md)",
            renderers={"any": _maze_file},
        ),
        Format(
            name="classroom.json",
            description="the class exercise's form: rows of {N, E, S, O} cells, true = open (JSON)",
            renderers={"square": _classroom(python=False)},
            square_only=_SQUARE_FORM,
        ),
        Format(
            name="classroom.py",
            description="the class exercise's form as Python: labyrinthe = [[{'N': …}, …], …]",
            renderers={"square": _classroom(python=True)},
            square_only=_SQUARE_FORM,
            options=("lang",),  # the comment
        ),
        Format(
            name="walls.csv",
            description="the walls in the order taken (Kruskal: drawn), zone numbers, opened or rejected",
            renderers={"square": _walls_csv},
            options=("worksheet.numbering", "lang"),  # lang: the header, yes/no
            square_only=_SQUARE_FORM,
        ),
        Format(
            name="txt",
            description="text art (box drawing; --charset ascii for +--+)",
            renderers={"square": _text},
            options=("pictures.charset", "pictures.solution", "print.solution"),
            square_only="text art: the walls of other shapes do not lie on a grid of characters",
        ),
        Format(name="png", description="picture (matplotlib)", renderers={"any": _picture("png")}, options=_PICTURE),
        Format(
            name="pdf",
            description="picture, vector (matplotlib)",
            renderers={"any": _picture("pdf")},
            options=_PICTURE,
        ),
        Format(
            name="ps",
            description="picture, PostScript (matplotlib)",
            renderers={"any": _picture("ps")},
            options=_PICTURE,
        ),
        Format(
            name="gif",
            description="animation of the generation: zones, opened and rejected walls",
            renderers={"square": _grid_gif, "any": _gif},
            options=_LESSON,
            font="dejavu",
        ),
        Format(
            name="lesson.pdf",
            description="the generation step by step, a page per step (graph lesson)",
            renderers={"square": _grid_lesson, "any": _lesson},
            options=_LESSON,
            font="dejavu",
        ),
        Format(
            name="handout.pdf",
            description="the class exercise on paper: the rule, the walls to replay, grids to fill in (A4, ≤ 30 cells)",
            renderers={"square": _grid_handout, "any": _handout},
            options=("worksheet.numbering", "lang"),
            font="dejavu",
        ),
        Format(
            name="worksheet.pdf",
            description="worksheet: maze, name fields, instruction (A4, Letter or A3)",
            renderers={"any": _booklet("worksheet.pdf")},
            options=_SHEET,
            font="dejavu",
            texts=("label", "worksheet.class_name", "worksheet.instruction"),
        ),
        Format(
            name="key.pdf",
            description="answer key: the maze with its solution",
            renderers={"any": _booklet("key.pdf")},
            options=_SHEET,
            font="dejavu",
            texts=("label",),
        ),
        Format(
            name="stl",
            description="printable solid, binary STL (one body)",
            renderers={"any": _stl},
            needs="solid",
            options=_SOLID,
            font="dejavu",
            texts=("label",),
        ),
        Format(
            name="3mf",
            description="printable solid, 3MF in mm (coloured parts)",
            renderers={"any": _3mf},
            needs="solid",
            options=_SOLID,
            font="dejavu",
            texts=("label",),
        ),
        Format(
            name="glb",
            description="printable solid, binary glTF (coloured parts)",
            renderers={"any": _glb},
            needs="solid",
            options=_SOLID,
            font="dejavu",
            texts=("label",),
        ),
        Format(
            name="svg",
            description="laser sheet in mm (see --laser-mode)",
            renderers={"any": _svg},
            needs="laser",
            options=_LASER,
            font="dejavu",
            texts=("label",),
        ),
        Format(
            name="dxf",
            description="laser sheet, DXF in mm (a layer per operation)",
            renderers={"any": _dxf},
            needs="laser",
            options=_LASER,
            font="dejavu",
            texts=("label",),
        ),
        Format(
            name="laser.png",
            description="preview of the laser sheets",
            renderers={"any": _laser_preview},
            needs="laser",
            options=_LASER,
            font="dejavu",
            texts=("label",),
        ),
        Format(
            name="html",
            description="walk-through page, works offline",
            renderers={"any": _html},
            needs="page",
            options=_SCENE,
            font="browser",
            texts=("label",),
        ),
        Format(
            name="js",
            description="scene file as JavaScript (docs/scene-format.md)",
            renderers={"any": _js},
            needs="page",
            options=(*_SCENE, "walk.scene_global"),
            font="browser",
            texts=("label",),
        ),
        Format(
            name="scene.json",
            description="scene file as JSON (docs/scene-format.md)",
            renderers={"any": _scene_json},
            needs="page",
            options=_SCENE,
            font="browser",
            texts=("label",),
        ),
    )
}


@dataclass(frozen=True, kw_only=True)
class ClassFormat:
    """A format made once over many mazes of a batch (``laby3d batch`` only, no file per maze):
    its name and what each of its mazes needs."""

    name: str
    description: str
    needs: Needs
    #: maze shapes it takes, the font that draws its text and the texts it draws (as :class:`Format`)
    shapes: tuple[str, ...] = _ALL_SHAPES
    font: Font | None = None
    texts: tuple[str, ...] = ()


#: Formats made once over the mazes of a batch.
CLASS_FORMATS: dict[str, ClassFormat] = {
    f.name: f
    for f in (
        ClassFormat(
            name="plates",
            description="the solids arranged on the printer's plates: a 3MF per plate and the printing plan "
            "(batch only; needs print.printer or print.bed)",
            needs="solid",
            font="dejavu",  # the solids' labels
            texts=("label",),
        ),
    )
}


@dataclass(frozen=True, kw_only=True)
class SolidBuilder:
    """How the printable solid of a maze is made (for STL, 3MF, GLB, plates and the report)."""

    #: the solid (its body and parts) from the context
    build: Callable[[RenderContext], Any]
    #: the 80-character STL header from the context and its solid
    header: Callable[[RenderContext], str]


def _solid(context: RenderContext) -> Any:
    from laby3d.mesh.solid import maze_solid

    return maze_solid(context.maze, context.fabrication, context.job.print.solid_options(context.job.label))


def _solid_header(context: RenderContext) -> str:
    from laby3d.export.meshes import stl_header

    return stl_header(context.maze, context.solid.body, context.fabrication)


#: The solid's builder by tessellation kind: the planar arrangement of the plan's polygons, built
#: from the cell graph's walls, for every shape. (The square grid's raster plan and height-field
#: mesher, kept here until issue 25, measured 1.0–1.4× this one's time from 30×30 to 200×200 and
#: 0.8–0.9× at 10–15 with the same triangles: bench/README.md.)
SOLIDS: dict[str, SolidBuilder] = {"any": SolidBuilder(build=_solid, header=_solid_header)}


def solid_builder(kind: str) -> SolidBuilder:
    """The solid builder for a tessellation of ``kind``."""
    found = by_kind(SOLIDS, kind)
    if found is None:
        raise InternalError(f"no solid is built for a {kind} tessellation")
    return found


def any_format(name: str) -> Format | ClassFormat:
    """The format called ``name``, made per maze or once over a batch's mazes (a name of
    :data:`FORMATS` or :data:`CLASS_FORMATS`, as a job's formats are)."""
    return FORMATS.get(name) or CLASS_FORMATS[name]


def needs_of(name: str) -> Needs:
    """What format ``name`` (per maze or per class) needs beyond the maze."""
    return any_format(name).needs


def shapes_of(name: str) -> tuple[str, ...]:
    """The maze shapes format ``name`` (per maze or per class) takes."""
    return any_format(name).shapes


def square_only(name: str) -> str | None:
    """Why format ``name`` takes square mazes only, when that is its nature (else None)."""
    found = FORMATS.get(name)
    return found.square_only if found is not None else None


def format_for(path: str) -> Format:
    """The format whose suffix ends ``path`` (longest suffix wins: .maze.json before .json)."""
    name = path.lower()
    for fmt in sorted(FORMATS.values(), key=lambda f: len(f.suffix), reverse=True):
        if name.endswith(fmt.suffix):
            return fmt
    suffixes = ", ".join(f.suffix for f in FORMATS.values())
    raise ParameterError(f"{path!r}: unknown format; the file name must end with one of {suffixes}", field="output")


def get_format(name: str) -> Format:
    """The format called ``name`` (as ``laby3d list`` prints it)."""
    try:
        return FORMATS[name]
    except KeyError:
        raise ParameterError(f"must be one of {', '.join(FORMATS)}, got {name!r}", field="format") from None
