"""Job and batch configuration: pydantic models, YAML loading, one-line errors.

A *job* describes one maze (or a set of variants) and the files wanted; ``laby3d generate``
builds the same :class:`Job` from its flags, so both paths share validation. Structure and
ranges are checked by pydantic; rules between fields (wall thinner than the cell, groove
shallower than the base, options of the chosen algorithm) by the same domain objects the
library uses, so there is one source of truth.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from laby3d.errors import Laby3dError, ParameterError
from laby3d.export.formats import FORMATS
from laby3d.geometry.laser import LaserOptions
from laby3d.geometry.params import MAX_SIZE_MM, Fabrication, parse_sizes
from laby3d.maze.algorithms import ALGORITHMS, get_algorithm
from laby3d.maze.generate import MAX_SEED
from laby3d.maze.placement import PLACEMENTS
from laby3d.mesh.solid import SolidOptions
from laby3d.printability import PRINTERS, PrintSettings, parse_bed

#: Output format names (file suffix without the dot).
FORMAT_NAMES = tuple(suffix[1:] for suffix in FORMATS)
#: Largest maze of a batch job (cells); see :func:`laby3d.batch.memory_estimate` for the budget.
MAX_JOB_CELLS = 1_000_000
#: Largest number of mazes in one job (count or names).
MAX_VARIANTS = 1000

Millimetres = Annotated[float, Field(allow_inf_nan=False)]


class ConfigError(ValueError, Laby3dError):
    """A configuration file or job is invalid; the message names file, job and field."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MazeSpec(_Model):
    """The maze: size, algorithm and its options, placement of entrance and exit."""

    rows: int = Field(15, ge=1, le=2000, description="number of rows (1..2000)")
    cols: int = Field(15, ge=1, le=2000, description="number of columns (1..2000)")
    algorithm: str = Field("kruskal", description=f"one of {', '.join(ALGORITHMS)}")
    placement: Literal["corners", "opposite-sides", "center", "hardest", "explicit"] = Field(
        "corners", description=f"entrance and exit placement: {', '.join(PLACEMENTS)}"
    )
    entrance: str | None = Field(None, description="for placement explicit: 'row,col,side', e.g. '0,0,W'")
    exit: str | None = Field(None, description="for placement explicit: 'row,col,side'")
    policy: str | None = Field(None, description="growing_tree pick policy, e.g. 'newest:0.75,random:0.25'")
    bias: float | None = Field(None, ge=0, le=1, description="sidewinder/binary_tree bias (0..1)")
    join: float | None = Field(None, ge=0, le=1, description="eller: probability of joining sets (0..1)")
    down: float | None = Field(None, ge=0, le=1, description="eller: probability of opening south (0..1)")

    @field_validator("algorithm")
    @classmethod
    def _known_algorithm(cls, value: str) -> str:
        get_algorithm(value)
        return value

    def options(self) -> dict[str, Any]:
        """The algorithm options given (checked against the chosen algorithm)."""
        given = {name: getattr(self, name) for name in ("policy", "bias", "join", "down")}
        return {name: value for name, value in given.items() if value is not None}


class PrintSpec(_Model):
    """The printable solid (mm) and the printer it is checked against."""

    cell_size: Millimetres = Field(10.0, gt=0, le=MAX_SIZE_MM, description="grid pitch, mm")
    wall_thickness: Millimetres = Field(1.6, gt=0, description="mm, < cell_size")
    wall_height: Millimetres = Field(8.0, gt=0, le=MAX_SIZE_MM, description="above the base, mm")
    base_thickness: Millimetres = Field(2.0, ge=0, le=MAX_SIZE_MM, description="floor plate, mm; 0 = walls only")
    margin: Millimetres = Field(0.0, ge=0, le=MAX_SIZE_MM, description="floor beyond the outer walls, mm")
    solution: Literal["none", "groove", "ridge"] = Field("none", description="solution in the solid")
    solution_width: Millimetres | None = Field(None, gt=0, description="mm; default 40% of the corridor")
    solution_depth: Millimetres = Field(0.6, gt=0, description="groove depth or ridge height, mm")
    printer: str | None = Field(None, description=f"bed preset: {', '.join(PRINTERS)}")
    bed: str | None = Field(None, description="printable volume WxD[xH] in mm, e.g. '250x210x220'")
    nozzle: Millimetres = Field(0.4, gt=0, le=5, description="nozzle diameter, mm")
    ball: Millimetres | None = Field(None, gt=0, description="ball diameter, mm (rolling-ball mazes)")
    force: bool = Field(False, description="export even with walls thinner than the nozzle")
    label_mode: Literal["none", "engrave", "emboss"] = Field(
        "engrave", description="how the job's label goes on the floor margin (needs margin >= 5 mm)"
    )
    label_depth: Millimetres = Field(0.6, gt=0, description="label engraving depth or embossing height, mm")
    markers: bool = Field(False, description="arrows engraved on the margin at the entrance and exit (margin >= 4 mm)")

    def fabrication(self) -> Fabrication:
        """The solid's sizes (checked together)."""
        return Fabrication(self.cell_size, self.wall_thickness, self.wall_height, self.base_thickness, self.margin)

    def solid_options(self, label: str | None = None) -> SolidOptions:
        """What the solid shows besides the walls (``label``: the text, unless label_mode is none)."""
        text = label if self.label_mode != "none" else None
        mode: Literal["engrave", "emboss"] = "emboss" if self.label_mode == "emboss" else "engrave"
        return SolidOptions(
            self.solution, self.solution_width, self.solution_depth, text, mode, self.label_depth, self.markers
        )

    def print_settings(self) -> PrintSettings:
        """Printer, nozzle and ball for the printability report."""
        bed = parse_bed(self.bed) if self.bed else None
        return PrintSettings(self.printer, bed, self.nozzle, self.ball, self.force)


class LaserSpec(_Model):
    """The laser sheet (mm): mode, kerf, material sheet and colours."""

    mode: Literal["lines", "outline", "stack"] = Field("lines", description="lines, outline or stack")
    kerf: Millimetres = Field(0.15, ge=0, le=2, description="cut width, mm (parts grow by kerf/2)")
    sheet: str = Field("600x400", description="material sheet WxH in mm (stack mode)")
    spacing: Millimetres = Field(3.0, ge=0, le=100, description="gap between parts, mm")
    top: bool = Field(False, description="stack: add a clear top sheet with a ball hole")
    palette: Literal["default", "boxes"] = Field("default", description="stroke colours per operation")
    stroke_width: Millimetres = Field(0.1, gt=0, le=1, description="hairline width, mm")
    reference_square: bool = Field(False, description="engrave a 100 mm square to check the scale")

    def options(self, ball: float | None, label: str | None = None) -> LaserOptions:
        """The library's laser options."""
        width, height = parse_sizes(self.sheet, "sheet", (2,), "WxH", "600x400")
        sheet = (width, height)
        return LaserOptions(
            self.mode, self.kerf, sheet, self.spacing, self.top, ball, True, self.reference_square, label
        )


class PictureSpec(_Model):
    """What pictures and text show."""

    solution: bool = Field(False, description="mark the solution")
    heatmap: bool = Field(False, description="colour cells by distance from the entrance")
    charset: Literal["unicode", "ascii"] = Field("unicode", description="text art characters")


class Job(_Model):
    """One job: a maze (or variants of it) and the files wanted."""

    name: str = Field("maze", min_length=1, max_length=100, description="job name (file names derive from it)")
    seed: int | None = Field(None, ge=0, le=MAX_SEED, description="random seed; drawn and recorded when absent")
    label: str | None = Field(
        None,
        min_length=1,
        max_length=60,
        description="text on the solid's margin and the laser sheet (with names: each name)",
    )
    count: int | None = Field(None, ge=1, le=MAX_VARIANTS, description="number of variants, seeds derived")
    names: list[Annotated[str, Field(min_length=1, max_length=100)]] | None = Field(
        None, min_length=1, max_length=MAX_VARIANTS, description="one maze per name (a class set)"
    )
    maze: MazeSpec = MazeSpec()
    print: PrintSpec = PrintSpec()
    pictures: PictureSpec = PictureSpec()
    laser: LaserSpec = LaserSpec()
    formats: list[Literal[FORMAT_NAMES]] = Field(  # type: ignore[valid-type]
        ["maze.json", "png"], min_length=1, description=f"outputs: {', '.join(FORMAT_NAMES)}"
    )

    def check(self) -> None:
        """Rules between fields, by the library's own objects; raises :class:`ParameterError`."""
        get_algorithm(self.maze.algorithm).resolve_options(self.maze.options())
        fabrication = self.print.fabrication()
        fabrication.check_size(self.maze.rows, self.maze.cols)
        labelled = self.label is not None or self.names is not None
        solids = any(fmt in ("stl", "3mf", "glb") for fmt in self.formats)
        if labelled and solids and self.print.label_mode != "none" and self.print.margin < 5:
            raise ParameterError(
                f"margin must be >= 5 mm for the label on the solid (print.margin), got {self.print.margin:g}; "
                "or set print.label_mode: none"
            )
        self.print.solid_options(self.label).check(fabrication)
        self.laser.options(self.print.ball, self.label).check(fabrication)
        settings = self.print.print_settings()
        settings.bed_size()
        if self.count is not None and self.names is not None:
            raise ParameterError("count and names: give one or the other")


class Batch(_Model):
    """A batch file: defaults merged into every job, key by key."""

    output_dir: str | None = Field(None, description="where outputs go; default outputs/<config file stem>")
    defaults: dict[str, Any] = Field(default_factory=dict, description="settings every job starts from")
    jobs: list[dict[str, Any]] = Field(min_length=1, description="the jobs")


def merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """``override`` merged over ``base``, recursively for nested mappings."""
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _field_description(model: type[BaseModel], loc: tuple[Any, ...]) -> str | None:
    """The description (with its allowed range) of the field at ``loc`` under ``model``."""
    description = None
    for part in loc:
        field = model.model_fields.get(str(part)) if isinstance(part, str) else None
        if field is None:
            continue
        description = field.description
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            model = annotation
    return description


def _describe(error: ValidationError, prefix: str, model: type[BaseModel] = BaseModel) -> str:
    """The first pydantic error as ``prefix field.path: message, got value (allowed)``."""
    first = error.errors()[0]
    loc = tuple(first["loc"])
    path = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in loc).lstrip(".")
    kind = first["type"]
    if kind == "extra_forbidden":
        message = "unknown key"
    elif kind == "value_error":
        message = str(first.get("ctx", {}).get("error", first["msg"]))
    else:
        message = first["msg"][0].lower() + first["msg"][1:]
        if kind != "missing":
            message += f", got {first['input']!r}"
    description = _field_description(model, loc) if model is not BaseModel else None
    if description and kind not in ("extra_forbidden", "value_error"):
        message += f" ({description})"
    separator = " " if prefix.endswith(":") else ("." if prefix and path and not path.startswith("[") else "")
    return f"{prefix}{separator}{path}: {message}"


def job_from_dict(data: dict[str, Any], where: str = "") -> Job:
    """A checked :class:`Job`; errors name ``where`` and the field."""
    try:
        job = Job.model_validate(data)
    except ValidationError as error:
        raise ConfigError(_describe(error, where, Job)) from None
    try:
        job.check()
    except ParameterError as error:
        field = str(error).split(" ", 1)[0]
        section = _section_of(field)
        location = f"{where}.{section}.{field}" if section else where
        raise ConfigError(f"{location.lstrip('.')}: {error}") from None
    return job


def _section_of(field: str) -> str:
    """Which job section a domain error's leading field name belongs to."""
    if field in ("sheet", "kerf", "spacing", "laser"):
        return "laser"
    for section, model in (("maze", MazeSpec), ("print", PrintSpec)):
        if field in model.model_fields:
            return section
    return ""


def load_batch(path: str | Path) -> tuple[Batch, list[Job]]:
    """Read a YAML batch file safely and check every job (defaults merged)."""
    import yaml

    path = Path(path)
    name = path.name
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ConfigError(f"{name}: cannot read: {error.strerror}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        raise ConfigError(f"{name}: not valid YAML{where}: {getattr(error, 'problem', error)}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{name}: expected a mapping with 'jobs' (and optional 'defaults', 'output_dir')")
    try:
        batch = Batch.model_validate(data)
    except ValidationError as error:
        raise ConfigError(_describe(error, name + ":")) from None
    if not isinstance(batch.defaults, dict):
        raise ConfigError(f"{name}: defaults must be a mapping")
    try:
        Job.model_validate(merge({"name": "defaults"}, batch.defaults))
    except ValidationError as error:
        raise ConfigError(_describe(error, f"{name}: defaults", Job)) from None
    jobs = []
    for index, raw in enumerate(batch.jobs):
        label = raw.get("name", "?") if isinstance(raw, dict) else "?"
        jobs.append(job_from_dict(merge(batch.defaults, raw), f"{name}: jobs[{index}] ({label})"))
    return batch, jobs


def memory_estimate_mb(job: Job) -> float:
    """Rough peak memory of one maze of ``job`` in a worker process, MB (measured in bench/)."""
    cells = job.maze.rows * job.maze.cols
    solid = any(fmt in ("stl", "3mf", "glb") for fmt in job.formats)
    per_cell_kb = 2.5 if solid else 0.3
    return 200 + cells * per_cell_kb / 1024


def check_budget(jobs: list[Job], limit_mb: float = 3000.0) -> None:
    """Refuse jobs whose mazes would need more than ``limit_mb`` per worker, up front."""
    for job in jobs:
        cells = job.maze.rows * job.maze.cols
        estimate = memory_estimate_mb(job)
        if cells > MAX_JOB_CELLS or estimate > limit_mb or not math.isfinite(estimate):
            raise ConfigError(
                f"job {job.name}: {job.maze.rows}×{job.maze.cols} = {cells:,} cells would need about "
                f"{estimate:,.0f} MB per worker; batch jobs are limited to {MAX_JOB_CELLS:,} cells "
                f"and {limit_mb:,.0f} MB"
            )


def batch_schema() -> dict[str, Any]:
    """JSON Schema of a batch file: ``output_dir``, ``defaults`` and ``jobs`` (both jobs)."""
    job = Job.model_json_schema()
    definitions = job.pop("$defs", {})
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "laby3d batch file",
        "type": "object",
        "additionalProperties": False,
        "required": ["jobs"],
        "properties": {
            "output_dir": {"type": "string", "description": "default outputs/<config file stem>"},
            "defaults": {**job, "required": [], "description": "merged under every job, key by key"},
            "jobs": {"type": "array", "minItems": 1, "items": job},
        },
        "$defs": definitions,
    }
