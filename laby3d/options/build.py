"""Building a checked :class:`Job` from data, with every error located by its field.

The three front ends (YAML, CLI flags, Python keywords) all end here; each names a field the way
its user typed it, from the dotted path that :class:`laby3d.errors.ParameterError` carries.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from laby3d.errors import ParameterError
from laby3d.options.job import Job, job_flag_fields
from laby3d.options.presets import PRESETS
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


def pydantic_detail(error: Mapping[str, Any]) -> str:
    """What is wrong, in laby3d's words (``must be > 0, got 0``), from one pydantic error."""
    kind, ctx, value = error["type"], error.get("ctx") or {}, error.get("input")
    if kind in _CONSTRAINTS:
        key, sign = _CONSTRAINTS[kind]
        limit = ctx[key]
        return f"must be {sign} {f'{limit:g}' if isinstance(limit, float) else limit}, got {shown(value)}"
    if kind == "extra_forbidden":
        return "is not a known key"
    if kind == "missing":
        return "is required"
    if kind == "literal_error":
        return f"must be one of {ctx['expected'].replace(' or ', ', ')}, got {shown(value)}"
    if kind == "value_error" and isinstance(ctx.get("error"), ParameterError):
        return ctx["error"].detail
    messages = {
        "int_parsing": "must be a whole number",
        "int_from_float": "must be a whole number",
        "int_parsing_size": "must be a whole number of a sensible size",
        "int_type": "must be a whole number",
        "float_parsing": "must be a number",
        "float_type": "must be a number",
        "finite_number": "must be a finite number",
        "bool_parsing": "must be true or false",
        "bool_type": "must be true or false",
        "string_type": "must be text",
        "list_type": "must be a list",
        "model_type": "must be a mapping of options",
        "dict_type": "must be a mapping",
        "string_too_long": f"must be at most {ctx.get('max_length')} characters",
        "string_too_short": f"must be at least {ctx.get('min_length')} character(s)",
        "too_long": f"must have at most {ctx.get('max_length')} items",
        "too_short": f"must have at least {ctx.get('min_length')} item(s)",
    }
    detail = messages.get(kind) or error["msg"][0].lower() + error["msg"][1:]
    return f"{detail}, got {shown(value)}"


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
    preset = data.get("preset")
    if isinstance(preset, str) and preset in PRESETS:
        data = merge(PRESETS[preset], data)
    try:
        job = Job.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        raise ParameterError(pydantic_detail(first), field=path_of(first["loc"]) or None) from None
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


def job_from_options(options: Mapping[str, Any], *, formats: Sequence[str], size: tuple[int, int]) -> Job:
    """The job of Python keyword ``options`` for a maze of ``size`` (rows, cols); errors name the
    keyword."""
    paths = keyword_paths()
    unknown = sorted(set(options) - set(paths))
    if unknown:
        raise ParameterError(f"is not an option (options: {', '.join(sorted(paths))})", field=unknown[0])
    values = {paths[name]: value for name, value in options.items()}
    values.update({"maze.rows": size[0], "maze.cols": size[1], "formats": list(formats)})
    names = {path: name for name, path in paths.items()}
    try:
        return validated_job(nested(values))
    except ParameterError as error:
        raise ParameterError(error.detail, field=names.get(error.field or "", error.field)) from None
