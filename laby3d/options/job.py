"""A job: one maze (or variants of it), its options by section, and the files wanted."""

import dataclasses
import re
from typing import Annotated, Any, Literal

from laby3d.budget import MazeSize, check_costs, check_laser_kit
from laby3d.errors import ParameterError
from laby3d.export.formats import CLASS_FORMATS, FORMATS, any_format, needs_of, shapes_of, square_only
from laby3d.maze.algorithms import get_algorithm
from laby3d.maze.generate import MAX_SEED
from laby3d.options.base import Limits, OptionField, Section, Whole, option, option_fields
from laby3d.options.laser import LaserSpec
from laby3d.options.maze import MazeSpec
from laby3d.options.pictures import PictureSpec
from laby3d.options.presets import PRESETS
from laby3d.options.solid import PrintSpec
from laby3d.options.walk import WalkSpec, check_walkable
from laby3d.options.worksheet import WorksheetSpec
from laby3d.printability import PRINTERS
from laby3d.quoting import shown
from laby3d.tessellation import cell_count_of

#: Output format names, as ``laby3d list`` prints them and YAML's ``formats`` takes them: one
#: file per maze, then those made once over a batch's mazes.
FORMAT_NAMES = (*FORMATS, *CLASS_FORMATS)
PRESET_NAMES = tuple(PRESETS)
#: Largest number of mazes in one job (count or names).
MAX_VARIANTS = 1000
Language = Literal["en", "fr"]
#: The option sections of a job: YAML key -> model.
SECTIONS: dict[str, type[Section]] = {
    "maze": MazeSpec,
    "print": PrintSpec,
    "pictures": PictureSpec,
    "laser": LaserSpec,
    "walk": WalkSpec,
    "worksheet": WorksheetSpec,
}


@dataclasses.dataclass(frozen=True, kw_only=True)
class Job(Section):
    """One job: a maze (or variants of it) and the files wanted."""

    name: str = option("maze", min_length=1, max_length=100, description="job name (file names derive from it)")
    seed: Whole | None = option(None, ge=0, le=MAX_SEED, description="random seed; drawn and recorded when absent")
    label: str | None = option(
        None, min_length=1, max_length=60, description="text on the solid and the laser sheet (with names: each name)"
    )
    lang: Language = option("en", description="language of what pupils read (pages, worksheets, captions)")
    preset: Literal[PRESET_NAMES] | None = option(  # type: ignore[valid-type]
        None, description="start from a preset: quick (about 1 h on a MINI), coaster; the job's own values win"
    )
    count: Whole | None = option(None, ge=1, le=MAX_VARIANTS, description="number of variants, seeds derived")
    names: list[Annotated[str, Limits(max_length=60)]] | None = option(  # each labels its maze; blank: name_problems
        None, min_length=1, max_length=MAX_VARIANTS, description="one maze per name (a class set)"
    )
    maze: MazeSpec = option(default_factory=MazeSpec, description="the maze: shape, size, algorithm, openings")
    print: PrintSpec = option(default_factory=PrintSpec, description="the printable solid (mm) and the printer")
    pictures: PictureSpec = option(default_factory=PictureSpec, description="what pictures and text show")
    laser: LaserSpec = option(default_factory=LaserSpec, description="the laser sheets (mm)")
    walk: WalkSpec = option(default_factory=WalkSpec, description="the walk-through page")
    worksheet: WorksheetSpec = option(default_factory=WorksheetSpec, description="worksheets, keys and the lesson")
    formats: list[Literal[FORMAT_NAMES]] = option(  # type: ignore[valid-type]
        default_factory=lambda: ["maze.json", "png"], min_length=1, description=f"outputs: {', '.join(FORMAT_NAMES)}"
    )
    _notes: tuple[str, ...] = dataclasses.field(default=(), repr=False, compare=False)
    _names_under: tuple[str, ...] = dataclasses.field(default=(), repr=False, compare=False)  # margin too small

    @property
    def notes(self) -> tuple[str, ...]:
        """What building the job changed from what was typed, as warnings (a preset's margin for
        its markers: :func:`laby3d.options.presets.fitted_to_markers`)."""
        return self._notes

    def pupil_job(self, name: str) -> "Job":
        """The job of one name of the class set: labelled with it, and, when the label goes where
        it fits (``auto``) and some of the class's names do not fit the margin, engraved under
        the base like every other name (one side for the class: a teacher looks in one place),
        saying so."""
        job = dataclasses.replace(self, label=name)
        if self._names_under and name not in self._names_under:
            names = ", ".join(shown(other) for other in self._names_under[:3])
            names += "…" if len(self._names_under) > 3 else ""
            note = f"the label is engraved under the base, as every name of the class: the margin does not hold {names}"
            job = dataclasses.replace(
                job,
                print=dataclasses.replace(self.print, label_position="bottom", label_mode="engrave"),
                _notes=(*self._notes, note),
            )
        return job

    def needs(self) -> set[str]:
        """What the job's formats need beyond the maze: ``solid``, ``laser``, ``page``."""
        return {str(needs_of(name)) for name in self.formats} - {"maze"}

    def check(self) -> None:
        """Rules between fields, by the library's own objects, for the outputs asked for; raises
        :class:`ParameterError` whose ``field`` is the dotted path of the field at fault."""
        with located("maze"):
            get_algorithm(self.maze.algorithm).resolve_options(self.maze.options())
            self.maze.check_shape()
            self.maze.check_openings()
        check_shape_formats(self.maze.shape, self.formats, cut=self.maze.is_cut)
        # a theta maze's rows are rings: another shape's size is its cell count
        cells = None if self.maze.shape == "square" else cell_count_of(self.maze.shape, *self.maze.size())
        if "handout.pdf" in self.formats:
            with located("maze"):
                from laby3d.draw.handout import check_handout_size

                check_handout_size(self.maze.rows, self.maze.cols, cells=cells)
        needs = self.needs()
        maze_size = MazeSize.of(self.maze.shape, *self.maze.size())
        check_costs(maze_size, self.formats, algorithm=self.maze.algorithm, every=self.worksheet.every)
        # a class list's every bad name, said at once: each format's font, the name rule, the solid, the laser
        bad_names: dict[int, ParameterError] = {}
        self.check_texts(bad_names)
        for index, problem in name_problems(self.names or []).items():
            bad_names.setdefault(index, problem)
        with located("print", keep=("label", "names")):  # the job's own fields
            fabrication = self.print.fabrication()
            if needs:
                fabrication.check_size(*self.maze.size(), shape=self.maze.shape)
            if "page" in needs:  # the walk-through's walker must pass the narrowest passage
                check_walkable(self.maze.shape, fabrication, self.maze.rows)
            if "solid" in needs:  # the plate, and the label placed as the solid will place it (label, each name)
                from laby3d.mesh.solid import check_plate_size, check_solid

                check_plate_size(self.maze.shape, *self.maze.size(), fabrication)
                checks = None
                if self.names is not None or self.label is not None:  # names share letters: checked once a size
                    from laby3d.geometry.label import GlyphChecks

                    checks = GlyphChecks()
                under: list[str] = []  # the names that go under the base
                for index, text in enumerate(self.names or [self.label]):
                    if index in bad_names:
                        continue
                    try:
                        placement = check_solid(
                            self.print.solid_options(text), fabrication, self.maze.shape, self.maze.size(), checks
                        )
                    except ParameterError as error:
                        if self.names is None or error.field != "label":
                            raise
                        bad_names[index] = ParameterError(error.detail, field=f"names[{index}]")
                        continue
                    if placement is not None and placement.side == "bottom" and text is not None:
                        under.append(text)
                if self.names is not None and self.print.label_position == "auto" and under:
                    object.__setattr__(self, "_names_under", tuple(under))  # one side for the class: all under
                settings = self.print.print_settings()
                if self.print.fleet is not None:
                    self._check_fleet(self.print.fleet, settings.nozzle)
                if settings.bed_size() is None and "plates" in self.formats and self.print.fleet is None:
                    raise ParameterError(
                        "must name the printer whose plates the plates format fills (one of "
                        f"{', '.join(PRINTERS)}), or give print.bed",
                        field="printer",
                    )
                if self.print.slot is not None and "plates" in self.formats and self.print.fleet is None:
                    from laby3d.print_time import time_model

                    if time_model(settings.printer or "", settings.nozzle) is None:
                        raise ParameterError(
                            f"plans plates by their print time, which laby3d estimates for {_timed_printers()} "
                            "only (nozzle 0.4 or 0.6 mm): choose one of them as print.printer, or leave slot out",
                            field="print.slot",
                        )
                settings.check_walls(fabrication)
        if "laser" in needs:  # every check the sheets make: parts on the sheet, legible text, walls
            with located("laser", keep=("label", "print", "names")):  # the ball is the print section's
                laser = self.laser.options(self.print.ball, self.label, self.lang)
                laser.check(fabrication, shape=self.maze.shape)  # sizes alone first: the kit's cost needs a valid ball
                if laser.mode == "stack":
                    check_laser_kit(
                        self.maze.rows,
                        self.maze.cols,
                        cells=cells,
                        height=laser.ball_diameter(fabrication, self.maze.shape) + laser.ball_play,
                        thickness=laser.wall_material.thickness,
                        wall_layers=laser.wall_layers,
                    )
                seed = self.seed if self.names is None and self.count is None else None  # variants: drawn
                while True:  # a name that does not fit is noted, and the check goes on with "A" in its place
                    names = (
                        None
                        if self.names is None
                        else ["A" if index in bad_names else name for index, name in enumerate(self.names)]
                    )
                    try:
                        laser.check(fabrication, size=self.maze.size(), names=names, seed=seed, shape=self.maze.shape)
                        break
                    except ParameterError as error:
                        at = _name_index(error.field)
                        if at is None:
                            raise
                        if at in bad_names:  # "A" fails too: the sheet holds no name; said once, as the name's
                            break
                        bad_names[at] = error
        if bad_names:
            first, *rest = (bad_names[index] for index in sorted(bad_names))
            first.also = tuple(rest)
            raise first
        if self.count is not None and self.names is not None:
            raise ParameterError("and names cannot both be given: one maze per name, or count variants", field="count")

    def _check_fleet(self, fleet: dict[str, int], nozzle: float) -> None:
        """A fleet shares plates by print time: each of its kinds needs a time model, and it gives
        the counts itself (``printers`` stays 1)."""
        from laby3d.print_time import time_model

        if self.print.printers != 1:
            raise ParameterError(
                "cannot be given with a fleet: the fleet says how many printers of each kind", field="print.printers"
            )
        unknown = [kind for kind in fleet if time_model(kind, nozzle) is None]
        if unknown:
            missing = ", ".join(unknown)
            raise ParameterError(
                f"shares plates by print time, which laby3d estimates for {_timed_printers()} only (nozzle 0.4 or "
                f"0.6 mm; PrusaSlicer 2.5, which the estimates are fitted to, has no profile for {missing}): "
                f"plan {unknown[0]} on its own, with printer and printers",
                field="print.fleet",
            )

    def check_texts(self, bad_names: dict[int, ParameterError] | None = None) -> None:
        """Every typed text (the label or each name, the class, the instruction) drawable by the
        font of every format that draws it (:func:`laby3d.text_rules.checked_text`). With
        ``bad_names``, a name's problem is noted there by the name's index, not raised."""
        from laby3d.text_rules import checked_text

        for name in self.formats:
            fmt = any_format(name)
            for path in fmt.texts:
                if fmt.font is None or (path == "label" and fmt.needs == "solid" and self.print.label_mode == "none"):
                    continue
                for index, (field, value) in enumerate(self._typed(path)):
                    if bad_names is None or not field.startswith("names["):
                        checked_text(value, fmt.font, field=field)
                    elif index not in bad_names:
                        try:
                            checked_text(value, fmt.font, field=field)
                        except ParameterError as error:
                            bad_names[index] = error

    def _typed(self, path: str) -> list[tuple[str, str]]:
        """(field, value) of the text at ``path``: ``label`` is each name of a class set."""
        if path == "label" and self.names is not None:
            return [(f"names[{index}]", name) for index, name in enumerate(self.names)]
        section, _, name = path.rpartition(".")
        value = getattr(getattr(self, section) if section else self, name)
        return [] if value is None else [(path, value)]


def _timed_printers() -> str:
    """``mini, mk3``: the printers laby3d has a print time model for (:data:`laby3d.print_time.TIME_MODELS`)."""
    from laby3d.print_time import TIME_MODELS

    return ", ".join(sorted({key.partition("@")[0] for key in TIME_MODELS}))


def _name_index(field: str | None) -> int | None:
    """3 for the field ``names[3]``; None for any other field."""
    match = re.fullmatch(r"names\[(\d+)\]", field or "")
    return None if match is None else int(match.group(1))


def check_shape_formats(shape: str, formats: list[str], *, cut: bool = False) -> None:
    """Every format asked for draws ``shape`` mazes, on a board ``cut`` by an outline or a theta
    option too (the others are refused before any work)."""
    for name in formats:
        if cut and shape in shapes_of(name) and not FORMATS.get(name, FORMATS["maze.json"]).takes_cut_boards:
            unable = ", ".join(other for other in FORMATS if not FORMATS[other].takes_cut_boards)
            raise ParameterError(
                f"{name} takes whole square boards only (its grid has every row and column); a board cut by "
                f"an outline or a theta option gets every format but {unable}",
                field="formats",
            )
        if shape not in shapes_of(name):
            unable = ", ".join(other for other in FORMAT_NAMES if shape not in shapes_of(other))
            why = square_only(name)
            refusal = f"takes square mazes only ({why})" if why else f"does not draw {shape} mazes yet"
            raise ParameterError(
                f"{name} {refusal}; for {shape} mazes laby3d writes every format but {unable}", field="formats"
            )


def check_names(names: list[str]) -> None:
    """A class set's names give distinct pupils and files (:func:`name_problems`); raises the
    first name's problem, with the others in its ``also``."""
    problems = name_problems(names)
    if problems:
        first, *rest = problems.values()
        first.also = tuple(rest)
        raise first


def name_problems(names: list[str]) -> dict[int, ParameterError]:
    """Each name's problem by the one name rule (:mod:`laby3d.filenames`), by the name's index in
    order: blank, characters that are not text (:func:`laby3d.text_rules.text_problem`, as the
    class server checks a pupil's name), no letter or digit, or folding equal to an earlier name
    (differing only by accents, case, spaces or punctuation: one pupil, perhaps one file name)."""
    from laby3d.filenames import folded
    from laby3d.text_rules import spaced, text_problem

    problems: dict[int, ParameterError] = {}
    seen: dict[str, int] = {}
    for index, name in enumerate(names):
        field = f"names[{index}]"
        problem = text_problem(name, "browser") if spaced(name) else "is blank: every pupil needs a name"
        key = folded(name) if problem is None else ""
        if problem is None and not key:
            problem = f"{shown(name)} has no letter or digit to name its files"
        if problem is None and key in seen:
            first = names[seen[key]]
            how = (
                "appears twice"
                if spaced(first) == spaced(name)
                else f"is {shown(first)} but for accents, case, spaces or punctuation"
            )
            example = shown(spaced(name) + " M.")
            problem = f"{shown(name)} {how} (names[{seen[key]}]): make each name distinct, e.g. {example}"
        if problem is not None:
            problems[index] = ParameterError(problem, field=field)
        else:
            seen[key] = index
    return problems


class located:  # noqa: N801 - used as a context manager, reads as a phrase
    """Context manager: a :class:`ParameterError` raised inside gets ``section.`` before its field
    (but for the ``keep`` fields, which belong to the job itself)."""

    def __init__(self, section: str, *, keep: tuple[str, ...] = ()) -> None:
        self.section = section
        self.keep = keep  # fields that are not the section's (left as they are)

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, error: Any, traceback: Any) -> Literal[False]:
        owner = (error.field or "").split(".")[0].split("[")[0] if isinstance(error, ParameterError) else ""
        if isinstance(error, ParameterError) and owner not in self.keep:
            raise error.within(self.section) from None
        return False


def job_flag_fields() -> list[tuple[str, OptionField, list[str]]]:
    """Every option of a job as (dotted path, field, CLI flags), in declaration order."""
    fields: list[tuple[str, OptionField, list[str]]] = []
    for name, field in option_fields(Job).items():
        if name in SECTIONS:
            for sub, subfield in option_fields(SECTIONS[name]).items():
                fields.append((f"{name}.{sub}", subfield, _flags(sub, subfield)))
        elif name not in ("name", "count", "names", "formats"):
            fields.append((name, field, _flags(name, field)))
    return fields


def _flags(name: str, field: OptionField) -> list[str]:
    return list(field.flags or [f"--{name.replace('_', '-')}"])


__all__ = ["FORMAT_NAMES", "Job", "SECTIONS", "job_flag_fields", "located"]
