"""The pupil form, generated from the option fields, and a pupil's design turned into a checked job.

Every form field (kind, range, choices, default, help) comes from
:func:`laby3d.options.job.job_flag_fields`, so the form, the CLI flags and the YAML schema say
the same thing. A design is a flat mapping ``dotted path → value`` (``{"print.cell_size": 8}``);
the class's defaults go under it and the teacher's locks over it, then
:func:`laby3d.options.build.validated_job` checks it exactly as ``laby3d generate`` would.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from laby3d.errors import Laby3dError, ParameterError
from laby3d.i18n import Message, colon, in_language
from laby3d.options import translations
from laby3d.options.base import Limits
from laby3d.options.build import merge, nested, validated_job
from laby3d.options.flags import all_flags, base_type, choices_of
from laby3d.options.job import Job, job_flag_fields
from laby3d.serve.uploads import MAX_UPLOAD_BYTES, OUTLINE, class_outline, pupil_outline, said_as_typed

#: Fields a pupil sees first, in this order; the rest of the maze and print sections go under
#: "more options".
MAIN_FIELDS = (
    "maze.shape",
    "maze.rows",
    "maze.cols",
    "maze.outline",
    "maze.braid",
    "maze.algorithm",
    "maze.placement",
    "seed",
    "print.cell_size",
    "print.wall_thickness",
    "print.wall_height",
    "print.base_thickness",
    "print.margin",
    "print.solution",
    "label",
    "print.printer",
)
#: Options of the class as a whole (how its printers' plates are shared: how many, a fleet of
#: several kinds, the slot a plate must print within): the teacher's, from ``--config`` or a
#: lock, never on a pupil's form.
CLASS_FIELDS = ("print.printers", "print.plate_spacing", "print.skirt_room", "print.fleet", "print.slot")
#: Sections whose other fields the form offers under "more options".
MORE_SECTIONS = ("maze", "print")
#: Largest side of a maze in the class app: a 100 × 100 solid renders in about 0.2 s, so a
#: pupil's preview never holds a worker for long (the CLI goes further).
MAX_SIDE = 100
#: Formats of the class set when the class config names none.
CLASS_FORMATS = ("maze.json", "stl", "3mf", "worksheet.pdf")
#: The outlines the outline field suggests (beside ``text:…`` and an upload), as the class's
#: language names them.
OUTLINE_SUGGESTIONS: dict[str, dict[str, str]] = {
    "circle": {"en": "circle", "fr": "disque"},
    "hexagon": {"en": "hexagon", "fr": "hexagone"},
    "triangle": {"en": "triangle", "fr": "triangle"},
    "heart": {"en": "heart", "fr": "cœur"},
    "star": {"en": "star", "fr": "étoile"},
    "ring": {"en": "ring (a disc with a hole)", "fr": "anneau (un disque troué)"},
    "text:A": {"en": "text:A (a letter or a word: text:ANA)", "fr": "text:A (une lettre ou un mot : text:ANA)"},
}
#: French names of the page's own fields that are not options (the pupil's name).
PAGE_FIELDS_FR = {"name": "nom", "options": "options"}
#: The formats every preview checks the design against (the printable solid, of every shape).
PREVIEW_FORMATS = ("stl",)
#: What the size fields mean for a shape whose size is not rows × columns: the form shows it
#: when that shape is chosen (form.js), in the class's language.
SIZE_BY_SHAPE: dict[str, dict[str, dict[str, Any]]] = {
    "maze.rows": {
        "theta": {
            "label": {"en": "rings", "fr": "anneaux"},
            "help": {
                "en": "number of rings, the centre counted as the first (2 rings: the centre and 6 cells around it)",
                "fr": "nombre d’anneaux, le centre compté comme le premier (2 anneaux : le centre et 6 cases autour)",
            },
        }
    },
    "maze.cols": {
        "theta": {
            "unused": True,
            "help": {"en": "not used by a round maze (its size is its rings)", "fr": "inutile pour un labyrinthe rond"},
        }
    },
}


def field_specs(lang: str = "en", *, every_section: bool = False) -> list[dict[str, Any]]:
    """The form's fields: path, flag, kind (int, float, bool, choice, text), choices (with
    ``choice_labels`` to show), default, min/max (``exclusive`` when strict), label and help in
    ``lang`` (:mod:`laby3d.options.translations`), and group (``main`` or ``more``); with
    ``every_section``, the fields of every section (what the teacher may lock), presets apart."""
    from laby3d.printability import PRINTERS

    specs = []
    for path, field, flags in job_flag_fields():
        section = path.split(".")[0] if "." in path else ""
        if path not in MAIN_FIELDS and section not in MORE_SECTIONS and not (every_section and path != "preset"):
            continue
        if path in CLASS_FIELDS and not every_section:
            continue
        kind = base_type(field.annotation)
        choices = choices_of(field)
        if path == "print.printer":
            choices = tuple(PRINTERS)
        spec: dict[str, Any] = {
            "path": path,
            "flag": flags[0],
            "label": translations.label(path, lang),
            "help": translations.help_text(path, field, lang),
            "default": field.default,
            "optional": field.default is None,
            "group": "main" if path in MAIN_FIELDS else "more",
        }
        if choices is not None:
            labels = [translations.choice_label(path, choice, lang) for choice in choices]
            spec.update(kind="choice", choices=list(choices), choice_labels=labels)
        elif kind is bool:
            spec["kind"] = "bool"
        elif kind in (int, float):
            spec["kind"] = "int" if kind is int else "float"
            spec.update(_limits(field.limits))
            if path in ("maze.rows", "maze.cols"):
                spec["max"] = MAX_SIDE
                spec["by_shape"] = {
                    shape: {
                        key: value if key == "unused" else value[lang if lang == "fr" else "en"]
                        for key, value in change.items()
                    }
                    for shape, change in SIZE_BY_SHAPE[path].items()
                }
        else:
            spec["kind"] = "text"
        if path == OUTLINE:
            spec["suggestions"] = [
                {"value": value, "label": names["fr" if lang == "fr" else "en"]}
                for value, names in OUTLINE_SUGGESTIONS.items()
            ]
            spec["upload"] = {"accept": ".svg,.png,.jpg,.jpeg,image/svg+xml,image/png,image/jpeg"}
            spec["upload"]["max_bytes"] = MAX_UPLOAD_BYTES
        specs.append(spec)
    order = {path: index for index, path in enumerate(MAIN_FIELDS)}
    return sorted(specs, key=lambda spec: order.get(spec["path"], len(order)))


def _limits(bounds: Limits) -> dict[str, Any]:
    """min/max of a number field from its range (``exclusive_min`` for ``>``)."""
    limits: dict[str, Any] = {}
    if bounds.ge is not None:
        limits["min"] = bounds.ge
    if bounds.gt is not None:
        limits.update(min=bounds.gt, exclusive_min=True)
    if bounds.le is not None:
        limits["max"] = bounds.le
    if bounds.lt is not None:
        limits.update(max=bounds.lt, exclusive_max=True)
    return limits


def known_paths() -> set[str]:
    """Every dotted path a design may set."""
    return {path for path, _, _ in job_flag_fields()}


def design_data(values: Any) -> dict[str, Any]:
    """A flat design from the client, checked for shape only: known paths, JSON scalars; ``None``
    and ``""`` mean "not set". Raises :class:`ParameterError` naming the path."""
    if not isinstance(values, Mapping):
        raise ParameterError(Message("option_paths"), field="options")
    paths = known_paths()
    design: dict[str, Any] = {}
    for path, value in values.items():
        if not isinstance(path, str) or path not in paths:
            raise ParameterError(Message("class_app_option"), field=str(path)[:80])
        if value is None or value == "":
            continue
        if not isinstance(value, (bool, int, float, str)) or (isinstance(value, str) and len(value) > 200):
            raise ParameterError(Message("short_value"), field=path)
        design[path] = value
    return design


def job_for(
    design: Mapping[str, Any],
    *,
    defaults: Mapping[str, Any],
    locks: Mapping[str, Any],
    formats: tuple[str, ...] | list[str],
    name: str = "maze",
    files: Mapping[str, str] | None = None,
) -> Job:
    """The checked job of a pupil's flat ``design``: the class ``defaults`` (nested, as a YAML
    job) under it, the teacher's flat ``locks`` over it; an uploaded outline (``upload:NAME``)
    read from the stored file ``files`` maps it to, any other file refused
    (:func:`laby3d.serve.uploads.pupil_outline`). Raises :class:`ParameterError` whose field is
    the dotted path at fault, an upload said as the pupil's reference."""
    files = files or {}
    try:
        return _checked_job(pupil_outline(design, files), defaults, class_outline(locks, files), formats, name)
    except ParameterError as error:
        raise ParameterError(said_as_typed(error.detail, files), field=error.field) from None


def _checked_job(
    design: Mapping[str, Any],
    defaults: Mapping[str, Any],
    locks: Mapping[str, Any],
    formats: tuple[str, ...] | list[str],
    name: str,
) -> Job:
    data = merge(merge(dict(defaults), nested(design)), nested(locks))
    data.update(name=name, formats=list(formats))
    maze = data.get("maze") or {}
    for side in ("rows", "cols"):
        value = maze.get(side) if isinstance(maze, Mapping) else None
        if isinstance(value, int) and not isinstance(value, bool) and value > MAX_SIDE:
            raise ParameterError(Message("class_app_limit", limit=MAX_SIDE, value=value), field=f"maze.{side}")
    return validated_job(data)


def field_error(error: Laby3dError, lang: str = "en") -> dict[str, Any]:
    """An error for the page: the field's dotted path (or None), its CLI flag and the message:
    in English as the CLI prints it (``--wall-thickness must be < cell_size …``), in French
    after the field's French label (``épaisseur des murs : doit être < cell_size …``)."""
    if isinstance(error, ParameterError) and error.field:
        flag = all_flags().get(error.field)
        if lang == "fr":
            name = translations.FRENCH[error.field].label if error.field in translations.FRENCH else error.field
            name = PAGE_FIELDS_FR.get(name, name)
            message = f"{colon(name.capitalize(), lang)} {in_language(error.detail, lang)}"
        else:
            message = f"{flag or error.field} {error.detail}"
        return {"field": error.field, "flag": flag, "message": message}
    return {"field": None, "flag": None, "message": in_language(str(error), lang)}
