"""Building a checked :class:`Job` from data, with every error located by its field.

The three front ends (YAML, CLI flags, Python keywords) all end here; each names a field the way
its user typed it, from the dotted path that :class:`laby3d.errors.ParameterError` carries.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from laby3d.errors import ParameterError
from laby3d.i18n.messages import Message
from laby3d.options.job import Job, job_flag_fields
from laby3d.options.presets import PRESETS, fitted_to_markers
from laby3d.quoting import shown


def path_of(loc: Sequence[Any]) -> str:
    """A pydantic location as a dotted path with indices: ``('names', 3)`` → ``names[3]``."""
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in loc).lstrip(".")


_CONSTRAINTS = {
    "greater_than": ("gt", ">"),
    "greater_than_equal": ("ge", ">="),
    "less_than": ("lt", "<"),
    "less_than_equal": ("le", "<="),
}
#: pydantic error type → the kind of laby3d sentence that says it (``got {value}`` after it).
PYDANTIC_KINDS = {
    "int_parsing": "whole_number",
    "int_from_float": "whole_number",
    "int_parsing_size": "sensible_whole_number",
    "int_type": "whole_number",
    "float_parsing": "number",
    "float_type": "number",
    "finite_number": "finite_number",
    "bool_parsing": "true_or_false",
    "bool_type": "true_or_false",
    "string_type": "text",
    "list_type": "list",
    "model_type": "options_mapping",
    "dict_type": "mapping",
}
#: pydantic length errors → (kind, the ``ctx`` key of the limit).
PYDANTIC_LENGTHS = {
    "string_too_long": ("at_most_characters", "max_length"),
    "string_too_short": ("at_least_characters", "min_length"),
    "too_long": ("at_most_items", "max_length"),
    "too_short": ("at_least_items", "min_length"),
}


def pydantic_detail(error: Mapping[str, Any]) -> str:
    """What is wrong, in laby3d's words (``must be > 0, got 0``), from one pydantic error: a
    :class:`laby3d.i18n.Message` that French pages and ``--lang fr`` say again in French."""
    kind, ctx, value = error["type"], error.get("ctx") or {}, error.get("input")
    if kind in _CONSTRAINTS:
        key, sign = _CONSTRAINTS[kind]
        return Message("compare", sign=sign, limit=ctx[key], value=shown(value))
    if kind == "extra_forbidden":
        return Message("unknown_key")
    if kind == "missing":
        return Message("required")
    if kind == "literal_error":
        return Message("one_of", choices=ctx["expected"].replace(" or ", ", "), value=shown(value))
    if kind == "value_error" and isinstance(ctx.get("error"), ParameterError):
        return ctx["error"].detail
    if kind in PYDANTIC_KINDS:
        return Message(PYDANTIC_KINDS[kind], value=shown(value))
    if kind in PYDANTIC_LENGTHS:
        sentence, limit = PYDANTIC_LENGTHS[kind]
        return Message(sentence, limit=ctx.get(limit), value=shown(value))
    if kind == "string_pattern_mismatch":
        return Message("pattern", pattern=ctx.get("pattern"), value=shown(value))
    return Message("other", detail=error["msg"][0].lower() + error["msg"][1:], value=shown(value))


def merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """``override`` merged over ``base``, recursively for nested mappings."""
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def validated_job(data: Mapping[str, Any], *, cross_checks: bool = True) -> Job:
    """The checked job ``data`` describes (over its preset, if it names one); raises
    :class:`ParameterError` whose ``field`` is the dotted path of the first field at fault
    (structure and ranges first, then, with ``cross_checks``, the rules between fields)."""
    preset, note = data.get("preset"), None
    if isinstance(preset, str) and preset in PRESETS:
        data, note = fitted_to_markers(preset, data, merge(PRESETS[preset], data))
    try:
        job = Job.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        raise ParameterError(pydantic_detail(first), field=path_of(first["loc"]) or None) from None
    if note is not None:
        job._notes = (note,)
    if cross_checks:
        job.check()
    return job


def keyword_paths() -> dict[str, str]:
    """Python keyword of every option that shapes an output of a given maze (its CLI flag with
    ``_`` for ``-``) → dotted path; the maze's own options and seed are the maze's business."""
    return {
        flags[0].lstrip("-").replace("-", "_"): path
        for path, _, flags in job_flag_fields()
        if not path.startswith("maze.") and path != "seed"
    }


def maze_size_values(shape: str, size: tuple[int, int | None]) -> dict[str, Any]:
    """The dotted option values of a given maze's shape and size (theta: no cols)."""
    values: dict[str, Any] = {"maze.shape": shape, "maze.rows": size[0]}
    if size[1] is not None:
        values["maze.cols"] = size[1]
    return values


def nested(values: Mapping[str, Any]) -> dict[str, Any]:
    """``{"print.nozzle": 0.4}`` → ``{"print": {"nozzle": 0.4}}``."""
    data: dict[str, Any] = {}
    for path, value in values.items():
        *sections, name = path.split(".")
        target = data
        for section in sections:
            target = target.setdefault(section, {})
        target[name] = value
    return data


def job_from_options(
    options: Mapping[str, Any], *, formats: Sequence[str], size: tuple[int, int | None], shape: str = "square"
) -> Job:
    """The job of Python keyword ``options`` for a ``shape`` maze of ``size`` (rows, cols; cols
    None for theta); errors name the keyword."""
    paths = keyword_paths()
    unknown = sorted(set(options) - set(paths))
    if unknown:
        raise ParameterError(f"is not an option (options: {', '.join(sorted(paths))})", field=unknown[0])
    values = {paths[name]: value for name, value in options.items()}
    values.update({**maze_size_values(shape, size), "formats": list(formats)})
    names = {path: name for name, path in paths.items()}
    try:
        return validated_job(nested(values))
    except ParameterError as error:
        raise ParameterError(error.detail, field=names.get(error.field or "", error.field)) from None
